"""cuTile Python form of the Triton kernel triton_swiglu (src/tileport/kernels/triton/swiglu.py:11), written by tileport's Triton frontend.

Generated, never edit. Each pointer parameter is an array view (the .json beside this file says how
a launch builds it from the Triton arguments)."""
import cuda.tile as ct


@ct.kernel
def triton_swiglu(g_ptr, u_ptr, y_ptr, BLOCK_SIZE: ct.Constant[int]):
    pid = ct.bid(0)
    g = ct.astype(ct.load(g_ptr, index=(pid,), shape=(BLOCK_SIZE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    u = ct.astype(ct.load(u_ptr, index=(pid,), shape=(BLOCK_SIZE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    den1 = 1.0 + (ct.exp2((-g) * 1.4426950408889634))
    big2 = ct.abs(den1) > 8.507059173023462e+37
    ct.store(y_ptr, index=(pid,), tile=ct.astype((ct.truediv(ct.where(big2, g * 0.25, g), ct.where(big2, den1 * 0.25, den1), rounding_mode=ct.RoundingMode.APPROX)) * u, y_ptr.dtype))
