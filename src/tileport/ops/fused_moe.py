"""fused_moe: the routed expert GEMMs of a mixture-of-experts layer — out[t, k] = topk_weights[t, k] *
(a[t] @ w[topk_ids[t, k]]^T) for activations a [T, Kd] (f16/bf16), expert weights w [E, N, Kd] (nn.Linear's
layout, a's dtype), topk_ids [T, K] int32 and topk_weights [T, K] float32; out [T, K, N] in a's dtype.

The wrapper aligns the assignments with moe_align_block (sorted by expert, each expert's run padded to block_size
slots), then one launch of tileport.kernels.fused_moe computes every (block_size x 128) tile of the grouped GEMM:
it gathers its tokens' activation rows, multiplies them by the block's expert's weights with ct.mma (64-deep K
steps, f32 accumulation), scales each row by its routing weight and scatters the rows to their place in out.
Blocks of padding only are skipped.

The kernel gathers a's rows and scatters its rows into out in their own dtype, each result rounded once (to
nearest even) from the f32 accumulator. (Until 2026-11-30 the host staged a as an f32 copy and out through an f32
[T*K*N] scratch buffer: the port took no 16-bit gather then.)

Limits: E <= 256, T*K <= 2^22, T*K*N < 2^31, block_size in BLOCK_SIZES, at most 65535 blocks of block_size slots.
Expert ids outside [0, E) are dropped by the alignment: their rows of out are left unspecified.
"""
from __future__ import annotations

from tileport.kernels.fused_moe import fused_moe as kernel

from . import _common as C
from . import moe_align_block as align

DTYPES = C.HALVES
AUX_DTYPES = ("float32",)   # topk_weights
BLOCK_SIZES = (16, 64, 128)   # BM: the slots of a block (moe_align_block's block_size)
BN, BK = 128, 64
MAX_GRID_Y = 65535   # CUDA's limit on grid dimension 1 (the slot blocks)
PORT_SIGNATURES = C.signatures("a={dtype}[?]/1, w={dtype}[?,?,?]/?,?,1, topk_ids=i32[?]/1, topk_weights=f32[?]/1, "
                               "sorted_ids=i32[?]/1, out={dtype}[?]/1, inv_topk=f32, BM=#{t[0]}, BN=#{t[1]}, "
                               "BK=#{t[2]}, BMK=#{t[3]}", dtype=DTYPES, t=[(bm, BN, BK, bm * BK) for bm in BLOCK_SIZES])
#: (tokens T, hidden Kd, expert output N, experts E, choices per token K, experts no token chooses)
SHAPES = {"small": (64, 256, 256, 8, 2, (5,)), "ragged": (77, 200, 300, 12, 3, (3, 7)),
          "mid": (1024, 2048, 1408, 64, 6, ()), "large": (8192, 2048, 2816, 64, 8, ())}


def _routing_tensor(name, t, dtype, shape, like):
    import torch

    if not isinstance(t, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, not {type(t).__name__}")
    if t.dtype != getattr(torch, dtype) or tuple(t.shape) != tuple(shape) or t.device != like.device:
        raise ValueError(f"{name} must be a {dtype} tensor of shape {tuple(shape)} on {like.device} "
                         f"(it is {C.dtype_name(t)} {tuple(t.shape)} on {t.device})")
    return C.flat(name, t)


def fused_moe(a, w, topk_ids, topk_weights, block_size=64, *, backend=None, out=None):
    """a [T, Kd], w [E, N, Kd] (f16/bf16), topk_ids [T, K] int32, topk_weights [T, K] float32 → [T, K, N]."""
    import torch

    C.check("a", a, DTYPES, ndim=2)
    C.check("w", w, DTYPES, ndim=3, like=a)
    C.unit_last_stride("w", w)
    t, depth = a.shape
    experts, n_out, kw = w.shape
    if kw != depth:
        raise ValueError(f"a has {depth} columns but w is {tuple(w.shape)}: w must be [E, N, {depth}]")
    if not isinstance(topk_ids, torch.Tensor) or topk_ids.dim() != 2 or topk_ids.shape[0] != t:
        raise ValueError(f"topk_ids must be [{t}, K] (one row per token of a)")
    k = topk_ids.shape[1]
    ids = _routing_tensor("topk_ids", topk_ids, "int32", (t, k), a)
    weights = _routing_tensor("topk_weights", topk_weights, "float32", (t, k), a)
    if block_size not in BLOCK_SIZES:
        raise ValueError(f"block_size={block_size!r}: choose one of {', '.join(map(str, BLOCK_SIZES))}")
    if not 1 <= experts <= align.EB:
        raise ValueError(f"w has {experts} experts; the kernels take 1 to {align.EB}")
    n = t * k
    if n > align.MAX_ASSIGNMENTS or n * n_out > C.MAX_OFFSET:
        raise ValueError(f"T*K = {n} assignments of {n_out} outputs: at most {align.MAX_ASSIGNMENTS} assignments "
                         f"and {C.MAX_OFFSET} output elements")
    grid = (C.cdiv(n_out, BN), align.padded_length(n, experts, block_size) // block_size, 1)
    if grid[1] > MAX_GRID_Y:
        raise ValueError(f"{grid[1]} blocks of {block_size} slots: more than a grid's {MAX_GRID_Y}; pass a larger "
                         "block_size")
    y = C.output(out, (t, k, n_out), a)
    if n == 0 or n_out == 0 or depth == 0:
        C.launch((0, 0, 0), kernel, (), backend)   # checks the backend's name, launches nothing
        return y.zero_()   # an empty sum (Kd = 0) is 0
    sorted_ids = align.moe_align_block(topk_ids, experts, block_size, backend=backend)
    flat_a = a.contiguous().view(-1)   # the gather reads a flat (a copy only when a has other strides)
    C.launch(grid, kernel, (flat_a, w, ids, weights, sorted_ids, y.view(-1), 1.0 / k, block_size, BN, BK,
                            block_size * BK), backend)
    return y


def reference(a, w, topk_ids, topk_weights, block_size=64):
    import torch

    a, w = C.f64(a, w)
    t, k = topk_ids.shape
    out = torch.zeros((t, k, w.shape[1]), dtype=torch.float64, device=a.device)
    ids = topk_ids.to(torch.int64)
    for e in range(w.shape[0]):
        tok, choice = (ids == e).nonzero(as_tuple=True)
        if tok.numel():
            out[tok, choice] = (a[tok] @ w[e].T) * topk_weights[tok, choice].to(torch.float64)[:, None]
    return out


def torch_eager(a, w, topk_ids, topk_weights, block_size=64):
    """PyTorch eager (the bench's comparison): per expert, index_select its tokens' rows, one matmul, scale by the
    routing weights and index_add the rows into out [T*K, N] (one host sync for the per-expert counts)."""
    import torch

    t, k = topk_ids.shape
    flat = topk_ids.reshape(-1).to(torch.int64)
    weights = topk_weights.reshape(-1, 1)
    out = a.new_zeros((t * k, w.shape[1]))
    order = torch.sort(flat, stable=True).indices
    start = 0
    for e, count in enumerate(torch.bincount(flat, minlength=w.shape[0]).tolist()):
        if count:
            idx = order[start:start + count]
            rows = a.index_select(0, idx // k) @ w[e].T
            out.index_add_(0, idx, (rows * weights.index_select(0, idx)).to(a.dtype))
            start += count
    return out.view(t, k, -1)


def torch_grouped_mm(a, w, topk_ids, topk_weights, block_size=64):
    """The fastest PyTorch path (the bench's comparison, issue 20): the assignments sorted by expert, the rows
    gathered once, one ``torch._grouped_mm`` over every expert (offsets from the counts, no host sync), scaled by
    the routing weights and put back in assignment order."""
    import torch

    t, k = topk_ids.shape
    flat = topk_ids.reshape(-1)
    order = torch.sort(flat, stable=True).indices
    ends = torch.cumsum(torch.bincount(flat, minlength=w.shape[0]), 0).to(torch.int32)
    rows = torch._grouped_mm(a.index_select(0, order // k), w.transpose(1, 2), offs=ends)
    out = torch.empty((t * k, w.shape[1]), dtype=a.dtype, device=a.device)
    out[order] = (rows * topk_weights.reshape(-1)[order, None]).to(a.dtype)
    return out.view(t, k, -1)


#: PyTorch paths beyond eager and its torch.compile that the bench times this op against
TORCH_PATHS = {"grouped_mm": torch_grouped_mm}


def sample_inputs(case, dtype, device):
    import torch

    t, depth, n_out, experts, k, unused = C.shape(SHAPES, case)
    ids = align.routing(t, k, experts, unused, device)
    weights = torch.rand((t, k), device=device) + 0.1
    weights /= weights.sum(dim=1, keepdim=True)
    return (C.randn((t, depth), dtype, device), C.randn((experts, n_out, depth), dtype, device, scale=depth ** -0.5),
            ids, weights), {}


def tolerance(dtype):
    return C.tolerance_of({"float16": (2e-3, 1e-4), "bfloat16": (1.6e-2, 1e-3)}, dtype)


def bytes_moved(args, kwargs):
    """a, w, the routing and out, each once."""
    a, w, ids, weights = args
    return C.nbytes(a, w, ids, weights) + ids.numel() * w.shape[1] * a.element_size()


def flops(args, kwargs):
    """2 T K N Kd."""
    a, w, ids, _ = args
    return 2 * ids.numel() * w.shape[1] * a.shape[1]
