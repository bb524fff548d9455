"""real_spin_lock: blocks add their row into one of G shared accumulators under a spin lock.

Each block reads its row of `x`, takes lock `pid % G` with `while ct.atomic_cas(lock, i, 0, 1) == 1` (an acquiring
atomic in the loop's condition), reads how many rows the accumulator holds already (`count`, a gather), stores the
first row or adds to the stored sum (a runtime `if`: an atomic in one arm, loads in the other), stores the sum back
and releases the lock with `ct.atomic_xchg(lock, i, 0)`. cuTile Python orders every memory operation after the
acquiring atomic (its acquire token, carried through the `while` and the `if`) and the releasing one after every
array's last operation; the port carries the same tokens (acquire-ordered kernels).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, acc=f32[?,?]/?,1, lock=i32[?]/1, G=#4, B=#128"


@ct.kernel
def real_spin_lock(x, acc, lock, G: ct.Constant[int], B: ct.Constant[int]):
    pid = ct.bid(0)
    row = ct.load(x, index=(pid, 0), shape=(1, B), padding_mode=ct.PaddingMode.ZERO)
    g = pid % G
    while ct.atomic_cas(lock, g, 0, 1) == 1:
        pass
    count = ct.gather(lock, g + G, padding_value=0)
    if count == 0:
        ct.atomic_xchg(lock, g + G, 1)
    else:
        row = row + ct.load(acc, index=(g, 0), shape=(1, B), padding_mode=ct.PaddingMode.ZERO)
    ct.store(acc, index=(g, 0), tile=row)
    ct.atomic_xchg(lock, g, 0)
