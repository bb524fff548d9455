"""mla_prefill: DeepSeek-style multi-head latent attention (MLA) prefill, the un-absorbed form — per (batch, head)
O = softmax(S [+ causal mask]) V with S[i, j] = scale * (q_nope[i] . k_nope[j] + q_pe[i] . k_pe[j]).

Layouts: q_nope, k_nope [B, H, S, 128] (the non-rotary part of each head), q_pe [B, H, S, 64] (the rotary part of
each query head), k_pe [B, S, 64] (the rotary key: one per token, SHARED by all H heads), v [B, H, S, 128]; the result
is [B, H, S, 128]. f16/bf16; scale defaults to 1/sqrt(128 + 64). Causal is top-left aligned (PyTorch's is_causal);
queries and keys have the same length S. Kernel: tileport.kernels.mla_prefill, base-2 online softmax in f32 with
(128, 64) query/key tiles (attention's, see benchmarks/results/h200/attention-tiles), two mma's per score tile
(the nope part, then the rotary part, into one f32 accumulator).
"""
from __future__ import annotations

from tileport.kernels.mla_prefill import mla_prefill as kernel

from . import _common as C

DTYPES = C.HALVES
CEILING = "none"   # PyTorch has no kernel for it (its torch_eager is an eager composition): TFLOP/s only
BM, BN = 128, 64
DN, DR, DV = 128, 64, 128   # nope (per head), rotary (k_pe shared by the heads), value/output head dims
PORT_SIGNATURES = C.signatures("q_nope={dtype}[?,?,?]/?,?,1, q_pe={dtype}[?,?,?]/?,?,1, k_nope={dtype}[?,?,?]/?,?,1, "
                               "k_pe={dtype}[?,?,?]/?,?,1, v={dtype}[?,?,?]/?,?,1, o={dtype}[?,?,?]/?,?,1, "
                               "heads=i32, scale=f32, BM=#{bm}, BN=#{bn}, DN=#{dn}, DR=#{dr}, DV=#{dv}, "
                               "CAUSAL=#{causal}",
                               dtype=DTYPES, bm=[BM], bn=[BN], dn=[DN], dr=[DR], dv=[DV], causal=["true", "false"])
#: (batch, heads, sequence length, causal)
SHAPES = {"small": (1, 4, 128, False), "ragged": (2, 3, 100, True), "mid": (2, 16, 1024, True),
          "large": (1, 128, 4096, True)}


def mla_prefill(q_nope, q_pe, k_nope, k_pe, v, scale=None, is_causal=True, *, backend=None, out=None):
    """softmax(scale * (q_nope @ k_nope^T + q_pe @ k_pe^T) [masked causally]) @ v per (batch, head), k_pe shared by
    the heads; scale defaults to 1 / sqrt(192)."""
    C.check("q_nope", q_nope, DTYPES, ndim=4)
    C.check("q_pe", q_pe, DTYPES, ndim=4, like=q_nope)
    C.check("k_nope", k_nope, DTYPES, ndim=4, like=q_nope)
    C.check("k_pe", k_pe, DTYPES, ndim=3, like=q_nope)
    C.check("v", v, DTYPES, ndim=4, like=q_nope)
    b, h, s, dn = q_nope.shape
    want = {"q_nope": (b, h, s, DN), "q_pe": (b, h, s, DR), "k_nope": (b, h, s, DN), "k_pe": (b, s, DR),
            "v": (b, h, s, DV)}
    for name, t in (("q_nope", q_nope), ("q_pe", q_pe), ("k_nope", k_nope), ("k_pe", k_pe), ("v", v)):
        if tuple(t.shape) != want[name]:
            raise ValueError(f"{name} has shape {tuple(t.shape)}, expected {list(want[name])} (q_nope, k_nope "
                             f"[B, H, S, {DN}], q_pe [B, H, S, {DR}], k_pe [B, S, {DR}], v [B, H, S, {DV}]; queries "
                             "and keys of one length S)")
    o = C.output(out, (b, h, s, DV), q_nope)
    views = [C.view(name, t, (b * h, s, d)) for name, t, d in (
        ("q_nope", q_nope, DN), ("q_pe", q_pe, DR), ("k_nope", k_nope, DN), ("v", v, DV), ("out", o, DV))]
    qn, qp, kn, vv, ov = views
    C.unit_last_stride("k_pe", k_pe)
    scale = float((DN + DR) ** -0.5 if scale is None else scale)
    heads = C.int32_scalar("heads", h)
    C.launch((b * h, C.cdiv(s, BM), 1), kernel, (qn, qp, kn, k_pe, vv, ov, heads, scale, BM, BN, DN, DR, DV,
                                                 bool(is_causal)), backend)   # an empty grid launches nothing
    return o


def reference(q_nope, q_pe, k_nope, k_pe, v, scale=None, is_causal=True):
    import torch

    q_nope, q_pe, k_nope, k_pe, v = C.f64(q_nope, q_pe, k_nope, k_pe, v)
    scale = (q_nope.shape[-1] + q_pe.shape[-1]) ** -0.5 if scale is None else scale
    s = (q_nope @ k_nope.transpose(-1, -2) + q_pe @ k_pe[:, None].transpose(-1, -2)) * scale
    if is_causal:
        keep = torch.ones(s.shape[-2:], dtype=torch.bool, device=s.device).tril()
        s = s.masked_fill(~keep, float("-inf"))
    return s.softmax(dim=-1) @ v


def torch_eager(q_nope, q_pe, k_nope, k_pe, v, scale=None, is_causal=True):
    """What an eager PyTorch MLA prefill does, in the inputs' dtype: the rotary key broadcast to every head, the
    parts concatenated into 192-wide query/key heads, then PyTorch's scaled_dot_product_attention (value head dim
    128)."""
    import torch

    b, h, s, _ = q_nope.shape
    q = torch.cat([q_nope, q_pe], dim=-1)
    k = torch.cat([k_nope, k_pe[:, None].expand(b, h, s, k_pe.shape[-1])], dim=-1)
    scale = (q_nope.shape[-1] + q_pe.shape[-1]) ** -0.5 if scale is None else scale
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale, is_causal=is_causal)


def sample_inputs(case, dtype, device):
    b, h, s, causal = C.shape(SHAPES, case)
    return (C.randn((b, h, s, DN), dtype, device), C.randn((b, h, s, DR), dtype, device),
            C.randn((b, h, s, DN), dtype, device), C.randn((b, s, DR), dtype, device),
            C.randn((b, h, s, DV), dtype, device)), {"is_causal": causal}


def tolerance(dtype):
    return C.tolerance_of({"float16": (4e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def bytes_moved(args, kwargs):
    """Each input read once and the output written once."""
    return C.nbytes(*args[:5]) + C.nbytes(args[4])


def flops(args, kwargs):
    """2 B H S^2 (128 + 64) for the scores plus 2 B H S^2 128 for P V, halved for causal (the masked half is not
    computed)."""
    q_nope, q_pe, v = args[0], args[1], args[4]
    b, h, s, dn = q_nope.shape
    full = 2 * b * h * s * s * (dn + q_pe.shape[-1] + v.shape[-1])
    return full // 2 if kwargs.get("is_causal", True) else full
