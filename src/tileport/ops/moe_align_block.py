"""moe_align_block: MoE token alignment — the assignments of a top-k routing sorted by expert and padded per expert to
whole blocks, the row order a grouped expert GEMM (fused_moe) walks (tileport.kernels.moe_align_block).

topk_ids [T, K] int32 holds the expert of each of a token's K choices; assignment a = t*K + k is its flat index.
The result sorted_ids [L] int32 lists the assignments grouped by expert (expert 0 first), each expert's segment
padded up to a multiple of block_size, and inside a segment in increasing a — deterministic and exact (no atomics
decide an order; both backends agree bit for bit). Every padding slot and every slot past the last segment holds the
sentinel T*K. Experts with no assignment take no slot; an assignment whose expert lies outside
[0, num_experts) is dropped (it appears nowhere).

L = padded_length(T*K, num_experts, block_size) = block_size * floor((T*K + min(num_experts, T*K) *
(block_size - 1)) / block_size): the most slots any routing can fill (each expert with assignments wastes at most
block_size - 1 slots), a whole number of blocks. Every block of block_size slots either starts with a real
assignment — then all its real assignments belong to one expert, recovered as
``topk_ids.flatten()[sorted_ids[block * block_size]]`` — or holds only sentinels (fused_moe relies on both).

Two launches of one kernel over 2048-long chunks of the assignments: MODE 0 counts each chunk's assignments per
expert (atomic adds into a zeroed table of per-chunk and total counts), MODE 1 (grid experts x chunks) ranks each
chunk's assignments to one expert with a cumsum and scatters them, with the padding and the free tail. Limits:
1 <= num_experts <= 256, block_size a power of two from 1 to 1024, T*K <= 2^22.
"""
from __future__ import annotations

from tileport.kernels.moe_align_block import moe_align_block as kernel

from . import _common as C

DTYPES = ("int32",)
EB = 256          # experts per table row: the most experts
RB = 64           # table rows summed per step of MODE 1's prefix loop
TILE = 2048       # assignments per chunk
MAX_BLOCK_SIZE = TILE // 2
#: the most assignments (T*K): keeps every slot computation inside int32 (and fused_moe's token quotient exact)
MAX_ASSIGNMENTS = 1 << 22
PORT_SIGNATURES = C.signatures("topk_ids={dtype}[?]/1, counters=i32[?]/1, table=i32[?]/1, sorted_ids=i32[?]/1, "
                               "num_experts=i32, block_size=i32, MODE=#{mode}, EB=#{eb}, RB=#{rb}, TILE=#{tile}",
                               dtype=DTYPES, mode=[0, 1], eb=[EB], rb=[RB], tile=[TILE])
#: (tokens T, choices per token K, experts, block_size, experts no token chooses, whether a few ids are invalid)
SHAPES = {"small": (50, 2, 8, 16, (5,), False), "ragged": (1000, 6, 60, 64, (7, 13, 59), True),
          "mid": (4096, 8, 128, 64, (), False), "large": (16384, 8, 256, 64, (), False)}


def padded_length(n, num_experts, block_size):
    """len(sorted_ids) for n assignments: the most slots any routing needs, a whole number of blocks."""
    return (n + min(num_experts, n) * (block_size - 1)) // block_size * block_size


def _check_args(topk_ids, num_experts, block_size):
    C.check("topk_ids", topk_ids, DTYPES, ndim=2)
    num_experts = C.int32_scalar("num_experts", num_experts)
    if not 1 <= num_experts <= EB:
        raise ValueError(f"num_experts={num_experts}: the kernel takes 1 to {EB} experts")
    block_size = C.int32_scalar("block_size", block_size)
    if not (1 <= block_size <= MAX_BLOCK_SIZE and block_size & (block_size - 1) == 0):
        raise ValueError(f"block_size={block_size}: choose a power of two from 1 to {MAX_BLOCK_SIZE}")
    return num_experts, block_size


def moe_align_block(topk_ids, num_experts, block_size=64, *, backend=None, out=None):
    """topk_ids [T, K] int32 → sorted_ids [padded_length(T*K, num_experts, block_size)] int32 (see the module)."""
    import torch

    num_experts, block_size = _check_args(topk_ids, num_experts, block_size)
    ids = C.flat("topk_ids", topk_ids)
    n = ids.shape[0]
    if n > MAX_ASSIGNMENTS:
        raise ValueError(f"topk_ids holds {n} assignments; the kernel takes at most {MAX_ASSIGNMENTS}")
    sorted_ids = C.output(out, (padded_length(n, num_experts, block_size),), topk_ids)
    chunks = C.cdiv(n, TILE)
    # per-chunk counts (rows 0..chunks-1) and totals (row chunks), then a spare element: the parameter a launch does
    # not use points at it, so no array the kernel writes overlaps another argument
    table = torch.zeros(((chunks + 1) * EB + 1,), dtype=torch.int32, device=topk_ids.device)
    counts, spare = table[:-1], table[-1:]
    consts = (num_experts, block_size)
    C.launch((chunks, 1, 1), kernel, (ids, counts, spare, sorted_ids, *consts, 0, EB, RB, TILE), backend)
    C.launch((num_experts, chunks, 1), kernel, (ids, spare, counts, sorted_ids, *consts, 1, EB, RB, TILE), backend)
    return sorted_ids


def _align(topk_ids, num_experts, block_size):
    """The alignment with torch operations (int64): a stable sort by expert places each assignment."""
    import torch

    flat = topk_ids.reshape(-1).to(torch.int64)
    n = flat.numel()
    out = torch.full((padded_length(n, num_experts, block_size),), n, dtype=torch.int64, device=flat.device)
    inside = (flat >= 0) & (flat < num_experts)
    assignment = torch.arange(n, device=flat.device)[inside]
    expert = flat[inside]
    order = torch.sort(expert, stable=True).indices   # by expert, then by assignment index
    expert, assignment = expert[order], assignment[order]
    counts = torch.bincount(expert, minlength=num_experts)
    padded = (counts + block_size - 1) // block_size * block_size
    seg_start = torch.cumsum(padded, 0) - padded
    first = torch.cumsum(counts, 0) - counts      # where each expert's run starts in the sorted list
    rank = torch.arange(expert.numel(), device=flat.device) - first[expert]
    out[seg_start[expert] + rank] = assignment
    return out


def reference(topk_ids, num_experts, block_size=64):
    return _align(topk_ids, num_experts, block_size).double()


def torch_eager(topk_ids, num_experts, block_size=64):
    """The same alignment with PyTorch operations (stable sort, bincount, cumsum, index_put; the bench's comparison)."""
    return _align(topk_ids, num_experts, block_size).to(topk_ids.dtype)


def routing(tokens, k, experts, unused, device):
    """topk_ids [tokens, k] int32: k distinct random experts per token, never one of ``unused``."""
    import torch

    scores = torch.rand((tokens, experts), device=device)
    if unused:
        scores[:, list(unused)] = -1.0
    return scores.topk(k, dim=1).indices.to(torch.int32)


def sample_inputs(case, dtype, device):
    import torch

    t, k, experts, block_size, unused, invalid = C.shape(SHAPES, case)
    ids = routing(t, k, experts, unused, device)
    if invalid:   # a few choices of no expert (e.g. experts of another rank): dropped
        ids.view(-1)[torch.randperm(t * k, device=device)[:10]] = torch.tensor(
            [-1, experts, -7, experts + 3, -1, experts, 1 << 20, -1, experts, -2], dtype=torch.int32, device=device)
    return (ids, experts), {"block_size": block_size}


def tolerance(dtype):
    return C.tolerance_of({"int32": (0.0, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    """topk_ids read and sorted_ids written once (the kernel reads the ids once per expert, from L2)."""
    topk_ids, num_experts = args
    n = topk_ids.numel()
    return C.nbytes(topk_ids) + 4 * padded_length(n, num_experts, kwargs.get("block_size", 64))


flops = C.no_flops
