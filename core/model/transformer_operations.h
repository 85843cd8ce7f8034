#pragma once
// The operations of a transformer layer by name, in the order they run — the attention block, then the MLP block —
// and which of them recomputation redoes. The strategy tree names them (layer[j].attention.qkv), the compiler times
// them (model/layer_operations.h), and the activation model knows what each keeps for backward
// (model/transformer_costs.h).

#include "scenario/scenario.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace parasight {

enum class LayerBlock { attention, mlp };

// Megatron-LM's layer: LayerNorm, QKV, attention scores, softmax + dropout, ·V, output projection, dropout +
// residual; LayerNorm, MLP up (with SwiGLU's gate), activation, MLP down, dropout + residual.
inline constexpr std::array<std::string_view, 7> attention_operation_names{
    "layernorm", "qkv", "attention_scores", "softmax_dropout", "attention_values", "attention_out", "dropout_residual"};
inline constexpr std::array<std::string_view, 5> mlp_operation_names{"layernorm", "mlp_up", "activation", "mlp_down",
                                                                     "dropout_residual"};

[[nodiscard]] std::span<const std::string_view> operation_names(LayerBlock block) noexcept;
[[nodiscard]] std::optional<int> operation_index(LayerBlock block, std::string_view name) noexcept;
[[nodiscard]] std::string_view block_name(LayerBlock block) noexcept;

// Whether an operation is a linear with weights to train: qkv and attention_out, mlp_up and mlp_down (the norms'
// few weights aside).
[[nodiscard]] bool has_weights(LayerBlock block, int operation) noexcept;

// Whether an operation whose recompute setting is `setting` runs again before its backward: full — yes; selective —
// when it belongs to the attention core (scores, softmax + dropout, ·V: Korthikanti 2022 §5); selective_op — the norms,
// the activation, the dropout + residuals and the attention output projection (the share of the other matmuls it
// redoes: recomputed_share); none — no.
[[nodiscard]] bool is_recomputed(Recompute setting, LayerBlock block, int operation) noexcept;

struct OperationRef {
    LayerBlock block = LayerBlock::attention;
    int operation = 0;
    friend bool operator==(const OperationRef&, const OperationRef&) = default;
    friend auto operator<=>(const OperationRef&, const OperationRef&) = default;
};

// "attention.qkv"
[[nodiscard]] std::string operation_path(OperationRef operation);

// Which operations of one layer are recomputed: bit i of a block's mask stands for its operation i.
class RecomputedOperations {
public:
    // Every operation of each block as its block's setting says.
    [[nodiscard]] static RecomputedOperations from_blocks(Recompute attention, Recompute mlp) noexcept;

    void add(LayerBlock block, int operation) noexcept;
    // The block keeps only its matmuls' and its fused attention kernel's outputs, as selective_op does
    // (layer_activation_bytes counts what that keeps).
    void save_matmul_outputs(LayerBlock block) noexcept;
    [[nodiscard]] bool saves_matmul_outputs(LayerBlock block) const noexcept;
    [[nodiscard]] RecomputedOperations without(LayerBlock block, int operation) const noexcept;
    [[nodiscard]] bool contains(LayerBlock block, int operation) const noexcept;
    [[nodiscard]] bool any(LayerBlock block) const noexcept { return mask(block) != 0; }
    // Every operation of the block: the block's forward is re-run whole, with its collectives.
    [[nodiscard]] bool whole(LayerBlock block) const noexcept;
    [[nodiscard]] std::uint32_t mask(LayerBlock block) const noexcept {
        return block == LayerBlock::attention ? attention_ : mlp_;
    }

    friend bool operator==(const RecomputedOperations&, const RecomputedOperations&) = default;
    friend auto operator<=>(const RecomputedOperations&, const RecomputedOperations&) = default;

private:
    std::uint32_t attention_ = 0;
    std::uint32_t mlp_ = 0;
    std::uint32_t saved_matmul_outputs_ = 0;  // bit 0 the attention block, bit 1 the MLP
};

}  // namespace parasight
