"""A stand-in for PyTorch with the names bench/llm_kernels.py and bench/gemm_vs_cublas.py use, so that CI runs their
PyTorch code paths on a machine without torch or CUDA (tests/bench/bench_scripts.sh). Every operation returns a
dummy tensor and every timed interval is 1 ms: it checks that the scripts run, never what they measure."""
float32, float16, bfloat16, uint8, int8 = "float32", "float16", "bfloat16", "uint8", "int8"
__version__ = "0.0 (faketorch)"


class _Tensor:
    def __getattr__(self, name):
        return lambda *a, **k: _Tensor()

    def __mul__(self, other):
        return _Tensor()

    __rmul__ = __add__ = __radd__ = __sub__ = __rsub__ = __truediv__ = __neg__ = __mod__ = __pow__ = __mul__

    def __getitem__(self, key):
        return _Tensor()


def _op(*a, **k):
    return _Tensor()


randn = rand = arange = randint = rsqrt = softmax = cat = empty = empty_like = matmul = _int_mm = _op


class backends:
    class cuda:
        class matmul:
            allow_tf32 = True

    class cudnn:
        allow_tf32 = True


class _Event:
    def __init__(self, **k):
        pass

    def record(self):
        pass

    def synchronize(self):
        pass

    def elapsed_time(self, other):
        return 1.0


class cuda:
    Event = _Event

    @staticmethod
    def is_available():
        return True

    @staticmethod
    def synchronize():
        pass

    @staticmethod
    def empty_cache():
        pass


from . import nn  # noqa: E402 (needs _op above)


def compile(fn):
    return fn
