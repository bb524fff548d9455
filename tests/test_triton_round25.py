"""Round 25's kernels (tests/fixtures/triton_round25.py), found by a helper's round of training-library kernels of
our own (build/r25t: cross-entropy, KL / JSD, norms, GLU activations, rotary, softmax): a `return` under an `if`
inside a constexpr `if`, an offsets name both an earlier loop and a later loop's inner loops assign, and a pointer
read through two layouts whose view overlaps, refused at launch (it read padding, silently). Each fixture kernel
that lowers is ported and proven (sm_90); the lowered kernels run on numpy against numpy's own results."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round24 as r24
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round25.py"
MOD = load_module(FIXTURE, "triton_round25_fixture")
NAMES = ("label_return", "nested_offsets", "dtype_named_constexpr", "element_then_rows")

lowered = two.lowered_fixture(FIXTURE, NAMES + ("group_two_layouts",), "round25")


@needs_cargo
def test_round25_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, r24.Ct24)


def _cases(name):
    return [c for c in MOD.cases() if c[0] == name]


def test_round25_return_under_an_if_inside_a_constexpr_if(lowered):
    """`if HAS_LABEL: label = tl.load(..); if label == ignore_index: <zero the row>; return` then the row's work
    (JSD / cross-entropy with an optional label): the statements after the outer `if` go into both its arms, each
    cut at its own `return` (was "`return` inside a loop or branch is not lowered"); the translator takes the loop
    index both arms' loops bind as no result of the `if` (was "`i` is not bound on every path of the `if`")."""
    src = (lowered / "label_return" / "lowered.py").read_text()
    assert "return" not in src.split("def label_return")[1], src
    for name, grid, args, kw in _cases("label_return"):
        got = _run(lowered, name, grid, args, kw)[2]
        x = args[0]
        want = x * np.float32(2.0) + np.float32(1.0)
        if kw["HAS_LABEL"]:
            want[args[1] == -100] = 0.0
        assert np.array_equal(got, want), (kw, got[:, :4], want[:, :4])


def test_round25_offsets_assigned_by_inner_loops(lowered):
    """`offs = i + br` in a first loop, then again in a loop inside `for rep in tl.range(REPS)`: each inner
    iteration assigns it before reading it, so the outer loop carries nothing (was "offs is a pointer, index or mask
    updated inside a loop")."""
    (case,) = _cases("nested_offsets")
    got = _run(lowered, *case)[1]
    x = case[2][0]
    want = x * x.sum(axis=1, keepdims=True) + 1
    assert np.allclose(got, want, rtol=1e-5, atol=1e-4)


def test_round25_constexpr_named_dtype(lowered):
    """`dtype: tl.constexpr` passed `tl.float16` (a layer-norm backward's output dtype): the lowered body's
    `dtype=` keyword arguments (`ct.zeros(.., dtype=ct.float32)`) are no use of the parameter (was "dtype (a string
    constexpr) is used in the kernel beyond `if`s the launches decide")."""
    src = (lowered / "dtype_named_constexpr" / "lowered.py").read_text()
    assert "ct.astype(x * 3.0, ct.float16)" in src.replace("(x * 3.0)", "x * 3.0"), src
    (case,) = _cases("dtype_named_constexpr")
    _, y, part, *_ = _run(lowered, *case)
    x = case[2][0]
    assert np.array_equal(y, (x * np.float32(3.0)).astype(np.float16))
    want = np.stack([x[0] + x[1], x[2] + x[3]]).astype(np.float16)
    assert np.array_equal(part, want), (part[:, :4], want[:, :4])


def test_round25_element_view_laid_out_again(lowered):
    """`out_ptr += pid * out_stride`, then `tl.store(out_ptr, s)` under `if not PER_ELEMENT:` and `tl.store(out_ptr +
    cols, v, mask=..)` in its else (a TVD / KL loss per row or per element): the view the element made first (one
    dimension of stride out_stride) is laid out again as the row view `(out_stride, 1)`, the element at column 0
    — it made every access of out_ptr a scatter at flat offsets, which with the scatters in a loop and after it the
    translator refused (set i's `_tv_distance_kernel`)."""
    src = (lowered / "element_then_rows" / "lowered.py").read_text()
    assert "ct.scatter" not in src and "ct.store(out_ptr, index=(pid, 0)" in src, src
    for name, grid, args, kw in _cases("element_then_rows"):
        got = _run(lowered, name, grid, args, kw)[1]
        x = args[0]
        want = (x * x).sum(axis=1) if not kw["PER_ELEMENT"] else x * x
        assert np.allclose(got, want, rtol=1e-6), (kw, got[:2], want[:2])


def test_round25_overlapping_two_layout_view_refused_at_launch(lowered):
    """`x + pid * C * n + offs` (`offs < n * C`: a group's statistics) beside `x + pid * C * n + c * n + cols`
    (`cols < n`: per channel): one view of strides (C * n, n, 1) whose unit-stride extent n * C reaches past the
    next stride, so the outermost dimension took 1 of the tensor's 2 groups and program 1 read padding where Triton
    reads the tensor — silently (y 11.2 apart). Refused at launch, saying why."""
    from tileport.frontends.triton.views import ViewError

    (case,) = _cases("group_two_layouts")
    with pytest.raises(ViewError, match=r"rows overlap, so it would hold 1 of the tensor's 2"):
        _run(lowered, *case)


def test_round25_return_inside_a_loop_stays_refused(tmp_path):
    """A `return` inside a loop has no `else` to take the rest: refused at its file:line:col."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::label_return")]
    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("        x = tl.load(x_ptr + offs, mask=offs < n_cols, other=0.0)\n",
                                              "        x = tl.load(x_ptr + offs, mask=offs < n_cols, other=0.0)\n"
                                              "        if i > 1000:\n            return\n", 1))
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: `return` inside a loop or branch is not lowered"):
        lower_from_launches(f"{fx}::label_return", mine)
