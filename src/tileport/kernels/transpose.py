"""transpose: y = x^T for a row-major x [m, n]. Block (i, j) owns the (BM, BN) tile of y at (i, j); it reads the
(BN, BM) tile of x at (j, i) already transposed, through the load's order=(1, 0) (no transpose op in the kernel)."""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, y=f32[?,?]/?,1, BM=#64, BN=#64"


@ct.kernel
def transpose(x, y, BM: ct.Constant[int], BN: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    # tile axis 0 walks x's axis 1 and tile axis 1 walks x's axis 0; the index is in the tile's axis order
    t = ct.load(x, index=(bm, bn), shape=(BM, BN), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(bm, bn), tile=t)
