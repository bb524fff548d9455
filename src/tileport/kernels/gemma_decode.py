"""gemma_decode: the split-KV phase of gemma-style decode attention — one query token per sequence against its KV
cache, with logit soft-capping (s = cap * tanh(s / cap) on the scaled scores, before masking) and a sliding window
(sequence b of length len attends to the keys at positions lo .. len-1, lo = max(len - W, 0)).

Block (b, h, s) serves key/value head h of sequence b and split s of its attended keys. The G query heads that
share the key/value head are the rows of its query tile: q [B, Hkv, G, D], rows c*GP .. c*GP+GP-1 (chunk c),
zero-padded to GP rows. The key tiles of BN keys that meet the window are floor(lo/BN) .. cdiv(len, BN)-1 (the
ones before it are skipped by the loop bounds, not masked); split s takes T of them from floor(lo/BN) + s*T on.
Inside, keys outside [lo, len) are masked to -1e30. With SOFTCAP the scores are cap * tanh(q.k * qk_scale), where
the host passes qk_scale = scale / cap; without, q.k * qk_scale (qk_scale = scale). An online softmax in f32 streams
the tiles; the block writes its normalized partial output o = acc / l and lse = m + log(l) (natural log) into the
f32 scratch o_part [N*S*D] and lse_part [N*S] (flat; row n = (b*Hkv + h)*G + g of decode_combine's [N, S, D] /
[N, S] layout, split s) by scatter, rows past G masked. An empty split writes o = 0, lse = -1e30. decode_combine
then merges the S = grid[2] splits.

grid = (B, Hkv, S); k, v [B, Hkv, Smax, D]; len = seq_lens[b] clamped to Smax; W >= 0 (the host passes Smax for
no window), T and c runtime arguments; D the whole head dim; N*S*D < 2^31 (int32 offsets).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q=bf16[?,?,?,?]/?,?,?,1, k=bf16[?,?,?,?]/?,?,?,1, v=bf16[?,?,?,?]/?,?,?,1, seq_lens=i32[?]/1, "
                  "o_part=f32[?]/1, lse_part=f32[?]/1, qk_scale=f32, cap=f32, W=i32, T=i32, c=i32, GP=#16, BN=#32, "
                  "D=#256, SOFTCAP=#true")


@ct.kernel(occupancy=2)
def gemma_decode(q, k, v, seq_lens, o_part, lse_part, qk_scale: float, cap: float, W: int, T: int, c: int,
                 GP: ct.Constant[int], BN: ct.Constant[int], D: ct.Constant[int], SOFTCAP: ct.Constant[bool]):
    b = ct.bid(0)
    h = ct.bid(1)
    s = ct.bid(2)
    n = ct.load(seq_lens, index=(b,), shape=(1,)).item()
    if n > k.shape[2]:
        n = k.shape[2]   # a length past the cache counts as the whole cache
    if n < 0:
        n = 0            # so that no tile is visited: each visited tile holds a key to attend (else p = exp(0))
    lo = n - W
    if lo < 0:
        lo = 0
    j0 = ct.cdiv(lo + 1, BN) - 1 + s * T   # floor(lo / BN): the first tile that meets the window
    j1 = j0 + T
    n_tiles = ct.cdiv(n, BN)
    if j1 > n_tiles:
        j1 = n_tiles
    tq = ct.reshape(ct.load(q, index=(b, h, c, 0), shape=(1, 1, GP, D), padding_mode=ct.PaddingMode.ZERO), (GP, D))
    m = ct.full((GP, 1), -1.0e30, dtype=ct.float32)
    l = ct.full((GP, 1), 0, dtype=ct.float32)
    acc = ct.full((GP, D), 0, dtype=ct.float32)
    for j in range(j0, j1):
        tk = ct.reshape(ct.load(k, index=(b, h, j, 0), shape=(1, 1, BN, D), padding_mode=ct.PaddingMode.ZERO),
                        (BN, D))
        tv = ct.reshape(ct.load(v, index=(b, h, j, 0), shape=(1, 1, BN, D), padding_mode=ct.PaddingMode.ZERO),
                        (BN, D))
        sc = ct.mma(tq, ct.transpose(tk), ct.full((GP, BN), 0, dtype=ct.float32)) * qk_scale
        if SOFTCAP:
            sc = cap * ct.tanh(sc)
        cols = ct.reshape(j * BN + ct.arange(BN, dtype=ct.int32), (1, BN))
        sc = ct.where((cols >= lo) & (cols < n), sc, -1.0e30)
        m_new = ct.maximum(m, ct.max(sc, axis=1, keepdims=True))
        p = ct.exp(sc - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = acc * alpha + ct.mma(ct.astype(p, q.dtype), tv, ct.full((GP, D), 0, dtype=ct.float32))
        m = m_new
    l = ct.where(l > 0.0, l, 1.0)   # an empty split: acc = 0 -> o = 0, m = -1e30 -> lse = -1e30
    g = c * GP + ct.arange(GP, dtype=ct.int32)
    valid = ct.reshape(g < q.shape[2], (GP, 1))
    at = ct.reshape(((b * q.shape[1] + h) * q.shape[2] + g) * ct.num_blocks(2) + s, (GP, 1))
    ct.scatter(lse_part, at, m + ct.log(l), mask=valid)
    ct.scatter(o_part, at * D + ct.reshape(ct.arange(D, dtype=ct.int32), (1, D)), acc / l, mask=valid)
