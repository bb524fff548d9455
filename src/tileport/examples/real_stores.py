"""real_stores: a persistent matmul whose epilogue stores each output tile in two halves, and a per-block count of
the tiles it finished.

Each block walks its tiles (pid, pid + NUM_SMS, ...) in one loop over (tile, k) steps, as Triton's persistent
matmul tutorial does; when a tile's last k step is done (a runtime `if` inside the loop), the accumulator is split
into its left and right halves, each stored as its own tile of `c` (epilogue subtiling: two stores of one array in
the `if`), and the block's progress counter `done[pid]` — stored once before the loop too — is updated. cuTile Python
orders the stores of each array by its token, chained from store to store and carried by the loop and the `if`; the
port carries the same token (`zz_c_token`, `zz_done_token`). `done` is stored only at the block's own tile, so it
stays `&mut Tensor` and is stored safely through `partition_mut`, its view made on that token (`set_tensor_token`).
"""
import cuda.tile as ct

DEMO_SIGNATURE = ("a=f16[?,?]/?,1, b=f16[?,?]/?,1, c=f16[?,?]/?,1, done=i32[?]/1, M=i32, N=i32, K=i32, BM=#128, "
                  "BN=#128, BK=#64, NUM_SMS=#132")

ZERO = ct.PaddingMode.ZERO


@ct.kernel
def real_stores(a, b, c, done, M: int, N: int, K: int, BM: ct.Constant[int], BN: ct.Constant[int],
                BK: ct.Constant[int], NUM_SMS: ct.Constant[int]):
    pid = ct.bid(0)
    tiles_n = ct.cdiv(N, BN)
    k_tiles = ct.cdiv(K, BK)
    mine = ct.cdiv(ct.cdiv(M, BM) * tiles_n - pid, NUM_SMS)   # tiles pid, pid + NUM_SMS, ... of this block
    count = ct.zeros((1,), dtype=ct.int32)
    ct.store(done, index=(pid,), tile=count)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    tile = pid
    for step in range(k_tiles * mine):
        kk = step % k_tiles
        tm = tile // tiles_n
        tn = tile % tiles_n
        x = ct.load(a, index=(tm, kk), shape=(BM, BK), padding_mode=ZERO)
        y = ct.load(b, index=(kk, tn), shape=(BK, BN), padding_mode=ZERO)
        acc = ct.mma(x, y, acc)
        if kk == k_tiles - 1:
            halves = ct.permute(ct.reshape(acc, (BM, 2, BN // 2)), (0, 2, 1))
            left = ct.reshape(ct.extract(halves, (0, 0, 0), shape=(BM, BN // 2, 1)), (BM, BN // 2))
            right = ct.reshape(ct.extract(halves, (0, 0, 1), shape=(BM, BN // 2, 1)), (BM, BN // 2))
            ct.store(c, index=(tm, 2 * tn), tile=ct.astype(left, c.dtype))
            ct.store(c, index=(tm, 2 * tn + 1), tile=ct.astype(right, c.dtype))
            count = count + 1
            ct.store(done, index=(pid,), tile=count)
            acc = ct.zeros((BM, BN), dtype=ct.float32)
            tile = tile + NUM_SMS
