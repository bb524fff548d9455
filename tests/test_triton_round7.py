"""Round 7's lowerings checked on the CPU against Triton itself: a float a loop carries that only a constexpr `if`
accumulates into (a chunked cross-entropy's label smoothing, launched with and without), int4 nibbles interleaved
back into a tl.dot operand, f32 `tl.atomic_max` / `tl.atomic_min` at one address (a compare-and-swap loop), all four
words of `tl.randint4x` / `tl.rand4x`, integer tiles of mixed
signedness with a negative literal (stochastic rounding's bits), and `libdevice.pow` of an int exponent (Adam's bias
correction at a step count). Each launch of the LLM fixture's `round7_cases()` runs through the lowered cuTile Python
on numpy against numpy references and through Triton's interpreter (TILEPORT_TORCH_PYTHON) against Triton."""
from __future__ import annotations

import numpy as np
import pytest

import test_triton_round5 as r5

NAMES = ("smoothing_chunks", "unsigned_mix", "pow_int_step", "nibble_dot", "f32_atomic_extrema",
         "philox_words")
#: Triton 3.6's interpreter computes no libdevice.pow of two scalars (its result is None): the bias correction is
#: checked against numpy only
INTERPRETED = ("smoothing_chunks", "unsigned_mix", "nibble_dot", "f32_atomic_extrema", "philox_words")


class Ct7(r5.CtMore):
    uint32, uint64 = np.uint32, np.uint64

    class MemoryOrder:
        RELAXED = ACQUIRE = RELEASE = ACQ_REL = None

    @staticmethod
    def bitcast(x, dtype):
        return np.asarray(x).view(dtype)

    @staticmethod
    def atomic_cas(arr, index, expected, desired, **_):
        """One program at a time: a bitwise compare, the old element returned (index past the end: expected)."""
        flat = arr.reshape(-1)
        i = int(np.asarray(index).reshape(-1)[0])
        if i >= flat.size:
            return np.asarray(expected)
        old = flat[i].copy()
        if old.view(np.int32) == np.asarray(expected, np.float32).view(np.int32):
            flat[i] = desired
        return np.asarray(old, np.float32).reshape(np.shape(expected))

    @staticmethod
    def minimum(a, b):
        return np.minimum(a, b)

    @staticmethod
    def transpose(x):
        return np.asarray(x).T

    @staticmethod
    def pow(a, b):
        return np.power(np.float32(a), np.float32(b))


_run = r5.runner(Ct7)


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return r5.lower_fixture(tmp_path_factory.mktemp("round7"), NAMES)


def test_round7_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    assert "sum_x = ct.full((), 0.0, dtype=ct.float32)" in src["smoothing_chunks"]
    assert "ct.astype(bits, ct.uint32) + r" in src["unsigned_mix"]
    assert "ct.full((), step, dtype=ct.float32)" in src["pow_int_step"]
    assert "(N, BLOCK_K))" in src["nibble_dot"] and "2 * (BLOCK_K // 2)" not in src["nibble_dot"]


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
    if name == "philox_words":   # against Triton's interpreter only (below): the words are Philox's
        return None, None
    if name == "f32_atomic_extrema":
        x, mx, mn = args[:3]
        return 1, np.maximum(mx, x.max(1))
    if name == "nibble_dot":
        a, qw = args[:2]
        w = np.empty((64, 32), np.float32)
        w[0::2], w[1::2] = (qw & 15).astype(np.float32) - 8, (qw >> 4).astype(np.float32) - 8
        return 2, a.astype(np.float32) @ w
    p, m, _, _, lr, b1, step = args
    return 2, p - lr * m / (1 - b1 ** step)


def test_round7_lowered_kernels_match_numpy(lowered):
    mod = r5._module()
    for name, grid, args, kw in mod.round7_cases():
        got = _run(lowered, mod, name, grid, args, kw)
        k, want = _reference(name, args, kw)
        if k is None:
            continue
        if name == "f32_atomic_extrema":
            x, _, mn = args[:3]
            lo = np.minimum(mn, x.min(1))
            assert np.array_equal(got[1], want) and np.array_equal(got[2], lo), name
            assert np.signbit(got[2]).all(), name  # -0.0 below +0.0, as Triton orders the bits
            continue
        if name == "unsigned_mix":
            assert np.array_equal(got[k].view(np.uint32), want.view(np.uint32)), name
        else:
            assert np.allclose(got[k], want, rtol=1e-5, atol=1e-5), name


def test_round7_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    pairs = list(r5.against_triton(lowered, tmp_path, "round7_cases", INTERPRETED, run=_run))
    for name, k, w, a in pairs:
        if a.dtype.kind in "iu":
            same = np.array_equal(w, a)
        elif name in ("unsigned_mix", "f32_atomic_extrema"):
            same = np.array_equal(w.view(np.uint32), a.view(np.uint32))
        else:
            same = np.allclose(w, a, rtol=1e-6, atol=1e-6)
        assert same, f"{name}: argument {k} differs from Triton's"
    assert len(pairs) == 17


REFUSED = '''
import triton
import triton.language as tl


@triton.jit
def neg_unsigned(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    u = tl.load(x_ptr + offs).to(tl.uint32)
    tl.store(out_ptr + offs, u & -65536)


@triton.jit
def int_view(x_ptr, amax_ptr, BLOCK: tl.constexpr):
    a = tl.max(tl.abs(tl.load(x_ptr + tl.arange(0, BLOCK))), axis=0)
    tl.atomic_max(amax_ptr.to(tl.pointer_type(tl.int32)), a.to(tl.int32, bitcast=True))


@triton.jit
def lanes_max(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_max(out_ptr + offs, tl.load(x_ptr + offs))
'''


@pytest.mark.parametrize("kernel, where, says", [
    ("neg_unsigned", "10:30", "Triton refuses a binary operation between an unsigned tensor and a negative scalar"),
    ("int_view", "16:31", "an array's memory read as another dtype")])
def test_round7_refusals_say_why_with_a_place(tmp_path, kernel, where, says):
    """What stays refused, each with file:line:col and the reason: a negative literal with an unsigned tile (Triton
    refuses it too), a pointer reinterpreted as another dtype (no cuTile Python counterpart). (An f32 atomic max of
    a tile of several addresses, `lanes_max`, was refused until round 25b: tests/test_triton_round25b.py.)"""
    from tileport.frontends.triton.lower import LoweringError, lower
    from tileport.frontends.triton.source import find_kernel

    f = tmp_path / "refused.py"
    f.write_text(REFUSED)
    kinds = {"x_ptr": "array", "out_ptr": "array", "amax_ptr": "array", "BLOCK": "constant"}
    facts = {"constants": {"BLOCK": [128]},
             "dtypes": {"x_ptr": ["ct.int32" if kernel == "neg_unsigned" else "ct.float32"],
                        "out_ptr": ["ct.uint32" if kernel == "neg_unsigned" else "ct.float32"],
                        "amax_ptr": ["ct.float32"]}}
    with pytest.raises(LoweringError, match=says) as exc:
        lower(find_kernel(f, kernel), kinds, {"BLOCK": "int"}, facts=facts)
    assert str(exc.value).startswith(f"{f}:{where}: ")
