"""Lists of arrays (`List[Array]` parameters, a grouped GEMM's matrices): row `array-list`.

cuTile Python passes a list as two entry arguments: a pointer to its items' descriptors and their count
(`_ir/type.py` ListTy). Each descriptor is 1 + 2 * rank 64-bit words — the item's base address, its extents, its
strides — and the list is viewed as a `[count, words]` i64 tensor whose tiles are one descriptor wide, rounded up to a
power of two (`_ir/ops.py` MakeListView). `x = As[i]` loads descriptor i with no bounds check and no token (what is
past the words is never read), takes each word out (`extract`, `reshape` to a scalar), narrows extents and strides to
the array's index type (`trunci`), turns the address into a pointer (`int_to_ptr`) and makes a tensor view of it
(GetArrayListItem), stating what the list's element signature says of every item (`assume`), as for an array
parameter. `len(As)` is the count.

The port writes the same ops with cutile's own pieces: the entry takes `As: *mut i64, As_len: i32` (so it is an
`unsafe fn`), and `x` becomes a `Tensor` made in the kernel, loaded and stored as a slice is (slices.py). All items
of one list share one memory token, as they share one alias set in cuTile Python: a list whose items are stored
carries `zz_<list>_token` through the kernel, each store waiting on the one before.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from ..astwalk import statement_blocks, walk_nodes
from ..spec import signature as sigmod
from .stores import store_unchecked
from .values import RUST_DTYPES, Scalar, Tile

#: a list's items' memory ops the port carries; the rest is refused with the reason
ITEM_OPS = ("load", "store", "num_tiles")


@dataclass
class ListItem:
    name: str
    lst: str                    # the list parameter it is taken from
    index: ast.AST
    node: ast.Assign
    sig: sigmod.ArraySig        # the list's element signature
    extents: tuple[str, ...] = ()   # Rust code of `name.shape[k]`, set when it is emitted
    dims: str = ""                  # its Tensor type's shape and strides, the Rust of its Shape and Array values
    static_strides: str = ""
    shape_code: str = ""
    strides_code: str = ""


def words(rank: int) -> int:
    """Descriptor words of an item of rank ``rank``: base address, extents, strides."""
    return 1 + 2 * rank


def tile_words(rank: int) -> int:
    """The width of the tile cuTile Python loads a descriptor with: its words rounded up to a power of two."""
    return 1 << (words(rank) - 1).bit_length()


def lists_of(em) -> dict[str, sigmod.ListSig]:
    return {name: p for name, p in em.sig.params if isinstance(p, sigmod.ListSig)}


def hoist_inline_items(em, lists: dict) -> None:
    """`acc += ct.load(L[i], ..)` / `ct.store(L[i], ..)`: an item used in place, as the array a memory op takes, is
    bound to a name of its own by a statement just before the one it is in (`L_item1 = L[i]`) — cuTile Python takes
    the item (GetArrayListItem) where the expression reads it, before the op that uses it, in the same block."""
    count = 0
    for owner, part, block in statement_blocks(em.fn):
        out: list[ast.stmt] = []
        for st in block:
            inner = [n for n in walk_nodes(st) if isinstance(n, ast.Call) and n.args and
                     isinstance(n.args[0], ast.Subscript) and isinstance(n.args[0].value, ast.Name) and
                     n.args[0].value.id in lists and em.ct(n.func) in ITEM_OPS and
                     not any(n is m for sub in getattr(st, "body", []) + getattr(st, "orelse", [])
                             for m in walk_nodes(sub))   # (those in a nested block: hoisted within it)
                     and not (isinstance(st, ast.While) and any(n is m for m in walk_nodes(st.test)))]
            # (a `while` test is read every trip: left in place, and refused as before)
            for call in inner:
                count += 1
                name = f"{call.args[0].value.id}_item{count}"
                while name in em.assign_counts:
                    count += 1
                    name = f"{call.args[0].value.id}_item{count}"
                sub = call.args[0]
                out.append(ast.copy_location(ast.Assign([ast.copy_location(ast.Name(name, ast.Store()), sub)],
                                                        sub), sub))
                call.args[0] = ast.copy_location(ast.Name(name, ast.Load()), sub)
                em.assign_counts[name] = 1
            out.append(st)
        setattr(owner, part, out)


def find_list_items(em) -> dict[str, ListItem]:
    """Every `name = L[i]` of the kernel (L a list parameter), each registered with the emitter as an array
    (``em.params``); an item used in place by a memory op is bound to a name first (``hoist_inline_items``). A list
    used otherwise than `x = L[i]` and `len(L)`, an item bound twice, and memory ops the port does not carry on items
    are refused with their location."""
    lists = lists_of(em)
    if not lists:
        return {}
    hoist_inline_items(em, lists)
    parents = {id(c): p for p in walk_nodes(em.fn) for c in ast.iter_child_nodes(p)}
    found: dict[str, ListItem] = {}
    for node in walk_nodes(em.fn):
        if not (isinstance(node, ast.Name) and node.id in lists and isinstance(node.ctx, ast.Load)):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len" and \
                parent.args == [node]:
            continue
        st = parents.get(id(parent)) if isinstance(parent, ast.Subscript) and parent.value is node else None
        if not (isinstance(st, ast.Assign) and st.value is parent and len(st.targets) == 1 and
                isinstance(st.targets[0], ast.Name)):
            raise em.refuse(parent or node, "array-list", f"the list {node.id} used as `{em.text(parent or node)}`: "
                                                          f"its items are taken one at a time, `x = {node.id}[i]`, "
                                                          f"and its length is `len({node.id})`")
        name = st.targets[0].id
        if em.assign_counts.get(name) != 1 or name in em.params:
            raise em.refuse(st, "array-list", f"`{name}` bound to an item of {node.id} and assigned again (an item "
                                              "is bound once)")
        found[name] = ListItem(name, node.id, parent.slice, st, lists[node.id].element)
        em.params[name] = lists[node.id].element
    uses: dict[str, set[str]] = {}
    for node in walk_nodes(em.fn):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name) and \
                node.args[0].id in found and (op := em.ct(node.func)) is not None:
            if op not in ITEM_OPS:
                raise em.refuse(node, "array-list", f"ct.{op} on {node.args[0].id}, an item of the list "
                                                    f"{found[node.args[0].id].lst}: only tile loads and stores of "
                                                    "list items are carried")
            uses.setdefault(found[node.args[0].id].lst, set()).add(op)
    for lst, ops in uses.items():
        if {"load", "store"} <= ops:
            item = next(i for i in found.values() if i.lst == lst)
            raise em.refuse(item.node, "array-list", f"items of {lst} are both loaded and stored: cuTile Python "
                                                     "orders them by the list's two tokens, which the port does not "
                                                     "carry yet (read from one list, write to another)")
    em.stored_lists = {lst for lst, ops in uses.items() if "store" in ops}
    return found


def entry_params(name: str) -> list[str]:
    """The Rust entry parameters of the list ``name``: its descriptors' address and their count."""
    return [f"{name}: *mut i64", f"{name}_len: i32"]


def emit_prologue(em) -> None:
    """Each list's descriptor table as cuTile Python views it (a `[count, words]` i64 tensor, tiles one descriptor
    wide) and, for a list whose items are stored, the token its stores carry."""
    for name, p in lists_of(em).items():
        if not any(i.lst == name for i in em.list_items.values()):
            continue
        w, t = words(p.element.rank), tile_words(p.element.rank)
        b = em.body
        b.append(f"// {name}: a list of {p.element.dtype} arrays of rank {p.element.rank}, passed as {name}_len "
                 f"descriptors of {w} 64-bit words (base address, extents, strides) at {name}, as cuTile Python "
                 "passes it")
        b.append(f"let {name}_table_shape: Shape<{{ [-1, {w}] }}> = Shape::<{{ [-1, {w}] }}> {{ dims: &[{name}_len] }};")
        b.append(f"let {name}_table_strides: Array<{{ [{w}, 1] }}> = Array::<{{ [{w}, 1] }}> {{ dims: &[] }};")
        b.append(f"// SAFETY: {name} points to {name}_len descriptors of {w} words (the list's launch contract).")
        b.append(f"let {name}_table: Tensor<i64, {{ [-1, {w}] }}> = unsafe {{ make_tensor_view(pointer_to_tile({name}), "
                 f"{name}_table_shape, {name}_table_strides, new_token_unordered()) }};")
        b.append(f"// SAFETY: the descriptor table is only read, one descriptor per tile ({t} words wide, the words "
                 "past a descriptor never read), as cuTile Python views it.")
        b.append(f"let {name}_items: PartitionMut<i64, {{ [1, {t}] }}> = unsafe {{ {name}_table.partition_full_mut("
                 f"shape![1, {t}]) }};")
        em.unsafe_site(em.fn, f"the descriptor table of the list {name}",
                       "cutile makes a tensor of a pointer only through unsafe ops",
                       f"{name} points to {name}_len item descriptors, as cuTile Python's "
                       "launcher writes them")
        if name in em.stored_lists:
            b.append(f"// the order of the stores into {name}'s items, carried through the kernel as cuTile Python "
                     "carries the list's token")
            b.append(f"let mut zz_{name}_token: Token = new_token_unordered();")


def emit_item(em, st: ast.Assign, indent: str) -> None:
    """The Rust of `name = L[i]`: descriptor i loaded, its words taken out, and a tensor view made of them."""
    item: ListItem = em.list_items[st.targets[0].id]
    em.need(st, "array-list", "x = L[i] (an item of a list of arrays)")
    name, lst, sig = item.name, item.lst, item.sig
    elem = RUST_DTYPES.get(sig.dtype)
    if elem is None:
        raise em.refuse(st, "array-list", f"a list of {sig.dtype} arrays")
    if sig.index_i64:
        raise em.refuse(st, "array-list", "a list of arrays with 64-bit indices (cutile 0.3.1's tensors index with "
                                          "i32)")
    code, ty = em.expr(item.index)
    if ty == Tile("i32", ()):
        code, ty = f"tile_to_scalar::<i32, i32>({code})", Scalar("i32")
    if ty != Scalar("i32"):
        raise em.refuse(item.index, "array-list", f"the index {em.text(item.index)} is not an i32 integer")
    if not code.isidentifier() and not code.removesuffix("i32").isdigit():
        bound = em.fresh(f"{name}_index")
        em.body.append(f"{indent}let {bound}: i32 = {code};")
        code = bound
    if code.isdigit():
        code += "i32"
    rank, t = sig.rank, tile_words(sig.rank)
    b = em.body
    b.append(f"{indent}// `{em.text(st)}`: descriptor {em.text(item.index)} of {lst}, read unchecked and without a "
             "token as cuTile Python reads it")
    b.append(f"{indent}// SAFETY: {em.text(item.index)} < len({lst}) (the kernel's own contract, as in the source).")
    b.append(f"{indent}let {name}_words: Tile<i64, {{ [1, {t}] }}> = unsafe {{ load_view_tko_mut(&{lst}_items, "
             f"[{code}, 0i32], ordering::Weak, scope::TileBlock, None, tma::Enabled) }};")
    em.unsafe_site(st, f"descriptor load of {name}",
                   "cutile reads a view the kernel made only through unsafe ops",
                   f"{em.text(item.index)} < len({lst})")
    strides = sig.strides or (None,) * rank
    ws = []
    for k in range(words(rank)):   # (the word of a static stride is not read: cuTile Python's is dead too)
        w = f"{name}_w{k}"
        ws.append(w)
        if k > rank and strides[k - 1 - rank] is not None:
            continue
        b.append(f"{indent}let {w}: Tile<i64, {{ [1, 1] }}> = extract({name}_words, [scalar_to_tile(0i32), "
                 f"scalar_to_tile({k}i32)]);")
        b.append(f"{indent}let {w}: Tile<i64, {{ [] }}> = {w}.reshape(shape![]);")
    em.declared_ops.setdefault("trunci_wrapping", set())
    dyn_extents, dyn_strides, extents = [], [], []
    for k in range(rank):
        extent = f"{name}_extent{k}"
        facts = ["assume_bounds_lower::<_, 0>"] + ([f"assume_div_by::<_, {sig.shape_div[k]}>"]
                                                    if sig.shape_div[k] > 1 else [])
        _narrowed(em, extent, ws[1 + k], facts, indent)
        extents.append(extent)
        dyn_extents.append(extent)
        if strides[k] is None:
            stride = f"{name}_stride{k}"
            div = (sig.stride_div or (1,) * rank)[k]
            _narrowed(em, stride, ws[1 + rank + k], ["assume_bounds_lower::<_, 0>"] +
                      ([f"assume_div_by::<_, {div}>"] if div > 1 else []), indent)
            dyn_strides.append(stride)
    item.extents = tuple(extents)
    b.append(f"{indent}let {name}_base: PointerTile<*mut {elem}, {{ [] }}> = int_to_ptr({ws[0]});")
    if sig.base_align > 1:
        b.append(f"{indent}// SAFETY: every item of {lst} is {sig.base_align}-byte aligned (its element signature).")
        b.append(f"{indent}let {name}_base: PointerTile<*mut {elem}, {{ [] }}> = unsafe {{ assume_div_by::<_, "
                 f"{sig.base_align}>({name}_base) }};")
    dims = ", ".join(["-1"] * rank)
    static_strides = ", ".join(str(s) if s is not None else "-1" for s in strides)
    item.dims, item.static_strides = dims, static_strides
    item.shape_code = f"Shape::<{{ [{dims}] }}> {{ dims: &[{', '.join(dyn_extents)}] }}"
    item.strides_code = f"Array::<{{ [{static_strides}] }}> {{ dims: &[{', '.join(dyn_strides)}] }}"
    b.append(f"{indent}let {name}_shape: Shape<{{ [{dims}] }}> = {item.shape_code};")
    b.append(f"{indent}let {name}_strides: Array<{{ [{static_strides}] }}> = {item.strides_code};")
    token = f"zz_{lst}_token" if lst in em.stored_lists else "new_token_unordered()"
    b.append(f"{indent}// SAFETY: the descriptor describes a live {sig.dtype} array meeting {lst}'s element signature "
             "(the facts stated above), as cuTile Python's launcher wrote it.")
    b.append(f"{indent}let {name}: Tensor<{elem}, {{ [{dims}] }}> = unsafe {{ make_tensor_view({name}_base, "
             f"{name}_shape, {name}_strides, {token}) }};")
    em.unsafe_site(st, f"assumes on and make_tensor_view of {name}, an item of {lst}",
                   "cutile states facts about a value and makes a tensor of a pointer only through "
                   "unsafe ops",
                   f"the item meets {lst}'s element signature "
                   f"({sig.text()}), checked at launch like every specialization fact")


def _narrowed(em, name: str, word: str, facts: list[str], indent: str) -> None:
    """A descriptor word narrowed to i32 (`trunci`, as cuTile Python narrows it) with the facts it states."""
    em.body.append(f"{indent}let {name}: Tile<i32, {{ [] }}> = trunci_wrapping({word}, overflow::None);")
    value = f"tile_to_scalar::<i32, i32>({name})"
    for fact in facts:
        value = f"{fact}({value})"
    em.body.append(f"{indent}// SAFETY: what the list's element signature states of every item's {name.rsplit('_', 1)[1]}.")
    em.body.append(f"{indent}let {name}: i32 = unsafe {{ {value} }};")


def store_item(em, call: ast.Call, arr: str, index: ast.AST | None, tile_node: ast.AST, indent: str,
               hints: tuple[str, str]) -> None:
    """A store into a list's item: through the item's full partition, unchecked, on the list's token (each store
    after the one before), as cuTile Python stores it."""
    item: ListItem = em.list_items[arr]
    sig = item.sig
    if not isinstance(index, ast.Tuple) or len(index.elts) != sig.rank:
        raise em.refuse(call, "array-list", f"store to {arr} at index {em.text(index)}: a tuple of {sig.rank} tile "
                                            "indices expected")
    code, ty = em.stored_value(tile_node, arr)
    if not isinstance(ty, Tile) or len(ty.shape) != sig.rank or ty.dtype != sig.dtype:
        raise em.refuse(call, "array-list", f"store of {arr}: the tile is not a rank-{sig.rank} {sig.dtype} tile")
    code = em._store_operand(arr, code, ty, hints)
    idx = em.store_indices(index, indent)
    token, dims = f"zz_{item.lst}_token", ", ".join(ty.shape)
    tiles = em.fresh(f"{arr}_tiles")
    b = em.body
    b.append(f"{indent}// {arr} viewed again on the list's last store ({token}): each store waits on the one before, "
             f"as cuTile Python orders the stores into {item.lst}'s items (the same tensor view: cutile makes a "
             "tensor's views on its own token)")
    now = em.fresh(f"{arr}_now")
    # (cutile types a Shape or Array value only from a binding: a literal in the call panics its compiler)
    b.append(f"{indent}let {now}_shape: Shape<{{ [{item.dims}] }}> = {item.shape_code};")
    b.append(f"{indent}let {now}_strides: Array<{{ [{item.static_strides}] }}> = {item.strides_code};")
    b.append(f"{indent}// SAFETY: as for {arr} above.")
    b.append(f"{indent}let {now}: Tensor<{RUST_DTYPES[sig.dtype]}, {{ [{item.dims}] }}> = unsafe {{ make_tensor_view("
             f"{arr}_base, {now}_shape, {now}_strides, {token}) }};")
    b.append(f"{indent}// SAFETY: {arr} is stored at index ({em.text(index)}) as in the source, whose launch contract "
             "says which blocks write which tiles.")
    b.append(f"{indent}let mut {tiles}: PartitionMut<{RUST_DTYPES[ty.dtype]}, {{ [{dims}] }}> = unsafe {{ "
             f"{now}.partition_full_mut(shape![{dims}]) }};")
    b.append(indent + store_unchecked(tiles, code, idx, hints))
    b.append(f"{indent}{token} = get_partition_token_mut(&{tiles});")
    em.unsafe_site(call, f"partition_full_mut + store_unchecked on {arr}, an item of {item.lst}",
                   "a store into a tensor the kernel made, at an index no safe partition states",
                   f"blocks writing one tile of {arr} write it with the same value, or only "
                   "one block writes it (the source kernel's contract)")
