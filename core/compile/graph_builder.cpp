// Devices and symmetry classes, task and collective emission, the pipeline schedule and the links between stages.
#include "compile/graph_builder.h"
#include "compile/stage_parameters.h"

#include "collective/group_collective.h"
#include "collective/point_to_point.h"
#include "model/layer_operations.h"
#include "model/model_structure.h"

#include <algorithm>

namespace parasight {

// Task::peers names a collective's rank group in RankGroup's order.
static_assert(static_cast<int>(Peers::data_and_expert) - static_cast<int>(Peers::tp) ==
              static_cast<int>(RankGroup::data_and_expert));

GraphBuilder::GraphBuilder(const ValidatedScenario& validated, const CompileOptions& options)
    : scenario_(validated.value()),
      model_(scenario_.model),
      parallelism_(scenario_.parallelism),
      // validate() has checked that the degrees lay out on the topology.
      layout_(*ParallelLayout::make(scenario_.topology(), parallelism_.layout_order())),
      topology_(layout_.topology()),
      options_(options),
      progress_(options.progress, SimulationPhase::compile),
      compute_(make_compute_model(scenario_.cluster.device, scenario_.training.dtype,
                                  scenario_.simulation.measured_times_s)),
      element_bytes_(storage_element_bytes(scenario_.training.dtype)),
      micro_batches_(static_cast<int>(scenario_.micro_batches())),
      chunks_(parallelism_.schedule == Schedule::interleaved ? parallelism_.virtual_stages : 1),
      tree_(validated),
      what_if_(scenario_.what_if, layout_),
      networks_{topology_} {
    if (model_.kind == ModelKind::cnn) {
        cnn_layers_ = cnn_layer_work(model_, scenario_.training.micro_batch, dtype_bytes(scenario_.training.dtype));
    }
    // Compute runs at the training dtype's peak and width; what is kept is stored at least 16-bit (element_bytes_).
    compute_element_bytes_ = dtype_bytes(scenario_.training.dtype);
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
        // Every stage emits about as many tasks as the first: reserve for all of them at once.
        if (stage == 0) {
            const std::size_t expected = graph_.tasks.size() * static_cast<std::size_t>(parallelism_.pp) * 11 / 10;
            graph_.tasks.reserve(std::min(expected, static_cast<std::size_t>(options_.max_tasks) + 1));
        }
    }
    link_pipeline();
    for (Warning& warning : what_if_.unmatched_rule_warnings()) graph_.warnings.push_back(std::move(warning));
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
    for (const SimulatedDevice& device : graph_.devices) {
        compute_time_factors_.push_back(what_if_.compute_time_factor(device.npu));
    }
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
    if (const auto it = layer_costs_.find(recomputed); it != layer_costs_.end()) return it->second;
    return layer_costs_
        .emplace(recomputed, transformer_layer_costs(model_, parallelism_, scenario_.training.attention,
                                                     scenario_.training.micro_batch, compute_,
                                                     compute_element_bytes_, element_bytes_, recomputed))
        .first->second;
}

std::span<const ParallelAxis> GraphBuilder::axes_of(RankGroup group) {
    static constexpr std::array<ParallelAxis, 6> single{ParallelAxis::tp, ParallelAxis::cp, ParallelAxis::ep,
                                                        ParallelAxis::dp, ParallelAxis::pp, ParallelAxis::dp};
    static constexpr std::array<ParallelAxis, 2> data_and_expert{ParallelAxis::dp, ParallelAxis::ep};
    if (group == RankGroup::data_and_expert) return data_and_expert;
    return {&single[static_cast<std::size_t>(group)], 1};
}

GraphBuilder::CostedTransfer GraphBuilder::collective_cost(RankGroup group, CollectiveOp op, double bytes,
                                                          std::int32_t network) {
    const auto key = std::make_tuple(static_cast<int>(group), static_cast<int>(op), bytes, network);
    if (const auto it = collective_costs_.find(key); it != collective_costs_.end()) return it->second;
    const auto spans = layout_.spans(axes_of(group));
    const CollectivePlan plan{scenario_.cluster.multi_dimension_collectives, scenario_.simulation.collective_chunks};
    const CollectiveCost cost =
        group_collective(op, bytes, networks_[static_cast<std::size_t>(network)], spans, plan);
    TransferShape shape;
    shape.bytes_by_dimension.assign(topology_.dimension_count(), 0.0);
    shape.time_by_dimension_s.assign(topology_.dimension_count(), 0.0);
    for (const DimensionCollectiveCost& dimension : cost.per_dim) {
        shape.bytes_by_dimension[dimension.dimension] += dimension.bytes_sent;
        shape.time_by_dimension_s[dimension.dimension] += dimension.time_s;
    }
    shape.op = op;
    shape.ranks = cost.ranks;
    const CostedTransfer costed{cost.time_s, add_transfer_shape(std::move(shape))};
    collective_costs_.emplace(key, costed);
    return costed;
}

GraphBuilder::PointToPointTransfer GraphBuilder::point_to_point_transfer(std::int64_t from, std::int64_t to,
                                                                         double bytes) {
    const std::int32_t id = what_if_.degrades_links() ? network(what_if_.transfer_bandwidth_factors(from, to)) : 0;
    const Topology& topology = networks_[static_cast<std::size_t>(id)];
    PointToPointTransfer transfer;
    transfer.cost = point_to_point(topology, from, to, bytes);
    for (std::size_t d = 0; d < topology.dimension_count(); ++d) {
        if (topology.coordinate(from, d) != topology.coordinate(to, d)) transfer.dimension_mask |= 1U << d;
    }
    const auto key = std::tuple(transfer.dimension_mask, bytes, id);
    if (const auto it = point_to_point_shapes_.find(key); it != point_to_point_shapes_.end()) {
        transfer.shape = it->second;
        return transfer;
    }
    // The whole message crosses every dimension on the way, at that dimension's bandwidth and latency.
    TransferShape shape;
    shape.bytes_by_dimension.assign(topology_.dimension_count(), 0.0);
    shape.time_by_dimension_s.assign(topology_.dimension_count(), 0.0);
    for (std::size_t d = 0; d < topology.dimension_count(); ++d) {
        if ((transfer.dimension_mask & (1U << d)) == 0) continue;
        const Dimension& dimension = topology.dimensions()[d];
        shape.bytes_by_dimension[d] = bytes;
        const double bandwidth_Bps = achievable_bandwidth_Bps(dimension);
        const double transfer_s = bandwidth_Bps > 0.0 ? bytes / bandwidth_Bps : 0.0;
        shape.time_by_dimension_s[d] = step_latency_s(dimension, 1) + transfer_s;
    }
    transfer.shape = add_transfer_shape(std::move(shape));
    point_to_point_shapes_.emplace(key, transfer.shape);
    return transfer;
}

std::int32_t GraphBuilder::network(const std::vector<double>& factors) {
    if (std::all_of(factors.begin(), factors.end(), [](double factor) { return factor == 1.0; })) return 0;
    if (const auto it = network_ids_.find(factors); it != network_ids_.end()) return it->second;
    std::vector<Dimension> dimensions = topology_.dimensions();
    for (std::size_t d = 0; d < dimensions.size(); ++d) dimensions[d].bandwidth_Bps *= factors[d];
    networks_.emplace_back(std::move(dimensions));
    const auto id = static_cast<std::int32_t>(networks_.size() - 1);
    network_ids_.emplace(factors, id);
    return id;
}

std::int32_t GraphBuilder::add_transfer_shape(TransferShape shape) {
    graph_.transfer_shapes.push_back(std::move(shape));
    return static_cast<std::int32_t>(graph_.transfer_shapes.size() - 1);
}

std::uint32_t GraphBuilder::axis_mask(RankGroup group) {
    auto& mask = axis_masks_[static_cast<std::size_t>(group)];
    if (!mask) {
        mask = 0U;
        for (const DimensionSpan& span : layout_.spans(axes_of(group))) *mask |= 1U << span.dimension;
    }
    return *mask;
}

std::int32_t GraphBuilder::label(const char* name) {
    for (const auto& [literal, id] : label_ids_) {
        if (literal == name) return id;
    }
    const std::int32_t id = graph_.label(name);
    label_ids_.emplace_back(name, id);
    return id;
}

TaskId GraphBuilder::emit(std::int32_t device, Task task) {
    task.device = device;
    if (task.stream == Stream::compute) task.work_s *= compute_time_factors_[static_cast<std::size_t>(device)];
    return graph_.add(task);
}

void GraphBuilder::emit_delay(std::int32_t device, const Task& communication, double delay_s,
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

std::int32_t GraphBuilder::delay_label(std::int32_t communication_label) {
    if (const auto it = delay_labels_.find(communication_label); it != delay_labels_.end()) return it->second;
    const std::int32_t id =
        graph_.label("delay before " + graph_.labels[static_cast<std::size_t>(communication_label)]);
    delay_labels_.emplace(communication_label, id);
    return id;
}

TaskId GraphBuilder::compute(std::int32_t device, TaskKind kind, const char* label, int layer, int micro_batch, double work_s,
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

TaskId GraphBuilder::collective(std::int32_t device, ParallelAxis axis, CollectiveOp op, double bytes, const char* label,
                                int layer, int micro_batch, Stream stream, TaskId after) {
    return collective(device, static_cast<RankGroup>(axis), op, bytes, label, layer, micro_batch, stream, after);
}

TaskId GraphBuilder::collective(std::int32_t device, RankGroup group, CollectiveOp op, double bytes, const char* label,
                                int layer, int micro_batch, Stream stream, TaskId after) {
    Task task;
    task.kind = group == RankGroup::tp   ? TaskKind::tp_comm
                : group == RankGroup::cp ? TaskKind::cp_comm
                : group == RankGroup::ep ? TaskKind::ep_comm
                                         : TaskKind::dp_comm;
    task.stream = stream;
    task.layer = layer;
    task.micro_batch = micro_batch;
    task.label = this->label(label);
    std::int32_t network_id = 0;
    if (what_if_.degrades_links()) {
        const std::int64_t npu = graph_.devices[static_cast<std::size_t>(device)].npu;
        network_id = network(what_if_.group_bandwidth_factors(axes_of(group), npu));
    }
    const CostedTransfer cost = collective_cost(group, op, bytes, network_id);
    task.work_s = cost.time_s;
    task.transfer_shape = cost.shape;
    task.bytes = bytes;
    task.dimension_mask = axis_mask(group);
    task.peers = static_cast<Peers>(static_cast<int>(Peers::tp) + static_cast<int>(group));  // same order
    // Gradients reduced over data and expert parallelism together count as data-parallel communication. Every
    // member finds the same delay, so all or none of them emit one.
    const double delay_s = what_if_.delay_s(axes_of(group).front(), comm_operation(op), layer);
    std::int32_t delay_collective = -1;
    if (options_.all_devices) {
        if (delay_s > 0.0) delay_collective = collective_instance(device, group);
        task.collective = collective_instance(device, group);
    }
    return emit_communication(device, task, delay_s, delay_collective, after);
}

std::int32_t GraphBuilder::collective_instance(std::int32_t device, RankGroup group) {
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

GraphBuilder::StageContext GraphBuilder::stage_context(int stage) {
    StageContext context;
    context.stage = stage;
    context.steps = pipeline_steps(parallelism_.schedule, stage, parallelism_.pp, micro_batches_, chunks_,
                                   in_flight_caps_[static_cast<std::size_t>(stage)],
                                   parallelism_.micro_batch_group.value_or(0));
    if (model_.kind == ModelKind::cnn) return context;
    const double mb_size = scenario_.training.micro_batch;
    const double tokens = mb_size * model_.seq_len / parallelism_.cp;
    context.boundary_bytes = tokens * model_.hidden * compute_element_bytes_ /
                             (parallelism_.sequence_parallel ? parallelism_.tp : 1);
    context.boundary_send_bytes = context.boundary_bytes / (scatters_pipeline_sends() ? parallelism_.tp : 1);
    context.logits = logits_operation(model_, mb_size / parallelism_.cp, parallelism_.tp, compute_element_bytes_);
    context.embedding = embedding_operation(model_, mb_size / parallelism_.cp, parallelism_.tp, compute_element_bytes_);
    context.logits_bytes = tokens * static_cast<double>(model_.vocab) / parallelism_.tp * (element_bytes_ + 4.0);
    // With experts split over ep ranks, their gradients are reduced over dp alone and the rest over dp × ep
    // (Megatron-LM's expert and data-parallel groups); otherwise every gradient goes over dp.
    const double expert = parallelism_.ep > 1 ? expert_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep) : 0.0;
    context.layer_gradient_bytes = (layer_parameters_on_rank(model_, parallelism_.tp, parallelism_.ep) - expert) * element_bytes_;
    context.layer_expert_gradient_bytes = expert * element_bytes_;
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
        set_static_memory(program.device, stage);
    }
}

TaskId GraphBuilder::pipeline_send(std::int32_t device, bool forward, int mb, double bytes, TaskId after) {
    const SimulatedDevice& from = graph_.devices[static_cast<std::size_t>(device)];
    const std::int64_t stride = layout_.id_stride(ParallelAxis::pp);
    const int pp = parallelism_.pp;
    const int next_stage = forward ? (from.stage + 1) % pp : (from.stage + pp - 1) % pp;
    const std::int64_t to = from.npu + (next_stage - from.stage) * stride;
    const PointToPointTransfer transfer = point_to_point_transfer(from.npu, to, bytes);
    Task task;
    task.kind = TaskKind::pp_comm;
    task.stream = Stream::feature_comm;
    task.peers = forward ? Peers::next_stage : Peers::previous_stage;
    task.micro_batch = mb;
    task.label = label(forward ? "pp send activations" : "pp send gradients");
    task.work_s = transfer.cost.time_s;
    task.bytes = bytes;
    task.dimension_mask = transfer.dimension_mask;
    task.transfer_shape = transfer.shape;
    const double delay_s = what_if_.delay_s(ParallelAxis::pp, CommOperation::send, task.layer);
    return emit_communication(device, task, delay_s, -1, after);
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

}  // namespace parasight
