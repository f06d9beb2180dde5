#!/usr/bin/env python3
"""Two result files of `hornbeam batch`'s JSON shape (as `bench_batch.py` writes them) side by
side: solved per track, and on the files both solve within the limit, per track and answer,
the median and total times of each and the median of the per-file ratios (second over first);
then every file whose answer differs.

Usage: scripts/compare_results.py A.json B.json [--limit SECS]
(--limit: answers after it count as unsolved, as `late` in bench_batch's tables; default: the
first file's timeout.)
"""
import argparse, json, statistics


def load(path):
    data = json.load(open(path))
    return data, {r["path"]: r for r in data["results"]}


def solved(r, limit):
    return r is not None and r["answer"] in ("sat", "unsat") and r["time"] <= limit and not r["wrong"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--limit", type=float, default=None)
    args = ap.parse_args()
    meta, a = load(args.a)
    _, b = load(args.b)
    limit = args.limit if args.limit is not None else meta.get("timeout", float("inf"))
    tracks = sorted({r["track"] for r in a.values()}) + ["all"]
    print("| track | files | solved A | solved B | wrong A | wrong B |")
    print("|---|---:|---:|---:|---:|---:|")
    for t in tracks:
        ps = [p for p in a if t == "all" or a[p]["track"] == t]
        sa = sum(solved(a[p], limit) for p in ps)
        sb = sum(solved(b.get(p), limit) for p in ps)
        wa = sum(a[p]["wrong"] for p in ps)
        wb = sum(bool(b.get(p, {}).get("wrong")) for p in ps)
        print(f"| {t} | {len(ps)} | {sa} | {sb} | {wa} | {wb} |")
    print()
    print("| track | answer | both | median A | median B | total A | total B | median ratio B/A |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for t in tracks:
        for answer in ("sat", "unsat"):
            both = [p for p in a if (t == "all" or a[p]["track"] == t)
                    and solved(a[p], limit) and solved(b.get(p), limit)
                    and a[p]["answer"] == answer == b[p]["answer"]]
            if not both:
                continue
            ta = [a[p]["time"] for p in both]
            tb = [b[p]["time"] for p in both]
            ratio = statistics.median(y / x for x, y in zip(ta, tb))
            print(f"| {t} | {answer} | {len(both)} | {statistics.median(ta):.3f} | "
                  f"{statistics.median(tb):.3f} | {sum(ta):.1f} | {sum(tb):.1f} | {ratio:.2f} |")
    print()
    for p in a:
        ra, rb = a[p], b.get(p)
        if solved(ra, limit) != solved(rb, limit) or (rb and ra["answer"] != rb["answer"]):
            rb = rb or {"answer": "missing", "time": 0.0, "engine": ""}
            print(f"{p}: {ra['answer']} {ra['time']:.2f} s -> {rb['answer']} {rb['time']:.2f} s"
                  f" ({rb.get('engine', '')})")


if __name__ == "__main__":
    main()
