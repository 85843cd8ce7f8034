#include "engine/micro_batch_index.h"

namespace parasight {

std::optional<MicroBatchIndex> MicroBatchIndex::make(const ExecutionGraph& graph, int micro_batches, bool with_positions) {
    MicroBatchIndex index;
    index.buckets_per_device_ = static_cast<std::size_t>(micro_batches) + 1;
    index.offsets_.assign(graph.devices.size() * index.buckets_per_device_ + 1, 0);
    for (const Task& task : graph.tasks) {
        if (task.micro_batch < -1 || task.micro_batch >= micro_batches) return std::nullopt;
        ++index.offsets_[index.bucket(task.device, task.micro_batch) + 1];
    }
    for (std::size_t b = 1; b < index.offsets_.size(); ++b) index.offsets_[b] += index.offsets_[b - 1];
    index.ordered_.assign(graph.tasks.size(), -1);
    if (with_positions) index.positions_.assign(graph.tasks.size(), 0);
    std::vector<std::size_t> fill(index.offsets_.begin(), index.offsets_.end() - 1);
    for (std::size_t t = 0; t < graph.tasks.size(); ++t) {
        const std::size_t b = index.bucket(graph.tasks[t].device, graph.tasks[t].micro_batch);
        if (with_positions) index.positions_[t] = static_cast<std::int32_t>(fill[b] - index.offsets_[b]);
        index.ordered_[fill[b]++] = static_cast<TaskId>(t);
    }
    return index;
}

}  // namespace parasight
