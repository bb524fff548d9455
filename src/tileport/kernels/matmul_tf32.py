"""matmul_tf32: C = A @ B for float32 matrices on the tensor cores: operands rounded to tf32, f32 accumulation.

This is what torch does for f32 matmul with `allow_tf32`; the cast is explicit here and so in the port.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "a=f32[?,?]/?,1, b=f32[?,?]/?,1, c=f32[?,?]/?,1, BM=#128, BN=#128, BK=#32"


@ct.kernel
def matmul_tf32(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(BM, BK))):
        ta = ct.astype(ct.load(a, index=(bm, k), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO), ct.tfloat32)
        tb = ct.astype(ct.load(b, index=(k, bn), shape=(BK, BN), padding_mode=ct.PaddingMode.ZERO), ct.tfloat32)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bm, bn), tile=acc)
