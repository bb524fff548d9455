"""``ct.static_eval(expr)``: a Python expression cuTile Python evaluates when it compiles the kernel, from the
specialization's constants (coverage row ``static-eval``). The translator does the same, per variant (each variant
is emitted on its own and variants with equal bodies share an entry), before emission: the call becomes the
literal it evaluates to, so everything after it sees a constant as it would a literal in the source."""
from __future__ import annotations

import ast
import math
import types

from ..astwalk import walk_nodes
from ..spec import signature as sigmod

#: what the expression may call (the resolve pass spells min/max/abs/** as ct.minimum/ct.maximum/ct.abs/ct.pow)
_BUILTINS = {"min": min, "max": max, "abs": abs, "int": int, "float": float, "bool": bool, "round": round,
             "pow": pow, "len": len}
_CT = types.SimpleNamespace(minimum=min, maximum=max, abs=abs, pow=pow, cdiv=lambda a, b: -(-a // b))


def _value(expr: ast.expr, constants: dict[str, object]) -> tuple[bool, object]:
    names = {n.id for n in walk_nodes(expr) if isinstance(n, ast.Name)} - {"ct", "math"} - set(_BUILTINS)
    if not names <= set(constants):
        return False, None
    try:
        code = compile(ast.fix_missing_locations(ast.Expression(expr)), "<static_eval>", "eval")
        value = eval(code, {"__builtins__": _BUILTINS, "ct": _CT, "math": math}, dict(constants))  # noqa: S307
    except Exception:  # noqa: BLE001 — anything it cannot evaluate is left to the emitter, which refuses it
        return False, None
    return isinstance(value, (bool, int, float)), value


def _symbolic(expr: ast.expr, constants: dict[str, object]) -> ast.expr | None:
    """What ``ct.static_eval(expr)`` stands for when its value is dynamic: a conditional whose test the constants
    decide is the arm taken (`t * 2.0 if N % 2 else t - 1.0`, cuda.tile's documented use: the proxies of dynamic
    values build the arm's expression), and basic arithmetic of names and literals is that arithmetic; else None."""
    if isinstance(expr, ast.IfExp):
        ok, test = _value(expr.test, constants)
        return _symbolic(expr.body if test else expr.orelse, constants) if ok else None
    ok, value = _value(expr, constants)
    if ok:
        return ast.copy_location(ast.Constant(value), expr)
    if all(isinstance(n, (ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.Load, ast.operator, ast.unaryop))
           for n in walk_nodes(expr)):
        return expr
    return None


def fold_static_eval(fn: ast.FunctionDef, sig: sigmod.Signature) -> None:
    """Every ``ct.static_eval(e)`` in ``fn`` whose value follows from literals and the variant's constants
    replaced by that value (a bool, int or float literal at the call's position); one choosing a dynamic value by
    the constants (`ct.static_eval(t * 2.0 if ODD else t - 1.0)`) by the expression chosen (see _symbolic). A tuple
    written out and indexed by the constants (`DTYPES[OUT]` of a module tuple) is the element taken."""
    constants = {n: p.value for n, p in sig.params if isinstance(p, sigmod.ConstSig)}

    class Fold(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "static_eval" and isinstance(f.value, ast.Name) and \
                    f.value.id == "ct" and len(node.args) == 1 and not node.keywords:
                ok, value = _value(node.args[0], constants)
                if ok:
                    return ast.copy_location(ast.Constant(value), node)
                if (chosen := _symbolic(node.args[0], constants)) is not None:
                    return chosen
            return node

        def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
            self.generic_visit(node)
            if isinstance(node.value, ast.Tuple) and isinstance(node.ctx, ast.Load) and \
                    not isinstance(node.slice, ast.Slice) and \
                    not any(isinstance(e, ast.Starred) for e in node.value.elts):
                ok, k = _value(node.slice, constants)
                elts = node.value.elts
                if ok and type(k) is int and -len(elts) <= k < len(elts) and \
                        not any(isinstance(n, ast.Call) for i, e in enumerate(elts)
                                if i != k % len(elts) for n in walk_nodes(e)):   # (dropping no work)
                    return elts[k]
            return node

    fn.body = [Fold().visit(st) for st in fn.body]
    ast.fix_missing_locations(fn)


def fold_array_aliases(fn: ast.FunctionDef, sig: sigmod.Signature) -> None:
    """A name bound once, at the top level, to an array parameter (`src = x`) or to a choice of two decided by
    the variant's constants (`src = x if TRANSPOSED else y`) is that array wherever it is read: cuTile Python
    passes the array itself (coverage row array-alias)."""
    arrays = {n for n, p in sig.params if isinstance(p, sigmod.ArraySig)}
    constants = {n: p.value for n, p in sig.params if isinstance(p, sigmod.ConstSig)}

    def picks(stmts: list[ast.stmt]) -> bool:   # only `name = array` assignments
        return all(isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and
                   isinstance(s.value, ast.Name) and s.value.id in arrays for s in stmts)
    # `src, dst = (y, x) if SWAP else (x, y)` (rewrite tuple-conditional made it an `if` of assignments): the arm
    # the constants take, whose names are then aliases like any other
    flat: list[ast.stmt] = []
    for st in fn.body:
        test = _value(st.test, constants) if isinstance(st, ast.If) else (False, None)
        if test[0] and st.orelse and picks(st.body) and picks(st.orelse):
            flat.extend(st.body if test[1] else st.orelse)
        else:
            flat.append(st)
    fn.body = flat
    stores: dict[str, int] = {}
    for n in walk_nodes(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            stores[n.id] = stores.get(n.id, 0) + 1

    def chosen(e: ast.AST) -> str | None:
        if isinstance(e, ast.Name) and e.id in arrays:
            return e.id
        if isinstance(e, ast.IfExp) and (test := _value(e.test, constants))[0]:
            return chosen(e.body if test[1] else e.orelse)
        return None

    alias: dict[str, str] = {}
    body = []
    for st in fn.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                st.targets[0].id not in arrays and stores.get(st.targets[0].id) == 1 and \
                (target := chosen(st.value)) is not None:
            alias[st.targets[0].id] = alias.get(target, target)
            continue
        body.append(st)
    if not alias:
        return

    class Sub(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if isinstance(node.ctx, ast.Load) and node.id in alias:
                return ast.copy_location(ast.Name(alias[node.id], ast.Load()), node)
            return node

    fn.body = [Sub().visit(st) for st in body]
    ast.fix_missing_locations(fn)
