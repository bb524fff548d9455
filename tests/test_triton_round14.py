"""Round 14's kernels (tests/fixtures/triton_round14.py), found by a helper's own Triton probes (build/tri14): float
`%` as Triton's fmod (it was cuTile's floor `%`: the divisor's sign, silently), integer tiles of mixed signedness
compared and min-maxed in the promoted unsigned type, integer tiles with float scalars in f32, negative literal
divisors, `tl.cdiv` of a tile by a literal, `tl.full(x.shape, ..)`, `tl.umulhi` of a uint32 array. Each launch runs
through the lowered cuTile Python on numpy (the round-11 stand-in) against numpy and against Triton's interpreter
(TILEPORT_TORCH_PYTHON); each is ported and proven (sm_90)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round13 as r13
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round14.py"
NAMES = ("fmod_forms", "mixed_sign_ints", "int_with_float_scalars", "negative_divisor_cdiv", "full_of_shape_umulhi",
         "narrow_scans_unsigned_div", "int8_arg_reduce")
MOD = load_module(FIXTURE, "triton_round14_fixture")


class Ct14(r13.Ct13):
    @staticmethod
    def abs(x):
        return np.abs(x)

    @staticmethod
    def maximum(a, b, flush_to_zero=False, propagate_nan=False):
        return np.maximum(a, b)

    @staticmethod
    def minimum(a, b, flush_to_zero=False, propagate_nan=False):
        return np.minimum(a, b)


lowered = two.lowered_fixture(FIXTURE, NAMES, "round14")


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, Ct14)


def test_round14_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    # fmod: the magnitudes' remainder (no sign differs: cuTile's floor % corrects nothing), given the dividend's sign
    assert "remainder1 = ct.abs(x) % ct.abs(y)" in src["fmod_forms"]
    assert "ct.where(x < 0, -remainder1, remainder1)" in src["fmod_forms"]
    assert "ct.abs(x) % 6.283185307179586" in src["fmod_forms"]
    assert "max(period, 0.0 - period)" in src["fmod_forms"]
    # int32 with uint32: both uint32, as Triton promotes them
    assert "ct.astype(x, ct.uint32) < u" in src["mixed_sign_ints"]
    assert "ct.minimum(ct.astype(x, ct.uint32), u)" in src["mixed_sign_ints"]
    # an int32 tile with a float: f32
    assert "ct.astype(i, ct.float32) > 2.5" in src["int_with_float_scalars"]
    assert "ct.astype(i, ct.float32) + 1.5" in src["int_with_float_scalars"]
    assert "ct.where(f > 0, ct.astype(i, ct.float32), 0.5)" in src["int_with_float_scalars"]
    # x // -3 is -(x // 3) truncated, x % -3 is x % 3 truncated; tl.cdiv's `4 - 1` folded
    assert "(-3)" not in src["negative_divisor_cdiv"] and "-(ct.where(" in src["negative_divisor_cdiv"]
    assert "dividend1 = x + 3" in src["negative_divisor_cdiv"]
    # x.shape; a uint32 array known as unsigned
    assert "ct.full((BLOCK,), 2, dtype=x_ptr.dtype)" in src["full_of_shape_umulhi"]
    # int8 running sums in int32 (dtype=: int16); uint32 division through int64
    assert "ct.cumsum(ct.astype(x, ct.int32), axis=0)" in src["narrow_scans_unsigned_div"]
    assert "ct.cumsum(ct.astype(x, ct.int16), axis=0)" in src["narrow_scans_unsigned_div"]
    assert "ct.astype(ct.astype(u, ct.int64) // 3, ct.uint32)" in src["narrow_scans_unsigned_div"]
    assert "ct.astype(x, ct.int32)" in src["int8_arg_reduce"] and "ct.max(x," not in src["int8_arg_reduce"]


def test_round14_lowered_kernels_match_numpy(lowered):
    for name, grid, args, kw in MOD.cases():
        got = _run(lowered, name, grid, args, kw)
        if name == "fmod_forms":
            x, y = args[0], args[1]
            assert np.array_equal(got[2], np.fmod(x, y))
            assert np.allclose(got[3], np.fmod(x, np.float32(6.283185307179586)), rtol=0, atol=0)
            assert np.array_equal(got[4], np.fmod(x, np.float32(-2.5)))
            assert (np.sign(got[2]) * np.sign(x) >= 0).all()   # the dividend's sign (cuTile's %: the divisor's)
        elif name == "mixed_sign_ints":
            x, u = args[0].astype(np.uint32), args[1]
            assert np.array_equal(got[2], (x < u).astype(np.int32))
            assert np.array_equal(got[3], np.minimum(x, u)) and np.array_equal(got[4], np.maximum(x, u))
        elif name == "int_with_float_scalars":
            i, f = args[0], args[1]
            assert np.array_equal(got[2], (i > 2.5).astype(np.int32) + (i == 3) * 10)
            assert np.array_equal(got[3], i.astype(np.float32) + 1.5)
            assert np.array_equal(got[4], np.where(f > 0, i.astype(np.float32), 0.5))
        elif name == "negative_divisor_cdiv":
            x = args[0]
            assert np.array_equal(got[1], np.trunc(x / -3).astype(np.int32))
            assert np.array_equal(got[2], np.fmod(x, -3))
            assert np.array_equal(got[3], np.trunc((x + 3) / 4).astype(np.int32))
        elif name == "full_of_shape_umulhi":
            x = args[0].astype(np.uint64)
            want = ((x * 0x27d4eb2d) >> 32).astype(np.uint32) ^ (args[0] * np.uint32(2))
            assert np.array_equal(got[1], want)
        elif name == "narrow_scans_unsigned_div":
            x, u = args[0].astype(np.int32), args[1]
            assert np.array_equal(got[2], np.cumsum(x, 1)) and np.array_equal(got[3], np.cumsum(x, 1))
            assert (np.abs(np.cumsum(x, 1)) > 127).any()   # (sums an int8 scan would wrap)
            assert np.array_equal(got[4], u // 3) and np.array_equal(got[5], u % 1000)
        elif name == "int8_arg_reduce":
            x = args[0]
            assert np.array_equal(got[1], x.argmax(1)) and np.array_equal(got[2], x.min(1))
            assert np.array_equal(got[3], x.argmin(1))


def test_round14_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    for name, k, w, a in two.against_triton(FIXTURE, MOD, tmp_path, "cases", NAMES,
                                            lambda *case: _run(lowered, *case)):
        assert np.array_equal(w, a), f"{name}: argument {k} differs from Triton's"


@pytest.mark.parametrize("body, expect", [
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x % 2.0)", "ct.where(x < 0, -remainder1, remainder1)"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x % -2.0)", "ct.abs(x) % 2.0"),
    # of a runtime float argument: frem too on the GPU, where `s` is an fp32 scalar tensor (Triton's interpreter
    # passes it as a Python float and takes Python's `%`: it gives 0.5 for -7.5 % 2.0 there, -1.5 for a loaded -7.5)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x + s % 2.0)",
     "dividend1 = ct.full((1,), s, dtype=ct.float32)"),
    # libdevice.fmod (fmodf): the same form (it was refused as missing in cuTile)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, libdevice.fmod(x, x * 0.5 + 1.0))",
     "ct.where(x < 0, -remainder1, remainder1)"),
])
def test_float_remainder_takes_the_dividends_sign(tmp_path, body, expect):
    """Triton's float `%` is `frem` (C's fmod; its interpreter's np.fmod): -7.5 % 2.0 is -1.5. cuTile's `%` is
    Python's (0.5), which the lowering wrote as it was (proven all the same: build/tri14 `float_mod_neg`, 237 of
    500 outputs unlike Triton's interpreter)."""
    import test_triton_frontend as tf

    assert expect in tf._lowered(tmp_path, body)


@needs_cargo
def test_round14_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))
