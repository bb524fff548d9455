"""cuTile Python form of the Triton kernel triton_matmul (src/tileport/kernels/triton/matmul.py:12), written by tileport's Triton frontend.

Generated, never edit. Each pointer parameter is an array view (the .json beside this file says how
a launch builds it from the Triton arguments)."""
import cuda.tile as ct


@ct.kernel
def triton_matmul(a_ptr, b_ptr, c_ptr, K: int, BLOCK_M: ct.Constant[int], BLOCK_N: ct.Constant[int], BLOCK_K: ct.Constant[int]):
    pid_m = ct.bid(0)
    pid_n = ct.bid(1)
    acc = ct.zeros((BLOCK_M, BLOCK_N), dtype=ct.float32)
    for k in range(ct.cdiv(K, BLOCK_K)):
        a = ct.load(a_ptr, index=(pid_m, k), shape=(BLOCK_M, BLOCK_K), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(b_ptr, index=(k, pid_n), shape=(BLOCK_K, BLOCK_N), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(c_ptr, index=(pid_m, pid_n), tile=ct.astype(acc, c_ptr.dtype))
