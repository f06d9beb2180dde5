#!/usr/bin/env python3
"""Mean arity of the cut-point (loop-head) predicates of C tasks, with and without the liveness
filter: runs `hornbeam verify --emit-chc` (and with `--all-variables`) on every task of
DIR/expected.tsv and averages the arities of the declared `*_loopK` predicates.

Usage: scripts/cut_arity.py [--dir ../shared/svcomp/public] [--bin target/release/hornbeam]
"""
import argparse, csv, os, re, subprocess

DECL = re.compile(r"^\(declare-fun (\S+_loop\d+) \(([^)]*)\) Bool\)$")


def arities(binary, path, extra):
    p = subprocess.run([binary, "verify", "--emit-chc", *extra, path], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    out = []
    for line in p.stdout.splitlines():
        m = DECL.match(line)
        if m:
            out.append(len(m.group(2).split()))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="../shared/svcomp/public")
    ap.add_argument("--bin", default="target/release/hornbeam")
    a = ap.parse_args()
    with open(os.path.join(a.dir, "expected.tsv")) as f:
        tasks = [r["path"] for r in csv.DictReader(f, delimiter="\t")]
    live, full, failed = [], [], 0
    for t in tasks:
        path = os.path.join(a.dir, t)
        x, y = arities(a.bin, path, []), arities(a.bin, path, ["--all-variables"])
        if x is None or y is None:
            failed += 1
            continue
        live += x
        full += y
    mean = lambda v: sum(v) / len(v) if v else 0.0
    print(f"tasks: {len(tasks)} ({failed} not translated), cut-point predicates: {len(live)}")
    print(f"mean arity with the liveness filter: {mean(live):.2f}, without: {mean(full):.2f}")


if __name__ == "__main__":
    main()
