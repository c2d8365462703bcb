#!/usr/bin/env python3
"""db_top.py — what a vkautotune results database holds, per kernel: how many results and of which status, the
fastest measured configurations with the driver's pipeline statistics, and a few that failed with their reasons.
The H200 call scripts print it last so the call's log ends with a short table.

    python3 bench/db_top.py RESULTS.db [--top N] [--kernel NAME]
"""
import argparse
import sqlite3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("db")
    ap.add_argument("--top", type=int, default=12, help="fastest configurations shown per kernel")
    ap.add_argument("--kernel", help="only this kernel")
    a = ap.parse_args()
    db = sqlite3.connect(a.db)
    kernels = [a.kernel] if a.kernel else [k for (k,) in db.execute("select distinct kernel from results order by 1")]
    for k in kernels:
        n, ok, statuses = db.execute("select count(*), sum(status = 'ok'), group_concat(distinct status) "
                                     "from results where kernel = ?", (k,)).fetchone()
        print("%s: %d results, %d ok (%s)" % (k, n, ok or 0, statuses))
        for cfg, ms, tf, stats in db.execute("select config, median_s * 1e3, tflops, pipeline_stats from results "
                                             "where kernel = ? and status = 'ok' order by median_s limit ?",
                                             (k, a.top)):
            regs = [f for f in (stats or "").split("; ") if f.startswith("Register Count")]
            print("  %9.4f ms %7.1f TFLOP/s  %s  %s" % (ms, tf or 0, cfg, regs[0] if regs else ""))
        for cfg, st, why in db.execute("select config, status, substr(reason, 1, 160) from results "
                                       "where kernel = ? and status != 'ok' limit 4", (k,)):
            print("  %s %s: %s" % (st, cfg, why))


if __name__ == "__main__":
    main()
