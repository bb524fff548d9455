"""Round 24's kernels (tests/fixtures/triton_round24.py), found by a helper's round of kernels over triton.language
3.6's API surface and LLM-library styles (build/r24t): the functional descriptor accesses, libdevice's conversions,
bit splits of doubles, `sad` and `rcp_*`, a flat tensor read through three unmasked levels, constexpr tuples,
16-bit offsets, `tl.bitonic_merge` and tensor members; with the libdevice functions that stay refused, each with its reason. Each
fixture kernel is ported and proven (sm_90); the lowered kernels run on numpy against numpy's own results."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_two_layouts as two

from conftest import load_module, needs_cargo
from tileport.frontends.triton.ct_numpy import CtModel

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round24.py"
MOD = load_module(FIXTURE, "triton_round24_fixture")
NAMES = ("desc_functional", "ld_conversions", "ld_double_bits", "ld_sad_rcp", "flat_three_levels", "tuple_constexpr",
         "int16_offsets", "merge_bitonic", "member_functions", "scaler")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round24")


@needs_cargo
def test_round24_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


#: the round's stand-in: the one numpy model of the ct operations (ct_numpy.py; it was Ct23 + Ct21 + Ct19 with ct.astype's RZ and f64 / int64 bitcasts)
Ct24 = CtModel



def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, Ct24)


def _cases(name):
    return [c for c in MOD.cases() if c[0] == name]


def _src(lowered, name):
    return (lowered / name / "lowered.py").read_text()


def test_round24_functional_descriptor_accesses(lowered):
    """`tl.load_tensor_descriptor(xd, offsets)` / `tl.store_tensor_descriptor(desc=yd, offsets=.., value=..)`
    (Triton 3.6's functional forms): the descriptor's load / store, tiles of its view (were "is not lowered")."""
    src = _src(lowered, "desc_functional")
    assert "ct.load(x_ptr" in src and "ct.store(y_ptr" in src, src
    (case,) = _cases("desc_functional")
    assert np.array_equal(_run(lowered, *case)[1], case[2][0] * 2)


def test_round24_libdevice_conversions(lowered):
    """libdevice's int2float_rn / ll2float_rn / uint2double_rn / int2double_rn / double2float_rn: ct.astype
    (rounded to nearest, cuTile's conversion); double2float_rz: ct.astype with RZ (1e300 gives FLT_MAX, not inf)."""
    src = _src(lowered, "ld_conversions")
    assert "rounding_mode=ct.RoundingMode.RZ" in src and src.count("ct.astype(") >= 6, src
    (case,) = _cases("ld_conversions")
    i, lng, u, d, n = case[2][0], case[2][1], case[2][2], case[2][3], case[2][6]
    got = _run(lowered, *case)
    with np.errstate(over="ignore"):
        rn = d.astype(np.float32)
    rz = np.where(np.abs(rn.astype(np.float64)) > np.abs(d), np.nextafter(rn, np.float32(0)), rn)
    # (cvt.rn.ftz / cvt.rz.ftz.f32.f64 under Triton: subnormal results flushed to zero, their sign kept)
    rn, rz = (np.where(np.abs(r) < np.finfo(np.float32).tiny, r * np.float32(0), r) for r in (rn, rz))
    got_f = got[4]
    assert np.array_equal(got_f.view(np.int32), np.concatenate([i.astype(np.float32), lng.astype(np.float32), rn,
                                                                 rz]).view(np.int32))
    assert got_f[3 * n] == np.finfo(np.float32).max and np.isinf(got_f[2 * n])
    assert got_f[2 * n + 4] == 0 and np.signbit(got_f[2 * n + 4]) and d[4].astype(np.float32) != 0
    assert np.array_equal(got[5], u.astype(np.float64) + i.astype(np.float64))


def test_round24_libdevice_double_bits(lowered):
    """double2hiint / double2loint (the f64's high / low 32 bits), hiloint2double(hi, lo) and with a literal 0,
    double_as_longlong / longlong_as_double: bitcasts, exact (-0.0, inf and the least subnormal included)."""
    (case,) = _cases("ld_double_bits")
    d = case[2][0]
    got = _run(lowered, *case)
    bits = d.view(np.int64)
    assert np.array_equal(got[1], np.concatenate([(bits >> 32).astype(np.int32), bits.astype(np.int32)]))
    want = np.concatenate([d, ((bits >> 32) << 32).view(np.float64), (bits + 1).view(np.float64)])
    assert np.array_equal(got[2].view(np.int64), want.view(np.int64))


def test_round24_libdevice_sad_and_rcp(lowered):
    """sad(a, b, c) of int32 a, b and uint32 c (PTX's sad.s32: `c + |a - b|`, wrapping in 32 bits) and of uint32
    a, b (sad.u32, the unsigned order); rcp_rn of f32 (`__nv_frcp_rn`, rcp.rn.ftz.f32: IEEE 1 / x, subnormals
    flushed) and rcp_rz of f64 (rcp.rz.f64): ct.truediv of 1 rounded so (Triton 3.6's PTX for sm_90,
    build/r24t/gpu/ptx_probe.txt)."""
    src = _src(lowered, "ld_sad_rcp")
    assert "rounding_mode=ct.RoundingMode.RN, flush_to_zero=True" in src and "RoundingMode.RZ)" in src, src
    (case,) = _cases("ld_sad_rcp")
    a, b, c, x, d = (case[2][k] for k in range(5))
    got = _run(lowered, *case)
    sgn = np.where(a < b, b.astype(np.int64) - a, a.astype(np.int64) - b)
    ua, ub = a.view(np.uint32).astype(np.int64), b.view(np.uint32).astype(np.int64)
    uns = np.where(ua < ub, ub - ua, ua - ub)
    want = np.concatenate([sgn + c, uns + c]) % 2 ** 32
    assert np.array_equal(got[5].view(np.uint32), want.astype(np.uint32))
    with np.errstate(over="ignore", divide="ignore"):
        assert np.array_equal(got[6][3:], np.float32(1) / x[3:]) and got[6][0] == np.float32(1) / np.float32(3)
    assert np.allclose(got[7], 1 / d, rtol=1e-15)


def test_round24_flat_tensor_three_levels(lowered):
    """`a * (B * C) + b * C + c` over a flat tensor, all unmasked: each inner dimension takes up to the next larger
    stride, the outermost the pieces left (round 22's rule for two levels). It was refused at launch: the middle
    dimension was taken for a split of the tensor's one dimension, which the outermost steps inside too."""
    (case,) = _cases("flat_three_levels")
    x = case[2][0].reshape(2, 4, 8)
    assert np.array_equal(_run(lowered, *case)[1].reshape(2, 4, 8), x - x.max(2, keepdims=True))


def test_round24_constexpr_tuple(lowered):
    """`SHAPE: tl.constexpr` passed `(4, 8)` (Triton 3.6 takes tuples of constexprs), read as `SHAPE[0]` and
    `tl.full(SHAPE, FILL[0], ..)`: one constexpr per element, as tuple arguments of numbers are (the capture refused
    it: "constexpr SHAPE=(4, 8) is not a bool, int or float")."""
    src = _src(lowered, "tuple_constexpr")
    assert "SHAPE__0: ct.Constant[int], SHAPE__1: ct.Constant[int]" in src, src
    (case,) = _cases("tuple_constexpr")
    x = case[2][0]
    assert np.array_equal(_run(lowered, *case)[1], np.maximum(x, np.float32(0.25 * 2)))


def test_round24_int16_offsets(lowered):
    """`tl.arange(0, N).to(tl.int16)` as offsets: widened to int32 for the gather (Triton extends a pointer's
    offset; the translator refused the 16-bit gather index)."""
    assert "ct.gather(x_ptr, ct.astype(o, ct.int32)" in _src(lowered, "int16_offsets")
    (case,) = _cases("int16_offsets")
    x = case[2][0]
    assert np.array_equal(_run(lowered, *case)[1], x + np.arange(16, dtype=np.float32))


def test_round24_bitonic_merge(lowered):
    """`tl.bitonic_merge(x, descending=DESC)` of a bitonic row (launched both ways): the last merge of Triton's
    bitonic network (standard.py `_bitonic_merge`), as tl.sort's network writes it (was "is not lowered")."""
    for case in _cases("merge_bitonic"):
        x, desc = case[2][0], case[3]["DESC"]
        want = np.sort(x, 1)[:, ::-1] if desc else np.sort(x, 1)
        assert np.array_equal(_run(lowered, *case)[1], want), desc


@pytest.mark.parametrize("call, why", [
    ("libdevice.fast_logf(x)", "approximate PTX instruction"),
    ("libdevice.fast_sinf(x)", "approximate PTX instruction"),
    ("libdevice.int2float_rz(i)", "converts integers to floats rounded to nearest only"),
    ("libdevice.double2float_ru(x.to(tl.float64))", "only double2float_rn / double2float_rz are lowered"),
    ("libdevice.float2uint_rz(x)", "a float to an unsigned integer is not lowered"),
    ("libdevice.fma_ru(x, x, x)", "fused multiply-add has no rounding mode"),
    ("libdevice.rsqrt_rn(x)", "correctly rounded reciprocal square root"),
    ("libdevice.double2hiint(x)", "libdevice has it for fp64"),
    ("libdevice.sad(a, b, 3)", "libdevice has it for int32, int32, uint32"),
])
def test_round24_libdevice_refused_with_reason(tmp_path, call, why):
    """libdevice functions with no exact cuTile form are refused at their file:line:col with the reason (they were
    "is not lowered (supported: ..)", a list of names)."""
    _refused_when(tmp_path, "ld_sad_rcp", "tl.store(r_ptr + offs, libdevice.rcp_rn(x), mask=m)",
                  f"i = a\n    tl.store(r_ptr + offs, {call}, mask=m)", why)


def _refused_when(tmp_path, kernel: str, old: str, new: str, why: str) -> None:
    """The fixture's ``kernel`` with ``old`` written ``new`` is refused at its file:line:col for ``why``, lowered
    at the fixture's own launches of it."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith(f"::{kernel}")]
    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace(old, new))
    with pytest.raises(LoweringError, match=rf"k.py:\d+:\d+: .*{why}"):
        lower_from_launches(f"{fx}::{kernel}", mine)


def test_round24_clamp_of_integers_is_tritons_error(tmp_path):
    """`tl.clamp(a, -5, 5)` of an int32 tile: semantic.clamp takes floats only ("Unexpected dtype int32. Only
    floating point clamp is supported", Triton's interpreter and compiler alike) — it was ported, silently; with a
    float bound the promotion makes it an f32 clamp, lowered so."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::ld_sad_rcp")]
    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("libdevice.sad(a, b, c)", "tl.clamp(a, -5, 5)"))
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: tl.clamp of int32 values: Triton 3.6 clamps floats only"):
        lower_from_launches(f"{fx}::ld_sad_rcp", mine)
    fx.write_text(FIXTURE.read_text().replace("libdevice.sad(a, b, c)", "tl.clamp(a, -2.5, 2.5).to(tl.int32)"))
    src = lower_from_launches(f"{fx}::ld_sad_rcp", mine).source
    assert "ct.minimum(ct.maximum(ct.astype(a, ct.float32), -2.5), 2.5)" in src, src


def test_round24_member_functions(lowered):
    """Triton 3.6's tensor members `x.associative_scan(1, f)`, `x.cast(tl.float16)`, `x.xor_sum(1)`, `x.cdiv(4)`,
    `x.reduce_or(1)`: the triton.language functions with x first (they were "call `x.xor_sum` is not supported")."""
    (case,) = _cases("member_functions")
    x = case[2][0]
    got = _run(lowered, *case)
    want = np.cumsum(x, 1, dtype=np.float32) + x.astype(np.float16).astype(np.float32)
    assert np.allclose(got[1], want, rtol=1e-6, atol=1e-6)
    flat = np.arange(32).reshape(4, 8)
    ors = np.bitwise_or.reduce((flat + 3) // 4, axis=1)
    assert np.array_equal(got[2], np.bitwise_xor.reduce(x.view(np.int32), axis=1) + ors)


@pytest.mark.parametrize("member, why", [("x.sort(descending=True)", "`tensor.sort` does not compile"),
                                         ("x.topk(4)", "has no `topk` member")])
def test_round24_members_triton_refuses(tmp_path, member, why):
    """`x.sort(..)` (Triton 3.6's tensor.sort fails to compile: "cannot convert None of type <class 'NoneType'> to
    tensor", read with triton.compile for sm_90) and `x.topk(k)` (no such member) are refused with that reason;
    both were lowered as tl.sort / tl.topk, porting what Triton refuses."""
    _refused_when(tmp_path, "merge_bitonic", "tl.bitonic_merge(tl.load(x_ptr + r * N + o), descending=DESC)",
                  f"tl.load(x_ptr + r * N + o).{member.split('.', 1)[1]}", why)


def test_round24_factory_kernel(lowered):
    """`def make_scaler(scale): SCALE = tl.constexpr(scale); @triton.jit def scaler(..): .. * SCALE` (a kernel a
    factory makes; Triton 3.6 compiles it, reading the closure's constexpr): found in the factory's body, the
    closure's constexprs recorded at capture (`closure`) and read as module constants (it was "no @triton.jit
    function 'scaler'")."""
    assert "* 3.0" in _src(lowered, "scaler"), _src(lowered, "scaler")
    (case,) = _cases("scale_by_three")
    got = two.run_copies(lowered / "scaler", MOD.scale_by_three, *case[1:], Ct24)
    assert np.array_equal(got[1], case[2][0] * np.float32(3))


def test_round24_factory_kernels_that_cannot_be_told_apart(tmp_path):
    """Two factories defining different kernels of one name: refused, naming the lines (the launch's kernel cannot be
    told from the name); launches of one factory's kernels with different closure values: refused, capture apart."""
    from tileport.errors import TileportError
    from tileport.frontends.triton.source import TritonSourceError, find_kernel
    from tileport.pipeline.triton import lower_from_launches

    fx = tmp_path / "k.py"
    src = FIXTURE.read_text()
    fx.write_text(src + "\n\ndef make_other():\n    @triton.jit\n    def scaler(x_ptr):\n        tl.store(x_ptr, 1.0)\n"
                  "    return scaler\n")
    with pytest.raises(TritonSourceError, match=r"2 @triton.jit functions named 'scaler' .*at lines \d+, \d+"):
        find_kernel(fx, "scaler")
    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::scaler")]
    other = dict(mine[0], closure={"SCALE": 2.0}, grid=[1, 1, 1])
    with pytest.raises(TileportError, match="different closure constexprs"):
        lower_from_launches(mine[0]["kernel"], [mine[0], other])


def test_round24_overlapping_windows_refused_at_launch(tmp_path):
    """`tl.load(x + t[:, None] * S + k[None, :])` over a flat tensor, no mask, K = 4 elements every S: the view's
    unit dimension takes up to the next larger stride (S), so with S = 2 < K the tile read padding where Triton
    reads the next window's elements — **silently wrong since round 22's rule** (S = 2 here; round 24's
    three-level rule met it too). The blocks read along such dimensions are now in the view (`View.blocks`) and a
    launch whose windows overlap is refused, saying why; S = 4 (no overlap) ports and reads what Triton reads."""
    from tileport.errors import TileportError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::unfold_windows")]
    tiled = [l for l in mine if any(a["name"] == "S" and a.get("value") == 4 for a in l["args"])]
    low = lower_from_launches(mine[0]["kernel"], tiled)
    assert low.views["x_ptr"].blocks, low.views["x_ptr"]
    low.write(tmp_path / "ok" / "lowered.py")
    (case,) = [c for c in _cases("unfold_windows") if c[2][2] == 4]
    got = two.run_copies(tmp_path / "ok", MOD.unfold_windows, *case[1:], Ct24)
    assert np.array_equal(got[1], case[2][0])
    from tileport.frontends.triton.capture import lowered_launch

    overlapping = [l for l in mine if l not in tiled]
    low = lower_from_launches(mine[0]["kernel"], overlapping)
    with pytest.raises(TileportError, match="the windows overlap"):
        lowered_launch(overlapping[0], low.report(), "lowered.py::unfold_windows")


def test_round24_window_tile_straddling_refused_at_launch(tmp_path):
    """`x + t[:, None] * S + (pid * B + tl.arange(0, B))[None, :]`, no mask, over a flat tensor: with S = 6, B = 4
    program 1's tile spans columns 4..7 of 6-element windows — Triton reads the next window's first elements there,
    the tile read padding, silently (before this check). Tiles at varying indices are in `View.blocks` as "every
    B" and a launch whose window is no whole number of them is refused; S = 8 ports and reads what Triton reads."""
    from tileport.errors import TileportError
    from tileport.frontends.triton.capture import lowered_launch
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::window_tiles")]
    whole = [l for l in mine if any(a["name"] == "S" and a.get("value") == 8 for a in l["args"])]
    low = lower_from_launches(mine[0]["kernel"], whole)
    assert (1, "every B") in low.views["x_ptr"].blocks, low.views["x_ptr"]
    low.write(tmp_path / "ok" / "lowered.py")
    (case,) = [c for c in _cases("window_tiles") if c[2][2] == 8]
    x = case[2][0].reshape(8, 8)
    got = two.run_copies(tmp_path / "ok", MOD.window_tiles, *case[1:], Ct24)
    assert np.array_equal(got[1].reshape(8, 8), x)
    straddling = [l for l in mine if l not in whole]
    low = lower_from_launches(mine[0]["kernel"], straddling)
    with pytest.raises(TileportError, match="a tile straddles a window's end"):
        lowered_launch(straddling[0], low.report(), "lowered.py::window_tiles")
