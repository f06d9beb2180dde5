#!/usr/bin/env bash
# The SLURM path run for real on one machine: installs Debian's slurm-wlm and munge (as root,
# apt-get), starts munged, slurmctld and slurmd on localhost, runs a Hornbeam batch as an array
# job of N shards (batch.sbatch), has the scheduler cancel one shard while it runs (scancel:
# SIGTERM to every process of the job, SIGKILL after KillWait), resubmits that shard with
# --resume (it runs only what its journal lacks), merges the shards (merge.sbatch) and checks that the merged run has the same
# answer for every input as the same batch run unsharded. Stops the daemons at the end.
#
#   contrib/slurm/local-cluster.sh [HORNBEAM_BINARY] [WORK_DIR]
#
# Defaults: target/release/hornbeam (built if missing), a fresh temporary WORK_DIR. The inputs
# are tests/data/sat and tests/data/unsat plus generated slow ones (a counterexample a million
# steps deep, unknown at the time limit), so that every shard is still running when one is
# killed. Instances run with --deterministic: their answers do not depend on the load.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
hornbeam=${1:-$repo/target/release/hornbeam}
work=${2:-$(mktemp -d /tmp/hornbeam-slurm.XXXXXX)}
shards=3
if [ ! -x "$hornbeam" ]; then
    (cd "$repo" && cargo build --release)
fi
hornbeam=$(cd "$(dirname "$hornbeam")" && pwd)/$(basename "$hornbeam")
say() { echo "local-cluster: $*" >&2; }

# --- the cluster -------------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge /var/spool/slurmd /var/spool/slurmctld /var/log/slurm
chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge 2>/dev/null || true
[ -s /etc/munge/munge.key ] || runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
cat > /etc/slurm/slurm.conf <<EOF
ClusterName=hornbeam-local
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
ReturnToService=2
KillWait=5
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
JobAcctGatherType=jobacct_gather/none
NodeName=localhost CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
stop_cluster() {
    pkill -x slurmd 2>/dev/null || true
    pkill -x slurmctld 2>/dev/null || true
}
trap stop_cluster EXIT
stop_cluster
sleep 1
slurmctld -c   # a clean state: no jobs left from an earlier run
slurmd
for _ in $(seq 1 60); do
    sinfo -h -o '%T' 2>/dev/null | grep -qE 'idle|mixed' && break
    scontrol update nodename=localhost state=resume 2>/dev/null || true
    sleep 1
done
sinfo -h -o '%T' | grep -qE 'idle|mixed' || { say "slurmd did not come up"; exit 1; }
say "cluster up: $(sinfo -h -o '%N %c CPUs %m MB %T')"

# --- the inputs --------------------------------------------------------------------------------
bench=$work/bench
out=$work/out
rm -rf "$bench" "$out"
mkdir -p "$bench/sat" "$bench/unsat" "$bench/slow" "$out"
cp "$repo"/tests/data/sat/*.smt2 "$bench/sat/"
cp "$repo"/tests/data/unsat/*.smt2 "$bench/unsat/"
for i in 1 2 3 4 5 6; do
    cat > "$bench/slow/deep$i.smt2" <<EOF
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x $i))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (= x $((1000000 * i)))) false)))
(check-sat)
EOF
done
options=(--timeout 4 --deterministic)

# --- the array job, one shard killed by the scheduler, resumed -----------------------------------
export HORNBEAM=$hornbeam
cd "$work"
array=$(sbatch --parsable --array="1-$shards" --cpus-per-task=1 --mem-per-cpu=2G \
    "$repo/contrib/slurm/batch.sbatch" "$bench" "$out" "${options[@]}")
array=${array%%;*}
say "array job $array: $shards shards"
victim=2
journal=$out/shard-$victim-of-$shards.json.journal.jsonl
for _ in $(seq 1 300); do
    [ -s "$journal" ] && break
    sleep 0.2
done
[ -s "$journal" ] || { say "shard $victim wrote no record"; exit 1; }
scancel "${array}_${victim}"
while squeue -h -j "$array" 2>/dev/null | grep -q .; do sleep 1; done
kept=$(wc -l < "$journal")
python3 - "$out/shard-$victim-of-$shards.json" "$kept" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))
assert run["interrupted"], "the shard finished before it was cancelled"
print(f"local-cluster: shard cancelled by the scheduler: {len(run['results'])} record(s) written, "
      f"{sys.argv[2]} in its journal", file=sys.stderr)
EOF
resumed=$(sbatch --parsable --cpus-per-task=1 --mem-per-cpu=2G \
    --export="ALL,HORNBEAM_SHARD=$victim/$shards" \
    "$repo/contrib/slurm/batch.sbatch" "$bench" "$out" "${options[@]}" --resume)
resumed=${resumed%%;*}
say "shard $victim resubmitted as job $resumed with --resume ($kept record(s) kept)"
merge=$(sbatch --parsable --dependency="afterany:$resumed" \
    "$repo/contrib/slurm/merge.sbatch" "$out")
merge=${merge%%;*}
while squeue -h -j "$resumed,$merge" 2>/dev/null | grep -q .; do sleep 1; done
[ -s "$out/hornbeam.json" ] || { say "the merge wrote nothing"; cat "$work"/hornbeam-merge-*.log >&2; exit 1; }

# --- the same batch unsharded, and the comparison ------------------------------------------------
"$hornbeam" batch "$bench" "${options[@]}" --jobs "$cpus" --json "$work/unsharded.json" 2>/dev/null
python3 - "$out/hornbeam.json" "$work/unsharded.json" <<'EOF'
import json, sys
merged, whole = (json.load(open(p)) for p in sys.argv[1:])
answers = lambda run: {r["path"]: r["answer"] for r in run["results"]}
a, b = answers(merged), answers(whole)
diff = sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))
count = lambda d, w: sum(1 for v in d.values() if v == w)
print(f"merged shards: {len(a)} records ({count(a, 'sat')} sat, {count(a, 'unsat')} unsat, "
      f"{count(a, 'unknown')} unknown); unsharded: {len(b)} records; "
      f"{'the same answer for every input' if not diff else f'{len(diff)} differ: {diff[:5]}'}")
sys.exit(1 if diff or not a else 0)
EOF
say "done: $out/hornbeam.json, $out/report.html"
