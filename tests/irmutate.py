"""Text-level mutations of real tileirdisasm output, for the irdiff mutation suite.

Each mutator returns the mutated text, or None when the program has nothing it applies to. "Different" mutators
change meaning; "equal" mutators change only form (names, order of independent pure ops, dead ops, locations).
"""
from __future__ import annotations

import random
import re

VALUE = re.compile(r"%([A-Za-z0-9_.$-]+)")


def _lines(text):
    return text.splitlines()


def _first(lines, pred):
    return next((i for i, ln in enumerate(lines) if pred(ln)), None)


def replace_once(pattern: str, repl: str):
    def mutate(text: str) -> str | None:
        lines = _lines(text)
        i = _first(lines, lambda ln: re.search(pattern, ln) is not None and not ln.lstrip().startswith("entry"))
        if i is None:
            return None
        lines[i] = re.sub(pattern, repl, lines[i], count=1)
        return "\n".join(lines)
    return mutate


def drop_line(pattern: str):
    def mutate(text: str) -> str | None:
        lines = _lines(text)
        i = _first(lines, lambda ln: re.search(pattern, ln) is not None)
        if i is None:
            return None
        del lines[i]
        return "\n".join(lines)
    return mutate


def swap_operands(op: str):
    """`= op %x, %y` → `= op %y, %x` on the first such op with two distinct operands."""
    def mutate(text: str) -> str | None:
        lines = _lines(text)
        for i, ln in enumerate(lines):
            m = re.search(rf"= {op} (%[\w.$-]+), (%[\w.$-]+)", ln)
            if m and m.group(1) != m.group(2):
                lines[i] = ln[:m.start()] + f"= {op} {m.group(2)}, {m.group(1)}" + ln[m.end():]
                return "\n".join(lines)
        return None
    return mutate


def change_loop_step(text: str) -> str | None:
    """Make the first for loop's step a different constant (2 instead of the original value)."""
    lines = _lines(text)
    i = _first(lines, lambda ln: re.search(r"\bfor %\w+ in \(", ln) is not None)
    if i is None:
        return None
    step = re.search(r"step (%[\w.$-]+)", lines[i]).group(1)
    lines.insert(i, "  %__step2 = constant <i32: 2> : tile<i32>")
    lines[i + 1] = lines[i + 1].replace(f"step {step}", "step %__step2")
    return "\n".join(lines)


def change_used_constant(text: str) -> str | None:
    """Change the value of the first constant that some op actually reads."""
    lines = _lines(text)
    for i, ln in enumerate(lines):
        m = re.match(r"\s*%([\w.$-]+) = constant <(i32|i64|f32): ([^>]+)>", ln)
        if not m:
            continue
        name = m.group(1)
        if not any(re.search(rf"%{re.escape(name)}(?![\w.$-])", other) for k, other in enumerate(lines) if k != i):
            continue
        old = m.group(3)
        new = str(int(old) + 1) if m.group(2) != "f32" else "1.250000e+00" if old != "1.250000e+00" else "2.0e+00"
        lines[i] = ln.replace(f"<{m.group(2)}: {old}>", f"<{m.group(2)}: {new}>", 1)
        return "\n".join(lines)
    return None


DIFFERENT = {
    "other-arith-op": lambda t: replace_once(r"= addf ", "= subf ")(t) or replace_once(r"= mulf ", "= addf ")(t)
    or replace_once(r"= subf ", "= addf ")(t) or replace_once(r"= muli ", "= addi ")(t),
    "missing-store": lambda t: drop_line(r"store_view_tko|store_ptr_tko")(t),
    "swapped-operands": lambda t: swap_operands("subf")(t) or swap_operands("divf")(t)
    or swap_operands("mmaf")(t) or swap_operands("cmpi less_than")(t),
    "tile-shape": lambda t: replace_once(r"tile=\((\d+)", lambda m: f"tile=({int(m.group(1)) // 2}")(t),
    "rounding-mode": lambda t: replace_once(r"rounding<zero>", "rounding<nearest_even>")(t)
    or replace_once(r"rounding<positive_inf>", "rounding<negative_inf>")(t),
    "dropped-flush-to-zero": lambda t: replace_once(r"\s+flush_to_zero", "")(t),
    "padding-value": lambda t: replace_once(r"padding_value = zero", "padding_value = nan")(t)
    or replace_once(r"padding_value = neg_inf", "padding_value = zero")(t),
    "loop-step": change_loop_step,
    "constant-value": change_used_constant,
    "memory-ordering": lambda t: replace_once(r"load_view_tko weak", "load_view_tko relaxed device")(t),
}


def rename_ssa(text: str, seed: int) -> str:
    """Consistently rename every value (entry arguments included) to random fresh names."""
    rng = random.Random(seed)
    names = sorted(set(VALUE.findall(text)))
    fresh = rng.sample(range(10 * len(names) + 10), len(names))
    mapping = {n: f"v{f}_{rng.choice('abcxyz')}" for n, f in zip(names, fresh)}
    return VALUE.sub(lambda m: "%" + mapping[m.group(1)], text)


def _defs_uses(line: str) -> tuple[set[str], set[str]]:
    lhs, eq, rhs = line.partition(" = ")
    if not eq:
        return set(), set(VALUE.findall(line))
    return set(n.split(":")[0] for n in VALUE.findall(lhs)), set(VALUE.findall(rhs))


PURE_LINE = re.compile(r"^\s*%[\w.$-]+(?:, %[\w.$-]+)* = (constant|assume|reshape|broadcast|iota|make_token|"
                       r"get_tile_block_id|make_tensor_view|make_partition_view) ")


def reorder_pure(text: str, seed: int) -> str:
    """Swap adjacent pure one-line ops that do not depend on each other (several times)."""
    rng = random.Random(seed)
    lines = _lines(text)
    for _ in range(20):
        cands = [i for i in range(len(lines) - 1) if PURE_LINE.match(lines[i]) and PURE_LINE.match(lines[i + 1])
                 and lines[i][:len(lines[i]) - len(lines[i].lstrip())] ==
                 lines[i + 1][:len(lines[i + 1]) - len(lines[i + 1].lstrip())]]
        rng.shuffle(cands)
        for i in cands:
            d1, u1 = _defs_uses(lines[i])
            d2, u2 = _defs_uses(lines[i + 1])
            if not (d1 & u2) and not (d2 & u1):
                lines[i], lines[i + 1] = lines[i + 1], lines[i]
                break
    return "\n".join(lines)


def add_dead_and_duplicate(text: str) -> str:
    """Insert an unused constant, and recompute the block id (an identical pure op) for its last use."""
    lines = _lines(text)
    i = _first(lines, lambda ln: ln.lstrip().startswith("entry"))
    lines.insert(i + 1, "  %__dead = constant <f32: 4.200000e+01> : tile<f32>")
    j = _first(lines, lambda ln: "get_tile_block_id" in ln)
    if j is not None:
        names = [n for n in VALUE.findall(lines[j].split(" = ")[0])]
        indent = lines[j][:len(lines[j]) - len(lines[j].lstrip())]
        lines.insert(j + 1, indent + ", ".join(f"%__dup{k}" for k in range(len(names))) +
                     " = get_tile_block_id : tile<i32>")
        last = max(k for k, ln in enumerate(lines) if f"%{names[0]}" in ln and k > j + 1)
        if lines[last][:len(lines[last]) - len(lines[last].lstrip())] == indent:
            lines[last] = re.sub(rf"%{re.escape(names[0])}\b(?![\w.$-])", "%__dup0", lines[last])
    return "\n".join(lines)


def add_locations(text: str) -> str:
    return "\n".join(ln + ' loc("kernel.py":12:5)' if " = " in ln else ln for ln in _lines(text))


EQUAL = {
    "ssa-renamed": lambda t: rename_ssa(t, 1),
    "pure-ops-reordered": lambda t: reorder_pure(t, 2),
    "dead-and-duplicate-pure-ops": add_dead_and_duplicate,
    "debug-locations": add_locations,
    "all-of-the-above": lambda t: add_locations(rename_ssa(reorder_pure(add_dead_and_duplicate(t), 3), 4)),
}
