"""The CPU side of shadow runs (runtime/shadow.py): which outputs a port only writes, and the ports a corpus port
run wrote. The GPU side is tests/gpu/test_shadow_gpu.py."""
from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from tileport.runtime.shadow import _aliased, _dtypes_ported, _written_only, corpus_ports
from test_triton_two_layouts import _torch_python


def test_outputs_poisoned_are_those_the_port_only_writes(tmp_path: Path):
    (tmp_path / "lowered.py").write_text(
        "x = ct.load(x_ptr, index=(pid,), shape=(B,))\nacc = ct.gather(acc_ptr, offs)\n"
        "ct.store(y_ptr, index=(pid,), tile=x)\nct.scatter(acc_ptr, offs, x)\n")
    assert _written_only(tmp_path) == {"y_ptr"}   # acc_ptr is read too: updated in place, never poisoned


class _Mem:
    """A tensor's memory as the shadow reads it: data pointer, shape, strides and element size (contiguous rows of
    ``n`` elements unless ``shape``/``stride`` say otherwise)."""

    def __init__(self, ptr: int, n: int, size: int = 4, shape: tuple = (), stride: tuple = ()):
        self.ptr, self.size = ptr, size
        self.shape, self._stride = shape or (n,), stride or (1,)
        self.n = 1
        for d in self.shape:
            self.n *= d

    def stride(self) -> tuple:
        return self._stride

    def data_ptr(self) -> int:
        return self.ptr

    def numel(self) -> int:
        return self.n

    def element_size(self) -> int:
        return self.size


def test_an_in_place_launchs_output_is_not_poisoned():
    """TileGym's in-place dropout passes x as output_ptr too: poisoning the output the port only writes poisoned
    the x it reads (run 2026-12-06: 0 of 3 checks ok with no value apart)."""
    x, y, z = _Mem(0x1000, 1024), _Mem(0x2000, 1024), _Mem(0x1000 + 512, 16)
    assert _aliased([("x_ptr", x), ("output_ptr", x), ("w", y)]) == {"x_ptr", "output_ptr"}
    assert _aliased([("x_ptr", x), ("part", z), ("w", y)]) == {"x_ptr", "part"}   # a view inside x
    assert _aliased([("x_ptr", x), ("w", y)]) == set()


def test_a_strided_views_whole_extent_counts_as_its_memory():
    """A column of a 64x64 f32 matrix is 64 elements but spans 63 rows: a buffer placed after its first 64 elements
    overlaps it (counting numel * element_size bytes would miss that)."""
    col = _Mem(0x10000, 0, shape=(64,), stride=(64,))
    inside = _Mem(0x10000 + 4 * 64 * 10, 8)   # row 10's first elements: the column's element 10
    after = _Mem(0x10000 + 4 * (63 * 64 + 1), 8)   # just past the column's last element
    assert _aliased([("col", col), ("inside", inside)]) == {"col", "inside"}
    assert _aliased([("col", col), ("after", after)]) == set()
    assert _aliased([("empty", _Mem(0x10000, 0, shape=(0,))), ("inside", inside)]) == set()


def test_corpus_ports_maps_source_and_kernel_to_the_port_directory(tmp_path: Path):
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "sub" / "k.py").write_text("")
    out = tmp_path / "ports"
    (out / "sub.k.kern").mkdir(parents=True)
    (out / "sub.k.kern" / "lowered.py").write_text("")
    (out / "corpus.json").write_text(json.dumps({"kernels": [
        {"file": "sub/k.py", "kernel": "kern", "status": "proven"},
        {"file": "sub/k.py", "kernel": "other", "status": "failed"}]}))   # no lowered form: left out
    assert corpus_ports(out / "corpus.json", corpus) == {(str((corpus / "sub" / "k.py").resolve()), "kern"):
                                                         out / "sub.k.kern"}


def test_a_launch_at_dtypes_no_variant_was_captured_at_is_not_the_ports(tmp_path: Path):
    np = pytest.importorskip("numpy")
    port = tmp_path / "port"
    port.mkdir()
    (port / "spec.json").write_text(json.dumps({"variants": [
        {"params": [{"name": "Q", "kind": "array", "dtype": "f32"}, {"name": "n", "kind": "scalar", "dtype": "i32"}]},
        {"params": [{"name": "Q", "kind": "array", "dtype": "f16"}]}]}))
    assert _dtypes_ported(port, {"Q": np.zeros(4, np.float16), "n": 4})
    assert _dtypes_ported(port, {"Q": np.zeros(4, np.float32), "extra": np.zeros(2, np.int8)})  # no variant names it
    assert not _dtypes_ported(port, {"Q": np.zeros(4, np.float64), "n": 4})
    assert _dtypes_ported(tmp_path, {"Q": np.zeros(4, np.float64)})   # no spec.json: nothing to compare with


ORDER_SCRIPT = textwrap.dedent('''
    import json, torch
    from tileport.runtime import shadow
    torch.cuda.synchronize = lambda: None   # (CPU tensors: the judgement's arithmetic, not a GPU)
    def case(spread, port_off):
        x, out = torch.ones(64), torch.zeros(64)
        before, calls = [x.clone(), out.clone()], [0]
        def run_triton():   # Triton: x + a wobble that changes from run to run (a lock taken in another order)
            calls[0] += 1
            out.copy_(x + spread * (calls[0] % 2))
        run_triton()
        triton_out = [x.clone(), out.clone()]
        port = triton_out[1] + port_off
        outputs = {"out": shadow._compare(triton_out[1], port)}
        shadow._judge_order_dependent(outputs, [("x", x), ("out", out)], before, triton_out, run_triton)
        return outputs["out"]
    print(json.dumps([case(0.0, 0.01), case(0.004, 0.003), case(0.004, 0.02)]))
''')


def test_an_order_dependent_output_is_judged_against_tritons_own_spread(tmp_path: Path):
    """Where the port misses the tolerance, Triton re-runs the launch: if Triton repeats itself exactly the miss
    stands; if its own runs differ (lock/atomic order), the port passes within twice that spread, and not beyond."""
    py = _torch_python()
    if py is None:
        pytest.skip("no Python with torch (TILEPORT_TORCH_PYTHON)")
    script = tmp_path / "order.py"
    script.write_text(ORDER_SCRIPT)
    res = subprocess.run([py, str(script)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")})
    assert res.returncode == 0, res.stderr[-3000:]
    same, within, beyond = json.loads(res.stdout)
    assert not same["ok"] and "order_dependent" not in same
    assert within["ok"] and within["order_dependent"] and abs(within["triton_self_max_abs"] - 0.004) < 1e-6
    assert not beyond["ok"] and beyond["order_dependent"]


def test_triton_33s_tensor_descriptor_name_is_the_new_function_while_host_code_runs():
    """Tutorial 09 calls tl._experimental_make_tensor_descriptor (Triton 3.3's name): Triton 3.6 could not compile
    it on the GPU (CompilationError at its line), so the shadow had nothing to compare the port with."""
    tl = pytest.importorskip("triton.language")
    from tileport.corpus.tritonemu import legacy_modules

    if hasattr(tl, "_experimental_make_tensor_descriptor"):
        pytest.skip("this Triton still has the old name")
    with legacy_modules(cublas=False):
        assert tl._experimental_make_tensor_descriptor is tl.make_tensor_descriptor
    assert not hasattr(tl, "_experimental_make_tensor_descriptor")   # restored


def test_a_bad_calls_file_stops_the_shadow_run_with_its_reason(tmp_path: Path):
    """benchmarks/corpus/triton_shadow.py --calls: a call naming no tutorial script, lacking a field or whose code
    does not compile stops the run before it starts, one line, no traceback; the committed file is well formed."""
    import sys

    from conftest import REPO

    script = REPO / "benchmarks" / "corpus" / "triton_shadow.py"
    tutorials = tmp_path / "tut"
    tutorials.mkdir()
    (tutorials / "t.py").write_text("")
    for calls, says in (([{"script": "none.py", "why": "w", "code": "1"}], "no script none.py"),
                        ([{"script": "t.py", "code": "1"}], "lacks why"),
                        ([{"script": "t.py", "why": "w", "code": "f("}], "SyntaxError")):
        f = tmp_path / "calls.json"
        f.write_text(json.dumps({"calls": calls}))
        res = subprocess.run([sys.executable, str(script), "--tutorials", str(tutorials), "--tutorial-ports",
                              str(tmp_path), "--calls", str(f), "--out", str(tmp_path / "o.json")],
                             capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO / "src")})
        assert res.returncode != 0 and says in res.stderr and "Traceback" not in res.stderr, res.stderr
    committed = json.loads((REPO / "benchmarks" / "corpus" / "triton_shadow_calls.json").read_text())["calls"]
    for c in committed:
        compile(c["code"], c["script"], "exec")
