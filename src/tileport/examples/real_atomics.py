"""real_atomics: split-K and counters written with atomics, as LLM kernels use them, in one kernel the port must prove.

A split-K matmul: each block of the third grid axis multiplies its share of K (a loop with computed bounds,
`min(kt, (ps + 1) * per)`) and adds its partial tile into a 2-D output with `ct.atomic_add` at an (rows, cols)
index pair (cuTile Python orders the atomic after the loop's loads through carried tokens: irdiff's
read-only-load-tokens and loop-carried-invariant); then statistics kept with `ct.atomic_max`, `ct.atomic_min`,
`ct.atomic_or` (relaxed), `ct.atomic_xor`, an `ct.atomic_xchg` whose old value is read and a `ct.atomic_cas`
claiming a slot — each acq_rel atomic
ordered after every array's last one, as cuTile Python's token order has it.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("a=f16[?,?]/?,1, b=f16[?,?]/?,1, c=f32[?,?]/?,1, stats=i32[?]/1, flags=i32[?]/1, slots=i32[?]/1, "
                  "BM=#64, BN=#64, BK=#32, SPLIT=#4")


@ct.kernel
def real_atomics(a, b, c, stats, flags, slots, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
                 SPLIT: ct.Constant[int]):
    pm, pn, ps = ct.bid(0), ct.bid(1), ct.bid(2)
    kt = ct.num_tiles(a, axis=1, shape=(BM, BK))
    per = ct.cdiv(kt, SPLIT)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for kk in range(ps * per, min(kt, (ps + 1) * per)):
        at = ct.load(a, index=(pm, kk), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)
        bt = ct.load(b, index=(kk, pn), shape=(BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(at, bt, acc)
    rows = pm * BM + ct.arange(BM, dtype=ct.int32)
    cols = pn * BN + ct.arange(BN, dtype=ct.int32)
    ct.atomic_add(c, (rows[:, None], cols[None, :]), acc)
    peak = ct.max(acc).astype(ct.int32)
    ct.atomic_max(stats, 0, peak)
    ct.atomic_min(stats, 1, ct.min(acc).astype(ct.int32))
    ct.atomic_or(flags, ps % 4, 1 << (ps % 31), memory_order=ct.MemoryOrder.RELAXED)
    ct.atomic_xor(flags, 3, peak & 1)
    old = ct.atomic_xchg(slots, pm, ps)
    ct.atomic_add(stats, 2, old)
    claimed = ct.atomic_cas(slots, pn + 64, 0, 1)
    ct.atomic_add(stats, 3, claimed)
