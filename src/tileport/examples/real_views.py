"""real_views: cuda.tile 1.7's tiled views, in one kernel the port must prove.

`x.tiled_view(shape, padding_mode=..)` bound to a name, then `v.load(idx)`, `v.num_tiles(axis)` as a loop bound,
`v.tile_shape` as a shape and `o.store(idx, tile)` on another view: cuTile Python compiles each to the partition
view and load/store that `ct.load`, `ct.num_tiles` and `ct.store` give (resolve's tiled-view rewrite); the output
reached through another name (`dst = out`: the array itself, row array-alias).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "a=f32[?,?]/?,1, out=f32[?,?]/?,1, BM=#32, BK=#64"


@ct.kernel
def real_views(a, out, BM: ct.Constant[int], BK: ct.Constant[int]):
    av = a.tiled_view((BM, BK), padding_mode=ct.PaddingMode.ZERO)
    dst = out
    ov = dst.tiled_view((BM, BK))
    acc = ct.zeros(av.tile_shape, dtype=ct.float32)
    for k in range(av.num_tiles(1)):
        acc += av.load((ct.bid(0), k))
    ov.store((ct.bid(0), 0), acc)
