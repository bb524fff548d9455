"""bias_act: y = act(x + bias) on (64, 128) tiles, act chosen at compile time: identity, relu or sigmoid
(tileport.kernels.bias_act: ACT = 0, 1, 2, each its own specialization). f32 only (the kernel uses float literals
in the input's dtype)."""
from __future__ import annotations

from tileport.kernels.bias_act import bias_act as kernel

from . import _common as C

DTYPES = ("float32",)
BM, BN = 64, 128
ACTS = {"identity": 0, "relu": 1, "sigmoid": 2}
PORT_SIGNATURES = C.signatures("x={dtype}[?,?]/?,1, bias={dtype}[?]/1, y={dtype}[?,?]/?,1, BM=#{bm}, BN=#{bn}, "
                               "ACT=#{act}", dtype=DTYPES, bm=[BM], bn=[BN], act=ACTS.values())


def bias_act(x, bias, act="relu", *, backend=None, out=None):
    """act(x + bias) with bias broadcast over the rows of x (leading dimensions flattened)."""
    if act not in ACTS:
        raise ValueError(f"act={act!r}: choose one of {', '.join(ACTS)}")
    C.check("x", x, DTYPES)
    x2 = C.rows("x", x)
    m, n = x2.shape
    b = C.vector("bias", bias, n, x)
    y = C.output(out, x.shape, x)
    C.launch((C.cdiv(m, BM), C.cdiv(n, BN), 1), kernel, (x2, b, y.view(m, n), BM, BN, ACTS[act]), backend)
    return y


def reference(x, bias, act="relu"):
    t = C.f64(x) + C.f64(bias)
    return {"identity": lambda: t, "relu": lambda: t.clamp_min(0.0), "sigmoid": t.sigmoid}[act]()


def sample_inputs(case, dtype, device):
    m, n = C.shape(C.ROW_SHAPES, case)
    act = {"small": "relu", "ragged": "sigmoid", "mid": "identity", "large": "relu"}[case]
    return (C.randn((m, n), dtype, device, scale=3.0), C.randn((n,), dtype, device)), {"act": act}


def tolerance(dtype):
    return C.tolerance_of(C.ROUNDED, dtype)


def bytes_moved(args, kwargs):
    x, bias = args
    return 2 * C.nbytes(x) + C.nbytes(bias)


flops = C.no_flops
