"""persistent_scale: y = 2 x, with a persistent grid: min(tiles, SMs) blocks walk the TILE-long tiles with a grid
stride (tileport.kernels.persistent_scale). f32 only (the kernel multiplies by a literal in the input's dtype)."""
from __future__ import annotations

from tileport.kernels.persistent_scale import persistent_scale as kernel

from . import _common as C

DTYPES = ("float32",)
TILE = 1024
PORT_SIGNATURES = C.signatures("x={dtype}[?]/1, y={dtype}[?]/1, TILE=#{tile}", dtype=DTYPES, tile=[TILE])


def persistent_scale(x, *, backend=None, out=None):
    C.check("x", x, DTYPES, min_ndim=0)
    return C.elementwise(kernel, {"x": x}, (TILE,), DTYPES, tile=TILE, backend=backend, out=out,
                         max_blocks=C.num_sms(x.device))


def reference(x):
    return 2.0 * C.f64(x)


def sample_inputs(case, dtype, device):
    return (C.randn(C.shape(C.FLAT_SHAPES, case), dtype, device),), {}


def tolerance(dtype):
    return C.tolerance_of({"float32": (0.0, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
