"""Vector add: the smallest complete cuTile Python kernel, and tileport's smoke test.

Each block loads one TILE-long slice of ``a`` and ``b`` at its block index and stores their sum into ``c``.
Launch with ``grid = (ct.cdiv(n, TILE), 1, 1)``; loads pad and stores clip the ragged last tile.
"""
import cuda.tile as ct

#: The signature the demo and doctor compile this kernel at (see `tileport compile --help`).
DEMO_SIGNATURE = "a=f32[?]/1, b=f32[?]/1, c=f32[?]/1, TILE=#1024"


@ct.kernel
def vector_add(a, b, c, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    y = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=x + y)
