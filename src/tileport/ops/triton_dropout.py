"""triton_dropout: seeded inverted dropout by the Triton kernel tileport.kernels.triton.dropout — the same hash
as tileport.ops.dropout, so ``dropout.keep_mask`` replays its mask — served by its port (tileport.ops._triton)."""
from __future__ import annotations

from . import _common as C
from . import dropout as _same
from ._triton import TritonOp

OP = TritonOp("dropout")
DTYPES = C.FLOATS
PORT_SIGNATURES = C.signatures("x_ptr={dtype}[?]/1, y_ptr={dtype}[?]/1, seed=i32, p=f32, scale=f32, "
                               "BLOCK_SIZE=#1024", dtype=DTYPES)


def triton_dropout(x, p=0.5, seed=0, *, backend=None, out=None):
    if not 0.0 <= float(p) < 1.0:
        raise ValueError(f"p must be in [0, 1), not {p}")
    seed = C.int32_scalar("seed", seed)
    (xf,), y = C.flat_operands({"x": x}, DTYPES, out)
    if y.numel():
        OP.example.launch(xf, C.flat("out", y), seed, float(p), kernel=OP.kernel(backend))
    return y


reference, torch_eager, sample_inputs, tolerance, bytes_moved, flops = (
    _same.reference, _same.torch_eager, _same.sample_inputs, _same.tolerance, _same.bytes_moved, _same.flops)
