"""RMS norm, BM rows per block, the whole row in one tile: y = x * rsqrt(sum(x^2) * inv_n + eps) * w.

The host passes inv_n = 1 / row length; the statistics are computed in f32 whatever the input dtype, and the zero
padding of the ragged row tail contributes nothing to the sum. grid = (cdiv(rows, BM), 1, 1).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=bf16[?,?]/?,1, w=bf16[?]/1, y=bf16[?,?]/?,1, inv_n=f32, eps=f32, BM=#2, BLOCK=#1024"


@ct.kernel(occupancy=4)  # 4 CTAs per SM, with ops._common.ROWS_PER_BLOCK: 1.1-1.9x faster (tune_rows_occ.json)
def rms_norm(x, w, y, inv_n: float, eps: float, BM: ct.Constant[int], BLOCK: ct.Constant[int]):
    block_row = ct.bid(0)  # rows [block_row * BM, (block_row + 1) * BM)
    t = ct.load(x, index=(block_row, 0), shape=(BM, BLOCK), padding_mode=ct.PaddingMode.ZERO)
    t = ct.astype(t, ct.float32)
    # mean of squares over the real row length
    ms = ct.sum(t * t, axis=1, keepdims=True) * inv_n
    inv = ct.rsqrt(ms + eps)
    g = ct.load(w, index=(0,), shape=(BLOCK,), padding_mode=ct.PaddingMode.ZERO)
    g = ct.astype(g, ct.float32)
    out = t * inv * ct.reshape(g, (1, BLOCK))
    # plain global stores, not TMA: no shared-memory staging (bf16 8192x4096 77 -> 80% of copy bandwidth for
    # layer_norm, 82 -> 85% for rms_norm; 16384x8192 82 -> 89% and 93 -> 94%: tuning/rows-notma)
    ct.store(y, index=(block_row, 0), tile=ct.astype(out, y.dtype), allow_tma=False)
