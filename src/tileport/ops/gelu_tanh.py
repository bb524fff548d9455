"""gelu_tanh: y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) elementwise (tileport.kernels.gelu_tanh).

f32 only: the kernel computes in the input's dtype with float literals, which the translator emits for f32 alone.
"""
from __future__ import annotations

import math

from tileport.kernels.gelu_tanh import gelu_tanh as kernel

from . import _common as C

DTYPES = ("float32",)
TILE = 1024
PORT_SIGNATURES = C.signatures("x={dtype}[?]/1, y={dtype}[?]/1, TILE=#{tile}", dtype=DTYPES, tile=[TILE])


def gelu_tanh(x, *, backend=None, out=None):
    return C.elementwise(kernel, {"x": x}, (TILE,), DTYPES, tile=TILE, backend=backend, out=out)


def gelu_tanh_f64(x):
    """The tanh form of GELU on a float64 tensor (geglu's reference uses it too)."""
    return 0.5 * x * (1.0 + (math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)).tanh())


def reference(x):
    return gelu_tanh_f64(C.f64(x))


def torch_eager(x):
    """PyTorch's own eager op on the same input (the bench's comparison)."""
    import torch

    return torch.nn.functional.gelu(x, approximate="tanh")


def sample_inputs(case, dtype, device):
    return (C.randn(C.shape(C.FLAT_SHAPES, case), dtype, device, scale=2.0),), {}


def tolerance(dtype):
    return C.tolerance_of(C.ROUNDED, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
