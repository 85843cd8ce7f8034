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
    // Offloaded gradients: each device's reduced shard is stored once its reduce-scatter is done — or, where the pool's
    // switches reduce-scatter, the store is the reduction (validate() has the group span every device).
    const bool offloaded = parallelism_.offload_gradients != OffloadTarget::none;
    const bool switches_reduce = switches_reduce_gradients();
    const auto reduce = [&](const RankGroup& group, std::int64_t members, double bucket_bytes, TaskId ready,
                            const char* reduction, const char* store_label) {
        if (bucket_bytes <= 0.0) return;
        const double shard_bytes = bucket_bytes / static_cast<double>(members);
        TaskId reduced = ready;
        if (!switches_reduce && members > 1) {
            reduced = tasks_.collective(program.device, group, op, bucket_bytes, reduction, -1, micro_batch,
                                        Stream::gradient_comm, ready);
            if (!offloaded) {
                program.reductions.push_back(reduced);
                return;
            }
        }
        if (!offloaded) return;
        StateTransfer store{TaskKind::memory_store, store_label, parallelism_.offload_gradients, shard_bytes,
                            switches_reduce ? PoolGathering::in_switch : PoolGathering::own_bytes, 0.0,
                            MemoryCategory::gradients};
        store.micro_batch = micro_batch;
        store.after = reduced;
        program.reductions.push_back(emit_state_transfer(program.device, store));
    };
    reduce(dense_gradient_group(parallelism_), dense_replicas(parallelism_), program.bucket_bytes,
           program.bucket_ready, all_reduce ? "dp all-reduce" : "dp reduce-scatter",
           switches_reduce ? "gradient store, reduce-scattered in the switches" : "gradient store");
    reduce(data_group(parallelism_), data_replicas(parallelism_), program.expert_bucket_bytes,
           program.expert_bucket_ready, all_reduce ? "dp expert all-reduce" : "dp expert reduce-scatter",
           switches_reduce ? "expert gradient store, reduce-scattered in the switches" : "expert gradient store");
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

void GraphBuilder::emit_optimizer(std::int32_t device, int stage, const std::vector<TaskId>& reductions, TaskId after) {
    const double parameters = stage_optimizer_step_parameters(scenario_, tree_, cnn_layers_, stage);
    const ModelStateBytes offloaded = stage_offloaded_states(scenario_, tree_, cnn_layers_, stage);
    // What the step needs from beyond the device goes through it in sub-groups of at most offload_sub_group
    // parameters (DeepSpeed's sub_group_size tiles ZeRO-Infinity's optimizer step): each sub-group's optimizer states
    // and gradient shards loaded once the stage's backward is done (beside its gradient reductions), updated, and the
    // states stored back, the next one loading while one is updated — at most two on the device at a time. Without
    // offloading, one step over all of them.
    const bool states_offloaded = parallelism_.offload_optimizer != OffloadTarget::none;
    const bool gradients_offloaded = parallelism_.offload_gradients != OffloadTarget::none;
    const bool tiled = states_offloaded || gradients_offloaded;
    const auto sub_group =
        static_cast<double>(parallelism_.offload_sub_group.value_or(limits::default_offload_sub_group));
    const double group_count = tiled ? std::max(1.0, std::ceil(parameters / sub_group)) : 1.0;
    // A step, and a load and a store of states, a load of gradients, a sub-group (on the host: its step and the load
    // of its updated weights): a graph past the cap is refused here, before it is made (a model of 10^17 parameters in
    // sub-groups of 10^6 would be 10^11 of them).
    const bool on_host = parallelism_.optimizer_step_on == OptimizerStepPlace::host;
    const double tasks_per_group =
        on_host ? 2.0 : 1.0 + (states_offloaded ? 2.0 : 0.0) + (gradients_offloaded ? 1.0 : 0.0);
    const double tasks = static_cast<double>(graph_.tasks.size()) + tasks_per_group * group_count;
    if (tiled && tasks > static_cast<double>(options_.max_tasks)) {
        stop_ = Stop::too_large;
        refused_task_count_ = static_cast<std::size_t>(std::min(tasks, 1e18));
        return;
    }
    const int groups = static_cast<int>(group_count);
    if (on_host) {
        emit_host_optimizer(device, stage, parameters / groups, groups, reductions, after);
        return;
    }
    const double state_bytes = offloaded.optimizer_bytes / groups;
    const double gradient_bytes = offloaded.gradients_bytes / groups;
    const double bytes = optimizer_step_bytes(parameters, scenario_.training) / groups;
    Task task;
    task.kind = TaskKind::optimizer;
    task.stream = Stream::compute;
    task.label = tasks_.label("optimizer step");
    const KernelTime step_time =
        compute_.kernel_time("optimizer", Pass::forward, OperationWork{.flops = 0.0, .memory_bytes = bytes});
    task.work_s = step_time.total_s;
    task.memory_bound_share = static_cast<float>(step_time.memory_bound_share());
    task.bytes = bytes;
    if (gradients_offloaded) {
        // The loaded gradient shard is done with once its sub-group is updated.
        task.release_bytes = gradient_bytes;
        task.release_category = MemoryCategory::gradients;
    }
    // One sub-group's loads: its states, its gradients (-1 where they stay on the device).
    const auto load_group = [&]() {
        std::array<TaskId, 2> loads{-1, -1};
        if (states_offloaded) {
            loads[0] = emit_state_transfer(device, {TaskKind::memory_load, "optimizer state load",
                                                    parallelism_.offload_optimizer, state_bytes,
                                                    PoolGathering::own_bytes, state_bytes, MemoryCategory::optimizer});
        }
        if (gradients_offloaded) {
            loads[1] = emit_state_transfer(device, {TaskKind::memory_load, "gradient load",
                                                    parallelism_.offload_gradients, gradient_bytes,
                                                    PoolGathering::own_bytes, gradient_bytes, MemoryCategory::gradients});
            // The shards come back once every bucket's is stored.
            for (const TaskId reduction : reductions) graph_.depend(reduction, loads[1]);
        }
        for (const TaskId load : loads) {
            if (load >= 0 && after >= 0) graph_.depend(after, load);
        }
        return loads;
    };
    std::array<TaskId, 2> loads = tiled ? load_group() : std::array<TaskId, 2>{-1, -1};
    TaskId step = -1;
    TaskId previous_freed = -1;  // the task that freed the sub-group before the one being updated
    for (int group = 0; group < groups; ++group) {
        const std::array<TaskId, 2> next = group + 1 < groups ? load_group() : std::array<TaskId, 2>{-1, -1};
        // Stores run on their own stream, beside the loads: the next sub-group comes in once the one before this one
        // has left, so that at most two are on the device (DeepSpeed swaps through a fixed pair of buffers).
        for (const TaskId load : next) {
            if (load >= 0 && previous_freed >= 0) graph_.depend(previous_freed, load);
        }
        step = tasks_.emit(device, task);
        if (after >= 0) graph_.depend(after, step);
        for (const TaskId load : loads) {
            if (load >= 0) graph_.depend(load, step);
        }
        for (const TaskId reduction : reductions) graph_.depend(reduction, step);
        previous_freed = step;
        if (states_offloaded) {
            previous_freed = emit_state_transfer(device, {TaskKind::memory_store, "optimizer state store",
                                                          parallelism_.offload_optimizer, state_bytes,
                                                          PoolGathering::own_bytes, state_bytes,
                                                          MemoryCategory::optimizer});
            graph_.depend(step, previous_freed);
        }
        loads = next;
    }
    if (parallelism_.offload_parameters != OffloadTarget::none) {
        // ZeRO-Infinity writes the updated parameter shards back to their tier once the step is done; they were not
        // on the device between uses.
        graph_.depend(step, emit_state_transfer(device, {TaskKind::memory_store, "parameter store",
                                                         parallelism_.offload_parameters, offloaded.weights_bytes,
                                                         PoolGathering::own_bytes, 0.0, MemoryCategory::weights}));
    }
    gather_updated_parameters(device, stage, step);
}

void GraphBuilder::emit_host_optimizer(std::int32_t device, int stage, double group_parameters, int groups,
                                       const std::vector<TaskId>& reductions, TaskId after) {
    // ZeRO-Offload (Ren et al. 2021 §4): the host's CPUs update each sub-group's states in host memory from the
    // gradient shards stored there (CPU-Adam), one sub-group after another on the memory stream out, every GPU of the
    // node stepping its own at once over the node's CPU memory bandwidth; each updated sub-group's 16-bit weights are
    // then loaded into the device's copy (which keeps its place: nothing is allocated), while the next is stepped.
    // With the parameters kept in host memory too (offload_parameters: host), the step writes them in place and nothing
    // is loaded.
    const HostMemory& host = *scenario_.cluster.memory_system.host;
    const double node_bytes = host_optimizer_step_bytes(group_parameters, scenario_.training) *
                              static_cast<double>(scenario_.cluster.gpus_per_node());
    Task task;
    task.kind = TaskKind::host_optimizer;
    task.stream = Stream::memory_out;
    task.label = tasks_.label("optimizer step on the host");
    task.work_s = node_bytes / host.memory_bandwidth_Bps;
    task.bytes = host_optimizer_step_bytes(group_parameters, scenario_.training);
    const bool loads_weights = parallelism_.offload_parameters == OffloadTarget::none;
    TaskId ready = -1;  // the last task the updated weights wait for
    for (int group = 0; group < groups; ++group) {
        const TaskId step = tasks_.emit(device, task);
        if (after >= 0) graph_.depend(after, step);
        for (const TaskId reduction : reductions) graph_.depend(reduction, step);
        ready = step;
        if (loads_weights) {
            StateTransfer load{TaskKind::memory_load, "updated parameter load", OffloadTarget::host,
                               group_parameters * element_bytes_, PoolGathering::own_bytes, 0.0,
                               MemoryCategory::weights};
            load.after = step;
            ready = emit_state_transfer(device, load);
        }
    }
    gather_updated_parameters(device, stage, ready);
}

void GraphBuilder::gather_updated_parameters(std::int32_t device, int stage, TaskId step) {
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
    // Offloaded states are on the device only while they are used (emit_optimizer's and the layers' loads).
    const ModelStateBytes states = stage_resident_states(scenario_, tree_, cnn_layers_, stage);
    auto& bytes = graph_.devices[static_cast<std::size_t>(device)].static_bytes;
    bytes[static_cast<std::size_t>(MemoryCategory::weights)] = states.weights_bytes;
    bytes[static_cast<std::size_t>(MemoryCategory::gradients)] = states.gradients_bytes;
    bytes[static_cast<std::size_t>(MemoryCategory::optimizer)] = states.optimizer_bytes;
    bytes[static_cast<std::size_t>(MemoryCategory::runtime)] = scenario_.cluster.device.context_memory_bytes;
}

}  // namespace parasight
