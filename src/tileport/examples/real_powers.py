"""real_powers: integer powers as LLM kernels write them — a LayerNorm's variance `ct.sum((t - mu) ** 2)`, the
tanh-GELU's cube `0.044715 * x ** 3`, a generalized mean of `x ** P` at a constant P, a bf16 activation squared.

cuTile Python compiles each `x ** n` (an integer exponent) to Tile IR `fpowi`, which cutile 0.3.1 cannot emit;
tileiras 13.4 compiles a constant exponent to square-and-multiply FMULs (bf16 widened to f32 first), and the port
writes those products in that order: irdiff rule fpowi-const (coverage row pow-int).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, h=bf16[?,?]/?,1, y=f32[?,?]/?,1, g=bf16[?,?]/?,1, P=#5, B=#128"


@ct.kernel
def real_powers(x, h, y, g, P: ct.Constant[int], B: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, B), padding_mode=ct.PaddingMode.ZERO)
    mu = ct.sum(t, axis=1, keepdims=True) / B
    var = ct.sum((t - mu) ** 2, axis=1, keepdims=True) / B
    n = (t - mu) * ct.rsqrt(var + 1e-5)
    inner = 0.7978845608 * (n + 0.044715 * n ** 3)
    gelu = 0.5 * n * (1.0 + ct.tanh(inner))
    pmean = ct.sum(ct.abs(t) ** P, axis=1, keepdims=True) / B
    ct.store(y, index=(row, 0), tile=gelu + pmean)
    a = ct.load(h, index=(row, 0), shape=(1, B), padding_mode=ct.PaddingMode.ZERO)
    ct.store(g, index=(row, 0), tile=ct.maximum(a, 0.0) ** 2)
