"""ReLU: y = max(x, 0), one TILE-long tile per block (grid = cdiv(n, TILE))."""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/1, y=f32[?]/1, TILE=#1024"


@ct.kernel
def relu(x, y, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(bid,), tile=ct.maximum(t, 0.0))
