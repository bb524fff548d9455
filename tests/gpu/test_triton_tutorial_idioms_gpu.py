"""On a GPU: the kernels of tests/fixtures/triton_idioms_tutorials.py (our own, in the idioms of Triton 3.4-3.6's
attention and persistent-matmul tutorials: descriptors at row offsets that are not whole blocks, causal and
non-causal launches of one kernel, a persistent tile loop, a transposed read) run by Triton and by their lowered
cuTile Python (`ported(.., backend="cutile")`) on copies of the same inputs, at the fixture's ragged sizes (192 rows
per head against 128-row blocks, a 200x136x96 matmul); every array compared afterwards. The CPU tests prove each
Rust port IR-equivalent to the lowered form; this checks the lowering itself against Triton."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tileport.frontends.cutile_py.capture import run_captured

pytestmark = pytest.mark.gpu
TUT = Path(__file__).parents[1] / "fixtures" / "triton_idioms_tutorials.py"


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    """Each fixture kernel lowered at its captured launches (no cargo: the lowering alone)."""
    from tileport.pipeline.triton import lower_from_launches

    rec = run_captured(TUT, [])
    launches = list(rec.launches.values())
    root = tmp_path_factory.mktemp("tut-lowered")
    for name in sorted({l["kernel"].rpartition("::")[2] for l in launches}):
        mine = [l for l in launches if l["kernel"].endswith(f"::{name}")]
        lower_from_launches(f"{TUT}::{name}", mine).write(root / name / "lowered.py")
    return root


def test_lowered_tutorial_idioms_match_triton(lowered):
    torch = pytest.importorskip("torch")
    pytest.importorskip("triton")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    from triton.tools.tensor_descriptor import TensorDescriptor

    from tileport.runtime.triton_port import ported

    spec = importlib.util.spec_from_file_location("tut_idioms_gpu", TUT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    failures, count = [], 0

    def copy(x):
        if torch.is_tensor(x):
            return x.clone()
        if isinstance(x, TensorDescriptor):
            return TensorDescriptor(x.base.clone(), x.shape, x.strides, x.block_shape, x.padding)
        return x

    def tensors(xs):
        return [x.base if isinstance(x, TensorDescriptor) else x for x in xs]

    class Both:   # launches the Triton kernel and its lowered form on copies of the same inputs
        def __init__(self, name, jit):
            self.name, self.jit = name, jit

        def __getitem__(self, grid):
            def launch(*args, **kwargs):
                nonlocal count
                count += 1
                names = list(kwargs)
                t_args, t_kw = list(args), [kwargs[n] for n in names]
                c_args, c_kw = [copy(a) for a in t_args], [copy(a) for a in t_kw]
                self.jit[grid](*t_args, **dict(zip(names, t_kw)))
                ported(self.jit, lowered / self.name, backend="cutile")[grid](*c_args, **dict(zip(names, c_kw)))
                torch.cuda.synchronize()
                for a, b in zip(tensors(t_args + t_kw), tensors(c_args + c_kw)):
                    if torch.is_tensor(a) and not torch.allclose(a.double(), b.double(), rtol=2e-2, atol=2e-2,
                                                                 equal_nan=True):
                        failures.append(f"{self.name}: {(a.double() - b.double()).abs().max().item()}")
            return launch

    for name in dir(mod):
        obj = getattr(mod, name)
        if type(obj).__name__ == "JITFunction" and name.startswith("tut_"):
            setattr(mod, name, Both(name, obj))
    mod.launch_all("cuda")
    assert count >= 6 and not failures, failures
