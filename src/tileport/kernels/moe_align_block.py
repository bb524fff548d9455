"""moe_align_block: MoE token alignment — sorted_ids lists the flat assignment indices a = t*K + k (token t's k-th
expert choice; topk_ids is the flat [n] int32 expert of each assignment) grouped by expert, expert 0 first, each
expert's segment padded up to a multiple of block_size, and inside a segment in increasing a. Padding slots and
every slot past the last segment hold the sentinel n (the number of assignments); assignments whose expert is
outside [0, num_experts) appear nowhere.

Two launches of this kernel, over the assignments cut into TILE-long chunks (S chunks), share a table of S + 1 rows
of EB int32 counters (EB >= num_experts), zeroed by the host. MODE 0 writes it as `counters`, MODE 1 reads it as
`table` (the translator wants an array either written or read); the parameter a launch does not use is given any
other small array (the host passes a spare element past the table's end, so no written array overlaps another).

* MODE 0, grid (S, 1, 1): chunk s counts its assignments per expert, with atomic adds, into row s of counters and
  into the totals row S (the adds only count, so their order does not matter).
* MODE 1, grid (num_experts, S, 1): block (e, s) places chunk s's assignments to expert e. The segment start is the
  padded totals of the experts before e; the assignments to e in earlier chunks are the sum of table's column e
  over rows < s; inside the chunk, a cumsum of the hit mask ranks them. No atomics: the order is the assignment
  order, deterministically. The same single scatter also writes the sentinel into the block's share of the free
  slots: lanes below block_size take segment e's padding (in chunk 0's block only), the others a slice of
  TILE - block_size slots past the last segment (block (e, s) takes slice s*num_experts + e), so together the
  blocks cover num_experts*(TILE - block_size) >= num_experts*block_size slots past the end, more than there can
  be. block_size is a power of two and at most TILE / 2.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("topk_ids=i32[?]/1, counters=i32[?]/1, table=i32[?]/1, sorted_ids=i32[?]/1, num_experts=i32, "
                  "block_size=i32, MODE=#1, EB=#256, RB=#64, TILE=#2048")


@ct.kernel
def moe_align_block(topk_ids, counters, table, sorted_ids, num_experts: int, block_size: int, MODE: ct.Constant[int],
                    EB: ct.Constant[int], RB: ct.Constant[int], TILE: ct.Constant[int]):
    n = topk_ids.shape[0]
    lanes = ct.arange(TILE, dtype=ct.int32)
    first_row = ct.reshape(ct.arange(2, dtype=ct.int32), (2, 1)) == 0
    if MODE == 0:
        s = ct.bid(0)
        x = ct.load(topk_ids, index=(s,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        ok = (s * TILE + lanes < n) & (x >= 0) & (x < num_experts)
        # row 0: the chunk's own counters; row 1: the totals (row S = the number of chunks); -1: dropped
        chunks = ct.num_blocks(0)
        row = ct.where(first_row, s * EB, chunks * EB)
        ct.atomic_add(counters, ct.where(ct.reshape(ok, (1, TILE)), row + ct.reshape(x, (1, TILE)), -1), 1)
    else:
        e = ct.bid(0)
        s = ct.bid(1)
        num_e = ct.num_blocks(0)
        chunks = ct.num_blocks(1)
        experts = ct.arange(EB, dtype=ct.int32)
        totals = ct.load(table, index=(chunks,), shape=(EB,), padding_mode=ct.PaddingMode.ZERO)
        # each count rounded up to a multiple of block_size (a power of two: add block_size - 1, clear the low bits)
        padded = (totals + (block_size - 1)) & (0 - block_size)
        seg_start = ct.sum(ct.where(experts < e, padded, 0), axis=0, keepdims=True).item()
        seg_end = seg_start + ct.sum(ct.where(experts == e, padded, 0), axis=0, keepdims=True).item()
        count = ct.sum(ct.where(experts == e, totals, 0), axis=0, keepdims=True).item()
        total = ct.sum(padded, axis=0, keepdims=True).item()
        before = ct.full((1,), 0, dtype=ct.int32)   # assignments to e in chunks < s
        for r in range(ct.cdiv(s, RB)):
            rows = r * RB + ct.arange(RB, dtype=ct.int32)
            before = before + ct.sum(ct.gather(table, rows * EB + e, mask=rows < s, padding_value=0), axis=0,
                                     keepdims=True)
        x = ct.load(topk_ids, index=(s,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        pos = s * TILE + lanes
        hit = (x == e) & (pos < n)   # lanes past the end read padding 0, which is no assignment to expert 0
        slot = seg_start + before.item() + ct.cumsum(ct.where(hit, 1, 0), axis=0) - 1
        pad_end = seg_end
        if s > 0:
            pad_end = 0   # only chunk 0's block writes the segment's padding
        pad_slot = seg_start + count + lanes
        tail_slot = total + (s * num_e + e) * (TILE - block_size) + lanes - block_size
        free_slot = ct.where(lanes < block_size, pad_slot, tail_slot)
        free_ok = (pad_slot < pad_end) | (lanes >= block_size)   # tail slots past sorted_ids: the bounds check
        ct.scatter(sorted_ids, ct.where(first_row, ct.reshape(slot, (1, TILE)), ct.reshape(free_slot, (1, TILE))),
                   ct.where(first_row, ct.reshape(pos, (1, TILE)), n),
                   mask=ct.where(first_row, ct.reshape(hit, (1, TILE)), ct.reshape(free_ok, (1, TILE))))
