// Gradient buckets, the tied-embedding reduction, the optimizer step, and the memory that weights, gradients and
// optimizer state take for the whole iteration.
#include "compile/graph_builder.h"

#include "collective/point_to_point.h"
#include "compile/stage_parameters.h"
#include "memory_system/tier_transfer.h"
#include "scenario/scenario_limits.h"
#include "scenario/training_stack.h"
#include "model/model_states.h"
#include "model/transformer_costs.h"

#include <algorithm>
#include <cmath>

namespace parasight {
void GraphBuilder::flush_bucket(DeviceProgram& program, int micro_batch) {
    // Without ZeRO the gradients are all-reduced; ZeRO reduce-scatters them to the shards that step them, except where
    // ZeRO-1 all-reduces them in full (parallelism.zero1_all_reduce: DeepSpeed's BF16 optimizer).
    const bool all_reduce =
        parallelism_.zero == 0 || (parallelism_.zero == 1 && scenario_behaviours(scenario_).zero1_all_reduce);
    const CollectiveOp op = all_reduce ? CollectiveOp::all_reduce : CollectiveOp::reduce_scatter;
    // Dense gradients: over every replica that holds them, × cp and × ep where those split the work (dense_replicas).
    const RankGroup dense = dense_gradient_group(parallelism_);
    if (program.bucket_bytes > 0.0 && dense_replicas(parallelism_) > 1) {
        program.reductions.push_back(tasks_.collective(program.device, dense, op, program.bucket_bytes,
                                                all_reduce ? "dp all-reduce" : "dp reduce-scatter", -1, micro_batch,
                                                Stream::gradient_comm, program.bucket_ready));
    }
    if (program.expert_bucket_bytes > 0.0 && data_replicas(parallelism_) > 1) {
        program.reductions.push_back(tasks_.collective(program.device, data_group(parallelism_), op,
                                                program.expert_bucket_bytes,
                                                all_reduce ? "dp expert all-reduce" : "dp expert reduce-scatter", -1,
                                                micro_batch, Stream::gradient_comm, program.expert_bucket_ready));
    }
    program.bucket_bytes = 0.0;
    program.expert_bucket_bytes = 0.0;
}

bool GraphBuilder::bucket_full(const DeviceProgram& program) const {
    // Without overlap the gradients wait for the end of the micro-batch's backward: one reduction then.
    return parallelism_.overlap_grad_reduce && program.bucket_bytes >= scenario_.simulation.gradient_bucket_bytes;
}

bool GraphBuilder::holds_output_table(int stage) const {
    return parasight::holds_output_table(model_, parallelism_, stage);
}

TaskId GraphBuilder::tied_embedding_reduction(std::int32_t device, int stage, TaskId after) {
    const int pp = parallelism_.pp;
    if (model_.kind != ModelKind::transformer || !model_.tie_embeddings || pp == 1) return -1;
    if (stage != 0 && stage != pp - 1) return -1;
    const SimulatedDevice& self = graph_.devices[static_cast<std::size_t>(device)];
    const std::int64_t stride = layout_.id_stride(ParallelAxis::pp);
    const std::int64_t partner = stage == 0 ? self.npu + (pp - 1) * stride : self.npu - (pp - 1) * stride;
    const double bytes = embedding_table_parameters(model_, parallelism_.tp) * gradient_bytes_;
    const TransferCosts::PointToPoint transfer = transfers_.point_to_point(self.npu, partner, bytes);
    const PointToPointCost& cost = transfer.cost;
    Task task;
    task.kind = TaskKind::dp_comm;
    task.stream = Stream::gradient_comm;
    task.peers = Peers::embedding_partner;
    task.label = tasks_.label("tied embedding all-reduce");
    task.work_s = cost.time_s + cost.latency_s;  // a two-member ring: one step each way
    task.bytes = bytes;
    task.dimension_mask = transfer.dimension_mask;
    task.transfer_shape = transfer.shape;
    // Both ends are simulated, so they meet like any collective, and so does its what-if delay; the first stage is
    // emitted first. With one device per stage there is one pair of ends (the stage's representatives, which the
    // what-if rules may pick elsewhere than at the stage's first NPU).
    const double delay_s = what_if_.delay_s(ParallelAxis::dp, CommOperation::all_reduce, task.layer);
    const std::int64_t pair = options_.all_devices ? (stage == 0 ? self.npu : partner) : 0;
    std::int32_t delay_collective = -1;
    if (stage == 0) {
        if (delay_s > 0.0) delay_collective = graph_.collective_count++;
        task.collective = graph_.collective_count++;
        tied_embedding_instances_[pair] = {delay_collective, task.collective};
    } else {
        std::tie(delay_collective, task.collective) = tied_embedding_instances_.at(pair);
    }
    return tasks_.emit_communication(device, task, delay_s, delay_collective, after);
}

std::vector<OffloadUse> GraphBuilder::offload_uses() const {
    std::vector<OffloadUse> uses;
    const MemorySystemSpec& memory = scenario_.cluster.memory_system;
    const std::int64_t devices = topology_.device_count();
    const double layer_shards = static_cast<double>(data_replicas(parallelism_));
    for (const OffloadTarget target : {OffloadTarget::host, OffloadTarget::nvme, OffloadTarget::pool}) {
        OffloadUse use;
        use.target = target;
        use.optimizer = parallelism_.offload_optimizer == target;
        use.parameters = parallelism_.offload_parameters == target;
        if (!use.optimizer && !use.parameters) continue;
        // What one device of each stage keeps there.
        std::vector<double> stage_bytes(static_cast<std::size_t>(parallelism_.pp), 0.0);
        for (int stage = 0; stage < parallelism_.pp; ++stage) {
            double& bytes = stage_bytes[static_cast<std::size_t>(stage)];
            if (use.optimizer) bytes += stage_model_states(scenario_, tree_, cnn_layers_, stage).optimizer_bytes;
            if (use.parameters) {
                bytes += stage_layer_parameters(model_, parallelism_, tree_, stage) * element_bytes_ / layer_shards;
            }
        }
        if (target == OffloadTarget::pool) {
            // One pool for the whole cluster: every stage's devices (devices / pp of each) keep their states there.
            for (const double bytes : stage_bytes) use.bytes += bytes * static_cast<double>(devices / parallelism_.pp);
            use.capacity_bytes = memory.pool->remote_groups * memory.pool->group_capacity_bytes;
        } else {
            // Each node's own host memory or drives: the node whose devices keep the most.
            const int per_node = scenario_.cluster.gpus_per_node();
            use.capacity_bytes =
                target == OffloadTarget::host ? memory.host->capacity_bytes : memory.nvme->capacity_bytes;
            for (std::int64_t first = 0; first < devices; first += per_node) {
                double node_bytes = 0.0;
                for (std::int64_t npu = first; npu < first + per_node; ++npu) {
                    node_bytes +=
                        stage_bytes[static_cast<std::size_t>(layout_.rank_in_group(ParallelAxis::pp, npu))];
                }
                if (node_bytes > use.bytes) {
                    use.bytes = node_bytes;
                    use.first_npu = first;
                }
            }
        }
        uses.push_back(use);
    }
    return uses;
}

TaskId GraphBuilder::emit_optimizer_transfer(std::int32_t device, TaskKind kind, double state_bytes) {
    Task transfer;
    transfer.kind = kind;
    transfer.stream = Stream::memory;
    transfer.label = tasks_.label(kind == TaskKind::memory_load ? "optimizer state load" : "optimizer state store");
    transfer.work_s = tier_transfer_s(scenario_.cluster, scenario_.device_count(), parallelism_.offload_optimizer,
                                      state_bytes, PoolGathering::own_bytes);
    transfer.bytes = state_bytes;
    if (kind == TaskKind::memory_load) {
        transfer.allocate_bytes = state_bytes;
        transfer.allocate_category = MemoryCategory::optimizer;
    } else {
        transfer.release_bytes = state_bytes;
        transfer.release_category = MemoryCategory::optimizer;
    }
    return tasks_.emit(device, transfer);
}

void GraphBuilder::emit_optimizer(std::int32_t device, int stage, const std::vector<TaskId>& reductions, TaskId after) {
    const double parameters = stage_optimizer_step_parameters(scenario_, tree_, cnn_layers_, stage);
    // Offloaded states go through the device in sub-groups of at most offload_sub_group parameters (DeepSpeed's
    // sub_group_size tiles ZeRO-Infinity's optimizer step): each loaded once the stage's backward is done (beside its
    // gradient reductions), updated, and stored, the next one loading while one is updated — at most two on the
    // device at a time. Without offloading, one step over all of them.
    const bool offloaded = parallelism_.offload_optimizer != OffloadTarget::none;
    const auto sub_group =
        static_cast<double>(parallelism_.offload_sub_group.value_or(limits::default_offload_sub_group));
    const double group_count = offloaded ? std::max(1.0, std::ceil(parameters / sub_group)) : 1.0;
    // Three tasks a sub-group: a graph past the cap is refused here, before it is made (a model of 10^17 parameters
    // in sub-groups of 10^6 would be 10^11 of them).
    if (offloaded &&
        static_cast<double>(graph_.tasks.size()) + 3.0 * group_count > static_cast<double>(options_.max_tasks)) {
        stop_ = Stop::too_large;
        refused_task_count_ = static_cast<std::size_t>(
            std::min(static_cast<double>(graph_.tasks.size()) + 3.0 * group_count, 1e18));
        return;
    }
    const int groups = static_cast<int>(group_count);
    const double state_bytes =
        offloaded ? stage_model_states(scenario_, tree_, cnn_layers_, stage).optimizer_bytes / groups : 0.0;
    const double bytes = optimizer_step_bytes(parameters, scenario_.training) / groups;
    Task task;
    task.kind = TaskKind::optimizer;
    task.stream = Stream::compute;
    task.label = tasks_.label("optimizer step");
    task.work_s = compute_.time_s("optimizer", Pass::forward, OperationWork{0.0, bytes, 0.0});
    task.bytes = bytes;
    TaskId load = offloaded ? emit_optimizer_transfer(device, TaskKind::memory_load, state_bytes) : -1;
    if (load >= 0 && after >= 0) graph_.depend(after, load);
    TaskId step = -1;
    for (int group = 0; group < groups; ++group) {
        const TaskId next_load =
            group + 1 < groups ? emit_optimizer_transfer(device, TaskKind::memory_load, state_bytes) : -1;
        if (next_load >= 0 && after >= 0) graph_.depend(after, next_load);
        step = tasks_.emit(device, task);
        if (after >= 0) graph_.depend(after, step);
        if (load >= 0) graph_.depend(load, step);
        for (const TaskId reduction : reductions) graph_.depend(reduction, step);
        if (offloaded) graph_.depend(step, emit_optimizer_transfer(device, TaskKind::memory_store, state_bytes));
        load = next_load;
    }
    if (parallelism_.offload_parameters != OffloadTarget::none) {
        // ZeRO-Infinity writes the updated parameter shards back to their tier once the step is done.
        const double shard_bytes = stage_layer_parameters(model_, parallelism_, tree_, stage) * element_bytes_ /
                                   static_cast<double>(data_replicas(parallelism_));
        Task store;
        store.kind = TaskKind::memory_store;
        store.stream = Stream::memory;
        store.label = tasks_.label("parameter store");
        store.work_s = tier_transfer_s(scenario_.cluster, scenario_.device_count(), parallelism_.offload_parameters,
                                       shard_bytes, PoolGathering::own_bytes);
        store.bytes = shard_bytes;
        graph_.depend(step, tasks_.emit(device, store));
    }
    if (parallelism_.zero >= 1 && parallelism_.zero < 3) {
        // The updated shards are gathered back into every replica's full copy: the dense parameters over the ranks
        // that share them (dense_replicas), the experts' over theirs.
        const double experts = stage_expert_parameters(model_, parallelism_, tree_, stage);
        const double dense = stage_parameters(stage) - experts;
        if (dense_replicas(parallelism_) > 1) {
            tasks_.collective(device, dense_gradient_group(parallelism_), CollectiveOp::all_gather, dense * element_bytes_, "dp parameter all-gather", -1,
                       -1, Stream::gradient_comm, step);
        }
        if (experts > 0.0 && data_replicas(parallelism_) > 1) {
            tasks_.collective(device, data_group(parallelism_), CollectiveOp::all_gather, experts * element_bytes_,
                       "dp expert parameter all-gather", -1, -1, Stream::gradient_comm, step);
        }
    }
}

double GraphBuilder::stage_parameters(int stage) const {
    return parasight::stage_parameters(model_, parallelism_, tree_, cnn_layers_, stage);
}

void GraphBuilder::set_static_memory(std::int32_t device, int stage) {
    const ModelStateBytes states = stage_model_states(scenario_, tree_, cnn_layers_, stage);
    auto& bytes = graph_.devices[static_cast<std::size_t>(device)].static_bytes;
    bytes[static_cast<std::size_t>(MemoryCategory::weights)] = states.weights_bytes;
    bytes[static_cast<std::size_t>(MemoryCategory::gradients)] = states.gradients_bytes;
    // Offloaded optimizer states are on the device only while the step runs (emit_optimizer's load and store).
    bytes[static_cast<std::size_t>(MemoryCategory::optimizer)] =
        parallelism_.offload_optimizer == OffloadTarget::none ? states.optimizer_bytes : 0.0;
}

}  // namespace parasight
