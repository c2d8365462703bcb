"""torch_timing.py — how the benchmarks time PyTorch (cuBLAS, SDPA, eager and compiled ops): as vkautotune times its
own kernels, after a time-based warm-up, in samples of back-to-back calls between two CUDA events, queued before one
synchronize, so the GPU never waits for the host between calls.

Until session 11 each call was timed alone between two events with a synchronize after it. The GPU then waited for
the host to launch every call, and that gap (and torch.compile's guards, run on the host) counted into PyTorch's time:
1-44% on the memory-bound kernels at LLM shapes (records/h200/s11-lead-call/timers.md). time_per_call is that timer,
kept for bench/torch_timers.py, which measures the difference."""
import statistics
import time


def calls_per_sample(per_call_ms, sample_ms, most=10):
    """Back-to-back calls in one timed sample of about sample_ms (1 to `most`): the PyTorch timer's rule, and
    gemm_vs_cublas.py's for gemm_verify's --batch, so that both sides of a ratio are timed alike."""
    return max(1, min(most, round(sample_ms / per_call_ms))) if per_call_ms > 0 else most


def time_cuda(torch, fn, calls=10, samples=20, warm_s=0.3, sample_ms=None):
    """Milliseconds per call of fn: the median of `samples` samples of `calls` back-to-back calls each, after at least
    warm_s seconds (and 10 calls) of warm-up, so the clocks are up. With sample_ms, the calls per sample are chosen
    from the warm-up's rate so that a sample lasts about sample_ms (1 to `calls`): a long kernel is then timed in
    short bursts, as vkautotune times it, rather than for seconds on end (a sustained load can reach the GPU's power
    limit and lower its clock; records/h200/s11-lead-call/ shows it for an 8192^3 GEMM)."""
    t0, n = time.perf_counter(), 0
    while n < 10 or (time.perf_counter() - t0 < warm_s and n < 100000):
        for _ in range(min(calls, 10)):
            fn()
        torch.cuda.synchronize()
        n += min(calls, 10)
    if sample_ms:
        calls = calls_per_sample((time.perf_counter() - t0) * 1e3 / n, sample_ms, calls)
    events = []
    for _ in range(samples):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(calls):
            fn()
        b.record()
        events.append((a, b))
    torch.cuda.synchronize()
    return statistics.median(a.elapsed_time(b) / calls for a, b in events)


def time_per_call(torch, fn, reps=50, warm=10):
    """The timer before session 11: each call alone between two events, a synchronize after each."""
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
