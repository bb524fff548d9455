"""decode_combine: merge the split-KV partial results of decode attention. Row r (a (sequence, head) pair) has S
partial outputs o[r, s, :] (each already normalized by its own softmax sum) and their log-sum-exps lse[r, s] (natural
log of the split's sum of exp(scaled score)); the merged row is

    out[r] = sum_s w_s o[r, s] / sum_s w_s,   w_s = exp(lse[r, s] - max_s lse[r, s]).

Block i owns BR rows: it walks the splits once with a running max m, rescaling its f32 numerator (BR, D) and
denominator (BR, 1) whenever m grows (the online form of the formula above), then divides and casts once. An empty
split (lse = -inf or a very negative value such as -1e30, o = 0) adds nothing once any real split is seen; a row whose
splits are all empty comes out 0 (the denominator is guarded, and o is ignored where its weight is 0). Rows past N
read lse = -inf and o = 0 and are not stored.

grid = (cdiv(N, BR), 1, 1); o_parts [N, S, D], lse_parts [N, S] float32; any number of splits S; D is the whole row.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "o_parts=f32[?,?,?]/?,?,1, lse_parts=f32[?,?]/?,1, out=bf16[?,?]/?,1, BR=#8, D=#128"


@ct.kernel
def decode_combine(o_parts, lse_parts, out, BR: ct.Constant[int], D: ct.Constant[int]):
    i = ct.bid(0)
    m = ct.full((BR, 1), -1.0e30, dtype=ct.float32)
    den = ct.full((BR, 1), 0, dtype=ct.float32)
    acc = ct.full((BR, D), 0, dtype=ct.float32)
    for s in range(o_parts.shape[1]):
        lse = ct.load(lse_parts, index=(i, s), shape=(BR, 1), padding_mode=ct.PaddingMode.NEG_INF)
        part = ct.reshape(ct.load(o_parts, index=(i, s, 0), shape=(BR, 1, D), padding_mode=ct.PaddingMode.ZERO),
                          (BR, D))
        m_new = ct.maximum(m, lse)
        alpha = ct.exp(m - m_new)
        w = ct.exp(lse - m_new)
        den = den * alpha + w
        acc = acc * alpha + ct.where(w > 0.0, part, 0.0) * w
        m = m_new
    den = ct.where(den > 0.0, den, 1.0)
    ct.store(out, index=(i, 0), tile=ct.astype(acc / den, out.dtype))
