"""token_gather: out[i] = table[ids[i]] for the n valid positions — a lookup by token id (e.g. per-token scales).

ids past n are masked off (their output is the padding value 0); an id outside the table reads 0 too, since the
gather checks every index against the table's extent.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "table=f32[?]/1, ids=i32[?]/1, out=f32[?]/1, n=i32, B=#1024"


@ct.kernel
def token_gather(table, ids, out, n: int, B: ct.Constant[int]):
    pos = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    valid = pos < n
    tok = ct.gather(ids, pos, mask=valid, padding_value=0)
    ct.store(out, index=(ct.bid(0),), tile=ct.gather(table, tok, mask=valid, padding_value=0.0))
