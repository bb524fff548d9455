"""Integer index expressions as polynomials, so that two spellings of one bound compare equal.

A Triton K loop masks ``rk < K - k * BK`` while its pointer has advanced ``k`` blocks: the element index is
``k * BK + rk`` and the bound on it ``K``. ``shifted(bound, by)`` computes such bounds; ``text`` writes them back as
Python. Sums and products of names and integers are exact; anything else (``n // 2``) is kept whole, as an atom.
"""
from __future__ import annotations

import ast
from typing import Iterable

from ...astwalk import walk_nodes

Poly = dict[tuple[str, ...], int]   # monomial (sorted factor texts) → integer coefficient


def parse(text: str) -> Poly:
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return {(text,): 1}
    return _poly(node)


def _poly(n: ast.expr) -> Poly:
    if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
        return {(): n.value} if n.value else {}
    if isinstance(n, ast.Name):
        return {(n.id,): 1}
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
        return scale(_poly(n.operand), -1)
    if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub)):
        return add(_poly(n.left), scale(_poly(n.right), 1 if isinstance(n.op, ast.Add) else -1))
    if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
        return mul(_poly(n.left), _poly(n.right))
    return {(ast.unparse(n),): 1}


def add(a: Poly, b: Poly) -> Poly:
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, 0) + c
    return {m: c for m, c in out.items() if c}


def scale(a: Poly, k: int) -> Poly:
    return {m: c * k for m, c in a.items() if c * k}


def mul(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = tuple(sorted(ma + mb))
            out[m] = out.get(m, 0) + ca * cb
    return {m: c for m, c in out.items() if c}


def names(p: Poly) -> set[str]:
    """The atoms a polynomial uses (names, and whole sub-expressions it could not expand)."""
    return {f for m in p for f in m}


def free_names(p: Poly) -> set[str]:
    """Every Python name the polynomial's text mentions (inside atoms too)."""
    out = set()
    for atom in names(p):
        try:
            out |= {n.id for n in walk_nodes(ast.parse(atom, mode="eval")) if isinstance(n, ast.Name)}
        except SyntaxError:
            out.add(atom)
    return out


def text(p: Poly) -> str:
    """Python text of ``p``: terms in a stable order, the constant last."""
    if not p:
        return "0"

    def term(m: tuple[str, ...], c: int) -> str:
        factors = [f if _simple(f) else f"({f})" for f in m]
        if not factors:
            return str(abs(c))
        body = " * ".join(factors)
        return body if abs(c) == 1 else f"{abs(c)} * {body}"

    items = sorted(p.items(), key=lambda mc: (len(mc[0]) == 0, mc[0]))
    out = ""
    for k, (m, c) in enumerate(items):
        t = term(m, c)
        out += (("-" if c < 0 else "") + t) if k == 0 else ((" - " if c < 0 else " + ") + t)
    return out


def _simple(f: str) -> bool:
    return f.replace("_", "").isalnum()


def same(a: str, b: str) -> bool:
    return parse(a) == parse(b)


def shifted(bound: str, by: str, size: str) -> str:
    """The bound on ``(i + by) * size + arange`` that ``i * size + arange < bound`` is: ``bound + by * size``."""
    return text(add(parse(bound), mul(parse(by), parse(size))))


def quotient(a: str, b: str) -> str | None:
    """``a / b`` as text when ``a`` is ``b`` times a product of names and a positive integer (``BLOCK_K * SPLIT_K *
    stride_k`` over ``BLOCK_K * stride_k``: ``SPLIT_K``); None otherwise."""
    pa, pb = parse(a), parse(b)
    if len(pa) != 1 or len(pb) != 1:
        return None
    (ma, ca), (mb, cb) = next(iter(pa.items())), next(iter(pb.items()))
    if cb <= 0 or ca % cb or ca // cb <= 0:
        return None
    rest = list(ma)
    for f in mb:
        if f not in rest:
            return None
        rest.remove(f)
    return text({tuple(rest): ca // cb})


def only_names(p: Poly, allowed: Iterable[str]) -> bool:
    return free_names(p) <= set(allowed)
