#pragma once
// Closed-form costs of a transformer layer, its embedding and its logits: FLOPs, parameters and the activation bytes
// kept for backward. Formulas from Narayanan et al. 2021 (SC'21, §5.1: forward 24·b·s·h²·(1 + s/6h) per layer, logits
// 2·b·s·h·V) and Korthikanti et al. 2022 (§4: activations s·b·h·(34 + 5·a·s/h) bytes per layer, with the tensor-,
// sequence-parallel and recompute variants), generalised to grouped-query attention, any FFN width and SwiGLU.

#include "model/transformer_operations.h"
#include "scenario/scenario.h"

#include <array>

#include <vector>

namespace parasight {

// How one layer is split and what it keeps; the per-rank view that the compiler needs.
struct LayerSplit {
    int tp = 1;
    int cp = 1;
    bool sequence_parallel = false;
    Recompute recompute = Recompute::none;
    // Unfused unless told: Korthikanti's formulas, which the tests work by hand. The compiler passes the scenario's
    // training.attention (fused by default).
    Attention attention = Attention::unfused;
    bool eager_kernels = false;  // training.eager_kernels
};

// Forward FLOPs of one layer for `tokens` = micro_batch × seq_len tokens, before any split.
struct LayerFlops {
    double qkv = 0.0;             // 2·t·h·(h + 2·kv_heads·head_dim)
    double attention_core = 0.0;  // QKᵀ and attention·V: 4·t·s·h (causal masking is not subtracted, as Megatron)
    double attention_out = 0.0;   // 2·t·h²
    double mlp = 0.0;             // gelu 4·t·h·F, swiglu 6·t·h·F
    [[nodiscard]] double total() const noexcept { return qkv + attention_core + attention_out + mlp; }
    [[nodiscard]] double matmul() const noexcept { return total(); }
};

[[nodiscard]] LayerFlops layer_forward_flops(const ModelSpec& model, double micro_batch);

// One attention head's width: model.head_dim, or hidden / heads when it is unset.
[[nodiscard]] double head_width(const ModelSpec& model) noexcept;
// The queries' width, heads · head_width: the QKV projection's query output and the output projection's input (hidden
// unless head_dim is set apart from it).
[[nodiscard]] double attention_width(const ModelSpec& model) noexcept;

// Logits: 2·t·h·V forward; backward twice that.
[[nodiscard]] double logits_forward_flops(const ModelSpec& model, double micro_batch);

// Parameters of one layer (weights, biases and norms; gelu models carry biases and LayerNorm, swiglu models RMSNorm
// and no biases, as GPT and Llama do); a mixture-of-experts layer has `experts` MLPs.
[[nodiscard]] double layer_parameters(const ModelSpec& model);
// What one rank holds of a layer: tensor parallelism splits it t ways, expert parallelism the experts ep ways.
[[nodiscard]] double layer_parameters_on_rank(const ModelSpec& model, int tp, int ep);
// The same by module, in the order a layer's forward runs them: its first norm, QKV, output projection, second norm,
// MLP up projection (with the gate, for swiglu; every expert's) and down projection (ZeRO-3 as DeepSpeed runs it
// gathers each module's parameters on their own).
struct LayerModuleParameters {
    static constexpr std::size_t count = 6;
    std::array<double, count> parameters{};
    static constexpr std::size_t first_mlp_module = 3;  // the modules before it make the attention block
};
[[nodiscard]] LayerModuleParameters layer_module_parameters_on_rank(const ModelSpec& model, int tp, int ep);
// The part of those that belongs to experts (0 for a dense model): reduced over dp only, the rest over dp × ep.
[[nodiscard]] double expert_parameters_on_rank(const ModelSpec& model, int tp, int ep);
// One tensor-parallel rank's share of the token-embedding table, V·h/t (Shoeybi et al. 2019, Megatron-LM §3: split
// along the vocabulary); the output projection, and a tied table's copy on the last stage, are the same size.
[[nodiscard]] double embedding_table_parameters(const ModelSpec& model, int tp);
// Token embedding (V·h) plus, for untied embeddings, the output projection (another V·h).
[[nodiscard]] double embedding_parameters(const ModelSpec& model);
// The final norm before the logits: RMSNorm's scale (h) for swiglu models, LayerNorm's scale and shift (2h) otherwise.
[[nodiscard]] double final_norm_parameters(const ModelSpec& model);
// Every parameter of the model: layers, embedding and the final norm. Learned position tables (GPT-2/3, BERT:
// seq_len·h, under 0.02% of GPT-3) are not counted.
[[nodiscard]] double model_parameters(const ModelSpec& model);

// Activation bytes one layer keeps for backward for one micro-batch, per tensor-parallel rank, in 16-bit training
// (Korthikanti 2022 Table 2, with h·(34 + 5as/h) split into its parts so that GQA and FFN width follow):
//   none, no TP:        s·b·h·(34 + 5·a·s/h)
//   TP t:               s·b·h·(10 + 24/t + 5·a·s/(h·t))
//   TP t + SP:          s·b·h·(34/t + 5·a·s/(h·t))
//   selective + TP/SP:  s·b·h·34/t   (the attention core is recomputed, its s² terms not kept)
//   full:               2·s·b·h / t with SP, 2·s·b·h without (only the layer input is kept)
// Context parallelism cp divides s.
[[nodiscard]] double layer_activation_bytes(const ModelSpec& model, double micro_batch, const LayerSplit& split);
// The same with any set of the layer's operations recomputed (strategy-tree block and operation nodes): a tensor is
// dropped when both the operation that keeps it for backward and the one that makes it are recomputed, so a fully
// recomputed block keeps only its input and selective recompute drops the 5·a·s²·b/t of the attention core; a
// recomputed operation whose input was made by one that is not keeps that input. A block under selective_op keeps
// its input and its saved matmul and attention outputs instead. split.recompute is ignored.
[[nodiscard]] double layer_activation_bytes(const ModelSpec& model, double micro_batch, const LayerSplit& split,
                                            const RecomputedOperations& recomputed);

// The share of an operation's forward that recomputation redoes: 1 or 0 as `recomputed` says, but under selective_op
// (a block that saves its matmuls' outputs) the share of a matmul operation whose outputs are not all saved: QKV's key
// projection, SwiGLU's second up matrix, a GeLU MLP's down projection.
[[nodiscard]] double recomputed_share(const ModelSpec& model, const RecomputedOperations& recomputed, LayerBlock block,
                                      int operation) noexcept;

// The recomputed operations that free no activation memory on their own: leaving any one of them out of `recomputed`
// keeps no more bytes (what it makes is kept anyway for an operation that is not recomputed, e.g. the MLP activation
// without the down projection). Recomputing them costs time for nothing. Blocks recomputed whole (full recompute) are
// not looked into.
[[nodiscard]] std::vector<OperationRef> recomputation_freeing_nothing(const ModelSpec& model, double micro_batch,
                                                                      const LayerSplit& split,
                                                                      const RecomputedOperations& recomputed);

// Tokens an MLP processes per token of the batch: 1 for a dense model; experts_per_token × capacity_factor for a
// mixture of experts (its expert buffers are sized that way).
[[nodiscard]] double expert_token_ratio(const ModelSpec& model) noexcept;

// Model FLOPs of one training iteration (forward + backward = 3× forward, no recompute): the numerator of MFU. For a
// CNN model, the sum over its layers (model/cnn_layers.h).
[[nodiscard]] double model_flops_per_iteration(const ModelSpec& model, double global_batch);

}  // namespace parasight
