"""triton_matmul: C = A @ B (f16/bf16, f32 accumulation) by the block-pointer Triton kernel
tileport.kernels.triton.matmul with (128, 128, 64) tiles, served by its port (tileport.ops._triton)."""
from __future__ import annotations

from . import _common as C
from . import matmul as _same
from ._triton import TritonOp

OP = TritonOp("matmul")
DTYPES = C.HALVES
PORT_SIGNATURES = C.signatures("a_ptr={dtype}[?,?]/?,1, b_ptr={dtype}[?,?]/?,1, c_ptr={dtype}[?,?]/?,1, K=i32, "
                               "BLOCK_M=#128, BLOCK_N=#128, BLOCK_K=#64", dtype=DTYPES)


def triton_matmul(a, b, *, backend=None, out=None):
    """a [M, K] @ b [K, N] → [M, N] in a's dtype."""
    C.check("a", a, DTYPES, ndim=2)
    C.check("b", b, DTYPES, ndim=2, like=a)
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"a has {a.shape[1]} columns but b has {b.shape[0]} rows "
                         f"(shapes {tuple(a.shape)} and {tuple(b.shape)})")
    C.unit_last_stride("a", a)
    C.unit_last_stride("b", b)
    c = C.output(out, (a.shape[0], b.shape[1]), a)
    if c.numel():
        OP.example.launch(a, b, c, kernel=OP.kernel(backend))
    return c


def torch_eager(a, b):
    """torch.matmul on the same inputs (the bench's comparison and TFLOP/s ceiling)."""
    return a @ b


reference, sample_inputs, tolerance, bytes_moved, flops = (
    _same.reference, _same.sample_inputs, _same.tolerance, _same.bytes_moved, _same.flops)
