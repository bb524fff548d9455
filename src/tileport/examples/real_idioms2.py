"""real_idioms2: more of how other people write cuTile Python, in one kernel the port must prove.

A kernel that stops early on a constant (`if H == 0: return`); a grid-stride `while` loop accumulating with `+=`;
a helper called with keyword arguments and a default left out, that returns early under an `if` on a constant
(cuTile Python compiles that as a one-trip loop: irdiff's single-break-loop) and one returning early under an
`if` on a runtime value (single-trip-loop-if); `ct.isnan` in a `ct.where`; a
`ct.cat` along a negative axis of a negated and a plain row; `ct.bitwise_not` and a shift of integer scalars
(`1 << (pid % 31)`); a rank-4 tile permuted in registers and stored at the block's index (cutile has no
block-owned store above rank 3: the full tensor's partition); a float tile's bits read with `ct.bitcast` and its
exponent taken with shifts and masks, an integer tile's `ct.abs`; a `ct.static_iter` loop (unrolled in place).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("x=f32[?]/1, bits=i32[?]/1, q=f16[?,?,?,?]/?,?,?,1, y=f32[?]/1, z=f32[?,?]/?,1, w=i32[?]/1, "
                  "o=f16[?,?,?,?]/?,?,?,1, n=i32, B=#128, KIND=#1, H=#4")


def _gate(v, kind: int = 0, scale=1.0):
    if kind == 1:
        return v / (1.0 + ct.exp(-v)) * scale
    return ct.maximum(v, 0.0) * scale


@ct.function
def _clip(v, hi):
    if hi > 0:
        return ct.minimum(v, 1.0)
    return v


@ct.kernel
def real_idioms2(x, bits, q, y, z, w, o, n: int, B: ct.Constant[int], KIND: ct.Constant[int],
                 H: ct.Constant[int]):
    if H == 0:
        return
    pid = ct.bid(0)
    acc = ct.zeros((B,), dtype=ct.float32)
    k = pid
    while k < n:
        acc += ct.load(x, index=(k,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
        k += ct.num_blocks(0)
    for h in ct.static_iter(range(H)):
        acc = acc + (h + 1) * 0.25
    acc = _clip(_gate(acc, scale=0.5, kind=KIND), n)
    acc = ct.where(ct.isnan(acc), 0.0, acc)
    ct.store(y, index=(pid,), tile=acc)
    ct.store(z, index=(pid, 0), tile=ct.cat((-acc[None, :], acc[None, :]), axis=-1))
    ib = ct.load(bits, index=(pid,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    ex = ((ct.bitcast(acc, ct.int32) >> 23) & 0xFF) - 127
    ct.store(w, index=(pid,), tile=ct.bitwise_not(ib) ^ (1 << (pid % 31)) + ct.abs(ex))
    t4 = ct.load(q, index=(pid, 0, 0, 0), shape=(1, 2, H, 16), padding_mode=ct.PaddingMode.ZERO)
    ct.store(o, index=(pid, 0, 0, 0), tile=ct.permute(t4, (0, 2, 1, 3)))
