"""relu: y = max(x, 0) elementwise (tileport.kernels.relu).

f32 only: the kernel compares against a literal 0.0 in the input's dtype, which the translator emits for f32 alone.
"""
from __future__ import annotations

from tileport.kernels.relu import relu as kernel

from . import _common as C

DTYPES = ("float32",)
TILE = 1024
PORT_SIGNATURES = C.signatures("x={dtype}[?]/1, y={dtype}[?]/1, TILE=#{tile}", dtype=DTYPES, tile=[TILE])


def relu(x, *, backend=None, out=None):
    return C.elementwise(kernel, {"x": x}, (TILE,), DTYPES, tile=TILE, backend=backend, out=out)


def reference(x):
    return C.f64(x).clamp_min(0.0)


def torch_eager(x):
    """PyTorch's own eager op on the same input (the bench's comparison)."""
    import torch

    return torch.relu(x)


def sample_inputs(case, dtype, device):
    return (C.randn(C.shape(C.FLAT_SHAPES, case), dtype, device),), {}


def tolerance(dtype):
    return C.tolerance_of({"float32": (0.0, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
