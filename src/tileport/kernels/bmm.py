"""Batched matmul: C[z] = A[z] @ B[z] for a batch of row-major matrices. Block (z, i, j) accumulates the (BM, BN)
tile of C[z] in f32 over the K tiles; each operand tile is loaded as a (1, BM, BK) box of the rank-3 array and
reshaped to the 2-D tile the tensor cores take.

grid = (cdiv(M, BM), cdiv(N, BN), batch): the batch is the slowest grid axis, so the blocks running together work
on one batch entry's tiles and share its A row panels and B column panels in L2 (with the batch first, they spread
over all entries). Zero padding makes the ragged K tail contribute nothing.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "a=bf16[?,?,?]/?,?,1, b=bf16[?,?,?]/?,?,1, c=bf16[?,?,?]/?,?,1, BM=#128, BN=#128, BK=#64"


@ct.kernel
def bmm(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    z = ct.bid(2)
    acc = ct.full((BM, BN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=2, shape=(1, BM, BK))):
        ta = ct.load(a, index=(z, bm, k), shape=(1, BM, BK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(z, k, bn), shape=(1, BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ct.reshape(ta, (BM, BK)), ct.reshape(tb, (BK, BN)), acc)
    ct.store(c, index=(z, bm, bn), tile=ct.reshape(ct.astype(acc, c.dtype), (1, BM, BN)))
