"""real_online_lse: a cross-entropy forward in the style of LLM kernel libraries, in one kernel the port must prove.

The row's log-sum-exp kept online over vocabulary chunks (a running max started at `-float("inf")` through
`ct.full`, the sum rescaled by `exp(m - m_new)`), chunks read past the row's end as -inf, the label's logit picked by
a rank-2 gather at (row, label), and the loss `lse - picked` stored. `-float("inf")` is folded to the constant, as
Python folds it (a negation of a 0-d constant would not be cuTile Python's IR).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "logits=f32[?,?], labels=i32[?], loss=f32[?], V=#32000, BV=#1024"


@ct.kernel
def real_online_lse(logits, labels, loss, V: ct.Constant[int], BV: ct.Constant[int]):
    r = ct.bid(0)
    m = ct.full((1,), -float("inf"), dtype=ct.float32)
    s = ct.zeros((1,), dtype=ct.float32)
    for j in range(ct.cdiv(V, BV)):
        x = ct.load(logits, index=(r, j), shape=(1, BV), padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
        x = ct.reshape(x, (BV,))
        m_new = ct.maximum(m, ct.max(x, axis=0, keepdims=True))
        s = s * ct.exp(m - m_new) + ct.sum(ct.exp(x - m_new), axis=0, keepdims=True)
        m = m_new
    label = ct.load(labels, index=(r,), shape=(1,))
    picked = ct.gather(logits, (r, label)).astype(ct.float32)
    ct.store(loss, index=(r,), tile=m + ct.log(s) - picked)
