#!/usr/bin/env python3
"""Hornbeam against Z3 on the same CHC-COMP files with the same limits, one after the other per
file, written as two result files of `hornbeam batch`'s JSON shape and one HTML report.

Z3 comes from the Python package index (`z3-solver==5.3.3.0`, Spacer), installed into a private
virtual environment (`.bench-venv/`, git-ignored) on first use. Hornbeam is the release binary,
run as `hornbeam batch FILE` per file (so its isolation, memory limit and result records are
exactly those of a batch run: `--memory` bounds its resident set); Z3 runs as `z3 -T:SECS FILE`
under an address-space limit (setrlimit) of the same number of MB, which is stricter (it counts
reserved address space too), and the same wall-clock kill.

Usage: scripts/bench_batch.py [--timeout 20] [--memory 8192] [--jobs 1] [--threads 1]
                              [--out bench-out/batch] [--expected TSV] [--skip-z3] [--summarize]
                              [--hints FILE] [PATH...]
PATH defaults to ../shared/chc-bench/public (and --expected to its expected.tsv). Writes
OUT/hornbeam.json, OUT/z3.json and OUT/report.html, and prints the summary per track and the
median times on the files both solve; `--summarize` prints them again from OUT's files.

An answer that arrives after the time limit (`hornbeam batch` lets a search that ended in time
translate its answer back and validate it within a grace of 5 s; Z3 stops at `-T`) counts as
`late` in the summaries, not as solved: the tables compare answers within the same limit.

With `--hints FILE`, the second solver is Hornbeam again with `solve --hints FILE` (a rule file
or a model) in place of Z3, written as OUT/hints.json: the same files, limits and binary, with
and without the hints, one after the other per file.
"""
import argparse, concurrent.futures as cf, csv, json, os, resource, statistics, subprocess, sys, time, venv
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_chc import HB, ROOT  # noqa: E402  (one place for the repository layout)

VENV = ROOT / ".bench-venv"
Z3_PACKAGE = "z3-solver==5.3.3.0"
DEFAULT = ROOT.parent / "shared" / "chc-bench" / "public"


def z3_binary():
    """The z3 binary of the private venv, installed from PyPI when missing."""
    z3 = VENV / "bin" / "z3"
    if not z3.exists():
        venv.create(VENV, with_pip=True)
        subprocess.run([str(VENV / "bin" / "python"), "-m", "pip", "install", "-q", Z3_PACKAGE],
                       check=True)
    return z3


def inputs(paths):
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.name.endswith((".smt2", ".smt2.gz")))
        else:
            out.append(p)
    return out


def expected_answers(tsv):
    if not tsv:
        return {}
    base = Path(tsv).resolve().parent
    return {str((base / r["path"]).resolve()): r["expected"]
            for r in csv.DictReader(open(tsv), delimiter="\t")}


def limit_memory(mb):
    def set_limit():
        b = mb * (1 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (b, b))
    return set_limit if mb else None


def hornbeam(path, args, hints=None):
    """One `hornbeam batch FILE` run (with `--hints HINTS` when given); its single record."""
    tag = "-hints" if hints else ""
    out = Path(args.out) / "tmp" / (str(abs(hash(str(path)))) + tag + ".json")
    extra = ["--hints", hints] if hints else []
    subprocess.run([args.bin, "batch", str(path), "--jobs", "1", "--timeout", str(args.timeout),
                    "--memory", str(args.memory), "--engine", args.engine, "--threads", str(args.threads),
                    "--json", str(out), *extra],
                   capture_output=True)
    try:
        rec = json.loads(out.read_text())["results"][0]
        out.unlink()
        return rec
    except (OSError, ValueError, IndexError, KeyError) as e:
        return {"path": str(path), "track": path.parent.name, "answer": "error",
                "expected": None, "wrong": False, "time": 0.0, "engine": None,
                "validation": "", "reason": f"hornbeam batch wrote no result: {e}"}


def z3(path, args, binary):
    rec = {"path": str(path), "track": path.parent.name, "answer": "error", "expected": None,
           "wrong": False, "time": 0.0, "engine": "spacer", "validation": "", "reason": ""}
    cmd = [str(binary), f"-T:{int(round(args.timeout))}", str(path)]
    if path.name.endswith(".gz"):
        rec["reason"] = "z3 does not read .gz files"
        return rec
    t = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout + 5,
                           preexec_fn=limit_memory(args.memory))
        first = (p.stdout.splitlines() or [""])[0].strip()
        if first in ("sat", "unsat", "unknown"):
            rec["answer"] = first
            rec["validation"] = "unchecked" if first != "unknown" else ""
        elif first == "timeout":
            rec["answer"], rec["reason"] = "unknown", "timeout"
        else:
            rec["reason"] = (first or p.stderr.strip() or f"exit status {p.returncode}")[:200]
    except subprocess.TimeoutExpired:
        rec["reason"] = "killed at the wall-clock limit"
    rec["time"] = time.monotonic() - t
    return rec


def mark(rec, expected):
    exp = expected.get(str(Path(rec["path"]).resolve()))
    rec["expected"] = exp
    rec["wrong"] = (rec["answer"], exp) in (("sat", "unsat"), ("unsat", "sat"))
    return rec


def late(rec, timeout):
    """Whether `rec` answered `sat` or `unsat` after the time limit (see the module header)."""
    return rec["answer"] in ("sat", "unsat") and rec["time"] > timeout


def summary(name, run):
    tracks = sorted({r["track"] for r in run["results"]})
    limit = run["timeout"]
    print(f"\n{name}: wall time {run['wall_time']:.0f} s")
    print("| track | files | sat | unsat | unknown | error | late | wrong |")
    print("|---|---|---|---|---|---|---|---|")
    for t in tracks + ["all"]:
        rs = [r for r in run["results"] if t in ("all", r["track"])]
        c = lambda a: sum(r["answer"] == a and not r["wrong"] and not late(r, limit) for r in rs)
        print(f"| {t} | {len(rs)} | {c('sat')} | {c('unsat')} | {c('unknown')} | {c('error')} | "
              f"{sum(late(r, limit) for r in rs)} | {sum(r['wrong'] for r in rs)} |")


def both_solved(runs, timeout, other="z3"):
    """The files both solvers answer (correctly, within `timeout`): how many, and each one's
    median time, overall and per track."""
    h = {r["path"]: r for r in runs["hornbeam"]}
    z = {r["path"]: r for r in runs[other]}
    ok = lambda r: r["answer"] in ("sat", "unsat") and not r["wrong"] and not late(r, timeout)
    paths = [p for p in h if p in z and ok(h[p]) and ok(z[p])]
    tracks = sorted({h[p]["track"] for p in paths})
    print("\nboth solved: median time (s)")
    print(f"| track | files | hornbeam | {other} |")
    print("|---|---|---|---|")
    for t in tracks + ["all"]:
        ps = [p for p in paths if t in ("all", h[p]["track"])]
        med = lambda run: statistics.median(run[p]["time"] for p in ps) if ps else 0.0
        print(f"| {t} | {len(ps)} | {med(h):.2f} | {med(z):.2f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", default=[str(DEFAULT)])
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--memory", type=int, default=8192, help="MB per instance (0: none)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=str(ROOT / "bench-out" / "batch"))
    ap.add_argument("--expected", default=None)
    ap.add_argument("--skip-z3", action="store_true")
    ap.add_argument("--engine", default="auto", help="hornbeam's engine (solve --engine)")
    ap.add_argument("--threads", type=int, default=1,
                    help="hornbeam's threads per file (batch --threads; 1 is batch's default)")
    ap.add_argument("--bin", default=str(HB),
                    help="hornbeam binary (a frozen copy keeps a long run safe from rebuilds)")
    ap.add_argument("--hints", default=None,
                    help="in place of Z3, Hornbeam again with `solve --hints FILE`")
    ap.add_argument("--summarize", action="store_true",
                    help="run nothing: print the summaries of the result files in --out")
    args = ap.parse_args()
    if args.summarize:
        runs, limit = {}, args.timeout
        for name in ("hornbeam", "z3", "hints"):
            f = Path(args.out) / f"{name}.json"
            if f.exists():
                run = json.loads(f.read_text())
                runs[name], limit = run["results"], run["timeout"]
                summary(name, run)
        for other in ("z3", "hints"):
            if "hornbeam" in runs and other in runs:
                both_solved(runs, limit, other)
        return 0
    if args.expected is None and args.paths == [str(DEFAULT)]:
        args.expected = str(DEFAULT / "expected.tsv")
    (Path(args.out) / "tmp").mkdir(parents=True, exist_ok=True)
    files = inputs(args.paths)
    expected = expected_answers(args.expected)
    other = "hints" if args.hints else "z3"
    binary = None if args.skip_z3 or args.hints else z3_binary()

    def both(path):
        h = mark(hornbeam(path, args), expected)
        if args.hints:
            z = mark(hornbeam(path, args, args.hints), expected)
        else:
            z = None if binary is None else mark(z3(path, args, binary), expected)
        print(f"{path}: hornbeam {h['answer']} {h['time']:.1f}s"
              + ("" if z is None else f", {other} {z['answer']} {z['time']:.1f}s"), flush=True)
        return h, z

    start = time.monotonic()
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        pairs = list(pool.map(both, files))
    wall = time.monotonic() - start
    runs = {"hornbeam": [h for h, _ in pairs]}
    if binary is not None or args.hints:
        runs[other] = [z for _, z in pairs]
    names = []
    for name, results in runs.items():
        run = {"solver": name, "timeout": args.timeout, "memory_mb": args.memory or None,
               "jobs": args.jobs, "wall_time": wall, "interrupted": False, "results": results}
        out = Path(args.out) / f"{name}.json"
        out.write_text(json.dumps(run, indent=2))
        names.append(f"{name}={out}")
        summary(name, run)
    if other in runs:
        both_solved(runs, args.timeout, other)
    report = Path(args.out) / "report.html"
    subprocess.run([args.bin, "report", *names, "--out", str(report)], check=True)
    print(f"\nreport: {report}  (the wall time is that of both solvers together)")
    wrong = sum(r["wrong"] for rs in runs.values() for r in rs)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
