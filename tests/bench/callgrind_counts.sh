#!/bin/sh
# Instruction counts of the simulation budgets (docs/contracts.md, "Budgets") under valgrind's callgrind: unlike wall
# times, which vary by a factor of two between machines of this class and by a third between runs on one, they are
# the same on any x86-64 machine from run to run. Prints one line a case; record them in docs/performance.md.
#   - the representative GPT-3 175B / 1024 point (presets/scenarios/default.yaml, parasight-cli simulate);
#   - one sweep point: a sweep of three points of the same scenario (γ = 0.10, 0.11, 0.12: the same work each)
#     against one of a single point, the difference halved — what a point costs beyond the command's start;
#   - the same scenario with every device simulated (about 50 times its 8–12 s under callgrind: skip it with
#     BENCH_QUICK=1).
# usage: callgrind_counts.sh CLI   (run from anywhere: paths are the repository's)
set -eu
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
scenario=presets/scenarios/default.yaml

# The instructions a command executes, as callgrind counts them.
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$@" >/dev/null 2>"$work/valgrind.log" ||
        { cat "$work/valgrind.log" >&2; exit 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/valgrind.log"
}

millions() { awk -v n="$1" 'BEGIN { printf "%.1f M", n / 1e6 }'; }

representative=$(instructions "$cli" simulate "$scenario")
echo "callgrind  GPT-3 175B / 1024, one device per symmetry class: $(millions "$representative") instructions"

one=$(instructions "$cli" sweep "$scenario" --axis simulation.overlap_slowdown=0.1 --jobs 1 --top 0 --quiet \
    --db "$work/one.db")
three=$(instructions "$cli" sweep "$scenario" --axis simulation.overlap_slowdown=0.1,0.11,0.12 --jobs 1 --top 0 \
    --quiet --db "$work/three.db")
echo "callgrind  one sweep point of GPT-3 175B / 1024: $(millions $(((three - one) / 2))) instructions"

if [ "${BENCH_QUICK:-0}" = 1 ]; then
    echo "callgrind  GPT-3 175B / 1024, every device simulated: skipped (BENCH_QUICK=1)"
else
    every=$(instructions "$cli" simulate "$scenario" --all-devices)
    echo "callgrind  GPT-3 175B / 1024, every device simulated: $(millions "$every") instructions"
fi
