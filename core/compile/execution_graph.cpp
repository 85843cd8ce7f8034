#include "compile/execution_graph.h"

#include <algorithm>

namespace parasight {

std::int32_t ExecutionGraph::label(const std::string& name) {
    const auto it = std::find(labels.begin(), labels.end(), name);
    if (it != labels.end()) return static_cast<std::int32_t>(it - labels.begin());
    labels.push_back(name);
    return static_cast<std::int32_t>(labels.size() - 1);
}

// Both indexes are counting sorts: each entry's count, their running sums (where each one's entries end), then the
// entries placed from the last, each one's end moving back to where it begins — so that each keeps the order it was
// added in, with no second array of positions.
void ExecutionGraph::finish() {
    successor_offsets_.assign(tasks.size() + 1, 0);
    predecessor_counts_.assign(tasks.size(), 0);
    for (const auto& [before, after] : edges_) {
        ++successor_offsets_[static_cast<std::size_t>(before)];
        ++predecessor_counts_[after];
    }
    for (std::size_t i = 1; i < tasks.size(); ++i) successor_offsets_[i] += successor_offsets_[i - 1];
    successor_offsets_[tasks.size()] = static_cast<std::int32_t>(edges_.size());
    successors_.assign(edges_.size() + 1, 0);
    for (auto edge = edges_.rbegin(); edge != edges_.rend(); ++edge) {
        successors_[--successor_offsets_[static_cast<std::size_t>(edge->first)]] = edge->second;
    }
    edges_.clear();
    edges_.shrink_to_fit();

    const std::size_t slots = stream_slot_count();
    stream_offsets_.assign(slots + 1, 0);
    for (const Task& task : tasks) ++stream_offsets_[stream_slot(task.device, task.stream)];
    for (std::size_t s = 1; s < slots; ++s) stream_offsets_[s] += stream_offsets_[s - 1];
    stream_offsets_[slots] = static_cast<std::uint32_t>(tasks.size());
    stream_tasks_.resize(tasks.size());
    for (std::size_t t = tasks.size(); t-- > 0;) {
        stream_tasks_[--stream_offsets_[stream_slot(tasks[t].device, tasks[t].stream)]] = static_cast<TaskId>(t);
    }
}

}  // namespace parasight
