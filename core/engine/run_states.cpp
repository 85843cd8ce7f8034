#include "engine/run_states.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace parasight {
namespace {

bool close(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance; }

// A device's memory level just before `time_s`: its last sample before then (0 before the first).
double level_before(const std::vector<MemorySample>& timeline, double time_s) {
    const auto after = std::lower_bound(timeline.begin(), timeline.end(), time_s,
                                        [](const MemorySample& sample, double t) { return sample.time_s < t; });
    return after == timeline.begin() ? 0.0 : std::prev(after)->bytes;
}

}  // namespace

RunStates::RunStates(const ExecutionGraph& graph, const EngineRun& run) : graph_(graph), run_(run) {
    // Each task's latest successor start, worked out in task order (a task's successors mostly follow it closely, so
    // their timings are near at hand) and then read in start order. Whether a task is of a micro-batch is read
    // once, in order, beforehand: reading a whole Task out of order for that one field missed the cache.
    const std::size_t count = graph.tasks.size();
    std::vector<std::uint8_t> of_micro_batch(count);
    for (std::size_t t = 0; t < count; ++t) of_micro_batch[t] = graph.tasks[t].micro_batch >= 0 ? 1 : 0;
    std::vector<double> last_successor_start_s(count);
    for (std::size_t t = 0; t < count; ++t) {
        const auto task = static_cast<TaskId>(t);
        double last_s = run.timings[t].start_s;
        for (const std::int32_t* next = graph.successors_begin(task); next != graph.successors_end(task); ++next) {
            const auto n = static_cast<std::size_t>(*next);
            if (of_micro_batch[n] != 0 && run.timings[n].start_s > last_s) last_s = run.timings[n].start_s;
        }
        last_successor_start_s[t] = last_s;
    }
    start_order_s_.reserve(run.start_order.size());
    last_successor_start_s_.reserve(run.start_order.size());
    for (const TaskId task : run.start_order) {
        start_order_s_.push_back(run.timings[static_cast<std::size_t>(task)].start_s);
        last_successor_start_s_.push_back(last_successor_start_s[static_cast<std::size_t>(task)]);
    }
}

std::size_t RunStates::started_before(double time_s) const {
    return static_cast<std::size_t>(std::lower_bound(start_order_s_.begin(), start_order_s_.end(), time_s) -
                                    start_order_s_.begin());
}

std::size_t RunStates::waited_for_across(double time_s) const {
    const std::size_t started = started_before(time_s);
    return static_cast<std::size_t>(std::count_if(last_successor_start_s_.begin(),
                                                  last_successor_start_s_.begin() + static_cast<std::ptrdiff_t>(started),
                                                  [&](double last_s) { return last_s >= time_s; }));
}

StateDifference RunStates::difference(double earlier_s, double later_s, const TaskTwins& twins,
                                      double tolerance_s) const {
    const double delta = later_s - earlier_s;
    auto timing = [&](TaskId task) -> const TaskTiming& { return run_.timings[static_cast<std::size_t>(task)]; };
    const std::size_t slots = graph_.stream_slot_count();
    // The head of each stream at each instant, as an index into its tasks (its count when all have started).
    std::vector<std::size_t> heads_before(slots);
    std::vector<std::size_t> heads_after(slots);
    auto head_at = [&](std::span<const TaskId> queue, double time_s) {
        // A stream starts its tasks in order, so their starts do not decrease along it.
        return static_cast<std::size_t>(
            std::lower_bound(queue.begin(), queue.end(), time_s,
                             [&](TaskId task, double t) { return timing(task).start_s < t; }) -
            queue.begin());
    };
    auto queue_of = [&](std::size_t slot) { return graph_.stream_tasks(slot); };
    // The streams: the same head (its twin), the same task running, started Δ later.
    double history_from_s = earlier_s;
    for (std::size_t slot = 0; slot < slots; ++slot) {
        const auto queue = queue_of(slot);
        if (queue.empty()) continue;
        const std::size_t before = head_at(queue, earlier_s);
        const std::size_t after = head_at(queue, later_s);
        heads_before[slot] = before;
        heads_after[slot] = after;
        if ((before == queue.size()) != (after == queue.size())) return StateDifference::stream_head;
        // The twin, or the same task waiting at both (a task of the schedule's end: the gradients' reduction after
        // the last micro-batch, whatever the micro-batches before).
        if (before < queue.size() && twins.of(queue[before]) != queue[after] && queue[before] != queue[after]) {
            return StateDifference::stream_head;
        }
        const bool running_before = before > 0 && timing(queue[before - 1]).end_s > earlier_s;
        const bool running_after = after > 0 && timing(queue[after - 1]).end_s > later_s;
        if (running_before != running_after) return StateDifference::running_task;
        if (running_before) {
            const TaskId task = queue[before - 1];
            if (twins.of(task) != queue[after - 1] ||
                !close(timing(queue[after - 1]).start_s - timing(task).start_s, delta, tolerance_s)) {
                return StateDifference::running_task;
            }
            history_from_s = std::min(history_from_s, timing(task).start_s);
        }
    }
    // What ran beside the running tasks since the first of them started, which set their rates: every task that ran
    // then, on every stream, ran Δ later as its twin (and nothing else did).
    for (std::size_t slot = 0; slot < slots; ++slot) {
        const auto queue = queue_of(slot);
        if (queue.empty()) continue;
        std::size_t ran_before = 0;
        for (std::size_t i = heads_before[slot]; i > 0 && timing(queue[i - 1]).end_s > history_from_s + tolerance_s; --i) {
            const TaskId task = queue[i - 1];
            const TaskId twin = twins.of(task);
            if (twin < 0 || !close(timing(twin).start_s - timing(task).start_s, delta, tolerance_s)) return StateDifference::what_ran_beside;
            // One still running at the earlier instant ends in the state's future; the others ended Δ apart.
            if (timing(task).end_s <= earlier_s && !close(timing(twin).end_s - timing(task).end_s, delta, tolerance_s)) {
                return StateDifference::what_ran_beside;
            }
            ++ran_before;
        }
        std::size_t ran_after = 0;
        for (std::size_t i = heads_after[slot];
             i > 0 && timing(queue[i - 1]).end_s > history_from_s + delta + tolerance_s; --i) {
            ++ran_after;
        }
        if (ran_before != ran_after) return StateDifference::what_ran_beside;
    }
    // Memory.
    for (const DeviceMemory& memory : run_.memory) {
        if (!close(level_before(memory.timeline, earlier_s), level_before(memory.timeline, later_s),
                   1e-12 * std::max(1.0, memory.peak_bytes))) {
            return StateDifference::memory;
        }
    }
    // The tasks that start between the instants: each has its twin, and none is of no micro-batch (an optimizer step
    // waits for every micro-batch: it does not repeat).
    const std::size_t window_begin = started_before(earlier_s);
    const std::size_t window_end = started_before(later_s);
    for (std::size_t i = window_begin; i < window_end; ++i) {
        const TaskId task = run_.start_order[i];
        if (graph_.tasks[static_cast<std::size_t>(task)].micro_batch < 0) return StateDifference::started_task;
        const TaskId twin = twins.of(task);
        if (twin < 0 || timing(twin).start_s < later_s) return StateDifference::started_task;
    }
    // The dependencies left: every task started before the earlier instant that a later one waits for has its twin
    // started before the later instant, done by then if it was done, followed by the twins of what waits for it.
    if (waited_for_across(earlier_s) != waited_for_across(later_s)) return StateDifference::dependencies_left;
    for (std::size_t i = 0; i < window_begin; ++i) {
        if (last_successor_start_s_[i] < earlier_s) continue;
        const TaskId task = run_.start_order[i];
        const TaskId twin = twins.of(task);
        if (twin < 0 || timing(twin).start_s >= later_s ||
            (timing(task).end_s <= earlier_s) != (timing(twin).end_s <= later_s)) {
            return StateDifference::dependencies_left;
        }
        for (const std::int32_t* next = graph_.successors_begin(task); next != graph_.successors_end(task); ++next) {
            if (timing(*next).start_s < earlier_s || graph_.tasks[static_cast<std::size_t>(*next)].micro_batch < 0) continue;
            const TaskId next_twin = twins.of(*next);
            if (next_twin < 0 || timing(next_twin).start_s < later_s ||
                std::find(graph_.successors_begin(twin), graph_.successors_end(twin), next_twin) ==
                    graph_.successors_end(twin)) {
                return StateDifference::dependencies_left;
            }
        }
    }
    return StateDifference::none;
}

}  // namespace parasight
