"""torch.nn.attention of the stand-in: SDPA backend selection. CUDNN_ATTENTION refuses, as a real backend does for
inputs it cannot take, so the scripts' refusal path runs too."""
import contextlib


class SDPBackend:
    FLASH_ATTENTION, CUDNN_ATTENTION, EFFICIENT_ATTENTION, MATH = "flash", "cudnn", "efficient", "math"


@contextlib.contextmanager
def sdpa_kernel(backend):
    if backend == SDPBackend.CUDNN_ATTENTION:
        raise RuntimeError("No available kernel. Aborting execution. (faketorch)")
    yield
