"""cuTile Python form of the Triton kernel triton_dropout (src/tileport/kernels/triton/dropout.py:15), written by tileport's Triton frontend.

Generated, never edit. Each pointer parameter is an array view (the .json beside this file says how
a launch builds it from the Triton arguments)."""
import cuda.tile as ct


@ct.kernel
def triton_dropout(x_ptr, y_ptr, seed: int, p: float, scale: float, BLOCK_SIZE: ct.Constant[int]):
    pid = ct.bid(0)
    h = ((pid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=ct.int32)) * 2146121005) + seed
    h = h ^ (h >> 15)
    h = h * 461845907
    h = h ^ (h >> 13)
    u = ct.astype(h & 16777215, ct.float32) * (5.960464477539063e-08)
    x = ct.astype(ct.load(x_ptr, index=(pid,), shape=(BLOCK_SIZE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y_ptr, index=(pid,), tile=ct.astype(ct.where(u >= p, x * scale, 0.0), y_ptr.dtype))
