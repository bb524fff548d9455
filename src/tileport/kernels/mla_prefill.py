"""MLA prefill (DeepSeek-style multi-head latent attention, the un-absorbed form), online softmax: per (batch x
head), O = softmax(S) V with S[i, j] = scale * (q_nope[i] . k_nope[j] + q_pe[i] . k_pe[j]). Each query/key head has
a "nope" part (DN = 128) and a rotary part (DR = 64); the rotary key k_pe is one per token, SHARED by all heads of
its batch; values and outputs have DV = 128 per head.

Layouts: heads flattened into the leading axis, q_nope, k_nope [B*H, S, DN], q_pe [B*H, S, DR], v, o [B*H, S, DV],
k_pe [B, S, DR]; `heads` is H, so block z reads k_pe of batch z // H. Block (z, i) owns BM query rows of head z: it
streams key tiles of BN rows, computes each score tile with two mma's into one f32 accumulator (nope part, then
rotary part), keeps the running row max m (of the raw scores) and normaliser l in f32, rescales the f32 output
accumulator when the max grows and divides once at the end; the softmax runs in base 2 (one FMA + exp2 per score).
As in tileport.kernels.attention, the key tiles before `full` need no mask (none past the sequence end, and with
CAUSAL none after the block's first query row) and run in a loop of their own; the rest are masked to -1e30 (past
the end; with CAUSAL, after the query: top-left aligned, as PyTorch's is_causal), and the loop stops at the block's
last query row. Blocks take the query blocks in reverse order: under CAUSAL the longest start first.

grid = (B*H, cdiv(S, BM), 1). Query and key lengths are equal (self-attention prefill).
"""
import cuda.tile as ct

from tileport.kernels.attention import online_step   # the online-softmax step, shared

DEMO_SIGNATURE = ("q_nope=bf16[?,?,?]/?,?,1, q_pe=bf16[?,?,?]/?,?,1, k_nope=bf16[?,?,?]/?,?,1, "
                  "k_pe=bf16[?,?,?]/?,?,1, v=bf16[?,?,?]/?,?,1, o=bf16[?,?,?]/?,?,1, heads=i32, scale=f32, "
                  "BM=#128, BN=#64, DN=#128, DR=#64, DV=#128, CAUSAL=#true")


@ct.function
def _scores(tqn, tqp, tkn, tkp, zero):
    """The raw score tile: the nope part, then the rotary part, into one f32 accumulator (zero: its start)."""
    return ct.mma(tqp, ct.transpose(tkp), ct.mma(tqn, ct.transpose(tkn), zero))


@ct.kernel(occupancy=2)  # as attention (2 CTAs per SM at (128, 64): benchmarks/results/h200/attention-tiles)
def mla_prefill(q_nope, q_pe, k_nope, k_pe, v, o, heads: int, scale: float, BM: ct.Constant[int],
                BN: ct.Constant[int], DN: ct.Constant[int], DR: ct.Constant[int], DV: ct.Constant[int],
                CAUSAL: ct.Constant[bool]):
    z = ct.bid(0)
    i = ct.num_blocks(1) - 1 - ct.bid(1)   # the last query blocks (the longest under CAUSAL) first
    b = z // heads
    tqn = ct.reshape(ct.load(q_nope, index=(z, i, 0), shape=(1, BM, DN), padding_mode=ct.PaddingMode.ZERO),
                     (BM, DN))
    tqp = ct.reshape(ct.load(q_pe, index=(z, i, 0), shape=(1, BM, DR), padding_mode=ct.PaddingMode.ZERO), (BM, DR))
    qk = scale * 1.4426950408889634   # log2(e)
    m = ct.full((BM, 1), -1.0e30, dtype=ct.float32)
    l = ct.full((BM, 1), 0, dtype=ct.float32)
    acc = ct.full((BM, DV), 0, dtype=ct.float32)
    zero = ct.full((BM, BN), 0, dtype=ct.float32)
    sk = k_nope.shape[1]
    n_tiles = ct.num_tiles(k_nope, axis=1, shape=(1, BN, DN))
    full = sk // BN   # tiles wholly inside the sequence
    if CAUSAL:
        last = ct.cdiv((i + 1) * BM, BN)   # no key after the block's last query row
        if last < n_tiles:
            n_tiles = last
        diag = (i * BM + 1) // BN   # tiles wholly at or before the block's first query row
        if diag < full:
            full = diag
    if full > n_tiles:
        full = n_tiles
    for j in range(full):
        tkn = ct.reshape(ct.load(k_nope, index=(z, j, 0), shape=(1, BN, DN), padding_mode=ct.PaddingMode.ZERO),
                         (BN, DN))
        tkp = ct.reshape(ct.load(k_pe, index=(b, j, 0), shape=(1, BN, DR), padding_mode=ct.PaddingMode.ZERO),
                         (BN, DR))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, DV), padding_mode=ct.PaddingMode.ZERO), (BN, DV))
        m, l, acc = online_step(_scores(tqn, tqp, tkn, tkp, zero), qk, tv, m, l, acc)
    rows = ct.reshape(i * BM + ct.arange(BM, dtype=ct.int32), (BM, 1))
    for j in range(full, n_tiles):
        tkn = ct.reshape(ct.load(k_nope, index=(z, j, 0), shape=(1, BN, DN), padding_mode=ct.PaddingMode.ZERO),
                         (BN, DN))
        tkp = ct.reshape(ct.load(k_pe, index=(b, j, 0), shape=(1, BN, DR), padding_mode=ct.PaddingMode.ZERO),
                         (BN, DR))
        tv = ct.reshape(ct.load(v, index=(z, j, 0), shape=(1, BN, DV), padding_mode=ct.PaddingMode.ZERO), (BN, DV))
        s = _scores(tqn, tqp, tkn, tkp, zero)
        cols = ct.reshape(j * BN + ct.arange(BN, dtype=ct.int32), (1, BN))
        if CAUSAL:
            s = ct.where((cols < sk) & (cols <= rows), s, -1.0e30)
        else:
            s = ct.where(cols < sk, s, -1.0e30)
        m, l, acc = online_step(s, qk, tv, m, l, acc)
    ct.store(o, index=(z, i, 0), tile=ct.reshape(ct.astype(acc / l, o.dtype), (1, BM, DV)))
