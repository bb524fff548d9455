"""GELU, tanh form: y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), elementwise in f32."""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/1, y=f32[?]/1, TILE=#1024"


@ct.kernel
def gelu_tanh(x, y, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    inner = 0.7978845608028654 * (t + 0.044715 * t * t * t)
    ct.store(y, index=(bid,), tile=0.5 * t * (1.0 + ct.tanh(inner)))
