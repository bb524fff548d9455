"""real_syntax: Python spellings people use in cuTile kernels, in one kernel the port must prove.

Array annotations (`x: ct.Array`); `M, N = x.shape`; a conditional expression on runtime scalars
(`2.0 if i < lo else 0.5`); `and`, `or` and `not` on runtime comparisons and a chained comparison
(`lo <= i < hi`) — each compiled by cuTile Python as short-circuit `if`s yielding the value (`not` as `^ true`),
which the port writes the same way; a block past the rows stops early (`if i * BM >= M: return`: the rest of the
kernel is the `else` arm, irdiff's early-return-else); a loop over the block's rows that stops with `break` (cuTile Python's for_loop_break: a
carried flag) and skips one with `continue`, storing each row in one of two ways in the arms of a runtime `if`
(`if r % 2 == 0: store(..) else: store(..)`).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, y=f32[?,?]/?,1, u=f32[?,?]/?,1, lo=i32, hi=i32, BM=#32, BN=#128"


@ct.kernel
def real_syntax(x: ct.Array, y: ct.Array, u: ct.Array, lo: int, hi: int, BM: ct.Constant[int],
                BN: ct.Constant[int]):
    M, N = x.shape
    i = ct.bid(0)
    j = ct.bid(1)
    if i * BM >= M:
        return
    t = ct.load(x, index=(i, j), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
    scale = 2.0 if i < lo else 0.5
    if i * BM < M and j * BN < N:
        t = t * scale
    if lo <= i < hi:
        t = t + 1.0
    if not (i < lo or i > hi):
        t = t - 1.0
    ct.store(y, index=(i, j), tile=t)
    for r in range(i * BM, M):
        if r * 2 >= (i + 1) * BM * 2:
            break
        if r == hi:
            continue
        row = ct.load(x, index=(r, j), shape=(1, BN), padding_mode=ct.PaddingMode.ZERO)
        if r % 2 == 0:
            ct.store(u, index=(r, j), tile=row * 2.0)
        else:
            ct.store(u, index=(r, j), tile=row)
