"""decode_combine: merges split-KV partial results of decode attention — out [N, D] = sum_s w_s o_parts[:, s] /
sum_s w_s with w_s = exp(lse_parts[:, s] - max_s lse_parts[:, s]), for f32 partials o_parts [N, S, D] (each split's
output already normalized by its own softmax sum) and lse_parts [N, S] (each split's natural-log log-sum-exp of its
scaled scores). N is rows (sequence x head), S splits (any number >= 1), D 64, 128, 256 or 512. An empty split has
lse = -inf (or a very negative value such as -1e30) and o = 0; a row whose splits are all empty comes out 0.

The output dtype (float16 or bfloat16) is ``dtype`` when given, else out's dtype when out= is given, else bfloat16.
One block per 8 rows walks the splits once with an online max (tileport.kernels.decode_combine); flash_decode,
gemma_decode (and MLA decode) call this wrapper for their second phase, and share the host helpers at the end of
this module (split_plan, check_decode_inputs, scratch, sample_lens)."""
from __future__ import annotations

from tileport.kernels.decode_combine import decode_combine as kernel

from . import _common as C

DTYPES = C.HALVES              # the output's dtypes
AUX_DTYPES = ("float32",)      # the partials are always f32
BR = 8
HEAD_DIMS = (64, 128, 256, 512)
PORT_SIGNATURES = C.signatures("o_parts=f32[?,?,?]/?,?,1, lse_parts=f32[?,?]/?,1, out={dtype}[?,?]/?,1, BR=#{br}, "
                               "D=#{d}", dtype=DTYPES, br=[BR], d=HEAD_DIMS)
MAX_SPLITS = 16                # split_plan's cap (the combine itself takes any number)
#: (rows N, splits S, head dim D)
SHAPES = {"small": (16, 4, 64), "ragged": (37, 7, 128), "mid": (1024, 8, 512), "large": (4096, 16, 512)}


def _dtype(dtype, out):
    import torch

    if dtype is None:
        dtype = out.dtype if out is not None else torch.bfloat16
    dtype = getattr(torch, dtype, None) if isinstance(dtype, str) else dtype
    name = str(dtype).removeprefix("torch.")
    if name not in DTYPES:
        raise ValueError(f"dtype {name}: the combined output is one of {', '.join(DTYPES)}")
    return dtype


def decode_combine(o_parts, lse_parts, *, backend=None, out=None, dtype=None):
    """o_parts [N, S, D] f32, lse_parts [N, S] f32 → [N, D] in ``dtype`` (a torch dtype or its name; default: out's
    dtype when out= is given, else bfloat16)."""
    C.check("o_parts", o_parts, AUX_DTYPES, ndim=3)
    C.check("lse_parts", lse_parts, AUX_DTYPES, ndim=2, like=o_parts)
    n, s, d = o_parts.shape
    if d not in HEAD_DIMS:
        raise ValueError(f"o_parts' last dimension (head dim) is {d}: the kernel takes "
                         f"{', '.join(map(str, HEAD_DIMS))}")
    if tuple(lse_parts.shape) != (n, s):
        raise ValueError(f"lse_parts has shape {tuple(lse_parts.shape)}, o_parts {tuple(o_parts.shape)}: lse_parts "
                         f"must be [{n}, {s}]")
    if s < 1:
        raise ValueError("o_parts holds no split (S = 0)")
    C.unit_last_stride("o_parts", o_parts)
    C.unit_last_stride("lse_parts", lse_parts)
    y = C.output(out, (n, d), o_parts, dtype=_dtype(dtype, out))
    C.launch((C.cdiv(n, BR), 1, 1), kernel, (o_parts, lse_parts, y, BR, d), backend)
    return y


def reference(o_parts, lse_parts, dtype=None):
    import torch

    o, lse = C.f64(o_parts, lse_parts)
    m = lse.amax(dim=1, keepdim=True).clamp(min=-1e30)   # a row of -inf splits: no NaN
    w = (lse - m).exp()
    den = w.sum(dim=1)
    num = (w.unsqueeze(-1) * o).sum(dim=1)
    return torch.where(den.unsqueeze(-1) > 0, num / den.clamp(min=1e-300).unsqueeze(-1), torch.zeros_like(num))


def torch_eager(o_parts, lse_parts, dtype=None):
    """PyTorch eager on the same inputs (the bench's comparison)."""
    m = lse_parts.amax(dim=1, keepdim=True).clamp(min=-1e30)
    w = (lse_parts - m).exp()
    out = (w.unsqueeze(-1) * o_parts).sum(dim=1) / w.sum(dim=1, keepdim=True).clamp(min=1e-30)
    return out.to(_dtype(dtype, None))


def sample_inputs(case, dtype, device):
    """Partials with a realistic spread of lse; row r has r % 4 trailing empty splits (o = 0, lse = -inf on odd rows,
    -1e30 on even ones); in the ragged case rows 0 and 1 are wholly empty."""
    import torch

    n, s, d = C.shape(SHAPES, case)
    o = C.randn((n, s, d), "float32", device)
    lse = C.randn((n, s), "float32", device, scale=3.0) + 5.0
    r = torch.arange(n, device=device)
    empty = torch.arange(s, device=device).unsqueeze(0) >= (s - r % 4).unsqueeze(1)
    if case == "ragged":
        empty[:2] = True
    fill = torch.where(r % 2 == 1, float("-inf"), -1e30).to(torch.float32).unsqueeze(1).expand(n, s)
    lse = torch.where(empty, fill, lse)
    o = o.masked_fill(empty.unsqueeze(-1), 0.0)
    return (o, lse), {"dtype": dtype}


def tolerance(dtype):
    return C.tolerance_of({d: C.ROUNDED[d] for d in DTYPES}, dtype)


def result_dtype(args, kwargs):
    """The result's dtype (the tests' and bench's hook: it is not the first input's)."""
    return _dtype(kwargs.get("dtype"), None)


def bytes_moved(args, kwargs):
    o = args[0]
    return C.nbytes(*args[:2]) + o.shape[0] * o.shape[2] * result_dtype(args, kwargs).itemsize


flops = C.no_flops


# ---------------------------------------------------------------- shared by the split-KV decode ops

def split_plan(blocks, key_tiles, sms, occupancy):
    """(S splits, T key tiles per split) for a split-KV decode kernel of ``blocks`` blocks per split: enough splits
    that blocks*S fills ``sms`` SMs about twice over at the kernel's ``occupancy``, at most MAX_SPLITS and at most
    one per key tile; every split but the last gets T tiles."""
    key_tiles = max(key_tiles, 1)
    splits = max(1, min(MAX_SPLITS, key_tiles, C.cdiv(2 * occupancy * sms, max(blocks, 1))))
    per = C.cdiv(key_tiles, splits)
    return C.cdiv(key_tiles, per), per


def check_decode_inputs(q, k_cache, v_cache, seq_lens, dtypes, head_dims):
    """(B, H, Hkv, Smax, D) of valid decode-attention inputs: q [B, H, D], caches [B, Hkv, Smax, D] (ValueError
    otherwise)."""
    C.check("q", q, dtypes, ndim=3)
    C.check("k_cache", k_cache, dtypes, ndim=4, like=q)
    C.check("v_cache", v_cache, dtypes, ndim=4, like=q)
    C.check("seq_lens", seq_lens, ("int32",), ndim=1)
    b, h, d = q.shape
    hkv, smax = k_cache.shape[1], k_cache.shape[2]
    if d not in head_dims:
        raise ValueError(f"head dim {d}: the kernel takes {', '.join(map(str, head_dims))}")
    if k_cache.shape[0] != b or k_cache.shape[3] != d or v_cache.shape != k_cache.shape or hkv < 1 or h % hkv:
        raise ValueError(f"q {tuple(q.shape)}, k_cache {tuple(k_cache.shape)}, v_cache {tuple(v_cache.shape)}: the "
                         f"caches must be [{b}, Hkv, Smax, {d}] with Hkv dividing {h}")
    if seq_lens.shape[0] != b:
        raise ValueError(f"seq_lens has {seq_lens.shape[0]} entries, q has {b} sequences")
    if seq_lens.get_device() != q.get_device():
        raise ValueError(f"seq_lens is on {seq_lens.device}, q on {q.device}")
    for name, t in (("q", q), ("k_cache", k_cache), ("v_cache", v_cache)):
        C.unit_last_stride(name, t)
    C.flat("seq_lens", seq_lens)
    return b, h, hkv, smax, d


def scratch(q, b, h, splits, d):
    """The f32 split scratch: o_part [B*H*S*D] and lse_part [B*H*S] (decode_combine's [N, S, D] / [N, S])."""
    import torch

    if b * h * splits * d > C.MAX_OFFSET:
        raise ValueError(f"{b * h} rows x {splits} splits x {d} exceed the kernel's 32-bit scratch offsets")
    return (torch.empty(b * h * splits * d, dtype=torch.float32, device=q.device),
            torch.empty(b * h * splits, dtype=torch.float32, device=q.device))


def sample_lens(case, b, smax, device):
    """Sequence lengths of the decode ops' sample inputs. small: one full sequence and one short; ragged: Smax, 1
    and 513 (a 64-key tile boundary + 1); mid and large: every sequence full."""
    import torch

    lens = {"small": [smax, 77], "ragged": [smax, 1, 513]}.get(case, [smax] * b)
    return torch.tensor(lens, dtype=torch.int32, device=device)
