"""Numerics attributes a port must keep: explicit rounding modes and flush-to-zero, exp2, and a cdiv.

y = exp2(tanh(exp((x * scale) / d))) with round-toward-zero multiply, flush-to-zero divide and approximate exp and
tanh; the block also writes how many TILE-long tiles n spans (a cdiv) into count[0].
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/1, y=f32[?]/1, count=i32[?]/1, scale=f32, d=f32, n=i32, TILE=#256"


@ct.kernel
def numerics(x, y, count, scale: float, d: float, n: int, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    t = ct.mul(t, scale, rounding_mode=ct.RoundingMode.RZ)
    t = ct.truediv(t, d, flush_to_zero=True)
    t = ct.tanh(ct.exp(t, rounding_mode=ct.RoundingMode.APPROX), rounding_mode=ct.RoundingMode.APPROX)
    ct.store(y, index=(bid,), tile=ct.exp2(t, flush_to_zero=True))
    ct.store(count, index=(0,), tile=ct.full((1,), ct.cdiv(n, TILE), dtype=ct.int32))
