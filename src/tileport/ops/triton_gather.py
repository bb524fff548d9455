"""triton_gather: out[i] = src[idx[i]] by the Triton kernel tileport.kernels.triton.gather — data-dependent
addresses, lowered to ct.gather — served by its port (tileport.ops._triton). f32 only: the port pads masked lanes
with a literal, which cutile 0.3.1 cannot write in 16 bits."""
from __future__ import annotations

from . import _common as C
from ._triton import TritonOp

OP = TritonOp("gather")
DTYPES = ("float32",)
AUX_DTYPES = ("int32",)
PORT_SIGNATURES = C.signatures("src_ptr={dtype}[?]/1, idx_ptr=i32[?]/1, out_ptr={dtype}[?]/1, n=i32, BLOCK_SIZE=#1024",
                               dtype=DTYPES)


def triton_gather(src, idx, *, backend=None, out=None):
    """src[idx] for a flat src and int32 indices (any shape, contiguous); indices must lie in [0, src.numel())."""
    C.check("src", src, DTYPES, min_ndim=0)
    C.check("idx", idx, ("int32",), min_ndim=0)
    if idx.get_device() != src.get_device():
        raise ValueError(f"idx is on {idx.device}, src on {src.device}")
    o = C.output(out, idx.shape, src)
    if idx.numel():
        OP.example.launch(C.flat("src", src), C.flat("idx", idx), C.flat("out", o), kernel=OP.kernel(backend))
    return o


def reference(src, idx):
    return C.f64(src).reshape(-1)[idx.long()]


def torch_eager(src, idx):
    """PyTorch's own indexing on the same inputs (the bench's comparison)."""
    return src.reshape(-1)[idx]


def sample_inputs(case, dtype, device):
    import torch

    n = C.shape({"small": (4096,), "ragged": (1000003,), "mid": (1 << 22,), "large": (1 << 25,)}, case)[0]
    src = C.randn((2 * n,), dtype, device)
    return (src, torch.randint(0, 2 * n, (n,), device=device, dtype=torch.int32)), {}


def tolerance(dtype):
    return C.tolerance_of({"float32": (0.0, 0.0)}, dtype)


def bytes_moved(args, kwargs):
    src, idx = args
    return C.nbytes(idx) + 2 * idx.numel() * src.element_size()


flops = C.no_flops
