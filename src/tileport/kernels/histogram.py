"""histogram: counts[b] += the number of bins[i] == b (int32 bin ids; ids outside counts are dropped), one TILE-long
tile of bins per block, counted with one atomic add per element."""
import cuda.tile as ct

DEMO_SIGNATURE = "bins=i32[?]/1, counts=i32[?]/1, TILE=#1024"


@ct.kernel
def histogram(bins, counts, TILE: ct.Constant[int]):
    pos = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    b = ct.load(bins, index=(ct.bid(0),), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    # lanes past the end of bins (read as padding) count into bin -1: out of range, so the atomic drops them
    ids = ct.where(pos < bins.shape[0], b, -1)
    ct.atomic_add(counts, ids, 1)
