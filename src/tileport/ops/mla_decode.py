"""mla_decode: DeepSeek-style multi-head latent attention (MLA) decode, the absorbed form, against a compressed
latent KV cache, with split-KV: one new token per batch, H heads,
s[b, h, j] = scale * (q_nope[b, h] . ckv[b, j] + q_pe[b, h] . kpe[b, j]) over the cached positions j < seq_lens[b],
o[b, h] = softmax(s[b, h]) @ ckv[b] — the latent cache is the values too; the value up-projection is a later GEMM.

Layouts: q_nope [B, H, 512] (the query's non-rotary part already multiplied by the absorbed key up-projection),
q_pe [B, H, 64], ckv [B, Smax, 512] (latent cache), kpe [B, Smax, 64] (rotary key cache), seq_lens [B] int32
(ragged: positions >= seq_lens[b] are ignored; clamped to [0, Smax]); the result is [B, H, 512] in the inputs'
dtype (f16/bf16). scale defaults to 1/sqrt(128 + 64) = 1/sqrt(192), DeepSeek's qk head dim (nope 128 + rope 64)
before absorption; pass the model's (softmax-scale-corrected) value otherwise. Any strides with a unit last one are
taken (ckv and kpe may be slices of one [B, Smax, 576] cache); cache rows past seq_lens[b] are read with weight 0
and must hold finite values.

Kernel: tileport.kernels.mla_decode, heads as the rows of the query tile (BM = 64 heads, padded for fewer, and
BN = 64 cache positions per key tile; two mma's per score tile, f32 online softmax, f32 [BM, 512] accumulator),
grid (B, cdiv(H, BM), num_splits). num_splits (1..16; default: enough splits of each batch's keys for about two
blocks per SM when B * cdiv(H, BM) blocks are fewer, each split at least MIN_SPLIT_KEYS positions of Smax) cuts
each batch's key tiles into that many runs. num_splits = 1 writes the result directly (the kernel's output is
`out` itself; its LSE goes to a scratch vector). num_splits > 1 writes each split's normalised output and LSE
into float32 scratch [B*H, num_splits, 512] / [B*H, num_splits] and merges them with
tileport.ops.decode_combine (a second launch; empty splits have LSE -inf and output 0). A batch with
seq_lens[b] = 0 gives a zero row (the direct form writes 0; decode_combine makes 0 of all-empty splits).
"""
from __future__ import annotations

from tileport.kernels.mla_decode import mla_decode as kernel

from . import _common as C

DTYPES = C.HALVES
#: the split partials and their LSEs are float32 scratch (kernel outputs o, lse)
AUX_DTYPES = ("float32",)
CEILING = "copy"   # decode-time, memory-bound: % of the device copy bandwidth (tileport.bench.runner.apply_ceiling)
DC, DR = 512, 64          # latent (kv_lora_rank) and rotary head dims
QK_HEAD_DIM = 128 + DR    # DeepSeek's query/key head dim before absorption (nope 128 + rope 64): the default scale
#: BM heads and BN cache positions per block, for every head count. From the sweeps in
#: benchmarks/results/h200/attention-tiles (cuTile Python kernel, bf16, full caches): at 64x128x8192 BM = 64, BN = 64
#: with num_worker_warps = 8 (the kernel's hint) ran in 483-487 µs against 1372 µs for the previous BM = 32, BN = 32
#: without it (2.8x; BM = 64 without the hint: 2402-2565 µs, the [64, 512] f32 accumulator does not fit 4 warps'
#: registers), 91.5 against 161.5 µs at 4x128x8192; occupancy 2 lost everywhere. With 16 heads the 64-row tile
#: (48 rows padding) still beat the former 16-row one: 260 against 293 µs at 64x16x8192, 91 against 110 µs at
#: 16x16x4096; the 16-row tile under the 8-warp hint ran 30x slower.
BM, BN = 64, 64
MAX_SPLITS = 16           # decode_combine's limit
MIN_SPLIT_KEYS = 128      # the automatic choice gives each split at least this many of the Smax positions
BLOCKS_PER_SM = 2         # the automatic choice aims at about this many blocks per SM (best in the sweep, see BM)
_SIG = ("q_nope={dtype}[?,?,?]/?,?,1, q_pe={dtype}[?,?,?]/?,?,1, ckv={dtype}[?,?,?]/?,?,1, kpe={dtype}[?,?,?]/?,?,1, "
        "seq_lens=i32[?]/1, o={odtype}[?,?,?]/?,?,1, lse=f32[?,?,?]/?,?,1, scale=f32, BM=#{bm}, BN=#{bn}, "
        "DC=#{dc}, DR=#{dr}")
#: per dtype and tile: the split form (float32 partials) and the direct form (num_splits = 1, o in the dtype)
PORT_SIGNATURES = [_SIG.format(dtype=C.SHORT[d], odtype=od or C.SHORT[d], bm=BM, bn=BN, dc=DC, dr=DR)
                   for d in DTYPES for od in ("f32", None)]
#: (batch, heads, Smax, seq_lens: a tuple, "full" or "random" (uniform in 1..Smax), num_splits)
SHAPES = {"small": (2, 64, 256, (256, 131), 1), "ragged": (3, 12, 1000, (1000, 77, 1), None),
          "mid": (16, 128, 4096, "random", None), "large": (64, 128, 8192, "full", None)}


def auto_splits(blocks: int, smax: int, sms: int) -> int:
    """num_splits for ``blocks`` = B * cdiv(H, BM) blocks on ``sms`` SMs: about BLOCKS_PER_SM blocks per SM in
    all (1 when the blocks alone reach that), at most MAX_SPLITS and one per MIN_SPLIT_KEYS positions of Smax."""
    return max(1, min(MAX_SPLITS, BLOCKS_PER_SM * sms // blocks, C.cdiv(smax, MIN_SPLIT_KEYS)))


def mla_decode(q_nope, q_pe, ckv, kpe, seq_lens, scale=None, num_splits=None, *, backend=None, out=None):
    """softmax(scale * (q_nope @ ckv^T + q_pe @ kpe^T), keys < seq_lens) @ ckv per (batch, head); scale defaults
    to 1 / sqrt(192); num_splits None picks the split-KV count from the shape."""
    import torch

    C.check("q_nope", q_nope, DTYPES, ndim=3)
    C.check("q_pe", q_pe, DTYPES, ndim=3, like=q_nope)
    C.check("ckv", ckv, DTYPES, ndim=3, like=q_nope)
    C.check("kpe", kpe, DTYPES, ndim=3, like=q_nope)
    C.check("seq_lens", seq_lens, ("int32",), ndim=1)
    if seq_lens.get_device() != q_nope.get_device():
        raise ValueError(f"seq_lens is on {seq_lens.device}, q_nope on {q_nope.device}")
    b, h = q_nope.shape[:2]
    smax = ckv.shape[1]
    want = {"q_nope": (b, h, DC), "q_pe": (b, h, DR), "ckv": (b, smax, DC), "kpe": (b, smax, DR),
            "seq_lens": (b,)}
    for name, t in (("q_nope", q_nope), ("q_pe", q_pe), ("ckv", ckv), ("kpe", kpe), ("seq_lens", seq_lens)):
        if tuple(t.shape) != want[name]:
            raise ValueError(f"{name} has shape {tuple(t.shape)}, expected {list(want[name])} (q_nope [B, H, {DC}], "
                             f"q_pe [B, H, {DR}], ckv [B, Smax, {DC}], kpe [B, Smax, {DR}], seq_lens [B])")
    for name, t in (("q_nope", q_nope), ("q_pe", q_pe), ("ckv", ckv), ("kpe", kpe)):
        C.unit_last_stride(name, t)
    lens = C.flat("seq_lens", seq_lens)
    o = C.output(out, (b, h, DC), q_nope)
    head_blocks = C.cdiv(h, BM)
    if num_splits is None:
        ns = auto_splits(b * head_blocks, smax, C.num_sms(q_nope.device)) if b * h else 1
    elif isinstance(num_splits, bool) or not isinstance(num_splits, int) or not 1 <= num_splits <= MAX_SPLITS:
        raise ValueError(f"num_splits={num_splits!r}: an int in 1..{MAX_SPLITS} (or None to choose from the shape)")
    else:
        ns = num_splits
    if smax == 0 or b * h == 0:
        ns = 1   # nothing to split (an empty cache: the direct form writes zeros)
    scale = float(_scale(scale))
    f32 = torch.float32
    if ns == 1:
        lse = torch.empty((b, h, 1), dtype=f32, device=q_nope.device)   # not needed: the result is o itself
        C.launch((b, head_blocks, 1), kernel, (q_nope, q_pe, ckv, kpe, lens, o, lse, scale, BM, BN, DC, DR), backend)
        return o
    from .decode_combine import decode_combine

    parts = torch.empty((b * h, ns, DC), dtype=f32, device=q_nope.device)
    lse = torch.empty((b * h, ns), dtype=f32, device=q_nope.device)
    C.launch((b, head_blocks, ns), kernel, (q_nope, q_pe, ckv, kpe, lens, parts.view(b, h, ns * DC),
                                            lse.view(b, h, ns), scale, BM, BN, DC, DR), backend)
    decode_combine(parts, lse, backend=backend, out=o.view(b * h, DC))
    return o


def _scale(scale):
    return QK_HEAD_DIM ** -0.5 if scale is None else scale


def reference(q_nope, q_pe, ckv, kpe, seq_lens, scale=None, num_splits=None):
    import torch

    q_nope, q_pe, ckv, kpe = C.f64(q_nope, q_pe, ckv, kpe)
    s = (q_nope @ ckv.transpose(-1, -2) + q_pe @ kpe.transpose(-1, -2)) * _scale(scale)   # [B, H, Smax]
    keep = torch.arange(ckv.shape[1], device=ckv.device)[None, :] < seq_lens.to(torch.int64)[:, None]   # [B, Smax]
    s = s.masked_fill(~keep[:, None, :], float("-inf"))
    return s.softmax(dim=-1) @ ckv


def torch_eager(q_nope, q_pe, ckv, kpe, seq_lens, scale=None, num_splits=None):
    """An eager PyTorch MLA decode: the scores by two batched matmuls in the inputs' dtype (f32 accumulation inside
    cuBLAS), masked and soft-maxed in float32, the probabilities cast back and multiplied by the latent cache."""
    import torch

    s = (torch.bmm(q_nope, ckv.transpose(1, 2)) + torch.bmm(q_pe, kpe.transpose(1, 2))).float() * _scale(scale)
    keep = torch.arange(ckv.shape[1], device=ckv.device)[None, :] < seq_lens[:, None]
    p = s.masked_fill(~keep[:, None, :], float("-inf")).softmax(dim=-1).to(ckv.dtype)
    return torch.bmm(p, ckv)


def sample_inputs(case, dtype, device):
    import torch

    b, h, smax, lens, ns = C.shape(SHAPES, case)
    if lens == "full":
        seq_lens = torch.full((b,), smax, dtype=torch.int32, device=device)
    elif lens == "random":
        seq_lens = torch.randint(1, smax + 1, (b,), dtype=torch.int32, device=device)
    else:
        seq_lens = torch.tensor(lens, dtype=torch.int32, device=device)
    return (C.randn((b, h, DC), dtype, device), C.randn((b, h, DR), dtype, device),
            C.randn((b, smax, DC), dtype, device), C.randn((b, smax, DR), dtype, device), seq_lens), \
        {"num_splits": ns}


def tolerance(dtype):
    return C.tolerance_of({"float16": (4e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def _keys(args):
    """The cache positions attended to, summed over the batch (a host sync: bench-side only)."""
    ckv, seq_lens = args[2], args[4]
    return int(seq_lens.clamp(0, ckv.shape[1]).sum().item())


def bytes_moved(args, kwargs):
    """The queries and seq_lens read, the cache rows below seq_lens read once (each of the cdiv(H, BM) head blocks
    of a batch reads them, mostly through L2), the result written once; the split-KV float32 scratch is left out."""
    q_nope, ckv = args[0], args[2]
    return C.nbytes(args[0], args[1], args[4]) + _keys(args) * (DC + DR) * ckv.element_size() + C.nbytes(q_nope)


def flops(args, kwargs):
    """2 H (512 + 64) per attended position for the scores plus 2 H 512 for P @ ckv."""
    return 2 * args[0].shape[1] * _keys(args) * (DC + DR + DC)
