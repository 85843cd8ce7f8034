#pragma once
// An event-driven run's state at an instant, read back from the finished run: what decides everything after it. The
// engine is deterministic (docs/model.md §4), so from an instant T on a run is decided by
//   - the head of every stream: the first of its tasks not started by T;
//   - the tasks running at T and the work they have left, which follows from when they started and what ran beside
//     them on every device since (the rates of docs/model.md §4);
//   - which tasks started before T are done, of those that a task not yet started waits for (the dependencies left);
//   - every device's memory level.
// When the state at T is the state at T − Δ with every task replaced by its twin P micro-batches on (TaskTwins), and
// the graph goes on with the same tasks P micro-batches on, everything from T on is everything from T − Δ on, Δ
// later: the period repeats for as long as the graph does. docs/model.md, "Steady state".

#include "compile/execution_graph.h"
#include "engine/engine.h"
#include "engine/task_twins.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace parasight {

// The first part of two states found to differ, in the order they are compared.
enum class StateDifference : std::uint8_t {
    none,
    stream_head,         // a stream waits for another task than the twin of the one it waited for
    running_task,        // a stream runs another task, or started it at another time
    what_ran_beside,     // what ran beside the running tasks since they started (so what they have left)
    memory,              // a device's memory level
    started_task,        // a task starting between the instants has no twin, or is of no micro-batch
    dependencies_left,   // which tasks a task not yet started still waits for
};

class RunStates {
public:
    // `run` is a finished run of `graph`, with its start order and memory timelines recorded; both must outlive this.
    RunStates(const ExecutionGraph& graph, const EngineRun& run);

    // Where the state at `later_s` differs from the state at `earlier_s` with every task its twin and every time
    // later_s − earlier_s later (to within `tolerance_s`; memory to 10^-12 of the device's peak); none when it
    // does not. Both instants fall between the run's events (a start or end within the tolerance of one makes the
    // states differ).
    [[nodiscard]] StateDifference difference(double earlier_s, double later_s, const TaskTwins& twins,
                                             double tolerance_s) const;

private:
    [[nodiscard]] std::size_t started_before(double time_s) const;  // tasks that start before `time_s`
    // Tasks started before `time_s` that a task starting at or after it waits for.
    [[nodiscard]] std::size_t waited_for_across(double time_s) const;

    const ExecutionGraph& graph_;
    const EngineRun& run_;
    std::vector<double> start_order_s_;  // every task's start, in the run's start order
    // In that order, the latest start of a task of some micro-batch that waits for it (its own start when none does).
    // A task of no micro-batch (an optimizer step) waits for every micro-batch's: it waits at every instant of the
    // steady state and starts only at the schedule's end, so what it still waits for is left out.
    std::vector<double> last_successor_start_s_;
};

}  // namespace parasight
