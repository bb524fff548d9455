"""A constant branch: bias add followed by an activation chosen at compile time.

ACT is a ct.Constant: 0 = identity, 1 = relu, 2 = sigmoid. Each variant folds the untaken branches away, so the
three specializations have different Tile IR — exactly the case the translator must make explicit.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, bias=f32[?]/1, y=f32[?,?]/?,1, BM=#64, BN=#128, ACT=#1"


@ct.kernel
def bias_act(x, bias, y, BM: ct.Constant[int], BN: ct.Constant[int], ACT: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    t = ct.load(x, index=(bm, bn), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(bias, index=(bn,), shape=(BN,), padding_mode=ct.PaddingMode.ZERO)
    t = t + ct.reshape(b, (1, BN))
    if ACT == 1:
        t = ct.maximum(t, 0.0)
    elif ACT == 2:
        t = 1.0 / (1.0 + ct.exp(-t))
    ct.store(y, index=(bm, bn), tile=t)
