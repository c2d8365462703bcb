#!/usr/bin/env python3
"""trace_summary.py — where a replayed search's evaluations went, from strategy_replay --trace files.

For each trace (one table and strategy, every seed): per stretch of the budget (evaluations 1-12, the random
initial design of the surrogate members; 13-25, 26-50, 51-100, 101-200, 201-400, 401-800) the evaluations that failed
(with --missing charged, a configuration missing from the table fails) and those proposed, per seed and per member
of the portfolio that proposed them ("failed/proposed"); then the fraction of the optimum found after 25, 50, 100 and
400 evaluations, its mean and every seed's value, so a curve far from the optimum shows on which seeds it is.

usage: trace_summary.py TRACE.csv...
"""
import collections
import csv
import sys

STRETCHES = [(1, 12), (13, 25), (26, 50), (51, 100), (101, 200), (201, 400), (401, 800)]
MARKS = [25, 50, 100, 400]


def summary(path):
    rows = collections.defaultdict(list)  # seed -> [(evaluation, origin, failed, fraction)]
    with open(path, newline="") as f:
        lines = list(f)
    notes = [line[1:].strip() for line in lines if line.startswith("#")]  # e.g. the table's constraints
    for note in notes:
        print(f"{path}: {note}")
    for r in csv.DictReader(line for line in lines if not line.startswith("#")):
        rows[int(r["seed"])].append((int(r["evaluation"]), r["origin"], int(r["failed"]), float(r["fraction"])))
    seeds = sorted(rows)
    n = len(seeds)
    if not n:
        print(f"{path}: no evaluations")
        return
    origins = sorted({o for s in seeds for _, o, _, _ in rows[s]})
    print(f"{path}: {n} seeds; failed/proposed per seed")
    print("  %-9s %9s  %s" % ("evals", "all", "  ".join("%12s" % o for o in origins)))
    for lo, hi in STRETCHES:
        tried = collections.Counter()
        failed = collections.Counter()
        for s in seeds:
            for e, o, bad, _ in rows[s]:
                if lo <= e <= hi:
                    tried[o] += 1
                    failed[o] += bad
        if not tried:
            break
        cells = "  ".join("%12s" % ("%.1f/%.1f" % (failed[o] / n, tried[o] / n)) for o in origins)
        print("  %-9s %9s  %s" % ("%d-%d" % (lo, hi), "%.1f/%.1f" % (sum(failed.values()) / n,
                                                                     sum(tried.values()) / n), cells))
    for m in MARKS:
        if all(len(rows[s]) < m for s in seeds):
            break  # the budget ended before: a search that stopped early keeps its last value
        at = []
        for s in seeds:
            upto = [fr for e, _, _, fr in rows[s] if e <= m]
            at.append(upto[-1] if upto else 0.0)
        if at:
            print("  after %3d: mean %.4f, seeds %s" % (m, sum(at) / len(at), " ".join("%.3f" % v for v in at)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    for p in sys.argv[1:]:
        summary(p)
