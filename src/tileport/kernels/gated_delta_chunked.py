"""Gated delta rule (linear attention), chunked (parallel) form for long sequences. Per (batch x head) z the
recurrence, with state S in R^{DK x DV} starting at 0, log decay g_t <= 0 and write strength beta_t,

    S' = exp(g_t) S_{t-1};   u_t = beta_t (v_t - S'^T k_t);   S_t = S' + k_t u_t^T;   o_t = scale * S_t^T q_t,

is evaluated C = 64 steps at a time. In a chunk with in-chunk cumulative log decay gam_i = sum_{j<=i} g_j, Gam =
exp(gam), D_ij = exp(gam_i - gam_j) (j <= i) and entering state S:

    A = strictly-lower(beta_i D_ij k_i.k_j),   T = (I + A)^-1,   U = T (beta V - beta Gam K S)
    O = scale (Gam (Q S) + lower(D * Q K^T) U),   S <- exp(gam_C) S + (exp(gam_C - gam) K)^T U

(U stacks the u_t of the chunk; the rows of U solve the chunk's recurrence exactly). T is built with matrix
products only, by recursive doubling over the diagonal blocks: with T_b the block-diagonal inverse for blocks of b
rows and E_b the entries of A between the two halves of each 2b-block, T_2b = T_b - T_b E_b T_b (exact, since the
off-diagonal half squares to zero). Unlike the Neumann product prod_k (I + (-A)^(2^k)), which cancels huge terms
when keys are correlated, every product here is between actual inverse blocks, so it is as stable as substitution.
Products with the f32 state and with T run on the tensor cores in tf32 (operands rounded to a 10-bit mantissa,
f32 accumulation); Q K^T and K K^T take the f16/bf16 inputs directly.

q, k [B*H, T, DK] and v [B*H, T, DV] (f16/bf16); g, beta [B*H, T] (f32); zero padding past T (k = v = 0, g = 0,
beta = 0) leaves the state and the valid rows unchanged. Block b of the grid owns column block c of head z (b = z *
(DV / BV) + c) and walks the chunks in a grid-stride loop, tile index t = b, b + num_blocks, ...: chunk number
(t - b) / num_blocks. Its (C, BV) output tile of each chunk is the flat tile t of o, i.e. o is the chunk-major
scratch [cdiv(T, C), B*H, DV / BV, C, BV] (the host reorders it): the only layout a block's sequential stores can
take in a proven port (a store at a computed index is not supported; a loop of scatters is not equivalent).

grid = (B*H * DV / BV, 1, 1); C = 64 (the doubling runs 5 levels; any C <= 64 would be correct), CBV = C * BV,
BV divides DV, DK is the whole key dimension. Offsets are int32.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("q=bf16[?,?,?]/?,?,1, k=bf16[?,?,?]/?,?,1, v=bf16[?,?,?]/?,?,1, g=f32[?,?]/?,1, "
                  "beta=f32[?,?]/?,1, o=bf16[?]/1, scale=f32, C=#64, DK=#128, BV=#64, CBV=#4096")


@ct.function
def mma_tf32(a, b, acc):
    """a @ b + acc on the tensor cores in tf32 (f32 operands rounded to 10 mantissa bits, f32 accumulator)."""
    return ct.mma(ct.astype(a, ct.tfloat32), ct.astype(b, ct.tfloat32), acc)


@ct.kernel
def gated_delta_chunked(q, k, v, g, beta, o, scale: float, C: ct.Constant[int], DK: ct.Constant[int],
                        BV: ct.Constant[int], CBV: ct.Constant[int]):
    blk = ct.bid(0)
    nb = ct.cdiv(v.shape[2], BV)            # column blocks per head (BV divides DV)
    z = ct.cdiv(blk + 1, nb) - 1            # the block's (batch x head): floor(blk / nb)
    c = blk - z * nb                        # and its column block
    rows = ct.reshape(ct.arange(C, dtype=ct.int32), (C, 1))
    cols = ct.reshape(ct.arange(C, dtype=ct.int32), (1, C))
    eye = ct.where(rows == cols, 1.0, 0.0)
    level = rows ^ cols
    s = ct.full((DK, BV), 0, dtype=ct.float32)
    n_tiles = ct.num_tiles(o, axis=0, shape=(CBV,))   # chunks * num_blocks: one output tile per block and chunk
    for t in range(ct.bid(0), n_tiles, ct.num_blocks(0)):
        j = ct.cdiv(t - blk, ct.num_blocks(0))        # the chunk
        tq = ct.reshape(ct.load(q, index=(z, j, 0), shape=(1, C, DK), padding_mode=ct.PaddingMode.ZERO), (C, DK))
        tk = ct.reshape(ct.load(k, index=(z, j, 0), shape=(1, C, DK), padding_mode=ct.PaddingMode.ZERO), (C, DK))
        tv = ct.reshape(ct.load(v, index=(z, j, c), shape=(1, C, BV), padding_mode=ct.PaddingMode.ZERO), (C, BV))
        tg = ct.reshape(ct.load(g, index=(z, j), shape=(1, C), padding_mode=ct.PaddingMode.ZERO), (C, 1))
        tb = ct.reshape(ct.load(beta, index=(z, j), shape=(1, C), padding_mode=ct.PaddingMode.ZERO), (C, 1))
        gam = ct.cumsum(tg, axis=0)                    # (C, 1) in-chunk cumulative log decay
        g_last = ct.sum(tg, axis=0, keepdims=True)     # (1, 1) the whole chunk's
        decay = ct.exp(ct.where(cols <= rows, gam - ct.reshape(gam, (1, C)), -1.0e30))   # D, 0 above the diagonal
        kk = ct.mma(tk, ct.transpose(tk), ct.full((C, C), 0, dtype=ct.float32))
        a = ct.where(cols < rows, kk * decay * tb, 0.0)
        # T = (I + A)^-1 by recursive doubling: the inverses of the 2x2 diagonal blocks, then of 4x4, ..., 64x64.
        # i and j first share a block of 2b rows, in different halves, where (i ^ j) >> log2(b) == 1.
        x = level
        tinv = eye - ct.where(x == 1, a, 0.0)
        for _ in range(5):                             # b = 2, 4, 8, 16, 32: log2(C) - 1 levels for C = 64
            x = x >> 1
            e = ct.where(x == 1, a, 0.0)               # the entries of A joining the halves of each 2b block
            tinv = mma_tf32(-mma_tf32(tinv, e, ct.full((C, C), 0, dtype=ct.float32)), tinv, tinv)
        gexp = ct.exp(gam)
        kf = ct.astype(tk, ct.float32)
        ks = mma_tf32(kf * (tb * gexp), s, ct.full((C, BV), 0, dtype=ct.float32))          # beta Gam K S
        u = mma_tf32(tinv, ct.astype(tv, ct.float32) * tb - ks, ct.full((C, BV), 0, dtype=ct.float32))
        qs = mma_tf32(ct.astype(tq, ct.float32), s, ct.full((C, BV), 0, dtype=ct.float32))
        p = ct.mma(tq, ct.transpose(tk), ct.full((C, C), 0, dtype=ct.float32)) * decay
        out = (qs * gexp + mma_tf32(p, u, ct.full((C, BV), 0, dtype=ct.float32))) * scale
        kd = kf * ct.exp(g_last - gam)                 # K scaled to the chunk's end
        s = mma_tf32(ct.transpose(kd), u, s * ct.exp(g_last))
        ct.store(o, index=(t,), tile=ct.reshape(ct.astype(out, o.dtype), (CBV,)))
