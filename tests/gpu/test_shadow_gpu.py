"""On a GPU: a shadow run checks a Triton kernel's launch against its port on the same inputs, times both, and
leaves Triton's results in place (runtime/shadow.py; benchmarks/corpus/triton_shadow.py runs the corpus so)."""
from __future__ import annotations

import inspect

import pytest

pytestmark = pytest.mark.gpu


def test_shadow_checks_and_times_a_launch_and_keeps_tritons_result():
    torch = pytest.importorskip("torch", reason="torch allocates the GPU tensors")
    pytest.importorskip("triton", reason="triton runs the original kernel")
    from tileport.kernels.triton import LOWERED_DIR, vector_add
    from tileport.runtime.shadow import shadow

    jit = vector_add.triton_vector_add
    ports = {(inspect.getsourcefile(jit.fn), jit.fn.__name__): LOWERED_DIR / f"{jit.fn.__name__}.py"}
    x, y = torch.randn(100_003, device="cuda"), torch.randn(100_003, device="cuda")
    out = torch.full_like(x, float("nan"))
    with shadow(ports, max_checks=1) as sh:
        vector_add.launch(x, y, out)
        vector_add.launch(x, y, out)   # the same launch again: not checked twice
    torch.cuda.synchronize()
    assert torch.equal(out, x + y)
    (rec,) = sh.records
    assert rec["ok"] and list(rec["outputs"]) == ["out_ptr"], rec
    assert rec["outputs"]["out_ptr"]["outside_tolerance"] == 0 and rec["port_ms"] > 0 and rec["triton_ms"] > 0
