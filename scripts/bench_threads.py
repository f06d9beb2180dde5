#!/usr/bin/env python3
"""Single files, one thread count against another (default one against two: `hornbeam solve
--threads 1` and `--threads 2`; `--threads 2,4` for two against four) on the same files, one
run at a time (two threads need both cores), alternating which goes first.

Files: every `.smt2` under tests/data/{sat,unsat} and the files of a CHC-COMP directory whose
expected answer (expected.tsv) is --answer, that one thread answers in more than --min seconds
(found by a first pass with the first thread count over the files in a seeded random order, --seed, so
that the sample spreads over the tracks; at most --limit of them). Prints, per
file, both wall times and answers, then the median of the ratios (two threads over one) on the
files both answered, and the counts. `--expected any` takes files of either answer.

Usage: scripts/bench_threads.py [--timeout 20] [--min 1] [--limit 40] [--answer sat] [--seed 0]
                                [--threads 1,2] [--bin target/release/hornbeam] [DIR]
DIR defaults to ../shared/chc-bench/public.
"""
import argparse, csv, random, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def solve(bin_, path, threads, timeout):
    t0 = time.monotonic()
    p = subprocess.run([str(bin_), "solve", str(path), "--timeout", str(timeout), "--threads", str(threads)],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    secs = time.monotonic() - t0
    first = (p.stdout.splitlines() or ["?"])[0].strip()
    return first, secs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default=str(ROOT.parent / "shared" / "chc-bench" / "public"))
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--min", type=float, default=1.0)
    ap.add_argument("--limit", type=int, default=40)
    ap.add_argument("--answer", default="sat")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hornbeam"))
    ap.add_argument("--threads", default="1,2", help="the two thread counts, A,B")
    a = ap.parse_args()
    ta, tb = (int(x) for x in a.threads.split(","))
    files = sorted((ROOT / "tests" / "data" / "sat").glob("*.smt2")) + sorted((ROOT / "tests" / "data" / "unsat").glob("*.smt2"))
    tsv = Path(a.dir) / "expected.tsv"
    picked = []
    if tsv.exists():
        rows = sorted((r for r in csv.DictReader(open(tsv), delimiter="\t") if a.answer in ("any", r["expected"])),
                      key=lambda r: r["path"])
        random.Random(a.seed).shuffle(rows)
        for r in rows:
            if len(picked) >= a.limit:
                break
            path = Path(a.dir) / r["path"]
            ans, secs = solve(a.bin, path, ta, a.timeout)
            if secs > a.min and ans in ("sat", "unsat"):
                picked.append(path)
                print("picked %-70s %6.2f s %s" % (r["path"][:70], secs, ans), file=sys.stderr, flush=True)
    ratios, rows = [], []
    for i, path in enumerate(files + picked):
        order = (ta, tb) if i % 2 == 0 else (tb, ta)
        res = {}
        for t in order:
            res[t] = solve(a.bin, path, t, a.timeout)
        (a1, t1), (a2, t2) = res[ta], res[tb]
        definite = {"sat", "unsat"}
        if a1 in definite and a2 in definite:
            if a1 != a2:
                print("DISAGREE %s: %s vs %s" % (path, a1, a2))
            ratios.append(t2 / t1)
        rows.append((path, a1, t1, a2, t2))
        print("%-72s %d: %-7s %6.2f s  %d: %-7s %6.2f s" % (str(path.relative_to(path.parents[1]))[:72], ta, a1, t1, tb, a2, t2), flush=True)
    for part, lo, hi in (("tests/data", 0, len(files)), ("picked", len(files), len(rows))):
        sub = rows[lo:hi]
        both = [r[4] / r[2] for r in sub if r[1] in ("sat", "unsat") and r[3] in ("sat", "unsat")]
        s1 = sum(r[1] in ("sat", "unsat") for r in sub)
        s2 = sum(r[3] in ("sat", "unsat") for r in sub)
        med = statistics.median(both) if both else float("nan")
        print("%s: %d files, solved %d threads %d, %d threads %d, median time ratio (%d/%d) on %d both solved: %.2f"
              % (part, len(sub), ta, s1, tb, s2, tb, ta, len(both), med))
    print("all: median ratio %.2f over %d files" % (statistics.median(ratios) if ratios else float("nan"), len(ratios)))


if __name__ == "__main__":
    main()
