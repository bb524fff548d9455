"""real_inplace: a cross-entropy backward that writes its gradient over the logits it reads, through views.

The logits row is read four ways and written over in place: one element gathered at the label (before anything is
written), an online logsumexp over its column blocks, a second loop that reads each block and stores the gradient
at the same index, and, under a runtime `if`, the first block read back and scaled (a load after a store of the
same tile). cuTile Python orders these accesses by two tokens per array (each load after the last store, each store
after every access since); the port carries the same two (`zz_logits_token`, `zz_logits_wtoken`) through the loops
and the `if`, so every access keeps its view (and TMA) instead of turning into a gather.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "logits=f32[?,?]/?,1, labels=i32[?]/1, loss=f32[?]/1, scale=f32, B=#256"

NEG_INF = ct.PaddingMode.NEG_INF


@ct.kernel
def real_inplace(logits, labels, loss, scale: float, B: ct.Constant[int]):
    row = ct.bid(0)
    blocks = ct.cdiv(logits.shape[1], B)
    y = ct.load(labels, index=(row,), shape=(1,))
    x_y = ct.gather(logits, (row, ct.reshape(y, ())))
    m = ct.full((), float("-inf"), dtype=ct.float32)
    d = ct.full((), 0.0, dtype=ct.float32)
    for i in range(blocks):
        x = ct.load(logits, index=(row, i), shape=(1, B), padding_mode=NEG_INF)
        m_new = ct.maximum(m, ct.max(x))
        d = d * ct.exp(m - m_new) + ct.sum(ct.exp(x - m_new))
        m = m_new
    for i in range(blocks):
        x = ct.load(logits, index=(row, i), shape=(1, B), padding_mode=NEG_INF)
        cols = ct.reshape(i * B + ct.arange(B, dtype=ct.int32), (1, B))
        g = ct.exp(x - m) / d
        ct.store(logits, index=(row, i), tile=ct.where(cols == ct.reshape(y, (1, 1)), g - 1.0, g))
    if scale != 1.0:
        first = ct.load(logits, index=(row, 0), shape=(1, B), padding_mode=ct.PaddingMode.ZERO)
        ct.store(logits, index=(row, 0), tile=first * scale)
    ct.store(loss, index=(row,), tile=ct.reshape(m + ct.log(d) - x_y, (1,)))
