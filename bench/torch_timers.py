#!/usr/bin/env python3
"""torch_timers.py — what the way PyTorch is timed does to the baselines of bench/llm_kernels.py.

Until session 11 llm_kernels.py timed each PyTorch call alone: 10 warm-up calls, then 50 samples of one call between
two CUDA events with a synchronize after each (gemm_vs_cublas.py the same after a 0.3 s warm-up). The GPU then waits
for the host to launch every call, and that gap (plus torch.compile's guards, run on the host before its kernels)
counted into PyTorch's time, while vkautotune times batches of back-to-back dispatches. Both scripts now time PyTorch
so too (bench/torch_timing.py). This program times the same operations both ways, in alternating order, in one
process, and prints per operation the old figure over the new one: how much slower the old timer made PyTorch look,
so figures recorded with it can be read. --gemm adds gemm_vs_cublas.py's cuBLAS rows (fp16 and int8).

    python3 bench/torch_timers.py [--only softmax_f16,...] [--rounds 3] [--eager-only] [--out FILE.md]

Shapes and operations are llm_kernels.py's (the spaces' [problem] sizes); the 1 GiB copy of its bandwidth figure is
the first row. A benchmark: it prints figures and asserts nothing.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llm_kernels as lk  # noqa: E402
from torch_timing import time_cuda, time_per_call  # noqa: E402

DEFAULT_ONLY = ("softmax_f16,rmsnorm_f16,layernorm_f16,reduce_sum_f16,xent_f16,rope_f16,swiglu_f16,transpose_f16,"
                "attention_decode_f16,attention_fa_nv_f16")


def both(torch, fn, rounds, **new_timer):
    """(old ms, new ms) of fn: medians over `rounds` rounds, the two timers alternating which goes first; new_timer:
    time_cuda's options as the benchmark that is read uses them."""
    old, new = [], []
    for i in range(rounds):
        if i % 2 == 0:
            old.append(time_per_call(torch, fn))
            new.append(time_cuda(torch, fn, **new_timer))
        else:
            new.append(time_cuda(torch, fn, **new_timer))
            old.append(time_per_call(torch, fn))
    return statistics.median(old), statistics.median(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=DEFAULT_ONLY, help="comma list of llm_kernels.py's spaces")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of both timers per operation (default 3)")
    ap.add_argument("--eager-only", action="store_true", help="skip torch.compile")
    ap.add_argument("--cpu-shapes", action="store_true", help="use [problem.cpu] sizes (for a test without a GPU)")
    ap.add_argument("--gemm", action="store_true",
                    help="also cuBLAS fp16 4096^3 and 8192^3, torch._int_mm 4096 x 512 x 14336 (B N x K)")
    ap.add_argument("--out", help="markdown file to write as well")
    args = ap.parse_args()
    torch, why = lk.torch_setup()
    if torch is None:
        print("torch_timers.py: %s" % why, file=sys.stderr)
        return 3
    lines = ["| operation | shape | old timer ms | new timer ms | old / new |", "|---|---|---|---|---|"]

    def row(name, shape, fn, **new_timer):
        old, new = both(torch, fn, args.rounds, **new_timer)
        lines.append("| %s | %s | %.4f | %.4f | %.3f |" % (name, shape, old, new, old / new))
        print(lines[-1], flush=True)

    n = 1 << 30
    a = torch.empty(n, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    row("copy (llm_kernels.py's bandwidth)", "1 GiB", lambda: b.copy_(a))
    del a, b
    if args.gemm:
        for m, n, k in ((4096, 4096, 4096), (8192, 8192, 8192)):
            x = torch.rand(m, k, device="cuda", dtype=torch.float16)
            y = torch.rand(k, n, device="cuda", dtype=torch.float16)
            z = torch.matmul(x, y)
            row("cuBLAS fp16 (torch.matmul)", "%dx%dx%d" % (m, n, k), lambda: torch.matmul(x, y, out=z),
                sample_ms=2.0)  # as gemm_vs_cublas.py times it
            del x, y, z
        x = torch.randint(-128, 128, (4096, 14336), device="cuda", dtype=torch.int8)
        y = torch.randint(-128, 128, (512, 14336), device="cuda", dtype=torch.int8).t()
        row("torch._int_mm, B N x K", "4096x512x14336", lambda: torch._int_mm(x, y), sample_ms=2.0)
        del x, y
        torch.cuda.empty_cache()
    wanted = [s for s in args.only.split(",") if s]
    for space, template, *rest in lk.KERNELS:
        override = rest[0] if rest else {}
        if space not in wanted:
            continue
        wanted.remove(space)  # a space listed twice (fp16 S) has the same PyTorch side
        prob, _ = lk.space_info(space, args.cpu_shapes, override)
        shape = ",".join("%s=%d" % kv for kv in prob.items() if kv[0] not in ("DT", "OP"))
        kind, _ = lk.kind_dtype(space)
        if kind.startswith("attention"):
            q, k, v, kw = lk.sdpa_inputs(torch, space, prob)
            F = torch.nn.functional
            row(space + " (SDPA, default backend)", shape, lambda: F.scaled_dot_product_attention(q, k, v, **kw))
            del q, k, v
        else:
            fn = lk.torch_op(torch, space, prob)
            row(space + " eager", shape, fn)
            if not args.eager_only:
                row(space + " torch.compile", shape, torch.compile(fn))
        torch.cuda.empty_cache()
    text = ["# PyTorch timed per call (old) and in batches of back-to-back calls (new)", "",
            "torch %s, %s; %d rounds of each timer per operation, alternating; medians." % (
                getattr(torch, "__version__", "?"), getattr(torch.cuda, "get_device_name", lambda i: "?")(0), args.rounds), ""] + lines
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(text) + "\n")
    print("\n".join(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
