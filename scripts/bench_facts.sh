#!/usr/bin/env bash
# Times `facts` and `analyze --rules` (the reachability rule file of tests/rules.rs) on chains
# of predicates p0 -> p1 -> ... with one Int argument, to show that both stay linear.
# Usage: scripts/bench_facts.sh [SIZE...]   (default 20000 40000); prints time and peak memory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
hb=$root/target/release/hornbeam
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$root/tests/rules.rs" "$tmp/reach.dl" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(re.search(r'const REACH: &str = r#"(.*?)"#;', src, re.S).group(1))
PY
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(20000 40000)
for size in "${sizes[@]}"; do
  python3 - "$size" "$tmp/chain.smt2" <<'PY'
import sys
n, out = int(sys.argv[1]), ["(set-logic HORN)"]
out += [f"(declare-fun p{i} (Int) Bool)" for i in range(n)]
out.append("(assert (forall ((x Int)) (=> (= x 0) (p0 x))))")
for i in range(1, n):
    out.append(f"(assert (forall ((x Int) (y Int)) (=> (and (p{i-1} x) (= y (+ x 1))) (p{i} y))))")
out.append(f"(assert (forall ((x Int)) (=> (and (p{n-1} x) (< x 0)) false)))\n(check-sat)")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
  rm -rf "$tmp/f" "$tmp/d"
  /usr/bin/time -f "$size predicates: facts %e s, %M KB" "$hb" facts "$tmp/chain.smt2" --out "$tmp/f"
  /usr/bin/time -f "$size predicates: analyze --rules %e s, %M KB" \
    "$hb" analyze --rules "$tmp/reach.dl" -D "$tmp/d" "$tmp/chain.smt2" >/dev/null
done
