"""Round 8's lowerings checked on the CPU against Triton itself: one scalar stored at token ids loaded from memory
(a banned-token mask: `tl.store(logits + row * stride + ids, float('-inf'), mask=..)`), broadcast to the ids' lanes
as Triton stores it; a row `w + t * K + tl.arange(0, K)` of an array written before as `w + t * K + k` (top-k
routing weights renormalized), read as row t of the view (K, 1) (it was read as tile t of row 0: padding), and
with a block that divides no row, every access a gather. Each
launch of the LLM fixture's `round8_cases()` runs through the lowered cuTile Python on numpy against a numpy
reference and through Triton's interpreter (TILEPORT_TORCH_PYTHON) against Triton."""
from __future__ import annotations

import numpy as np
import pytest

import test_triton_round5 as r5
import test_triton_round7 as r7

NAMES = ("banned_scatter", "topk_renorm_rows", "elems_then_half_rows")


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return r5.lower_fixture(tmp_path_factory.mktemp("round8"), NAMES)


def test_round8_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    assert "ct.scatter(logits_ptr, row * stride + ids, ct.full((BLOCK,), float('-inf')" in src["banned_scatter"]
    assert "ct.load(w_ptr, index=(t, 0), shape=(1, K))" in src["topk_renorm_rows"]
    assert "ct.gather(w_ptr, t * B + ct.arange(B, dtype=ct.int32)" in src["elems_then_half_rows"]


def _reference(name, args):
    if name == "banned_scatter":
        logits, bad, n_bad = args[:3]
        want = logits.copy()
        want[:, bad[:n_bad]] = -np.inf
        return {0: want}
    if name == "elems_then_half_rows":
        w = args[0]
        return {1: w.reshape(-1)[:16], 2: w.sum(1)}
    p = args[0]
    order = np.argsort(-p, axis=1, kind="stable")[:, :2]
    w = np.take_along_axis(p, order, 1)
    return {1: w / w.sum(1, keepdims=True), 2: order.astype(np.int32)}


def test_round8_lowered_kernels_match_numpy(lowered):
    mod = r5._module()
    for name, grid, args, kw in mod.round8_cases():
        got = r7._run(lowered, mod, name, grid, args, kw)
        for k, want in _reference(name, args).items():
            if want.dtype.kind == "f" and name != "banned_scatter":
                assert np.allclose(got[k], want, rtol=1e-6), (name, k)
            else:
                assert np.array_equal(got[k], want), (name, k)


def test_round8_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    pairs = list(r5.against_triton(lowered, tmp_path, "round8_cases", NAMES, run=r7._run))
    for name, k, w, a in pairs:
        assert np.array_equal(w, a) if name == "banned_scatter" or a.dtype.kind in "iu" else \
            np.allclose(w, a, rtol=1e-6, atol=1e-7), f"{name}: argument {k} differs from Triton's"
    assert len(pairs) == 8
