"""Gated delta rule (linear attention), token by token: the decode / short-sequence form. Per (batch x head) z, with
the state S in R^{DK x DV} starting at 0 and, for t = 0 .. T-1, q_t, k_t in R^DK, v_t in R^DV, a log decay g_t and
a write strength beta_t:

    S' = exp(g_t) S_{t-1};   u_t = beta_t (v_t - S'^T k_t);   S_t = S' + k_t u_t^T;   o_t = scale * S_t^T q_t

q, k [B*H, T, DK] and v [B*H, T, DV] (f16/bf16), g, beta [B*H, T] (f32). The columns of S evolve independently
(S'^T k reads each column on its own), so block b of the grid owns column block c of head z (b = z * (DV / BV) + c):
it keeps the (DK, BV) f32 state tile in registers and walks the T steps in a grid-stride loop, tile index t = b,
b + num_blocks, ... (step number (t - b) / num_blocks), loading the step's rows of q, k, v (its BV columns), g and
beta. Its BV outputs of each step are the flat tile t of o, i.e. o is the time-major [T, B*H, DV] (the host
reorders it; for T == 1 it is the [B*H, 1, DV] result itself): the only layout a block's sequential stores can take
in a proven port (a store at a computed index is not supported; a loop of scatters is not equivalent).

grid = (B*H * DV / BV, 1, 1); DK is the whole key dimension and BV divides DV.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q=bf16[?,?,?]/?,?,1, k=bf16[?,?,?]/?,?,1, v=bf16[?,?,?]/?,?,1, g=f32[?,?]/?,1, "
                  "beta=f32[?,?]/?,1, o=bf16[?]/1, scale=f32, DK=#128, BV=#32")


@ct.kernel(occupancy=4)  # a latency-bound loop over steps with a small state: let several blocks share an SM
def gated_delta_recurrent(q, k, v, g, beta, o, scale: float, DK: ct.Constant[int], BV: ct.Constant[int]):
    blk = ct.bid(0)
    nb = ct.cdiv(v.shape[2], BV)            # column blocks per head (BV divides DV)
    z = ct.cdiv(blk + 1, nb) - 1            # the block's (batch x head): floor(blk / nb)
    c = blk - z * nb                        # and its column block
    s = ct.full((DK, BV), 0, dtype=ct.float32)
    n_tiles = ct.num_tiles(o, axis=0, shape=(BV,))   # T * num_blocks: one output tile per block and step
    for t in range(ct.bid(0), n_tiles, ct.num_blocks(0)):
        step = ct.cdiv(t - blk, ct.num_blocks(0))
        tq = ct.load(q, index=(z, step, 0), shape=(1, 1, DK), padding_mode=ct.PaddingMode.ZERO)
        tk = ct.load(k, index=(z, step, 0), shape=(1, 1, DK), padding_mode=ct.PaddingMode.ZERO)
        tv = ct.load(v, index=(z, step, c), shape=(1, 1, BV), padding_mode=ct.PaddingMode.ZERO)
        tg = ct.load(g, index=(z, step), shape=(1, 1), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(beta, index=(z, step), shape=(1, 1), padding_mode=ct.PaddingMode.ZERO)
        kc = ct.reshape(ct.astype(tk, ct.float32), (DK, 1))
        qc = ct.reshape(ct.astype(tq, ct.float32), (DK, 1))
        s = s * ct.exp(tg)                                              # S' = exp(g_t) S
        kv = ct.sum(s * kc, axis=0, keepdims=True)                      # (1, BV): S'^T k_t
        u = (ct.reshape(ct.astype(tv, ct.float32), (1, BV)) - kv) * tb  # beta_t (v_t - S'^T k_t)
        s = s + kc * u                                                  # S_t = S' + k_t u_t^T
        out = ct.sum(s * qc, axis=0, keepdims=True) * scale             # (1, BV): scale * S_t^T q_t
        ct.store(o, index=(t,), tile=ct.astype(ct.reshape(out, (BV,)), o.dtype))
