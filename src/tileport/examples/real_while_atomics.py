"""real_while_atomics: one counting-sort pass over keys in a grid-stride `while` loop, its writes carried by the
loop.

Each block takes the key blocks i = bid, bid + num_blocks, ... while any remain; each key is counted with a relaxed
atomic add into `counts` (lanes past the end get key -1, which the atomic's bounds check masks off) and the count it
saw — its rank among the equal keys counted before it — is scattered to `ranks` at the key's position. cuTile Python
threads each array's token through the `while` loop (the loop's carried values), so that every iteration's atomic
and scatter are ordered after the previous iteration's; the port carries the same two tokens (`zz_counts_token`,
`zz_ranks_token`).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "keys=i32[?]/1, counts=i32[?]/1, ranks=i32[?]/1, n=i32, B=#256"


@ct.kernel
def real_while_atomics(keys, counts, ranks, n: int, B: ct.Constant[int]):
    i = ct.bid(0)
    while i < ct.cdiv(n, B):
        pos = i * B + ct.arange(B, dtype=ct.int32)
        k = ct.load(keys, index=(i,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
        k = ct.where(pos < n, k, -1)
        seen = ct.atomic_add(counts, k, 1, memory_order=ct.MemoryOrder.RELAXED)
        ct.scatter(ranks, pos, seen)
        i = i + ct.num_blocks(0)
