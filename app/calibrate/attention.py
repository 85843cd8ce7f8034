"""Attention: PyTorch's fused scaled_dot_product_attention (PyTorch 2.0 and later), else the explicit
softmax(Q·Kᵀ/√d)·V of three kernels (PyTorch 1.13 has no fused attention).

attention_efficiency is the share of the peak at which ParaSight's fused-attention FLOPs run in the measured time, for
long sequences at head width 128: ParaSight counts 4·b·a·s²·d FLOPs forward without a mask and 2.5 times that
backward (FlashAttention-2 recomputes the scores; Dao 2023; core/model/layer_operations.cpp), and runs them at
attention_efficiency · shape_factor (core/device/compute_model.cpp), so each shape gives
3.5 · 4·b·a·s²·d / (forward + backward time) / peak / shape_factor, and a simulated fused attention of the same shape
then takes the measured time.
"""

import math

import matmul
from timing import measure

# ParaSight's fused attention model (core/device/compute_model.cpp, attention_shape_factor; docs/model.md §2).
HALF_KEYS = 400.0
HALF_WIDTH = 32.0


def shape_factor(problems, queries, keys_per_query, head_dim, streaming_multiprocessors):
    """What ParaSight multiplies attention_efficiency by for `problems` (heads × samples) attention problems: the fill
    of 128-query thread blocks on the SMs · n / (n + 400) · (d / (d + 32)) / (128 / 160); 1 without SMs."""
    if not streaming_multiprocessors:
        return 1.0
    fill = matmul.tile_fill(problems, queries, 1, (128, 1), streaming_multiprocessors)
    keys = keys_per_query / (keys_per_query + HALF_KEYS)
    width = (head_dim / (head_dim + HALF_WIDTH)) / (128.0 / (128.0 + HALF_WIDTH))
    return fill * keys * width


def has_fused_attention(torch):
    return hasattr(torch.nn.functional, "scaled_dot_product_attention")


def kernel_description(torch):
    if has_fused_attention(torch):
        return "torch.nn.functional.scaled_dot_product_attention (fused)"
    return (f"explicit softmax(Q·Kᵀ/√d)·V, three kernels: PyTorch {torch.__version__.split('+')[0]} has no "
            "scaled_dot_product_attention (PyTorch 2.0 and later), so this is below what a fused kernel reaches")


def attention_function(torch, causal, dropout):
    """f(q, k, v) for [batch, heads, seq, head_dim] tensors, fused when PyTorch has it."""
    functional = torch.nn.functional
    if has_fused_attention(torch):
        return lambda q, k, v: functional.scaled_dot_product_attention(q, k, v, dropout_p=dropout, is_causal=causal)

    masks = {}  # made once per sequence length, as a training loop keeps its mask

    def explicit(q, k, v):
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
        if causal:
            seq = q.shape[-2]
            if seq not in masks:
                masks[seq] = torch.ones(seq, seq, dtype=torch.bool, device=q.device).triu(1)
            scores = scores.masked_fill(masks[seq], float("-inf"))
        probabilities = torch.softmax(scores, dim=-1)
        if dropout > 0:
            probabilities = functional.dropout(probabilities, p=dropout, training=True)
        return torch.matmul(probabilities, v)

    return explicit


def shapes(sizes):
    """(batch, heads, seq, head_dim)."""
    if sizes == "tiny":
        return [(1, 2, 32, 16), (1, 2, 64, 32), (1, 4, 64, 32)]
    return [(2, 16, 1024, 64), (2, 16, 1024, 128), (2, 16, 2048, 128), (1, 16, 4096, 128), (1, 8, 8192, 128)]


def measure_forward_backward(torch, device, plan, function, tensors):
    """(forward Measurement, backward Measurement) of `function` on `tensors` (which require gradients)."""
    with torch.no_grad():
        forward = measure(lambda: function(*tensors), plan, device)
    out = function(*tensors)
    gradient = torch.randn_like(out)
    backward = measure(lambda: torch.autograd.grad(out, tensors, gradient, retain_graph=True), plan, device)
    return forward, backward


def measure_attention(torch, device, dtype, plan, sizes):
    """[{batch, heads, seq, head_dim, forward_time_s, backward_time_s, parasight_flops}] without mask or dropout,
    so that every shape does the 4·b·a·s²·d FLOPs ParaSight counts."""
    function = attention_function(torch, causal=False, dropout=0.0)
    results = []
    for batch, heads, seq, head_dim in shapes(sizes):
        q, k, v = (torch.randn(batch, heads, seq, head_dim, device=device, dtype=dtype, requires_grad=True)
                   for _ in range(3))
        forward, backward = measure_forward_backward(torch, device, plan, function, (q, k, v))
        forward_flops = 4.0 * batch * heads * seq * seq * head_dim
        total_s = forward.median_s + backward.median_s
        results.append({"batch": batch, "heads": heads, "seq": seq, "head_dim": head_dim,
                        "forward_time_s": forward.median_s, "backward_time_s": backward.median_s,
                        "forward_flops": forward_flops, "parasight_flops": 3.5 * forward_flops,
                        "flops_per_s": 3.5 * forward_flops / total_s, "forward": forward.as_json(),
                        "backward": backward.as_json()})
        del q, k, v
    return results
