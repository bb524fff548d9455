"""Round 25's kernels (tests/fixtures/triton_round25.py), found by a helper's round of training-library kernels of
our own (build/r25t: cross-entropy, KL / JSD, norms, GLU activations, rotary, softmax): a `return` under an `if`
inside a constexpr `if`, an offsets name both an earlier loop and a later loop's inner loops assign, and a pointer
read through two layouts whose view overlaps, refused at launch (it read padding, silently). Each fixture kernel
that lowers is ported and proven (sm_90); the lowered kernels run on numpy against numpy's own results."""
from __future__ import annotations

from pathlib import Path

import pytest

import test_triton_round24 as r24
import test_triton_two_layouts as two

from conftest import load_module

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round25.py"
MOD = load_module(FIXTURE, "triton_round25_fixture")
NAMES = ()

lowered = two.lowered_fixture(FIXTURE, NAMES + ("group_two_layouts",), "round25")


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, r24.Ct24)


def _cases(name):
    return [c for c in MOD.cases() if c[0] == name]


def test_round25_overlapping_two_layout_view_refused_at_launch(lowered):
    """`x + pid * C * n + offs` (`offs < n * C`: a group's statistics) beside `x + pid * C * n + c * n + cols`
    (`cols < n`: per channel): one view of strides (C * n, n, 1) whose unit-stride extent n * C reaches past the
    next stride, so the outermost dimension took 1 of the tensor's 2 groups and program 1 read padding where Triton
    reads the tensor — silently (y 11.2 apart). Refused at launch, saying why."""
    from tileport.frontends.triton.views import ViewError

    (case,) = _cases("group_two_layouts")
    with pytest.raises(ViewError, match=r"rows overlap, so it would hold 1 of the tensor's 2"):
        _run(lowered, *case)
