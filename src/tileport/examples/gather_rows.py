"""Gather/scatter with masks: out[i, :] = table[idx[i], :] for the rows of this block, skipping idx < 0.

Each block handles ROWS indices; masked-off rows (negative index or past n) are neither read nor written.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "table=f32[?,?]/?,1, idx=i32[?]/1, out=f32[?,?]/?,1, n=i32, ROWS=#16, D=#128"


@ct.kernel
def gather_rows(table, idx, out, n: int, ROWS: ct.Constant[int], D: ct.Constant[int]):
    bid = ct.bid(0)
    rows = bid * ROWS + ct.arange(ROWS, dtype=ct.int32)
    src = ct.gather(idx, rows, mask=rows < n, padding_value=-1)
    cols = ct.arange(D, dtype=ct.int32)
    src2 = ct.reshape(src, (ROWS, 1))
    valid = src2 >= 0
    vals = ct.gather(table, (src2, ct.reshape(cols, (1, D))), mask=valid, padding_value=0.0)
    dst = ct.reshape(rows, (ROWS, 1))
    ct.scatter(out, (dst, ct.reshape(cols, (1, D))), vals, mask=valid & (dst < n))
