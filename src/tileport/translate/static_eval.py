"""``ct.static_eval(expr)``: a Python expression cuTile Python evaluates when it compiles the kernel, from the
specialization's constants (coverage row ``static-eval``). The translator does the same, per variant (each variant
is emitted on its own and variants with equal bodies share an entry), before emission: the call becomes the
literal it evaluates to, so everything after it sees a constant as it would a literal in the source."""
from __future__ import annotations

import ast
import math
import types

from ..spec import signature as sigmod

#: what the expression may call (the resolve pass spells min/max/abs/** as ct.minimum/ct.maximum/ct.abs/ct.pow)
_BUILTINS = {"min": min, "max": max, "abs": abs, "int": int, "float": float, "bool": bool, "round": round,
             "pow": pow, "len": len}
_CT = types.SimpleNamespace(minimum=min, maximum=max, abs=abs, pow=pow, cdiv=lambda a, b: -(-a // b))


def _value(expr: ast.expr, constants: dict[str, object]) -> tuple[bool, object]:
    names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)} - {"ct", "math"} - set(_BUILTINS)
    if not names <= set(constants):
        return False, None
    try:
        code = compile(ast.fix_missing_locations(ast.Expression(expr)), "<static_eval>", "eval")
        value = eval(code, {"__builtins__": _BUILTINS, "ct": _CT, "math": math}, dict(constants))  # noqa: S307
    except Exception:  # noqa: BLE001 — anything it cannot evaluate is left to the emitter, which refuses it
        return False, None
    return isinstance(value, (bool, int, float)), value


def fold_static_eval(fn: ast.FunctionDef, sig: sigmod.Signature) -> None:
    """Every ``ct.static_eval(e)`` in ``fn`` whose value follows from literals and the variant's constants
    replaced by that value (a bool, int or float literal at the call's position)."""
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
            return node

    fn.body = [Fold().visit(st) for st in fn.body]
    ast.fix_missing_locations(fn)
