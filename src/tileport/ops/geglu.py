"""geglu: y = gelu_tanh(gate) * up, in f32, on (32, 256) tiles of [rows, d] (tileport.kernels.geglu)."""
from __future__ import annotations

from tileport.kernels.geglu import geglu as kernel

from . import _common as C
from .gelu_tanh import gelu_tanh_f64

DTYPES = C.FLOATS
BM, BN = C.GATED_TILE   # see there: the tile every dtype compiles without spills
PORT_SIGNATURES = C.signatures("gate={dtype}[?,?]/?,1, up={dtype}[?,?]/?,1, y={dtype}[?,?]/?,1, BM=#{bm}, BN=#{bn}",
                               dtype=DTYPES, bm=[BM], bn=[BN])


def geglu(gate, up, *, backend=None, out=None):
    return C.gated(kernel, gate, up, DTYPES, bm=BM, bn=BN, backend=backend, out=out)


def reference(gate, up):
    g, u = C.f64(gate, up)
    return gelu_tanh_f64(g) * u


def torch_eager(gate, up):
    """PyTorch eager on the same inputs (the bench's comparison)."""
    import torch

    return torch.nn.functional.gelu(gate, approximate="tanh") * up


def sample_inputs(case, dtype, device):
    shape = C.shape(C.ROW_SHAPES, case)
    return (C.randn(shape, dtype, device, scale=2.0), C.randn(shape, dtype, device)), {}


def tolerance(dtype):
    return C.tolerance_of(C.ROUNDED, dtype)


def bytes_moved(args, kwargs):
    gate, up = args
    return C.nbytes(gate, up, gate)


flops = C.no_flops
