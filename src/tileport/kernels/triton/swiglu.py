"""SwiGLU in Triton: y = silu(g) * u elementwise over flat vectors, in f32, stored in y's dtype."""
import triton
import triton.language as tl

from ._host import numel

from .vector_add import BLOCK


@triton.jit
def triton_swiglu(g_ptr, u_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(u_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, g / (1.0 + tl.exp(-g)) * u, mask=mask)


def launch(g, u, y, kernel=None):
    n = numel(g)
    (kernel or triton_swiglu)[(triton.cdiv(n, BLOCK),)](g, u, y, n, BLOCK_SIZE=BLOCK)
