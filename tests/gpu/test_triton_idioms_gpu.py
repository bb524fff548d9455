"""On a GPU: every launch of the LLM-idiom Triton kernels (tests/fixtures/triton_idioms_llm.py) run by Triton and by
its lowered cuTile Python (the `cutile` backend of `ported()`) on copies of the same inputs; every array argument
compared afterwards (outputs and arrays updated in place). The CPU tests prove each Rust port IR-equivalent to the
lowered form; this checks the lowering itself against Triton."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from triton_both import lower_fixture, run_both

pytestmark = pytest.mark.gpu
LLM = Path(__file__).parents[1] / "fixtures" / "triton_idioms_llm.py"
#: fixture kernels whose lowered form the GPU cannot run for a toolchain limit (launching one ends the process's CUDA
#: context, failing every test after it): name -> the limit
TOOLCHAIN_FAULTS = {
    "seg_scan_flags": "tileiras 13.4 compiles the lowered segmented scan to 8-byte global loads at 4-byte-aligned "
                      "addresses ('misaligned address'; benchmarks/results/h100/triton-corpus/run-2026-12-06-s15)",
}


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return lower_fixture(LLM, tmp_path_factory.mktemp("llm-lowered"))


def test_lowered_llm_kernels_match_triton(lowered):
    torch = pytest.importorskip("torch")
    pytest.importorskip("triton")

    def cuda(a):
        """A numpy argument on the GPU with its layout: a strided view (`q[:, :256]` of a fused qkv, whose row
        stride the kernel is told) stays that view of its base's copy (a contiguous copy would not match the
        stride the launch passes: the H200 run of 2026-12-05 failed there)."""
        if not isinstance(a, np.ndarray):
            return a
        base = a.base
        if a.flags.c_contiguous or not isinstance(base, np.ndarray) or not base.flags.c_contiguous or \
                any(s < 0 for s in a.strides):
            return torch.from_numpy(np.ascontiguousarray(a)).cuda()
        offset = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // a.itemsize
        return torch.from_numpy(base).cuda().as_strided(a.shape, [s // a.itemsize for s in a.strides], offset)

    count, failures = run_both(
        LLM, lowered, lambda name, obj: type(obj).__name__ in ("JITFunction", "Heuristics") and not name.startswith("_"),
        lambda mod: mod.launch_all(), prepare=cuda, skip=frozenset(TOOLCHAIN_FAULTS))
    assert count > 30 and not failures, failures


@pytest.mark.parametrize("name", sorted(TOOLCHAIN_FAULTS))
def test_lowered_kernels_the_toolchain_miscompiles(name):
    pytest.skip(f"{name}: not launched — {TOOLCHAIN_FAULTS[name]}")
