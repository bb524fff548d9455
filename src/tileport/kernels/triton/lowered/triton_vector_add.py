"""cuTile Python form of the Triton kernel triton_vector_add (src/tileport/kernels/triton/vector_add.py:11), written by tileport's Triton frontend.

Generated, never edit. Each pointer parameter is an array view (the .json beside this file says how
a launch builds it from the Triton arguments)."""
import cuda.tile as ct


@ct.kernel
def triton_vector_add(x_ptr, y_ptr, out_ptr, BLOCK_SIZE: ct.Constant[int]):
    pid = ct.bid(0)
    x = ct.load(x_ptr, index=(pid,), shape=(BLOCK_SIZE,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(y_ptr, index=(pid,), shape=(BLOCK_SIZE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out_ptr, index=(pid,), tile=ct.astype(x + y, out_ptr.dtype))
