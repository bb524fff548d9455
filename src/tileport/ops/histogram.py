"""histogram: counts[b] = how many of bins[i] equal b, for int32 bin ids (ids outside [0, nbins) are dropped), one
1024-long tile of ids per block, counted with atomic adds (tileport.kernels.histogram). The output is zeroed first:
an accumulating kernel must not start from what the buffer held."""
from __future__ import annotations

from tileport.kernels.histogram import histogram as kernel

from . import _common as C

DTYPES = ("int32",)
TILE = 1024
PORT_SIGNATURES = C.signatures("bins={dtype}[?]/1, counts={dtype}[?]/1, TILE=#{tile}", dtype=DTYPES, tile=[TILE])


def histogram(bins, nbins, *, backend=None, out=None):
    """bins [n] int32 → counts [nbins] int32."""
    C.check("bins", bins, DTYPES, ndim=1)
    nbins = C.int32_scalar("nbins", nbins)
    if nbins < 1:
        raise ValueError(f"nbins must be at least 1, not {nbins}")
    ids = C.flat("bins", bins)
    counts = C.output(out, (nbins,), bins)
    counts.zero_()
    C.launch((max(1, C.cdiv(ids.shape[0], TILE)), 1, 1), kernel, (ids, counts, TILE), backend)
    return counts


def reference(bins, nbins):
    import torch

    b = bins.to(torch.int64)
    inside = b[(b >= 0) & (b < nbins)]
    return torch.bincount(inside, minlength=nbins).double()


def sample_inputs(case, dtype, device):
    import torch

    n, nbins = {"small": (50, 16), "ragged": (1000003, 777), "mid": (1 << 20, 4096), "large": (1 << 24, 4096)}[case]
    # a few ids on each side of the range, to be dropped
    return (torch.randint(-3, nbins + 3, (n,), dtype=torch.int32, device=device), nbins), {}


def tolerance(dtype):
    return C.tolerance_of({"int32": (0.0, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    return C.nbytes(args[0])


flops = C.no_flops
