"""real_idioms6: Python statement forms other people write, in one kernel the port must prove.

Annotated assignments (`pid: int = ct.bid(0)`, `t: ct.Tile = ...`) and a `pass`; a function defined inside the
kernel (`def act(v)`, reading the kernel's `slope`: a closure) and a lambda bound to a name, each inlined where it
is called; a load and a store at one index that is not a tuple (`ct.load(x, pid, (B,))`); `a * b + lo` of two float
arguments and an int one (an fma of scalars, the int promoted, as cuTile Python contracts it); `~` of a boolean
mask; a `while` loop left by `break`.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/1, y=f32[?]/1, a=f32, b=f32, lo=i32, hi=i32, B=#256"


@ct.kernel
def real_idioms6(x, y, a: float, b: float, lo: int, hi: int, B: ct.Constant[int]):
    def act(v):
        return ct.maximum(v, 0.0) * slope

    sq = lambda v: v * v  # noqa: E731

    slope = a + 1.0
    pid: int = ct.bid(0)
    t: ct.Tile = ct.load(x, pid, (B,), padding_mode=ct.PaddingMode.ZERO)
    if B > 4096:
        pass
    c = a * b + lo
    k = 0
    acc = ct.zeros((B,), dtype=ct.float32)
    while k < hi:
        acc = acc + ct.load(x, (k,), (B,), padding_mode=ct.PaddingMode.ZERO)
        if ct.max(acc) > a:
            break
        k += 1
    r = pid * B + ct.arange(B, dtype=ct.int32)
    outside = ~((r >= lo) & (r < hi))
    ct.store(y, pid, ct.where(outside, act(t), sq(t) * c) + acc)
