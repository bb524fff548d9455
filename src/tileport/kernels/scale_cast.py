"""Elementwise with casts: y = (x * alpha + 1) computed in f32, stored in y's dtype (f16/bf16 inputs).

One TILE-long tile per block, grid = cdiv(n, TILE). The cast on the way in and out is explicit.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f16[?]/1, y=f16[?]/1, alpha=f32, TILE=#1024"


@ct.kernel
def scale_cast(x, y, alpha: float, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.astype(t, ct.float32) * alpha + 1.0
    ct.store(y, index=(bid,), tile=ct.astype(acc, y.dtype))
