"""On a GPU: every launch of the LLM-idiom Triton kernels (tests/fixtures/triton_idioms_llm.py) run by Triton and by
its lowered cuTile Python (the `cutile` backend of `ported()`) on copies of the same inputs; every array argument
compared afterwards (outputs and arrays updated in place). The CPU tests prove each Rust port IR-equivalent to the
lowered form; this checks the lowering itself against Triton."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from tileport.frontends.cutile_py.capture import run_captured

pytestmark = pytest.mark.gpu
LLM = Path(__file__).parents[1] / "fixtures" / "triton_idioms_llm.py"


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    """Each fixture kernel lowered at its captured launches (no cargo: the lowering alone)."""
    from tileport.pipeline.triton import lower_from_launches

    rec = run_captured(LLM, [])
    launches = list(rec.launches.values())
    root = tmp_path_factory.mktemp("llm-lowered")
    for name in sorted({l["kernel"].rpartition("::")[2] for l in launches}):
        mine = [l for l in launches if l["kernel"].endswith(f"::{name}")]
        lower_from_launches(f"{LLM}::{name}", mine).write(root / name / "lowered.py")
    return root


def test_lowered_llm_kernels_match_triton(lowered):
    torch = pytest.importorskip("torch")
    pytest.importorskip("triton")
    from tileport.runtime.triton_port import ported

    spec = importlib.util.spec_from_file_location("llm_idioms_gpu", LLM)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    failures, count = [], 0

    def cuda(a):
        return torch.from_numpy(np.ascontiguousarray(a)).cuda() if isinstance(a, np.ndarray) else a

    def copies(xs):
        return [x.clone() if torch.is_tensor(x) else x for x in xs]

    class Both:   # launches the Triton kernel and its lowered form on copies of the same inputs
        def __init__(self, name, jit):
            self.name, self.jit = name, jit

        def __getitem__(self, grid):
            def launch(*args, **kwargs):
                nonlocal count
                count += 1
                names = list(kwargs)
                t_args, t_kw = [cuda(a) for a in args], [cuda(kwargs[n]) for n in names]
                c_args, c_kw = copies(t_args), copies(t_kw)
                self.jit[grid](*t_args, **dict(zip(names, t_kw)))
                ported(self.jit, lowered / self.name, backend="cutile")[grid](*c_args, **dict(zip(names, c_kw)))
                torch.cuda.synchronize()
                for a, b in zip(t_args + t_kw, c_args + c_kw):
                    if torch.is_tensor(a) and not torch.allclose(a.double(), b.double(), rtol=2e-2, atol=2e-2,
                                                                 equal_nan=True):
                        failures.append(f"{self.name}: {(a.double() - b.double()).abs().max().item()}")
            return launch

    for name in dir(mod):
        obj = getattr(mod, name)
        if type(obj).__name__ in ("JITFunction", "Heuristics") and not name.startswith("_"):
            setattr(mod, name, Both(name, obj))
    mod.launch_all()
    assert count > 30 and not failures, failures
