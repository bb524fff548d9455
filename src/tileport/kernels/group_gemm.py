"""Grouped GEMM (the MoE form): the rows of A are tokens sorted by group (expert), each group's rows padded to a
multiple of BM, and group g multiplies its rows by its own weight matrix B[g]. tile_group[t] is the group of the
t-th BM-row tile (the host derives it from the group sizes), so block (t, j) computes
C[t*BM:(t+1)*BM, j*BN:(j+1)*BN] = A[rows of tile t] @ B[tile_group[t]][:, cols of j] with an f32 accumulator.

grid = (cdiv(rows, BM), cdiv(N, BN), 1).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("a=bf16[?,?]/?,1, b=bf16[?,?,?]/?,?,1, c=bf16[?,?]/?,1, tile_group=i32[?]/1, BM=#128, BN=#128, "
                  "BK=#64")


@ct.kernel
def group_gemm(a, b, c, tile_group, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    g = ct.load(tile_group, index=(bm,), shape=(1,)).item()
    acc = ct.full((BM, BN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(BM, BK))):
        ta = ct.load(a, index=(bm, k), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(g, k, bn), shape=(1, BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, ct.reshape(tb, (BK, BN)), acc)
    ct.store(c, index=(bm, bn), tile=ct.astype(acc, c.dtype))
