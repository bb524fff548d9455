"""linear: y = x @ w^T with w stored as [out_features, in_features] (PyTorch's nn.Linear layout).

Each block owns a (BM, BN) tile of y and accumulates x[BM, BK] @ transpose(w[BN, BK]) in f32 over the K tiles.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=bf16[?,?]/?,1, w=bf16[?,?]/?,1, y=bf16[?,?]/?,1, BM=#128, BN=#128, BK=#64"


@ct.kernel
def linear(x, w, y, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.num_tiles(x, axis=1, shape=(BM, BK))):
        tx = ct.load(x, index=(bm, k), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)
        tw = ct.load(w, index=(bn, k), shape=(BN, BK), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(tx, ct.transpose(tw), acc)
    ct.store(y, index=(bm, bn), tile=ct.astype(acc, y.dtype))
