"""real_rolling_state: a decode-step state update as recurrent-model kernels write it, one kernel the port must
prove.

Each channel keeps a window of its last W=3 inputs in `state` (channels x W): the window is read column by column
with `ct.gather` (three reads of one array), combined with the new input by a per-channel filter, and written back
shifted by one with `ct.scatter` — every write ordered after all the reads of that array, which cuTile Python joins
one read at a time into the array's token. The mean is taken with `ct.mul(.., ct.truediv(1.0, W))` of constants
(folded, as cuTile Python folds it).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=bf16[?]/1, state=bf16[?,?]/?,1, taps=f32[?,?]/?,1, y=bf16[?]/1, W=#3, BC=#128"


@ct.kernel
def real_rolling_state(x, state, taps, y, W: ct.Constant[int], BC: ct.Constant[int]):
    ch = ct.bid(0) * BC + ct.arange(BC, dtype=ct.int32)
    s0 = ct.gather(state, (ch, 0)).astype(ct.float32)
    s1 = ct.gather(state, (ch, 1)).astype(ct.float32)
    s2 = ct.gather(state, (ch, 2)).astype(ct.float32)
    new = ct.gather(x, ch).astype(ct.float32)
    f = s0 * ct.gather(taps, (ch, 0)) + s1 * ct.gather(taps, (ch, 1)) + s2 * ct.gather(taps, (ch, 2))
    mean = ct.mul(s0 + s1 + s2, ct.truediv(1.0, W))
    ct.scatter(y, ch, (f + new - mean).astype(y.dtype))
    ct.scatter(state, (ch, 0), s1.astype(state.dtype))
    ct.scatter(state, (ch, 1), s2.astype(state.dtype))
    ct.scatter(state, (ch, 2), new.astype(state.dtype))
