"""matmul_hints: the K-loop matmul with the scheduling hints a tuned kernel carries.

The A tile is loaded with a software-pipelining latency hint and B without TMA; the port must carry exactly these
hints (irdiff compares optimization_hints) — none dropped, none added.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "a=bf16[?,?]/?,1, b=bf16[?,?]/?,1, c=bf16[?,?]/?,1, BM=#128, BN=#128, BK=#64, LAT=#3"


@ct.kernel
def matmul_hints(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
                 LAT: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(BM, BK))):
        ta = ct.load(a, index=(bm, k), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO, latency=LAT)
        tb = ct.load(b, index=(k, bn), shape=(BK, BN), padding_mode=ct.PaddingMode.ZERO, allow_tma=False)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bm, bn), tile=ct.astype(acc, c.dtype))
