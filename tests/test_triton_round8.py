"""Round 8's lowerings checked on the CPU against Triton itself: one scalar stored at token ids loaded from memory
(a banned-token mask: `tl.store(logits + row * stride + ids, float('-inf'), mask=..)`), broadcast to the ids' lanes
as Triton stores it. Each launch of the LLM fixture's `round8_cases()` runs through the lowered cuTile Python on
numpy against a numpy reference and through Triton's interpreter (TILEPORT_TORCH_PYTHON) against Triton."""
from __future__ import annotations

import numpy as np
import pytest

import test_triton_round5 as r5

NAMES = ("banned_scatter",)


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return r5.lower_fixture(tmp_path_factory.mktemp("round8"), NAMES)


def test_round8_lowered_forms(lowered):
    src = (lowered / "banned_scatter" / "lowered.py").read_text()
    assert "ct.scatter(logits_ptr, row * stride + ids, ct.full((BLOCK,), float('-inf')" in src


def _reference(name, args):
    logits, bad, n_bad = args[:3]
    want = logits.copy()
    want[:, bad[:n_bad]] = -np.inf
    return 0, want


def test_round8_lowered_kernels_match_numpy(lowered):
    mod = r5._module()
    for name, grid, args, kw in mod.round8_cases():
        got = r5._run(lowered, mod, name, grid, args, kw)
        k, want = _reference(name, args)
        assert np.array_equal(got[k], want), name
        assert np.array_equal(got[1], args[1]), name   # (the ids past n_bad stay unwritten: masked lanes)


def test_round8_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    pairs = list(r5.against_triton(lowered, tmp_path, "round8_cases", NAMES))
    for name, k, w, a in pairs:
        assert np.array_equal(w, a), f"{name}: argument {k} differs from Triton's"
    assert len(pairs) == 2
