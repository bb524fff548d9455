"""real_idioms: how kernels written by other people are shaped, in one kernel the port must prove.

The kernel is a thin entry that calls an undecorated implementation helper as a statement (the helper receives the
arrays); the helper has a parameter named like one of the kernel's constants but bound to another value; a loop
with a causal test on its index (cuTile Python splits it) and a multiply-add it contracts across two assignments of
one name (`acc = acc * 2.0` ... `acc = acc + row`); a row index computed
from a constant product (`b * (H * T)`) inside a tile expression; a running sum of reductions carried by a loop;
an `if` on a constant whose arm not taken changes a name's type; one element loaded with `shape=()`; a tile extent
computed from constants (`N * N`); a gather at scalar indices; a loop that only reads an array written after it;
a loop that gathers and scatters one array and re-assigns a value nobody reads after it; a store at an index
varying with an inner loop of a persistent loop.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("x=f32[?,?]/?,1, cnt=i32[?]/1, y=f32[?,?]/?,1, s=f32[?]/1, z=f32[?,?]/?,1, "
                  "H=#4, T=#64, N=#4, STAGE=#3, WIDE=#0")


def _rows(x, y, cnt, s, bid, H, T, N, STAGE, WIDE):
    b = bid // H
    acc = ct.zeros((T,), dtype=ct.float32)
    total = ct.zeros((T,), dtype=ct.float32)
    mask_start = STAGE - 1
    for j in range(0, STAGE + 1):
        row = ct.load(x, index=(j, 0), shape=(1, T), padding_mode=ct.PaddingMode.ZERO).reshape((T,))
        if j >= mask_start:
            row = row * 0.5
        acc = acc * 2.0
        total = total + ct.sum(ct.reshape(row, (T, 1)), axis=1)
        acc = acc + row
    first = ct.load(x, index=(0, 0), shape=())
    square = ct.load(x, index=(0, 0), shape=(1, N * N)).reshape((N * N,))
    one = ct.gather(x, (bid, 0), check_bounds=False)
    if WIDE:
        acc = acc[None, :]
    out = acc + total + first + one + ct.sum(square, axis=0)
    idx = b * (H * T) + ct.arange(T, dtype=ct.int32)
    ct.scatter(s, idx, out)
    seen = ct.zeros((1,), dtype=ct.int32)
    for i in range(N):   # reads cnt only; the writes of the next loop are ordered after these reads
        seen = seen + ct.gather(cnt, ct.full((1,), i, dtype=ct.int32), padding_value=0)
    ct.scatter(cnt, ct.zeros((1,), dtype=ct.int32), seen)
    for i in range(N):
        at = ct.full((1,), i, dtype=ct.int32)
        seen = ct.gather(cnt, at, padding_value=0)
        ct.scatter(cnt, at, seen + ct.ones((1,), dtype=ct.int32))
    ct.store(y, index=(bid, 0), tile=ct.reshape(out, (1, T)))


@ct.kernel
def real_idioms(x, cnt, y, s, z, H: ct.Constant[int], T: ct.Constant[int], N: ct.Constant[int],
                STAGE: ct.Constant[int], WIDE: ct.Constant[int]):
    bid = ct.bid(0)
    stage = STAGE - 1
    _rows(x, y, cnt, s, bid, H, T, N, stage, WIDE)
    for r in range(bid, H, ct.num_blocks(0)):   # persistent; each inner iteration stores its own tile of z
        for t in range(N):
            ct.store(z, index=(r, t), tile=ct.full((1, T), 1.0, dtype=ct.float32))
