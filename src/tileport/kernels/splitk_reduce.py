"""splitk_reduce: y = sum over s of parts[s] — the second half of a split-K matrix product, where S blocks each
computed the f32 partial product of one K range. Block (i, j) owns the (BM, BN) tile of y and adds up the S
partial tiles in f32, then casts once to y's dtype. grid = (cdiv(M, BM), cdiv(N, BN), 1).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "parts=f32[?,?,?]/?,?,1, y=bf16[?,?]/?,1, BM=#32, BN=#128"


@ct.kernel
def splitk_reduce(parts, y, BM: ct.Constant[int], BN: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.full((BM, BN), 0, dtype=ct.float32)
    for s in range(parts.shape[0]):
        part = ct.load(parts, index=(s, bm, bn), shape=(1, BM, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = acc + ct.reshape(part, (BM, BN))
    ct.store(y, index=(bm, bn), tile=ct.astype(acc, y.dtype))
