#!/usr/bin/env python3
"""Tuning time at real sizes (issue #22), in one call: the unraced, fixed-warm-up baseline against the new path
(racing and the adaptive warm-up) on the same variants and from scratch.

Modes (--modes, comma list; the first is the baseline every other is compared with):
  baseline  VKAT_SPIRV_OPT=0 VKAT_MEASURE_IN_ORDER=1 --no-race --warmup 0.2 --warmup-min 0.2: every variant
            measured in full after a fixed 0.2 s warm-up, strictly in proposal order (and reported so, the
            reference run before the search), from glslang's modules (the path before session 7)
  fullopt   the baseline from modules through SPIRV-Tools' -O without loop-unroll (VKAT_SPIRV_OPT=nounroll): its
            full figures against the baseline's say whether the passes changed the kernels' times
  fullfull  the same with spirv-opt -O (VKAT_SPIRV_OPT=full)
  racefix   VKAT_SPIRV_OPT=0 --race --warmup 0.2 --warmup-min 0.2: racing with the fixed warm-up (session 6's default)
  race7     VKAT_SPIRV_OPT=0 VKAT_MEASURE_IN_ORDER=1 VKAT_RACE_CHECK_FACTOR=0 --race: racing and the adaptive
            warm-up, measured in proposal order, no cut by the checked run (session 7)
  race8     VKAT_SPIRV_OPT=0 --race: session 8's path (racing, also by the checked run past 10x the bound, warm-up
            until the variant's own times stop falling, each lane measuring whichever prepared variant is oldest)
  race9     VKAT_SPIRV_OPT=0 VKAT_WARMUP_BUSY_GAP=0 VKAT_RACE_CONFIRM=1 --race: session 9's path (race8, every variant
            given the minimum warm-up, every cut by the checked run confirmed by a second dispatch)
  busywarm  VKAT_SPIRV_OPT=0 VKAT_RACE_CONFIRM=1 --race: race9 with no minimum warm-up for a variant whose GPU was
            kept busy (session 10, src/run/busy.h)
  new10     VKAT_REPORT_IN_ORDER=1 --race: session 10's path (busywarm, and a cut by the checked run confirmed only
            where the lane's first dispatches were seen to carry too much, src/run/first_dispatch.h), results
            reported to the strategy in proposal order
  new       the defaults (session 11: new10 with results reported to the strategy as they finish)
  newssa, newopt, newfull
            new from modules through SPIRV-Tools' passes: VKAT_SPIRV_OPT=ssa (local variables to SSA values),
            nounroll (-O without loop-unroll), full (-O); records/session9-issue-22-pipe.md

1. Pairs: each space searched once per mode with the same random proposals (--strategy random, same seed and
   budget, so the same variants). Reported: variants/s, seconds and where they went, raced-out count, warm-ups
   that ran to the maximum; the winner of each (median and MAD) and whether it agrees with the baseline's (the same
   variant, or within the baseline winner's spread as the baseline measured it); whether the figures equal the
   baseline's full measurements of the same variants (a variant measured in full by both agrees when the medians
   differ by at most 3 (MAD + MAD) + 2%) and whether each raced-out variant was really behind the baseline winner.
2. From scratch: the default strategy (auto) with a time budget, per mode and seed, on the first --search-spaces
   spaces: the seconds until the best so far reaches 0.95 (0.99) of the best known configuration (the best median
   of every run of this call, or --best-known-ms), read off the live progress line (stderr on a pseudo-terminal,
   stamped as it arrives), and the baseline's time over the new path's.
3. With --trace-dir, the new path's runs write VKAT_MEASURE_TRACE files there (every warm-up batch, every
   variant's times) and a summary of them is printed: how long warm-ups took, how far the times fell during them
   (the first batch over the last), how long the GPU idled before each, and where each variant's time went.

Every run has its own fresh database and no pipeline cache (the drivers' on-disk shader caches off too), so all
modes start equal. Prints markdown and writes it to --out.

On the H200 (the spaces' own 4096^3 problems):
  python3 bench/race.py --bin build/vkautotune --jobs 16 --pair-budget 40 --search-seconds 25 \\
      --trace-dir traces --out race.md
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
MODES = {
    "baseline": ["VKAT_SPIRV_OPT=0", "VKAT_MEASURE_IN_ORDER=1", "--no-race", "--warmup", "0.2", "--warmup-min", "0.2"],
    "fullopt": ["VKAT_SPIRV_OPT=nounroll", "VKAT_MEASURE_IN_ORDER=1", "--no-race", "--warmup", "0.2", "--warmup-min",
                "0.2"],
    "fullfull": ["VKAT_SPIRV_OPT=full", "VKAT_MEASURE_IN_ORDER=1", "--no-race", "--warmup", "0.2", "--warmup-min",
                 "0.2"],
    "racefix": ["VKAT_SPIRV_OPT=0", "--race", "--warmup", "0.2", "--warmup-min", "0.2"],
    "race7": ["VKAT_SPIRV_OPT=0", "VKAT_MEASURE_IN_ORDER=1", "VKAT_RACE_CHECK_FACTOR=0", "--race"],
    "race8": ["VKAT_SPIRV_OPT=0", "--race"],
    "race9": ["VKAT_SPIRV_OPT=0", "VKAT_WARMUP_BUSY_GAP=0", "VKAT_RACE_CONFIRM=1", "--race"],
    "busywarm": ["VKAT_SPIRV_OPT=0", "VKAT_RACE_CONFIRM=1", "--race"],
    "new10": ["VKAT_REPORT_IN_ORDER=1", "--race"],
    "new": ["--race"],
    "newssa": ["VKAT_SPIRV_OPT=ssa", "--race"],
    "newopt": ["VKAT_SPIRV_OPT=nounroll", "--race"],
    "newfull": ["VKAT_SPIRV_OPT=full", "--race"],
}


def base_cmd(args, space, db):
    cmd = [args.bin, "--space", space, "--db", db, "--pipeline-cache", "none", "--jobs", str(args.jobs)]
    if args.problem:
        cmd += ["--problem", args.problem]
    if args.device:
        cmd += ["--device", args.device]
    return cmd


def env(trace=None):
    # The drivers' own shader caches off too (NVIDIA's, Mesa's): else the second run finds the first's shaders
    # compiled (lavapipe compiles at the first dispatch, i.e. in the check) and the order decides.
    e = dict(os.environ, __GL_SHADER_DISK_CACHE="0", MESA_SHADER_CACHE_DISABLE="true")
    e.pop("VKAT_MEASURE_TRACE", None)
    if trace:
        e["VKAT_MEASURE_TRACE"] = trace
    return e


def split_mode(words):
    """A mode's words: leading NAME=VALUE ones are environment variables, the rest vkautotune options."""
    extra = {}
    while words and "=" in words[0] and not words[0].startswith("-"):
        k, _, v = words[0].partition("=")
        extra[k], words = v, words[1:]
    return extra, words


RUN_TIMEOUT = 180  # seconds: a run that hangs costs this much of a GPU call, not all of it


def failed_run(cmd, why, stderr):
    """A run that did not finish: said in its row (the call goes on with the next)."""
    sys.stderr.write(stderr[-2000:] + f"\nrace.py: {' '.join(cmd)}: {why}\n")
    return {"skipped": f"the run failed: {why}"}


def run_json(cmd, trace=None, extra=None):
    start = time.monotonic()
    try:
        out = subprocess.run(cmd + ["--json", "--top", "1"], env=dict(env(trace), **(extra or {})),
                             capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return failed_run(cmd, f"no end within {RUN_TIMEOUT} s", ""), RUN_TIMEOUT
    wall = time.monotonic() - start
    if out.returncode != 0:
        return failed_run(cmd, f"exit {out.returncode}", out.stderr), wall
    return json.loads(out.stdout)[0], wall


def run_pty(cmd, trace=None, extra=None):
    """Runs cmd with stderr on a pseudo-terminal (so the progress line is live) and stdout to a pipe. Returns the
    parsed --json, the wall time, and [(seconds since start, best ms)] at every change of the best."""
    master, slave = pty.openpty()
    start = time.monotonic()
    p = subprocess.Popen(cmd + ["--json", "--top", "1"], env=dict(env(trace), **(extra or {})),
                         stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
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
            # The progress line is rewritten as "\r...": its text arrives before the \r that ends it, so the
            # unfinished rest is read too (else each best was seen only at the next update, a variant later).
            for line in lines + [buf]:
                if line is not buf:
                    text += line + b"\n"
                m = best_re.search(line)
                if m:
                    ms = float(m.group(1))
                    if not bests or ms < bests[-1][1]:
                        bests.append((now, ms))
        elif p.poll() is not None:
            break
        if time.monotonic() - start > RUN_TIMEOUT:
            p.kill()
    stdout = p.stdout.read()
    p.wait()
    wall = time.monotonic() - start
    os.close(master)
    if p.returncode != 0:
        return failed_run(cmd, f"exit {p.returncode}", text.decode(errors="replace")), wall, bests
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


def compare_pair(new_db, base_db):
    """Winners of a run and of the baseline, and the agreement of the variants both measured."""
    a, b = rows(new_db), rows(base_db)
    ok_a = {c: v for c, v in a.items() if v[0] == "ok"}
    ok_b = {c: v for c, v in b.items() if v[0] == "ok"}
    out = {"agree": 0, "both_full": 0, "raced": 0, "raced_right": 0, "raced_close": 0, "same": False}
    if not ok_a or not ok_b:
        return None, "no ok variant", out
    wa = min(ok_a, key=lambda c: ok_a[c][1])
    wb = min(ok_b, key=lambda c: ok_b[c][1])
    best_b = ok_b[wb]
    if wa == wb:
        verdict, out["same"] = "same variant", True
    elif wa in ok_b and ok_b[wa][1] <= upper(best_b[1], best_b[2]):
        verdict, out["same"] = f"within spread ({ok_b[wa][1] / best_b[1]:.3f}x the baseline's winner, in full)", True
    elif wa in ok_b:
        verdict = f"DIFFERENT ({ok_b[wa][1] / best_b[1]:.3f}x the baseline's winner, in full)"
    else:
        verdict = "DIFFERENT (not measured in full by the baseline)"
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
    out["winner"] = (wa, ok_a[wa][1], ok_a[wa][2])
    out["base_winner"] = (wb, best_b[1], best_b[2])
    return wa, verdict, out


def time_to(bests, target_ms):
    for t, ms in bests:
        if ms <= target_ms:
            return t
    return None


def measured_bests(trace):
    """(seconds from the search's start when it was stored, median ms) of each full measurement, in measuring order,
    from a VKAT_MEASURE_TRACE file: when a variant was measured, not when the progress line reported it (with results
    reported in proposal order, a variant measured ahead of a slow pipeline is reported after it)."""
    out = []
    try:
        with open(trace) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if p[0] == "variant" and p[2] == "ok" and len(p) > 16:
                    # taken + check + measure + store (the trace's times are ms from the search's start)
                    out.append(((float(p[15]) + float(p[6]) + float(p[8]) + float(p[9])) / 1e3, float(p[11])))
    except FileNotFoundError:
        return []
    out.sort()
    best, running = [], float("inf")
    for t, ms in out:
        if ms < running:
            running = ms
            best.append((t, ms))
    return best


def setup_ms(trace):
    """The first lane's set-up from a VKAT_MEASURE_TRACE file, as "device / workspace / reference / check / search's
    start after the tuning call's / the lane ready to measure after the search's start" in ms, or "-" without a
    setup line."""
    try:
        with open(trace) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if p[0] == "setup" and len(p) >= 8:
                    return " / ".join(f"{float(v):.0f}" for v in p[2:8])
    except FileNotFoundError:
        pass
    return "-"


def pipelines_busy(trace, jobs, until_s=4.0):
    """The share of the workers' time in the search's first until_s seconds spent creating pipelines (each variant's
    pipeline_ms, ending at its ready_ms), from a VKAT_MEASURE_TRACE file: what a stalled strategy leaves idle."""
    busy = 0.0
    try:
        with open(trace) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if p[0] == "variant" and len(p) > 16:
                    end, length = float(p[14]) / 1e3, float(p[5]) / 1e3
                    busy += max(0.0, min(end, until_s) - max(end - length, 0.0))
    except FileNotFoundError:
        return None
    return busy / (jobs * until_s)


SPLIT = ("compile", "pipeline", "check", "warmup", "measure", "wait", "store")


def split(res):
    t = res.get("time_split_s", {})
    return " / ".join(f"{t.get(k, 0):.1f}" for k in SPLIT)


def pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float("nan")


TOLERANCE = 0.005  # VKAT_WARMUP_TOLERANCE (src/run/warmup.h)


def settled(per, at, n, min_s):
    """src/run/warmup.c's vkat_warmup_settled, for replaying it on the traces of fixed warm-ups."""
    if n < 2 or at[n - 1] < min_s:
        return False
    window, end = min_s / 2, at[n - 1]
    i = n - 1
    last = per[i]
    while i > 1 and at[i - 1] > end - window:
        i -= 1
        last = min(last, per[i])
    start, j = at[i - 1], i - 1
    before = per[j]
    while j > 0 and at[j - 1] > start - window:
        j -= 1
        before = min(before, per[j])
    return last >= before * (1 - TOLERANCE)


def window_best(per, at, n, window):
    """The best time of the batches that ended within `window` of batch n-1's end (batch n-1 at least)."""
    i, best = n - 1, per[n - 1]
    while i > 0 and at[i - 1] > at[n - 1] - window:
        i -= 1
        best = min(best, per[i])
    return best


def replay_rule(warm, min_s):
    """Where the adaptive rule would have stopped each fixed warm-up of a trace: [(stop ms, ratio)], the ratio being
    the best of the rule's last window there over the best of a window as long at the end of the fixed warm-up
    (equal windows: a minimum over more batches would be lower by noise alone). Above 1: what stopping there
    would have cost."""
    out = []
    for w in warm:
        at = [b[1] * 1e-3 for b in w]
        per = [b[2] for b in w]
        end = window_best(per, at, len(w), min_s / 2)
        n = next((n for n in range(1, len(w) + 1) if settled(per, at, n, min_s)), len(w))
        out.append((w[n - 1][1], window_best(per, at, n, min_s / 2) / end))
    return out


def trace_summary(path, replay_min_s=()):
    """One markdown row of what a VKAT_MEASURE_TRACE file shows (the file may be absent: nothing measured)."""
    warm, variants = [], []  # warm: [batches of one warm-up]; each batch (dispatches, at_ms, per_ms, idle_ms)
    try:
        with open(path) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if p[0] == "batch":
                    if p[2] == "0":
                        warm.append([])
                    if warm:
                        warm[-1].append((int(p[3]), float(p[4]), float(p[5]), float(p[6])))
                elif p[0] == "variant":
                    variants.append([float(x) for x in p[4:13]])
    except FileNotFoundError:
        return None
    if not warm or not variants:
        return None
    ms = [w[-1][1] for w in warm]
    ramp = [w[0][2] / w[-1][2] for w in warm if w[-1][2] > 0]
    fall = [min(b[2] for b in w[:max(1, len(w) // 2)]) / min(b[2] for b in w) for w in warm]
    idle = [w[0][3] for w in warm]
    col = list(zip(*variants))  # wait, pipeline, check, warmup, measure, store, warm_last, median, gap
    med = [pct(c, 0.5) for c in col[:6]]
    gap = f"{pct(col[8], 0.5):.2f} / {pct(col[8], 0.9):.2f} / {max(col[8]):.2f}"
    # the last warm-up batch over the samples' median: above 1, the samples ran faster than the warm-up's end
    late = [v[6] / v[7] for v in variants if v[6] > 0 and v[7] > 0]
    replay = "; ".join(
        f"{m:g} s: {pct([r[0] for r in rp], 0.5):.1f} / {max(r[0] for r in rp):.1f} ms, "
        f"{pct([r[1] for r in rp], 0.5):.4f} / {max(r[1] for r in rp):.4f}"
        for m, rp in ((m, replay_rule(warm, m)) for m in (replay_min_s or []))) or "-"
    return (f"{len(warm)} | {pct(ms, 0.5):.1f} / {pct(ms, 0.9):.1f} / {max(ms):.1f} | "
            f"{pct([len(w) for w in warm], 0.5)} | {pct(ramp, 0.5):.3f} / {max(ramp):.3f} | "
            f"{pct(fall, 0.5):.4f} / {max(fall):.4f} | "
            + (f"{pct(late, 0.5):.4f} / {max(late):.4f}" if late else "-")
            + f" | {pct(idle, 0.5):.2f} / {max(idle):.2f} | {gap} | " + " / ".join(f"{m:.1f}" for m in med)
            + f" | {replay} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/vkautotune")
    ap.add_argument("--spaces", default="spaces/sgemm_wt.ini,spaces/cm2gemm_f16.ini,spaces/sgemm.ini",
                    help="comma list; the first --search-spaces of them also get the from-scratch searches")
    ap.add_argument("--modes", default="baseline,new", help="comma list of " + ", ".join(MODES)
                    + "; the first is the baseline")
    ap.add_argument("--mode", action="append", default=[], metavar="NAME=ARGS",
                    help="another mode: its name, environment variables and vkautotune options, e.g. "
                    "'new50=--race --warmup-min 0.05', 'samenice=VKAT_WORKER_NICE=0 --race'")
    ap.add_argument("--search-modes", help="the modes of the from-scratch searches (default: the baseline and the "
                    "last of --modes)")
    ap.add_argument("--replay-min", default="0.02,0.05",
                    help="minimum warm-ups to replay the adaptive rule with on the fixed warm-ups' traces")
    ap.add_argument("--search-spaces", type=int, default=2)
    ap.add_argument("--problem", help="problem override for every space (default: each space's own)")
    ap.add_argument("--device")
    ap.add_argument("--pair-budget", type=int, default=40, help="variants per paired run (0: no paired runs)")
    ap.add_argument("--search-seconds", default="25", help="time budget of each from-scratch search; a comma list "
                    "gives each search mode its own (the last for the rest)")
    ap.add_argument("--search-seeds", type=int, default=1, help="from-scratch searches per mode and space")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--best-known-ms", default="", help="space=ms,... best known medians (default: this call's)")
    ap.add_argument("--trace-dir", help="keep the new path's VKAT_MEASURE_TRACE files here and summarise them")
    ap.add_argument("--out", default="race.md")
    args = ap.parse_args()
    spaces = [s for s in args.spaces.split(",") if s]
    for m in args.mode:
        name, _, margs = m.partition("=")
        MODES[name] = margs.split()
    modes = [m for m in args.modes.split(",") if m]
    search_modes = [m for m in args.search_modes.split(",") if m] if args.search_modes else [modes[0], modes[-1]]
    search_modes = list(dict.fromkeys(search_modes))
    replay_min = [float(x) for x in args.replay_min.split(",") if x]
    budgets = [float(x) for x in args.search_seconds.split(",") if x]
    search_s = {m: budgets[min(i, len(budgets) - 1)] for i, m in enumerate(search_modes)}
    for m in modes + search_modes:
        if m not in MODES:
            raise SystemExit(f"race.py: unknown mode '{m}' (modes: {', '.join(MODES)})")
    base = modes[0]
    known = dict(kv.split("=") for kv in args.best_known_ms.split(",") if kv)
    if args.trace_dir:
        os.makedirs(args.trace_dir, exist_ok=True)

    def trace_for(label, mode):
        return os.path.join(args.trace_dir, f"{label}-{mode}.tsv") if args.trace_dir else None

    def fixed(mode):  # a fixed warm-up: its trace shows the whole ramp, on which the rule is replayed
        a = split_mode(MODES[mode])[1]
        return "--warmup-min" in a and "--warmup" in a and \
            a[a.index("--warmup-min") + 1] == a[a.index("--warmup") + 1]

    def summary(trace, mode):
        return trace_summary(trace, replay_min if fixed(mode) else ()) if trace else None

    work = tempfile.mkdtemp(prefix="vkat-race-")
    commands, pair_lines, search_lines, trace_lines, verdict_lines, best_ms = [], [], [], [], [], {}
    t95s, m95s, measured_lines = {}, {}, []
    try:
        for i, space in enumerate(spaces if args.pair_budget > 0 else []):
            name = os.path.basename(space)
            dbs, res = {}, {}
            for mode in modes:
                db = os.path.join(work, f"{i}-{mode}.db")
                extra, margs = split_mode(MODES[mode])
                cmd = base_cmd(args, space, db) + ["--strategy", "random", "--seed", str(args.seed), "--budget",
                                                    str(args.pair_budget)] + margs
                commands.append(" ".join([f"{k}={v}" for k, v in extra.items()] + cmd))
                trace = trace_for(f"pair-{name}", mode)
                r, wall = run_json(cmd, trace, extra)
                dbs[mode], res[mode] = db, r
                if summary(trace, mode):
                    trace_lines.append(f"| {name} | pair | {mode} | {summary(trace, mode)}")
            if res[base].get("skipped"):
                pair_lines.append(f"| {name} | skipped: {res[base]['skipped']} |" + " |" * 9)
                continue
            for mode in modes:
                r = res[mode]
                if r.get("best"):
                    best_ms[space] = min(best_ms.get(space, float("inf")), r["best"][0]["median_ms"])
            for mode in modes:
                r = res[mode]
                if r.get("skipped"):
                    pair_lines.append(f"| {name} | {mode} | skipped: {r['skipped']} |" + " |" * 8)
                    continue
                n, secs = r.get("evaluated", 0), r.get("seconds", 0)
                bm = r["best"][0]["median_ms"] if r.get("best") else float("nan")
                if mode == base:
                    agreement = "(the baseline)"
                else:
                    wa, verdict, agree = compare_pair(dbs[mode], dbs[base])
                    agreement = (f"{verdict}; {agree['agree']}/{agree['both_full']} full figures agree; raced out "
                                 f"{agree['raced']}: {agree['raced_right']} behind the baseline winner's upper "
                                 f"bound in full, {agree['raced_close']} within 10% of it")
                    if "winner" in agree:
                        (wc, wm, wd), (bc, bmed, bd) = agree["winner"], agree["base_winner"]
                        verdict_lines.append(
                            f"| {name} | {mode} | {'yes' if agree['same'] else 'NO'} | {wm * 1e3:.4f} ± "
                            f"{wd * 1e3:.4f} | {bmed * 1e3:.4f} ± {bd * 1e3:.4f} | {wc} | {bc} |")
                t = r.get("time_split_s", {})
                pair_lines.append(
                    f"| {name} | {r.get('problem', '?')} | {mode} | {n} | {secs:.1f} | "
                    f"{n / secs if secs else 0:.2f} | {r.get('raced_out', 0)} | {split(r)} | "
                    f"{t.get('warmup_capped', 0)} / {t.get('warmup_busy', 0)} | {bm:.4f} | {agreement} |")

        for space in (spaces[:args.search_spaces] if max(search_s.values()) > 0 else []):
            name = os.path.basename(space)
            runs = {}
            for k in range(args.search_seeds):
                seed = args.seed + 1 + k
                for mode in search_modes:
                    db = os.path.join(work, f"search-{name}-{seed}-{mode}.db")
                    extra, margs = split_mode(MODES[mode])
                    cmd = base_cmd(args, space, db) + ["--budget", f"{search_s[mode]:g}s", "--seed",
                                                        str(seed)] + margs
                    commands.append(" ".join([f"{k}={v}" for k, v in extra.items()] + cmd))
                    trace = trace_for(f"search-{name}-{seed}", mode)
                    r, wall, bests = run_pty(cmd, trace, extra)
                    runs[(seed, mode)] = (r, wall, bests, measured_bests(trace) if trace else [],
                                          setup_ms(trace) if trace else "-",
                                          pipelines_busy(trace, args.jobs) if trace else None)
                    if r.get("best"):
                        best_ms[space] = min(best_ms.get(space, float("inf")), r["best"][0]["median_ms"])
                    if summary(trace, mode):
                        trace_lines.append(f"| {name} | search, seed {seed} | {mode} | {summary(trace, mode)}")
            ref = float(known[name]) if name in known else best_ms.get(space)
            for (seed, mode), (r, wall, bests, mbests, setup, busy) in runs.items():
                if r.get("skipped"):
                    search_lines.append(f"| {name} | {seed} | {mode} | skipped: {r['skipped']} |" + " |" * 5)
                    continue
                n, secs = r.get("evaluated", 0), r.get("seconds", 0)
                t95 = time_to(bests, ref / 0.95) if ref else None
                t99 = time_to(bests, ref / 0.99) if ref else None
                t95s.setdefault((name, mode), []).append(t95 if t95 is not None else float("inf"))
                if mbests and ref:
                    m95, m99 = time_to(mbests, ref / 0.95), time_to(mbests, ref / 0.99)
                    m95s.setdefault((name, mode), []).append(m95 if m95 is not None else float("inf"))
                    show = lambda t: f"{t:.1f}" if t is not None else "not reached"  # noqa: E731
                    measured_lines.append(f"| {name} | {seed} | {mode} | {show(m95)} | {show(m99)} | {setup} | "
                                          f"{f'{busy:.2f}' if busy is not None else '-'} |")
                bm = r["best"][0]["median_ms"] if r.get("best") else float("nan")
                search_lines.append(
                    f"| {name} | {seed} | {mode} | {n} | {n / secs if secs else 0:.2f} | {r.get('raced_out', 0)} | "
                    f"{bm:.4f} ({ref / bm if ref and bm == bm else 0:.3f} of best known) | "
                    f"{f'{t95:.1f}' if t95 is not None else 'not reached'} | "
                    f"{f'{t99:.1f}' if t99 is not None else 'not reached'} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def ratios(times):
        """Per space and mode, the median over seeds against the baseline's (a median never reached is inf)."""
        lines, inf = [], float("inf")
        for (name, mode), ts in times.items():
            if mode == base:
                continue
            b, m = pct(times.get((name, base), []), 0.5), pct(ts, 0.5)
            bound = search_s.get(base, budgets[0]) / m if m else inf
            ratio = (f"{b / m:.2f}" if b != inf else f"> {bound:.2f} (baseline: not reached)") if m != inf else "-"
            show = lambda t: f"{t:.1f}" if t != inf else "not reached"  # noqa: E731
            lines.append(f"| {name} | {mode} | {show(m)} | {show(b)} | {ratio} |")
        return lines

    ratio_lines, measured_ratio_lines = ratios(t95s), ratios(m95s)

    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    text = [f"Tuning time at real sizes, {stamp}; seed {args.seed}, jobs {args.jobs}, pipeline cache off; modes "
            + ", ".join(f"{m} ({' '.join(MODES[m])})" for m in dict.fromkeys(modes + search_modes))
            + f"; baseline {base}.", ""]
    if pair_lines:
        text += [f"Paired runs: --strategy random, budget {args.pair_budget}, the same variants in every mode. "
                 "Time split: " + " / ".join(SPLIT) + " (s; compile and pipeline are CPU s summed over workers, the "
                 "rest the measuring thread's wall time; warmup is a part of measure). Capped: warm-ups that ran to "
                 "the maximum; busy: variants given no minimum warm-up, their GPU kept busy.", "",
                 "| space | problem | mode | variants | seconds | variants/s | raced out | time split | capped / busy | "
                 "best ms | winner; agreement |", "|" + "---|" * 11, *pair_lines, ""]
    if verdict_lines:
        text += ["Same winner as the baseline (the same variant, or within the baseline winner's spread as the "
                 "baseline measured it); median ± MAD in ms:", "",
                 "| space | mode | same winner | winner ms | baseline winner ms | winner | baseline winner |",
                 "|" + "---|" * 7, *verdict_lines, ""]
    if search_lines:
        text += ["From scratch: the default strategy with --budget "
                 + ", ".join(f"{search_s[m]:g}s ({m})" for m in search_modes) + "; best known = "
                 + ", ".join(f"{os.path.basename(s)} {float(known[os.path.basename(s)]):.4f} ms (given)"
                             if os.path.basename(s) in known else
                             f"{os.path.basename(s)} {v:.4f} ms (the best median of this call's runs)"
                             for s, v in best_ms.items())
                 + "; the best median of this call's runs: "
                 + ", ".join(f"{os.path.basename(s)} {v:.4f} ms" for s, v in best_ms.items())
                 + "; seconds from the process start (device set-up included) until the best so far is within "
                 "0.95 (0.99) of it.", "",
                 "| space | seed | mode | variants | variants/s | raced out | best ms | s to 0.95 | s to 0.99 |",
                 "|" + "---|" * 9, *search_lines, ""]
    if ratio_lines:
        text += ["Time to 0.95 (median over seeds), the baseline's over the mode's:", "",
                 "| space | mode | s to 0.95 | baseline s to 0.95 | shorter by |", "|" + "---|" * 5, *ratio_lines, ""]
    if measured_lines:
        text += ["The same from the traces: seconds from the search's start (device set-up not included) until a "
                 "variant within 0.95 (0.99) of the best known was measured and stored, whenever the progress line "
                 "reported it; and the set-up before the search (ms: device / workspace with its data / the "
                 "reference's run / the device check / the search's start after the tuning call's / the lane ready to "
                 "measure after the search's start, negative: before it) and the share "
                 "of the workers' first 4 s spent creating pipelines (the rest: nothing proposed to prepare, or "
                 "other preparation):", "",
                 "| space | seed | mode | s to 0.95 | s to 0.99 | set-up ms | pipelines busy |", "|" + "---|" * 7,
                 *measured_lines, "",
                 "| space | mode | s to 0.95 | baseline s to 0.95 | shorter by |", "|" + "---|" * 5,
                 *measured_ratio_lines, ""]
    if trace_lines:
        text += ["Traces (VKAT_MEASURE_TRACE): warm-up ms median / p90 / max; batches per warm-up (median); ramp = the "
                 "first batch's time over the last, median / max; fall = the best of a warm-up's first half over its "
                 "best, median / max (1.0: nothing gained by the second half); end = the last warm-up batch over the "
                 "samples' median, median / max (above 1: the samples ran faster than the warm-up's end, which "
                 "stopped early); ms the GPU idled before the warm-up, median / max; gap = ms the GPU idled between "
                 "variants (from the lane's last submission to the checked run), median / p90 / max; per variant, "
                 "median ms of wait / pipeline / check / warm-up / measure / store; "
                 "replayed (fixed warm-ups only): where the adaptive rule, with each minimum, would have stopped "
                 "(ms, median / max) and the best time of its last window there over the best of a window as long at "
                 "the end of the fixed warm-up (median / max; above 1: what stopping there would have cost).", "",
                 "| space | run | mode | warm-ups | warm-up ms | batches | ramp | fall | end | idle ms | gap ms | "
                 "per variant ms | replayed |", "|" + "---|" * 13, *trace_lines, ""]
    text += ["Commands:", *(f"    {c}" for c in commands), ""]
    with open(args.out, "w") as f:
        f.write("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
