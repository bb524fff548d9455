"""Fused attention forward, online softmax: O = softmax(Q K^T * scale) V per (batch x head), with the heads flattened
into the leading axis of q, k, v, o [B*H, S, D]. Block (z, i) owns BM query rows of head z: it streams the keys and
values in BN-row tiles, keeps the running row max m and normalizer l in f32, rescales the f32 accumulator when the
max grows, and divides once at the end. Keys past the sequence end are masked to -1e30; with CAUSAL, so are keys
after the query (top-left aligned, as PyTorch's is_causal), and the key loop stops at the block's last query row.

grid = (B*H, cdiv(S, BM), 1); D is the whole head dimension.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q=bf16[?,?,?]/?,?,1, k=bf16[?,?,?]/?,?,1, v=bf16[?,?,?]/?,?,1, o=bf16[?,?,?]/?,?,1, scale=f32, "
                  "BM=#64, BN=#64, D=#128, CAUSAL=#true")


@ct.kernel(occupancy=2)  # 2 CTAs per SM: 1.3x faster (benchmarks/results/h200/triton/occupancy-attention.json)
def attention(q, k, v, o, scale: float, BM: ct.Constant[int], BN: ct.Constant[int], D: ct.Constant[int],
              CAUSAL: ct.Constant[bool]):
    z = ct.bid(0)
    i = ct.bid(1)
    tq = ct.reshape(ct.load(q, index=(z, i, 0), shape=(1, BM, D), padding_mode=ct.PaddingMode.ZERO), (BM, D))
    m = ct.full((BM, 1), -1.0e30, dtype=ct.float32)
    l = ct.full((BM, 1), 0, dtype=ct.float32)
    acc = ct.full((BM, D), 0, dtype=ct.float32)
    n_tiles = ct.num_tiles(k, axis=1, shape=(1, BN, D))
    if CAUSAL:
        n_tiles = ct.cdiv((i + 1) * BM, BN)   # no key after the block's last query row
    rows = i * BM + ct.arange(BM, dtype=ct.int32)
    for j in range(n_tiles):
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32)) * scale
        cols = j * BN + ct.arange(BN, dtype=ct.int32)
        s = ct.where(ct.reshape(cols, (1, BN)) < k.shape[1], s, -1.0e30)
        if CAUSAL:
            s = ct.where(ct.reshape(cols, (1, BN)) <= ct.reshape(rows, (BM, 1)), s, -1.0e30)
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = acc * alpha + ct.mma(ct.astype(p, q.dtype), tv, ct.full((BM, D), 0, dtype=ct.float32))
        m = m_new
    ct.store(o, index=(z, i, 0), tile=ct.reshape(ct.astype(acc / l, o.dtype), (1, BM, D)))
