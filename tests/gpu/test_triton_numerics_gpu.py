"""On a GPU: tests/fixtures/triton_numerics.py's kernels run by Triton and by their lowered cuTile Python, outputs
compared bit for bit (NaNs by being NaN): the lowering's f32 `/`, `tl.sqrt` and `tl.rsqrt` are Triton's own
instructions (div.full.f32, sqrt/rsqrt.approx.ftz.f32: see tileport.frontends.triton.lower), not approximations of
them, and `div_rn` / `sqrt_rn` are IEEE in both."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from triton_both import lower_fixture, run_both

pytestmark = pytest.mark.gpu
NUMERICS = Path(__file__).parents[1] / "fixtures" / "triton_numerics.py"


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return lower_fixture(NUMERICS, tmp_path_factory.mktemp("numerics-lowered"))


def test_f32_quotients_and_roots_are_tritons_bit_for_bit(lowered):
    torch = pytest.importorskip("torch")
    pytest.importorskip("triton")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    pairs = []

    def arrays(xs):
        pairs.append([x for x in xs if torch.is_tensor(x)])
        return []   # (compared below, bit for bit, instead of run_both's tolerance)

    def cuda(a):
        return torch.from_numpy(np.ascontiguousarray(a)).cuda() if isinstance(a, np.ndarray) else a

    count, _ = run_both(NUMERICS, lowered, lambda name, obj: type(obj).__name__ == "JITFunction",
                        lambda mod: mod.launch_all(), prepare=cuda, arrays=arrays)
    assert count == 2 and len(pairs) == 4
    differing = []
    for triton_args, port_args in zip(pairs[0::2], pairs[1::2]):
        for a, b in zip(triton_args, port_args):
            same = (a.view(torch.int32) == b.view(torch.int32)) | (torch.isnan(a) & torch.isnan(b))
            if not bool(same.all()):
                i = int((~same).nonzero()[0])
                differing.append(f"{int((~same).sum())} of {a.numel()} differ; first at {i}: Triton {a[i].item()!r} "
                                 f"port {b[i].item()!r}")
    assert not differing, differing
