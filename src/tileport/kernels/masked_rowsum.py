"""masked_rowsum: y[r] = sum of x[r, c] over the row's columns where x[r, c] > threshold.

One block per BM rows; a loop over cdiv(columns, BK) column chunks with an f32 accumulator; the column count is
read from the array. The ragged tail is zero-padded: a padded zero adds nothing to the sum whether it passes the
threshold or not.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, y=f32[?,?]/?,1, threshold=f32, BM=#64, BK=#128"


@ct.kernel
def masked_rowsum(x, y, threshold: float, BM: ct.Constant[int], BK: ct.Constant[int]):
    bm = ct.bid(0)
    acc = ct.zeros((BM, BK), dtype=ct.float32)
    for k in range(ct.cdiv(x.shape[1], BK)):
        t = ct.load(x, index=(bm, k), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)
        acc = acc + ct.where(t > threshold, t, 0.0)
    ct.store(y, index=(bm, 0), tile=ct.sum(acc, axis=1, keepdims=True))
