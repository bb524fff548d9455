"""Compare two Tile IR programs structurally and explain every difference with both locations and op paths."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from .canon import Canon, Layout, canonicalize
from .parse import IRParseError, Op, Program, Region, parse
from .rules import RULES_BY_ID


@dataclass
class Side:
    canon: Canon
    source: str

    def where(self, op: Op) -> dict:
        return {"file": self.source, "line": op.line, "path": op.path, "text": op.text}


@dataclass
class Diff:
    a: Side
    b: Side
    differences: list[dict] = field(default_factory=list)
    _seen: set = field(default_factory=set)

    def add(self, kind: str, detail: str, op_a: Op | None, op_b: Op | None) -> None:
        self.differences.append({"kind": kind, "detail": detail,
                                 "a": self.a.where(op_a) if op_a else None,
                                 "b": self.b.where(op_b) if op_b else None})

    # ------------------------------------------------------------------ regions

    def regions(self, ra: Region, rb: Region, anchor_a: Op | None, anchor_b: Op | None) -> None:
        ca, cb = self.a.canon, self.b.canon
        roots_a, roots_b = ca.roots[id(ra)], cb.roots[id(rb)]
        ha = [ca.op_hash(o) for o in roots_a]
        hb = [cb.op_hash(o) for o in roots_b]
        sm = difflib.SequenceMatcher(a=ha, b=hb, autojunk=False)
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag == "equal":
                continue
            pairs = list(zip(roots_a[i1:i2], roots_b[j1:j2]))
            for oa, ob in pairs:
                self.ops(oa, ob)
            for oa in roots_a[i1 + len(pairs):i2]:
                self.add("only_in_a", f"{oa.name} has no counterpart in B", oa, anchor_b)
            for ob in roots_b[j1 + len(pairs):j2]:
                self.add("only_in_b", f"{ob.name} has no counterpart in A", anchor_a, ob)

    # ------------------------------------------------------------------ ops

    def ops(self, oa: Op, ob: Op) -> None:
        key = (id(oa), id(ob))
        if key in self._seen:
            return
        self._seen.add(key)
        ca, cb = self.a.canon, self.b.canon
        if ca.op_hash(oa) == cb.op_hash(ob):
            return
        ra, rb = ca.op_of(oa), cb.op_of(ob)
        if ra.name != rb.name:
            self.add("op", f"{ra.name} vs {rb.name}", oa, ob)
            return
        if ra.template != rb.template or len(ra.operands) != len(rb.operands) or len(ra.regions) != len(rb.regions):
            self.add("attributes", f"{ra.name}: `{ra.template}` vs `{rb.template}`", oa, ob)
            return
        inner_mismatch = False
        for k, (va, vb) in enumerate(zip(ra.operands, rb.operands)):
            if ca.value_hash(va) != cb.value_hash(vb):
                inner_mismatch = True
                self.values(va, vb, oa, ob, k)
        for sa, sb in zip(ra.regions, rb.regions):
            if ca.region_hash(sa) != cb.region_hash(sb):
                inner_mismatch = True
                self.regions(sa, sb, oa, ob)
        if not inner_mismatch:
            self.add("order", f"{ra.name} is at another position among the memory/effect ops of its region",
                     oa, ob)

    def values(self, va: str, vb: str, oa: Op, ob: Op, k: int) -> None:
        ca, cb = self.a.canon, self.b.canon
        va, vb = ca.resolve(va), cb.resolve(vb)
        da, db = ca.defs.get(va), cb.defs.get(vb)
        if da and db:
            if da[1] != db[1]:
                self.add("operand", f"operand {k} of {oa.name} is result {da[1]} vs {db[1]}", oa, ob)
            self.ops(da[0], db[0])
            return
        la, lb = ca.labels.get(va), cb.labels.get(vb)
        if la or lb:
            ta = dict(ca.entry.args).get(va, "")
            tb = dict(cb.entry.args).get(vb, "")
            self.add("argument", f"operand {k} of {oa.name}: {la or 'a computed value'} ({ta}) vs "
                                 f"{lb or 'a computed value'} ({tb})", oa, ob)
            return
        self.add("operand", f"operand {k} of {oa.name} differs (block argument or computed value)", oa, ob)


TILEIR_MAGIC = b"\x7fTileIR\x00"


def load(path_or_text: str | Path) -> tuple[Program, str]:
    """(program, its source name) of a bytecode file, a disassembly file or disassembly text. Anything else (a
    directory, an empty file, a binary that is not Tile IR bytecode, text without an entry) is an IRParseError
    that says what was found."""
    if isinstance(path_or_text, str) and "\n" in path_or_text:
        return parse(path_or_text, "<text>"), "<text>"
    p = Path(path_or_text)
    if p.is_dir():
        raise IRParseError(f"{p}: is a directory, expected a Tile IR file (.tileirbc or tileirdisasm text)")
    if p.exists():
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise IRParseError(f"{p}: cannot read it ({exc.strerror or exc})") from None
        if not data.strip():
            raise IRParseError(f"{p}: empty file, expected Tile IR (.tileirbc or tileirdisasm text)")
        if data[:8] == TILEIR_MAGIC:
            from ..errors import ToolFailed
            from ..toolchain.locate import find_cuda_tree, run_tool
            try:
                text = run_tool(find_cuda_tree(), "tileirdisasm", [str(p)]).stdout
            except ToolFailed as exc:
                why = next((line.strip() for line in exc.stderr.splitlines() if line.strip()), "no message")
                raise IRParseError(f"{p}: starts like Tile IR bytecode but tileirdisasm cannot read it "
                                   f"(exit {exc.returncode}: {why[:200]})") from None
        else:
            try:
                text = data.decode()
            except UnicodeDecodeError:
                kind = "an ELF binary" if data[:4] == b"\x7fELF" else "binary data"
                raise IRParseError(f"{p}: {kind}, not Tile IR (bytecode starts with {TILEIR_MAGIC!r}; "
                                   "text is tileirdisasm output)") from None
        return parse(text, str(p)), str(p)
    raise IRParseError(f"{path_or_text}: no such file")


def compare_programs(pa: Program, pb: Program, *, source_a: str = "A", source_b: str = "B",
                     layout_a: Layout | None = None, layout_b: Layout | None = None,
                     unit_grid_b: frozenset = frozenset(), target: str | None = None) -> dict:
    """``target``: the architecture both programs are compiled for (hints keyed by it equal default hints)."""
    differences: list[dict] = []
    fired: dict[str, dict[str, int]] = {}
    inventory: dict[str, dict] = {"a": {}, "b": {}}
    prologue: dict[str, dict] = {"a": {}, "b": {}}
    if len(pa.entries) != len(pb.entries):
        differences.append({"kind": "entries", "detail": f"{len(pa.entries)} entries vs {len(pb.entries)}",
                            "a": None, "b": None})
    for ea, eb in zip(pa.entries, pb.entries):
        ca, cb = canonicalize(ea, layout_a, target=target), canonicalize(eb, layout_b, unit_grid_b, target=target)
        d = Diff(Side(ca, source_a), Side(cb, source_b))
        if ca.attrs != cb.attrs:
            differences.append({"kind": "entry-attributes", "detail": f"`{ca.attrs}` vs `{cb.attrs}`",
                                "a": {"file": source_a, "line": ea.line, "path": "entry"},
                                "b": {"file": source_b, "line": eb.line, "path": "entry"}})
        d.regions(ea.body, eb.body, None, None)
        differences += d.differences
        for side, c in (("a", ca), ("b", cb)):
            for rule, n in c.fired.items():
                fired.setdefault(rule, {"a": 0, "b": 0})[side] += n
            for name, n in c.inventory.items():
                inventory[side][name] = inventory[side].get(name, 0) + n
            prologue[side] = {"symbol": c.entry.symbol, "layout": c.layout_how,
                              "dropped_args": c.dropped_args}  # type: ignore[attr-defined]
    always = ["ssa-names", "entry-symbol", "debug-locations"]
    used = [{"id": r, "kind": RULES_BY_ID[r].kind, "count": fired.get(r, {"a": 0, "b": 0})}
            for r in always + sorted(fired)]
    return {"equivalent": not differences, "differences": differences, "rewrites_used": used,
            "op_inventory": {"a": dict(sorted(inventory["a"].items())), "b": dict(sorted(inventory["b"].items()))},
            "prologue": prologue}


def compare(a: str | Path, b: str | Path, *, layout_a: Layout | None = None,
            layout_b: Layout | None = None, unit_grid_b: frozenset = frozenset()) -> dict:
    pa, sa = load(a)
    pb, sb = load(b)
    return compare_programs(pa, pb, source_a=sa, source_b=sb, layout_a=layout_a, layout_b=layout_b,
                            unit_grid_b=unit_grid_b)
