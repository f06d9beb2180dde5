#!/usr/bin/env python3
"""Runs the CEGAR engine on a CHC-COMP directory and summarises it: sat/unsat answers per track
beside Z3's (read from earlier Z3 outputs, first line of TRACK__FILE.smt2.out), wrong answers
against expected.tsv, a histogram of the reasons for `unknown` (first stderr line, numbers
blurred), and the median refinement iterations and predicate size over the answered files
(from `--stats`).

Usage: scripts/bench_cegar.py [--timeout 20] [--jobs 1] [--skip-track ADT-LIA] [--z3-dir DIR]
                              [--bin PATH] [--out TSV] [--plain-tsv TSV] [--arg=--cex-shape=uniform]
                              [--only SUBSTRING] [--files LIST] [DIR]
--plain-tsv writes `path<TAB>answer<TAB>seconds` (path relative to DIR) as files finish, for
schedulers.
"""
import argparse, collections, concurrent.futures as cf, csv, json, re, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from bench_chc import solve_with_stats  # noqa: E402  (one runner for all engine benchmarks)


def one(path, args):
    cmd = [args.bin, "solve", "--engine", "cegar", "--timeout", str(args.timeout), "--stats",
           *args.arg, str(path)]
    first, secs, stats, note = solve_with_stats(cmd, args.timeout, 160)
    if first.startswith("(error"):
        first = "error"
    return first, secs, stats, note


def blur(note):
    """A reason with numbers replaced, so that equal causes count together."""
    return re.sub(r"\d+", "N", note)[:90] if note else "(none)"


def median(xs):
    xs = sorted(xs)
    return xs[(len(xs) - 1) // 2] if xs else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default=str(ROOT.parent / "shared" / "chc-bench" / "public"))
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--skip-track", action="append", default=None)
    ap.add_argument("--only", default=None, help="only files whose path contains this")
    ap.add_argument("--files", default=None, help="only the paths (relative to DIR) listed in this file")
    ap.add_argument("--z3-dir", default="/work/wt-bench/bench-out/z3")
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hornbeam"))
    ap.add_argument("--arg", action="append", default=[], help="extra argument to `solve`")
    ap.add_argument("--out", default=None)
    ap.add_argument("--plain-tsv", default=None)
    args = ap.parse_args()
    skip = set(args.skip_track or ["ADT-LIA"])
    d = Path(args.dir)
    expected = {r["path"]: r["expected"] for r in csv.DictReader((d / "expected.tsv").open(), delimiter="\t")}
    files = [f for f in sorted(d.rglob("*.smt2")) if f.relative_to(d).parts[0] not in skip
             and (args.only is None or args.only in str(f.relative_to(d)))]
    if args.files:
        keep = {l.strip() for l in open(args.files) if l.strip()}
        files = [f for f in files if str(f.relative_to(d)) in keep]
    rows = []
    plain = open(args.plain_tsv, "w") if args.plain_tsv else None
    if plain:
        plain.write("path\tanswer\tseconds\n")
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for f, (ans, secs, stats, note) in zip(files, ex.map(lambda f: one(f, args), files)):
            rel = str(f.relative_to(d))
            z3f = Path(args.z3_dir) / (rel.replace("/", "__") + ".out")
            z3 = (z3f.read_text().splitlines() or ["unknown"])[0].strip() if z3f.exists() else "n/a"
            if z3 not in ("sat", "unsat"):
                z3 = "unknown"
            rows.append({"file": rel, "track": f.relative_to(d).parts[0], "expected": expected.get(rel, ""),
                         "z3": z3, "cegar": ans, "time": f"{secs:.2f}",
                         "iterations": stats.get("iterations", ""),
                         "size_median": stats.get("predicate_size_median", ""),
                         "sizes": json.dumps(stats.get("predicate_sizes", [])), "note": note})
            if plain:
                plain.write(f"{rel}\t{ans}\t{secs:.2f}\n")
                plain.flush()
            print(f"{rel}\t{expected.get(rel, '')}\tz3={z3}\tcegar={ans}\t{secs:.2f}s\t"
                  f"it={stats.get('iterations', '')}\t{note}", file=sys.stderr, flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            w = csv.DictWriter(fh, list(rows[0].keys()), delimiter="\t", lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    if plain:
        plain.close()
    print("| track | files | expected sat/unsat | Z3 sat | Z3 unsat | cegar sat | cegar unsat | wrong |")
    print("|---|---|---|---|---|---|---|---|")
    for t in sorted({r["track"] for r in rows}) + ["all"]:
        rs = [r for r in rows if t == "all" or r["track"] == t]
        es = sum(r["expected"] == "sat" for r in rs)
        eu = sum(r["expected"] == "unsat" for r in rs)
        zs = sum(r["z3"] == "sat" for r in rs)
        zu = sum(r["z3"] == "unsat" for r in rs)
        cs = sum(r["cegar"] == "sat" for r in rs)
        cu = sum(r["cegar"] == "unsat" for r in rs)
        wrong = sum(r["cegar"] in ("sat", "unsat") and r["expected"] in ("sat", "unsat")
                    and r["cegar"] != r["expected"] for r in rs)
        print(f"| {t} | {len(rs)} | {es}/{eu} | {zs} | {zu} | {cs} | {cu} | {wrong} |")
    answered = [r for r in rows if r["cegar"] in ("sat", "unsat")]
    its = [int(r["iterations"]) for r in answered if r["iterations"] != ""]
    sizes = [s for r in answered for s in json.loads(r["sizes"])]
    all_sizes = [s for r in rows for s in json.loads(r["sizes"])]
    print(f"\nanswered: {len(answered)}; median iterations (answered): {median(its)}; "
          f"median predicate size (answered files, {len(sizes)} predicates): {median(sizes)}; "
          f"(all files, {len(all_sizes)} predicates): {median(all_sizes)}")
    print(f"answers: {dict(collections.Counter(r['cegar'] for r in rows))}")
    print("\nreasons for unknown:")
    hist = collections.Counter(blur(r["note"]) for r in rows if r["cegar"] not in ("sat", "unsat"))
    for k, v in hist.most_common():
        print(f"{v:5d}  {k}")


if __name__ == "__main__":
    main()
