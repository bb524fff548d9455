"""softcap: y = cap * tanh(x / cap) in f32 (gemma-style logit capping), y = x when cap <= 0
(tileport.kernels.softcap). cap is a runtime scalar: one compiled kernel per dtype serves every cap."""
from __future__ import annotations

from tileport.kernels.softcap import softcap as kernel

from . import _common as C

DTYPES = C.FLOATS
B = 1024
PORT_SIGNATURES = C.signatures("x={dtype}[?]/1, y={dtype}[?]/1, cap=f32, B=#{b}", dtype=DTYPES, b=[B])


def softcap(x, cap, *, backend=None, out=None):
    return C.elementwise(kernel, {"x": x}, (float(cap), B), DTYPES, tile=B, backend=backend, out=out)


def reference(x, cap):
    x = C.f64(x)
    return cap * (x / cap).tanh() if cap > 0 else x


def sample_inputs(case, dtype, device):
    cap = {"small": 15.0, "ragged": 0.0, "mid": 30.0, "large": 50.0}[case]   # ragged: capping off
    return (C.randn(C.shape(C.FLAT_SHAPES, case), dtype, device, scale=20.0), cap), {}


def tolerance(dtype):
    return C.tolerance_of({**C.ROUNDED, "float32": (1e-5, 1e-5)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
