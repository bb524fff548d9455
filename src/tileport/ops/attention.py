"""attention: fused multi-head attention forward — O = softmax(Q K^T * scale [+ causal mask]) V for q [B, H, Sq, D]
and k, v [B, Hkv, Sk, D] (PyTorch's scaled_dot_product_attention layout), f16/bf16, head dim 64 or 128, online
softmax in f32 with (128, 64) query/key tiles (tileport.kernels.attention; the tile and occupancy 2 are the best of
a sweep on the H200: benchmarks/results/h200/attention-tiles). Causal is top-left aligned (PyTorch's
is_causal). Grouped-query attention (Hkv dividing H, non-causal) stacks each key/value head's query heads along the
sequence axis: rows are independent in attention, so one kernel instance serves the whole group."""
from __future__ import annotations

from tileport.kernels.attention import attention as kernel

from . import _common as C

DTYPES = C.HALVES
BM, BN = 128, 64
HEAD_DIMS = (64, 128)
PORT_SIGNATURES = C.signatures("q={dtype}[?,?,?]/?,?,1, k={dtype}[?,?,?]/?,?,1, v={dtype}[?,?,?]/?,?,1, "
                               "o={dtype}[?,?,?]/?,?,1, scale=f32, BM=#{bm}, BN=#{bn}, D=#{d}, CAUSAL=#{causal}",
                               dtype=DTYPES, bm=[BM], bn=[BN], d=HEAD_DIMS, causal=["true", "false"])
#: (batch, heads, key/value heads, query length, key length, head dim, causal)
SHAPES = {"small": (1, 2, 2, 128, 128, 64, False), "ragged": (2, 3, 3, 100, 77, 64, True),
          "mid": (2, 8, 2, 1024, 1024, 128, False), "large": (4, 16, 16, 4096, 4096, 128, True)}


def attention(q, k, v, scale=None, is_causal=False, *, backend=None, out=None):
    """softmax(q @ k^T * scale [masked causally]) @ v per (batch, head); scale defaults to 1 / sqrt(head dim)."""
    b, h, hkv, sq, sk, d = C.qkv_shapes(q, k, v, DTYPES, HEAD_DIMS)
    group = h // hkv
    if group > 1 and is_causal:
        raise ValueError("causal grouped-query attention is not supported yet (the stacked query rows would need "
                         "their positions modulo Sq); repeat k and v per query head, or use is_causal=False")
    o = C.output(out, q.shape, q)
    rows = group * sq   # a key/value head's query heads, stacked
    views = [C.view(name, t, shape) for name, t, shape in (
        ("q", q, (b * hkv, rows, d)), ("k", k, (b * hkv, sk, d)), ("v", v, (b * hkv, sk, d)),
        ("out", o, (b * hkv, rows, d)))]
    scale = float(d ** -0.5 if scale is None else scale)
    if b * hkv and rows:
        C.launch((b * hkv, C.cdiv(rows, BM), 1), kernel, (*views, scale, BM, BN, d, bool(is_causal)), backend)
    return o


def reference(q, k, v, scale=None, is_causal=False):
    import torch

    q, k, v = C.f64(q, k, v)
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    s = (q @ k.transpose(-1, -2)) * scale
    if is_causal:
        keep = torch.ones(s.shape[-2:], dtype=torch.bool, device=s.device).tril()
        s = s.masked_fill(~keep, float("-inf"))
    return s.softmax(dim=-1) @ v


def torch_eager(q, k, v, scale=None, is_causal=False):
    """PyTorch's scaled_dot_product_attention on the same inputs (the bench's comparison)."""
    import torch

    return torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale, is_causal=is_causal,
                                                            enable_gqa=q.shape[1] != k.shape[1])


def sample_inputs(case, dtype, device):
    b, h, hkv, sq, sk, d, causal = C.shape(SHAPES, case)
    return (C.randn((b, h, sq, d), dtype, device), C.randn((b, hkv, sk, d), dtype, device),
            C.randn((b, hkv, sk, d), dtype, device)), {"is_causal": causal}


def tolerance(dtype):
    return C.tolerance_of({"float16": (4e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0]) + C.nbytes(*args[1:])


def flops(args, kwargs):
    """4 B H Sq Sk D, halved for causal (the masked half is not computed)."""
    q, k = args[0], args[1]
    full = 4 * q.shape[0] * q.shape[1] * q.shape[2] * k.shape[2] * q.shape[3]
    return full // 2 if kwargs.get("is_causal") else full
