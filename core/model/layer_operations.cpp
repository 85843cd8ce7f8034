#include "model/layer_operations.h"

#include <algorithm>

namespace parasight {
namespace {

// `count` matmuls [M×K]·[K×N] of the same shape, one kernel: 2·M·N·K FLOPs each; each reads both inputs and writes
// its output once. Backward: the input and the weight gradient (compute_model.h, matmul_passes).
LayerOperation matmul(std::string_view name, double m, double n, double k, double element_bytes, double count = 1.0) {
    LayerOperation op;
    op.name = name;
    const MatmulPasses passes = matmul_passes({m, n, k, count}, count * (m * k + k * n + m * n) * element_bytes, false);
    op.forward = passes.forward;
    op.backward = passes.backward;
    return op;
}

// A linear layer's GEMM: what an fp8 recipe runs in fp8 (OperationWork::linear_gemm).
LayerOperation linear(std::string_view name, double m, double n, double k, double element_bytes) {
    LayerOperation op = matmul(name, m, n, k, element_bytes);
    op.forward.linear_gemm = true;
    op.backward.linear_gemm = true;
    return op;
}

// `count` independent matmuls of the same shape run as one batched kernel (attention: one per head and sample).
LayerOperation batched_matmul(std::string_view name, double count, double m, double n, double k, double element_bytes) {
    return matmul(name, m, n, k, element_bytes, count);
}

// An elementwise or reduction kernel that streams `bytes` forward and twice as much backward (it reads the incoming
// gradient and what it saved, and writes the outgoing gradient).
LayerOperation streaming(std::string_view name, double bytes) {
    LayerOperation op;
    op.name = name;
    op.forward.memory_bytes = bytes;
    op.backward.memory_bytes = 2.0 * bytes;
    return op;
}

// Eager PyTorch's memory-bound kernels, measured on an H100 SXM (parasight-calibrate --survey, 2026-11-27;
// tests/data/calibration/h100-sxm-2026-11-27): each one's time times the best copy's bandwidth, per element of its
// input — the bytes a one-pass kernel would move in that time — forward, then backward through autograd. bf16
// activations; the mean over [16384 × 4096] and [8192 × 8192] (calibration-survey-2.json), the bias add from
// mpt7b-operations.csv's [12288 × 4096].
struct EagerKernelBytes {
    double forward = 0.0;
    double backward = 0.0;
};
constexpr EagerKernelBytes eager_layer_norm{6.00, 15.51};    // F.layer_norm
constexpr EagerKernelBytes eager_rms_norm{56.10, 114.03};    // x.float() · rsqrt(mean(x²) + ε), .type_as(x) · w
constexpr EagerKernelBytes eager_gelu{4.38, 6.25};           // F.gelu, per element of the F/t-wide input
constexpr EagerKernelBytes eager_swiglu{10.33, 18.94};       // F.silu(gate) · up, per gate element
constexpr EagerKernelBytes eager_residual{6.09, 2.79};       // x + residual
constexpr EagerKernelBytes eager_bias_residual{13.88, 5.25};  // (x + bias) + residual
constexpr EagerKernelBytes eager_bias_dropout_residual{20.15, 8.07};  // residual + F.dropout(x + bias, 0.1)
constexpr EagerKernelBytes eager_cross_entropy{25.86, 27.65};  // F.cross_entropy(logits.float(), targets), per logit

LayerOperation eager_streaming(std::string_view name, double elements, EagerKernelBytes bytes) {
    LayerOperation op;
    op.name = name;
    op.forward.memory_bytes = elements * bytes.forward;
    op.backward.memory_bytes = elements * bytes.backward;
    return op;
}

// FlashAttention-2 (Dao 2023, §3.1-3.2) for `count` = heads × samples attention problems of `queries` × `keys` with
// head width d: one kernel keeps the score tile on chip, so nothing s²-sized touches memory. Forward: QKᵀ and ·V,
// 4·count·queries·keys·d FLOPs (the unfused kernels' two matmuls) without a mask; with the causal mask the kernel
// skips the tiles above the diagonal and computes those on it whole, so a query sees keys/2 + 64 keys on average
// (tiles of 128; fused_attention_keys_per_query). It reads Q, K, V and writes O and the softmax's log-sum-exp (fp32,
// one per query). Backward recomputes the scores and runs four more matmuls (dV, dP, dQ, dK): five in all, 2.5× the
// forward FLOPs; it reads Q, K, V, O, dO and the log-sum-exp and writes dQ, dK, dV.
LayerOperation fused_attention(std::string_view name, double count, double queries, double keys, double head_dim,
                               double kv_per_query_head, bool causal, double element_bytes) {
    LayerOperation op;
    op.name = name;
    const double query_bytes = count * queries * head_dim * element_bytes;                    // Q, O, dO or dQ
    const double key_bytes = count * keys * head_dim * kv_per_query_head * element_bytes;     // K, V, dK or dV
    const double log_sum_exp_bytes = count * queries * 4.0;
    const double keys_computed = fused_attention_keys_per_query(keys, causal);
    op.forward.flops = 4.0 * count * queries * keys_computed * head_dim;
    op.forward.memory_bytes = 2.0 * query_bytes + 2.0 * key_bytes + log_sum_exp_bytes;
    op.forward.matmuls[0] = {queries, keys_computed, head_dim, count};
    op.forward.fused_attention = true;
    op.backward.flops = 2.5 * op.forward.flops;
    op.backward.memory_bytes = 4.0 * query_bytes + 4.0 * key_bytes + log_sum_exp_bytes;
    op.backward.matmuls[0] = op.forward.matmuls[0];
    op.backward.fused_attention = true;
    return op;
}

}  // namespace

double fused_attention_keys_per_query(double keys, bool causal) noexcept {
    // Row i of a causal problem sees i + 1 keys; over whole tiles of 128 the kernel computes s²/2 + 64·s scores.
    constexpr double tile_keys = 128.0;
    return causal ? std::min(keys, keys / 2.0 + tile_keys / 2.0) : keys;
}

double dtype_bytes(Dtype dtype) noexcept {
    switch (dtype) {
    case Dtype::fp32:
    case Dtype::tf32: return 4.0;
    case Dtype::fp16:
    case Dtype::bf16: return 2.0;
    case Dtype::fp8: return 1.0;
    }
    return 2.0;
}

double storage_element_bytes(Dtype dtype) noexcept { return std::max(2.0, dtype_bytes(dtype)); }

namespace {

struct PassKernels {
    int forward = 0;
    int backward = 0;
};

// The kernels each operation of a layer launches forward and backward, as torch.profiler counted them on PyTorch 2.11
// (parasight-calibrate's measured-operations tables of GPT-2 small and Llama 3 8B, and its training_step survey;
// docs/model.md §2, "Kernel launch floor"). Eager: LayerNorm one kernel forward, two backward; Llama's RMSNorm written
// out in fp32 nine forward (two casts, pow, mean, add, rsqrt, multiply, cast back, scale) and twenty backward (the
// Llama-style layer's 56 backward kernels less its other operations'); a linear layer one GEMM forward, two backward
// and a bias-gradient reduction and its copy where it has a bias; fused attention two forward (three with dropout,
// its random state), four backward; the bias, dropout and residual add one kernel each forward, backward three with
// a bias and dropout and none with neither (the tables' counts); SwiGLU's silu(gate) · up two forward, four backward. Fused kernels (Megatron-LM's
// and Transformer Engine's): the bias, dropout and residual add in one kernel each way, SwiGLU likewise, the norm
// one forward and two backward.
void count_kernels(TransformerLayerWork& work, const ModelSpec& model, const LayerSplit& split) {
    const bool eager = split.eager_kernels;
    const bool swiglu = model.mlp == MlpKind::swiglu;
    const bool biases = !swiglu;  // GPT-style models carry biases, Llama-style ones none (layer_parameters)
    const PassKernels norm = eager && swiglu ? PassKernels{9, 20} : PassKernels{1, 2};
    const PassKernels linear_with_bias = biases ? PassKernels{1, 4} : PassKernels{1, 2};
    const PassKernels linear{1, 2};
    const int residual_parts = (biases ? 1 : 0) + (model.dropout ? 1 : 0);  // besides the add itself
    const PassKernels residual =
        eager ? PassKernels{1 + residual_parts, residual_parts == 0 ? 0 : residual_parts + 1} : PassKernels{1, 1};
    const PassKernels activation = eager && swiglu ? PassKernels{2, 4} : PassKernels{1, 1};
    const auto set = [](LayerOperation& op, PassKernels kernels) {
        op.forward.kernels = kernels.forward;
        op.backward.kernels = kernels.backward;
    };
    const auto set_norm = [&](LayerOperation& op) {
        // A parallel block's MLP norm slot does no work of its own.
        if (op.forward.memory_bytes > 0.0 || op.forward.flops > 0.0) set(op, norm);
    };
    set_norm(work.attention[0]);
    set(work.attention[1], linear_with_bias);
    if (split.attention == Attention::fused) {
        set(work.attention[2], PassKernels{model.dropout ? 3 : 2, 4});
    } else {
        // Scores and ·V one batched GEMM forward and two backward; the mask, softmax and dropout one kernel each.
        set(work.attention[2], linear);
        set(work.attention[3], PassKernels{2 + (model.dropout ? 1 : 0), 2 + (model.dropout ? 1 : 0)});
        set(work.attention[4], linear);
    }
    set(work.attention[5], linear);
    set(work.attention[6], residual);
    set_norm(work.mlp[0]);
    set(work.mlp[1], linear_with_bias);
    set(work.mlp[2], activation);
    set(work.mlp[3], linear);
    set(work.mlp[4], residual);
}

}  // namespace

TransformerLayerWork transformer_layer_work(const ModelSpec& model, double micro_batch, const LayerSplit& split,
                                            double element_bytes) {
    const double t = split.tp;
    const double s_local = static_cast<double>(model.seq_len) / split.cp;  // queries on this rank
    const double s_keys = model.seq_len;                                   // every key, gathered across cp
    const double tokens = micro_batch * s_local;
    const double h = model.hidden;
    const double head_dim = head_width(model);
    const double queries_width = attention_width(model);
    const double kv = model.kv_heads * head_dim;
    const double f = model.ffn_hidden;
    const double heads_local = model.heads / t;
    const double eb = element_bytes;
    // LayerNorm and dropout work on the whole activation, or on a 1/t slice of the sequence with SP.
    const double norm_tokens = split.sequence_parallel ? tokens / t : tokens;

    // Fused (one pass each) or as eager PyTorch runs them (training.eager_kernels): a SwiGLU model's RMSNorm written
    // out in fp32, a GeLU model's LayerNorm; the residual add with the block's bias (GeLU models have biases) and
    // dropout where the model has them.
    const bool eager = split.eager_kernels;
    const bool swiglu = model.mlp == MlpKind::swiglu;
    const EagerKernelBytes eager_norm = swiglu ? eager_rms_norm : eager_layer_norm;
    const EagerKernelBytes eager_add = model.dropout ? eager_bias_dropout_residual
                                       : swiglu      ? eager_residual
                                                     : eager_bias_residual;
    const auto norm = [&](std::string_view name) {
        // LayerNorm: read and write the activation (Korthikanti 2022 counts its input among the saved tensors).
        return eager ? eager_streaming(name, norm_tokens * h, eager_norm) : streaming(name, 2.0 * norm_tokens * h * eb);
    };
    const auto residual = [&](std::string_view name) {
        // Bias, dropout and residual add: read two activations, write one and a 1-byte mask (none without dropout).
        return eager ? eager_streaming(name, norm_tokens * h, eager_add)
                     : streaming(name, norm_tokens * h * (3.0 * eb + (model.dropout ? 1.0 : 0.0)));
    };

    TransformerLayerWork work;
    work.attention.push_back(norm(attention_operation_names[0]));
    work.attention.push_back(linear(attention_operation_names[1], tokens, (queries_width + 2.0 * kv) / t, h, eb));
    if (split.attention == Attention::fused) {
        // One kernel does the whole core; the softmax + dropout and ·V slots do no work of their own.
        const double kv_per_query_head = static_cast<double>(model.kv_heads) / model.heads;
        work.attention.push_back(fused_attention(attention_operation_names[2], heads_local * micro_batch, s_local,
                                                 s_keys, head_dim, kv_per_query_head, model.causal_attention, eb));
        work.attention.push_back(LayerOperation{attention_operation_names[3], {}, {}});
        work.attention.push_back(LayerOperation{attention_operation_names[4], {}, {}});
    } else {
        // Attention core, per head: scores [s×d]·[d×s], softmax (read and write) and dropout (read, write, a 1-byte
        // mask) on a/t·b·s² elements, then ·V.
        work.attention.push_back(
            batched_matmul(attention_operation_names[2], heads_local * micro_batch, s_local, s_keys, head_dim, eb));
        const double score_elements = heads_local * micro_batch * s_local * s_keys;
        work.attention.push_back(streaming(attention_operation_names[3],
                                           score_elements * (2.0 * eb + (model.dropout ? 2.0 * eb + 1.0 : 0.0))));
        work.attention.push_back(
            batched_matmul(attention_operation_names[4], heads_local * micro_batch, s_local, head_dim, s_keys, eb));
    }
    work.attention.push_back(linear(attention_operation_names[5], tokens, h, queries_width / t, eb));
    work.attention.push_back(residual(attention_operation_names[6]));

    // Parallel blocks normalise once, for both: the MLP's norm slot does no work of its own.
    work.mlp.push_back(model.parallel_blocks ? LayerOperation{mlp_operation_names[0], {}, {}}
                                             : norm(mlp_operation_names[0]));
    // A mixture-of-experts MLP runs each token through experts_per_token experts; every expert-parallel rank gets
    // that many tokens' worth of expert work, times the capacity factor its buffers are sized for.
    const double expert_tokens = tokens * expert_token_ratio(model);
    const double up_width = (model.mlp == MlpKind::swiglu ? 2.0 : 1.0) * f / t;
    work.mlp.push_back(linear(mlp_operation_names[1], expert_tokens, up_width, h, eb));
    // GeLU reads and writes the F/t-wide intermediate; SwiGLU reads gate and up and writes their product.
    const double activation_elements = expert_tokens * (f / t);
    work.mlp.push_back(eager ? eager_streaming(mlp_operation_names[2], activation_elements,
                                               swiglu ? eager_swiglu : eager_gelu)
                             : streaming(mlp_operation_names[2], activation_elements * eb * (swiglu ? 3.0 : 2.0)));
    work.mlp.push_back(linear(mlp_operation_names[3], expert_tokens, h, f / t, eb));
    work.mlp.push_back(residual(mlp_operation_names[4]));

    count_kernels(work, model, split);
    work.tp_collective_bytes = tokens * h * eb;
    work.cp_collective_bytes = split.cp > 1 ? 2.0 * micro_batch * s_keys * kv / t * eb : 0.0;
    work.ep_collective_bytes = model.experts > 1 ? tokens * h * eb * expert_token_ratio(model) : 0.0;
    return work;
}

LayerOperation logits_operation(const ModelSpec& model, double micro_batch, int tp, double element_bytes,
                                bool eager_kernels) {
    const double tokens = micro_batch * model.seq_len;
    const double logits = tokens * static_cast<double>(model.vocab) / tp;
    LayerOperation op = matmul("logits", tokens, static_cast<double>(model.vocab) / tp, model.hidden, element_bytes);
    if (eager_kernels) {
        // PyTorch's cross-entropy over the logits cast to fp32, its kernels after the GEMM's, forward and backward.
        op.forward.trailing_memory_bytes = logits * eager_cross_entropy.forward;
        op.backward.trailing_memory_bytes = logits * eager_cross_entropy.backward;
        return op;
    }
    // Cross-entropy reads the logits in fp32 softmax form once more.
    op.forward.memory_bytes += logits * 4.0;
    return op;
}

LayerOperation embedding_operation(const ModelSpec& model, double micro_batch, int tp, double element_bytes) {
    (void)tp;  // the vocabulary is split, but every rank writes the whole activation
    const double tokens = micro_batch * model.seq_len;
    return streaming("embedding", 2.0 * tokens * model.hidden * element_bytes);
}

}  // namespace parasight
