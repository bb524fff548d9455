"""``tileport corpus port --hints FILE``: cuTile options chosen per Triton kernel by whoever ports the corpus.

The lowering derives a kernel's options from its launches (``pipeline/triton.py``: occupancy from Triton's
``num_warps``, 8 worker warps for an 8-warp ``tl.dot``); what suits one kernel best is found by timing it on the GPU
(``benchmarks/corpus/triton_hints_probe.py``). A hints file records those choices, one entry per kernel
(``spec/hints.schema.json``), so a batch port applies them as ``tileport port --hint`` does for one kernel. Each
entry's hints are merged over the derived ones; a name that is no hint, or a kernel the captures do not hold, is
refused before anything is ported.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..inputs import read_json


def hint_names() -> tuple[str, ...]:
    """What ``--hint NAME=INT`` and a hints file may set: the lowered kernel's options, then the lowering's own."""
    from ..frontends.triton.lower import KERNEL_HINTS, LOWERING_OPTIONS

    return tuple(KERNEL_HINTS) + tuple(LOWERING_OPTIONS)


def read_hints(path: Path) -> dict[str, dict]:
    """FILE::KERNEL → its entry (``hints``: for the kernel; ``launches``: [{``when``, ``hints``}] for the launches
    whose constexpr values match), from a hints file (checked against its schema and the hint names)."""
    data = read_json(path, "--hints", schema="hints")
    valid = hint_names()
    for ref, entry in data["kernels"].items():
        bad = sorted(set(entry.get("hints", {})) - set(valid))
        if bad:
            raise InputError(f"--hints {path}: {ref}: unknown hint {bad[0]!r}; valid hints: {', '.join(valid)}")
    return {ref: {k: entry[k] for k in ("hints", "launches") if k in entry} for ref, entry in data["kernels"].items()}


def check_named(hints: dict[str, dict], kernels: dict[str, str]) -> None:
    """Every entry names a Triton kernel of the captures (``kernels``: FILE::KERNEL → its frontend)."""
    for ref in hints:
        if ref not in kernels:
            near = sorted(k for k, fe in kernels.items()
                          if fe == "triton" and k.rpartition("::")[2] == ref.rpartition("::")[2])
            raise InputError(f"--hints: {ref}: no kernel of the captures is named so"
                             + (f" (did you mean {', '.join(near)}?)" if near else
                                " (entries are FILE::KERNEL with FILE relative to --corpus, as the table prints them)"))
        if kernels[ref] != "triton":
            raise InputError(f"--hints: {ref} is a cuTile kernel: its options are its own @ct.kernel(...) "
                             "decorator's (hints apply to Triton kernels' lowered form)")
