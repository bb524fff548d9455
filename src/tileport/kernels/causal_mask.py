"""causal_mask: the masking step of causal attention over (BM, BN) score tiles.

y[r, c] = x[r, c] where c <= r + shift and c < n_cols, else -1e30 (a finite "minus infinity" that keeps exp() at 0).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, y=f32[?,?]/?,1, shift=i32, n_cols=i32, BM=#64, BN=#64"


@ct.kernel
def causal_mask(x, y, shift: int, n_cols: int, BM: ct.Constant[int], BN: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    t = ct.load(x, index=(bm, bn), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
    # absolute row and column of every element of the tile
    rows = bm * BM + ct.arange(BM, dtype=ct.int32)
    cols = bn * BN + ct.arange(BN, dtype=ct.int32)
    visible = ct.reshape(cols, (1, BN)) <= ct.reshape(rows, (BM, 1)) + shift
    keep = visible & (ct.reshape(cols, (1, BN)) < n_cols)
    ct.store(y, index=(bm, bn), tile=ct.where(keep, t, -1.0e30))
