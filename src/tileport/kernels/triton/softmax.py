"""Row softmax in Triton: one program per row, the whole row in one block (padded with -inf past the end)."""
import triton
import triton.language as tl

from ._host import stride as _stride


@triton.jit
def triton_softmax(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, num / den, mask=mask)


def launch(x, out, block=None, kernel=None):
    """out[r, :] = softmax(x[r, :]) for a 2-D x whose rows are contiguous."""
    rows, cols = x.shape
    (kernel or triton_softmax)[(rows,)](out, x, _stride(x, 0), _stride(out, 0), cols,
                                        BLOCK_SIZE=block or triton.next_power_of_2(cols))
