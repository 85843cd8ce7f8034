#include "store/stored_sweep_run.h"

namespace parasight {

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
