"""Attention forward with per-head sink logits (open-weight models that add a learned "sink" to each softmax's
denominator): O = P V with p_ij = exp(s_ij - m_i) / (sum_j exp(s_ij - m_i) + exp(sink_h - m_i)), s = Q K^T * scale;
the sink attends to no value. Grouped-query attention: q is a [B*Hkv, G, Sq, D] view (query head h = kv * G + g of
each batch), k and v [B*Hkv, Sk, D], sinks [B*Hkv, G] f32 (one logit per query head, repeated per batch), o a
[B*Hkv, G, Sq*D] view (each block's BM rows are one contiguous run of BMD = BM * D elements: cutile stores rank <= 3
tensors only).

Block (z, g, i) owns BM query rows of query head g of key/value head z. Online softmax in base 2: the running max m
starts at the sink logit and the running sum l at exp2(sink - sink) = 1, so the sink is in the denominator from the
start and every rescale by exp2(m_old - m_new) carries it along; the output is acc / l (l >= 1: a row that attends
no key gets 0). The keys stream in BN-row tiles. With CAUSAL (top-left aligned, as PyTorch's is_causal) query row r
attends key c when r - window < c <= r (pass window >= Sq, e.g. 2**30, for none): the loop runs only over the key
tiles that meet the block's band, in three runs: the tiles across the window's start (masked), those wholly inside
every row's band (no mask), those across the diagonal or the keys' end (masked). A masked score is -1e38, whose exp2
underflows to 0 against any running max (>= the sink). Without CAUSAL, window is ignored and only the last, partial
key tile is masked. scale must be > 0 (the row max is taken before scaling, so the scaling fuses into the exp2's
argument).

The blocks take the query blocks i in reverse order (i = num_blocks - 1 - block id): the longest first.

grid = (B*Hkv, G, cdiv(Sq, BM)); D is the whole head dimension.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q=bf16[?,?,?,?]/?,?,?,1, k=bf16[?,?,?]/?,?,1, v=bf16[?,?,?]/?,?,1, sinks=f32[?,?]/?,1, "
                  "o=bf16[?,?,?]/?,?,1, scale=f32, window=i32, BM=#128, BN=#64, D=#64, BMD=#8192, CAUSAL=#true")


@ct.function
def _band(s, rows, cols, sk, window):
    """s where key col is one row attends (col < sk, row - window < col <= row), else -1e38."""
    keep = (cols < sk) & (cols <= rows) & (cols > rows - window)
    return ct.where(keep, s, -1.0e38)


@ct.function
def _online(s, qk_scale, tv, m, l, acc):
    """One key tile of the online softmax in base 2 (s unscaled; the max is taken before scaling, so scale > 0):
    the new running max, sum and accumulator."""
    m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True) * qk_scale)
    p = ct.exp2(s * qk_scale - m_new)
    alpha = ct.exp2(m - m_new)
    return m_new, l * alpha + ct.sum(p, axis=1, keepdims=True), ct.mma(ct.astype(p, tv.dtype), tv, acc * alpha)


@ct.kernel(occupancy=2)
def attention_sinks(q, k, v, sinks, o, scale: float, window: int, BM: ct.Constant[int], BN: ct.Constant[int],
                    D: ct.Constant[int], BMD: ct.Constant[int], CAUSAL: ct.Constant[bool]):
    z = ct.bid(0)
    g = ct.bid(1)
    i = ct.num_blocks(2) - 1 - ct.bid(2)   # the last query blocks (the longest under the causal mask) first
    tq = ct.reshape(ct.load(q, index=(z, g, i, 0), shape=(1, 1, BM, D), padding_mode=ct.PaddingMode.ZERO), (BM, D))
    qk_scale = scale * 1.4426950408889634   # log2(e): exp(x) = exp2(x * log2(e))
    m = ct.full((BM, 1), 0, dtype=ct.float32) + ct.load(sinks, index=(z, g), shape=(1, 1)) * 1.4426950408889634
    l = ct.full((BM, 1), 1, dtype=ct.float32)
    acc = ct.full((BM, D), 0, dtype=ct.float32)
    sk = k.shape[1]
    lo = 0
    hi = ct.num_tiles(k, axis=1, shape=(1, BN, D))
    full_lo = 0                       # tiles in [full_lo, full_hi) need no mask
    full_hi = ct.cdiv(sk + 1, BN) - 1   # floor(sk / BN): the tiles before it hold no key past the end
    if CAUSAL:
        last = ct.cdiv((i + 1) * BM, BN)   # no key after the block's last row
        if last < hi:
            hi = last
        diag = ct.cdiv(i * BM + 2, BN) - 1   # floor((i*BM + 1) / BN): tiles before it lie at or below every diagonal
        if diag < full_hi:
            full_hi = diag
        first = i * BM - window + 1   # the block's first row attends keys from here on
        if first > 0:
            lo = ct.cdiv(first + 1, BN) - 1   # floor(first / BN)
        inside = i * BM + BM - window   # tiles from cdiv(inside, BN) on lie inside every row's window
        if inside > 0:
            full_lo = ct.cdiv(inside, BN)
    mid = full_lo   # the tiles split into [lo, mid) masked, [mid, top) unmasked, [top, hi) masked
    if mid > hi:
        mid = hi
    top = full_hi
    if top > hi:
        top = hi
    if top < mid:
        top = mid
    rows = ct.reshape(i * BM + ct.arange(BM, dtype=ct.int32), (BM, 1))
    for j in range(lo, mid):   # across the window's start (CAUSAL only)
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32))
        s = _band(s, rows, ct.reshape(j * BN + ct.arange(BN, dtype=ct.int32), (1, BN)), sk, window)
        m, l, acc = _online(s, qk_scale, tv, m, l, acc)
    for j in range(mid, top):   # wholly inside every row's band: no mask
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32))
        m, l, acc = _online(s, qk_scale, tv, m, l, acc)
    for j in range(top, hi):   # across the diagonal or the keys' end
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32))
        cols = ct.reshape(j * BN + ct.arange(BN, dtype=ct.int32), (1, BN))
        if CAUSAL:
            s = _band(s, rows, cols, sk, window)
        else:
            s = ct.where(cols < sk, s, -1.0e38)
        m, l, acc = _online(s, qk_scale, tv, m, l, acc)
    ct.store(o, index=(z, g, i), tile=ct.reshape(ct.astype(acc / l, o.dtype), (1, 1, BMD)))
