"""Round 11's kernels (tests/fixtures/triton_idioms_llm.py, `round11_cases()`), found by a helper's own Triton
kernels: `tl.associative_scan` with any combine function — a segmented sum over (value, flag), a running max (both
directions, along axis 1), a linear recurrence over a tuple — and `tl.cumprod` (with a constexpr `reverse=`, which
was read as False), written out by recursive doubling (each was refused, or ct.cumprod, which does not port); and a
pointer bound in the arms of a runtime `if` (it was lowered as the last arm's pointer for every program, silently);
scalar loads `tok + blk * BS + i` over a flat tensor (refused at launch); pairs `row * HD + 2 * i` and `+ 1`
(the last row was padded, silently); `~m` of a mask of bounds (refused); tuple arguments (a capture failure); `tl.reduce` with any combine (Welford's
3-tuple, a log-add-exp: refused); a load masked by a scalar test
(`mask=pid > 0`: refused); a stride-0 (expanded) tensor's rows (extent 1: padding, silently).
Each launch runs through the lowered cuTile Python on numpy against numpy and through Triton's interpreter
(TILEPORT_TORCH_PYTHON) against Triton; the slow run ports them (tests/test_triton_frontend.py, LLM_KERNELS)."""
from __future__ import annotations

import numpy as np
import pytest

import test_triton_round10 as r10
from tileport.frontends.triton.ct_numpy import CtModel
import test_triton_round5 as r5

NAMES = ("seg_scan_flags", "cummax_rows", "lin_rec_scan", "cumprod_cols", "qk_select_norm", "flat_static_hash",
         "invert_bounds", "prev_block_diff", "relaxed_amax", "partials_last_sum", "interleaved_gate_up",
         "pair_rows_inplace", "tuple_dims", "welford_rows", "lae_rows",
         "mask_by_parity", "bias_rows_stride0")


class Ct11(r10.Ct10):
    atomic_add = CtModel.atomic_add   # (lane by lane, each returning the element it found: a counter's ranks are
    # distinct, as on the GPU; round 5's stand-in adds at once)

    @staticmethod
    def sqrt(x, rounding_mode=None, flush_to_zero=False):
        return np.sqrt(np.asarray(x, np.float32))


_run = r5.runner(Ct11)


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return r5.lower_fixture(tmp_path_factory.mktemp("round11"), NAMES)


def test_round11_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    for n in ("seg_scan_flags", "cummax_rows", "lin_rec_scan", "cumprod_cols"):
        assert "ct.extract(" in src[n] and "ct.scan(" not in src[n] and "ct.cumprod(" not in src[n], src[n]
    assert src["seg_scan_flags"].count("ct.reshape(ct.cat((") == 6 * 2   # 6 levels of 64 lanes, 2 components
    # q's rows and k's each read and written in their own arm (was: k's for every program)
    body = src["qk_select_norm"]
    assert body.index("if pid < NQ:") < body.index("ct.store(q_ptr") < body.index("else:") < \
        body.index("ct.store(k_ptr"), body


def _reference(name, args, kw):
    if name == "seg_scan_flags":
        x, f = args[:2]
        y = np.zeros_like(x)
        for r in range(x.shape[0]):
            acc = 0.0
            for i in range(x.shape[1]):
                acc = x[r, i] if f[r, i] else acc + x[r, i]
                y[r, i] = acc
        return {2: y}
    if name == "cummax_rows":
        m = args[0]
        return {1: np.maximum.accumulate(m, 1), 2: np.flip(np.maximum.accumulate(np.flip(m, 1), 1), 1)}
    if name == "lin_rec_scan":
        a, b = args[:2]
        h = np.zeros_like(a)
        for r in range(a.shape[0]):
            acc = np.float32(0)
            for i in range(a.shape[1]):
                acc = a[r, i] * acc + b[r, i] if i else b[r, i]
                h[r, i] = acc
        return {2: h}
    if name == "cumprod_cols":
        return {1: np.flip(np.cumprod(np.flip(args[0], 0), 0), 0)}
    if name == "qk_select_norm":
        q, k, w = args[:3]
        return {k_: v / np.sqrt((v * v).sum(1, keepdims=True) / 32 + 1e-6) * w for k_, v in ((0, q), (1, k))}
    if name == "flat_static_hash":
        tok = args[0].astype(np.uint32).reshape(20, 16)
        h = np.full(20, 2166136261, np.uint32)
        for i in range(16):
            h = (h ^ tok[:, i]) * np.uint32(16777619)
        return {1: h.view(np.int32)}
    if name == "invert_bounds":
        return {1: np.concatenate([args[0] * 2, np.full(84, -1, np.int32)])}
    if name == "prev_block_diff":
        x = args[0]
        prev = np.repeat(np.concatenate([[0.0], x[127:300:128][:2]]).astype(np.float32), 128)[:300]
        return {1: x - prev}
    if name == "relaxed_amax":
        return {1: np.abs(args[0]).max(keepdims=True)}
    if name == "partials_last_sum":
        return {3: args[0].reshape(3, 4, 8).sum(0) * 2}
    if name == "interleaved_gate_up":
        return {1: args[0][:, 0::2] * 2 + args[0][:, 1::2]}
    if name == "pair_rows_inplace":
        x, c, s_ = args
        xe, xo = x[:, 0::2], x[:, 1::2]
        y = np.empty_like(x)
        y[:, 0::2], y[:, 1::2] = xe * c - xo * s_, xo * c + xe * s_
        return {0: y}
    if name == "tuple_dims":
        return {1: args[0] * 5}
    if name == "welford_rows":
        return {1: args[0].mean(1), 2: args[0].var(1)}
    if name == "lae_rows":
        return {1: np.log(np.exp(args[0].astype(np.float64)).sum(1, keepdims=True)).astype(np.float32)}
    if name == "mask_by_parity":
        x = args[0].reshape(4, 64).copy()
        x[0::2, 20:] = -1.0
        x[1::2, 50:] = -1.0
        return {1: x.reshape(-1)}
    return {}


#: reductions whose float rounding follows the tree's order (Triton's own differs): compared within 1e-5
CLOSE = ("qk_select_norm", "welford_rows", "lae_rows")


def test_round11_lowered_kernels_match_numpy(lowered):
    mod = r5._module()
    for name, grid, args, kw in mod.round11_cases():
        if name == "bias_rows_stride0":   # (the runner copies arrays, dropping the stride 0: below)
            continue
        got = _run(lowered, mod, name, grid, args, kw)
        for k, want in _reference(name, args, kw).items():
            ok = np.allclose(got[k], want, rtol=1e-5, atol=1e-6) if name in CLOSE else np.array_equal(got[k], want)
            assert ok, (name, k, got[k].reshape(-1)[:8], want.reshape(-1)[:8])


def test_a_stride0_view_takes_the_broadcast_extent(lowered):
    """`b + row * stride_m` over `bias.expand(8, 50)` (stride 0): each row reads the bias again, as Triton does (the
    view's rows had extent 1: rows past the first read padding); without a broadcast dimension it is refused."""
    import test_triton_two_layouts as two
    from tileport.frontends.triton.views import Dim, View, ViewError, view_layout

    mod = r5._module()
    (name, grid, args, kw), = [c for c in mod.round11_cases() if c[0] == "bias_rows_stride0"]
    out = args[1].copy()
    two.run_lowered(lowered / name, getattr(mod, name), grid, (args[0], out) + args[2:], dict(kw), Ct11)
    assert np.array_equal(out, args[0] + np.arange(8, dtype=np.float32)[:, None])
    view = View("b", (Dim("sm", None), Dim("1", "N")))
    assert view_layout(view, (8, 50), (0, 1), {"sm": 0, "N": 50}) == ((8, 50), (0, 1))
    with pytest.raises(ViewError, match="stride 0 at this launch"):
        view_layout(view, (50,), (1,), {"sm": 0, "N": 50})


def test_round11_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    names = tuple(n for n in NAMES if n != "bias_rows_stride0")   # (torch.from_numpy of a stride-0 array: a copy)
    pairs = list(r5.against_triton(lowered, tmp_path, "round11_cases", names, run=_run))
    for name, k, w, a in pairs:
        ok = np.allclose(w, a, rtol=1e-5, atol=1e-6) if name in CLOSE else np.array_equal(w, a)
        assert ok, f"{name}: argument {k} differs from Triton's"
    assert len(pairs) == 40
