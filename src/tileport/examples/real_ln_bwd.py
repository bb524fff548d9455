"""real_ln_bwd: a LayerNorm backward as LLM code writes it, in one kernel the port must prove.

Each block takes one row: it stores dx, then adds its row's share of dw and db into rank-1 accumulators with
`ct.atomic_add` (acq_rel, the default). cuTile Python orders each releasing atomic after every earlier write (it
joins the dx store's token, then the dw atomic's into db's); the port stores dx through the full tensor's
partition to hold that token and joins it as cuTile Python does.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, dy=f32[?,?]/?,1, w=f32[?]/1, dx=f32[?,?]/?,1, dw=f32[?]/1, db=f32[?]/1, eps=f32, N=#1024"


@ct.kernel
def real_ln_bwd(x, dy, w, dx, dw, db, eps: float, N: ct.Constant[int]):
    row = ct.bid(0)
    xt = ct.load(x, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    g = ct.load(dy, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    wt = ct.load(w, index=(0,), shape=(N,), padding_mode=ct.PaddingMode.ZERO).reshape((1, N))
    mean = ct.sum(xt, axis=1, keepdims=True) / N
    xc = xt - mean
    rstd = ct.rsqrt(ct.sum(xc * xc, axis=1, keepdims=True) / N + eps)
    xhat = xc * rstd
    gw = g * wt
    c1 = ct.sum(xhat * gw, axis=1, keepdims=True) / N
    c2 = ct.sum(gw, axis=1, keepdims=True) / N
    ct.store(dx, index=(row, 0), tile=(gw - (xhat * c1 + c2)) * rstd)
    cols = ct.arange(N, dtype=ct.int32)
    ct.atomic_add(dw, cols, (g * xhat).reshape((N,)))
    ct.atomic_add(db, cols, g.reshape((N,)))
