#!/usr/bin/env bash
# Runs a libFuzzer target for a bounded time, seeded with every scenario the project ships and tests.
#   run-fuzz.sh FUZZER SECONDS
set -euo pipefail
fuzzer=$1
seconds=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
find "$root/presets" "$root/tests/data" -name '*.yaml' -exec cp {} "$corpus/" \; 2>/dev/null || true
# -timeout: one input taking longer than 10 s counts as a hang; -rss_limit_mb bounds memory.
"$fuzzer" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -dict="$root/tests/fuzz/scenario.dict" 2>&1 | tail -n 25
