"""matmul_tf32: C = A @ B for f32 matrices, operands rounded to tf32 on the tensor cores, f32 accumulation,
(128, 128, 32) tiles (tileport.kernels.matmul_tf32). The tf32 rounding (10-bit mantissa) sets the tolerance."""
from __future__ import annotations

from tileport.kernels.matmul_tf32 import matmul_tf32 as kernel

from . import _common as C

DTYPES = ("float32",)
TILES = (128, 128, 32)
PORT_SIGNATURES = C.signatures("a={dtype}[?,?]/?,1, b={dtype}[?,?]/?,1, c={dtype}[?,?]/?,1, BM=#{t[0]}, BN=#{t[1]}, "
                               "BK=#{t[2]}", dtype=DTYPES, t=[TILES])


def matmul_tf32(a, b, *, backend=None, out=None):
    """a [M, K] @ b [K, N] → [M, N], f32 in and out, tf32 products."""
    return C.gemm(kernel, a, b, DTYPES, tiles=TILES, b_is_nk=False, backend=backend, out=out)


def reference(a, b):
    a, b = C.f64(a, b)
    return a @ b


def sample_inputs(case, dtype, device):
    return C.gemm_inputs(case, dtype, device, b_is_nk=False), {}


def tolerance(dtype):
    return C.tolerance_of({"float32": (1e-2, 1e-2)}, dtype)


bytes_moved = C.gemm_bytes
flops = C.gemm_flops
