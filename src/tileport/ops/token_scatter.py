"""token_scatter: out[dst[i]] = x[i] (f32 values, int32 distinct destinations; ones outside `out` are dropped),
one 1024-wide tile of positions per block (tileport.kernels.token_scatter). `out` is written only where a
destination points: pass one to keep its other elements, or get zeros."""
from __future__ import annotations

from tileport.kernels.token_scatter import token_scatter as kernel

from . import _common as C

DTYPES = ("float32",)
B = 1024
PORT_SIGNATURES = C.signatures("x={dtype}[?]/1, dst=i32[?]/1, out={dtype}[?]/1, n=i32, B=#{b}", dtype=DTYPES, b=[B])


def token_scatter(x, dst, size=None, *, backend=None, out=None):
    """x [N] (float32), dst [N] (int32, distinct) → out [size] with out[dst[i]] = x[i]; size defaults to N."""
    import torch

    C.check("x", x, DTYPES, ndim=1)
    if not isinstance(dst, torch.Tensor) or dst.dtype != torch.int32 or tuple(dst.shape) != tuple(x.shape) \
            or dst.device != x.device:
        raise ValueError("dst must be an int32 tensor of x's shape on x's device")
    n = x.shape[0]
    y = C.output(out, (n if size is None else int(size),), x) if out is not None else \
        torch.zeros(n if size is None else int(size), dtype=x.dtype, device=x.device)
    C.launch((C.cdiv(n, B), 1, 1), kernel, (C.flat("x", x), C.flat("dst", dst), y, C.int32_scalar("n", n), B),
             backend)
    return y


def reference(x, dst, size=None):
    import torch

    n = x.shape[0] if size is None else int(size)
    y = torch.zeros(n, dtype=torch.float64, device=x.device)
    inside = (dst >= 0) & (dst < n)
    y[dst[inside].long()] = C.f64(x)[inside]
    return y


def sample_inputs(case, dtype, device):
    import torch

    n = {"small": 4096, "ragged": 100003, "mid": 1 << 20, "large": 1 << 24}[case]
    return (C.randn((n,), dtype, device), torch.randperm(n, device=device).to(torch.int32)), {}


def tolerance(dtype):
    return C.tolerance_of({"float32": (0.0, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    x, dst = args
    return C.nbytes(x, dst, x)


flops = C.no_flops
