"""Launch arguments as both frontends' captures see them: the facts of an array (dtype, shape, element strides,
data pointer), the signature cuda-tile 1.7's launch derives from them, and the description of one argument.

The cuTile Python capture (``frontends.cutile_py.capture``) and the Triton capture (``frontends.triton.capture``)
both read arguments through this module; neither imports the other for it.

The derived signature reproduces what cuda-tile 1.7's launch specializes on, as measured on an H200 with torch
tensors (docs/gpu.md, benchmarks/results/h200/verification/launch_signatures.json):

* unit-stride dimensions get a constant stride of 1; other strides are dynamic and non-negative, divisible by
  16 bytes / element size when they are a multiple of it;
* an extent that is a multiple of 16 is marked divisible by 16; an extent of 1 is static (calling convention
  v2, which the launch uses once any array has such an axis), or, for a parameter annotated
  ``ct.ArrayAnnotation(static_shape_dims=..)``, the annotated extents at their values and no others;
* a 16-byte aligned data pointer is marked so; a zero stride marks the array as internally aliasing;
* Python ints are i32 (values outside int32 are rejected, as launch rejects them), floats f32, bools bool;
* what cuda-tile 1.7's launch itself refuses raises :class:`LaunchRejected` (a ``TypeError``, as the launch raises
  one), read from its own argument check (``get_parameter_constraints_from_pyargs``, whose type checks run before
  anything needs a driver): a numpy scalar (``np.float32(0.5)``: "Objects of type 'numpy.float32' are not
  supported"; ``np.float64`` is a Python float, f32), ``None``, a string, a dtype or an enum as an argument, and a
  constant that is not a Python bool, int or float (``torch.float16``, ``"relu"``, ``None``: "Could not interpret
  object of type 'torch.dtype' as a constant");
* a Python list of arrays is a list parameter: one element signature holding for every item (a fact only where every
  item has it; dtype, rank and unit strides must agree, as launch requires), its items marked as possibly aliasing
  each other when two of them share memory. (Read from cuda-tile 1.7's launcher messages; not yet checked against a
  GPU launch's mangled name.)

Arrays are read by duck typing: torch-style objects (``data_ptr()``, ``stride()``, ``dtype``) through those
methods, ``__cuda_array_interface__`` / ``__array_interface__`` dicts, and numpy-style objects (``strides`` in
bytes, ``ctypes.data``), so any framework cuda-tile accepts works, on any device. Torch's own
``__cuda_array_interface__`` is not enough on a GPU host: it raises for tensors that require grad and for fp8
dtypes, and describes bf16 as ``<V2`` (two opaque bytes), so a tensor is read through its methods whenever it has
them.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ..errors import TileportError
from ..spec.signature import ArraySig, ConstSig, ListSig, ScalarSig

ALIGN_BYTES = 16
SHAPE_DIV = 16
INT32 = (-(2**31), 2**31 - 1)

#: numpy/torch/typestr dtype names → signature dtype names.
DTYPE_NAMES = {
    "float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64", "int8": "i8", "int16": "i16",
    "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "bool": "bool", "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2", "float8_e8m0fnu": "f8e8m0fnu",
    "<f4": "f32", "<f2": "f16", "<f8": "f64", "<i1": "i8", "|i1": "i8", "<i2": "i16", "<i4": "i32", "<i8": "i64",
    "|u1": "u8", "<u2": "u16", "<u4": "u32", "<u8": "u64", "|b1": "bool",
}
ITEMSIZE = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "u8": 1, "u16": 2,
            "u32": 4, "u64": 8, "bool": 1, "f8e4m3fn": 1, "f8e5m2": 1, "f8e8m0fnu": 1}


class CaptureError(TileportError):
    pass


class LaunchRejected(CaptureError, TypeError):
    """The launch's own argument check refuses these arguments: on a GPU the launch raises a TypeError too. A capture
    raises it in the host code, as the launch would (a test expecting it passes, a fallback path runs), and counts
    it among the launches not recorded."""


class LaunchOverflow(LaunchRejected, OverflowError):
    """An int argument out of the scalar's range: ct.launch raises an OverflowError ("Python int too large to convert
    to C int32_t", measured on the H200: benchmarks/results/h200/verification/launch_signatures.json)."""


@dataclass(frozen=True)
class ArrayFacts:
    dtype: str
    shape: tuple[int, ...]
    strides: tuple[int, ...]  # elements
    data_ptr: int


def dtype_name(dt: Any) -> str:
    """The signature's dtype name of a torch / numpy dtype or an array-interface typestr."""
    for cand in (str(dt).removeprefix("torch."), getattr(dt, "name", None), getattr(dt, "str", None)):
        if cand in DTYPE_NAMES:
            return DTYPE_NAMES[cand]
    raise CaptureError(f"unsupported array dtype {dt!r}")


def _is_torch_like(obj: Any) -> bool:
    return (callable(getattr(obj, "data_ptr", None)) and callable(getattr(obj, "stride", None))
            and hasattr(obj, "dtype") and hasattr(obj, "shape"))


def _interface(obj: Any, attr: str) -> dict | None:
    """``obj.<attr>`` when it is an array interface dict; None when it is missing or raises (torch raises for
    tensors that require grad and for dtypes it has no typestr for)."""
    try:
        iface = getattr(obj, attr, None)
    except Exception:  # noqa: BLE001 — any error means "no usable interface": other routes follow
        return None
    return iface if isinstance(iface, dict) and "shape" in iface else None


def array_facts(obj: Any) -> ArrayFacts | None:
    """Shape, element strides, dtype and data pointer of an array-like, or None if it is not one."""
    if _is_torch_like(obj):  # torch (and look-alikes): exact dtype, element strides, no interface needed
        return ArrayFacts(dtype_name(obj.dtype), tuple(int(s) for s in obj.shape),
                          tuple(int(s) for s in obj.stride()), int(obj.data_ptr()))
    for attr in ("__cuda_array_interface__", "__array_interface__"):
        iface = _interface(obj, attr)
        if iface is None:
            continue
        dtype = dtype_name(iface["typestr"])
        size = ITEMSIZE[dtype]
        shape = tuple(int(s) for s in iface["shape"])
        if iface.get("strides"):
            strides = tuple(int(s) // size for s in iface["strides"])
        else:
            strides = tuple(_contiguous(shape))
        return ArrayFacts(dtype, shape, strides, int(iface["data"][0]))
    if hasattr(obj, "strides") and hasattr(obj, "ctypes") and hasattr(obj, "dtype"):  # numpy
        dtype = dtype_name(obj.dtype)
        return ArrayFacts(dtype, tuple(obj.shape), tuple(s // ITEMSIZE[dtype] for s in obj.strides),
                          int(obj.ctypes.data))
    return None


def _contiguous(shape: tuple[int, ...]) -> list[int]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= s
    return list(reversed(out))


def static_shape(shape: tuple[int, ...], annotated: tuple[int, ...] | None = None) -> tuple[int | None, ...]:
    """The static extents cuda-tile 1.7's launch gives an array of this shape (calling convention v2, which it
    uses whenever one array has one): 1 on each axis of extent 1; for a parameter annotated
    ``ct.ArrayAnnotation(static_shape_dims=..)`` (``annotated``: its axes, negative ones from the end) the annotated
    axes at their launch extents and no others (measured with ct.launch itself: Run 21 in
    benchmarks/results/h100/served/sparse_mla_cpu_reading.md)."""
    if annotated:
        rank, axes = len(shape), set()
        for a in annotated:   # (cuda-tile's _resolve_static_axes refuses these at compile time: so does a capture)
            if not -rank <= a < rank:
                raise LaunchRejected(f"Axis {a} found in `static_shape_dims` is out of range for an array of rank "
                                     f"{rank} (cuda-tile 1.7 refuses the launch)")
            if a % rank in axes:
                raise LaunchRejected(f"Axis {a} appears more than once in `static_shape_dims` (cuda-tile 1.7 refuses "
                                     "the launch)")
            axes.add(a % rank)
        return tuple(n if k in axes else None for k, n in enumerate(shape))
    return tuple(1 if n == 1 else None for n in shape)


def array_sig(f: ArrayFacts, annotated: tuple[int, ...] | None = None, v2: bool = True) -> ArraySig:
    """The signature cuda-tile's launch derives for these facts (rules in the module docstring); with ``v2`` its
    static extents too (see static_shape; ``annotated``: the parameter's ``static_shape_dims``). ``v2=False``: the
    all-dynamic signature of calling convention v1 (what the captures recorded before static extents were ported)."""
    elem_div = max(1, ALIGN_BYTES // ITEMSIZE[f.dtype])
    strides, stride_div = [], []
    for st in f.strides:
        if st == 1:
            strides.append(1)
            stride_div.append(1)
        else:
            strides.append(None)
            stride_div.append(elem_div if st % elem_div == 0 and elem_div > 1 else 1)
    shape = static_shape(f.shape, annotated) if v2 else (None,) * len(f.shape)
    shape_div = tuple(SHAPE_DIV if n % SHAPE_DIV == 0 and d is None else 1 for n, d in zip(f.shape, shape))
    return ArraySig(f.dtype, shape, tuple(strides), False, shape_div, tuple(stride_div),
                    ALIGN_BYTES if f.data_ptr % ALIGN_BYTES == 0 else 1, any(s == 0 for s in f.strides))


def list_sig(name: str, items: list[ArrayFacts], v2: bool = True) -> ListSig:
    """The signature of a list of arrays: the facts every item has (rules in the module docstring), a static
    extent 1 on an axis only where every item has extent 1 there."""
    sigs = [array_sig(f, v2=False) for f in items]
    first = sigs[0]
    for k, (f, sig) in enumerate(zip(items[1:], sigs[1:]), 1):
        if (f.dtype, len(f.shape)) != (first.dtype, first.rank):
            raise CaptureError(f"list {name}: item {k} is a rank-{len(f.shape)} {f.dtype} array, item 0 a rank-"
                               f"{first.rank} {first.dtype} one (cuda-tile wants one dtype and rank per list)")
        if sig.strides != first.strides:
            raise CaptureError(f"list {name}: item {k}'s unit strides {sig.strides} differ from item 0's "
                               f"{first.strides} (cuda-tile wants the same static strides in a list)")
    shape = tuple(1 if v2 and all(f.shape[d] == 1 for f in items) else None for d in range(first.rank))
    element = ArraySig(first.dtype, shape, first.strides, False,
                       tuple(1 if shape[d] is not None else min(s.shape_div[d] for s in sigs)
                             for d in range(first.rank)),
                       tuple(min(s.stride_div[d] for s in sigs) for d in range(first.rank)),
                       min(s.base_align for s in sigs), any(s.may_alias for s in sigs))
    return ListSig(element, _items_overlap(items))


def _items_overlap(items: list[ArrayFacts]) -> bool:
    """Do two items' address ranges (first to last element) intersect?"""
    spans = sorted((f.data_ptr, f.data_ptr + ITEMSIZE[f.dtype] * (1 + sum((n - 1) * abs(st) for n, st in
                                                                          zip(f.shape, f.strides))))
                   for f in items if all(n > 0 for n in f.shape))
    return any(b[0] < a[1] for a, b in zip(spans, spans[1:]))


#: Python types of launch arguments cuda-tile 1.7's launch refuses outright (its words: "Objects of type .. are not
#: supported"), by type name
_NOT_ARGUMENTS = ("NoneType", "str", "bytes", "complex", "dict", "set", "DType", "dtype")


def grid_extents(grid: Any, what: str = "ct.launch") -> tuple[int, int, int]:
    """A launch's grid as 3 extents: an int or a tuple/list of 1 to 3 integers (``operator.index``: Python, numpy
    and 0-d torch integers; not floats, which the launch refuses too: ``n / 256`` where ``n // 256`` was meant),
    none negative. Raises :class:`LaunchRejected` otherwise."""
    import operator

    dims = list(grid) if isinstance(grid, (tuple, list)) else [grid]
    try:
        ext = tuple(operator.index(g) for g in dims)
    except TypeError:
        raise LaunchRejected(f"grid {grid!r}: {what} takes integer extents, not "
                             f"{', '.join(sorted({type(g).__name__ for g in dims}))}") from None
    if not 1 <= len(ext) <= 3 or any(e < 0 for e in ext):
        raise LaunchRejected(f"grid {grid!r}: {what} takes 1 to 3 non-negative extents")
    return ext + (1,) * (3 - len(ext))  # type: ignore[return-value]


def is_numpy_scalar(value: Any) -> bool:
    """A numpy scalar (``np.float32(0.5)``; it has an array interface, of rank 0, but is no array)."""
    return type(value).__module__ == "numpy" and getattr(value, "shape", None) == () and hasattr(value, "item") \
        and not hasattr(value, "ctypes")


def _python_number(value: Any) -> bool | int | float:
    """A bool / int / float subclass (``np.float64``, an IntEnum) as the plain Python value the launch reads."""
    return bool(value) if isinstance(value, bool) else int(value) if isinstance(value, int) else float(value)


def describe_arg(name: str, value: Any, constant: bool, const_word: str = "constant",
                 int32_why: str = "ct.launch rejects it too", int_dtype: str = "i32",
                 strict: bool = True, annotated: tuple[int, ...] | None = None,
                 v2: bool = True) -> tuple[Any, dict]:
    """(signature part, the capture's description) of one launch argument: a constant's value, an array's facts,
    a bool / int32 / f32 scalar. ``const_word`` and ``int32_why`` word the errors for the frontend asking;
    ``int_dtype`` "i64": a Python int is an i64 scalar (a parameter annotated ``ct.ScalarInt64``). ``strict``: the
    launch is cuda-tile's, and what it refuses raises :class:`LaunchRejected` (module docstring); the Triton capture
    passes False (its errors are what the lowering cannot take, recorded as such). ``annotated``: an array
    parameter's ``static_shape_dims``; ``v2=False``: no static extents (see array_sig)."""
    rejected = LaunchRejected if strict else CaptureError
    overflow = LaunchOverflow if strict else CaptureError
    if constant:
        if not isinstance(value, (bool, int, float)):
            raise rejected(f"{const_word} {name}={value!r}: a {type(value).__name__} is not a constant ct.launch "
                           "takes (cuda-tile 1.7 takes bool, int and float constants: \"Could not interpret object of "
                           f"type '{type(value).__name__}' as a constant\")" if strict else
                           f"{const_word} {name}={value!r} is not a bool, int or float")
        value = _python_number(value)
        return ConstSig(value), {"name": name, "kind": "constant", "value": value}
    if strict and (type(value).__name__ in _NOT_ARGUMENTS
                   or isinstance(value, enum.Enum) and not isinstance(value, (int, float))):
        raise rejected(f"argument {name}={value!r}: ct.launch takes no {type(value).__name__} argument (cuda-tile "
                       f"1.7: \"Objects of type '{type(value).__name__}' are not supported\"); a value the kernel "
                       "decides on at compile time is a ct.Constant[int|bool|float] parameter")
    if isinstance(value, list) and not constant:
        items = [array_facts(v) for v in value]
        if not items:
            raise rejected(f"list {name} is empty (cuda-tile launches no empty lists)")
        if any(f is None for f in items):
            raise rejected(f"list {name}: every item must be an array (cuda-tile takes lists of arrays only)")
        return list_sig(name, items, v2), {"name": name, "kind": "list",
                                       "items": [{"dtype": f.dtype, "shape": list(f.shape), "strides": list(f.strides),
                                                  "data_ptr_mod_16": f.data_ptr % 16} for f in items]}
    if is_numpy_scalar(value) and not isinstance(value, (bool, int, float)):   # np.float32(0.5) (np.float64 is a
        if strict:                                                             # Python float: read as one, below)
            raise rejected(f"argument {name}={value!r}: ct.launch takes no numpy scalar (cuda-tile 1.7: \"Objects of "
                           f"type 'numpy.{type(value).__name__}' are not supported\"); pass float(..) / int(..)")
        dtype = dtype_name(value.dtype)
        return ScalarSig(dtype), {"name": name, "kind": "scalar", "dtype": dtype, "value": value.item()}
    facts = None if isinstance(value, (bool, int, float)) else array_facts(value)
    if facts is not None:
        return array_sig(facts, annotated, v2), {"name": name, "kind": "array", "dtype": facts.dtype, "shape": list(facts.shape),
                                  "strides": list(facts.strides), "data_ptr_mod_16": facts.data_ptr % 16}
    if isinstance(value, bool):
        dtype = "bool"
    elif isinstance(value, int) and int_dtype == "i64":
        if not -(1 << 63) <= value < (1 << 63):
            raise overflow(f"scalar {name}={value} does not fit in int64 ({int32_why})")
        dtype = "i64"
    elif isinstance(value, int):
        if not INT32[0] <= value <= INT32[1]:
            raise overflow(f"scalar {name}={value} does not fit in int32 ({int32_why})")
        dtype = "i32"
    elif isinstance(value, float):
        dtype = "f32"
    else:
        raise CaptureError(f"argument {name} of type {type(value).__name__} is neither an array nor a scalar"
                           + (" (a tuple argument is not captured yet)" if isinstance(value, tuple) else ""))
    if isinstance(value, (bool, int, float)):
        value = _python_number(value)
    return ScalarSig(dtype), {"name": name, "kind": "scalar", "dtype": dtype, "value": value}
