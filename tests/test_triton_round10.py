"""Round 10's kernels (tests/fixtures/triton_idioms_llm.py, `round10_cases()`), found by a helper's own Triton
kernels: `tl.clamp(.., propagate_nan=ALL)` (it was lowered without the option: a NaN became `lo`, silently), an int
seed argument converted to uint32 (`seed.to(tl.uint32)`: the conversion was dropped and cuTile Python refused
uint32 + int32), `tl.fdiv` with and without `ieee_rounding`, `tl.rand(.., n_rounds=)`, `tl.argmax(..,
tie_break_left=False)` and `tl.sort(.., descending=DESC)` launched both ways (each refused). Each launch runs
through the lowered cuTile Python on numpy against numpy and through Triton's interpreter (TILEPORT_TORCH_PYTHON)
against Triton; the slow run ports them (tests/test_triton_frontend.py, LLM_KERNELS)."""
from __future__ import annotations

import numpy as np
import pytest

import test_triton_round5 as r5
import test_triton_round7 as r7

NAMES = ("clamp_nan_all", "seed_hash_u32", "fdiv_forms", "rand_rounds", "argmax_right", "sort_flag")
#: (the sort's network is checked in its lowered form and, ported, on the GPU: the numpy stand-in has no
#: extract/cat)
INTERPRETED = ("clamp_nan_all", "seed_hash_u32", "fdiv_forms", "rand_rounds", "argmax_right")


class Ct10(r7.Ct7):
    @staticmethod
    def maximum(a, b, propagate_nan=False):
        return np.maximum(a, b) if propagate_nan else np.fmax(a, b)

    @staticmethod
    def minimum(a, b, propagate_nan=False):
        return np.minimum(a, b) if propagate_nan else np.fmin(a, b)


_run = r5.runner(Ct10)


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return r5.lower_fixture(tmp_path_factory.mktemp("round10"), NAMES)


def test_round10_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    assert "ct.minimum(ct.maximum(x, lo, propagate_nan=True), hi, propagate_nan=True)" in src["clamp_nan_all"]
    assert "ct.minimum(ct.maximum(x, lo), hi)" in src["clamp_nan_all"]
    assert "ct.astype(seed, ct.uint32)" in src["seed_hash_u32"]
    assert src["fdiv_forms"].count("ct.truediv(") == 1 and " / " in src["fdiv_forms"], src["fdiv_forms"]
    assert "7 rounds" in src["rand_rounds"] and src["rand_rounds"].count("_p0 = ") == 7
    assert "ct.max(ct.where(x == best" in src["argmax_right"] and ", -1), axis=0)" in src["argmax_right"]
    assert "(1 if DESC else 0)" in src["sort_flag"] and "DESC: ct.Constant[bool]" in src["sort_flag"]


def _reference(name, args, kw):
    if name == "clamp_nan_all":
        x = args[0]
        return {1: np.clip(x, -1.0, 1.5), 2: np.where(np.isnan(x), np.float32(-1.0), np.clip(x, -1.0, 1.5))}
    if name == "seed_hash_u32":
        h = np.arange(300, dtype=np.uint32) + np.uint32(12345)
        return {0: ((h ^ (h >> np.uint32(7))) >> np.uint32(1)).astype(np.int32)}
    if name == "fdiv_forms":
        return {3: args[0] / args[1]}
    if name == "argmax_right":
        x = args[0]
        return {1: (x.shape[1] - 1 - np.argmax(x[:, ::-1], 1)).astype(np.int32)}
    return {}


def test_round10_lowered_kernels_match_numpy(lowered):
    mod = r5._module()
    for name, grid, args, kw in mod.round10_cases():
        if name not in INTERPRETED:
            continue
        got = _run(lowered, mod, name, grid, args, kw)
        for k, want in _reference(name, args, kw).items():
            assert np.array_equal(got[k], want, equal_nan=True), (name, k, got[k][:8], want[:8])


def test_round10_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    pairs = list(r5.against_triton(lowered, tmp_path, "round10_cases", INTERPRETED, run=_run))
    for name, k, w, a in pairs:
        close = name == "fdiv_forms" and k == 2   # (Triton's `/` approximates, as the stand-in's exact quotient)
        if name == "clamp_nan_all" and k == 2:   # the default clamp of a NaN: lo on the GPU (max/min that drop a
            # NaN, as Triton compiles it and cuTile's default is), NaN in Triton's interpreter (np.clip): compared
            # off the NaNs, which the numpy check above holds to lo
            w, a = w[~np.isnan(w)], a[~np.isnan(w)]
        ok = np.allclose(w, a, rtol=1e-6, equal_nan=True) if close else np.array_equal(w, a, equal_nan=True)
        assert ok, f"{name}: argument {k} differs from Triton's"
    assert len(pairs) == 11
