"""triton_softmax: softmax over the last dimension by the Triton kernel tileport.kernels.triton.softmax (one
program per row, the row in one block of BLOCK_SIZE = the smallest of ROW_BLOCKS that holds it), served by its
port (tileport.ops._triton says how backends apply)."""
from __future__ import annotations

from . import _common as C
from . import row_softmax as _same
from ._triton import TritonOp

OP = TritonOp("softmax")
DTYPES = C.FLOATS
PORT_SIGNATURES = C.signatures("out_ptr={dtype}[?,?]/?,1, in_ptr={dtype}[?,?]/?,1, BLOCK_SIZE=#{block}",
                               dtype=DTYPES, block=C.ROW_BLOCKS)


def triton_softmax(x, *, backend=None, out=None):
    C.check("x", x, DTYPES)
    x2 = C.rows("x", x)
    m, n = x2.shape
    y = C.output(out, x.shape, x)
    if m and n:
        OP.example.launch(x2, y.view(m, n), block=C.row_block(n), kernel=OP.kernel(backend))
    return y


reference, torch_eager, sample_inputs, tolerance, bytes_moved, flops = (
    _same.reference, _same.torch_eager, _same.sample_inputs, _same.tolerance, _same.bytes_moved, _same.flops)
