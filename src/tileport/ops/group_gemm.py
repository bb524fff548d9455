"""group_gemm: grouped GEMM in the MoE layout — rows of A sorted by group and each group padded to a multiple of
BM rows; tile_group[t] names the group (weight matrix B[g]) of the t-th BM-row tile. f16/bf16 operands, f32
accumulation, (128, 128, 64) tiles (tileport.kernels.group_gemm). ``group_layout`` builds the padded layout from
group sizes (what an align step such as moe_align_block produces)."""
from __future__ import annotations

from tileport.kernels.group_gemm import group_gemm as kernel

from . import _common as C

DTYPES = C.HALVES
AUX_DTYPES = ("int32",)  # tile_group
TILES = (128, 128, 64)
PORT_SIGNATURES = C.signatures("a={dtype}[?,?]/?,1, b={dtype}[?,?,?]/?,?,1, c={dtype}[?,?]/?,1, tile_group=i32[?]/1, "
                               "BM=#{t[0]}, BN=#{t[1]}, BK=#{t[2]}", dtype=DTYPES, t=[TILES])
#: (group sizes, K, N)
SHAPES = {"small": ([100, 28, 128], 256, 256), "ragged": ([5, 0, 300, 77], 1000, 300),
          "mid": ([512] * 8, 1024, 1024), "large": ([1024] * 16, 2048, 2048)}


def group_layout(group_sizes, bm=TILES[0]):
    """(row offset of each group in the padded layout, total padded rows, tile_group as a list): group g's rows
    start at a multiple of bm and take cdiv(size_g, bm) tiles."""
    offsets, tiles, row = [], [], 0
    for g, n in enumerate(group_sizes):
        offsets.append(row)
        k = C.cdiv(int(n), bm)
        tiles += [g] * k
        row += k * bm
    return offsets, row, tiles


def group_gemm(a, b, tile_group, *, backend=None, out=None):
    """a [R, K] (R = BM x len(tile_group), groups padded to BM rows) x b [G, K, N] → c [R, N]: tile t of rows uses
    b[tile_group[t]]. Groups outside [0, G) read zero weights (the padded load), so their rows come out zero."""
    C.check("a", a, DTYPES, ndim=2)
    C.check("b", b, DTYPES, ndim=3, like=a)
    C.check("tile_group", tile_group, ("int32",), ndim=1)
    a2 = C.rows("a", a)
    C.unit_last_stride("b", b)
    r, k = a2.shape
    g, kb, n = b.shape
    if kb != k:
        raise ValueError(f"a has {k} columns but b is {tuple(b.shape)}: b must be [G, {k}, N]")
    bm, bn, bk = TILES
    if r != bm * tile_group.shape[0]:
        raise ValueError(f"a has {r} rows; with {tile_group.shape[0]} tiles of {bm} rows it must have "
                         f"{bm * tile_group.shape[0]} (pad each group to a multiple of {bm}: group_layout)")
    if tile_group.get_device() != a.get_device():
        raise ValueError(f"tile_group is on {tile_group.device}, a on {a.device}")
    c = C.output(out, (r, n), a)
    if r:
        C.launch((C.cdiv(r, bm), C.cdiv(n, bn), 1), kernel, (a2, b, c, C.flat("tile_group", tile_group), bm, bn, bk),
                 backend)
    return c


def reference(a, b, tile_group):
    import torch

    a, b = C.f64(a, b)
    bm = TILES[0]
    out = torch.zeros((a.shape[0], b.shape[2]), dtype=torch.float64, device=a.device)
    for t, g in enumerate(tile_group.tolist()):
        if 0 <= g < b.shape[0]:
            out[t * bm:(t + 1) * bm] = a[t * bm:(t + 1) * bm] @ b[g]
    return out


def torch_eager(a, b, tile_group):
    """PyTorch eager on the same inputs (the bench's comparison): one matmul per group's rows."""
    bm = TILES[0]
    out = a.new_zeros((a.shape[0], b.shape[2]))
    groups = tile_group.tolist()
    start = 0
    while start < len(groups):
        end = start
        while end < len(groups) and groups[end] == groups[start]:
            end += 1
        out[start * bm:end * bm] = a[start * bm:end * bm] @ b[groups[start]]
        start = end
    return out


def sample_inputs(case, dtype, device):
    import torch

    sizes, k, n = C.shape(SHAPES, case)
    offsets, rows, tiles = group_layout(sizes)
    a = torch.zeros((rows, k), dtype=getattr(torch, dtype), device=device)
    for off, size in zip(offsets, sizes):   # real token rows; the padding rows stay zero
        a[off:off + size] = C.randn((size, k), dtype, device)
    b = C.randn((len(sizes), k, n), dtype, device, scale=k ** -0.5)
    return (a, b, torch.tensor(tiles, dtype=torch.int32, device=device)), {}


def tolerance(dtype):
    return C.tolerance_of({"float16": (2e-3, 1e-4), "bfloat16": (1.6e-2, 1e-3)}, dtype)


def bytes_moved(args, kwargs):
    a, b, _ = args
    return C.nbytes(a, b) + a.shape[0] * b.shape[2] * a.element_size()


def flops(args, kwargs):
    a, b, _ = args
    return 2 * a.shape[0] * a.shape[1] * b.shape[2]
