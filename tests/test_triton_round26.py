"""Round 26: the Triton lowering's differential fuzzer (tileport/frontends/triton/fuzz.py) and what it found
(tests/fixtures/triton_round26.py). Random valid Triton kernels run by Triton's interpreter and, lowered, by the
numpy model of the ct operations (tileport/frontends/triton/ct_numpy.py), on the same inputs: every array equal
(bitwise; within a documented tolerance where approximate operations were drawn) or the kernel refused with a
located reason. A derandomized CI draw here (the interpreter needs torch: TILEPORT_TORCH_PYTHON, skipped without),
a larger one under `slow`; scripts/fuzz_triton.py runs fresh draws."""
from __future__ import annotations

import collections
import textwrap
from pathlib import Path

import numpy as np
import pytest

import test_triton_two_layouts as two

from conftest import load_module, needs_cargo
from tileport.frontends.triton import fuzz
from tileport.frontends.triton.ct_numpy import CtModel, Tile, run_lowered
from tileport.errors import TileportError

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round26.py"
MOD = load_module(FIXTURE, "triton_round26_fixture")
NAMES = ("row_broadcast_store", "negated_index", "signed_divisor", "rolled_index", "where_int8_sum")

lowered = two.lowered_fixture(FIXTURE, NAMES, "round26")


def _run(lowered, name, grid, args, kw):
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    run_lowered(lowered / name, getattr(MOD, name), grid, tuple(got), dict(kw), CtModel)
    return got


def _cases(name):
    return [c for c in MOD.cases() if c[0] == name]


@needs_cargo
def test_round26_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


def test_round26_a_row_stored_at_a_block_is_broadcast(lowered):
    """`v = f(cols[None, :])` (shape (1, BN)) stored at `rows[:, None] * N + cols[None, :]`, and its row reduction
    (shape (1,)) stored at `rows`: Triton broadcasts both to the pointer block; the lowering reshaped them to it
    (`ct.reshape` of BN elements to (BM, BN): no build; found by the fuzzer in every reduction family)."""
    src = (lowered / "row_broadcast_store" / "lowered.py").read_text()
    assert "ct.broadcast_to(" in src, src
    for name, grid, args, kw in _cases("row_broadcast_store"):
        x, out, red, m, n = _run(lowered, name, grid, args, kw)
        row = (np.arange(n) // 3) * 2 + 1
        assert np.array_equal(out, np.broadcast_to(row, (m, n)))
        assert np.array_equal(red, np.full(m, int(np.argmax((np.arange(16) // 3) * 2 + 1)), np.int32))
        assert np.array_equal(x, args[0] * np.float32(2.0))


def test_round26_negated_index_arithmetic(lowered):
    """`-offs` (Triton's negation of index arithmetic, an int32 tensor) was refused: "unary `-offs` is not
    supported"; now the tile negated — with Triton's truncating `//` of the negative values."""
    for name, grid, args, kw in _cases("negated_index"):
        x, out, n = _run(lowered, name, grid, args, kw)
        offs = np.arange(n, dtype=np.int32)
        want = x * -offs + np.trunc(-offs / 4).astype(np.int32)
        assert np.array_equal(out, want), (out, want)


def test_round26_remainder_by_a_runtime_integer_passed_negative(lowered):
    """`x % d`, `offs % d`, `x // d` with `d` a runtime int a captured launch passes negative: Triton's C remainder
    (the dividend's sign) and truncating quotient. The lowering took every int argument for a size (>= 0): `offs % d`
    was cuTile's floor `%` as written (the divisor's sign), `x % d` corrected for a negative dividend only — wrong
    by `d` wherever the signs differ (found by the fuzzer). A captured negative value now makes the argument no
    size (the sign-safe forms); launches of a port captured with sizes only still take it >= 0 (docs/triton.md)."""
    src = (lowered / "signed_divisor" / "lowered.py").read_text()
    assert "^ d) < 0" in src, src
    for name, grid, args, kw in _cases("signed_divisor"):
        x, out, n, d = _run(lowered, name, grid, args, kw)
        offs = np.arange(n)
        c_mod = lambda a, b: np.fmod(a, b)   # noqa: E731 — C's remainder
        want = c_mod(x, d) * 100 + c_mod(offs, d) * 10 + np.trunc(x / d).astype(np.int32)
        assert np.array_equal(out, want), (d, out, want)


def test_round26_remainder_of_index_arithmetic_below_zero(lowered):
    """`(-1 + rows[:, None]) % 5` of `rows = pid * BM + tl.arange(0, BM)` launched with BM = 1: the lowering folds
    the -1 into the run's block index (`(pid + -1) * BM + arange`), below 0 at program 0. Index arithmetic was
    taken >= 0 in every lane, so its `%` was cuTile's floor `%` as written (4 where Triton's C remainder is -1,
    silently: found by the fuzzer); now only a run from an index >= 0 (`_lower_bound`), and sums of such terms
    and scalars >= 0, are."""
    src = (lowered / "rolled_index" / "lowered.py").read_text()
    assert "dtype=ct.int32), (BM, 1))) % 5" not in src, src
    for case in _cases("rolled_index"):
        x, out, m, n = _run(lowered, *case)
        want = x * 100 + np.fmod(-1 + np.arange(m), 5)[:, None]
        assert np.array_equal(out, want), (case[3], out, want)


def test_round26_sum_of_an_int8_where_is_int32(lowered):
    """`v = tl.where(x * x != 0, x * x, x.to(tl.int8))` of an int8 x, then `tl.sum(v, axis=1)` and `v - r[:, None]`:
    Triton sums int8 in int32 (_pick_sum_dtype) and so subtracts in int32. The where's two values were typed
    `x_ptr.dtype` and `ct.int8` — one type at every launch, but the where's dtype was taken unknown, so the sum
    stayed int8 and `v - r` wrapped (135 came out -121, silently: the fuzzer's slow draw)."""
    src = (lowered / "where_int8_sum" / "lowered.py").read_text()
    assert "ct.sum(ct.astype(v, ct.int32), axis=1)" in src, src
    (case,) = _cases("where_int8_sum")
    x, out, red, m, n = _run(lowered, *case)
    sq = (x.astype(np.int32) * x).astype(np.int8)   # (int8 products wrap, as Triton's)
    v = np.where(sq != 0, sq, x).astype(np.int32)
    assert np.array_equal(red, v.sum(axis=1)) and np.array_equal(out, v - v.sum(axis=1)[:, None]), (red, out)


def test_round26_float16_exp_stays_refused_with_its_location(tmp_path):
    """`tl.exp` of an f16 tensor: Triton 3.6's compiler takes fp32 / fp64 only (its interpreter computes it): the
    lowering refuses it as Triton does, at FILE:LINE:COL."""
    f = tmp_path / "k16.py"
    f.write_text(textwrap.dedent('''
        import numpy as np
        import triton
        import triton.language as tl


        @triton.jit
        def k16(x_ptr, y_ptr, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs)
            tl.store(y_ptr + offs, tl.exp(x))


        if __name__ == "__main__":
            k16[(1,)](np.ones(16, np.float16), np.ones(16, np.float16), BLOCK=16)
    '''))
    with pytest.raises(TileportError) as exc:
        two.lower_kernels(f, ["k16"], tmp_path / "out")
    assert f"{f}:11:28" in str(exc.value) and "fp32" in str(exc.value), str(exc.value)


def test_round26_numpy_model_promotes_as_cutile():
    """The model's tiles promote as cuTile Python does (cuda.tile's promote_dtypes), never as numpy: int32 * f16
    is f16, int64 + f32 is f32, an int tile beside a Python float is f32, a Python int takes the tile's dtype."""
    i32 = np.arange(4, dtype=np.int32).view(Tile)
    assert (i32 * np.ones(4, np.float16).view(Tile)).dtype == np.float16
    assert (np.arange(4, dtype=np.int64).view(Tile) + np.ones(4, np.float32)).dtype == np.float32
    assert (i32 * 0.5).dtype == np.float32
    assert (np.ones(4, np.int8).view(Tile) + 3).dtype == np.int8
    ct = CtModel()
    assert ct.where(i32 > 1, i32, np.ones(4, np.float16)).dtype == np.float16
    assert np.array_equal(ct.maximum(np.float32([np.nan, 1]), np.float32([2, np.nan])), [2, 1])   # (maxnum)


def _fuzz(n: int, tmp_path: Path, seed=None):
    py = fuzz.torch_python()
    if py is None:
        pytest.skip("no Python with torch and triton (TILEPORT_TORCH_PYTHON): Triton's interpreter needs torch")
    results = fuzz.run_cases(fuzz.draw_cases(n, seed), tmp_path, py)
    counts = collections.Counter(r.outcome for r in results)
    bad = [f"{r.dir}: {r.outcome}: {r.detail[:500]}\n{(r.dir / 'k.py').read_text()}" for r in results
           if r.outcome in fuzz.BAD]
    return counts, bad


def test_round26_fuzz_ci_draw(tmp_path):
    """A derandomized draw (the same kernels every run; about a minute): no mismatch, no crash, no unlocated
    refusal; most kernels checked (not refused, not a gap of the model or the drawn kernel)."""
    counts, bad = _fuzz(1200, tmp_path)
    assert not bad, "\n\n".join(bad[:3])
    assert counts["equal"] + counts["close"] >= 0.9 * sum(counts.values()), counts


@pytest.mark.slow
def test_round26_fuzz_larger_draw(tmp_path):
    counts, bad = _fuzz(4000, tmp_path, seed=26)
    assert not bad, "\n\n".join(bad[:3])


def test_round26_fuzz_finds_a_wrong_lowering(tmp_path, monkeypatch):
    """The contract can fail: with the model's `ct.maximum` made a minimum, drawn kernels that take a maximum
    mismatch (the fuzzer would have reported a lowering that swapped them)."""
    monkeypatch.setattr(CtModel, "maximum", staticmethod(lambda a, b, **_: np.fmin(a, b).view(Tile)))
    counts, bad = _fuzz(60, tmp_path, seed=7)
    assert counts["mismatch"] > 0, counts
