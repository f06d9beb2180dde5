#!/usr/bin/env python3
"""Validates every witness under a folder with `hornbeam validate`, and mutations of each:

- correctness witnesses: every invariant made false (`0`), and made too weak (`1`);
- violation witnesses: the first `\\result == N` waypoint given N + 1, and the target moved one
  line down.

The program of each witness is its metadata's input file (relative to the directory the
script runs in, as the run that wrote it named it); property and data model come from the
witness's metadata. Prints a line per validation and the counts per kind:

    scripts/validate_witnesses.py target/benchexec-witnesses [--hornbeam target/release/hornbeam]
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile


def verdict(hornbeam, program, witness, timeout):
    try:
        p = subprocess.run([hornbeam, "validate", program, witness, "--timeout", str(timeout)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout + 10)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    lines = p.stdout.splitlines()
    if p.returncode != 0 or not lines:
        return "error", (p.stderr.strip().splitlines() or [""])[0]
    return lines[0], lines[1] if len(lines) > 1 else ""


def mutations(text):
    """(name, mutated text) pairs for a witness."""
    out = []
    if "invariant_set" in text:
        out.append(("false", re.sub(r"(\n\s+value: ).*", r"\g<1>'0'", text)))
        out.append(("weak", re.sub(r"(\n\s+value: ).*", r"\g<1>'1'", text)))
    elif "violation_sequence" in text:
        m = re.search(r"\\result == (-?\d+)", text)
        if m:
            changed = text[:m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):]
            out.append(("value", changed))
        # The target is the last waypoint: its line is the last `line:` of the file.
        lines = [m for m in re.finditer(r"line: (\d+)", text)]
        if lines:
            last = lines[-1]
            moved = text[:last.start(1)] + str(int(last.group(1)) + 1) + text[last.end(1):]
            out.append(("moved", moved))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--hornbeam", default="target/release/hornbeam")
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--originals", action="store_true", help="validate no mutations")
    a = ap.parse_args()
    witnesses = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.folder) for f in fs
                       if f.endswith(".yml"))
    scratch = tempfile.mkdtemp(prefix="hornbeam-mutants-")
    jobs = []
    for w in witnesses:
        text = open(w).read()
        m = re.search(r"input_files:\s*\n\s*- (.*)", text)
        if not m:
            print("no input file in", w)
            continue
        program = m.group(1).strip().strip("'\"")
        kind = "correctness" if "invariant_set" in text else "violation"
        jobs.append((w, program, kind, "original", w))
        for name, mutated in ([] if a.originals else mutations(text)):
            path = os.path.join(scratch, "%d-%s.yml" % (len(jobs), name))
            with open(path, "w") as f:
                f.write(mutated)
            jobs.append((w, program, kind, name, path))
    counts = collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [(j, pool.submit(verdict, a.hornbeam, j[1], j[4], a.timeout)) for j in jobs]
        for (w, program, kind, name, path), f in futures:
            v, why = f.result()
            counts[(kind, name, v)] += 1
            print("%-12s %-9s %-10s %s  %s" % (kind, name, v, w, why[:160]))
    print()
    for key in sorted(counts):
        print("%-12s %-9s %-10s %d" % (key + (counts[key],)))
    if counts[("correctness", "original", "rejected")] or counts[("violation", "original", "rejected")]:
        sys.exit("a witness written by the run is rejected")


if __name__ == "__main__":
    main()
