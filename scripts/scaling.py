#!/usr/bin/env python3
"""Scaling of Hornbeam on degenerate inputs it generates itself (issue "Hostile and degenerate
input"): loading clauses that reuse the same variable names, `analyze` on chains of
predicates, `solve` on `let` chains whose bindings are each used twice (a DAG whose tree is
exponential), and chains of `define-fun`s. Prints one table row per input: wall time and peak
resident memory of the one `hornbeam` process, and its first output line.

    python3 scripts/scaling.py [--bin target/release/hornbeam] [--out scaling-out]
"""

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path


def reused_names(n):
    """n clauses over predicates P0..P(n-1), every clause with variables named x and y."""
    out = ["(set-logic HORN)"]
    out += [f"(declare-fun P{i} (Int Int) Bool)" for i in range(n)]
    out.append("(assert (forall ((x Int) (y Int)) (=> (= x 0) (P0 x y))))")
    for i in range(1, n):
        out.append(
            f"(assert (forall ((x Int) (y Int)) (=> (and (P{i-1} x y) (= y (+ x 1))) (P{i} y x))))"
        )
    out.append(
        f"(assert (forall ((x Int) (y Int)) (=> (and (P{n-1} x y) (< x 0)) false)))")
    out.append("(check-sat)")
    return "\n".join(out) + "\n"


def let_chain(levels):
    """x doubled `levels` times through lets that each use the previous binding twice."""
    lets = "".join(f"(let ((a{i} (+ a{i-1} a{i-1}))) " for i in range(1, levels + 1))
    return (
        "(set-logic HORN)\n(declare-fun P (Int) Bool)\n"
        "(assert (forall ((x Int)) (=> (= x 1) (P x))))\n"
        f"(assert (forall ((x Int)) (=> (P x) (let ((a0 x)) {lets}(P a{levels}){')' * levels}))))\n"
        "(assert (forall ((x Int)) (=> (and (P x) (< x 1)) false)))\n(check-sat)\n"
    )


def definition_chain(n):
    """n define-funs, each using the previous one: a term as deep as the chain."""
    out = ["(set-logic HORN)", "(declare-fun P (Int) Bool)", "(define-fun d0 ((x Int)) Int x)"]
    for i in range(1, n):
        out.append(f"(define-fun d{i} ((x Int)) Int (ite (> x {i}) (d{i-1} x) (* 2 x)))")
    out.append(f"(assert (forall ((x Int)) (=> (= x (d{n-1} 1)) (P x))))")
    out.append("(assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))")
    out.append("(check-sat)")
    return "\n".join(out) + "\n"


def run_one(bin_path, args, kill_after):
    """(wall seconds, peak RSS in MB, first stdout line, exit code) of one process, killed
    after `kill_after` seconds."""
    start = time.monotonic()
    proc = subprocess.Popen([bin_path] + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    timer = threading.Timer(kill_after, proc.kill)
    timer.start()
    # Read all output, then reap with wait4 to get this child's own peak RSS.
    data = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    wall = time.monotonic() - start
    first = data.decode(errors="replace").split("\n", 1)[0]
    code = os.waitstatus_to_exitcode(status)
    if code == -9:
        first = "killed after %g s" % kill_after
    return wall, usage.ru_maxrss / 1024.0, first, code


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release/hornbeam")
    ap.add_argument("--out", default="scaling-out")
    ap.add_argument("--kill-after", type=float, default=600.0)
    a = ap.parse_args()
    if not Path(a.bin).exists():
        subprocess.run(["cargo", "build", "--release"], check=True)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    cases = []
    for n in (1000, 10000, 100000):
        cases.append((f"reused-names-{n}", reused_names(n), ["print"]))
    for n in (1000, 10000):
        cases.append((f"predicate-chain-{n}", reused_names(n), ["analyze"]))
    for levels in (30, 60):
        cases.append((f"let-chain-{levels}", let_chain(levels), ["solve", "--timeout", "10"]))
    for n in (1000, 10000):
        cases.append((f"define-fun-chain-{n}", definition_chain(n), ["solve", "--timeout", "10"]))
    print("| input | command | wall s | peak RSS MB | first line |")
    print("|---|---|---:|---:|---|")
    for name, text, args in cases:
        path = out / f"{name}.smt2"
        path.write_text(text)
        wall, rss, first, code = run_one(a.bin, args + [str(path)], a.kill_after)
        shown = first if code == 0 or first else f"exit {code}"
        print(f"| {name} | {' '.join(args)} | {wall:.2f} | {rss:.0f} | {shown[:40]} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
