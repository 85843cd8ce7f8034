#pragma once
// Tasks into the execution graph, as the graph builder emits them: labels looked up once, computations slowed on the
// devices the what-if rules slow, communications costed (transfer_costs.h) and preceded by the delays the rules
// inject, and in every-device mode each collective instance matched across its group's members. Internal to
// core/compile.

#include "compile/execution_graph.h"
#include "compile/transfer_costs.h"
#include "compile/what_if_plan.h"
#include "device/kernel_time.h"
#include "topology/parallel_layout.h"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace parasight {

class TaskEmitter {
public:
    // Every argument outlives this object; `all_devices`: every device simulated, so collectives are matched.
    TaskEmitter(ExecutionGraph& graph, TransferCosts& transfers, WhatIfPlan& what_if, const ParallelLayout& layout,
                bool all_devices);

    // The next simulated device (graph.devices, in order): how many times as long its computations take.
    void add_device(double compute_time_factor);

    // Labels are string literals: each is added to the graph once, then found by its address (inline: every task
    // asks).
    std::int32_t label(const char* name) {
        const std::size_t slot = label_slot(name);
        if (label_slots_[slot].literal == name) [[likely]] return label_slots_[slot].id;
        return add_label(name, slot);
    }

    // A computation on a device the what-if rules slow takes that much longer.
    TaskId emit(std::int32_t device, const Task& task);

    // A communication that waits for `after`, preceded on its stream by `delay_s` (the what-if rules' delay for it)
    // when that is above 0: an injected_delay task its members meet as they meet the communication
    // (`delay_collective`, a collective id of its own, or -1), so that it takes that much longer once all have
    // reached it.
    // Defined here to be inlined where every communication is emitted.
    TaskId emit_communication(std::int32_t device, const Task& task, double delay_s, std::int32_t delay_collective,
                              TaskId after) {
        if (delay_s > 0.0) emit_delay(device, task, delay_s, delay_collective, after);
        const TaskId id = emit(device, task);
        if (after >= 0) graph_.depend(after, id);
        return id;
    }
    // A compute task that waits for `after` (or nothing).
    TaskId compute(std::int32_t device, TaskKind kind, const char* label, int layer, int micro_batch, KernelTime time,
                   double flops, TaskId after);

    // A collective on `axis` that waits for `after`; the next compute waits for it.
    TaskId collective(std::int32_t device, ParallelAxis axis, CollectiveOp op, double bytes, const char* label,
                      int layer, int micro_batch, Stream stream, TaskId after) {
        return collective(device, static_cast<RankGroup>(axis), op, bytes, label, layer, micro_batch, stream, after);
    }
    TaskId collective(std::int32_t device, RankGroup group, CollectiveOp op, double bytes, const char* label,
                      int layer, int micro_batch, Stream stream, TaskId after);

    // In every-device mode, the k-th collective a device issues on an axis meets the k-th of its group's members.
    // Devices are emitted in NPU order, so a group's first member (its lowest NPU) issues each instance first.
    std::int32_t collective_instance(std::int32_t device, RankGroup group);

private:
    // The time `work_s` of work takes on `device`: the compute stream runs at the device's compute speed factor.
    [[nodiscard]] double work_on(std::int32_t device, Stream stream, double work_s) const {
        return stream == Stream::compute ? work_s * compute_time_factors_[static_cast<std::size_t>(device)] : work_s;
    }
    void emit_delay(std::int32_t device, const Task& communication, double delay_s, std::int32_t delay_collective,
                    TaskId after);
    std::int32_t delay_label(std::int32_t communication_label);

    ExecutionGraph& graph_;
    TransferCosts& transfers_;
    WhatIfPlan& what_if_;
    const ParallelLayout& layout_;
    bool all_devices_;
    std::vector<double> compute_time_factors_;  // by simulated device
    // Each literal's label, by the literal's address: open addressing in a power-of-two table at most half full, so
    // that a lookup is a multiplication and a probe or two (it runs for every task).
    struct LabelSlot {
        const char* literal = nullptr;
        std::int32_t id = -1;
    };
    std::vector<LabelSlot> label_slots_ = std::vector<LabelSlot>(128);
    std::size_t labels_held_ = 0;
    [[nodiscard]] std::size_t label_slot(const char* literal) const noexcept {
        // Fibonacci hashing of the address (Knuth, TAOCP vol. 3 §6.4): its top bits index the table.
        const std::size_t mask = label_slots_.size() - 1;
        std::size_t slot = (reinterpret_cast<std::uintptr_t>(literal) * 0x9E3779B97F4A7C15ULL) >> 40 & mask;
        while (label_slots_[slot].literal != nullptr && label_slots_[slot].literal != literal) slot = (slot + 1) & mask;
        return slot;
    }
    std::int32_t add_label(const char* name, std::size_t slot);
    std::unordered_map<std::int32_t, std::int32_t> delay_labels_;  // by the delayed communication's label
    std::array<std::vector<std::int32_t>, rank_group_count> collective_sequence_;  // by group kind, by NPU
    // by group kind, by the group's first member
    std::array<std::unordered_map<std::int64_t, std::vector<std::int32_t>>, rank_group_count> group_instances_;
};

}  // namespace parasight
