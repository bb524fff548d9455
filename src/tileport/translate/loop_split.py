"""cuTile Python's loop splitting, decided on the source so that the port writes the loops cuTile Python compiles.

cuda.tile's ``loop_split`` pass (run after its token order and loop-invariant code motion) splits a ``for`` loop of
step 1 in two where an ``if`` in the loop's own body tests the induction variable against a loop-invariant value
(``if j >= mask_start:``): the first loop runs up to the point where the test turns, the second from there, and
each keeps only the arm of the ``if`` that its iterations take. It splits a loop only when exactly one such ``if``
sits directly in its body. The Tile IR it produces has two loops; cutile compiles the loops it is given, so the
port writes the two loops itself (``translate.emit.Emitter.for_range``), and the IR diff compares like with like.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable

from ..astwalk import walk_nodes

#: Python comparison → cuda.tile's name for it, with the induction variable on the left
CMP = {ast.GtE: "ge", ast.Gt: "gt", ast.LtE: "le", ast.Lt: "lt"}
FLIP = {"ge": "le", "gt": "lt", "le": "ge", "lt": "gt"}
#: the split point is the bound, or the bound + 1 where the test turns one past it
PLUS_ONE = {"ge": False, "gt": True, "le": True, "lt": False}
#: cuda.tile's pure calls a hoisted bound may contain (anything else may read memory or is not hoisted)
PURE_CALLS = {"cdiv", "minimum", "maximum", "min", "max", "num_blocks", "bid", "num_tiles"}


@dataclass(frozen=True)
class Split:
    branch: ast.If       # the `if` flattened into each loop
    cmp: str             # induction variable CMP bound: "ge", "gt", "le" or "lt"
    bound: ast.expr      # the loop-invariant side of the test

    @property
    def plus_one(self) -> bool:
        return PLUS_ONE[self.cmp]

    def arms(self) -> tuple[list[ast.stmt], list[ast.stmt]]:
        """(the arm the first loop keeps, the arm the second keeps): the iterations below the split point take
        the else arm of `j >= b` / `j > b`, the body of `j <= b` / `j < b`."""
        if self.cmp in ("ge", "gt"):
            return self.branch.orelse, self.branch.body
        return self.branch.body, self.branch.orelse

    def body(self, loop: ast.For, arm: list[ast.stmt]) -> list[ast.stmt]:
        """``loop``'s body with the ``if`` replaced by ``arm``."""
        out: list[ast.stmt] = []
        for st in loop.body:
            out.extend(arm if st is self.branch else [st])
        return out


def plan(loop: ast.For, reduce: Callable[[ast.expr], tuple[str, object]]) -> Split | None:
    """The split cuda.tile makes of ``loop`` (a ``for`` of step 1 over ``range``), or None. ``reduce`` decides the
    constant parts of a test as the translator does (``Emitter.partial_bool``): an ``if`` decided by constants is
    folded away before cuda.tile looks for splits, and ``(CAUSAL or not EVEN_K) and j >= s`` tests ``j >= s``."""
    if not isinstance(loop.target, ast.Name):
        return None
    iv = loop.target.id
    assigned = {iv} | {n.id for st in loop.body for n in walk_nodes(st) if isinstance(n, ast.Name)
                       and isinstance(n.ctx, ast.Store)}
    found: list[Split] = []
    for st in loop.body:
        if not isinstance(st, ast.If):
            continue
        kind, test = reduce(st.test)
        if kind == "const" or not isinstance(test, ast.Compare) or len(test.ops) != 1 or \
                type(test.ops[0]) not in CMP:
            continue
        cmp, lhs, rhs = CMP[type(test.ops[0])], test.left, test.comparators[0]
        if isinstance(lhs, ast.Name) and lhs.id == iv and _invariant(rhs, assigned):
            found.append(Split(st, cmp, rhs))
        elif isinstance(rhs, ast.Name) and rhs.id == iv and _invariant(lhs, assigned):
            found.append(Split(st, FLIP[cmp], lhs))
    if len(found) != 1 or _exits(found[0].branch):
        return None
    return found[0]


def _invariant(node: ast.expr, assigned: set[str]) -> bool:
    """Whether ``node`` is computed from values the loop does not change, with pure operations only (what
    cuda.tile's loop-invariant code motion hoists out of the loop before it looks for splits)."""
    for n in walk_nodes(node):
        if isinstance(n, ast.Name) and n.id in assigned:
            return False
        if isinstance(n, ast.Call):
            f = n.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            if name not in PURE_CALLS:
                return False
    return True


def _exits(branch: ast.If) -> bool:
    """An arm that leaves the iteration early (`continue`, `break`, `return`): not split here."""
    return any(isinstance(n, (ast.Continue, ast.Break, ast.Return)) for st in (*branch.body, *branch.orelse)
               for n in walk_nodes(st))


def plan_break(loop: ast.For, reduce: Callable[[ast.expr], tuple[str, object]]) -> tuple[list[ast.stmt], Split] | None:
    """``for j in range(..): ..; if j > X: break; rest`` (X loop-invariant, the `if` directly in the body, holding
    only the `break`, the loop's only one): cuda.tile's for_loop_break makes the `break` set a flag the loop
    carries (each later iteration skipped), with ``rest`` in the `if`'s else arm; loop_split then splits the loop
    there. Returns (the loop's body so rewritten, the split), or None."""
    if not isinstance(loop.target, ast.Name):
        return None
    iv = loop.target.id
    assigned = {iv} | {n.id for st in loop.body for n in walk_nodes(st) if isinstance(n, ast.Name)
                       and isinstance(n.ctx, ast.Store)}
    for i, st in enumerate(loop.body):
        if not (isinstance(st, ast.If) and len(st.body) == 1 and isinstance(st.body[0], ast.Break) and not st.orelse):
            continue
        if any(isinstance(n, ast.Break) for other in loop.body[:i] + loop.body[i + 1:] for n in _own(other)):
            return None
        kind, test = reduce(st.test)
        if kind == "const" or not isinstance(test, ast.Compare) or len(test.ops) != 1 or type(test.ops[0]) not in CMP:
            return None
        cmp, lhs, rhs = CMP[type(test.ops[0])], test.left, test.comparators[0]
        if isinstance(lhs, ast.Name) and lhs.id == iv and _invariant(rhs, assigned):
            split_cmp, bound = cmp, rhs
        elif isinstance(rhs, ast.Name) and rhs.id == iv and _invariant(lhs, assigned):
            split_cmp, bound = FLIP[cmp], lhs
        else:
            return None
        branch = ast.copy_location(ast.If(test, st.body, loop.body[i + 1:]), st)
        return loop.body[:i] + [branch], Split(branch, split_cmp, bound)
    return None


def _own(st: ast.stmt):
    """The nodes of ``st`` outside loops nested in it (a `break` there is that loop's)."""
    yield st
    if isinstance(st, (ast.For, ast.While)):
        return
    for child in ast.iter_child_nodes(st):
        if isinstance(child, ast.stmt):
            yield from _own(child)
