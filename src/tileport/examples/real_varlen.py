"""real_varlen: variable-length ("varlen") attention over packed sequences, with `Array.slice`.

The sequences of a batch are packed one after another along the token axis of q, k, v, o [T, H, D]; cu_seqlens
[B + 1] holds where each starts (cu_seqlens[b] .. cu_seqlens[b + 1]). Block (i, b, h) owns the BM query rows
i*BM .. of sequence b, head h. Each array is cut to the sequence with `x.slice(axis=0, start=.., stop=..)`: a view of
the same memory whose extent is the sequence's length, so the sequence end is the natural bound of every padded
load (no key or query of the next sequence is ever read) and of every store (no row past the end is written). The
key loop masks the scores of the last, partial tile. The start comes from `ct.load(.., shape=()).item()`, the end
from `ct.gather`: both forms varlen kernels use.

grid = (cdiv(max_seqlen, BM), B, H).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q=f16[?,?,?]/?,?,1, k=f16[?,?,?]/?,?,1, v=f16[?,?,?]/?,?,1, o=f16[?,?,?]/?,?,1, "
                  "cu_seqlens=i32[?]/1, scale=f32, BM=#64, BN=#64, D=#64")


@ct.kernel
def real_varlen(q, k, v, o, cu_seqlens, scale: float, BM: ct.Constant[int], BN: ct.Constant[int],
                D: ct.Constant[int]):
    i = ct.bid(0)
    b = ct.bid(1)
    h = ct.bid(2)
    start = ct.load(cu_seqlens, index=(b,), shape=()).item()
    end = ct.gather(cu_seqlens, b + 1)
    q_seq = q.slice(axis=0, start=start, stop=end)
    seqlen = q_seq.shape[0]
    if i * BM >= seqlen:   # this sequence is shorter than the block's first row
        return
    k_seq = k.slice(axis=0, start=start, stop=end)
    v_seq = v.slice(axis=0, start=start, stop=end)
    o_seq = o.slice(axis=0, start=start, stop=end)
    tq = ct.reshape(ct.load(q_seq, index=(i, h, 0), shape=(BM, 1, D), padding_mode=ct.PaddingMode.ZERO), (BM, D))
    m = ct.full((BM, 1), -1.0e30, dtype=ct.float32)
    l = ct.zeros((BM, 1), dtype=ct.float32)
    acc = ct.zeros((BM, D), dtype=ct.float32)
    for j in range(ct.num_tiles(k_seq, axis=0, shape=(BN, 1, D))):
        tk = ct.reshape(ct.load(k_seq, index=(j, h, 0), shape=(BN, 1, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        tv = ct.reshape(ct.load(v_seq, index=(j, h, 0), shape=(BN, 1, D), padding_mode=ct.PaddingMode.ZERO), (BN, D))
        s = ct.mma(tq, ct.transpose(tk), ct.zeros((BM, BN), dtype=ct.float32)) * scale
        keys = j * BN + ct.arange(BN, dtype=ct.int32)
        s = ct.where(keys[None, :] < seqlen, s, -1.0e30)   # keys past the sequence's end
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = ct.mma(ct.astype(p, ct.float16), tv, acc * alpha)
        m = m_new
    out = ct.astype(acc / l, ct.float16)
    ct.store(o_seq, index=(i, h, 0), tile=ct.reshape(out, (BM, 1, D)))
