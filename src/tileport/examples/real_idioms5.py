"""real_idioms5: tiles used as Python objects, in one kernel the port must prove.

`a @ b` of two f16 tiles (Tile.__matmul__: ct.matmul) stored into an f32 array without a cast (cuTile Python widens
a stored tile to the array's dtype, as ct.astype does; it refuses a narrowing one); a tile's `.shape` and
`.shape[k]` (static: a const generic or a literal) and `.ndim` in a constant test; an index and a shape bound to
names once (`at = (i, 0)`, `shape = (BM, BK)`) and passed on; a helper's two results kept under one name and read as
`res[0]`, `res[1]`; `min(BM, BN)` of constants as an extent.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("a=f16[?,?]/?,1, b=f16[?,?]/?,1, c=f32[?,?]/?,1, mean=f32[?,?]/?,1, BM=#64, BN=#64, BK=#64")


@ct.function
def _extremes(t):
    return ct.max(t), ct.min(t)


@ct.kernel
def real_idioms5(a, b, c, mean, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    at = (i, 0)
    shape = (BM, BK)
    ta = ct.load(a, at, shape, padding_mode=ct.PaddingMode.ZERO)
    tb = ct.load(b, (0, j), (BK, BN), padding_mode=ct.PaddingMode.ZERO)
    r = ta @ tb
    ct.store(c, (i, j), r)
    acc = ct.zeros(r.shape, dtype=ct.float32)
    acc = acc + r.astype(acc.dtype) * (1.0 / ta.shape[1])
    if acc.ndim == 2:
        acc = ct.sum(acc, axis=1, keepdims=True)
    res = _extremes(acc)
    ct.store(mean, (i, j), (acc - res[1]) / (res[0] - res[1]) + ct.zeros((min(BM, BN), 1), dtype=ct.float32))
