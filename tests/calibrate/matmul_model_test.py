"""parasight-calibrate's matmul model (app/calibrate/matmul.py) against the numbers test_matmul_tiles works out by
hand for ParaSight's own (core/device/matmul_tiles.cpp): the two must agree, or the fitted device would mean
something else in the simulation. Also the fp8_matmul_efficiency the tool writes from its survey's fp8 GEMMs
(app/calibrate/device_preset.py), worked by hand. Run as: python3 matmul_model_test.py APP_CALIBRATE_DIR"""

import sys

sys.path.insert(0, sys.argv[1])
import attention  # noqa: E402
import device_preset  # noqa: E402
import matmul  # noqa: E402


def near(actual, expected, what):
    if abs(actual - expected) > 1e-12 * abs(expected):
        raise SystemExit(f"FAIL {what}: {actual!r}, expected {expected!r}")


# Tile speed: operand reuse against 256 x 128's (128 x 128: 0.75; 64 x 64: 0.375).
near(matmul.tile_speed((128, 128)), 0.75, "128 x 128 speed")
near(matmul.tile_speed((64, 64)), 0.375, "64 x 64 speed")
# The guide's wave example: 1536 x 2432 in 256 x 128 tiles on 108 SMs, 114 tiles in 2 waves.
near(matmul.tile_fill(1, 1536, 2432, (256, 128), 108), 3735552 / 7077888, "two waves")
# 1536 x 2432 over k 1024, tiles' fixed cost 128 of k: 0.528 · 1024/1152 (256 x 128 and 128 x 128 tie).
near(matmul.shape_factor(1536, 2432, 1024, 108, 128), 3735552 / 7077888 * 1024 / 1152, "tied tiles")
# 1280 x 2048 over k 4096: 80 tiles of 256 x 128, so 4 slices of k: 320 tiles in 3 waves.
near(matmul.shape_factor(1280, 2048, 4096, 108, 128), 10485760 / 10616832 * 1024 / 1152, "split-K")
# ResNet-50's first weight gradient, 147 x 64 over 802 816: 64 x 64 tiles in 32 slices.
near(matmul.shape_factor(147, 64, 802816, 108, 128), 301056 / 442368 * 0.375 * 25088 / 25216, "narrow")
# No SMs (a CPU): the depth alone.
near(matmul.shape_factor(1536, 2432, 1024, None, 128), 1024 / 1152, "no SMs")
# The fit recovers the parameters of efficiencies made by the model itself.
shapes = [(1024, 1024, 1024), (8192, 8192, 64), (512, 4096, 4096), (8192, 8192, 8192), (147, 64, 802816)]
points = [(m, n, k, 108, 0.8 * matmul.shape_factor(m, n, k, 108, 100.0)) for m, n, k in shapes]
efficiency, half_dim, rms = matmul.fit_efficiency(points)
near(efficiency, 0.8, "fitted efficiency")
if abs(half_dim - 100.0) > 1e-6 or rms > 1e-12:
    raise SystemExit(f"FAIL fitted half dim {half_dim!r}, rms {rms!r}")
# The fused attention's shape factor, as test_matmul_tiles works it for ParaSight's: 8 problems of 2048 queries on 108
# SMs fill 128 / 216 of two waves, at 2048 / 2448 for their keys; 27 of 512 at width 64 fill one wave.
near(attention.shape_factor(8, 2048, 2048, 128, 108), 128 / 216 * 2048 / 2448, "attention, two waves")
near(attention.shape_factor(27, 512, 512, 64, 108), 512 / 912 * (64 / 96) / (128 / 160), "attention, width 64")
near(attention.shape_factor(27, 512, 512, 64, None), 1.0, "attention without SMs")


# fp8_matmul_efficiency from the survey: a square (left out) and two transformer shapes on a device of fp8 peak 2e15 and
# bf16 peak 1e15 FLOP/s. Shape A, 2e12 FLOPs: fp8 in 2 ms, 1e15 FLOP/s, 0.5 of its peak; bf16 in 3.2 ms, 0.625.
# Shape B, 1e12 FLOPs: fp8 in 1.25 ms, 0.4; bf16 in 2 ms, 0.5. Means 0.45 and 0.5625: with matmul_efficiency 0.7,
# 0.7 x 0.45 / 0.5625 = 0.56.
class Peaks:
    def __init__(self, peaks):
        self.peaks_flops_per_s = peaks


class Context:
    def measured(self, what):
        return f"measured ({what})"


survey = {"rows": [{"m": 4096, "n": 4096, "k": 4096, "flops": 1.4e11, "bf16_time_s": 1.0, "fp8_time_s": 1.0},
                   {"m": 8192, "n": 6144, "k": 4096, "flops": 2e12, "bf16_time_s": 3.2e-3, "fp8_time_s": 2e-3},
                   {"m": 8192, "n": 4096, "k": 4096, "flops": 1e12, "bf16_time_s": 2e-3, "fp8_time_s": 1.25e-3}]}
hopper = Peaks({"bf16": 1e15, "fp8": 2e15})
fp8, bf16, count = device_preset.fp8_gemm_shares(survey, 2e15, 1e15)
near(fp8, 0.45, "fp8 share")
near(bf16, 0.5625, "bf16 share")
field = device_preset.fp8_matmul_field(survey, 0.7, hopper, Context())
if field[0] != "fp8_matmul_efficiency" or field[1] != "0.56" or "same 2 transformer shapes" not in field[2]:
    raise SystemExit(f"FAIL fp8_matmul_efficiency entry {field!r}")
# Nothing to write: the survey skipped fp8 (no GPU of compute capability 8.9), no --base-device, or one without an
# fp8 peak (an A100).
for case, arguments in (("skipped survey", ({"skipped": "fp8 matmuls need a GPU"}, 0.7, hopper)),
                        ("no base device", (survey, 0.7, None)),
                        ("no fp8 peak", (survey, 0.7, Peaks({"bf16": 1e15})))):
    if device_preset.fp8_matmul_field(*arguments, Context()) is not None:
        raise SystemExit(f"FAIL {case}: an fp8_matmul_efficiency entry was written")
print("ok")
