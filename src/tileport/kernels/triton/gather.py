"""Gather in Triton: out[i] = src[idx[i]] for i < n — an index_select / embedding-style lookup whose addresses are
data, not a tile: the frontend lowers it to ct.gather (and the store of a shifted copy, to ct.scatter)."""
import triton
import triton.language as tl

from ._host import numel

BLOCK = 1024


@triton.jit
def triton_gather(src_ptr, idx_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    vals = tl.load(src_ptr + idx, mask=mask, other=0.0)
    tl.store(out_ptr + offs, vals, mask=mask)


def launch(src, idx, out, kernel=None):
    """out[i] = src[idx[i]]; src, idx (int32) and out contiguous and flat, idx and out of one length."""
    n = numel(idx)
    (kernel or triton_gather)[(triton.cdiv(n, BLOCK),)](src, idx, out, n, BLOCK_SIZE=BLOCK)
