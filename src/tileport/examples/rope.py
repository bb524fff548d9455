"""Rotary position embedding (the rotate-half form): for each token t and head, with x = [x1, x2] split in halves of
the head dimension and the token's cos/sin rows,

    y1 = x1 * cos - x2 * sin        y2 = x2 * cos + x1 * sin

Block (i, h) owns BT tokens x BH heads: it loads each half of x [tokens, heads, 2 * HALF] once (tile index 0 and 1
along the head dimension) and the tokens' cos/sin rows, computes both halves in f32 and stores them as one tile of
y viewed [tokens, 2 * heads, HALF] (row 2 * head + half), built as (BT, BH, 2, HALF) with a where over the half
axis — one store, because a block writes exactly its own tile of y. BH2 is 2 * BH (the translator takes tile
dimensions that are constants, not expressions of them). grid = (cdiv(tokens, BT), cdiv(heads, BH), 1).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("x=bf16[?,?,?]/?,?,1, cos=f32[?,?]/?,1, sin=f32[?,?]/?,1, y=bf16[?,?,?]/?,?,1, BT=#8, BH=#8, "
                  "BH2=#16, HALF=#64")


@ct.kernel
def rope(x, cos, sin, y, BT: ct.Constant[int], BH: ct.Constant[int], BH2: ct.Constant[int],
         HALF: ct.Constant[int]):
    i = ct.bid(0)
    h = ct.bid(1)
    x1 = ct.load(x, index=(i, h, 0), shape=(BT, BH, HALF), padding_mode=ct.PaddingMode.ZERO)
    x2 = ct.load(x, index=(i, h, 1), shape=(BT, BH, HALF), padding_mode=ct.PaddingMode.ZERO)
    x1 = ct.reshape(ct.astype(x1, ct.float32), (BT, BH, 1, HALF))
    x2 = ct.reshape(ct.astype(x2, ct.float32), (BT, BH, 1, HALF))
    c = ct.reshape(ct.load(cos, index=(i, 0), shape=(BT, HALF), padding_mode=ct.PaddingMode.ZERO), (BT, 1, 1, HALF))
    s = ct.reshape(ct.load(sin, index=(i, 0), shape=(BT, HALF), padding_mode=ct.PaddingMode.ZERO), (BT, 1, 1, HALF))
    first = ct.reshape(ct.arange(2, dtype=ct.int32), (1, 1, 2, 1)) == 0
    out = ct.where(first, x1 * c - x2 * s, x2 * c + x1 * s)
    ct.store(y, index=(i, h, 0), tile=ct.reshape(ct.astype(out, y.dtype), (BT, BH2, HALF)))
