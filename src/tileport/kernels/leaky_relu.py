"""leaky_relu: y = x if x > 0 else SLOPE * x, with the slope a compile-time float constant.

Rust has no float const generics: each slope the host launches with becomes its own entry, with the value written in.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/1, y=f32[?]/1, SLOPE=#0.01, B=#1024"


@ct.kernel
def leaky_relu(x, y, SLOPE: ct.Constant[float], B: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(i,), tile=ct.where(t > 0.0, t, SLOPE * t))
