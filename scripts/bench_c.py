#!/usr/bin/env python3
"""Runs `hornbeam verify` on SV-COMP tasks and compares with the expected verdicts.

Usage: scripts/bench_c.py [--dir ../shared/svcomp/public] [--timeout 20] [--jobs 1]
                          [--bin target/release/hornbeam] [--out bench-out/c.tsv] [--only SUBSTR]
                          [--extra=--all-variables]

Reads DIR/expected.tsv (columns path, category, expected = safe|unsafe; or, as in
../shared/concurrency, expected = true|false and no category: the category is then the path's
first folder; ../shared/heap, path, expected = true|false and property: then each row runs with
`--property PROPERTY` and its category is the path's folder and the property). Each task runs
under `nice` with `--timeout T --trace`; a verdict that differs from the expected one is WRONG.
Prints one table row per category (answered, safe, unsafe, unknown, wrong, errors) and writes
one TSV line per task. `--split FEATURES.tsv:COLUMN` uses that column of a per-path features
table as the category instead (a trailing `-N` is dropped: `fixed-3` counts as `fixed`), e.g.
`--dir ../shared/concurrency --split ../shared/concurrency/features.tsv:threads`.
"""
import argparse, csv, os, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
from collections import defaultdict


def run(binary, path, timeout, extra, prop):
    t0 = time.time()
    if prop:
        extra = [*extra, "--property", prop]
    try:
        p = subprocess.run(["nice", binary, "verify", "--timeout", str(timeout), "--trace", *extra, path],
                           capture_output=True, text=True, timeout=timeout + 30)
        out, err, code = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        out, err, code = "unknown\n", "killed after the grace period", 0
    dt = time.time() - t0
    lines = out.splitlines()
    verdict = lines[0] if lines else "none"
    if code == 2:
        verdict = "error"
    reason = err.strip().splitlines()[0] if err.strip() else ""
    return verdict, dt, reason, len(lines) - 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="../shared/svcomp/public")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bin", default="target/release/hornbeam")
    ap.add_argument("--out", default="bench-out/c.tsv")
    ap.add_argument("--only", default="")
    ap.add_argument("--extra", action="append", default=[], help="an argument passed on to verify")
    ap.add_argument("--split", default="", help="FEATURES.tsv:COLUMN, the category of each path")
    a = ap.parse_args()
    with open(os.path.join(a.dir, "expected.tsv")) as f:
        tasks = [r for r in csv.DictReader(f, delimiter="\t") if a.only in r["path"]]
    split = {}
    if a.split:
        table, column = a.split.rsplit(":", 1)
        with open(table) as f:
            for r in csv.DictReader(f, delimiter="\t"):
                value = r[column]
                split[r["path"]] = value.rsplit("-", 1)[0] if value.rsplit("-", 1)[-1].isdigit() else value
    for r in tasks:
        r["expected"] = {"true": "safe", "false": "unsafe"}.get(r["expected"], r["expected"])
        if r["path"] in split:
            r["category"] = split[r["path"]]
        elif "category" not in r:
            folder = os.path.dirname(r["path"]) or os.path.basename(os.path.normpath(a.dir))
            r["category"] = f"{folder} {r.get('property', '')}".strip()
    binary = os.path.abspath(a.bin)

    def job(r):
        return r, run(binary, os.path.join(a.dir, r["path"]), a.timeout, a.extra, r.get("property"))

    rows = []
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for r, (verdict, dt, reason, extra) in ex.map(job, tasks):
            wrong = verdict in ("safe", "unsafe") and verdict != r["expected"]
            rows.append((r["path"], r["category"], r["expected"], verdict, f"{dt:.2f}", reason, extra, wrong))
            flag = "WRONG" if wrong else ""
            print(f"{r['path']:60} {r['expected']:7} {verdict:8} {dt:6.2f}s {flag} {reason[:80]}",
                  file=sys.stderr, flush=True)
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    with open(a.out, "w") as f:
        w = csv.writer(f, delimiter="\t")
        w.writerow(["path", "category", "expected", "verdict", "seconds", "reason", "trace_lines", "wrong"])
        w.writerows(rows)
    cats = defaultdict(lambda: defaultdict(int))
    for path, cat, exp, verdict, dt, reason, extra, wrong in rows:
        for c in (cat, "all"):
            cats[c]["tasks"] += 1
            cats[c][verdict] += 1
            cats[c]["answered"] += verdict in ("safe", "unsafe") and not wrong
            cats[c]["wrong"] += wrong
            cats[c]["exp_" + exp] += 1
    print("| category | tasks | expected safe/unsafe | safe | unsafe | unknown | error | wrong | answered |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c in sorted(cats, key=lambda c: (c == "all", c)):
        d = cats[c]
        pct = 100.0 * d["answered"] / d["tasks"]
        print(f"| {c} | {d['tasks']} | {d['exp_safe']}/{d['exp_unsafe']} | {d['safe']} | {d['unsafe']} | "
              f"{d['unknown']} | {d['error']} | {d['wrong']} | {d['answered']} ({pct:.0f} %) |")
    answered = sorted(float(dt) for _, _, _, v, dt, _, _, w in rows if v in ("safe", "unsafe") and not w)
    if answered:
        print(f"median time of the answered tasks: {answered[len(answered) // 2]:.2f} s")


if __name__ == "__main__":
    main()
