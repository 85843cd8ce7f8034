#include "scenario/training_stack.h"

#include "common/enum_names.h"

namespace parasight {

const std::array<EnumName<TrainingStack>, 6> training_stack_names{{
    {TrainingStack::none, "none"},
    {TrainingStack::megatron_lm_2021, "megatron-lm-2021"},
    {TrainingStack::megatron_core, "megatron-core"},
    {TrainingStack::nemo, "nemo"},
    {TrainingStack::deepspeed, "deepspeed"},
    {TrainingStack::fsdp, "fsdp"},
}};

const std::array<std::string_view, 9> stack_behaviour_paths{
    "training.attention",         "parallelism.tp_overlap",   "parallelism.overlap_grad_reduce",
    "parallelism.overlap_p2p",    "parallelism.zero3_gather", "training.fp32_gradients",
    "parallelism.p2p_rendezvous", "training.eager_kernels",   "parallelism.zero1_all_reduce"};

std::string_view to_string(TrainingStack stack) noexcept { return name_of(stack, training_stack_names); }

StackBehaviours stack_behaviours(TrainingStack stack, int zero, Dtype dtype) noexcept {
    StackBehaviours behaviours;  // ParaSight's defaults
    switch (stack) {
    case TrainingStack::none: break;
    case TrainingStack::megatron_lm_2021:
        // Narayanan et al. 2021 and Korthikanti et al. 2022 ran before FlashAttention; tensor-parallel collectives
        // blocked; the DDP of 2021-2022 reduced gradients after backward; pipeline sends blocked.
        behaviours.attention = Attention::unfused;
        behaviours.tp_overlap = TpOverlap::none;
        behaviours.overlap_grad_reduce = false;
        behaviours.overlap_p2p = false;
        // "bfloat16 requires gradient accumulation and all-reduce to be done in fp32" (Megatron-LM,
        // megatron/training/arguments.py: accumulate_allreduce_grads_in_fp32 is forced with --bf16, which fp8 runs
        // use too: their parameters are bf16).
        behaviours.fp32_gradients = dtype == Dtype::bf16 || dtype == Dtype::fp8;
        break;
    case TrainingStack::megatron_core:
    case TrainingStack::nemo:
        // Transformer Engine's fused attention; --overlap-grad-reduce, --overlap-p2p-communication and the backward
        // overlap of the tensor-parallel collectives. NeMo trains through Megatron-Core.
        behaviours.tp_overlap = TpOverlap::backward;
        behaviours.fp32_gradients = dtype == Dtype::bf16 || dtype == Dtype::fp8;  // as Megatron-LM: fp32 main_grad
        break;
    case TrainingStack::deepspeed:
        // overlap_comm defaults to true only under ZeRO-3 (DeepSpeed, deepspeed/runtime/zero/config.py,
        // overlap_comm_valid); the pipeline engine's sends block and pair with their receives at each step's start
        // (deepspeed/runtime/pipe/engine.py and schedule.py, TrainSchedule); ZeRO-3 fetches each submodule's
        // parameters (its partitioned-parameter coordinator).
        behaviours.overlap_grad_reduce = zero == 3;
        behaviours.overlap_p2p = false;
        behaviours.p2p_rendezvous = true;
        behaviours.zero3_gather = Zero3Gather::module;
        // bf16 at ZeRO stage 1 runs the BF16 optimizer (deepspeed/runtime/engine.py, _do_optimizer_sanity_check, with
        // data_types.grad_accum_dtype fp32), which all-reduces its fp32 gradients in full — the pipeline engine's
        // _exec_reduce_grads calls _bf16_reduce_grads, buffered_allreduce_fallback over the optimizer's fp32
        // gradients — and all-gathers the updated 16-bit weights after each rank steps its shard
        // (bf16_optimizer.py, update_lp_params).
        behaviours.zero1_all_reduce = zero == 1 && dtype == Dtype::bf16;
        break;
    case TrainingStack::fsdp:
        // PyTorch FSDP: scaled_dot_product_attention, gradients reduce-scattered from backward hooks as each wrapped
        // unit finishes, one unit (a layer) gathered at a time (Zhao et al. 2023, "PyTorch FSDP", §3). Its models run
        // eagerly: torchtitan's train configs set compile = false and norm_type = "rmsnorm", its RMSNorm written out
        // in fp32 (torchtitan/models/norms.py); llm-foundry's MPT a torch LayerNorm and the loss over fp32 logits.
        behaviours.eager_kernels = true;
        break;
    }
    return behaviours;
}

StackBehaviours scenario_behaviours(const Scenario& scenario) noexcept {
    StackBehaviours behaviours;
    behaviours.attention = scenario.training.attention;
    behaviours.tp_overlap = scenario.parallelism.tp_overlap;
    behaviours.overlap_grad_reduce = scenario.parallelism.overlap_grad_reduce;
    behaviours.overlap_p2p = scenario.parallelism.overlap_p2p;
    behaviours.fp32_gradients = scenario.training.fp32_gradients;
    behaviours.p2p_rendezvous = scenario.parallelism.p2p_rendezvous;
    behaviours.eager_kernels = scenario.training.eager_kernels;
    const StackBehaviours stack =
        stack_behaviours(scenario.training.stack, scenario.parallelism.zero, scenario.training.dtype);
    behaviours.zero3_gather = scenario.parallelism.zero3_gather.value_or(stack.zero3_gather);
    behaviours.zero1_all_reduce = scenario.parallelism.zero1_all_reduce.value_or(stack.zero1_all_reduce);
    return behaviours;
}

namespace {

// Whether two sets of behaviours differ in the one at `path`.
bool differs(const StackBehaviours& a, const StackBehaviours& b, std::string_view path) noexcept {
    if (path == stack_behaviour_paths[0]) return a.attention != b.attention;
    if (path == stack_behaviour_paths[1]) return a.tp_overlap != b.tp_overlap;
    if (path == stack_behaviour_paths[2]) return a.overlap_grad_reduce != b.overlap_grad_reduce;
    if (path == stack_behaviour_paths[3]) return a.overlap_p2p != b.overlap_p2p;
    if (path == stack_behaviour_paths[5]) return a.fp32_gradients != b.fp32_gradients;
    if (path == stack_behaviour_paths[6]) return a.p2p_rendezvous != b.p2p_rendezvous;
    if (path == stack_behaviour_paths[7]) return a.eager_kernels != b.eager_kernels;
    if (path == stack_behaviour_paths[8]) return a.zero1_all_reduce != b.zero1_all_reduce;
    return a.zero3_gather != b.zero3_gather;
}

// Copies the behaviours `take(path)` selects from `from` into the scenario. zero3_gather and zero1_all_reduce stay
// unset: ZeRO-3 and ZeRO-1 read the stack's through scenario_behaviours, and an explicit one is only valid with its
// stage.
void set_behaviours(Scenario& scenario, const StackBehaviours& from, const std::function<bool(std::string_view)>& take) {
    if (take(stack_behaviour_paths[0])) scenario.training.attention = from.attention;
    if (take(stack_behaviour_paths[1])) scenario.parallelism.tp_overlap = from.tp_overlap;
    if (take(stack_behaviour_paths[2])) scenario.parallelism.overlap_grad_reduce = from.overlap_grad_reduce;
    if (take(stack_behaviour_paths[3])) scenario.parallelism.overlap_p2p = from.overlap_p2p;
    if (take(stack_behaviour_paths[5])) scenario.training.fp32_gradients = from.fp32_gradients;
    if (take(stack_behaviour_paths[6])) scenario.parallelism.p2p_rendezvous = from.p2p_rendezvous;
    if (take(stack_behaviour_paths[7])) scenario.training.eager_kernels = from.eager_kernels;
}

}  // namespace

void apply_stack(Scenario& scenario, const std::function<bool(std::string_view path)>& written) {
    set_behaviours(scenario,
                   stack_behaviours(scenario.training.stack, scenario.parallelism.zero, scenario.training.dtype),
                   [&](std::string_view path) { return !written(path); });
}

void change_stack(Scenario& scenario, TrainingStack stack) {
    const int zero = scenario.parallelism.zero;
    const Dtype dtype = scenario.training.dtype;
    const StackBehaviours before = stack_behaviours(scenario.training.stack, zero, dtype);
    const StackBehaviours now = scenario_behaviours(scenario);
    scenario.training.stack = stack;
    set_behaviours(scenario, stack_behaviours(stack, zero, dtype), [&](std::string_view path) {
        return !differs(before, now, path);
    });
}

bool differs_from_stack(const Scenario& scenario, std::string_view path) noexcept {
    // Without a stack, the behaviours older than stacks are always written (files read and write as before them);
    // fp32_gradients, p2p_rendezvous and eager_kernels, newer, only when set (scenario_writer.h,
    // paths_written_only_when_set).
    if (scenario.training.stack == TrainingStack::none && path != stack_behaviour_paths[5] &&
        path != stack_behaviour_paths[6] && path != stack_behaviour_paths[7]) {
        return true;
    }
    return differs(stack_behaviours(scenario.training.stack, scenario.parallelism.zero, scenario.training.dtype),
                   scenario_behaviours(scenario), path);
}

std::string behaviour_text(const StackBehaviours& behaviours, std::string_view path) {
    if (path == stack_behaviour_paths[0]) return std::string(name_of(behaviours.attention, attention_names));
    if (path == stack_behaviour_paths[1]) return std::string(name_of(behaviours.tp_overlap, tp_overlap_names));
    if (path == stack_behaviour_paths[2]) return behaviours.overlap_grad_reduce ? "true" : "false";
    if (path == stack_behaviour_paths[3]) return behaviours.overlap_p2p ? "true" : "false";
    if (path == stack_behaviour_paths[5]) return behaviours.fp32_gradients ? "true" : "false";
    if (path == stack_behaviour_paths[6]) return behaviours.p2p_rendezvous ? "true" : "false";
    if (path == stack_behaviour_paths[7]) return behaviours.eager_kernels ? "true" : "false";
    if (path == stack_behaviour_paths[8]) return behaviours.zero1_all_reduce ? "true" : "false";
    return std::string(name_of(behaviours.zero3_gather, zero3_gather_names));
}

}  // namespace parasight
