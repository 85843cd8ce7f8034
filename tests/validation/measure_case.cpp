#include "measure_case.h"

#include "collective/group_collective.h"
#include "common/enum_names.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "simulation/simulate.h"
#include "sweep/strategy_space.h"
#include "sweep/sweep_runner.h"
#include "topology/parallel_layout.h"
#include "units/quantity.h"

#include <algorithm>
#include <limits>

namespace parasight::validation {
namespace {

// Layer 0's wall time on device 0 in its forward (between the embedding and the logits) or its backward (between the
// logits' backward and the embedding's), every stream counted: computation, its collectives and any recomputation —
// what Korthikanti et al. 2022 Table 4 times per layer.
Expected<double> layer_span_s(const Timeline& timeline, bool forward) {
    double split_s = -1.0;
    for (const EventId id : timeline.lane(0, Stream::compute)) {
        const TimelineEvent event = timeline.event(id);
        if (forward && event.operation == "logits and loss") split_s = event.start_s;
        if (!forward && event.operation == "logits backward") split_s = event.end_s;
    }
    if (split_s < 0.0) return Error{"device 0 runs no logits: layer times need the last stage"};
    double start_s = std::numeric_limits<double>::infinity();
    double end_s = -std::numeric_limits<double>::infinity();
    for (std::size_t stream = 0; stream < stream_count; ++stream) {
        for (const EventId id : timeline.lane(0, static_cast<Stream>(stream))) {
            const TimelineEvent event = timeline.event(id);
            if (event.layer != 0 || (forward ? event.start_s >= split_s : event.start_s < split_s)) continue;
            start_s = std::min(start_s, event.start_s);
            end_s = std::max(end_s, event.end_s);
        }
    }
    if (end_s < start_s) return Error{"layer 0 ran nothing on device 0"};
    return end_s - start_s;
}

// The time device 0's optimizer step tasks ran on its compute stream (several with sub-groups of offloaded states).
Expected<double> optimizer_step_s(const Timeline& timeline) {
    double total_s = 0.0;
    bool found = false;
    for (const EventId id : timeline.lane(0, Stream::compute)) {
        const TimelineEvent event = timeline.event(id);
        if (event.operation != "optimizer step") continue;
        total_s += event.end_s - event.start_s;
        found = true;
    }
    if (!found) return Error{"device 0 runs no optimizer step"};
    return total_s;
}

Expected<double> measure_collective(const PublishedCase& c, const Scenario& scenario) {
    const auto op = value_of(c.collective_op, collective_op_names);
    if (!op) return Error{c.id + ": unknown collective op " + c.collective_op};
    const auto size = units::parse_quantity(c.collective_size, units::Dimension::size);
    if (!size) return Error{c.id + ": " + size.error()};
    // A group is an axis of the scenario's parallel layout: NPU 0's group along it.
    const auto axis = value_of(c.collective_group, parallel_axis_names);
    if (!axis) return Error{c.id + ": the group must be an axis (tp, cp, ep, dp, pp), not " + c.collective_group};
    const Topology topology = scenario.topology();
    const auto layout = ParallelLayout::make(topology, scenario.parallelism.layout_order());
    if (!layout) return Error{c.id + ": " + layout.error()};
    const auto spans = layout->spans(*axis);
    const CollectivePlan plan{scenario.cluster.multi_dimension_collectives, scenario.simulation.collective_chunks};
    const CollectiveCost cost = group_collective(*op, *size, topology, spans, plan);
    return c.metric == Metric::busbw ? cost.busbw_Bps : cost.time_s;
}

// Every tp × pp × dp strategy of the scenario simulated; the slowest's iteration time over the fastest's, when they
// are the published ones. Each point runs as a sweep runs it (run_point); one that does not load or does not fit is
// left out (DistSim's "unreachable configurations").
Expected<double> measure_strategy_speedup(const PublishedCase& c, const Scenario& scenario,
                                          const std::filesystem::path& folder) {
    auto space = SweepSpace::of(strategy_axes(scenario, StrategySpace::degrees));
    if (!space) return Error{c.id + ": " + space.error()};
    const SweepPlan plan{scenario.name, write_scenario_yaml(scenario), folder, std::move(space).value(), std::nullopt};
    struct Timed {
        std::string strategy;
        double iteration_s = 0.0;
    };
    std::vector<Timed> timed;
    const PointScenarios scenarios(plan.base_yaml);
    for (std::uint64_t k = 0; k < plan.space.point_count(); ++k) {
        const std::optional<PointResult> result = run_point(plan, scenarios, k);
        if (!result || result->status != PointStatus::ok) continue;
        std::string strategy;  // "tp 1 pp 8 dp 2"
        for (const AxisValue& value : result->values) {
            strategy += (strategy.empty() ? "" : " ") + value.path.substr(value.path.find('.') + 1) + " " + value.value;
        }
        timed.push_back({strategy, result->report->iteration_time_s});
    }
    if (timed.empty()) return Error{c.id + ": no strategy of the scenario runs"};
    const auto by_time = [](const Timed& a, const Timed& b) { return a.iteration_s < b.iteration_s; };
    const Timed& best = *std::min_element(timed.begin(), timed.end(), by_time);
    const Timed& worst = *std::max_element(timed.begin(), timed.end(), by_time);
    if (best.strategy != c.best_strategy || worst.strategy != c.worst_strategy) {
        return Error{c.id + ": ParaSight finds " + best.strategy + " fastest and " + worst.strategy +
                     " slowest, the paper " + c.best_strategy + " and " + c.worst_strategy};
    }
    return worst.iteration_s / best.iteration_s;
}

Expected<double> measure_simulation(const PublishedCase& c, const ValidatedScenario& scenario) {
    SimulateOptions options;
    const bool events = c.metric == Metric::layer_forward || c.metric == Metric::layer_backward ||
                        c.metric == Metric::optimizer_step;
    options.timeline = events ? TimelineDetail::events : TimelineDetail::none;
    auto simulation = simulate(scenario, options);
    if (!simulation) return Error{c.id + ": " + simulation.error().message};
    const Report& report = simulation->report;
    const bool whole_run = c.metric == Metric::iteration_time || c.metric == Metric::model_tflops ||
                           c.metric == Metric::hardware_tflops || c.metric == Metric::mfu;
    if (whole_run && report.out_of_memory) {
        // A published run ran: ParaSight must not say it could not.
        return Error{c.id + ": ParaSight reports NPU " + std::to_string(report.out_of_memory->npu) +
                     " out of memory (" + report.out_of_memory->tensor + ") in a run that was published as having run"};
    }
    switch (c.metric) {
    case Metric::iteration_time: return report.iteration_time_s;
    case Metric::model_tflops: return report.model_tflops_per_device * 1e12;
    case Metric::hardware_tflops: {
        // As model_tflops, with the hardware FLOPs (recomputation included) in place of the model FLOPs.
        const double device_seconds = report.iteration_time_s * static_cast<double>(report.devices);
        if (!(device_seconds > 0.0)) return Error{c.id + ": the iteration took no time"};
        return report.hardware_flops_per_iteration / device_seconds;
    }
    case Metric::mfu: return report.mfu;
    case Metric::out_of_memory: return report.peak_memory_bytes / report.memory_capacity_bytes;
    case Metric::model_states: {
        const auto& bytes = report.memory_by_category_bytes;
        return bytes[static_cast<std::size_t>(MemoryCategory::weights)] +
               bytes[static_cast<std::size_t>(MemoryCategory::gradients)] +
               bytes[static_cast<std::size_t>(MemoryCategory::optimizer)];
    }
    case Metric::layer_forward:
    case Metric::layer_backward: {
        const auto span_s = layer_span_s(*simulation->timeline, c.metric == Metric::layer_forward);
        if (!span_s) return Error{c.id + ": " + span_s.error()};
        return *span_s;
    }
    case Metric::optimizer_step: {
        const auto step_s = optimizer_step_s(*simulation->timeline);
        if (!step_s) return Error{c.id + ": " + step_s.error()};
        return *step_s;
    }
    case Metric::busbw:
    case Metric::collective_time:
    case Metric::strategy_speedup: break;
    }
    return Error{c.id + ": not a simulation metric"};
}

}  // namespace

Expected<double> measure_case(const PublishedCase& published, const std::filesystem::path& cases_folder) {
    const std::filesystem::path file = cases_folder / published.scenario;
    const LoadResult loaded = load_scenario_file(file);
    if (!loaded.scenario) {
        std::string message = published.id + ": " + file.string() + " does not load:";
        for (const auto& diagnostic : loaded.diagnostics) message += "\n  " + diagnostic.to_string();
        return Error{message};
    }
    const ValidatedScenario& scenario = *loaded.scenario;
    if (published.metric == Metric::busbw || published.metric == Metric::collective_time) {
        return measure_collective(published, scenario.value());
    }
    if (published.metric == Metric::strategy_speedup) {
        return measure_strategy_speedup(published, scenario.value(), file.parent_path());
    }
    return measure_simulation(published, scenario);
}

}  // namespace parasight::validation
