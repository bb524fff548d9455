"""real_bmm: a batched matmul written with rank-3 tiles, as other people write it, in one kernel the port must prove.

The batch is grid axis 2 and the first tile dimension (`shape=(1, BM, BK)`); `ct.mma` multiplies the rank-3 tiles
directly (cuTile Python keeps the batch dimension in its `mmaf`; cutile 0.3.1 declares its mma for rank 2 only, so
the port declares the same compiler op for rank 3); the K loop counts `ct.num_tiles` along axis 2; the result is
cast to the output's dtype.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "a=f16[?,?,?]/?,?,1, b=f16[?,?,?]/?,?,1, c=f16[?,?,?]/?,?,1, BM=#64, BN=#64, BK=#32"


@ct.kernel
def real_bmm(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    z, pm, pn = ct.bid(2), ct.bid(0), ct.bid(1)
    acc = ct.zeros((1, BM, BN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=2, shape=(1, BM, BK))):
        at = ct.load(a, index=(z, pm, k), shape=(1, BM, BK), padding_mode=ct.PaddingMode.ZERO)
        bt = ct.load(b, index=(z, k, pn), shape=(1, BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(at, bt, acc)
    ct.store(c, index=(z, pm, pn), tile=acc.astype(c.dtype))
