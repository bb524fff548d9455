"""expert_offsets: offsets[e] = exclusive prefix sum of the per-expert token counts, within groups of BLOCK experts
(tileport.kernels.expert_offsets; one block per group, int32).

``group=None`` (the usual MoE case: up to 1024 experts) scans all counts as one group; an explicit ``group`` from
BLOCKS restarts the sum every ``group`` experts — the first phase of a blocked scan over a long array.
"""
from __future__ import annotations

from tileport.kernels.expert_offsets import expert_offsets as kernel

from . import _common as C

DTYPES = ("int32",)
BLOCKS = (64, 256, 1024)
PORT_SIGNATURES = C.signatures("counts={dtype}[?]/1, offsets={dtype}[?]/1, BLOCK=#{block}", dtype=DTYPES,
                               block=BLOCKS)


def _block(n, group):
    if group is None:
        return C.bucket(max(n, 1), BLOCKS, "the number of experts (scanned as one group)")
    if group not in BLOCKS:
        raise ValueError(f"group={group!r}: choose one of {', '.join(map(str, BLOCKS))}, or None for one group")
    return group


def expert_offsets(counts, group=None, *, backend=None, out=None):
    """counts [E] int32 → offsets [E] int32."""
    C.check("counts", counts, DTYPES, ndim=1)
    block = _block(counts.shape[0], group)
    return C.elementwise(kernel, {"counts": counts}, (block,), DTYPES, tile=block, backend=backend, out=out)


def reference(counts, group=None):
    import torch
    import torch.nn.functional as F

    n = counts.shape[0]
    block = _block(n, group)
    c = F.pad(counts.to(torch.int64), (0, C.cdiv(n, block) * block - n)).view(-1, block)
    return (c.cumsum(dim=1) - c).reshape(-1)[:n].double()


def sample_inputs(case, dtype, device):
    import torch

    n, group = {"small": (50, None), "ragged": (1000, None), "mid": (1000003, 256), "large": (1 << 24, 1024)}[case]
    return (torch.randint(0, 64, (n,), dtype=torch.int32, device=device),), {"group": group}


def tolerance(dtype):
    return C.tolerance_of({"int32": (0.0, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    return 2 * C.nbytes(args[0])


flops = C.no_flops
