#pragma once
// A task's twin P micro-batches on: the task of the same device at the same place among its micro-batch's tasks
// (MicroBatchIndex), doing the same work. How the steady state finds what a schedule's period repeats.

#include "compile/execution_graph.h"
#include "engine/micro_batch_index.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace parasight {

// Whether two tasks do the same work: everything the engine and the analysis read of them but their micro-batch
// (labels compared through `labels`, which maps a's graph's label ids to b's).
[[nodiscard]] bool same_work(const Task& a, const Task& b, const std::vector<std::int32_t>& labels);

// Every label id of `graph` as itself: `labels` for two tasks of one graph.
[[nodiscard]] std::vector<std::int32_t> identity_labels(const ExecutionGraph& graph);

class TaskTwins {
public:
    // None when a task's micro-batch is outside [−1, micro_batches) (MicroBatchIndex::make).
    [[nodiscard]] static std::optional<TaskTwins> make(const ExecutionGraph& graph, int micro_batches,
                                                       int period_micro_batches);

    // The task `period_micro_batches` after `task`, with the same work and as many predecessors; a task of no
    // micro-batch (an optimizer step) is its own twin; −1 when the graph has no such task.
    [[nodiscard]] TaskId of(TaskId task) const;
    [[nodiscard]] const MicroBatchIndex& index() const noexcept { return index_; }

private:
    TaskTwins(const ExecutionGraph& graph, MicroBatchIndex index, int period_micro_batches)
        : graph_(&graph), index_(std::move(index)), period_micro_batches_(period_micro_batches),
          labels_(identity_labels(graph)) {}

    const ExecutionGraph* graph_;
    MicroBatchIndex index_;
    int period_micro_batches_;
    std::vector<std::int32_t> labels_;
};

}  // namespace parasight
