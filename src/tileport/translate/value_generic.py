"""Value-generic constants: a `ct.Constant[int]` an entry uses only as a value (a seed filling a tile, an offset in
scalar arithmetic) — never as a tile extent, a type, a branch or loop decision. The entry's Rust text is then the
same at every value of it (the const generic by name), so one entry can serve a value no launch had (TileGym's
dropout draws its `SEED` constant at random per call).

What makes that a proven port and not a guess: the pipeline proves the entry at the captured value(s) and at a
second value no launch had (``second_value``: the captured one plus a few; the variant is marked ``synthetic`` in spec.json and port.json), and
marks the constant value-generic (port.json ``abi[entry].value_generic``) only where both prove and the text is one
entry. The served runtime then launches that entry at the launch's value (runtime.library)."""
from __future__ import annotations

import re

#: spans of Rust text where a const generic is a shape or a type, not a value
_SHAPE_SPANS = re.compile(r"shape!\[[^\]]*\]|\{ ?\[[^\]]*\] ?\}|::<[^>]*>|<[^<>()=;]*>")
#: a line that decides control flow (its condition, bounds or arms)
_CONTROL = re.compile(r"^\s*(\}\s*)?(else\s+)?(if|for|while|match|loop)\b")
#: how far from a captured value the second proof's value is: small, so that a use the trace cannot see (an unrolled
#: `range` over it: ints are their own index) changes the entry's text by a few copies and shows, instead of
#: unrolling millions; odd, so that a fold on parity or a power of two shows in the diff too
STEP = 7


def value_only(body: list[str], name: str) -> bool:
    """Whether the entry whose body lines are ``body`` uses const generic ``name`` and only as a value: every line
    naming it is not a control-flow line, holds no range, and names it outside shapes and types only."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    used = False
    for line in body:
        n = len(word.findall(line))
        if not n:
            continue
        if _CONTROL.match(line) or ".." in line or len(word.findall(_SHAPE_SPANS.sub("", line))) != n:
            return False
        used = True
    return used


#: what the translator may do with a value-generic constant's value without folding it into the entry: hash it (a
#: dict key), print it (documentation, the generics' list); anything else — arithmetic, comparison, a truth test, a
#: conversion, an index — is a fold (a branch or extent decided by the value), so the constant is not value-generic
_FOLDS = ("__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ "
          "__floordiv__ __rfloordiv__ __truediv__ __rtruediv__ __mod__ __rmod__ __divmod__ __rdivmod__ __pow__ "
          "__rpow__ __neg__ __pos__ __abs__ __invert__ __and__ __rand__ __or__ __ror__ __xor__ __rxor__ __lshift__ "
          "__rlshift__ __rshift__ __rrshift__ __bool__ __index__ __int__ __float__ __round__ __trunc__ __floor__ "
          "__ceil__").split()


class Traced(int):
    """A constant's value that records each fold the translator makes of it (``folds``: the operations)."""

    folds: list[str]

    def __new__(cls, value: int) -> "Traced":
        obj = super().__new__(cls, value)
        obj.folds = []
        return obj

    __hash__ = int.__hash__


def _traced(name: str):
    def op(self, *args):
        self.folds.append(name)
        return getattr(int, name)(self, *args)
    op.__name__ = name
    return op


for _name in _FOLDS:
    setattr(Traced, _name, _traced(_name))


def mentioned_in_comments(body: list[str], name: str) -> bool:
    """Whether a comment line names ``name`` (the translator writes one where it folds an `if` on it)."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(line.lstrip().startswith("//") and word.search(line) for line in body)


def second_value(value: int, seen: set[int]) -> int:
    """An i32 value near ``value`` that none of ``seen`` is."""
    v = value + STEP if value + STEP < 2**31 else value - STEP
    while v in seen:
        v += STEP if v + STEP < 2**31 else -STEP
    return v
