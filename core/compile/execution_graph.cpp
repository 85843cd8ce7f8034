#include "compile/execution_graph.h"

#include <algorithm>

namespace parasight {

std::int32_t ExecutionGraph::label(const std::string& name) {
    const auto it = std::find(labels.begin(), labels.end(), name);
    if (it != labels.end()) return static_cast<std::int32_t>(it - labels.begin());
    labels.push_back(name);
    return static_cast<std::int32_t>(labels.size() - 1);
}

void ExecutionGraph::finish() {
    successor_offsets_.assign(tasks.size() + 1, 0);
    predecessor_counts_.assign(tasks.size(), 0);
    for (const auto& [before, after] : edges_) {
        ++successor_offsets_[static_cast<std::size_t>(before) + 1];
        ++predecessor_counts_[after];
    }
    for (std::size_t i = 1; i < successor_offsets_.size(); ++i) successor_offsets_[i] += successor_offsets_[i - 1];
    successors_.assign(edges_.size() + 1, 0);
    std::vector<std::int32_t> fill(successor_offsets_.begin(), successor_offsets_.end() - 1);
    for (const auto& [before, after] : edges_) successors_[fill[before]++] = after;
    edges_.clear();
    edges_.shrink_to_fit();

    stream_offsets_.assign(stream_slot_count() + 1, 0);
    for (const Task& task : tasks) ++stream_offsets_[stream_slot(task.device, task.stream) + 1];
    for (std::size_t s = 1; s < stream_offsets_.size(); ++s) stream_offsets_[s] += stream_offsets_[s - 1];
    stream_tasks_.resize(tasks.size());
    std::vector<std::uint32_t> slot_fill(stream_offsets_.begin(), stream_offsets_.end() - 1);
    for (std::size_t t = 0; t < tasks.size(); ++t) {
        stream_tasks_[slot_fill[stream_slot(tasks[t].device, tasks[t].stream)]++] = static_cast<TaskId>(t);
    }
}

}  // namespace parasight
