// Offloaded model states (parallelism.offload_parameters, offload_gradients, offload_optimizer; docs/model.md §7): how
// much of each tier they take, and their loads and stores on the memory stream.
#include "compile/graph_builder.h"

#include "compile/stage_parameters.h"
#include "model/transformer_costs.h"

namespace parasight {

namespace {

bool pool_reduces_in_switches(const ClusterSpec& cluster, OffloadTarget target) {
    const auto& pool = cluster.memory_system.pool;
    return target == OffloadTarget::pool && pool && pool->in_switch_collectives;
}

}  // namespace

std::vector<OffloadUse> GraphBuilder::offload_uses() const {
    std::vector<OffloadUse> uses;
    const MemorySystemSpec& memory = scenario_.cluster.memory_system;
    const std::int64_t devices = topology_.device_count();
    for (const OffloadTarget target : {OffloadTarget::host, OffloadTarget::nvme, OffloadTarget::pool}) {
        OffloadUse use;
        use.target = target;
        use.optimizer = parallelism_.offload_optimizer == target;
        use.gradients = parallelism_.offload_gradients == target;
        use.parameters = parallelism_.offload_parameters == target;
        if (!use.optimizer && !use.gradients && !use.parameters) continue;
        // What one device of each stage keeps there.
        std::vector<double> stage_bytes(static_cast<std::size_t>(parallelism_.pp), 0.0);
        for (int stage = 0; stage < parallelism_.pp; ++stage) {
            const ModelStateBytes offloaded = stage_offloaded_states(scenario_, tree_, cnn_layers_, stage);
            stage_bytes[static_cast<std::size_t>(stage)] = (use.parameters ? offloaded.weights_bytes : 0.0) +
                                                           (use.gradients ? offloaded.gradients_bytes : 0.0) +
                                                           (use.optimizer ? offloaded.optimizer_bytes : 0.0);
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

TaskId GraphBuilder::emit_state_transfer(std::int32_t device, const StateTransfer& transfer) {
    Task task;
    task.kind = transfer.kind;
    task.stream = transfer.kind == TaskKind::memory_load ? Stream::memory_in : Stream::memory_out;
    task.label = tasks_.label(transfer.label);
    task.layer = transfer.layer;
    task.micro_batch = transfer.micro_batch;
    task.work_s = tier_transfer_s(scenario_.cluster, scenario_.device_count(), transfer.target, transfer.bytes,
                                  transfer.gathering);
    task.bytes = transfer.bytes;
    if (transfer.kind == TaskKind::memory_load) {
        task.allocate_bytes = transfer.device_bytes;
        task.allocate_category = transfer.category;
    } else {
        task.release_bytes = transfer.device_bytes;
        task.release_category = transfer.category;
    }
    const TaskId id = tasks_.emit(device, task);
    if (transfer.after >= 0) graph_.depend(transfer.after, id);
    return id;
}

TaskId GraphBuilder::emit_parameter_load(std::int32_t device, int layer, int mb, double layer_bytes, TaskId after) {
    const double shard_bytes = layer_bytes / static_cast<double>(data_replicas(parallelism_));
    const bool gathered = switches_gather_parameters();
    // Gathered in the switches, every device receives the whole layer.
    StateTransfer load{TaskKind::memory_load,
                       gathered ? "parameter load, gathered in the switches" : "parameter load",
                       parallelism_.offload_parameters,
                       shard_bytes,
                       gathered ? PoolGathering::in_switch : PoolGathering::own_bytes,
                       gathered ? layer_bytes : shard_bytes,
                       MemoryCategory::buffers};
    load.layer = layer;
    load.micro_batch = mb;
    load.after = after;
    const TaskId id = emit_state_transfer(device, load);
    // What the layer holds of it (the trace and the timeline show the bytes that arrive).
    graph_.tasks[static_cast<std::size_t>(id)].bytes = load.device_bytes;
    return id;
}

bool GraphBuilder::switches_gather_parameters() const {
    return pool_reduces_in_switches(scenario_.cluster, parallelism_.offload_parameters);
}

bool GraphBuilder::switches_reduce_gradients() const {
    return pool_reduces_in_switches(scenario_.cluster, parallelism_.offload_gradients);
}

}  // namespace parasight
