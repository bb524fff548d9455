"""masked_rowsum: y[r] = sum of x[r, c] over the columns c < n where x[r, c] > threshold.

One block per BM rows; a loop over cdiv(n, BK) column chunks (the ragged tail is zero-padded) with an f32 accumulator.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, y=f32[?,?]/?,1, n=i32, threshold=f32, BM=#64, BK=#128"


@ct.kernel
def masked_rowsum(x, y, n: int, threshold: float, BM: ct.Constant[int], BK: ct.Constant[int]):
    bm = ct.bid(0)
    acc = ct.zeros((BM, BK), dtype=ct.float32)
    for k in range(ct.cdiv(n, BK)):
        t = ct.load(x, index=(bm, k), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)
        acc = acc + ct.where(t > threshold, t, 0.0)
    ct.store(y, index=(bm, 0), tile=ct.sum(acc, axis=1, keepdims=True))
