"""row_softmax: softmax over the last dimension, computed in f32, BM rows per block with each whole row in one tile
(tileport.kernels.row_softmax). Rows up to 16384 elements; BLOCK is the smallest of ROW_BLOCKS that holds one."""
from __future__ import annotations

from tileport.kernels.row_softmax import row_softmax as kernel

from . import _common as C

DTYPES = C.FLOATS
#: 16-bit rows of 1024 run fastest at 4 rows per block (17.2 µs against 19.3 at 8; tune_rows_occ.json), and so do
#: 16-bit rows of 4096 since their stores skip TMA (8192x4096 bf16: 38.3 µs, 82% of copy bandwidth, against 39.2 at
#: 2; tuning/rows-bm-warps-notma); f32 rows of 4096 at 1 (8192x4096: 68.8 µs, 92%, against 73.5 at 2;
#: tuning/rows-occ8)
BM_OVERRIDES = {("float16", 1024): 4, ("bfloat16", 1024): 4, ("float16", 4096): 4, ("bfloat16", 4096): 4,
                ("float32", 4096): 1}
PORT_SIGNATURES = C.row_signatures("x={dtype}[?,?]/?,1, y={dtype}[?,?]/?,1, BM=#{bm}, BLOCK=#{block}", DTYPES,
                                   BM_OVERRIDES)


def row_softmax(x, *, backend=None, out=None):
    C.check("x", x, DTYPES)
    x2 = C.rows("x", x)
    m, n = x2.shape
    block = C.row_block(n)
    bm = C.rows_per_block(block, C.dtype_name(x), BM_OVERRIDES)
    y = C.output(out, x.shape, x)
    C.launch(C.row_grid(m, n, bm), kernel, (x2, y.view(m, n), bm, block), backend)
    return y


def reference(x):
    return C.f64(x).softmax(dim=-1)


def torch_eager(x):
    """PyTorch's own eager op on the same input (the bench's comparison)."""
    import torch

    return torch.softmax(x, dim=-1)


def sample_inputs(case, dtype, device):
    return (C.randn(C.shape(C.ROW_SHAPES, case), dtype, device, scale=3.0),), {}


def tolerance(dtype):
    return C.tolerance_of({**C.ROUNDED, "float32": (1e-5, 1e-8)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
