"""softcap: gemma-style logit soft-capping, y = cap * tanh(x / cap), switched off (y = x) when cap <= 0.

The switch is a runtime `if` on a scalar argument: one compiled kernel serves both settings.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=bf16[?]/1, y=bf16[?]/1, cap=f32, B=#1024"


@ct.kernel
def softcap(x, y, cap: float, B: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.astype(ct.load(x, index=(i,), shape=(B,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    if cap > 0.0:
        inv = 1.0 / cap   # one division per block, a multiply per element
        t = cap * ct.tanh(t * inv)
    ct.store(y, index=(i,), tile=ct.astype(t, y.dtype))
