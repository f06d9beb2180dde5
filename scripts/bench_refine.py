#!/usr/bin/env python3
"""Runs `hornbeam refine` on every subject of tests/data/refine (seed 004, Table 1) and prints
a Markdown table: the paper's time and answer beside Hornbeam's answer and the median wall
time of N runs (one at a time: the check is single-threaded).

Each subject directory holds abstract.c, concrete.c, `expect` (the paper's answer) and
optionally `args` (extra command-line arguments, one per line).

Usage: scripts/bench_refine.py [--bin target/release/hornbeam] [--runs 3] [--timeout 300]
                               [--only S ...] [--skip S ...] [--no-guess]
"""
import argparse
import os
import statistics
import subprocess
import time

# Seed 004, Table 1 (seconds, answer), by subject directory.
PAPER = {
    "gcd-t1": ("3.299", "Yes"),
    "gcd-t2": ("2.709", "Yes"),
    "peterson": ("0.937", "No"),
    "invariant-hoisting": ("1.661", "Yes"),
    "strength-reduction": ("156.518", "Yes"),
    "induction-variable-elimination": ("218.695", "Yes"),
    "dead-code-elimination": ("14.413", "No"),
    "constant-folding": ("5.481", "Yes"),
    "if-optimization-1": ("49.015", "Yes"),
    "if-optimization-2": ("48.997", "Yes"),
    "cross-jumping": ("415.490", "Yes"),
    "branch-elimination": ("19.412", "Yes"),
    "loop-unrolling": ("10.412", "Yes"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/hornbeam")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", default="300")
    ap.add_argument("--root", default="tests/data/refine")
    ap.add_argument("--only", nargs="*", help="these subjects only")
    ap.add_argument("--skip", nargs="*", default=[], help="not these subjects")
    ap.add_argument("--no-guess", action="store_true",
                    help="pass --no-guess (the iteration from the relation alone)")
    a = ap.parse_args()
    order = [s for s in PAPER if os.path.isdir(os.path.join(a.root, s))]
    order += sorted(s for s in os.listdir(a.root)
                    if s not in PAPER and os.path.exists(os.path.join(a.root, s, "expect")))
    order = [s for s in order if (not a.only or s in a.only) and s not in a.skip]
    print("| subject | paper: time (s) | paper | Hornbeam | time (s, median of %d) | expected |" % a.runs)
    print("|---|---:|---|---|---:|---|")
    for s in order:
        d = os.path.join(a.root, s)
        args = []
        if os.path.exists(os.path.join(d, "args")):
            args = [l for l in open(os.path.join(d, "args")).read().splitlines() if l]
        expect = open(os.path.join(d, "expect")).read().strip()
        cmd = [a.bin, "refine", os.path.join(d, "abstract.c"), os.path.join(d, "concrete.c"),
               "--timeout", a.timeout] + args + (["--no-guess"] if a.no_guess else [])
        times, answers = [], []
        for _ in range(a.runs):
            t0 = time.monotonic()
            p = subprocess.run(cmd, capture_output=True, text=True)
            times.append(time.monotonic() - t0)
            answers.append((p.stdout.splitlines() or ["(none)"])[0])
        answer = answers[0] if len(set(answers)) == 1 else "/".join(answers)
        ptime, pans = PAPER.get(s, ("-", "-"))
        print("| %s | %s | %s | %s | %.2f | %s |" % (s, ptime, pans, answer,
                                                     statistics.median(times), expect))


if __name__ == "__main__":
    main()
