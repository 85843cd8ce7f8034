#pragma once
// The graph builder behind compile_scenario(): per simulated device, the tasks of one iteration in pipeline-schedule
// order. Internal to core/compile; its work is split by concern:
//   graph_builder.cpp         devices and symmetry classes, task and collective emission, pipeline schedule and links
//   transfer_costs.cpp        what each collective and point-to-point transfer costs, and its traffic per dimension
//   task_emitter.cpp          tasks into the graph: labels, what-if slowdowns and delays, collective instances
//   emit_transformer.cpp      a transformer layer's forward, backward and recomputation, TP/CP/EP collectives, ZeRO-3
//   emit_cnn.cpp              a CNN stage's layers
//   emit_model_states.cpp     gradient buckets, tied embeddings, the optimizer step, weights/gradients/optimizer memory

#include "compile/compiler.h"
#include "compile/layer_costs.h"
#include "compile/pipeline_schedule.h"
#include "compile/task_emitter.h"
#include "compile/transfer_costs.h"
#include "compile/what_if_plan.h"
#include "device/compute_model.h"
#include "memory_system/tier_transfer.h"
#include "model/cnn_layers.h"
#include "strategy/strategy_tree.h"

#include <algorithm>
#include <array>
#include <deque>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace parasight {

struct Step {
    TaskId first = -1;  // the first task of a forward or backward step on a device
    TaskId send = -1;   // the pipeline send that ends it (-1 at the ends of the model)
    // The device's step before this one: its last computation and its pipeline send (-1: none). A receive posted in
    // order (parallelism.p2p_rendezvous) waits for them as DeepSpeed's pipeline engine does.
    TaskId prior_compute = -1;
    TaskId prior_send = -1;
    bool prior_forward = false;
};

class GraphBuilder {
public:
    GraphBuilder(const ValidatedScenario& scenario, const CompileOptions& options);

    // Why build() stopped early, if it did.
    enum class Stop : std::uint8_t { none, too_large, cancelled };

    // The graph, or nothing when the builder stopped: the graph passed CompileOptions::max_tasks, or the progress
    // sink asked to stop (polled once per pipeline step).
    std::optional<ExecutionGraph> build();
    [[nodiscard]] Stop stop() const noexcept { return stop_; }
    // The tasks made so far, or those the builder would have made when it stopped at the offloaded optimizer states.
    [[nodiscard]] std::size_t task_count() const noexcept { return std::max(graph_.tasks.size(), refused_task_count_); }

private:
    // --- devices and symmetry ------------------------------------------------------------------------------------
    void place_devices();

    // A device's steps: the micro-batches of each of its chunks (model chunk k lives on stage k mod pp).
    [[nodiscard]] std::size_t step_index(int model_chunk, int micro_batch) const;

    // A 1F1B stage cannot keep more micro-batches in flight than the stage feeding it: its warm-up forwards need
    // that stage's forwards, which come before that stage's first backward. A cap on one stage so applies to the
    // stages after it, and the report says so.
    void plan_in_flight_caps();

    // --- costs ---------------------------------------------------------------------------------------------------
    const LayerCosts& layer_costs(const RecomputedOperations& recomputed);
    // Without recomputation: what a layer's tensor-parallel collectives carry, asked for each of them.
    const LayerCosts& plain_layer_costs() {
        if (plain_layer_costs_ == nullptr) plain_layer_costs_ = &layer_costs(RecomputedOperations{});
        return *plain_layer_costs_;
    }

    // --- emitting tasks ---------------------------------------------------------------------------------------------
    TaskId tensor_parallel(std::int32_t device, bool before_block, int layer, int mb, TaskId after, bool backward);

    // The attention block forward: [cp all-gather of K, V] [TP gather or nothing] attention [TP reduce].
    TaskId attention_forward(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after,
                             TaskKind kind, double allocate_bytes);

    // The MLP block forward: [TP gather] [expert dispatch] MLP [expert combine] [TP reduce].
    TaskId mlp_forward(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after, TaskKind kind);

    // What a layer's ZeRO-3 gathers let run (zero3_gather, below): the task each block waits for; -1 without ZeRO-3.
    struct Zero3Gathers {
        TaskId attention = -1;  // the attention block's parameters are in (its modules' last gather)
        TaskId mlp = -1;        // the MLP block's
        TaskId last = -1;       // every one of the layer's
    };

    // The layer forward; with ZeRO-3 each block waits for its gathered parameters, which the layer drops at its end.
    TaskId layer_forward(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after,
                         const Zero3Gathers& gathers);

    // Backward of one block as Megatron-LM runs it under tensor parallelism: the block's backward, then the TP
    // collective of its input gradient (all-reduce, or reduce-scatter with SP). With SP the column-parallel linear's
    // input (QKV's or the MLP up projection's), kept as a sequence shard, is all-gathered again for its weight
    // gradient (Korthikanti 2022 §4.2.2). tp_overlap none: each waits for the one before, and the block's backward is
    // one task. tp_overlap backward (Megatron-LM's LinearWithGradAccumulationAndAsyncCommunication): the backward is
    // cut before that linear's weight gradient; the gather runs beside the part before, the input gradient's
    // collective beside the weight gradient, which waits for the gather. Context parallelism's key/value gradient
    // reduce-scatter and expert parallelism's dispatch all-to-all come before the TP collective. `input_gradient_only`
    // (a schedule that splits backward, ZB-H1): the block's input gradient alone, then its collectives; its weight
    // gradients run later (block_weight_gradients).
    struct BlockBackward {
        TaskId last_compute = -1;  // the block's last computation
        TaskId done = -1;          // what the next block waits for
    };
    BlockBackward block_backward(std::int32_t device, LayerBlock block, int layer, int mb, const LayerCosts& costs,
                                 TaskId after, bool input_gradient_only);
    // With SP, the column-parallel linear's input all-gathered again for its weight gradient.
    TaskId gather_block_input_again(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after);

    // Backward of one layer, MLP block first. A block recomputed whole re-runs its forward (with its collectives)
    // just before its backward; when both are, the whole layer's forward is re-run first, since the MLP's input is
    // then gone too. A block with only some operations recomputed (selective recompute: the attention core) re-runs
    // those as one compute task before its backward.
    // `input_gradient_only`: the layer's input gradients only (ZB-H1's B); the activations stay for its weight
    // gradients.
    TaskId layer_backward(std::int32_t device, int layer, int mb, const RecomputedOperations& recomputed,
                          const LayerCosts& costs, TaskId after, bool input_gradient_only);
    // ZB-H1's W for one layer: the MLP's then the attention block's weight gradients (with SP each first gathers its
    // column-parallel linear's input again); then the layer's activations, read last by them, are freed.
    TaskId layer_weight_gradients(std::int32_t device, int layer, int mb, const LayerCosts& costs, TaskId after);

    // --- one device ----------------------------------------------------------------------------------------------
    // What every device of one pipeline stage shares.
    struct StageContext {
        int stage = 0;
        std::vector<PipelineStep> steps;
        LayerOperation logits;
        LayerOperation embedding;
        double boundary_bytes = 0.0;       // the activation between stages, as a TP rank holds it
        double boundary_send_bytes = 0.0;  // what one rank sends of it: 1/t when scattered (pp_scatter_gather)
        double logits_bytes = 0.0;
        double layer_gradient_bytes = 0.0;         // one layer's dense gradients
        double layer_expert_gradient_bytes = 0.0;  // one layer's expert gradients, when ep > 1
    };

    // A forward or backward step as first emitted on a device, for the same step of later micro-batches: their tasks
    // are its tasks with their micro-batch changed, and their dependencies its dependencies, by position in the step
    // (-1: the device's previous task, the one dependency a step has from outside) (emit_repeated_step.cpp).
    struct StepTemplate {
        enum class State : std::uint8_t { unseen, recorded, unusable };
        State state = State::unseen;
        std::vector<Task> tasks;
        std::vector<std::pair<TaskId, TaskId>> dependencies;
        TaskId last = -1;  // what the device's next step waits for: a task's position, or -1 for the previous task
        TaskId send = -1;  // the send's position, or -1
    };

    // One device's progress through its steps, and its gradient bucket.
    struct DeviceProgram {
        std::int32_t device = 0;
        TaskId previous = -1;
        double bucket_bytes = 0.0;         // dense gradients waiting to be reduced
        TaskId bucket_ready = -1;
        double expert_bucket_bytes = 0.0;  // expert gradients (with ep > 1 they are reduced over dp only)
        TaskId expert_bucket_ready = -1;
        std::vector<TaskId> reductions;
        TaskId last_compute = -1;  // the last step's last computation and its send (Step::prior_compute, prior_send)
        TaskId last_send = -1;
        bool last_forward = false;
        // By forward or backward, model chunk and whether a step came before (repeatable_step()).
        std::vector<StepTemplate> templates;
    };

    StageContext stage_context(int stage);

    // The recomputed operations of one layer: each operation's own setting, or its block's, its layer's, its stage's
    // or the scenario's (the strategy tree resolves them). Selective recompute means the attention core.
    const RecomputedOperations& layer_recompute(int layer);
    // One warning per recomputed operation that frees no activation memory, with how many layers it concerns.
    void warn_of_recomputation_freeing_nothing();
    // One warning when the host's kernel launches, not the GPU, bound the layers' passes (docs/model.md §2).
    void warn_of_host_bound_layers();

    void flush_bucket(DeviceProgram& program, int micro_batch);
    // Whether the gradients gathered so far are reduced now: a full bucket, when reductions overlap backward.
    [[nodiscard]] bool bucket_full(const DeviceProgram& program) const;

    void emit_step(DeviceProgram& program, const StageContext& context, const PipelineStep& step);
    // The template that `step` (a transformer's forward or backward step) is copied from, or will be recorded as, on
    // `program`'s device; none where the step cannot be repeated from one: it adds gradients to the bucket
    // (`reduces`), every device is simulated (collectives are matched across devices one by one) or the parameters
    // are loaded from an offload tier.
    StepTemplate* repeatable_step(DeviceProgram& program, const PipelineStep& step, bool reduces);
    // Keeps what the step just emitted as `repeatable`, or marks it unusable where the step depended on more than
    // the device's previous task or emitted tasks of another micro-batch.
    void record_step(StepTemplate& repeatable, TaskId first, std::size_t first_dependency, TaskId previous, TaskId last,
                     TaskId send, int micro_batch) const;
    // Emits the step of `micro_batch` from its template: the same tasks and dependencies the step would emit.
    void repeat_step(DeviceProgram& program, Step& record, const StepTemplate& repeatable, bool forward, int micro_batch);
    // Ends a forward or backward step whose computation ended with `last` and whose send (if any) is record.send:
    // notes what came before it (Step::prior_compute, prior_send) and what the device's next step waits for.
    void finish_step(DeviceProgram& program, Step& record, bool forward, TaskId last);
    // DeepSpeed's exchange order (parallelism.p2p_rendezvous): the send into `receiver` waits for the receive to be
    // posted, after the receiver's previous step's send — except that a forward step after a backward step receives
    // its activation before it sends that backward's gradient.
    void link_rendezvous(TaskId send, const Step& receiver, bool receiver_forward);
    // A weight-gradient step of a schedule that splits backward: every layer's weight gradients, which fill the
    // data-parallel buckets as the backward of other schedules does.
    void emit_weight_gradient_step(DeviceProgram& program, const StageContext& context, const PipelineStep& step);
    // One layer's gradients join the bucket once `ready` ends; a full bucket is reduced.
    void add_layer_gradients(DeviceProgram& program, const StageContext& context, int mb, TaskId ready);
    void add_output_layer_gradients(DeviceProgram& program, int stage, TaskId ready);
    void add_embedding_gradients(DeviceProgram& program, TaskId ready);

    // A CNN stage runs its layers one after another (ParaDL's layer parallelism): each a single operation forward
    // and backward, keeping its input for backward; gradients join the data-parallel bucket as backward produces them.
    void emit_cnn_step(DeviceProgram& program, const StageContext& context, const PipelineStep& step);

    static const char* cnn_label(CnnLayerType type, bool backward);

    // Emits every device of one stage, step by step across the devices: the k-th step of each device sits next to
    // the others' in memory, where the engine will touch them at about the same moment. Sets stop_ and returns early
    // when the graph grows past the limit or the run is cancelled.
    void emit_stage(int stage, const std::vector<std::int32_t>& stage_devices);

    // ZeRO-3: a layer's parameters are gathered from the data-parallel group before each use and dropped after
    // (Rajbhandari et al. 2020 §5.3), on the gradient stream, from `prefetch_after` on (zero3_gather_after): in one
    // all-gather (zero3_gather: layer), or one per module in the order the pass runs them (module; backward runs the
    // MLP's first).
    Zero3Gathers zero3_gather(std::int32_t device, int layer, int mb, TaskId prefetch_after, bool backward);

    // What a layer's gather waits for (zero3_prefetch_layers = k): the layer k before it in the step to be under way
    // (its first task done), so that about k gathers run ahead of the computing layer (nothing for the step's first k
    // layers: they queue behind the step before's on the gradient stream); with k = 0 the end of the layer before
    // (`last`): on demand.
    [[nodiscard]] TaskId zero3_gather_after(const std::vector<TaskId>& layer_starts, TaskId last) const;

    // The layer that starts at `layer_start` and ends with `layer_end` waits for all its gathered parameters
    // (backward, whose recomputation and blocks interleave) and drops them when it is done.
    void zero3_use(const Zero3Gathers& gathers, TaskId layer_start, TaskId layer_end);
    // The layer that ends with `layer_end` drops its gathered parameters.
    void zero3_release(TaskId layer_end);

    // Each rank keeps its own shard; the gather of `parameters` brings in the other (dp − 1)/dp.
    [[nodiscard]] double zero3_buffer_bytes(double parameters) const;

    // The last stage holds the output projection: its own copy of the table when pp > 1 (Megatron keeps one for tied
    // embeddings), the untied projection when pp = 1.
    [[nodiscard]] bool holds_output_table(int stage) const;

    TaskId pipeline_send(std::int32_t device, bool forward, int mb, double bytes, TaskId after);

    // Transformer pipeline sends are scattered across the TP ranks and gathered by the receiver: pp_scatter_gather,
    // with tp > 1 and no sequence parallelism (whose boundary activation is already a 1/t shard).
    [[nodiscard]] bool scatters_pipeline_sends() const;
    // With SP the column-parallel linears keep only a sequence shard of their input and gather it again for their
    // weight gradients.
    [[nodiscard]] bool regathers_block_inputs() const;

    // Tied embeddings with pp > 1: the first stage's input embedding and the last stage's copy of it are one
    // parameter, so Megatron all-reduces their gradients between the two stages (its "embedding group") before the
    // optimizer step. Two members: each sends the whole table gradient once. Returns the task, or -1.
    TaskId tied_embedding_reduction(std::int32_t device, int stage, TaskId after);

    void emit_optimizer(std::int32_t device, int stage, const std::vector<TaskId>& reductions, TaskId after);
    // parallelism.optimizer_step_on: host — `groups` sub-groups of `group_parameters` stepped by the host's CPUs.
    void emit_host_optimizer(std::int32_t device, int stage, double group_parameters, int groups,
                             const std::vector<TaskId>& reductions, TaskId after);
    // ZeRO-1/2: the updated shards all-gathered into every replica's copy once `step` is done.
    void gather_updated_parameters(std::int32_t device, int stage, TaskId step);
    // Offloaded model states (emit_offloaded_states.cpp). How much of each tier they take: per node for host memory
    // and NVMe (the node that needs the most), the whole pool's groups for the pool; nothing without offloading.
    [[nodiscard]] std::vector<OffloadUse> offload_uses() const;
    // One move of offloaded states between the device and their tier, on the memory stream.
    struct StateTransfer {
        TaskKind kind = TaskKind::memory_load;  // or memory_store
        const char* label = "";  // a string literal (TaskEmitter::label)
        OffloadTarget target = OffloadTarget::host;
        double bytes = 0.0;  // each device's, every device moving as much at once
        PoolGathering gathering = PoolGathering::own_bytes;
        double device_bytes = 0.0;  // what a load allocates on the device, or a store releases (0: nothing)
        MemoryCategory category = MemoryCategory::buffers;
        int layer = -1;
        int micro_batch = -1;
        TaskId after = -1;  // what it waits for besides the memory stream's order
    };
    TaskId emit_state_transfer(std::int32_t device, const StateTransfer& transfer);
    // The layer's ZeRO-3 shard (or, where the pool's switches gather it, the whole layer) loaded from
    // parallelism.offload_parameters' tier, held until the layer is done.
    TaskId emit_parameter_load(std::int32_t device, int layer, int mb, double layer_bytes, TaskId after);
    // Whether the pool's in-switch collectives gather the loaded parameter shards (the load is the layer's
    // all-gather) and reduce-scatter the stored gradients (the store is the reduction).
    [[nodiscard]] bool switches_gather_parameters() const;
    [[nodiscard]] bool switches_reduce_gradients() const;

    double stage_parameters(int stage) const;

    // The weights, gradients and optimizer state of the stage's parameters (model/model_states.h), held for the
    // whole iteration.
    void set_static_memory(std::int32_t device, int stage);

    // --- pipeline dependencies -------------------------------------------------------------------------------------
    std::int32_t device_of(std::int64_t npu, int stage) const;

    void link_pipeline();

    const Scenario& scenario_;
    const ModelSpec& model_;
    const ParallelismSpec& parallelism_;
    ParallelLayout layout_;
    const Topology& topology_;
    CompileOptions options_;
    PhaseProgress progress_;
    Stop stop_ = Stop::none;
    std::size_t refused_task_count_ = 0;  // set when the offloaded states' sub-groups would pass the cap
    ComputeModel compute_;
    // A transformer's activations, moved and kept, at the training dtype's width but at least 16-bit: an fp8 recipe
    // keeps them in bf16 between the GEMMs it casts (storage_element_bytes).
    double element_bytes_;
    double gradient_bytes_;  // a gradient element's width, reduced and kept (gradient_element_bytes)
    int micro_batches_;
    int chunks_;
    StrategyTree tree_;
    std::vector<int> in_flight_caps_;  // per stage, for 1F1B
    std::vector<RecomputedOperations> layer_recompute_;  // per layer, resolved from the strategy tree on first use
    std::vector<CnnLayerWork> cnn_layers_;  // a CNN model's layers, in order
    // The collective ids of the tied embedding's delay and reduction, by the first stage's NPU.
    std::unordered_map<std::int64_t, std::pair<std::int32_t, std::int32_t>> tied_embedding_instances_;
    ExecutionGraph graph_;
    // A layer's costs for each recomputation it is asked with: a few (no recompute, each layer's setting), searched in
    // order, in a deque so that the references layer_costs() returns stay valid as more are added.
    std::deque<std::pair<RecomputedOperations, LayerCosts>> layer_costs_;
    const LayerCosts* plain_layer_costs_ = nullptr;  // in layer_costs_
    WhatIfPlan what_if_;
    TransferCosts transfers_;  // after graph_ and what_if_, which it refers to
    TaskEmitter tasks_;        // after transfers_
    std::vector<std::vector<Step>> forward_steps_;
    std::vector<std::vector<Step>> backward_steps_;
};

}  // namespace parasight
