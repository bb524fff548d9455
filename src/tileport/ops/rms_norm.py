"""rms_norm: y = x * rsqrt(mean(x^2) + eps) * weight over the last dimension, statistics in f32, BM rows per block
with each whole row in one tile (tileport.kernels.rms_norm). The host passes inv_n = 1 / row length."""
from __future__ import annotations

from tileport.kernels.rms_norm import rms_norm as kernel

from . import _common as C

DTYPES = C.FLOATS
PORT_SIGNATURES = C.row_signatures("x={dtype}[?,?]/?,1, w={dtype}[?]/1, y={dtype}[?,?]/?,1, inv_n=f32, eps=f32, "
                                   "BM=#{bm}, BLOCK=#{block}", DTYPES)


def rms_norm(x, weight, eps=1e-6, *, backend=None, out=None):
    C.check("x", x, DTYPES)
    x2 = C.rows("x", x)
    m, n = x2.shape
    w = C.vector("weight", weight, n, x)
    y = C.output(out, x.shape, x)
    block = C.row_block(n)
    bm = C.rows_per_block(block, C.dtype_name(x))
    args = (x2, w, y.view(m, n), 1.0 / max(n, 1), float(eps), bm, block)
    C.launch(C.row_grid(m, n, bm), kernel, args, backend)
    return y


def reference(x, weight, eps=1e-6):
    x, w = C.f64(x, weight)
    return x * (x.square().mean(dim=-1, keepdim=True) + eps).rsqrt() * w


def torch_eager(x, weight, eps=1e-6):
    """PyTorch's own eager op on the same inputs (the bench's comparison)."""
    import torch

    return torch.nn.functional.rms_norm(x, (x.shape[-1],), weight, eps)


def sample_inputs(case, dtype, device):
    m, n = C.shape(C.ROW_SHAPES, case)
    return (C.randn((m, n), dtype, device), C.randn((n,), dtype, device)), {"eps": 1e-6}


def tolerance(dtype):
    return C.tolerance_of({**C.ROUNDED, "float32": (2e-5, 1e-5)}, dtype)


def bytes_moved(args, kwargs):
    x, w = args
    return 2 * C.nbytes(x) + C.nbytes(w)


flops = C.no_flops
