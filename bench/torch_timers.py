#!/usr/bin/env python3
"""torch_timers.py — what the way PyTorch is timed does to the baselines of bench/llm_kernels.py.

Until session 11 llm_kernels.py timed each PyTorch call alone: 10 warm-up calls, then 50 samples of one call between
two CUDA events with a synchronize after each. The GPU then waits for the host to launch every call, and that gap
(plus torch.compile's guards, run on the host before its kernels) counted into PyTorch's time, while vkautotune times
batches of back-to-back dispatches. llm_kernels.py now times PyTorch so too (its time_cuda: a time-based warm-up, then
samples of 10 back-to-back calls between two events). This program times the same operations both ways, in
alternating order, in one process, and prints per operation the old figure over the new one: how much slower the old
timer made PyTorch look, so figures recorded with it can be read.

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

DEFAULT_ONLY = ("softmax_f16,rmsnorm_f16,layernorm_f16,reduce_sum_f16,xent_f16,rope_f16,swiglu_f16,transpose_f16,"
                "attention_decode_f16,attention_fa_nv_f16")


def time_per_call(torch, fn, reps=50, warm=10):
    """llm_kernels.py's timer until session 11: each call alone between two events, a synchronize after each."""
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times)


def both(torch, fn, rounds):
    """(old ms, new ms) of fn: medians over `rounds` rounds, the two timers alternating which goes first."""
    old, new = [], []
    for i in range(rounds):
        if i % 2 == 0:
            old.append(time_per_call(torch, fn))
            new.append(lk.time_cuda(torch, fn))
        else:
            new.append(lk.time_cuda(torch, fn))
            old.append(time_per_call(torch, fn))
    return statistics.median(old), statistics.median(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=DEFAULT_ONLY, help="comma list of llm_kernels.py's spaces")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of both timers per operation (default 3)")
    ap.add_argument("--eager-only", action="store_true", help="skip torch.compile")
    ap.add_argument("--cpu-shapes", action="store_true", help="use [problem.cpu] sizes (for a test without a GPU)")
    ap.add_argument("--out", help="markdown file to write as well")
    args = ap.parse_args()
    torch, why = lk.torch_setup()
    if torch is None:
        print("torch_timers.py: %s" % why, file=sys.stderr)
        return 3
    lines = ["| operation | shape | old timer ms | new timer ms | old / new |", "|---|---|---|---|---|"]

    def row(name, shape, fn):
        old, new = both(torch, fn, args.rounds)
        lines.append("| %s | %s | %.4f | %.4f | %.3f |" % (name, shape, old, new, old / new))
        print(lines[-1], flush=True)

    n = 1 << 30
    a = torch.empty(n, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    row("copy (llm_kernels.py's bandwidth)", "1 GiB", lambda: b.copy_(a))
    del a, b
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
