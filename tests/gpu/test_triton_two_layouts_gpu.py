"""On a GPU: each launch of tests/fixtures/triton_idioms_two_layouts.py (one pointer read as a strided tile and at
computed element offsets) run by Triton and by its lowered cuTile Python on copies of the same inputs; every array
compared afterwards. tests/test_triton_two_layouts.py checks the same on the CPU (Triton's interpreter, the lowered
kernel on numpy)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from triton_both import lower_fixture, run_both

pytestmark = pytest.mark.gpu
TWO = Path(__file__).parents[1] / "fixtures" / "triton_idioms_two_layouts.py"


def test_lowered_two_layout_kernels_match_triton(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("triton")
    lowered = lower_fixture(TWO, tmp_path)

    def cuda(a):
        return torch.from_numpy(np.ascontiguousarray(a)).cuda() if isinstance(a, np.ndarray) else a

    count, failures = run_both(TWO, lowered, lambda name, obj: type(obj).__name__ == "JITFunction",
                               lambda mod: mod.launch_all(), prepare=cuda)
    assert count == 9 and not failures, failures
