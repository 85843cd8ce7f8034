"""The survey's training_step item: a decoder's layer stack forward and backward as a training step runs it — eagerly,
and replayed from CUDA graphs (torch.cuda.make_graphed_callables) — at micro-batches from 1 up, with the kernels one
layer launches forward and backward (torch.profiler).

Where a layer's kernels are short, the host's time to launch them, not the GPU's, decides the step: the eager time
stays flat as the micro-batch shrinks while the graphed one keeps falling. This is what ParaSight's launch floor
(docs/model.md, "Kernel launch floor") is checked against: kernels × the host's time per kernel against the GPU's
time, per layer.

Two stacks: GPT-2 small's (LayerNorm, biases, GeLU; the model whose measured layer ParaSight undercounted most) and
a Llama-style one at the same width (RMSNorm written out as Llama's reference code writes it, no biases, SwiGLU).
"""

import copy

from attention import attention_function
from kernel_count import count_kernels, kernel_times
from timing import measure

# (name, layers, hidden, heads, ffn_hidden, seq_len, GeLU, dropout); tiny: what a CPU finishes in seconds.
FULL_STACKS = [("gpt2-small", 12, 768, 12, 3072, 1024, True, 0.1),
               ("llama-style-768", 12, 768, 12, 2048, 1024, False, 0.0)]
TINY_STACKS = [("tiny-gpt", 2, 32, 2, 128, 16, True, 0.1)]
FULL_MICRO_BATCHES = (1, 2, 4, 8, 16)
TINY_MICRO_BATCHES = (1, 2)


def _layer_class(torch):
    functional = torch.nn.functional

    class DecoderLayer(torch.nn.Module):
        """Pre-norm decoder layer: x + dropout(out(attention(norm(x)))), then x + dropout(down(act(up(norm(x)))))."""

        def __init__(self, hidden, heads, ffn_hidden, gelu, dropout):
            super().__init__()
            self.heads, self.gelu, self.dropout = heads, gelu, dropout
            self.norm_weights = torch.nn.ParameterList(
                [torch.nn.Parameter(torch.ones(hidden)) for _ in range(2)])
            self.norm_biases = torch.nn.ParameterList(
                [torch.nn.Parameter(torch.zeros(hidden)) for _ in range(2)] if gelu else [])
            self.qkv = torch.nn.Linear(hidden, 3 * hidden, bias=gelu)
            self.out = torch.nn.Linear(hidden, hidden, bias=gelu)
            self.up = torch.nn.Linear(hidden, (1 if gelu else 2) * ffn_hidden, bias=gelu)
            self.down = torch.nn.Linear(ffn_hidden, hidden, bias=gelu)
            self.attend = attention_function(torch, True, dropout)

        def norm(self, x, i):
            if self.gelu:
                return functional.layer_norm(x, (x.shape[-1],), self.norm_weights[i], self.norm_biases[i])
            # Llama's reference RMSNorm (meta-llama/llama3 model.py; torchtitan's default): in fp32, then back.
            normed = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-5)
            return normed.type_as(x) * self.norm_weights[i]

        def forward(self, x):
            b, s, h = x.shape
            q, k, v = self.qkv(self.norm(x, 0)).view(b, s, 3, self.heads, h // self.heads).permute(2, 0, 3, 1,
                                                                                                  4).unbind(0)
            attended = self.attend(q, k, v).transpose(1, 2).reshape(b, s, h)
            x = x + functional.dropout(self.out(attended), p=self.dropout, training=True)
            up = self.up(self.norm(x, 1))
            if self.gelu:
                up = functional.gelu(up)
            else:
                gate, value = up.chunk(2, dim=-1)
                up = functional.silu(gate) * value
            return x + functional.dropout(self.down(up), p=self.dropout, training=True)

    return DecoderLayer


def _graphed(torch, stack, x):
    """A copy of the stack as CUDA graphs of its forward and backward, or (None, why). (make_graphed_callables replaces
    a module's forward, so the eager stack is kept for the next micro-batch.)"""
    try:
        return torch.cuda.make_graphed_callables(copy.deepcopy(stack), (x,)), None
    except Exception as error:  # a PyTorch without it, or a kernel that cannot be captured
        return None, str(error).splitlines()[0][:300]


def _step(torch, stack, x, gradient):
    """One micro-batch's forward and backward through the stack, gradients set to None first (zero_grad)."""
    parameters = list(stack.parameters())

    def run():
        for parameter in parameters:
            parameter.grad = None
        x.grad = None
        stack(x).backward(gradient)
    return run


def _layer_kernels(torch, layer, x, device):
    """{forward_kernels, backward_kernels} of one layer, or the reason they were not counted."""
    counted = {}
    forward, why = count_kernels(torch, lambda: layer(x), device)
    if why is not None:
        return {"kernels_not_counted": why}
    out = layer(x)
    gradient = torch.randn_like(out)
    inputs = [x] + list(layer.parameters())
    backward, why = count_kernels(
        torch, lambda: torch.autograd.grad(out, inputs, gradient, retain_graph=True), device)
    counted["forward_kernels"] = forward
    if why is None:
        counted["backward_kernels"] = backward
    else:
        counted["backward_kernels_not_counted"] = why
    return counted


def _layer_kernel_times(torch, layer, x, device):
    """{forward_kernel_times, backward_kernel_times}: [kernel name, seconds on the GPU] of one layer at this
    micro-batch — where the GPU's own time goes, whoever bounds the step — or the reason they were not taken."""
    forward, why = kernel_times(torch, lambda: layer(x), device)
    if why is not None:
        return {"kernel_times_not_taken": why}
    out = layer(x)
    gradient = torch.randn_like(out)
    inputs = [x] + list(layer.parameters())
    backward, why = kernel_times(torch, lambda: torch.autograd.grad(out, inputs, gradient, retain_graph=True), device)
    times = {"forward_kernel_times": [[name, seconds] for name, seconds in forward]}
    if why is None:
        times["backward_kernel_times"] = [[name, seconds] for name, seconds in backward]
    else:
        times["backward_kernel_times_not_taken"] = why
    return times


def survey_training_step(torch, device, dtype, plan, sizes):
    layer_class = _layer_class(torch)
    stacks = TINY_STACKS if sizes == "tiny" else FULL_STACKS
    micro_batches = TINY_MICRO_BATCHES if sizes == "tiny" else FULL_MICRO_BATCHES
    results, rows = [], []
    for name, layers, hidden, heads, ffn_hidden, seq_len, gelu, dropout in stacks:
        torch.manual_seed(0)
        stack = torch.nn.Sequential(*(layer_class(hidden, heads, ffn_hidden, gelu, dropout)
                                      for _ in range(layers))).to(device=device, dtype=dtype)
        result = {"stack": name, "layers": layers, "hidden": hidden, "heads": heads, "ffn_hidden": ffn_hidden,
                  "seq_len": seq_len, "norm": "LayerNorm" if gelu else "RMSNorm written out in fp32",
                  "mlp": "gelu" if gelu else "swiglu", "biases": gelu, "dropout": dropout,
                  # 2 FLOPs a weight (qkv, out, up, down) and causal scores and values at 2·s·h a token (half of 4·s·h).
                  "flops_per_token_forward": layers * (2 * (4 * hidden * hidden + (3 if not gelu else 2) * hidden *
                                                      ffn_hidden) + 2 * seq_len * hidden),
                  }
        x = torch.randn(1, seq_len, hidden, device=device, dtype=dtype, requires_grad=True)
        result.update(_layer_kernels(torch, stack[0], x, device))
        for micro_batch in micro_batches:
            row = {"stack": name, "micro_batch": micro_batch}
            try:
                x = torch.randn(micro_batch, seq_len, hidden, device=device, dtype=dtype, requires_grad=True)
                gradient = torch.randn_like(x)
                eager = measure(_step(torch, stack, x, gradient), plan, device)
                row.update({"eager_time_s": eager.median_s, "eager_min_time_s": min(eager.samples_s),
                            "eager_max_time_s": max(eager.samples_s)})
                # The forward alone, recorded for autograd as training records it: the host's share of the forward.
                forward = measure(lambda: stack(x), plan, device)
                row["eager_forward_time_s"] = forward.median_s
                row.update(_layer_kernel_times(torch, stack[0], x, device))
                if device.type != "cuda":
                    row["graph"] = "not measured: CUDA graphs need a GPU"
                else:
                    graphed, why = _graphed(torch, stack, x)
                    if graphed is None:
                        row["graph"] = why
                    else:
                        replayed = measure(_step(torch, graphed, x, gradient), plan, device)
                        row.update({"graph_time_s": replayed.median_s, "graph_min_time_s": min(replayed.samples_s),
                                    "graph_max_time_s": max(replayed.samples_s)})
            except Exception as error:
                row["error"] = str(error).splitlines()[0][:300]
            x = gradient = graphed = None
            if device.type == "cuda":
                torch.cuda.empty_cache()
            rows.append(row)
        stack = None
        results.append(result)
    return {"step": "forward and backward of the layer stack (input [micro_batch, seq_len, hidden], gradients set to "
                    "None before each); graph: the same through torch.cuda.make_graphed_callables",
            "kernels": "one layer's kernels forward and backward (torch.profiler, micro-batch 1)",
            "stacks": results, "rows": rows}

