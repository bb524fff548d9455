"""gelu_erf: y = 0.5 x (1 + erf(x / sqrt(2))), the exact GELU, computed in f32 (tileport.kernels.gelu_erf).

The kernel's erfc is Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7); the reference uses the true erf, so the f32
absolute tolerance covers 0.5 |x| * 1.5e-7 (the kernel's form has no cancellation for negative x: max |error| over
[-12, 12] 3.3e-7, a tenth of the tolerance).
"""
from __future__ import annotations

from tileport.kernels.gelu_erf import gelu_erf as kernel

from . import _common as C

DTYPES = C.FLOATS
#: elements per block, per dtype, under the kernel's occupancy 8: 16-bit 4096 (79% of copy bandwidth, against 69-72%
#: at 1024), f32 1024 (94%; 4096: 91%) — benchmarks/results/h200/tuning/flat-lean (earlier math: flat-occ)
B = {"float32": 1024, "float16": 4096, "bfloat16": 4096}
#: elements per row of the kernel's gathers: 16 bytes of a 16-bit array (a length not a multiple of it: RAGGED)
W = 8
PORT_SIGNATURES = [f"x={C.SHORT[d]}[?]/1, y={C.SHORT[d]}[?]/1, n=i32, R=#{B[d] // W}, W=#{W}, B=#{B[d]}, "
                   f"RAGGED=#{str(ragged).lower()}" for d in DTYPES for ragged in (False, True)]


def kernel_extra(n: int, b: int) -> tuple:
    """The kernel's arguments after x and y for n elements, b per block: (n, R, W, B, RAGGED)."""
    if n >= 2 ** 31:
        raise ValueError(f"x has {n} elements: the kernel's offsets are 32-bit (at most 2^31 - 1)")
    return n, b // W, W, b, n % W != 0


def gelu_erf(x, *, backend=None, out=None):
    b = B.get(str(getattr(x, "dtype", "")).removeprefix("torch."), B["float32"])   # (elementwise checks x)
    n = int(getattr(x, "numel", lambda: 0)())
    return C.elementwise(kernel, {"x": x}, kernel_extra(n, b), DTYPES, tile=b, backend=backend, out=out)


def reference(x):
    x = C.f64(x)
    return 0.5 * x * (1.0 + (x * 0.7071067811865476).erf())


def torch_eager(x):
    """PyTorch's own eager op on the same input (the bench's comparison)."""
    import torch

    return torch.nn.functional.gelu(x)


def sample_inputs(case, dtype, device):
    return (C.randn(C.shape(C.FLAT_SHAPES, case), dtype, device, scale=2.0),), {}


def tolerance(dtype):
    return C.tolerance_of({**C.ROUNDED, "float32": (1e-5, 2e-6)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
