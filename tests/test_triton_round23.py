"""Round 23's kernels (tests/fixtures/triton_round23.py), found by a helper's round of kernels in new
triton.language styles (build/tri23): **Triton divides run-time scalars (`1.0 / n`, `a / b`, `1.0 / (t + 1)`) and
int / int tiles as f32 with div.full.f32; the port divided them IEEE (an ulp apart), silently**; a pointer tensor's
`.store` / `.atomic_add` members, a pointer minus offsets, a tensor descriptor's gather / scatter / atomic_add,
`tl.max` / `tl.min` of a boolean tile (the port failed to build), `tl.umulhi` by a run-time scalar, `tl.exp` /
`tl.sigmoid` of a float argument (refused). Each fixture kernel is ported and proven (sm_90); the lowered kernels
run on numpy against numpy's own results."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_two_layouts as two

from conftest import load_module, needs_cargo
from tileport.frontends.triton.ct_numpy import CtModel

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round23.py"
MOD = load_module(FIXTURE, "triton_round23_fixture")
NAMES = ("member_methods", "reversed_row", "desc_gather_scatter", "desc_atomic_add", "desc_store_of_load", "bool_any_all", "int_quotients",
         "scalar_quotients", "scalar_quotient_uses", "umulhi_scalar", "softmax_f16", "erf_gelu")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round23")


@needs_cargo
def test_round23_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


#: the round's stand-in: the one numpy model of the ct operations (ct_numpy.py; it was Ct14 with numpy's APPROX division, exp2 and mul)
Ct23 = CtModel



def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, Ct23)


def _case(name):
    (case,) = [c for c in MOD.cases() if c[0] == name]
    return case


def _src(lowered, name):
    return (lowered / name / "lowered.py").read_text()


def test_round23_member_store_and_atomic(lowered):
    """`(y_ptr + offs).store(v, mask=m)` and `(cnt + ..).atomic_add(v, mask=m)`: tl.store / tl.atomic_add of the
    pointer (they were refused, "statement .. has no lowering")."""
    name, grid, args, kw = _case("member_methods")
    x = args[0]
    got = _run(lowered, name, grid, args, kw)
    assert np.array_equal(got[1], x * 2) and got[2][0] == (x > 0).sum()


def test_round23_pointer_minus_offsets(lowered):
    """`x + n - 1 - offs` (a row read backwards): the negated offsets gathered (was "a Ptr cannot be used as a
    value here")."""
    assert "ct.gather(x_ptr" in _src(lowered, "reversed_row")
    name, grid, args, kw = _case("reversed_row")
    assert np.array_equal(_run(lowered, name, grid, args, kw)[1], args[0][::-1])


def test_round23_descriptor_gather_scatter_atomic(lowered):
    """`desc.gather(rows, 0)` / `desc.scatter(t, rows, 0)` (TMA row gather / scatter of a [1, BN] block) and
    `desc.atomic_add([0, 0], t)`: ct.gather / ct.scatter / ct.atomic_add at the block's element indices."""
    src = _src(lowered, "desc_gather_scatter")
    assert "ct.gather(x_ptr, (ct.reshape(rows, (BR, 1))" in src and "ct.scatter(y_ptr" in src, src
    name, grid, args, kw = _case("desc_gather_scatter")
    x, rows = args[0], args[1]
    want = np.zeros_like(x)
    want[rows] = x[rows] * 2
    assert np.array_equal(_run(lowered, name, grid, args, kw)[2], want)
    assert "ct.atomic_add(c_ptr" in _src(lowered, "desc_atomic_add")
    name, grid, args, kw = _case("desc_atomic_add")
    got = _run(lowered, name, grid, args, kw)[1]
    assert np.allclose(got, args[0].reshape(3, 16, 16).sum(0), rtol=1e-6, atol=1e-6)


def test_round23_descriptor_store_of_a_descriptor_load(lowered):
    """`yd.store([pm * BM + SHIFT, 0], xd.load([pm * BM, 0]))`, SHIFT a run-time size: the store is a scatter at
    its own element offsets — it took the offsets of the load lowered in its value (the last descriptor access
    lowered), writing the rows back where they were read, silently."""
    src = _src(lowered, "desc_store_of_load")
    assert "ct.scatter(y_ptr, (ct.reshape(((pm * BM) + SHIFT) + ct.arange" in src, src
    name, grid, args, kw = _case("desc_store_of_load")
    x, shift = args[0], args[4]
    want = np.zeros_like(x)
    want[shift:] = x[:48 - shift]
    assert np.array_equal(_run(lowered, name, grid, args, kw)[1], want)


def test_round23_bool_max_min_are_int32(lowered):
    """`tl.max(x > 0, 0)` / `tl.min(..)`: Triton widens a boolean (int1) operand to int32 before reducing (as int8
    and int16): 0 / 1 of int32, any / all — the port reduced the bools and cutile refused it ("Unsupported constant
    type bool min", its identity)."""
    assert "ct.max(ct.where(" in _src(lowered, "bool_any_all")
    name, grid, args, kw = _case("bool_any_all")
    got = _run(lowered, name, grid, args, kw)[1].reshape(3, 2)
    pos = args[0] > 0
    assert np.array_equal(got, np.stack([pos.any(1), pos.all(1)], 1).astype(np.int32))


def test_round23_int_quotients_are_tritons_f32_division(lowered):
    """`a / b` of int32 tiles and `a / 3`: Triton's semantic.truediv converts both to f32 and divides with
    div.full.f32; the lowering now writes its f32 division (APPROX, scaled) of the converted operands, where it
    wrote cuTile's `/` — an IEEE quotient."""
    src = _src(lowered, "int_quotients")
    assert src.count("rounding_mode=ct.RoundingMode.APPROX") == 2 and "ct.astype(a, ct.float32)" in src, src
    name, grid, args, kw = _case("int_quotients")
    a, b = args[0].astype(np.float32), args[1].astype(np.float32)
    got = _run(lowered, name, grid, args, kw)[2]
    assert np.allclose(got, np.concatenate([a / b, a / np.float32(3)]), rtol=1e-6)


def test_round23_scalar_quotients_are_tritons_f32_division(lowered):
    """`1.0 / n`, `a / b` of float arguments and `1.0 / (t + 1)` of a loop index: run-time scalars are 0-d f32
    tensors in Triton, divided by div.full.f32 — the port wrote Python's `/` (IEEE), silently. `tl.exp(-r)` /
    `tl.sigmoid(r)` of a float argument: Triton's exp2(x * log2 e) of a 0-d f32 tile (were refused)."""
    src = _src(lowered, "scalar_quotients")
    assert src.count("rounding_mode=ct.RoundingMode.APPROX") >= 4 and "1.0 / n" not in src, src
    assert "ct.exp2((ct.full((), -r, dtype=ct.float32)) * 1.4426950408889634)" in src, src
    name, grid, args, kw = _case("scalar_quotients")
    x = args[0].astype(np.float64)
    m = np.zeros_like(x)
    for t in range(9):
        m = m + (x - m) / (t + 1)
    r = 0.37
    want = np.concatenate([x / 7 + 1.7 / 0.3, m * np.exp(-r) / (1 + np.exp(-r))])
    assert np.allclose(_run(lowered, name, grid, args, kw)[1], want, rtol=1e-5, atol=1e-6)


def test_round23_scalar_quotient_uses(lowered):
    """A quotient of run-time scalars (now a 0-d f32 tile) where a scalar was read: `tl.full([B], 1.0 / n, ..)`
    (broadcast), an `if s / n > 0.5:` test, a loop-carried `acc = 1.0 / n`, a one-element store."""
    for name, grid, args, kw in [c for c in MOD.cases() if c[0] == "scalar_quotient_uses"]:
        x, n, s = args[0], args[2], args[3]
        v = np.float32(1 / n) * (2 if s / n > 0.5 else 1)
        want = np.concatenate([x * v + (1 / n + 3 * s), [s / n]])
        assert np.allclose(_run(lowered, name, grid, args, kw)[1], want, rtol=1e-6), s


def test_round23_umulhi_by_a_runtime_scalar(lowered):
    name, grid, args, kw = _case("umulhi_scalar")
    k = args[0].astype(np.uint64)
    want = ((k * np.uint64(37)) >> np.uint64(32)).astype(np.int32)
    assert np.array_equal(_run(lowered, name, grid, args, kw)[1], want)


def test_round23_constexpr_quotient_stays_python(tmp_path):
    """A quotient of constexprs (`BLOCK / 2`) is Python's, folded when Triton compiles: left as written."""
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::reversed_row")]
    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("tl.load(x_ptr + n - 1 - offs, mask=m, other=0.0)",
                                              "tl.load(x_ptr + n - 1 - offs, mask=m, other=0.0) * (BLOCK / 2)"))
    src = lower_from_launches(f"{fx}::reversed_row", mine).source
    assert "(BLOCK / 2)" in src and "APPROX" not in src, src


def test_round23_erf_is_libdevice_erff(lowered):
    """`tl.math.erf(x)` of f32 (an exact GELU): libdevice's __nv_erff step by step (Triton 3.6's PTX for sm_90 calls
    it for tl.math.erf and libdevice.erf alike): |x| >= 1.00296 takes 1 - exp2(p(|x|)) with x's sign, else x + x *
    p(x * x); six fused multiply-adds of its coefficients. On numpy (products and adds rounded apart) within 2e-7 of
    erf; NaN stays NaN, ±inf gives ±1, -0.0 stays -0.0. It was refused ("cuTile Python 1.7 has no erf")."""
    import math

    src = _src(lowered, "erf_gelu")
    assert src.count("flush_to_zero=True) + ") == 14 and "1.002959966659546" in src, src
    name, grid, args, kw = _case("erf_gelu")
    x = args[0]
    with np.errstate(invalid="ignore"):
        got = _run(lowered, name, grid, args, kw)[1]
    want = np.array([math.erf(v) if not np.isnan(v) else np.nan for v in x.astype(np.float64)])
    assert np.allclose(got[:100], want, rtol=2e-7, atol=2e-7, equal_nan=True), np.abs(got[:100] - want).max()
    assert np.signbit(got[1]) and got[6] == -1.0 and np.isnan(got[7])
    ok = np.isfinite(x)
    x64 = x.astype(np.float64)[ok]
    gelu = 0.5 * x64 * (1 + np.array([math.erf(v / math.sqrt(2)) for v in x64]))
    assert np.allclose(got[100:][ok], gelu, rtol=1e-6, atol=1e-6)


def test_round23_erf_of_f64_refused(tmp_path):
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::erf_gelu")]
    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("tl.math.erf(x), mask=m)", "tl.math.erf(x.to(tl.float64)), mask=m)"))
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: tl.math.erf of a tile not known to be f32"):
        lower_from_launches(f"{fx}::erf_gelu", mine)


def test_round23_softmax_of_f16_is_f32(lowered):
    """`tl.softmax(x)` of an f16 row: triton.language's `x - max(x)` is f32 (tl.max widens a 16-bit float), so the
    exp, the sum and the quotient are f32; the lowering took the max in f16 and computed them in f16, silently
    less precise."""
    src = _src(lowered, "softmax_f16")
    assert "(ct.max(ct.astype(smx1, ct.float32), axis=0, keepdims=True))" in src and "ct.exp2(" in src, src
    name, grid, args, kw = _case("softmax_f16")
    x = args[0].astype(np.float32)
    e = np.exp(x - x.max(1, keepdims=True))
    assert np.allclose(_run(lowered, name, grid, args, kw)[1], e / e.sum(1, keepdims=True), rtol=1e-6, atol=1e-7)


def test_round23_sigmoid_of_f16_refused(tmp_path):
    """tl.sigmoid is `1 / (1 + math.exp(-x))` in triton.language: Triton refuses an f16 tile ("Expected dtype
    ['fp32', 'fp64'] but got fp16"); it was ported."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::softmax_f16")]
    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("tl.softmax(tl.load(x_ptr + r * N + c))",
                                              "tl.sigmoid(tl.load(x_ptr + r * N + c))"))
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: `tl.sigmoid\(.*\)`: Triton 3.6 takes tl.exp of fp32 / "
                                            r"fp64 only"):
        lower_from_launches(f"{fx}::softmax_f16", mine)
