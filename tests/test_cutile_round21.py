"""cuTile Python generality, round 21 (docs/corpus.md): the tileport gaps round 20's API sweep left (its s01_mem and
s05_types kernels, build/host20/), each as a test at the emitter; each kernel re-ported and proven with the CLI."""
import ast
import textwrap

import pytest

from tileport.spec import signature as sigmod
from tileport.translate.emit import Unsupported, emit_kernel

from conftest import load_module
from kernel_text import HEADER, emit


def emit_resolved(tmp_path, body: str, sig: str, consts=("B",)):
    """The kernel ``body`` emitted at ``sig`` with its module imported, names resolved first (translate/resolve.py)
    as `tileport port` does."""
    src = tmp_path / "k.py"
    src.write_text(HEADER + textwrap.dedent(body))
    module = load_module(src, f"k21_{abs(hash(str(tmp_path)))}")
    fn = next(n for n in ast.parse(src.read_text()).body if isinstance(n, ast.FunctionDef)
              and any("kernel" in ast.unparse(d) for d in n.decorator_list))
    names = [a.arg for a in fn.args.args]
    return emit_kernel(src, fn.name, sigmod.bind(sigmod.parse(sig), names, fn.name), set(consts), {},
                       pyfunc=getattr(module, fn.name)._pyfunc)


def test_tiled_view_with_traversal_steps_loads_through_a_strided_view(tmp_path):
    """`xv = x.tiled_view((B,), traversal_steps=(B // 2,))` then `xv.load((i,))` (round 20's s01 `tview_steps`):
    refused ("a tiled view with traversal steps or other options"). cuTile Python makes a strided view
    (`make_strided_view`, traversal_strides the steps) and loads from it with a weak load_view_tko; cutile 0.3.1 has
    both (`tileir`'s make_strided_view, its strides and dim map in the binding's type, and load_strided_view_tko,
    declared in the port's module with a weak ordering). Steps equal to the shape are the plain partition view (as
    cuTile Python's `_use_strided_view`); a stepped store, num_tiles, padding or hint is refused with the reason."""
    e = emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, y, B: ct.Constant[int]):
         xv = x.tiled_view((B,), traversal_steps=(B // 2,))
         i = ct.bid(0)
         t = xv.load((i,)) + xv.load((i + 1,))
         ct.store(y, (i,), t * xv.traversal_steps[0])
     """, "x=f32[?]/1, y=f32[?]/1, B=#16")
    text = "\n".join(e.body)
    assert "let x_strided: StridedView<f32, { [B] }, { [8] }, { [0] }> = unsafe { make_strided_view(x, shape![B], " \
           "padding::None) };" in text, text
    assert "load_strided_view_weak(&x_strided, [i], get_tensor_token(x), ordering::Weak, scope::TileBlock)" in text
    assert "let index: i32 = i + 1i32;" in text and "[index]" in text, text   # (bound: cutile types it there)
    assert "8i32" in text or "broadcast_scalar(8" in text, text   # (the view's traversal_steps: its constant)
    assert "load_strided_view_weak" in e.ops, e.ops
    same = emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, y, B: ct.Constant[int]):
         xv = x.tiled_view((B,), traversal_steps=16)
         ct.store(y, (ct.bid(0),), xv.load((ct.bid(0),)) + xv.num_tiles(0))
     """, "x=f32[?]/1, y=f32[?]/1, B=#16")
    assert "strided" not in "\n".join(same.body) and "num_tiles(&x_tiles, 0)" in "\n".join(same.body), same.body
    refused = {
        "xv.load((0,), latency=2)": (8, "no hints"),
        "xv.num_tiles(0)": (8, "get_index_space_shape takes a partition view"),
    }
    for use, (line, why) in refused.items():
        with pytest.raises(Unsupported, match="tiled-view-steps") as exc:
            emit_resolved(tmp_path, f"""
             @ct.kernel
             def k(x, y, B: ct.Constant[int]):
                 xv = x.tiled_view((B,), traversal_steps=(4,))
                 ct.store(y, (ct.bid(0),), {use} + ct.zeros((B,), dtype=ct.float32))
             """, "x=f32[?]/1, y=f32[?]/1, B=#16")
        assert exc.value.line == line and why in str(exc.value), (use, str(exc.value))
    for body, why in {
        "xv = x.tiled_view((B,), padding_mode=ct.PaddingMode.ZERO, traversal_steps=(4,))\n"
        "    ct.store(y, (ct.bid(0),), xv.load((0,)))": "takes no padding",
        "yv = y.tiled_view((B,), traversal_steps=(4,))\n"
        "    yv.store((ct.bid(0),), ct.load(x, (ct.bid(0),), (B,)))": "view stores",
        "xv = x.tiled_view((B,), traversal_steps=(B, 2))\n"
        "    ct.store(y, (ct.bid(0),), xv.load((0,)))": "one constant per dimension",
    }.items():
        with pytest.raises(Unsupported, match="tiled-view-steps") as exc:
            emit_resolved(tmp_path, f"""
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    {body}
""", "x=f32[?]/1, y=f32[?]/1, B=#16")
        assert why in str(exc.value) and "k.py:" in str(exc.value), (body, str(exc.value))


def test_kernel_opt_level_is_a_compile_option_of_every_entry(tmp_path):
    """`@ct.kernel(num_ctas=2, occupancy=2, opt_level=2)` (round 20's s05 `with_opts`): refused ("@ct.kernel(
    opt_level=2)", row kernel-hints-other). cuTile Python passes the level to tileiras (`-O2`; the Tile IR is the
    same); cutile 0.3.1's entry hints take none, its per-launch CompileOptions do: the emitter keeps it
    (Emitted.options), port.json states it (`compile_options`), the IR diff compiles the entry with it and checks it
    against the reference's level, and the runtime launches with it (a launch's own hints over it)."""
    from tileport.pipeline.port import _opt_level_difference, compile_options

    kernel = """
     OPT = 2

     @ct.kernel(num_ctas=2, occupancy=2, opt_level=LEVEL)
     def k(x, y, B: ct.Constant[int]):
         ct.store(y, (ct.bid(0),), ct.load(x, (ct.bid(0),), (B,)) * 2.0)
     """
    sig = "x=f32[?]/1, y=f32[?]/1, B=#16"
    e = emit_resolved(tmp_path, kernel.replace("LEVEL", "OPT"), sig)
    assert e.options == {"opt_level": 2} and e.hints == {"num_cta_in_cga": 2, "occupancy": 2}, (e.options, e.hints)
    assert emit_resolved(tmp_path, kernel.replace("LEVEL", "3"), sig).options == {}   # (the default: stated by none)
    assert emit_resolved(tmp_path, kernel.replace("LEVEL", "ct.ByTarget(sm_90=1, default=2)"), sig).options == \
        {"opt_level": 1}
    with pytest.raises(Unsupported, match="kernel-hints-other") as exc:   # (cuda.tile rejects it when decorating)
        emit(tmp_path, kernel.replace("LEVEL", "7"), sig)
    assert "0 to 3" in str(exc.value) and exc.value.line == 7
    manifest = {"hints": {"opt_level": 2, "occupancy": 2}, "compile_options": {"opt_level": 2}}
    assert compile_options(manifest, {}) == {"opt_level": 2}
    assert compile_options(manifest, {"hints": {"opt_level": 3}}) == {"opt_level": 3}   # (replace_hints over it)
    assert _opt_level_difference(manifest, {}) is None
    assert _opt_level_difference(manifest, {"hints": {"opt_level": 1}}) is None is not \
        _opt_level_difference({"hints": manifest["hints"]}, {})   # (a port compiled at 3 where the kernel says 2)
    assert "reference compiles at 2, the port's CompileOptions at 3" in \
        _opt_level_difference({"hints": manifest["hints"]}, {})["detail"]
    assert _opt_level_difference({"hints": {"opt_level": "default"}}, {}) is None


def test_store_with_an_order_goes_through_a_writable_view_with_that_dim_map(tmp_path):
    """`ct.store(y, (0, i), ct.transpose(t), order="F")` (round 20's s01 `store_order_f`, row store-other): refused
    ("ct.store with order=\\"F\\""). cuTile Python stores through the partition view whose dim map is the order, as
    its load does; cutile 0.3.1's writable `PartitionMut` states no dim map, so the port declares the same Tile IR
    type with one (`PartitionMutPermuted`), the op making it and the store into it (rustgen.declared_ops), the
    block-to-tile argument that of a store at a permuted block index (each precondition on the array's dimension
    the order maps the tile's to). A second access of the array is refused (its token order is not carried)."""
    kernel = """
     @ct.kernel
     def k(x, y, B: ct.Constant[int]):
         i = ct.bid(0)
         t = ct.load(x, (i, 0), (B, 8))
         ct.store(y, (0, i), ct.transpose(t), order=ORDER)
         SECOND
     """
    sig = "x=f32[?,?]/?,1, y=f32[?,?]/?,1, B=#16"
    e = emit(tmp_path, kernel.replace("ORDER", '"F"').replace("SECOND", ""), sig)
    text = "\n".join(e.body)
    assert "let mut y_tiles: PartitionMutPermuted<f32, { [8, B] }> = unsafe { make_partition_view_mut_permuted(y, " \
           "shape![8, B], padding::None, const_array![1, 0], get_tensor_token(y)) };" in text, text
    assert "store_view_tko_permuted(&mut y_tiles, t_permuted, [0i32, i], ordering::Weak, scope::TileBlock, None, " \
           "tma::Enabled)" in text, text
    assert "cdiv(y.shape[0], B)" in text and "make_partition_view_mut_permuted" in e.ops, text
    assert "Permuted" not in "\n".join(emit(tmp_path, kernel.replace("ORDER", "(0, 1)").replace("SECOND", ""),
                                            sig).body)   # (the identity order: the plain store)
    with pytest.raises(Unsupported, match="store-order") as exc:
        emit(tmp_path, kernel.replace("ORDER", '"F"').replace("SECOND", "ct.store(y, (1, i), t, order=(0, 1))"), sig)
    assert "not carried" in str(exc.value), str(exc.value)
