"""Round 20's kernels (tests/fixtures/triton_round20.py), found by a helper's sweep of Triton 3.6's
triton.language API (build/tri20): `tl.add` / `tl.sub` / `tl.mul` (refused: "tl.add is not lowered") lowered as
their operators; `tl.xor_sum` of a tile launched as int8 and int32 (refused: "not known to be of integers") and
**`tl.sum` of it, added in int8 at the int8 launch where Triton adds in int32 (silently wrapped)**; **`acc =
tl.dot(a, b, acc)` of operands launched as f32 and f16, ct.mma of the f32 tiles (f32 products where Triton
multiplies tf32-rounded operands, silently; refused as one f32 launch is)**; `.T` of an expression
(`x.to(tl.float32).T`, was "is not supported") transposed; a conditional expression of tiles on a run-time scalar
(`x * 3.0 if flag > 1 else -x`, refused) as ct.where; `tl.dot(a, b)` of f16 and bf16 launches (refused)
accumulated in f32 at each; libdevice's `add_rn` / `mul_rz` / `sub_rd` / `div_ru` (refused) as ct.add / ct.mul /
ct.sub / ct.truediv with that rounding mode; `while tl.condition(i < 3, disable_licm=True):` (refused) as the
`while` of its test. Each fixture kernel is ported and proven (sm_90); the lowered kernels run on numpy against
numpy's own results."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round14 as r14
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round20.py"
MOD = load_module(FIXTURE, "triton_round20_fixture")
NAMES = ("operator_functions", "int_row_reductions", "expr_transpose", "runtime_ifexp", "rounded_arith",
         "condition_while")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round20")


@needs_cargo
def test_round20_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, r14.Ct14)


def _case(name):
    (case,) = [c for c in MOD.cases() if c[0] == name]
    return case


def test_round20_operator_functions(lowered):
    src = (lowered / "operator_functions" / "lowered.py").read_text()
    assert "a = x + y" in src and "s = a - 3" in src and "s * y" in src, src
    name, grid, args, kw = _case("operator_functions")
    x, y = args[0], args[1]
    assert np.array_equal(_run(lowered, name, grid, args, kw)[2], (x + y - 3) * y)


def test_round20_int_reductions_over_launch_dtypes(lowered):
    src = (lowered / "int_row_reductions" / "lowered.py").read_text()
    assert "ct.sum(ct.astype(x, ct.int32), axis=1)" in src and " ^ ct.extract(" in src, src
    for name, grid, args, kw in MOD.cases():
        if name != "int_row_reductions":
            continue
        x = args[0]
        got = _run(lowered, name, grid, args, kw)
        want_xor = np.bitwise_xor.reduce(x, axis=1)
        assert np.array_equal(got[1], want_xor) and np.array_equal(got[2], x.astype(np.int32).sum(axis=1)), x.dtype


def test_round20_sum_over_narrow_and_wide_launches_refused():
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::int_row_reductions")]
    wide = [dict(l, args=[dict(a, dtype="i64") if a.get("dtype") == "i32" and i < 2 else a
                          for i, a in enumerate(l["args"])]) for l in mine]   # launches of int8 and int64 rows
    with pytest.raises(LoweringError, match=r"triton_round20.py:\d+:\d+: tl.sum of a tile that is ct.int64, ct.int8 at "
                                            r"the captured launches"):
        lower_from_launches(f"{FIXTURE}::int_row_reductions", wide)


def test_round20_dot_of_f32_launches_refused():
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::dot_acc_launch_dtypes")]
    assert len(mine) == 2
    with pytest.raises(LoweringError, match=r"triton_round20.py:\d+:\d+: tl.dot of f32 operands at Triton's default "
                                            r"precision .* \(at the captured launches passing f32 operands\)"):
        lower_from_launches(f"{FIXTURE}::dot_acc_launch_dtypes", mine)


def test_round20_transpose_of_expressions(lowered):
    src = (lowered / "expr_transpose" / "lowered.py").read_text()
    assert src.count("ct.transpose(") == 2, src
    name, grid, args, kw = _case("expr_transpose")
    x = args[0]
    assert np.array_equal(_run(lowered, name, grid, args, kw)[1], (x * np.float32(2)).T + x.T)


def test_round20_runtime_conditional_expression(lowered):
    src = (lowered / "runtime_ifexp" / "lowered.py").read_text()
    assert "ct.where(flag > 1, x * 3.0, -x)" in src, src
    for name, grid, args, kw in MOD.cases():
        if name == "runtime_ifexp":
            x = args[0]
            want = x * np.float32(3) if args[3] > 1 else -x
            assert np.array_equal(_run(lowered, name, grid, args, kw)[1], want), args[3]


def test_round20_dot_of_f16_and_bf16_launches():
    from tileport.pipeline.triton import lower_from_launches

    (f16,) = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::dot_no_acc")]
    assert f16["args"][0]["dtype"] == "f16", f16["args"][0]
    bf16 = dict(f16, args=[dict(a, dtype="bf16") if i < 2 else a for i, a in enumerate(f16["args"])])
    src = lower_from_launches(f"{FIXTURE}::dot_no_acc", [f16, bf16]).source
    assert "ct.mma(a, b, ct.zeros((M, N), dtype=ct.float32))" in src, src


def test_round20_libdevice_rounded_arithmetic(lowered):
    src = (lowered / "rounded_arith" / "lowered.py").read_text()
    # (each flushing subnormals, as `__nv_fmul_rz` .. compile under Triton's __CUDA_FTZ: mul.rz.ftz.f32; round 21)
    for form in ("ct.mul(x, y, rounding_mode=ct.RoundingMode.RZ, flush_to_zero=True)",
                 "rounding_mode=ct.RoundingMode.RN, flush_to_zero=True)",
                 "ct.sub(x, y, rounding_mode=ct.RoundingMode.RM, flush_to_zero=True)",
                 "ct.truediv(x, y, rounding_mode=ct.RoundingMode.RP, flush_to_zero=True)"):
        assert form in src, (form, src)


def test_round20_while_condition(lowered):
    src = (lowered / "condition_while" / "lowered.py").read_text()
    assert "for i_it in range(3):" in src, src
    name, grid, args, kw = _case("condition_while")
    x = args[0]
    want = ((x * np.float32(0.5) + 1) * np.float32(0.5) + 1) * np.float32(0.5) + 1
    assert np.array_equal(_run(lowered, name, grid, args, kw)[1], want)
