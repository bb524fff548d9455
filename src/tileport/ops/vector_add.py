"""vector_add: c = a + b elementwise, added in the inputs' dtype (tileport.kernels.vector_add)."""
from __future__ import annotations

from tileport.kernels.vector_add import vector_add as kernel

from . import _common as C

DTYPES = C.FLOATS
TILE = 1024
PORT_SIGNATURES = C.signatures("a={dtype}[?]/1, b={dtype}[?]/1, c={dtype}[?]/1, TILE=#{tile}", dtype=DTYPES, tile=[TILE])


def vector_add(a, b, *, backend=None, out=None):
    """a + b for two contiguous CUDA tensors of one shape and dtype."""
    return C.elementwise(kernel, {"a": a, "b": b}, (TILE,), DTYPES, tile=TILE, backend=backend, out=out)


def reference(a, b):
    return C.f64(a) + C.f64(b)


def sample_inputs(case, dtype, device):
    shape = C.shape(C.FLAT_SHAPES, case)
    return (C.randn(shape, dtype, device), C.randn(shape, dtype, device)), {}


def tolerance(dtype):
    return C.tolerance_of(C.ROUNDED, dtype)


def bytes_moved(args, kwargs):
    a, b = args
    return C.nbytes(a, b, a)


flops = C.no_flops
