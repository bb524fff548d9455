"""Value-generic constants: a `ct.Constant[int]` an entry uses only as a value (a seed filling a tile, an offset in
scalar arithmetic) — never as a tile extent, a type, a branch or loop decision. The entry's Rust text is then the
same at every value of it (the const generic by name), so one entry can serve a value no launch had (TileGym's
dropout draws its `SEED` constant at random per call).

What makes that a proven port and not a guess: the pipeline proves the entry at the captured value(s) and at a
second value no launch had (``second_value``; the variant is marked ``synthetic`` in spec.json and port.json), and
marks the constant value-generic (port.json ``abi[entry].value_generic``) only where both prove and the text is one
entry. The served runtime then launches that entry at the launch's value (runtime.library)."""
from __future__ import annotations

import re

#: spans of Rust text where a const generic is a shape or a type, not a value
_SHAPE_SPANS = re.compile(r"shape!\[[^\]]*\]|\{ ?\[[^\]]*\] ?\}|::<[^>]*>|<[^<>()=;]*>")
#: a line that decides control flow (its condition, bounds or arms)
_CONTROL = re.compile(r"^\s*(\}\s*)?(else\s+)?(if|for|while|match|loop)\b")
#: the value a second proof uses when no launch had it (any i32 but the captured ones will do; this one is odd and
#: has bits set in every byte, so a fold of it to 0, 1 or a small literal shows in the diff)
SEED_VALUE = 0x2545F491


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


def second_value(seen: set[int]) -> int:
    """An i32 value none of ``seen`` is."""
    v = SEED_VALUE
    while v in seen:
        v += 1
    return v
