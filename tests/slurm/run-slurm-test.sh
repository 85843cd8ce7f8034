#!/usr/bin/env bash
# End-to-end test of the Slurm job-array example (packaging/slurm/) on a real scheduler: starts a one-node Slurm
# cluster on this machine — munged, slurmctld and slurmd run directly, with their key, socket, configuration, state
# and logs in a temporary folder — submits a 36-point sweep as a 3-shard array with submit-sweep.sh, waits for the
# array and the merge job, and checks that the merged database holds what the same sweep run in one process holds.
#
#   run-slurm-test.sh PARASIGHT_CLI
#
# Needs root (slurmd starts the jobs as the submitting user) and Debian's slurmctld, slurmd, slurm-client, munge and
# sqlite3 (`make test-slurm` installs them). The plugins avoid cgroups and systemd, so it also runs in a container:
# proctrack/linuxproc, task/none, no accounting. Every daemon it started is stopped on exit, pass or fail; on a
# failure the temporary folder is kept and its path printed.
set -euo pipefail

if [ "$#" -ne 1 ]; then
    echo "usage: $(basename "$0") PARASIGHT_CLI" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
case $1 in
    /*) cli=$1 ;;
    *) cli="$PWD/$1" ;;
esac
scenario="$root/tests/data/cli/small_pipeline.yaml"
submit="$root/packaging/slurm/submit-sweep.sh"
shards=3
timeout_s=300
started=$SECONDS

pass() { echo "PASS: $*"; }
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

[ -x "$cli" ] || fail "'$cli' is not an executable parasight-cli"
[ "$(id -u)" = 0 ] || fail "the test runs slurmd, which must run as root (run it as root, or: sudo make test-slurm)"
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo sqlite3; do
    command -v "$tool" >/dev/null ||
        fail "'$tool' is missing: apt-get install slurmctld slurmd slurm-client munge sqlite3"
done

# Options and settings of the caller's Slurm (a default partition, or a job this test runs inside) are not this
# cluster's.
while IFS= read -r name; do
    unset "$name"
done < <(compgen -e | grep -E '^(SBATCH|SALLOC|SRUN|SQUEUE|SINFO|SCONTROL|SLURM)_' || true)

work="$(mktemp -d "${TMPDIR:-/tmp}/parasight-slurm.XXXXXX")"
# munged insists that every folder above its socket lets everyone through (execute permission).
chmod 755 "$work"
mkdir -p "$work/munge" "$work/etc" "$work/state" "$work/spool" "$work/run" "$work/log" "$work/out"
conf="$work/etc/slurm.conf"

munged_pid=""
slurmctld_pid=""
slurmd_pid=""
job_ids=()

# The processes this test started: the daemons, and whatever they started (slurmstepd and the jobs), which inherit
# SLURM_CONF naming this test's own configuration.
own_processes() {
    local environ pid
    for environ in /proc/[0-9]*/environ; do
        pid=${environ#/proc/}
        pid=${pid%/environ}
        [ "$pid" != "$$" ] || continue
        if grep -qzxF "SLURM_CONF=$conf" "$environ" 2>/dev/null; then
            echo "$pid"
        fi
    done
}

# Those of them that are not the daemons: a slurmstepd, a job script and what it runs.
job_processes() {
    local pid
    for pid in $(own_processes); do
        case " $munged_pid $slurmctld_pid $slurmd_pid " in *" $pid "*) continue ;; esac
        # slurmscriptd, slurmctld's helper
        [ "$(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null)" != "$slurmctld_pid" ] || continue
        echo "$pid"
    done
}

# slurmstepd processes that have exited and wait for init to collect them.
stepd_zombies() {
    local stat line
    for stat in /proc/[0-9]*/stat; do
        { read -r line <"$stat"; } 2>/dev/null || continue
        case $line in *" (slurmstepd) Z "*) echo "${line%% *}" ;; esac
    done
}

stop_pid() { # PID NAME: SIGTERM, then SIGKILL after 10 s
    local pid=$1
    [ -n "$pid" ] || return 0
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "cleanup: $2 (pid $pid) ignored SIGTERM for 10 s; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$? pids
    trap - EXIT INT TERM
    set +e
    if [ "${#job_ids[@]}" -gt 0 ] && [ -n "$slurmctld_pid" ] && kill -0 "$slurmctld_pid" 2>/dev/null; then
        scancel "${job_ids[@]}" 2>/dev/null
        for _ in $(seq 1 100); do
            [ -z "$(squeue -h -j "$(IFS=,; echo "${job_ids[*]}")" -t PD,R,CG 2>/dev/null)" ] && break
            sleep 0.1
        done
    fi
    # Let each slurmstepd finish its job and exit before slurmd goes.
    for _ in $(seq 1 50); do
        [ -z "$(job_processes)" ] && break
        sleep 0.1
    done
    stop_pid "$slurmd_pid" slurmd
    stop_pid "$slurmctld_pid" slurmctld
    stop_pid "$munged_pid" munged
    # Anything left of the jobs (a slurmstepd, a job script) when a daemon had to be killed.
    unset SLURM_CONF
    pids=$(own_processes)
    if [ -n "$pids" ]; then
        echo "cleanup: stopping what the jobs left running: $(echo "$pids" | tr '\n' ' ')" >&2
        # shellcheck disable=SC2086 # one pid a word
        kill -KILL $pids 2>/dev/null
        sleep 0.5
    fi
    pids=$(own_processes)
    if [ -n "$pids" ]; then
        echo "FAIL: processes of the test are still running: $(echo "$pids" | tr '\n' ' ')"
        status=1
    fi
    # A slurmstepd detaches from slurmd: once it exits, init collects it, which may take a moment.
    for _ in $(seq 1 50); do
        [ -z "$(stepd_zombies)" ] && break
        sleep 0.1
    done
    if [ "$status" -eq 0 ]; then
        rm -rf "$work"
    else
        echo "The test's folder is kept: $work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'echo "FAIL: interrupted" >&2; exit 130' INT
trap 'echo "FAIL: terminated" >&2; exit 143' TERM

show_logs() {
    local file id daemon
    if [ "${#job_ids[@]}" -gt 0 ]; then
        echo "---- jobs"
        for id in "${job_ids[@]}"; do
            scontrol -o show job "$id" 2>&1 | tr ' ' '\n' |
                grep -E '^(JobId|ArrayTaskId|JobName|JobState|Reason|Dependency|ExitCode|RunTime|NodeList|StdOut)=' |
                tr '\n' ' ' | sed -e 's/ JobId=/\n  JobId=/g' -e 's/^/  /'
            echo
        done
    fi
    for file in "$work"/out/slurm-*.out; do
        [ -f "$file" ] || continue
        echo "---- $(basename "$file")"
        sed 's/^/  /' "$file"
    done
    # A daemon's log file, or what it printed when it could not open one.
    for daemon in munged slurmctld slurmd; do
        file="$work/log/$daemon.log"
        [ -s "$file" ] || file="$work/log/$daemon.stderr"
        [ -f "$file" ] || continue
        echo "---- $(basename "$file") (last 40 lines)"
        tail -n 40 "$file" | sed 's/^/  /'
    done
}

# Two free TCP ports for slurmctld and slurmd, above the usual 6817/6818 so that a real cluster on this machine
# is left alone.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ports=()
for port in $(seq 16817 16999); do
    if port_free "$port"; then
        ports+=("$port")
        [ "${#ports[@]}" -lt 2 ] || break
    fi
done
[ "${#ports[@]}" -eq 2 ] || fail "no two free TCP ports in 16817-16999"

# munge: a key of our own and a private socket.
mungekey --create --keyfile="$work/munge/munge.key" >/dev/null 2>&1 || fail "mungekey could not create a key"
munged --foreground --force --socket="$work/munge/munge.socket" --key-file="$work/munge/munge.key" \
    --log-file="$work/log/munged.log" --pid-file="$work/run/munged.pid" --seed-file="$work/munge/munged.seed" \
    >"$work/log/munged.stderr" 2>&1 &
munged_pid=$!
for _ in $(seq 1 100); do
    [ -S "$work/munge/munge.socket" ] && break
    kill -0 "$munged_pid" 2>/dev/null || break
    sleep 0.1
done
if [ ! -S "$work/munge/munge.socket" ]; then
    show_logs
    fail "munged did not start"
fi
pass "munged is running (pid $munged_pid)"

# The node as slurmd sees it (CPUs, sockets, cores, threads), named by this machine's short host name.
node="$(hostname -s)"
hardware=$(slurmd -C | head -n 1 | tr ' ' '\n' |
    grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=' |
    tr '\n' ' ')
[ -n "$hardware" ] || fail "slurmd -C did not describe this machine"
: >"$work/etc/plugstack.conf"
cat >"$conf" <<EOF
ClusterName=parasight-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$work/etc/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
DependencyParameters=kill_invalid_depend
ReturnToService=2
MinJobAge=600
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 ${hardware}State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$conf"

slurmctld -D -c -f "$conf" >"$work/log/slurmctld.stderr" 2>&1 &
slurmctld_pid=$!
slurmd -D -f "$conf" -N "$node" >"$work/log/slurmd.stderr" 2>&1 &
slurmd_pid=$!
state=""
for _ in $(seq 1 600); do
    state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    if ! kill -0 "$slurmctld_pid" 2>/dev/null || ! kill -0 "$slurmd_pid" 2>/dev/null; then
        break
    fi
    sleep 0.1
done
if [ "$state" != idle ]; then
    show_logs
    fail "the node '$node' did not become idle within 60 s (state: '${state:-none}'; a daemon may have exited)"
fi
pass "slurmctld and slurmd are up; node '$node' is idle (${hardware% })"

# The sweep: 3 x 3 x 4 points of which 12 are invalid (a micro-batch that does not divide the batch). The
# bandwidth axis has spaces and brackets, which the axes file carries as they are.
axes_file="$work/axes.txt"
cat >"$axes_file" <<'EOF'
# the sweep of the slurm test
parallelism.dp=auto
parallelism.tp=1,2,4
training.micro_batch=1,2,3
cluster.topology[1].bandwidth=25..100 GB/s +25 GB/s
EOF
axes=()
while IFS= read -r line; do
    case $line in '#'* | '') continue ;; esac
    axes+=(--axis "$line")
done <"$axes_file"

submitted=$("$submit" "$scenario" "$shards" "$work/out" "$axes_file" "$cli" 2>&1) || {
    echo "$submitted"
    fail "submit-sweep.sh failed"
}
echo "$submitted"
array_id=$(echo "$submitted" | sed -n 's/^array job \([0-9][0-9]*\):.*/\1/p')
merge_id=$(echo "$submitted" | sed -n 's/^merge job \([0-9][0-9]*\):.*/\1/p')
if [ -z "$array_id" ] || [ -z "$merge_id" ]; then
    fail "submit-sweep.sh did not print the two job ids"
fi
job_ids=("$array_id" "$merge_id")
pass "submitted the array (job $array_id, $shards shards) and the merge (job $merge_id)"

# The states of a job's records: one per array task once they run, one for the array while it is pending.
job_states() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort | uniq -c |
    awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}'; }
deadline=$((SECONDS + timeout_s))
while :; do
    array_states=$(job_states "$array_id")
    merge_states=$(job_states "$merge_id")
    case "$array_states $merge_states" in
        *FAIL* | *CANCEL* | *TIMEOUT* | *PREEMPT* | *DEADLINE* | *OUT_OF_ME*)
            show_logs
            fail "a job did not succeed: array $array_id: $array_states; merge $merge_id: $merge_states"
            ;;
    esac
    [ "$merge_states" = "COMPLETED x1" ] && break
    if [ "$SECONDS" -ge "$deadline" ]; then
        show_logs
        fail "the jobs had not finished after ${timeout_s} s:" \
            "array $array_id: ${array_states:-gone}; merge $merge_id: ${merge_states:-gone}"
    fi
    if ! kill -0 "$slurmctld_pid" 2>/dev/null || ! kill -0 "$slurmd_pid" 2>/dev/null; then
        show_logs
        fail "a Slurm daemon exited while the jobs ran"
    fi
    sleep 1
done
[ "$array_states" = "COMPLETED x$shards" ] ||
    fail "the merge ran, but the array's tasks are: $array_states"
exits=$( (
    scontrol -o show job "$array_id"
    scontrol -o show job "$merge_id"
) | grep -o ' ExitCode=[0-9:]*' | sort | uniq -c |
    awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')
[ "$exits" = "ExitCode=0:0 x$((shards + 1))" ] || fail "exit codes: $exits"
pass "the $shards array tasks and the merge completed with status 0 after $((SECONDS - started)) s"

merged="$work/out/results.db"
single="$work/single.db"
for k in $(seq 1 "$shards"); do
    [ -f "$work/out/shard-$k.db" ] || fail "shard-$k.db is missing"
done
[ -f "$merged" ] || fail "the merge job wrote no results.db"

"$cli" sweep "$scenario" "${axes[@]}" --jobs 1 --quiet --db "$single" >"$work/single.out" 2>&1 || {
    cat "$work/single.out"
    fail "the same sweep in one process failed"
}
pass "ran the same sweep in one process"

query() { # DB SQL
    sqlite3 -batch -bail "$1" "$2"
}
sweep_view() { # DB: the view of the database's only sweep
    local ids
    ids=$(query "$1" "SELECT id FROM sweeps")
    [ "$(echo "$ids" | wc -w)" -eq 1 ] || fail "$(basename "$1") holds $(echo "$ids" | wc -w) sweeps, not 1"
    echo "sweep_$ids"
}
columns='point, "parallelism.tp", "training.micro_batch", "cluster.topology[1].bandwidth", status, reason,
         scenario_hash, iteration_time_s, mfu, peak_memory_bytes, events, warnings'

for db in "$merged" "$single" "$work"/out/shard-*.db; do
    check=$(query "$db" "PRAGMA integrity_check")
    [ "$check" = ok ] || fail "PRAGMA integrity_check of $(basename "$db"): $check"
done
pass "PRAGMA integrity_check is ok for results.db, the single-process database and the $shards shards"

for k in $(seq 1 "$shards"); do
    db="$work/out/shard-$k.db"
    view=$(sweep_view "$db")
    counts=$(query "$db" "SELECT count(*), sum(point % $shards = $((k - 1))) FROM $view")
    [ "$counts" = "12|12" ] || fail "shard-$k.db: (points, points of shard $k) = $counts, expected 12|12"
done
pass "each shard holds its own 12 points"

merged_view=$(sweep_view "$merged")
single_view=$(sweep_view "$single")
for db in "$merged" "$single"; do
    view=$merged_view
    [ "$db" = "$merged" ] || view=$single_view
    counts=$(query "$db" "SELECT count(*), count(DISTINCT point), min(point), max(point) FROM $view")
    [ "$counts" = "36|36|0|35" ] ||
        fail "$(basename "$db"): (points, distinct, first, last) = $counts, expected 36|36|0|35"
    by_status=$(query "$db" "SELECT group_concat(status || ' ' || n, ', ') FROM
                             (SELECT status, count(*) AS n FROM $view GROUP BY status ORDER BY status)")
    [ "$by_status" = "invalid 12, ok 24" ] || fail "$(basename "$db"): $by_status, expected invalid 12, ok 24"
done
pass "results.db and the single-process database hold the 36 points (ok 24, invalid 12)"

# As SQL literals (.mode quote): every bit of a REAL, and NULL apart from ''.
points() { # DB VIEW
    sqlite3 -batch -bail -cmd '.mode quote' "$1" "SELECT $columns FROM $2 ORDER BY point"
}
points "$merged" "$merged_view" >"$work/merged.txt"
points "$single" "$single_view" >"$work/single.txt"
if ! diff -u "$work/single.txt" "$work/merged.txt" >"$work/points.diff"; then
    head -n 60 "$work/points.diff"
    fail "the merged points differ from the single-process ones (above: - single process, + merged)"
fi
pass "the merged points equal the single-process ones, column by column"

before=$(query "$merged" ".dump" | sha256sum)
PARASIGHT_OUT_DIR="$work/out" PARASIGHT_SHARDS=$shards PARASIGHT_CLI=$cli \
    bash "$root/packaging/slurm/merge.sbatch" >"$work/merge-again.out" 2>&1 || {
    cat "$work/merge-again.out"
    fail "merging the shards again failed"
}
after=$(query "$merged" ".dump" | sha256sum)
[ "$before" = "$after" ] || fail "merging the shards again changed results.db"
pass "merging the shards again changes nothing"

echo "PASS: the sweep on Slurm ($shards shards, merged) equals the sweep in one process ($((SECONDS - started)) s)"
