"""Rule argmax-two-reductions: cuTile Python's arg-max / arg-min reduce of two operands read as two reductions.

`ct.argmax(x, axis)` compiles to one Tile IR `reduce` of (x, indices) whose body keeps the better value — NaN the
worst — and, between equal values (two NaNs equal), the lesser index (cuda.tile 1.7 `_ir/ops.py`
`argmax_argmin`). cutile 0.3.1's reduce takes one operand, so a port computes the best value by one reduction and
the least index where x equals it by another (translate `Emitter.argmax`). This rule rewrites the reference's
reduce into exactly those ops, before the value hashes are taken:

    best = reduce(x, maxf | minf | maxi | mini)          the value's own reduction, at its identity
    keep = reshape(best)  (the reduced dimension kept as 1)
    hit  = cmpf equal ordered (x, broadcast(keep)) | broadcast(cmpf not_equal unordered (keep, keep))
           (integers: cmpi equal (x, broadcast(keep)))
    index = reduce(select(hit, indices, 2147483647), mini signed)

Why it is the same index: the body orders the pairs lexicographically — value first (NaN below every number), then
the lesser index — so the reduction picks the least index among the positions holding the best value. A float
max/min reduction ignores NaN (`maxf` without propagate_nan), so `best` is that best value, or NaN when no value is
a number, and then every position is a candidate (the body's two NaNs tie on the index). Comparing with `equal
ordered` finds exactly the positions of value `best` (±0 compare equal, and the body calls them equal too). What
the rewrite does not copy: the reference's identity pair (-inf, 0) is no identity of its body for a -inf element at
an index above 0 (the pair wins the tie); wherever tileiras combined it, the reference could answer 0 where the
port answers the first -inf's index. Only the index result is rewritten; a read of the value result keeps the
two-operand reduce (a difference)."""
from __future__ import annotations

import re

from .parse import Op, Region, parse

#: the reference's reduce: values of type T and int32 indices along dimension D, at identities (I, 0) — I as
#: tileirdisasm prints it (`0xFF800000 : f32`, `-128 : i8`; an i64 without its type)
REDUCE_RE = re.compile(r"reduce \$0, \$1 dim=(\d+) identities=\[([^,\]]+), 0 : i32\] : tile<((?:\d+x)*)(\w+)>, "
                       r"tile<(?:\d+x)*i32> -> tile<((?:\d+x)*)\w+>, tile<(?:\d+x)*i32> \(\^0: tile<\w+>, \^1: "
                       r"tile<\w+>, \^2: tile<i32>, \^3: tile<i32>\)")

#: cuda.tile 1.7's comparison body, operands named by position: ^k the block arguments (lhs value, rhs value, lhs
#: index, rhs index), %k the k-th value the body defines. {c}: the comparison; {t}: the value type
FLOAT_BODY = """cmpf {c} ordered ^0, ^1 : tile<{t}> -> tile<i1>
cmpf equal ordered ^0, ^1 : tile<{t}> -> tile<i1>
cmpf not_equal unordered ^0, ^0 : tile<{t}> -> tile<i1>
cmpf not_equal unordered ^1, ^1 : tile<{t}> -> tile<i1>
cmpf equal ordered ^0, ^0 : tile<{t}> -> tile<i1>
andi %4, %3 : tile<i1>
ori %0, %5 : tile<i1>
andi %2, %3 : tile<i1>
ori %1, %7 : tile<i1>
cmpi less_than ^2, ^3, signed : tile<i32> -> tile<i1>
andi %8, %9 : tile<i1>
ori %6, %10 : tile<i1>
select %11, ^0, ^1 : tile<i1>, tile<{t}>
select %11, ^2, ^3 : tile<i1>, tile<i32>
yield %12, %13 : tile<{t}>, tile<i32>"""

INT_BODY = """cmpi {c} ^0, ^1, {s} : tile<{t}> -> tile<i1>
cmpi equal ^0, ^1, {s} : tile<{t}> -> tile<i1>
cmpi less_than ^2, ^3, signed : tile<i32> -> tile<i1>
andi %1, %2 : tile<i1>
ori %0, %3 : tile<i1>
select %4, ^0, ^1 : tile<i1>, tile<{t}>
select %4, ^2, ^3 : tile<i1>, tile<i32>
yield %5, %6 : tile<{t}>, tile<i32>"""

FLOATS = ("f16", "bf16", "f32", "f64")
CMP = {"greater_than": "max", "less_than": "min"}


def _body(op: Op) -> list[str] | None:
    """The reduce's body as lines of FLOAT_BODY / INT_BODY's notation (None: not one plain region)."""
    if len(op.regions) != 1:
        return None
    names = {b: f"^{k}" for k, b in enumerate(op.block_args)}
    lines = []
    for inner in op.regions[0].ops:
        if inner.regions or any(v not in names for v in inner.operands):
            return None
        lines.append(re.sub(r"\$(\d+)", lambda m: names[inner.operands[int(m.group(1))]], inner.template))
        names.update({r: f"%{len(lines) - 1}" for r in inner.results})
    return lines


def _which(op: Op, dtype: str) -> tuple[str, str] | None:
    """('max' | 'min', the integer comparisons' signedness or '') when op's body is cuda.tile's arg-max / arg-min."""
    body = _body(op)
    for c, kind in CMP.items():
        for s in ([""] if dtype in FLOATS else ["signed", "unsigned"]):
            text = (FLOAT_BODY if dtype in FLOATS else INT_BODY).format(c=c, t=dtype, s=s)
            if body == text.splitlines():
                return kind, s
    return None


def _tile(dims: list[str], dtype: str) -> str:
    return f"tile<{''.join(d + 'x' for d in dims)}{dtype}>"


def _two_reductions(op: Op) -> tuple[list[Op], str] | None:
    """The ops that compute op's index result from its two operands, and the one that holds it."""
    m = REDUCE_RE.fullmatch(op.template) if op.name == "reduce" and len(op.operands) == 2 else None
    if m is None or len(op.results) != 2 or not re.fullmatch(rf"\S+ : {m.group(4)}|-?\d+", m.group(2)):
        return None
    dim, ident, dims, dtype = int(m.group(1)), m.group(2), m.group(3).split("x")[:-1], m.group(4)
    which = _which(op, dtype)
    if which is None or dim >= len(dims):
        return None
    kind, sign = which
    full, kept = dims, [d if k != dim else "1" for k, d in enumerate(dims)]
    out = [d for k, d in enumerate(dims) if k != dim]
    t, k_t, o_t = _tile(full, dtype), _tile(kept, dtype), _tile(out, dtype)
    b, kb = _tile(full, "i1"), _tile(kept, "i1")
    i, o_i = _tile(full, "i32"), _tile(out, "i32")
    reduce_op = f"{kind}f" if dtype in FLOATS else f"{kind}i"
    suffix = f" {sign}" if sign else ""
    if dtype in FLOATS:
        hit = [f"%eq = cmpf equal ordered %x, %bb : {t} -> {b}",
               f"%nan = cmpf not_equal unordered %keep, %keep : {k_t} -> {kb}",
               f"%nb = broadcast %nan : {kb} -> {b}",
               f"%hit = ori %eq, %nb : {b}"]
    else:
        hit = [f"%hit = cmpi equal %x, %bb, {sign} : {t} -> {b}"]
    text = "\n".join([
        f"entry @argmax(%x: {t}, %i: {i}) {{",
        f"  %best = reduce %x dim={dim} identities=[{ident}] : {t} -> {o_t}",
        f"  (%l: tile<{dtype}>, %r: tile<{dtype}>) {{",
        f"    %m = {reduce_op} %l, %r{suffix} : tile<{dtype}>",
        f"    yield %m : tile<{dtype}>",
        "  }",
        f"  %keep = reshape %best : {o_t} -> {k_t}",
        f"  %bb = broadcast %keep : {k_t} -> {t}",
        *(f"  {line}" for line in hit),
        f"  %big = constant <i32: 2147483647> : {i}",
        f"  %sel = select %hit, %i, %big : {b}, {i}",
        f"  %index = reduce %sel dim={dim} identities=[2147483647 : i32] : {i} -> {o_i}",
        "  (%l: tile<i32>, %r: tile<i32>) {",
        "    %m = mini %l, %r signed : tile<i32>",
        "    yield %m : tile<i32>",
        "  }",
        "  return",
        "}"])
    entry = parse(text).entries[0]
    rename = {a: v for (a, _), v in zip(entry.args, op.operands)}
    ops = entry.body.ops[:-1]
    for new in ops:
        _rename(new, rename)
        new.line, new.text = op.line, op.text
    return ops, ops[-1].results[0]


def _rename(op: Op, rename: dict[str, str]) -> None:
    op.operands = [rename.get(v, v) for v in op.operands]
    for region in op.regions:
        for inner in region.ops:
            _rename(inner, rename)


def rewrite(region: Region, forward: dict[str, str]) -> int:
    """Every arg-max / arg-min reduce under ``region``: its two reductions put before it, its index result forwarded
    to theirs (``forward``: value → replacement); the reduce itself stays, read by nothing once the index is
    forwarded (dropped as dead) unless its value result is read. Returns how many were rewritten."""
    fired = 0
    for k in range(len(region.ops) - 1, -1, -1):
        op = region.ops[k]
        for inner in op.regions:
            fired += rewrite(inner, forward)
        found = _two_reductions(op)
        if found is not None:
            ops, index = found
            region.ops[k:k] = ops
            forward[op.results[1]] = index
            fired += 1
    return fired
