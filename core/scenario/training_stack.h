#pragma once
// Training stacks (`training.stack`): the framework a run was made with, as a named set of behaviours ParaSight
// models, each also settable on its own. A stack sets the behaviours a scenario does not write itself; without one,
// ParaSight's defaults hold (docs/model.md "Training stacks" lists what each stack sets and why).

#include "scenario/scenario.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace parasight {

[[nodiscard]] std::string_view to_string(TrainingStack stack) noexcept;

// The behaviours a stack decides.
struct StackBehaviours {
    Attention attention = Attention::fused;
    TpOverlap tp_overlap = TpOverlap::none;
    bool overlap_grad_reduce = true;
    bool overlap_p2p = true;
    Zero3Gather zero3_gather = Zero3Gather::layer;  // what ZeRO-3 gathers when parallelism.zero3_gather is unset
    bool fp32_gradients = false;
    bool p2p_rendezvous = false;
    bool eager_kernels = false;
    bool zero1_all_reduce = false;  // what ZeRO-1 does when parallelism.zero1_all_reduce is unset

    friend bool operator==(const StackBehaviours&, const StackBehaviours&) = default;
};

// What `stack` does at ZeRO stage `zero` trained in `dtype` (DeepSpeed overlaps its gradient reduction only under
// ZeRO-3; Megatron-LM keeps fp32 gradients only with bf16); `none`: ParaSight's defaults (the Scenario's own).
[[nodiscard]] StackBehaviours stack_behaviours(TrainingStack stack, int zero, Dtype dtype) noexcept;

// The behaviours as the scenario has them now (zero3_gather and zero1_all_reduce: what ZeRO-3 and ZeRO-1 run).
[[nodiscard]] StackBehaviours scenario_behaviours(const Scenario& scenario) noexcept;

// The scenario paths of the behaviours, as a file writes them ("training.attention", "parallelism.tp_overlap", …).
extern const std::array<std::string_view, 9> stack_behaviour_paths;

// Sets each behaviour whose path `written` says the file did not write to what the scenario's training.stack sets
// (nothing with stack none). The loader calls it once every section is read.
void apply_stack(Scenario& scenario, const std::function<bool(std::string_view path)>& written);

// Sets training.stack to `stack`, and each behaviour that still has the previous stack's value to the new stack's:
// behaviours set apart from the stack stay (the form's edit of the stack).
void change_stack(Scenario& scenario, TrainingStack stack);

// Whether the writer must write the behaviour at `path` (one of stack_behaviour_paths): only where the scenario differs
// from what its stack sets — so that a file written and loaded again keeps the difference — except that with stack
// none the behaviours older than stacks are always written (files and the sweeps stored from them read as before).
[[nodiscard]] bool differs_from_stack(const Scenario& scenario, std::string_view path) noexcept;

// The behaviour at `path` as a file spells it ("unfused", "backward", "true").
[[nodiscard]] std::string behaviour_text(const StackBehaviours& behaviours, std::string_view path);

}  // namespace parasight
