"""layer_norm: y = (x - mean) * rsqrt(var + eps) * weight + bias over the last dimension, BM rows per block with
each whole row in one tile (tileport.kernels.layer_norm). The kernel takes var = E[x^2] - mean^2 in f32 (the biased
variance, as torch's layer_norm); the host passes inv_n = 1 / row length."""
from __future__ import annotations

from tileport.kernels.layer_norm import layer_norm as kernel

from . import _common as C

DTYPES = C.FLOATS
PORT_SIGNATURES = C.row_signatures("x={dtype}[?,?]/?,1, w={dtype}[?]/1, b={dtype}[?]/1, y={dtype}[?,?]/?,1, "
                                   "inv_n=f32, eps=f32, BM=#{bm}, BLOCK=#{block}", DTYPES)


def layer_norm(x, weight, bias, eps=1e-5, *, backend=None, out=None):
    C.check("x", x, DTYPES)
    x2 = C.rows("x", x)
    m, n = x2.shape
    w, b = C.vector("weight", weight, n, x), C.vector("bias", bias, n, x)
    y = C.output(out, x.shape, x)
    block = C.row_block(n)
    bm = C.rows_per_block(block, C.dtype_name(x))
    args = (x2, w, b, y.view(m, n), 1.0 / max(n, 1), float(eps), bm, block)
    C.launch(C.row_grid(m, n, bm), kernel, args, backend)
    return y


def reference(x, weight, bias, eps=1e-5):
    x, w, b = C.f64(x, weight, bias)
    mean = x.mean(dim=-1, keepdim=True)
    var = x.square().mean(dim=-1, keepdim=True) - mean.square()
    return (x - mean) * (var + eps).rsqrt() * w + b


def torch_eager(x, weight, bias, eps=1e-5):
    """PyTorch's own eager op on the same inputs (the bench's comparison)."""
    import torch

    return torch.nn.functional.layer_norm(x, (x.shape[-1],), weight, bias, eps)


def sample_inputs(case, dtype, device):
    m, n = C.shape(C.ROW_SHAPES, case)
    x, w, b = C.randn((m, n), dtype, device), C.randn((n,), dtype, device), C.randn((n,), dtype, device)
    return (x, w, b), {"eps": 1e-5}


def tolerance(dtype):
    return C.tolerance_of({**C.ROUNDED, "float32": (2e-5, 2e-5)}, dtype)


def bytes_moved(args, kwargs):
    x, w, b = args
    return 2 * C.nbytes(x) + C.nbytes(w, b)


flops = C.no_flops
