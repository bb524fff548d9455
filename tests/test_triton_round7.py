"""Round 7's lowerings checked on the CPU against Triton itself: a float a loop carries that only a constexpr `if`
accumulates into (a chunked cross-entropy's label smoothing, launched with and without), integer tiles of mixed
signedness with a negative literal (stochastic rounding's bits), and `libdevice.pow` of an int exponent (Adam's bias
correction at a step count). Each launch of the LLM fixture's `round7_cases()` runs through the lowered cuTile Python
on numpy against numpy references and through Triton's interpreter (TILEPORT_TORCH_PYTHON) against Triton."""
from __future__ import annotations

import numpy as np
import pytest

import test_triton_round5 as r5
from test_triton_two_layouts import tritons_outputs

NAMES = ("smoothing_chunks", "unsigned_mix", "pow_int_step")
#: Triton 3.6's interpreter computes no libdevice.pow of two scalars (its result is None): the bias correction is
#: checked against numpy only
INTERPRETED = ("smoothing_chunks", "unsigned_mix")


class Ct7(r5.CtMore):
    uint32 = np.uint32

    @staticmethod
    def bitcast(x, dtype):
        return np.asarray(x).view(dtype)

    @staticmethod
    def pow(a, b):
        return np.power(np.float32(a), np.float32(b))


def _run(lowered, mod, name, grid, args, kw):
    saved, r5.CtMore = r5.CtMore, Ct7
    try:
        return r5._run(lowered, mod, name, grid, args, kw)
    finally:
        r5.CtMore = saved


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    from tileport.frontends.cutile_py.capture import run_captured
    from tileport.pipeline.triton import lower_from_launches

    root = tmp_path_factory.mktemp("round7")
    launches = list(run_captured(r5.FIXTURE, []).launches.values())
    for name in NAMES:
        mine = [l for l in launches if l["kernel"].endswith(f"::{name}")]
        lower_from_launches(f"{r5.FIXTURE}::{name}", mine).write(root / name / "lowered.py")
    return root


def test_round7_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    assert "sum_x = ct.full((), 0.0, dtype=ct.float32)" in src["smoothing_chunks"]
    assert "ct.astype(bits, ct.uint32) + r" in src["unsigned_mix"]
    assert "ct.full((), step, dtype=ct.float32)" in src["pow_int_step"]


def _reference(name, args, kw):
    if name == "smoothing_chunks":
        x, y, _, eps = args
        lse = np.log(np.exp(x.astype(np.float64)).sum(1))
        loss = lse - x[np.arange(3), y]
        if kw["SMOOTH"]:
            loss = loss * (1 - eps) + (lse * x.shape[1] - x.sum(1)) * (eps / x.shape[1])
        return 2, loss
    if name == "unsigned_mix":
        v, r = args[:2]
        bits = (v.view(np.uint32) + (r.view(np.uint32) & np.uint32(0xFFFF))) & np.uint32(0xFFFF0000)
        return 2, bits.view(np.float32)
    p, m, _, _, lr, b1, step = args
    return 2, p - lr * m / (1 - b1 ** step)


def test_round7_lowered_kernels_match_numpy(lowered):
    mod = r5._module()
    for name, grid, args, kw in mod.round7_cases():
        got = _run(lowered, mod, name, grid, args, kw)
        k, want = _reference(name, args, kw)
        if name == "unsigned_mix":
            assert np.array_equal(got[k].view(np.uint32), want.view(np.uint32)), name
        else:
            assert np.allclose(got[k], want, rtol=1e-5, atol=1e-5), name


def test_round7_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    want = tritons_outputs(r5.FIXTURE, tmp_path, "round7_cases", INTERPRETED)
    mod = r5._module()
    checked = 0
    for i, (name, grid, args, kw) in enumerate(mod.round7_cases()):
        if name not in INTERPRETED:
            continue
        got = _run(lowered, mod, name, grid, args, kw)
        for k, a in enumerate(got):
            if isinstance(a, np.ndarray):
                checked += 1
                w = want[f"{i}_{k}"]
                same = np.array_equal(w.view(np.uint32), a.view(np.uint32)) if a.dtype == np.float32 and \
                    name == "unsigned_mix" else np.allclose(w, a, rtol=1e-6, atol=1e-6)
                assert same, f"{name}: argument {k} differs from Triton's"
    assert checked == 9
