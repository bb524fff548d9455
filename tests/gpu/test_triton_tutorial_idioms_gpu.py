"""On a GPU: the kernels of tests/fixtures/triton_idioms_tutorials.py (our own, in the idioms of Triton 3.4-3.6's
attention and persistent-matmul tutorials: descriptors at row offsets that are not whole blocks, causal and
non-causal launches of one kernel, a persistent tile loop, a transposed read) run by Triton and by their lowered
cuTile Python (`ported(.., backend="cutile")`) on copies of the same inputs, at the fixture's ragged sizes (192 rows
per head against 128-row blocks, a 200x136x96 matmul); every array compared afterwards. The CPU tests prove each
Rust port IR-equivalent to the lowered form; this checks the lowering itself against Triton."""
from __future__ import annotations

from pathlib import Path

import pytest
from triton_both import lower_fixture, run_both

pytestmark = pytest.mark.gpu
TUT = Path(__file__).parents[1] / "fixtures" / "triton_idioms_tutorials.py"


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return lower_fixture(TUT, tmp_path_factory.mktemp("tut-lowered"))


def test_lowered_tutorial_idioms_match_triton(lowered):
    torch = pytest.importorskip("torch")
    pytest.importorskip("triton")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    from triton.tools.tensor_descriptor import TensorDescriptor

    def copy(x):
        if torch.is_tensor(x):
            return x.clone()
        if isinstance(x, TensorDescriptor):
            return TensorDescriptor(x.base.clone(), x.shape, x.strides, x.block_shape, x.padding)
        return x

    count, failures = run_both(
        TUT, lowered, lambda name, obj: type(obj).__name__ == "JITFunction" and name.startswith("tut_"),
        lambda mod: mod.launch_all("cuda"), copy=copy,
        arrays=lambda xs: [x.base if isinstance(x, TensorDescriptor) else x for x in xs])
    assert count >= 6 and not failures, failures
