"""presets/devices/h100-sxm-measured.yaml against the raw measurements it was written from
(tests/data/calibration/h100-sxm-2026-11-27/calibration.json): every measured number of the preset, and every figure
its comments quote, is recomputed here from the raw times with parasight-calibrate's own code (app/calibrate), so a
preset edited by hand, or a change to how the tool computes a number, shows.
The optimizer step's measured shares of the copy's bandwidth are recomputed too, and must be the ones
core/model/model_states.cpp gives.
Run as: python3 measured_preset_test.py APP_CALIBRATE_DIR PRESET.yaml CALIBRATION.json MODEL_STATES.cpp"""

import json
import statistics
import sys

sys.path.insert(0, sys.argv[1])
import attention  # noqa: E402
import device_preset  # noqa: E402
import matmul  # noqa: E402
import preset_reader  # noqa: E402
from quantities import parse_quantity  # noqa: E402

with open(sys.argv[2], encoding="utf-8") as file:
    preset_text = file.read()
preset, _ = preset_reader.parse_preset(preset_text, sys.argv[2])
with open(sys.argv[3], encoding="utf-8") as file:
    raw = json.load(file)


def same(actual, written, what, digits=3):
    """`written` is `actual` rounded to `digits` significant digits."""
    if float(f"{actual:.{digits}g}") != float(written):
        raise SystemExit(f"FAIL {what}: the raw data give {actual!r}, the preset says {written}")


def quoted(text, what):
    if text not in preset_text:
        raise SystemExit(f"FAIL {what}: the preset's comments do not say '{text}'")


peak = parse_quantity(preset["peak"]["bf16"], "compute rate", "bf16 peak")
fp8_peak = parse_quantity(preset["peak"]["fp8"], "compute rate", "fp8 peak")
bandwidth = parse_quantity(preset["memory_bandwidth"], "bandwidth", "memory_bandwidth")
sms = int(preset["streaming_multiprocessors"])
if sms != raw["device"]["streaming_multiprocessors"]:
    raise SystemExit(f"FAIL streaming_multiprocessors {sms}, measured {raw['device']['streaming_multiprocessors']}")
if preset["memory"] != f"{raw['device']['memory_bytes'] // 2**20} MiB":
    raise SystemExit(f"FAIL memory {preset['memory']}, measured {raw['device']['memory_bytes']} B")

# The matmul model fitted again to the 26 measured shapes.
points = [(r["m"], r["n"], r["k"], sms, r["flops_per_s"] / peak) for r in raw["matmul"]]
efficiency, half_dim, rms = matmul.fit_efficiency(points)
same(efficiency, preset["matmul_efficiency"], "matmul_efficiency", 2)
same(half_dim, preset["matmul_half_dim"], "matmul_half_dim")
quoted(f"rms error {rms:.2f}", "the fit's rms error")

# Copies: the best bandwidth over the datasheet's.
best_copy = max(r["bandwidth_Bps"] for r in raw["memory_copy"])
same(best_copy / bandwidth, preset["memory_efficiency"], "memory_efficiency")
quoted(f"best copy {best_copy / 1e9:.0f} GB/s", "the best copy")

# Attention: the median over the tool's shapes of ParaSight's FLOPs over time, over the peak and the shape factor.
attention_efficiency = statistics.median(
    s["flops_per_s"] / peak / attention.shape_factor(s["batch"] * s["heads"], s["seq"], s["seq"], s["head_dim"], sms)
    for s in raw["attention"]["shapes"])
same(attention_efficiency, preset["attention_efficiency"], "attention_efficiency")


def survey_attention(backend):
    """attention_efficiency as one SDPA backend gives it: the median over the survey's shapes (both widths, every
    sequence, with and without the causal mask) of ParaSight's FLOPs for the kernel over its time, the peak and the
    shape factor. With the mask a query computes keys / 2 + 64 keys (core/model/layer_operations.cpp)."""
    efficiencies = []
    for r in raw["survey"]["attention"]["rows"]:
        if r["backend"] != backend:
            continue
        keys = min(r["seq"], r["seq"] / 2 + 64) if r["causal"] else r["seq"]
        flops = 3.5 * 4.0 * r["batch"] * r["heads"] * r["seq"] * keys * r["head_dim"]
        factor = attention.shape_factor(r["batch"] * r["heads"], r["seq"], keys, r["head_dim"], sms)
        efficiencies.append(flops / (r["forward_time_s"] + r["backward_time_s"]) / peak / factor)
    return statistics.median(efficiencies)


quoted(f"FlashAttention-2 backend reached {survey_attention('flash'):.3f}", "FlashAttention-2's share")
quoted(f"memory-efficient one {survey_attention('efficient'):.3f}", "the memory-efficient backend's share")

# fp8 against bf16 on the transformer shapes (every shape but the squares).
fp8, bf16, shape_count = device_preset.fp8_gemm_shares(raw["survey"]["fp8_matmul"], fp8_peak, peak)
layers = [r for r in raw["survey"]["fp8_matmul"]["rows"] if not r["m"] == r["n"] == r["k"]]
fast = statistics.mean(r["flops"] / r["fp8_fast_accum_time_s"] / fp8_peak for r in layers)
quoted(f"on {shape_count} transformer GEMM shapes", "the fp8 shape count")
same(efficiency * fp8 / bf16, preset["fp8_matmul_efficiency"], "fp8_matmul_efficiency")
quoted(f"reached {fp8:.3f} of it ({fast:.3f} with fast", "fp8's share")
quoted(f"bf16 reached {bf16:.3f} of its own", "bf16's share")
# The optimizer step: each implementation's AdamW kernels over fp32 parameters, their bytes (28 fused, 84 as PyTorch's
# eight separate kernels) over the time, over the best copy's bandwidth — the shares model_states.cpp returns.
with open(sys.argv[4], encoding="utf-8") as file:
    model_states = file.read()
adamw_bytes = {"fused": 28.0, "foreach": 84.0, "for_loop": 84.0}
enumerator = {"fused": "fused", "foreach": "foreach_kernels", "for_loop": "for_loop"}
for r in raw["survey"]["adamw"]["rows"]:
    if r.get("case", "large tensors") != "large tensors":  # the many small tensors time the host, not the kernels
        continue
    share = adamw_bytes[r["implementation"]] * r["parameters"] / r["time_s"] / best_copy
    line = f"case OptimizerImplementation::{enumerator[r['implementation']]}: return {share:.3f};"
    if line not in model_states:
        raise SystemExit(f"FAIL the {r['implementation']} optimizer step's share: model_states.cpp lacks '{line}'")
print("ok")
