#pragma once
// The operations of one transformer layer for one micro-batch on one tensor-parallel rank, as a GPU runs them
// (Megatron-LM's layer: LayerNorm, QKV, attention, projection, dropout + residual; LayerNorm, MLP, dropout +
// residual), each with its FLOPs and memory traffic, so that a roofline can time it. Also the bytes each
// tensor-parallel collective moves.

#include "device/compute_model.h"
#include "model/transformer_costs.h"
#include "model/transformer_operations.h"

#include <string_view>
#include <vector>

namespace parasight {

struct LayerOperation {
    std::string_view name;
    OperationWork forward;
    OperationWork backward;  // matmuls: 2× the forward FLOPs (input and weight gradients); elementwise: 2× the bytes
};

// Operation i of a block is the one model/transformer_operations.h names i.
struct TransformerLayerWork {
    std::vector<LayerOperation> attention;  // ends where the attention block's TP collective runs
    std::vector<LayerOperation> mlp;        // ends where the MLP block's TP collective runs
    [[nodiscard]] const std::vector<LayerOperation>& block(LayerBlock which) const noexcept {
        return which == LayerBlock::attention ? attention : mlp;
    }
    // Bytes of the activation each TP collective works on: micro_batch · seq_len/cp · hidden elements.
    double tp_collective_bytes = 0.0;
    // Context parallelism: the keys and values each rank gathers from the others (all-gather forward,
    // reduce-scatter of their gradients backward).
    double cp_collective_bytes = 0.0;
    // Mixture of experts: tokens dispatched to and combined from their experts (two all-to-alls each way).
    double ep_collective_bytes = 0.0;
};

[[nodiscard]] TransformerLayerWork transformer_layer_work(const ModelSpec& model, double micro_batch,
                                                          const LayerSplit& split, double element_bytes);

// The logits projection and cross-entropy of the last stage, and the embedding lookup of the first, per rank.
[[nodiscard]] LayerOperation logits_operation(const ModelSpec& model, double micro_batch, int tp, double element_bytes,
                                              bool eager_kernels);
[[nodiscard]] LayerOperation embedding_operation(const ModelSpec& model, double micro_batch, int tp,
                                                 double element_bytes);

// The keys a fused attention kernel computes per query: every key without a mask; with the causal mask those on and
// below the diagonal, in whole tiles of 128: keys/2 + 64 (at most keys).
[[nodiscard]] double fused_attention_keys_per_query(double keys, bool causal) noexcept;

[[nodiscard]] double dtype_bytes(Dtype dtype) noexcept;
// The width of what training keeps in memory (weights, gradients, activations): the dtype's, but at least 16 bits,
// since fp8 recipes keep bf16 copies.
[[nodiscard]] double storage_element_bytes(Dtype dtype) noexcept;

}  // namespace parasight
