// A transformer layer's forward, backward and recomputation with its tensor-, context- and expert-parallel
// collectives, and ZeRO-3's parameter gathers.
#include "compile/graph_builder.h"

#include "compile/stage_parameters.h"
#include "model/layer_operations.h"
#include "model/transformer_costs.h"
#include "scenario/training_stack.h"

#include <map>

namespace parasight {

TaskId GraphBuilder::tensor_parallel(std::int32_t device, bool before_block, int layer, int mb, TaskId after, bool backward) {
    if (parallelism_.tp == 1) return after;
    const double bytes = plain_layer_costs().work.tp_collective_bytes;
    if (parallelism_.sequence_parallel) {
        // Korthikanti §4.2.2: all-gather before the block, reduce-scatter after (mirrored in backward).
        const bool gather = before_block != backward;
        return tasks_.collective(device, ParallelAxis::tp, gather ? CollectiveOp::all_gather : CollectiveOp::reduce_scatter,
                          bytes, gather ? "tp all-gather" : "tp reduce-scatter", layer, mb, Stream::feature_comm, after);
    }
    // Megatron: the row-parallel output is all-reduced forward, the column-parallel input gradient backward.
    if (before_block != backward) return after;
    return tasks_.collective(device, ParallelAxis::tp, CollectiveOp::all_reduce, bytes, "tp all-reduce", layer, mb,
                      Stream::feature_comm, after);
}

TaskId GraphBuilder::attention_forward(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after,
                         TaskKind kind, double allocate_bytes) {
    TaskId last = after;
    if (parallelism_.cp > 1) {
        last = tasks_.collective(device, ParallelAxis::cp, CollectiveOp::all_gather, costs.work.cp_collective_bytes,
                          "cp all-gather kv", layer, mb, Stream::feature_comm, last);
    }
    last = tensor_parallel(device, true, layer, mb, last, false);
    const TaskId attention = tasks_.compute(device, kind, "attention", layer, mb, costs.attention.forward,
                                     costs.attention.forward_flops, last);
    graph_.tasks[static_cast<std::size_t>(attention)].allocate_bytes = allocate_bytes;
    // Parallel blocks add the attention's and the MLP's partial outputs first: one collective, after the MLP.
    if (model_.parallel_blocks) return attention;
    return tensor_parallel(device, false, layer, mb, attention, false);
}

TaskId GraphBuilder::mlp_forward(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after, TaskKind kind) {
    // Parallel blocks read the input the attention gathered.
    TaskId last = model_.parallel_blocks ? after : tensor_parallel(device, true, layer, mb, after, false);
    if (costs.work.ep_collective_bytes > 0.0 && parallelism_.ep > 1) {
        last = tasks_.collective(device, ParallelAxis::ep, CollectiveOp::all_to_all, costs.work.ep_collective_bytes,
                          "ep dispatch", layer, mb, Stream::feature_comm, last);
    }
    last = tasks_.compute(device, kind, "mlp", layer, mb, costs.mlp.forward, costs.mlp.forward_flops, last);
    if (costs.work.ep_collective_bytes > 0.0 && parallelism_.ep > 1) {
        last = tasks_.collective(device, ParallelAxis::ep, CollectiveOp::all_to_all, costs.work.ep_collective_bytes,
                          "ep combine", layer, mb, Stream::feature_comm, last);
    }
    return tensor_parallel(device, false, layer, mb, last, false);
}

TaskId GraphBuilder::layer_forward(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after,
                                   const Zero3Gathers& gathers) {
    const auto attention_start = static_cast<TaskId>(graph_.tasks.size());
    const TaskId attention =
        attention_forward(device, layer, mb, costs, after, TaskKind::forward, costs.activation_bytes);
    const auto mlp_start = static_cast<TaskId>(graph_.tasks.size());
    const TaskId last = mlp_forward(device, layer, mb, costs, attention, TaskKind::forward);
    if (gathers.last >= 0) {
        graph_.depend(gathers.attention, attention_start);
        if (gathers.mlp != gathers.attention) graph_.depend(gathers.mlp, mlp_start);
        zero3_release(last);
    }
    return last;
}

bool GraphBuilder::regathers_block_inputs() const { return parallelism_.tp > 1 && parallelism_.sequence_parallel; }

TaskId GraphBuilder::gather_block_input_again(std::int32_t device, int layer, int mb, const LayerCosts& costs,
                                              TaskId after) {
    return tasks_.collective(device, ParallelAxis::tp, CollectiveOp::all_gather, costs.work.tp_collective_bytes,
                      "tp all-gather input again", layer, mb, Stream::feature_comm, after);
}

GraphBuilder::BlockBackward GraphBuilder::block_backward(std::int32_t device, LayerBlock block, int layer, int mb,
                                                         const LayerCosts& costs, TaskId after,
                                                         bool input_gradient_only) {
    const bool attention = block == LayerBlock::attention;
    const BlockCosts& cost = attention ? costs.attention : costs.mlp;
    const char* label = attention ? "attention backward" : "mlp backward";
    const bool experts = !attention && costs.work.ep_collective_bytes > 0.0 && parallelism_.ep > 1;
    // Context parallelism reduces the keys' and values' gradients across cp, and experts send their tokens'
    // gradients back, before the block's TP collective.
    const auto after_block = [&](TaskId last) {
        if (attention && parallelism_.cp > 1) {
            return tasks_.collective(device, ParallelAxis::cp, CollectiveOp::reduce_scatter, costs.work.cp_collective_bytes,
                              "cp reduce-scatter kv", layer, mb, Stream::feature_comm, last);
        }
        if (experts) {
            return tasks_.collective(device, ParallelAxis::ep, CollectiveOp::all_to_all, costs.work.ep_collective_bytes,
                              "ep dispatch backward", layer, mb, Stream::feature_comm, last);
        }
        return last;
    };
    // Parallel blocks share one input: the MLP's backward gathers it again for both weight gradients, and its input
    // gradient joins the attention's in one collective, after the attention.
    const bool gathers = regathers_block_inputs() && !(model_.parallel_blocks && attention);
    const auto gather_input_again = [&](TaskId last) {
        return gather_block_input_again(device, layer, mb, costs, last);
    };
    const auto reduce_input_gradient = [&](TaskId last) {
        const TaskId ready = after_block(last);
        if (model_.parallel_blocks && !attention) return ready;
        return tensor_parallel(device, true, layer, mb, ready, true);
    };
    if (input_gradient_only) {
        const TaskId input_gradient = tasks_.compute(device, TaskKind::backward, label, layer, mb, cost.input_gradient(),
                                              cost.input_gradient_flops(), after);
        return {input_gradient, reduce_input_gradient(input_gradient)};
    }
    if (parallelism_.tp_overlap == TpOverlap::none || parallelism_.tp == 1) {
        // Each step waits for the one before, so the gather may as well come first: the block's backward is one task.
        const TaskId gathered = gathers ? gather_input_again(after) : after;
        const TaskId whole =
            tasks_.compute(device, TaskKind::backward, label, layer, mb, cost.backward, cost.backward_flops, gathered);
        return {whole, reduce_input_gradient(whole)};
    }
    // The gather runs beside the block's backward up to the linear's input gradient; the input gradient's
    // collective beside the weight gradient, which waits for the gathered input.
    const TaskId gathered = gathers ? gather_input_again(after) : -1;
    const TaskId input_gradient = tasks_.compute(device, TaskKind::backward, label, layer, mb, cost.before_weight_gradient,
                                          cost.before_weight_gradient_flops, after);
    const TaskId reduced = reduce_input_gradient(input_gradient);
    const char* weight_label = attention ? "attention qkv weight gradient" : "mlp up weight gradient";
    const TaskId weight_gradient = tasks_.compute(device, TaskKind::backward, weight_label, layer, mb, cost.weight_gradient,
                                           cost.weight_gradient_flops, input_gradient);
    if (gathered >= 0) graph_.depend(gathered, weight_gradient);
    return {weight_gradient, reduced};
}

TaskId GraphBuilder::layer_backward(std::int32_t device, int layer, int mb, const RecomputedOperations& recomputed,
                                    const LayerCosts& costs, TaskId after, bool input_gradient_only) {
    const LayerCosts& plain = plain_layer_costs();
    TaskId last = after;
    // Recomputed activations live from the first recompute task to the end of the layer's backward.
    const TaskId recompute_start = static_cast<TaskId>(graph_.tasks.size());
    const bool attention_whole = recomputed.whole(LayerBlock::attention);
    const bool mlp_whole = recomputed.whole(LayerBlock::mlp);
    if (attention_whole && mlp_whole) {
        last = attention_forward(device, layer, mb, plain, last, TaskKind::recompute, 0.0);
    }
    if (mlp_whole) {
        last = mlp_forward(device, layer, mb, plain, last, TaskKind::recompute);
    } else if (recomputed.any(LayerBlock::mlp)) {
        last = tasks_.compute(device, TaskKind::recompute, "mlp recompute", layer, mb, costs.mlp.recompute,
                       costs.mlp.recompute_flops, last);
    }
    last = tensor_parallel(device, false, layer, mb, last, true);
    if (costs.work.ep_collective_bytes > 0.0 && parallelism_.ep > 1) {
        last = tasks_.collective(device, ParallelAxis::ep, CollectiveOp::all_to_all, costs.work.ep_collective_bytes,
                          "ep combine backward", layer, mb, Stream::feature_comm, last);
    }
    last = block_backward(device, LayerBlock::mlp, layer, mb, costs, last, input_gradient_only).done;
    if (attention_whole && !mlp_whole) {
        last = attention_forward(device, layer, mb, plain, last, TaskKind::recompute, 0.0);
    }
    // Parallel blocks: the output gradient gathered for the MLP serves the attention too.
    if (!model_.parallel_blocks) last = tensor_parallel(device, false, layer, mb, last, true);
    if (!attention_whole && recomputed.any(LayerBlock::attention)) {
        last = tasks_.compute(device, TaskKind::recompute, "attention recompute", layer, mb, costs.attention.recompute,
                       costs.attention.recompute_flops, last);
    }
    const BlockBackward attention =
        block_backward(device, LayerBlock::attention, layer, mb, costs, last, input_gradient_only);
    // The layer's activations, and whatever recomputation rebuilt, are freed once its backward is done. When its
    // weight gradients run apart, they keep the activations (all of them: the share only the input gradient reads is
    // not told apart) and recomputation's are freed now: they serve the attention core, which has no weights.
    Task& done = graph_.tasks[static_cast<std::size_t>(attention.last_compute)];
    done.release_bytes = (input_gradient_only ? 0.0 : costs.activation_bytes) + costs.recompute_extra_bytes;
    if (costs.recompute_extra_bytes > 0.0) {
        graph_.tasks[static_cast<std::size_t>(recompute_start)].allocate_bytes += costs.recompute_extra_bytes;
    }
    return attention.done;
}

TaskId GraphBuilder::layer_weight_gradients(std::int32_t device, int layer, int mb, const LayerCosts& costs,
                                            TaskId after) {
    const bool gathers = regathers_block_inputs();
    TaskId last = after;
    for (const LayerBlock block : {LayerBlock::mlp, LayerBlock::attention}) {
        const bool attention = block == LayerBlock::attention;
        const BlockCosts& cost = attention ? costs.attention : costs.mlp;
        // The gather needs nothing of the weight gradients before it: it runs ahead on the communication stream.
        const TaskId gathered = gathers ? gather_block_input_again(device, layer, mb, costs, after) : -1;
        last = tasks_.compute(device, TaskKind::weight_gradient, attention ? "attention weight gradients" : "mlp weight gradients",
                       layer, mb, cost.weight_gradients, cost.weight_gradients_flops, last);
        if (gathered >= 0) graph_.depend(gathered, last);
    }
    graph_.tasks[static_cast<std::size_t>(last)].release_bytes = costs.activation_bytes;
    return last;
}

const RecomputedOperations& GraphBuilder::layer_recompute(int layer) {
    // Resolved once per layer: every device and micro-batch asks again.
    if (layer_recompute_.empty()) {
        const int layers = model_.layers + model_.decoder_layers;
        layer_recompute_.reserve(static_cast<std::size_t>(layers));
        for (int j = 0; j < layers; ++j) layer_recompute_.push_back(tree_.recomputed_operations(j));
        warn_of_recomputation_freeing_nothing();
        warn_of_host_bound_layers();
    }
    return layer_recompute_[static_cast<std::size_t>(layer)];
}

void GraphBuilder::warn_of_host_bound_layers() {
    const LayerCosts& costs = plain_layer_costs();
    if (!(costs.launched_pass_s > costs.gpu_pass_s)) return;
    Warning warning;
    warning.code = WarningCode::host_bound_layers;
    warning.subject = scenario_.training.cuda_graphs ? "cluster.device.graph_kernel_launch" : "cluster.device.kernel_launch";
    warning.layers = static_cast<int>(layer_recompute_.size());
    warning.time_s = costs.launched_pass_s;
    warning.gpu_time_s = costs.gpu_pass_s;
    graph_.warnings.push_back(std::move(warning));
}

void GraphBuilder::warn_of_recomputation_freeing_nothing() {
    const LayerSplit split{parallelism_.tp, parallelism_.cp, parallelism_.sequence_parallel, Recompute::none,
                           scenario_.training.attention};
    std::map<RecomputedOperations, std::vector<OperationRef>> idle_by_set;
    struct Where {
        int layers = 0;
        int first_layer = 0;
    };
    std::map<OperationRef, Where> idle;
    for (std::size_t j = 0; j < layer_recompute_.size(); ++j) {
        const RecomputedOperations& recomputed = layer_recompute_[j];
        auto found = idle_by_set.find(recomputed);
        if (found == idle_by_set.end()) {
            found = idle_by_set
                        .emplace(recomputed, recomputation_freeing_nothing(model_, scenario_.training.micro_batch,
                                                                           split, recomputed))
                        .first;
        }
        for (const OperationRef operation : found->second) {
            Where& where = idle.try_emplace(operation, Where{0, static_cast<int>(j)}).first->second;
            ++where.layers;
        }
    }
    for (const auto& [operation, where] : idle) {
        Warning warning;
        warning.code = WarningCode::recomputation_frees_nothing;
        warning.subject =
            to_string(NodePath{StrategyNodeKind::operation, where.first_layer, operation.block, operation.operation});
        warning.operation = operation_path(operation);
        warning.layers = where.layers;
        warning.first_layer = where.first_layer;
        graph_.warnings.push_back(std::move(warning));
    }
}

void GraphBuilder::emit_step(DeviceProgram& program, const StageContext& context, const PipelineStep& step) {
    if (model_.kind == ModelKind::cnn) {
        emit_cnn_step(program, context, step);
        return;
    }
    if (step.weight_gradient) {
        emit_weight_gradient_step(program, context, step);
        return;
    }
    const std::int32_t device = program.device;
    const int total_chunks = parallelism_.pp * chunks_;
    const int model_chunk = step.chunk * parallelism_.pp + context.stage;
    const auto [first_layer, layer_count] = tree_.chunk_layers(model_chunk);
    const bool model_first = model_chunk == 0;
    const bool model_last = model_chunk == total_chunks - 1;
    const int mb = step.micro_batch;
    Step& record = (step.forward ? forward_steps_ : backward_steps_)[static_cast<std::size_t>(device)]
                                                                   [step_index(model_chunk, mb)];
    // Megatron reduces gradients once, after the last micro-batch; DeepSpeed's ZeRO-2/3 after each one. A split
    // backward leaves the gradients to its weight-gradient step.
    const bool split = splits_backward(parallelism_.schedule);
    const bool reduce_now = !step.forward && !split && (parallelism_.zero >= 2 || mb == micro_batches_ - 1);
    StepTemplate* repeatable = repeatable_step(program, step, reduce_now);
    if (repeatable != nullptr && repeatable->state == StepTemplate::State::recorded) {
        repeat_step(program, record, *repeatable, step.forward, mb);
        return;
    }
    const TaskId first_task = static_cast<TaskId>(graph_.tasks.size());
    const std::size_t first_dependency = graph_.dependency_count();
    const TaskId previous = program.previous;
    TaskId last = program.previous;
    // A scattered boundary activation (or its gradient) is first gathered across the TP ranks: this step's first task,
    // which the sender's send leads to (link_pipeline).
    if (scatters_pipeline_sends() && (step.forward ? !model_first : !model_last)) {
        last = tasks_.collective(device, ParallelAxis::tp, CollectiveOp::all_gather, context.boundary_bytes,
                          step.forward ? "pp all-gather activations" : "pp all-gather gradients", -1, mb,
                          Stream::feature_comm, last);
    }
    if (step.forward) {
        if (model_first) {
            last = tasks_.compute(device, TaskKind::forward, "embedding", -1, mb,
                           compute_.kernel_time("embedding", Pass::forward, context.embedding.forward), 0.0, last);
        }
        std::vector<TaskId> layer_starts;
        for (int layer = first_layer; layer < first_layer + layer_count; ++layer) {
            const Zero3Gathers gathers = zero3_gather(device, layer, mb, zero3_gather_after(layer_starts, last), false);
            layer_starts.push_back(static_cast<TaskId>(graph_.tasks.size()));
            last = layer_forward(device, layer, mb, layer_costs(layer_recompute(layer)), last, gathers);
        }
        if (model_last) {
            last = tasks_.compute(device, TaskKind::forward, "logits and loss", -1, mb,
                           compute_.kernel_time("logits", Pass::forward, context.logits.forward), context.logits.forward.flops, last);
            graph_.tasks[static_cast<std::size_t>(last)].allocate_bytes = context.logits_bytes;
        }
    } else {
        if (model_last) {
            last = tasks_.compute(device, TaskKind::backward, "logits backward", -1, mb,
                           compute_.kernel_time("logits", Pass::backward, context.logits.backward), context.logits.backward.flops, last);
            graph_.tasks[static_cast<std::size_t>(last)].release_bytes = context.logits_bytes;
            if (reduce_now) add_output_layer_gradients(program, context.stage, last);
        }
        std::vector<TaskId> layer_starts;
        for (int layer = first_layer + layer_count - 1; layer >= first_layer; --layer) {
            const Zero3Gathers gathers = zero3_gather(device, layer, mb, zero3_gather_after(layer_starts, last), true);
            layer_starts.push_back(static_cast<TaskId>(graph_.tasks.size()));
            const RecomputedOperations& recomputed = layer_recompute(layer);
            last = layer_backward(device, layer, mb, recomputed, layer_costs(recomputed), last, split);
            zero3_use(gathers, layer_starts.back(), last);
            if (reduce_now) add_layer_gradients(program, context, mb, last);
        }
        if (model_first) {
            last = tasks_.compute(device, TaskKind::backward, "embedding backward", -1, mb,
                           compute_.kernel_time("embedding", Pass::backward, context.embedding.backward), 0.0, last);
            if (reduce_now) add_embedding_gradients(program, last);
        }
        if (reduce_now) flush_bucket(program, mb);
    }
    // Pipeline send to the next model chunk (forward) or the previous one (backward).
    const bool sends = step.forward ? !model_last : !model_first;
    if (sends) record.send = pipeline_send(device, step.forward, mb, context.boundary_send_bytes, last);
    // A chunk with no layer passes what it receives on: its step's first task is the send.
    record.first = first_task < static_cast<TaskId>(graph_.tasks.size()) ? first_task : -1;
    if (repeatable != nullptr) record_step(*repeatable, first_task, first_dependency, previous, last, record.send, mb);
    finish_step(program, record, step.forward, last);
}

void GraphBuilder::add_layer_gradients(DeviceProgram& program, const StageContext& context, int mb, TaskId ready) {
    program.bucket_bytes += context.layer_gradient_bytes;
    program.bucket_ready = ready;
    if (context.layer_expert_gradient_bytes > 0.0) {
        program.expert_bucket_bytes += context.layer_expert_gradient_bytes;
        program.expert_bucket_ready = ready;
    }
    if (bucket_full(program)) flush_bucket(program, mb);
}

// The final norm's and the output projection's gradients, where this stage holds them (see stage_parameters).
void GraphBuilder::add_output_layer_gradients(DeviceProgram& program, int stage, TaskId ready) {
    program.bucket_bytes += final_norm_parameters(model_) * gradient_bytes_;
    if (holds_output_table(stage)) {
        program.bucket_bytes += embedding_table_parameters(model_, parallelism_.tp) * gradient_bytes_;
    }
    program.bucket_ready = ready;
}

void GraphBuilder::add_embedding_gradients(DeviceProgram& program, TaskId ready) {
    program.bucket_bytes += embedding_table_parameters(model_, parallelism_.tp) * gradient_bytes_;
    program.bucket_ready = ready;
}

void GraphBuilder::emit_weight_gradient_step(DeviceProgram& program, const StageContext& context,
                                             const PipelineStep& step) {
    const std::int32_t device = program.device;
    const int model_chunk = step.chunk * parallelism_.pp + context.stage;
    const auto [first_layer, layer_count] = tree_.chunk_layers(model_chunk);
    const int mb = step.micro_batch;
    const bool reduce_now = parallelism_.zero >= 2 || mb == micro_batches_ - 1;
    TaskId last = program.previous;
    // The output layer's and the embedding's weight gradients stay in their backward (the logits' and the
    // embedding's); they join the bucket here, with the layers', as the unsplit backward adds them.
    if (reduce_now && model_chunk == parallelism_.pp * chunks_ - 1) {
        add_output_layer_gradients(program, context.stage, last);
    }
    for (int layer = first_layer + layer_count - 1; layer >= first_layer; --layer) {
        last = layer_weight_gradients(device, layer, mb, layer_costs(layer_recompute(layer)), last);
        if (reduce_now) add_layer_gradients(program, context, mb, last);
    }
    if (reduce_now) {
        if (model_chunk == 0) add_embedding_gradients(program, last);
        flush_bucket(program, mb);
    }
    program.previous = last;
}

GraphBuilder::Zero3Gathers GraphBuilder::zero3_gather(std::int32_t device, int layer, int mb, TaskId prefetch_after,
                                                     bool backward) {
    Zero3Gathers gathers;
    // ZeRO-3 shards each layer over the ranks that hold it whole: dp × cp (data_replicas).
    const bool offloaded = parallelism_.offload_parameters != OffloadTarget::none;
    if (parallelism_.zero < 3 || (data_replicas(parallelism_) == 1 && !offloaded)) return gathers;
    if (offloaded) {
        // The shard comes in from its tier first, and the gathers wait for it; where the pool's switches gather, the
        // load brings the whole layer and no gather is left.
        const TaskId load = emit_parameter_load(
            device, layer, mb, layer_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep) * element_bytes_,
            prefetch_after);
        if (switches_gather_parameters() || data_replicas(parallelism_) == 1) {
            gathers.attention = gathers.mlp = gathers.last = load;
            return gathers;
        }
        prefetch_after = load;
    }
    const auto gather = [&](double parameters) {
        const TaskId id = tasks_.collective(device, data_group(parallelism_), CollectiveOp::all_gather,
                                     parameters * element_bytes_,
                                     "zero-3 parameter all-gather", layer, mb, Stream::gradient_comm, prefetch_after);
        Task& task = graph_.tasks[static_cast<std::size_t>(id)];
        task.allocate_bytes = zero3_buffer_bytes(parameters);
        task.allocate_category = MemoryCategory::buffers;
        return id;
    };
    if (scenario_behaviours(scenario_).zero3_gather == Zero3Gather::layer) {
        gathers.attention = gathers.mlp = gathers.last =
            gather(layer_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep));
        return gathers;
    }
    const LayerModuleParameters modules = layer_module_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep);
    constexpr std::size_t first_mlp = LayerModuleParameters::first_mlp_module;
    const auto gather_block = [&](std::size_t from, std::size_t to) {
        TaskId last = -1;
        for (std::size_t m = from; m < to; ++m) {
            // Backward runs a block's modules last first.
            last = gather(modules.parameters[backward ? to - 1 - (m - from) : m]);
        }
        return last;
    };
    if (backward) {
        gathers.mlp = gather_block(first_mlp, LayerModuleParameters::count);
        gathers.attention = gathers.last = gather_block(0, first_mlp);
    } else {
        gathers.attention = gather_block(0, first_mlp);
        gathers.mlp = gathers.last = gather_block(first_mlp, LayerModuleParameters::count);
    }
    return gathers;
}

TaskId GraphBuilder::zero3_gather_after(const std::vector<TaskId>& layer_starts, TaskId last) const {
    const auto ahead = static_cast<std::size_t>(parallelism_.zero3_prefetch_layers.value_or(1));
    if (ahead == 0) return last;
    return layer_starts.size() >= ahead ? layer_starts[layer_starts.size() - ahead] : -1;
}

void GraphBuilder::zero3_use(const Zero3Gathers& gathers, TaskId layer_start, TaskId layer_end) {
    if (gathers.last < 0) return;
    graph_.depend(gathers.last, layer_start);
    zero3_release(layer_end);
}

void GraphBuilder::zero3_release(TaskId layer_end) {
    const double layer_parameters = layer_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep);
    // Offloaded, the rank's own shard was loaded with the rest: the whole layer goes.
    graph_.tasks[static_cast<std::size_t>(layer_end)].release_buffer_bytes +=
        parallelism_.offload_parameters == OffloadTarget::none ? zero3_buffer_bytes(layer_parameters)
                                                               : layer_parameters * element_bytes_;
}

double GraphBuilder::zero3_buffer_bytes(double parameters) const {
    const auto shards = static_cast<double>(data_replicas(parallelism_));
    return parameters * element_bytes_ * (shards - 1.0) / shards;
}

}  // namespace parasight
