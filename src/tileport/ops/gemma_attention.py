"""gemma_attention: gemma-style attention forward — causal attention with logit soft-capping and an optional sliding
window: O = softmax(cap * tanh(Q K^T * scale / cap) + mask) V, where query i attends keys i - window < j <= i
(top-left aligned, as PyTorch's is_causal; window = 0: every j <= i). q [B, H, Sq, D], k, v [B, Hkv, Sk, D]
(PyTorch's scaled_dot_product_attention layout, Hkv dividing H: grouped-query attention); f16/bf16, head dim 128
or 256; softcap <= 0 switches the capping off. Online softmax in f32 (tileport.kernels.gemma_attention) over
(128, 64) query/key tiles with 8 worker warps, one block per SM (tuned on the H200 at head dim 256; see TILES). The
kernel visits only the key tiles in each block's band, and takes the query blocks in reverse order. A query row
that attends no key (only possible when Sq > Sk with a window) gets 0.

Views as attention_sinks: q [B*Hkv, G, Sq, D], k, v [B*Hkv, Sk, D], o [B*Hkv, G, Sq*D], block (z, g, i) = query
head g of key/value head z. softcap is a kernel constant (SOFTCAP on/off: a runtime branch inside the key loop is
not provable with cutile 0.3.1), its value a runtime f32: one compiled kernel per dtype, head dim and on/off."""
from __future__ import annotations

from tileport.kernels.gemma_attention import gemma_attention as kernel

from . import _backend
from . import _common as C
from .attention_sinks import attended_pairs, band, gqa_views, scale_arg, window_arg

DTYPES = C.HALVES
CEILING = "none"   # PyTorch has no kernel for it (its torch_eager is an eager composition): TFLOP/s only
#: head dim -> (BM, BN); with the kernel's 8 worker warps (benchmarks/results/h200/attention-tiles/prefill.log: at
#: D = 256, (128, 64) 902 µs against 1578 for the former (64, 32) with occupancy 2)
TILES = {128: (128, 64), 256: (128, 64)}
HEAD_DIMS = tuple(TILES)
TEMPLATE = ("q={dtype}[?,?,?,?]/?,?,?,1, k={dtype}[?,?,?]/?,?,1, v={dtype}[?,?,?]/?,?,1, o={dtype}[?,?,?]/?,?,1, "
            "scale=f32, cap=f32, window=i32, BM=#{bm}, BN=#{bn}, D=#{d}, BMD=#{bmd}, SOFTCAP=#{softcap}")
PORT_SIGNATURES = [TEMPLATE.format(dtype=C.SHORT[dt], bm=TILES[d][0], bn=TILES[d][1], d=d, bmd=TILES[d][0] * d,
                                   softcap=softcap)
                   for dt in DTYPES for d in HEAD_DIMS for softcap in ("true", "false")]
#: (batch, heads, key/value heads, query length, key length, head dim, window, softcap): small without window or
#: capping; ragged with Sq > Sk (neither a multiple of 64), head dim 256, a window that starts mid-tile and a small
#: cap (so tanh bends the logits); mid gemma-2-27b-like (32 heads, 16 key/value heads, head dim 128, cap 50) with a
#: window; large gemma-2-9b-like (16 heads, 8 key/value heads, head dim 256, its 4096-token window, cap 50).
SHAPES = {"small": (1, 4, 2, 128, 128, 128, 0, 0.0), "ragged": (2, 4, 2, 300, 250, 256, 100, 2.0),
          "mid": (2, 32, 16, 1024, 1024, 128, 256, 50.0), "large": (1, 16, 8, 8192, 8192, 256, 4096, 50.0)}


def gemma_attention(q, k, v, softcap=50.0, window=0, scale=None, *, backend=None, out=None):
    """softmax(softcap * tanh(q @ k^T * scale / softcap), causal [and windowed]) @ v per (batch, head); softcap <= 0:
    no capping; scale defaults to 1 / sqrt(head dim)."""
    b, h, hkv, sq, sk, d = C.qkv_shapes(q, k, v, DTYPES, HEAD_DIMS)
    win = window_arg(window)
    scale = scale_arg(scale, d)
    cap = float(softcap)
    if cap != cap or cap == float("inf"):
        raise ValueError(f"softcap={softcap}: pass a finite cap (<= 0: no capping)")
    capped = cap > 0.0
    o = C.output(out, q.shape, q)
    views = gqa_views(q, k, v, o, hkv)
    if sk == 0:   # no key: every row attends none
        _backend.current_backend(backend)
        return o.zero_()
    bm, bn = TILES[d]
    C.launch((b * hkv, h // hkv, C.cdiv(sq, bm)), kernel,
             (*views, scale, cap if capped else 1.0, win, bm, bn, d, bm * d, capped), backend)
    return o


def reference(q, k, v, softcap=50.0, window=0, scale=None):
    import torch

    q, k, v = C.f64(q, k, v)
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    s = (q @ k.transpose(-1, -2)) * scale
    if softcap > 0:
        s = softcap * torch.tanh(s / softcap)
    keep = band(q.shape[2], k.shape[2], window, s.device)
    p = s.masked_fill(~keep, float("-inf")).softmax(dim=-1)
    p = torch.where(keep.any(dim=-1, keepdim=True), p, 0.0)   # a row that attends no key: 0, not NaN
    return p @ v


def torch_eager(q, k, v, softcap=50.0, window=0, scale=None):
    """PyTorch eager on the same inputs (the bench's comparison). Without capping, scaled_dot_product_attention with
    the band as a boolean mask (enable_gqa); with it (SDPA cannot cap), the eager formulation of gemma's model code:
    k, v repeated per query head, scores from an input-dtype matmul, then in f32 the cap (tanh), the band mask
    (masked_fill) and softmax; the weights back in the input dtype for the matmul with v."""
    import torch

    keep = band(q.shape[2], k.shape[2], window, q.device)
    if softcap <= 0:
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=keep, scale=scale,
                                                                enable_gqa=q.shape[1] != k.shape[1])
    group = q.shape[1] // k.shape[1]
    if group > 1:
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    s = torch.matmul(q, k.transpose(-1, -2)).float() * scale
    s = torch.tanh(s / softcap) * softcap
    s = s.masked_fill(~keep, float("-inf"))
    return torch.matmul(s.softmax(dim=-1).to(q.dtype), v)


def sample_inputs(case, dtype, device):
    b, h, hkv, sq, sk, d, window, softcap = C.shape(SHAPES, case)
    return (C.randn((b, h, sq, d), dtype, device), C.randn((b, hkv, sk, d), dtype, device),
            C.randn((b, hkv, sk, d), dtype, device)), {"softcap": softcap, "window": window}


def tolerance(dtype):
    return C.tolerance_of({"float16": (4e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0]) + C.nbytes(*args[1:3])


def flops(args, kwargs):
    """4 B H D x the attended (query, key) pairs per head (attention_sinks.attended_pairs over the causal band,
    limited to the window when there is one): 2 for q.k and 2 for p.v per pair; the tanh of the capping and the
    skipped or masked parts of tiles do not count."""
    q, k = args[0], args[1]
    return 4 * q.shape[0] * q.shape[1] * q.shape[3] * attended_pairs(q.shape[2], k.shape[2], True,
                                                                      kwargs.get("window", 0))
