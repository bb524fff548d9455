"""Canonical form of one entry: role-labelled arguments, forwarded rewrites, liveness, structural value hashes.

A value's hash is computed from what it is (op name, attributes and types, operand hashes, regions), never from
its name, so renaming and reordering pure ops do not change it. Effectful ops (memory, unknown ops) and
terminators are the *roots* of their region and keep their order; everything pure is reached through them.
"""
from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from dataclasses import dataclass, field

from . import argmax
from .parse import Entry, Op, Region, split_top_level
from .rules import PURE_OPS, TERMINATORS

Layout = list[tuple[str, int, int]]  # ("A", rank, extra_args) | ("S", 0, 0) | ("L", 0, 0) | ("R", array, dim)


def parse_layout(text: str) -> Layout:
    """``"A2,A1,A2+2,S,L"``: arrays of rank 2 and 1, a rank-2 array with 2 extra args, a scalar, a list of arrays
    (its items' descriptors and their count: two arguments)."""
    out: Layout = []
    for tok in filter(None, (t.strip() for t in text.split(","))):
        m = re.fullmatch(r"A(\d+)(?:\+(\d+))?|S|L|R(\d+)\.(\d+)", tok)
        if not m:
            raise ValueError(f"bad layout item {tok!r}: expected A<rank>[+<extra>], S, L or R<array>.<dim>")
        if tok.startswith("R"):   # a scalar carrying array <array>'s stride along <dim>
            out.append(("R", int(m.group(3)), int(m.group(4))))
        else:
            out.append((tok, 0, 0) if tok in ("S", "L") else ("A", int(m.group(1)), int(m.group(2) or 0)))
    return out


def layout_from_python_symbol(symbol: str) -> Layout | None:
    """Recover the cuTile Python v1 layout (ptr, shape.., strides.. per array) from a mangled entry symbol."""
    try:
        from cuda.tile.compilation import ArrayConstraint, ListConstraint, ScalarConstraint, demangle_kernel_name
        _, sig = demangle_kernel_name(symbol)
    except Exception:  # not a mangled cuTile Python name, or cuda-tile missing
        return None
    out: Layout = []
    for p in sig.parameters:
        if isinstance(p, ArrayConstraint):
            out.append(("A", p.ndim, 0))
        elif isinstance(p, ScalarConstraint):
            out.append(("S", 0, 0))
        elif isinstance(p, ListConstraint):
            out.append(("L", 0, 0))
    return out


def label_args(entry: Entry, layout: Layout | None) -> tuple[dict[str, str], str]:
    """Map argument ids to role labels. Returns (labels, how) where how says which layout was used."""
    if layout is not None:
        labels: dict[str, str] = {}
        i, arrays, scalars, lists = 0, 0, 0, 0
        args = entry.args
        need = sum(1 + 2 * r + x if k == "A" else 2 if k == "L" else 1 for k, r, x in layout)
        if need == len(args):
            for kind, rank, extra in layout:
                if kind == "R":   # the stride parameter of array `rank` along dimension `extra`
                    labels[args[i][0]] = f"P{rank}.stride{extra}"
                    i += 1
                    continue
                if kind == "S":
                    labels[args[i][0]] = f"S{scalars}"
                    scalars, i = scalars + 1, i + 1
                    continue
                if kind == "L":
                    labels[args[i][0]], labels[args[i + 1][0]] = f"L{lists}.items", f"L{lists}.len"
                    lists, i = lists + 1, i + 2
                    continue
                p = f"P{arrays}"
                labels[args[i][0]] = p
                for d in range(rank):
                    labels[args[i + 1 + d][0]] = f"{p}.shape{d}"
                    labels[args[i + 1 + rank + d][0]] = f"{p}.stride{d}"
                for j in range(extra):
                    labels[args[i + 1 + 2 * rank + j][0]] = f"{p}.extra{j}"
                arrays, i = arrays + 1, i + 1 + 2 * rank + extra
            return labels, "layout"
    return {a: f"arg{k}" for k, (a, _) in enumerate(entry.args)}, "positional"


def _h(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


@dataclass
class Canon:
    entry: Entry
    labels: dict[str, str]
    layout_how: str
    defs: dict[str, tuple[Op, int]] = field(default_factory=dict)      # value id → (defining op, result index)
    barg_of: dict[str, tuple[int, int]] = field(default_factory=dict)  # block arg id → (depth, index)
    barg_owner: dict[str, Op] = field(default_factory=dict)            # block arg id → the op owning it
    forward: dict[str, str] = field(default_factory=dict)              # rewritten value → replacement
    substitute: dict[int, Op] = field(default_factory=dict)            # id(op) → rewritten op
    fired: Counter = field(default_factory=Counter)
    hashes: dict[str, str] = field(default_factory=dict)
    op_hashes: dict[int, str] = field(default_factory=dict)
    inventory: Counter = field(default_factory=Counter)
    roots: dict[int, list[Op]] = field(default_factory=dict)           # id(region) → its roots in order
    attrs: str = ""
    unit_grid: frozenset = frozenset()  # grid dimensions launched with extent 1 (a precondition of the caller)
    erased: set = field(default_factory=set)  # id(op) of ops a rule replaced by values (no longer effects)
    _reads: set | None = None   # (see _read_values)

    # ---------------------------------------------------------------- building

    def resolve(self, v: str) -> str:
        while v in self.forward:
            v = self.forward[v]
        return v

    def op_of(self, op: Op) -> Op:
        return self.substitute.get(id(op), op)

    def is_effectful(self, op: Op) -> bool:
        if id(op) in self.erased:
            return False
        if op.name in TERMINATORS:
            return True
        real = self.op_of(op)
        if real.name == "load_view_tko" and real.template.startswith("load_view_tko weak ") and \
                "token =" not in real.template and real.results and real.results[0] in self._read_values():
            return False   # rule unordered-load-value: a value like a pure op's, wherever it sits
        if op.name == "for" and self._pure_loop(op):   # rule dead-pure-for: a value like a pure op's
            return False
        if op.name not in PURE_OPS:
            return True
        return any(self.is_effectful(o) for r in op.regions for o in r.ops if o.name not in TERMINATORS)

    def _pure_loop(self, op: Op) -> bool:
        """A `for` (or an `if` inside one) whose regions hold pure ops only — nested `for`s and `if`s of pure ops,
        and the `yield`s and `continue`s that hand their values on — and nothing that stops or may not stop (no
        `return`, `break`, `loop`, memory or other effect)."""
        for region in op.regions:
            for o in region.ops:
                if o.name in ("yield", "continue"):
                    continue
                if o.name in ("for", "if"):
                    if not self._pure_loop(o):
                        return False
                elif o.name in TERMINATORS or self.is_effectful(o):
                    return False
        return True

    def _read_values(self) -> set[str]:
        """Every value some op reads (as written or as a rule rewrote it), computed once."""
        if self._reads is None:
            ops = list(_all_ops(self.entry.body))
            self._reads = {v for op in ops for o in (op, self.op_of(op)) for v in o.operands}
        return self._reads

    def value_hash(self, v: str) -> str:
        v = self.resolve(v)
        if v in self.hashes:
            return self.hashes[v]
        if v in self.labels:
            typ = dict(self.entry.args)[v]
            h = _h("arg", self.labels[v], typ)
        elif v in self.barg_of and self.barg_owner[v].name in PURE_OPS:
            # the operands of a reduce/scan body: a closed function of its position in that op, wherever the op
            # sits (cuTile Python hoists a loop-invariant reduction out of the loop; cutile leaves it inside)
            h = _h("pure-region-arg", self.barg_owner[v].name, self.barg_of[v][1])
        elif v in self.barg_of:
            h = _h("barg", *self.barg_of[v])
        elif v in self.defs and self.defs[v][0].name == "get_tile_block_id" and self.defs[v][1] in self.unit_grid:
            self.fired["block-id-unit-grid"] += 1
            zero = Op("constant", "constant <i32: 0> : tile<i32>", [], [], [])
            h = _h(self.op_hash(zero), 0)
        elif v in self.defs and self._is_assume(self.defs[v][0]):
            root, facts, typ = self.assume_facts(v)
            h = _h("assume", self.value_hash(root), sorted(facts), typ)
        elif v in self.defs:
            op, idx = self.defs[v]
            h = _h(self.op_hash(op), idx)
        else:
            h = _h("undefined", v)
        self.hashes[v] = h
        return h

    ASSUME_RE = re.compile(r"assume (.+), \$0 : (.+)")

    def _is_assume(self, op: Op) -> bool:
        real = self.op_of(op)
        return real.name == "assume" and len(real.operands) == 1 and bool(self.ASSUME_RE.fullmatch(real.template))

    def assume_facts(self, v: str) -> tuple[str, set[str], str]:
        """A chain of assumes is the root value plus the *set* of facts stated about it (rule assume-fact-set)."""
        op = self.op_of(self.defs[v][0])
        pred, typ = self.ASSUME_RE.fullmatch(op.template).groups()  # type: ignore[union-attr]
        src = self.resolve(op.operands[0])
        if src in self.defs and self._is_assume(self.defs[src][0]):
            root, facts, _ = self.assume_facts(src)
            return root, facts | {pred}, typ
        return src, {pred}, typ

    def op_hash(self, op: Op) -> str:
        key = id(op)
        if key in self.op_hashes:
            return self.op_hashes[key]
        real = self.op_of(op)
        h = _h(real.name, real.template, [self.value_hash(o) for o in real.operands],
               [self.region_hash(r) for r in real.regions], getattr(op, "_eff_index", None))
        self.op_hashes[key] = h
        return h

    def region_hash(self, region: Region) -> str:
        return _h("region", [self.op_hash(o) for o in self.roots[id(region)]])


def _index(canon: Canon, region: Region, depth: int, path: str) -> None:
    counts: Counter = Counter()
    for op in region.ops:
        op.path = f"{path}/{op.name}[{counts[op.name]}]"
        counts[op.name] += 1
        for k, r in enumerate(op.results):
            canon.defs[r] = (op, k)
        for k, b in enumerate(op.block_args):
            canon.barg_of[b] = (depth + 1, k)
            canon.barg_owner[b] = op
        for r in op.regions:
            _index(canon, r, depth + 1, op.path)


def _all_ops(region: Region):
    for op in region.ops:
        yield op
        for r in op.regions:
            yield from _all_ops(r)


def _const_int(canon: Canon, v: str) -> int | None:
    d = canon.defs.get(canon.resolve(v))
    op = canon.op_of(d[0]) if d is not None else None
    if op is None:
        return _single_trip_iv(canon, canon.resolve(v))
    if op.name != "constant":
        return None
    m = re.match(r"constant <i\d+: (-?\d+|true|false)>", op.template)
    if m is None:
        return None
    return {"true": 1, "false": 0}[m.group(1)] if m.group(1) in ("true", "false") else int(m.group(1))


def _nonneg(canon: Canon, v: str) -> bool:
    v = canon.resolve(v)
    if canon.labels.get(v, "").split(".")[-1].startswith("shape"):
        return True
    c = _const_int(canon, v)
    if c is not None:
        return c >= 0
    d = canon.defs.get(v)
    if d is None:
        return False
    op = d[0]
    if op.name in ("get_tile_block_id", "get_num_tile_blocks"):
        return True
    return op.name == "assume" and bool(re.match(r"assume bounded<(\d+), ", op.template))


def _positive(canon: Canon, v: str) -> bool:
    c = _const_int(canon, v)
    if c is not None:
        return c > 0
    d = canon.defs.get(canon.resolve(v))
    return d is not None and d[0].name == "get_num_tile_blocks"


FOR_RE = re.compile(r"for \^0 in \(\$0 to \$1, step \$2\)")


def _loop_of(canon: Canon, v: str) -> Op | None:
    """The `for` op whose induction variable ``v`` is (operands: lo, hi, step), or None."""
    owner = canon.barg_owner.get(v)
    if owner is None or owner.name != "for" or not owner.block_args or owner.block_args[0] != v or \
            not FOR_RE.match(owner.template):
        return None
    return owner


def _constant_bounds(canon: Canon, loop: Op) -> tuple[int | None, int | None, int | None]:
    """(lo, hi, step) of ``loop``, each its constant value or None."""
    return tuple(_const_int(canon, loop.operands[k]) for k in range(3))


def _nonneg_loop_iv(canon: Canon, v: str) -> bool:
    """The induction variable of `for iv in (lo to hi, step s)` with lo ≥ 0 and s > 0 is ≥ 0."""
    loop = _loop_of(canon, v)
    return loop is not None and _nonneg(canon, loop.operands[0]) and _positive(canon, loop.operands[2])


def _single_trip_iv(canon: Canon, v: str) -> int | None:
    """Rule single-trip-loop-iv: the induction variable of `for iv in (lo to hi, step s)` with constant lo < hi ≤
    lo + s takes the one value lo."""
    loop = _loop_of(canon, v)
    if loop is None:
        return None
    lo, hi, step = _constant_bounds(canon, loop)
    if lo is None or hi is None or step is None or not lo < hi <= lo + step:
        return None
    canon.fired["single-trip-loop-iv"] += 1
    return lo


def _lower_bound(canon: Canon, v: str, depth: int = 0) -> int | None:
    """A value ``v`` is known to be at least: a constant's value; for the induction variable of a loop of positive
    step, its start's (iv takes lo, lo+s, ..: a triangular loop `for j in (i to n)` inside `for i in (0 to n)`
    starts at 0 or more); 0 for a value `_nonneg` knows; else None."""
    c = _const_int(canon, v)
    if c is not None:
        return c
    loop = _loop_of(canon, canon.resolve(v))
    if loop is not None and depth < 8 and _positive(canon, loop.operands[2]):
        inner = _lower_bound(canon, loop.operands[0], depth + 1)
        if inner is not None:
            return inner
    return 0 if _nonneg(canon, v) else None


def _loop_iv_within(canon: Canon, v: str, low: int | None, high: int | None) -> bool:
    """The induction variable of `for iv in (lo to hi, step s)` (s > 0) stays in [low, high] (None: unbounded on
    that side): it takes lo, lo+s, ..., the last below hi (an empty loop never binds it). A lower bound needs lo
    known to be at least low (a constant, or a value of a known lower bound: another loop's induction variable);
    an upper bound a constant hi (with lo and s constant too, the last value taken; else hi - 1)."""
    loop = _loop_of(canon, v)
    if loop is None:
        return False
    lo, hi, step = _constant_bounds(canon, loop)
    if step is not None and step <= 0:
        return False
    if lo is not None and hi is not None and hi <= lo:
        return True
    least = lo if lo is not None else _lower_bound(canon, loop.operands[0]) if step is not None else None
    if low is not None and (least is None or least < low):
        return False
    if high is not None:
        if hi is None:
            return False
        last = lo + step * ((hi - 1 - lo) // step) if lo is not None and step is not None else hi - 1
        if last > high:
            return False
    return True


INT_FOLD = ("addi", "subi", "muli", "divi", "remi", "maxi", "mini", "shli", "andi", "ori", "xori")
#: cmpi's predicates, as Python compares
CMPI = {"equal": int.__eq__, "not_equal": int.__ne__, "less_than": int.__lt__, "less_than_or_equal": int.__le__,
        "greater_than": int.__gt__, "greater_than_or_equal": int.__ge__}
CMPI_RE = re.compile(r"cmpi (\w+) \$0, \$1, signed : tile<((?:\d+x)*)i\d+> -> (tile<(?:\d+x)*i1>)")
SELECT_RE = re.compile(r"select \$0, \$1, \$2 : tile<(?:\d+x)*i1>, tile<.+>")
INT_OP_RE = re.compile(r"\w+ \$0, \$1((?: [\w<>]+)*) : (tile<(?:\d+x)*i(\d+)>)")


def _fold_int(name: str, attrs: str, a: int, b: int, bits: int) -> int | None:
    """``a name b`` as Tile IR computes it on ``bits``-wide integers (signed ops only), or None when the result
    would wrap or the op is not folded here (unsigned, division by zero)."""
    if "unsigned" in attrs:
        return None
    if bits == 1:   # i1 (a condition): the logic ops on true / false
        return {"andi": a & b, "ori": a | b, "xori": a ^ b}.get(name) if {a, b} <= {0, 1} else None
    if name == "remi":
        if b == 0:
            return None
        value = abs(a) % abs(b) * (-1 if a < 0 else 1)   # the remainder of the truncated quotient: a's sign
    elif name == "divi":
        if b == 0:
            return None
        q, r = divmod(a, b)   # floor division
        if "negative_inf" in attrs:
            value = q
        elif "positive_inf" in attrs:
            value = q + (1 if r else 0)
        else:                 # rounding toward zero, the default
            value = q + (1 if r and (a < 0) != (b < 0) else 0)
    elif name == "shli":
        if not 0 <= b < bits:
            return None
        value = a << b
    else:
        value = {"addi": a + b, "subi": a - b, "muli": a * b, "maxi": max(a, b), "mini": min(a, b),
                 "andi": a & b, "ori": a | b, "xori": a ^ b}[name]
    return value if -(1 << (bits - 1)) <= value < (1 << (bits - 1)) else None


FLOAT_CONST_RE = re.compile(r"constant <((?:f16|bf16|f32|f64): ([-+0-9.eE]+|[-+]?inf))> : tile<(?:\d+x)*\w+>")


def _minmax_constant(canon: Canon, name: str, operands: list[str]) -> str | None:
    """Rule fold-minmax-constants: the `dtype: text` of the constant operand maxf/minf picks, when both operands are
    float constants of one dtype whose printed values differ (or are the same text); None otherwise (a zero of each
    sign: which one the op returns is not this rule's to say). Both texts are tileirdisasm's rounding of the
    values, which keeps their order, so the larger text is the larger value."""
    found = []
    for v in operands:
        d = canon.defs.get(canon.resolve(v))
        op = canon.op_of(d[0]) if d is not None else None
        m = FLOAT_CONST_RE.fullmatch(op.template) if op is not None and op.name == "constant" else None
        if m is None:
            return None
        found.append((m.group(1), m.group(1).split(":")[0], float(m.group(2))))
    (ta, da, a), (tb, db, b) = found
    if da != db:
        return None
    if ta == tb:
        return ta
    if a == b:
        return None
    return (ta if a > b else tb) if name == "maxf" else (ta if a < b else tb)


def _fold_to_constant(canon: Canon, op: Op, template: str) -> None:
    """Rule fold-int-constants: ``op`` stands for the constant ``template`` from here on."""
    canon.substitute[id(op)] = Op("constant", template, [], op.results, [], line=op.line, text=op.text, path=op.path)
    canon.fired["fold-int-constants"] += 1


FPOWI_RE = re.compile(r"fpowi \$0, \$1 : (tile<((?:\d+x)*)(f16|bf16|f32|f64)>), tile<(?:\d+x)*i\d+>")


def _expand_fpowi(canon: Canon, op: Op) -> None:
    """Rule fpowi-const: `fpowi(x, n)` of a constant n is the square-and-multiply products tileiras 13.4 compiles it
    to — the squares x^(2^k) = x^(2^(k-1)) * x^(2^(k-1)), the result started at the lowest set power and each later
    one multiplied on as `mulf(x^(2^k), result)`; f16/bf16 widened to f32 first and the product rounded back (n ≥ 2;
    of f64 also n = 1, the operand itself). Negative n (a reciprocal), 0 and 1 of narrower floats stay fpowi."""
    m = FPOWI_RE.fullmatch(op.template) if op.name == "fpowi" else None
    n = _const_int(canon, op.operands[1]) if m and len(op.operands) == 2 and op.results else None
    if m is None or n is None or n < 1 or (n == 1 and m.group(3) != "f64") or id(op) in canon.substitute:
        return
    typ, dims, dtype = m.groups()
    if n == 1:
        canon.forward[op.results[0]] = op.operands[0]
        canon.fired["fpowi-const"] += 1
        return
    steps: list[tuple[str, str, list[str]]] = []   # (op name, template, operands); step k's value is `R.fpowiK`

    def step(name: str, template: str, operands: list[str]) -> str:
        steps.append((name, template, operands))
        return f"{op.results[0]}.fpowi{len(steps)}"

    wide = f"tile<{dims}f32>" if dtype in ("f16", "bf16") else typ
    base, result, k = op.operands[0], None, n
    if wide != typ:   # f16/bf16: computed in f32, rounded once
        base = step("ftof", f"ftof $0 : {typ} -> {wide}", [base])
    while True:
        if k & 1:
            result = base if result is None else step("mulf", f"mulf $0, $1 : {wide}", [base, result])
        k >>= 1
        if not k:
            break
        base = step("mulf", f"mulf $0, $1 : {wide}", [base, base])
    if wide != typ:
        result = step("ftof", f"ftof $0 : {wide} -> {typ}", [result])
    assert result == f"{op.results[0]}.fpowi{len(steps)}"   # (n ≥ 2: the last step makes the value)
    for k, (name, template, operands) in enumerate(steps[:-1], 1):
        canon.defs[f"{op.results[0]}.fpowi{k}"] = (Op(name, template, operands, [f"{op.results[0]}.fpowi{k}"], [],
                                                      line=op.line, text=op.text, path=op.path), 0)
    name, template, operands = steps[-1]
    final = Op(name, template, operands, op.results, [], line=op.line, text=op.text, path=op.path)
    canon.substitute[id(op)] = final
    canon.fired["fpowi-const"] += 1


SHAPE_OP_RE = re.compile(r"(?:reshape|broadcast|bitcast) \$0 : (.+) -> (.+)")


def _apply_rewrites(canon: Canon) -> None:
    for op in _all_ops(canon.entry.body):
        _expand_fpowi(canon, op)   # fpowi-const: the products tileiras computes it as
        # identity-shape-ops: a reshape/broadcast to its own type
        m = SHAPE_OP_RE.fullmatch(op.template) if op.name in ("reshape", "broadcast", "bitcast") else None
        if m and m.group(1).strip() == m.group(2).strip() and op.results:
            canon.forward[op.results[0]] = op.operands[0]
            canon.fired["identity-shape-ops"] += 1
        # splat-constants: broadcast(reshape*(constant <v> : tile<T>)) is the constant <v> of the broadcast's type
        if op.name in ("broadcast", "reshape") and m and op.results and id(op) not in canon.substitute and \
                op.results[0] not in canon.forward:
            src = canon.defs.get(canon.resolve(op.operands[0]))
            while src and canon.op_of(src[0]).name == "reshape":
                src = canon.defs.get(canon.resolve(canon.op_of(src[0]).operands[0]))
            real = canon.op_of(src[0]) if src else None
            cm = re.fullmatch(r"constant (<[^<>]*>) : tile<(?:1x)*([^<>x]*)>", real.template) if real and \
                real.name == "constant" else None
            if cm:
                canon.substitute[id(op)] = Op("constant", f"constant {cm.group(1)} : {m.group(2).strip()}", [],
                                              op.results, [], line=op.line, text=op.text, path=op.path)
                canon.fired["splat-constants"] += 1
        # 16-bit float constants: one text per value (tileirdisasm prints a half at 6 significant digits; the text
        # the constant-conversion rule writes for a folded ftof rounds the last digit where tileirdisasm did not:
        # 9.997560e-02 against 9.997550e-02 for the f16 nearest 0.1)
        if op.name == "constant" and op.results and id(op) not in canon.substitute:
            half = _canonical_half(op.template)
            if half is not None and half != op.template:
                canon.substitute[id(op)] = Op("constant", half, [], op.results, [], line=op.line, text=op.text,
                                              path=op.path)
        # constant-conversion: ftof of a float constant whose value the target type holds exactly
        if op.name == "ftof" and op.results and id(op) not in canon.substitute:
            folded = _fold_ftof(canon, op)
            if folded is not None:
                canon.substitute[id(op)] = Op("constant", folded, [], op.results, [], line=op.line, text=op.text,
                                              path=op.path)
                canon.fired["constant-conversion"] += 1
        # assume-nonneg-loop-iv
        if op.name == "assume" and op.template.startswith("assume bounded<0, ?>, $0") \
                and _nonneg_loop_iv(canon, op.operands[0]):
            canon.forward[op.results[0]] = op.operands[0]
            canon.fired["assume-nonneg-loop-iv"] += 1
        # assume-loop-iv-range: assume bounded<a, b> on the iv of a loop with constant bounds that keep it inside
        mb = re.match(r"assume bounded<(-?\d+|\?), (-?\d+|\?)>, \$0", op.template) if op.name == "assume" else None
        bounds = [None if b == "?" else int(b) for b in mb.groups()] if mb else None
        if mb and op.results and bounds != [None, None] and \
                _loop_iv_within(canon, op.operands[0], bounds[0], bounds[1]):
            canon.forward[op.results[0]] = op.operands[0]
            canon.fired["assume-loop-iv-range"] += 1
        # assume-nonneg-block-id
        if op.name == "assume" and op.template.startswith("assume bounded<0, ?>, $0"):
            src = canon.defs.get(canon.resolve(op.operands[0]))
            if src and src[0].name in ("get_tile_block_id", "get_num_tile_blocks"):
                canon.forward[op.results[0]] = op.operands[0]
                canon.fired["assume-nonneg-block-id"] += 1
        # fold-int-constants: integer arithmetic on constants is the constant it computes
        mf = INT_OP_RE.fullmatch(op.template) if op.name in INT_FOLD and len(op.operands) == 2 else None
        if mf and op.results and id(op) not in canon.substitute:
            a, b = (_const_int(canon, x) for x in op.operands)
            value = _fold_int(op.name, mf.group(1), a, b, int(mf.group(3))) if a is not None and b is not None \
                else None
            if value is not None:
                text = ("true" if value else "false") if mf.group(3) == "1" else value
                _fold_to_constant(canon, op, f"constant <i{mf.group(3)}: {text}> : {mf.group(2)}")
        # fold-int-constants: a signed comparison of two integer constants is the i1 constant it computes
        mc = CMPI_RE.fullmatch(op.template) if op.name == "cmpi" and len(op.operands) == 2 else None
        if mc and mc.group(1) in CMPI and op.results and id(op) not in canon.substitute:
            a, b = (_const_int(canon, x) for x in op.operands)
            if a is not None and b is not None:
                _fold_to_constant(canon, op, f"constant <i1: {str(CMPI[mc.group(1)](a, b)).lower()}> : {mc.group(3)}")
        # fold-int-constants: a select on a constant condition is the operand it selects
        if op.name == "select" and SELECT_RE.fullmatch(op.template) and len(op.operands) == 3 and op.results and \
                id(op) not in canon.substitute and op.results[0] not in canon.forward:
            c = _const_int(canon, op.operands[0])
            if c in (0, 1):
                canon.forward[op.results[0]] = op.operands[1 if c else 2]
                canon.fired["fold-int-constants"] += 1
        # fold-minmax-constants: maxf/minf of two float constants is the constant it picks
        mm = re.fullmatch(r"(?:maxf|minf) \$0, \$1 : (tile<(?:\d+x)*(?:f16|bf16|f32|f64)>)", op.template) \
            if op.name in ("maxf", "minf") and len(op.operands) == 2 else None
        if mm and op.results and id(op) not in canon.substitute:
            picked = _minmax_constant(canon, op.name, op.operands)
            if picked is not None:
                canon.substitute[id(op)] = Op("constant", f"constant <{picked}> : {mm.group(1)}", [], op.results, [],
                                              line=op.line, text=op.text, path=op.path)
                canon.fired["fold-minmax-constants"] += 1
        # fold-int-constants: a widened integer constant (exti) is the constant of the wider type
        me = re.fullmatch(r"exti \$0 (signed|unsigned) : tile<((?:\d+x)*)i\d+> -> (tile<(?:\d+x)*i(\d+)>)",
                          op.template) if op.name == "exti" else None
        if me and op.results and id(op) not in canon.substitute:
            c = _const_int(canon, op.operands[0])
            if c is not None and (me.group(1) == "signed" or c >= 0):
                _fold_to_constant(canon, op, f"constant <i{me.group(4)}: {c}> : {me.group(3)}")
        # fold-int-constants: an integer constant converted to a float type that holds it exactly (itof) is the
        # float constant
        mi = re.fullmatch(r"itof \$0 (signed|unsigned)\s*: tile<((?:\d+x)*)i\d+> -> (tile<(?:\d+x)*(f32|f64)>)",
                          op.template) if op.name == "itof" else None
        if mi and op.results and id(op) not in canon.substitute:
            c = _const_int(canon, op.operands[0])
            if c is not None and (mi.group(1) == "signed" or c >= 0) and \
                    abs(c) <= (1 << (24 if mi.group(4) == "f32" else 53)):
                _fold_to_constant(canon, op, f"constant <{mi.group(4)}: {float(c):.6e}> : {mi.group(3)}")
        # cdiv-rounding: divi (addi a, c), b signed  with c = b - 1, b > 0, a ≥ 0
        m = re.fullmatch(r"divi \$0, \$1 signed : (.+)", op.template) if op.name == "divi" else None
        if m:
            num = canon.defs.get(canon.resolve(op.operands[0]))
            b = _const_int(canon, op.operands[1])
            if num and num[0].name == "addi" and b and b > 0 and len(num[0].operands) == 2:
                x, y = num[0].operands
                for a, c in ((x, y), (y, x)):
                    if _const_int(canon, c) == b - 1 and _nonneg(canon, a):
                        canon.substitute[id(op)] = Op(
                            "divi", f"divi $0, $1 signed rounding<positive_inf> : {m.group(1)}",
                            [a, op.operands[1]], op.results, [], line=op.line, text=op.text, path=op.path)
                        canon.fired["cdiv-rounding"] += 1
                        break


IF_RE = re.compile(r"if \$0 -> \((.*)\)")
YIELD_RE = re.compile(r"yield (\$\d+(?:, \$\d+)*) : (.+)")


def _drop_passthrough_if_results(canon: Canon) -> None:
    """Rule if-passthrough-results (see rules.py): a result of an `if` that every arm yields unchanged from a
    value defined before the `if` is that value; the `if` no longer yields it."""
    for op in reversed(list(_all_ops(canon.entry.body))):   # inner ifs first: their forwarding feeds outer ones
        m = IF_RE.fullmatch(canon.op_of(op).template) if op.name == "if" else None
        if not m or len(op.regions) != 2:
            continue
        ends = [r.ops[-1] if r.ops else None for r in op.regions]
        if any(y is None or canon.op_of(y).name not in ("yield", "continue", "break") for y in ends):
            continue
        # (an arm that ends in `continue`/`break` leaves the iteration: only the arms that yield give the results)
        yields = [y for y in ends if canon.op_of(y).name == "yield"]
        if not yields:
            continue
        real = [canon.op_of(y) for y in yields]
        if any(len(y.operands) != len(op.results) for y in real):
            continue
        inside = {v for r in op.regions for o in _all_ops(r) for v in (*o.results, *o.block_args)}
        keep: list[int] = []
        for k, result in enumerate(op.results):
            values = {canon.resolve(y.operands[k]) for y in real}
            if len(values) == 1 and (v := values.pop()) not in inside:
                canon.forward[result] = v
                canon.fired["if-passthrough-results"] += 1
            else:
                keep.append(k)
        if len(keep) == len(op.results):
            continue
        types = split_top_level(m.group(1))
        kept_types = [types[k] for k in keep]
        template = f"if $0 -> ({', '.join(kept_types)})" if keep else "if $0"
        canon.substitute[id(op)] = Op("if", template, op.operands, [op.results[k] for k in keep], op.block_args,
                                      op.regions, line=op.line, text=op.text, path=op.path)
        for new_k, k in enumerate(keep):   # the results kept are numbered anew
            canon.defs[op.results[k]] = (op, new_k)
        for y, r in zip(yields, real):
            ops = [r.operands[k] for k in keep]
            tpl = (f"yield {', '.join(f'${i}' for i in range(len(ops)))} : {', '.join(kept_types)}" if ops
                   else "yield")
            canon.substitute[id(y)] = Op("yield", tpl, ops, [], [], line=y.line, text=y.text, path=y.path)


def _regions(region: Region):
    """``region`` and every region nested in its ops."""
    yield region
    for op in region.ops:
        for r in op.regions:
            yield from _regions(r)


def _order_if_results(canon: Canon) -> None:
    """Rule if-results-order (see rules.py): an `if` whose results are each read once, all by the terminator of the
    region holding it (a loop body's `continue`), at distinct places, yields them in the order that terminator
    reads them."""
    uses = _uses(canon)
    for region in _regions(canon.entry.body):
        if not region.ops:
            continue
        term = canon.op_of(region.ops[-1])
        if term.name not in ("continue", "yield"):
            continue
        places = [canon.resolve(v) for v in term.operands]
        for orig in region.ops[:-1]:
            op = canon.op_of(orig)
            m = IF_RE.fullmatch(op.template) if op.name == "if" else None
            if not m or len(op.regions) != 2 or len(op.results) < 2 or \
                    any(r in canon.forward or uses[r] != 1 or places.count(r) != 1 for r in op.results):
                continue
            ends = [r.ops[-1] if r.ops else None for r in op.regions]
            if any(y is None or canon.op_of(y).name != "yield" or
                   len(canon.op_of(y).operands) != len(op.results) for y in ends):
                continue
            order = sorted(range(len(op.results)), key=lambda k: places.index(op.results[k]))
            types = split_top_level(m.group(1))
            if order == sorted(order) or len(types) != len(order):
                continue
            canon.fired["if-results-order"] += 1
            kept_types = [types[k] for k in order]
            canon.substitute[id(orig)] = Op("if", f"if $0 -> ({', '.join(kept_types)})", op.operands,
                                            [op.results[k] for k in order], op.block_args, op.regions,
                                            line=op.line, text=op.text, path=op.path)
            for new_k, k in enumerate(order):
                canon.defs[op.results[k]] = (orig, new_k)
            for y in ends:
                real = canon.op_of(y)
                ops = [real.operands[k] for k in order]
                tpl = f"yield {', '.join(f'${i}' for i in range(len(ops)))} : {', '.join(kept_types)}"
                canon.substitute[id(y)] = Op("yield", tpl, ops, [], [], line=y.line, text=y.text, path=y.path)


def _collapse_single_break_loops(canon: Canon) -> None:
    """Rule single-break-loop (see rules.py): a `loop` whose body is pure ops ending in its one `break` runs once:
    its carried values are their initial ones, its results the break's operands (the pure ops stay reachable through
    the operands that read them)."""
    for op in list(_all_ops(canon.entry.body)):
        if op.name != "loop" or len(op.regions) != 1 or not op.regions[0].ops or \
                len(op.block_args) != len(op.operands):
            continue
        *body, brk = [canon.op_of(o) for o in op.regions[0].ops]
        if brk.name != "break" or len(brk.operands) != len(op.results) or \
                any(canon.is_effectful(o) for o in body) or \
                any(o.name in ("break", "continue") for b in body for r in b.regions for o in _all_ops(r)):
            continue
        for arg, init in zip(op.block_args, op.operands):
            canon.forward[arg] = canon.resolve(init)
        for result, value in zip(op.results, brk.operands):
            canon.forward[result] = canon.resolve(value)
        canon.erased.add(id(op))
        canon.fired["single-break-loop"] += 1


def _inline_constant_ifs(canon: Canon) -> bool:
    """Rule if-constant-condition (see rules.py): `if %c` on a condition that is a constant (as written, or as the
    rewrites folded it: a signed cmpi of two constants) is the arm it takes, its ops in place of the `if` and its
    results the values that arm yields; not where that arm leaves by `break`, `continue` or `return`. Rewritten in
    place (True when any was), so later rules see the arm's ops where they now live."""
    changed = False
    for region in list(_regions(canon.entry.body)):
        out: list[Op] = []
        for orig in region.ops:
            op = canon.op_of(orig)
            c = _const_int(canon, op.operands[0]) if op.name == "if" and len(op.operands) == 1 and \
                op.regions and id(orig) not in canon.erased else None
            arm = None if c not in (0, 1) else op.regions[0] if c else op.regions[1] if len(op.regions) > 1 \
                else Region([])
            ops = [canon.op_of(o) for o in arm.ops] if arm is not None else []
            end = ops[-1] if ops else None
            if arm is None or (end is not None and end.name in ("break", "continue", "return")) or \
                    (op.results and (end is None or end.name != "yield" or len(end.operands) != len(op.results))) \
                    or any(o.name in ("break", "continue", "return") for o in ops[:-1]):
                out.append(orig)
                continue
            body = list(arm.ops)
            if end is not None and end.name == "yield":
                body = body[:-1]
                for result, value in zip(op.results, end.operands):
                    canon.forward[result] = canon.resolve(value)
            out.extend(body)
            canon.fired["if-constant-condition"] += 1
            changed = True
        region.ops = out
    return changed


def _one_fresh_token(canon: Canon) -> None:
    """Rule fresh-tokens-one (see rules.py): every `make_token` result is the first one's."""
    fresh = [op for op in _all_ops(canon.entry.body) if op.name == "make_token" and len(op.results) == 1]
    for op in fresh[1:]:
        if op.results[0] not in canon.forward:
            canon.forward[op.results[0]] = fresh[0].results[0]
            canon.fired["fresh-tokens-one"] += 1


def _early_return_to_else(canon: Canon) -> bool:
    """Rule early-return-else (see rules.py): in the entry's own region, `if %c { A; return } else { }` followed by
    R (up to the entry's final `return`) is `if %c { A } else { R }`; an `if` with results (`%t = if %c -> (token)
    { A; return } else { yield %x }`, the token of a store in A) gives R its else arm's values (%t is %x)."""
    ops = canon.entry.body.ops
    for k, op in enumerate(ops):
        if op.name != "if" or len(op.regions) not in (1, 2) or not op.regions[0].ops or \
                op.regions[0].ops[-1].name != "return":
            continue
        other = op.regions[1].ops if len(op.regions) == 2 else []
        if op.results:
            if not IF_RE.fullmatch(op.template) or len(other) != 1 or other[0].name != "yield" or \
                    len(other[0].operands) != len(op.results):
                continue
        elif op.template != "if $0" or other:
            continue
        rest = ops[k + 1:]
        if not rest or rest[-1].name != "return" or any(o.name == "return" for o in rest[:-1]):
            continue
        # (rewritten in place, so that every later rule sees R where it now lives)
        for result, value in zip(op.results, other[0].operands if op.results else ()):
            canon.forward[result] = value
        op.template, op.results, op.result_names = "if $0", [], []
        op.regions = [Region(op.regions[0].ops[:-1]), Region(rest[:-1])]
        # (both arms empty — `if %c { return }` just before the final return, cuTile Python's `if flag: return`
        # after a loop that returned from inside, nothing after it — the `if` does nothing: dropped)
        canon.entry.body.ops = ops[:k + (1 if any(r.ops for r in op.regions) else 0)] + rest[-1:]
        canon.fired["early-return-else"] += 1
        return True
    return False


LOOP_ITER_RE = re.compile(r"loop iter_values\((.*)\) : (.+) -> (.+)")


def _single_trip_loops_to_ifs(canon: Canon) -> None:
    """Rule single-trip-loop-if (see rules.py): `loop { pure ops; if %c { A; break X } else { }; B; break Y }`,
    its carried values unread, is `if %c -> (..) { A; yield X } else { B; yield Y }`."""
    for op in list(_all_ops(canon.entry.body)):
        m = LOOP_ITER_RE.fullmatch(op.template) if op.name == "loop" else None
        if not m or len(op.regions) != 1 or not op.regions[0].ops or id(op) in canon.substitute:
            continue
        body = op.regions[0].ops
        last = body[-1]
        ifs = [k for k, o in enumerate(body) if o.name == "if"]
        if last.name != "break" or len(ifs) != 1 or len(last.operands) != len(op.results):
            continue
        k = ifs[0]
        inner = body[k]
        if inner.results or not inner.regions or not inner.regions[0].ops or \
                any(r.ops for r in inner.regions[1:]) or inner.regions[0].ops[-1].name != "break":
            continue
        then_ops, brk = inner.regions[0].ops[:-1], inner.regions[0].ops[-1]
        post = body[k + 1:-1]
        pre_effects = [o for o in body[:k] if canon.is_effectful(o)]
        args = set(op.block_args)
        reads_args = any(canon.resolve(v) in args for o in _all_ops(op.regions[0]) for v in o.operands)
        if pre_effects or reads_args or len(brk.operands) != len(op.results) or \
                any(o.name in ("break", "continue") for o in _all_ops(Region(then_ops + post))):
            continue
        types = m.group(3)
        ylds = [Op("yield", f"yield {', '.join(f'${i}' for i in range(len(b.operands)))} : {types}",
                   list(b.operands), [], [], line=b.line, text=b.text, path=b.path) for b in (brk, last)]
        # (the pure ops before the `if` stay reachable through the operands that read them)
        regions = [Region(list(then_ops) + [ylds[0]]), Region(list(post) + [ylds[1]])]
        canon.substitute[id(op)] = Op("if", f"if $0 -> ({types})", list(inner.operands), list(op.results), [],
                                      regions, line=op.line, text=op.text, path=op.path)
        canon.fired["single-trip-loop-if"] += 1


def _own_ends(region: Region):
    """The `continue`/`break` ops of the loop whose body is ``region`` (not those of loops nested in it)."""
    for op in region.ops:
        if op.name in ("continue", "break"):
            yield op
        elif op.name not in ("loop", "for"):
            for r in op.regions:
                yield from _own_ends(r)


def _shrink_while_carried(canon: Canon) -> None:
    """Rules loop-carried-invariant and loop-carried-unread (see rules.py) for a `loop` (a `while`, left only by a
    `break`): a carried value every `continue` hands on unchanged is its initial value; a carried value its body
    does not read is dropped from the carried values and the `continue`s (the loop's results, the `break`s'
    operands, stay)."""
    for orig in reversed(list(_all_ops(canon.entry.body))):   # inner loops first
        op = canon.op_of(orig)
        m = LOOP_ITER_RE.fullmatch(op.template) if op.name == "loop" else None
        if not m or len(op.regions) != 1 or id(orig) in canon.erased:
            continue
        args, inits = list(op.block_args), list(op.operands)
        n = len(args)
        iter_types = split_top_level(m.group(2))
        body = op.regions[0]
        conts = [c for c in _own_ends(body) if canon.op_of(c).name == "continue"]
        if not n or len(inits) != n or len(iter_types) != n or \
                any(len(canon.op_of(c).operands) != n for c in conts):
            continue
        for k in range(n):   # handed on unchanged by every continue: the initial value, by induction
            if args[k] not in canon.forward and \
                    all(canon.resolve(canon.op_of(c).operands[k]) == args[k] for c in conts):
                canon.forward[args[k]] = canon.resolve(inits[k])
                canon.fired["loop-carried-invariant"] += 1
        reads = Counter(canon.resolve(v) for o in _all_ops(body) for v in canon.op_of(o).operands)
        drop = set()
        for k in range(n):   # read by nothing but its own place in the continues
            own = sum(1 for c in conts if canon.resolve(canon.op_of(c).operands[k]) == args[k])
            if args[k] in canon.forward or reads[args[k]] == own:
                drop.add(k)
        if not drop:
            continue
        canon.fired["loop-carried-unread"] += len(drop)
        keep = [k for k in range(n) if k not in drop]
        iters = ", ".join(f"^{i} = ${i}" for i in range(len(keep)))
        template = f"loop iter_values({iters}) : {', '.join(iter_types[k] for k in keep)} -> {m.group(3)}" \
            if keep else f"loop -> {m.group(3)}"
        canon.substitute[id(orig)] = Op("loop", template, [inits[k] for k in keep], list(op.results),
                                        [args[k] for k in keep], op.regions, line=op.line, text=op.text,
                                        path=op.path)
        depth = canon.barg_of[args[0]][0]
        for new_k, k in enumerate(keep):
            canon.barg_of[args[k]] = (depth, new_k)
        for c in conts:
            real = canon.op_of(c)
            ops = [real.operands[k] for k in keep]
            tpl = f"continue {', '.join(f'${i}' for i in range(len(ops)))} : " \
                  f"{', '.join(iter_types[k] for k in keep)}" if ops else "continue"
            canon.substitute[id(c)] = Op("continue", tpl, ops, [], [], line=c.line, text=c.text, path=c.path)


def _unread_loop_results(canon: Canon) -> None:
    """Rule loop-results-unread (see rules.py): a `loop`'s result nothing reads — its `break`s' operand at that place
    is never observed — is handed, by every `break` of the loop, the value the loop started it from."""
    uses = _uses(canon)
    for orig in _all_ops(canon.entry.body):
        op = canon.op_of(orig)
        if op.name != "loop" or len(op.regions) != 1 or id(orig) in canon.erased:
            continue
        inits, results = list(op.operands), list(op.results)
        if not results or len(inits) != len(results):
            continue
        unread = [k for k, r in enumerate(results) if canon.resolve(r) == r and not uses[r]]
        if not unread:
            continue
        for b in _own_ends(op.regions[0]):
            real = canon.op_of(b)
            if real.name != "break" or len(real.operands) != len(results):
                continue
            ops = list(real.operands)
            changed = [k for k in unread if canon.resolve(ops[k]) != canon.resolve(inits[k])]
            if not changed:
                continue
            for k in changed:
                ops[k] = inits[k]
            canon.substitute[id(b)] = Op("break", real.template, ops, list(real.results), list(real.block_args),
                                         list(real.regions), line=real.line, text=real.text, path=real.path)
            canon.fired["loop-results-unread"] += len(changed)


FOR_ITER_RE = re.compile(r"for \^0 in \(\$0 to \$1, step \$2\) : (\S+) iter_values\((.*)\) -> \((.*)\)")


def _uses(canon: Canon) -> Counter:
    """How many operands (of ops as rewritten) read each value."""
    return Counter(canon.resolve(v) for op in _all_ops(canon.entry.body) for v in canon.op_of(op).operands)


def _shrink_loop_carried(canon: Canon) -> None:
    """Rules loop-carried-dead and loop-carried-duplicates (see rules.py): a value a `for` carries that nothing
    reads — neither its body (other than handing it on) nor the code after the loop — is dropped; two carried
    values that start from one value and are handed the same value by every `continue` are one value."""
    for orig in reversed(list(_all_ops(canon.entry.body))):   # inner loops first
        op = canon.op_of(orig)   # (as an earlier pass rewrote it: this runs again after the token joins)
        m = FOR_ITER_RE.fullmatch(op.template) if op.name == "for" else None
        if not m or len(op.regions) != 1 or not op.regions[0].ops:
            continue
        body = op.regions[0]
        ends = [o for o in _all_ops(body) if canon.op_of(o).name in ("continue", "break")]
        term = body.ops[-1]
        conts = list(_own_ends(body))
        # one `continue`, the body's last op: every rule; more `continue`s of this loop (one nested in an `if`: a
        # `break` flag's skip, cuTile Python's and the port's) and none of its own `break`: the order only
        order_only = ends != [term]
        if canon.op_of(term).name != "continue" or all(c is not term for c in conts) or \
                (order_only and any(canon.op_of(c).name != "continue" for c in conts)):
            continue   # (a break: left alone)
        n = len(op.results)
        args, inits = op.block_args[1:], op.operands[3:]
        if len(args) != n or len(inits) != n or any(len(canon.op_of(c).operands) != n for c in conts):
            continue
        nxt = list(canon.op_of(term).operands)
        drop: set[int] = set()
        for k in range(n) if not order_only else ():   # handed on unchanged: the value it started from (rule
            # loop-carried-invariant)
            if canon.resolve(nxt[k]) == args[k] and args[k] not in canon.forward:
                init = canon.resolve(inits[k])
                canon.forward[args[k]] = init   # equal to it on entry to every iteration, by induction
                canon.forward[op.results[k]] = init
                drop.add(k)
                canon.fired["loop-carried-invariant"] += 1
        uses = _uses(canon)
        for k in (k for k in range(n) if k not in drop and not order_only):   # dead: read by nothing but its own
            # `continue`, its result unread (a value forwarded to another, loop-carried-invariant's, is read as
            # that one: not through the loop)
            self_feed = sum(1 for j in range(n) if canon.resolve(nxt[j]) == args[k])
            result_uses = 0 if op.results[k] in canon.forward else uses[canon.resolve(op.results[k])]
            if result_uses == 0 and (args[k] in canon.forward or uses[args[k]] == self_feed) and \
                    all(canon.resolve(nxt[j]) != args[k] for j in range(n) if j != k):
                drop.add(k)
                canon.fired["loop-carried-dead"] += 1
        for k in range(n) if not order_only else ():   # duplicates of an earlier carried value
            if k in drop:
                continue
            for j in range(k):
                if j in drop or canon.resolve(inits[j]) != canon.resolve(inits[k]):
                    continue
                canon.forward[args[k]] = args[j]   # the induction hypothesis: equal on entry to the body
                if canon.resolve(nxt[j]) == canon.resolve(nxt[k]):
                    canon.forward[op.results[k]] = op.results[j]
                    drop.add(k)
                    canon.fired["loop-carried-duplicates"] += 1
                    break
                del canon.forward[args[k]]
        types = split_top_level(m.group(3))
        if len(types) != n:
            continue

        effects = [o for o in _all_ops(body) if canon.op_of(o).name not in PURE_OPS]

        def hands_on(o: Op, k: int) -> bool:   # a `continue` of this loop handing carried value k on in its place
            return any(c is o for c in conts) and [j for j, v in enumerate(canon.op_of(o).operands)
                                   if canon.resolve(v) == args[k]] == [k]

        def key(k: int) -> tuple[str, str, str, int, int]:   # what a carried value is, apart from its position
            # (an op forwarded to its operand, an identity reshape or broadcast, is no reader: its readers are; nor
            # is a `continue` of this loop handing the value on in its own place: an iteration skipped by a
            # `break` flag)
            reader = next((o for o in _all_ops(body) if args[k] in
                           {canon.resolve(v) for v in canon.op_of(o).operands}
                           and not (canon.op_of(o).results and
                                    all(r in canon.forward for r in canon.op_of(o).results))
                           and not hands_on(o, k)), None)
            made = canon.defs.get(canon.resolve(nxt[k]))
            name = canon.op_of(reader).name if reader else ""
            # two tokens both first read by a store: which store (the n-th memory op of its kind) tells them apart
            nth = [o for o in effects if canon.op_of(o).name == name].index(reader) if reader in effects else -1
            # two values first read by one op (`subf %m, %d`): their places among its operands
            at = [canon.resolve(v) for v in canon.op_of(reader).operands].index(args[k]) if reader else -1
            return (types[k], name, canon.op_of(made[0]).name if made else "", nth, at)
        keep = sorted((k for k in range(n) if k not in drop), key=key)   # (stable: ties keep their order)
        if keep != sorted(keep):
            canon.fired["loop-carried-order"] += 1
        elif not drop:
            continue
        iters = ", ".join(f"^{i + 1} = ${i + 3}" for i in range(len(keep)))
        kept_types = [types[k] for k in keep]
        template = f"for ^0 in ($0 to $1, step $2) : {m.group(1)}" + \
            (f" iter_values({iters}) -> ({', '.join(kept_types)})" if keep else "")
        canon.substitute[id(orig)] = Op("for", template, op.operands[:3] + [inits[k] for k in keep],
                                        [op.results[k] for k in keep], [op.block_args[0]] + [args[k] for k in keep],
                                        op.regions, line=op.line, text=op.text, path=op.path)
        depth = canon.barg_of[op.block_args[0]][0]
        for new_k, k in enumerate(keep):
            canon.defs[op.results[k]] = (orig, new_k)
            canon.barg_of[args[k]] = (depth, new_k + 1)
        for c in conts:   # (each `continue` of this loop: order_only's nested ones too)
            real = canon.op_of(c)
            ops = [real.operands[k] for k in keep]
            tpl = f"continue {', '.join(f'${i}' for i in range(len(ops)))} : {', '.join(kept_types)}" if ops \
                else "continue"
            canon.substitute[id(c)] = Op("continue", tpl, ops, [], [], line=c.line, text=c.text, path=c.path)


def _is_true(canon: Canon, v: str) -> bool:
    d = canon.defs.get(canon.resolve(v))
    op = canon.op_of(d[0]) if d is not None else None
    return op is not None and op.name == "constant" and op.template.startswith("constant <i1: true>")


def _guarded_reads(canon: Canon, region: Region, guards: tuple = ()):
    """(value read, the `(condition, arm)` of each `if` around the reader) for every operand in ``region``."""
    for o in region.ops:
        real = canon.op_of(o)
        for v in real.operands:
            yield canon.resolve(v), guards
        cond = canon.resolve(real.operands[0]) if real.name == "if" and real.operands else None
        for arm, r in enumerate(real.regions):
            yield from _guarded_reads(canon, r, guards + ((cond, arm),) if cond is not None else guards)


def _unobserved_past_return(canon: Canon) -> None:
    """Rule loop-return-unobserved (see rules.py): in a `for` whose body starts (after pure ops) with the skip
    `if %g { continue (every carried value as it came) }`, a `continue` handing `true` to g and to f hands, at
    each place k other than g and f whose loop result is read only in the `else` arm of `if` (the result at f),
    a value nobody observes: it is written as the carried value that came in (as cuTile Python's does)."""
    reads = None
    for orig in _all_ops(canon.entry.body):
        op = canon.op_of(orig)
        m = FOR_ITER_RE.fullmatch(op.template) if op.name == "for" else None
        if not m or len(op.regions) != 1:
            continue
        n = len(op.results)
        args = op.block_args[1:]
        body = op.regions[0]
        skip = next((o for o in body.ops if canon.is_effectful(o)), None)
        real_skip = canon.op_of(skip) if skip is not None else None
        if len(args) != n or real_skip is None or real_skip.name != "if" or not real_skip.operands or \
                len(real_skip.regions[0].ops) != 1:
            continue
        g = next((k for k in range(n) if canon.resolve(real_skip.operands[0]) == args[k]), None)
        cont = canon.op_of(real_skip.regions[0].ops[0])
        if g is None or cont.name != "continue" or \
                [canon.resolve(v) for v in cont.operands] != list(args):
            continue   # (not the skip: an iteration entered with g true must hand everything on as it came)
        if reads is None:
            reads = list(_guarded_reads(canon, canon.entry.body))
        for c in _own_ends(body):
            real = canon.op_of(c)
            if real.name != "continue" or len(real.operands) != n or not _is_true(canon, real.operands[g]):
                continue
            for f in range(n):
                if not _is_true(canon, real.operands[f]):
                    continue
                flag = canon.resolve(op.results[f])
                if not any((flag, 0) in guards or (flag, 1) in guards for _, guards in reads):
                    continue   # (no `if` on the loop's result f)
                operands = list(real.operands)
                for k in range(n):
                    result = canon.resolve(op.results[k])
                    if k in (f, g) or canon.resolve(operands[k]) == args[k] or \
                            any(v == result and (flag, 1) not in guards for v, guards in reads):
                        continue
                    operands[k] = args[k]   # read only where the loop's result f is false: c was not taken
                    canon.fired["loop-return-unobserved"] += 1
                if operands != list(real.operands):
                    real = Op("continue", real.template, operands, [], [], line=c.line, text=c.text, path=c.path)
                    canon.substitute[id(c)] = real


def _divisor(canon: Canon, v: str, assumed: dict[str, int], depth: int = 0) -> int:
    """A divisor irdiff can prove of integer value ``v`` (0: a multiple of every number, as 0 is): constants,
    products, sums, widenings, reshapes, selects, assumes, and a loop's carried value
    (the common divisor of its start and of what each iteration hands on, to a fixed point; ``assumed`` holds the
    carried values being solved)."""
    v = canon.resolve(v)
    if v in assumed:
        return assumed[v]
    if depth > 200:
        return 1
    owner = canon.barg_owner.get(v)
    if owner is not None:
        real = canon.op_of(owner)
        args = real.block_args
        if real.name != "for" or v not in args[1:] or not owner.regions or not owner.regions[0].ops:
            return 1
        k = args.index(v) - 1
        term = canon.op_of(owner.regions[0].ops[-1])
        if term.name != "continue" or len(term.operands) <= k or len(real.operands) <= 3 + k:
            return 1
        d = _divisor(canon, real.operands[3 + k], assumed, depth + 1)
        for _ in range(8):   # d only shrinks (a divisor of the previous one): a fixed point within a few rounds
            nxt = math.gcd(d, _divisor(canon, term.operands[k], {**assumed, v: d}, depth + 1))
            if nxt == d:
                return d
            d = nxt
        return 1
    c = _const_int(canon, v)
    if c is not None:
        return abs(c)
    d = canon.defs.get(v)
    if d is None:
        return 1
    op, k = canon.op_of(d[0]), d[1]
    ops = [_divisor(canon, o, assumed, depth + 1) for o in op.operands] if op.name in (
        "muli", "addi", "subi", "exti", "reshape", "broadcast", "select") else []
    if op.name == "muli" and len(ops) == 2:
        return ops[0] * ops[1]
    if op.name in ("addi", "subi") and len(ops) == 2:
        return math.gcd(ops[0], ops[1])
    if op.name in ("exti", "reshape", "broadcast") and ops:
        return ops[0]
    if op.name == "select" and len(ops) == 3:
        return math.gcd(ops[1], ops[2])
    if op.name == "for" and len(op.block_args) > 1 + k:
        return _divisor(canon, op.block_args[1 + k], assumed, depth + 1)
    m = re.fullmatch(r"assume div_by<(\d+)>, \$0 : .+", op.template) if op.name == "assume" else None
    if m:
        inner = _divisor(canon, op.operands[0], assumed, depth + 1)
        return inner * int(m.group(1)) // math.gcd(inner, int(m.group(1))) if inner else 0
    return 1


def _drop_implied_divby(canon: Canon) -> None:
    """Rule assume-divby-implied (see rules.py): `assume div_by<k>` on an integer value the program itself shows
    to be a multiple of k states nothing new."""
    for op in _all_ops(canon.entry.body):
        real = canon.op_of(op)
        m = re.fullmatch(r"assume div_by<(\d+)>, \$0 : tile<(?:\d+x)*i\d+>", real.template) \
            if real.name == "assume" and len(real.operands) == 1 and op.results else None
        if m and _divisor(canon, real.operands[0], {}) % int(m.group(1)) == 0:
            canon.forward[op.results[0]] = real.operands[0]
            canon.fired["assume-divby-implied"] += 1


def _float_of(text: str) -> float | None:
    """The value of a float constant as tileirdisasm prints it: a decimal, or the IEEE bits in hex (inf, NaN)."""
    import struct

    try:
        if text.lower().startswith("0x"):
            bits = int(text, 16)
            return struct.unpack(">f", bits.to_bytes(4, "big"))[0] if len(text) > 6 else None
        return float(text)
    except (ValueError, struct.error):
        return None


def _widen_half(canon: Canon, op: Op) -> str | None:
    """Rule constant-conversion, widening: ``ftof (constant <f16|bf16: v>) : .. -> tile<..xf32>`` is the f32
    constant v (every 16-bit float is an f32 exactly), written as tileirdisasm prints an f32; finite v only."""
    import math
    import struct

    m = re.fullmatch(r"ftof \$0\s*: tile<(.*?)(bf16|f16)> -> tile<(.*?)f32>", op.template)
    src = canon.defs.get(canon.resolve(op.operands[0])) if m else None
    real = canon.op_of(src[0]) if src else None
    if real is None or real.name != "constant":
        return None
    text = _canonical_half(real.template) or real.template
    cm = re.fullmatch(r"constant <(bf16|f16): 0x([0-9A-Fa-f]{4})> : tile<(.*?)(bf16|f16)>", text)
    if not cm or cm.group(1) != m.group(2) or cm.group(3) != m.group(1):
        return None
    bits = int(cm.group(2), 16)
    v = struct.unpack(">f", struct.pack(">I", bits << 16))[0] if cm.group(1) == "bf16" else \
        struct.unpack(">e", struct.pack(">H", bits))[0]
    return f"constant <f32: {v:.6e}> : tile<{m.group(3)}f32>" if math.isfinite(v) else None


def _fold_ftof(canon: Canon, op: Op) -> str | None:
    """Rule constant-conversion: ``ftof (constant <f32|f64: v>) : .. -> tile<..xbf16|f16>`` as the constant of the
    target type, when v converts exactly (±inf, and finite values the target type holds; for the 8-bit floats,
    +0 and the other finite values they hold exactly: fp8_holds): a 16-bit one written as its bits, as a 16-bit constant written directly is compared
    (``_canonical_half``); a 16-bit constant widened to f32 (_widen_half)."""
    import math
    import struct

    if (widened := _widen_half(canon, op)) is not None:
        return widened
    m = re.fullmatch(r"ftof \$0\s*: tile<(.*?)(f32|f64)> -> tile<(.*?)(bf16|f16|f8E4M3FN|f8E5M2)>", op.template)
    src = canon.defs.get(canon.resolve(op.operands[0])) if m else None
    real = canon.op_of(src[0]) if src else None
    cm = re.fullmatch(r"constant <(f32|f64): ([^<>]*)> : tile<(.*?)(f32|f64)>", real.template) if real and \
        real.name == "constant" else None
    if not cm or cm.group(1) != m.group(2) or cm.group(4) != m.group(2) or cm.group(3) != m.group(1):
        return None
    m = re.fullmatch(r"ftof \$0\s*: tile<(.*?)(?:f32|f64)> -> tile<(.*?)(bf16|f16|f8E4M3FN|f8E5M2)>", op.template)
    cm = re.fullmatch(r"constant <(?:f32|f64): ([^<>]*)> : tile<(.*?)(?:f32|f64)>", real.template)
    if "f64" in real.template.split(":")[0] and cm.group(1).strip().lower().startswith("0x"):
        return None   # (an f64's bits: not read here)
    v = _float_of(cm.group(1).strip())
    if v is None or math.isnan(v):
        return None
    target = m.group(3)
    if target.startswith("f8"):   # 8-bit floats: a value the format holds exactly (+0, 1.5, 448, ..), as
        # tileirdisasm prints an 8-bit constant (`constant <f8E4M3FN: 1.500000e+00>`); -0 has no such text here
        return f"constant <{target}: {v:.6e}> : tile<{m.group(2)}{target}>" if fp8_holds(v, target) and \
            not (v == 0 and math.copysign(1.0, v) < 0) else None

    def narrow(x: float) -> int | None:
        try:
            return _half_bits(x, target)
        except (OverflowError, struct.error):
            return None

    # tileirdisasm prints an f32 at 7 significant digits: every f32 that prints so must convert to one value
    if math.isinf(v):
        half = narrow(v)
    else:
        ends = {narrow(v * (1 - 1e-6)), narrow(v * (1 + 1e-6)), narrow(v)}
        if len(ends) != 1 or None in ends:
            return None   # the printed value sits at a rounding boundary of the target type: not decided
        half = ends.pop()
    # (written as its bits, as every 16-bit constant is compared: _canonical_half)
    return f"constant <{target}: 0x{half:04X}> : tile<{m.group(2)}{target}>"


#: the 8-bit float formats Tile IR constants take: exponent bits, mantissa bits, largest finite value
FP8_FORMATS = {"f8E4M3FN": (4, 3, 448.0), "f8E5M2": (5, 2, 57344.0)}


def fp8_holds(value: float, target: str) -> bool:
    """Whether the 8-bit float format ``target`` (FP8_FORMATS' key, or the translator's `f8e4m3fn` / `f8e5m2`)
    holds ``value`` exactly (finite, in range, no bits past its mantissa; subnormals too): its conversion from
    f32 is then that value whatever the rounding."""
    import math

    fmt = FP8_FORMATS.get(target) or {k.lower(): f for k, f in FP8_FORMATS.items()}.get(target)
    if fmt is None or math.isnan(value) or math.isinf(value):
        return False
    exp_bits, man_bits, largest = fmt
    if value == 0 or abs(value) > largest:
        return value == 0
    lowest = 2 - 2 ** (exp_bits - 1)    # the least normal exponent (1 - bias)
    e = max(math.frexp(abs(value))[1] - 1, lowest)
    scaled = abs(value) * 2.0 ** (man_bits - e)
    return scaled == int(scaled)


def _half_bits(x: float, target: str) -> int:
    """The bits of the bf16/f16 that the f32 nearest ``x`` rounds to (nearest even), as a conversion computes it;
    raises OverflowError / struct.error where x has no such f32."""
    import struct

    bits = struct.unpack(">I", struct.pack(">f", x))[0]
    if target == "bf16":
        return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF
    return struct.unpack(">H", struct.pack(">e", struct.unpack(">f", struct.pack(">I", bits))[0]))[0]


def _canonical_half(template: str) -> str | None:
    """A scalar bf16/f16 constant's text with its value written as the 16-bit float's bits (`constant <f16:
    0x2E66> : ..`), whichever decimal printed it: each side's printed value (6 significant digits) rounds back to
    one 16-bit float; None for any other constant."""
    import struct

    m = re.fullmatch(r"constant <(bf16|f16): ([-+0-9.eE]+)> : (.*)", template)
    if not m:
        return None
    v = _float_of(m.group(2))
    if v is None:
        return None
    try:
        bits = _half_bits(v, m.group(1))
    except (OverflowError, struct.error):
        return None
    return f"constant <{m.group(1)}: 0x{bits:04X}> : {m.group(3)}"


#: memory ops → the operand index of the view or pointer tile they write / read
WRITES = {"store_view_tko": 1, "store_ptr_tko": 0, "atomic_rmw_tko": 0, "atomic_cas_tko": 0}
LOADS = {"load_view_tko": 0, "load_ptr_tko": 0}
#: ops an address passes through on its way from an entry argument (operand 0 is the source)
_ADDRESS_OPS = frozenset({"make_partition_view", "make_tensor_view", "offset", "broadcast", "reshape", "assume"})


def _array_of(canon: Canon, v: str) -> str | None:
    """The entry argument a view or pointer tile addresses (by walking back through views, offsets, broadcasts),
    or None when it cannot be told (a loop-carried pointer, a computed one)."""
    v = canon.resolve(v)
    for _ in range(64):
        if v in canon.labels:
            return v
        d = canon.defs.get(v)
        if d is None or canon.op_of(d[0]).name not in _ADDRESS_OPS or not canon.op_of(d[0]).operands:
            return None
        v = canon.resolve(canon.op_of(d[0]).operands[0])
    return None


def _data_implied_tokens(canon: Canon, ops: list[Op]) -> dict[int, set[str]]:
    """Rule data-implied-load-tokens (see rules.py): for each join_tokens, the load result tokens it may drop —
    those of loads whose loaded tile every memory operation ordered after the join (through the token chain) reads,
    directly or through pure ops."""
    users: dict[str, list[Op]] = {}
    for op in ops:
        for v in op.operands:
            users.setdefault(canon.resolve(v), []).append(op)
    loads = {op.results[-1]: op for op in ops if op.name in LOADS and len(op.results) >= 2}

    def depends(v: str, tile: str, seen: set[str], carried: frozenset = frozenset()) -> bool:
        """Whether value ``v`` is computed from ``tile`` (through pure ops, and through a loop's result when both
        its initial value and what every iteration hands on are: ``carried`` are block arguments known to be)."""
        v = canon.resolve(v)
        if v == tile or v in carried:
            return True
        if v in seen or v not in canon.defs:
            return False
        seen.add(v)
        d, k = canon.op_of(canon.defs[v][0]), canon.defs[v][1]
        if d.name in PURE_OPS and not d.regions:
            return any(depends(o, tile, seen, carried) for o in d.operands)
        if d.name == "for" and len(d.regions) == 1 and d.regions[0].ops and len(d.operands) > 3 + k:
            term = canon.op_of(d.regions[0].ops[-1])
            return term.name == "continue" and len(term.operands) > k and \
                depends(d.operands[3 + k], tile, set(seen), carried) and \
                depends(term.operands[k], tile, set(seen), carried | {d.block_args[1 + k]})
        return False

    def reads(op: Op, tile: str, seen: set[str]) -> bool:
        return any(depends(v, tile, seen) for v in op.operands)

    def ordered_after(token: str) -> list[Op] | None:
        """The memory operations the token orders, through joins and the tokens they produce; None when a use is
        not a plain memory operation or join (a loop, a branch: not followed)."""
        out, stack, seen = [], [token], set()
        while stack:
            t = stack.pop()
            if t in seen:
                continue
            seen.add(t)
            for u in users.get(t, []):
                if u.name == "join_tokens":
                    stack.extend(u.results)
                elif u.name in LOADS or u.name in WRITES:
                    out.append(u)
                    if u.name in WRITES and u.results:
                        stack.append(u.results[-1])
                else:
                    return None
        return out

    implied: dict[int, set[str]] = {}
    for op in ops:
        if op.name != "join_tokens" or len(op.results) != 1:
            continue
        after = ordered_after(op.results[0])
        if not after:
            continue
        for v in op.operands:
            load = loads.get(canon.resolve(v))
            if load is not None and all(reads(u, load.results[0], set()) for u in after):
                implied.setdefault(id(op), set()).add(canon.resolve(v))
    return implied


_UNPADDED_PTR_LOAD = re.compile(r"load_ptr_tko (\S+) \$0, \$1 token=\$2((?: optimization_hints = <.*>)?) : (\S+), "
                                r"(\S+) -> (\S+), token")


def _fold_select_padding(canon: Canon) -> None:
    """Rule padded-pointer-load-select (see rules.py): ``select(m, load_ptr_tko(p, m).tile, f)`` — the load's tile
    read by nothing else — is ``load_ptr_tko(p, m, padding f)``."""
    ops = list(_all_ops(canon.entry.body))
    uses: Counter = Counter(canon.resolve(v) for op in ops for v in op.operands)
    for sel in ops:
        if sel.name != "select" or len(sel.operands) != 3 or len(sel.results) != 1:
            continue
        cond, val, pad = (canon.resolve(v) for v in sel.operands)
        d = canon.defs.get(val)
        if d is None or d[1] != 0 or uses[val] != 1:
            continue
        load = canon.op_of(d[0])
        m = _UNPADDED_PTR_LOAD.fullmatch(load.template) if load.name == "load_ptr_tko" else None
        if m is None or canon.resolve(load.operands[1]) != cond:
            continue
        order, hints, tptr, tmask, tres = m.groups()
        canon.substitute[id(d[0])] = Op(
            "load_ptr_tko", f"load_ptr_tko {order} $0, $1, $2 token=$3{hints} : {tptr}, {tmask}, {tres} -> {tres}, "
                            "token",
            [load.operands[0], load.operands[1], pad, load.operands[2]], load.results, [], line=load.line,
            text=load.text, path=load.path)
        canon.forward[sel.results[0]] = val
        canon.fired["padded-pointer-load-select"] += 1


def _invariant_carried(canon: Canon, v: str) -> str | None:
    """Rule loop-carried-invariant (see rules.py): when ``v`` is a result of a `for` whose only `continue` hands
    that carried value on unchanged (its own block argument), the value it started from (resolved); else None."""
    d = canon.defs.get(v)
    if d is None or d[0].name != "for":
        return None
    op, k = canon.op_of(d[0]), d[1]
    if not FOR_ITER_RE.fullmatch(op.template) or len(op.regions) != 1 or not op.regions[0].ops:
        return None
    term = op.regions[0].ops[-1]
    ends = [o for o in _all_ops(op.regions[0]) if canon.op_of(o).name in ("continue", "break")]
    nxt = canon.op_of(term).operands
    if ends != [term] or canon.op_of(term).name != "continue" or len(nxt) != len(op.results) or \
            len(op.block_args) != len(op.results) + 1 or canon.resolve(nxt[k]) != op.block_args[k + 1]:
        return None
    init = canon.resolve(op.operands[3 + k])
    canon.forward[op.block_args[k + 1]] = init   # equal to it on entry to every iteration, by induction
    canon.forward[v] = init
    canon.fired["loop-carried-invariant"] += 1
    return init


def _simplify_token_joins(canon: Canon) -> None:
    """Rules read-only-load-tokens and join-tokens-trivial (see rules.py): a join drops the tokens of loads from
    arrays nothing in the kernel writes, fresh tokens (when anything else is left) and repeats; a join of one
    token is that token."""
    ops = list(_all_ops(canon.entry.body))
    written: set[str] | None = set()
    for op in ops:
        k = WRITES.get(op.name)
        if k is not None:
            arr = _array_of(canon, op.operands[k]) if len(op.operands) > k else None
            if arr is None:
                written = None  # a write whose array is unknown: no array is known to be read-only
                break
            written.add(arr)
    read_only_tokens = set()
    if written is not None:
        for op in ops:
            k = LOADS.get(op.name)
            if k is not None and len(op.results) >= 2 and len(op.operands) > k:
                arr = _array_of(canon, op.operands[k])
                if arr is not None and arr not in written:
                    read_only_tokens.add(op.results[-1])
    implied = _data_implied_tokens(canon, ops)
    for op in ops:
        if op.name != "join_tokens" or len(op.results) != 1 or id(op) in canon.substitute:
            continue
        kept: list[str] = []
        for v in op.operands:
            r = canon.resolve(v)
            r = _invariant_carried(canon, r) or r
            if r in read_only_tokens:
                canon.fired["read-only-load-tokens"] += 1
                continue
            if r in implied.get(id(op), ()):
                canon.fired["data-implied-load-tokens"] += 1
                continue
            if r not in kept:
                kept.append(r)
        fresh = [v for v in kept if v in canon.defs and canon.defs[v][0].name == "make_token"]
        rest = [v for v in kept if v not in fresh]
        toks = rest or fresh[:1]
        if len(toks) == 1:
            canon.forward[op.results[0]] = toks[0]
            canon.fired["join-tokens-trivial"] += 1
        elif toks != [canon.resolve(v) for v in op.operands]:
            canon.substitute[id(op)] = Op("join_tokens", "join_tokens " + ", ".join(f"${i}" for i in range(len(toks)))
                                          + " : token", toks, op.results, [], line=op.line, text=op.text,
                                          path=op.path)
            canon.fired["join-tokens-trivial"] += 1


TOKEN_OPERAND = re.compile(r" token = \$(\d+)")


def _drop_fresh_token_operands(canon: Canon) -> None:
    """Rule fresh-token-operand (see rules.py): a memory op's `token = %t` where %t is a fresh token (make_token,
    also after joins were simplified) reads as the op without a token operand."""
    for op in _all_ops(canon.entry.body):
        real = canon.op_of(op)
        m = TOKEN_OPERAND.search(real.template)
        if m is None:
            continue
        k = int(m.group(1))
        d = canon.defs.get(canon.resolve(real.operands[k])) if k < len(real.operands) else None
        if d is None or canon.op_of(d[0]).name != "make_token":
            continue
        canon.substitute[id(op)] = _without_operands(real, real.template[:m.start()] + real.template[m.end():], {k})
        canon.fired["fresh-token-operand"] += 1


def _without_operands(real: Op, template: str, drop: set[int]) -> Op:
    """``real`` written as ``template`` (where the operands ``drop`` no longer appear) without those operands, the
    others' `$k` renumbered."""
    template = re.sub(r"\$(\d+)", lambda n: f"${int(n.group(1)) - sum(k < int(n.group(1)) for k in drop)}", template)
    return Op(real.name, template, [v for k, v in enumerate(real.operands) if k not in drop], real.results,
              real.block_args, real.regions, real.result_names, line=real.line, text=real.text, path=real.path)


TENSOR_VIEW_RE = re.compile(r"make_tensor_view \$0, shape = \[([^\]]*)\], strides = \[([^\]]*)\](.*)")


def _drop_singleton_view_strides(canon: Canon) -> None:
    """Rule singleton-view-stride (see rules.py): a tensor view's stride operand along an axis whose extent is the
    static 1 reads as no operand (the item `_`)."""
    for op in _all_ops(canon.entry.body):
        real = canon.op_of(op)
        m = TENSOR_VIEW_RE.fullmatch(real.template) if real.name == "make_tensor_view" else None
        if m is None:
            continue
        shape, strides = [x.strip() for x in m.group(1).split(",")], [x.strip() for x in m.group(2).split(",")]
        unit = [d == "1" and re.fullmatch(r"\$\d+", st) is not None for d, st in zip(shape, strides)]
        if len(shape) != len(strides) or not any(unit):
            continue
        drop = {int(st[1:]) for u, st in zip(unit, strides) if u}
        strides = ["_" if u else st for u, st in zip(unit, strides)]
        template = f"make_tensor_view $0, shape = [{m.group(1)}], strides = [{', '.join(strides)}]{m.group(3)}"
        canon.substitute[id(op)] = _without_operands(real, template, drop)
        canon.fired["singleton-view-stride"] += len(drop)


def _mark_roots(canon: Canon, region: Region) -> None:
    # (a yield or continue of nothing ends its region as no terminator at all does: not a root)
    roots = [op for op in region.ops if canon.is_effectful(op) and not
             (canon.op_of(op).name in ("yield", "continue") and not canon.op_of(op).operands)]
    for k, op in enumerate(roots):
        op._eff_index = k  # type: ignore[attr-defined]
    canon.roots[id(region)] = roots
    for op in region.ops:
        for r in canon.op_of(op).regions:   # (a rule may give an op new regions: single-trip-loop-if)
            _mark_roots(canon, r)


def _live(canon: Canon) -> set[int]:
    """ids of ops reachable from the roots (the ops that matter)."""
    live: set[int] = set()
    stack = list(canon.roots[id(canon.entry.body)])
    while stack:
        op = stack.pop()
        if id(op) in live:
            continue
        live.add(id(op))
        real = canon.op_of(op)
        for v in real.operands:
            d = canon.defs.get(canon.resolve(v))
            if d is not None:
                stack.append(d[0])
        for r in real.regions:
            stack.extend(canon.roots[id(r)])
    return live


INBOUNDS = re.compile(r" inbounds = \[[a-z, ]*\]")
HINTS_DEFAULT = re.compile(r"optimization_hints ?= ?<default = \{\}>")
OP_HINTS_DEFAULT = re.compile(r" optimization_hints ?= ?<default = \{\}>")
HINTS_KEYED = re.compile(r"(optimization_hints ?= ?<)((?:\w+ = \{[^{}]*\}(?:, )?)+)>")
HINT_ENTRY = re.compile(r"(\w+) = \{([^{}]*)\}")


def _hints_for_target(canon: "Canon", text: str, target: str | None) -> str:
    """In a program compiled for ``target``, optimization hints are the `default` ones with those its own key
    names over them, hint by hint: `<sm_90 = {h}>` and `<default = {h}, sm_80 = {g}>` both read `<default = {h}>`
    for sm_90, and `<default = {num_worker_warps_per_cta = 8, occupancy = 1}, sm_90 = {occupancy = 2}>` (cuTile
    Python's `num_worker_warps=8, occupancy=ct.ByTarget(sm_90=2, default=1)`) reads `<default =
    {num_worker_warps_per_cta = 8, occupancy = 2}>`: tileiras 13.4 compiles the two to the same sm_90 cubin."""
    if target is None:
        return text

    def hints(body: str) -> dict[str, str]:
        return dict(h.split(" = ", 1) for h in (x.strip() for x in body.split(",")) if " = " in h)

    def sub(m: re.Match) -> str:
        entries = dict(HINT_ENTRY.findall(m.group(2)))
        if set(entries) <= {"default"}:
            return m.group(0)
        canon.fired["hints-for-target"] += 1
        merged = hints(entries.get("default", "")) | hints(entries.get(target, ""))
        return f"{m.group(1)}default = {{{', '.join(f'{k} = {v}' for k, v in sorted(merged.items()))}}}>"

    return HINTS_KEYED.sub(sub, text)


def canonicalize(entry: Entry, layout: Layout | None = None, unit_grid: frozenset = frozenset(),
                 target: str | None = None) -> Canon:
    if layout is None:
        layout = layout_from_python_symbol(entry.symbol)
    labels, how = label_args(entry, layout)
    canon = Canon(entry, labels, how, unit_grid=frozenset(unit_grid))
    for op in _all_ops(entry.body):
        op.template = _hints_for_target(canon, op.template, target)
        if OP_HINTS_DEFAULT.search(op.template):   # an op's empty hints: no hints (as on the entry)
            op.template = OP_HINTS_DEFAULT.sub("", op.template)
            canon.fired["empty-optimization-hints"] += 1
        if op.name in ("load_view_tko", "store_view_tko") and INBOUNDS.search(op.template):   # inbounds-hint
            op.template = INBOUNDS.sub("", op.template)
            canon.fired["inbounds-hint"] += 1
    if fired := argmax.rewrite(entry.body, canon.forward):   # argmax-two-reductions (irdiff/argmax.py)
        canon.fired["argmax-two-reductions"] += fired
    canon.attrs = HINTS_DEFAULT.sub("", _hints_for_target(canon, entry.attrs, target)).strip()
    if canon.attrs != entry.attrs.strip():
        canon.fired["empty-optimization-hints"] += 1
    _index(canon, entry.body, 0, "entry")
    if _early_return_to_else(canon):
        _index(canon, entry.body, 0, "entry")   # (R's loops are one region deeper now)
    _one_fresh_token(canon)
    _apply_rewrites(canon)
    if _inline_constant_ifs(canon):
        _index(canon, entry.body, 0, "entry")   # (the arm's loops are one region shallower now)
        _apply_rewrites(canon)   # (the arm's values may fold further where they are read)
    before = canon.fired["single-break-loop"]
    _collapse_single_break_loops(canon)
    if canon.fired["single-break-loop"] != before:
        _apply_rewrites(canon)   # (a collapsed loop's value may be a constant the rewrites fold into its readers)
    _single_trip_loops_to_ifs(canon)
    _drop_passthrough_if_results(canon)
    _unobserved_past_return(canon)
    _shrink_loop_carried(canon)
    _unread_loop_results(canon)
    _shrink_while_carried(canon)
    _drop_implied_divby(canon)
    _fold_select_padding(canon)
    _simplify_token_joins(canon)
    _drop_fresh_token_operands(canon)
    _drop_singleton_view_strides(canon)
    _shrink_loop_carried(canon)   # (again: tokens the joins no longer read are dead now)
    _order_if_results(canon)   # (after the loops' carried values took their order)
    _mark_roots(canon, entry.body)
    live = _live(canon)
    all_ops = list(_all_ops(entry.body))
    dead = [op for op in all_ops if id(op) not in live]
    if dead:
        canon.fired["dead-pure-ops"] += len(dead)
    live_ops = [op for op in all_ops if id(op) in live]
    chained = sum(1 for op in live_ops if op.name == "assume" and op.operands
                  and (d := canon.defs.get(canon.resolve(op.operands[0]))) and d[0].name == "assume")
    if chained:
        canon.fired["assume-fact-set"] += chained
    unique = {canon.op_hash(op): canon.op_of(op).name for op in live_ops}
    canon.inventory = Counter(unique.values())
    hashes = Counter(canon.op_hash(op) for op in live_ops if not canon.is_effectful(op))
    merged = sum(n - 1 for n in hashes.values())
    if merged:
        canon.fired["common-pure-subexpressions"] += merged
    used_args = {canon.resolve(v) for op in live_ops for v in canon.op_of(op).operands} & set(labels)
    dropped = [labels[a] for a, _ in entry.args if a not in used_args]
    if dropped:
        canon.fired["entry-prologue"] += len(dropped)
    canon.dropped_args = dropped  # type: ignore[attr-defined]
    return canon
