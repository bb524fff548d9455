"""Round 5's lowerings checked on the CPU against Triton itself: `tl.reduce((x, idx), axis, argmax_combine)`, a
component-wise `tl.associative_scan` of a tuple, `tl.swizzle2d` bound to names, and an int literal carried as a 0-d
int32 tile (`best_i = 0`, then `best_i = off + i` under an `if` in a loop). Each launch of the LLM fixture's
`round5_cases()` runs through Triton's interpreter (TILEPORT_TORCH_PYTHON) and through the lowered cuTile Python on
numpy (`CtNumpy` of tests/test_triton_two_layouts.py, with the reductions, scans and products these use)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from test_triton_two_layouts import CtNumpy

FIXTURE = Path(__file__).parent / "fixtures" / "triton_idioms_llm.py"
NAMES = ("argmax_pairs", "pair_scan", "swizzle_bp_mm", "running_argmax", "rms_bwd_atomic_dw", "ce_loss_atomic",
         "bag_sum_int64", "scratch_roundtrip", "assume_converge", "wide_int_sentinels",
         "varlen_rope_guard", "reverse_rnn_bwd", "advance_back",
         "suffix_blocks", "none_mask_broadcast")
#: those Triton 3.6's interpreter runs here: with numpy 2.4 it fails on `range()` of a runtime bound ("only
#: 0-dimensional arrays can be converted to Python scalars"), so the two loops are checked against numpy only
INTERPRETED = ("argmax_pairs", "pair_scan", "scratch_roundtrip", "rms_bwd_atomic_dw", "assume_converge",
               "wide_int_sentinels", "varlen_rope_guard", "none_mask_broadcast")
#: float results summed in another order than Triton's interpreter sums them: compared within 1e-5
CLOSE = ("rms_bwd_atomic_dw", "assume_converge", "varlen_rope_guard")


class CtMore(CtNumpy):
    float16, bfloat16 = np.float16, np.float32

    @staticmethod
    def cdiv(a, b):
        return -(-a // b)

    @staticmethod
    def max(x, axis=None, keepdims=False):
        return np.max(np.asarray(x), axis=axis, keepdims=keepdims)

    @staticmethod
    def min(x, axis=None, keepdims=False):
        return np.min(np.asarray(x), axis=axis, keepdims=keepdims)

    @staticmethod
    def where(c, a, b):
        return np.where(c, a, b)

    @staticmethod
    def full(shape, v, dtype):
        return np.full(shape, v, dtype=dtype)

    @staticmethod
    def zeros(shape, dtype):
        return np.zeros(shape, dtype=dtype)

    @staticmethod
    def cumsum(x, axis=0, reverse=False):
        x = np.asarray(x)
        return np.flip(np.cumsum(np.flip(x, axis), axis, dtype=x.dtype), axis) if reverse else \
            np.cumsum(x, axis, dtype=x.dtype)

    @staticmethod
    def broadcast_to(x, shape):
        return np.broadcast_to(x, shape)

    @staticmethod
    def exp2(x):
        return np.exp2(x)

    class RoundingMode:
        APPROX = "approx"

    @staticmethod
    def truediv(a, b, rounding_mode=None, flush_to_zero=False):   # (the GPU's approximation: within the checks'
        return np.asarray(a, np.float32) / np.asarray(b, np.float32)   # tolerance of the exact quotient)

    @staticmethod
    def sqrt(x, rounding_mode=None, flush_to_zero=False):
        return np.sqrt(x)

    @staticmethod
    def sum(x, axis=None, keepdims=False):
        return np.sum(np.asarray(x), axis=axis, keepdims=keepdims, dtype=np.asarray(x).dtype)

    @staticmethod
    def log(x):
        return np.log(x)

    @staticmethod
    def maximum(a, b):
        return np.maximum(a, b)

    def atomic_add(self, arr, index, value, **_):
        idx, ok = self._lanes(arr, index, None)
        np.add.at(arr, tuple(i[ok] for i in idx), np.broadcast_to(np.asarray(value, arr.dtype), ok.shape)[ok])

    @staticmethod
    def abs(x):
        return np.abs(x)

    def atomic_max(self, arr, index, value, **_):
        arr[index] = max(arr[index], np.asarray(value).item())

    def atomic_min(self, arr, index, value, **_):
        arr[index] = min(arr[index], np.asarray(value).item())

    @staticmethod
    def mma(a, b, acc):
        return np.asarray(a, np.float32) @ np.asarray(b, np.float32) + acc


def _module():
    spec = importlib.util.spec_from_file_location("triton_llm_round5", FIXTURE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def lower_fixture(root: Path, names: tuple[str, ...]) -> Path:
    """Each of ``names`` (kernels of FIXTURE) lowered from its captured launches into ``root/NAME/lowered.py``
    (the lowered-form fixture of every round's tests)."""
    from tileport.frontends.cutile_py.capture import run_captured
    from tileport.pipeline.triton import lower_from_launches

    launches = list(run_captured(FIXTURE, []).launches.values())
    for name in names:
        mine = [l for l in launches if l["kernel"].endswith(f"::{name}")]
        lower_from_launches(f"{FIXTURE}::{name}", mine).write(root / name / "lowered.py")
    return root


def runner(ct_class):
    """`_run` with ``ct_class`` standing for cuda.tile (a later round's stand-in, with the functions it adds)."""
    def run(lowered, mod, name, grid, args, kw):
        global CtMore
        saved, CtMore = CtMore, ct_class
        try:
            return _run(lowered, mod, name, grid, args, kw)
        finally:
            CtMore = saved
    return run


def against_triton(lowered: Path, tmp_path: Path, cases: str, interpreted: tuple[str, ...], run=None):
    """two.against_triton on FIXTURE's ``cases()`` (``run``: this file's ``_run`` form, default ``_run``)."""
    import test_triton_two_layouts as two

    mod = _module()
    return two.against_triton(FIXTURE, mod, tmp_path, cases, interpreted,
                              lambda name, grid, args, kw: (run or _run)(lowered, mod, name, grid, args, kw))


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return lower_fixture(tmp_path_factory.mktemp("round5"), NAMES)


def _run(lowered, mod, name, grid, args, kw):
    import test_triton_two_layouts as two

    return two.run_copies(lowered / name, getattr(mod, name), grid, args, kw, CtMore)


def test_round5_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    assert "2147483647), axis=1)" in src["argmax_pairs"] and "ct.min(y, axis=1)" in src["argmax_pairs"]
    assert "ct.cumsum(x, axis=0)" in src["pair_scan"] and "ct.cumsum(w, axis=0)" in src["pair_scan"]
    assert "index=(swz_i4, _it)" in src["swizzle_bp_mm"] and "swz_g3 = min(" in src["swizzle_bp_mm"]
    assert "best_i = ct.full((), 0, dtype=ct.int32)" in src["running_argmax"]


def test_round5_lowered_kernels_match_numpy(lowered):
    """Exact arg-max / arg-min (the least index among ties), scans, the running best index."""
    mod = _module()
    for name, grid, args, kw in mod.round5_cases():
        got = _run(lowered, mod, name, grid, args, kw)
        if name == "argmax_pairs":
            x = args[0]
            assert np.array_equal(got[1], x.max(1)) and np.array_equal(got[2], x.argmax(1))
            assert np.array_equal(got[3], x.min(1)) and np.array_equal(got[4], x.argmin(1))
            assert got[2][1] == 7 and got[4][2] == 3
        elif name == "pair_scan":
            assert np.allclose(got[2], np.cumsum(args[0]), rtol=1e-5) and np.allclose(got[3], np.cumsum(args[1]))
        elif name == "running_argmax":
            assert np.array_equal(got[1], args[0].argmax(1)) and got[1][1] == 5
        elif name == "rms_bwd_atomic_dw":
            dy, x, w, rstd = args[:4]
            xhat, wdy = x * rstd[:, None], w[None, :] * dy
            dx = (wdy - xhat * (xhat * wdy).sum(1, keepdims=True) / 70) * rstd[:, None]
            assert np.allclose(got[4], dx, rtol=1e-4, atol=1e-5) and np.allclose(got[5], (dy * xhat).sum(0), rtol=1e-4)
        elif name == "ce_loss_atomic":
            x, y = args[0].astype(np.float64), args[1]
            lse = np.log(np.exp(x).sum(1))
            valid = y != -100
            p = np.exp(x - lse[:, None]) - (np.arange(300)[None, :] == y[:, None])
            grad = np.where(valid[:, None], p / 5, x)
            assert np.allclose(got[0], grad, rtol=1e-4, atol=1e-6)
            # x[y] is read before the gradient is written over it
            loss = sum((lse[r] - x[r, y[r]]) / 5 for r in range(6) if valid[r])
            assert np.allclose(got[2][0], loss, rtol=1e-4)
        elif name == "scratch_roundtrip":
            x = args[0]
            assert np.array_equal(got[1], x * x)
            assert np.allclose(got[2], [(x[k * 256:k * 256 + 256] ** 2).sum() for k in range(4)], rtol=1e-5)
        elif name == "assume_converge":
            a = args[0]
            assert np.allclose(got[1][:, :50], 1 / np.sqrt(a[:, :50]), rtol=1e-5) and not got[1][:, 50:].any()
        elif name == "wide_int_sentinels":
            x = args[0]
            assert got[1][0] == x.max() and got[2][0] == x.min()
        elif name == "varlen_rope_guard":
            q, cu, c, sn = (a.astype(np.float64) if a.dtype.kind == "f" else a for a in args[:4])
            want = q.copy()
            for b in range(2):
                for t in range(cu[b + 1] - cu[b]):
                    x1, x2 = q[cu[b] + t].reshape(4, 32)[:, :16], q[cu[b] + t].reshape(4, 32)[:, 16:]
                    want[cu[b] + t] = np.concatenate([x1 * c[t] - x2 * sn[t], x2 * c[t] + x1 * sn[t]], 1).ravel()
            assert np.allclose(got[0], want, rtol=1e-5, atol=1e-6)
        elif name == "reverse_rnn_bwd":
            dh, a = args[0], args[1]
            g, want = np.zeros(70), np.zeros((20, 70))
            for t in range(19, -1, -1):
                g = dh[t] + (a[t + 1] if t < 19 else 0.0) * g
                want[t] = g
            assert np.allclose(got[2], want, rtol=1e-5, atol=1e-6)
        elif name == "advance_back":
            x = args[0]
            acc = np.zeros(7)
            for b in range(2, -1, -1):
                acc = acc * 0.5 + x[:, b * 32:(b + 1) * 32].sum(1)
            assert np.allclose(got[1], acc, rtol=1e-5)
        elif name == "none_mask_broadcast":
            assert np.allclose(got[2], args[0][:, None] * 2.0 + args[1][None, :], rtol=1e-6)
        elif name == "suffix_blocks":
            x = args[0].astype(np.float64)
            assert np.allclose(got[1], np.cumsum(x[::-1])[::-1], rtol=1e-4, atol=1e-5)
        elif name == "bag_sum_int64":
            ids, offs, emb = args[:3]
            want = np.stack([emb[ids[offs[b]:offs[b + 1]]].sum(0) for b in range(4)])
            assert np.allclose(got[3], want, rtol=1e-5, atol=1e-6)
        else:
            a, b, bias = (args[k].astype(np.float32) for k in (0, 1, 3))
            z = a @ b + bias
            assert np.allclose(got[2].astype(np.float32), z / (1 + np.exp(-z)), rtol=2e-2, atol=2e-2)


def test_round5_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    pairs = list(against_triton(lowered, tmp_path, "round5_cases", INTERPRETED))
    for name, k, w, a in pairs:
        same = np.allclose(w, a, rtol=1e-5, atol=1e-6) if name in CLOSE else np.array_equal(w, a)
        assert same, f"{name}: argument {k} differs from Triton's"
    assert len(pairs) == 30
