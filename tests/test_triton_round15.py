"""Round 15's kernels (tests/fixtures/triton_round15.py), found by a helper's own Triton probes (build/tri15): an
array scattered into (`tl.store(x + y, ..)`, y a loaded label) beside tile loads and stores of it (cross-entropy's
in-place gradient), an `if` on a constexpr launched both ways whose arms bind index vectors of different forms
(RoPE neox / interleaved), and computed offsets through a view of more than two strided dimensions (a partial
rotary head's tail). Each launch runs through the lowered cuTile Python on numpy (the round-11 stand-in) against
numpy and against Triton's interpreter (TILEPORT_TORCH_PYTHON); the RoPE and the tail copy are ported and proven
(sm_90)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

import test_triton_round14 as r14
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round15.py"
NAMES = ("ce_label_inplace", "rope_neox_or_pairs", "partial_rotary_copy", "sum_or_rows", "recurrent_rows")
MOD = load_module(FIXTURE, "triton_round15_fixture")
#: those Triton 3.6's interpreter runs here: with numpy 2.4 it fails on `range()` of a runtime bound ("only
#: 0-dimensional arrays can be converted to Python scalars"), so the cross-entropy row is checked against numpy only
#: (build/tri15/check.py patches the interpreter's `__index__` and found it agreeing)
INTERPRETED = ("rope_neox_or_pairs", "partial_rotary_copy")


class Ct15(r14.Ct14):
    @staticmethod
    def exp2(x, flush_to_zero=False):
        return np.exp2(x)

    @staticmethod
    def log(x):
        return np.log(x)


lowered = two.lowered_fixture(FIXTURE, NAMES, "round15")


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, Ct15)


def test_round15_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    # the logits scattered at the label and read/written by tiles: every access a gather/scatter (one token)
    ce = src["ce_label_inplace"]
    assert "ct.load(x_ptr" not in ce and "ct.store(x_ptr" not in ce
    assert ce.count("ct.scatter(x_ptr") == 2 and "ct.gather(x_ptr, row * stride + ct.astype(y, ct.int32)" in ce
    # the statements after `if IS_NEOX:` lowered in each arm; q laid out two ways: gathered
    rope = src["rope_neox_or_pairs"]
    assert "if IS_NEOX:" in rope and "else:" in rope and rope.count("ct.scatter(q_ptr") == 4
    assert "ct.arange(HD // 2, dtype=ct.int32) * 2) + 1" in rope
    # the tail at ROT + arange: flat element offsets of the (token, head, dim) rows
    tail = src["partial_rotary_copy"]
    assert "ct.gather(x_ptr, t * stride_t + h * hd + rest, mask=rm" in tail


def test_round15_lowered_kernels_match_numpy(lowered):
    for name, grid, args, kw in MOD.cases():
        got = _run(lowered, name, grid, args, kw)
        if name == "ce_label_inplace":
            x, y = args[0].astype(np.float64), args[2]
            lse = np.log(np.exp(x).sum(1))
            want = np.exp(x - lse[:, None])
            want[np.arange(4), y] -= 1
            assert np.allclose(got[0], want, atol=1e-5)
            assert np.allclose(got[3], lse - x[np.arange(4), y], atol=1e-5)
        elif name == "rope_neox_or_pairs":
            q, c, s = args[0].reshape(3, 3, 8), args[1][:, None, :], args[2][:, None, :]
            i1, i2 = (np.arange(4), np.arange(4) + 4) if kw["IS_NEOX"] else (np.arange(4) * 2, np.arange(4) * 2 + 1)
            want = q.copy()
            want[..., i1] = q[..., i1] * c - q[..., i2] * s
            want[..., i2] = q[..., i2] * c + q[..., i1] * s
            assert np.allclose(got[0].reshape(3, 3, 8), want, atol=1e-6)
        elif name == "partial_rotary_copy":
            x = args[0]
            want = x.copy()
            want[..., :8] *= 2
            assert np.array_equal(got[1], want)
        elif name == "sum_or_rows":   # (the sums' launch stored nothing: a (0, n_cols) view of the [rows] loss)
            x = args[0] * np.float32(2.0)
            want = x if kw["REDUCE"] == "none" else x.sum(1)
            assert np.allclose(got[1], want, atol=1e-5)
        elif name == "recurrent_rows":   # (steps past the first read padding: the view's row took K, not T * K)
            assert np.allclose(got[1], np.cumsum(args[0], axis=1), atol=1e-5)


def test_round15_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    for name, k, w, a in two.against_triton(FIXTURE, MOD, tmp_path, "cases", INTERPRETED,
                                            lambda *case: _run(lowered, *case)):
        assert np.allclose(w, a, rtol=1e-5, atol=1e-6), f"{name}: argument {k} differs from Triton's"


def test_a_diverged_index_read_after_an_if_without_a_tail_is_refused_at_its_use(tmp_path):
    """The statements after the `if` are copied into its arms; an index bound differently there and read past an
    enclosing loop (which no copy reaches) is refused where it is read, naming the `if`."""
    import test_triton_frontend as tf
    from tileport.frontends.triton.lower import LoweringError

    body = ("for k in range(2):\n"
            "    if MODE == 1:\n"
            "        i = offs\n"
            "    else:\n"
            "        i = 2 * offs\n"
            "tl.store(y_ptr + i, tl.load(x_ptr + i))")
    with pytest.raises(LoweringError, match="bound to different pointers .masks, index vectors. in the arms of the "
                                            "`if` at line"):
        tf._lowered(tmp_path, body, facts=dict(tf.FACTS, constants={"B": [128, 128], "MODE": [1, 2]}))


def test_an_index_bound_differently_in_constexpr_arms_lowers_the_rest_in_each_arm(tmp_path):
    """`if MODE == 1: i = offs else: i = 2 * offs` (launched both ways) then accesses through i: each arm reads its
    own i (it was refused: "i is a Idx in one arm and a Offset of another value in the other arm")."""
    import test_triton_frontend as tf

    body = ("if MODE == 1:\n"
            "    i = offs\n"
            "else:\n"
            "    i = 2 * offs\n"
            "tl.store(y_ptr + i, tl.load(x_ptr + i) * 2.0)")
    src = tf._lowered(tmp_path, body, facts=dict(tf.FACTS, constants={"B": [128, 128], "MODE": [1, 2]}))
    arms = src.split("if MODE == 1:")[1].split("else:")
    # (x and y laid out two ways, `offs` and `2 * offs`: gathered and scattered in both arms)
    assert "ct.gather(x_ptr, pid * B + ct.arange(B, dtype=ct.int32)," in arms[0]
    assert "ct.gather(x_ptr, (pid * B + ct.arange(B, dtype=ct.int32)) * 2," in arms[1]
    assert "ct.scatter(y_ptr" in arms[0] and "ct.scatter(y_ptr" in arms[1]


@needs_cargo
def test_round15_kernels_port_and_prove(tmp_path):
    # (ce_label_inplace: proven since round 16, the scatter after its loop waiting on the array's last operation, as
    # cuTile Python's does; the two-layout fixture's scatter_rows, a tile store and a scatter into y: the translator
    # refused it, now every access of y a scatter)
    two.proven_fixture_kernels(tmp_path, (FIXTURE, ("rope_neox_or_pairs", "partial_rotary_copy", "sum_or_rows",
                                                    "recurrent_rows", "ce_label_inplace")),
                               (two.FIXTURE, ("scatter_rows",)))


def test_a_conditional_expression_on_a_constexpr_launched_both_ways_is_an_if(tmp_path):
    """`y = tl.abs(x) if MODE == 1 else x` with launches of both values: an `if` binding one name in each arm (it
    was refused: "a conditional expression is lowered on scalars, or when its test is on constexprs that every
    launch gives alike")."""
    import test_triton_frontend as tf

    body = "x = tl.load(x_ptr + offs)\ny = tl.abs(x) if MODE == 1 else x * 2.0\ntl.store(y_ptr + offs, y)"
    src = tf._lowered(tmp_path, body, facts=dict(tf.FACTS, constants={"B": [128, 128], "MODE": [1, 2]}))
    assert "    if MODE == 1:\n        sel1 = ct.abs(x)\n    else:\n        sel1 = x * 2.0\n    y = sel1\n" in src


def test_max_num_imprecise_acc_is_dropped(tmp_path):
    """`tl.dot(a, b, max_num_imprecise_acc=32)` (an fp8 precision knob of Hopper's MMA, ignored by Triton for other
    operands) lowers as the dot (it was refused: "tl.dot option max_num_imprecise_acc=32 is not lowered")."""
    import test_triton_frontend as tf

    body = ("r = tl.arange(0, 16)\n"
            "a = tl.load(x_ptr + r[:, None] * 16 + r[None, :]).to(tl.float16)\n"
            "c = tl.dot(a, a, max_num_imprecise_acc=32)\n"
            "tl.store(y_ptr + r[:, None] * 16 + r[None, :], c)")
    assert "ct.mma(" in tf._lowered(tmp_path, body)


@pytest.mark.parametrize("alias, expect", [
    ("triton_tanh = libdevice.tanh", "ct.tanh(x)"),
    # chosen by Triton version at import (Unsloth): every binding the same function
    ("try:\n    triton_tanh = tl.extra.cuda.libdevice.tanh\nexcept AttributeError:\n    triton_tanh = libdevice.tanh",
     "ct.tanh(x)"),
    ("triton_tanh = tl.math.exp2", "ct.exp2(x, flush_to_zero=True)"),
    # libdevice's sqrt through an alias: sqrt.approx.ftz.f32, as Triton 3.6 links libdevice (__CUDA_PREC_SQRT unset;
    # round 21 read its PTX: it was lowered as an IEEE square root)
    ("triton_tanh = libdevice.sqrt", "ct.sqrt(x, rounding_mode=ct.RoundingMode.APPROX, flush_to_zero=True)"),
])
def test_a_module_alias_of_a_triton_function_is_that_function(tmp_path, alias, expect):
    """`triton_tanh = libdevice.tanh` at module level, `triton_tanh(x)` in the kernel (Unsloth's softcapping): the
    function it names (it was refused: "call `triton_tanh` is not supported")."""
    import test_triton_frontend as tf

    f = tmp_path / "m.py"
    f.write_text(tf.MODULE.replace("{helpers}", alias + "\n").replace(
        "{body}", "x = tl.load(x_ptr + offs)\n    tl.store(y_ptr + offs, triton_tanh(x))"))
    from tileport.frontends.triton.lower import lower
    from tileport.frontends.triton.source import find_kernel

    src = lower(find_kernel(f, "k"), tf.IKINDS, {"s": "float"}, facts=tf.FACTS).source
    assert f"ct.store(y_ptr, index=(pid,), tile=ct.astype({expect}, y_ptr.dtype))" in src


def test_a_number_in_one_arm_and_a_loaded_element_in_the_other_is_one_element_tile(tmp_path):
    """`if y != -100: loss = lse - tl.load(x + y) else: loss = 0.0` (a loaded element is a one-element tile in the
    lowered kernel): the number made a tile of that shape in its arm (cuTile Python rejected the `if`: "Type of
    `loss` depends on path taken")."""
    import test_triton_frontend as tf

    body = ("y = tl.load(x_ptr + pid)\n"
            "if y > 0.0:\n"
            "    loss = y * 2.0\n"
            "else:\n"
            "    loss = 0.0\n"
            "tl.store(y_ptr + pid, loss)")
    src = tf._lowered(tmp_path, body)
    assert "        loss = ct.full((1,), loss, dtype=ct.float32)\n" in src.split("else:")[1]


def test_an_extent_bounded_in_one_constexpr_arm_bounds_only_its_launches(lowered):
    """The loss's column extent n_cols is found under `REDUCE == "none"`; the other launches store index 0 alone
    (the string constexpr's codes, "none" 0 and "sum" 1, in the extent as in the lowered `if`s and at launch)."""
    import json

    views = json.loads((lowered / "sum_or_rows" / "lowered.json").read_text())["views"]
    assert views["loss_ptr"]["dims"][1]["extent"] == "(n_cols if (REDUCE == 0) else (1 if (REDUCE != 0) else None))"


def test_extents_per_arm_of_three_constexpr_values_and_two_masks_of_one_row(tmp_path):
    """MODE 0 stores a masked row, MODE 1 a pair (`tl.arange(0, 2)` at tile 0), MODE 2 one element: each launch's
    extent is its arm's (the row's bound made the others' views empty: nothing stored, silently). Two masks of one
    row (`cols < n_valid`, `cols < n`: no one bound) gather every access under its own mask (was refused)."""
    import test_triton_frontend as tf

    body = ("x = tl.load(x_ptr + pid * n + offs, mask=offs < n, other=0.0)\n"
            "if MODE == 0:\n"
            "    tl.store(y_ptr + pid * n + offs, x, mask=offs < n)\n"
            "elif MODE == 1:\n"
            "    two = tl.arange(0, 2)\n"
            "    tl.store(y_ptr + pid * n + two, tl.where(two == 0, tl.sum(x, 0), tl.max(x, 0)))\n"
            "else:\n"
            "    tl.store(y_ptr + pid * n, tl.sum(x, 0))")
    from tileport.frontends.triton.lower import lower
    from tileport.frontends.triton.source import find_kernel

    f = tmp_path / "m.py"
    f.write_text(tf.MODULE.replace("{helpers}", "").replace("{body}", textwrap.indent(body, "    ").strip()))
    low = lower(find_kernel(f, "k"), tf.IKINDS, {"s": "float"},
                facts=dict(tf.FACTS, constants={"B": [128, 128, 128], "MODE": [0, 1, 2]}))
    assert [d.extent for d in low.views["y_ptr"].dims][1] == \
        "(n if (MODE == 0) else (2 if (not (MODE == 0)) and (MODE == 1) else " \
        "(1 if (not (MODE == 0)) and (not (MODE == 1)) else None)))"
    body = ("h = tl.load(x_ptr + pid * n + offs, mask=offs < 7, other=0.0)\n"
            "x = tl.load(x_ptr + pid * n + offs, mask=offs < n, other=0.0)\n"
            "tl.store(y_ptr + pid * n + offs, x - tl.sum(h, 0), mask=offs < n)")
    src = tf._lowered(tmp_path, body)
    assert "ct.gather(x_ptr, " in src and "< 7" in src and "ct.load(x_ptr" not in src


def test_an_unbounded_inner_view_dimension_spans_the_contiguous_tensor_dimensions_up_to_the_next_stride():
    """A view (B, T * K) of strides (T * K, 1) over a [B, T, K] tensor: its unit dimension spans T * K elements, the
    flat addresses Triton walks (it took the tensor dimension of stride 1: K)."""
    from tileport.frontends.triton.views import Dim, View, view_layout

    view = View("k", (Dim("T * K", None), Dim("1", None)))
    assert view_layout(view, (2, 5, 16), (80, 16, 1), {"T": 5, "K": 16}) == ((2, 80), (80, 1))
    # rows of 3 x 16 elements padded to 64: the unit dimension spans the 48; with a gap between the 16s (stride 20,
    # not contiguous) it keeps the tensor dimension's 16
    view = View("x", (Dim("s", None), Dim("1", None)))
    assert view_layout(view, (4, 3, 16), (64, 16, 1), {"s": 64}) == ((4, 48), (64, 1))
    assert view_layout(view, (4, 3, 16), (64, 20, 1), {"s": 64}) == ((4, 16), (64, 1))
    # an extent chosen per arm: None at the other launches (the tensor gives it)
    view = View("y", (Dim("s", None), Dim("1", "(n if (MODE == 0) else None)")))
    assert view_layout(view, (4, 16), (16, 1), {"s": 16, "n": 10, "MODE": 0}) == ((4, 10), (16, 1))
    assert view_layout(view, (4, 16), (16, 1), {"s": 16, "n": 10, "MODE": 1}) == ((4, 16), (16, 1))
