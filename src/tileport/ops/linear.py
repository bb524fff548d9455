"""linear: y = x @ weight^T with weight [out_features, in_features] (nn.Linear's layout, no bias), f16/bf16 on the
tensor cores with f32 accumulation, (128, 128, 64) tiles (tileport.kernels.linear)."""
from __future__ import annotations

from tileport.kernels.linear import linear as kernel

from . import _common as C

DTYPES = C.HALVES
TILES = (128, 128, 64)
PORT_SIGNATURES = C.signatures("x={dtype}[?,?]/?,1, w={dtype}[?,?]/?,1, y={dtype}[?,?]/?,1, BM=#{t[0]}, BN=#{t[1]}, "
                               "BK=#{t[2]}", dtype=DTYPES, t=[TILES])


def linear(x, weight, *, backend=None, out=None):
    """x [..., K] @ weight[N, K]^T → [..., N] in x's dtype."""
    return C.gemm(kernel, x, weight, DTYPES, tiles=TILES, b_is_nk=True, backend=backend, out=out,
                  names=("x", "weight"))


def reference(x, weight):
    x, w = C.f64(x, weight)
    return x @ w.T


def sample_inputs(case, dtype, device):
    return C.gemm_inputs(case, dtype, device, b_is_nk=True), {}


def tolerance(dtype):
    return C.tolerance_of({"float16": (2e-3, 1e-4), "bfloat16": (1.6e-2, 1e-3)}, dtype)


bytes_moved = C.gemm_bytes
flops = C.gemm_flops
