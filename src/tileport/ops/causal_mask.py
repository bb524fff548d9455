"""causal_mask: y[r, c] = x[r, c] where c <= r + shift and c < n_cols, else -1e30, on (64, 64) tiles
(tileport.kernels.causal_mask). f32 only: -1e30 is not an f16 value, and the translator emits float literals for
f32 tiles alone. shift = keys - queries masks a block of new queries against a longer key cache."""
from __future__ import annotations

from tileport.kernels.causal_mask import causal_mask as kernel

from . import _common as C

DTYPES = ("float32",)
BM, BN = 64, 64
MASKED = -1.0e30
PORT_SIGNATURES = C.signatures("x={dtype}[?,?]/?,1, y={dtype}[?,?]/?,1, shift=i32, n_cols=i32, BM=#{bm}, BN=#{bn}",
                               dtype=DTYPES, bm=[BM], bn=[BN])


def causal_mask(x, shift=0, n_cols=None, *, backend=None, out=None):
    """x [rows, cols] scores → masked scores; n_cols defaults to cols (no key-length mask)."""
    C.check("x", x, DTYPES, ndim=2)
    x2 = C.rows("x", x)
    m, n = x2.shape
    n_cols = C.int32_scalar("n_cols", n if n_cols is None else n_cols)
    C.int32_scalar("shift", shift)
    C.int32_scalar("rows + shift", C.cdiv(m, BM) * BM + shift)   # the kernel adds them in int32
    y = C.output(out, x.shape, x)
    C.launch((C.cdiv(m, BM), C.cdiv(n, BN), 1), kernel, (x2, y, shift, n_cols, BM, BN), backend)
    return y


def reference(x, shift=0, n_cols=None):
    import torch

    x = C.f64(x)
    m, n = x.shape
    n_cols = n if n_cols is None else n_cols
    r = torch.arange(m, device=x.device)[:, None]
    c = torch.arange(n, device=x.device)[None, :]
    keep = (c <= r + shift) & (c < n_cols)
    masked = torch.tensor(MASKED, dtype=torch.float32).item()   # the literal as the f32 kernel stores it
    return x.where(keep, masked)


def sample_inputs(case, dtype, device):
    m, n = C.shape(C.ROW_SHAPES, case)
    kwargs = {"shift": 0} if case == "small" else {"shift": n - m}   # else: the queries are the last m keys
    if case == "ragged":
        kwargs["n_cols"] = n - 7                                       # and a key-length mask in the last tile
    return (C.randn((m, n), dtype, device),), kwargs


def tolerance(dtype):
    return C.tolerance_of({"float32": (0.0, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
