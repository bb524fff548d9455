"""cuTile Python form of the Triton kernel triton_attention (src/tileport/kernels/triton/attention.py:17), written by tileport's Triton frontend.

Generated, never edit. Each pointer parameter is an array view (the .json beside this file says how
a launch builds it from the Triton arguments)."""
import cuda.tile as ct


@ct.kernel(occupancy=2)
def triton_attention(Q, K, V, Out, sm_scale: float, N_CTX: int, HEAD_DIM: ct.Constant[int], BLOCK_M: ct.Constant[int], BLOCK_N: ct.Constant[int], IS_CAUSAL: ct.Constant[bool]):
    off_hz = ct.bid(0)
    start_m = ct.bid(1)
    q = ct.reshape(ct.load(Q, index=(off_hz, start_m, 0), shape=(1, BLOCK_M, HEAD_DIM), padding_mode=ct.PaddingMode.ZERO), (BLOCK_M, HEAD_DIM))
    m_i = ct.full((BLOCK_M,), -(1e+30), dtype=ct.float32)
    l_i = ct.zeros((BLOCK_M,), dtype=ct.float32)
    acc = ct.zeros((BLOCK_M, HEAD_DIM), dtype=ct.float32)
    hi = ct.cdiv(N_CTX, BLOCK_N)
    if IS_CAUSAL:
        hi = ct.cdiv((start_m + 1) * BLOCK_M, BLOCK_N)
    for j in range(hi):
        k = ct.reshape(ct.load(K, index=(off_hz, j, 0), shape=(1, BLOCK_N, HEAD_DIM), padding_mode=ct.PaddingMode.ZERO), (BLOCK_N, HEAD_DIM))
        qk = (ct.mma(q, ct.transpose(k), ct.zeros((BLOCK_M, BLOCK_N), dtype=ct.float32))) * (sm_scale * 1.4426950408889634)
        qk = ct.where((ct.reshape(j * BLOCK_N + ct.arange(BLOCK_N, dtype=ct.int32), (1, BLOCK_N))) < N_CTX, qk, -(1e+30))
        if IS_CAUSAL:
            qk = ct.where((ct.reshape(j * BLOCK_N + ct.arange(BLOCK_N, dtype=ct.int32), (1, BLOCK_N))) <= (ct.reshape(start_m * BLOCK_M + ct.arange(BLOCK_M, dtype=ct.int32), (BLOCK_M, 1))), qk, -(1e+30))
        m_new = ct.maximum(m_i, ct.max(qk, axis=1))
        p = ct.exp2(qk - (ct.reshape(m_new, (BLOCK_M, 1))), flush_to_zero=True)
        alpha = ct.exp2(m_i - m_new, flush_to_zero=True)
        l_i = (l_i * alpha) + ct.sum(p, axis=1)
        v = ct.reshape(ct.load(V, index=(off_hz, j, 0), shape=(1, BLOCK_N, HEAD_DIM), padding_mode=ct.PaddingMode.ZERO), (BLOCK_N, HEAD_DIM))
        acc = ct.mma(ct.astype(p, V.dtype), v, acc * (ct.reshape(alpha, (BLOCK_M, 1))))
        m_i = m_new
    den1 = ct.reshape(l_i, (BLOCK_M, 1))
    big2 = ct.abs(den1) > 8.507059173023462e+37
    ct.store(Out, index=(off_hz, start_m, 0), tile=ct.reshape(ct.astype(ct.truediv(ct.where(big2, acc * 0.25, acc), ct.where(big2, den1 * 0.25, den1), rounding_mode=ct.RoundingMode.APPROX), Out.dtype), (1, BLOCK_M, HEAD_DIM)))
