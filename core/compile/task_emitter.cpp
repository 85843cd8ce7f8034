#include "compile/task_emitter.h"

namespace parasight {

// Task::peers names a collective's rank group in RankGroup's order.
static_assert(static_cast<int>(Peers::data_and_expert) - static_cast<int>(Peers::tp) ==
              static_cast<int>(RankGroup::data_and_expert));
static_assert(static_cast<int>(Peers::data_context_and_expert) - static_cast<int>(Peers::tp) ==
              static_cast<int>(RankGroup::data_context_and_expert));

TaskEmitter::TaskEmitter(ExecutionGraph& graph, TransferCosts& transfers, WhatIfPlan& what_if,
                         const ParallelLayout& layout, bool all_devices)
    : graph_(graph), transfers_(transfers), what_if_(what_if), layout_(layout), all_devices_(all_devices) {}

void TaskEmitter::add_device(double compute_time_factor) { compute_time_factors_.push_back(compute_time_factor); }

std::int32_t TaskEmitter::add_label(const char* name, std::size_t slot) {
    const std::int32_t id = graph_.label(name);
    label_slots_[slot] = LabelSlot{name, id};
    if (2 * ++labels_held_ > label_slots_.size()) {
        std::vector<LabelSlot> held = std::move(label_slots_);
        label_slots_.assign(2 * held.size(), LabelSlot{});
        for (const LabelSlot& entry : held) {
            if (entry.literal != nullptr) label_slots_[label_slot(entry.literal)] = entry;
        }
    }
    return id;
}

TaskId TaskEmitter::emit(std::int32_t device, const Task& task) {
    // Copied once, into the graph, then placed and slowed there.
    const TaskId id = graph_.add(task);
    Task& added = graph_.tasks.back();
    added.device = device;
    added.work_s = work_on(device, added.stream, added.work_s);
    return id;
}

void TaskEmitter::emit_delay(std::int32_t device, const Task& communication, double delay_s,
                              std::int32_t delay_collective, TaskId after) {
    Task delay;
    delay.kind = TaskKind::injected_delay;
    delay.delayed_kind = communication.kind;
    delay.stream = communication.stream;
    delay.layer = communication.layer;
    delay.micro_batch = communication.micro_batch;
    delay.label = delay_label(communication.label);
    delay.work_s = delay_s;
    delay.collective = delay_collective;
    delay.peers = communication.peers;
    const TaskId id = emit(device, delay);
    if (after >= 0) graph_.depend(after, id);
}

std::int32_t TaskEmitter::delay_label(std::int32_t communication_label) {
    if (const auto it = delay_labels_.find(communication_label); it != delay_labels_.end()) return it->second;
    const std::int32_t id =
        graph_.label("delay before " + graph_.labels[static_cast<std::size_t>(communication_label)]);
    delay_labels_.emplace(communication_label, id);
    return id;
}

TaskId TaskEmitter::compute(std::int32_t device, TaskKind kind, const char* label, int layer, int micro_batch, KernelTime time,
               double flops, TaskId after) {
    // Made in place in the graph (the hottest task to emit: no copy).
    const std::int32_t label_id = this->label(label);
    const auto id = static_cast<TaskId>(graph_.tasks.size());
    Task& task = graph_.tasks.emplace_back();
    task.kind = kind;
    task.stream = Stream::compute;
    task.device = device;
    task.layer = layer;
    task.micro_batch = micro_batch;
    task.label = label_id;
    task.work_s = work_on(device, Stream::compute, time.total_s);
    task.memory_bound_share = static_cast<float>(time.memory_bound_share());
    task.flops = flops;
    if (after >= 0) graph_.depend(after, id);
    return id;
}

TaskId TaskEmitter::collective(std::int32_t device, RankGroup group, CollectiveOp op, double bytes, const char* label,
                                int layer, int micro_batch, Stream stream, TaskId after) {
    const TaskKind kind = group == RankGroup::tp   ? TaskKind::tp_comm
                          : group == RankGroup::cp ? TaskKind::cp_comm
                          : group == RankGroup::ep ? TaskKind::ep_comm
                                                   : TaskKind::dp_comm;
    const std::int32_t label_id = this->label(label);
    const auto peers = static_cast<Peers>(static_cast<int>(Peers::tp) + static_cast<int>(group));  // same order
    const std::int64_t npu = graph_.devices[static_cast<std::size_t>(device)].npu;
    const TransferCosts::Collective cost = transfers_.collective(group, op, bytes, npu);
    // Gradients reduced over data and expert parallelism together count as data-parallel communication. Every
    // member finds the same delay, so all or none of them emit one.
    const double delay_s = what_if_.delay_s(axes_of(group).front(), comm_operation(op), layer);
    std::int32_t delay_collective = -1;
    std::int32_t collective = -1;
    if (all_devices_) {
        if (delay_s > 0.0) delay_collective = collective_instance(device, group);
        collective = collective_instance(device, group);
    }
    // What the communication is, which its delay (emitted first, so that it runs first on the stream) names too.
    const auto describe = [&](Task& communication) {
        communication.kind = kind;
        communication.stream = stream;
        communication.layer = layer;
        communication.micro_batch = micro_batch;
        communication.label = label_id;
        communication.peers = peers;
    };
    if (delay_s > 0.0) {
        Task communication;
        describe(communication);
        emit_delay(device, communication, delay_s, delay_collective, after);
    }
    // Made in place in the graph.
    const auto id = static_cast<TaskId>(graph_.tasks.size());
    Task& task = graph_.tasks.emplace_back();
    describe(task);
    task.device = device;
    task.work_s = work_on(device, stream, cost.time_s);
    task.transfer_shape = cost.shape;
    task.bytes = bytes;
    task.dimension_mask = transfers_.axis_mask(group);
    task.collective = collective;
    if (after >= 0) graph_.depend(after, id);
    return id;
}

std::int32_t TaskEmitter::collective_instance(std::int32_t device, RankGroup group) {
    const std::int64_t npu = graph_.devices[static_cast<std::size_t>(device)].npu;
    const auto g = static_cast<std::size_t>(group);
    if (collective_sequence_[g].empty()) collective_sequence_[g].assign(graph_.devices.size(), 0);
    const std::int32_t sequence = collective_sequence_[g][static_cast<std::size_t>(npu)]++;
    const std::int64_t first = layout_.group_first_member(axes_of(group), npu);
    auto& instances = group_instances_[g][first];
    if (first == npu) {
        instances.push_back(graph_.collective_count++);
        return instances.back();
    }
    return instances[static_cast<std::size_t>(sequence)];
}

}  // namespace parasight
