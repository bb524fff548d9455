"""masked_rowsum: y[r] = sum of x[r, c] over the row's elements above threshold, f32, (64, 128) tiles with an f32
accumulator over the column tiles (tileport.kernels.masked_rowsum).

The kernel reads the row length from the array; its output is an [rows, 1] array, which the wrapper returns as
[rows].
"""
from __future__ import annotations

from tileport.kernels.masked_rowsum import masked_rowsum as kernel

from . import _common as C

DTYPES = ("float32",)
BM, BK = 64, 128
PORT_SIGNATURES = C.signatures("x={dtype}[?,?]/?,1, y={dtype}[?,?]/?,1, threshold=f32, BM=#{bm}, BK=#{bk}",
                               dtype=DTYPES, bm=[BM], bk=[BK])


def masked_rowsum(x, threshold=0.0, *, backend=None, out=None):
    """x [rows, cols] → [rows]: the sum of each row's elements greater than threshold."""
    C.check("x", x, DTYPES, ndim=2)
    x2 = C.rows("x", x)
    m = x2.shape[0]
    y = C.output(out, (m,), x)
    C.launch((C.cdiv(m, BM), 1, 1), kernel, (x2, y.view(m, 1), float(threshold), BM, BK), backend)
    return y


def reference(x, threshold=0.0):
    x = C.f64(x)
    return x.where(x > threshold, 0.0).sum(dim=-1)


def sample_inputs(case, dtype, device):
    threshold = {"small": 0.0, "ragged": 0.5, "mid": -0.25, "large": 0.0}[case]
    return (C.randn(C.shape(C.ROW_SHAPES, case), dtype, device), threshold), {}


def tolerance(dtype):
    return C.tolerance_of({"float32": (1e-5, 1e-4)}, dtype)


def bytes_moved(args, kwargs):
    x = args[0]
    return C.nbytes(x) + x.shape[0] * x.element_size()


flops = C.no_flops
