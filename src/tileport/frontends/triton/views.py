"""The arrays a lowered Triton kernel takes in place of raw pointers, and how a launch builds them.

Triton addresses memory as ``ptr + Σ index_k * stride_k``, bounded by masks (``offs < n``) or by a block pointer's
``shape``. The lowering turns every pointer parameter into an array *view* whose dimension k has the stride the
kernel multiplies by (a scalar argument, or 1) and the extent the mask compares with: a cuTile load of that view at
the same indices reads exactly what the masked Triton load reads, and pads where Triton's mask is false.

A dimension no mask bounds gets its extent at launch: the one remaining dimension takes whatever of the tensor the
others leave (a flat vector, the rows of a matrix); several such dimensions are each matched to the tensor
dimension with the same stride. The view never reaches past the tensor the argument is (checked here, with the
reason in the error).
"""
from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...errors import TileportError


class ViewError(TileportError):
    """A launch's arguments do not make the array view the lowered kernel reads."""


@dataclass(frozen=True)
class Dim:
    stride: str               # a kernel parameter (scalar or constexpr) or an integer literal
    extent: str | None        # the same kinds; None: found at launch (module docstring)


@dataclass(frozen=True)
class View:
    param: str
    dims: tuple[Dim, ...]
    #: elements a tile folded into the unit-stride dimension reaches (``x + BC + r[:, None] * S + c``: `2 * BC`),
    #: where the lowering could not tell that the row holds them (a runtime row stride): a launch whose unit-stride
    #: extent is shorter is refused (Triton reads the next row there; the tile would lie past the extent)
    unit_reach: tuple[str, ...] = ()
    #: (dimension, block) of each tile the kernel reads along an unbounded dimension of a view with two or more
    #: (`x + t[:, None] * S + k[None, :]`, blocks T and K): where a launch gives such a dimension only up to the next
    #: larger stride (S elements) and a block is wider (K > S: overlapping windows, im2col), Triton reads the next
    #: window's elements, which a tile of this view cannot — refused at that launch (the tile read padding there);
    #: "every B": tiles at other indices than 0, whose block must divide such a dimension (none straddles its end)
    blocks: tuple[tuple[int, str], ...] = ()

    def as_json(self) -> dict:
        out = {"param": self.param, "dims": [{"stride": d.stride, "extent": d.extent} for d in self.dims]}
        return out | ({"unit_reach": list(self.unit_reach)} if self.unit_reach else {}) | (
            {"blocks": [list(b) for b in self.blocks]} if self.blocks else {})

    @staticmethod
    def from_json(data: dict) -> "View":
        return View(data["param"], tuple(Dim(d["stride"], d["extent"]) for d in data["dims"]),
                    tuple(data.get("unit_reach", ())), tuple((int(k), str(b)) for k, b in data.get("blocks", ())))


def descriptor_dims(param: str, rank: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(extents, strides) a tensor descriptor parameter's view is written in: ``PARAM__shape_K`` /
    ``PARAM__stride_K``, whose values a launch takes from the descriptor (``descriptor_values``)."""
    return tuple(f"{param}__shape_{k}" for k in range(rank)), tuple(f"{param}__stride_{k}" for k in range(rank))


def descriptor_values(param: str, shape: Sequence[int], strides: Sequence[int]) -> dict[str, int]:
    """The values of ``descriptor_dims(param, rank)`` for a descriptor of ``shape`` and ``strides``."""
    names_shape, names_strides = descriptor_dims(param, len(shape))
    return dict(zip(names_shape, map(int, shape))) | dict(zip(names_strides, map(int, strides)))


def _value(text: str, values: Mapping[str, Any], what: str) -> int:
    """An integer literal, a parameter, or an integer expression of them (`K`, `hd // 2`, `n - 1`)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError:
        raise ViewError(f"{what} is {text!r}, not an expression") from None
    return _evaluate(tree, values, what, text)


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Mod: operator.mod}


def _evaluate(n: ast.expr, values: Mapping[str, Any], what: str, text: str) -> int:
    if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
        return n.value
    if isinstance(n, ast.Constant) and n.value is None and "extent" in what:
        # an extent bounded in one arm of a constexpr `if` only (`(n if MODE == 0 else None)`): at the launches
        # of the other arm, as if unbounded (the tensor gives it)
        return None  # type: ignore[return-value]
    if isinstance(n, ast.Name):
        if n.id not in values:
            raise ViewError(f"{what} is {text!r}, and the launch does not pass {n.id!r}")
        v = values[n.id]
        if isinstance(v, bool) or not isinstance(v, int):
            raise ViewError(f"{what} is {text}: {n.id}={v!r} is not an integer")
        return v
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
        return -_evaluate(n.operand, values, what, text)
    if isinstance(n, ast.BinOp) and type(n.op) in _OPS:
        a, b = _evaluate(n.left, values, what, text), _evaluate(n.right, values, what, text)
        if isinstance(n.op, (ast.FloorDiv, ast.Mod)) and b == 0:
            raise ViewError(f"{what} is {text}: division by zero at this launch")
        return _OPS[type(n.op)](a, b)
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("max", "min") and n.args and \
            not n.keywords:   # (the largest block read per arm: `max(2, B)`)
        vals = [_evaluate(a, values, what, text) for a in n.args]
        return max(vals) if n.func.id == "max" else min(vals)
    if isinstance(n, ast.IfExp):   # a bound per arm of a constexpr `if` (`N if TRANS else M`)
        return _evaluate(n.body if _truth(n.test, values, what, text) else n.orelse, values, what, text)
    raise ViewError(f"{what} is {text!r}: only + - * // % of integers and parameters are evaluated")


_TESTS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
          ast.Gt: operator.gt, ast.GtE: operator.ge}


def _truth(n: ast.expr, values: Mapping[str, Any], what: str, text: str) -> Any:
    """The value of a test on the launch's constexprs (`TRANS`, `STAGE & 2`, `MODE == 1`, `not A and B`)."""
    if isinstance(n, ast.Constant):
        return n.value
    if isinstance(n, ast.Name):
        if n.id not in values:
            raise ViewError(f"{what} is {text!r}, and the launch does not pass {n.id!r}")
        return values[n.id]
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
        return not _truth(n.operand, values, what, text)
    if isinstance(n, ast.BoolOp):
        vals = [_truth(v, values, what, text) for v in n.values]
        return all(vals) if isinstance(n.op, ast.And) else any(vals)
    if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.BitAnd, ast.BitOr)):
        a, b = _truth(n.left, values, what, text), _truth(n.right, values, what, text)
        return a & b if isinstance(n.op, ast.BitAnd) else a | b
    if isinstance(n, ast.Compare) and len(n.ops) == 1 and type(n.ops[0]) in _TESTS:
        return _TESTS[type(n.ops[0])](_truth(n.left, values, what, text), _truth(n.comparators[0], values, what, text))
    return _evaluate(n, values, what, text)


def view_layout(view: View, shape: Sequence[int], strides: Sequence[int], values: Mapping[str, Any]
                ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(shape, strides) in elements of ``view`` over a tensor of ``shape``/``strides`` for one launch's
    ``values`` (scalar and constexpr arguments by name)."""
    name = view.param
    vstrides = [_value(d.stride, values, f"{name}'s stride {k}") for k, d in enumerate(view.dims)]
    if any(s < 0 for s in vstrides):
        raise ViewError(f"{name}: negative strides {vstrides} are not supported")
    span = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, strides)) if all(n > 0 for n in shape) else 0
    ext: list[int | None] = [None if d.extent is None else _value(d.extent, values, f"{name}'s extent {k}")
                             for k, d in enumerate(view.dims)]
    unknown = [k for k, e in enumerate(ext) if e is None]
    # every unbounded dimension but the outermost is the tensor dimension of its stride; the outermost takes what
    # the tensor leaves (rows of a [batch, seq, ...] tensor addressed as batch * seq rows of one stride included),
    # unless an inner one is the tensor's outermost dimension (it would leave the outermost nothing: refused below)
    outer = max(unknown, key=lambda k: vstrides[k]) if unknown else None
    top = max(range(len(shape)), key=lambda i: strides[i]) if shape else None
    inner = _split_extents(view, vstrides, ext, unknown, outer, top, shape, strides)
    pieces = _pieces_under_outer(view, vstrides, ext, unknown, outer, inner, shape, strides, span)
    inner.update(pieces)
    below_next = set(inner)   # dimensions given only up to the next larger stride (checked against the blocks)
    for k in unknown:
        if k in inner:
            ext[k] = inner[k]
            continue
        same = [i for i, s in enumerate(strides) if s == vstrides[k] and shape[i] > 1]
        unit = [i for i, s in enumerate(strides) if s == vstrides[k] and shape[i] == 1]
        if k == outer and (len(same) == 1 or len(unknown) == 1 or (not same and (unit or pieces))):  # (a batch of 1)
            continue
        if len(same) != 1 or (len(unknown) > 1 and same[0] == top and k != outer):
            raise ViewError(f"{name}: dimension {k} of the kernel's view (stride {vstrides[k]}) has no mask or "
                            f"block shape bounding it and matches {len(same)} dimensions of the tensor "
                            f"(shape {tuple(shape)}, strides {tuple(strides)}): cannot tell its extent")
        ext[k] = shape[same[0]]
        # the tensor dimensions contiguous above it up to the view's next larger stride (`p_k += K` per step over a
        # [B, T, K] tensor viewed (B, T * K): a K-block a step walks past K into the next row of T): it spans them
        # all, Triton's flat addresses (it took K, and the steps past the first read padding, silently)
        above = [s for j, s in enumerate(vstrides) if j != k and s > vstrides[k] and (ext[j] is None or ext[j] > 1)]
        if above:
            nxt, reach_k = min(above), vstrides[k] * shape[same[0]]
            while True:
                on = [i for i, st in enumerate(strides) if st == reach_k and shape[i] > 1
                      and st * shape[i] <= nxt and i != same[0]]
                if len(on) != 1:
                    break
                reach_k = strides[on[0]] * shape[on[0]]
            ext[k] = reach_k // vstrides[k]
        # a dimension of the view with a larger stride inside this one's tensor dimension (`2 * i` and `2 * i + 1`
        # over a row: strides 2 and 1) bounds it: it takes up to that stride, not the whole tensor dimension (which
        # left the outermost rows too few: the last rows padded, silently)
        inside = [s for j, s in enumerate(vstrides) if j != k and vstrides[k] < s < vstrides[k] * shape[same[0]]
                  and s % vstrides[k] == 0 and (ext[j] is None or ext[j] > 1)]
        if inside:
            ext[k] = min(ext[k], min(inside) // vstrides[k])
            below_next.add(k)
    if outer is not None:
        k = outer
        used = sum((e - 1) * s for e, s in zip(ext, vstrides) if e is not None and e > 0)
        if vstrides[k] == 0 and span > 0:
            # stride 0 at this launch (`b + row * stride_m` over `bias.expand(M, N)`): every index reads the same
            # elements, so the extent is the tensor's broadcast one; it was 1, and rows past the first read padding
            # where Triton reads the row again. Without a broadcast dimension the extent is not known: refused.
            zero = [n for n, st in zip(shape, strides) if st == 0]
            if not zero:
                raise ViewError(f"{name}: dimension {k} of the kernel's view has stride 0 at this launch and no mask "
                                f"or block shape bounding it, and the tensor (shape {tuple(shape)}, strides "
                                f"{tuple(strides)}) has no broadcast (stride-0) dimension to take its extent from")
            ext[k] = max(zero)
        else:
            ext[k] = max(0, (span - 1 - used) // vstrides[k] + 1) if vstrides[k] > 0 and span > 0 else \
                (1 if span else 0)
            rows = -(-span // vstrides[k]) if vstrides[k] > 0 else 0
            units = [j for j, d in enumerate(view.dims) if d.stride == "1" and d.extent is not None and j != k]
            steps = [vstrides[j] for j in range(len(vstrides)) if j != k and vstrides[j] > 1 and (ext[j] or 0) > 1]
            if vstrides[k] > 0 and used >= vstrides[k] and ext[k] < rows and \
                    all(s < vstrides[k] for j, s in enumerate(vstrides) if j != k) and \
                    any(steps and (ext[j] or 0) > min(steps) for j in units):
                # the inner dimensions reach past the outer stride (a bounded unit-stride run longer than the next
                # stride: `x + pid * C * n + offs` with `offs < n * C` beside `x + pid * C * n + c * n + cols`):
                # the rows overlap, and the outermost would take fewer rows than the tensor holds — its last ones
                # read padding where Triton reads the tensor (group norm's statistics over a whole group, silently)
                raise ViewError(f"{name}: the kernel's view (strides {tuple(vstrides)}, inner extents "
                                f"{[e for j, e in enumerate(ext) if j != k]}) reaches {used + 1} elements inside "
                                f"each step of its outermost dimension (stride {vstrides[k]}) at this launch (shape "
                                f"{tuple(shape)}, strides {tuple(strides)}): its rows overlap, so it would hold "
                                f"{ext[k]} of the tensor's {rows} — read the pointer through one layout")
    final = tuple(int(e) for e in ext)  # type: ignore[arg-type]
    for k, block in view.blocks:
        moving = block.startswith("every ")
        b = _value(block[len("every "):] if moving else block, values, f"{name}'s block {k}")
        if moving and k in below_next and k != outer and b > 0 and final[k] % b:
            # tiles at other indices than 0 (`pid * B + tl.arange(0, B)`): one straddles the window's end, where
            # Triton reads the next window's first elements and the tile padding
            raise ViewError(f"{name}: the kernel reads tiles of {b} elements at varying indices along dimension {k} "
                            f"of its view (stride {vstrides[k]}, no mask bounding it), but the next larger stride "
                            f"leaves {final[k]} at this launch (shape {tuple(shape)}, strides {tuple(strides)}), no "
                            "whole number of them: a tile straddles a window's end (Triton reads the next window's "
                            "elements there), which a tile of this view cannot")
        if k in below_next and k != outer and final[k] < b:
            raise ViewError(f"{name}: the kernel reads tiles of {b} elements along dimension {k} of its view (stride "
                            f"{vstrides[k]}, no mask bounding it), but the next larger stride leaves {final[k]} at "
                            f"this launch (shape {tuple(shape)}, strides {tuple(strides)}): the windows overlap "
                            "(Triton reads the next window's elements there), which a tile of this view cannot")
    for r in view.unit_reach:
        need = _value(r, values, f"{name}'s reach")
        unit = [k for k, d in enumerate(view.dims) if d.stride == "1" and d.extent is None]
        if unit and final[unit[0]] < need:
            raise ViewError(f"{name}: the kernel reads {need} elements along its unit-stride dimension (an element "
                            f"offset folded into that dimension's tiles), but its rows hold {final[unit[0]]} at this "
                            f"launch (shape {tuple(shape)}, strides {tuple(strides)}): Triton reads into the next "
                            "row there, which a tile of this view cannot")
    reach = 1 + sum((e - 1) * s for e, s in zip(final, vstrides)) if all(e > 0 for e in final) else 0
    if reach > span:
        raise ViewError(f"{name}: the kernel reads shape {final} with strides {tuple(vstrides)} ({reach} elements) "
                        f"but the tensor spans {span} (shape {tuple(shape)}, strides {tuple(strides)})")
    return final, tuple(vstrides)


def _pieces_under_outer(view: View, vstrides: Sequence[int], ext: Sequence[int | None], unknown: Sequence[int],
                        outer: int | None, inner: Mapping[int, int], shape: Sequence[int], strides: Sequence[int],
                        span: int) -> dict[int, int]:
    """Extents of unbounded inner dimensions when the outermost one's stride is no tensor dimension's (``tok +
    blk * BS + i`` over a flat tensor, ``i`` a ``tl.static_range(BS)`` index): each inner one takes up to the next
    larger stride of the view (``BS / 1`` elements), and the outermost the pieces the tensor leaves, which must be
    whole (a partial last piece would read padding where Triton reads the tensor: refused)."""
    if outer is None or len(unknown) < 2 or vstrides[outer] in strides or vstrides[outer] <= 0:
        return {}
    name, out = view.param, {}
    for k in unknown:
        if k == outer or k in inner or vstrides[k] <= 0:
            continue
        above = [s for j, s in enumerate(vstrides) if s > vstrides[k] and (ext[j] is None or ext[j] > 1)]
        nxt = min(above)
        if nxt % vstrides[k]:
            raise ViewError(f"{name}: dimensions of the kernel's view of strides {vstrides[k]} and {nxt} have no mask "
                            f"or block shape bounding them and {nxt} is not a multiple of {vstrides[k]}: cannot tell "
                            "their extents")
        out[k] = nxt // vstrides[k]
    if span % vstrides[outer]:
        raise ViewError(f"{name}: dimension {outer} of the kernel's view (stride {vstrides[outer]}) has no mask or block "
                        f"shape bounding it and no tensor dimension has its stride; the tensor's {span} elements (shape "
                        f"{tuple(shape)}, strides {tuple(strides)}) are not a whole number of its pieces: cannot tell "
                        "its extent")
    return out


def _split_extents(view: View, vstrides: Sequence[int], ext: Sequence[int | None], unknown: Sequence[int],
                   outer: int | None, top: int | None, shape: Sequence[int], strides: Sequence[int]
                   ) -> dict[int, int]:
    """Extents of unbounded inner dimensions that split one tensor dimension into several (``q + t * stride_t +
    h * HD + d`` over a ``[T, H * HD]`` tensor: the row of ``H * HD`` elements read as ``(H, HD)``).

    An unbounded dimension k other than the outermost whose stride ``v`` no tensor dimension has (or only the
    tensor's outermost, which the rows take) splits the tensor dimension i it lies inside (``strides[i] < v <=
    strides[i] * shape[i]``: one head of a ``[T, HD]`` tensor is a split into one piece). At launch: ``v`` is a multiple of
    ``strides[i]``, the span ``strides[i] * shape[i]`` of dimension i is a whole number of ``v`` (its extent is that
    number), every other dimension of the view with a larger stride steps over all of dimension i (none lands inside
    it), and every unbounded dimension of a smaller stride on dimension i takes the next larger split stride over
    its own. Anything else is refused, saying why. Only dimensions the tensor has no stride for are split: views
    that lowered before keep their extents."""
    name = view.param
    real = [i for i in range(len(shape)) if shape[i] > 1]
    splits: dict[int, int] = {}
    for k in unknown:
        v = vstrides[k]
        same = [i for i in real if strides[i] == v]
        if k == outer or v <= 0 or (len(same) == 1 and not (len(unknown) > 1 and same[0] == top)):
            continue
        inside = [i for i in real if 0 < strides[i] < v <= strides[i] * shape[i]]
        if len(inside) != 1:
            continue   # the matching below says why it cannot tell the extent
        i = inside[0]
        row = strides[i] * shape[i]
        if v % strides[i] or row % v:
            raise ViewError(f"{name}: dimension {k} of the kernel's view (stride {v}) has no mask or block shape "
                            f"bounding it and splits dimension {i} of the tensor (shape {tuple(shape)}, strides "
                            f"{tuple(strides)}) into pieces of {v} elements, but {row} elements (stride "
                            f"{strides[i]}) are not a whole number of them: cannot tell its extent")
        splits[k] = i
    for k, i in list(splits.items()):
        v, row = vstrides[k], strides[i] * shape[i]
        for j, s in enumerate(vstrides):
            if j != k and v < s < row and splits.get(j) != i and (ext[j] is None or ext[j] > 1):
                if j == outer and outer is not None and vstrides[outer] not in strides:
                    # the outermost dimension steps inside the split tensor dimension too, at a stride no tensor
                    # dimension has (`a * (B * C) + b * C + c` over a flat tensor, all unmasked): the whole view
                    # lies in one tensor dimension, each inner dimension taking up to the next larger stride and
                    # the outermost the whole pieces left (_pieces_under_outer). It was refused here
                    del splits[k]
                    break
                raise ViewError(f"{name}: dimension {k} of the kernel's view (stride {v}) splits dimension {i} of "
                                f"the tensor (shape {tuple(shape)}, strides {tuple(strides)}) and dimension {j} "
                                f"(stride {s}) steps inside it too: cannot tell the extents")
    out: dict[int, int] = {}
    for k, i in splits.items():
        above = [vstrides[j] for j, t in splits.items() if t == i and vstrides[j] > vstrides[k]]
        nxt = min(above) if above else strides[i] * shape[i]
        if nxt % vstrides[k]:
            raise ViewError(f"{name}: dimensions of the kernel's view of strides {vstrides[k]} and {nxt} split "
                            f"dimension {i} of the tensor, and {nxt} is not a multiple of {vstrides[k]}")
        out[k] = nxt // vstrides[k]
    for k in unknown:   # the tensor dimension itself, below its splits: one piece
        if k in out or k == outer:
            continue
        same = [i for i in real if strides[i] == vstrides[k]]
        if len(same) == 1 and any(t == same[0] for t in splits.values()):
            nxt = min(vstrides[j] for j, t in splits.items() if t == same[0])
            out[k] = nxt // vstrides[k]
    return out


def reads_at(source: str, kernel: str, param: str, constants: Mapping[str, Any]) -> bool:
    """Whether the lowered ``kernel`` in ``source`` names ``param`` in code a launch with these constexpr values runs:
    an `if` whose test the constants decide runs its taken arm only (cuTile folds it), any other code counts. A
    pointer a launch does not read (``gb_ptr`` under ``if NEED_B:`` launched with NEED_B=False, a stride-0 dummy
    passed for it) needs no view that fits; one that is read does."""
    fn = next((n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == kernel), None)
    if fn is None:
        return True

    def names(node: ast.AST) -> bool:
        if isinstance(node, ast.Name) and node.id == param:
            return True
        if isinstance(node, ast.If):
            try:
                taken = _truth(node.test, constants, "a constexpr test", ast.unparse(node.test))
            except (ViewError, TypeError, ValueError):
                taken = None
            if taken is not None:
                return any(names(s) for s in (node.body if taken else node.orelse))
        return any(names(c) for c in ast.iter_child_nodes(node))

    return any(names(s) for s in fn.body)


def string_codes(params: Sequence[Mapping[str, Any]], args: Mapping[str, Any]) -> dict[str, int]:
    """The codes of the string constexprs among ``args`` that the lowering report's ``params`` number (``codes``:
    a string the launches disagreed on; its view extents are chosen per arm on the code), by parameter name."""
    return {p["name"]: p["codes"][args[p["name"]]] for p in params
            if "codes" in p and isinstance(args.get(p["name"]), str) and args[p["name"]] in p["codes"]}


def narrow_rows(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """A view of ``shape``/``strides`` (from ``view_layout``) has rows narrower than the stride between them (a
    masked ``cols < n`` of rows ``stride`` apart, n < stride): tileiras 13.4 may store a tile past such a view's
    extent through TMA (docs/triton.md, "A store past a view's extent"), so the lowering keeps its stores off TMA."""
    dims = sorted((st, n) for n, st in zip(shape, strides) if n > 1 and st > 0)
    return any(n * st < outer for (st, n), (outer, _) in zip(dims, dims[1:]))


def tma_stores(source: str) -> set[str]:
    """The arrays a lowered kernel's ``source`` stores tiles into that tileiras may store through TMA (a
    ``ct.store`` without ``allow_tma=False``)."""
    return {m.group(1) for m in re.finditer(r"ct\.store\((\w+), index=.*", source)
            if "allow_tma=False" not in m.group(0)}


def as_view(t: Any, shape: Sequence[int], strides: Sequence[int]) -> Any:
    """The view of torch tensor or numpy array ``t`` (no copy)."""
    if callable(getattr(t, "as_strided", None)) and callable(getattr(t, "data_ptr", None)):  # torch
        return t.as_strided(tuple(shape), tuple(strides))
    import numpy as np

    return np.lib.stride_tricks.as_strided(t, shape=tuple(shape), strides=tuple(s * t.itemsize for s in strides))
