#include "model/transformer_costs.h"

#include "model/cnn_layers.h"

#include <array>

namespace parasight {
namespace {

double kv_width(const ModelSpec& model) { return model.kv_heads * head_width(model); }
double mlp_matrices(const ModelSpec& model) { return model.mlp == MlpKind::swiglu ? 3.0 : 2.0; }
// A mixture-of-experts layer sends each token through experts_per_token of its MLPs.
double mlp_passes(const ModelSpec& model) { return model.experts > 1 ? model.experts_per_token : 1.0; }
// Weights and biases of one MLP.
double mlp_parameters(const ModelSpec& model) {
    const double h = model.hidden;
    const double f = model.ffn_hidden;
    return mlp_matrices(model) * h * f + (model.mlp == MlpKind::swiglu ? 0.0 : f + h);
}
int total_layers(const ModelSpec& model) { return model.layers + model.decoder_layers; }

}  // namespace

double head_width(const ModelSpec& model) noexcept {
    return model.head_dim > 0 ? model.head_dim : static_cast<double>(model.hidden) / model.heads;
}

double attention_width(const ModelSpec& model) noexcept { return model.heads * head_width(model); }

LayerFlops layer_forward_flops(const ModelSpec& model, double micro_batch) {
    const double h = model.hidden;
    const double a = attention_width(model);
    const double s = model.seq_len;
    const double tokens = micro_batch * s;
    LayerFlops flops;
    flops.qkv = 2.0 * tokens * h * (a + 2.0 * kv_width(model));
    flops.attention_core = 4.0 * tokens * s * a;
    flops.attention_out = 2.0 * tokens * a * h;
    flops.mlp = 2.0 * mlp_matrices(model) * tokens * h * model.ffn_hidden * mlp_passes(model);
    return flops;
}

double logits_forward_flops(const ModelSpec& model, double micro_batch) {
    return 2.0 * micro_batch * model.seq_len * model.hidden * static_cast<double>(model.vocab);
}

double layer_parameters(const ModelSpec& model) {
    const double h = model.hidden;
    const double a = attention_width(model);
    const double attention = h * (a + 2.0 * kv_width(model)) + a * h;
    const double mlps = model.experts * mlp_parameters(model);
    const double norms = model.parallel_blocks ? 1.0 : 2.0;  // parallel blocks share one norm
    if (model.mlp == MlpKind::swiglu) return attention + mlps + norms * h;  // RMSNorm scales
    // Biases of QKV and the output projection, and the LayerNorms (scale and shift); the MLP's are in mlps.
    const double biases = (a + 2.0 * kv_width(model)) + h;
    return attention + mlps + biases + norms * 2.0 * h;
}

LayerModuleParameters layer_module_parameters_on_rank(const ModelSpec& model, int tp, int ep) {
    const double h = model.hidden;
    const double f = model.ffn_hidden;
    const bool gelu = model.mlp != MlpKind::swiglu;
    const double norm = gelu ? 2.0 * h : h;  // LayerNorm's scale and shift, or RMSNorm's scale
    const double a = attention_width(model);
    const double qkv = h * (a + 2.0 * kv_width(model)) + (gelu ? a + 2.0 * kv_width(model) : 0.0);
    const double projection = a * h + (gelu ? h : 0.0);
    const double up = (mlp_matrices(model) - 1.0) * h * f + (gelu ? f : 0.0);
    const double down = f * h + (gelu ? h : 0.0);
    const double experts = model.experts / (static_cast<double>(tp) * ep);
    LayerModuleParameters modules;
    modules.parameters = {norm / tp, qkv / tp, projection / tp, model.parallel_blocks ? 0.0 : norm / tp, up * experts,
                          down * experts};
    return modules;
}

double expert_parameters_on_rank(const ModelSpec& model, int tp, int ep) {
    if (model.experts <= 1) return 0.0;
    return model.experts * mlp_parameters(model) / (static_cast<double>(tp) * ep);
}

double layer_parameters_on_rank(const ModelSpec& model, int tp, int ep) {
    const double mlps = model.experts * mlp_parameters(model);
    return (layer_parameters(model) - mlps) / tp + mlps / (static_cast<double>(tp) * ep);
}

double embedding_table_parameters(const ModelSpec& model, int tp) {
    return static_cast<double>(model.vocab) * model.hidden / tp;
}

double embedding_parameters(const ModelSpec& model) {
    const double table = embedding_table_parameters(model, 1);
    return model.tie_embeddings ? table : 2.0 * table;
}

double final_norm_parameters(const ModelSpec& model) {
    return model.mlp == MlpKind::swiglu ? model.hidden : 2.0 * model.hidden;
}

double model_parameters(const ModelSpec& model) {
    return total_layers(model) * layer_parameters(model) + embedding_parameters(model) + final_norm_parameters(model);
}

double expert_token_ratio(const ModelSpec& model) noexcept {
    return model.experts > 1 ? model.experts_per_token * model.capacity_factor : 1.0;
}

double layer_activation_bytes(const ModelSpec& model, double micro_batch, const LayerSplit& split) {
    const Recompute mlp = split.recompute == Recompute::selective ? Recompute::none : split.recompute;
    return layer_activation_bytes(model, micro_batch, split, RecomputedOperations::from_blocks(split.recompute, mlp));
}

double layer_activation_bytes(const ModelSpec& model, double micro_batch, const LayerSplit& split,
                              const RecomputedOperations& recomputed) {
    const double s = static_cast<double>(model.seq_len) / split.cp;
    const double b = micro_batch;
    const double a = model.heads;
    const double t = split.tp;
    const double sbh = s * b * model.hidden;
    // What stays outside the tensor-parallel region is split by t only with sequence parallelism (Korthikanti
    // §4.2.2-4.2.3); what lies between the column- and row-parallel matrices always is.
    const double outside = sbh / (split.sequence_parallel ? t : 1.0);
    const double inside = sbh / t;
    // Grouped-query attention shrinks K and V; a wider FFN (or SwiGLU's third matrix) widens the MLP's intermediates.
    const double kv_ratio = kv_width(model) / model.hidden;
    const double query_ratio = attention_width(model) / model.hidden;  // 1 unless head_dim is set apart
    const double ffn_ratio = static_cast<double>(model.ffn_hidden) / (4.0 * model.hidden) * (mlp_matrices(model) / 2.0);
    // A fused attention kernel (FlashAttention-2) never writes the scores: it keeps Q, K, V, its output and one fp32
    // log-sum-exp per query and head, and its backward needs all of them (V too).
    const bool fused = split.attention == Attention::fused;
    const double scores = fused ? 0.0 : a * s * s * b / t;
    const double log_sum_exp = fused ? 4.0 * a * s * b / t : 0.0;
    const int v_keeper = fused ? 2 : 4;
    // Dropout keeps a 1-byte mask per element it drops from and its 16-bit output; without it, neither.
    const double dropout = model.dropout ? 1.0 : 0.0;
    const double own_mlp_input = model.parallel_blocks ? 0.0 : 1.0;  // 0: the MLP reads the attention's normed input
    // A mixture of experts keeps its MLP's tensors for every token it routes (experts_per_token × capacity_factor).
    const double routed = expert_token_ratio(model);

    // Korthikanti §4.1, tensor by tensor: attention keeps 11·sbh + 5·a·s²·b and the MLP 19·sbh, plus each block's
    // LayerNorm input 2·sbh (34·sbh + 5·a·s²·b in all; without dropout 32·sbh + 2·a·s²·b). Each tensor is kept by
    // the operation whose backward needs it and made by `producer` (−1: the layer's input, made outside the layer).
    struct KeptTensor {
        LayerBlock block;
        int keeper;
        LayerBlock producer_block;
        int producer;
        double bytes;
        int second_keeper = -1;  // another operation of `block` whose backward needs it too
    };
    constexpr LayerBlock attention = LayerBlock::attention;
    constexpr LayerBlock mlp = LayerBlock::mlp;
    const std::array<KeptTensor, 16> kept{{
        {attention, 0, attention, -1, 2.0 * outside},               // LayerNorm input: the layer's input
        {attention, 1, attention, 0, 2.0 * outside},                // QKV input
        {attention, 2, attention, 1, 2.0 * query_ratio * inside},   // Q
        {attention, 2, attention, 1, 2.0 * kv_ratio * inside},      // K
        // Without dropout the softmax output is also what ·V reads, kept once for both.
        {attention, 3, attention, 3, 2.0 * scores, model.dropout ? -1 : 4},  // softmax output
        {attention, 3, attention, 3, dropout * scores},             // dropout mask
        {attention, 4, attention, 3, 2.0 * dropout * scores},       // dropout output
        {attention, v_keeper, attention, 1, 2.0 * kv_ratio * inside},  // V
        {attention, 2, attention, 2, log_sum_exp},                  // fused kernel's log-sum-exp
        {attention, 5, attention, 4, 2.0 * query_ratio * inside},   // projection input
        {attention, 6, attention, 6, dropout * outside},            // dropout mask
        // Parallel blocks: no second norm, and the MLP reads the attention's normed input (QKV input, kept above).
        {mlp, 0, attention, 6, own_mlp_input * 2.0 * outside},      // LayerNorm input: the attention block's output
        {mlp, 1, mlp, 0, own_mlp_input * 2.0 * routed * outside},   // MLP input (each routed copy)
        {mlp, 2, mlp, 1, 8.0 * ffn_ratio * routed * inside},        // activation input
        {mlp, 3, mlp, 2, 8.0 * ffn_ratio * routed * inside},        // down-projection input
        {mlp, 4, mlp, 4, dropout * outside},                        // dropout mask
    }};
    // A tensor can be dropped when the operation that keeps it is recomputed and so is the one that made it: the
    // recomputation makes it again just before it is needed. The layer's input is always kept.
    double bytes = 0.0;
    for (const KeptTensor& tensor : kept) {
        if (recomputed.saves_matmul_outputs(tensor.block)) continue;  // counted below
        const bool remade = tensor.producer >= 0 && recomputed.contains(tensor.producer_block, tensor.producer);
        const bool keepers_recomputed = recomputed.contains(tensor.block, tensor.keeper) &&
                                        (tensor.second_keeper < 0 || recomputed.contains(tensor.block, tensor.second_keeper));
        if (!(remade && keepers_recomputed)) bytes += tensor.bytes;
    }
    // selective_op keeps the layer's input, the outputs of its matmuls but every second one's (q, k, v, output
    // projection, then up, down — or gate, up, down with SwiGLU: q, v, the first MLP matrix and SwiGLU's down
    // projection are kept) and the fused attention kernel's output and log-sum-exp; the rest is made again from them.
    const double ffn_width = static_cast<double>(model.ffn_hidden) / model.hidden;
    if (recomputed.saves_matmul_outputs(attention)) {
        bytes += 2.0 * outside + 2.0 * query_ratio * inside + 2.0 * kv_ratio * inside + 2.0 * query_ratio * inside +
                 log_sum_exp;
    }
    if (recomputed.saves_matmul_outputs(mlp)) {
        bytes += 2.0 * ffn_width * routed * inside + (model.mlp == MlpKind::swiglu ? 2.0 * routed * sbh : 0.0);
    }
    // Recomputing an operation needs its forward inputs. Most are kept for its backward anyway (above); three are
    // not — the softmax's input (the scores) and each dropout + residual's input (the projection's output) — and
    // must be kept when the operation is recomputed but the one that made the input is not.
    const std::array<KeptTensor, 3> recompute_inputs{{
        {attention, 3, attention, 2, 2.0 * scores},   // attention scores, for softmax_dropout
        {attention, 6, attention, 5, 2.0 * outside},  // projection output, for dropout_residual
        {mlp, 4, mlp, 3, 2.0 * outside},              // down-projection output, for dropout_residual
    }};
    for (const KeptTensor& input : recompute_inputs) {
        if (recomputed.saves_matmul_outputs(input.block)) continue;
        if (recomputed.contains(input.block, input.keeper) && !recomputed.contains(input.producer_block, input.producer)) {
            bytes += input.bytes;
        }
    }
    return bytes;
}

double recomputed_share(const ModelSpec& model, const RecomputedOperations& recomputed, LayerBlock block,
                        int operation) noexcept {
    const double whole = recomputed.contains(block, operation) ? 1.0 : 0.0;
    if (!recomputed.saves_matmul_outputs(block)) return whole;
    const bool swiglu = model.mlp == MlpKind::swiglu;
    if (block == LayerBlock::attention && operation == 1) {
        return kv_width(model) / (attention_width(model) + 2.0 * kv_width(model));  // k of q, k, v
    }
    if (block == LayerBlock::mlp && operation == 1) return swiglu ? 0.5 : 0.0;  // SwiGLU's second up matrix
    if (block == LayerBlock::mlp && operation == 3) return swiglu ? 0.0 : 1.0;  // the 6th matmul without SwiGLU
    return whole;
}

std::vector<OperationRef> recomputation_freeing_nothing(const ModelSpec& model, double micro_batch,
                                                       const LayerSplit& split, const RecomputedOperations& recomputed) {
    std::vector<OperationRef> idle;
    const double kept = layer_activation_bytes(model, micro_batch, split, recomputed);
    // A slot that does no work of its own (the fused attention kernel's softmax and ·V, parallel blocks' second norm)
    // costs nothing to recompute either: no warning.
    const TransformerLayerWork work = transformer_layer_work(model, micro_batch, split, 2.0);
    for (const LayerBlock block : {LayerBlock::attention, LayerBlock::mlp}) {
        if (recomputed.saves_matmul_outputs(block)) continue;  // a policy, not a choice of operations
        // A whole block is re-run from its input, as full recompute does: a checkpoint, not a choice of operations
        // (its last residual add keeps nothing for its backward without dropout, yet belongs to the re-run).
        if (recomputed.whole(block)) continue;
        const auto operations = static_cast<int>(operation_names(block).size());
        const std::vector<LayerOperation>& done = block == LayerBlock::attention ? work.attention : work.mlp;
        for (int op = 0; op < operations; ++op) {
            if (!recomputed.contains(block, op)) continue;
            const OperationWork& forward = done[static_cast<std::size_t>(op)].forward;
            if (forward.flops == 0.0 && forward.memory_bytes == 0.0) continue;
            if (layer_activation_bytes(model, micro_batch, split, recomputed.without(block, op)) <= kept) {
                idle.push_back(OperationRef{block, op});
            }
        }
    }
    return idle;
}

double model_flops_per_iteration(const ModelSpec& model, double global_batch) {
    if (model.kind == ModelKind::cnn) return 3.0 * cnn_forward_flops_per_sample(model) * global_batch;
    const double per_layer = layer_forward_flops(model, global_batch).total();
    return 3.0 * (total_layers(model) * per_layer + logits_forward_flops(model, global_batch));
}

}  // namespace parasight
