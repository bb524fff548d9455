"""real_idioms3: a third set of other people's habits, in one kernel the port must prove.

A `ct.static_assert` on the constants; a row's extent read from the array's last dimension (`x.shape[-1]`) and
claimed divisible (`ct.assume_divisible_by`), a loop to its `ct.cdiv`; `x ** 2.0` (ct.pow); a reduction over every
axis of a 2-D tile (`ct.max(acc)`) and over a tuple of axes (`axis=(0, 1)`: axis 0 once per axis, as cuTile Python
does); a clamp bound chosen by a conditional expression on a bool constant and negated (`-hi`: folded); an fp8
quantized store guarded by a runtime `if`; a store followed by a relaxed `ct.atomic_add` into a rank-1
accumulator (relaxed: not ordered after the store, as cuTile Python's token order has it); a tile filled with
`float("-inf")`; a name first bound in both arms of an `if` on a float argument compared with `!=` (unordered, as
in Python); a gather at 64-bit indices computed with an i32 scalar stride (widened, as Python promotes it); a
load and a store with `check_bounds=False` (irdiff's inbounds-hint).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("x=f32[?,?]/?,1, y=f32[?,?]/?,1, q=f8e4m3fn[?,?]/?,1, peak=f32[?]/1, ids=i32[?]/1, src=f32[?]/1, "
                  "g=f32[?]/1, n_rows=i32, alpha=f32, stride=i32, BM=#16, BN=#128, SAT=#true")


@ct.kernel
def real_idioms3(x, y, q, peak, ids, src, g, n_rows: int, alpha: float, stride: int, BM: ct.Constant[int],
                 BN: ct.Constant[int], SAT: ct.Constant[bool]):
    ct.static_assert(BN % 16 == 0, "BN must be a multiple of 16")
    i = ct.bid(0)
    n = ct.assume_divisible_by(x.shape[-1], 16)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for j in range(ct.cdiv(n, BN)):
        t = ct.load(x, index=(i, j), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
        acc += t ** 2.0
    acc += ct.load(x, index=(i, 0), shape=(BM, BN), check_bounds=False)
    hi = 448.0 if SAT else 1e30
    clipped = ct.minimum(ct.maximum(acc - ct.sum(acc, axis=(0, 1)) / (BM * BN), -hi), hi)
    if i < n_rows:
        ct.store(q, index=(i, 0), tile=clipped.astype(ct.float8_e4m3fn))
    if alpha != 0.0:
        out = acc * alpha
    else:
        out = acc
    ct.store(y, index=(i, 0), tile=out)
    top = ct.maximum(ct.max(acc, keepdims=True).reshape((1,)), ct.full((1,), float("-inf"), dtype=ct.float32))
    ct.atomic_add(peak, ct.arange(1, dtype=ct.int32), top, memory_order=ct.MemoryOrder.RELAXED)
    at = ct.load(ids, index=(i,), shape=(BN,), padding_mode=ct.PaddingMode.ZERO).astype(ct.int64)
    ct.store(g, index=(i,), tile=ct.gather(src, at * stride + 1), check_bounds=False)
