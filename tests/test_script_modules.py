"""Kernels of a script whose host code runs at its top level (cuda.tile's quick start and its docstrings' examples:
kernel, tensors, `ct.launch`, a check of the result, the next kernel): a port imports the file to reach the kernel,
and that import ran the host code — `ct.launch` on a stood-in stream ("Unsupported stream type 'Absent'"), a check of
values no kernel computed — so the kernel never loaded ("importing it failed"). When nothing else is left to retry,
the module's top-level statements run one at a time with `ct.launch` recording nothing, going past each that raises
(listed in the verdict)."""
from __future__ import annotations

import json
import textwrap

import pytest

from tileport.frontends.cutile_py.loader import KernelLoadError, load_kernel

from conftest import needs_cargo, run_tileport

SCRIPT = '''\
    from __future__ import annotations

    import cuda.tile as ct
    import numpy as np
    import torch   # (not installed where the core runs: stood in)

    T = 16


    @ct.kernel
    def first(a, out):
        i = ct.bid(0)
        ct.store(out, index=(i,), tile=ct.load(a, index=(i,), shape=(T,)) * 2)


    a = torch.arange(64, device="cuda", dtype=torch.float32)
    out = torch.empty_like(a)
    ct.launch(torch.cuda.current_stream(), (4,), first, (a, out))
    np.testing.assert_array_equal(out.cpu().numpy(), np.arange(64) * 2)
    SCALE = 3.0


    @ct.kernel
    def second(a, out):
        i = ct.bid(0)
        ct.store(out, index=(i,), tile=ct.load(a, index=(i,), shape=(T,)) * SCALE)


    ct.launch(torch.cuda.current_stream(), (4,), second, (a, out))
    raise SystemExit("a script that ends itself")
'''


def _script(tmp_path):
    f = tmp_path / "quick.py"
    f.write_text(textwrap.dedent(SCRIPT))
    return f


def test_kernels_before_and_after_top_level_host_code_load(tmp_path):
    f = _script(tmp_path)
    for name in ("first", "second"):
        k = load_kernel(f"{f}::{name}")
        assert k.kernel._pyfunc.__name__ == name
        assert k.kernel._pyfunc.__globals__["SCALE"] == 3.0   # (statements after the failing ones still ran)
        assert any(s.startswith("quick.py:19: ") for s in k.skipped), k.skipped


def test_a_kernel_the_script_never_defines_is_still_a_clear_error(tmp_path):
    f = _script(tmp_path)
    with pytest.raises(KernelLoadError) as info:
        load_kernel(f"{f}::third")
    assert "third" in str(info.value) and "\n" not in str(info.value).strip(), str(info.value)


def test_a_module_that_imports_cleanly_runs_as_before(tmp_path):
    f = tmp_path / "clean.py"
    f.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(a, out):\n"
                 "    ct.store(out, index=(0,), tile=ct.load(a, index=(0,), shape=(4,)))\n")
    assert load_kernel(f"{f}::k").skipped == ()


@needs_cargo
def test_port_of_a_script_kernel_is_proven_and_says_what_was_gone_past(tmp_path):
    f = _script(tmp_path)
    r = run_tileport("port", f"{f}::second", "--sig", "f32[?]/1, f32[?]/1", "--out", str(tmp_path / "p"), "--json")
    verdict = json.loads(r.stdout)
    assert verdict["status"] == "proven", r.stdout[-3000:] + r.stderr[-3000:]
    assert any(s.startswith("quick.py:") for s in verdict["module_statements_skipped"]), verdict
