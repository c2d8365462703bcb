#!/usr/bin/env python3
"""Racing against full measurement, in one call (issue #22).

1. Pairs: each space searched twice with the same random proposals (--strategy random, same seed and budget, so the
   same variants): --race and --no-race. Reported: variants/s, seconds and where they went, raced-out count; the
   winner of each and whether they agree (the same variant, or the raced winner within the full winner's spread
   measured in full); and whether the racing run's figures equal the full measurements of the same variants:
   a variant measured in full by both agrees when the medians differ by at most 3 (MAD + MAD) + 2%, and a variant
   raced out is judged against the full run: was it really behind that run's winner?
2. From scratch: the default strategy (auto) with a time budget, raced and not, on the first spaces: the time until
   the best so far reaches 0.95 of the best known configuration (the best median of every run of this call, or
   --best-known-ms), read off the live progress line (stderr on a pseudo-terminal, stamped as it arrives), and
   variants/s.

Every run has its own fresh database and no pipeline cache (the drivers' on-disk shader caches off too), so raced
and unraced runs start equal. Prints markdown and writes it to --out.

On the H200 (about 5 minutes; at 3.6 variants/s unraced, the pairs take about 90 s, the searches 4 x 40 s):
  python3 bench/race.py --bin build/vkautotune --jobs 16 --pair-budget 80 --search-seconds 40 --out race.md
Here on lavapipe (the smoke test, tests/bench/bench_scripts.sh):
  python3 bench/race.py --spaces spaces/sgemm.ini,spaces/gemm.ini,spaces/cmgemm_f16.ini \\
      --problem M=64,N=64,K=64 --pair-budget 12 --search-seconds 8 --jobs 1 --out race.md
"""
import argparse
import json
import os
import pty
import re
import select
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

SPREAD_K, MARGIN = 3.0, 0.02  # as racing's defaults (src/run/race.c)


def base_cmd(args, space, db):
    cmd = [args.bin, "--space", space, "--db", db, "--pipeline-cache", "none", "--jobs", str(args.jobs)]
    if args.problem:
        cmd += ["--problem", args.problem]
    if args.device:
        cmd += ["--device", args.device]
    return cmd


def env():
    # The drivers' own shader caches off too (NVIDIA's, Mesa's): else the second run of a pair finds the first's
    # shaders compiled (lavapipe compiles at the first dispatch, i.e. in the check) and the order decides.
    return dict(os.environ, __GL_SHADER_DISK_CACHE="0", MESA_SHADER_CACHE_DISABLE="true")


def run_json(cmd):
    start = time.monotonic()
    out = subprocess.run(cmd + ["--json", "--top", "1"], env=env(), capture_output=True, text=True)
    wall = time.monotonic() - start
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit(f"{' '.join(cmd)} exited {out.returncode}")
    return json.loads(out.stdout)[0], wall


def run_pty(cmd):
    """Runs cmd with stderr on a pseudo-terminal (so the progress line is live) and stdout to a pipe. Returns the
    parsed --json, the wall time, and [(seconds since start, best ms)] at every change of the best."""
    master, slave = pty.openpty()
    start = time.monotonic()
    p = subprocess.Popen(cmd + ["--json", "--top", "1"], env=env(), stdout=subprocess.PIPE, stderr=slave,
                         stdin=subprocess.DEVNULL)
    os.close(slave)
    bests, text, buf = [], b"", b""
    best_re = re.compile(rb"best ([0-9.e+-]+) ms")
    while True:
        r, _, _ = select.select([master], [], [], 0.05)
        if master in r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            now = time.monotonic() - start
            buf += chunk
            *lines, buf = re.split(rb"[\r\n]", buf)
            for line in lines:
                text += line + b"\n"
                m = best_re.search(line)
                if m:
                    ms = float(m.group(1))
                    if not bests or ms < bests[-1][1]:
                        bests.append((now, ms))
        elif p.poll() is not None:
            break
    stdout = p.stdout.read()
    p.wait()
    wall = time.monotonic() - start
    os.close(master)
    if p.returncode != 0:
        sys.stderr.write(text.decode(errors="replace")[-2000:])
        raise SystemExit(f"{' '.join(cmd)} exited {p.returncode}")
    return json.loads(stdout)[0], wall, bests


def rows(db):
    con = sqlite3.connect(db)
    try:
        return {r[0]: r[1:] for r in con.execute(
            "SELECT config, status, median_s, mad_s, min_s, samples, race_bound_s FROM results")}
    finally:
        con.close()


def upper(median, mad):
    return median + max(SPREAD_K * mad, MARGIN * median)


def compare_pair(raced_db, full_db):
    """Winners and agreement of the same variants measured by both runs."""
    a, b = rows(raced_db), rows(full_db)
    ok_a = {c: v for c, v in a.items() if v[0] == "ok"}
    ok_b = {c: v for c, v in b.items() if v[0] == "ok"}
    out = {"agree": 0, "both_full": 0, "raced": 0, "raced_right": 0, "raced_close": 0}
    if not ok_a or not ok_b:
        return None, None, "no ok variant", out
    wa = min(ok_a, key=lambda c: ok_a[c][1])
    wb = min(ok_b, key=lambda c: ok_b[c][1])
    best_b = ok_b[wb]
    if wa == wb:
        verdict = "same variant"
    elif wa in ok_b and ok_b[wa][1] <= upper(best_b[1], best_b[2]):
        verdict = f"within spread ({ok_b[wa][1] / best_b[1]:.3f}x the full winner, in full)"
    elif wa in ok_b:
        verdict = f"DIFFERENT ({ok_b[wa][1] / best_b[1]:.3f}x the full winner, in full)"
    else:
        verdict = "DIFFERENT (not measured in full)"
    for c, v in a.items():
        if c not in ok_b:
            continue
        fb = ok_b[c]
        if v[0] == "ok":
            out["both_full"] += 1
            if abs(v[1] - fb[1]) <= SPREAD_K * (v[2] + fb[2]) + MARGIN * fb[1]:
                out["agree"] += 1
        elif v[0] == "raced-out":
            out["raced"] += 1
            # Right to cut: in full it is behind the full winner's upper bound. Close: within 10% of the winner.
            out["raced_right"] += fb[1] > upper(best_b[1], best_b[2])
            out["raced_close"] += fb[1] <= 1.10 * best_b[1]
    return wa, wb, verdict, out


def time_to(bests, target_ms):
    for t, ms in bests:
        if ms <= target_ms:
            return t
    return None


def split(res):
    t = res.get("time_split_s", {})
    return " / ".join(f"{t.get(k, 0):.1f}" for k in ("compile", "pipeline", "check", "measure"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/vkautotune")
    ap.add_argument("--spaces", default="spaces/sgemm_wt.ini,spaces/cm2gemm_f16.ini,spaces/sgemm.ini",
                    help="comma list; the first --search-spaces of them also get the from-scratch searches")
    ap.add_argument("--search-spaces", type=int, default=2)
    ap.add_argument("--problem", help="problem override for every space (default: each space's own)")
    ap.add_argument("--device")
    ap.add_argument("--pair-budget", type=int, default=100, help="variants per paired run")
    ap.add_argument("--search-seconds", type=float, default=40, help="time budget of each from-scratch search")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--best-known-ms", default="", help="space=ms,... best known medians (default: this call's)")
    ap.add_argument("--out", default="race.md")
    args = ap.parse_args()
    spaces = [s for s in args.spaces.split(",") if s]
    known = dict(kv.split("=") for kv in args.best_known_ms.split(",") if kv)

    work = tempfile.mkdtemp(prefix="vkat-race-")
    commands, pair_lines, search_lines, best_ms = [], [], [], {}
    try:
        for i, space in enumerate(spaces):
            name = os.path.basename(space)
            dbs, res = {}, {}
            for mode in ("--race", "--no-race"):
                db = os.path.join(work, f"{i}{mode}.db")
                cmd = base_cmd(args, space, db) + ["--strategy", "random", "--seed", str(args.seed), "--budget",
                                                    str(args.pair_budget), mode]
                commands.append(" ".join(cmd))
                r, wall = run_json(cmd)
                dbs[mode], res[mode] = db, r
            if res["--race"].get("skipped"):
                pair_lines.append(f"| {name} | skipped: {res['--race']['skipped']} |" + " |" * 8)
                continue
            wa, wb, verdict, agree = compare_pair(dbs["--race"], dbs["--no-race"])
            for mode in ("--race", "--no-race"):
                r = res[mode]
                if r.get("best"):
                    best_ms[space] = min(best_ms.get(space, float("inf")), r["best"][0]["median_ms"])
            for mode in ("--race", "--no-race"):
                r = res[mode]
                n, s = r.get("evaluated", 0), r.get("seconds", 0)
                bm = r["best"][0]["median_ms"] if r.get("best") else float("nan")
                pair_lines.append(
                    f"| {name} | {r.get('problem', '?')} | {mode[2:]} | {n} | {s:.1f} | {n / s if s else 0:.2f} | "
                    f"{r.get('raced_out', 0)} | {split(r)} | {bm:.4f} | "
                    + (f"{verdict}: {wa}" if mode == "--race" else
                       f"{agree['agree']}/{agree['both_full']} full figures agree; raced out {agree['raced']}: "
                       f"{agree['raced_right']} behind the full winner's upper bound in full, "
                       f"{agree['raced_close']} within 10% of it") + " |")

        for space in (spaces[:args.search_spaces] if args.search_seconds > 0 else []):
            name = os.path.basename(space)
            runs = {}
            for mode in ("--race", "--no-race"):
                db = os.path.join(work, f"search-{name}{mode}.db")
                cmd = base_cmd(args, space, db) + ["--budget", f"{args.search_seconds:g}s", "--seed",
                                                    str(args.seed + 1), mode]
                commands.append(" ".join(cmd))
                r, wall, bests = run_pty(cmd)
                runs[mode] = (r, wall, bests)
                if r.get("best"):
                    best_ms[space] = min(best_ms.get(space, float("inf")), r["best"][0]["median_ms"])
            ref = float(known[name]) if name in known else best_ms.get(space)
            for mode in ("--race", "--no-race"):
                r, wall, bests = runs[mode]
                if r.get("skipped"):
                    search_lines.append(f"| {name} | {mode[2:]} | skipped: {r['skipped']} |" + " |" * 5)
                    continue
                n, s = r.get("evaluated", 0), r.get("seconds", 0)
                t95 = time_to(bests, ref / 0.95) if ref else None
                t99 = time_to(bests, ref / 0.99) if ref else None
                bm = r["best"][0]["median_ms"] if r.get("best") else float("nan")
                search_lines.append(
                    f"| {name} | {mode[2:]} | {n} | {n / s if s else 0:.2f} | {r.get('raced_out', 0)} | "
                    f"{bm:.4f} ({ref / bm if ref and bm == bm else 0:.3f} of best known) | "
                    f"{f'{t95:.1f}' if t95 is not None else 'not reached'} | "
                    f"{f'{t99:.1f}' if t99 is not None else 'not reached'} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    text = [f"Racing against full measurement, {stamp}; seed {args.seed}, jobs {args.jobs}, pipeline cache off.", "",
            f"Paired runs: --strategy random, budget {args.pair_budget}, the same variants raced and in full. "
            "Time split: compile / pipeline (CPU s, summed over workers) / check / measure (s).", "",
            "| space | problem | racing | variants | seconds | variants/s | raced out | time split | best ms | "
            "winner; agreement |", "|" + "---|" * 10, *pair_lines, ""]
    if search_lines:
        text += [f"From scratch: the default strategy with --budget {args.search_seconds:g}s; best known = "
                 + ", ".join(f"{os.path.basename(s)} {v:.4f} ms" for s, v in best_ms.items())
                 + (" (given)" if known else " (the best median of this call's runs)")
                 + "; seconds from the process start (device set-up included) until the best so far is within "
                 "0.95 (0.99) of it.", "",
                 "| space | racing | variants | variants/s | raced out | best ms | s to 0.95 | s to 0.99 |",
                 "|" + "---|" * 8, *search_lines, ""]
    text += ["Commands:", *(f"    {c}" for c in commands), ""]
    with open(args.out, "w") as f:
        f.write("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
