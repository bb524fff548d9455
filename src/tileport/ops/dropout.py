"""dropout: inverted dropout with a seeded, reproducible mask — y = x / (1 - p) where the element's hashed uniform
u >= p, else 0 (tileport.kernels.dropout). The mask depends only on (seed, element index): the same seed drops the
same elements on both backends and on every run; ``keep_mask`` computes it on the host side for checking."""
from __future__ import annotations

from tileport.kernels.dropout import dropout as kernel

from . import _common as C

DTYPES = C.FLOATS
TILE = 1024
PORT_SIGNATURES = C.signatures("x={dtype}[?]/1, y={dtype}[?]/1, seed=i32, p=f32, scale=f32, TILE=#{tile}",
                               dtype=DTYPES, tile=[TILE])


def dropout(x, p=0.5, seed=0, *, backend=None, out=None):
    """x (any shape, contiguous) with elements dropped at rate p in [0, 1), the rest scaled by 1 / (1 - p)."""
    if not 0.0 <= float(p) < 1.0:
        raise ValueError(f"p must be in [0, 1), not {p}")
    seed = C.int32_scalar("seed", seed)
    return C.elementwise(kernel, {"x": x}, (seed, float(p), 1.0 / (1.0 - float(p)), TILE), DTYPES, tile=TILE,
                         backend=backend, out=out)


def _i32(v):
    """int64 values taken modulo 2**32 as signed int32 (the kernel's wrapping int32 arithmetic)."""
    import torch

    v = v & 0xFFFFFFFF
    return torch.where(v >= 2**31, v - 2**32, v)


def keep_mask(n, p, seed, device):
    """Which of n elements the kernel keeps: its hash, replayed exactly in int64 (shifts are arithmetic, as on
    the kernel's signed int32), its uniform against p rounded to f32 as the kernel sees it."""
    import torch

    h = _i32(torch.arange(n, dtype=torch.int64, device=device) * 2146121005 + seed)
    h = _i32(h ^ (h >> 15))
    h = _i32(h * 461845907)
    h = _i32(h ^ (h >> 13))
    u = (h & 16777215).to(torch.float64) * 2.0**-24
    return u >= torch.tensor(float(p), dtype=torch.float32).item()


def reference(x, p=0.5, seed=0):
    import torch

    scale = torch.tensor(1.0 / (1.0 - float(p)), dtype=torch.float32).item()
    keep = keep_mask(x.numel(), p, seed, x.device).view(x.shape)
    return torch.where(keep, C.f64(x) * scale, 0.0)


def torch_eager(x, p=0.5, seed=0):
    """PyTorch's own dropout on the same input (the bench's comparison; its own RNG, so other elements drop)."""
    import torch

    return torch.nn.functional.dropout(x, p, training=True)


def sample_inputs(case, dtype, device):
    p, seed = {"small": (0.5, 1), "ragged": (0.1, 12345), "mid": (0.3, -7), "large": (0.5, 2024)}[case]
    return (C.randn(C.shape(C.FLAT_SHAPES, case), dtype, device), p, seed), {}


def tolerance(dtype):
    return C.tolerance_of(C.ROUNDED, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
