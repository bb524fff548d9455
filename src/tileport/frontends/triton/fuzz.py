"""Differential fuzzing of the Triton lowering: random valid ``@triton.jit`` kernels, each run by Triton's own
interpreter (``TRITON_INTERPRET=1``, in a Python that has torch: ``torch_python``) and, lowered to cuTile Python,
by the numpy model of the ct operations (``ct_numpy.CtModel``), on the same inputs, several launches a kernel
(ragged sizes: n no multiple of the block; other strides, grids).

The contract: every array equal after every launch — bitwise, except where a case's families say a float result is
approximate (``Case.tolerance``: math functions, division, float reductions / scans / dot / atomics, whose order or
approximation differs from numpy's; compared at rtol ``TOL[dtype]``) — or the kernel refused with a located reason
(``FILE:LINE:COL`` in the message). Anything else — a mismatch, an unlocated refusal, a Python exception of the
lowering — is a bug (``BAD``). ``model-gap`` (the numpy model lacks an operation) and ``invalid`` (Triton itself
rejects the drawn kernel) are the fuzzer's own gaps, counted apart.

The kernels are drawn from templates (``TEMPLATES``: 1-D blocks, 2-D row blocks with reductions, row loops, scans,
dot, atomics) filled by element-wise expressions over families of operations (``OPS``: arithmetic, integer
division / modulo / shifts / bitwise, literals of Python's types beside typed tensors, casts and bitcasts,
where / maximum / minimum, math); each is one entry of data.

``tests/test_triton_round26.py`` runs a derandomized CI draw (and a larger one under ``slow``);
``scripts/fuzz_triton.py`` runs fresh draws and writes ``benchmarks/results/fuzz_triton.json``.
"""
from __future__ import annotations

import importlib.util
import json
import os
import pickle
import re
import subprocess
import sys
import textwrap
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
from hypothesis import strategies as st

from ...errors import TileportError
from .ct_numpy import CtModel, ModelGap, run_lowered

# ------------------------------------------------------------------------------------------------ dtypes

INTS = ("int8", "int16", "int32", "int64")
FLOATS = ("float16", "float32")
WIDTH = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "float16": 16, "float32": 32}
#: relative tolerance of an approximate float result, by the stored array's dtype
TOL = {"float16": 2e-2, "float32": 2e-4, "float64": 1e-9}


def promote(a: str, b: str) -> str:
    """Triton's result dtype of a binary arithmetic op of two typed tensors (int / float, no unsigned here)."""
    fa, fb = a in FLOATS, b in FLOATS
    if fa and fb or not fa and not fb:
        return a if WIDTH[a] >= WIDTH[b] else b
    return a if fa else b


@dataclass(frozen=True)
class Val:
    """An expression of the drawn kernel: its text, its dtype, and whether its values are bounded (|v| < 200, no
    inf / NaN: a float → int cast of it is defined) and whether it is exactly computed by both sides."""
    text: str
    dtype: str
    bounded: bool = True
    exact: bool = True
    #: a runtime scalar argument (or literal): Triton's interpreter passes it as a Python number, weakly typed, where
    #: compiled Triton types it (i32 / fp32): the two agree only where the other operand is a tensor of a dtype at
    #: least as wide of its kind (``_scalar_ok``), so only such combinations are drawn
    scalar: bool = False

    @property
    def is_float(self) -> bool:
        return self.dtype in FLOATS


# ------------------------------------------------------------------------------------------------ operations
# Each family: (name, arity, applies(vals) -> bool, make(draw, vals) -> Val). Data, drawn in random combination.

def _arith(op):
    def make(draw, a, b):
        return Val(f"({a.text} {op} {b.text})", promote(a.dtype, b.dtype), False, a.exact and b.exact)
    return make


def _int_div(op):
    def make(draw, a):
        d = draw(st.sampled_from(["3", "7", "-3", "2"] + (["s_i"] if WIDTH[a.dtype] >= 32 else [])))
        dt = a.dtype if d != "s_i" else promote(a.dtype, "int32")
        return Val(f"({a.text} {op} {d})", dt, a.bounded, a.exact)
    return make


def _shift(draw, a):
    op = draw(st.sampled_from(["<<", ">>"]))
    k = draw(st.integers(0, 5))
    return Val(f"({a.text} {op} {k})", a.dtype, False, a.exact)


def _bitwise(draw, a, b):
    op = draw(st.sampled_from(["&", "|", "^"]))
    return Val(f"({a.text} {op} {b.text})", promote(a.dtype, b.dtype), a.bounded and b.bounded, a.exact and b.exact)


def _literal(draw, a):
    op = draw(st.sampled_from(["+", "-", "*"]))
    lit = draw(st.sampled_from(["2", "3", "-1", "0.5", "1.5", "-2.0"] if a.is_float else ["2", "3", "-1", "0.5", "7"]))
    dt = a.dtype if (a.is_float or "." not in lit) else "float32"
    side = draw(st.booleans())
    text = f"({a.text} {op} {lit})" if side else f"({lit} {op} {a.text})"
    return Val(text, dt, False, a.exact)


def _where(draw, a, b):
    cmp = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
    c = draw(st.sampled_from([a, b]))
    lit = "0" if not c.is_float else draw(st.sampled_from(["0.0", "0.25", "-0.5"]))
    return Val(f"tl.where({c.text} {cmp} {lit}, {a.text}, {b.text})", promote(a.dtype, b.dtype),
               a.bounded and b.bounded, a.exact and b.exact)


def _maxmin(draw, a, b):
    f = draw(st.sampled_from(["tl.maximum", "tl.minimum"]))
    return Val(f"{f}({a.text}, {b.text})", promote(a.dtype, b.dtype), a.bounded and b.bounded, a.exact and b.exact)


def _cast(draw, a):
    if a.is_float and a.bounded:
        to = draw(st.sampled_from(["int32", "int8", "int64", "float32", "float16"]))
    elif a.is_float:
        to = draw(st.sampled_from(["float32", "float16"]))
    else:
        to = draw(st.sampled_from(["int8", "int16", "int32", "int64", "float32", "float16"]))
    bounded = a.bounded and not (to == "int8" and a.is_float)
    return Val(f"{a.text}.to(tl.{to})", to, bounded, a.exact)


def _bitcast(draw, a):
    to = {"float32": "int32", "int32": "float32", "float16": "int16", "int16": "float16"}[a.dtype]
    return Val(f"{a.text}.to(tl.{to}, bitcast=True)", to, False, a.exact)


MATH = {   # name -> (format of the argument made safe, result exact)
    "exp": ("tl.exp({} * 0.05)", False), "exp2": ("tl.exp2({} * 0.05)", False),
    "log": ("tl.log(tl.abs({}) + 1.0)", False), "sqrt": ("tl.sqrt(tl.abs({}))", False),
    "rsqrt": ("tl.rsqrt(tl.abs({}) + 1.0)", False), "sigmoid": ("tl.sigmoid({})", False),
    "erf": ("tl.erf({} * 0.1)", False), "abs": ("tl.abs({})", True), "neg": ("-{}", True),
    "floor": ("tl.floor({})", True), "ceil": ("tl.ceil({})", True),
    "fdiv": ("({} / 3.0)", False), "cos": ("tl.cos({})", False), "sin": ("tl.sin({})", False),
    "tanh": ("libdevice.tanh({} * 0.1)", False), "fma": ("tl.fma({0}, 0.5, {0})", False),
}


def _math(draw, a):
    name = draw(st.sampled_from(sorted(MATH)))
    fmt, exact = MATH[name]
    arg = a.text if a.bounded else f"tl.minimum(tl.maximum({a.text}, -50.0), 50.0)"
    dt = a.dtype
    return Val(fmt.format(arg), dt, name in ("sigmoid", "erf", "tanh", "cos", "sin"), a.exact and exact)


def _int_math(draw, a):
    name = draw(st.sampled_from(["abs", "neg"]))
    return Val(f"tl.abs({a.text})" if name != "neg" else f"(-{a.text})", a.dtype, a.bounded, a.exact)


#: (name, arity, applies, make): the element-wise families
OPS: list[tuple[str, int, Callable[..., bool], Callable[..., Val]]] = [
    ("add", 2, lambda a, b: True, _arith("+")),
    ("sub", 2, lambda a, b: True, _arith("-")),
    ("mul", 2, lambda a, b: True, _arith("*")),
    ("floordiv", 1, lambda a: not a.is_float, _int_div("//")),
    ("mod", 1, lambda a: not a.is_float, _int_div("%")),
    ("shift", 1, lambda a: not a.is_float and a.dtype != "int64", _shift),
    ("bitwise", 2, lambda a, b: not a.is_float and not b.is_float, _bitwise),
    ("literal", 1, lambda a: True, _literal),
    ("where", 2, lambda a, b: True, _where),
    ("maxmin", 2, lambda a, b: True, _maxmin),
    ("cast", 1, lambda a: True, _cast),
    ("bitcast", 1, lambda a: a.dtype in ("float32", "int32", "float16", "int16"), _bitcast),
    ("math", 1, lambda a: a.is_float, _math),
    ("int_math", 1, lambda a: not a.is_float, _int_math),
]


def _scalar_ok(a: Val, b: Val) -> bool:
    """Whether a binary op of ``a`` and ``b`` has one dtype under Triton's interpreter (a runtime scalar a Python
    number, weak) and compiled Triton (an i32 / fp32 scalar): never two scalars (the interpreter computes them in
    Python: floor `//`, f64), and a scalar beside a tensor only where the tensor is no narrower of the same kind
    (int8 + s_i is int8 interpreted, int32 compiled; f16 * s_f f16 / f32)."""
    if a.scalar and b.scalar:
        return False
    if a.scalar or b.scalar:
        s, t = (a, b) if a.scalar else (b, a)
        return not (s.is_float == t.is_float and WIDTH[t.dtype] < WIDTH[s.dtype])
    return True


@st.composite
def expressions(draw, leaves: list[Val], depth: int = 3) -> Val:
    """An element-wise expression over ``leaves``, of at most ``depth`` nested operations (a divisor `s_i` only
    where a leaf is that runtime scalar, else the literal 5)."""
    v = draw(_expressions(leaves, depth))
    if not any(leaf.text == "s_i" for leaf in leaves):
        v = Val(v.text.replace("s_i", "5"), v.dtype, v.bounded, v.exact, v.scalar)
    return v


@st.composite
def _expressions(draw, leaves: list[Val], depth: int = 3) -> Val:
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(leaves))
    a = draw(_expressions(leaves, depth - 1))
    fams = [f for f in OPS if f[1] == 1 and not a.scalar and f[2](a)]
    b = draw(_expressions(leaves, depth - 1))
    fams += [f for f in OPS if f[1] == 2 and _scalar_ok(a, b) and f[2](a, b)]
    if not fams:
        return a if not a.scalar else draw(st.sampled_from([v for v in leaves if not v.scalar]))
    name, arity, _, make = draw(st.sampled_from(fams))
    return make(draw, a) if arity == 1 else make(draw, a, b)


# ------------------------------------------------------------------------------------------------ cases

@dataclass
class Case:
    """A drawn kernel (``source``: its module, the kernel named ``name``) and its launches: each (grid, args, kwargs)
    where an array argument is ("A", base, dtype, shape, strides, offset) into ``bases`` and any other ("V", value).
    ``tolerance``: float results compared within TOL (approximate operations drawn), else bitwise."""
    name: str
    source: str
    launches: list
    bases: dict
    tolerance: bool
    families: list = field(default_factory=list)


def _data(rng: np.random.Generator, n: int, dtype: str) -> np.ndarray:
    if dtype in FLOATS:
        return (rng.standard_normal(n) * 4).astype(dtype)
    lo, hi = {"int8": (-100, 100), "int16": (-3000, 3000)}.get(dtype, (-100000, 100000))
    return rng.integers(lo, hi, n).astype(dtype)


HEADER = '''import pickle
from pathlib import Path

import numpy as np
import triton
import triton.language as tl
from triton.language.extra import libdevice

'''

FOOTER = '''

def cases():
    """The launches (numpy views of fresh copies of the bases): (name, grid, args, kwargs)."""
    data = pickle.loads(Path(__file__).with_suffix(".pkl").read_bytes())
    bases = {k: v.copy() for k, v in data["bases"].items()}

    def arg(a):
        if a[0] == "V":
            return a[1]
        _, key, dt, shape, strides, off = a
        flat = bases[key]
        it = flat.itemsize
        return np.lib.stride_tricks.as_strided(flat[off:], shape, tuple(s * it for s in strides))
    for grid, args, kw in data["launches"]:
        yield data["name"], tuple(grid), tuple(arg(a) for a in args), {k: arg(v) for k, v in kw.items()}


if __name__ == "__main__":
    for name, grid, args, kw in cases():
        globals()[name][grid](*args, **kw)
'''


def _arr(key, dt, shape, strides, off=0):
    return ("A", key, dt, tuple(shape), tuple(strides), off)


def _mask_1d(draw) -> tuple[str, str]:
    """(load mask, store mask) over `offs` (`n`, `lo` runtime ints)."""
    m = draw(st.sampled_from(["offs < n", "(offs < n) & (offs >= lo)", "offs < n - 1", "(offs < n) & (offs % 3 != 1)",
                              "(offs >= lo) & (offs < n)"]))
    store = draw(st.sampled_from([m, "offs < n"]))
    return m, store


@st.composite
def elementwise_1d(draw, rng_seed: int) -> Case:
    dx, dy = draw(st.sampled_from(INTS[:3] + FLOATS)), draw(st.sampled_from(INTS[:3] + FLOATS))
    wide = draw(st.booleans())
    pid = "tl.program_id(0).to(tl.int64)" if wide else "tl.program_id(0)"
    lmask, smask = _mask_1d(draw)
    other_x = draw(st.sampled_from(["0", "1", "-1"] if dx in INTS else ["0.0", "1.0", "-2.5", "float('-inf')"]))
    other_y = draw(st.sampled_from(["0", "2"] if dy in INTS else ["0.0", "0.5"]))
    use_other = draw(st.booleans()) or lmask != smask
    # (`offs` of an int64 program id is no value leaf: the lowering computes index arithmetic in int32, a known
    # limit — docs/triton.md "Limits met" — where Triton's int64 products exceed int32)
    leaves = [Val("x", dx), Val("y", dy)] + ([] if wide else [Val("offs", "int32")]) + \
        [Val("s_i", "int32", scalar=True), Val("s_f", "float32", scalar=True)]
    if other_x == "float('-inf')":
        leaves[0] = Val("x", dx, bounded=False)
    v = draw(expressions(leaves))
    if v.scalar:
        v = Val(f"(x + {v.text})", promote(dx, v.dtype), False, v.exact)
    out_dt = v.dtype
    block = draw(st.sampled_from([16, 32, 64]))
    ox = f", other={other_x}" if use_other else ""
    oy = f", other={other_y}" if use_other else ""
    # how x is addressed (ADDRESSES: offsets cast to int64, a strided view's stride, the pointer moved first)
    xaddr = draw(st.sampled_from(ADDRESSES))
    src = HEADER + textwrap.dedent(f'''
        @triton.jit
        def KNAME(x_ptr, y_ptr, out_ptr, n, lo, s_i, s_f, sx, BLOCK: tl.constexpr):
            pid = {pid}
            offs = pid * BLOCK + tl.arange(0, BLOCK)
            x = tl.load({xaddr}, mask={lmask}{ox})
            y = tl.load(y_ptr + offs, mask={lmask}{oy})
            v = {v.text}
            tl.store(out_ptr + offs, v, mask={smask})
    ''') + FOOTER
    rng = np.random.default_rng(rng_seed)
    launches, bases = [], {}
    for i, n in enumerate(draw(st.lists(st.integers(1, 150), min_size=2, max_size=3))):
        sx = draw(st.sampled_from([1, 2, 3])) if "sx" in xaddr else 1
        bases[f"x{i}"], bases[f"y{i}"] = _data(rng, n * sx, dx), _data(rng, n, dy)
        bases[f"o{i}"] = np.zeros(n, out_dt)
        s_i = int(draw(st.sampled_from([3, -5, 1, 7])))
        grid = (-(-n // block),)
        launches.append((grid, [_arr(f"x{i}", dx, (n,), (sx,)), _arr(f"y{i}", dy, (n,), (1,)),
                                _arr(f"o{i}", out_dt, (n,), (1,)), ("V", n), ("V", int(rng.integers(0, 5))),
                                ("V", s_i), ("V", float(np.float32(rng.standard_normal()))), ("V", sx)],
                         {"BLOCK": ("V", block)}))
    return Case("KNAME", src, launches, bases, not v.exact and out_dt in FLOATS, ["elementwise_1d"])


#: how the 1-D template addresses x: offsets, int64 offsets, a strided view (`sx`: x[::2] passes stride 2), the
#: pointer moved to the block first, an int64 program offset
ADDRESSES = ["x_ptr + offs", "x_ptr + offs.to(tl.int64)", "x_ptr + offs * sx", "(x_ptr + pid * BLOCK) + tl.arange(0, BLOCK)",
             "x_ptr + (pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)) * sx"]

REDUCTIONS = ["tl.sum", "tl.max", "tl.min", "tl.argmax", "tl.argmin"]


@st.composite
def rows_2d(draw, rng_seed: int) -> Case:
    """A block of rows read through row / column strides (contiguous, transposed, stride-0 rows, padded rows), an
    element-wise expression, a row reduction (keep_dims or not) stored per row and broadcast back."""
    dx = draw(st.sampled_from(("int8", "int32", "float16", "float32")))
    red = draw(st.sampled_from(REDUCTIONS))
    keep = draw(st.booleans())
    leaves = [Val("x", dx), Val("cols[None, :]", "int32"), Val("rows[:, None]", "int32")]
    v = draw(expressions(leaves, 2))
    if "x" not in v.text and keep:   # (a value of the columns alone is one row: Triton's reshape of its (1, 1)
        v = Val(f"(x + {v.text})", promote(dx, v.dtype), False, v.exact)   # keep_dims reduction fails)
    if red in ("tl.argmax", "tl.argmin") and v.is_float and not v.bounded:
        # (NaN beside numbers: Triton's argmax combine compares with `>`, so which index wins depends on the
        # reduction's order — its interpreter's, the GPU's tree — undefined: no NaN drawn into an index reduction)
        v = Val(f"tl.where({v.text} == {v.text}, {v.text}, 0.0)", v.dtype, False, v.exact)
    other = {"tl.sum": "0", "tl.max": "-100", "tl.min": "100"}.get(red, "0")
    if dx in FLOATS:
        other = {"tl.max": "float('-inf')", "tl.min": "float('inf')"}.get(red, "0.0")
        other = draw(st.sampled_from([other, "0.0"]))
    bm, bn = draw(st.sampled_from([(1, 16), (2, 16), (4, 32), (8, 16), (2, 64)]))
    back = draw(st.sampled_from(["v", "v - r2", "v * 2", "r2 + 0 * v"])) if red in ("tl.sum", "tl.max", "tl.min") \
        else "v"
    r2 = "r" if keep else "r[:, None]"
    kd = ", keep_dims=True" if keep else ""
    rr = "tl.reshape(r, (BM,))" if keep else "r"
    src = HEADER + textwrap.dedent(f'''
        @triton.jit
        def KNAME(x_ptr, out_ptr, red_ptr, M, N, sxm, sxn, som, BM: tl.constexpr, BN: tl.constexpr):
            pid = tl.program_id(0)
            rows = pid * BM + tl.arange(0, BM)
            cols = tl.arange(0, BN)
            mask = (rows[:, None] < M) & (cols[None, :] < N)
            x = tl.load(x_ptr + rows[:, None] * sxm + cols[None, :] * sxn, mask=mask, other={other})
            v = {v.text}
            r = {red}(v, axis=1{kd})
            r2 = {r2}
            tl.store(out_ptr + rows[:, None] * som + cols[None, :], {back}, mask=mask)
            tl.store(red_ptr + rows, {rr}, mask=rows < M)
    ''') + FOOTER
    vdt = v.dtype
    if red in ("tl.argmax", "tl.argmin"):
        rdt = "int32"
    elif red == "tl.sum" and vdt in ("int8", "int16"):
        rdt = "int32"
    else:
        rdt = vdt
    out_dt = vdt if back == "v" or back == "v * 2" else promote(vdt, rdt)
    rng = np.random.default_rng(rng_seed)
    launches, bases = [], {}
    for i in range(draw(st.integers(2, 3))):
        m, n = draw(st.integers(1, 9)), draw(st.integers(1, bn))
        layout = draw(st.sampled_from(["rows", "cols", "pad", "bcast"]))
        if layout == "rows":
            base, shape, strides = _data(rng, m * n, dx), (m, n), (n, 1)
        elif layout == "cols":    # a transposed view: column stride 1 ... row stride m
            base, shape, strides = _data(rng, m * n, dx), (m, n), (1, m)
        elif layout == "pad":
            base, shape, strides = _data(rng, m * (n + 3), dx), (m, n), (n + 3, 1)
        else:                     # every row the same row (stride 0)
            base, shape, strides = _data(rng, n, dx), (m, n), (0, 1)
        bases[f"x{i}"] = base
        bases[f"o{i}"] = np.zeros(m * n, out_dt)
        bases[f"r{i}"] = np.zeros(m, rdt)
        launches.append(((-(-m // bm),), [_arr(f"x{i}", dx, shape, strides), _arr(f"o{i}", out_dt, (m, n), (n, 1)),
                                          _arr(f"r{i}", rdt, (m,), (1,)), ("V", m), ("V", n), ("V", strides[0]),
                                          ("V", strides[1]), ("V", n)],
                         {"BM": ("V", bm), "BN": ("V", bn)}))
    tol = (not v.exact or (red == "tl.sum" and vdt in FLOATS)) and (out_dt in FLOATS or rdt in FLOATS)
    return Case("KNAME", src, launches, bases, tol, ["rows_2d", red])


@st.composite
def row_loop(draw, rng_seed: int) -> Case:
    """A row program walking its row in blocks: `x_ptr += row * stride` (row an int64 or not), `range` / `tl.range`
    with a runtime bound, a step, a loop-carried accumulator (block or scalar), then a second pass storing
    ``x - mean`` or a scaled value; the pointer bumped by BLOCK inside the loop or offsets recomputed."""
    dx = draw(st.sampled_from(("float32", "float16", "int32")))
    wide = draw(st.booleans())
    row = "tl.program_id(0).to(tl.int64)" if wide else "tl.program_id(0)"
    rng_kind = draw(st.sampled_from(["range", "tl.range"]))
    bump = draw(st.booleans())
    acc_block = draw(st.booleans())
    acc_dt = "tl.float32" if dx != "int32" else "tl.int32"
    init = f"tl.zeros([BLOCK], dtype={acc_dt})" if acc_block else ("0.0" if dx != "int32" else "0")
    leaves = [Val("x", dx), Val("offs", "int32")]
    v = draw(expressions(leaves, 2))
    fin = "tl.sum(acc, axis=0)" if acc_block else "acc"
    step = draw(st.sampled_from(["BLOCK", "BLOCK * 2"])) if not bump else "BLOCK"
    masked = not bump or draw(st.booleans())
    vt = f"({v.text}).to({acc_dt})"   # (a loop-carried value keeps its dtype in compiled Triton)
    term = f"tl.where(offs < n_cols, {vt}, 0)" if masked else vt
    add = f"acc += {term}" if acc_block else f"acc += tl.sum({term}, axis=0)"
    if bump:
        loop1 = textwrap.indent(textwrap.dedent(f'''
            p = x_ptr
            for start in {rng_kind}(0, n_cols, BLOCK):
                offs = start + tl.arange(0, BLOCK)
                x = tl.load(p + tl.arange(0, BLOCK), mask=offs < n_cols, other=0)
                {add}
                p += BLOCK
        '''), "    ")
    else:
        loop1 = textwrap.indent(textwrap.dedent(f'''
            for start in {rng_kind}(0, n_cols, {step}):
                offs = start + tl.arange(0, BLOCK)
                x = tl.load(x_ptr + offs, mask=offs < n_cols, other=0)
                {add}
        '''), "    ")
    second = draw(st.sampled_from(["x - mean", "x * 2", "(x + mean).to(tl.float32)"]))
    src = HEADER + textwrap.dedent(f'''
        @triton.jit
        def KNAME(x_ptr, out_ptr, stat_ptr, n_cols, stride, BLOCK: tl.constexpr):
            row = {row}
            x_ptr += row * stride
            out_ptr += row * n_cols
            acc = {init}
    ''') + loop1 + textwrap.indent(textwrap.dedent(f'''
        total = {fin}
        mean = total / n_cols
        tl.store(stat_ptr + row, total)
        for start in range(0, n_cols, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs, mask=offs < n_cols, other=0)
            tl.store(out_ptr + offs, {second}, mask=offs < n_cols)
    '''), "    ") + FOOTER
    rng = np.random.default_rng(rng_seed)
    block = draw(st.sampled_from([8, 16, 32]))
    launches, bases = [], {}
    # dtypes Triton gives: the accumulator's (`+=` keeps the carried dtype: tl.float32 / f32 scalar / int32) ...
    sdt = "float32" if dx != "int32" else "int32"
    mdt = "float32"
    odt = {"x - mean": promote(dx, mdt), "x * 2": dx, "(x + mean).to(tl.float32)": "float32"}[second]
    for i in range(draw(st.integers(2, 3))):
        m, n = draw(st.integers(1, 4)), draw(st.integers(1, 70))
        pad = draw(st.sampled_from([0, 5]))
        bases[f"x{i}"] = _data(rng, m * (n + pad), dx)
        bases[f"o{i}"] = np.zeros(m * n, odt)
        bases[f"s{i}"] = np.zeros(m, sdt)
        launches.append(((m,), [_arr(f"x{i}", dx, (m, n), (n + pad, 1)), _arr(f"o{i}", odt, (m, n), (n, 1)),
                                _arr(f"s{i}", sdt, (m,), (1,)), ("V", n), ("V", n + pad)], {"BLOCK": ("V", block)}))
    return Case("KNAME", src, launches, bases, dx != "int32", ["row_loop", rng_kind, "bump" if bump else "offs"])


@st.composite
def scans(draw, rng_seed: int) -> Case:
    """`tl.cumsum` / `tl.cumprod` (reverse or not) of a 1-D block or along an axis of a 2-D block, of int8 /
    int32 / f16 / f32 values (Triton's scans of sub-32-bit ints promote: the result dtype as Triton gives it)."""
    dx = draw(st.sampled_from(("int8", "int32", "float16", "float32")))
    op = draw(st.sampled_from(["tl.cumsum", "tl.cumprod"]))
    rev = draw(st.booleans())
    two_d = draw(st.booleans())
    rv = ", reverse=True" if rev else ""
    if two_d:
        axis = draw(st.sampled_from([0, 1]))
        body = f'''
            rows = tl.arange(0, BM)
            cols = tl.arange(0, BN)
            mask = (rows[:, None] < M) & (cols[None, :] < N)
            x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=OTHER)
            c = {op}(x, axis={axis}{rv})
            tl.store(out_ptr + rows[:, None] * N + cols[None, :], c, mask=mask)
        '''
    else:
        body = f'''
            pid = tl.program_id(0)
            offs = pid * BN + tl.arange(0, BN)
            x = tl.load(x_ptr + offs, mask=offs < N, other=OTHER)
            c = {op}(x, axis=0{rv})
            tl.store(out_ptr + offs, c, mask=offs < N)
        '''
    other = ("1" if dx in INTS else "1.0") if op == "tl.cumprod" else ("0" if dx in INTS else "0.0")
    src = HEADER + textwrap.dedent('''
        @triton.jit
        def KNAME(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):''') + \
        textwrap.indent(textwrap.dedent(body).replace("OTHER", other), "    ") + FOOTER
    odt = "int32" if dx in ("int8", "int16") else dx
    rng = np.random.default_rng(rng_seed)
    launches, bases = [], {}
    bm, bn = draw(st.sampled_from([(2, 16), (4, 8), (1, 32)]))
    for i in range(2):
        m, n = draw(st.integers(1, bm)), draw(st.integers(1, bn))
        if op == "tl.cumprod":
            vals = rng.choice([-1, 1, 2, 1], m * n).astype(dx) if dx in INTS else \
                (rng.uniform(0.5, 1.5, m * n) * rng.choice([-1, 1], m * n)).astype(dx)
        else:
            vals = _data(rng, m * n, dx)
        bases[f"x{i}"], bases[f"o{i}"] = vals, np.zeros(m * n, odt)
        grid = (1,) if two_d else (-(-(m * n) // bn),)
        nn = n if two_d else m * n
        launches.append((grid, [_arr(f"x{i}", dx, (m * n,), (1,)), _arr(f"o{i}", odt, (m * n,), (1,)), ("V", m),
                                ("V", nn)], {"BM": ("V", bm), "BN": ("V", bn)}))
    return Case("KNAME", src, launches, bases, dx in FLOATS, ["scans", op])


@st.composite
def dots(draw, rng_seed: int) -> Case:
    """`tl.dot` of small masked blocks (f16 or f32 inputs, an f32 accumulator carried over a K loop or not)."""
    dt = draw(st.sampled_from(["float16", "float32"]))
    bm, bn, bk = draw(st.sampled_from([(16, 16, 16), (32, 16, 16), (16, 32, 32)]))
    loop = draw(st.booleans())
    prec = ", input_precision=\"ieee\"" if dt == "float32" else ""
    if loop:
        core = f'''
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k0 in range(0, K, BK):
                ks = k0 + tl.arange(0, BK)
                a = tl.load(a_ptr + rm[:, None] * K + ks[None, :], mask=(rm[:, None] < M) & (ks[None, :] < K), other=0.0)
                b = tl.load(b_ptr + ks[:, None] * N + rn[None, :], mask=(ks[:, None] < K) & (rn[None, :] < N), other=0.0)
                acc += tl.dot(a, b{prec})
        '''
    else:
        core = f'''
            ks = tl.arange(0, BK)
            a = tl.load(a_ptr + rm[:, None] * K + ks[None, :], mask=(rm[:, None] < M) & (ks[None, :] < K), other=0.0)
            b = tl.load(b_ptr + ks[:, None] * N + rn[None, :], mask=(ks[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b{prec})
        '''
    src = HEADER + textwrap.dedent('''
        @triton.jit
        def KNAME(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
            rm = tl.program_id(0) * BM + tl.arange(0, BM)
            rn = tl.program_id(1) * BN + tl.arange(0, BN)''') + textwrap.indent(textwrap.dedent(core), "    ") + \
        textwrap.indent(textwrap.dedent('''
            tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
        '''), "    ") + FOOTER
    rng = np.random.default_rng(rng_seed)
    launches, bases = [], {}
    for i in range(2):
        m, n = draw(st.integers(1, 40)), draw(st.integers(1, 40))
        k = draw(st.integers(1, 40)) if loop else draw(st.integers(1, bk))
        bases[f"a{i}"], bases[f"b{i}"] = _data(rng, m * k, dt), _data(rng, k * n, dt)
        bases[f"c{i}"] = np.zeros(m * n, np.float32)
        launches.append(((-(-m // bm), -(-n // bn)), [_arr(f"a{i}", dt, (m, k), (k, 1)), _arr(f"b{i}", dt, (k, n), (n, 1)),
                                                      _arr(f"c{i}", "float32", (m, n), (n, 1)), ("V", m), ("V", n),
                                                      ("V", k)], {"BM": ("V", bm), "BN": ("V", bn), "BK": ("V", bk)}))
    return Case("KNAME", src, launches, bases, True, ["dots", "loop" if loop else "one"])


@st.composite
def atomics(draw, rng_seed: int) -> Case:
    """Masked atomics into a small histogram (`offs % K` or a loaded index): add / max / min / and / or / xor of
    int32 values (exact), add of f32 (order-dependent: within a tolerance)."""
    op = draw(st.sampled_from(["tl.atomic_add", "tl.atomic_max", "tl.atomic_min", "tl.atomic_and", "tl.atomic_or",
                               "tl.atomic_xor"]))
    dt = draw(st.sampled_from(["int32", "float32"])) if op == "tl.atomic_add" else "int32"
    target = draw(st.sampled_from(["offs % K", "idx"]))
    keep_old = draw(st.booleans())
    store_old = "\n    tl.store(old_ptr + offs, old, mask=m)" if keep_old and dt == "int32" and \
        op != "tl.atomic_add" else ""
    src = HEADER + textwrap.dedent(f'''
        @triton.jit
        def KNAME(x_ptr, i_ptr, h_ptr, old_ptr, n, K, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            m = offs < n
            x = tl.load(x_ptr + offs, mask=m, other=0)
            idx = tl.load(i_ptr + offs, mask=m, other=0)
            old = {op}(h_ptr + {target}, x, mask=m)''') + store_old + "\n" + FOOTER
    rng = np.random.default_rng(rng_seed)
    launches, bases = [], {}
    block = draw(st.sampled_from([16, 32]))
    for i in range(2):
        n, k = draw(st.integers(1, 90)), draw(st.integers(1, 9))
        bases[f"x{i}"] = _data(rng, n, dt)
        bases[f"i{i}"] = rng.integers(0, k, n).astype(np.int32)
        bases[f"h{i}"] = _data(rng, k, dt)
        bases[f"q{i}"] = np.zeros(n, dt)
        launches.append(((-(-n // block),), [_arr(f"x{i}", dt, (n,), (1,)), _arr(f"i{i}", "int32", (n,), (1,)),
                                             _arr(f"h{i}", dt, (k,), (1,)), _arr(f"q{i}", dt, (n,), (1,)), ("V", n),
                                             ("V", k)], {"BLOCK": ("V", block)}))
    return Case("KNAME", src, launches, bases, dt == "float32", ["atomics", op])


@st.composite
def randoms(draw, rng_seed: int) -> Case:
    """`tl.rand` / `tl.randn` / `tl.randint` of a runtime seed at the element offsets (Philox: the same bits on both
    sides; the floats from them within a tolerance), masked stores."""
    fn = draw(st.sampled_from(["tl.rand", "tl.randn", "tl.randint"]))
    odt = "int32" if fn == "tl.randint" else "float32"
    post = draw(st.sampled_from(["r", "tl.where(r > 0.5, r, 0.0)", "r * 2.0"])) if fn == "tl.rand" else "r"
    src = HEADER + textwrap.dedent(f'''
        @triton.jit
        def KNAME(out_ptr, n, seed, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            r = {fn}(seed, offs)
            tl.store(out_ptr + offs, {post}, mask=offs < n)
    ''') + FOOTER
    launches, bases = [], {}
    block = draw(st.sampled_from([16, 64]))
    for i in range(2):
        n = draw(st.integers(1, 100))
        bases[f"o{i}"] = np.zeros(n, odt)
        launches.append(((-(-n // block),), [_arr(f"o{i}", odt, (n,), (1,)), ("V", n),
                                             ("V", draw(st.integers(0, 2**31 - 1)))], {"BLOCK": ("V", block)}))
    return Case("KNAME", src, launches, bases, odt == "float32", ["randoms", fn])


#: the kernel templates (one entry each), drawn in random combination with the element-wise families
TEMPLATES = {"elementwise_1d": elementwise_1d, "rows_2d": rows_2d, "row_loop": row_loop, "scans": scans,
             "dots": dots, "atomics": atomics, "randoms": randoms}


@st.composite
def cases(draw, templates: tuple[str, ...] = tuple(TEMPLATES)) -> Case:
    t = draw(st.sampled_from(templates))
    return draw(TEMPLATES[t](draw(st.integers(0, 2**31))))


# ------------------------------------------------------------------------------------------------ running

INTERPRET = textwrap.dedent('''
    import importlib.util, os, pickle, sys, traceback
    os.environ["TRITON_INTERPRET"] = "1"
    import builtins
    import numpy as np, torch
    import triton.runtime.interpreter as interp

    class _IsInt(type):   # (Triton 3.6's interpreter holds a scalar argument as a 1-element array, which its
        def __instancecheck__(cls, o):   # `range(n)` int()s: numpy 2.4 refuses that; its int() made to take one)
            return isinstance(o, builtins.int)

        def __subclasscheck__(cls, c):
            return issubclass(c, builtins.int)

    class _int(metaclass=_IsInt):
        def __new__(cls, x=0, *a):
            if isinstance(x, np.ndarray) and x.size == 1 and not a:
                x = x.reshape(())
            return builtins.int(x, *a)
    interp.int = _int
    # (its maxnumf / minnumf — tl.maximum / tl.minimum's default, PropagateNan.NONE — are numpy's NaN-propagating
    # maximum / minimum; the GPU's max.f32 returns the operand that is no NaN: numpy's fmax / fmin)
    interp.InterpreterBuilder.create_maxnumf = lambda self, a, b: self.binary_op(a, b, np.fmax)
    interp.InterpreterBuilder.create_minnumf = lambda self, a, b: self.binary_op(a, b, np.fmin)
    out = {}
    for d in sys.argv[2:]:
        try:
            spec = importlib.util.spec_from_file_location("fz_" + os.path.basename(d), os.path.join(d, "k.py"))
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            res = []
            for name, grid, args, kw in mod.cases():
                def t(a):
                    return torch.from_numpy(a) if isinstance(a, np.ndarray) else a
                targs = [t(a) for a in args]
                getattr(mod, name)[grid](*targs, **{k: t(v) for k, v in kw.items()})
                res.append([a.numpy().copy() if torch.is_tensor(a) else None for a in targs])
            out[d] = ("ok", res)
        except Exception as e:  # noqa: BLE001
            out[d] = ("error", f"{type(e).__name__}: {e}"[:2000])
    pickle.dump(out, open(sys.argv[1], "wb"))
''')


def torch_python() -> str | None:
    """A Python with torch and triton (TILEPORT_TORCH_PYTHON), or None."""
    cand = os.environ.get("TILEPORT_TORCH_PYTHON")
    if cand and Path(cand).is_file():
        ok = subprocess.run([cand, "-c", "import torch, triton"], capture_output=True, timeout=300)
        if ok.returncode == 0:
            return cand
    return None


@dataclass
class Result:
    case: Case
    dir: Path
    outcome: str       # equal, close, refused, launch-refused | mismatch, crash, unlocated | model-gap, invalid
    detail: str = ""


#: outcomes that break the contract
BAD = ("mismatch", "crash", "unlocated")
LOCATED = re.compile(r"\.py:\d+(:\d+)?")


def write_cases(cs: list[Case], root: Path) -> list[Path]:
    dirs = []
    for i, c in enumerate(cs):
        d = root / f"c{i:04d}"
        d.mkdir(parents=True, exist_ok=True)
        name = f"fz{i:04d}"
        (d / "k.py").write_text(c.source.replace("KNAME", name))
        (d / "k.pkl").write_bytes(pickle.dumps({"name": name, "launches": c.launches, "bases": c.bases}))
        dirs.append(d)
    return dirs


def interpret(dirs: list[Path], python: str, out: Path) -> dict:
    """Triton's interpreter on every case directory (one subprocess): dir → ("ok", [args after each launch]) or
    ("error", message)."""
    script = out / "interpret.py"
    script.write_text(INTERPRET)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    res = subprocess.run([python, str(script), str(out / "triton.pkl"), *map(str, dirs)], capture_output=True,
                         text=True, timeout=3600, env=env)
    if res.returncode != 0:
        raise RuntimeError(f"Triton's interpreter failed: {res.stderr[-3000:]}")
    return {Path(k): v for k, v in pickle.loads((out / "triton.pkl").read_bytes()).items()}


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(f"tileport_fuzz_{path.parent.name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def compare(want: np.ndarray, got: np.ndarray, tolerance: bool, narrow: str | None = None) -> str | None:
    """None where equal (bitwise; within TOL for a float array where ``tolerance``: of its dtype, or of ``narrow``
    where the kernel computed in a narrower float), else what differs."""
    if want.dtype != got.dtype or want.shape != got.shape:
        return f"dtype/shape {want.dtype}{want.shape} vs {got.dtype}{got.shape}"
    w, g = want.reshape(-1), got.reshape(-1)
    if w.dtype.kind == "f":
        same = (w == g) | (np.isnan(w) & np.isnan(g))
        if tolerance and not same.all():
            tol = max(TOL.get(str(w.dtype), 1e-6), TOL.get(narrow or "", 0.0))
            w64, g64 = w.astype(np.float64), g.astype(np.float64)
            with np.errstate(invalid="ignore"):
                same |= np.abs(w64 - g64) <= tol * np.maximum(np.abs(w64), 1.0)
    else:
        same = w.view(np.uint8).reshape(w.size, -1) == g.view(np.uint8).reshape(g.size, -1)
        same = same.all(axis=1) if same.ndim > 1 else same
    if same.all():
        return None
    bad = np.flatnonzero(~same)
    return f"{bad.size} of {w.size} differ; at {bad[:4].tolist()} Triton {w[bad[:4]].tolist()} lowered " \
           f"{g[bad[:4]].tolist()}"


def check_lowered(d: Path, c: Case, triton_out: tuple) -> Result:
    """Lower the case (its launches captured on numpy), run each launch through the numpy model, compare."""
    from ..cutile_py.capture import run_captured
    from ...pipeline.triton import lower_from_launches

    name = f"fz{d.name[1:]}"
    if triton_out[0] != "ok":
        return Result(c, d, "invalid", triton_out[1])
    try:
        launches = list(run_captured(d / "k.py", []).launches.values())
        lowered = lower_from_launches(f"{d / 'k.py'}::{name}", launches)
        lowered.write(d / "lowered" / "lowered.py")
    except TileportError as e:
        msg = str(e)
        return Result(c, d, "refused" if LOCATED.search(msg) else "unlocated", msg[:1500])
    except Exception:  # noqa: BLE001
        return Result(c, d, "crash", traceback.format_exc()[-3000:])
    mod = _module(d / "k.py")
    jit = getattr(mod, name)
    tolerance = c.tolerance
    # an f16 value anywhere (an argument, a cast) bounds every float result's precision: f16's tolerance
    narrow = "float16" if "float16" in c.source or any(b.dtype == np.float16 for b in c.bases.values()) else None
    notes = []
    for i, ((_, grid, args, kw), want) in enumerate(zip(mod.cases(), triton_out[1])):
        try:
            run_lowered(d / "lowered", jit, grid, args, kw, CtModel)
        except ModelGap as e:
            return Result(c, d, "model-gap", str(e))
        except TileportError as e:
            msg = str(e)
            return Result(c, d, "launch-refused", msg[:1500])
        except Exception:  # noqa: BLE001
            tb = traceback.format_exc()
            return Result(c, d, "crash", f"launch {i}: running the lowered kernel on numpy\n{tb[-3000:]}")
        for k, (a, w) in enumerate(zip(args, want)):
            if not isinstance(a, np.ndarray):
                continue
            diff = compare(w, np.ascontiguousarray(a), tolerance, narrow)
            if diff:
                return Result(c, d, "mismatch", f"launch {i} grid {grid} argument {k}: {diff}")
            if tolerance and a.dtype.kind == "f" and not np.array_equal(w, a, equal_nan=True):
                notes.append(f"a{k}")
    return Result(c, d, "close" if notes else "equal", ",".join(notes))


def run_cases(cs: list[Case], root: Path, python: str, log: Callable[[str], None] = lambda s: None) -> list[Result]:
    root.mkdir(parents=True, exist_ok=True)
    dirs = write_cases(cs, root)
    tri = interpret(dirs, python, root)
    out = []
    for d, c in zip(dirs, cs):
        r = check_lowered(d, c, tri[d])
        (d / "result.json").write_text(json.dumps({"outcome": r.outcome, "detail": r.detail,
                                                   "families": c.families}, indent=1))
        out.append(r)
        if r.outcome in BAD:
            log(f"{d}: {r.outcome}: {r.detail[:300]}")
    return out


def draw_cases(n: int, seed: int | None = None, templates: tuple[str, ...] = tuple(TEMPLATES)) -> list[Case]:
    """``n`` cases: derandomized (the same every run) where ``seed`` is None, else that seed's draws."""
    from hypothesis import HealthCheck, given, settings
    drawn: list[Case] = []

    @settings(max_examples=n, derandomize=seed is None, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(cases(templates))
    def collect(c):
        drawn.append(c)

    if seed is not None:
        from hypothesis import seed as hseed
        collect = hseed(seed)(collect)
    collect()
    return drawn[:n]


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use scripts/fuzz_triton.py")
