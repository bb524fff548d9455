"""rope: rotary position embedding in the rotate-half form, y = x * cos + rotate_half(x) * sin, for x [tokens,
heads, head_dim] (f16/bf16, head_dim 64 or 128) and f32 cos/sin [tokens, head_dim / 2]; computed in f32, one block
per BT tokens x BH heads, each half of the head dimension gathered and scattered at computed offsets
(tileport.kernels.rope). x may be any view that slices whole heads (token and head strides multiples of head_dim,
e.g. q out of a fused qkv projection), cos and sin rows of head_dim / 2 at one row stride that is a multiple of it;
out is contiguous, as every op's."""
from __future__ import annotations

from tileport.kernels.rope import rope as kernel

from . import _common as C

DTYPES = C.HALVES
AUX_DTYPES = ("float32",)  # the cos/sin tables
HALVES = (32, 64)
#: heads per block: all 32 of a 32-head (or wider) model in one block (the tokens' cos/sin rows loaded once for all
#: of them), else 8 (fewer heads: one block column, masked) or 1 (benchmarks/results/h200/tuning/rope)
HEAD_BLOCKS = (1, 8, 32)
#: elements of one half-tile (BT x BH x HALF): 2048, so a block moves 8 KB of 16-bit x in and out, under the kernel's
#: occupancy 6: 70-80% of copy bandwidth at 8-32 heads (4096 elements: 56-77%; tuning/rope/rope-occ.log). One token of
#: one head per block (the first layout) ran at 38% (benchmarks/results/h200/perf).
HALF_TILE = 2048


def tokens_per_block(bh: int, half: int) -> int:
    return HALF_TILE // (bh * half)


TEMPLATE = ("x={dtype}[?]/1, cos=f32[?]/1, sin=f32[?]/1, y={dtype}[?]/1, tokens=i32, heads=i32, x_t=i32, x_h=i32, "
            "y_t=i32, y_h=i32, cs_t=i32, BT=#{bt}, BH=#{bh}, HALF=#{half}, N=#{n}, NC=#{nc}")
PORT_SIGNATURES = [TEMPLATE.format(dtype=C.SHORT[d], bt=tokens_per_block(bh, half), bh=bh, half=half, n=HALF_TILE,
                                   nc=tokens_per_block(bh, half) * half)
                   for d in DTYPES for bh in HEAD_BLOCKS for half in HALVES]


def heads_per_block(h: int) -> int:
    return HEAD_BLOCKS[-1] if h >= HEAD_BLOCKS[-1] else C.bucket(min(h, 8), HEAD_BLOCKS, "heads per block")
#: (tokens, heads, head_dim)
SHAPES = {"small": (16, 8, 128), "ragged": (37, 6, 64), "mid": (2048, 32, 128), "large": (16384, 32, 128)}


def rope(x, cos, sin, *, backend=None, out=None):
    """x [T, H, D] with cos, sin [T, D / 2] (f32) → [T, H, D] in x's dtype."""
    C.check("x", x, DTYPES, ndim=3)
    t, h, d = x.shape
    if d % 2 or d // 2 not in HALVES:
        raise ValueError(f"head_dim is {d}: the kernel takes {', '.join(str(2 * v) for v in HALVES)}")
    for name, table in (("cos", cos), ("sin", sin)):
        C.check(name, table, ("float32",), ndim=2)
        if tuple(table.shape) != (t, d // 2):
            raise ValueError(f"{name} has shape {tuple(table.shape)}, it must be ({t}, {d // 2})")
        if table.get_device() != x.get_device():
            raise ValueError(f"{name} is on {table.device}, x on {x.device}")
    y = C.output(out, (t, h, d), x)
    C.launch(*kernel_launch(x, cos, sin, y), backend)
    return y


def kernel_launch(x, cos, sin, y) -> tuple:
    """(grid, kernel, arguments) of the kernel for x, cos, sin and y of checked shapes: the flat views and their
    strides in rows (C.strided_rows), the tile for the head count."""
    t, h, d = x.shape
    xs, x_t, x_h = C.strided_rows("x", x, d)
    ys, y_t, y_h = C.strided_rows("out", y, d)
    cs, cs_t, _ = C.strided_rows("cos", cos.unsqueeze(1), d // 2)
    sn, sn_t, _ = C.strided_rows("sin", sin.unsqueeze(1), d // 2)
    if sn_t != cs_t:
        raise ValueError(f"cos and sin have row strides {cos.stride(0)} and {sin.stride(0)}: the kernel takes one")
    bh = heads_per_block(h)
    bt = tokens_per_block(bh, d // 2)
    return ((C.cdiv(t, bt), C.cdiv(h, bh), 1), kernel,
            (xs, cs, sn, ys, t, h, x_t, x_h, y_t, y_h, cs_t, bt, bh, d // 2, HALF_TILE, bt * d // 2))


def reference(x, cos, sin):
    x, cos, sin = C.f64(x, cos, sin)
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    c, s = cos[:, None, :], sin[:, None, :]
    import torch

    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)


def torch_eager(x, cos, sin):
    """PyTorch eager on the same inputs (the bench's comparison): the rotate-half formula in f32."""
    import torch

    half = x.shape[-1] // 2
    xf = x.float()
    x1, x2 = xf[..., :half], xf[..., half:]
    c, s = cos[:, None, :], sin[:, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(x.dtype)


def sample_inputs(case, dtype, device):
    import torch

    t, h, d = C.shape(SHAPES, case)
    angles = torch.rand((t, d // 2), device=device) * 6.283185307179586
    return (C.randn((t, h, d), dtype, device), angles.cos(), angles.sin()), {}


def tolerance(dtype):
    return C.tolerance_of(C.ROUNDED, dtype)


def bytes_moved(args, kwargs):
    x, cos, sin = args
    return 2 * C.nbytes(x) + C.nbytes(cos, sin)


flops = C.no_flops
