"""Matmul with a K loop: C[BM, BN] tiles accumulate A[BM, BK] @ B[BK, BN] in f32 over cdiv(K, BK) steps.

grid = (cdiv(M, BM), cdiv(N, BN), 1). Zero padding makes the ragged K tail contribute nothing.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "a=f16[?,?]/?,1, b=f16[?,?]/?,1, c=f16[?,?]/?,1, BM=#128, BN=#128, BK=#64"


@ct.kernel
def matmul(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.full((BM, BN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(BM, BK))):
        ta = ct.load(a, index=(bm, k), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, bn), shape=(BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bm, bn), tile=ct.astype(acc, c.dtype))
