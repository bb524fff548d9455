"""cuTile Python form of the Triton kernel triton_layer_norm (src/tileport/kernels/triton/layer_norm.py:9), written by tileport's Triton frontend.

Generated, never edit. Each pointer parameter is an array view (the .json beside this file says how
a launch builds it from the Triton arguments). Stores skip TMA (plain_stores: tileport.frontends.triton.lower)."""
import cuda.tile as ct


@ct.kernel(occupancy=4)
def triton_layer_norm(x_ptr, w_ptr, b_ptr, y_ptr, n_cols: int, inv_n: float, eps: float, BLOCK_SIZE: ct.Constant[int]):
    row = ct.bid(0)
    x = ct.astype(ct.reshape(ct.load(x_ptr, index=(row, 0), shape=(1, BLOCK_SIZE), padding_mode=ct.PaddingMode.ZERO), (BLOCK_SIZE,)), ct.float32)
    mean = ct.sum(x, axis=0) * inv_n
    d = ct.where(ct.arange(BLOCK_SIZE, dtype=ct.int32) < n_cols, x - mean, 0.0)
    rstd = ct.rsqrt((ct.sum(d * d, axis=0) * inv_n) + eps, flush_to_zero=True)
    w = ct.astype(ct.load(w_ptr, index=(0,), shape=(BLOCK_SIZE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    b = ct.astype(ct.load(b_ptr, index=(0,), shape=(BLOCK_SIZE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y_ptr, index=(row, 0), tile=ct.reshape(ct.astype(((d * rstd) * w) + b, y_ptr.dtype), (1, BLOCK_SIZE)), allow_tma=False)
