"""token_gather: out[i] = table[ids[i]] (f32 table, int32 ids; ids outside the table read 0), one 1024-wide tile
of positions per block (tileport.kernels.token_gather)."""
from __future__ import annotations

from tileport.kernels.token_gather import token_gather as kernel

from . import _common as C

DTYPES = ("float32",)
B = 1024
PORT_SIGNATURES = C.signatures("table={dtype}[?]/1, ids=i32[?]/1, out={dtype}[?]/1, n=i32, B=#{b}", dtype=DTYPES,
                               b=[B])


def token_gather(table, ids, *, backend=None, out=None):
    """table [V] (float32), ids [N] (int32) → [N]: table[ids], 0 where an id is outside [0, V)."""
    import torch

    C.check("table", table, DTYPES, ndim=1)
    if not isinstance(ids, torch.Tensor) or ids.dtype != torch.int32 or ids.dim() != 1 or ids.device != table.device:
        raise ValueError("ids must be a 1-D int32 tensor on the table's device")
    t, i = C.flat("table", table), C.flat("ids", ids)
    y = C.output(out, ids.shape, table)
    n = i.shape[0]
    C.launch((C.cdiv(n, B), 1, 1), kernel, (t, i, y, C.int32_scalar("n", n), B), backend)
    return y


def reference(table, ids):
    import torch

    t = C.f64(table)
    inside = (ids >= 0) & (ids < t.shape[0])
    return torch.where(inside, t[ids.clamp(0, t.shape[0] - 1).long()], torch.zeros_like(t[:1]))


def sample_inputs(case, dtype, device):
    import torch

    v, n = {"small": (1000, 4096), "ragged": (50021, 100003), "mid": (32000, 1 << 20), "large": (128000, 1 << 24)}[case]
    table = C.randn((v,), dtype, device)
    ids = torch.randint(-3, v + 3, (n,), dtype=torch.int32, device=device)  # a few out of range
    return (table, ids), {}


def tolerance(dtype):
    return C.tolerance_of({"float32": (0.0, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    table, ids = args
    return C.nbytes(ids) * 3  # ids read, one f32 read and one written per position


flops = C.no_flops
