"""SwiGLU: y = silu(gate) * up = gate / (1 + exp(-gate)) * up, computed in f32, tiles of (BM, BN)."""
import cuda.tile as ct

DEMO_SIGNATURE = "gate=f16[?,?]/?,1, up=f16[?,?]/?,1, y=f16[?,?]/?,1, BM=#32, BN=#256"


@ct.kernel(occupancy=8)  # 8 CTAs per SM: 1.3-1.9x faster at 16 bits (perf/occupancy-elementwise.json)
def swiglu(gate, up, y, BM: ct.Constant[int], BN: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    g = ct.load(gate, index=(bm, bn), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
    g = ct.astype(g, ct.float32)
    u = ct.load(up, index=(bm, bn), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
    u = ct.astype(u, ct.float32)
    # approximate division (div.approx): the denominator is >= 1, and IEEE division made 16-bit SwiGLU
    # compute-bound (1.3x slower; benchmarks/results/h200/triton/math_probe.json)
    silu = ct.truediv(g, 1.0 + ct.exp(-g), rounding_mode=ct.RoundingMode.APPROX)
    ct.store(y, index=(bm, bn), tile=ct.astype(silu * u, y.dtype))
