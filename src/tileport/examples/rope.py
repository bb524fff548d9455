"""Rotary position embedding (the rotate-half form): for each token t and head, with x = [x1, x2] split in halves of
the head dimension and the token's cos/sin rows,

    y1 = x1 * cos - x2 * sin        y2 = x2 * cos + x1 * sin

Block (i, h) owns BT tokens x BH heads: it loads each half of x [tokens, heads, 2 * HALF] as one tile (tile index 0
and 1 along the head dimension) and the tokens' cos/sin rows (broadcast over the heads), computes in f32 and stores
each half of y on its own, at the same tile indices. grid = (cdiv(tokens, BT), cdiv(heads, BH), 1).

Two stores, not one (BT, 2 * BH, HALF) tile built with a where over the halves: that form ran at 48-51% of copy
bandwidth, this one at 70-80% with half tiles of 2048 elements under occupancy 6 (benchmarks/results/h200/tuning/rope).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=bf16[?,?,?]/?,?,1, cos=f32[?,?]/?,1, sin=f32[?,?]/?,1, y=bf16[?,?,?]/?,?,1, BT=#1, BH=#32, HALF=#64"


# 6 CTAs per SM: 80% of copy bandwidth at 32 heads, 70% at 8 (against 77% and 69% under occupancy 4, and at 8 heads
# 56% with the former 4096-element half tiles; tuning/rope/rope-occ.log)
@ct.kernel(occupancy=6)
def rope(x, cos, sin, y, BT: ct.Constant[int], BH: ct.Constant[int], HALF: ct.Constant[int]):
    i = ct.bid(0)
    h = ct.bid(1)
    x1 = ct.astype(ct.load(x, index=(i, h, 0), shape=(BT, BH, HALF), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    x2 = ct.astype(ct.load(x, index=(i, h, 1), shape=(BT, BH, HALF), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    c = ct.reshape(ct.load(cos, index=(i, 0), shape=(BT, HALF), padding_mode=ct.PaddingMode.ZERO), (BT, 1, HALF))
    s = ct.reshape(ct.load(sin, index=(i, 0), shape=(BT, HALF), padding_mode=ct.PaddingMode.ZERO), (BT, 1, HALF))
    ct.store(y, index=(i, h, 0), tile=ct.astype(x1 * c - x2 * s, y.dtype))
    ct.store(y, index=(i, h, 1), tile=ct.astype(x2 * c + x1 * s, y.dtype))
