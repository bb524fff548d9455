"""Gemma-style attention forward: causal (top-left aligned, as PyTorch's is_causal) sliding-window attention with
logit soft-capping, O = softmax(cap * tanh(Q K^T * scale / cap) + mask) V, where query row r attends key c when
r - window < c <= r (pass window >= Sq, e.g. 2**30, for none). Grouped-query attention: q is a [B*Hkv, G, Sq, D]
view (query head h = kv * G + g of each batch), k and v [B*Hkv, Sk, D], o a [B*Hkv, G, Sq*D] view (each block's
BM rows are one contiguous run of BM*D = BMD elements; cutile stores rank <= 3 tensors).

Block (z, g, i) owns BM query rows of query head g of key/value head z and streams the keys in BN-row tiles with an
online softmax in base 2 (f32 running max m, sum l and accumulator). The loop runs only over the key tiles that
meet the block's band, in three runs: the tiles across the window's start (masked), those wholly inside every
row's band (no mask), those across the diagonal or the keys' end (masked). A masked logit is -1e38, whose exp2
underflows to 0 against the running max (which starts at -1e30), so a row that attends no key at all (possible
only with Sq > Sk) keeps l = 0 and acc = 0 and gets 0: the division is by max(l, 1e-30).

With SOFTCAP, the scaled logit x = s * scale becomes cap * tanh(x / cap) (cap > 0), computed as
C - 2C / (exp2(s * scale * 2 log2(e) / cap) + 1) with C = cap * log2(e) (the logit in base-2 units; one exp2 and
one approximate division, no cancellation worse than C's own rounding, exact limits +-C where exp2 saturates).
Without it, cap is ignored.

The blocks take the query blocks i in reverse order (i = num_blocks - 1 - block id): the longest first.

grid = (B*Hkv, G, cdiv(Sq, BM)); D is the whole head dimension; BMD = BM * D.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q=bf16[?,?,?,?]/?,?,?,1, k=bf16[?,?,?]/?,?,1, v=bf16[?,?,?]/?,?,1, o=bf16[?,?,?]/?,?,1, "
                  "scale=f32, cap=f32, window=i32, BM=#128, BN=#64, D=#128, BMD=#16384, SOFTCAP=#true")


@ct.function
def _band(s, rows, cols, sk, window):
    """s where key col is one row attends (col < sk, row - window < col <= row), else -1e38."""
    keep = (cols < sk) & (cols <= rows) & (cols > rows - window)
    return ct.where(keep, s, -1.0e38)


@ct.function
def _capped(s, a, c, c2):
    """c * tanh(s * a / (2 log2(e))) = c - 2c / (exp2(s * a) + 1), with c2 = 2c."""
    return c - ct.truediv(c2, ct.exp2(s * a) + 1.0, rounding_mode=ct.RoundingMode.APPROX)


@ct.function
def _online(s, tv, m, l, acc):
    """One key tile of the online softmax (base 2): the new running max, sum and accumulator."""
    m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
    p = ct.exp2(s - m_new)
    alpha = ct.exp2(m - m_new)
    return m_new, l * alpha + ct.sum(p, axis=1, keepdims=True), ct.mma(ct.astype(p, tv.dtype), tv, acc * alpha)


# 8 worker warps, one block per SM: the (128, 64) tile's [128, 256] f32 accumulator spread over twice the registers
# (D = 256: 1.75x faster than (64, 32) with occupancy 2 on the H200, benchmarks/results/h200/attention-tiles)
@ct.kernel(occupancy=1, num_worker_warps=8)
def gemma_attention(q, k, v, o, scale: float, cap: float, window: int, BM: ct.Constant[int], BN: ct.Constant[int],
                    D: ct.Constant[int], BMD: ct.Constant[int], SOFTCAP: ct.Constant[bool]):
    z = ct.bid(0)
    g = ct.bid(1)
    i = ct.num_blocks(2) - 1 - ct.bid(2)   # the last query blocks (the longest under the causal mask) first
    tq = ct.reshape(ct.load(q, index=(z, g, i, 0), shape=(1, 1, BM, D), padding_mode=ct.PaddingMode.ZERO), (BM, D))
    qk_scale = scale * 1.4426950408889634        # log2(e): the logits in base-2 units
    cap_a = scale * 2.8853900817779268 / cap     # 2 log2(e) * scale / cap
    cap_c = cap * 1.4426950408889634
    cap_c2 = cap_c + cap_c
    m = ct.full((BM, 1), -1.0e30, dtype=ct.float32)
    l = ct.full((BM, 1), 0, dtype=ct.float32)
    acc = ct.full((BM, D), 0, dtype=ct.float32)
    sk = k.shape[1]
    lo = 0
    hi = ct.num_tiles(k, axis=1, shape=(1, BN, D))
    last = ct.cdiv((i + 1) * BM, BN)   # no key after the block's last row
    if last < hi:
        hi = last
    first = i * BM - window + 1   # the block's first row attends keys from here on
    if first > 0:
        lo = ct.cdiv(first + 1, BN) - 1   # floor(first / BN)
    mid = 0   # the tiles split into [lo, mid) masked, [mid, top) unmasked, [top, hi) masked
    inside = i * BM + BM - window   # tiles from cdiv(inside, BN) on lie inside every row's window
    if inside > 0:
        mid = ct.cdiv(inside, BN)
    if mid > hi:
        mid = hi
    top = ct.cdiv(sk + 1, BN) - 1   # floor(sk / BN): the tiles before it hold no key past the end
    diag = ct.cdiv(i * BM + 2, BN) - 1   # floor((i*BM + 1) / BN): tiles before it lie at or below every diagonal
    if diag < top:
        top = diag
    if top > hi:
        top = hi
    if top < mid:
        top = mid
    rows = ct.reshape(i * BM + ct.arange(BM, dtype=ct.int32), (BM, 1))
    for j in range(lo, mid):   # across the window's start
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32))
        if SOFTCAP:
            s = _capped(s, cap_a, cap_c, cap_c2)
        else:
            s = s * qk_scale
        s = _band(s, rows, ct.reshape(j * BN + ct.arange(BN, dtype=ct.int32), (1, BN)), sk, window)
        m, l, acc = _online(s, tv, m, l, acc)
    for j in range(mid, top):   # wholly inside every row's band: no mask
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32))
        if SOFTCAP:
            s = _capped(s, cap_a, cap_c, cap_c2)
        else:
            s = s * qk_scale
        m, l, acc = _online(s, tv, m, l, acc)
    for j in range(top, hi):   # across the diagonal or the keys' end
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32))
        if SOFTCAP:
            s = _capped(s, cap_a, cap_c, cap_c2)
        else:
            s = s * qk_scale
        s = _band(s, rows, ct.reshape(j * BN + ct.arange(BN, dtype=ct.int32), (1, BN)), sk, window)
        m, l, acc = _online(s, tv, m, l, acc)
    out = acc / ct.maximum(l, ct.full((BM, 1), 1.0e-30, dtype=ct.float32))
    ct.store(o, index=(z, g, i), tile=ct.reshape(ct.astype(out, o.dtype), (1, 1, BMD)))
