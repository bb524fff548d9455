"""dropout: y = x * scale where a per-element uniform u >= p, else 0 — seeded and reproducible: u comes from a hash
of the element's index and the seed (a multiply / xor-shift mixer on wrapping int32 arithmetic, its low 24 bits
scaled to [0, 1)), so the same seed keeps the same elements on every run and backend. scale = 1 / (1 - p) for
inverted dropout. One TILE-long tile per block.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?]/1, y=f32[?]/1, seed=i32, p=f32, scale=f32, TILE=#1024"


@ct.kernel
def dropout(x, y, seed: int, p: float, scale: float, TILE: ct.Constant[int]):
    pos = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    h = pos * 2146121005 + seed
    h = h ^ (h >> 15)
    h = h * 461845907
    h = h ^ (h >> 13)
    u = ct.astype(h & 16777215, ct.float32) * 5.9604644775390625e-08  # the low 24 bits / 2**24
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    kept = ct.astype(t, ct.float32) * scale
    ct.store(y, index=(ct.bid(0),), tile=ct.astype(ct.where(u >= p, kept, 0.0), y.dtype))
