"""fused_moe: the routed expert GEMMs of a mixture-of-experts layer over expert-sorted assignments —
out[a, :] = topk_weights[a] * (x[a // K] @ w[topk_ids[a]]^T) for every assignment a = t*K + k.

sorted_ids is moe_align_block's result: the assignment indices grouped by expert, each expert's segment padded to
a multiple of BM with the sentinel n = topk_ids.shape[0], so that every BM-slot block either starts with a real
assignment, and then all its real assignments share that assignment's expert, or holds only sentinels. Block
(j, b) takes the b-th BM slots and the j-th BN columns of the result: the expert is topk_ids[sorted_ids[b*BM]]
(a sentinel block runs no K step and writes nothing); each K step gathers the BM activation rows of the block's
tokens (t = a // K, from the f32 quotient (a + 1/2) * inv_topk, exact for n < 2^22) — gathers read rank-1 arrays,
so `a` is x flattened, read at t*Kd + kk — loads the expert's [BN, BK] weight tile with a tiled load and accumulates
a[BM, BK] @ w^T in f32 with ct.mma. The rows are scaled by their routing weights, rounded to out's dtype and
scattered to out, flat [n * N], at a*N + col (sentinel rows and columns past N masked off).

a, w and out share one dtype, f16 or bf16; w is [E, N, Kd] (nn.Linear's layout). (Until 2026-11-30 `a` and out
were f32 copies made by the host: the port took no 16-bit gather then.)

grid = (cdiv(N, BN), len(sorted_ids) / BM, 1): the column tiles of one slot block run side by side, so its gathered
rows and its expert's weights are reused while in L2.
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("a=bf16[?]/1, w=bf16[?,?,?]/?,?,1, topk_ids=i32[?]/1, topk_weights=f32[?]/1, sorted_ids=i32[?]/1, "
                  "out=bf16[?]/1, inv_topk=f32, BM=#64, BN=#128, BK=#64, BMK=#4096")


@ct.kernel(occupancy=2)
def fused_moe(a, w, topk_ids, topk_weights, sorted_ids, out, inv_topk: float, BM: ct.Constant[int],
              BN: ct.Constant[int], BK: ct.Constant[int], BMK: ct.Constant[int]):
    j = ct.bid(0)
    b = ct.bid(1)
    n = topk_ids.shape[0]
    cols_n = w.shape[1]
    depth = w.shape[2]
    ids = ct.load(sorted_ids, index=(b,), shape=(BM,))
    first = ct.load(sorted_ids, index=(b * BM,), shape=(1,), padding_mode=ct.PaddingMode.ZERO).item()
    expert = ct.load(topk_ids, index=(first,), shape=(1,), padding_mode=ct.PaddingMode.ZERO).item()
    k_tiles = ct.num_tiles(w, axis=2, shape=(1, BN, BK))
    if first >= n:
        k_tiles = 0   # only sentinels: nothing to compute, nothing to write
    real = ct.reshape(ids < n, (BM, 1))
    token = ct.astype(ct.floor((ct.astype(ids, ct.float32) + 0.5) * inv_topk), ct.int32)
    rows = ct.reshape(token * depth, (BM, 1))
    lanes = ct.reshape(ct.arange(BK, dtype=ct.int32), (1, BK))
    acc = ct.full((BM, BN), 0, dtype=ct.float32)
    for k in range(k_tiles):
        kk = k * BK + lanes
        # the gather takes a rank-1 index tile, BMK = BM * BK long (cutile 0.3.1 cannot broadcast the padding to a
        # rank-2 one)
        at = ct.reshape(rows + kk, (BMK,))
        live = ct.reshape(real & (kk < depth), (BMK,))
        ta = ct.reshape(ct.gather(a, at, mask=live, padding_value=0.0), (BM, BK))
        tw = ct.reshape(ct.load(w, index=(expert, j, k), shape=(1, BN, BK), padding_mode=ct.PaddingMode.ZERO),
                        (BN, BK))
        acc = ct.mma(ta, ct.transpose(tw), acc)
    scale = ct.gather(topk_weights, ids, mask=ids < n, padding_value=0.0)
    acc = acc * ct.reshape(scale, (BM, 1))
    cols = ct.reshape(j * BN + ct.arange(BN, dtype=ct.int32), (1, BN))
    ct.scatter(out, ct.reshape(ids * cols_n, (BM, 1)) + cols, ct.astype(acc, out.dtype), mask=real & (cols < cols_n))
