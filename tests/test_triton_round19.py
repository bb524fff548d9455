"""Round 19's kernels (tests/fixtures/triton_round19.py), found by a helper's own Triton probes (build/tri19):
`libdevice.fmax` / `fmin` / `copysign` with a number among their tiles (refused: "a Scalar cannot be used as a value
here"; `fast_dividef(x, 7.0)` too) lowered with the number a 0-d tile of the tiles' dtype, as Triton converts it; an arm of an `if` on a
string constexpr that is refused (`tl.erf`) refusing only the launches that reach it (every launch was refused): the
kernel lowered for the others, the refused launches named in the lowering report and refused at run time with the
arm's file:line:col; `offs[None]` / `x[None]` (a lone None) as `[None, :]` / `[None, :, :]`; a store through two index runs of one
stride (strides 1, N, 1) a scatter (its view dropped the last row: silently wrong, found by this round's test);
a tuple comprehension (`[tl.load(p + o) for p in srcs]`, srcs a tuple of arrays) as the tuple of its
element's values; `tl.max(.., return_indices=True, return_indices_tie_break_left=False)` as tl.argmax(.., tie_break_left=False) (the
last index of the maximum); `for j in tl.static_range(i + 1)` in `for i in tl.static_range(R)` proven, its outer loop `ct.static_iter` (unrolled,
as Triton unrolls it: each inner loop's bound a constant; the inner index's range was unproven by irdiff); a
`@triton.constexpr_function` (refused as a call the lowering does not know) inlined where it
is one `return` of an expression, else run on each launch's constexprs (one value: a literal; several: refused at
the call). Each fixture kernel is ported
and proven (sm_90); the lowered kernels run on numpy against numpy's own results (Triton 3.6's interpreter cannot
run libdevice calls: "Did you forget to add @triton.jit ?")."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round14 as r14
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round19.py"
MOD = load_module(FIXTURE, "triton_round19_fixture")
#: the fixture's lines calling libdevice.erfc (gelu_arms' helper, act_arms; tl.erf until round 23 lowered it)
ERF_LINES = [i + 1 for i, line in enumerate(FIXTURE.read_text().splitlines()) if "libdevice.erfc(" in line]
NAMES = ("libdevice_number_args", "fast_divide_number", "none_index_expand", "same_stride_runs", "static_triangle", "max_ties_last",
         "tuple_comprehension",
         "gelu_arms", "act_arms", "constexpr_fn_rows", "constexpr_fn_loop")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round19")


@needs_cargo
def test_round19_kernels_port_and_prove(tmp_path):
    from tileport.corpus.port import _refusal

    for name, v in two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES)):
        if name in ("gelu_arms", "act_arms"):   # proven for the launches kept; the corpus row names the others
            (r,) = v["triton"]["launches_refused"]
            row = _refusal(v, FIXTURE.parent)
            assert row["construct"] == f"triton-lowering (launches at {_when(r['when'])})", row
            assert row["file"] == FIXTURE.name and row["line"] in ERF_LINES, row


def _when(when: dict) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in when.items())


class Ct19(r14.Ct14):
    @staticmethod
    def tanh(x):
        return np.tanh(x)

    @staticmethod
    def truediv(a, b, rounding_mode=None, flush_to_zero=False):
        return np.true_divide(a, b)


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, Ct19)


def test_round19_libdevice_numbers_lowered(lowered):
    src = (lowered / "libdevice_number_args" / "lowered.py").read_text()
    assert "ct.maximum(x, ct.full((), 0.0, dtype=ct.float32), flush_to_zero=True)" in src, src
    assert "ct.minimum(ct.full((), s, dtype=ct.float32), x, flush_to_zero=True)" in src, src


def test_round19_lowered_kernels_match_numpy(lowered):
    for name, grid, args, kw in MOD.cases():
        if name != "libdevice_number_args":
            continue
        got = _run(lowered, name, grid, args, kw)
        if name == "libdevice_number_args":
            x, s = args[0], np.float32(args[3])
            want = np.maximum(x, 0) + np.minimum(s, x) * np.float32(0.5) + np.copysign(np.float32(2), x)
            assert np.array_equal(got[1], want.astype(np.float32)), (got[1][:8], want[:8])


def test_round19_refused_arm_refuses_its_launches_only(lowered):
    import json

    src = {n: (lowered / n / "lowered.py").read_text() for n in ("gelu_arms", "act_arms")}
    assert "ct.tanh(" in src["gelu_arms"] and "APPROX" not in src["gelu_arms"], src["gelu_arms"]
    assert "ACT: ct.Constant[int]" in src["act_arms"] and "if ACT == 0:" in src["act_arms"], src["act_arms"]
    for name, when, line in (("gelu_arms", {"APPROX": "none"}, ERF_LINES[0]), ("act_arms", {"ACT": "erf"}, ERF_LINES[1])):
        report = json.loads((lowered / name / "lowered.json").read_text())
        (r,) = report["refused_launches"]
        assert r["when"] == when and r["launches"] == 1, r
        assert f"triton_round19.py:{line}:" in r["error"] and "libdevice.erfc is not lowered" in r["error"], r
        assert any("refused" in n and "libdevice.erfc" in n for n in report["notes"]), report["notes"]
        codes = [p.get("codes") for p in report["params"] if p["name"] in when]
        assert codes in ([], [{"relu": 0, "silu": 1}]), codes


def test_round19_refused_launch_refused_at_run_time(lowered):
    from tileport.runtime.triton_port import TritonPortError

    x = np.ones(8, np.float32)
    for name, kw in (("gelu_arms", dict(APPROX="none", BLOCK=8)), ("act_arms", dict(ACT="erf", BLOCK=8))):
        with pytest.raises(TritonPortError, match="is not ported: .*libdevice.erfc is not lowered"):
            _run(lowered, name, (1,), (x, np.zeros(8, np.float32), 8), kw)


def test_round19_kept_arms_match_numpy(lowered):
    for name, grid, args, kw in MOD.cases():
        if name not in ("gelu_arms", "act_arms") or "erf" in kw.values() or "none" in kw.values():
            continue
        x = args[0]
        got = _run(lowered, name, grid, args, kw)[1]
        want = {"tanh": 0.5 * x * (1 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3))),
                "relu": np.maximum(x, 0), "silu": x / (1 + np.exp(-x))}[kw.get("APPROX", kw.get("ACT"))]
        assert np.allclose(got, want, rtol=1e-5, atol=1e-6), (name, kw)


def test_round19_constexpr_functions_lowered(lowered):
    rows = (lowered / "constexpr_fn_rows" / "lowered.py").read_text()
    assert "for c in range(((N + BLOCK) - 1) // BLOCK):" in rows, rows   # one return of an expression: inlined
    assert "* (1 << 5)" in rows, rows                                     # bit_length(): run, 5 at every launch
    loop = (lowered / "constexpr_fn_loop" / "lowered.py").read_text()
    assert "shape=(64,)" in loop and "* 64" in loop, loop                 # a while loop: run, 64


def test_round19_constexpr_function_launches_disagree():
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::constexpr_fn_shift")]
    assert len(mine) == 2
    with pytest.raises(LoweringError, match=r"triton_round19.py:\d+:\d+: _log2_int \(a triton.constexpr_function\) "
                                            r"gives 5, 4 at the captured launches"):
        lower_from_launches(f"{FIXTURE}::constexpr_fn_shift", mine)


def test_round19_constexpr_functions_match_numpy(lowered):
    for name, grid, args, kw in MOD.cases():
        if name not in ("constexpr_fn_rows", "constexpr_fn_loop"):
            continue
        got = _run(lowered, name, grid, args, kw)[1]
        want = args[0].sum(axis=1) * 32 if name == "constexpr_fn_rows" else args[0] * 64
        assert np.allclose(got, want, rtol=1e-5, atol=1e-4), (name, kw, got[:4], want[:4])


def test_round19_fast_dividef_of_numbers(lowered):
    src = (lowered / "fast_divide_number" / "lowered.py").read_text()
    assert "ct.truediv(x, ct.full((), 7.0, dtype=ct.float32), rounding_mode=ct.RoundingMode.APPROX)" in src, src
    assert "ct.truediv(ct.full((), 2.0, dtype=ct.float32), x + 9.0, rounding_mode=ct.RoundingMode.APPROX)" in src, src
    (name, grid, args, kw), = [c for c in MOD.cases() if c[0] == "fast_divide_number"]
    got = _run(lowered, name, grid, args, kw)[1]
    x = args[0]
    assert np.allclose(got, x / np.float32(7) + np.float32(2) / (x + np.float32(9)), rtol=1e-6, atol=1e-6)


def test_round19_lone_none_index(lowered):
    src = (lowered / "none_index_expand" / "lowered.py").read_text()
    assert "ct.reshape(b, (1, N))" in src and "(1, M, N)" in src, src
    (name, grid, args, kw), = [c for c in MOD.cases() if c[0] == "none_index_expand"]
    got = _run(lowered, name, grid, args, kw)
    x, b = args[0], args[1]
    assert np.array_equal(got[2], x + b[None, :]) and np.array_equal(got[3][0], x * np.float32(2)), got[2:]


def test_round19_same_stride_runs_scatter_every_row(lowered):
    src = (lowered / "same_stride_runs" / "lowered.py").read_text()
    assert "ct.scatter(z_ptr," in src, src
    (name, grid, args, kw), = [c for c in MOD.cases() if c[0] == "same_stride_runs"]
    got = _run(lowered, name, grid, args, kw)[1]
    assert np.array_equal(got, args[0] * np.float32(2)), got   # (the view's form left the last row 0)


def test_round19_static_triangle_unrolls_outer(lowered):
    src = (lowered / "static_triangle" / "lowered.py").read_text()
    assert "for i in ct.static_iter(range(R)):" in src and "for j in range(i + 1):" in src, src
    (name, grid, args, kw), = [c for c in MOD.cases() if c[0] == "static_triangle"]
    got = _run(lowered, name, grid, args, kw)[1]
    x, R, B = args[0].reshape(-1, 32), kw["R"], kw["BLOCK"]
    want = sum(x[i * R + j] * (j + 1) for i in range(R) for j in range(i + 1))
    assert np.allclose(got, want, rtol=1e-6, atol=1e-5), (got[:4], want[:4], B)


def test_round19_max_indices_ties_last(lowered):
    import json

    report = json.loads((lowered / "max_ties_last" / "lowered.json").read_text())
    assert any("return_indices_tie_break_left=False" in n for n in report["notes"]), report["notes"]
    (name, grid, args, kw), = [c for c in MOD.cases() if c[0] == "max_ties_last"]
    got = _run(lowered, name, grid, args, kw)
    x = args[0]
    last = x.shape[1] - 1 - np.argmax(x[:, ::-1], axis=1)
    assert np.array_equal(got[1], x.max(axis=1)) and np.array_equal(got[2], last), (got[1:], last)


def test_round19_tuple_comprehension(lowered):
    src = (lowered / "tuple_comprehension" / "lowered.py").read_text()
    assert src.count("ct.load(srcs__") == 3, src
    (name, grid, args, kw), = [c for c in MOD.cases() if c[0] == "tuple_comprehension"]
    got = _run(lowered, name, grid, args, kw)[1]
    a, b, c = args[0]
    assert np.allclose(got, a * 2 + b * 2 - c * 2, rtol=1e-6, atol=1e-5)
