"""RMS norm in Triton: one program per row; y = x / sqrt(mean(x^2) + eps) * w, in f32, stored in y's dtype."""
import triton
import triton.language as tl

from ._host import stride as _stride


@triton.jit
def triton_rms_norm(x_ptr, w_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, inv_n, eps,
                    BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) * inv_n + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * y_row_stride + cols, x * rstd * w, mask=mask)


def launch(x, w, y, eps=1e-6, block=None, kernel=None):
    rows, cols = x.shape
    (kernel or triton_rms_norm)[(rows,)](x, w, y, _stride(x, 0), _stride(y, 0), cols, 1.0 / cols, eps,
                                         BLOCK_SIZE=block or triton.next_power_of_2(cols))
