"""Round 16's kernels (tests/fixtures/triton_round16.py), found by a helper's own Triton probes (build/tri16) and
round 15's two unproven ports: the translator's scatter after a read/write loop of gathers and scatters waited on the
loop's last write, where cuTile Python waits on the array's last operation (a loop that never runs leaves the last
write before the earlier loop's reads); and a loop of an acquire-ordered kernel (a work queue on `tl.atomic_add`)
carried its tokens in their names' order, not in the order the loop first accesses the arrays, as cuTile Python
does. Each is ported and proven (sm_90); the lowered kernels run on numpy against Triton's interpreter where it runs
them."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round14 as r14
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round16.py"
MOD = load_module(FIXTURE, "triton_round16_fixture")
PROVEN = ("scatter_after_loop", "work_queue", "countdown_while", "_plain_abs", "class_kernel", "pointer_select")
NAMES = PROVEN
INTERPRETED = ("countdown_while", "pointer_select")   # (Triton 3.6's interpreter with numpy 2.4 fails on `range()` of a runtime bound)



def _prove(tmp_path, fixture, names):
    from tileport.pipeline.triton import port_triton_many
    from tileport.toolchain.locate import find_cuda_tree

    launches = two.captured_launches(fixture)
    jobs = [(f"{fixture}::{n}", [], [l for l in launches if l["kernel"].endswith(f"::{n}")], tmp_path / n)
            for n in names]
    return dict(zip(names, port_triton_many(jobs, find_cuda_tree(), "sm_90", tmp_path / "_work")))


@needs_cargo
def test_round16_kernels_port_and_prove(tmp_path):
    for name, v in _prove(tmp_path, FIXTURE, PROVEN).items():
        assert v["status"] == "proven", (name, str(v)[:1500])


@needs_cargo
def test_a_loop_of_an_acquire_ordered_kernel_carries_its_tokens_in_access_order(tmp_path):
    v = _prove(tmp_path, FIXTURE, ("work_queue",))["work_queue"]
    rs = (tmp_path / "work_queue" / "kernel.rs").read_text()
    # the loop reads x, writes y, then takes a tile from the counter: its tokens renamed to sort in that order
    assert "let mut zz_loop_0001x_ptr_token" in rs and "let mut zz_loop_0300counter_ptr_token" in rs, rs[:3000]
    assert v["status"] == "proven"


lowered = two.lowered_fixture(FIXTURE, NAMES, "round16")


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, MOD.KERNELS.get(name, getattr(MOD, name, None)), grid, args, kw, r14.Ct14)


def test_a_float_scalar_a_while_sums_into_starts_as_a_0d_tile(lowered):
    src = (lowered / "countdown_while" / "lowered.py").read_text()
    assert "acc = ct.full((), 0.0, dtype=ct.float32)" in src and "while rem > 0:" in src, src


def test_round16_lowered_kernels_match_numpy(lowered):
    for name, grid, args, kw in MOD.cases():
        got = _run(lowered, name, grid, args, kw) if name in ("countdown_while", "_plain_abs", "class_kernel",
                                                                "pointer_select") else None
        if name == "countdown_while":
            assert np.allclose(got[1], args[0].sum(1), atol=1e-5)
        elif name == "_plain_abs":
            assert np.array_equal(got[1], np.abs(args[0]))
        elif name == "class_kernel":
            assert np.array_equal(got[1], args[0] + np.float32(5.0))
        elif name == "pointer_select":
            blocks = np.arange(1000) // 256
            assert np.array_equal(got[2], np.where(blocks % 2 == 0, args[0], args[1]))


def test_round16_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    for name, k, w, a in two.against_triton(FIXTURE, MOD, tmp_path, "cases", INTERPRETED,
                                            lambda *case: _run(lowered, *case)):
        assert np.allclose(w, a, rtol=1e-5, atol=1e-6), f"{name}: argument {k} differs from Triton's"


def test_kernels_made_by_triton_jit_of_a_function_or_in_a_class_are_found(tmp_path):
    """`kernel = triton.jit(_kernel)` (also inside `triton.autotune(..)(triton.jit(_k))`) and `@staticmethod
    @triton.jit` in a class: both are the module's kernels (they were "no @triton.jit function")."""
    from tileport.frontends.triton.source import TritonSourceError, find_kernel

    f = tmp_path / "m.py"
    f.write_text("import triton\nimport triton.language as tl\n\n\ndef _k(x_ptr):\n    pass\n\n\n"
                 "def _t(x_ptr):\n    pass\n\n\ndef _not_jitted(x_ptr):\n    pass\n\n\nk = triton.jit(_k)\n"
                 "t = triton.autotune(configs=[], key=[])(triton.jit(_t))\n\n\nclass Ops:\n    @staticmethod\n"
                 "    @triton.jit\n    def inner(x_ptr):\n        pass\n")
    assert [find_kernel(f, n).name for n in ("_k", "_t", "inner")] == ["_k", "_t", "inner"]
    with pytest.raises(TritonSourceError, match="no @triton.jit function '_not_jitted'; Triton kernels in this file: "
                                                "inner, _k, _t"):
        find_kernel(f, "_not_jitted")


def test_helpers_called_through_a_module_of_the_project_are_inlined(tmp_path):
    """`import act_mod as A` / `from pk import act`, then `A.silu(x)` and `act.scaled(x, 2.0)` (which calls its own
    module's `silu`): inlined as helpers imported by name are (it was refused: "call `A.silu` is not supported")."""
    import test_triton_frontend as tf
    from tileport.frontends.triton.lower import lower
    from tileport.frontends.triton.source import find_kernel

    helper = ("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef silu(x):\n"
              "    return x * tl.sigmoid(x)\n\n\n@triton.jit\ndef scaled(x, s):\n    return silu(x) * s\n")
    (tmp_path / "act_mod.py").write_text(helper)
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("")
    (tmp_path / "pk" / "act.py").write_text(helper.replace("x * tl.sigmoid(x)", "x * 3.0"))
    f = tmp_path / "m.py"
    f.write_text(tf.MODULE.replace("{helpers}", "import act_mod as A\nfrom pk import act\n").replace(
        "{body}", "x = tl.load(x_ptr + offs)\n    tl.store(y_ptr + offs, A.silu(x) + act.scaled(x, 2.0))"))
    src = lower(find_kernel(f, "k"), tf.IKINDS, {"s": "float"}, facts=tf.FACTS).source
    # A.silu: x * sigmoid(x); act.scaled: pk.act's own silu (x * 3.0, not act_mod's of the same name) times 2
    assert "ct.exp2((-x)" in src and "+ ((x * 3.0) * 2.0)" in src, src


def test_a_pointer_chosen_by_where_on_a_tile_test_is_refused(tmp_path):
    import test_triton_frontend as tf
    from tileport.frontends.triton.lower import LoweringError

    body = "x = tl.load(x_ptr + offs)\nsrc = tl.where(x > 0, x_ptr, y_ptr)\ntl.store(y_ptr + offs, tl.load(src + offs))"
    with pytest.raises(LoweringError, match="tl.where choosing a pointer per lane"):
        tf._lowered(tmp_path, body)


def test_class_helpers_and_module_constants_of_the_project_are_read(tmp_path):
    """`H.sq(x)` (a `@staticmethod @triton.jit` of a class in the module, calling `H.twice`), `C.EPS`
    (`import consts as C`) and `SC` (`from consts import SCALE as SC`): the helpers inlined, the constants' values
    (they were refused: "call `H.sq` is not supported", "`C.EPS` is not supported")."""
    import test_triton_frontend as tf
    from tileport.frontends.triton.lower import lower
    from tileport.frontends.triton.source import find_kernel

    (tmp_path / "consts.py").write_text("import triton.language as tl\n\nEPS: tl.constexpr = tl.constexpr(1e-5)\n"
                                        "SCALE = 0.125\n")
    f = tmp_path / "m.py"
    helpers = ("import consts as C\nfrom consts import SCALE as SC\n\n\nclass H:\n    @staticmethod\n    @triton.jit\n"
               "    def sq(x):\n        return H.twice(x) * x\n\n    @staticmethod\n    @triton.jit\n"
               "    def twice(x):\n        return x * 2.0\n")
    f.write_text(tf.MODULE.replace("{helpers}", helpers).replace(
        "{body}", "x = tl.load(x_ptr + offs)\n    tl.store(y_ptr + offs, H.sq(x) * C.EPS + SC)"))
    src = lower(find_kernel(f, "k"), tf.IKINDS, {"s": "float"}, facts=tf.FACTS).source
    assert "(((x * 2.0) * x) * (1e-05)) + 0.125" in src, src


def test_helpers_of_two_imported_modules_with_one_name_stay_apart(tmp_path):
    """`from m1 import silu` and `from m2 import f`, f calling m2's own `silu` (`x * 3.0`): f inlines m2's, not m1's
    (it took m1's, the first bound under the name: a different kernel, silently)."""
    import test_triton_frontend as tf
    from tileport.frontends.triton.lower import lower
    from tileport.frontends.triton.source import find_kernel

    head = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef silu(x):\n    return {}\n"
    (tmp_path / "m1.py").write_text(head.format("x * tl.sigmoid(x)"))
    (tmp_path / "m2.py").write_text(head.format("x * 3.0") + "\n\n@triton.jit\ndef f(x):\n    return silu(x) * 2.0\n")
    f = tmp_path / "m.py"
    f.write_text(tf.MODULE.replace("{helpers}", "from m1 import silu\nfrom m2 import f\n").replace(
        "{body}", "x = tl.load(x_ptr + offs)\n    tl.store(y_ptr + offs, silu(x) + f(x))"))
    src = lower(find_kernel(f, "k"), tf.IKINDS, {"s": "float"}, facts=tf.FACTS).source
    assert "ct.exp2((-x)" in src and "+ ((x * 3.0) * 2.0)" in src, src
