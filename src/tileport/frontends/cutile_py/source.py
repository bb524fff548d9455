"""What the kernel's Python source says, read from its AST: parameters, constant and runtime branches, loops,
memory access sites (with every default made explicit), casts and helper calls.

Nothing here runs the kernel; per-variant facts (which way a constant branch went) are computed by
:func:`eval_constant_expr`, which evaluates only literals, constant parameters and plain operators and answers
``None`` for anything else — an unknown, never a guess.
"""
from __future__ import annotations

import ast
import inspect
import operator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...astwalk import walk_nodes
from ...errors import TileportError

MEMORY_FUNCS = ("load", "store", "gather", "scatter", "load_advanced_indexing", "store_advanced_indexing",
                "atomic_add", "atomic_and", "atomic_cas", "atomic_max", "atomic_min", "atomic_or", "atomic_xchg",
                "atomic_xor")
#: keyword arguments whose defaults a port must reproduce; filled from cuda.tile's own signatures
MEMORY_KWARGS = ("shape", "order", "padding_mode", "check_bounds", "latency", "allow_tma", "memory_order",
                 "memory_scope", "mask", "padding_value")


class SourceError(TileportError):
    pass


@dataclass
class SourceFacts:
    file: str
    name: str
    line: int
    params: list[dict]
    constant_branches: list[dict] = field(default_factory=list)
    runtime_branches: list[dict] = field(default_factory=list)
    loops: list[dict] = field(default_factory=list)
    memory_sites: list[dict] = field(default_factory=list)
    casts: list[dict] = field(default_factory=list)
    helpers: list[str] = field(default_factory=list)


def _text(src: str, node: ast.AST) -> str:
    return ast.get_source_segment(src, node) or ast.unparse(node)


def _ct_attr(node: ast.AST, aliases: set[str]) -> str | None:
    """'load' for ct.load(...) when ct is an alias of cuda.tile."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
        return node.attr
    return None


def _aliases(tree: ast.Module) -> set[str]:
    out = set()
    for n in walk_nodes(tree):
        if isinstance(n, ast.Import):
            out |= {a.asname or a.name for a in n.names if a.name == "cuda.tile"}
    return out or {"ct"}


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in walk_nodes(node) if isinstance(n, ast.Name)}


def _defaults(func_name: str) -> dict[str, str]:
    import cuda.tile as ct

    try:
        sig = inspect.signature(getattr(ct, func_name))
    except (TypeError, ValueError, AttributeError):
        return {}
    out = {}
    for p in sig.parameters.values():
        if p.name in MEMORY_KWARGS and p.default is not inspect.Parameter.empty:
            d = p.default
            out[p.name] = f"{type(d).__name__}.{d.name}" if hasattr(d, "name") and hasattr(d, "value") else repr(d)
    return out


def analyze_source(path: Path, name: str, constant_names: set[str], where: tuple[str, int] | None = None) \
        -> SourceFacts:
    """``where``: the kernel function's own name and first line, for a kernel not defined at the top level under
    ``name`` (a `@staticmethod` on a class, `Kernels.scale`; one a factory made, `relu_kernel = make(..)`)."""
    src = path.read_text()
    tree = ast.parse(src, filename=str(path))
    aliases = _aliases(tree)
    from ...translate.helpers import kernel_def
    fn = kernel_def(tree, name, where[1] if where is not None else None)
    if fn is None:
        raise SourceError(f"{path}: no top-level function {name!r}")
    module_funcs = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    params = [{"name": a.arg, "kind": "constant" if a.arg in constant_names else "runtime",
               "annotation": ast.unparse(a.annotation) if a.annotation else None} for a in fn.args.args]
    facts = SourceFacts(str(path), name, fn.lineno, params)
    allowed = constant_names | aliases | {"True", "False", "None"}

    def visit_ifs(stmts: list[ast.stmt], enclosing: list[dict]) -> None:
        """Record every `if`; a constant one remembers which arms of enclosing constant ifs it sits in."""
        for st in stmts:
            if isinstance(st, ast.If):
                entry = {"line": st.lineno, "col": st.col_offset + 1, "condition": _text(src, st.test),
                         "has_else": bool(st.orelse)}
                if _names(st.test) <= allowed and not any(isinstance(n, ast.Call) for n in walk_nodes(st.test)):
                    entry["inside"] = [dict(e) for e in enclosing]
                    facts.constant_branches.append(entry)
                    visit_ifs(st.body, enclosing + [{"line": st.lineno, "arm": "then"}])
                    visit_ifs(st.orelse, enclosing + [{"line": st.lineno, "arm": "else"}])
                    continue
                facts.runtime_branches.append(entry)
            for child in ("body", "orelse", "finalbody"):
                visit_ifs(getattr(st, child, []) or [], enclosing)

    visit_ifs(fn.body, [])
    for node in walk_nodes(fn):
        if isinstance(node, ast.For):
            loop = {"line": node.lineno, "col": node.col_offset + 1, "target": _text(src, node.target),
                    "iter": _text(src, node.iter), "start": None, "stop": None, "step": None, "kind": "other"}
            it = node.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
                args = [_text(src, a) for a in it.args]
                start, stop, step = (["0"] + args + ["1"])[:3] if len(args) == 1 else (args + ["1"])[:3]
                loop.update(start=start, stop=stop, step=step, kind="range")
                if "bid(" in start and "num_blocks(" in step:
                    loop["kind"] = "persistent"
            elif isinstance(it, ast.Call) and _ct_attr(it.func, aliases) == "static_iter":
                loop["kind"] = "static"
            facts.loops.append(loop)
        elif isinstance(node, ast.Call):
            fname = _ct_attr(node.func, aliases)
            if fname in MEMORY_FUNCS:
                given = {k.arg: _text(src, k.value) for k in node.keywords if k.arg}
                defaults = _defaults(fname)
                facts.memory_sites.append({
                    "line": node.lineno, "col": node.col_offset + 1, "op": fname,
                    "array": _text(src, node.args[0]) if node.args else None,
                    "index": _text(src, node.args[1]) if len(node.args) > 1 else given.get("index"),
                    "options": {k: given.get(k, defaults.get(k)) for k in sorted(set(defaults) | set(given))
                                if k in MEMORY_KWARGS},
                    "explicit": sorted(k for k in given if k in MEMORY_KWARGS)})
            elif fname == "astype" and len(node.args) >= 2:
                facts.casts.append({"line": node.lineno, "to": _text(src, node.args[1]), "kind": "astype"})
            elif fname in ("full", "zeros", "ones", "arange") and any(k.arg == "dtype" for k in node.keywords):
                dt = next(k.value for k in node.keywords if k.arg == "dtype")
                facts.casts.append({"line": node.lineno, "to": _text(src, dt), "kind": fname})
            elif fname in ("mma", "matmul"):
                acc = _text(src, node.args[2]) if len(node.args) > 2 else None
                facts.casts.append({"line": node.lineno, "to": acc, "kind": f"{fname}-accumulator"})
            elif isinstance(node.func, ast.Name) and node.func.id in module_funcs and node.func.id != name:
                facts.helpers.append(node.func.id)
    facts.helpers = sorted(set(facts.helpers))
    for key in ("constant_branches", "runtime_branches", "loops", "memory_sites", "casts"):
        getattr(facts, key).sort(key=lambda d: (d["line"], d.get("col", 0)))
    return facts


_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Mod: operator.mod, ast.Pow: operator.pow, ast.BitAnd: operator.and_, ast.BitOr: operator.or_}
_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Gt: operator.gt, ast.GtE: operator.ge}


def eval_constant_expr(text: str, env: dict[str, Any]) -> Any:
    """Evaluate a branch condition over constant parameters; None when it uses anything else."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None

    def ev(n: ast.AST) -> Any:
        if isinstance(n, ast.Constant):
            return n.value
        if isinstance(n, ast.Name):
            if n.id in env:
                return env[n.id]
            raise KeyError(n.id)
        if isinstance(n, ast.BoolOp):
            vals = [ev(v) for v in n.values]
            return all(vals) if isinstance(n.op, ast.And) else any(vals)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.Not, ast.USub)):
            v = ev(n.operand)
            return (not v) if isinstance(n.op, ast.Not) else -v
        if isinstance(n, ast.BinOp) and type(n.op) in _BIN:
            return _BIN[type(n.op)](ev(n.left), ev(n.right))
        if isinstance(n, ast.Compare):
            left = ev(n.left)
            for op, right in zip(n.ops, n.comparators):
                r = ev(right)
                if type(op) not in _CMP or not _CMP[type(op)](left, r):
                    return False if type(op) in _CMP else _raise()
                left = r
            return True
        raise KeyError(type(n).__name__)

    def _raise():
        raise KeyError("unsupported comparison")

    try:
        return ev(node)
    except (KeyError, TypeError, ZeroDivisionError):
        return None
