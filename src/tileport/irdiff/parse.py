"""Parse the Tile IR text that ``tileirdisasm`` prints (and cutile's ``ir_text``) into ops, regions and values.

The format is MLIR-like, one op per line::

    %a, %b = opname operands-and-attributes : types        (results optional; ``%x:2 =`` for result packs)
    %for = for %i in (%lo to %hi, step %s) : tile<i32> iter_values(%acc = %init) -> (...) {   (opens a region)
    } else {                                              (closes one region of the op and opens the next)
    }                                                     (closes the region)

Values are referenced as ``%name`` or ``%name#k`` (k-th result of a pack). A ``%name`` that is not yet defined
when it appears in an op's own line is a definition of a block argument of that op's first region (loop
induction variables, ``iter_values``). Debug locations ``loc(...)`` are dropped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import TileportError

VALUE_RE = re.compile(r"%([A-Za-z0-9_.$-]+)(?:#(\d+))?")
RESULTS_RE = re.compile(r"^((?:%[A-Za-z0-9_.$-]+(?::\d+)?)(?:\s*,\s*%[A-Za-z0-9_.$-]+)*)\s*=\s*(?=[a-z])")
LOC_RE = re.compile(r"\s*loc\((?:[^()]|\([^()]*\))*\)")


class IRParseError(TileportError):
    pass


@dataclass
class Op:
    name: str
    template: str            # the op text with value references replaced: $k (operand k), ^k (block arg k)
    operands: list[str]      # value ids used, in order of appearance
    results: list[str]       # value ids defined (expanded packs: name#0, name#1, ...)
    block_args: list[str]    # value ids defined in the header (block arguments of its regions)
    regions: list["Region"] = field(default_factory=list)
    result_names: list[str] = field(default_factory=list)
    line: int = 0
    text: str = ""
    path: str = ""


@dataclass
class Region:
    ops: list[Op] = field(default_factory=list)


@dataclass
class Entry:
    symbol: str
    args: list[tuple[str, str]]  # (value id, type)
    attrs: str                   # text after the argument list (hints), normalized
    body: Region
    line: int


@dataclass
class Program:
    entries: list[Entry]
    source: str = ""


def split_top_level(text: str) -> list[str]:
    """`a, f<b, c>, d` → its comma-separated parts (commas inside <>, (), [] and {} belong to a part)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _entry_header(line: str, lineno: int) -> tuple[str, list[tuple[str, str]], str]:
    m = re.match(r"\s*entry\s+@([A-Za-z0-9_.$]+)\s*\(", line)
    if not m:
        raise IRParseError(f"line {lineno}: expected 'entry @name(...)', got: {line.strip()[:120]}")
    depth, i = 1, m.end()
    while depth and i < len(line):
        depth += {"(": 1, ")": -1}.get(line[i], 0)
        i += 1
    args = []
    for a in split_top_level(line[m.end():i - 1]):
        am = re.match(r"%([A-Za-z0-9_.$-]+)\s*:\s*(.+)", a)
        if not am:
            raise IRParseError(f"line {lineno}: cannot parse entry argument {a!r}")
        args.append((am.group(1), am.group(2).strip()))
    attrs = line[i:].rstrip().rstrip("{").strip()
    return m.group(1), args, attrs


class _Scope:
    """Value names → unique ids. Regions see their parent's names; names defined inside stay inside."""

    counter = 0

    def __init__(self, parent: "_Scope | None" = None):
        self.names: dict[str, str] = {}
        self.parent = parent

    def lookup(self, name: str) -> str | None:
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def define(self, name: str) -> str:
        _Scope.counter += 1
        uid = f"v{_Scope.counter}:{name}"
        self.names[name] = uid
        return uid


def parse(text: str, source: str = "") -> Program:
    entries: list[Entry] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        raw = LOC_RE.sub("", lines[i]).strip()
        if raw.startswith("entry "):
            symbol, args, attrs = _entry_header(raw, i + 1)
            scope = _Scope()
            uargs = [(scope.define(a), t) for a, t in args]
            body = Region()
            entry_line = i + 1
            i = _parse_region(lines, i + 1, body, scope, source)
            entries.append(Entry(symbol, uargs, attrs, body, entry_line))
        i += 1
    if not entries:
        raise IRParseError(f"{source or 'input'}: no 'entry' found; is this tileirdisasm output?")
    return Program(entries, source)


def _clean(line: str) -> str:
    return LOC_RE.sub("", line).strip()


def _parse_region(lines: list[str], i: int, region: Region, scope: _Scope, source: str) -> int:
    """Parse ops into ``region`` from line index i until its closing brace; return the index of that line."""
    while i < len(lines):
        raw = _clean(lines[i])
        if not raw or raw.startswith("//"):
            i += 1
            continue
        if raw.startswith("}"):
            return i
        inner = _Scope(scope)
        op = _parse_op(raw, i + 1, scope, inner)
        region.ops.append(op)
        # Block arguments on a line of their own: "(%lhs: tile<f32>, %rhs: tile<f32>) {" (reduce, scan).
        opens = raw.endswith("{")
        if not opens and i + 1 < len(lines) and _clean(lines[i + 1]).startswith("(") \
                and _clean(lines[i + 1]).endswith("{"):
            i += 1
            cont = _clean(lines[i])
            extra = _parse_op("__args__ " + cont, i + 1, scope, inner, first_arg=len(op.block_args))
            op.block_args += extra.block_args
            op.template += " " + extra.template.removeprefix("__args__ ")
            opens = True
        if opens:
            while True:
                sub = Region()
                op.regions.append(sub)
                i = _parse_region(lines, i + 1, sub, inner, source)
                if i >= len(lines):
                    raise IRParseError(f"{source}: line {op.line}: region of {op.name} is never closed")
                if _clean(lines[i]).endswith("{"):  # "} else {"
                    continue
                break
        for r in op.result_names:
            op.results.append(scope.define(r))
        i += 1
    return i


def _parse_op(raw: str, lineno: int, scope: _Scope, inner: _Scope, first_arg: int = 0) -> Op:
    result_names: list[str] = []
    body = raw
    m = RESULTS_RE.match(raw)
    if m:
        for r in split_top_level(m.group(1)):
            name, _, count = r.lstrip("%").partition(":")
            if count:
                result_names += [f"{name}#{k}" for k in range(int(count))]
            else:
                result_names.append(name)
        body = raw[m.end():]
    name_m = re.match(r"([a-z_][a-z0-9_.]*)", body)
    if not name_m:
        raise IRParseError(f"line {lineno}: cannot find the operation name in: {raw[:120]}")
    operands: list[str] = []
    block_args: list[str] = []

    def repl(vm: re.Match) -> str:
        base, idx = vm.group(1), vm.group(2)
        name = f"{base}#{idx}" if idx is not None else base
        uid = inner.lookup(name) or (inner.lookup(f"{base}#0") if idx is None else None)
        if uid is not None:
            operands.append(uid)
            return f"${len(operands) - 1}"
        block_args.append(inner.define(name))
        return f"^{first_arg + len(block_args) - 1}"

    template = VALUE_RE.sub(repl, body.rstrip("{").strip())
    template = re.sub(r"\s+", " ", template)
    op = Op(name_m.group(1), template, operands, [], block_args, line=lineno, text=raw)
    op.result_names = result_names
    return op
