"""token_scatter: out[dst[i]] = x[i] for the n valid positions — the inverse of token_gather (e.g. un-permuting
values sorted by expert). Destinations outside `out` are dropped; destinations must be distinct.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/1, dst=i32[?]/1, out=f32[?]/1, n=i32, B=#1024"


@ct.kernel
def token_scatter(x, dst, out, n: int, B: ct.Constant[int]):
    pos = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    valid = pos < n
    t = ct.load(x, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    to = ct.gather(dst, pos, mask=valid, padding_value=0)
    ct.scatter(out, to, t, mask=valid)
