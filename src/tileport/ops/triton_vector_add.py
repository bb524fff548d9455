"""triton_vector_add: out = x + y by the Triton kernel tileport.kernels.triton.vector_add, served by its port
(tileport.ops._triton says how backends apply)."""
from __future__ import annotations

from . import _common as C
from . import vector_add as _same
from ._triton import TritonOp

OP = TritonOp("vector_add")
DTYPES = C.FLOATS
PORT_SIGNATURES = C.signatures("x_ptr={dtype}[?]/1, y_ptr={dtype}[?]/1, out_ptr={dtype}[?]/1, BLOCK_SIZE=#1024",
                               dtype=DTYPES)


def triton_vector_add(x, y, *, backend=None, out=None):
    """x + y for two contiguous CUDA tensors of one shape and dtype."""
    (xf, yf), o = C.flat_operands({"x": x, "y": y}, DTYPES, out)
    if o.numel():
        OP.example.launch(xf, yf, C.flat("out", o), kernel=OP.kernel(backend))
    return o


reference, sample_inputs, tolerance, bytes_moved, flops = (
    _same.reference, _same.sample_inputs, _same.tolerance, _same.bytes_moved, _same.flops)
