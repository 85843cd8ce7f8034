#include "store/stored_sweep_run.h"

#include "scenario_file/scenario_loader.h"
#include "sweep/sweep_setup.h"

namespace parasight {

Expected<SweepPlan> stored_sweep_plan(ResultStore& store, std::int64_t sweep_id) {
    const Expected<SweepSummary> sweep = store.sweep(sweep_id);
    if (!sweep) return Error{sweep.error()};
    if (sweep.value().core_version != PARASIGHT_VERSION) {
        return Error{"sweep " + std::to_string(sweep_id) + " was computed by ParaSight " + sweep.value().core_version +
                     "; this is " + PARASIGHT_VERSION + ", whose points would be another sweep's: run it anew"};
    }
    const Expected<std::string> yaml = store.scenario_yaml(sweep.value().base_scenario_hash);
    if (!yaml) return Error{yaml.error()};
    Expected<SweepSection> section = store.sweep_section(sweep_id);
    if (!section) return Error{section.error()};
    const std::string name = "sweep " + std::to_string(sweep_id) + "'s base scenario";
    ReadResult read = read_scenario_text(yaml.value(), name);
    if (!read.scenario) {
        return Error{name + " does not read: " +
                     (read.diagnostics.empty() ? std::string("it is not YAML") : read.diagnostics.front().to_string())};
    }
    const SweepBase base = sweep_base(std::move(*read.scenario), std::move(section).value(), ".");
    Expected<SweepPlan, SweepSetupProblem> plan = plan_sweep(base, {}, std::nullopt);
    if (!plan) return Error{"sweep " + std::to_string(sweep_id) + "'s axes make no sweep now: " + plan.error().message};
    if (sweep_key(sweep_record(plan.value())) != sweep.value().key) {
        return Error{"sweep " + std::to_string(sweep_id) + " does not read back as the same sweep (its base scenario " +
                     "or axes are written differently now): run it anew"};
    }
    return std::move(plan).value();
}

SweepRecord sweep_record(const SweepPlan& plan) {
    return SweepRecord{plan.name, plan.base_yaml, plan.space.axes(), plan.space.point_count()};
}

Expected<StoredSweepStart> start_stored_sweep(ResultStore& store, const SweepPlan& plan, SweepOptions& options) {
    const Expected<std::int64_t> sweep_id = store.open_sweep(sweep_record(plan));
    if (!sweep_id) return Error{sweep_id.error()};
    Expected<std::vector<std::uint64_t>> done = store.stored_points(sweep_id.value());
    if (!done) return Error{done.error()};
    options.done = std::move(done).value();
    StoredSweepStart start{sweep_id.value(), options.shard.size_of(plan.space.point_count()), 0};
    for (const std::uint64_t point : options.done) start.stored_in_shard += options.shard.holds(point) ? 1 : 0;
    return start;
}

std::optional<std::string> StoringSweepObserver::points_done(std::span<const PointResult> points) {
    if (auto problem = store_.add_points(sweep_id_, points)) return problem;
    stored_now_ += points.size();
    for (const PointResult& point : points) {
        if (point.status != PointStatus::ok || !point.report) continue;
        const double value = metric_.of(*point.report);
        if (!best_ || metric_.better(value, *best_)) {
            best_ = value;
            best_values_ = point.values;
        }
    }
    batch_stored();
    return std::nullopt;
}

}  // namespace parasight
