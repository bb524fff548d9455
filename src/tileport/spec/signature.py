"""Launch signatures: the text form users type after ``--sig`` and its translation to cuTile Python constraints.

Grammar (parameters in the kernel's order, separated by commas; a ``name=`` prefix is optional but, when used,
must match the kernel's parameter name)::

    SIG      := PARAM ("," PARAM)*
    PARAM    := [NAME "="] (ARRAY | LIST | SCALAR | CONST)
    ARRAY    := DTYPE "[" [DIMS] "]" ["/" STRIDES] ["&" ALIGN] ["!alias"] ["@i64"]      ("f32[]": rank 0)
    DIMS     := DIM ("," DIM)*        DIM := "?" | "?%" DIV | INT        (dynamic | dynamic, divisible by DIV | static)
    STRIDES  := DIM ("," DIM)*        the same, for strides in elements
    LIST     := "list[" ARRAY "]" ["!alias"]    a list of arrays (`List[Array]`): one element signature every
                                      item meets; "!alias": two items may share memory
    SCALAR   := DTYPE                 e.g.  i32   f32
    CONST    := "#" VALUE             e.g.  #1024  #0.5  #true     (a ct.Constant parameter)

Examples: ``f32[?]/1`` (contiguous vector), ``f16[?,128]/?,1`` (static second dimension),
``f32[?%16,?%16]/?%4,1&16`` (what ``ct.launch`` derives for a 16-aligned 1024x1024 f32 tensor: extents divisible
by 16, row stride by 4, base address by 16 bytes), ``f32[?]/0!alias`` (a broadcast view: elements may alias),
``bf16[?,?]@i64`` (64-bit indices), ``list[bf16[?,?%16]/?%8,1&16]`` (a list of row-major bf16 matrices, as a grouped
GEMM takes them).

DTYPE is one of the short names in :data:`DTYPES` (f32, f16, bf16, i32, ...). Arrays default to 32-bit indices,
non-negative strides, no divisibility facts and no aliasing. Static shapes need cuTile Python's calling convention
v2, which is then used for that signature.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import TileportError

#: Short dtype names accepted in signatures → cuda.tile attribute names.
DTYPES = {
    "bool": "bool_", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "tf32": "tfloat32",
    "f8e4m3fn": "float8_e4m3fn", "f8e5m2": "float8_e5m2", "f8e8m0fnu": "float8_e8m0fnu",
}


class SignatureError(TileportError):
    """A ``--sig`` string that does not parse or does not fit the kernel."""


def _fmt_dims(values: tuple[int | None, ...], divs: tuple[int, ...]) -> str:
    return ",".join(str(v) if v is not None else ("?" if d == 1 else f"?%{d}") for v, d in zip(values, divs))


@dataclass(frozen=True)
class ArraySig:
    dtype: str
    shape: tuple[int | None, ...]
    strides: tuple[int | None, ...] | None = None
    index_i64: bool = False
    shape_div: tuple[int, ...] | None = None     # per dimension, 1 = no fact
    stride_div: tuple[int, ...] | None = None
    base_align: int = 1                          # bytes
    may_alias: bool = False
    kind: str = field(default="array", init=False)

    def __post_init__(self) -> None:
        ones = (1,) * len(self.shape)
        if self.shape_div is None:
            object.__setattr__(self, "shape_div", ones)
        if self.stride_div is None:
            object.__setattr__(self, "stride_div", ones)
        if not self.shape and self.strides == ():  # rank 0: no strides to know (the parsed form of `f32[]`)
            object.__setattr__(self, "strides", None)

    @property
    def rank(self) -> int:
        return len(self.shape)

    def text(self) -> str:
        out = f"{self.dtype}[{_fmt_dims(self.shape, self.shape_div)}]"
        if self.rank and (self.strides is not None or any(d != 1 for d in self.stride_div)):  # rank 0: no strides
            strides = self.strides if self.strides is not None else (None,) * self.rank
            out += "/" + _fmt_dims(strides, self.stride_div)
        if self.base_align != 1:
            out += f"&{self.base_align}"
        return out + ("!alias" if self.may_alias else "") + ("@i64" if self.index_i64 else "")


@dataclass(frozen=True)
class ScalarSig:
    dtype: str
    kind: str = field(default="scalar", init=False)

    def text(self) -> str:
        return self.dtype


@dataclass(frozen=True)
class ConstSig:
    value: bool | int | float
    kind: str = field(default="constant", init=False)

    def text(self) -> str:
        return "#" + (str(self.value).lower() if isinstance(self.value, bool) else repr(self.value))


@dataclass(frozen=True)
class ListSig:
    """A list-of-arrays parameter: cuTile Python passes it as a pointer to the items' descriptors (base pointer,
    extents, strides: 64-bit words each) and their count; ``element`` holds for every item."""
    element: ArraySig
    elements_may_alias: bool = False
    kind: str = field(default="list", init=False)

    def text(self) -> str:
        return f"list[{self.element.text()}]" + ("!alias" if self.elements_may_alias else "")


ParamSig = ArraySig | ListSig | ScalarSig | ConstSig


@dataclass(frozen=True)
class Signature:
    params: tuple[tuple[str | None, ParamSig], ...]

    def text(self) -> str:
        return ", ".join((f"{n}=" if n else "") + p.text() for n, p in self.params)


_ARRAY_RE = re.compile(r"(?P<dt>[a-z0-9_]+)\[(?P<dims>[^\]]*)\](?:/(?P<strides>[0-9?%,\s-]*?))?"
                       r"(?:&(?P<align>\d+))?(?P<alias>!alias)?(?P<i64>@i64)?")
_STRIDE_ITEM = re.compile(r"(-?\d+|\?(%\d+)?)(&\d+)?(!alias)?(@i64)?")


def _split_top(text: str) -> list[str]:
    """Split on commas that are not inside brackets or a stride list (a stride list runs to the next NAME= or
    dtype-looking token)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    # Re-attach stride continuations: "f16[?,?]/?" "1" → "f16[?,?]/?,1".
    merged: list[str] = []
    for p in parts:
        s = p.strip()
        if merged and _STRIDE_ITEM.fullmatch(s) and "/" in merged[-1] and not re.search(r"[&!@]", merged[-1]):
            merged[-1] += "," + s
        else:
            merged.append(s)
    return merged


def _dim(tok: str, what: str, full: str) -> tuple[int | None, int]:
    """(static value or None, divisibility) of one dimension/stride item."""
    tok = tok.strip()
    m = re.fullmatch(r"\?(?:%(\d+))?", tok)
    if m:
        div = int(m.group(1) or 1)
        if div < 1:
            raise SignatureError(f"in {full!r}: {what} divisor must be positive")
        return None, div
    try:
        return int(tok), 1
    except ValueError:
        raise SignatureError(f"in {full!r}: {what} {tok!r} is neither '?', '?%N' nor an integer") from None


def _items(text: str) -> list[str]:
    """The comma-separated items of a dimension or stride list; none for ``[]`` (a rank-0 array)."""
    return text.split(",") if text.strip() else []


def parse_param(text: str) -> tuple[str | None, ParamSig]:
    full = text
    name = None
    m = re.fullmatch(r"\s*([^\W\d]\w*)\s*=\s*(.+)", text)   # (a Python identifier: `α=f32` too)
    if m:
        name, text = m.group(1), m.group(2)
    text = text.strip()
    if text.startswith("#"):
        raw = text[1:].strip()
        low = raw.lower()
        if low in ("true", "false"):
            return name, ConstSig(low == "true")
        for conv in (int, float):
            try:
                return name, ConstSig(conv(raw))
            except ValueError:
                pass
        raise SignatureError(f"in {full!r}: constant {raw!r} is not an int, float or bool")
    lm = re.fullmatch(r"list\[(?P<el>.*)\](?P<alias>!alias)?", text)
    if lm:
        _, element = parse_param(lm.group("el"))
        if not isinstance(element, ArraySig):
            raise SignatureError(f"in {full!r}: a list's items must be arrays (cuTile Python takes lists of arrays "
                                 "only), e.g. list[f32[?,?]]")
        return name, ListSig(element, bool(lm.group("alias")))
    am = _ARRAY_RE.fullmatch(text)
    if am:
        dt = am.group("dt")
        _check_dtype(dt, full)
        dims = [_dim(t, "dimension", full) for t in _items(am.group("dims"))]
        shape = tuple(v for v, _ in dims)
        strides, stride_div = None, None
        if am.group("strides") is not None:
            items = [_dim(t, "stride", full) for t in _items(am.group("strides"))]
            if len(items) != len(shape):
                raise SignatureError(f"in {full!r}: {len(items)} strides for a rank-{len(shape)} array")
            strides = tuple(v for v, _ in items)
            stride_div = tuple(d for _, d in items)
            if all(v is None for v in strides):
                strides = None
        return name, ArraySig(dt, shape, strides, bool(am.group("i64")), tuple(d for _, d in dims), stride_div,
                              int(am.group("align") or 1), bool(am.group("alias")))
    if re.fullmatch(r"[a-z0-9_]+", text):
        _check_dtype(text, full)
        return name, ScalarSig(text)
    raise SignatureError(f"cannot parse parameter {full!r}: expected an array like f32[?], a list of arrays like "
                         "list[f32[?,?]], a scalar dtype like i32, or a constant like #128 (see `tileport compile "
                         "--help`)")


def _check_dtype(dt: str, full: str) -> None:
    if dt not in DTYPES:
        raise SignatureError(f"in {full!r}: unknown dtype {dt!r}; known: {', '.join(DTYPES)}")


def parse(text: str) -> Signature:
    if not text.strip():
        raise SignatureError("empty signature")
    return Signature(tuple(parse_param(p) for p in _split_top(text)))


def bind(sig: Signature, param_names: list[str], kernel: str) -> Signature:
    """Check ``sig`` against the kernel's parameter names and return it with every name filled in."""
    if len(sig.params) != len(param_names):
        raise SignatureError(f"{kernel} takes {len(param_names)} parameters ({', '.join(param_names)}), "
                             f"the signature gives {len(sig.params)}: {sig.text()}")
    out = []
    for (name, p), expected in zip(sig.params, param_names):
        if name is not None and name != expected:
            raise SignatureError(f"{kernel}: signature names {name!r} where the kernel's parameter is {expected!r}")
        out.append((expected, p))
    return Signature(tuple(out))


def needs_v2(sig: Signature) -> bool:
    """Static shapes exist only in cuTile Python's calling convention v2."""
    return any(isinstance(a, ArraySig) and any(d is not None for d in a.shape)
               for _, p in sig.params for a in ((p.element,) if isinstance(p, ListSig) else (p,)))


def dynamic_twin(sig: Signature) -> Signature | None:
    """``sig`` with every static extent of 1 dynamic (calling convention v1 where nothing else is static), or None
    where it has none: the all-dynamic entry a launch with an extent-1 axis can also run."""
    def dyn(a: ArraySig) -> ArraySig:
        if 1 not in a.shape:
            return a
        return dataclasses.replace(a, shape=tuple(None if d == 1 else d for d in a.shape),
                                   shape_div=tuple(1 if d == 1 else v for d, v in zip(a.shape, a.shape_div)))

    out = tuple((n, dyn(p) if isinstance(p, ArraySig) else
                 dataclasses.replace(p, element=dyn(p.element)) if isinstance(p, ListSig) else p)
                for n, p in sig.params)
    return None if out == sig.params else Signature(out)


def _array_constraint(p: ArraySig) -> Any:
    import cuda.tile as ct
    from cuda.tile import compilation as cc
    return cc.ArrayConstraint(
        getattr(ct, DTYPES[p.dtype]), p.rank,
        index_dtype=ct.int64 if p.index_i64 else ct.int32,
        stride_lower_bound_incl=0, alias_groups=(), may_alias_internally=p.may_alias,
        stride_constant=p.strides,
        shape_constant=None if all(d is None for d in p.shape) else p.shape,
        shape_divisible_by=p.shape_div, stride_divisible_by=p.stride_div,
        base_addr_divisible_by=p.base_align,
    )


def to_cutile(sig: Signature) -> Any:
    """Build a ``cuda.tile.compilation.KernelSignature`` (calling convention v1, or v2 for static shapes)."""
    import cuda.tile as ct
    from cuda.tile import compilation as cc

    params: list[Any] = []
    for _, p in sig.params:
        if isinstance(p, ArraySig):
            params.append(_array_constraint(p))
        elif isinstance(p, ListSig):
            params.append(cc.ListConstraint(_array_constraint(p.element), alias_groups=(),
                                            elements_may_alias=p.elements_may_alias))
        elif isinstance(p, ScalarSig):
            params.append(cc.ScalarConstraint(getattr(ct, DTYPES[p.dtype])))
        else:
            params.append(p.value)
    conv = cc.CallingConvention.cutile_python_v2() if needs_v2(sig) else cc.CallingConvention.cutile_python_v1()
    return cc.KernelSignature(params, conv)
