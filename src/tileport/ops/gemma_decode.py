"""gemma_decode: gemma-style decode attention — flash_decode's split-KV decode plus logit soft-capping and a sliding
window. q [B, H, D], k_cache and v_cache [B, Hkv, Smax, D] (Hkv dividing H), seq_lens [B] int32 → out [B, H, D]:
scores s = q k^T * scale (scale 1/sqrt(D) by default), s = softcap * tanh(s / softcap) when softcap > 0 (None or
<= 0: no capping), then sequence b attends only to its keys at positions >= seq_lens[b] - window (window <= 0: no
window) and < seq_lens[b]; out = softmax(s) v. f16/bf16, head dim 128 or 256.

Two kernels: tileport.kernels.gemma_decode on a grid (B, Hkv, S) — a block takes the query heads that share one
key/value head as the rows of its q tile (padded to 16 rows; larger groups run in chunks of 16, one launch each),
streams its split of the window's key tiles (64 keys for D = 128, 32 for D = 256: the same 32 KB of K and V per
step) with an online softmax in f32; tiles before the window are skipped by the loop bounds, the window's edges
masked. Then decode_combine merges the S splits. S is chosen from the attended length (the window, or Smax) so
that B*Hkv*S blocks fill the GPU about twice over (at most 16).

seq_lens is not read on the host (no device sync): a length above Smax counts as Smax, a length <= 0 gives a zero
output row."""
from __future__ import annotations

from tileport.kernels.gemma_decode import gemma_decode as kernel

from . import _common as C
from .decode_combine import check_decode_inputs, decode_combine, sample_lens, scratch, split_plan

DTYPES = C.HALVES
AUX_DTYPES = ("float32",)      # the f32 split scratch
CEILING = "copy"   # decode-time, memory-bound: % of the device copy bandwidth (tileport.bench.runner.apply_ceiling)
GP = 16                        # query rows of a block: the group, padded; larger groups run in chunks of 16
KEY_TILES = {128: 64, 256: 32}  # head dim → BN, keys per tile
HEAD_DIMS = tuple(KEY_TILES)
OCCUPANCY = 2                  # the kernel's occupancy hint: blocks resident per SM
PORT_SIGNATURES = [sig for d, bn in KEY_TILES.items() for sig in C.signatures(
    "q={dtype}[?,?,?,?]/?,?,?,1, k={dtype}[?,?,?,?]/?,?,?,1, v={dtype}[?,?,?,?]/?,?,?,1, seq_lens=i32[?]/1, "
    "o_part=f32[?]/1, lse_part=f32[?]/1, qk_scale=f32, cap=f32, W=i32, T=i32, c=i32, GP=#{gp}, BN=#{bn}, D=#{d}, "
    "SOFTCAP=#{softcap}", dtype=DTYPES, gp=[GP], bn=[bn], d=[d], softcap=["true", "false"])]
#: (batch B, query heads H, key/value heads Hkv, cache length Smax, head dim D, softcap, window)
SHAPES = {"small": (2, 8, 4, 256, 256, 20.0, 0), "ragged": (3, 36, 2, 1000, 128, 0.0, 300),
          "mid": (8, 16, 8, 4096, 256, 50.0, 1024), "large": (16, 32, 16, 16384, 128, 50.0, 4096)}


def _window(window, smax):
    """The attended span W the kernel takes: window, or Smax when there is none (window <= 0 or >= Smax)."""
    window = C.int32_scalar("window", window)
    return smax if window <= 0 or window >= smax else window


def gemma_decode(q, k_cache, v_cache, seq_lens, softcap=50.0, window=0, scale=None, *, backend=None, out=None):
    """softmax(softcap * tanh(q k^T * scale / softcap), over each sequence's last ``window`` keys) v."""
    b, h, hkv, smax, d = check_decode_inputs(q, k_cache, v_cache, seq_lens, DTYPES, HEAD_DIMS)
    o = C.output(out, q.shape, q)
    span = _window(window, smax)
    cap = 0.0 if softcap is None else float(softcap)
    scale = float(d ** -0.5 if scale is None else scale)
    bn = KEY_TILES[d]
    group = h // hkv
    chunks = C.cdiv(group, GP)
    # a window of W keys meets at most cdiv(W, BN) + 1 tiles (it need not start on a tile boundary)
    tiles = min(C.cdiv(smax, bn), C.cdiv(span, bn) + 1)
    splits, per = split_plan(b * hkv * chunks, tiles, C.num_sms(q.device), OCCUPANCY)
    o_part, lse_part = scratch(q, b, h, splits, d)
    q4 = q.view(b, hkv, group, d)
    args = (scale / cap if cap > 0 else scale, cap, span, per)
    for c in range(chunks):
        C.launch((b, hkv, splits), kernel, (q4, k_cache, v_cache, seq_lens, o_part, lse_part, *args, c, GP, bn, d,
                                            cap > 0), backend)
    decode_combine(o_part.view(b * h, splits, d), lse_part.view(b * h, splits), backend=backend,
                   out=o.view(b * h, d))
    return o


def reference(q, k_cache, v_cache, seq_lens, softcap=50.0, window=0, scale=None):
    import torch

    q, k, v = C.f64(q, k_cache, v_cache)
    group = q.shape[1] // k.shape[1]
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    out = torch.zeros_like(q)
    for i, n in enumerate(seq_lens.tolist()):
        n = min(max(n, 0), k.shape[2])
        lo = max(n - window, 0) if window > 0 else 0
        if n == 0:
            continue
        kk = k[i, :, lo:n].repeat_interleave(group, dim=0)       # [H, n - lo, D]
        vv = v[i, :, lo:n].repeat_interleave(group, dim=0)
        s = (q[i].unsqueeze(1) @ kk.transpose(-1, -2)) * scale    # [H, 1, n - lo]
        if softcap is not None and softcap > 0:
            s = softcap * (s / softcap).tanh()
        out[i] = (s.softmax(dim=-1) @ vv).squeeze(1)
    return out


def torch_eager(q, k_cache, v_cache, seq_lens, softcap=50.0, window=0, scale=None):
    """PyTorch eager (the bench's comparison): grouped scores in f32, capped, masked, softmax, then p v."""
    import torch

    b, h, d = q.shape
    hkv, smax = k_cache.shape[1], k_cache.shape[2]
    scale = d ** -0.5 if scale is None else scale
    s = (q.view(b, hkv, h // hkv, d) @ k_cache.transpose(-1, -2)).float() * scale   # [B, Hkv, G, Smax]
    if softcap is not None and softcap > 0:
        s = softcap * torch.tanh(s / softcap)
    pos = torch.arange(smax, device=q.device).unsqueeze(0)
    keep = pos < seq_lens.unsqueeze(1)
    if window > 0:
        keep &= pos >= (seq_lens - window).unsqueeze(1)
    s = s.masked_fill(~keep[:, None, None, :], float("-inf"))
    return (s.softmax(dim=-1).to(q.dtype) @ v_cache).view(b, h, d)


def sample_inputs(case, dtype, device):
    """q scaled by 4 so that the scores (std about 4) reach the soft cap's curved range. small: capping, no window;
    ragged: a window of 300 (not tile-aligned), capping off, 18 query heads per key/value head (two chunks); mid: a
    1024 window and capping at 50, head dim 256; large (bench): a 4096 window over 16384-key caches."""
    b, h, hkv, smax, d, softcap, window = C.shape(SHAPES, case)
    return (C.randn((b, h, d), dtype, device, scale=4.0), C.randn((b, hkv, smax, d), dtype, device),
            C.randn((b, hkv, smax, d), dtype, device), sample_lens(case, b, smax, device)), \
        {"softcap": softcap, "window": window}


def tolerance(dtype):
    return C.tolerance_of({"float16": (4e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def _attended(args, kwargs):
    """The keys read per (sequence, key/value head): the window's clamped to the cache."""
    k, lens = args[1], args[3]
    n = lens.clamp(0, k.shape[2])
    window = kwargs.get("window", args[5] if len(args) > 5 else 0)
    return int((n - (n - window).clamp(min=0)).sum() if window > 0 else n.sum())


def bytes_moved(args, kwargs):
    """The K and V rows in the windows + q + out."""
    q, k = args[0], args[1]
    return 2 * _attended(args, kwargs) * k.shape[1] * k.shape[3] * k.element_size() + 2 * C.nbytes(q)


def flops(args, kwargs):
    """4 H D (keys attended): q k^T and p v."""
    q = args[0]
    return 4 * q.shape[1] * q.shape[2] * _attended(args, kwargs)
