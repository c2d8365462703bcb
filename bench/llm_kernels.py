#!/usr/bin/env python3
"""llm_kernels.py — the kernel library against PyTorch at LLM shapes.

For each kernel space: tunes it with vkautotune (--json, results kept in --db so reruns resume), takes the best
median, and measures the same operation in PyTorch eager and torch.compile on the same shape and dtype
(torch.cuda.Event timing, median of 50 after warm-up), plus a 1 GiB device copy as the bandwidth baseline
(bytes read + written). Prints a table and writes it as markdown to --out.

    python3 bench/llm_kernels.py --budget 60 --db $OUT/kernels.db --out $OUT/llm_kernels.md     # on the GPU
    python3 bench/llm_kernels.py --cpu-shapes --budget 4 --out /tmp/llm.md                    # lavapipe, no torch

Without torch (or without CUDA) the PyTorch columns are left empty with a note. --cpu-shapes uses each space's
[problem.cpu] sizes (what vkautotune picks on a CPU device) for the PyTorch side too.

Attention prefill gets a second table: vkautotune's TFLOP/s, its fraction of the tensor-core peak that `vkautotune
peaks` measures in the same run (kernels on cooperative matrices, of their input type with fp32 accumulation), and
SDPA's FlashAttention-2 and cuDNN backends timed in the same run on the same inputs.

Every PyTorch figure is timed as vkautotune times its kernels: after a time-based warm-up, samples of 10 back-to-back
calls between two CUDA events (bench/torch_timing.py). Until session 11 each call was timed alone, which counted the
host's launch gap into PyTorch's time; bench/torch_timers.py measures both ways.

The ratio to FlashAttention-2 is taken over rounds (--baseline-rounds, default 5), because one timing of it moved by
9-11% within one call (session 10): each round times SDPA's backends (a time-based warm-up, then samples of 10
back-to-back calls between two CUDA events, as vkautotune times batches of dispatches, so no host gap between calls
is counted) and measures vkautotune's best configuration again (a fresh database, that configuration alone), in
alternating order. The table gives the median of the rounds with their range, and the median of the rounds' paired
ratios with theirs. --baseline-rounds 0: one SDPA timing after the search, against the search's figure.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

import space_ini
from torch_timing import time_cuda

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# vkautotune's samples span at least this long (its --min-sample), so that a short kernel is timed as the PyTorch
# columns are, in batches of back-to-back calls: timed one dispatch a sample (vkautotune's default 0.1 ms), the H200's
# decode attention read 0.1285 ms, in batches 0.1215, with cuDNN's at 0.1224 in both runs (records/h200/s12-lead-call2)
MIN_SAMPLE_S = 0.002
TRANSPOSE_SHAPE = {"R": 16384, "C": 16384}  # 1 GiB in fp32, LLM-sized like the other shapes (spaces: 4096^2)
# (space, template[, problem override]): the kernels; a space's name ends in the dtype it stores (none: fp32).
KERNELS = [
    ("softmax_f32", "softmax"), ("softmax_f16", "softmax"), ("softmax_bf16", "softmax"),
    ("rmsnorm_f32", "rmsnorm"), ("rmsnorm_f16", "rmsnorm"), ("rmsnorm_bf16", "rmsnorm"),
    ("layernorm_f32", "layernorm"), ("layernorm_f16", "layernorm"), ("layernorm_bf16", "layernorm"),
    ("reduce_sum_f32", "reduce"), ("reduce_sum_f16", "reduce"), ("reduce_sum_bf16", "reduce"),
    ("reduce_max_f32", "reduce"), ("reduce_max_f16", "reduce"), ("reduce_max_bf16", "reduce"),
    ("xent_f32", "xent"), ("xent_f16", "xent"), ("xent_bf16", "xent"),
    ("rope_f32", "rope"), ("rope_f16", "rope"), ("rope_bf16", "rope"),
    ("swiglu_f32", "swiglu"), ("swiglu_f16", "swiglu"), ("swiglu_bf16", "swiglu"),
    ("attention_f32", "attention"), ("attention_f16", "attention"), ("attention_bf16", "attention"),
    ("attention_cm_f16", "attention_cm"), ("attention_fa_f16", "attention_fa"),
    ("attention_fa_nv_f16", "attention_fa_nv"), ("attention_fa_nv_bf16", "attention_fa_nv"),
    # the same with fp16 S and exponentials allowed (opt-in: less precise than FlashAttention's fp32 S)
    ("attention_fa_nv_f16", "attention_fa_nv", {"FP16_S": 1}),
    ("attention_decode_f32", "attention_decode"), ("attention_decode_f16", "attention_decode"),
    ("attention_decode_bf16", "attention_decode"), ("attention_decode_nv_f16", "attention_decode_nv"),
    ("attention_decode_nv_bf16", "attention_decode_nv"),
    ("transpose", "transpose", TRANSPOSE_SHAPE),
    ("transpose_f16", "transpose", TRANSPOSE_SHAPE), ("transpose_bf16", "transpose", TRANSPOSE_SHAPE),
]
DTYPES = ("f32", "f16", "bf16")


def kind_dtype(space):
    """('softmax', 'f16') for softmax_f16; ('transpose', 'f32') for a space without a dtype suffix."""
    kind, _, suffix = space.rpartition("_")
    return (kind, suffix) if suffix in DTYPES else (space, "f32")


def torch_dtype(torch, space):
    """The torch element type of a space's dtype."""
    return {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[kind_dtype(space)[1]]


def space_path(space):
    """spaces/SPACE.ini of this checkout."""
    return os.path.join(ROOT, "spaces", space + ".ini")


def read_space(space):
    return space_ini.read_space(space_path(space))


def space_info(space, cpu, override):
    """Problem sizes ([problem], then the entry's override, or the [problem.cpu] ones when cpu) and the [metrics]
    expressions."""
    cp = read_space(space)
    prob = {k: int(v) for k, v in cp["problem"].items()}
    if cpu and cp.has_section("problem.cpu"):
        prob.update({k: int(v) for k, v in cp["problem.cpu"].items()})
    elif not cpu:
        prob.update(override)
    metrics = dict(cp["metrics"]) if cp.has_section("metrics") else {}
    return prob, metrics


def uses_coopmat(space):
    """Whether the space's kernel needs cooperative matrices (its rate is then held to the tensor-core peak)."""
    cp = read_space(space)
    return "VK_KHR_cooperative_matrix" in cp.get("kernel", "extensions", fallback="")


# The cooperative-matrix types of each dtype's tensor-core peak (vkautotune peaks): fp32 accumulation.
PEAK_TYPES = {"f16": ("float16", "float32"), "bf16": ("bfloat16", "float32")}


def device_peaks(args):
    """The first device's tensor-core peaks from `vkautotune peaks --json` (--refresh-peaks: measured now, else
    --db's cache, which a fresh database does not have): (dtype -> TFLOP/s or None, command line, error or None)."""
    cmd = [args.binary, "peaks", "--db", args.db, "--json", "-q"] + (["--refresh"] if args.refresh_peaks else [])
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    try:
        dev = json.loads(p.stdout)[0]
    except (ValueError, IndexError):
        return (lambda dtype: None), " ".join(cmd), "exit %d: %s" % (p.returncode, p.stderr.strip()[-200:])

    def peak(dtype):
        if dtype not in PEAK_TYPES:
            return None
        ab, acc = PEAK_TYPES[dtype]
        rates = [c["tflops"] for c in dev.get("coopmat", []) if c.get("tflops") and c["a_type"] == ab and
                 c["b_type"] == ab and c["c_type"] == acc]
        return max(rates) if rates else None

    return peak, " ".join(cmd), None


def evaluate(expr, prob):
    """The [metrics] expressions here use only + - * / and problem sizes, which Python evaluates the same way."""
    return float(eval(expr, {"__builtins__": {}}, dict(prob)))  # noqa: S307 (our own files)


def tune(args, space, template, override):
    cmd = [args.binary, os.path.join(ROOT, "shaders", template + ".comp.in"), "--space",
           space_path(space), "--budget", str(args.budget), "--db", args.db, "--json"]
    if override and not args.cpu_shapes:
        cmd += ["--problem", ",".join("%s=%d" % kv for kv in override.items())]
    if args.warmup:
        cmd += ["--warmup", str(args.warmup)]
    if args.repetitions:
        cmd += ["--repetitions", str(args.repetitions)]
    if args.min_sample:
        cmd += ["--min-sample", str(args.min_sample)]
    if args.check_on:
        cmd += ["--check-on", args.check_on]
    for config in space_ini.starts_for_space(args.start, space_path(space)):
        cmd += ["--start", config]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        return None, "vkautotune exit %d: %s" % (p.returncode, p.stderr.strip().splitlines()[-1:] or "")
    run = json.loads(p.stdout)[0]
    if "skipped" in run:
        return None, "skipped: " + run["skipped"]
    if not run["best"]:
        return None, "no variant passed"
    return run, None


def remeasure(args, space, template, override, config, db):
    """vkautotune's median ms of one configuration, measured again in a fresh database `db` (None if it fails)."""
    again = argparse.Namespace(**vars(args))
    again.budget, again.db, again.start = "1", db, ["%s:%s" % (space, config)]
    run, _ = tune(again, space, template, override)
    return run["best"][0]["median_ms"] if run else None


def prefill_rounds(args, torch, space, template, override, prob, config):
    """args.baseline_rounds rounds of [vkautotune's `config` measured again (None without a config), SDPA's backends
    timed]: [(ms or None, {backend: ms or reason})]. The order alternates, so that neither side always runs first."""
    rounds = []
    with tempfile.TemporaryDirectory(prefix="llm_rounds") as tmp:
        for i in range(args.baseline_rounds):
            def ours():
                return remeasure(args, space, template, override, config,
                                 os.path.join(tmp, "round%d.db" % i)) if config else None
            ms = ours() if i % 2 == 0 else None
            backends = sdpa_backends(torch, space, prob)
            if i % 2:
                ms = ours()
            rounds.append((ms, backends))
            print("  round %d: vkautotune %s ms, %s" % (i + 1, fmt(ms, ".4f") or "-", ", ".join(
                "%s %s" % (n, fmt(t, ".4f") if isinstance(t, float) else "-") for n, t in backends.items())),
                file=sys.stderr, flush=True)
    return rounds


# ---- PyTorch side ---------------------------------------------------------------------------------------------

def torch_setup():
    try:
        import torch
    except ImportError:
        return None, "torch is not installed"
    if not torch.cuda.is_available():
        return None, "torch has no CUDA device"
    return torch, None


def spread(values):
    """(median, least, greatest) of a non-empty list of numbers."""
    return statistics.median(values), min(values), max(values)


def round_summary(rounds):
    """The rounds of one prefill row, [(vkautotune ms or None, {backend: ms or reason})], summarised: {'ms': spread of
    vkautotune's ms, backend: {'ms': spread of its ms, 'ratio': spread of the paired ratios backend ms / vkautotune
    ms over the rounds that have both}, or a backend's reason (str) when no round timed it}."""
    ours = [r[0] for r in rounds if r[0]]
    out = {"ms": spread(ours) if ours else None, "rounds": len(rounds)}
    for name in dict.fromkeys(n for _, b in rounds for n in b):
        times = [b[name] for _, b in rounds if isinstance(b.get(name), float)]
        if not times:
            out[name] = next(b[name] for _, b in rounds if name in b)
            continue
        ratios = [b[name] / o for o, b in rounds if o and isinstance(b.get(name), float)]
        out[name] = {"ms": spread(times), "ratio": spread(ratios) if ratios else None}
    return out


def torch_op(torch, space, p):
    """The PyTorch equivalent of a space: (callable taking no arguments, its input tensors kept alive)."""
    F = torch.nn.functional
    kind = kind_dtype(space)[0]
    dt = torch_dtype(torch, space)
    dev = "cuda"
    r = lambda *s: torch.randn(*s, device=dev, dtype=dt)  # noqa: E731
    if kind == "softmax":
        x = r(p["ROWS"], p["H"])
        return lambda: torch.softmax(x, -1)
    if kind == "rmsnorm":
        x, w = r(p["ROWS"], p["H"]), r(p["H"])
        if hasattr(F, "rms_norm"):
            return lambda: F.rms_norm(x, (p["H"],), w, 1e-6)
        return lambda: (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6)).to(dt) * w
    if kind == "layernorm":
        x, w, b = r(p["ROWS"], p["H"]), r(p["H"]), r(p["H"])
        return lambda: F.layer_norm(x, (p["H"],), w, b, 1e-5)
    if kind == "reduce_sum":
        x = r(p["ROWS"], p["H"])
        return lambda: x.sum(-1)
    if kind == "reduce_max":
        x = r(p["ROWS"], p["H"])
        return lambda: x.amax(-1)
    if kind == "xent":
        x = r(p["ROWS"], p["V"])
        t = torch.randint(0, p["V"], (p["ROWS"],), device=dev)
        return lambda: F.cross_entropy(x, t, reduction="none")
    if kind == "rope":
        x = r(p["TOK"], p["HEADS"], p["D"])
        h = p["D"] // 2
        pos = torch.arange(p["TOK"], device=dev) % p["SEQ"]
        c = torch.randn(p["SEQ"], h, device=dev)[pos].unsqueeze(1)
        s = torch.randn(p["SEQ"], h, device=dev)[pos].unsqueeze(1)

        def rope():
            x1, x2 = x[..., :h].float(), x[..., h:].float()
            return torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), -1).to(dt)
        return rope
    if kind == "swiglu":
        g, u = r(p["ROWS"], p["F"]), r(p["ROWS"], p["F"])
        return lambda: F.silu(g) * u
    if kind == "transpose":
        x = r(p["R"], p["C"])
        return lambda: x.t().contiguous()
    if kind.startswith("attention"):
        q, k, v, kw = sdpa_inputs(torch, space, p)
        return lambda: F.scaled_dot_product_attention(q, k, v, **kw)
    raise ValueError(space)


def sdpa_inputs(torch, space, p):
    """q, k, v and the keyword arguments of scaled_dot_product_attention for an attention space: prefill (HEADS x S
    queries and keys, batch 1) or decode (one query per sequence of a batch of B, grouped-query attention: HKV * G
    query heads share HKV key/value heads, enable_gqa)."""
    dt = torch_dtype(torch, space)
    r = lambda *s: torch.randn(*s, device="cuda", dtype=dt)  # noqa: E731
    if kind_dtype(space)[0].startswith("attention_decode"):
        q = r(p["B"], p["HKV"] * p["G"], 1, p["D"])
        k, v = (r(p["B"], p["HKV"], p["L"], p["D"]) for _ in range(2))  # the keys in use
        return q, k, v, {"enable_gqa": True}
    q, k, v = (r(1, p["HEADS"], p["S"], p["D"]) for _ in range(3))
    return q, k, v, {}


def rmsnorm_composite(torch, space, p):
    """The textbook eager RMSNorm (several kernels), as LLM code wrote it before F.rms_norm was fused: the
    baseline of the seed project's 5.29x. Times it; the table's eager column is F.rms_norm, one fused kernel."""
    dt = torch_dtype(torch, space)
    x, w = (torch.randn(*s, device="cuda", dtype=dt) for s in ((p["ROWS"], p["H"]), (p["H"],)))
    ms = time_cuda(torch, lambda: (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6)).to(dt) * w)
    del x, w
    torch.cuda.empty_cache()
    return ms


def sdpa_backends(torch, space, p):
    """scaled_dot_product_attention timed with each backend PyTorch has for these inputs: {name: ms or
    reason}. FLASH_ATTENTION is PyTorch's FlashAttention-2 (mma.sync tensor-core instructions, the class Vulkan's
    cooperative matrices reach on NVIDIA); CUDNN_ATTENTION may use Hopper's wgmma, which Vulkan does not expose."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError as e:
        return {"all": "torch.nn.attention missing: %s" % e}
    F = torch.nn.functional
    q, k, v, kw = sdpa_inputs(torch, space, p)
    out = {}
    for name in ("FLASH_ATTENTION", "CUDNN_ATTENTION", "EFFICIENT_ATTENTION"):
        backend = getattr(SDPBackend, name, None)
        if backend is None:
            out[name] = "not in this torch"
            continue
        try:
            with sdpa_kernel(backend):
                out[name] = time_cuda(torch, lambda: F.scaled_dot_product_attention(q, k, v, **kw))
        except RuntimeError as e:  # the backend refuses these inputs on this device: report why
            out[name] = str(e).splitlines()[0][:120]
    del q, k, v
    torch.cuda.empty_cache()
    return out


def measure_torch(torch, space, p, eager_only=False):
    fn = torch_op(torch, space, p)
    eager = time_cuda(torch, fn)
    if eager_only:
        return eager, None
    try:
        compiled = torch.compile(fn)
        comp = time_cuda(torch, compiled)
    except Exception as e:  # noqa: BLE001 (report and go on: compile support varies)
        print("  torch.compile failed for %s: %s" % (space, str(e).splitlines()[0]), file=sys.stderr)
        comp = None
    torch.cuda.empty_cache()
    return eager, comp


def copy_bandwidth(torch):
    """A 1 GiB device-to-device copy: bytes read + written per second."""
    n = 1 << 30
    a = torch.empty(n, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    ms = time_cuda(torch, lambda: b.copy_(a))
    del a, b
    torch.cuda.empty_cache()
    return 2 * n / (ms * 1e-3) / 1e9


# ---- Table ----------------------------------------------------------------------------------------------------

def fmt(v, spec):
    return "" if v is None else format(v, spec)


def fmt_spread(v, spec, scale=None):
    """'median (least-greatest)' of a spread, each value through scale (e.g. ms -> TFLOP/s, which swaps the ends)."""
    if v is None:
        return ""
    med, lo, hi = (scale(x) for x in v) if scale else v
    lo, hi = min(lo, hi), max(lo, hi)
    return "%s (%s-%s)" % (format(med, spec), format(lo, spec), format(hi, spec))


def prefill_table(prefill, peaks):
    """Markdown lines: attention prefill against the tensor-core peak and SDPA's backends, all from this run. With
    rounds: each figure is the rounds' median (range); the ratios are the median (range) of the rounds' paired ones."""
    head = ["kernel", "dtype", "shape", "vkautotune ms", "TFLOP/s", "tensor-core peak", "of peak",
            "FlashAttention-2 TFLOP/s", "x FlashAttention-2", "cuDNN TFLOP/s", "x cuDNN", "rounds"]
    lines = ["", "## Attention prefill against the tensor-core peak and SDPA's backends (same run)", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in prefill:
        peak = peaks[0](r["dtype"]) if peaks and r["coopmat"] else None
        rate = lambda ms: r["flops"] / (ms * 1e-3) / 1e12  # noqa: E731
        summ = r.get("summary")
        if summ:
            ms = summ["ms"]
            tflops = rate(ms[0]) if ms else None

            def backend(name):
                b = summ.get(name)
                if not isinstance(b, dict):
                    return "", ""
                return fmt_spread(b["ms"], ".1f", rate), fmt_spread(b["ratio"], ".2f")
            cells = [fmt_spread(ms, ".4f"), fmt(tflops, ".1f")]
            rounds = "%d" % summ["rounds"]
        else:
            tflops = r["tflops"]

            def backend(name):
                t = r["backends"].get(name)
                return (fmt(rate(t), ".1f"), fmt(t / r["ms"] if r["ms"] else None, ".2f")) if isinstance(t, float) \
                    else ("", "")
            cells = [fmt(r["ms"], ".4f"), fmt(tflops, ".1f")]
            rounds = "0 (the search's figure, one SDPA timing)"
        lines.append("| " + " | ".join([r["kernel"], r["dtype"], r["shape"]] + cells + [
            fmt(peak, ".1f"), fmt(tflops / peak if peak and tflops else None, ".2f")] +
            list(backend("FLASH_ATTENTION")) + list(backend("CUDNN_ATTENTION")) + [rounds]) + " |")
    if peaks:
        lines += ["", "Tensor-core peak (fp32 accumulation): `%s`%s" % (
            peaks[1], "; failed: " + peaks[2] if peaks[2] else "")]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "vkautotune"))
    ap.add_argument("--budget", default="40", help="vkautotune --budget per space (N or e.g. 2m)")
    ap.add_argument("--db", default=os.path.join(os.environ.get("OUT", "."), "kernels.db"))
    ap.add_argument("--out", default="llm_kernels.md", help="markdown file to write")
    ap.add_argument("--cpu-shapes", action="store_true", help="use [problem.cpu] sizes (lavapipe)")
    ap.add_argument("--only", default="", help="comma list of spaces to run (default all)")
    ap.add_argument("--warmup", type=float, default=0, help="vkautotune --warmup (seconds), default its own")
    ap.add_argument("--repetitions", type=int, default=0, help="vkautotune --repetitions, default its own")
    ap.add_argument("--min-sample", type=float, default=MIN_SAMPLE_S,
                    help="vkautotune --min-sample (seconds; 0: vkautotune's own, 0.0001): the least time one of its "
                         "timed samples spans (default %g: a 0.12-0.26 ms kernel is timed in batches of 8-16 "
                         "back-to-back dispatches, as the PyTorch columns time batches of 10 back-to-back calls)"
                         % MIN_SAMPLE_S)
    ap.add_argument("--check-on", choices=("gpu", "host", "auto"), help="vkautotune --check-on, default its own")
    ap.add_argument("--eager-only", action="store_true",
                    help="skip torch.compile (its compile time is spent on the GPU machine; for attention, eager "
                         "is already one fused SDPA kernel)")
    ap.add_argument("--start", action="append", metavar="CONFIG",
                    help="vkautotune --start (repeatable): measured first by the searches of every space whose "
                         "parameters it names exactly; SPACE:CONFIG goes to spaces/SPACE.ini only")
    ap.add_argument("--baseline-rounds", type=int, default=5, metavar="N",
                    help="attention prefill: N rounds of SDPA's backends and vkautotune's best measured again, "
                         "alternating; the table gives medians, ranges and paired ratios (0: one SDPA timing after "
                         "the search, against the search's figure)")
    ap.add_argument("--refresh-peaks", action="store_true",
                    help="measure the tensor-core peaks again (vkautotune peaks --refresh) rather than take --db's "
                         "cache")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))

    torch, why = torch_setup()
    notes = []
    if torch is None:
        notes.append("PyTorch columns empty: %s." % why)
    copy_gbs = copy_bandwidth(torch) if torch else None
    device = ""
    rows = []
    prefill = []  # attention prefill against SDPA's backends
    peaks = None  # (peak, command, error) once a cooperative-matrix kernel has a result
    for space, template, *rest in KERNELS:
        override = rest[0] if rest else {}
        if only and space not in only:
            continue
        prob, metrics = space_info(space, args.cpu_shapes, override)
        shape = ",".join("%s=%d" % kv for kv in prob.items() if kv[0] not in ("DT", "OP"))
        kind, dtype = kind_dtype(space)
        print("%s (%s) ..." % (space, shape), file=sys.stderr, flush=True)
        run, err = tune(args, space, template, override)
        ms = gbs = tflops = None
        if run:
            device = run["device"] + ", driver " + run["driver"]
            best = run["best"][0]
            ms = best["median_ms"]
            if "bytes" in metrics:
                gbs = evaluate(metrics["bytes"], prob) / (ms * 1e-3) / 1e9
            if "flops" in metrics:
                tflops = evaluate(metrics["flops"], prob) / (ms * 1e-3) / 1e12
        else:
            notes.append("%s: %s" % (space, err))
        eager = comp = None
        if torch:
            eager, comp = measure_torch(torch, space, prob, args.eager_only)
            if kind == "rmsnorm" and ms:
                composite = rmsnorm_composite(torch, space, prob)
                notes.append("%s: the textbook eager composite x * rsqrt(mean(x^2) + eps) * w takes %.4f ms; "
                             "vkautotune is %.2fx faster than it" % (space, composite, composite / ms))
            if kind.startswith("attention") and "flops" in metrics:
                flops, nbytes = evaluate(metrics["flops"], prob), evaluate(metrics.get("bytes", "0"), prob)
                decode = kind.startswith("attention_decode")
                summ = None
                if decode or not args.baseline_rounds:
                    backends = sdpa_backends(torch, space, prob)
                else:  # prefill: rounds of SDPA's backends and vkautotune's best again (the ratio's spread)
                    summ = round_summary(prefill_rounds(args, torch, space, template, override, prob,
                                                        run["best"][0]["config"] if run else None))
                    backends = {n: b["ms"][0] if isinstance(b, dict) else b for n, b in summ.items()
                                if n not in ("ms", "rounds")}
                if not decode:
                    prefill.append({"space": space, "kernel": kind, "dtype": dtype, "shape": shape,
                                    "tflops": tflops, "ms": ms, "coopmat": uses_coopmat(space), "flops": flops,
                                    "backends": backends, "summary": summ})
                for name, t in backends.items():
                    if isinstance(t, str):
                        notes.append("%s: SDPA backend %s: %s" % (space, name, t))
                    else:
                        # decode is memory-bound: its rate is bytes, prefill's is flops
                        rate = ("%.0f GB/s" % (nbytes / (t * 1e-3) / 1e9) if decode
                                else "%.1f TFLOP/s" % (flops / (t * 1e-3) / 1e12))
                        ours = summ["ms"][0] if summ and summ["ms"] else ms
                        notes.append("%s: SDPA backend %s: %.4f ms, %s%s%s" % (
                            space, name, t, rate, "; vkautotune is %.2fx of it" % (t / ours) if ours else "",
                            "" if not summ else "; median of %d rounds, %s ms; vkautotune %s ms; paired ratios %s" % (
                                summ["rounds"], fmt_spread(summ[name]["ms"], ".4f"), fmt_spread(summ["ms"], ".4f"),
                                fmt_spread(summ[name]["ratio"], ".3f"))))
        rows.append({
            "kernel": kind, "dtype": dtype, "shape": shape, "ms": ms, "gbs": gbs,
            "frac": gbs / copy_gbs if gbs and copy_gbs else None, "tflops": tflops, "eager": eager, "compile": comp,
            "vs_eager": eager / ms if eager and ms else None, "vs_compile": comp / ms if comp and ms else None,
            "config": run["best"][0]["config"] if run else "",
            "variants": run["evaluated"] + run["resumed"] if run else None,
            "check_s": run["time_split_s"]["check"] if run else None,
            "seconds": run["seconds"] if run else None,
        })

    head = ["kernel", "dtype", "shape", "vkautotune ms", "GB/s", "of copy BW", "TFLOP/s", "eager ms", "compile ms",
            "x eager", "x compile", "variants", "tuning s", "check s", "best configuration"]
    lines = ["# LLM kernels: vkautotune against PyTorch", "",
             "%s; device: %s; torch %s; copy bandwidth (1 GiB, read + write): %s GB/s; shapes: %s; budget %s per "
             "space." % (datetime.date.today().isoformat(), device or "n/a", torch.__version__ if torch else "n/a",
                         fmt(copy_gbs, ".0f") or "n/a", "[problem.cpu]" if args.cpu_shapes else "[problem]",
                         args.budget),
             "Command: `python3 %s`" % " ".join(sys.argv), "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append("| " + " | ".join([
            r["kernel"], r["dtype"], r["shape"], fmt(r["ms"], ".4f"), fmt(r["gbs"], ".4g"), fmt(r["frac"], ".0%"),
            fmt(r["tflops"], ".1f"), fmt(r["eager"], ".4f"), fmt(r["compile"], ".4f"), fmt(r["vs_eager"], ".2f"),
            fmt(r["vs_compile"], ".2f"), fmt(r["variants"], "d"), fmt(r["seconds"], ".0f"), fmt(r["check_s"], ".1f"),
            "`%s`" % r["config"] if r["config"] else ""]) + " |")
    if prefill:
        if any(r["coopmat"] and r["tflops"] for r in prefill):
            peaks = device_peaks(args)
        lines += prefill_table(prefill, peaks)
    if notes:
        lines += [""] + ["- " + n for n in notes]
    text = "\n".join(lines) + "\n"
    print(text)
    with open(args.out, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
