"""`x.slice(axis, start, stop)`: a view of an array restricted along one axis, made inside the kernel (row
`array-slice`).

cuTile Python (`_ir/ops.py` `array_slice_impl`) makes no copy: the view's base pointer is the array's moved by
`start * stride[axis]` (an i32 `muli`, widened with a signed `exti` to i64, then `offset`), its extent along the axis
is `stop - start`, every other extent and every stride is the array's. A Tile IR tensor view of it is made where it
is loaded or stored (`make_tensor_view`, each dynamic extent and stride stated non-negative; its divisibility pass
states the pointer's alignment). The port writes the same ops with cutile's own pieces: `get_tensor_base(x)
.offset_tile(..)` and `unsafe { make_tensor_view(..) }` — the strides come in as entry parameters the launcher fills
(`x_stride0: i32`, as for strided gathers), since a cutile 0.3.1 kernel cannot read a tensor's strides. The view is
then an array like any other: `ct.load` / `ct.store` / `ct.num_tiles` / `.shape[k]` on it, slices of it.
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass

from ..astwalk import walk_nodes
from ..spec import signature as sigmod
from .values import ELEMENT_BYTES, RUST_DTYPES, Scalar, Tile


@dataclass
class Slice:
    name: str
    base: str                   # the array (parameter or slice) it is cut from
    root: str                   # the array parameter whose memory it views
    axis: int
    start: ast.AST
    stop: ast.AST
    node: ast.Call
    sig: sigmod.ArraySig        # the view as an array: the root's dtype and strides, its own extents
    materialized: bool = False  # loaded or stored: a Tile IR tensor view is made of it
    stored: bool = False
    extents: tuple[str, ...] = ()   # Rust code of `name.shape[k]`, set when it is emitted
    base_ptr: str = ""              # the Rust name of its base pointer, set when it is emitted
    ptr_div: int = 1                # the divisibility (bytes) cuTile Python's dataflow knows of that pointer


def slice_call(node: ast.AST) -> bool:
    """`NAME.slice(..)`."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "slice" and \
        isinstance(node.func.value, ast.Name)


def _slice_args(node: ast.Call) -> dict[str, ast.AST] | None:
    names = ("axis", "start", "stop")
    if len(node.args) > 3 or any(k.arg not in names for k in node.keywords):
        return None
    args = dict(zip(names, node.args)) | {k.arg: k.value for k in node.keywords}
    return args if set(args) == set(names) else None


def find_slices(em) -> dict[str, Slice]:
    """Every `name = x.slice(axis, start, stop)` of the kernel (x an array parameter or another slice), in source
    order; each view is registered with the emitter as an array (``em.params``). What cannot be carried is refused
    with its location."""
    found: dict[str, Slice] = {}
    assigns = sorted((n for n in walk_nodes(em.fn) if isinstance(n, ast.Assign) and slice_call(n.value)),
                     key=lambda n: (n.lineno, n.col_offset))
    for st in assigns:
        call = st.value
        base = call.func.value.id
        base_sig = em.params.get(base)
        if not isinstance(base_sig, sigmod.ArraySig):
            continue   # not an array's: expr() says what it is
        if len(st.targets) != 1 or not isinstance(st.targets[0], ast.Name):
            raise em.refuse(st, "array-slice", "a slice bound to other than one name")
        name = st.targets[0].id
        if em.assign_counts.get(name) != 1 or name in em.params:
            raise em.refuse(st, "array-slice", f"`{name}` bound to a slice and assigned again (a view is bound once)")
        args = _slice_args(call)
        if args is None:
            raise em.refuse(call, "array-slice", f"`{em.text(call)}`: x.slice(axis, start, stop) expected")
        ok, axis = em.const_value(args["axis"])
        if not ok or not isinstance(axis, int) or isinstance(axis, bool) or not -base_sig.rank <= axis < base_sig.rank:
            raise em.refuse(args["axis"], "array-slice", f"axis={em.text(args['axis'])} is not a constant axis of "
                                                         f"{base} (rank {base_sig.rank})")
        axis %= base_sig.rank
        root = found[base].root if base in found else base
        shape = list(base_sig.shape)
        (ok_a, a), (ok_b, b) = em.const_value(args["start"]), em.const_value(args["stop"])
        static = ok_a and ok_b and all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b))
        if static and not 0 <= a <= b:
            raise em.refuse(call, "array-slice", f"start={a}, stop={b}: cuTile Python asks 0 <= start <= stop")
        shape[axis] = b - a if static else None
        shape_div = list(base_sig.shape_div)
        shape_div[axis] = 1
        sig = sigmod.ArraySig(base_sig.dtype, tuple(shape), base_sig.strides, base_sig.index_i64,
                              tuple(shape_div), base_sig.stride_div, 1, base_sig.may_alias)
        found[name] = Slice(name, base, root, axis, args["start"], args["stop"], call, sig)
        em.params[name] = sig
    if not found:
        return found
    # what each view is used for, and what else reads or writes the memory of a view that is stored
    uses: dict[str, list[tuple[str, ast.Call]]] = {}
    for node in walk_nodes(em.fn):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name) and \
                (op := em.ct(node.func)) is not None:
            uses.setdefault(node.args[0].id, []).append((op, node))
    for name, s in found.items():
        for op, node in uses.get(name, []):
            if op in ("load", "store", "num_tiles"):
                s.materialized = True
                s.stored |= op == "store"
            elif op in ("gather", "scatter") or op.startswith("atomic"):
                raise em.refuse(node, "array-slice", f"ct.{op} on the slice {name}: a pointer access through a view "
                                                     "made in the kernel is not carried yet (load and store it as "
                                                     "tiles, or gather from the array itself)")
    for name, s in found.items():
        if not s.stored:
            continue
        same_memory = {s.root} | {n for n, o in found.items() if o.root == s.root}
        others = [(n, op, node) for n in sorted(same_memory - {name}) for op, node in uses.get(n, [])
                  if op in ("load", "store", "gather", "scatter") or op.startswith("atomic")]
        if others:
            n, op, node = others[0]
            raise em.refuse(node, "array-slice", f"ct.{op} on {n} while {name}, a slice of the same array "
                                                 f"{s.root}, is stored: cuTile Python orders the accesses of one "
                                                 "array by one token; the port's views are ordered each by its own")
    return found


def stride_divisor(sig: sigmod.ArraySig, axis: int) -> int:
    """What divides an array's element stride along ``axis``: its static value, else its divisibility fact."""
    stride = (sig.strides or (None,) * sig.rank)[axis]
    return abs(stride) if stride is not None else (sig.stride_div or (1,) * sig.rank)[axis]


def int_divisor(em, node: ast.AST, depth: int = 0) -> int:
    """The divisor cuTile Python's dataflow analysis knows of an integer scalar (`_passes/dataflow_analysis.py`):
    a constant's value, a product's product, a sum's gcd, an array's extent its divisibility fact; 1 for what it
    knows nothing of (a block id, a loaded value, a scalar argument). 0 stands for the constant 0."""
    if depth > 16:
        return 1
    ok, value = em.const_value(node)
    if ok and isinstance(value, int) and not isinstance(value, bool):
        return abs(value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add, ast.Sub)):
        a, b = int_divisor(em, node.left, depth + 1), int_divisor(em, node.right, depth + 1)
        return a * b if isinstance(node.op, ast.Mult) else math.gcd(a, b)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
            and isinstance(node.value.value, ast.Name) and isinstance(sig := em.params.get(node.value.value.id),
                                                                      sigmod.ArraySig):
        k = em._int(node.slice)
        s = em.slices.get(node.value.value.id)
        if k is None or not 0 <= k < sig.rank:
            return 1
        if s is not None and k == s.axis:
            return math.gcd(int_divisor(em, s.stop, depth + 1), int_divisor(em, s.start, depth + 1))
        return sig.shape[k] if sig.shape[k] is not None else sig.shape_div[k]
    if isinstance(node, ast.Name) and em.assign_counts.get(node.id) == 1 and node.id not in em.params:
        value = next((a.value for a in walk_nodes(em.fn) if isinstance(a, ast.Assign) and len(a.targets) == 1 and
                      isinstance(a.targets[0], ast.Name) and a.targets[0].id == node.id), None)
        return int_divisor(em, value, depth + 1) if value is not None else 1
    return 1


def _scalar(em, node: ast.AST, name: str, what: str, indent: str) -> str:
    """A slice bound as an i32 scalar the Rust can read twice: a name or literal as it is, anything else bound first
    (cuTile Python computes it once); a 0-d i32 tile (`ct.load(.., shape=())`) is its value."""
    code, ty = em.expr(node)
    if ty == Tile("i32", ()):
        code, ty = f"tile_to_scalar::<i32, i32>({code})", Scalar("i32")
    if ty != Scalar("i32"):
        raise em.refuse(node, "array-slice", f"{what}={em.text(node)} is not an i32 integer (a 64-bit bound is not "
                                             "carried)")
    if code.isidentifier() or code.removesuffix("i32").isdigit():
        return code
    bound = em.fresh(f"{name}_{what}")
    em.body.append(f"{indent}let {bound}: i32 = {code};")
    return bound


def emit_slice(em, st: ast.Assign, indent: str) -> None:
    """The Rust of `name = base.slice(axis, start, stop)`: its bounds, its base pointer and (where it is loaded or
    stored) its tensor view, as cuTile Python computes them."""
    s: Slice = em.slices[st.targets[0].id]
    em.need(st, "array-slice", "x.slice(axis, start, stop)")
    name, base, axis = s.name, s.base, s.axis
    base_sig, root_sig = em.params[base], em.params[s.root]
    elem = RUST_DTYPES.get(root_sig.dtype)
    if elem is None:
        raise em.refuse(st, "array-slice", f"a slice of a {root_sig.dtype} array")
    start = _scalar(em, s.start, name, "start", indent)
    stop = _scalar(em, s.stop, name, "stop", indent)
    strides = root_sig.strides or (None,) * root_sig.rank
    base_s = em.slices.get(base)
    base_extents = base_s.extents if base_s else tuple(
        f"{base}.shape()[{k}]" for k in range(base_sig.rank))
    b = em.body
    b.append(f"{indent}// `{em.text(st)}`: a view of {base}'s elements {em.text(s.start)}..{em.text(s.stop)} along axis "
             f"{axis}, no copy: {base}'s base pointer moved by {em.text(s.start)} times its stride there, as cuTile "
             "Python computes it")
    if s.sig.shape[axis] is not None:
        length = f"{s.sig.shape[axis]}i32"
    else:   # (cuTile Python reads the view's extent as the value it states non-negative: `assume bounded<0, ?>`)
        length = f"{name}_len"
        b.append(f"{indent}// SAFETY: {em.text(s.start)} <= {em.text(s.stop)} is Array.slice's contract: the extent is "
                 "non-negative, as cuTile Python assumes.")
        b.append(f"{indent}let {length}: i32 = unsafe {{ assume_bounds_lower::<_, 0>({stop} - {start}) }};")
        em.unsafe_site(st, f"assume on the extent of the slice {name}",
                       "cutile states facts about a value only through unsafe assume ops",
                       f"{em.text(s.start)} <= {em.text(s.stop)} (Array.slice's contract)")
    s.extents = tuple(length if k == axis else e for k, e in enumerate(base_extents))
    if not s.materialized and not any(o.base == name for o in em.slices.values()):
        return   # (only its extents are read: no pointer to move)
    stride = f"{strides[axis]}i32" if strides[axis] is not None else em.stride_param(s.root, axis)
    b.append(f"{indent}let {name}_offset: Tile<i32, {{ [] }}> = scalar_to_tile({start} * {stride});")
    b.append(f"{indent}let {name}_offset: Tile<i64, {{ [] }}> = exti({name}_offset);")
    s.base_ptr = f"{name}_base"
    source = base_s.base_ptr if base_s else f"get_tensor_base({base})"
    b.append(f"{indent}let {s.base_ptr}: PointerTile<*mut {elem}, {{ [] }}> = {source}.offset_tile({name}_offset);")
    # the pointer's divisibility as cuTile Python's dataflow analysis tracks it through the offset (in bytes)
    offset_div = int_divisor(em, s.start) * stride_divisor(root_sig, axis) * ELEMENT_BYTES.get(root_sig.dtype, 1)
    s.ptr_div = math.gcd(base_s.ptr_div if base_s else root_sig.base_align, offset_div)
    if not s.materialized:
        return
    # (its divisibility pass states the largest power of two, at most 1024, of a view's pointer)
    div = min(s.ptr_div & -s.ptr_div, 1024)
    if div > 1:
        held = f"{base}'s base is {root_sig.base_align}-byte aligned (a fact of this launch)" if not base_s else \
            f"{base}'s base is a multiple of {base_s.ptr_div} bytes (above)"
        b.append(f"{indent}// SAFETY: {held} and the offset a multiple of {div} bytes: the view's base is {div}-byte "
                 "aligned, as cuTile Python states it.")
        b.append(f"{indent}let {s.base_ptr}: PointerTile<*mut {elem}, {{ [] }}> = unsafe {{ assume_div_by::<_, "
                 f"{div}>({s.base_ptr}) }};")
        em.unsafe_site(st, f"assume on the base of the slice {name}",
                       "cutile states facts about a value only through unsafe assume ops",
                       f"{s.root}'s base is {root_sig.base_align}-byte aligned (checked at "
                       "launch like every specialization fact)")
    rank = root_sig.rank
    extents = ", ".join(str(d) if d is not None else "-1" for d in s.sig.shape)
    dims = ", ".join(s.extents[k] for k in range(rank) if s.sig.shape[k] is None)
    static_strides = ", ".join(str(d) if d is not None else "-1" for d in strides)
    dyn = ", ".join(em.stride_param(s.root, k) for k in range(rank) if strides[k] is None)
    b.append(f"{indent}let {name}_shape: Shape<{{ [{extents}] }}> = Shape::<{{ [{extents}] }}> {{ dims: &[{dims}] }};")
    b.append(f"{indent}let {name}_strides: Array<{{ [{static_strides}] }}> = Array::<{{ [{static_strides}] }}> "
             f"{{ dims: &[{dyn}] }};")
    token = f"get_tensor_token({s.root})"   # (the array's: a view of a view may never be made itself)
    b.append(f"{indent}// SAFETY: the view lies inside {base} when 0 <= {em.text(s.start)} <= {em.text(s.stop)} <= "
             f"{base}.shape[{axis}] (Array.slice's contract, which cuTile Python takes as given too).")
    b.append(f"{indent}let {name}: Tensor<{elem}, {{ [{extents}] }}> = unsafe {{ make_tensor_view({s.base_ptr}, "
             f"{name}_shape, {name}_strides, {token}) }};")
    em.unsafe_site(st, f"make_tensor_view of the slice {name}",
                   "cutile builds a tensor view of a pointer only through an unsafe op",
                   f"0 <= {em.text(s.start)} <= {em.text(s.stop)} <= "
                   f"{base}.shape[{axis}] (Array.slice's contract)")
