"""cuTile Python form of the Triton kernel triton_softmax (src/tileport/kernels/triton/softmax.py:9), written by tileport's Triton frontend.

Generated, never edit. Each pointer parameter is an array view (the .json beside this file says how
a launch builds it from the Triton arguments). Stores skip TMA (plain_stores: tileport.frontends.triton.lower)."""
import cuda.tile as ct


@ct.kernel(occupancy=4, num_worker_warps=8)
def triton_softmax(out_ptr, in_ptr, BLOCK_SIZE: ct.Constant[int]):
    row = ct.bid(0)
    x = ct.astype(ct.reshape(ct.load(in_ptr, index=(row, 0), shape=(1, BLOCK_SIZE), padding_mode=ct.PaddingMode.NEG_INF), (BLOCK_SIZE,)), ct.float32)
    x = x - ct.max(x, axis=0)
    num = ct.exp2(x * 1.4426950408889634)
    den = ct.sum(num, axis=0)
    big1 = ct.abs(den) > 8.507059173023462e+37
    ct.store(out_ptr, index=(row, 0), tile=ct.reshape(ct.astype(ct.truediv(ct.where(big1, num * 0.25, num), ct.where(big1, den * 0.25, den), rounding_mode=ct.RoundingMode.APPROX), out_ptr.dtype), (1, BLOCK_SIZE)), allow_tma=False)
