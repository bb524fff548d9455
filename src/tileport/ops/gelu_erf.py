"""gelu_erf: y = 0.5 x (1 + erf(x / sqrt(2))), the exact GELU, computed in f32 (tileport.examples.gelu_erf).

The kernel's erf is Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7); the reference uses the true erf, so the f32
absolute tolerance covers 0.5 |x| * 1.5e-7 plus the f32 cancellation in 1 + erf for negative x.
"""
from __future__ import annotations

from tileport.examples.gelu_erf import gelu_erf as kernel

from . import _common as C

DTYPES = C.FLOATS
B = 1024
PORT_SIGNATURES = C.signatures("x={dtype}[?]/1, y={dtype}[?]/1, B=#{b}", dtype=DTYPES, b=[B])


def gelu_erf(x, *, backend=None, out=None):
    return C.elementwise(kernel, {"x": x}, (B,), DTYPES, tile=B, backend=backend, out=out)


def reference(x):
    x = C.f64(x)
    return 0.5 * x * (1.0 + (x * 0.7071067811865476).erf())


def torch_eager(x):
    """PyTorch's own eager op on the same input (the bench's comparison)."""
    import torch

    return torch.nn.functional.gelu(x)


def sample_inputs(case, dtype, device):
    return (C.randn(C.shape(C.FLAT_SHAPES, case), dtype, device, scale=2.0),), {}


def tolerance(dtype):
    return C.tolerance_of({**C.ROUNDED, "float32": (1e-5, 2e-6)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
