#!/usr/bin/env python3
"""GEMM against cuBLAS: tunes each GEMM template on each problem with vkautotune and measures cuBLAS (through
torch.matmul) on the same shapes and dtypes in the same run, then prints a markdown table and writes it to --out.

  python3 bench/gemm_vs_cublas.py --bin ./build/vkautotune --budget 35s --out gemm.md

Templates: shaders/sgemm.comp.in (fp32, spaces/sgemm.ini), shaders/sgemm_wt.comp.in (fp32, warp-tiled,
spaces/sgemm_wt.ini) and shaders/cmgemm.comp.in (fp16 and bf16 inputs, fp32 accumulation, spaces/cmgemm_f16.ini and
spaces/cmgemm_bf16.ini), and shaders/cm2gemm.comp.in (the same on VK_NV_cooperative_matrix2 workgroup-scope
matrices, spaces/cm2gemm_f16.ini and spaces/cm2gemm_bf16.ini; skipped where the extension is missing). Problems:
4096^3, 8192^3 and M=4096, N=512, K=14336 (a skinny, deep one: few output tiles, long K), B row-major K x N throughout (torch.matmul(a, b) with b
contiguous K x N).

The tuner's figure is its own median time of its best variant (timestamp queries, warm-up by time), and rel_l2
its check against the space's reference shader (fp32 accumulation in K order). Then the best variant is exported
(vkautotune export) and run again from its manifest by bench/gemm_verify (build/bench/gemm_verify, --verify-bin):
its own seeded inputs, 4096 sampled elements of C plus the corners checked against an fp64 dot product of the
same rounded inputs (max |got - ref| / sum |a b|; int8's int32 C exactly), and a new median over 51 timestamped
samples after 0.3 s of warm-up, each sample as many back-to-back dispatches as cuBLAS's samples hold calls (about
2 ms: 1 for a long GEMM, up to 10 for a short one). The ratio to cuBLAS uses that re-measured figure.
cuBLAS: torch.matmul with TF32 off for fp32, CUDA events, warm-up by time, median of 20 samples of back-to-back
calls (bench/torch_timing.py). fp16/bf16 in torch use
fp32 accumulation as cuBLAS does by default, but output fp16/bf16 (the Vulkan kernels write fp32 C).

cmgemm_splitk (spaces/cmgemm_splitk_f16.ini, _bf16.ini, _s8.ini: cmgemm with split K, a second dispatch adding the K
slices) runs only where M * N <= 4 Mi (here M=4096, N=512); gemm_verify runs its export (manifest version 2) as
a whole sequence, both dispatches, and times the pair.

int8 (spaces/cmgemm_s8.ini: int8 inputs, exact int32 accumulation and output) runs in both layouts of B, each
compared with torch._int_mm (cuBLAS's int8 GEMM, int32 out) in TOPS with B stored the same way: BT = 0 (B K x N
row-major, torch._int_mm(a, b) with b contiguous K x N) and BT = 1 (B stored N x K, torch._int_mm(a, b.t()) with b
contiguous N x K: cuBLAS's fast int8 layout). Each kernel's "of peak" is its re-measured rate over the peak that
`vkautotune peaks` measured on the same device in the same run (--refresh-peaks measures again rather than using
the database's cache): the tensor-core peak of its input and accumulator types, the fp32 FMA rate for fp32.

The last column counts the variants each search checked, how many of them the device check passed (the rest were
read back and compared on the host) and the check's seconds per variant.

Without torch or CUDA the cuBLAS columns say 'not available'. --cpu runs the spaces' [problem.cpu] sizes (and a
tiny skinny one) with a budget of 5, for trying the script on lavapipe, where the cooperative-matrix spaces are
skipped (the table says why).
"""
import argparse
import json
import os
import subprocess
import sys
import time

from space_ini import read_space, starts_for_space
from torch_timing import calls_per_sample, time_cuda

# Each timed sample of either side spans about this long (ms): the cuBLAS calls, and gemm_verify's dispatches
SAMPLE_MS = 2.0

TEMPLATES = [  # name, dtype, template, space
    ("sgemm", "fp32", "shaders/sgemm.comp.in", "spaces/sgemm.ini"),
    ("sgemm_wt", "fp32", "shaders/sgemm_wt.comp.in", "spaces/sgemm_wt.ini"),
    ("cmgemm", "fp16", "shaders/cmgemm.comp.in", "spaces/cmgemm_f16.ini"),
    ("cmgemm", "bf16", "shaders/cmgemm.comp.in", "spaces/cmgemm_bf16.ini"),
    ("cm2gemm", "fp16", "shaders/cm2gemm.comp.in", "spaces/cm2gemm_f16.ini"),
    ("cm2gemm", "bf16", "shaders/cm2gemm.comp.in", "spaces/cm2gemm_bf16.ini"),
    ("cmgemm", "int8", "shaders/cmgemm.comp.in", "spaces/cmgemm_s8.ini"),
    ("cmgemm_splitk", "fp16", "shaders/cmgemm.comp.in", "spaces/cmgemm_splitk_f16.ini"),
    ("cmgemm_splitk", "bf16", "shaders/cmgemm.comp.in", "spaces/cmgemm_splitk_bf16.ini"),
    ("cmgemm_splitk", "int8", "shaders/cmgemm.comp.in", "spaces/cmgemm_splitk_s8.ini"),
]
# Split K (two dispatches) is for few output tiles: its spaces size the scratch buffer for M * N <= 4 Mi only, so
# elsewhere they would only repeat cmgemm's one-pass search.
SPLITK_MAX_MN = 4 * 1024 * 1024
# The measured peak each dtype's kernels are held to: the tensor-core peak of its cooperative-matrix types
# (vkautotune peaks), the fp32 FMA rate for fp32.
PEAK_TYPES = {"fp16": ("float16", "float32"), "bf16": ("bfloat16", "float32"), "int8": ("int8", "int32")}
PROBLEMS = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 512, 14336)]
# The layouts of B each dtype runs in (the space's BT problem value) and what the table calls them. Float GEMMs run
# with their spaces' default (B K x N); int8 in both, since cuBLAS's int8 GEMM is fast only with B stored N x K.
B_LAYOUTS = {"int8": [(0, "K x N"), (1, "N x K")]}
DEFAULT_LAYOUT = [(None, "K x N")]
CPU_PROBLEMS = [None, (128, 64, 512)]  # None: the space's [problem.cpu]


def tune(args, template, space, problem, bt=None):
    """Runs vkautotune (bt: the problem's BT, None for the space's own); returns (report of the first device,
    command line)."""
    cmd = [args.bin, os.path.join(args.src, template), "--space", os.path.join(args.src, space),
           "--budget", args.budget, "--db", args.db, "--json", "--top", "1", "--seed", str(args.seed)]
    sizes = (["M=%d,N=%d,K=%d" % problem] if problem else []) + (["BT=%d" % bt] if bt is not None else [])
    if sizes:
        cmd += ["--problem", ",".join(sizes)]
    if args.device:
        cmd += ["--device", args.device]
    if args.warm_start:
        cmd += ["--warm-start"]
    for config in starts_for_space(args.start, os.path.join(args.src, space)):
        cmd += ["--start", config]
    out = subprocess.run(cmd, capture_output=True, text=True)
    line = " ".join(cmd)
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or [""])[-1]
        return {"error": "exit %d: %s" % (out.returncode, last)}, line
    try:
        return json.loads(out.stdout)[0], line
    except (ValueError, IndexError) as e:
        return {"error": "unreadable --json output (%s)" % e}, line


def kernel_name(space):
    """The space's [kernel] name: what `vkautotune export` calls the kernel in manifest.json."""
    return read_space(space).get("kernel", "name", fallback=None)


def verify(args, space, problem, tuner_ms):
    """Exports the best variant for `problem` ("M=..,N=..,K=..") and runs gemm_verify on it; returns its JSON line
    (a dict) or {"error": why}, and the command lines. gemm_verify times samples of as many back-to-back dispatches
    as the cuBLAS column's samples hold calls (about 2 ms, 1 to 10, from the tuner's median tuner_ms)."""
    kernel = kernel_name(os.path.join(args.src, space))
    out_dir = os.path.join(args.export_dir, "%s-%s" % (kernel, problem.replace(",", "-").replace("=", "")))
    export = [args.bin, "export", "--db", args.db, "--space", os.path.join(args.src, space), "--problem", problem,
              "-o", out_dir, "-q"]
    if args.device:
        export += ["--device", args.device]
    result_file = os.path.join(out_dir, "gemm_verify.json")
    run = [args.verify_bin, out_dir, kernel, "--problem", problem, "--json", result_file,
           "--batch", str(calls_per_sample(tuner_ms, SAMPLE_MS))]
    if args.device and args.device.isdigit():
        run += ["--device", args.device]
    lines = [" ".join(export), " ".join(run)]
    out = subprocess.run(export, capture_output=True, text=True)
    if out.returncode != 0:
        return {"error": "export: exit %d: %s" % (out.returncode, (out.stderr.strip().splitlines() or [""])[-1])}, lines
    if os.path.exists(result_file):
        os.remove(result_file)
    out = subprocess.run(run, capture_output=True, text=True)
    if out.returncode not in (0, 1) or not os.path.exists(result_file):
        last = ((out.stderr + out.stdout).strip().splitlines() or [""])[-1]
        return {"error": "gemm_verify: exit %d: %s" % (out.returncode, last)}, lines
    with open(result_file) as f:
        return json.loads(f.read().splitlines()[-1]), lines


def checks_text(rep):
    """How many variants the tuner checked, how many of them the device passed (--check-on), and the check's
    seconds per variant: a search whose time goes to its check shows it here."""
    t = rep.get("time_split_s") or {}
    if not t.get("checked"):
        return "-"
    return "%d (%d on the device), %.3f s each" % (t["checked"], t.get("checked_on_gpu", 0),
                                                  t.get("check", 0.0) / t["checked"])


def tflops_text(t):
    return "%.2f" % t if t >= 0.01 else "%.2g" % t


def cublas_timer():
    """A function (dtype, M, N, K, bt) -> median seconds through torch.matmul (torch._int_mm for int8, with B stored
    as bt says), or a string saying why there is none."""
    try:
        import torch
    except ImportError:
        return "not available (no torch)"
    if not torch.cuda.is_available():
        return "not available (no CUDA device)"
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    types = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}

    def time_op(op):
        # seconds per call: bench/torch_timing.py (back-to-back calls in samples of about 2 ms, as vkautotune times its
        # kernels; before session 11 each call was timed alone, which counted the host's launch gap)
        return time_cuda(torch, op, sample_ms=SAMPLE_MS) / 1e3

    def measure(dtype, m, n, k, bt=None):
        if dtype == "int8":
            # torch._int_mm (cuBLAS's int8 GEMM, int32 out) with B stored as the Vulkan kernel reads it: K x N
            # row-major (bt 0), or N x K row-major and passed transposed (bt 1, cuBLAS's own int8 layout).
            a = torch.randint(-128, 128, (m, k), device="cuda", dtype=torch.int8)
            if bt:
                b = torch.randint(-128, 128, (n, k), device="cuda", dtype=torch.int8).t()
            else:
                b = torch.randint(-128, 128, (k, n), device="cuda", dtype=torch.int8)
            t = time_op(lambda: torch._int_mm(a, b))
            sys.stderr.write("torch._int_mm %dx%dx%d, B stored %s: %.1f TOPS\n" % (
                m, n, k, "N x K" if bt else "K x N", 2e-12 * m * n * k / t))
            del a, b
            torch.cuda.empty_cache()
            return t
        a = torch.rand(m, k, device="cuda", dtype=types[dtype]) * 2 - 1
        b = torch.rand(k, n, device="cuda", dtype=types[dtype]) * 2 - 1
        c = torch.matmul(a, b)
        t = time_op(lambda: torch.matmul(a, b, out=c))
        del a, b, c
        torch.cuda.empty_cache()
        return t

    return measure


def device_peaks(args):
    """The first device's peaks from `vkautotune peaks --json` (measured now or from --db's cache): a function
    dtype -> peak TFLOP/s (NaN when unknown), and the command line."""
    cmd = [args.bin, "peaks", "--db", args.db, "--json", "-q"] + (["--refresh"] if args.refresh_peaks else [])
    if args.device:
        cmd += ["--device", args.device]
    out = subprocess.run(cmd, capture_output=True, text=True)
    try:
        dev = json.loads(out.stdout)[0]
    except (ValueError, IndexError):
        sys.stderr.write("peaks: exit %d: %s\n" % (out.returncode, out.stderr.strip()))
        return (lambda dtype: float("nan")), " ".join(cmd), []

    def peak(dtype):
        if dtype == "fp32":
            return dev.get("fp32_tflops") or float("nan")
        ab, acc = PEAK_TYPES[dtype]
        rates = [c["tflops"] for c in dev.get("coopmat", []) if c.get("tflops") and c["a_type"] == ab and
                 c["b_type"] == ab and c["c_type"] == acc]
        return max(rates) if rates else float("nan")

    return peak, " ".join(cmd), dev.get("coopmat", [])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/vkautotune")
    ap.add_argument("--verify-bin", help="bench/gemm_verify (default: bench/gemm_verify beside --bin)")
    ap.add_argument("--src", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                    help="the source tree holding shaders/ and spaces/ (default: this script's)")
    ap.add_argument("--budget", default="150", help="per tuning run: evaluations (150) or a time (35s, 1m)")
    ap.add_argument("--db", help="results database (default: gemm.db beside --out)")
    ap.add_argument("--device", help="vkautotune --device")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", help="comma list of dtypes to run (fp32,fp16,bf16,int8)")
    ap.add_argument("--templates", help="comma list of template names to run (e.g. sgemm_wt)")
    ap.add_argument("--warm-start", action="store_true",
                    help="vkautotune --warm-start: each search first measures the winners of the other problems in --db")
    ap.add_argument("--start", action="append", metavar="CONFIG",
                    help="vkautotune --start (repeatable): measured first by the searches of every template whose "
                         "space has exactly the parameters CONFIG names, at every problem where it is valid; "
                         "SPACE:CONFIG (SPACE a file name in spaces/ without .ini) goes to that space only")
    ap.add_argument("--problems", help="comma list of MxNxK problems to run (e.g. 4096x4096x4096)")
    ap.add_argument("--bt", help="comma list of int8's layouts of B to run: 0 (K x N), 1 (N x K); default both")
    ap.add_argument("--cpu", action="store_true", help="tiny problems and a budget of 5 (lavapipe)")
    ap.add_argument("--refresh-peaks", action="store_true", help="measure the device's peaks again (vkautotune peaks --refresh)")
    ap.add_argument("--out", default="gemm_vs_cublas.md")
    args = ap.parse_args()
    if args.cpu:
        args.budget = "5"
    args.src = os.path.normpath(args.src)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    if not args.db:
        args.db = os.path.join(os.path.dirname(os.path.abspath(args.out)), "gemm.db")
    if not args.verify_bin:
        args.verify_bin = os.path.join(os.path.dirname(os.path.abspath(args.bin)), "bench", "gemm_verify")
    args.export_dir = os.path.join(os.path.dirname(os.path.abspath(args.out)), "gemm_export")
    problems = CPU_PROBLEMS if args.cpu else PROBLEMS
    dtypes = set(args.only.split(",")) if args.only else None
    names = set(args.templates.split(",")) if args.templates else None
    if args.bt:
        wanted = {int(b) for b in args.bt.split(",")}
        for dtype in B_LAYOUTS:
            B_LAYOUTS[dtype] = [l for l in B_LAYOUTS[dtype] if l[0] in wanted]
    if args.problems and not args.cpu:
        problems = [tuple(int(d) for d in p.split("x")) for p in args.problems.split(",")]

    start = time.monotonic()
    peak, peak_cmd, coopmat_peaks = device_peaks(args)
    timer = cublas_timer()
    rows, commands = [], [peak_cmd]
    for name, dtype, template, space in TEMPLATES:
        if (dtypes and dtype not in dtypes) or (names and name not in names):
            continue
        for problem, (bt, layout) in [(p, l) for p in problems for l in B_LAYOUTS.get(dtype, DEFAULT_LAYOUT)]:
            if name == "cmgemm_splitk" and problem and problem[0] * problem[1] > SPLITK_MAX_MN:
                continue
            t0 = time.monotonic()
            rep, cmd = tune(args, template, space, problem, bt)
            commands.append(cmd)
            shape = rep.get("problem") or ("M=%d,N=%d,K=%d" % problem if problem else "[problem.cpu]")
            row = {"template": name, "dtype": dtype, "problem": shape, "layout": layout, "vk": "-", "cublas": "-",
                   "ratio": "-", "config": "-", "rel_l2": "-", "remeasured": "-", "fp64_err": "-", "peak": "-",
                   "of_peak": "-", "checks": checks_text(rep)}
            best = (rep.get("best") or [None])[0]
            if "error" in rep:
                row["config"] = "failed: " + str(rep["error"])
            elif "skipped" in rep:
                row["config"] = "skipped: " + rep["skipped"]
            elif not best:
                row["config"] = "no correct variant (%s failed)" % rep.get("failed", "?")
            else:
                vk_tflops = best["tflops"]
                row.update(vk=tflops_text(vk_tflops), config=best["config"], rel_l2="%.1e" % best["rel_l2"])
                # gemm_verify checks again (fp64 for floats, exactly for int8) and re-times the exported winner
                check, lines = verify(args, space, rep["problem"], best["median_ms"])
                commands += lines
                if "error" in check:
                    row["remeasured"] = check["error"]
                else:
                    if check.get("tflops"):
                        vk_tflops = check["tflops"]  # the ratio uses the re-measured figure
                        row["remeasured"] = tflops_text(vk_tflops)
                    err = check.get("max_rel_err")
                    row["fp64_err"] = ("%.1e" % err if err is not None else "not finite") + (
                        "" if check.get("ok") else " WRONG")
                dims = dict(kv.split("=") for kv in rep["problem"].split(","))
                m, n, k = int(dims["M"]), int(dims["N"]), int(dims["K"])
                p = peak(dtype)
                if p == p:
                    row.update(peak="%.4g" % p, of_peak="%.2f" % (vk_tflops / p))
                if callable(timer):
                    cu = 2.0 * m * n * k / timer(dtype, m, n, k, bt) / 1e12
                    row.update(cublas="%.2f" % cu, ratio="%.0f%%" % (100.0 * vk_tflops / cu))
                else:
                    row["cublas"] = timer
            rows.append(row)
            sys.stderr.write("%s %s %s, B %s: %s TFLOP/s (re-measured %s, fp64 err %s), cuBLAS %s (%.0f s)\n" % (
                name, dtype, shape, layout, row["vk"], row["remeasured"], row["fp64_err"], row["cublas"],
                time.monotonic() - t0))

    head = ["template", "dtype", "problem", "B stored", "tuner TFLOP/s (TOPS)", "re-measured TFLOP/s",
            "cuBLAS, same B layout", "ratio", "peak TFLOP/s (TOPS)", "of peak", "best config", "rel_l2",
            "fp64 sampled max rel err", "variants checked"]
    keys = ["template", "dtype", "problem", "layout", "vk", "remeasured", "cublas", "ratio", "peak", "of_peak",
            "config", "rel_l2", "fp64_err", "checks"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r[k] for k in keys) + " |" for r in rows]
    table = "\n".join(lines)
    if coopmat_peaks:
        table += "\n\nTensor-core peaks (vkautotune peaks): " + "; ".join(
            "%dx%dx%d %s->%s %.1f (%d acc x %d sg)" % (c["m"], c["n"], c["k"], c["a_type"], c["c_type"],
                                                      c.get("tflops") or float("nan"), c["accumulators"],
                                                      c["subgroups"]) for c in coopmat_peaks)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    text = "%s\n\n%s, budget %s per run, %.0f s in all. Commands:\n\n%s\n" % (
        table, stamp, args.budget, time.monotonic() - start, "\n".join("    " + c for c in commands))
    with open(args.out, "w") as f:  # first: the table survives a closed stdout
        f.write(text)
    print(text)
    # A run that produced nothing at all is a failure; skipped spaces (no such hardware) are not.
    if not any(r["vk"] != "-" for r in rows):
        sys.exit(1)
    # So is a winner that the fp64 check finds wrong.
    if any(r["fp64_err"].endswith("WRONG") for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
