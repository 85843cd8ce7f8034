// Devices and symmetry classes, the stages' steps, pipeline sends and the links between stages.
#include "compile/graph_builder.h"
#include "compile/stage_parameters.h"

#include "model/layer_operations.h"
#include "model/model_states.h"
#include "model/model_structure.h"

#include <algorithm>

namespace parasight {

GraphBuilder::GraphBuilder(const ValidatedScenario& validated, const CompileOptions& options)
    : scenario_(validated.value()),
      model_(scenario_.model),
      parallelism_(scenario_.parallelism),
      // validate() has checked that the degrees lay out on the topology.
      layout_(*ParallelLayout::make(scenario_.topology(), parallelism_.layout_order())),
      topology_(layout_.topology()),
      options_(options),
      progress_(options.progress, SimulationPhase::compile),
      compute_(make_compute_model(scenario_)),
      element_bytes_(storage_element_bytes(scenario_.training.dtype)),
      gradient_bytes_(gradient_element_bytes(scenario_.training)),
      micro_batches_(static_cast<int>(compiled_micro_batches(scenario_, options))),
      chunks_(parallelism_.schedule == Schedule::interleaved ? parallelism_.virtual_stages : 1),
      tree_(validated),
      what_if_(scenario_.what_if, layout_),
      transfers_(scenario_, layout_, what_if_, graph_.transfer_shapes),
      tasks_(graph_, transfers_, what_if_, layout_, options.all_devices) {
    if (model_.kind == ModelKind::cnn) {
        cnn_layers_ = cnn_layer_work(model_, scenario_.training.micro_batch, dtype_bytes(scenario_.training.dtype));
    }
}

std::optional<ExecutionGraph> GraphBuilder::build() {
    if (progress_.report(0.0)) {
        stop_ = Stop::cancelled;
        return std::nullopt;
    }
    place_devices();
    plan_in_flight_caps();
    std::vector<std::vector<std::int32_t>> by_stage(static_cast<std::size_t>(parallelism_.pp));
    for (std::size_t d = 0; d < graph_.devices.size(); ++d) {
        by_stage[static_cast<std::size_t>(graph_.devices[d].stage)].push_back(static_cast<std::int32_t>(d));
    }
    for (int stage = 0; stage < parallelism_.pp; ++stage) {
        emit_stage(stage, by_stage[static_cast<std::size_t>(stage)]);
        if (stop_ != Stop::none) return std::nullopt;
        // Every stage emits about as many tasks and dependencies as the first: reserve for all of them at once.
        if (stage == 0) {
            const std::size_t expected = graph_.tasks.size() * static_cast<std::size_t>(parallelism_.pp) * 11 / 10;
            const std::size_t tasks = std::min(expected, static_cast<std::size_t>(options_.max_tasks) + 1);
            graph_.reserve(tasks, tasks * (graph_.dependency_count() + 1) / std::max<std::size_t>(1, graph_.tasks.size()));
        }
    }
    link_pipeline();
    for (Warning& warning : what_if_.unmatched_rule_warnings()) graph_.warnings.push_back(std::move(warning));
    graph_.offloads = offload_uses();
    for (const OffloadUse& use : graph_.offloads) {
        if (!use.exceeds_capacity()) continue;
        Warning warning;
        warning.code = WarningCode::offload_over_capacity;
        warning.subject = "cluster.memory_system." + std::string(name_of(use.target, offload_target_names));
        warning.npu = use.first_npu;
        warning.needed_bytes = use.bytes;
        warning.capacity_bytes = use.capacity_bytes;
        graph_.warnings.push_back(std::move(warning));
    }
    if (progress_.report(0.95)) {
        stop_ = Stop::cancelled;
        return std::nullopt;
    }
    graph_.finish();
    if (progress_.report(1.0)) {
        stop_ = Stop::cancelled;
        return std::nullopt;
    }
    return std::move(graph_);
}

void GraphBuilder::place_devices() {
    if (options_.all_devices) {
        for (std::int64_t npu = 0; npu < topology_.device_count(); ++npu) {
            graph_.devices.push_back(SimulatedDevice{npu, layout_.rank_in_group(ParallelAxis::pp, npu), 1.0, {}});
        }
    } else {
        const double weight = static_cast<double>(topology_.device_count()) / parallelism_.pp;
        for (int stage = 0; stage < parallelism_.pp; ++stage) {
            graph_.devices.push_back(SimulatedDevice{what_if_.stage_representative(stage), stage, weight, {}});
        }
    }
    for (const SimulatedDevice& device : graph_.devices) tasks_.add_device(what_if_.compute_time_factor(device.npu));
    const std::size_t steps = static_cast<std::size_t>(chunks_) * static_cast<std::size_t>(micro_batches_);
    forward_steps_.assign(graph_.devices.size(), std::vector<Step>(steps));
    backward_steps_.assign(graph_.devices.size(), std::vector<Step>(steps));
}

std::size_t GraphBuilder::step_index(int model_chunk, int micro_batch) const {
    return static_cast<std::size_t>(model_chunk / parallelism_.pp) * static_cast<std::size_t>(micro_batches_) +
           static_cast<std::size_t>(micro_batch);
}

void GraphBuilder::plan_in_flight_caps() {
    const int pp = parallelism_.pp;
    in_flight_caps_.assign(static_cast<std::size_t>(pp), 0);
    if (parallelism_.schedule != Schedule::one_f_one_b) return;
    int upstream = pp;
    for (int stage = 0; stage < pp; ++stage) {
        const Setting<int> own = tree_.max_ongoing_micro_batches(tree_.stage(stage));
        // 1F1B's warm-up keeps pp − stage micro-batches in flight, or all of them when there are fewer.
        const int schedule_own = std::min(pp - stage, micro_batches_);
        if (own.value > schedule_own) {
            Warning warning;
            warning.code = WarningCode::in_flight_cap_without_effect;
            warning.subject = to_string(NodePath{StrategyNodeKind::stage, stage});
            warning.requested_micro_batches = own.value;
            warning.micro_batches = schedule_own;
            graph_.warnings.push_back(std::move(warning));
        }
        const int wanted = own.value > 0 ? std::min(own.value, pp - stage) : pp - stage;
        const int cap = std::min(wanted, upstream);
        if (cap < wanted) {
            Warning warning;
            warning.code = WarningCode::in_flight_capped;
            warning.subject = to_string(NodePath{StrategyNodeKind::stage, stage});
            warning.micro_batches = cap;
            graph_.warnings.push_back(std::move(warning));
        }
        in_flight_caps_[static_cast<std::size_t>(stage)] = cap;
        upstream = cap;
    }
}

const LayerCosts& GraphBuilder::layer_costs(const RecomputedOperations& recomputed) {
    for (const auto& [operations, costs] : layer_costs_) {
        if (operations == recomputed) return costs;
    }
    return layer_costs_
        .emplace_back(recomputed, transformer_layer_costs(model_, parallelism_, scenario_.training,
                                                          scenario_.training.micro_batch, compute_, element_bytes_,
                                                          element_bytes_, recomputed))
        .second;
}

GraphBuilder::StageContext GraphBuilder::stage_context(int stage) {
    StageContext context;
    context.stage = stage;
    context.steps = pipeline_steps(parallelism_.schedule, stage, parallelism_.pp, micro_batches_, chunks_,
                                   in_flight_caps_[static_cast<std::size_t>(stage)],
                                   parallelism_.micro_batch_group.value_or(0));
    if (model_.kind == ModelKind::cnn) return context;
    const double mb_size = scenario_.training.micro_batch;
    const double tokens = mb_size * model_.seq_len / parallelism_.cp;
    context.boundary_bytes = tokens * model_.hidden * element_bytes_ /
                             (parallelism_.sequence_parallel ? parallelism_.tp : 1);
    context.boundary_send_bytes = context.boundary_bytes / (scatters_pipeline_sends() ? parallelism_.tp : 1);
    context.logits = logits_operation(model_, mb_size / parallelism_.cp, parallelism_.tp, element_bytes_,
                                      scenario_.training.eager_kernels);
    context.embedding = embedding_operation(model_, mb_size / parallelism_.cp, parallelism_.tp, element_bytes_);
    context.logits_bytes = tokens * static_cast<double>(model_.vocab) / parallelism_.tp * (element_bytes_ + 4.0);
    // With experts split over ep ranks, their gradients are reduced over dp alone and the rest over dp × ep
    // (Megatron-LM's expert and data-parallel groups); otherwise every gradient goes over dp.
    const double expert = parallelism_.ep > 1 ? expert_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep) : 0.0;
    context.layer_gradient_bytes = (layer_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep) - expert) * gradient_bytes_;
    context.layer_expert_gradient_bytes = expert * gradient_bytes_;
    return context;
}

void GraphBuilder::emit_stage(int stage, const std::vector<std::int32_t>& stage_devices) {
    const StageContext context = stage_context(stage);
    std::vector<DeviceProgram> programs;
    for (const std::int32_t device : stage_devices) {
        DeviceProgram program;
        program.device = device;
        programs.push_back(std::move(program));
    }
    // Emitting takes about 0.9 of compiling, shared evenly by the stages; linking and indexing the rest.
    const double stage_share = 0.9 / parallelism_.pp;
    for (std::size_t k = 0; k < context.steps.size(); ++k) {
        for (DeviceProgram& program : programs) emit_step(program, context, context.steps[k]);
        if (graph_.tasks.size() > static_cast<std::size_t>(options_.max_tasks)) {
            stop_ = Stop::too_large;
            return;
        }
        const double done = stage_share * (stage + static_cast<double>(k + 1) / static_cast<double>(context.steps.size()));
        if (progress_.report(done)) {
            stop_ = Stop::cancelled;
            return;
        }
    }
    for (DeviceProgram& program : programs) {
        const TaskId tied = tied_embedding_reduction(program.device, stage, program.previous);
        if (tied >= 0) program.reductions.push_back(tied);
        emit_optimizer(program.device, stage, program.reductions, program.previous);
        if (stop_ != Stop::none) return;
        set_static_memory(program.device, stage);
    }
}

TaskId GraphBuilder::pipeline_send(std::int32_t device, bool forward, int mb, double bytes, TaskId after) {
    const SimulatedDevice& from = graph_.devices[static_cast<std::size_t>(device)];
    const std::int64_t stride = layout_.id_stride(ParallelAxis::pp);
    const int pp = parallelism_.pp;
    const int next_stage = forward ? (from.stage + 1) % pp : (from.stage + pp - 1) % pp;
    const std::int64_t to = from.npu + (next_stage - from.stage) * stride;
    const TransferCosts::PointToPoint transfer = transfers_.point_to_point(from.npu, to, bytes);
    Task task;
    task.kind = TaskKind::pp_comm;
    task.stream = Stream::feature_comm;
    task.peers = forward ? Peers::next_stage : Peers::previous_stage;
    task.micro_batch = mb;
    task.label = tasks_.label(forward ? "pp send activations" : "pp send gradients");
    task.work_s = transfer.cost.time_s;
    task.bytes = bytes;
    task.dimension_mask = transfer.dimension_mask;
    task.transfer_shape = transfer.shape;
    const double delay_s = what_if_.delay_s(ParallelAxis::pp, CommOperation::send, task.layer);
    return tasks_.emit_communication(device, task, delay_s, -1, after);
}

void GraphBuilder::finish_step(DeviceProgram& program, Step& record, bool forward, TaskId last) {
    record.prior_compute = program.last_compute;
    record.prior_send = program.last_send;
    record.prior_forward = program.last_forward;
    program.last_compute = last;
    program.last_send = record.send;
    program.last_forward = forward;
    // A blocking send holds the device's next step until it is done.
    program.previous = record.send >= 0 && !parallelism_.overlap_p2p ? record.send : last;
}

void GraphBuilder::link_rendezvous(TaskId send, const Step& receiver, bool receiver_forward) {
    // The receiver posts its receive once its previous step's computation is done (DeepSpeed, runtime/pipe/
    // schedule.py, TrainSchedule.steps: the exchange opens each step, and forward and backward steps alternate, an
    // idle one where a stage has nothing to run). A backward step first sends the previous step's activation, then
    // receives its gradient; a forward step first receives its activation, then sends the previous step's gradient,
    // which therefore waits for the activation. After a step of the same kind, the idle step between them sent.
    if (receiver.prior_compute >= 0) graph_.depend(receiver.prior_compute, send);
    if (receiver.prior_send < 0) return;
    if (receiver_forward && !receiver.prior_forward) {
        graph_.depend(send, receiver.prior_send);
    } else {
        graph_.depend(receiver.prior_send, send);
    }
}

bool GraphBuilder::scatters_pipeline_sends() const {
    return parallelism_.pp_scatter_gather && parallelism_.tp > 1 && !parallelism_.sequence_parallel;
}

std::int32_t GraphBuilder::device_of(std::int64_t npu, int stage) const {
    if (options_.all_devices) return static_cast<std::int32_t>(npu);
    return stage;
}

void GraphBuilder::link_pipeline() {
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
                    const Step& receiver = forward_steps_[static_cast<std::size_t>(next)][step_index(model_chunk + 1, mb)];
                    if (send >= 0 && receiver.first >= 0) graph_.depend(send, receiver.first);
                    if (send >= 0 && parallelism_.p2p_rendezvous) link_rendezvous(send, receiver, true);
                }
                if (model_chunk > 0) {
                    const int previous_stage = (device.stage + pp - 1) % pp;
                    const std::int32_t previous =
                        device_of(device.npu + (previous_stage - device.stage) * stride, previous_stage);
                    const TaskId send = backward_steps_[d][index].send;
                    const Step& receiver =
                        backward_steps_[static_cast<std::size_t>(previous)][step_index(model_chunk - 1, mb)];
                    if (send >= 0 && receiver.first >= 0) graph_.depend(send, receiver.first);
                    if (send >= 0 && parallelism_.p2p_rendezvous) link_rendezvous(send, receiver, false);
                }
            }
        }
    }
}

}  // namespace parasight
