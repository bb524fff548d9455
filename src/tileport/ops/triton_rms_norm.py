"""triton_rms_norm: y = x / sqrt(mean(x^2) + eps) * weight over the last dimension by the Triton kernel
tileport.kernels.triton.rms_norm (one program per row), served by its port (tileport.ops._triton)."""
from __future__ import annotations

from . import _common as C
from . import rms_norm as _same
from ._triton import TritonOp

OP = TritonOp("rms_norm")
DTYPES = C.FLOATS
PORT_SIGNATURES = C.signatures("x_ptr={dtype}[?,?]/?,1, w_ptr={dtype}[?]/1, y_ptr={dtype}[?,?]/?,1, inv_n=f32, "
                               "eps=f32, BLOCK_SIZE=#{block}", dtype=DTYPES, block=C.ROW_BLOCKS)


def triton_rms_norm(x, weight, eps=1e-6, *, backend=None, out=None):
    C.check("x", x, DTYPES)
    x2 = C.rows("x", x)
    m, n = x2.shape
    w = C.vector("weight", weight, n, x)
    y = C.output(out, x.shape, x)
    if m and n:
        OP.example.launch(x2, w, y.view(m, n), float(eps), block=C.row_block(n), kernel=OP.kernel(backend))
    return y


reference, torch_eager, sample_inputs, tolerance, bytes_moved, flops = (
    _same.reference, _same.torch_eager, _same.sample_inputs, _same.tolerance, _same.bytes_moved, _same.flops)
