"""MLA decode (DeepSeek-style multi-head latent attention, the absorbed form) against a compressed latent KV cache,
split-KV: one query token per batch, H heads. s[h, j] = scale * (q_nope[h] . ckv[j] + q_pe[h] . kpe[j]) over the
cached positions j < seq_lens[b]; o[h] = softmax(s[h]) @ ckv (the latent cache is the values too).

Layouts: q_nope [B, H, DC], q_pe [B, H, DR], ckv [B, Smax, DC], kpe [B, Smax, DR], seq_lens [B] int32; the outputs
o [B, H, NS*DC] (split sp of head h at o[b, h, sp*DC:(sp+1)*DC]: the memory of [B*H, NS, DC]) and lse [B, H, NS]
float32. Heads are the rows of the query tile: block (b, hb, sp) owns heads hb*BM .. hb*BM+BM-1 of batch b (rows
past H are zero-padded and not stored) and split sp of the NS = num_blocks(2) splits: the cdiv(seq_lens[b], BN) key
tiles of its batch are cut into NS runs of cdiv(tiles, NS) (the last runs shorter or empty). Per key tile, two
mma's (latent part, rotary part) into one f32 score tile; keys at or past seq_lens[b] are masked to -1e30; online
softmax with f32 running max m and normaliser l; the f32 accumulator [BM, DC] is rescaled by the mma itself
(acc * alpha is its accumulator input). The block stores its split's output normalised by its own sum (o = acc / l,
0 for an empty split) and the natural-log LSE of its scaled scores (m + log l, -inf for an empty split). With
NS = 1 and o of the input dtype, o [B, H, DC] is the final result; otherwise a combine pass merges the splits.

seq_lens[b] is clamped to [0, Smax]. Cache rows at positions >= seq_lens[b] are read (with weight 0) and must hold
finite values. grid = (B, cdiv(H, BM), NS).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q_nope=bf16[?,?,?]/?,?,1, q_pe=bf16[?,?,?]/?,?,1, ckv=bf16[?,?,?]/?,?,1, kpe=bf16[?,?,?]/?,?,1, "
                  "seq_lens=i32[?]/1, o=f32[?,?,?]/?,?,1, lse=f32[?,?,?]/?,?,1, scale=f32, BM=#64, BN=#64, DC=#512, "
                  "DR=#64")


# 8 worker warps: the [64, 512] f32 accumulator of a 64-head tile spread over twice the registers (2.8x faster at
# B=64, H=128, Smax=8192 on the H200; occupancy 2 lost: benchmarks/results/h200/attention-tiles)
@ct.kernel(occupancy=1, num_worker_warps=8)
def mla_decode(q_nope, q_pe, ckv, kpe, seq_lens, o, lse, scale: float, BM: ct.Constant[int], BN: ct.Constant[int],
               DC: ct.Constant[int], DR: ct.Constant[int]):
    b = ct.bid(0)
    hb = ct.bid(1)
    sp = ct.bid(2)
    n = ct.load(seq_lens, index=(b,), shape=(1,)).item()
    if n > ckv.shape[1]:
        n = ckv.shape[1]
    if n < 0:
        n = 0
    n_tiles = ct.cdiv(n, BN)
    per = ct.cdiv(n_tiles, ct.num_blocks(2))
    start = sp * per
    stop = start + per
    if stop > n_tiles:
        stop = n_tiles
    tqn = ct.reshape(ct.load(q_nope, index=(b, hb, 0), shape=(1, BM, DC), padding_mode=ct.PaddingMode.ZERO),
                     (BM, DC))
    tqp = ct.reshape(ct.load(q_pe, index=(b, hb, 0), shape=(1, BM, DR), padding_mode=ct.PaddingMode.ZERO), (BM, DR))
    m = ct.full((BM, 1), -1.0e30, dtype=ct.float32)
    l = ct.full((BM, 1), 0, dtype=ct.float32)
    acc = ct.full((BM, DC), 0, dtype=ct.float32)
    for j in range(start, stop):
        tk = ct.reshape(ct.load(ckv, index=(b, j, 0), shape=(1, BN, DC), padding_mode=ct.PaddingMode.ZERO), (BN, DC))
        tp = ct.reshape(ct.load(kpe, index=(b, j, 0), shape=(1, BN, DR), padding_mode=ct.PaddingMode.ZERO), (BN, DR))
        s = ct.mma(tqn, ct.transpose(tk), ct.full((BM, BN), 0, dtype=ct.float32))
        s = ct.mma(tqp, ct.transpose(tp), s) * scale
        cols = j * BN + ct.arange(BN, dtype=ct.int32)
        s = ct.where(ct.reshape(cols, (1, BN)) < n, s, -1.0e30)
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = ct.mma(ct.astype(p, ckv.dtype), tk, acc * alpha)
        m = m_new
    # every processed tile has a key < n, so l >= 1 after it; l == 0 only for an empty split
    ct.store(o, index=(b, hb, sp), tile=ct.reshape(ct.astype(acc / ct.where(l > 0, l, 1.0), o.dtype), (1, BM, DC)))
    ct.store(lse, index=(b, hb, sp), tile=ct.reshape(m + ct.log(l), (1, BM, 1)))
