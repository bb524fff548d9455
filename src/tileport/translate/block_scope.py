"""Names an inlined helper's Rust block binds, kept from leaking out of it in cutile 0.3.1's type inference.

cutile 0.3.1 infers a block expression's statements in the enclosing scope (``passes/type_inference.rs``:
``Expr::Block`` runs ``infer_block`` without the fork it gives loop bodies), so a ``let t`` inside ``let w = { let
t: Tile<f16, ..> = ..; .. };`` gives the enclosing scope's later ``t`` the inner type, and a typed ``let`` reading
the outer ``t`` then fails ("binary `Mul` requires operands of the same type"). Rust scopes the block; cutile's code
generation does too. So a binding in a helper's block whose name the enclosing scope reads after the block, bound
there with another type, is renamed inside the block (its `let` and the reads after it): no op changes, the Tile IR
is the same. A port where no such read follows is written as before.
"""
from __future__ import annotations

import re
from typing import Callable

HELPER_MARK = "a @ct.function inlined as cuTile Python inlines it"
_LET = re.compile(r"^\s*let (?:mut )?([A-Za-z_]\w*): (.*?) = ")


def _code(line: str) -> str:
    return line.split("//", 1)[0]


def _scopes(lines: list[str]) -> tuple[list[tuple[int, ...]], dict[int, tuple[int, int, bool]]]:
    """Each line's enclosing braces at its start (ids, outermost first), and each brace id -> (its line, the line
    closing it, whether it opens an inlined helper's block)."""
    stack: list[int] = []
    at: list[tuple[int, ...]] = []
    braces: dict[int, list] = {}
    for i, line in enumerate(lines):
        at.append(tuple(stack))
        code = _code(line)
        for ch in code:
            if ch == "{":
                braces[len(braces)] = [i, None, False]
                stack.append(len(braces) - 1)
            elif ch == "}" and stack:
                braces[stack.pop()][1] = i
        if HELPER_MARK in line and code.rstrip().endswith("{") and stack:
            braces[stack[-1]][2] = True
    return at, {k: (v[0], len(lines) - 1 if v[1] is None else v[1], v[2]) for k, v in braces.items()}


def _first_use(name: str, lines: list[str], start: int, end: int) -> tuple[int, bool] | None:
    """The first line in start..end naming ``name`` (code only), and whether it re-binds it without reading it."""
    word = re.compile(rf"(?<![\w.]){re.escape(name)}\b(?!\s*[(!])")
    for k in range(start, end + 1):
        code = _code(lines[k])
        if word.search(code):
            m = _LET.match(code)
            rebinds = m is not None and m.group(1) == name and not word.search(code[m.end():])
            return k, rebinds
    return None


def unshadow(lines: list[str], fresh: Callable[[str], str], params: dict[str, str] | None = None) -> list[str]:
    """``lines`` (a kernel body, one Rust line each) with the leaking helper bindings renamed (module doc).
    ``params``: the kernel's parameters (name -> Rust type), bound before the body: a helper binding that shadows
    one (`hash(x)` of a helper whose parameter is `x`, in a kernel whose array is `x`) leaks as a `let` does."""
    at, braces = _scopes(lines)
    renames: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        m = _LET.match(line)
        if m is None or not at[i] or not braces[at[i][-1]][2]:
            continue
        name, ty = m.group(1), m.group(2)
        scopes = at[i]
        j = len(scopes) - 1
        while j >= 0 and braces[scopes[j]][2]:   # out through the helper blocks, as far as the leak goes
            close = braces[scopes[j]][1]
            parent_end = braces[scopes[j - 1]][1] if j else len(lines) - 1   # (the kernel's body: no brace here)
            use = _first_use(name, lines, close + 1, parent_end)
            if use is None or use[1]:
                break
            outer = [k for k in range(braces[scopes[j]][0] - 1, -1, -1)
                     if (b := _LET.match(lines[k])) and b.group(1) == name and set(at[k]) <= set(scopes[:j])]
            if outer and _LET.match(lines[outer[0]]).group(2) != ty or \
                    not outer and (params or {}).get(name, ty) != ty:
                renames.append((i, name))
                break
            j -= 1
    for i, name in reversed(renames):
        new = fresh(f"{name}_in")
        end = braces[at[i][-1]][1]
        lines = list(lines)
        lines[i] = re.sub(rf"\blet (mut )?{re.escape(name)}:", rf"let \g<1>{new}:", lines[i], count=1)
        stop, depth = i, 0   # (the binding's own initializer reads the outer name: from the statement's end on)
        for k in range(i, end + 1):
            code = _code(lines[k])
            depth += code.count("{") - code.count("}")
            if depth <= 0 and code.rstrip().endswith(";"):
                stop = k
                break
        word = re.compile(rf"(?<![\w.]){re.escape(name)}\b(?!\s*[(!])")
        for k in range(stop + 1, end + 1):
            code, sep, comment = lines[k].partition("//")
            if k == end:   # (the line closing the block: only the part before its brace is in it)
                cut = code.rfind("}")
                code = word.sub(new, code[:cut]) + code[cut:] if cut >= 0 else word.sub(new, code)
            else:
                code = word.sub(new, code)
            lines[k] = code + sep + comment
    return lines
