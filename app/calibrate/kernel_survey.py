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
  launch       the time per kernel of a tiny elementwise kernel launched eagerly and replayed from a CUDA graph: the
               host's launch floor that eager training pays on every short kernel.
  adamw        AdamW's step over the same fp32 parameters in each implementation PyTorch has (foreach, fused).

Each item is measured on its own; one that PyTorch or the device lacks is recorded with the reason, never an abort.
"""

import math

from timing import TimingPlan, measure

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
    """Seconds per kernel of x.add_(1) on one element: eagerly, and replayed from a CUDA graph of 100."""
    x = torch.zeros(1, device=device)
    result = {"kernel": "x.add_(1) on a one-element tensor"}
    eager = measure(lambda: x.add_(1), plan, device)
    result["eager_time_s"] = eager.median_s
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


def survey_adamw(torch, device, plan, sizes):
    shapes = [(128, 1024)] * 8 if sizes == "tiny" else [(4096, 1024)] * 64
    rows = []
    for variant in ("for_loop", "foreach", "fused"):
        parameters = []
        for shape in shapes:
            parameter = torch.nn.Parameter(torch.randn(*shape, device=device, dtype=torch.float32) * 0.02)
            parameter.grad = torch.randn_like(parameter) * 1e-3
            parameters.append(parameter)
        row = {"implementation": variant, "parameters": sum(math.prod(s) for s in shapes)}
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
    return {"kernel": "torch.optim.AdamW over fp32 parameters", "rows": rows}


def run_survey(torch, device, dtype, sizes, report):
    plan = survey_plan(sizes)
    survey = {}
    for name, measure_item in (("attention", lambda: survey_attention(torch, device, dtype, plan, sizes)),
                               ("fp8_matmul", lambda: survey_fp8_matmul(torch, device, plan, sizes)),
                               ("launch", lambda: survey_launch(torch, device, plan)),
                               ("adamw", lambda: survey_adamw(torch, device, plan, sizes))):
        try:
            survey[name] = measure_item()
        except Exception as error:  # recorded, so that the other items and the preset are still written
            survey[name] = {"error": str(error).splitlines()[0][:300]}
        if device.type == "cuda":
            torch.cuda.empty_cache()
        state = survey[name].get("skipped") or survey[name].get("error") or f"{len(survey[name].get('rows', [1]))} measured"
        report(f"  survey {name}: {state}")
    return survey
