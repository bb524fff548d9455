"""Known toolchain hazards in a kernel's source: forms that port faithfully (the IR diff proves the translation) but
that the pinned compiler is measured to get wrong, so the verdict says so next to the proof.

One so far (docs/toolchain.md, measured on the H200 with tileiras 13.4): a tile that ``ct.load`` produces and that
is still read in the next iteration of a loop, after that iteration's own load of it — the early load of a
prefetch, ``nxt = ct.load(..)`` before the loop and ``t = nxt; nxt = ct.load(..)`` inside — comes out wrong when
the compiler routes the load through TMA (layer_norm and rms_norm forms gave max errors of ~20; the same kernels
with ``allow_tma=False`` on that load were right). A load with ``allow_tma=False`` is not flagged.
"""
from __future__ import annotations

import ast
from collections.abc import Callable

from ..astwalk import walk_nodes

#: hazard id → what the verdict says about it
CARRIED_TMA_TILE = ("a tile loaded by ct.load is carried into the next loop iteration (read there before this "
                    "iteration's load of it replaces it): tileiras 13.4 has produced wrong results for this form "
                    "when the load goes through TMA (docs/toolchain.md); pass allow_tma=False to that load, or "
                    "check the port's results on a GPU")


def _tma_load(node: ast.AST, ct: Callable[[ast.AST], str | None]) -> bool:
    """A ct.load call (``ct`` names the cuda.tile function a call's callee is) that may go through TMA (no literal
    allow_tma=False)."""
    if not (isinstance(node, ast.Call) and ct(node.func) == "load"):
        return False
    tma = next((k.value for k in node.keywords if k.arg == "allow_tma"), None)
    return not (isinstance(tma, ast.Constant) and tma.value is False)


def _names_read(node: ast.AST) -> set[str]:
    return {n.id for n in walk_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def carried_tma_tiles(fn: ast.FunctionDef, ct: Callable[[ast.AST], str | None]) -> list[dict]:
    """Each loop-body assignment ``name = ct.load(..)`` (through TMA) whose name the loop body reads before it, in
    statement order: the previous iteration's tile is then read after a new load of the same site was issued."""
    found = []
    for loop in (n for n in walk_nodes(fn) if isinstance(n, (ast.For, ast.While))):
        read_before: set[str] = set()
        for st in loop.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                    and _tma_load(st.value, ct) and st.targets[0].id in read_before:
                found.append({"line": st.lineno, "col": st.col_offset + 1, "name": st.targets[0].id,
                              "hazard": "carried-tma-tile", "why": CARRIED_TMA_TILE})
            read_before |= _names_read(st)
    return found
