"""real_carried_facts: values loops carry that are multiples of a power of two at every iteration.

A block sums tiles of `x` at offsets its loops carry: `off` starts at 0 and is either `pid * B` or `off + 2 * B`
after each iteration (a multiple of B = 128 either way), `b` and `d` swap through a temporary (`d * 8` and `b`:
multiples of 16 and 4), `e` moves by `+ 64` or `- 96` in a nested `while` (a multiple of 32 from `pid * 32`), the
`while`'s own `k` steps by 4 from `i * 2` (a multiple of 2), and an int32 tile `cnt` grows by 8 from zeros.
cuTile Python's dataflow analysis finds each of these facts (joining the values an `if` or an iteration gives) and
states `assume div_by<P>` on the loop's parameter first thing in the body (a `while`: before its test); every read in
the body takes the assumed value. The port states the same facts (`x = unsafe { assume_div_by::<_, P>(x) }`).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/16, y=f32[?]/16, n=i32, B=#128"


@ct.kernel
def real_carried_facts(x, y, n: int, B: ct.Constant[int]):
    pid = ct.bid(0)
    three = 3
    a = 0
    b = 16
    d = 4
    e = pid * 32
    off = 0
    acc = ct.zeros((B,), dtype=ct.float32)
    cnt = ct.zeros((B,), dtype=ct.int32)
    for i in range(ct.cdiv(n, B)):
        acc = acc + ct.load(x, index=(off // B,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
        cnt = cnt + 8
        if i == 3:
            off = pid * B
        else:
            off = off + 2 * B
        t = b
        b = d * 8
        d = t
        k = i * 2
        while k < n:
            e = e + 64 if k > 5 else e - 96
            acc = acc + ct.load(x, index=((e + a + b + d) // B,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
            k = k + 4
        a = three + 1
    ct.store(y, index=(pid,), tile=acc + ct.astype(cnt, ct.float32))
