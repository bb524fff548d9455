"""causal_tiles: y[b] = sum over key tiles j of x's tile j, where the tiles from the block's own diagonal on are
masked causally (lane i of tile j kept only if j * TILE + i <= b * TILE + i's row, here: the key index is at most
the block's last index).

The `if j >= diag:` in the loop tests the loop index against a value fixed for the loop: cuTile Python splits such
a loop in two (its loop_split pass), one loop for the unmasked tiles and one for the masked ones, and the port
writes the two loops.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/1, y=f32[?]/1, n=i32, TILE=#128"


@ct.kernel
def causal_tiles(x, y, n: int, TILE: ct.Constant[int]):
    b = ct.bid(0)
    diag = b
    last = (b + 1) * TILE - 1
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(ct.cdiv(n, TILE)):
        t = ct.load(x, index=(j,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        if j >= diag:
            keys = ct.arange(TILE, dtype=ct.int32) + j * TILE
            t = ct.where(keys <= last, t, 0.0)
        acc = acc + t
    ct.store(y, index=(b,), tile=acc)
