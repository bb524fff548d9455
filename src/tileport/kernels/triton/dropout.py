"""Seeded dropout in Triton: keep element i when a hash of (i, seed) maps to u >= p, scaled by 1 / (1 - p).

The hash is wrapping int32 multiply / xor-shift arithmetic (the same mixer as tileport.kernels.dropout), so the
kept set is reproducible on the host (tileport.ops.dropout.keep_mask) and identical on every backend.
"""
import triton
import triton.language as tl

from ._host import numel

from .vector_add import BLOCK


@triton.jit
def triton_dropout(x_ptr, y_ptr, n_elements, seed, p, scale, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    h = offs * 2146121005 + seed
    h = h ^ (h >> 15)
    h = h * 461845907
    h = h ^ (h >> 13)
    u = (h & 16777215).to(tl.float32) * 5.9604644775390625e-08
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, tl.where(u >= p, x * scale, 0.0), mask=mask)


def launch(x, y, seed, p, kernel=None):
    n = numel(x)
    (kernel or triton_dropout)[(triton.cdiv(n, BLOCK),)](x, y, n, seed, p, 1.0 / (1.0 - p), BLOCK_SIZE=BLOCK)
