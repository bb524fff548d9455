"""real_idioms4: a fourth set of other people's habits, in one kernel the port must prove.

A helper with a keyword-only parameter whose default is a module constant (`def _scaled(v, *, s=SCALE)`), called by
another helper as an operand of a sum (`_scaled(v) + bias`: cuTile Python inlines, then fuses the product and the
sum into an fma); the block id split with the builtin `divmod` (a batch and a head), checked by `ct.assert_`; a
tile extent computed by `ct.static_eval`; two names first bound in every arm of an `if` on a runtime scalar (an
if/elif/else chain), their sum stored as f16 rounded toward zero (`astype(.., rounding_mode=)`); a cross-entropy
style pick of one logit per row at an int64 label (`labels` is int64, as PyTorch gives them: a gather at a 64-bit
scalar index); a block offset widened with `.astype(ct.int64)` and mixed with i32 scalars.
"""
import cuda.tile as ct

SCALE = 0.5
HALF_OF = 2

DEMO_SIGNATURE = ("x=f32[?,?,?]/?,?,1, logits=f32[?,?]/?,1, labels=i64[?]/1, src=f32[?]/1, y=f16[?,?,?]/?,?,1, "
                  "picked=f32[?]/1, moved=f32[?]/1, heads=i32, mode=i32, base=i32, D=#128")


@ct.function
def _scaled(v, *, s=SCALE):
    return v * s


@ct.function
def _affine(v, bias=1.0):
    return _scaled(v) + bias


@ct.kernel
def real_idioms4(x, logits, labels, src, y, picked, moved, heads: int, mode: int, base: int, D: ct.Constant[int]):
    pid = ct.bid(0)
    b, h = divmod(pid, heads)
    ct.assert_(h < heads, "head out of range")
    half = ct.static_eval(D // HALF_OF)
    t = ct.load(x, index=(b, h, 0), shape=(1, 1, D), padding_mode=ct.PaddingMode.ZERO)
    lo = ct.load(x, index=(b, h, 0), shape=(1, 1, half), padding_mode=ct.PaddingMode.ZERO)
    if mode == 0:
        a = _affine(t)
        c = t * 2.0
    elif mode == 1:
        a = t + 1.0
        c = _affine(t, bias=-1.0)
    else:
        a = -t
        c = t
    ct.store(y, index=(b, h, 0), tile=(a + c + ct.sum(lo)).astype(ct.float16, rounding_mode=ct.RoundingMode.RZ))
    lab = ct.load(labels, index=(pid,), shape=(1,)).item()
    ct.store(picked, index=(pid,), tile=ct.gather(logits, (pid, lab)).reshape((1,)))
    off = pid.astype(ct.int64) * D + base
    ct.store(moved, index=(pid,), tile=ct.gather(src, ct.arange(D, dtype=ct.int64) + off))
