"""The device and the cluster's dimensions as ParaSight reads them (docs/scenario-reference.md, cluster.device and
cluster.topology), computed from the measurements, each number with the comment that names its source."""

import os
import platform
import statistics

import attention
import matmul
import memory
import optimizer_step
import quantities as q
from errors import MeasurementError


def device_name(ctx, args):
    if args.name:
        return args.name
    torch = ctx.torch
    if ctx.device.type == "cuda":
        return torch.cuda.get_device_name(ctx.device)
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as file:
            for line in file:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    threads = torch.get_num_threads()
    return f"{model} ({threads} thread{'' if threads == 1 else 's'})"


def memory_capacity(ctx):
    """(bytes, how it was found)."""
    if ctx.device.type == "cuda":
        properties = ctx.torch.cuda.get_device_properties(ctx.device)
        return properties.total_memory, f"total memory torch.cuda reports for device {ctx.device.index}"
    try:
        return (os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"),
                "this host's physical memory, os.sysconf")
    except (ValueError, OSError):
        raise MeasurementError("cannot read this host's memory size (os.sysconf SC_PHYS_PAGES)") from None


def streaming_multiprocessors(ctx):
    """The GPU's SM count; None on a CPU."""
    if ctx.device.type == "cuda":
        return ctx.torch.cuda.get_device_properties(ctx.device).multi_processor_count
    return None


def clamp(value, low, high):
    """(value within [low, high], a note saying so when it was not)."""
    if value < low or value > high:
        limited = min(max(value, low), high)
        return limited, (f"; the measurement gave {q.format_number(value)}, clamped to ParaSight's range "
                         f"{q.format_number(low)} - {q.format_number(high)}")
    return value, ""


def measure_device(ctx, base, report):
    """Every device measurement, and the device mapping computed from them."""
    torch = ctx.torch
    results = {}
    dtype = ctx.dtype_name
    report(f"matmul ({dtype}, torch.matmul):")
    matmuls = matmul.measure_matmuls(torch, ctx.device, ctx.dtype, ctx.plan, ctx.sizes)
    for entry in matmuls:
        report(f"  {entry['m']:>6} x {entry['n']:>6} x {entry['k']:>6}   {q.format_time(entry['time_s']):>10}   "
               f"{q.format_compute_rate(entry['flops_per_s'])}")
    best_matmul = max(matmuls, key=lambda entry: entry["flops_per_s"])
    peak = base.peaks_flops_per_s[dtype] if base else best_matmul["flops_per_s"]
    sms = streaming_multiprocessors(ctx)
    points = [(entry["m"], entry["n"], entry["k"], sms, entry["flops_per_s"] / peak) for entry in matmuls]
    efficiency, half_dim, rms = matmul.fit_efficiency(points)
    for entry in matmuls:
        entry["efficiency"] = entry["flops_per_s"] / peak
    results["matmul"] = matmuls
    results["matmul_fit"] = {"matmul_efficiency": efficiency, "matmul_half_dim": half_dim, "rms_error": rms,
                             "peak_flops_per_s": peak, "peak_source": base.label if base else "best measured"}

    report("memory bandwidth (copies, read + write counted):")
    copies = memory.measure_copies(torch, ctx.device, ctx.plan, ctx.sizes)
    for entry in copies:
        report(f"  {q.format_size(entry['size_bytes']):>10}   {q.format_time(entry['time_s']):>10}   "
               f"{q.format_bandwidth(entry['bandwidth_Bps'])}")
    best_copy = max(copies, key=lambda entry: entry["bandwidth_Bps"])
    bandwidth = base.memory_bandwidth_Bps if base else best_copy["bandwidth_Bps"]
    results["memory_copy"] = copies

    report(f"elementwise kernels ({dtype}):")
    elementwise = memory.measure_elementwise(torch, ctx.device, ctx.dtype, ctx.plan, ctx.sizes, dropout=0.1)
    for entry in elementwise:
        entry["share_of_memory_bandwidth"] = entry["bandwidth_Bps"] / bandwidth
        report(f"  {entry['kernel']:17} {entry['shape'][0]} x {entry['shape'][1]}   "
               f"{q.format_time(entry['time_s']):>10}   {q.format_bandwidth(entry['bandwidth_Bps'])} "
               f"({entry['share_of_memory_bandwidth']:.0%} of memory_bandwidth)")
    results["elementwise"] = elementwise

    report(f"attention ({attention.kernel_description(torch)}):")
    attentions = attention.measure_attention(torch, ctx.device, ctx.dtype, ctx.plan, ctx.sizes)
    for entry in attentions:
        entry["efficiency"] = entry["flops_per_s"] / peak
        entry["shape_factor"] = attention.shape_factor(entry["batch"] * entry["heads"], entry["seq"], entry["seq"],
                                                       entry["head_dim"], sms)
        report(f"  b {entry['batch']} a {entry['heads']} s {entry['seq']} d {entry['head_dim']}   forward "
               f"{q.format_time(entry['forward_time_s'])}, backward {q.format_time(entry['backward_time_s'])}   "
               f"{entry['efficiency']:.3f} of peak, {entry['efficiency'] / entry['shape_factor']:.3f} for long "
               "sequences at width 128")
    results["attention"] = {"kernel": attention.kernel_description(torch),
                            "fused": attention.has_fused_attention(torch), "shapes": attentions}
    attention_efficiency = statistics.median(entry["efficiency"] / entry["shape_factor"] for entry in attentions)

    report("optimizer step (torch.optim.AdamW, fp32):")
    step = optimizer_step.measure_adamw(torch, ctx.device, ctx.plan, optimizer_step.generic_shapes(ctx.sizes))
    step["share_of_memory_bandwidth"] = step["bandwidth_Bps"] / bandwidth
    report(f"  {step['parameters']:,} parameters in {step['tensors']} tensors   {q.format_time(step['time_s'])}   "
           f"{q.format_bandwidth(step['bandwidth_Bps'])} at 28 B per parameter "
           f"({step['share_of_memory_bandwidth']:.0%} of memory_bandwidth)")
    results["optimizer_step"] = step

    # The device mapping.
    matmul_dims = sorted({entry["min_dim"] for entry in matmuls})
    shapes_text = f"{len(matmuls)} {dtype} torch.matmul shapes, smallest dimension d {matmul_dims[0]}-{matmul_dims[-1]}"
    if base:
        peaks = [(name, base.peak_texts[name], f"{base.label}: {base.peak_sources[name] or 'its value'}")
                 for name in base.peaks_flops_per_s]
        bandwidth_entry = ("memory_bandwidth", base.bandwidth_text,
                           f"{base.label}: {base.bandwidth_source or 'its value'}")
    else:
        peaks = [(dtype, q.format_compute_rate(peak), ctx.measured(
            f"best of {shapes_text}, at {best_matmul['m']} x {best_matmul['n']} x {best_matmul['k']}, "
            f"{ctx.median_of()}; no --base-device, so it stands for the datasheet peak"))]
        bandwidth_entry = ("memory_bandwidth", q.format_bandwidth(bandwidth), ctx.measured(
            f"best copy, read + write counted, at {q.format_size(best_copy['size_bytes'])}, {ctx.median_of()}; no "
            "--base-device, so it stands for the datasheet bandwidth"))
    capacity_bytes, capacity_how = memory_capacity(ctx)
    mebibytes = capacity_bytes / 2**20
    memory_text = f"{mebibytes:.0f} MiB" if mebibytes >= 1 else f"{capacity_bytes} B"

    matmul_efficiency, matmul_note = clamp(efficiency, 0.01, 1.0)
    half_dim, half_note = clamp(half_dim, 0.0, 1e6)
    against = f"/ {'the datasheet peak of ' + base.label if base else 'the measured peak above'}"
    copy_efficiency = best_copy["bandwidth_Bps"] / bandwidth
    memory_efficiency, memory_note = clamp(copy_efficiency, 0.01, 1.0)
    attention_value, attention_note = clamp(attention_efficiency, 0.01, 1.0)
    elementwise_shares = [entry["share_of_memory_bandwidth"] for entry in elementwise]
    kernel = ("fused scaled_dot_product_attention" if attention.has_fused_attention(torch) else
              "explicit softmax(Q K^T / sqrt(d)) V, no fused kernel in this PyTorch")
    fields = [("memory", memory_text, ctx.measured(capacity_how))]
    if ctx.context_bytes is not None:
        fields.append(("context_memory", f"{ctx.context_bytes / 2**20:.0f} MiB", ctx.measured(
            "device memory in use after the first tensor, torch.cuda.mem_get_info, less what PyTorch's allocator "
            "reserved: the CUDA context and its kernels, and anything else on this GPU at the time")))
    fields += [
        bandwidth_entry,
        ("matmul_efficiency", q.format_number(matmul_efficiency, 3), ctx.measured(
            f"least-squares fit of E * tile fill * speed * (k/s) / (k/s + H) to achieved FLOP/s {against} over {shapes_text}, "
            f"{ctx.median_of()} each; rms error {q.format_number(rms, 2)}{matmul_note}")),
        ("matmul_half_dim", q.format_number(half_dim, 3), ctx.measured(f"H of the same fit{half_note}")),
    ]
    if sms:
        fields.append(("streaming_multiprocessors", str(sms), ctx.measured(
            "multi_processor_count, as torch.cuda.get_device_properties reports it")))
    fields += [
        ("memory_efficiency", q.format_number(memory_efficiency, 3), ctx.measured(
            f"best copy {q.format_bandwidth(best_copy['bandwidth_Bps'])} at "
            f"{q.format_size(best_copy['size_bytes'])}, read + write counted, {ctx.median_of()}, / "
            f"{'the datasheet ' + q.format_bandwidth(bandwidth) if base else 'itself: 1 by construction'}; "
            f"LayerNorm, GeLU, dropout + residual and softmax reached {q.format_number(min(elementwise_shares), 2)}-"
            f"{q.format_number(max(elementwise_shares), 2)} of memory_bandwidth{memory_note}")),
        ("attention_efficiency", q.format_number(attention_value, 3), ctx.measured(
            f"{kernel}, forward + backward without mask, ParaSight's 3.5 * 4 b a s^2 d FLOPs / time {against} / "
            f"its shape factor (128-query blocks' fill, s / (s + 400), width), median over {len(attentions)} shapes, "
            f"{ctx.median_of()} each{attention_note}")),
    ]
    device = {"name": None, "peak": peaks, "fields": fields}
    summary = {"peak_flops_per_s": peak, "memory_bandwidth_Bps": bandwidth, "memory_bytes": capacity_bytes,
               "matmul_efficiency": matmul_efficiency, "matmul_half_dim": half_dim, "streaming_multiprocessors": sms,
               "memory_efficiency": memory_efficiency, "attention_efficiency": attention_value}
    return device, summary, results


def topology_entries(ctx, measured):
    """(comment lines, flow mapping, line comment) per measured dimension."""
    entries = []
    for dimension in measured["results"]:
        size = dimension["size"]
        points = dimension["points"]
        comments = [
            f"dimension {dimension['dimension']}: {dimension['groups']} "
            f"group{'' if dimension['groups'] == 1 else 's'} of {size} ranks at once (rank 0's: "
            f"{', '.join(map(str, dimension['group_of_rank_0'][:8]))}{', ...' if size > 8 else ''}), "
            f"{measured['backend']} all-reduce of fp32 buffers "
            f"{q.format_size(points[0]['size_bytes'])} - {q.format_size(points[-1]['size_bytes'])}, "
            f"the slowest rank's {ctx.median_of()}.",
            f"bandwidth: the best bus bandwidth (nccl-tests: algbw * 2(n-1)/n), at "
            f"{q.format_size(dimension['bus_bandwidth_at_bytes'])}; it is what collectives reach, so efficiency 1.",
            f"latency: per hop, so that ParaSight's ring all-reduce (2(n-1) steps of 2 hops) of "
            f"{q.format_size(dimension['smallest_bytes'])} takes the measured "
            f"{q.format_time(dimension['smallest_time_s'])}.",
        ]
        bandwidth, bandwidth_note = clamp(dimension["bus_bandwidth_Bps"], 1e3, 1e15)
        latency, latency_note = clamp(dimension["latency_s"], 0.0, 1.0)
        if bandwidth_note or latency_note:
            comments.append(f"clamped to ParaSight's ranges:{bandwidth_note}{latency_note}".replace(":;", ":"))
        latency_text = q.format_time(latency) if latency > 0 else "0 us"
        mapping = (f"{{kind: switch, size: {size}, bandwidth: {q.format_bandwidth(bandwidth)}, "
                   f"latency: {latency_text}, algorithm: ring, efficiency: 1}}")
        entries.append((comments, mapping, ctx.measured(
            f"{measured['backend']} all-reduce, {len(points)} sizes, {ctx.median_of()}")))
    return entries


def fp8_gemm_shares(survey_fp8, fp8_peak, bf16_peak):
    """(fp8 share, bf16 share, shapes): the mean over the survey's transformer GEMM shapes (the squares left out) of
    each one's achieved rate over its dtype's peak, fp8 without fast accumulation (as Transformer Engine runs the
    backward's GEMMs); None when the survey measured no fp8 GEMM."""
    rows = [r for r in (survey_fp8 or {}).get("rows", [])
            if "fp8_time_s" in r and "bf16_time_s" in r and not r["m"] == r["n"] == r["k"]]
    if not rows:
        return None
    fp8 = sum(r["flops"] / r["fp8_time_s"] / fp8_peak for r in rows) / len(rows)
    bf16 = sum(r["flops"] / r["bf16_time_s"] / bf16_peak for r in rows) / len(rows)
    return fp8, bf16, len(rows)


def fp8_matmul_field(survey_fp8, matmul_efficiency, base, ctx):
    """The device's fp8_matmul_efficiency entry — matmul_efficiency x the fp8 GEMMs' share of the fp8 peak over the
    bf16 GEMMs' share of theirs — or None: without fp8 GEMMs in the survey, or without a --base-device giving the fp8
    and bf16 peaks the shares are taken of."""
    if not base or "fp8" not in base.peaks_flops_per_s or "bf16" not in base.peaks_flops_per_s:
        return None
    shares = fp8_gemm_shares(survey_fp8, base.peaks_flops_per_s["fp8"], base.peaks_flops_per_s["bf16"])
    if shares is None:
        return None
    fp8, bf16, shapes = shares
    value, note = clamp(matmul_efficiency * fp8 / bf16, 0.01, 1.0)
    return ("fp8_matmul_efficiency", q.format_number(value, 3), ctx.measured(
        f"--survey: matmul_efficiency x the fp8 GEMMs' share of the fp8 peak over the bf16 GEMMs' share of theirs on "
        f"the same {shapes} transformer shapes, {q.format_number(matmul_efficiency, 3)} x {fp8:.3f} / {bf16:.3f} (e4m3 "
        f"torch._scaled_mm, per-tensor scales, without fast accumulation){note}"))


def field_index(device, key):
    """The position of `key` among the device preset's fields."""
    return next(i for i, field in enumerate(device["fields"]) if field[0] == key)



# A training-step row is host-bound where replaying its kernels from CUDA graphs takes at most this share of the eager
# step: the GPU then waits on the host for most of the eager step.
HOST_BOUND_GRAPH_SHARE = 0.75


def kernel_launch_fields(survey_launch, survey_step, ctx):
    """The device's kernel_launch entry — the median over the training_step survey's host-bound rows of the eager
    step's time over the kernels it launched (layers x the kernels torch.profiler counted in one layer forward and
    backward) — and graph_kernel_launch (a kernel replayed from a CUDA graph, the launch survey); [] without them."""
    fields = []
    if survey_step and "stacks" in survey_step:
        kernels = {stack["stack"]: stack["layers"] * (stack["forward_kernels"] + stack["backward_kernels"])
                   for stack in survey_step["stacks"] if "forward_kernels" in stack and "backward_kernels" in stack}
        per_kernel = [row["eager_time_s"] / kernels[row["stack"]] for row in survey_step["rows"]
                      if row["stack"] in kernels and "graph_time_s" in row
                      and row["graph_time_s"] <= HOST_BOUND_GRAPH_SHARE * row["eager_time_s"]]
        if per_kernel:
            value = statistics.median(per_kernel)
            fields.append(("kernel_launch", q.format_time(value), ctx.measured(
                f"--survey: the median over {len(per_kernel)} host-bound eager training steps (their CUDA-graph "
                f"replay at most {HOST_BOUND_GRAPH_SHARE:g} of the eager time) of the step's time over the kernels it "
                f"launched ({', '.join(f'{name} {count}' for name, count in kernels.items())} a step)")))
    if survey_launch and "graph_time_s" in survey_launch:
        fields.append(("graph_kernel_launch", q.format_time(survey_launch["graph_time_s"]), ctx.measured(
            "--survey: x.add_(1) on one element replayed from a CUDA graph of 100")))
    return fields
