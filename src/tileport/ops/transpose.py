"""transpose: y = x^T of a [rows, cols] matrix, (64, 64) tiles read transposed through the load's order=(1, 0)
(tileport.kernels.transpose)."""
from __future__ import annotations

from tileport.kernels.transpose import transpose as kernel

from . import _common as C

DTYPES = C.FLOATS
BM, BN = 64, 64
PORT_SIGNATURES = C.signatures("x={dtype}[?,?]/?,1, y={dtype}[?,?]/?,1, BM=#{bm}, BN=#{bn}", dtype=DTYPES, bm=[BM],
                               bn=[BN])


def transpose(x, *, backend=None, out=None):
    """x [m, n] (last dimension contiguous) → a new row-major [n, m] tensor."""
    C.check("x", x, DTYPES, ndim=2)
    x2 = C.rows("x", x)
    m, n = x2.shape
    y = C.output(out, (n, m), x)
    C.launch((C.cdiv(n, BM), C.cdiv(m, BN), 1), kernel, (x2, y, BM, BN), backend)
    return y


def reference(x):
    return C.f64(x).T


def sample_inputs(case, dtype, device):
    return (C.randn(C.shape(C.ROW_SHAPES, case), dtype, device),), {}


def tolerance(dtype):
    return C.tolerance_of({d: (0.0, 0.0) for d in DTYPES}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
