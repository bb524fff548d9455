"""Row reduction: softmax over the last axis, one row per block, the whole row in one tile.

Padding with -inf keeps the ragged tail out of the max and the sum. grid = (rows, 1, 1).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, y=f32[?,?]/?,1, BLOCK=#1024"


@ct.kernel
def row_softmax(x, y, BLOCK: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, BLOCK), padding_mode=ct.PaddingMode.NEG_INF)
    t = ct.astype(t, ct.float32)
    m = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - m)
    s = ct.sum(e, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=ct.astype(e / s, y.dtype))
