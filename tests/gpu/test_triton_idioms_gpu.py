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


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return lower_fixture(LLM, tmp_path_factory.mktemp("llm-lowered"))


def test_lowered_llm_kernels_match_triton(lowered):
    torch = pytest.importorskip("torch")
    pytest.importorskip("triton")

    def cuda(a):
        return torch.from_numpy(np.ascontiguousarray(a)).cuda() if isinstance(a, np.ndarray) else a

    count, failures = run_both(
        LLM, lowered, lambda name, obj: type(obj).__name__ in ("JITFunction", "Heuristics") and not name.startswith("_"),
        lambda mod: mod.launch_all(), prepare=cuda)
    assert count > 30 and not failures, failures
