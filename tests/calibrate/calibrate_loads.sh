#!/usr/bin/env bash
# parasight-calibrate end to end on this machine's CPU: it measures at tiny sizes with 2 gloo processes, and
# parasight-cli loads what it wrote — a scenario whose cluster is cluster.yaml and whose operation times are
# measured-operations.csv validates and simulates, and scaling the table's times by 10 scales the simulated compute
# by 10 (so the table was read). Also: the device of a run against a datasheet (--base-device), and user errors
# refused with their message and status 2, never a Python traceback.
#   calibrate_loads.sh PARASIGHT_CLI [PARASIGHT_CALIBRATE]
# Needs Debian's python3 with PyTorch (python3-torch, which `make test` installs); the tool runs on /usr/bin/python3,
# as Debian's packaged scripts do, whatever other python3 comes first on PATH.
set -euo pipefail
cli=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tool=${2:-$root/app/calibrate/parasight-calibrate}
started=$SECONDS

# shellcheck source=../common/script_failures.sh
source "$(dirname "$0")/../common/script_failures.sh"

if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
    fail "/usr/bin/python3 cannot import torch: install python3-torch (make test does)"
fi
[ -x "$cli" ] || fail "'$cli' is not an executable parasight-cli"
[ -x "$tool" ] || fail "'$tool' is not an executable parasight-calibrate"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A model small enough for a CPU, as a file (the model presets are read the same way, through parasight-cli).
model_fields='kind: transformer, layers: 2, hidden: 64, heads: 4, ffn_hidden: 256, seq_len: 32, vocab: 1024'
printf 'name: tiny GPT\n%s\n' "$(echo "$model_fields" | sed 's/, /\n/g')" >"$work/tiny-model.yaml"

echo "== parasight-calibrate --device cpu --sizes tiny --world-size 2"
out=$work/out
"$tool" --out "$out" --device cpu --sizes tiny --world-size 2 --cli "$cli" --model "$work/tiny-model.yaml" \
    --micro-batch 2 --attention unfused >"$work/calibrate.log" 2>&1 \
    || { show "$work/calibrate.log"; fail "parasight-calibrate failed"; }
tail -n 4 "$work/calibrate.log"
for file in device.yaml cluster.yaml measured-operations.csv calibration.json; do
    [ -s "$out/$file" ] || { show "$work/calibrate.log"; fail "it did not write $file"; }
done
extra=$(ls -A "$out" | grep -vxE 'device\.yaml|cluster\.yaml|measured-operations\.csv|calibration\.json' || true)
[ -z "$extra" ] || fail "it left other files in its output folder: $extra"
/usr/bin/python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$out/calibration.json" \
    || fail "calibration.json is not JSON"

# Every number carries its source on its line.
source_pattern='# measured on [0-9]{4}-[0-9]{2}-[0-9]{2} by parasight-calibrate \('
for key in fp32 memory memory_bandwidth matmul_efficiency matmul_half_dim memory_efficiency attention_efficiency; do
    line=$(grep -E "^ *$key: " "$out/device.yaml") || fail "device.yaml has no $key"
    [[ "$line" =~ $source_pattern ]] || fail "device.yaml's $key does not name its source: $line"
done
topology=$(grep -E '^ *- \{kind: switch, size: 2, ' "$out/cluster.yaml") || fail "cluster.yaml has no switch of 2"
[[ "$topology" =~ $source_pattern ]] || fail "cluster.yaml's dimension does not name its source: $topology"
rows=$(grep -cvE '^(#|operation,pass,time$|$)' "$out/measured-operations.csv")
[ "$rows" -eq 25 ] || fail "measured-operations.csv has $rows rows, not 25 (12 operations x 2 passes + optimizer)"
# Each operation's kernels are counted on a GPU; on this CPU each row says why they are not.
/usr/bin/python3 - "$out/calibration.json" <<'EOF' || fail "calibration.json's operations do not say why no kernels were counted"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["operations"]["rows"] if r["operation"] != "optimizer"]
assert len(rows) == 24 and all(r["kernels_not_counted"] == "GPU kernels are counted on a GPU only" for r in rows), rows
EOF

# A scenario on the written cluster (its content inlined as cluster:) with the written table.
scenario() {  # scenario FILE TABLE
    {
        echo "schema: 1"
        echo "name: calibrated tiny GPT"
        echo "model: {$model_fields}"
        echo "training: {global_batch: 8, micro_batch: 2, dtype: fp32, attention: unfused}"
        echo "cluster:"
        sed 's/^/  /' "$out/cluster.yaml"
        echo "parallelism: {dp: 2}"
        echo "simulation: {measured_operations: $2}"
    } >"$1"
}
# The simulated iteration time and compute time, from simulate --json.
simulated() {
    "$cli" simulate "$1" --json >"$work/simulate.json" 2>"$work/simulate.err" \
        || { show "$work/simulate.err"; fail "parasight-cli simulate $1 failed"; }
    /usr/bin/python3 -c "import json, sys; r = json.load(open(sys.argv[1]))
print(r['iteration_time_s'], r['breakdown_s']['compute'])" "$work/simulate.json"
}

echo "== parasight-cli validate and simulate"
scenario "$work/calibrated.yaml" "$out/measured-operations.csv"
"$cli" validate "$work/calibrated.yaml" >"$work/validate.log" 2>&1 \
    || { show "$work/validate.log"; fail "parasight-cli validate refused the scenario built from the outputs"; }
cat "$work/validate.log"
read -r iteration_s compute_s <<<"$(simulated "$work/calibrated.yaml")"
echo "iteration ${iteration_s} s, compute ${compute_s} s"

# The same with every time of the table multiplied by 10.
/usr/bin/python3 - "$out/measured-operations.csv" "$work/scaled.csv" <<'EOF'
import re, sys
rows = []
for line in open(sys.argv[1], encoding="utf-8"):
    match = re.fullmatch(r"([a-z_]+),(forward|backward),([0-9.]+) (ns|us|ms|s)\n?", line)
    rows.append(f"{match[1]},{match[2]},{float(match[3]) * 10:.6g} {match[4]}\n" if match else line)
open(sys.argv[2], "w", encoding="utf-8").writelines(rows)
EOF
scenario "$work/scaled.yaml" "$work/scaled.csv"
read -r scaled_iteration_s scaled_compute_s <<<"$(simulated "$work/scaled.yaml")"
echo "table x 10: iteration ${scaled_iteration_s} s, compute ${scaled_compute_s} s"
/usr/bin/python3 - "$iteration_s" "$compute_s" "$scaled_iteration_s" "$scaled_compute_s" <<'EOF' || fail "the table was not read"
import sys
iteration, compute, scaled_iteration, scaled_compute = map(float, sys.argv[1:])
assert iteration > 0 and compute > 0, f"iteration {iteration} s, compute {compute} s: not positive"
assert abs(scaled_compute / compute - 10) < 0.05, f"compute {compute} s became {scaled_compute} s, not 10 times it"
assert scaled_iteration > iteration, f"iteration {iteration} s became {scaled_iteration} s"
EOF

echo "== device.yaml alone, a device measured against a datasheet (--base-device a100-80gb), and the survey"
"$tool" --out "$work/based" --device cpu --sizes tiny --cli "$cli" --base-device a100-80gb --survey \
    >"$work/based.log" 2>&1 || { show "$work/based.log"; fail "parasight-calibrate --base-device a100-80gb failed"; }
# The survey: on a CPU, fp8 and CUDA graphs are recorded as not measured with the reason (and no fp8_matmul_efficiency is
# written, nor kernel_launch); the eager launch, the backward's kernels and the AdamW implementations this PyTorch has are
# timed; attention by backend where PyTorch has the fused kernel.
/usr/bin/python3 - "$work/based/calibration.json" <<'EOF' || fail "the survey in calibration.json is not as expected"
import json, sys
survey = json.load(open(sys.argv[1]))["survey"]
assert "compute capability" in survey["fp8_matmul"].get("skipped", "") or "no torch._scaled_mm" in \
    survey["fp8_matmul"].get("skipped", ""), survey["fp8_matmul"]
assert survey["launch"]["eager_time_s"] > 0 and "need a GPU" in survey["launch"]["graph"], survey["launch"]
assert survey["launch"]["backward_time_s"] > 0 and survey["launch"]["backward_chain_kernels"] == 100, survey["launch"]
rows = survey["adamw"]["rows"]
assert [(r["case"], r["implementation"]) for r in rows] == [
    (case, variant) for case in ("large tensors", "many small tensors") for variant in ("for_loop", "foreach", "fused")
], rows
assert all(r.get("time_s", 0) > 0 or r.get("error") for r in rows) and rows[1]["time_s"] > 0, rows
assert rows[3]["tensors"] == 64 and rows[0]["tensors"] == 8, rows
kernels = {r["kernel"] for r in survey["elementwise"]["rows"]}
assert {"layer_norm", "rms_norm_written_out", "swiglu_chunked", "cross_entropy_fp32"} <= kernels, kernels
assert all(r["forward_time_s"] > 0 and r["backward_time_s"] > 0 for r in survey["elementwise"]["rows"]), survey
assert all(r["time_s"] > 0 for r in survey["weight_gradient"]["rows"]), survey["weight_gradient"]
# The training step: eager times on a CPU, the graphs and the kernel counts recorded as not measured there.
step = survey["training_step"]
assert [r["micro_batch"] for r in step["rows"]] == [1, 2], step
assert all(r["eager_time_s"] > 0 and r["eager_forward_time_s"] > 0 and "need a GPU" in r["graph"]
           and r["kernel_times_not_taken"] == "GPU kernels are counted on a GPU only" for r in step["rows"]), step
assert all(s["kernels_not_counted"] == "GPU kernels are counted on a GPU only" for s in step["stacks"]), step
attention = survey["attention"]
if "skipped" in attention:
    assert "no scaled_dot_product_attention" in attention["skipped"], attention
else:
    assert attention["rows"] and all(r["backend"] == "default" for r in attention["rows"]), attention
    assert all(r.get("forward_time_s", 0) > 0 for r in attention["rows"]), attention
EOF
[ ! -e "$work/based/cluster.yaml" ] || fail "one process wrote a cluster.yaml"
! grep -q "fp8_matmul_efficiency" "$work/based/device.yaml" || fail "fp8_matmul_efficiency written without fp8 GEMMs"
! grep -q "kernel_launch" "$work/based/device.yaml" || fail "kernel_launch written without CUDA graphs to tell host-bound steps"
grep -q "no cluster.yaml is written" "$work/based.log" || fail "one process did not say why there is no cluster.yaml"
grep -qE '^  bf16: 312 TFLOP/s +# device preset a100-80gb: ' "$work/based/device.yaml" \
    || fail "the base device's bf16 peak was not copied with its source"
# A CPU reaches far less than 1% of an A100's fp32 peak: ParaSight's lower limit, said in the comment.
grep -qE '^matmul_efficiency: 0\.01 .*clamped to ParaSight.s range' "$work/based/device.yaml" \
    || fail "the CPU's matmul efficiency against an A100 was not clamped to 0.01 with a note"
for device in "$out/device.yaml" "$work/based/device.yaml"; do
    {
        echo "schema: 1"
        echo "model: {$model_fields}"
        echo "training: {global_batch: 2, micro_batch: 2, dtype: fp32}"
        echo "cluster:"
        echo "  device:"
        sed 's/^/    /' "$device"
        echo "  topology: [{kind: switch, size: 1, bandwidth: 1 GB/s, latency: 1 us}]"
    } >"$work/one-device.yaml"
    "$cli" simulate "$work/one-device.yaml" >"$work/one-device.log" 2>&1 \
        || { show "$work/one-device.log"; fail "a scenario on $device alone did not simulate"; }
done

echo "== user errors"
refused() {  # refused MESSAGE ARGS...: exit status 2, MESSAGE on stderr, no traceback, nothing written
    local message=$1
    shift
    local status=0
    "$tool" --out "$work/refused" --device cpu --sizes tiny --cli "$cli" "$@" >"$work/refused.log" 2>&1 || status=$?
    [ "$status" -eq 2 ] || { show "$work/refused.log"; fail "$* exited with $status, not 2"; }
    grep -qF -- "$message" "$work/refused.log" || { show "$work/refused.log"; fail "$* did not say '$message'"; }
    ! grep -q Traceback "$work/refused.log" || { show "$work/refused.log"; fail "$* printed a traceback"; }
    [ ! -e "$work/refused/device.yaml" ] || fail "$* wrote device.yaml"
    echo "refused: $(head -n 1 "$work/refused.log")"
}
refused "the product of the sizes is 6, but the world size is 2" --world-size 2 --dimensions 3,2
refused "no preset 'model/gpt2-smal'" --model gpt2-smal
refused "'/nonexistent/parasight-cli' is not an executable file" --cli /nonexistent/parasight-cli --base-device h100-sxm
refused "--tp 3 must divide the model's heads" --model "$work/tiny-model.yaml" --tp 3
if /usr/bin/python3 -c "import sys, torch; sys.exit(1 if torch.cuda.is_available() else 0)"; then
    refused "--device cuda: PyTorch sees no CUDA device" --device cuda
fi

echo "ok: parasight-cli loads what parasight-calibrate wrote ($((SECONDS - started)) s)"
