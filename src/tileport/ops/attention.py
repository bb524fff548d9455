"""attention: fused multi-head attention forward, non-causal — O = softmax(Q K^T * scale) V for q [B, H, Sq, D] and
k, v [B, H, Sk, D] (PyTorch's scaled_dot_product_attention layout), f16/bf16, head dim 64 or 128, online softmax in
f32 with (64, 64) query/key tiles (tileport.examples.attention). Grouped-query and causal forms: not yet."""
from __future__ import annotations

from tileport.examples.attention import attention as kernel

from . import _common as C

DTYPES = C.HALVES
BM, BN = 64, 64
HEAD_DIMS = (64, 128)
PORT_SIGNATURES = C.signatures("q={dtype}[?,?,?]/?,?,1, k={dtype}[?,?,?]/?,?,1, v={dtype}[?,?,?]/?,?,1, "
                               "o={dtype}[?,?,?]/?,?,1, scale=f32, BM=#{bm}, BN=#{bn}, D=#{d}", dtype=DTYPES,
                               bm=[BM], bn=[BN], d=HEAD_DIMS)
#: (batch, heads, query length, key length, head dim)
SHAPES = {"small": (1, 2, 128, 128, 64), "ragged": (2, 3, 100, 77, 64), "mid": (2, 8, 1024, 1024, 128),
          "large": (4, 16, 4096, 4096, 128)}


def attention(q, k, v, scale=None, *, backend=None, out=None):
    """softmax(q @ k^T * scale) @ v per (batch, head); scale defaults to 1 / sqrt(head dim)."""
    C.check("q", q, DTYPES, ndim=4)
    C.check("k", k, DTYPES, ndim=4, like=q)
    C.check("v", v, DTYPES, ndim=4, like=q)
    b, h, sq, d = q.shape
    if d not in HEAD_DIMS:
        raise ValueError(f"head dim {d}: the kernel takes {', '.join(map(str, HEAD_DIMS))}")
    if k.shape[:2] != (b, h) or k.shape[3] != d or v.shape != k.shape:
        raise ValueError(f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}: k and v must be "
                         f"[{b}, {h}, Sk, {d}] (grouped-query attention is not supported yet)")
    views = []
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.stride(-1) != 1:
            raise ValueError(f"{name}'s last dimension must have stride 1; pass {name}.contiguous()")
        try:
            views.append(t.view(b * h, t.shape[2], d))
        except RuntimeError:
            raise ValueError(f"{name}'s batch and head dimensions cannot be merged without a copy (strides "
                             f"{tuple(t.stride())}); pass {name}.contiguous()") from None
    o = C.output(out, q.shape, q)
    scale = float(d ** -0.5 if scale is None else scale)
    if b * h and sq:
        C.launch((b * h, C.cdiv(sq, BM), 1), kernel, (*views, o.view(b * h, sq, d), scale, BM, BN, d), backend)
    return o


def reference(q, k, v, scale=None):
    q, k, v = C.f64(q, k, v)
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    return ((q @ k.transpose(-1, -2)) * scale).softmax(dim=-1) @ v


def torch_eager(q, k, v, scale=None):
    """PyTorch's scaled_dot_product_attention on the same inputs (the bench's comparison)."""
    import torch

    return torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale)


def sample_inputs(case, dtype, device):
    b, h, sq, sk, d = C.shape(SHAPES, case)
    return (C.randn((b, h, sq, d), dtype, device), C.randn((b, h, sk, d), dtype, device),
            C.randn((b, h, sk, d), dtype, device)), {}


def tolerance(dtype):
    return C.tolerance_of({"float16": (4e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0]) + C.nbytes(*args[1:])


def flops(args, kwargs):
    q, k = args[0], args[1]
    return 4 * q.shape[0] * q.shape[1] * q.shape[2] * k.shape[2] * q.shape[3]
