"""Fused attention forward, online softmax: O = softmax(Q K^T * scale) V per (batch x head), with the heads flattened
into the leading axis of q, k, v, o [B*H, S, D]. Block (z, i) owns BM query rows of head z: it streams the keys and
values in BN-row tiles, keeps the running row max m (of the raw logits) and normalizer l in f32, rescales the f32
accumulator when the max grows, and divides once at the end. The softmax runs in base 2: exp(x * scale) is
exp2(x * scale * log2(e)), one fused multiply-add and one exp2 per logit.

The key loop runs in two parts. The tiles before `full` hold no key past the sequence end and (with CAUSAL, top-left
aligned as PyTorch's is_causal) none after the block's first query row: no mask. The tiles from `full` to the last
one the block needs are masked to -1e30 (keys past the end; with CAUSAL, keys after the query). Blocks take the
query blocks in reverse order, so under CAUSAL the longest start first and the short ones fill the tail (1.15x
faster at 4k, 1.18x at 16k on the H200: benchmarks/results/h200/attention-tiles).

grid = (B*H, cdiv(S, BM), 1); D is the whole head dimension.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q=bf16[?,?,?]/?,?,1, k=bf16[?,?,?]/?,?,1, v=bf16[?,?,?]/?,?,1, o=bf16[?,?,?]/?,?,1, scale=f32, "
                  "BM=#128, BN=#64, D=#128, CAUSAL=#true")


@ct.function
def online_step(s, qk, tv, m, l, acc):
    """One key tile of the online softmax on raw logits s (qk = scale * log2(e)): new running max, sum, accumulator.
    Shared with tileport.kernels.mla_prefill (which imports it; the translator inlines it from this file)."""
    m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
    mq = m_new * qk
    p = ct.exp2(s * qk - mq, flush_to_zero=True)
    alpha = ct.exp2(m * qk - mq, flush_to_zero=True)
    return m_new, l * alpha + ct.sum(p, axis=1, keepdims=True), ct.mma(ct.astype(p, tv.dtype), tv, acc * alpha)


@ct.kernel(occupancy=2)  # 2 CTAs per SM: 1.3x faster than 1 at BM=128 (benchmarks/results/h200/attention-tiles)
def attention(q, k, v, o, scale: float, BM: ct.Constant[int], BN: ct.Constant[int], D: ct.Constant[int],
              CAUSAL: ct.Constant[bool]):
    z = ct.bid(0)
    i = ct.num_blocks(1) - 1 - ct.bid(1)   # the last query blocks (the longest under CAUSAL) first
    tq = ct.reshape(ct.load(q, index=(z, i, 0), shape=(1, BM, D), padding_mode=ct.PaddingMode.ZERO), (BM, D))
    qk = scale * 1.4426950408889634   # log2(e)
    m = ct.full((BM, 1), -1.0e30, dtype=ct.float32)
    l = ct.full((BM, 1), 0, dtype=ct.float32)
    acc = ct.full((BM, D), 0, dtype=ct.float32)
    sk = k.shape[1]
    n_tiles = ct.num_tiles(k, axis=1, shape=(1, BN, D))
    full = sk // BN   # tiles wholly inside the sequence
    if CAUSAL:
        last = ct.cdiv((i + 1) * BM, BN)   # no key after the block's last query row
        if last < n_tiles:
            n_tiles = last
        diag = (i * BM + 1) // BN   # tiles wholly at or before the block's first query row
        if diag < full:
            full = diag
    if full > n_tiles:
        full = n_tiles
    for j in range(full):
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32))
        m, l, acc = online_step(s, qk, tv, m, l, acc)
    rows = ct.reshape(i * BM + ct.arange(BM, dtype=ct.int32), (BM, 1))
    for j in range(full, n_tiles):
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32))
        cols = ct.reshape(j * BN + ct.arange(BN, dtype=ct.int32), (1, BN))
        if CAUSAL:
            s = ct.where((cols < sk) & (cols <= rows), s, -1.0e30)
        else:
            s = ct.where(cols < sk, s, -1.0e30)
        m, l, acc = online_step(s, qk, tv, m, l, acc)
    ct.store(o, index=(z, i, 0), tile=ct.reshape(ct.astype(acc / l, o.dtype), (1, BM, D)))
