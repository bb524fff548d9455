"""idioms: constructs real cuTile Python kernels use, in one kernel the port must prove.

A helper that receives an array and loads from it; a local named like a Rust keyword (`do`); ct.matmul of two
tiles; ct.extract of a subtile; an f16 tile times an f32 argument (computed in f32, as cuTile Python promotes it);
a runtime `if` on a 0-d reduction compared with a constant; ct.broadcast_to; the negation of a constant; a
constant-range loop whose index picks the subtile ct.extract takes (its bounds written so that cutile states no
range for the index, as cuTile Python states none: docs/corpus.md).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f16[?,?]/?,1, w=f16[?,?]/?,1, y=f32[?,?]/?,1, scale=f32, BM=#64, BK=#32, HALF=#16"


def load_block(a, i, j, BM, BK):
    return ct.load(a, index=(i, j), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)


@ct.kernel
def idioms(x, w, y, scale: float, BM: ct.Constant[int], BK: ct.Constant[int], HALF: ct.Constant[int]):
    bid = ct.bid(0)
    do = load_block(x, bid, 0, BM, BK)
    b = load_block(w, 0, 0, BK, BK)
    prod = ct.matmul(do, b)                      # f16 @ f16 -> f16 (an f32 accumulator, converted)
    scaled = prod * scale                        # f16 * f32 argument -> f32
    half = ct.extract(scaled, (0, 1), shape=(BM, HALF))
    total = ct.sum(ct.sum(half, axis=1), axis=0)
    if total > 0.0:
        half = half * 2.0
    col = ct.broadcast_to(ct.sum(half, axis=0), (BM, HALF))   # (HALF,) -> (BM, HALF)
    both = ct.full((BM, HALF), 0.0, dtype=ct.float32)
    for j in range(BK // HALF):
        both = both + ct.extract(scaled, (0, j), shape=(BM, HALF))
    ct.store(y, index=(bid, 0), tile=half + col + both + (-BK))
