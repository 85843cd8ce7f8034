#include "model/transformer_operations.h"

#include <algorithm>

namespace parasight {

std::span<const std::string_view> operation_names(LayerBlock block) noexcept {
    if (block == LayerBlock::attention) return attention_operation_names;
    return mlp_operation_names;
}

std::optional<int> operation_index(LayerBlock block, std::string_view name) noexcept {
    const auto names = operation_names(block);
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) return std::nullopt;
    return static_cast<int>(found - names.begin());
}

std::string_view block_name(LayerBlock block) noexcept { return block == LayerBlock::attention ? "attention" : "mlp"; }

bool has_weights(LayerBlock block, int operation) noexcept {
    return block == LayerBlock::attention ? operation == 1 || operation == 5 : operation == 1 || operation == 3;
}

bool is_recomputed(Recompute setting, LayerBlock block, int operation) noexcept {
    switch (setting) {
    case Recompute::none: return false;
    case Recompute::full: return true;
    case Recompute::selective:
        // attention_scores, softmax_dropout and attention_values.
        return block == LayerBlock::attention && operation >= 2 && operation <= 4;
    case Recompute::selective_op:
        // The element-wise operations and the attention block's output projection (a matmul whose output is not
        // saved); the other matmuls' shares: recomputed_share (model/transformer_costs.h).
        if (block == LayerBlock::attention) return operation == 0 || operation == 5 || operation == 6;
        return operation == 0 || operation == 2 || operation == 4;
    }
    return false;
}

RecomputedOperations RecomputedOperations::from_blocks(Recompute attention, Recompute mlp) noexcept {
    RecomputedOperations result;
    for (const auto& [block, setting] : {std::pair{LayerBlock::attention, attention}, std::pair{LayerBlock::mlp, mlp}}) {
        const auto count = static_cast<int>(operation_names(block).size());
        for (int op = 0; op < count; ++op) {
            if (is_recomputed(setting, block, op)) result.add(block, op);
        }
        if (setting == Recompute::selective_op) result.save_matmul_outputs(block);
    }
    return result;
}

void RecomputedOperations::save_matmul_outputs(LayerBlock block) noexcept {
    saved_matmul_outputs_ |= block == LayerBlock::attention ? 1U : 2U;
}

bool RecomputedOperations::saves_matmul_outputs(LayerBlock block) const noexcept {
    return (saved_matmul_outputs_ & (block == LayerBlock::attention ? 1U : 2U)) != 0;
}

void RecomputedOperations::add(LayerBlock block, int operation) noexcept {
    (block == LayerBlock::attention ? attention_ : mlp_) |= std::uint32_t{1} << operation;
}

RecomputedOperations RecomputedOperations::without(LayerBlock block, int operation) const noexcept {
    RecomputedOperations result = *this;
    (block == LayerBlock::attention ? result.attention_ : result.mlp_) &= ~(std::uint32_t{1} << operation);
    return result;
}

std::string operation_path(OperationRef operation) {
    return std::string(block_name(operation.block)) + "." +
           std::string(operation_names(operation.block)[static_cast<std::size_t>(operation.operation)]);
}

bool RecomputedOperations::contains(LayerBlock block, int operation) const noexcept {
    return (mask(block) >> operation & 1U) != 0;
}

bool RecomputedOperations::whole(LayerBlock block) const noexcept {
    const auto all = (std::uint32_t{1} << operation_names(block).size()) - 1;
    return mask(block) == all;
}

}  // namespace parasight
