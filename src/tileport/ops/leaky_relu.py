"""leaky_relu: y = x if x > 0 else slope * x (tileport.kernels.leaky_relu).

SLOPE is a float ct.Constant, and Rust has no float const generics: every slope is its own compiled entry, so the
wrapper accepts the slopes in SLOPES only. f32 only (the kernel multiplies in the input's dtype with a literal).
"""
from __future__ import annotations

from tileport.kernels.leaky_relu import leaky_relu as kernel

from . import _common as C

DTYPES = ("float32",)
SLOPES = (0.01, 0.1, 0.2)
B = 1024
PORT_SIGNATURES = C.signatures("x={dtype}[?]/1, y={dtype}[?]/1, SLOPE=#{slope!r}, B=#{b}", dtype=DTYPES,
                               slope=SLOPES, b=[B])


def leaky_relu(x, slope=0.01, *, backend=None, out=None):
    if slope not in SLOPES:
        raise ValueError(f"slope={slope!r} is not supported: each slope is a separately compiled kernel; "
                         f"choose one of {', '.join(map(repr, SLOPES))}")
    slope = SLOPES[SLOPES.index(slope)]   # exactly the constant the port was built for
    return C.elementwise(kernel, {"x": x}, (slope, B), DTYPES, tile=B, backend=backend, out=out)


def reference(x, slope=0.01):
    x = C.f64(x)
    return x.where(x > 0, slope * x)


def torch_eager(x, slope=0.01):
    """PyTorch's own eager op on the same input (the bench's comparison)."""
    import torch

    return torch.nn.functional.leaky_relu(x, slope)


def sample_inputs(case, dtype, device):
    slope = {"small": 0.01, "ragged": 0.2, "mid": 0.1, "large": 0.01}[case]
    return (C.randn(C.shape(C.FLAT_SHAPES, case), dtype, device), slope), {}


def tolerance(dtype):
    return C.tolerance_of({"float32": (1e-6, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
