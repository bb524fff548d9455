"""splitk_reduce: y [M, N] = sum over s of parts[s] for f32 split-K partial products parts [S, M, N], summed in f32
and cast once to y's dtype (f32, f16 or bf16), (32, 128) tiles (tileport.kernels.splitk_reduce)."""
from __future__ import annotations

from tileport.kernels.splitk_reduce import splitk_reduce as kernel

from . import _common as C

DTYPES = C.FLOATS
BM, BN = 32, 128
PORT_SIGNATURES = C.signatures("parts=f32[?,?,?]/?,?,1, y={dtype}[?,?]/?,1, BM=#{bm}, BN=#{bn}", dtype=DTYPES,
                               bm=[BM], bn=[BN])
#: (splits, M, N)
SHAPES = {"small": (2, 64, 256), "ragged": (3, 37, 1000), "mid": (4, 1024, 4096), "large": (8, 4096, 8192)}


def splitk_reduce(parts, dtype=None, *, backend=None, out=None):
    """parts [S, M, N] f32 → [M, N] in ``dtype`` (a torch dtype or its name; default float32, or out's)."""
    import torch

    C.check("parts", parts, ("float32",), ndim=3)
    C.unit_last_stride("parts", parts)
    s, m, n = parts.shape
    if s < 1:
        raise ValueError("parts holds no split (S = 0)")
    if dtype is None:
        dtype = out.dtype if out is not None else torch.float32
    dtype = getattr(torch, dtype) if isinstance(dtype, str) else dtype
    if str(dtype).removeprefix("torch.") not in DTYPES:
        raise ValueError(f"dtype {dtype}: supported {', '.join(DTYPES)}")
    y = C.output(out, (m, n), parts, dtype=dtype)
    C.launch((C.cdiv(m, BM), C.cdiv(n, BN), 1), kernel, (parts, y, BM, BN), backend)
    return y


def reference(parts, dtype=None):
    return C.f64(parts).sum(dim=0)


def torch_eager(parts, dtype=None):
    """PyTorch eager on the same input (the bench's comparison)."""
    import torch

    return parts.sum(dim=0).to(getattr(torch, dtype) if isinstance(dtype, str) else dtype or torch.float32)


def sample_inputs(case, dtype, device):
    return (C.randn(C.shape(SHAPES, case), "float32", device), dtype), {}


def tolerance(dtype):
    return C.tolerance_of({"float32": (1e-5, 1e-5), "float16": (2e-3, 1e-4), "bfloat16": (1.6e-2, 1e-3)}, dtype)


def result_dtype(args, kwargs):
    """The result's dtype (the tests' and bench's hook: it is not the first input's)."""
    import torch

    return getattr(torch, args[1])


def bytes_moved(args, kwargs):
    parts = args[0]
    return C.nbytes(parts) + parts[0].numel() * result_dtype(args, kwargs).itemsize


flops = C.no_flops
