#!/usr/bin/env bash
# Submits a Hornbeam batch over N SLURM array tasks, then the merge once all of them ended
# (successful or not: a failed shard is reported missing by the merge).
#
#   contrib/slurm/submit.sh N BENCH_DIR OUT_DIR [batch options...]
#   e.g. HORNBEAM=$PWD/target/release/hornbeam contrib/slurm/submit.sh 8 \
#            ../shared/chc-bench/public out --timeout 300 \
#            --expected ../shared/chc-bench/public/expected.tsv
set -euo pipefail

usage="usage: submit.sh N BENCH_DIR OUT_DIR [batch options...]"
n=${1:?$usage}
bench=${2:?$usage}
out=${3:?$usage}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
array=$(sbatch --parsable --array="1-$n" "$here/batch.sbatch" "$bench" "$out" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" "$here/merge.sbatch" "$out")
echo "array job $array ($n shards), merge job ${merge%%;*}: results in $out/hornbeam.json"
