"""real_argmax: arg-max / arg-min as real kernels use them — greedy decoding's token pick over a row of logits, the
nearest centroid by squared distance (`ct.argmin`), a vote counted in uint32 along the other axis with keepdims,
an f16 row, and with no axis a 1-d tile and a 2-d one (the flat index).

cuTile Python compiles `ct.argmax` to one Tile IR reduce of the values and their indices (a comparison body), which
cutile 0.3.1 cannot write; the port reduces the values, then takes the least index where the row equals its best
(or, no value being a number, index 0): irdiff rule argmax-two-reductions (coverage row argmax).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("logits=f32[?,?]/?,1, pts=f32[?,?]/?,1, cents=f32[?,?]/?,1, votes=u32[?,?]/?,1, "
                  "h=f16[?,?]/?,1, tok=i32[?]/1, near=i32[?,?]/?,1, win=i32[?,?]/?,1, hpick=i32[?]/1, "
                  "flat=i32[?]/1, flat2=i32[?,?]/?,1, V=#64, C=#16, D=#16")


@ct.kernel
def real_argmax(logits, pts, cents, votes, h, tok, near, win, hpick, flat, flat2, V: ct.Constant[int],
                C: ct.Constant[int], D: ct.Constant[int]):
    row = ct.bid(0)
    scores = ct.load(logits, index=(row, 0), shape=(1, V), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(tok, index=(row,), tile=ct.reshape(ct.argmax(scores, axis=1), (1,)))
    p = ct.load(pts, index=(row, 0), shape=(C, D), padding_mode=ct.PaddingMode.ZERO)
    c = ct.load(cents, index=(0, 0), shape=(C, D), padding_mode=ct.PaddingMode.ZERO)
    dist = ct.sum((p - c) * (p - c), axis=1, keepdims=True)
    ct.store(near, index=(row, 0), tile=ct.argmin(ct.reshape(dist, (1, C)), 1, keepdims=True))
    v = ct.load(votes, index=(0, row), shape=(C, D))
    ct.store(win, index=(0, row), tile=ct.argmax(v, axis=0, keepdims=True))
    hr = ct.load(h, index=(row, 0), shape=(C, D))
    ct.store(hpick, index=(row,), tile=ct.argmax(hr, 1))
    ct.store(flat, index=(row,), tile=ct.reshape(ct.argmin(ct.reshape(p, (C * D,))), (1,)))
    ct.store(flat2, index=(row, 0), tile=ct.argmax(p, keepdims=True))
