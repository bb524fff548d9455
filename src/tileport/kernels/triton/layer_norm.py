"""Layer norm in Triton: one program per row; mean and variance in f32 (two passes over the row in registers)."""
import triton
import triton.language as tl

from ._host import stride as _stride


@triton.jit
def triton_layer_norm(x_ptr, w_ptr, b_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, inv_n, eps,
                      BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) * inv_n
    d = tl.where(mask, x - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(d * d, axis=0) * inv_n + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * y_row_stride + cols, d * rstd * w + b, mask=mask)


def launch(x, w, b, y, eps=1e-5, block=None, kernel=None):
    rows, cols = x.shape
    (kernel or triton_layer_norm)[(rows,)](x, w, b, y, _stride(x, 0), _stride(y, 0), cols, 1.0 / cols, eps,
                                           BLOCK_SIZE=block or triton.next_power_of_2(cols))
