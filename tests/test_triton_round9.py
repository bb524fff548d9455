"""Round 9's kernels (tests/fixtures/triton_idioms_llm.py, `round9_cases()`): forms the lowering already took whose
ports cutile could not build or the translator refused — a load masked by a bound joined with a loaded flag
(`mask=inb & keep`: cutile 0.3.1 typed the comparison inside select's operand as `bool`; the translator now binds
such a condition to a typed `let`), and three results stored into one small array at literal offsets
(`tl.store(out + 0, ..)`, `+ 1`, `+ 2`: refused as stores without a block map; now ordered unchecked stores); and a
form the lowering refused: a tail block's size `tl.minimum(n - start, BLOCK)` bounding `tl.arange(0, BLOCK)` while
the pointer is at `start` (the `BLOCK` arm bounds no lane; the other, shifted to the pointer's run, is n); and an
index vector a loop re-assigns as runs of one block (`offs += BLOCK`, or set under an `if` in a persistent loop),
now carried as its block index so its accesses stay tiles (they were gathers). Each
launch runs through the lowered cuTile Python on numpy against a numpy reference and through Triton's interpreter
(TILEPORT_TORCH_PYTHON) against Triton; the slow run ports both (tests/test_triton_frontend.py, LLM_KERNELS)."""
from __future__ import annotations

import numpy as np
import pytest

import test_triton_round5 as r5
import test_triton_round7 as r7

NAMES = ("keep_mask_fill", "int_extrema", "tail_block_size", "offs_stepped", "offs_set_under_if", "offs_name_taken",
         "offs_name_taken_in_helper")


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return r5.lower_fixture(tmp_path_factory.mktemp("round9"), NAMES)


def _reference(name, args):
    if name == "offs_stepped":
        return {1: args[0].sum(1)}
    if name == "offs_name_taken":
        return {1: args[0].sum(1) + np.float32(3.0)}
    if name == "offs_name_taken_in_helper":
        return {1: args[0].max(1) + np.float32(5.0)}
    if name == "offs_set_under_if":
        x = args[0].reshape(2, 3, 64)
        return {1: (2 * x.sum(1)).reshape(-1)}
    if name == "tail_block_size":
        x = args[0]
        size = np.array([min(1000 - s, 256) for s in range(0, 1000, 256) for _ in range(256)][:1000], np.float32)
        return {1: x * np.float32(2.0) + size}
    if name == "keep_mask_fill":
        x, keep = args[:2]
        return {2: np.where(keep != 0, x, np.float32(-1.5))}
    x = args[0]
    return {1: np.array([np.abs(x).max(), x.min(), (x < 0).sum()], np.int32)}


def test_round9_lowered_forms(lowered):
    tail = (lowered / "tail_block_size" / "lowered.py").read_text()
    # `lanes < min(n - start, BLOCK)`: the BLOCK arm bounds no lane, the other is n once shifted to the pointer's run
    assert "ct.load(x_ptr, index=(" in tail and "ct.gather" not in tail, tail
    assert '"extent": "n"' in (lowered / "tail_block_size" / "lowered.json").read_text()


def test_round9_runs_a_loop_carries_are_tiles(lowered):
    """An index vector a loop re-assigns as runs of its block (`offs += BLOCK`; `offs = t * BLOCK + arange` under a
    runtime `if`) is carried as its block index: the accesses through it stay tiles of a view (were gathers)."""
    stepped = (lowered / "offs_stepped" / "lowered.py").read_text()
    assert "offs_block = 0" in stepped and "offs_block = offs_block + 1" in stepped, stepped
    assert "ct.load(x_ptr, index=(row, offs_block), shape=(1, BLOCK)" in stepped and "gather" not in stepped, stepped
    under_if = (lowered / "offs_set_under_if" / "lowered.py").read_text()
    assert "ct.load(x_ptr, index=(offs_block,), shape=(BLOCK,))" in under_if and "gather" not in under_if, under_if
    taken = (lowered / "offs_name_taken" / "lowered.py").read_text()   # (the kernel's own `offs_block` left alone)
    assert "offs_block_ = offs_block_ + 1" in taken and "offs_block = offs_block + 1.0" in taken, taken
    helper = (lowered / "offs_name_taken_in_helper" / "lowered.py").read_text()   # (a helper's own, prefixed)
    assert "row_max_stepped1_offs_block_ = row_max_stepped1_offs_block_ + 1" in helper, helper
    assert "row_max_stepped1_offs_block = row_max_stepped1_offs_block + 2.0" in helper, helper


def test_round9_lowered_kernels_match_numpy(lowered):
    mod = r5._module()
    for name, grid, args, kw in mod.round9_cases():
        got = r7._run(lowered, mod, name, grid, args, kw)
        for k, want in _reference(name, args).items():
            assert np.array_equal(got[k], want) if name.startswith(("keep", "int", "tail")) else \
                np.allclose(got[k], want, rtol=1e-5, atol=1e-5), (name, k)


#: (the loops over a runtime count are checked against numpy only: Triton 3.6's interpreter gives a scalar argument
#: 1-element data, which `range()` cannot take under numpy 2 — "only 0-dimensional arrays can be converted")
INTERPRETED = ("keep_mask_fill", "int_extrema", "tail_block_size")


def test_round9_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    pairs = list(r5.against_triton(lowered, tmp_path, "round9_cases", INTERPRETED, run=r7._run))
    for name, k, w, a in pairs:   # (the same sums in the same order as Triton's interpreter: bit for bit)
        assert np.array_equal(w, a), f"{name}: argument {k} differs from Triton's"
    assert len(pairs) == 7
