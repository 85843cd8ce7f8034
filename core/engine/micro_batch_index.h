#pragma once
// Every task of a graph by device, micro-batch and its place among that device's tasks of that micro-batch: how the
// steady state finds the same task one period later or in a graph of more micro-batches. Internal to core/engine.

#include "compile/execution_graph.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace parasight {

// Micro-batch −1 holds the tasks of none (the optimizer step).
class MicroBatchIndex {
public:
    // None when a task's micro-batch is outside [−1, micro_batches).
    static std::optional<MicroBatchIndex> make(const ExecutionGraph& graph, int micro_batches, bool with_positions);

    // The task at `position` among `device`'s tasks of `micro_batch`, or −1.
    [[nodiscard]] TaskId find(std::int32_t device, std::int64_t micro_batch, std::int32_t position) const {
        if (micro_batch < -1 || micro_batch + 1 >= static_cast<std::int64_t>(buckets_per_device_)) return -1;
        const std::size_t b = bucket(device, micro_batch);
        const std::size_t at = offsets_[b] + static_cast<std::size_t>(position);
        return at < offsets_[b + 1] ? ordered_[at] : -1;
    }
    [[nodiscard]] std::int32_t position(TaskId task) const { return positions_[static_cast<std::size_t>(task)]; }

private:
    [[nodiscard]] std::size_t bucket(std::int32_t device, std::int64_t micro_batch) const {
        return static_cast<std::size_t>(device) * buckets_per_device_ + static_cast<std::size_t>(micro_batch + 1);
    }
    std::size_t buckets_per_device_ = 1;
    std::vector<std::size_t> offsets_;
    std::vector<TaskId> ordered_;
    std::vector<std::int32_t> positions_;
};

}  // namespace parasight
