"""MLA prefill (DeepSeek-style multi-head latent attention, the un-absorbed form), online softmax: per (batch x
head), O = softmax(S) V with S[i, j] = scale * (q_nope[i] . k_nope[j] + q_pe[i] . k_pe[j]). Each query/key head has
a "nope" part (DN = 128) and a rotary part (DR = 64); the rotary key k_pe is one per token, SHARED by all heads of
its batch; values and outputs have DV = 128 per head.

Layouts: heads flattened into the leading axis, q_nope, k_nope [B*H, S, DN], q_pe [B*H, S, DR], v, o [B*H, S, DV],
k_pe [B, S, DR]; `heads` is H, so block z reads k_pe of batch z // H (computed as cdiv(z + 1, H) - 1: the
translator has no integer floor division). Block (z, i) owns BM query rows of head z: it streams key tiles of BN
rows, computes each score tile with two mma's into one f32 accumulator (nope part, then rotary part), keeps the
running row max m and normaliser l in f32, rescales the f32 output accumulator when the max grows and divides
once at the end. Keys past the sequence end are masked to -1e30; with CAUSAL, so are keys after the query
(top-left aligned, as PyTorch's is_causal), and the key loop stops at the block's last query row.

grid = (B*H, cdiv(S, BM), 1). Query and key lengths are equal (self-attention prefill).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q_nope=bf16[?,?,?]/?,?,1, q_pe=bf16[?,?,?]/?,?,1, k_nope=bf16[?,?,?]/?,?,1, "
                  "k_pe=bf16[?,?,?]/?,?,1, v=bf16[?,?,?]/?,?,1, o=bf16[?,?,?]/?,?,1, heads=i32, scale=f32, "
                  "BM=#64, BN=#64, DN=#128, DR=#64, DV=#128, CAUSAL=#true")


@ct.kernel(occupancy=2)  # as attention (2 CTAs per SM measured 1.3x faster there)
def mla_prefill(q_nope, q_pe, k_nope, k_pe, v, o, heads: int, scale: float, BM: ct.Constant[int],
                BN: ct.Constant[int], DN: ct.Constant[int], DR: ct.Constant[int], DV: ct.Constant[int],
                CAUSAL: ct.Constant[bool]):
    z = ct.bid(0)
    i = ct.bid(1)
    b = ct.cdiv(z + 1, heads) - 1   # z // heads
    tqn = ct.reshape(ct.load(q_nope, index=(z, i, 0), shape=(1, BM, DN), padding_mode=ct.PaddingMode.ZERO),
                     (BM, DN))
    tqp = ct.reshape(ct.load(q_pe, index=(z, i, 0), shape=(1, BM, DR), padding_mode=ct.PaddingMode.ZERO), (BM, DR))
    m = ct.full((BM, 1), -1.0e30, dtype=ct.float32)
    l = ct.full((BM, 1), 0, dtype=ct.float32)
    acc = ct.full((BM, DV), 0, dtype=ct.float32)
    n_tiles = ct.num_tiles(k_nope, axis=1, shape=(1, BN, DN))
    if CAUSAL:
        n_tiles = ct.cdiv((i + 1) * BM, BN)   # no key after the block's last query row
    rows = i * BM + ct.arange(BM, dtype=ct.int32)
    for j in range(n_tiles):
        tkn = ct.reshape(ct.load(k_nope, index=(z, j, 0), shape=(1, BN, DN), padding_mode=ct.PaddingMode.ZERO),
                         (BN, DN))
        tkp = ct.reshape(ct.load(k_pe, index=(b, j, 0), shape=(1, BN, DR), padding_mode=ct.PaddingMode.ZERO),
                         (BN, DR))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, DV), padding_mode=ct.PaddingMode.ZERO), (BN, DV))
        s = ct.mma(tqn, ct.transpose(tkn), ct.full((BM, BN), 0, dtype=ct.float32))
        s = ct.mma(tqp, ct.transpose(tkp), s) * scale
        cols = j * BN + ct.arange(BN, dtype=ct.int32)
        s = ct.where(ct.reshape(cols, (1, BN)) < k_nope.shape[1], s, -1.0e30)
        if CAUSAL:
            s = ct.where(ct.reshape(cols, (1, BN)) <= ct.reshape(rows, (BM, 1)), s, -1.0e30)
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = acc * alpha + ct.mma(ct.astype(p, q_nope.dtype), tv, ct.full((BM, DV), 0, dtype=ct.float32))
        m = m_new
    ct.store(o, index=(z, i, 0), tile=ct.reshape(ct.astype(acc / l, o.dtype), (1, BM, DV)))
