"""triton_swiglu: y = silu(gate) * up elementwise by the Triton kernel tileport.kernels.triton.swiglu (flat
vectors, 1024 elements per program), served by its port (tileport.ops._triton)."""
from __future__ import annotations

from . import _common as C
from . import swiglu as _same
from ._triton import TritonOp

OP = TritonOp("swiglu")
DTYPES = C.FLOATS
PORT_SIGNATURES = C.signatures("g_ptr={dtype}[?]/1, u_ptr={dtype}[?]/1, y_ptr={dtype}[?]/1, BLOCK_SIZE=#1024",
                               dtype=DTYPES)


def triton_swiglu(gate, up, *, backend=None, out=None):
    (g, u), y = C.flat_operands({"gate": gate, "up": up}, DTYPES, out)
    if y.numel():
        OP.example.launch(g, u, C.flat("out", y), kernel=OP.kernel(backend))
    return y


reference, torch_eager, sample_inputs, tolerance, bytes_moved, flops = (
    _same.reference, _same.torch_eager, _same.sample_inputs, _same.tolerance, _same.bytes_moved, _same.flops)
