"""real_lists: a grouped matrix product over lists of arrays (`List[Array]` parameters), as MoE and LoRA layers use.

Group g multiplies Xs[g] [M_g, K_g] by Ws[g] [K_g, N_g] into Ys[g] [M_g, N_g]; the groups' shapes differ. The grid is
persistent: block b takes output tiles b, b + NB, b + 2 NB, ... of the concatenated tile space of all groups, so a
block walks the groups in order and works on the tiles of a group that fall into its stride (`while` on two
conditions). Each item is taken once per group (`x = Xs[g]`), its extents read from `x.shape`, its tiles counted with
`ct.num_tiles`, and the stored tile cast to the output item's own dtype.

grid = (NB, 1, 1).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("Xs=list[f16[?,?]/?%8,1&16], Ws=list[f16[?,?]/?%8,1&16], Ys=list[f16[?,?]/?%8,1&16], "
                  "BM=#64, BN=#64, BK=#32, NB=#132")


@ct.kernel
def real_lists(Xs, Ws, Ys, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
               NB: ct.Constant[int]):
    t = ct.bid(0)
    first = 0   # the first tile index of the current group in the concatenated tile space
    for g in range(len(Ys)):
        x = Xs[g]
        w = Ws[g]
        y = Ys[g]
        tiles_n = ct.cdiv(y.shape[1], BN)
        count = ct.num_tiles(y, axis=0, shape=(BM, BN)) * tiles_n
        while t >= first and t < first + count:
            local = t - first
            acc = ct.zeros((BM, BN), dtype=ct.float32)
            for kk in range(ct.num_tiles(x, axis=1, shape=(BM, BK))):
                a = ct.load(x, index=(local // tiles_n, kk), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)
                b = ct.load(w, index=(kk, local % tiles_n), shape=(BK, BN), padding_mode=ct.PaddingMode.ZERO)
                acc = ct.mma(a, b, acc)
            ct.store(y, index=(local // tiles_n, local % tiles_n), tile=acc.astype(y.dtype))
            t += NB
        first += count
