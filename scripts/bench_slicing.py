#!/usr/bin/env python3
"""Runs the formula slicing engine on a CHC-COMP directory and summarises it like Table 1 of the
paper: sat answers per track for one weakening mode, wrong answers against expected.tsv, Z3's
answers side by side (read from earlier Z3 outputs, first line of TRACK__FILE.smt2.out), and the
distribution of SMT calls per weakening (the paper's Fig. 4b) over all runs.

Usage: scripts/bench_slicing.py [--timeout 20] [--jobs 2] [--weakening cex|syntactic]
                                [--skip-track ADT-LIA] [--z3-dir DIR] [--bin PATH] [--out TSV] [DIR]
"""
import argparse, collections, concurrent.futures as cf, csv, json, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from bench_chc import solve_with_stats  # noqa: E402  (one runner for all engine benchmarks)


def one(path, args):
    cmd = [args.bin, "solve", "--engine", "slicing", "--weakening", args.weakening,
           "--timeout", str(args.timeout), "--stats", str(path)]
    first, secs, stats, note = solve_with_stats(cmd, args.timeout, 120)
    return first, secs, stats, note


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default=str(ROOT.parent / "shared" / "chc-bench" / "public"))
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--weakening", default="cex")
    ap.add_argument("--skip-track", action="append", default=None)
    ap.add_argument("--z3-dir", default="/work/wt-bench/bench-out/z3")
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hornbeam"))
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    skip = set(args.skip_track or ["ADT-LIA"])
    d = Path(args.dir)
    expected = {r["path"]: r["expected"] for r in csv.DictReader((d / "expected.tsv").open(), delimiter="\t")}
    files = [f for f in sorted(d.rglob("*.smt2")) if f.relative_to(d).parts[0] not in skip]
    rows = []
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for f, (ans, secs, stats, note) in zip(files, ex.map(lambda f: one(f, args), files)):
            rel = str(f.relative_to(d))
            z3f = Path(args.z3_dir) / (rel.replace("/", "__") + ".out")
            z3 = (z3f.read_text().splitlines() or ["unknown"])[0].strip() if z3f.exists() else "n/a"
            rows.append({"file": rel, "track": f.relative_to(d).parts[0], "expected": expected.get(rel, ""),
                         "z3": z3, "slicing": ans, "time": f"{secs:.2f}",
                         "hist": json.dumps(stats.get("smt_calls_per_weakening", {})), "note": note})
            print(f"{rel}\t{expected.get(rel, '')}\tz3={z3}\tslicing={ans}\t{secs:.2f}s\t{note}", file=sys.stderr)
    if args.out:
        with open(args.out, "w") as fh:
            w = csv.DictWriter(fh, list(rows[0].keys()), delimiter="\t")
            w.writeheader()
            w.writerows(rows)
    print(f"| track | files | expected sat | slicing-{args.weakening} sat | z3 sat | wrong |")
    print("|---|---|---|---|---|---|")
    for t in sorted({r["track"] for r in rows}) + ["all"]:
        rs = [r for r in rows if t == "all" or r["track"] == t]
        es = sum(r["expected"] == "sat" for r in rs)
        ss = sum(r["slicing"] == "sat" for r in rs)
        zs = sum(r["z3"] == "sat" for r in rs)
        wrong = sum(r["slicing"] in ("sat", "unsat") and r["slicing"] != r["expected"] for r in rs)
        print(f"| {t} | {len(rs)} | {es} | {ss} | {zs} | {wrong} |")
    hist = collections.Counter()
    for r in rows:
        for k, v in json.loads(r["hist"]).items():
            hist[int(k)] += v
    calls = sorted(hist.elements())
    med = calls[(len(calls) - 1) // 2] if calls else None
    print(f"\nweakenings with SMT calls: {len(calls)}; median SMT calls per weakening: {med}; "
          f"histogram: {dict(sorted(hist.items()))}")
    others = collections.Counter(r["slicing"] for r in rows)
    print(f"answers: {dict(others)}")


if __name__ == "__main__":
    main()
