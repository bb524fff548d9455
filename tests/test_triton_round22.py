"""Round 22's kernels (tests/fixtures/triton_round22.py), found by a helper's round of kernels in older and rarer
triton.language styles (build/tri22): **a constant element offset that is whole rows of a 2-D access (`y + R * C +
r[:, None] * C + c[None, :]`) was folded into the unit-stride run's tile index — a column block past the row's
extent — so the store was dropped, silently** (now row block 1 of the larger-stride run); libdevice's saturatef,
fdim, float_as_int / int_as_float / float_as_uint / uint_as_float, mulhi, hadd / rhadd, mul24 and ffs ("not
lowered"), written exactly from libdevice.10.bc; `a // D` / `a % D` of a constexpr launched with both signs (the
port failed to build: a tile compared with a scalar bool); `p.advance(..)`, a block pointer's method ("call
`p.advance` is not supported"). Each fixture kernel is ported and proven (sm_90); the lowered kernels run on numpy
against numpy's own results."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round14 as r14
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round22.py"
MOD = load_module(FIXTURE, "triton_round22_fixture")
NAMES = ("rows_offset", "same_stride_rows", "packed_qkv_v", "libdevice_float_bits", "libdevice_int_ops", "divmod_signed_constexpr", "advance_method")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round22")


@needs_cargo
def test_round22_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, r14.Ct14)


def _cases(name):
    return [c for c in MOD.cases() if c[0] == name]


def test_round22_offset_of_whole_rows_goes_to_the_rows(lowered):
    """`y + R * C + r[:, None] * C + c[None, :]`: R * C is row block 1 of the stride-C run, not column block R of
    the unit-stride one (that tile lay past the view's row extent of C: the second store was dropped)."""
    src = (lowered / "rows_offset" / "lowered.py").read_text()
    assert "index=(1, 0)" in src and "index=(0, 4)" not in src, src
    ((name, grid, args, kw),) = _cases("rows_offset")
    got = _run(lowered, name, grid, args, kw)[1]
    assert np.array_equal(got[0], args[0]) and np.array_equal(got[1], args[0] * 2), got


def test_round22_offset_inside_a_row_still_folds(tmp_path):
    """An element offset that stays inside one row of the larger-stride run (`y + C // 2 + r * C + c`, c a run of
    C // 2) is still the unit run's block 1; one that is neither whole rows nor inside a row is a scatter."""
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::rows_offset")]
    base = FIXTURE.read_text()
    for k, (old, new, want) in enumerate((
            ("x = tl.load(x_ptr + r[:, None] * C + c[None, :])",
             "x = tl.load(x_ptr + r[:, None] * C + tl.arange(0, C // 2)[None, :] + C // 2)",
             "ct.load(x_ptr, index=(0, 1), shape=(R, C // 2)"),
            ("tl.store(y_ptr + R * C + r[:, None] * C + c[None, :], x * 2.0)",
             "tl.store(y_ptr + 16 + r[:, None] * C + c[None, :], x * 2.0)",
             "ct.scatter(y_ptr"))):
        fx = tmp_path / f"k{k}.py"
        fx.write_text(base.replace(old, new))
        src = lower_from_launches(f"{fx}::rows_offset", mine).source
        assert want in src, src


def test_round22_scalar_term_of_a_runs_stride(lowered):
    """A scalar term of the same stride as an index vector (`x + C * R + r[:, None] * C + ..`: whole row blocks of
    the outermost run, moved into its tile index; `x + 2 * C + ..`, `row + 2 * H * D + h[:, None] * D + ..`: not
    whole blocks / not the outermost stride, gathered) read the rows Triton reads; as a dimension of its own with
    the run's stride it had an extent of 1 and its tile read as padding (zeros), silently."""
    src = (lowered / "same_stride_rows" / "lowered.py").read_text()
    assert "ct.gather(x_ptr, 2 * C + " in src and "1 * R + ct.arange(R" in src, src
    ((name, grid, args, kw),) = _cases("same_stride_rows")
    x = args[0]
    assert np.array_equal(_run(lowered, name, grid, args, kw)[1], x[2:6] + x[4:8])
    ((name, grid, args, kw),) = _cases("packed_qkv_v")
    assert np.array_equal(_run(lowered, name, grid, args, kw)[1], args[0][:, 2])


def test_round22_libdevice_float_bits(lowered):
    src = (lowered / "libdevice_float_bits" / "lowered.py").read_text()
    assert "ct.bitcast(" in src and "1.1754943508222875e-38" in src, src
    ((name, grid, args, kw),) = _cases("libdevice_float_bits")
    x, y = args[0], args[1]
    got = _run(lowered, name, grid, args, kw)
    with np.errstate(invalid="ignore"):
        sat = np.where(np.isnan(x) | (np.abs(x) < np.float32(2.0 ** -126)), np.float32(0), np.clip(x, 0, 1))
        dim = np.where(np.isnan(x) | np.isnan(y), x + y, np.where(x > y, x - y, np.float32(0)))
        back = (x.view(np.int32) ^ 1).view(np.float32) + y
    assert np.array_equal(got[2], sat, equal_nan=True), (got[2][:8], sat[:8])
    assert np.array_equal(got[3], dim, equal_nan=True), (got[3][:8], dim[:8])
    assert np.array_equal(got[4], x.view(np.int32))
    assert np.array_equal(got[5], back, equal_nan=True)


def test_round22_libdevice_int_ops(lowered):
    ((name, grid, args, kw),) = _cases("libdevice_int_ops")
    a, b = (v.astype(np.int64) for v in args[:2])
    got = _run(lowered, name, grid, args, kw)

    def s24(v):
        return ((v & 0xFFFFFF) ^ 0x800000) - 0x800000

    low = a & -a
    want = [(a * b) >> 32, np.floor_divide(a + b, 2), np.floor_divide(a + b + 1, 2),
            ((s24(a) * s24(b)) & 0xFFFFFFFF).astype(np.uint32).view(np.int32),
            np.where(low == 0, 0, np.log2(np.where(low == 0, 1, low & 0xFFFFFFFF)).astype(np.int64) + 1)]
    for k, w in enumerate(want):
        assert np.array_equal(got[2 + k], np.asarray(w).astype(np.int32)), (k, got[2 + k][:6], w[:6])


def test_round22_libdevice_int_ops_of_other_dtypes_refused(tmp_path):
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::libdevice_float_bits")]
    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("libdevice.saturatef(x)", "libdevice.ffs(x)"))
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: libdevice.ffs of \['ct.float32'\] tiles: lowered for "
                                            r"int32"):
        lower_from_launches(f"{fx}::libdevice_float_bits", mine)


def test_round22_divmod_by_a_constexpr_of_both_signs(lowered):
    src = (lowered / "divmod_signed_constexpr" / "lowered.py").read_text()
    assert "((a ^ D) < 0)" in src, src
    for name, grid, args, kw in _cases("divmod_signed_constexpr"):
        a, d = args[0].astype(np.int64), kw["D"]
        q = np.trunc(a / d).astype(np.int64)
        got = _run(lowered, name, grid, args, kw)
        assert np.array_equal(got[1], q) and np.array_equal(got[2], a - q * d), kw


def test_round22_advance_method(lowered):
    src = (lowered / "advance_method" / "lowered.py").read_text()
    assert "ct.load(x_ptr, index=(s,), shape=(BLOCK,)" in src, src
    ((name, grid, args, kw),) = _cases("advance_method")
    x = np.concatenate([args[0], np.zeros(28, np.float32)])
    want = sum(x[32 * s:32 * s + 32] * (s + 1) for s in range(4))
    assert np.allclose(_run(lowered, name, grid, args, kw)[1], want, rtol=1e-5, atol=1e-5)


def test_round22_libdevice_int_op_with_a_literal(tmp_path):
    """`libdevice.mulhi(c, 12345)` (round 20's libdevice_round): the literal an int32 tile beside the other operand;
    a scalar that is no int32 literal stays refused."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::libdevice_int_ops")]
    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("libdevice.mulhi(a, b)", "libdevice.mulhi(a, 12345)"))
    src = lower_from_launches(f"{fx}::libdevice_int_ops", mine).source
    assert "ct.full((BLOCK,), 12345, dtype=ct.int32)" in src, src
    fx.write_text(FIXTURE.read_text().replace("libdevice.mulhi(a, b)", "libdevice.mulhi(a, n)"))
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: libdevice.mulhi of a scalar: lowered for tiles, and an "
                                            r"int32 literal beside one"):
        lower_from_launches(f"{fx}::libdevice_int_ops", mine)


COLUMN_PAST = '''
import numpy as np
import triton
import triton.language as tl


@triton.jit
def column_past(x_ptr, y_ptr, S, R: tl.constexpr, BC: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, BC)
    x = tl.load(x_ptr + BC + r[:, None] * S + c[None, :])
    tl.store(y_ptr + r[:, None] * BC + c[None, :], x)


if __name__ == "__main__":
    S = {S}
    column_past[(1,)](np.ones((5, S), np.float32), np.zeros((4, 16), np.float32), S, R=4, BC=16)
'''


def test_round22_offset_folded_under_a_runtime_stride_checked_at_launch(tmp_path):
    """`x + BC + r[:, None] * S + c[None, :]` (S a runtime row stride): the offset is folded into the unit-stride
    run (tile 1) and the view states the 2 * BC elements the tile reaches; a launch whose rows are shorter (S = BC:
    Triton reads the next row there) is refused, where the port read zeros past the row, silently."""
    from tileport.frontends.triton.views import View, ViewError, view_layout
    from tileport.pipeline.triton import lower_from_launches

    fx = tmp_path / "k.py"
    fx.write_text(COLUMN_PAST.replace("{S}", "32"))
    mine = [l for l in two.captured_launches(fx) if l["kernel"].endswith("::column_past")]
    lw = lower_from_launches(f"{fx}::column_past", mine)
    assert "index=(0, 1)" in lw.source, lw.source
    view = View.from_json(lw.report()["views"]["x_ptr"])
    assert view.unit_reach == ("(1 + 1) * (BC)",)
    assert view_layout(view, (5, 32), (32, 1), {"S": 32, "R": 4, "BC": 16}) == ((5, 32), (32, 1))
    with pytest.raises(ViewError, match=r"x_ptr: the kernel reads 32 elements along its unit-stride dimension .* but "
                                        r"its rows hold 16 at this launch"):
        view_layout(view, (5, 16), (16, 1), {"S": 16, "R": 4, "BC": 16})
    # (a view without the field, as every kernel whose offsets need no check, reads and writes as before)
    assert "unit_reach" not in View("p", view.dims).as_json()
