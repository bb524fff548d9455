"""Divisibility of loop-carried values, as cuTile Python's dataflow analysis finds it.

cuTile Python (``cuda/tile/_passes/dataflow_analysis.py``) tracks, for every integer value, a number it is known to
be a multiple of (``div_by``) and, for scalars, the constant it is (``const_value``): a literal ``c`` is a multiple of
``|c|`` (0 of 0: "is 0"), ``a + b`` and ``a - b`` of ``gcd``, ``a * b`` of the product, ``-a`` and ``abs(a)`` of
``a``'s, an integer conversion of ``gcd(d, 2**bits)``, ``ct.assume_divisible_by(a, D)`` of ``D``, an array's shape of
what its signature states; anything else (a program id, a quotient, a load) of 1. Where values meet — a runtime
``if``'s arms, a loop's initial value and the values each iteration continues (or breaks) with — the facts join
(``gcd``; a constant only when all agree), to a fixpoint. Its ``add_divby_pass`` (``propagate_divby.py``) then states
``assume div_by<P>`` on every loop body parameter — a value a ``for`` or ``while`` loop carries — whose fact's
power-of-two part ``P`` (at most 1024) exceeds 1, unless it is a constant, and every read in the body takes the
assumed value. The port states the same facts (see ``Emitter.assume_carried``); this module finds them, on the
kernel's AST, for the loops of the kernel's own body.

Unknown values are multiples of 1: a fact is only ever smaller than cuTile Python's (no assume, an unproven port),
never larger (a false claim)."""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass

from tileport.astwalk import walk_nodes
from tileport.spec import signature as sigmod

MAX_DIVBY = 1024   # cuTile Python's cap on a stated divisor

_INT_DTYPES = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
_BITS = {d: int(d[1:]) for d in _INT_DTYPES}


@dataclass(frozen=True)
class Fact:
    div: int = 1                 # a multiple of this (0: the value is 0)
    const: int | None = None     # the scalar constant it is
    integral: bool = False       # an integer value (only those get facts beyond 1)

    def join(self, other: Fact) -> Fact:
        return Fact(math.gcd(self.div, other.div), self.const if self.const == other.const else None,
                    self.integral and other.integral)

    def stated(self) -> int:
        """The divisor cuTile Python states for a loop parameter with this fact (1: none)."""
        if self.const is not None or not self.integral:
            return 1
        return min(self.div & -self.div, MAX_DIVBY) if self.div > 1 else 1


UNKNOWN = Fact()
INT = Fact(1, None, True)


def _const(v) -> Fact:
    if isinstance(v, bool):
        return Fact(int(v), int(v), True)
    if isinstance(v, int):
        return Fact(abs(v), v, True)
    return UNKNOWN


Env = dict[str, Fact]


def _join_envs(envs: list[Env]) -> Env | None:
    envs = [e for e in envs if e is not None]
    if not envs:
        return None
    out = dict(envs[0])
    for e in envs[1:]:
        for name in list(out):
            if name in e:
                out[name] = out[name].join(e[name])
            else:
                del out[name]   # bound on one path only: not a value after the join
    return out


class _Loop:
    def __init__(self, is_for: bool):
        self.is_for = is_for
        self.nexts: list[Env] = []
        self.breaks: list[Env] = []


class _Exit(Exception):
    """A `return` in the kernel's body: what follows on this path is not analyzed."""


class LoopFacts:
    """``facts[id(loop)]``: name → Fact of every value a `for`/`while` of the kernel's body carries, at the top of
    its body (cuTile Python's loop body parameters, after the fixpoint)."""

    def __init__(self, em):   # (the Emitter: not imported, which imports this module)
        self.em = em
        self.facts: dict[int, Env] = {}
        self.loops: list[_Loop] = []
        try:
            self.block(em.fn.body, {})
        except (RecursionError, _Exit):
            pass

    # ------------------------------------------------------------------ statements

    def block(self, stmts: list[ast.stmt], env: Env | None) -> Env | None:
        for st in stmts:
            if env is None:
                return None
            env = self.stmt(st, env)
        return env

    def stmt(self, st: ast.stmt, env: Env) -> Env | None:
        em = self.em
        if isinstance(st, ast.Assign):
            value = st.value
            for target in st.targets:
                self.bind(target, value, env)
            return env
        if isinstance(st, ast.AnnAssign):
            if st.value is not None:
                self.bind(st.target, st.value, env)
            return env
        if isinstance(st, ast.AugAssign):
            if isinstance(st.target, ast.Name):
                env[st.target.id] = self.expr(ast.BinOp(st.target, st.op, st.value), env)
            return env
        if isinstance(st, ast.If):
            ok, c = em.const_value(st.test)
            if ok:
                return self.block(st.body if c else st.orelse, env)
            return _join_envs([self.block(st.body, dict(env)), self.block(st.orelse, dict(env))])
        if isinstance(st, ast.For):
            return self.for_loop(st, env)
        if isinstance(st, ast.While):
            return self.loop(st, st.body, env, is_for=False, bind={})
        if isinstance(st, ast.Continue):
            if self.loops:
                self.loops[-1].nexts.append(dict(env))
            return None
        if isinstance(st, ast.Break):
            if self.loops:
                self.loops[-1].breaks.append(dict(env))
            return None
        if isinstance(st, ast.Return):
            if not self.loops:
                raise _Exit
            for lp in self.loops:   # (cuTile Python's for_loop_return carries a flag: the values flow on)
                lp.breaks.append(dict(env))
                if lp.is_for:
                    lp.nexts.append(dict(env))
            return None
        if isinstance(st, (ast.With, ast.Try)):
            for sub in walk_nodes(st):   # (not met in kernels: whatever it assigns is unknown after it)
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    env[sub.id] = UNKNOWN
            return env
        return env

    def bind(self, target: ast.AST, value: ast.AST, env: Env) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = self.expr(value, env)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                facts = [self.expr(v, env) for v in value.elts]   # (every value read before any is re-bound)
                for t, f in zip(target.elts, facts):
                    if isinstance(t, ast.Name):
                        env[t.id] = f
                    else:
                        self.forget(t, env)
            else:
                self.forget(target, env)

    @staticmethod
    def forget(target: ast.AST, env: Env) -> None:
        for n in walk_nodes(target):
            if isinstance(n, ast.Name):
                env[n.id] = UNKNOWN

    def for_loop(self, st: ast.For, env: Env) -> Env | None:
        values = self.em.static_values(st.iter)
        if values is not None and isinstance(st.target, ast.Name):   # ct.static_iter: the body once per item
            for v in values:
                env[st.target.id] = _const(v)
                env = self.block(st.body, env)
                if env is None:
                    return None
            return env
        bind = {st.target.id: INT} if isinstance(st.target, ast.Name) else {}
        return self.loop(st, st.body, env, is_for=True, bind=bind)

    def loop(self, st: ast.For | ast.While, body: list[ast.stmt], env: Env, is_for: bool, bind: Env) -> Env | None:
        assigned = {n.id for s in body for n in walk_nodes(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        carried = sorted(n for n in assigned if n in env and n not in bind)
        params = {n: env[n] for n in carried}
        lp = _Loop(is_for)
        for _ in range(64):   # (each round only lowers facts: it ends long before)
            lp.nexts, lp.breaks = [], []
            inner = dict(env) | params | bind
            self.loops.append(lp)
            try:
                if not is_for:
                    self.expr(st.test, inner)
                end = self.block(body, inner)
            finally:
                self.loops.pop()
            flows = lp.nexts + ([end] if end is not None else []) + (lp.breaks if is_for else [])
            new = dict(params)
            for e in flows:
                for n in carried:
                    new[n] = new[n].join(e.get(n, UNKNOWN))
            if new == params:
                break
            params = new
        else:
            params = {n: UNKNOWN for n in carried}
        self.facts[id(st)] = dict(params)
        out = dict(env) | params
        for e in lp.breaks:
            for n in carried:
                out[n] = out[n].join(e.get(n, UNKNOWN))
        for n in assigned - set(carried) - set(bind):   # first bound in the body: unknown after it
            out.pop(n, None)
        return out

    # ------------------------------------------------------------------ expressions

    def expr(self, node: ast.AST, env: Env) -> Fact:
        em = self.em
        ok, v = em.const_value(node)
        if ok:
            return _const(v)
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            p = em.params.get(node.id)
            if isinstance(p, sigmod.ScalarSig):
                return INT if p.dtype in _INT_DTYPES else UNKNOWN
            return UNKNOWN
        if isinstance(node, ast.BinOp):
            a, b = self.expr(node.left, env), self.expr(node.right, env)
            if not (a.integral and b.integral):
                return UNKNOWN
            if isinstance(node.op, (ast.Add, ast.Sub)):
                return Fact(math.gcd(a.div, b.div), None, True)
            if isinstance(node.op, ast.Mult):
                return Fact(a.div * b.div, None, True)
            if isinstance(node.op, (ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift,
                                    ast.RShift)):
                return INT
            return UNKNOWN
        if isinstance(node, ast.UnaryOp):
            a = self.expr(node.operand, env)
            if isinstance(node.op, ast.USub) and a.integral:
                return Fact(a.div, None, True)
            if isinstance(node.op, ast.UAdd):
                return a
            return UNKNOWN
        if isinstance(node, ast.IfExp):
            return self.expr(node.body, env).join(self.expr(node.orelse, env))
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
                node.value.attr in ("shape", "strides") and isinstance(node.value.value, ast.Name):
            p = em.params.get(node.value.value.id)
            k = node.slice.value if isinstance(node.slice, ast.Constant) else None
            if isinstance(p, sigmod.ArraySig) and isinstance(k, int) and not isinstance(k, bool) and \
                    -p.rank <= k < p.rank:
                divs = p.shape_div if node.value.attr == "shape" else p.stride_div
                return Fact(divs[k] if divs else 1, None, True)
            return UNKNOWN
        if isinstance(node, ast.Call):
            return self.call(node, env)
        return UNKNOWN

    def call(self, node: ast.Call, env: Env) -> Fact:
        em = self.em
        op = em.ct(node.func)
        kw = {k.arg: k.value for k in node.keywords}
        if op in ("bid", "num_blocks", "num_tiles", "cdiv", "minimum", "maximum", "arange"):
            return INT if op != "minimum" and op != "maximum" or \
                all(self.expr(a, env).integral for a in node.args) else UNKNOWN
        if op == "abs" and node.args:
            a = self.expr(node.args[0], env)
            return Fact(a.div, None, True) if a.integral else UNKNOWN
        if op == "assume_divisible_by" and len(node.args) == 2:
            ok, d = em.const_value(node.args[1])
            a = self.expr(node.args[0], env)
            return Fact(d, a.const, True) if ok and isinstance(d, int) and a.integral else UNKNOWN
        if op in ("astype", "asarray") and node.args:
            dtype = em.static_dtype(node.args[1] if len(node.args) > 1 else kw.get("dtype"))
            a = self.expr(node.args[0], env)
            if dtype in _INT_DTYPES and a.integral:
                return Fact(math.gcd(a.div, 1 << _BITS[dtype]), None, True)
            return INT if dtype in _INT_DTYPES else UNKNOWN
        if op in ("zeros", "ones", "full"):
            dtype = em.static_dtype(kw.get("dtype", node.args[2] if op == "full" and len(node.args) > 2 else
                                           node.args[1] if op != "full" and len(node.args) > 1 else None))
            if dtype not in _INT_DTYPES:
                return UNKNOWN
            if op == "full":
                value = node.args[1] if len(node.args) > 1 else kw.get("fill_value")
                ok, v = em.const_value(value)
                return Fact(abs(int(v)), None, True) if ok and isinstance(v, (int, bool)) else INT
            return Fact(0 if op == "zeros" else 1, None, True)
        if op in ("reshape", "broadcast_to", "permute", "transpose", "expand_dims") and node.args:
            a = self.expr(node.args[0], env)
            return Fact(a.div, None, a.integral)
        if op in ("load", "gather") or (op or "").startswith("atomic_"):
            arr = node.args[0] if node.args else kw.get("array")
            p = em.params.get(arr.id) if isinstance(arr, ast.Name) else None
            return INT if isinstance(p, sigmod.ArraySig) and p.dtype in _INT_DTYPES else UNKNOWN
        return UNKNOWN
