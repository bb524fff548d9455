"""triton_attention: fused attention forward (non-causal or causal, top-left aligned) by the block-pointer Triton
kernel tileport.kernels.triton.attention for q, k, v [B, H, S, D] (one sequence length, as many key/value heads
as query heads, D 64 or 128), served by its port (tileport.ops._triton)."""
from __future__ import annotations

from . import _common as C
from . import attention as _same
from ._triton import TritonOp

OP = TritonOp("attention")
DTYPES = C.HALVES
HEAD_DIMS = (64, 128)
PORT_SIGNATURES = C.signatures("Q={dtype}[?,?,?]/?,?,1, K={dtype}[?,?,?]/?,?,1, V={dtype}[?,?,?]/?,?,1, "
                               "Out={dtype}[?,?,?]/?,?,1, sm_scale=f32, N_CTX=i32, HEAD_DIM=#{d}, BLOCK_M=#64, "
                               "BLOCK_N=#64, IS_CAUSAL=#{causal}", dtype=DTYPES, d=HEAD_DIMS,
                               causal=["true", "false"])
#: (batch, heads, sequence length, head dim, causal)
SHAPES = {"small": (1, 2, 128, 64, False), "ragged": (2, 3, 100, 64, True), "mid": (2, 8, 1024, 128, False),
          "large": (4, 16, 4096, 128, True)}


def triton_attention(q, k, v, scale=None, is_causal=False, *, backend=None, out=None):
    """softmax(q @ k^T * scale [masked causally]) @ v; scale defaults to 1 / sqrt(head dim)."""
    C.check("q", q, DTYPES, ndim=4)
    C.check("k", k, DTYPES, ndim=4, like=q)
    C.check("v", v, DTYPES, ndim=4, like=q)
    b, h, s, d = q.shape
    if d not in HEAD_DIMS:
        raise ValueError(f"head dim {d}: the kernel takes {', '.join(map(str, HEAD_DIMS))}")
    if k.shape != q.shape or v.shape != q.shape:
        raise ValueError(f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}: this kernel takes one "
                         "shape for all three (use tileport.ops.attention for grouped-query or cross attention)")
    o = C.output(out, q.shape, q)
    views = [C.view(name, t, (b * h, s, d)) for name, t in (("q", q), ("k", k), ("v", v), ("out", o))]
    if b * h and s:
        scale = float(d ** -0.5 if scale is None else scale)
        OP.example.launch(*views, scale, bool(is_causal), kernel=OP.kernel(backend))
    return o


def sample_inputs(case, dtype, device):
    b, h, s, d, causal = C.shape(SHAPES, case)
    return tuple(C.randn((b, h, s, d), dtype, device) for _ in range(3)), {"is_causal": causal}


reference, torch_eager, tolerance, bytes_moved, flops = (
    _same.reference, _same.torch_eager, _same.tolerance, _same.bytes_moved, _same.flops)
