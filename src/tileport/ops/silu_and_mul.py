"""silu_and_mul: x = [a | b] of width 2d, y = silu(a) * b of width d, in f32, on (32, 256) tiles
(tileport.kernels.silu_and_mul).

The kernel finds b at tile column ``bn + HALF_TILES``, a compile-time constant: d must be a multiple of BN and every
d is its own specialization. The wrapper therefore serves the widths in SUPPORTED_D only (common LLM MLP widths);
another width is one more entry in SUPPORTED_D — and so in PORT_SIGNATURES, and the Rust library rebuilt.
"""
from __future__ import annotations

from tileport.kernels.silu_and_mul import silu_and_mul as kernel

from . import _common as C

DTYPES = C.FLOATS
BM, BN = C.GATED_TILE   # see there: the tile every dtype compiles without spills
SUPPORTED_D = (4096, 11008, 14336)
PORT_SIGNATURES = C.signatures("x={dtype}[?,?]/?,1, y={dtype}[?,?]/?,1, BM=#{bm}, BN=#{bn}, HALF_TILES=#{half}",
                               dtype=DTYPES, bm=[BM], bn=[BN], half=[d // BN for d in SUPPORTED_D])


def silu_and_mul(x, *, backend=None, out=None):
    C.check("x", x, DTYPES)
    x2 = C.rows("x", x)
    m, width = x2.shape
    d = width // 2
    if width % 2 or d not in SUPPORTED_D:
        raise ValueError(f"x's last dimension is {width}; silu_and_mul serves 2*d for d in "
                         f"{', '.join(map(str, SUPPORTED_D))} (each d is a separately compiled kernel)")
    y = C.output(out, (*x.shape[:-1], d), x)
    C.launch((C.cdiv(m, BM), C.cdiv(d, BN), 1), kernel, (x2, y.view(m, d), BM, BN, d // BN), backend)
    return y


def reference(x):
    x = C.f64(x)
    a, b = x.chunk(2, dim=-1)
    return a * a.sigmoid() * b


_ROWS = {"small": 16, "ragged": 37, "mid": 1024, "large": 8192}
_D = {"small": 4096, "ragged": 11008, "mid": 14336, "large": 14336}


def torch_eager(x):
    """PyTorch eager on the same input (the bench's comparison): silu of the first half times the second."""
    import torch

    a, b = x.chunk(2, dim=-1)
    return torch.nn.functional.silu(a) * b


def sample_inputs(case, dtype, device):
    C.shape(C.ROW_SHAPES, case)   # the case check
    return (C.randn((_ROWS[case], 2 * _D[case]), dtype, device, scale=2.0),), {}


def tolerance(dtype):
    return C.tolerance_of(C.ROUNDED, dtype)


def bytes_moved(args, kwargs):
    return C.nbytes(args[0]) * 3 // 2


flops = C.no_flops
