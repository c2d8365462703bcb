#!/usr/bin/env python3
"""What an fp16/bf16 GEMM reaches on this GPU with each class of tensor-core instruction: a Triton matmul compiled
twice, once as Triton chooses (Hopper: wgmma, "MMA v3") and once with DISABLE_MMA_V3=1 (mma.sync, "MMA v2", the
instruction class Vulkan's cooperative matrices compile to on NVIDIA), against cuBLAS in the same run. It measures the
ceiling a Vulkan GEMM on this driver can hope for, not vkautotune (issue 5: what limits the cooperative-matrix GEMMs).

  python3 bench/mma_class_gemm.py --out mma_class.md

Each variant runs in its own process (the environment variable is read when Triton compiles). Per problem and dtype,
the best of a few block configurations (Triton's autotuner, the same list for both classes) is timed with CUDA events
(median of 50 after warm-up); the PTX of the chosen kernel is searched for `wgmma` and `mma.sync` to show which class
ran; the result is checked against torch.matmul (max relative error over the whole C). Without torch, CUDA or Triton
the script says so and exits 0.
"""
import argparse
import json
import os
import subprocess
import sys

from llm_kernels import time_cuda  # CUDA-event median after warm-up, as the kernel library's benchmark times

PROBLEMS = [(4096, 4096, 4096), (8192, 8192, 8192)]
DTYPES = ("fp16", "bf16")


def child(dtype_name, problems):
    """Runs in the child process: {problem: (tflops, max_rel_err, instruction class, config)} as JSON on stdout."""
    import torch
    import triton
    import triton.language as tl

    configs = [triton.Config({"BM": bm, "BN": bn, "BK": bk, "GROUP": 8}, num_warps=w, num_stages=s)
               for bm, bn, bk, w, s in ((128, 256, 64, 8, 3), (256, 128, 64, 8, 3), (128, 128, 64, 4, 4),
                                        (128, 128, 32, 4, 4), (128, 256, 32, 8, 4), (64, 128, 64, 4, 4))]

    @triton.autotune(configs=configs, key=["M", "N", "K"])
    @triton.jit
    def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
        # grouped tile order (L2 reuse), then a plain K loop; fp32 accumulation, C in the input type
        pid = tl.program_id(0)
        tiles_n = tl.cdiv(N, BN)
        per_group = GROUP * tiles_n
        first_m = (pid // per_group) * GROUP
        rows = min(tl.cdiv(M, BM) - first_m, GROUP)
        tm = first_m + (pid % per_group) % rows
        tn = (pid % per_group) // rows
        om = tm * BM + tl.arange(0, BM)
        on = tn * BN + tl.arange(0, BN)
        ok = tl.arange(0, BK)
        pa = a + om[:, None] * K + ok[None, :]
        pb = b + ok[:, None] * N + on[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for _ in range(0, tl.cdiv(K, BK)):
            acc = tl.dot(tl.load(pa), tl.load(pb), acc)
            pa += BK
            pb += BK * N
        tl.store(c + om[:, None] * N + on[None, :], acc.to(c.dtype.element_ty))

    dt = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype_name]
    out = {}
    for m, n, k in problems:
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(k, n, device="cuda", dtype=dt)
        c = torch.empty(m, n, device="cuda", dtype=dt)
        grid = lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)  # noqa: E731
        run = lambda: matmul[grid](a, b, c, m, n, k)  # noqa: E731
        run()  # autotunes
        ref = torch.matmul(a, b).float()
        err = ((c.float() - ref).abs().max() / ref.abs().max()).item()
        ms = time_cuda(torch, run)
        best = matmul.best_config
        classes = set()  # over every configuration compiled (the same lowering picks the class for all)
        try:
            for dev_cache in matmul.fn.device_caches.values():
                for compiled in dev_cache[0].values():
                    ptx = compiled.asm.get("ptx", "")
                    classes |= {c for c in ("wgmma", "mma.sync") if c in ptx}
        except Exception as e:  # noqa: BLE001 (informative only: Triton's internals move between versions)
            classes.add("unknown: %s" % type(e).__name__)
        cls = "+".join(sorted(classes)) or "unknown"
        out["%dx%dx%d" % (m, n, k)] = (2 * m * n * k / (ms * 1e-3) / 1e12, err, cls, str(best))
        del a, b, c, ref
        torch.cuda.empty_cache()
    print(json.dumps(out))


def cublas(problems):
    import torch
    res = {}
    for dname, dt in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        for m, n, k in problems:
            a = torch.randn(m, k, device="cuda", dtype=dt)
            b = torch.randn(k, n, device="cuda", dtype=dt)
            ms = time_cuda(torch, lambda: torch.matmul(a, b))  # noqa: B023 (called before a, b change)
            res[(dname, "%dx%dx%d" % (m, n, k))] = 2 * m * n * k / (ms * 1e-3) / 1e12
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="mma_class.md")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, PROBLEMS)
        return 0
    try:
        import torch
        import triton
    except ImportError as e:
        print("mma_class_gemm: not available: %s" % e)
        return 0
    if not torch.cuda.is_available():
        print("mma_class_gemm: not available: no CUDA device")
        return 0
    rows = []
    for dname in DTYPES:
        for label, env in (("Triton, as it chooses", {}), ("Triton, DISABLE_MMA_V3=1", {"DISABLE_MMA_V3": "1"})):
            e = dict(os.environ, **env)
            p = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", dname], env=e,
                               capture_output=True, text=True)
            if p.returncode != 0:
                rows.append((dname, label, None, p.stderr.strip().splitlines()[-1:] or ["exit %d" % p.returncode]))
                continue
            rows.append((dname, label, json.loads(p.stdout.strip().splitlines()[-1]), None))
    base = cublas(PROBLEMS)
    lines = ["# fp16/bf16 GEMM by tensor-core instruction class", "",
             "torch %s, triton %s, %s; median of 50 CUDA-event timings after warm-up." % (
                 torch.__version__, triton.__version__, torch.cuda.get_device_name()),
             "Command: `python3 %s`" % " ".join(sys.argv), "",
             "| dtype | kernel | problem | instructions | TFLOP/s | cuBLAS TFLOP/s | of cuBLAS | max rel err | config |",
             "|---|---|---|---|---|---|---|---|---|"]
    for dname, label, res, err in rows:
        if res is None:
            lines.append("| %s | %s | | failed: %s | | | | | |" % (dname, label, err[0][:100]))
            continue
        for prob, (tf, rel, cls, cfg) in res.items():
            cb = base[(dname, prob)]
            lines.append("| %s | %s | %s | %s | %.1f | %.1f | %.2f | %.1e | `%s` |" % (
                dname, label, prob, cls, tf, cb, tf / cb, rel, cfg))
    text = "\n".join(lines) + "\n"
    print(text)
    with open(args.out, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
