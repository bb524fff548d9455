"""Rotary position embedding (the rotate-half form): for each token t and head, with x = [x1, x2] split in halves of
the head dimension and the token's cos/sin rows,

    y1 = x1 * cos - x2 * sin        y2 = x2 * cos + x1 * sin

Block (i, h) owns BT tokens x BH heads and computes in f32. x and y come as flat vectors over their [tokens, heads,
2 * HALF] elements with the token and head strides counted in head rows of 2 * HALF elements (x_t, x_h; y_t, y_h:
any view that slices whole heads, e.g. q out of a fused qkv projection), cos and sin as flat vectors of rows of HALF
(row stride cs_t rows). Each half of the block's heads is a (BT, BH, HALF) gather at computed offsets, masked to the
tokens and heads there are, and each half of y a masked scatter. grid = (cdiv(tokens, BT), cdiv(heads, BH), 1).

Gathers, not tiled loads of a [tokens, heads, 2 * HALF] view: tileiras 13.4 puts each 16-byte chunk of a padded
16-bit view load in a bounds-check branch with its conversion to f32 inside, so one chunk per thread is in flight
(77% of copy bandwidth in f16, 81% in bf16 at 16384 x 32 x 128); the gathers' offsets are multiples of 2 * HALF plus
an arange, which it loads as predicated 16-byte vectors with no branch (91-92% in both; 8 heads 62% -> 72%:
benchmarks/results/h200/tuning/unchecked, docs/toolchain.md). Two stores per block, each half on its own: one
(BT, 2 * BH, HALF) tile built with a where ran at 48-51% (tuning/rope).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("x=bf16[?]/1, cos=f32[?]/1, sin=f32[?]/1, y=bf16[?]/1, tokens=i32, heads=i32, x_t=i32, x_h=i32, "
                  "y_t=i32, y_h=i32, cs_t=i32, BT=#1, BH=#32, HALF=#64, N=#2048, NC=#64")


# 6 CTAs per SM: 80% of copy bandwidth at 32 heads with the former tiled loads, 70% at 8 (against 77% and 69% under
# occupancy 4; tuning/rope/rope-occ.log)
@ct.kernel(occupancy=6)
def rope(x, cos, sin, y, tokens: int, heads: int, x_t: int, x_h: int, y_t: int, y_h: int, cs_t: int,
         BT: ct.Constant[int], BH: ct.Constant[int], HALF: ct.Constant[int], N: ct.Constant[int],
         NC: ct.Constant[int]):
    # N = BT * BH * HALF and NC = BT * HALF, passed by the host: each gather and scatter is of a rank-1 tile (cutile
    # 0.3.1 broadcasts a gather's padding as a rank-1 tile, so a rank-3 gather does not verify) and a tile's length
    # must be a constant of its own in Rust (no arithmetic on const generics in types)
    i = ct.bid(0)
    h = ct.bid(1)
    tt = ct.reshape(i * BT + ct.arange(BT, dtype=ct.int32), (BT, 1, 1))
    hh = ct.reshape(h * BH + ct.arange(BH, dtype=ct.int32), (1, BH, 1))
    d = ct.reshape(ct.arange(HALF, dtype=ct.int32), (1, 1, HALF))
    live = (tt < tokens) & (d < HALF)   # (d < HALF holds: it gives the masks their full shapes)
    ok = ct.reshape(live & (hh < heads), (N,))
    xo = ct.reshape((tt * x_t + hh * x_h) * (2 * HALF) + d, (N,))   # the first half of each head of x
    yo = ct.reshape((tt * y_t + hh * y_h) * (2 * HALF) + d, (N,))
    co = ct.reshape(tt * (cs_t * HALF) + d, (NC,))
    cmask = ct.reshape(live, (NC,))
    x1 = ct.reshape(ct.astype(ct.gather(x, xo, mask=ok), ct.float32), (BT, BH, HALF))
    x2 = ct.reshape(ct.astype(ct.gather(x, xo + HALF, mask=ok), ct.float32), (BT, BH, HALF))
    c = ct.reshape(ct.gather(cos, co, mask=cmask), (BT, 1, HALF))
    s = ct.reshape(ct.gather(sin, co, mask=cmask), (BT, 1, HALF))
    ct.scatter(y, yo, ct.reshape(ct.astype(x1 * c - x2 * s, y.dtype), (N,)), mask=ok)
    ct.scatter(y, yo + HALF, ct.reshape(ct.astype(x2 * c + x1 * s, y.dtype), (N,)), mask=ok)
