"""Name resolution and desugaring of a kernel's source before emission, standing on Python's own runtime.

cuTile Python resolves every name of a kernel against the module it was defined in (``frozen_global_values`` in
its HIR): module constants, enum and dtype aliases, functions imported under other names, helpers defined without a
decorator. The emitter reads the source, so this pass does the same resolution first, with the kernel's real
``__globals__``, and rewrites the AST into the one spelling the emitter handles. Every rewrite is one entry of
``REWRITES`` (id, what it accepts, what it becomes): the table drives the pass and ``docs/coverage.md``.

The rewritten nodes keep the source positions of what they replace: the reference IR places ops at those
positions, and the emitter matches them (fmas) there.
"""
from __future__ import annotations

import ast
import builtins
import collections
import copy
import enum
import inspect
import operator
import re
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterator
from typing import Any

from ..astwalk import statement_blocks, walk_nodes
from ..frontends.arrays import is_numpy_scalar

#: Tile methods that are the module function of the same name applied to the tile (``t.reshape(s)`` is
#: ``ct.reshape(t, s)``), from ``cuda.tile.Tile``'s public methods.
#: a tiled view's atomic reductions (`v.atomic_store_add(index, update)`), rewritten to a call the emitter knows:
#: `ct._tiled_view_atomic_store_add(array, index, update, tile_shape)` (no cuda.tile function has that name)
TILED_ATOMICS = ("atomic_store_add", "atomic_store_max", "atomic_store_min", "atomic_store_and", "atomic_store_or",
                 "atomic_store_xor")
TILED_ATOMIC_PREFIX = "_tiled_view_"
TILE_METHODS = ("astype", "reshape", "permute", "transpose", "extract", "insert")

#: torch / numpy dtype names → the cuda.tile dtype of the same meaning.
FOREIGN_DTYPES = {
    "float32": "float32", "float16": "float16", "bfloat16": "bfloat16", "float64": "float64", "int8": "int8",
    "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32",
    "uint64": "uint64", "bool": "bool_", "bool_": "bool_", "float8_e4m3fn": "float8_e4m3fn",
    "float8_e5m2": "float8_e5m2", "float8_e8m0fnu": "float8_e8m0fnu", "tfloat32": "tfloat32",
    "half": "float16", "float": "float32", "double": "float64", "int": "int32", "long": "int64",
}

#: cuda.tile functions that are Python's operators (cuTile Python lowers both to one op): `ct.bitwise_xor(a, b)` is
#: `a ^ b`.
OPERATOR_FUNCTIONS: dict[str, type] = {
    "bitwise_and": ast.BitAnd, "bitwise_or": ast.BitOr, "bitwise_xor": ast.BitXor, "bitwise_lshift": ast.LShift,
    "bitwise_rshift": ast.RShift, "floordiv": ast.FloorDiv, "mod": ast.Mod,
    "equal": ast.Eq, "not_equal": ast.NotEq, "less": ast.Lt, "less_equal": ast.LtE, "greater": ast.Gt,
    "greater_equal": ast.GtE,
}

#: the same for Python's unary operators: `ct.bitwise_not(a)` is `~a`, `ct.negative(a)` is `-a`.
UNARY_OPERATOR_FUNCTIONS: dict[str, type] = {"bitwise_not": ast.Invert, "negative": ast.USub}

#: Python's operator module, the functions that are operators (`operator.add(a, b)` is `a + b`; passed to a helper
#: that calls it, `tree(parts, operator.add)`, the call through the parameter is that operator too).
PYTHON_OPERATORS: dict[Any, type] = {
    operator.add: ast.Add, operator.sub: ast.Sub, operator.mul: ast.Mult, operator.truediv: ast.Div,
    operator.floordiv: ast.FloorDiv, operator.mod: ast.Mod, operator.pow: ast.Pow, operator.matmul: ast.MatMult,
    operator.and_: ast.BitAnd, operator.or_: ast.BitOr, operator.xor: ast.BitXor, operator.lshift: ast.LShift,
    operator.rshift: ast.RShift, operator.lt: ast.Lt, operator.le: ast.LtE, operator.eq: ast.Eq,
    operator.ne: ast.NotEq, operator.ge: ast.GtE, operator.gt: ast.Gt, operator.neg: ast.USub,
    operator.invert: ast.Invert, operator.inv: ast.Invert,
}


def operator_call(op: type, args: list[ast.expr], like: ast.AST) -> ast.expr | None:
    """The expression Python's operator ``op`` makes of ``args`` (a BinOp, a Compare, a UnaryOp), or None when the
    count does not fit."""
    if issubclass(op, ast.unaryop):
        out = ast.UnaryOp(op(), args[0]) if len(args) == 1 else None
    elif len(args) != 2:
        out = None
    else:
        out = ast.Compare(args[0], [op()], [args[1]]) if issubclass(op, ast.cmpop) else ast.BinOp(args[0], op(),
                                                                                                   args[1])
    return None if out is None else _mark(ast.copy_location(out, like))

#: cuda.tile functions that leave nothing to translate once the reference compiled: `ct.ensure_constant(e)` is `e`
#: (rewrite ensure-constant), `raise ct.static_exception(..)` stops that compile, so it is only ever in an arm of a
#: constant `if` a specialization does not take (folded away, as cuTile Python discards it).
RESOLVED_CALLS = frozenset({"ensure_constant", "static_exception"})

#: Python builtins a kernel may call on scalars/tiles, and the cuda.tile function cuTile Python lowers them to.
BUILTIN_CALLS = {"min": "minimum", "max": "maximum", "abs": "abs", "divmod": "divmod", "print": "print"}


def _builtin_named(value: Any) -> str | None:
    """The name of the builtin ``value`` is, where BUILTIN_CALLS maps it (a function a factory was given: `abs`)."""
    import builtins

    return next((n for n in BUILTIN_CALLS if getattr(builtins, n) is value), None) if callable(value) else None


@dataclass(frozen=True)
class Rewrite:
    id: str
    python: str
    becomes: str


REWRITES: tuple[Rewrite, ...] = (
    Rewrite("module-alias", "`import cuda.tile as cuda_tile`, `from cuda import tile`", "`ct.`"),
    Rewrite("global-constant", "a module-level `int`/`float`/`bool` (or a tuple of them, or of dtypes and enum "
            "members: `DTYPES = (ct.float16, ct.bfloat16)`), `str` (`NORM = \"rms\"`) "
            "or member of the module's own `IntEnum` (`Act.RELU`) used in a kernel; a member of a plain `Enum` "
            "(`MODE = Mode.FAST`, then `if MODE == Mode.FAST`)",
            "the literal (the member's int), as cuTile Python folds it; a plain Enum's member a string naming it, "
            "equal only to itself (its comparisons fold as cuTile Python folds them)"),
    Rewrite("global-enum", "a module-level or local alias of a cuda.tile enum member (`PAD_ZERO = "
            "ct.PaddingMode.ZERO`)", "`ct.PaddingMode.ZERO`"),
    Rewrite("global-dtype", "a cuda.tile, torch or numpy dtype object (`torch.int32`, `np.float32`, an alias)",
            "`ct.int32`"),
    Rewrite("global-function", "a cuda.tile function imported or aliased under another name (`from cuda.tile "
            "import load`, `exp = ct.exp`)", "`ct.load`, `ct.exp`"),
    Rewrite("tile-method", "`t.reshape(s)`, `t.astype(d)`, `t.permute(..)`, `t.transpose(..)`, `t.extract(..)`",
            "`ct.reshape(t, s)` ..."),
    Rewrite("call-keywords", "a cuda.tile call with its arguments in any order Python allows (`ct.bid(axis=0)`, "
            "`ct.load(x, (i, 0), (BM, BN))`)", "one canonical spelling, bound with the function's real signature"),
    Rewrite("new-axis", "`t[:, None]`, `t[None, :]`, `t[None, :, None]`, `t[..., None]` (full slices, an ellipsis "
            "and new axes)", "one `ct.expand_dims` at the new axes: one reshape, as cuTile Python makes it"),
    Rewrite("tuple-assign", "`a, b = e1, e2`, nested ones (`(b, h), k = divmod(pid, NH), 0`); one whose later "
            "element reads an earlier target (`a, b = b, a + b`); `M, N = x.shape`, `M, N = x.shape[-2:]`",
            "`a = e1` then `b = e2` (an inner tuple rewritten in turn; an element reading an earlier target bound "
            "first to a name of its own, `b_next = a + b`, as Python evaluates the right side first); `M = "
            "x.shape[0]` then `N = x.shape[1]` (from a slice's start: `M = x.shape[-2]`)"),
    Rewrite("tuple-conditional", "`lo, hi = (mid, hi) if c else (lo, mid)` (a conditional of tuples unpacked into "
            "names; its `else` another such conditional)", "`if c:` / `else:` arms each assigning its tuple (then "
            "split by tuple-assign): the one `if` yielding every name cuTile Python compiles it to"),
    Rewrite("helper-single-result", "a helper returning a one-element tuple (`return (t * t,)`), unpacked by one "
            "target (`(u,) = f(t)`, `u, = f(t)`) or indexed (`f(t)[0]`)", "the helper returning the element and the "
            "calls taking it (cutile 0.3.1 compiles no 1-tuple)"),
    Rewrite("unary-plus", "`+t` of a tile or a runtime scalar", "`t` (cuTile Python emits no op for it)"),
    Rewrite("aug-assign", "`x += e`, `x *= e`, ..., `t **= 2`, `a @= b`", "`x = x + e` (`t = ct.pow(t, 2)`, `a = "
            "ct.matmul(a, b)`: the call the binary operator is)"),
    Rewrite("return-none", "`return None` (a helper or a kernel that returns nothing, said so)", "`return`"),
    Rewrite("chained-assign", "`lo = hi = 0`, `m = l = ct.zeros(..)` (names)", "`lo = 0` then `hi = lo`: the value "
            "computed once and bound to each name in turn, as Python assigns it"),
    Rewrite("operator-function", "`ct.bitwise_xor(a, b)`, `ct.less(a, b)`, `ct.mod(a, b)`, `ct.bitwise_not(a)`, "
            "`ct.negative(a)`, ... (the function form of a Python operator); and the other way, `x ** y`, `a @ b`", "`a ^ b`, "
            "`a < b`, `a % b`, `~a`, `-a`, ...; `ct.pow(x, y)`, and `a @ b` is `ct.matmul(a, b)`"),
    Rewrite("builtin-call", "`min(a, b)`, `max(a, b)`, `abs(a)`, `divmod(a, b)`, `print(..)` in a kernel",
            "`ct.minimum`, `ct.maximum`, `ct.abs`, `ct.divmod`, `ct.print` (which cuTile Python compiles it to; "
            "refused under row print)"),
    Rewrite("nested-function", "a function defined in the kernel or a helper (`def act(v): ...`, `sq = lambda v: "
            "v * v`, `f = (lambda v: v * v) if MODE == 0 else (lambda u: abs(u))` chosen by a constant) and called "
            "there, reading the enclosing function's locals (a closure)", "a helper, inlined where it is called (the "
            "enclosing locals it reads: their values at the call, as in Python; a chosen lambda returns the "
            "conditional of the bodies, folded as cuTile Python folds the choice)"),
    Rewrite("combine-function", "a function passed as `ct.reduce` / `ct.scan`'s combine (`ct.reduce(t, 1, add, 0.0)` "
            "of a module's `def add(a, b): return a + b`, one defined in the kernel or a closure's), its body names "
            "each assigned once then a `return`", "the lambda of the expression it returns (each name read in place), "
            "resolved in the function's own module (the built-in reduction where it is one: `reduce-custom`)"),
    Rewrite("index-forms", "`ct.load(x, pid, (B,))` / `ct.store(y, pid, t)` (one index, not a tuple), lists for "
            "tuples (`index=[i, 0]`, `shape=[BM, BN]`)", "the 1-tuple `(pid,)`; the tuples"),
    Rewrite("annotated-assign", "`x: T = e`", "`x = e` (the annotation is not read, as in cuTile Python)"),
    Rewrite("tiled-view", "`v = x.tiled_view(shape, padding_mode=P)` and `v.load(idx)`, `v.store(idx, t)`, "
            "`v.num_tiles(k)`, `v.tile_shape`", "`ct.load(x, idx, shape, padding_mode=P)`, `ct.store(x, idx, t)`, "
            "`ct.num_tiles(x, k, shape)`, the shape: the same partition view and load/store in cuTile Python's IR"),
    Rewrite("tuple-name", "a name bound once to a tuple of plain values (`idx = (pid, 0)`, `shape = (BM, BN)`, "
            "`tile_shape = TILE` of a module tuple, `SHAPE = SHAPES[K]` of a module tuple of tuples and a constant K, "
            "`shape = (1,) + (B,)`, `args = (idx, (B,))`) and passed on (`ct.load(x, index=idx, shape=shape)`, "
            "`ct.load(x, *args)`); a name bound once to a tuple of literals or to an array's `x.shape` / `x.strides` "
            "read by element too (`SHAPE[-2:]`, `dims[0]`)", "the tuple itself where the name is read (its "
            "elements: literals, names bound once, their arithmetic, `ct.bid`, `x.shape[k]`, a tile's extents "
            "starred, `(*t.shape[:-1], B)`, tuples of those), then indexed, sliced and joined as Python does "
            "(tuple-fold): `dims[0]` is `x.shape[0]`"),
    Rewrite("tuple-name-elements", "a name bound to tuples of one length read by element or holding tiles (`pair = "
            "(t, t + 1.0)`, then `pair[0] * pair[-1]`, `a, b = pair`, `f(pair)` with `p[0]` in f), re-bound too "
            "(`state = step(state, blk)` in a loop, `s = (s[1], s[0] + t)`)",
            "one name per element bound where the tuple was (`pair_0 = t`, `pair_1 = t + 1.0`: each computed once, "
            "as cuTile Python does; a re-binding is the tuple assignment `state_0, state_1 = ..`, carried by loops "
            "and branches element by element), `pair[k]` that name, other reads the tuple of the names; a name bound "
            "to a helper's results read other than by a literal index (`parts = split3(t)`, then `parts[1:]`): "
            "`parts_0, parts_1, parts_2 = split3(t)`, then the same; a tuple nested in one (`state = ((m, l), n)`, "
            "carried by a loop, `state = step(state, t)` of a helper returning `(m, l), n`): one name per leaf "
            "(`state_0_0`, `state_0_1`, `state_1`), a re-binding unpacked by the nesting (`(state_0_0, state_0_1), "
            "state_1 = ..`), `state[0]` the tuple of its leaves' names; a conditional of tuples bound to the name "
            "(`state = (mid, hi) if c else (lo, mid)`) is the tuple assignment `state_0, state_1 = ..` of it, "
            "then tuple-conditional's one `if`"),
    Rewrite("tuple-fold", "a tuple written out (a module tuple, a tuple name's elements, a helper's `*args`) "
            "indexed or sliced by literals (`BM, BN = TILES[:2]`, `ts[1:]`, `p[-1]`), starred in a tuple or a call "
            "(`(*row, 0)`, `f(*pair, x)`), counted (`len(ts)`), joined (`BASE + (BN,)`, `(pid,) + (0,)`); "
            "`zip(range(3), W)` in ct.static_iter",
            "the elements taken, in place (an element left out is dropped only when it calls nothing); the literal "
            "indices of the range: what Python computes when cuTile Python reads the tuple"),
    Rewrite("tuple-comprehension", "`tuple(e for i in ct.static_iter(X))` in a kernel (X a tuple written out, or "
            "computed from literals, module constants and the kernel's constants: `range(N)`, `zip(..)`; several "
            "`for`s; `if` conditions those values decide, `.. if k % 2 == 0`)", "the tuple of `e` once per item "
            "whose conditions hold, the targets replaced by the items: cuTile Python unrolls the comprehension the "
            "same way (its tuple_comp_if decides each condition while unrolling)"),
    Rewrite("dataclass-tuple", "a frozen dataclass built in device code (`Stats(m, s)`, `Blk(cols=32)`: its generated "
            "`__init__`, no `__post_init__`), its fields read through a local (`st.m`, in the kernel or a helper "
            "given it), `dataclasses.replace(st, s=v)`", "the tuple of its fields in order (`(m, s)`, defaults filled "
            "in, keywords bound by name), `st[0]`, `(st[0], v)`: the values cuda.tile 1.7's aggregate holds, carried "
            "by the tuple rewrites; a field name two dataclasses of the module hold at different places, or a tile's "
            "or array's attribute name, is left as written (refused)"),
    Rewrite("helper-named-product", "a helper ending `out = a * k; return out` (`out` bound there alone and read by "
            "the return alone)", "`return a * k`: the same value, returned as a product a sum in the caller "
            "contracts (helper-product-operand), as cuTile Python contracts it after inlining"),
    Rewrite("generator-context", "`with cm(args) as u: body` in a kernel or helper, `cm` a `@contextlib.contextmanager` "
            "generator of the kernel's module with one `yield` statement at its top level and no `return`",
            "its parameters bound to the arguments, its statements before the `yield`, `u =` the value yielded, the "
            "body, its statements after the `yield` (its own names renamed): the order cuda.tile 1.7 runs a "
            "generator context manager in"),
    Rewrite("dtype-constructor", "a dtype called in a kernel: `ct.float32(1.5)`, `np.int32(k)`, `ct.float16(n)`",
            "a constant argument: the 0-d tile of that dtype, `ct.full((), 1.5, dtype=ct.float32)` (the value "
            "converted as Python converts it, as cuTile Python's dtype constructor makes the constant); any other: "
            "`ct.astype(n, ct.float16)`, the conversion it emits"),
    Rewrite("if-jump-else", "in a loop, `if c: ..; break` (or `continue`) with an `else` arm that does not jump",
            "the `if` without its `else`, then the `else` arm's statements after it: the same paths, and the form "
            "cuTile Python compiles (`if %c { break } else { }` followed by the rest)"),
    Rewrite("helper-call-argument", "a helper's tuple result passed straight to another helper (`out, mu = "
            "_norm(_stats(t), eps)`); a product passed to a parameter the helper adds (`_add(t * 2.0, u)`) or to its "
            "`*args`", "the result bound to a name first (`_stats_result = _stats(t)`, split per element like any "
            "tuple name; `_add_product = t * 2.0`, a product the helper's sum contracts)"),
    Rewrite("helper-tuple-argument", "a helper called from the kernel with a tuple of the kernel's parameters "
            "(`_store_all((y, z), t)`, arrays) or of helpers (`_apply(t, (_double, _inc))`) that it iterates with "
            "ct.static_iter, slices or counts; or with a tuple of other values (`tree(parts, op)` of the kernel's "
            "tiles)",
            "a copy with the tuple in place of the parameter, its loop unrolled over the items (static-iter-items; "
            "a helper's `f(t)` the call of that helper): cuTile Python binds the parameter to the tuple and unrolls "
            "the loop the same way; a tuple of other values is passed as one parameter per element (`tree__parts3("
            "parts_0, parts_1, parts_2)`), the tuple of them in the copy"),
    Rewrite("helper-nested-tuple", "a helper returning a nested tuple (`return (mu, var), d`), each call unpacked "
            "by targets of that nesting (`(mu, var), d = _stats(t)`)", "the flat tuple returned and unpacked "
            "(`mu, var, d = _stats(t)`): the same values bound to the same names"),
    Rewrite("helper-keywords", "a helper taking `**kw` (`def _scaled(t, **opts)`), called with keywords its named "
            "parameters do not take (`_scaled(t, s=3.0)`), reading `opts[\"s\"]`, `opts.get(\"s\", d)`, "
            "`\"s\" in opts` or passing `**opts` on", "a copy per set of such keywords (`_scaled__kw_s`), each a "
            "keyword-only parameter read where the dict was"),
    Rewrite("helper-variadic", "a helper taking `*args` (`def _sum_all(*ts)`), called with positional arguments "
            "(`_sum_all(a, b, c)`, `_fwd(*pair)`)", "a copy per count of extra arguments, `*ts` made that many "
            "parameters and `ts` read as their tuple (then folded: tuple-fold, static-iter-items): cuTile Python "
            "binds `ts` to the tuple of the arguments"),
    Rewrite("ensure-constant", "`ct.ensure_constant(e)` (e.g. `if ct.ensure_constant(FLAG):`)", "`e` (cuTile "
            "Python compiles it only where e is a constant, which the reference compile checked)"),
    Rewrite("astile", "`ct.astile(v, dtype=D)` (a scalar or constant as a tile)", "`ct.astype(v, D)` (a scalar "
            "is a 0-d tile: the same conversion, none when v has that dtype)"),
    Rewrite("arange-start-step", "`ct.arange(n, dtype=D, start=s, step=k)` (cuda.tile 1.7's offsets)",
            "`ct.arange(n, dtype=D) * k + s`, each of k and s converted to D first (`ct.astype`; a literal as it "
            "is), the multiply left out where k is the literal 1 and the add where s is the literal 0: the ops "
            "cuTile Python's arange_impl emits, in its order"),
    Rewrite("static-iter-items", "`for dst in ct.static_iter((q, k, v))` over a tuple holding arrays or other "
            "values no constant spells, `for j, dst in ct.static_iter(enumerate((q, k, v)))`, `for a, s in "
            "ct.static_iter(zip((x, y), (1.0, 2.0)))`, `for idx, sign in ct.static_iter(OFFSETS)` of a tuple of "
            "tuples unpacked into names, `for i, (a, b) in ct.static_iter(enumerate(zip(A, B)))` (nested targets; "
            "`range` of literals in a zip; a conditional expression whose test is then literals only, `x if 0 == 0 "
            "else y`, is the arm taken; an inner loop over the outer item, `for j, w in ct.static_iter(enumerate(row))` "
            "inside `for i, row in ct.static_iter(enumerate(ROWS))`, unrolled in each copy) (the names not re-bound "
            "in the body, no `break`, `continue` or `return`)", "the body once per item, each loop name replaced by its item (an `enumerate` index by "
            "its literal): cuTile Python unrolls the loop the same way, binding the names to the items"),
    Rewrite("divmod", "`q, r = divmod(a, b)` / `ct.divmod(a, b)` unpacked into two names", "`q = a // b` then "
            "`r = a % b` (operands other than names and literals bound once first), as cuTile Python computes it"),
    Rewrite("helper-statement", "a helper of the kernel's file called as a statement, returning nothing (it loads "
            "and stores through the arrays it is given); or one that stores and returns a value at its end, bound "
            "to a name (`tot = _store_and_sum(y, t, pid)`)", "its statements in place of the call, parameters "
            "replaced by the arguments (the name then bound to the returned value)"),
    Rewrite("helper-undecorated", "a module-level function without `@ct.function`, called from a kernel",
            "inlined like a `@ct.function`"),
    Rewrite("helper-arguments", "a helper called with keyword arguments or leaving parameters to their defaults "
            "(`act(x, kind=1)`, `def act(v, kind: int = 0)`), keyword-only and positional-only parameters "
            "(`def act(v, /, *, kind=0)`)", "one positional argument per parameter, the defaults filled in (resolved "
            "in the helper's module)"),
    Rewrite("early-return", "`return` inside `if` arms: a helper returning early (`if KIND == 1: return silu(v)`), "
            "a kernel stopping early (`if pid >= n: return`)", "one `if`/`else` whose arms end by binding the "
            "result (`<helper>_result = ..`), then one final `return`; a kernel's early `return` becomes the `else` "
            "arm holding the rest of its statements"),
    Rewrite("helper-attribute", "a helper reached through an attribute: a `@staticmethod` of a class "
            "(`Acts.silu(v)`), a function of an imported module (`utils.rms(x)`, `import mylib.ops as ops`)",
            "the call of a helper named after the path (`Acts_silu(v)`), inlined like any helper"),
    Rewrite("helper-table", "a call through a module tuple of the user's functions, or a local one (`fns = (_a, "
            "_b)`), at an index known when the kernel compiles (`ACTS = (_ident, _relu, _gelu)`, then `ACTS[ACT](t)`, "
            "ACT a `ct.Constant`, a module constant, a literal, or their arithmetic: `fns[(MODE + 1) % 3]`)", "the call of the function taken, by the module's name for it (`_gelu(t)`), "
            "inlined like any helper: cuTile Python reads the tuple as a constant and calls the function it holds"),
    Rewrite("helper-table-loop", "`for f in ct.static_iter(CHAIN)` over a tuple holding the user's functions (a "
            "module tuple, `CHAIN = (_sq, _neg)`, or one a factory's kernel closes over), `f(t)` in the body",
            "the body once per item with `CHAIN[k]` for `f`, each call then helper-table's call of the function taken "
            "(`_sq(t)`, `_neg(t)`): cuTile Python unrolls the loop over the constant tuple and inlines each function"),
    Rewrite("helper-literal-return", "a helper returning a conditional expression on parameters given literals "
            "(`def _scale(t, k): return t * k if k != 1 else t`, called `_scale(t, 3)`)", "a copy per call with the "
            "literals in place returning the arm taken (`return t * 3`): cuTile Python folds the test after "
            "inlining, so the product is an operand its sums contract (rewrite helper-product-operand)"),
    Rewrite("helper-function-argument", "a helper passed to another as an argument (`apply(t, silu)`, "
            "`def twice(v, f=leaky)`: a module helper or a function defined in the kernel; also a cuda.tile "
            "function or one of Python's operators, `tree(parts, ct.maximum)`, `pair(a, b, operator.add)`), called "
            "through the parameter (`f(v)`)", "a copy of the callee per function passed (`apply__silu(t)`), the "
            "parameter replaced by that function's name (the call through it `ct.maximum(a, b)`, or the operator "
            "`a + b`): the call cuTile Python inlines through the function object"),
    Rewrite("python-operator", "a function of Python's `operator` module called in a kernel (`operator.mul(a, b)`, "
            "`neg(b)` imported from it)", "the operator (`a * b`, `-b`), as Python computes it"),
    Rewrite("helper-product-operand", "a helper returning a product, called as an operand of a sum "
            "(`scale(x) + bias`, `def scale(v): return v * s`): cuTile Python inlines it, then contracts the sum "
            "into an fma", "the call bound to a name first (`scale_value = scale(x)`, then `scale_value + bias`), "
            "the form whose fma the emitter matches (row fma); a helper returning a tuple holding products whose "
            "results are summed (`a, b = pair(t)` then `a + c`, `pair(t)[0] - pair(t)[1]`): the results unpacked "
            "before the statement, a copy of the helper returning each summed product's two factors, the product "
            "made after the call (`a = a_l * a_r`); a chain of helpers each returning the next's call, the last a "
            "product (`def middle(t): if SQUARE: t = t * t; return inner(t)`), as an operand of a sum: copies "
            "returning the factors through the chain, the product made before the statement"),
    Rewrite("inline-slice", "an array view made in the call that uses it (`ct.store(out.slice(axis=1, start=0, "
            "stop=NA), index=(i, 0), tile=t)`, `ct.load(x.slice(0, s, e), ..)`), or an array chosen there by a "
            "conditional expression (`ct.store(y if TO_Y else z, ..)`)", "the view or the choice bound to a name "
            "just before the statement (`out_slice = out.slice(..)`, `y_or_z = y if TO_Y else z`), the forms rows "
            "array-slice and array aliases take (neither reads memory: binding it first changes no order)"),
    Rewrite("loop-return", "a helper returning from inside a `for` loop (`for k in range(n): if c: return k`, then "
            "`return n`: a search), the value returned there a literal or the loop index, the loop touching no "
            "memory (one that does stays inside cuTile Python's one-trip `loop`: refused)", "three names the loop "
            "carries — returned, the value, done — set where it returned, which then `continue`s, each later "
            "iteration skipped by `if done: continue` at its top, and `if returned: return value` after the loop: "
            "the `for` cuTile Python compiles the early return to (its one-trip `loop` choosing the value is irdiff's "
            "single-trip-loop-if); the names sort in cuTile Python's order of the carried values"),
    Rewrite("kernel-loop-return", "a kernel's bare `return` inside a `for` loop (`for j in range(nb): if "
            "ct.max(t) > thr: ct.store(out, ..); return`, code after the loop), also from a loop nested in it",
            "cuTile Python's for_loop_return: one more carried bool, False on entry, each `return` a `break` handing "
            "on True, `if flag: return` after the loop (then folded with what follows it, as row early-return "
            "does); inner loops first. A top-level `while` and a ct.static_iter loop are left as written"),
    Rewrite("function-factory", "a helper that defines a function over its parameters and returns it (`def "
            "make_poly(a, b, c): def poly(x): return (a * x + b) * x + c; return poly`), its result bound once in "
            "the kernel or a helper (`p = make_poly(1.0, 0.5, 0.25)`) and only called (`p(t)`)", "the arguments "
            "bound to names of the result (`p__a = 1.0`, ..) where the factory was called, and the returned "
            "function defined there, reading them (`def p(x): return (p__a * x + p__b) * x + p__c`): a nested "
            "function, inlined where it is called as cuTile Python inlines the closure"),
)


class ResolveError(Exception):
    def __init__(self, node: ast.AST, construct: str, detail: str):
        super().__init__(detail)
        self.node, self.construct, self.detail = node, construct, detail


def _ct() -> Any:
    import cuda.tile as ct

    return ct


def _ct_name(value: Any) -> str | None:
    """The name under which ``value`` is a public attribute of cuda.tile (identity), or None."""
    ct = _ct()
    try:
        for name, v in vars(ct).items():
            if v is value and not name.startswith("_"):
                return name
    except TypeError:
        return None
    return None


REWRITTEN = "_tileport_rewritten"


def unwrap_index(node: ast.Tuple) -> ast.expr:
    """A one-index tuple the index-forms rewrite made of a name (`index=idx` → `(idx,)`) whose name turned out to
    hold a tuple (a helper's parameter given `(pid, 0)`): that tuple, as Python passes it."""
    if getattr(node, "tileport_wrapped", False) and len(node.elts) == 1 and isinstance(node.elts[0], ast.Tuple):
        return node.elts[0]
    return node


def rewritten(node: ast.AST) -> bool:
    """Whether ``node`` or a node under it was written by this pass (its source text is not what it means)."""
    return any(getattr(n, REWRITTEN, False) for n in walk_nodes(node))


def fresh_name(stem: str, taken: set[str], style: str = "k", also: tuple = ()) -> str:
    """The first name not in ``taken`` (nor in any of ``also``) of ``stem`` then, by ``style``, ``stem1, stem2, ..``
    ("k"), ``stem_1, stem_2, ..`` ("_k") or ``stem_, stem__, ..`` ("_"); added to ``taken``. Each rewrite keeps the
    style its generated names always had (the names reach the Rust the translator writes)."""
    name, k = stem, 0
    while name in taken or any(name in s for s in also):
        k += 1
        name = f"{stem}{k}" if style == "k" else f"{stem}_{k}" if style == "_k" else stem + "_" * k
    taken.add(name)
    return name


def _mark(node: ast.AST) -> ast.AST:
    setattr(node, REWRITTEN, True)
    return node


def _attr_chain(path: str, like: ast.AST) -> ast.expr:
    parts = path.split(".")
    node: ast.expr = ast.Name(parts[0], ast.Load())
    for p in parts[1:]:
        node = ast.Attribute(node, p, ast.Load())
    for n in walk_nodes(node):
        ast.copy_location(n, like)
        n.end_lineno, n.end_col_offset = getattr(like, "end_lineno", None), getattr(like, "end_col_offset", None)
        _mark(n)
    return node


def _numbers(value: Any) -> bool:
    """A number, or a non-empty tuple of numbers or of such tuples."""
    if isinstance(value, tuple):
        return bool(value) and all(_numbers(v) for v in value)
    return isinstance(value, (int, float)) and not isinstance(value, enum.Enum)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def static_node(value: Any, like: ast.AST) -> ast.expr | None:
    """The canonical spelling of a compile-time value, or None if it has none (a tile, an array, anything else)."""
    ct = _ct()
    if value is ct:
        return _attr_chain("ct", like)
    if callable(value) and not isinstance(value, type) and _hashable(value) and value in PYTHON_OPERATORS:
        out = _mark(ast.copy_location(ast.Attribute(ast.Name("operator", ast.Load()), value.__name__,
                                                    ast.Load()), like))   # (`operator.add`, `add` imported)
        out.tileport_operator = PYTHON_OPERATORS[value]
        return out
    if is_numpy_scalar(value):
        return _numpy_scalar_node(value, like)
    if isinstance(value, bool) or (isinstance(value, (int, float)) and not isinstance(value, enum.Enum)):
        return _mark(ast.copy_location(ast.Constant(value), like))
    if isinstance(value, (enum.IntEnum, enum.IntFlag)) and not type(value).__module__.startswith("cuda.tile"):
        return _mark(ast.copy_location(ast.Constant(int(value)), like))   # `Act.RELU` of the module's IntEnum
    if isinstance(value, str):   # a module's string constant (`NORM = "rms"`), compared in constant `if`s
        return _mark(ast.copy_location(ast.Constant(value), like))
    if isinstance(value, enum.Enum) and not isinstance(value, (int, float, str)) and \
            not type(value).__module__.startswith("cuda.tile"):
        # a member of the user's plain Enum (`MODE = Mode.FAST`, `class Mode(enum.Enum): FAST = "fast"`), compared
        # in constant `if`s (`if MODE == Mode.FAST`, as cuTile Python folds it): a string naming the member, equal
        # only to itself (a member equals no str or int, whatever its value)
        return _mark(ast.copy_location(ast.Constant(
            f"<enum {type(value).__module__}.{type(value).__qualname__}.{value.name}>"), like))
    if isinstance(value, tuple) and value and all(_numbers(v) for v in value):   # (nested: `((2, 1), (4, 2))`,
        elts = [static_node(v, like) for v in value]                         # a sorting network's stages)
        return _mark(ast.copy_location(ast.Tuple(elts, ast.Load()), like))
    if isinstance(value, tuple) and value and not isinstance(value, enum.Enum):   # a tuple of other values that
        elts = [static_node(v, like) for v in value]   # spell themselves (`DTYPES = (ct.float16, ct.bfloat16)`)
        if all(e is not None for e in elts):
            return _mark(ast.copy_location(ast.Tuple(elts, ast.Load()), like))
    if isinstance(value, enum.Enum) and type(value).__module__.startswith("cuda.tile"):
        cls = _ct_name(type(value))
        if cls is not None:
            return _attr_chain(f"ct.{cls}.{value.name}", like)
    if isinstance(value, ct.DType):
        name = _ct_name(value)
        if name is not None:
            return _attr_chain(f"ct.{name}", like)
    mod = type(value).__module__
    if mod.startswith("torch") or mod.startswith("numpy"):   # torch.int32, np.float32 (a type or a dtype)
        text = str(getattr(value, "__name__", value)).removeprefix("torch.").removeprefix("<class 'numpy.")
        text = text.removesuffix("'>")
        if text in FOREIGN_DTYPES:
            return _attr_chain(f"ct.{FOREIGN_DTYPES[text]}", like)
    if isinstance(value, type) and value.__module__ == "numpy" and value.__name__ in FOREIGN_DTYPES:
        return _attr_chain(f"ct.{FOREIGN_DTYPES[value.__name__]}", like)
    if callable(value) and getattr(value, "__module__", "").startswith("cuda.tile"):
        name = _ct_name(value)
        if name is not None:
            return _attr_chain(f"ct.{name}", like)
    return None


def _numpy_scalar_node(value: Any, like: ast.AST) -> ast.expr | None:
    """A numpy scalar (a module's `HALF = np.float32(0.5)`, `LOG2E = np.log2(np.e)`, a factory's
    `make(np.float32(s))`): cuTile Python types it as a constant of its own dtype — a 0-d tile of that dtype, where
    a Python float is weakly typed (`t * HALF` of an f16 tile is f32; `np.float64` is f64 even though it is a
    Python float too) — spelled as that 0-d tile, ``ct.full((), 0.5, dtype=ct.float32)`` (the same Tile IR); a
    numpy bool is a bool."""
    item = value.item()
    if isinstance(item, bool):
        return _mark(ast.copy_location(ast.Constant(item), like))
    name = FOREIGN_DTYPES.get(str(value.dtype))
    if name is None or not isinstance(item, (int, float)) or item != item or item in (float("inf"), float("-inf")):
        return None   # (a complex, a datetime; NaN and infinities have no literal spelling here)
    return _typed_constant(item, name, like)


def _typed_constant(value: int | float, dtype: str, like: ast.AST) -> ast.Call:
    """``ct.full((), value, dtype=ct.<dtype>)`` at ``like``'s position: the 0-d tile a numpy scalar or a dtype
    constructor's constant is in cuTile Python (the same Tile IR)."""
    value_node = ast.Constant(value)
    value_node.tileport_exact = True   # (an f64 constant of all its digits: not a Python float's f32 constant)
    call = ast.Call(_attr_chain("ct.full", like), [ast.Tuple([], ast.Load()), value_node],
                    [ast.keyword("dtype", _attr_chain(f"ct.{dtype}", like))])
    for n in walk_nodes(call):
        ast.copy_location(n, like)
        _mark(n)
    return call


#: cuda.tile's dtypes that construct a value when called (numeric and byte-wide: `ct.float32(x)`), by the Python type
#: a constant argument is converted with
DTYPE_CONSTRUCTORS = {**dict.fromkeys(("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"), int),
                      **dict.fromkeys(("float16", "bfloat16", "float32", "float64"), float)}


def _dtype_constructor(node: ast.Call) -> ast.expr:
    """``ct.float32(1.5)`` / ``np.int32(k)`` called in a kernel (rewrite dtype-constructor): cuTile Python's dtype
    constructor makes a constant argument a constant of that dtype (the number converted as Python converts it,
    `ct.int32(3.9)` is 3), spelled as the 0-d tile a numpy scalar is (``ct.full((), 1.5, dtype=ct.float32)``, the
    same Tile IR); any other argument, a scalar, is converted (``ct.astype(n, ct.float32)``)."""
    dtype, arg = node.func.attr, node.args[0]
    negative = isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub)
    literal = arg.operand if negative else arg
    if isinstance(literal, ast.Constant) and type(literal.value) in (int, float, bool):
        value = DTYPE_CONSTRUCTORS[dtype](-literal.value if negative else literal.value)
        if value == value and value not in (float("inf"), float("-inf")):
            return _typed_constant(value, dtype, node)
    out = ast.Call(_attr_chain("ct.astype", node.func), [arg, _attr_chain(f"ct.{dtype}", node.func)], [])
    return _mark(ast.copy_location(out, node))


def _locals(fn: ast.FunctionDef) -> set[str]:
    """Names bound inside ``fn`` (parameters, assignments, loop targets, imports): never module globals."""
    names = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    names |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a}
    for node in walk_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _static_value(node: ast.AST, env: dict[str, Any]) -> tuple[bool, Any]:
    """(True, value) when ``node`` is a name or attribute chain naming a global value in ``env``."""
    if isinstance(node, ast.Name):
        if node.id in env:
            return True, env[node.id]
        if hasattr(builtins, node.id):
            return True, getattr(builtins, node.id)
        return False, None
    if isinstance(node, ast.Attribute):
        ok, base = _static_value(node.value, env)
        if ok and hasattr(base, node.attr):
            try:
                return True, getattr(base, node.attr)
            except Exception:  # a property that raises: not a static value
                return False, None
    return False, None


class _Resolver(ast.NodeTransformer):
    """Module names → canonical spellings; methods, keywords, builtins and augmented assignments desugared."""

    def __init__(self, env: dict[str, Any], local: set[str], helpers: dict[str, Any]):
        self.env, self.local, self.helpers = env, local, helpers
        self.aliases: dict[str, ast.expr] = {}   # local name → the static value it was assigned once
        self.tuple_names: set[str] = set()   # local names assigned a tuple (an index held in a name)

    # -- names
    def visit_Name(self, node: ast.Name) -> ast.AST:
        if not isinstance(node.ctx, ast.Load):
            return node
        if node.id in self.aliases:
            return copy.deepcopy(self.aliases[node.id])
        if node.id in self.local or node.id == "ct":
            return node
        ok, value = _static_value(node, self.env)
        if not ok or node.id in self.helpers:
            return node
        return static_node(value, node) or node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id not in self.local and root.id not in self.aliases \
                and isinstance(node.ctx, ast.Load):
            ok, value = _static_value(node, self.env)
            if ok:
                repl = static_node(value, node)
                if repl is not None:
                    return repl
        self.generic_visit(node)
        return node

    # -- subscripts
    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        """``t[:, None]``, ``t[None, :]``, ``t[..., None]``: full slices, one ellipsis and new axes only — one
        ``expand_dims`` at the new axes, as cuTile Python's tile_expand_dims makes one reshape of them all (an axis
        after the ellipsis counted from the end); a single new axis without an ellipsis at its plain index. A tuple
        written out and indexed or sliced by literals (`TILES[:2]` of a module tuple, `(a, b, c)[1:]`): the part
        taken (rewrite tuple-fold)."""
        node = self.generic_visit(node)
        if (folded := fold_tuple_subscript(node)) is not None:
            return folded
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        full = [isinstance(e, ast.Slice) and e.lower is None and e.upper is None and e.step is None for e in elts]
        new = [isinstance(e, ast.Constant) and e.value is None for e in elts]
        dots = [isinstance(e, ast.Constant) and e.value is Ellipsis for e in elts]
        if not isinstance(node.ctx, ast.Load) or not any(new) or sum(dots) > 1 or \
                not all(f or n or d for f, n, d in zip(full, new, dots)):
            return node
        after = dots.index(True) if any(dots) else len(elts)
        axes = [i - len(elts) if i > after else i for i, is_new in enumerate(new) if is_new]
        axis: ast.expr = ast.Constant(axes[0]) if len(axes) == 1 and not any(dots) else \
            ast.Tuple([ast.Constant(a) for a in axes], ast.Load())
        call = ast.Call(_attr_chain("ct.expand_dims", node), [node.value], [ast.keyword("axis", axis)])
        out = _mark(ast.copy_location(call, node))
        ast.fix_missing_locations(out)
        return out

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.UAdd) and not isinstance(node.operand, ast.Constant):
            return _mark(node.operand)   # `+t`: the operand (cuTile Python emits no op for it; rewrite unary-plus)
        return node

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        node = self.generic_visit(node)
        node.elts = splice_starred(node.elts)
        return node

    # -- statements
    def visit_Assign(self, node: ast.Assign) -> ast.AST | list[ast.AST]:
        """``a, b = e1, e2`` (names from a tuple of the same length, no name read by a later element): one
        assignment per name, in order, as Python evaluates them."""
        node = self.generic_visit(node)
        if len(node.targets) > 1 and all(isinstance(t, ast.Name) for t in node.targets):
            first = node.targets[0]   # `lo = hi = 0`: the value bound to the first name, each other name to it
            out = [_mark(ast.copy_location(ast.Assign([first], node.value), node))]
            for t in node.targets[1:]:
                out.append(_mark(ast.copy_location(ast.Assign([t], ast.copy_location(
                    ast.Name(first.id, ast.Load()), first)), node)))
            for a in out:
                ast.fix_missing_locations(a)
            return out
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and \
                isinstance(node.value, ast.Attribute) and node.value.attr in ("shape", "strides") and \
                isinstance(node.value.value, ast.Name) and all(isinstance(t, ast.Name) for t in node.targets[0].elts):
            # `M, N = x.shape`: one subscript per name (`M = x.shape[0]`), as Python unpacks the tuple
            out = []
            for k, t in enumerate(node.targets[0].elts):
                sub = ast.copy_location(ast.Subscript(copy.deepcopy(node.value), ast.Constant(k), ast.Load()),
                                        node.value)
                a = _mark(ast.copy_location(ast.Assign([t], sub), t))
                a.end_lineno, a.end_col_offset = node.value.end_lineno, node.value.end_col_offset
                ast.fix_missing_locations(a)
                out.append(a)
            return out
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and \
                isinstance(node.value, ast.Subscript) and isinstance(node.value.slice, ast.Slice) and \
                isinstance(node.value.value, ast.Attribute) and node.value.value.attr in ("shape", "strides") and \
                isinstance(node.value.value.value, ast.Name) and \
                all(isinstance(t, ast.Name) for t in node.targets[0].elts) and \
                all(b is None or (isinstance(b, ast.Constant) and type(b.value) is int) or
                    (isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub) and isinstance(b.operand, ast.Constant)
                     and type(b.operand.value) is int)
                    for b in (node.value.slice.lower, node.value.slice.upper)) and \
                node.value.slice.step is None:
            # `M, N = x.shape[-2:]`, `B, T = x.shape[:2]`: one subscript per name from the slice's start (Python's
            # unpacking takes exactly as many items as names, which cuTile Python checked)
            lower = node.value.slice.lower
            start = 0 if lower is None else ast.literal_eval(lower)
            out = []
            for k, t in enumerate(node.targets[0].elts):
                sub = ast.copy_location(ast.Subscript(copy.deepcopy(node.value.value), ast.Constant(start + k),
                                                      ast.Load()), node.value)
                a = _mark(ast.copy_location(ast.Assign([t], sub), t))
                a.end_lineno, a.end_col_offset = node.value.end_lineno, node.value.end_col_offset
                ast.fix_missing_locations(a)
                out.append(a)
            return out
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and len(node.targets[0].elts) == 2 \
                and all(isinstance(t, ast.Name) for t in node.targets[0].elts) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "divmod" and \
                _is_ct(node.value.func.value) and len(node.value.args) == 2 and not node.value.keywords:
            return self.divmod(node)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and isinstance(node.value, ast.IfExp) \
                and isinstance(node.value.body, ast.Tuple) and isinstance(node.value.orelse, (ast.Tuple, ast.IfExp)):
            return self.tuple_ifexp(node)
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Tuple) or \
                not isinstance(node.value, ast.Tuple) or len(node.targets[0].elts) != len(node.value.elts) or \
                not all(isinstance(t, (ast.Name, ast.Tuple)) for t in node.targets[0].elts):
            return node
        names = [{n.id for n in walk_nodes(t) if isinstance(n, ast.Name)} for t in node.targets[0].elts]
        late = [i for i, e in enumerate(node.value.elts)
                if {n.id for n in walk_nodes(e) if isinstance(n, ast.Name)} & set().union(*names[:i])]
        out = []
        if late:   # `a, b = b, a + b`: a later element reads an earlier target; Python evaluates the whole right
            # side first, so each such element is bound to a name of its own before any target is
            if not all(isinstance(t, ast.Name) for t in node.targets[0].elts):
                return node
            taken = {n.id for n in walk_nodes(node) if isinstance(n, ast.Name)}
            elts = list(node.value.elts)
            for i in late:
                tmp = fresh_name(f"{node.targets[0].elts[i].id}_next", taken, also=(self.local, self.env))
                self.local.add(tmp)
                a = _mark(ast.copy_location(ast.Assign([ast.copy_location(ast.Name(tmp, ast.Store()), elts[i])],
                                                       elts[i]), elts[i]))
                ast.fix_missing_locations(a)
                out.append(a)
                elts[i] = ast.copy_location(ast.Name(tmp, ast.Load()), elts[i])
            node.value.elts = elts
        for t, e in zip(node.targets[0].elts, node.value.elts):
            a = _mark(ast.Assign([t], e))
            ast.copy_location(a, t)
            a.end_lineno, a.end_col_offset = e.end_lineno, e.end_col_offset
            if isinstance(t, ast.Tuple):   # `(b, h), k = divmod(pid, NH), 0`: the inner tuple as its own statement
                inner = self.visit_Assign(a)
                out.extend(inner if isinstance(inner, list) else [inner])
            else:
                out.append(a)
        return out

    def tuple_ifexp(self, node: ast.Assign) -> ast.If:
        """``lo, hi = (mid, hi) if c else (lo, mid)``: ``if c: lo, hi = mid, hi`` / ``else: lo, hi = lo, mid``, each
        arm's tuple assignment rewritten in turn (an `else` that is another such conditional too): cuTile Python
        compiles the conditional of tuples to that one `if` yielding every name."""
        def arm(value: ast.expr) -> list[ast.stmt]:
            a = _mark(ast.copy_location(ast.Assign([copy.deepcopy(node.targets[0])], value), node))
            a.end_lineno, a.end_col_offset = node.end_lineno, node.end_col_offset
            out = self.visit_Assign(a)
            return out if isinstance(out, list) else [out]
        cond = node.value
        out = _mark(ast.copy_location(ast.If(cond.test, arm(cond.body), arm(cond.orelse)), node))
        ast.fix_missing_locations(out)
        return out

    def divmod(self, node: ast.Assign) -> list[ast.AST]:
        """``q, r = divmod(a, b)`` / ``ct.divmod(a, b)``: ``q = a // b`` then ``r = a % b``, as cuTile Python
        computes it (its divmod is the floor division, then the remainder); an operand that is not a name or a
        literal, or that a target re-binds, is bound to a name of its own first, so it is evaluated once."""
        call, (q, r) = node.value, node.targets[0].elts
        out, operands = [], []
        for k, e in enumerate(call.args):
            if isinstance(e, ast.Constant) or (isinstance(e, ast.Name) and e.id not in (q.id, r.id)):
                operands.append(e)
                continue
            tmp = f"{q.id}_{r.id}_divmod_{'ab'[k]}"
            a = _mark(ast.copy_location(ast.Assign([ast.Name(tmp, ast.Store())], e), e))
            ast.fix_missing_locations(a)
            out.append(a)
            operands.append(ast.copy_location(ast.Name(tmp, ast.Load()), e))
        for t, op in ((q, ast.FloorDiv()), (r, ast.Mod())):
            value = _mark(ast.copy_location(ast.BinOp(copy.deepcopy(operands[0]), op, copy.deepcopy(operands[1])),
                                            call))
            a = _mark(ast.copy_location(ast.Assign([t], value), node))
            ast.fix_missing_locations(a)
            out.append(a)
        return out

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if node.value is None:   # a declaration only (`x: int`): nothing to compute
            return None
        out = _mark(ast.copy_location(ast.Assign([node.target], node.value), node))
        out.end_lineno, out.end_col_offset = node.end_lineno, node.end_col_offset
        return self.visit_Assign(out)

    def visit_Return(self, node: ast.Return) -> ast.AST:
        node = self.generic_visit(node)
        if isinstance(node.value, ast.Constant) and node.value.value is None:   # `return None` is `return`
            node.value = None
            _mark(node)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        node = self.generic_visit(node)
        load = copy.deepcopy(node.target)
        for n in walk_nodes(load):
            if hasattr(n, "ctx"):
                n.ctx = ast.Load()
        value = _mark(ast.BinOp(load, node.op, node.value))
        ast.copy_location(value, node)
        value.end_lineno, value.end_col_offset = node.end_lineno, node.end_col_offset
        if isinstance(node.op, (ast.Pow, ast.MatMult)):   # `t **= 2`, `a @= b`: the call `t ** 2` / `a @ b` is
            call = _mark(ast.Call(_attr_chain("ct.pow" if isinstance(node.op, ast.Pow) else "ct.matmul", value),
                                  [load, node.value], []))
            ast.copy_location(call, value)
            call.end_lineno, call.end_col_offset = value.end_lineno, value.end_col_offset
            value = call
        out = _mark(ast.Assign([node.target], value))
        return ast.copy_location(out, node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        node = self.generic_visit(node)
        if (joined := fold_tuple_arithmetic(node)) is not None:
            return joined
        if isinstance(node.op, ast.Pow):   # `x ** y` is ct.pow(x, y), as cuTile Python lowers it
            return _mark(ast.copy_location(ast.Call(_attr_chain("ct.pow", node), [node.left, node.right], []), node))
        if isinstance(node.op, ast.MatMult):   # `a @ b` is ct.matmul(a, b) (Tile.__matmul__)
            return _mark(ast.copy_location(ast.Call(_attr_chain("ct.matmul", node), [node.left, node.right], []),
                                           node))
        return node

    # -- calls
    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)
        node.args = splice_starred(node.args)   # `f(*pair, x)` of a tuple written out: its elements in place
        f = node.func
        if getattr(f, "tileport_operator", None) is not None and not node.keywords and \
                (out := operator_call(f.tileport_operator, node.args, node)) is not None:
            return out   # `operator.mul(a, b)`: `a * b` (rewrite python-operator)
        if isinstance(f, ast.Attribute) and f.attr in TILE_METHODS and not _is_ct(f.value):
            func = _attr_chain(f"ct.{f.attr}", f)
            node = _mark(ast.copy_location(ast.Call(func, [f.value, *node.args], node.keywords), node))
        elif isinstance(f, ast.Name) and f.id in BUILTIN_CALLS and f.id not in self.local \
                and f.id not in self.env and not node.keywords:
            node = _mark(ast.copy_location(ast.Call(_attr_chain(f"ct.{BUILTIN_CALLS[f.id]}", f), node.args, []), node))
        elif isinstance(f, ast.Name) and f.id not in self.local and not node.keywords and \
                (builtin := _builtin_named(self.env.get(f.id))) is not None:
            # `act(t)` of a factory's `act` that is the builtin `abs` (`make(abs, ..)`): the builtin's call
            node = _mark(ast.copy_location(ast.Call(_attr_chain(f"ct.{BUILTIN_CALLS[builtin]}", f), node.args, []),
                                           node))
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value) and \
                node.func.attr in UNARY_OPERATOR_FUNCTIONS and len(node.args) == 1 and not node.keywords:
            out = ast.UnaryOp(UNARY_OPERATOR_FUNCTIONS[node.func.attr](), node.args[0])
            return _mark(ast.copy_location(out, node))
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value) and \
                node.func.attr in OPERATOR_FUNCTIONS and len(node.args) == 2 and not node.keywords:
            op = OPERATOR_FUNCTIONS[node.func.attr]()
            a, b = node.args
            out = ast.Compare(a, [op], [b]) if isinstance(op, ast.cmpop) else ast.BinOp(a, op, b)
            return _mark(ast.copy_location(out, node))
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value):
            node = canonical_call(node)
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value) and node.func.attr in ("reduce", "scan"):
            self.combine_as_lambda(node)
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value) and node.func.attr in ("load", "store"):
            for k in node.keywords:   # `ct.load(x, pid, (B,))`: one index for a rank-1 array, as a 1-tuple
                if k.arg == "index" and not isinstance(k.value, (ast.Tuple, ast.List)) and \
                        not (isinstance(k.value, ast.Name) and k.value.id in self.tuple_names):
                    k.value = _mark(ast.copy_location(ast.Tuple([k.value], ast.Load()), k.value))
                    k.value.tileport_wrapped = True   # (a helper's parameter may hold a tuple: see unwrap_index)
                    ast.fix_missing_locations(k.value)
                elif k.arg in ("index", "shape") and isinstance(k.value, ast.List):   # a list is a tuple there
                    k.value = _mark(ast.copy_location(ast.Tuple(k.value.elts, ast.Load()), k.value))
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value) and node.func.attr in DTYPE_CONSTRUCTORS \
                and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred):
            return _dtype_constructor(node)   # `ct.float32(1.5)` / `np.float32(v)` in a kernel (dtype-constructor)
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value) and node.func.attr == "ensure_constant" \
                and len(node.args) == 1 and not node.keywords:
            # cuTile Python checks at compile time that the argument is a constant (analyze compiled it): its value
            return node.args[0]
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value) and node.func.attr == "arange" and \
                {k.arg for k in node.keywords} & {"start", "step"} and len(node.args) == 1:
            return _arange_offsets(node)
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value) and node.func.attr == "astile" and \
                node.args and isinstance(node.args[0], (ast.Tuple, ast.List)):
            raise ResolveError(node, "astype", f"`{ast.unparse(node)}`: a tile of several values written out is "
                               "cuTile Python's dense constant (`constant <f32: [[1.0, 2.0], ..]>`); cutile 0.3.1's "
                               "`constant(value, shape)` takes one value")
        if isinstance(node.func, ast.Attribute) and _is_ct(node.func.value) and node.func.attr == "astile" and \
                len(node.args) == 1 and [k.arg for k in node.keywords] == ["dtype"]:
            # a scalar is a 0-d tile in cuTile Python: astile is the conversion to that dtype
            out = ast.Call(_attr_chain("ct.astype", node.func), [node.args[0], node.keywords[0].value], [])
            return _mark(ast.copy_location(out, node))
        return node

    def combine_as_lambda(self, node: ast.Call) -> None:
        """``ct.reduce(t, 1, add, 0.0)`` / ``ct.scan(..)`` whose combine is a function of the user's by name (the
        module's, a closure's or one defined in the kernel) whose body computes one expression (names each assigned
        once, then a `return`): that expression as the lambda's, its names resolved where the function is defined
        (rewrite combine-function). cuTile Python inlines the function's body as the reduction's body, as it does a
        lambda's."""
        slot = next((k for k in node.keywords if k.arg == "func"), None)
        func = node.args[2] if len(node.args) > 2 else slot.value if slot is not None else None
        if not isinstance(func, ast.Name):
            return
        nested = self.helpers.get(func.id)
        if isinstance(nested, ast.FunctionDef):   # defined in the kernel: its locals are the kernel's
            fdef, env, local = nested, self.env, set(self.local)
        else:
            ok, value = (False, None) if func.id in self.local else _static_value(func, self.env)
            found = _user_def(value) if ok and callable(value) else None
            if found is None:
                return
            fdef, py = found[0], inspect.unwrap(value)
            try:
                env = {**py.__globals__, **inspect.getclosurevars(py).nonlocals}
            except (TypeError, ValueError):
                return
            local = set()
        body = [st for st in fdef.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)
                                                and isinstance(st.value.value, str))]
        a = fdef.args
        if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None or len(a.args) != 2 or \
                a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults:
            return
        value = _single_expression(body)
        if value is None:
            return
        lam = ast.Lambda(copy.deepcopy(a), value)
        for n in ast.walk(lam):   # (an error in it points at the call's argument)
            ast.copy_location(n, func)
        lam = _mark(_Resolver(env, local | {p.arg for p in a.args}, {}).visit(lam))
        if len(node.args) > 2:
            node.args[2] = lam
        else:
            slot.value = lam


def _single_expression(body: list[ast.stmt]) -> ast.expr | None:
    """The value a function body of names each assigned once, then a `return`, computes as one expression (`m =
    ct.maximum(a, b)` then `return m`: `ct.maximum(a, b)`), each name read in place of its value; None for any other
    body (a loop, an `if`, a name assigned twice or into a tuple)."""
    values: dict[str, ast.expr] = {}

    class Substitute(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return copy.deepcopy(values[node.id]) if node.id in values else node

    for st in body[:-1]:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)) or \
                st.targets[0].id in values:
            return None
        values[st.targets[0].id] = Substitute().visit(copy.deepcopy(st.value))
    return Substitute().visit(copy.deepcopy(body[-1].value))


def _effect_free(e: ast.AST) -> bool:
    """Nothing in ``e`` is a call (dropping it drops no load, no atomic, no helper's work)."""
    return not any(isinstance(n, ast.Call) for n in walk_nodes(e))


def fold_tuple_subscript(node: ast.Subscript) -> ast.expr | None:
    """``(a, b, c)[1]`` / ``(a, b, c)[1:]`` / ``[::-1]`` (a tuple written out — a module tuple, a tuple name's
    elements — indexed or sliced by literals): the element or the tuple of the elements taken, as Python computes
    it (rewrite tuple-fold); None when the index is not a literal or an element left out has a call in it (it would
    still run in cuTile Python)."""
    if not isinstance(node.value, ast.Tuple) or not isinstance(node.ctx, ast.Load) or \
            any(isinstance(e, ast.Starred) for e in node.value.elts):
        return None
    elts = node.value.elts
    try:
        if isinstance(node.slice, ast.Slice):
            bounds = [None if b is None else ast.literal_eval(b)
                      for b in (node.slice.lower, node.slice.upper, node.slice.step)]
            if not all(b is None or (type(b) is int) for b in bounds) or bounds[2] == 0:
                return None
            picked = list(range(len(elts)))[slice(*bounds)]
        else:
            k = ast.literal_eval(node.slice)
            if type(k) is not int or not -len(elts) <= k < len(elts):
                return None
            picked = [k % len(elts)]
    except ValueError:
        return None
    if not all(_effect_free(e) for i, e in enumerate(elts) if i not in picked):
        return None
    if not isinstance(node.slice, ast.Slice):
        return elts[picked[0]]
    return _mark(ast.copy_location(ast.Tuple([elts[i] for i in picked], ast.Load()), node))


def _tuple_arithmetic(e: ast.AST) -> bool:
    """``e`` joins a tuple written out (`BASE + (BN,)`), before module names are resolved."""
    return isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add) and \
        any(isinstance(x, ast.Tuple) or _tuple_arithmetic(x) for x in (e.left, e.right))


def fold_tuple_arithmetic(node: ast.BinOp) -> ast.expr | None:
    """``(pid,) + (0,)`` / ``BASE + (BN,)`` of tuples written out: the tuple Python makes (rewrite tuple-fold); None
    otherwise."""
    a, b = node.left, node.right
    if not (isinstance(node.op, ast.Add) and isinstance(a, ast.Tuple) and isinstance(b, ast.Tuple)):
        return None   # (cuda.tile 1.7 rejects a tuple repeated, `(0,) * 2`)
    return _mark(ast.copy_location(ast.Tuple([*a.elts, *b.elts], ast.Load()), node))


def splice_starred(elts: list[ast.expr]) -> list[ast.expr]:
    """``(*row, t)`` / ``f(*pair, x)`` where the starred value is a tuple written out: its elements in place."""
    out: list[ast.expr] = []
    for e in elts:
        if isinstance(e, ast.Starred) and isinstance(e.value, ast.Tuple):
            out.extend(splice_starred(e.value.elts))
        else:
            out.append(e)
    return out


class _FoldTuples(ast.NodeTransformer):
    """tuple-fold and starred splicing on a function made after resolving (a variadic helper's copy)."""

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        node = self.generic_visit(node)
        return fold_tuple_subscript(node) or node

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        node = self.generic_visit(node)
        node.elts = splice_starred(node.elts)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        node = self.generic_visit(node)
        return fold_tuple_arithmetic(node) or node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)
        node.args = splice_starred(node.args)
        if isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1 and \
                isinstance(node.args[0], ast.Tuple) and not node.keywords and \
                not any(isinstance(e, ast.Starred) for e in node.args[0].elts):
            return _mark(ast.copy_location(ast.Constant(len(node.args[0].elts)), node))
        return node


def _add_copy(helpers: dict[str, "ResolvedHelper"], spec: ast.FunctionDef, of: "ResolvedHelper",
              unroll: bool = False) -> ast.FunctionDef:
    """Registers ``spec``, a specialized copy of the helper ``of`` already named, under its name: (``unroll``: its
    loops over tuples written out unrolled first), locations filled, its parameter record dropped (the copy's
    parameters are its own). Returns it."""
    if unroll:
        spec.body = _unroll_static_tuples(spec.body)
    ast.fix_missing_locations(spec)
    if hasattr(spec, "tileport_parameters"):
        del spec.tileport_parameters
    helpers[spec.name] = ResolvedHelper(spec, of.file, of.src)
    return spec


def _helper_calls(work: list[ast.FunctionDef], helpers: dict[str, "ResolvedHelper"]
                  ) -> Iterator[tuple[ast.Call, "ResolvedHelper"]]:
    """Every call of a helper (by name) in the functions of ``work``, and in those the caller appends to ``work``
    meanwhile (a specialized copy, whose own calls are specialized too)."""
    while work:
        for node in list(walk_nodes(work.pop())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
                yield node, helpers[node.func.id]


def _specialize_variadic(fn: ast.FunctionDef, helpers: dict[str, "ResolvedHelper"]) -> None:
    """A helper taking ``*args`` (no ``**kw``), called with positional arguments (`_sum_all(a, b, c)`, `f(*pair)` of
    a tuple written out): a copy per count of extra arguments, `*ts` made that many parameters (`ts_0`, `ts_1`, ..)
    and `ts` read as their tuple — then indexed, sliced, unpacked or iterated by ct.static_iter as any tuple written
    out (rewrite helper-variadic): cuTile Python binds `ts` to the tuple of the arguments and inlines the call."""
    work = [fn, *(h.fn for h in helpers.values())]
    for node, callee in _helper_calls(work, helpers):
        a = callee.fn.args
        fixed = len(a.posonlyargs) + len(a.args)
        if a.vararg is None or any(isinstance(x, ast.Starred) for x in node.args) or \
                len(node.args) < fixed or any(k.arg is None for k in node.keywords):
            # (a helper taking `**kw` too, `def _fwd(*args, **kw)`: its copy keeps `**kw`, specialized by
            # helper-keywords next)
            continue
        extra = len(node.args) - fixed
        name = f"{node.func.id}__{extra}"
        if name not in helpers:
            spec = copy.deepcopy(callee.fn)
            spec.name = name
            star = spec.args.vararg.arg
            taken = {n.id for n in walk_nodes(spec) if isinstance(n, ast.Name)}
            names = [fresh_name(f"{star}_{i}", taken, "_") for i in range(extra)]
            spec.args.args = [*spec.args.args, *(ast.copy_location(ast.arg(v), spec.args.vararg) for v in names)]
            spec.args.vararg = None
            for n in list(walk_nodes(spec)):
                for field, value in ast.iter_fields(n):
                    items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
                    for k, child in items:
                        if isinstance(child, ast.Name) and child.id == star and isinstance(child.ctx, ast.Load):
                            new = _mark(ast.copy_location(ast.Tuple(
                                [ast.copy_location(ast.Name(v, ast.Load()), child) for v in names],
                                ast.Load()), child))
                            (value.__setitem__(k, new) if k is not None else setattr(n, field, new))
            work.append(_add_copy(helpers, _FoldTuples().visit(spec), callee, unroll=True))
        node.func.id = name
        _mark(node)


def _specialize_keywords(fn: ast.FunctionDef, helpers: dict[str, "ResolvedHelper"]) -> None:
    """A helper taking ``**kw`` (no ``*args``), called with keywords its named parameters do not take
    (`_scaled(t, s=3.0)` of `def _scaled(t, **opts)`): a copy per set of such keywords, each a keyword-only
    parameter of its own, and `opts["s"]` / `opts.get("s", d)` / `"s" in opts` / `g(.., **opts)` read through them
    (rewrite helper-keywords): cuTile Python binds `opts` to the dict of those keywords and inlines the call. Any
    other use of the dict is left as written (the emitter refuses it)."""
    work = [fn, *(h.fn for h in helpers.values())]
    for node, callee in _helper_calls(work, helpers):
        a = callee.fn.args
        named = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
        if a.kwarg is None or a.vararg is not None or any(k.arg is None for k in node.keywords):
            continue
        extra = sorted(k.arg for k in node.keywords if k.arg not in named)
        star = a.kwarg.arg
        taken = {n.id for n in walk_nodes(callee.fn) if isinstance(n, ast.Name)} | named
        if any(e in taken for e in extra):
            continue
        name = f"{node.func.id}__kw" + "".join(f"_{e}" for e in extra)
        if name not in helpers:
            spec = copy.deepcopy(callee.fn)
            spec.name = name
            spec.args.kwonlyargs = [*spec.args.kwonlyargs, *(ast.copy_location(ast.arg(e), a.kwarg)
                                                             for e in extra)]
            spec.args.kw_defaults = [*spec.args.kw_defaults, *([None] * len(extra))]
            spec.args.kwarg = None

            def key(e: ast.AST) -> str | None:
                return e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None

            class Read(ast.NodeTransformer):
                def visit_Subscript(self, n: ast.Subscript) -> ast.AST:
                    self.generic_visit(n)
                    if isinstance(n.value, ast.Name) and n.value.id == star and key(n.slice) in extra:
                        return _mark(ast.copy_location(ast.Name(key(n.slice), ast.Load()), n))
                    return n

                def visit_Compare(self, n: ast.Compare) -> ast.AST:
                    self.generic_visit(n)
                    if len(n.ops) == 1 and isinstance(n.ops[0], (ast.In, ast.NotIn)) and \
                            isinstance(n.comparators[0], ast.Name) and n.comparators[0].id == star and \
                            key(n.left) is not None:
                        hit = (key(n.left) in extra) == isinstance(n.ops[0], ast.In)
                        return _mark(ast.copy_location(ast.Constant(hit), n))
                    return n

                def visit_Call(self, n: ast.Call) -> ast.AST:
                    self.generic_visit(n)
                    if isinstance(n.func, ast.Attribute) and n.func.attr == "get" and \
                            isinstance(n.func.value, ast.Name) and n.func.value.id == star and n.args and \
                            key(n.args[0]) is not None and len(n.args) <= 2 and not n.keywords:
                        if key(n.args[0]) in extra:
                            return _mark(ast.copy_location(ast.Name(key(n.args[0]), ast.Load()), n))
                        return n.args[1] if len(n.args) == 2 else _mark(ast.copy_location(ast.Constant(None), n))
                    spread = [k for k in n.keywords if k.arg is None and isinstance(k.value, ast.Name) and
                              k.value.id == star]
                    if spread:
                        n.keywords = [k for k in n.keywords if k not in spread] + \
                            [ast.copy_location(ast.keyword(e, ast.copy_location(ast.Name(e, ast.Load()), n)), n)
                             for e in extra]
                        _mark(n)
                    return n
            spec = Read().visit(spec)
            ast.fix_missing_locations(spec)
            work.append(_add_copy(helpers, spec, callee))
        node.func.id = name
        _mark(node)


def _unwrap_single_results(fn: ast.FunctionDef, helpers: dict[str, "ResolvedHelper"]) -> None:
    """A helper whose every `return` is a one-element tuple (`return (t * t,)`), each call unpacked by one target
    (`(u,) = f(t)`, `u, = f(t)`) or indexed at 0 (`f(t)[0]`): it returns the element and the calls take it
    (rewrite helper-single-result) — the same value cuTile Python unpacks; cutile 0.3.1 compiles no 1-tuple."""
    bodies = [fn, *(h.fn for h in helpers.values())]
    for name, h in list(helpers.items()):
        returns = [n for n in walk_nodes(h.fn) if isinstance(n, ast.Return)]
        if not returns or not all(isinstance(r.value, ast.Tuple) and len(r.value.elts) == 1 and
                                  not isinstance(r.value.elts[0], ast.Starred) for r in returns):
            continue
        sites = []   # (parent, field, call) of every call to it
        ok = True
        for body in bodies:
            for parent in walk_nodes(body):
                for field, value in ast.iter_fields(parent):
                    for child in (value if isinstance(value, list) else [value]):
                        if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == name:
                            single = isinstance(parent, ast.Assign) and field == "value" and \
                                len(parent.targets) == 1 and isinstance(parent.targets[0], (ast.Tuple, ast.List)) \
                                and len(parent.targets[0].elts) == 1 and \
                                isinstance(parent.targets[0].elts[0], ast.Name)
                            first = isinstance(parent, ast.Subscript) and field == "value" and \
                                isinstance(parent.slice, ast.Constant) and parent.slice.value in (0, -1)
                            if not (single or first):
                                ok = False
                            sites.append((parent, single))
        if not ok or not sites:
            continue
        for parent, single in sites:
            if single:
                parent.targets = [parent.targets[0].elts[0]]
                _mark(parent)
        for body in bodies:   # `f(t)[0]`: the call itself
            class Unindex(ast.NodeTransformer):
                def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
                    self.generic_visit(node)
                    if any(node is p for p, single in sites if not single):
                        return _mark(node.value)
                    return node
            Unindex().visit(body)
        for r in returns:
            r.value = r.value.elts[0]
            _mark(r)


def _comprehension_items(it: ast.expr, env: dict[str, Any], constants: dict[str, Any],
                         local: set[str]) -> list[ast.expr] | None:
    """The items of ``ct.static_iter(X)`` in a tuple comprehension: X's elements when it is a tuple written out,
    else the values X computes from literals, module constants and the kernel's constants (`range(N)`,
    `enumerate(W)`, `zip(..)`), spelled as literals; None otherwise."""
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and _is_ct(it.func.value) and
            it.func.attr == "static_iter" and len(it.args) == 1 and not it.keywords):
        return None
    x = it.args[0]
    if isinstance(x, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in x.elts):
        return list(x.elts)
    names = {n.id for n in walk_nodes(x) if isinstance(n, ast.Name)}
    scope = {}
    for name in names:
        if name in constants:
            scope[name] = constants[name]
        elif name in local:
            return None
        elif name in env:
            scope[name] = env[name]
    safe = {"range": range, "len": len, "enumerate": enumerate, "zip": zip, "reversed": reversed}
    try:
        values = list(eval(compile(ast.Expression(x), "<static_iter>", "eval"), {"__builtins__": safe}, scope))
    except Exception:
        return None
    spelled = [static_node(v, x) for v in values]
    return None if any(v is None for v in spelled) else spelled


def _static_truth(test: ast.expr, env: dict[str, Any], constants: dict[str, Any], local: set[str]) -> bool | None:
    """A comprehension's condition with its targets replaced by their items, decided from literals, module constants
    and the kernel's constants; None when it reads anything else."""
    scope = {}
    for name in {n.id for n in walk_nodes(test) if isinstance(n, ast.Name)}:
        if name in constants:
            scope[name] = constants[name]
        elif name in local or name not in env:
            return None
        else:
            scope[name] = env[name]
    safe = {"len": len, "min": min, "max": max, "abs": abs, "int": int, "float": float, "bool": bool}
    try:
        value = eval(compile(ast.Expression(test), "<comprehension-if>", "eval"), {"__builtins__": safe}, scope)
    except Exception:
        return None
    return bool(value) if isinstance(value, (bool, int, float)) else None


#: attributes of tiles and arrays (cuda.tile 1.7's `ct.Tile` and `ct.Array`, their methods too, and the tiled view's
#: and the tile methods resolve spells): a field of such a name is never read through a local
_VALUE_ATTRIBUTES = frozenset({"astype", "dtype", "extract", "foreign_pointer", "from_foreign", "get_raw_memory",
                               "insert", "item", "ndim", "permute", "reshape", "shape", "slice", "strides",
                               "tiled_view", "transpose", "load", "store", "num_tiles", "tile_shape",
                               "traversal_steps", "atomic_store_add"})


def _frozen_dataclass(value: Any) -> bool:
    """``value`` is a frozen dataclass that cuda.tile 1.7 builds in device code as it is (its generated
    ``__init__``, no ``__post_init__``, every field an init field without a default factory)."""
    import dataclasses

    if not (isinstance(value, type) and dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen):
        return False
    if "__post_init__" in vars(value) or not value.__dataclass_params__.init:
        return False
    return all(f.init and f.default_factory is dataclasses.MISSING for f in dataclasses.fields(value))


def _dataclass_tuples(fn: ast.FunctionDef, env: dict[str, Any]) -> None:
    """A frozen dataclass in device code (rewrite dataclass-tuple): cuda.tile 1.7 builds `Stats(m, s)` as an
    aggregate of its fields, reads `st.m` as the field and `dataclasses.replace(st, s=v)` as a new aggregate — the
    values a tuple of the fields in order holds: `(m, s)`, `st[0]`, `(st[0], v)` (the defaults filled in, keywords
    bound by name), which the tuple rewrites then carry. A field is read through a local only where one frozen
    dataclass of the function's module has a field of that name at one index (not a tile's or an array's
    attribute name)."""
    import dataclasses

    local = _locals(fn)
    classes = [v for v in {id(v): v for v in env.values() if _frozen_dataclass(v)}.values()]
    if not classes:
        return
    index: dict[str, set[int]] = {}
    for c in classes:
        for k, f in enumerate(dataclasses.fields(c)):
            index.setdefault(f.name, set()).add(k)

    def cls_of(func: ast.AST) -> Any:
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or root.id in local:
            return None
        ok, value = _static_value(func, env)
        return value if ok else None

    class Rewrite(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            node = self.generic_visit(node)
            target = cls_of(node.func)
            if target is dataclasses.replace and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and \
                    node.args[0].id in local and all(k.arg for k in node.keywords):
                owners = [c for c in classes if {k.arg for k in node.keywords} <= {f.name for f in
                                                                                  dataclasses.fields(c)}]
                if len({tuple(f.name for f in dataclasses.fields(c)) for c in owners}) != 1:
                    return node
                given = {k.arg: k.value for k in node.keywords}
                elts = [given.get(f.name) or ast.Subscript(ast.Name(node.args[0].id, ast.Load()), ast.Constant(k),
                                                           ast.Load())
                        for k, f in enumerate(dataclasses.fields(owners[0]))]
            elif _frozen_dataclass(target) and not any(isinstance(a, ast.Starred) for a in node.args) and \
                    all(k.arg for k in node.keywords):
                fields = dataclasses.fields(target)
                if len(node.args) > len(fields):
                    return node
                given = {f.name: a for f, a in zip(fields, node.args)}
                for k in node.keywords:
                    if k.arg in given or k.arg not in {f.name for f in fields}:
                        return node
                    given[k.arg] = k.value
                elts = []
                for f in fields:
                    value = given.get(f.name)
                    if value is None:
                        value = static_node(f.default, node) if f.default is not dataclasses.MISSING else None
                    if value is None:
                        return node
                    elts.append(value)
            else:
                return node
            out = _mark(ast.copy_location(ast.Tuple(elts, ast.Load()), node))
            out.tileport_dataclass = True   # (passed straight to a helper: named first, _hoist_tuple_call_arguments)
            ast.fix_missing_locations(out)
            return out

        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            node = self.generic_visit(node)
            if isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) and node.value.id in local and \
                    node.attr not in _VALUE_ATTRIBUTES and len(index.get(node.attr, ())) == 1:
                out = ast.Subscript(node.value, ast.Constant(next(iter(index[node.attr]))), ast.Load())
                out = _mark(ast.copy_location(out, node))
                ast.fix_missing_locations(out)
                return out
            return node

    Rewrite().visit(fn)
    ast.fix_missing_locations(fn)


def _expand_tuple_comprehensions(fn: ast.FunctionDef, env: dict[str, Any], constants: dict[str, Any]) -> None:
    """``tuple(e for i in ct.static_iter(X))`` (one or more such generators, no `if`): the tuple of ``e`` once per
    item, each target replaced by its item (rewrite tuple-comprehension) — cuTile Python builds the tuple by
    unrolling the loop the same way."""
    local = _locals(fn) - set(constants)

    class Expand(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            node = self.generic_visit(node)
            if not (isinstance(node.func, ast.Name) and node.func.id == "tuple" and len(node.args) == 1 and
                    not node.keywords and isinstance(node.args[0], ast.GeneratorExp)) or "tuple" in local:
                return node
            gen = node.args[0]
            rows: list[dict[str, ast.expr]] = [{}]
            for g in gen.generators:
                if g.is_async:
                    return node
                out = []
                for row in rows:
                    it = _Substitute(row).visit(copy.deepcopy(g.iter)) if row else g.iter
                    items = _comprehension_items(it, env, constants, local - set(row))
                    if items is None:
                        return node
                    for item in items:
                        if isinstance(g.target, ast.Name):
                            new = {**row, g.target.id: item}
                        elif isinstance(g.target, ast.Tuple) and all(isinstance(t, ast.Name) for t in g.target.elts) \
                                and isinstance(item, ast.Tuple) and len(item.elts) == len(g.target.elts):
                            new = {**row, **{t.id: v for t, v in zip(g.target.elts, item.elts)}}
                        else:
                            return node
                        # (`.. if k % 2 == 0`: each condition decided per item, as cuTile Python's tuple_comp_if
                        # decides it while unrolling; one it cannot decide here leaves the comprehension as it is)
                        keep = [_static_truth(_Substitute(new).visit(copy.deepcopy(c)), env, constants, local - set(new))
                                for c in g.ifs]
                        if any(k is None for k in keep):
                            return node
                        if all(keep):
                            out.append(new)
                rows = out
            elts = [_Substitute(row).visit(copy.deepcopy(gen.elt)) for row in rows]
            out_node = _mark(ast.copy_location(ast.Tuple(elts, ast.Load()), node))
            ast.fix_missing_locations(out_node)
            return out_node

    Expand().visit(fn)


class _Substitute(ast.NodeTransformer):
    """Names read replaced by the expressions given (a comprehension's targets by their items)."""

    def __init__(self, binding: dict[str, ast.expr]):
        self.binding = binding

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.binding:
            return _mark(ast.copy_location(copy.deepcopy(self.binding[node.id]), node))
        return node


def _nesting(e: ast.AST) -> object:
    """The shape of a tuple nest (`((a, b), c)` → ((None, None), None)); None for anything else."""
    return tuple(_nesting(x) for x in e.elts) if isinstance(e, ast.Tuple) else None


def _flat(e: ast.AST) -> list[ast.expr]:
    return [y for x in e.elts for y in _flat(x)] if isinstance(e, ast.Tuple) else [e]


def _flatten_nested_returns(fn: ast.FunctionDef, helpers: dict[str, "ResolvedHelper"]) -> None:
    """A helper returning a nested tuple (`return (mu, var), d`) whose every call is unpacked by targets of that
    nesting (`(mu, var), d = _stats(t)`): the helper returns the flat tuple and each call is unpacked into the flat
    names (`mu, var, d = _stats(t)`; rewrite helper-nested-tuple) — the same values bound to the same names."""
    functions = [fn, *(h.fn for h in helpers.values())]
    for name, h in helpers.items():
        returns = [n for n in walk_nodes(h.fn) if isinstance(n, ast.Return)]
        shapes = {repr(_nesting(r.value)) for r in returns if r.value is not None}
        if not returns or len(shapes) != 1 or any(r.value is None for r in returns) or \
                not isinstance(_nesting(returns[0].value), tuple) or \
                all(s is None for s in _nesting(returns[0].value)):
            continue
        shape = _nesting(returns[0].value)
        calls = [n for f in functions for n in walk_nodes(f) if isinstance(n, ast.Call) and
                 isinstance(n.func, ast.Name) and n.func.id == name]
        sites = [st for f in functions for st in walk_nodes(f) if isinstance(st, ast.Assign) and
                 len(st.targets) == 1 and isinstance(st.value, ast.Call) and st.value in calls]
        if len(sites) != len(calls) or any(_nesting(st.targets[0]) != shape or
                                           not all(isinstance(t, ast.Name) for t in _flat(st.targets[0]))
                                           for st in sites):
            continue
        for r in returns:
            r.value = _mark(ast.copy_location(ast.Tuple(_flat(r.value), ast.Load()), r.value))
        for st in sites:
            st.targets = [_mark(ast.copy_location(ast.Tuple(_flat(st.targets[0]), ast.Store()), st.targets[0]))]
        for f in functions:
            ast.fix_missing_locations(f)


def _split_result_names(f: ast.FunctionDef, helpers: dict[str, "ResolvedHelper"]) -> None:
    """A name bound only to calls of helpers that return tuples of one width n (`parts = _split3(t)`), read other
    than by a literal index (`parts[1:]`, `for p in ct.static_iter(parts)`): n names unpacked from each call
    (`parts_0, parts_1, parts_2 = _split3(t)`) and the name read as their tuple, then folded (rewrites
    tuple-name-elements, tuple-fold) — the values cuTile Python binds to the tuple's items."""
    def width(call: ast.AST) -> int | None:
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in helpers):
            return None
        rets = [n for n in walk_nodes(helpers[call.func.id].fn) if isinstance(n, ast.Return)]
        sizes = {len(r.value.elts) if isinstance(r.value, ast.Tuple) and
                 not any(isinstance(e, ast.Starred) for e in r.value.elts) else None for r in rets}
        return sizes.pop() if len(sizes) == 1 and rets else None

    stores: dict[str, int] = {}
    for n in walk_nodes(f):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    params = {a.arg for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs)}
    bindings: dict[str, list[ast.Assign]] = {}
    for _owner, _part, block in statement_blocks(f):
        for st in block:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                bindings.setdefault(st.targets[0].id, []).append(st)
    indexed = {id(n.value) for n in walk_nodes(f) if isinstance(n, ast.Subscript) and
               isinstance(n.value, ast.Name) and type(_literal_int(n.slice)) is int}
    split: dict[str, list[str]] = {}
    taken = {n.id for n in walk_nodes(f) if isinstance(n, ast.Name)} | params
    for name, sts in bindings.items():
        widths = {width(st.value) for st in sts}
        reads = [n for n in walk_nodes(f) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
        if name in params or len(sts) != stores.get(name) or len(widths) != 1 or None in widths or \
                all(id(r) in indexed for r in reads):
            continue
        names = [fresh_name(f"{name}_{k}", taken, "_") for k in range(widths.pop())]
        split[name] = names
    if not split:
        return
    for st in (st for sts in bindings.values() for st in sts):
        name = st.targets[0].id
        if name in split:
            st.targets = [_mark(ast.copy_location(ast.Tuple([ast.copy_location(ast.Name(v, ast.Store()), st.targets[0])
                                                             for v in split[name]], ast.Store()), st.targets[0]))]

    class Read(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in split and isinstance(node.ctx, ast.Load):
                return _mark(ast.copy_location(ast.Tuple([ast.copy_location(ast.Name(v, ast.Load()), node)
                                                          for v in split[node.id]], ast.Load()), node))
            return node

    Read().visit(f)
    _FoldTuples().visit(f)
    _inline_tuple_names(f)   # (`rest = parts[1:]`, a tuple of those names now: read where it is read)
    _FoldTuples().visit(f)
    f.body = _unroll_static_tuples(f.body)
    for owner, part, block in statement_blocks(f):   # (`a, b = (p_1, p_2)` of a slice: one name each)
        setattr(owner, part, [y for st in block for y in _unpack_names(st)])
    # a name bound once to one of the results (`first = parts_0`, `rest_0 = parts_1`): that result where it is read,
    # so that a product among them is seen where it is summed (helper-product-operand)
    made = {v for names in split.values() for v in names}
    counts: dict[str, int] = {}
    for n in walk_nodes(f):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            counts[n.id] = counts.get(n.id, 0) + 1
    alias = {}
    for owner, part, block in statement_blocks(f):
        keep = []
        for st in block:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                    isinstance(st.value, ast.Name) and st.value.id in made and counts.get(st.targets[0].id) == 1 \
                    and st.targets[0].id not in params:
                alias[st.targets[0].id] = st.value.id
                continue
            keep.append(st)
        setattr(owner, part, keep)
    for n in walk_nodes(f):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in alias:
            n.id = alias[n.id]
            _mark(n)
    ast.fix_missing_locations(f)


def _literal_int(node: ast.AST) -> object:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _unpack_names(st: ast.stmt) -> list[ast.stmt]:
    """`a, b = (x, y)` of names and literals (nothing read by a later target): one assignment per name."""
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Tuple) and \
            isinstance(st.value, ast.Tuple) and len(st.value.elts) == len(st.targets[0].elts) and \
            all(isinstance(t, ast.Name) for t in st.targets[0].elts) and \
            all(isinstance(v, (ast.Name, ast.Constant)) for v in st.value.elts) and \
            not {t.id for t in st.targets[0].elts} & {v.id for v in st.value.elts if isinstance(v, ast.Name)}:
        return [_mark(ast.copy_location(ast.Assign([t], v), st)) for t, v in zip(st.targets[0].elts, st.value.elts)]
    return [st]


def _specialize_parameter_tuples(fn: ast.FunctionDef, helpers: dict[str, "ResolvedHelper"]) -> None:
    """A helper called from the kernel with a tuple of the kernel's parameters (`_store_all((y, z), t)`, arrays)
    that it iterates, indexes, slices or counts (`for o in ct.static_iter(outs)`): a copy with the tuple in place of
    the parameter, then folded and unrolled (rewrite helper-tuple-argument) — cuTile Python binds the parameter to
    the tuple and unrolls the loop over its items, each the kernel's array."""
    kernel_params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    for node in list(walk_nodes(fn)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers and
                not node.keywords):
            continue
        callee = helpers[node.func.id]
        params = [a.arg for a in callee.fn.args.args]
        if callee.fn.args.vararg or callee.fn.args.kwarg or len(params) != len(node.args):
            continue
        passed = [i for i, a in enumerate(node.args) if isinstance(a, ast.Tuple) and a.elts and
                  all(isinstance(e, ast.Name) and (e.id in kernel_params or e.id in helpers) for e in a.elts)]
        iterated = set()
        for n in walk_nodes(callee.fn):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "static_iter":
                iterated |= {m.id for m in walk_nodes(n) if isinstance(m, ast.Name)}
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len":
                iterated |= {m.id for m in n.args if isinstance(m, ast.Name)}
            elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and isinstance(n.slice, ast.Slice):
                iterated.add(n.value.id)
        passed = [i for i in passed if params[i] in iterated and params[i] not in _locals_assigned(callee.fn)]
        # a tuple of other values (`tree(parts, op)` of the kernel's tiles `parts = tuple(..)`): one parameter per
        # element in the copy (`parts_0, parts_1, ..`), the tuple of them in place of the parameter, the elements
        # passed in its place (evaluated where the tuple was, as Python evaluates it before the call)
        taken = {n.id for n in walk_nodes(callee.fn) if isinstance(n, ast.Name)} | set(params)
        spread = {i: [fresh_name(f"{params[i]}_{k}", taken, "_") for k in range(len(a.elts))]
                  for i, a in enumerate(node.args) if i not in passed and isinstance(a, ast.Tuple) and a.elts and
                  not any(isinstance(e, ast.Starred) for e in a.elts) and params[i] in iterated and
                  params[i] not in _locals_assigned(callee.fn)}
        if not passed and not spread:
            continue
        name = f"{node.func.id}__" + "__".join("_".join(e.id for e in node.args[i].elts) if i in passed else
                                               f"{params[i]}{len(spread[i])}" for i in sorted({*passed, *spread}))
        if name not in helpers:
            spec = copy.deepcopy(callee.fn)
            spec.name = name
            mapping = {params[i]: node.args[i] for i in passed}
            mapping.update({params[i]: _mark(ast.copy_location(ast.Tuple([ast.Name(n, ast.Load()) for n in names],
                                                                           ast.Load()), node.args[i]))
                            for i, names in spread.items()})
            spec = _Substitute(mapping).visit(spec)
            spec.args.args = [b for i, a in enumerate(spec.args.args) if i not in passed
                              for b in ([ast.arg(n) for n in spread[i]] if i in spread else [a])]
            spec.args.defaults = []
            _add_copy(helpers, _FoldTuples().visit(spec), callee, unroll=True)
        node.func.id = name
        node.args = [b for i, a in enumerate(node.args) if i not in passed
                     for b in (a.elts if i in spread else [a])]
        _mark(node)


def _arange_offsets(node: ast.Call) -> ast.AST:
    """``ct.arange(n, dtype=D, start=s, step=k)`` as cuTile Python's arange_impl builds it: the iota of n, times
    ``astype(k, D)`` unless k is the constant 1, plus ``astype(s, D)`` unless s is the constant 0 (a literal is
    weakly typed: it takes D as the conversion would make it)."""
    kw = {k.arg: k.value for k in node.keywords}
    dtype = kw.get("dtype")
    if dtype is None:
        return node
    base = ast.Call(node.func, list(node.args), [ast.keyword("dtype", dtype)])
    out: ast.expr = _mark(ast.copy_location(base, node))

    def converted(v: ast.expr) -> ast.expr:
        if isinstance(v, ast.Constant):
            return v
        return _mark(ast.copy_location(ast.Call(_attr_chain("ct.astype", node.func), [v, copy.deepcopy(dtype)], []),
                                       v))

    for name, unit, op in (("step", 1, ast.Mult()), ("start", 0, ast.Add())):
        v = kw.get(name)
        if v is None or (isinstance(v, ast.Constant) and v.value == unit and type(v.value) is int):
            continue
        out = _mark(ast.copy_location(ast.BinOp(out, op, converted(v)), node))
        out.end_lineno, out.end_col_offset = node.end_lineno, node.end_col_offset
    return out


def _static_items(it: ast.AST) -> list[ast.expr] | None:
    """The items a ``ct.static_iter`` loop binds, one expression per iteration, when its iterable is a literal
    tuple, a ``range`` of literals, or ``enumerate`` / ``zip`` of those (nested: `enumerate(zip(A, B))`, an item
    `(0, (a0, b0))`), holding something no constant spells or built by enumerate/zip (the emitter unrolls loops
    over a plain tuple of constants itself); else None."""
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and _is_ct(it.func.value) and
            it.func.attr == "static_iter" and len(it.args) + len(it.keywords) == 1):
        return None
    inner = it.args[0] if it.args else it.keywords[0].value   # (`iterable=`, as canonical_call spells it)

    def elts(node: ast.AST) -> list[ast.expr] | None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            if node.func.id == "range" and 1 <= len(node.args) <= 3:   # `zip(range(3), W)`: the literal indices
                try:
                    bounds = [ast.literal_eval(a) for a in node.args]
                except ValueError:
                    return None
                if all(type(b) is int for b in bounds) and (len(bounds) < 3 or bounds[2] != 0):
                    return [ast.copy_location(ast.Constant(i), node) for i in range(*bounds)]
                return None
            if node.func.id == "reversed" and len(node.args) == 1 and (items := elts(node.args[0])) is not None:
                return items[::-1]   # (`reversed(PAIRS)` of a module tuple of tuples)
            if node.func.id == "enumerate" and len(node.args) == 1 and (items := elts(node.args[0])) is not None:
                return [ast.copy_location(ast.Tuple([ast.copy_location(ast.Constant(i), e), e], ast.Load()), e)
                        for i, e in enumerate(items)]
            if node.func.id == "zip" and node.args:
                cols = [elts(a) for a in node.args]
                if any(c is None for c in cols):
                    return None
                return [ast.copy_location(ast.Tuple(list(row), ast.Load()), row[0])
                        for row in zip(*cols)]   # (the shortest, as zip stops)
            return None
        return list(node.elts) if isinstance(node, (ast.Tuple, ast.List)) else None

    items = elts(inner)
    if items is None:
        return None
    plain = all(isinstance(v, ast.Constant) or (isinstance(v, ast.UnaryOp) and isinstance(v.operand, ast.Constant))
                for v in items)
    # (plain constants: the emitter unrolls those loops itself; no items at all — `ts[1:]` of a variadic helper's
    # copy given one argument — no iteration, as cuTile Python runs none: nothing there counts as an fma's place)
    return None if plain and items else items


_LITERAL_NODES = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.operator, ast.unaryop,
                  ast.cmpop, ast.boolop, ast.Load)


def _literal_truth(test: ast.expr) -> tuple[bool, bool]:
    """(True, its truth) when ``test`` is made of literals and operators only (`0 == 0`, `0.1 > 0.15`)."""
    if not all(isinstance(n, _LITERAL_NODES) for n in walk_nodes(test)):
        return False, False
    try:
        return True, bool(eval(compile(ast.Expression(test), "<literal>", "eval"), {"__builtins__": {}}, {}))
    except Exception:
        return False, False


def _destructure(target: ast.AST, item: ast.expr) -> dict[str, ast.expr] | None:
    """The loop names ``target`` binds to ``item`` (`i, (a, b)` of `(0, (1.0, 0.5))`); None if they do not match."""
    if isinstance(target, ast.Name):
        return {target.id: item}
    if isinstance(target, ast.Tuple) and isinstance(item, ast.Tuple) and len(target.elts) == len(item.elts):
        out: dict[str, ast.expr] = {}
        for t, v in zip(target.elts, item.elts):
            sub = _destructure(t, v)
            if sub is None:
                return None
            out.update(sub)
        return out
    return None


def _unroll_static_tuples(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``for names in ct.static_iter(<tuple | range | enumerate | zip>)`` over values no constant spells: the body
    once per item with the names replaced (rewrite static-iter-items); loops it cannot unroll are left to the
    emitter, which refuses them at their position."""
    out: list[ast.stmt] = []
    for st in stmts:
        for field in ("body", "orelse"):
            if isinstance(getattr(st, field, None), list) and not isinstance(st, (ast.FunctionDef, ast.Lambda)):
                setattr(st, field, _unroll_static_tuples(getattr(st, field)))
        items = _static_items(st.iter) if isinstance(st, ast.For) else None
        bindings = None if items is None else [_destructure(st.target, item) for item in items]
        stored = {n.id for sub in (st.body if isinstance(st, ast.For) else []) for n in walk_nodes(sub)
                  if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        jumps = any(isinstance(n, (ast.Break, ast.Continue, ast.Return)) for sub in getattr(st, "body", [])
                    for n in walk_nodes(sub))
        if bindings is None or any(b is None for b in bindings) or st.orelse or jumps or \
                any(stored & set(b) for b in bindings):
            out.append(st)
            continue
        for binding in bindings:

            class _Bind(ast.NodeTransformer):
                def visit_Name(self, node: ast.Name) -> ast.AST:
                    if isinstance(node.ctx, ast.Load) and node.id in binding:
                        return _mark(ast.copy_location(copy.deepcopy(binding[node.id]), node))
                    return node

                def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
                    # `out * p if op == 0 else out + p` with the item in place (`0 == 0`): the arm taken, as
                    # cuTile Python folds it
                    node = self.generic_visit(node)
                    ok, taken = _literal_truth(node.test)
                    return (node.body if taken else node.orelse) if ok else node

            unrolled: list[ast.stmt] = []
            for sub in st.body:
                sub = _Bind().visit(copy.deepcopy(sub))
                if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Tuple) \
                        and isinstance(sub.value, ast.Tuple) and len(sub.value.elts) == len(sub.targets[0].elts) \
                        and all(isinstance(t, ast.Name) for t in sub.targets[0].elts) and \
                        all(isinstance(v, ast.Constant) for v in sub.value.elts):
                    # `k, j = stage` of an item that is a tuple of constants (`(2, 1)`): one name each, as the
                    # tuple-assign rewrite spells the statements it sees before the unrolling
                    unrolled.extend(_mark(ast.copy_location(ast.Assign([ast.Name(t.id, ast.Store())], v), sub))
                                    for t, v in zip(sub.targets[0].elts, sub.value.elts))
                else:
                    unrolled.append(sub)
            # an inner loop over the item (`for j, w in ct.static_iter(enumerate(row))` of an outer `row`): its
            # iterable is spelled out only now
            out.extend(_unroll_static_tuples(unrolled))
    return out


def _jump_first(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """In loop bodies, `if c: ..; break` / `continue` with an `else` that does not jump: the `if` without its `else`,
    then the `else` arm's statements after it (rewrite if-jump-else) — the same paths (the arm that jumps leaves
    the iteration), and the form cuTile Python compiles: `if %c { break } else { }` followed by the rest."""
    out: list[ast.stmt] = []
    for st in stmts:
        if isinstance(st, (ast.FunctionDef, ast.Lambda)):
            out.append(st)
            continue
        for field in ("body", "orelse"):
            if isinstance(getattr(st, field, None), list):
                setattr(st, field, _jump_first(getattr(st, field)))
        if isinstance(st, ast.If) and st.orelse and st.body and isinstance(st.body[-1], (ast.Break, ast.Continue)) \
                and not isinstance(st.orelse[-1], (ast.Break, ast.Continue, ast.Return)):
            rest = st.orelse
            st.orelse = []
            _mark(st)
            out.append(st)
            out.extend(rest)
            continue
        out.append(st)
    return out


def _is_ct(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "ct"


#: How the emitter reads each cuda.tile function's arguments: the parameters it takes by position (the rest by
#: keyword). Functions not listed: positional-only parameters by position, all others by keyword.
POSITIONAL = {
    "bid": 1, "num_blocks": 1, "num_tiles": 3, "full": 3, "zeros": 2, "ones": 2, "reshape": 2, "astype": 2,
    "permute": 2, "transpose": 3, "broadcast_to": 2, "extract": 3, "where": 3, "cdiv": 2, "mma": 3, "matmul": 2,
    "cat": 2, "gather": 2, "scatter": 3, "atomic_add": 3, "atomic_max": 3, "atomic_min": 3, "atomic_xchg": 3,
    "atomic_cas": 4, "atomic_and": 3, "atomic_or": 3, "atomic_xor": 3, "expand_dims": 2,
    "sum": 1, "max": 1, "min": 1, "prod": 1, "argmax": 1, "argmin": 1, "cumsum": 1, "cumprod": 1,
}


def canonical_call(node: ast.Call) -> ast.Call:
    """``ct.f(...)`` with its arguments bound to ``f``'s real signature and spelled one way: the parameters
    ``POSITIONAL`` names by position (the leading positional-only ones otherwise), the rest as keywords, defaults
    left out as written. A call that does not bind is left as is (cuda-tile itself reports it)."""
    ct = _ct()
    fn = getattr(ct, node.func.attr, None)
    if fn is None or not callable(fn) or any(isinstance(a, ast.Starred) for a in node.args) or \
            any(k.arg is None for k in node.keywords):
        return node
    try:
        sig = inspect.signature(fn)
        bound = sig.bind(*node.args, **{k.arg: k.value for k in node.keywords})
    except (TypeError, ValueError):
        return node
    params = list(sig.parameters.values())
    npos = POSITIONAL.get(node.func.attr)
    if npos is None:
        npos = sum(1 for p in params if p.kind is p.POSITIONAL_ONLY)
    args, keywords = [], []
    for i, p in enumerate(params):
        if p.name not in bound.arguments:
            continue
        value = bound.arguments[p.name]
        if p.kind is p.VAR_POSITIONAL:
            args.extend(value)
        elif i < npos and len(args) == i and p.kind is not p.KEYWORD_ONLY:
            args.append(value)
        elif p.kind is p.POSITIONAL_ONLY:
            args.append(value)
        else:
            keywords.append(ast.keyword(p.name, value))
    if [id(a) for a in args] == [id(a) for a in node.args] and \
            [(k.arg, id(k.value)) for k in keywords] == [(k.arg, id(k.value)) for k in node.keywords]:
        return node
    out = _mark(ast.Call(node.func, args, keywords))
    return ast.copy_location(out, node)


def _static_assigns(fn: ast.FunctionDef, resolver: _Resolver) -> None:
    """Local names assigned exactly once, at the top level of the body, to a static value (an enum member, a dtype,
    a cuda.tile function): substituted at each use and their assignment dropped, as cuTile Python folds them."""
    counts: dict[str, int] = {}
    for node in walk_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
    def prune(stmts: list[ast.stmt]) -> list[ast.stmt]:   # at any depth: `zero_pad = ct.PaddingMode.ZERO` in a loop
        keep = []
        for st in stmts:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                    and counts.get(st.targets[0].id) == 1:
                value = resolver.visit(copy.deepcopy(st.value))
                if _is_static_spelling(value):
                    resolver.aliases[st.targets[0].id] = value
                    continue
            for field in ("body", "orelse"):
                if isinstance(st, (ast.If, ast.For, ast.While, ast.With)) and getattr(st, field, None):
                    setattr(st, field, prune(getattr(st, field)) or [ast.copy_location(ast.Pass(), st)])
            keep.append(st)
        return keep

    fn.body = prune(fn.body)


def _is_static_spelling(node: ast.AST) -> bool:
    """An attribute chain ``ct.X.Y`` naming an enum member, dtype or function (not a runtime value)."""
    if not isinstance(node, ast.Attribute):
        return False
    root = node
    while isinstance(root, ast.Attribute):
        root = root.value
    if not _is_ct(root):
        return False
    ok, value = _static_value(node, {"ct": _ct()})
    return ok and (isinstance(value, (enum.Enum, _ct().DType)) or callable(value))


@dataclass(frozen=True)
class ResolvedHelper:
    fn: ast.FunctionDef
    file: Path
    src: str


def _function_ast(pyfunc: Any) -> tuple[ast.FunctionDef, Path, str]:
    file = Path(inspect.getsourcefile(pyfunc) or "").resolve()
    src = file.read_text()
    tree = ast.parse(src, filename=str(file))
    line = pyfunc.__code__.co_firstlineno
    for node in walk_nodes(tree):
        if isinstance(node, ast.FunctionDef) and node.name == pyfunc.__name__ and \
                (node.lineno == line or any(d.lineno == line for d in node.decorator_list)):
            return node, file, src
    raise LookupError(f"{pyfunc.__name__}: no definition at {file}:{line}")


_TABLE_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b}


def _table_index(node: ast.AST, env: dict[str, Any], local: set[str], constants: dict[str, Any]) -> object:
    """The int a helper table is indexed by, when it is known before the kernel compiles: a literal, a module
    constant, a `ct.Constant` parameter of the kernel (``constants``), minus one of those; else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _table_index(node.operand, env, local, constants)
        return -inner if isinstance(inner, int) else None
    if isinstance(node, ast.BinOp) and type(node.op) in _TABLE_OPS:   # `(MODE + 1) % 3`
        a, b = (_table_index(e, env, local, constants) for e in (node.left, node.right))
        if a is None or b is None or (b == 0 and isinstance(node.op, (ast.FloorDiv, ast.Mod))):
            return None
        return _TABLE_OPS[type(node.op)](a, b)
    if isinstance(node, ast.Constant):
        value = node.value
    elif isinstance(node, ast.Name) and node.id in constants:
        value = constants[node.id]
    elif isinstance(node, (ast.Name, ast.Attribute)) and _root_name(node) not in local:
        ok, value = _static_value(node, env)
        value = value if ok else None
    else:
        return None
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _unroll_helper_table_loops(stmts: list[ast.stmt], env: dict[str, Any], local: set[str]) -> list[ast.stmt]:
    """`for f in ct.static_iter(CHAIN)` over a tuple holding functions (a module tuple, a factory's closure): the
    body once per item with `CHAIN[k]` for `f`, for helper-table to fold each call (rewrite helper-table-loop). A
    loop that jumps (`break`, `continue`, `return`) or re-binds its target is left as it is (refused where it is)."""
    import cuda.tile as ct

    out: list[ast.stmt] = []
    for st in stmts:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            out.append(st)
            continue
        for field in ("body", "orelse"):
            if isinstance(getattr(st, field, None), list) and getattr(st, field) and \
                    isinstance(getattr(st, field)[0], ast.stmt):
                setattr(st, field, _unroll_helper_table_loops(getattr(st, field), env, local))
        it = st.iter if isinstance(st, ast.For) else None
        table = (it.args[0] if it.args else it.keywords[0].value) \
            if isinstance(it, ast.Call) and len(it.args) + len(it.keywords) == 1 else None
        if table is None or not isinstance(st.target, ast.Name) or st.orelse or \
                not isinstance(table, (ast.Name, ast.Attribute)) or _root_name(table) in local or \
                _root_name(it.func) in local or _static_value(it.func, env) != (True, ct.static_iter):
            out.append(st)
            continue
        ok, value = _static_value(table, env)
        funcs = ok and isinstance(value, tuple) and any(
            inspect.isfunction(inspect.unwrap(getattr(v, "_pyfunc", None) or v)) for v in value)
        target = st.target.id
        if not funcs or any(isinstance(n, (ast.Break, ast.Continue, ast.Return)) or
                            (isinstance(n, ast.Name) and n.id == target and not isinstance(n.ctx, ast.Load))
                            for sub in st.body for n in walk_nodes(sub)):
            out.append(st)
            continue

        class Item(ast.NodeTransformer):
            def __init__(self, k: int):
                self.k = k

            def visit_Name(self, node: ast.Name) -> ast.AST:
                if node.id == target and isinstance(node.ctx, ast.Load):
                    sub = ast.Subscript(copy.deepcopy(table), ast.Constant(self.k), ast.Load())
                    return _mark(ast.copy_location(sub, node))
                return node

        for k in range(len(value)):
            for sub in st.body:
                new = Item(k).visit(copy.deepcopy(sub))
                ast.fix_missing_locations(new)
                out.append(new)
    return out


def _fold_helper_tables(fn: ast.FunctionDef, env: dict[str, Any], local: set[str],
                        constants: dict[str, Any]) -> None:
    """`ACTS[ACT](t)`: a call through a module tuple of the user's functions (`ACTS = (_ident, _relu, _gelu)`, or a
    local one, `fns = (_a, _b)`) at an index known when the kernel compiles (a literal, a module constant, a
    `ct.Constant` of the kernel, their arithmetic: `fns[(MODE + 1) % 3]`): the call of
    the function taken, by the name the module binds it to (rewrite helper-table) — cuTile Python reads the tuple
    as a constant and calls the function object it holds, inlining it."""
    rebound = _locals_assigned(fn)   # (a constant's name the kernel re-binds holds another value there)
    constants = {k: v for k, v in constants.items() if k not in rebound}
    # a local bound once to one of them (`fns = (_a, _b)`, split by tuple-name-elements into `fns_0 = _a`, ..)
    stores = [n.id for n in walk_nodes(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    aliases = {st.targets[0].id: st for st in walk_nodes(fn) if isinstance(st, ast.Assign) and
               len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and stores.count(st.targets[0].id) == 1
               and isinstance(st.value, ast.Name) and st.value.id not in local and
               inspect.isfunction(inspect.unwrap(getattr(env.get(st.value.id), "_pyfunc", None) or
                                                 env.get(st.value.id)))}
    folded = False
    for node in walk_nodes(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript)):
            continue
        table = node.func.value
        names = [aliases[e.id].value.id if isinstance(e, ast.Name) and e.id in aliases else
                 getattr(e, "id", None) for e in getattr(table, "elts", ())]
        if isinstance(table, ast.Tuple) and all(n is not None and n not in local and n in env for n in names):
            ok, value = True, tuple(env[n] for n in names)   # (a local tuple of helpers, written out where read)
        elif _root_name(table) in local or not isinstance(table, (ast.Name, ast.Attribute)):
            continue
        else:
            ok, value = _static_value(table, env)
        k = _table_index(node.func.slice, env, local, constants)
        if not ok or not isinstance(value, tuple) or k is None or not -len(value) <= k < len(value):
            continue
        func = value[k]
        py = inspect.unwrap(getattr(func, "_pyfunc", None) or func)
        name = getattr(py, "__name__", "")
        if not inspect.isfunction(py) or py.__module__.startswith("cuda.tile") or name in local or \
                env.get(name) is not func:
            continue
        node.func = _mark(ast.copy_location(ast.Name(name, ast.Load()), node.func))
        folded = True
    if folded:   # the aliases nothing reads now: dropped (a function bound to a name is no value to emit)
        read = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        dead = {id(st) for name, st in aliases.items() if name not in read}
        holders = [(node, field) for node in walk_nodes(fn) for field in ("body", "orelse")
                   if isinstance(getattr(node, field, None), list)]
        for node, field in holders:
            block = getattr(node, field)
            if any(id(st) in dead for st in block):
                setattr(node, field, [st for st in block if id(st) not in dead] or [ast.Pass()])


def _called_helpers(fn: ast.FunctionDef, env: dict[str, Any], local: set[str]) -> dict[str, Any]:
    """Names called in ``fn`` that resolve to plain Python functions (helpers, decorated or not) of the user's."""
    found: dict[str, Any] = {}
    # a function passed as an argument (`apply(t, silu)`) is a helper too (rewrite helper-function-argument)
    # (in a tuple passed, too: `apply_all(t, (silu, gelu))`, rewrite helper-tuple-argument)
    args = [a for node in walk_nodes(fn) if isinstance(node, ast.Call) for a in
            (*node.args, *(k.value for k in node.keywords))]
    passed = [a for a in [*args, *(e for t in args if isinstance(t, ast.Tuple) for e in t.elts)]
              if isinstance(a, ast.Name) and a.id not in local]
    for node in [*walk_nodes(fn), *passed]:
        if isinstance(node, ast.Name) and node in passed:
            node = ast.Call(node, [], [])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in local:
            value = env.get(node.func.id)
            py = inspect.unwrap(getattr(value, "_pyfunc", None) or value)   # @ct.function wraps the function
            if inspect.isfunction(py) and not py.__module__.startswith("cuda.tile") and \
                    not type(value).__name__ == "kernel":
                found[node.func.id] = py
    return found


def _attribute_helpers(fn: ast.FunctionDef, env: dict[str, Any], local: set[str]) -> dict[str, Any]:
    """Calls of a user's function reached through attributes of a module global (rewrite helper-attribute): a
    `@staticmethod` (`Acts.silu(v)`), a module's function (`utils.rms(x)`). Each call's ``func`` becomes a name
    (`Acts_silu`) that no name of the kernel or its module uses; returns those names and their functions."""
    found: dict[str, Any] = {}
    named: dict[int, str] = {}
    taken = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)} | set(env) | local
    for node in walk_nodes(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        path, root = [], node.func
        while isinstance(root, ast.Attribute):
            path.append(root.attr)
            root = root.value
        if not isinstance(root, ast.Name) or root.id in local or root.id not in env or root.id == "ct":
            continue
        value = env[root.id]
        if getattr(value, "__name__", "").startswith("cuda.tile") or \
                getattr(value, "__module__", "") and str(getattr(value, "__module__", "")).startswith("cuda.tile"):
            continue
        try:
            for attr in reversed(path):
                value = inspect.getattr_static(value, attr) if inspect.isclass(value) else getattr(value, attr)
                if isinstance(value, staticmethod):
                    value = value.__func__
        except Exception:   # (a placeholder of an absent package, a property: not a helper)
            continue
        py = inspect.unwrap(getattr(value, "_pyfunc", None) or value)
        if not inspect.isfunction(py) or py.__module__.startswith("cuda.tile") or type(value).__name__ == "kernel":
            continue
        key = id(py)
        if key not in named:
            base = "_".join([root.id, *reversed(path)])
            name = fresh_name(base, taken, "_k")
            named[key] = name
            found[name] = py
        node.func = _mark(ast.copy_location(ast.Name(named[key], ast.Load()), node.func))
    return found


def _scope(pyfunc: Any) -> dict[str, Any]:
    """The names a function reads from outside it: its module's globals, and the variables it closes over (a kernel
    a factory made, `def make(kind): @ct.kernel def k(..): .. kind ..`), as cuTile Python reads them."""
    try:
        nonlocals = inspect.getclosurevars(pyfunc).nonlocals
    except (TypeError, ValueError):
        nonlocals = {}
    return {**pyfunc.__globals__, **nonlocals} if nonlocals else pyfunc.__globals__


def resolve(fn: ast.FunctionDef, pyfunc: Any, constants: dict[str, Any] | None = None) \
        -> tuple[ast.FunctionDef, dict[str, ResolvedHelper]]:
    """The kernel ``fn`` (an AST of ``pyfunc``'s source) resolved against ``pyfunc.__globals__``, and every helper it
    calls (transitively), each resolved against its own module's globals. Helper names are the names the caller
    uses; a helper called under two names by different callers keeps each. ``constants``: the kernel's
    `ct.Constant` values of the specialization (what a tuple comprehension's static_iter may count)."""
    fn = copy.deepcopy(fn)
    helpers: dict[str, ResolvedHelper] = {}
    file = Path(inspect.getsourcefile(pyfunc) or "").resolve()
    _expand_tuple_comprehensions(fn, _scope(pyfunc), constants or {})
    _resolve_into(fn, _scope(pyfunc), helpers, (file, file.read_text() if file.is_file() else ""), constants)
    _specialize_variadic(fn, helpers)
    _specialize_keywords(fn, helpers)
    _unwrap_single_results(fn, helpers)
    for f in [fn, *(h.fn for h in helpers.values())]:
        _bind_helper_arguments(f, helpers)
    _specialize_function_arguments(fn, helpers)
    for f in [fn, *(h.fn for h in helpers.values())]:   # (a call through a function parameter, `f(t, *extra)`
        _bind_helper_arguments(f, helpers)             # made `_axpy(t, extra_0)`: its defaults filled in now)
    _specialize_literal_returns(fn, helpers)
    _specialize_parameter_tuples(fn, helpers)
    _flatten_nested_returns(fn, helpers)
    for f in [fn, *(h.fn for h in helpers.values())]:
        _split_result_names(f, helpers)
    for h in helpers.values():
        _loop_returns(h.fn)
    _kernel_loop_returns(fn)
    for f in [fn, *(h.fn for h in helpers.values())]:
        f.body = _single_return(f.body, f"{f.name.strip('_')}_result" if f is not fn else None)
    for h in helpers.values():
        _return_named_product(h.fn)
    for f in [fn, *(h.fn for h in helpers.values())]:
        _hoist_product_calls(f, helpers)
    for f in [fn, *(h.fn for h in list(helpers.values()))]:
        _split_product_results(f, helpers)
    _inline_statement_calls(fn, Path(inspect.getsourcefile(pyfunc) or "").resolve(), helpers)
    return fn, helpers


def helper_parameters(fn: ast.FunctionDef) -> tuple[list[str], int, int, dict[str, ast.expr], bool]:
    """A helper's parameters as Python binds them: (every name in order — positional-only, positional, keyword-only
    —, how many may be given by position, how many only by position, the defaults, whether it takes ``*args`` or
    ``**kw``). The first call records them on the node and flattens the definition to one positional parameter
    per name (calls are bound to that form here, so the emitter sees ``def f(a, b, c)`` and ``f(x, y, z)``)."""
    sig = getattr(fn, "tileport_parameters", None)
    if sig is None:
        a = fn.args
        pos = [p.arg for p in (*a.posonlyargs, *a.args)]
        defaults = dict(zip(pos[len(pos) - len(a.defaults):], a.defaults)) | \
            {p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None}
        sig = (pos + [p.arg for p in a.kwonlyargs], len(pos), len(a.posonlyargs), defaults,
               bool(a.vararg or a.kwarg))
        fn.tileport_parameters = sig
        if not sig[4] and (a.kwonlyargs or a.posonlyargs):
            a.args, a.posonlyargs, a.kwonlyargs, a.kw_defaults = [*a.posonlyargs, *a.args, *a.kwonlyargs], [], [], []
            a.defaults = []   # (kept in tileport_parameters; every call is completed from them)
    return sig


def _bind_helper_arguments(fn: ast.FunctionDef, helpers: dict[str, ResolvedHelper]) -> None:
    """Every call in ``fn`` to a helper, with keyword arguments or parameters left to their defaults, rewritten to
    one positional argument per parameter (as Python binds them). Calls Python would reject stay as written (the
    emitter refuses them)."""
    for node in walk_nodes(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers):
            continue
        params, positional, posonly, defaults, variadic = helper_parameters(helpers[node.func.id].fn)
        if variadic or any(isinstance(a, ast.Starred) for a in node.args) or \
                any(k.arg is None for k in node.keywords) or len(node.args) > positional or \
                (len(node.args) == len(params) and not node.keywords):
            continue
        given = dict(zip(params, node.args))
        for k in node.keywords:
            if k.arg in given or k.arg in params[:posonly]:
                break
            given[k.arg] = k.value
        else:
            if set(given) <= set(params) and set(params) - set(given) <= set(defaults):
                filled = []
                for p in params:
                    if p in given:
                        filled.append(given[p])
                        continue
                    value = copy.deepcopy(defaults[p])
                    for n in walk_nodes(value):
                        ast.copy_location(n, node)
                        _mark(n)
                    filled.append(value)
                node.args, node.keywords = filled, []
                _mark(node)


class _FoldFunctionNoneTests(ast.NodeTransformer):
    """In a helper's copy for functions passed as arguments: `post is None` / `post is not None` of a parameter a
    function was passed for is False / True, and a conditional expression on it is its arm (`return c if post is
    None else post(c)` returns `_sq(c)`), as cuTile Python folds the test on the function object — so a product the
    function returns is an operand the caller's sum contracts, as in the reference."""

    def __init__(self, params: set[str]):
        self.params = params

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            a, b = node.left, node.comparators[0]
            if isinstance(b, ast.Name) and isinstance(a, ast.Constant) and a.value is None:
                a, b = b, a
            if isinstance(a, ast.Name) and getattr(a, "tileport_function_of", None) in self.params and \
                    isinstance(b, ast.Constant) and b.value is None:
                return _mark(ast.copy_location(ast.Constant(isinstance(node.ops[0], ast.IsNot)), node))
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant) and isinstance(node.test.value, bool):
            return node.body if node.test.value else node.orelse
        return node


def _function_object(a: ast.AST) -> bool:
    """``a`` is a cuda.tile function (`ct.maximum`) or one of Python's operators (`operator.add`) passed as a
    value."""
    if getattr(a, "tileport_operator", None) is not None:
        return True
    return isinstance(a, ast.Attribute) and _is_ct(a.value) and inspect.isroutine(getattr(_ct(), a.attr, None))


def _function_label(a: ast.AST) -> str:
    return a.id if isinstance(a, ast.Name) else a.attr.strip("_")


class _CallThrough(ast.NodeTransformer):
    """In a helper's copy, calls through parameters bound to cuda.tile functions or Python's operators (``through``:
    parameter → the function's node): `op(a, b)` is `ct.maximum(a, b)` (canonical), `a + b` for `operator.add` or
    an operator-like cuda.tile function; another read of the parameter is the function's node."""

    def __init__(self, through: dict[str, ast.expr]):
        self.through = through

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)
        f = node.func
        if not (isinstance(f, ast.Attribute) and getattr(f, "tileport_through", False)):
            return node
        op = getattr(f, "tileport_operator", None)
        if op is None and _is_ct(f.value):
            op = OPERATOR_FUNCTIONS.get(f.attr) if len(node.args) == 2 else \
                UNARY_OPERATOR_FUNCTIONS.get(f.attr) if len(node.args) == 1 else None
        if op is not None and not node.keywords and (out := operator_call(op, node.args, node)) is not None:
            return out
        return _mark(canonical_call(node)) if _is_ct(f.value) else node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.through:
            out = _mark(ast.copy_location(copy.deepcopy(self.through[node.id]), node))
            out.tileport_through = True
            return out
        return node


def _specialize_function_arguments(fn: ast.FunctionDef, helpers: dict[str, ResolvedHelper]) -> None:
    """A helper called with another helper as an argument (`apply(t, silu)`, `def twice(v, f=leaky)`): a copy of
    the callee per function passed, the parameter replaced by that function's name and dropped from the
    parameters, and the call made to the copy (`apply__silu(t)`; rewrite helper-function-argument). cuTile Python
    binds the parameter to the function object and inlines the call through it; the copy's `f(v)` is then the
    same inlined call."""
    work = [fn, *(h.fn for h in helpers.values())]
    while work:
        f = work.pop()
        bound = _locals(f) if isinstance(f, ast.FunctionDef) else set()
        for node in list(walk_nodes(f)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers and
                    not node.keywords):
                continue
            callee = helpers[node.func.id]
            params = [a.arg for a in callee.fn.args.args]
            objects = {i: a for i, a in enumerate(node.args) if _function_object(a)}   # `ct.maximum`, `operator.add`
            passed = {i for i, a in enumerate(node.args) if isinstance(a, ast.Name) and a.id in helpers and
                      a.id not in bound} | set(objects)
            if not passed or len(params) != len(node.args) or callee.fn.args.vararg or callee.fn.args.kwarg:
                continue
            mapping = {params[i]: node.args[i].id for i in passed if i not in objects}
            through = {params[i]: a for i, a in objects.items()}
            if (mapping.keys() | through.keys()) & _locals_assigned(callee.fn):
                continue   # (a parameter re-bound in the helper: left to the emitter, which refuses it)
            name = f"{node.func.id}__{'_'.join(_function_label(node.args[i]) for i in sorted(passed))}"
            if name not in helpers:
                spec = copy.deepcopy(callee.fn)
                spec.name = name
                for n in walk_nodes(spec):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in mapping:
                        n.tileport_function_of = n.id
                        n.id = mapping[n.id]
                        _mark(n)
                if through:
                    spec = _CallThrough(through).visit(spec)
                spec = _FoldFunctionNoneTests(set(mapping) | set(through)).visit(spec)
                spec.args.args = [a for i, a in enumerate(spec.args.args) if i not in passed]
                spec.args.defaults = []   # (every call is bound to one positional argument per parameter)
                work.append(_add_copy(helpers, spec, callee))
            node.func.id = name
            node.args = [a for i, a in enumerate(node.args) if i not in passed]
            _mark(node)


def _literal_argument(node: ast.AST) -> bool:
    """A number, bool, None or string written out as an argument (`_scale(t, 3)`, `_scale(t, -0.5)`)."""
    return all(isinstance(n, (ast.Constant, ast.UnaryOp, ast.USub, ast.UAdd)) for n in walk_nodes(node)) and \
        isinstance(node, (ast.Constant, ast.UnaryOp))


def _specialize_literal_returns(fn: ast.FunctionDef, helpers: dict[str, ResolvedHelper]) -> None:
    """A helper returning a conditional expression on its parameters (`return t * k if k != 1 else t`), called with
    literals for every parameter the test reads (`_scale(t, 3)`): a copy per such call with those literals in place
    and the arm taken returned (`return t * 3`), rewrite helper-literal-return — cuTile Python inlines the call
    with k the constant 3 and folds the test, so the product is an operand its sums contract, as the copy's."""
    work = [fn, *(h.fn for h in helpers.values())]
    while work:
        f = work.pop()
        for node in list(walk_nodes(f)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers and
                    not node.keywords):
                continue
            callee = helpers[node.func.id]
            last = callee.fn.body[-1] if callee.fn.body else None
            params = [a.arg for a in callee.fn.args.args]
            if not (isinstance(last, ast.Return) and isinstance(last.value, ast.IfExp)) or \
                    callee.fn.args.vararg or callee.fn.args.kwarg or len(params) != len(node.args):
                continue
            tested = {n.id for n in walk_nodes(last.value.test) if isinstance(n, ast.Name)}
            literal = {p: a for p, a in zip(params, node.args) if p in tested and _literal_argument(a)}
            if not tested or set(literal) != tested or tested & _locals_assigned(callee.fn):
                continue
            test = _Substitute(literal).visit(copy.deepcopy(last.value.test))
            known, taken = _literal_truth(test)
            if not known:
                continue
            tag = "_".join(f"{p}_{ast.unparse(a)}" for p, a in literal.items())
            name = f"{node.func.id}__" + re.sub(r"\W", lambda m: {"-": "m", ".": "p"}.get(m.group(0), "_"), tag)
            if name not in helpers:
                spec = copy.deepcopy(callee.fn)
                spec.name = name
                spec = _Substitute(literal).visit(spec)
                ret = spec.body[-1]
                ret.value = ret.value.body if taken else ret.value.orelse
                spec.args.args = [a for a in spec.args.args if a.arg not in literal]
                spec.args.defaults = []
                work.append(_add_copy(helpers, spec, callee))
            node.func.id = name
            node.args = [a for p, a in zip(params, node.args) if p not in literal]
            _mark(node)


def _locals_assigned(fn: ast.FunctionDef) -> set[str]:
    """The names ``fn``'s body binds (its parameters not counted)."""
    return {n.id for st in fn.body for n in walk_nodes(st) if isinstance(n, ast.Name) and
            isinstance(n.ctx, (ast.Store, ast.Del))}


def _return_named_product(fn: ast.FunctionDef) -> None:
    """A helper ending `out = a * k; return out`, `out` bound there alone and read by the return alone: `return a *
    k` (rewrite helper-named-product) — the same value, and the helper then returns its product as written, which a
    sum in its caller contracts as cuTile Python contracts it after inlining (helper-product-operand)."""
    if len(fn.body) < 2 or not isinstance(ret := fn.body[-1], ast.Return) or not isinstance(ret.value, ast.Name):
        return
    st, name = fn.body[-2], ret.value.id
    if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and
            st.targets[0].id == name and isinstance(st.value, ast.BinOp) and isinstance(st.value.op, ast.Mult)):
        return
    if sum(1 for n in walk_nodes(fn) if isinstance(n, ast.Name) and n.id == name) != 2 or \
            name in {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}:
        return
    ret.value = st.value
    _mark(ret)
    fn.body = [*fn.body[:-2], ret]


def _hoist_product_calls(fn: ast.FunctionDef, helpers: dict[str, ResolvedHelper]) -> None:
    """A call to a helper whose one `return` is a product (`return v * s`), as an operand of a sum (`scale(x) +
    b`, `ct.add(scale(x), b)`), bound to a name in a statement of its own just before (rewrite
    helper-product-operand). The helper must not write memory (moving its call before the statement's other
    operands then changes nothing)."""
    used = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)}

    def product_helper(node: ast.AST, chained: bool = False, depth: int = 0) -> ast.FunctionDef | None:
        """The helper ``node`` calls when its last statement returns a product (``chained``: or returns the call of
        such a helper, `return _inner(t)`) and it writes no memory."""
        h = helpers.get(node.func.id) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
        if h is None or not h.fn.body or depth > 8:
            return None
        last = h.fn.body[-1]
        writes = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
                     (n.func.attr in ("store", "scatter", "printf", "print", "assert_") or
                      n.func.attr.startswith("atomic_")) for n in walk_nodes(h.fn))
        if not isinstance(last, ast.Return) or writes:
            return None
        if isinstance(last.value, ast.BinOp) and isinstance(last.value.op, ast.Mult):
            return h.fn
        return h.fn if chained and product_helper(last.value, True, depth + 1) is not None else None

    def factors_helper(call: ast.Call) -> str:
        """A copy of the helper ``call`` calls returning its product's two factors (through the chain of helpers
        returning a helper's product, each copy returning the next's): its name."""
        h = helpers[call.func.id]
        name = f"{call.func.id}__factors"
        if name not in helpers:
            spec = copy.deepcopy(h.fn)
            spec.name = name
            ret = spec.body[-1]
            if isinstance(ret.value, ast.BinOp):
                ret.value = _mark(ast.copy_location(ast.Tuple([ret.value.left, ret.value.right], ast.Load()),
                                                    ret.value))
            else:
                ret.value.func.id = factors_helper(ret.value)
                _mark(ret.value)
            _add_copy(helpers, spec, h)
        return name

    def tuple_helper(node: ast.AST) -> int | None:
        """`pair(t)[k]` (k a literal) of a helper returning a tuple with a product: the tuple's width."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and
                type(node.slice.value) is int and node.slice.value >= 0):
            return None
        ret = _product_results(node.value, helpers)
        return None if ret is None or node.slice.value >= len(ret) else len(ret)

    # names bound once and read as an operand of a sum (`u + t`): where a chain's product bound to one may contract
    stores = collections.Counter(n.id for n in walk_nodes(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    summed = {o.id for n in walk_nodes(fn) if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub))
              for o in (n.left, n.right) if isinstance(o, ast.Name) and stores[o.id] == 1}

    def hoist(stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for st in stmts:
            for field in ("body", "orelse"):
                if isinstance(st, (ast.If, ast.For, ast.While, ast.With)) and hasattr(st, field):
                    setattr(st, field, hoist(getattr(st, field)))
            if isinstance(st, (ast.If, ast.For, ast.While, ast.With)):
                out.append(st)   # (its test or iterator: left as written)
                continue
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                    st.targets[0].id in summed and \
                    product_helper(st.value) is None and product_helper(st.value, chained=True) is not None:
                # `u = _outer(t)` of `return _inner(c)`, `_inner` returning a product, and `u` summed later: the
                # factors returned through the chain and the product made here, as a one-level helper's is
                # inlined (its sum then contracts with it, as cuTile Python's does)
                base = st.targets[0].id
                names = [fresh_name(f"{base}_{suffix}", used) for suffix in ("l", "r")]
                call = copy.copy(st.value)
                call.func = ast.copy_location(ast.Name(factors_helper(st.value), ast.Load()), st.value.func)
                target = ast.Tuple([ast.Name(v, ast.Store()) for v in names], ast.Store())
                out.append(_mark(ast.copy_location(ast.Assign([target], _mark(call)), st)))
                prod = ast.BinOp(ast.Name(names[0], ast.Load()), ast.Mult(), ast.Name(names[1], ast.Load()))
                st.value = _mark(ast.copy_location(prod, st.value))
                _mark(st)
                out.append(st)
                continue
            for node in walk_nodes(st):
                if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
                    slots = [("left", node), ("right", node)]
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                        node.func.attr in ("add", "sub") and _is_ct(node.func.value) and len(node.args) == 2:
                    slots = [(0, node.args), (1, node.args)]
                else:
                    continue
                for key, holder in slots:
                    operand = getattr(holder, key) if isinstance(key, str) else holder[key]
                    if (width := tuple_helper(operand)) is not None:   # `pair(t)[0] - ..`: the results unpacked
                        # just before, one name each (then split_product_results), the element read by name
                        names = [fresh_name(f"{operand.value.func.id.strip('_')}_r", used) for _ in range(width)]
                        target = ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store())
                        out.append(_mark(ast.copy_location(ast.Assign([target], operand.value), st)))
                        ref = _mark(ast.copy_location(ast.Name(names[operand.slice.value], ast.Load()), operand))
                        if isinstance(key, str):
                            setattr(holder, key, ref)
                        else:
                            holder[key] = ref
                        continue
                    h = product_helper(operand)
                    if h is None and product_helper(operand, chained=True) is not None:
                        # `_middle(t) + 1.0` of `return _inner(t)`, `_inner` returning a product: cuTile Python
                        # inlines both, then contracts the sum; the factors are returned through the chain and the
                        # product made here (`middle_value = middle_l * middle_r`), where the fma reads it
                        base = operand.func.id.strip('_')
                        names = [fresh_name(f"{base}_{suffix}", used) for suffix in ("value", "l", "r")]
                        call = copy.copy(operand)
                        call.func = ast.copy_location(ast.Name(factors_helper(operand), ast.Load()), operand.func)
                        target = ast.Tuple([ast.Name(names[1], ast.Store()), ast.Name(names[2], ast.Store())],
                                           ast.Store())
                        out.append(_mark(ast.copy_location(ast.Assign([target], _mark(call)), st)))
                        prod = ast.BinOp(ast.Name(names[1], ast.Load()), ast.Mult(), ast.Name(names[2], ast.Load()))
                        out.append(_mark(ast.copy_location(ast.Assign([ast.Name(names[0], ast.Store())],
                                                                      ast.copy_location(prod, operand)), st)))
                        ref = _mark(ast.copy_location(ast.Name(names[0], ast.Load()), operand))
                        if isinstance(key, str):
                            setattr(holder, key, ref)
                        else:
                            holder[key] = ref
                        continue
                    if h is None:
                        continue
                    name = fresh_name(f"{h.name.strip('_')}_value", used)
                    out.append(_mark(ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], operand), st)))
                    ref = _mark(ast.copy_location(ast.Name(name, ast.Load()), operand))
                    if isinstance(key, str):
                        setattr(holder, key, ref)
                    else:
                        holder[key] = ref
            out.append(st)
        ast.fix_missing_locations(ast.Module(out, []))
        return out

    fn.body = hoist(fn.body)


def _is_product(e: ast.AST) -> bool:
    return isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult)


def _product_results(call: ast.AST, helpers: dict[str, ResolvedHelper]) -> list[ast.expr] | None:
    """The results of a helper call whose only `return`, its last statement, is a tuple holding a product, and that
    writes no memory; else None."""
    h = helpers.get(call.func.id) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) else None
    if h is None or not h.fn.body or not isinstance(h.fn.body[-1], ast.Return) or \
            not isinstance(h.fn.body[-1].value, ast.Tuple) or \
            sum(isinstance(n, ast.Return) for n in walk_nodes(h.fn)) != 1 or \
            any(isinstance(e, ast.Starred) for e in h.fn.body[-1].value.elts):
        return None
    writes = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
                 (n.func.attr in ("store", "scatter", "printf", "print", "assert_") or n.func.attr.startswith("atomic_"))
                 for n in walk_nodes(h.fn))
    elts = h.fn.body[-1].value.elts
    return None if writes or not any(_is_product(e) for e in elts) else elts


def _split_product_results(fn: ast.FunctionDef, helpers: dict[str, ResolvedHelper]) -> None:
    """`a, b = pair(t)` of a helper returning a tuple with products (`return t * 2.0, t + 1.0`), a product result
    then an operand of a sum (`a + c`): a copy of the helper returning each such product's two factors in its place
    (`pair__factors`), the call unpacked into them and the product made after it (`a = a_l * a_r`; rewrite
    helper-product-operand). cuTile Python inlines the helper, then contracts the sum into an fma; the product
    bound to a name is the form whose fma the emitter matches (row fma)."""
    summed = set()
    for n in walk_nodes(fn):
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub)):
            summed |= {o.id for o in (n.left, n.right) if isinstance(o, ast.Name)}
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("add", "sub") and \
                _is_ct(n.func.value):
            summed |= {o.id for o in n.args if isinstance(o, ast.Name)}
    used = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)}
    for owner, part, block in statement_blocks(fn):
        out: list[ast.stmt] = []
        for st in block:
            out.append(st)
            if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Tuple) and
                    all(isinstance(t, ast.Name) for t in st.targets[0].elts)):
                continue
            elts = _product_results(st.value, helpers)
            targets = st.targets[0].elts
            if elts is None or len(elts) != len(targets):
                continue
            split = [k for k, (t, e) in enumerate(zip(targets, elts)) if _is_product(e) and t.id in summed]
            if not split:
                continue
            callee = helpers[st.value.func.id]
            name = f"{st.value.func.id}__factors{''.join(map(str, split))}"
            if name not in helpers:
                spec = copy.deepcopy(callee.fn)
                spec.name = name
                ret = spec.body[-1].value
                flat: list[ast.expr] = []
                for k, e in enumerate(ret.elts):
                    flat.extend([e.left, e.right] if k in split else [e])
                spec.body[-1].value = _mark(ast.copy_location(ast.Tuple(flat, ast.Load()), ret))
                if hasattr(spec, "tileport_parameters"):
                    del spec.tileport_parameters
                helpers[name] = ResolvedHelper(spec, callee.file, callee.src)
            new_targets, products = [], []
            for k, t in enumerate(targets):
                if k not in split:
                    new_targets.append(t)
                    continue
                pair = [fresh_name(f"{t.id}_{side}", used) for side in ("l", "r")]
                new_targets.extend(ast.copy_location(ast.Name(v, ast.Store()), t) for v in pair)
                prod = ast.BinOp(ast.Name(pair[0], ast.Load()), ast.Mult(), ast.Name(pair[1], ast.Load()))
                products.append(_mark(ast.copy_location(ast.Assign([ast.Name(t.id, ast.Store())],
                                                                   ast.copy_location(prod, t)), st)))
            st.targets = [_mark(ast.copy_location(ast.Tuple(new_targets, ast.Store()), st.targets[0]))]
            st.value.func.id = name
            _mark(st.value)
            out.extend(products)
        setattr(owner, part, out)
    ast.fix_missing_locations(fn)


def _ends_in_return(stmts: list[ast.stmt]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], ast.Return)


def _loop_returns(fn: ast.FunctionDef) -> None:
    """A helper's `for` loop returning from inside it (`for k in range(n): if c: return k`, then `return n`):
    rewritten to the flags cuTile Python carries through the loop (rewrite loop-return), so the one final `return`
    of _single_return can follow. Applies to one top-level `for` (no `else`, no `break`, no nested loop, no memory
    access or helper call) whose one `return` is the last statement of an `if` without `else` directly in its body,
    returning a literal (placeholder 0, 0.0 or False, as cuTile Python starts the carried value) or the loop index
    (0)."""
    loops = [i for i, st in enumerate(fn.body) if any(isinstance(n, ast.Return) for n in walk_nodes(st))
             and not isinstance(st, (ast.Return, ast.If))]
    if len(loops) != 1 or not isinstance(fn.body[loops[0]], ast.For):
        return
    i = loops[0]
    loop = fn.body[i]
    if loop.orelse or not isinstance(loop.target, ast.Name) or any(
            isinstance(n, (ast.Break, ast.While, ast.For, ast.AsyncFor)) for b in loop.body for n in walk_nodes(b)):
        return
    # a loop that touches memory (`ct.gather` in it) stays inside cuTile Python's one-trip `loop` (a pure one is
    # hoisted out of it, the form irdiff's single-trip-loop-if takes): not rewritten (the emitter refuses it), as is
    # a call of anything but a pure cuda.tile function (a helper may touch memory)
    memory = ("load", "store", "gather", "scatter", "printf", "print", "assert_", "load_advanced_indexing",
              "store_advanced_indexing")
    for n in (n for b in loop.body for n in walk_nodes(b) if isinstance(n, ast.Call)):
        func = n.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "ct") or \
                func.attr in memory or func.attr.startswith("atomic"):
            return
    if not fn.body[i + 1:] or not isinstance(fn.body[-1], ast.Return) or fn.body[-1].value is None:
        return
    sites = [k for k, st in enumerate(loop.body) if isinstance(st, ast.If) and not st.orelse and st.body and
             isinstance(st.body[-1], ast.Return) and st.body[-1].value is not None and
             not any(isinstance(n, ast.Return) for b in st.body[:-1] for n in walk_nodes(b))]
    returns = [n for b in loop.body for n in walk_nodes(b) if isinstance(n, ast.Return)]
    if len(sites) != 1 or len(returns) != 1:
        return
    site = loop.body[sites[0]]
    value = site.body[-1].value
    if isinstance(value, ast.Name) and value.id == loop.target.id:
        start: object = 0
    elif isinstance(value, ast.Constant) and type(value.value) in (bool, int, float):
        start = type(value.value)(0)
    else:
        return
    taken = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)}
    base = fn.name.strip("_") or "ret"
    while any(f"{base}_ret{k}" in taken for k in (1, 2, 3)):
        base += "_"
    returned, result, done = (f"{base}_ret{k}" for k in (1, 2, 3))   # (cuTile Python carries them in this order)

    def at(node: ast.AST, text: str) -> ast.stmt:
        st = ast.parse(text).body[0]
        for n in walk_nodes(st):
            ast.copy_location(n, node)
        return _mark(st)

    value_set = _mark(ast.copy_location(ast.Assign([ast.Name(result, ast.Store())], value), site.body[-1]))
    site.body = site.body[:-1] + [at(site.body[-1], f"{returned} = True"), value_set,
                                  at(site.body[-1], f"{done} = True"), at(site.body[-1], "continue")]
    loop.body = [at(loop, f"if {done}:\n    continue"), *loop.body]
    after = _mark(ast.copy_location(ast.If(ast.copy_location(ast.Name(returned, ast.Load()), loop),
                                           [_mark(ast.copy_location(ast.Return(ast.copy_location(
                                               ast.Name(result, ast.Load()), loop)), loop))], []), loop))
    fn.body = [*fn.body[:i], at(loop, f"{returned} = False"), at(loop, f"{result} = {start!r}"),
               at(loop, f"{done} = False"), loop, after, *fn.body[i + 1:]]
    ast.fix_missing_locations(fn)


def _kernel_loop_returns(fn: ast.FunctionDef) -> None:
    """A kernel's bare `return` inside a `for` loop (`for j in range(n): .. if c: ct.store(..); return`, then
    more after the loop): cuTile Python's for_loop_return pass gives the loop one more carried bool, False on
    entry, turns the `return` into a `break` handing on True (other `break`s / `continue`s hand on the flag as it
    is) and follows the loop by `if flag: return`. Written here as that Python (rewrite kernel-loop-return): a
    flag set False before the loop, `flag = True; break` for each `return`, `if flag: return` after it, which
    _single_return then folds with the statements after it. Loops nested in such a `for` (a `for` or a `while`)
    are rewritten first, as the pass lowers inner loops first, so their `if flag: return` is a return of the outer
    loop; a top-level `while` (the pass leaves it) and a `ct.static_iter` loop (unrolled, no loop) are left."""
    taken = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)} | \
        {a.arg for a in walk_nodes(fn) if isinstance(a, ast.arg)}

    def bare(st: ast.stmt) -> bool:
        return isinstance(st, ast.Return) and (st.value is None or
                                               isinstance(st.value, ast.Constant) and st.value.value is None)

    def static_loop(st: ast.stmt) -> bool:
        return isinstance(st, ast.For) and isinstance(st.iter, ast.Call) and \
            isinstance(st.iter.func, (ast.Attribute, ast.Name)) and \
            (st.iter.func.attr if isinstance(st.iter.func, ast.Attribute) else st.iter.func.id) == "static_iter"

    def returns(stmts: list[ast.stmt]) -> bool:
        return any(isinstance(n, ast.Return) for b in stmts for n in walk_nodes(b))

    def at(node: ast.AST, text: str) -> ast.stmt:
        st = ast.parse(text).body[0]
        for n in walk_nodes(st):
            ast.copy_location(n, node)
        return _mark(st)

    def lower(st: ast.stmt) -> list[ast.stmt]:
        """A loop with a bare `return` in its body: [flag = False, the loop, if flag: return]."""
        st.body = walk(st.body, True)
        flag = fresh_name(f"{fn.name.strip('_') or 'kernel'}_returned", taken, "_k")

        def replace(stmts: list[ast.stmt]) -> list[ast.stmt]:
            out: list[ast.stmt] = []
            for b in stmts:
                if bare(b):
                    out += [at(b, f"{flag} = True"), at(b, "break")]
                elif isinstance(b, ast.If):
                    b.body, b.orelse = replace(b.body), replace(b.orelse)
                    out.append(b)
                else:
                    out.append(b)
            return out
        st.body = replace(st.body)
        return [at(st, f"{flag} = False"), st, at(st, f"if {flag}:\n    return")]

    def walk(stmts: list[ast.stmt], in_for: bool) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for st in stmts:
            loop = isinstance(st, (ast.For, ast.While)) and not static_loop(st) and not st.orelse
            if loop and (isinstance(st, ast.For) or in_for) and returns(st.body) and \
                    all(bare(n) for b in st.body for n in walk_nodes(b) if isinstance(n, ast.Return)):
                out += lower(st)
                continue
            if isinstance(st, ast.If):
                st.body, st.orelse = walk(st.body, in_for), walk(st.orelse, in_for)
            elif isinstance(st, (ast.For, ast.While)) and not static_loop(st):
                st.body = walk(st.body, in_for or isinstance(st, ast.For))
            out.append(st)
        return out

    if returns([st for st in fn.body if isinstance(st, (ast.For, ast.While, ast.If))]):
        fn.body = walk(fn.body, False)
        ast.fix_missing_locations(fn)


def _single_return(stmts: list[ast.stmt], result: str | None) -> list[ast.stmt]:
    """``stmts`` (a function's body) with its `return`s inside `if` arms folded into one final `return`: the
    statements after an `if` that returns in an arm join the other arm, and each arm's `return X` binds ``result``
    (a helper's) or ends the arm (a kernel's bare `return`, ``result`` None). Bodies with a `return` in a loop, or a
    path that would not return what the others do, stay as written (the emitter refuses them)."""
    def returns_in(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Return) for n in walk_nodes(node))

    for i, st in enumerate(stmts):
        if not isinstance(st, ast.If) or not returns_in(st):
            if returns_in(st) and not isinstance(st, ast.Return):
                return stmts   # (a return inside a loop)
            continue
        rest = stmts[i + 1:]
        arms = []
        for arm in (st.body, st.orelse):
            path = _single_return(arm if _ends_in_return(arm) else arm + copy.deepcopy(rest), result)
            last = path[-1] if _ends_in_return(path) else None
            if result is not None and (last is None or last.value is None):
                return stmts   # a path of the helper that returns nothing
            if result is None and last is not None and last.value is not None:
                return stmts
            if last is not None:
                path = path[:-1]
                if result is not None:
                    path.append(_mark(ast.copy_location(ast.Assign([ast.Name(result, ast.Store())], last.value),
                                                        last)))
            if any(returns_in(b) for b in path):
                return stmts
            arms.append(path or [_mark(ast.copy_location(ast.Pass(), st))])
        new_if = _mark(ast.copy_location(ast.If(st.test, arms[0], arms[1]), st))
        new_if.early_return = "helper" if result is not None else "kernel"   # (read by the emitter: coverage
        # row early-return)
        out = stmts[:i] + [new_if]
        if result is not None:
            out.append(_mark(ast.copy_location(ast.Return(ast.Name(result, ast.Load())), stmts[-1])))
        ast.fix_missing_locations(ast.Module(out, []))
        return out
    return stmts


def _writes_memory(fn: ast.FunctionDef) -> bool:
    """Whether ``fn`` stores, scatters or updates memory atomically itself (a call `ct.store(..)`, `.store(..)`)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
               (n.func.attr in ("store", "scatter") or n.func.attr.startswith("atomic_")) for n in walk_nodes(fn))


def _single_final_return(fn: ast.FunctionDef) -> bool:
    """Whether ``fn``'s only `return` is its last statement, returning a value."""
    returns = [n for n in walk_nodes(fn) if isinstance(n, ast.Return)]
    return bool(fn.body) and len(returns) == 1 and returns[0] is fn.body[-1] and returns[0].value is not None


def _returns_nothing(fn: ast.FunctionDef) -> bool:
    return not any(isinstance(n, ast.Return) and n.value is not None for n in walk_nodes(fn)) and \
        not any(isinstance(n, ast.Return) for st in fn.body[:-1] for n in walk_nodes(st)) and \
        not any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Nonlocal, ast.Global)) for n in walk_nodes(fn))


def _inline_statement_calls(fn: ast.FunctionDef, file: Path, helpers: dict[str, ResolvedHelper],
                            depth: int = 0) -> None:
    """A helper of the kernel's own file called as a statement (it returns nothing: it loads and stores, as
    TileGym's ``fmha_kernel_impl(Q, K, V, Out, ...)``) is inlined here, at the AST: its parameters become the
    arguments (arrays included) and its statements take the call's place, keeping their own source positions, as
    cuTile Python inlines it. Its local names that the caller also uses get the helper's name as a suffix."""
    caller_names = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)}

    def expand(stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for st in stmts:
            for field in ("body", "orelse"):
                if isinstance(st, (ast.If, ast.For, ast.While, ast.With)) and hasattr(st, field):
                    setattr(st, field, expand(getattr(st, field)))
            call = st.value if isinstance(st, (ast.Expr, ast.Assign)) and isinstance(st.value, ast.Call) else None
            h = helpers.get(call.func.id) if call is not None and isinstance(call.func, ast.Name) else None
            # (a helper that writes memory and returns a value at its end, `tot = _store_and_sum(y, t, pid)`: its
            # statements here too, then the target bound to what it returns — its stores are the kernel's)
            valued = h is not None and isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                _writes_memory(h.fn) and _single_final_return(h.fn)
            if h is None or h.file != file or not (valued or isinstance(st, ast.Expr) and _returns_nothing(h.fn)) \
                    or depth > 8 or any(isinstance(a, ast.Starred) for a in call.args) or \
                    any(k.arg is None for k in call.keywords):
                out.append(st)
                continue
            params, positional, posonly, defaults, variadic = helper_parameters(h.fn)
            given = dict(zip(params, call.args)) | {k.arg: k.value for k in call.keywords}
            if set(given) - set(params) or set(params) - set(given) - set(defaults) or variadic or \
                    len(call.args) > positional or any(k.arg in params[:posonly] for k in call.keywords):
                out.append(st)
                continue
            body = copy.deepcopy([b for b in h.fn.body
                                  if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))])
            result = None
            if body and isinstance(body[-1], ast.Return):
                if valued:   # the target bound to the returned value, after the helper's statements
                    result = ast.copy_location(ast.Assign(st.targets, body[-1].value), body[-1])
                    body[-1] = result
                else:
                    body = body[:-1]
            local = {n.id for b in body if b is not result for n in walk_nodes(b) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Store)} - set(params)
            rename = {n: f"{n}_{h.fn.name.strip('_')}" for n in local if n in caller_names}
            subst: dict[str, ast.expr] = {}
            for p in params:
                arg = given.get(p, defaults.get(p))
                if isinstance(arg, (ast.Name, ast.Constant)) or _is_static_spelling(arg) or \
                        isinstance(arg, (ast.Tuple, ast.List)) and all(
                            isinstance(e, (ast.Name, ast.Constant)) or _is_static_spelling(e) for e in arg.elts):
                    subst[p] = arg   # (a tuple of names and constants, `(pid, 0)`: the tuple itself, an index)
                else:   # evaluated once, where the call was
                    tmp = f"{p}_{h.fn.name.strip('_')}"
                    assign = _mark(ast.copy_location(ast.Assign([ast.Name(tmp, ast.Store())], arg), st))
                    ast.fix_missing_locations(assign)
                    out.append(assign)
                    subst[p] = ast.Name(tmp, ast.Load())

            class Sub(ast.NodeTransformer):
                def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
                    self.generic_visit(node)
                    return unwrap_index(node)

                def visit_Name(self, node: ast.Name) -> ast.AST:
                    if node.id in subst and isinstance(node.ctx, ast.Load):
                        new = copy.deepcopy(subst[node.id])
                        for n in walk_nodes(new):
                            ast.copy_location(n, node)
                            _mark(n)
                        return new
                    if node.id in rename:
                        node.id = rename[node.id]
                    return node

            body = [Sub().visit(b) if b is not result else
                    _mark(ast.copy_location(ast.Assign(b.targets, Sub().visit(b.value)), b)) for b in body]
            ast.fix_missing_locations(ast.Module(body, []))
            inner = ast.FunctionDef(h.fn.name, h.fn.args, body, [], None, lineno=h.fn.lineno, col_offset=0)
            _inline_statement_calls(inner, file, helpers, depth + 1)
            out.extend(inner.body)
        return out

    fn.body = expand(fn.body)


def _inline_tuple_names(fn: ast.FunctionDef, env: dict[str, Any] | None = None,
                        constants: dict[str, Any] | None = None) -> None:
    """A name bound once, in a top-level statement, to a tuple of plain values (`idx = (pid, 0)`, `shape = (BM,
    BN)`: names bound at most once, literals, arithmetic of them, `ct.bid`/`ct.num_blocks`, `x.shape[k]`) is that
    tuple wherever it is read (rewrite tuple-name): cuTile Python passes the tuple itself; the copies compute the
    same values."""
    stores: dict[str, int] = {}
    for n in walk_nodes(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            stores[n.id] = stores.get(n.id, 0) + 1
    for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
        stores[a.arg] = stores.get(a.arg, 0) + 1

    def plain(e: ast.AST) -> bool:
        if isinstance(e, ast.Constant):
            return True
        if isinstance(e, ast.Name):
            return stores.get(e.id, 0) <= 1
        if isinstance(e, ast.BinOp):
            return plain(e.left) and plain(e.right)
        if isinstance(e, ast.UnaryOp):
            return plain(e.operand)
        if isinstance(e, ast.Call):
            return isinstance(e.func, ast.Attribute) and e.func.attr in ("bid", "num_blocks") and \
                all(isinstance(a, ast.Constant) for a in e.args) and not e.keywords
        if isinstance(e, ast.Subscript):
            return isinstance(e.value, ast.Attribute) and e.value.attr == "shape" and plain(e.value.value) and \
                isinstance(e.slice, (ast.Constant, ast.UnaryOp))
        if isinstance(e, ast.Starred):   # `(*t.shape[:-1], B)`: a tile's extents, which the emitter knows
            v = e.value.value if isinstance(e.value, ast.Subscript) and isinstance(e.value.slice, ast.Slice) else \
                e.value
            return isinstance(v, ast.Attribute) and v.attr == "shape" and plain(v.value)
        if isinstance(e, ast.Tuple):   # `args = (idx, (B,))`: a tuple of such tuples
            return all(plain(x) for x in e.elts)
        return False

    def literal(e: ast.AST) -> bool:
        return isinstance(e, ast.Constant) and type(e.value) in (int, float, bool) or \
            isinstance(e, ast.Tuple) and bool(e.elts) and all(literal(x) for x in e.elts)

    def constant(e: ast.AST) -> bool:   # `(1, 2, 64)`, `((1, 2), 3)`: a tuple of literals alone, copied freely
        return isinstance(e, ast.Tuple) and literal(e)

    def extents(e: ast.AST) -> bool:   # `dims = x.shape` / `st = x.strides` of an array or a tile bound once
        return isinstance(e, ast.Attribute) and e.attr in ("shape", "strides") and isinstance(e.value, ast.Name) \
            and stores.get(e.value.id, 0) <= 1

    # (a tuple read by element, `pair[0]`, is split into names instead: copies of it would compute each element
    # again, and a tuple indexed in place is no form the emitter takes)
    subscripted = {n.value.id for n in walk_nodes(fn) if isinstance(n, ast.Subscript) and
                   isinstance(n.value, ast.Name) and isinstance(n.ctx, ast.Load)}
    tuples = {}
    for st in fn.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                stores.get(st.targets[0].id) == 1 and isinstance(st.value, ast.Name) and \
                not stores.get(st.value.id) and env is not None and \
                isinstance(module_tuple := _static_value(st.value, env)[1], tuple) and \
                (spelled := static_node(module_tuple, st.value)) is not None:
            st.value = spelled   # `tile_shape = TILE` of a module tuple of numbers: that tuple, as above
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                stores.get(st.targets[0].id) == 1 and isinstance(st.value, ast.Subscript) and \
                isinstance(st.value.value, ast.Name) and not stores.get(st.value.value.id) and env is not None and \
                isinstance(table := _static_value(st.value.value, env)[1], tuple) and \
                isinstance(k := _table_index(st.value.slice, env, set(stores), constants or {}), int) and \
                -len(table) <= k < len(table) and isinstance(table[k], tuple) and \
                (spelled := static_node(table[k], st.value)) is not None:
            st.value = spelled   # `SHAPE = SHAPES[K]` of a module tuple of tuples and a constant K: that tuple
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                stores.get(st.targets[0].id) == 1 and (
                    isinstance(st.value, ast.Tuple) and st.value.elts and all(plain(e) for e in st.value.elts) and
                    st.targets[0].id not in subscripted or constant(st.value) or extents(st.value)):
            # (a tuple of literals, or an array's extents, is copied where it is read by element too: `SHAPE[-1]`
            # of `SHAPE = (1, 2, 64)` is folded to 64, `dims[0]` of `dims = x.shape` is `x.shape[0]`)
            tuples[st.targets[0].id] = st
    _split_tuple_names(fn, stores, set(tuples))
    if not tuples:
        return

    class Inline(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in tuples and isinstance(node.ctx, ast.Load):
                new = copy.deepcopy(tuples[node.id].value)
                for n in walk_nodes(new):
                    _mark(n)
                return self.visit(new)   # (`args = (idx, (B,))` of `idx = (pid,)`: the inner name read too)
            return node

    fn.body = [_FoldTuples().visit(Inline().visit(st)) for st in fn.body
               if not any(st is t for t in tuples.values())]
    ast.fix_missing_locations(fn)


def _split_tuple_names(fn: ast.FunctionDef, stores: dict[str, int], inlined: set[str]) -> None:
    """A name bound only to tuples of one length that are not all plain (`pair = (t, t + 1.0)`, tiles) — re-bound
    too, in a loop or a branch (`state = (m, l)` then `state = step(state, blk)`, a helper returning that many
    values): one name per element (`pair_0`, `pair_1`), each binding made one per element — a single binding in
    order where the tuple was, a later one as the tuple assignment `pair_0, pair_1 = ..` —, `pair[k]` (k a literal)
    read as `pair_k` and any other read as the tuple of those names (rewrite tuple-name-elements). cuTile Python
    computes the elements where the tuple is made and carries each through loops and branches; a tuple is no value
    of its own in Tile IR."""
    taken = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)} | {a.arg for a in fn.args.args}
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    bindings: dict[str, list[ast.Assign]] = {}
    for _owner, _part, block in statement_blocks(fn):
        for st in block:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                bindings.setdefault(st.targets[0].id, []).append(st)
    def nesting(e: ast.AST) -> object:   # `((a, b), c)` → ((None, None), None); None: no tuple written out
        return tuple(nesting(x) for x in e.elts) if isinstance(e, ast.Tuple) and \
            not any(isinstance(x, ast.Starred) for x in e.elts) else None

    def merged(a: object, b: object) -> object:   # two bindings' nestings: a part that differs in width is one value
        if a is None or b is None:
            return a if b is None else b
        return tuple(merged(x, y) for x, y in zip(a, b)) if len(a) == len(b) else None

    def tuple_arms(e: ast.expr) -> list[ast.Tuple] | None:   # `(a, b)`, `(a, b) if c else (d, e)`: the tuples
        if isinstance(e, ast.Tuple):
            return [e]
        if isinstance(e, ast.IfExp) and isinstance(e.body, ast.Tuple):
            rest = tuple_arms(e.orelse)
            return None if rest is None else [e.body, *rest]
        return None

    shapes: dict[str, tuple] = {}
    for name, sts in bindings.items():
        arms = [a for st in sts for a in tuple_arms(st.value) or ()]
        tuples = {len(a.elts) for a in arms}
        if name in inlined or name in params or len(sts) != stores.get(name) or len(tuples) != 1 or \
                0 in tuples or any(isinstance(e, ast.Starred) for a in arms for e in a.elts) or \
                not all(tuple_arms(st.value) is not None or (len(sts) > 1 and isinstance(st.value, ast.Call) and
                                                             isinstance(st.value.func, ast.Name)) for st in sts):
            continue
        shape: object = None
        for a in arms:
            shape = merged(shape, nesting(a))
        shapes[name] = shape   # (a tuple nested in it is split too: `state = ((m, l), n)`, one name per leaf)

    def leaves(stem: str, shape: object) -> object:   # the names of a nesting's leaves, nested alike
        if shape is None:
            return fresh_name(stem, taken, "_")
        return tuple(leaves(f"{stem}_{k}", sub) for k, sub in enumerate(shape))

    def spelled(tree: object, ctx: ast.expr_context, where: ast.AST, outer: bool = True) -> ast.expr:
        # (a read marked rewritten as a whole, as a binding's target is not)
        node = ast.Name(tree, ctx) if isinstance(tree, str) else \
            ast.Tuple([spelled(t, ctx, where, False) for t in tree], ctx)
        node = ast.copy_location(node, where)
        return _mark(node) if outer and isinstance(ctx, ast.Load) else node

    def bound_once(tree: object, value: ast.expr, st: ast.stmt) -> list[ast.stmt]:   # in order, where it was
        if isinstance(tree, tuple) and isinstance(value, ast.Tuple):
            return [b for t, e in zip(tree, value.elts) for b in bound_once(t, e, st)]
        return [_mark(ast.copy_location(ast.Assign([spelled(tree, ast.Store(), value)], value), st))]

    split: dict[str, tuple] = {name: leaves(name, shape) for name, shape in shapes.items()}
    for owner, part, block in statement_blocks(fn):
        out: list[ast.stmt] = []
        for st in block:
            name = st.targets[0].id if isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                isinstance(st.targets[0], ast.Name) else None
            if name not in split:
                out.append(st)
            elif len(bindings[name]) == 1 and isinstance(st.value, ast.Tuple):   # made once: each element bound
                out.extend(bound_once(split[name], st.value, st))              # in order where the tuple was
            else:   # re-bound: all at once (`s_0, s_1 = s_1, s_0` reads the old values), or a helper's results, or
                # a conditional of tuples (`s_0, s_1 = (m, h) if c else (l, m)`: one `if`, tuple-conditional)
                target = spelled(split[name], ast.Store(), st.targets[0])
                out.append(_mark(ast.copy_location(ast.Assign([target], st.value), st)))
        setattr(owner, part, out)
    if not split:
        return

    def tree_of(node: ast.AST) -> object:   # `pair`, `pair[k]`, `state[0][1]` (literal k): the names' tree it reads
        if isinstance(node, ast.Name):
            return split.get(node.id)
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            tree = tree_of(node.value)
            try:
                k = ast.literal_eval(node.slice)
            except ValueError:
                k = None
            if isinstance(tree, tuple) and isinstance(k, int) and not isinstance(k, bool) and \
                    -len(tree) <= k < len(tree):
                return tree[k]
        return None

    class Read(ast.NodeTransformer):
        def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
            if isinstance(node.ctx, ast.Load) and (tree := tree_of(node)) is not None:
                return spelled(tree, ast.Load(), node)
            self.generic_visit(node)
            return node

        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in split and isinstance(node.ctx, ast.Load):
                return spelled(split[node.id], ast.Load(), node)
            return node

    Read().visit(fn)
    ast.fix_missing_locations(fn)


def _hoist_inline_slices(fn: ast.FunctionDef) -> None:
    """`f(x.slice(..), ..)` (an array view passed straight to the call that uses it: ct.load, ct.store, a helper),
    `ct.store(y if TO_Y else z, ..)`: the view or the choice bound to a fresh name in a statement of its own just
    before (rewrite inline-slice)."""
    taken = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)} | {a.arg for a in walk_nodes(fn)
                                                                         if isinstance(a, ast.arg)}

    def is_slice(node: ast.AST) -> bool:   # (of an array's name, or of another slice: `y.slice(..).slice(..)`)
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "slice" \
            and (isinstance(node.func.value, ast.Name) or is_slice(node.func.value))

    def is_choice(call: ast.Call) -> bool:   # `ct.store(y if TO_Y else z, ..)`: an array picked in a memory op
        func = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
        arg = call.args[0]
        return isinstance(arg, ast.IfExp) and isinstance(arg.body, ast.Name) and \
            isinstance(arg.orelse, ast.Name) and (func in ("load", "store", "gather", "scatter", "num_tiles")
                                                  or func.startswith("atomic_"))

    def base_name(node: ast.AST) -> str:
        return f"{node.func.value.id}_slice" if is_slice(node) else f"{node.body.id}_or_{node.orelse.id}"

    def bind(view: ast.expr, st: ast.stmt, out: list[ast.stmt]) -> ast.Name:
        if is_slice(view) and not isinstance(view.func.value, ast.Name):   # the inner slice first
            view.func.value = bind(view.func.value, st, out)
        name = fresh_name(base_name(view), taken)
        out.append(_mark(ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], view), st)))
        return ast.copy_location(ast.Name(name, ast.Load()), view)

    def hoist(stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for st in stmts:
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(st, field, None), list) and getattr(st, field) and \
                        isinstance(getattr(st, field)[0], ast.stmt):
                    setattr(st, field, hoist(getattr(st, field)))
            inner = [] if isinstance(st, (ast.FunctionDef, ast.For, ast.While, ast.If, ast.With)) else [st]
            if isinstance(st, (ast.For, ast.While, ast.If)):   # (a loop's or branch's header, not its body)
                inner = [getattr(st, "iter", None) or st.test]
            for node in [n for root in inner for n in walk_nodes(root)]:
                if isinstance(node, ast.Call) and node.args and (is_slice(node.args[0]) or is_choice(node)):
                    node.args[0] = bind(node.args[0], st, out)
            out.append(st)
        return out

    fn.body = hoist(fn.body)
    ast.fix_missing_locations(fn)


def _user_def(py: Any) -> tuple[ast.FunctionDef, Path] | None:
    """(its definition, its file) where ``py`` (unwrapped) is a Python function of the user's, not cuda.tile's, whose
    source is at hand; else None."""
    fn = inspect.unwrap(py) if callable(py) else py
    if not inspect.isfunction(fn) or _ct_name(fn) is not None or _ct_name(py) is not None:
        return None
    try:
        fdef, file, _src = _function_ast(fn)
    except (OSError, TypeError, LookupError, SyntaxError):
        return None
    return fdef, file


def _inline_generator_contexts(fn: ast.FunctionDef, env: dict[str, Any], file: Path) -> None:
    """``with cm(args) as u: body`` of a ``@contextlib.contextmanager`` generator of the kernel's own module whose body
    holds one `yield` statement at its top level and no `return` (rewrite generator-context): its parameters bound
    to the arguments, its statements up to the `yield`, `u =` the value yielded, the body, then its statements after
    the `yield` — the order cuda.tile 1.7 runs them in (enter_context runs the generator to its `yield`, the exit
    runs the rest); the generator's own names renamed past the kernel's. Any other `with` is left as written (the
    emitter refuses it at its position)."""
    taken = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)} | {a.arg for a in walk_nodes(fn)
                                                                         if isinstance(a, ast.arg)}

    def inline(st: ast.With) -> list[ast.stmt] | None:
        if len(st.items) != 1 or not isinstance(call := st.items[0].context_expr, ast.Call) or \
                any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        root = call.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or root.id in _locals(fn):
            return None
        ok, cm = _static_value(call.func, env)
        gen = getattr(cm, "__wrapped__", None) if ok else None
        if not inspect.isgeneratorfunction(gen) or getattr(cm, "__module__", None) != "contextlib" and \
                "contextmanager" not in getattr(getattr(cm, "__code__", None), "co_qualname", ""):
            return None
        found = _user_def(gen)
        if found is None or found[1].resolve() != file.resolve():
            return None
        gdef = copy.deepcopy(found[0])
        body = [b for b in gdef.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
        yields = [k for k, b in enumerate(body) if isinstance(b, ast.Expr) and isinstance(b.value, ast.Yield)]
        if len(yields) != 1 or any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.FunctionDef, ast.Lambda,
                                                  ast.Global, ast.Nonlocal)) and not (
                    isinstance(n, ast.Yield) and n is body[yields[0]].value) for b in body for n in walk_nodes(b)):
            return None
        params = gdef.args
        if params.vararg or params.kwarg or params.posonlyargs:
            return None
        names = [a.arg for a in (*params.args, *params.kwonlyargs)]
        bound: dict[str, ast.expr] = dict(zip((a.arg for a in params.args), call.args))
        if len(call.args) > len(params.args):
            return None
        for k in call.keywords:
            if k.arg not in names or k.arg in bound:
                return None
            bound[k.arg] = k.value
        defaults = dict(zip([a.arg for a in params.args][len(params.args) - len(params.defaults):], params.defaults))
        defaults.update({a.arg: d for a, d in zip(params.kwonlyargs, params.kw_defaults) if d is not None})
        own = set(names) | {n.id for n in walk_nodes(gdef) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        rename = {}
        for name in sorted(own):
            rename[name] = fresh_name(f"{gdef.name}_{name}", taken, "_")
            taken.add(rename[name])

        class Rename(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.AST:
                if node.id in rename:
                    node.id = rename[node.id]
                return node

        out: list[ast.stmt] = []
        for name in names:
            value = bound.get(name, defaults.get(name))
            if value is None:
                return None
            out.append(_mark(ast.copy_location(ast.Assign([ast.Name(rename[name], ast.Store())], value), st)))
        pre, post = body[:yields[0]], body[yields[0] + 1:]
        out += [Rename().visit(b) for b in pre]
        value = body[yields[0]].value.value
        if st.items[0].optional_vars is not None:
            out.append(_mark(ast.copy_location(ast.Assign(
                [st.items[0].optional_vars], Rename().visit(value) if value is not None else
                ast.Constant(None)), st)))
        out += st.body
        out += [Rename().visit(b) for b in post]
        for b in out:
            for n in walk_nodes(b):
                _mark(n)
        return out

    def block(stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for st in stmts:
            for field in ("body", "orelse"):
                if isinstance(st, (ast.If, ast.For, ast.While, ast.With)) and getattr(st, field, None):
                    setattr(st, field, block(getattr(st, field)))
            made = inline(st) if isinstance(st, ast.With) else None
            out.extend(made if made is not None else [st])
        return out

    fn.body = block(fn.body)
    ast.fix_missing_locations(fn)


def _factory_parts(py: Any, file: Path) -> tuple[ast.FunctionDef, ast.FunctionDef] | None:
    """(the factory's definition, the function it returns) when ``py`` is a user function of ``file`` whose body is
    only a (docstring,) `def inner(..)` without decorators and `return inner`; else None."""
    found = _user_def(py)
    if found is None:
        return None
    fdef, ffile = found
    body = fdef.body[1:] if fdef.body and isinstance(fdef.body[0], ast.Expr) and \
        isinstance(fdef.body[0].value, ast.Constant) and isinstance(fdef.body[0].value.value, str) else fdef.body
    if ffile != file or len(body) != 2 or not isinstance(body[0], ast.FunctionDef) or body[0].decorator_list or \
            not (isinstance(body[1], ast.Return) and isinstance(body[1].value, ast.Name) and
                 body[1].value.id == body[0].name):
        return None
    a = fdef.args
    if a.vararg or a.kwarg or a.posonlyargs or a.kwonlyargs:
        return None
    return fdef, body[0]


def _inline_function_factories(fn: ast.FunctionDef, env: dict[str, Any], file: Path) -> None:
    """`p = make_poly(1.0, 0.5, 0.25)` at the top level of ``fn``, where ``make_poly`` (a helper of this file)
    only defines a function over its parameters and returns it, and ``p`` is bound once and only called: the
    arguments bound to `p__<param>` there, followed by the returned function's `def p(..)` reading those names
    instead of the factory's parameters (rewrite function-factory; the nested function is then a helper like any
    other, inlined at each call)."""
    counts: dict[str, int] = {}
    loads: dict[str, int] = {}
    calls: dict[str, int] = {}
    for n in walk_nodes(fn):
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Store):
                counts[n.id] = counts.get(n.id, 0) + 1
            else:
                loads[n.id] = loads.get(n.id, 0) + 1
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            calls[n.func.id] = calls.get(n.func.id, 0) + 1
    body: list[ast.stmt] = []
    changed = False
    for st in fn.body:
        parts = None
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Name) and \
                st.value.func.id not in _locals(fn) and st.value.func.id in env:
            name = st.targets[0].id
            if counts.get(name) == 1 and loads.get(name, 0) == calls.get(name, 0) > 0:
                parts = _factory_parts(env[st.value.func.id], file)
        if parts is None:
            body.append(st)
            continue
        fdef, inner = parts
        params = [p.arg for p in fdef.args.args]
        given = dict(zip(params, st.value.args))
        given.update({k.arg: k.value for k in st.value.keywords if k.arg is not None})
        defaults = dict(zip(params[len(params) - len(fdef.args.defaults):], fdef.args.defaults))
        if len(st.value.args) > len(params) or any(k.arg is None or k.arg not in params for k in st.value.keywords) \
                or any(p not in given and p not in defaults for p in params):
            body.append(st)
            continue
        name = st.targets[0].id
        renamed = {p: f"{name}__{p}" for p in params}
        for p in params:
            value = copy.deepcopy(given.get(p, defaults.get(p)))
            body.append(_mark(ast.copy_location(ast.Assign([ast.Name(renamed[p], ast.Store())], value), st)))
        inner = copy.deepcopy(inner)
        shadowed = {a.arg for a in (*inner.args.args, *inner.args.kwonlyargs)} | _locals(inner)

        class _Rename(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.AST:
                if node.id in renamed and node.id not in shadowed:
                    return ast.copy_location(ast.Name(renamed[node.id], node.ctx), node)
                return node

        inner = _Rename().visit(inner)
        inner.name = name   # (its nodes keep their positions in this file: cuTile Python's fmas sit there)
        body.append(_mark(inner))
        changed = True
    if changed:
        fn.body = body
        ast.fix_missing_locations(fn)


def _name_lambda_arguments(fn: ast.FunctionDef, env: dict[str, Any]) -> None:
    """A lambda passed to a helper in one of ``fn``'s top-level statements (`_clamp_then(t, post=lambda v: v * v)`):
    bound to a name by a statement just before (`post_lambda = lambda v: v * v`), then a nested function as
    `sq = lambda v: ..` is, passed by name (rewrite nested-function). cuTile Python binds the parameter to the
    function object and inlines the call through it, as for a helper passed by name."""
    taken = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)} | {a.arg for a in fn.args.args}
    body: list[ast.stmt] = []
    for st in fn.body:
        if not isinstance(st, (ast.For, ast.While, ast.If, ast.With, ast.FunctionDef)):
            calls, todo = [], [st]
            while todo:   # (not into a lambda: one inside another reads its parameters)
                n = todo.pop()
                calls.append(n)
                todo.extend(c for c in ast.iter_child_nodes(n) if not isinstance(c, ast.Lambda))
            for call in calls:
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and
                        _user_function(call.func.id, env, fn) is not None):
                    continue
                slots = [(call.args, i, None) for i in range(len(call.args))] + \
                    [(call.keywords, i, k.arg) for i, k in enumerate(call.keywords)]
                for holder, i, kw in slots:
                    value = holder[i].value if kw is not None else holder[i]
                    if not isinstance(value, ast.Lambda):
                        continue
                    name = fresh_name(f"{kw or call.func.id.strip('_')}_lambda", taken, "_")
                    body.append(_mark(ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], value), st)))
                    ref = _mark(ast.copy_location(ast.Name(name, ast.Load()), value))
                    if kw is not None:
                        holder[i].value = ref
                    else:
                        holder[i] = ref
        body.append(st)
    if len(body) != len(fn.body):
        fn.body = body
        ast.fix_missing_locations(fn)


def _lambda_choice(e: ast.IfExp) -> ast.Lambda | None:
    """``(lambda v: A) if C else (lambda u: B)`` (lambdas of as many plain parameters, no defaults; the `else` arm
    another such choice): the lambda ``lambda v: A if C else B[u := v]`` (rewrite nested-function). cuTile Python
    picks the function when it compiles (C a constant: a function chosen at run time is no value it has), then
    calls it; the emitter folds the test the same way."""
    arms = [e.body, _lambda_choice(e.orelse) if isinstance(e.orelse, ast.IfExp) else e.orelse]
    if not all(isinstance(a, ast.Lambda) and not a.args.defaults and not a.args.kw_defaults and
               not a.args.vararg and not a.args.kwarg and not a.args.kwonlyargs and not a.args.posonlyargs
               for a in arms) or len(arms[0].args.args) != len(arms[1].args.args):
        return None
    names = [a.arg for a in arms[0].args.args]
    own = {a.arg for a in arms[1].args.args}
    if any(isinstance(n, ast.Name) and n.id in names and n.id not in own for n in walk_nodes(arms[1].body)):
        return None   # (the other arm reads a name of the outer scope that the renaming would capture)
    other = _Substitute({a.arg: ast.Name(n, ast.Load()) for a, n in zip(arms[1].args.args, names)}).visit(
        copy.deepcopy(arms[1].body))
    body = _mark(ast.copy_location(ast.IfExp(e.test, arms[0].body, other), e))
    return _mark(ast.copy_location(ast.Lambda(arms[0].args, body), e))


def _nested_functions(fn: ast.FunctionDef) -> dict[str, ast.FunctionDef]:
    """Functions defined in ``fn``'s own top-level statements (`def act(v): ...`, `sq = lambda v: v * v`), taken out
    of its body: helpers, inlined where they are called as cuTile Python inlines them (rewrite nested-function)."""
    found: dict[str, ast.FunctionDef] = {}
    body = []
    for st in fn.body:
        if isinstance(st, ast.FunctionDef) and not st.decorator_list:
            found[st.name] = st
            st.tileport_nested = True   # (the emitter lets it read the enclosing locals: a closure)
            continue
        if isinstance(st, ast.Assign) and isinstance(st.value, ast.IfExp) and \
                (chosen := _lambda_choice(st.value)) is not None:
            st.value = chosen   # `f = (lambda v: v * v) if MODE == 0 else (lambda v: abs(v))`: one lambda
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                isinstance(st.value, ast.Lambda) and \
                sum(1 for n in walk_nodes(fn) if isinstance(n, ast.Name) and n.id == st.targets[0].id and
                    isinstance(n.ctx, ast.Store)) == 1:
            lam = st.value
            ret = ast.copy_location(ast.Return(lam.body), lam.body)
            found[st.targets[0].id] = _mark(ast.copy_location(
                ast.FunctionDef(name=st.targets[0].id, args=lam.args, body=[ret], decorator_list=[]), st))
            found[st.targets[0].id].tileport_nested = True
            continue
        body.append(st)
    if found:
        fn.body = body
        ast.fix_missing_locations(fn)
    return found


def _user_function(name: str, env: dict[str, Any], fn: ast.FunctionDef) -> ast.FunctionDef | None:
    """The definition of the user's function ``name`` a call in ``fn`` reaches: one defined in ``fn`` itself, or one
    of its module's (not cuda.tile's); None for anything else."""
    for n in walk_nodes(fn):
        if isinstance(n, ast.FunctionDef) and n is not fn and n.name == name:
            return n
    py = env.get(name)
    if py is None or _ct_name(py) is not None or not inspect.isfunction(inspect.unwrap(py)):
        return None
    try:
        return _function_ast(inspect.unwrap(py))[0]
    except (OSError, TypeError, LookupError, SyntaxError):
        return None


def _hoist_tuple_call_arguments(fn: ast.FunctionDef, env: dict[str, Any]) -> None:
    """A helper's tuple result passed straight to another helper (`out, mu = _norm(_stats(t), eps)`, `_stats`
    returning `mu, d`): bound to a name by a statement just before (`_stats_result = _stats(t)`), which the
    tuple-name rewrites then split per element; and a product passed to a parameter the helper adds
    (`_add(t * 2.0, u)`), bound likewise (`_add_product = t * 2.0`), whose sum cuTile Python contracts (rewrite
    helper-call-argument). Python evaluates the arguments before the call, so the order is the same; only calls
    evaluated unconditionally by their statement are taken (not under a conditional expression, `and`/`or` or a
    lambda). Run again once tuple names are read where they are (`_sum3(*args)` of `args = (t, t * 2.0, 1.0)`
    passes the product only then): the names made skip those the function has."""
    count = [0]
    taken = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)}

    def returns_tuple(call: ast.AST) -> bool:
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
            return False
        f = _user_function(call.func.id, env, fn)
        return f is not None and any(isinstance(r, ast.Return) and isinstance(r.value, ast.Tuple)
                                     for r in walk_nodes(f))

    def summed_product(a: ast.AST, callee: ast.FunctionDef, i: int) -> bool:
        """A product given to a parameter the helper adds or subtracts (or to its ``*args``): bound to a name, a
        product the helper's sum contracts as cuTile Python does (the emitter carries a name's product into the
        parameter it is passed to)."""
        if not (isinstance(a, ast.BinOp) and isinstance(a.op, ast.Mult)) or \
                all(isinstance(n, (ast.Constant, ast.operator, ast.BinOp, ast.UnaryOp, ast.unaryop,
                                   ast.expr_context)) or isinstance(n, ast.Name) and n.id.isupper()
                    for n in walk_nodes(a)):
            return False   # (constants only: folded, nothing to contract)
        params = [p.arg for p in (*callee.args.posonlyargs, *callee.args.args)]
        if i >= len(params):
            return callee.args.vararg is not None
        return any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub)) and
                   any(isinstance(o, ast.Name) and o.id == params[i] for o in (n.left, n.right))
                   for n in walk_nodes(callee))

    def hoist(e: ast.AST, pre: list[ast.stmt], st: ast.stmt) -> None:
        if isinstance(e, (ast.IfExp, ast.BoolOp, ast.Lambda)):
            return
        for child in ast.iter_child_nodes(e):
            hoist(child, pre, st)
        callee = _user_function(e.func.id, env, fn) if isinstance(e, ast.Call) and \
            isinstance(e.func, ast.Name) else None
        if callee is not None:
            for i, a in enumerate(e.args):
                if returns_tuple(a):
                    stem = f"{a.func.id}_result"
                elif summed_product(a, callee, i):
                    stem = f"{e.func.id}_product"
                elif getattr(a, "tileport_dataclass", False):   # (`_merge(st, Stats(m, s))`: the fields' tuple
                    stem = f"{e.func.id}_arg"                     # named, then split per field as a name's)
                else:
                    continue
                while (name := f"{stem}{count[0] or ''}") in taken:
                    count[0] += 1
                taken.add(name)
                count[0] += 1
                pre.append(_mark(ast.copy_location(ast.Assign(targets=[ast.Name(name, ast.Store())], value=a),
                                                   st)))
                e.args[i] = _mark(ast.copy_location(ast.Name(name, ast.Load()), a))

    def block(stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for st in stmts:
            if isinstance(st, (ast.For, ast.While, ast.If, ast.With)):
                st.body = block(st.body)
                if hasattr(st, "orelse"):
                    st.orelse = block(st.orelse)
            elif isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)) and \
                    st.value is not None:
                pre: list[ast.stmt] = []
                hoist(st.value, pre, st)
                out.extend(pre)
            out.append(st)
        return out

    fn.body = block(fn.body)
    if count[0]:
        ast.fix_missing_locations(fn)


def _inline_tiled_views(fn: ast.FunctionDef) -> None:
    """``v = x.tiled_view(shape, padding_mode=P)`` bound once in a top-level statement:
    ``v.load(idx, ..)`` is ``ct.load(x, idx, shape, padding_mode=P, ..)``, ``v.store(idx, t, ..)`` is
    ``ct.store(x, idx, t, ..)``, ``v.atomic_store_add(idx, t)`` is ``ct._tiled_view_atomic_store_add(x, idx, t,
    shape)`` (see TILED_ATOMICS), ``v.num_tiles(k)`` is ``ct.num_tiles(x, k, shape)`` and ``v.tile_shape`` the shape
    (rewrite tiled-view): cuTile Python compiles both spellings to the same partition view and load/store. A view
    with ``traversal_steps=S`` hands them on as ``traversal_steps=S`` of each rewritten call (a keyword only this
    rewrite writes: cuTile Python's tiled view passes its steps to the same load/store/num_tiles, which make a
    strided view of them where they differ from the tile shape)."""
    stores: dict[str, int] = {}
    for n in walk_nodes(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            stores[n.id] = stores.get(n.id, 0) + 1
    views: dict[str, tuple[ast.stmt, ast.expr, ast.expr, list[ast.keyword], ast.expr | None]] = {}
    for st in fn.body:
        v = st.value if isinstance(st, ast.Assign) else None
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and
                stores.get(st.targets[0].id) == 1 and isinstance(v, ast.Call) and
                isinstance(v.func, ast.Attribute) and v.func.attr == "tiled_view" and
                isinstance(v.func.value, ast.Name)):
            continue
        kw = {k.arg: k.value for k in v.keywords}
        shape = v.args[0] if v.args else kw.pop("tile_shape", None)
        steps = kw.pop("traversal_steps", None)
        if shape is None or len(v.args) > 1 or set(kw) - {"padding_mode"}:
            continue
        if isinstance(steps, ast.Constant) and steps.value is None:
            steps = None
        views[st.targets[0].id] = (st, v.func.value, shape, [ast.keyword(k, e) for k, e in kw.items()], steps)
    if not views:
        return
    used: dict[str, int] = {name: 0 for name in views}   # reads the rewrite does not cover

    class Inline(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            f = node.func
            if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in views and
                    (f.attr in ("load", "store", "num_tiles") or f.attr in TILED_ATOMICS)):
                return node
            _, arr, shape, pad, steps = views[f.value.id]
            c = copy.deepcopy
            stepped = [] if steps is None else [ast.keyword("traversal_steps", c(steps))]
            if f.attr == "load":
                out = ast.Call(_attr_chain("ct.load", node), [c(arr), *node.args[:1], c(shape)],
                               [*node.keywords, *c(pad), *stepped])
            elif f.attr == "store":
                # (with steps, the view's tile shape too: they are compared with it)
                out = ast.Call(_attr_chain("ct.store", node), [c(arr), *node.args[:2]], [
                    *node.keywords, *stepped, *([ast.keyword("tile_shape", c(shape))] if stepped else [])])
            elif f.attr in TILED_ATOMICS:   # `v.atomic_store_add(idx, t)`: the view's atomic reduction, spelled
                # with the array and the tile shape (row tiled-atomic)
                out = ast.Call(_attr_chain(f"ct.{TILED_ATOMIC_PREFIX}{f.attr}", node), [c(arr), *node.args[:2], c(shape)],
                               [*node.keywords, *stepped])
            else:
                out = ast.Call(_attr_chain("ct.num_tiles", node), [c(arr), *node.args[:1], c(shape)],
                               [*node.keywords, *stepped])
            out = _mark(ast.copy_location(out, node))
            ast.fix_missing_locations(out)
            return out

        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            if isinstance(node.value, ast.Name) and node.value.id in views and \
                    node.attr in ("tile_shape", "traversal_steps"):   # (steps: the shape where none are given)
                view = views[node.value.id]
                return _mark(ast.copy_location(copy.deepcopy(
                    view[4] if node.attr == "traversal_steps" and view[4] is not None else view[2]), node))
            self.generic_visit(node)
            return node

    bindings = {id(v[0]): name for name, v in views.items()}
    body = [st if id(st) in bindings else Inline().visit(st) for st in fn.body]
    for st in body:
        if id(st) not in bindings:
            for n in walk_nodes(st):
                if isinstance(n, ast.Name) and n.id in used:
                    used[n.id] += 1
    # a view read some other way (passed to a helper, say) keeps its binding, where it was (refused there)
    fn.body = [st for st in body if id(st) not in bindings or used[bindings[id(st)]]]
    ast.fix_missing_locations(fn)


def _resolve_into(fn: ast.FunctionDef, env: dict[str, Any], helpers: dict[str, ResolvedHelper],
                  where: tuple[Path, str] | None = None, constants: dict[str, Any] | None = None) -> None:
    """``where``: the file and source ``fn`` comes from (for the functions it defines inside it); ``constants``:
    the kernel's `ct.Constant` values (for the kernel itself only: a helper's parameters shadow them)."""
    if where is not None:   # (`with cm(t) as u:` of a generator context manager of the module: inlined)
        _inline_generator_contexts(fn, env, where[0])
    _dataclass_tuples(fn, env)   # (`Stats(m, s)`, `st.m`: the tuple of the fields, read by index)
    _expand_tuple_comprehensions(fn, env, {})   # (a helper's: over tuples and module constants)
    fn.body = _jump_first(fn.body)
    _hoist_tuple_call_arguments(fn, env)
    _inline_tiled_views(fn)
    _inline_tuple_names(fn, env, constants)
    _hoist_inline_slices(fn)
    if where is not None:
        _inline_function_factories(fn, env, where[0])
    if where is not None:
        _name_lambda_arguments(fn, env)
    nested = _nested_functions(fn) if where is not None else {}
    local = _locals(fn) - set(nested)
    fn.body = _unroll_helper_table_loops(fn.body, env, local)
    _fold_helper_tables(fn, env, local - set(constants or {}), constants or {})
    attributes = _attribute_helpers(fn, env, local | set(nested))
    called = {**_called_helpers(fn, env, local | set(nested)), **attributes}
    resolver = _Resolver(env, local, {**called, **nested})
    joined = {t.id for n in walk_nodes(fn) if isinstance(n, ast.Assign) and _tuple_arithmetic(n.value)
              for t in n.targets if isinstance(t, ast.Name)}   # (`idx = (pid,) + (0,)`: a tuple once folded)
    resolver.tuple_names = joined | {t.id for n in walk_nodes(fn) if isinstance(n, ast.Assign) and
                                     isinstance(n.value, (ast.Tuple, ast.List)) for t in n.targets
                                     if isinstance(t, ast.Name)}
    _static_assigns(fn, resolver)
    body = []
    for st in fn.body:
        out = resolver.visit(st)
        body.extend(out if isinstance(out, list) else [out])
    fn.body = _unroll_static_tuples(body)
    for _ in range(4):   # (`idx = (pid,) + (0,)`, `shape = (1,) + (B,)` folded, `SHAPE = SHAPES[K]` of a constant
        # K, `rep = shape + idx` of such names: a tuple only now, read where it is read — which may make a later
        # binding a tuple in turn)
        if not joined and not any(isinstance(st, ast.Assign) and isinstance(st.value, ast.Tuple) for st in fn.body):
            break
        joined, before = set(), ast.dump(fn)
        _inline_tuple_names(fn, env)
        if ast.dump(fn) == before:
            break
    _hoist_tuple_call_arguments(fn, env)   # (again: what a tuple name passed, `f(*args)`, is read in place now)
    # parameter defaults are evaluated in the module's scope (`def scale(v, s=SCALE)`), none of the function's
    defaults = _Resolver(env, set(), called)
    fn.args.defaults = [defaults.visit(d) for d in fn.args.defaults]
    fn.args.kw_defaults = [d if d is None else defaults.visit(d) for d in fn.args.kw_defaults]
    # so are the decorator's arguments (`@ct.kernel(occupancy=OCCUPANCY)`, a module constant)
    for d in fn.decorator_list:
        if isinstance(d, ast.Call):
            for k in d.keywords:
                if isinstance(k.value, ast.Call):   # `ct.ByTarget(sm_90=OCC, default=1)`: its values only
                    for kk in k.value.keywords:
                        kk.value = defaults.visit(kk.value)
                else:
                    k.value = defaults.visit(k.value)
    ast.fix_missing_locations(fn)
    for name, py in called.items():
        if name in helpers:
            continue
        try:
            hfn, file, src = _function_ast(py)
        except (OSError, TypeError, LookupError, SyntaxError):
            continue
        hfn = copy.deepcopy(hfn)
        helpers[name] = ResolvedHelper(hfn, file, src)
        _resolve_into(hfn, _scope(inspect.unwrap(py)), helpers, (file, src))
    for name, nfn in nested.items():
        if name not in helpers:
            helpers[name] = ResolvedHelper(nfn, *where)
            _resolve_into(nfn, env, helpers, where)


def rewrites_markdown() -> str:
    rows = ["| rewrite | accepted | becomes |", "|---|---|---|"]
    rows += [f"| `{r.id}` | {r.python} | {r.becomes} |" for r in REWRITES]
    return "\n".join(rows) + "\n"

