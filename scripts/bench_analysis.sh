#!/usr/bin/env bash
# Times the structure analyses (hornbeam analyze --stats: extraction + all rule sets, parsing
# excluded) on every file of a CHC-COMP directory; prints the total, the median and the largest.
# Usage: scripts/bench_analysis.sh [DIR]   (default ../shared/chc-bench/public)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/../shared/chc-bench/public}
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
hb=$root/target/release/hornbeam
find -L "$dir" -name '*.smt2' | sort | while read -r f; do
  us=$("$hb" analyze --stats "$f" 2>&1 >/dev/null </dev/null | sed -n 's/.*"analysis_us":\([0-9]*\).*/\1/p' || true)
  [ -n "$us" ] && printf '%s\t%s\n' "$us" "${f#"$dir"/}"
done | sort -n | awk -F'\t' '{t+=$1; a[NR]=$1; last=$0} END {
  printf "files analysed: %d\ntotal: %.1f ms\nmedian: %.2f ms\nlargest: %.1f ms (%s)\n",
    NR, t/1000, a[int((NR+1)/2)]/1000, a[NR]/1000, substr(last, index(last, "\t")+1)}'
