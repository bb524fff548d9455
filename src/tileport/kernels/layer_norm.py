"""Layer norm, BM rows per block, the whole row in one tile: y = (x - mean) * rsqrt(var + eps) * w + b.

mean and var come from the sums of x and x^2 over the row (var = E[x^2] - mean^2), so the zero padding of the
ragged tail contributes nothing; inv_n = 1 / row length is passed by the host. grid = (cdiv(rows, BM), 1, 1).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f16[?,?]/?,1, w=f16[?]/1, b=f16[?]/1, y=f16[?,?]/?,1, inv_n=f32, eps=f32, BM=#2, BLOCK=#1024"


@ct.kernel(occupancy=4)  # 4 CTAs per SM, with ops._common.ROWS_PER_BLOCK: 1.1-1.9x faster (tune_rows_occ.json)
def layer_norm(x, w, b, y, inv_n: float, eps: float, BM: ct.Constant[int], BLOCK: ct.Constant[int]):
    block_row = ct.bid(0)  # rows [block_row * BM, (block_row + 1) * BM)
    t = ct.load(x, index=(block_row, 0), shape=(BM, BLOCK), padding_mode=ct.PaddingMode.ZERO)
    t = ct.astype(t, ct.float32)
    mean = ct.sum(t, axis=1, keepdims=True) * inv_n
    mean_sq = ct.sum(t * t, axis=1, keepdims=True) * inv_n
    var = mean_sq - mean * mean
    inv = ct.rsqrt(var + eps)
    gw = ct.load(w, index=(0,), shape=(BLOCK,), padding_mode=ct.PaddingMode.ZERO)
    gw = ct.astype(gw, ct.float32)
    gb = ct.load(b, index=(0,), shape=(BLOCK,), padding_mode=ct.PaddingMode.ZERO)
    gb = ct.astype(gb, ct.float32)
    out = (t - mean) * inv * ct.reshape(gw, (1, BLOCK)) + ct.reshape(gb, (1, BLOCK))
    # plain global stores, not TMA: no shared-memory staging (bf16 8192x4096 77 -> 80% of copy bandwidth for
    # layer_norm, 82 -> 85% for rms_norm; 16384x8192 82 -> 89% and 93 -> 94%: tuning/rows-notma)
    ct.store(y, index=(block_row, 0), tile=ct.astype(out, y.dtype), allow_tma=False)
