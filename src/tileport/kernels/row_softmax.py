"""Row reduction: softmax over the last axis, BM rows per block, the whole row in one tile.

Padding with -inf keeps the ragged tail out of the max and the sum. grid = (cdiv(rows, BM), 1, 1).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, y=f32[?,?]/?,1, BM=#2, BLOCK=#1024"


# 4 CTAs per SM, with ops._common.ROWS_PER_BLOCK: 1.1-1.9x faster (tune_rows_occ.json); 8 worker warps each (half the
# row per thread): 16-bit 73-94% of copy bandwidth against 67-81% without, f32 86% against 89-96%
# (benchmarks/results/h200/tuning/rows-occ/rows-warps.log)
@ct.kernel(occupancy=4, num_worker_warps=8)
def row_softmax(x, y, BM: ct.Constant[int], BLOCK: ct.Constant[int]):
    block_row = ct.bid(0)  # rows [block_row * BM, (block_row + 1) * BM)
    t = ct.load(x, index=(block_row, 0), shape=(BM, BLOCK), padding_mode=ct.PaddingMode.NEG_INF)
    t = ct.astype(t, ct.float32)
    m = ct.max(t, axis=1, keepdims=True)
    # exp(t - m) as one fused multiply-add and a flush-to-zero exp2: 16-bit rows are bound by instruction issue
    # (22% fewer instructions than ct.exp's range-reduced form at 2 x 4096 bf16; benchmarks/probes/spill_check.py)
    e = ct.exp2(t * 1.4426950408889634 - m * 1.4426950408889634, flush_to_zero=True)
    s = ct.sum(e, axis=1, keepdims=True)
    # one reciprocal per row and a multiply per element (a division per element costs more than the memory)
    out = ct.astype(e * (1.0 / s), y.dtype)
    if BLOCK >= 8192:
        # through TMA: 16-bit 16384x8192 94% of copy bandwidth, 73% with plain stores
        ct.store(y, index=(block_row, 0), tile=out)
    else:
        # plain global stores, no shared-memory staging: 16-bit 8192x4096 74 -> 80%, 16384x2048 70 -> 79%
        # (benchmarks/results/h200/tuning/rows-notma)
        ct.store(y, index=(block_row, 0), tile=out, allow_tma=False)
