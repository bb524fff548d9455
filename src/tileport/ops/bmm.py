"""bmm: C[z] = A[z] @ B[z] over a batch, f16/bf16 operands on the tensor cores with f32 accumulation, (128, 128, 64)
tiles, one block per (output tile, batch entry), the batch entries one after another (tileport.kernels.bmm)."""
from __future__ import annotations

from tileport.kernels.bmm import bmm as kernel

from . import _common as C

DTYPES = C.HALVES
TILES = (128, 128, 64)
PORT_SIGNATURES = C.signatures("a={dtype}[?,?,?]/?,?,1, b={dtype}[?,?,?]/?,?,1, c={dtype}[?,?,?]/?,?,1, "
                               "BM=#{t[0]}, BN=#{t[1]}, BK=#{t[2]}", dtype=DTYPES, t=[TILES])
#: (batch, M, K, N)
SHAPES = {"small": (2, 256, 256, 256), "ragged": (3, 37, 1000, 300), "mid": (8, 1024, 1024, 1024),
          "large": (16, 2048, 2048, 2048)}


def bmm(a, b, *, backend=None, out=None):
    """a [Z, M, K] @ b [Z, K, N] → [Z, M, N] in a's dtype (last dimensions contiguous)."""
    C.check("a", a, DTYPES, ndim=3)
    C.check("b", b, DTYPES, ndim=3, like=a)
    C.unit_last_stride("a", a)
    C.unit_last_stride("b", b)
    z, m, k = a.shape
    if b.shape[0] != z or b.shape[1] != k:
        raise ValueError(f"a is {tuple(a.shape)} and b is {tuple(b.shape)}: b must be [{z}, {k}, N]")
    n = b.shape[2]
    c = C.output(out, (z, m, n), a)
    bm, bn, bk = TILES
    if z > 65535:
        raise ValueError(f"a batch of {z} entries: at most 65535 (the grid's third axis)")
    C.launch((C.cdiv(m, bm), C.cdiv(n, bn), z), kernel, (a, b, c, bm, bn, bk), backend)
    return c


def reference(a, b):
    a, b = C.f64(a, b)
    return a @ b


def torch_eager(a, b):
    """PyTorch's own eager op on the same inputs (the bench's comparison)."""
    import torch

    return torch.bmm(a, b)


def sample_inputs(case, dtype, device):
    z, m, k, n = C.shape(SHAPES, case)
    return (C.randn((z, m, k), dtype, device), C.randn((z, k, n), dtype, device, scale=k ** -0.5)), {}


def tolerance(dtype):
    return C.tolerance_of({"float16": (2e-3, 1e-4), "bfloat16": (1.6e-2, 1e-3)}, dtype)


def bytes_moved(args, kwargs):
    a, b = args
    return C.nbytes(a, b) + a.shape[0] * a.shape[1] * b.shape[2] * a.element_size()


def flops(args, kwargs):
    a, b = args
    return 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
