#include "compile/compiler.h"

#include "collective/hierarchical_collective.h"
#include "collective/point_to_point.h"
#include "compile/layer_costs.h"
#include "compile/pipeline_schedule.h"
#include "device/compute_model.h"
#include "model/cnn_layers.h"
#include "model/layer_operations.h"
#include "model/model_structure.h"
#include "strategy/strategy_tree.h"

#include <array>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace parasight {

namespace {

struct Step {
    TaskId first = -1;  // the first task of a forward or backward step on a device
    TaskId send = -1;   // the pipeline send that ends it (-1 at the ends of the model)
};

class GraphBuilder {
public:
    GraphBuilder(const Scenario& scenario, const ParallelLayout& layout, const CompileOptions& options)
        : scenario_(scenario),
          model_(scenario.model),
          parallelism_(scenario.parallelism),
          layout_(layout),
          topology_(layout.topology()),
          options_(options),
          compute_(make_compute_model(scenario.cluster.device, scenario.training.dtype,
                                      scenario.simulation.measured_times_s)),
          element_bytes_(std::max(2.0, dtype_bytes(scenario.training.dtype))),
          micro_batches_(static_cast<int>(scenario.micro_batches())),
          chunks_(parallelism_.schedule == Schedule::interleaved ? parallelism_.virtual_stages : 1),
          tree_(scenario) {
        if (model_.kind == ModelKind::cnn) {
            cnn_layers_ = cnn_layer_work(model_, scenario.training.micro_batch, dtype_bytes(scenario.training.dtype));
        }
        // Compute runs at the training dtype's peak; storage is at least 16-bit (fp8 recipes keep bf16 copies).
        compute_element_bytes_ = dtype_bytes(scenario.training.dtype);
    }

    ExecutionGraph build() {
        place_devices();
        plan_in_flight_caps();
        std::vector<std::vector<std::int32_t>> by_stage(static_cast<std::size_t>(parallelism_.pp));
        for (std::size_t d = 0; d < graph_.devices.size(); ++d) {
            by_stage[static_cast<std::size_t>(graph_.devices[d].stage)].push_back(static_cast<std::int32_t>(d));
        }
        for (int stage = 0; stage < parallelism_.pp; ++stage) {
            emit_stage(stage, by_stage[static_cast<std::size_t>(stage)]);
            // Every stage emits about as many tasks as the first: reserve for all of them at once.
            if (stage == 0) graph_.tasks.reserve(graph_.tasks.size() * static_cast<std::size_t>(parallelism_.pp) * 11 / 10);
        }
        link_pipeline();
        graph_.finish();
        return std::move(graph_);
    }

private:
    // --- devices and symmetry ------------------------------------------------------------------------------------
    void place_devices() {
        const std::int64_t pp_stride = layout_.id_stride(ParallelAxis::pp);
        if (options_.all_devices) {
            for (std::int64_t npu = 0; npu < topology_.device_count(); ++npu) {
                graph_.devices.push_back(SimulatedDevice{npu, layout_.rank_in_group(ParallelAxis::pp, npu), 1.0, {}});
            }
        } else {
            const double weight = static_cast<double>(topology_.device_count()) / parallelism_.pp;
            for (int stage = 0; stage < parallelism_.pp; ++stage) {
                graph_.devices.push_back(SimulatedDevice{stage * pp_stride, stage, weight, {}});
            }
        }
        const std::size_t steps = static_cast<std::size_t>(parallelism_.pp * chunks_ * micro_batches_);
        forward_steps_.assign(graph_.devices.size(), std::vector<Step>(steps));
        backward_steps_.assign(graph_.devices.size(), std::vector<Step>(steps));
    }

    [[nodiscard]] std::size_t step_index(int model_chunk, int micro_batch) const {
        return static_cast<std::size_t>(model_chunk * micro_batches_ + micro_batch);
    }

    // A 1F1B stage cannot keep more micro-batches in flight than the stage feeding it: its warm-up forwards need
    // that stage's forwards, which come before that stage's first backward. A cap on one stage so applies to the
    // stages after it, and the report says so.
    void plan_in_flight_caps() {
        const int pp = parallelism_.pp;
        in_flight_caps_.assign(static_cast<std::size_t>(pp), 0);
        if (parallelism_.schedule != Schedule::one_f_one_b) return;
        int upstream = pp;
        for (int stage = 0; stage < pp; ++stage) {
            const Setting<int> own = tree_.max_ongoing_micro_batches(tree_.stage(stage));
            const int wanted = own.value > 0 ? std::min(own.value, pp - stage) : pp - stage;
            const int cap = std::min(wanted, upstream);
            if (cap < wanted) {
                graph_.warnings.push_back("stage[" + std::to_string(stage) + "] keeps at most " + std::to_string(cap) +
                                          " micro-batches in flight, as the stage before it does: a 1F1B stage "
                                          "cannot run further ahead than the stage that feeds it");
            }
            in_flight_caps_[static_cast<std::size_t>(stage)] = cap;
            upstream = cap;
        }
    }

    // --- costs ---------------------------------------------------------------------------------------------------
    const LayerCosts& layer_costs(const LayerRecompute& recompute) {
        const auto key = std::make_pair(static_cast<int>(recompute.attention), static_cast<int>(recompute.mlp));
        if (const auto it = layer_costs_.find(key); it != layer_costs_.end()) return it->second;
        return layer_costs_
            .emplace(key, transformer_layer_costs(model_, parallelism_, scenario_.training.micro_batch, compute_,
                                                  compute_element_bytes_, element_bytes_, recompute))
            .first->second;
    }

    double collective_time_s(ParallelAxis axis, CollectiveOp op, double bytes) {
        const auto key = std::make_tuple(static_cast<int>(axis), static_cast<int>(op), bytes);
        if (const auto it = collective_times_.find(key); it != collective_times_.end()) return it->second;
        const auto spans = layout_.spans(axis);
        const double time = hierarchical_collective(op, bytes, topology_, spans, scenario_.simulation.collective_chunks).time_s;
        collective_times_.emplace(key, time);
        return time;
    }

    std::uint32_t axis_mask(ParallelAxis axis) {
        auto& mask = axis_masks_[static_cast<std::size_t>(axis)];
        if (!mask) {
            mask = 0U;
            for (const DimensionSpan& span : layout_.spans(axis)) *mask |= 1U << span.dimension;
        }
        return *mask;
    }

    // --- emitting tasks --------------------------------------------------------------------------------------------
    // Labels are string literals: look each up once.
    std::int32_t label(const char* name) {
        for (const auto& [literal, id] : label_ids_) {
            if (literal == name) return id;
        }
        const std::int32_t id = graph_.label(name);
        label_ids_.emplace_back(name, id);
        return id;
    }

    TaskId emit(std::int32_t device, Task task) {
        task.device = device;
        return graph_.add(task);
    }

    // A compute task that waits for `after` (or nothing).
    TaskId compute(std::int32_t device, TaskKind kind, const char* label, int layer, int micro_batch, double work_s,
                   double flops, TaskId after) {
        Task task;
        task.kind = kind;
        task.stream = Stream::compute;
        task.layer = layer;
        task.micro_batch = micro_batch;
        task.label = this->label(label);
        task.work_s = work_s;
        task.flops = flops;
        const TaskId id = emit(device, task);
        if (after >= 0) graph_.depend(after, id);
        return id;
    }

    // A collective on `axis` that waits for `after`; the next compute waits for it.
    TaskId collective(std::int32_t device, ParallelAxis axis, CollectiveOp op, double bytes, const char* label,
                      int layer, int micro_batch, Stream stream, TaskId after) {
        Task task;
        task.kind = axis == ParallelAxis::tp   ? TaskKind::tp_comm
                    : axis == ParallelAxis::cp ? TaskKind::cp_comm
                    : axis == ParallelAxis::ep ? TaskKind::ep_comm
                                               : TaskKind::dp_comm;
        task.stream = stream;
        task.layer = layer;
        task.micro_batch = micro_batch;
        task.label = this->label(label);
        task.work_s = collective_time_s(axis, op, bytes);
        task.bytes = bytes;
        task.dimension_mask = axis_mask(axis);
        if (options_.all_devices) task.collective = collective_instance(device, axis);
        const TaskId id = emit(device, task);
        if (after >= 0) graph_.depend(after, id);
        return id;
    }

    // In every-device mode, the k-th collective a device issues on an axis meets the k-th of its group's members.
    // Devices are emitted in NPU order, so a group's first member (its lowest NPU) issues each instance first.
    std::int32_t collective_instance(std::int32_t device, ParallelAxis axis) {
        const std::int64_t npu = graph_.devices[static_cast<std::size_t>(device)].npu;
        const auto a = static_cast<std::size_t>(axis);
        if (collective_sequence_[a].empty()) collective_sequence_[a].assign(graph_.devices.size(), 0);
        const std::int32_t sequence = collective_sequence_[a][static_cast<std::size_t>(npu)]++;
        const std::int64_t first = npu - layout_.rank_in_group(axis, npu) * layout_.id_stride(axis);
        auto& instances = group_instances_[a][first];
        if (first == npu) {
            instances.push_back(graph_.collective_count++);
            return instances.back();
        }
        return instances[static_cast<std::size_t>(sequence)];
    }

    TaskId tensor_parallel(std::int32_t device, bool before_block, int layer, int mb, TaskId after, bool backward) {
        if (parallelism_.tp == 1) return after;
        const double bytes = layer_costs(LayerRecompute{}).work.tp_collective_bytes;
        if (parallelism_.sequence_parallel) {
            // Korthikanti §4.2.2: all-gather before the block, reduce-scatter after (mirrored in backward).
            const bool gather = before_block != backward;
            return collective(device, ParallelAxis::tp, gather ? CollectiveOp::all_gather : CollectiveOp::reduce_scatter,
                              bytes, gather ? "tp all-gather" : "tp reduce-scatter", layer, mb, Stream::feature_comm, after);
        }
        // Megatron: the row-parallel output is all-reduced forward, the column-parallel input gradient backward.
        if (before_block != backward) return after;
        return collective(device, ParallelAxis::tp, CollectiveOp::all_reduce, bytes, "tp all-reduce", layer, mb,
                          Stream::feature_comm, after);
    }

    // The attention block forward: [cp all-gather of K, V] [TP gather or nothing] attention [TP reduce].
    TaskId attention_forward(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after,
                             TaskKind kind, double allocate_bytes) {
        TaskId last = after;
        if (parallelism_.cp > 1) {
            last = collective(device, ParallelAxis::cp, CollectiveOp::all_gather, costs.work.cp_collective_bytes,
                              "cp all-gather kv", layer, mb, Stream::feature_comm, last);
        }
        last = tensor_parallel(device, true, layer, mb, last, false);
        const TaskId attention = compute(device, kind, "attention", layer, mb, costs.attention_forward_s,
                                         costs.attention_forward_flops, last);
        graph_.tasks[static_cast<std::size_t>(attention)].allocate_bytes = allocate_bytes;
        return tensor_parallel(device, false, layer, mb, attention, false);
    }

    // The MLP block forward: [TP gather] [expert dispatch] MLP [expert combine] [TP reduce].
    TaskId mlp_forward(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after, TaskKind kind) {
        TaskId last = tensor_parallel(device, true, layer, mb, after, false);
        if (costs.work.ep_collective_bytes > 0.0 && parallelism_.ep > 1) {
            last = collective(device, ParallelAxis::ep, CollectiveOp::all_to_all, costs.work.ep_collective_bytes,
                              "ep dispatch", layer, mb, Stream::feature_comm, last);
        }
        last = compute(device, kind, "mlp", layer, mb, costs.mlp_forward_s, costs.mlp_forward_flops, last);
        if (costs.work.ep_collective_bytes > 0.0 && parallelism_.ep > 1) {
            last = collective(device, ParallelAxis::ep, CollectiveOp::all_to_all, costs.work.ep_collective_bytes,
                              "ep combine", layer, mb, Stream::feature_comm, last);
        }
        return tensor_parallel(device, false, layer, mb, last, false);
    }

    TaskId layer_forward(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after) {
        const TaskId last = attention_forward(device, layer, mb, costs, after, TaskKind::forward, costs.activation_bytes);
        return mlp_forward(device, layer, mb, costs, last, TaskKind::forward);
    }

    // Backward of one layer, MLP block first. A fully recomputed block re-runs its forward (with its collectives)
    // just before its backward; when both are, the whole layer's forward is re-run first, since the MLP's input is
    // then gone too. Selective recompute re-runs the attention core before the attention backward.
    TaskId layer_backward(std::int32_t device, int layer, int mb, const LayerRecompute& recompute,
                          const LayerCosts& costs, TaskId after) {
        const LayerCosts& plain = layer_costs(LayerRecompute{});
        TaskId last = after;
        // Recomputed activations live from the first recompute task to the end of the layer's backward.
        const TaskId recompute_start = static_cast<TaskId>(graph_.tasks.size());
        const bool attention_full = recompute.attention == Recompute::full;
        const bool mlp_full = recompute.mlp == Recompute::full;
        if (attention_full && mlp_full) {
            last = attention_forward(device, layer, mb, plain, last, TaskKind::recompute, 0.0);
        }
        if (mlp_full) last = mlp_forward(device, layer, mb, plain, last, TaskKind::recompute);
        last = tensor_parallel(device, false, layer, mb, last, true);
        if (costs.work.ep_collective_bytes > 0.0 && parallelism_.ep > 1) {
            last = collective(device, ParallelAxis::ep, CollectiveOp::all_to_all, costs.work.ep_collective_bytes,
                              "ep combine backward", layer, mb, Stream::feature_comm, last);
        }
        last = compute(device, TaskKind::backward, "mlp backward", layer, mb, costs.mlp_backward_s,
                       2.0 * costs.mlp_forward_flops, last);
        if (costs.work.ep_collective_bytes > 0.0 && parallelism_.ep > 1) {
            last = collective(device, ParallelAxis::ep, CollectiveOp::all_to_all, costs.work.ep_collective_bytes,
                              "ep dispatch backward", layer, mb, Stream::feature_comm, last);
        }
        last = tensor_parallel(device, true, layer, mb, last, true);
        if (attention_full && !mlp_full) {
            last = attention_forward(device, layer, mb, plain, last, TaskKind::recompute, 0.0);
        }
        last = tensor_parallel(device, false, layer, mb, last, true);
        if (recompute.attention == Recompute::selective) {
            last = compute(device, TaskKind::recompute, "attention core recompute", layer, mb,
                           costs.selective_recompute_s, costs.selective_recompute_flops, last);
        }
        const TaskId attention = compute(device, TaskKind::backward, "attention backward", layer, mb,
                                         costs.attention_backward_s, 2.0 * costs.attention_forward_flops, last);
        // The layer's activations, and whatever recomputation rebuilt, are freed once its backward is done.
        Task& done = graph_.tasks[static_cast<std::size_t>(attention)];
        done.release_bytes = costs.activation_bytes + costs.recompute_extra_bytes;
        if (costs.recompute_extra_bytes > 0.0) {
            graph_.tasks[static_cast<std::size_t>(recompute_start)].allocate_bytes += costs.recompute_extra_bytes;
        }
        if (parallelism_.cp > 1) {
            last = collective(device, ParallelAxis::cp, CollectiveOp::reduce_scatter, costs.work.cp_collective_bytes,
                              "cp reduce-scatter kv", layer, mb, Stream::feature_comm, attention);
            return tensor_parallel(device, true, layer, mb, last, true);
        }
        return tensor_parallel(device, true, layer, mb, attention, true);
    }

    // --- one device ----------------------------------------------------------------------------------------------
    // What every device of one pipeline stage shares.
    struct StageContext {
        int stage = 0;
        std::vector<PipelineStep> steps;
        LayerOperation logits;
        LayerOperation embedding;
        double boundary_bytes = 0.0;  // activation sent between stages
        double logits_bytes = 0.0;
        double layer_gradient_bytes = 0.0;
    };

    // One device's progress through its steps, and its gradient bucket.
    struct DeviceProgram {
        std::int32_t device = 0;
        TaskId previous = -1;
        double bucket_bytes = 0.0;
        TaskId bucket_ready = -1;
        std::vector<TaskId> reductions;
    };

    StageContext stage_context(int stage) {
        StageContext context;
        context.stage = stage;
        context.steps = pipeline_steps(parallelism_.schedule, stage, parallelism_.pp, micro_batches_, chunks_,
                                       in_flight_caps_[static_cast<std::size_t>(stage)]);
        if (model_.kind == ModelKind::cnn) return context;
        const double mb_size = scenario_.training.micro_batch;
        const double tokens = mb_size * model_.seq_len / parallelism_.cp;
        context.boundary_bytes = tokens * model_.hidden * compute_element_bytes_ /
                                 (parallelism_.sequence_parallel ? parallelism_.tp : 1);
        context.logits = logits_operation(model_, mb_size / parallelism_.cp, parallelism_.tp, compute_element_bytes_);
        context.embedding = embedding_operation(model_, mb_size / parallelism_.cp, parallelism_.tp, compute_element_bytes_);
        context.logits_bytes = tokens * static_cast<double>(model_.vocab) / parallelism_.tp * (element_bytes_ + 4.0);
        context.layer_gradient_bytes = layer_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep) * element_bytes_;
        return context;
    }

    // Layers of model chunk k: interleaved chunks are equal; otherwise stage counts from the strategy tree.
    std::pair<int, int> chunk_layers(int model_chunk) const {
        if (chunks_ > 1) {
            const int per_chunk = pipeline_layer_count(model_) / (parallelism_.pp * chunks_);
            return {model_chunk * per_chunk, per_chunk};
        }
        const StrategyNode& stage = tree_.nodes()[static_cast<std::size_t>(tree_.stage(model_chunk))];
        return {stage.first_layer, stage.layer_count};
    }

    // Recompute of one layer's blocks: their own settings, the layer's, its stage's or the scenario's (the strategy
    // tree resolves them). Selective recompute set above a block means the attention core; the MLP keeps its
    // activations then.
    LayerRecompute layer_recompute(int layer) const {
        const Recompute attention = tree_.recompute(tree_.block(layer, LayerBlock::attention)).value;
        const Recompute mlp = tree_.recompute(tree_.block(layer, LayerBlock::mlp)).value;
        return LayerRecompute{attention, mlp == Recompute::selective ? Recompute::none : mlp};
    }

    void flush_bucket(DeviceProgram& program, int micro_batch) {
        if (program.bucket_bytes > 0.0 && parallelism_.dp > 1) {
            const bool all_reduce = parallelism_.zero == 0;
            program.reductions.push_back(collective(
                program.device, ParallelAxis::dp, all_reduce ? CollectiveOp::all_reduce : CollectiveOp::reduce_scatter,
                program.bucket_bytes, all_reduce ? "dp all-reduce" : "dp reduce-scatter", -1, micro_batch,
                Stream::gradient_comm, program.bucket_ready));
        }
        program.bucket_bytes = 0.0;
    }

    void emit_step(DeviceProgram& program, const StageContext& context, const PipelineStep& step) {
        if (model_.kind == ModelKind::cnn) {
            emit_cnn_step(program, context, step);
            return;
        }
        const std::int32_t device = program.device;
        const int total_chunks = parallelism_.pp * chunks_;
        const int model_chunk = step.chunk * parallelism_.pp + context.stage;
        const auto [first_layer, layer_count] = chunk_layers(model_chunk);
        const bool model_first = model_chunk == 0;
        const bool model_last = model_chunk == total_chunks - 1;
        const int mb = step.micro_batch;
        Step& record = (step.forward ? forward_steps_ : backward_steps_)[static_cast<std::size_t>(device)]
                                                                       [step_index(model_chunk, mb)];
        const TaskId first_task = static_cast<TaskId>(graph_.tasks.size());
        TaskId last = program.previous;
        if (step.forward) {
            if (model_first) {
                last = compute(device, TaskKind::forward, "embedding", -1, mb,
                               compute_.time_s("embedding", Pass::forward, context.embedding.forward), 0.0, last);
            }
            TaskId previous_layer_start = -1;
            for (int layer = first_layer; layer < first_layer + layer_count; ++layer) {
                const TaskId gather = zero3_gather(device, layer, mb, previous_layer_start);
                const auto layer_start = static_cast<TaskId>(graph_.tasks.size());
                last = layer_forward(device, layer, mb, layer_costs(layer_recompute(layer)), last);
                zero3_use(gather, layer_start, last);
                previous_layer_start = layer_start;
            }
            if (model_last) {
                last = compute(device, TaskKind::forward, "logits and loss", -1, mb,
                               compute_.time_s("logits", Pass::forward, context.logits.forward), context.logits.forward.flops, last);
                graph_.tasks[static_cast<std::size_t>(last)].allocate_bytes = context.logits_bytes;
            }
        } else {
            // Megatron reduces gradients once, after the last micro-batch; DeepSpeed's ZeRO-2/3 after each one.
            const bool reduce_now = parallelism_.zero >= 2 || mb == micro_batches_ - 1;
            const double table_gradient_bytes =
                static_cast<double>(model_.vocab) * model_.hidden / parallelism_.tp * element_bytes_;
            if (model_last) {
                last = compute(device, TaskKind::backward, "logits backward", -1, mb,
                               compute_.time_s("logits", Pass::backward, context.logits.backward), context.logits.backward.flops, last);
                graph_.tasks[static_cast<std::size_t>(last)].release_bytes = context.logits_bytes;
                // The final norm's and the output projection's gradients, where this stage holds them (see
                // stage_parameters).
                if (reduce_now) {
                    program.bucket_bytes += final_norm_parameters() * element_bytes_;
                    if (holds_output_table(context.stage)) program.bucket_bytes += table_gradient_bytes;
                    program.bucket_ready = last;
                }
            }
            TaskId previous_layer_start = -1;
            for (int layer = first_layer + layer_count - 1; layer >= first_layer; --layer) {
                const TaskId gather = zero3_gather(device, layer, mb, previous_layer_start);
                const auto layer_start = static_cast<TaskId>(graph_.tasks.size());
                const LayerRecompute recompute = layer_recompute(layer);
                last = layer_backward(device, layer, mb, recompute, layer_costs(recompute), last);
                zero3_use(gather, layer_start, last);
                previous_layer_start = layer_start;
                if (reduce_now) {
                    program.bucket_bytes += context.layer_gradient_bytes;
                    program.bucket_ready = last;
                    if (program.bucket_bytes >= scenario_.simulation.gradient_bucket_bytes) flush_bucket(program, mb);
                }
            }
            if (model_first) {
                last = compute(device, TaskKind::backward, "embedding backward", -1, mb,
                               compute_.time_s("embedding", Pass::backward, context.embedding.backward), 0.0, last);
                if (reduce_now) {
                    program.bucket_bytes += table_gradient_bytes;
                    program.bucket_ready = last;
                }
            }
            if (reduce_now) flush_bucket(program, mb);
        }
        record.first = first_task < static_cast<TaskId>(graph_.tasks.size()) ? first_task : -1;
        // Pipeline send to the next model chunk (forward) or the previous one (backward).
        const bool sends = step.forward ? !model_last : !model_first;
        if (sends) record.send = pipeline_send(device, step.forward, mb, context.boundary_bytes, last);
        program.previous = last;
    }

    // A CNN stage runs its layers one after another (ParaDL's layer parallelism): each a single operation forward
    // and backward, keeping its input for backward; gradients join the data-parallel bucket as backward produces them.
    void emit_cnn_step(DeviceProgram& program, const StageContext& context, const PipelineStep& step) {
        const std::int32_t device = program.device;
        const int model_chunk = step.chunk * parallelism_.pp + context.stage;
        const auto [first_layer, layer_count] = chunk_layers(model_chunk);
        const bool model_first = model_chunk == 0;
        const bool model_last = model_chunk == parallelism_.pp * chunks_ - 1;
        const int mb = step.micro_batch;
        Step& record = (step.forward ? forward_steps_ : backward_steps_)[static_cast<std::size_t>(device)]
                                                                       [step_index(model_chunk, mb)];
        const TaskId first_task = static_cast<TaskId>(graph_.tasks.size());
        TaskId last = program.previous;
        const double eb = dtype_bytes(scenario_.training.dtype);
        if (step.forward) {
            for (int layer = first_layer; layer < first_layer + layer_count; ++layer) {
                const CnnLayerWork& work = cnn_layers_[static_cast<std::size_t>(layer)];
                last = compute(device, TaskKind::forward, cnn_label(work.type, false), layer, mb,
                               compute_.time_s(work.operation.name, Pass::forward, work.operation.forward),
                               work.operation.forward.flops, last);
                graph_.tasks[static_cast<std::size_t>(last)].allocate_bytes = work.kept_activation_bytes;
            }
        } else {
            const bool reduce_now = parallelism_.zero >= 2 || mb == micro_batches_ - 1;
            for (int layer = first_layer + layer_count - 1; layer >= first_layer; --layer) {
                const CnnLayerWork& work = cnn_layers_[static_cast<std::size_t>(layer)];
                last = compute(device, TaskKind::backward, cnn_label(work.type, true), layer, mb,
                               compute_.time_s(work.operation.name, Pass::backward, work.operation.backward),
                               work.operation.backward.flops, last);
                graph_.tasks[static_cast<std::size_t>(last)].release_bytes = work.kept_activation_bytes;
                if (reduce_now && work.parameters > 0.0) {
                    program.bucket_bytes += work.parameters * element_bytes_;
                    program.bucket_ready = last;
                    if (program.bucket_bytes >= scenario_.simulation.gradient_bucket_bytes) flush_bucket(program, mb);
                }
            }
            if (reduce_now) flush_bucket(program, mb);
        }
        record.first = first_task < static_cast<TaskId>(graph_.tasks.size()) ? first_task : -1;
        const bool sends = step.forward ? !model_last : !model_first;
        if (sends) {
            // The activation (forward) or its gradient (backward) at the stage boundary.
            const int boundary_layer = step.forward ? first_layer + layer_count - 1 : first_layer;
            const CnnLayerWork& work = cnn_layers_[static_cast<std::size_t>(boundary_layer)];
            const ActivationShape& shape = step.forward ? work.output : work.input;
            const double bytes = scenario_.training.micro_batch * static_cast<double>(shape.elements()) * eb;
            record.send = pipeline_send(device, step.forward, mb, bytes, last);
        }
        program.previous = last;
    }

    static const char* cnn_label(CnnLayerType type, bool backward) {
        switch (type) {
        case CnnLayerType::conv: return backward ? "conv backward" : "conv";
        case CnnLayerType::pool: return backward ? "pool backward" : "pool";
        case CnnLayerType::fc: return backward ? "fc backward" : "fc";
        }
        return "layer";
    }

    // Emits every device of one stage, step by step across the devices: the k-th step of each device sits next to
    // the others' in memory, where the engine will touch them at about the same moment.
    void emit_stage(int stage, const std::vector<std::int32_t>& stage_devices) {
        const StageContext context = stage_context(stage);
        std::vector<DeviceProgram> programs;
        for (const std::int32_t device : stage_devices) programs.push_back(DeviceProgram{device, -1, 0.0, -1, {}});
        for (const PipelineStep& step : context.steps) {
            for (DeviceProgram& program : programs) emit_step(program, context, step);
        }
        for (DeviceProgram& program : programs) {
            const TaskId tied = tied_embedding_reduction(program.device, stage, program.previous);
            if (tied >= 0) program.reductions.push_back(tied);
            emit_optimizer(program.device, stage, program.reductions, program.previous);
            set_static_memory(program.device, stage);
        }
    }

    // ZeRO-3: a layer's parameters are gathered from the data-parallel group before each use and dropped after
    // (Rajbhandari et al. 2020 §5.3). The gather runs on the gradient stream and is prefetched: it may start once the
    // previous layer has started (`prefetch_after`), so at most two layers' parameters are held at once. Returns the
    // gather, or -1 without ZeRO-3.
    TaskId zero3_gather(std::int32_t device, int layer, int mb, TaskId prefetch_after) {
        if (parallelism_.zero < 3 || parallelism_.dp == 1) return -1;
        const TaskId gather = collective(device, ParallelAxis::dp, CollectiveOp::all_gather, zero3_layer_bytes(),
                                         "zero-3 parameter all-gather", layer, mb, Stream::gradient_comm, prefetch_after);
        Task& task = graph_.tasks[static_cast<std::size_t>(gather)];
        task.allocate_bytes = zero3_buffer_bytes();
        task.allocate_category = MemoryCategory::buffers;
        return gather;
    }

    // The layer that starts at `layer_start` and ends with `layer_end` waits for its gathered parameters and drops
    // them when it is done.
    void zero3_use(TaskId gather, TaskId layer_start, TaskId layer_end) {
        if (gather < 0) return;
        graph_.depend(gather, layer_start);
        graph_.tasks[static_cast<std::size_t>(layer_end)].release_buffer_bytes += zero3_buffer_bytes();
    }

    [[nodiscard]] double zero3_layer_bytes() const {
        return layer_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep) * element_bytes_;
    }
    // Each rank keeps its own shard; the gather brings in the other (dp − 1)/dp.
    [[nodiscard]] double zero3_buffer_bytes() const {
        return zero3_layer_bytes() * (parallelism_.dp - 1) / parallelism_.dp;
    }

    // The final norm before the logits, on the last stage: RMSNorm's scale, or LayerNorm's scale and shift.
    [[nodiscard]] double final_norm_parameters() const {
        return model_.mlp == MlpKind::swiglu ? model_.hidden : 2.0 * model_.hidden;
    }

    // The last stage holds the output projection: its own copy of the table when pp > 1 (Megatron keeps one for tied
    // embeddings), the untied projection when pp = 1.
    [[nodiscard]] bool holds_output_table(int stage) const {
        return stage == parallelism_.pp - 1 && (parallelism_.pp > 1 || !model_.tie_embeddings);
    }

    TaskId pipeline_send(std::int32_t device, bool forward, int mb, double bytes, TaskId after) {
        const SimulatedDevice& from = graph_.devices[static_cast<std::size_t>(device)];
        const std::int64_t stride = layout_.id_stride(ParallelAxis::pp);
        const int pp = parallelism_.pp;
        const int next_stage = forward ? (from.stage + 1) % pp : (from.stage + pp - 1) % pp;
        const std::int64_t to = from.npu + (next_stage - from.stage) * stride;
        const PointToPointCost cost = point_to_point(topology_, from.npu, to, bytes);
        Task task;
        task.kind = TaskKind::pp_comm;
        task.stream = Stream::feature_comm;
        task.micro_batch = mb;
        task.label = label(forward ? "pp send activations" : "pp send gradients");
        task.work_s = cost.time_s;
        task.bytes = bytes;
        for (std::size_t d = 0; d < topology_.dimension_count(); ++d) {
            if (topology_.coordinate(from.npu, d) != topology_.coordinate(to, d)) task.dimension_mask |= 1U << d;
        }
        const TaskId id = emit(device, task);
        if (after >= 0) graph_.depend(after, id);
        return id;
    }

    // Tied embeddings with pp > 1: the first stage's input embedding and the last stage's copy of it are one
    // parameter, so Megatron all-reduces their gradients between the two stages (its "embedding group") before the
    // optimizer step. Two members: each sends the whole table gradient once. Returns the task, or -1.
    TaskId tied_embedding_reduction(std::int32_t device, int stage, TaskId after) {
        const int pp = parallelism_.pp;
        if (model_.kind != ModelKind::transformer || !model_.tie_embeddings || pp == 1) return -1;
        if (stage != 0 && stage != pp - 1) return -1;
        const SimulatedDevice& self = graph_.devices[static_cast<std::size_t>(device)];
        const std::int64_t stride = layout_.id_stride(ParallelAxis::pp);
        const std::int64_t partner = stage == 0 ? self.npu + (pp - 1) * stride : self.npu - (pp - 1) * stride;
        const double bytes = static_cast<double>(model_.vocab) * model_.hidden / parallelism_.tp * element_bytes_;
        const PointToPointCost cost = point_to_point(topology_, self.npu, partner, bytes);
        Task task;
        task.kind = TaskKind::dp_comm;
        task.stream = Stream::gradient_comm;
        task.label = label("tied embedding all-reduce");
        task.work_s = cost.time_s + cost.latency_s;  // a two-member ring: one step each way
        task.bytes = bytes;
        for (std::size_t d = 0; d < topology_.dimension_count(); ++d) {
            if (topology_.coordinate(self.npu, d) != topology_.coordinate(partner, d)) task.dimension_mask |= 1U << d;
        }
        // Both ends are simulated, so they meet like any collective; the first stage is emitted first.
        const std::int64_t first_stage_npu = stage == 0 ? self.npu : partner;
        if (stage == 0) {
            task.collective = graph_.collective_count++;
            tied_embedding_instances_[first_stage_npu] = task.collective;
        } else {
            task.collective = tied_embedding_instances_.at(first_stage_npu);
        }
        const TaskId id = emit(device, task);
        if (after >= 0) graph_.depend(after, id);
        return id;
    }

    void emit_optimizer(std::int32_t device, int stage, const std::vector<TaskId>& reductions, TaskId after) {
        const double params = stage_parameters(stage);
        const double shard = parallelism_.zero >= 1 ? params / parallelism_.dp : params;
        // Adam in mixed precision reads fp32 master weights, both moments and the gradient, and writes the three fp32
        // tensors and the 16-bit weights: 4+4+4+2 read, 4+4+4+2 written = 28 bytes per parameter. SGD with momentum:
        // 4+4+2 read, 4+4+2 written = 20.
        const double bytes_per_param = scenario_.training.optimizer == Optimizer::adam ? 28.0 : 20.0;
        Task task;
        task.kind = TaskKind::optimizer;
        task.stream = Stream::compute;
        task.label = label("optimizer step");
        task.work_s = compute_.time_s("optimizer", Pass::forward, OperationWork{0.0, shard * bytes_per_param, 0.0});
        task.bytes = shard * bytes_per_param;
        const TaskId step = emit(device, task);
        if (after >= 0) graph_.depend(after, step);
        for (const TaskId reduction : reductions) graph_.depend(reduction, step);
        if (parallelism_.zero >= 1 && parallelism_.zero < 3 && parallelism_.dp > 1) {
            // The updated shards are gathered back into every replica's full copy.
            collective(device, ParallelAxis::dp, CollectiveOp::all_gather, params * element_bytes_,
                       "dp parameter all-gather", -1, -1, Stream::gradient_comm, step);
        }
    }

    double stage_parameters(int stage) const {
        if (model_.kind == ModelKind::cnn) {
            double params = 0.0;
            for (const int child : tree_.nodes()[static_cast<std::size_t>(tree_.stage(stage))].children) {
                const int layer = tree_.nodes()[static_cast<std::size_t>(child)].path.index;
                params += cnn_layers_[static_cast<std::size_t>(layer)].parameters;
            }
            return params;
        }
        const double layers = tree_.layers_of_stage(stage);
        double params = layers * layer_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep);
        const double table = static_cast<double>(model_.vocab) * model_.hidden / parallelism_.tp;
        if (stage == 0) params += table;
        if (holds_output_table(stage)) params += table;
        if (stage == parallelism_.pp - 1) params += final_norm_parameters();
        return params;
    }

    // Model states (Rajbhandari et al. 2020 §3.1): with mixed-precision Adam 2Ψ weights, 2Ψ gradients and 12Ψ of
    // optimizer state (fp32 weights, momentum, variance); ZeRO-1 shards the optimizer state over dp, ZeRO-2 the
    // gradients too, ZeRO-3 the weights too. fp32 training: 4Ψ, 4Ψ and 8Ψ (two moments). SGD keeps one moment.
    void set_static_memory(std::int32_t device, int stage) {
        const double psi = stage_parameters(stage);
        const double n = parallelism_.dp;
        const bool mixed = scenario_.training.dtype != Dtype::fp32;
        const double weight_bytes = mixed ? 2.0 : 4.0;
        const double moments = scenario_.training.optimizer == Optimizer::adam ? 2.0 : 1.0;
        const double optimizer_bytes = (mixed ? 4.0 : 0.0) + 4.0 * moments;
        auto& bytes = graph_.devices[static_cast<std::size_t>(device)].static_bytes;
        bytes[static_cast<std::size_t>(MemoryCategory::weights)] = weight_bytes * psi / (parallelism_.zero >= 3 ? n : 1.0);
        bytes[static_cast<std::size_t>(MemoryCategory::gradients)] = weight_bytes * psi / (parallelism_.zero >= 2 ? n : 1.0);
        bytes[static_cast<std::size_t>(MemoryCategory::optimizer)] = optimizer_bytes * psi / (parallelism_.zero >= 1 ? n : 1.0);
    }

    // --- pipeline dependencies -------------------------------------------------------------------------------------
    std::int32_t device_of(std::int64_t npu, int stage) const {
        if (options_.all_devices) return static_cast<std::int32_t>(npu);
        return stage;
    }

    void link_pipeline() {
        const int pp = parallelism_.pp;
        const int total_chunks = pp * chunks_;
        const std::int64_t stride = layout_.id_stride(ParallelAxis::pp);
        for (std::size_t d = 0; d < graph_.devices.size(); ++d) {
            const SimulatedDevice& device = graph_.devices[d];
            for (int chunk = 0; chunk < chunks_; ++chunk) {
                const int model_chunk = chunk * pp + device.stage;
                for (int mb = 0; mb < micro_batches_; ++mb) {
                    const std::size_t index = step_index(model_chunk, mb);
                    if (model_chunk + 1 < total_chunks) {
                        const int next_stage = (device.stage + 1) % pp;
                        const std::int32_t next = device_of(device.npu + (next_stage - device.stage) * stride, next_stage);
                        const TaskId send = forward_steps_[d][index].send;
                        const TaskId receiver = forward_steps_[static_cast<std::size_t>(next)][step_index(model_chunk + 1, mb)].first;
                        if (send >= 0 && receiver >= 0) graph_.depend(send, receiver);
                    }
                    if (model_chunk > 0) {
                        const int previous_stage = (device.stage + pp - 1) % pp;
                        const std::int32_t previous =
                            device_of(device.npu + (previous_stage - device.stage) * stride, previous_stage);
                        const TaskId send = backward_steps_[d][index].send;
                        const TaskId receiver =
                            backward_steps_[static_cast<std::size_t>(previous)][step_index(model_chunk - 1, mb)].first;
                        if (send >= 0 && receiver >= 0) graph_.depend(send, receiver);
                    }
                }
            }
        }
    }

    const Scenario& scenario_;
    const ModelSpec& model_;
    const ParallelismSpec& parallelism_;
    const ParallelLayout& layout_;
    const Topology& topology_;
    CompileOptions options_;
    ComputeModel compute_;
    double element_bytes_;
    double compute_element_bytes_ = 2.0;
    int micro_batches_;
    int chunks_;
    StrategyTree tree_;
    std::vector<int> in_flight_caps_;  // per stage, for 1F1B
    std::vector<CnnLayerWork> cnn_layers_;  // a CNN model's layers, in order
    std::unordered_map<std::int64_t, std::int32_t> tied_embedding_instances_;  // by the first stage's NPU
    ExecutionGraph graph_;
    std::map<std::pair<int, int>, LayerCosts> layer_costs_;
    std::map<std::tuple<int, int, double>, double> collective_times_;
    std::array<std::vector<std::int32_t>, 5> collective_sequence_;  // by axis, by NPU
    std::array<std::unordered_map<std::int64_t, std::vector<std::int32_t>>, 5> group_instances_;  // by axis, group
    std::vector<std::pair<const char*, std::int32_t>> label_ids_;
    std::array<std::optional<std::uint32_t>, 5> axis_masks_;  // topology dimensions each axis's groups use
    std::vector<std::vector<Step>> forward_steps_;
    std::vector<std::vector<Step>> backward_steps_;
};

}  // namespace

Expected<ExecutionGraph> compile_scenario(const Scenario& scenario, const CompileOptions& options) {
    const auto layout = ParallelLayout::make(scenario.topology(), scenario.parallelism.layout_order());
    if (!layout) return Error{layout.error()};
    GraphBuilder builder(scenario, *layout, options);
    return builder.build();
}

}  // namespace parasight
