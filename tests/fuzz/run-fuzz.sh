#!/usr/bin/env bash
# Runs a libFuzzer target for a bounded time, seeded with every scenario the project ships and tests.
#   run-fuzz.sh FUZZER SECONDS [SEED]
# A fixed SEED makes the run repeatable (CI uses one); without it every run explores differently.
# On a failure the whole report and the offending input are printed, and the input is kept as fuzz-failure.yaml in
# the current directory so that it can be replayed: FUZZER fuzz-failure.yaml
set -euo pipefail
fuzzer=$1
seconds=$2
seed=${3:-0}
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"
# The peers' files too (their own YAML and JSON), each behind the byte fuzz_peer_import reads as which file it is.
find "$root/presets" "$root/tests/data" -name '*.yaml' -exec cp {} "$work/corpus/" \; 2>/dev/null || true
n=0
for file in $(find "$root/tests/data/interop" -name '*.yml' -o -name '*.json' | sort); do
    case "$file" in
        */astra-sim/network/*) which=0 ;;
        */astra-sim/system/*) which=1 ;;
        */calculon/systems/*) which=3 ;;
        */calculon/models/*) which=4 ;;
        *) which=5 ;;
    esac
    n=$((n + 1))
    { printf "\\$(printf '%03o' "$which")"; cat "$file"; } >"$work/corpus/peer-$n"
done
# -timeout: one input taking longer than 10 s counts as a hang; -rss_limit_mb bounds memory.
status=0
"$fuzzer" "$work/corpus" -seed="$seed" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 -dict="$root/tests/fuzz/scenario.dict" -artifact_prefix="$work/artifacts/" \
    >"$work/log" 2>&1 || status=$?
if [ "$status" -eq 0 ]; then
    tail -n 8 "$work/log"
    exit 0
fi
# The report starts where libFuzzer or a sanitizer first complains; print from a little before it to the end.
first=$(grep -n -m1 -E '^==[0-9]+==|ERROR: libFuzzer|terminate called|deadly signal|runtime error' "$work/log" \
    | cut -d: -f1 || true)
tail -n +"$(( ${first:-1} > 20 ? ${first:-1} - 20 : 1 ))" "$work/log"
for input in "$work"/artifacts/*; do
    [ -f "$input" ] || continue
    cp "$input" fuzz-failure.yaml
    echo "== the input that failed ($(wc -c <"$input") bytes, kept as fuzz-failure.yaml), escaped:"
    od -c "$input" | head -n 60
done
exit "$status"
