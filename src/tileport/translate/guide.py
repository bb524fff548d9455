"""Read compiler decisions out of the reference IR's debug locations (``tileirdisasm -g``).

cuTile Python's compiler makes choices the source does not spell out — it contracts ``a * b + c`` into ``fma``, for
one. The reference bytecode carries each op's source location, so the translator asks the IR where those choices
were made instead of re-implementing the compiler's heuristics.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ..toolchain.locate import CudaTree, run_tool

LOC_DEF = re.compile(r'^#(loc\d*) = loc\("([^"]+)":(\d+):(\d+)\)', re.M)
DI_DEF = re.compile(r"^#(loc\d*) = #cuda_tile\.di_loc<#(loc\d*) in", re.M)
CALLSITE_DEF = re.compile(r"^#(loc\d*) = loc\(callsite\(#(loc\d*) at #(loc\d*)\)\)", re.M)
OP_LOC = re.compile(r"= (\w+) .*loc\(#(loc\d*)\)\s*$", re.M)


def op_locations(tree: CudaTree, bytecode: Path, source: Path) -> dict[str, Counter]:
    """op name → Counter{(line, col): how many such ops} in ``source`` (col 0-based, as Python's ast reports)."""
    text = run_tool(tree, "tileirdisasm", ["-g", str(bytecode)]).stdout
    base = {name: (file, int(line), int(col)) for name, file, line, col in LOC_DEF.findall(text)}
    di = dict(DI_DEF.findall(text))
    # An op inlined from a helper @ct.function sits at callsite(callee at caller): its own line is the callee's.
    di.update({loc: callee for loc, callee, _caller in CALLSITE_DEF.findall(text)})
    want = str(source.resolve())
    out: dict[str, Counter] = {}
    for op, loc in OP_LOC.findall(text):
        while loc in di:
            loc = di[loc]
        target = base.get(loc)
        if target and Path(target[0]).resolve() == Path(want):
            out.setdefault(op, Counter())[(target[1], target[2])] += 1
    return out
