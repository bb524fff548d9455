"""real_ordering: memory orders on loads and a bf16 `ct.matmul`, in one kernel the port must prove.

A relaxed load of a per-row counter at device scope (`memory_order=ct.MemoryOrder.RELAXED`: the Tile IR load with
that ordering, no token joined), a bf16 tile product through `ct.matmul` (cuTile Python accumulates it in f32, the
first accumulator its mma takes for bf16, and converts back), and an acquiring load whose value is never read, last
among the memory operations (an ordered load is an effect: kept, where an unread weak load is dropped).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("a=bf16[?,?]/?,1, b=bf16[?,?]/?,1, c=bf16[?,?]/?,1, counts=i32[?]/1, done=i32[?]/1, "
                  "BM=#64, BN=#64, BK=#32")

ORDER = ct.MemoryOrder
SCOPE = ct.MemoryScope.DEVICE


@ct.kernel
def real_ordering(a, b, c, counts, done, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    pm, pn = ct.bid(0), ct.bid(1)
    seen = ct.load(counts, index=(pm,), shape=(1,), memory_order=ORDER.RELAXED, memory_scope=SCOPE)
    at = ct.load(a, (pm, 0), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
    bt = ct.load(b, (0, pn), (BK, BN), padding_mode=ct.PaddingMode.ZERO)
    prod = ct.matmul(at, bt)
    scale = 1.0 / (seen.astype(ct.float32) + 1.0)
    ct.store(c, (pm, pn), (prod.astype(ct.float32) * scale[:, None]).astype(c.dtype))
    ct.load(done, index=(pm,), shape=(1,), memory_order=ORDER.ACQUIRE, memory_scope=SCOPE)
