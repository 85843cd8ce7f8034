"""The measured-operations table: every operation ParaSight charges for a transformer layer, the embedding, the
logits and the optimizer step, timed at exactly the shapes ParaSight charges them for one micro-batch on one
tensor-parallel rank (core/model/layer_operations.cpp, transformer_layer_work; docs/model.md), forward and — through
autograd — backward. The table replaces ParaSight's roofline for these operations
(docs/scenario-reference.md, simulation.measured_operations).

Shapes, with t = tp, b = micro-batch, s = sequence length, h = hidden, a = heads, d = h / a, kv = kv_heads · d,
f = ffn_hidden, V = vocab, tokens = b · s (tokens / t for the norms and dropouts with sequence parallelism):
  layernorm          LayerNorm (RMSNorm for a SwiGLU model) of [tokens x h]
  qkv                [tokens x h] · [h x (h + 2 kv) / t] (+ bias for a GeLU model)
  attention_scores   fused: attention of a/t heads, [b, a/t, s, d] each of Q, K, V; unfused: Q·Kᵀ per head
  softmax_dropout    unfused only: mask, softmax and dropout of [b, a/t, s, s]
  attention_values   unfused only: [s x s] · [s x d] per head
  attention_out      [tokens x h/t] · [h/t x h]
  dropout_residual   residual + dropout(x + bias) on [tokens x h]
  mlp_up             [tokens' x h] · [h x f/t] (2 f/t for SwiGLU's gate and up) (+ bias), tokens' = tokens · top-k ·
                     capacity factor with experts
  activation         GeLU of [tokens' x f/t], or SwiGLU's silu(gate) · up
  mlp_down           [tokens' x f/t] · [f/t x h]
  logits             [tokens x h] · [h x V/t] and the cross-entropy over the V/t logits (fp32)
  embedding          lookup of [b x s] ids in a [V/t x h] table; backward: the table's gradient
  optimizer          AdamW over the parameters of pipeline stage 0 on one rank (its layers' share of 1/t, the
                     embedding table, and with one stage the output table when untied and the final norm), divided
                     by the optimizer shards (ZeRO-1 and above shard the step over the data-parallel ranks)
"""

import math

from errors import UserError
from kernel_count import count_kernels
from optimizer_step import measure_adamw
from quantities import format_time
from timing import measure
import attention


class TableSettings:
    """What the table is measured for: it is valid for scenarios with the same model, micro-batch and parallelism."""

    def __init__(self, model, micro_batch, tp, pp, sequence_parallel, attention_mode, causal, dropout,
                 optimizer_shards):
        if model.heads % tp or model.kv_heads % tp:
            raise UserError(f"--tp {tp} must divide the model's heads ({model.heads}) and key-value heads "
                            f"({model.kv_heads})")
        if model.ffn_hidden % tp or model.hidden % tp:
            raise UserError(f"--tp {tp} must divide the model's hidden ({model.hidden}) and ffn_hidden "
                            f"({model.ffn_hidden})")
        total_layers = model.layers + model.decoder_layers
        if pp > total_layers:
            raise UserError(f"--pp {pp} is more than the model's {total_layers} layers")
        self.model = model
        self.micro_batch = micro_batch
        self.tp = tp
        self.pp = pp
        self.sequence_parallel = sequence_parallel
        self.attention = attention_mode
        self.causal = causal
        self.dropout = dropout
        self.optimizer_shards = optimizer_shards

    def as_json(self):
        m = self.model
        return {"model": m.label, "layers": m.layers, "decoder_layers": m.decoder_layers, "hidden": m.hidden,
                "heads": m.heads, "kv_heads": m.kv_heads, "ffn_hidden": m.ffn_hidden, "seq_len": m.seq_len,
                "vocab": m.vocab, "mlp": m.mlp, "experts": m.experts, "micro_batch": self.micro_batch,
                "tp": self.tp, "pp": self.pp, "sequence_parallel": self.sequence_parallel,
                "attention": self.attention, "causal_mask": self.causal, "dropout": self.dropout,
                "optimizer_shards": self.optimizer_shards}


def _ceil(x):
    return int(math.ceil(x - 1e-9))


def stage0_parameter_shapes(settings):
    """The shapes of the parameters pipeline stage 0 keeps on one tensor-parallel rank, split into
    `optimizer_shards` flat pieces when the step is sharded."""
    m, t = settings.model, settings.tp
    h, f, kv = m.hidden, m.ffn_hidden, m.kv_heads * (m.hidden // m.heads)
    gelu = m.mlp == "gelu"
    layer = [(h,), (h,), (h,), (h,)] if gelu else [(h,), (h,)]  # two norms: scale (and shift)
    layer += [((h + 2 * kv) // t, h), (h, h // t)]
    if gelu:
        layer += [((h + 2 * kv) // t,), (h,)]
    for _ in range(m.experts):
        layer += [((2 if not gelu else 1) * f // t, h), (h, f // t)]
        if gelu:
            layer += [(f // t,), (h,)]
    stage_layers = _ceil((m.layers + m.decoder_layers) / settings.pp)
    shapes = layer * stage_layers
    table = (_ceil(m.vocab / t), h)
    shapes.append(table)
    if settings.pp == 1:
        if not m.tie_embeddings:
            shapes.append(table)
        shapes += [(h,), (h,)] if gelu else [(h,)]
    if settings.optimizer_shards > 1:
        shapes = [(_ceil(math.prod(shape) / settings.optimizer_shards),) for shape in shapes]
    return shapes, stage_layers


def _linear_weight(torch, rows, columns, device, dtype):
    return (torch.randn(rows, columns, device=device, dtype=dtype) / math.sqrt(columns)).requires_grad_()


def _operations(torch, settings, device, dtype):
    """(name, description, factory) per operation; factory() -> (forward function, tensors to differentiate)."""
    functional = torch.nn.functional
    m, t, b = settings.model, settings.tp, settings.micro_batch
    s, h = m.seq_len, m.hidden
    d = h // m.heads
    kv = m.kv_heads * d
    f = m.ffn_hidden
    gelu = m.mlp == "gelu"
    tokens = b * s
    norm_tokens = _ceil(tokens / t) if settings.sequence_parallel else tokens
    ratio = m.experts_per_token * m.capacity_factor if m.experts > 1 else 1.0
    expert_tokens = _ceil(tokens * ratio)
    heads_local, kv_local = m.heads // t, m.kv_heads // t
    vocab_local = _ceil(m.vocab / t)
    up_width = (1 if gelu else 2) * f // t
    p = settings.dropout

    def activation_tensor(rows, columns):
        return torch.randn(rows, columns, device=device, dtype=dtype, requires_grad=True)

    def vector(size):
        return torch.randn(size, device=device, dtype=dtype, requires_grad=True)

    def layernorm():
        x = activation_tensor(norm_tokens, h)
        if gelu:
            weight, bias = vector(h), vector(h)
            return (lambda: functional.layer_norm(x, (h,), weight, bias)), (x, weight, bias)
        weight = vector(h)
        # RMSNorm (PyTorch before 2.4 has none built in): x / sqrt(mean(x²) + ε) · scale.
        return (lambda: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * weight), (x, weight)

    def linear(rows, out_features, in_features, with_bias):
        def factory():
            x = activation_tensor(rows, in_features)
            weight = _linear_weight(torch, out_features, in_features, device, dtype)
            if with_bias:
                bias = vector(out_features)
                return (lambda: functional.linear(x, weight, bias)), (x, weight, bias)
            return (lambda: functional.linear(x, weight)), (x, weight)
        return factory

    def heads_tensor(heads):
        return torch.randn(b, heads, s, d, device=device, dtype=dtype)

    def fused_attention():
        q = heads_tensor(heads_local).requires_grad_()
        # Grouped-query attention: each key-value head serves a/kv query heads (expanded before timing).
        k = heads_tensor(kv_local).repeat_interleave(heads_local // kv_local, dim=1).requires_grad_()
        v = heads_tensor(kv_local).repeat_interleave(heads_local // kv_local, dim=1).requires_grad_()
        function = attention.attention_function(torch, settings.causal, p)
        return (lambda: function(q, k, v)), (q, k, v)

    def scores():
        q = torch.randn(b * heads_local, s, d, device=device, dtype=dtype, requires_grad=True)
        k = torch.randn(b * heads_local, s, d, device=device, dtype=dtype, requires_grad=True)
        scale = 1.0 / math.sqrt(d)
        # As Megatron-LM computes them: one batched matmul with the 1/√d scale folded in.
        return (lambda: torch.baddbmm(torch.empty(b * heads_local, s, s, device=device, dtype=dtype), q,
                                      k.transpose(1, 2), beta=0.0, alpha=scale)), (q, k)

    def softmax_dropout():
        x = torch.randn(b, heads_local, s, s, device=device, dtype=dtype, requires_grad=True)
        mask = torch.ones(s, s, dtype=torch.bool, device=device).triu(1) if settings.causal else None

        def run():
            masked = x.masked_fill(mask, float("-inf")) if mask is not None else x
            return functional.dropout(torch.softmax(masked, dim=-1), p=p, training=True)
        return run, (x,)

    def values():
        probabilities = torch.rand(b * heads_local, s, s, device=device, dtype=dtype, requires_grad=True)
        v = torch.randn(b * heads_local, s, d, device=device, dtype=dtype, requires_grad=True)
        return (lambda: torch.bmm(probabilities, v)), (probabilities, v)

    def dropout_residual():
        x, residual = activation_tensor(norm_tokens, h), activation_tensor(norm_tokens, h)
        if gelu:
            bias = vector(h)
            return (lambda: residual + functional.dropout(x + bias, p=p, training=True)), (x, residual, bias)
        return (lambda: residual + functional.dropout(x, p=p, training=True)), (x, residual)

    def activation():
        if gelu:
            x = activation_tensor(expert_tokens, f // t)
            return (lambda: functional.gelu(x)), (x,)
        x = activation_tensor(expert_tokens, 2 * f // t)

        def swiglu():
            gate, up = x.chunk(2, dim=-1)
            return functional.silu(gate) * up
        return swiglu, (x,)

    def logits():
        x = activation_tensor(tokens, h)
        weight = _linear_weight(torch, vocab_local, h, device, dtype)
        targets = torch.randint(0, vocab_local, (tokens,), device=device)
        return (lambda: functional.cross_entropy(functional.linear(x, weight).float(), targets)), (x, weight)

    def embedding():
        ids = torch.randint(0, vocab_local, (b, s), device=device)
        table = _linear_weight(torch, vocab_local, h, device, dtype)
        return (lambda: functional.embedding(ids, table)), (table,)

    norm_shape = f"[{norm_tokens} x {h}]"
    operations = [
        ("embedding", f"lookup of [{b} x {s}] ids in a [{vocab_local} x {h}] table", embedding),
        ("layernorm", f"{'LayerNorm' if gelu else 'RMSNorm'} of {norm_shape}", layernorm),
        ("qkv", f"[{tokens} x {h}] · [{h} x {(h + 2 * kv) // t}]{' + bias' if gelu else ''}",
         linear(tokens, (h + 2 * kv) // t, h, gelu)),
    ]
    if settings.attention == "fused":
        operations.append(("attention_scores", f"attention of Q, K, V [{b}, {heads_local}, {s}, {d}]"
                           f"{' (causal)' if settings.causal else ''}{f', dropout {p}' if p else ''}: "
                           f"{attention.kernel_description(torch)}", fused_attention))
    else:
        operations += [
            ("attention_scores", f"{b * heads_local} x [{s} x {d}] · [{d} x {s}] (baddbmm)", scores),
            ("softmax_dropout", f"{'causal mask, ' if settings.causal else ''}softmax and dropout {p} of "
                                f"[{b}, {heads_local}, {s}, {s}]", softmax_dropout),
            ("attention_values", f"{b * heads_local} x [{s} x {s}] · [{s} x {d}] (bmm)", values),
        ]
    operations += [
        ("attention_out", f"[{tokens} x {h // t}] · [{h // t} x {h}]", linear(tokens, h, h // t, False)),
        ("dropout_residual", f"residual + dropout {p}(x{' + bias' if gelu else ''}) of {norm_shape}",
         dropout_residual),
        ("mlp_up", f"[{expert_tokens} x {h}] · [{h} x {up_width}]{' + bias' if gelu else ''}",
         linear(expert_tokens, up_width, h, gelu)),
        ("activation", f"{'GeLU' if gelu else 'SwiGLU'} of [{expert_tokens} x {f // t}]", activation),
        ("mlp_down", f"[{expert_tokens} x {f // t}] · [{f // t} x {h}]", linear(expert_tokens, h, f // t, False)),
        ("logits", f"[{tokens} x {h}] · [{h} x {vocab_local}] and cross-entropy (fp32)", logits),
    ]
    return operations


def _is_out_of_memory(error):
    return "out of memory" in str(error).lower()


def measure_table(torch, settings, device, dtype, plan, report):
    """[{operation, pass, time_s, shape}] for every operation that could be measured; `report` is told of each."""
    rows = []
    for name, description, factory in _operations(torch, settings, device, dtype):
        try:
            function, inputs = factory()
            with torch.no_grad():
                forward = measure(function, plan, device)
            out = function()
            gradient = torch.randn_like(out) if out.dim() > 0 else None
            backward = measure(lambda: torch.autograd.grad(out, inputs, gradient, retain_graph=True), plan, device)
            with torch.no_grad():
                forward_kernels = count_kernels(torch, function, device)
            backward_kernels = count_kernels(
                torch, lambda: torch.autograd.grad(out, inputs, gradient, retain_graph=True), device)
            out = gradient = inputs = function = None  # freed before the next operation
        except RuntimeError as error:
            if not _is_out_of_memory(error):
                raise
            report(f"  {name}: out of memory at {description}; left out (the roofline times it)")
            _free(torch, device)
            continue
        for pass_name, timed, (kernels, why) in (("forward", forward, forward_kernels),
                                                 ("backward", backward, backward_kernels)):
            rows.append({"operation": name, "pass": pass_name, "time_s": timed.median_s, "shape": description,
                         **timed.as_json(), **({"kernels": kernels} if why is None else {"kernels_not_counted": why})})
        report(f"  {name:17} forward {format_time(forward.median_s):>10}  backward {format_time(backward.median_s):>10}"
               f"   {description}")
        _free(torch, device)
    shapes, stage_layers = stage0_parameter_shapes(settings)
    sharded = f", the step sharded {settings.optimizer_shards} ways" if settings.optimizer_shards > 1 else ""
    description = (f"AdamW over {sum(math.prod(s) for s in shapes):,} fp32 parameters in {len(shapes)} tensors "
                   f"(pipeline stage 0 of {settings.pp}: {stage_layers} layer{'' if stage_layers == 1 else 's'} "
                   f"on one rank of tp {settings.tp}"
                   f"{sharded})")
    try:
        step = measure_adamw(torch, device, plan, shapes)
        rows.append({"operation": "optimizer", "pass": "forward", "time_s": step["time_s"], "shape": description,
                     **{key: value for key, value in step.items() if key != "time_s"}})
        report(f"  {'optimizer':17} step    {format_time(step['time_s']):>10}   {description}")
    except RuntimeError as error:
        if not _is_out_of_memory(error):
            raise
        report(f"  optimizer: out of memory for {description}; left out (the roofline times it)")
    _free(torch, device)
    return rows


def _free(torch, device):
    if device.type == "cuda":
        torch.cuda.empty_cache()
