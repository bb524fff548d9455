"""A persistent grid-stride loop: a fixed number of blocks walks all tiles, y[t] = x[t] * 2.

grid = (min(num_tiles, NUM_SMS), 1, 1); block b handles tiles b, b + num_blocks, ...  The output is not written
at the block's own index, so a port cannot use a plain block-owned partition for it.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/1, y=f32[?]/1, TILE=#1024"


@ct.kernel
def persistent_scale(x, y, TILE: ct.Constant[int]):
    ntiles = ct.num_tiles(x, axis=0, shape=(TILE,))
    for t in range(ct.bid(0), ntiles, ct.num_blocks(0)):
        v = ct.load(x, index=(t,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, index=(t,), tile=v * 2.0)
