"""flash_decode: decode-time attention — one query token per sequence against its KV cache, split-KV ("flash
decoding"). q [B, H, D], k_cache and v_cache [B, Hkv, Smax, D] (Hkv dividing H: grouped-query attention),
seq_lens [B] int32 (sequence b attends to its first seq_lens[b] keys) → out [B, H, D] = softmax(q k^T * scale) v;
f16/bf16, head dim 64 or 128, scale 1/sqrt(D) by default.

Two kernels: tileport.kernels.flash_decode on a grid (B, Hkv, S) — a block takes the query heads that share one
key/value head as the rows of its q tile (padded to GP = 16 rows, or 64 when the group is larger; groups above 64
run in chunks of 64, one launch each), streams its split of the keys in 64-row tiles with an online softmax in f32
and writes a normalized partial output and log-sum-exp into f32 scratch; then decode_combine merges the S splits.
S is chosen from the shape so that B*Hkv*S blocks fill the GPU about twice over (at most 16 splits, each a whole
number of key tiles).

seq_lens is not read on the host (no device sync): a length above Smax counts as Smax, a length <= 0 gives a zero
output row."""
from __future__ import annotations

from tileport.kernels.flash_decode import flash_decode as kernel

from . import _common as C
from .decode_combine import check_decode_inputs, decode_combine, sample_lens, scratch, split_plan

DTYPES = C.HALVES
AUX_DTYPES = ("float32",)      # the f32 split scratch
CEILING = "copy"   # decode-time, memory-bound: % of the device copy bandwidth (tileport.bench.runner.apply_ceiling)
BN = 64
GROUP_ROWS = (16, 64)          # GP: query rows of a block (the group, padded); larger groups run in chunks of 64
HEAD_DIMS = (64, 128)
OCCUPANCY = 2                  # the kernel's occupancy hint: blocks resident per SM
PORT_SIGNATURES = C.signatures("q={dtype}[?,?,?,?]/?,?,?,1, k={dtype}[?,?,?,?]/?,?,?,1, v={dtype}[?,?,?,?]/?,?,?,1, "
                               "seq_lens=i32[?]/1, o_part=f32[?]/1, lse_part=f32[?]/1, scale=f32, T=i32, c=i32, "
                               "GP=#{gp}, BN=#{bn}, D=#{d}", dtype=DTYPES, gp=GROUP_ROWS, bn=[BN], d=HEAD_DIMS)
#: (batch B, query heads H, key/value heads Hkv, cache length Smax, head dim D); ragged: uneven lengths and a group
#: of 70 query heads per key/value head (64-row tiles, two chunks)
SHAPES = {"small": (2, 8, 2, 256, 64), "ragged": (3, 140, 2, 1000, 128), "mid": (8, 32, 8, 4096, 128),
          "large": (16, 32, 8, 16384, 128)}


def flash_decode(q, k_cache, v_cache, seq_lens, scale=None, *, backend=None, out=None):
    """softmax(q k^T * scale) v for one query token per sequence over its first seq_lens[b] cached keys."""
    b, h, hkv, smax, d = check_decode_inputs(q, k_cache, v_cache, seq_lens, DTYPES, HEAD_DIMS)
    o = C.output(out, q.shape, q)
    group = h // hkv
    gp = GROUP_ROWS[0] if group <= GROUP_ROWS[0] else GROUP_ROWS[-1]
    chunks = C.cdiv(group, gp)
    splits, per = split_plan(b * hkv * chunks, C.cdiv(smax, BN), C.num_sms(q.device), OCCUPANCY)
    scale = float(d ** -0.5 if scale is None else scale)
    o_part, lse_part = scratch(q, b, h, splits, d)
    q4 = q.view(b, hkv, group, d)
    for c in range(chunks):
        C.launch((b, hkv, splits), kernel, (q4, k_cache, v_cache, seq_lens, o_part, lse_part, scale, per, c, gp, BN,
                                            d), backend)
    decode_combine(o_part.view(b * h, splits, d), lse_part.view(b * h, splits), backend=backend,
                   out=o.view(b * h, d))
    return o


def reference(q, k_cache, v_cache, seq_lens, scale=None):
    import torch

    q, k, v = C.f64(q, k_cache, v_cache)
    group = q.shape[1] // k.shape[1]
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    out = torch.zeros_like(q)
    for i, n in enumerate(seq_lens.tolist()):
        n = min(max(n, 0), k.shape[2])
        if n == 0:
            continue
        kk = k[i, :, :n].repeat_interleave(group, dim=0)       # [H, n, D]
        vv = v[i, :, :n].repeat_interleave(group, dim=0)
        s = (q[i].unsqueeze(1) @ kk.transpose(-1, -2)) * scale  # [H, 1, n]
        out[i] = (s.softmax(dim=-1) @ vv).squeeze(1)
    return out


def torch_eager(q, k_cache, v_cache, seq_lens, scale=None):
    """PyTorch's scaled_dot_product_attention with a boolean key mask (the bench's comparison)."""
    import torch

    keep = torch.arange(k_cache.shape[2], device=q.device).unsqueeze(0) < seq_lens.unsqueeze(1)
    return torch.nn.functional.scaled_dot_product_attention(
        q.unsqueeze(2), k_cache, v_cache, attn_mask=keep[:, None, None, :], scale=scale,
        enable_gqa=q.shape[1] != k_cache.shape[1]).squeeze(2)


def sample_inputs(case, dtype, device):
    b, h, hkv, smax, d = C.shape(SHAPES, case)
    return (C.randn((b, h, d), dtype, device), C.randn((b, hkv, smax, d), dtype, device),
            C.randn((b, hkv, smax, d), dtype, device), sample_lens(case, b, smax, device)), {}


def tolerance(dtype):
    return C.tolerance_of({"float16": (4e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def bytes_moved(args, kwargs):
    """The K and V rows read (the sum of the clamped lengths) + q + out."""
    q, k = args[0], args[1]
    keys = int(args[3].clamp(0, k.shape[2]).sum())
    return 2 * keys * k.shape[1] * k.shape[3] * k.element_size() + 2 * C.nbytes(q)


def flops(args, kwargs):
    """4 H D sum(lens): q k^T and p v."""
    q, k = args[0], args[1]
    return 4 * q.shape[1] * q.shape[2] * int(args[3].clamp(0, k.shape[2]).sum())
