#!/usr/bin/env python3
"""Benchmarks Hornbeam against Z3 (Spacer) on a directory of CHC-COMP files.

For every file: Z3 (the binary shipped in the z3-solver wheel that build.rs fetches, see z3path.py)
runs with the time limit and `(get-model)`; `hornbeam solve --engine ENGINE` runs with the same
limit; for every file Z3 answers `sat`, `hornbeam check` validates Z3's model, and again after
one predicate's definition (the first one that is not already `false`) is replaced by `false`.
Runs are one file at a time per job, Z3 and Hornbeam one after the other.

Usage: scripts/bench_chc.py [--timeout 20] [--jobs 2] [--engine bmc] [--out bench-out]
                            [--skip-z3] [DIR]   (DIR defaults to ../shared/chc-bench/public)
Writes OUT/results.tsv (one row per file) and prints a summary per track.
"""
import argparse, concurrent.futures as cf, csv, json, os, re, subprocess, sys, time
from pathlib import Path

from z3path import z3_dir

ROOT = Path(__file__).resolve().parent.parent
HB = ROOT / "target" / "release" / "hornbeam"
Z3 = z3_dir() / "bin" / "z3"


def run(cmd, timeout, stdin=None):
    t = time.monotonic()
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
        out, err, code = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        out, err, code = "", "killed", -1
    return out, err, code, time.monotonic() - t


def solve_with_stats(cmd, timeout, note_len=160):
    """Runs a `hornbeam solve ... --stats` command: (first stdout line, seconds, engine_stats,
    first non-JSON stderr line cut to note_len). A run killed at timeout + 40 s reads `killed`."""
    out, err, _, secs = run(cmd, timeout + 40)
    first = (out.splitlines() or ["crash"])[0].strip()
    stats = {}
    note = ""
    for line in err.splitlines():
        if line.startswith("{"):
            try:
                stats = json.loads(line).get("engine_stats", {})
            except json.JSONDecodeError:
                pass
        elif not note:
            note = line[:note_len]
    return first, secs, stats, note


def fact_heads(path, tmp):
    """Names of the predicates that head a fact clause (from `hornbeam facts`)."""
    subprocess.run([str(HB), "facts", str(path), "--out", str(tmp)], capture_output=True)
    try:
        names = dict(l.rstrip("\n").split("\t", 1) for l in (tmp / "pred_name.facts").open())
        facts = {l.strip() for l in (tmp / "fact_clause.facts").open()}
        heads = dict(l.split() for l in (tmp / "head_atom.facts").open())
    except (OSError, ValueError):
        return set()
    return {names[heads[c]] for c in facts if c in heads}


def skip_sexpr(text, i):
    """The index just past the s-expression (a parenthesised list or an atom) starting at i."""
    if text[i] != "(":
        while i < len(text) and not text[i].isspace() and text[i] != ")":
            i += 1
        return i
    depth = 0
    while True:
        depth += text[i] == "("
        depth -= text[i] == ")"
        i += 1
        if depth == 0:
            return i


def falsify(model, candidates):
    """Replaces by `false` the body of the first define-fun of a predicate in `candidates`
    (heads of fact clauses: such a predicate cannot be false in any model, so the result must
    be rejected unless the fact's constraint is unsatisfiable)."""
    for m in re.finditer(r"\(define-fun\s+(\|[^|]*\||[^\s()]+)\s*\(", model):
        if m.group(1).strip("|") not in candidates:
            continue
        # the parameter list, then the sort `Bool`, then the body (a list or an atom)
        i = skip_sexpr(model, m.end() - 1)
        k = model.index("Bool", i) + 4
        while model[k].isspace():
            k += 1
        e = skip_sexpr(model, k)
        return model[:k] + "false" + model[e:], m.group(1)
    return None, None


def one(path, args, out_dir):
    rel = path.relative_to(args.dir)
    tag = str(rel).replace("/", "__")
    row = {"file": str(rel), "track": rel.parts[0]}
    z3out = out_dir / "z3" / (tag + ".out")
    if not args.skip_z3 or not z3out.exists():
        src = path.read_text()
        src = "\n".join(l for l in src.splitlines() if l.strip() != "(exit)") + "\n(get-model)\n"
        out, _, _, secs = run([str(Z3), "-in", f"-T:{args.timeout}"], args.timeout + 10, src)
        z3out.write_text(out)
        (out_dir / "z3" / (tag + ".time")).write_text(f"{secs:.3f}")
    out = z3out.read_text()
    row["z3"] = (out.splitlines() or ["unknown"])[0].strip()
    if row["z3"] not in ("sat", "unsat"):
        row["z3"] = "unknown"
    tfile = out_dir / "z3" / (tag + ".time")
    row["z3_time"] = tfile.read_text() if tfile.exists() else ""
    if args.models_only:
        hb, err, code, secs = "skipped", "", 0, 0.0
    else:
        hb, err, code, secs = run(
            [str(HB), "solve", "--engine", args.engine, "--timeout", str(args.timeout), str(path)],
            args.timeout + 15,
        )
    first = (hb.splitlines() or [""])[0].strip()
    row["hornbeam"] = first if first in ("sat", "unsat", "unknown", "skipped") else ("error" if code == 2 else "crash")
    row["hb_time"] = f"{secs:.3f}"
    row["hb_note"] = (err.strip().splitlines() or [""])[0][:120]
    row["z3_model"] = row["z3_model_falsified"] = ""
    if row["z3"] == "sat":
        model = "\n".join(out.splitlines()[1:])
        mfile = out_dir / "z3" / (tag + ".model")
        mfile.write_text(model)
        o, e, c, _ = run([str(HB), "check", str(path), str(mfile)], 120)
        row["z3_model"] = (o.splitlines() or ["error"])[0] if c != 2 else "error: " + e.strip()[:100]
        bad, pred = falsify(model, fact_heads(path, out_dir / "facts" / tag))
        if bad is not None:
            ffile = out_dir / "z3" / (tag + ".falsified")
            ffile.write_text(bad)
            o, e, c, _ = run([str(HB), "check", str(path), str(ffile)], 120)
            row["z3_model_falsified"] = (o.splitlines() or ["error"])[0]
        else:
            row["z3_model_falsified"] = "n/a"
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default=str(ROOT.parent / "shared" / "chc-bench" / "public"))
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--engine", default="bmc")
    ap.add_argument("--out", default=str(ROOT / "bench-out"))
    ap.add_argument("--skip-z3", action="store_true", help="reuse Z3 outputs from a previous run")
    ap.add_argument("--z3-unsat-only", action="store_true",
                    help="with --skip-z3: only the files Z3 answered unsat in the reused run")
    ap.add_argument("--models-only", action="store_true",
                    help="only check Z3's models (no hornbeam solve runs)")
    args = ap.parse_args()
    args.dir = Path(args.dir)
    out_dir = Path(args.out)
    (out_dir / "z3").mkdir(parents=True, exist_ok=True)
    (out_dir / "facts").mkdir(parents=True, exist_ok=True)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    expected = {}
    exp_file = args.dir / "expected.tsv"
    if exp_file.exists():
        for r in csv.DictReader(exp_file.open(), delimiter="\t"):
            expected[r["path"]] = r["expected"]
    files = sorted(args.dir.rglob("*.smt2"))
    if args.z3_unsat_only:
        def z3_unsat(p):
            out = out_dir / "z3" / (str(p.relative_to(args.dir)).replace("/", "__") + ".out")
            return out.exists() and out.read_text().startswith("unsat")
        files = [p for p in files if z3_unsat(p)]
    rows = []
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for row in ex.map(lambda p: one(p, args, out_dir), files):
            row["expected"] = expected.get(row["file"], "")
            rows.append(row)
            print(f"{row['file']}\t{row['expected']}\tz3={row['z3']}\thb={row['hornbeam']}\t{row['hb_time']}s",
                  file=sys.stderr)
    cols = ["file", "track", "expected", "z3", "z3_time", "hornbeam", "hb_time", "hb_note",
            "z3_model", "z3_model_falsified"]
    with (out_dir / "results.tsv").open("w") as f:
        w = csv.DictWriter(f, cols, delimiter="\t", extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    summarize(rows, args)


def summarize(rows, args):
    tracks = sorted({r["track"] for r in rows})
    print(f"| track | files | parsed | z3 sat | z3 unsat | hb sat | hb unsat | hb unsat / z3 unsat | wrong |")
    print("|---|---|---|---|---|---|---|---|---|")
    tot = [0] * 8
    for t in tracks + ["all"]:
        rs = [r for r in rows if t == "all" or r["track"] == t]
        parsed = sum(r["hornbeam"] != "error" for r in rs)
        zs = sum(r["z3"] == "sat" for r in rs)
        zu = sum(r["z3"] == "unsat" for r in rs)
        hs = sum(r["hornbeam"] == "sat" for r in rs)
        hu = sum(r["hornbeam"] == "unsat" for r in rs)
        both = sum(r["hornbeam"] == "unsat" and r["z3"] == "unsat" for r in rs)
        wrong = sum(r["hornbeam"] in ("sat", "unsat") and r["expected"] in ("sat", "unsat")
                    and r["hornbeam"] != r["expected"] for r in rs)
        print(f"| {t} | {len(rs)} | {parsed} | {zs} | {zu} | {hs} | {hu} | {both}/{zu} | {wrong} |")
    zsat = [r for r in rows if r["z3"] == "sat"]
    valid = sum(r["z3_model"] == "valid" for r in zsat)
    rejected = sum(r["z3_model_falsified"] == "invalid" for r in zsat)
    na = sum(r["z3_model_falsified"] == "n/a" for r in zsat)
    print(f"\nZ3 models accepted by `hornbeam check`: {valid}/{len(zsat)}; "
          f"with a fact clause's head predicate replaced by false, rejected: {rejected}/{len(zsat) - na}"
          f" ({na} models define no such predicate)")
    crashes = [r["file"] for r in rows if r["hornbeam"] == "crash"]
    print(f"crashes: {len(crashes)} {crashes[:5]}")


if __name__ == "__main__":
    main()
