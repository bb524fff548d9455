"""Tile IR ops a port declares in its own module, where cutile 0.3.1's function for the op leaves out an
attribute the op has.

cutile's core functions are declarations: `#[cuda_tile::op(name = .., params = .., static_params = ..)]` on a
body-less `fn` tells its compiler which Tile IR op a call becomes and which marker-type arguments become which
attributes. `#[cutile::module]` accepts the same declaration in any module, so where the crate's `exp(x)` emits
`cuda_tile.exp` without its `rounding_mode` the port declares `exp_rounded(x, rounding::Approx)`, the same op with
the attribute spelled out. Each entry: the function's name → its Rust declaration (one per op, emitted once per
module, before the entries that call it). The IR diff proves every call like any other op.
"""
from __future__ import annotations

import re
from typing import Callable

#: every rounding marker of `cutile::core::rounding` → the attribute value the op gets
ROUNDING_ATTR = {"NearestEven": "nearest_even", "PositiveInf": "positive_inf", "NegativeInf": "negative_inf",
                 "Zero": "zero", "Approx": "approx", "Full": "full"}


def _unary_rounded(name: str, op: str, what: str, modes: set[str]) -> str:
    mapping = ", ".join(f"{m}: rounding_mode=#cuda_tile.rounding<{ROUNDING_ATTR[m]}>" for m in sorted(modes))
    return (f"/// {what} rounded as given (cutile 0.3.1's `{op}` emits `cuda_tile.{op}` without a rounding mode).\n"
            f"#[cuda_tile::op(name = \"cuda_tile.{op}\", params = [\"x\"], static_params = [\"rounding={{{mapping}}}\"])]\n"
            "#[cuda_tile::variadic_op(N = 6)]\n"
            f"pub fn {name}<E: ElementType, const S: [i32; N], R: rounding::Mode>(x: Tile<E, S>, rounding: R) -> Tile<E, S> {{\n"
            "    unreachable!()\n"
            "}\n")


def _mma_batched(_modes: set[str]) -> str:
    return ("/// Batched tensor-core multiply-accumulate, `[B, M, K] x [B, K, N] + [B, M, N]`: cutile 0.3.1\n"
            "/// declares its `mma` compiler op for rank-2 tiles only; the op itself takes the batch dimension.\n"
            "#[cuda_tile::compiler_op(name = \"mma\")]\n"
            "pub fn mma_batched<E1: ElementType, E2: ElementType, const B: i32, const M: i32, const N: i32, "
            "const K: i32>(\n"
            "    lhs: Tile<E1, { [B, M, K] }>,\n"
            "    rhs: Tile<E1, { [B, K, N] }>,\n"
            "    acc: Tile<E2, { [B, M, N] }>,\n"
            ") -> Tile<E2, { [B, M, N] }> {\n"
            "    unreachable!()\n"
            "}\n")


def _trunci_wrapping(_modes: set[str]) -> str:
    return ("/// Integer truncation that wraps, as cuTile Python's narrowing `astype` (cutile 0.3.1's\n"
            "/// `trunci(x, overflow::None)` leaves out the op's `overflow` attribute, which its bytecode writer\n"
            "/// requires; here it is spelled: `none`).\n"
            "#[cuda_tile::op(name = \"cuda_tile.trunci\", params = [\"from\"], "
            "static_params = [\"overflow={None: overflow=#cuda_tile.overflow<none>}\"])]\n"
            "#[cuda_tile::variadic_op(N = 6)]\n"
            "pub fn trunci_wrapping<EIn: ElementType, EOut: ElementType, const S: [i32; N], O: overflow::Mode>(\n"
            "    from: Tile<EIn, S>,\n"
            "    overflow: O,\n"
            ") -> Tile<EOut, S> {\n"
            "    unreachable!()\n"
            "}\n")


def _wrapping(op: str, what: str) -> Callable[[set[str]], str]:
    """The declaration of the integer op ``op`` with its ``overflow`` attribute spelled (``what``: the Python it
    is, for the doc comment)."""
    def declaration(_modes: set[str]) -> str:
        return (f"/// {what} that wraps, as cuTile Python's (cutile 0.3.1's operator knows no 16-bit integer tile\n"
                f"/// and its `{op}(a, b, overflow::None)` leaves out the op's `overflow` attribute, which its\n"
                "/// bytecode writer requires; here it is spelled: `none`).\n"
                f"#[cuda_tile::op(name = \"cuda_tile.{op}\", params = [\"lhs\", \"rhs\"], "
                "static_params = [\"overflow={None: overflow=#cuda_tile.overflow<none>}\"])]\n"
                "#[cuda_tile::variadic_op(N = 6)]\n"
                f"pub fn {op}_wrapping<E: ElementType, const S: [i32; N], O: overflow::Mode>(\n"
                "    lhs: Tile<E, S>,\n"
                "    rhs: Tile<E, S>,\n"
                "    overflow: O,\n"
                ") -> Tile<E, S> {\n"
                "    unreachable!()\n"
                "}\n")
    return declaration


#: name → (the declaration for the rounding markers the module uses); `rustgen.module.render` emits those an
#: entry's `Emitted.ops` names (function name → markers used)
def _atomic_red_view(_modes: set[str]) -> str:
    return ("/// View-based atomic reduction, `view[index] := mode(view[index], value)`: cutile 0.3.1 declares it in its\n"
            "/// `tileir` module, the port's module imports `core` only: declared here the same way.\n"
            "#[cuda_tile::op(name = \"cuda_tile.atomic_red_view_tko\", params = [\"view\", \"value\", \"index\"])]\n"
            "#[cuda_tile::variadic_op(N = 6)]\n"
            "pub unsafe fn atomic_red_view_tko<E: ElementType, const D: [i32; N], M: atomic::Mode, "
            "O: ordering::AtomicMode, Sc: scope::Mode>(\n"
            "    view: &mut PartitionMut<E, D>,\n"
            "    value: Tile<E, D>,\n"
            "    index: [i32; N],\n"
            "    mode: M,\n"
            "    memory_ordering: O,\n"
            "    memory_scope: Sc,\n"
            ") -> Token {\n"
            "    unreachable!()\n"
            "}\n")


def _load_ptr_padded(_modes: set[str]) -> str:
    return ("/// Masked pointer load whose masked lanes read a padding tile of the result's shape, as cuTile Python\n"
            "/// pads a gather (cutile 0.3.1's `load_ptr_tko` takes a scalar padding and reshapes it to rank 1\n"
            "/// before broadcasting it, which fails verification for a rank-2+ result).\n"
            "#[cuda_tile::op(name = \"cuda_tile.load_ptr_tko\", params = [\"source\"])]\n"
            "#[cuda_tile::variadic_op(N = 6)]\n"
            "pub unsafe fn load_ptr_padded<E: ElementType, P: PointerTo<E>, const S: [i32; N], O: ordering::LoadMode, "
            "Sc: scope::Mode, const CYCLES: u32>(\n"
            "    source: PointerTile<P, S>,\n"
            "    memory_ordering: O,\n"
            "    memory_scope: Option<Sc>,\n"
            "    mask: Option<Tile<bool, S>>,\n"
            "    padding_value: Option<Tile<E, S>>,\n"
            "    token: Option<Token>,\n"
            "    latency: Latency<CYCLES>,\n"
            ") -> (Tile<E, S>, Token) {\n"
            "    unreachable!()\n"
            "}\n")


def _weak_view_load(fn: str, view: str, what: str, generics: str, view_type: str, index: str) -> str:
    """A view's load declared weak as cuTile Python's: cutile 0.3.1's `<view>_tko` load bounds its ordering by
    `AtomicMode`, which `Weak` is not; the same op, its ordering a load's (`LoadMode`)."""
    return ("use cutile::tileir::*;\n\n"
            f"/// Load of a {view} ({what}), weak as cuTile Python's: cutile 0.3.1's\n"
            f"/// `load_{view}_tko` bounds its ordering by `AtomicMode`, which `Weak` is not; the same\n"
            "/// op, its ordering a load's (`LoadMode`).\n"
            f"#[cuda_tile::op(name = \"cuda_tile.load_{view}_tko\")]\n"
            "#[cuda_tile::variadic_op(N = 6)]\n"
            f"pub unsafe fn {fn}<E: ElementType, const TILE_SHAPE: [i32; N], "
            f"{generics}, O: ordering::LoadMode, Sc: scope::Mode>(\n"
            f"    view: &{view_type},\n"
            f"{index}"
            "    token: Token,\n"
            "    memory_ordering: O,\n"
            "    memory_scope: Sc,\n"
            ") -> (Tile<E, TILE_SHAPE>, Token) {\n"
            "    unreachable!()\n"
            "}\n")


def _load_gather_scatter_view_weak(_modes: set[str]) -> str:
    return _weak_view_load("load_gather_scatter_view_weak", "gather_scatter_view", "ct.load_advanced_indexing",
                           "const SPARSE_DIM: i32, const SPARSE_IDX_SIZE: i32",
                           "GatherScatterView<'_, E, TILE_SHAPE, SPARSE_DIM>",
                           "    sparse_index: Tile<i32, { [SPARSE_IDX_SIZE] }>,\n    dense_index: i32,\n")


def _store_gather_scatter_view_weak(_modes: set[str]) -> str:
    return ("use cutile::tileir::*;\n\n"
            "/// Store into a gather_scatter_view (ct.store_advanced_indexing), weak as cuTile Python's: cutile\n"
            "/// 0.3.1 declares the view and its load, not its store; the same Tile IR `store_view_tko` cuTile\n"
            "/// Python emits, its operands the tile, the view, the index (the index tile and the dense index:\n"
            "/// one operand segment) and the token.\n"
            "#[cuda_tile::op(name = \"cuda_tile.store_view_tko\", "
            "params = [\"tile\", \"view\", \"index\", \"token\"], "
            "static_params = [\"memory_ordering={Weak: memory_ordering_semantics=0}\"], "
            "has_variadic_params = true)]\n"
            "#[cuda_tile::variadic_op(N = 6)]\n"
            "pub unsafe fn store_gather_scatter_view_weak<E: ElementType, const TILE_SHAPE: [i32; N], "
            "const SPARSE_DIM: i32, const SPARSE_IDX_SIZE: i32, O: ordering::StoreMode>(\n"
            "    tile: Tile<E, TILE_SHAPE>,\n"
            "    view: &GatherScatterView<'_, E, TILE_SHAPE, SPARSE_DIM>,\n"
            "    index: (Tile<i32, { [SPARSE_IDX_SIZE] }>, i32),\n"
            "    token: Token,\n"
            "    memory_ordering: O,\n"
            ") -> Token {\n"
            "    unreachable!()\n"
            "}\n")


def _load_strided_view_weak(_modes: set[str]) -> str:
    return _weak_view_load("load_strided_view_weak", "strided_view", "a tiled view with traversal_steps",
                           "const TRAVERSAL_STRIDES: [i32; N], const DIM_MAP: [i32; N]",
                           "StridedView<'_, E, TILE_SHAPE, TRAVERSAL_STRIDES, DIM_MAP>", "    index: [i32; N],\n")


def _make_partition_view_mut_permuted(_modes: set[str]) -> str:
    return ("/// Writable partition view with a dim map (ct.store's `order=`): cutile 0.3.1's `PartitionMut` type\n"
            "/// states no dim map (its `make_partition_view_mut` takes none), its read-only `Partition` does; the\n"
            "/// same Tile IR type, writable, with the dim map, made by the same op and stored into by the same\n"
            "/// `store_view_tko`.\n"
            "#[cuda_tile::ty(name = \"!cuda_tile.partition_view\", type_params = [\"tile\"], "
            "type_params_optional = [\"padding_value\", \"tensor_view\", \"dim_map\"], "
            "type_meta = [\"token\", \"tensor_view.shape()\"])]\n"
            "#[cuda_tile::variadic_struct(N = 6)]\n"
            "#[allow(non_camel_case_types)]\n"
            "pub struct PartitionMutPermuted<'a, E: ElementType, const D: [i32; N]> {\n"
            "    _type: ::core::marker::PhantomData<E>,\n"
            "    _tensor: ::core::marker::PhantomData<&'a mut ()>,\n"
            "}\n\n"
            "#[cuda_tile::op(name = \"cuda_tile.make_partition_view\", params = [\"tensor_view\"], "
            "output_type_params = [\"tensor_view\", \"padding_value\", \"dim_map\"], "
            "output_type_meta = [\"token\", \"tensor_view.shape()\"])]\n"
            "#[cuda_tile::variadic_op(N = 6)]\n"
            "pub unsafe fn make_partition_view_mut_permuted<'a, E: ElementType, const TENSOR_SHAPE: [i32; N], "
            "const TILE_SHAPE: [i32; N], P: padding::Mode, M: dim_map::Mode>(\n"
            "    tensor_view: &Tensor<E, TENSOR_SHAPE>,\n"
            "    tile: Shape<TILE_SHAPE>,\n"
            "    padding_value: P,\n"
            "    dim_map: M,\n"
            "    token: Token,\n"
            ") -> PartitionMutPermuted<'a, E, TILE_SHAPE> {\n"
            "    unreachable!()\n"
            "}\n\n"
            "#[cuda_tile::op(name = \"store_view_tko\", params = [\"view\", \"tile\", \"index\"])]\n"
            "#[cuda_tile::variadic_op(N = 6)]\n"
            "pub unsafe fn store_view_tko_permuted<E: ElementType, const D: [i32; N], O: ordering::StoreMode, "
            "Sc: scope::Mode, T: tma::Mode>(\n"
            "    view: &mut PartitionMutPermuted<'_, E, D>,\n"
            "    tile: Tile<E, D>,\n"
            "    index: [i32; N],\n"
            "    memory_ordering: O,\n"
            "    memory_scope: Sc,\n"
            "    latency: Option<i32>,\n"
            "    tma: T,\n"
            ") -> Token {\n"
            "    unreachable!()\n"
            "}\n")


DECLARED_OPS = {
    "mma_batched": _mma_batched,
    "exp_rounded": lambda modes: _unary_rounded("exp_rounded", "exp", "Element-wise `e^x`", modes),
    "tanh_rounded": lambda modes: _unary_rounded("tanh_rounded", "tanh", "Element-wise `tanh(x)`", modes),
    "trunci_wrapping": _trunci_wrapping,
    "shli_wrapping": _wrapping("shli", "Left shift (`<<`)"),
    "addi_wrapping": _wrapping("addi", "Integer addition (`+` of 16-bit integer tiles)"),
    "subi_wrapping": _wrapping("subi", "Integer subtraction (`-` of 16-bit integer tiles)"),
    "muli_wrapping": _wrapping("muli", "Integer multiplication (`*` of 16-bit integer tiles)"),
    "atomic_red_view_tko": _atomic_red_view,
    "load_ptr_padded": _load_ptr_padded,
    "load_gather_scatter_view_weak": _load_gather_scatter_view_weak,
    "load_strided_view_weak": _load_strided_view_weak,
    "store_gather_scatter_view_weak": _store_gather_scatter_view_weak,
    "make_partition_view_mut_permuted": _make_partition_view_mut_permuted,
}


def declarations(used: dict[str, set[str]]) -> str:
    """The declarations of the ops ``used`` (name → rounding markers), in a stable order, indented for the module
    body (rustfmt lays them out)."""
    out, imported = [], set()
    for name in sorted(used):
        lines = DECLARED_OPS[name](used[name]).splitlines()
        if lines and lines[0].startswith("use ") and lines[0] in imported:   # (one `use` of a module: once)
            lines = lines[2:] if len(lines) > 1 and not lines[1] else lines[1:]
        elif lines and lines[0].startswith("use "):
            imported.add(lines[0])
        out.append("\n" + "".join(f"    {line}".rstrip() + "\n" for line in lines))
    return "".join(out)


_GENERIC_LIST = re.compile(r"\bfn \w+<(.*?)>\(", re.S)
_GENERIC_NAME = re.compile(r"(?:^|,)\s*(?:const\s+)?([A-Za-z_]\w*)\s*:")


def unclashed(text: str, taken: set[str]) -> str:
    """The declarations ``text`` with each generic parameter of a declared op that an entry of the module also
    names (a kernel's constant `P` or `S`, a type parameter `E`) renamed `P_` (`P__`, ..): cutile 0.3.1 resolves an
    op's generics in its caller's generic scope, so `load_ptr_padded`'s type `P` beside a kernel's `const P: i32`
    panicked ("Unexpected const arg P for variadic type PointerTile"). The op's parameters are its own, so any
    fresh names will do; the entries keep theirs (port.json's variants are keyed by them). Comment lines are left
    alone."""
    names = {name for params in _GENERIC_LIST.findall(text) for name in _GENERIC_NAME.findall(params)}
    clash = names & taken
    if not clash:
        return text
    fresh = {}
    for name in sorted(clash):
        new = f"{name}_"
        while new in taken or new in names or new in fresh.values():   # (no name of the module's twice)
            new += "_"
        fresh[name] = new
    word = re.compile(r"\b(" + "|".join(map(re.escape, sorted(clash))) + r")\b")
    return "\n".join(line if line.lstrip().startswith("//") else word.sub(lambda m: fresh[m.group(1)], line)
                     for line in text.split("\n"))
