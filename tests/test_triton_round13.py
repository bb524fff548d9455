"""Round 13's kernels (tests/fixtures/triton_round13.py), found by a helper's own Triton probes (build/tri13):
`tl.max` / `tl.min` of narrow tiles reduced as Triton reduces them (int32 / f32), libdevice's fmax / fmin / copysign
/ signbit from their bits, uint32 masks beyond int32, f64 dots, `tl.advance` by several blocks, block pointers at
offsets that are not whole blocks (gathers), an element offset `n // 2` beside a unit-stride view, f16 cumsum and
an f16 fma with a literal in the port, mixed-fp8 dots refused. Each launch runs through the lowered cuTile Python on numpy (the round-11 stand-in)
against numpy and against Triton's interpreter (TILEPORT_TORCH_PYTHON; not for the libdevice calls it cannot run);
each is ported and proven (sm_90)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round11 as r11
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round13.py"
NAMES = ("softmax_f16_rows", "int8_row_range", "libdevice_bits", "wide_bit_masks", "dot_f64", "advance_split_blocks",
         "bp_row_offsets", "second_half", "cumsum_f16", "f16_fma_literal")
#: those Triton 3.6's interpreter runs here: not libdevice calls, nor (with numpy 2.4) range() of a runtime bound —
#: those are checked against numpy only
INTERPRETED = tuple(n for n in NAMES if n not in ("libdevice_bits", "advance_split_blocks"))


class Ct13(r11.Ct11):
    uint32, uint64, int16, float64, int8, uint8 = np.uint32, np.uint64, np.int16, np.float64, np.int8, np.uint8

    @staticmethod
    def bitcast(x, dtype):
        return np.asarray(x).view(dtype)

    @staticmethod
    def maximum(a, b, flush_to_zero=False, propagate_nan=False):
        return np.fmax(a, b)   # (no subnormal inputs here: flush_to_zero changes nothing)

    @staticmethod
    def minimum(a, b, flush_to_zero=False, propagate_nan=False):
        return np.fmin(a, b)

    @staticmethod
    def mma(a, b, acc):
        return (np.asarray(a, acc.dtype) @ np.asarray(b, acc.dtype) + acc).astype(acc.dtype)

    @staticmethod
    def cumsum(x, axis=0, reverse=False):
        x = np.asarray(x)
        out, run = np.empty_like(x), x.dtype.type(0)
        for i in range(x.shape[0]):   # (sequentially, in x's dtype: f16 sums rounded each step, as a scan's)
            run = x.dtype.type(run + x[i])
            out[i] = run
        return out


MOD = load_module(FIXTURE, "triton_round13_fixture")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round13")


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, Ct13)


def test_round13_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    # Triton's tl.max / tl.min of narrow tiles: int8 as int32 (cutile built no i8 identity), f16 as f32
    assert "ct.max(ct.astype(x, ct.int32), axis=0)" in src["int8_row_range"]
    assert "ct.max(ct.astype(x, ct.float32), axis=0)" in src["softmax_f16_rows"]
    # libdevice from its bits: fmaxf is the ftz max (Triton links libdevice with nvvm-reflect-ftz)
    assert "ct.maximum(x, s, flush_to_zero=True)" in src["libdevice_bits"]
    assert "ct.astype(ct.bitcast(s, ct.uint32) >> 31, ct.int32)" in src["libdevice_bits"]
    # 0x80000000 never written: its low bits, then 2^31 added in halves (xor) / kept by shifts (and)
    assert "2147483648" not in src["wide_bit_masks"] and "+ 0x40000000 + 0x40000000" in src["wide_bit_masks"]
    # f64 products into f64
    assert "ct.zeros((M, N), dtype=ct.float64)" in src["dot_f64"]
    # SPLIT blocks an iteration
    assert "* SPLIT)" in src["advance_split_blocks"] and "ct.gather" not in src["advance_split_blocks"]
    # offsets that are not whole blocks: gathers / scatters of the block's elements
    assert "ct.gather(x_ptr, (ct.reshape(((pid * BM) + 1)" in src["bp_row_offsets"]
    assert "ct.scatter(z_ptr, (ct.reshape(((pid * BM) + SHIFT)" in src["bp_row_offsets"]
    assert "ct.gather(x_ptr, n // 2 + " in src["second_half"]


def test_round13_lowered_kernels_match_numpy(lowered):
    for name, grid, args, kw in MOD.cases():
        got = _run(lowered, name, grid, args, kw)
        if name == "int8_row_range":
            x = args[0].astype(np.int32)
            assert np.array_equal(got[1], x.max(1) - x.min(1))
        elif name == "libdevice_bits":
            x, s = args[0], args[1]
            assert np.array_equal(got[2], np.copysign(x, s) + np.fmax(x, s) - np.fmin(x, s))
            assert np.array_equal(got[3], np.signbit(s).astype(np.int32))
        elif name == "wide_bit_masks":
            x = args[0]
            assert np.array_equal(got[1], -x) and np.array_equal(got[2], -np.abs(x))
            assert np.array_equal(got[3], (x.view(np.uint32) & 0xFFFF0000).view(np.float32))
        elif name == "dot_f64":
            assert np.allclose(got[2], 2 * args[0] @ args[1], rtol=1e-12)
        elif name == "advance_split_blocks":
            x = args[0]
            want = np.stack([sum(x[:, j:j + 32].sum(1) for j in range(32 * k, 200, 64)) for k in (0, 1)])
            assert np.allclose(got[1], want, atol=1e-5)
        elif name == "bp_row_offsets":
            x = args[0]
            nxt = np.vstack([x[1:], np.zeros((1, 32), np.float32)])
            assert np.array_equal(got[1], nxt - x)
            assert np.array_equal(got[2][3:], 2 * x[:-3]) and not got[2][:3].any()
        elif name == "second_half":
            x = args[0]
            assert np.array_equal(got[1], x[:350] * x[350:])


def test_round13_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    for name, k, w, a in two.against_triton(FIXTURE, MOD, tmp_path, "cases", INTERPRETED,
                                            lambda *case: _run(lowered, *case)):
        tol = 1e-6 if a.dtype.itemsize >= 4 else 2e-3
        assert np.array_equal(w, a) or (a.dtype.kind == "f" and np.allclose(w, a, rtol=tol, atol=tol)), \
            f"{name}: argument {k} differs from Triton's"


def test_f16_softmax_without_upcast_differs_when_reduced_in_f16(lowered):
    """The form before (`x - ct.max(x)` of f16 tiles: an f16 difference) rounds x - max to f16 where Triton's is
    exact in f32: shown on the fixture's rows, whose softmax then differs from the f32-difference one."""
    (name, grid, args, kw), = [c for c in MOD.cases() if c[0] == "softmax_f16_rows"]
    x = args[0]
    f32 = np.exp(x.astype(np.float32) - x.max(1, keepdims=True).astype(np.float32))
    f16 = np.exp((x - x.max(1, keepdims=True)).astype(np.float16).astype(np.float32))
    assert not np.array_equal(f32, f16)   # (the rounding is visible on these inputs)
    got = _run(lowered, name, grid, args, kw)
    want = (f32 / f32.sum(1, keepdims=True)).astype(np.float16)
    assert np.allclose(got[1].astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=1e-4)


def test_mixed_fp8_dot_is_refused_at_the_dot():
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::dot_fp8_mixed")]
    for l in mine:   # the bytes as torch's fp8 tensors are captured
        l["args"][0]["dtype"], l["args"][1]["dtype"] = "f8e4m3fn", "f8e5m2"
    with pytest.raises(LoweringError, match="ct.mma takes one operand dtype") as err:
        lower_from_launches(f"{FIXTURE}::dot_fp8_mixed", mine)
    line = next(i for i, l in enumerate(FIXTURE.read_text().splitlines(), 1) if "tl.dot(a, b))" in l)
    assert f"triton_round13.py:{line}:" in str(err.value)


@needs_cargo
def test_round13_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


@pytest.mark.parametrize("body, expect", [
    # tl.maximum / tl.minimum of bf16: compared in f32, and the product after them f32, as Triton's
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.maximum(x, 0.0) * s + tl.minimum(x, 1.0) * x)",
     "(ct.maximum(ct.astype(x, ct.float32), 0.0)) * s) + ((ct.minimum(ct.astype(x, ct.float32), 1.0)) * x)"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.clamp(x, -1.0, 1.0) * 3.0)",
     "ct.minimum(ct.maximum(ct.astype(x, ct.float32), -1.0), 1.0)"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.cumsum(x, 0) * 0.5)",
     "ct.cumsum(ct.astype(x, ct.float32), axis=0)"),
    ("x = tl.load(x_ptr + offs)\nv, i = tl.max(x, 0, return_indices=True)\ntl.store(y_ptr + offs, x * v + i)",
     "= ct.astype(x, ct.float32)"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x - tl.max(x, 0))", "ct.max(ct.astype(x, ct.float32)"),
])
def test_bf16_operands_are_promoted_to_f32_as_triton_does(tmp_path, body, expect):
    """Triton's `_promote_bfloat16_to_float32` ("hardware doesn't support FMAX, FMIN, CMP for bfloat16"): tl.maximum /
    tl.minimum / tl.clamp operands, tl.max / tl.min (with indices too) / tl.argmax inputs and tl.cumsum / tl.cumprod
    inputs of bf16 are f32, so the results and what follows are f32 arithmetic. They were lowered in bf16, silently
    (proven all the same: build/tri13 set j). f32 launches are unchanged."""
    import test_triton_frontend as tf

    facts = {**tf.FACTS, "dtypes": {"x_ptr": {"ct.bfloat16"}, "y_ptr": {"ct.float32"}}}
    assert expect in tf._lowered(tmp_path, body, facts=facts)
    assert "astype(x, ct.float32)" not in tf._lowered(tmp_path, body)
