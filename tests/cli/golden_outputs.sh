#!/bin/sh
# Writes what parasight-cli prints for a fixed set of commands — the JSON and text of every preset scenario, a
# collective, a what-if and an oracle table, and a sweep with points of every status read back through every `runs`
# verb — into one file per command, with what changes from run to run (wall-clock times, points per second,
# timestamps, the database's path) masked. Compared against tests/data/golden/expected by the test golden_outputs, so
# that a change meant to keep behaviour keeps every byte; a change meant to alter outputs rewrites the expected files
# (`tests/cli/golden_outputs.sh CLI tests/data/golden/expected`) in the same commit and says why.
#
# usage: golden_outputs.sh CLI OUT_DIR   (OUT_DIR is emptied first; run from anywhere: paths are the repository's)
set -eu
cli=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"

# Masks the parts of an output that differ between two identical runs.
mask() {
    sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIMESTAMP/g' \
           -e 's/("wall_s": ?)[-0-9.e+]+/\1WALL/g' \
           -e '/"wall_s": \{/,/\}/s/-?[0-9][0-9.e+-]*/WALL/g' \
           -e 's/^wall_s .*/wall_s WALL/' \
           -e 's/events in [^ ]+ [a-z]+/events in WALL/' \
           -e 's/[0-9.]+ points\/s/POINTS_PER_S points\/s/' \
           -e "s#$work/##g"
}
# A CSV export's wall_s column: the number before the warnings column (empty for a point not simulated).
mask_csv_wall() { sed -E 's/,[0-9.e+-]+,("?\[)/,WALL,\1/'; }
# Runs one command and writes its masked standard output, then its standard error and its exit status, to $out/NAME.
run() {
    name=$1
    shift
    status=0
    "$cli" "$@" > "$work/stdout" 2> "$work/stderr" || status=$?
    { mask < "$work/stdout"; mask < "$work/stderr"; echo "exit $status"; } > "$out/$name"
}

for file in presets/scenarios/*.yaml; do
    scenario=$(basename "$file" .yaml)
    run "simulate-$scenario.json" simulate "$file" --json
    run "simulate-$scenario.txt" simulate "$file"
done
run collective-default.json collective presets/scenarios/default.yaml --op all-reduce --size 1GiB --json
run whatif-pipeline-1f1b.json whatif presets/scenarios/pipeline-1f1b.yaml --delay "0..2ms +0.5ms" --json
run whatif-pipeline-1f1b.txt whatif presets/scenarios/pipeline-1f1b.yaml --delay "0..2ms +0.5ms"
run oracle-resnet50.json oracle presets/scenarios/resnet50-abci.yaml --pes 1,4,16 --json

db="$work/results.db"
sweep="tests/data/golden/sweep.yaml"
axes="--axis parallelism.pp=1,2,3,4 --axis cluster.device=a100-80gb,a10 --axis training.micro_batch=1,6"
# shellcheck disable=SC2086
run sweep.txt sweep "$sweep" $axes --db "$db"
# shellcheck disable=SC2086
run sweep-again.json sweep "$sweep" $axes --db "$db" --json
run simulate-into-db.txt simulate presets/scenarios/pipeline-1f1b.yaml --db "$db"
run runs-list.txt runs list --db "$db"
run runs-list.json runs list --db "$db" --json
run runs-show-sweep.txt runs show sweep:1 --db "$db"
run runs-show-sweep-mfu.json runs show sweep:1 --metric mfu --top 3 --db "$db" --json
for id in 1 3 8 9 17; do run "runs-show-run-$id.txt" runs show "run:$id" --db "$db"; done
run runs-show-run-8.json runs show run:8 --db "$db" --json
run runs-export-sweep.csv runs export sweep:1 --db "$db"
mask_csv_wall < "$out/runs-export-sweep.csv" > "$work/csv" && cp "$work/csv" "$out/runs-export-sweep.csv"
run runs-export-sweep.json runs export sweep:1 --format json --db "$db"
run runs-export-run-17.csv runs export run:17 --db "$db"
mask_csv_wall < "$out/runs-export-run-17.csv" > "$work/csv" && cp "$work/csv" "$out/runs-export-run-17.csv"
run runs-compare.txt runs compare run:1 run:8 --db "$db"
run runs-compare.json runs compare run:1 run:17 --db "$db" --json
