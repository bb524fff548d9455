"""Round 12's kernels (tests/fixtures/triton_round12.py), found by a helper's own Triton probes (build/tri12): a
3-D block pointer with a computed batch stride and a batch offset over a block of one, `tl.umulhi`, a loop bound
`tl.minimum(..)` of scalars, and `@triton.heuristics` values that read each other (`ported()` raised KeyError).
Each launch runs through the lowered cuTile Python on numpy (the round-11 stand-in) against numpy, and against
Triton's interpreter (TILEPORT_TORCH_PYTHON); each is ported and proven (sm_90)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round11 as r11
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round12.py"
NAMES = ("bp_batch_center", "umulhi_mix", "split_blocks_min", "heuristics_chain")
#: those Triton 3.6's interpreter runs here (with numpy 2.4 it fails on range() of a runtime bound: the loop is
#: checked against numpy only)
INTERPRETED = ("bp_batch_center", "umulhi_mix", "heuristics_chain")


class Ct12(r11.Ct11):
    uint32, uint64 = np.uint32, np.uint64

    def num_blocks(self, axis):
        return GRID[axis]


GRID = [1, 1, 1]


MOD = load_module(FIXTURE, "triton_round12_fixture")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round12")


def _run(lowered, name, grid, args, kw):
    GRID[:] = list(grid) + [1] * (3 - len(grid))
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, Ct12)


def _umulhi(a, b):
    return ((a.astype(np.uint32).astype(np.uint64) * b.astype(np.uint32).astype(np.uint64)) >> 32).astype(np.uint32)


def test_round12_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    # the batch offset over a block of one is the tile index itself; the stride M * N a launch value
    assert "ct.load(x_ptr, index=(b, pm, 0), shape=(1, BM, BN)" in src["bp_batch_center"]
    # 0x9E3779B1 (over 2^31) multiplied in 16-bit halves, in uint64
    assert "* 0x9e37) << 16)" in src["umulhi_mix"] and ">> 32, ct.uint32)" in src["umulhi_mix"]
    # the loop bound bound to a name before the loop
    assert "blk_hi = min(" in src["split_blocks_min"] and "in range(start, blk_hi)" in src["split_blocks_min"]


def test_round12_lowered_kernels_match_numpy(lowered):
    for name, grid, args, kw in MOD.cases():
        got = _run(lowered, name, grid, args, kw)
        if name == "bp_batch_center":
            x = args[0]
            assert np.allclose(got[1], x - x.sum(2, keepdims=True) / 32, atol=1e-5)
        elif name == "umulhi_mix":
            xu, a, b = args[0], args[2], args[3]
            assert np.array_equal(got[1], _umulhi(xu, np.full_like(xu, 0x9E3779B1, dtype=np.uint32)).view(np.int32))
            assert np.array_equal(got[2], _umulhi(a, b).view(np.int32))
        elif name == "split_blocks_min":
            x = args[0]
            assert np.array_equal(got[1], x * np.float32(2.0) + (np.arange(5000) // 256).astype(np.float32))
        elif name == "heuristics_chain":
            x, n = args[0], args[2]
            assert np.array_equal(got[1], x + np.float32(1.0) if n % 1024 == 0 else x - np.float32(1.0))


def test_round12_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    for name, k, w, a in two.against_triton(FIXTURE, MOD, tmp_path, "cases", INTERPRETED,
                                            lambda *case: _run(lowered, *case)):
        if name == "umulhi_mix" and k == 2:
            # (Triton 3.6's interpreter widens negative int32 operands by sign extension, the high half of the
            # signed product; on the GPU tt.mulhiui is __nv_umulhi, unsigned, as lowered: checked against numpy)
            continue
        assert np.array_equal(w, a) or (a.dtype.kind == "f" and np.allclose(w, a, rtol=1e-6, atol=1e-6)), \
            f"{name}: argument {k} differs from Triton's"


def test_ported_heuristics_see_earlier_values(lowered):
    """`ported()` binds `@triton.heuristics` as Triton does: each value sees the ones computed before it (EVEN_N
    from BLOCK); all of a layer's functions were called on the arguments alone: KeyError 'BLOCK'."""
    from tileport.runtime.triton_port import ported

    pk = ported(MOD.heuristics_chain, lowered / "heuristics_chain")
    bound = pk.bind((np.zeros(700), np.zeros(700), 700), {})
    assert bound["BLOCK"] == 1024 and bound["EVEN_N"] is False
    assert pk.bind((np.zeros(2048), np.zeros(2048), 2048), {})["EVEN_N"] is True


@needs_cargo
def test_round12_kernels_port_and_prove(tmp_path):
    from tileport.frontends.cutile_py.capture import run_captured
    from tileport.pipeline.triton import port_triton_many
    from tileport.toolchain.locate import find_cuda_tree

    launches = list(run_captured(FIXTURE, []).launches.values())
    jobs = [(f"{FIXTURE}::{n}", [], [l for l in launches if l["kernel"].endswith(f"::{n}")], tmp_path / n)
            for n in NAMES]
    for name, v in zip(NAMES, port_triton_many(jobs, find_cuda_tree(), "sm_90", tmp_path / "_work")):
        assert v["status"] == "proven", (name, str(v)[:1500])


def test_f32_dot_at_default_precision_is_refused_with_an_accumulator_too(tmp_path):
    """`acc = tl.dot(a, b, acc)` / `acc += tl.dot(a, b)` of f32 operands without input_precision="ieee" (tf32 on
    the GPU) were lowered to ct.mma of the f32 tiles (f32 products), silently; refused now at the dot, as without
    an accumulator. With "ieee" / allow_tf32=False both lower, and compute a @ b twice."""
    from tileport.frontends.cutile_py.capture import run_captured
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    launches = list(run_captured(FIXTURE, []).launches.values())
    mine = {n: [l for l in launches if l["kernel"].endswith(f"::{n}")] for n in ("f32_dot_default_acc",
                                                                                 "f32_dot_ieee_acc")}
    with pytest.raises(LoweringError, match="f32 operands at Triton's default precision") as err:
        lower_from_launches(f"{FIXTURE}::f32_dot_default_acc", mine["f32_dot_default_acc"])
    line = next(i for i, l in enumerate(FIXTURE.read_text().splitlines(), 1) if "acc = tl.dot(a, b, acc)" in l)
    assert f"triton_round12.py:{line}:" in str(err.value)
    lower_from_launches(f"{FIXTURE}::f32_dot_ieee_acc", mine["f32_dot_ieee_acc"]).write(tmp_path / "ieee" /
                                                                                         "lowered.py")
    for name, grid, args, kw in MOD.dots()[1:]:
        got = two.run_copies(tmp_path / "ieee", getattr(MOD, name), grid, args, kw, Ct12)
        assert np.array_equal(got[2], 2 * (args[0] @ args[1]))


def test_ported_autotuned_kernel_takes_the_captured_config(tmp_path):
    """`ported()` of an `@triton.autotune` kernel raised AttributeError ('Autotuner' object has no attribute
    'params'); it binds the config the capture launched — the first after `prune_configs_by` (BLOCK 256 of 128 /
    256 / 512 for 300 columns) — and the lowered kernel computes the rows."""
    from tileport.frontends.cutile_py.capture import run_captured
    from tileport.pipeline.triton import lower_from_launches
    from tileport.runtime.triton_port import ported

    launches = [l for l in run_captured(FIXTURE, []).launches.values() if l["kernel"].endswith("::autotuned_rows")]
    assert [a["value"] for l in launches for a in l["args"] if a["name"] == "BLOCK"] == [256]
    lower_from_launches(f"{FIXTURE}::autotuned_rows", launches).write(tmp_path / "autotuned_rows" / "lowered.py")
    (name, grid, args, kw), = MOD.tuned()
    assert ported(MOD.autotuned_rows, tmp_path / "autotuned_rows").bind(args, kw)["BLOCK"] == 256
    got = _run(tmp_path, name, grid, args, kw)
    assert np.array_equal(got[2], args[0] * args[1][:, None])


def test_an_int_scalar_past_int32_is_no_launch_of_the_port(lowered):
    """Triton compiles a launch whose integer argument does not fit int32 with that parameter as int64 (TileGym's
    dropout given `torch.random.initial_seed()`, a 64-bit seed); the lowered kernel takes int32 scalars. The port
    says so by name instead of failing in the launcher (OverflowError), and the shadow leaves the launch to Triton."""
    from tileport.runtime.triton_port import TritonPortError, ported, wide_int_scalar

    pk = ported(MOD.split_blocks_min, lowered / "split_blocks_min")
    x = np.zeros(5000, np.float32)
    fits = pk.bind((x, np.zeros_like(x), 5000), {"BLOCK": 256})
    assert wide_int_scalar(pk.report["params"], fits) is None
    pk.lowered_args(fits)
    wide = pk.bind((x, np.zeros_like(x), 2 ** 31), {"BLOCK": 256})
    assert wide_int_scalar(pk.report["params"], wide) == "n=2147483648"
    with pytest.raises(TritonPortError, match=r"split_blocks_min: n=2147483648 does not fit int32"):
        pk.lowered_args(wide)
