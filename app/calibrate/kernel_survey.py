"""The kernel survey (--survey): measurements that do not set a number of the device preset but show how far
ParaSight's kernel model holds, written to calibration.json's "survey":

  attention    fused attention forward and backward by head width, sequence length and causal masking, for each
               scaled_dot_product_attention backend PyTorch has (flash, cuDNN, memory-efficient; "default" is what
               PyTorch picks), at the shapes of the FlashAttention-2 paper's benchmark (Dao 2023, §4.1: 16k tokens
               a batch, hidden 2048, heads = 2048 / head width). FLOPs as the paper counts them: 4·b·a·s²·d forward,
               2.5 times that backward, halved with the causal mask.
  fp8_matmul   torch._scaled_mm of e4m3 operands (per-tensor scales, bf16 output), with and without fast
               accumulation, beside the bf16 matmul of the same shape (PyTorch 2.1 and later, a GPU of compute
               capability 8.9 or more).
  launch       the time per kernel of a tiny elementwise kernel launched eagerly, replayed from a CUDA graph, and run
               by autograd's backward: the host's launch floor that eager training pays on every short kernel.
  adamw        AdamW's step over the same fp32 parameters in each implementation PyTorch has (for-loop, foreach,
               fused): in a few large tensors (bandwidth-bound) and in many small ones (the host's time per tensor).
  elementwise  the memory-bound kernels of a transformer layer as eager PyTorch runs them, forward and backward:
               LayerNorm, RMSNorm fused (F.rms_norm) and written out as Llama's reference code writes it, GeLU,
               SwiGLU's silu(gate) * up, the residual add with and without bias and dropout, and the cross-entropy
               over fp32 logits — at several activation sizes, so the bytes each really moves can be read off.
  weight_gradient  the weight-gradient GEMM of a linear layer, Xᵀ · dY over the tokens, for square and rectangular
               layers of 768 to 4096 over 2048 to 32768 tokens: outputs of few tiles over a long k.
  training_step  a decoder's layer stack forward and backward, eagerly and replayed from CUDA graphs, at micro-batches
               1 to 16, and the kernels one layer launches each way (training_step.py): where the host's launches
               decide a step.

Each item is measured on its own; one that PyTorch or the device lacks is recorded with the reason, never an abort.
"""

import math

from timing import TimingPlan, measure
from training_step import survey_training_step

FA_TOKENS = 16384
FA_HIDDEN = 2048


def survey_plan(sizes):
    """A shorter plan than the preset's: the survey has many shapes and reports each median."""
    if sizes == "tiny":
        return TimingPlan(warmup=1, repeats=3, min_sample_s=0.001)
    return TimingPlan(warmup=3, repeats=10, min_sample_s=0.005)


def attention_shapes(sizes):
    """(batch, heads, seq, head_dim) at FA_TOKENS tokens and FA_HIDDEN hidden (tiny: 256 tokens, hidden 64)."""
    if sizes == "tiny":
        return [(256 // s, 64 // d, s, d) for d in (16, 32) for s in (32, 64)]
    return [(FA_TOKENS // s, FA_HIDDEN // d, s, d) for d in (64, 128) for s in (512, 1024, 2048, 4096, 8192, 16384)]


def _backends(torch):
    """[(name, context manager factory or None)]: PyTorch's choice, then each backend forced."""
    backends = [("default", None)]
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return backends
    for name, member in (("flash", "FLASH_ATTENTION"), ("cudnn", "CUDNN_ATTENTION"),
                         ("efficient", "EFFICIENT_ATTENTION")):
        if hasattr(SDPBackend, member):
            backends.append((name, lambda member=member: sdpa_kernel(getattr(SDPBackend, member))))
    return backends


def survey_attention(torch, device, dtype, plan, sizes):
    functional = torch.nn.functional
    if not hasattr(functional, "scaled_dot_product_attention"):
        return {"skipped": f"PyTorch {torch.__version__} has no scaled_dot_product_attention"}
    import contextlib

    rows = []
    for backend, context in _backends(torch):
        if device.type != "cuda" and backend != "default":
            continue
        for batch, heads, seq, head_dim in attention_shapes(sizes):
            for causal in (False, True):
                row = {"backend": backend, "batch": batch, "heads": heads, "seq": seq, "head_dim": head_dim,
                       "causal": causal}
                try:
                    with context() if context else contextlib.nullcontext():
                        q, k, v = (torch.randn(batch, heads, seq, head_dim, device=device, dtype=dtype,
                                               requires_grad=True) for _ in range(3))

                        def attend():
                            return functional.scaled_dot_product_attention(q, k, v, is_causal=causal)

                        with torch.no_grad():
                            forward = measure(attend, plan, device)
                        out = attend()
                        gradient = torch.randn_like(out)
                        backward = measure(lambda: torch.autograd.grad(out, (q, k, v), gradient, retain_graph=True),
                                           plan, device)
                    flops = 4.0 * batch * heads * seq * seq * head_dim * (0.5 if causal else 1.0)
                    row.update({"forward_time_s": forward.median_s, "backward_time_s": backward.median_s,
                                "forward_flops": flops, "forward_flops_per_s": flops / forward.median_s,
                                "backward_flops_per_s": 2.5 * flops / backward.median_s})
                except Exception as error:  # a backend that refuses the shape, dtype or device
                    row["error"] = str(error).splitlines()[0][:300]
                q = k = v = out = gradient = None
                rows.append(row)
    return {"kernel": "torch.nn.functional.scaled_dot_product_attention", "rows": rows}


def fp8_shapes(sizes):
    if sizes == "tiny":
        return [(64, 64, 64)]
    squares = [(d, d, d) for d in (1024, 2048, 4096, 8192, 16384)]
    # Transformer GEMMs, tokens x out over k: Llama 3 8B and 70B (qkv, attention out, MLP up with SwiGLU, MLP down)
    # at 8192 tokens, and GPT-3 175B's at tp 8.
    layers = [(8192, 6144, 4096), (8192, 4096, 4096), (8192, 28672, 4096), (8192, 4096, 14336),
              (8192, 10240, 8192), (8192, 8192, 8192), (8192, 57344, 8192), (8192, 8192, 28672),
              (2048, 4608, 12288), (2048, 12288, 1536), (2048, 6144, 12288), (2048, 12288, 6144)]
    return squares + layers


def survey_fp8_matmul(torch, device, plan, sizes):
    if not hasattr(torch, "_scaled_mm") or not hasattr(torch, "float8_e4m3fn"):
        return {"skipped": f"PyTorch {torch.__version__} has no torch._scaled_mm / float8_e4m3fn"}
    if device.type != "cuda" or torch.cuda.get_device_capability(device) < (8, 9):
        return {"skipped": "fp8 matmuls need a GPU of compute capability 8.9 or more"}
    rows = []
    generator = torch.Generator(device=device).manual_seed(0)
    one = torch.ones((), device=device, dtype=torch.float32)
    for m, n, k in fp8_shapes(sizes):
        row = {"m": m, "n": n, "k": k, "flops": 2.0 * m * n * k}
        try:
            a16 = torch.randn(m, k, device=device, dtype=torch.bfloat16, generator=generator)
            b16 = torch.randn(n, k, device=device, dtype=torch.bfloat16, generator=generator)
            timed = measure(lambda: torch.matmul(a16, b16.t()), plan, device)
            row["bf16_time_s"] = timed.median_s
            a8 = a16.to(torch.float8_e4m3fn)
            b8 = b16.to(torch.float8_e4m3fn).t()  # column-major, as _scaled_mm requires
            for fast in (False, True):
                timed = measure(lambda: torch._scaled_mm(a8, b8, one, one, out_dtype=torch.bfloat16,
                                                         use_fast_accum=fast), plan, device)
                row["fp8_fast_accum_time_s" if fast else "fp8_time_s"] = timed.median_s
        except Exception as error:
            row["error"] = str(error).splitlines()[0][:300]
        a16 = b16 = a8 = b8 = None
        rows.append(row)
    return {"kernel": "torch._scaled_mm (e4m3 x e4m3, per-tensor scales, bf16 out) beside torch.matmul in bf16",
            "rows": rows}


def survey_launch(torch, device, plan):
    """Seconds per kernel of x.add_(1) on one element: eagerly, and replayed from a CUDA graph of 100; and per kernel of
    autograd's backward through a chain of 100 such ops (launched from its C++ engine, not from Python)."""
    x = torch.zeros(1, device=device)
    result = {"kernel": "x.add_(1) on a one-element tensor"}
    eager = measure(lambda: x.add_(1), plan, device)
    result["eager_time_s"] = eager.median_s
    # Backward: the forward chain y = y * 1.0001 (100 kernels) is built, then its backward runs 100 multiplications and
    # the leaf's gradient accumulation; the forward's time, timed alone, is taken off.
    leaf = torch.ones(1, device=device, requires_grad=True)
    chain = 100

    def forward():
        y = leaf
        for _ in range(chain):
            y = y * 1.0001
        return y

    def forward_backward():
        leaf.grad = None
        forward().backward()

    forward_only = measure(forward, plan, device)
    both = measure(forward_backward, plan, device)
    result["backward_chain_kernels"] = chain
    result["backward_time_s"] = max(0.0, both.median_s - forward_only.median_s) / chain
    if device.type != "cuda":
        result["graph"] = "not measured: CUDA graphs need a GPU"
        return result
    try:
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(3):
                x.add_(1)
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(100):
                x.add_(1)
        replay = measure(graph.replay, plan, device)
        result["graph_time_s"] = replay.median_s / 100
    except Exception as error:
        result["graph"] = str(error).splitlines()[0][:300]
    return result


def adamw_cases(sizes):
    """(what the case is, parameter shapes): a few large tensors, where the kernels' bandwidth decides the time, and
    many small ones, where the host's time per tensor does."""
    if sizes == "tiny":
        return [("large tensors", [(128, 1024)] * 8), ("many small tensors", [(256,)] * 64)]
    return [("large tensors", [(4096, 1024)] * 64), ("many small tensors", [(16384,)] * 1024)]


def survey_adamw(torch, device, plan, sizes):
    rows = []
    for case, shapes in adamw_cases(sizes):
        for variant in ("for_loop", "foreach", "fused"):
            parameters = []
            for shape in shapes:
                parameter = torch.nn.Parameter(torch.randn(*shape, device=device, dtype=torch.float32) * 0.02)
                parameter.grad = torch.randn_like(parameter) * 1e-3
                parameters.append(parameter)
            row = {"implementation": variant, "case": case, "parameters": sum(math.prod(s) for s in shapes),
                   "tensors": len(shapes)}
            try:
                options = {"foreach": variant == "foreach"}
                if variant == "fused":
                    options = {"fused": True}
                optimizer = torch.optim.AdamW(parameters, lr=1e-4, weight_decay=0.1, **options)
                row["time_s"] = measure(optimizer.step, plan, device).median_s
            except Exception as error:  # fused needs PyTorch 2.0 (and a GPU before 2.4)
                row["error"] = str(error).splitlines()[0][:300]
            optimizer = parameters = None
            rows.append(row)
    return {"kernel": "torch.optim.AdamW over fp32 parameters: a few large tensors, and many small ones (the host's "
                      "time per tensor)", "rows": rows}


def elementwise_cases(sizes):
    """(rows, width) activations, and (rows, vocabulary) logits."""
    if sizes == "tiny":
        return [(64, 64)], [(64, 512)]
    return [(4096, 4096), (16384, 4096), (8192, 8192)], [(8192, 50304), (4096, 128256)]


def _written_out_rms_norm(torch, x, weight, eps=1e-5):
    """Llama's reference RMSNorm (meta-llama/llama3 model.py, torchtitan's default "rmsnorm"): in fp32, then back."""
    normed = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)
    return normed.type_as(x) * weight


def survey_elementwise(torch, device, dtype, plan, sizes):
    functional = torch.nn.functional
    rows_out = []
    activations, logits = elementwise_cases(sizes)
    for rows, width in activations:
        x = torch.randn(rows, width, device=device, dtype=dtype, requires_grad=True)
        other = torch.randn(rows, width, device=device, dtype=dtype, requires_grad=True)
        weight = torch.ones(width, device=device, dtype=dtype, requires_grad=True)
        bias = torch.zeros(width, device=device, dtype=dtype, requires_grad=True)
        fused_gate_up = torch.randn(rows, 2 * width, device=device, dtype=dtype, requires_grad=True)
        kernels = [
            ("layer_norm", lambda: functional.layer_norm(x, (width,), weight, bias), (x, weight, bias)),
            ("rms_norm_written_out", lambda: _written_out_rms_norm(torch, x, weight), (x, weight)),
            ("gelu", lambda: functional.gelu(x), (x,)),
            ("swiglu_separate", lambda: functional.silu(x) * other, (x, other)),
            ("swiglu_chunked", lambda: (lambda g, u: functional.silu(g) * u)(*fused_gate_up.chunk(2, dim=-1)),
             (fused_gate_up,)),
            ("residual_add", lambda: x + other, (x, other)),
            ("bias_dropout_residual", lambda: other + functional.dropout(x + bias, p=0.1, training=True),
             (x, other, bias)),
        ]
        if hasattr(functional, "rms_norm"):
            kernels.insert(2, ("rms_norm", lambda: functional.rms_norm(x, (width,), weight), (x, weight)))
        for name, function, inputs in kernels:
            row = {"kernel": name, "rows": rows, "width": width, "element_bytes": x.element_size()}
            try:
                with torch.no_grad():
                    row["forward_time_s"] = measure(function, plan, device).median_s
                out = function()
                gradient = torch.randn_like(out)
                row["backward_time_s"] = measure(
                    lambda: torch.autograd.grad(out, inputs, gradient, retain_graph=True), plan, device).median_s
            except Exception as error:
                row["error"] = str(error).splitlines()[0][:300]
            out = gradient = None
            rows_out.append(row)
        x = other = weight = bias = fused_gate_up = None
    for rows, vocabulary in logits:
        row = {"kernel": "cross_entropy_fp32", "rows": rows, "width": vocabulary,
               "element_bytes": torch.tensor([], dtype=dtype).element_size()}
        try:
            scores = torch.randn(rows, vocabulary, device=device, dtype=dtype, requires_grad=True)
            targets = torch.randint(0, vocabulary, (rows,), device=device)

            def loss():
                return functional.cross_entropy(scores.float(), targets)

            with torch.no_grad():
                row["forward_time_s"] = measure(loss, plan, device).median_s
            out = loss()
            row["backward_time_s"] = measure(lambda: torch.autograd.grad(out, (scores,), retain_graph=True), plan,
                                             device).median_s
        except Exception as error:
            row["error"] = str(error).splitlines()[0][:300]
        scores = targets = out = None
        rows_out.append(row)
    return {"kernels": "eager PyTorch; the forward under no_grad, the backward through autograd.grad", "rows": rows_out}


def weight_gradient_shapes(sizes):
    """(tokens, inputs, outputs): dW = Xᵀ · dY is an inputs × outputs GEMM over the tokens."""
    if sizes == "tiny":
        return [(256, 32, 32)]
    layers = [(768, 768), (768, 3072), (3072, 768), (1024, 1024), (2048, 2048), (4096, 4096), (4096, 14336)]
    return [(tokens, m, n) for m, n in layers for tokens in (2048, 8192, 32768)]


def survey_weight_gradient(torch, device, dtype, plan, sizes):
    rows = []
    generator = torch.Generator(device=device).manual_seed(0)
    for tokens, inputs, outputs in weight_gradient_shapes(sizes):
        row = {"tokens": tokens, "inputs": inputs, "outputs": outputs, "flops": 2.0 * tokens * inputs * outputs}
        try:
            x = torch.randn(tokens, inputs, device=device, dtype=dtype, generator=generator)
            dy = torch.randn(tokens, outputs, device=device, dtype=dtype, generator=generator)
            row["time_s"] = measure(lambda: torch.matmul(x.t(), dy), plan, device).median_s
        except Exception as error:
            row["error"] = str(error).splitlines()[0][:300]
        x = dy = None
        rows.append(row)
    return {"kernel": "torch.matmul(X.t(), dY), X [tokens x inputs], dY [tokens x outputs]", "rows": rows}


SURVEY_ITEMS = ["attention", "fp8_matmul", "launch", "adamw", "elementwise", "weight_gradient", "training_step"]


def run_survey(torch, device, dtype, sizes, items, report):
    """The survey's `items` (names from SURVEY_ITEMS), each measured on its own."""
    plan = survey_plan(sizes)
    measurements = {"attention": lambda: survey_attention(torch, device, dtype, plan, sizes),
                    "fp8_matmul": lambda: survey_fp8_matmul(torch, device, plan, sizes),
                    "launch": lambda: survey_launch(torch, device, plan),
                    "adamw": lambda: survey_adamw(torch, device, plan, sizes),
                    "elementwise": lambda: survey_elementwise(torch, device, dtype, plan, sizes),
                    "weight_gradient": lambda: survey_weight_gradient(torch, device, dtype, plan, sizes),
                    "training_step": lambda: survey_training_step(torch, device, dtype, plan, sizes)}
    survey = {}
    for name in items:
        measure_item = measurements[name]
        try:
            survey[name] = measure_item()
        except Exception as error:  # recorded, so that the other items and the preset are still written
            survey[name] = {"error": str(error).splitlines()[0][:300]}
        if device.type == "cuda":
            torch.cuda.empty_cache()
        state = survey[name].get("skipped") or survey[name].get("error") or f"{len(survey[name].get('rows', [1]))} measured"
        report(f"  survey {name}: {state}")
    return survey
