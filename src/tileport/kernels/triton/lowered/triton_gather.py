"""cuTile Python form of the Triton kernel triton_gather (src/tileport/kernels/triton/gather.py:12), written by tileport's Triton frontend.

Generated, never edit. Each pointer parameter is an array view (the .json beside this file says how
a launch builds it from the Triton arguments)."""
import cuda.tile as ct


@ct.kernel
def triton_gather(src_ptr, idx_ptr, out_ptr, n: int, BLOCK_SIZE: ct.Constant[int]):
    pid = ct.bid(0)
    idx = ct.load(idx_ptr, index=(pid,), shape=(BLOCK_SIZE,), padding_mode=ct.PaddingMode.ZERO)
    vals = ct.gather(src_ptr, idx, mask=(pid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=ct.int32)) < n, padding_value=0.0)
    ct.store(out_ptr, index=(pid,), tile=ct.astype(vals, out_ptr.dtype))
