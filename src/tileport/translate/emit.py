"""Emit a cuTile Rust module for one cuTile Python kernel, guided by its spec.

The emitter walks the kernel's AST once per variant, tracking the type (dtype and tile shape) of every value, and
writes Rust that mirrors the Python line by line: same names, same order, comments carried over. Every construct
is looked up in :mod:`tileport.translate.coverage`; one that is not *supported* stops the translation with its
``file:line:col``. Decisions the Python source leaves to cuTile Python's compiler are read from the reference IR
instead of guessed: a ``a * b + c`` becomes ``fma(...)`` exactly where the reference IR has an ``fma`` at that
source location.
"""
from __future__ import annotations

import ast
import contextlib
import copy
import functools
import math
import operator
import struct
import io
import re
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..astwalk import walk_nodes
from ..errors import TileportError
from ..irdiff.canon import fp8_holds
from ..spec import signature as sigmod
from .coverage import BY_ID, construct_for_call, supported
from . import divby, loop_split
from .block_scope import unshadow
from .optables import BINARY_MATH, PLAIN_BINARY_MATH, PURE_CT_CALLS, UNARY_MATH
from .hazards import carried_tma_tiles
from .helpers import kernel_def, kernel_helpers
from .static_eval import fold_array_aliases, fold_static_eval
from .resolve import ResolveError, resolve, rewritten
from .lists import ListItem, emit_item, emit_prologue, find_list_items, store_item
from .lists import entry_params as list_entry_params
from .stores import NO_HINTS, store_unchecked as _store_unchecked
from .slices import Slice, emit_slice, find_slices, int_divisor, slice_call, stride_divisor
from .values import ELEMENT_BYTES, RUST_DTYPES, Scalar, Tile

#: ct.matmul's accumulator for float operands of one dtype: the first accumulator cuda.tile's mma takes for them
#: (cuda/tile/_datatype.py `_mma_supported_dtypes`); the product is converted back to the operands' dtype
MATMUL_ACC = {"f16": "f16", "f8e4m3fn": "f16", "f8e5m2": "f16", "bf16": "f32", "f32": "f32", "tf32": "f32",
              "f64": "f64"}
#: `ct.<name>` dtype attributes → our dtype names, for the dtypes Rust tiles can hold
CT_DTYPES = {ct_name: short for short, ct_name in sigmod.DTYPES.items() if short in RUST_DTYPES} | \
    {"float4_e2m1fn": "f4e2m1fn"}   # (a tile dtype only: ct.unpack_from_bytes' result, no array holds it)
PADDING = {"ZERO": "padding::Zero", "NEG_ZERO": "padding::NegZero", "NAN": "padding::Nan",
           "POS_INF": "padding::PosInf", "NEG_INF": "padding::NegInf"}
BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
#: bitwise operators on integer or boolean (mask) tiles: Rust's operators lower to andi/ori/xori
BITOPS = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
#: comparisons → cutile's element-wise compare functions (integer: signed cmpi; float: ordered cmpf)
COMPARE = {ast.Lt: "lt_tile", ast.LtE: "le_tile", ast.Gt: "gt_tile", ast.GtE: "ge_tile", ast.Eq: "eq_tile",
           ast.NotEq: "ne_tile"}
#: comparisons → cutile's predicate::Mode names (cmpi / cmpf)
INT_PREDICATES = {ast.Lt: "LessThan", ast.LtE: "LessThanOrEqual", ast.Gt: "GreaterThan", ast.GtE: "GreaterThanOrEqual",
                  ast.Eq: "Equal", ast.NotEq: "NotEqual"}
SCALAR_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
ROUNDING = {"RN": "rounding::NearestEven", "RZ": "rounding::Zero", "RM": "rounding::NegativeInf",
            "RP": "rounding::PositiveInf", "FULL": "rounding::Full", "APPROX": "rounding::Approx"}
#: Array methods that make another view of the array inside the kernel (row array-views)
ARRAY_VIEWS = frozenset({"tiled_view", "slice", "get_raw_memory", "foreign_pointer"})
#: why a slice's view cannot take some forms: cutile 0.3.1's compiler does not infer the type of
#: `make_partition_view(&sub, ..)` for a tensor the kernel made (a `&Tensor` parameter it does), so only the Tensor
#: methods' views are open to a slice: `partition` (zero padding), `partition_permuted`, `partition_full_mut`
SLICE_VIEW_LIMIT = ("{what} from a slice: cutile 0.3.1 makes views of a tensor the kernel made only through its "
                    "methods (`partition`: zero padding, `partition_permuted`, `partition_full_mut`: no padding); "
                    "`make_partition_view(&sub, ..)`, which takes other paddings and dim maps, does not type-check "
                    "there (\"Unable to infer return type for CUDA Tile op `make_partition_view`\")")
STRIDED_VIEW_LIMIT = ("{what} through {arr}'s tiled view with traversal_steps other than its tile shape: cuTile "
                      "Python's strided view; cutile 0.3.1 loads from one only (its get_index_space_shape takes a "
                      "partition view, its view stores and reductions a partition's token, which make_strided_view "
                      "does not give)")
#: tileiras' optimization level where neither cuTile Python's `@ct.kernel(opt_level=..)` nor cutile's CompileOptions
#: set one (cuda.tile's CompilerOptions, cutile-compiler's DEFAULT_OPT_LEVEL)
DEFAULT_OPT_LEVEL = 3
#: Emitter.break_flags' entry for a `while` loop: its `break` is Rust's (a Tile IR `break`), no flag
WHILE_BREAK = "<while>"
#: the element type parameter's name in cutile 0.3.1's declarations (`broadcast_scalar<E: ElementType, ..>`, `impl<E>
#: Pointer for *mut E`): a kernel's const generic of that name (`E: ct.Constant[int]`, an expert count) is taken
#: for the element type and cutile's compiler panics ("Unexpected primitives"). Such a constant is no const
#: generic: its value is spelled out in the body, one entry per value (as float constants are). (A const `R` —
#: `reshape`'s shape parameter — compiles as it is: the library's gelu_erf.)
CUTILE_TYPE_PARAMS = frozenset({"E"})
#: the name of cutile 0.3.1's `select` shape generic (`select<E, const S: [i32; N]>`), which its compiler resolves in
#: the calling kernel's generic scope where the call's value is not bound typed (`Emitter._python_mod`)
SELECT_SHAPE_GENERIC = "S"
#: Python's operators, for folding expressions of constants (Emitter.const_value)
CONST_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
             ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
             ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
             ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.Eq: operator.eq, ast.NotEq: operator.ne,
             ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
#: ct functions of constants that fold to a constant (resolve spells the builtins min/max/abs as these)
CONST_CALLS = {"minimum": min, "maximum": max, "abs": abs, "add": operator.add, "sub": operator.sub,
               "mul": operator.mul, "truediv": operator.truediv, "pow": operator.pow}
#: ct.add/sub/mul/truediv without options → the Python operator
MATH_OPERATORS = {"add": ast.Add, "sub": ast.Sub, "mul": ast.Mult, "truediv": ast.Div}
#: a tiled view's atomic reduction as resolve spells it (`ct._tiled_view_atomic_store_add(x, index, update, shape)`)
#: → cutile's atomic mode per element dtype (Tile IR `atomic_red_view_tko`: AddF on floats, integer modes)
TILED_ATOMIC = "_tiled_view_atomic_store_"
TILED_ATOMIC_MODES: dict[str, dict[str, str]] = {
    "add": {"f16": "AddF", "bf16": "AddF", "f32": "AddF", "f64": "AddF", "i32": "Add", "i64": "Add", "u32": "Add",
            "u64": "Add"},
    "max": {"i32": "Max", "i64": "Max", "u32": "Umax", "u64": "Umax"},
    "min": {"i32": "Min", "i64": "Min", "u32": "Umin", "u64": "Umin"},
    **{op: {d: op.capitalize() for d in ("i32", "i64", "u32", "u64")} for op in ("and", "or", "xor")},
}
#: Rust code that reads memory where it is evaluated (a view's load), see Emitter.ordered_exprs
READS_MEMORY = re.compile(r"\.load(_pipelined::<\d+>)?\(|\bload_view_tko\(|\bload_ptr_tko\(")
#: the integer element dtypes, signed and unsigned (cuda.tile's `is_integral`)
INTEGER_DTYPES = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
#: integer dtypes cutile 0.3.1 has no bitwise operators for (`&` on Tile<i16>: "Binary operation is not implemented")
NARROW_INTS = ("i8", "i16", "u8", "u16")
#: `+`, `-`, `*` of 16-bit integer tiles, which cutile 0.3.1's operators do not implement: its functions for the ops
INT16_ARITH = {ast.Add: "addi", ast.Sub: "subi", ast.Mult: "muli"}
#: bitwise operators on 16-bit integer tiles, which cutile 0.3.1's operators know neither: its generic Tile IR ops
INT16_BITWISE = {ast.BitAnd: "andi", ast.BitOr: "ori", ast.BitXor: "xori"}
CONST_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert}
#: ct.MemoryOrder / ct.MemoryScope of an atomic → cutile's
ATOMIC_ORDERS = {"RELAXED": "ordering::Relaxed", "ACQUIRE": "ordering::Acquire", "RELEASE": "ordering::Release",
                 "ACQ_REL": "ordering::AcqRel"}
ATOMIC_SCOPES = {"BLOCK": "scope::TileBlock", "DEVICE": "scope::Device", "SYS": "scope::System"}
#: ct.atomic_<op> → cutile's atomic mode per element dtype (the modes of Tile IR's atomic_rmw_tko)
_INT_DTYPES = ("i32", "i64", "u32", "u64")
#: Python's conversions cuTile Python folds on constants in a kernel (`int(D / 2)`, `float(K)`, `bool(K)`)
CONVERSIONS: dict[str, Callable] = {"int": int, "float": float, "bool": bool}
#: an 8-bit float constant the port cannot write (cutile 0.3.1 compiles none: it converts an f32 one, exact only
#: where the format holds the value)
FP8_CONSTANT_LIMIT = ("the {dtype} constant {value!r}: cutile 0.3.1 has no 8-bit float constants; the port converts "
                      "an f32 constant, which is that constant only where {dtype} holds the value exactly (0, 1.5, "
                      "448, ..)")
#: bits of the unsigned dtypes whose literals with the top bit set are written as the signed literal, bitcast
_UNSIGNED_BITS = {"u8": 8, "u16": 16, "u32": 32}
ATOMIC_MODES: dict[str, dict[str, str]] = {
    "atomic_add": {"f16": "AddF", "bf16": "AddF", "f32": "AddF", "f64": "AddF", **{d: "Add" for d in _INT_DTYPES}},
    "atomic_max": {"i32": "Max", "i64": "Max", "u32": "Umax", "u64": "Umax"},
    "atomic_min": {"i32": "Min", "i64": "Min", "u32": "Umin", "u64": "Umin"},
    "atomic_and": {d: "And" for d in _INT_DTYPES},
    "atomic_or": {d: "Or" for d in _INT_DTYPES},
    "atomic_xor": {d: "Xor" for d in _INT_DTYPES},
    "atomic_xchg": {"f32": "Xchg", "f64": "Xchg", **{d: "Xchg" for d in _INT_DTYPES}},
    "atomic_cas": {"f32": "", "f64": "", **{d: "" for d in _INT_DTYPES}},   # (atomic_cas_tko: no mode; bitwise compare)
}
#: the cuda.tile calls that read or write memory (besides the atomics), for memory-order checks
MEMORY_OPS = ("load", "store", "gather", "scatter", "printf", "print")
#: a reduction's / scan's numeric options and the spellings of their defaults (`rounding_mode=RoundingMode.RN`)
MATH_OPTION_DEFAULTS = {"rounding_mode": ("None", "RN"), "flush_to_zero": ("False",), "propagate_nan": ("False",)}
LOAD_DEFAULTS = {"order": "'C'", "check_bounds": "True", "latency": "None", "allow_tma": "None",
                 "memory_order": "ct.MemoryOrder.WEAK", "memory_scope": "ct.MemoryScope.NONE"}


#: How deep a helper may call itself: cuTile Python inlines every call, a recursion ended by its constants (`def
#: _pow(t, n)`: `if n == 0: return ..`, then `_pow(t, n - 1)`) included; a deeper one is refused.
MAX_RECURSION = 16


class Unsupported(TileportError):
    """A construct the translator does not handle: never emitted as (possibly wrong) Rust."""

    def __init__(self, file: str, node: ast.AST, construct: str, detail: str):
        self.file, self.line, self.col = file, getattr(node, "lineno", 0), getattr(node, "col_offset", -1) + 1
        self.construct, self.detail = construct, detail
        row = BY_ID.get(construct)
        if row is None:
            status = "no coverage row"
        elif row.status == "supported":
            status = f"coverage row `{construct}` is supported, but not in this form"
        else:
            status = f"coverage row `{construct}` is {row.status}"
        super().__init__(f"{file}:{self.line}:{self.col}: {detail} — not supported by the translator ({status}; "
                         "see docs/coverage.md)")




class WideLiteral(TileportError):
    """An integer constant outside i32's range the port would write as a Rust literal: cutile 0.3.1 parses every
    integer literal as an i32 (`-2147483648i32` as the negation of 2147483648, `3000000000i64` too) and panics on
    it; a NaN, which no literal spells, too. Raised by rust_literal, which knows no source position;
    Emitter.stmts refuses it at the statement."""


class BranchTypeChange(Unsupported):
    """A name re-bound to another type inside a branch (Rust cannot say that in an `if`; a constant `if` is then
    folded to its taken arm instead, see Emitter.if_chain)."""

@dataclass(frozen=True)
class ArrayParam:
    name: str
    sig: sigmod.ArraySig


@dataclass(frozen=True)
class Results:
    """The values a helper `@ct.function` returns as a tuple (unpacked by the assignment that calls it)."""
    types: tuple[Tile | Scalar, ...]

    def rust(self) -> str:
        return f"({', '.join(t.rust() for t in self.types)})"


Ty = Tile | Scalar | ArrayParam | Results


def _computed_index(call: ast.Call) -> bool:
    """A ct.store whose tile index has an element computed by arithmetic (`t * 2 + 1`), or only literal elements
    (`(0,)`, `(1,)`: a few results of the whole grid written into one small array, no block's own tile): no block
    map of the straight-line parts (store_bijective) takes it."""
    index = next((k.value for k in call.keywords if k.arg == "index"), call.args[1] if len(call.args) > 1 else None)
    return isinstance(index, ast.Tuple) and (any(isinstance(e, ast.BinOp) for e in index.elts) or
                                             all(isinstance(e, ast.Constant) for e in index.elts))


def _exclusive(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> bool:
    """Whether two arm paths (Emitter._constant_arms) part at some constant `if`: its one arm or the other runs."""
    return any(ia == ib and xa != xb for ia, xa in a for ib, xb in b)


@dataclass
class Output:
    name: str
    sig: sigmod.ArraySig
    shape: tuple[str, ...] | None = None
    scheduled: bool = False  # written through an unsafe schedule, declared `&Tensor`
    parts: int = 1           # store call sites (several: the block's region in parts, at constant tile indices)
    alternatives: int = 1    # store call sites in exclusive arms of constant ifs (one of them runs per variant)
    block_map: list | None = None  # the block map of its first part store; every part store must use the same
    token: str | None = None  # stored in parts: the Rust name of the last part's store token (the next one chains)
    done: int = 0             # its stores emitted so far
    general: bool = False     # read and written, or stored at indices no safe form covers: every store unchecked
    owned: list = field(default_factory=list)  # stores at the block's own tile (store_bijective), None: elsewhere


#: `not (a OP b)` → `a OP' b` (integers: no NaN to tell the two apart)
NEGATED_COMPARE = {ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Eq: ast.NotEq,
                   ast.NotEq: ast.Eq}


@dataclass
class Emitted:
    entry: str
    generics: list[str]              # const generic names, in order
    params: list[str]                # Rust parameter declarations
    body: list[str]
    layout: str                      # irdiff layout of the Rust entry
    doc: list[str]
    strides: dict[str, list[int]]    # static strides per array (-1 = dynamic)
    unit_grid: list[int]             # grid dimensions the port needs launched with extent 1
    preconditions: list[str]         # what the host side must check before launching
    specs: dict[str, str]            # divisibility facts per array, for the irgen driver's --spec
    unsafe_sites: list[dict] = field(default_factory=list)
    abi: list[dict] = field(default_factory=list)  # the entry's runtime parameters, in order (see rustgen.ffi)
    hints: dict[str, int] = field(default_factory=dict)  # entry optimization hints (cutile names), e.g. occupancy
    hazards: list[dict] = field(default_factory=list)  # known toolchain hazards in the source (translate.hazards)
    ops: dict[str, set[str]] = field(default_factory=dict)  # ops the module declares (rustgen.declared_ops)
    #: cutile CompileOptions the entry compiles with that its `#[cutile::entry]` hints cannot state (`opt_level`:
    #: tileiras' `--opt-level`, cuTile Python's `@ct.kernel(opt_level=..)`); port.json's `compile_options`
    options: dict[str, int] = field(default_factory=dict)


def _comments(src: str) -> dict[int, str]:
    """Whole-line comments by line number (trailing comments stay behind)."""
    lines = src.splitlines()
    return {tok.start[0]: tok.string.lstrip("#").strip()
            for tok in tokenize.generate_tokens(io.StringIO(src).readline)
            if tok.type == tokenize.COMMENT and lines[tok.start[0] - 1].strip().startswith("#")}


class Emitter:
    def __init__(self, file: str, src: str, fn: ast.FunctionDef, sig: sigmod.Signature, constant_names: set[str],
                 fma_locs: dict[tuple, int]):
        self.file, self.src, self.fn, self.sig = file, src, fn, sig
        self.fma_locs = fma_locs
        self.object_hints: dict = {}   # the kernel object's hints (emit_kernel's object_hints)
        self.constants = set(constant_names)
        self.params = dict(sig.params)
        self.env: dict[str, tuple[str, Ty]] = {}
        self.body: list[str] = []
        self.comments = _comments(src)
        self.emitted_comments: set[int] = set()
        self.outputs: dict[str, Output] = {}
        self.bid_names: dict[str, int] = {}  # local names bound to ct.bid(k), and k
        self.rev_bid_names: dict[str, int] = {}  # local names bound to ct.num_blocks(k) - 1 - ct.bid(k), and k
        self.branch_bound: set[str] = set()  # names assigned inside a branch or loop: no store index may rest on them
        self.mutated: set[str] = set()
        self.unit_grid: set[int] = set()
        self.declared_ops: dict[str, set[str]] = {}  # declared op → rounding markers used
        self.store_dim_map: list[int] | None = None   # the store being emitted's `order=` (see store_view)
        self.reduced: set[str] = set()   # arrays a tiled view's atomic_store_<op> writes (see tiled_atomic)
        self.tile_counts: dict[str, tuple[str, int, tuple[str, ...]]] = {}   # name = ct.num_tiles(array, axis, shape)
        self.loop_bounds: dict[str, tuple[str, tuple[str, int, tuple[str, ...]]]] = {}  # loop var → its stop
        # range-loop variables counted by ct.num_tiles → what they count (array, axis, tile shape; None: unknown)
        self.tile_loop_vars: dict[str, tuple[str, int, tuple[str, ...]] | None] = {}
        self.last_num_tiles: tuple[str, int, tuple[str, ...]] | None = None
        self.unsafe_sites: list[dict] = []
        self.products: dict[str, list] = {}  # name bound to `a * b` → the factors (for fma across a binding)
        self.last_product: list | None = None
        self.last_product_fp: tuple[str, str] = ("rounding::NearestEven", "ftz::Disabled")
        self.read_names: set[str] = set()
        self.fma_candidates: dict[tuple, int] = {}
        self.fma_nodes: dict[tuple, set[int]] = {}   # position → the distinct candidate sums there
        #: `ct.astype(a * b, D)` operands of sums the reference contracted through (the conversion a no-op there)
        self.fma_through_astype: set[int] = set()
        self.preconditions: list[str] = []
        self.aliases = {"ct"}
        self.helpers: dict[str, ast.FunctionDef] = {}  # module-level @ct.function helpers, inlined at each call
        self.origin: dict[int, tuple[str, str]] = {}  # id(node) → (file, source) for nodes of a helper imported
        # from another file (its lines, columns and source text are that file's)
        self.inlining: list[str] = []
        self.temps: dict[str, int] = {}  # temporaries named so far (see fresh)
        self.helper_params: dict[str, tuple[bool, object]] = {}
        self.tuple_args: dict[str, tuple[set[str], set[str]]] = {}   # helper → (its tuple parameters, the names in them)
        self.fusing_names: set[str] = set()     # names bound to a helper's product that an fma reads
        self.deferred: set[str] = set()         # re-assigned names whose product an fma still has to take
        self.kept_values: set[str] = set()      # a re-bound name's earlier value a product reads (keep_factors)
        self.helper_product: list | None = None  # the factors of the helper product just bound (see _inline_body)  # inlined helper's parameter → const_value
        self._kernel_nodes: set[int] | None = None  # ids of the kernel's own nodes (see inlined_times)
        self.binding_value: ast.AST | None = None  # the value of the assignment being emitted (see hoist_constant)
        self.hoisting: ast.AST | None = None       # the constant expression being hoisted (see hoist_constant)
        self.scattered: set[str] = set()  # arrays written by ct.scatter (declared &Tensor, written via pointers)
        #: array → the token its last top-level ct.scatter returned (None: it was scattered inside a loop/branch)
        self.scatter_tokens: dict[str, str | None] = {}
        #: arrays scattered into several times among one `if` arm's own statements: (scope depth, scatters left)
        self.arm_chains: dict[str, list[int]] = {}
        self.atomic_tokens: dict[str, str] = {}   # array → the token its last top-level atomic returned
        #: the token a kernel's one acquiring top-level atomic returned, which the gathers/scatters after it start from
        self.acquire_token: str | None = None
        self.acquire_emitted: str | None = None
        self.loop_bodies: list[list[ast.stmt]] = []   # the statements of each enclosing loop (_carry_arm_names)
        self.break_flags: list[str | None] = []   # per enclosing range loop: its `break` flag (None: no break)
        self.release_tokens: dict[str, str] = {}  # array → its last store's token, for a releasing atomic after it
        #: array → the ct.scatter calls into it still to come in the kernel's own body (a scatter binds its token
        #: only when another follows)
        self.scatters_left = _scatter_counts(fn)
        #: arrays an atomic updates: their gathers' read tokens are kept, the next atomic on the array joins them
        self.atomic_targets = {n.args[0].id for n in walk_nodes(fn) if isinstance(n, ast.Call) and n.args and
                               isinstance(n.args[0], ast.Name) and isinstance(n.func, ast.Attribute) and
                               n.func.attr in ATOMIC_MODES}
        #: array → (token, scope) of its gathers since its last scatter or atomic (the next one joins them)
        self.reads: dict[str, list[tuple[str, int]]] = {}
        #: (array, dim) of every stride a gather/scatter needs as an entry parameter, in order of first use
        self.stride_params: list[tuple[str, int]] = []
        # names bound to a transpose/permute whose extents include a const generic: cutile 0.3.1 types the result
        # by the extents' values (`Tile<f32, {[16, 16]}>`), so an element-wise use reshapes it to the names first
        self.value_typed: dict[str, Tile] = {}
        self.helper_result_consts: list[tuple[bool, object]] = []   # the last inlined helper's known results
        self.nd_accesses: set[str] = set()   # gathers/scatters of rank > 1 (see gather: their padding)
        self.loaded_arrays: set[str] = set()  # arrays both loaded and stored (in-place updates)
        #: array updated in place through views → the `let mut` tokens ordering its accesses as cuTile Python's
        #: token_order pass does: (last op: every access since the last store joined, which a store waits on;
        #: last store: which a load waits on). See ordered_in_place.
        self.inplace_tokens: dict[str, tuple[str, str]] = {}
        self.ordered_stores: set[str] = set()  # write-only arrays stored several times in loops/ifs: ordered alike
        #: store-ordered array → (its block-owned stores' tile shape, (dim, precondition) of their literal 0s)
        self.owned_ordered: dict[str, tuple[set, set]] = {}
        self.scope_locals: list[set[str]] = []  # per open branch/loop body: the names first bound in it
        #: per open branch/loop body or inlined helper: a key never reused, and the names a loop body assigns
        #: (None for a branch, "helper" for a helper)
        self.block_keys: list[tuple[int, object]] = []
        self.block_serial = 0
        self.product_block: dict[str, int] = {}   # a product's name → the block_key where it was bound
        self.const_locals: dict[str, object] = {}  # names assigned once from constant bools: their values
        # names bound by a `let` to an integer literal (`H = x.shape[1]` on a static extent: `let H: i32 = 1i32;`)
        self.int_literal_lets: dict[str, str] = {}
        self._constants_before: dict[str, object] | None = None   # (see _constant_product)
        self._helper_nodes: dict[int, ast.FunctionDef] | None = None   # (see inlined_times)
        self.fma_flow: dict[tuple, list] = {}   # position → [a sum there, fmas emitted] (see try_fma)
        self.carried_tokens: dict[str, str] = {}  # array → the `let mut` token its scatters in a loop carry
        #: array → the `let mut` token a loop that only reads it carries: its reads joined, one by one (cuTile Python's
        #: "last op" token of the array), for a scatter after the loop
        self.read_chains: dict[str, str] = {}
        self.chained_reads: dict[str, str] = {}   # those of them the loop being emitted accumulates
        self.after_reads: dict[str, str] = {}     # array → the reads-joined token a scatter loop carries besides
        #: array → the last-op token a loop carries that both writes the array and holds a loop only reading it
        self.op_tokens: dict[str, str] = {}
        self.elementwise_like: Tile = Tile("i32", ())   # the last element-wise op's result type (see elementwise)
        self.parallel_stores: dict[int, str] = {}  # id(ct.store) → the token from before its loop (a parallel store)
        self.dtype_locals: dict[str, str] = {}  # names bound to a dtype value (`dt = ct.float32`)
        self.static_items: dict[str, int] = {}  # ct.static_iter loop names → the int item being unrolled
        self.assign_counts = _assign_counts(fn)   # of the function being translated (a helper's while inlined)
        self.slices: dict[str, Slice] = {}   # names bound to `x.slice(..)`: views made in the kernel (slices.py)
        self.list_items: dict[str, ListItem] = {}   # names bound to `L[i]`: a list's items (lists.py)
        self.stored_lists: set[str] = set()         # lists whose items are stored (they carry a token)
        self.loop_facts: dict[int, dict] | None = None   # id(loop) → its carried values' facts (divby.py), lazily
        #: acquire-ordered kernels (see acquire_ordered): every array's two tokens and the acquire token, ordered as
        #: cuTile Python's token_order pass orders them
        self.acq_mode = False
        self.test_atomics: dict[int, tuple] | None = None   # a `while` condition's atomics, while it is translated
        self.acq_token: str | None = None   # the acquire token's `let mut`
        self.acq_live = False   # cuTile Python's token map holds the acquire key (joined into every later op)
        self.key_order: list[str] = []   # arrays in the order their last-op keys entered the token map ("": acquire)
        self.tok_tag: dict[str, str] = {}   # token variable → what it holds (variables holding one value join once)

    # ------------------------------------------------------------------ helpers

    #: ``@ct.kernel(...)`` hints → cutile's entry hint names (Tile IR's entry optimization_hints)
    KERNEL_HINTS = {"occupancy": "occupancy", "num_ctas": "num_cta_in_cga",
                    "num_worker_warps": "num_worker_warps_per_cta"}

    def kernel_hints(self) -> dict[str, int]:
        """The entry hints of ``@ct.kernel(occupancy=N, num_ctas=M, num_worker_warps=W)`` (literal ints); other
        options refused. ``opt_level=N`` (0 to 3, or by target) is no Tile IR hint: tileiras' `--opt-level`, which
        cutile sets through its CompileOptions only; kept in ``compile_options`` (Emitted.options) where it is not
        the default 3."""
        out: dict[str, int] = {}
        self.compile_options: dict[str, int] = {}

        def by_target(v: ast.AST) -> bool:
            return isinstance(v, ast.Call) and (self.ct(v.func) == "ByTarget" or (
                isinstance(v.func, ast.Name) and v.func.id == "ByTarget"))
        # a hint given for sm_90 itself (`ct.ByTarget(sm_90=4, ..)`): cuTile Python writes an `sm_90` entry of
        # those beside `default` (the other hints' values); tileiras applies `default`'s hints with the `sm_90`
        # entry's over them, hint by hint (irdiff's hints-for-target), so the port states every hint's sm_90 value
        if not any(self.ct(d.func if isinstance(d, ast.Call) else d) == "kernel" for d in self.fn.decorator_list):
            # a function made a kernel by a call, not a decorator (`k = ct.kernel(occupancy=2)(fn)`): the kernel
            # object's hints on sm_90, as analyze read them (row kernel-hints)
            level = self.object_hints.get("opt_level")
            if isinstance(level, int) and not isinstance(level, bool) and level != DEFAULT_OPT_LEVEL:
                self.compile_options["opt_level"] = level
            return {self.KERNEL_HINTS[k]: v for k, v in self.object_hints.items()
                    if k in self.KERNEL_HINTS and isinstance(v, int) and not isinstance(v, bool)}
        for dec in self.fn.decorator_list:
            if not (isinstance(dec, ast.Call) and self.ct(dec.func) == "kernel"):
                continue
            for kw in dec.keywords:
                if kw.arg in self.KERNEL_HINTS and isinstance(kw.value, ast.Call) and \
                        (self.ct(kw.value.func) == "ByTarget" or (isinstance(kw.value.func, ast.Name) and
                                                                  kw.value.func.id == "ByTarget")):
                    # the value for the target (sm_90), or the default (`from cuda.tile import ByTarget` too: the
                    # decorator is not resolved with the body)
                    values = {k.arg: k.value for k in kw.value.keywords}
                    chosen = values.get("sm_90", values.get("default"))
                    if chosen is None:
                        continue   # no value for sm_90: the hint is not set there
                    if not (isinstance(chosen, ast.Constant) and type(chosen.value) is int):
                        raise self.refuse(kw, "kernel-hints-other", f"@ct.kernel({self.text(kw)})")
                    self.need(kw, "kernel-hints", f"@ct.kernel({kw.arg}=ct.ByTarget(...))")
                    out[self.KERNEL_HINTS[kw.arg]] = chosen.value
                elif kw.arg in self.KERNEL_HINTS and isinstance(kw.value, ast.Constant) \
                        and type(kw.value.value) is int:
                    self.need(kw, "kernel-hints", f"@ct.kernel({kw.arg}=...)")
                    out[self.KERNEL_HINTS[kw.arg]] = kw.value.value
                elif kw.arg == "opt_level":
                    self.opt_level(kw, by_target)
                else:
                    raise self.refuse(kw, "kernel-hints-other", f"@ct.kernel({self.text(kw)})")
        return out

    def opt_level(self, kw: ast.keyword, by_target: Callable[[ast.AST], bool]) -> None:
        """``@ct.kernel(opt_level=N)``: tileiras' optimization level (cuTile Python passes `-ON` to tileiras; the
        Tile IR is the same at every level). cutile's entry hints take no level, its per-launch CompileOptions do
        (`opt_level`): the port's entries are compiled, and launched, with it. ``ct.ByTarget``: sm_90's value, else
        the default's (none: the default 3)."""
        value = kw.value
        if by_target(value):
            values = {k.arg: k.value for k in value.keywords}
            value = values.get("sm_90", values.get("default"))
            if value is None:
                return
        ok, level = self.const_value(value)
        if not ok or type(level) is not int or not 0 <= level <= 3:
            raise self.refuse(kw, "kernel-hints-other", f"@ct.kernel({self.text(kw)}): an optimization level 0 to 3 "
                                                        "(a literal or module constant) is ported")
        self.need(kw, "kernel-opt-level", f"@ct.kernel({self.text(kw)})")
        if level != DEFAULT_OPT_LEVEL:
            self.compile_options["opt_level"] = level

    def refuse(self, node: ast.AST, construct: str, detail: str) -> Unsupported:
        return Unsupported(self.origin.get(id(node), (self.file,))[0], node, construct, detail)

    def signed_bits_literal(self, node: ast.AST, value: int, dtype: str) -> str:
        """An unsigned constant with its top bit set, as the signed literal of its bits (to be bitcast): cutile 0.3.1
        parses every integer literal as an i32 (it panics on 2654435761u32) and writes 240u8 as `constant <i8: 0>`;
        Tile IR has no unsigned types, so the constant cuTile Python emits is that signed value (the bitcast is an
        identity in the IR, irdiff identity-shape-ops). The lowest one of 32 bits has no literal there (cutile
        parses `-2147483648i32` as the negation of 2147483648, beyond i32): I32_MIN, a difference of two."""
        width = _UNSIGNED_BITS[dtype]
        if value - 2 ** width == -2 ** 31:
            return I32_MIN
        return f"{value - 2 ** width}i{width}"

    def loc(self, node: ast.AST) -> tuple:
        """The source position the reference IR gives ``node``'s op: (line, col) in the kernel's file, (file, line,
        col) in the file of a helper imported from elsewhere."""
        where = (node.lineno, node.col_offset)
        return (self.origin[id(node)][0], *where) if id(node) in self.origin else where

    def need(self, node: ast.AST, construct: str, detail: str) -> None:
        if not supported(construct):
            raise self.refuse(node, construct, detail)

    def made(self, arr: str) -> bool:
        """Is ``arr`` a `Tensor` the kernel makes (a slice, a list's item) rather than a parameter?"""
        return arr in self.slices or arr in self.list_items

    def tensor_arg(self, arr: str) -> str:
        """``arr`` as the `&Tensor` argument of a cutile function: a parameter is one already, a slice or a list's
        item (a `Tensor` the kernel made) is borrowed."""
        return f"&{arr}" if self.made(arr) else arr

    def slice_view_mut(self, node: ast.AST, arr: str, view: str, shape: tuple[str, ...], what: str) -> None:
        """The unpadded partition view of the slice ``arr`` a read (``what``) goes through: cutile's
        `partition_full_mut`, the one unpadded partition of a tensor the kernel made that its compiler types (see
        SLICE_VIEW_LIMIT); the same Tile IR view cuTile Python makes, read only."""
        dims = ", ".join(shape)
        self.body.append(f"// SAFETY: an unpadded view of the slice {arr} for {what}, only read through (cutile 0.3.1 "
                         "types no read-only one of a tensor the kernel made).")
        self.body.append(f"let {view}: PartitionMut<{RUST_DTYPES[self.params[arr].dtype]}, {{ [{dims}] }}> = "
                         f"unsafe {{ {arr}.partition_full_mut(shape![{dims}]) }};")
        self.unsafe_site(node, f"partition_full_mut of the slice {arr} for {what}",
                         "cutile 0.3.1's compiler types no read-only unpadded partition of a tensor "
                         "the kernel made (`make_partition_view(&view, ..)` does not infer)",
                         "none beyond the slice's: the view is only read")

    def ct(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.aliases:
            return node.attr
        return None

    def static_axes(self, arr: str) -> tuple[int, ...]:
        """The axes of the kernel's array parameter ``arr`` its signature holds static (cuTile Python's calling
        convention v2: an extent-1 axis at `ct.launch`, or `ct.ArrayAnnotation(static_shape_dims=..)`); none for a
        slice or list item, which the kernel makes."""
        p = self.params.get(arr)
        if not isinstance(p, sigmod.ArraySig):
            return ()
        return tuple(k for k, d in enumerate(p.shape) if d is not None)

    def extent(self, arr: str, k: int) -> str:
        """The Rust of the array parameter ``arr``'s extent along axis ``k``: a static extent is its literal (cuTile
        Python's tensor view holds it as a constant), a dynamic one `arr.shape()[j]` with ``j`` counted among the
        dynamic axes only (cutile 0.3.1's `Shape` of a tensor with static extents holds the dynamic ones alone)."""
        static = self.static_axes(arr)
        if not static:
            return f"{arr}.shape()[{k}]"
        p = self.params[arr]
        if k in static:
            return f"{p.shape[k]}i32"
        return f"{arr}.shape()[{sum(1 for d in p.shape[:k] if d is None)}]"

    def walk(self):
        """Every node of the kernel and of the helpers it may inline."""
        for f in (self.fn, *self.helpers.values()):
            yield from walk_nodes(f)

    def unsafe_site(self, node: ast.AST, what: str, why: str, precondition: str) -> None:
        """Records an `unsafe` block the port writes for `node`, for the verdict: what it does, why cutile needs
        `unsafe` there, and what must hold for it to be sound."""
        self.unsafe_sites.append({"line": node.lineno, "col": node.col_offset + 1, "what": what, "why": why,
                                  "precondition": precondition})

    def text(self, node: ast.AST) -> str:
        if rewritten(node):   # resolved names, desugared forms: the source text no longer says what it means
            return ast.unparse(node)
        return _source_segment(self.origin.get(id(node), (None, self.src))[1], node) or ast.unparse(node)

    # ------------------------------------------------------------------ classification

    def live_walk(self, *roots: ast.AST):
        """Every node of the kernel (or of ``roots``) that a specialization compiles: the arm an `if` on constants
        does not take is skipped (cuTile Python folds it away before anything reads it)."""
        from collections import deque

        stack = deque(roots or [self.fn])   # breadth first, in source order (as ast.walk)
        while stack:
            node = stack.popleft()
            yield node
            if isinstance(node, ast.If) and (c := self.const_value(node.test))[0]:
                stack.extend([node.test, *(node.body if c[1] else node.orelse)])
            elif isinstance(node, ast.IfExp) and (arm := self._folded_ifexp(node)) is not node:
                stack.extend([node.test, arm])   # (a conditional expression on constants the translator folds)
            else:
                stack.extend(ast.iter_child_nodes(node))

    def classify_arrays(self) -> None:
        wide = {n for n, p in self.params.items() if isinstance(p, sigmod.ArraySig) and p.index_i64}
        for node in walk_nodes(self.fn) if wide else ():
            if isinstance(node, ast.Name) and node.id in wide:
                raise self.refuse(node, "array-index-i64", f"array {node.id} indexed with int64 "
                                  "(`ct.IndexedWithInt64`, signature `@i64`): cuTile Python gives its views and shape "
                                  "i64 index types; cutile 0.3.1's tensors index with i32")
        for name, p in self.sig.params:   # (a static extent: calling convention v2, see static_axes)
            if isinstance(p, sigmod.ListSig) and any(d is not None for d in p.element.shape):
                node = next((a for a in self.fn.args.args if a.arg == name), self.fn)
                raise self.refuse(node, "array-static-shape", f"list {name} whose items have the static shape "
                                  f"[{', '.join('?' if d is None else str(d) for d in p.element.shape)}]: a list "
                                  "item's extents are read from its descriptor, which states none static")
        for s in self.slices.values():
            if self.static_axes(s.root):
                raise self.refuse(self.fn, "array-static-shape", f"the slice {s.name} of {s.root}, an array with a "
                                  "static extent (its view's extents would be cutile's dynamic ones)")
        stores: dict[str, list[ast.Call]] = {}
        scatters: dict[str, list[ast.Call]] = {}
        loads: set[str] = set()
        loads_tiled: dict[str, list[ast.Call]] = {}
        live = {id(n) for n in self.live_walk()}
        unrolled = self._unrolled_times()
        # a scatter (gather) inside unrolled ct.static_iter loops counts once per copy: each orders the next
        self.scatters_left = _scatter_counts(self.fn, unrolled)
        for node in walk_nodes(self.fn):   # every arm: a constant `if` may stay an `if` in the Rust (see if_chain)
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name):
                op = self.ct(node.func)
                if op == "store":   # (one store per item of the ct.static_iter loops around it)
                    stores.setdefault(node.args[0].id, []).extend([node] * unrolled.get(id(node), 1))
                elif op in ("load", "gather"):
                    if id(node) in live:   # (a read in an arm never compiled does not make an update in place)
                        loads.add(node.args[0].id)
                    if op == "load":
                        loads_tiled.setdefault(node.args[0].id, []).append(node)
                elif op == "scatter" or op in ATOMIC_MODES:
                    scatters.setdefault(node.args[0].id, []).append(node)
        arms, dynamic = self._constant_arms()
        for name, calls in scatters.items():
            # gathers and scatters of one array are ordered by its token (see gather, scatter); a tile load or
            # store of it is ordered by cutile's view tokens, which do not see the pointer ops: only apart, in
            # different arms of a constant `if`, do the two kinds mix
            tiled = loads_tiled.get(name, []) + stores.get(name, [])
            # (or one scatter and one tile access, the array's only accesses, in the two arms of an `if` outside
            # loops, a runtime one too: `if full: ct.store(y, ..) else: ct.scatter(y, .., mask=)`; each starts from
            # the array's first token and nothing after the `if` waits on either)
            alone = len(calls) == len(tiled) == 1 and len(self._calls_on(name)) == 2
            runtime = self._runtime_arms() if alone else {}
            # (an acquire-ordered kernel orders every operation on an array by that array's own tokens, the pointer
            # ops and the views alike: acquire_ordered)
            if any(not _exclusive(arms[id(a)], arms[id(b)]) and
                   not (alone and _exclusive(runtime.get(id(a), ()), runtime.get(id(b), ())))
                   for a in calls for b in tiled) and not self._acquire_order_applies():
                raise self.refuse(calls[0], "store-other", f"array {name!r} is scattered into and also loaded or "
                                                           "stored as tiles")
        for name, calls in stores.items():
            if name in self.list_items:   # (stored on its list's token: lists.store_item)
                continue
            exclusive = len(calls) > 1 and all(_exclusive(arms[id(a)], arms[id(b)])
                                               for i, a in enumerate(calls) for b in calls[i + 1:])
            p = self.params.get(name)
            if name in loads and name not in self.slices and name not in scatters and \
                    isinstance(p, sigmod.ArraySig):
                # updated in place through views: every store unchecked, ordered with the loads by the array's
                # tokens wherever they are (see ordered_in_place)
                self.loaded_arrays.add(name)
                self.need(calls[0], "store-inplace", f"array {name!r} both loaded and stored")
                self.outputs[name] = Output(name, p, parts=len(calls), general=True)
                continue
            if len(calls) != 1 and not exclusive and not supported("store-parts"):
                raise self.refuse(calls[1], "store-other", f"array {name!r} is stored {len(calls)} times")
            if len(calls) != 1 and not exclusive and self._runtime_alternatives(calls):
                # in different arms of one runtime `if` (one of them runs): each unchecked, through the full
                # tensor's partition, as cuTile Python stores them (its `if` yields the array's token)
                p = self.params.get(name)
                if not isinstance(p, sigmod.ArraySig):
                    raise self.refuse(calls[0], "store-other", f"{name!r} is not an array parameter")
                self.need(calls[0], "store-unchecked", f"stores of {name} in the arms of a runtime if")
                self.outputs[name] = Output(name, p, parts=len(calls), general=True)
                if name in loads:
                    self.loaded_arrays.add(name)
                continue
            if (len(calls) != 1 and not exclusive and (inner := [c for c in calls if id(c) in dynamic]
                                                       or [c for c in calls if _computed_index(c)])) or \
                    (len(calls) == 1 and (inner := [c for c in calls if self._repeated_store(c)])):
                p = self.params.get(name)
                if not isinstance(p, sigmod.ArraySig) or name in self.slices:
                    raise self.refuse(inner[0], "store-other", f"array {name!r} is stored {len(calls)} times, this "
                                                               "one inside a runtime if or a loop: parts must be "
                                                               "stored in straight-line code (or the arms of "
                                                               "constant ifs)")
                # stored several times, some inside a runtime `if` or a loop (a persistent loop's epilogue storing
                # halves of its tile), or at computed tile indices (`(t * 2,)` and `(t * 2 + 1,)`: a Triton kernel's
                # `out + 2 * t` and `out + 2 * t + 1`), no block owning its part: every store unchecked, ordered by
                # the array's token as cuTile Python orders them (see ordered_in_place)
                self.need(inner[0], "store-ordered", f"array {name!r} stored {len(calls)} times, this one inside a "
                                                     "runtime if or a loop")
                self.ordered_stores.add(name)
                self.outputs[name] = Output(name, p, parts=len(calls), general=True)
                continue
            p = self.params.get(name)
            if not isinstance(p, sigmod.ArraySig):
                raise self.refuse(calls[0], "store-other", f"{name!r} is not an array parameter")
            if name in self.slices:   # a view made in the kernel: no block owns its tiles, every store unchecked
                # (general when also loaded: updated in place; else each store is unchecked, see store)
                self.need(calls[0], "store-unchecked", f"store into the slice {name}")
                self.outputs[name] = Output(name, p, parts=len(calls), general=name in loads)
                if name in loads:
                    self.loaded_arrays.add(name)
                continue
            if name in loads:   # updated in place: `&Tensor`, its stores unchecked (store-inplace)
                self.loaded_arrays.add(name)
                self.need(calls[0], "store-inplace", f"array {name!r} both loaded and stored")
                self.outputs[name] = Output(name, p, parts=len(calls), general=True)
                continue
            self.outputs[name] = Output(name, p, parts=1, alternatives=len(calls)) if exclusive else \
                Output(name, p, parts=len(calls))

    def _repeated_store(self, call: ast.Call) -> bool:
        """A store that may run several times at one tile: inside a `while`, or a `for` over a range whose index
        it does not read (`if k == k_tiles - 1: ct.store(c, (i, j), acc)` in a K loop). cuTile Python orders its
        runs by the array's token, which the loop carries (a store at the loop index is its parallel store)."""
        loops = self._enclosing_loops().get(id(call), [])
        index = {n.id for a in call.args[1:2] for n in walk_nodes(a) if isinstance(n, ast.Name)} | \
            {n.id for k in call.keywords if k.arg == "index" for n in walk_nodes(k.value) if isinstance(n, ast.Name)}
        return any(isinstance(loop, ast.While) or
                   (isinstance(loop.target, ast.Name) and loop.target.id not in index and
                    self.static_values(loop.iter) is None) for loop in loops)

    def _enclosing_loops(self) -> dict[int, list[ast.stmt]]:
        """Each node's enclosing `for`/`while` statements (outermost first)."""
        if getattr(self, "_loops_of", None) is None:
            found: dict[int, list[ast.stmt]] = {}

            def visit(node: ast.AST, loops: list[ast.stmt]) -> None:
                for child in ast.iter_child_nodes(node):
                    found[id(child)] = loops
                    inner = loops + [child] if isinstance(child, (ast.For, ast.While)) else loops
                    visit(child, inner)
            visit(self.fn, [])
            self._loops_of = found
        return self._loops_of

    def ordered_in_place(self) -> None:
        """Arrays loaded and stored through views (updated in place) get the two tokens cuTile Python's token_order
        pass keeps per array: the last store's (each load's view starts from it) and the join of every access since
        (each store's view starts from it; the store's token then becomes both). cutile's `load_view_tko` sets its
        view's token to the load's result token, which `get_partition_token` reads back for the join. Named `zz_`
        so that a loop or `if` carrying them yields them after the kernel's own variables (cutile orders carried
        values by name), the last-op token before the last-store one, as cuTile Python carries them. Unused
        assignments are dropped afterwards (_drop_dead_tokens). Slices keep their own path (no typed view)."""
        ops: dict[str, set[str]] = {}
        for n in self.live_walk():
            if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name):
                ops.setdefault(n.args[0].id, set()).add(self.ct(n.func) or "")
        if self.acquire_ordered():
            return
        for arr in sorted(self.loaded_arrays | self.ordered_stores):
            out = self.outputs.get(arr)
            if arr in self.slices or out is None or not out.general or \
                    ops.get(arr, set()) & ({"scatter"} | set(ATOMIC_MODES)):
                continue   # (scattered arrays are refused: see classify_arrays)
            op, st = self.fresh(f"zz_{arr}_token"), self.fresh(f"zz_{arr}_wtoken")
            self.inplace_tokens[arr] = (op, st)
            if arr in self.loaded_arrays:
                self.body.append(f"// {arr} is read and written: its loads wait on its last store ({st}), its stores "
                                 f"on every access since ({op}), as cuTile Python orders them")
            else:   # (write-only: the last-store token is never read, and dropped as cuTile Python drops it)
                self.body.append(f"// {arr} is stored {out.parts} times, in loops or ifs: each store waits on the one "
                                 f"before ({op}), as cuTile Python orders them")
            self.body.append(f"let mut {op}: Token = get_tensor_token({self.tensor_arg(arr)});")
            self.body.append(f"let mut {st}: Token = get_tensor_token({self.tensor_arg(arr)});")

    MEMORY_OPS = ("load", "store", "gather", "scatter")

    def _memory_calls(self, *roots: ast.AST) -> list[ast.Call]:
        """The memory operations (loads, stores, gathers, scatters, atomics) on array parameters under ``roots`` that
        a specialization compiles, in program order."""
        return sorted((n for n in self.live_walk(*roots) if isinstance(n, ast.Call) and n.args and
                       isinstance(n.args[0], ast.Name) and isinstance(self.params.get(n.args[0].id), sigmod.ArraySig)
                       and (self.ct(n.func) in self.MEMORY_OPS or self.ct(n.func) in ATOMIC_MODES)),
                      key=lambda n: (n.lineno, n.col_offset))

    def acquire_ordered(self) -> bool:
        """A kernel whose acquiring atomic sits in a `while` condition, a loop or a runtime `if`, or has memory
        operations after it (a spin lock: `while ct.atomic_cas(lock, ..) == 1: pass`, then loads and stores of other
        arrays, then a releasing `ct.atomic_xchg(lock, ..)`): its memory operations are ordered as cuTile Python's
        token_order pass orders them. Each array keeps two tokens, its last operation's and its last write's (`let
        mut zz_<k><array>_token` / `_wtoken`, k its rank by first access: cutile carries them in name order, cuTile
        Python in the order a construct first accesses them), and the acquire token (`zz_zz_acquire`, carried last):
        a load or gather waits on its array's last write, a store or atomic on its last operation, every operation
        after an acquiring one also on the acquire token, a releasing atomic on every array's last operation; loops
        and `if`s carry the tokens their operations re-assign, as cuTile Python's do. Other kernels keep the
        translator's narrower orderings (ordered_in_place and the rest)."""
        if not self._acquire_order_applies():
            return False
        self.acq_mode = True
        calls = self._memory_calls()
        order = list(dict.fromkeys(n.args[0].id for n in calls))
        self.body.append("// Memory operations ordered as cuTile Python's token_order pass orders them (an acquiring "
                         "atomic: every later operation waits on it; a releasing one on every array's last operation)")
        for k, arr in enumerate(order):
            op, st = f"zz_{k:02d}{arr}_token", f"zz_{k:02d}{arr}_wtoken"
            self.inplace_tokens[arr] = (op, st)
            self.body.append(f"let mut {op}: Token = get_tensor_token({self.tensor_arg(arr)});")
            self.body.append(f"let mut {st}: Token = get_tensor_token({self.tensor_arg(arr)});")
            self.tok_tag[op] = self.tok_tag[st] = "root"
        self.acq_token = "zz_zz_acquire"
        self.body.append(f"let mut {self.acq_token}: Token = get_tensor_token({self.tensor_arg(order[0])});")
        self.tok_tag[self.acq_token] = "root"
        for arr in order:   # every store goes through its array's tokens (the unchecked form)
            if arr in self.outputs:
                self.outputs[arr].general = True
        return True

    def _acquire_order_applies(self) -> bool:
        """Whether acquire_ordered orders this kernel (without starting to: no tokens declared)."""
        calls = self._memory_calls()
        atomics = [n for n in calls if self.ct(n.func) in ATOMIC_MODES]
        acquiring = [n for n in atomics if self._acquires(n)]
        if not acquiring:
            return self._scatter_beside_tiles(calls) and not self.slices
        first = acquiring[0]
        nested = self._nested_calls()
        # (a call runs after the calls in its arguments: `ct.store(y, i, ct.atomic_xchg(..))` stores after the
        # acquire though it is written before it)
        later = [n for n in calls if self.ct(n.func) in self.MEMORY_OPS and ((n.lineno, n.col_offset) >
                 (first.lineno, first.col_offset) or any(c is first for c in walk_nodes(n)))]
        # (or a releasing atomic after a store inside a loop or branch: an RMS norm backward's dW added after the
        # rows' dx stores; the narrower orderings carry only top-level stores into it)
        nested_write = any(self._releases(a) and any((self.ct(n.func) == "store" and id(n) in nested or
                                                      self.ct(n.func) == "scatter") and
                                                     n.lineno < a.lineno for n in calls) for a in atomics)
        # (or an atomic on an array the kernel also loads or stores as tiles: `t = ct.load(x, ..)` then
        # `ct.atomic_add(x, idx, t)` — the views' tokens and the atomic's are ordered only by the array's own
        # tokens, as cuTile Python orders them, which the narrower orderings refuse to mix)
        mixed = self._mixed_with_tiles(calls, ATOMIC_MODES)
        if not later and not nested_write and not mixed and \
                not any(id(a) in nested for a in atomics if self._acquires(a) or self._releases(a)):
            return False
        if self.slices:
            return False   # (not carried in this form yet: refused where the narrower orderings refuse it)
        return True

    def _scatter_beside_tiles(self, calls: list[ast.Call]) -> bool:
        """A ct.scatter into an array the kernel also loads or stores as tiles, not apart in exclusive arms (a
        KV cache written by a scatter, then read as tiles): the two kinds of token are ordered only by the array's
        own tokens, which acquire_ordered keeps (no atomic needed)."""
        mixed = self._mixed_with_tiles(calls, ("scatter",))
        # (only where every access of the array is among the kernel's straight-line statements: through the arms
        # of a runtime `if` the ordering is not proven yet, and such a kernel stays refused)
        nested = self._nested_calls()
        return bool(mixed) and not any(id(n) in nested for n in calls if n.args and isinstance(n.args[0], ast.Name)
                                       and n.args[0].id in mixed)

    def _nested_calls(self) -> set[int]:
        """The ids of the calls inside a loop or a runtime `if` (an `if` on a constant is folded: not nested)."""
        return {id(c) for st in walk_nodes(self.fn) if isinstance(st, (ast.For, ast.While, ast.If))
                and not (isinstance(st, ast.If) and self.const_value(st.test)[0])
                for c in walk_nodes(st) if isinstance(c, ast.Call)}

    def _mixed_with_tiles(self, calls: list[ast.Call], ops) -> set[str]:
        """The arrays a call of ``ops`` (ct.* names) updates that the kernel also loads or stores as tiles, the two
        not apart in exclusive constant arms, nor the array's only two accesses in the arms of a runtime `if`."""
        arms = self._constant_arms()[0]
        tiled = [n for n in calls if self.ct(n.func) in ("load", "store") and n.args and
                 isinstance(n.args[0], ast.Name)]
        return {a.args[0].id for a in calls for b in tiled
                if self.ct(a.func) in ops and a.args and isinstance(a.args[0], ast.Name) and
                a.args[0].id == b.args[0].id and not _exclusive(arms.get(id(a), ()), arms.get(id(b), ())) and
                not self._alone_in_runtime_arms(a.args[0].id)}

    def _calls_on(self, name: str) -> list[ast.Call]:
        """The kernel's calls that take the array ``name`` first, in walk order."""
        return [n for n in walk_nodes(self.fn) if isinstance(n, ast.Call) and n.args and
                isinstance(n.args[0], ast.Name) and n.args[0].id == name]

    def _alone_in_runtime_arms(self, name: str) -> bool:
        """``name``'s only two accesses, a pointer op and a tile access, in the two arms of a runtime `if` (the
        form the mixing check ports without ordering them: each starts from the array's first token)."""
        ops = self._calls_on(name)
        if len(ops) != 2:
            return False
        runtime = self._runtime_arms()
        return _exclusive(runtime.get(id(ops[0]), ()), runtime.get(id(ops[1]), ()))

    def _atomic_order(self, call: ast.Call) -> str:
        """An atomic's `memory_order=` by name (`RELAXED`, ..), ACQ_REL where not given (ct.atomic_*'s default)."""
        o = next((self.text(k.value) for k in call.keywords if k.arg == "memory_order"), "ACQ_REL")
        return o.rsplit(".", 1)[-1]

    def _releases(self, call: ast.Call) -> bool:
        return self._atomic_order(call) in ("RELEASE", "ACQ_REL")

    def _key(self, arr: str) -> None:
        if arr not in self.key_order:
            self.key_order.append(arr)

    def ordered_input(self, arr: str, write: bool, order: str | None = None) -> str:
        """The token a memory operation on ``arr`` starts from, as cuTile Python's _get_input_token joins it: its
        array's last write (a read) or last operation (a write), then in the token map's order the acquire token
        (once an acquiring operation came) and, with release semantics, every array's last operation; each value
        once."""
        op, st = self.inplace_tokens[arr]
        self._key(arr)
        tokens = [op if write else st]
        release = order in ("RELEASE", "ACQ_REL")
        for key in self.key_order:
            if key == "":
                tokens.append(self.acq_token)
            elif release:
                tokens.append(self.inplace_tokens[key][0])
        seen, out = set(), []
        for t in tokens:
            tag = self.tok_tag.get(t, t)
            if tag not in seen:
                seen.add(tag)
                out.append(t)
        if len(out) == 1:
            return out[0]
        joined = self.fresh(f"{arr}_after")
        self.body.append(f"let {joined}: Token = join_tokens(&[{', '.join(out)}]);")
        return joined

    def _effects(self, *roots: ast.AST) -> tuple[list[str], set[str], bool]:
        """(arrays in the order ``roots`` first access them, those written, whether an op acquires): a construct's
        memory effects, as cuTile Python's _get_block_memory_effects finds them."""
        calls = self._memory_calls(*roots)
        arrays = list(dict.fromkeys(n.args[0].id for n in calls))
        written = {n.args[0].id for n in calls if self.ct(n.func) in ("store", "scatter") or
                   self.ct(n.func) in ATOMIC_MODES}
        acquires = any(self.ct(n.func) in ATOMIC_MODES and self._acquires(n) for n in calls)
        return arrays, written, acquires

    def acq_construct(self, *roots: ast.AST) -> list[str]:
        """Entering (or leaving) a loop or an `if` in an acquire-ordered kernel: the keys its effects add to the
        token map (new arrays, then the acquire key), and the token variables it carries, which hold values of their
        own inside and after it (cuTile Python's body parameters and results)."""
        arrays, written, acquires = self._effects(*roots)
        for arr in arrays:
            self._key(arr)
        if acquires:
            self.acq_live = True
            self._key("")
        carried = []
        for arr in arrays:
            op, st = self.inplace_tokens[arr]
            carried += [op, st] if arr in written else [op]
        carried += [self.acq_token] if acquires else []
        for t in carried:
            self.tok_tag[t] = self.fresh("tag")
        return carried

    def acq_carry_order(self, carried: list[str], indent: str) -> dict[str, str] | None:
        """Entering a loop of an acquire-ordered kernel: cuTile Python's loop carries the tokens in the order the loop
        first accesses their arrays (then the acquire token), cutile in the order of their Rust names. Where the two
        differ (a work queue: `tile = atomic_add(counter)` before a `while` whose body reads x, writes y, then takes
        the next tile from counter), the carried tokens are copied into `let mut` names of this loop that sort in
        cuTile Python's order, used in the loop and copied back after it (acq_carry_back). Old name → new name."""
        if carried == sorted(carried):
            return None
        k = self.fresh("zz_loop")
        renamed = {t: f"{k}_{i:02d}{t[3:]}" for i, t in enumerate(carried)}
        for old, new in renamed.items():
            self.body.append(f"{indent}let mut {new}: Token = {old};")
            self.tok_tag[new] = self.tok_tag.get(old, old)
        self._acq_rebind(renamed)
        return renamed

    def acq_carry_back(self, renamed: dict[str, str] | None, indent: str) -> None:
        if not renamed:
            return
        for old, new in renamed.items():
            self.body.append(f"{indent}{old} = {new};")
            self.tok_tag[old] = self.tok_tag.get(new, new)
        self._acq_rebind({new: old for old, new in renamed.items()})

    def _acq_rebind(self, names: dict[str, str]) -> None:
        self.inplace_tokens = {a: (names.get(op, op), names.get(st, st)) for a, (op, st) in self.inplace_tokens.items()}
        self.acq_token = names.get(self.acq_token, self.acq_token)

    def _unrolled_times(self) -> dict[int, int]:
        """id(node) → how many copies of it the unrolled `ct.static_iter` loops around it make (absent: 1)."""
        times: dict[int, int] = {}

        def walk(stmts: list[ast.stmt], k: int) -> None:
            for st in stmts:
                inner_k = k
                if isinstance(st, ast.For) and (values := self.static_values(st.iter)) is not None:
                    inner_k = k * len(values)
                if k > 1:
                    times.update((id(n), k) for n in walk_nodes(st))
                for attr in ("body", "orelse"):
                    inner = getattr(st, attr, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                        walk(inner, inner_k)
        with self._knowing({**self.const_locals, **self._constant_names()}):   # (`n = D // CHUNK`, `range(n)`)
            walk(self.fn.body, 1)
        return times

    @contextlib.contextmanager
    def _knowing(self, constants: dict[str, object]) -> Iterator[None]:
        """``const_locals`` is ``constants`` while the block runs (what a name holds before emission binds it),
        restored after."""
        saved = self.const_locals
        self.const_locals = constants
        try:
            yield
        finally:
            self.const_locals = saved

    def _constant_names(self) -> dict[str, object]:
        """The kernel's names assigned once, from a constant (`n = D // CHUNK`, a name read before it is bound is
        no Python): their values, known before emission binds them (what the unrolled loops' counts read)."""
        found: dict[str, object] = {}
        base = self.const_locals
        with self._knowing(base):
            while True:
                self.const_locals = {**base, **found}
                new = {st.targets[0].id: c[1] for st in walk_nodes(self.fn) if isinstance(st, ast.Assign) and
                       len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and
                       st.targets[0].id not in found and self.assign_counts.get(st.targets[0].id) == 1 and
                       (c := self.const_value(st.value))[0] and isinstance(c[1], (int, float))}
                if not new:
                    return found
                found.update(new)

    def _runtime_alternatives(self, calls: list[ast.Call]) -> bool:
        """The calls sit in pairwise different arms of runtime `if`s (no two can run in one pass through them):
        each pair has an `if` on runtime values with one in its body and the other in its else arm."""
        def arms_of(call: ast.Call) -> dict[int, int]:
            found: dict[int, int] = {}
            for node in walk_nodes(self.fn):
                if isinstance(node, ast.If) and not self._constant_test(node.test):
                    for k, arm in enumerate((node.body, node.orelse)):
                        if any(n is call for st in arm for n in walk_nodes(st)):
                            found[id(node)] = k
            return found
        paths = [arms_of(c) for c in calls]
        return all(any(k in b and b[k] != a[k] for k in a) for i, a in enumerate(paths) for b in paths[i + 1:])

    def _runtime_arms(self) -> dict[int, tuple[tuple[int, int], ...]]:
        """id(node) → the arms of the `if`s it sits in outside any loop, as (id(if), arm) pairs, runtime ones
        included: two nodes in different arms of one such `if` never both run in a block."""
        arms: dict[int, tuple[tuple[int, int], ...]] = {}

        def walk(stmts: list[ast.stmt], path: tuple[tuple[int, int], ...]) -> None:
            for st in stmts:
                if isinstance(st, ast.If):
                    walk(st.body, path + ((id(st), 0),))
                    walk(st.orelse, path + ((id(st), 1),))
                elif not isinstance(st, (ast.For, ast.While)):
                    for node in walk_nodes(st):
                        arms[id(node)] = path
        walk(self.fn.body, ())
        return arms

    def _constant_arms(self) -> tuple[dict[int, tuple[tuple[int, int], ...]], set[int]]:
        """(id(node) → the arms of constant `if`s it sits in, as (id(if), arm) pairs (arm 0: the body, 1: the else;
        an `elif` is an `if` in the else arm), the ids of the nodes inside a runtime `if` or a loop). Two nodes in
        different arms of one constant `if` never both run."""
        arms: dict[int, tuple[tuple[int, int], ...]] = {}
        dynamic: set[int] = set()

        def walk(stmts: list[ast.stmt], path: tuple[tuple[int, int], ...], inside: bool) -> None:
            for st in stmts:
                if isinstance(st, ast.If) and self._constant_test(st.test):
                    walk(st.body, path + ((id(st), 0),), inside)
                    walk(st.orelse, path + ((id(st), 1),), inside)
                    continue
                for node in walk_nodes(st):
                    arms[id(node)] = path   # nested statements: overwritten below with their own arms
                nested = isinstance(st, (ast.If, ast.While)) or (isinstance(st, ast.For) and
                                                                  self.static_values(st.iter) is None)
                # (a ct.static_iter loop is unrolled: its body is straight-line code, once per item)
                for attr in ("body", "orelse"):
                    inner = getattr(st, attr, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                        if inside or nested:
                            dynamic.update(id(n) for s in inner for n in walk_nodes(s))
                        walk(inner, path, inside or nested)
        walk(self.fn.body, (), False)
        return arms, dynamic

    # ------------------------------------------------------------------ statements

    def comment_before(self, line: int, indent: str) -> None:
        for ln in sorted(self.comments):
            if ln < line and ln not in self.emitted_comments and ln > self.fn.lineno:
                self.body.append(f"{indent}// {self.comments[ln]}")
                self.emitted_comments.add(ln)

    @functools.cached_property
    def folded_arms(self) -> tuple[set[int], set[int]]:
        """(ids of the nodes in the arms of constant ifs that are folded away, ids of those ifs), decided from the
        source before translation (once: find_mutated and live_names both read it)."""
        untaken: set[int] = set()
        folded: set[int] = set()
        for node in self.walk():
            if isinstance(node, ast.If) and self._folds(node, static=True):
                other = node.orelse if self.const_value(node.test)[1] else node.body
                untaken |= {id(n) for sub in other for n in walk_nodes(sub)}
                folded.add(id(node))
        return untaken, folded

    @property
    def loop_assigned(self) -> set[str]:
        """Names assigned inside a `for` or `while` body of the kernel."""
        if not hasattr(self, "_loop_assigned"):
            self._loop_assigned = {t.id for loop in walk_nodes(self.fn) if isinstance(loop, (ast.For, ast.While))
                                   for st in loop.body for n in walk_nodes(st) if isinstance(n, ast.Assign)
                                   for t in n.targets for t in (t.elts if isinstance(t, ast.Tuple) else [t])
                                   if isinstance(t, ast.Name)}
        return self._loop_assigned

    def find_mutated(self) -> None:
        """Names assigned more than once, at least once inside an `if`/`for` body, are declared `let mut` where
        they are first defined (a re-assignment at the top level alone is a shadowing `let`)."""
        from collections import Counter

        def names(sub: ast.Assign) -> list[str]:   # a, or each of a, b in `a, b = helper(..)`
            return [n.id for t in sub.targets for n in (t.elts if isinstance(t, ast.Tuple) else [t])
                    if isinstance(n, ast.Name)]

        untaken, straight = self.folded_arms   # assignments in the arms folded away; the folded ifs
        counts = Counter(n for sub in self.walk() if isinstance(sub, ast.Assign) and id(sub) not in untaken
                         for n in names(sub))
        counts.update(a.arg for h in self.helpers.values() for a in h.args.args)   # a helper's parameter is bound
        for node in self.walk():
            if isinstance(node, (ast.If, ast.For, ast.While)) and id(node) not in straight:
                for inner in node.body + node.orelse:
                    for sub in walk_nodes(inner):
                        if isinstance(sub, ast.Assign):
                            self.mutated |= {n for n in names(sub) if counts[n] > 1}

    def bind(self, st: ast.stmt, name: str, code: str, ty: Tile | Scalar, indent: str, nested: bool) -> None:
        """Give ``name`` the value ``code``: a new `let`, an assignment to a `let mut` of the same type, or nothing
        when it already holds it."""
        previous = self.env.get(name)
        self.int_literal_lets.pop(name, None)
        if previous is not None and name in self.mutated and isinstance(previous[1], Scalar) \
                and isinstance(ty, Tile) and ty.shape == () and ty.dtype == previous[1].dtype:
            # a scalar re-assigned a 0-d tile of its dtype (`d = 0.0` then `d = d * a + ct.sum(x)` in a loop): in
            # Tile IR both are the same 0-d value; the Rust variable stays a scalar
            rust = RUST_DTYPES[ty.dtype]
            if rust == "bool" and not code.isidentifier():
                # (`done = ct.max(acc) > 100.0` in a loop: cutile 0.3.1's compiler panics on
                # `tile_to_scalar::<bool, bool>(gt_tile(..))` inline, "get_ident_generic_args"; bound typed first)
                tile = self.fresh(f"{name}_tile")
                self.body.append(f"{indent}let {tile}: Tile<bool, {{ [] }}> = {code};")
                code = tile
            code, ty = f"tile_to_scalar::<{rust}, {rust}>({code})", previous[1]
        if nested and previous is not None and name in self.mutated and \
                not (self.scope_locals and name in self.scope_locals[-1]) and isinstance(previous[1], Tile) and \
                isinstance(ty, Tile) and previous[1] != ty and previous[1].dtype == ty.dtype and \
                len(previous[1].shape) == len(ty.shape) and all(
                    (v := self._dim_value(a)) is not None and v == self._dim_value(b)
                    for a, b in zip(previous[1].shape, ty.shape)):
            # in a loop or branch, where the variable must keep its type (elsewhere a new `let` shadows it), the
            # same extents spelled by other names (`t = ct.transpose(t) * 0.5 + t` with BM == BN: cuTile Python
            # compiles it only where they are equal): reshaped to the variable's names, an identity reshape in the
            # IR (irdiff identity-shape-ops); cutile types a `let mut` once
            tmp = self.fresh(f"{name}_named")
            self.body.append(f"{indent}let {tmp}: {ty.rust()} = {code};")
            code, ty = f"{tmp}.reshape(shape![{', '.join(previous[1].shape)}])", previous[1]
        if code == name and previous is not None and previous[1] == ty:
            self.body.append(f"{indent}// `{self.text(st)}`: already {_describe(ty)}, nothing to emit")
        elif previous is not None and name in self.mutated and previous[1] == ty:
            op = re.match(r"(select|fma)\(", code)
            if op:   # cutile infers these ops' result type from a typed binding, not from the assigned variable
                tmp = self.fresh(f"{name}_{op.group(1)}")
                self.body.append(f"{indent}let {tmp}: {ty.rust()} = {code};")
                code = tmp
            self.body.append(f"{indent}{name} = {code};")
        elif nested and previous is not None and not (self.scope_locals and name in self.scope_locals[-1]):
            raise BranchTypeChange(self.origin.get(id(st), (self.file,))[0], st, "if-constant",
                                   f"`{name}` changes type inside a branch "
                                                 f"({_describe(previous[1])} → {_describe(ty)})")
        else:   # a new name, or one first bound in this very branch or loop body (Rust shadows it there)
            mut = "mut " if name in self.mutated else ""
            self.body.append(f"{indent}let {mut}{name}: {ty.rust()} = {code};")
            if nested and self.scope_locals and previous is None:
                self.scope_locals[-1].add(name)
            if not mut and isinstance(ty, Scalar) and re.fullmatch(r"-?\d+i(32|64)", code):
                self.int_literal_lets[name] = code
        self.env[name] = (name, ty)

    def _dim_value(self, d: str) -> int | None:
        """The value of a tile extent as the emitter spells it (a number or a const generic's name) in this
        specialization, or None."""
        if d.isdigit():
            return int(d)
        p = self.params.get(d)
        return p.value if isinstance(p, sigmod.ConstSig) and isinstance(p.value, int) else None

    def stmts(self, stmts: list[ast.stmt], indent: str = "", nested: bool = False) -> None:
        for i, st in enumerate(stmts):
            try:
                self._stmt(st, i, stmts, indent, nested)
            except WideLiteral as exc:   # (rust_literal knows no position: refused at the innermost statement)
                raise self.refuse(st, "arith-scalar-broadcast", str(exc)) from exc

    def _stmt(self, st: ast.stmt, i: int, stmts: list[ast.stmt], indent: str, nested: bool) -> None:
        self.comment_before(st.lineno, indent)
        if self.deferred_product(st, stmts[i + 1:], indent):
            return
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            return  # a docstring, a bare `...`: nothing, as in cuTile Python
        if isinstance(st, ast.Pass):
            return
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                and st.targets[0].id in self.slices and self.slices[st.targets[0].id].node is st.value:
            emit_slice(self, st, indent)
            return
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                and st.targets[0].id in self.list_items and self.list_items[st.targets[0].id].node is st:
            emit_item(self, st, indent)
            return
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                and (st.targets[0].id not in self.read_names or id(st) in self.dead_assigns) and \
                self._droppable(st.value):
            # cuTile Python drops a load (or any pure value) nobody reads; so does the port.
            self.body.append(f"{indent}// `{self.text(st).splitlines()[0]}`: never read, dropped as cuTile "
                             "Python drops it")
            return
        if isinstance(st, (ast.Assign, ast.Expr)) and isinstance(st.value, ast.Call) and \
                self.ct(st.value.func) == "load" and not self._droppable(st.value) and \
                (isinstance(st, ast.Expr) or (len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and
                                              st.targets[0].id not in self.read_names)):
            # an ordered load whose value nobody reads: an effect cuTile Python keeps, and so does the port
            code, ty = self.expr(st.value)
            name = st.targets[0].id if isinstance(st, ast.Assign) else "loaded"
            self.body.append(f"{indent}let _{name}: {ty.rust()} = {code}; // never read: the ordered load is "
                             "kept")
            return
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                and self.assign_counts.get(st.targets[0].id) == 1 and \
                (dt := self.static_dtype(st.value)) is not None:
            self.dtype_locals[st.targets[0].id] = dt   # a dtype: used where it is named, nothing to emit
            self.body.append(f"{indent}// `{self.text(st).splitlines()[0]}`: {dt} here")
            return
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                and self.assign_counts.get(st.targets[0].id) == 1 and self.const_value(st.value)[0] \
                and isinstance(self.const_value(st.value)[1], (bool, str)):
            # a constant bool (`check = TILE != N`) or string (`name = ACTS[ACT]`, a mode): folded where it is
            # used, as cuTile Python folds it
            self.const_locals[st.targets[0].id] = self.const_value(st.value)[1]
            self.body.append(f"{indent}// `{self.text(st)}`: {self.const_locals[st.targets[0].id]} here, folded "
                             "where it is used")
            return
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            self.need(st, "assign", "assignment")
            name = st.targets[0].id
            if self.assign_counts.get(name) == 1 and (c := self.const_value(st.value))[0]:
                # (in a branch or loop body too: assigned once, it holds that value wherever it is defined)
                self.const_locals[name] = c[1]   # (also emitted: runtime code may read it)
            rebound = None
            if self.assign_counts.get(name) != 1 and name in getattr(self.assign_counts, "straight", ()):
                # re-bound in one block only (`step = 1; step <<= 2`): constant up to its next binding (set
                # once the value is computed: `scale = scale * 0.5` reads the value from before)
                rebound = (c := self.const_value(st.value))[0] and isinstance(c[1], (int, float)), c[1]
            self.bid_names.pop(name, None)
            self.rev_bid_names.pop(name, None)
            self.tile_counts.pop(name, None)
            self.value_typed.pop(name, None)
            self.binding_value = st.value
            self.helper_result_consts = []
            code, ty = self.expr(st.value, want_name=name)
            if name in self.mutated and name not in getattr(self.assign_counts, "straight", ()) and \
                    isinstance(ty, Tile) and self.value_typed.get(code) == ty:
                # a transposed value cutile typed by its extents' values, copied into a `let mut` (`state_1 = b`
                # of `b = a.transpose()`): typed by the names (see permute)
                code = f"{code}.reshape(shape![{', '.join(ty.shape)}])"
            if rebound is not None and rebound[0]:
                self.const_locals[name] = rebound[1]
            elif rebound is not None:
                self.const_locals.pop(name, None)
            if isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Name) and \
                    st.value.func.id in self.helpers and len(self.helper_result_consts) == 1 and \
                    self.helper_result_consts[0][0] and self.assign_counts.get(name) == 1 and \
                    isinstance(self.helper_result_consts[0][1], (int, float)) and isinstance(ty, Scalar):
                self.const_locals[name] = self.helper_result_consts[0][1]   # a helper's constant result
            if (k := self._reversed_bid(st.value)) is not None:
                self.rev_bid_names[name] = k
            if nested:   # on some paths only: not a block index every block is sure to hold
                self.branch_bound.add(name)
            if isinstance(st.value, ast.Call) and self.ct(st.value.func) == "num_tiles":
                self.tile_counts[name] = self.last_num_tiles
            self.products.pop(name, None)
            value = self._folded_ifexp(st.value)   # (`u = t * k if mode == "lin" else ..`: the arm taken)
            if type(self.const_value(value)[1]) in (int, float):   # a product of constants (`six = two * 3`):
                pass   # the constant cuTile Python folds it to, no fma operand
            elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult) and self.last_product:
                self.products[name] = (self.last_product, self.DEFAULT_FP)
            elif isinstance(value, ast.Call) and self.ct(value.func) == "mul" and self.last_product:
                self.products[name] = (self.last_product, self.last_product_fp)
            elif self.helper_product is not None:   # a helper's returned product (see _inline_body)
                self.products[name] = (self.helper_product, self.DEFAULT_FP)
            elif self._cast_product(st.value) and self.last_product and isinstance(ty, (Tile, Scalar)) and \
                    {t.dtype for _, _, t in self.last_product if isinstance(t, (Tile, Scalar))} == {ty.dtype}:
                # `u = ct.astype(t * s, dt)` with dt the product's dtype: no conversion, the product itself
                self.products[name] = (self.last_product, self.DEFAULT_FP)
            self.helper_product = None
            if name in self.products:
                self.product_block[name] = self.block_key()
            if isinstance(ty, Results) and name not in self.mutated:   # a helper's several results kept
                # together (`res = stats(t)`, read as `res[0]`): a Rust tuple
                self.need(st, "helper-tuple", "a helper's results bound to one name")
                self.body.append(f"{indent}let {name}: {ty.rust()} = {code};")
                self.env[name] = (name, ty)
                return
            if not isinstance(ty, (Tile, Scalar)):
                raise self.refuse(st, "assign", "assigning an array to a new name")
            self.keep_factors(name, indent)
            self.bind(st, name, code, ty, indent, nested)
            if name in self.products and name in self.mutated and \
                    (not self.scope_locals or name in self.scope_locals[-1]):
                # (a `let mut` of this block assigned a product in place: dead where the fma took it, see
                # drop_folded_products)
                self.body[-1] += f"{self.IN_PLACE_PRODUCT}{name}"
        elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Tuple) and \
                all(isinstance(n, ast.Name) for n in st.targets[0].elts) and isinstance(st.value, ast.Call) and \
                isinstance(st.value.func, ast.Name) and st.value.func.id in self.helpers:
            self.need(st, "helper-tuple", "a helper's several results unpacked")
            targets = [n.id for n in st.targets[0].elts]
            for name in targets:
                self.bid_names.pop(name, None)
                self.tile_counts.pop(name, None)
                self.products.pop(name, None)
            code, ty = self.expr(st.value)
            if not isinstance(ty, Results) or len(ty.types) != len(targets):
                raise self.refuse(st, "helper-tuple", f"{len(targets)} names for "
                                                      f"{len(ty.types) if isinstance(ty, Results) else 1} results")
            consts = self.helper_result_consts
            tmp = self.fresh(f"{st.value.func.id}_out")
            self.body.append(f"{indent}let {tmp}: {ty.rust()} = {code};")
            for k, (name, t) in enumerate(zip(targets, ty.types)):
                self.bind(st, name, f"{tmp}.{k}", t, indent, nested)
                if len(consts) == len(targets) and consts[k][0] and self.assign_counts.get(name) == 1 and \
                        isinstance(consts[k][1], (int, float)) and isinstance(t, Scalar):
                    self.const_locals[name] = consts[k][1]   # (a constant result: folded where it is read)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and self.ct(st.value.func) == "store":
            self.store(st.value, indent)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and self.ct(st.value.func) == "scatter":
            self.scatter(st.value, indent, nested)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                self.ct(st.value.func) == "store_advanced_indexing":
            self.store_advanced(st.value)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                self.ct(st.value.func) in ATOMIC_MODES:
            self.atomic(st.value, keep=False)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                (self.ct(st.value.func) or "").startswith(TILED_ATOMIC):
            self.tiled_atomic(st.value, indent, nested)
        elif isinstance(st, ast.If) and _does_nothing(st):
            # `if pid < 0: pass` (arms of `pass` only, a test that calls nothing): cuTile Python emits nothing
            self.body.append(f"{indent}// `if {self.text(st.test).splitlines()[0]}:` whose arms only `pass`: nothing "
                             "to do")
        elif isinstance(st, ast.If):
            first = len(self.body)
            self.if_chain(st, indent, nested)
            if len(self.body) > first and all(ln.strip().startswith("//") or _EMPTY_IF_LINE.fullmatch(ln.strip())
                                              for ln in self.body[first:]) and \
                    any(ln.strip().endswith("{") for ln in self.body[first:]):
                # a runtime `if` whose arms came out empty (each statement dropped: values nobody reads): cuTile
                # Python drops the `if` too, and so does the port
                del self.body[first:]
                self.body.append(f"{indent}// `if {self.text(st.test)}:` does nothing: none, as cuTile Python "
                                 "drops it")
        elif isinstance(st, ast.For) and (values := self.static_values(st.iter)) is not None:
            self.static_loop(st, values, indent, nested)
        elif isinstance(st, ast.While) and not st.orelse and (c := self.const_value(st.test))[0] and \
                isinstance(c[1], (bool, int)) and not c[1]:
            # `while False:` never runs its body: cuTile Python's loop breaks before it (a one-trip `loop` that
            # hands its carried values on unchanged; irdiff rule single-break-loop)
            self.body.append(f"{indent}// `while {self.text(st.test)}:` never runs its body (left out, as "
                             "cuTile Python breaks before it)")
        elif isinstance(st, (ast.For, ast.While)):
            chains = self.carry_read_chains(st, indent)
            renamed = self.acq_carry_order(self.acq_construct(st), indent) if self.acq_mode else None
            first = len(self.body)
            (self.for_range if isinstance(st, ast.For) else self.while_loop)(st, indent)
            dead = {id(t) for a in walk_nodes(st) if id(a) in self.dead_assigns for t in a.targets}
            if isinstance(st, ast.For) and not self.acq_mode and not any(   # (an inner loop's index is carried by none,
                    isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and id(n) not in dead and not any(
                        isinstance(f, ast.For) and f.target is n for f in walk_nodes(b))   # nor a dead assignment's name)
                    for b in st.body for n in walk_nodes(b)):
                self._drop_empty_loop(first, indent, pure=all(self._droppable(b) and not any(
                    isinstance(n, ast.Return) for n in walk_nodes(b)) for b in st.body))
            if self.acq_mode:
                self.acq_construct(st)
                self.acq_carry_back(renamed, indent)
            self.end_read_chains(*chains, indent)
        elif isinstance(st, (ast.Break, ast.Continue)):
            if not self.break_flags:
                raise self.refuse(st, "for-break", f"`{self.text(st)}` outside a loop")
            if isinstance(st, ast.Break) and not self.break_flags[-1]:   # (a range's own loop gets a flag)
                raise self.refuse(st, "for-break", "`break` in a `for` over a range with a step, or a grid-stride "
                                                   "loop (the break flag cuTile Python carries is written for "
                                                   "unit-step ranges only)")
            self.need(st, "for-break", f"`{self.text(st)}` in a loop")
            if isinstance(st, ast.Break) and self.break_flags[-1] == WHILE_BREAK:
                self.body.append(f"{indent}break;")   # (a `while`: Tile IR's `break` in the loop, as in Python)
                return
            if isinstance(st, ast.Break):
                self.body.append(f"{indent}{self.break_flags[-1]} = true;")
            self.body.append(f"{indent}continue;")
        elif isinstance(st, ast.Return) and st.value is None and i == len(stmts) - 1 and not indent and \
                not nested and not self.inlining:
            self.body.append("// `return` at the kernel's end: nothing to do")   # (as in cuTile Python)
        elif isinstance(st, ast.Return):
            raise self.refuse(st, "early-return-runtime", "`return` inside a loop (or in a helper, other than at "
                                                          "its end or in one `if`): cutile 0.3.1 compiles `return` "
                                                          "only at the end of a function body")
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                self.ct(st.value.func) == "static_assert":
            # checked when cuTile Python compiles the kernel, nothing at run time: decided here the same way
            ok, holds = self.const_value(st.value.args[0]) if st.value.args else (False, None)
            if not ok or not holds:
                raise self.refuse(st, "static-assert", f"`{self.text(st.value)}` that the translator cannot "
                                                       "decide true from the constants")
            self.need(st, "static-assert", "ct.static_assert")
            self.body.append(f"{indent}// `{self.text(st.value.args[0])}` holds here (ct.static_assert, decided "
                             "at compile time as in cuTile Python)")
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and self.ct(st.value.func) == "assert_":
            self.device_assert(st.value, indent)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                self.ct(st.value.func) in ("printf", "print"):
            raise self.refuse(st, "print", f"`ct.{self.ct(st.value.func)}(...)`: cuTile Python compiles it to "
                              "a token-ordered `print_tko` of all its arguments with the format as written; "
                              "cutile 0.3.1's `cuda_tile_print!` writes its own conversions (`%i`, `%f`) and no "
                              "ordering token, its `print_tko` takes one argument (remove the debug print to "
                              "port the kernel)")
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                self.ct(st.value.func) in ("grid_dependency_control_wait", "grid_dependency_control_launch_dependents"):
            raise self.refuse(st, "grid-dependency-control", f"`ct.{self.ct(st.value.func)}()`: cuTile Python "
                              "compiles it to Tile IR's token-ordered grid-dependency op (bytecode 13.4, PDL); "
                              "cutile-ir 0.3.1 has no such opcode, so no cutile 0.3.1 kernel can emit it (dropping "
                              "it would lose the ordering the launch relies on)")
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                self.ct(st.value.func) == "assume_divisible_by" and self._droppable(
                    ast.Tuple(list(st.value.args) + [k.value for k in st.value.keywords], ast.Load())):
            # its result unread (`ct.assume_divisible_by(n, 16)` as a statement states nothing about n: the
            # fact is on the value it returns), as cuTile Python drops it
            self.need(st, "assume-divisible", "ct.assume_divisible_by")
            self.body.append(f"{indent}// `{self.text(st.value)}`: its result is not read (the fact is on the "
                             "value it returns), nothing to emit, as in cuTile Python")
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.IfExp) and \
                (arm := self._folded_ifexp(st.value)) is not st.value:
            # a conditional expression as a statement on a constant test (`a(..) if FLAG else b(..)`): the arm
            # taken, as cuTile Python folds it
            self.stmts([ast.copy_location(ast.Expr(arm), st)], indent, nested)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and self.ct(st.value.func):
            raise self.refuse(st, self._construct_for_call(self.ct(st.value.func)),
                              f"call `{self.text(st.value.func)}(...)` as a statement")
        elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Tuple) and \
                _unpacks(st.targets[0], st.value) and \
                not {n.id for n in walk_nodes(st.targets[0]) if isinstance(n, ast.Name)} & \
                {n.id for n in walk_nodes(st.value) if isinstance(n, ast.Name)}:
            # `x1, x2 = x` in a helper given a tuple `(a, b)` for x (the tuple stands where x is read, after
            # resolve's tuple-assign ran), `(m, s), n = state` given `((a, b), c)`: one assignment per name (an
            # inner tuple in turn), as Python unpacks it
            self.stmts([ast.copy_location(ast.Assign([t], v), st) for t, v in zip(st.targets[0].elts,
                                                                                 st.value.elts)], indent, nested)
        elif isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Tuple) and isinstance(st.value, ast.Call):
            raise self.refuse(st, "helper-tuple", f"`{self.text(st).splitlines()[0]}`: a call's several results "
                                                  "unpacked")
        else:
            raise self.refuse(st, "assign", f"statement `{self.text(st).splitlines()[0]}`")

    def device_assert(self, call: ast.Call, indent: str) -> None:
        """`ct.assert_(cond, message)` of a boolean scalar or tile: Tile IR `assert` with the message (an empty
        one when none is given), as cuTile Python compiles it — cutile's `cuda_tile_assert!(cond, "message")`."""
        self.need(call, "assert", "ct.assert_")
        kw = {k.arg: k.value for k in call.keywords}
        msg = call.args[1] if len(call.args) > 1 else kw.get("message")
        if len(call.args) < 1 or set(kw) - {"message"} or not (
                msg is None or (isinstance(msg, ast.Constant) and (msg.value is None or isinstance(msg.value, str)))):
            raise self.refuse(call, "assert", f"`{self.text(call)}`: a condition and a literal message are expected")
        text = "" if msg is None or msg.value is None else msg.value
        code, ty = self.expr(call.args[0])
        if not isinstance(ty, (Tile, Scalar)) or ty.dtype != "bool":
            raise self.refuse(call.args[0], "assert", f"ct.assert_ of {_describe(ty)} (a boolean scalar or tile is "
                                                      "expected)")
        literal = '"' + "".join({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}.get(c, c) for c in text) + '"'
        if not code.isidentifier():   # cutile types no call inside the macro (`broadcast_scalar(..)`): bound first
            tmp = self.fresh("asserted")
            self.body.append(f"{indent}let {tmp}: {ty.rust()} = {code};")
            code = tmp
        self.body.append(f"{indent}cuda_tile_assert!({code}, {literal});")

    def if_chain(self, st: ast.If, indent: str, nested: bool = False) -> None:
        """`if C:` on constants stays an `if` on the const generics: cutile folds it per specialization, exactly
        as cuTile Python does, so the Rust mirrors the source and both arms are type-checked. When that cannot be
        said in Rust — the test is on a float or bool constant, or an arm defines a name read after the `if` — the
        taken arm alone is translated in place (if-constant-folded), as cuTile Python folds it."""
        kind, reduced = ("expr", st.test) if self._constant_test(st.test) else self.partial_bool(st.test)
        if kind == "const" or (self._constant_test(st.test) and self.const_value(st.test)[0]):
            self._carry_arm_names(st, indent)
        if kind == "const" or reduced is not st.test:   # `(CAUSAL or not EVEN_K) and j >= start`: the constant
            # part decided here, as Python's short circuit decides it
            self.need(st, "if-constant-folded", "condition partly on constants")
            if kind == "const":
                arm = st.body if reduced else st.orelse
                self.body.append(f"{indent}// `if {self.text(st.test)}:` is {bool(reduced)} here: "
                                 f"{'its body' if reduced else 'the else arm' if arm else 'nothing'}, as cuTile "
                                 "Python folds it")
                self.stmts(arm, indent, nested)
                return
            self.body.append(f"{indent}// `if {self.text(st.test)}:` is `if {ast.unparse(reduced)}:` here")
            st = ast.copy_location(ast.If(reduced, st.body, st.orelse), st)
            st.end_lineno = st.end_lineno
        if self._folds(st):
            c = self.const_value(st.test)
            self.need(st, "if-constant-folded", "constant if folded")
            arm = st.body if c[1] else st.orelse
            self.body.append(f"{indent}// `if {self.text(st.test)}:` is {bool(c[1])} here: "
                             f"{'its body' if c[1] else 'the else arm' if arm else 'nothing'}, as cuTile Python "
                             "folds it")
            self.stmts(arm, indent, nested)
            return
        if self._constant_test(st.test) and self.const_value(st.test)[0]:
            saved = {k: copy.copy(v) for k, v in vars(self).items() if isinstance(v, (dict, set, list))}
            try:
                return self._if_arms(st, indent)
            except Unsupported as exc:   # an arm re-binds a name to another type, or the arm not taken holds what
                # cannot be translated (cuTile Python never compiles it): the taken arm alone, in place
                for k, v in saved.items():
                    setattr(self, k, v)
                c = self.const_value(st.test)[1]
                self.need(st, "if-constant-folded", "constant if folded")
                why = "an arm changes a name's type" if isinstance(exc, BranchTypeChange) else \
                    f"the arm not taken holds `{exc.construct}`, which the translator refuses"
                self.body.append(f"{indent}// `if {self.text(st.test)}:` is {bool(c)} here ({why}): the taken arm, "
                                 "as cuTile Python folds it")
                return self.stmts(st.body if c else st.orelse, indent, nested)
        self._if_arms(st, indent)

    def cast_constant(self, node: ast.AST) -> tuple[bool, object, str | None]:
        """(True, value, dtype) of a constant typed by `ct.astype` (`ct.astype(q, ct.float32)` of a constant q), or of
        `+ - *` over such constants and Python ones (dtype: the typed operands' one; None when none is typed); else
        (False, None, None). cuTile Python folds these as it folds Python's constants."""
        if isinstance(node, ast.Call) and self.ct(node.func) == "astype" and len(node.args) == 2 and \
                not node.keywords and (dt := self.dtype_of(node.args[1])) in ("f32", "i32") and \
                (c := self.const_value(node.args[0]))[0] and type(c[1]) in (bool, int, float):
            return True, (_f32(float(c[1])) if dt == "f32" else int(c[1])), dt
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            left, right = self.cast_constant(node.left), self.cast_constant(node.right)
            typed = {d for _, _, d in (left, right) if d is not None}
            if left[0] and right[0] and len(typed) == 1 and type(left[1]) is not bool and type(right[1]) is not bool:
                dt = typed.pop()
                value = CONST_OPS[type(node.op)](left[1], right[1])
                if dt == "i32" and type(value) is not int:   # (an int typed constant with a Python float: f32, not
                    return False, None, None                # folded here)
                return True, (_f32(float(value)) if dt == "f32" else value), dt
            return False, None, None
        ok, value = self.const_value(node)
        return (True, value, None) if ok and type(value) in (int, float) else (False, None, None)

    def _carry_arm_names(self, st: ast.If, indent: str) -> None:
        """A constant ``if`` inside a loop: cuTile Python's loop carries every outer name an arm of it assigns, the
        arm folded away too (it decides the carried values from the source before folding; the value is passed on
        unchanged), where cutile carries what its folded body assigns: each such name is assigned itself first."""
        if not self.loop_bodies or not any(n is st for sub in self.loop_bodies[-1] for n in walk_nodes(sub)):
            return   # (not in a loop's own body: an inlined helper's `if` binds the helper's names)
        inside = {id(n) for n in walk_nodes(st)}
        elsewhere = {n.id for sub in self.loop_bodies[-1] for n in walk_nodes(sub) if id(n) not in inside and
                     isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}   # (carried anyway: nothing to add)
        names = sorted({n.id for arm in (st.body, st.orelse) for sub in arm for n in walk_nodes(sub)
                        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in self.env
                        and n.id in self.mutated and n.id not in elsewhere})
        if names:
            self.body.append(f"{indent}// carried by the loop whichever arm is taken, as cuTile Python carries them")
            self.body.extend(f"{indent}{name} = {name};" for name in names)

    def _if_arms(self, st: ast.If, indent: str) -> None:
        if getattr(st, "early_return", None) == "kernel" and not self._constant_test(st.test) and \
                not any(s is st for s in self.fn.body):   # (a top-level one: irdiff's early-return-else)
            raise self.refuse(st, "early-return-runtime", f"`return` under `if {self.text(st.test)}:`, a runtime "
                              "condition inside a loop or branch: cuTile Python returns from inside the Tile IR "
                              "`if`; cutile 0.3.1 compiles `return` only at the end of a function body (it rejects "
                              "one inside `if`); only a top-level one is ported (the rest of the kernel in the "
                              "`else` arm)")
        if getattr(st, "early_return", None) == "helper" and not self._constant_test(st.test):
            inner = next((n for arm in (st.body, st.orelse) for s in arm for n in walk_nodes(s)
                          if isinstance(n, ast.If) and getattr(n, "early_return", None) == "helper"
                          and not self._constant_test(n.test)), None)
            if inner is not None:   # (cuTile Python: a one-trip loop left by a `break` per return; irdiff matches one)
                raise self.refuse(inner, "early-return", f"a second `return` under a runtime `if "
                                  f"{self.text(inner.test)}:` in one helper (cuTile Python compiles the returns as "
                                  "`break`s out of a one-trip loop, which the port writes for one such `if` only)")
        yields, renamed = self._arm_results(st), None
        if yields:
            yields, tokens = self.prebind_results(st, yields, indent)
            renamed = self._if_token_order(tokens, indent)
        self._if_emit(st, yields, indent)
        self.acq_carry_back(renamed, indent)

    def _if_emit(self, st: ast.If, yields: list[str], indent: str) -> None:
        cond = self.test(st)   # (first: it may bind temporaries before the `if`)
        start = len(self.body)
        if yields:   # names every arm binds, read after the `if`: the Rust `if` yields them (a Tile IR `if` with
            # results, as cuTile Python compiles it); an early-returning helper's result is one (resolve.py)
            saved_mutated = set(self.mutated)
            self.mutated -= set(yields)
        types: list[list[Ty]] = []
        top = st
        # (acquire-ordered: each arm starts from the token map before the `if`; after it, the keys its effects add)
        saved = (list(self.key_order), self.acq_live, dict(self.tok_tag))

        def arm(body: list[ast.stmt]) -> None:
            if self.acq_mode:
                self.key_order, self.acq_live, self.tok_tag = list(saved[0]), saved[1], dict(saved[2])
            for arr in exclusive:   # each arm's write starts from the array's token before the `if`
                self.scatter_tokens.pop(arr, None)
            saved_chains, chains = self.arm_chains, self._arm_scatter_chains(body)
            for arr in chains:
                self.scatter_tokens.pop(arr, None)
            self.arm_chains = {arr: [len(self.scope_locals) + 1, n] for arr, n in chains.items()}
            types.append(self.scoped(body, indent + "    ", yields=yields))
            self.arm_chains = saved_chains
            chained.update(chains)

        exclusive = self._scatters_in_arms(st) if not self.acq_mode else []
        chained: set[str] = set()
        self.body.append(f"{indent}if {cond} {{")
        if self.acq_mode:   # cutile yields what the first arm assigns in name order, then the other arms' new ones;
            # cuTile Python yields the variables, then the tokens in its token map's order: every carried name is
            # named in the first arm (a token nothing reads after the `if` is dropped again: _drop_dead_tokens)
            arrays, written, acquires = self._effects(st)
            toks = [t for arr in arrays for t in
                    (self.inplace_tokens[arr] if arr in written else self.inplace_tokens[arr][:1])]
            names = {t.id for b in [st.body, st.orelse] for sub in b for n in walk_nodes(sub)
                     if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
            names = {n for n in names if n in self.env and n in self.mutated and n not in yields}
            for name in sorted(names | set(toks) | ({self.acq_token} if acquires else set())):
                self.body.append(f"{indent}    {name} = {name};")
        arm(st.body)
        orelse = st.orelse
        nested: list[int] = []   # where each `elif` whose test needs statements of its own opened its inner `if`
        while len(orelse) == 1 and isinstance(orelse[0], ast.If):
            st = orelse[0]
            mark = len(self.body)
            cond = self.test(st)
            if len(self.body) == mark:
                self.body.append(f"{indent}}} else if {cond} {{")
            else:   # `elif a and b:`, `elif ct.sum(t) > x:`, `elif f(i):`: the test's statements run in the `else`
                # arm, before the inner `if` they decide, as Python evaluates an `elif` (cuTile Python's IR: an `if`
                # in the `else` region); an `else if` would leave them at the end of the arm above
                if self.acq_mode:
                    raise self.refuse(st, "if-runtime", f"`elif {self.text(st.test)}:` (a test that needs "
                                                        "statements of its own) in a kernel whose memory accesses are "
                                                        "ordered by acquire/release: write it as `else:` + `if`")
                setup = self.body[mark:]
                del self.body[mark:]
                self.body.append(f"{indent}}} else {{")
                self.body.extend(setup)
                nested.append(len(self.body))
                self.body.append(f"{indent}if {cond} {{")
            arm(st.body)
            orelse = st.orelse
        if orelse:
            self.body.append(f"{indent}}} else {{")
            arm(orelse)

        def bind(at: int) -> str:   # the `if` opened at body[at], bound to the one name it yields (prebind_results
            (name,) = yields        # leaves at most one)
            self.body[at] = f"{indent}let {name}: {types[0][0].rust()} = {self.body[at].strip()}"
            return name

        for at in reversed(nested):   # each inner `if` closed, innermost first; one that yields is bound to the
            # name, which is its `else` arm's value
            self.body.extend([f"{indent}}};", f"{indent}{bind(at)}"] if yields else [f"{indent}}}"])
        if self.acq_mode:
            self.key_order, self.acq_live, self.tok_tag = saved[0], saved[1], saved[2]
            self.acq_construct(top)
        for arr in [*exclusive, *chained]:   # (their tokens are not carried out of the `if`: a later write into arr
            self.scatter_tokens[arr] = None    # is refused)
        if not yields:
            self.body.append(f"{indent}}}")
            return
        self.mutated = saved_mutated
        if any(t != types[0] for t in types):
            raise BranchTypeChange(self.file, st, "if-runtime", f"the arms bind {', '.join(yields)} to values of "
                                                                "different types")
        self.body.append(f"{indent}}};")
        bind(start)
        for name, ty in zip(yields, types[0]):
            self.env[name] = (name, ty)

    def prebind_results(self, st: ast.If, yields: list[str], indent: str) -> tuple[list[str], list[str]]:
        """Names first bound in every arm of a runtime ``if`` and read after it: cuTile Python's `if` yields every
        name its arms store in the order of the function's local names, which are sorted (cuda.tile 1.7:
        `ast2hir` numbers a function's locals by sorted name, `if_else_impl` yields them by number); cutile 0.3.1's
        `if` yields the `let mut`s its arms re-assign in alphabetical order, then the `if`'s own value (one value,
        no tuples). So the `if` keeps a value only where that order is Python's: one new name, after every
        re-assigned one in the alphabet; otherwise the new names are declared before the `if` (`let mut a: T =
        <zero>;`, a value no path reads: the arms assign it, and the unused constant is no op of the reference's
        `if`) and re-assigned in the arms — all of them, or all but the last in the alphabet when it is also after
        every re-assigned name. The arms are translated once to learn the names' types. Returns the names the `if`
        still yields (none or one), and the tokens its arms re-assign where they change that order."""
        reassigned = {n.id for arm in (st.body, st.orelse) for sub in arm for n in walk_nodes(sub)
                      if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in self.env
                      and n.id in self.mutated}
        last = max(yields)
        value = [last] if all(r < last for r in reassigned) else []
        if yields == value and (self.acq_mode or not self.inplace_tokens):
            return yields, []   # (no token an arm could re-assign: the arms are not translated twice)
        saved = {k: copy.copy(v) for k, v in vars(self).items() if isinstance(v, (dict, set, list))}
        try:
            self.mutated -= set(yields)
            types: list[list[Ty]] = []
            mark = len(self.body)
            self.test(st)
            self.body.append("if {")
            types.append(self.scoped(st.body, indent, yields=yields))
            node = st
            while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                node = node.orelse[0]
                self.test(node)
                types.append(self.scoped(node.body, indent, yields=yields))
            types.append(self.scoped(node.orelse, indent, yields=yields))
            arms = self.body[mark:]
        finally:
            for k, v in saved.items():
                setattr(self, k, v)
        local = {m[1] for m in map(_LET.match, arms) if m}
        tokens = sorted({m[1] for m in map(_OUTER_ASSIGN.match, arms)
                         if m and m[1].startswith("zz_") and m[1] not in reassigned | local})
        if tokens and not self.acq_mode:
            value = []   # an arm re-assigns a token (an array read in it, then written): cuTile Python yields it
            # after the `if`'s variables, cutile before its value — so the value is a `let mut` too (and the tokens
            # are renamed for the `if`: _if_token_order)
        else:
            tokens = []
        if yields == value:
            return yields, tokens
        if any(t != types[0] for t in types):
            raise BranchTypeChange(self.file, st, "if-runtime", f"the arms bind {', '.join(yields)} to values of "
                                                                "different types")
        for name, ty in sorted(zip(yields, types[0])):
            if [name] == value:
                continue
            if isinstance(ty, Tile):
                dims = ", ".join(ty.shape)
                zero = _float_constant(0.0, ty.dtype, dims) if ty.dtype.startswith(("f", "bf")) else \
                    f"constant({'false' if ty.dtype == 'bool' else rust_literal(0, ty.dtype)}, shape![{dims}])"
            elif isinstance(ty, Scalar) and ty.dtype in ("i32", "i64", "f32", "bool"):
                zero = "false" if ty.dtype == "bool" else rust_literal(0.0 if ty.dtype == "f32" else 0, ty.dtype)
            else:
                raise self.refuse(st, "if-runtime", f"`{name}` ({_describe(ty)}) first bound in every arm of a "
                                                    "runtime `if` with other names")
            self.body.append(f"{indent}// `{name}`: bound in every arm of the `if` below (cutile's `if` yields "
                             "the `let mut`s its arms re-assign; this value is never read)")
            self.body.append(f"{indent}#[allow(unused_assignments)]")
            self.body.append(f"{indent}let mut {name}: {ty.rust()} = {zero};")
            self.env[name] = (name, ty)
            self.mutated.add(name)
        return value, tokens

    def _if_token_order(self, tokens: list[str], indent: str) -> dict[str, str] | None:
        """The tokens the arms of a runtime `if` with results re-assign (prebind_results), copied into `let mut`
        names of this `if` that sort after every variable it yields, used in its arms and copied back after it
        (acq_carry_back): inside a loop (or another `if`), cutile's `if` yields the enclosing construct's carried
        names first — the loop's tokens before the `if`'s own variables — where cuTile Python yields the
        variables, then the tokens. Old name → new name."""
        if not tokens:
            return None
        k = self.fresh("zz_if")
        renamed = {t: f"{k}_{i:02d}{t[3:]}" for i, t in enumerate(tokens)}
        for old, new in renamed.items():
            self.body.append(f"{indent}let mut {new}: Token = {old};")
        self._acq_rebind(renamed)
        return renamed

    def _arm_results(self, st: ast.If) -> list[str]:
        """Names not bound before the runtime ``if`` st that every arm (of an if/elif/else chain with an else)
        binds and code after it reads, in source order."""
        arms, node = [st.body], st
        while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            arms.append(node.body)
        if not node.orelse or not self._defines_names_read_later(st):
            return []
        arms.append(node.orelse)
        # (a name an arm binds only inside a loop — its index, the loop's temporaries — ends with the loop: it
        # is no result, as a later read of it is cuTile Python's "potentially undefined" error; the same loop
        # in each arm of an `if` whose statements after it were copied into both, by the Triton lowering's
        # early returns, binds its index in every arm)
        bound = [[n.id for sub in arm for n in _walk_outside_loops(sub) if isinstance(n, ast.Name) and
                  isinstance(n.ctx, ast.Store) and n.id not in self.env] for arm in arms]
        return [n for n in dict.fromkeys(bound[0]) if all(n in b for b in bound[1:])]

    def partial_bool(self, node: ast.AST) -> tuple[str, object]:
        """``node`` with the constant operands of its `and`/`or`/`not` decided: ("const", value) when that decides
        it, else ("expr", the condition left over — ``node`` itself when nothing was decided)."""
        if isinstance(node, ast.BoolOp):
            is_and = isinstance(node.op, ast.And)
            rest = []
            for v in node.values:
                kind, r = self.partial_bool(v)
                if kind == "const" and not isinstance(r, str):
                    if bool(r) != is_and:   # False in an `and`, True in an `or`: decided
                        return "const", bool(r)
                    continue                # True in an `and`, False in an `or`: drops out
                rest.append(r)
            if not rest:
                return "const", is_and
            if len(rest) == 1:
                return "expr", rest[0]
            if all(a is b for a, b in zip(rest, node.values)) and len(rest) == len(node.values):
                return "expr", node
            return "expr", ast.copy_location(ast.BoolOp(node.op, rest), node)
        ok, value = self.const_value(node)
        if ok and isinstance(value, (bool, int)):
            return "const", bool(value)
        return "expr", node

    def _generic_condition(self, test: ast.AST) -> bool:
        """Whether ``test`` can be written on the const generics (int constants, literals). A test on a bool or
        float constant is decided here instead: its untaken arm is not translated, as cuTile Python does not
        type-check it (it may store a tile of another dtype, say)."""
        if any(isinstance(n, ast.Name) and isinstance(p := self.params.get(n.id), sigmod.ConstSig) and
               not (isinstance(p.value, int) and not isinstance(p.value, bool)) for n in walk_nodes(test)):
            return False
        try:
            self.condition(test)
            return True
        except Unsupported:
            return False

    def _defines_names_read_later(self, st: ast.If, static: bool = False) -> bool:
        """An arm of ``st`` binds a name not bound before it that code after ``st`` reads (Rust would end its scope
        with the arm)."""
        home = next((f for f in (*[self.helpers[h] for h in reversed(self.inlining) if h in self.helpers], self.fn)
                     if any(n is st for n in walk_nodes(f))), self.fn)
        before = set(self.env) if not static else \
            {n.id for n in walk_nodes(home) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
             and n.lineno < st.lineno} | {a.arg for a in home.args.args}
        bound = {n.id for sub in (*st.body, *st.orelse) for n in walk_nodes(sub)
                 if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} - before
        end = st.end_lineno or st.lineno
        return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in bound and n.lineno > end
                   for n in walk_nodes(home))

    def _folds(self, st: ast.If, static: bool = False) -> bool:
        """Whether the constant ``if`` st is folded to its taken arm (see if_chain); ``static``: judged before
        translation, from the source alone."""
        return self._constant_test(st.test) and self.const_value(st.test)[0] and \
            (self._defines_names_read_later(st, static) or not self._generic_condition(st.test)
             or id(st) in self.sole_reader_ifs)

    @functools.cached_property
    def sole_reader_ifs(self) -> set[int]:
        """Ids of the constant ifs (on int constants, which the port writes as tests of the const generics) whose arm
        not taken here is all that reads a value cuTile Python would otherwise drop (`a = ct.load(..)` read only
        under `if MODE == 1:` at MODE = 0): cuTile Python folds the `if` first, then drops the unread load; the port
        folds such an `if` too, so that the load is dropped (cutile keeps a load an `if` it folds read)."""
        arms: dict[int, list[ast.AST]] = {}
        for node in self.walk():
            if isinstance(node, ast.If) and self._constant_test(node.test) and \
                    (c := self.const_value(node.test))[0] and not isinstance(c[1], str):
                arms[id(node)] = node.orelse if c[1] else node.body
        if not arms:
            return set()
        every = {id(n) for other in arms.values() for sub in other for n in walk_nodes(sub)}
        needed_elsewhere = self.live_names(every)
        binds = self._pure_bindings

        def reaches_a_load(names: set[str]) -> bool:   # (through the pure values only the arm needs)
            seen, todo = set(), [n for n in names if n in binds and n not in needed_elsewhere]
            while todo:
                name = todo.pop()
                if name in seen:
                    continue
                seen.add(name)
                if any(isinstance(c, ast.Call) and self.ct(c.func) in ("load", "gather") for c in walk_nodes(binds[name])):
                    return True
                todo += [n.id for n in walk_nodes(binds[name]) if isinstance(n, ast.Name) and n.id in binds and
                         n.id not in needed_elsewhere]
            return False
        # (pure arithmetic only the arm read is dropped by cutile too once it folds the `if`: only a load is kept;
        # and names the arm binds itself go with it)
        return {i for i, other in arms.items()
                if reaches_a_load({n.id for sub in other for n in walk_nodes(sub)
                                   if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} -
                                  {n.id for sub in other for n in walk_nodes(sub)
                                   if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)})}

    @functools.cached_property
    def _pure_bindings(self) -> dict[str, ast.AST]:
        """Names bound once, by a plain assignment, to a value without effects (see _droppable): their values."""
        binds = [st for st in self.walk() if isinstance(st, ast.Assign) and len(st.targets) == 1 and
                 isinstance(st.targets[0], ast.Name)]
        counts: dict[str, int] = {}
        for st in binds:
            counts[st.targets[0].id] = counts.get(st.targets[0].id, 0) + 1
        return {st.targets[0].id: st.value for st in binds if counts[st.targets[0].id] == 1 and
                self._droppable(st.value)}

    def static_values(self, it: ast.AST) -> list | None:
        """The items of ``ct.static_iter(range(..))`` / ``ct.static_iter((a, b, ..))`` (or ``reversed(..)`` of
        either) when every bound or item is a constant (cuTile Python evaluates the iterable when it compiles); else
        None."""
        if not (isinstance(it, ast.Call) and self.ct(it.func) == "static_iter"):
            return None
        inner = it.args[0] if it.args else next((k.value for k in it.keywords if k.arg == "iterable"), None)
        if isinstance(inner, (ast.Tuple, ast.List)):
            vals = [self.const_value(e) for e in inner.elts]
            return [v for _, v in vals] if all(ok for ok, _ in vals) else None
        if isinstance(inner, ast.Subscript) and isinstance(inner.value, (ast.Tuple, ast.List)) and \
                isinstance(inner.slice, ast.Slice):   # a slice of a constant tuple (`COEFFS[-2::-1]`, reversed)
            items = self.static_values(ast.copy_location(ast.Call(it.func, [inner.value], []), it))
            bounds = [(True, None) if b is None else self.const_value(b)
                      for b in (inner.slice.lower, inner.slice.upper, inner.slice.step)]
            if items is not None and all(ok and (v is None or type(v) is int) for ok, v in bounds):
                return items[slice(*(v for _, v in bounds))]
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "reversed" and \
                "reversed" not in self.env and not inner.keywords and len(inner.args) == 1:   # `reversed(range(N))`
            items = self.static_values(ast.copy_location(ast.Call(it.func, [inner.args[0]], []), it))
            return None if items is None else items[::-1]
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "range" and \
                not inner.keywords and 1 <= len(inner.args) <= 3:
            vals = [self.const_value(a) for a in inner.args]
            if all(ok and isinstance(v, int) and not isinstance(v, bool) for ok, v in vals):
                return list(range(*(v for _, v in vals)))
        return None

    def tiled_atomic(self, call: ast.Call, indent: str, nested: bool) -> None:
        """`v = x.tiled_view(shape)` then `v.atomic_store_add(index, update)` (resolve spells it
        `ct._tiled_view_atomic_store_add(x, index, update, shape)`): cuTile Python's Tile IR `atomic_red_view_tko`
        (relaxed, device scope) on the view of x's full tensor at that tile index, the update broadcast to the tile
        and converted to x's dtype; the same op through cutile's declaration (declared in the port's module, as
        cutile's `tileir` module declares it). One such reduction per array, at the kernel's top level, the array
        accessed no other way (its token then orders nothing else)."""
        op = self.ct(call.func)[len(TILED_ATOMIC):]
        self.need(call, "tiled-atomic", f"a tiled view's atomic_store_{op}")
        steps = [k for k in call.keywords if k.arg == "traversal_steps"]
        if steps and len(call.args) == 4 and isinstance(call.args[0], ast.Name):
            if self.view_steps(steps[0].value, self.shape_of(call.args[3]), call.args[0].id) is not None:
                raise self.refuse(call, "tiled-view-steps", STRIDED_VIEW_LIMIT.format(what=f"atomic_store_{op}",
                                                                                 arr=call.args[0].id))
        if len(call.args) != 4 or [k for k in call.keywords if k not in steps] or not isinstance(call.args[0], ast.Name) or \
                not isinstance(self.params.get(call.args[0].id), sigmod.ArraySig) or call.args[0].id in self.slices:
            raise self.refuse(call, "tiled-atomic", f"atomic_store_{op} of a tiled view of something other than an "
                                                    "array parameter, or with options")
        arr_node, index_node, update_node, shape_node = call.args
        arr, sig = arr_node.id, self.params[arr_node.id]
        others = [n for n in self.walk() if isinstance(n, ast.Call) and n is not call and n.args and
                  isinstance(n.args[0], ast.Name) and n.args[0].id == arr and self.ct(n.func) is not None]
        if nested or others:
            raise self.refuse(call, "tiled-atomic", f"atomic_store_{op} on {arr} " + (
                "inside a loop or branch" if nested else f"with {arr} also accessed at line {others[0].lineno}") +
                ": cuTile Python orders it by the array's tokens (carried by loops, chained with the array's other "
                "operations), which the port does not carry for it yet")
        mode = TILED_ATOMIC_MODES.get(op, {}).get(sig.dtype)
        if mode is None:
            raise self.refuse(call, "tiled-atomic", f"atomic_store_{op} on a {sig.dtype} array (cuda.tile takes "
                                                    "add on floats and integers, the others on integers)")
        shape = self.shape_of(shape_node)
        if len(shape) != sig.rank:
            raise self.refuse(shape_node, "tiled-atomic", f"a tile shape of rank {len(shape)} on rank-{sig.rank} {arr}")
        code, ty = self.expr(update_node)
        if not isinstance(ty, (Tile, Scalar)) or ty.dtype not in RUST_DTYPES:
            raise self.refuse(update_node, "tiled-atomic", f"atomic_store_{op} of {_describe(ty)}")
        value = self.operand_as_tile(code, ty, Tile(ty.dtype, shape), update_node)   # (broadcast to the tile)
        dims, elem = ", ".join(shape), RUST_DTYPES[sig.dtype]
        if not value.isidentifier():   # (cutile types a broadcast in an argument only from a typed binding)
            value = self.typed(value, Tile(ty.dtype, shape), None, f"{arr}_update")[0]
        if ty.dtype != sig.dtype:   # converted to the view's dtype, as cuTile Python casts the update
            value = self.typed(_int_conversion(ty.dtype, sig.dtype, value) or f"convert_tile({value})",
                               Tile(sig.dtype, shape), None, f"{arr}_update")[0]
        index = index_node if isinstance(index_node, ast.Tuple) else \
            ast.copy_location(ast.Tuple([index_node], ast.Load()), index_node)
        if len(index.elts) != sig.rank:
            raise self.refuse(index_node, "tiled-atomic", f"a tile index of {len(index.elts)} on rank-{sig.rank} {arr}")
        idx = self.store_indices(index, indent)
        view = self.fresh(f"{arr}_reduced")
        self.declared_ops.setdefault("atomic_red_view_tko", set())
        self.body.append(f"{indent}// {arr}'s tiled view, atomic_store_{op}: the Tile IR view reduction cuTile Python "
                         "emits (relaxed, device scope)")
        self.body.append(f"{indent}// SAFETY: the reduction is atomic (blocks may reduce into one tile); the tile index "
                         "is the source's (out-of-range elements are skipped by the view's bounds)")
        self.body.append(f"{indent}let mut {view}: PartitionMut<{elem}, {{ [{dims}] }}> = "
                         f"unsafe {{ {arr}.partition_full_mut(shape![{dims}]) }};")
        self.body.append(f"{indent}let _{view}_token: Token = unsafe {{ atomic_red_view_tko(&mut {view}, {value}, "
                         f"[{', '.join(idx)}], atomic::{mode}, ordering::Relaxed, scope::Device) }};")
        self.reduced.add(arr)
        self.unsafe_site(call, f"partition_full_mut + atomic_red_view_tko on {arr}",
                         "cutile states the view reduction only through its unsafe Tile IR op",
                         "none beyond the kernel's: the reduction is atomic")

    def index_scalar(self, e: ast.AST) -> tuple[str, Ty]:
        """A tile index of ct.load / ct.store: an i32 scalar; a 0-d tile (`ct.gather(ids, t)`) is the scalar it
        holds; an i64 one (an int64 token id's `.item()`) truncated to i32, as cuTile Python truncates it (`trunci`,
        wrapping: row load-tile)."""
        code, ty = self._as_scalar(*self.expr(e))
        if ty == Scalar("i64"):
            narrow = self.fresh("index_i32")
            self.body.append(f"let {narrow}: Tile<i32, {{ [] }}> = trunci_wrapping(scalar_to_tile::<i64>({code}), "
                             "overflow::None);")
            return f"tile_to_scalar::<i32, i32>({narrow})", Scalar("i32")
        return code, ty

    def fold_tuple_items(self, body: list[ast.stmt]) -> list:
        """`SCALES[i]` of a module tuple (inlined by resolve) at a `ct.static_iter` item: the item's literal in place
        for this unrolled copy, as cuTile Python folds it (a weakly typed constant, like any literal). Returns what
        to put back."""
        out = []
        for parent in [n for st in body for n in walk_nodes(st)]:
            for attr, val in ast.iter_fields(parent):
                for k, child in (enumerate(val) if isinstance(val, list) else [(None, val)]):
                    if not (isinstance(child, ast.Subscript) and isinstance(child.value, (ast.Tuple, ast.List))
                            and isinstance(child.ctx, ast.Load)):
                        continue
                    ok, v = self.const_value(child)
                    if not ok or type(v) not in (int, float):
                        continue
                    lit = ast.copy_location(ast.Constant(v) if v >= 0 else
                                            ast.UnaryOp(ast.USub(), ast.Constant(-v)), child)
                    ast.fix_missing_locations(lit)
                    if k is None:
                        setattr(parent, attr, lit)
                    else:
                        val[k] = lit
                    out.append((parent, attr, k, child))
        return out

    def static_loop(self, st: ast.For, values: list, indent: str, nested: bool) -> None:
        """`for i in ct.static_iter(..)`: the body once per item, the induction variable bound to it, in place
        (cuTile Python inlines the body per item; names assigned in it stay visible after it, as in Python)."""
        if not isinstance(st.target, ast.Name) or st.orelse or \
                any(isinstance(n, (ast.Break, ast.Continue, ast.Return)) for n in walk_nodes(st)):
            raise self.refuse(st, "static-iter", "a `ct.static_iter` loop other than over one name, without "
                                                 "`else`, `break`, `continue` or `return`")
        self.need(st, "static-iter", "ct.static_iter loop")
        name = st.target.id
        for value in values:
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise self.refuse(st.iter, "static-iter", f"a `ct.static_iter` item {value!r} that is not a number")
            dtype = "f32" if isinstance(value, float) else "i32"
            self.body.append(f"{indent}// `{self.text(st.target)}` = {value!r} (ct.static_iter: the body inlined "
                             "per item, as cuTile Python unrolls it)")
            self.const_locals[name] = value
            self.env[name] = (rust_literal(value, dtype), Scalar(dtype))
            if dtype == "i32":
                self.static_items[name] = value
            folded = self.fold_tuple_items(st.body)
            try:
                self.stmts(st.body, indent, nested)
            finally:
                for parent, attr, k, sub in folded:   # (the next item folds them again)
                    if k is None:
                        setattr(parent, attr, sub)
                    else:
                        getattr(parent, attr)[k] = sub
        self.const_locals.pop(name, None)
        self.env.pop(name, None)
        self.static_items.pop(name, None)

    def _drop_empty_loop(self, first: int, indent: str, pure: bool = False) -> None:
        """A `for` the port wrote with nothing in its body (each statement folded away: `for i in range(n): if
        AUX: ..` at AUX False, or `pass`) and binding no name, even in an arm folded away, carries nothing and does
        nothing; cuTile Python drops such a loop from its IR, so the port leaves it out too (its bounds, computed
        before it, stay). (A name bound in a folded arm is still carried by cuTile Python's loop: kept.) So does a
        ``pure`` one, whose body has only jumps and values without effects (`for k in range(n): if c: continue`),
        whatever the port wrote for it."""
        lines = self.body[first:]
        head = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].startswith(f"{indent}for ")
                     and lines[i].endswith("{")), None)
        if head is None or lines[-1] != f"{indent}}}" or \
                not (pure or all(ln.strip().startswith("//") for ln in lines[head + 1:-1])):
            return
        del self.body[first + head:]
        self.body.append(f"{indent}// a `for` whose body does nothing: none, as cuTile Python drops it")

    def for_range(self, st: ast.For, indent: str) -> None:
        it = st.iter
        if any(isinstance(n, ast.Call) and self.ct(n.func) == "num_blocks" for n in walk_nodes(it)):
            return self.for_persistent(st, indent)
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and isinstance(st.target, ast.Name) and not st.orelse and 1 <= len(it.args) <= 3):
            raise self.refuse(st, "for-range", f"`for` over {self.text(it)}")
        self.need(st, "for-range", "range loop")
        args = list(it.args)
        if len(args) == 3:
            if self._int(args[2]) != 1:   # any other step, a literal or a runtime one: (a..b).step_by(s)
                return self.for_persistent(st, indent)
            args = args[:2]
        start, stop = ("0i32", args[0]) if len(args) == 1 else (None, args[1])
        if start is None:
            code, ty = self._as_scalar(*self.expr(args[0]))
            if ty != Scalar("i32"):
                raise self.refuse(args[0], "for-range", "range start is not an i32 scalar")
            start = code
        self.last_num_tiles = None
        stop_code, stop_ty = self._as_scalar(*self.expr(stop))
        counts = self.tile_counts.get(stop.id) if isinstance(stop, ast.Name) else self.last_num_tiles
        if stop_ty != Scalar("i32"):
            raise self.refuse(stop, "for-range", "range stop is not an i32 scalar")
        name = st.target.id
        self.carry_scatter_tokens(st, indent)
        # A loop from 0 up to ct.num_tiles(..) is an index cutile's partition checks can discharge (see
        # _plain_index); from another start (`range(1, n)`) cutile keeps a bounds assert before the loop.
        counted = (isinstance(stop, ast.Call) and self.ct(stop.func) == "num_tiles") or \
            (isinstance(stop, ast.Name) and stop.id in self.tile_counts)
        counted = counted and (len(args) == 1 or self._int(args[0]) == 0)
        flag, body = None, st.body
        if (broken := loop_split.plan_break(st, self.partial_bool)) is not None:
            # `if j > X: break`: the flag cuTile Python's for_loop_break carries through both loops loop_split makes
            body, split = broken
            self.need(split.branch, "loop-split", "a loop left by `break` where its index passes a bound")
            flag = self.fresh("zz_broke")   # (carried after the loop's own values, as cuTile Python adds it)
            self.body.append(f"{indent}// `break` as cuTile Python compiles it: a flag the loops carry")
            self.body.append(f"{indent}let mut {flag}: bool = false;")
        else:
            split = loop_split.plan(st, self.partial_bool)
        if split is None:
            return self._range_loop(name, start, stop_code, st.body, counted, indent, loop=st, counts=counts)
        self.need(split.branch, "loop-split", "a loop cuTile Python splits")
        bound, bty = self.expr(split.bound)
        if bty != Scalar("i32"):
            raise self.refuse(split.bound, "loop-split", f"the loop's split point `{self.text(split.bound)}` is "
                                                         "not an i32 scalar")
        at = self.fresh(f"{name}_split")
        self.body.append(f"{indent}// cuTile Python splits this loop where `{self.text(split.branch.test)}` turns "
                         f"(its loop_split pass): the port writes the two loops it compiles to")
        point = f"{_paren(bound)} + 1i32" if split.plus_one else bound
        self.body.append(f"{indent}let {at}: i32 = {point};")
        first_stop, second_start = self.fresh(f"{name}_first_stop"), self.fresh(f"{name}_second_start")
        self.body.append(f"{indent}let {first_stop}: i32 = {self.int_min_max('mini', stop_code, at)};")
        self.body.append(f"{indent}let {second_start}: i32 = {self.int_min_max('maxi', start, at)};")
        first, second = split.arms()
        loop = ast.copy_location(ast.For(st.target, st.iter, body, [], None), st)
        carried = tuple(dict.fromkeys(n.id for b in st.body for n in walk_nodes(b) if isinstance(n, ast.Name) and
                                      isinstance(n.ctx, ast.Store) and n.id in self.env and n.id != name)) \
            if flag else ()
        self._range_loop(name, start, first_stop, split.body(loop, first), counted, indent, flag=flag,
                         passthrough=carried, counts=counts)
        second_body = split.body(loop, second)
        if flag:   # (iterations past the bound only set the flag: what they compute before the `if` for the rest of
            # the body is never read, and cuTile Python drops it; values the loop carries are kept)
            effects = ("store", "scatter", "printf", "print", "assert_")
            second_body = [b for b in second_body if not (
                isinstance(b, ast.Assign) and all(isinstance(t, ast.Name) and t.id not in carried for t in b.targets)
                and not any(isinstance(n, ast.Call) and (self.ct(n.func) is None or self.ct(n.func) in effects or
                                                         self.ct(n.func).startswith("atomic_"))
                            for n in walk_nodes(b.value)))]   # (a helper's call kept: it may write)
        self._range_loop(name, second_start, stop_code, second_body, counted, indent, flag=flag,
                         passthrough=carried, counts=counts)

    def while_loop(self, st: ast.While, indent: str) -> None:
        """`while C:` on runtime scalars: the same `while` in Rust, which cutile compiles as cuTile Python does (a
        Tile IR `loop` whose body first breaks unless C, then continues with the re-assigned values)."""
        if st.orelse:
            raise self.refuse(st, "while", "`while` with `else`")
        writes = [n for n in walk_nodes(st.test) if isinstance(n, ast.Call) and
                  (self.ct(n.func) == "scatter" or self.ct(n.func) in ATOMIC_MODES)]
        if writes and not self.acq_mode:   # (cutile's `while` evaluates its condition in the loop, but the port computes a condition's
            # operands before the `while` line: a write there would run once)
            acquire = " (an acquiring one: a spin lock, whose acquire token cuTile Python carries through the loop " \
                "and joins into every later memory operation of every array, which the port does not carry)" \
                if self.ct(writes[0].func) in ATOMIC_MODES and self._acquires(writes[0]) else ""
            raise self.refuse(writes[0], "while", f"a ct.{self.ct(writes[0].func)} in a `while` condition{acquire}: "
                                                  "its token is carried only from the loop's body")
        self.need(st, "while", "while loop")
        self.carry_scatter_tokens(st, indent)   # (a scatter's or an atomic's token, carried by the loop)
        facts = self.assume_carried(st)
        ok, always = self.const_value(st.test)
        if ok and always and not isinstance(always, str) and not writes:   # `while True:` left by `break`: cuTile
            self.body.append(f"{indent}loop {{")   # Python's loop without a test, cutile's `loop`
            self.body.extend(f"{indent}    {line}" for line in facts)
        else:
            outer, self.body = self.body, []
            self.test_atomics = {} if writes else None   # (an atomic in the condition: performed once per evaluation)
            try:
                cond = self.test(ast.copy_location(ast.If(st.test, [], []), st))
                computed = self.body
            finally:
                self.body = outer
                self.test_atomics = None
            if computed:   # a condition computed by statements (`a and b` short-circuits, a helper, an atomic): computed
                # again in every iteration, first thing, the loop left unless it holds — Rust's `while` would compute it
                # once (the carried values' facts stated before it: see assume_carried)
                self.body.append(f"{indent}loop {{")
                self.body.extend(f"{indent}    {line}" for line in facts + computed)
                self.body.append(f"{indent}    if {cond} {{}} else {{")
                self.body.append(f"{indent}        break;")
                self.body.append(f"{indent}    }}")
            elif facts:   # (stated first in each iteration, before the test reads them: a block as the condition)
                self.body.append(f"{indent}while {{")
                self.body.extend(f"{indent}    {line}" for line in facts)
                self.body.append(f"{indent}    {cond}")
                self.body.append(f"{indent}}} {{")
            else:
                self.body.append(f"{indent}while {cond} {{")
        self.break_flags.append(WHILE_BREAK)   # `break` and `continue` are the loop's own (cuTile Python's too)
        try:
            self.scoped(st.body, indent + "    ", loop=True)
        finally:
            self.break_flags.pop()
        self.body.append(f"{indent}}}")

    def _range_loop(self, name: str, start: str, stop: str, body: list[ast.stmt], counted: bool,
                    indent: str, loop: ast.For | None = None, flag: str | None = None,
                    passthrough: tuple[str, ...] = (),
                    counts: tuple[str, int, tuple[str, ...]] | None = None) -> None:
        """``flag``: the `break` flag declared before the loop (the two loops of a split broken loop share it);
        ``passthrough``: the values the loop they were split from carries; ``counts``: what a ``counted`` loop
        counts (the array, axis and tile shape of its ct.num_tiles; None: not known)."""
        for st in body if flag is None else ():   # `if j >= X: break` (X loop-invariant): cuTile Python's loop_split turns it into a bound
            if isinstance(st, ast.If) and _breaks(st.body + st.orelse) and isinstance(st.test, ast.Compare) and \
                    len(st.test.ops) == 1 and any(isinstance(n, ast.Name) and n.id == name
                                                  for n in (st.test.left, st.test.comparators[0])) and \
                    sum(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(st.test)) == 1:
                raise self.refuse(st, "for-break", f"`if {self.text(st.test)}: break` on the loop index against a "
                                                   "loop-invariant value: cuTile Python's loop_split makes it the "
                                                   "loop's bound (`min(stop, ..)`), which the port does not write yet")
        if flag is None and _breaks(body):   # cuTile Python's for_loop_break: a flag carried through the loop, each iteration after
            # the `break` skipped (a `continue` first thing), the `break` itself setting it and continuing
            # (named to sort after the loop's own values and before the `zz_<array>_token`s: cutile carries
            # by name, cuTile Python adds the flag after the values the loop assigns and the tokens after it)
            flag = self.fresh("zz_0_broke")
            self.body.append(f"{indent}// `break` as cuTile Python compiles it: a flag the loop carries")
            self.body.append(f"{indent}let mut {flag}: bool = false;")
        bounds = f"{_paren(_typed_int(start))}..{_paren(_typed_int(stop))}"
        known = [self._extent(b.strip().removesuffix("i32")) for b in (start, stop)]
        empty = None not in known and known[1] <= known[0]   # (`range(0)`, `range(N)` at N = 0: no iteration)
        if empty or self._indexes_extract(loop.target.id if isinstance(loop, ast.For) and
                                          isinstance(loop.target, ast.Name) else name, body):
            # (an empty range: cutile 0.3.1 states `assume bounded<lo, hi-1>` with hi-1 < lo, which Tile IR's
            # verifier rejects — tileirdisasm: "expects lower bound to be less than or equal to upper bound")
            # cutile 0.3.1 states a loop index's range (`assume bounded<lo, hi-1>`) where it knows both bounds, which
            # cuTile Python does not; on a ct.extract index tileiras then builds the tile as a stack array (mHC's
            # apply-residual at N=8: 512 stores, 6x slower). Bounds read from 0-d tiles are not known to it.
            lo, hi = self.fresh(f"{name}_start"), self.fresh(f"{name}_end")
            self.body.append(f"{indent}// the bounds as 0-d tiles: cutile then states no range for `{name}`, as cuTile "
                             "Python states none (docs/corpus.md, limits of cutile 0.3.1)")
            self.body.append(f"{indent}let {lo}: Tile<i32, {{ [] }}> = broadcast_scalar({_typed_int(start)}, shape![]);")
            self.body.append(f"{indent}let {hi}: Tile<i32, {{ [] }}> = broadcast_scalar({_typed_int(stop)}, shape![]);")
            bounds = f"tile_to_scalar::<i32, i32>({lo})..tile_to_scalar::<i32, i32>({hi})"
        self.body.append(f"{indent}for {name} in {bounds} {{")
        if loop is not None:
            self.body.extend(f"{indent}    {line}" for line in self.assume_carried(loop))
        if flag:
            self.body.append(f"{indent}    if {flag} {{")
            self.body.append(f"{indent}        continue;")
            self.body.append(f"{indent}    }}")
            # (the two loops of a split broken loop: cuTile Python carries the flag and every value the loop it split
            # carried through both, unchanged where a loop does not assign it; cutile carries what a loop assigns)
            own = {n.id for b in body for n in walk_nodes(b) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            for carried in ([] if _breaks(body) else [flag]) + [v for v in passthrough if v not in own]:
                self.body.append(f"{indent}    {carried} = {carried};")
        if counted:
            self.tile_loop_vars[name] = counts
        self.break_flags.append(flag)
        try:
            self.scoped(body, indent + "    ", {name: (name, Scalar("i32"))}, loop=True)
        finally:
            self.break_flags.pop()
        self.tile_loop_vars.pop(name, None)
        self.body.append(f"{indent}}}")

    def assume_carried(self, loop: ast.For | ast.While) -> list[str]:
        """The divisibility facts cuTile Python states on the values ``loop`` carries, first thing in its body
        (its add_divby_pass: `assume div_by<P>` on each loop body parameter its dataflow knows a multiple of P > 1;
        see divby.py), as statements re-binding each carried variable to its assumed value: every read in the body
        (and the value the body continues or breaks with, where it is not re-assigned) then takes it, as in cuTile
        Python."""
        if self.loop_facts is None:
            self.loop_facts = divby.LoopFacts(self).facts
        lines = []
        for name, fact in sorted(self.loop_facts.get(id(loop), {}).items()):
            div = fact.stated()
            bound = self.env.get(name)
            if div <= 1 or bound is None or name not in self.mutated or name not in self.read_names or \
                    bound[0] != name or not isinstance(bound[1], (Scalar, Tile)) or \
                    bound[1].dtype not in divby._INT_DTYPES:
                continue
            self.need(loop, "assume-carried", "divisibility of a loop-carried value")
            self.unsafe_site(loop, f"assume_div_by::<{div}> of the loop-carried `{name}`",
                             "cutile states facts about a value only through unsafe assume ops",
                             f"`{name}` is a multiple of {div} at every iteration: each "
                             "value the kernel gives it is (cuTile Python's dataflow "
                             "analysis derives and states the same fact)")
            lines.append(f"// SAFETY: `{name}` is a multiple of {div} at every iteration (each value it is given "
                         "is), as cuTile Python's dataflow finds and states")
            lines.append(f"{name} = unsafe {{ assume_div_by::<_, {div}>({name}) }};")
        return lines

    @staticmethod
    def _as_scalar(code: str, ty: Ty) -> tuple[str, Ty]:
        """A 0-d tile (a reduction, a gathered value) as the scalar it holds (the same value in Tile IR)."""
        if isinstance(ty, Tile) and ty.shape == ():
            elem = RUST_DTYPES[ty.dtype]
            return f"tile_to_scalar::<{elem}, {elem}>({code})", Scalar(ty.dtype)
        return code, ty

    def _scope_id(self) -> int:
        """The block being emitted: the kernel's body, or the innermost open branch/loop body."""
        return id(self.scope_locals[-1]) if self.scope_locals else 0

    def int_min_max(self, fn: str, a: str, b: str, dtype: str = "i32", options: str = "") -> str:
        """``mini``/``maxi`` of two i32 scalars (Rust code of each): the signed op on 0-d tiles, as cuTile Python
        computes ``min(a, b)`` of integers; ``minf``/``maxf`` of two f32 ones alike (``options``: nan, ftz)."""
        lhs, rhs = self.fresh("lhs"), self.fresh("rhs")
        out = self.fresh("minimum" if fn in ("mini", "minf") else "maximum")
        return (f"{{ let {lhs}: Tile<{dtype}, {{ [] }}> = scalar_to_tile::<{dtype}>({a});\n"
                f"let {rhs}: Tile<{dtype}, {{ [] }}> = scalar_to_tile::<{dtype}>({b});\n"
                f"let {out}: Tile<{dtype}, {{ [] }}> = {fn}({lhs}, {rhs}{options});\n"
                f"tile_to_scalar::<{dtype}, {dtype}>({out}) }}")

    def carry_read_chains(self, st: ast.For, indent: str) -> tuple[list[str], list[str]]:
        """cuTile Python orders a write after every earlier read of its array, across loops too: a loop that only
        reads an array written after it carries the join of its reads (a `let mut` token), and a loop that then
        writes the array starts from that join (see gather, scatter). Returns (arrays whose reads this loop
        chains, arrays whose writes here start from an earlier loop's chain), for end_read_chains."""
        if self.acq_mode:   # (every array's tokens are carried already: see acquire_ordered)
            return [], [], []
        read, written = self._arrays_accessed(st, "gather"), self._arrays_accessed(st, "scatter")
        later = {n.args[0].id for n in self.live_walk() if isinstance(n, ast.Call) and n.args and
                 isinstance(n.args[0], ast.Name) and self.ct(n.func) == "scatter" and n.lineno > st.end_lineno}
        # the arrays some loop nested in this one only reads
        only_read_inside = set().union(*(self._arrays_accessed(n, "gather") - self._arrays_accessed(n, "scatter")
                                         for n in walk_nodes(st) if isinstance(n, ast.For) and n is not st))
        chained, started, ops = [], [], []
        for arr in sorted(read & written):   # a loop that writes the array and holds a loop only reading it: the
            # join of those reads is carried too (the array's last op), as cuTile Python carries it
            if arr in self.op_tokens or arr not in only_read_inside:
                continue
            var = self.fresh(f"{arr}_last_op")
            start = self.read_chains.pop(arr, None) or self.carried_tokens.get(arr) or \
                self.scatter_tokens.get(arr) or f"get_tensor_token({self.tensor_arg(arr)})"
            self.body.append(f"{indent}// {arr}'s last access (its reads joined after its last write), carried through "
                             "the loop as cuTile Python carries it")
            self.body.append(f"{indent}let mut {var}: Token = {start};")
            self.op_tokens[arr] = var
            ops.append(arr)
        for arr in sorted((read - written) & later):
            if arr in self.chained_reads:
                continue
            start = self.read_chains.get(arr) or self.op_tokens.get(arr) or self.carried_tokens.get(arr) or \
                self.scatter_tokens.get(arr) or f"get_tensor_token({self.tensor_arg(arr)})"
            here = self._scope_id()   # reads of it before the loop, in this scope: joined first, as cuTile Python's
            # last-op token holds them when the loop begins
            if before := [t for t, scope in self.reads.get(arr, []) if scope == here]:
                start = _join_chain(start, before)
                self.reads[arr] = [(t, scope) for t, scope in self.reads[arr] if scope != here]
            # (`zz_`: carried after the kernel's own variables, as cuTile Python carries its tokens; see
            # carry_scatter_tokens)
            var = self.fresh(f"zz_{arr}_reads")
            self.body.append(f"{indent}// {arr}'s reads in the loop, joined for its write after it (as cuTile Python "
                             "orders them)")
            self.body.append(f"{indent}let mut {var}: Token = {start};")
            self.chained_reads[arr] = var
            chained.append(arr)
        for arr in sorted(written):
            if arr in self.read_chains and arr not in self.after_reads:
                var = self.fresh(f"{arr}_after_reads")
                start = self.read_chains.pop(arr)
                here = self._scope_id()   # reads of it between the two loops, in this scope: joined first, as
                # cuTile Python's last-op token holds them when this loop begins (a label's gather)
                if before := [t for t, scope in self.reads.get(arr, []) if scope == here]:
                    start = _join_chain(start, before)
                    self.reads[arr] = [(t, scope) for t, scope in self.reads[arr] if scope != here]
                self.body.append(f"{indent}let mut {var}: Token = {start};")
                self.after_reads[arr] = var
                started.append(arr)
        return chained, started, ops

    def _arrays_accessed(self, loop: ast.For, op: str) -> set[str]:
        """The arrays ``loop`` (the code of it a specialization compiles) calls ct.``op`` on."""
        return {n.args[0].id for n in self.live_walk(loop) if isinstance(n, ast.Call) and n.args and
                isinstance(n.args[0], ast.Name) and self.ct(n.func) == op}

    def end_read_chains(self, chained: list[str], started: list[str], ops: list[str], indent: str) -> None:
        for arr in chained:   # the reads' join: what the next write of the array waits for
            self.read_chains[arr] = self.chained_reads.pop(arr)
        for arr in started:
            done = self.after_reads.pop(arr)
            if arr in self.op_tokens:   # the enclosing loop's last op of the array: this loop's
                self.body.append(f"{indent}{self.op_tokens[arr]} = {done};")
            else:   # the array's last op after the loop (its earlier reads and this loop's accesses, joined): a
                # later write waits on it, as cuTile Python's waits on the loop's last-op result (not its last
                # write, which a loop that never runs leaves before the earlier reads)
                self.read_chains[arr] = done
        for arr in ops:
            self.op_tokens.pop(arr)

    def carry_scatter_tokens(self, st: ast.For | ast.While, indent: str) -> None:
        """Arrays scattered into (or updated by an atomic) inside the loop ``st``: their token is carried through the
        loop (a `let mut` re-assigned by each scatter: a loop-carried value), as cuTile Python threads its token
        through the loop's iterations, so each iteration's writes are ordered after the previous one's (a `while`
        loop's stores are never parallel: cuTile Python parallelizes only `for` loops' stores)."""
        for node in self.live_walk(st):
            if self.acq_mode and not (isinstance(node, ast.Call) and self.ct(node.func) == "store" and node.args
                                      and isinstance(node.args[0], ast.Name) and node.args[0].id in
                                      self.inplace_tokens):
                continue   # (every array's tokens are carried already, see acquire_ordered: only a parallel store)
            if isinstance(node, ast.Call) and self.ct(node.func) == "store" and node.args and \
                    isinstance(node.args[0], ast.Name) and node.args[0].id in self.inplace_tokens:
                # an array updated in place: its tokens are carried already (see ordered_in_place); a parallel
                # store (this loop's only access of it, at the loop index) starts from the token before the loop
                arr = node.args[0].id
                if any(isinstance(b, ast.Expr) and b.value is node for b in self._straight_line(st.body)) and \
                        not self._unchecked_store(node, st, parallel=True):
                    before = self.fresh(f"{arr}_before_loop")
                    entry = self.ordered_input(arr, True) if self.acq_mode else self.inplace_tokens[arr][0]
                    self.body.append(f"{indent}let {before}: Token = {entry};")
                    self.parallel_stores[id(node)] = before
                continue
            if isinstance(node, ast.Call) and self.ct(node.func) == "store" and node.args and \
                    isinstance(node.args[0], ast.Name) and node.args[0].id in self.carried_tokens and \
                    node.args[0].id in self.outputs and any(isinstance(b, ast.Expr) and b.value is node
                                                            for b in self._straight_line(st.body)) and \
                    not self._unchecked_store(node, st, parallel=True):
                # a parallel store of this loop whose array an enclosing loop orders: cuTile Python stores it on
                # the token from before this loop and joins each store into the carried one (see store_general)
                arr = node.args[0].id
                before = self.fresh(f"{arr}_before_loop")
                self.body.append(f"{indent}let {before}: Token = {self.carried_tokens[arr]};")
                self.parallel_stores[id(node)] = before
                continue
            if isinstance(node, ast.Call) and self.ct(node.func) == "store" and node.args and \
                    isinstance(node.args[0], ast.Name) and node.args[0].id in self.outputs and \
                    node.args[0].id not in self.carried_tokens and self._unchecked_store(node, st):
                arr = node.args[0].id
                # (`zz_`: cutile 0.3.1 orders a loop's carried values by name (a BTreeMap); cuTile Python carries
                # its tokens after the variables, so the token's name must sort after theirs: `tile_id_c`)
                var = self.fresh(f"zz_{arr}_token")
                self.body.append(f"{indent}// the order of {arr}'s stores, carried through the loop as cuTile Python "
                                 "carries it")
                self.body.append(f"{indent}let mut {var}: Token = get_tensor_token({self.tensor_arg(arr)});")
                self.carried_tokens[arr] = var
                continue
            if isinstance(node, ast.Call) and (self.ct(node.func) == "scatter" or self.ct(node.func) in ATOMIC_MODES) \
                    and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id not in self.carried_tokens \
                    and \
                    (node.args[0].id not in self.scatter_tokens or self.scatter_tokens[node.args[0].id]):
                arr = node.args[0].id
                var = self.fresh(f"zz_{arr}_token")   # (sorts after the carried variables: see above)
                self.body.append(f"{indent}// the order of {arr}'s writes, carried through the loop as cuTile Python "
                                 "carries it")
                # (after an earlier scatter into it: from that one's token)
                start = self.scatter_tokens.get(arr) or f"get_tensor_token({self.tensor_arg(arr)})"
                self.body.append(f"{indent}let mut {var}: Token = {start};")
                self.carried_tokens[arr] = var

    def _arm_scatter_chains(self, body: list[ast.stmt]) -> dict[str, int]:
        """Arrays scattered into two or more times among the statements of one `if` arm itself (an early-return
        guard's `else`: a varlen RoPE writing both halves of q at data offsets), never deeper in it, by no atomic,
        not before the `if` and not by a loop around it: their scatters chain inside the arm as top-level ones do
        (each after the previous one's token, the first from the array's token before the `if`), as cuTile Python
        orders them; no token leaves the arm (a later write into the array is refused). Array → count."""
        if self.acq_mode:
            return {}
        own = [n for st in body if isinstance(st, ast.Expr) and isinstance(n := st.value, ast.Call)
               and self.ct(n.func) == "scatter" and n.args and isinstance(n.args[0], ast.Name)]
        counts: dict[str, int] = {}
        for n in own:
            counts[n.args[0].id] = counts.get(n.args[0].id, 0) + 1   # type: ignore[attr-defined]
        deep = [n for n in self.live_walk(*body) if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name)
                and (self.ct(n.func) in ATOMIC_MODES or self.ct(n.func) == "scatter") and n not in own]
        return {arr: c for arr, c in counts.items() if c > 1 and arr not in self.scatter_tokens
                and arr not in self.carried_tokens and not any(n.args[0].id == arr for n in deep)}

    def _scatters_in_arms(self, st: ast.If) -> list[str]:
        """Arrays scattered into (or updated by pointer atomics) in two or more arms of the runtime `if` ``st`` and
        not before it (a fused MoE kernel writing zeros for an empty expert's block, its products otherwise): the
        arms exclude each other, so cuTile Python orders each arm's write after the array's token from before the
        `if` alone, and yields none when nothing reads the array after it. Each arm then starts from that token
        (see _if_arms); a write after the `if` is refused (its order would need the `if` to yield a token)."""
        arms: list[list[ast.stmt]] = []
        node: ast.If = st
        while True:
            arms.append(node.body)
            if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                node = node.orelse[0]
                continue
            if node.orelse:
                arms.append(node.orelse)
            break
        counts: dict[str, int] = {}
        for body in arms:
            for arr in {n.args[0].id for n in self.live_walk(*body)
                        if isinstance(n, ast.Call) and (self.ct(n.func) == "scatter" or self.ct(n.func) in ATOMIC_MODES)
                        and n.args and isinstance(n.args[0], ast.Name)}:
                counts[arr] = counts.get(arr, 0) + 1
        return sorted(a for a, c in counts.items() if c > 1 and a not in self.carried_tokens and
                      a not in self.scatter_tokens)

    def _unchecked_store(self, call: ast.Call, loop: ast.For, parallel: bool = False) -> bool:
        """Whether the ct.store ``call`` inside ``loop`` goes through store_general (not a block-owned store, not
        the grid-stride schedule of ``store_scheduled``) ordered by a token the loop carries; ``parallel``: judge
        only whether cuTile Python leaves it unordered across the loop's iterations."""
        out = self.outputs[call.args[0].id]
        if out.general and not parallel:
            return True
        kw = {k.arg: k.value for k in call.keywords}
        index = kw.get("index", call.args[1] if len(call.args) > 1 else None)
        # (one of alternatives, the arms of a constant `if`, is stored through the full partition at a block map, or
        # else unchecked at its index as a single store is: see store)
        if not parallel and (self._is_block_index(index, out.sig.rank) is not None or out.parts > 1 or
                             (out.alternatives > 1 and self._bijective_block_index(index, out.sig.rank) is not None)):
            return False
        # cuTile Python's token order leaves a loop's store unordered across iterations (a "parallel store") when it
        # sits in the loop body itself, is the loop's only memory operation on its array, and some index is the
        # loop variable: then no token is carried
        arr = call.args[0].id
        direct = any(isinstance(b, ast.Expr) and b.value is call for b in self._straight_line(loop.body))
        others = [n for n in self.live_walk(*loop.body)
                  if isinstance(n, ast.Call) and n is not call and n.args and
                  isinstance(n.args[0], ast.Name) and n.args[0].id == arr and
                  self.ct(n.func) in ("load", "store", "gather", "scatter") or
                  (isinstance(n, ast.Call) and self.ct(n.func) is not None and
                   self.ct(n.func).startswith("atomic") and n.args and isinstance(n.args[0], ast.Name) and
                   n.args[0].id == arr)]
        by_iv = isinstance(index, ast.Tuple) and isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and \
            any(isinstance(e, ast.Name) and e.id == loop.target.id for e in index.elts)
        return not (direct and not others and by_iv)

    def _indexes_extract(self, name: str, body: list[ast.stmt]) -> bool:
        """Whether the loop index ``name`` reaches the index of a ct.extract the loop's body compiles: directly, through
        names assigned from it (`k = j + 1`), or through a helper's parameter it is passed as."""
        def mentions(node: ast.AST, names: set[str]) -> bool:
            return any(isinstance(x, ast.Name) and x.id in names for x in walk_nodes(node))

        todo, seen = [(list(body), {name})], set()
        while todo:
            stmts, names = todo.pop()
            for n in self.live_walk(*stmts):   # (breadth first, in source order: an assignment before its uses)
                if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and n.value is not None and \
                        mentions(n.value, names):
                    names |= {t.id for t in walk_nodes(n) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)}
                elif isinstance(n, ast.Call) and self.ct(n.func) == "extract":
                    index = n.args[1] if len(n.args) > 1 else next((k.value for k in n.keywords if k.arg == "index"),
                                                                   None)
                    if index is not None and mentions(index, names):
                        return True
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in self.helpers and \
                        (n.func.id, frozenset(names)) not in seen:
                    helper = self.helpers[n.func.id]
                    passed = {p.arg for p, a in zip(helper.args.args, n.args) if mentions(a, names)}
                    if passed:
                        seen.add((n.func.id, frozenset(names)))
                        todo.append((list(helper.body), passed))
        return False

    def _straight_line(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """``stmts`` with every `if` on constants replaced by its taken arm (cuTile Python folds them before it
        orders memory operations)."""
        out: list[ast.stmt] = []
        for st in stmts:
            c = self.const_value(st.test) if isinstance(st, ast.If) else (False, None)
            out.extend(self._straight_line(st.body if c[1] else st.orelse) if c[0] else [st])
        return out

    def for_persistent(self, st: ast.For, indent: str) -> None:
        """`for t in range(start, stop, ct.num_blocks(k))`: a grid-stride loop. Its stores are not at the block's
        own index, so they go through an explicit `unsafe` schedule (see `store`)."""
        it = st.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and len(it.args) == 3 and isinstance(st.target, ast.Name) and not st.orelse):
            raise self.refuse(st, "for-persistent", f"`for` over {self.text(it)}")
        self.need(st, "for-persistent", "persistent loop")
        # (a bound read from memory, `range(ct.gather(row_ptr, r), ..)`, is a 0-d tile: the scalar it holds)
        (start, ts), (stop, tp), (step, tq) = (self._as_scalar(*self.expr(a)) for a in it.args)
        # int64 bounds (`range(start, end, BT)` of an int64 cu_seqlens' gathered offsets): cuTile Python loops over
        # i64 (`for %i in (%a to %b, step %c_i64) : tile<i64>`); cutile 0.3.1 types the loop, its index and its step
        # by the start's type, but compiles `BT as usize` as an i32 (a cast is a relabel, i64 -> usize none): the
        # step is written as its folded value, a literal cutile types as the start's i64
        wide = ts == tp == Scalar("i64")
        folded = self.const_value(it.args[2])
        if wide and not (folded[0] and type(folded[1]) is int and folded[1] > 0):
            raise self.refuse(it, "for-persistent", "an int64 range with a step not known at translation time "
                                                    "(cutile 0.3.1 types a loop's step as its start's, and no "
                                                    "expression of Rust's usize compiles to an i64)")
        if not (ts == tp == tq == Scalar("i32") or wide):
            raise self.refuse(it, "for-persistent", "range bounds are not i32 scalars")
        name = st.target.id
        self.carry_scatter_tokens(st, indent)
        step_text = f"{folded[1]}" if wide else f"{_paren(step)} as usize"
        bounds = f"{_typed_int(start)}..{_typed_int(stop)}"
        known = [self.const_value(a) for a in it.args[:2]]
        if all(ok and type(v) is int for ok, v in known) and known[1][1] <= known[0][1] and not wide:
            # an empty range known here (`range(1, N, 2)` at N = 1): cutile 0.3.1 would state `assume bounded<lo,
            # hi-1>` with hi-1 < lo, which Tile IR's verifier rejects; bounds read from 0-d tiles get none (as in
            # _range_loop)
            lo, hi = self.fresh(f"{name}_start"), self.fresh(f"{name}_end")
            self.body.append(f"{indent}// an empty range: its bounds as 0-d tiles (cutile then states no range)")
            self.body.append(f"{indent}let {lo}: Tile<i32, {{ [] }}> = broadcast_scalar({_typed_int(start)}, shape![]);")
            self.body.append(f"{indent}let {hi}: Tile<i32, {{ [] }}> = broadcast_scalar({_typed_int(stop)}, shape![]);")
            bounds = f"tile_to_scalar::<i32, i32>({lo})..tile_to_scalar::<i32, i32>({hi})"
        self.body.append(f"{indent}for {name} in ({bounds}).step_by({step_text}) {{")
        self.body.extend(f"{indent}    {line}" for line in self.assume_carried(st))
        nonneg_start = isinstance(it.args[0], ast.Call) and self.ct(it.args[0].func) == "bid" or \
            (self._int(it.args[0]) or -1) >= 0
        stop_name = it.args[1].id if isinstance(it.args[1], ast.Name) else None
        if nonneg_start and stop_name in self.tile_counts:
            self.loop_bounds[name] = (stop_name, self.tile_counts[stop_name])
        self.break_flags.append(None)   # (its `continue` is the loop's own, as in cuTile Python; a `break` is refused)
        try:
            self.scoped(st.body, indent + "    ", {name: (name, Scalar("i64" if wide else "i32"))}, loop=True)
        finally:
            self.break_flags.pop()
        self.loop_bounds.pop(name, None)
        self.body.append(f"{indent}}}")

    def scoped(self, stmts: list[ast.stmt], indent: str, bind: dict[str, tuple[str, Ty]] | None = None,
               yields: list[str] | None = None, loop: bool = False) -> list[Ty]:
        """Translate a branch or loop body; names it defines (and ``bind``, e.g. a loop variable) end with it.
        Outer names it re-assigns keep their type (checked at the assignment), so nothing else changes. ``yields``:
        names the body ends by yielding (a Rust block's value); their types are returned. ``loop``: a loop body."""
        saved = dict(self.env)
        saved_tokens = dict(self.carried_tokens)   # (a token a loop in this scope declared ends with it too)
        self.env.update(bind or {})
        self.scope_locals.append(set())
        self.block_serial += 1
        assigned = {n.id for st in stmts for n in walk_nodes(st) if isinstance(n, ast.Name) and
                    isinstance(n.ctx, ast.Store)} if loop else None
        self.block_keys.append((self.block_serial, assigned))
        if loop:
            self.loop_bodies.append(stmts)
        types: list[Ty] = []
        try:
            self.stmts(stmts, indent, nested=True)
            for name in yields or []:
                if name not in self.env:
                    raise self.refuse(stmts[-1], "if-runtime", f"`{name}` is not bound on every path of the `if`")
                types.append(self.env[name][1])
            if yields:
                self.body.append(indent + (yields[0] if len(yields) == 1 else f"({', '.join(yields)})"))
        finally:
            self.scope_locals.pop()
            self.block_keys.pop()
            if loop:
                self.loop_bodies.pop()
        self.carried_tokens = saved_tokens
        for name in list(self.env):
            if name not in saved:
                del self.env[name]  # defined only inside the branch: not visible after it (as in Rust)
            elif self.env[name] != saved[name]:
                self.env[name] = saved[name]
        return types

    def test(self, st: ast.If) -> str:
        """An `if`'s condition: on constants, a test of the const generics that cutile folds (as Python does); on
        runtime scalars, a Tile IR `if` in both languages."""
        if self._constant_test(st.test):
            self.need(st, "if-constant", "constant if")
            return self.condition(st.test)
        self.need(st, "if-runtime", "if on a runtime value")
        test, evaluated = st.test, {}
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in SCALAR_COMPARE:
            # each side translated once (a side that reads memory, `ct.gather(cu, mid) <= t`, emits its read),
            # then compared as below through names standing for the translated sides
            sides = []
            for n in (test.left, test.comparators[0]):
                if _literal(n) is not None or self.const_value(n)[0]:
                    sides.append(n)
                    continue
                tmp = self.fresh("zz_side")
                evaluated[tmp] = n
                self.env[tmp] = self.expr(n)
                sides.append(ast.copy_location(ast.Name(tmp, ast.Load()), n))
            test = ast.copy_location(ast.Compare(sides[0], test.ops, sides[1:]), test)
        try:
            return self._runtime_test(st, test)
        finally:
            for tmp in evaluated:
                self.env.pop(tmp, None)

    def _runtime_test(self, st: ast.If, test: ast.expr) -> str:
        code, ty = self.expr(test)
        if ty == Tile("bool", ()) and isinstance(test, ast.Compare) and len(test.ops) == 1 and \
                type(test.ops[0]) in SCALAR_COMPARE:   # a 0-d tile (a reduction, a gathered value) compared:
            # the same comparison of the values (a 0-d tile is a scalar in Tile IR)
            sides = []
            for n in (test.left, test.comparators[0]):
                c, t = self._as_scalar(*self.expr(n))
                sides.append((c, t, n))
            (lc, lt, ln), (rc, rt, rn) = sides
            if isinstance(lt, Scalar) and isinstance(rt, Scalar) and lt.dtype != rt.dtype:
                ok, value = self.const_value(rn if _literal(rn) is not None else ln)
                if _literal(rn) is not None and ok:
                    rc, rt = rust_literal(value, lt.dtype), lt
                elif _literal(ln) is not None and ok:
                    lc, lt = rust_literal(value, rt.dtype), rt
                elif {lt.dtype, rt.dtype} == {"i32", "i64"}:   # a gathered i64 id and an i32 argument (`tok !=
                    # PAD`): the i32 widened, as Python promotes it
                    lc, rc = self.widen_i64_sides(test, sides)
                    lt = rt = Scalar("i64")
            if lt == rt and isinstance(lt, Scalar):
                return f"{_paren(lc)} {SCALAR_COMPARE[type(test.ops[0])]} {_paren(rc)}"
        if ty != Scalar("bool"):
            raise self.refuse(st.test, "if-runtime", f"condition `{self.text(st.test)}` is not a scalar comparison")
        return code

    def condition(self, node: ast.AST) -> str:
        if isinstance(node, ast.Name):
            p = self.params.get(node.id)
            if isinstance(p, sigmod.ConstSig) and isinstance(p.value, int) and not isinstance(p.value, bool):
                return f"{node.id} != 0"   # an int constant's truth
            return self.cond_operand(node)
        if isinstance(node, ast.BoolOp):
            op = " && " if isinstance(node.op, ast.And) else " || "
            return op.join(f"({self.condition(v)})" for v in node.values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            # cutile's compiler has no `!` (a unary op other than negation): a known operand is decided here, a
            # comparison is inverted
            ok, value = self.const_value(node.operand)
            if ok and isinstance(value, (bool, int)):
                return "false" if value else "true"
            inner = node.operand
            if isinstance(inner, ast.Compare) and len(inner.ops) == 1 and type(inner.ops[0]) in NEGATED_COMPARE:
                return self.condition(ast.Compare(inner.left, [NEGATED_COMPARE[type(inner.ops[0])]()],
                                                  inner.comparators))
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            ops = SCALAR_COMPARE
            if type(node.ops[0]) in ops:
                return f"{self.cond_operand(node.left)} {ops[type(node.ops[0])]} " \
                       f"{self.cond_operand(node.comparators[0])}"
        raise self.refuse(node, "if-constant", f"condition `{self.text(node)}`")

    def float_special(self, node: ast.Call, text: str) -> tuple[str, Ty]:
        """``float('inf')`` / ``float('-inf')`` / ``float('nan')``: an f32 scalar, as cuTile Python folds it."""
        self.need(node, "float-special", f"float({text!r})")
        try:
            value = float(text)
        except ValueError:
            raise self.refuse(node, "float-special", f"float({text!r})") from None
        if value == value and not math.isinf(value):
            raise self.refuse(node, "float-special", f"float({text!r}) of a finite value: write the literal")
        if value != value:
            raise self.refuse(node, "float-special", "float('nan'): cutile 0.3.1's `constant` names only ZERO, ONE, "
                                                     "INFINITY, NEG_INFINITY and E (`f32::NAN`: \"Constant not "
                                                     "supported\"), and no literal spells a NaN")
        name = "INFINITY" if value > 0 else "NEG_INFINITY"
        # a 0-d constant tile (cutile types `constant(..)` from its binding; a bare `f32::NAME` it cannot type)
        return self.typed(f"constant(f32::{name}, shape![])", Tile("f32", ()), None, "special")

    def constant_literal(self, node: ast.Name, value) -> tuple[str, Scalar]:
        """A `ct.Constant[float|bool]`: stable Rust has no float or bool const generics, so the value is written
        into the entry as a literal (an entry per distinct value; see pipeline.port.translate)."""
        self.need(node, "param-constant-other", f"constant {node.id}={value!r}")
        if isinstance(value, bool):
            return ("true" if value else "false"), Scalar("bool")
        if isinstance(value, float) and value == value and abs(value) != float("inf"):
            return rust_literal(value, "f32"), Scalar("f32")
        raise self.refuse(node, "param-constant-other", f"constant {node.id}={value!r}")

    def cond_operand(self, node: ast.AST) -> str:
        if isinstance(node, ast.Name) and node.id in self.constants:
            p = self.params.get(node.id)
            if isinstance(p, sigmod.ConstSig) and isinstance(p.value, int) and not isinstance(p.value, bool):
                return str(p.value) if node.id in CUTILE_TYPE_PARAMS else node.id
            if isinstance(p, sigmod.ConstSig) and isinstance(p.value, bool):
                return self.constant_literal(node, p.value)[0]
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return str(node.value)
        raise self.refuse(node, "if-constant", f"condition operand `{self.text(node)}`")

    def live_names(self, untaken: set[int] | None = None) -> set[str]:
        """Names whose values reach an effect (a store, a scatter, control flow), transitively through assignments:
        cuTile Python drops a pure value nobody needs — a load, a gather, and then the index gather only it read —
        so the port drops the same ones. ``untaken``: ids of the nodes in arms not taken (default: of the ifs the
        port folds, folded_arms)."""
        def reads(node: ast.AST) -> set[str]:
            out, todo = set(), [node]
            while todo:
                n = todo.pop()
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                    out.add(n.id)
                if isinstance(n, ast.IfExp) and (c := self.const_value(n.test))[0] and type(c[1]) is bool:
                    todo.append(n.body if c[1] else n.orelse)   # (`a if FLAG else b`: the arm not taken reads
                    continue                                      # nothing, as cuTile Python folds it)
                todo.extend(ast.iter_child_nodes(n))
            return out

        assigns: list[tuple[str, ast.AST]] = []
        live: set[str] = set()
        if untaken is None:
            untaken, _ = self.folded_arms   # (what only an arm folded away reads is not needed either)
        for f in (self.fn, *self.helpers.values()):
            for st in walk_nodes(f):
                if id(st) in untaken:
                    continue
                if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                    assigns.append((st.targets[0].id, st.value))
                    if not self._droppable(st.value):
                        live |= reads(st.value)
                elif isinstance(st, ast.Assign):   # `a, b = helper(..)`: what the helper reads is needed
                    live |= reads(st.value)
                elif isinstance(st, (ast.Expr, ast.If, ast.For, ast.Return, ast.While)):
                    parts = [st.value] if isinstance(st, (ast.Expr, ast.Return)) and st.value is not None else \
                        [st.test] if isinstance(st, (ast.If, ast.While)) else [st.iter] if isinstance(st, ast.For) else []
                    for part in parts:
                        live |= reads(part)
                elif isinstance(st, ast.FunctionDef) and st is not self.fn and st.name not in self.helpers:
                    live |= reads(st)
        changed = True
        while changed:
            changed = False
            for name, value in assigns:
                if name in live:
                    new = reads(value) - live
                    if new:
                        live |= new
                        changed = True
        return live

    @functools.cached_property
    def dead_assigns(self) -> set[int]:
        """Ids of the assignments in a loop of the kernel (`f = f * 0.5` in a `for`) whose value nothing at or after
        the loop's start needs: the name is read after that point only by its own assignments, where live_names (flow-
        insensitive) counts a read before the loop too (`acc *= f` then `for ..: f = s`). cuTile Python's SSA
        dead-code elimination drops the value the loop carries, so the port drops the assignment (and then a loop
        left with nothing, see _drop_empty_loop)."""
        live = self.read_names
        untaken, _ = self.folded_arms
        outermost: dict[int, ast.AST] = {}   # an assignment's id: the outermost loop of the kernel holding it

        def loops(node: ast.AST):   # the loops not inside another
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.For, ast.While)):
                    yield child
                else:
                    yield from loops(child)
        for loop in loops(self.fn):
            for n in walk_nodes(loop):
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                        and id(n) not in untaken and self._droppable(n.value):
                    outermost[id(n)] = loop
        if not outermost:
            return set()
        reads: list[tuple[str, int]] = []   # (name, line) of each read that needs its value
        for st in self.walk():
            if id(st) in untaken:
                continue
            if isinstance(st, ast.Assign):
                target = st.targets[0].id if len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) else None
                if target is not None and target not in live and self._droppable(st.value):
                    continue   # (a value nobody reads: its reads need nothing)
                reads += [(n.id, n.lineno) for n in walk_nodes(st.value) if isinstance(n, ast.Name) and
                          isinstance(n.ctx, ast.Load) and n.id != target]   # (its own name: the self-feeding read)
            elif isinstance(st, (ast.Expr, ast.Return, ast.If, ast.While, ast.For, ast.AugAssign)) or \
                    (isinstance(st, ast.FunctionDef) and st is not self.fn):
                parts = [st.test] if isinstance(st, (ast.If, ast.While)) else [st.iter] if isinstance(st, ast.For) \
                    else [st] if not isinstance(st, (ast.Expr, ast.Return)) else [st.value] if st.value else []
                reads += [(n.id, n.lineno) for part in parts for n in walk_nodes(part)
                          if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        dead = set()
        for st in walk_nodes(self.fn):
            if id(st) in outermost:
                name, start = st.targets[0].id, outermost[id(st)].lineno
                if not any(r == name and line >= start for r, line in reads):
                    dead.add(id(st))
        return dead

    def _droppable(self, node: ast.AST) -> bool:
        """An expression without side effects: weak loads, arithmetic, math. (Stores and atomics are statements; a
        relaxed or acquiring load is an effect cuTile Python keeps.)"""
        return all(self.ct(n.func) in PURE_CT_CALLS and not any(
            k.arg == "memory_order" and self.text(k.value).rsplit(".", 1)[-1] != "WEAK" for k in n.keywords)
            for n in walk_nodes(node) if isinstance(n, ast.Call))

    def _constant_test(self, node: ast.AST) -> bool:
        names = {n.id for n in walk_nodes(node) if isinstance(n, ast.Name)}
        if names <= self.constants and not any(isinstance(n, ast.Call) for n in walk_nodes(node)):
            return True
        return self.const_value(node)[0]   # dtypes, constant locals: known here, as in cuTile Python

    def static_dtype(self, node: ast.AST) -> str | None:
        """The dtype ``node`` names when it is a dtype value: ``ct.float32``, ``x.dtype``, a constant conditional of
        those, or a local bound to one; else None."""
        name = self.ct(node)
        if name in CT_DTYPES:
            return CT_DTYPES[name]
        if isinstance(node, ast.Attribute) and node.attr == "dtype" and isinstance(node.value, ast.Name):
            p = self.params.get(node.value.id)
            if isinstance(p, sigmod.ArraySig):
                return p.dtype
            bound = self.env.get(node.value.id)
            if bound is not None and isinstance(bound[1], (Tile, Scalar)):
                return bound[1].dtype
        if isinstance(node, ast.Name):
            return self.dtype_locals.get(node.id)
        if isinstance(node, ast.IfExp) and (c := self.const_value(node.test))[0]:
            return self.static_dtype(node.body if c[1] else node.orelse)
        return None

    def store(self, call: ast.Call, indent: str) -> None:
        kw = {k.arg: k.value for k in call.keywords}
        if not (call.args and isinstance(call.args[0], ast.Name)):
            raise self.refuse(call, "store-other", f"the array stored into is the expression "
                                                   f"`{self.text(call.args[0]) if call.args else '?'}` (bind it to a "
                                                   "name first)")
        arr = call.args[0].id  # classify_arrays checked it is a Name of an output array
        index = kw.get("index", call.args[1] if len(call.args) > 1 else None)
        tile_node = kw.get("tile", call.args[2] if len(call.args) > 2 else None)
        if "traversal_steps" in kw and getattr(call, "_tileport_rewritten", False):   # (a tiled view's store)
            if self.view_steps(kw.pop("traversal_steps"), self.shape_of(kw.pop("tile_shape")), arr) is not None:
                raise self.refuse(call, "tiled-view-steps", STRIDED_VIEW_LIMIT.format(what="store", arr=arr))
        dim_map = None
        if "order" in kw:   # the identity order ('C', (0, 1, ..)) is the default; another is the view's dim map
            order = kw.pop("order")
            rank = self.params[arr].rank if isinstance(self.params.get(arr), sigmod.ArraySig) else 0
            dim_map = self.load_order(order, rank)
            if dim_map is not None and (arr in self.list_items or self.made(arr)):
                raise self.refuse(order, "store-order", f"ct.store with order={self.text(order)} into "
                                                        f"{'a list item' if arr in self.list_items else 'a slice'}")
            if dim_map is not None:
                self.need(order, "store-order", f"ct.store with order={self.text(order)}")
        self.store_dim_map = dim_map
        try:
            self._store(call, arr, kw, index, tile_node, indent)
        finally:
            self.store_dim_map = None

    def _store(self, call: ast.Call, arr: str, kw: dict, index: ast.AST | None, tile_node: ast.AST | None,
               indent: str) -> None:
        if "check_bounds" in kw and self.const_value(kw["check_bounds"]) == (True, False):
            # the in-range claim (`inbounds`) cutile cannot state: the same store without it (irdiff inbounds-hint)
            self.need(kw.pop("check_bounds"), "load-unchecked", "ct.store(.., check_bounds=False)")
        for opt in ("check_bounds", "memory_order", "memory_scope"):   # an option written at its default value
            if opt in kw and (self.const_value(kw[opt]) == (True, True) if opt == "check_bounds" else
                              self.text(kw[opt]).replace("ct.", "") == LOAD_DEFAULTS[opt].replace("ct.", "")):
                kw.pop(opt)   # (`check_bounds=True`, `memory_order=ct.MemoryOrder.WEAK`): the plain store
        extra = sorted(set(kw) - {"index", "tile", "allow_tma", "latency"})
        if extra:
            raise self.refuse(call, "store-other", f"ct.store option(s) {', '.join(extra)}")
        hints = self.memory_hints(kw, "store-options")
        if arr in self.list_items:
            return store_item(self, call, arr, index, tile_node, indent, hints)
        out = self.outputs.get(arr)
        if out is None:   # (only in an arm a specialization never compiles: see classify_arrays, if_chain)
            raise self.refuse(call, "store-other", f"a store into {arr} where this specialization never stores it")
        if out.general or arr in self.slices:   # (a slice: a view no block owns a tile of)
            return self.store_general(call, arr, index, tile_node, indent, hints)
        if out.parts > 1:   # the block's region in parts: each at the block map plus constant tile indices
            axes = self._bijective_block_index(index, out.sig.rank)
            if axes is None or (out.block_map is not None and axes != out.block_map):
                raise self.refuse(call, "store-other", f"{arr} is stored {out.parts} times: each store must be at the "
                                                        "same block ids (ct.bid or a reversal, bound outside branches "
                                                        "and loops) with literal tile indices elsewhere; this one is "
                                                        f"at {self.text(index)}")
            out.block_map = axes
            return self.store_bijective(call, arr, index, tile_node, axes, indent, hints)
        zeros = self._is_block_index(index, out.sig.rank)
        if zeros is None and isinstance(index, ast.Tuple) and len(index.elts) == 1 \
                and isinstance(index.elts[0], ast.Name) and index.elts[0].id in self.loop_bounds:
            if self.store_dim_map is not None:   # (rank 1: no other order)
                raise self.refuse(call, "store-order", "a store with an order at a counted loop's index")
            return self.store_scheduled(call, arr, index.elts[0].id, tile_node, indent, hints)
        # cutile's block-owned store takes no hints, and one output is either block-owned or a full tensor in every
        # arm: a store with hints, or one of alternatives, goes through the partition of the full tensor; so does
        # an array of rank > 3 (cutile's block-owned store exists for ranks 1 to 3, one per grid axis)
        through_partition = zeros is None or hints != NO_HINTS or out.alternatives > 1 or out.sig.rank > 3 or \
            self.store_dim_map is not None or \
            self._store_before_release(call) or bool(self.static_axes(arr))   # (its token orders a releasing
        # atomic: cutile's block-owned store returns none; a static extent: cutile's `&mut Tensor` view of the
        # output states none, cuTile Python's does)
        if through_partition and (axes := self._bijective_block_index(index, out.sig.rank)) is not None:
            return self.store_bijective(call, arr, index, tile_node, axes, indent, hints)
        if zeros is None:   # an index no safe form covers (blocks may share tiles): the unchecked store
            self.need(call, "store-unchecked", f"store to {arr} at index {self.text(index)}")
            out.general = True
            return self.store_general(call, arr, index, tile_node, indent, hints)
        if through_partition:
            raise self.refuse(call, "store-options", f"store to {arr} at index {self.text(index)} with hints or in "
                                                      "arms of a constant if: the index must map the block ids "
                                                      "one-to-one (ct.bid(k) or literal tile indices)")
        code, ty = self.stored_value(tile_node, arr)
        if not isinstance(ty, Tile) or len(ty.shape) != out.sig.rank:
            raise self.refuse(call, "store-other", f"stored value of {arr} is not a rank-{out.sig.rank} tile")
        if ty.dtype != out.sig.dtype:
            raise self.refuse(call, "store-other", f"storing a {ty.dtype} tile into {out.sig.dtype} array {arr} "
                                                    "(cast it with ct.astype first)")
        out.shape = ty.shape
        self.need(call, "store-block-owned", "block-owned store")
        for k in zeros:
            self.unit_grid.add(k)
            self.preconditions.append(f"{arr}.shape[{k}] <= {ty.shape[k]} (one tile along dimension {k}: the launch "
                                      f"grid has extent 1 there, so the block-owned store at block id {k} is the "
                                      f"source's index 0)")
        self.body.append(f"{indent}{arr}.store({code});")

    def stored_value(self, tile_node: ast.AST, arr: str) -> tuple[str, Ty]:
        """The value a ct.store writes: a scalar or a 0-d tile stored into an array of rank n is the tile of n ones
        holding it, as cuTile Python reshapes it."""
        code, ty = self.expr(tile_node)
        sig = self.params.get(arr)
        if isinstance(sig, sigmod.ArraySig) and sig.rank and (isinstance(ty, Scalar) or
                                                              (isinstance(ty, Tile) and ty.shape == ())):
            ones = ("1",) * sig.rank
            if isinstance(ty, Scalar):
                self.need(tile_node, "arith-scalar-broadcast", "a scalar stored")
                code = self.operand_as_tile(code, ty, Tile(ty.dtype, ones), tile_node)
            else:
                code = f"{_paren(code)}.reshape(shape![{', '.join(ones)}])"
            ty = Tile(ty.dtype, ones)
        if isinstance(sig, sigmod.ArraySig) and isinstance(ty, Tile) and ty.dtype != sig.dtype and \
                ty.dtype != "bool" and sig.dtype in RUST_DTYPES and sig.dtype != "bool":
            # cuTile Python converts a tile stored into an array of another dtype, as ct.astype does
            self.need(tile_node, "astype", f"a {ty.dtype} tile stored into {sig.dtype} array {arr}")
            out = Tile(sig.dtype, ty.shape)
            code, ty = self.typed(_int_conversion(ty.dtype, sig.dtype, code) or f"convert_tile({code})", out, None,
                                  f"{arr}_{sig.dtype}")
        return code, ty

    def _reversed_bid(self, node: ast.AST) -> int | None:
        """k when ``node`` is ``ct.num_blocks(k) - 1 - ct.bid(k)`` (or ``- b`` with b bound to ct.bid(k))."""
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.left, ast.BinOp)
                and isinstance(node.left.op, ast.Sub) and self._int(node.left.right) == 1
                and isinstance(node.left.left, ast.Call) and self.ct(node.left.left.func) == "num_blocks"
                and len(node.left.left.args) == 1):
            return None
        k = self._int(node.left.left.args[0])
        return k if k is not None and self._bid_axis(node.right) == k else None

    def _bid_axis(self, e: ast.AST) -> int | None:
        """j when ``e`` is ``ct.bid(j)`` or a name bound to it outside any branch or loop (a name bound inside one
        is a block id on some paths only); else None."""
        if isinstance(e, ast.Name):
            return None if e.id in self.branch_bound else self.bid_names.get(e.id)
        if isinstance(e, ast.Call) and self.ct(e.func) == "bid" and e.args and self._int(e.args[0]) in (0, 1, 2):
            return self._int(e.args[0])
        return None

    def store_bijective(self, call: ast.Call, arr: str, index: ast.Tuple, tile_node: ast.AST,
                        axes: list[tuple[int, bool] | None], indent: str, hints: tuple[str, str] = NO_HINTS) -> None:
        """A store whose index maps the block ids one-to-one onto tile indices, but not as cutile's safe store does
        (index element k = ct.bid(k)): block axes permuted (``z = ct.bid(2)`` first, e.g. to run a batch's tiles
        together) and/or reversed (``i = ct.num_blocks(k) - 1 - ct.bid(k)``, e.g. longest blocks first). ``axes``
        holds per index element (block axis, reversed) or None for a literal tile index. The blocks' tiles are
        disjoint; the port stores through the unchecked partition with that argument written down. An array stored
        in parts (several stores, one block map, literal tile indices elsewhere) goes the same way: the parts of one
        block are distinct tiles, and no two blocks share a tile."""
        out = self.outputs[arr]
        consts = [self._int(e) for e, ax in zip(index.elts, axes) if ax is None]
        if out.alternatives > 1:
            self.need(call, "store-alternatives", "stores of one array in the arms of a constant if")
        if out.parts > 1 or any(consts):
            self.need(call, "store-parts", "an array stored in parts, at constant tile indices")
        elif any(ax is not None and ax != (k, False) for k, ax in enumerate(axes)):
            self.need(call, "store-bijective", "store at a permuted or reversed block index")
        code, ty = self.stored_value(tile_node, arr)
        if not isinstance(ty, Tile) or len(ty.shape) != out.sig.rank or ty.dtype != out.sig.dtype:
            raise self.refuse(call, "store-other", f"store of {arr} at a permuted/reversed block index: the tile is "
                                                    f"not a rank-{out.sig.rank} {out.sig.dtype} tile")
        if out.parts > 1 and out.shape not in (None, ty.shape):   # parts of other sizes could overlap other blocks'
            raise self.refuse(call, "store-other", f"the parts of {arr} are stored as tiles of different shapes "
                                                    f"({', '.join(out.shape)} and {', '.join(ty.shape)})")
        code = self._store_operand(arr, code, ty, hints)
        out.scheduled = True
        out.shape = ty.shape
        idx, maps, grid = [], [], []
        for k, (e, ax) in enumerate(zip(index.elts, axes)):
            dim = k if self.store_dim_map is None else self.store_dim_map[k]   # (the array's, by the order)
            if ax is None:
                idx.append(f"{self._int(e)}i32")
                pre_k = f"{arr}.shape[{dim}] <= {ty.shape[k]} (one tile along dimension {dim}: the store is at index " \
                    "0 there)"
                if out.parts == 1 and self._int(e) == 0 and pre_k not in self.preconditions:
                    self.preconditions.append(pre_k)
                continue
            j, rev = ax
            code_k, ty_k = self.expr(e)
            if not isinstance(e, ast.Name):   # cutile infers no type for a block id inside the index array
                value, code_k = code_k, self.fresh(f"index{k}")
                self.body.append(f"{indent}let {code_k}: {ty_k.rust()} = {value};")
            idx.append(code_k)
            maps.append(f"{self.text(e)} = " + (f"num_blocks({j}) - 1 - bid({j})" if rev else f"bid({j})"))
            grid.append(f"the grid's extent along axis {j} is cdiv({arr}.shape[{dim}], {ty.shape[k]})")
        for j in sorted(set(range(3)) - {ax[0] for ax in axes if ax is not None}):
            self.unit_grid.add(j)   # a block axis the index ignores: its blocks would store the same tiles
        pre = " and ".join(grid)
        what = f"one tile of {arr}" if out.parts == 1 else f"{out.parts} tiles of {arr} (its parts)"
        if f"{pre} (each block stores {what}, at {', '.join(maps)})" not in self.preconditions:
            self.preconditions.append(f"{pre} (each block stores {what}, at {', '.join(maps)})")
        parts = "" if out.parts == 1 else \
            f"; all {out.parts} stores of {arr} use this map, each at its own literal tile index elsewhere"
        self.unsafe_site(call, f"partition_full_mut + store_unchecked on {arr}",
                         f"block index {', '.join(maps)}: one-to-one on the blocks, so their tiles "
                         f"are disjoint{parts}, but not each block's own partition tile",
                         pre)
        dims = ", ".join(ty.shape)
        # the block's own tile (index element k is bid(k) or a literal 0 on an axis the grid does not extend): with
        # `&mut Tensor` the launcher hands each block that tile, and `partition_mut` views it safely (index 0 of the
        # nested partition); only the store itself stays unsafe. Chosen in emit_kernel, once every store of the
        # array is seen: one store elsewhere and the array is `&Tensor` for all of them (the form below)
        own = out.parts == 1 and not out.general and out.sig.rank <= 3 and arr not in self.loaded_arrays and \
            self.store_dim_map is None and \
            arr not in self.scattered and all(ax == (k, False) if ax is not None else self._int(e) == 0
                                              for k, (e, ax) in enumerate(zip(index.elts, axes)))
        start, site = len(self.body), len(self.unsafe_sites) - 1   # (the site just recorded)
        self.body.append(f"{indent}// SAFETY: {'; '.join(maps)} maps the blocks one-to-one onto the tile indices"
                         f"{parts}, so no two blocks store the same tile of {arr}, and {pre}.")
        view = self.store_view(arr, dims)
        if out.token:   # a later part: its view starts from the previous part's store token, so the parts stay
            # ordered as cuTile Python orders them
            view = self.store_view(arr, dims, out.token)
        tiles = self.fresh(f"{arr}_tiles") if out.parts > 1 or out.alternatives > 1 else f"{arr}_tiles"  # no shadowing
        self.body.append(f"{indent}let mut {tiles}: {self.store_view_type()}<{RUST_DTYPES[ty.dtype]}, {{ [{dims}] }}> = "
                         f"unsafe {{ {view} }};")
        self.body.append(indent + self.store_through(call, arr, tiles, code, idx, hints))
        if own:
            view_own = (f"{indent}let mut {tiles}: PartitionMut<{RUST_DTYPES[ty.dtype]}, {{ [{dims}] }}> = "
                        f"{arr}.partition_mut(shape![{dims}]);")
            zeros = ", ".join(["0i32"] * len(idx))
            if hints == NO_HINTS:   # the checked store: cutile discharges its bounds check at index 0 statically
                owned = [view_own, f"{indent}{tiles}.store({code}, [{zeros}]);"]
                site_owned = None
            else:
                what = "TMA disabled" if hints[1] == "tma::Disabled" else "a latency hint"
                owned = [f"{indent}// SAFETY: index 0 of the nested partition is this block's own tile of {arr} (the "
                         f"launcher hands each block its own [{dims}] tile, so no two blocks store the same one); "
                         f"the store is the Tile IR store with {what}, as the source's, which cutile 0.3.1's checked "
                         "`store` does not take.", view_own, indent + _store_unchecked(tiles, code, ["0i32"] * len(idx),
                                                                                      hints)]
                site_owned = {"line": call.lineno, "col": call.col_offset + 1,
                              "what": f"store_view_tko_mut on the block's own tile of {arr} (partition_mut)",
                              "why": f"the Tile IR store with {what}, as the source's: cutile 0.3.1's checked store "
                                     "does not take it",
                              "precondition": pre}
            out.owned.append((owned, self.body[start:], site_owned, self.unsafe_sites[site:]))
        self._keep_release_token(call, arr, tiles, indent)
        out.done += 1
        if out.done < out.parts:   # the view's token after the store, for the next part (cutile's value for the
            # store's own result is not a token)
            out.token = self.fresh(f"{arr}_token")
            self.body.append(f"{indent}let {out.token}: Token = get_partition_token_mut(&{tiles});")

    def store_view(self, arr: str, dims: str, token: str | None = None) -> str:
        """The writable partition of ``arr``'s full tensor an unchecked store goes through, from ``token`` (else the
        tensor's own); with ct.store's `order=` (store_dim_map) its dim map, through the port's declaration of the
        op (`make_partition_view_mut_permuted`: cutile 0.3.1's writable view takes none), as cuTile Python's store
        makes its partition view with the order as dim map."""
        if self.store_dim_map is not None:
            self.declared_ops.setdefault("make_partition_view_mut_permuted", set())
            return (f"make_partition_view_mut_permuted({self.tensor_arg(arr)}, shape![{dims}], padding::None, "
                    f"const_array![{', '.join(map(str, self.store_dim_map))}], "
                    f"{token or f'get_tensor_token({self.tensor_arg(arr)})'})")
        if token is None:
            return f"{arr}.partition_full_mut(shape![{dims}])"
        return f"make_partition_view_mut({self.tensor_arg(arr)}, shape![{dims}], padding::None, {token})"

    def store_view_type(self) -> str:
        """The Rust type of store_view's partition: cutile's `PartitionMut`, or with an order the port's
        `PartitionMutPermuted` (rustgen.declared_ops: cutile 0.3.1's `PartitionMut` states no dim map)."""
        return "PartitionMut" if self.store_dim_map is None else "PartitionMutPermuted"

    def store_through(self, call: ast.Call, arr: str, tiles: str, code: str, idx: list[str],
                      hints: tuple[str, str]) -> str:
        """The unchecked store of ``code`` at ``idx`` into store_view's partition ``tiles``: with an order, the
        port's `store_view_tko_permuted` (the Tile IR store_view_tko into that type); the array then no other
        operation is ordered after (its view's token is not read back: one store of an array only written)."""
        if self.store_dim_map is None:
            return _store_unchecked(tiles, code, idx, hints)
        out = self.outputs[arr]
        if out.parts > 1 or out.alternatives > 1 or arr in self.loaded_arrays or self.inplace_tokens.get(arr) or \
                self.carried_tokens.get(arr) or self.parallel_stores.get(id(call)) or self._store_before_release(call):
            raise self.refuse(call, "store-order", f"ct.store with an order into {arr}, which the kernel also "
                                                   "accesses otherwise (stored more than once, loaded, or in a loop): "
                                                   "the order of its accesses through that view is not carried yet")
        latency, tma = hints
        return (f"unsafe {{ store_view_tko_permuted(&mut {tiles}, {code}, [{', '.join(idx)}], ordering::Weak, "
                f"scope::TileBlock, {latency}, {tma}) }};")

    def _keep_release_token(self, call: ast.Call, arr: str, tiles: str, indent: str) -> None:
        if self._store_before_release(call):
            tok = self.fresh(f"{arr}_stored")
            self.body.append(f"{indent}// a releasing atomic below is ordered after this store, as cuTile Python "
                             "orders it")
            self.body.append(f"{indent}let {tok}: Token = get_partition_token_mut(&{tiles});")
            self.release_tokens[arr] = tok

    def store_general(self, call: ast.Call, arr: str, index: ast.AST | None, tile_node: ast.AST, indent: str,
                      hints: tuple[str, str] = NO_HINTS) -> None:
        """A store the safe forms do not cover (an array updated in place): through the partition of the full
        tensor at the computed tile index, unchecked, as cuTile Python stores it. Which blocks write which tiles is
        the kernel's own launch contract; the site and that assumption are listed in the verdict."""
        out = self.outputs[arr]
        if not isinstance(index, ast.Tuple) or len(index.elts) != out.sig.rank:
            raise self.refuse(call, "store-other", f"store to {arr} at index {self.text(index)}: a tuple of "
                                                    f"{out.sig.rank} tile indices expected")
        code, ty = self.stored_value(tile_node, arr)
        if not isinstance(ty, Tile) or len(ty.shape) != out.sig.rank or ty.dtype != out.sig.dtype:
            raise self.refuse(call, "store-other", f"store of {arr}: the tile is not a rank-{out.sig.rank} "
                                                    f"{out.sig.dtype} tile")
        code = self._store_operand(arr, code, ty, hints)
        out.scheduled = True
        out.shape = ty.shape
        idx = self.store_indices(index, indent)
        inplace = arr in self.loaded_arrays
        why = (f"{arr} is read and written by the kernel (updated in place): no safe partition can state it; "
               "blocks write the tiles the source's index names") if inplace else \
            (f"store at index ({self.text(index)}), which no safe partition states: which blocks write which "
             "tiles (and whether two write the same one) is the source kernel's own contract")
        self.unsafe_site(call, f"partition_full_mut + store_unchecked on {arr}",
                         why,
                         f"blocks writing one tile of {arr} write it with the same value, "
                         "or only one block writes it (the source kernel's contract)")
        dims = ", ".join(ty.shape)
        start, site = len(self.body), len(self.unsafe_sites) - 1   # (the site just recorded)
        self.body.append(f"{indent}// SAFETY: {arr} is stored at index ({self.text(index)}) "
                         f"{'and read by the kernel ' if inplace else ''}as in the source, whose launch contract "
                         "says which blocks write which tiles.")
        view = self.store_view(arr, dims)
        carried = self.carried_tokens.get(arr)
        before = self.parallel_stores.get(id(call))
        tokens = self.inplace_tokens.get(arr)
        if tokens:   # after every access since the last store (a parallel store: since its loop began)
            view = self.store_view(arr, dims, before or (self.ordered_input(arr, True) if self.acq_mode else
                                                         tokens[0]))
        elif before:   # a parallel store (see carry_scatter_tokens): from the token before its loop
            view = self.store_view(arr, dims, before)
        elif carried:   # inside a loop: the view starts from the carried token (the previous iteration's store)
            view = self.store_view(arr, dims, carried)
        elif out.token and not indent:   # a later store of the array: its view starts from the previous store's
            # token, the order cuTile Python gives them
            view = self.store_view(arr, dims, out.token)
        tiles = self.fresh(f"{arr}_tiles")
        self.body.append(f"{indent}let mut {tiles}: {self.store_view_type()}<{RUST_DTYPES[ty.dtype]}, {{ [{dims}] }}> = "
                         f"unsafe {{ {view} }};")
        self.body.append(indent + self.store_through(call, arr, tiles, code, idx, hints))
        self._keep_release_token(call, arr, tiles, indent)
        if tokens:   # the store's token is the last op and the last store
            store_token = f"get_partition_token_mut(&{tiles})"
            if before:   # (a parallel store: joined into the last op, as cuTile Python joins it)
                store_token = f"join_tokens(&[{tokens[0]}, {store_token}])"
            self.body.append(f"{indent}{tokens[0]} = {store_token};")
            self.tok_tag[tokens[0]] = self.tok_tag[tokens[1]] = self.fresh("tag")
            if arr in self.ordered_stores:
                self._owned_ordered_store(call, arr, index, code, ty, tokens[0], tiles, hints, before, indent,
                                          start, site)
            self.body.append(f"{indent}{tokens[1]} = {tokens[0]};")
            out.done += 1
            return
        if before:   # joined into the carried token, each iteration's store unordered with the others
            self.body.append(f"{indent}{carried} = join_tokens(&[{carried}, get_partition_token_mut(&{tiles})]);")
        elif carried:
            self.body.append(f"{indent}{carried} = get_partition_token_mut(&{tiles});")
        out.done += 1
        out.token = None
        if out.done < out.parts and not indent:
            out.token = self.fresh(f"{arr}_token")
            self.body.append(f"{indent}let {out.token}: Token = get_partition_token_mut(&{tiles});")

    def store_indices(self, index: ast.Tuple, indent: str) -> list[str]:
        """The Rust of an unchecked store's tile indices: literals spelled i32, names as they are, other expressions
        bound first (cutile infers no type for an expression inside the index array)."""
        idx = []
        for k, e in enumerate(index.elts):
            if (n := self._int(e)) is not None:
                idx.append(f"{n}i32")
                continue
            code_k, ty_k = self.index_scalar(e)   # (a 0-d tile, `ct.gather(slots, t)`: its scalar; an i64 one
            if ty_k != Scalar("i32"):                # truncated)
                raise self.refuse(e, "store-other", f"store index {self.text(e)} is not an i32 scalar")
            if not isinstance(e, ast.Name) or code_k != e.id:   # (translated once: an index that reads memory)
                value, code_k = code_k, self.fresh(f"index{k}")
                self.body.append(f"{indent}let {code_k}: {ty_k.rust()} = {value};")
            idx.append(code_k)
        return idx

    def _owned_ordered_store(self, call: ast.Call, arr: str, index: ast.Tuple, code: str, ty: Tile, token: str,
                             tiles: str, hints: tuple[str, str], before: str | None, indent: str, start: int,
                             site: int) -> None:
        """A store of a write-only array stored several times (store-ordered) at the block's own tile: its safe
        form, kept when every store of the array is one (see _resolve_owned_stores: the array is then `&mut
        Tensor<E, {tile}>`). The tensor's token is set to the array's token first, so that `partition_mut` makes
        the view on it (cutile's block-owned views start from the tensor's token): the same order as the unchecked
        form's view, without `unsafe`."""
        axes = self._bijective_block_index(index, len(index.elts))
        shapes = self.owned_ordered.setdefault(arr, ({ty.shape}, set()))
        if hints != NO_HINTS or before or len(index.elts) > 3 or axes is None or ty.shape not in shapes[0] or \
                self._store_before_release(call) or \
                any(ax != (k, False) if ax is not None else self._int(e) != 0
                    for k, (e, ax) in enumerate(zip(index.elts, axes))):
            self.outputs[arr].owned.append(None)   # (another tile shape: one `&mut Tensor<E, {tile}>` cannot hold
            return   # both)
        dims, zeros = ", ".join(ty.shape), ", ".join(["0i32"] * len(index.elts))
        owned = [f"{indent}// {arr}'s view starts from its last store's token ({token}), the order cuTile Python "
                 "gives its stores",
                 f"{indent}set_tensor_token({arr}, {token});",
                 f"{indent}let mut {tiles}: PartitionMut<{RUST_DTYPES[ty.dtype]}, {{ [{dims}] }}> = "
                 f"{arr}.partition_mut(shape![{dims}]);",
                 f"{indent}{tiles}.store({code}, [{zeros}]);",
                 f"{indent}{token} = get_partition_token_mut(&{tiles});"]
        shapes[1].update((k, f"{arr}.shape[{k}] <= {ty.shape[k]} (one tile along dimension {k}: the launch grid "
                             f"has extent 1 there, so the block-owned store at block id {k} is the source's index 0)")
                         for k, ax in enumerate(axes) if ax is None)   # (stated once the safe form is kept)
        self.outputs[arr].owned.append((owned, self.body[start:], None, self.unsafe_sites[site:]))

    def _store_operand(self, arr: str, code: str, ty: Tile, hints: tuple[str, str]) -> str:
        """The tile argument of an unchecked store: with hints the store is cutile's generic store_view_tko_mut,
        which types its tile argument only from a binding, so an expression is bound first."""
        if hints == NO_HINTS or code.isidentifier():
            return code
        return self.typed(code, ty, None, f"{arr}_stored")[0]

    def store_scheduled(self, call: ast.Call, arr: str, var: str, tile_node: ast.AST, indent: str,
                        hints: tuple[str, str] = NO_HINTS) -> None:
        """A store at a grid-stride loop index: every block writes tiles b, b + nblocks, ... < num_tiles(src).
        Disjoint across blocks, but not the block's own tile, so cutile's safe partition cannot state it."""
        self.need(call, "store-schedule", "store in a persistent loop")
        out = self.outputs[arr]
        stop, (src, _axis, src_shape) = self.loop_bounds[var]
        code, ty = self.stored_value(tile_node, arr)
        if not isinstance(ty, Tile) or ty.dtype != out.sig.dtype or ty.shape != src_shape or out.sig.rank != 1:
            raise self.refuse(call, "store-other", f"scheduled store of {arr} with another tile shape or dtype")
        code = self._store_operand(arr, code, ty, hints)
        out.scheduled = True
        out.owned.append(None)   # (a store elsewhere than the block's own tile: see _resolve_owned_stores)
        out.shape = ty.shape
        dims = ", ".join(ty.shape)
        pre = f"cdiv({arr}.shape[0], {dims}) >= cdiv({src}.shape[0], {dims})"
        self.preconditions.append(f"{pre} (the loop stores every tile of {src} into {arr})")
        self.unsafe_site(call, f"partition_full_mut + store_unchecked on {arr}",
                         f"grid-stride loop: block b stores tiles b, b + num_blocks, ... < {stop} "
                         f"= num_tiles({src}); disjoint across blocks but not the block's own tile",
                         pre)
        self.body.append(f"{indent}// SAFETY: {var} < {stop} = num_tiles({src}) by the loop bound, each block "
                         f"stores only its own tiles ({var} = bid, bid + num_blocks, ...), and {pre}.")
        self.body.append(f"{indent}let mut {arr}_tiles: PartitionMut<{RUST_DTYPES[ty.dtype]}, {{ [{dims}] }}> = "
                         f"unsafe {{ {arr}.partition_full_mut(shape![{dims}]) }};")
        self.body.append(indent + _store_unchecked(f"{arr}_tiles", code, [var], hints))

    def _is_block_index(self, index: ast.AST | None, rank: int) -> list[int] | None:
        """None unless ``index`` is the block's own index; else the dimensions where it is a literal 0 (block-owned
        under the precondition that the grid has extent 1 there)."""
        if not isinstance(index, ast.Tuple) or len(index.elts) != rank:
            return None
        zeros = []
        for k, e in enumerate(index.elts):
            if self._bid_axis(e) == k:
                continue
            if self._int(e) == 0 and k > 0 and k not in self.grid_axes_read:   # (an axis the kernel reads
                # its block id along is one its launches extend: blocks share that tile)
                zeros.append(k)
                continue
            return None
        return zeros

    def _bijective_block_index(self, index: ast.AST | None, rank: int) -> list[tuple[int, bool] | None] | None:
        """Per element of ``index``, (block axis, reversed) or None for a literal tile index (>= 0) — when every
        element is a block id (``ct.bid(j)`` or a name bound to it), a reversed one (a name bound to
        ``ct.num_blocks(j) - 1 - ct.bid(j)``) or a literal, each block axis used once: a one-to-one map of the
        blocks. Else None."""
        if not isinstance(index, ast.Tuple) or len(index.elts) != rank:
            return None
        axes: list[tuple[int, bool] | None] = []
        for e in index.elts:
            if isinstance(e, ast.Name) and e.id in self.branch_bound:
                return None
            if (j := self._bid_axis(e)) is not None:
                axes.append((j, False))
            elif isinstance(e, ast.Name) and e.id in self.rev_bid_names:
                axes.append((self.rev_bid_names[e.id], True))
            elif (c := self._int(e)) is not None and c >= 0:
                axes.append(None)
            else:
                return None
        used = [a[0] for a in axes if a is not None]
        if self.grid_axes_read - set(used):   # a block axis the kernel reads but the index ignores: its launches
            return None                       # extend it, and its blocks share tiles
        return axes if used and len(used) == len(set(used)) else None

    # ------------------------------------------------------------------ expressions

    @functools.cached_property
    def grid_axes_read(self) -> frozenset[int]:
        """The grid axes the kernel reads its block id or block count along (``ct.bid(k)``, ``ct.num_blocks(k)``,
        in its body or a helper it inlines): an axis the launch may extend, where a literal 0 index is
        not the block's own tile (a launch grid of (2, 3) and a store at (bid(0), 0) under `if bid(1) == 0`: three
        blocks share that tile, and cutile's launcher refuses a `&mut Tensor` partitioned (2, 1) there).
        A block-id axis that is not a literal: every axis."""
        axes: set[int] = set()
        for node in self.walk():   # (the kernel and every helper it may inline, this module's or another's)
            if isinstance(node, ast.Call) and self.ct(node.func) in ("bid", "num_blocks"):
                k = self._int(node.args[0]) if node.args else None
                axes.update([k] if k is not None else (0, 1, 2))
        return frozenset(axes)

    def _int(self, node: ast.AST) -> int | None:
        if isinstance(node, ast.Name) and node.id in self.static_items:   # a ct.static_iter item: a literal
            return self.static_items[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and \
                isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:
            return -node.operand.value   # a negative axis (`ct.expand_dims(t, -1)`)
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, int) else None

    def _shape_axis(self, e: ast.AST) -> int | None:
        """The axis of `t.shape[k]`: a literal, `-1`, or an int known when the kernel compiles (`t.shape[axis]` of
        a helper's `axis=1`)."""
        k = self._int(e)
        if k is None and isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            k = -self._int(e.operand) if self._int(e.operand) is not None else None
        if k is None and type(kv := self.const_value(e)[1]) is int:
            k = kv
        return k

    def tile_attribute(self, node: ast.AST) -> tuple[bool, object]:
        """(True, value) for `t.shape[k]` and `t.ndim` of a tile `t` (known when the kernel compiles: a tile's
        shape is static in cuTile Python), else (False, None)."""
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
                node.value.attr == "shape" and isinstance(node.value.value, ast.Name):
            bound = self.env.get(node.value.value.id)
            k = self._shape_axis(node.slice)
            if bound is None or not isinstance(bound[1], Tile) or k is None or \
                    not -len(bound[1].shape) <= k < len(bound[1].shape):
                return False, None
            d = bound[1].shape[k]
            if d.isdigit():
                return True, int(d)
            p = self.params.get(d)
            return (True, p.value) if isinstance(p, sigmod.ConstSig) else (False, None)
        if isinstance(node, ast.Attribute) and node.attr == "ndim" and isinstance(node.value, ast.Name):
            bound = self.env.get(node.value.id)
            if bound is not None and isinstance(bound[1], Tile):
                return True, len(bound[1].shape)
            p = self.params.get(node.value.id)
            if isinstance(p, sigmod.ArraySig):
                return True, p.rank
        return False, None

    def shape_of(self, node: ast.AST) -> tuple[str, ...]:
        if isinstance(node, ast.Attribute) and node.attr == "shape" and isinstance(node.value, ast.Name) and \
                isinstance((bound := self.env.get(node.value.id)) and bound[1], Tile):
            return bound[1].shape   # another tile's shape (`ct.zeros(t.shape, ..)`)
        if not isinstance(node, ast.Tuple) and (c := self.const_value(node))[0] and type(c[1]) is int:
            # one extent (`ct.zeros(B, ..)`, `ct.load(x, i, shape=B)`): the 1-tuple cuda.tile makes of it
            node = ast.copy_location(ast.Tuple([node], ast.Load()), node)
        if not isinstance(node, ast.Tuple):
            raise self.refuse(node, "load-tile", f"shape {self.text(node)} is not a tuple")
        dims = []
        for e in node.elts:
            if isinstance(e, ast.Starred):   # `(*t.shape[:-1], B)`: a tile's extents (static in cuTile Python)
                v = e.value.value if isinstance(e.value, ast.Subscript) else e.value
                cut = e.value.slice if isinstance(e.value, ast.Subscript) else ast.Slice()
                bounds = [None if b is None else self.const_value(b) for b in (cut.lower, cut.upper, cut.step)] \
                    if isinstance(cut, ast.Slice) else None
                if bounds is None or not all(b is None or b[0] and type(b[1]) is int for b in bounds) or \
                        not (isinstance(v, ast.Attribute) and v.attr == "shape" and isinstance(v.value, ast.Name)
                             and isinstance(bound := self.env.get(v.value.id), tuple) and
                             isinstance(bound[1], Tile)):
                    raise self.refuse(e, "load-tile", f"tile dimensions {self.text(e)} (a tile's shape or a slice of "
                                                      "it by constants is taken)")
                dims.extend(bound[1].shape[slice(*(None if b is None else b[1] for b in bounds))])
                continue
            if isinstance(e, ast.Constant) and isinstance(e.value, int):
                dims.append(str(e.value))
            elif isinstance(e, ast.Name) and e.id in self.env and self.env[e.id][0] in self.constants:
                dims.append(self.env[e.id][0])   # a helper's parameter bound to a constant (maybe another one)
            elif isinstance(e, ast.Name) and e.id in self.constants and e.id not in CUTILE_TYPE_PARAMS:
                dims.append(e.id)
            elif isinstance(v := self.const_value(e)[1], int) and not isinstance(v, bool) and \
                    self.const_value(e)[0]:
                # computed from constants (`N * N`, `TILE // 2`): Rust cannot compute a const generic's extent,
                # so the value is spelled out (an entry per value, see pipeline.port.translate)
                dims.append(str(v))
            else:
                raise self.refuse(e, "load-tile", f"tile dimension {self.text(e)} is not a constant")
        return tuple(dims)

    def dtype_of(self, node: ast.AST) -> str:
        if (dt := self.static_dtype(node)) is not None:
            return dt
        raise self.refuse(node, "astype", f"dtype {self.text(node)}")

    def expr(self, node: ast.AST, want_name: str | None = None) -> tuple[str, Ty]:
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            p = self.params.get(node.id)
            if isinstance(p, sigmod.ConstSig):
                if isinstance(p.value, int) and not isinstance(p.value, bool):
                    if node.id in CUTILE_TYPE_PARAMS:   # spelled as its value (see CUTILE_TYPE_PARAMS)
                        return f"{p.value}i32", Scalar("i32")
                    return node.id, Scalar("i32")
                return self.constant_literal(node, p.value)
            if isinstance(p, sigmod.ScalarSig):
                return node.id, Scalar(p.dtype)
            if isinstance(p, sigmod.ArraySig):
                return node.id, ArrayParam(node.id, p)
            if self.inlining and self.helper_params.get(node.id) == (True, None):
                # (`n = n or t.shape[0]` of a helper's `n=None`: cuda.tile 1.7 folds `None or 128` to True, not 128)
                raise self.refuse(node, "assign", f"{node.id!r}, a parameter of {self.inlining[-1]}() left at None, "
                                                  "read as a value: only `is None` / `is not None` tests read it "
                                                  "(cuda.tile 1.7 folds `a or b` of constants to a bool, so `n or "
                                                  "default` is not the default there either)")
            raise self.refuse(node, "assign", f"unknown name {node.id!r}" + (
                f" in {self.inlining[-1]}() (a helper reads its parameters and module names; a local of the "
                "function it is defined in, a closure, is not carried in)" if self.inlining else ""))
        if isinstance(node, ast.Subscript) and isinstance(item := _tuple_item(node), (ast.Name, ast.Constant)):
            # `(pair_0, pair_1)[0]`: a tuple of names indexed in place (a helper's tuple parameter, `p[0]`, given a
            # tuple resolve split into names; `((s_0_0, s_0_1), s_1)[0][1]` of a nested one): that element, as
            # cuTile Python reads the aggregate's item
            return self.expr(item, want_name)
        lit = _literal(node)
        if isinstance(lit, float) and not math.isfinite(lit):   # `-math.inf` (a module float resolve inlined):
            # cuTile Python's folded constant, as `float('-inf')` is
            return self.float_special(node, repr(lit))
        if lit is not None:
            return repr(lit), Scalar("f32" if isinstance(lit, float) else "i32")
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):   # a flag (`live = True`, re-assigned
            # `False` in a loop): cuTile Python's i1 constant; a Rust bool
            self.need(node, "flag-bool", "a True/False flag")
            return ("true" if node.value else "false"), Scalar("bool")
        if isinstance(node, ast.IfExp) and self._constant_test(node.test) and not self._generic_condition(node.test):
            # on a bool or float constant (`448.0 if SAT else 1e30`): only the arm taken, as cuTile Python folds it
            # (an entry per value, like any such constant)
            self.need(node, "ifexp-constant", "conditional expression on constants")
            return self.expr(node.body if self.const_value(node.test)[1] else node.orelse, want_name)
        if isinstance(node, ast.IfExp) and self._constant_test(node.test):
            self.need(node, "ifexp-constant", "conditional expression on constants")
            taken = node.body if self.const_value(node.test)[1] else node.orelse
            arms, mark = [], len(self.body)
            for arm in (node.body, node.orelse):
                try:
                    arms.append(self.expr(arm))
                except Unsupported:
                    if arm is taken:
                        raise
                    # the arm not taken at this signature is one the translator cannot write here (`v.item() if B
                    # == 1 else ct.max(v)` at B = 128): only the arm taken, as cuTile Python folds it without
                    # checking the other (an entry per value)
                    del self.body[mark:]
                    return self.expr(taken, want_name)
            (ac, at), (bc, bt) = arms
            # cutile types an arm only from a typed value: a bare literal gets its suffix
            ac, bc = (rust_literal(lit, t.dtype) if (lit := _literal(arm)) is not None and isinstance(t, Scalar)
                      else c for arm, c, t in ((node.body, ac, at), (node.orelse, bc, bt)))
            if at != bt:
                raise self.refuse(node, "ifexp-constant", f"`{self.text(node)}`: the two values have different "
                                                          f"types ({_describe(at)}, {_describe(bt)})")
            return f"if {self.condition(node.test)} {{ {ac} }} else {{ {bc} }}", at
        if isinstance(node, ast.BinOp) and any(type(v) is bool for ok, v in map(self.const_value, (node.left,
                                                                                       node.right)) if ok) and \
                (c := self.const_value(node))[0] and type(c[1]) in (int, float):
            # arithmetic of a constant bool (`(A << 1) | C`, `A + C` of ct.Constant[bool]s): Python's int, folded as
            # cuTile Python folds it (a bool is no Rust integer)
            return self.expr(ast.copy_location(ast.Constant(c[1]), node), want_name)
        if isinstance(node, ast.BinOp) and type(node.op) in BINOPS:
            return self.binop(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Mod)):
            return self.floordiv(node)
        if isinstance(node, ast.BinOp) and type(node.op) in BITOPS:
            narrow = {ast.BitAnd: "andi", ast.BitOr: "ori", ast.BitXor: "xori"}.get(type(node.op))
            shift = {ast.LShift: "shli_wrapping({}, {}, overflow::None)", ast.RShift: "shri({}, {})"}.get(type(node.op))
            code, ty = self.elementwise(
                node, "bitwise", [node.left, node.right],
                # (cutile 0.3.1 implements `&`, `|`, `^` on 32/64-bit tiles only: an 8/16-bit one calls the op;
                # its operators know no 16-bit integer type at all: a 16-bit shift calls shri, or shli declared with
                # its overflow attribute, see declared_ops)
                lambda a, b: f"{narrow}({a}, {b})" if narrow and self.elementwise_like.dtype in NARROW_INTS else
                shift.format(a, b) if shift and self.elementwise_like.dtype in ("i16", "u16") else
                f"{_paren(a)} {BITOPS[type(node.op)]} {_paren(b)}", int_only=True)
            if isinstance(node.op, (ast.LShift, ast.RShift)) and ty.dtype == "bool":
                raise self.refuse(node, "bitwise", "a shift of boolean tiles")
            return code, ty
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in COMPARE:
            # (translated once: a tile side's statements — a load's view and read — are emitted here, and the tile
            # comparison below takes these operands rather than translating them again)
            pre = self.ordered_exprs([node.left, node.comparators[0]])
            (lc, lt), (rc, rt) = pre
            if isinstance(lt, Scalar) and isinstance(rt, Scalar):
                self.need(node, "compare", "scalar comparison")
                if {lt.dtype, rt.dtype} == {"i32", "i64"}:   # `label == ignore_index` of an int64 label
                    lc, rc = self.widen_i64_sides(node, ((lc, lt, node.left), (rc, rt, node.comparators[0])))
                    return f"{_paren(lc)} {SCALAR_COMPARE[type(node.ops[0])]} {_paren(rc)}", Scalar("bool")
                if {lt.dtype, rt.dtype} == {"i32", "f32"}:   # `eps > 0`: Python compares the int as a float (a
                    # literal's float, a runtime int's signed itof), then the float comparison below
                    lc, rc = (self.int_as_float(c, n) if t.dtype == "i32" else
                              (rust_literal(float(_literal(n)), "f32") if _literal(n) is not None else c)
                              for c, t, n in ((lc, lt, node.left), (rc, rt, node.comparators[0])))
                    lt = rt = Scalar("f32")
                    if not isinstance(node.ops[0], ast.NotEq):
                        return f"{_paren(lc)} {SCALAR_COMPARE[type(node.ops[0])]} {_paren(rc)}", Scalar("bool")
                typed = self.int_constant_scalar_op(node, "compare", ((lc, lt, node.left), (rc, rt, node.comparators[0])),
                                                    lambda a, b: f"{COMPARE[type(node.ops[0])]}({a}, {b})", "bool")
                if typed is not None:
                    return typed
                if lt.dtype != rt.dtype:
                    raise self.refuse(node, "compare", f"comparison of {lt.dtype} and {rt.dtype} scalars")
                if isinstance(node.ops[0], ast.NotEq) and lt.dtype.startswith(("f", "bf")):
                    # Python's `!=` is unordered (true on NaN), Rust's scalar `!=` ordered: the unordered cmpf of
                    # the 0-d tiles, as cuTile Python compiles it
                    elem = RUST_DTYPES[lt.dtype]
                    sides = [rust_literal(_literal(n), lt.dtype) if _literal(n) is not None else c
                             for c, n in ((lc, node.left), (rc, node.comparators[0]))]
                    unequal = self.fresh("unequal")
                    self.body.append(f"let {unequal}: Tile<bool, {{ [] }}> = cmpf(scalar_to_tile::<{elem}>({sides[0]}), "
                                     f"scalar_to_tile::<{elem}>({sides[1]}), predicate::NotEqual, "
                                     "cmp_ordering::Unordered);")
                    return f"tile_to_scalar::<bool, bool>({unequal})", Scalar("bool")
                # (a block operand, `{ .. } == 0` of Python's `pid % 2`, parenthesized: Rust reads a leading block
                # as a statement)
                lc, rc = (f"({c})" if c.lstrip().startswith("{") else c for c in (lc, rc))
                return f"{lc} {SCALAR_COMPARE[type(node.ops[0])]} {rc}", Scalar("bool")
            code, like = self.elementwise(node, "compare", [node.left, node.comparators[0]],
                                          lambda a, b: f"{COMPARE[type(node.ops[0])]}({a}, {b})", pre=pre)
            fn = COMPARE[type(node.ops[0])]
            if like.dtype in ("i16", "u16") and code.startswith(f"{fn}(") and code.endswith(")"):
                # cutile 0.3.1's lt_tile & co. know no 16-bit integer tile (a cargo error): its cmpi, whose
                # signedness it infers from the element type, as cuTile Python's cmpi
                code = f"cmpi({code[len(fn) + 1:-1]}, predicate::{INT_PREDICATES[type(node.ops[0])]})"
            if isinstance(node.ops[0], ast.NotEq) and like.dtype.startswith(("f", "bf")):
                # Python's != is true when either side is NaN: an *unordered* compare (cutile's ne_tile is ordered;
                # the differential fuzzer found it)
                code = "cmpf(" + code[len("ne_tile("):-1] + ", predicate::NotEqual, cmp_ordering::Unordered)"
                return self.typed(code, Tile("bool", like.shape), want_name, "unequal")
            return code, Tile("bool", like.shape)
        if isinstance(node, (ast.BoolOp, ast.IfExp)) or (isinstance(node, ast.UnaryOp) and
                                                         isinstance(node.op, ast.Not)) or \
                (isinstance(node, ast.Compare) and len(node.ops) > 1):
            if not self.const_value(node)[0] and not (isinstance(node, ast.IfExp) and
                                                      self._constant_test(node.test)):
                return self.runtime_logic(node, want_name)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert) and \
                (folded := self.const_value(node))[0] and type(folded[1]) is int:
            # `~0xFF` of a literal (a mask): the value cuTile Python folds, written as its literal
            lit = ast.copy_location(ast.Constant(abs(folded[1])), node)
            return self.expr(lit if folded[1] >= 0 else
                             ast.copy_location(ast.UnaryOp(ast.USub(), lit), node), want_name)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert) and \
                not self.const_value(node.operand)[0]:
            # `~t` / ct.bitwise_not(t): cuTile Python xors with all ones (-1, or True for a bool tile)
            code, ty = self.expr(node.operand)
            if isinstance(ty, Scalar) and ty.dtype in ("i32", "i64"):
                # `~i` of a runtime int (a block id, an argument): cuTile Python xors its 0-d tile with -1
                tmp = self.fresh("inverted")
                self.body.append(f"let {tmp}: {ty.rust()} = {code};")
                self.env[tmp] = (tmp, ty)
                return self.expr(ast.copy_location(ast.BinOp(ast.copy_location(ast.Name(tmp, ast.Load()), node),
                                                             ast.BitXor(),
                                                             ast.copy_location(ast.Constant(-1), node)), node))
            if not isinstance(ty, Tile) or ty.dtype.startswith(("f", "bf")):
                raise self.refuse(node, "bitwise", f"`~` of {_describe(ty)} (an integer or bool tile or an int "
                                                   "scalar is expected)")
            tmp = self.fresh("inverted")
            self.body.append(f"let {tmp}: {ty.rust()} = {code};")
            self.env[tmp] = (tmp, ty)
            if ty.dtype == "bool":   # (a bool has no literal the element-wise path takes: the tile of trues)
                self.need(node, "bitwise", "`~` of a bool tile")
                return f"{tmp} ^ constant(true, shape![{', '.join(ty.shape)}])", ty
            # (an unsigned tile's all-ones is its largest value: a constant with the top bit set, written as
            # its signed bits; -1 has no unsigned literal, `-1u32` is no Rust)
            width = _UNSIGNED_BITS.get(ty.dtype)
            ones = ast.copy_location(ast.Constant(2 ** width - 1 if width else -1), node)
            return self.expr(ast.copy_location(ast.BinOp(ast.copy_location(ast.Name(tmp, ast.Load()), node),
                                                         ast.BitXor(), ones), node))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            special = node.operand
            if isinstance(special, ast.Call) and isinstance(special.func, ast.Name) and special.func.id == "float" \
                    and len(special.args) == 1 and not special.keywords \
                    and isinstance(special.args[0], ast.Constant) and isinstance(special.args[0].value, str) \
                    and special.args[0].value.strip().lstrip("+-").lower() in ("inf", "infinity"):
                # `-float('inf')`: cuTile Python folds the negation into the constant (no negf)
                text = special.args[0].value.strip()
                return self.float_special(node, text[1:] if text.startswith("-") else "-" + text)
            code, ty = self.expr(node.operand)
            if isinstance(ty, Tile):
                self.need(node, "unary-neg", "tile negation")
                if ty.dtype in ("i8", "i16", "i32", "i64"):   # an integer tile: Tile IR negi, as cuTile Python
                    return self.typed(f"negi({code}, overflow::None)", ty, None, "negated")   # negates it
                if not ty.dtype.startswith(("f", "bf")):
                    raise self.refuse(node, "unary-neg", f"negation of a {ty.dtype} tile")
                if ty.shape == () and not code.isidentifier():
                    # a 0-d value computed in place (`-ct.log(base)` of a float argument): cutile infers negf's
                    # result type there only from a typed binding
                    return self.typed(f"negf({code})", ty, None, "negated")
                return f"negf({code})", ty
            if ty == Scalar("i32") and _literal(node.operand) is None and self.const_value(node.operand)[0]:
                # cutile negates only literals: a constant's negation is a subtraction from 0 (a constant either
                # way, as cuTile Python folds it)
                return f"(0i32 - {_paren(code)})", ty
            if ty == Scalar("f32") and _literal(node.operand) is None:
                ok, value = self.const_value(node.operand)
                if ok and isinstance(value, (int, float)) and not isinstance(value, bool):
                    return rust_literal(-float(value), "f32"), ty   # folded, as cuTile Python folds it
                self.need(node, "unary-neg", "negation of an f32 scalar")   # (cutile negates only literals)
                return f"tile_to_scalar::<f32, f32>(negf(scalar_to_tile::<f32>({code})))", ty
            if ty in (Scalar("i32"), Scalar("i64")) and _literal(node.operand) is None:
                # a runtime int (`-n`, `n if n > 0 else -n`): cutile negates only literals ("Non-const unary
                # expressions not supported"); cuTile Python negates its 0-d tile (negi)
                self.need(node, "unary-neg", "negation of an int scalar")
                rust = RUST_DTYPES[ty.dtype]
                return f"tile_to_scalar::<{rust}, {rust}>(negi(scalar_to_tile::<{rust}>({code}), overflow::None))", ty
            return f"-{_paren(code)}", ty
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
                and isinstance(node.value.value, ast.Name) \
                and isinstance(self.params.get(node.value.value.id), sigmod.ArraySig):
            arr, k = node.value.value.id, self._int(node.slice)
            if k is not None and k < 0:   # `x.shape[-1]`: counted from the last dimension
                k += self.params[arr].rank
            if k is None and isinstance(node.slice, ast.UnaryOp) and isinstance(node.slice.op, ast.USub) and \
                    self._int(node.slice.operand) is not None:   # `x.shape[-1]`: counted from the last dimension
                k = self.params[arr].rank - self._int(node.slice.operand)
            if k is None or not 0 <= k < self.params[arr].rank:
                raise self.refuse(node, "array-shape", f"{self.text(node)}: the index must be a literal dimension")
            self.need(node, "array-shape", "array extent")
            if arr in self.slices:   # its extents as cuTile Python computes them (`stop - start` along the axis)
                return self.slices[arr].extents[k], Scalar("i32")
            if arr in self.list_items:   # the extents its descriptor holds
                return self.list_items[arr].extents[k], Scalar("i32")
            return self.extent(arr, k), Scalar("i32")
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
                node.value.attr == "strides" and isinstance(node.value.value, ast.Name) \
                and isinstance(self.params.get(node.value.value.id), sigmod.ArraySig):
            arr, k = node.value.value.id, self._int(node.slice)
            sig = self.params[arr]
            if k is not None and k < 0:   # `x.strides[-2]`: counted from the last dimension
                k += sig.rank
            if k is None or not 0 <= k < sig.rank or arr in self.slices or arr in self.list_items:
                raise self.refuse(node, "array-strides", f"{self.text(node)}: a literal dimension of an array "
                                                         "parameter")
            self.need(node, "array-strides", "array stride")
            known = sig.strides[k] if sig.strides is not None else None
            if known is not None:   # a stride the launch fixes (the unit stride): cuTile Python's constant
                return f"{known}i32", Scalar("i32")
            return self.stride_param(arr, k), Scalar("i32")
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                isinstance((bound := self.env.get(node.value.id)) and bound[1], Results) and \
                (k := self._int(node.slice)) is not None and -len(bound[1].types) <= k < len(bound[1].types):
            return f"{bound[0]}.{k % len(bound[1].types)}", bound[1].types[k]   # `res[0]` of a helper's results
        if isinstance(node, ast.Call) and (self.ct(node.func) in CONST_CALLS or isinstance(node.func, ast.Name)
                                           and node.func.id in CONVERSIONS) and \
                isinstance(v := self.const_value(node)[1], (int, float)) and not isinstance(v, bool) and \
                math.isfinite(v) and self.const_value(node)[0]:   # `min(B, N)`, `int(D / 2)` of constants: the
            # value, as cuTile Python folds it (float('nan'), float('inf'): float_special's named constants)
            return (f"{v}i32", Scalar("i32")) if isinstance(v, int) else (rust_literal(v, "f32"), Scalar("f32"))
        if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Tuple, ast.List)) or \
                isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
            ok, v = self.const_value(node)   # `SCALES[K]`, `len(SCALES)` of a module tuple: its item, as cuTile
            if ok and type(v) in (int, float):   # Python folds it
                self.need(node, "const-fold", f"`{self.text(node)}`")
                # (a float as its f32 literal: cutile types no unsuffixed float in `broadcast_scalar(0.125, ..)`)
                return (rust_literal(v, "f32"), Scalar("f32")) if isinstance(v, float) else (repr(v), Scalar("i32"))
        if isinstance(node, (ast.Subscript, ast.Attribute)) and (attr := self.tile_attribute(node))[0]:
            # a tile's extent or rank: a constant (the const generic's name where the extent is one)
            d = self.env[node.value.value.id][1].shape[self._shape_axis(node.slice)] \
                if isinstance(node, ast.Subscript) else None
            self.need(node, "tile-attributes", f"`{self.text(node)}`")
            return (d if d is not None and d in self.constants else f"{attr[1]}i32"), Scalar("i32")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" \
                and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            return self.float_special(node, node.args[0].value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.helpers:
            return self.inline(node, self.helpers[node.func.id], want_name)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and \
                len(node.args) == 1 and isinstance(node.args[0], ast.Name) and \
                isinstance(self.params.get(node.args[0].id), sigmod.ListSig):
            self.need(node, "array-list", f"len({node.args[0].id})")
            return f"{node.args[0].id}_len", Scalar("i32")
        if slice_call(node) and isinstance(self.params.get(node.func.value.id), sigmod.ArraySig):
            raise self.refuse(node, "array-slice", f"`{self.text(node)}` not bound to a name of its own (`sub = "
                                                   "x.slice(..)` in the kernel's body is ported)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ARRAY_VIEWS and \
                isinstance(node.func.value, ast.Name) and isinstance(self.params.get(node.func.value.id),
                                                                      sigmod.ArraySig):
            raise self.refuse(node, "array-views", f"`{self.text(node)}`: " + (
                "a tiled view with traversal steps or other options (a plain `x.tiled_view(shape, padding_mode=..)` "
                "bound once is ported as ct.load/ct.store)" if node.func.attr == "tiled_view" else
                "an array view made inside the kernel (cuTile Python builds a tensor view from an offset pointer "
                "and runtime extents; not carried yet)"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "item" \
                and not node.args and not node.keywords:
            return self.item(node)
        if isinstance(node, ast.Call):
            op = self.ct(node.func)
            if op == "bid":
                self.need(node, "bid", "ct.bid")
                k = self._int(node.args[0]) if node.args else None
                if k not in (0, 1, 2):
                    raise self.refuse(node, "bid", f"ct.bid({self.text(node.args[0])})")
                if want_name and want_name not in self.loop_assigned:   # (re-assigned in a loop: a block id in
                    # its first iteration only)
                    self.bid_names[want_name] = k
                return f"get_tile_block_id().{k}", Scalar("i32")
            if op == "load":
                return self.load(node)
            if op in ("cumsum", "cumprod"):
                return self.scan(node, op, want_name)
            if op in ("permute", "transpose"):
                return self.permute(node, op, want_name)
            if op == "cat":
                return self.cat(node, want_name)
            if op == "assume_divisible_by":
                return self.assume_divisible_by(node)
            if op == "bitcast":
                self.need(node, "bitcast", "ct.bitcast")
                kw = {k.arg: k.value for k in node.keywords}
                dt_node = node.args[1] if len(node.args) > 1 else kw.get("dtype")
                code, ty = self.expr(node.args[0])
                dt = self.dtype_of(dt_node) if dt_node is not None else None
                if not isinstance(ty, Tile) or dt is None or ELEMENT_BYTES.get(dt) != ELEMENT_BYTES.get(ty.dtype):
                    raise self.refuse(node, "bitcast", f"`{self.text(node)}`: a tile reinterpreted as a dtype of "
                                                       "its element size is expected")
                return self.typed(f"bitcast({code})", Tile(dt, ty.shape), want_name, "reinterpreted")
            if op in ("pack_to_bytes", "unpack_from_bytes") and not (
                    op == "unpack_from_bytes" and len(node.args) > 1 and self.dtype_of(node.args[1]) == "f4e2m1fn"):
                return self.pack_bytes(node, op, want_name)
            if op == "unpack_from_bytes":   # a 1-d byte tile read as 4-bit floats (two to a byte, the first low)
                self.need(node, "mma-scaled", "ct.unpack_from_bytes")
                kw = {k.arg: k.value for k in node.keywords}
                dt_node = node.args[1] if len(node.args) > 1 else kw.get("dtype")
                code, ty = self.expr(node.args[0])
                dt = self.dtype_of(dt_node) if dt_node is not None else None
                if not isinstance(ty, Tile) or len(ty.shape) != 1 or ty.dtype != "u8" or dt != "f4e2m1fn" or \
                        not ty.shape[0].isdigit():
                    raise self.refuse(node, "mma-scaled", f"`{self.text(node)}`: a 1-d uint8 tile of a literal "
                                                          "extent unpacked to ct.float4_e2m1fn is expected")
                return self.typed(f"unpack({code})", Tile(dt, (str(2 * int(ty.shape[0])),)), want_name, "unpacked")
            if op == "mma_scaled":
                self.need(node, "mma-scaled", "ct.mma_scaled")
                kw = {k.arg: k.value for k in node.keywords}
                args = list(node.args) + ([kw.pop("acc")] if "acc" in kw and len(node.args) == 4 else [])
                if len(args) != 5 or kw:
                    raise self.refuse(node, "mma-scaled", "ct.mma_scaled form (x, x_scale, y, y_scale, acc)")
                (x, tx), (xs, txs), (y, ty_), (ys, tys), (c, tc) = self.ordered_exprs(args)
                if not all(isinstance(t, Tile) and len(t.shape) == 2 for t in (tx, txs, ty_, tys, tc)) or \
                        tc.dtype != "f32" or tx.shape[1] != ty_.shape[0] or (tx.shape[0], ty_.shape[1]) != tc.shape:
                    raise self.refuse(node, "mma-scaled", "ct.mma_scaled of 2-d tiles into an f32 accumulator")
                # cutile's operand order: lhs, rhs, acc, lhs_scale, rhs_scale (the op's own)
                return self.typed(f"mmaf_scaled({x}, {y}, {c}, {xs}, {ys})", tc, want_name, "product")
            if op == "static_eval":   # (the ones of constants were folded before emission: translate/static_eval)
                raise self.refuse(node, "static-eval", f"`{self.text(node)}`: not computable from literals, module "
                                                       "constants and the kernel's constants")
            if op in ("reduce", "scan") and (builtin := self.builtin_combine(node, op)) is not None:
                return self.expr(builtin, want_name)
            if op in ("reduce", "scan"):
                raise self.refuse(node, "reduce-custom", f"ct.{op} with a combine function: cutile 0.3.1's "
                                  f"`{op}(x, dim, identity, |a, b| ..)` builds the op along dimension 0 with identity "
                                  "0 whatever its arguments say, so it is not the op cuTile Python emits (ct.sum/max/"
                                  "min/prod and ct.cumsum along axis 0 are ported)")
            if op == "insert":
                raise self.refuse(node, "insert", "ct.insert: cuTile Python compiles it to Tile IR `insert`, an op "
                                                  "cutile 0.3.1 cannot emit (its IR crate has no such opcode)")
            if op == "divmod":
                raise self.refuse(node, "int-floordiv", f"`{self.text(node)}` other than unpacked into two names "
                                                        "(`q, r = divmod(a, b)`)")
            if op in ("argmax", "argmin"):
                return self.argmax(node, op, want_name)
            if op == "isnan" and len(node.args) == 1:   # cuTile Python: the unordered `x != x`
                self.need(node, "isnan", "ct.isnan")
                code, ty = self.expr(node.args[0])
                if not isinstance(ty, Tile) or not ty.dtype.startswith(("f", "bf")):
                    raise self.refuse(node, "isnan", f"ct.isnan of {_describe(ty)} (a float tile is expected)")
                tmp = self.fresh("tested")
                self.body.append(f"let {tmp}: {ty.rust()} = {code};")
                self.env[tmp] = (tmp, ty)
                same = ast.copy_location(ast.Name(tmp, ast.Load()), node)
                return self.expr(ast.copy_location(ast.Compare(same, [ast.NotEq()], [same]), node), want_name)
            if op == "arange":
                return self.arange(node, want_name)
            if op == "gather":
                return self.gather(node)
            if op == "load_advanced_indexing":
                return self.load_advanced(node, want_name)
            if op in ATOMIC_MODES:
                return self.atomic(node, keep=True)
            if op == "where":
                self.need(node, "where", "ct.where")
                if len(node.args) != 3 or node.keywords:
                    raise self.refuse(node, "where", "ct.where form (cond, x, y)")
                (cond, tc), (a, ta), (b, tb) = (self.expr(n) for n in node.args)
                if isinstance(tc, Scalar) and tc.dtype == "bool":   # a scalar condition: its 0-d tile (bound
                    # first: cutile types no `.reshape(..)` of an inline `scalar_to_tile::<bool>(pid < n)`)
                    cond, tc = self.typed(f"scalar_to_tile::<bool>({cond})", Tile("bool", ()), None, "condition")
                if not isinstance(tc, Tile) or tc.dtype != "bool":
                    raise self.refuse(node.args[0], "where", "ct.where condition that is not a boolean tile")
                weak = [(c := self.const_value(n))[0] and type(c[1]) in (int, float) for n in node.args[1:]]
                value = self.result_tile(node, ta, tb) if isinstance(ta, Tile) or isinstance(tb, Tile) \
                    else Tile(tb.dtype if weak == [True, False] and ta.dtype[0] == tb.dtype[0] == "i" else ta.dtype,
                              tc.shape)   # (an int constant takes the other integer's type: `ct.where(ignore, 0,
                # label)` of an int64 label is an i64 select)
                like = Tile(value.dtype, self.result_tile(node, Tile(value.dtype, tc.shape), value).shape)
                cond = self.operand_as_tile(cond, tc, Tile("bool", like.shape), node.args[0])
                if _comparison_in_logic(cond):   # `(c <= r) & (c < S)`, `(c < n) & keep`: cutile 0.3.1 mistypes a
                    # comparison joined by `&`/`|` inside select's untyped operand (a broadcast one right of `&`:
                    # "broadcast op failed to verify that all of {source, result} have same rank"; one left of `&`
                    # with a boolean tile: "binary `BitAnd` requires operands of the same type, but got `bool` and
                    # `Tile<bool, ..>`"); a typed `let` types it
                    cond, _ = self.typed(cond, Tile("bool", like.shape), None, "condition")
                a = self.operand_as_tile(a, ta, like, node.args[1])
                b = self.operand_as_tile(b, tb, like, node.args[2])
                return self.typed(f"select({cond}, {a}, {b})", like, want_name, "selected")
            if op == "cdiv":
                self.need(node, "cdiv", "ct.cdiv")
                parts = [self.expr(x) for x in node.args] if len(node.args) == 2 else []
                if any(isinstance(t, Tile) and t.shape for _, t in parts) and \
                        all(t.dtype in ("i32", "i64") for _, t in parts):
                    # of signed integer tiles (a scalar broadcast): Tile IR `divi` rounding toward positive
                    # infinity, as cuTile Python encodes it (a 0-d tile is a scalar there: the ceil_div below)
                    (lc, lt), (rc, rt) = parts
                    like = self.result_tile(node, lt, rt)
                    a = self.operand_as_tile(lc, lt, like, node.args[0])
                    b = self.operand_as_tile(rc, rt, like, node.args[1])
                    return self.typed(f"divi({a}, {b}, rounding::PositiveInf)", like, want_name, "quotient")
                (a, ta), (b, tb) = ((self._as_scalar(*p) for p in parts) if parts else ((None, None), (None, None)))
                if not (isinstance(ta, Scalar) and isinstance(tb, Scalar) and ta.dtype == tb.dtype == "i32"):
                    raise self.refuse(node, "cdiv", "ct.cdiv of anything but two i32 scalars or signed integer tiles")
                return f"ceil_div({a}, {b})", ta
            if op == "num_blocks":
                self.need(node, "num-blocks", "ct.num_blocks")
                k = self._int(node.args[0]) if node.args else None
                if k not in (0, 1, 2):
                    raise self.refuse(node, "num-blocks", f"ct.num_blocks({self.text(node.args[0])})")
                return f"get_num_tile_blocks().{k}", Scalar("i32")
            if op == "reshape":
                self.need(node, "reshape-broadcast", "ct.reshape")
                code, ty = self.expr(node.args[0])
                shape_node = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "shape"), None)
                if isinstance(ty, Scalar) and ty.dtype in RUST_DTYPES and _literal(node.args[0]) is None:
                    # a scalar is a 0-d tile in cuTile Python (`ct.reshape(pick % V, (1,))` of a reduced index):
                    # its 0-d tile, reshaped
                    code, ty = self.typed(f"scalar_to_tile::<{RUST_DTYPES[ty.dtype]}>({code})", Tile(ty.dtype, ()),
                                          None, "as_tile")
                if not isinstance(ty, Tile) or shape_node is None:
                    raise self.refuse(node, "reshape-broadcast", "ct.reshape of a non-tile")
                shape = self.shape_of(shape_node)
                if shape.count("-1") == 1:   # the extent left to infer (`t.reshape((-1,))`), as numpy infers it
                    big = [d for d in ty.shape if not self._unit_dim(d)]
                    known = [self._extent(d) for d in shape if d != "-1"]
                    sizes = [self._extent(d) for d in ty.shape]
                    if len(big) == 1 and all(k == 1 for k in known):
                        inferred = big[0]   # (one extent moves: keep its name)
                    elif None not in sizes and None not in known and math.prod(known) and \
                            math.prod(sizes) % math.prod(known) == 0:
                        inferred = str(math.prod(sizes) // math.prod(known))
                    else:
                        raise self.refuse(shape_node, "reshape-broadcast", f"ct.reshape to {self.text(shape_node)}: "
                                                                           "the -1 extent cannot be inferred")
                    shape = tuple(inferred if d == "-1" else d for d in shape)
                return f"{_paren(code)}.reshape(shape![{', '.join(shape)}])", Tile(ty.dtype, shape)
            if op == "expand_dims":
                self.need(node, "reshape-broadcast", "ct.expand_dims")
                code, ty = self.expr(node.args[0])
                axis_node = node.args[1] if len(node.args) > 1 else \
                    next((k.value for k in node.keywords if k.arg == "axis"), None)
                # (a tuple of axes: the new-axis rewrite of `t[None, :, None]` / `t[..., None]`, resolve.py)
                axes = [self._int(a) for a in axis_node.elts] if isinstance(axis_node, ast.Tuple) else \
                    [self._int(axis_node)]
                rank = len(ty.shape) + len(axes) if isinstance(ty, Tile) else 0
                if not isinstance(ty, Tile) or None in axes or not all(-rank <= a < rank for a in axes):
                    raise self.refuse(node, "reshape-broadcast", "ct.expand_dims of a non-tile or at a non-literal "
                                                                 "axis")
                shape = list(ty.shape)
                for a in axes:   # cuTile Python's tile_expand_dims: each 1 inserted in turn, then one reshape
                    shape.insert(a + rank if a < 0 else a, "1")
                return f"{_paren(code)}.reshape(shape![{', '.join(shape)}])", Tile(ty.dtype, tuple(shape))
            if op in ("full", "zeros", "ones"):
                self.need(node, "full", f"ct.{op}")
                kw = {k.arg: k.value for k in node.keywords}
                args = list(node.args)
                shape_node = args[0] if args else kw.get("shape")
                value_node = (args[1] if len(args) > 1 else kw.get("fill_value")) if op == "full" \
                    else ast.Constant(0 if op == "zeros" else 1)
                dtype_node = (args[2] if len(args) > 2 else kw.get("dtype")) if op == "full" else \
                    (args[1] if len(args) > 1 else kw.get("dtype"))
                lit = _literal(value_node) if value_node is not None else None
                if value_node is not None and shape_node is not None and dtype_node is not None \
                        and self.dtype_of(dtype_node) == "bool" and (c := self.const_value(value_node))[0]:
                    # a boolean mask filled with a constant (`ct.ones((B,), dtype=ct.bool_)`, `ct.full(.., 0,
                    # ct.bool_)` too: Python's truth of it, cuTile Python's `constant <i1: ..>`)
                    shape = self.shape_of(shape_node)
                    return self.typed(f"constant({str(bool(c[1])).lower()}, shape![{', '.join(shape)}])",
                                      Tile("bool", shape), want_name, "filled")
                if isinstance(value_node, ast.Name) and self.int_generic(value_node.id) and shape_node is not None \
                        and dtype_node is not None and self.dtype_of(dtype_node) == "i32":
                    # an int constant parameter filling an i32 tile: its const generic by name (the same constant
                    # op at each value), so one entry serves every value of it (a seed drawn per call)
                    shape = self.shape_of(shape_node)
                    return self.typed(f"broadcast_scalar({value_node.id}, shape![{', '.join(shape)}])",
                                      Tile("i32", shape), want_name, "filled")
                if lit is None and value_node is not None and (c := self.const_value(value_node))[0] and \
                        not isinstance(c[1], bool):
                    # a constant expression or a name assigned one (`float("-inf")` too): its value, as Python
                    # folds it
                    lit = c[1]
                if shape_node is not None and dtype_node is not None and lit is None and value_node is not None:
                    shape, dt = self.shape_of(shape_node), self.dtype_of(dtype_node)
                    vcode, vty = self.expr(value_node)
                    if isinstance(vty, Scalar) and vty.dtype == dt:   # a runtime scalar, broadcast
                        return self.typed(f"broadcast_scalar({vcode}, shape![{', '.join(shape)}])", Tile(dt, shape),
                                          want_name, "filled")
                    if isinstance(vty, (Scalar, Tile)) and vty.dtype != dt and vty.dtype in RUST_DTYPES and \
                            dt in RUST_DTYPES and dt != "bool" and vty.dtype != "bool" and \
                            (isinstance(vty, Scalar) or vty.shape == ()):   # a value of another dtype (an f32 sum
                        # filling a bf16 tile): converted as the 0-d tile it is, as cuTile Python converts it
                        src = f"scalar_to_tile::<{RUST_DTYPES[vty.dtype]}>({vcode})" if isinstance(vty, Scalar) \
                            else vcode
                        conv = self.fresh(f"fill_{dt}")
                        self.body.append(f"let {conv}: Tile<{RUST_DTYPES[dt]}, {{ [] }}> = "
                                         f"{_int_conversion(vty.dtype, dt, src) or f'convert_tile({src})'};")
                        vcode, vty = conv, Tile(dt, ())
                    if isinstance(vty, Tile) and vty.dtype == dt and all(d == "1" for d in vty.shape) and \
                            len(vty.shape) <= len(shape):   # a 0-d tile (`ct.max(t)`): reshaped and broadcast
                        return self.typed(self.operand_as_tile(vcode, vty, Tile(dt, shape), value_node),
                                          Tile(dt, shape), want_name, "filled")
                if shape_node is None or dtype_node is None or lit is None:
                    raise self.refuse(node, "full", f"ct.{op} with a non-literal value of another dtype")
                shape, dt = self.shape_of(shape_node), self.dtype_of(dtype_node)
                if dt == "f64" and isinstance(lit, float) and not getattr(value_node, "tileport_exact", False):
                    # a Python float is an f32 constant in cuTile Python, also filling an f64 tile
                    # (`ct.full(.., 2.718281828459045, ct.float64)` is 2.7182817459106445); a numpy f64 scalar
                    # resolve spelled so (`LOG2E = np.log2(np.e)`) keeps its digits
                    lit = _f32(lit)
                if dt.startswith("f8") and not fp8_holds(float(lit), dt):
                    raise self.refuse(value_node, "full", FP8_CONSTANT_LIMIT.format(dtype=dt, value=lit))
                if dt.startswith(("f", "bf")):
                    code = _float_constant(float(lit), dt, ", ".join(shape))
                elif _top_bit_set(int(lit), dt):   # (see signed_bits_literal; cutile types `constant(..)` only
                    # from a binding, broadcast_scalar from its operand: the same constant op)
                    signed = self.signed_bits_literal(node, int(lit), dt)
                    code = f"bitcast(broadcast_scalar({signed}, shape![{', '.join(shape)}]))"
                else:
                    code = constant_tile(rust_literal(int(lit), dt), ", ".join(shape))
                # inline (an mma accumulator argument, say) cutile needs the constant's type from a binding
                return self.typed(code, Tile(dt, shape), want_name, "filled")
            if op == "num_tiles":
                self.need(node, "num-tiles", "ct.num_tiles")
                kw = {k.arg: k.value for k in node.keywords}
                arr_node = node.args[0] if node.args else None
                axis = self._int(kw.get("axis", node.args[1] if len(node.args) > 1 else None))
                shape_node = kw.get("shape", node.args[2] if len(node.args) > 2 else None)
                if not isinstance(arr_node, ast.Name) or not isinstance(self.params.get(arr_node.id),
                                                                       sigmod.ArraySig) \
                        or axis is None or shape_node is None:
                    raise self.refuse(node, "num-tiles", "ct.num_tiles form")
                shape = self.shape_of(shape_node)
                sig = self.params[arr_node.id]
                if self.view_steps(kw.get("traversal_steps"), shape, arr_node.id) is not None:
                    raise self.refuse(node, "tiled-view-steps", STRIDED_VIEW_LIMIT.format(what="num_tiles", arr=arr_node.id))
                if not -len(sig.shape) <= axis < len(sig.shape):
                    raise self.refuse(node, "num-tiles", f"ct.num_tiles axis {axis} of a rank-{len(sig.shape)} array")
                axis %= len(sig.shape)   # (`axis=-1`: counted from the last, as cuTile Python reads it)
                # `order=` ("F", a permutation): the tile space of the view whose dim map is the order, as ct.load's
                dim_map = self.load_order(kw.get("order", node.args[3] if len(node.args) > 3 else None),
                                          len(sig.shape))
                dims = "dim_map::Identity" if dim_map is None else f"const_array![{', '.join(map(str, dim_map))}]"
                tiles = self.unclashed(f"{arr_node.id}_tiles")
                self.last_num_tiles = (arr_node.id, axis, shape) if dim_map is None else None
                if self.made(arr_node.id) and dim_map is not None:
                    raise self.refuse(node, "array-slice", SLICE_VIEW_LIMIT.format(
                        what="ct.num_tiles with a permuted order"))
                if self.made(arr_node.id):   # (see SLICE_VIEW_LIMIT)
                    self.slice_view_mut(node, arr_node.id, tiles, shape, "ct.num_tiles")
                    return f"num_tiles(&{tiles}, {axis})", Scalar("i32")
                self.body.append(f"let {tiles}: Partition<{RUST_DTYPES[sig.dtype]}, {{ [{', '.join(shape)}] }}> = "
                                 f"make_partition_view({self.tensor_arg(arr_node.id)}, shape![{', '.join(shape)}], "
                                 f"padding::None, {dims}, get_tensor_token("
                                 f"{self.tensor_arg(arr_node.id)}));")
                return f"num_tiles(&{tiles}, {axis})", Scalar("i32")
            if op == "mma":
                self.need(node, "mma", "ct.mma")
                kw = {k.arg: k.value for k in node.keywords}
                args = list(node.args) + ([kw.pop("acc")] if "acc" in kw and len(node.args) == 2 else [])
                if "use_fast_acc" in kw and self.const_value(kw["use_fast_acc"]) == (True, False):
                    kw.pop("use_fast_acc")   # (its default: the plain mma)
                if "use_fast_acc" in kw:
                    raise self.refuse(kw["use_fast_acc"], "mma", "ct.mma(.., use_fast_acc=True): Tile IR's mmaf "
                                      "fast-accumulation flag (bytecode 13.3), which cutile 0.3.1's mma cannot set")
                if len(args) != 3 or kw:
                    raise self.refuse(node, "mma", "ct.mma form (x, y, acc) without options")
                (a, ta), (b, tb), (c, tc) = self.ordered_exprs(args)
                if isinstance(ta, Tile) and isinstance(tb, Tile) and isinstance(tc, Tile) and \
                        len(ta.shape) in (2, 3) and len(tb.shape) in (2, 3) and len(ta.shape) != len(tb.shape) and \
                        (shapes := _matmul_shapes(ta.shape, tb.shape)) is not None and shapes[2] == tc.shape:
                    # a rank-3 operand beside a rank-2 one (`ct.mma(x3, w, acc3)`): the rank-2 one reshaped to a
                    # batch of one and broadcast to the other's batch, as cuTile Python's mma_impl makes it
                    (a, ta), (b, tb) = self.mma_operand(node, a, ta, ta.dtype, shapes[0]), \
                        self.mma_operand(node, b, tb, tb.dtype, shapes[1])
                if all(isinstance(t, Tile) and len(t.shape) == 3 for t in (ta, tb, tc)) and \
                        ta.shape[0] == tb.shape[0] == tc.shape[0] and ta.shape[2] == tb.shape[1] and \
                        (ta.shape[1], tb.shape[2]) == tc.shape[1:]:
                    # batched (rank 3): the same mma op, declared in the port's module for rank-3 tiles
                    self.declared_ops.setdefault("mma_batched", set())
                    return self.typed(f"mma_batched({a}, {b}, {c})", tc, want_name, "product")
                if not all(isinstance(t, Tile) and len(t.shape) == 2 for t in (ta, tb, tc)) or \
                        ta.shape[1] != tb.shape[0] or (ta.shape[0], tb.shape[1]) != tc.shape:
                    raise self.refuse(node, "mma", "ct.mma operand shapes")
                # inline, cutile types the product with the generics' values: a binding keeps the symbolic shape
                return self.typed(f"mma({a}, {b}, {c})", tc, want_name, "product")
            if op == "exp" or (op == "tanh" and node.keywords):
                return self.rounded_unary(node, op)
            if op == "extract":
                return self.extract(node, want_name)
            if op == "broadcast_to":
                self.need(node, "reshape-broadcast", "ct.broadcast_to")
                kw = {k.arg: k.value for k in node.keywords}
                args = list(node.args) + ([kw.pop("shape")] if "shape" in kw else [])
                if len(args) != 2 or kw:
                    raise self.refuse(node, "reshape-broadcast", "ct.broadcast_to form (tile, shape)")
                code, ty = self.expr(args[0])
                shape = self.shape_of(args[1])
                if not isinstance(ty, Tile) or len(ty.shape) > len(shape) or \
                        _broadcast_shapes([("1",) * (len(shape) - len(ty.shape)) + ty.shape, shape]) != shape:
                    raise self.refuse(node, "reshape-broadcast", f"ct.broadcast_to of {_describe(ty)} to "
                                                                 f"{self.text(args[1])}")
                return self.operand_as_tile(code, ty, Tile(ty.dtype, shape), node), Tile(ty.dtype, shape)
            if op == "matmul":
                return self.matmul(node, want_name)
            if op in BINARY_MATH or op in UNARY_MATH:
                return self.math(node, op)
            if op in PLAIN_BINARY_MATH:
                self.need(node, "math-explicit", f"ct.{op}")
                if len(node.args) != 2 or node.keywords:
                    raise self.refuse(node, "math-explicit", f"ct.{op} form (x, y) without options")
                ok, exponent = self.const_value(node.args[1])
                p = self.params.get(node.args[1].id) if isinstance(node.args[1], ast.Name) else None
                if op == "pow" and ok and isinstance(exponent, int) and not isinstance(exponent, bool):
                    return self.pow_int(node, exponent, want_name)
                if op == "pow" and isinstance(p, sigmod.ScalarSig) and not p.dtype.startswith(("f", "bf")):
                    raise self.refuse(node, "pow-int", f"`{self.text(node)}`: an integer exponent, which cuTile "
                                      "Python compiles to Tile IR `fpowi`; cutile 0.3.1 has no such op (its IR knows "
                                      "only the float `pow`): write the exponent as a float (`x ** 2.0`) or multiply")
                # of f32 scalars (`beta1 ** step`, `2.0 ** (-8.0 * (h + 1) / H)` of a block id): the op on their
                # 0-d tiles, as cuTile Python computes it; otherwise (a tile among them) elementwise, the scalar
                # operands' code given back
                mark = len(self.body)
                scalars = [(rust_literal(lit, "f32"), Scalar("f32")) if isinstance(lit := _literal(n), float)
                           else self.expr(n) for n in node.args]
                if op == "pow" and isinstance(scalars[1][1], (Tile, Scalar)) and \
                        not scalars[1][1].dtype.startswith(("f", "bf")):   # an integer exponent not known here
                    raise self.refuse(node, "pow-int", f"`{self.text(node)}`: an integer exponent known only at run "
                                      "time, which cuTile Python compiles to Tile IR `fpowi`; cutile 0.3.1 has no "
                                      "such op: write the exponent as a float or multiply")
                if all(ty == Scalar("f32") for _, ty in scalars):
                    a, b = (f"scalar_to_tile::<f32>({code})" for code, _ in scalars)
                    return f"tile_to_scalar::<f32, f32>({PLAIN_BINARY_MATH[op]}({a}, {b}))", Scalar("f32")
                del self.body[mark:]
                return self.elementwise(node, "math-explicit", list(node.args),
                                        lambda a, b: f"{PLAIN_BINARY_MATH[op]}({a}, {b})", float_only=True)
            if op in ("sum", "max", "min", "prod"):
                return self.reduce(node, op, want_name)
            if op in ("maximum", "minimum"):
                self.need(node, "maximum", f"ct.{op}")
                if len(node.args) != 2:
                    raise self.refuse(node, "math", f"ct.{op} takes two operands")
                nan, ftz = self.min_max_options(node)
                (a, ta), (b, tb) = self.expr(node.args[0]), self.expr(node.args[1])
                ifn = "maxi" if op == "maximum" else "mini"
                if ta == tb == Scalar("i32"):   # integer scalars: the signed op on 0-d tiles
                    a, b = (f"{c}i32" if _literal(n) is not None else c for c, n in ((a, node.args[0]),
                                                                                     (b, node.args[1])))
                    return self.int_min_max(ifn, a, b), Scalar("i32")
                if ta == tb == Scalar("f32"):   # float scalars (`max(lo, 0.0)` of an argument): the op on their
                    # 0-d tiles, as cuTile Python computes it
                    a, b = (rust_literal(_literal(n), "f32") if _literal(n) is not None else c
                            for c, n in ((a, node.args[0]), (b, node.args[1])))
                    return self.int_min_max("maxf" if op == "maximum" else "minf", a, b, "f32",
                                            f", {nan}, {ftz}"), Scalar("f32")
                like = self.result_tile(node, ta, tb)
                if like.dtype in INTEGER_DTYPES:   # (signed or not by
                    # the dtype, as cutile infers maxi/mini's signedness)
                    return (f"{ifn}({self.operand_as_tile(a, ta, like, node.args[0])}, "
                            f"{self.operand_as_tile(b, tb, like, node.args[1])})"), like
                if not like.dtype.startswith(("f", "bf")):
                    raise self.refuse(node, "math", f"ct.{op} on {like.dtype} tiles")
                fn = "maxf" if op == "maximum" else "minf"
                return (f"{fn}({self.operand_as_tile(a, ta, like, node.args[0])}, "
                        f"{self.operand_as_tile(b, tb, like, node.args[1])}, {nan}, {ftz})"), like
            if op == "astype":
                self.need(node, "astype", "ct.astype")
                if len(node.args) == 2 and [k.arg for k in node.keywords] == ["rounding_mode"]:
                    return self.astype_rounded(node, want_name)
                if len(node.args) != 2 or node.keywords:
                    raise self.refuse(node, "astype", "ct.astype with options")
                code, ty = self.expr(node.args[0])
                if isinstance(ty, Scalar) and ty.dtype == "i32" and self.dtype_of(node.args[1]) == "f32":
                    return self.int_as_float(code, node.args[0]), Scalar("f32")   # a signed itof, as promoted
                if isinstance(ty, Scalar) and ty.dtype == self.dtype_of(node.args[1]):
                    return code, ty
                if isinstance(ty, Scalar) and ty.dtype in RUST_DTYPES and \
                        (dt := self.dtype_of(node.args[1])) in RUST_DTYPES and dt != "bool":
                    # a scalar is a 0-d tile in cuTile Python: converted as one (`pid.astype(ct.int64)`: exti)
                    src, dst = RUST_DTYPES[ty.dtype], RUST_DTYPES[dt]
                    if (lit := _literal(node.args[0])) is not None and dt in ("i32", "i64", "f32"):
                        return rust_literal(float(lit) if dt == "f32" else int(lit), dt), Scalar(dt)
                    conv = _int_conversion(ty.dtype, dt, f"scalar_to_tile::<{src}>({code})") or \
                        f"convert_tile(scalar_to_tile::<{src}>({code}))"
                    return ("{ let converted: Tile<" + dst + ", { [] }> = " + conv + "; tile_to_scalar::<" + dst +
                            ", " + dst + ">(converted) }"), Scalar(dt)
                if not isinstance(ty, Tile):
                    raise self.refuse(node, "astype", "ct.astype of a non-tile (other than an int scalar to f32)")
                dt = self.dtype_of(node.args[1])
                out_ty = Tile(dt, ty.shape)
                if dt == ty.dtype:
                    return code, ty  # cuTile Python emits nothing for a cast to the same dtype
                base = node.args[0].id if isinstance(node.args[0], ast.Name) else "cast"
                if dt == "bool" and ty.dtype in INTEGER_DTYPES:   # an integer to bool (signed or unsigned): `x != 0`,
                    # the cmpi cuTile Python emits (its convert_dtype: a truncation would keep the low bit only)
                    zero = f"broadcast_scalar({rust_literal(0, ty.dtype)}, shape![{', '.join(ty.shape)}])"
                    return self.typed(f"ne_tile({code}, {zero})", out_ty, want_name, f"{base}_{dt}")
                if ty.dtype == "bool" and isinstance(node.args[0], ast.BinOp):
                    # a mask combined in place (`((d[:, None] == bins) & (p[:, None] < n)).astype(ct.int32)`):
                    # cutile 0.3.1 compiles a conversion's operand expecting the conversion's result type, and a
                    # broadcast in the `&`'s right side then comes out of the wrong rank (tileirdisasm: "'cuda_tile.
                    # broadcast' op failed to verify that all of {source, result} have same rank"); the mask is
                    # bound to its own typed `let` first (no op more)
                    code, _ = self.typed(code, ty, None, f"{base}_mask")
                return self.typed(f"{_int_conversion(ty.dtype, dt, code) or f'convert_tile({code})'}", out_ty,
                                  want_name, f"{base}_{dt}")
            raise self.refuse(node, self._construct_for_call(op), f"call `{self.text(node.func)}(...)`")
        raise self.refuse(node, "assign", f"expression `{self.text(node)}`")

    def inline(self, node: ast.Call, helper: ast.FunctionDef, want_name: str | None) -> tuple[str, Ty]:
        """A call to a helper `@ct.function`, inlined as cuTile Python inlines it: a Rust block that binds the
        parameters, runs the helper's statements and yields its return value (the block keeps its names local)."""
        self.need(node, "helper-function", f"call to helper {helper.name}()")
        params = helper.args
        if node.keywords or params.vararg or params.kwarg or params.kwonlyargs or params.posonlyargs or \
                len(node.args) != len(params.args):   # (keywords and defaults are bound by resolve)
            raise self.refuse(node, "helper-function", f"call to {helper.name}() other than with one positional "
                                                       "argument per parameter")
        if self.inlining.count(helper.name) >= MAX_RECURSION:
            raise self.refuse(node, "helper-function", f"recursive call to {helper.name}() more than "
                                                       f"{MAX_RECURSION} deep")
        body = [st for st in helper.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
        if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None or \
                any(isinstance(n, ast.Return) for st in body[:-1] for n in walk_nodes(st)):
            raise self.refuse(helper, "helper-function", f"helper {helper.name}() must end in its only `return`")
        # an array passed in: the helper reads the kernel's array under the parameter's name, so its uses are
        # renamed to the array for this inlining (in place, restored after: node identities carry fma positions)
        arrays = {p.arg: a.id for p, a in zip(params.args, node.args)
                  if isinstance(a, ast.Name) and isinstance(self.params.get(a.id), sigmod.ArraySig)
                  and a.id not in self.env}
        renamed = [n for st in body for n in walk_nodes(st) if isinstance(n, ast.Name) and n.id in arrays]
        if any(isinstance(n.ctx, ast.Store) for n in renamed):
            raise self.refuse(node, "helper-function", f"helper {helper.name}() re-binds an array parameter")
        # a tuple passed in (`_write(y, (pid,), t)`, an index): the helper reads it where the parameter is read, as
        # cuTile Python passes the tuple itself; its elements are the caller's values, read under the caller's names
        tuples = {p.arg: a for p, a in zip(params.args, node.args) if isinstance(a, (ast.Tuple, ast.List))
                  and p.arg not in arrays}
        seen = {n.id for a in tuples.values() for n in walk_nodes(a) if isinstance(n, ast.Name)}
        if helper.name in self.tuple_args and (tuples or self.tuple_args[helper.name][0]):
            raise self.refuse(node, "helper-function", f"call to {helper.name}() among the arguments of another "
                                                       f"call to it, with a tuple argument")
        inner = set(_assign_counts(helper)) | {a.arg for a in params.args}
        if seen & inner:
            raise self.refuse(node, "helper-function", f"call to {helper.name}() with a tuple of names the helper "
                                                       f"binds itself ({', '.join(sorted(seen & inner))})")
        if any(isinstance(n, ast.Name) and n.id in tuples and not isinstance(n.ctx, ast.Load)
               for st in body for n in walk_nodes(st)):
            raise self.refuse(node, "helper-function", f"helper {helper.name}() re-binds a tuple parameter")
        replaced: list[tuple[ast.AST, str, int | None, ast.AST]] = []
        for parent in (n for st in body for n in walk_nodes(st)):
            for fname, value in ast.iter_fields(parent):
                items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
                for k, child in items:
                    held = child.elts[0] if getattr(child, "tileport_wrapped", False) and \
                        len(child.elts) == 1 else child   # (`index=idx` read as `(idx,)`: resolve.unwrap_index)
                    if isinstance(held, ast.Name) and held.id in tuples:
                        new = ast.copy_location(copy.deepcopy(tuples[held.id]), child)
                        (value.__setitem__(k, new) if k is not None else setattr(parent, fname, new))
                        replaced.append((parent, fname, k, child))
        originals = [(n, n.id) for n in renamed]
        for n in renamed:
            n.id = arrays[n.id]
        outer_tuple_args = self.tuple_args   # (restored after: a call among its own arguments sets it again)
        self.tuple_args = {**self.tuple_args, helper.name: (set(tuples), seen)}
        try:
            return self._inline_body(node, helper, params, body, arrays, want_name)
        finally:
            self.tuple_args = outer_tuple_args
            for n, name in originals:
                n.id = name
            for parent, fname, k, child in reversed(replaced):
                if k is None:
                    setattr(parent, fname, child)
                else:
                    getattr(parent, fname)[k] = child

    def _inline_body(self, node: ast.Call, helper: ast.FunctionDef, params: ast.arguments, body: list[ast.stmt],
                     arrays: dict[str, str], want_name: str | None) -> tuple[str, Ty]:
        split = None   # (the returned product, its factors' types) when the block yields the factors
        # what each parameter is known to hold, decided in the caller: inside the helper a parameter shadows a
        # kernel constant of the same name (`STAGE` called with `inner_stage = 4 - STAGE`)
        known = {p.arg: self.const_value(a) for p, a in zip(params.args, node.args) if p.arg not in arrays}
        # a bool known here (`keepdims=keep` of a `keep=True` default) is an option the helper reads, as cuTile
        # Python folds it: no value to bind (cutile has no bool scalar to pass); a string mode (`act="gelu"`) alike
        flags = {p for p, (ok, v) in known.items() if ok and (type(v) in (bool, str) or v is None)}
        # a dtype passed in (`cast(t, y.dtype)`): the helper names it where it converts, nothing to bind
        dtypes = {p.arg: dt for p, a in zip(params.args, node.args)
                  if p.arg not in arrays and (dt := self.static_dtype(a)) is not None}
        flags |= set(dtypes)
        passed_tuples, tuple_names = self.tuple_args.get(helper.name, (set(), set()))
        args = []
        given: dict[str, tuple] = {}   # a product passed in as written (`add_c(t * t)`, `add_c(sq(t))`): its factors
        for p, a in zip(params.args, node.args):
            if p.arg in arrays or p.arg in flags or p.arg in passed_tuples:
                args.append((None, None))
                continue
            self.helper_result_consts = []
            self.last_product, self.helper_product = None, None
            returns_product = isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and \
                isinstance(h := self.helpers.get(a.func.id), ast.FunctionDef) and h.body and \
                isinstance(h.body[-1], ast.Return) and isinstance(h.body[-1].value, ast.BinOp) and \
                isinstance(h.body[-1].value.op, ast.Mult)
            if returns_product and not _assign_counts(helper).get(p.arg):   # (the block yields both factors)
                tmp = self.fresh(f"{p.arg}_arg")
                self.fusing_names.add(tmp)
                args.append(self.expr(a, want_name=tmp))
            else:
                args.append(self.expr(a))
            if not _assign_counts(helper).get(p.arg) and isinstance(a, ast.BinOp) and isinstance(a.op, ast.Mult) \
                    and self.last_product:
                given[p.arg] = (self.last_product, self.DEFAULT_FP)
            elif returns_product and self.helper_product is not None and not _assign_counts(helper).get(p.arg):
                given[p.arg] = (self.helper_product, self.DEFAULT_FP)
            self.helper_product = None
            if isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id in self.helpers and \
                    len(self.helper_result_consts) == 1 and self.helper_result_consts[0][0] and \
                    type(self.helper_result_consts[0][1]) in (int, float) and not known[p.arg][0]:
                # a helper's constant result passed on (`mul(mul(1.0, 0.5), 2.0)`): the parameter is that constant
                # inside, as cuTile Python folds it after inlining
                known[p.arg] = self.helper_result_consts[0]
        # a name holding a product passed in (`t = double(t)` then `inc(t)`, whose `t + 1.0` cuTile Python contracts
        # with the product it is given): the parameter holds it too, where the helper does not re-bind it
        carried = {p.arg: self.products[a.id] for p, a in zip(params.args, node.args)
                   if isinstance(a, ast.Name) and self.product_here(a.id) and not _assign_counts(helper).get(p.arg)
                   and p.arg not in arrays and p.arg not in flags and p.arg not in passed_tuples}
        carried.update(given)   # (a product written in the call, or a helper's returned product, alike)
        saved = (self.env, self.body, self.comments, dict(self.bid_names), dict(self.products), dict(self.tile_counts),
                 self.assign_counts, self.const_locals, self.helper_params)
        # a function defined inside the kernel reads the enclosing locals it does not bind itself (a closure: the
        # values at the call, as Python's are); another helper reads its parameters and module names only
        closure = {k: v for k, v in saved[0].items() if k not in _assign_counts(helper) and
                   k not in {a.arg for a in params.args}} if getattr(helper, "tileport_nested", False) else {}
        closure.update({k: saved[0][k] for k in tuple_names if k in saved[0]})   # (a tuple argument's names)
        if getattr(helper, "tileport_nested", False):   # a constant the closure reads (an enclosing helper's `k=2`
            # parameter, a constant local) is that constant inside it too, as cuTile Python folds it
            for name in closure:
                if name not in known and name not in self.params and \
                        (c := self.const_value(ast.Name(name, ast.Load())))[0] and type(c[1]) in (int, float):
                    known[name] = c
        self.env, self.body, self.comments = closure, [], {}
        self.assign_counts, self.const_locals, self.helper_params = _assign_counts(helper), {}, known
        self.inlining.append(helper.name)
        self.block_serial += 1
        self.block_keys.append((self.block_serial, "helper"))
        outer_dtypes = self.dtype_locals
        self.dtype_locals = {**self.dtype_locals, **dtypes}
        try:
            for p, a_node, (code, ty) in zip(params.args, node.args, args):
                if p.arg in arrays or p.arg in flags or p.arg in passed_tuples:
                    continue
                if not isinstance(ty, (Tile, Scalar)):
                    raise self.refuse(a_node, "helper-function", f"array argument {self.text(a_node)} to a helper")
                if code in self.constants and not self.assign_counts.get(p.arg):   # a constant passed on: the
                    # parameter is that constant (a tile extent, a const generic in the Rust)
                    self.env[p.arg] = (code, ty)
                    continue
                if p.arg in self.constants:   # Rust cannot re-bind a const generic's name: the helper's
                    # parameter reads the value (bound to a name of its own when it is another value)
                    if code != p.arg:   # (an alias could see the name re-bound later in the helper)
                        tmp = self.fresh(f"{p.arg.lower()}_arg")
                        self.body.append(f"let {tmp}: {ty.rust()} = {code};")
                        code = tmp
                    self.env[p.arg] = (code, ty)
                    continue
                self.body.append(f"let {'mut ' if p.arg in self.mutated else ''}{p.arg}: {ty.rust()} = {code};")
                self.env[p.arg] = (p.arg, ty)
                if p.arg in carried:
                    self.products[p.arg] = carried[p.arg]
                    self.product_block[p.arg] = self.block_key()
            self.stmts(body[:-1], "")
            ret = body[-1].value
            # what each result is known to be when the helper compiles (`t.shape[1]`, a constant): the names the
            # call binds hold those constants, as cuTile Python folds them after inlining
            consts = [self.const_value(e) for e in (ret.elts if isinstance(ret, ast.Tuple) else [ret])]
            if isinstance(ret, ast.Tuple):   # several results: a Rust tuple, unpacked by the calling assignment
                parts = [self.expr(e) for e in ret.elts]
                if not all(isinstance(t, (Tile, Scalar)) for _, t in parts):
                    raise self.refuse(ret, "helper-tuple", f"helper {helper.name}() returns an array")
                if len(parts) == 1:   # (rewrite helper-single-result takes the unpacked and indexed calls)
                    raise self.refuse(ret, "helper-tuple", f"helper {helper.name}() returns a one-element tuple "
                                                           "read other than by one target or [0]: cutile 0.3.1 "
                                                           "compiles no 1-tuple")
                code, ty = f"({', '.join(c for c, _ in parts)})", Results(tuple(t for _, t in parts))
            elif want_name in self.fusing_names and isinstance(ret, ast.BinOp) and isinstance(ret.op, ast.Mult) \
                    and not consts[0][0]:   # (a product of constants cuTile Python folds: a constant, no fma)
                # a product an fma after the call contracts (cuTile Python inlines first, then fuses): the block
                # yields both factors, multiplied outside it (see helper_product)
                (lc, lt), (rc, rt) = self.expr(ret.left), self.expr(ret.right)
                split = (ret, lt, rt)
                code, ty = f"({lc}, {rc})", Results((lt, rt))
            else:
                code, ty = self.expr(ret)
            self.helper_result_consts = consts   # (after the results' own inlined calls set theirs)
            lines = _unread_carried(self.body, code, carried)
        finally:
            self.inlining.pop()
            self.block_keys.pop()
            self.dtype_locals = outer_dtypes
            self.env, self.body, self.comments = saved[:3]
            (self.bid_names, self.products, self.tile_counts, self.assign_counts, self.const_locals,
             self.helper_params) = saved[3:]
        if not isinstance(ty, (Tile, Scalar, Results)):
            raise self.refuse(body[-1], "helper-function", f"helper {helper.name}() returns an array")
        block = "\n".join([f"{{ // {helper.name}(..), a @ct.function inlined as cuTile Python inlines it",
                           *lines, code, "}"])
        if split is not None:
            ret, lt, rt = split
            # (a literal factor is written where it is used: its binding, never read, is named `_..`)
            a, b = (self.fresh(f"{'_' if _literal(n) is not None else ''}{want_name}_{side}")
                    for n, side in ((ret.left, "lhs"), (ret.right, "rhs")))
            self.body.append(f"let ({a}, {b}): ({lt.rust()}, {rt.rust()}) = {block};")
            self.helper_product = [(ret.left, a, lt), (ret.right, b, rt)]
            if not (isinstance(lt, Tile) or isinstance(rt, Tile)):
                return f"{a} * {b}", lt
            like = self.result_tile(ret, lt, rt)
            return (f"{_paren(self.operand_as_tile(a, lt, like, ret.left))} * "
                    f"{_paren(self.operand_as_tile(b, rt, like, ret.right))}"), like
        if want_name is not None:
            return block, ty
        tmp = self.fresh(f"{helper.name}_out")
        self.body.append(f"let {tmp}: {ty.rust()} = {block};")
        return tmp, ty

    def elementwise(self, node: ast.AST, construct: str, operands: list[ast.AST], form, int_only: bool = False,
                    float_only: bool = False, pre: list | None = None) -> tuple[str, Tile]:
        """A two-operand element-wise op with numpy broadcasting made explicit; ``form(a, b)`` writes the call.
        ``pre``: the operands already translated (ordered_exprs of ``operands``)."""
        self.need(node, construct, construct)
        (ac, at), (bc, bt) = pre if pre is not None else self.ordered_exprs(operands)
        if int_only and isinstance(at, Scalar) and isinstance(bt, Scalar):
            # integer scalars (`1 << (i % 31)`): the op on 0-d tiles, as cuTile Python computes it (a literal takes
            # the other side's type)
            dtype = at.dtype if _literal(operands[0]) is None else bt.dtype
            if dtype not in ("i32", "i64", "bool") or {at.dtype, bt.dtype} - {dtype} and \
                    all(_literal(n) is None for n in operands):
                raise self.refuse(node, construct, f"bitwise operation on {at.dtype} and {bt.dtype} scalars")
            rust = RUST_DTYPES[dtype]
            sides = [f"{c}{dtype}" if _literal(n) is not None and dtype != "bool" else c
                     for c, n in ((ac, operands[0]), (bc, operands[1]))]
            tiles = [f"scalar_to_tile::<{rust}>({c})" for c in sides]
            return f"tile_to_scalar::<{rust}, {rust}>({form(*tiles)})", Scalar(dtype)
        like = self.result_tile(node, at, bt)
        if int_only and like.dtype.startswith(("f", "bf")):
            raise self.refuse(node, construct, f"bitwise operation on {like.dtype} tiles")
        if float_only and not like.dtype.startswith(("f", "bf")):
            raise self.refuse(node, construct, f"float math on {like.dtype} tiles")
        self.elementwise_like = like   # (the result's type, for a form that depends on it)
        return form(self.operand_as_tile(ac, at, like, operands[0]), self.operand_as_tile(bc, bt, like, operands[1])), \
            like

    def pow_int(self, node: ast.Call, n: int, want_name: str | None) -> tuple[str, Ty]:
        """`x ** n` / `ct.pow(x, n)` of a float tile or scalar and a constant integer n (rewrite pow-int-products).
        cuTile Python compiles it to Tile IR `fpowi`, which cutile 0.3.1 cannot emit; tileiras 13.4 compiles a
        constant exponent to right-to-left square-and-multiply: the result started at x's lowest set power, each
        later one multiplied on (`result = x^(2^k) * result`), the squares `x^(2^k) = x^(2^(k-1)) * x^(2^(k-1))`,
        f16/bf16 computed in f32 and rounded once (docs/corpus.md, limits: the FMULs read with nvdisasm). The port
        writes those products in that order (irdiff rule fpowi-const); the `* 1` tileiras starts the result with is
        exact for n >= 2 (a NaN is the canonical one either way) and left out."""
        self.need(node, "pow-int", f"`{self.text(node)}`")
        what = f"`{self.text(node)}`"
        code, ty = self.expr(node.args[0])
        dt = ty.dtype
        if dt not in ("f32", "f64", "f16", "bf16"):
            raise self.refuse(node, "pow-int", f"{what}: an integer exponent of a {dt} value (Tile IR `fpowi` takes "
                              "f16, bf16, f32 or f64)")
        if n < 0:
            raise self.refuse(node, "pow-int", f"{what}: a negative integer exponent, which tileiras compiles to the "
                              "reciprocal (rcp.rn) of the product, where a port's `1.0 / p` is a division (another "
                              "instruction sequence): write `1.0 / "
                              + ("x" if n == -1 else f"(x ** {-n})") + "` if that is what is meant")
        if n == 0:
            raise self.refuse(node, "pow-int", f"{what}: an exponent of 0 is the constant 1 (write `ct.full(.., 1.0, "
                              "..)`)")
        if n == 1 and dt != "f64":
            raise self.refuse(node, "pow-int", f"{what}: an exponent of 1, which tileiras compiles to `x * 1` (a NaN "
                              "made the canonical one) and folds away in a port's `x * 1.0`: write `x`")
        if isinstance(ty, Scalar) and dt not in ("f32", "f64"):
            raise self.refuse(node, "pow-int", f"{what}: an integer exponent of a {dt} scalar")
        if n == 1:
            return code, ty
        narrow = dt in ("f16", "bf16")
        wide = (Tile("f32", ty.shape) if isinstance(ty, Tile) else Scalar("f32")) if narrow else ty
        if narrow:   # computed in f32 and rounded once, as tileiras computes it
            code, _ = self.typed(f"convert_tile({code})", wide, None, "pow_base")
        elif not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", code):
            name = self.fresh("pow_base")
            self.body.append(f"let {name}: {wide.rust()} = {code};")
            code = name
        self.body.append(f"// {what}: square-and-multiply, in the order tileiras computes Tile IR `fpowi` "
                         f"(irdiff rule fpowi-const)")
        base, power, result, k = code, 1, None, n
        while True:
            if k & 1:
                result = base if result is None else f"{base} * {f'({result})' if ' * ' in result else result}"
            k >>= 1
            if not k:
                break
            square, power = f"{base} * {base}", 2 * power
            if k > 1:   # squared again: bound once
                base = self.fresh(f"{code}_pow{power}")
                self.body.append(f"let {base}: {wide.rust()} = {square};")
            else:
                base = f"({square})"
        assert result is not None
        if result.startswith("(") and result.endswith(")") and result.count("(") == 1:
            result = result[1:-1]
        if narrow:
            return self.typed(f"convert_tile({result})", ty, want_name, "pow")
        return result, ty

    def arange(self, node: ast.Call, want_name: str | None) -> tuple[str, Ty]:
        self.need(node, "arange", "ct.arange")
        kw = {k.arg: k.value for k in node.keywords}
        if len(node.args) != 1 or set(kw) - {"dtype"}:
            raise self.refuse(node, "arange", "ct.arange form (n, dtype=)")
        n = self.shape_of(ast.Tuple(elts=[node.args[0]]))[0]
        dt = self.dtype_of(kw["dtype"]) if "dtype" in kw else "i32"
        ty = Tile(dt, (n,))
        if not dt.startswith(("i", "u")):   # a float arange: the i32 iota converted, as cuTile Python builds it
            # (Tile IR's iota makes integers only)
            ints, _ = self.typed(f"iota(shape![{n}])", Tile("i32", (n,)), None, f"iota_{n.lower()}")
            return self.typed(f"convert_tile({ints})", ty, want_name, f"arange_{n.lower()}")
        return self.typed(f"iota(shape![{n}])", ty, want_name, f"arange_{n.lower()}")

    def builtin_combine(self, node: ast.Call, op: str) -> ast.Call | None:
        """``ct.reduce(x, axis, func, identity)`` / ``ct.scan(..)`` of one tile whose combine is a sum, product,
        maximum or minimum of its two arguments (`lambda a, b: a + b`, `ct.maximum`, `operator.add`) at that op's
        own identity: the built-in reduction or scan it is (`ct.sum(x, axis)`, `ct.cumsum(x, axis)`), whose Tile IR
        cuTile Python emits for it alike; None for any other combine or identity."""
        kw = {k.arg: k.value for k in node.keywords}
        names = ("x", "axis", "func", "identity")
        args = dict(zip(names, node.args)) | {k: v for k, v in kw.items() if k in names}
        if set(args) != set(names) or isinstance(args["x"], ast.Tuple) or set(kw) - set(names) - {"keepdims",
                                                                                                 "reverse"}:
            return None
        kind = _combine_kind(args["func"], self.ct)
        found, identity = self.const_value(args["identity"])
        if kind is None or not found or isinstance(identity, bool) or not isinstance(identity, (int, float)):
            return None
        # (the tile's dtype where the name holds it: an integer's extremes are its max / min identities; not
        # translated here, where its ops would be written twice)
        ty = self.env[args["x"].id][1] if isinstance(args["x"], ast.Name) and args["x"].id in self.env else None
        bits = _int_bits(ty.dtype) if isinstance(ty, Tile) else None
        low, high = ((-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if ty.dtype.startswith("i") else (0, 2 ** bits - 1)) \
            if bits else (float("-inf"), float("inf"))
        if identity != {"add": 0, "mul": 1, "maximum": low, "minimum": high}[kind]:
            return None
        builtin = {"reduce": {"add": "sum", "mul": "prod", "maximum": "max", "minimum": "min"},
                   "scan": {"add": "cumsum", "mul": "cumprod"}}[op].get(kind)
        if builtin is None:
            return None
        extra = [ast.keyword(k, v) for k, v in kw.items() if k in ("keepdims", "reverse")]
        fn = ast.Attribute(ast.Name(next(iter(self.aliases)), ast.Load()), builtin, ast.Load())
        call = ast.Call(fn, [args["x"], args["axis"]], extra)
        for n in (call, fn, fn.value):
            ast.copy_location(n, node)
        return call

    def as_array_dtype(self, vcode: str, vty: object, ty: Tile, arr: str, node: ast.AST, what: str,
                       row: str) -> tuple[str, object]:
        """A scattered or atomic value converted to its array's dtype, as cuTile Python's implicit cast converts it
        (an i32 tile into an i64 array, f16 into f32: where the two promote to the array's dtype); the others
        (f64 into f32) it refuses, and so does the port."""
        if not isinstance(vty, Tile) or vty.dtype == ty.dtype:
            return vcode, vty
        if promote({vty.dtype, ty.dtype}) != ty.dtype:
            raise self.refuse(node, row, f"{what} of {vty.dtype} values into {ty.dtype} (cuTile Python casts a value "
                                         "to its array's dtype only where the two promote to it)")
        conv = _int_conversion(vty.dtype, ty.dtype, vcode) or f"convert_tile({vcode})"
        return self.typed(conv, Tile(ty.dtype, vty.shape), None, f"{arr}_values")

    def pointer_access(self, node: ast.Call, what: str, kw: dict, checked: bool = True,
                       token: bool = True) -> tuple[str, str, str, Tile, str]:
        """The shared part of ct.gather and ct.scatter on a rank-1, stride-1 array, as cuTile Python lowers it: the
        index widened to 64 bits, checked (unsigned) against the array's extent unless not ``checked`` (a gather's
        check_bounds=False) and and-ed with the mask, and a pointer tile from the array's base. Returns (array,
        element type, temp prefix, index tile type, token). Other ranks and strided vectors: pointer_access_nd (a
        dynamic stride is an entry parameter the launcher fills: a cutile kernel cannot read it)."""
        arr_node, index_node = node.args[0], node.args[1]
        sig = self.params.get(arr_node.id) if isinstance(arr_node, ast.Name) else None
        if not isinstance(sig, sigmod.ArraySig):
            raise self.refuse(arr_node, "gather-scatter", f"{what} of something that is not an array parameter")
        if sig.rank != 1 or (isinstance(index_node, ast.Tuple) and len(index_node.elts) > 1) or \
                tuple(sig.strides or (None,)) != (1,):   # (a strided vector: its stride a parameter, as for rank n)
            return self.pointer_access_nd(node, what, kw, sig, checked, token)
        if isinstance(index_node, ast.Tuple):
            if len(index_node.elts) != 1:
                raise self.refuse(index_node, "gather-scatter", f"{what} index tuple of the wrong length")
            index_node = index_node.elts[0]
        icode, ity = self.expr(index_node)
        if ity == Scalar("i32"):   # one element: a 0-d tile
            icode, ity = f"scalar_to_tile::<i32>({icode})", Tile("i32", ())
        if not isinstance(ity, Tile) or ity.dtype not in ("i32", "i64"):
            raise self.refuse(index_node, "gather-scatter", f"{what} index that is not an i32/i64 tile or scalar")
        mask_code = None
        if "mask" in kw:
            mcode, mty = self.expr(kw["mask"])
            if not isinstance(mty, Tile) or mty.dtype != "bool":
                raise self.refuse(kw["mask"], "gather-scatter", f"{what} mask that is not a boolean tile")
            mask_code = self.operand_as_tile(mcode, mty, Tile("bool", ity.shape), kw["mask"])
        elem, arr = RUST_DTYPES[sig.dtype], arr_node.id
        dims = ", ".join(ity.shape)
        ones = ", ".join("1" for _ in ity.shape)
        g = self.fresh(f"{arr}_{what.removeprefix('ct.')}")
        b = self.body
        if checked:
            b.append(f"// {what} on {arr}: indices widened to 64 bits and checked against {arr}'s extent"
                     f"{' (and the mask)' if mask_code else ''}, addresses from its base pointer")
        else:
            b.append(f"// {what} on {arr} with check_bounds=False: indices widened to 64 bits, addresses from its "
                     "base pointer, no check (the caller keeps every index inside the array)")
        # (a 64-bit index is used as it is: the same Tile IR type, read unsigned for the check)
        b.append(f"let {g}_at: Tile<u64, {{ [{dims}] }}> = {'exti' if ity.dtype == 'i32' else 'bitcast'}({icode});")
        if checked:
            b.append(f"let {g}_len: Tile<i32, {{ [] }}> = scalar_to_tile({self.extent(arr, 0)});")
            b.append(f"let {g}_len: Tile<u64, {{ [] }}> = exti({g}_len);")
            b.append(f"let {g}_inside: Tile<bool, {{ [{dims}] }}> = lt_tile({g}_at, {g}_len.reshape("
                     f"shape![{ones}]).broadcast(shape![{dims}]));")
        b.append(f"let {g}_base: PointerTile<*mut {elem}, {{ [] }}> = get_tensor_base({arr});")
        b.append(f"let {g}_base: PointerTile<*mut {elem}, {{ [{ones}] }}> = {g}_base.reshape(shape![{ones}]);")
        b.append(f"let {g}_base: PointerTile<*mut {elem}, {{ [{dims}] }}> = {g}_base.broadcast(shape![{dims}]);")
        b.append(f"let {g}_offsets: Tile<u64, {{ [{dims}] }}> = {g}_at * constant(1u64, shape![{dims}]);")
        b.append(f"let {g}_ptrs: PointerTile<*mut {elem}, {{ [{dims}] }}> = addptr_tile({g}_base, {g}_offsets);")
        ok, at = self.const_value(index_node)   # a constant index moves the base by a known number of bytes
        if not ok:
            ok, at = self.constant_tile_value(index_node)
        step = ELEMENT_BYTES.get(sig.dtype, 1) * (at if ok and isinstance(at, int) and not isinstance(at, bool)
                                                  else 1)
        div = math.gcd(sig.base_align, step) if ity.shape in ((), ("1",)) else 1
        if not what.startswith("ct.atomic"):   # (cuTile Python states no alignment of an atomic's address)
            self.assume_element_alignment(node, arr, sig, g, dims, div)
        parts = [f"{g}_inside"] if checked else []   # the extent check, and-ed with the mask
        if mask_code:
            parts.append(_paren(mask_code) if parts else mask_code)
        if parts:
            b.append(f"let {g}_mask: Tile<bool, {{ [{dims}] }}> = {' & '.join(parts)};")
        if token and self.acquire_emitted and not what.startswith("ct.atomic"):
            b.append(f"let {g}_token: Token = {self.acquire_emitted};")   # (after the acquiring atomic)
        elif token:   # (a scatter after an earlier one into the same array takes that one's token instead)
            b.append(f"let {g}_token: Token = get_tensor_token({self.tensor_arg(arr)});")
        return arr, elem, g, Tile(sig.dtype, ity.shape), dims

    def int_generic(self, name: str) -> bool:
        """Whether ``name`` is a kernel parameter the entry takes as an i32 const generic (a `ct.Constant[int]`
        not shadowed by a local or an inlined helper's parameter)."""
        p = self.params.get(name)
        return isinstance(p, sigmod.ConstSig) and isinstance(p.value, int) and not isinstance(p.value, bool) \
            and name not in CUTILE_TYPE_PARAMS and name not in self.helper_params and not self.assign_counts.get(name)

    def const_value(self, node: ast.AST | None) -> tuple[bool, object]:
        """(True, value) when ``node`` is known at translation time — literals, constants, names assigned once from
        such expressions, and Python's operators over them — as cuTile Python folds it; else (False, None)."""
        ops = CONST_OPS
        try:
            if node is None:
                return False, None
            if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, float)):
                return True, node.value
            if isinstance(node, ast.Constant) and node.value is None:   # a helper's optional
                return True, None   # argument left at None (`bias=None`): read only by `is None` / `is not None`
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    not node.value.startswith("dtype:"):   # a helper's mode (`act="gelu"`), compared with ==/!=
                return True, node.value
            if isinstance(node, ast.Attribute) and node.attr in (*PADDING, "ZERO", "UNDETERMINED") and \
                    self.text(node.value).rsplit(".", 1)[-1] == "PaddingMode":   # a padding mode passed to a
                # helper (`pad=ct.PaddingMode.ZERO`): an option, as cuTile Python folds it
                return True, f"padding:{node.attr}"
            if (dt := self.static_dtype(node)) is not None and not isinstance(node, ast.IfExp):
                return True, f"dtype:{dt}"   # compared with ==/!= only
            if isinstance(node, ast.Name):
                if node.id in self.helper_params and not self.assign_counts.get(node.id):
                    return self.helper_params[node.id]   # an inlined helper's parameter (never re-bound in it)
                p = self.params.get(node.id)
                if isinstance(p, sigmod.ConstSig):
                    return True, p.value
                if node.id in self.const_locals:
                    return True, self.const_locals[node.id]
                return False, None
            if isinstance(node, ast.UnaryOp):
                ok, v = self.const_value(node.operand)
                fn = CONST_UNARY[type(node.op)]
                return (True, fn(v)) if ok else (False, None)
            if isinstance(node, ast.BinOp) and type(node.op) in ops:
                (ok1, a), (ok2, b) = self.const_value(node.left), self.const_value(node.right)
                return (True, ops[type(node.op)](a, b)) if ok1 and ok2 else (False, None)
            if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)) \
                    and any(isinstance(n, ast.Constant) and n.value is None for n in (node.left, node.comparators[0])):
                # `bias is not None`: a helper's optional argument, known at each call as cuTile Python knows it
                # from the argument's type (None, or a tile / array / scalar the kernel binds)
                other = node.comparators[0] if isinstance(node.left, ast.Constant) and node.left.value is None \
                    else node.left
                if isinstance(other, ast.Constant) and other.value is None:
                    is_none = True
                elif isinstance(other, ast.Name) and other.id in self.helper_params and \
                        not self.assign_counts.get(other.id) and self.helper_params[other.id] == (True, None):
                    is_none = True   # (a helper parameter bound to None: its default, or passed as None)
                elif isinstance(other, ast.Name) and (other.id in self.env or other.id in self.params or
                                                      other.id in self.helpers):
                    is_none = False   # (a helper passed for a function parameter, `post=_sq`: a function)
                else:
                    return False, None
                return True, is_none if isinstance(node.ops[0], ast.Is) else not is_none
            if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                    and isinstance(node.comparators[0], (ast.Tuple, ast.List)):   # `ACT in (1, 2)` of constants
                vals = [self.const_value(n) for n in (node.left, *node.comparators[0].elts)]
                if not all(ok for ok, _ in vals):
                    return False, None
                hit = any(vals[0][1] == v for _, v in vals[1:])
                return True, hit if isinstance(node.ops[0], ast.In) else not hit
            if isinstance(node, ast.Compare) and all(type(o) in ops for o in node.ops):
                vals = [self.const_value(n) for n in (node.left, *node.comparators)]
                if not all(ok for ok, _ in vals):
                    return False, None
                return True, all(ops[type(o)](a[1], b[1]) for o, a, b in zip(node.ops, vals, vals[1:]))
            if isinstance(node, (ast.Subscript, ast.Attribute)) and (attr := self.tile_attribute(node))[0]:
                return attr
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" and \
                    len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant) and \
                    isinstance(node.args[0].value, (str, int, float)) and "float" not in self.env:
                v = float(node.args[0].value)   # float("-inf"), -float("inf"), float(1): folded, as Python does
                return True, v
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CONVERSIONS \
                    and len(node.args) == 1 and not node.keywords and node.func.id not in self.env and \
                    (c := self.const_value(node.args[0]))[0] and type(c[1]) in (int, float, bool):
                # `int(D / 2)`, `float(K)`, `bool(FLAG_BITS & 4)` of constants: folded, as cuTile Python does
                return True, CONVERSIONS[node.func.id](c[1])
            if isinstance(node, ast.Call) and self.ct(node.func) == "cdiv" and len(node.args) == 2:
                (ok1, a), (ok2, b) = self.const_value(node.args[0]), self.const_value(node.args[1])
                return (True, -(-a // b)) if ok1 and ok2 else (False, None)
            if isinstance(node, ast.Call) and self.ct(node.func) in CONST_CALLS and not node.keywords and \
                    node.args:   # `min(B, N)`, `max(B // 2, 16)`, `abs(N - B)` of constants: folded, as Python does
                vals = [self.const_value(a) for a in node.args]
                if all(ok for ok, _ in vals) and all(isinstance(v, (int, float)) for _, v in vals):
                    return True, CONST_CALLS[self.ct(node.func)](*(v for _, v in vals))
                return False, None
            if isinstance(node, ast.BoolOp):
                vals = [self.const_value(v) for v in node.values]
                if not all(ok for ok, _ in vals):
                    return False, None
                return True, (all if isinstance(node.op, ast.And) else any)(v for _, v in vals)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and \
                    "len" not in self.env and len(node.args) == 1 and not node.keywords and \
                    isinstance(node.args[0], (ast.Tuple, ast.List)):   # `len(SCALES)` of a constant tuple
                return True, len(node.args[0].elts)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and \
                    "len" not in self.env and len(node.args) == 1 and not node.keywords and \
                    isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "shape" and \
                    isinstance(node.args[0].value, ast.Name):   # `len(t.shape)`, `len(x.shape)`: the rank
                name = node.args[0].value.id
                p = self.params.get(name)
                if isinstance(p, sigmod.ArraySig):
                    return True, len(p.shape)
                held = self.env.get(name)
                if held is not None and isinstance(held[1], Tile):
                    return True, len(held[1].shape)
            if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Tuple, ast.List)):
                ok, k = self.const_value(node.slice)   # `SCALES[i]`, i a constant or a ct.static_iter item
                if ok and isinstance(k, int) and not isinstance(k, bool) and -len(node.value.elts) <= k < \
                        len(node.value.elts):
                    return self.const_value(node.value.elts[k])
                return False, None
            if isinstance(node, ast.IfExp):   # `448.0 if SAT else 1e30`
                ok, test = self.const_value(node.test)
                return self.const_value(node.body if test else node.orelse) if ok else (False, None)
        except (ArithmeticError, KeyError, TypeError, ValueError):
            return False, None
        return False, None

    def stride_param(self, arr: str, d: int) -> str:
        """The entry parameter that carries ``arr``'s stride along ``d`` (cutile 0.3.1 gives a kernel no way to read
        a tensor's strides; the launcher passes them, and irdiff labels the parameter as that stride)."""
        name = self.unclashed(f"{arr}_stride{d}")   # (a local `x_stride0` of the kernel's own: `x_stride0_`)
        if (arr, d) not in self.stride_params:
            self.stride_params.append((arr, d))
        return name

    def unclashed(self, name: str) -> str:
        """``name`` (a view, partition or parameter the emitter binds per array: `x_view`, `x_tiles`, `x_stride0`),
        or with `_` added where the kernel has a name of its own so spelled (a local `x_view = ct.load(x, ..)`)."""
        while name in self.source_names:
            name += "_"
        return name

    def constant_tile_value(self, node: ast.AST) -> tuple[bool, object]:
        """(True, v) when ``node`` is, or names (bound once), a tile of one constant value: `ct.zeros(..)`,
        `ct.ones(..)`, `ct.full(.., v, ..)`."""
        if isinstance(node, ast.Name) and self.assign_counts.get(node.id) == 1:
            node = next((a.value for a in self.walk() if isinstance(a, ast.Assign) and len(a.targets) == 1 and
                         isinstance(a.targets[0], ast.Name) and a.targets[0].id == node.id), None)
        if not isinstance(node, ast.Call):
            return False, None
        op = self.ct(node.func)
        if op in ("zeros", "ones"):
            return True, 0 if op == "zeros" else 1
        kw = {k.arg: k.value for k in node.keywords}
        if op == "full" and len(node.args) >= 2:
            return self.const_value(node.args[1])
        if op == "full" and "fill_value" in kw:
            return self.const_value(kw["fill_value"])
        return False, None

    def _offset_divisor(self, elts: list[ast.AST], sig: sigmod.ArraySig) -> int:
        """What cuTile Python's dataflow analysis knows divides the element offset sum(index_d * stride_d): a
        constant index's value (0: the term vanishes), a scalar's known divisor, times a static stride or a dynamic
        one's divisibility fact; 0 when every term is 0."""
        total = 0
        for d, e in enumerate(elts):
            ok, at = self.constant_tile_value(e)   # (a 0-d constant tile; a constant int: int_divisor's value)
            index = abs(at) if ok and isinstance(at, int) and not isinstance(at, bool) else int_divisor(self, e)
            total = math.gcd(total, index * stride_divisor(sig, d))
        return total

    def assume_element_alignment(self, node: ast.AST, arr: str, sig: sigmod.ArraySig, g: str, dims: str,
                                 div: int) -> None:
        """A gather/scatter of one element: cuTile Python states its address's alignment (a multiple of ``div``
        bytes past the array's aligned base); so does the port."""
        if div <= 1:
            return
        elem = RUST_DTYPES[sig.dtype]
        self.body.append(f"// SAFETY: {arr}'s base is {sig.base_align}-byte aligned (a fact of this launch) and the "
                         f"address is a multiple of {div} bytes past it.")
        self.body.append(f"let {g}_ptrs: PointerTile<*mut {elem}, {{ [{dims}] }}> = unsafe {{ assume_div_by::<_, "
                         f"{div}>({g}_ptrs) }};")
        self.unsafe_site(node, f"assume on the address into {arr}",
                         "cutile states facts about a value only through unsafe assume ops",
                         f"{arr}'s base is {sig.base_align}-byte aligned (checked at "
                         "launch like every specialization fact)")

    def pointer_access_nd(self, node: ast.Call, what: str, kw: dict, sig: sigmod.ArraySig, checked: bool,
                          token: bool) -> tuple[str, str, str, Tile, str]:
        """``pointer_access`` on an array of any rank and strides, indexed by one tile per dimension (broadcast to
        one shape), as cuTile Python lowers it: per dimension the index widened to 64 bits and broadcast, checked
        (unsigned) against that extent, times that stride (a literal 1 for a unit stride, else the stride
        parameter); the products summed, the checks and-ed, then the mask."""
        self.need(node, "gather-scatter-nd", f"{what} on a rank-{sig.rank} array")
        arr_node, index_node = node.args[0], node.args[1]
        elts = index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]
        if not sig.rank:
            raise self.refuse(index_node, "gather-scatter-nd", f"{what} on the 0-d array {arr_node.id} (a pointer "
                                                               "to its one element, no index): not ported yet")
        if len(elts) != sig.rank:
            raise self.refuse(index_node, "gather-scatter-nd", f"{what} on rank-{sig.rank} {arr_node.id} with "
                                                               f"{len(elts)} index tiles")
        idx = []
        for e in elts:
            icode, ity = self.expr(e)
            if isinstance(ity, Scalar) and ity.dtype in ("i32", "i64"):   # one index for every lane: broadcast
                idx.append((icode, ity))
                continue
            if not isinstance(ity, Tile) or ity.dtype not in ("i32", "i64"):
                raise self.refuse(e, "gather-scatter-nd", f"{what} index {self.text(e)} that is not an i32/i64 "
                                                          "tile or scalar")
            idx.append((icode, ity))
        tiles = [t.shape for _, t in idx if isinstance(t, Tile)]
        rank = max((len(t) for t in tiles), default=0)   # lower ranks padded with leading 1s, as numpy broadcasts
        shape = _broadcast_shapes([("1",) * (rank - len(t)) + t for t in tiles]) if tiles else ()
        if shape is None:   # (scalar indices only: one element, a 0-d tile)
            raise self.refuse(index_node, "gather-scatter-nd", f"{what} index tiles of shapes that do not broadcast "
                                                               f"({'; '.join(self.text(e) for e in elts)})")
        dims, ones = ", ".join(shape), ", ".join("1" for _ in shape)
        mask_code = None
        if "mask" in kw:
            mcode, mty = self.expr(kw["mask"])
            if not isinstance(mty, Tile) or mty.dtype != "bool":
                raise self.refuse(kw["mask"], "gather-scatter-nd", f"{what} mask that is not a boolean tile")
            mask_code = self.operand_as_tile(mcode, mty, Tile("bool", shape), kw["mask"])
        elem, arr = RUST_DTYPES[sig.dtype], arr_node.id
        g = self.fresh(f"{arr}_{what.removeprefix('ct.')}")
        b = self.body
        strides = sig.strides or (None,) * sig.rank
        b.append(f"// {what} on {arr}: per dimension the index widened to 64 bits"
                 f"{', checked against the extent' if checked else ''} and times the stride (strides the "
                 "launcher passes as parameters); addresses from the base pointer")
        offsets, inside = [], []
        for d, (icode, ity) in enumerate(idx):
            at = f"{g}_at{d}"
            # (a 64-bit index is used as it is: the same Tile IR type, read unsigned for the check)
            widen = "exti" if ity.dtype == "i32" else "bitcast"
            if isinstance(ity, Scalar):   # widened as a 0-d tile, then broadcast like the others
                b.append(f"let {at}: Tile<{ity.dtype}, {{ [] }}> = scalar_to_tile({icode});")
                b.append(f"let {at}: Tile<u64, {{ [] }}> = {widen}({at});")
                if shape:
                    b.append(f"let {at}: Tile<u64, {{ [{dims}] }}> = {at}.reshape(shape![{ones}]).broadcast("
                             f"shape![{dims}]);")
            else:
                b.append(f"let {at}: Tile<u64, {{ [{', '.join(ity.shape)}] }}> = {widen}({icode});")
            if isinstance(ity, Tile) and len(ity.shape) < len(shape):   # a lower rank (a 0-d tile: one index)
                padded = ("1",) * (len(shape) - len(ity.shape)) + ity.shape
                b.append(f"let {at}: Tile<u64, {{ [{', '.join(padded)}] }}> = {at}.reshape(shape![{', '.join(padded)}]);")
                ity = Tile(ity.dtype, padded)
            if isinstance(ity, Tile) and ity.shape != shape:
                b.append(f"let {at}: Tile<u64, {{ [{dims}] }}> = {at}.broadcast(shape![{dims}]);")
            if checked:
                b.append(f"let {g}_len{d}: Tile<i32, {{ [] }}> = scalar_to_tile({self.extent(arr, d)});")
                b.append(f"let {g}_len{d}: Tile<u64, {{ [] }}> = exti({g}_len{d});")
                b.append(f"let {g}_inside{d}: Tile<bool, {{ [{dims}] }}> = lt_tile({at}, {g}_len{d}" +
                         (f".reshape(shape![{ones}]).broadcast(shape![{dims}])" if shape else "") + ");")
                inside.append(f"{g}_inside{d}")
            if strides[d] == 1:
                b.append(f"let {g}_off{d}: Tile<u64, {{ [{dims}] }}> = {at} * constant(1u64, shape![{dims}]);")
            else:
                st = self.stride_param(arr, d)
                b.append(f"let {g}_stride{d}: Tile<i32, {{ [] }}> = scalar_to_tile({st});")
                b.append(f"let {g}_stride{d}: Tile<u64, {{ [] }}> = exti({g}_stride{d});")
                b.append(f"let {g}_off{d}: Tile<u64, {{ [{dims}] }}> = {at} * {g}_stride{d}" +
                         (f".reshape(shape![{ones}]).broadcast(shape![{dims}])" if shape else "") + ";")
            offsets.append(f"{g}_off{d}")
        # the mask before the address (cuTile Python's order): tileiras keeps the order, and with the mask after
        # the pointer tile ptxas ran short of predicate registers in TileGym's sparse MLA (its two 32x128 gathers'
        # masks spilled: 11344 sm_90 instructions against cuTile Python's 9512, the same 9512 after this order;
        # benchmarks/results/h100/served/sparse_mla_cpu_reading.md)
        parts = list(inside)
        if parts:
            b.append(f"let {g}_inside: Tile<bool, {{ [{dims}] }}> = {' & '.join(parts)};")
            parts = [f"{g}_inside"]
        if mask_code:
            parts.append(_paren(mask_code) if parts else mask_code)
        if parts:
            b.append(f"let {g}_mask: Tile<bool, {{ [{dims}] }}> = {' & '.join(parts)};")
        b.append(f"let {g}_offsets: Tile<u64, {{ [{dims}] }}> = {' + '.join(offsets)};")
        b.append(f"let {g}_base: PointerTile<*mut {elem}, {{ [] }}> = get_tensor_base({arr});")
        if shape:
            b.append(f"let {g}_base: PointerTile<*mut {elem}, {{ [{ones}] }}> = {g}_base.reshape(shape![{ones}]);")
            b.append(f"let {g}_base: PointerTile<*mut {elem}, {{ [{dims}] }}> = {g}_base.broadcast(shape![{dims}]);")
        b.append(f"let {g}_ptrs: PointerTile<*mut {elem}, {{ [{dims}] }}> = addptr_tile({g}_base, {g}_offsets);")
        if all(self._unit_dim(d) for d in shape) and not what.startswith("ct.atomic"):   # one element: its address
            # is its offset past the aligned base, a multiple of what cuTile Python's dataflow knows of the sum of
            # index times stride (cuTile Python states no alignment of an atomic's address)
            self.assume_element_alignment(node, arr, sig, g, dims, math.gcd(
                sig.base_align, ELEMENT_BYTES.get(sig.dtype, 1) * self._offset_divisor(elts, sig)))
        if token:
            b.append(f"let {g}_token: Token = get_tensor_token({self.tensor_arg(arr)});")
        self.nd_accesses.add(g)
        return arr, elem, g, Tile(sig.dtype, shape), dims

    def gather_latency(self, node: ast.Call, kw: dict) -> int:
        """A gather's/scatter's ``latency=`` hint (a constant; 0 = none), carried as cutile's ``Latency::<N>``."""
        if "latency" not in kw or (isinstance(kw["latency"], ast.Constant) and kw["latency"].value is None):
            return 0
        ok, value = self.const_value(kw["latency"])
        if not ok or not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 10:
            raise self.refuse(kw["latency"], "gather-scatter", f"{self.text(node.func)} latency that is not a "
                                                               "constant from 1 to 10")
        return value

    def check_bounds(self, node: ast.Call, kw: dict) -> bool:
        """A gather's/scatter's ``check_bounds=``: a constant (a literal, or an expression of constants such as
        ``TILE != N``, folded as cuTile Python folds it)."""
        if "check_bounds" not in kw:
            return True
        ok, value = self.const_value(kw["check_bounds"])
        if not ok or not isinstance(value, bool):
            raise self.refuse(kw["check_bounds"], "gather-scatter", f"{self.text(node.func)} check_bounds that is "
                                                                    "not a constant bool")
        return value

    def load_advanced(self, node: ast.Call, want_name: str | None) -> tuple[str, Ty]:
        """`ct.load_advanced_indexing(x, (rows, ct.Slice(start, L)))` of a rank-2 array the kernel only reads: the
        gather_scatter_view load cuTile Python emits (one dimension indexed by a 1-D i32 tile of element indices, the
        other a slice of L elements from the element offset `start`), through cutile 0.3.1's
        `make_gather_scatter_view` and its `load_gather_scatter_view_tko`, declared in the port's module with a
        weak ordering (rustgen.declared_ops). cutile's view takes no padding (padding_mode= other than
        UNDETERMINED is refused) and its load no hints (latency=, allow_tma= refused)."""
        self.need(node, "load-advanced", "ct.load_advanced_indexing")
        what = "ct.load_advanced_indexing"
        if len(node.args) != 2 or not isinstance(node.args[0], ast.Name) or \
                not isinstance(node.args[1], ast.Tuple):
            raise self.refuse(node, "load-advanced", f"{what} form (array, (index, ..), padding_mode=)")
        for k in node.keywords:
            if k.arg == "padding_mode" and self.text(k.value).rsplit(".", 1)[-1] == "UNDETERMINED":
                continue
            raise self.refuse(k.value, "load-advanced", f"{what}(.., {k.arg}=..): cutile 0.3.1's gather_scatter_view "
                              "takes no padding and its load no hints (only the default padding_mode is ported)")
        arr = node.args[0].id
        if self.acq_mode or arr in self._effects(self.fn)[1]:
            raise self.refuse(node, "load-advanced", f"{what} of {arr}, which the kernel also writes (the view's "
                                                     "load is ordered only for an array the kernel only reads)")
        arr, sig, (icode, _ity), scode, dims = self.advanced_index(node, what, "load-advanced")
        elem = RUST_DTYPES[sig.dtype]
        g = self.fresh(want_name or f"{arr}_rows")
        shape = ", ".join(dims)
        self.body.append(f"// SAFETY: a view of {arr} read through (cuTile Python's gather_scatter_view; {arr} is only "
                         "read by the kernel).")
        self.body.append(f"let {g}_gsv: GatherScatterView<{elem}, {{ [{shape}] }}, 0> = unsafe {{ "
                         f"make_gather_scatter_view({self.tensor_arg(arr)}, shape![{shape}], padding::None) }};")
        self.body.append(f"let ({g}, _): (Tile<{elem}, {{ [{shape}] }}>, Token) = unsafe {{ "
                         f"load_gather_scatter_view_weak(&{g}_gsv, {icode}, {scode}, "
                         f"get_tensor_token({self.tensor_arg(arr)}), ordering::Weak, scope::TileBlock) }};")
        self.declared_ops.setdefault("load_gather_scatter_view_weak", set())
        self.unsafe_site(node, f"make_gather_scatter_view / load_gather_scatter_view_tko of {arr} "
                         "(ct.load_advanced_indexing)",
                         "cutile marks the gather_scatter_view and its load unsafe",
                         "none beyond cuTile Python's: rows and columns past the array read "
                         "undetermined values, as with padding_mode=UNDETERMINED")
        return g, Tile(sig.dtype, tuple(dims))

    def advanced_index(self, node: ast.Call, what: str, construct: str) -> tuple[str, sigmod.ArraySig, Tile, str,
                                                                               str, list[str]]:
        """The array and `(rows, ct.Slice(start, L))` index of ct.load_advanced_indexing / ct.store_advanced_indexing
        (rows a 1-D i32 tile in dimension 0, start an i32 scalar, L a constant): (array, its signature, the rows'
        code and type, the start's code, the view's extents)."""
        if len(node.args) < 2 or not isinstance(node.args[0], ast.Name) or not isinstance(node.args[1], ast.Tuple):
            raise self.refuse(node, construct, f"{what} form (array, (index, ..), ..)")
        arr = node.args[0].id
        sig = self.params.get(arr)
        if not isinstance(sig, sigmod.ArraySig) or self.made(arr) or len(sig.shape) != 2:
            raise self.refuse(node, construct, f"{what} of {arr}: a rank-2 array parameter is ported (cutile 0.3.1's "
                                               "gather_scatter_view takes one dense index)")
        items = node.args[1].elts
        slices = [isinstance(e, ast.Call) and self.ct(e.func) == "Slice" for e in items]
        if len(items) != 2 or slices.count(False) != 1:
            raise self.refuse(node, construct, f"{what} index: one 1-D index tile and one ct.Slice(start, L)")
        sparse = slices.index(False)
        if sparse != 0:   # (its operands are (sparse, dense) whatever SPARSE_DIM says: tileirdisasm rejects
            # the bytecode, "expected index at sparse_dim position 1 to be a 1D tensor")
            raise self.refuse(node, construct, f"{what} with the index tile in dimension 1: cutile 0.3.1's "
                                               "gather_scatter_view puts the index tile first whatever its sparse "
                                               "dimension (invalid Tile IR)")
        sl = items[1]
        sl_kw = {k.arg: k.value for k in sl.keywords}
        start = sl.args[0] if sl.args else sl_kw.get("start")
        length = sl.args[1] if len(sl.args) > 1 else sl_kw.get("length")
        if start is None or length is None or len(sl.args) + len(sl_kw) != 2:
            raise self.refuse(sl, construct, "ct.Slice form (start, length)")
        dense_dim = self.shape_of(ast.copy_location(ast.Tuple([length], ast.Load()), length))[0]
        icode, ity = self.expr(items[0])
        if not isinstance(ity, Tile) or len(ity.shape) != 1 or ity.dtype != "i32":
            raise self.refuse(items[0], construct, f"{what} index {self.text(items[0])}: a 1-D int32 tile is "
                                                   "ported (cutile's view takes i32 indices)")
        scode, sty = self.expr(start)
        if sty != Scalar("i32"):
            raise self.refuse(start, construct, f"ct.Slice start {self.text(start)}: an int32 scalar is ported")
        return arr, sig, (icode, ity), scode, [ity.shape[0], dense_dim]

    def store_advanced(self, node: ast.Call) -> None:
        """`ct.store_advanced_indexing(x, (rows, ct.Slice(start, L)), t)` of a rank-2 array the kernel writes only
        there, once: the gather_scatter_view store cuTile Python emits (rows of L elements from the element offset
        `start` written at the row indices of a 1-D i32 tile), through cutile 0.3.1's `make_gather_scatter_view`
        and `store_view_tko` on it, declared in the port's module (weak, as cuTile Python's; rustgen.declared_ops).
        Hints (latency=, allow_tma=) are refused, as the load's."""
        self.need(node, "store-advanced", "ct.store_advanced_indexing")
        what = "ct.store_advanced_indexing"
        if len(node.args) != 3 or node.keywords:
            raise self.refuse(node, "store-advanced", f"{what} form (array, (index, ct.Slice(start, L)), tile) "
                                                      "without hints (cutile 0.3.1's view store takes none)")
        arr = node.args[0].id if isinstance(node.args[0], ast.Name) else None
        accesses = [n for n in walk_nodes(self.fn) if isinstance(n, ast.Call) and n.args and
                    isinstance(n.args[0], ast.Name) and n.args[0].id == arr and self.ct(n.func) is not None]
        if arr is None or len(accesses) != 1 or self.acq_mode or self._enclosing_loops().get(id(node)):
            raise self.refuse(node, "store-advanced", f"{what} of {arr}: an array the kernel writes only there, "
                                                      "once and outside loops, is ported (the view's store is "
                                                      "ordered with nothing else)")
        arr, sig, (icode, _ity), scode, dims = self.advanced_index(node, what, "store-advanced")
        vcode, vty = self.expr(node.args[2])
        want = Tile(sig.dtype, tuple(dims))
        if not isinstance(vty, Tile) or vty.dtype != sig.dtype or \
                not (len(vty.shape) == 2 and all(self._same_extent(a, b) for a, b in zip(vty.shape, want.shape))):
            raise self.refuse(node.args[2], "store-advanced", f"{what} of {_describe(vty)}: a tile of {arr}'s dtype "
                                                              f"and the view's shape ({', '.join(dims)}) is ported")
        elem = RUST_DTYPES[sig.dtype]
        shape = ", ".join(dims)
        g = self.fresh(f"{arr}_rows")
        self.body.append(f"// SAFETY: rows of {arr} written through a view (cuTile Python's gather_scatter_view; the "
                         f"kernel writes {arr} only here, once).")
        self.body.append(f"let {g}_gsv: GatherScatterView<{elem}, {{ [{shape}] }}, 0> = unsafe {{ "
                         f"make_gather_scatter_view({self.tensor_arg(arr)}, shape![{shape}], padding::None) }};")
        self.body.append(f"let _: Token = unsafe {{ store_gather_scatter_view_weak({_paren(vcode)}, &{g}_gsv, "
                         f"({icode}, {scode}), get_tensor_token({self.tensor_arg(arr)}), ordering::Weak) }};")
        self.declared_ops.setdefault("store_gather_scatter_view_weak", set())
        self.unsafe_site(node, f"make_gather_scatter_view / store_view_tko of {arr} (ct.store_advanced_indexing)",
                         "cutile marks the gather_scatter_view unsafe, and the store is a declared op",
                         "none beyond cuTile Python's: rows past the array are written unchecked, as there")

    def gather(self, node: ast.Call) -> tuple[str, Ty]:
        """`ct.gather(a, idx, mask=, padding_value=, check_bounds=)`: a masked, padded pointer load (see
        pointer_access); with check_bounds=False no extent check (unmasked without a mask), under the caller's
        guarantee that every index is inside the array. The padding operand is there either way, as cuTile Python
        emits it: on a 16-bit array only 0, spelled as the type's ZERO (cutile has no half-precision literal)."""
        self.need(node, "gather-scatter", "ct.gather")
        kw = {k.arg: k.value for k in node.keywords}
        if len(node.args) != 2 or set(kw) - {"mask", "padding_value", "check_bounds", "latency"}:
            raise self.refuse(node, "gather-scatter", "ct.gather form (array, index, mask=, padding_value=, "
                                                      "check_bounds=, latency=)")
        latency = self.gather_latency(node, kw)
        checked = self.check_bounds(node, kw)
        ok, pad = self.const_value(kw.get("padding_value", ast.Constant(0)))
        if isinstance(pad, bool):
            raise self.refuse(kw["padding_value"], "gather-scatter", "ct.gather padding_value that is a bool")
        name = node.args[0].id if isinstance(node.args[0], ast.Name) else None
        tokens = self.inplace_tokens.get(name)   # (updated in place: after its last store, see ordered_in_place)
        prev = (self.ordered_input(name, False) if self.acq_mode else tokens[1]) if tokens else \
            self.carried_tokens.get(name) or self.scatter_tokens.get(name)
        if name in self.scatter_tokens and not prev:
            raise self.refuse(node, "gather-scatter", f"a ct.gather from {name} after a ct.scatter into it inside a "
                                                      "loop or branch (the order of the two is not carried)")
        if name in self.scatters_left:
            self.scatters_left[name] -= 1
        arr, elem, g, ty, dims = self.pointer_access(node, "ct.gather", kw, checked, token=not prev)
        if prev:   # after a scatter into the same array: read what it wrote
            self.body.append(f"let {g}_token: Token = {prev};")
        named = _named_constant(pad, ty.dtype) if ok else None
        # cutile has no 16-bit literal: a 16-bit padding (and a named one) is a constant tile, read as a scalar
        as_tile = ok and (named is not None or ty.dtype in ("f16", "bf16") or ty.dtype.startswith("f8"))
        if not ok:   # a runtime scalar of the array's dtype (`padding_value=ignore_index`, `lo - 1.0`): cuTile
            # Python broadcasts it to the load's padding operand (reshape + broadcast), as cutile does with a scalar
            # padding of a rank-1 load; a rank-2+ one's padding tile is that broadcast (below)
            pad_node = kw["padding_value"]
            pcode, pty = self.expr(pad_node)
            if pty != Scalar(ty.dtype):
                raise self.refuse(pad_node, "gather-scatter", "ct.gather padding_value that is not a constant "
                                  "number or a scalar of the array's dtype")
            if not isinstance(pad_node, ast.Name):   # (computed: named once, as the padding is read again below)
                pad_name = self.fresh(f"{g}_padding_value")
                self.body.append(f"let {pad_name}: {RUST_DTYPES[ty.dtype]} = {pcode};")
                pcode = pad_name
            pad_lit = pcode
        elif as_tile:
            pad_name = f"{g}_{'zero' if named == 'ZERO' else 'pad'}"
            self.body.append(f"let {pad_name}: Tile<{elem}, {{ [] }}> = {_float_constant(pad, ty.dtype, '')};")
            pad_lit = f"tile_to_scalar::<{elem}, {elem}>({pad_name})"
        else:
            pad_lit = rust_literal(float(pad) if ty.dtype.startswith("f") else int(pad), ty.dtype)
        read = "_"
        chain = self.chained_reads.get(name) or self.after_reads.get(name)
        if tokens:   # joined into the array's last-op token, which its next store waits on
            read = f"{g}_read"
        elif name in self.scatters_left or (name in self.atomic_targets and not self.acq_mode):
            # a scatter into the array, or an atomic on it, orders itself after this read (see scatter, atomic)
            read = f"{g}_read"
            if not chain:
                self.reads.setdefault(name, []).append((read, self._scope_id()))
        if checked or "mask" in kw:
            self.body.append(f"// SAFETY: every lane that is read addresses {arr}'s memory: its offset is below "
                             f"{arr}'s extent ({'checked above' if checked else 'the caller guarantees it'}; masked "
                             "lanes are not read).")
            masking = f"Some({g}_mask), Some({pad_lit})"
        else:
            self.body.append(f"// SAFETY: every lane reads {arr}'s memory: the kernel's indices are inside {arr} "
                             "(check_bounds=False: the caller guarantees it, as in cuTile Python).")
            masking = f"None, Some({pad_lit})"
        if (g in self.nd_accesses or len(ty.shape) > 1) and masking.startswith("Some("):
            # cutile 0.3.1 reshapes a scalar padding to rank 1 before broadcasting it, which fails verification
            # for a rank-2+ result: the padding is a tile of the result's shape, passed through the same op
            # declared in the port's module (rustgen.declared_ops), as cuTile Python emits it. (A load and a
            # select on its mask — irdiff rule padded-pointer-load-select — means the same, but tileiras then
            # keeps the tile in registers: fused MoE's wgmma took A from registers, with spills.)
            pad_tile = f"broadcast_scalar({pad_lit}, shape![{dims}])" if not ok else \
                constant_tile(pad_lit, dims) if not as_tile else _float_constant(pad, ty.dtype, dims)
            self.body.append(f"let {g}_padding: Tile<{elem}, {{ [{dims}] }}> = {pad_tile};")
            self.body.append(f"let ({g}, {read}): (Tile<{elem}, {{ [{dims}] }}>, Token) = unsafe {{ load_ptr_padded("
                             f"{g}_ptrs, ordering::Weak, None::<scope::TileBlock>, Some({g}_mask), "
                             f"Some({g}_padding), Some({g}_token), Latency::<{latency}>) }};")
            self.declared_ops.setdefault("load_ptr_padded", set())
        else:
            self.body.append(f"let ({g}, {read}): (Tile<{elem}, {{ [{dims}] }}>, Token) = unsafe {{ load_ptr_tko("
                             f"{g}_ptrs, ordering::Weak, None::<scope::TileBlock>, {masking}, Some({g}_token), "
                             f"Latency::<{latency}>) }};")
        if tokens:
            self.body.append(f"{tokens[0]} = join_tokens(&[{tokens[0]}, {read}]);")
            self.tok_tag[tokens[0]] = read
        elif chain and read != "_":   # the loop's reads of the array, joined one by one (see carry_read_chains)
            self.body.append(f"{chain} = join_tokens(&[{chain}, {read}]);")
        self.unsafe_site(node, f"load_ptr_tko from {arr} (ct.gather)",
                         "a gather reads through a pointer tile; cutile marks pointer loads unsafe",
                         "none: each lane's offset is checked against the extent in the "
                         "kernel, as cuTile Python does" if checked else
                         f"every index of the gather is inside {arr} (check_bounds=False)")
        return g, ty

    def scatter(self, call: ast.Call, indent: str, nested: bool = False) -> None:
        """`ct.scatter(a, idx, value, mask=)`: a masked pointer store (see pointer_access). Scatters into one array
        in the kernel's top-level statements are ordered as cuTile Python orders them: each later one takes the
        token the previous one returned; one inside a loop or branch with another into the same array is refused
        (that order is not carried)."""
        self.need(call, "gather-scatter", "ct.scatter")
        kw = {k.arg: k.value for k in call.keywords}
        if len(call.args) != 3 or set(kw) - {"mask", "check_bounds", "latency"}:
            raise self.refuse(call, "gather-scatter", "ct.scatter form (array, index, value, mask=, check_bounds=, "
                                                      "latency=)")
        checked = self.check_bounds(call, kw)
        latency = self.gather_latency(call, kw)
        name = call.args[0].id if isinstance(call.args[0], ast.Name) else None
        carried = self.carried_tokens.get(name) if not self.acq_mode else None
        prev = carried or self.scatter_tokens.get(name, "")
        arm_chain = self.arm_chains.get(name) if name is not None and not self.acq_mode else None
        if arm_chain is not None and arm_chain[0] == len(self.scope_locals):   # (see _arm_scatter_chains)
            nested = False
        else:
            arm_chain = None
        if self.acq_mode and name in self.inplace_tokens:   # after its array's last operation (see acquire_ordered)
            prev = self.ordered_input(name, True)
        elif not carried and name in self.scatter_tokens and (nested or prev is None):
            raise self.refuse(call, "gather-scatter", f"a second ct.scatter into {name} with one of the two inside a "
                                                      "loop or branch (the order of their writes is not carried)")
        arr, elem, g, ty, dims = self.pointer_access(call, "ct.scatter", kw, checked, token=not prev)
        vcode, vty = self.as_array_dtype(*self.expr(call.args[2]), ty, arr, call.args[2], "ct.scatter",
                                         "gather-scatter")
        value = self.operand_as_tile(vcode, vty, ty, call.args[2])
        safety = (f"// SAFETY: every lane that is written addresses {arr}'s memory (offset checked above; masked "
                  f"lanes are not written); lanes of the launch that share a destination race, as in cuTile "
                  "Python — the caller passes distinct destinations.")
        mask = f"Some({g}_mask)" if checked or "mask" in kw else "None"
        token = prev or g + "_token"
        # cuTile Python orders a write after the reads of the array before it (its token joins theirs); the reads
        # of this scope are joined here, as it does
        reads = [t for t, scope in self.reads.pop(arr, []) if scope == self._scope_id()]
        if len(reads) < 2:   # (several reads: a join chain, the comment goes after it, right above the store)
            self.body.append(safety)
            safety = None
        after = self.after_reads.get(arr)
        chain = self.read_chains.pop(arr, None) if not after else None
        if after:   # the earlier reads (an earlier loop's, and this loop's) are joined in `after` already
            token = after
        elif chain:   # an earlier loop's reads, joined (they started from the last write)
            token = chain
            if reads:
                joined = f"{g}_after_reads"
                self.body.append(f"let {joined}: Token = {_join_chain(token, reads)};")
                token = joined
        elif reads:
            joined = f"{g}_after_reads"
            self.body.append(f"let {joined}: Token = {_join_chain(token, reads)};")
            token = joined
        if safety:
            self.body.append(safety)   # (right above the store it argues)
        store = (f"unsafe {{ store_ptr_tko({g}_ptrs, {value}, ordering::Weak, None::<scope::TileBlock>, "
                 f"{mask}, Some({token}), Latency::<{latency}>) }}")
        self.scatters_left[arr] = self.scatters_left.get(arr, 1) - 1
        if self.acq_mode:   # the array's last operation and last write (see acquire_ordered)
            op_tok, st_tok = self.inplace_tokens[arr]
            self.body.append(f"let {g}_done: Token = {store};")
            self.body.append(f"{op_tok} = {g}_done;")
            self.body.append(f"{st_tok} = {op_tok};")
            self.tok_tag[op_tok] = self.tok_tag[st_tok] = f"{g}_done"
        elif carried:   # the next iteration's (or next scatter's) writes follow this one
            self.body.append(f"{carried} = {store};")
            if after:
                self.body.append(f"{after} = {carried};")
        elif arm_chain is not None:   # one of an arm's own scatters into arr: the next one in the arm follows it
            arm_chain[1] -= 1
            if arm_chain[1]:
                self.body.append(f"let {g}_done: Token = {store};")
                self.scatter_tokens[arr] = f"{g}_done"
            else:
                self.body.append(f"{store};")
                self.scatter_tokens[arr] = None
        elif nested or not self.scatters_left[arr]:
            self.body.append(f"{store};")
            self.scatter_tokens[arr] = None if nested else ""
        else:   # its token orders the next scatter into arr after it
            self.body.append(f"let {g}_done: Token = {store};")
            self.scatter_tokens[arr] = f"{g}_done"
        self.scattered.add(arr)
        self.unsafe_site(call, f"store_ptr_tko into {arr} (ct.scatter)",
                         "a scatter writes through a pointer tile; which block owns which element is "
                         "decided by the data, not by the partition",
                         f"the destinations written into {arr} are distinct across the "
                         "launch (else which write lands is unspecified, as in Python)")

    def item(self, node: ast.Call) -> tuple[str, Ty]:
        """`t.item()` of a one-element tile: its value as a scalar (cuTile Python reshapes it to a 0-d tile, which
        indexes and computes like a scalar; cutile unwraps the 0-d tile with `tile_to_scalar`)."""
        self.need(node, "item", "tile.item()")
        code, ty = self.expr(node.func.value)
        if not isinstance(ty, Tile) or any(d != "1" for d in ty.shape):
            raise self.refuse(node, "item", f"`.item()` of {_describe(ty)} (a tile of one element is needed)")
        return f"tile_to_scalar::<{RUST_DTYPES[ty.dtype]}, {RUST_DTYPES[ty.dtype]}>({_paren(code)}.reshape(shape![]))", \
            Scalar(ty.dtype)

    def atomic(self, call: ast.Call, keep: bool) -> tuple[str, Ty]:
        """`ct.atomic_add/max/min/and/or/xor/xchg(a, idx, update)` (bounds-checked, any memory order and scope): an
        atomic read-modify-write through a pointer tile (see pointer_access); out-of-range indices are masked off, as
        in cuTile Python. Its value is the elements' old values (``keep``: an expression reads them)."""
        op = self.ct(call.func)
        fn = f"ct.{op}"
        self.need(call, "atomics", fn)
        if self.test_atomics is not None and id(call) in self.test_atomics:
            return self.test_atomics[id(call)]   # (a `while` condition read again: the one atomic it performs)
        kw = {k.arg: k.value for k in call.keywords}
        nargs = 4 if op == "atomic_cas" else 3
        if len(call.args) != nargs or set(kw) - {"check_bounds", "memory_order", "memory_scope"}:
            raise self.refuse(call, "atomics", f"{fn} form (array, indices, "
                                               f"{'expected, desired' if nargs == 4 else 'update'}, check_bounds=, "
                                               "memory_order=, memory_scope=)")
        checked = self.check_bounds(call, kw)   # (False: no extent check and no mask, as cuTile Python's
        # atomic under the caller's guarantee that every index is inside the array)
        order = self._atomic_order(call)
        scope = self.text(kw["memory_scope"]).rsplit(".", 1)[-1] if "memory_scope" in kw else "DEVICE"
        if order not in ATOMIC_ORDERS or scope not in ATOMIC_SCOPES:
            raise self.refuse(call, "atomics", f"memory_order={order}, memory_scope={scope}")
        name = call.args[0].id if call.args and isinstance(call.args[0], ast.Name) else None
        arms = self._constant_arms()[0]
        untaken = self.folded_arms[0]   # (an op in an arm folded away for these constants never runs)
        if not self.acq_mode and order in ("RELEASE", "ACQ_REL") and any(
                isinstance(n, ast.Call) and self.ct(n.func) in ("store", "scatter") and n.lineno < call.lineno
                and id(n) not in untaken and not _exclusive(arms.get(id(call), ()), arms.get(id(n), ()))
                and not self._store_before_release(n) for n in walk_nodes(self.fn)):
            raise self.refuse(call, "atomics", f"{fn} with memory_order={order} after a scatter, or a store inside "
                                               "a loop or branch: cuTile Python orders a releasing atomic after "
                                               "every earlier write (it joins their tokens), which the port carries "
                                               "only from stores in the kernel's top-level statements; a relaxed "
                                               "atomic is ported")
        if order in ("ACQUIRE", "ACQ_REL") and not self.acq_mode:
            memory = ("load", "store", "gather", "scatter")
            loops = [n for n in walk_nodes(self.fn) if isinstance(n, (ast.For, ast.While))
                     and any(c is call for c in walk_nodes(n))]
            arms = self._constant_arms()[0]   # (an op in another arm of a constant `if` never runs after it)
            later = [n for n in walk_nodes(self.fn) if isinstance(n, ast.Call) and self.ct(n.func) in memory
                     and id(n) not in untaken and not _exclusive(arms.get(id(call), ()), arms.get(id(n), ()))
                     and (n.lineno > call.lineno or any(any(c is n for c in walk_nodes(lp)) for lp in loops))]
            top = {id(n) for st in self.fn.body if not isinstance(st, (ast.For, ast.While, ast.If, ast.With))
                   for n in walk_nodes(st)}
            n_atomics = sum(1 for n in self.live_walk() if isinstance(n, ast.Call) and self.ct(n.func) in ATOMIC_MODES)
            if later and order == "ACQ_REL" and n_atomics == 1 and not loops and not self.scope_locals and \
                    id(call) in top and all(self.ct(n.func) in ("gather", "scatter") and id(n) in top for n in later):
                # gathers / scatters after it in the kernel's top-level statements (a rank taken by an atomic
                # counter, then written at): each starts from the atomic's token, as cuTile Python joins the acquire
                # token into them (the atomic itself comes after every earlier operation: release)
                self.acquire_token = f"{name or 'atomic'}_acquired"
                later = []
            if later:
                raise self.refuse(later[0], "atomics", f"a {self.ct(later[0].func)} after the acquiring {fn} at "
                                                       f"line {call.lineno}: cuTile Python orders every later "
                                                       "memory operation after an acquiring atomic (it joins its "
                                                       "token), which the port does not carry; a relaxed atomic, or "
                                                       "the atomic last, is ported")
        atomics = [n for n in self.live_walk() if isinstance(n, ast.Call) and self.ct(n.func) in ATOMIC_MODES]
        # relaxed atomics of distinct arrays: cuTile Python joins each one's token with its own array's operations
        # only (no acquire token, no release join), so each is ordered as a kernel's only atomic would be (in a
        # loop or branch too: its array's token carried, see carry_scatter_tokens)
        apart = all(n.args and isinstance(n.args[0], ast.Name) and self._atomic_order(n) == "RELAXED"
                    for n in atomics) and len({n.args[0].id for n in atomics}) == len(atomics)
        several = len(atomics) > 1 and not self.acq_mode and not apart
        # in a loop: after the previous iteration's update (its token carried, see carry_scatter_tokens)
        prev = carried = self.carried_tokens.get(name) if not several and not self.acq_mode else None
        if self.acq_mode:   # (see acquire_ordered)
            prev = self.ordered_input(name, True, order)
        elif several or (order in ("RELEASE", "ACQ_REL") and self.release_tokens):
            # ordered as cuTile Python's token_order pass orders them (see atomic_input_token)
            prev = self.atomic_input_token(call, fn, name, order)
        arr, elem, g, ty, dims = self.pointer_access(call, fn, {}, checked, token=prev is None)
        if ty.dtype not in ATOMIC_MODES[op]:
            raise self.refuse(call, "atomics", f"{fn} on {ty.dtype} ({', '.join(ATOMIC_MODES[op])} are supported)")
        # cuTile Python orders an atomic after the earlier reads of its array (the array's token joins each
        # gather's, `lu = ct.gather(labels, u)` then `ct.atomic_min(labels, u, ..)`: a label propagation); this
        # scope's gathers are joined into its input token, as a scatter's are
        reads = [t for t, scope in self.reads.pop(arr, []) if scope == self._scope_id()] \
            if not self.acq_mode else []
        if reads:
            joined = self.fresh(f"{g}_after_reads")
            self.body.append(f"let {joined}: Token = {_join_chain(prev or g + '_token', reads)};")
            prev = joined
        values = []
        for v_node in call.args[2:]:
            vcode, vty = self.as_array_dtype(*self.expr(v_node), ty, arr, v_node, fn, "atomics")
            values.append(self.operand_as_tile(vcode, vty, ty, v_node))
        value = values[-1]
        mode = f"atomic::{ATOMIC_MODES[op][ty.dtype]}"
        why = "offset checked above; out-of-range lanes are masked off" if checked else \
            "check_bounds=False: the caller guarantees it, as in cuTile Python"
        self.body.append(f"// SAFETY: every lane that is updated addresses {arr}'s memory ({why}); the update is "
                         "atomic, so lanes and blocks that share an element all land.")
        old = f"{g}_old" if keep else "_"
        acquired = self.acquire_token if self.acquire_token and not several and not carried and \
            not self.acq_mode else None
        done = f"{g}_done" if several or carried or self.acq_mode else acquired or "_"   # (a later atomic on the array is ordered after this
        # one, as cuTile Python orders them)
        operation = f"atomic_cas_tko({g}_ptrs, {values[0]}, {value}, " if op == "atomic_cas" else \
            f"atomic_rmw_tko({g}_ptrs, {value}, {mode}, "
        self.body.append(f"let ({old}, {done}): (Tile<{elem}, {{ [{dims}] }}>, Token) = unsafe {{ {operation}"
                         f"{ATOMIC_ORDERS[order]}, {ATOMIC_SCOPES[scope]}, "
                         f"{f'Some({g}_mask)' if checked else 'None'}, "
                         f"Some({prev or g + '_token'})) }};")
        if carried:
            self.body.append(f"{carried} = {done};")
        if self.acq_mode:   # the array's last operation and last write; an acquiring one: the acquire token too
            op_tok, st_tok = self.inplace_tokens[arr]
            self.body.append(f"{op_tok} = {done};")
            self.body.append(f"{st_tok} = {op_tok};")
            self.tok_tag[op_tok] = self.tok_tag[st_tok] = done
            if order in ("ACQUIRE", "ACQ_REL"):   # (the first one, at the top level: nothing read the token
                # before, whose declaration is then dropped as dead; it is declared here)
                first = "" not in self.key_order and not self.scope_locals
                self.body.append(f"{'let mut ' if first else ''}{self.acq_token}{': Token' if first else ''} = "
                                 f"{op_tok};")
                self.tok_tag[self.acq_token] = done
                self.acq_live = True
                self._key("")
        if acquired:
            self.acquire_emitted = acquired
        if several:
            self.atomic_tokens[arr] = done
            if order in ("ACQUIRE", "ACQ_REL"):
                self.atomic_tokens[""] = done   # (the acquire token: every later memory op is ordered after it)
        self.scattered.add(arr)
        self.unsafe_site(call, f"{'atomic_cas_tko' if op == 'atomic_cas' else 'atomic_rmw_tko'} on {arr} "
                         f"({fn})",
                         "an atomic updates memory through a pointer tile; cutile marks it unsafe",
                         f"none: each lane's offset is checked against {arr}'s extent in the "
                         "kernel, as cuTile Python does, and the update is atomic")
        if self.test_atomics is not None:
            self.test_atomics[id(call)] = (f"{g}_old", ty)
        return f"{g}_old", ty

    def _acquires(self, call: ast.Call) -> bool:
        return self._atomic_order(call) in ("ACQUIRE", "ACQ_REL")

    def _store_before_release(self, call: ast.Call) -> bool:
        """``call`` is a ct.store among the kernel's top-level statements that a releasing atomic after it must be
        ordered after (cuTile Python joins the store's token into the atomic's): its token is kept (see
        store_bijective, store_general)."""
        return self.ct(call.func) == "store" and any(isinstance(st, ast.Expr) and st.value is call
                                                     for st in self.fn.body) and \
            any(isinstance(n, ast.Call) and self.ct(n.func) in ATOMIC_MODES and n.lineno > call.lineno and
                self._releases(n) for n in self.live_walk())

    def atomic_input_token(self, call: ast.Call, fn: str, name: str | None, order: str) -> str | None:
        """The token an atomic of a kernel with several starts from, as cuTile Python's token_order pass joins it:
        its array's last atomic, the last acquiring atomic (of any array), and with release semantics every other
        array's last atomic. Only for atomics in the kernel's top-level statements, with no stores or scatters in
        the kernel (their tokens would join these too; loads after an acquiring atomic are refused by atomic).
        None: a fresh token of the array."""
        live = list(self.live_walk())
        atomics = [n for n in live if isinstance(n, ast.Call) and self.ct(n.func) in ATOMIC_MODES]
        # relaxed atomics only: cuTile Python joins an atomic's token with its own array's operations alone (no
        # acquire token, no release join), so stores and scatters of other arrays are not ordered against them
        relaxed = all(self._atomic_order(n) == "RELAXED" and n.args and isinstance(n.args[0], ast.Name)
                      for n in atomics)
        targets = {n.args[0].id for n in atomics if n.args and isinstance(n.args[0], ast.Name)}
        why = None
        if self.scope_locals:
            why = "inside a loop or branch"
        elif any(isinstance(n, ast.Call) and self.ct(n.func) in ("store", "scatter") and
                 (n.lineno > call.lineno or not self._store_before_release(n)) and
                 not (relaxed and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id not in targets)
                 for n in live):
            why = "in a kernel that also scatters, or stores after it or in a loop or branch"
        if why:
            raise self.refuse(call, "atomics", f"{fn} {why}: cuTile Python orders atomics by their memory order "
                                               "across arrays, which the port does not carry there")
        # cuTile Python's token map keeps its keys in the order it first met them: each array at its first memory
        # operation, the acquire token after the first acquiring atomic
        first: dict[str, float] = {}
        for n in sorted((n for n in live if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name)
                         and (self.ct(n.func) in ("load", "store", "gather", "scatter") or
                              self.ct(n.func) in ATOMIC_MODES)), key=lambda n: (n.lineno, n.col_offset)):
            first.setdefault(n.args[0].id, n.lineno)
            if self.ct(n.func) in ATOMIC_MODES and "" not in first and self._acquires(n):
                first[""] = n.lineno + 0.5
        release = order in ("RELEASE", "ACQ_REL")
        others = {key: t for key, t in self.atomic_tokens.items() if key == "" or (release and key != name)}
        if release:
            others.update((key, t) for key, t in self.release_tokens.items() if key != name)
        tokens = [self.atomic_tokens.get(name, "")]
        tokens += [others[key] for key in sorted(others, key=lambda key: first.get(key, 0))]
        tokens = list(dict.fromkeys(t for t in tokens if t))
        if not tokens:
            return None
        if len(tokens) == 1 and self.atomic_tokens.get(name):
            return tokens[0]
        if not self.atomic_tokens.get(name):
            tokens.insert(0, f"get_tensor_token({self.tensor_arg(name)})")
        joined = self.fresh(f"{name}_after")
        self.body.append(f"let {joined}: Token = join_tokens(&[{', '.join(tokens)}]);")
        return joined

    def drop_default_options(self, kw: dict) -> None:
        """Remove from a reduction's or scan's keywords the numeric options written at their defaults
        (MATH_OPTION_DEFAULTS): cuTile Python builds the op it builds without them."""
        for opt, default in MATH_OPTION_DEFAULTS.items():
            if opt in kw and self.text(kw[opt]).rsplit(".", 1)[-1] in default:
                del kw[opt]

    def scan(self, node: ast.Call, op: str, want_name: str | None) -> tuple[str, Ty]:
        """ct.cumsum / ct.cumprod → cutile's scan with the identity element and direction spelled out."""
        self.need(node, "scan", f"ct.{op}")
        kw = {k.arg: k.value for k in node.keywords}
        self.drop_default_options(kw)   # (`rounding_mode=RN`, `flush_to_zero=False`)
        axis_node = node.args[1] if len(node.args) > 1 else kw.pop("axis", ast.Constant(0))
        kw.pop("axis", None)
        rev = kw.pop("reverse", ast.Constant(False))
        if not isinstance(rev, ast.Constant) and type(rv := self.const_value(rev)[1]) is bool:
            rev = ast.Constant(rv)   # a constant's value (`reverse=REVERSE`, a ct.Constant[bool])
        if self._int(axis_node) is None and type(av := self.const_value(axis_node)[1]) is int:
            axis_node = ast.Constant(av)   # `axis=AXIS` of a constant
        code, ty = self.expr(node.args[0])
        if kw or not isinstance(ty, Tile) or self._int(axis_node) is None or \
                not (isinstance(rev, ast.Constant) and isinstance(rev.value, bool)):
            raise self.refuse(node, "scan", f"ct.{op} form (tile, axis=literal, reverse=literal) without rounding "
                                            "options")
        axis = self._int(axis_node) % len(ty.shape)
        if axis != 0 or op != "cumsum":
            raise self.refuse(node, "scan", f"ct.{op} along axis {axis}: cutile 0.3.1 compiles every scan along "
                                            "dimension 0 with identity 0 (its `dim` and `identity` arguments are "
                                            "ignored), so only ct.cumsum along axis 0 ports faithfully")
        direction = "reverse::Reverse" if rev.value else "reverse::Forward"
        is_float = ty.dtype.startswith(("f", "bf", "tf"))
        one, zero = ("1.0", "0.0") if is_float else ("1", "0")
        lit = f"{one if op == 'cumprod' else zero}{RUST_DTYPES[ty.dtype]}"
        if RUST_DTYPES[ty.dtype] in ("f16", "bf16"):   # (no half literal: `0.0f16` is unstable Rust)
            lit = f"{RUST_DTYPES[ty.dtype]}::{'ONE' if op == 'cumprod' else 'ZERO'}"
        if op == "cumsum":
            rust = f"scan_sum({code}, {axis}, {direction}, {lit})"
        else:
            rust = f"scan({code}, {axis}, {direction}, {lit}, |a, b| a * b)"
        base = node.args[0].id if isinstance(node.args[0], ast.Name) else "value"
        return self.typed(rust, ty, want_name, f"{base}_{op}")

    def permute(self, node: ast.Call, op: str, want_name: str | None) -> tuple[str, Ty]:
        self.need(node, "permute", f"ct.{op}")
        kw = {k.arg: k.value for k in node.keywords}
        code, ty = self.expr(node.args[0])
        if not isinstance(ty, Tile):
            raise self.refuse(node, "permute", f"ct.{op} of a scalar")
        rank = len(ty.shape)
        if op == "permute":
            axes_node = node.args[1] if len(node.args) > 1 else kw.get("axes")
            axes = tuple(self._int(e) for e in axes_node.elts) if isinstance(axes_node, ast.Tuple) else None
        else:
            a0 = node.args[1] if len(node.args) > 1 else kw.get("axis0")
            a1 = node.args[2] if len(node.args) > 2 else kw.get("axis1")
            pair = (1, 0) if a0 is None and a1 is None and rank == 2 else (self._int(a0) if a0 else None,
                                                                             self._int(a1) if a1 else None)
            axes = None
            if None not in pair:
                order = list(range(rank))
                i, j = (k % rank for k in pair)
                order[i], order[j] = order[j], order[i]
                axes = tuple(order)
        if axes is None or None in axes or sorted(a % rank for a in axes) != list(range(rank)):
            raise self.refuse(node, "permute", f"ct.{op} axes are not a literal permutation of {rank} axes")
        axes = tuple(a % rank for a in axes)
        out = Tile(ty.dtype, tuple(ty.shape[a] for a in axes))
        rust = f"{_paren(code)}.transpose()" if axes == (1, 0) else \
            f"permute({code}, const_array![{', '.join(map(str, axes))}])"
        base = node.args[0].id if isinstance(node.args[0], ast.Name) else "value"
        named = any(not d.isdigit() for d in out.shape)
        if named and want_name is not None and want_name in self.mutated and \
                want_name not in getattr(self.assign_counts, "straight", ()):
            # a `let mut` (`s = ct.transpose(a)`, then `s = s - a` in a loop; not a name re-bound in one block
            # only, a `let` shadowing the last): cutile types the variable once,
            # from this value, by its extents' values; the identity reshape types it by the names from the start
            # (irdiff identity-shape-ops), of the value bound typed first (rustc infers no permute's generics
            # through a method call on it)
            temp = self.typed(rust, out, None, f"{base}_permuted")[0]
            rust = f"{temp}.reshape(shape![{', '.join(out.shape)}])"
            named = False
        code, out = self.typed(rust, out, want_name, f"{base}_permuted")
        if named:
            self.value_typed[want_name or code] = out
        return code, out

    def _as_bool_scalar(self, code: str, ty: Ty) -> tuple[str, Ty]:
        """``_as_scalar``, a 0-d bool tile computed in place bound to a typed `let` first: cutile 0.3.1 panics on
        `tile_to_scalar::<bool, bool>(gt_tile(..))` of a 0-d comparison (`while s > 1.0 and k < n:` of a reduced
        `s`: "get_ident_generic_args: Unexpected generic arguments")."""
        if ty == Tile("bool", ()) and not code.isidentifier():
            code, ty = self.typed(code, ty, None, "tested")
        return self._as_scalar(code, ty)

    def runtime_logic(self, node: ast.AST, want_name: str | None) -> tuple[str, Ty]:
        """Python's short-circuit logic on runtime scalars, as cuTile Python compiles it: `a and b` is
        `if a { b } else { a }`, `a or b` is `if a { a } else { b }`, a chained `a < b < c` is `a < b and b < c`,
        `not a` is `a ^ true`, `x if c else y` is `if c { x } else { y }` (Tile IR `if`s yielding the value)."""
        self.need(node, "logic-runtime", "logic on runtime values")
        if isinstance(node, ast.Compare):   # chained: each link, joined by `and`
            links = [ast.copy_location(ast.Compare(a, [op], [b]), node)
                     for a, op, b in zip([node.left, *node.comparators], node.ops, node.comparators)]
            return self.runtime_logic(ast.copy_location(ast.BoolOp(ast.And(), links), node), want_name)
        if isinstance(node, ast.UnaryOp):
            code, ty = self._as_bool_scalar(*self.expr(node.operand))
            if ty != Scalar("bool"):
                raise self.refuse(node, "if-runtime", f"`{self.text(node)}` of {_describe(ty)}")
            flipped, true = self.fresh("negated"), self.fresh("always")
            self.body.append(f"let {true}: Tile<bool, {{ [] }}> = constant(true, shape![]);")
            self.body.append(f"let {flipped}: Tile<bool, {{ [] }}> = scalar_to_tile::<bool>({code}) ^ {true};")
            return f"tile_to_scalar::<bool, bool>({flipped})", ty
        if isinstance(node, ast.IfExp):
            cond, cty = self._as_bool_scalar(*self.expr(node.test))
            if cty != Scalar("bool"):
                raise self.refuse(node.test, "if-runtime", f"condition `{self.text(node.test)}` is not a scalar "
                                                           "comparison")
            (ac, at), (bc, bt) = self.expr(node.body), self.expr(node.orelse)
            if isinstance(at, Scalar) != isinstance(bt, Scalar):   # a 0-d tile (`abs(eps)`) and a scalar: the
                (ac, at), (bc, bt) = self._as_scalar(ac, at), self._as_scalar(bc, bt)   # scalar it holds
            ac, bc = (rust_literal(lit, t.dtype) if (lit := _literal(arm)) is not None and isinstance(t, Scalar)
                      else c for arm, c, t in ((node.body, ac, at), (node.orelse, bc, bt)))
            if at != bt or not isinstance(at, (Scalar, Tile)):
                raise self.refuse(node, "if-runtime", f"`{self.text(node)}`: the two values have different types "
                                                      f"({_describe(at)}, {_describe(bt)})")
            return self.typed(f"if {cond} {{ {ac} }} else {{ {bc} }}", at, want_name, "chosen") \
                if isinstance(at, Tile) else (f"if {cond} {{ {ac} }} else {{ {bc} }}", at)
        values = list(node.values)
        while len(values) > 1 and (c := self.const_value(values[0]))[0] and isinstance(c[1], (bool, int)):
            # a constant first (`FLAG and pid < n`, `not FLAG or ..`): Python decides it when the kernel compiles —
            # the rest when it does not short-circuit (a true `and`, a false `or`), else that constant
            if bool(c[1]) != isinstance(node.op, ast.And):
                return ("true" if c[1] else "false"), Scalar("bool")
            values.pop(0)
        if len(values) == 1:
            return self._as_bool_scalar(*self.expr(values[0], want_name))
        node = ast.copy_location(ast.BoolOp(node.op, values), node)
        first, fty = self._as_bool_scalar(*self.expr(node.values[0]))
        if fty != Scalar("bool"):
            raise self.refuse(node, "logic-runtime", f"`{self.text(node.values[0])}` in `{self.text(node)}` is not "
                                                     "a scalar comparison")
        held = self.fresh("cond")
        self.body.append(f"let {held}: bool = {first};")
        rest_node = node.values[1] if len(node.values) == 2 else \
            ast.copy_location(ast.BoolOp(node.op, node.values[1:]), node)
        outer, self.body = self.body, []   # the rest is evaluated inside the arm, as Python short-circuits it
        try:
            rest, rty = self._as_bool_scalar(*self.expr(rest_node))
            inner = self.body
        finally:
            self.body = outer
        if rty != Scalar("bool"):
            raise self.refuse(node, "logic-runtime", f"`{self.text(rest_node)}` is not a scalar comparison")
        rest = "\n".join([*inner, rest]) if inner else rest
        joined = self.fresh("both" if isinstance(node.op, ast.And) else "either")
        arms = f"{{ {rest} }} else {{ {held} }}" if isinstance(node.op, ast.And) else f"{{ {held} }} else {{ {rest} }}"
        self.body.append(f"let {joined}: bool = if {held} {arms};")
        return joined, Scalar("bool")

    def assume_divisible_by(self, node: ast.Call) -> tuple[str, Ty]:
        """``ct.assume_divisible_by(n, D)``: the same Tile IR assume (cutile's unsafe ``assume_div_by``), its claim the
        kernel's own contract, listed as an unsafe site with it as the precondition."""
        self.need(node, "assume-divisible", "ct.assume_divisible_by")
        kw = {k.arg: k.value for k in node.keywords}
        value = node.args[0] if node.args else kw.get("x")
        div_node = node.args[1] if len(node.args) > 1 else kw.get("divisor")
        ok, div = self.const_value(div_node)
        if value is None or not ok or not isinstance(div, int) or isinstance(div, bool) or div <= 0:
            raise self.refuse(node, "assume-divisible", "ct.assume_divisible_by of other than a positive constant "
                                                        "divisor")
        code, ty = self._as_scalar(*self.expr(value))
        if ty not in (Scalar("i32"), Scalar("i64")):
            raise self.refuse(node, "assume-divisible", f"ct.assume_divisible_by of {_describe(ty)} (an integer "
                                                        "scalar is expected)")
        self.unsafe_site(node, f"assume_div_by::<{div}> of `{self.text(value)}`",
                         "cutile states facts about a value only through unsafe assume ops",
                         f"`{self.text(value)}` is a multiple of {div} (the kernel's own "
                         "claim, ct.assume_divisible_by)")
        tmp = self.fresh("assumed")
        self.body.append(f"// SAFETY: the kernel claims `{self.text(value)}` is a multiple of {div} "
                         "(ct.assume_divisible_by), as its callers guarantee.")
        self.body.append(f"let {tmp}: {ty.rust()} = unsafe {{ assume_div_by::<_, {div}>({code}) }};")
        return tmp, ty

    def cat(self, node: ast.Call, want_name: str | None) -> tuple[str, Ty]:
        """``ct.cat((a, b), axis)``: cutile's `cat` of two tiles of one dtype, equal but along ``axis`` (the
        result's extent there spelled as its value: Rust cannot add const generics)."""
        self.need(node, "cat", "ct.cat")
        kw = {k.arg: k.value for k in node.keywords}
        tiles = node.args[0] if node.args else kw.get("tiles")
        axis_node = node.args[1] if len(node.args) > 1 else kw.get("axis")
        if not isinstance(tiles, (ast.Tuple, ast.List)) or len(tiles.elts) != 2:
            raise self.refuse(node, "cat", "ct.cat of other than a literal pair of tiles")
        (ac, at), (bc, bt) = (self.expr(e) for e in tiles.elts)
        axis = self._int(axis_node) if axis_node is not None else None
        if axis is None and isinstance(axis_node, ast.UnaryOp) and isinstance(axis_node.op, ast.USub):
            axis = -self._int(axis_node.operand) if self._int(axis_node.operand) is not None else None
        if not (isinstance(at, Tile) and isinstance(bt, Tile)) or at.dtype != bt.dtype or \
                len(at.shape) != len(bt.shape) or axis is None or not -len(at.shape) <= axis < len(at.shape):
            raise self.refuse(node, "cat", "ct.cat of two tiles of one dtype and rank along a literal axis")
        axis %= len(at.shape)
        if any(x != y for k, (x, y) in enumerate(zip(at.shape, bt.shape)) if k != axis):
            raise self.refuse(node, "cat", f"ct.cat of tiles of shapes ({', '.join(at.shape)}) and "
                                           f"({', '.join(bt.shape)}): they must agree but along axis {axis}")
        sizes = [self.const_value(ast.Name(d, ast.Load()))[1] if not d.isdigit() else int(d)
                 for d in (at.shape[axis], bt.shape[axis])]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in sizes):
            raise self.refuse(node, "cat", "ct.cat extents that are not constants")
        out = Tile(at.dtype, tuple(str(sum(sizes)) if k == axis else d for k, d in enumerate(at.shape)))
        return self.typed(f"cat({ac}, {bc}, {axis})", out, want_name, "joined")

    def pack_bytes(self, node: ast.Call, op: str, want_name: str | None) -> tuple[str, Ty]:
        """`ct.pack_to_bytes(t)`: the tile flattened to rank 1 and its bytes as a uint8 tile; `ct.unpack_from_bytes(b,
        dtype)`: a 1-d uint8 tile's bytes read as ``dtype``. As cuTile Python: a reshape to rank 1 (none where the
        tile has rank 1), then a `bitcast` for a dtype of 8 bits (nothing for uint8 itself), else Tile IR `pack` /
        `unpack` (cutile 0.3.1's `pack` / `unpack` of rank-1 tiles, bound to the type giving the extent: the
        elements' bits over 8, or the bytes' bits over the dtype's)."""
        self.need(node, "pack-bytes", f"ct.{op}")
        kw = {k.arg: k.value for k in node.keywords}
        if len(node.args) + len(kw) != (1 if op == "pack_to_bytes" else 2) or \
                set(kw) - ({"dtype"} if op == "unpack_from_bytes" else set()) or not node.args:
            raise self.refuse(node, "pack-bytes", f"`{self.text(node)}`: ct.{op} takes " +
                              ("the tile only" if op == "pack_to_bytes" else "a tile and a dtype"))
        code, ty = self.expr(node.args[0])
        dt = self.dtype_of(node.args[1] if len(node.args) > 1 else kw["dtype"]) if op == "unpack_from_bytes" \
            else "u8"
        if not isinstance(ty, Tile):
            raise self.refuse(node, "pack-bytes", f"`{self.text(node)}`: ct.{op} of a tile is expected")
        src_dt = ty.dtype
        if op == "unpack_from_bytes" and (len(ty.shape) != 1 or ty.dtype != "u8"):
            # (cuda.tile 1.7 rejects it: "unpack_from_bytes requires a 1D tile" / "requires uint8 tile")
            raise self.refuse(node, "pack-bytes", f"`{self.text(node)}`: ct.unpack_from_bytes of a 1-d uint8 tile "
                                                  f"is expected (cuda.tile 1.7 rejects a {ty.dtype} tile of rank "
                                                  f"{len(ty.shape)})")
        widths = {d: 8 * b for d, b in ELEMENT_BYTES.items() if d not in ("bool", "tf32")} | {"f4e2m1fn": 4}
        if dt not in widths or src_dt not in widths:
            raise self.refuse(node, "pack-bytes", f"`{self.text(node)}`: ct.{op} between uint8 and a numeric dtype "
                                                  "(not bool) is expected")
        extents = [int(d) if d.isdigit() else self.const_value(ast.Name(d, ast.Load()))[1] for d in ty.shape]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in extents):
            raise self.refuse(node, "pack-bytes", f"`{self.text(node)}`: ct.{op} of a tile of constant extents is "
                                                  "expected")
        n = math.prod(extents)
        if len(ty.shape) != 1:   # (pack_to_bytes: cuTile Python's reshape to rank 1 first)
            code = f"({code}).reshape(shape![{n}])"
        bits = n * widths[src_dt]
        if bits % widths[dt]:
            raise self.refuse(node, "pack-bytes", f"`{self.text(node)}`: {n} elements of {widths[src_dt]} bits "
                                                  f"are no whole number of {dt} elements (cuda.tile 1.7 rejects it)")
        flat = ty.shape if len(ty.shape) == 1 else (str(n),)
        # (the same extent, spelled as the flat tile's: a bitcast keeps its shape generic)
        out = Tile(dt, flat if widths[src_dt] == widths[dt] else (str(bits // widths[dt]),))
        if src_dt == dt:   # (uint8 to uint8: the flat tile itself)
            return self.typed(code, out, want_name, "bytes" if op == "pack_to_bytes" else "unpacked")
        if widths[src_dt] == 8 and widths[dt] == 8:
            return self.typed(f"bitcast({code})", out, want_name, "bytes" if op == "pack_to_bytes" else "unpacked")
        return self.typed(f"{'pack' if op == 'pack_to_bytes' else 'unpack'}({code})", out, want_name,
                          "bytes" if op == "pack_to_bytes" else "unpacked")

    def ordered_exprs(self, nodes: list[ast.AST]) -> list[tuple[str, Ty]]:
        """The operands of one operation translated in order. An operand that reads memory inline (`x_view.load(..)`)
        followed by one that binds statements of its own (`ct.transpose(ct.load(w, ..))`: a typed `let`) would read
        after it in Rust; cuTile Python reads the operands in source order, so such an operand is bound to a `let`
        right where it was translated."""
        out, marks = [], []
        for n in nodes:
            out.append(self.expr(n))
            marks.append(len(self.body))
        return self.bind_inline_reads(out, marks)

    def bind_inline_reads(self, out: list[tuple[str, Ty]], marks: list[int]) -> list[tuple[str, Ty]]:
        """``out``: operands translated in order, ``marks[i]`` the body's length after operand i (see
        ordered_exprs): an operand reading memory inline, followed by statements of a later one, bound there."""
        for i in reversed(range(len(out) - 1)):
            code, ty = out[i]
            if marks[-1] > marks[i] and isinstance(ty, Tile) and READS_MEMORY.search(code):
                tmp = self.fresh("operand")
                self.body.insert(marks[i], f"let {tmp}: {ty.rust()} = {code};")
                out[i] = (tmp, ty)
        return out

    def argmax(self, node: ast.Call, op: str, want_name: str | None) -> tuple[str, Ty]:
        """``ct.argmax(x, axis)`` / ``ct.argmin``: cuTile Python reduces the values and their indices together (one
        Tile IR reduce of two operands, a comparison body: the best value wins, NaN the worst — or the best with
        ``propagate_nan=True`` — and the least index among equal ones); cutile 0.3.1's reduce takes one operand. So
        it is the value's reduction, then the least index where x equals it — or every index where that value is
        NaN (no value but NaN: index 0): ``ct.min(ct.where(hit, iota, INT_MAX), axis)``, the same index for every
        input (irdiff rule argmax-two-reductions reads the reference's reduce so)."""
        self.need(node, "argmax", f"ct.{op}")
        opts = {k.arg: k.value for k in node.keywords}
        args = list(node.args) + [opts.pop(k) for k in ("axis",) if k in opts and len(node.args) == 1]
        keep, nan = (self.const_value(opts.pop(k))[1] if k in opts else False for k in ("keepdims", "propagate_nan"))
        axis = self._int(args[1]) if len(args) == 2 else None
        if len(args) not in (1, 2) or opts or (len(args) == 2 and axis is None) or \
                not isinstance(keep, bool) or not isinstance(nan, bool):
            raise self.refuse(node, "argmax", f"`{self.text(node)}`: ct.{op}(x, axis) with a constant axis, "
                                              "keepdims and propagate_nan")
        if nan:
            raise self.refuse(node, "argmax", f"ct.{op}(.., propagate_nan=True): the NaN-propagating reduction it "
                                              "reads as is not ported (ct.max / ct.min with propagate_nan)")
        code, ty = self.expr(args[0])
        if not isinstance(ty, Tile) or not ty.shape or ty.dtype not in ("f16", "bf16", "f32", "f64", "i32", "i64",
                                                                           "u32", "u64"):
            raise self.refuse(node, "argmax", f"ct.{op} of {_describe(ty)} (ported: a tile of 16- to 64-bit floats "
                                              "or 32- / 64-bit integers; cutile 0.3.1 builds no 8- or 16-bit integer "
                                              "identity for the value's reduction)")
        def call(fn: str, *a: ast.expr, **kw: ast.expr) -> ast.Call:
            return ast.Call(ast.Attribute(ast.Name("ct", ast.Load()), fn, ast.Load()), list(a),
                            [ast.keyword(k, v) for k, v in kw.items()])

        def name(n: str) -> ast.Name:
            return ast.Name(n, ast.Load())

        const = ast.Constant
        x = code   # (a tile already named is read as it is; any other expression is named once)
        if not (isinstance(args[0], ast.Name) and self.env.get(args[0].id, (None,))[0] == code):
            x = self.fresh("ranked")
            self.body.append(f"let {x}: {ty.rust()} = {code};")
            self.env[x] = (x, ty)
        if axis is None and len(ty.shape) > 1:   # every axis: the flat index, as cuTile Python reshapes to (-1,)
            sizes = [self._extent(d) for d in ty.shape]
            if None in sizes:
                raise self.refuse(node, "argmax", f"ct.{op} over every axis of a tile of extents not known")
            flat = self.fresh("flat")
            flat_code, flat_ty = self.expr(ast.fix_missing_locations(ast.copy_location(
                call("reshape", name(x), ast.Tuple([const(math.prod(sizes))], ast.Load())), node)))
            self.body.append(f"let {flat}: {flat_ty.rust()} = {flat_code};")
            self.env[flat] = (flat, flat_ty)
            picked = call(op, name(flat), const(0))
            if keep:
                picked = call("reshape", picked, ast.Tuple([const(1)] * len(ty.shape), ast.Load()))
            return self.expr(ast.fix_missing_locations(ast.copy_location(picked, node)), want_name)
        axis = (axis or 0) % len(ty.shape)
        best = self.fresh("best")
        best_code, best_ty = self.expr(ast.fix_missing_locations(ast.copy_location(
            call("max" if op == "argmax" else "min", name(x), const(axis), keepdims=const(True)), node)))
        self.body.append(f"let {best}: {best_ty.rust()} = {best_code};")
        self.env[best] = (best, best_ty)
        hit: ast.expr = ast.Compare(name(x), [ast.Eq()], [name(best)])
        if ty.dtype.startswith(("f", "bf")):   # a NaN best: no value but NaN, every index ties
            hit = ast.BinOp(hit, ast.BitOr(), ast.Compare(name(best), [ast.NotEq()], [name(best)]))
        shape = tuple(const(1) if d != axis else const(-1) for d in range(len(ty.shape)))
        extent = ty.shape[axis]   # (a constant's name where the tile's type has one: `iota(shape![V])`)
        iota = call("arange", name(extent) if extent in self.params else const(self._extent(extent)),
                    dtype=ast.Attribute(name("ct"), "int32", ast.Load()))
        if len(ty.shape) > 1:
            iota = call("reshape", iota, ast.Tuple(list(shape), ast.Load()))
        picked = call("where", hit, iota, const(2147483647))
        out = call("min", picked, const(axis), **({"keepdims": const(True)} if keep else {}))
        return self.expr(ast.fix_missing_locations(ast.copy_location(out, node)), want_name)

    def typed(self, code: str, ty: Tile, want_name: str | None, temp: str) -> tuple[str, Tile]:
        """cutile infers some ops' result types only from a typed binding (iota, select, convert_tile, raw loads):
        bound by the statement being emitted (``want_name``), or else through a named temporary."""
        if want_name is not None:
            return code, ty
        temp = self.fresh(temp)
        self.body.append(f"let {temp}: {ty.rust()} = {code};")
        return temp, ty

    def fresh(self, base: str) -> str:
        """A temporary's name, unique in the kernel: two temporaries of one expression must not shadow each other
        (`where(..) * where(..)` would read the second twice — the differential fuzzer found exactly that), nor a
        name of the kernel's own (a local `filled = t * 3.0` read after a `ct.full(..)` made the temporary
        `filled`: the later reads took the constant)."""
        while True:
            n = self.temps.get(base, 0) + 1
            self.temps[base] = n
            name = base if n == 1 else f"{base}_{n}"
            if name not in self.source_names:
                return name

    def _construct_for_call(self, op: str | None) -> str:
        return construct_for_call(op)

    def math_options(self, node: ast.Call, allow_rounding: bool, allow_ftz: bool) -> tuple[str, str]:
        kw = {k.arg: k.value for k in node.keywords}
        rounding, ftz = "rounding::NearestEven", "ftz::Disabled"
        for key, value in kw.items():
            if key == "rounding_mode" and allow_rounding:
                if isinstance(value, ast.Constant) and value.value is None:
                    continue
                mode = self.text(value).rsplit(".", 1)[-1]
                if mode not in ROUNDING:
                    raise self.refuse(value, "math", f"rounding mode {self.text(value)}")
                rounding = ROUNDING[mode]
            elif key == "flush_to_zero" and allow_ftz:
                ftz = "ftz::Enabled" if self.literal_flag(key, value) else "ftz::Disabled"
            else:
                raise self.refuse(value, "math", f"option {key}= of ct.{self.ct(node.func)}")
        return rounding, ftz

    def astype_rounded(self, node: ast.Call, want_name: str | None) -> tuple[str, Ty]:
        """`ct.astype(t, dtype, rounding_mode=R)` of a float tile to another float dtype (cuda.tile 1.7 allows the
        option there only): Tile IR `ftof` with that rounding, cutile's `ftof(t, rounding::R)`; round to nearest
        even is the conversion's default, the plain `convert_tile` (cuTile Python prints no mode for it either)."""
        rounding, _ = self.math_options(node, True, False)
        plain = ast.copy_location(ast.Call(node.func, list(node.args), []), node)
        if rounding == "rounding::NearestEven":
            return self.expr(plain, want_name)
        code, ty = self.expr(node.args[0])
        dt = self.dtype_of(node.args[1])
        if not isinstance(ty, Tile) or not ty.dtype.startswith(("f", "bf")) or not dt.startswith(("f", "bf")) or \
                dt == ty.dtype:
            raise self.refuse(node, "astype", f"`{self.text(node)}`: a rounding mode on other than a float tile "
                                              "converted to another float dtype")
        base = node.args[0].id if isinstance(node.args[0], ast.Name) else "cast"
        return self.typed(f"ftof({code}, {rounding})", Tile(dt, ty.shape), want_name, f"{base}_{dt}")

    def literal_flag(self, key: str, value: ast.AST) -> bool:
        """The value of a keyword option that must be a bool known when the kernel compiles (a compile-time marker
        in cutile): a literal, or a name holding one (a helper's `nan=False` parameter, a kernel constant), as
        cuTile Python folds it."""
        known, flag = self.const_value(value)
        if not known or type(flag) is not bool:
            raise self.refuse(value, "math", f"{key} must be a bool known when the kernel compiles")
        return flag

    def min_max_options(self, node: ast.Call) -> tuple[str, str]:
        """(nan, ftz) markers of ct.maximum/ct.minimum from their propagate_nan= and flush_to_zero= options."""
        nan, ftz = "nan::Disabled", "ftz::Disabled"
        for k in node.keywords:
            if k.arg == "propagate_nan":
                nan = "nan::Enabled" if self.literal_flag(k.arg, k.value) else nan
            elif k.arg == "flush_to_zero":
                ftz = "ftz::Enabled" if self.literal_flag(k.arg, k.value) else ftz
            else:
                raise self.refuse(k.value, "math", f"option {k.arg}= of ct.{self.ct(node.func)}")
        return nan, ftz

    def extract(self, node: ast.Call, want_name: str | None) -> tuple[str, Ty]:
        """`ct.extract(t, index, shape=)`: subtile `index` of the grid of `shape`-sized subtiles of `t` — cutile's
        `extract` with one 0-d index tile per dimension, typed by its binding."""
        self.need(node, "extract", "ct.extract")
        kw = {k.arg: k.value for k in node.keywords}
        args = list(node.args) + [kw.pop(k) for k in ("index", "shape") if k in kw]
        if len(args) != 3 or kw:
            raise self.refuse(node, "extract", "ct.extract form (tile, index, shape=)")
        code, ty = self.expr(args[0])
        shape = self.shape_of(args[2])
        if not isinstance(ty, Tile) or not isinstance(args[1], ast.Tuple) or \
                not len(ty.shape) == len(args[1].elts) == len(shape):
            raise self.refuse(node, "extract", "ct.extract of a tile with one index and one extent per dimension")
        index = []
        for e in args[1].elts:
            c, t = self.expr(e)
            if t != Scalar("i32"):
                raise self.refuse(e, "extract", f"ct.extract index {self.text(e)} is not an i32 scalar")
            index.append(f"scalar_to_tile::<i32>({c}{'i32' if _literal(e) is not None else ''})")
        return self.typed(f"extract({code}, [{', '.join(index)}])", Tile(ty.dtype, shape), want_name, "extracted")

    def matmul(self, node: ast.Call, want_name: str | None) -> tuple[str, Ty]:
        """`ct.matmul(a, b)` / `a @ b` of float tiles: cuTile Python's matmul_impl — the operands promoted to their
        common dtype, a 1-d `a` made `(1, K)` and a 1-d `b` `(K, 1)`, a rank-2 operand beside a rank-3 one reshaped
        to a batch of one and broadcast to the other's batch; the product taken into a zero accumulator of the
        first accumulator dtype its mma takes for them (MATMUL_ACC: f16 for f16 and fp8, f32 for bf16, f32 and
        tf32), converted back to the operands' dtype, then reshaped to drop a 1-d operand's axis. The port writes
        the same ops."""
        self.need(node, "mma", "ct.matmul")
        if len(node.args) != 2 or node.keywords:
            raise self.refuse(node, "mma", "ct.matmul form (x, y)")
        (a, ta), (b, tb) = (self.expr(x) for x in node.args)
        common = (ta.dtype if ta.dtype == tb.dtype else promote({ta.dtype, tb.dtype})) \
            if isinstance(ta, Tile) and isinstance(tb, Tile) else None   # (tf32 / fp8 of one dtype: no promotion)
        shapes = _matmul_shapes(ta.shape, tb.shape) if common in MATMUL_ACC else None
        if shapes is None or len(shapes[2]) not in (2, 3):
            raise self.refuse(node, "mma", "ct.matmul of anything but two float tiles of rank 1 to 3 whose batch "
                                           "extents broadcast (the product of rank 2 or 3)")
        a, ta = self.mma_operand(node, a, ta, common, shapes[0])
        if len(tb.shape) == 1:   # (k,) to (k, 1) first, then the batch broadcast, as matmul_impl does
            b, tb = self.typed(f"{_paren(b)}.reshape(shape![{tb.shape[0]}, 1])", Tile(tb.dtype, (tb.shape[0], "1")),
                               None, "reshaped")
        b, tb = self.mma_operand(node, b, tb, common, shapes[1])
        acc = Tile(MATMUL_ACC[common], shapes[2])
        zero, _ = self.typed(_float_constant(0.0, acc.dtype, ", ".join(acc.shape)), acc, None, "zero")
        op = "mma_batched" if len(acc.shape) == 3 else "mma"
        if op == "mma_batched":   # batched: the same mma op, declared in the port's module for rank-3 tiles
            self.declared_ops.setdefault(op, set())
        out = shapes[3]
        product, _ = self.typed(f"{op}({a}, {b}, {zero})", acc, None if acc.dtype != common or out != acc.shape
                                else want_name, "product")
        if acc.dtype != common:
            product, _ = self.typed(f"convert_tile({product})", Tile(common, acc.shape),
                                    want_name if out == acc.shape else None, f"product_{common}")
        if out == acc.shape:
            return product, Tile(common, out)
        return self.typed(f"{product}.reshape(shape![{', '.join(out)}])", Tile(common, out), want_name, "product")

    def mma_operand(self, node: ast.AST, code: str, ty: Tile, dtype: str, shape: tuple[str, ...]) -> tuple[str, Tile]:
        """cuTile Python's promote_and_broadcast_to for an mma operand: converted to ``dtype``, then reshaped to
        ``shape``'s rank (leading ones) and broadcast to it, each op only where it changes something."""
        if ty.dtype != dtype:
            code, ty = self.typed(f"convert_tile({code})", Tile(dtype, ty.shape), None, f"promoted_{dtype}")
        if len(ty.shape) < len(shape):
            ones = ("1",) * (len(shape) - len(ty.shape)) + ty.shape
            code, ty = self.typed(f"{_paren(code)}.reshape(shape![{', '.join(ones)}])", Tile(dtype, ones), None,
                                  "reshaped")
        if ty.shape != shape:
            self.need(node, "reshape-broadcast", "an mma operand's batch broadcast")
            code, ty = self.typed(f"{_paren(code)}.broadcast(shape![{', '.join(shape)}])", Tile(dtype, shape),
                                  None, "broadcast")
        return code, ty

    def rounded_unary(self, node: ast.Call, op: str) -> tuple[str, Ty]:
        """``ct.exp``/``ct.tanh`` (x, rounding_mode=..): cutile's own functions emit the op without a rounding
        mode, so one given is spelled out through the op the module declares (rustgen.declared_ops)."""
        construct = "exp" if not node.keywords else "exp-rounding"
        self.need(node, construct, f"ct.{op}")
        if len(node.args) != 1:
            raise self.refuse(node, construct, f"ct.{op} takes one operand")
        code, ty = self.expr(node.args[0])
        if not isinstance(ty, Tile):
            raise self.refuse(node, "math", f"ct.{op} of a scalar")
        if not node.keywords or all(isinstance(k.value, ast.Constant) and k.value.value is None
                                    for k in node.keywords):
            return f"{op}({code})", ty
        rounding, _ = self.math_options(node, True, False)
        self.declared_ops.setdefault(f"{op}_rounded", set()).add(rounding.split("::")[1])
        return f"{op}_rounded({code}, {rounding})", ty

    def math(self, node: ast.Call, op: str) -> tuple[str, Ty]:
        self.need(node, "math-explicit", f"ct.{op}")
        if op in BINARY_MATH:
            if len(node.args) != 2:
                raise self.refuse(node, "math-explicit", f"ct.{op} takes two operands")
            rounding, ftz = self.math_options(node, True, True)
            if rounding == "rounding::Full":
                raise self.refuse(node, "math-explicit", f"ct.{op}(.., rounding_mode=FULL): cutile 0.3.1's "
                                                         f"{BINARY_MATH[op]} has no full rounding (it stops at approx)")
            if op in ("add", "sub") and self.loc(node) in self.fma_locs \
                    and any(self._is_product(a) for a in node.args):
                if (rounding, ftz) != self.DEFAULT_FP:
                    raise self.refuse(node, "fma", f"an fma the reference IR has for `{self.text(node)}` "
                                                   "(an add with its own rounding/ftz)")
                fused = self.try_fma(node, op == "sub", node.args[0], node.args[1])
                if fused is not None:
                    return fused
            (a, ta), (b, tb) = self.expr(node.args[0]), self.expr(node.args[1])
            if isinstance(ta, Scalar) and isinstance(tb, Scalar):   # of scalars (`ct.truediv(1.0, D)`): folded
                # when constant (as cuTile Python folds it), else the operator's scalar form
                ok, value = self.const_value(node)
                if ok and isinstance(value, (int, float)) and not isinstance(value, bool):
                    return (rust_literal(float(value), "f32"), Scalar("f32")) if isinstance(value, float) else \
                        (f"{value}i32", Scalar("i32"))
                if not node.keywords:
                    return self.expr(ast.copy_location(ast.BinOp(node.args[0], MATH_OPERATORS[op](),
                                                                 node.args[1]), node))
                raise self.refuse(node, "math-explicit", f"ct.{op} of scalars with rounding or flush-to-zero options")
            like = self.result_tile(node, ta, tb)
            if not like.dtype.startswith(("f", "bf")):
                raise self.refuse(node, "math-explicit", f"ct.{op} on {like.dtype} tiles")
            if op == "mul":
                self.last_product = [(node.args[0], a, ta), (node.args[1], b, tb)]
                self.last_product_fp = (rounding, ftz)
            return (f"{BINARY_MATH[op]}({self.operand_as_tile(a, ta, like, node.args[0])}, "
                    f"{self.operand_as_tile(b, tb, like, node.args[1])}, {rounding}, {ftz})"), like
        fn, takes_rounding, takes_ftz = UNARY_MATH[op]
        if len(node.args) != 1:
            raise self.refuse(node, "math-explicit", f"ct.{op} takes one operand")
        rounding, ftz = self.math_options(node, takes_rounding, takes_ftz)
        code, ty = self.expr(node.args[0])
        if isinstance(ty, Scalar) and ty.dtype == "f32":   # an f32 scalar is a 0-d tile in Tile IR
            code, ty = f"scalar_to_tile::<f32>({code})", Tile("f32", ())
        if op == "abs" and isinstance(ty, Scalar) and ty.dtype in ("i32", "i64"):   # `abs(n - pid)`: absi of the
            # scalar's 0-d tile, as cuTile Python computes it (its scalars are 0-d tiles)
            rust = RUST_DTYPES[ty.dtype]
            return f"tile_to_scalar::<{rust}, {rust}>(absi(scalar_to_tile::<{rust}>({code})))", ty
        if op == "abs" and isinstance(ty, Tile) and ty.dtype in ("i8", "i16", "i32", "i64"):
            return f"absi({code})", ty   # an integer tile's |x|: Tile IR absi, as cuTile Python computes it
        if not isinstance(ty, Tile) or not ty.dtype.startswith(("f", "bf")):
            raise self.refuse(node, "math-explicit", f"ct.{op} of a non-float tile")
        extra = ([rounding] if takes_rounding else []) + ([ftz] if takes_ftz else [])
        if code.startswith("scalar_to_tile::<f32>("):   # of an f32 scalar (`ct.sqrt(bc2)`): cutile 0.3.1 infers
            # the op's result type there only from a typed binding ("Unable to infer return type")
            return self.typed(f"{fn}({', '.join([code] + extra)})", ty, None, f"{op}_value")
        return f"{fn}({', '.join([code] + extra)})", ty

    def reduce(self, node: ast.Call, op: str, want_name: str | None) -> tuple[str, Ty]:
        self.need(node, "reduce", f"ct.{op}")
        kw = {k.arg: k.value for k in node.keywords}
        axis_node = kw.pop("axis", node.args[1] if len(node.args) > 1 else None)
        self.drop_default_options(kw)
        keep = kw.pop("keepdims", None)
        known, keep_value = self.const_value(keep)
        if keep is not None and not (known and type(keep_value) is bool):
            raise self.refuse(keep, "reduce", f"keepdims={self.text(keep)}, not a bool known when it compiles")
        keepdims = bool(known and keep_value)
        code, ty = self.expr(node.args[0])
        if not isinstance(ty, Tile):
            raise self.refuse(node, "reduce", f"ct.{op} of a scalar")
        if op == "sum" and ty.dtype == "bool":   # a count of a mask: cuTile Python extends the i1 tile to i32
            # (exti unsigned; cutile infers the signedness from bool) and sums that
            ty = Tile("i32", ty.shape)
            code, ty = self.typed(f"exti({code})", ty, None, "count")
        if (axis_node is None or (isinstance(axis_node, ast.Constant) and axis_node.value is None)) and \
                len(ty.shape) == 1 and not kw:
            axis_node = ast.Constant(0)   # every axis of a 1-d tile: its only one
        elif not kw and (axis_node is None or (isinstance(axis_node, ast.Constant) and axis_node.value is None) or
                         isinstance(axis_node, ast.Tuple)):
            # several axes (every one: axis=None): cuTile Python reduces them in ascending order, each at its
            # position among the axes left (`a - i`), then reshapes to ones there for keepdims; so does the port
            # (the tile already translated is re-read by name)
            rank = len(ty.shape)
            if axis_node is None or isinstance(axis_node, ast.Constant):
                axes = list(range(rank))
            else:
                values = [self.const_value(e)[1] for e in axis_node.elts]
                if not all(isinstance(v, int) and not isinstance(v, bool) and -rank <= v < rank for v in values) \
                        or len({v % rank for v in values}) != len(values):
                    raise self.refuse(node, "reduce", f"ct.{op} over axes {self.text(axis_node)}: distinct literal "
                                                      f"axes of a rank-{rank} tile expected")
                axes = sorted(v % rank for v in values)
            tmp = self.fresh("whole")
            self.body.append(f"let {tmp}: {ty.rust()} = {code};")
            self.env[tmp] = (tmp, ty)
            inner: ast.expr = ast.copy_location(ast.Name(tmp, ast.Load()), node)
            for i, a in enumerate(axes):
                inner = ast.copy_location(ast.Call(node.func, [inner], [ast.keyword("axis", ast.Constant(a - i))]),
                                          node)
            if keepdims:
                ones = ast.Tuple([ast.Constant(1) if k in axes else ast.Constant(int(d)) if d.isdigit() else
                                  ast.Name(d, ast.Load()) for k, d in enumerate(ty.shape)], ast.Load())
                inner = ast.copy_location(ast.Call(ast.Attribute(ast.Name("ct", ast.Load()), "reshape", ast.Load()),
                                                   [inner, ones], []), node)
            ast.fix_missing_locations(inner)
            return self.expr(inner, want_name)
        axis_value = self.const_value(axis_node)[1] if axis_node is not None else None
        if kw or not isinstance(axis_value, int) or isinstance(axis_value, bool):
            raise self.refuse(node, "reduce", f"ct.{op} with {', '.join(kw)} other than its default" if kw else
                              f"ct.{op} with axis={self.text(axis_node)} (of a rank-{len(ty.shape)} tile)")
        axis = axis_value % len(ty.shape)
        reduced = Tile(ty.dtype, ty.shape[:axis] + ty.shape[axis + 1:])
        call = f"reduce_{op}({code}, {axis})"
        if not keepdims and any(not d.isdigit() for d in reduced.shape):
            # cutile types a reduction's result by its extents' values (`Tile<f32, {[64]}>`) and an arithmetic
            # operation needs both operands typed alike: reshaped to its own shape, it is typed by the names
            # (`{[TILE_M]}`) as every other tile (irdiff rule identity-shape-ops)
            tmp = self.fresh(f"{want_name or 'value'}_reduced")
            self.body.append(f"let {tmp}: {reduced.rust()} = {call};")
            call = f"{tmp}.reshape(shape![{', '.join(reduced.shape)}])"
            if want_name is not None:
                return call, reduced
            return self.typed(call, reduced, None, f"{tmp}_named")
        if not keepdims and want_name is not None:
            return call, reduced
        tmp = self.fresh(f"{want_name or 'value'}_reduced")
        self.body.append(f"let {tmp}: {reduced.rust()} = {call};")
        if not keepdims:
            return tmp, reduced
        kept = Tile(ty.dtype, ty.shape[:axis] + ("1",) + ty.shape[axis + 1:])
        return f"{tmp}.reshape(shape![{', '.join(kept.shape)}])", kept

    def load(self, node: ast.Call) -> tuple[str, Ty]:
        """ct.load of a tile; `shape=()` loads one element of an array of any rank: cuTile Python loads the tile of
        extent 1 in every dimension there and reshapes it to a 0-d tile, and so does the port."""
        kw = {k.arg: k.value for k in node.keywords}
        shape_node = kw.get("shape", node.args[2] if len(node.args) > 2 else None)
        code, ty = self._load(node)
        if isinstance(shape_node, ast.Tuple) and not shape_node.elts and isinstance(ty, Tile) and ty.shape:
            return f"{_paren(code)}.reshape(shape![])", Tile(ty.dtype, ())
        return code, ty

    def _load(self, node: ast.Call) -> tuple[str, Ty]:
        kw = {k.arg: k.value for k in node.keywords}
        steps_node = kw.pop("traversal_steps", None)
        if steps_node is not None and not getattr(node, "_tileport_rewritten", False):   # (only a view's steps)
            raise self.refuse(steps_node, "load-options", "ct.load(.., traversal_steps=..): not a keyword of ct.load "
                                                          "(a tiled view's `x.tiled_view(.., traversal_steps=..)`)")
        arr_node = node.args[0]
        if not isinstance(arr_node, ast.Name) or not isinstance(self.params.get(arr_node.id), sigmod.ArraySig):
            if slice_call(arr_node):
                self.expr(arr_node)   # (refused under array-slice, with the reason)
            raise self.refuse(node, "load-tile", "ct.load of something that is not an array parameter")
        arr = arr_node.id
        sig = self.params[arr]
        index = kw.get("index", node.args[1] if len(node.args) > 1 else None)
        shape = self.shape_of(kw.get("shape", node.args[2] if len(node.args) > 2 else None))
        if shape == () and sig.rank:   # one element (see load)
            shape = ("1",) * sig.rank
        steps = self.view_steps(steps_node, shape, arr)
        if steps is not None:
            return self.load_strided(node, arr, index, shape, steps, kw)
        latency, tma = self.memory_hints(kw)
        checks = kw.get("check_bounds")
        if checks is not None and self.const_value(checks) == (True, False):
            # the reference states the tile in range (`inbounds`); cutile cannot: the same load without the claim
            # (irdiff rule inbounds-hint), equal wherever the claim holds
            self.need(checks, "load-unchecked", "ct.load(.., check_bounds=False)")
            self.body.append(f"// check_bounds=False: the load of {arr} without the in-range claim cutile cannot "
                             "state (it reads the same tile wherever the claim holds)")
            kw = {k: v for k, v in kw.items() if k != "check_bounds"}
        for opt, default in LOAD_DEFAULTS.items():
            if opt in ("latency", "allow_tma", "order", "memory_order", "memory_scope"):
                continue
            if opt in kw and self.text(kw[opt]).replace("ct.", "") != default.replace("ct.", ""):
                raise self.refuse(kw[opt], "load-unchecked", f"ct.load option {opt}={self.text(kw[opt])}")
        ordering, scope = self.load_memory_order(node, kw)
        if not isinstance(index, ast.Tuple) or len(index.elts) != sig.rank or len(shape) != sig.rank:
            raise self.refuse(node, "load-tile", f"ct.load index/shape rank does not match {arr} (rank {sig.rank})")
        dim_map = self.load_order(kw.get("order"), sig.rank)
        idx = []
        for e in index.elts:
            code, ty = self.index_scalar(e)
            if not isinstance(ty, Scalar) or ty.dtype != "i32":
                raise self.refuse(e, "load-tile", f"index {self.text(e)} is not an integer scalar")
            idx.append(code)
        shape_macro = f"shape![{', '.join(shape)}]"
        pad = kw.get("padding_mode")
        mode = self.text(pad).rsplit(".", 1)[-1] if pad is not None else "UNDETERMINED"
        if pad is not None and isinstance(known := self.const_value(pad)[1], str) and known.startswith("padding:"):
            mode = known.removeprefix("padding:")   # a helper's parameter holding the mode
        dims = "dim_map::Identity" if dim_map is None else f"const_array![{', '.join(map(str, dim_map))}]"
        if mode == "ZERO":
            self.need(node, "load-tile-padded", "padded load")
            view = f"{arr}.partition({shape_macro})" if dim_map is None else \
                f"{arr}.partition_permuted({shape_macro}, {dims})"
        elif mode == "UNDETERMINED":
            self.need(node, "load-tile", "load")
            view = f"make_partition_view({self.tensor_arg(arr)}, {shape_macro}, padding::None, {dims}, " \
                f"get_tensor_token({self.tensor_arg(arr)}))"
        elif mode in PADDING and self.made(arr):
            raise self.refuse(pad, "array-slice", SLICE_VIEW_LIMIT.format(what=f"a load padded with {mode}"))
        elif mode in PADDING:
            self.need(node, "load-tile-padded-other", f"load padded with {mode}")
            view = f"make_partition_view({self.tensor_arg(arr)}, {shape_macro}, {PADDING[mode]}, {dims}, " \
                f"get_tensor_token({self.tensor_arg(arr)}))"
        else:
            raise self.refuse(pad, "load-options", f"padding_mode {self.text(pad)}")
        if dim_map is not None:
            self.body.append(f"// order={tuple(dim_map)} is the view's dim map, as in cuTile Python; the tile index "
                             f"is in the tile's axis order.")
        ty = Tile(sig.dtype, shape)
        view_name = self.unclashed(f"{arr}_view")
        through_mut = mode == "UNDETERMINED" and self.made(arr)   # (see SLICE_VIEW_LIMIT)
        if through_mut and dim_map is not None:
            raise self.refuse(kw["order"], "array-slice", SLICE_VIEW_LIMIT.format(
                what="an unpadded load with a permuted order"))
        proven = dim_map is None and len(index.elts) == 1 and isinstance(index.elts[0], ast.Name) and \
            self.loop_bounds.get(index.elts[0].id, (None, None))[1] == (arr, 0, shape)

        def raw() -> str:
            """The raw Tile IR load. Its index array has no other typed element to infer a bare literal from: spell
            it i32; nor can cutile infer a block id's type there: bind it first."""
            raw_idx = []
            for c, e in zip(idx, index.elts):
                if isinstance(e, ast.Call) and self.ct(e.func) in ("bid", "num_blocks"):
                    name = self.fresh(f"{self.ct(e.func)}{self._int(e.args[0])}")
                    self.body.append(f"let {name}: i32 = {c};")
                    c = name
                elif "get_num_tile_blocks()" in c or "get_tile_block_id()" in c:
                    # an expression of them (`b * ct.num_blocks(1) + h`): bound first too, typed
                    name = self.fresh("index")
                    self.body.append(f"let {name}: i32 = {c};")
                    c = name
                raw_idx.append(f"{c}i32" if _literal(e) is not None else c)
            if through_mut:
                return (f"unsafe {{ load_view_tko_mut(&{view_name}, [{', '.join(raw_idx)}], {ordering}, {scope}, "
                        f"{latency}, {tma}) }}")
            return (f"load_view_tko(&{view_name}, [{', '.join(raw_idx)}], {ordering}, {scope}, {latency}, {tma})")

        if through_mut:
            self.slice_view_mut(node, arr, view_name, shape, "load")
            self.body.append(f"// SAFETY: a read of the slice {arr} through that view, unchecked as in cuTile Python "
                             "(the source keeps the index in range).")
            return self.typed(raw(), ty, None, f"{arr}_tile")
        tokens = self.inplace_tokens.get(arr)
        if tokens:   # updated in place: the view starts from the array's last store (see ordered_in_place)
            view = f"make_partition_view({self.tensor_arg(arr)}, {shape_macro}, " \
                f"{PADDING.get(mode, 'padding::None')}, {dims}, " \
                f"{self.ordered_input(arr, False) if self.acq_mode else tokens[1]})"
        # The view gets a name of its own so its (partition) type is spelled out once.
        self.body.append(f"let {view_name}: Partition<{RUST_DTYPES[sig.dtype]}, {{ [{', '.join(shape)}] }}> = "
                         f"{view};")
        if tokens:   # the Tile IR load (its view then holds the load's token), joined into the last-op token
            loaded = self.typed(raw(), ty, None, f"{arr}_tile")
            self.body.append(f"{tokens[0]} = join_tokens(&[{tokens[0]}, get_partition_token(&{view_name})]);")
            self.tok_tag[tokens[0]] = self.fresh("tag")
            return loaded
        if self.made(arr) and not proven:
            # a view made in the kernel: cutile's checked `.load` would assert the index against it; cuTile Python
            # reads it unchecked (a padded view reads padding past its end)
            self.body.append(f"// The Tile IR load from the slice {arr}, unchecked as in cuTile Python.")
            return self.typed(raw(), ty, None, f"{arr}_tile")
        if proven:
            stop = self.loop_bounds[index.elts[0].id][0]
            self.body.append(f"// {idx[0]} < {stop} = num_tiles({arr}) by the loop bound: no bounds check to emit.")
            return self.typed(raw(), ty, None, f"{arr}_tile")
        plain = all(self._plain_index(e, shape[k] if k < len(shape) else None) for k, e in enumerate(index.elts))
        if mode != "UNDETERMINED" and not plain:
            self.need(node, "load-padded-offset", "padded load at a computed tile index")
            self.body.append("// Padded view: a tile index past the edge reads padding (as in cuTile Python), so the "
                             "load needs no bounds check.")
            return self.typed(raw(), ty, None, f"{arr}_tile")
        if mode == "UNDETERMINED" and not plain:
            # cuTile Python reads it without a bounds check; cutile's checked `.load` would assert (a different
            # program), so the Tile IR load itself, as the reference has it
            self.need(node, "load-padded-offset", "unpadded load at a computed tile index")
            self.body.append("// The Tile IR load at a computed index, unchecked as in cuTile Python (the source keeps "
                             "the index in range).")
            return self.typed(raw(), ty, None, f"{arr}_tile")
        if tma != "tma::Enabled" or ordering != "ordering::Weak":
            # No checked load takes a TMA choice or a memory order: the Tile IR load with the hint, as the reference has it (the index
            # is one cutile's checks discharge anyway: a block id or a counted loop index).
            return self.typed(raw(), ty, None, f"{arr}_tile")
        if latency != "None":
            return f"{view_name}.load_pipelined::<{latency[5:-1]}>([{', '.join(idx)}])", ty
        return f"{view_name}.load([{', '.join(idx)}])", ty

    def view_steps(self, node: ast.AST | None, shape: tuple[str, ...], arr: str) -> tuple[str, ...] | None:
        """A tiled view's `traversal_steps=` (resolve hands them on to its load/store/num_tiles): None where there
        are none or they are the tile shape (cuTile Python then makes the plain partition view, `_use_strided_view`),
        else the steps, each a positive constant (not a power of two necessarily)."""
        if node is None:
            return None
        if not isinstance(node, ast.Tuple) and (c := self.const_value(node))[0] and type(c[1]) is int:
            node = ast.copy_location(ast.Tuple([node], ast.Load()), node)   # (one int: the 1-tuple of it)
        if not isinstance(node, ast.Tuple) or len(node.elts) != len(shape):
            raise self.refuse(node, "tiled-view-steps", f"traversal_steps={self.text(node)}: a tuple of one constant per "
                                                   f"dimension of {arr}'s tile shape is ported")
        steps = self.shape_of(node)
        for e, d in zip(node.elts, steps):
            value = self._extent(d)
            if value is None or value <= 0:
                raise self.refuse(e, "tiled-view-steps", f"traversal step {self.text(e)} is not a positive constant")
        if all(self._extent(a) == self._extent(b) for a, b in zip(steps, shape)):
            return None
        return steps

    def load_strided(self, node: ast.Call, arr: str, index: ast.AST, shape: tuple[str, ...],
                     steps: tuple[str, ...], kw: dict) -> tuple[str, Ty]:
        """A load through `v = x.tiled_view(shape, traversal_steps=steps)` whose steps are not its shape: cuTile
        Python's strided view (`make_strided_view`, tile k of a dimension starting at element k * step) and its
        weak `load_view_tko`, through cutile 0.3.1's `make_strided_view` and its `load_strided_view_tko`, declared
        in the port's module with a weak ordering (rustgen.declared_ops). cutile's strided view takes no padding
        (padding_mode= other than UNDETERMINED is refused) and its load no hints (latency=, allow_tma= refused);
        only an array the kernel reads and never writes (the view starts from the array's token)."""
        sig = self.params[arr]
        what = f"a load through {arr}'s tiled view with traversal_steps"
        for opt, value in kw.items():
            if opt in ("index", "shape"):
                continue
            text = self.text(value).replace("ct.", "")
            if opt == "padding_mode" and text.rsplit(".", 1)[-1] == "UNDETERMINED" or \
                    opt in ("latency", "allow_tma") and text == "None" or \
                    opt == "check_bounds" and self.const_value(value) == (True, True):
                continue
            raise self.refuse(value, "tiled-view-steps", f"{what} and {opt}={self.text(value)}: cutile 0.3.1's strided "
                                                    "view takes no padding (make_strided_view leaves its padding "
                                                    "unset) and its load_strided_view_tko no hints or bounds claim")
        if self.made(arr) or self.acq_mode or arr in self._effects(self.fn)[1] or self.inplace_tokens.get(arr):
            raise self.refuse(node, "tiled-view-steps", f"{what}, where the kernel also writes {arr} (the strided view "
                                                   "starts from the array's own token: ported for an array the "
                                                   "kernel only reads)")
        if not isinstance(index, ast.Tuple) or len(index.elts) != sig.rank or len(shape) != sig.rank:
            raise self.refuse(node, "load-tile", f"ct.load index/shape rank does not match {arr} (rank {sig.rank})")
        idx = []
        for e in index.elts:
            code, ty = self.index_scalar(e)
            if not isinstance(ty, Scalar) or ty.dtype != "i32":
                raise self.refuse(e, "load-tile", f"index {self.text(e)} is not an integer scalar")
            if _literal(e) is not None:   # (the index array has no other typed element to infer a literal from)
                code = f"{code}i32"
            elif not code.isidentifier():   # (nor can cutile infer a block id's type there: bound first)
                name = self.fresh("index")
                self.body.append(f"let {name}: i32 = {code};")
                code = name
            idx.append(code)
        self.need(node, "tiled-view-steps", "a tiled view with traversal steps")
        elem, dims = RUST_DTYPES[sig.dtype], ", ".join(shape)
        view = self.fresh(f"{arr}_strided")
        loaded = self.fresh(f"{arr}_tile")
        dim_map = ", ".join(str(k) for k in range(sig.rank))
        tensor = self.tensor_arg(arr)
        self.body.append(f"// {arr}'s tiled view with traversal steps ({', '.join(steps)}): tile k of a dimension "
                         "starts at element k * step (cuTile Python's strided view).")
        self.body.append(f"// SAFETY: a view of {arr} read through (only read by the kernel).")
        self.body.append(f"let {view}: StridedView<{elem}, {{ [{dims}] }}, {{ [{', '.join(steps)}] }}, "
                         f"{{ [{dim_map}] }}> = unsafe {{ make_strided_view({tensor}, shape![{dims}], padding::None) }};")
        self.body.append(f"let ({loaded}, _): (Tile<{elem}, {{ [{dims}] }}>, Token) = unsafe {{ "
                         f"load_strided_view_weak(&{view}, [{', '.join(idx)}], get_tensor_token({tensor}), "
                         "ordering::Weak, scope::TileBlock) };")
        self.declared_ops.setdefault("load_strided_view_weak", set())
        self.unsafe_site(node, f"make_strided_view / load_strided_view_tko of {arr} (a tiled view with "
                         "traversal_steps)",
                         "cutile marks the strided view and its load unsafe",
                         "none beyond cuTile Python's: elements past the array read "
                         "undetermined values, as with padding_mode=UNDETERMINED")
        return loaded, Tile(sig.dtype, shape)

    def load_memory_order(self, node: ast.Call, kw: dict) -> tuple[str, str]:
        """ct.load's `memory_order=` / `memory_scope=` as the Tile IR load's (cutile's `load_view_tko` takes both):
        weak by default (its scope unused); relaxed at a scope; acquire only where no memory operation follows it,
        since cuTile Python orders every later one after it by its token, which the port's views (each starting
        from its array's own token) do not take."""
        order = self.text(kw["memory_order"]).rsplit(".", 1)[-1] if "memory_order" in kw else "WEAK"
        scope = self.text(kw["memory_scope"]).rsplit(".", 1)[-1] if "memory_scope" in kw else "NONE"
        if order == "WEAK":
            return "ordering::Weak", "scope::TileBlock"
        where = kw.get("memory_order", node)
        if order not in ("RELAXED", "ACQUIRE") or scope not in ATOMIC_SCOPES:
            raise self.refuse(where, "load-memory-order", f"ct.load with memory_order={order}, memory_scope={scope} "
                                                          "(a load is weak, relaxed or acquire, at scope BLOCK, DEVICE "
                                                          "or SYS)")
        if order == "ACQUIRE":
            here = (node.lineno, node.col_offset)
            later = [n for n in self.live_walk() if isinstance(n, ast.Call) and (n.lineno, n.col_offset) > here
                     and n is not node and (self.ct(n.func) in MEMORY_OPS or self.ct(n.func) in ATOMIC_MODES or
                                            isinstance(n.func, ast.Name) and n.func.id in self.helpers)]
            if self.scope_locals or self.inlining or later:
                what = "inside a loop, branch or helper" if self.scope_locals or self.inlining else \
                    f"followed by {self.text(later[0].func)} at line {later[0].lineno}"
                raise self.refuse(where, "load-memory-order",
                                  f"an acquiring ct.load {what}: cuTile Python orders every later memory operation "
                                  "after it (their views join its token); the port's views start from their "
                                  "array's own token, so that order is not carried")
        self.need(where, "load-memory-order", f"ct.load with memory_order={order}")
        return ATOMIC_ORDERS[order], ATOMIC_SCOPES[scope]

    def load_order(self, node: ast.AST | None, rank: int) -> list[int] | None:
        """ct.load's `order=` as the partition's dim map (cuTile Python's `dim_map` is the order itself): None for
        the default row-major 'C' (and an identity tuple), the reversed axes for 'F', else a literal permutation."""
        if node is None:
            return None
        if isinstance(node, ast.Constant) and node.value in ("C", "F"):
            order = list(range(rank)) if node.value == "C" else list(reversed(range(rank)))
        elif isinstance(node, ast.Tuple) and all(self._int(e) is not None for e in node.elts):
            order = [self._int(e) for e in node.elts]
        else:
            raise self.refuse(node, "load-order", f"order={self.text(node)} is not 'C', 'F' or a literal tuple")
        if sorted(order) != list(range(rank)):
            raise self.refuse(node, "load-order", f"order={self.text(node)} is not a permutation of the {rank} axes")
        if order == list(range(rank)):
            return None
        self.need(node, "load-order", "load with a permuted order")
        return order

    def memory_hints(self, kw: dict, construct: str = "load-options") -> tuple[str, str]:
        """ct.load's or ct.store's `latency=` and `allow_tma=` hints as cutile's arguments (`Some(L)`,
        `tma::Disabled`); NO_HINTS when neither is given."""
        latency, tma = NO_HINTS
        if "latency" in kw and self.text(kw["latency"]) != "None":
            node = kw["latency"]
            value = self._int(node)
            if value is None and isinstance(node, ast.Name) and node.id in self.constants:
                value = self.params[node.id].value if isinstance(self.params.get(node.id), sigmod.ConstSig) else None
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.refuse(node, construct, f"latency={self.text(node)} is not a constant int")
            self.need(node, construct, "latency hint")
            latency = f"Some({value})"
        if "allow_tma" in kw and self.text(kw["allow_tma"]) != "None":
            node = kw["allow_tma"]
            ok, allow = self.const_value(node)
            if not ok or not isinstance(allow, bool):
                raise self.refuse(node, construct, f"allow_tma={self.text(node)} is not a constant bool")
            self.need(node, construct, "allow_tma hint")
            tma = "tma::Enabled" if allow else "tma::Disabled"
        return latency, tma

    def _plain_index(self, e: ast.AST, extent: str | None = None) -> bool:
        """A tile index cutile's partition check decides without an in-kernel assert: the literal 0, a block id
        (checked against the grid at launch) or a loop index counted by ct.num_tiles — of this array along this
        dimension, or of another array's axis in tiles of the same extent (cutile's axis-provenance rung: the
        other axis bounds this one by a launch check). A loop over another array's tiles of another extent (`for kb
        in range(ct.num_tiles(x, 1, (BM, BK)))` indexing `qw`'s `(BK // 8, BN)` tiles: int4 weights packed eight to
        an int32) is not: cutile asserts it before the loop. Another literal (tile 1 of a dynamic dimension) gets an
        in-kernel bounds assert that cuTile Python's padded load does not have; so does a grid-stride loop's index
        (`for r in range(ct.bid(0), ct.num_tiles(x, 0, ..), ct.num_blocks(0))`: cutile keeps the assert in the
        loop). ``extent``: the access's tile extent along the index's dimension."""
        if isinstance(e, ast.Name) and e.id in self.tile_loop_vars:
            counts = self.tile_loop_vars[e.id]
            if counts is None or extent is None:
                return True
            axis = counts[1] if counts[1] >= 0 else counts[1] + len(counts[2])
            return 0 <= axis < len(counts[2]) and self._same_extent(counts[2][axis], extent)
        if isinstance(e, ast.Name):
            return e.id in self.bid_names
        return self._int(e) == 0 or (isinstance(e, ast.Call) and self.ct(e.func) == "bid")

    def result_tile(self, node: ast.AST, *types: Ty, nodes: list | None = None) -> Tile:
        """The broadcast result of tile/scalar operands (numpy rules on symbolic shapes); ``nodes``: the operands'
        nodes where they are not ``node``'s own (an fma's three factors)."""
        tiles = [t for t in types if isinstance(t, Tile)]
        if not tiles:
            raise self.refuse(node, "arith-tile", "operation on scalars only")
        rank = max(len(t.shape) for t in tiles)
        shape = ["1"] * rank
        for t in tiles:
            padded = ("1",) * (rank - len(t.shape)) + t.shape
            for k, d in enumerate(padded):
                if d == shape[k] or d == "1":
                    continue
                if shape[k] != "1" and self._same_extent(d, shape[k]):   # one extent, two spellings: the name
                    shape[k] = shape[k] if not shape[k].isdigit() else d
                    continue
                if shape[k] == "1" or (self._unit_dim(shape[k]) and not self._unit_dim(d)):
                    shape[k] = d   # (an extent that is 1 in this specialization broadcasts as 1 does)
                elif not self._unit_dim(d):
                    raise self.refuse(node, "reshape-broadcast", f"shapes {t.shape} and {tuple(shape)} do not "
                                                                 "broadcast")
        # a typed scalar (a runtime value, not a literal or constant) takes part in the promotion as cuTile Python
        # types it: an f16 tile times an f32 argument is computed in f32, an i32 tile next to an i64 scalar (an
        # int64 label's `.item()`) in i64
        operands = _operand_nodes(node) if nodes is None else nodes
        narrow = any(t.dtype in ("i8", "i16") for t in tiles)   # (an i8 tile minus an int argument: in i32)
        strong = [t.dtype for t, n in zip(types, operands) if isinstance(t, Scalar) and n is not None
                  and (t.dtype.startswith("f") or t.dtype == "i64" or (narrow and t.dtype == "i32"))
                  and not self.const_value(n)[0]]
        dtypes = {t.dtype for t in tiles} | set(strong)
        # a loosely typed constant (a Python literal, a ct.Constant) of a stronger category than every typed operand
        # (a float with integer tiles, an int with bool tiles) gives the result its default dtype, f32 or i32, as
        # cuTile Python's _promote_dtype_and_loosely_typed_constant does ("strongest category always wins")
        loose = [_dtype_category(type(c[1]).__name__) for t, n in zip(types, operands) if isinstance(t, Scalar) and
                 n is not None and (c := self.const_value(n))[0] and type(c[1]) in (bool, int, float)]
        if loose and max(loose) > max(_dtype_category(d) for d in dtypes):
            default = LOOSE_DEFAULT[max(loose)]
            self.need(node, "arith-promote", f"a {default} constant with tiles of dtypes {sorted(dtypes)}")
            return Tile(default, tuple(shape))
        if len(dtypes) > 1:
            # a bool tile in arithmetic with numbers (`t - (t > n)`, `t * (t > 0.0)`) takes their dtype, as cuTile
            # Python converts it (exti / itof unsigned: 0 or 1)
            wide = promote(dtypes - {"bool"})
            if wide is None:
                raise self.refuse(node, "arith-tile", f"tiles of dtypes {sorted(dtypes)} (cast one with ct.astype)")
            self.need(node, "arith-promote", f"operands of dtypes {sorted(dtypes)}")
            return Tile(wide, tuple(shape))
        return Tile(tiles[0].dtype, tuple(shape))

    def _unit_dim(self, d: str) -> bool:
        """Whether a tile extent is 1: the literal, or a constant that is 1 in this specialization."""
        return d == "1" or (isinstance(p := self.params.get(d), sigmod.ConstSig) and p.value == 1
                            and not isinstance(p.value, bool))

    def _extent(self, d: str) -> int | None:
        """A tile extent's value in this specialization (a literal, or a constant's name)."""
        if d.isdigit():
            return int(d)
        p = self.params.get(d)
        return p.value if isinstance(p, sigmod.ConstSig) and type(p.value) is int else None

    def _same_extent(self, a: str, b: str) -> bool:
        """Two spellings of one extent (`BM` and `64` where BM is 64 here: a shape computed from constants next
        to a const generic's)."""
        return a == b or (self._extent(a) is not None and self._extent(a) == self._extent(b) and
                          not self._unit_dim(a))   # (unit extents broadcast: their own rules, result_tile)

    def operand_as_tile(self, code: str, ty: Ty, like: Tile, node: ast.AST) -> str:
        if isinstance(ty, Tile) and self.value_typed.get(code) == ty:
            # a transpose/permute cutile typed by its extents' values: an identity reshape to the names, as a
            # reduction's result gets one (irdiff identity-shape-ops)
            code = f"{code}.reshape(shape![{', '.join(ty.shape)}])"
        if isinstance(ty, Tile) and ty.dtype != like.dtype:   # promoted (see result_tile): converted first
            conv = "exti" if like.dtype.startswith("i") else "convert_tile"   # (integers widen by sign extension)
            code, ty = self.typed(f"{conv}({code})", Tile(like.dtype, ty.shape), None, f"promoted_{like.dtype}")
        if isinstance(ty, Tile) and ty.shape != like.shape and len(ty.shape) == len(like.shape) and \
                all(self._same_extent(a, b) for a, b in zip(ty.shape, like.shape)):
            # the same extents spelled differently: an identity reshape to the name Rust types it by (irdiff
            # identity-shape-ops)
            return f"{_paren(code)}.reshape(shape![{', '.join(like.shape)}])"
        if isinstance(ty, Tile):
            if ty.shape == like.shape:
                return code
            self.need(node, "reshape-broadcast", "implicit broadcast")
            if len(ty.shape) < len(like.shape):
                ones = ("1",) * (len(like.shape) - len(ty.shape)) + ty.shape
                code = f"{_paren(code)}.reshape(shape![{', '.join(ones)}])"
            return f"{_paren(code)}.broadcast(shape![{', '.join(like.shape)}])"
        if isinstance(ty, Scalar):
            self.need(node, "arith-scalar-broadcast", "scalar operand")
            lit = _literal(node)
            if lit is None and like.dtype == "f64" and (c := self.const_value(node))[0] and type(c[1]) is float:
                lit = c[1]   # a float constant by name (a ct.Constant[float]) in an f64 operation: folded as below
            if isinstance(lit, float) and like.dtype == "f64":
                # a Python float is a loosely typed f32 constant in cuTile Python, promoted to the f64 tile's type:
                # the value rounded to f32 (`t + 0.1` adds 0.10000000149011612; `1e300` is inf)
                lit = _f32(lit)
            if lit is not None and isinstance(lit, float) and math.isinf(lit) and \
                    like.dtype in ("f32", "f64", "f16", "bf16"):
                # ±inf has no literal: the named constant, as a tile (see _float_constant)
                return self.typed(_float_constant(lit, like.dtype, ", ".join(like.shape)), like, None, "infinity")[0]
            ok, value = self.const_value(node)
            if like.dtype in ("f16", "bf16") and ok and isinstance(value, (int, float)) and \
                    not isinstance(value, bool):   # a constant in a 16-bit operation: that type's constant
                # (cuTile Python converts it; cutile has no 16-bit literal, see _float_constant)
                return self.typed(_float_constant(float(value), like.dtype, ", ".join(like.shape)), like, None,
                                  f"{like.dtype}_value")[0]
            if lit is None and ok and type(value) in (int, float) and code == repr(value):
                lit = value   # a folded constant written bare (`(1 if DESC else 0) ^ t`): typed as a literal
            if lit is None and ok and type(value) is bool and \
                    like.dtype in ("f32", "f64", "i8", "i16", "i32", "i64"):   # a constant flag (`t * (K > 0)`):
                lit = int(value)   # 1 or 0 of the tile's dtype, the constant cuTile Python folds it to
            if isinstance(lit, float) and like.dtype == "f64":
                # a Python float is a loosely typed f32 constant in cuTile Python, promoted to the f64 tile's type:
                # the value rounded to f32 (`t + 0.1` adds 0.10000000149011612)
                lit = _f32(lit)
            if lit is None and ok and type(value) is int and ty.dtype != like.dtype and \
                    like.dtype in ("i8", "i16", "i64", "u8", "u16", "u32", "u64"):
                # a folded integer (`4 * j` of a static_iter item) with an integer tile of another width or
                # signedness: a constant of the tile's dtype, as cuTile Python types a constant operand
                lit = value
            if isinstance(lit, int) and not isinstance(lit, bool) and _top_bit_set(lit, like.dtype):
                self.need(node, "arith-scalar-broadcast", f"a {like.dtype} literal with its top bit set")
                return self.typed(f"bitcast(broadcast_scalar({self.signed_bits_literal(node, lit, like.dtype)}, "
                                  f"shape![{', '.join(like.shape)}]))", like, None, f"{like.dtype}_value")[0]
            if isinstance(lit, int) and not isinstance(lit, bool) and not -2 ** 31 <= lit < 2 ** 31:
                raise self.refuse(node, "arith-scalar-broadcast", f"integer literal {lit} with a {like.dtype} "
                                  "tile: cutile 0.3.1 takes no integer literal beyond int32 (an unsigned one within "
                                  "its type's range is ported)")
            if lit is not None:
                if like.dtype in ("f16", "bf16"):
                    raise self.refuse(node, "arith-scalar-broadcast", f"literal {lit!r} in a {like.dtype} tile "
                                      "operation (no half-precision literal form is emitted yet; compute in f32)")
                code = rust_literal(lit, like.dtype) if like.dtype.startswith("f") or \
                    isinstance(lit, int) else code
            elif ty.dtype == "i32" and like.dtype == "f32":   # Python promotes the int: folded if constant, else itof
                ok, value = self.const_value(node)
                code = rust_literal(float(value), "f32") if ok and not isinstance(value, bool) else \
                    self.int_as_float(code, node)
            elif ty.dtype == "i32" and like.dtype == "f64" and (c := self.const_value(node))[0] and \
                    type(c[1]) is int:   # a constant int with an f64 tile (`ct.sum(t) / B`): the f64 constant
                # cuTile Python folds it to
                code = rust_literal(float(c[1]), "f64")
            elif ty.dtype == "i32" and like.dtype in ("f16", "bf16", "f64"):   # a runtime int with a 16-bit float
                # or an f64 tile: the signed itof to the tile's dtype, as cuTile Python converts it (row int-to-float)
                self.need(node, "int-to-float", f"`{self.text(node)}` converted to {like.dtype}")
                elem, conv = RUST_DTYPES[like.dtype], self.fresh(f"as_{like.dtype}")
                self.body.append(f"let {conv}: Tile<{elem}, {{ [] }}> = convert_tile(scalar_to_tile::<i32>({code}));")
                code = f"tile_to_scalar::<{elem}, {elem}>({conv})"
            elif ty.dtype == "i32" and like.dtype == "i64":   # Python widens the int: a signed exti
                wide = self.fresh("widened")
                self.body.append(f"let {wide}: Tile<i64, {{ [] }}> = exti(scalar_to_tile::<i32>({code}));")
                code = f"tile_to_scalar::<i64, i64>({wide})"
            elif ty.dtype in ("f16", "bf16", "f32") and ty.dtype != like.dtype and \
                    promote({ty.dtype, like.dtype}) == like.dtype:   # a float scalar (`.item()` of an f16 tile, an
                # f32 argument) with a wider float tile: widened as cuTile Python promotes it (ftof)
                self.need(node, "arith-promote", f"`{self.text(node)}` widened to {like.dtype}")
                src, elem, conv = RUST_DTYPES[ty.dtype], RUST_DTYPES[like.dtype], self.fresh(f"as_{like.dtype}")
                self.body.append(f"let {conv}: Tile<{elem}, {{ [] }}> = convert_tile(scalar_to_tile::<{src}>({code}));")
                code = f"tile_to_scalar::<{elem}, {elem}>({conv})"
            elif ty.dtype == "bool" and like.dtype in ("f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64") and \
                    not self.const_value(node)[0]:   # a runtime flag with a number tile (`ct.sum(t) + flag`, an
                # `int` parameter launched with True): counted as 0 or 1 in the tile's dtype, as cuTile Python
                # converts the i1 (`itof unsigned` / `exti unsigned`, which cutile infers from bool)
                self.need(node, "arith-promote", f"`{self.text(node)}`: a bool counted as {like.dtype}")
                elem, conv = RUST_DTYPES[like.dtype], self.fresh(f"counted_{like.dtype}")
                op = "convert_tile" if like.dtype.startswith(("f", "bf")) else "exti"
                self.body.append(f"let {conv}: Tile<{elem}, {{ [] }}> = {op}(scalar_to_tile::<bool>({code}));")
                code = f"tile_to_scalar::<{elem}, {elem}>({conv})"
            elif ty.dtype != like.dtype:
                raise self.refuse(node, "arith-scalar-broadcast", f"{ty.dtype} scalar with a {like.dtype} tile")
            return f"broadcast_scalar({code}, shape![{', '.join(like.shape)}])"
        raise self.refuse(node, "arith-tile", "arithmetic on an array")

    DEFAULT_FP = ("rounding::NearestEven", "ftz::Disabled")

    def int_as_float(self, code: str, node: ast.AST) -> str:
        """An i32 scalar as the f32 Python promotes it to (a literal for a literal; else a signed itof)."""
        if (lit := _literal(node)) is not None:
            return rust_literal(float(lit), "f32")
        ok, value = self.const_value(node)
        if ok and isinstance(value, int) and not isinstance(value, bool):   # a constant (`NB` of ct.Constant[int]):
            return rust_literal(float(value), "f32")                         # cuTile Python folds it to an f32
        self.need(node, "int-to-float", f"`{self.text(node)}` promoted to float")
        return ("{ let wide: Tile<f32, { [] }> = convert_tile(scalar_to_tile::<i32>(" + code + ")); "
                "tile_to_scalar::<f32, f32>(wide) }")

    def _literal_dead_arms(self) -> set[int]:
        """The nodes of the arms that an `if` (or a conditional expression) on literals alone never takes (`if 0.1 >
        0.15:`, `a * p if 0 == 0 else a + p` of a `ct.static_iter` loop unrolled over a tuple: resolve.py put the
        item in place)."""
        allowed = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.operator, ast.unaryop,
                   ast.cmpop, ast.boolop)
        dead: set[int] = set()
        for n in self.walk():
            if not isinstance(n, (ast.If, ast.IfExp)) or not all(isinstance(m, allowed) for m in walk_nodes(n.test)):
                continue
            ok, taken = self.const_value(n.test)
            if ok:   # (folded as cuTile Python folds it; a test it cannot decide is left to the emitter)
                arm = n.orelse if taken else n.body   # (a conditional expression's arm: one expression)
                dead |= {id(m) for sub in (arm if isinstance(arm, list) else [arm]) for m in walk_nodes(sub)}
        return dead

    def count_fma_candidates(self) -> None:
        """How many additive nodes could become an fma at each source position. cuTile Python reports an fma at
        the position where the whole expression starts, and nested expressions can start at the same position;
        when fewer fmas than candidates sit there, which ones were contracted is ambiguous and is refused."""
        from collections import Counter

        def returns_product(call: ast.AST) -> bool:
            helper = self.helpers.get(call.func.id) if isinstance(call, ast.Call) and \
                isinstance(call.func, ast.Name) else None
            last = helper.body[-1] if helper is not None and helper.body else None
            return isinstance(last, ast.Return) and isinstance(last.value, ast.BinOp) and \
                isinstance(last.value.op, ast.Mult)

        bound_products = {t.id for sub in self.walk() if isinstance(sub, ast.Assign)
                          for t in sub.targets if isinstance(t, ast.Name) and
                          self._syntactic_product(self._folded_ifexp(sub.value))}
        from_helpers = {t.id for sub in self.walk() if isinstance(sub, ast.Assign)
                        for t in sub.targets if isinstance(t, ast.Name) and returns_product(sub.value)}
        bound_products |= from_helpers
        cast_bound = frozenset(bound_products | {t.id for sub in self.walk() if isinstance(sub, ast.Assign)
                                                 for t in sub.targets
                                                 if isinstance(t, ast.Name) and self._cast_product(sub.value)})
        self.fma_candidates = Counter()
        maybe: dict[tuple, list] = {}
        dead = self._literal_dead_arms()
        for n in self.walk():
            if id(n) in dead:   # (an arm cuTile Python folds away holds no fma)
                continue
            operands = None
            if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub)):
                operands = (n.left, n.right)
            elif isinstance(n, ast.Call) and self.ct(n.func) in ("add", "sub") and len(n.args) == 2:
                operands = tuple(n.args)
            if operands and any(self._syntactic_product(o) or (isinstance(o, ast.Name) and o.id in bound_products)
                                for o in operands):
                if self.loc(n) in self.fma_locs:
                    self.fusing_names |= {o.id for o in operands if isinstance(o, ast.Name) and o.id in from_helpers}
                if times := self.inlined_times(n):   # (a helper nothing calls has no copy in the kernel)
                    self.fma_candidates[self.loc(n)] += times
                    self.fma_nodes.setdefault(self.loc(n), set()).add(id(n))
            elif operands and (casts := [o for o in operands if self._cast_product(o, cast_bound)]):
                maybe.setdefault(self.loc(n), []).append((n, casts[0]))
        # `ct.astype(a * f, x.dtype) + acc`: where the conversion is to the product's own dtype cuTile Python emits
        # none and contracts the sum; the reference has an fma there that no plain candidate accounts for
        for loc, sums in maybe.items():
            if self.fma_locs.get(loc, 0) > self.fma_candidates.get(loc, 0) and len(sums) == 1:
                n, cast = sums[0]
                if times := self.inlined_times(n):
                    self.fma_candidates[loc] += times
                    self.fma_nodes.setdefault(loc, set()).add(id(n))
                    self.fma_through_astype.add(id(cast))

    IN_PLACE_PRODUCT = "\x00product:"   # (marks the assignment of a product to a `let mut` in place)

    def block_key(self) -> int:
        """The block being emitted (the kernel's body, a branch or loop body, an inlined helper): a key that no
        later block reuses."""
        return self.block_keys[-1][0] if self.block_keys else 0

    def product_here(self, name: str) -> bool:
        """Whether the name ``name`` bound to a product still holds it, and its factors their values, where it is
        read. A `let mut` assigned the product holds it in the block where it was (a re-assignment drops the
        product) and in the branches nested in it, not after the block (a later iteration, another path); nor in
        a nested helper or a nested loop that assigns the name or a factor (a read there sees the value carried
        from the previous iteration). Other names: unless such a loop assigns a factor."""
        if name not in self.products:
            return False
        if name in self.deferred:
            return True
        keys = [0] + [k for k, _ in self.block_keys]
        home = self.product_block.get(name)
        if home not in keys:
            return name not in self.mutated
        word = re.compile(r"\b\w+\b")
        read = {name} | {w for _, c, _ in self.products[name][0] for w in word.findall(c)}
        return not any((inner == "helper" and name in self.mutated) or (isinstance(inner, set) and inner & read)
                       for _, inner in self.block_keys[keys.index(home):])

    def keep_factors(self, name: str, indent: str) -> None:
        """Before ``name`` is re-bound: a product bound to a name that an fma may still take (`q = p * s` then `p =
        ..` then `q + c`, or `p = p * s` itself then `p - c`) reads ``name``'s value from before, as cuTile Python's
        values do. That value is kept under a name of its own (`let p_0 = p;`, no op in Tile IR; dropped when no
        fma reads it). Where ``name`` is a `let mut` assigned in place, the copy is in scope in this block only:
        a product bound in an enclosing block is not fused after this (the sum stays a sum)."""
        if name not in self.env:
            return
        word = re.compile(rf"\b{re.escape(name)}\b")
        readers = [k for k, (factors, _) in self.products.items() if any(word.search(c) for _, c, _ in factors)]
        if name in self.mutated:
            for k in list(readers):
                if k not in self.deferred and self.product_block.get(k) != self.block_key():
                    self.products.pop(k)
                    readers.remove(k)
                elif k in self.deferred:
                    readers.remove(k)   # (deferred_product checked that nothing re-binds its factors)
        if not readers:
            return
        kept = self.fresh(f"{name}_before")
        self.body.append(f"{indent}let {kept}: {self.env[name][1].rust()} = {name};")
        self.kept_values.add(kept)
        for k in readers:
            factors, fp = self.products[k]
            self.products[k] = ([(n, word.sub(kept, c), t) for n, c, t in factors], fp)

    def drop_folded_products(self) -> None:
        """A name bound to a product that every reader fused into an fma (`ms = a * b; ms + c`) is never read in
        the Rust: its binding becomes a comment instead of an unused variable; so does a product assigned in place
        to a `let mut` of its block that nothing later in the block reads (`row = row * w; acc += row` in a loop
        body: the fma read the factors)."""
        mark = re.compile(re.escape(self.IN_PLACE_PRODUCT) + r"(\w+)")
        for i, entry in enumerate(self.body):
            if self.IN_PLACE_PRODUCT not in entry:
                continue
            names, line = mark.findall(entry), mark.sub("", entry)
            self.body[i] = line   # (an entry that is the assignment alone, not one an inlined helper's block holds)
            if len(names) == 1 and entry.endswith(self.IN_PLACE_PRODUCT + names[0]) and \
                    re.match(rf"\s*{names[0]} = ", line) and not _read_in_block(names[0], self.body[i + 1:]):
                name, indent = names[0], line[:len(line) - len(line.lstrip())]
                self.body[i] = (f"{indent}// `{name}` (a product) is fused into the fma that reads it, as cuTile "
                                "Python contracts it")
        for i, line in enumerate(self.body):
            m = re.match(r"\s*let (?:mut )?(\w+): ", line)
            if m and m.group(1) in self.products and not any(
                    re.search(rf"\b{m.group(1)}\b", later) for later in self.body[i + 1:]):
                end = next(j for j in range(i, len(self.body)) if self.body[j].rstrip().endswith(";"))
                indent = line[:len(line) - len(line.lstrip())]
                self.body[i:end + 1] = [f"{indent}// `{m.group(1)}` (a product) is fused into the fma that reads it, "
                                        "as cuTile Python contracts it"] + [""] * (end - i)
            elif m and m.group(1) in self.kept_values and not any(
                    re.search(rf"\b{m.group(1)}\b", later) for later in self.body[i + 1:]):
                self.body[i] = ""   # (a value kept for an fma that did not take it: see keep_factors)
        self.body = [ln for ln in self.body if ln != ""]

    def inlined_times(self, node: ast.AST, seen: frozenset = frozenset()) -> int:
        """How many copies of ``node`` the translated kernel has: 1 in the kernel, and for a node of a helper, the
        number of times the helper is inlined (the reference IR counts each copy at the helper's source line)."""
        if self._kernel_nodes is None:
            self._kernel_nodes = {id(n) for n in walk_nodes(self.fn)}
        if id(node) in self._kernel_nodes:
            return 1   # (a statement the kernel holds, even one spliced in from a helper's lines)
        if self._helper_nodes is None:   # (by identity: a helper's specialized copies span its lines too)
            self._helper_nodes = {id(n): h for h in self.helpers.values() for n in walk_nodes(h)}
        home = self.origin.get(id(node), (self.file,))[0]
        owner = self._helper_nodes.get(id(node)) or \
            next((h for h in self.helpers.values() if self.origin.get(id(h), (self.file,))[0] == home
                  and h.lineno <= node.lineno <= h.end_lineno), None)
        if owner is None or owner.name in seen:
            return 1  # (a recursive helper is refused when it is inlined)
        called_as = {k for k, h in self.helpers.items() if h is owner}   # (`Acts_silu` for `Acts.silu`, aliases)
        return sum(self.inlined_times(c, seen | {owner.name}) for c in self.walk()
                   if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in called_as)

    def _folded_ifexp(self, node: ast.AST) -> ast.AST:
        """The arm taken of a conditional expression on constants the translator folds (a bool, float or string
        test, not one written on the const generics: `t * k if mode == "lin" else ct.exp2(t)` of a helper's string
        mode), else ``node`` itself."""
        while isinstance(node, ast.IfExp) and self._constant_test(node.test) and \
                not self._generic_condition(node.test) and (c := self.const_value(node.test))[0]:
            node = node.body if c[1] else node.orelse
        return node

    def _syntactic_product(self, node: ast.AST) -> bool:
        """`a * b` or `ct.mul(a, b)`, other than of two constants (`c * d` of a kernel's constants: cuTile Python
        computes it when it compiles, a constant no fma takes)."""
        return ((isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)) or
                (isinstance(node, ast.Call) and self.ct(node.func) == "mul")) and not self._constant_product(node)

    def _constant_product(self, node: ast.AST) -> bool:
        """``node``, a product, is of constants (the kernel's names bound once to constants counted before they are
        bound; not a name some helper binds too: there it may be another value)."""
        if self._constants_before is None:
            helper_names = {n.id for h in self.helpers.values() for n in walk_nodes(h) if isinstance(n, ast.Name)
                            and not isinstance(n.ctx, ast.Load)} | \
                {a.arg for h in self.helpers.values() for a in walk_nodes(h) if isinstance(a, ast.arg)}
            self._constants_before = {k: v for k, v in self._constant_names().items() if k not in helper_names}
        with self._knowing({**self._constants_before, **self.const_locals}):
            return self.const_value(node)[0]

    def _cast_product(self, node: ast.AST, names: frozenset = frozenset()) -> bool:
        """`ct.astype(a * b, D)` without options (or of one of ``names``, bound to such a value or a product: `u =
        ct.astype(t * s, dt)`, then `ct.astype(u, ct.float32)`): a product the reference may have contracted through
        (a no-op conversion)."""
        return isinstance(node, ast.Call) and self.ct(node.func) == "astype" and len(node.args) == 2 and \
            not node.keywords and (self._syntactic_product(node.args[0]) or
                                   (isinstance(node.args[0], ast.Name) and node.args[0].id in names))

    def deferred_product(self, st: ast.stmt, rest: list[ast.stmt], indent: str) -> bool:
        """`x = x * y` whose value only the later `x = x + c` of the same block reads, where cuTile Python fuses the
        two into an fma (it works on values, not names): the product is not assigned; its factors are kept (see
        _factors) and the sum becomes `x = fma(x, y, c)`. True when ``st`` was handled so."""
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and
                (st.targets[0].id in self.mutated or st.targets[0].id in self.env) and
                isinstance(st.value, ast.BinOp) and isinstance(st.value.op, ast.Mult)):
            return False   # (a `let mut` assigned in place, or a name a `let` shadows: `p = p * (1 - lr * wd)`)
        name = st.targets[0].id
        touching = [r for r in rest if any(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(r))]
        nxt = touching[0] if touching else None
        if not (isinstance(nxt, ast.Assign) and len(nxt.targets) == 1 and isinstance(nxt.targets[0], ast.Name) and
                nxt.targets[0].id == name and isinstance(nxt.value, ast.BinOp) and
                isinstance(nxt.value.op, (ast.Add, ast.Sub)) and self.loc(nxt.value) in self.fma_locs and
                sum(1 for n in walk_nodes(nxt.value) if isinstance(n, ast.Name) and n.id == name) == 1 and
                any(isinstance(o, ast.Name) and o.id == name for o in (nxt.value.left, nxt.value.right))):
            return False
        between = rest[:rest.index(nxt)]
        read = {n.id for n in walk_nodes(st.value) if isinstance(n, ast.Name)}
        if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in read
               for b in between for n in walk_nodes(b)):
            return False   # (the factors must still hold their values where the fma reads them)
        first = name not in self.env   # `qk = ct.mma(..) * scale` first bound in a loop body, then `qk = qk + bias`
        self.need(st, "fma", "a product fused into a later sum")
        factors = [(n,) + self.expr(n) for n in (st.value.left, st.value.right)]
        if not all(isinstance(t, (Tile, Scalar)) for _, _, t in factors):
            return False
        for k, (n, code, t) in enumerate(factors):
            if first and isinstance(t, Tile) and not (code.isidentifier() or _literal(n) is not None):
                # a computed factor (an mma) is computed here, where cuTile Python computes it, not at the fma
                tmp = self.fresh(f"{name}_factor")
                self.body.append(f"{indent}let {tmp}: {t.rust()} = {code};")
                factors[k] = (n, tmp, t)
        self.products[name] = (factors, self.DEFAULT_FP)
        self.deferred.add(name)
        self.body.append(f"{indent}// `{self.text(st)}`: fused into the fma of line {nxt.lineno}, as cuTile Python "
                         "contracts it")
        return True

    def _is_product(self, node: ast.AST) -> bool:
        if id(node) in self.fma_through_astype:   # (a no-op conversion of a product the reference contracted)
            return True
        return (isinstance(node, ast.Name) and self.product_here(node.id)) or self._syntactic_product(node)

    def _factors(self, node: ast.AST) -> tuple[list, tuple[str, str]] | None:
        """([(node, code, type)] of the two factors, (rounding, ftz) of the product) when ``node`` is a product:
        `a * b`, `ct.mul(a, b, ...)`, or a name bound to one; `ct.astype(a * b, D)` where the reference contracted
        through it (count_fma_candidates: the conversion is to the product's own dtype, so none is emitted)."""
        if id(node) in self.fma_through_astype:
            found = self._factors(node.args[0])
            if found is not None and (dts := {t.dtype for _, _, t in found[0] if isinstance(t, (Tile, Scalar))}) \
                    and self.dtype_of(node.args[1]) not in dts:
                raise self.refuse(node, "fma", f"`{self.text(node)}`: the reference contracts a sum through this "
                                               "conversion, which is not to the product's dtype here")
            return found
        if isinstance(node, ast.Name) and self.product_here(node.id):
            if node.id in self.deferred:   # (its one reader: consumed here)
                self.deferred.discard(node.id)
            return self.products[node.id]
        if not self._syntactic_product(node):
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            pair = (node.left, node.right)
            return [(n,) + c for n, c in zip(pair, self.ordered_exprs(pair))], self.DEFAULT_FP
        if isinstance(node, ast.Call) and self.ct(node.func) == "mul" and len(node.args) == 2:
            options = self.math_options(node, True, True)
            return [(n,) + c for n, c in zip(node.args, self.ordered_exprs(node.args))], options
        return None

    def ambiguous_fma(self, node: ast.AST) -> Unsupported:
        loc = self.loc(node)
        return self.refuse(node, "fma", f"{self.fma_locs[loc]} fma(s) in the reference IR at {loc[-2]}:{loc[-1] + 1} "
                                        f"for {self.fma_candidates.get(loc, 0)} candidate sums starting there: which "
                                        "were contracted is ambiguous (split the expression over lines)")

    def check_flow_fmas(self) -> None:
        """The positions whose fmas the values' flow decided (try_fma): as many contracted as the reference has."""
        for loc, (node, fused) in self.fma_flow.items():
            if fused != self.fma_locs[loc]:
                raise self.ambiguous_fma(node)

    def try_fma(self, node: ast.AST, subtract: bool, left: ast.AST, right: ast.AST) -> tuple[str, Ty] | None:
        """Where the reference IR has an ``fma`` at this node's source position, emit one: `a*b + c` and `c + a*b`
        → fma(a, b, c); `a*b - c` → fma(a, b, -c); `c - a*b` → fma(-a, b, c) (what cuTile Python emits). The fma
        keeps the product's rounding and flush-to-zero (`ct.mul(.., rounding_mode=..)` then `+`)."""
        loc = self.loc(node)
        if loc not in self.fma_locs:
            return None
        # one sum inlined several times (a helper called in arms some variant does not take) contracts alike in
        # every copy: only distinct sums starting at one position make the count ambiguous
        if self.fma_locs[loc] != self.fma_candidates.get(loc, 0) and len(self.fma_nodes.get(loc, ())) != 1:
            if any(self._syntactic_product(o) or id(o) in self.fma_through_astype for o in (left, right)):
                raise self.ambiguous_fma(node)
            # copies of one sum whose operand is a name (`t = t + v` unrolled once per static_iter item): a copy
            # contracts where the name then holds a product, as the values flow; the count is checked once every
            # copy is emitted (check_flow_fmas)
            seen = self.fma_flow.setdefault(loc, [node, 0])
            if not any(isinstance(o, ast.Name) and self.product_here(o.id) for o in (left, right)):
                return None
            seen[1] += 1
        fused, negate, options = None, None, self.DEFAULT_FP
        for mul, other, which in ((left, right, 2), (right, left, 0)):
            first = None
            if which == 0 and self._is_product(mul) and any(
                    isinstance(n, ast.Call) and self.ct(n.func) in ("load", "gather") for n in walk_nodes(other)):
                # `c + a * b` where c reads memory: Python evaluates c first, and its reads are ordered effects
                first = (other,) + self.expr(other)
            found = self._factors(mul)
            if found is not None:
                factors, options = found
                mark = len(self.body)
                fused = factors + [first or (other,) + self.expr(other)]
                if first is None:   # (the sum's other operand, translated after the product's: see ordered_exprs)
                    bound = self.bind_inline_reads([c for _, *c in factors] + [tuple(fused[-1][1:])],
                                                   [mark] * len(factors) + [len(self.body)])
                    fused = [(n,) + tuple(c) for (n, *_), c in zip(fused, bound)]
                negate = which if subtract else None
                break
        if fused is None:
            return None  # the fma at this position belongs to an enclosing expression that starts here too
        self.need(node, "fma", "fused multiply-add")
        if all(isinstance(t, Scalar) for _, _, t in fused):   # scalars (`a * b + 1.0` of float arguments): the
            # fma of the 0-d tiles they are in cuTile Python
            if {t.dtype for _, _, t in fused} == {"i32", "f32"}:   # Python promotes the int (a signed itof)
                fused = [(n, self.int_as_float(c, n), Scalar("f32")) if t.dtype == "i32" else (n, c, t)
                         for n, c, t in fused]
            dt = {t.dtype for _, _, t in fused}
            if len(dt) != 1 or not next(iter(dt)).startswith(("f", "bf")):
                raise self.refuse(node, "fma", f"`{self.text(node)}`: an fma of scalars of other than one float type")
            elem = RUST_DTYPES[next(iter(dt))]
            args = [f"scalar_to_tile::<{elem}>({rust_literal(float(_literal(n)), t.dtype) if _literal(n) is not None else c})"
                    for n, c, t in fused]
            if negate is not None:
                args[negate] = f"negf({args[negate]})"
            fused_tile = self.fresh("fused")
            self.body.append(f"let {fused_tile}: Tile<{elem}, {{ [] }}> = fma({', '.join(args)}, {options[0]}, "
                             f"{options[1]});")
            return f"tile_to_scalar::<{elem}, {elem}>({fused_tile})", Scalar(next(iter(dt)))
        # (the types of the three factors with their own nodes: zipped with the sum's two operands, a literal's
        # type was read as a typed scalar's, `(t * 0.5) + t` of an f16 t computed in f32)
        like = self.result_tile(node, *(t for _, _, t in fused), nodes=[n for n, _, _ in fused])
        args = [self.operand_as_tile(code, t, like, n) for n, code, t in fused]
        if negate is not None:
            args[negate] = f"negf({args[negate]})"
        return f"fma({', '.join(args)}, {options[0]}, {options[1]})", like

    @functools.cached_property
    def source_names(self) -> set[str]:
        """Every name the kernel and its helpers use."""
        return {n.id for n in self.walk() if isinstance(n, ast.Name)} | \
            {a.arg for n in self.walk() if isinstance(n, ast.arguments) for a in n.args}

    def hoist_constant(self, node: ast.BinOp, code: str, ty: Scalar) -> str:
        """A constant integer expression (`H * SEQ_LEN`) read inside a larger one, bound to a typed `let` first.
        cutile folds an operation whose operands it knows exactly into a constant of the type the enclosing
        expression expects, and fails when that is a tile (`broadcast_scalar(b * (H * SEQ_LEN), ..)`: "expected a
        scalar element type"); bound on its own, it folds to the same constant cuTile Python's does."""
        words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", self.text(node))
        base = "_".join(w.lower() for w in words)[:40].strip("_") if words else "folded"
        if base in self.source_names or base in self.env or base in CUTILE_FUNCTIONS:   # (never the name of one of
            # the kernel's own values, nor of a cutile function the Rust calls after it: `x + (4 - 1)`'s `constant`)
            base += "_value"
        name = self.fresh(base)
        self.body.append(f"// `{self.text(node)}` is a constant: bound first, so that cutile folds it as an {ty.dtype}")
        self.body.append(f"let {name}: {ty.rust()} = {code};")
        return name

    def floordiv(self, node: ast.BinOp) -> tuple[str, Ty]:
        """`a // b` and `a % b` of two i32 scalars with Python's floor semantics, as cuTile Python lowers them on the
        0-d tiles: one signed divi rounding toward negative infinity; remi, then + b where the remainder is non-zero
        and its sign differs from b's."""
        self.need(node, "int-floordiv", "integer // or %")
        ok, value = self.const_value(node)
        if ok and type(value) is int and not any(isinstance(n, ast.Name) for n in walk_nodes(node)) and \
                -2 ** 31 <= value < 2 ** 31:   # of literals only (`2891336453 % 2147483647`, a hash constant):
            return f"{value}i32", Scalar("i32")   # the value, as cuTile Python folds it
        (lc, lt), (rc, rt) = self.expr(node.left), self.expr(node.right)
        if not any(isinstance(t, Tile) and t.shape for t in (lt, rt)):   # a 0-d tile (a gathered index) is the
            (lc, lt), (rc, rt) = self._as_scalar(lc, lt), self._as_scalar(rc, rt)   # scalar it holds
        if (isinstance(lt, Tile) or isinstance(rt, Tile)) and {getattr(lt, "dtype", None),
                                                                getattr(rt, "dtype", None)} <= {"i32", "i64"}:
            return self.floordiv_tile(node, lc, lt, rc, rt)
        if (tile := next((t for t in (lt, rt) if isinstance(t, Tile)), None)) is not None and \
                tile.dtype in INTEGER_DTYPES and all(
                    t.dtype == tile.dtype or (type(self.const_value(n)[1]) is int and self.const_value(n)[0])
                    for t, n in ((lt, node.left), (rt, node.right))):
            # an unsigned or narrow integer tile and one of its dtype or a Python int constant (`h % NBITS` of a
            # uint32 hash: cuTile Python types the constant as the tile, as operand_as_tile writes it): the same
            # divi / remi recipe in that dtype, whose signedness cutile takes from the element type as cuTile
            # Python's does (an unsigned remainder's sign tests are false, and emitted all the same)
            return self.floordiv_tile(node, lc, lt, rc, rt)
        dtypes = {getattr(lt, "dtype", None), getattr(rt, "dtype", None)}
        if (isinstance(lt, Tile) or isinstance(rt, Tile)) and ((dtypes <= {"f32", "i32"} and "f32" in dtypes) or (
                "f64" in dtypes and all(t.dtype == "f64" or self.const_value(n)[0]   # (an f64 tile and a constant)
                                        for t, n in ((lt, node.left), (rt, node.right))))):
            if isinstance(node.op, ast.Mod):
                return self.float_mod_tile(node, lc, lt, rc, rt)
            # `t // c` of f32 tiles: the division, then floor, as cuTile Python lowers it
            self.need(node, "float-mod", f"`{self.text(node)}`")
            like = self.result_tile(node, lt, rt)
            a = self.operand_as_tile(lc, lt, like, node.left)
            b = self.operand_as_tile(rc, rt, like, node.right)
            return self.typed(f"floor({_paren(a)} / {_paren(b)})", like, None, "floored")
        if not (isinstance(lt, Scalar) and isinstance(rt, Scalar) and {lt.dtype, rt.dtype} <= {"i32", "i64"}):
            raise self.refuse(node, "int-floordiv", f"`{self.text(node)}` of {_describe(lt)} and {_describe(rt)} "
                                                    "(i32 or i64 scalars are translated)")
        it = "i64" if "i64" in (lt.dtype, rt.dtype) else "i32"
        if it == "i64":   # an i64 scalar (an int64 slot's `.item()`) over an i32 one: Python widens the i32
            lc, rc = self.widen_i64_sides(node, [(lc, lt, node.left), (rc, rt, node.right)])
            lt = Scalar("i64")
        a, b = (f"scalar_to_tile::<{it}>({c}{it if _literal(n) is not None and it == 'i32' else ''})"
                for c, n in ((lc, node.left), (rc, node.right)))
        # every intermediate typed (cutile infers no 0-d result type inside an index or call argument)
        if isinstance(node.op, ast.FloorDiv):
            q = self.fresh("quotient")
            return (f"{{ let {q}: Tile<{it}, {{ [] }}> = divi({a}, {b}, rounding::NegativeInf);\n"
                    f"tile_to_scalar::<{it}, {it}>({q}) }}"), lt
        r, d, zero = self.fresh("rem"), self.fresh("divisor"), f"scalar_to_tile::<{it}>(0{it})"
        bind_b = ""
        if not (rc.isidentifier() or _literal(node.right) is not None) and not self._constant_test(node.right):
            # a computed runtime divisor: bound as a scalar first (cutile types the 0-d tile of an expression badly)
            bind_b = f"let {d}_value: {it} = {rc};\n"
            b = f"scalar_to_tile::<{it}>({d}_value)"
        lit = _literal(node.right)
        # a literal divisor's sign is known: cuTile Python folds `b < 0` to a constant
        const = node.right.id if isinstance(node.right, ast.Name) and self._constant_test(node.right) else None
        if lit is None and const is None and isinstance(known := self.const_value(node.right)[1], int):
            lit = known   # a constant expression's sign is known too (its operation folds to a constant in both)
        negative = f"scalar_to_tile::<bool>({str(lit < 0).lower()})" if lit is not None else \
            f"scalar_to_tile::<bool>({const} < 0)" if const is not None else f"lt_tile({d}, {zero})"
        if negative.startswith("lt_tile(") and rc in self.int_literal_lets:
            # a name bound to a literal that cuTile Python does not fold (a static extent, `H = x.shape[1]` at
            # calling convention 2: `cmpi less_than %c1, %c0`): the divisor as a constant tile — cutile 0.3.1 fails
            # on the compare of `scalar_to_tile(H)` with zero ("expected a scalar element type")
            b = constant_tile(self.int_literal_lets[rc], "")
        fix, up, mod = self.fresh("fix"), self.fresh("shifted"), self.fresh("modulo")
        signs = ""
        if negative.startswith("lt_tile("):   # a runtime divisor: cutile types these 0-d compares only when bound
            rneg, dneg, nz = self.fresh("rem_negative"), self.fresh("divisor_negative"), self.fresh("nonzero")
            signs = (f"let {rneg}: Tile<bool, {{ [] }}> = lt_tile({r}, {zero});\n"
                     f"let {dneg}: Tile<bool, {{ [] }}> = {negative};\n"
                     f"let {nz}: Tile<bool, {{ [] }}> = ne_tile({r}, {zero});\n")
            fix_expr = f"({rneg} ^ {dneg}) & {nz}"
        else:
            fix_expr = f"(lt_tile({r}, {zero}) ^ {negative}) & ne_tile({r}, {zero})"
        return ("{ // Python's %: the remainder takes the divisor's sign\n"
                f"{bind_b}let {d}: Tile<{it}, {{ [] }}> = {b};\n"
                f"let {r}: Tile<{it}, {{ [] }}> = remi({a}, {d});\n"
                f"{signs}let {fix}: Tile<bool, {{ [] }}> = {fix_expr};\n"
                f"let {up}: Tile<{it}, {{ [] }}> = {r} + {d};\n"
                f"let {mod}: Tile<{it}, {{ [] }}> = select({fix}, {up}, {r});\n"
                f"tile_to_scalar::<{it}, {it}>({mod})\n}}"), lt

    def floordiv_tile(self, node: ast.BinOp, lc: str, lt: Ty, rc: str, rt: Ty) -> tuple[str, Tile]:
        """`a // b` and `a % b` on i32 or i64 tiles (a scalar operand broadcast; an i32 one with an i64 tile widened,
        as Python promotes it), as cuTile Python lowers them: a signed divi rounding toward negative infinity; remi,
        then + b where the remainder is non-zero and its sign differs from b's (on tiles the divisor's sign test
        stays, even for a constant divisor)."""
        like = self.result_tile(node, lt, rt)
        a = self.operand_as_tile(lc, lt, like, node.left)
        b = self.operand_as_tile(rc, rt, like, node.right)
        if isinstance(node.op, ast.FloorDiv):
            return self.typed(f"divi({a}, {b}, rounding::NegativeInf)", like, None, "quotient")
        return self._python_mod(a, b, like, "remi", f"0{like.dtype}", lambda r, z: f"ne_tile({r}, {z})"), like

    def _python_mod(self, a: str, b: str, like: Tile, rem: str, zero: str, nonzero) -> str:
        """Python's `a % b` of tiles (the remainder takes the divisor's sign): ``rem`` (remi/remf), then + b where
        the remainder is ``nonzero(r, z)`` and its sign differs from b's. Beside a kernel constant named `S` (a
        convolution's filter width) the block's value is a typed `let`: an untyped `select(..)` there is typed from
        select's own `Tile<E, S>`, whose `S` cutile 0.3.1 resolves in the kernel's generic scope, and irgen panicked
        ("Unexpected const arg S for variadic type") where the block is an operand (`(d % S) - S`); other kernels'
        Rust is as before."""
        dims = ", ".join(like.shape)
        ty = f"Tile<{like.dtype}, {{ [{dims}] }}>"
        d, r, z, fix, up = (self.fresh(n) for n in ("divisor", "rem", "zero", "fix", "shifted"))
        value = f"select({fix}, {up}, {r})"
        if SELECT_SHAPE_GENERIC in self.constants:
            m = self.fresh("modulo")
            value = f"let {m}: {ty} = {value};\n{m}"
        return (f"{{ // Python's %: the remainder takes the divisor's sign\n"
                f"let {d}: {ty} = {b};\n"
                f"let {r}: {ty} = {rem}({a}, {d});\n"
                f"let {z}: {ty} = constant({zero}, shape![{dims}]);\n"
                f"let {fix}: Tile<bool, {{ [{dims}] }}> = (lt_tile({r}, {z}) ^ lt_tile({d}, {z})) & "
                f"{nonzero(r, z)};\n"
                f"let {up}: {ty} = {r} + {d};\n"
                f"{value}\n}}")

    def float_mod_tile(self, node: ast.BinOp, lc: str, lt: Ty, rc: str, rt: Ty) -> tuple[str, Tile]:
        """`t % c` of f32 (or f64) tiles (an angle wrapped to [0, 2*pi)), as cuTile Python lowers Python's float %:
        remf, then + b where the remainder is non-zero (an unordered compare: NaN counts) and its sign differs from
        b's."""
        self.need(node, "float-mod", f"`{self.text(node)}`")
        like = self.result_tile(node, lt, rt)
        a = self.operand_as_tile(lc, lt, like, node.left)
        b = self.operand_as_tile(rc, rt, like, node.right)
        return self._python_mod(a, b, like, "remf", f"0.0{like.dtype}",
                                lambda r, z: f"cmpf({r}, {z}, predicate::NotEqual, cmp_ordering::Unordered)"), like

    def int_constant_scalar_op(self, node: ast.AST, construct: str, sides, form,
                               result: str | None) -> tuple[str, Scalar] | None:
        """A scalar of an integer type other than i32 / i64 (`on != 0` of an i8 `.item()`, `seed * GOLDEN` of a
        uint32 `astype`) meeting a Python int constant: cuTile Python types the constant as the other operand (a
        loosely typed constant), so the op is the other's type's, on 0-d tiles; the constant written as
        operand_as_tile writes a tile's (an unsigned one with its top bit set as its bits). ``form(a, b)`` writes
        the op of the 0-d tiles, ``result`` its element type (None: the operands'). None when this is not such a
        pair."""
        (ac, at, an), (bc, bt, bn) = sides
        if at.dtype == bt.dtype:
            return None
        consts = [self.const_value(n) for n in (an, bn)]
        kinds = [ok and type(v) is int for ok, v in consts]
        if kinds[0] == kinds[1]:
            return None
        (vc, vt, vn), (kc, kt, kn) = (sides[1], sides[0]) if kinds[0] else (sides[0], sides[1])
        if vt.dtype not in INTEGER_DTYPES or vt.dtype in ("i32", "i64"):   # (those take a Python int as they are)
            return None
        self.need(node, construct, f"`{self.text(node)}`: a constant typed as the {vt.dtype} operand")
        zero_d = Tile(vt.dtype, ())
        rust = RUST_DTYPES[vt.dtype]
        value = f"scalar_to_tile::<{rust}>({vc})"
        const = self.operand_as_tile(kc, kt, zero_d, kn)
        if not const.isidentifier():   # (cutile types a 0-d `broadcast_scalar` only from its binding)
            const = self.typed(const, zero_d, None, f"{vt.dtype}_value")[0]
        a, b = (const, value) if kinds[0] else (value, const)
        dtype = result or vt.dtype
        out = RUST_DTYPES[dtype]
        tile = self.typed(form(a, b), Tile(dtype, ()), None, "compared" if result == "bool" else "computed")[0]
        return f"tile_to_scalar::<{out}, {out}>({tile})", Scalar(dtype)

    def widen_i64_sides(self, node: ast.AST, sides) -> list[str]:
        """An i32 and an i64 scalar meeting in arithmetic or a comparison: Python widens the i32 (row
        arith-promote), a signed exti of the 0-d tile; a literal is written as an i64 one."""
        self.need(node, "arith-promote", f"`{self.text(node)}`: i32 and i64 scalars")
        out = []
        for c, t, n in sides:
            if _literal(n) is not None:
                c = rust_literal(int(_literal(n)), "i64")
            elif t.dtype == "i32":
                c = ("{ let wide: Tile<i64, { [] }> = exti(scalar_to_tile::<i32>(" + c + ")); "
                     "tile_to_scalar::<i64, i64>(wide) }")
            out.append(c)
        return out

    def binop(self, node: ast.BinOp) -> tuple[str, Ty]:
        if isinstance(node.op, (ast.Add, ast.Sub)):
            fused = self.try_fma(node, isinstance(node.op, ast.Sub), node.left, node.right)
            if fused is not None:
                return fused
        constant = self.hoisting is None and node is not self.binding_value and \
            isinstance(self.const_value(node)[1], int) and not isinstance(self.const_value(node)[1], bool)
        if constant:
            self.hoisting = node   # its operands are emitted inside the hoisted binding, not hoisted themselves
        try:
            (lc, lt), (rc, rt) = self.ordered_exprs([node.left, node.right])
        finally:
            if constant:
                self.hoisting = None
        sym = BINOPS[type(node.op)]
        self.last_product = [(node.left, lc, lt), (node.right, rc, rt)] if isinstance(node.op, ast.Mult) else None
        if isinstance(node.op, ast.Div) and getattr(lt, "dtype", None) in INTEGER_DTYPES and \
                getattr(rt, "dtype", None) in INTEGER_DTYPES:   # Python's true division of integers: a float
            ok, value = self.const_value(node)
            if ok and isinstance(value, float) and math.isfinite(value):
                self.need(node, "const-fold", f"`{self.text(node)}`")
                return rust_literal(value, "f32"), Scalar("f32")   # (`D / 2` of constants: folded)
            if lt.dtype != "i32" or rt.dtype != "i32":
                raise self.refuse(node, "arith-tile", f"`{self.text(node)}`: true division of {lt.dtype} and "
                                                      f"{rt.dtype} (of i32 values: converted to f32)")
            self.need(node, "int-true-div", f"`{self.text(node)}`")
            # each operand converted by a signed itof, as cuTile Python converts them, then the f32 division
            lc, rc = (self.typed(f"convert_tile({c})", Tile("f32", t.shape), None, "as_f32")[0]
                      if isinstance(t, Tile) else
                      rust_literal(float(_literal(n)), "f32") if _literal(n) is not None else self.int_as_float(c, n)
                      for c, t, n in ((lc, lt, node.left), (rc, rt, node.right)))
            lt, rt = (Tile("f32", t.shape) if isinstance(t, Tile) else Scalar("f32") for t in (lt, rt))
        if isinstance(lt, Scalar) and isinstance(rt, Scalar):
            ok, value = self.const_value(node)
            typed_const = self.cast_constant(node)
            if not ok and typed_const[0] and typed_const[2] in ("f32", "i32") and \
                    (typed_const[2] == "f32" or -2 ** 31 <= typed_const[1] < 2 ** 31):
                # constants typed by ct.astype (`ct.astype(q, ct.float32) * 0.5` of a constant q): cuTile Python
                # folds the arithmetic to one constant, as it folds Python's
                self.need(node, "const-fold", f"`{self.text(node)}`")
                return rust_literal(typed_const[1], typed_const[2]), Scalar(typed_const[2])
            if ok and isinstance(value, float) and (lt.dtype != rt.dtype or lt.dtype == "f32"):
                # `N * 1.0`, `1.0 - SMOOTHING` of constants: Python folds it (in double precision) to a float
                self.need(node, "const-fold", f"`{self.text(node)}`")
                return rust_literal(value, "f32"), Scalar("f32")
            if lt.dtype != rt.dtype:
                if {lt.dtype, rt.dtype} == {"i32", "f32"} and not isinstance(node.op, (ast.FloorDiv, ast.Mod)):
                    # Python promotes the int to float: a signed itof of the i32, then the f32 operation
                    lc, rc = (self.int_as_float(c, n) if t.dtype == "i32" else
                              (rust_literal(float(_literal(n)), "f32") if _literal(n) is not None else c)
                              for c, t, n in ((lc, lt, node.left), (rc, rt, node.right)))
                    return f"{_paren(lc)} {sym} {_paren(rc)}", Scalar("f32")
                if {lt.dtype, rt.dtype} == {"i32", "i64"}:
                    sides = self.widen_i64_sides(node, ((lc, lt, node.left), (rc, rt, node.right)))
                    return f"{_paren(sides[0])} {sym} {_paren(sides[1])}", Scalar("i64")
                other = rt.dtype if lt.dtype == "bool" else lt.dtype if rt.dtype == "bool" else None
                if other in ("i32", "f32") and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
                    # a flag in arithmetic (`1.0 + (not inside)`): Python counts it as 0 or 1, as cuTile Python
                    # converts the i1 (an unsigned itof / exti, which cutile infers from bool)
                    self.need(node, "arith-promote", f"`{self.text(node)}`: a bool counted as {other}")
                    conv = "convert_tile" if other == "f32" else "exti"
                    lc, rc = (("{ let counted: Tile<" + other + ", { [] }> = " + conv + "(scalar_to_tile::<bool>(" +
                               c + ")); tile_to_scalar::<" + other + ", " + other + ">(counted) }") if t.dtype == "bool"
                              else f"{c}{other}" if _literal(n) is not None else c
                              for c, t, n in ((lc, lt, node.left), (rc, rt, node.right)))
                    return f"{_paren(lc)} {sym} {_paren(rc)}", Scalar(other)
                typed = self.int_constant_scalar_op(node, "arith-scalar-broadcast",
                                                    ((lc, lt, node.left), (rc, rt, node.right)),
                                                    lambda a, b: f"{_paren(a)} {sym} {_paren(b)}", None)
                if typed is not None:
                    return typed
                raise self.refuse(node, "arith-scalar-broadcast", f"{lt.dtype} {sym} {rt.dtype} scalars")
            # a bare literal next to a scalar gets its type spelled out (cutile infers none for `1 - j`)
            lc, rc = (f"{c}{lt.dtype}" if _literal(n) is not None else c for c, n in ((lc, node.left), (rc, node.right)))
            # Python's grouping kept: `(i + 1) * BM` must not become `i + 1 * BM` (irdiff caught exactly that)
            code = f"{_paren(lc)} {sym} {_paren(rc)}"
            if constant and lt.dtype in ("i32", "i64"):
                return self.hoist_constant(node, code, lt), lt
            return code, lt
        like = self.result_tile(node, lt, rt)
        self.need(node, "arith-tile", "tile arithmetic")
        left = self.operand_as_tile(lc, lt, like, node.left)
        right = self.operand_as_tile(rc, rt, like, node.right)
        if like.dtype in ("i16", "u16") and type(node.op) in INT16_ARITH:
            # cutile 0.3.1's operators know no 16-bit integer tile ("Binary operation is not implemented for
            # Tile<u16, ..>"): the Tile IR op itself, as cuTile Python emits it (no overflow flag)
            return f"{INT16_ARITH[type(node.op)]}_wrapping({left}, {right}, overflow::None)", like
        if like.dtype in ("i16", "u16") and type(node.op) in INT16_BITWISE:   # (`~t` too: an xor with all ones)
            return f"{INT16_BITWISE[type(node.op)]}({left}, {right})", like
        return f"{_paren(left)} {sym} {_paren(right)}", like


F32_MAX, F32_OVERFLOW = 3.4028234663852886e38, 3.4028235677973366e38  # largest f32; where rounding reaches inf
#: i32's lowest value: cutile 0.3.1 reads `-2147483648i32` as the negation of 2147483648 (beyond i32, its parse
#: panics), so the port writes it as a difference of two literals it parses — the constant cuTile Python emits, once
#: irdiff folds the subtraction (fold-int-constants)
I32_MIN = "(-2147483647i32 - 1i32)"


#: a line of an `if` the port wrote that is no statement: its head, an `else (if ..)`, a closing brace
_EMPTY_IF_LINE = re.compile(r"(\} else )?if [^;]* \{|\}|\} else \{")

#: numeric categories as cuTile Python ranks them (bool < integer < float), by dtype or Python type name, and the
#: default dtype of a loosely typed constant of each (result_tile)
LOOSE_DEFAULT = {1: "i32", 2: "f32"}


def _dtype_category(d: str) -> int:
    return 0 if d == "bool" else 2 if d in ("float", "f16", "bf16", "f32", "f64", "tf32") else 1


def constant_tile(literal: str, dims: str) -> str:
    """A tile of ``dims`` (its extents, comma-separated) filled with the scalar ``literal``: `constant(..)`, which
    cutile 0.3.1 takes a literal in only ("Unsupported expression for named attribute"), so I32_MIN (a difference
    of two literals) by `broadcast_scalar` — the same constant op once irdiff folds the subtraction."""
    return f"{'broadcast_scalar' if literal == I32_MIN else 'constant'}({literal}, shape![{dims}])"


def _f32(value: float) -> float:
    """``value`` rounded to the nearest f32 (IEEE round-to-nearest-even, overflowing to infinity)."""
    if abs(value) > F32_MAX:
        return math.copysign(F32_MAX if abs(value) < F32_OVERFLOW else math.inf, value)
    return struct.unpack("<f", struct.pack("<f", value))[0]


def rust_literal(value: int | float, dtype: str) -> str:
    """A Rust literal of ``dtype`` with exactly the value cuTile Python bakes in: a Python float rounded to f32 for an
    f32 tile, written as the shortest decimal that Rust parses back to that f32 (Rust rounds decimals directly to
    f32, Python goes through f64 first; the two can differ, the shortest round-tripping form cannot)."""
    if value == -2 ** 31 and not isinstance(value, bool) and dtype in ("i32", "u32"):
        return I32_MIN
    if isinstance(value, int) and not isinstance(value, bool) and not -2 ** 31 < value < 2 ** 31:
        raise WideLiteral(f"the {dtype} constant {value}: outside i32's range, no literal cutile 0.3.1 parses "
                          "(it reads every integer literal as an i32, `-2147483648` as the negation of 2147483648)")
    if isinstance(value, float) and value != value:
        raise WideLiteral(f"the {dtype} constant nan: cutile 0.3.1 has no NaN constant (no literal spells one, and "
                          "its `constant` names only ZERO, ONE, INFINITY, NEG_INFINITY and E)")
    if dtype != "f32" or isinstance(value, int):
        return f"{value!r}{RUST_DTYPES[dtype]}"
    target = _f32(value)
    if math.isinf(target):
        raise TileportError(f"the float constant {value!r} overflows f32")
    text = next(c for c in (f"{target:.{p}g}" for p in range(1, 18)) if _f32(float(c)) == target)
    if "." not in text and "e" not in text and "inf" not in text and "nan" not in text:
        text += ".0"
    return f"{text}f32"


def _top_bit_set(value: int, dtype: str) -> bool:
    """``value`` is an unsigned ``dtype``'s constant with its top bit set (see signed_bits_literal)."""
    width = _UNSIGNED_BITS.get(dtype)
    return bool(width) and 2 ** (width - 1) <= value < 2 ** width


def _is_false(node: ast.AST | None) -> bool:
    """``node`` is the literal False."""
    return isinstance(node, ast.Constant) and node.value is False


def _named_constant(value: int | float, dtype: str) -> str | None:
    """The name cutile's ``constant`` takes for ``value`` of ``dtype`` (16-bit floats have no literal; ±inf are
    named for every float), or None when a literal spells it."""
    if dtype.startswith(("f", "bf")):
        if dtype == "f16" and isinstance(value, float):
            value = _half_value(value, dtype)   # (a value past f16's range is ±inf there)
        if value == float("-inf"):
            return "NEG_INFINITY"
        if value == float("inf"):
            return "INFINITY"
        if dtype in ("f16", "bf16"):
            return {0: "ZERO", 1: "ONE"}.get(value)   # (0.0 and 1.0 compare equal to 0 and 1)
    return None


class _Counts(dict):
    """Assignments per name, and ``straight``: the names re-bound only by plain assignments that are statements of
    one block (`step = 1` then `step = step << 2`): each holds, from one binding to the next, the value bound
    there, with no loop or branch carrying it (so a constant one is folded there, as cuTile Python folds it)."""
    straight: frozenset[str] = frozenset()


def _unread_carried(lines: list[str], result: str, carried: dict) -> list[str]:
    """An inlined helper's lines, where a parameter given a product (see _inline_body) that nothing reads — the
    product was read through its factors — is bound as `_name`: rustc neither warns that the binding is unused nor,
    were it dropped, that the caller's product is never read."""
    for name in carried:
        binding = re.compile(rf"let (mut )?{name}: ")
        at = next((i for i, line in enumerate(lines) if binding.match(line)), None)
        read = re.compile(rf"\b{name}\b")
        if at is not None and not any(read.search(line.split("//", 1)[0]) for line in [*lines[at + 1:], result]):
            lines = [*lines[:at], binding.sub(lambda m: f"let {m.group(1) or ''}_{name}: ", lines[at], count=1),
                     *lines[at + 1:]]
    return lines


def _static_for(st: ast.stmt) -> bool:
    """``st`` is a `for .. in ct.static_iter(..)` loop (unrolled: its body is straight-line code once per item)."""
    return isinstance(st, ast.For) and isinstance(st.iter, ast.Call) and \
        isinstance(st.iter.func, ast.Attribute) and st.iter.func.attr == "static_iter"


def _assign_counts(fn: ast.FunctionDef) -> _Counts:
    """How many times each name is assigned in ``fn`` (a name assigned once from a constant is that constant)."""
    counts = _Counts()
    for node in walk_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
    blocks: dict[str, set[int]] = {}
    plain: dict[str, int] = {}

    def visit(stmts: list[ast.stmt], key: int) -> None:
        for st in stmts:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                name = st.targets[0].id
                blocks.setdefault(name, set()).add(key)
                plain[name] = plain.get(name, 0) + 1
            for part in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(st, part, None)
                if isinstance(block, list):   # (an IfExp's body is an expression)
                    # a ct.static_iter loop's body is written out in place, once per item: its block's code
                    visit(block, key if part == "body" and _static_for(st) else id(block))

    visit(fn.body, id(fn.body))
    counts.straight = frozenset(n for n, c in counts.items()
                                if c > 1 and plain.get(n) == c and len(blocks.get(n, ())) == 1)
    return counts


def _half_value(value: float, dtype: str) -> float:
    """``value`` rounded to ``dtype`` (f16: round to nearest even from the double; bf16: to f32, then to nearest
    even in bf16), as the 16-bit constant cuTile Python writes."""
    if dtype == "f16":
        try:
            return struct.unpack("<e", struct.pack("<e", value))[0]
        except OverflowError:   # past f16's range: rounds to ±inf
            return math.copysign(math.inf, value)
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


#: an arm's statement re-assigning an outer `let mut` (no `let`): `name = ..;`
_OUTER_ASSIGN = re.compile(r"\s*([A-Za-z_]\w*) = ")
#: an arm's own binding: `let name` / `let mut name`
_LET = re.compile(r"\s*let (?:mut )?([A-Za-z_]\w*)\b")


def _float_constant(value: float, dtype: str, dims: str) -> str:
    """A float constant tile. A named value (±inf; 0 and 1 in 16 bits) is `constant(E::NAME, ..)`; cutile 0.3.1 has no
    16-bit literal and writes some bf16 names wrongly (BROKEN_NAMED), so any other 16-bit value is its 16-bit value
    (exact in f32) written as an f32 constant and converted (irdiff rule constant-conversion); an f32/f64 value
    otherwise is a literal."""
    elem = RUST_DTYPES[dtype]
    named = _named_constant(value, dtype)
    if named is not None and (dtype, named) not in BROKEN_NAMED:
        return f"constant({elem}::{named}, shape![{dims}])"
    if dtype.startswith("f8"):   # cutile 0.3.1 compiles no 8-bit float constant: an f32 one converted, where
        # the format holds the value exactly (+0, 1.5, 448, ..: irdiff's constant-conversion)
        if not fp8_holds(value, dtype) or (value == 0 and math.copysign(1.0, value) < 0):
            raise TileportError(FP8_CONSTANT_LIMIT.format(dtype=dtype, value=value))
        return f"{{ let wide: Tile<f32, {{ [{dims}] }}> = constant({rust_literal(value, 'f32')}, shape![{dims}]); " \
            "convert_tile(wide) }"
    if dtype not in ("f16", "bf16"):
        return f"constant({rust_literal(value, dtype)}, shape![{dims}])"
    wide = _half_value(value, dtype)
    lit = "f32::NEG_INFINITY" if wide == float("-inf") else "f32::INFINITY" if wide == float("inf") else \
        rust_literal(wide, "f32")
    return f"{{ let wide: Tile<f32, {{ [{dims}] }}> = constant({lit}, shape![{dims}]); convert_tile(wide) }}"


#: named constants cutile 0.3.1 writes wrongly (irdiff found: bf16 NEG_INFINITY comes out as 0xFFF0, a NaN, where
#: cuTile Python writes 0xFF80, and ONE as 1.875; docs/toolchain.md has the repro)
BROKEN_NAMED = {("bf16", "NEG_INFINITY"), ("bf16", "INFINITY"), ("bf16", "ONE")}


#: a combine function's op by how it is spelled: Python's operator, cuda.tile's function, operator's function
_COMBINE_OPS = {ast.Add: "add", ast.Mult: "mul", "add": "add", "mul": "mul", "maximum": "maximum",
                "minimum": "minimum"}


def _combine_kind(func: ast.AST, ct_name: Callable[[ast.AST], str | None]) -> str | None:
    """Which of add / mul / maximum / minimum ``func`` is — `lambda a, b: a + b`, `lambda a, b: ct.maximum(a, b)`,
    `ct.maximum`, `operator.add` — or None. Its arguments in their order only: cuTile Python's reduction body
    computes `b + a` as written, which is not the built-in one's."""
    if isinstance(func, ast.Lambda) and len(func.args.args) == 2 and not func.args.defaults:
        params = [p.arg for p in func.args.args]
        body = func.body
        if isinstance(body, ast.BinOp) and [_name_of(body.left), _name_of(body.right)] == params:
            return _COMBINE_OPS.get(type(body.op))
        if isinstance(body, ast.Call) and not body.keywords and [_name_of(x) for x in body.args] == params:
            return _COMBINE_OPS.get(ct_name(body.func) or "")
        return None
    op = getattr(func, "tileport_operator", None)
    if op is not None:
        return _COMBINE_OPS.get(op)
    return _COMBINE_OPS.get(ct_name(func) or "")


def _name_of(node: ast.AST) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _matmul_shapes(x: tuple[str, ...], y: tuple[str, ...]) -> \
        tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """cuda.tile's _matmul_broadcast_shape over extents spelled as the translator spells them: the shapes the
    operands take (a 1-d `x` as `(1, K)`, a 1-d `y` as `(K, 1)`, batches broadcast together), the accumulator's,
    and the product's (a 1-d operand's axis dropped); None when they do not fit."""
    if not x or not y:
        return None
    xs = ("1", *x) if len(x) == 1 else x
    ys = (*y, "1") if len(y) == 1 else y
    if xs[-1] != ys[-2]:
        return None
    bx, by = xs[:-2], ys[:-2]
    rank = max(len(bx), len(by))
    batch = _broadcast_shapes([("1",) * (rank - len(bx)) + bx, ("1",) * (rank - len(by)) + by]) if rank else ()
    if batch is None:
        return None
    acc = (*batch, xs[-2], ys[-1])
    out = acc[:-2] + acc[-1:] if len(x) == 1 else acc
    out = out[:-1] if len(y) == 1 else out
    return (*batch, *xs[-2:]), (*batch, *ys[-2:]), acc, out


def _broadcast_shapes(shapes: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    """The shape tiles of ``shapes`` (one rank) broadcast to, as numpy does; None when they do not."""
    if len({len(s) for s in shapes}) != 1:
        return None
    out = []
    for dims in zip(*shapes):
        big = {d for d in dims if d != "1"}
        if len(big) > 1:
            return None
        out.append(big.pop() if big else "1")
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _source_lines(src: str) -> list[bytes]:
    """``src`` split into lines as ast.get_source_segment splits it (\\r\\n, \\n or \\r), UTF-8 encoded."""
    return [line.encode() for line in re.split(r"(?<=\r\n)|(?<=\n)|(?<=\r)(?!\n)", src) if line]


def _source_segment(src: str, node: ast.AST) -> str | None:
    """ast.get_source_segment, without splitting the whole source again on every call (the translator asks for
    a node's text often: comments, refusals, names)."""
    try:
        lineno, end_lineno = node.lineno - 1, node.end_lineno - 1
        col, end_col = node.col_offset, node.end_col_offset
    except AttributeError:
        return None
    if end_lineno is None or end_col is None:
        return None
    lines = _source_lines(src)
    if end_lineno >= len(lines):
        return None
    if lineno == end_lineno:
        return lines[lineno][col:end_col].decode()
    first, last = lines[lineno][col:].decode(), lines[end_lineno][:end_col].decode()
    return "".join([first, *(ln.decode() for ln in lines[lineno + 1:end_lineno]), last])


def _literal(node: ast.AST) -> int | float | None:
    """The value of a numeric literal, negative ones (`-1.0e30`, a unary minus in the AST) included."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    return None


def _describe(ty: Ty) -> str:
    return ty.rust() if isinstance(ty, Tile) else getattr(ty, "dtype", "array")


def _comparison_in_logic(code: str) -> bool:
    """Whether a top-level `&`/`|` in ``code`` joins a broadcast comparison on its right (`.. &
    lt_tile(c, s).broadcast(shape![..])`) or a comparison and an operand that is none (`lt_tile(c, s) & keep`)."""
    parts, depth, cur = [], 0, ""
    for ch in code:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and ch in "&|":
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    comparison = r"\s*\(?\s*(?:lt|le|gt|ge|eq|ne)_tile\(.*\)\s*\)?\s*"
    broadcast = r"\s*(?:lt|le|gt|ge|eq|ne)_tile\(.*\)\.broadcast\(shape!\[.*\]\)\s*"
    found = [re.fullmatch(comparison, p, re.S) is not None for p in parts]
    return len(parts) > 1 and (any(re.fullmatch(broadcast, p, re.S) for p in parts[1:]) or
                               (any(found) and not all(found)))


def _typed_int(code: str) -> str:
    """A bare negative integer literal typed as i32 (`-1i32`): cutile 0.3.1 infers no type for the negation of an
    untyped literal where nothing else types it (`for dy in (-1)..2`: "Failed to infer type for unary op expr")."""
    bare = code.strip("()")
    return f"{bare}i32" if re.fullmatch(r"-\d+", bare) else code


def _paren(code: str) -> str:
    return code if re.fullmatch(r"[\w.\[\]()!, :&]+", code) and not any(op in code for op in (" + ", " - ", " & ")) \
        else f"({code})"


#: the dtypes cuTile Python promotes to each other, narrow to wide (f16 and bf16 do not mix)
PROMOTION = (("f16", "f32", "f64"), ("bf16", "f32", "f64"), ("i8", "i16", "i32", "i64"))
FLOATS = frozenset({"f16", "bf16", "f32", "f64"})


def _does_nothing(st: ast.stmt) -> bool:
    """A statement with no effect and no value: `pass`, a docstring, an `if` of such arms whose test calls nothing."""
    if isinstance(st, ast.Pass) or (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)):
        return True
    return isinstance(st, ast.If) and not any(isinstance(n, ast.Call) for n in walk_nodes(st.test)) and \
        all(_does_nothing(s) for s in (*st.body, *st.orelse))


def promote(dtypes: set[str]) -> str | None:
    """The dtype operands of ``dtypes`` are computed in (the widest of one promotion chain), or None. Signed
    integers next to floats take the floats' dtype, as cuTile Python promotes them (the stronger category wins:
    an i32 count dividing an f32 sum is converted to f32 first)."""
    floats = {d for d in dtypes if d in FLOATS}
    if floats and dtypes - floats and dtypes - floats <= {"i8", "i16", "i32", "i64"}:
        return promote(floats)
    for chain in PROMOTION:
        if dtypes <= set(chain):
            return max(dtypes, key=chain.index)
    return None


def _operand_nodes(node: ast.AST) -> list[ast.AST | None]:
    """The operand nodes of an element-wise expression, in the order its operand types are passed around."""
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "where":
        return list(node.args[1:])   # (ct.where(c, x, y): the values' types are passed, not the condition's)
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute) and node.func.attr == "where" and len(node.args) == 3:
            return list(node.args[1:])   # (the condition is no operand of the value's type)
        return list(node.args)
    return []


#: Rust's keywords (strict and reserved, 2021 edition): a Python local of one of these names is renamed `name_`
RUST_KEYWORDS = frozenset(
    "as break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref "
    "return self Self static struct super trait true type unsafe use where while async await dyn abstract become "
    "box do final macro override priv typeof unsized virtual yield try gen union".split())


#: names cutile 0.3.1's `#[cutile::entry]` launcher binds or reads next to the kernel's parameters, which it binds
#: as locals of the same names (cutile-macro `kernel_launcher_generator.rs`: an array's checks bind `pred`, ..;
#: the launch reads `ctx`, binds `function`, `validator`, .., after them): a parameter of one of these names is
#: renamed (a scalar `ctx: i32` shadowed the launcher's `ctx: &ExecutionContext`: "expected `&ExecutionContext`")
LAUNCHER_LOCALS = frozenset(
    "pred valid_shape given_shape given_dtype valid_shape_mixed tensor_validator ctx function validator "
    "function_generics stride_args spec_args scalar_hints param_shapes view_shapes launch_grid kernel_launch "
    "const_grid compile_options".split())


#: cutile 0.3.1's free functions (`pub fn` at the top of `cutile::core`, `_core.rs`), which the generated Rust calls
#: by their bare names: a `let` of one of these names hides the function for the rest of its scope (a local `exp`
#: or `constant` made every later `exp(..)` / `constant(..)` "error[E0618]: expected function, found `Tile`")
CUTILE_FUNCTIONS = frozenset("""
absf absi addf addi addptr addptr_tile andi assume_bounds assume_bounds_lower assume_bounds_upper assume_div_by
assume_div_by_every_along assume_same_elements_1d assume_same_elements_2d assume_same_elements_3d
assume_same_elements_4d atan2 atomic_cas_tko atomic_rmw_tko bitcast broadcast broadcast_ptr broadcast_scalar
cast_const cast_mut cast_tile_const cast_tile_mut cat ceil ceil_div check_bounded_partition_access
check_bounded_partition_access3 check_bounded_partition_access_mut check_bounded_partition_access_mut3
check_partition_access check_partition_access_mut cmpf cmpi constant convert_scalar convert_tile coord
coord2_as_array coord3_as_array cos cosh dim_from_i32 dim_new dim_value divf divi eq_tile exp exp2 exti extract
floor fma ftof ftoi ge_tile get_global get_index_space_shape get_num_tile_blocks get_partition_token
get_partition_token_mut get_shape_dim get_tensor_base get_tensor_shape get_tensor_shape_meta get_tensor_token
get_tile_block_id gt_tile int_to_ptr iota itof join_tokens le_tile load_ptr_tko load_tensor load_tile
load_tile_like load_tile_mut load_view_tko load_view_tko_bounded load_view_tko_mut log log2 lt_tile
make_mapped_partition_view make_nested_partition_view_mut make_partition_view make_partition_view_mut
make_tensor_view max max_tile maxf maxi min min_tile minf mini mma mmaf mmaf_scaled mmai mulf mulhii muli ne_tile
negf negi new_token_unordered noti num_programs num_tiles ori pack partition_index_coords partition_with_bounds
partition_with_bounds3 partition_with_bounds_mut partition_with_bounds_mut3 permute permute_array pointer_to_tile
pow print_tko program_id ptr_to_int ptr_to_ptr reduce reduce_max reduce_min reduce_prod reduce_sum remf remi
reshape reshape_ptr rsqrt scalar_to_tile scan scan_sum select set_nested_mutable_partition_access_offset
set_tensor_token shli shri sin sinh sqrt store_ptr_tko store_tile store_view_tko_bounded store_view_tko_mapped_mut
store_view_tko_mut subf subi swizzle_partition_index_2d tan tanh tile_to_pointer tile_to_scalar true_div trunci
unpack validate_partition_store xori
""".split())


def rust_entry_name(name: str) -> str:
    """The Rust name of a kernel's entry: its Python name, with `_` added where that is a Rust keyword (a kernel
    `def where(..)`, `def match(..)`: rustfmt rejected `pub fn match`) or a cutile function the generated Rust may
    call (a kernel `def exp(..)` calling `ct.exp`: its `exp(..)` called the entry, E0277)."""
    return f"{name}_" if name in RUST_KEYWORDS or name in CUTILE_FUNCTIONS else name


def _escape_rust_keywords(fn: ast.FunctionDef, keep: set[str]) -> None:
    """Locals (and helper parameters) named like a Rust keyword (`do`, `type`, `ref`, ...) or bound under the name
    of a cutile function the generated Rust calls (`exp = ct.exp(x)`, `constant = ..`) renamed `do_` / `exp_` in
    the kernel's AST, so the generated Rust can bind them; the kernel's own parameters keep their names, and a name
    the function never binds (Python's `max(a, b)`, a helper called `exp`) is not a local."""
    bound = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} | \
        {n.arg for n in walk_nodes(fn) if isinstance(n, ast.arg)}
    renamed = (RUST_KEYWORDS | (CUTILE_FUNCTIONS & bound)) - keep
    if "_" in bound and any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Load)
                            for n in walk_nodes(fn)):
        # `_` read as a value (`_, h = ct.bid(0), ..` then `ct.load(x, (_, h), ..)`): Rust's `_` is a pattern
        # that binds nothing, never an expression ("`_` can only be used on the left-hand side of an
        # assignment"); a `_` only written (`for _ in range(n)`) stays the pattern it is in Rust too
        renamed |= {"_"}
    names = {n.id for n in walk_nodes(fn) if isinstance(n, ast.Name)} | \
        {n.arg for n in walk_nodes(fn) if isinstance(n, ast.arg)}
    fresh = {}
    for name in sorted(renamed & names):
        new = f"{name}_"
        while new in names or new in fresh.values():   # (`_` beside a `__` of the kernel's own: `___`)
            new += "_"
        fresh[name] = new
    for node in walk_nodes(fn):
        if isinstance(node, ast.Name) and node.id in fresh:
            node.id = fresh[node.id]
        elif isinstance(node, ast.arg) and node.arg in fresh:
            node.arg = fresh[node.arg]


#: a `let mut` of a value type (tiles, scalars, tokens: moved or copied, never borrowed mutably by a method)
#: a binding of a value (pure when the statement has no memory effect: see _tidy_bindings)
_LET_VALUE = re.compile(r"\s*let (?:mut )?(\w+): (?:Tile<[^=]*>|i32|i64|f32|bool) = ")
_EFFECT = re.compile(r"\b(?:unsafe|load\w*|store\w*|atomic\w*)\b")
_LET_MUT = re.compile(r"(\s*)let mut (\w+): (?:Tile<|Token\b|(?:i8|i16|i32|i64|u8|u16|u32|u64|f16|bf16|f32|f64|bool)\b)")


def _read_in_block(name: str, rest: list[str]) -> bool:
    """Whether Rust lines ``rest`` read ``name`` before the block they start in ends (comments aside)."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    lines = [ln.split("//", 1)[0] for entry in rest for ln in entry.split("\n")]
    return any(word.search(line) for line in _until_block_end(lines))


def _tidy_bindings(body: list[str]) -> list[str]:
    """What rustc would warn about, tidied: a one-line binding of a pure value that nothing reads before the name
    is bound again is dropped (its readers were folded away, e.g. in an untaken arm; dead in the IR either way),
    and ``let mut x`` where nothing in x's scope assigns x again becomes ``let x`` (a name is mutable for the whole
    kernel when some path re-assigns it, see find_mutated, but a binding in a loop or arm that nothing of its scope
    re-assigns would draw the unused-mut warning)."""
    out = [line for entry in body for line in entry.split("\n")]   # (an inlined helper is one multi-line entry)
    out = _drop_dead_tokens(out)
    dropped = True
    while dropped:   # (until none is left: a binding read only by a dropped one, `c` of `let c_d = c * d`)
        dropped = False
        for i, line in enumerate(out):   # an unused pure value (its readers were folded away): not emitted
            u = _LET_VALUE.match(line)   # (not a `_name`: a binding kept unread on purpose)
            end = _statement_end(out, i) if u and not u.group(1).startswith("_") else None
            if end is not None and not _EFFECT.search("\n".join(out[i:end + 1])) and \
                    not _read_before_rebound(u.group(1), out, i, end):
                out[i:end + 1] = [""] * (end + 1 - i)
                dropped = True
        out = [line for line in out if line != ""]
    for i, line in enumerate(out):
        m = _LET_MUT.match(line)
        if m is None:
            continue
        name = m.group(2)
        reassign = re.compile(rf"(?<![\w.]){name}\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|&mut {name}\b")
        if not any(reassign.search(later.split("//", 1)[0]) for later in _scope_after(out, i)):   # (not comments)
            out[i] = line.replace("let mut ", "let ", 1)
    return out


_TOKEN_SET = re.compile(r"\s*(zz_\w+) = (?:join_tokens\(&\[[\w, ()&]*\]\)|get_partition_token(?:_mut)?\(&\w+\)|"
                        r"zz_\w+|\w+_atomic_\w+_done);$")   # (an atomic's result token: a pure value too)
_TOKEN_LET = re.compile(r"\s*let mut (zz_\w+): Token = get_tensor_token\(&?\w+\);$")
_LOOP_HEAD = re.compile(r"\s*(?:for |while |loop\b)")
_JUMP = re.compile(r"\b(?:continue|break|return)\b")


def _drop_dead_tokens(out: list[str]) -> list[str]:
    """The token bookkeeping of arrays updated in place (ordered_in_place) assigns its `let mut` tokens at every
    access; an assignment nothing reads afterwards (the kernel's last accesses) would draw rustc's unused-assignment
    warning: it is dropped (a pure value: dead in the IR either way), and so is a token nothing reads at all."""
    while True:
        code = [line.split("//", 1)[0] for line in out]
        stacks, stack = [], []   # the lines opening the blocks each line is in
        for k, line in enumerate(code):
            stacks.append(tuple(stack))
            for ch in line:
                if ch == "{":
                    stack.append(k)
                elif ch == "}" and stack:
                    stack.pop()
        ends = {}   # block-opening line → the line closing it
        for k in range(len(code)):
            for h in stacks[k]:
                ends[h] = k
        dead = [i for i, line in enumerate(code) if (m := _TOKEN_SET.match(line) or _TOKEN_LET.match(line)) and
                not _token_live_after(m.group(1), code, i + 1, stacks[i], stacks, ends, i)]
        if dead:
            i = dead[0]
            m = _TOKEN_LET.match(code[i])
            if m is not None:   # a declaration re-assigned before any read: that assignment declares it instead
                again = re.compile(rf"(\s*){m.group(1)} = ")
                k = next((k for k in range(i + 1, len(code)) if stacks[k] == stacks[i] and again.match(code[k])),
                         None)
                if k is not None and _token_live_after(m.group(1), code, k + 1, stacks[k], stacks, ends, k):
                    # (a re-assignment nothing reads is dropped in its turn, as any dead token)
                    out[k] = again.sub(rf"\g<1>let mut {m.group(1)}: Token = ", out[k], count=1)
            del out[i]
            continue
        if not _shadow_in_arm(out, code, stacks, ends):
            break
    for i, line in enumerate(code):   # a token no assignment of its own scope re-assigns: not `mut`
        m = re.match(r"\s*let mut (zz_\w+): Token = ", line)
        if m is None:
            continue
        name, inner = m.group(1), stacks[i]
        shadows = [k for k in range(i + 1, len(code)) if re.match(rf"\s*let (?:mut )?{name}\b", code[k])]
        if not any(re.match(rf"\s*{name} =[^=]", code[k]) and stacks[k][:len(inner)] == inner and
                   not any(j < k and stacks[k][:len(stacks[j])] == stacks[j] for j in shadows)
                   for k in range(i + 1, len(code))):
            out[i] = out[i].replace("let mut ", "let ", 1)
    return out


def _shadow_in_arm(out: list[str], code: list[str], stacks: list[tuple], ends: dict[int, int]) -> bool:
    """A token assigned in an arm of an `if` whose value nothing reads after the `if` becomes a binding of the arm's
    own (shadowing it there), so that the `if` yields no token cuTile Python's does not: its first assignment in the
    arm, or a copy at the arm's start when that is deeper (in a loop of the arm). Whether one was made."""
    for i, line in enumerate(code):
        m = _TOKEN_SET.match(line)
        if m is None:
            continue
        name = m.group(1)
        for arm in reversed(stacks[i]):
            if not re.match(r"\s*(?:if |} else)", code[arm]) or \
                    any(re.search(rf"let (?:mut )?{name}\b", code[k]) for k in range(arm + 1, i)):
                continue   # (not an arm, or shadowed in this arm already)
            end = ends.get(arm, len(code) - 1)
            while re.match(r"\s*} else", code[end]) and end in ends:
                end = ends[end]
            if _token_live_after(name, code, end + 1, stacks[arm], stacks, ends, None):
                continue
            if arm == stacks[i][-1] and not any(re.search(rf"\b{name}\b", code[k]) for k in range(arm + 1, i)):
                out[i] = out[i].replace(f"{name} = ", f"let mut {name}: Token = ", 1)
            else:
                indent = re.match(r"\s*", out[arm + 1]).group(0)
                out[arm + 1:arm + 1] = [f"{indent}// {name} in this arm: nothing reads it after the `if`",
                                        f"{indent}let mut {name}: Token = {name};"]
            return True
    return False


def _token_live_after(name: str, code: list[str], start: int, stack: tuple, stacks: list[tuple],
                      ends: dict[int, int], i: int | None) -> bool:
    """Whether the value of ``name`` assigned on line ``i`` (or left by the statement ending before line ``start``,
    in the blocks ``stack``) may be read: by a line from ``start`` on before an assignment that surely runs after it
    (in its block or an enclosing one, no jump between), or anywhere in a loop around it (the next iteration)."""
    word = re.compile(rf"\b{name}\b")

    def reads(line: str) -> bool:
        m = _TOKEN_SET.match(line)
        if m is not None and m.group(1) == name:
            return bool(word.search(line.split("=", 1)[1]))
        return bool(word.search(line))

    def head(h: int) -> int:   # the line a block's statement starts on (`for t in 0i32..({ ..\n.. }) {`: the
        while stacks[h] and ends.get(stacks[h][-1]) == h:   # `for`, whose bound's block closes where it opens)
            h = stacks[h][-1]
        return h

    for h in stack:
        if _LOOP_HEAD.match(code[head(h)]) and any(reads(code[k]) for k in range(h, ends.get(h, len(code) - 1) + 1)
                                                   if k != i):
            return True
    jumped = False
    for k in range(start, len(code)):
        if any(h not in stack and re.match(r"\s*} else", code[h]) and stacks[h] and stacks[h][-1] in stack
               for h in stacks[k]):
            continue   # (another arm of an `if` the value was assigned in: not reached from there)
        if reads(code[k]):
            return True
        m = _TOKEN_SET.match(code[k])
        if m is not None and m.group(1) == name and not jumped and stacks[k] == stack[:len(stacks[k])]:
            return False
        jumped = jumped or bool(_JUMP.search(code[k]))
    return False


def _statement_end(body: list[str], i: int) -> int | None:
    """The line on which the statement starting on line ``i`` ends (its braces closed and a `;`)."""
    depth = 0
    for k in range(i, len(body)):
        depth += body[k].count("{") - body[k].count("}")
        if depth == 0 and body[k].rstrip().endswith(";"):
            return k
        if depth < 0:
            return None
    return None


def _read_before_rebound(name: str, body: list[str], i: int, end: int) -> bool:
    """Whether the binding of ``name`` on lines ``i``..``end`` is read in its scope before a `let` of the same
    block binds the name again (shadowing it for the rest of the block)."""
    read, rebind, depth = re.compile(rf"\b{name}\b"), re.compile(rf"\s*let (?:mut )?{name}\b"), 0
    scope = _scope_after(body, i)[end - i:]
    for k, later in enumerate(line.split("//", 1)[0] for line in scope):   # (a comment reads nothing)
        if depth == 0 and rebind.match(later):   # read by the new binding's own value?
            stop = _statement_end(scope, k)
            value = "\n".join(scope[k:(stop if stop is not None else len(scope) - 1) + 1]).split("=", 1)
            return len(value) < 2 or bool(read.search(value[1]))
        if read.search(later):
            return True
        depth += later.count("{") - later.count("}")
    return False


def _scope_after(body: list[str], i: int) -> list[str]:
    """The text of the block that line ``i`` is in, after line i, up to the brace that closes the block."""
    return _until_block_end(body[i + 1:], body[i].count("{") - body[i].count("}"))   # (`let x = {` opens a block)


_BRACE = re.compile(r"[{}]")


def _until_block_end(lines: list[str], depth: int = 0) -> list[str]:
    """``lines`` up to the brace that closes the block they are in (``depth`` blocks opened before them), the
    closing line cut before that brace."""
    for n, later in enumerate(lines):
        for brace in _BRACE.finditer(later):   # (the braces alone: this runs once per binding the tidy-up looks at)
            depth += 1 if brace.group() == "{" else -1
            if depth < 0:
                return [*lines[:n], later[:brace.start()]]
    return list(lines)


def _scatter_counts(fn: ast.FunctionDef, unrolled: dict[int, int] | None = None) -> dict[str, int]:
    """Array name → how many ``ct.scatter`` and ``ct.gather`` calls ``fn``'s body makes into or from it, for the
    arrays it scatters into (each takes the token of the scatter before it); ``unrolled``: id(call) → its copies."""
    calls = [node for node in walk_nodes(fn) if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr in ("scatter", "gather") and node.args and isinstance(node.args[0], ast.Name)]
    scattered = {c.args[0].id for c in calls if c.func.attr == "scatter"}
    counts: dict[str, int] = {}
    for c in calls:
        if c.args[0].id in scattered:
            counts[c.args[0].id] = counts.get(c.args[0].id, 0) + (unrolled or {}).get(id(c), 1)
    return counts


def singleton_stride_div(dtype: str) -> int:
    """The divisor cuTile Python (1.7, `_lower_tensor_view_extents`) assumes of a tensor view's stride along an
    axis of static extent 1: 16 bytes in elements (f32: 4, bf16: 8), 1 where an element does not divide 16 bytes.
    The stride is never multiplied by an index other than 0 there, so the fact holds whatever the launch passes."""
    return max(1, 16 // ELEMENT_BYTES[dtype])


def _tuple_item(node: ast.expr) -> ast.expr | None:
    """``(a, b)[k]``, ``((a, b), c)[0][1]``: the element a chain of literal indices picks from a tuple written out
    of names and constants (nested tuples of them too); None for anything else."""
    if isinstance(node, ast.Tuple):
        return node if all(isinstance(e, (ast.Name, ast.Constant)) or
                           (isinstance(e, ast.Tuple) and _tuple_item(e) is e) for e in node.elts) else None
    if not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load):
        return None
    outer = _tuple_item(node.value)
    k = _literal(node.slice)
    if not isinstance(outer, ast.Tuple) or not isinstance(k, int) or isinstance(k, bool) or \
            not -len(outer.elts) <= k < len(outer.elts):
        return None
    return outer.elts[k]


def _unpacks(target: ast.expr, value: ast.expr) -> bool:
    """``target`` (names, tuples of them) unpacks ``value`` element by element: each tuple of the target stands
    where the value has a tuple written out of its width."""
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and \
        len(target.elts) == len(value.elts) and all(_unpacks(t, v) for t, v in zip(target.elts, value.elts))


def emit_kernel(file: Path, kernel_name: str, sig: sigmod.Signature, constant_names: set[str],
                fma_locs: dict[tuple, int], pyfunc=None, owned_stores: bool = True,
                object_hints: dict | None = None) -> Emitted:
    """``pyfunc``: the kernel's Python function; with it, names are resolved against its module first
    (translate/resolve.py) and helpers are found through them, decorated or not. ``owned_stores``: outputs stored
    only at the block's own tile are `&mut Tensor` with `partition_mut` (else `&Tensor`, `partition_full_mut`).
    ``object_hints``: the kernel object's hints (the spec's ``hints``), the entry's where no ``@ct.kernel``
    decorator states them (a kernel made by ``ct.kernel(occupancy=2)(fn)``)."""
    src = file.read_text()
    tree = ast.parse(src, filename=str(file))
    fn = kernel_def(tree, kernel_name, pyfunc.__code__.co_firstlineno if pyfunc is not None else None)
    if pyfunc is not None:
        try:
            fn, found = resolve(fn, pyfunc, {n: p.value for n, p in sig.params if isinstance(p, sigmod.ConstSig)})
        except ResolveError as exc:
            raise Unsupported(str(file), exc.node, exc.construct, exc.detail) from exc
    else:
        found = kernel_helpers(file, tree, fn)
    # (the kernel's parameters keep their names, and so do the helpers it calls: a helper is inlined by its resolved
    # name, `fn(t)` of a factory's `fn` closing over `_silu`, which is no Rust name)
    keep = {name for name, _ in sig.params} | set(found)
    for f in (fn, *(h.fn for h in found.values())):
        _escape_rust_keywords(f, keep)
        fold_static_eval(f, sig)
    fold_array_aliases(fn, sig)   # (the kernel's own: a helper's parameters are its arrays already)
    em = Emitter(str(file), src, fn, sig, constant_names, fma_locs)
    em.object_hints = object_hints or {}
    em.helpers = {name: h.fn for name, h in found.items()}
    for h in found.values():
        if h.file != file.resolve():
            em.origin.update((id(n), (str(h.file), h.src)) for n in walk_nodes(h.fn))
    em.slices = find_slices(em)
    em.list_items = find_list_items(em)
    em.classify_arrays()
    em.ordered_in_place()
    em.find_mutated()
    em.count_fma_candidates()
    em.read_names = em.live_names()
    emit_prologue(em)
    em.stmts(fn.body, "")
    em.check_flow_fmas()
    # (see _int_conversion, the 16-bit shifts and arithmetic)
    for op in ("trunci_wrapping", "shli_wrapping", "addi_wrapping", "subi_wrapping", "muli_wrapping"):
        if any(f"{op}(" in line for line in em.body):
            em.declared_ops.setdefault(op, set())
    if owned_stores:
        _resolve_owned_stores(em)
    em.drop_folded_products()
    generics, params, layout, strides, specs, abi = [], [], [], {}, {}, []
    for name, p in sig.params:
        if isinstance(p, sigmod.ConstSig):
            if isinstance(p.value, int) and not isinstance(p.value, bool) and name not in CUTILE_TYPE_PARAMS:
                generics.append(name)
            continue  # float and bool constants are literals in the body (and `E`: see CUTILE_TYPE_PARAMS)
        if isinstance(p, sigmod.ScalarSig):
            params.append(f"{name}: {RUST_DTYPES[p.dtype]}")
            layout.append("S")
            abi.append({"name": name, "kind": "scalar", "dtype": p.dtype})
            continue
        if isinstance(p, sigmod.ListSig):
            params.extend(list_entry_params(name))
            layout.append("L")
            abi.append({"name": name, "kind": "list", "dtype": p.element.dtype, "rank": p.element.rank,
                        "written": name in em.stored_lists})
            continue
        out = em.outputs.get(name)
        if out is not None and out.shape is None and not out.scheduled:
            out = None   # stored only in an arm this specialization never compiles: read-only here
        static = em.static_axes(name)
        abi.append({"name": name, "kind": "out" if out and not out.scheduled else "in", "dtype": p.dtype,
                    "rank": p.rank, "written": out is not None or name in em.scattered or name in em.reduced or
                    any(s.root == name and s.stored for s in em.slices.values()),
                    **({"tile": list(out.shape)} if out and not out.scheduled else {}),
                    # (calling convention v2: the entry's static extents, axis → extent; what a runtime that compacts
                    # cutile's per-axis spec to the dynamic axes needs, docs/v2_unit_extents.md)
                    **({"static": {str(d): p.shape[d] for d in static}} if static else {})})
        # the entry's static strides (its tensor view's): a static 1 along a static extent 1 is dynamic there, as in
        # cuTile Python 1.7's `_lower_tensor_view_extents` ("a unit stride on a singleton dimension may be chosen as
        # the contiguous dimension and inhibit optimization"), with singleton_stride_div assumed of it; rt::Compact
        # clears its bit at run time. A pointer access (gather, scatter, atomic) multiplies by the launch's 1 all the
        # same, and a launch runs the entry only with that stride 1 (its signature's requirement)
        strides[name] = [-1 if s is None or (d == 1 and s == 1) else s
                         for d, s in zip(p.shape, p.strides or (None,) * p.rank)]
        sdiv = list(p.stride_div or (1,) * p.rank)
        for d in static:
            if p.shape[d] == 1:   # (cuTile Python's tensor view of a static extent 1: see singleton_stride_div)
                sdiv[d] = math.lcm(sdiv[d], singleton_stride_div(p.dtype))
        if any(d != 1 for d in p.shape_div + tuple(sdiv)) or p.base_align != 1 or p.may_alias:
            ones = [1 if s == 1 else 0 for s in strides[name]]
            # cutile 0.3.1 reads stride_div[i] for its i-th *dynamic* stride (kernel_entry_generator.rs), not for
            # dimension i: the divisors of the dynamic strides go first, so a static unit stride that is not the
            # last dimension (a K^T view, strides [?, 1, ?]) does not take the next stride's divisor
            dyn = [d for d in range(len(sdiv)) if strides[name][d] == -1]
            sdiv = [sdiv[d] for d in dyn] + [sdiv[d] for d in range(len(sdiv)) if d not in dyn]
            # likewise shape_div[i] for its i-th *dynamic* extent: a static extent's divisor is dropped (the axes
            # after it would take the wrong facts, a false one where an earlier extent divides by more), 1s after
            hdiv = [p.shape_div[d] for d in range(p.rank) if d not in static] + [1] * len(static)
            specs[name] = (f"{','.join(map(str, hdiv))}/{','.join(map(str, sdiv))}/"
                           f"{','.join(map(str, ones))}/{p.base_align}/{0 if p.may_alias else 1}")
        if out is not None and not out.scheduled:
            params.append(f"{name}: &mut Tensor<{RUST_DTYPES[p.dtype]}, {{ [{', '.join(out.shape)}] }}>")
            layout.append(f"A{p.rank}+{2 * p.rank}")
        else:
            dims = ", ".join("-1" if d is None else str(d) for d in p.shape)   # (static extents: v2)
            params.append(f"{name}: &Tensor<{RUST_DTYPES[p.dtype]}, {{ [{dims}] }}>")
            layout.append(f"A{p.rank}")
    arrays = [name for name, p in sig.params if isinstance(p, sigmod.ArraySig)]
    prologue = []
    for arr, d in em.stride_params:
        st = em.stride_param(arr, d)
        params.append(f"{st}: i32")
        layout.append(f"R{arrays.index(arr)}.{d}")
        abi.append({"name": st, "kind": "stride", "array": arr, "dim": d, "dtype": "i32"})
        p = dict(sig.params)[arr]
        facts = [f"assume_bounds_lower::<_, 0>({st})"]   # the facts cuTile Python states about the stride
        div = (p.stride_div or (1,) * p.rank)[d]
        if div > 1:
            facts.append(f"assume_div_by::<_, {div}>({st})")
        prologue.append(f"// {arr}'s stride along dimension {d}, passed by the launcher (cutile 0.3.1 gives a kernel "
                        "no way to read it).")
        prologue.append(f"// SAFETY: the launcher passes {arr}'s own stride, which is non-negative"
                        f"{f' and a multiple of {div}' if div > 1 else ''} (the facts cuTile Python assumes about "
                        "it at this launch).")
        em.unsafe_site(fn, f"assume on {st} ({arr}'s stride {d})",
                       "cutile states facts about a value only through unsafe assume ops",
                       f"{st} is {arr}.stride({d}) of the launched tensor")
        fact = facts[0] if len(facts) == 1 else facts[1].replace(f"({st})", f"({facts[0]})")
        prologue.append(f"let {st}: i32 = unsafe {{ {fact} }};")
    body = unshadow([line for entry in (prologue + em.body if prologue else em.body) for line in entry.split("\n")],
                    em.fresh, {name: p.dtype if isinstance(p, sigmod.ScalarSig) else "array"
                               for name, p in em.params.items() if not isinstance(p, sigmod.ConstSig)})
    body = _tidy_bindings(body)
    doc = (ast.get_docstring(fn) or "").splitlines()
    renames = []   # (parameter, the pattern of its uses the Rust entry renames `name_`)
    for name in (n for n, p in sig.params if n in LAUNCHER_LOCALS and not isinstance(p, sigmod.ConstSig)):
        # cutile 0.3.1's generated launcher binds these names itself around an array parameter's checks (`let pred
        # = .. .all(..)`, then `pred.shape()`: "no method named `shape` found for type `bool`"): the Rust
        # parameter is renamed (`pred_`); the port's ABI keeps the Python name, the launcher passes by position
        renames.append((name, re.compile(rf"\b{name}\b")))
    for name, p in ((n, p) for n, p in sig.params if n in RUST_KEYWORDS):
        # a parameter named like a Rust keyword (`type`, `ref`, `mod`, `where`: rustfmt rejected `type: f32`) is
        # renamed `type_` where it is used, as above; one the generated Rust also writes as a keyword (`loop`, `let`,
        # `mut`, `unsafe`, `const`, `fn`, `pub`: a textual rename would hit those) or a ct.Constant (port.json's
        # variants are keyed by the const generic's name) is refused
        if isinstance(p, sigmod.ConstSig) or name in ("let", "mut", "loop", "unsafe", "const", "fn", "pub"):
            raise Unsupported(str(file), fn, "param-constant-int" if isinstance(p, sigmod.ConstSig) else
                              "param-scalar", f"the parameter `{name}` has the name of a Rust keyword"
                              f"{' (a const generic of that name cannot be written)' if isinstance(p, sigmod.ConstSig) else ''}"
                              "; rename the parameter")
        renames.append((name, re.compile(rf"\b{name}\b")))
    for name in (n for n, _ in sig.params if n in CUTILE_FUNCTIONS):
        # a parameter named like a cutile function the body calls (`max: int` beside `ct.maximum`'s `max(..)`,
        # "expected function, found `i32`") is renamed where it is a value, not where it is called (the launcher
        # passes by position); a const generic keeps its name (port.json's variants are keyed by it): refused
        call = re.compile(rf"\b{name}\s*(?:\(|::<)")
        if not any(call.search(line) for line in body):
            continue
        if name in generics:
            raise Unsupported(str(file), fn, "param-constant-int",
                              f"the ct.Constant parameter `{name}` has the name of cutile's `{name}()`, which this "
                              "kernel's Rust calls (a const generic of that name hides it); rename the parameter")
        renames.append((name, re.compile(rf"\b{name}\b(?!\s*(?:\(|::<))")))
    for name, word in renames:
        rust = f"{name}_"
        params = [word.sub(rust, p) for p in params]
        body = [word.sub(rust, line) for line in body]
        strides = {(rust if k == name else k): v for k, v in strides.items()}
        specs = {(rust if k == name else k): v for k, v in specs.items()}
    return Emitted(kernel_name, generics, params, body, ",".join(layout), doc, strides, sorted(em.unit_grid),
                   em.preconditions, specs, em.unsafe_sites, abi, em.kernel_hints(), carried_tma_tiles(em.fn, em.ct),
                   em.declared_ops, em.compile_options)


def _resolve_owned_stores(em: Emitter) -> None:
    """An output whose every store is at the block's own tile (store_bijective) is `&mut Tensor<E, {tile}>` and
    stored through `partition_mut`; one stored anywhere else keeps the full tensor's `partition_full_mut` for all
    of its stores."""
    for out in em.outputs.values():
        if not any(out.owned) or em.static_axes(out.name):   # (cutile's `&mut Tensor` view has no static extent)
            continue
        stores = list(filter(None, out.owned))
        at = [next((k for k in range(len(em.body)) if em.body[k:k + len(full)] == full), None)
              for _, full, _, _ in stores]
        if (out.general and out.name not in em.ordered_stores) or None in out.owned or len(stores) != out.done or \
                None in at:
            continue
        for k, pre in sorted(em.owned_ordered.get(out.name, ((), ()))[1]):   # (store-ordered: its literal 0s)
            em.unit_grid.add(k)
            if pre not in em.preconditions:
                em.preconditions.append(pre)
        for k, (owned, full, site_owned, sites_full) in sorted(zip(at, stores), key=lambda x: -x[0]):
            em.body[k:k + len(full)] = owned
            i = next((i for i, u in enumerate(em.unsafe_sites) if sites_full and u is sites_full[0]), None)
            em.unsafe_sites[:] = [u for u in em.unsafe_sites if not any(u is v for v in sites_full)]
            if site_owned is not None:
                em.unsafe_sites.insert(len(em.unsafe_sites) if i is None else i, site_owned)
        out.scheduled = False


def _breaks(body: list[ast.stmt]) -> bool:
    """A `break` of this loop in ``body`` (not of a loop nested in it)."""
    def walk(stmts: list[ast.stmt]) -> bool:
        for st in stmts:
            if isinstance(st, ast.Break):
                return True
            if isinstance(st, ast.If) and (walk(st.body) or walk(st.orelse)):
                return True
        return False
    return walk(body)


def _join_chain(first: str, reads: list[str]) -> str:
    """The reads' tokens joined one by one onto ``first``, as cuTile Python's token order joins each load's token
    into the array's running token when the load happens: `join(join(first, r1), r2)`."""
    out = first
    for r in reads:
        out = f"join_tokens(&[{out}, {r}])"
    return out


def _int_bits(dtype: str) -> int | None:
    """The width of an integer dtype (``i32`` → 32, ``u8`` → 8); None for floats and bool."""
    return int(dtype[1:]) if dtype[:1] in ("i", "u") and dtype[1:].isdigit() else None


def _int_conversion(src: str, dst: str, code: str) -> str | None:
    """An integer-to-integer ct.astype as cuTile Python emits it (cutile's `convert_tile` does not take integer
    pairs): wider by extension (signed or unsigned as the source is: `exti`), narrower by truncation (`trunci`;
    cutile 0.3.1 cannot serialize its wrapping form, `overflow::None`: such a port builds, its IR does not),
    the same width a `bitcast`. None when either side is not an integer."""
    a, b = (1 if src == "bool" else _int_bits(src)), _int_bits(dst)
    if a is None or b is None:   # (a bool is one unsigned bit: `mask.astype(ct.int32)` is an unsigned exti)
        return None
    if b > a:
        return f"exti({code})"
    if b < a:   # (wrapping, as cuTile Python's: the port's declared op, see rustgen.declared_ops)
        return f"trunci_wrapping({code}, overflow::None)"
    return f"bitcast({code})"


def _walk_outside_loops(node: ast.AST):
    """``walk_nodes(node)`` (in its order) but for what lies inside a ``for`` / ``while`` (its target, test and
    body)."""
    todo = [node]
    while todo:
        node = todo.pop(0)
        if isinstance(node, (ast.For, ast.While)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))
