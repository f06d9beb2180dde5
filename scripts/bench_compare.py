#!/usr/bin/env python3
"""Two Hornbeam binaries on the same quickly answered files: `hornbeam solve FILE` with each,
one run at a time (the default two threads need both cores), alternating which goes first.

Files: those a `bench_batch.py` result (--from, its hornbeam.json) records as answered (`sat`
or `unsat`) within --within seconds (and after --over seconds, by --engine if given), in that
file's order; each run --runs times, the median time kept. Prints, per file, both wall times
and answers, then, over the files both binaries answer, the median time of each per answer
and the median (and quartiles) of the per-file ratios (second over first). The same binary
given twice measures the spread. Meant for changes that save time
around the engines (startup, scheduling), where a whole-set run would drown them in its
unanswered files.

Usage: scripts/bench_compare.py --from bench-out/RUN/hornbeam.json [--within 2.5] [--over 0]
                                [--engine E] [--runs 1] [--answer sat|unsat] [--timeout 10]
                                [--threads 2] BIN_A BIN_B
(--answer: only the files the result records with that answer.)
"""
import argparse, json, statistics
from pathlib import Path

from bench_threads import solve  # one timed `hornbeam solve` run: (first line, seconds)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="source", required=True, help="a bench_batch hornbeam.json")
    ap.add_argument("--within", type=float, default=2.5)
    ap.add_argument("--over", type=float, default=0)
    ap.add_argument("--engine", default=None, help="only files this engine answered")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--answer", choices=("sat", "unsat"), default=None)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args()
    records = json.loads(Path(args.source).read_text())["results"]
    wanted = (args.answer,) if args.answer else ("sat", "unsat")
    files = [r["path"] for r in records
             if r["answer"] in wanted and args.over <= r["time"] <= args.within
             and args.engine in (None, r.get("engine"))]
    rows = []
    for i, f in enumerate(files):
        # By position, not by path: the same binary twice (the spread) is two runs.
        order = [0, 1] if i % 2 == 0 else [1, 0]
        bins = [args.a, args.b]
        runs = {0: [], 1: []}
        for _ in range(args.runs):
            for k in order:
                runs[k].append(solve(bins[k], f, args.threads, args.timeout))
        # An answer's time; a run without one counts as the timeout.
        def median(k):
            ts = [t if a in ("sat", "unsat") else args.timeout for a, t in runs[k]]
            answer = next((a for a, _ in runs[k] if a in ("sat", "unsat")), runs[k][0][0])
            return answer, statistics.median(ts)
        (aa, ta), (ab, tb) = median(0), median(1)
        rows.append((f, aa, ta, ab, tb))
        print(f"{Path(f).name[:50]}\t{aa} {ta:.3f}\t{ab} {tb:.3f}", flush=True)
    answered = ("sat", "unsat")
    both = [r for r in rows if r[1] in answered and r[3] in answered]
    print(f"\n{len(files)} files; answered: first {sum(r[1] in answered for r in rows)}, "
          f"second {sum(r[3] in answered for r in rows)}; different answers: "
          f"{sum(r[1] != r[3] for r in both)}")
    for answer in answered:
        sel = [r for r in both if r[1] == answer]
        if sel:
            ratios = sorted(r[4] / r[2] for r in sel)
            quart = [ratios[int(q * (len(ratios) - 1))] for q in (0.25, 0.75)]
            print(f"{answer}: {len(sel)} files, median {statistics.median(r[2] for r in sel):.3f} s "
                  f"-> {statistics.median(r[4] for r in sel):.3f} s; median ratio "
                  f"{statistics.median(ratios):.2f} (quartiles {quart[0]:.2f}-{quart[1]:.2f})")
    if both:
        print(f"all: {len(both)} files, median {statistics.median(r[2] for r in both):.3f} s -> "
              f"{statistics.median(r[4] for r in both):.3f} s; total {sum(r[2] for r in both):.1f} "
              f"-> {sum(r[4] for r in both):.1f} s; median ratio "
              f"{statistics.median(r[4] / r[2] for r in both):.2f}")


if __name__ == "__main__":
    main()
