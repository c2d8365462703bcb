#!/usr/bin/env python3
"""Tuning throughput: variants evaluated per second on a space, serial (--jobs 1) against parallel, first run
(empty pipeline cache) against rerun (warm pipeline cache), with the time split into instantiate, compile,
validate, pipeline, check and measure. Each run uses a fresh results database, so every variant is really
compiled, checked and timed. NVIDIA's own on-disk shader cache is switched off (__GL_SHADER_DISK_CACHE=0) so that
only vkautotune's pipeline cache makes a rerun warm.

Since session 11 results reach the search strategy as they finish, so a rerun with the same seed may propose other
variants than the first run, and its warm cache would not cover them. So per --jobs: a first run as users run it
(the defaults), then a first run and a rerun in proposal order (VKAT_REPORT_IN_ORDER=1, the deterministic mode),
the rerun on the pipeline cache that first run filled.

Prints a markdown table and writes it to --out.
  python3 bench/throughput.py --bin build/vkautotune --space spaces/gemm.ini --budget 200 --jobs 1,16 --out t.md
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def run(args, jobs, cache_dir, db, extra_env=None):
    cmd = [args.bin, "--space", args.space, "--budget", str(args.budget), "--seed", str(args.seed),
           "--jobs", str(jobs), "--pipeline-cache", cache_dir, "--db", db, "--json", "--top", "1"]
    if args.template:
        cmd.insert(1, args.template)
    if args.problem:
        cmd += ["--problem", args.problem]
    if args.device:
        cmd += ["--device", args.device]
    env = dict(os.environ, __GL_SHADER_DISK_CACHE="0", **(extra_env or {}))
    start = time.monotonic()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit(f"{' '.join(cmd)} exited {out.returncode}")
    res = json.loads(out.stdout)[0]
    return res, wall, " ".join([f"{k}={v}" for k, v in (extra_env or {}).items()] + cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/vkautotune")
    ap.add_argument("--space", default="spaces/gemm.ini")
    ap.add_argument("--template")
    ap.add_argument("--problem")
    ap.add_argument("--device")
    ap.add_argument("--budget", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", default=f"1,{os.cpu_count()}")
    ap.add_argument("--out", default="throughput.md")
    args = ap.parse_args()

    rows = []
    commands = []
    work = tempfile.mkdtemp(prefix="vkat-throughput-")
    try:
        in_order = {"VKAT_REPORT_IN_ORDER": "1"}
        for jobs in [int(j) for j in args.jobs.split(",")]:
            phases = (("first run", "default", {}), ("first run, proposal order", "ordered", in_order),
                      ("rerun, warm cache, proposal order", "ordered", in_order))
            for i, (phase, cache_name, extra) in enumerate(phases):
                cache = os.path.join(work, f"cache-{jobs}-{cache_name}")
                db = os.path.join(work, f"{jobs}-{i}.db")
                res, wall, cmd = run(args, jobs, cache, db, extra)
                commands.append(cmd)
                t = res.get("time_split_s", {})
                n = res.get("evaluated", 0)
                rows.append([res.get("device", "?"), str(jobs), phase, str(n), f"{res.get('seconds', wall):.2f}",
                             f"{n / res['seconds']:.1f}" if res.get("seconds") else "-",
                             *(f"{t.get(k, 0):.2f}" for k in
                               ("instantiate", "compile", "validate", "pipeline", "check", "measure")),
                             str(t.get("compile_cache_hits", 0)),
                             f"{res['best'][0]['median_ms']:.4f}" if res.get("best") else "-"])
    finally:
        shutil.rmtree(work, ignore_errors=True)

    head = ["device", "jobs", "run", "variants", "seconds", "variants/s", "instantiate s", "compile s",
            "validate s", "pipeline s", "check s", "measure s", "compile cache hits", "best ms"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    table = "\n".join(lines)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    text = (f"Tuning throughput, {stamp}, space {args.space}"
            f"{', problem ' + args.problem if args.problem else ''}, budget {args.budget}, seed {args.seed}.\n"
            "Preparation times are summed over worker threads; check and measure are the measuring thread's.\n\n"
            f"{table}\n\nCommands:\n" + "\n".join(f"    {c}" for c in commands) + "\n")
    with open(args.out, "w") as f:
        f.write(text)
    print(table)


if __name__ == "__main__":
    main()
