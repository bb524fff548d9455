"""matmul: C = A @ B, f16/bf16 operands on the tensor cores with f32 accumulation, (128, 128, 64) tiles
(tileport.kernels.matmul)."""
from __future__ import annotations

from tileport.kernels.matmul import matmul as kernel

from . import _common as C

DTYPES = C.HALVES
TILES = (128, 128, 64)
PORT_SIGNATURES = C.signatures("a={dtype}[?,?]/?,1, b={dtype}[?,?]/?,1, c={dtype}[?,?]/?,1, BM=#{t[0]}, BN=#{t[1]}, "
                               "BK=#{t[2]}", dtype=DTYPES, t=[TILES])


def matmul(a, b, *, backend=None, out=None):
    """a [M, K] @ b [K, N] → [M, N] in a's dtype."""
    return C.gemm(kernel, a, b, DTYPES, tiles=TILES, b_is_nk=False, backend=backend, out=out)


def reference(a, b):
    a, b = C.f64(a, b)
    return a @ b


def sample_inputs(case, dtype, device):
    return C.gemm_inputs(case, dtype, device, b_is_nk=False), {}


def tolerance(dtype):
    return C.tolerance_of({"float16": (2e-3, 1e-4), "bfloat16": (1.6e-2, 1e-3)}, dtype)


bytes_moved = C.gemm_bytes
flops = C.gemm_flops
