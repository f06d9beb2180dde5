#!/usr/bin/env python3
"""Replays per-file results of single engines to compare portfolio schedules (the measurement
behind `src/engine/portfolio.rs`), without running a solver.

Each engine's results are a TSV with a file column, an answer column and a time column (the
formats of bench_chc.py, bench_slicing.py and the CEGAR runs). A schedule is a list of phases
ENGINE:SLICE, where SLICE is seconds, a fraction (<1) of the time left, or `rest`. A phase
solves a file when the engine's answer is sat/unsat and its time fits the phase; otherwise the
phase costs its time (or the whole slice). Engines are assumed to behave as in their own run
(seeding and restarts are not modelled), so this ranks schedules; it does not predict counts.

Usage: scripts/portfolio_schedule.py --timeout 20 \
  --engine slicing=bench-out/slicing-cex.tsv:slicing:time \
  --engine bmc=bench-out/results.tsv:hornbeam:hb_time \
  --engine bmc=newer-bmc-run/results.tsv:hornbeam:hb_time \
  --engine cegar=cegar.tsv:cegar:time \
  "slicing:2 bmc:1 cegar:0.5 bmc:rest" "slicing:2 cegar:rest bmc:rest" ...
"""
import argparse, csv


def load(spec):
    name, rest = spec.split("=", 1)
    path, ans, tcol = rest.rsplit(":", 2)
    rows = {}
    for r in csv.DictReader(open(path), delimiter="\t"):
        f = r.get("file") or r.get("path")
        rows[f] = (r[ans], float(r[tcol] or "inf"))
    return name, rows


def simulate(phases, engines, files, timeout):
    solved, total, by = 0, 0.0, {}
    for f in files:
        used = 0.0
        for name, sl in phases:
            left = timeout - used
            if left <= 0:
                break
            lim = left if sl == "rest" else (left * float(sl) if float(sl) < 1 else min(float(sl), left))
            answer, t = engines[name].get(f, ("unknown", float("inf")))
            if answer in ("sat", "unsat") and t <= lim:
                solved, total = solved + 1, total + used + t
                by[name] = by.get(name, 0) + 1
                break
            used += min(t, lim)
    return solved, total, by


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--engine", action="append", required=True, help="NAME=TSV:ANSWER:TIME")
    ap.add_argument("schedules", nargs="+")
    args = ap.parse_args()
    engines = {}
    for spec in args.engine:  # a later file of the same engine overrides an earlier one
        name, rows = load(spec)
        engines.setdefault(name, {}).update(rows)
    files = sorted(set.intersection(*(set(e) for e in engines.values())))
    print(f"{len(files)} files with results of every engine, {args.timeout:g} s per file")
    print("| schedule | solved | time of solved (s) | by engine |\n|---|---|---|---|")
    for s in args.schedules:
        phases = [tuple(p.split(":")) for p in s.split()]
        n, t, by = simulate(phases, engines, files, args.timeout)
        print(f"| `{s}` | {n} | {t:.0f} | {', '.join(f'{k} {v}' for k, v in sorted(by.items()))} |")


if __name__ == "__main__":
    main()
