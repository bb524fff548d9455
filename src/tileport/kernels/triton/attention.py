"""Fused attention forward in Triton (online softmax, exp2 form): O = softmax(Q K^T * sm_scale) V per (batch x head).

q, k, v, o are [B*H, S, D] with unit last stride; program (hz, m) owns BLOCK_M query rows of head hz and streams
keys and values in BLOCK_N-row blocks through block pointers advanced once per iteration. Keys past S are masked
to -1e30; with IS_CAUSAL keys after the query row are too (top-left aligned) and the loop stops at the block's last
row. grid = (B*H, cdiv(S, BLOCK_M)).
"""
import triton
import triton.language as tl

from ._host import stride as _stride

TILES = (64, 64)


@triton.jit
def triton_attention(Q, K, V, Out, sm_scale, stride_qh, stride_qm, stride_kh, stride_kn, stride_vh, stride_vn,
                     stride_oh, stride_om, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, IS_CAUSAL: tl.constexpr):
    off_hz = tl.program_id(0)
    start_m = tl.program_id(1)
    q_blk = tl.make_block_ptr(Q + off_hz * stride_qh, shape=(N_CTX, HEAD_DIM), strides=(stride_qm, 1),
                              offsets=(start_m * BLOCK_M, 0), block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    k_blk = tl.make_block_ptr(K + off_hz * stride_kh, shape=(N_CTX, HEAD_DIM), strides=(stride_kn, 1),
                              offsets=(0, 0), block_shape=(BLOCK_N, HEAD_DIM), order=(1, 0))
    v_blk = tl.make_block_ptr(V + off_hz * stride_vh, shape=(N_CTX, HEAD_DIM), strides=(stride_vn, 1),
                              offsets=(0, 0), block_shape=(BLOCK_N, HEAD_DIM), order=(1, 0))
    q = tl.load(q_blk, boundary_check=(0, 1), padding_option="zero")
    m_i = tl.full((BLOCK_M,), -1.0e30, tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    qk_scale = sm_scale * 1.4426950408889634  # exp(x) = exp2(x * log2(e))
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    hi = tl.cdiv(N_CTX, BLOCK_N)
    if IS_CAUSAL:
        hi = tl.cdiv((start_m + 1) * BLOCK_M, BLOCK_N)
    for j in range(0, hi):
        k = tl.load(k_blk, boundary_check=(0, 1), padding_option="zero")
        qk = tl.dot(q, tl.trans(k), tl.zeros((BLOCK_M, BLOCK_N), tl.float32)) * qk_scale
        offs_n = j * BLOCK_N + tl.arange(0, BLOCK_N)
        qk = tl.where(offs_n[None, :] < N_CTX, qk, -1.0e30)
        if IS_CAUSAL:
            qk = tl.where(offs_n[None, :] <= offs_m[:, None], qk, -1.0e30)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_blk, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(p.to(V.dtype.element_ty), v, acc * alpha[:, None])
        m_i = m_new
        k_blk = tl.advance(k_blk, (BLOCK_N, 0))
        v_blk = tl.advance(v_blk, (BLOCK_N, 0))
    o_blk = tl.make_block_ptr(Out + off_hz * stride_oh, shape=(N_CTX, HEAD_DIM), strides=(stride_om, 1),
                              offsets=(start_m * BLOCK_M, 0), block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    tl.store(o_blk, (acc / l_i[:, None]).to(Out.dtype.element_ty), boundary_check=(0, 1))


def launch(q, k, v, o, sm_scale, causal=False, tiles=TILES, kernel=None):
    """o = attention(q, k, v) for [B*H, S, D] tensors (D a power of two, at most 128)."""
    bh, s, d = q.shape
    bm, bn = tiles
    (kernel or triton_attention)[(bh, triton.cdiv(s, bm))](
        q, k, v, o, sm_scale, _stride(q, 0), _stride(q, 1), _stride(k, 0), _stride(k, 1), _stride(v, 0),
        _stride(v, 1), _stride(o, 0), _stride(o, 1), s, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, IS_CAUSAL=causal)
