"""Lower a ``@triton.jit`` kernel to a cuTile Python kernel with the same semantics (then ported like any other).

Pointer arithmetic is evaluated symbolically: ``ptr + pid * BLOCK + tl.arange(0, BLOCK)`` is a tile at tile index
``pid`` of size BLOCK along one dimension, ``row * stride`` a size-1 dimension of stride ``stride`` at index
``row``; a mask ``offs < n`` bounds the dimension ``offs`` runs along by ``n``. Each pointer parameter becomes an
array view (`views.py`) and each masked load/store a padded ``ct.load`` / bounds-checked ``ct.store`` of it. Block
pointers (``tl.make_block_ptr``) name their view directly; ``tl.advance`` by one block per iteration of a loop
becomes the loop index in the tile index. Value arithmetic maps one to one (``MAP`` below), except that an f32
``tl.exp`` becomes what Triton itself compiles it to, ``exp2(x * log2 e)`` (``ct.exp2(x * LOG2E)``). Likewise an f32 ``/``
(Triton: ``div.full.f32``), ``tl.sqrt`` (``sqrt.approx.ftz.f32``) and ``tl.rsqrt`` (``rsqrt.approx.ftz.f32``):
their sm_90 machine code, read with nvdisasm from Triton 3.6's cubins and from the lowered forms' (tileiras 13.4),
is the same instructions — ``div.full.f32`` is the reciprocal approximation of the denominator times the numerator,
both first scaled by 1/4 where the denominator's magnitude exceeds 2**126 and by 2**24 where it is below 2**-126;
cuTile's APPROX division does the second scaling itself, so the lowering writes the first
(``_Lowerer.triton_div``) — and ``sqrt``/``rsqrt`` are one MUFU instruction each, cuTile's with APPROX rounding and
flush-to-zero. So the port computes Triton's quotients and roots bit for bit, at Triton's cost (an IEEE division
is several times the instructions: measured, it dominated 16-bit softmax and the dropouts). ``tl.math.div_rn``,
``tl.sqrt_rn``, ``ieee_rounding=True`` and libdevice's functions keep IEEE rounding; the ``ieee_div`` option makes
every f32 ``/`` IEEE. The ``plain_stores`` option gives every lowered ``ct.store`` ``allow_tma=False``: stores from
registers instead of a shared-memory stage and a TMA store (a performance hint, no change in what is stored; the
row kernels' choice, benchmarks/results/h200/tuning/rows-notma); ``plain_loads`` does the same for every ``ct.load``
(Triton's pointer loads are LDG, never TMA: with 8 worker warps at occupancy 2, the tutorial's layer-norm backward
went from 2.04x to 1.04x Triton's time on an H100, benchmarks/results/h100/triton-corpus/run-2026-12-06-s10; off
by default, since it made the dW/dB reduction and the matmul tutorial slower).

Anything else is refused with ``file:line:col`` and what to write instead: a lowering that is not exact is never
produced. The lowered kernel is ordinary cuTile Python: the port's IR diff proves the Rust against it, and the GPU
tests compare the port with the Triton kernel itself.
"""
from __future__ import annotations

import ast
import copy
import contextlib
import math
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator

from ...astwalk import walk_nodes
from ...errors import TileportError
from . import linear
from .source import TritonKernel
from .views import Dim, View, descriptor_dims


class LoweringError(TileportError):
    def __init__(self, kernel: TritonKernel, node: ast.AST | None, why: str):
        line = getattr(node, "lineno", kernel.line)
        col = getattr(node, "col_offset", 0) + 1
        where = getattr(node, "tileport_file", kernel.path)   # an imported helper's node: its own file
        self.file, self.line, self.col = str(where), line, col
        super().__init__(f"{where}:{line}:{col}: {why} (what the Triton frontend lowers: docs/coverage.md)")


#: triton.language element-wise math → cuda.tile (same argument order and meaning)
MAP = {"exp": "ct.exp", "exp2": "ct.exp2", "log": "ct.log", "log2": "ct.log2", "sqrt": "ct.sqrt",
       "rsqrt": "ct.rsqrt", "abs": "ct.abs", "sin": "ct.sin", "cos": "ct.cos", "floor": "ct.floor",
       "ceil": "ct.ceil", "maximum": "ct.maximum", "minimum": "ct.minimum", "where": "ct.where", "tanh": "ct.tanh",
       "sinh": "ct.sinh", "cosh": "ct.cosh", "tan": "ct.tan", "pow": "ct.pow", "atan2": "ct.atan2",
       # IEEE square root rounded to nearest (cuTile's sqrt rounds so by default)
       "sqrt_rn": "ct.sqrt"}
#: triton.language's functional operators (core.py `add` / `sub` / `mul`: `x + y` with `sanitize_overflow`, which
#: only adds overflow checks under TRITON_DEBUG — the value is the operator's)
OPERATOR_FNS = {"add": ast.Add, "sub": ast.Sub, "mul": ast.Mult}
#: triton.language functions that only promise the compiler facts (alignment, contiguity): the value itself
HINT_FNS = ("max_contiguous", "multiple_of", "max_constancy", "assume")
#: |denominator| above which div.full.f32 scales both operands by 1/4 (2**126; _Lowerer.triton_div)
DIV_FULL_SCALED_ABOVE = float(2 ** 126)
#: namespaces under triton.language that hold functions (`tl.math.rsqrt`, `tl.extra.cuda.libdevice.tanh`)
TL_NAMESPACES = ("math", "extra", "cuda", "libdevice", "standard")
REDUCE = {"sum": "ct.sum", "max": "ct.max", "min": "ct.min"}
#: the keywords Triton 3.6's tl.sum / tl.max / tl.min take (language/standard.py)
REDUCE_KEYWORDS = {"sum": ("input", "axis", "keep_dims", "dtype"),
                   "max": ("input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"),
                   "min": ("input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims")}
#: the type tl.sum adds a narrow integer tile in (triton.language's _pick_sum_dtype: 32 bits, the same sign)
SUM_WIDENED = {"ct.int8": "ct.int32", "ct.int16": "ct.int32", "ct.uint8": "ct.uint32", "ct.uint16": "ct.uint32"}
#: libdevice roundings written with floor / ceil (exact: _Lowerer.rounding)
ROUNDINGS = ("rint", "round", "trunc", "nearbyint")
#: libdevice functions written exactly from their bits (libdevice.10.bc; _Lowerer.libdevice_bits): arity
LIBDEVICE_BITS = {"fmax": 2, "fmin": 2, "copysign": 2, "signbit": 1}
#: more libdevice functions written exactly from libdevice.10.bc (_Lowerer.libdevice_more): arity
LIBDEVICE_MORE = {"saturatef": 1, "fdim": 2, "float_as_int": 1, "int_as_float": 1, "float_as_uint": 1,
                  "uint_as_float": 1, "mulhi": 2, "hadd": 2, "rhadd": 2, "mul24": 2, "ffs": 1}
#: libdevice's conversions ct.astype makes exactly (`__nv_int2float_rn` is cvt.rn.f32.s32, `__nv_double2float_rz`
#: cvt.rz.f32.f64; integers to floats rounded to nearest, cuTile's itof): name → (operand dtype, result dtype,
#: rounding mode or None) (_Lowerer.libdevice_convert)
LIBDEVICE_CONVERT = {f"{s}2{d}_rn": (src, dst, None)
                     for s, src in (("int", "ct.int32"), ("uint", "ct.uint32"), ("ll", "ct.int64"), ("ull", "ct.uint64"))
                     for d, dst in (("float", "ct.float32"), ("double", "ct.float64"))} | {
    "double2float_rn": ("ct.float64", "ct.float32", None), "double2float_rz": ("ct.float64", "ct.float32", "RZ")}
#: libdevice's bit-level functions of doubles and its absolute differences (_Lowerer.libdevice_convert): arity
LIBDEVICE_DOUBLE_BITS = {"double2hiint": 1, "double2loint": 1, "hiloint2double": 2, "double_as_longlong": 1,
                         "longlong_as_double": 1, "sad": 3}
#: libdevice's reciprocals by rounding mode (`__nv_frcp_rn`: rcp.rn.ftz.f32 under Triton) → ct.truediv(1, x) rounded so
LIBDEVICE_RCP = re.compile(r"rcp_(rn|rz|rd|ru)")
#: libdevice functions refused with their reason, by pattern (was: "is not lowered (supported: ..)")
LIBDEVICE_REFUSED = (
    (re.compile(r"fast_(logf|log2f|log10f|sinf|cosf|tanf|powf|exp10f)"),
     "libdevice's {f} is an approximate PTX instruction (lg2 / sin / cos .approx.ftz.f32 and sums of them): cuTile "
     "Python 1.7 has no approximate form of it, and its exact function would not give Triton's values"),
    (re.compile(r"(int|uint|ll|ull)2(float|double)_(rz|rd|ru)"),
     "cuTile Python 1.7 converts integers to floats rounded to nearest only (ct.astype takes a rounding mode for "
     "float-to-float conversions); {f} rounds otherwise"),
    (re.compile(r"double2float_(rd|ru)"),
     "only double2float_rn / double2float_rz are lowered (ct.astype's RN / RZ); rounding toward -inf / +inf is not"),
    (re.compile(r"(float|double)2(uint|ull)_(rn|rz|rd|ru)"),
     "a float to an unsigned integer is not lowered (PTX's cvt saturates negative values to 0; ct.astype's "
     "conversion of them is not defined alike)"),
    (re.compile(r"fma_(rz|rd|ru)"), "cuTile Python 1.7's fused multiply-add has no rounding mode but to nearest"),
    (re.compile(r"rsqrt_rn"), "a correctly rounded reciprocal square root: cuTile Python 1.7's ct.rsqrt is the "
                              "approximate rsqrt.approx, and 1 / sqrt(x) rounds twice"),
)
#: triton.language math functions whose operands Triton 3.6 checks (language/math.py, `_check_dtype`): their dtypes
TL_MATH_DTYPES = {f: ("ct.float32", "ct.float64") for f in ("exp", "exp2", "log", "log2", "cos", "sin", "sqrt",
                                                             "rsqrt", "erf", "floor", "ceil")} | {
    "sqrt_rn": ("ct.float32",)}
#: Triton's `tl.dtype` predicates (`x.dtype.is_floating()`) and widths, of each cuTile dtype the lowering names
DTYPE_FACTS = {
    dt: {"bits": bits, "is_floating": kind == "f", "is_int": kind in "iu", "is_int_signed": kind == "i",
         "is_int_unsigned": kind == "u", "is_bool": kind == "b", "is_fp8": kind == "f" and bits == 8,
         "is_fp16": dt == "ct.float16", "is_bf16": dt == "ct.bfloat16", "is_fp32": dt == "ct.float32",
         "is_fp64": dt == "ct.float64", "is_int8": dt == "ct.int8", "is_int16": dt == "ct.int16",
         "is_int32": dt == "ct.int32", "is_int64": dt == "ct.int64", "is_uint8": dt == "ct.uint8",
         "is_uint16": dt == "ct.uint16", "is_uint32": dt == "ct.uint32", "is_uint64": dt == "ct.uint64",
         "is_fp8e4nv": dt == "ct.float8_e4m3fn", "is_fp8e5": dt == "ct.float8_e5m2"}
    for dt, kind, bits in (("ct.float32", "f", 32), ("ct.float16", "f", 16), ("ct.bfloat16", "f", 16),
                           ("ct.float64", "f", 64), ("ct.float8_e4m3fn", "f", 8), ("ct.float8_e5m2", "f", 8),
                           ("ct.int8", "i", 8), ("ct.int16", "i", 16), ("ct.int32", "i", 32), ("ct.int64", "i", 64),
                           ("ct.uint8", "u", 8), ("ct.uint16", "u", 16), ("ct.uint32", "u", 32),
                           ("ct.uint64", "u", 64), ("ct.bool_", "b", 1), ("bool", "b", 1))}
#: libdevice's float → signed integer conversions by rounding mode (_Lowerer.float_to_int; the unsigned ones not)
FLOAT_TO_INT = re.compile(r"(float|double)2(int|ll)_(rn|rz|rd|ru)")
#: libdevice's explicitly rounded arithmetic (`add_rz(x, y)`: `__nv_fadd_rz`, one IEEE operation never contracted into
#: an fma) → the cuTile function and its rounding mode (`div_rn` is the IEEE `/` above)
ROUNDED_ARITH = re.compile(r"(add|sub|mul|div)_(rn|rz|rd|ru)")
ROUNDED_ARITH_CT = {"add": "ct.add", "sub": "ct.sub", "mul": "ct.mul", "div": "ct.truediv"}
ROUNDING_MODES = {"rn": "RN", "rz": "RZ", "rd": "RM", "ru": "RP"}
#: libdevice's float class tests (a boolean tile: _Lowerer.float_test)
FLOAT_TESTS = ("isnan", "isinf", "finitef", "isfinited")
#: libdevice.10.bc's __nv_erff (Triton 3.6's tl.math.erf, _Lowerer.erf): |x| from which the second polynomial is
#: taken, and the coefficients of its fused multiply-adds, highest first (f32 values: each exact in f32)
ERF_BIG = 1.002959966659546
ERF_BIG_COEFFS = (1.6425845387857407e-05, -0.0004680210549850017, 0.0052647641859948635, -0.034303076565265656,
                  0.1532936990261078, 0.9163130521774292, 0.6282998323440552)
ERF_SMALL_COEFFS = (8.483494457323104e-05, -0.0008213091641664505, 0.005213488824665546, -0.026868773624300957,
                    0.11284004896879196, -0.37612664699554443, 0.12837915122509003)
#: triton.language functions cuTile Python 1.7 has no counterpart of (docs/triton.md, "Limits met")
NO_CUTILE = {f: f"cuTile Python 1.7 has no {f} (and an approximation would not be Triton's libdevice result)"
             for f in ("erf", "erfc", "erfinv", "lgamma", "expm1", "log1p", "cbrt", "atan", "asin", "acos", "asinh",
                       "acosh", "atanh", "hypot", "tgamma", "j0", "j1", "y0", "y1", "exp10", "log10", "log1pf",
                       "remainder", "remquo", "nextafter", "ilogb", "logb", "frexp", "ldexp", "scalbn", "erfcx",
                       "normcdf", "normcdfinv", "rcbrt", "sinpi", "cospi", "exp2m1", "sincos")} | {
    "inline_asm_elementwise": "inline PTX has no cuTile Python counterpart",
    # Triton <= 3.3's loads through a host-filled TMA descriptor buffer (gone in Triton 3.6, which cannot compile
    # the kernel either): the buffer is bytes, its tensor's shape and strides are not arguments of the kernel
    "_experimental_descriptor_load": "it reads a host-filled TMA descriptor buffer (Triton <= 3.3; removed in Triton "
                                     "3.6, which cannot compile this kernel): the tensor it describes is not a kernel "
                                     "argument. Triton 3.6 writes it `desc.load(offsets)` on a TensorDescriptor "
                                     "argument or tl.make_tensor_descriptor, which are lowered",
    "_experimental_descriptor_store": "as tl._experimental_descriptor_load",
    "pointer_type": "a pointer made by a conversion (`tl.load(ptrs + g).to(tl.pointer_type(..))`, a loaded address; "
                    "`p.to(tl.pointer_type(tl.int32))`, an array's memory read as another dtype) has no cuTile Python "
                    "1.7 counterpart: arrays are kernel parameters of one dtype, never loaded addresses "
                    "(docs/triton.md)"}
#: triton.language functions Triton also offers as tensor methods (`x.sum(axis=1)`, `x.exp()`, `x.argmax(0)`)
MEMBER_FNS = ("sum", "max", "min", "argmax", "argmin", "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "abs", "sin",
              "cos", "sigmoid", "cumsum", "cumprod", "broadcast_to", "expand_dims", "split", "reduce", "floor", "ceil",
              "flip", "softmax", "histogram",
              # (the rest of Triton 3.6's `_tensor_member_fn`s that are functions here: `x.xor_sum(1)`,
              # `x.associative_scan(0, f)`, `x.cast(tl.float16)` .. were "call `x.xor_sum` is not supported";
              # trans / permute / reshape / view / ravel, store / atomic_*, advance are read where they are met)
              "associative_scan", "xor_sum", "reduce_or", "gather", "cdiv", "erf", "sqrt_rn", "cast")
#: tensor members Triton 3.6 cannot compile, with its reason (read with triton.compile for sm_90 on the CPU): they
#: were lowered as the functions, porting what Triton refuses
MEMBER_REFUSED = {"sort": "Triton 3.6's `tensor.sort` does not compile (\"cannot convert None of type <class "
                          "'NoneType'> to tensor\"); tl.sort(x, ..) does",
                  "topk": "Triton 3.6's tensor has no `topk` member (an AttributeError); tl.topk(x, k) is the function"}
#: triton.language functions written with other cuTile functions → the _Lowerer method that writes them
DERIVED = {"zeros_like": "like", "ones_like": "like", "full_like": "like", "fma": "fma", "clamp": "clamp",
           "split": "split", "join": "join", "interleave": "join", "argmax": "arg_reduce", "argmin": "arg_reduce",
           "reduce": "reduce", "broadcast_to": "broadcast_to", "expand_dims": "expand_dims", "flip": "flip",
           "softmax": "softmax", "histogram": "histogram", "sort": "sort", "topk": "sort", "bitonic_merge": "sort",
           "gather": "tile_gather", "xor_sum": "bitwise_reduce", "reduce_or": "bitwise_reduce", "umulhi": "umulhi"}
#: why tl.dot of f32 tiles at Triton's default precision is refused, with an accumulator or without
F32_DOT_AT_TF32 = ("tl.dot of f32 operands at Triton's default precision (tf32: the GPU rounds the operands to tf32) "
                   "is not lowered: ct.mma of f32 tiles multiplies in f32; input_precision=\"ieee\" / "
                   "allow_tf32=False (f32 products) is")
DTYPES = {"float32": "ct.float32", "float16": "ct.float16", "bfloat16": "ct.bfloat16", "int32": "ct.int32",
          "int64": "ct.int64", "int8": "ct.int8", "int16": "ct.int16", "uint8": "ct.uint8", "uint32": "ct.uint32",
          "float64": "ct.float64", "int1": "ct.bool_", "uint16": "ct.uint16", "uint64": "ct.uint64",
          "float8e4nv": "ct.float8_e4m3fn", "float8e5": "ct.float8_e5m2"}
#: a triton.language dtype's own name (as captured: `OUT_DTYPE=tl.float16` is "tl.fp16") → its name in DTYPES
TRITON_DTYPE_NAMES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64", "int1": "int1",
                      "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8",
                      "uint16": "uint16", "uint32": "uint32", "uint64": "uint64", "fp8e4nv": "float8e4nv",
                      "fp8e5": "float8e5"}
#: a cuTile dtype's name in Triton's messages (`fp16`, `int1`): DTYPES and TRITON_DTYPE_NAMES read backwards
TRITON_NAMES_OF = {DTYPES[name]: short for short, name in TRITON_DTYPE_NAMES.items()} | {"bool": "int1"}
#: Triton's atomics (each lowered to the ct. function of the same name)
ATOMICS = ("atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg",
           "atomic_cas")
#: a tensor descriptor's methods (Triton 3.6, core.py `tensor_descriptor_base`)
DESCRIPTOR_METHODS = ("load", "store", "gather", "scatter", "atomic_add", "atomic_min", "atomic_max", "atomic_and",
                      "atomic_or", "atomic_xor")
#: the dtypes of boolean tiles (a comparison's, `tl.int1`)
BOOL = ("bool", "ct.bool_")
INT_DTYPES = ("ct.int32", "ct.int64", "ct.int8", "ct.int16", "ct.uint8", "ct.uint32")
#: integer dtypes narrower than a gather's int32 index (widened to it, as Triton extends a pointer's offset)
NARROW_INT_INDEX = ("ct.int8", "ct.int16", "ct.uint8", "ct.uint16")
#: capture dtype names (frontends.arrays) → the cuTile dtype a loaded tile has
CAPTURED_DTYPES = {"f32": "ct.float32", "f16": "ct.float16", "bf16": "ct.bfloat16", "f64": "ct.float64",
                   "i32": "ct.int32", "i64": "ct.int64", "i8": "ct.int8", "i16": "ct.int16", "u8": "ct.uint8",
                   "f8e4m3fn": "ct.float8_e4m3fn", "f8e5m2": "ct.float8_e5m2",
                   # (unsigned arrays were left "u32": never known as unsigned — umulhi of one was refused)
                   "u16": "ct.uint16", "u32": "ct.uint32", "u64": "ct.uint64"}
PADDING = {0.0: "ZERO", float("-inf"): "NEG_INF", float("inf"): "POS_INF"}
#: keyword arguments of tl.load / tl.store that only tune caching: dropped, and said so in the lowering report
CACHE_HINTS = ("cache_modifier", "eviction_policy", "volatile")
BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
          ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.RShift: ">>", ast.LShift: "<<"}
CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


F32 = "ct.float32"
FLOAT_DTYPES = (F32, "ct.float16", "ct.bfloat16", "ct.float64")
#: the operand dtypes Triton divides in f32 (16-bit floats upcast for `/`; f64 and fp8 are not among them)
DIVIDED_IN_F32 = frozenset({F32, "ct.float16", "ct.bfloat16"})
#: integer operands Triton's `/` converts to f32 before dividing (semantic.truediv: int / int as f32 / f32)
INTS_DIVIDED_IN_F32 = frozenset({"ct.int8", "ct.int16", "ct.int32", "ct.int64", "ct.uint8", "ct.uint16", "ct.uint32"})
#: log2(e): Triton's f32 exp is exp2 of x times this
LOG2E = 1.4426950408889634


# ---------------------------------------------------------------- symbolic values

@dataclass(frozen=True)
class Scalar:
    text: str
    factors: tuple[str, str] | None = None  # `a * b` of two plain names: a stride times an index, maybe


#: a helper's parameter bound to the literal None (`def _load_opt(p, mask=None)`): an absent mask or other
_NONE = Scalar("None")


@dataclass(frozen=True)
class Idx:
    """``index * size + tl.arange(0, size)`` placed on ``axis`` of a rank-``rank`` tile."""
    index: str
    size: str
    axis: int = 0
    rank: int = 1
    #: ``(index * size + tl.arange(0, size)) % wrap`` (the matmul tutorial's row wrap): read as a tile of a view of
    #: extent ``wrap`` along this axis, when the lanes outside ``[0, wrap)`` are unobservable (``_junk_unobservable``)
    wrap: str | None = None

    def same_run(self, other: "Idx") -> bool:
        return (self.index, self.size, self.axis, self.wrap) == (other.index, other.size, other.axis, other.wrap)


@dataclass(frozen=True)
class Term:
    stride: str
    index: "Idx | str | Tile"  # a str index is a scalar (a size-1 dimension); a Tile, computed offsets (a gather)


@dataclass(frozen=True)
class Offset:
    terms: tuple[Term, ...]


@dataclass(frozen=True)
class Ptr:
    param: str
    terms: tuple[Term, ...] = ()


@dataclass(frozen=True)
class Mask:
    conds: tuple[tuple[Idx, str], ...]


@dataclass(frozen=True)
class BlockPtr:
    param: str
    base: tuple[Term, ...]   # scalar terms only
    shape: tuple[str, ...]
    strides: tuple[str, ...]
    index: tuple[str, ...]   # tile index per block dimension (offset / block size)
    block: tuple[str, ...]
    #: the element offset per block dimension, where one of them is not whole blocks (`(pid * BM + 1, 0)`): its
    #: loads and stores gather / scatter those elements (`_Lowerer.block_ptr_indices`); None: tiles at ``index``
    elems: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Desc:
    """A tensor descriptor: a kernel parameter (a host ``TensorDescriptor``) or ``tl.make_tensor_descriptor``."""
    param: str
    shape: tuple[str, ...]
    strides: tuple[str, ...]
    block: tuple[str, ...]
    padding: str = "ZERO"


@dataclass(frozen=True)
class _Stale:
    """A name whose value is computed from a loop's index, after that loop (Python's value of the last iteration;
    cuTile Python has no loop index after its loop: "Use of potentially undefined variable")."""
    line: int


@dataclass(frozen=True)
class _Diverged:
    """A pointer (mask) the arms of a runtime `if` bound differently (or an index vector the arms of an `if` on
    constexprs did): no value after it."""
    name: str
    line: int


@dataclass(frozen=True)
class Tile:
    text: str
    shape: tuple[str, ...]
    dtype: str | None = None


@dataclass(frozen=True)
class DType:
    text: str


@dataclass
class Lowered:
    kernel: TritonKernel
    source: str
    params: list[dict]            # the lowered kernel's parameters: name, kind, (annotation)
    views: dict[str, View]
    notes: list[str] = field(default_factory=list)
    hints: dict[str, int] = field(default_factory=dict)
    #: pointer parameter → (line, col) of the access that first shaped its view (where a launch's refusal points)
    sites: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: per-launch kernel options ([{"when": {constexpr: value(s)}, "hints": {...}}], a hints file's: corpus/hints.py)
    launch_hints: list[dict] = field(default_factory=list)
    #: captured launches a constexpr arm they alone reach refused ([{"when": {constexpr: value}, "error": ..}]: the
    #: kernel is lowered for the others; a launch meeting a "when" is refused at run time with its error)
    refused_launches: list[dict] = field(default_factory=list)
    #: the captured launches it was lowered for (``pipeline.triton.lower_from_launches``: all but those refused)
    launches: list[dict] = field(default_factory=list)

    def report(self) -> dict:
        from ...pipeline.port import _display

        return {"kernel": self.kernel.name, "source": _display(self.kernel.path), "line": self.kernel.line,
                "params": self.params, "views": {k: v.as_json() for k, v in self.views.items()},
                "hints": self.hints, "notes": self.notes,
                **({"launch_hints": self.launch_hints} if self.launch_hints else {}),
                **({"refused_launches": self.refused_launches} if self.refused_launches else {})}

    def report_text(self) -> str:
        return json.dumps(self.report(), indent=1) + "\n"

    def write(self, path: Path) -> Path:
        """``path`` (a .py file) gets the lowered kernel, ``path`` with .json its report (views, notes)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.source)
        path.with_suffix(".json").write_text(self.report_text())
        return path


def _returns_as_assignments(stmts: list[ast.stmt], var: str) -> list[ast.stmt] | None:
    """A helper's statements with every `return v` an assignment `var = v` (`return a, b`: `var0 = a; var1 = b`),
    what follows an `if` that returns in some arm copied into each arm (so each path assigns once, last); None when
    a path falls off the end, returns nothing, returns inside a loop, or paths return different arities. The last
    statement carries the arity (None for a single value) as ``tileport_arity``."""
    import copy

    arity: list[int | None] = []

    def walk(stmts: list[ast.stmt]) -> list[ast.stmt] | None:
        out: list[ast.stmt] = []
        for i, st in enumerate(stmts):
            if isinstance(st, ast.Return):
                if st.value is None:
                    return None
                vals = st.value.elts if isinstance(st.value, ast.Tuple) else [st.value]
                arity.append(len(vals) if isinstance(st.value, ast.Tuple) else None)
                names = [f"{var}{k}" for k in range(len(vals))] if isinstance(st.value, ast.Tuple) else [var]
                for name, v in zip(names, vals):
                    out.append(ast.copy_location(ast.Assign(targets=[ast.Name(name, ast.Store())], value=v), st))
                return out
            if isinstance(st, ast.If) and any(isinstance(n, ast.Return) for n in walk_nodes(st)):
                rest = [copy.deepcopy(r) for r in stmts[i + 1:]]
                body, orelse = walk(list(st.body) + rest), walk(list(st.orelse) + [copy.deepcopy(r) for r in rest])
                if body is None or orelse is None:
                    return None
                out.append(ast.copy_location(ast.If(test=st.test, body=body, orelse=orelse), st))
                return out
            if any(isinstance(n, ast.Return) for n in walk_nodes(st)):
                return None
            out.append(st)
        return None

    out = walk(stmts)
    if out is None or len(set(arity)) != 1:
        return None
    out[-1].tileport_arity = arity[0]  # type: ignore[attr-defined]
    return out


def _plus(a: str, b: str) -> str:
    """``a + b`` as index text; ``a + (-x)`` (`c_ptr + DEG - i`: a pointer minus a scalar) written ``a - x``
    (cutile 0.3.1 compiles no negation of a variable: "Non-const unary expressions not supported")."""
    if b.startswith("-") and _paren(b[1:]) == b[1:]:
        return f"{_paren(a)} - {b[1:]}"
    return f"{_paren(a)} + {_paren(b)}"


def _is_none(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) and e.value is None


def _wide_int(value: int) -> "Tile":
    """An integer literal beyond 32 bits (`tl.where(m, x, -9223372036854775807)` on int64 tiles) as an int64 0-d tile
    computed from 16-bit pieces: cutile 0.3.1 parses every integer literal as i32, and cuTile Python and the
    translator take none beyond it. Exact: every partial value lies in int64."""
    if not -2**63 <= value < 2**63:
        raise ValueError(value)
    q = [(value >> s) & 0xFFFF for s in (0, 16, 32)]
    text = f"ct.full((), {value >> 48}, dtype=ct.int64)"
    for piece in reversed(q):
        text = f"({text} * 65536 + {piece})"
    return Tile(text, (), "ct.int64")


def _paren(text: str) -> str:
    simple = text.replace("_", "").replace(".", "").isalnum() or (text.startswith("ct.") and text.endswith(")")
                                                                  and text.count("(") == 1)
    return text if simple or (text.startswith("(") and text.endswith(")") and _balanced(text[1:-1])) else f"({text})"


def _renamed(st: ast.stmt, old: str, new: str) -> ast.stmt:
    """A copy of ``st`` with every name ``old`` read or written as ``new`` (locations kept for the errors)."""
    import copy

    out = copy.deepcopy(st)
    for n in walk_nodes(out):
        if isinstance(n, ast.Name) and n.id == old:
            n.id = new
    return out


#: names the lowered kernel's own code reads (`import cuda.tile as ct`): a kernel variable of that name is renamed
RESERVED_NAMES = ("ct",)


def _reserved_renamed(body: list[ast.stmt], params: set[str]) -> list[ast.stmt]:
    """``body`` with each local variable named like a module the lowered code reads (`ct = tl.load(c_ptr)`, C at
    time t in a scan) renamed to a free name (`ct_`), so the lowered kernel's `ct.` calls still reach cuda.tile."""
    used = {n.id for st in body for n in walk_nodes(st) if isinstance(n, ast.Name)}
    for old in RESERVED_NAMES:
        if old in used and old not in params:
            new = old + "_"
            while new in used or new in params:
                new += "_"
            body = [_renamed(st, old, new) for st in body]
            used.add(new)
    return body


def _i32_literal(text: str) -> bool:
    """``text`` is an integer literal Triton types int32 (in [-2**31, 2**31))."""
    try:
        v = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError):
        return False
    return isinstance(v, int) and not isinstance(v, bool) and -2 ** 31 <= v < 2 ** 31


def _merged(terms: tuple[Term, ...], quotient=None) -> tuple[Term, ...]:
    """``terms`` with a scalar term ``i * B`` folded into a unit-stride run ``tl.arange(0, B)`` of the same size, the
    pointer's only run: ``p + pid * B + tl.arange(0, B)`` addresses tile ``pid`` of a size-B dimension, as
    ``p + (pid * B + ..)``. ``quotient(index, stride, size)``, when given, finds the tile index of a scalar term
    whose constexpr stride is a fraction of the run's size (``p + pid * 2 * BLOCK + tl.arange(0, 2 * BLOCK)``:
    term ``(pid * 2) * BLOCK``, tile ``pid``), or None."""
    out: list[Term] = []
    for t in terms:   # scalar terms of one stride are one index (`cu_ptr + seq + 1`: element seq + 1)
        same = next((k for k, o in enumerate(out) if isinstance(o.index, str) and isinstance(t.index, str)
                     and o.stride == t.stride), None)
        if same is None:
            out.append(t)
        else:
            out[same] = Term(t.stride, _plus(out[same].index, t.index))  # type: ignore[arg-type]
    terms = tuple(out)
    if sum(isinstance(t.index, Idx) for t in out) != 1:   # (with other runs, `i * B` may be a row of another one)
        return terms
    for k, run in enumerate(out):
        if not (isinstance(run.index, Idx) and run.stride == "1" and run.index.index == "0") or run.index.wrap:
            continue
        hit = next((t for t in out if isinstance(t.index, str) and t.stride == run.index.size), None)
        if hit is not None:
            out[k] = Term("1", replace(run.index, index=hit.index))
            out.remove(hit)
            return _merged(tuple(out), quotient)
        for t in out:
            q = quotient(t.index, t.stride, run.index.size) if quotient is not None and isinstance(t.index, str) \
                and t.stride != "1" else None
            if q is not None:
                out[k] = Term("1", replace(run.index, index=q))
                out.remove(t)
                return _merged(tuple(out), quotient)
    return tuple(out)


class _Substitute(ast.NodeTransformer):
    def __init__(self, values: dict[str, str]):
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.values:
            return ast.parse(f"({self.values[node.id]})", mode="eval").body
        return node


def _times(text: str, name: str) -> str | None:
    """``k`` when ``text`` is ``name``, ``k * name`` or ``name * k`` (``k`` an integer literal), else None."""
    if text == name:
        return "1"
    try:
        e = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult):
        for x, y in ((e.left, e.right), (e.right, e.left)):
            if isinstance(x, ast.Name) and x.id == name and isinstance(y, ast.Constant) and type(y.value) is int:
                return str(y.value)
    return None


def _float_literal(text: str) -> bool:
    """``text`` is a float literal (`-1000000.0`, `1e-6`), not an integer."""
    try:
        return isinstance(ast.literal_eval(text), float)
    except (ValueError, SyntaxError):
        return False


def _plain(text: str) -> bool:
    """A name (or a program id), not a literal or a compound expression."""
    return (text.replace("_", "").isalnum() and not text[0].isdigit()) or text.startswith("ct.bid")


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


def _advanced(bp: "BlockPtr", steps: tuple[str, ...], count: str) -> "BlockPtr":
    """``bp`` advanced ``count`` times by ``steps`` blocks ("0", "1", "-1": backwards, or the text of a whole
    number of blocks known at launch: `tl.advance(p, (0, BK * SPLIT))`) per dimension."""
    def moved(i: str, st: str) -> str:
        if st == "0":
            return i
        if st == "-1":
            return f"{_paren(i)} - {_paren(count)}"
        by = count if st == "1" else f"{_paren(count)} * {_paren(st)}"
        return by if i == "0" else f"{_paren(i)} + {by}"
    elems = None
    if bp.elems is not None:   # element offsets: the blocks advanced times the block size
        elems = tuple(e if st == "0" else moved(e, f"{_paren(st)} * {_paren(b)}" if st != "-1" else f"-{_paren(b)}")
                      for e, st, b in zip(bp.elems, steps, bp.block))
    return replace(bp, index=tuple(moved(i, st) for i, st in zip(bp.index, steps)), elems=elems)


def _ptr_advanced(ptr: "Ptr", k: "int | str", count: str, elems: tuple[str, str] | None = None) -> "Ptr":
    """``ptr`` with its k-th index vector ``count`` blocks further along; for a pointer whose offsets are computed
    (a gather, ``k`` the step's text), its offsets ``count`` steps further. ``elems``: (the loop index's distance
    from its start, the loop's step) inside a loop, where ``count`` is the one divided by the other: a pointer
    advanced by the step's number of rows (`for row in range(pid, M, step)`, `x_ptr += step * stride`) is at row
    ``pid + (row - pid)``."""
    if isinstance(k, tuple) and k[0] == "blocks":   # ("blocks", k, q): the k-th vector q blocks per iteration
        _, j, q = k
        k, count = int(j), f"{_paren(count)} * {_paren(q)}"
    elif isinstance(k, tuple) and k[0] == "rows":   # ("rows", stride, q): q rows of that stride per iteration
        _, stride, q = k
        moved = elems if elems is not None and linear.same(elems[1], q) else f"{_paren(count)} * {_paren(q)}"
        return _rows_advanced(ptr, stride, moved if isinstance(moved, str) else moved[0])
    elif isinstance(k, tuple):   # ("row", stride): one row of that stride per iteration
        return _rows_advanced(ptr, k[1], count)
    if isinstance(k, str):
        (term,) = ptr.terms
        assert isinstance(term.index, Tile) and term.stride == "1"
        moved = replace(term.index, text=f"{_paren(term.index.text)} + {_paren(count)} * {_paren(k)}")
        return Ptr(ptr.param, (Term("1", moved),))
    term = ptr.terms[k]
    idx = term.index
    assert isinstance(idx, Idx)
    if idx.wrap is not None:   # `((i * B + arange) % M) + count * B` is no tile index of the wrapped run
        raise _Unwrap()
    moved = replace(idx, index=count if idx.index == "0" else f"{_paren(idx.index)} + {count}")
    return Ptr(ptr.param, ptr.terms[:k] + (Term(term.stride, moved),) + ptr.terms[k + 1:])


def _rows_advanced(ptr: "Ptr", stride: str, count: str) -> "Ptr":
    """``ptr`` advanced ``count`` times by ``stride`` elements: the index of its scalar term of that stride grows by
    ``count``; a pointer with no index vector (one element) is one element offset of stride 1; else a new term."""
    terms = list(ptr.terms)
    for k, t in enumerate(terms):
        if isinstance(t.index, str) and t.stride == stride:
            terms[k] = Term(stride, f"{_paren(t.index)} + {_paren(count)}")
            return Ptr(ptr.param, tuple(terms))
    if all(isinstance(t.index, str) for t in terms):
        parts = [t.index if t.stride == "1" else f"{_paren(t.index)} * {_paren(t.stride)}" for t in terms]
        parts.append(count if stride == "1" else f"{_paren(count)} * {_paren(stride)}")
        return Ptr(ptr.param, (Term("1", " + ".join(parts)),))
    return Ptr(ptr.param, (Term(stride, count),) + ptr.terms)


class _Relayout(Exception):
    """A pointer first gathered from through the flat view is read through a strided ``view`` later: lowered again,
    with the gather indexed per dimension of that view (``X + row * stride + y`` → ``(row + y // stride, y %
    stride)``: `_indices_in_view`)."""

    def __init__(self, param: str, view: "View"):
        super().__init__(param)
        self.param, self.view = param, view


class _NotWholeBlocks(Exception):
    """A variable a tile index was divided into blocks by takes a value that is not whole blocks: lowered again
    without that claim (a descriptor access there gathers its elements)."""

    def __init__(self, name: str, block: str):
        super().__init__(name)
        self.claim = (name, block)


class _AtomicArrays(Exception):
    """Arrays read or written as tiles and by atomics: lowered again with every access of them a gather/scatter
    (cuTile orders an array's atomics and its pointer accesses by one token chain)."""

    def __init__(self, arrays: set[str]):
        super().__init__(sorted(arrays))
        self.arrays = arrays


class _MaskedArrays(_AtomicArrays):
    """Arrays accessed under a mask that is no view bound (`n < seq_len` with `seq_len` loaded, a computed boolean
    tile): lowered again with every access of them a gather/scatter with that mask (exact: the masked-off lanes are
    neither read nor written, as in Triton)."""


class _UnitStrideArrays(_AtomicArrays):
    """Arrays accessed at an element offset inside a unit-stride run's block (`out + 1 + tl.arange(0, E)`): lowered
    again with every access of them a gather/scatter at its element offsets."""


class _NotRun(Exception):
    """An index vector carried by a loop as its block index (`_name_tiles`) is given a value that is not a run of
    the same block size and axis (or of another wrap): lowered again with that name carried as a tile."""

    def __init__(self, name: str, wrap: str | None = None, widen: bool = False):
        super().__init__(name)
        self.name, self.wrap, self.widen = name, wrap, widen


class _Unwrap(Exception):
    """A wrapped index vector (``Idx.wrap``) reached a use the padded-tile reading of it does not cover: lowered
    again with every ``% n`` wrap computed (gathers)."""


def _as_run(v: object) -> "Idx | None":
    """``v`` as one run (``index * size + arange``): an Idx, or offsets that are one unit-stride run."""
    if isinstance(v, Idx):
        return v
    if isinstance(v, Offset) and len(v.terms) == 1 and v.terms[0].stride == "1" and isinstance(v.terms[0].index, Idx):
        return v.terms[0].index
    return None


def _wrapped(v: object) -> bool:
    return isinstance(v, Idx) and v.wrap is not None


class _NotStatic(Exception):
    """A test that is not a function of constexprs and module constants alone."""


class _FlagSplit(LoweringError):
    """A flag argument (``reverse=REVERSE``, ``descending=DESC``) on constexprs the launches give both values: the
    statement holding it is lowered as an `if` on the flag, the flag a literal in each arm (``_Lowerer.block``);
    where it cannot be (the flag in a helper's body), the refusal it carries."""

    def __init__(self, kernel: TritonKernel, node: ast.expr, why: str):
        super().__init__(kernel, node, why)
        self.node = node


class _UnnamedBlock(LoweringError):
    """A host descriptor's block shape that no constexpr names at the launches known (``desc``: the descriptor, a
    dimension so unnamed written "")."""

    def __init__(self, kernel: TritonKernel, node: ast.AST, why: str, desc: Desc):
        super().__init__(kernel, node, why)
        self.desc = desc


def _with_literal(st: ast.stmt, node: ast.expr, value: bool) -> ast.stmt | None:
    """A copy of ``st`` with ``node`` (one of its expressions) the literal ``value``; None where ``st`` does not
    hold ``node``."""
    import copy

    if not any(n is node for n in walk_nodes(st)):
        return None
    memo: dict = {}
    out = copy.deepcopy(st, memo)
    old = memo[id(node)]
    for parent in walk_nodes(out):
        for field_name, v in ast.iter_fields(parent):
            if v is old:
                setattr(parent, field_name, ast.copy_location(ast.Constant(value), old))
                return out
            if isinstance(v, list) and any(x is old for x in v):
                setattr(parent, field_name, [ast.copy_location(ast.Constant(value), old) if x is old else x
                                             for x in v])
                return out
    return None


def _subsequence(part: list[str], whole: list[str]) -> bool:
    """Whether ``part`` is ``whole`` with some items left out (order kept)."""
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


def _axis_indices(offsets: list[str], blocks: list) -> list[str]:
    """One index tile per axis of a block at element ``offsets`` (`off + arange(block)`, each on its own axis of a
    rank-len(blocks) tile): the indices a gather/scatter of that block takes."""
    rank, parts = len(blocks), []
    for k, (off, blk) in enumerate(zip(offsets, blocks)):
        text = f"ct.arange({blk}, dtype=ct.int32)" if off == "0" else f"{_paren(off)} + ct.arange({blk}, dtype=ct.int32)"
        if rank > 1:
            text = f"ct.reshape({text}, {_tup([blk if a == k else '1' for a in range(rank)])})"
        parts.append(text)
    return parts


def _boolean_ast(e: ast.expr) -> bool:
    """Whether the expression is a truth by its form: a comparison, `not`, `and` / `or`, or `&` / `|` of those."""
    if isinstance(e, (ast.Compare, ast.BoolOp)) or (isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not)):
        return True
    return isinstance(e, ast.BinOp) and isinstance(e.op, (ast.BitAnd, ast.BitOr)) and _boolean_ast(e.left) and \
        _boolean_ast(e.right)


def _widens(src: tuple, dst: tuple) -> bool:
    """Whether numpy's broadcasting takes a tile of shape ``src`` to ``dst`` adding elements (a dimension of 1, or
    one ``src`` lacks, where ``dst``'s is not 1): the value is broadcast, not reshaped."""
    if len(src) > len(dst) or tuple(src) == tuple(dst):
        return False
    pad = ("1",) * (len(dst) - len(src)) + tuple(str(x) for x in src)
    if any(p != str(d) and p != "1" for p, d in zip(pad, dst)):
        return False
    return any(p == "1" and str(d) != "1" for p, d in zip(pad, dst))


def _tup(items) -> str:
    """Python text of a tuple of these texts (a one-element tuple keeps its comma)."""
    items = list(items)
    return f"({', '.join(items)}{',' if len(items) == 1 else ''})"


def _int_promoted(a: str | None, b: str | None) -> str | None:
    """The dtype Triton computes two integer tiles of mixed signedness in (`integer_promote_impl`): the unsigned one
    when it is at least as wide, else the signed one; None when they are not such a pair."""
    def parts(d):
        m = re.fullmatch(r"ct\.(u?)int(8|16|32|64)", d or "")
        return (m.group(1) == "u", int(m.group(2))) if m else None
    pa, pb = parts(a), parts(b)
    if pa is None or pb is None or pa[0] == pb[0]:
        return None
    (_, wu), (_, ws) = (pa, pb) if pa[0] else (pb, pa)
    unsigned, signed = (a, b) if pa[0] else (b, a)
    return unsigned if wu >= ws else signed


def _scalar_made_tile(a, b, var: str, known_dtype):
    """(arm, tile) when one arm of an `if` binds a 0-d float tile to a name the other leaves as the variable ``var``
    (a carried float scalar that only one arm accumulates into); None otherwise."""
    for k, (t, other) in enumerate(((a, b), (b, a))):
        if isinstance(t, Tile) and t.shape == () and known_dtype(t) in (F32, "ct.float16", "ct.bfloat16") \
                and isinstance(other, Scalar) and other.text == var:
            return k, t
    return None


def _broadcast_all(shapes) -> tuple[str, ...]:
    out: tuple[str, ...] = ()
    for shape in shapes:
        out = _broadcast(out, shape)
    return out


def _broadcast(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    if len(a) < len(b):
        a = ("1",) * (len(b) - len(a)) + a
    if len(b) < len(a):
        b = ("1",) * (len(a) - len(b)) + b
    return tuple(y if x == "1" else x for x, y in zip(a, b))


# ---------------------------------------------------------------- the lowering

class _Lowerer:
    def __init__(self, kernel: TritonKernel, kinds: dict[str, str], const_types: dict[str, str],
                 ieee_div: bool = False, plain_stores: bool = False, facts: dict | None = None,
                 plain_loads: bool = False, load_latency: int = 0):
        self.k = kernel
        facts = facts or {}
        #: constexpr parameter → its value at each launch (folds `if` on constexprs the launches agree on)
        self.const_values: dict[str, list] = facts.get("constants", {})
        #: the captured launches (their positions in the facts) the arm being lowered is reached by
        self._launch_ids: list[int] = list(range(len(next(iter(self.const_values.values()))) if self.const_values
                                                 else 1))
        #: array parameter → the cuTile dtypes the launches pass (a tile loaded from it has that dtype)
        self.array_dtypes: dict[str, set[str]] = facts.get("dtypes", {})
        #: integer scalar parameters a captured launch passed negative (no size: `_lower_bound` knows none for them)
        self.negative_scalars: set[str] = set(facts.get("negative_scalars", ()))
        #: tensor descriptor parameter → its block shape and padding at each launch
        self.descriptors: dict[str, list[dict]] = facts.get("descriptors", {})
        self._unroll_tried: set[int] = set()   # static ranges lowered as loops first (`loop`: unrolled if refused)
        #: descriptor parameters whose block shape no constexpr names across all launches (`_descriptor_of`)
        self._unnamed_blocks: dict[str, _UnnamedBlock] = {}
        self.prefix = ""        # names a helper binds are emitted with its prefix (helpers are inlined)
        self.helper_names: set[str] = set()   # the names the helper being inlined reads or binds (unprefixed)
        self.inlined = 0
        self.depth = 0
        self.ieee_div = ieee_div
        self.store_options = ", allow_tma=False" if plain_stores else ""
        #: arrays a captured launch views as rows narrower than their stride: their stores skip TMA (views.narrow_rows)
        self.narrow_stores: set[str] = set(facts.get("narrow_stores", ()))
        self.load_options = (", allow_tma=False" if plain_loads else "") + (
            f", latency={load_latency}" if load_latency else "")
        self.kinds = kinds
        self.const_types = const_types
        self.env: dict[str, object] = {}
        self.lines: list[str] = []
        self.indent = 1
        self.views: dict[str, View] = {}
        #: pointer parameter → elements tiles folded into its unit-stride dimension reach under a runtime row stride
        #: (View.unit_reach; _offset_in_rows), and the one the last `_folded` found
        self._unit_reach: dict[str, set[str]] = {}
        self._fold_reach: str | None = None
        #: pointers gathered from through the flat view before any strided access to them, and the strided views
        #: a first lowering found for them (a gather is then indexed per dimension of that view: `_Relayout`)
        self._flat_gathers: set[str] = set()
        self.seed_views: dict[str, View] = {}
        self._element_only: set[str] = set()   # arrays whose view one element made (`_view`)
        self._scalar_lines: dict[str, tuple[int, str]] = {}
        self._grid_sizes: set[str] = set()   # names bound to tl.num_programs(k) (and never re-bound)  # a named scalar → (the line binding it last, its value)
        self.view_sites: dict[str, ast.AST] = {}
        self.last_perm: list[int] | None = None   # the last access's view order, when not its axes' (access())
        self._desc_offsets: list[str] = []   # the element offsets of the last descriptor load/store
        #: (variable, block): a tile index was written `variable // block`; checked once the kernel is lowered
        self._block_claims: set[tuple[str, str]] = set()
        self.not_whole_blocks: set[tuple[str, str]] = set()   # claims a previous lowering found false
        self._atomic_arrays: set[str] = set()   # arrays an atomic updates
        self._tile_arrays: set[str] = set()     # arrays loaded or stored as tiles of a view
        #: where each array is loaded or stored as tiles, scattered into, and gathered from: the arms around each
        #: access (constexpr arms: `_arm_stack`; runtime ones: `_runtime_arms`), for `_scattered_and_tiled`
        self._access_arms: dict[tuple[str, str], list[tuple[tuple, tuple]]] = {}
        self._runtime_arms: list[tuple[int, bool]] = []
        self.gathered_arrays: set[str] = set()  # arrays every access gathers/scatters (`_AtomicArrays`)
        #: `% n` wraps of index vectors read as padded tiles (Idx.wrap); off: every wrap computed (a gather)
        self.wraps = True
        self.wrap_used = False   # a wrapped run was made (a refusal then lowers again without wraps)
        #: the loads of wrapped runs: (ast.dump of the load's text, its junk: (axis, rank, index, bound) per wrapped
        #: axis — the lanes outside [0, bound) of that axis differ from Triton's); _junk_unobservable checks them
        self.wrap_loads: list[tuple[str, frozenset]] = []
        self._pending_junk: frozenset = frozenset()
        self._storing = False
        self.notes: list[str] = []
        self.advances: dict[str, tuple[str, ...]] = {}  # block pointer → blocks advanced per iteration, per dim
        #: advanced per iteration → which term, a gather's step, or ("row", stride)
        self.ptr_steps: dict[str, int | str | tuple[str, ...]] = {}
        self._ieee_dots: set[int] = set()   # tl.dot nodes of f32 operands with input_precision="ieee"
        self._f16_dots: set[int] = set()   # tl.dot nodes of f16 operands with out_dtype=tl.float16
        self._step_nodes: set[int] = set()   # the statements that advance them (lowered as the loop index)
        #: the arms of constexpr `if`s the launches decide differently being lowered: (test, arm taken) outermost
        #: first; and the arms a view dimension's extent was found in ((param, dim) → that stack)
        self._arm_stack: list[tuple[str, bool]] = []
        self._view_arms: dict[str, tuple[tuple[str, bool], ...]] = {}   # a view's first access: its arms
        #: (param, dim) → (launches reaching it, its arms, its block when at tile index 0) of each access no mask
        #: bounds along that dimension; and the launches reaching the accesses that bound it
        self._unbounded: dict[tuple[str, int], list[tuple[frozenset, tuple, str | None]]] = {}
        #: blocks of tiles read along an unbounded view dimension at a tile index that is not 0 (View.blocks)
        self._moving_blocks: dict[tuple[str, int], set[str]] = {}
        self._extent_launches: dict[tuple[str, int], frozenset] = {}
        self._extent_arms: dict[tuple[str, int], tuple[tuple[str, bool], ...]] = {}
        #: index vectors a loop or runtime `if` re-assigns, carried as their block index (name → the lowered
        #: variable), and the driver's claims: names not carried so (a value that is no run), and their wraps
        self.run_vars: dict[str, str] = {}
        self.not_runs: set[str] = set()
        self.run_wraps: dict[str, str] = {}
        self._tail_copies = 0   # runtime `if`s whose following statements are being lowered once per arm
        self._carried: set[str] = set()  # names assigned in the loops being lowered
        self._loop_outer: set[str] = set()  # names bound before the loop being lowered and assigned inside it
        for p in kernel.params:
            kind = kinds.get(p)
            items = self._tuple_items(p)
            if kind is None and items:   # a tuple argument (`shape` passed `(M, N)`): a scalar per element; a
                # tuple of tensors (`ptrs` passed `(a, b)`): a pointer per element
                self.env[p] = tuple(Ptr(q) if kinds.get(q) == "array" else Scalar(q) for q in items)
            elif kind == "array" and p in self.descriptors:
                try:
                    self.env[p] = self._param_descriptor(p)
                except _UnnamedBlock as exc:
                    # (named again where it is used, knowing only the launches reaching it: `_descriptor_of`)
                    self.env[p], self._unnamed_blocks[p] = exc.desc, exc
            elif kind == "array":
                self.env[p] = Ptr(p)
            elif kind == "constant" and self._dtype_constexpr(p):
                self.env[p] = self._dtype_constexpr(p)
            elif kind in ("constant", "scalar"):
                self.env[p] = Scalar(p)
            else:
                raise LoweringError(kernel, kernel.fn, f"no launch information for parameter {p!r}")

    def _tuple_items(self, p: str) -> list[str]:
        """The parameters a tuple argument's elements were captured as (`shape__0`, ..: capture.TUPLE_SEP)."""
        from .capture import TUPLE_SEP

        items, i = [], 0
        while f"{p}{TUPLE_SEP}{i}" in self.kinds:
            items.append(f"{p}{TUPLE_SEP}{i}")
            i += 1
        return items if p not in self.kinds else []

    def _dtype_constexpr(self, p: str) -> "DType | None":
        """The dtype a dtype constexpr (`OUT_DTYPE: tl.constexpr`, captured as "tl.fp16") has at every launch."""
        seen = {v for v in self.const_values.get(p, []) if isinstance(v, str) and v.startswith("tl.")}
        name = TRITON_DTYPE_NAMES.get(seen.pop()[3:]) if len(seen) == 1 else None
        return DType(DTYPES[name]) if name else None

    def fail(self, node: ast.AST | None, why: str) -> LoweringError:
        return LoweringError(self.k, node, why)

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    # ------------------------------------------------ names the kernel uses for triton and triton.language

    def tl_attr(self, node: ast.AST) -> str | None:
        """``X`` for ``tl.X``, ``triton.language.X``, ``tl.math.X``, ``tl.extra.cuda.libdevice.X``, ... (X a name
        of triton.language or of one of its function namespaces)."""
        if not isinstance(node, ast.Attribute):
            return None
        base = node.value
        while isinstance(base, ast.Attribute) and base.attr in TL_NAMESPACES:
            base = base.value
        if isinstance(base, ast.Name) and base.id in self.k.tl:
            return node.attr
        if (isinstance(base, ast.Attribute) and base.attr == "language" and isinstance(base.value, ast.Name)
                and base.value.id in self.k.triton):
            return node.attr
        return None

    def function(self, node: ast.expr) -> str | None:
        """The triton.language function a call's ``func`` names, by attribute or by a bare imported name."""
        fn = self.tl_attr(node)
        if fn is None and isinstance(node, ast.Name) and node.id not in self.env:
            fn = self.k.functions.get(node.id)
        return fn

    def triton_attr(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.k.triton:
            return node.attr
        return None

    # ------------------------------------------------ statements

    def run(self) -> None:
        body = self.k.fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # docstring
        body = _reserved_renamed(body, set(self.k.params))
        self.block(_early_returns_as_else(body))
        self._check_block_claims()
        self._arm_extents()
        mixed = (self._atomic_arrays & self._tile_arrays) - self.gathered_arrays
        mixed |= self._scattered_and_tiled() - self.gathered_arrays
        if mixed:
            raise _AtomicArrays(mixed)

    def _arm_extents(self) -> None:
        """A view dimension bounded only in the arms of `if`s on constexprs that some launches take, and reached
        unbounded only at the other launches (`if reduction == NONE: tl.store(loss + offs, l, mask=offs < n)` /
        `if reduction != NONE: tl.store(loss, total)`, loss a row of n or one element per row): the bound holds for
        the launches reaching it; the others, by the arms they take, get the block they read where it is at tile
        index 0 (1 for one element, 2 for `tl.arange(0, 2)`), else the extent the launch derives from the tensor
        (`(n_cols if (reduction == 0) else 1)`). It was the bound at every launch: the sum's launches, whose tensor
        is [rows], got a view of (0, n_cols) and stored nothing, silently."""
        def conj(arms: tuple) -> str:
            return " and ".join(f"({c})" if t else f"(not ({c}))" for c, t in arms)

        for param, view in list(self.views.items()):
            dims = list(view.dims)
            for i, d in enumerate(dims):
                arms, seen = self._extent_arms.get((param, i), ()), self._unbounded.get((param, i), [])
                bounded = self._extent_launches.get((param, i), frozenset())
                if d.extent is None or not arms or not seen or any(ids & bounded for ids, _, _ in seen) or \
                        not all(a for _, a, _ in seen):
                    continue
                by_arms: dict[tuple, list[str | None]] = {}
                for _, a, block in seen:
                    by_arms.setdefault(a, []).append(block)
                text = "None"
                for a, blocks in reversed(list(by_arms.items())):
                    known = [b for b in blocks if b is not None]
                    v = "None" if len(known) < len(blocks) else known[0] if len(set(known)) == 1 else \
                        f"max({', '.join(sorted(set(known)))})"
                    text = f"({v} if {conj(a)} else {text})"
                dims[i] = Dim(d.stride, f"({d.extent} if {conj(arms)} else {text})")
            self.views[param] = View(param, tuple(dims))

    def _note_access(self, param: str, kind: str) -> None:
        """An access of ``param`` (``kind``: "tile", "scatter" or "gather") in the arms being lowered."""
        self._access_arms.setdefault((param, kind), []).append((tuple(self._arm_stack), tuple(self._runtime_arms)))

    def _scattered_and_tiled(self) -> set[str]:
        """Arrays scattered into (a store at computed offsets: `tl.store(logits + row * s + y, v)`, y a loaded
        label) and also loaded or stored as tiles where both can run in one launch: lowered again with every access
        of them a gather/scatter. cuTile orders an array's gathers and scatters by one token and its tile accesses
        by the view's tokens, which do not see each other (the translator refuses the mix: coverage row
        `store-other`). Apart are the arms of an `if` on constexprs the launches decide differently (cuTile folds
        it per specialization), and a runtime `if` whose two arms hold the array's only two accesses, one each (as
        the translator has it)."""
        out = set()
        for (param, kind), scatters in self._access_arms.items():
            tiles = self._access_arms.get((param, "tile"), [])
            if kind != "scatter" or not tiles:
                continue
            alone = len(scatters) == len(tiles) == 1 and not self._access_arms.get((param, "gather"))

            def apart(a: tuple, b: tuple) -> bool:
                if any((c, not t) in b[0] for c, t in a[0]):
                    return True
                return alone and any((c, not t) in b[1] for c, t in a[1])
            if any(not apart(a, b) for a in scatters for b in tiles):
                out.add(param)
        return out

    def _assignments(self, name: str) -> list[str] | None:
        """The values the lowered kernel assigns to the variable ``name`` (None: it is also a loop index)."""
        import re

        pat = re.compile(rf"^\s*{re.escape(name)} = (.+)$")
        if any(re.match(rf"^\s*for {re.escape(name)} in ", line) for line in self.lines):
            return None
        return [m.group(1) for line in self.lines if (m := pat.match(line))]

    def _expanded(self, text: str) -> str:
        """``text`` with each variable the lowered kernel assigns once (`k_rem = K - k * BLOCK_K * SPLIT_K` in a K
        loop's body) replaced by its value, when that value reads only parameters, constexprs and loop indices (which
        hold one value through an iteration)."""
        import re

        loops = {m.group(1) for line in self.lines if (m := re.match(r"^\s*for (\w+) in ", line))}
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            return text
        subst = {}
        for n in walk_nodes(tree):
            if not isinstance(n, ast.Name) or n.id in self.kinds or n.id in loops or n.id in subst:
                continue
            values = self._assignments(n.id)
            if not values or len(values) != 1:
                continue
            try:
                value = ast.parse(values[0], mode="eval")
            except SyntaxError:
                continue
            names = {x.id for x in walk_nodes(value) if isinstance(x, ast.Name)}
            # (program ids, grid sizes and cdiv of sizes hold one value through the kernel: `start = ct.bid(0) * B`)
            if all(isinstance(x.value, ast.Name) and x.value.id == "ct" and x.attr in ("bid", "num_blocks", "cdiv")
                   for x in walk_nodes(value) if isinstance(x, ast.Attribute)):
                names.discard("ct")
            if all(x in self.kinds or x in loops for x in names):
                subst[n.id] = values[0]
        if not subst:
            return text
        return ast.unparse(ast.fix_missing_locations(_Substitute(subst).visit(tree)))

    def _check_block_claims(self) -> None:
        """Every variable a tile index divided by a block (`offs_am // BLOCK_M`) is assigned whole blocks only."""
        checked: set[tuple[str, str]] = set()
        while self._block_claims - checked:
            name, blk = sorted(self._block_claims - checked)[0]
            checked.add((name, blk))
            values = self._assignments(name)
            bad = [v for v in (values or [None]) if v is None or self._in_blocks(Scalar(v), blk) is None]
            if values is None or bad or not values:
                raise _NotWholeBlocks(name, blk)

    def block(self, stmts: list[ast.stmt]) -> None:
        for k, s in enumerate(stmts):
            if (as_if := self._pointer_where(s)) is not None:
                # `src = tl.where(pid % 2 == 0, a_ptr, b_ptr)` (a pointer chosen by a scalar test): the `if` it is,
                # each arm binding its pointer (lowered as such an `if`: the statements after it copied into each)
                s = as_if
            if isinstance(s, ast.If) and k + 1 < len(stmts) and self._tail_copies < 6 and self._binds_structure(s):
                # `if pid < NQ: p = q_ptr + .. else: p = k_ptr + ..` then accesses through p: the statements after
                # the `if` copied into each arm, so each arm reads the pointer it bound (one view per array); at most
                # 6 such `if`s deep (2^6 copies), past which a read after the `if` is refused at its use
                self._tail_copy(s, stmts[k + 1:])
                return
            if isinstance(s, ast.If) and k + 1 < len(stmts) and self._tail_copies < 6 and \
                    self.static_truth(s.test) is None and self.launch_truths(s.test) is not None:
                # an `if` on constexprs the launches decide differently whose arms bind a name the statements after
                # it use to index vectors (pointers, masks) of different forms (constexpr_branch: `_Diverged`):
                # lowered again with those statements copied into each arm
                saved = (len(self.lines), dict(self.env), dict(self._scalar_lines), dict(self.run_vars),
                         len(self.notes))
                self.stmt(s)
                used = {n.id for st in stmts[k + 1:] for n in walk_nodes(st) if isinstance(n, ast.Name)}
                if any(isinstance(self.env.get(n), _Diverged) and self.env.get(n) != saved[1].get(n) for n in used):
                    del self.lines[saved[0]:]
                    del self.notes[saved[4]:]
                    self.env, self._scalar_lines, self.run_vars = saved[1], saved[2], saved[3]
                    self._tail_copy(s, stmts[k + 1:])
                    return
                continue
            if isinstance(s, ast.While) and isinstance(s.test, ast.Call) and self.function(s.test.func) == "condition" \
                    and len(s.test.args) == 1 and {k.arg for k in s.test.keywords} <= {"disable_licm"}:
                # `while tl.condition(i < n, disable_licm=True):` (Triton 3.6: the test, and a hint to its loop
                # invariant code motion): the `while` of the test (was refused)
                s = ast.copy_location(ast.While(s.test.args[0], s.body, s.orelse), s)
            if isinstance(s, ast.While):   # a counted `while`: the `for` it is (it needs the statements after it)
                try:
                    s = self.counted_while(s, stmts[k + 1:])
                except LoweringError:
                    if s.orelse or not (isinstance(s.test, (ast.Compare, ast.BoolOp)) or (
                            isinstance(s.test, ast.BinOp) and type(s.test.op) in (ast.BitAnd, ast.BitOr))):
                        raise   # (`while (err > tol) & (it < MAX):`: a convergence loop's test joined by `&`)
                    self.general_while(s)
                    continue
            saved = (len(self.lines), dict(self.env), dict(self._scalar_lines), dict(self.run_vars), len(self.notes))
            try:
                self.stmt(s)
            except _FlagSplit as exc:
                # `y = tl.cumsum(x, 0, reverse=REVERSE)` with launches of both values: `if REVERSE:` holding the
                # statement with `reverse=True`, else with `reverse=False` (each arm lowered knowing its launches)
                arms = [_with_literal(s, exc.node, truth) for truth in (True, False)]
                if arms[0] is None or arms[1] is None or isinstance(s, ast.Return):
                    raise
                del self.lines[saved[0]:]
                del self.notes[saved[4]:]
                self.env, self._scalar_lines, self.run_vars = saved[1], saved[2], saved[3]
                split = ast.copy_location(ast.If(exc.node, [arms[0]], [arms[1]]), s)
                self.notes.append(f"line {s.lineno}: `{ast.unparse(exc.node)}` (a flag the launches give both "
                                  f"values) lowered as an `if` on it, each arm with the flag's value")
                self.stmt(split)

    def _tail_copy(self, s: ast.If, tail: list[ast.stmt]) -> None:
        """``s`` lowered with the statements ``tail`` after it copied into each of its arms."""
        self._tail_copies += 1
        try:
            self.stmt(ast.copy_location(ast.If(s.test, s.body + tail, s.orelse + tail), s))
        finally:
            self._tail_copies -= 1

    def general_while(self, s: ast.While) -> None:
        """``while C: ...`` on a runtime scalar test (a spin lock `while tl.atomic_cas(lock, 0, 1) == 1: pass`, a
        convergence loop): cuTile Python's `while`, the test evaluated before each iteration as Triton's is, the
        names the body assigns carried (scalars and tiles; pointers, indices and masks updated in it are refused)."""
        carried = self._assigned(s.body)
        inits = self._name_scalars(carried)
        self._name_tiles(carried)
        inits |= {n: self._scalar_lines[self.prefix + n] for n in carried - set(inits)
                  if self.env.get(n) == Scalar(self.prefix + n) and self.prefix + n in self._scalar_lines}
        old_carried, old_outer = self._carried, self._loop_outer
        self._carried = old_carried | carried
        self._loop_outer = old_outer | (carried & set(self.env))
        self._in_while_test = True
        try:
            cond = self.ev(s.test)
        finally:
            self._in_while_test = False
        if isinstance(cond, Tile) and cond.shape in ((), ("1",)) and cond.dtype in BOOL:
            cond = Scalar(f"ct.reshape(ct.where({cond.text}, 1, 0), ()) != 0")
        if not isinstance(cond, Scalar):
            raise self.fail(s.test, "a `while` is lowered when it counts (`while i < n: ...; i += step`) or when its "
                                    "test is a scalar (a loaded element, an atomic's old value)")
        self.emit(f"while {cond.text}:")
        self.indented(s.body)
        # (`acc = 0.0` then `acc += tl.sum(x)` in the `while`: as in a `for`; a name its test reads stays as it is
        # written, the test a comparison of scalars: `err = 1.0` then `while err > tol:`)
        tested = {n.id for n in walk_nodes(s.test) if isinstance(n, ast.Name)}
        self._tiles_from_scalars({k: v for k, v in inits.items() if k not in tested})
        self._carried, self._loop_outer = old_carried, old_outer
        self._forget_factors(carried)

    def counted_while(self, s: ast.While, after: list[ast.stmt]) -> ast.For:
        """``while i < n: ...; i += step`` (a persistent loop: ``step`` the number of programs, or a positive literal
        or constexpr) as ``for i in range(i, n, step)``: the same iterations, when the body assigns neither ``i``
        (but its last statement) nor ``n`` nor ``step``, and nothing after the loop reads ``i``."""
        test, last = s.test, s.body[-1] if s.body else None
        why = "a `while` is lowered when it counts (`while i < n:` whose last statement is `i += step`, step " \
              "tl.num_programs(k), a positive literal or constexpr, with i, n and step not assigned otherwise in " \
              "it and i not read after it: a `for`) or when its test is a comparison (cuTile Python's `while`)"
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Lt, ast.LtE))
                and isinstance(test.left, ast.Name) and isinstance(last, ast.AugAssign)
                and isinstance(last.op, ast.Add) and isinstance(last.target, ast.Name)
                and last.target.id == test.left.id and not s.orelse):
            raise self.fail(s, why)
        var, bound, step = test.left.id, test.comparators[0], last.value
        used = {n.id for e in (bound, step) for n in walk_nodes(e) if isinstance(n, ast.Name)}
        if (var in self._assigned(s.body[:-1]) or used & self._assigned(s.body)
                or any(isinstance(n, ast.Name) and n.id == var for st in after for n in walk_nodes(st))
                or not self._positive(step)):
            raise self.fail(s, why)
        if isinstance(test.ops[0], ast.LtE):
            bound = ast.BinOp(bound, ast.Add(), ast.Constant(1))
        it = ast.Call(ast.Name("range", ast.Load()), [ast.Name(var, ast.Load()), bound, step], [])
        index = f"{var}_it"   # the loop index gets its own name (not the start's, which the body never sees)
        body = [_renamed(st, var, index) for st in s.body[:-1]] or [ast.Pass()]
        loop = ast.For(ast.Name(index, ast.Store()), it, body, [], None)
        return ast.fix_missing_locations(ast.copy_location(loop, s))

    def _positive(self, node: ast.expr) -> bool:
        """``node`` is positive at every launch: tl.num_programs(k), a positive literal, or a constexpr (or an
        expression of constexprs: `BK * SPLIT`)."""
        v = self.ev(node)
        if not isinstance(v, Scalar):
            return False
        if v.text.startswith("ct.num_blocks(") or v.text in self._grid_sizes:
            return True
        if v.text.isdigit():
            return int(v.text) > 0
        values = self.const_values.get(v.text) or self.launch_values(v.text)
        return bool(values) and all(isinstance(x, int) and x > 0 for x in values)

    def indented(self, stmts: list[ast.stmt]) -> None:
        """The body of a `for` / `if` / `else` one level in (`pass` when it emits nothing)."""
        self.indent += 1
        before = len(self.lines)
        self.block(stmts)
        if len(self.lines) == before:
            self.emit("pass")
        self.indent -= 1

    def stmt(self, s: ast.stmt) -> None:
        """One statement lowered; arguments this lowering cannot read (a call missing one, an axis that is not a
        literal, ...) are refused at the statement rather than raised as Python errors."""
        try:
            self._stmt(s)
        except (IndexError, KeyError, ValueError, TypeError) as exc:
            raise self.fail(s, f"`{ast.unparse(s).splitlines()[0]}`: its arguments are not understood here "
                               f"({type(exc).__name__}: {exc})") from None

    def _stmt(self, s: ast.stmt) -> None:
        if isinstance(s, (ast.Assign, ast.AnnAssign)):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            if len(targets) != 1 or s.value is None:
                raise self.fail(s, "only `name = expression` assignments are supported")
            target = targets[0]
            if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
                value = self.ev(s.value)
                if not isinstance(value, tuple) or len(value) != len(target.elts):
                    raise self.fail(s, f"cannot unpack `{ast.unparse(s.value)}` into {len(target.elts)} names")
                value = self._unpacked(target.elts, value)
                for e, v in zip(target.elts, value):
                    self.bind(e.id, v, s)  # type: ignore[attr-defined]
                return
            if not isinstance(target, ast.Name):
                raise self.fail(s, "only `name = expression` assignments are supported")
            name = target.id
            if self._is_advance(s.value, name) or name in self.ptr_steps and self._is_ptr_step(s):
                return
            self.bind(name, self.ev(s.value), s)
        elif isinstance(s, ast.AugAssign):
            if not isinstance(s.target, ast.Name):
                raise self.fail(s, "only `name op= expression` is supported")
            name = s.target.id
            if name in self.ptr_steps and self._is_ptr_step(s):
                return
            call = s.value
            if (isinstance(s.op, ast.Add) and isinstance(call, ast.Call) and self.tl_attr(call.func) == "dot"
                    and len(call.args) == 2 and "acc" not in {k.arg for k in call.keywords}):
                acc, a, b = self.ev(s.target), self.ev(call.args[0]), self.ev(call.args[1])
                self._dot_options(call, {k.arg: k.value for k in call.keywords}, a, b)
                self.bind(name, self._dot(call, a, b, acc), s)
                return
            self.bind(name, self.binop(s.op, self.ev(s.target), self.ev(call), s), s)
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring or a bare string
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) \
                and s.value.func.id in self.k.helpers:
            self.inline(s.value, self.k.helpers[s.value.func.id])
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and self._descriptor_method(s.value) == "store":
            self.descriptor_store(s.value)
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and self._descriptor_method(s.value) == "scatter":
            self.descriptor_scatter(s.value)
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and \
                (self._descriptor_method(s.value) or "").startswith("atomic_"):
            self.emit(self.descriptor_atomic(s.value, self._descriptor_method(s.value)).text)  # type: ignore[arg-type]
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and self._as_member_function(s.value):
            self.block([ast.copy_location(ast.Expr(self._as_member_function(s.value)), s)])
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
            fn = self.function(s.value.func)
            if fn == "store":
                self.store(s.value)
            elif fn in ATOMICS:
                done = self.atomic_add(s.value, fn).text
                if not done.isidentifier():   # (a compare-and-swap loop's result: emitted already)
                    self.emit(done)
            elif fn == "debug_barrier":   # the threads of one program: a tile program is one thread of control
                self.notes.append(f"line {s.lineno}: tl.debug_barrier dropped (a cuTile block's tile operations are "
                                  "already ordered within it)")
            elif fn in ("static_assert", "device_assert", "static_print", "device_print"):
                self.notes.append(f"line {s.lineno}: tl.{fn} dropped (no cuTile counterpart needed)")
            elif fn == "assume":   # `tl.assume(pid_m >= 0)` (Triton 3.3+'s matmul tutorial): a fact for the compiler
                self.notes.append(f"line {s.lineno}: tl.assume dropped (a compiler hint: it changes no value)")
            elif fn in ("multiple_of", "max_contiguous", "max_constancy"):
                # `tl.multiple_of(K, 16)` as a statement: Triton annotates the value it returns, which is discarded
                # here — the argument is left as it was, and nothing changes
                self.notes.append(f"line {s.lineno}: tl.{fn} dropped (a statement: the hinted value it returns is "
                                  "discarded, so Triton changes nothing either)")
            else:
                raise self.fail(s, f"statement `{ast.unparse(s)}` has no lowering (only tl.store calls stand alone)")
        elif isinstance(s, ast.For):
            self.loop(s)
        elif isinstance(s, ast.If):
            self.branch(s)
        elif isinstance(s, ast.Return) and s.value is None and s is self.k.fn.body[-1]:
            return
        elif isinstance(s, ast.Return):
            raise self.fail(s, "`return` inside a loop or branch is not lowered (a helper returns once, at its end)")
        elif isinstance(s, ast.Pass):
            return
        elif isinstance(s, ast.Assert):   # Triton compiles it only with debug on (a device_assert): dropped
            self.notes.append(f"line {s.lineno}: assert dropped (no cuTile counterpart needed)")
        else:
            raise self.fail(s, f"{type(s).__name__} statements are not supported in Triton kernels here")

    def bind(self, name: str, v: object, node: ast.AST) -> None:
        cur = self.env.get(name)
        if name in self.run_vars and isinstance(cur, Idx) and cur.index == self.run_vars[name]:
            run = _as_run(v)
            if run is None or (run.size, run.axis, run.rank) != (cur.size, cur.axis, cur.rank):
                raise _NotRun(name)
            if run.wrap is not None and run.wrap != cur.wrap:
                # a wrap the first value lacked (`where(offs < M, offs, 0)` after `offs = start + arange`): once
                # more with the run read as wrapped throughout (lanes outside [0, M) unobservable: _junk_unobservable)
                raise _NotRun(name, run.wrap, widen=cur.wrap is None)
            if run.index != cur.index:
                self.emit(f"{cur.index} = {run.index}")
            return
        if name in self._loop_outer and isinstance(v, Idx) and isinstance(cur, Tile):
            v = self.materialize(v, node)   # an index vector the loop carries as a value (`_name_tiles`)
        if name in self._loop_outer and not isinstance(v, (Tile, Scalar)):
            raise self.fail(node, f"{name} is a pointer, index or mask updated inside a loop: write it from the loop "
                                  "index instead (`offs = k * BLOCK + tl.arange(0, BLOCK)`), advance it by one block "
                                  "per iteration (`p += BLOCK * stride`), or use a block pointer advanced by "
                                  "`p = tl.advance(p, ..)`")
        out = self.prefix + name
        self._grid_sizes.discard(out)
        if isinstance(v, Tile) and v.shape == ("1",) and name in self._carried and (
                isinstance(cur, Scalar) or (isinstance(cur, Tile) and cur.shape == ())):
            # one loaded element (a 1-element tile) given to a scalar a runtime `if` or a loop carries (`prev =
            # 0.0`, then `prev = tl.load(partial + pid - 1)` under `if pid > 0:`; an int flag `done = 0`, then
            # `done = tl.where(ok, done, 1)` of loaded values): a 0-d tile, as Triton's scalar, so every path gives
            # the name one type
            v = Tile(f"ct.reshape({v.text}, ())", (), v.dtype)
        if isinstance(v, Tile):
            if v.text != out:
                self.emit(f"{out} = {v.text}")
            self.env[name] = replace(v, text=out)
        elif isinstance(v, Scalar) and (v.text.startswith(("ct.bid(", "ct.num_blocks(")) or name in self._carried):
            # program ids get a name (the translator types a named ct.bid; inline ones inside loops it cannot)
            if v.text != out:
                self._scalar_lines[out] = (len(self.lines), v.text)
                self.emit(f"{out} = {v.text}")
            if v.text.startswith("ct.num_blocks("):
                self._grid_sizes.add(out)
            # `off = i * BLOCK` keeps its factors (a tile index) unless a factor is itself re-assigned in the loop
            keep = v.factors if v.factors and not any(_mentions(f, c) for f in v.factors for c in self._carried) \
                else None
            self.env[name] = Scalar(out, factors=keep)
        else:
            self.env[name] = v

    @staticmethod
    def _assigned(stmts: list[ast.stmt]) -> set[str]:
        return {e.id for st in stmts for n in walk_nodes(st) if isinstance(n, (ast.Assign, ast.AugAssign))
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                for e in (t.elts if isinstance(t, ast.Tuple) else [t]) if isinstance(e, ast.Name)}

    def _name_scalars(self, names: set[str]) -> dict[str, tuple[int, str]]:
        """Scalars re-assigned inside a loop or branch become variables of the lowered kernel (until then they
        are inlined where used); program ids already are. Returns name → (its line, its value) for those emitted."""
        emitted = {}
        for name in sorted(names):
            v = self.env.get(name)
            if isinstance(v, Scalar) and v.text != self.prefix + name:
                emitted[name] = self._scalar_lines[self.prefix + name] = (len(self.lines), v.text)
                self.emit(f"{self.prefix}{name} = {v.text}")
                self.env[name] = Scalar(self.prefix + name)
        return emitted

    def _unpacked(self, targets: list[ast.expr], values: tuple) -> tuple:
        """``a, b = x, f(a)``: Python evaluates every value before binding; a value that reads a name an earlier
        target re-binds as a variable (`tile_id, pid_m = tile_id + S, g(tile_id + S)` in a loop) is copied to a
        temporary first, so it reads the old value."""
        names = [self.prefix + e.id for e in targets]  # type: ignore[attr-defined]
        out = list(values)
        for j, v in enumerate(values):
            if isinstance(v, (Scalar, Tile)) and any(_mentions(v.text, n) for n in names[:j]):
                tmp = f"{names[j]}__next"
                self.emit(f"{tmp} = {v.text}")
                out[j] = replace(v, text=tmp) if isinstance(v, Tile) else Scalar(tmp)
        return tuple(out)

    def _name_tiles(self, names: set[str]) -> None:
        """Tiles re-assigned inside a loop or branch of an inlined helper whose value is the caller's (a parameter
        bound to `acc`): copied to the helper's own name first, so each iteration (each arm) reads what the last one
        wrote, not the caller's value."""
        for name in sorted(names):
            v = self.env.get(name)
            if isinstance(v, Idx) and self.run_vars.get(name) == v.index:
                continue   # (carried as its block index already: an enclosing loop or `if` named it)
            if isinstance(v, Idx) and name not in self.not_runs and (v.wrap is None or v.wrap == self.run_wraps.get(
                    name, v.wrap)):
                # an index vector re-assigned runs of the same block inside (`offs += BLOCK`, `offs = start +
                # tl.arange(0, B)` under `if ki == 0:`): its block index is the variable, the run stays a run, so
                # accesses through it stay tiles of a view (bind checks each value; else lowered again as a tile)
                var = f"{self.prefix}{name}_block"
                taken = {n.id for n in walk_nodes(self.k.fn) if isinstance(n, ast.Name)} | set(self.kinds) | \
                    {self.prefix + n for n in self.helper_names}   # (an inlined helper's own, with its prefix)
                while var in taken or var in self.run_vars.values():   # (a name of the kernel's own: another)
                    var += "_"
                self.emit(f"{var} = {v.index}")
                self.run_vars[name] = var
                self.env[name] = replace(v, index=var, wrap=self.run_wraps.get(name, v.wrap))
                continue
            if isinstance(v, Idx):   # an index vector re-assigned as a value inside: a tile from the start
                v = self.materialize(v, self.k.fn)
            if isinstance(v, Tile) and v.text != self.prefix + name:
                self.emit(f"{self.prefix}{name} = {v.text}")
                self.env[name] = replace(v, text=self.prefix + name)

    def _tiles_from_scalars(self, inits: dict[str, tuple[int, str]]) -> None:
        """A scalar a loop turns into a 0-d float tile (``total = 0.0`` then ``total += tl.sum(x)``) starts as that
        tile (``ct.full((), 0.0, dtype=..)``): the loop carries one type, as Triton's does after its promotion."""
        for name, (line, value) in inits.items():
            v = self.env.get(name)
            here = "    " * self.indent
            if not self.lines[line].startswith(here) or self.lines[line][len(here)] == " " or any(
                    not ln.startswith(here) for ln in self.lines[line + 1:]):
                continue   # bound in another block than the loop's: every definition reaching it would change
            literal = value.replace(".", "", 1).replace("-", "", 1).isdigit() or \
                value in ("float('-inf')", "float('inf')")   # (cuTile's ct.full takes constants)
            dtype = self.known_dtype(v) if isinstance(v, Tile) and v.shape == () else None
            if dtype in ("ct.int32", "ct.int64") and not value.lstrip("-").isdigit():
                continue   # (an integer tile the loop makes from a float scalar: no such promotion)
            if literal and dtype in (F32, "ct.float16", "ct.bfloat16", "ct.int32", "ct.int64"):
                # (`best_i = 0` then `best_i = off + i` under an `if` in the loop, i a 0-d int32 index)
                indent = self.lines[line][:len(self.lines[line]) - len(self.lines[line].lstrip())]
                self.lines[line] = f"{indent}{self.prefix}{name} = ct.full((), {value}, dtype={self.known_dtype(v)})"

    def _counted_up(self, s: ast.For) -> ast.For:
        """``for t in range(a, b, -s):`` (a backward pass walking time or blocks from the end) as the loop cuTile
        Python takes (its steps are positive): ``for t_rev in range((a - b + s - 1) // s): t = a - t_rev * s``,
        the same values in the same order (none when a <= b: the count is not positive; Python's floor division).
        The bounds are read once, before the loop (``a`` bound to a name: a Triton quotient in it, computed in the
        loop, would differ from cuTile Python's hoisting); a name the body re-assigns in them is refused."""
        it = s.iter
        a, b, step = it.args[0], it.args[1], it.args[2].operand   # type: ignore[attr-defined]
        body_names = self._assigned(s.body)
        used = {n.id for e in (a, b, step) for n in walk_nodes(e) if isinstance(n, ast.Name)}
        if used & body_names:
            raise self.fail(it, f"a loop counting down whose bounds read {', '.join(sorted(used & body_names))}, "
                                "which its body re-assigns")
        var = s.target.id   # type: ignore[attr-defined]
        rev = f"{var if var != '_' else 'it'}_rev"
        first = self._scalar_named(Scalar(self.scalar(a)), f"{rev}_first")
        stop, size = _paren(self.scalar(b)), _paren(self.scalar(step))
        self._rev_loops = getattr(self, "_rev_loops", 0) + 1
        names = {k: f"__rev{self._rev_loops}_{k}" for k in ("count", "first", "step")}
        self.env[names["count"]] = Scalar(f"({_paren(first)} - {stop} + {size} - 1) // {size}")
        self.env[names["first"]] = Scalar(first)
        self.env[names["step"]] = Scalar(size)
        loop = ast.parse(f"for {rev} in range({names['count']}):\n"
                         f"    {var} = {names['first']} - {rev} * {names['step']}\n").body[0]
        for n in walk_nodes(loop):   # (errors inside point at the loop as written)
            ast.copy_location(n, s)
        loop.body += s.body   # type: ignore[attr-defined]
        loop.iter.keywords = it.keywords   # type: ignore[attr-defined]  (tl.range's options, reported as dropped)
        return loop   # type: ignore[return-value]

    def _advance_blocks(self, d: str, blk: str) -> str | None:
        """The number of blocks ``blk`` that an advance by ``d`` is, as text (`BK * SPLIT` by BK: `SPLIT`), when ``d``
        is a nonzero multiple of ``blk`` at every captured launch (both launch constants); else None."""
        dv, bv = self.launch_values(d), self.launch_values(blk)
        if not dv or not bv or len(dv) != len(bv) or not all(
                isinstance(x, int) and isinstance(y, int) and y > 0 and x != 0 and x % y == 0 for x, y in zip(dv, bv)):
            return None
        for lhs, rhs in ((f"{blk} * ", ""), ("", f" * {blk}")):
            if d.startswith(lhs) and d.endswith(rhs):
                q = d[len(lhs):len(d) - len(rhs)]
                if q and self.launch_values(q) == [x // y for x, y in zip(dv, bv)]:
                    return q
        return f"{_paren(d)} // {_paren(blk)}"

    def _is_advance(self, value: ast.expr, name: str) -> bool:
        return (isinstance(value, ast.Call) and self.tl_attr(value.func) == "advance" and name in self.advances
                and isinstance(value.args[0], ast.Name) and value.args[0].id == name)

    def loop(self, s: ast.For) -> None:
        it = s.iter
        if not (isinstance(s.target, ast.Name) and isinstance(it, ast.Call) and not s.orelse and (
                (isinstance(it.func, ast.Name) and it.func.id == "range")
                or self.function(it.func) in ("range", "static_range"))):
            raise self.fail(s, "only `for i in range(...)` / `tl.range(...)` / `tl.static_range(...)` loops")
        if id(s) not in self._unroll_tried and (unroll := self._static_range_values(it)) is not None:
            # `for i in tl.static_range(..)` of bounds every launch agrees on: lowered as a loop; where that is
            # refused (i a shape: `tl.reshape(x, [2 ** i, 2, ..])`, a helper's constexpr), unrolled as Triton
            # unrolls it, i each literal in turn
            state = self._state()
            self._unroll_tried.add(id(s))
            try:
                self.loop(s)
                return
            except LoweringError:
                self._restore(state)
            self.notes.append(f"line {s.lineno}: tl.static_range unrolled (its index is a compile-time value there)")
            for value in unroll:
                self.env[s.target.id] = Scalar(str(value))
                self.block(s.body)
            return
        if len(it.args) == 3 and isinstance(it.args[2], ast.UnaryOp) and isinstance(it.args[2].op, ast.USub):
            return self.loop(self._counted_up(s))
        if it.keywords:
            self.notes.append(f"line {s.lineno}: loop options {[k.arg for k in it.keywords]} dropped")
        args = [self.scalar(a) for a in it.args]
        if not 1 <= len(args) <= 3:
            raise self.fail(it, "range() takes 1 to 3 arguments")
        var = s.target.id
        index = self.prefix + (var if var != "_" else "_it")   # (`for _ in ..` whose index the lowering reads)
        # a bound loaded from memory (`range(tl.load(offsets + b), tl.load(offsets + b + 1))`) is read once, before
        # the loop, into a name of its own, as Python evaluates range()'s arguments (the iteration count below
        # would otherwise read it again)
        # (also a bound that is a min / max of scalars, `range(start, tl.minimum(start + per, nblk))`: the
        # translator ports `range(lo, hi)` of a name, not of a call; Python evaluates the bound once all the same)
        for k, part in zip(range(len(args)), ("lo", "hi", "step") if len(args) > 1 else ("hi",)):
            if "ct.load(" in args[k] or args[k].startswith(("min(", "max(")):
                self.emit(f"{self.prefix}{var}_{part} = {args[k]}")
                args[k] = f"{self.prefix}{var}_{part}"
        start, stop, step = ("0", args[0], "1") if len(args) == 1 else (*args, "1")[:3]
        count = index if start == "0" else f"({index} - {_paren(start)})"
        if step != "1":   # `for start_n in range(lo, hi, BLOCK_N)`: iterations so far
            count = f"({count} // {_paren(step)})"
        # block pointers advanced once per iteration: their offsets follow the loop index
        saved_adv, saved_steps, saved_ptrs = dict(self.advances), dict(self.ptr_steps), {}
        for st in s.body:
            if (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
                    and isinstance(st.value, ast.Call) and self.function(st.value.func) == "advance"):
                name = st.targets[0].id
                bp = self.env.get(name)
                if not isinstance(bp, BlockPtr) or not (isinstance(st.value.args[0], ast.Name)
                                                        and st.value.args[0].id == name):
                    raise self.fail(st, "tl.advance must update the block pointer it reads (`p = tl.advance(p, ..)`)")
                deltas = self._tuple(st.value.args[1])
                steps = []
                for d, blk in zip(deltas, bp.block):
                    if d == "0":
                        steps.append("0")
                    elif d == blk:
                        steps.append("1")
                    elif d.replace("(", "").replace(")", "") == f"-{blk}":   # (0, -BLOCK_N): blocks walked backwards
                        steps.append("-1")
                    elif (q := self._advance_blocks(d, blk)) is not None:   # (0, BK * SPLIT)
                        steps.append(q)   # SPLIT blocks an iteration
                    else:
                        raise self.fail(st, f"tl.advance by {d} along a block of {blk}: only whole blocks per "
                                            "iteration (a multiple of the block known at every launch) are lowered "
                                            "(the tile index then follows the loop index)")
                saved_ptrs[name] = bp
                self.advances[name] = tuple(steps)
                self.env[name] = _advanced(bp, self.advances[name], count)
                continue
            stepped = self._pointer_step(st)
            if stepped is not None:
                name, k = stepped
                saved_ptrs[name] = self.env[name]
                self.ptr_steps[name] = k
                self._step_nodes.add(id(st))
                self.env[name] = _ptr_advanced(saved_ptrs[name], k, count,  # type: ignore[arg-type]
                                               (index if start == "0" else f"({index} - {_paren(start)})", step))
        if saved_ptrs and step != "1" and not self._positive(it.args[2]):
            raise self.fail(it, "a loop with a step that is not a positive literal or constexpr and advances "
                                "pointers is not lowered: write `for i in range(n)` and advance once per iteration")
        carried = self._assigned(s.body) - set(self.advances) - set(self.ptr_steps)
        inits = self._name_scalars(carried)
        self._name_tiles({n for n in carried if not _written_first(s.body, n)})
        inits |= {n: self._scalar_lines[self.prefix + n] for n in carried - set(inits)
                  if self.env.get(n) == Scalar(self.prefix + n) and self.prefix + n in self._scalar_lines}
        old_carried, old_outer = self._carried, self._loop_outer
        self._carried = old_carried | carried
        # (a name only inner loops assign, each iteration of theirs first — `offs = i + tl.arange(..)` in a loop
        # over each channel's blocks, `offs` also a name of an earlier loop — carries nothing from one iteration
        # of this loop to the next: it is no name updated here)
        self._loop_outer = old_outer | {n for n in carried & set(self.env) if not _written_first(s.body, n)
                                        and not _inner_loops_write_first(s.body, n)}
        rng = stop if start == "0" and step == "1" else f"{start}, {stop}" if step == "1" else f"{start}, {stop}, {step}"
        if self.function(it.func) == "static_range" and any(
                isinstance(n, ast.For) and any(isinstance(m, ast.Name) and m.id == var for m in walk_nodes(n.iter))
                for n in walk_nodes(ast.Module(s.body, []))):
            # `for i in tl.static_range(R): for j in tl.static_range(i + 1):` (a triangle): unrolled, as Triton
            # unrolls it, so that each inner loop has a constant bound (a loop bound by the outer index left the
            # inner index's range unproven)
            self.emit(f"for {index} in ct.static_iter(range({rng})):")
        else:
            self.emit(f"for {index} in range({rng}):")
        # `for i in range(0, n, BLOCK)`: i is a whole number of blocks, so `i + tl.arange(0, BLOCK)` is a tile index
        stepped = step != "1" and start == "0" and step.isidentifier() and self.kinds.get(step) == "constant"
        self.env[var] = Scalar(index, factors=(f"{index} // {step}", step) if stepped else None)
        self.indented(s.body)
        self._tiles_from_scalars(inits)
        self._carried, self._loop_outer = old_carried, old_outer
        self._forget_factors(carried)
        for name in self._assigned(s.body) | {var}:
            # (`o = i + tl.arange(0, B)` in the loop: after it, a value of the index no longer there; read after the
            # loop, refused at the read, where its value was written as the index's, which cuTile Python rejects)
            v = self.env.get(name)
            if v is not None and not isinstance(v, _Stale) and _mentions(repr(v), index):
                self.env[name] = _Stale(s.lineno)
        for name, old in saved_ptrs.items():  # after the loop: advanced (stop - start) times
            n = f"({_paren(stop)} - {_paren(start)})" if start != "0" else stop
            if step != "1":   # cdiv(stop - start, step) iterations
                n = f"(({n} + {_paren(step)} - 1) // {_paren(step)})"
            self.env[name] = (_advanced(old, self.advances[name], n) if isinstance(old, BlockPtr)
                              else _ptr_advanced(old, self.ptr_steps[name], n))  # type: ignore[arg-type]
        self.advances, self.ptr_steps = saved_adv, saved_steps

    def _static_range_values(self, it: ast.Call) -> list[int] | None:
        """The indices of `tl.static_range(..)` when every launch gives its bounds the same integers (at most 256
        of them), else None."""
        if self.function(it.func) != "static_range" or not 1 <= len(it.args) <= 3 or it.keywords:
            return None
        try:
            texts = [self.scalar(a) for a in it.args]
        except LoweringError:
            return None
        bounds = ["0", texts[0], "1"] if len(texts) == 1 else (texts + ["1"])[:3]
        vals = [self.launch_values(b) for b in bounds]
        if any(v is None or len(set(v)) != 1 or not isinstance(v[0], int) or isinstance(v[0], bool) for v in vals):
            return None
        lo, hi, step = (v[0] for v in vals)   # type: ignore[index]
        if step == 0 or len(range(lo, hi, step)) > 256:
            return None
        return list(range(lo, hi, step))

    def _state(self) -> dict:
        """A copy of the lowering's state (``_restore`` returns to it)."""
        import copy

        return {k: copy.deepcopy(v) for k, v in self.__dict__.items() if k != "k"}

    def _restore(self, state: dict) -> None:
        for k in [k for k in self.__dict__ if k != "k" and k not in state]:
            del self.__dict__[k]
        self.__dict__.update(state)

    def _pointer_step(self, st: ast.stmt) -> tuple[str, int | str] | None:
        """(pointer, which of its index vectors) when ``st`` is ``p += D`` / ``p = p + D`` with p a pointer and D one
        block of one of its index vectors times that vector's stride (``BLOCK_K * stride_k``); (pointer, D) when the
        pointer's offsets are computed (a gather: any scalar D moves them); None when ``st`` is not a pointer
        update; refused when it is one of another kind."""
        if isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Add) and isinstance(st.target, ast.Name):
            name, delta = st.target.id, st.value
        elif (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
              and isinstance(st.value, ast.BinOp) and isinstance(st.value.op, ast.Add)
              and isinstance(st.value.left, ast.Name) and st.value.left.id == st.targets[0].id):
            name, delta = st.targets[0].id, st.value.right
        else:
            return None
        ptr = self.env.get(name)
        if not isinstance(ptr, Ptr):
            return None
        d = self.ev(delta)
        if isinstance(d, Scalar) and len(ptr.terms) == 1 and isinstance(ptr.terms[0].index, Tile) \
                and ptr.terms[0].stride == "1":
            return name, d.text
        if isinstance(d, Scalar):
            for k, term in enumerate(ptr.terms):
                if isinstance(term.index, Idx) and linear.same(d.text, f"{term.index.size} * {term.stride}"):
                    return name, k
            for k, term in enumerate(ptr.terms):   # several blocks per iteration (split-K: `BLOCK_K * SPLIT_K *
                # stride_k`, the program's own block among SPLIT_K): a constexpr number of blocks > 0
                if isinstance(term.index, Idx) and term.stride != "0":
                    q = linear.quotient(d.text, f"{term.index.size} * {term.stride}")
                    vals = self.launch_values(q) if q is not None else None
                    if vals and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in vals):
                        return name, ("blocks", str(k), q)
                    if q is not None and term.stride == "1" and self._invariant(q):
                        # a parameter's number of blocks (`p += H * D` over `[T, H, D]` read a head of D at a time)
                        return name, ("blocks", str(k), q)
            one_element = all(isinstance(t.index, str) for t in ptr.terms)
            if self.kinds.get(d.text) in ("scalar", "constant") or (d.text.isdigit() and one_element):
                return name, ("row", d.text)   # one row of a stride per iteration (`x_ptr += x_row_stride`)
            # a loop-invariant number of rows of one of its strides per iteration: `p_q += H * K_DIM` for a
            # `(.. + i_h) * K_DIM` row (heads interleaved with time), `x_ptr += step * stride` in a grid-strided loop
            strides = [t.stride for t in ptr.terms if isinstance(t.index, str) and t.stride not in ("0", "1")]
            if d.factors is not None:
                strides += [f for f in d.factors if self.kinds.get(f) == "scalar" and f not in strides]
            for stride in strides:
                q = linear.quotient(d.text, stride)
                if q is not None and q != "1" and self._invariant(q):
                    return name, ("rows", stride, q)
        raise self.fail(st, f"{name} advanced by `{ast.unparse(delta)}` per iteration: a pointer is lowered when it "
                            "advances by one block of one of its index vectors (`p += BLOCK * stride` for "
                            "`p = base + (.. + tl.arange(0, BLOCK)) * stride`) or by a stride parameter "
                            "(`p += row_stride`)")

    def _invariant(self, text: str) -> bool:
        """``text`` (a product of names) has the same value at every iteration of a loop: parameters, constexprs and
        names bound to grid sizes (`step = tl.num_programs(0)`, never re-bound)."""
        return all(self.kinds.get(n) in ("scalar", "constant") or n in self._grid_sizes
                   for n in linear.free_names(linear.parse(text)))

    def _is_ptr_step(self, st: ast.stmt) -> bool:
        return id(st) in self._step_nodes

    def _pointer_where(self, s: ast.stmt) -> ast.If | None:
        """``name = tl.where(c, p, q)`` whose operands are pointers (by their form, as ``_binds_structure`` reads
        them) as ``if c: name = p`` / ``else: name = q``; None for any other statement. A test that is a tile (a
        pointer per lane) is refused."""
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and
                isinstance(s.value, ast.Call) and self.tl_attr(s.value.func) == "where" and len(s.value.args) == 3
                and not s.value.keywords):
            return None
        test, a, b = s.value.args
        arms = [[ast.copy_location(ast.Assign([s.targets[0]], v), s)] for v in (a, b)]
        as_if = ast.copy_location(ast.If(test, arms[0], arms[1]), s)
        kinds = (Ptr, BlockPtr, Desc)
        if not all(isinstance(v, ast.Name) and isinstance(self.env.get(v.id), kinds) or
                   isinstance(v, ast.BinOp) and any(isinstance(n, ast.Name) and isinstance(self.env.get(n.id), kinds)
                                                    for n in walk_nodes(v)) for v in (a, b)):
            return None
        before = len(self.lines)
        cond = self.ev(test)
        del self.lines[before:]
        if not isinstance(cond, (Scalar, bool, int)):
            raise self.fail(s.value, "tl.where choosing a pointer per lane (a tile test) is not lowered: only a "
                                     "pointer chosen by a scalar test (an `if` of the program)")
        return as_if

    def _binds_structure(self, s: ast.If) -> bool:
        """Whether a runtime `if` binds, in an arm, a name whose value is a pointer, block pointer or descriptor
        (``p = q_ptr + pid * HD``, ``bp = tl.advance(bp, ..)``) or a mask (``m = m & keep``) — which an arm cannot
        yield as a variable. On constexprs the launches decide differently, masks are merged (constexpr_branch)."""
        if self.static_truth(s.test) is not None:
            return False
        kinds = (Ptr, BlockPtr, Desc) if self.launch_truths(s.test) is not None else (Ptr, BlockPtr, Desc, Mask)
        flagged: set[str] = set()

        def structural(e: ast.expr) -> bool:   # the value of `e` is a pointer (mask), read from its form
            if isinstance(e, ast.Name):
                return e.id in flagged or isinstance(self.env.get(e.id), kinds)
            if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub, ast.BitAnd, ast.BitOr)):
                return structural(e.left) or structural(e.right)
            if isinstance(e, ast.Compare) and Mask in kinds:   # `m = offs < n_a`: a mask of bounds
                return any(isinstance(n, ast.Name) and isinstance(self.env.get(n.id), Idx) or
                           isinstance(n, ast.Call) and self.tl_attr(n.func) == "arange" for n in walk_nodes(e))
            return isinstance(e, ast.Call) and self.tl_attr(e.func) in ("make_block_ptr", "advance",
                                                                        "make_tensor_descriptor")

        sets = [(t.id, n) for st in s.body + s.orelse for n in walk_nodes(st)
                if isinstance(n, (ast.Assign, ast.AugAssign))
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)]
        grew = True
        while grew:
            grew = False
            for name, n in sets:
                if name not in flagged and (structural(n.value) or isinstance(n, ast.AugAssign) and structural(
                        n.target)):
                    flagged.add(name)
                    grew = True
        return bool(flagged)

    def branch(self, s: ast.If) -> None:
        truth = self.static_truth(s.test)
        if truth is not None:   # constexpr test the launches agree on: only the taken branch is lowered
            self.block(s.body if truth else s.orelse)
            return
        truths = self.launch_truths(s.test)
        if truths is not None:   # on constexprs, decided differently by different launches
            self.constexpr_branch(s, truths)
            return
        cond = self.ev(s.test)
        if isinstance(cond, Tile) and cond.shape in ((), ("1",)) and cond.dtype in BOOL:
            # a one-element comparison of tiles (`y != ignore_index`, y an int64 label): a scalar comparison of it
            cond = Scalar(f"ct.reshape(ct.where({cond.text}, 1, 0), ()) != 0")
        if isinstance(cond, Tile) and cond.shape in ((), ("1",)):   # one loaded element (`y = tl.load(p + row)`)
            cond = Scalar(f"ct.reshape({cond.text}, ())" if cond.shape else cond.text)
        if not isinstance(cond, Scalar):
            raise self.fail(s.test, "`if` on a tile: use tl.where")
        assigned = self._assigned(s.body + s.orelse)
        self._name_scalars(assigned)
        self._name_tiles(assigned)
        old_carried, self._carried = self._carried, self._carried | assigned
        kinds = (Ptr, BlockPtr, Desc, Mask)
        before = {n: self.env.get(n) for n in assigned}
        self.emit(f"if {cond.text}:")
        if_at = len(self.lines)
        self._runtime_arms.append((id(s), True))
        try:
            self.indented(s.body)
        finally:
            self._runtime_arms.pop()
        body_end = len(self.lines)
        arm = {n: self.env.get(n) for n in assigned}
        for n in assigned:   # the other arm starts from the pointers (masks) bound before the `if`, not the first's
            if isinstance(arm[n], kinds):
                if before[n] is None:
                    self.env.pop(n, None)
                else:
                    self.env[n] = before[n]
        if s.orelse:
            self.emit("else:")
            self._runtime_arms.append((id(s), False))
            try:
                self.indented(s.orelse)
            finally:
                self._runtime_arms.pop()
        for n in assigned:   # one bound differently in the arms has no value after the `if` (used: refused there)
            if (isinstance(arm[n], kinds) or isinstance(self.env.get(n), kinds)) and arm[n] != self.env.get(n):
                self.env[n] = _Diverged(n, getattr(s, "lineno", 0))
        self._one_element_arms(s, assigned, arm, before, (if_at, body_end))
        self._carried = old_carried
        self._forget_factors(assigned)

    def _one_element_arms(self, s: ast.If, assigned: set[str], arm: dict, before: dict,
                          at: tuple[int, int]) -> None:
        """A name a runtime `if` binds to a one-element tile in one arm (`loss = lse - x_y`, x_y loaded at a label)
        and to a number in the other (`else: loss = 0.0`), or keeps a number from before the `if`: the number made a
        tile of that shape and dtype in its arm (`ct.full((1,), 0.0, dtype=ct.float32)`), as the name is one
        scalar in Triton in both (cuTile Python rejected the `if`: "Type of `loss` depends on path taken")."""
        pad = "    " * (self.indent + 1)
        inserts: list[tuple[int, str]] = []
        for n in sorted(assigned):
            a, b = arm.get(n), self.env.get(n)
            t = a if isinstance(a, Tile) else b if isinstance(b, Tile) else None
            other = b if t is a else a
            if t is None or not isinstance(other, Scalar) or t.shape not in ((), ("1",)) or \
                    self.known_dtype(t) not in FLOAT_DTYPES + INT_DTYPES or t.text != self.prefix + n:
                continue
            line = f"{t.text} = ct.full({_tup(t.shape)}, {other.text}, dtype={self.known_dtype(t)})"
            if other is b and s.orelse and b is not before.get(n):   # the else arm bound the number
                inserts.append((len(self.lines), pad + line))
            elif other is a and a is not before.get(n):              # the `if` arm bound it
                inserts.append((at[1], pad + line))
            else:   # the number from before the `if`: made a tile before it
                inserts.append((at[0] - 1, pad[4:] + line))
            self.env[n] = t
        for pos, line in sorted(inserts, reverse=True):
            self.lines.insert(pos, line)

    def _forget_factors(self, names: set[str]) -> None:
        """After a runtime `if` or a loop, a variable assigned in it holds one of several values: `off = pid * B`
        in one arm no longer makes `off` a tile index of B-blocks (``_in_blocks`` checks every value instead)."""
        for name in names:
            v = self.env.get(name)
            if isinstance(v, Scalar) and v.factors and v.text == self.prefix + name:
                self.env[name] = Scalar(v.text)

    def launch_truths(self, node: ast.expr) -> list[bool] | None:
        """A test's value at each captured launch, when it is on constexprs only (None otherwise)."""
        names = list(self.const_values)
        if not names:
            return None
        out = []
        for i in range(len(self.const_values[names[0]])):
            try:
                out.append(bool(self._static(node, {n: self.const_values[n][i] for n in names})))
            except _NotStatic:
                return None
        return out

    def constexpr_branch(self, s: ast.If, truths: list[bool]) -> None:
        """``if STAGE & 1:`` on constexprs the launches decide differently (causal and non-causal attention): the
        same `if` in the lowered kernel (cuTile folds it per specialization), each arm lowered knowing only the
        launches that take it (its own `if`s fold, its scalars stay exact: `lo = 0` in both arms is 0 after).
        Names bound to different values in the two arms: scalars are assigned at the end of each arm; tiles are
        named alike already; pointers, indices and masks that differ are refused."""
        cond = self.ev(s.test)
        if not isinstance(cond, Scalar):
            raise self.fail(s.test, f"`{ast.unparse(s.test)}`: a test on constexprs must be a scalar expression")
        assigned = self._assigned(s.body + s.orelse)
        # names bound before the `if` (or carried by an enclosing loop) become variables, as for a runtime `if`;
        # names the arms bind first stay exact where both arms agree
        self._name_scalars({n for n in assigned if n in self.env or n in self._carried})
        self._name_tiles(assigned)
        old_carried = self._carried
        self._carried = old_carried | {n for n in assigned if isinstance(self.env.get(n), Scalar)}
        saved_consts, saved_env = self.const_values, dict(self.env)
        self.emit(f"if {cond.text}:")
        envs, ends = [], []
        for arm, taken in ((s.body, True), (s.orelse, False)):
            if arm is s.orelse:
                self.emit("else:")
            self.env = dict(saved_env)
            with self._constexpr_arm(cond.text, truths, taken):
                self.indented(arm)
            envs.append(self.env)
            ends.append(len(self.lines))
        self.const_values, self._carried = saved_consts, old_carried
        merged = dict(saved_env)
        inserts: list[tuple[int, str]] = []
        for name in sorted(assigned):
            a, b = (e.get(name) for e in envs)
            if a == b:
                if a is not None:
                    merged[name] = a
                continue
            if a is None or b is None:   # bound in one arm only: what it is there (used after only under the
                merged[name] = a if b is None else b   # same constexpr test, as Triton requires of its launches)
                continue
            if isinstance(a, Tile) and isinstance(b, Tile) and a.text == b.text:
                merged[name] = a if a.shape == b.shape else replace(a, shape=_broadcast(a.shape, b.shape))
                continue
            if isinstance(a, Scalar) and isinstance(b, Scalar):
                out = self.prefix + name
                for k, v in ((0, a), (1, b)):
                    if v.text != out:
                        inserts.append((ends[k], f"{out} = {v.text}"))
                merged[name] = Scalar(out)
                continue
            acc = _scalar_made_tile(a, b, self.prefix + name, self.known_dtype)
            if acc is not None and name in self._carried:
                # a float a loop carries that one arm accumulates into (`sum_x = 0.0`, then in the loop `if
                # HAS_SMOOTHING: sum_x += tl.sum(x)`): a 0-d tile from the start (the loop's init becomes
                # ct.full((), 0.0, ..) after it), the arm that leaves it keeping its value
                k, t = acc
                if t.text != self.prefix + name:
                    inserts.append((ends[k], f"{self.prefix}{name} = {t.text}"))
                merged[name] = replace(t, text=self.prefix + name)
                continue
            if isinstance(a, (Tile, Mask)) and isinstance(b, (Tile, Mask)):
                # values of tiles (a mask narrowed in one arm: `valid = valid & causal` under `if CAUSAL:`): the
                # name bound at the end of each arm, broadcast to one shape (cuTile folds the `if` per launch)
                ta, tb = (v if isinstance(v, Tile) else self.mask_tile(v, s) for v in (a, b))
                if ta.dtype == tb.dtype and ta.dtype is not None:
                    out, shape = self.prefix + name, _broadcast(ta.shape, tb.shape)
                    for k, t in ((0, ta), (1, tb)):
                        text = t.text if t.shape == shape else f"ct.broadcast_to({t.text}, {_tup(shape)})"
                        if text != out:
                            inserts.append((ends[k], f"{out} = {text}"))
                    merged[name] = Tile(out, shape, ta.dtype)
                    continue
            # index vectors, pointers or masks of different forms (`i1 = d` in one arm, `i1 = 2 * d` in the other:
            # RoPE's neox and interleaved halves): no value after the `if` (`block` then lowers the statements
            # after it once in each arm; a use it cannot reach so is refused there)
            merged[name] = _Diverged(name, getattr(s, "lineno", 0))
        pad = "    " * (self.indent + 1)
        for at, line in sorted(inserts, reverse=True):
            if self.lines[at - 1] == pad + "pass":   # an arm that emitted nothing else
                self.lines[at - 1] = pad + line
            else:
                self.lines.insert(at, pad + line)
        if not s.orelse and self.lines[-2:] == ["    " * self.indent + "else:", pad + "pass"]:
            del self.lines[-2:]
        self.env = merged

    def static_truth(self, node: ast.expr) -> bool | None:
        """The value of a test on constexprs and module constants, when every captured launch gives the same one."""
        names = list(self.const_values)
        count = len(next(iter(self.const_values.values()))) if names else 1
        results = set()
        for i in range(count):
            values = {n: self.const_values[n][i] for n in names}
            try:
                results.add(bool(self._static(node, values)))
            except _NotStatic:
                return None
        return results.pop() if len(results) == 1 else None

    def _is_static(self, node: ast.expr) -> bool:
        """Whether ``node`` is on constexprs and module constants only (a value at every captured launch)."""
        names = list(self.const_values)
        count = len(next(iter(self.const_values.values()))) if names else 1
        try:
            for i in range(count):
                self._static(node, {n: self.const_values[n][i] for n in names})
        except _NotStatic:
            return False
        return True

    def _static(self, n: ast.expr, values: dict) -> object:
        import operator

        if isinstance(n, ast.Constant):
            return n.value
        if isinstance(n, ast.Name):
            v = self.env.get(n.id)
            if v is None:
                if n.id in self.k.globals:
                    return self.k.globals[n.id]
                raise _NotStatic
            if isinstance(v, DType):   # `dtype = tl.float8e5 if FP8 else tl.float16`, then `if dtype == ..`
                return self._static_dtype(n)
            if isinstance(v, Scalar):
                if v.text in values:
                    return values[v.text]
                try:
                    return ast.literal_eval(v.text)
                except (ValueError, SyntaxError):
                    pass
                return self._static_text(v.text, values)   # `4 - STAGE` passed to a helper's constexpr
            raise _NotStatic
        if (isinstance(n, ast.Attribute) and n.attr in ("primitive_bitwidth", "itemsize")) or (
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr.startswith("is_")
                and not n.args and not n.keywords and n.func.attr in DTYPE_FACTS[F32]):
            # `x_ptr.dtype.element_ty.primitive_bitwidth == 16`, `x.dtype.is_floating()`: the launches' dtype's
            try:
                v = self.attribute(n) if isinstance(n, ast.Attribute) else self.call(n)
            except LoweringError:
                raise _NotStatic from None
            if not isinstance(v, Scalar):
                raise _NotStatic
            return ast.literal_eval(v.text)
        if isinstance(n, ast.Attribute):   # `V.dtype.element_ty`, `tl.float8e5`: the dtype every launch has
            return self._static_dtype(n)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "isinstance" \
                and len(n.args) == 2 and isinstance(n.args[0], ast.Name) \
                and self.tl_attr(n.args[1]) in ("tensor_descriptor", "tensor_descriptor_base"):
            # `if isinstance(desc_or_ptr, tl.tensor_descriptor):` (a helper taking a host descriptor or a pointer)
            return isinstance(self.env.get(n.args[0].id), Desc)
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Is, ast.IsNot)) and \
                any(isinstance(side, ast.Constant) and side.value is None for side in (n.left, n.comparators[0])) and \
                any(isinstance(side, ast.Name) and isinstance(self.env.get(side.id), (Ptr, Desc, BlockPtr))
                    for side in (n.left, n.comparators[0])):
            # `if b_ptr is not None:` where the launches pass a tensor for b_ptr (launches passing None are a
            # kernel of their own: capture's NAME[b_ptr=None]): decided, as Triton's specialization decides it
            return isinstance(n.ops[0], ast.IsNot)
        if isinstance(n, ast.Compare):
            left = self._static(n.left, values)
            for op, right_node in zip(n.ops, n.comparators):
                right = self._static(right_node, values)
                fn = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
                      ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_,
                      ast.IsNot: operator.is_not}.get(type(op))
                if fn is None or not fn(left, right):
                    if fn is None:
                        raise _NotStatic
                    return False
                left = right
            return True
        if isinstance(n, ast.BoolOp):
            vals = [self._static(v, values) for v in n.values]
            return all(vals) if isinstance(n.op, ast.And) else any(vals)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return not self._static(n.operand, values)
        ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
               ast.Mod: operator.mod, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
               ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift}
        if isinstance(n, ast.BinOp) and type(n.op) in ops:   # `STAGE & 2`
            a, b = self._static(n.left, values), self._static(n.right, values)
            return ops[type(n.op)](a, b)
        raise _NotStatic

    @staticmethod
    def _static_text(text: str, values: dict) -> object:
        """The value of an emitted scalar expression of constexprs and literals (``4 - STAGE``) at one launch."""
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            raise _NotStatic from None
        ok = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.Name, ast.Constant, ast.Load,
              ast.operator, ast.unaryop, ast.boolop, ast.cmpop)
        if not all(isinstance(n, ok) for n in walk_nodes(tree)) or not all(
                n.id in values for n in walk_nodes(tree) if isinstance(n, ast.Name)):
            raise _NotStatic
        try:
            return eval(compile(tree, "<constexpr>", "eval"), {"__builtins__": {}}, dict(values))  # noqa: S307
        except Exception:  # noqa: BLE001 — not a constant at this launch
            raise _NotStatic from None

    def _static_dtype(self, n: ast.expr) -> str:
        """The cuTile dtype ``n`` (a dtype expression) names at every captured launch, else ``_NotStatic``."""
        try:
            v = self.ev(n)
        except LoweringError:
            raise _NotStatic from None
        if not isinstance(v, DType):
            raise _NotStatic
        known = self.known_dtype(Tile("", (), v.text))
        if known is None:
            raise _NotStatic
        return known

    # ------------------------------------------------ expressions

    def scalar(self, node: ast.expr) -> str:
        v = self.ev(node)
        v = self._loaded_scalar(v)
        if not isinstance(v, Scalar):
            raise self.fail(node, f"`{ast.unparse(node)}` must be a scalar here")
        return v.text

    def _loaded_scalar(self, v: object) -> object:
        """One int32 loaded from memory (`start = tl.load(cu_seqlens + seq)`) as the scalar it is where a scalar is
        needed (loop bounds); anything else unchanged. (As an offset it stays a gather: cutile 0.3.1 cannot type
        `t.item()` of a tile bound outside the `if` it is used in.)"""
        if isinstance(v, Tile) and v.shape in ((), ("1",)) and self.known_dtype(v) == "ct.int32":
            return Scalar(f"{_paren(v.text)}.item()")
        if isinstance(v, Tile) and v.shape in ((), ("1",)) and self.known_dtype(v) == "ct.int64":
            # int64 offsets (an embedding bag's, torch's default integer): as int32, as int64 labels index (a
            # view's extents and tile indices are 32-bit)
            return Scalar(f"ct.astype({v.text}, ct.int32).item()")
        return v

    def _tuple(self, node: ast.expr) -> tuple[str, ...]:
        if isinstance(node, ast.Name) and isinstance(self.env.get(node.id), tuple) and all(
                isinstance(v, Scalar) for v in self.env[node.id]):   # a helper's parameter bound to `[M, K]`
            return tuple(v.text for v in self.env[node.id])  # type: ignore[union-attr]
        if isinstance(node, ast.Attribute) and node.attr == "shape" and isinstance(node.value, ast.Name) \
                and isinstance(self.env.get(node.value.id), Tile):   # `tl.full(x.shape, 2, x.dtype)`: x's shape
            return tuple(self.env[node.value.id].shape)  # type: ignore[union-attr]
        if not isinstance(node, (ast.Tuple, ast.List)):
            raise self.fail(node, "expected a literal tuple")
        return tuple(self.scalar(e) for e in node.elts)

    def ev(self, node: ast.expr) -> object:
        if isinstance(node, ast.Name):
            if isinstance(self.env.get(node.id), _Stale):
                raise self.fail(node, f"{node.id} is read after the loop at line {self.env[node.id].line} "
                                      "(its value there is the last iteration's, computed from the loop index, which "
                                      "cuTile Python has no value of after its loop): not lowered")
            if isinstance(self.env.get(node.id), _Diverged):
                raise self.fail(node, f"{node.id} is bound to different pointers (masks, index vectors) in the arms "
                                      f"of the `if` at line {self.env[node.id].line} and read after it: not lowered "
                                      "(read it inside each arm)")
            if node.id in self.env:
                return self.env[node.id]
            if node.id in self.k.globals:
                return Scalar(repr(self.k.globals[node.id]))
            raise self.fail(node, f"name {node.id!r} is not defined in the kernel (module globals are lowered when "
                                  "bound once to a literal or tl.constexpr(literal))")
        if isinstance(node, (ast.Tuple, ast.List)):   # (a list: `shape=[M, K]` passed to a helper)
            return tuple(self.ev(e) for e in node.elts)
        if isinstance(node, ast.ListComp):
            return self.tuple_comprehension(node)
        if isinstance(node, ast.IfExp):
            truth = self.static_truth(node.test)
            if truth is not None:   # on constexprs every launch gives alike: the taken side only
                return self.ev(node.body if truth else node.orelse)
            mark = (len(self.lines), getattr(self, "_temps", 0))
            test, a, b = self.ev(node.test), self.ev(node.body), self.ev(node.orelse)
            if all(isinstance(x, Scalar) for x in (test, a, b)):   # scalars: the same expression in cuTile Python
                return Scalar(f"({a.text} if {test.text} else {b.text})")  # type: ignore[union-attr]
            truths = self.launch_truths(node.test)
            if truths is not None:   # tiles, on constexprs the launches decide differently: an `if` statement
                del self.lines[mark[0]:]
                self._temps = mark[1]
                return self._constexpr_ifexp(node, truths)
            if isinstance(test, Scalar) and any(isinstance(x, (Tile, Mask)) for x in (a, b)):
                # `x if flag > 1 else x * 0` (a run-time scalar test, tile arms: Triton's scf.if of two values of
                # one type): ct.where — both arms computed, the taken one kept (was refused)
                ta, tb = (x if isinstance(x, Scalar) else self.materialize(self._value(x, node), node) for x in (a, b))
                shape = _broadcast(getattr(ta, "shape", ()), getattr(tb, "shape", ()))
                dts = {t.dtype for t in (ta, tb) if isinstance(t, Tile)}
                return Tile(f"ct.where({test.text}, {ta.text}, {tb.text})", shape, dts.pop() if len(dts) == 1 else None)
            raise self.fail(node, f"`{ast.unparse(node)}`: a conditional expression is lowered on scalars, or when "
                                  "its test is on constexprs that every launch gives alike (use tl.where for tiles)")
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return Scalar(repr(node.value))   # compared with string constexprs in folded `if`s
            if isinstance(node.value, bool):   # `MASK=True` passed to a helper's constexpr: folded `if`s read it
                return Scalar(repr(node.value))
            if not isinstance(node.value, (int, float)):
                raise self.fail(node, f"literal {node.value!r} is not supported")
            if isinstance(node.value, int) and abs(node.value) >= 2**32:
                if node.value >= 2**63:
                    raise self.fail(node, f"integer literal {node.value} does not fit int64")
                return _wide_int(node.value)
            return Scalar(repr(node.value))
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) and \
                    type(node.operand.value) is int and node.operand.value >= 2**32:
                if node.operand.value > 2**63:
                    raise self.fail(node, f"integer literal -{node.operand.value} does not fit int64")
                return _wide_int(-node.operand.value)   # (`-9223372036854775807`: an int64 max-reduction's padding)
            v = self.ev(node.operand)
            if isinstance(node.op, ast.USub) and isinstance(v, (Idx, Offset)):
                # `-offs`, `-cols[None, :]`: index arithmetic negated, as a tile (round 26's fuzzer: "unary
                # `-cols[None, :]` is not supported")
                v = self.materialize(v, node)
            if isinstance(node.op, ast.USub):
                if isinstance(v, Scalar) and v.text in ("float('inf')", "float('-inf')"):
                    # `-float('inf')`: the constant, as cuTile Python folds it (not a negation of +inf)
                    return Scalar("float('-inf')" if v.text == "float('inf')" else "float('inf')")
                if isinstance(v, Scalar):
                    return Scalar(f"-{_paren(v.text)}")
                if isinstance(v, Tile) and self.known_dtype(v) in ("ct.uint8", "ct.uint16", "ct.uint32", "ct.uint64"):
                    # `-u` of an unsigned tile: Triton's `0 - u`, wrapping (2**32 - u for u > 0)
                    dt = self.known_dtype(v)
                    return Tile(f"ct.zeros({_tup(v.shape)}, dtype={dt}) - {_paren(v.text)}", v.shape, dt)
                if isinstance(v, Tile):
                    return Tile(f"-{_paren(v.text)}", v.shape, v.dtype)
            if isinstance(node.op, ast.Not) and isinstance(v, Scalar):
                return Scalar(f"not {_paren(v.text)}")
            if isinstance(node.op, ast.Not) and isinstance(v, (Tile, Mask)):
                # `not ok` of a boolean tensor: Triton's semantic.not_, the truth inverted (`~`); one loaded
                # element's truth a scalar's, as `and` / `or` have it (`_bool_op`)
                t = self._truth(v, node, "not")
                return Scalar(f"not {_paren(t.text)}") if isinstance(t, Scalar) else Tile(f"~{_paren(t.text)}", t.shape, "bool")
            if isinstance(node.op, ast.UAdd) and isinstance(v, (Scalar, Tile)):
                return v
            if isinstance(node.op, ast.Invert):
                # `~0xFFFF` (a mask literal): Python's value, as Triton folds it; `~x` of an integer or boolean
                # tile / scalar: cuTile Python's `~` (all bits, or the truth, flipped), as Triton's
                if isinstance(v, (Idx, Offset)):
                    v = self.materialize(v, node)
                if isinstance(v, Mask):   # `~m` of `m = offs < n` (bounds): the boolean tile's truth flipped
                    v = self.mask_tile(v, node)
                if isinstance(v, Scalar):
                    try:
                        lit = ast.literal_eval(v.text)
                    except (ValueError, SyntaxError):
                        lit = None
                    if isinstance(lit, int) and not isinstance(lit, bool):
                        return Scalar(repr(~lit))
                    if self._scalar_is_float(v.text):
                        raise self.fail(node, f"`{ast.unparse(node)}`: `~` of a float")
                    return Scalar(f"~{_paren(v.text)}")
                if isinstance(v, Tile):
                    # (a tile loaded from an array, `x_ptr.dtype`: the dtypes its launches pass)
                    dts = self._launch_dtypes(v) if v.dtype and v.dtype.endswith(".dtype") else {v.dtype}
                    bad = sorted(d for d in dts - {None} if d not in INT_DTYPES + BOOL + ("ct.uint16", "ct.uint64"))
                    if bad or not dts:
                        raise self.fail(node, f"`{ast.unparse(node)}`: `~` of a {bad[0] if bad else v.dtype} tile")
                    return Tile(f"~{_paren(v.text)}", v.shape, v.dtype)
            raise self.fail(node, f"unary `{ast.unparse(node)}` is not supported")
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.ev(node.left), self.ev(node.right), node)
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1:
                raise self.fail(node, "chained comparisons are not supported")
            return self.compare(node.ops[0], self.ev(node.left), self.ev(node.comparators[0]), node)
        if isinstance(node, ast.BoolOp):
            vals = [self.ev(v) for v in node.values]
            if all(isinstance(v, Scalar) for v in vals):
                op = " and " if isinstance(node.op, ast.And) else " or "
                return Scalar(op.join(_paren(v.text) for v in vals))  # type: ignore[union-attr]
            return self._bool_op(node, vals)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise self.fail(node, f"`{ast.unparse(node)}` ({type(node).__name__}) is not supported")

    def _dtype_facts(self, node: ast.AST, base: ast.expr) -> dict | None:
        """What Triton's ``tl.dtype`` tells of ``base`` (`x_ptr.dtype.element_ty`, `x.dtype`) when it is a dtype whose
        every launch is one (``DTYPE_FACTS``); None when ``base`` is no dtype. Refused where the launches differ."""
        try:
            d = self.ev(base)
        except LoweringError:
            return None
        if not isinstance(d, DType):
            return None
        known = self.known_dtype(Tile("", (), d.text))
        if known not in DTYPE_FACTS:
            raise self.fail(node, f"`{ast.unparse(node)}`: the launches pass arrays of different dtypes here (or one "
                                  "this lowering does not name), so it is not one constant")
        return DTYPE_FACTS[known]

    def attribute(self, node: ast.Attribute) -> object:
        if node.attr in ("primitive_bitwidth", "itemsize") and (facts := self._dtype_facts(node, node.value)):
            # `x_ptr.dtype.element_ty.primitive_bitwidth`: the launches' dtype's width (bytes for itemsize)
            return Scalar(str(facts["bits"] // (8 if node.attr == "itemsize" else 1)))
        name = self.tl_attr(node)
        if name in DTYPES:
            return DType(DTYPES[name])
        if node.attr == "dtype" and isinstance(node.value, ast.Name) and isinstance(self.env.get(node.value.id), Tile):
            tile = self.env[node.value.id]
            if tile.dtype is None:  # type: ignore[union-attr]
                raise self.fail(node, f"the dtype of `{node.value.id}` is not known here")
            return DType(tile.dtype)  # type: ignore[union-attr]
        if (node.attr == "element_ty" and isinstance(node.value, ast.Attribute) and node.value.attr in ("dtype", "type")
                and isinstance(node.value.value, ast.Name)
                and isinstance(self.env.get(node.value.value.id), (Ptr, BlockPtr))):
            # a pointer parameter, a pointer variable (`p_o = O + offs`) or a block pointer: its array's dtype
            return DType(f"{self.env[node.value.value.id].param}.dtype")  # type: ignore[union-attr]
        if node.attr in ("numel", "shape") and isinstance(node.value, ast.Name) and \
                isinstance(self.env.get(node.value.id), Tile):
            # `x.numel` (Triton's constexpr count of a tile's elements: `x.numel >> n_dims`), `x.shape` (its
            # extents, a tuple of constexprs): was "is not supported"
            shape = self.env[node.value.id].shape  # type: ignore[union-attr]
            if node.attr == "shape":
                return tuple(Scalar(d) for d in shape)
            return Scalar(" * ".join(_paren(d) for d in shape) if shape else "1")
        if node.attr == "T" and (isinstance(self.env.get(node.value.id), Tile) if isinstance(node.value, ast.Name)
                                 else not isinstance(node.value, ast.Attribute)):
            # `x.T`, and `.T` of an expression (`x.to(tl.float32).T`, `tl.load(p).T`: was "is not supported")
            return self.permute(node, self.ev(node.value), None)
        # a tensor descriptor's element type: `desc.dtype`, `desc.type.block_type.element_ty`
        chain, base = [], node
        while isinstance(base, ast.Attribute):
            chain.insert(0, base.attr)
            base = base.value
        if isinstance(base, ast.Name) and isinstance(self.env.get(base.id), Desc) and \
                chain in (["dtype"], ["type", "block_type", "element_ty"]):
            return DType(f"{self.env[base.id].param}.dtype")  # type: ignore[union-attr]
        raise self.fail(node, f"`{ast.unparse(node)}` is not supported")

    def subscript(self, node: ast.Subscript) -> object:
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape" and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, int):   # `acc.shape[0]`: the tile's extent
            t = self.ev(node.value.value)
            if isinstance(t, Desc):
                t = self._descriptor_of(node.value.value.id, node) if isinstance(node.value.value, ast.Name) else t
                if "" in t.block:
                    raise self.fail(node, f"`{ast.unparse(node)}`: the block shape differs across the launches")
            if isinstance(t, (Tile, Desc)):
                shape = t.shape if isinstance(t, Tile) else t.block
                if -len(shape) <= node.slice.value < len(shape):
                    return Scalar(shape[node.slice.value])
            raise self.fail(node, f"`{ast.unparse(node)}`: the shape of a tile is read by a literal index")
        v = self.ev(node.value)
        sl = node.slice
        if isinstance(v, tuple) and isinstance(sl, ast.Constant) and isinstance(sl.value, int) and \
                -len(v) <= sl.value < len(v):   # `tl.associative_scan((a, b), 0, f)[1]`: one value of a tuple
            return v[sl.value]
        items = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        is_none = [isinstance(e, ast.Constant) and e.value is None for e in items]
        is_all = [isinstance(e, ast.Slice) and e.lower is None and e.upper is None and e.step is None for e in items]
        if not all(a or b for a, b in zip(is_none, is_all)):
            raise self.fail(node, "only `[:, None]`-style indexing (adding unit axes) is supported")
        rank = _rank_of(v)
        if rank is not None and sum(is_all) < rank:
            # `offs[None]`, `x2d[:, None]`: the axes not named are kept after those named, as Triton's __getitem__
            # (and numpy) read them
            pad = rank - sum(is_all)
            items, is_none, is_all = items + [None] * pad, is_none + [False] * pad, is_all + [True] * pad
        alls = [k for k, a in enumerate(is_all) if a]   # where the old axes go, in order

        def moved(i: Idx) -> Idx:
            return replace(i, axis=alls[i.axis], rank=len(items))

        def expanded(t: Tile) -> Tile:
            it = iter(t.shape)
            shape = tuple("1" if n else next(it) for n in is_none)
            return Tile(f"ct.reshape({t.text}, {_tup(shape)})", shape, t.dtype)

        if isinstance(v, Idx):
            if v.rank != len(alls):
                raise self.fail(node, "index vectors are expanded with one `:` per axis (`offs[:, None]`, "
                                      "`offs[None, :]`)")
            return moved(v)
        if isinstance(v, Mask):   # `row_mask[:, None]`: each bound index vector expanded alike
            if any(i.rank != len(alls) for i, _ in v.conds):
                raise self.fail(node, "masks are expanded with one `:` per axis (`mask[:, None]`, `mask[None, :]`)")
            return Mask(tuple((moved(i), b) for i, b in v.conds))
        if isinstance(v, Tile):
            return expanded(v)
        if isinstance(v, Offset):
            # index arithmetic placed on more axes (`(rk // G)[:, None]`, `(rn[:, None] * 8 + j[None, :])[None, :, :]`,
            # `shifts[None, None, :]`): each term's index vector / computed tile moved alike
            terms = []
            for t in v.terms:
                if isinstance(t.index, Idx) and t.index.rank == len(alls):
                    terms.append(Term(t.stride, moved(t.index)))
                elif isinstance(t.index, Tile) and len(t.index.shape) == len(alls):
                    terms.append(Term(t.stride, expanded(t.index)))
                elif isinstance(t.index, str):
                    terms.append(t)
                else:
                    raise self.fail(node, "index arithmetic is expanded with one `:` per axis of its vectors")
            return Offset(tuple(terms))
        raise self.fail(node, f"cannot index {type(v).__name__}")

    def materialize(self, v: object, node: ast.AST) -> Tile:
        if isinstance(v, Tile):
            return v
        if isinstance(v, Idx):
            if v.wrap is not None:
                raise _Unwrap()
            text = f"ct.arange({v.size}, dtype=ct.int32)"
            if v.index != "0":
                text = f"{_paren(v.index)} * {_paren(v.size)} + {text}"
            shape = tuple(v.size if a == v.axis else "1" for a in range(v.rank))
            if v.rank != 1:
                text = f"ct.reshape({text}, {_tup(shape)})"
            return Tile(text, shape, "ct.int32")
        if isinstance(v, Offset):  # index arithmetic used as a value (a hash of the element offset, say)
            return self.offset_tile(v.terms, node)
        raise self.fail(node, f"a {type(v).__name__} cannot be used as a value here")

    def offset_tile(self, terms: tuple[Term, ...], node: ast.AST) -> Tile:
        """Σ index * stride over ``terms`` as one int32 tile."""
        parts, shapes = [], []
        for t in terms:
            idx = t.index if isinstance(t.index, Tile) else (
                self.materialize(t.index, node) if isinstance(t.index, Idx) else Tile(t.index, ()))
            if self.known_dtype(idx) == "ct.int64":
                # 64-bit offsets loaded from memory (token ids, labels): 32-bit indices of the view, exact for every
                # element of it (a view's extents are 32-bit); Triton reads past the tensor for others, as UB
                idx = Tile(f"ct.astype({idx.text}, ct.int32)", idx.shape, "ct.int32")
            elif self.known_dtype(idx) in NARROW_INT_INDEX:
                # an offset of 8 or 16 bits (`tl.arange(0, N).to(tl.int16)`): Triton extends it to address memory
                # (sign-extended; zero-extended unsigned), as ct.astype does; the offsets were that narrow tile, and
                # the translator takes int32 / int64 gather indices only ("ct.gather index that is not an i32/i64")
                idx = Tile(f"ct.astype({idx.text}, ct.int32)", idx.shape, "ct.int32")
            parts.append(idx.text if t.stride == "1" else f"{_paren(idx.text)} * {_paren(t.stride)}")
            shapes.append(idx.shape)
        return Tile(" + ".join(parts), _broadcast_all(shapes), "ct.int32")

    def binop(self, op: ast.operator, a: object, b: object, node: ast.AST) -> object:
        sym = BINOPS.get(type(op))
        if sym is None and isinstance(op, ast.Pow) and isinstance(a, Scalar) and isinstance(b, Scalar):
            # `2 ** i` of constexprs (a shape in a hand-written bitonic sort): the integer every launch gives
            vals = [self.launch_values(x.text) for x in (a, b)]
            if all(v is not None and all(isinstance(y, int) and not isinstance(y, bool) for y in v) for v in vals):
                powers = {x ** y for x, y in zip(*vals) if y >= 0}   # type: ignore[arg-type]
                if len(powers) == 1 and all(y >= 0 for y in vals[1]):   # type: ignore[union-attr]
                    return Scalar(str(powers.pop()))
            raise self.fail(node, f"`{ast.unparse(node)}`: `**` is lowered of integer constexprs whose power every "
                                  "captured launch agrees on")
        if sym is None:
            raise self.fail(node, f"operator {type(op).__name__} is not supported")
        if isinstance(a, Scalar) and isinstance(b, Scalar) and sym in ("//", "%"):
            return self._scalar_divmod(sym, a, b, node)
        if sym == "/" and isinstance(a, Scalar) and isinstance(b, Scalar) and not self.ieee_div and \
                (self.launch_values(a.text) is None or self.launch_values(b.text) is None) and \
                not any("float64" in x.text for x in (a, b)):
            # `1.0 / n`, `a / b` of run-time scalars (a size, a float argument, a loop index): Triton's 0-d f32
            # tensors (int / int converted first, semantic.truediv), divided by div.full.f32 as tiles are — the port
            # wrote Python's `/`, an IEEE quotient, an ulp apart, silently. A 0-d f32 tile of Triton's quotient
            return self.triton_div(a, b, ())
        if isinstance(a, Scalar) and isinstance(b, Scalar) and sym in ("&", "|") and isinstance(node, ast.BinOp) \
                and _boolean_ast(node.left) and _boolean_ast(node.right) and \
                any("ct.reshape(" in x.text for x in (a, b)):
            # `(hi - lo > eps) & (it < N)` of scalar comparisons, one of a loaded element (`ct.reshape(.., ())`,
            # which the translator takes in `and` / `or` only; a `while` test): Triton's i1 `and` / `or`, which
            # Python's `and` / `or` of the two truths is (neither side has an effect to skip)
            return Scalar(f"{_paren(a.text)} {'and' if sym == '&' else 'or'} {_paren(b.text)}")
        if isinstance(a, Scalar) and isinstance(b, Scalar):
            # `a * b` keeps its factors when one is a plain name (a block size or a stride, maybe): the other, any
            # scalar expression (`(pid_y * nx + pid_x) * BLOCK`), is then a tile index or the index of a stride
            names = [_plain(x.text) for x in (a, b)]
            if sym == "*":
                # `off_hz * HEAD_DIM * N_CTX`: the index times a product of parameters (one stride, not two)
                for x, y in ((a, b), (b, a)):
                    if x.factors and self._param_product(y.text):
                        for i in (0, 1):
                            if self._param_product(x.factors[i]) and not x.factors[i].isdigit() \
                                    and not self._param_product(x.factors[1 - i]):
                                return Scalar(f"{_paren(a.text)} {sym} {_paren(b.text)}",
                                              factors=(x.factors[1 - i], f"{x.factors[i]} * {_paren(y.text)}"))
            keep = sym == "*" and any(names)
            return Scalar(f"{_paren(a.text)} {sym} {_paren(b.text)}",
                          factors=(_paren(a.text) if not names[0] else a.text,
                                   _paren(b.text) if not names[1] else b.text) if keep else None)
        wide = self._wide_literal_arith(sym, a, b, node)
        if wide is not None:
            return wide
        if sym == "%" and isinstance(a, Idx) and isinstance(b, Scalar) and a.wrap is None and self.wraps \
                and self.launch_expr(b.text) and self.const_types.get(b.text, "int") == "int":
            # `offs = (pid * B + tl.arange(0, B)) % M`: the lanes in [0, M) are `pid * B + arange` itself; read as a
            # tile of a view of extent M when the others are provably unobservable (_junk_unobservable), else lowered
            # again computing the `%` (a gather)
            self.wrap_used = True
            return replace(a, wrap=b.text)
        if _wrapped(a) or _wrapped(b):
            other = b if _wrapped(a) else a
            if not ((sym == "*" and isinstance(other, Scalar)) or
                    (sym == "+" and isinstance(other, (Idx, Offset, Ptr)))):
                raise _Unwrap()
        # index arithmetic: pid * BLOCK + tl.arange(0, BLOCK)
        if sym == "+" and isinstance(b, Idx) and isinstance(a, Scalar):
            a, b = b, a
        if sym == "+" and isinstance(a, Idx) and isinstance(b, Scalar) and a.index == "0" and a.rank == 1 \
                and a.wrap is None:
            f = b.factors
            if f and a.size in f:
                return Idx(f[0] if f[1] == a.size else f[1], a.size)
            # `pid * BLOCK_N1 + tl.arange(0, BLOCK_M1)`, BLOCK_M1 | BLOCK_N1 (constants: the rule below)
            q = self._in_blocks(b, a.size) if self.launch_values(b.text) is None else None
            if q is not None:
                return Idx(q, a.size)
        # pointer arithmetic
        if isinstance(a, Ptr) and sym == "-" and isinstance(b, Scalar):
            # `flags + pid - 1` (the previous program's flag): the pointer plus the negated scalar
            return self.binop(ast.Add(), a, Scalar(f"-{_paren(b.text)}"), node)
        if isinstance(a, Ptr) and sym == "-" and isinstance(b, (Idx, Offset, Tile)):
            # `x + n - 1 - offs` (a row read backwards): the pointer plus the negated offsets, a tile of computed
            # element offsets (was "a Ptr cannot be used as a value here")
            t = self.materialize(b, node)
            return self.binop(ast.Add(), a, Tile(f"-{_paren(t.text)}", t.shape, t.dtype), node)
        if sym == "+" and isinstance(b, Ptr):
            a, b = b, a
        if isinstance(a, Ptr) and sym == "+":
            added = self.offset(b, node).terms
            if isinstance(b, Scalar) and any(isinstance(t.index, str) and t.stride == b.text for t in a.terms):
                added = (Term(b.text, "1"),)   # `p + row * 2 * d + d`: one more step of the stride d, not d elements
            self._fold_reach = None
            terms = self._folded(_merged(a.terms + added, self._run_quotient))
            if self._fold_reach is not None:
                self._unit_reach.setdefault(a.param, set()).add(self._fold_reach)
                self._fold_reach = None
            return Ptr(a.param, terms)
        if sym == "+" and isinstance(b, (Idx, Offset)) and isinstance(a, Scalar):
            a, b = b, a
        if sym == "+" and isinstance(a, (Idx, Offset)) and isinstance(b, Scalar):
            # offsets plus a whole number of their blocks (`first_half + HD // 2`): still a tile of a view
            terms = self.offset(a, node).terms + self.offset(b, node).terms
            folded = self._folded(terms)
            if len(folded) < len(terms):
                return Offset(folded)
            if all(t.stride != "1" for t in self.offset(b, node).terms):
                # `row * stride + cols` bound before it is added to a pointer (`x_ptr += row * stride + cols`,
                # `offs = ..; tl.load(x_ptr + offs)`): the terms, as `x_ptr + row * stride + cols` has them
                return Offset(terms)
        if isinstance(a, (Idx, Offset)) and sym == "+" and isinstance(b, (Idx, Offset)):
            return Offset(self.offset(a, node).terms + self.offset(b, node).terms)
        if sym == "*" and isinstance(b, Idx) and isinstance(a, Scalar):
            a, b = b, a
        if sym == "*" and isinstance(a, Idx) and isinstance(b, Scalar):
            return Offset((Term(b.text, a),))
        if sym == "&" and isinstance(a, Mask) and isinstance(b, Mask):
            return Mask(a.conds + b.conds)
        # values
        ta = a if isinstance(a, Scalar) else self.materialize(self._value(a, node), node)
        tb = b if isinstance(b, Scalar) else self.materialize(self._value(b, node), node)
        if sym in ("+", "-", "*", "/", "//", "%") and isinstance(ta, Tile) and isinstance(tb, Tile):
            # an integer tile with a float one (`relu6 * tl.where(x > 0, 1, -1)`): Triton computes in the float
            # dtype; the integer tile converted to it first (the translator takes no mixed-dtype arithmetic)
            kinds = (self.known_dtype(ta), self.known_dtype(tb))
            if kinds[0] in FLOAT_DTYPES and kinds[1] in INT_DTYPES:
                tb = Tile(f"ct.astype({tb.text}, {kinds[0]})", tb.shape, kinds[0])
            elif kinds[1] in FLOAT_DTYPES and kinds[0] in INT_DTYPES:
                ta = Tile(f"ct.astype({ta.text}, {kinds[1]})", ta.shape, kinds[1])
        if sym in ("+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>"):
            # integers of mixed signedness (`bits + r`, r a tl.randint's uint32): Triton's promotion, written out
            # (cuTile Python refuses it implicitly)
            ta, tb = self._signedness_promoted(ta, tb)
        if sym in ("+", "-", "*", "%"):
            ta, tb = self._promoted_pair(ta, tb)   # (`x_i32 + 1.5`: f32, as Triton computes it)
        for lit, t in ((ta, tb), (tb, ta)):
            if isinstance(lit, Scalar) and re.fullmatch(r"-\d+", lit.text) and isinstance(t, Tile) \
                    and (self.known_dtype(t) or "").startswith("ct.uint"):
                raise self.fail(node, f"{lit.text} with an unsigned tile: Triton refuses a binary operation between "
                                      "an unsigned tensor and a negative scalar (cast one of them)")
        shape = _broadcast(getattr(ta, "shape", ()), getattr(tb, "shape", ()))
        dtypes = {x.dtype for x in (ta, tb) if isinstance(x, Tile)}
        if len(dtypes) > 1:   # `x_ptr.dtype` and `y_ptr.dtype` are one type when every launch passes one
            dtypes = {self.known_dtype(x) for x in (ta, tb) if isinstance(x, Tile)}
        if len(dtypes) > 1 and dtypes <= {F32, "ct.float16", "ct.bfloat16", "ct.float64"}:
            # floats of two widths: the wider (f16 with bf16: f32), as Triton and cuTile promote them
            dtypes = {"ct.float64"} if "ct.float64" in dtypes else {F32}
        dtype = dtypes.pop() if len(dtypes) == 1 else None
        if sym in ("&", "|", "^") and set(BOOL) & {getattr(x, "dtype", None) for x in (ta, tb)}:
            dtype = "bool"
        if sym == "/" and (isinstance(ta, Tile) or isinstance(tb, Tile)) and \
                all(isinstance(x, Scalar) or set() < self._launch_dtypes(x) <= DIVIDED_IN_F32 | INTS_DIVIDED_IN_F32
                    for x in (ta, tb)) and \
                not any(isinstance(x, Scalar) and x.text.startswith("ct.astype(") and "ct.float64" in x.text
                        for x in (ta, tb)):
            # Triton divides f32, f16 and bf16 in f32 (a 16-bit quotient is f32: its computation_type_impl) at
            # every launch, whatever the mix: the 16-bit operands converted, then Triton's div.full.f32. Integer
            # operands too: semantic.truediv converts int / int to f32 / f32 (int / float to the float) before its
            # fdiv — `a / b` of int32 tiles, `x / 3` — so Triton's quotient is div.full.f32 of the converted values
            # (the port divided them IEEE, an ulp apart, silently)
            ta, tb = (x if isinstance(x, Scalar) or self.known_dtype(x) == F32 else
                      Tile(f"ct.astype({x.text}, {F32})", x.shape, F32) for x in (ta, tb))
            if not self.ieee_div:
                return self.triton_div(ta, tb, shape)
            return Tile(f"{_paren(ta.text)} / {_paren(tb.text)}", shape, F32)
        kinds = {self.known_dtype(x) for x in (ta, tb) if isinstance(x, Tile)}
        if sym in ("//", "%") and len(kinds) == 1 and kinds <= {"ct.uint8", "ct.uint16", "ct.uint32"}:
            # unsigned: through int64, where floor and truncation agree (cuTile Python 1.7 emits `divi` rounding to
            # -inf with the unsigned flag, which tileiras 13.4 rejects: "rounding mode 'negative_inf' is not allowed
            # with 'unsigned' flag"; the translator ports `%` of i32 / i64 tiles only)
            a64, b64 = (f"ct.astype({x.text}, ct.int64)" if isinstance(x, Tile) else _paren(x.text) for x in (ta, tb))
            return Tile(f"ct.astype({a64} {sym} {b64}, {next(iter(kinds))})", shape, dtype)
        if sym == "%" and any(isinstance(x, Tile) and self.known_dtype(x) in FLOAT_DTYPES for x in (ta, tb)):
            return self._fmod(ta, tb, shape, dtype)
        if sym in ("//", "%") and not self._floor_is_trunc(a, b, ta, tb):
            return self._truncating(sym, ta, tb, shape, dtype)
        return Tile(f"{_paren(ta.text)} {sym} {_paren(tb.text)}", shape, dtype)

    def _wide_literal_arith(self, sym: str, a: object, b: object, node: ast.AST) -> Tile | None:
        """``offs * 2654435761`` (a multiplicative hash): Triton types an integer literal in [2^31, 2^32) as uint32
        (int64 up to 2^63) and promotes an int32 tile with it to uint32, wrapping; cuTile Python (and cutile 0.3.1)
        take no integer literal beyond int32. So the tile is converted to uint32 (int64 / uint64 tiles stay) and the
        literal split as tl.rand's constants are: a product in 16-bit halves (``((t * hi) << 16) + t * lo``), a sum
        or difference in two halves. An operand of ``&`` / ``|`` / ``^`` with a uint32 tile (``bits ^ 0x80000000``: a
        sign bit flipped): the literal's low 31 bits as a literal, its top bit by arithmetic — adding 2^31 (in two
        halves) flips it, ``(y >> 31) << 31`` keeps it, ``((y << 1) >> 1)`` clears it (a 0-d constant tile of the
        literal would be folded by cuTile Python and not by the port). Exact modulo 2^32 (2^64). None when neither
        operand is such a literal."""
        if sym not in ("+", "-", "*", "&", "|", "^"):
            return None

        def wide(v: object) -> int | None:
            if not isinstance(v, Scalar) or not v.text.isdigit():
                return None
            c = int(v.text)
            return c if c >= 2 ** 31 else None

        ca, cb = wide(a), wide(b)
        if (ca is None) == (cb is None):
            return None
        c, other, lit_first = (ca, b, True) if ca is not None else (cb, a, False)
        if isinstance(other, Scalar):
            return None
        t = self.materialize(self._value(other, node), node)
        kind = self.known_dtype(t)
        if kind not in INT_DTYPES + ("ct.uint16", "ct.uint64"):
            raise self.fail(node, f"integer literal {c} with a tile not known to be of integers")
        target = kind if kind in ("ct.int64", "ct.uint64") else "ct.uint32"
        if c >= (2 ** 32 if target == "ct.uint32" else 2 ** 63) or (sym == "*" and c >> 16 >= 2 ** 31):
            raise self.fail(node, f"integer literal {c}: too wide for a {target} product written in halves")
        x = t if kind == target else Tile(f"ct.astype({t.text}, {target})", t.shape, target)
        x = self._named(x, "wide")
        half, rest = hex(c >> 1), hex(c - (c >> 1))
        if sym in ("&", "|", "^") and target != "ct.uint32":
            raise self.fail(node, f"integer literal {c} in `{sym}` with a 64-bit tile (a uint32 tile's is lowered)")
        if sym in ("&", "|", "^"):
            low = c & 0x7FFFFFFF
            y = f"({x.text} {sym} {hex(low)})"   # c >= 2^31: its top bit is set
            if sym == "^":
                text = f"({y} + 0x40000000 + 0x40000000)"
            elif sym == "|":
                text = f"(((({y} << 1) >> 1) + 0x40000000) + 0x40000000)"
            else:
                text = f"({y} | (({x.text} >> 31) << 31))"
        elif sym == "*":
            text = f"((({x.text} * {hex(c >> 16)}) << 16) + {x.text} * {hex(c & 0xFFFF)})"
        elif sym == "+":
            text = f"({x.text} + {half} + {rest})"
        elif lit_first:   # c - t
            text = f"({half} - {x.text} + {rest})"
        else:
            text = f"({x.text} - {half} - {rest})"
        self.notes.append(f"line {getattr(node, 'lineno', 0)}: integer literal {c} (Triton's "
                          f"{'uint32' if target == 'ct.uint32' else 'wide'} constant) written in halves")
        return Tile(text, x.shape, target)

    def _scalar_divmod(self, sym: str, a: Scalar, b: Scalar, node: ast.AST) -> Scalar:
        """Scalar `a // b` / `a % b`. Triton folds constexpr operands in Python (floor division) but divides runtime
        integers as C does (toward zero, the remainder with the dividend's sign); cuTile Python's scalar `//` is
        Python's. The two agree when neither operand can be negative (program ids, loop counters from >= 0, sizes,
        constexprs >= 0: `_lower_bound`) and on floats; for a dividend that may be negative over a divisor that
        cannot, C's is written `-((-a) // b) if a < 0 else a // b` (the remainder likewise); a divisor that may
        be negative is refused."""
        plain = Scalar(f"{_paren(a.text)} {sym} {_paren(b.text)}")
        if self.launch_values(a.text) is not None and self.launch_values(b.text) is not None:
            return plain   # constexprs: Python's, at compile time, as Triton folds them
        if sym == "%" and (self._scalar_is_float(a.text) or self._scalar_is_float(b.text)):
            # runtime floats: Triton's frem (C's fmod), as for tiles (`_fmod`), on f32 tiles of the operands
            # (Python's `%` takes the divisor's sign; the translator ports no scalar float `%`)
            # (a 1-element one: the translator takes a 0-d tile's `%` for a scalar's, which it ports for integers)
            ta, tb = (Tile(f"ct.full((1,), {v.text}, dtype={F32})", ("1",), F32) for v in (a, b))
            return self._fmod(ta, tb, ("1",), F32)
        if self._scalar_is_float(a.text) or self._scalar_is_float(b.text):
            return plain
        la, lb = self._lower_bound(a.text), self._lower_bound(b.text)
        a_nonneg, b_nonneg = la is not None and la >= 0, lb is not None and lb >= 0
        if a_nonneg and b_nonneg:
            return plain
        # names for the operands (each is read up to four times), then Triton's: the floor result moved by one
        # where the remainder is not 0 and the signs differ
        x, y = (self._scalar_named(v, hint) for v, hint in ((a, "dividend"), (b, "divisor")))
        q, r = f"{x} {sym} {y}", f"{x} % {y}"
        differ = f"{x} < 0" if b_nonneg else f"{y} < 0" if a_nonneg else f"({x} ^ {y}) < 0"
        moved = f"({q}) + 1" if sym == "//" else f"({q}) - {y}"
        self.notes.append(f"line {getattr(node, 'lineno', 0)}: scalar `{sym}` whose operands may be negative: "
                          "Triton's (toward zero), written with cuTile's floor division")
        # bound to a name where the Triton code computes it: a use inside a loop then reads the name (cuTile
        # Python would hoist the pure arithmetic out of the loop, but not the `if`s of the conditional expression)
        return Scalar(self._scalar_named(Scalar(f"((({moved}) if {differ} else ({q})) if ({r}) != 0 else ({q}))"),
                                         "quotient" if sym == "//" else "remainder"))

    @contextlib.contextmanager
    def _constexpr_arm(self, cond: str, truths: list[bool], taken: bool) -> Iterator[None]:
        """Lowering one arm (``taken``) of an `if` on constexprs the launches decide differently (``truths``: the
        test at each launch): only the launches taking it are known (their constexpr values and positions), and the
        arm is on ``_arm_stack``; all as before afterwards."""
        saved_consts, saved_ids = self.const_values, self._launch_ids
        self.const_values = {n: [v for v, t in zip(vals, truths) if t == taken] for n, vals in saved_consts.items()}
        self._launch_ids = [i for i, t in zip(saved_ids, truths) if t == taken]
        self._arm_stack.append((cond, taken))
        try:
            yield
        except LoweringError as exc:   # refused in this arm: only the launches reaching it (innermost arm's)
            if getattr(exc, "launch_ids", None) is None:
                exc.launch_ids = frozenset(self._launch_ids)
            raise
        finally:
            self._arm_stack.pop()
            self.const_values, self._launch_ids = saved_consts, saved_ids

    def _constexpr_ifexp(self, node: ast.IfExp, truths: list[bool]) -> object:
        """``tl.abs(x) if USE_ABS else x`` (``x.to(tl.float32) if UPCAST else x``) on constexprs the launches decide
        differently: ``if USE_ABS: sel = ..  else: sel = ..`` (cuTile folds it per specialization), each arm lowered
        knowing only the launches that take it, as for an `if` statement (constexpr_branch). The arms must give
        tiles of one dtype and shape, or scalars."""
        cond = self.ev(node.test)
        if not isinstance(cond, Scalar):
            raise self.fail(node.test, f"`{ast.unparse(node.test)}`: a test on constexprs must be a scalar expression")
        self._temps = getattr(self, "_temps", 0) + 1
        out = f"{self.prefix}sel{self._temps}"
        vals: list[object] = []
        self.emit(f"if {cond.text}:")
        for arm, taken in ((node.body, True), (node.orelse, False)):
            if not taken:
                self.emit("else:")
            self.indent += 1
            try:
                with self._constexpr_arm(cond.text, truths, taken):
                    v = self.ev(arm)
                    if isinstance(v, Mask):
                        v = self.mask_tile(v, node)
                    if not isinstance(v, (Tile, Scalar)):
                        raise self.fail(arm, f"`{ast.unparse(node)}`: an arm that is not a tile or a scalar (a "
                                             "pointer, an index vector) under a test the launches decide "
                                             "differently: not lowered (use an `if` statement)")
                    self.emit(f"{out} = {v.text}")
            finally:
                self.indent -= 1
            vals.append(v)
        a, b = vals
        if isinstance(a, Scalar) and isinstance(b, Scalar):
            return Scalar(out)
        if isinstance(a, Tile) and isinstance(b, Tile) and tuple(a.shape) == tuple(b.shape) and \
                self.known_dtype(a) is not None and self.known_dtype(a) == self.known_dtype(b):
            return Tile(out, a.shape, a.dtype)
        raise self.fail(node, f"`{ast.unparse(node)}`: its arms are of different shapes or dtypes under a test the "
                              "launches decide differently: not lowered (capture each value's launches apart)")

    def _scalar_named(self, v: Scalar, hint: str) -> str:
        """A plain name or literal for a scalar operand (else bound to a fresh name first)."""
        if _plain(v.text) or v.text.lstrip("-").isdigit():
            return v.text
        self._temps = getattr(self, "_temps", 0) + 1
        name = f"{self.prefix}{hint}{self._temps}"
        self.emit(f"{name} = {v.text}")
        return name

    def _scalar_is_float(self, text: str) -> bool:
        """Whether a scalar expression has a float operand (a float literal, a float parameter, `float(..)`)."""
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            return False
        for n in walk_nodes(tree):
            if isinstance(n, ast.Constant) and isinstance(n.value, float):
                return True
            if isinstance(n, ast.Name) and (self.const_types.get(n.id) == "float" or n.id == "float"):
                return True
            if isinstance(n, ast.Name) and n.id not in self.kinds:
                values = self._assignments(n.id)
                if values and any(self._scalar_is_float(v) for v in values if not _mentions(v, n.id)):
                    return True
        return False

    def _lower_bound(self, text: str, assumed: frozenset = frozenset()) -> int | None:
        """A lower bound of an integer scalar expression of the lowered kernel at every launch, None when none is
        known: literals and constexprs (their least captured value), size parameters (>= 0: docs/triton.md),
        `ct.bid` / `ct.num_blocks` (>= 0), loop indices of a `range` counting up from a bounded start, names the
        kernel assigns (the least over every value assigned; a name read while its own values are checked is taken
        >= 0, which those values must then keep), sums, products and quotients of non-negative terms."""
        vals = self.launch_values(text)
        if vals is not None:
            return min(vals) if vals and all(isinstance(v, int) and not isinstance(v, bool) for v in vals) else None
        try:
            tree = ast.parse(text, mode="eval").body
        except SyntaxError:
            return None

        def lb(n: ast.expr) -> int | None:
            if isinstance(n, ast.Constant):
                return n.value if isinstance(n.value, int) and not isinstance(n.value, bool) else None
            if isinstance(n, ast.Name):
                if n.id in assumed:
                    return 0
                if self.kinds.get(n.id) == "scalar":   # a size (>= 0), unless a launch passed it negative
                    return 0 if self.const_types.get(n.id, "int") == "int" and n.id not in self.negative_scalars \
                        else None
                if self.kinds.get(n.id) == "constant":
                    return self._lower_bound(n.id)
                return self._name_lower_bound(n.id, assumed)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    ast.unparse(n.func) in ("ct.bid", "ct.num_blocks"):
                return 0
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and ast.unparse(n.func) == "ct.cdiv" \
                    and all((v := lb(x)) is not None and v >= 0 for x in n.args):
                return 0
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("min", "max") and n.args:
                bs = [lb(x) for x in n.args]
                if n.func.id == "min":
                    return None if any(x is None for x in bs) else min(bs)  # type: ignore[type-var]
                known = [x for x in bs if x is not None]
                return max(known) if known else None
            if isinstance(n, ast.IfExp):
                x, y = lb(n.body), lb(n.orelse)
                return None if x is None or y is None else min(x, y)
            if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant) \
                    and type(n.operand.value) is int:
                return -n.operand.value   # (`pid + -1`: a negative literal's own value)
            if isinstance(n, ast.BinOp):
                x = lb(n.left)
                if isinstance(n.op, ast.Sub):
                    hi = self.launch_values(ast.unparse(n.right))
                    if x is None or not hi or not all(isinstance(v, int) for v in hi):
                        return None
                    return x - max(hi)
                y = lb(n.right)
                if x is None or y is None:
                    return None
                if isinstance(n.op, ast.Add):
                    return x + y
                if x < 0 or y < 0:
                    return None
                if isinstance(n.op, ast.Mult):
                    return x * y
                if isinstance(n.op, (ast.FloorDiv, ast.Mod, ast.RShift, ast.BitAnd)):
                    return 0
            return None
        return lb(tree)

    def _name_lower_bound(self, name: str, assumed: frozenset) -> int | None:
        import re

        for line in self.lines:
            m = re.match(rf"^\s*for {re.escape(name)} in range\((.*)\):$", line)
            if m:
                try:
                    args = ast.parse(f"f({m.group(1)})", mode="eval").body.args  # type: ignore[attr-defined]
                except SyntaxError:
                    return None
                if len(args) == 1:
                    return 0
                step = self._lower_bound(ast.unparse(args[2])) if len(args) > 2 else 1
                if step is None or step < 1:
                    return None
                return self._lower_bound(ast.unparse(args[0]), assumed | {name})
        values = self._assignments(name)
        if not values:
            return None
        bounds = [self._lower_bound(v, assumed | {name}) for v in values]
        return None if any(x is None for x in bounds) else min(bounds)  # type: ignore[type-var]

    def _above_zero(self, v: object) -> bool | None:
        """Whether scalar ``v`` is a literal or constexpr expression > 0 at every captured launch (None: unknown)."""
        if not isinstance(v, Scalar):
            return None
        vals = self.launch_values(v.text)
        if vals is None or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vals):
            return None
        return all(x > 0 for x in vals)

    def _floor_is_trunc(self, a: object, b: object, ta: object, tb: object) -> bool:
        """Whether cuTile's integer `//` and `%` (floor division, Python's) give what Triton's give (C's: the
        quotient truncated toward zero, the remainder with the dividend's sign) on these operands: on floats, on
        unsigned tiles, and on a dividend that is index arithmetic (`tl.arange` offsets, program ids: >= 0) over a
        divisor > 0 at every launch or a runtime size argument (the sizes of a launch are >= 0: docs/triton.md).
        Scalars (program ids, loop counters, sizes) keep Python's operators."""
        if not any(isinstance(x, Tile) for x in (ta, tb)):
            return True
        dts = {self.known_dtype(x) for x in (ta, tb) if isinstance(x, Tile)}
        if not dts & {"ct.int8", "ct.int16", "ct.int32", "ct.int64", None}:   # floats, unsigned integers
            return True
        if isinstance(a, (Idx, Offset)) and isinstance(b, Scalar):
            if self._above_zero(b) is None and self._names_negative(b.text):
                return False   # (a runtime divisor a captured launch passed negative: no size)
            if self._index_below_zero(a):
                return False   # (`(-1 + rows) % 5`: index arithmetic below 0 in some lanes)
            return self._above_zero(b) is not False
        return False

    def _names_negative(self, text: str) -> bool:
        """Whether ``text`` reads an integer scalar parameter a captured launch passed negative."""
        return bool(self.negative_scalars) and any(
            isinstance(n, ast.Name) and n.id in self.negative_scalars for n in ast.walk(ast.parse(text, mode="eval")))

    def _index_below_zero(self, v: object) -> bool:
        """Whether index arithmetic may be below 0 in some lane by what is known of it: a run (an arange) from a
        block index whose lower bound (`_lower_bound`) is negative — `(pid + -1) * BM + arange`, which
        `-1 + rows[:, None]` becomes at BM = 1 — or a term of such an index or a negative scalar. Its `%` was
        cuTile's floor remainder as written (4 where Triton's C remainder is -1, silently: round 26's fuzzer).
        Index arithmetic of no known bound keeps being taken >= 0 (program ids, names they make)."""
        def below(text: str) -> bool:
            low = self._lower_bound(text)
            return low is not None and low < 0
        if isinstance(v, Idx):
            return below(v.index)
        if isinstance(v, Offset):
            return any(below(t.stride) or (self._index_below_zero(t.index) if isinstance(t.index, Idx) else
                                           below(t.index) if isinstance(t.index, str) else False)
                       for t in v.terms)
        return False

    def _promoted_pair(self, ta: object, tb: object) -> tuple[object, object]:
        """Operands of a binary operation, comparison, `tl.where` or `tl.maximum` as Triton promotes them where
        cuTile Python takes no implicit promotion: an integer tile with a float scalar (`x > 2.5`, `x + 1.5`,
        `tl.where(c, i, 0.5)`) converted to f32 (Triton's computation type of an integer tensor and a float is
        fp32; the port did not build: "expected `Tile<i32>`, found `Tile<{float}>`"), and integer tiles of mixed
        signedness converted to the type `integer_promote_impl` gives them (`tl.minimum(x_i32, u_u32)` is an
        unsigned minimum: cuTile Python refused the pair)."""
        ints = INT_DTYPES + ("ct.uint16", "ct.uint64")
        for k, (t, o) in enumerate(((ta, tb), (tb, ta))):
            if isinstance(t, Tile) and isinstance(o, Scalar) and self.known_dtype(t) in ints \
                    and self._float_scalar(o):
                t = Tile(f"ct.astype({t.text}, {F32})", t.shape, F32)
                return (t, o) if k == 0 else (o, t)
        return self._signedness_promoted(ta, tb)

    def _signedness_promoted(self, ta: object, tb: object) -> tuple[object, object]:
        """Two integer tiles of mixed signedness converted to the type Triton's `integer_promote_impl` gives the
        pair (`_int_promoted`); anything else as it is."""
        if isinstance(ta, Tile) and isinstance(tb, Tile):
            target = _int_promoted(self.known_dtype(ta), self.known_dtype(tb))
            if target is not None:
                ta, tb = (x if self.known_dtype(x) == target else Tile(f"ct.astype({x.text}, {target})", x.shape,
                                                                        target) for x in (ta, tb))
        return ta, tb

    def _fmod(self, ta: object, tb: object, shape: tuple[str, ...], dtype: str | None) -> Tile:
        """Triton's float `a % b` (`frem`: C's fmod, the remainder with the dividend's sign; its interpreter's
        np.fmod) in cuTile's float `%` (Python's, the divisor's sign): the magnitudes' remainder, which both define
        alike (no sign differs, so cuTile corrects nothing: exact), given a's sign. (A dividend of -0.0 gives +0.0
        where fmod gives -0.0: equal as numbers.) It was cuTile's `%` as written: x % 2pi of a negative x came out
        in [0, 2pi) where Triton's is in (-2pi, 0], silently."""
        ta = self._named(ta, "dividend") if isinstance(ta, Tile) else ta
        a_, b_ = _paren(ta.text), _paren(tb.text)   # type: ignore[attr-defined]
        if isinstance(tb, Tile):
            div = f"ct.abs({b_})"
        else:   # a literal's magnitude; a runtime scalar's by max (cutile 0.3.1 negates no scalar variable)
            try:
                div = repr(abs(float(ast.literal_eval(tb.text))))   # type: ignore[attr-defined]
            except (ValueError, SyntaxError, TypeError):
                div = f"max({b_}, 0.0 - {b_})"
        a_abs = f"ct.abs({a_})" if isinstance(ta, Tile) else f"max({a_}, 0.0 - {a_})"
        mag = Tile(f"{a_abs} % {_paren(div)}", shape, dtype)
        mag = self._named(mag, "remainder")
        return Tile(f"ct.where({a_} < 0, -{mag.text}, {mag.text})", shape, dtype)

    def _truncating(self, sym: str, ta: object, tb: object, shape: tuple[str, ...], dtype: str | None) -> Tile:
        """Triton's integer `a // b` / `a % b` (C's truncating division) in cuTile's floor division: where the
        remainder is not 0 and the signs differ, the quotient is one more and the remainder is `m - b`."""
        if isinstance(tb, Scalar) and re.fullmatch(r"\(?-\d+\)?", tb.text) and isinstance(ta, Tile):
            # a negative literal divisor (`x // -3`): C's quotient is minus the one by 3, its remainder the one by 3
            # (cutile 0.3.1 could not type `(-3) < 0`: "Failed to infer type for unary op expr")
            pos = self._truncating(sym, ta, Scalar(tb.text.strip("()").lstrip("-")), shape, dtype)
            return Tile(f"-{_paren(pos.text)}", shape, dtype) if sym == "//" else pos
        ta, tb = (self._named(t, "divisor" if t is tb else "dividend") if isinstance(t, Tile) else t
                  for t in (ta, tb))
        a_, b_ = _paren(ta.text), _paren(tb.text)   # type: ignore[attr-defined]
        # a divisor > 0 at every launch, or a scalar >= 0 by its form (a size argument: `slot // block_size`;
        # a zero divisor is undefined in Triton too): the signs differ where the dividend is negative
        low = self._lower_bound(tb.text) if isinstance(tb, Scalar) else None
        nonneg = self._above_zero(tb) or (low is not None and low >= 0)
        if nonneg:
            signs = f"({a_} < 0)"
        elif isinstance(tb, Scalar) and isinstance(ta, Tile):
            # a scalar divisor of either sign (a constexpr launched -3 and 8, a runtime argument): the signs differ
            # where the xor's sign bit is set — `(a < 0) != (D < 0)` compared a tile with a scalar bool, which cutile
            # 0.3.1 does not type ("binary `Ne` requires operands of the same type"): the port failed to build
            signs = f"(({a_} ^ {b_}) < 0)"
        else:
            signs = f"(({a_} < 0) != ({b_} < 0))"
        fix = f"(({a_} % {b_}) != 0) & {signs}"
        if sym == "//":
            return Tile(f"ct.where({fix}, ({a_} // {b_}) + 1, {a_} // {b_})", shape, dtype)
        return Tile(f"ct.where({fix}, ({a_} % {b_}) - {b_}, {a_} % {b_})", shape, dtype)

    def _in_blocks(self, v: Scalar, blk: str) -> str | None:
        """``v / blk`` as an exact expression when ``v`` is a whole number of blocks of ``blk`` at every captured
        launch by its form: a sum of terms each `x * C` / `C` with C a literal or constexpr expression that is a
        multiple of blk at every launch (`start_m * BLOCK_M`, `pid_n * BLOCK_N + BLOCK_N // 2`); None otherwise."""
        if v.text == "0":
            return "0"
        if v.factors and blk in v.factors:
            return v.factors[0] if v.factors[1] == blk else v.factors[1]
        bvals = self.launch_values(blk)
        if not bvals or not all(isinstance(b, int) and b > 0 for b in bvals):
            return None
        try:
            tree = ast.parse(v.text, mode="eval").body
        except SyntaxError:
            return None

        def multiple(n: ast.expr) -> str | None:   # n / blk for a constant n, when exact at every launch
            vals = self.launch_values(ast.unparse(n))
            if not vals or not all(isinstance(x, int) and not isinstance(x, bool) and x % b == 0
                                   for x, b in zip(vals, bvals)):
                return None
            if ast.unparse(n) == blk:
                return "1"
            if isinstance(n, ast.Constant) and blk.isdigit():
                return str(n.value // int(blk))
            return f"({ast.unparse(n)} // {_paren(blk)})"

        def factors(n: ast.expr) -> list[ast.expr]:
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
                return factors(n.left) + factors(n.right)
            return [n]

        def div(n: ast.expr) -> str | None:
            q = multiple(n)
            if q is not None:
                return q
            if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub)):
                a, b = div(n.left), div(n.right)
                if a is None or b is None:
                    return None
                return f"{a} {'+' if isinstance(n.op, ast.Add) else '-'} {_paren(b)}"
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
                for x, c in ((n.left, n.right), (n.right, n.left)):
                    q = multiple(c)
                    if q is not None:
                        return _paren(ast.unparse(x)) if q == "1" else f"{_paren(ast.unparse(x))} * {_paren(q)}"
                # `pid * 2 * BLOCK` against a block of `2 * BLOCK`: the constant factors of the product together
                fs = factors(n)
                static = [f for f in fs if self.launch_values(ast.unparse(f)) is not None]
                dynamic = [f for f in fs if self.launch_values(ast.unparse(f)) is None]
                if static and dynamic and len(static) > 1:
                    q = multiple(ast.parse(" * ".join(_paren(ast.unparse(f)) for f in static), mode="eval").body)
                    if q is not None:
                        rest = " * ".join(_paren(ast.unparse(f)) for f in dynamic)
                        return rest if q == "1" else f"{_paren(rest)} * {_paren(q)}"
            if isinstance(n, ast.Name) and n.id not in self.kinds and self._assignments(n.id) \
                    and (n.id, blk) not in self.not_whole_blocks:
                # a variable of the lowered kernel (`offs_am`, re-assigned `pid_m * BLOCK_M` in a loop): whole
                # blocks if every value it is ever assigned is; claimed now, checked at the end (run())
                self._block_claims.add((n.id, blk))
                return f"({n.id} // {_paren(blk)})"
            return None
        return div(tree)

    def _stride_terms(self, text: str) -> tuple[Term, ...] | None:
        """``a * s + b * t`` (two or more terms, each an index times a stride parameter or product of parameters)
        as one term per stride; None for any other form."""
        try:
            tree = ast.parse(text, mode="eval").body
        except SyntaxError:
            return None
        parts: list[ast.expr] = []

        def flatten(n: ast.expr) -> None:
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
                flatten(n.left)
                flatten(n.right)
            else:
                parts.append(n)
        flatten(tree)
        if len(parts) < 2:
            return None
        terms = []
        for n in parts:
            if not (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult)):
                return None
            a, b = ast.unparse(n.left), ast.unparse(n.right)
            if self._param_product(b) and not self._param_product(a):
                terms.append(Term(b, a))
            elif self._param_product(a) and not self._param_product(b):
                terms.append(Term(a, b))
            else:
                return None
        return tuple(terms)

    def _param_product(self, text: str) -> bool:
        """``text`` is a product of scalar/constexpr parameters and integer literals (a stride: `HEAD_DIM * N_CTX`)."""
        try:
            tree = ast.parse(text, mode="eval").body
        except SyntaxError:
            return False

        def ok(n: ast.expr) -> bool:
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
                return ok(n.left) and ok(n.right)
            if isinstance(n, ast.Constant):
                return isinstance(n.value, int) and not isinstance(n.value, bool)
            return isinstance(n, ast.Name) and self.kinds.get(n.id) in ("scalar", "constant") \
                and self.const_types.get(n.id, "int") == "int"
        return ok(tree)

    def launch_values(self, text: str) -> list | None:
        """The value of ``text`` (literals, constexprs, module constants) at each captured launch; None when it
        depends on anything else."""
        try:
            tree = ast.parse(text, mode="eval").body
        except SyntaxError:
            return None
        names = list(self.const_values)
        count = len(next(iter(self.const_values.values()))) if names else 1
        try:
            return [self._static(tree, {n: self.const_values[n][i] for n in names}) for i in range(count)]
        except (_NotStatic, TypeError, ZeroDivisionError):
            pass
        # emitted text names the kernel's own constexprs (`BLOCK_M1 // BLK_SLICE_FACTOR` inside a helper whose
        # parameter BLOCK_M1 is bound to it): evaluated at the kernel's scope
        consts = {k: v for k, v in self.k.globals.items() if isinstance(v, (int, float, bool, str))}
        try:
            return [self._static_text(text, consts | {n: self.const_values[n][i] for n in names})
                    for i in range(count)]
        except (_NotStatic, TypeError, ZeroDivisionError):
            return None

    def _run_quotient(self, index: str, stride: str, size: str) -> str | None:
        """The tile index of ``index * stride`` in runs of ``size`` when size is r times the constexpr stride at
        every launch (one r > 1) and index a whole number of r by its form (``pid * 2``): ``pid``."""
        r = self._whole_blocks(size, stride)
        if r is None or r < 2:
            return None
        return self._in_blocks(Scalar(index), str(r))

    def _whole_blocks(self, offset: str, block: str) -> int | None:
        """k when ``offset`` is k times ``block`` at every captured launch (one k for all), else None."""
        off, blk = self.launch_values(offset), self.launch_values(block)
        if not off or not blk or not all(isinstance(x, int) and isinstance(y, int) and y > 0 and x % y == 0
                                         for x, y in zip(off, blk)):
            return None
        ks = {x // y for x, y in zip(off, blk)}
        return ks.pop() if len(ks) == 1 else None

    def _folded(self, terms: tuple[Term, ...]) -> tuple[Term, ...]:
        """``terms`` with a constant element offset that is a whole number k of a unit-stride run's blocks at every
        launch moved into that run's tile index (``base + HD // 2 + tl.arange(0, HD // 2)``: block 1)."""
        runs = [k for k, t in enumerate(terms) if isinstance(t.index, Idx) and t.stride == "1"]
        if any(terms[k].index.wrap is not None for k in runs):  # type: ignore[union-attr]
            return terms
        for j, t in enumerate(terms):
            if not (isinstance(t.index, str) and t.stride == "1") or len(runs) != 1:
                continue
            run = terms[runs[0]]
            k = self._whole_blocks(t.index, run.index.size)  # type: ignore[union-attr]
            if k is None:
                continue
            rows = self._offset_in_rows(terms, j, runs[0], k)
            if rows is not None:
                return rows
            idx = run.index
            moved = str(k) if idx.index == "0" else f"{_paren(idx.index)} + {k}"  # type: ignore[union-attr]
            out = list(terms)
            out[runs[0]] = Term("1", replace(idx, index=moved))  # type: ignore[type-var]
            del out[j]
            return tuple(out)
        return terms

    def _offset_in_rows(self, terms: tuple[Term, ...], j: int, unit: int, k: int) -> tuple[Term, ...] | None:
        """``terms`` with the constant element offset ``terms[j]`` (k blocks of the unit-stride run ``terms[unit]``)
        moved onto a run of a larger stride when the pointer has one, the outermost of its terms (``y + R * C +
        r[:, None] * C + c[None, :]``: R * C is row block 1 of the stride-C run, not column block R of a row C long
        — the view's row extent is the tensor's, so that tile lay past it and the store was dropped, silently; the
        outermost dimension's extent is what the tensor leaves, another one's a tensor dimension's, which the
        blocks may pass); the terms unchanged (so the
        offset is folded into the unit run) when the k blocks stay inside one row of every such run at every
        launch (or its stride is a runtime value); else ``terms`` with nothing folded (the access lowers as a gather
        / scatter, exact)."""
        others = [o for o, t in enumerate(terms) if isinstance(t.index, Idx) and t.stride != "1"]
        if not others:
            return None
        run = terms[unit].index
        for o in others:
            other = terms[o]
            q = self._whole_blocks(terms[j].index, f"({other.stride}) * ({other.index.size})")  # type: ignore
            if q is None or other.index.wrap is not None or \
                    not self._outermost(other.stride, [u.stride for u in terms]):  # type: ignore[union-attr]
                continue
            idx = other.index
            moved = str(q) if idx.index == "0" else f"{_paren(idx.index)} + {q}"  # type: ignore[union-attr]
            out = list(terms)
            out[o] = Term(other.stride, replace(idx, index=moved))  # type: ignore[type-var]
            del out[j]
            return tuple(out)
        ends = self.launch_values(f"({k} + 1) * ({run.size})")  # type: ignore[union-attr]
        for o in others:
            strides = self.launch_values(terms[o].stride)
            if not ends or not strides:
                # a runtime stride (`heads[:, None] * stride_h`): folded, as before, and the view states the
                # elements the tile reaches, checked at each launch (View.unit_reach: a row shorter than that is
                # refused there; Triton reads into the next row, which the tile lay past, silently)
                self._fold_reach = f"({k} + 1) * ({run.size})"  # type: ignore[union-attr]
                continue
            if not all(isinstance(e, int) and isinstance(s, int) and e <= s for e, s in zip(ends, strides)):
                return terms
        return None

    def _vacuous(self, idx: Idx, bound: str) -> bool:
        """``idx < bound`` holds for every lane at every captured launch (``tl.arange(0, PAD) < N`` with PAD <= N:
        a padded block that every launch fills); such a condition bounds nothing."""
        if idx.index != "0":
            return False
        size, lim = self.launch_values(idx.size), self.launch_values(bound)
        return bool(size) and bool(lim) and all(isinstance(a, int) and isinstance(b, int) and a <= b
                                                for a, b in zip(size, lim))

    def _without_vacuous_min(self, idx: Idx, bound: str) -> str:
        """``idx < min(x, y)`` is ``idx < x`` and ``idx < y``; an arm every lane is below at every captured launch
        (``tl.arange(0, B) < min(n - start, B)``, a tail block's size) bounds nothing and is dropped, so the other
        arm can bound the pointer's run (``start + tl.arange(0, B)`` against n)."""
        try:
            e = ast.parse(bound, mode="eval").body
        except SyntaxError:
            return bound
        if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "min" and len(e.args) == 2
                and not e.keywords):
            return bound
        arms = [ast.unparse(x) for x in e.args]
        for k in (0, 1):
            if self._vacuous(idx, arms[k]):
                return self._without_vacuous_min(idx, arms[1 - k])
        return bound

    def offset(self, v: object, node: ast.AST) -> Offset:
        if isinstance(v, Offset):
            return v
        if isinstance(v, Idx):
            return Offset((Term("1", v),))
        if isinstance(v, Scalar):
            split = self._stride_terms(v.text)
            if split is not None:   # `off_z * stride_qz + off_h * stride_qh`: a dimension per stride
                return Offset(split)
            f = v.factors
            if f:
                params = [x for x in f if self.kinds.get(x) in ("scalar", "constant")]
                if not params:   # a product of parameters as the stride (`off_hz * (HEAD_DIM * N_CTX)`)
                    params = [x for x in f if self._param_product(x) and not x.isdigit()]
                if len(params) == 1:
                    other = f[1] if f[0] == params[0] else f[0]
                    return Offset((Term(params[0], other),))
            return Offset((Term("1", v.text),))
        if isinstance(v, Tile) and v.dtype not in (F32, "ct.float16", "ct.bfloat16", "bool"):
            return Offset((Term("1", v),))  # offsets computed as values: a gather / scatter (load() / store())
        raise self.fail(node, f"cannot add a {type(v).__name__} to a pointer: offsets are sums of "
                              "`index * stride` terms (an index is `pid * BLOCK + tl.arange(0, BLOCK)`, "
                              "a program id or a loop index; a stride is a kernel parameter)")

    def compare(self, op: ast.cmpop, a: object, b: object, node: ast.AST) -> object:
        sym = CMPOPS[type(op)]
        if isinstance(a, DType) and isinstance(b, DType) and sym in ("==", "!="):
            # `V.dtype.element_ty == tl.float8e5`: decided by the dtypes the launches pass (one per pointer)
            da, db = (self.known_dtype(Tile("", (), x.text)) for x in (a, b))
            if da is None or db is None:
                raise self.fail(node, f"`{ast.unparse(node)}`: the launches pass arrays of different dtypes, so the "
                                      "comparison is not one constant (capture each dtype apart and port each)")
            return Scalar(repr((da == db) == (sym == "==")))
        wide = self._wide_literal_compare(sym, a, b, node)
        if wide is not None:
            return wide
        # a 64-bit element (an int64 label) against a 32-bit scalar argument: the scalar widened first, as Triton
        # promotes the pair (a 1-element int32 tile sign-extended: the translator converts tiles, not scalars)
        if isinstance(a, Tile) and isinstance(b, Scalar) and self._int64_vs_int32(a, b):
            b = Tile(f"ct.astype(ct.full({_tup(a.shape)}, {b.text}, dtype=ct.int32), ct.int64)", a.shape, "ct.int64")
        if isinstance(b, Tile) and isinstance(a, Scalar) and self._int64_vs_int32(b, a):
            a = Tile(f"ct.astype(ct.full({_tup(b.shape)}, {a.text}, dtype=ct.int32), ct.int64)", b.shape, "ct.int64")
        if isinstance(a, Tile) and isinstance(b, Tile) and a.shape == b.shape == ("1",) and {
                self.known_dtype(a), self.known_dtype(b)} == {"ct.int64"} and sym in ("==", "!=", "<", "<=", ">", ">="):
            return Tile(f"{_paren(a.text)} {sym} {_paren(b.text)}", ("1",), "bool")
        # one loaded element against a scalar (`y == ignore_index`): a scalar comparison, as Triton's scalar load
        if isinstance(a, Tile) and a.shape == ("1",) and isinstance(b, Scalar):
            a = Scalar(f"ct.reshape({a.text}, ())")
        if isinstance(b, Tile) and b.shape == ("1",) and isinstance(a, Scalar):
            b = Scalar(f"ct.reshape({b.text}, ())")
        if isinstance(a, Scalar) and isinstance(b, Scalar):
            return Scalar(f"{_paren(a.text)} {sym} {_paren(b.text)}")
        if sym == "<" and isinstance(a, Idx) and isinstance(b, Scalar) and a.wrap is None:
            return Mask(((a, self._without_vacuous_min(a, b.text)),))
        ta = a if isinstance(a, Scalar) else self.materialize(self._value(a, node), node)
        tb = b if isinstance(b, Scalar) else self.materialize(self._value(b, node), node)
        # integers of mixed signedness (`x < u`, an int32 and a uint32 tile) compared in the type Triton promotes
        # the pair to (uint32: a negative int32 is above every small unsigned); an integer tile and a float scalar
        # in f32 (`x > 2.5`)
        ta, tb = self._promoted_pair(ta, tb)
        for k, (t, o) in enumerate(((ta, tb), (tb, ta))):
            vals = self.launch_values(o.text) if isinstance(o, Scalar) and isinstance(t, Tile) and \
                self.known_dtype(t) in BOOL else None
            if vals and all(isinstance(v, bool) for v in vals):
                # a boolean tile against a boolean constexpr (`(left > right) != DESCENDING`): compared as int32
                # 0 / 1, as Triton's i1 (the port compares no boolean tile with a boolean)
                t = Tile(f"ct.astype({t.text}, ct.int32)", t.shape, "ct.int32")
                o = Scalar(f"(1 if {o.text} else 0)")
                ta, tb = (t, o) if k == 0 else (o, t)
                break
        if isinstance(ta, Tile) and isinstance(tb, Tile):
            # a boolean tile against an integer one (`(left > right) != flip`, flip an int32 tile): the boolean
            # converted to the integer's type, as Triton promotes i1 with an integer (cutile: "binary `Ne` requires
            # operands of the same dtype")
            da, db = self.known_dtype(ta), self.known_dtype(tb)
            ints = INT_DTYPES + ("ct.uint16", "ct.uint64")
            if da in BOOL and db in ints:
                ta = Tile(f"ct.astype({ta.text}, {db})", ta.shape, db)
            elif db in BOOL and da in ints:
                tb = Tile(f"ct.astype({tb.text}, {da})", tb.shape, da)
        return Tile(f"{_paren(ta.text)} {sym} {_paren(tb.text)}",
                    _broadcast(getattr(ta, "shape", ()), getattr(tb, "shape", ())), "bool")

    def _wide_literal_compare(self, sym: str, a: object, b: object, node: ast.AST) -> Tile | None:
        """``u >= 0x80000000``: a uint32 (or int64) tile against an integer literal in [2^31, 2^32), which Triton
        types as the tile's dtype and cuTile Python / cutile 0.3.1 cannot write (literals are i32). Compared exactly
        in int64 with both sides moved down by 2^31: ``int64(u) - 2^30 - 2^30 OP c - 2^31`` (every literal below
        2^31). None when no operand is such a literal."""
        def wide(v: object) -> int | None:
            if isinstance(v, Scalar) and v.text.isdigit() and 2 ** 31 <= int(v.text) < 2 ** 32:
                return int(v.text)
            return None

        flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
        if wide(b) is not None and isinstance(a, (Tile, Idx, Offset)):
            c, t, op = wide(b), a, sym
        elif wide(a) is not None and isinstance(b, (Tile, Idx, Offset)):
            c, t, op = wide(a), b, flip[sym]
        else:
            return None
        t = self.materialize(self._value(t, node), node)
        kind = self.known_dtype(t)
        if kind not in ("ct.uint32", "ct.int64"):
            return None   # (an int32 tile: Triton refuses the literal, "out of range for type int32")
        x = t.text if kind == "ct.int64" else f"ct.astype({t.text}, ct.int64)"
        return Tile(f"(({x}) - 0x40000000 - 0x40000000) {op} {c - 2 ** 31}", t.shape, "bool")

    def _int64_vs_int32(self, t: Tile, s: Scalar) -> bool:
        """``t`` a one-element int64 tile and ``s`` an integer scalar parameter (an i32 argument)."""
        return t.shape == ("1",) and self.known_dtype(t) == "ct.int64" and self.kinds.get(s.text) == "scalar" \
            and self.const_types.get(s.text, "int") == "int"

    def _value(self, v: object, node: ast.AST) -> object:
        if isinstance(v, Mask):
            return self.mask_tile(v, node)
        return v

    def _truth(self, v: object, node: ast.AST, op: str) -> "Scalar | Tile":
        """``v`` as an operand of `and` / `or` / `not` (Triton 3.6's semantic.logical_and / logical_or / not_, which
        bitcast a non-boolean tensor to int1: Triton's own error for any wider type). A scalar is Python's truth, as
        before; one loaded element (a scalar load) a 0-d truth, compared as a scalar; other boolean tiles and masks
        lane by lane."""
        if isinstance(v, Scalar):
            return v
        if isinstance(v, Mask):
            v = self.mask_tile(v, node)
        if isinstance(v, Tile) and v.dtype in BOOL:
            if v.shape in (("1",), ()):
                return Scalar(f"ct.reshape({v.text}, ())" if v.shape else v.text)
            return v
        dt = self.known_dtype(v) if isinstance(v, Tile) else None
        raise self.fail(node, f"`{op}` of a{' ' + dt if dt else ''} non-boolean {type(v).__name__.lower()}: Triton "
                              "3.6 takes boolean operands there only (semantic.logical_and / not_ bitcast them to "
                              "int1: 'Cannot bitcast data-type of size 32 to data-type of size 1'); compare it first "
                              "(`x != 0`)")

    def _bool_op(self, node: ast.BoolOp, vals: list) -> "Scalar | Tile":
        """`a and b` / `a or b` with a tensor among the operands (code_generator.visit_BoolOp): Triton evaluates
        every operand and combines their truths by logical_and / logical_or. Scalars and loaded elements (a decode
        kernel's `if pd > 0 and pt / pd >= u:`) are Python's `and` / `or` of 0-d truths, as all-scalar operands
        already were (nothing there has an effect, so short-circuiting changes no value); wider boolean tiles
        combine lane by lane, `&` / `|` (Triton warns `and` on them deprecated)."""
        truths = [self._truth(v, node, "and" if isinstance(node.op, ast.And) else "or") for v in vals]
        if all(isinstance(t, Scalar) for t in truths):
            op = " and " if isinstance(node.op, ast.And) else " or "
            return Scalar(op.join(_paren(t.text) for t in truths))
        bit = ast.BitAnd() if isinstance(node.op, ast.And) else ast.BitOr()
        out = truths[0]
        for t in truths[1:]:
            out = self.binop(bit, out, t, node)
        return out

    def mask_tile(self, m: Mask, node: ast.AST) -> Tile:
        parts = [self.materialize(i, node) for i, _ in m.conds]
        texts = [f"{_paren(t.text)} < {_paren(bound)}" for t, (_, bound) in zip(parts, m.conds)]
        return Tile(" & ".join(f"({t})" for t in texts) if len(texts) > 1 else texts[0],
                    _broadcast_all(t.shape for t in parts), "bool")

    # ------------------------------------------------ calls

    def call(self, node: ast.Call) -> object:
        func = node.func
        if isinstance(func, ast.Name) and func.id not in self.env:
            if func.id in self.k.helpers:
                value = self.inline(node, self.k.helpers[func.id])
                if value is None:
                    raise self.fail(node, f"helper {func.id} returns nothing: call it as a statement")
                return value
            if func.id in self.k.constexpr_functions:
                return self.constexpr_function(node, func.id)
            if func.id in ("min", "max") and len(node.args) >= 2 and not node.keywords:
                return self.builtin_minmax(node, func.id)
            if func.id in ("float", "int") and len(node.args) == 1 and not node.keywords:
                v = self.ev(node.args[0])
                if not isinstance(v, Scalar):
                    raise self.fail(node, f"{func.id}() of a tile: use .to()")
                try:
                    value = {"float": float, "int": int}[func.id](ast.literal_eval(v.text))
                    # (inf and nan have no literal: `float('-inf')`, which cuTile Python folds the same way)
                    return Scalar(repr(value) if math.isfinite(value) else f"float('{value}')")
                except (ValueError, SyntaxError):
                    return Scalar(f"ct.astype({v.text}, {F32 if func.id == 'float' else 'ct.int32'})")
        if self._descriptor_method(node) == "load":
            return self.descriptor_load(node)
        if self._descriptor_method(node) == "gather":
            return self.descriptor_gather(node)
        if (self._descriptor_method(node) or "").startswith("atomic_"):
            return self.descriptor_atomic(node, self._descriptor_method(node))  # type: ignore[arg-type]
        if (member := self._as_member_function(node)) is not None:
            return self.call(member)
        if isinstance(func, ast.Attribute) and func.attr.startswith("is_") and not node.args and not node.keywords \
                and func.attr in DTYPE_FACTS[F32] and (facts := self._dtype_facts(node, func.value)):
            # `x.dtype.is_floating()`, `o_ptr.dtype.element_ty.is_fp8()`: the launches' dtype decides it
            return Scalar(repr(facts[func.attr]))
        fn = self.function(func) or (("cdiv" if self.triton_attr(func) == "cdiv" else None))
        if isinstance(func, ast.Attribute) and func.attr in MEMBER_REFUSED and fn is None and self.k.tl and \
                not (isinstance(func.value, ast.Name) and func.value.id in self.k.tl):
            raise self.fail(node, f"`{ast.unparse(func)}(..)`: {MEMBER_REFUSED[func.attr]}")
        if isinstance(func, ast.Attribute) and func.attr in MEMBER_FNS and fn is None and self.k.tl:
            # a tensor method (`x.sum(axis=1)`, `x.exp()`): the triton.language function with x first
            tl_name = ast.Name(sorted(self.k.tl)[0], ast.Load())
            call = ast.Call(ast.Attribute(tl_name, func.attr, ast.Load()), [func.value, *node.args], node.keywords)
            return self.call(ast.fix_missing_locations(ast.copy_location(call, node)))
        if isinstance(func, ast.Attribute) and func.attr in ("trans", "permute") and fn is None:
            return self.permute(node, self.ev(func.value), node.args)
        if (isinstance(func, ast.Attribute) and func.attr in ("reshape", "view") and fn is None) or \
                fn in ("reshape", "view"):   # (tl.view: Triton's older name of a reshape)
            return self.reshape(node, func.value if fn is None else node.args[0],  # type: ignore[attr-defined]
                                node.args if fn is None else node.args[1:])
        if fn == "ravel" or (isinstance(func, ast.Attribute) and func.attr == "ravel" and fn is None):
            x = self.materialize(self._value(self.ev(node.args[0] if fn else func.value), node), node)  # type: ignore
            size = " * ".join(_paren(d) for d in x.shape) or "1"
            return Tile(f"ct.reshape({x.text}, ({size},))", (size,), x.dtype)
        if fn == "broadcast" and len(node.args) == 2 and not node.keywords:   # `a2, b2 = tl.broadcast(a, b)`
            a, b = (self.materialize(self._value(self.ev(e), node), node) for e in node.args)
            if len(a.shape) != len(b.shape) or any(x != y and "1" not in (x, y) for x, y in zip(a.shape, b.shape)):
                raise self.fail(node, f"tl.broadcast of shapes {a.shape} and {b.shape}: equal ranks whose extents "
                                      "agree or are 1")
            shape = tuple(y if x == "1" else x for x, y in zip(a.shape, b.shape))
            return tuple(t if t.shape == shape else Tile(f"ct.broadcast_to({t.text}, {_tup(shape)})", shape, t.dtype)
                         for t in (a, b))
        if fn == "swizzle2d" and len(node.args) == 5 and not node.keywords:
            return self.swizzle2d(node)
        if fn == "associative_scan":
            return self.associative_scan(node, {k.arg: k.value for k in node.keywords})
        if fn == "map_elementwise":
            return self.map_elementwise(node)
        if isinstance(func, ast.Attribute) and func.attr in ("to", "cast") and fn is None:
            return self.convert(node, self.ev(func.value), 0)
        if fn == "cast":
            return self.convert(node, self.ev(node.args[0]), 1)
        if fn in HINT_FNS:   # compiler facts only (alignment, contiguity): the value is its first argument
            return self.ev(node.args[0])
        if fn == "sigmoid" and len(node.args) == 1:
            x = self.materialize(self._runtime_float_tile(self._value(self.ev(node.args[0]), node)), node)
            # (triton.language's sigmoid is `1 / (1 + math.exp(-x))`: its exp takes f32 / f64 only, so Triton
            # refuses tl.sigmoid of an f16 tile — it was ported)
            self._math_dtype_check(node, "exp", [x])
            e = self._exp(Tile(f"-{_paren(x.text)}", x.shape, x.dtype))
            den = Tile(f"1.0 + {e.text}", x.shape, x.dtype)
            if self.known_dtype(x) == F32 and not self.ieee_div:   # Triton's 1 / (1 + exp(-x)): its division
                return self.triton_div(Scalar("1.0"), den, x.shape)
            return Tile(f"1.0 / ({den.text})", x.shape, x.dtype)
        if fn is None:
            raise self.fail(node, f"call `{ast.unparse(node.func)}` is not supported (only triton.language "
                                  "functions and @triton.jit helpers: the module's own, or imported by name from a module of the "
                                  "project)")
        kw = {k.arg: k.value for k in node.keywords}
        if fn == "program_id":
            return Scalar(f"ct.bid({self._axis(node, kw)})")
        if fn == "num_programs":
            return Scalar(f"ct.num_blocks({self._axis(node, kw)})")
        if fn == "cdiv" and len(node.args) == 2 and not kw:
            vals = [self._value(self.ev(x), node) for x in node.args]
            if all(isinstance(v, Scalar) for v in vals):
                return Scalar(f"ct.cdiv({vals[0].text}, {vals[1].text})")
            # of a tile (padded expert counts): Triton's `(x + div - 1) // div`, its `//` truncating
            div = vals[1]
            # (a literal divisor's `div - 1` folded: the translator bound `4 - 1` to a Rust local named `constant`,
            # which hid cutile's `constant()` in the `%` after it — the port did not build)
            one_less = Scalar(str(int(div.text) - 1)) if isinstance(div, Scalar) and div.text.isdigit() else \
                Scalar(f"{_paren(div.text)} - 1") if isinstance(div, Scalar) else \
                Tile(f"{_paren(self.materialize(div, node).text)} - 1", self.materialize(div, node).shape,
                     self.materialize(div, node).dtype)
            return self.binop(ast.FloorDiv(), self.binop(ast.Add(), vals[0], one_less, node), div, node)
        if fn == "arange":
            if kw:   # `tl.arange(start=0, end=BLOCK)`: the same call with its arguments in place
                args = [self._arg(node, kw, k, name) for k, name in enumerate(("start", "end"))]
                return self.ev(ast.copy_location(ast.Call(node.func, args, []), node))
            if len(node.args) == 2 and not kw and self.scalar(node.args[0]) != "0" and \
                    self._is_static(node.args[0]) and self._is_static(node.args[1]):
                # `tl.arange(LO, HI)` (constexpr bounds, as Triton requires): `LO + tl.arange(0, HI - LO)`
                lo, hi = node.args
                size = ast.copy_location(ast.BinOp(hi, ast.Sub(), lo), node)
                run = ast.copy_location(ast.Call(node.func, [ast.copy_location(ast.Constant(0), node), size], []),
                                        node)
                return self.ev(ast.copy_location(ast.BinOp(lo, ast.Add(), run), node))
            if len(node.args) != 2 or self.scalar(node.args[0]) != "0":
                raise self.fail(node, "tl.arange(0, N) only (add the start to the result instead)")
            return Idx("0", self.scalar(node.args[1]))
        if fn == "load":
            return self.load(node, kw)
        if fn == "make_block_ptr":
            return self.block_ptr(node, kw)
        if fn in ("make_tensor_descriptor", "_experimental_make_tensor_descriptor"):
            # (Triton 3.3's name for it: the same arguments and semantics)
            return self.make_descriptor(node, kw)
        if fn in ATOMICS:
            return self.atomic_add(node, fn)
        if fn in ("trans", "permute"):
            return self.permute(node, self.ev(node.args[0]), node.args[1:] or kw.get("dims"))
        if fn in ("cumsum", "cumprod"):
            x = self._bf16_as_f32(self.materialize(self._value(self.ev(node.args[0]), node), node))
            axis = self.scalar(kw.get("axis") or (node.args[1] if len(node.args) > 1 else ast.Constant(0)))
            reverse = self._flag(node, kw, 2, "reverse", False)   # (a constexpr too: it was read as False)
            if fn == "cumsum":
                # as triton.language's cumsum: `dtype=`, else _pick_sum_dtype (int8 / int16 summed as int32, uint8 /
                # uint16 as uint32). An int8 running sum was kept int8, wrapping where Triton's does not, silently
                x = self._sum_operand(node, kw, x)
            if fn == "cumprod":
                return self.doubling_scan(node, [x], self._axis_of(x, ast.Constant(int(axis))), reverse,
                                          lambda a, b: [Tile(f"{a[0].text} * {b[0].text}", a[0].shape, x.dtype)])[0]
            return self._scan(fn, x, axis, reverse)
        if fn == "advance":
            # `K = tl.advance(K, (0, lo))` outside a loop: lo a whole number of blocks (`start_m * BLOCK_M` with
            # BLOCK_M a multiple of the block at every launch): the tile index moves by lo / block
            bp = self.ev(node.args[0]) if node.args else None
            if isinstance(bp, BlockPtr) and len(node.args) == 2 and isinstance(node.args[1], (ast.Tuple, ast.List)):
                index, moves = list(bp.index), []
                for onode, blk in zip(node.args[1].elts, bp.block):
                    v = self.ev(onode)
                    if not isinstance(v, Scalar):
                        raise self.fail(onode, f"tl.advance by `{ast.unparse(onode)}`: offsets must be scalars")
                    moves.append((v.text, self._in_blocks(v, blk)))
                if bp.elems is None and all(q is not None for _, q in moves):
                    for k, (_, q) in enumerate(moves):
                        if q != "0":
                            index[k] = q if index[k] == "0" else f"{_paren(index[k])} + {_paren(q)}"
                    return replace(bp, index=tuple(index))
                # not whole blocks (`tl.advance(p, (1, 0))`): element offsets, its accesses gathers
                elems = list(bp.elems) if bp.elems is not None else [
                    "0" if i == "0" else f"{_paren(i)} * {_paren(b)}" for i, b in zip(bp.index, bp.block)]
                for k, (d, _) in enumerate(moves):
                    if d != "0":
                        elems[k] = d if elems[k] == "0" else f"{_paren(elems[k])} + {_paren(d)}"
                if bp.elems is None:
                    self.notes.append(f"line {node.lineno}: a block pointer advanced by offsets that are not whole "
                                      "blocks: its loads and stores gather / scatter the elements")
                return replace(bp, elems=tuple(elems))
            raise self.fail(node, "tl.advance is lowered as `p = tl.advance(p, (..))` at the top level of a for "
                                  "loop's body (one block per iteration) or by whole blocks outside loops")
        if fn in ("zeros", "full"):
            shape = self._tuple(node.args[0] if node.args else kw["shape"])
            dt_node = kw.get("dtype") or node.args[-1]
            dt = self.ev(dt_node)
            if not isinstance(dt, DType):
                raise self.fail(node, "dtype must be a tl dtype")
            tup = f"{_tup(shape)}"
            if fn == "full" and isinstance(v0 := self.ev(self._arg(node, kw, 1, "value")), Tile) and v0.shape == ():
                # `tl.full([B], 1.0 / n, tl.float32)`: a 0-d tile (Triton's quotient of run-time scalars) broadcast
                return Tile(f"ct.broadcast_to(ct.astype({v0.text}, {dt.text}), {tup})", shape, dt.text)
            value = "0" if fn == "zeros" else self.scalar(self._arg(node, kw, 1, "value"))
            if dt.text == "ct.bool_":   # a boolean tile: an int32 one compared with 0 (cutile has no bool literal)
                truth = {"True": "1", "False": "0"}.get(value, value)
                return Tile(f"ct.full({tup}, {truth}, dtype=ct.int32) != 0", shape, "bool")
            if fn == "zeros":
                return Tile(f"ct.zeros({tup}, dtype={dt.text})", shape, dt.text)
            return Tile(f"ct.full({tup}, {value}, dtype={dt.text})", shape, dt.text)
        if fn == "dot":
            acc = kw.get("acc") or (node.args[2] if len(node.args) > 2 else None)
            a, b = self.ev(node.args[0]), self.ev(node.args[1])
            self._dot_options(node, {k: v for k, v in kw.items() if k != "acc"}, a, b)
            return self._dot(node, a, b, self.ev(acc) if acc is not None else self._dot_zero(node, a, b))
        if fn == "dot_scaled":
            return self.dot_scaled(node, kw)
        if fn == "trans":
            if len(node.args) != 1 or node.keywords:
                raise self.fail(node, "tl.trans(x) of a 2-D tile only")
            x = self.materialize(self.ev(node.args[0]), node)
            if len(x.shape) != 2:
                raise self.fail(node, "tl.trans(x) of a 2-D tile only")
            return Tile(f"ct.transpose({x.text})", x.shape[::-1], x.dtype)
        if fn in ("max", "min") and self._flag(node, kw, 2, "return_indices", False):
            return self.reduce_with_index(node, fn, kw)
        if fn in REDUCE:
            allowed = REDUCE_KEYWORDS[fn]
            bad = [k for k in kw if k not in allowed]
            if bad:   # (`tl.max(x, 0, propagate_nan=True)`: Triton 3.6 raises a TypeError; it was dropped silently)
                raise self.fail(node, f"tl.{fn} takes no keyword {bad[0]!r} in Triton 3.6 (its keywords: "
                                      f"{', '.join(allowed)})")
            x = self.materialize(self._value(self.ev(node.args[0]), node), node)
            if fn == "sum":
                x = self._sum_operand(node, kw, x)
            else:
                x = self._minmax_operand(x)
            axis_node = kw.get("axis") or (node.args[1] if len(node.args) > 1 else None)
            if axis_node is None or (isinstance(axis_node, ast.Constant) and axis_node.value is None):
                if len(x.shape) != 1:   # every axis: one scalar
                    return Tile(f"{REDUCE[fn]}({x.text})", (), x.dtype)
                axis_node = ast.Constant(0)
            axis = self._axis_of(x, axis_node)
            keep = kw.get("keep_dims")
            pos = 2 if fn == "sum" else 4   # (`tl.sum(x, 1, True)`: keep_dims by position)
            if keep is None and len(node.args) > pos:
                keep = node.args[pos]
            keepdims = bool(keep is not None and isinstance(keep, ast.Constant) and keep.value)
            if keep is not None and not isinstance(keep, ast.Constant):   # `keep_dims=KEEP` (a constexpr)
                truth = self.static_truth(keep)
                if truth is None:
                    raise self.fail(keep, f"keep_dims={ast.unparse(keep)}: not one constant at every launch")
                keepdims = truth
            shape = tuple(("1" if keepdims else None) if a == axis else s for a, s in enumerate(x.shape))
            shape = tuple(s for s in shape if s is not None)
            text = f"{REDUCE[fn]}({x.text}, axis={axis}" + (", keepdims=True)" if keepdims else ")")
            return Tile(text, shape, x.dtype)
        if fn in DERIVED:   # triton.language functions written with cuTile ones (`_Lowerer.<method>`)
            return getattr(self, DERIVED[fn])(node, fn, kw)
        if fn in ("rand", "randn", "randint", "randint4x", "rand4x") and len(node.args) + len(kw) <= 3 and \
                set(kw) <= {"seed", "offset", "n_rounds"}:
            return self.rand(node, kw)
        if fn == "uint_to_uniform_float" and len(node.args) == 1 and not kw:
            # Triton's (random.py) for a 32-bit word: its bits as an int32 x, folded to x >= 0 by -x - 1, times
            # 4.6566127342e-10 (as tl.rand folds its first word)
            x = self.materialize(self._value(self.ev(node.args[0]), node), node)
            dt = self.known_dtype(x)
            if dt not in ("ct.uint32", "ct.int32"):
                raise self.fail(node, f"{self._spelled(node, fn)} of a tile not known to be uint32 / int32 (a 64-bit "
                                      "word's scale is not lowered)")
            i = self._named(Tile(f"ct.bitcast({x.text}, ct.int32)" if dt == "ct.uint32" else x.text, x.shape,
                                 "ct.int32"), "uniform_bits").text
            return Tile(f"ct.astype(ct.where({i} < 0, -1 - {i}, {i}), ct.float32) * 4.6566127342e-10", x.shape, F32)
        if fn == "exp" and len(node.args) == 1 and not kw:
            x = self._runtime_float_tile(self._value(self.ev(node.args[0]), node))
            if isinstance(x, Tile):
                self._math_dtype_check(node, fn, [x])
                return self._exp(x)
        if fn == "where" and len(node.args) == 3 and not kw:
            truth = self.static_truth(node.args[0])
            if truth is not None:   # on constexprs every launch decides alike: the taken side (as an `if`)
                return self.ev(node.args[1] if truth else node.args[2])
            picked = [self.ev(a) for a in node.args]
            if all(isinstance(v, Scalar) for v in picked):   # scalars: Python's conditional expression
                return Scalar(f"({picked[1].text} if {picked[0].text} else {picked[2].text})")  # type: ignore
            c, x, z = picked
            if self.wraps and isinstance(c, Mask) and len(c.conds) == 1 and isinstance(x, Idx) and x.wrap is None \
                    and c.conds[0][0] == x and isinstance(z, Scalar) and z.text == "0" \
                    and self.launch_expr(c.conds[0][1]):
                # `offs = tl.where(offs < M, offs, 0)` (the persistent-matmul tutorial's clamp): the lanes in [0, M)
                # are offs itself, as for a `% M` wrap (Idx.wrap); the others read row 0 in Triton, padding here
                self.wrap_used = True
                return replace(x, wrap=c.conds[0][1])
        if fn in MAP:
            vals = [self._value(self.ev(a), node) for a in node.args]
            if fn in ("maximum", "minimum") and not kw and len(vals) == 2 and \
                    all(isinstance(v, Scalar) for v in vals):   # of scalars (a causal loop bound): a scalar
                return Scalar(f"{fn[:3]}({vals[0].text}, {vals[1].text})")
            tiles = [v if isinstance(v, Scalar) else self.materialize(v, node) for v in vals]
            self._math_dtype_check(node, fn, tiles)
            if fn in ("maximum", "minimum"):   # bf16 operands compared in f32, as Triton (_bf16_as_f32)
                tiles = [self._bf16_as_f32(t) for t in tiles]
            opts = self._math_options(node, fn, kw)
            if fn == "where" and isinstance(tiles[0], Tile) and self.known_dtype(tiles[0]) not in BOOL + (None,):
                # Triton takes any condition, true where nonzero; cuTile's ct.where wants a boolean tile
                tiles[0] = Tile(f"{_paren(tiles[0].text)} != 0", tiles[0].shape, "bool")
            if fn == "where":
                tiles[1:] = self._where_literals(tiles[1:])
            if fn in ("where", "maximum", "minimum") and len(tiles) >= 2:
                # `tl.where(c, i, 0.5)` / `tl.minimum(x_i32, u)`: the pair as Triton promotes it
                tiles[-2], tiles[-1] = self._promoted_pair(tiles[-2], tiles[-1])
            if fn == "pow" and len(tiles) == 2 and not opts:
                tiles = self._float_exponent(tiles)
            shape = _broadcast_all(getattr(t, "shape", ()) for t in tiles)
            dts = [t.dtype for t in tiles[1 if fn == "where" else 0:] if isinstance(t, Tile)]
            if fn == "where" and not dts and any(_float_literal(t.text) for t in tiles[1:]):
                dts = [F32]   # `tl.where(mask, 0, -1.0e6)`: two scalars, an f32 tile as Triton's
            elif fn == "where" and not dts and all(isinstance(t, Scalar) and t.text.lstrip("-").isdigit()
                                                   for t in tiles[1:]):
                dts = ["ct.int32"]   # `tl.where(x > 0, 1, -1)`: an int32 tile, as Triton's (and cuTile's)
            if fn != "where" and not dts and tiles and all(isinstance(t, Scalar) and self._float_scalar(t)
                                                           for t in tiles):
                dts = [F32]   # `tl.log(base)` of a float argument: Triton's fp32 scalar (its exp is Triton's too)
                if fn in ("pow", "atan2"):   # `libdevice.pow(beta1, step)` (Adam's bias correction): the first an
                    # f32 0-d tile (the port's binary math takes no scalars only; the same f32 operation)
                    tiles[0] = Tile(f"ct.full((), {tiles[0].text}, dtype={F32})", (), F32)
            if fn in ("sqrt", "rsqrt") and len(tiles) == 1 and not opts and \
                    (self.known_dtype(tiles[0]) == F32 if isinstance(tiles[0], Tile) else dts == [F32]):
                # Triton's sqrt.approx.ftz.f32 / rsqrt.approx.ftz.f32: one MUFU instruction, as cuTile's approximate
                # flush-to-zero forms compile (module docstring). libdevice's f32 sqrt too: Triton 3.6 links
                # libdevice with __CUDA_FTZ set and __CUDA_PREC_SQRT unset, so `__nv_sqrtf` is sqrt.approx.ftz.f32
                # (its PTX for sm_90; `libdevice.sqrt` was lowered as an IEEE square root, silently)
                opts = (["rounding_mode=ct.RoundingMode.APPROX"] if fn == "sqrt" else []) + ["flush_to_zero=True"]
            if fn == "sqrt_rn" and len(tiles) == 1 and not opts and self._libdevice(node) and \
                    isinstance(tiles[0], Tile) and self.known_dtype(tiles[0]) == F32:
                opts = ["flush_to_zero=True"]   # (libdevice's `__nv_fsqrt_rn`: sqrt.rn.ftz.f32; tl.sqrt_rn keeps them)
            if fn == "exp2" and len(tiles) == 1 and not opts and \
                    isinstance(tiles[0], Tile) and self.known_dtype(tiles[0]) == F32:
                # Triton's f32 tl.exp2 is ex2.approx.ftz.f32 (its tl.exp, ex2.approx.f32, keeps subnormals): one
                # MUFU.EX2, as cuTile's flush-to-zero exp2 compiles; without it tileiras adds a rescale of results
                # below 2**-126 (three more instructions an element; tutorial 06's backward, run-2026-12-06-s15)
                opts = ["flush_to_zero=True"]
            if len(set(dts)) > 1:
                # `tl.where(c, x * x, x.to(tl.int8))` of an int8 x: `x_ptr.dtype` and `ct.int8` are one type when
                # every launch passes x as int8 (as binop takes them) — the result's dtype was unknown, so a
                # tl.sum of it added int8 where Triton widens to int32, wrapping, silently (round 26's fuzzer)
                known = {self.known_dtype(t) for t in tiles[1 if fn == "where" else 0:] if isinstance(t, Tile)}
                if len(known) == 1 and None not in known:
                    dts = [known.pop()]
            return Tile(f"{MAP[fn]}({', '.join([t.text for t in tiles] + opts)})", shape,
                        dts[0] if len(set(dts)) == 1 else None)
        if fn == "fast_expf" and len(node.args) == 1 and not kw:
            # libdevice's fast exp: ex2.approx of x * log2(e), which is how Triton computes an f32 tl.exp
            x = self.materialize(self._value(self.ev(node.args[0]), node), node)
            if self.known_dtype(x) != F32:
                raise self.fail(node, f"{self._spelled(node, fn)} of a tile whose dtype is not known f32")
            return self._exp(x)
        if fn == "fast_dividef" and len(node.args) == 2 and not kw:
            # libdevice's fast division: div.approx.f32 (cuTile's APPROX rounding) of two f32 tiles
            ta, tb = self._float_operands(node, fn)
            if self.known_dtype(ta) != F32 or self.known_dtype(tb) != F32:
                raise self.fail(node, f"{self._spelled(node, fn)} of tiles not both known f32")
            return Tile(f"ct.truediv({ta.text}, {tb.text}, rounding_mode=ct.RoundingMode.APPROX)",
                        _broadcast(ta.shape, tb.shape), F32)
        if (fn == "div_rn" and len(node.args) == 2 and not kw and not self._libdevice(node)) or (
                fn == "fdiv" and len(node.args) + len(kw) <= 3
                                                                    and set(kw) <= {"x", "y", "ieee_rounding"}):
            # IEEE division rounded to nearest: cuTile's `/`; `tl.fdiv(x, y)`: Triton's `/` (div.full.f32), with
            # `ieee_rounding=True` div.rn as div_rn
            a, b = (self._arg(node, kw, k, n) for k, n in ((0, "x"), (1, "y")))
            rn = fn == "div_rn" or self._flag(node, kw, 2, "ieee_rounding", False)
            ieee, self.ieee_div = self.ieee_div, self.ieee_div or rn
            try:
                return self.binop(ast.Div(), self.ev(a), self.ev(b), node)
            finally:
                self.ieee_div = ieee
        if (rounded := ROUNDED_ARITH.fullmatch(fn)) and self._libdevice(node) and \
                len(node.args) == 2 and not kw:
            # libdevice.add_rz(x, y) / sub_rd / mul_ru / div_rz ..: the cuTile operation with that rounding mode (was
            # "libdevice.add_rn is not lowered")
            ta, tb = self._float_operands(node, fn)
            kinds = {self.known_dtype(ta), self.known_dtype(tb)}
            if len(kinds) != 1 or not kinds <= {F32, "ct.float64"}:
                raise self.fail(node, f"{self._spelled(node, fn)} of tiles not both known f32 or both f64")
            op, mode = ROUNDED_ARITH_CT[rounded.group(1)], ROUNDING_MODES[rounded.group(2)]
            dt = kinds.pop()
            ftz = ", flush_to_zero=True" if dt == F32 else ""   # (`__nv_fadd_rn`: add.rn.ftz.f32 under Triton)
            return Tile(f"{op}({ta.text}, {tb.text}, rounding_mode=ct.RoundingMode.{mode}{ftz})",
                        _broadcast(ta.shape, tb.shape), dt)
        if fn == "fma_rn" and self._libdevice(node) and len(node.args) == 3 and not kw:
            # libdevice.fma_rn(x, y, z) (`__nv_fmaf_rn` / `__nv_fma_rn`: fma.rn, one rounding) is tl.fma's fused
            # multiply-add (was "not lowered"); the other roundings (fma_rz ..) have no cuTile Python counterpart
            vals = [self._value(self.ev(a), node) for a in node.args]
            kinds = {self.known_dtype(self.materialize(v, node)) for v in vals if not isinstance(v, Scalar)}
            if len(kinds) != 1 or not kinds <= {F32, "ct.float64"}:
                raise self.fail(node, f"{self._spelled(node, fn)} of tiles not known f32 or f64 alike (libdevice has "
                                      "it for those only)")
            if kinds == {F32}:
                # `__nv_fmaf_rn` is fma.rn.ftz.f32 under Triton (libdevice linked with __CUDA_FTZ set): the product's
                # flush-to-zero option, which cuTile Python's fused multiply-add takes from its multiplication
                a, b, c = (self._value(self.ev(a), node) for a in node.args)
                a, b, c = (v if isinstance(v, Scalar) else self.materialize(v, node) for v in (a, b, c))
                if isinstance(a, Scalar) and isinstance(b, Scalar):
                    a = Tile(f"ct.full((), {a.text}, dtype={F32})", (), F32)
                prod = Tile(f"ct.mul({a.text}, {b.text}, flush_to_zero=True)",
                            _broadcast(getattr(a, "shape", ()), getattr(b, "shape", ())), F32)
                return self.binop(ast.Add(), prod, c, node)  # type: ignore[return-value]
            return self.fma(node, "fma", kw)
        if fn in OPERATOR_FNS and len(node.args) + len(kw) in (2, 3) and set(kw) <= {"x", "y", "sanitize_overflow"}:
            # tl.add(x, y) / tl.sub / tl.mul: the operator (was "tl.add is not lowered")
            a, b = (self._arg(node, kw, k, n) for k, n in ((0, "x"), (1, "y")))
            return self.binop(OPERATOR_FNS[fn](), self.ev(a), self.ev(b), node)
        if fn in ROUNDINGS and len(node.args) == 1 and not kw:
            return self.rounding(node, fn)
        if fn in ("llrint", "llround") and len(node.args) == 1 and not kw:
            # libdevice's rounding to a 64-bit integer: the exact rounding (ties to even / away), then converted
            r = self.rounding(node, fn[2:])
            return Tile(f"ct.astype({r.text}, ct.int64)", r.shape, "ct.int64")
        if fn == "cat" and len(node.args) == 2:
            # tl.cat(a, b, can_reorder=True): Triton leaves the order free (it must be asked for); a then b along
            # the first axis, as ct.cat
            if not self._flag(node, kw, 2, "can_reorder", False):
                raise self.fail(node, "tl.cat without can_reorder=True (Triton refuses it too)")
            a, b = (self.materialize(self._value(self.ev(x), node), node) for x in node.args)
            if len(a.shape) != len(b.shape) or not a.shape or a.shape[1:] != b.shape[1:]:
                raise self.fail(node, "tl.cat of tiles whose shapes differ beyond the first axis")
            first = f"{_paren(a.shape[0])} + {_paren(b.shape[0])}"
            dts = {self.known_dtype(a), self.known_dtype(b)}
            return Tile(f"ct.cat(({a.text}, {b.text}), 0)", (first,) + a.shape[1:], a.dtype if len(dts) == 1 else None)
        if fn in FLOAT_TESTS and len(node.args) == 1 and not kw:
            return self.float_test(node, fn)
        if fn in LIBDEVICE_BITS and len(node.args) == LIBDEVICE_BITS[fn] and not kw:
            return self.libdevice_bits(node, fn)
        if fn in ("popc", "clz", "brev") and len(node.args) == 1 and not kw:
            return self.int_bits(node, fn)
        if fn in LIBDEVICE_MORE and len(node.args) == LIBDEVICE_MORE[fn] and not kw and \
                (self._libdevice(node) or fn in ("saturatef", "fdim")):
            return self.libdevice_more(node, fn)
        if (cvt := FLOAT_TO_INT.fullmatch(fn)) and len(node.args) == 1 and not kw:
            return self.float_to_int(node, fn, *cvt.groups())
        if self._libdevice(node) and not kw and (
                (fn in LIBDEVICE_CONVERT and len(node.args) == 1) or
                (fn in LIBDEVICE_DOUBLE_BITS and len(node.args) == LIBDEVICE_DOUBLE_BITS[fn]) or
                (LIBDEVICE_RCP.fullmatch(fn) and len(node.args) == 1)):
            return self.libdevice_convert(node, fn)
        if self._libdevice(node):
            for pattern, why in LIBDEVICE_REFUSED:
                if pattern.fullmatch(fn):
                    raise self.fail(node, f"{self._spelled(node, fn)} is not lowered: {why.format(f=fn)}")
        if fn == "fmod" and len(node.args) == 2 and not kw:
            # libdevice.fmod (fmodf: C's fmod, exact): as Triton's float `%` (`_fmod`); was refused
            va, vb = (self._value(self.ev(a), node) for a in node.args)
            ta, tb = (v if isinstance(v, Scalar) else self.materialize(v, node) for v in (va, vb))
            tiles = [t for t in (ta, tb) if isinstance(t, Tile)]
            kinds = {self.known_dtype(t) for t in tiles}
            if not tiles or not kinds <= {F32, "ct.float64"} or len(kinds) != 1:
                raise self.fail(node, f"{self._spelled(node, fn)} of {sorted(map(str, kinds)) or 'scalars'}: lowered "
                                      "for f32 or f64 tiles")
            dt = kinds.pop()
            return self._fmod(ta, tb, _broadcast(getattr(ta, "shape", ()), getattr(tb, "shape", ())), dt)
        if fn == "erf" and len(node.args) == 1 and not kw:
            return self.erf(node)
        if fn in NO_CUTILE:
            raise self.fail(node, f"{self._spelled(node, fn)} is not lowered: {NO_CUTILE[fn]}")
        raise self.fail(node, f"{self._spelled(node, fn)} is not lowered (supported: program_id, num_programs, "
                              "arange, load, store, "
                              f"make_block_ptr, advance, zeros, full, dot, {', '.join(REDUCE)}, {', '.join(MAP)}, "
                              "cdiv, .to())")

    #: Triton's tl.max / tl.min reduce a float narrower than 32 bits in f32 and an integer in int32
    #: (standard.py: `input.to(core.float32)` / `input.to(core.int32)` before the reduction)
    NARROW_FLOATS = frozenset({"ct.float16", "ct.bfloat16", "ct.float8_e4m3fn", "ct.float8_e5m2"})
    NARROW_INTS = frozenset({"ct.int8", "ct.int16", "ct.uint8", "ct.uint16"})

    def _bf16_as_f32(self, x: object) -> object:
        """``x`` converted to f32 where it is a bf16 tile (Triton's ``_promote_bfloat16_to_float32``: "hardware
        doesn't support FMAX, FMIN, CMP for bfloat16", applied to tl.maximum / tl.minimum / tl.clamp operands,
        tl.max / tl.min / tl.argmax / tl.argmin inputs, tl.cumsum / tl.cumprod inputs): the result, and what is
        computed from it, is f32 there. Exact (every bf16 value is an f32 value); where launches pass several
        dtypes, converted when each is bf16 or f32."""
        if not isinstance(x, Tile):
            return x
        seen = self._launch_dtypes(x)
        if "ct.bfloat16" in seen and seen <= {"ct.bfloat16", F32}:
            return Tile(f"ct.astype({x.text}, {F32})", x.shape, F32)
        return x

    def _minmax_operand(self, x: Tile) -> Tile:
        """The operand of ``tl.max(x)`` / ``tl.min(x)`` (no indices) as Triton reduces it: a float narrower than
        32 bits converted to f32, an integer narrower than 32 bits to int32 — so the result has that dtype, as
        Triton's (`x - tl.max(x, 0)` of an f16 row is f32 arithmetic there). Exact: every such value is one of the
        wider type. Where launches pass several dtypes, converted when every one of them is narrow or the wide
        type itself. A boolean tile (int1, one bit) is an integer narrower than 32 bits too: `tl.max(x > 0, 0)` (is
        any lane set) is int32 0 / 1 in Triton (cutile refused the port of a bool max: "Unsupported constant type
        bool min", its identity)."""
        seen = self._launch_dtypes(x)
        if self.known_dtype(x) in BOOL:
            return Tile(f"ct.where({x.text}, 1, 0)", x.shape, "ct.int32")
        for narrow, wide in ((self.NARROW_FLOATS, F32), (self.NARROW_INTS, "ct.int32")):
            if seen & narrow and seen <= narrow | {wide}:
                return Tile(f"ct.astype({x.text}, {wide})", x.shape, wide)
        return x

    def _sum_operand(self, node: ast.Call, kw: dict, x: Tile) -> Tile:
        """What ``tl.sum`` adds up: x converted to ``dtype=`` when given; else, as triton.language's _pick_sum_dtype,
        an integer tile narrower than 32 bits widened to int32 (uint32 unsigned), a boolean one counted as int32."""
        dt_node = kw.get("dtype") or (node.args[3] if len(node.args) > 3 else None)
        if dt_node is not None and not (isinstance(dt_node, ast.Constant) and dt_node.value is None):
            dt = self.ev(dt_node)
            if not isinstance(dt, DType):
                raise self.fail(dt_node, "tl.sum's dtype= must be a tl dtype")
            if dt.text == "ct.bool_":
                raise self.fail(dt_node, "tl.sum with dtype=tl.int1")
            if self.known_dtype(x) in BOOL:
                x = Tile(f"ct.where({x.text}, 1, 0)", x.shape, "ct.int32")
            return Tile(f"ct.astype({x.text}, {dt.text})", x.shape, dt.text)
        kind = self.known_dtype(x)
        if kind in BOOL:
            return Tile(f"ct.where({x.text}, 1, 0)", x.shape, "ct.int32")
        seen = self._launch_dtypes(x)   # (launches passing int8 and int32: each int8 one widened, as Triton does)
        if seen & set(SUM_WIDENED):
            wide = {SUM_WIDENED.get(d, d) for d in seen}
            if len(wide) != 1:
                raise self.fail(node, f"tl.sum of a tile that is {', '.join(sorted(seen))} at the captured launches: "
                                      "Triton adds the narrow integers in 32 bits, the others in their own type "
                                      "(capture them apart)")
            dt = wide.pop()
            return Tile(f"ct.astype({x.text}, {dt})", x.shape, dt)
        return x

    def histogram(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.histogram(x, num_bins, mask=None)`` of a 1-D integer tile: the count of each bin value b in [0,
        num_bins) (values outside it counted in no bin, as Triton's interpreter's np.histogram), as an int32 tile
        of num_bins: a sum over x's axis of the one-hot comparison ``x[:, None] == arange(num_bins)[None, :]`` (masked
        lanes counted nowhere). Exact; a [len(x), num_bins] tile is built."""
        x = self._named(self._tile_arg(node, kw, 0, "input"), "hist")
        if len(x.shape) != 1:
            raise self.fail(node, "tl.histogram of a tile that is not 1-D")
        kind = self.known_dtype(x)
        if kind not in INT_DTYPES + ("ct.uint16", "ct.uint64"):
            raise self.fail(node, "tl.histogram of a tile not known to be of integers")
        bins = self.scalar(self._arg(node, kw, 1, "num_bins"))
        wide = kind in ("ct.int64", "ct.uint64")
        xs = x.text if kind in ("ct.int32", "ct.int64") else f"ct.astype({x.text}, ct.int32)"
        if kind in ("ct.uint32", "ct.uint64"):   # unsigned: compared as the same bits of the signed type
            xs = f"ct.bitcast({x.text}, {'ct.int64' if wide else 'ct.int32'})"
        bin_ids = f"ct.reshape(ct.arange({bins}, dtype={'ct.int64' if wide else 'ct.int32'}), (1, {bins}))"
        hit = f"ct.where(ct.reshape({xs}, ({x.shape[0]}, 1)) == {bin_ids}, 1, 0)"
        mask_node = kw.get("mask") or (node.args[2] if len(node.args) > 2 else None)
        if mask_node is not None and not (isinstance(mask_node, ast.Constant) and mask_node.value is None):
            m = self.materialize(self._value(self.ev(mask_node), node), node)
            if self.known_dtype(m) not in BOOL:
                m = Tile(f"{_paren(m.text)} != 0", m.shape, "bool")
            m = self._named(m, "hist")
            hit = f"ct.where(ct.reshape({m.text}, ({x.shape[0]}, 1)), {hit}, 0)"
        return Tile(f"ct.sum({hit}, axis=0)", (bins,), "ct.int32")

    def _spelled(self, node: ast.Call, fn: str) -> str:
        """The function as the kernel names it (`libdevice.rint`, `tl.math.erf`), for messages."""
        text = ast.unparse(node.func)
        return text if text.endswith(fn) else f"tl.{fn}"

    def rounding(self, node: ast.Call, fn: str) -> Tile:
        """libdevice's ``rint`` (to nearest, ties to even: Triton's ``round`` of a quantization), ``round`` (ties
        away from zero) and ``trunc``, written exactly with ``ct.floor`` / ``ct.ceil`` (cuTile Python 1.7 has no
        rounding function), bit for bit: the sign of zero and ±inf / nan included."""
        x = self.materialize(self._value(self.ev(node.args[0]), node), node)
        if self.known_dtype(x) not in (F32, "ct.float16", "ct.bfloat16", "ct.float64"):
            raise self.fail(node, f"{self._spelled(node, fn)} of a tile that is not known to be a float")
        name = self._named(x, fn).text
        if fn == "trunc":
            return Tile(f"ct.where({name} < 0, ct.ceil({name}), ct.floor({name}))", x.shape, x.dtype)
        # on |x| (a - floor(a) is exact for a >= 0; for x in (-1, 0) x - floor(x) is not), then x's sign back:
        # -r for x < 0 (round(-0.3) is -0.0), x itself for ±0
        a = self._named(Tile(f"ct.abs({name})", x.shape, x.dtype), f"{fn}_abs").text
        f, d = f"ct.floor({a})", f"({a} - ct.floor({a}))"
        # ties: up when floor(|x|) is odd (rint: to even), always (round: away from zero); nested selects, not `&`
        # of comparisons (cutile 0.3.1 cannot type `eq_tile(..) & b` with b a bool tile bound to a name)
        tie = f"ct.where(ct.floor({a} * 0.5) * 2.0 != {f}, {f} + 1.0, {f})" if fn in ("rint", "nearbyint") \
            else f"{f} + 1.0"
        r = self._named(Tile(f"ct.where({d} > 0.5, {f} + 1.0, ct.where({d} < 0.5, {f}, {tie}))", x.shape, x.dtype),
                        f"{fn}_r").text
        return Tile(f"ct.where({name} < 0, -{r}, ct.where({name} == 0, {name}, {r}))", x.shape, x.dtype)

    def int_bits(self, node: ast.Call, fn: str) -> Tile:
        """libdevice's ``popc`` / ``clz`` / ``brev`` of an int32 tile (``__nv_popc``: the number of bits set;
        ``__nv_clz``: the leading zero bits, 32 for 0; ``__nv_brev``: the bits in reverse order; each an int32),
        written exactly with shifts and masks on its uint32 bits (cuTile Python 1.7 has none of them): a pairwise
        bit count, the bits right of the highest one set then counted, swaps of halves, quarters, .. single bits.
        Every literal below 2**31 (cutile parses literals as i32)."""
        x = self.materialize(self._value(self.ev(node.args[0]), node), node)
        if self.known_dtype(x) not in ("ct.int32", "ct.uint32"):
            raise self.fail(node, f"{self._spelled(node, fn)} of a tile not known to be int32 (libdevice's "
                                  f"{fn} takes a 32-bit integer; {fn}ll, a 64-bit one, is not lowered)")
        u = self._named(Tile(f"ct.bitcast({x.text}, ct.uint32)" if self.known_dtype(x) == "ct.int32" else x.text,
                             x.shape, "ct.uint32"), f"{fn}_u").text

        def popc(v: str) -> str:
            return self._popc_u32(v, x.shape)

        if fn == "popc":
            return Tile(popc(u), x.shape, "ct.int32")
        if fn == "clz":
            v = u
            for k in (1, 2, 4, 8, 16):   # every bit right of the highest one set, set: 32 - their count
                v = self._named(Tile(f"{v} | ({v} >> {k})", x.shape, "ct.uint32"), "clz_smear").text
            return Tile(f"32 - {popc(v)}", x.shape, "ct.int32")
        v = u
        for k, m in ((1, "0x55555555"), (2, "0x33333333"), (4, "0x0F0F0F0F"), (8, "0x00FF00FF")):
            v = self._named(Tile(f"(({v} >> {k}) & {m}) | (({v} & {m}) << {k})", x.shape, "ct.uint32"),
                            "brev_swap").text
        out = f"({v} >> 16) | ({v} << 16)"
        return Tile(f"ct.bitcast({out}, ct.int32)" if self.known_dtype(x) == "ct.int32" else out, x.shape,
                    self.known_dtype(x))

    def _popc_u32(self, v: str, shape: tuple[str, ...]) -> str:
        """The number of bits set in the uint32 tile ``v``, as an int32 (a pairwise bit count; int_bits)."""
        a = self._named(Tile(f"{v} - (({v} >> 1) & 0x55555555)", shape, "ct.uint32"), "popc_2").text
        b = self._named(Tile(f"({a} & 0x33333333) + (({a} >> 2) & 0x33333333)", shape, "ct.uint32"),
                        "popc_4").text
        c = self._named(Tile(f"({b} + ({b} >> 4)) & 0x0F0F0F0F", shape, "ct.uint32"), "popc_8").text
        d = self._named(Tile(f"{c} + ({c} >> 8)", shape, "ct.uint32"), "popc_16").text
        return f"ct.astype(({d} + ({d} >> 16)) & 0x3F, ct.int32)"

    def erf(self, node: ast.Call) -> Tile:
        """``tl.math.erf(x)`` / ``libdevice.erf(x)`` of f32: libdevice's ``__nv_erff``, as Triton 3.6 links it
        (nvvm-reflect-ftz set; its PTX for sm_90, build/tri23/gpu/ptx_erf.txt: both spellings compile to the same
        code), written step by step from libdevice.10.bc: t = |x|, big = t >= 1.00295997 (an ordered compare: NaN
        is not big); u = big ? t : x * x (a plain product); six fused multiply-adds p = p * u + c_k (fma.rn.ftz:
        cuTile's product with flush_to_zero fused into the add, as libdevice.fma_rn is lowered) over the two
        coefficient sets, selected by big; r = p * v + v with v = big ? -u : x; where big, 1 - ex2.approx.ftz(r)
        with x's sign (x < 0: the big lanes are finite or infinite, never NaN or -0.0). The same operations in the
        same order: Triton's values bit for bit. f64 (`__nv_erf`, another algorithm) is not lowered."""
        x = self._named(self._tile_arg(node, {}, 0, "x"), "erf_x")
        if self.known_dtype(x) != F32:
            raise self.fail(node, f"{self._spelled(node, 'erf')} of a tile not known to be f32 (libdevice's f32 "
                                  "erff is lowered; its f64 erf is not)")
        big = self._named(Tile(f"ct.abs({x.text}) >= {ERF_BIG!r}", x.shape, "bool"), "erf_big").text
        u = self._named(Tile(f"ct.where({big}, ct.abs({x.text}), {x.text} * {x.text})", x.shape, F32), "erf_u").text

        def coeff(k: int) -> str:
            return f"ct.where({big}, {ERF_BIG_COEFFS[k]!r}, {ERF_SMALL_COEFFS[k]!r})"

        p = self._named(Tile(f"ct.mul({coeff(0)}, {u}, flush_to_zero=True) + {coeff(1)}", x.shape, F32), "erf_p")
        for k in range(2, len(ERF_BIG_COEFFS)):
            p = self._named(Tile(f"ct.mul({p.text}, {u}, flush_to_zero=True) + {coeff(k)}", x.shape, F32), "erf_p")
        v = self._named(Tile(f"ct.where({big}, -{u}, {x.text})", x.shape, F32), "erf_v").text
        r = self._named(Tile(f"ct.mul({p.text}, {v}, flush_to_zero=True) + {v}", x.shape, F32), "erf_r").text
        one = self._named(Tile(f"1.0 - ct.exp2({r}, flush_to_zero=True)", x.shape, F32), "erf_one").text
        return Tile(f"ct.where({big}, ct.where({x.text} < 0.0, -{one}, {one}), {r})", x.shape, F32)

    def _libdevice_operands(self, node: ast.Call, fn: str, literals: bool, why: str) -> tuple[list, list, tuple]:
        """A libdevice call's operands as tiles (an int32 literal beside a tile, where ``literals``: an int32 tile of
        it, as Triton's int32 literal; libdevice's operands are one dtype), their dtypes and the shape they
        broadcast to; a scalar operand otherwise refused (``why``)."""
        vals = [self._value(self.ev(a), node) for a in node.args]
        tiles = [self.materialize(v, node) for v in vals if not isinstance(v, Scalar)]
        if not tiles or any(isinstance(v, Scalar) and not (literals and _i32_literal(v.text)) for v in vals):
            raise self.fail(node, f"{self._spelled(node, fn)} of a scalar: {why}")
        like = tiles[0]
        xs = [Tile(f"ct.full({_tup(like.shape)}, {v.text}, dtype=ct.int32)", like.shape, "ct.int32")
              if isinstance(v, Scalar) else self.materialize(v, node) for v in vals]
        return xs, [self.known_dtype(x) for x in xs], _broadcast_all(x.shape for x in xs)

    def libdevice_more(self, node: ast.Call, fn: str) -> Tile:
        """libdevice's ``saturatef``, ``fdim``, ``float_as_int`` / ``int_as_float`` / ``float_as_uint`` /
        ``uint_as_float``, ``mulhi``, ``hadd`` / ``rhadd``, ``mul24`` and ``ffs``, as libdevice.10.bc defines them
        (Triton's own copy, disassembled; it links it with nvvm-reflect-ftz set): ``__nv_saturatef`` is
        ``llvm.nvvm.saturate.ftz.f`` (x clamped to [0, 1], NaN and subnormals to 0: 0 below 2**-126);
        ``__nv_fdimf`` ``a <= b ? 0 : a - b`` (an ordered compare: NaN gives a - b, NaN; fdim(inf, inf) is 0);
        the ``*_as_*`` functions bitcasts; ``__nv_mulhi`` the high half of the signed 64-bit product (the uint32
        form is tl.umulhi's); ``__nv_hadd`` ``(a & b) + ((a ^ b) >> 1)`` and ``__nv_rhadd`` ``(a | b) - ((a ^ b)
        >> 1)`` (arithmetic shifts); ``__nv_mul24`` the product of each operand's low 24 bits sign-extended (shl
        8, ashr 8), wrapping; ``__nv_ffs`` the 1-based position of the lowest bit set, 0 for 0 (bitreverse, then
        bfind.shiftamt + 1): the bits set in ``x & -x`` smeared rightwards. Exact; the integer ones take int32 tiles (their 64-bit forms
        are not lowered)."""
        if fn in ("saturatef", "fdim"):
            xs = self._float_operands(node, fn)
            if {self.known_dtype(x) for x in xs} != {F32}:
                raise self.fail(node, f"{self._spelled(node, fn)} of tiles not known to be f32 (lowered for f32; "
                                      "libdevice's f64 fdim is not)")
            shape = _broadcast_all(x.shape for x in xs)
            if fn == "saturatef":
                x = self._named(xs[0], "saturated").text
                return Tile(f"ct.where({x} >= 1.1754943508222875e-38, ct.minimum({x}, 1.0), 0.0)", shape, F32)
            a, b = (self._named(t, n).text for t, n in zip(xs, ("fdim_a", "fdim_b")))
            return Tile(f"ct.where({a} <= {b}, 0.0, {a} - {b})", shape, F32)
        xs, dts, shape = self._libdevice_operands(node, fn, True, "lowered for tiles, and an int32 literal beside "
                                                                 "one (`mulhi(x, 12345)`)")
        casts = {"float_as_int": (F32, "ct.int32"), "float_as_uint": (F32, "ct.uint32"),
                 "int_as_float": ("ct.int32", F32), "uint_as_float": ("ct.uint32", F32)}
        if fn in casts:
            src, dst = casts[fn]
            if dts[0] != src:
                raise self.fail(node, f"{self._spelled(node, fn)} of a tile not known to be {src[3:]} (libdevice "
                                      f"has it for {src[3:]} only)")
            return Tile(f"ct.bitcast({xs[0].text}, {dst})", xs[0].shape, dst)
        if fn == "mulhi" and set(dts) == {"ct.uint32"}:
            return self.umulhi(node, "umulhi", {})
        if set(dts) != {"ct.int32"}:
            raise self.fail(node, f"{self._spelled(node, fn)} of {sorted(map(str, set(dts)))} tiles: lowered for "
                                  "int32 (libdevice's 64-bit and unsigned forms of it are not)")
        if fn == "ffs":
            x = self._named(xs[0], "ffs").text
            low = self._named(Tile(f"ct.bitcast({x} & (0 - {x}), ct.uint32)", shape, "ct.uint32"), "ffs_low").text
            v = low
            for k in (1, 2, 4, 8, 16):   # the lowest bit set (1 << p) and every bit right of it: p + 1 bits
                v = self._named(Tile(f"{v} | ({v} >> {k})", shape, "ct.uint32"), "ffs_smear").text
            return Tile(self._popc_u32(v, shape), shape, "ct.int32")
        a, b = (self._named(t, n).text for t, n in zip(xs, ("lhs", "rhs")))
        if fn == "mulhi":
            return Tile(f"ct.astype((ct.astype({a}, ct.int64) * ct.astype({b}, ct.int64)) >> 32, ct.int32)",
                        shape, "ct.int32")
        if fn == "hadd":
            return Tile(f"({a} & {b}) + (({a} ^ {b}) >> 1)", shape, "ct.int32")
        if fn == "rhadd":
            return Tile(f"({a} | {b}) - (({a} ^ {b}) >> 1)", shape, "ct.int32")
        return Tile(f"(({a} << 8) >> 8) * (({b} << 8) >> 8)", shape, "ct.int32")   # mul24

    def libdevice_convert(self, node: ast.Call, fn: str) -> Tile:
        """libdevice's conversions (``LIBDEVICE_CONVERT``: ``int2float_rn`` .. ``ull2double_rn``, ``double2float_rn``
        / ``_rz``) as ``ct.astype`` (rounded to nearest, or RZ); its bit-level functions of doubles as bitcasts —
        ``double2hiint`` the high 32 bits of the f64's bits, ``double2loint`` the low ones (``mov.b64 {lo, hi}``),
        ``hiloint2double(hi, lo)`` the f64 of ``hi << 32 | lo`` (lo zero-extended), ``double_as_longlong`` /
        ``longlong_as_double`` bitcasts; ``sad(a, b, c)`` PTX's ``sad.s32`` / ``sad.u32`` (``__nv_sad`` of int32,
        ``__nv_usad`` of uint32 a and b; c uint32 in both, as libdevice declares them: Triton refuses an int32 c):
        ``c + (a < b ? b - a : a - b)`` in 32 bits, wrapping, in a's and b's order; ``double2float_rn`` / ``_rz``
        flush a subnormal result to zero (cvt.rn.ftz.f32.f64 under Triton); ``rcp_rn(x)`` .. ``rcp_ru`` the quotient ``1 / x`` rounded
        so (``__nv_frcp_rn`` is rcp.rn.ftz.f32 under Triton: f32 flushes subnormals). Exact; each takes the dtypes
        libdevice declares it for (Triton's extern_elementwise refuses others), refused otherwise."""
        xs, dts, shape = self._libdevice_operands(node, fn, fn in ("sad", "hiloint2double"),
                                                  "lowered for tiles (and an int32 literal beside one: "
                                                  "`hiloint2double(hi, 0)`)")
        want = {"double2hiint": ("ct.float64",), "double2loint": ("ct.float64",),
                "hiloint2double": ("ct.int32", "ct.int32"), "double_as_longlong": ("ct.float64",),
                "longlong_as_double": ("ct.int64",), "sad": (("ct.int32", "ct.uint32"),) * 2 + ("ct.uint32",)}
        if rcp := LIBDEVICE_RCP.fullmatch(fn):
            if dts[0] not in (F32, "ct.float64"):
                raise self.fail(node, f"{self._spelled(node, fn)} of a tile not known f32 or f64 (libdevice has it "
                                      "for those only)")
            ftz = ", flush_to_zero=True" if dts[0] == F32 else ""
            one = f"ct.full((), 1.0, dtype={dts[0]})"
            return Tile(f"ct.truediv({one}, {xs[0].text}, rounding_mode=ct.RoundingMode."
                        f"{ROUNDING_MODES[rcp.group(1)]}{ftz})", xs[0].shape, dts[0])
        if fn in LIBDEVICE_CONVERT:
            src, dst, mode = LIBDEVICE_CONVERT[fn]
            if dts[0] != src:
                raise self.fail(node, f"{self._spelled(node, fn)} of a tile not known to be {TRITON_NAMES_OF[src]} "
                                      f"(libdevice's {fn} takes {TRITON_NAMES_OF[src]})")
            rounding = f", rounding_mode=ct.RoundingMode.{mode}" if mode else ""
            out = Tile(f"ct.astype({xs[0].text}, {dst}{rounding})", xs[0].shape, dst)
            if src == "ct.float64" and dst == F32:
                # `__nv_double2float_rn` / `_rz` are cvt.rn.ftz.f32.f64 / cvt.rz.ftz.f32.f64 under Triton (its PTX
                # for sm_90, build/r24t/gpu/ptx_probe*.txt): a subnormal f32 result flushed to zero, its sign kept
                r = self._named(out, "d2f").text
                out = Tile(f"ct.where(ct.abs({r}) < 1.1754943508222875e-38, {r} * 0.0, {r})", out.shape, F32)
            return out
        for dt, ok in zip(dts, want[fn]):
            if dt not in (ok if isinstance(ok, tuple) else (ok,)):
                raise self.fail(node, f"{self._spelled(node, fn)} of {sorted(map(str, set(dts)))} tiles: libdevice "
                                      f"has it for {', '.join(TRITON_NAMES_OF[o if isinstance(o, str) else o[0]] for o in want[fn])}")
        if fn == "double2hiint":
            return Tile(f"ct.astype(ct.bitcast({xs[0].text}, ct.int64) >> 32, ct.int32)", shape, "ct.int32")
        if fn == "double2loint":
            return Tile(f"ct.astype(ct.bitcast({xs[0].text}, ct.int64), ct.int32)", shape, "ct.int32")
        if fn == "double_as_longlong":
            return Tile(f"ct.bitcast({xs[0].text}, ct.int64)", shape, "ct.int64")
        if fn == "longlong_as_double":
            return Tile(f"ct.bitcast({xs[0].text}, ct.float64)", shape, "ct.float64")
        if fn == "hiloint2double":
            hi, lo = xs
            return Tile(f"ct.bitcast((ct.astype({hi.text}, ct.int64) << 32) | "
                        f"ct.astype(ct.bitcast({lo.text}, ct.uint32), ct.int64), ct.float64)", shape, "ct.float64")
        if dts[0] != dts[1]:
            raise self.fail(node, f"{self._spelled(node, fn)} of {dts[0]} and {dts[1]} tiles: libdevice has it for "
                                  "int32 (__nv_sad) or uint32 (__nv_usad) pairs")
        a, b = (self._named(t, n).text for t, n in zip(xs[:2], ("sad_a", "sad_b")))
        c = xs[2].text if dts[2] == dts[0] else f"ct.bitcast({xs[2].text}, {dts[0]})"
        return Tile(f"ct.where({a} < {b}, {b} - {a}, {a} - {b}) + {c}", shape, dts[0])

    def float_to_int(self, node: ast.Call, fn: str, src: str, dst: str, mode: str) -> Tile:
        """libdevice's ``float2int_rn`` .. ``double2ll_ru``: the float rounded as the mode says (rn: to nearest,
        ties to even — ``rint``; rz: toward zero; rd: down; ru: up), exactly (``rounding``, ``ct.floor`` /
        ``ct.ceil``), then converted (an integral value: the conversion's own rounding has nothing left to do)."""
        want = F32 if src == "float" else "ct.float64"
        if mode in ("rn", "rz"):   # (the argument evaluated once, by rounding)
            r = self.rounding(node, "rint" if mode == "rn" else "trunc")
        else:
            x = self.materialize(self._value(self.ev(node.args[0]), node), node)
            r = Tile(f"ct.{'floor' if mode == 'rd' else 'ceil'}({x.text})", x.shape, x.dtype)
        if self.known_dtype(r) != want:
            raise self.fail(node, f"{self._spelled(node, fn)} of a tile not known to be {want[3:]} (libdevice's "
                                  f"{fn} takes {src})")
        dt = "ct.int32" if dst == "int" else "ct.int64"
        return Tile(f"ct.astype({r.text}, {dt})", r.shape, dt)

    def float_test(self, node: ast.Call, fn: str) -> Tile:
        """libdevice's ``isnan`` / ``isinf`` / ``finitef`` / ``isfinited`` (Triton converts their int32 to a boolean):
        ``ct.isnan``; ``|x| == inf``; ``|x| < inf`` (false for nan and ±inf) — exact on every float."""
        x = self.materialize(self._value(self.ev(node.args[0]), node), node)
        if self.known_dtype(x) not in (F32, "ct.float16", "ct.bfloat16", "ct.float64"):
            raise self.fail(node, f"{self._spelled(node, fn)} of a tile that is not known to be a float")
        if fn == "isnan":
            return Tile(f"ct.isnan({x.text})", x.shape, "ct.bool_")
        op = "==" if fn == "isinf" else "<"
        return Tile(f"(ct.abs({x.text}) {op} float('inf'))", x.shape, "ct.bool_")

    def _float_operands(self, node: ast.Call, fn: str) -> list[Tile]:
        """A libdevice function's operands as tiles; a number among tiles (``libdevice.fmax(x, 0.0)``,
        ``fast_dividef(x, 7.0)``, a float scalar argument) a 0-d tile of their dtype, as Triton converts it (a Python
        scalar takes the tile's float type). Numbers only, or with tiles not known f32 / f64 alike: refused."""
        vals = [self._value(self.ev(a), node) for a in node.args]
        tiles = [self.materialize(v, node) for v in vals if not isinstance(v, Scalar)]
        if len(tiles) != len(vals):
            dt0 = {self.known_dtype(t) for t in tiles}
            if len(dt0) != 1 or not dt0 <= {F32, "ct.float64"}:
                raise self.fail(node, f"{self._spelled(node, fn)} of numbers only, or of numbers and tiles not known "
                                      "to be f32 or f64 alike (libdevice has it for those only)")
            dt = next(iter(dt0))
            vals = [Tile(f"ct.full((), {v.text}, dtype={dt})", (), dt) if isinstance(v, Scalar) else v for v in vals]
        return [self.materialize(v, node) for v in vals]

    def libdevice_bits(self, node: ast.Call, fn: str) -> Tile:
        """libdevice's ``fmax`` / ``fmin`` / ``copysign`` / ``signbit`` of f32 or f64 tiles, as libdevice.10.bc
        defines them (Triton links it with nvvm-reflect-ftz set: its ``enable_reflect_ftz``): ``__nv_fmaxf`` is
        ``llvm.nvvm.fmax.ftz.f`` there — ``ct.maximum(.., flush_to_zero=True)`` (f64's ``fmax.d`` flushes nothing;
        NaN-ignoring as PTX max, ct.maximum's default); ``__nv_copysignf`` the magnitude bits of x with the sign bit
        of y; ``__nv_signbitf`` the sign bit as an int32 0 / 1 (the bits shifted right 31, logically). Exact.
        Numbers among the tiles: ``_float_operands``."""
        xs = self._float_operands(node, fn)
        dts = {self.known_dtype(x) for x in xs}
        if len(dts) != 1 or not dts <= {F32, "ct.float64"}:
            raise self.fail(node, f"{self._spelled(node, fn)} of tiles not known to be f32 or f64 alike (libdevice "
                                  "has it for those only)")
        f64 = dts == {"ct.float64"}
        shape = _broadcast_all(x.shape for x in xs)
        dt = "ct.float64" if f64 else F32
        if fn in ("fmax", "fmin"):
            ftz = "" if f64 else ", flush_to_zero=True"
            return Tile(f"ct.{'maximum' if fn == 'fmax' else 'minimum'}({xs[0].text}, {xs[1].text}{ftz})", shape, dt)
        ut, top = ("ct.uint64", 63) if f64 else ("ct.uint32", 31)
        bits = [f"ct.bitcast({x.text}, {ut})" for x in xs]
        if fn == "signbit":
            return Tile(f"ct.astype({bits[0]} >> {top}, ct.int32)", shape, "ct.int32")
        # the sign bit of y put on x's magnitude (shifts keep every literal small: cutile parses literals as i32)
        return Tile(f"ct.bitcast((({bits[0]} << 1) >> 1) | (({bits[1]} >> {top}) << {top}), {dt})", shape, dt)

    def _where_literals(self, vals: list) -> list:
        """``tl.where``'s two values with an integer literal written as a float where the other is a float literal
        or a float tile (Triton promotes `tl.where(m, 0, -1.0e6)` to f32; the translator wants one dtype)."""
        floaty = any(isinstance(v, Scalar) and _float_literal(v.text) for v in vals) or any(
            isinstance(v, Tile) and self.known_dtype(v) in (F32, "ct.float16", "ct.bfloat16", "ct.float64")
            for v in vals)
        if not floaty:
            return vals
        return [Scalar(f"{v.text}.0") if isinstance(v, Scalar) and v.text.lstrip("-").isdigit() else v for v in vals]

    # ------------------------------------------------ triton.language functions cuTile writes otherwise

    def _arg(self, node: ast.Call, kw: dict, k: int, name: str, default: ast.expr | None = None) -> ast.expr:
        """Argument ``name`` of a call, by keyword or at position ``k`` (``default`` when absent, else refused)."""
        if name in kw:
            return kw[name]
        if k < len(node.args):
            return node.args[k]
        if default is None:
            raise self.fail(node, f"`{ast.unparse(node.func)}` without its argument {name!r}")
        return default

    def _tile_arg(self, node: ast.Call, kw: dict, k: int, name: str) -> Tile:
        return self.materialize(self._value(self.ev(self._arg(node, kw, k, name)), node), node)

    def _flag(self, node: ast.Call, kw: dict, k: int, name: str, default: bool) -> bool:
        v = self._arg(node, kw, k, name, ast.Constant(default))
        truth = self.static_truth(v) if not isinstance(v, ast.Constant) else bool(v.value)
        if truth is None:
            why = f"{name}= must be a literal or a constexpr the launches agree on"
            if self.launch_truths(v) is not None:   # (constexprs the launches disagree on: `block` splits it)
                raise _FlagSplit(self.k, v, why)
            raise self.fail(v, why)
        return truth

    def _named(self, t: Tile, what: str) -> Tile:
        """``t`` bound to a fresh name of the lowered kernel (an expression used more than once is computed once)."""
        if t.text.isidentifier():
            return t
        self._temps = getattr(self, "_temps", 0) + 1
        name = f"{self.prefix}{what}{self._temps}"
        self.emit(f"{name} = {t.text}")
        return replace(t, text=name)

    def triton_div(self, a: "Tile | Scalar", b: "Tile | Scalar", shape: tuple) -> Tile:
        """Triton's f32 quotient ``a / b`` (``div.full.f32``), bit for bit: cuTile's APPROX division (the reciprocal
        approximation times the numerator, both scaled by 2**24 where |b| < 2**-126) of the operands scaled by 1/4
        where |b| > 2**126 (module docstring). A scalar operand is a tile of the quotient's shape (Triton divides
        element by element). One known when the kernel compiles (a literal, a constexpr: cuTile Python folds
        arithmetic on it) is scaled by 1/4 in its constant, and a denominator known so decides the scaling here."""
        def static(x: "Tile | Scalar") -> list | None:
            return self.launch_values(x.text) if isinstance(x, Scalar) else None

        def full(text: str) -> str:
            return f"ct.full({_tup(shape)}, {text}, dtype={F32})"

        def quarter(x: Scalar) -> str:
            try:
                return repr(float(x.text) * 0.25)   # a literal: the constant itself
            except ValueError:
                return f"{_paren(x.text)} * 0.25"

        def operand(x: "Tile | Scalar", what: str) -> tuple[str, str]:
            """(the operand, the operand scaled by 1/4) as tile expressions."""
            if isinstance(x, Scalar) and static(x) is not None:
                return full(x.text), full(quarter(x))
            t = self._named(Tile(full(x.text), shape, F32) if isinstance(x, Scalar) else x, what)
            return t.text, f"{t.text} * 0.25"

        approx = "rounding_mode=ct.RoundingMode.APPROX"
        (num, num4), known = operand(a, "num"), static(b)
        if known is not None and all(isinstance(v, (int, float)) for v in known):
            scaled = [abs(v) > DIV_FULL_SCALED_ABOVE for v in known]
            if not any(scaled):
                return Tile(f"ct.truediv({num}, {full(b.text)}, {approx})", shape, F32)
            if all(scaled):
                return Tile(f"ct.truediv({num4}, {full(quarter(b))}, {approx})", shape, F32)
        den, den4 = operand(b, "den")
        big = self._named(Tile(f"ct.abs({den}) > {DIV_FULL_SCALED_ABOVE!r}",
                               shape if isinstance(b, Scalar) else b.shape, "bool"), "big")
        return Tile(f"ct.truediv(ct.where({big.text}, {num4}, {num}), ct.where({big.text}, {den4}, {den}), {approx})",
                    shape, F32)

    def _math_dtype_check(self, node: ast.Call, fn: str, vals: list) -> None:
        """Triton 3.6's ``tl.exp`` .. ``tl.ceil`` take the float dtypes its ``math._check_dtype`` names only (an f16
        tile raises "Expected dtype ['fp32', 'fp64'] but got fp16" when Triton compiles the kernel): refused alike,
        where a tile's dtype is known, rather than ported as a computation Triton never makes."""
        allowed = TL_MATH_DTYPES.get(fn)
        if allowed is None or self._libdevice(node):
            return
        for v in vals:
            dt = self.known_dtype(v) if isinstance(v, Tile) else None
            if dt is not None and dt not in allowed:
                names = [TRITON_NAMES_OF[a] for a in allowed]
                raise self.fail(node, f"`{ast.unparse(node)}`: Triton 3.6 takes tl.{fn} of {' / '.join(names)} only "
                                      f"(it raises \"Expected dtype {names} but got {TRITON_NAMES_OF.get(dt, dt)}\"); "
                                      "convert the tile first (`x.to(tl.float32)`), as Triton asks")

    def _libdevice(self, node: ast.Call) -> bool:
        """Whether the call names libdevice's function (``libdevice.sqrt``, ``ld.sqrt`` of a module imported as
        ``ld``, or a bare name imported from it)."""
        base = node.func.value if isinstance(node.func, ast.Attribute) else None
        while isinstance(base, ast.Attribute):
            base = base.value
        return "libdevice" in ast.unparse(node.func) or \
            (isinstance(node.func, ast.Name) and node.func.id in self.k.libdevice) or \
            (isinstance(base, ast.Name) and base.id in self.k.libdevice_modules and base.id not in self.env)

    def like(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.zeros_like(x)`` / ``tl.full_like(x, v)`` / ``tl.ones_like(x)`` (``dtype=`` overrides x's)."""
        if fn == "zeros_like" and (set(kw) - {"input"} or len(node.args) > 1):
            # Triton 3.6's `zeros_like(input)` takes no dtype: it raises "zeros_like() got an unexpected keyword
            # argument 'dtype'" (it was ported, computing what Triton never computes)
            raise self.fail(node, f"`{ast.unparse(node)}`: Triton 3.6's tl.zeros_like takes the tensor only (it "
                                  "raises a TypeError); write `tl.zeros(x.shape, dtype)`")
        x = self._tile_arg(node, kw, 0, "input")
        dt_node = kw.get("dtype")
        dtype = self.ev(dt_node).text if dt_node is not None else x.dtype  # type: ignore[union-attr]
        if dtype is None:
            raise self.fail(node, f"tl.{fn}: the dtype of `{ast.unparse(node.args[0])}` is not known here")
        value = {"zeros_like": "0", "ones_like": "1"}.get(fn) or self.scalar(self._arg(node, kw, 1, "fill_value"))
        return Tile(f"ct.full({_tup(x.shape)}, {value}, dtype={dtype})", x.shape, dtype)

    def fma(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.fma(a, b, c)``: ``a * b + c``, which cuTile Python compiles to one fused multiply-add."""
        vals = [self._value(self.ev(self._arg(node, kw, k, n)), node) for k, n in enumerate(("x", "y", "z"))]
        a, b, c = (v if isinstance(v, Scalar) else self.materialize(v, node) for v in vals)
        prod = self.binop(ast.Mult(), a, b, node)
        return self.binop(ast.Add(), prod, c, node)  # type: ignore[return-value]

    def umulhi(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.umulhi(x, y)`` of 32-bit integers: the high 32 bits of the unsigned 64-bit product (Triton's
        `tt.mulhiui`, unsigned whatever the operands' signedness), as tl.rand's Philox is written: each operand's
        32 bits zero-extended to uint64, multiplied, shifted right by 32, truncated back to the operands' dtype. A
        literal operand at or above 2^31 is multiplied in 16-bit halves (cutile 0.3.1 parses literals as i32).
        64-bit operands (a 128-bit product) are refused."""
        vals = [self._value(self.ev(self._arg(node, kw, k, n)), node) for k, n in enumerate(("x", "y"))]
        tiles = [v for v in vals if not isinstance(v, Scalar)]   # (tiles, index vectors)
        if not tiles:
            raise self.fail(node, "tl.umulhi of two scalars: not lowered (a tile operand is expected)")
        x = self.materialize(tiles[0], node)
        dt = self.known_dtype(x)
        if dt not in ("ct.int32", "ct.uint32"):
            raise self.fail(node, f"tl.umulhi of {dt or 'an operand of unknown dtype'}: lowered for 32-bit integers "
                                  "(the 64-bit product's high half; 64-bit operands need a 128-bit product)")

        def wide(t: Tile) -> str:
            return f"ct.astype(ct.astype({t.text}, ct.uint32), ct.uint64)"

        texts, lit = [], None
        for v in vals:
            if isinstance(v, Scalar) and v.text.isdigit() or isinstance(v, Scalar) and v.text.startswith("0x"):
                c = int(v.text, 0)
                if not 0 <= c < 2 ** 32:
                    raise self.fail(node, f"tl.umulhi by {v.text}: a 32-bit unsigned constant is expected")
                lit = c
                continue
            if isinstance(v, Scalar):   # a runtime scalar (`tl.umulhi(h, NB.to(tl.uint32))`): its 32 bits, as a
                # tile's, multiplying every lane (was "a literal or a tile is expected")
                texts.append(f"ct.astype(ct.astype({v.text}, ct.uint32), ct.uint64)")
                continue
            t = self.materialize(v, node)
            if self.known_dtype(t) != dt:
                raise self.fail(node, f"tl.umulhi of {dt} and {self.known_dtype(t)}: one dtype is expected")
            texts.append(wide(t))
        if lit is not None:
            x64 = texts[0]
            prod = f"((({x64} * {hex(lit >> 16)}) << 16) + {x64} * {hex(lit & 0xFFFF)})"
        else:
            prod = f"({texts[0]} * {texts[1]})"
        return Tile(f"ct.astype(ct.astype({prod} >> 32, ct.uint32), {dt})", x.shape, dt)

    def clamp(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.clamp(x, lo, hi)``: ``minimum(maximum(x, lo), hi)`` (a NaN x gives lo, as Triton's default);
        ``propagate_nan=tl.PropagateNan.ALL``: both with ``propagate_nan=True`` (a NaN x stays NaN)."""
        x = self._bf16_as_f32(self._tile_arg(node, kw, 0, "x"))
        lo, hi = (self._value(self.ev(self._arg(node, kw, k, n)), node) for k, n in ((1, "min"), (2, "max")))
        ints = INT_DTYPES + ("ct.uint16", "ct.uint64", "ct.bool_", "bool")
        if self.known_dtype(x) in ints:
            # semantic.clamp promotes x with the bounds, then takes floats only ("Unexpected dtype int32. Only
            # floating point clamp is supported"): an integer x with a float bound is converted to f32, as the
            # promotion gives; with integer bounds it is Triton's own error (it was ported, silently)
            if any((isinstance(v, Scalar) and self._float_scalar(v)) or
                   (not isinstance(v, Scalar) and self.known_dtype(self.materialize(v, node)) not in ints)
                   for v in (lo, hi)):
                x = Tile(f"ct.astype({x.text}, {F32})", x.shape, F32)
            else:
                raise self.fail(node, f"tl.clamp of {TRITON_NAMES_OF.get(self.known_dtype(x), 'integer')} values: "
                                      "Triton 3.6 clamps floats only (semantic.clamp: \"Unexpected dtype "
                                      f"{TRITON_NAMES_OF.get(self.known_dtype(x), 'int')}. Only floating point "
                                      "clamp is supported\")")
        texts = [v.text if isinstance(v, Scalar) else self._bf16_as_f32(self.materialize(v, node)).text
                 for v in (lo, hi)]
        opts = "".join(f", {o}" for o in self._math_options(
            node, fn, {k: v for k, v in kw.items() if k not in ("x", "min", "max")}))
        return Tile(f"ct.minimum(ct.maximum({x.text}, {texts[0]}{opts}), {texts[1]}{opts})", x.shape, x.dtype)

    def split(self, node: ast.Call, fn: str, kw: dict) -> tuple[Tile, Tile]:
        """``tl.split(x)``: the two halves of x's last axis (of size 2), each ``ct.extract`` of a size-1 slice."""
        x = self._named(self._tile_arg(node, kw, 0, "a"), "pair")
        if not x.shape or x.shape[-1] != "2":
            raise self.fail(node, "tl.split of a tile whose last axis is not of size 2")
        part = x.shape[:-1] + ("1",)
        return tuple(Tile(f"ct.reshape(ct.extract({x.text}, {_tup(['0'] * (len(x.shape) - 1) + [str(k)])}, "  # type: ignore[return-value]
                          f"shape={_tup(part)}), {_tup(x.shape[:-1])})", x.shape[:-1], x.dtype) for k in (0, 1))

    def softmax(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.softmax(x, dim=None, keep_dims=False, ieee_rounding=False)`` as triton.language writes it: ``num =
        exp(x - max(x, dim))``, ``num / sum(num, dim)`` (dim None: 0; Triton's exp, the lowering's division).
        Without keep_dims the reductions broadcast back only along a leading axis (dim 0, or a 1-D tile), as in
        Triton; other dims are refused."""
        x = self._named(self._tile_arg(node, kw, 0, "x"), "smx")
        dim_node = self._arg(node, kw, 1, "dim", ast.Constant(None))
        dim = 0 if isinstance(dim_node, ast.Constant) and dim_node.value is None else self._axis_of(x, dim_node)
        keep = self._flag(node, kw, 2, "keep_dims", False)
        ieee = self._flag(node, kw, 3, "ieee_rounding", False)
        if not x.shape:
            raise self.fail(node, "tl.softmax of a 0-d tile")
        if not keep and dim != 0:
            raise self.fail(node, f"tl.softmax along dim {dim} without keep_dims=True (Triton broadcasts the row "
                                  "maxima along the last axis then): pass keep_dims=True")
        red = tuple("1" if a == dim else d for a, d in enumerate(x.shape))
        # (tl.max widens a 16-bit float to f32 — `_minmax_operand` — so Triton's `x - max(x)` of an f16 row is f32
        # and its exp, sum and quotient are f32; the lowering took the max in f16 and computed them in f16, silently
        # less precise)
        wide = self._minmax_operand(x)
        m = Tile(f"ct.max({wide.text}, axis={dim}, keepdims=True)", red, wide.dtype)
        z = self.binop(ast.Sub(), x, m, node)
        num = self._named(self._exp(self.materialize(z, node)), "smx")
        den = Tile(f"ct.sum({num.text}, axis={dim}, keepdims=True)", red, num.dtype)
        before, self.ieee_div = self.ieee_div, (self.ieee_div or ieee)
        try:
            return self.binop(ast.Div(), num, den, node)  # type: ignore[return-value]
        finally:
            self.ieee_div = before

    def tile_gather(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.gather(src, index, axis)`` (``out[.., i, ..] = src[.., index[.., i, ..], ..]``) within a tile: a one-hot
        selection over a new axis of src's extent along ``axis`` (``index == k``), summed: src's bits (bitcast to an
        integer of its width; narrower than 32 bits widened to int32) where the index matches and 0 elsewhere, so the
        one element is kept exactly (NaNs and signed zeros included), then narrowed and bitcast back. An index outside [0, extent) gives 0 (Triton leaves it undefined).
        A [.., len(index), extent, ..] tile is built."""
        src = self._named(self._tile_arg(node, kw, 0, "src"), "tg")
        index = self._named(self._tile_arg(node, kw, 1, "index"), "tg_idx")
        rank = len(src.shape)
        if not rank or len(index.shape) != rank:
            raise self.fail(node, "tl.gather of tiles of one rank (>= 1) only")
        a = self._axis_of(src, self._arg(node, kw, 2, "axis"))
        kind = self.known_dtype(src)
        bits = {F32: "ct.int32", "ct.float16": "ct.int16", "ct.bfloat16": "ct.int16", "ct.float64": "ct.int64"}
        if kind not in tuple(bits) + INT_DTYPES:
            raise self.fail(node, "tl.gather of a tile whose dtype is not known (a float or integer one)")
        ikind = self.known_dtype(index)
        if ikind not in INT_DTYPES:
            raise self.fail(node, "tl.gather's index must be a tile known to be of integers")
        n = src.shape[a]
        idx_shape = index.shape[:a + 1] + ("1",) + index.shape[a + 1:]
        k_shape = ("1",) * (a + 1) + (n,) + ("1",) * (rank - a - 1)
        src_shape = src.shape[:a] + ("1", n) + src.shape[a + 1:]
        kdt = "ct.int64" if ikind in ("ct.int64", "ct.uint64") else "ct.int32"
        idx_text = index.text if ikind in ("ct.int32", "ct.int64") else f"ct.astype({index.text}, ct.int32)"
        hit = f"ct.reshape({idx_text}, {_tup(idx_shape)}) == ct.reshape(ct.arange({n}, dtype={kdt}), {_tup(k_shape)})"
        value = src.text if kind in INT_DTYPES else f"ct.bitcast({src.text}, {bits[kind]})"
        narrow = (bits.get(kind) or kind) in ("ct.int16", "ct.int8", "ct.uint8")
        if narrow:   # (selected as int32: cutile 0.3.1 builds no 8/16-bit integer zero; truncated back after)
            value = f"ct.astype({value}, ct.int32)"
        picked = f"ct.sum(ct.where({hit}, ct.reshape({value}, {_tup(src_shape)}), 0), axis={a + 1})"
        if kind in INT_DTYPES:
            return Tile(f"ct.astype({picked}, {kind})", index.shape, kind)
        return Tile(f"ct.bitcast(ct.astype({picked}, {bits[kind]}), {kind})", index.shape, kind)

    def bitwise_reduce(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.xor_sum(x, axis, keep_dims)`` / ``tl.reduce_or(x, axis, keep_dims)``: see bitwise_tree."""
        x = self._tile_arg(node, kw, 0, "input")
        axis_node = self._arg(node, kw, 1, "axis", ast.Constant(None))
        return self.bitwise_tree(node, x, "^" if fn == "xor_sum" else "|", axis_node,
                                 self._flag(node, kw, 2, "keep_dims", False))

    def bitwise_tree(self, node: ast.Call, x: Tile, op: str, axis_node: ast.expr, keep: bool) -> Tile:
        """An xor / or / and reduction of an integer tile along an axis of power-of-two size (every axis, one after
        the other, for axis None): halves combined pairwise (``ct.extract`` of a `(.., 2, m / 2, ..)` view) until
        one is left. These operators are associative and commutative, so any order gives Triton's result exactly
        (cutile 0.3.1 builds no ct.reduce with a function of the user's)."""
        seen = self._launch_dtypes(x)   # (launches passing several integer dtypes: each is, the tree is generic)
        if not seen or not (seen <= set(INT_DTYPES + ("ct.uint16", "ct.uint64")) or seen <= set(BOOL)):
            raise self.fail(node, "a bitwise reduction of a tile not known to be of integers")
        if isinstance(axis_node, ast.Constant) and axis_node.value is None:
            t = x
            for _ in range(len(x.shape)):
                t = self.bitwise_tree(node, t, op, ast.Constant(0), False)
            return t
        a = self._axis_of(x, axis_node)
        m = self._static_int(x.shape[a], node, "a bitwise reduction along an axis whose extent")
        if m < 1 or m & (m - 1):
            raise self.fail(node, "a bitwise reduction along an axis whose extent is not a power of two")
        t = self._named(x, "bits")
        while m > 1:
            view = x.shape[:a] + ("2", str(m // 2)) + x.shape[a + 1:]
            v = self._named(Tile(f"ct.reshape({t.text}, {_tup(view)})", view, x.dtype), "bits")
            half = x.shape[:a] + ("1", str(m // 2)) + x.shape[a + 1:]
            lo, hi = (f"ct.extract({v.text}, {_tup(['1' if (k and d == a) else '0' for d in range(len(view))])}, "
                      f"shape={_tup(half)})" for k in (0, 1))
            m //= 2
            out = x.shape[:a] + (str(m),) + x.shape[a + 1:]
            t = self._named(Tile(f"ct.reshape({lo} {op} {hi}, {_tup(out)})", out, x.dtype), "bits")
        shape = x.shape[:a] + (("1",) if keep else ()) + x.shape[a + 1:]
        return Tile(f"ct.reshape({t.text}, {_tup(shape)})", shape, x.dtype)

    def _static_int(self, text: str, node: ast.AST, what: str) -> int:
        vals = self.launch_values(text)
        if not vals or len(set(vals)) != 1 or not isinstance(vals[0], int) or isinstance(vals[0], bool):
            raise self.fail(node, f"{what} `{text}`: one integer at every launch is lowered (capture others apart)")
        return vals[0]

    def sort(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.sort(x, dim=None, descending=False)`` / ``tl.topk(x, k)`` / ``tl.bitonic_merge(x, dim, descending)`` (the
        last merge alone) along the last axis: triton.language's
        own bitonic network (standard.py ``sort_impl``) written out. Each compare-and-swap on bit i of an element's
        flat index takes its partner (the element with bit i flipped: the halves of a `(.., 2, 2^i)` view swapped
        by ``ct.extract`` / ``ct.cat``, where Triton flips them with an xor of the bits) and keeps ``where((x > y) !=
        (flip ^ right), y, x)`` as Triton does (NaNs and signed zeros alike); top-k's halving steps are ``ct.max``
        over that view's middle axis. Sizes: powers of two, one per launch."""
        x = self._named(self._tile_arg(node, kw, 0, "x"), "srt")
        if not x.shape:
            raise self.fail(node, f"tl.{fn} of a 0-d tile")
        dim_node = self._arg(node, kw, 2 if fn == "topk" else 1, "dim", ast.Constant(None))
        if not (isinstance(dim_node, ast.Constant) and dim_node.value is None) and \
                self._axis_of(x, dim_node) != len(x.shape) - 1:
            raise self.fail(node, f"tl.{fn} along another axis than the last (Triton sorts only the last)")
        sizes = [self._static_int(d, node, f"tl.{fn} of a tile whose extent") for d in x.shape]
        numel = math.prod(sizes)
        if numel & (numel - 1) or sizes[-1] & (sizes[-1] - 1):
            raise self.fail(node, f"tl.{fn} of a tile whose sizes are not powers of two")
        log_n = sizes[-1].bit_length() - 1
        if fn == "topk":
            kk = self._static_int(self.scalar(self._arg(node, kw, 1, "k")), node, "tl.topk's k")
            if kk < 1 or kk & (kk - 1) or kk > sizes[-1]:
                raise self.fail(node, "tl.topk's k must be a power of two no larger than the axis")
            log_k, descending = kk.bit_length() - 1, True
        else:
            dnode = self._arg(node, kw, 2, "descending", ast.Constant(False))
            if isinstance(dnode, ast.Name) and dnode.id in self.k.params and dnode.id in self.const_values and \
                    self.static_truth(dnode) is None:   # a constexpr flag launched both ways: the network's last
                # merges take their direction from it, which cuTile folds per specialization
                log_k, descending = log_n, f"(1 if {dnode.id} else 0)"
            else:
                log_k, descending = log_n, self._flag(node, kw, 2, "descending", False)
        self.notes.append(f"line {getattr(node, 'lineno', 0)}: tl.{fn} written as Triton's bitonic network")
        flat = self._named(Tile(f"ct.arange({numel}, dtype=ct.int32)", (str(numel),), "ct.int32"), "srt_idx")
        cur = {"t": Tile(f"ct.reshape({x.text}, ({numel},))", (str(numel),), x.dtype), "n": numel}
        cur["t"] = self._named(cur["t"], "srt")

        def cas(i: int, order: "int | str") -> None:   # compare-and-swap on bit i of the flat index
            n = cur["n"]
            three = (str(n >> (i + 1)), "2", str(1 << i))
            v = self._named(Tile(f"ct.reshape({cur['t'].text}, {_tup(three)})", three, x.dtype), "srt")
            half = (three[0], "1", three[2])
            lo, hi = (f"ct.extract({v.text}, (0, {k}, 0), shape={_tup(half)})" for k in (0, 1))
            y = self._named(Tile(f"ct.reshape(ct.cat(({hi}, {lo}), 1), ({n},))", (str(n),), x.dtype), "srt_y")
            idx = flat.text if n == numel else f"ct.arange({n}, dtype=ct.int32)"
            right = f"(({idx} >> {i}) & 1)"
            flip = str(order) if isinstance(order, int) or not order.startswith("@") else \
                f"(({idx} >> {order[1:]}) & 1)"
            swap = f"ct.where({cur['t'].text} > {y.text}, 1, 0) != ({flip} ^ {right})"
            cur["t"] = self._named(Tile(f"ct.where({swap}, {y.text}, {cur['t'].text})", (str(n),), x.dtype), "srt")

        def merge(stage: int, order: "int | str") -> None:
            for j in range(stage):
                cas(stage - 1 - j, order)

        desc = descending if isinstance(descending, str) else 1 if descending else 0
        if fn == "bitonic_merge":
            # tl.bitonic_merge(x, dim, descending): Triton's `_bitonic_merge(x, log_n, descending, ..)`, the
            # network's last merge alone (x bitonic along the axis); was "is not lowered"
            merge(log_n, desc)
        for i in range(1, log_k + 1 if fn != "bitonic_merge" else 1):
            merge(i, f"@{i}" if i < log_n else desc)   # ("@s": alternating by bit s, Triton's order 2)
        for i in range(log_k + 1, log_n + 1):
            n = cur["n"]
            three = (str(n >> (log_k + 1)), "2", str(1 << log_k))
            red = "ct.max" if descending else "ct.min"
            cur["t"] = self._named(Tile(f"ct.reshape({red}(ct.reshape({cur['t'].text}, {_tup(three)}), axis=1), "
                                        f"({n // 2},))", (str(n // 2),), x.dtype), "srt")
            cur["n"] = n // 2
            merge(log_k, f"@{log_k}" if i < log_n else desc)
        out = x.shape[:-1] + (str(1 << log_k),)
        return Tile(f"ct.reshape({cur['t'].text}, {_tup(out)})", out, x.dtype)

    def flip(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.flip(x, dim)`` (dim None: the last): Triton reshapes that axis of 2^k into k axes of 2 and swaps the
        halves of each (an xor trick on the bits); here each pair of halves is ``ct.extract``ed and ``ct.cat``ed
        the other way round, one level at a time. Exact for any dtype (nothing is computed)."""
        x = self._named(self._tile_arg(node, kw, 0, "x"), "flip")
        dim_node = self._arg(node, kw, 1, "dim", ast.Constant(None))
        if not x.shape:
            raise self.fail(node, "tl.flip of a 0-d tile")
        if isinstance(dim_node, ast.Constant) and dim_node.value is None:
            dim = len(x.shape) - 1
        else:
            dim = self._axis_of(x, dim_node)
        sizes = self.launch_values(x.shape[dim])
        if not sizes or len(set(sizes)) != 1 or not isinstance(sizes[0], int) or sizes[0] < 1 or \
                sizes[0] & (sizes[0] - 1):
            raise self.fail(node, f"tl.flip along an axis of {x.shape[dim]}: one power of two at every launch is "
                                  "lowered (capture other sizes apart)")
        steps = sizes[0].bit_length() - 1
        if steps == 0:
            return x
        # level j: the axis as (2^j, 2, n / 2^(j+1)), the halves of the middle axis swapped (rank + 2 at most)
        y, n = x, sizes[0]
        for j in range(steps):
            three = x.shape[:dim] + (str(1 << j), "2", str(n >> (j + 1))) + x.shape[dim + 1:]
            t = self._named(Tile(f"ct.reshape({y.text}, {_tup(three)})", three, x.dtype), "flip")
            half = tuple("1" if a == dim + 1 else d for a, d in enumerate(three))
            lo, hi = (f"ct.extract({t.text}, {_tup(['1' if (a == dim + 1 and k) else '0' for a in range(len(three))])}"
                      f", shape={_tup(half)})" for k in (0, 1))
            y = self._named(Tile(f"ct.reshape(ct.cat(({hi}, {lo}), {dim + 1}), {_tup(x.shape)})", x.shape, x.dtype),
                            "flip")
        return y

    def join(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.join(a, b)``: a new last axis of size 2 holding a then b (a select on that axis's index);
        ``tl.interleave(a, b)``: that, with the last two axes merged."""
        a, b = (self._tile_arg(node, kw, k, n) for k, n in ((0, "a"), (1, "b")))
        shape = _broadcast(a.shape, b.shape)
        if not shape:
            raise self.fail(node, f"tl.{fn} of scalars")
        col = _tup(("1",) * len(shape) + ("2",))
        halves = [f"ct.reshape({t.text}, {_tup(t.shape + ('1',))})" for t in (a, b)]
        text = f"ct.where(ct.reshape(ct.arange(2, dtype=ct.int32), {col}) == 0, {halves[0]}, {halves[1]})"
        joined = Tile(text, shape + ("2",), a.dtype if a.dtype == b.dtype else None)
        if fn == "join":
            return joined
        last = shape[-1]
        half = re.fullmatch(r"\(?(\w+) // 2\)?", last)
        vals = self.launch_values(half.group(1)) if half else None
        if vals and all(isinstance(v, int) and v % 2 == 0 for v in vals):
            # two halves of an even constexpr (int4 nibbles of `BLOCK_K // 2` packed rows): BLOCK_K itself, so a
            # product with a (.., BLOCK_K) operand has one shape
            merged = shape[:-1] + (half.group(1),)
        else:
            merged = shape[:-1] + (str(2 * int(last)) if last.isdigit() else f"2 * {_paren(last)}",)
        return Tile(f"ct.reshape({joined.text}, {_tup(merged)})", merged, joined.dtype)

    def arg_reduce(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.argmax(x, axis)`` / ``tl.argmin``: the first index holding the maximum (minimum) — Triton's
        ``tie_break_left=True`` — as a reduction to it, then the least index where x equals it. With
        ``tie_break_left=False`` Triton's combine keeps the second operand's index on a tie, so which equal value
        wins is its reduction order's: sequential, as its interpreter runs it (and each GPU thread over its own
        elements), that is the last — the greatest index where x equals it, which this gives (noted)."""
        x = self._named(self._bf16_as_f32(self._tile_arg(node, kw, 0, "input")), "arg")
        left = self._flag(node, kw, 2, "tie_break_left", True)
        if not left:
            self._ties_to_last(f"tl.{fn}(.., tie_break_left=False)")
        return self._index_of(x, "max" if fn == "argmax" else "min", self._arg(node, kw, 1, "axis"),
                              self._flag(node, kw, 3, "keep_dims", False), last=not left)

    def _ties_to_last(self, what: str) -> None:
        note = f"{what}: the greatest index among equal values (Triton's sequential order; its GPU tree may pick another)"
        if note not in self.notes:
            self.notes.append(note)

    def _index_of(self, x: Tile, which: str, axis_node: ast.expr, keep: bool, last: bool = False) -> Tile:
        axis = self._axis_of(x, axis_node)
        kind = self.known_dtype(x)
        if kind in self.NARROW_INTS:   # (int8 / int16 compared as int32: the same order and ties, and cutile 0.3.1
            x = self._named(Tile(f"ct.astype({x.text}, ct.int32)", x.shape, "ct.int32"), "wide")   # builds no i8 max)
        best = self._named(Tile(f"ct.{which}({x.text}, axis={axis}, keepdims=True)",
                                tuple("1" if a == axis else s for a, s in enumerate(x.shape)), x.dtype), "best")
        n = x.shape[axis]
        where = tuple(n if a == axis else "1" for a in range(len(x.shape)))
        idx = f"ct.arange({n}, dtype=ct.int32)" if len(x.shape) == 1 else \
            f"ct.reshape(ct.arange({n}, dtype=ct.int32), {_tup(where)})"
        out = tuple(("1" if keep else None) if a == axis else s for a, s in enumerate(x.shape))
        out = tuple(s for s in out if s is not None)
        pick, none = ("ct.max", -1) if last else ("ct.min", n)
        text = f"{pick}(ct.where({x.text} == {best.text}, {idx}, {none}), axis={axis}" + (
            ", keepdims=True)" if keep else ")")
        return Tile(text, out, "ct.int32")

    def reduce_with_index(self, node: ast.Call, fn: str, kw: dict) -> tuple[Tile, Tile]:
        """``tl.max(x, axis, return_indices=True)`` (``tl.min`` alike): the reduction and the first index of it;
        with ``return_indices_tie_break_left=False`` the last, as tl.argmax(.., tie_break_left=False) (the same
        combine in Triton: ``arg_reduce``)."""
        x = self._named(self._bf16_as_f32(self._tile_arg(node, kw, 0, "input")), "arg")
        left = self._flag(node, kw, 3, "return_indices_tie_break_left", True)
        if not left:
            self._ties_to_last(f"tl.{fn}(.., return_indices_tie_break_left=False)")
        axis_node = self._arg(node, kw, 1, "axis")
        keep = self._flag(node, kw, 4, "keep_dims", False)
        axis = self._axis_of(x, axis_node)
        shape = tuple("1" if a == axis else s for a, s in enumerate(x.shape) if a != axis or keep)
        value = Tile(f"ct.{fn}({x.text}, axis={axis}" + (", keepdims=True)" if keep else ")"), shape, x.dtype)
        kind = self.known_dtype(x)
        if kind in self.NARROW_INTS:   # reduced as int32 (cutile 0.3.1 builds no i8 identity), x's dtype after
            value = Tile(f"ct.astype(ct.{fn}(ct.astype({x.text}, ct.int32), axis={axis}"
                         + (", keepdims=True)" if keep else ")") + f", {kind})", shape, kind)
        return value, self._index_of(x, fn, axis_node, keep, last=not left)

    def _axis_of(self, x: Tile, axis_node: ast.expr) -> int:
        text = self.scalar(axis_node)
        axis = int(text) if text.lstrip("-").isdigit() else None
        if axis is None or not -len(x.shape) <= axis < len(x.shape):
            raise self.fail(axis_node, f"axis {text} of a rank-{len(x.shape)} tile: a literal axis of the tile is "
                                       "needed")
        return axis + len(x.shape) if axis < 0 else axis

    def reduce(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.reduce(x, axis, combine_fn)`` with a @triton.jit combine function that is one associative op of
        its two parameters (``a + b``, ``a * b``, ``tl.maximum(a, b)``, ``tl.minimum(a, b)``): that reduction. A
        tuple ``(x, idx)`` with an arg-max / arg-min combine of four parameters: ``pair_arg_reduce``."""
        comb = self._arg(node, kw, 2, "combine_fn")
        helper = self.k.helpers.get(comb.id) if isinstance(comb, ast.Name) else None
        inp = self._arg(node, kw, 0, "input")
        if isinstance(inp, ast.Tuple) and helper is not None and len(inp.elts) == 2 and \
                self._arg_combine(helper) is not None:
            return self.pair_arg_reduce(node, kw, helper, comb)
        op = self._combine_op(helper) if helper is not None and not isinstance(inp, ast.Tuple) else None
        if op is None:
            if helper is None:
                raise self.fail(comb, "tl.reduce's combine_fn must be a @triton.jit function of the kernel's module "
                                      "(or imported by name from the project's)")
            return self.tree_reduce(node, kw, helper)
        x = self._tile_arg(node, kw, 0, "input")
        axis_node = self._arg(node, kw, 1, "axis")
        if op in ("^", "|", "&"):
            return self.bitwise_tree(node, x, op, axis_node, self._flag(node, kw, 3, "keep_dims", False))
        if isinstance(axis_node, ast.Constant) and axis_node.value is None:
            return Tile(f"ct.{op}({x.text})", (), x.dtype)
        axis = self._axis_of(x, axis_node)
        keep = self._flag(node, kw, 3, "keep_dims", False)
        shape = tuple("1" if a == axis else s for a, s in enumerate(x.shape) if a != axis or keep)
        return Tile(f"ct.{op}({x.text}, axis={axis}" + (", keepdims=True)" if keep else ")"), shape, x.dtype)

    def tree_reduce(self, node: ast.Call, kw: dict, helper: ast.FunctionDef) -> object:
        """``tl.reduce(x, axis, combine)`` / ``tl.reduce((x, y, ..), axis, combine)`` with any other combine function
        (Welford's (mean, m2, count), a log-add-exp): a tree of adjacent pairs — the axis viewed as ``(n / 2, 2)``,
        ``combine(even, odd)`` inlined on the two ``ct.extract``ed halves, until one is left. Each combine takes
        neighbours in order, so only associativity is used (Triton's own tree takes the operator as associative and
        commutative; float rounding may differ from its order). ``axis=None``: the tiles flattened first."""
        inp = self._arg(node, kw, 0, "input")
        items = inp.elts if isinstance(inp, ast.Tuple) else [inp]   # type: ignore[attr-defined]
        xs = [self.materialize(self._value(self.ev(item), node), node) for item in items]
        if any(x.shape != xs[0].shape for x in xs):
            xs = [Tile(f"ct.broadcast_to({x.text}, {_tup(_broadcast_all(y.shape for y in xs))})",
                       _broadcast_all(y.shape for y in xs), x.dtype) for x in xs]
        axis_node = self._arg(node, kw, 1, "axis")
        keep = self._flag(node, kw, 3, "keep_dims", False)
        if isinstance(axis_node, ast.Constant) and axis_node.value is None:
            numel = str(math.prod(self._static_int(d, node, "tl.reduce of a tile whose extent") for d in xs[0].shape))
            xs = [Tile(f"ct.reshape({x.text}, ({numel},))", (numel,), x.dtype) for x in xs]
            axis = 0
        else:
            axis = self._axis_of(xs[0], axis_node)
        shape = xs[0].shape
        n = self._static_int(shape[axis], node, "tl.reduce along an axis whose extent")
        if n < 1 or n & (n - 1):
            raise self.fail(node, "tl.reduce with this combine_fn along an axis whose extent is not a power of two")
        self.notes.append(f"line {getattr(node, 'lineno', 0)}: tl.reduce with {helper.name} written as a tree of "
                          "adjacent pairs")
        pre, post = shape[:axis], shape[axis + 1:]
        cur = [self._named(x, "red") for x in xs]
        while n > 1:
            two, half = pre + (str(n // 2), "2") + post, pre + (str(n // 2), "1") + post
            parts = []
            for x in cur:
                v = self._named(Tile(f"ct.reshape({x.text}, {_tup(two)})", two, x.dtype), "red")
                parts.append(tuple(self._named(Tile(
                    f"ct.extract({v.text}, {_tup(['1' if (a == axis + 1 and k) else '0' for a in range(len(two))])}, "
                    f"shape={_tup(half)})", half, x.dtype), "red") for k in (0, 1)))
            got = self._combine(node, helper, [p[0] for p in parts] + [p[1] for p in parts])
            n //= 2
            nxt = pre + (str(n),) + post
            cur = [self._named(Tile(f"ct.reshape({g.text}, {_tup(nxt)})", nxt, g.dtype), "red") for g in got]
        if isinstance(axis_node, ast.Constant) and axis_node.value is None:
            out = ("1",) * len(self.materialize(self._value(self.ev(items[0]), node), node).shape) if keep else ()
        else:
            out = pre + (("1",) if keep else ()) + post
        res = [Tile(f"ct.reshape({c.text}, {_tup(out)})", out, c.dtype) for c in cur]
        return tuple(res) if isinstance(inp, ast.Tuple) else res[0]

    def pair_arg_reduce(self, node: ast.Call, kw: dict, helper: ast.FunctionDef | None,
                        comb: ast.expr) -> tuple[Tile, Tile]:
        """``v, i = tl.reduce((x, idx), axis, combine)`` whose combine of ``(v1, i1, v2, i2)`` returns
        ``tl.where(c, v1, v2), tl.where(c, i1, i2)`` with ``c`` = ``v1 > v2 | (v1 == v2 & i1 < i2)`` (either
        operand order, ``<=`` on the indices, ``<`` on the values: arg-min; the arms swapped with the test on the
        second pair): the maximum (minimum) and the least index holding it, whatever order the tree combines in
        (``ct.max``, then ``ct.min`` of idx where x equals it). Any other combine of a tuple is refused."""
        which = self._arg_combine(helper) if helper is not None else None
        items = self._arg(node, kw, 0, "input").elts   # type: ignore[attr-defined]
        if which is None or len(items) != 2:
            raise self.fail(comb, "tl.reduce of a tuple is lowered when it is (values, indices) with an arg-max / "
                                  "arg-min combine_fn of (v1, i1, v2, i2) returning `tl.where(c, v1, v2), "
                                  "tl.where(c, i1, i2)`, c = `(v1 > v2) | ((v1 == v2) & (i1 < i2))` (or `<` on the "
                                  "values): cutile 0.3.1 builds no reduction of a combine function of the user's")
        x = self._named(self.materialize(self._value(self.ev(items[0]), node), node), "arg")
        idx = self._named(self.materialize(self._value(self.ev(items[1]), node), node), "argi")
        if self.known_dtype(idx) != "ct.int32" or len(idx.shape) > len(x.shape):
            raise self.fail(items[1], "tl.reduce of (values, indices): the indices must be an int32 tile of the "
                                      "values' shape")
        axis_node = self._arg(node, kw, 1, "axis")
        if isinstance(axis_node, ast.Constant) and axis_node.value is None:
            raise self.fail(axis_node, "tl.reduce of (values, indices) over every axis (axis=None)")
        axis = self._axis_of(x, axis_node)
        keep = self._flag(node, kw, 3, "keep_dims", False)
        full = tuple("1" if a == axis else s for a, s in enumerate(x.shape))
        best = self._named(Tile(f"ct.{which}({x.text}, axis={axis}, keepdims=True)", full, x.dtype), "best")
        out = tuple(s for a, s in enumerate(full) if a != axis or keep)
        k = ", keepdims=True)" if keep else ")"
        index = Tile(f"ct.min(ct.where({x.text} == {best.text}, {idx.text}, 2147483647), axis={axis}{k}", out,
                     "ct.int32")
        return Tile(f"ct.{which}({x.text}, axis={axis}{k}", out, x.dtype), index

    @staticmethod
    def _arg_combine(fn: ast.FunctionDef) -> str | None:
        """"max" / "min" when ``fn(v1, i1, v2, i2)`` is an arg-max / arg-min combine with the least index winning
        ties (``pair_arg_reduce``); assignments before the return are read through."""
        params = [a.arg for a in fn.args.args]
        if len(params) != 4:
            return None
        v1, i1, v2, i2 = params
        names: dict[str, ast.expr] = {}
        ret = None
        for st in fn.body:
            if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
                continue
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                    and st.targets[0].id not in params:
                names[st.targets[0].id] = st.value
            elif isinstance(st, ast.Return) and ret is None:
                ret = st.value
            else:
                return None

        def read(e: ast.expr) -> ast.expr:
            return read(names[e.id]) if isinstance(e, ast.Name) and e.id in names else e

        def where(e: ast.expr) -> tuple[ast.expr, str, str] | None:
            e = read(e)
            if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "where"
                    and len(e.args) == 3 and not e.keywords and all(isinstance(a, ast.Name) for a in e.args[1:])):
                return None
            return e.args[0], e.args[1].id, e.args[2].id   # type: ignore[attr-defined]

        def canon(e: ast.expr):
            e = read(e)
            if isinstance(e, ast.BinOp) and type(e.op) in (ast.BitOr, ast.BitAnd):
                parts = [canon(e.left), canon(e.right)]
                return None if None in parts else ("|" if isinstance(e.op, ast.BitOr) else "&", frozenset(parts))
            if isinstance(e, ast.Compare) and len(e.ops) == 1 and isinstance(e.left, ast.Name) \
                    and isinstance(e.comparators[0], ast.Name):
                a, b, op = e.left.id, e.comparators[0].id, type(e.ops[0])
                if op is ast.Eq:
                    return ("==", frozenset((a, b)))
                flip = {ast.Gt: (">", a, b), ast.Lt: (">", b, a), ast.GtE: (">=", a, b), ast.LtE: (">=", b, a)}
                return flip.get(op)
            return None

        if not (isinstance(ret, ast.Tuple) and len(ret.elts) == 2):
            return None
        wv, wi = where(ret.elts[0]), where(ret.elts[1])
        if wv is None or wi is None or ast.dump(read(wv[0])) != ast.dump(read(wi[0])):
            return None
        pairs = {(v1, v2): (i1, i2), (v2, v1): (i2, i1)}
        if (wv[1], wv[2]) not in pairs or pairs[(wv[1], wv[2])] != (wi[1], wi[2]):
            return None
        (cv, ov), (ci, oi) = (wv[1], wv[2]), (wi[1], wi[2])   # the pair chosen when c holds, and the other
        test = canon(wv[0])
        for which, better in (("max", (">", cv, ov)), ("min", (">", ov, cv))):
            for tie in ((">", oi, ci), (">=", oi, ci)):   # `<=` on the indices: equal pairs are the same pair
                if test == ("|", frozenset((better, ("&", frozenset((("==", frozenset((cv, ov))), tie)))))):
                    return which
        return None

    def swizzle2d(self, node: ast.Call) -> tuple[Scalar, Scalar]:
        """``tl.swizzle2d(i, j, size_i, size_j, size_g)``: Triton's definition on scalars (row-major ij regrouped
        in groups of size_g rows). Its parts are bound to names (`ij`, the group's first row and size, the new
        pair), as Triton's definition binds them: inlined into every index that reads the pair, the expression nests
        so deep that the port's typed lets no longer compile (a tile index of a block-pointer GEMM)."""
        i, j, size_i, size_j, size_g = (_paren(self.scalar(a)) for a in node.args)
        ij = self._scalar_named(Scalar(f"{i} * {size_j} + {j}"), "swz_ij")
        size_gj = f"({size_g} * {size_j})"
        off_i = self._scalar_named(Scalar(f"({ij} // {size_gj}) * {size_g}"), "swz_off")
        g = self._scalar_named(Scalar(f"min({size_i} - {off_i}, {size_g})"), "swz_g")
        return (Scalar(self._scalar_named(Scalar(f"{off_i} + ({ij} % {size_gj}) % {g}"), "swz_i")),
                Scalar(self._scalar_named(Scalar(f"({ij} % {size_gj}) // {g}"), "swz_j")))

    def map_elementwise(self, node: ast.Call) -> object:
        """``tl.map_elementwise(scalar_fn, *args)`` (Triton 3.6; ``pack`` 1): the @triton.jit ``scalar_fn`` inlined
        on the tiles themselves, which holds where its body is elementwise. Its ``if c: return a`` / ``elif`` /
        ``else: return b`` (or a ``return b`` after the ``if``), each arm a lone ``return`` of one value, becomes
        ``tl.where(c, a, b)``: both arms computed on every lane and the taken one kept — Triton computes only the
        taken one, which gives the same values (the functions are pure; a lane's untaken arm is dropped). Any other
        statement under a runtime test of an element is refused where it stands (a scalar ``if`` on a tile)."""
        kw = {k.arg: k.value for k in node.keywords}
        if set(kw) - {"pack"}:
            raise self.fail(node, f"tl.map_elementwise takes no keyword {sorted(set(kw) - {'pack'})[0]!r}")
        if "pack" in kw:
            pv = self.ev(kw["pack"])
            pack = self._static_int(pv.text if isinstance(pv, Scalar) else ast.unparse(kw["pack"]), node,
                                    "tl.map_elementwise's pack")
            if pack != 1:
                raise self.fail(node, f"tl.map_elementwise(.., pack={pack}): only pack=1 is lowered (a packed "
                                      "function sees several elements at once)")
        if not node.args or not isinstance(node.args[0], ast.Name) or node.args[0].id not in self.k.helpers:
            raise self.fail(node, "tl.map_elementwise's scalar_fn must be a @triton.jit function of the kernel's "
                                  "module (or imported by name from the project's)")
        helper = self.k.helpers[node.args[0].id]
        tl_name = ast.Name(sorted(self.k.tl)[0] if self.k.tl else "tl", ast.Load())

        def as_where(stmts: list[ast.stmt], after: list[ast.stmt]) -> ast.expr | None:
            """The value of a body of lone returns under `if`s (``after``: what an arm falling through reaches), as
            nested tl.where; None when it is not one."""
            if stmts and isinstance(stmts[0], ast.Expr) and isinstance(stmts[0].value, ast.Constant):
                stmts = stmts[1:]   # (a docstring)
            if not stmts:
                return as_where(after, []) if after else None
            st = stmts[0]
            if isinstance(st, ast.Return):
                ok = st.value is not None and not isinstance(st.value, ast.Tuple)
                return st.value if ok else None
            if isinstance(st, ast.If):
                if any(isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.While))
                       for n in walk_nodes(st)):
                    return None
                yes = as_where(st.body, stmts[1:] + after)
                no = as_where(st.orelse, stmts[1:] + after)
                if yes is None or no is None:
                    return None
                return ast.Call(ast.Attribute(tl_name, "where", ast.Load()), [st.test, yes, no], [])
            return None

        body = helper.body
        if any(isinstance(n, ast.If) for n in walk_nodes(helper)):
            value = as_where(list(body), [])
            if value is None:
                raise self.fail(helper, f"tl.map_elementwise of {helper.name}: a scalar function whose `if`s are not "
                                        "each arm a lone `return` of one value is not lowered (its tests would be "
                                        "of whole tiles)")
            body = [ast.Return(value)]
        fn = copy.copy(helper)   # (the same helper, its body the where form)
        fn.body = body
        fn = ast.fix_missing_locations(fn)
        call = ast.copy_location(ast.Call(ast.Name(helper.name, ast.Load()), list(node.args[1:]), []), node)
        value = self.inline(call, fn)
        if value is None or isinstance(value, tuple):
            raise self.fail(node, f"tl.map_elementwise of {helper.name}: a function returning one value is lowered "
                                  "(not nothing, not a tuple)")
        return value

    def associative_scan(self, node: ast.Call, kw: dict) -> Tile:
        """``tl.associative_scan(x, axis, combine_fn, reverse=)``: with a combine function that is `a + b` of its
        parameters (each component's own pair, for a tuple), ``ct.cumsum``; with any other (a product, a running
        max, a segmented sum over a (value, flag) tuple, a linear recurrence ``(a1 * a2, b1 * a2 + b2)``), the scan
        written out by recursive doubling (``doubling_scan``): the combine function inlined on halves of the axis,
        its operands always in Triton's order (the earlier element's first), so only its associativity is used —
        cuTile Python's ``ct.scan`` would need an identity Triton's scan does not state, and cutile 0.3.1 builds
        every ``scan`` along dimension 0 with identity 0, so no port of one could be proven."""
        inp = self._arg(node, kw, 0, "input")
        comb = self._arg(node, kw, 2, "combine_fn")
        helper = self.k.helpers.get(comb.id) if isinstance(comb, ast.Name) else None
        if helper is None:
            raise self.fail(comb, "tl.associative_scan's combine_fn must be a @triton.jit function of the kernel's "
                                  "module (or imported by name from the project's)")
        reverse = self._flag(node, kw, 3, "reverse", False)
        items = inp.elts if isinstance(inp, ast.Tuple) else [inp]   # type: ignore[attr-defined]
        xs = [self.materialize(self._value(self.ev(item), node), node) for item in items]
        if any(x.shape != xs[0].shape for x in xs):
            raise self.fail(node, "tl.associative_scan of tiles of different shapes")
        axis = self._axis_of(xs[0], self._arg(node, kw, 1, "axis"))
        ops = self._componentwise_ops(helper, len(xs)) if isinstance(inp, ast.Tuple) else \
            [self._combine_op(helper)]
        if ops and all(op == "sum" for op in ops):   # sums: cuTile's own scan
            outs = [self._scan("cumsum", x, str(axis), reverse) for x in xs]
            return tuple(outs) if isinstance(inp, ast.Tuple) else outs[0]   # type: ignore[return-value]
        outs = self.doubling_scan(node, xs, axis, reverse, lambda a, b: self._combine(node, helper, a + b))
        return tuple(outs) if isinstance(inp, ast.Tuple) else outs[0]   # type: ignore[return-value]

    def _combine(self, node: ast.AST, helper: ast.FunctionDef, args: list[Tile]) -> list[Tile]:
        """The @triton.jit combine function ``helper`` inlined on these tiles (its results as tiles of their
        shape, in the first operand's dtype, as Triton's scan keeps each component's)."""
        names = []
        for k, a in enumerate(args):
            name = f"__scan_arg{k}"
            self.env[name] = a
            names.append(ast.Name(name, ast.Load()))
        try:
            call = ast.copy_location(ast.Call(ast.Name(helper.name, ast.Load()), names, []), node)
            got = self.inline(call, helper)
        finally:
            for k in range(len(args)):
                self.env.pop(f"__scan_arg{k}", None)
        got = list(got) if isinstance(got, tuple) else [got]
        n = len(args) // 2
        if len(got) != n:
            raise self.fail(node, f"combine_fn {helper.name} returns {len(got)} values for {n} scanned tiles")
        out = []
        for g, a in zip(got, args):
            t = self.materialize(self._value(g, node), node)
            if t.dtype in BOOL or (t.dtype and a.dtype and t.dtype != a.dtype):
                t = Tile(f"ct.astype({t.text}, {a.dtype})" if t.dtype not in BOOL else
                         f"ct.where({t.text}, 1, 0)" if a.dtype == "ct.int32" else
                         f"ct.astype(ct.where({t.text}, 1, 0), {a.dtype})", t.shape, a.dtype)
            if t.shape != a.shape:
                t = Tile(f"ct.broadcast_to({t.text}, {_tup(a.shape)})", a.shape, t.dtype)
            out.append(self._named(t, "scan"))
        return out

    def doubling_scan(self, node: ast.AST, xs: list[Tile], axis: int, reverse: bool, combine) -> list[Tile]:
        """The inclusive scan of the tiles ``xs`` (one tuple's components) along ``axis`` by recursive doubling:
        each lane holds its prefix within its block of s lanes and that block's total; at each level the axis is
        viewed as ``(n / 2s, 2, s)``, and the upper half's prefixes become ``combine(lower total, prefix)``, the
        totals ``combine(lower total, upper total)`` (reversed: the lower half's, the upper operand first, as
        Triton's reversed scan combines the later element's value first). log2(n) levels of ``ct.extract`` /
        ``ct.cat``; no identity needed. ``combine(lefts, rights)`` returns the combined tiles."""
        x0 = xs[0]
        n = self._static_int(x0.shape[axis], node, "tl.associative_scan along an axis whose extent")
        if n & (n - 1):
            raise self.fail(node, "a scan along an axis whose extent is not a power of two")
        self.notes.append(f"line {getattr(node, 'lineno', 0)}: a scan written out by recursive doubling")
        pre, post = x0.shape[:axis], x0.shape[axis + 1:]
        prefix, total = list(xs), list(xs)
        s = 1
        while s < n:
            four, half = pre + (str(n // (2 * s)), "2", str(s)) + post, pre + (str(n // (2 * s)), "1", str(s)) + post

            def halves(v: Tile) -> tuple[Tile, Tile]:
                vv = self._named(Tile(f"ct.reshape({v.text}, {_tup(four)})", four, v.dtype), "scan")
                return tuple(self._named(Tile(
                    f"ct.extract({vv.text}, {_tup(['1' if (a == axis + 1 and k) else '0' for a in range(len(four))])}, "
                    f"shape={_tup(half)})", half, v.dtype), "scan") for k in (0, 1))   # type: ignore[return-value]

            ps, ts = [halves(v) for v in prefix], [halves(v) for v in total]
            lo_t, hi_t = [t[0] for t in ts], [t[1] for t in ts]
            if reverse:
                new = combine(hi_t, [p[0] for p in ps])
                prefix = [self._named(Tile(f"ct.reshape(ct.cat(({a.text}, {p[1].text}), {axis + 1}), "
                                           f"{_tup(x0.shape)})", x0.shape, p[1].dtype), "scan")
                          for a, p in zip(new, ps)]
            else:
                new = combine(lo_t, [p[1] for p in ps])
                prefix = [self._named(Tile(f"ct.reshape(ct.cat(({p[0].text}, {a.text}), {axis + 1}), "
                                           f"{_tup(x0.shape)})", x0.shape, p[0].dtype), "scan")
                          for a, p in zip(new, ps)]
            if 2 * s < n:
                tot = combine(hi_t, lo_t) if reverse else combine(lo_t, hi_t)
                total = [self._named(Tile(f"ct.reshape(ct.broadcast_to({t.text}, {_tup(four)}), {_tup(x0.shape)})",
                                          x0.shape, t.dtype), "scan") for t in tot]
            s *= 2
        return prefix

    @staticmethod
    def _scan(op: str, x: Tile, axis: str, reverse: bool) -> Tile:
        """``ct.cumsum`` / ``ct.cumprod`` of ``x`` along ``axis``; along another axis than the first, written as the
        scan along axis 0 of ``x`` with that axis moved first, moved back after (the same sums: cuTile Python
        compiles either, and cutile 0.3.1 builds every scan along dimension 0 whatever axis it is given)."""
        rev = ", reverse=True)" if reverse else ")"
        rank = len(x.shape)
        k = int(axis) + rank if axis.lstrip("-").isdigit() and int(axis) < 0 else int(axis) if axis.isdigit() else None
        if k is None or k == 0 or rank < 2:
            return Tile(f"ct.{op}({x.text}, axis={axis}{rev}", x.shape, x.dtype)
        perm = [k] + [a for a in range(rank) if a != k]
        inv = [perm.index(a) for a in range(rank)]
        if rank == 2:
            return Tile(f"ct.transpose(ct.{op}(ct.transpose({x.text}), axis=0{rev})", x.shape, x.dtype)
        return Tile(f"ct.permute(ct.{op}(ct.permute({x.text}, {tuple(perm)}), axis=0{rev}, {tuple(inv)})", x.shape,
                    x.dtype)

    @staticmethod
    def _componentwise_ops(fn: ast.FunctionDef, n: int) -> list[str] | None:
        """For a combine of 2N parameters ``(a_1..a_N, b_1..b_N)`` returning ``(a_1 + b_1, .., a_N * b_N)`` (each
        output `+` or `*` of its own pair, either order): "sum" / "prod" per output; else None (a linear
        recurrence mixes the pairs)."""
        params = [a.arg for a in fn.args.args]
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(params) != 2 * n or len(body) != 1 or not isinstance(body[0], ast.Return) or \
                not isinstance(body[0].value, ast.Tuple) or len(body[0].value.elts) != n:
            return None
        ops = []
        for k, e in enumerate(body[0].value.elts):
            if not (isinstance(e, ast.BinOp) and type(e.op) in (ast.Add, ast.Mult)
                    and all(isinstance(o, ast.Name) for o in (e.left, e.right))
                    and sorted((e.left.id, e.right.id)) == sorted((params[k], params[n + k]))):  # type: ignore
                return None
            ops.append("sum" if isinstance(e.op, ast.Add) else "prod")
        return ops

    def _combine_op(self, fn: ast.FunctionDef) -> str | None:
        """The reduction a combine function is (None when it is not one associative op of its parameters)."""
        params = [a.arg for a in fn.args.args]
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(params) != 2 or len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            return None
        e = body[0].value
        names = lambda args: sorted(a.id for a in args if isinstance(a, ast.Name)) == sorted(params)  # noqa: E731
        if isinstance(e, ast.BinOp) and type(e.op) in (ast.Add, ast.Mult) and names([e.left, e.right]):
            return "sum" if isinstance(e.op, ast.Add) else "prod"
        if isinstance(e, ast.BinOp) and type(e.op) in (ast.BitXor, ast.BitOr, ast.BitAnd) and names([e.left, e.right]):
            return {ast.BitXor: "^", ast.BitOr: "|", ast.BitAnd: "&"}[type(e.op)]   # (a halving tree: bitwise_tree)
        if isinstance(e, ast.Call) and len(e.args) == 2 and names(e.args) and not e.keywords:
            return {"maximum": "max", "minimum": "min"}.get(self.function(e.func) or "")
        return None

    def _math_options(self, node: ast.Call, fn: str, kw: dict) -> list[str]:
        """Keyword options of an element-wise function: ``propagate_nan=`` of maximum/minimum/clamp (``ALL``: NaN wins,
        ``ct.maximum(.., propagate_nan=True)``; ``NONE``: the default); any other is refused."""
        out = []
        for k, v in kw.items():
            mode = v.attr if isinstance(v, ast.Attribute) else None
            if k == "propagate_nan" and fn in ("maximum", "minimum", "clamp") and mode in ("ALL", "NONE"):
                out += ["propagate_nan=True"] if mode == "ALL" else []
                continue
            raise self.fail(node, f"tl.{fn} option {k}={ast.unparse(v)} is not lowered")
        return out

    def broadcast_to(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.broadcast_to(x, shape)``: ``ct.broadcast_to``."""
        x = self._tile_arg(node, kw, 0, "input")
        shape_node = self._arg(node, kw, 1, "shape")
        shape = self._tuple(shape_node) if isinstance(shape_node, (ast.Tuple, ast.List)) or \
            self._names_shape(shape_node) else tuple(self.scalar(a) for a in node.args[1:])
        return Tile(f"ct.broadcast_to({x.text}, {_tup(shape)})", shape, x.dtype)

    def _names_shape(self, node: ast.expr) -> bool:
        """``node`` is a name bound to a tuple of scalars (`shape: tl.constexpr = [n, 2, m]`) or a tile's `x.shape`."""
        if isinstance(node, ast.Name):
            v = self.env.get(node.id)
            return isinstance(v, tuple) and all(isinstance(e, Scalar) for e in v)
        return isinstance(node, ast.Attribute) and node.attr == "shape" and isinstance(node.value, ast.Name) \
            and isinstance(self.env.get(node.value.id), Tile)

    def expand_dims(self, node: ast.Call, fn: str, kw: dict) -> Tile:
        """``tl.expand_dims(x, axis)`` (an axis or a tuple of them): a reshape with unit axes there."""
        x = self._tile_arg(node, kw, 0, "input")
        axis_node = self._arg(node, kw, 1, "axis")
        items = axis_node.elts if isinstance(axis_node, (ast.Tuple, ast.List)) else [axis_node]
        rank = len(x.shape) + len(items)
        axes = sorted(a % rank for a in (int(self.scalar(e)) for e in items))
        dims = iter(x.shape)
        shape = tuple("1" if a in axes else next(dims) for a in range(rank))
        return Tile(f"ct.reshape({x.text}, {_tup(shape)})", shape, x.dtype)

    def rand(self, node: ast.Call, kw: dict) -> Tile:
        """``tl.rand(seed, offsets, n_rounds=10)``: Triton's Philox 4x32 (triton/language/random.py), written out
        in 64-bit unsigned arithmetic: a 32-bit high product is ``(a * b) >> 32``, a low one the product truncated
        to uint32 and extended again (the translator's wrapping `trunci`). cutile 0.3.1 parses every integer literal
        as i32, so no literal here is 2^31 or more: Philox's constants are multiplied in 16-bit halves and added as
        two halves. The uniform float is Triton's: the low 32 bits as an int32, folded to non-negative (-x - 1),
        times 4.6566127342e-10."""
        seed_node, offs_node = self._arg(node, kw, 0, "seed"), self._arg(node, kw, 1, "offset")
        rounds_node = self._arg(node, kw, 2, "n_rounds", ast.Constant(10))
        rounds = rounds_node.value if isinstance(rounds_node, ast.Constant) else \
            self._static_int(ast.unparse(rounds_node), rounds_node, "n_rounds")
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
            raise self.fail(rounds_node, f"n_rounds={ast.unparse(rounds_node)}: a whole number of rounds, at least 1")
        seed = self.ev(seed_node)
        seed_dtype = self.known_dtype(seed) if isinstance(seed, Tile) else None
        if isinstance(seed, Tile) and seed.shape in ((), ("1",)) and seed_dtype in ("ct.int32", "ct.int64"):
            # a seed loaded from memory (`seed = tl.load(seed_ptr)`): its element, sign-extended as Triton's
            # `seed.to(tl.uint64)` does
            seed_text = f"ct.reshape({seed.text}, (1,))" if seed.shape == () else seed.text
            if seed_dtype == "ct.int32":
                seed_text = f"ct.astype({seed_text}, ct.int64)"
            seed = Scalar(f"ct.astype({seed_text}, ct.uint64)")
        elif not isinstance(seed, Scalar):
            raise self.fail(seed_node, "tl.rand's seed must be a scalar, or one int32/int64 element loaded")
        else:
            seed = Scalar(f"ct.astype(ct.astype(ct.full((1,), {seed.text}, dtype=ct.int32), ct.int64), ct.uint64)")
        offs_v = self._value(self.ev(offs_node), node)
        if isinstance(offs_v, Scalar):   # one offset (`tl.rand(seed, row)`): a 1-element tile (as a loaded scalar)
            offs_v = Tile(f"ct.full((1,), {offs_v.text}, dtype=ct.int32)", ("1",), "ct.int32")
        offs = self.materialize(offs_v, node)
        self._rands = getattr(self, "_rands", 0) + 1
        r = f"{self.prefix}rand{self._rands}_"
        shape = _tup(offs.shape)

        def low(x: str) -> str:   # the low 32 bits, as a uint64 (a wrapping truncation, then zero extension)
            return f"ct.astype(ct.astype({x}, ct.uint32), ct.uint64)"

        def times(x: str, c: int) -> str:   # x * c for x < 2^32: c in 16-bit halves (literals under 2^31)
            return f"((({x} * {hex(c >> 16)}) << 16) + {x} * {hex(c & 0xFFFF)})"

        def plus(x: str, c: int) -> str:
            return f"({x} + {hex(c >> 1)} + {hex(c - (c >> 1))})"

        self.emit(f"# tl.rand (line {node.lineno}): Philox 4x32, {rounds} rounds, in 64-bit unsigned steps (constants "
                  "above 2^31 written as sums of smaller ones: cutile 0.3.1 parses integer literals as i32)")
        self.emit(f"{r}s = {seed.text}")
        self.emit(f"{r}k0 = {low(f'{r}s')}")
        self.emit(f"{r}k1 = {low(f'{r}s >> 32')}")
        self.emit(f"{r}c0 = ct.astype(ct.astype({offs.text}, ct.uint32), ct.uint64)")
        self.emit(f"{r}c1 = ct.zeros({shape}, dtype=ct.uint64)")
        self.emit(f"{r}c2 = {r}c1")
        self.emit(f"{r}c3 = {r}c1")
        if self.known_dtype(offs) in ("ct.int64", "ct.uint64"):   # Triton's randint: a 64-bit offset's high word
            self.emit(f"{r}c1 = {low(f'ct.bitcast({offs.text}, ct.uint64) >> 32')}")
        for _ in range(rounds):
            self.emit(f"{r}p0 = {r}c0")
            self.emit(f"{r}p2 = {r}c2")
            self.emit(f"{r}q0 = {times(f'{r}p2', 0xCD9E8D57)}")
            self.emit(f"{r}q2 = {times(f'{r}p0', 0xD2511F53)}")
            self.emit(f"{r}c0 = ({r}q0 >> 32) ^ {r}c1 ^ {r}k0")
            self.emit(f"{r}c2 = ({r}q2 >> 32) ^ {r}c3 ^ {r}k1")
            self.emit(f"{r}c1 = {low(f'{r}q0')}")
            self.emit(f"{r}c3 = {low(f'{r}q2')}")
            self.emit(f"{r}k0 = {low(plus(f'{r}k0', 0x9E3779B9))}")
            self.emit(f"{r}k1 = {low(plus(f'{r}k1', 0xBB67AE85))}")
        fn = self.function(node.func)
        if fn == "randint":   # the first Philox word, as Triton's uint32 tile
            return Tile(f"ct.astype({r}c0, ct.uint32)", offs.shape, "ct.uint32")
        if fn in ("randint4x", "rand4x"):   # the four words (`r0, r1, r2, r3 = tl.randint4x(seed, offs)`); rand4x:
            # each folded to a uniform float as tl.rand folds the first
            words = [f"ct.astype({r}c{k}, ct.uint32)" for k in range(4)]
            if fn == "randint4x":
                return tuple(Tile(w, offs.shape, "ct.uint32") for w in words)
            out = []
            for k in range(4):
                self.emit(f"{r}x{k} = ct.astype({r}c{k}, ct.int32)")
                out.append(Tile(f"ct.astype(ct.where({r}x{k} < 0, -1 - {r}x{k}, {r}x{k}), ct.float32) * "
                                "4.6566127342e-10", offs.shape, F32))
            return tuple(out)
        # Triton's uint_to_uniform_float: the bits as an int32 x, folded to x >= 0 by -x - 1
        self.emit(f"{r}x = ct.astype({r}c0, ct.int32)")
        self.emit(f"{r}u = ct.where({r}x < 0, -1 - {r}x, {r}x)")
        if fn != "randn":
            return Tile(f"ct.astype({r}u, ct.float32) * 4.6566127342e-10", offs.shape, F32)
        # tl.randn: Triton's Box-Muller of the first two words' uniforms (pair_uniform_to_normal), its first half
        self.emit(f"{r}x2 = ct.astype({r}c1, ct.int32)")
        self.emit(f"{r}v = ct.where({r}x2 < 0, -1 - {r}x2, {r}x2)")
        self.emit(f"{r}u1 = ct.maximum(ct.astype({r}u, ct.float32) * 4.6566127342e-10, 1e-07)")
        self.emit(f"{r}th = ct.astype({r}v, ct.float32) * 4.6566127342e-10 * 6.283185307179586")
        return Tile(f"ct.sqrt(-2.0 * ct.log({r}u1), rounding_mode=ct.RoundingMode.APPROX, flush_to_zero=True) * "
                    f"ct.cos({r}th)", offs.shape, F32)   # (tl.sqrt's approximation: module docstring)

    def permute(self, node: ast.AST, v: object, dims_args: object) -> Tile:
        """``tl.trans(x)`` / ``x.T`` (the two axes of a matrix swapped) and ``tl.permute(x, dims)`` / ``tl.trans(x,
        dims)``: ``ct.transpose`` / ``ct.permute``. A mask of bounds (``tl.trans(mask)`` of ``(rm[:, None] < M) &
        (rn[None, :] < N)``, a transposed tile's store mask) stays bounds, each on its index vector's new axis."""
        nodes = list(dims_args) if isinstance(dims_args, list) else ([dims_args] if dims_args is not None else [])
        if len(nodes) == 1 and isinstance(nodes[0], (ast.Tuple, ast.List)):
            nodes = list(nodes[0].elts)
        if isinstance(v, Mask) and v.conds:
            rank = v.conds[0][0].rank
            order = [int(self.scalar(d)) for d in nodes] if nodes else [1, 0]
            if sorted(order) == list(range(rank)) and all(i.rank == rank for i, _ in v.conds):
                return Mask(tuple((replace(i, axis=order.index(i.axis)), bound) for i, bound in v.conds))
        t = self.materialize(self._value(v, node), node)
        if not nodes:
            if len(t.shape) != 2:
                raise self.fail(node, "tl.trans without dims on a tile that is not a matrix")
            return Tile(f"ct.transpose({t.text})", (t.shape[1], t.shape[0]), t.dtype)
        dims = [int(self.scalar(d)) for d in nodes]
        if sorted(dims) != list(range(len(t.shape))):
            raise self.fail(node, f"dims {dims} are not a permutation of the tile's {len(t.shape)} axes")
        return Tile(f"ct.permute({t.text}, {_tup([str(d) for d in dims])})", tuple(t.shape[d] for d in dims), t.dtype)

    def atomic_add(self, node: ast.Call, fn: str = "atomic_add") -> Tile:
        """``tl.atomic_<op>(ptr, val, mask=, sem=, scope=)`` (add, max, min, and, or, xor, xchg) and
        ``tl.atomic_cas(ptr, cmp, val, sem=, scope=)``: ``ct.atomic_<op>`` on the pointer's flat view at its offsets
        (masked-off lanes sent past the end, which the bounds check skips); the value is the old elements, as
        Triton's."""
        node, kw = self._no_none(node, {k.arg: k.value for k in node.keywords}, 99 if fn == "atomic_cas" else 2)
        cas = fn == "atomic_cas"
        unknown = set(kw) - ({"sem", "scope", "cmp", "val"} if cas else {"mask", "sem", "scope", "val"})
        if unknown:
            raise self.fail(node, f"tl.{fn} with {', '.join(sorted(unknown))}")
        ptr = self.ev(node.args[0])
        if cas:
            cmp_node = kw.get("cmp") or node.args[1]
            val_node = kw.get("val") or node.args[2]
            mask = None
        else:
            val_node = kw.get("val") or node.args[1]
            mask = self._mask_of(kw["mask"] if "mask" in kw else (node.args[2] if len(node.args) > 2 else None))
        sem = {None: "ACQ_REL", "acq_rel": "ACQ_REL", "relaxed": "RELAXED", "acquire": "ACQUIRE",
               "release": "RELEASE"}.get(kw["sem"].value if isinstance(kw.get("sem"), ast.Constant) else None)
        scope = {None: "DEVICE", "gpu": "DEVICE", "cta": "BLOCK", "sys": "SYS"}.get(
            kw["scope"].value if isinstance(kw.get("scope"), ast.Constant) else None)
        if sem is None or scope is None or any(k in kw and not isinstance(kw[k], ast.Constant) for k in ("sem", "scope")):
            raise self.fail(node, f"tl.{fn}'s sem= / scope= must be string literals Triton knows")
        if not isinstance(ptr, Ptr):
            raise self.fail(node, f"tl.{fn} needs a pointer parameter plus offsets")
        kinds = set(self.array_dtypes.get(ptr.param, ()))
        float_minmax = fn in ("atomic_max", "atomic_min") and kinds == {F32}
        if fn in ("atomic_max", "atomic_min") and kinds and not kinds <= set(INT_DTYPES) and not float_minmax:
            # (Triton does a float max as an integer max / unsigned min of the bits, by the value's sign)
            raise self.fail(node, f"tl.{fn} on a {'/'.join(sorted(kinds))} array is not lowered: cuTile Python 1.7's "
                                  f"ct.{fn} takes integer arrays only (docs/triton.md, limits)")
        if not ptr.terms:
            ptr = Ptr(ptr.param, (Term("1", "0"),))
        arr, offsets, mtext = self.gather_access(ptr, mask, node)
        self._atomic_arrays.add(arr)
        index = offsets.text if mtext is None else f"ct.where({mtext}, {offsets.text}, 2147483647)"
        value = self._value(self.ev(val_node), node)
        if isinstance(value, Scalar):
            value = Tile(f"ct.full({_tup(offsets.shape)}, {value.text}, dtype={arr}.dtype)", offsets.shape,
                         f"{arr}.dtype")
        elif isinstance(value, Tile) and offsets.shape == () and value.shape and all(d == "1" for d in value.shape):
            # one element (`lse - tl.load(x + label)`, a 1-element tile) added at one address: Triton's scalar
            value = Tile(f"ct.reshape({value.text}, ())", (), value.dtype)
        text = self.stored(self.materialize(value, node), arr)
        opts = "".join([f", memory_order=ct.MemoryOrder.{sem}" if sem != "ACQ_REL" else "",
                        f", memory_scope=ct.MemoryScope.{scope}" if scope != "DEVICE" else ""])
        if float_minmax:
            return self._float_atomic_minmax(node, fn, arr, index, Tile(text, offsets.shape, F32), opts)
        if cas:
            expected = self._value(self.ev(cmp_node), node)
            if isinstance(expected, Scalar):
                expected = Tile(f"ct.full({_tup(offsets.shape)}, {expected.text}, dtype={arr}.dtype)", offsets.shape,
                                f"{arr}.dtype")
            etext = self.stored(self.materialize(expected, node), arr)
            return Tile(f"ct.atomic_cas({arr}, {index}, {etext}, {text}{opts})", offsets.shape, f"{arr}.dtype")
        return Tile(f"ct.{fn}({arr}, {index}, {text}{opts})", offsets.shape, f"{arr}.dtype")

    def _float_atomic_minmax(self, node: ast.Call, fn: str, arr: str, index: str, value: Tile, opts: str) -> Tile:
        """``tl.atomic_max(p + off, v)`` on an f32 array at one address (an fp8 scale's absolute maximum, a row's
        maximum): Triton applies a signed max of the bits where v's sign bit is clear and an unsigned min where it
        is set (`semantic.atomic_max`; min: signed min / unsigned max). cuTile Python 1.7's min/max atomics take
        integer arrays only and it has no integer view of an f32 array, so the same update of the bits is applied
        by a compare-and-swap loop on the f32 array: read, compute the updated bits, ``ct.atomic_cas`` (a bitwise
        compare), again from the element it returns until it returned what was expected. The unsigned min / max
        is written with signed operations (the translator takes none of uint32 tiles). The value is the element
        the update replaced, as Triton's. A tile of several addresses (a segment maximum by sorted ids, a
        scatter-amax: ``_float_atomic_minmax_lanes``) runs the loop until every lane's swap went through."""
        several = bool(value.shape) and any(d != "1" for d in value.shape)
        self._temps = getattr(self, "_temps", 0) + 1
        n = f"{self.prefix}{fn[len('atomic_'):]}{self._temps}"
        bits = f"{n}_bits"
        self.emit(f"{n}_at = {index}")
        self.emit(f"{bits} = ct.bitcast({value.text}, ct.int32)")
        signed, unsigned = ("maximum", "minimum") if fn == "atomic_max" else ("minimum", "maximum")

        def updated(old: str) -> str:
            # the unsigned min (max) of the bits with v's, whose sign bit is set, in signed operations: the old
            # bits when their sign bit is clear (v's otherwise, for max), else the signed min (max) of the two
            ob = f"ct.bitcast({old}, ct.int32)"
            u = (f"ct.where({ob} >= 0, {ob if fn == 'atomic_max' else bits}, ct.{unsigned}({ob}, {bits}))")
            return f"ct.bitcast(ct.where({bits} < 0, {u}, ct.{signed}({ob}, {bits})), ct.float32)"

        if "MemoryOrder.RELAXED" in opts:   # `sem="relaxed"`: the loop's compare-and-swaps at acq_rel, a stronger
            # order (each outcome is one relaxed allows; the translator ports no relaxed compare-and-swap in a loop)
            opts = opts.replace(", memory_order=ct.MemoryOrder.RELAXED", "")
            self.notes.append(f"line {getattr(node, 'lineno', 0)}: tl.{fn}(.., sem='relaxed') of f32: its "
                              "compare-and-swap loop at acq_rel")
        if several:
            # each lane's compare-and-swap, again for the lanes that lost it (another lane or program wrote the
            # element between the read and the swap: lanes of one address among them) from the element it
            # returned, until none is left; a lane that won is sent past the array's end (the bounds check skips
            # it) and keeps the element it replaced. Masked lanes are past the end from the start.
            at2 = f"ct.where({n}_done, 2147483647, {n}_at)"
            cas = f"ct.atomic_cas({arr}, {at2}, {n}_old, {updated(n + '_old')}{opts})"
            self.emit(f"{n}_old = ct.gather({arr}, {n}_at)")
            self.emit(f"{n}_done = {n}_at == 2147483647")
            self.emit(f"{n}_prev = {cas}")
            self.emit(f"{n}_done = {n}_done | (ct.bitcast({n}_prev, ct.int32) == ct.bitcast({n}_old, ct.int32))")
            self.emit(f"while ct.sum(ct.where({n}_done, 0, 1)) > 0:")
            self.emit(f"    {n}_old = ct.where({n}_done, {n}_old, {n}_prev)")
            self.emit(f"    {n}_prev = {cas}")
            self.emit(f"    {n}_done = {n}_done | (ct.bitcast({n}_prev, ct.int32) == ct.bitcast({n}_old, ct.int32))")
            return Tile(f"{n}_old", value.shape, F32)
        cas = f"ct.atomic_cas({arr}, {n}_at, {n}_old, {updated(n + '_old')}{opts})"
        self.emit(f"{n}_old = ct.gather({arr}, {n}_at)")
        self.emit(f"{n}_prev = {cas}")
        self.emit(f"while ct.bitcast({n}_prev, ct.int32) != ct.bitcast({n}_old, ct.int32):")
        self.emit(f"    {n}_old = {n}_prev")
        self.emit(f"    {n}_prev = {cas}")
        return Tile(f"{n}_old", value.shape, F32)

    def reshape(self, node: ast.Call, value: ast.expr, shape_args: list[ast.expr]) -> Tile:
        """``x.reshape(shape)`` / ``x.reshape(a, b)`` / ``tl.reshape(x, shape)``."""
        t = self.materialize(self._value(self.ev(value), node), node)
        if len(shape_args) == 1 and isinstance(shape_args[0], (ast.Tuple, ast.List)):
            shape = tuple(self.scalar(e) for e in shape_args[0].elts)
        elif len(shape_args) == 1 and self._names_shape(shape_args[0]):   # `tl.reshape(x, shape)`, `(.., x.shape)`
            shape = self._tuple(shape_args[0])
        else:
            shape = tuple(self.scalar(e) for e in shape_args)
        if not shape:
            raise self.fail(node, "reshape needs the new shape")
        return Tile(f"ct.reshape({t.text}, {_tup(shape)})", shape, t.dtype)

    def _exp(self, x: Tile) -> Tile:
        """Triton computes an f32 exp as ex2.approx(x * log2(e)) (its approximate Exp lowering); so does this,
        whether the tile became f32 by a conversion or by being loaded from an f32 tensor."""
        if self.known_dtype(x) == F32:
            return Tile(f"ct.exp2({_paren(x.text)} * {LOG2E!r})", x.shape, F32)
        return Tile(f"ct.exp({x.text})", x.shape, x.dtype)

    def _launch_dtypes(self, t: Tile) -> set[str]:
        """Every cuTile dtype ``t`` has at some launch (one when it is converted or its array's dtype never varies;
        empty when unknown)."""
        if t.dtype and t.dtype.endswith(".dtype"):
            return set(self.array_dtypes.get(t.dtype[:-len(".dtype")], set()))
        return {t.dtype} if t.dtype else set()

    def known_dtype(self, t: Tile) -> str | None:
        """``t``'s cuTile dtype when the lowering knows it: converted to one, or loaded from an array every launch
        passes with one dtype."""
        seen = self._launch_dtypes(t)
        return next(iter(seen)) if len(seen) == 1 else None

    def convert(self, node: ast.Call, v: object, first: int) -> object:
        """``x.to(dtype, fp_downcast_rounding=, bitcast=)`` / ``tl.cast(x, dtype, ..)`` (its arguments from
        position ``first``): ``ct.astype``, or ``ct.bitcast`` (the same bits as another type of one width)."""
        kw = {k.arg: k.value for k in node.keywords}
        args = node.args[first:]
        dt_node = kw.get("dtype") or (args[0] if args else None)
        dt = self.ev(dt_node) if dt_node is not None else None
        if not isinstance(dt, DType):
            raise self.fail(node, "`.to(dtype)` needs a tl dtype, `x.dtype` or `ptr.dtype.element_ty`")
        rounding = kw.get("fp_downcast_rounding") or (args[1] if len(args) > 1 else None)
        if rounding is not None and not (isinstance(rounding, ast.Constant) and rounding.value in (None, "rtne",
                                                                                                  "rtz")):
            raise self.fail(rounding, f"fp_downcast_rounding={ast.unparse(rounding)}: only round-to-nearest-even "
                                      "(cuTile's conversion) and toward zero are lowered")
        rtz = isinstance(rounding, ast.Constant) and rounding.value == "rtz"
        if self._flag(node, kw, first + 2, "bitcast", False):
            t = self.materialize(self._value(v, node), node)
            return Tile(f"ct.bitcast({t.text}, {dt.text})", t.shape, dt.text)
        if isinstance(v, Scalar):
            if dt.text in ("ct.int32", "ct.int64") and not self._float_scalar(v):
                # an integer widened (`tl.program_id(0).to(tl.int64)`) to keep offsets from overflowing: offsets
                # are tile indices of array views here, and cuTile computes addresses in 64 bits
                note = "integer scalar .to() dropped: offsets become array-view tile indices (64-bit addressing)"
                if note not in self.notes:
                    self.notes.append(note)
                return v
            return Scalar(f"ct.astype({v.text}, {dt.text})")
        if isinstance(v, (Idx, Offset)) and dt.text in ("ct.int32", "ct.int64"):
            # index vectors widened (`tl.arange(0, B).to(tl.int64)`) against overflow: tile indices of views, as above
            note = "index vector .to() dropped: offsets become array-view tile indices (64-bit addressing)"
            if note not in self.notes:
                self.notes.append(note)
            return v
        if isinstance(v, Mask):
            v = self.mask_tile(v, node)
        t = self.materialize(v, node)
        if self.known_dtype(t) in BOOL and dt.text not in BOOL:
            # a boolean tile as a number (`bad.to(tl.int32)` to count lanes): 1 where true, 0 where false — a select
            # (cutile 0.3.1 converts no bool: "Unsupported conversion bool -> i32")
            flt = dt.text in (F32, "ct.float16", "ct.bfloat16", "ct.float64")
            sel = f"ct.where({t.text}, 1.0, 0.0)" if flt else f"ct.where({t.text}, 1, 0)"
            return Tile(sel if dt.text in (F32, "ct.int32") else f"ct.astype({sel}, {dt.text})", t.shape, dt.text)
        if dt.text in BOOL and self.known_dtype(t) not in BOOL:
            # a number as a boolean (`m.to(tl.int1)` of an int8 mask): true where it is not 0, as Triton converts
            # (cutile 0.3.1 converts nothing to bool: "Unsupported conversion i8 -> bool")
            return Tile(f"{_paren(t.text)} != 0", t.shape, "bool")
        wide = {F32: 4, "ct.float64": 8, "ct.float16": 2, "ct.bfloat16": 2}
        if rtz and self.known_dtype(t) is None:
            raise self.fail(rounding, "fp_downcast_rounding='rtz' of a tile whose dtype is not known")
        if rtz and wide.get(self.known_dtype(t) or "", 0) > wide.get(dt.text, 1 if dt.text.startswith(
                "ct.float8") else 0):
            # `x.to(tl.float16, fp_downcast_rounding="rtz")`: a float narrowed rounding toward zero, as Triton's
            # `cvt.rz` (Triton applies the option to float downcasts only; otherwise the conversion is plain)
            return Tile(f"ct.astype({t.text}, {dt.text}, rounding_mode=ct.RoundingMode.RZ)", t.shape, dt.text)
        return Tile(f"ct.astype({t.text}, {dt.text})", t.shape, dt.text)

    def _float_exponent(self, tiles: list) -> list:
        """``libdevice.pow(beta1, step)``, step an int (Adam's bias correction at a step count): Triton calls
        libdevice's ``__nv_powif``; cuTile Python would compile an integer exponent to Tile IR ``fpowi`` (cutile 0.3.1
        has none), so the exponent is converted to f32 (exact below 2^24) and raised with the f32 ``ct.pow``: the
        same power, not checked bit for bit against libdevice (Triton 3.6's interpreter computes no libdevice.pow of
        scalars). A float scalar base becomes an f32 0-d tile (the port takes no binary math of scalars only). Other
        pairs unchanged."""
        base, e = tiles
        if isinstance(e, Scalar) and (self.const_types.get(e.text) == "int" or e.text.lstrip("-").isdigit()):
            e = Tile(f"ct.full((), {e.text}, dtype={F32})", (), F32)
        elif isinstance(e, Tile) and self.known_dtype(e) in INT_DTYPES:
            e = Tile(f"ct.astype({e.text}, {F32})", e.shape, F32)
        else:
            return tiles
        if isinstance(base, Scalar) and self._float_scalar(base):
            base = Tile(f"ct.full((), {base.text}, dtype={F32})", (), F32)
        if not (isinstance(base, Tile) and self.known_dtype(base) == F32):
            return tiles   # (an f64 or unknown base: libdevice's powi, not converted)
        return [base, e]

    def _float_scalar(self, v: Scalar) -> bool:
        import re

        return (self.const_types.get(v.text) == "float" or "ct.float" in v.text
                or re.search(r"(?<![\w.])\d+\.\d*|\de-?\d", v.text) is not None
                or any(self.const_types.get(n) == "float" for n in re.findall(r"(?<![\w.])[A-Za-z_]\w*", v.text)))

    def _runtime_float_tile(self, v: object) -> object:
        """A run-time float scalar (`tl.exp(-r)`, `tl.sigmoid(g)` of a float argument) as the 0-d f32 tile Triton
        computes on, so a function's tile rule (Triton's exp2(x * log2 e), its division) applies; anything else as
        it is."""
        if isinstance(v, Scalar) and self._float_scalar(v) and self.launch_values(v.text) is None and \
                "float64" not in v.text:
            return Tile(f"ct.full((), {v.text}, dtype={F32})", (), F32)
        return v

    def builtin_minmax(self, node: ast.Call, which: str) -> object:
        vals = [self._value(self.ev(a), node) for a in node.args]
        if all(isinstance(v, Scalar) for v in vals):
            return Scalar(f"{which}({', '.join(v.text for v in vals)})")  # type: ignore[union-attr]
        tiles = [v if isinstance(v, Scalar) else self.materialize(v, node) for v in vals]
        out = tiles[0]
        for nxt in tiles[1:]:
            shape = _broadcast(getattr(out, "shape", ()), getattr(nxt, "shape", ()))
            out = Tile(f"ct.{'minimum' if which == 'min' else 'maximum'}({out.text}, {nxt.text})", shape,
                       getattr(out, "dtype", None) or getattr(nxt, "dtype", None))
        return out

    def inline(self, node: ast.Call, fn: ast.FunctionDef) -> object:
        """A @triton.jit helper's body lowered in place: its parameters bound to the call's arguments, the names it
        binds emitted with a prefix of its own; the value of its final ``return`` (a tuple for ``return a, b``)."""
        if self.depth >= 16:
            raise self.fail(node, f"helper {fn.name} calls itself (recursion is not lowered)")
        params = [a.arg for a in fn.args.args]
        bound: dict[str, object] = {}
        if len(node.args) > len(params):
            raise self.fail(node, f"{fn.name} takes {len(params)} arguments, {len(node.args)} given")
        for name, a in zip(params, node.args):
            bound[name] = _NONE if _is_none(a) else self.ev(a)
        for kwd in node.keywords:
            if kwd.arg not in params:
                raise self.fail(node, f"{fn.name} has no parameter {kwd.arg!r}")
            bound[kwd.arg] = _NONE if _is_none(kwd.value) else self.ev(kwd.value)
        for name, d in zip(params[len(params) - len(fn.args.defaults):], fn.args.defaults):
            if name not in bound:
                bound[name] = _NONE if _is_none(d) else self.ev(d)
        missing = [n for n in params if n not in bound]
        if missing:
            raise self.fail(node, f"{fn.name} called without {', '.join(missing)}")
        body = fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        self.inlined += 1
        saved = (self.env, self.prefix, self._carried, self._loop_outer, self.helper_names)
        self.env, self.prefix = bound, f"{fn.name.strip('_')}{self.inlined}_"
        self.helper_names = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)}
        self._carried, self._loop_outer = set(), set()
        self.depth += 1
        try:
            result, todo = None, list(body)
            while todo:
                st = todo.pop(0)
                truth = self.static_truth(st.test) if isinstance(st, ast.If) else None
                if truth is not None:   # `if ACT == "silu": return ..` on constexprs: the taken arm, in place
                    todo[:0] = st.body if truth else st.orelse
                elif isinstance(st, ast.If) and any(isinstance(n, ast.Return) for n in walk_nodes(st)):
                    # `if ACT == "silu": return a` / `elif ..: return b` / `return x` with launches of several
                    # values: each return an assignment of the helper's result, the statements after an `if` copied
                    # into each arm that falls through to them; then lowered as any `if` (on constexprs: kept, each
                    # arm lowered knowing the launches that take it)
                    arms = _returns_as_assignments([st] + todo, "ret_")
                    if arms is None:
                        raise self.fail(st.test, f"helper {fn.name} returns inside an `if` the captured launches do "
                                                 "not all decide alike, and not every path ends in a return of one "
                                                 "arity outside loops: capture each value's launches apart and port "
                                                 "each")
                    for a in arms:
                        self.stmt(a)
                    n = arms[-1].tileport_arity  # type: ignore[attr-defined]
                    result = self.env.get("ret_") if n is None else tuple(self.env.get(f"ret_{i}") for i in range(n))
                    break
                elif isinstance(st, ast.Return):   # the first return reached ends the helper
                    result = None if st.value is None else self.ev(st.value)
                    break
                else:
                    self.stmt(st)
        finally:
            self.depth -= 1
            self.env, self.prefix, self._carried, self._loop_outer, self.helper_names = saved
        return result

    def tuple_comprehension(self, node: ast.ListComp) -> tuple:
        """``[tl.load(p + offs) for p in ptrs]`` over a tuple (a tuple argument of tensors, a tuple built before):
        the element expression once per item, in order — Triton 3.6's tuple comprehension (one generator, a tuple
        to iterate; its result a tuple)."""
        if len(node.generators) != 1 or node.generators[0].ifs or node.generators[0].is_async or \
                not isinstance(node.generators[0].target, ast.Name):
            raise self.fail(node, "a comprehension over a tuple takes one `for NAME in TUPLE` (as Triton's)")
        gen = node.generators[0]
        items = self.ev(gen.iter)
        if not isinstance(items, tuple):
            raise self.fail(gen.iter, "only tuple comprehensions are supported (as Triton 3.6): "
                                      f"`{ast.unparse(gen.iter)}` is not a tuple")
        name = gen.target.id
        had, saved = name in self.env, self.env.get(name)
        out = []
        try:
            for item in items:
                self.env[name] = item
                out.append(self.ev(node.elt))
        finally:
            if had:
                self.env[name] = saved
            else:
                self.env.pop(name, None)
        return tuple(out)

    def constexpr_function(self, node: ast.Call, name: str) -> object:
        """``NCH: tl.constexpr = _num_chunks(N, BLOCK)``, ``_num_chunks`` a ``@triton.constexpr_function``: Python
        that Triton runs at compile time on the constexprs' values. A function that is one ``return`` of an
        expression the lowering takes is inlined as a helper (on ct.Constant parameters: folded per specialization,
        right at any value); another is run here on each captured launch's values (its arguments constexprs and
        literals), and the value every launch gives is a literal (launches that disagree: refused)."""
        fdef = self.k.constexpr_functions[name]
        n = len(next(iter(self.const_values.values()))) if self.const_values else 1
        calls = []
        for i in range(n):
            values = {p: vals[i] for p, vals in self.const_values.items()}
            try:
                calls.append(([self._static(a, values) for a in node.args],
                              {k.arg: self._static(k.value, values) for k in node.keywords if k.arg}))
            except _NotStatic:
                raise self.fail(node, f"{name} (a triton.constexpr_function) is called here on a value that is not "
                                      "a constexpr or a literal") from None
        body = [st for st in fdef.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
        if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
            at = (len(self.lines), len(self.notes))
            try:
                value = self.inline(node, fdef)
                if isinstance(value, Scalar):
                    return value
            except LoweringError:   # (`x.bit_length()`: Python the lowering has no counterpart for)
                pass
            del self.lines[at[0]:], self.notes[at[1]:]
        fn = _constexpr_callable(self.k, name)
        results = []
        for args, kwargs in calls:
            try:
                results.append(fn(*args, **kwargs))
            except Exception as exc:  # noqa: BLE001 — the user's function, run as Triton runs it
                raise self.fail(node, f"{name} (a triton.constexpr_function) raised {type(exc).__name__}: {exc} at "
                                      f"a captured launch's constexprs ({', '.join(map(repr, args))})") from None
        if len({repr(r) for r in results}) == 1 and isinstance(results[0], (bool, int, float, str)):
            return self.ev(ast.copy_location(ast.Constant(results[0]), node))
        raise self.fail(node, f"{name} (a triton.constexpr_function) gives {', '.join(map(repr, results))} at the "
                              "captured launches, and is not one `return` of an expression the lowering takes: "
                              "capture each value's launches apart and port each")

    def _axis(self, node: ast.Call, kw: dict) -> str:
        a = kw.get("axis") or (node.args[0] if node.args else None)
        if not (isinstance(a, ast.Constant) and a.value in (0, 1, 2)):
            raise self.fail(node, "program axis must be a literal 0, 1 or 2")
        return str(a.value)

    def _dot_options(self, node: ast.Call, kw: dict, a: object, b: object) -> None:
        """tl.dot's options that change nothing here: ``out_dtype=tl.float32`` (the f32 accumulator's type), and
        ``input_precision=`` / ``allow_tf32=`` on 16- or 8-bit operands (they choose how f32 operands multiply).
        On f32 operands, ``input_precision="ieee"`` / ``allow_tf32=False`` (f32 products, as ``ct.mma`` of f32
        tiles computes them) is lowered and marks the product (``self._ieee_dots``); tf32 / tf32x3 are refused."""
        narrow = all(isinstance(t, Tile) and (self.known_dtype(t) or "").startswith(("ct.float16", "ct.bfloat16",
                                                                                    "ct.float8")) for t in (a, b))
        wide = all(isinstance(t, Tile) and self.known_dtype(t) == F32 for t in (a, b))
        for k, v in kw.items():
            if k == "out_dtype" and isinstance(self.ev(v), DType) and self.ev(v).text == F32:  # type: ignore
                continue
            if k == "out_dtype" and isinstance(self.ev(v), DType) and self.ev(v).text == "ct.float16" and \
                    all(isinstance(t, Tile) and (self.known_dtype(t) or "").startswith(("ct.float16", "ct.float8"))
                        for t in (a, b)):  # type: ignore
                # f16 / fp8 operands accumulated in f16 (Triton's f16 mma): ct.mma into an f16 accumulator
                self._f16_dots.add(id(node))
                continue
            if k in ("input_precision", "allow_tf32") and narrow:
                continue
            if wide and ((k == "input_precision" and self._launch_option(v) == "ieee")
                         or (k == "allow_tf32" and self._launch_option(v) is False)):
                self._ieee_dots.add(id(node))
                continue
            if k == "max_num_imprecise_acc" and isinstance(v, ast.Constant) and v.value in (None, 0):
                continue   # (0: every product accumulated in full precision, Triton's default)
            if k == "max_num_imprecise_acc" and isinstance(self._launch_option(v), int) and \
                    not isinstance(self._launch_option(v), bool) and self._launch_option(v) > 0:
                # how many K-elements Hopper's fp8 MMA sums in its own precision before Triton adds them to the f32
                # accumulator (ignored by Triton for other operands): a precision knob with no cuTile counterpart;
                # cuTile's fp8 ct.mma adds each instruction's products (K = 32) to the f32 accumulator (docs/triton.md
                # "fp8 products accumulate outside the MMA"), so the sums differ from Triton's within fp8 rounding
                self.notes.append(f"line {getattr(node, 'lineno', 0)}: tl.dot max_num_imprecise_acc="
                                  f"{ast.unparse(v)} dropped (fp8 products are added to the f32 accumulator per MMA "
                                  "instruction)")
                continue
            if k == "out_dtype" and isinstance(self.ev(v), DType) and self.ev(v).text == "ct.int32" and \
                    all(isinstance(t, Tile) and self.known_dtype(t) in ("ct.int8", "ct.uint8") for t in (a, b)):
                continue   # 8-bit integers into int32: the accumulator they take anyway
            if k == "out_dtype" and isinstance(self.ev(v), DType) and self.ev(v).text == "ct.float64" and \
                    all(isinstance(t, Tile) and self.known_dtype(t) == "ct.float64" for t in (a, b)):
                continue   # f64 operands into f64: the accumulator they take anyway (an f64 acc needs it said)
            vals = None if isinstance(v, ast.Constant) else self.launch_values(ast.unparse(v))
            if vals and len({repr(x) for x in vals}) > 1:
                raise self.fail(node, f"tl.dot option {k}={ast.unparse(v)}: the captured launches give it "
                                      f"{', '.join(sorted({repr(x) for x in vals}))}, which lower differently: "
                                      "capture each value's launches apart")
            raise self.fail(node, f"tl.dot option {k}={ast.unparse(v)} is not lowered (out_dtype=tl.float32; "
                                  "input_precision / allow_tf32 on 16- or 8-bit operands only)")

    def _launch_option(self, v: ast.expr) -> object:
        """A keyword option's value: a literal, or a constexpr (`input_precision=PREC`, also a helper's parameter
        bound to one) that every captured launch gives alike; ``...`` when unknown or the launches disagree."""
        if isinstance(v, ast.Constant):
            return v.value
        vals = self.launch_values(ast.unparse(v))
        if vals is None:
            e = self.ev(v)
            vals = self.launch_values(e.text) if isinstance(e, Scalar) else None
        return vals[0] if vals and all(x == vals[0] and type(x) is type(vals[0]) for x in vals) else ...

    def _dot_zero(self, node: ast.AST, a: object, b: object) -> Tile:
        """The accumulator ``tl.dot(a, b)`` starts from: zeros of f32 (int32 for 8-bit integers), Triton's default
        out_dtype (f16 for out_dtype=tl.float16), of 2-D or batched 3-D operands; for 16-/8-bit operands only (f32 operands multiply as tf32 in Triton, which ct.mma is not)."""
        ta, tb = (self.materialize(self._value(x, node), node) for x in (a, b))
        kinds = {self.known_dtype(t) for t in (ta, tb)}
        acc = "ct.int32" if kinds <= {"ct.int8", "ct.uint8"} else F32 if kinds and all(
            (k or "").startswith(("ct.float16", "ct.bfloat16", "ct.float8")) for k in kinds) else None
        if acc is None and all(set() < self._launch_dtypes(t) <= {"ct.float16", "ct.bfloat16"} for t in (ta, tb)):
            acc = F32   # (launches passing f16 and bf16 operands: f32 accumulation at each, Triton's; was refused)
        if kinds == {F32} and id(node) in self._ieee_dots:   # f32 products (input_precision="ieee")
            acc = F32
        if kinds == {"ct.float64"}:   # f64 products into f64 (Triton's dot of f64 operands returns f64)
            acc = "ct.float64"
        self._dot_operand_dtypes(node, kinds)
        if id(node) in self._f16_dots:   # out_dtype=tl.float16 of f16 operands
            acc = "ct.float16"
        rank = len(ta.shape)
        if acc is None and kinds == {F32}:   # (with an accumulator, refused alike: _dot)
            raise self.fail(node, F32_DOT_AT_TF32)
        if acc is None or rank not in (2, 3) or len(tb.shape) != rank:
            raise self.fail(node, "tl.dot(a, b) without an accumulator is lowered for 2-D or 3-D operands of 16- "
                                  "or 8-bit types known when lowering, f64 ones, and f32 ones with "
                                  "input_precision=\"ieee\" / allow_tf32=False (by default f32 ones multiply as "
                                  "tf32 in Triton)")
        # (rank 3: a batch of products, [B, M, K] x [B, K, N], as Triton's 3-D dot and cuTile's batched mma)
        shape = (ta.shape[0], tb.shape[1]) if rank == 2 else (ta.shape[0], ta.shape[1], tb.shape[2])
        return Tile(f"ct.zeros({_tup(shape)}, dtype={acc})", shape, acc)

    #: tl.dot_scaled's operand formats → the cuTile dtype of an element (e2m1: two to a byte, the first low)
    SCALED_FORMATS = {"e2m1": "ct.float4_e2m1fn", "e4m3": "ct.float8_e4m3fn", "e5m2": "ct.float8_e5m2"}

    def dot_scaled(self, node: ast.Call, kw: dict) -> Tile:
        """``tl.dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, ..)`` (microscaled
        operands, Triton >= 3.3) as ``ct.mma_scaled(x, x_scale, y, y_scale, acc)`` (sm_100):

        - an e2m1 operand is uint8 bytes, two 4-bit elements to a byte packed along K, the first in the low bits:
          ``ct.unpack_from_bytes`` of the flattened bytes (rhs: of its transpose, whose rows are K), reshaped;
        - an e4m3 / e5m2 operand stored as uint8 is reinterpreted (``ct.bitcast``), one of the fp8 type kept;
        - a uint8 scale is e8m0 (``ct.bitcast`` to ``ct.float8_e8m0fnu``), an fp8e4nv one (nvfp4) kept;
          rhs_scale is ``[N, K // group]`` in Triton and ``[K_s, N]`` for cuTile: transposed;
        - ``acc`` an f32 tile, or f32 zeros.

        Refused, saying why: formats bf16 / fp16, a scale of None, two different formats (cuTile's mma_scaled takes
        one operand dtype and one scale dtype), ``lhs_k_pack`` / ``rhs_k_pack`` False, ``fast_math=True``,
        ``out_dtype`` other than f32, operands other than 2-D. The group size (K over the scale's K) is checked by
        cuTile when the lowered kernel compiles (e4m3/e5m2: 32 with e8m0; e2m1: 16 or 32 with e8m0, 16 with e4m3)."""
        names = ["lhs", "lhs_scale", "lhs_format", "rhs", "rhs_scale", "rhs_format", "acc", "fast_math",
                 "lhs_k_pack", "rhs_k_pack", "out_dtype"]
        if len(node.args) > len(names) or set(kw) - set(names):
            raise self.fail(node, "tl.dot_scaled: unknown arguments")
        formats = []
        for k in (2, 5):
            v = self._arg(node, kw, k, names[k])
            f = self._launch_option(v)
            vals = None if isinstance(v, ast.Constant) else self.launch_values(ast.unparse(v))
            if f is ... and vals and len({repr(x) for x in vals}) > 1:
                raise self.fail(node, f"tl.dot_scaled {names[k]}={ast.unparse(v)}: the captured launches give it "
                                      f"{', '.join(sorted({repr(x) for x in vals}))}, which lower differently: "
                                      "capture each value's launches apart")
            if f not in self.SCALED_FORMATS:
                raise self.fail(node, f"tl.dot_scaled {names[k]}={f!r}: lowered for the microscaling formats "
                                      "e2m1, e4m3, e5m2 (cuTile's mma_scaled takes fp4 / fp8 operands only; bf16 / "
                                      "fp16 operands are Triton's software emulation)" if f is not ... else
                                      f"tl.dot_scaled {names[k]}: a string literal or a constexpr every launch "
                                      "gives alike is expected")
            formats.append(f)
        if formats[0] != formats[1]:
            raise self.fail(node, f"tl.dot_scaled of {formats[0]} x {formats[1]} operands: cuTile Python 1.7's "
                                  "ct.mma_scaled takes one dtype for both operands (and one scale dtype); mixed "
                                  "precision is a cuTile limit (docs/triton.md)")
        for k, name, want in ((7, "fast_math", False), (8, "lhs_k_pack", True), (9, "rhs_k_pack", True)):
            if self._launch_option(self._arg(node, kw, k, name, ast.Constant(want))) is not want:
                raise self.fail(node, f"tl.dot_scaled {name}: lowered for {want} only" + (
                    " (4-bit operands packed along M / N)" if "pack" in name else
                    " (fast_math changes Triton's upcasting where no native instruction exists)"))
        out = self._arg(node, kw, 10, "out_dtype", ast.Constant(None))
        if not (isinstance(out, ast.Constant) and out.value is None):
            o = self.ev(out)
            if not (isinstance(o, DType) and o.text == F32):
                raise self.fail(node, "tl.dot_scaled out_dtype: tl.float32 only (Triton's own restriction)")
        fmt = formats[0]
        want = self.SCALED_FORMATS[fmt]
        operands, scales = [], []
        for k, side in ((0, "lhs"), (3, "rhs")):
            t = self._tile_arg(node, kw, k, side)
            sc_node = self._arg(node, kw, k + 1, f"{side}_scale")
            if isinstance(sc_node, ast.Constant) and sc_node.value is None:
                raise self.fail(node, f"tl.dot_scaled with {side}_scale=None: cuTile's mma_scaled scales both "
                                      "operands (pass ones)")
            sc = self._tile_arg(node, kw, k + 1, f"{side}_scale")
            if len(t.shape) != 2 or len(sc.shape) != 2:
                raise self.fail(node, "tl.dot_scaled of 2-D operands and scales only (3-D: not lowered)")
            dt = self.known_dtype(t)
            if fmt == "e2m1":
                if dt != "ct.uint8":
                    raise self.fail(node, f"tl.dot_scaled: an e2m1 {side} is uint8 bytes (two 4-bit elements each); "
                                          f"this one is {dt or 'of an unknown dtype'}")
                rows, kb = (t.shape[0], t.shape[1]) if side == "lhs" else (t.shape[1], t.shape[0])
                flat = t.text if side == "lhs" else f"ct.transpose({t.text})"
                text = f"ct.reshape(ct.unpack_from_bytes(ct.reshape({flat}, (-1,)), ct.float4_e2m1fn), " \
                       f"({rows}, 2 * {_paren(kb)}))"
                k2 = f"2 * {_paren(kb)}"
                t = Tile(text if side == "lhs" else f"ct.transpose({text})",
                         (t.shape[0], k2) if side == "lhs" else (k2, t.shape[1]), want)
            elif dt == "ct.uint8":
                t = Tile(f"ct.bitcast({t.text}, {want})", t.shape, want)
            elif dt != want:
                raise self.fail(node, f"tl.dot_scaled: an {fmt} {side} is {want} or uint8; this one is "
                                      f"{dt or 'of an unknown dtype'}")
            sdt = self.known_dtype(sc)
            if sdt == "ct.uint8":
                sc = Tile(f"ct.bitcast({sc.text}, ct.float8_e8m0fnu)", sc.shape, "ct.float8_e8m0fnu")
            elif not (sdt == "ct.float8_e4m3fn" and fmt == "e2m1"):
                raise self.fail(node, f"tl.dot_scaled: {side}_scale is e8m0 bytes (uint8), or float8e4nv with e2m1 "
                                      f"operands (nvfp4); this one is {sdt or 'of an unknown dtype'}")
            if side == "rhs":   # Triton's [N, K // group]; cuTile's [K_s, N]
                sc = Tile(f"ct.transpose({sc.text})", sc.shape[::-1], sc.dtype)
            operands.append(t)
            scales.append(sc)
        x, y = operands
        acc_node = self._arg(node, kw, 6, "acc", ast.Constant(None))
        if isinstance(acc_node, ast.Constant) and acc_node.value is None:
            shape = (x.shape[0], y.shape[1])
            acc = Tile(f"ct.zeros({_tup(shape)}, dtype={F32})", shape, F32)
        else:
            acc = self.materialize(self._value(self.ev(acc_node), node), node)
            if self.known_dtype(acc) not in (F32, None):
                raise self.fail(node, "tl.dot_scaled: acc must be an f32 tile")
        return Tile(f"ct.mma_scaled({x.text}, {scales[0].text}, {y.text}, {scales[1].text}, {acc.text})",
                    acc.shape, F32)

    def _dot_operand_dtypes(self, node: ast.AST, kinds: set) -> None:
        """Refuses two fp8 formats (Triton multiplies e4m3 x e5m2; cuTile Python 1.7's ct.mma takes one operand
        dtype: "x and y must have the same dtype unless they are int8/uint8")."""
        if len(kinds) == 2 and all((k or "").startswith("ct.float8") for k in kinds):
            raise self.fail(node, f"tl.dot of {' and '.join(sorted(kinds))} operands: cuTile Python 1.7's ct.mma "
                                  "takes one operand dtype (a cuTile limit; convert one operand to the other's format "
                                  "only if that is what you mean: it rounds)")

    def _dot(self, node: ast.AST, a: object, b: object, acc: object) -> Tile:
        ta, tb, tc = (self.materialize(x, node) for x in (a, b, acc))
        self._dot_operand_dtypes(node, {self.known_dtype(ta), self.known_dtype(tb)})
        if F32 in self._launch_dtypes(ta) and F32 in self._launch_dtypes(tb) and id(node) not in self._ieee_dots:
            # (with an accumulator too: `acc = tl.dot(a, b, acc)`, `acc += tl.dot(a, b)` were lowered to ct.mma of
            # the f32 tiles, f32 products where Triton multiplies tf32-rounded operands, silently; so were the f32
            # launches of operands other launches pass as f16)
            raise self.fail(node, F32_DOT_AT_TF32 + (" (at the captured launches passing f32 operands)"
                                                     if self.known_dtype(ta) != F32 else ""))
        return Tile(f"ct.mma({ta.text}, {tb.text}, {tc.text})", tc.shape, tc.dtype)

    # ------------------------------------------------ memory

    def _view(self, param: str, dims: list[Dim], node: ast.AST) -> None:
        old = self.views.get(param)
        if old is None:
            self.views[param] = View(param, tuple(dims))
            self.view_sites[param] = node
            self._view_arms[param] = tuple(self._arm_stack)
            for i, d in enumerate(dims):
                if d.extent is not None:
                    self._extent_arms[(param, i)] = tuple(self._arm_stack)
                    self._extent_launches[(param, i)] = frozenset(self._launch_ids)
            return
        if [d.stride for d in old.dims] != [d.stride for d in dims]:
            if param in self._flat_gathers and param not in self.seed_views and len(dims) > 1:
                raise _Relayout(param, View(param, tuple(Dim(d.stride, None) for d in dims)))
            if (param in self._element_only and param not in self.seed_views and param not in self.gathered_arrays
                    and len(dims) > len(old.dims) and all(d.extent is None for d in old.dims)
                    and _subsequence([d.stride for d in old.dims], [d.stride for d in dims])):
                # a view one element made (`loss_ptr += pid * loss_stride; tl.store(loss_ptr, s)` in one arm of an
                # `if` on constexprs), then a tile of more dimensions (`loss_ptr + offs` in the other arm, a loss per
                # element): lowered again with the richer view from the first access, the element at index 0 of the
                # dimensions it lacks — where it made every access a gather / scatter at flat offsets
                raise _Relayout(param, View(param, tuple(Dim(d.stride, None) for d in dims)))
            if param in self._atomic_arrays and param not in self.gathered_arrays:
                # an array an atomic reached at flat offsets (split-K partials added by `tl.atomic_add`), then read
                # as a tile (the last program's sum): every access of it a gather, as for atomics beside tiles
                raise _AtomicArrays({param})
            if param not in self.gathered_arrays and any((c, not t) in self._arm_stack
                                                         for c, t in self._view_arms.get(param, ())):
                # laid out otherwise in the other arm of an `if` on constexprs the launches decide differently
                # (RoPE's halves `d`, `d + HD // 2` for neox, pairs `2 * d`, `2 * d + 1` interleaved): one view
                # cannot serve both, so every access of it a gather/scatter at its element offsets
                raise _UnitStrideArrays({param})
            site = self.view_sites[param]
            raise self.fail(node, f"{param} is addressed with strides ({', '.join(d.stride for d in dims)}) here but "
                                  f"({', '.join(d.stride for d in old.dims)}) at line {site.lineno}: one pointer must be "
                                  "read through one layout")
        merged = []
        for i, (o, d) in enumerate(zip(old.dims, dims)):
            if o.extent is not None and d.extent is not None and o.extent != d.extent:
                extent = self._extent_by_arm(param, i, o.extent, d.extent)
                if extent is None and param not in self.gathered_arrays:
                    # (`tl.load(x + cols, mask=cols < n_valid)` and `mask=cols < n_cols` of one row: no one view
                    # bound) every access of the array a gather/scatter under its own mask, exact
                    raise _MaskedArrays({param})
                if extent is None:
                    raise self.fail(node, f"{param} is bounded by {d.extent} here but by {o.extent} at line "
                                          f"{self.view_sites[param].lineno}")
                merged.append(Dim(o.stride, extent))
                self._extent_launches[(param, i)] = self._extent_launches.get((param, i), frozenset()) | \
                    frozenset(self._launch_ids)
                continue
            if o.extent is None and d.extent is not None:
                self._extent_arms[(param, i)] = tuple(self._arm_stack)
            if d.extent is not None:
                self._extent_launches[(param, i)] = self._extent_launches.get((param, i), frozenset()) | \
                    frozenset(self._launch_ids)
            merged.append(Dim(o.stride, o.extent or d.extent))
        self.views[param] = View(param, tuple(merged))

    def _extent_by_arm(self, param: str, dim: int, old: str, new: str) -> str | None:
        """One view dimension bounded differently in the two arms of a constexpr `if` the launches decide
        differently (`if TRANS: x = tl.load(X + n[None, :] * s0 + m[:, None] * s1, ..)` / `else: .. m * s0 + n *
        s1`): each launch takes one arm, so the extent is the arm's bound, chosen at launch (`N if TRANS else M`);
        None when the two bounds are not from the two arms of one such `if`."""
        was, now = self._extent_arms.get((param, dim), ()), tuple(self._arm_stack)
        k = 0
        while k < min(len(was), len(now)) and was[k] == now[k]:
            k += 1
        if k >= len(was) or k >= len(now) or was[k][0] != now[k][0] or was[k][1] == now[k][1]:
            return None
        test, taken_now = now[k]
        on_true, on_false = (new, old) if taken_now else (old, new)
        self._extent_arms[(param, dim)] = now[:k]
        return f"({on_true} if {test} else {on_false})"

    @staticmethod
    def _steps_of_bound(scalars: list[Term], runs: list[Term], bounds: dict[int, str]) -> list[Term]:
        """An element offset that is a whole number of a unit-stride run's extent (`x + row * stride + N + col`
        masked by `col < N`: the up half of a `[rows, 2 * N]` gate/up row; `+ 2 * N`: a third chunk) is steps of a
        dimension of stride N (index 1, 2), not N elements: the run keeps its extent and the view its tiles (the
        other accesses, without the term, read index 0 of that dimension)."""
        out = list(scalars)
        for j, t in enumerate(out):
            if t.stride != "1" or not isinstance(t.index, str):
                continue
            for k, r in enumerate(runs):
                bound = bounds.get(k)
                if r.stride != "1" or bound is None or not _plain(bound):
                    continue
                steps = _times(t.index, bound)
                if steps is not None:
                    out[j] = Term(bound, steps)
                    break
        return out

    def _outermost(self, stride: str, strides: list[str]) -> bool:
        """``stride`` is at least every one of ``strides`` at every captured launch (the view's outermost
        dimension: its extent is what the tensor leaves, not one tensor dimension's)."""
        mine = self.launch_values(stride)
        if not mine or not all(isinstance(v, int) for v in mine):
            return False
        for st in strides:
            vals = self.launch_values(st)
            if not vals or not all(isinstance(v, int) and v <= m for v, m in zip(vals, mine)):
                return False
        return True

    def _scalars_onto_runs(self, param: str, scalars: list[Term], runs: list[Term], bounds: dict[int, str]
                           ) -> list[Term]:
        """A scalar term of the same stride as an index vector of the access (``x + 2 * C + r[:, None] * C + c``,
        ``row + 2 * H * D + h[:, None] * D + d``: steps of the rows the run walks) moved into that run's tile index
        when it is a whole number of its blocks (row block 2 / R); else (a masked run, a wrapped one, an offset
        inside a block, a run whose stride is not the access's largest: its extent is a tensor dimension's, which
        the blocks may pass) every access of the array is a gather / scatter. As a dimension of its own it shared the
        stride with the run, whose extent took the tensor's rows and left it an extent of 1: the tile lay past it,
        read as padding or dropped when stored, silently. ``runs`` is updated in place."""
        out: list[Term] = []
        for t in scalars:
            same = [k for k, r in enumerate(runs) if r.stride == t.stride and isinstance(r.index, Idx)]
            if not same or not isinstance(t.index, str) or t.stride in ("0", "1"):
                # (a unit-stride element offset: the rules below, _UnitStrideArrays)
                out.append(t)
                continue
            k = same[0]
            if k in bounds:   # (a masked run keeps its extent, the scalar dimension takes the rows left: exact)
                out.append(t)
                continue
            r = runs[k].index
            q = self._in_blocks(Scalar(t.index), r.size)  # type: ignore[union-attr]
            if q is None:
                whole = self._whole_blocks(t.index, r.size)  # type: ignore[union-attr]
                q = None if whole is None else str(whole)
            if q is None or r.wrap is not None or \
                    not self._outermost(runs[k].stride, [u.stride for u in scalars + runs]):  # type: ignore
                if param not in self.gathered_arrays:
                    raise _UnitStrideArrays({param})
                out.append(t)
                continue
            if q != "0":
                moved = q if r.index == "0" else f"{_paren(r.index)} + {_paren(q)}"  # type: ignore[union-attr]
                runs[k] = Term(runs[k].stride, replace(r, index=moved))  # type: ignore[type-var]
        return out

    def _scalar_dims_unified(self, param: str, scalars: list[Term], runs: list[Term], node: ast.AST,
                             bounds: dict[int, str]) -> list[Term]:
        """The scalar terms of an access of ``param`` matched to its view when the two differ only in scalar
        dimensions (`y + 2 * offs` and `y + 2 * offs + 1`: the halves of interleaved pairs; `out + 1 + e` and
        `out + tl.arange(0, 1)`): a dimension the view has and this access lacks is read at index 0; one this
        access has and the view lacks makes the lowering start again with it in the view from the first access
        (a seeded view)."""
        old = self.views.get(param)
        if old is None and param in self.seed_views:
            old = self.views[param] = self.seed_views[param]
            self.view_sites[param] = node
        if old is None:
            return scalars
        n_old = len(old.dims) - len(runs)
        if n_old < 0 or [d.stride for d in old.dims[n_old:]] != [t.stride for t in runs]:
            return scalars
        have, want = [d.stride for d in old.dims[:n_old]], [t.stride for t in scalars]
        if have == want:
            return scalars
        if _subsequence(want, have):
            out, k = [], 0
            for st in have:
                if k < len(scalars) and scalars[k].stride == st:
                    out.append(scalars[k])
                    k += 1
                else:
                    at = self._run_onto_rows(st, runs, bounds)
                    if at is None and param not in self.gathered_arrays:
                        raise _UnitStrideArrays({param})
                    out.append(Term(st, at or "0"))
            return out
        if _subsequence(have, want) and param not in self.seed_views:
            raise _Relayout(param, View(param, tuple(Dim(st, None) for st in want) + old.dims[n_old:]))
        return scalars

    @staticmethod
    def _run_onto_rows(stride: str, runs: list[Term], bounds: dict[int, str]) -> str | None:
        """The index along a view dimension of ``stride`` that an access lacks: 0, unless a unit-stride run of the
        access steps whole rows of it (`w + t * K + tl.arange(0, K)` read through the view `(K, 1)` that `w + t * K +
        k` made: tile t of block K is row t, not tile t of a row K long, which reads past the row's extent). With the
        stride q times the run's block (q = 1 above), tile t is tile `t % q` of row `t // q`: ``runs`` is updated in
        place with the tile index left in the row. None where an unmasked run at a tile index other than 0 has a
        block that divides no row (it may reach past row 0's extent, which Triton reads as the next rows): the
        array is then gathered at every access (exact). A masked run stays in row 0: the mask is its extent."""
        for j, t in enumerate(runs):
            r = t.index
            if t.stride != "1" or not isinstance(r, Idx) or r.index == "0" or r.wrap is not None:
                continue
            if j in bounds:
                continue
            q = linear.quotient(stride, r.size)
            if q is None:
                return None
            if q == "1":
                runs[j] = Term("1", replace(r, index="0"))
                return r.index
            runs[j] = Term("1", replace(r, index=f"({r.index}) % ({q})"))
            return f"({r.index}) // ({q})"
        return "0"

    def _element_onto_view(self, scalars: list[Term], view: View) -> list[Term] | None:
        """One element of an array read before through a view of other strides (`tl.load(g + i_bh * T + i_t * BT +
        last)` after `tl.make_block_ptr(g + i_bh * T, (T,), (1,), (i_t * BT,), (BT,), (0,))`): each term moved onto
        the view dimension of its stride, or of a stride it is a launch-known multiple of (`i_t * BT` onto the unit
        stride: index `i_t * BT + last`); the same address. None when a term fits no dimension, or several."""
        parts: list[list[str]] = [[] for _ in view.dims]
        for t in scalars:
            exact = [k for k, d in enumerate(view.dims) if d.stride == t.stride]
            if exact:
                parts[exact[0]].append(str(t.index))
                continue
            fits = []
            for k, d in enumerate(view.dims):
                q = linear.quotient(t.stride, d.stride) if d.stride != "0" else None
                if q is not None and self.launch_expr(q):
                    fits.append((k, q))
            if len(fits) != 1:
                return None
            k, q = fits[0]
            parts[k].append(f"{_paren(str(t.index))} * {_paren(q)}")
        return [Term(d.stride, " + ".join(p) if p else "0") for d, p in zip(view.dims, parts)]

    @staticmethod
    def _element_in_rows(scalars: list[Term], view: View) -> list[Term]:
        """One element of a row view ``(S, 1)`` at an element offset ``o`` along the unit stride (`x_ptr + (row + 1)
        * stride - 1`: the row's last element; `off = row * stride + 1; x_ptr + off`): row ``r + o // S``, column
        ``o % S`` (floor division), the element at that address whichever row it lies in. Index ``(r, o)`` read
        column ``o`` of row ``r``, past the column extent for such offsets (padding, not the element). A literal
        0 stays as it is."""
        strides = [d.stride for d in view.dims]
        outer = [s for s in strides if s != "1"]
        if [t.stride for t in scalars] != strides or "1" not in strides or len(outer) != 1 or outer[0] == "0":
            return scalars
        k, j = strides.index("1"), strides.index(outer[0])
        o = str(scalars[k].index)
        if o == "0":
            return scalars
        out = list(scalars)
        row = str(scalars[j].index)
        rows = f"{_paren(o)} // {_paren(outer[0])}"
        out[j] = Term(outer[0], rows if row == "0" else f"{_paren(row)} + {rows}")
        out[k] = Term("1", f"{_paren(o)} % {_paren(outer[0])}")
        return out

    @staticmethod
    def is_gather(ptr: object) -> bool:
        return isinstance(ptr, Ptr) and any(isinstance(t.index, Tile) for t in ptr.terms)

    def gather_access(self, ptr: Ptr, mask: object, node: ast.AST, nd: bool = False
                      ) -> tuple[str, Tile, str | None]:
        """(array, offset tile, mask tile text or None) of an access whose offsets are not a tile of a view: the
        pointer's view is the flat vector (stride 1), the offsets one int32 tile (ct.gather / ct.scatter check
        each against its extent). With ``nd``, a pointer already read through a strided view whose terms each run
        along one of its dimensions is gathered through that view instead (an index per dimension: `(row + y //
        stride, y % stride)` for `X + row * stride + y`, y computed offsets)."""
        per_dim = self._indices_in_view(ptr, node) if nd else None
        if per_dim is not None:
            offsets = Tile("(" + ", ".join(t.text for t in per_dim) + ")", _broadcast_all(t.shape for t in per_dim),
                           "ct.int32")
        else:
            if nd and ptr.param not in self.views:
                self._flat_gathers.add(ptr.param)   # a strided access found later lowers this one again
            self._view(ptr.param, [Dim("1", None)], node)
            offsets = self.offset_tile(ptr.terms, node)
        if mask is None:
            return ptr.param, offsets, None
        m = self.mask_tile(mask, node) if isinstance(mask, Mask) else mask
        if not isinstance(m, Tile):
            raise self.fail(node, "a gather's mask must be a boolean tile")
        return ptr.param, offsets, m.text

    def _indices_in_view(self, ptr: Ptr, node: ast.AST) -> list[Tile] | None:
        """One index tile per dimension of ``ptr``'s existing strided view, when each of its terms has one of the
        view's strides; None otherwise.

        A term whose index is a computed tile (offsets that are data: ``idx * stride + cols``, ``e`` loaded from
        memory) always has stride 1, but it is an element offset, not an index of the view's unit-stride
        dimension: it may step across rows. Such offsets (with the other unit-stride terms) are split over a
        2-D view ``(S, 1)`` as ``row + o // S``, ``o % S`` (floor division: the element at that address, whatever
        row it lies in; an element between rows that the view does not cover, column ``o % S`` past the view's
        column extent, reads the padding). Putting ``o`` on the unit dimension read row 0 at column ``o``, bounded
        by the column extent: other elements. With more strided dimensions (whose order is not known when
        lowering) such offsets are refused."""
        view = self.views.get(ptr.param)
        if view is None and ptr.param in self.seed_views:   # strided further on (a second lowering's knowledge)
            view = self.views[ptr.param] = self.seed_views[ptr.param]
            self.view_sites[ptr.param] = node
        if view is None or len(view.dims) < 2 or len({d.stride for d in view.dims}) != len(view.dims):
            return None
        by_stride: dict[str, list[Term]] = {d.stride: [] for d in view.dims}
        for t in ptr.terms:
            if t.stride not in by_stride:
                return None
            by_stride[t.stride].append(t)
        flat = [t for t in by_stride.get("1", []) if isinstance(t.index, Tile)]
        split: tuple[str, Tile] | None = None   # (the stride of the dimension above the unit one, the offsets)
        if flat:
            outer = [d.stride for d in view.dims if d.stride not in ("1", "0")]
            if len(outer) != 1:
                if ptr.param not in self.gathered_arrays:
                    # (a view of more strided dimensions, whose order is not known when lowering: the offsets cannot
                    # be split over it) every access of the array a gather/scatter at its flat element offsets,
                    # Triton's addresses exactly
                    raise _UnitStrideArrays({ptr.param})
                raise self.fail(node, f"{ptr.param} is read at computed element offsets here and through a view of "
                                      f"strides ({', '.join(d.stride for d in view.dims)}) at line "
                                      f"{getattr(self.view_sites.get(ptr.param), 'lineno', '?')}: such offsets "
                                      "are split into a row and a column of a 2-D view only (one pointer must be "
                                      "read through one layout)")
            split = (outer[0], self.offset_tile(tuple(Term("1", t.index) for t in by_stride["1"]), node))
        out = []
        for d in view.dims:
            ts = by_stride[d.stride]
            if split is not None and d.stride == "1":
                out.append(Tile(f"{_paren(split[1].text)} % {_paren(split[0])}", split[1].shape, "ct.int32"))
                continue
            idx = self.offset_tile(tuple(Term("1", t.index) for t in ts), node) if ts else Tile("0", ())
            if split is not None and d.stride == split[0]:
                rows = f"{_paren(split[1].text)} // {_paren(split[0])}"
                idx = Tile(rows if idx.text == "0" else f"{idx.text} + {rows}",
                           _broadcast_all((idx.shape, split[1].shape)), "ct.int32")
            out.append(idx)
        return out

    def access(self, ptr: object, mask: object, node: ast.AST
               ) -> tuple[str, list[str], list[str], tuple[str, ...], bool]:
        """(array, tile index, tile shape, Triton's shape of the value, bounds-masked) of a load/store."""
        if isinstance(ptr, (Ptr, BlockPtr)):
            self._tile_arrays.add(ptr.param)
            self._note_access(ptr.param, "tile")
        if isinstance(ptr, BlockPtr):
            dims = [Dim(t.stride, None) for t in ptr.base] + [Dim(s, e) for s, e in zip(ptr.strides, ptr.shape)]
            index = [str(t.index) for t in ptr.base] + list(ptr.index)
            shape = ["1"] * len(ptr.base) + list(ptr.block)
            self._view(ptr.param, dims, node)
            return ptr.param, index, shape, tuple(ptr.block), True
        if not isinstance(ptr, Ptr):
            raise self.fail(node, "the pointer must be a pointer parameter plus offsets, or a tl.make_block_ptr")
        if not ptr.terms:   # the element the pointer points at: index 0 of a vector view
            ptr = Ptr(ptr.param, (Term("1", "0"),))
        scalars = [t for t in ptr.terms if isinstance(t.index, str)]
        runs = sorted((t for t in ptr.terms if isinstance(t.index, Idx)), key=lambda t: t.index.axis)  # type: ignore
        ranks = {t.index.rank for t in runs}  # type: ignore[union-attr]
        if len(ranks) > 1:
            raise self.fail(node, "index vectors of different ranks are added to one pointer")
        rank = ranks.pop() if ranks else 0
        if len({t.index.axis for t in runs}) != len(runs):  # type: ignore[union-attr]
            raise self.fail(node, "two index vectors run along the same axis of one pointer: the address is not "
                                  "a tile of a strided view")
        bounds: dict[int, str] = {}
        if isinstance(mask, Mask):   # conditions true in every lane at every launch bound nothing
            kept = tuple(c for c in mask.conds if not self._vacuous(*c))
            if len(kept) < len(mask.conds):
                self.notes.append(f"line {getattr(node, 'lineno', 0)}: mask conditions true at every captured "
                                  "launch (a padded block every launch fills) dropped")
            mask = Mask(kept) if kept else None
        if mask is not None:
            if not isinstance(mask, Mask) and isinstance(ptr, Ptr) and isinstance(mask, Tile) and \
                    ptr.param not in self.gathered_arrays:
                raise _MaskedArrays({ptr.param})   # lowered again: this array's accesses gathers with the mask
            if not isinstance(mask, Mask):
                raise self.fail(node, "the mask must be `offs < n` comparisons joined by `&` (offs an index vector "
                                      "of this pointer, n a scalar) or a boolean tile")
            for idx, bound in mask.conds:
                hit = [k for k, t in enumerate(runs) if t.index.same_run(idx)]  # type: ignore[union-attr]
                if not hit:
                    # the same vector whole blocks further: a pointer advanced in a loop, masked by the vector it
                    # started from (`rk < K - k * BLOCK_K` once `p += BLOCK_K * stride` ran k times)
                    for k, t in enumerate(runs):
                        r = t.index
                        if (r.size, r.axis, r.rank) == (idx.size, idx.axis, idx.rank):  # type: ignore[union-attr]
                            moved = linear.shifted(self._expanded(bound), f"{r.index} - ({idx.index})",
                                                   r.size)  # type: ignore
                            if self.launch_expr(moved):
                                hit, bound = [k], moved
                                break
                if not hit and ptr.param not in self.gathered_arrays and isinstance(ptr, Ptr):
                    # `m = offs < n` on `tl.arange` itself, the pointer at `pid * B + offs` (runs that differ by a
                    # runtime number of blocks): every access of the array a gather with the mask, as exact
                    raise _MaskedArrays({ptr.param})
                if not hit:
                    raise self.fail(node, f"the mask bounds an index vector ({idx.index} * {idx.size} + arange) "
                                          "this pointer does not use")
                if not self.launch_expr(bound) and ptr.param not in self.gathered_arrays:
                    raise _MaskedArrays({ptr.param})   # a bound computed in the kernel: a gather with the mask
                if not self.launch_expr(bound):
                    raise self.fail(node, f"mask bound `{bound}` must be an expression of the kernel's scalar "
                                          "parameters and literals (it becomes the extent of the array view)")
                bounds[hit[0]] = bound
        self._pending_junk = frozenset()
        wrapped = [k for k, t in enumerate(runs) if t.index.wrap is not None]  # type: ignore[union-attr]
        if wrapped:
            # `(i * B + arange) % M` read as tile i of a view of extent M: the lanes in [0, M) are the same elements,
            # the others padding instead of rows `r % M` (unobservable when only the masked store reads them:
            # checked once the kernel is lowered); a store through it would write other rows than Triton's
            if self._storing or scalars or any(k in bounds for k in wrapped) or len(runs) != rank:
                raise _Unwrap()
            for k in wrapped:
                bounds[k] = runs[k].index.wrap  # type: ignore[union-attr]
            self._pending_junk = frozenset((runs[k].index.axis, rank, runs[k].index.index,  # type: ignore
                                            runs[k].index.wrap) for k in wrapped)  # type: ignore[union-attr]
        if any(t.stride.isdigit() and t.stride != "1" for t in runs):
            # elements grouped by a literal stride (`pairs[:, None] * 2 + tl.arange(0, 2)[None, :]`): no tensor
            # dimension has that stride, so each unmasked run read at tile 0 spans exactly its block
            for k, t in enumerate(runs):
                if k not in bounds and t.index.index == "0" and self.launch_expr(t.index.size):  # type: ignore
                    bounds[k] = t.index.size  # type: ignore[union-attr]
        scalars = self._steps_of_bound(scalars, runs, bounds)
        scalars = self._scalars_onto_runs(ptr.param, scalars, runs, bounds)
        self.last_perm = None
        old = self.views.get(ptr.param)
        if old is not None and len(runs) == rank >= 2 and len(old.dims) == len(scalars) + len(runs):
            # the pointer read before through the same strides in another order (`qT = Q + offs_m[None, :] * s_tok +
            # offs_k[:, None] * s_d`, later `q = Q + offs_m[:, None] * s_tok + offs_k[None, :] * s_d`): the view's
            # order, and the tile permuted to this access's axes (`last_perm`: view position -> run)
            have = [d.stride for d in old.dims[len(scalars):]]
            want = [t.stride for t in runs]
            if [d.stride for d in old.dims[:len(scalars)]] == [t.stride for t in scalars] and have != want \
                    and sorted(have) == sorted(want) and len(set(want)) == len(want):
                order = [want.index(st) for st in have]
                runs = [runs[k] for k in order]
                bounds = {j: bounds[k] for j, k in enumerate(order) if k in bounds}
                self.last_perm = order
                if self._pending_junk:
                    raise _Unwrap()
        if not runs and old is not None and [t.stride for t in scalars] != [d.stride for d in old.dims]:
            scalars = self._element_onto_view(scalars, old) or scalars
        if any(t.stride == "1" for t in scalars) and any(t.stride == "1" for t in runs) and \
                ptr.param not in self.gathered_arrays:
            # (below; checked first too: a unit-stride view read before, `x_ptr + offs`, would otherwise be laid out
            # again with the element offset as a dimension of its own, `x_ptr + n // 2 + offs` refused)
            raise _UnitStrideArrays({ptr.param})
        scalars = self._scalar_dims_unified(ptr.param, scalars, runs, node, bounds)
        if not runs:   # one element: at an offset along the unit stride that may step across rows
            scalars = self._element_in_rows(scalars, self.views.get(ptr.param) or
                                            View(ptr.param, tuple(Dim(t.stride, None) for t in scalars)))
        if self._pending_junk and scalars:
            raise _Unwrap()
        if len({t.stride for t in runs}) < len(runs) and ptr.param not in self.gathered_arrays:
            # two runs of one stride (`tl.arange(0, 1)[:, None, None] + r[None, :, None] * N + c[None, None, :]`:
            # strides 1, N, 1): the view's extents along them are undecidable (the outermost took what the other
            # two seemed to span, and the last row was dropped, silently): a gather / scatter, exact
            raise _UnitStrideArrays({ptr.param})
        if any(t.stride == "1" for t in scalars) and any(t.stride == "1" for t in runs) and \
                ptr.param not in self.gathered_arrays:
            # `out + 1 + e` (e a unit-stride run, 1 not a whole number of its blocks): an element offset inside a
            # block, which no tile of a view is (two unit-stride dimensions would leave their extents undecidable):
            # every access of the array a gather/scatter at its element offsets, exact
            raise _UnitStrideArrays({ptr.param})
        dims = [Dim(t.stride, None) for t in scalars] + [Dim(t.stride, bounds.get(k)) for k, t in enumerate(runs)]
        for d in dims:
            if not (d.stride.isidentifier() or d.stride.isdigit() or self.launch_expr(d.stride)):
                raise self.fail(node, f"stride `{d.stride}` must be an expression of the kernel's scalar "
                                      "parameters and literals")
        if not runs and ptr.param not in self.views:
            self._element_only.add(ptr.param)   # (a view one element made: _view may lay it out again)
        self._view(ptr.param, dims, node)
        index = [str(t.index) for t in scalars] + [t.index.index for t in runs]  # type: ignore[union-attr]
        shape = ["1"] * len(scalars) + [t.index.size for t in runs]  # type: ignore[union-attr]
        for k, d in enumerate(dims):   # (for _arm_extents: the accesses no bound reaches, and where they are)
            if d.extent is None:
                self._unbounded.setdefault((ptr.param, k), []).append(
                    (frozenset(self._launch_ids), tuple(self._arm_stack), shape[k] if index[k] == "0" else None))
                if index[k] != "0":
                    self._moving_blocks.setdefault((ptr.param, k), set()).add(shape[k])
        axes = {t.index.axis: t.index.size for t in runs}  # type: ignore[union-attr]
        if self.last_perm is not None:
            self.notes.append(f"line {getattr(node, 'lineno', 0)}: {ptr.param} read in another axis order than its "
                              "view: the tile is permuted")
        value_shape = tuple(axes.get(a, "1") for a in range(rank))
        return ptr.param, index, shape, value_shape, bool(bounds)

    def launch_expr(self, text: str) -> bool:
        """``text`` is an integer expression a launch can evaluate: literals and scalar/constexpr parameters."""
        params = {p for p, kind in self.kinds.items() if kind in ("scalar", "constant")}
        if text.isdigit() or text in params:
            return True
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            return False
        ok_nodes = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.Load, ast.Add, ast.Sub,
                    ast.Mult, ast.FloorDiv, ast.Mod, ast.USub)
        return all(isinstance(n, ok_nodes) for n in walk_nodes(tree)) and all(
            n.id in params for n in walk_nodes(tree) if isinstance(n, ast.Name)) and all(
            isinstance(n.value, int) for n in walk_nodes(tree) if isinstance(n, ast.Constant))

    def memory_options(self, node: ast.Call, kw: dict, what: str, allowed: set[str]) -> None:
        """Cache hints are dropped (and noted); options other than ``allowed`` are refused."""
        for h in CACHE_HINTS:
            if h in kw:
                self.notes.append(f"line {node.lineno}: tl.{what} {h}= dropped")
        unknown = set(kw) - allowed - set(CACHE_HINTS)
        if unknown:
            raise self.fail(node, f"tl.{what} options {sorted(unknown)} are not lowered")

    @staticmethod
    def stored(t: Tile, arr: str) -> str:
        """``t`` as ``arr``'s element type: tl.store converts to the pointer's element type."""
        return t.text if t.dtype == f"{arr}.dtype" else f"ct.astype({t.text}, {arr}.dtype)"

    def _no_none(self, node: ast.Call, kw: dict, first: int) -> tuple[ast.Call, dict]:
        """``mask=None`` / ``other=None`` (also a helper's parameter bound to None: an optional mask passed
        through) as if not given: Triton treats them so. ``first``: the mask's position among the positional
        arguments."""
        def none(e: ast.expr) -> bool:
            return _is_none(e) or isinstance(e, ast.Name) and self.env.get(e.id) is _NONE
        kw = {k: v for k, v in kw.items() if not (k in ("mask", "other") and none(v))}
        if len(node.args) > first and none(node.args[first]):
            node = ast.Call(func=node.func, args=node.args[:first], keywords=[
                k for k in node.keywords if k.arg in kw])
            ast.copy_location(node, node.func)
        elif any(none(k.value) for k in node.keywords if k.arg in ("mask", "other")):
            node = ast.Call(func=node.func, args=node.args, keywords=[k for k in node.keywords if k.arg in kw])
            ast.copy_location(node, node.func)
        return node, kw

    def _mask_of(self, node: ast.expr | None) -> object:
        """A load's / store's / atomic's ``mask=``: a scalar test (`mask=pid > 0`, a scalar load of the previous
        block's last element) is a 0-d boolean tile of it, so the access is a gather masked by it (was
        refused: "the mask must be `offs < n` comparisons ... or a boolean tile")."""
        m = None if node is None else self.ev(node)
        if isinstance(m, Scalar):
            if m.text == "True":
                return None
            return Tile(f"(ct.full((), (1 if {m.text} else 0), dtype=ct.int32) != 0)", (), "bool")
        return m

    def load(self, node: ast.Call, kw: dict) -> Tile:
        node, kw = self._no_none(node, kw, 1)
        vol = kw.get("volatile")
        if getattr(self, "_in_while_test", False) and isinstance(vol, ast.Constant) and vol.value is True:
            return self.polled_load(node, kw)
        self.memory_options(node, kw, "load", {"mask", "other", "boundary_check", "padding_option"})
        ptr = self.ev(node.args[0])
        mask = self._mask_of(kw["mask"] if "mask" in kw else (node.args[1] if len(node.args) > 1 else None))
        other = kw.get("other") or (node.args[2] if len(node.args) > 2 else None)
        if isinstance(ptr, BlockPtr) and ptr.elems is not None:
            opt = kw.get("padding_option")
            name = opt.value if isinstance(opt, ast.Constant) else ""
            if name not in ("", "zero", "nan"):
                raise self.fail(node, f"padding_option={name!r} is not lowered")
            pad = ", padding_value=float('nan')" if name == "nan" else ""
            return Tile(f"ct.gather({ptr.param}, {self.block_ptr_indices(ptr, node)}{pad})", ptr.block,
                        f"{ptr.param}.dtype")
        if self.is_gather(ptr) or isinstance(ptr, Ptr) and ptr.param in self.gathered_arrays:
            arr, offsets, mtext = self.gather_access(ptr, mask, node, nd=True)  # type: ignore[arg-type]
            self._note_access(arr, "gather")
            fill_value = None
            try:
                pad = 0 if other is None else self._literal(other)
            except LoweringError:   # `other=fill` (a scalar argument): zero lanes, then the value selected in
                fv = self.ev(other)  # type: ignore[arg-type]
                if not isinstance(fv, (Scalar, Tile)):
                    raise
                if isinstance(fv, Tile) and self.known_dtype(fv) != self.known_dtype(Tile("", (), f"{arr}.dtype")):
                    fv = Tile(f"ct.astype({fv.text}, {arr}.dtype)", fv.shape, f"{arr}.dtype")   # (as Triton casts it)
                pad, fill_value = 0, fv.text
            if self.known_dtype(Tile("", (), f"{arr}.dtype")) in INT_DTYPES + ("ct.uint16", "ct.uint64") and \
                    math.isfinite(pad) and pad == int(pad):
                pad = int(pad)   # `other=0` on an integer array: an integer padding (cuTile casts no 0.0 to int)
            text = f"ct.gather({arr}, {offsets.text}" + (f", mask={mtext}" if mtext else "") + \
                f", padding_value={_number(pad)})"
            if fill_value is not None and mtext:
                text = f"ct.where({mtext}, {text}, {fill_value})"
            return Tile(text, offsets.shape, f"{arr}.dtype")
        arr, index, shape, vshape, masked = self.access(ptr, mask, node)
        padding = None
        if isinstance(ptr, BlockPtr):
            opt = kw.get("padding_option")
            name = opt.value if isinstance(opt, ast.Constant) else ""
            padding = {"": "ZERO", "zero": "ZERO", "nan": "NAN"}.get(name)
            if padding is None:
                raise self.fail(node, f"padding_option={name!r} is not lowered")
        fill = None   # `other=` that no padding mode is: the masked lanes are selected afterwards
        if masked and not isinstance(ptr, BlockPtr):
            try:
                value = 0.0 if other is None else self._literal(other)
            except LoweringError:
                value = None   # not a literal: a scalar expression (`other=x_default`)
            padding = "NAN" if value is not None and value != value else PADDING.get(value)
            if padding is None:
                fv = self.ev(other)  # type: ignore[arg-type]
                if isinstance(fv, (Idx, Offset)):
                    fv = self.materialize(fv, other)  # type: ignore[arg-type]
                if not isinstance(fv, (Scalar, Tile)):   # (a tile: `other=prev`, the lanes of a tile loaded before)
                    raise self.fail(other, "other= must be a literal, a scalar or a tile")
                if isinstance(fv, Tile) and self.known_dtype(fv) != self.known_dtype(Tile("", (), f"{arr}.dtype")):
                    fv = Tile(f"ct.astype({fv.text}, {arr}.dtype)", fv.shape, f"{arr}.dtype")   # (as Triton casts it)
                if not isinstance(mask, Mask):
                    raise self.fail(other, "other= that is not 0, ±inf or nan needs a mask of view bounds")
                if isinstance(fv, Scalar) and fv.text.replace("(", "").replace(")", "") == "-2147483648":
                    # int32's least value (an integer max's padding): cutile 0.3.1 parses a negative literal's
                    # digits as i32 and panics on 2147483648, so it is computed (a 0-d tile, one less than -2^31+1)
                    fv = Scalar(f"(ct.full((), -2147483647, dtype={arr}.dtype) - 1)")
                fill, padding = (self.mask_tile(mask, node), fv.text), "ZERO"
        args = f"{arr}, index={_tup(index)}, " \
               f"shape={_tup(shape)}"
        if padding:
            args += f", padding_mode=ct.PaddingMode.{padding}"
        text = f"ct.load({args}{self.load_options})"
        if vshape == ():
            # one element: kept a 1-element tile (it broadcasts as the scalar would; a 0-d tile's partition view is
            # refused by tileirdisasm 13.4: "0-dimension tile shape is not supported")
            vshape = ("1",)
        perm = self.last_perm
        if perm is not None:   # loaded in the view's order, then Triton's axes
            sizes = tuple(shape[len(shape) - len(perm):])
            text = self._permuted(f"ct.reshape({text}, {_tup(sizes)})", [perm.index(a) for a in range(len(perm))])
        elif tuple(shape) != vshape:
            text = f"ct.reshape({text}, {_tup(vshape)})"
        if fill is not None:   # Triton's `other=` value in the lanes the mask leaves out
            cond, value_text = fill
            text = f"ct.where({cond.text}, {text}, {value_text})"
        if self._pending_junk:
            self.wrap_loads.append((ast.dump(ast.parse(text, mode="eval").body), self._pending_junk))
            self._pending_junk = frozenset()
        return Tile(text, vshape, f"{arr}.dtype")

    def polled_load(self, node: ast.Call, kw: dict) -> Tile:
        """``while tl.load(flag_ptr + i, volatile=True) == 0: pass`` (a spin-wait on another program's flag): a
        plain load there is dead code to cuTile (the loop has no effect: it is removed, and the kernel no longer
        waits), so the polled element is read by an atomic that leaves it unchanged, ``ct.atomic_or(.., 0)`` with
        acquire order, which cuTile keeps and orders as the spin lock's ``atomic_cas``. Integer flags only."""
        ptr = self.ev(node.args[0])
        if not isinstance(ptr, Ptr):
            raise self.fail(node, "a volatile load polled by a `while` reads a pointer parameter plus offsets")
        kinds = self.array_dtypes.get(ptr.param, set())
        if not kinds or not kinds <= set(INT_DTYPES):
            raise self.fail(node, "a volatile load polled by a `while` is lowered on integer flags (an atomic read "
                                  "leaving them unchanged); this array is not known to be of integers")
        if len(node.args) > 1 or set(kw) - {"volatile", "cache_modifier", "eviction_policy"}:
            raise self.fail(node, "a volatile load polled by a `while` is lowered without mask= / other=")
        self.notes.append(f"line {node.lineno}: volatile load in a `while` test read by an atomic (acquire)")
        call = ast.Call(ast.Attribute(ast.Name("tl", ast.Load()), "atomic_or", ast.Load()),
                        [node.args[0], ast.Constant(0)], [ast.keyword("sem", ast.Constant("acquire"))])
        return self.atomic_add(ast.fix_missing_locations(ast.copy_location(call, node)), "atomic_or")

    def _literal(self, node: ast.expr) -> float:
        try:
            v = ast.literal_eval(node)
            return float(v)
        except (ValueError, TypeError, SyntaxError):
            pass
        text = ast.unparse(node).replace(" ", "")
        known = {"-float('inf')": float("-inf"), "float('-inf')": float("-inf"), "float('inf')": float("inf"),
                 "float('nan')": float("nan")}
        if text.replace('"', "'") in known:
            return known[text.replace('"', "'")]
        raise self.fail(node, f"other={ast.unparse(node)}: a literal number, float('inf') or float('nan') is needed")

    def store(self, node: ast.Call) -> None:
        node, kw = self._no_none(node, {k.arg: k.value for k in node.keywords}, 2)
        self.memory_options(node, kw, "store", {"mask", "boundary_check"})
        ptr = self.ev(node.args[0])
        value = self._value(self.ev(node.args[1]), node)
        mask = self._mask_of(kw["mask"] if "mask" in kw else (node.args[2] if len(node.args) > 2 else None))
        gather = self.is_gather(ptr) or isinstance(ptr, Ptr) and ptr.param in self.gathered_arrays
        if isinstance(ptr, BlockPtr) and ptr.elems is not None:
            t = self.materialize(value, node) if not isinstance(value, Scalar) else \
                Tile(f"ct.full({_tup(ptr.block)}, {value.text}, dtype={ptr.param}.dtype)", ptr.block,
                     f"{ptr.param}.dtype")
            text = self.stored(t, ptr.param)
            if tuple(t.shape) != tuple(ptr.block):
                text = f"ct.broadcast_to({text}, {_tup(ptr.block)})"
            self.emit(f"ct.scatter({ptr.param}, {self.block_ptr_indices(ptr, node)}, {text})")
            self._note_access(ptr.param, "scatter")
            return
        if gather:
            arr, offsets, mtext = self.gather_access(ptr, mask, node, nd=True)  # type: ignore[arg-type]
        else:
            self._storing = True
            try:
                arr, index, shape, vshape, _ = self.access(ptr, mask, node)
            finally:
                self._storing = False
        if isinstance(value, Scalar) and gather and offsets.shape:
            # one value scattered to every lane (`tl.store(logits + row * s + ids, float('-inf'), mask=..)`: a
            # banned-token mask), as Triton broadcasts it
            value = Tile(f"ct.full({_tup(offsets.shape)}, {value.text}, dtype={arr}.dtype)", offsets.shape,
                         f"{arr}.dtype")
        if isinstance(value, Scalar):
            if gather:
                raise self.fail(node, "scattering one scalar is not lowered (store a tile)")
            value = Tile(f"ct.full({_tup(shape)}, {value.text}, dtype={arr}.dtype)", tuple(shape), f"{arr}.dtype")
        t = self.materialize(value, node)
        text = self.stored(t, arr)
        if gather:
            self.emit(f"ct.scatter({arr}, {offsets.text}, {text}" + (f", mask={mtext})" if mtext else ")"))
            self._note_access(arr, "scatter")
            return
        perm = self.last_perm
        if perm is not None:   # Triton's axes to the view's order
            if tuple(t.shape) != tuple(vshape):
                text = f"ct.broadcast_to({text}, {_tup(vshape)})"
            text = self._permuted(text, perm)
            if len(shape) != len(perm):
                text = f"ct.reshape({text}, {_tup(shape)})"
        elif tuple(shape) != tuple(t.shape):
            widens = _widens(tuple(t.shape), tuple(vshape))
            if widens:
                # a value of fewer elements than the pointer block (`v` of (1, BN) stored at rows x cols, a row
                # reduction's (1,) at `rows`): Triton broadcasts it to the block; a reshape to the block was
                # wrong (round 26's fuzzer: it could not build)
                text = f"ct.broadcast_to({text}, {_tup(vshape)})"
            if not widens or tuple(shape) != tuple(vshape):
                text = f"ct.reshape({text}, {_tup(shape)})"
        idx = f"{_tup(index)}"
        self.emit(f"ct.store({arr}, index={idx}, tile={text}{self._store_options(arr, node)})")

    def _store_options(self, arr: str, node: ast.AST) -> str:
        """A tile store's options: ``allow_tma=False`` under plain_stores, or into an array a captured launch views
        as rows narrower than their stride (tileiras 13.4 wrote past such a view through TMA: docs/triton.md)."""
        if self.store_options or arr not in self.narrow_stores:
            return self.store_options
        self.notes.append(f"line {getattr(node, 'lineno', self.k.line)}: {arr}'s rows are narrower than their "
                          "stride at a captured launch: its store skips TMA (tileiras 13.4 stored past such a "
                          "view's extent through TMA: docs/triton.md, \"A store past a view's extent\")")
        return ", allow_tma=False"

    @staticmethod
    def _permuted(text: str, dims: list[int]) -> str:
        if dims == sorted(dims):
            return text
        if len(dims) == 2:
            return f"ct.transpose({text})"
        return f"ct.permute({text}, {_tup([str(d) for d in dims])})"

    # ------------------------------------------------ tensor descriptors: tiles of a strided view

    def _param_descriptor(self, p: str) -> Desc:
        """A descriptor parameter: its view's shape and strides are the descriptor's (``p__shape_K`` /
        ``p__stride_K``, filled at launch); its block shape is named by the constexpr that has its value at every
        launch (an autotune config's hook sets it so), else written as the literal every launch agrees on."""
        ds = [self.descriptors[p][i] for i in self._launch_ids] if hasattr(self, "_launch_ids") else \
            self.descriptors[p]
        rank = len(ds[0]["block_shape"])
        if any(len(d["block_shape"]) != rank for d in ds):
            raise LoweringError(self.k, self.k.fn, f"{p}: launches pass tensor descriptors of different ranks")
        block: list[str] = []
        for k in range(rank):
            seen = [d["block_shape"][k] for d in ds]
            named = [c for c, vals in self.const_values.items() if vals == seen and c in self.k.params]
            if len(named) > 1:   # several constexprs of those values (BLOCK_M == BLOCK_N): the one its offsets name
                named = self._descriptor_offset_name(p, k, named)
            if named:
                block.append(named[0])
            elif len(set(seen)) == 1:
                block.append(str(seen[0]))
            else:
                block.append("")
        pads = {d.get("padding", "zero") for d in ds}
        if len(pads) != 1 or pads - {"zero", "nan"}:
            raise LoweringError(self.k, self.k.fn, f"{p}: descriptor padding {sorted(pads)} (one of zero / nan)")
        shape, strides = descriptor_dims(p, rank)
        desc = Desc(p, shape, strides, tuple(block), "NAN" if pads == {"nan"} else "ZERO")
        if "" in block:
            # a block dimension of values no one constexpr has at these launches (`[BK, BN]` at the launches of
            # B_TRANS False, `[BN, BK]` at the others): refused where the descriptor is used, unless the launches
            # reaching that use (an arm of `if B_TRANS:`) name it
            k = block.index("")
            raise _UnnamedBlock(self.k, self.k.fn, f"{p}: the block shape's dimension {k} is "
                                                   f"{[d['block_shape'][k] for d in ds]} across the launches and no "
                                                   "constexpr parameter has those values", desc)
        return desc

    def _descriptor_of(self, name: str, node: ast.AST) -> Desc:
        """The descriptor ``name`` is bound to, its block shape named for the launches reaching ``node`` (a host
        descriptor whose block no constexpr names across every launch: named again in an arm of an `if` on
        constexprs, knowing only the launches that take it)."""
        desc = self.env[name]
        if not isinstance(desc, Desc) or "" not in desc.block:
            return desc  # type: ignore[return-value]
        try:
            return self._param_descriptor(desc.param)
        except _UnnamedBlock as exc:
            raise self.fail(node, str(exc).split(": ", 1)[1].rsplit(" (what the Triton", 1)[0]) from None

    def _descriptor_offset_name(self, p: str, k: int, candidates: list[str]) -> list[str]:
        """Of ``candidates`` (constexprs of one value), those dimension k's offsets of `p.load([..])` /
        `p.store([..], ..)` name nearest: in the offsets themselves, else in what the names there are assigned
        (`off_n = pid_n * BLOCK_N`, then `[k, off_n]`), and so on out; all of them when none is named."""
        assigned: dict[str, set[str]] = {}
        for n in walk_nodes(self.k.fn):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                assigned.setdefault(n.targets[0].id, set()).update(
                    m.id for m in walk_nodes(n.value) if isinstance(m, ast.Name))
            elif isinstance(n, ast.For) and isinstance(n.target, ast.Name) and isinstance(n.iter, ast.Call):
                # `for k in tl.range(0, K, BK):` then `[off_m, k]`: k takes the names of its range (its step)
                assigned.setdefault(n.target.id, set()).update(
                    m.id for a in n.iter.args for m in walk_nodes(a) if isinstance(m, ast.Name))
        level = {m.id for n in walk_nodes(self.k.fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr in DESCRIPTOR_METHODS and not n.func.attr.endswith("gather")
                 and n.func.attr != "scatter" and isinstance(n.func.value, ast.Name) and n.func.value.id == p
                 and n.args and isinstance(n.args[0], (ast.List, ast.Tuple)) and len(n.args[0].elts) > k
                 for m in walk_nodes(n.args[0].elts[k]) if isinstance(m, ast.Name)}
        seen: set[str] = set()
        while level:
            hits = [c for c in candidates if c in level]
            if hits:
                return hits
            seen |= level
            level = {m for name in level for m in assigned.get(name, ())} - seen
        return candidates

    def _descriptor_method(self, node: ast.Call) -> str | None:
        """``load`` / ``store`` / ``gather`` / ``scatter`` / an atomic for ``desc.load(..)`` .. on a tensor
        descriptor, else None."""
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in DESCRIPTOR_METHODS and isinstance(f.value, ast.Name) \
                and isinstance(self.env.get(f.value.id), Desc):
            return f.attr
        return None

    def _as_member_function(self, node: ast.Call) -> ast.Call | None:
        """``ptrs.store(v, mask=m)``, ``ptrs.atomic_add(v, mask=m)`` (Triton's tensor members of a pointer tensor,
        core.py: `tensor.store` / `tensor.atomic_*`) as ``tl.store(ptrs, v, mask=m)`` .., the function every rule
        of the lowering reads (they were refused: "statement .. has no lowering"); a descriptor's own methods and
        the functions themselves are left alone."""
        f = node.func
        if not (isinstance(f, ast.Attribute) and f.attr in ("store", *ATOMICS)) or self.function(f) is not None \
                or not self.k.tl:
            return None
        recv = f.value
        if isinstance(recv, ast.Name) and (recv.id in self.k.tl or recv.id in self.k.triton
                                           or isinstance(self.env.get(recv.id), Desc)):
            return None
        func = ast.Attribute(ast.Name(sorted(self.k.tl)[0], ast.Load()), f.attr, ast.Load())
        return ast.fix_missing_locations(ast.copy_location(ast.Call(func, [recv, *node.args], node.keywords), node))

    def descriptor_gather(self, node: ast.Call) -> Tile:
        """``desc.gather(x_offsets, y_offset)`` (Triton 3.6's TMA gather of a rank-2 descriptor of block [1, BN]):
        row x_offsets[i], columns [y_offset, y_offset + BN) for each i — a ``ct.gather`` of the descriptor's view
        at (x_offsets[:, None], y_offset + arange(BN)[None, :]); out-of-bounds lanes padded (0, or NaN for
        padding_option="nan"), as TMA's."""
        desc, idx = self._descriptor_rows(node, 0)
        pad = ", padding_value=float('nan')" if desc.padding == "NAN" else ""
        self._note_access(desc.param, "gather")
        shape = (idx[2], desc.block[1])
        return Tile(f"ct.gather({desc.param}, {_tup(idx[:2])}{pad})", shape, f"{desc.param}.dtype")

    def descriptor_scatter(self, node: ast.Call) -> None:
        """``desc.scatter(value, x_offsets, y_offset)``: ``ct.scatter`` of value at the rows and columns
        `desc.gather` reads (out-of-bounds lanes skipped, as TMA's)."""
        desc, idx = self._descriptor_rows(node, 1)
        t = self.materialize(self._value(self.ev(node.args[0]), node), node)
        if tuple(t.shape) != (idx[2], desc.block[1]):
            raise self.fail(node, f"desc.scatter of a {list(t.shape)} tile: [{idx[2]}, {desc.block[1]}] expected")
        self._note_access(desc.param, "scatter")
        self.emit(f"ct.scatter({desc.param}, {_tup(idx[:2])}, {self.stored(t, desc.param)})")

    def _descriptor_rows(self, node: ast.Call, first: int) -> tuple[Desc, tuple[str, str, str]]:
        """The row and column index tiles of `desc.gather(x_offsets, y_offset)` / `desc.scatter(v, x_offsets,
        y_offset)` (arguments from position ``first``) and the number of rows."""
        desc = self._descriptor_of(node.func.value.id, node)  # type: ignore[attr-defined]
        what = node.func.attr  # type: ignore[attr-defined]
        if len(node.args) != first + 2 or node.keywords:
            raise self.fail(node, f"desc.{what} takes {'value, ' if first else ''}x_offsets, y_offset")
        if len(desc.block) != 2 or desc.block[0] != "1":
            raise self.fail(node, f"desc.{what} of a descriptor whose block is {list(desc.block)}: Triton's TMA "
                                  "gather / scatter takes a rank-2 descriptor of block [1, N]")
        rows = self.materialize(self._value(self.ev(node.args[first]), node), node)
        if len(rows.shape) != 1:
            raise self.fail(node.args[first], f"desc.{what}'s x_offsets must be a 1-D tile")
        col = self.ev(node.args[first + 1])
        if not isinstance(col, Scalar):
            raise self.fail(node.args[first + 1], f"desc.{what}'s y_offset must be a scalar")
        self._view(desc.param, [Dim(st, sh) for st, sh in zip(desc.strides, desc.shape)], node)
        r = f"ct.reshape({rows.text}, ({rows.shape[0]}, 1))"
        c = _axis_indices([col.text], [desc.block[1]])[0]
        return desc, (r, f"ct.reshape({c}, (1, {desc.block[1]}))", rows.shape[0])

    def descriptor_atomic(self, node: ast.Call, fn: str) -> Tile:
        """``desc.atomic_add(offsets, value)`` (and min / max / and / or / xor): ``ct.atomic_<op>`` of the value at
        the block's elements of the descriptor's view, one index tile per dimension (out-of-bounds lanes skipped,
        as TMA's reduction); its value is the old elements (Triton's descriptor atomics return none)."""
        desc, _index = self._descriptor_tile(node)
        if len(node.args) != 2 or node.keywords:
            raise self.fail(node, f"`desc.{fn}(offsets, value)`")
        indices = self._descriptor_indices(desc)   # (before the value sets another access's offsets)
        t = self.materialize(self._value(self.ev(node.args[1]), node), node)
        kinds = set(self.array_dtypes.get(desc.param, ()))
        if fn in ("atomic_max", "atomic_min") and kinds and not kinds <= set(INT_DTYPES):
            raise self.fail(node, f"desc.{fn} on a {'/'.join(sorted(kinds))} array is not lowered: cuTile Python "
                                  f"1.7's ct.{fn} takes integer arrays only")
        text = self.stored(t, desc.param)
        if tuple(t.shape) != tuple(desc.block):
            text = f"ct.reshape({text}, {_tup(desc.block)})"
        self._atomic_arrays.add(desc.param)
        self._note_access(desc.param, "scatter")
        return Tile(f"ct.{fn}({desc.param}, {indices}, {text})", desc.block,
                    f"{desc.param}.dtype")

    def _descriptor_tile(self, node: ast.Call) -> tuple[Desc, list[str]]:
        """The descriptor a load/store goes through and its tile index (each offset a whole number of blocks)."""
        desc = self._descriptor_of(node.func.value.id, node)  # type: ignore[attr-defined]
        if not node.args or not isinstance(node.args[0], (ast.List, ast.Tuple)):
            raise self.fail(node, "a descriptor's load/store takes its offsets as a list (`desc.load([m, 0])`)")
        offs = node.args[0].elts
        if len(offs) != len(desc.block):
            raise self.fail(node, f"{len(offs)} offsets for a rank-{len(desc.block)} descriptor")
        index = []
        for onode, blk in zip(offs, desc.block):
            v = self.ev(onode)
            if not isinstance(v, Scalar):
                raise self.fail(onode, "a descriptor offset must be a scalar")
            if v.text == "0":
                index.append("0")
            elif blk == "1":   # a unit block: the offset is the tile index
                index.append(v.text)
            elif v.factors and blk in v.factors:
                index.append(v.factors[0] if v.factors[1] == blk else v.factors[1])
            elif v.text.isdigit() and blk.isdigit() and int(v.text) % int(blk) == 0:
                index.append(str(int(v.text) // int(blk)))
            elif (q := self._in_blocks(v, blk)) is not None:
                index.append(q)
            else:
                # an element offset that is not a whole number of blocks (`desc.load([off_hz * N_CTX + start_m *
                # BLOCK_M, 0])` with N_CTX a runtime size): the tile gathered element by element (below)
                index.append(None)   # type: ignore[arg-type]
        self._view(desc.param, [Dim(st, sh) for st, sh in zip(desc.strides, desc.shape)], node)
        self._desc_offsets = [self.ev(o).text for o in offs]  # type: ignore[union-attr]
        return desc, index

    def _descriptor_indices(self, desc: Desc) -> str:
        """One index tile per dimension of the descriptor's view for a tile at element offsets ``_desc_offsets``
        (each `off + arange(block)` on its own axis): a gather/scatter reads/writes exactly the descriptor's
        elements, out-of-bounds ones padded / skipped as TMA does."""
        return _tup(_axis_indices(self._desc_offsets, desc.block))

    def descriptor_load(self, node: ast.Call) -> Tile:
        desc, index = self._descriptor_tile(node)
        if None in index:
            pad = ", padding_value=float('nan')" if desc.padding == "NAN" else ""
            self.notes.append(f"line {node.lineno}: a descriptor load at offsets that are not whole blocks: a gather")
            return Tile(f"ct.gather({desc.param}, {self._descriptor_indices(desc)}{pad})", desc.block,
                        f"{desc.param}.dtype")
        return Tile(f"ct.load({desc.param}, index={_tup(index)}, shape={_tup(desc.block)}, "
                    f"padding_mode=ct.PaddingMode.{desc.padding})", desc.block, f"{desc.param}.dtype")

    def descriptor_store(self, node: ast.Call) -> None:
        desc, index = self._descriptor_tile(node)
        if len(node.args) != 2:
            raise self.fail(node, "`desc.store(offsets, value)`")
        # (the element indices now: lowering the value — `yd.store([o, 0], xd.load([p, 0]))` — sets another
        # access's offsets)
        indices = self._descriptor_indices(desc)
        t = self.materialize(self._value(self.ev(node.args[1]), node), node)
        text = self.stored(t, desc.param)
        if tuple(t.shape) != tuple(desc.block):
            text = f"ct.reshape({text}, {_tup(desc.block)})"
        if None in index:
            self.notes.append(f"line {node.lineno}: a descriptor store at offsets that are not whole blocks: a "
                              "scatter")
            self.emit(f"ct.scatter({desc.param}, {indices}, {text})")
            return
        self.emit(f"ct.store({desc.param}, index={_tup(index)}, tile={text}{self._store_options(desc.param, node)})")

    def _arguments(self, node: ast.Call, kw: dict, fn: str, names: tuple[str, ...]) -> dict[str, ast.expr]:
        """``tl.<fn>``'s arguments by name (positional ones in ``names`` order); every name is required."""
        args = dict(zip(names, node.args)) | kw
        missing = [n for n in names if n not in args]
        if missing:
            raise self.fail(node, f"tl.{fn} without {', '.join(missing)}")
        return args

    def make_descriptor(self, node: ast.Call, kw: dict) -> Desc:
        args = self._arguments(node, kw, "make_tensor_descriptor", ("base", "shape", "strides", "block_shape"))
        base = self.ev(args["base"])
        if not isinstance(base, Ptr) or base.terms:
            raise self.fail(node, "a tensor descriptor's base must be a pointer parameter (no offsets)")
        shape, strides, block = (self._tuple(args[n]) for n in ("shape", "strides", "block_shape"))
        opt = args.get("padding_option")
        pad = opt.value if isinstance(opt, ast.Constant) else "zero"
        return Desc(base.param, tuple(shape), tuple(strides), tuple(block), "NAN" if pad == "nan" else "ZERO")

    def block_ptr(self, node: ast.Call, kw: dict) -> BlockPtr:
        args = self._arguments(node, kw, "make_block_ptr",
                               ("base", "shape", "strides", "offsets", "block_shape", "order"))
        base = self.ev(args["base"])
        if not isinstance(base, Ptr) or any(isinstance(t.index, Idx) for t in base.terms):
            raise self.fail(node, "the block pointer's base must be a pointer parameter plus scalar offsets")
        shape, strides = self._tuple(args["shape"]), self._tuple(args["strides"])
        offsets, block = self._tuple(args["offsets"]), self._tuple(args["block_shape"])
        index, gathered = [], False
        for off, blk, onode in zip(offsets, block, args["offsets"].elts):  # type: ignore[attr-defined]
            v = self.ev(onode)
            if off == "0":
                index.append("0")
            elif blk == "1" and isinstance(v, Scalar):   # a block of one (a batch index): the offset itself
                index.append(off)
            elif isinstance(v, Scalar) and v.factors and blk in v.factors:
                index.append(v.factors[0] if v.factors[1] == blk else v.factors[1])
            elif isinstance(v, Scalar) and (q := self._in_blocks(v, blk)) is not None:
                index.append(q)
            elif isinstance(v, Scalar):   # not whole blocks (`pid * BM + 1`): its accesses gather the elements
                index.append("0")
                gathered = True
            else:
                raise self.fail(onode, f"offset `{off}` of a block pointer must be a scalar")
        for e in shape + strides:
            if not (e.isidentifier() or e.isdigit() or self._param_arith(e)):
                raise self.fail(node, f"`{e}`: shapes and strides of block pointers must be parameters, literals, "
                                      "or +, -, *, // of them")
        note = "tl.make_block_ptr order= is a layout hint: the view's strides carry the layout"
        if note not in self.notes:
            self.notes.append(note)
        if gathered:
            self.notes.append(f"line {node.lineno}: a block pointer at offsets that are not whole blocks: its loads "
                              "and stores gather / scatter the elements")
        return BlockPtr(base.param, base.terms, shape, strides, tuple(index), block,
                        tuple(offsets) if gathered else None)

    def block_ptr_indices(self, bp: BlockPtr, node: ast.AST) -> str:
        """One index tile per dimension of the block pointer's view (its base's strides, then its own) for a block
        at element offsets ``bp.elems``: each block dimension `off + arange(block)` on its own axis, a base term's
        index broadcast. ct.gather / ct.scatter check every index against the view's extents (the block pointer's
        shape): the lanes outside are padded / skipped, as `boundary_check` has them; Triton leaves an access
        outside an unchecked dimension undefined."""
        assert bp.elems is not None
        dims = [Dim(t.stride, None) for t in bp.base] + [Dim(st, e) for st, e in zip(bp.strides, bp.shape)]
        self._view(bp.param, dims, node)
        return _tup([f"{_paren(str(t.index))}" for t in bp.base] + _axis_indices(bp.elems, bp.block))

    def _param_arith(self, text: str) -> bool:
        """``text`` is +, -, * or // of the kernel's scalar / constexpr parameters and integer literals (`M * N`, a
        3-D block pointer's batch stride): a value the launch computes from its arguments, as for a parameter."""
        try:
            tree = ast.parse(text, mode="eval").body
        except SyntaxError:
            return False
        for n in ast.walk(tree):
            if isinstance(n, ast.Name):
                if n.id not in self.kinds or self.kinds[n.id] == "array":
                    return False
            elif isinstance(n, ast.Constant):
                if not isinstance(n.value, int) or isinstance(n.value, bool):
                    return False
            elif not isinstance(n, (ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Load)):
                return False
        return True

    # ------------------------------------------------ the kernel

    def _string_codes(self, p: str) -> dict[str, int] | None:
        """A string constexpr the launches pass different values of (`ACT="relu2"` and `ACT="gelu"` in one capture):
        the `if`s on it stay in the lowered kernel, so it becomes an int constexpr, each value its code (the values
        sorted); `ACT == 'relu2'` / `!=` in the lowered lines are rewritten to compare codes (a literal no launch
        passes gets a code of its own). Any other use of it is left for `signature` to refuse."""
        import re

        values = self.const_values.get(p) or []
        if not values or not all(isinstance(v, str) for v in values) or len(set(values)) < 2:
            return None
        codes = {v: i for i, v in enumerate(sorted(set(values)))}
        bare = r"'(?:[^'\\]|\\.)*'" + "|" + r'"(?:[^"\\]|\\.)*"'
        lit = rf"(\((?:{bare})\)|{bare})"   # `('relu2')` as ev writes it, or bare
        name = rf"(?<![\w.]){re.escape(p)}(?!\w)"

        def code(text: str) -> str:
            import ast as _ast

            v = _ast.literal_eval(text.strip("()"))
            if v not in codes:
                codes[v] = len(codes)
            return str(codes[v])

        def recode(line: str) -> str:
            line = re.sub(rf"{name}\s*(==|!=)\s*{lit}", lambda m: f"{p} {m.group(1)} {code(m.group(2))}", line)
            return re.sub(rf"{lit}\s*(==|!=)\s*{name}", lambda m: f"{code(m.group(1))} {m.group(2)} {p}", line)

        for i, line in enumerate(self.lines):
            self.lines[i] = recode(line)
        for param, view in list(self.views.items()):   # (extents chosen per arm at launch: `_arm_extents`)
            self.views[param] = View(param, tuple(Dim(d.stride, d.extent if d.extent is None else recode(d.extent))
                                                  for d in view.dims))
        return codes

    def signature(self) -> tuple[str, list[dict]]:
        names = [q for p in self.k.params for q in (self._tuple_items(p) or [p])]   # (a tuple's elements in place)
        codes = {p: c for p in names if self.kinds[p] == "constant" and self.const_types.get(p) == "str"
                 and (c := self._string_codes(p)) is not None}
        body = "\n".join(self.lines)
        params, out = [], []
        for p in names:
            kind = self.kinds[p]
            if kind == "array":
                params.append(p)
                out.append({"name": p, "kind": "array"})
            elif p in codes and _mentions(body, p) and not _mentions(_drop_code_tests(body, p), p):
                # a string constexpr the launches disagree on, only compared in `if`s: its codes
                params.append(f"{p}: ct.Constant[int]")
                out.append({"name": p, "kind": "constant", "type": "int", "codes": codes[p]})
            elif kind == "constant" and self.const_types.get(p) in ("str", "none"):
                # a string constexpr or a None argument: it only decides folded branches (`if ACT == "gelu"`,
                # `if b_ptr is None`); it has no cuTile parameter type, so it must not reach the lowered body
                if _mentions(body, p):
                    what = "a string constexpr" if self.const_types[p] == "str" else "passed as None"
                    raise LoweringError(self.k, self.k.fn, f"{p} ({what}) is used in the kernel beyond `if`s the "
                                                           "launches decide: it has no cuTile counterpart")
            elif kind == "constant":
                ann = self.const_types.get(p, "int")
                params.append(f"{p}: ct.Constant[{ann}]")
                out.append({"name": p, "kind": "constant", "type": ann})
            elif _mentions(body, p):  # scalars that only stride or bound a view are gone with the pointer
                ann = "float" if self.const_types.get(p) == "float" else "int"
                params.append(f"{p}: {ann}")
                out.append({"name": p, "kind": "scalar", "type": ann})
        return ", ".join(params), out


def _rank_of(v: object) -> int | None:
    """How many axes an index vector, a tile, a mask or index arithmetic has (None: not known here)."""
    if isinstance(v, Idx):
        return v.rank
    if isinstance(v, Tile):
        return len(v.shape)
    if isinstance(v, Mask) and v.conds:
        return v.conds[0][0].rank
    if isinstance(v, Offset):
        ranks = {t.index.rank if isinstance(t.index, Idx) else len(t.index.shape) for t in v.terms
                 if isinstance(t.index, (Idx, Tile))}
        return ranks.pop() if len(ranks) == 1 else None
    return None


def _constexpr_callable(kernel: TritonKernel, name: str):
    """The module's ``@triton.constexpr_function`` ``name`` as a Python function (its decorators dropped), defined
    with the module's literal constants, ``math`` and its other constexpr functions in scope, as Triton calls it."""
    scope: dict = {"math": math, **kernel.globals}
    defs = [copy.copy(f) for f in kernel.constexpr_functions.values()]
    for f in defs:
        f.decorator_list = []
    exec(compile(ast.fix_missing_locations(ast.Module(defs, [])), str(kernel.path), "exec"), scope)
    return scope[name]


#: element-wise cuTile functions: lane i of the result depends on lane i of each tile operand only
_ELEMENTWISE = {"ct.astype", "ct.where", "ct.maximum", "ct.minimum", "ct.exp", "ct.exp2", "ct.log", "ct.log2",
                "ct.sqrt", "ct.rsqrt", "ct.abs", "ct.tanh", "ct.sin", "ct.cos", "ct.floor", "ct.ceil", "ct.truediv",
                "ct.pow", "ct.sinh", "ct.cosh", "ct.tan"}


def _junk_unobservable(lw: "_Lowerer") -> bool:
    """Whether every lane a wrapped load (``Idx.wrap``) reads differently from Triton stays unobservable in the
    lowered kernel ``lw`` wrote. Such a load reads padding where Triton reads row ``r % M`` (r outside [0, M)), so
    it is exact on the lanes inside [0, M) of its wrapped axis and "junk" outside. Junk is followed through the
    lowered cuTile Python (flow-insensitively, to a fixed point): element-wise operations with scalars keep it on its
    lanes; ``ct.mma(a, b, acc)`` keeps a's junk rows as rows of the product and b's junk columns as its columns
    (junk along the contracted axis would reach every lane: refused); a ``ct.store`` may take a junk tile when its
    view has extent M along that axis at the same tile index, so that cuTile's bounds check drops exactly the junk
    lanes (the Triton kernel masks the same lanes out: ``offs_cm < M``). Any other use of junk (a reduction, an
    index, a condition, a scatter, a broadcast against another tile, a reshape) answers False: the kernel is lowered
    again computing the wrap."""
    body = ast.parse("def _k():\n" + "\n".join(lw.lines)).body[0].body  # type: ignore[attr-defined]
    loads = dict(lw.wrap_loads)
    scalar_params = {p for p, kind in lw.kinds.items() if kind in ("scalar", "constant")}
    env: dict[str, frozenset] = {}

    def norm(text_or_node) -> str:
        node = ast.parse(text_or_node, mode="eval").body if isinstance(text_or_node, str) else text_or_node
        return ast.dump(node)

    def scalar_like(e: ast.expr) -> bool:
        if isinstance(e, (ast.Constant, ast.Attribute)):
            return True
        if isinstance(e, ast.Name):
            return e.id in scalar_params
        if isinstance(e, ast.UnaryOp):
            return scalar_like(e.operand)
        if isinstance(e, ast.BinOp):
            return scalar_like(e.left) and scalar_like(e.right)
        return False

    def elementwise(operands: list[ast.expr]) -> frozenset | None:
        out: frozenset = frozenset()
        for o in operands:
            j = junk(o)
            if j is None:
                return None
            if not j and not scalar_like(o):
                # a tile without junk may broadcast the junk onto other axes: only scalars are taken
                if any(junk(x) for x in operands):
                    return None
            out |= j
        if len({r for _, r, _, _ in out}) > 1:
            return None
        return out

    def junk(e: ast.expr) -> frozenset | None:   # None: junk used where it may be observed
        if isinstance(e, ast.Name):
            return env.get(e.id, frozenset())
        if isinstance(e, ast.Constant):
            return frozenset()
        if isinstance(e, ast.Attribute):
            return frozenset() if e.attr in ("dtype", "shape") or junk(e.value) == frozenset() else None
        if isinstance(e, ast.Call):
            key = ast.dump(e)
            if key in loads:
                return loads[key]
            fn = ast.unparse(e.func)
            operands = list(e.args) + [k.value for k in e.keywords]
            parts = [junk(o) for o in operands]
            if any(p is None for p in parts):
                return None
            if not any(parts):
                return frozenset()
            if fn == "ct.mma" and len(e.args) == 3 and not e.keywords:
                ja, jb, jc = parts
                if any(ax != r - 2 for ax, r, _, _ in ja) or any(ax != r - 1 for ax, r, _, _ in jb):
                    return None   # junk along the contracted axis reaches every lane
                out = ja | jb | jc
                return out if len({r for _, r, _, _ in out}) <= 1 else None
            if fn in _ELEMENTWISE:
                return elementwise(operands)
            return None
        if isinstance(e, ast.BinOp):
            return elementwise([e.left, e.right])
        if isinstance(e, ast.UnaryOp):
            return elementwise([e.operand])
        if isinstance(e, ast.Compare) and len(e.comparators) == 1:
            return elementwise([e.left, e.comparators[0]])
        return None if any(junk(c) for c in ast.iter_child_nodes(e) if isinstance(c, ast.expr)) else frozenset()

    def clean(e: ast.expr | None) -> bool:
        return e is None or junk(e) == frozenset()

    def stored(call: ast.Call) -> bool:
        kw = {k.arg: k.value for k in call.keywords}
        if not call.args or not isinstance(call.args[0], ast.Name) or "tile" not in kw or "index" not in kw:
            return False
        if not all(clean(v) for k, v in kw.items() if k != "tile"):
            return False
        j = junk(kw["tile"])
        if j is None:
            return False
        view = lw.views.get(call.args[0].id)
        index = kw["index"].elts if isinstance(kw["index"], ast.Tuple) else [kw["index"]]
        for axis, rank, idx, bound in j:
            if view is None or len(view.dims) != rank or len(index) != rank or view.dims[axis].extent is None:
                return False
            if norm(view.dims[axis].extent) != norm(bound) or norm(index[axis]) != norm(idx):
                return False
        return True

    def walk(stmts: list[ast.stmt]) -> bool:
        for st in stmts:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                j = junk(st.value)
                if j is None:
                    return False
                env[st.targets[0].id] = env.get(st.targets[0].id, frozenset()) | j
            elif isinstance(st, ast.AugAssign) and isinstance(st.target, ast.Name):
                j = junk(ast.BinOp(ast.Name(st.target.id, ast.Load()), st.op, st.value))
                if j is None:
                    return False
                env[st.target.id] = env.get(st.target.id, frozenset()) | j
            elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                    ast.unparse(st.value.func) == "ct.store":
                if not stored(st.value):
                    return False
            elif isinstance(st, ast.For):
                if not clean(st.iter) or not isinstance(st.target, ast.Name) or env.get(st.target.id):
                    return False
                if not walk(st.body) or not walk(st.orelse):
                    return False
            elif isinstance(st, (ast.If, ast.While)):
                if not clean(st.test) or not walk(st.body) or not walk(st.orelse):
                    return False
            elif any(junk(n) != frozenset() for n in walk_nodes(st) if isinstance(n, ast.expr)):
                return False   # (tuple assignments, returns, other calls: no junk may reach them)
        return True

    while True:
        before = dict(env)
        if not walk(body):
            return False
        if env == before:
            return True


def _inner_loops_write_first(body: list[ast.stmt], name: str) -> bool:
    """Whether ``name`` is touched in ``body`` only inside inner ``for`` loops each of whose iterations assigns it
    before reading it (`_written_first`, or again of their own inner loops), not in their ranges: then no value of
    it reaches the next iteration of the loop over ``body``, nor code after an inner loop."""
    touched = False
    for st in body:
        if not any(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(st)):
            continue
        if not (isinstance(st, ast.For) and not st.orelse
                and not any(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(st.iter))
                and not any(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(st.target))
                and (_written_first(st.body, name) or _inner_loops_write_first(st.body, name))):
            return False
        touched = True
    return touched


def _early_returns_as_else(body: list[ast.stmt]) -> list[ast.stmt]:
    """The kernel's top-level ``if C: ...; return`` (a guard: ``if pid >= n: return``, or a special case handled
    apart) with the statements after it moved into its ``else``: the same program without an early return, which
    cuTile Python cannot write. Applied again inside each ``else``. An ``if`` that returns deeper, in an ``if`` of
    its arms (``if HAS_LABEL: label = ..; if label == ignore_index: ..; return``), gets the statements after it in
    both arms, each arm cut at its own bare ``return`` and rewritten alike; a ``return`` inside a loop stays."""
    out: list[ast.stmt] = []
    for i, st in enumerate(body):
        if (isinstance(st, ast.If) and not st.orelse and st.body and isinstance(st.body[-1], ast.Return)
                and st.body[-1].value is None and i + 1 < len(body)
                and not any(_returns_in_branches(x) for x in st.body[:-1])):
            rest = _early_returns_as_else(body[i + 1:])
            arm = st.body[:-1] or [ast.Pass()]
            new = ast.If(test=st.test, body=arm, orelse=rest)
            out.append(ast.copy_location(new, st))
            return out
        if isinstance(st, ast.If) and _returns_in_branches(st):
            rest = body[i + 1:]
            arms = [_early_returns_as_else(_cut_at_return(arm + rest)) for arm in (st.body, st.orelse)]
            out.append(ast.copy_location(ast.If(test=st.test, body=arms[0] or [ast.Pass()], orelse=arms[1]), st))
            return out
        if isinstance(st, ast.Return) and st.value is None and i + 1 < len(body):
            return out   # (an arm's own `return`, the statements after it moved there: none of them runs)
        out.append(st)
    return out


def _returns_in_branches(st: ast.stmt) -> bool:
    """Whether ``st`` is a bare ``return`` or an ``if`` holding one in its arms (through nested ``if``s, not
    loops)."""
    if isinstance(st, ast.Return):
        return st.value is None
    if isinstance(st, ast.If):
        return any(_returns_in_branches(x) for x in st.body + st.orelse)
    return False


def _cut_at_return(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` up to its first top-level bare ``return`` (dropped, with what follows it)."""
    for i, st in enumerate(stmts):
        if isinstance(st, ast.Return) and st.value is None:
            return stmts[:i]
    return stmts


def _number(v: float) -> str:
    """Python text of a number cuTile Python reads back: ``float('-inf')`` / ``float('nan')`` for the values whose
    repr is no literal."""
    if v != v:
        return "float('nan')"
    if v in (float("inf"), float("-inf")):
        return f"float('{v}')"
    return repr(v)


def _written_first(body: list[ast.stmt], name: str) -> bool:
    """Whether each iteration of a loop over ``body`` assigns ``name`` (a plain top-level assignment that does not
    read it) before anything reads it: then its value does not travel from one iteration to the next."""
    for st in body:
        reads = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in walk_nodes(st))
        if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in st.targets):
            return not any(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(st.value))
        if reads or any(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(st)):
            return False
    return False


def _drop_code_tests(text: str, name: str) -> str:
    """``text`` without the `NAME == 3` / `3 != NAME` tests `_string_codes` wrote."""
    import re

    n = rf"(?<![\w.]){re.escape(name)}(?!\w)"
    return re.sub(rf"(?<![\w.])\d+\s*(==|!=)\s*{n}", "", re.sub(rf"{n}\s*(==|!=)\s*\d+(?![\w.])", "", text))


def _mentions(text: str, name: str) -> bool:
    """Whether ``text`` reads ``name``; a keyword argument of that name (`ct.full(.., dtype=ct.float32)` for a
    constexpr called `dtype`) is no mention of it."""
    import re

    for m in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", text):
        before = text[:m.start()].rstrip()
        if before.endswith(("(", ",")) and re.match(r"\s*=(?!=)", text[m.end():]):
            continue
        return True
    return False


#: cuTile kernel options a lowering may be given (Triton's num_warps/num_stages have no cuTile counterpart), and
#: the lowering's own: ieee_div=1 (f32 division rounded as IEEE, not as Triton's div.full), plain_stores=1 (stores
#: without TMA), plain_loads=1 (pointer loads without TMA; module docstring), load_latency=N (every lowered
#: ``ct.load`` given ``latency=N``, 1-10: cuTile's hint of how long its loads take, which sets how deep tileiras
#: pipelines them; the CPU reading run-2026-12-06-s16/ln_cpu_reading.md found a short row kernel's f16 loads given
#: 16-stage guarded pipelines by default and Triton's shape at latency 10 with plain loads)
KERNEL_HINTS = ("occupancy", "num_ctas", "num_worker_warps")
LOWERING_OPTIONS = ("ieee_div", "plain_stores", "plain_loads", "load_latency")


def load_latency(value: object) -> int:
    """The ``load_latency`` option's value: 0 (not given) or in cuTile's ``latency=`` range, 1-10 (ValueError)."""
    if value in (None, 0):
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
        raise ValueError(f"load_latency={value!r}: cuTile's load latency hint is an integer from 1 to 10")
    return value


def _view_blocks(lw: "_Lowerer", param: str, view: View) -> tuple[tuple[int, str], ...]:
    """View.blocks of ``param``'s view: the block of each tile read at index 0 along one of its unbounded
    dimensions, and ``every B`` for the blocks read there at other indices."""
    unbounded = {k for k, d in enumerate(view.dims) if d.extent is None}
    at_zero = {(k, b) for (q, k), uses in lw._unbounded.items() if q == param and k in unbounded
               for *_, b in uses if b is not None}
    moving = {(k, f"every {b}") for (q, k), bs in lw._moving_blocks.items() if q == param and k in unbounded
              for b in bs}
    return tuple(sorted(at_zero | moving))


def lower(kernel: TritonKernel, kinds: dict[str, str], types: dict[str, str],
          hints: dict[str, int] | None = None, facts: dict | None = None) -> Lowered:
    """The cuTile Python form of ``kernel``. ``kinds``: parameter → "array" | "scalar" | "constant" (from a launch);
    ``types``: scalar/constant parameter → "int" | "float" | "bool"; ``hints``: cuTile kernel options for the
    lowered kernel (``occupancy``, ``num_ctas``, ``num_worker_warps``), chosen by whoever ports it (Triton's launch options do not carry
    over: they size Triton's own thread blocks); ``facts``: what the captured launches show — ``constants``
    (constexpr → its value per launch: `if`s on them that every launch takes alike are folded) and ``dtypes``
    (array → the cuTile dtypes passed: an f32 tile's exp is lowered as Triton's) and ``negative_scalars`` (integer
    scalar parameters a launch passed negative: no size, so `//` / `%` by them keep Triton's signs)."""
    hints = dict(hints or {})
    bad = sorted(set(hints) - set(KERNEL_HINTS) - set(LOWERING_OPTIONS))
    if bad:
        raise LoweringError(kernel, kernel.fn, f"unknown hint(s) {bad}: the lowering takes "
                                               f"{KERNEL_HINTS + LOWERING_OPTIONS}")
    options = {k: hints.pop(k) for k in LOWERING_OPTIONS if k in hints}
    try:
        latency = load_latency(options.get("load_latency"))
    except ValueError as e:
        raise LoweringError(kernel, kernel.fn, str(e)) from None
    seeds: dict[str, View] = {}
    not_blocks: set[tuple[str, str]] = set()
    gathered: set[str] = set()
    not_runs: set[str] = set()
    run_wraps: dict[str, str] = {}
    wraps = True
    while True:
        lw = _Lowerer(kernel, kinds, types, ieee_div=bool(options.get("ieee_div")),
                      plain_stores=bool(options.get("plain_stores")), facts=facts,
                      plain_loads=bool(options.get("plain_loads")),
                      load_latency=latency)
        lw.seed_views = dict(seeds)
        lw.not_whole_blocks = set(not_blocks)
        lw.gathered_arrays = set(gathered)
        lw.not_runs, lw.run_wraps = set(not_runs), dict(run_wraps)
        lw.wraps = wraps
        try:
            lw.run()
            if lw.wrap_loads and not _junk_unobservable(lw):
                raise _Unwrap()
            if lw.wrap_loads:
                lw.notes.append("`(i * B + tl.arange(0, B)) % n` offsets read as padded tiles of a view of extent n: "
                                "the wrapped lanes only reach lanes the masked store leaves out (docs/triton.md, "
                                "\"Performance of the corpus ports\")")
            break
        except _Unwrap:   # a wrapped run used other than as a padded tile whose wrapped lanes go unstored
            if not wraps:
                raise
            wraps, run_wraps = False, {}
        except LoweringError:   # (a view the wrapped extent conflicts with, say): as it lowered without wraps
            if not (wraps and lw.wrap_used):
                raise
            wraps, run_wraps = False, {}
        except _NotRun as again:   # an index vector carried as its block index given another value: as a tile
            if again.widen and again.wrap is not None and wraps and again.name not in run_wraps:
                run_wraps[again.name] = again.wrap
            else:
                not_runs.add(again.name)
        except _AtomicArrays as again:   # arrays both atomics and tile accesses reach: every access a gather
            gathered |= again.arrays
        except _Relayout as again:   # a pointer gathered from before its strided layout was known: once more
            seeds[again.param] = again.view
        except _NotWholeBlocks as again:   # a variable offset that is not whole blocks: once more, without it
            if again.claim in not_blocks:
                raise LoweringError(kernel, kernel.fn, f"`{again.claim[0]}` is used as an offset of whole "
                                                       f"{again.claim[1]} blocks but is not one") from None
            not_blocks.add(again.claim)
    params_text, params = lw.signature()
    from ...pipeline.port import _display

    rel = _display(kernel.path)
    header = [f'"""cuTile Python form of the Triton kernel {kernel.name} ({rel}:{kernel.line}), written by '
              "tileport's Triton frontend.", "",
              "Generated, never edit. Each pointer parameter is an array view (the .json beside this file says how",
              "a launch builds it from the Triton arguments)." + (
                  " f32 division is IEEE division (ieee_div: tileport.frontends.triton.lower)."
                  if options.get("ieee_div") else "") + (
                  " Stores skip TMA (plain_stores: tileport.frontends.triton.lower)."
                  if options.get("plain_stores") else "") + (
                  " Loads skip TMA (plain_loads: tileport.frontends.triton.lower)."
                  if options.get("plain_loads") else "") + (
                  f" Loads state latency={options['load_latency']} (load_latency: tileport.frontends.triton.lower)."
                  if options.get("load_latency") else "") + '"""',
              "import cuda.tile as ct", "", "",
              "@ct.kernel" + (f"({', '.join(f'{k}={v}' for k, v in hints.items())})" if hints else ""),
              f"def {kernel.name}({params_text}):"]
    source = "\n".join(header + lw.lines) + "\n"
    sites = {p: (getattr(n, "lineno", kernel.line), getattr(n, "col_offset", 0) + 1) for p, n in lw.view_sites.items()}
    views = {p: replace(v, unit_reach=tuple(sorted(lw._unit_reach[p]))) if lw._unit_reach.get(p) and
             any(d.stride == "1" and d.extent is None for d in v.dims) else v for p, v in lw.views.items()}
    # the blocks read along unbounded dimensions of views with two or more (View.blocks: overlapping windows are
    # refused at launch, where a tile would read padding)
    views = {p: replace(v, blocks=_view_blocks(lw, p, v)) if sum(d.extent is None for d in v.dims) >= 2 else v
             for p, v in views.items()}
    return Lowered(kernel, source, params, views, lw.notes, hints | options, sites)
