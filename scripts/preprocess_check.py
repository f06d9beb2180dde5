#!/usr/bin/env python3
"""Preprocessing never changes an answer: runs `hornbeam solve` with and without
`--no-preprocess` on CHC-COMP files and compares.

For every file it records both answers and whether stderr reports an internal error (a
back-translated witness that failed validation against the original file, or a derivation that
could not be translated back). It prints counts and writes one TSV row per file.

Usage:
  scripts/preprocess_check.py [--bench DIR] [--timeout SECS] [--jobs N] [--sat-sample N]
                              [--engine bmc] [--binary PATH] [--out TSV]

By default all files whose expected answer (DIR/expected.tsv) is `unsat` are run, plus the first
`--sat-sample` files (in sorted order) of every track whose expected answer is `sat`
(`--sat-sample -1`: all). ADT-LIA is skipped (datatypes are unsupported).
"""
import argparse
import csv
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def run(binary, path, engine, timeout, preprocess):
    cmd = [binary, "solve", str(path), "--engine", engine, "--timeout", str(timeout)]
    if not preprocess:
        cmd.append("--no-preprocess")
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 30)
        out, err = p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        out, err = "unknown\n", "killed: hard timeout"
    secs = time.monotonic() - start
    answer = out.splitlines()[0].strip() if out else "none"
    return answer, "internal error" in err, secs, err.strip().splitlines()[:1]


def main():
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=str(root.parent / "shared" / "chc-bench" / "public"))
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sat-sample", type=int, default=5)
    ap.add_argument("--engine", default="bmc")
    ap.add_argument("--binary", default=str(root / "target" / "release" / "hornbeam"))
    ap.add_argument("--out", default=str(root / "bench-out" / "preprocess_check.tsv"))
    args = ap.parse_args()

    bench = Path(args.bench)
    rows = list(csv.DictReader(open(bench / "expected.tsv"), delimiter="\t"))
    rows = [r for r in rows if r["track"] != "ADT-LIA"]
    rows.sort(key=lambda r: r["path"])
    chosen, per_track = [], {}
    for r in rows:
        if r["expected"] == "sat":
            n = per_track.get(r["track"], 0)
            if 0 <= args.sat_sample <= n:
                continue
            per_track[r["track"]] = n + 1
        chosen.append(r)

    def job(r):
        path = bench / r["path"]
        a = run(args.binary, path, args.engine, args.timeout, True)
        b = run(args.binary, path, args.engine, args.timeout, False)
        return r, a, b

    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for i, (r, a, b) in enumerate(ex.map(job, chosen), 1):
            results.append((r, a, b))
            print(f"\r{i}/{len(chosen)} {r['path'][:60]:60}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as f:
        f.write("path\texpected\twith\twithout\twith_s\twithout_s\tinternal_error\tnote\n")
        for r, a, b in results:
            note = (a[3] or b[3] or [""])[0].replace("\t", " ")
            f.write(f"{r['path']}\t{r['expected']}\t{a[0]}\t{b[0]}\t{a[2]:.2f}\t{b[2]:.2f}\t"
                    f"{int(a[1] or b[1])}\t{note}\n")

    definite = {"sat", "unsat"}
    disagree = [r["path"] for r, a, b in results
                if a[0] in definite and b[0] in definite and a[0] != b[0]]
    wrong = [r["path"] for r, a, b in results
             for x in (a[0], b[0]) if x in definite and x != r["expected"]]
    internal = [r["path"] for r, a, b in results if a[1] or b[1]]
    count = lambda pred: sum(1 for r, a, b in results if pred(a, b))
    print(f"files: {len(results)} (expected unsat: "
          f"{sum(1 for r, _, _ in results if r['expected'] == 'unsat')}, "
          f"expected sat: {sum(1 for r, _, _ in results if r['expected'] == 'sat')})")
    print(f"answered with preprocessing: {count(lambda a, b: a[0] in definite)}")
    print(f"answered without preprocessing: {count(lambda a, b: b[0] in definite)}")
    print(f"answered by both: {count(lambda a, b: a[0] in definite and b[0] in definite)}")
    print(f"only with: {count(lambda a, b: a[0] in definite and b[0] not in definite)}, "
          f"only without: {count(lambda a, b: b[0] in definite and a[0] not in definite)}")
    print(f"time total (s): with {sum(a[2] for _, a, _ in results):.1f}, "
          f"without {sum(b[2] for _, _, b in results):.1f}")
    print(f"disagreements (sat vs unsat): {len(disagree)} {disagree}")
    print(f"answers differing from expected: {len(wrong)} {wrong}")
    print(f"internal errors (failed back-translation or validation): {len(internal)} {internal}")
    print(f"per-file rows: {args.out}")
    return 1 if disagree or internal or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
