"""cuTile Python generality, round 21 (docs/corpus.md): the tileport gaps round 20's API sweep left (its s01_mem and
s05_types kernels, build/host20/), each as a test at the emitter; each kernel re-ported and proven with the CLI."""
import ast
import textwrap

import pytest

from tileport.spec import signature as sigmod
from tileport.translate.emit import Unsupported, emit_kernel

from conftest import load_module
from kernel_text import HEADER


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
