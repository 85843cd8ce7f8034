#include "model/transformer_costs.h"

#include "model/cnn_layers.h"

namespace parasight {
namespace {

double head_dim(const ModelSpec& model) { return static_cast<double>(model.hidden) / model.heads; }
double kv_width(const ModelSpec& model) { return model.kv_heads * head_dim(model); }
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

LayerFlops layer_forward_flops(const ModelSpec& model, double micro_batch) {
    const double h = model.hidden;
    const double s = model.seq_len;
    const double tokens = micro_batch * s;
    LayerFlops flops;
    flops.qkv = 2.0 * tokens * h * (h + 2.0 * kv_width(model));
    flops.attention_core = 4.0 * tokens * s * h;
    flops.attention_out = 2.0 * tokens * h * h;
    flops.mlp = 2.0 * mlp_matrices(model) * tokens * h * model.ffn_hidden * mlp_passes(model);
    return flops;
}

double logits_forward_flops(const ModelSpec& model, double micro_batch) {
    return 2.0 * micro_batch * model.seq_len * model.hidden * static_cast<double>(model.vocab);
}

double layer_parameters(const ModelSpec& model) {
    const double h = model.hidden;
    const double attention = h * (h + 2.0 * kv_width(model)) + h * h;
    const double mlps = model.experts * mlp_parameters(model);
    if (model.mlp == MlpKind::swiglu) return attention + mlps + 2.0 * h;  // two RMSNorm scales
    // Biases of QKV and the output projection, and two LayerNorms (scale and shift); the MLP's are in mlps.
    const double biases = (h + 2.0 * kv_width(model)) + h;
    return attention + mlps + biases + 4.0 * h;
}

double expert_parameters_on_rank(const ModelSpec& model, int tp, int ep) {
    if (model.experts <= 1) return 0.0;
    return model.experts * mlp_parameters(model) / (static_cast<double>(tp) * ep);
}

double layer_parameters_on_rank(const ModelSpec& model, int tp, int ep) {
    const double mlps = model.experts * mlp_parameters(model);
    return (layer_parameters(model) - mlps) / tp + mlps / (static_cast<double>(tp) * ep);
}

double embedding_parameters(const ModelSpec& model) {
    const double table = static_cast<double>(model.vocab) * model.hidden;
    return model.tie_embeddings ? table : 2.0 * table;
}

double model_parameters(const ModelSpec& model) {
    // The final norm: RMSNorm's scale (h) for swiglu models, LayerNorm's scale and shift (2h) otherwise.
    const double final_norm = model.mlp == MlpKind::swiglu ? model.hidden : 2.0 * model.hidden;
    return total_layers(model) * layer_parameters(model) + embedding_parameters(model) + final_norm;
}

double layer_activation_bytes(const ModelSpec& model, double micro_batch, const LayerSplit& split) {
    const Recompute mlp = split.recompute == Recompute::selective ? Recompute::none : split.recompute;
    return layer_activation_bytes(model, micro_batch, split, split.recompute, mlp);
}

double layer_activation_bytes(const ModelSpec& model, double micro_batch, const LayerSplit& split,
                              Recompute attention_recompute, Recompute mlp_recompute) {
    const double s = static_cast<double>(model.seq_len) / split.cp;
    const double b = micro_batch;
    const double h = model.hidden;
    const double a = model.heads;
    const double t = split.tp;
    const double sbh = s * b * h;
    // What stays outside the tensor-parallel region is split by t only with sequence parallelism (Korthikanti
    // §4.2.2-4.2.3); what lies between the column- and row-parallel matrices always is.
    const double outside_split = split.sequence_parallel ? t : 1.0;
    // A fully recomputed block keeps only its input; both blocks recomputed keep only the layer's input.
    const double block_input = 2.0 * sbh / outside_split;
    if (attention_recompute == Recompute::full && mlp_recompute == Recompute::full) return block_input;
    // Korthikanti §4.1, per layer: attention keeps 11·sbh + 5·a·s²·b (LayerNorm input and QKV input 2sbh each are
    // counted with the 34's LayerNorm 4 and the 10 outside; Q, K 4sbh, V 2sbh, softmax output 2as²b, dropout mask
    // as²b, dropout output 2as²b, projection input 2sbh, dropout mask sbh), the MLP 19·sbh. Grouped-query attention
    // shrinks K and V; a wider FFN (or SwiGLU's third matrix) scales the MLP's 16·sbh of intermediates.
    const double kv_ratio = kv_width(model) / h;
    const double ffn_ratio = static_cast<double>(model.ffn_hidden) / (4.0 * h) * (mlp_matrices(model) / 2.0);
    // Outside TP, per block: its LayerNorm's input 2sbh, the block's (column-parallel) input 2sbh, the dropout mask sbh.
    const double block_outside = 5.0 * sbh / outside_split;
    double attention = 0.0;
    if (attention_recompute == Recompute::full) {
        attention = block_input;
    } else {
        const double inside_linear = (2.0 + 4.0 * kv_ratio + 2.0) * sbh;  // Q, K, V and the projection input: 8·sbh
        const double quadratic = attention_recompute == Recompute::selective ? 0.0 : 5.0 * a * s * s * b;
        attention = block_outside + (inside_linear + quadratic) / t;
    }
    const double mlp = mlp_recompute == Recompute::full ? block_input : block_outside + 16.0 * ffn_ratio * sbh / t;
    return attention + mlp;
}

double model_flops_per_iteration(const ModelSpec& model, double global_batch) {
    if (model.kind == ModelKind::cnn) return 3.0 * cnn_forward_flops_per_sample(model) * global_batch;
    const double per_layer = layer_forward_flops(model, global_batch).total();
    return 3.0 * (total_layers(model) * per_layer + logits_forward_flops(model, global_batch));
}

}  // namespace parasight
