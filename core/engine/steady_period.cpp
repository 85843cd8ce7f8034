#include "engine/steady_period.h"

#include "engine/micro_batch_index.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

namespace parasight {
namespace {

// Whether two tasks do the same work: everything the engine and the analysis read of them but their micro-batch
// (labels compared through `labels`, which maps a's graph's label ids to b's).
bool same_work(const Task& a, const Task& b, const std::vector<std::int32_t>& labels) {
    return a.kind == b.kind && a.stream == b.stream && a.delayed_kind == b.delayed_kind && a.device == b.device &&
           a.layer == b.layer && labels[static_cast<std::size_t>(a.label)] == b.label &&
           a.memory_bound_share == b.memory_bound_share && a.work_s == b.work_s && a.flops == b.flops &&
           a.bytes == b.bytes && a.dimension_mask == b.dimension_mask && (a.collective >= 0) == (b.collective >= 0) &&
           a.peers == b.peers && a.allocate_bytes == b.allocate_bytes && a.allocate_category == b.allocate_category &&
           a.release_bytes == b.release_bytes && a.release_category == b.release_category &&
           a.release_buffer_bytes == b.release_buffer_bytes;
}

std::vector<std::int32_t> identity_labels(const ExecutionGraph& graph) {
    std::vector<std::int32_t> labels(graph.labels.size());
    for (std::size_t l = 0; l < labels.size(); ++l) labels[l] = static_cast<std::int32_t>(l);
    return labels;
}

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

bool close(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance; }

// The memory level of a device just before `time_s`: its last sample before then (0 before the first).
double level_before(const std::vector<MemorySample>& timeline, double time_s) {
    const auto after = std::lower_bound(timeline.begin(), timeline.end(), time_s,
                                        [](const MemorySample& sample, double t) { return sample.time_s < t; });
    return after == timeline.begin() ? 0.0 : std::prev(after)->bytes;
}

// Whether every device's memory does in [T − Δ, T) what it did a period earlier: the same level as that period
// began, the same samples Δ later.
bool memory_repeats(const EngineRun& run, double boundary_s, double period_s, double tolerance_s) {
    for (const DeviceMemory& memory : run.memory) {
        const auto& timeline = memory.timeline;
        const double bytes_tolerance = 1e-12 * std::max(1.0, memory.peak_bytes);
        const double first_s = boundary_s - 2.0 * period_s;
        const double second_s = boundary_s - period_s;
        if (!close(level_before(timeline, first_s), level_before(timeline, second_s), bytes_tolerance)) return false;
        auto at = [&](double t) {
            return std::lower_bound(timeline.begin(), timeline.end(), t,
                                    [](const MemorySample& sample, double time) { return sample.time_s < time; });
        };
        const auto first = at(first_s);
        const auto second = at(second_s);
        const auto end = at(boundary_s);
        if (second - first != end - second) return false;
        for (auto a = first, b = second; a != second; ++a, ++b) {
            if (!close(b->time_s - a->time_s, period_s, tolerance_s) || !close(a->bytes, b->bytes, bytes_tolerance)) {
                return false;
            }
        }
    }
    return true;
}

// Whether the three periods before the boundary repeat: every task that starts in [T − 3Δ, T) has its twin P
// micro-batches later (same device, same place among that micro-batch's tasks, same work) starting and ending Δ
// later, and [T − 2Δ, T + Δ) holds those twins and nothing else.
bool periods_repeat(const ExecutionGraph& graph, const EngineRun& run, const MicroBatchIndex& index,
                    const std::vector<TaskId>& by_start, const std::vector<std::int32_t>& labels,
                    const SteadyPeriod& period, double tolerance_s) {
    auto first_at = [&](double t) {
        return std::lower_bound(by_start.begin(), by_start.end(), t, [&](TaskId task, double time) {
            return run.timings[static_cast<std::size_t>(task)].start_s < time;
        });
    };
    const double delta = period.period_s;
    const auto begin = first_at(period.boundary_s - 3.0 * delta);
    const auto end = first_at(period.boundary_s);
    // The counts first: a boundary too near the run's end or its warm-up fails here without a walk.
    if (begin == end ||
        first_at(period.boundary_s + delta) - first_at(period.boundary_s - 2.0 * delta) != end - begin) {
        return false;
    }
    for (auto it = begin; it != end; ++it) {
        const Task& task = graph.tasks[static_cast<std::size_t>(*it)];
        if (task.micro_batch < 0) return false;
        const TaskId twin = index.find(task.device, task.micro_batch + period.micro_batches, index.position(*it));
        if (twin < 0 || !same_work(task, graph.tasks[static_cast<std::size_t>(twin)], labels) ||
            graph.predecessor_count(*it) != graph.predecessor_count(twin)) {
            return false;
        }
        const TaskTiming& a = run.timings[static_cast<std::size_t>(*it)];
        const TaskTiming& b = run.timings[static_cast<std::size_t>(twin)];
        if (!close(b.start_s - a.start_s, delta, tolerance_s) || !close(b.end_s - a.end_s, delta, tolerance_s)) {
            return false;
        }
    }
    return true;
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
    const auto index = MicroBatchIndex::make(graph, short_micro_batches, true);
    if (!index) return std::nullopt;
    const std::vector<TaskId>& by_start = run.start_order;
    if (by_start.size() != graph.tasks.size()) return std::nullopt;
    const std::vector<std::int32_t> labels = identity_labels(graph);
    const double tolerance_s = time_tolerance(run, repeats);
    // The latest boundary first: the further from the warm-up, the likelier the schedule has settled.
    for (int k = short_micro_batches - 1; k >= period_micro_batches; --k) {
        const TaskId at = index->find(0, k, 0);
        const TaskId before = index->find(0, k - period_micro_batches, 0);
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
        if (periods_repeat(graph, run, *index, by_start, labels, period, tolerance_s) &&
            memory_repeats(run, period.boundary_s, period.period_s, tolerance_s)) {
            return period;
        }
    }
    return std::nullopt;
}

bool period_spans_hold(const EngineRun& short_run, const SteadyPeriod& period) {
    const double boundary_s = period.boundary_s;
    const double delta = period.period_s;
    return std::all_of(short_run.timings.begin(), short_run.timings.end(), [&](const TaskTiming& timing) {
        if (timing.end_s <= timing.start_s) return true;
        if (timing.start_s < boundary_s - 3.0 * delta) return timing.end_s <= boundary_s - delta;
        if (timing.start_s >= boundary_s - delta && timing.start_s < boundary_s) {
            return timing.end_s <= boundary_s + 2.0 * delta;
        }
        return true;
    });
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
