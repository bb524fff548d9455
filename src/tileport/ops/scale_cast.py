"""scale_cast: y = x * alpha + 1, computed in f32 and rounded to the output dtype (tileport.kernels.scale_cast)."""
from __future__ import annotations

from tileport.kernels.scale_cast import scale_cast as kernel

from . import _common as C

DTYPES = ("float16", "bfloat16", "float32")
TILE = 1024
PORT_SIGNATURES = C.signatures("x={dtype}[?]/1, y={dtype}[?]/1, alpha=f32, TILE=#{tile}", dtype=DTYPES, tile=[TILE])


def scale_cast(x, alpha, *, backend=None, out=None):
    """x * alpha + 1 in f32 (alpha is rounded to f32), stored in x's dtype."""
    return C.elementwise(kernel, {"x": x}, (float(alpha), TILE), DTYPES, tile=TILE, backend=backend, out=out)


def reference(x, alpha):
    return C.f64(x) * alpha + 1.0


def sample_inputs(case, dtype, device):
    alpha = {"small": 0.5, "ragged": 1.7, "mid": -2.0, "large": 0.125}[case]
    return (C.randn(C.shape(C.FLAT_SHAPES, case), dtype, device), alpha), {}


def tolerance(dtype):
    return C.tolerance_of(C.ROUNDED, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
