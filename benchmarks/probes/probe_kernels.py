"""Probe-only cuTile Python kernels: candidate rewrites of committed kernels, timed by benchmarks/probes/tile_probe.py
against the committed ones before a rewrite is adopted (and then ported). Not ported, not served.

rope_where: rope as it was before 2026-11-30 (both halves of y built as one (BT, BH, 2, HALF) tile with a where over
the halves and stored once, y viewed [tokens, 2 * heads, HALF]); the committed kernel stores each half on its own.
rope_pair: x [T, H, 2, HALF] loaded once as (BT, BH, 2, HALF); the other half of each pair is the pair's sum minus
the element, so y = x * cos + sign * other * sin with one 4-d load and one 4-d store.
layer_norm_fma: layer_norm with (x - mean) * inv * w + b as fma(x, inv, -mean * inv) * w + b (two FMAs per element).
row_softmax_prefetch, layer_norm_prefetch, rms_norm_prefetch: persistent (grid-stride over row blocks) with the next
block's rows loaded before this block's reductions (the loads land while the block computes; the last block reloads
itself). grid = min(row blocks, SMs x occupancy). layer_norm_persist (no prefetch), layer_norm_persist_w_inside
and layer_norm_prefetch_w_inside (the weights loaded in the loop), layer_norm_prefetch_ldg (x loaded without TMA):
which part of layer_norm_prefetch goes wrong.
rope_tiled: rope as it was before 2026-12-01 (padded view loads of x [tokens, heads, 2 * HALF]: the tile_probe rope
modes' baseline); rope_unchecked: the same with check_bounds=False (the committed rope gathers its heads instead).
gelu_erf_nopad, gelu_erf_halves, gelu_erf_view, gelu_erf_unchecked, gelu_erf_gather: gelu_erf's load forms
(unpadded; two half tiles; 2-d views of W-wide rows; without bounds checks; a masked flat gather), tile_probe.py
--only flat --loads / --only unchecked.
gelu_erf_absdiff: gelu_erf as it was before 2026-12-01, ending in max(x, 0) - |x (p t e)| (an FMUL and an FADD per
element where the committed kernel has one FFMA).
"""
import cuda.tile as ct

from tileport.kernels.gelu_erf import gelu

ZERO = ct.PaddingMode.ZERO


@ct.kernel
def rope_where(x, cos, sin, y, BT: ct.Constant[int], BH: ct.Constant[int], BH2: ct.Constant[int],
               HALF: ct.Constant[int]):
    i = ct.bid(0)
    h = ct.bid(1)
    x1 = ct.reshape(ct.astype(ct.load(x, index=(i, h, 0), shape=(BT, BH, HALF), padding_mode=ZERO), ct.float32),
                    (BT, BH, 1, HALF))
    x2 = ct.reshape(ct.astype(ct.load(x, index=(i, h, 1), shape=(BT, BH, HALF), padding_mode=ZERO), ct.float32),
                    (BT, BH, 1, HALF))
    c = ct.reshape(ct.load(cos, index=(i, 0), shape=(BT, HALF), padding_mode=ZERO), (BT, 1, 1, HALF))
    s = ct.reshape(ct.load(sin, index=(i, 0), shape=(BT, HALF), padding_mode=ZERO), (BT, 1, 1, HALF))
    first = ct.reshape(ct.arange(2, dtype=ct.int32), (1, 1, 2, 1)) == 0
    out = ct.where(first, x1 * c - x2 * s, x2 * c + x1 * s)
    ct.store(y, index=(i, h, 0), tile=ct.reshape(ct.astype(out, y.dtype), (BT, BH2, HALF)))


@ct.kernel
def rope_pair(x, cos, sin, y, BT: ct.Constant[int], BH: ct.Constant[int], HALF: ct.Constant[int]):
    i = ct.bid(0)
    h = ct.bid(1)
    t = ct.astype(ct.load(x, index=(i, h, 0, 0), shape=(BT, BH, 2, HALF), padding_mode=ZERO), ct.float32)
    c = ct.reshape(ct.load(cos, index=(i, 0), shape=(BT, HALF), padding_mode=ZERO), (BT, 1, 1, HALF))
    s = ct.reshape(ct.load(sin, index=(i, 0), shape=(BT, HALF), padding_mode=ZERO), (BT, 1, 1, HALF))
    sign = ct.where(ct.reshape(ct.arange(2, dtype=ct.int32), (1, 1, 2, 1)) == 0, -1.0, 1.0)
    other = ct.sum(t, axis=2, keepdims=True) - t
    ct.store(y, index=(i, h, 0, 0), tile=ct.astype(t * c + other * (sign * s), y.dtype))


@ct.kernel(occupancy=4)
def layer_norm_fma(x, w, b, y, inv_n: float, eps: float, BM: ct.Constant[int], BLOCK: ct.Constant[int]):
    block_row = ct.bid(0)
    t = ct.astype(ct.load(x, index=(block_row, 0), shape=(BM, BLOCK), padding_mode=ZERO), ct.float32)
    mean = ct.sum(t, axis=1, keepdims=True) * inv_n
    mean_sq = ct.sum(t * t, axis=1, keepdims=True) * inv_n
    inv = ct.rsqrt(mean_sq - mean * mean + eps)
    shift = -mean * inv
    gw = ct.reshape(ct.astype(ct.load(w, index=(0,), shape=(BLOCK,), padding_mode=ZERO), ct.float32), (1, BLOCK))
    gb = ct.reshape(ct.astype(ct.load(b, index=(0,), shape=(BLOCK,), padding_mode=ZERO), ct.float32), (1, BLOCK))
    ct.store(y, index=(block_row, 0), tile=ct.astype((t * inv + shift) * gw + gb, y.dtype))


NEG_INF = ct.PaddingMode.NEG_INF


@ct.function
def row_vector(v, BLOCK):
    """A weight vector as a (1, BLOCK) f32 row."""
    return ct.reshape(ct.astype(ct.load(v, index=(0,), shape=(BLOCK,), padding_mode=ZERO), ct.float32), (1, BLOCK))


@ct.function
def normalized(t, inv_n, eps, gw, gb):
    """layer_norm of f32 rows t (mean and variance from the sums of t and t^2), times gw plus gb."""
    mean = ct.sum(t, axis=1, keepdims=True) * inv_n
    inv = ct.rsqrt(ct.sum(t * t, axis=1, keepdims=True) * inv_n - mean * mean + eps)
    return (t - mean) * inv * gw + gb


@ct.kernel(occupancy=4, num_worker_warps=8)
def row_softmax_prefetch(x, y, BM: ct.Constant[int], BLOCK: ct.Constant[int]):
    nb = ct.num_tiles(x, axis=0, shape=(BM, BLOCK))
    step = ct.num_blocks(0)
    nxt = ct.load(x, index=(ct.bid(0), 0), shape=(BM, BLOCK), padding_mode=NEG_INF)
    for r in range(ct.bid(0), nb, step):
        t = ct.astype(nxt, ct.float32)
        nxt = ct.load(x, index=(ct.minimum(r + step, nb - 1), 0), shape=(BM, BLOCK), padding_mode=NEG_INF)
        m = ct.max(t, axis=1, keepdims=True)
        e = ct.exp2(t * 1.4426950408889634 - m * 1.4426950408889634, flush_to_zero=True)
        s = ct.sum(e, axis=1, keepdims=True)
        ct.store(y, index=(r, 0), tile=ct.astype(e * (1.0 / s), y.dtype))


@ct.kernel(occupancy=4)
def layer_norm_prefetch(x, w, b, y, inv_n: float, eps: float, BM: ct.Constant[int], BLOCK: ct.Constant[int]):
    nb = ct.num_tiles(x, axis=0, shape=(BM, BLOCK))
    step = ct.num_blocks(0)
    gw = row_vector(w, BLOCK)
    gb = row_vector(b, BLOCK)
    nxt = ct.load(x, index=(ct.bid(0), 0), shape=(BM, BLOCK), padding_mode=ZERO)
    for r in range(ct.bid(0), nb, step):
        t = ct.astype(nxt, ct.float32)
        nxt = ct.load(x, index=(ct.minimum(r + step, nb - 1), 0), shape=(BM, BLOCK), padding_mode=ZERO)
        ct.store(y, index=(r, 0), tile=ct.astype(normalized(t, inv_n, eps, gw, gb), y.dtype))


@ct.kernel(occupancy=4)
def rms_norm_prefetch(x, w, y, inv_n: float, eps: float, BM: ct.Constant[int], BLOCK: ct.Constant[int]):
    nb = ct.num_tiles(x, axis=0, shape=(BM, BLOCK))
    step = ct.num_blocks(0)
    g = row_vector(w, BLOCK)
    nxt = ct.load(x, index=(ct.bid(0), 0), shape=(BM, BLOCK), padding_mode=ZERO)
    for r in range(ct.bid(0), nb, step):
        t = ct.astype(nxt, ct.float32)
        nxt = ct.load(x, index=(ct.minimum(r + step, nb - 1), 0), shape=(BM, BLOCK), padding_mode=ZERO)
        inv = ct.rsqrt(ct.sum(t * t, axis=1, keepdims=True) * inv_n + eps)
        ct.store(y, index=(r, 0), tile=ct.astype(t * inv * g, y.dtype))


@ct.kernel(occupancy=4)
def layer_norm_persist(x, w, b, y, inv_n: float, eps: float, BM: ct.Constant[int], BLOCK: ct.Constant[int]):
    nb = ct.num_tiles(x, axis=0, shape=(BM, BLOCK))
    gw = row_vector(w, BLOCK)
    gb = row_vector(b, BLOCK)
    for r in range(ct.bid(0), nb, ct.num_blocks(0)):
        t = ct.astype(ct.load(x, index=(r, 0), shape=(BM, BLOCK), padding_mode=ZERO), ct.float32)
        ct.store(y, index=(r, 0), tile=ct.astype(normalized(t, inv_n, eps, gw, gb), y.dtype))


@ct.kernel(occupancy=4)
def layer_norm_persist_w_inside(x, w, b, y, inv_n: float, eps: float, BM: ct.Constant[int],
                                BLOCK: ct.Constant[int]):
    nb = ct.num_tiles(x, axis=0, shape=(BM, BLOCK))
    for r in range(ct.bid(0), nb, ct.num_blocks(0)):
        t = ct.astype(ct.load(x, index=(r, 0), shape=(BM, BLOCK), padding_mode=ZERO), ct.float32)
        gw = row_vector(w, BLOCK)
        gb = row_vector(b, BLOCK)
        ct.store(y, index=(r, 0), tile=ct.astype(normalized(t, inv_n, eps, gw, gb), y.dtype))


@ct.kernel(occupancy=4)
def layer_norm_prefetch_w_inside(x, w, b, y, inv_n: float, eps: float, BM: ct.Constant[int],
                                 BLOCK: ct.Constant[int]):
    nb = ct.num_tiles(x, axis=0, shape=(BM, BLOCK))
    step = ct.num_blocks(0)
    nxt = ct.load(x, index=(ct.bid(0), 0), shape=(BM, BLOCK), padding_mode=ZERO)
    for r in range(ct.bid(0), nb, step):
        t = ct.astype(nxt, ct.float32)
        nxt = ct.load(x, index=(ct.minimum(r + step, nb - 1), 0), shape=(BM, BLOCK), padding_mode=ZERO)
        gw = row_vector(w, BLOCK)
        gb = row_vector(b, BLOCK)
        ct.store(y, index=(r, 0), tile=ct.astype(normalized(t, inv_n, eps, gw, gb), y.dtype))


@ct.kernel(occupancy=4)
def layer_norm_prefetch_ldg(x, w, b, y, inv_n: float, eps: float, BM: ct.Constant[int], BLOCK: ct.Constant[int]):
    nb = ct.num_tiles(x, axis=0, shape=(BM, BLOCK))
    step = ct.num_blocks(0)
    gw = row_vector(w, BLOCK)
    gb = row_vector(b, BLOCK)
    nxt = ct.load(x, index=(ct.bid(0), 0), shape=(BM, BLOCK), padding_mode=ZERO, allow_tma=False)
    for r in range(ct.bid(0), nb, step):
        t = ct.astype(nxt, ct.float32)
        nxt = ct.load(x, index=(ct.minimum(r + step, nb - 1), 0), shape=(BM, BLOCK), padding_mode=ZERO,
                      allow_tma=False)
        ct.store(y, index=(r, 0), tile=ct.astype(normalized(t, inv_n, eps, gw, gb), y.dtype))


@ct.kernel(occupancy=8)
def gelu_erf_absdiff(x, y, B: ct.Constant[int]):
    t = ct.astype(ct.load(x, index=(ct.bid(0),), shape=(B,), padding_mode=ZERO), ct.float32)
    xc = ct.minimum(t, 10.0)
    r = ct.truediv(1.0, 1.0 + 0.23164188826636045 * ct.abs(xc), rounding_mode=ct.RoundingMode.APPROX,
                   flush_to_zero=True)
    p = 0.5307027145 * r - 0.7265760135
    p = p * r + 0.7107068705
    p = p * r - 0.142248368
    p = p * r + 0.127414796
    h = xc * (p * r * ct.exp2(xc * xc * -0.7213475204444817, flush_to_zero=True))
    ct.store(y, index=(ct.bid(0),), tile=ct.astype(ct.maximum(t, 0.0, propagate_nan=True) - ct.abs(h), y.dtype))


@ct.kernel(occupancy=8)
def gelu_erf_nopad(x, y, B: ct.Constant[int]):
    t = ct.astype(ct.load(x, index=(ct.bid(0),), shape=(B,)), ct.float32)
    ct.store(y, index=(ct.bid(0),), tile=ct.astype(gelu(t), y.dtype))


@ct.kernel(occupancy=8)
def gelu_erf_halves(x, y, B: ct.Constant[int]):
    i = ct.bid(0) * 2
    a = ct.astype(ct.load(x, index=(i,), shape=(B // 2,), padding_mode=ZERO), ct.float32)
    b = ct.astype(ct.load(x, index=(i + 1,), shape=(B // 2,), padding_mode=ZERO), ct.float32)
    ct.store(y, index=(i,), tile=ct.astype(gelu(a), y.dtype))
    ct.store(y, index=(i + 1,), tile=ct.astype(gelu(b), y.dtype))





@ct.kernel(occupancy=8)
def gelu_erf_unchecked(x, y, B: ct.Constant[int]):
    # check_bounds=False: no bounds check at all, right only where every block is whole (n a multiple of B); what
    # gelu_erf would run at if its loads needed no per-chunk branch (cutile 0.3.1 cannot express such a load)
    t = ct.astype(ct.load(x, index=(ct.bid(0),), shape=(B,), check_bounds=False), ct.float32)
    ct.store(y, index=(ct.bid(0),), tile=ct.astype(gelu(t), y.dtype), check_bounds=False)


@ct.kernel(occupancy=6)
def rope_unchecked(x, cos, sin, y, BT: ct.Constant[int], BH: ct.Constant[int], HALF: ct.Constant[int]):
    # rope_tiled with unchecked loads and stores: right only where the tiles divide the shape exactly. Not one
    # kernel with rope_tiled under a CHECK constant: a padded load with check_bounds=False makes tileiras 13.4 exit
    # with code 5, so the unchecked loads carry no padding_mode
    i = ct.bid(0)
    h = ct.bid(1)
    x1 = ct.astype(ct.load(x, index=(i, h, 0), shape=(BT, BH, HALF), check_bounds=False), ct.float32)
    x2 = ct.astype(ct.load(x, index=(i, h, 1), shape=(BT, BH, HALF), check_bounds=False), ct.float32)
    c = ct.reshape(ct.load(cos, index=(i, 0), shape=(BT, HALF), check_bounds=False), (BT, 1, HALF))
    s = ct.reshape(ct.load(sin, index=(i, 0), shape=(BT, HALF), check_bounds=False), (BT, 1, HALF))
    ct.store(y, index=(i, h, 0), tile=ct.astype(x1 * c - x2 * s, y.dtype), check_bounds=False)
    ct.store(y, index=(i, h, 1), tile=ct.astype(x2 * c + x1 * s, y.dtype), check_bounds=False)



@ct.kernel(occupancy=8)
def gelu_erf_gather(x, y, n: int, B: ct.Constant[int]):
    # x, y: 1-d; the block's elements as a gather and a scatter at computed offsets, masked to the n there are
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    t = ct.astype(ct.gather(x, offs, mask=offs < n), ct.float32)
    ct.scatter(y, offs, ct.astype(gelu(t), y.dtype), mask=offs < n)


@ct.kernel(occupancy=6)
def rope_tiled(x, cos, sin, y, BT: ct.Constant[int], BH: ct.Constant[int], HALF: ct.Constant[int]):
    # rope as committed until 2026-12-01: each half of x [tokens, heads, 2 * HALF] a padded (BT, BH, HALF) view load
    i = ct.bid(0)
    h = ct.bid(1)
    x1 = ct.astype(ct.load(x, index=(i, h, 0), shape=(BT, BH, HALF), padding_mode=ZERO), ct.float32)
    x2 = ct.astype(ct.load(x, index=(i, h, 1), shape=(BT, BH, HALF), padding_mode=ZERO), ct.float32)
    c = ct.reshape(ct.load(cos, index=(i, 0), shape=(BT, HALF), padding_mode=ZERO), (BT, 1, HALF))
    s = ct.reshape(ct.load(sin, index=(i, 0), shape=(BT, HALF), padding_mode=ZERO), (BT, 1, HALF))
    ct.store(y, index=(i, h, 0), tile=ct.astype(x1 * c - x2 * s, y.dtype))
    ct.store(y, index=(i, h, 1), tile=ct.astype(x2 * c + x1 * s, y.dtype))


@ct.kernel(occupancy=8)
def gelu_erf_view(x, y, B: ct.Constant[int], W: ct.Constant[int]):
    # x, y viewed [n / W, W] by the probe (n a multiple of W): B // W rows of W per block
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(B // W, W), padding_mode=ZERO), ct.float32)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(gelu(t), y.dtype))
