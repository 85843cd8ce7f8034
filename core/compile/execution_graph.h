#pragma once
// The ExecutionGraph: per simulated device, the tasks of one training iteration on its streams, with data and
// control dependencies (Proteus §5 execution graph; DistSim's per-device event lists). Tasks on one stream run in
// the order they were added, like kernels on a CUDA stream; a task also waits for its predecessors on any stream
// or device.

#include "collective/collective_op.h"
#include "common/enum_names.h"
#include "common/memory_category.h"
#include "common/task_kind.h"
#include "common/warning.h"
#include "scenario/memory_system.h"
#include "topology/dimension.h"
#include "topology/parallel_layout.h"

#include <array>
#include <optional>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace parasight {

// What a running task holds on its device besides its stream: the compute units (slowed by communication beside
// them), links (shared with other communications, slowed by computation beside them), or nothing.
enum class Occupies : std::uint8_t { compute, links, nothing };
[[nodiscard]] constexpr Occupies occupies(TaskKind kind) noexcept {
    // A memory transfer runs over the device's own host link or memory fabric, which nothing else here shares.
    if (kind == TaskKind::injected_delay || is_remote_memory_work(kind)) return Occupies::nothing;
    return is_communication(kind) ? Occupies::links : Occupies::compute;
}

// Whom a communication task exchanges data with, for views and traces: the members of a collective's rank group
// (one axis, or data parallelism with context and expert parallelism), or the other end of a point-to-point
// transfer.
enum class Peers : std::uint8_t {
    none,
    tp,
    cp,
    ep,
    dp,
    pp,
    data_and_expert,
    data_and_context,
    data_context_and_expert,
    next_stage,         // a pipeline send of activations
    previous_stage,     // a pipeline send of gradients
    embedding_partner,  // the tied embedding's other end: the last stage for the first, and back
};

using TaskId = std::int32_t;

// Its one-byte fields first, then the four-byte ones, then the doubles: 88 bytes without padding (104 in the order
// of meaning), which every compile, run and analysis reads once a task.
struct Task {
    TaskKind kind = TaskKind::forward;
    Stream stream = Stream::compute;
    TaskKind delayed_kind = TaskKind::forward;  // an injected delay: the kind of the communication it delays
    Peers peers = Peers::none;
    MemoryCategory allocate_category = MemoryCategory::activations;  // of allocate_bytes
    MemoryCategory release_category = MemoryCategory::activations;   // of release_bytes
    std::int32_t device = 0;        // index into ExecutionGraph::devices
    std::int32_t layer = -1;        // model layer, or -1 (embedding, logits, optimizer, …)
    std::int32_t micro_batch = -1;
    std::int32_t label = -1;        // index into ExecutionGraph::labels: the operation's name for traces
    // A computation: the share of its time that the device's memory bounds (KernelTime), which the breakdown counts as
    // exposed local memory.
    float memory_bound_share = 0.0F;
    std::uint32_t dimension_mask = 0;  // topology dimensions a communication uses, for bandwidth sharing
    std::int32_t collective = -1;   // tasks of one collective instance on several simulated devices share an id
    std::int32_t transfer_shape = -1;  // a communication's index into ExecutionGraph::transfer_shapes
    double work_s = 0.0;            // duration when nothing shares its device or links
    double flops = 0.0;             // hardware FLOPs (recompute included)
    double bytes = 0.0;             // bytes moved (communication) or streamed (a memory-bound computation)
    // Memory: allocated when the task starts, released when it ends.
    double allocate_bytes = 0.0;
    double release_bytes = 0.0;
    double release_buffer_bytes = 0.0;  // a ZeRO-3 parameter buffer the task was the last to use
};
static_assert(sizeof(Task) == 88);

// What a transfer puts on each topology dimension (indexed by dimension, 0 for those it does not use): the bytes the
// busiest NPU sends there and the time of its phases there alone — group_collective's per-dimension figures
// for a collective, the whole message on every dimension a point-to-point transfer crosses. Transfers of one shape
// (a layer's all-reduce in every micro-batch) share an entry.
struct TransferShape {
    std::vector<double> bytes_by_dimension;
    std::vector<double> time_by_dimension_s;
    // The collective it is, over how many ranks (for its bus bandwidth as NCCL tests report it); none for a
    // point-to-point send, which has 2.
    std::optional<CollectiveOp> op;
    std::int64_t ranks = 2;
    // A collective's algorithm and protocol on each dimension it uses (its first phase there), in dimension order —
    // NCCL's choice where the dimension leaves it to NCCL; empty for a point-to-point send.
    struct DimensionMethod {
        std::size_t dimension = 0;
        CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
        CollectiveProtocol protocol = CollectiveProtocol::simple;
    };
    std::vector<DimensionMethod> methods;
};

// One tier that keeps offloaded model states, and how much of it they take (parallelism.offload_optimizer,
// offload_gradients, offload_parameters): for host memory and NVMe, on the node whose devices keep the most (first_npu its first
// device), against one node's capacity; for the pool, every device's together against all its groups'.
struct OffloadUse {
    OffloadTarget target = OffloadTarget::host;
    bool optimizer = false;   // the optimizer's states are kept there
    bool gradients = false;   // the gradient shards are
    bool parameters = false;  // the layers' ZeRO-3 parameter shards are
    double bytes = 0.0;
    double capacity_bytes = 0.0;
    std::int64_t first_npu = 0;

    [[nodiscard]] bool exceeds_capacity() const noexcept { return bytes > capacity_bytes; }
    friend bool operator==(const OffloadUse&, const OffloadUse&) = default;
};

struct SimulatedDevice {
    std::int64_t npu = 0;     // NPU id in the topology
    int stage = 0;            // pipeline stage
    double weight = 1.0;      // how many real devices it stands for (its symmetry class)
    std::array<double, memory_category_count> static_bytes{};  // allocated for the whole iteration
};

class ExecutionGraph {
public:
    std::vector<SimulatedDevice> devices;
    std::vector<Task> tasks;
    std::vector<std::string> labels;
    std::int32_t collective_count = 0;
    std::vector<TransferShape> transfer_shapes;
    std::vector<Warning> warnings;  // what the compiler had to adjust, for the report
    std::vector<OffloadUse> offloads;  // a tier each, in the order host, NVMe, pool; empty without offloading

    TaskId add(const Task& task) {
        tasks.push_back(task);
        return static_cast<TaskId>(tasks.size() - 1);
    }
    void depend(TaskId before, TaskId after) { edges_.emplace_back(before, after); }  // `after` waits for `before`
    [[nodiscard]] std::size_t dependency_count() const noexcept { return edges_.size(); }  // added so far
    // The `index`-th dependency added, as (before, after); before finish().
    [[nodiscard]] std::pair<TaskId, TaskId> dependency(std::size_t index) const { return edges_[index]; }
    // Room for this many tasks and dependencies in all, so that adding them copies none.
    void reserve(std::size_t task_count, std::size_t dependency_count) {
        tasks.reserve(task_count);
        edges_.reserve(dependency_count);
    }
    std::int32_t label(const std::string& name);

    // Call once every task and dependency is in: builds the successor lists.
    void finish();
    [[nodiscard]] const std::int32_t* successors_begin(TaskId task) const { return &successors_[successor_offsets_[task]]; }
    [[nodiscard]] const std::int32_t* successors_end(TaskId task) const {
        return &successors_[0] + successor_offsets_[static_cast<std::size_t>(task) + 1];
    }
    [[nodiscard]] std::int32_t predecessor_count(TaskId task) const { return predecessor_counts_[task]; }

    // Each stream's tasks in the order it runs them (TaskId order), built by finish(): a stream's slot is
    // stream_slot(device, stream), and its tasks stream_tasks(slot). The engine queues them so; the analysis and the
    // steady-state search read the run back by them.
    [[nodiscard]] static std::size_t stream_slot(std::int32_t device, Stream stream) noexcept {
        return static_cast<std::size_t>(device) * stream_count + static_cast<std::size_t>(stream);
    }
    [[nodiscard]] std::size_t stream_slot_count() const noexcept { return devices.size() * stream_count; }
    [[nodiscard]] std::span<const TaskId> stream_tasks(std::size_t slot) const {
        return {stream_tasks_.data() + stream_offsets_[slot], stream_offsets_[slot + 1] - stream_offsets_[slot]};
    }
    // A device's tasks, stream after stream (its compute stream's first).
    [[nodiscard]] std::span<const TaskId> device_stream_tasks(std::int32_t device) const {
        const std::size_t from = stream_offsets_[stream_slot(device, Stream{})];
        return {stream_tasks_.data() + from, stream_offsets_[stream_slot(device + 1, Stream{})] - from};
    }
    // Every slot's tasks, one slot after another; slot `slot`'s begin at stream_offset(slot) (up to
    // stream_slot_count() included, where the last one's end).
    [[nodiscard]] std::span<const TaskId> all_stream_tasks() const noexcept { return stream_tasks_; }
    [[nodiscard]] std::size_t stream_offset(std::size_t slot) const { return stream_offsets_[slot]; }

private:
    std::vector<std::pair<TaskId, TaskId>> edges_;
    std::vector<std::int32_t> successor_offsets_;
    std::vector<std::int32_t> successors_;
    std::vector<std::int32_t> predecessor_counts_;
    std::vector<std::uint32_t> stream_offsets_;  // by slot, + 1
    std::vector<TaskId> stream_tasks_;
};

}  // namespace parasight
