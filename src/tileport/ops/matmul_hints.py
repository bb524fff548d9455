"""matmul_hints: C = A @ B like matmul, with the kernel's scheduling hints (a pipelining latency on the A loads,
no TMA for B); (128, 128, 64) tiles, latency 3 (tileport.kernels.matmul_hints)."""
from __future__ import annotations

from tileport.kernels.matmul_hints import matmul_hints as kernel

from . import _common as C
from . import matmul as plain

DTYPES = C.HALVES
TILES = (128, 128, 64)
LATENCY = 3
PORT_SIGNATURES = C.signatures("a={dtype}[?,?]/?,1, b={dtype}[?,?]/?,1, c={dtype}[?,?]/?,1, BM=#{t[0]}, BN=#{t[1]}, "
                               "BK=#{t[2]}, LAT=#{lat}", dtype=DTYPES, t=[TILES], lat=[LATENCY])


def matmul_hints(a, b, *, backend=None, out=None):
    """a [M, K] @ b [K, N] → [M, N] in a's dtype."""
    return C.gemm(kernel, a, b, DTYPES, tiles=TILES, b_is_nk=False, extra=(LATENCY,), backend=backend, out=out)


reference = plain.reference
sample_inputs = plain.sample_inputs
tolerance = plain.tolerance
bytes_moved = plain.bytes_moved
flops = plain.flops
