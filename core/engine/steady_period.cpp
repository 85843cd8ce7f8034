#include "engine/steady_period.h"

#include "engine/micro_batch_index.h"
#include "engine/run_states.h"
#include "engine/task_twins.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

namespace parasight {
namespace {

// `from`'s label ids as ids of `to`'s labels (−2 where `to` has no such label, which matches no task).
std::vector<std::int32_t> label_map(const ExecutionGraph& from, const ExecutionGraph& to) {
    std::unordered_map<std::string, std::int32_t> ids;
    for (std::size_t l = 0; l < to.labels.size(); ++l) ids.emplace(to.labels[l], static_cast<std::int32_t>(l));
    std::vector<std::int32_t> labels(from.labels.size(), -2);
    for (std::size_t l = 0; l < from.labels.size(); ++l) {
        if (const auto found = ids.find(from.labels[l]); found != ids.end()) labels[l] = found->second;
    }
    return labels;
}

// The largest time error a repetition may carry, so that `repeats` of them stay within 10^-10 of the run.
double time_tolerance(const EngineRun& run, std::int64_t repeats) {
    return 1e-10 * run.makespan_s / static_cast<double>(std::max<std::int64_t>(1, repeats));
}

}  // namespace

std::optional<SteadyPeriod> find_steady_period(const ExecutionGraph& graph, const EngineRun& run,
                                               int short_micro_batches, int period_micro_batches,
                                               std::int64_t repeats) {
    if (run.end != EngineEnd::finished || graph.devices.empty() || period_micro_batches < 1) return std::nullopt;
    if (run.start_order.size() != graph.tasks.size()) return std::nullopt;
    const auto twins = TaskTwins::make(graph, short_micro_batches, period_micro_batches);
    if (!twins) return std::nullopt;
    const MicroBatchIndex& index = twins->index();
    const RunStates states(graph, run);
    const double tolerance_s = time_tolerance(run, repeats);
    // The latest boundary first: the further from the warm-up, the likelier the schedule has settled. Micro-batch
    // k − 1's first task starts in the period before boundary k and needs its twin, so k ≤ count − P.
    for (int k = short_micro_batches - period_micro_batches; k >= period_micro_batches; --k) {
        const TaskId at = index.find(0, k, 0);
        const TaskId before = index.find(0, k - period_micro_batches, 0);
        if (at < 0 || before < 0) continue;
        SteadyPeriod period;
        period.micro_batches = period_micro_batches;
        period.period_s = run.timings[static_cast<std::size_t>(at)].start_s -
                          run.timings[static_cast<std::size_t>(before)].start_s;
        // Just before the task, so that its start and its twins' a period apart fall clearly on one side of each
        // period's edge, not on it by a rounding.
        period.boundary_s = run.timings[static_cast<std::size_t>(at)].start_s - 4.0 * tolerance_s;
        period.boundary_micro_batch = k;
        if (!(period.period_s > 8.0 * tolerance_s)) continue;
        if (states.difference(period.boundary_s - period.period_s, period.boundary_s, *twins, tolerance_s) ==
            StateDifference::none) {
            return period;
        }
    }
    return std::nullopt;
}

std::optional<EngineRun> repeat_steady_period(const ExecutionGraph& full_graph, const ExecutionGraph& short_graph,
                                              EngineRun short_run, int short_micro_batches,
                                              const SteadyPeriod& period, std::int64_t repeats,
                                              bool keep_memory_timeline, const PhaseProgress& progress,
                                              bool& cancelled) {
    cancelled = false;
    if (full_graph.devices.size() != short_graph.devices.size() || repeats < 1) return std::nullopt;
    const std::int64_t micro_batches = short_micro_batches + repeats * period.micro_batches;
    const auto full_index = MicroBatchIndex::make(full_graph, static_cast<int>(micro_batches), false);
    const auto short_index = MicroBatchIndex::make(short_graph, short_micro_batches, true);
    if (!full_index || !short_index) return std::nullopt;
    const std::vector<std::int32_t> labels = label_map(short_graph, full_graph);
    const double boundary_s = period.boundary_s;
    const double delta = period.period_s;
    const double window_s = boundary_s - delta;

    EngineRun run;
    run.timings.assign(full_graph.tasks.size(), TaskTiming{});
    std::vector<std::uint8_t> timed(full_graph.tasks.size(), 0);
    std::vector<TaskId> to_full(short_graph.tasks.size(), -1);
    std::size_t timed_count = 0;
    // Times full-graph task (device, micro-batch, position) as short task `source`, `shift_s` later. A task of no
    // micro-batch (the optimizer step) may wait for one task of every micro-batch, so for more in the full graph.
    auto time_as = [&](TaskId source, std::int64_t micro_batch, double shift_s) -> TaskId {
        const Task& task = short_graph.tasks[static_cast<std::size_t>(source)];
        const TaskId target = full_index->find(task.device, micro_batch, short_index->position(source));
        if (target < 0 || timed[static_cast<std::size_t>(target)] != 0 ||
            !same_work(task, full_graph.tasks[static_cast<std::size_t>(target)], labels) ||
            (task.micro_batch >= 0 &&
             short_graph.predecessor_count(source) != full_graph.predecessor_count(target))) {
            return -1;
        }
        const TaskTiming& timing = short_run.timings[static_cast<std::size_t>(source)];
        run.timings[static_cast<std::size_t>(target)] = TaskTiming{timing.start_s + shift_s, timing.end_s + shift_s};
        timed[static_cast<std::size_t>(target)] = 1;
        ++timed_count;
        return target;
    };
    const double repeated_s = static_cast<double>(repeats) * delta;
    const std::int64_t repeated_micro_batches = repeats * period.micro_batches;
    for (std::size_t t = 0; t < short_graph.tasks.size(); ++t) {
        if ((t & 0xFFFFU) == 0 && progress.report(static_cast<double>(t) / static_cast<double>(short_graph.tasks.size()))) {
            cancelled = true;
            return std::nullopt;
        }
        const auto source = static_cast<TaskId>(t);
        const Task& task = short_graph.tasks[t];
        const double start_s = short_run.timings[t].start_s;
        const bool after = start_s >= boundary_s;
        const std::int64_t micro_batch =
            after && task.micro_batch >= 0 ? task.micro_batch + repeated_micro_batches : task.micro_batch;
        to_full[t] = time_as(source, micro_batch, after ? repeated_s : 0.0);
        if (to_full[t] < 0) return std::nullopt;
        if (after || start_s < window_s) continue;
        // The repeated period: once more for every repetition.
        for (std::int64_t i = 1; i <= repeats; ++i) {
            if (time_as(source, task.micro_batch + i * period.micro_batches, static_cast<double>(i) * delta) < 0) {
                return std::nullopt;
            }
        }
    }
    if (timed_count != full_graph.tasks.size()) return std::nullopt;
    if (progress.report(1.0)) {
        cancelled = true;
        return std::nullopt;
    }

    run.makespan_s = short_run.makespan_s + repeated_s;
    run.events = short_run.events + 2 * (full_graph.tasks.size() - short_graph.tasks.size());
    run.end = EngineEnd::finished;
    run.memory = std::move(short_run.memory);
    // A task the memory record names, as the full graph's task at its time in the full run.
    auto moved = [&](TaskId task, double& time_s) {
        if (task < 0) return task;
        if (time_s >= boundary_s) time_s += repeated_s;
        return to_full[static_cast<std::size_t>(task)];
    };
    for (DeviceMemory& memory : run.memory) {
        // The repeated periods hold the levels of [T − Δ, T), which the short run has already been through: a peak
        // or a crossing of the capacity reached first after T is still reached first there, n periods later.
        memory.peak_task = moved(memory.peak_task, memory.peak_time_s);
        memory.over_capacity_task = moved(memory.over_capacity_task, memory.over_capacity_time_s);
        if (!keep_memory_timeline) {
            memory.timeline = {};
            continue;
        }
        memory.timeline = repeated_memory_timeline(memory.timeline, period, repeats);
    }
    return run;
}

std::vector<MemorySample> repeated_memory_timeline(const std::vector<MemorySample>& samples, const SteadyPeriod& period,
                                                   std::int64_t repeats) {
    const double boundary_s = period.boundary_s;
    const double delta = period.period_s;
    auto at = [&](double t) {
        return std::lower_bound(samples.begin(), samples.end(), t,
                                [](const MemorySample& sample, double time) { return sample.time_s < time; });
    };
    const auto window = at(boundary_s - delta);
    const auto boundary = at(boundary_s);
    std::vector<MemorySample> timeline;
    timeline.reserve(samples.size() + static_cast<std::size_t>(repeats) * static_cast<std::size_t>(boundary - window));
    timeline.insert(timeline.end(), samples.begin(), boundary);
    for (std::int64_t i = 1; i <= repeats; ++i) {
        for (auto sample = window; sample != boundary; ++sample) {
            timeline.push_back(MemorySample{sample->time_s + static_cast<double>(i) * delta, sample->bytes});
        }
    }
    const double repeated_s = static_cast<double>(repeats) * delta;
    for (auto sample = boundary; sample != samples.end(); ++sample) {
        timeline.push_back(MemorySample{sample->time_s + repeated_s, sample->bytes});
    }
    return timeline;
}

}  // namespace parasight
