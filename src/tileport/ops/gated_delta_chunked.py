"""gated_delta_chunked: the gated delta rule (Gated DeltaNet's linear attention) in its chunked (parallel) form for
long sequences (tileport.kernels.gated_delta_chunked) — the same result as gated_delta_recurrent:

S' = exp(g_t) S_{t-1}; u_t = beta_t (v_t - S'^T k_t); S_t = S' + k_t u_t^T; o_t = scale * S_t^T q_t

q, k [B, H, T, DK] and v [B, H, T, DV] (f16/bf16, DK and DV each 64 or 128; k conventionally L2-normalised), g (log
decay, <= 0) and beta (write strength, in (0, 1)) [B, H, T] float32 → o [B, H, T, DV] in v's dtype; scale defaults
to DK ** -0.5. One block per (batch x head, 64 state columns) walks the sequence 64 steps at a time: per chunk it
solves the chunk's delta rule with a 64x64 unit-lower-triangular inverse built from tensor-core products (recursive
doubling, tf32), then advances its [DK, 64] f32 state; Q K^T and K K^T use the f16/bf16 inputs, the products with
the state, with T and with U use tf32 (10-bit mantissa): in a numpy emulation of the kernel its error against the
float64 recurrence is about that of rounding o itself (at most 9e-4 in f16, 4e-3 in bf16 for |o| up to 1.3), with
random and with strongly correlated keys. A ragged T is zero-padded (k = v = 0, g = beta = 0 change nothing). The
kernel's per-chunk (64, 64) output tiles go to a chunk-major staging buffer [cdiv(T, 64), B*H, DV / 64, 64, 64] (the
one layout a proven port lets a block's sequential stores take), which the host reorders into o with one copy (two
for a ragged T); when that layout is o's own (T = 64 * n, DV = 64 and n == 1 or B*H == 1) the kernel writes o
directly."""
from __future__ import annotations

from tileport.kernels.gated_delta_chunked import gated_delta_chunked as kernel

from . import _common as C
from . import gated_delta_recurrent as recurrent
from .gated_delta_recurrent import DTYPES, HEAD_DIMS, gated_inputs, operands, staging

# The same inputs, checks and float64 reference (the step-by-step recurrence) as the recurrent form.
AUX_DTYPES = recurrent.AUX_DTYPES   # g and beta
CEILING = "none"   # PyTorch has no kernel for it (its torch_eager is an eager composition): TFLOP/s only
reference = recurrent.reference
torch_eager = recurrent.torch_eager
TORCH_COMPILE = recurrent.TORCH_COMPILE   # (the same step loop, T = 4096 at large)

CHUNK = 64                  # steps per chunk (the kernel's doubling inverse covers up to 64)
BV = 64                     # state columns per block
PORT_SIGNATURES = C.signatures("q={dtype}[?,?,?]/?,?,1, k={dtype}[?,?,?]/?,?,1, v={dtype}[?,?,?]/?,?,1, "
                               "g=f32[?,?]/?,1, beta=f32[?,?]/?,1, o={dtype}[?]/1, scale=f32, C=#{c}, DK=#{dk}, "
                               "BV=#{bv}, CBV=#{cbv}", dtype=DTYPES, c=[CHUNK], dk=HEAD_DIMS, bv=[BV],
                               cbv=[CHUNK * BV])
#: (batch, heads, sequence length, head dim)
SHAPES = {"small": (1, 2, 64, 64), "ragged": (2, 3, 100, 128), "mid": (2, 16, 1024, 128),
          "large": (4, 32, 4096, 128)}


def gated_delta_chunked(q, k, v, g, beta, scale=None, *, backend=None, out=None):
    """o [B, H, T, DV] of the gated delta rule over q, k [B, H, T, DK], v [B, H, T, DV], g, beta [B, H, T] (f32)."""
    views, z, t, dk, dv = operands(q, k, v, g, beta)
    o = C.output(out, v.shape, v)
    scale = float(dk ** -0.5 if scale is None else scale)
    nt, nb = C.cdiv(t, CHUNK), dv // BV
    direct = t % CHUNK == 0 and nb == 1 and (nt == 1 or z == 1)   # the staging layout is o's own
    stage = o.view(-1) if direct else staging(o, nt * z * dv * CHUNK)
    C.launch((z * nb if t else 0, 1, 1), kernel, (*views, stage, scale, CHUNK, dk, BV, CHUNK * BV), backend)
    if not direct and z and t:
        ov = o.view(z, t, nb, BV)
        sv = stage.view(nt, z, nb, CHUNK, BV)          # (chunk, head, column block, row, column)
        full = t // CHUNK
        if full:
            ov[:, :full * CHUNK].view(z, full, CHUNK, nb, BV).copy_(sv[:full].permute(1, 0, 3, 2, 4))
        if t > full * CHUNK:                           # the last, partial chunk: its first t % CHUNK rows
            ov[:, full * CHUNK:].copy_(sv[full, :, :, :t - full * CHUNK].permute(0, 2, 1, 3))
    return o


def sample_inputs(case, dtype, device):
    return gated_inputs(C.shape(SHAPES, case), dtype, device)


def tolerance(dtype):
    """Rounding o to f16/bf16 dominates; tf32 products add ~1e-3 of |o| at most (numpy emulation of the kernel)."""
    return C.tolerance_of({"float16": (5e-3, 5e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def bytes_moved(args, kwargs):
    """Each input read once and o written once (the staging copy's extra traffic, 2x o's bytes, is not counted)."""
    return C.nbytes(*args[:5]) + C.nbytes(args[2])


def flops(args, kwargs):
    """The chunked algorithm's matrix products per head and chunk of C = 64 steps, counted once per head:
    K K^T and Q K^T (4 C^2 DK), the doubling inverse (5 levels x 2 products: 20 C^3), T R and (Q K^T) U (4 C^2 DV),
    K S, Q S and K^T U (6 C DK DV). The kernel repeats the C x C ones (4 C^2 DK + 20 C^3) in each of its DV / 64
    column blocks; those repeats are not counted."""
    q, v = args[0], args[2]
    b, h, t, dk = q.shape
    dv, c = v.shape[3], CHUNK
    return b * h * C.cdiv(t, c) * (4 * c * c * dk + 20 * c ** 3 + 4 * c * c * dv + 6 * c * dk * dv)
