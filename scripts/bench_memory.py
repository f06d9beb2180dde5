#!/usr/bin/env python3
"""Peak memory against input size: Hornbeam binaries on one family of generated clause systems
at growing sizes, with one thread and with two.

The family: one predicate P, P(0), n self-loop clauses P(x) ∧ y = x + step → P(y) and the
query P(x) ∧ x < 0 → false (safe). `same`: every step 2 (n copies of one clause); `distinct`:
step i + 1 for the i-th clause. Each run is `hornbeam solve FILE --timeout T --threads K`;
its peak resident set comes from the resource usage of the reaped child (ru_maxrss). Prints a
Markdown table: per kind, size and threads, each binary's answer, seconds and peak MB.

Usage: scripts/bench_memory.py [--sizes 10,100,1000] [--timeout 20] BIN [BIN ...]
"""
import argparse, os, resource, subprocess, tempfile, time
from pathlib import Path


def family(n, distinct):
    lines = ["(set-logic HORN)", "(declare-fun P (Int) Bool)",
             "(assert (forall ((x Int)) (=> (= x 0) (P x))))"]
    for i in range(n):
        step = i + 1 if distinct else 2
        lines.append(f"(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x {step}))) (P y))))")
    lines.append("(assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))")
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


def measure(binary, path, timeout, threads):
    """(first line, seconds, peak MB) of one run."""
    start = time.monotonic()
    proc = subprocess.Popen([binary, "solve", str(path), "--timeout", str(timeout),
                             "--threads", str(threads)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    secs = time.monotonic() - start
    answer = out.splitlines()[0] if out else "(none)"
    return answer, secs, usage.ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,100,1000")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("bins", nargs="+")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    head = "| kind | clauses | threads | " + " | ".join(
        f"{Path(b).name or b}: answer, s, MB" for b in args.bins) + " |"
    print(head)
    print("|" + "---|" * (3 + len(args.bins)))
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("same", "distinct"):
            for n in sizes:
                path = Path(tmp) / f"{kind}{n}.smt2"
                path.write_text(family(n, kind == "distinct"))
                for threads in (1, 2):
                    cells = []
                    for b in args.bins:
                        answer, secs, mb = measure(b, path, args.timeout, threads)
                        cells.append(f"{answer}, {secs:.2f}, {mb:.0f}")
                    print(f"| {kind} | {n} | {threads} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
