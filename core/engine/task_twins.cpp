#include "engine/task_twins.h"

namespace parasight {

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

std::optional<TaskTwins> TaskTwins::make(const ExecutionGraph& graph, int micro_batches, int period_micro_batches) {
    auto index = MicroBatchIndex::make(graph, micro_batches, true);
    if (!index) return std::nullopt;
    return TaskTwins(graph, std::move(*index), period_micro_batches);
}

TaskId TaskTwins::of(TaskId task) const {
    const Task& source = graph_->tasks[static_cast<std::size_t>(task)];
    if (source.micro_batch < 0) return task;
    const TaskId twin =
        index_.find(source.device, source.micro_batch + period_micro_batches_, index_.position(task));
    if (twin < 0 || !same_work(source, graph_->tasks[static_cast<std::size_t>(twin)], labels_) ||
        graph_->predecessor_count(task) != graph_->predecessor_count(twin)) {
        return -1;
    }
    return twin;
}

}  // namespace parasight
