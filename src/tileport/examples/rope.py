"""Rotary position embedding (the rotate-half form): for each token t and head, with x = [x1, x2] split in halves of
the head dimension and the token's cos/sin rows,

    y1 = x1 * cos - x2 * sin        y2 = x2 * cos + x1 * sin

Block (t, h, j) owns half j of a (BH heads, HALF) tile of y: it loads the same half of x and the other one (tile
index 1 - j along the head dimension), computes in f32 and stores its half. grid = (tokens, cdiv(heads, BH), 2);
the head dimension is exactly 2 * HALF.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("x=bf16[?,?,?]/?,?,1, cos=f32[?,?]/?,1, sin=f32[?,?]/?,1, y=bf16[?,?,?]/?,?,1, BH=#8, "
                  "HALF=#64")


@ct.kernel
def rope(x, cos, sin, y, BH: ct.Constant[int], HALF: ct.Constant[int]):
    t = ct.bid(0)
    h = ct.bid(1)
    j = ct.bid(2)
    same = ct.load(x, index=(t, h, j), shape=(1, BH, HALF), padding_mode=ct.PaddingMode.ZERO)
    other = ct.load(x, index=(t, h, 1 - j), shape=(1, BH, HALF), padding_mode=ct.PaddingMode.ZERO)
    c = ct.reshape(ct.load(cos, index=(t, 0), shape=(1, HALF)), (1, 1, HALF))
    s = ct.reshape(ct.load(sin, index=(t, 0), shape=(1, HALF)), (1, 1, HALF))
    rotated = ct.astype(other, ct.float32) * s
    if j == 0:
        rotated = 0.0 - rotated   # the first half subtracts x2 * sin
    out = ct.astype(same, ct.float32) * c + rotated
    ct.store(y, index=(t, h, j), tile=ct.astype(out, y.dtype))
