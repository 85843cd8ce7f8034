#!/usr/bin/env bash
# Submits a ParaSight sweep to Slurm: a job array of N shards (sweep-array.sbatch), then a job that merges their
# databases into OUT_DIR/results.db (merge.sbatch) once every shard has succeeded.
#
#   submit-sweep.sh SCENARIO SHARDS OUT_DIR AXES_FILE [PARASIGHT_CLI]
#
#   SCENARIO       the base scenario file (YAML)
#   SHARDS         how many array tasks to split the points over (1 or more)
#   OUT_DIR        a folder every node can write (made when missing): shard-K.db, results.db and the jobs' logs
#                  (slurm-ARRAY_K.out, slurm-merge-JOB.out) go there
#   AXES_FILE      the axes, one per line, each what follows `--axis` on the command line, without quotes:
#                    parallelism.tp=1,2,4
#                    cluster.topology[1].bandwidth=25..100 GB/s +25 GB/s
#                  Blank lines and lines starting with # are skipped.
#   PARASIGHT_CLI  the parasight-cli the jobs run (default: parasight-cli on the nodes' PATH)
#
# The paths are made absolute, so the jobs find them from any folder. Prints the two job ids. Cluster options
# (partition, account, time limit) go in the #SBATCH lines of the two scripts or in sbatch's input variables
# (SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, ...). Submitting the same sweep into the same OUT_DIR again
# runs only the points the shards lack.
set -euo pipefail

usage() {
    echo "usage: $(basename "$0") SCENARIO SHARDS OUT_DIR AXES_FILE [PARASIGHT_CLI]" >&2
    exit 2
}
case ${1:-} in
    -h | --help)
        sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"
        exit 0
        ;;
esac
if [ "$#" -lt 4 ] || [ "$#" -gt 5 ]; then
    usage
fi

here="$(cd "$(dirname "$0")" && pwd)"
scenario=$1
shards=$2
out_dir=$3
axes=$4
cli=${5:-parasight-cli}

case $shards in
    '' | *[!0-9]* | 0*)
        echo "submit-sweep: SHARDS must be a whole number from 1, not '$shards'" >&2
        exit 2
        ;;
esac
for file in "$scenario" "$axes"; do
    if [ ! -f "$file" ] || [ ! -r "$file" ]; then
        echo "submit-sweep: cannot read '$file'" >&2
        exit 2
    fi
done
if ! grep -qv -e '^[[:space:]]*$' -e '^#' "$axes"; then
    echo "submit-sweep: '$axes' holds no axis" >&2
    exit 2
fi
case $cli in
    */*)
        if [ ! -x "$cli" ]; then
            echo "submit-sweep: '$cli' is not an executable file" >&2
            exit 2
        fi
        cli="$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")"
        ;;
esac

mkdir -p "$out_dir"
PARASIGHT_SCENARIO="$(cd "$(dirname "$scenario")" && pwd)/$(basename "$scenario")"
PARASIGHT_AXES="$(cd "$(dirname "$axes")" && pwd)/$(basename "$axes")"
PARASIGHT_OUT_DIR="$(cd "$out_dir" && pwd)"
PARASIGHT_SHARDS=$shards
PARASIGHT_CLI=$cli
# Exported rather than listed in --export=..., which splits its values at commas: sbatch hands the whole
# environment to the jobs, whatever the paths hold.
export PARASIGHT_SCENARIO PARASIGHT_AXES PARASIGHT_OUT_DIR PARASIGHT_SHARDS PARASIGHT_CLI

array_id=$(sbatch --parsable --export=ALL --array="1-$shards" \
    --output="$PARASIGHT_OUT_DIR/slurm-%A_%a.out" "$here/sweep-array.sbatch")
array_id=${array_id%%;*}
echo "array job $array_id: $shards shards into $PARASIGHT_OUT_DIR/shard-1..$shards.db"
merge_id=$(sbatch --parsable --export=ALL --dependency="afterok:$array_id" \
    --output="$PARASIGHT_OUT_DIR/slurm-merge-%j.out" "$here/merge.sbatch")
merge_id=${merge_id%%;*}
echo "merge job $merge_id: $PARASIGHT_OUT_DIR/results.db once every shard has succeeded"
