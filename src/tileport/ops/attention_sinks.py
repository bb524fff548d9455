"""attention_sinks: multi-head attention forward with a learned per-head sink logit in every softmax's denominator
(open-weight models such as gpt-oss): p_ij = exp(s_ij - m_i) / (sum_j exp(s_ij - m_i) + exp(sink_h - m_i)),
s = Q K^T * scale, O = P V; the sink attends to no value, so a row's weights sum to less than 1. q [B, H, Sq, D],
k, v [B, Hkv, Sk, D] (PyTorch's scaled_dot_product_attention layout, Hkv dividing H: grouped-query attention),
sinks [H] float32; f16/bf16, head dim 64 or 128, online softmax in f32 with (128, 64) query/key tiles
(tileport.kernels.attention_sinks; query blocks in reverse order). Causal is top-left aligned (PyTorch's
is_causal); window > 0 (causal only)
limits query i to keys i - window < j <= i (a sliding window); the kernel visits only the key tiles in the band.

The kernel reads q as a [B*Hkv, G, Sq, D] view and writes o as [B*Hkv, G, Sq*D] (G = H / Hkv query heads per
key/value head): block (z, g, i) is query head g of key/value head z, so no division by G is needed. The sinks go
in as a [B*Hkv, G] table: a view of sinks for B = 1, a copy of B*H floats for B > 1."""
from __future__ import annotations

from tileport.kernels.attention_sinks import attention_sinks as kernel

from . import _backend
from . import _common as C

DTYPES = C.HALVES
AUX_DTYPES = ("float32",)   # the sink logits
CEILING = "none"   # PyTorch has no kernel for it (its torch_eager is an eager composition): TFLOP/s only
BM, BN = 128, 64   # 1.17x faster than (64, 64) (benchmarks/results/h200/attention-tiles/prefill.log)
HEAD_DIMS = (64, 128)
#: the kernel's WINDOW when there is none: any value >= Sq would do; 2**30 keeps every row - WINDOW in int32
NO_WINDOW = 2**30
TEMPLATE = ("q={dtype}[?,?,?,?]/?,?,?,1, k={dtype}[?,?,?]/?,?,1, v={dtype}[?,?,?]/?,?,1, sinks=f32[?,?]/?,1, "
            "o={dtype}[?,?,?]/?,?,1, scale=f32, window=i32, BM=#{bm}, BN=#{bn}, D=#{d}, BMD=#{bmd}, CAUSAL=#{causal}")
PORT_SIGNATURES = [TEMPLATE.format(dtype=C.SHORT[dt], bm=BM, bn=BN, d=d, bmd=BM * d, causal=causal)
                   for dt in DTYPES for d in HEAD_DIMS for causal in ("true", "false")]
#: (batch, heads, key/value heads, query length, key length, head dim, causal, window): small is bidirectional;
#: ragged has Sq > Sk, neither a multiple of 64, and a window that starts mid-tile; mid and large are gpt-oss-like
#: (64 query heads, 8 key/value heads, head dim 64), mid with its 128-token sliding window.
SHAPES = {"small": (1, 4, 2, 128, 128, 64, False, 0), "ragged": (2, 6, 2, 300, 250, 128, True, 100),
          "mid": (2, 64, 8, 1024, 1024, 64, True, 128), "large": (1, 64, 8, 4096, 4096, 64, True, 0)}


# ---------------------------------------------------------------- shared with gemma_attention

def window_arg(window) -> int:
    """The kernel's window for the wrapper's (0 = none)."""
    window = C.int32_scalar("window", window)
    if window < 0:
        raise ValueError(f"window={window}: it must be >= 0 (0: no sliding window)")
    return min(window, NO_WINDOW) if window else NO_WINDOW


def scale_arg(scale, d: int) -> float:
    scale = float(d ** -0.5 if scale is None else scale)
    if not 0.0 < scale < float("inf"):
        raise ValueError(f"scale={scale}: the kernels take a finite scale > 0")
    return scale


def gqa_views(q, k, v, o, hkv: int) -> list:
    """q [B*Hkv, G, Sq, D], k and v [B*Hkv, Sk, D], o [B*Hkv, G, Sq*D]: views, no copies."""
    b, h, sq, d = q.shape
    sk, group = k.shape[2], h // hkv
    return [C.view(name, t, shape) for name, t, shape in (
        ("q", q, (b * hkv, group, sq, d)), ("k", k, (b * hkv, sk, d)), ("v", v, (b * hkv, sk, d)),
        ("out", o, (b * hkv, group, sq * d)))]


def band(sq: int, sk: int, window: int, device):
    """[Sq, Sk] bool: query i attends key j (j <= i, and j > i - window when window > 0)."""
    import torch

    i = torch.arange(sq, device=device)[:, None]
    j = torch.arange(sk, device=device)[None, :]
    keep = j <= i
    return keep & (j > i - window) if window > 0 else keep


def attended_pairs(sq: int, sk: int, causal: bool, window: int) -> int:
    """How many (query, key) pairs a head attends: Sq * Sk, or with the causal band
    sum over i < Sq of |{j < Sk : i - window < j <= i}|."""
    if not causal:
        return sq * sk
    return sum(max(0, min(i, sk - 1) - (max(0, i - window + 1) if window > 0 else 0) + 1) for i in range(sq))


# ---------------------------------------------------------------- the op

def attention_sinks(q, k, v, sinks, scale=None, is_causal=True, window=0, *, backend=None, out=None):
    """softmax([q @ k^T * scale (masked causally / to the window), sink]) without the sink column, @ v, per
    (batch, head); scale defaults to 1 / sqrt(head dim)."""
    b, h, hkv, sq, sk, d = C.qkv_shapes(q, k, v, DTYPES, HEAD_DIMS)
    C.check("sinks", sinks, AUX_DTYPES, ndim=1)
    if sinks.shape[0] != h:
        raise ValueError(f"sinks has {sinks.shape[0]} elements, q has {h} heads: one sink logit per query head")
    if sinks.get_device() != q.get_device():
        raise ValueError(f"sinks is on {sinks.device}, q on {q.device}")
    win = window_arg(window)
    if window and not is_causal:
        raise ValueError(f"window={window} needs is_causal=True (the sliding window is a causal band)")
    scale = scale_arg(scale, d)
    o = C.output(out, q.shape, q)
    views = gqa_views(q, k, v, o, hkv)
    group = h // hkv
    # [B*Hkv, G]: a view for B = 1, else a copy of B*H floats (never a stride-0 view)
    table = C.flat("sinks", sinks).view(1, hkv, group).expand(b, hkv, group).reshape(b * hkv, group).contiguous()
    if sk == 0:   # no key: the sink takes all the weight and attends no value
        _backend.current_backend(backend)
        return o.zero_()
    C.launch((b * hkv, group, C.cdiv(sq, BM)), kernel,
             (*views[:3], table, views[3], scale, win, BM, BN, d, BM * d, bool(is_causal)), backend)
    return o


def reference(q, k, v, sinks, scale=None, is_causal=True, window=0):
    import torch

    q, k, v = C.f64(q, k, v)
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    s = (q @ k.transpose(-1, -2)) * scale
    if is_causal:
        s = s.masked_fill(~band(q.shape[2], k.shape[2], window, s.device), float("-inf"))
    sink = C.f64(sinks).view(1, -1, 1, 1).expand(*s.shape[:-1], 1)
    p = torch.cat([s, sink], dim=-1).softmax(dim=-1)[..., :-1]   # the sink column: weight, but no value
    return p @ v


def torch_eager(q, k, v, sinks, scale=None, is_causal=True, window=0):
    """PyTorch eager on the same inputs (the bench's comparison). scaled_dot_product_attention has no sink, so this
    is the eager formulation open-weight model code uses: k, v repeated per query head, scores from an input-dtype
    matmul, then in f32 the band mask (masked_fill), the sink column, softmax; the weights back in the input dtype
    for the matmul with v."""
    import torch

    group = q.shape[1] // k.shape[1]
    if group > 1:
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    s = torch.matmul(q, k.transpose(-1, -2)).float() * scale
    if is_causal:
        s = s.masked_fill(~band(q.shape[2], k.shape[2], window, s.device), float("-inf"))
    s = torch.cat([s, sinks.float().view(1, -1, 1, 1).expand(*s.shape[:-1], 1)], dim=-1)
    return torch.matmul(s.softmax(dim=-1)[..., :-1].to(q.dtype), v)


def sample_inputs(case, dtype, device):
    b, h, hkv, sq, sk, d, causal, window = C.shape(SHAPES, case)
    return (C.randn((b, h, sq, d), dtype, device), C.randn((b, hkv, sk, d), dtype, device),
            C.randn((b, hkv, sk, d), dtype, device), C.randn((h,), "float32", device, scale=2.0)), \
        {"is_causal": causal, "window": window}


def tolerance(dtype):
    return C.tolerance_of({"float16": (4e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0]) + C.nbytes(*args[1:4])


def flops(args, kwargs):
    """4 B H D x the attended (query, key) pairs per head (attended_pairs: Sq Sk, or the causal/window band):
    2 for q.k and 2 for p.v per pair; the skipped tiles and the masked parts of computed ones do not count."""
    q, k = args[0], args[1]
    pairs = attended_pairs(q.shape[2], k.shape[2], bool(kwargs.get("is_causal", True)), kwargs.get("window", 0))
    return 4 * q.shape[0] * q.shape[1] * q.shape[3] * pairs
