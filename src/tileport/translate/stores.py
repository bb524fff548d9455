"""What a store into a tensor's full partition is written as in Rust, shared by the emitter and the list items
(lists.py): one module both import, so neither imports the other."""
from __future__ import annotations

#: (latency, tma) of a load or store without hints, as cutile's arguments
NO_HINTS = ("None", "tma::Enabled")


def store_unchecked(tiles: str, code: str, idx: list[str], hints: tuple[str, str]) -> str:
    """The unchecked store of a tile into a partition of the full tensor: `store_unchecked`, or with hints (what
    it calls, with the latency and TMA arguments ct.store's options give)."""
    if hints == NO_HINTS:
        return f"unsafe {{ {tiles}.store_unchecked({code}, [{', '.join(idx)}]) }};"
    latency, tma = hints
    return (f"unsafe {{ store_view_tko_mut(&mut {tiles}, {code}, [{', '.join(idx)}], ordering::Weak, scope::TileBlock, "
            f"{latency}, {tma}) }};")
