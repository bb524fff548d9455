"""CuPy host code on a machine without a GPU (tileport/corpus/cupyemu.py): cuda.tile's own quick start allocates
with CuPy, and a capture of such a program stopped at `import cupy` (not installed, or unable to allocate without a
GPU) with no launch recorded. Under the capture, `import cupy` gives a numpy-backed stand-in whose arrays speak
`__cuda_array_interface__` (256-byte aligned), numpy computing what the host code computes."""
from __future__ import annotations

import json
import sys
import textwrap

import numpy as np
import pytest

from tileport.corpus import cupyemu
from tileport.corpus.cudaemu import TARGETS
from tileport.frontends.arrays import array_facts

from conftest import host_program, run_tileport

H200 = TARGETS["h200"]


def test_arrays_are_aligned_device_arrays_numpy_computes():
    with cupyemu.stand_in(H200):
        import cupy as cp

        rng = cp.random.default_rng(1)
        a = rng.random(1000, dtype=cp.float32)
        made = [a, cp.zeros((7, 5), cp.float16), cp.ones(3), cp.empty_like(a), cp.full((4,), 2.5, cp.float32),
                cp.arange(10, dtype=cp.int32), cp.asarray(np.ones(5)), cp.random.randn(4, 4, dtype=cp.float32),
                a + a, cp.exp(a), cp.zeros((8, 4), order="F")]
        for x in made:
            assert isinstance(x, cp.ndarray), type(x)
            iface = x.__cuda_array_interface__
            assert iface["version"] == 3 and iface["shape"] == x.shape
        for x in made[:8]:   # (what the stand-in allocates; numpy's results are copied there too)
            assert x.__cuda_array_interface__["data"][0] % cupyemu.ALIGN == 0
        assert a.dtype == np.float32 and made[7].dtype == np.float32 and made[4].tolist() == [2.5] * 4
        facts = array_facts(made[10])
        assert facts.strides == (1, 8), facts   # a Fortran-order array, as ct.launch reads it
        host = cp.asnumpy(a)
        assert type(host).__mro__[1] is np.ndarray and np.array_equal(np.asarray(host), a.get().view(np.ndarray))
        assert float(cp.sum(a)) == pytest.approx(float(np.sum(host)))
        assert cp.get_array_module(a) is cp and cp.get_array_module(host) is np


def test_cuda_answers_as_the_target():
    with cupyemu.stand_in(H200):
        import cupy as cp
        import cupyx

        dev = cp.cuda.Device()
        assert dev.compute_capability == "90" and dev.attributes["MultiProcessorCount"] == 132
        assert cp.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"] == 132
        assert cp.cuda.runtime.getDeviceCount() == 1 and cp.cuda.get_current_stream().ptr == 0
        with cp.cuda.Stream(non_blocking=True) as s:
            e = s.record()
            e.synchronize()
        assert cp.cuda.get_elapsed_time(e, e) == 1.0
        calls = []
        result = cupyx.profiler.benchmark(lambda: calls.append(1), n_repeat=100)
        assert calls == [1] and "not timed" in str(result)
        assert cp.get_default_memory_pool().used_bytes() == 0


def test_comparisons_answer_close_only_for_what_no_kernel_computed():
    with cupyemu.stand_in(H200):
        import cupy as cp

        out = cp.empty(8, dtype=cp.float32)   # (a kernel's output: never written here)
        cp.testing.assert_allclose(out, cp.ones(8))
        assert cp.allclose(out, 1.0)
        np.testing.assert_allclose(cp.asnumpy(out), np.ones(8))   # a host copy of it
        np.testing.assert_array_equal(out.get() * 2, np.ones(8))
        with pytest.raises(AssertionError):   # plain numpy arrays compare as numpy compares them
            np.testing.assert_allclose(np.zeros(3), np.ones(3))
        assert not np.allclose(np.zeros(3), np.ones(3))
    with cupyemu.stand_in(H200, compare_pass=False):   # (--compare run)
        import cupy as cp

        with pytest.raises(AssertionError):
            cp.testing.assert_allclose(cp.zeros(3), cp.ones(3))


def test_cupy_kernels_of_the_host_code_say_why_they_cannot_run():
    with cupyemu.stand_in(H200):
        import cupy as cp

        k = cp.RawKernel("extern \"C\" __global__ void k() {}", "k")
        with pytest.raises(RuntimeError, match="cupy.RawKernel cannot run under tileport's CuPy stand-in"):
            k((1,), (32,), ())
        assert cp.fuse(lambda x: x * 2)(cp.ones(2)).tolist() == [2.0, 2.0]   # (a fused function: run as written)


def test_the_modules_before_are_put_back():
    before = {name: sys.modules.get(name) for name in ("cupy", "cupyx", "cupy.cuda")}
    real_assert = np.testing.assert_allclose
    with cupyemu.stand_in(H200):
        import cupy

        assert cupy.__version__ == cupyemu.VERSION
        assert np.testing.assert_allclose is not real_assert
    assert {name: sys.modules.get(name) for name in before} == before
    assert np.testing.assert_allclose is real_assert


QUICK_START = '''\
    import cuda.tile as ct
    import cupy
    import numpy as np

    T = 16


    @ct.kernel
    def add(a, b, out):
        i = ct.bid(0)
        ct.store(out, index=(i,), tile=ct.load(a, index=(i,), shape=(T,)) + ct.load(b, index=(i,), shape=(T,)))


    for n in (128, 1024):
        a = cupy.random.default_rng().random(n)
        b = cupy.random.default_rng().random(n)
        out = cupy.zeros_like(a)
        ct.launch(cupy.cuda.get_current_stream(), (ct.cdiv(n, T), 1, 1), add, (a, b, out))
        np.testing.assert_array_almost_equal(cupy.asnumpy(out), cupy.asnumpy(a) + cupy.asnumpy(b))
'''


@pytest.mark.skipif("torch" in sys.modules or __import__("importlib").util.find_spec("torch") is not None,
                    reason="this Python has torch: `tileport capture` takes the torch emulation's path (with the "
                           "stand-in too: test_corpus_capture_of_a_cupy_project)")
def test_capture_of_a_cupy_host_program_without_torch(tmp_path):
    """The quick-start shape (CuPy's default_rng, zeros_like, the current stream, numpy's check of the copy back):
    both launches recorded, the program ran to its end."""
    prog = host_program(tmp_path, QUICK_START)
    r = run_tileport("capture", "--out", str(tmp_path / "l.json"), "--", "python", str(prog))
    assert r.returncode == 0, r.stdout + r.stderr
    data = json.loads((tmp_path / "l.json").read_text())
    assert [(l["grid"], l["signature"]) for l in data["launches"]] == [
        ([8, 1, 1], "a=f64[?%16]/1&16, b=f64[?%16]/1&16, out=f64[?%16]/1&16"),
        ([64, 1, 1], "a=f64[?%16]/1&16, b=f64[?%16]/1&16, out=f64[?%16]/1&16")]
    assert any("import cupy gives a numpy-backed stand-in" in a for a in data["assumptions"])


def test_a_cupy_kernel_in_the_host_program_fails_it_clearly_keeping_the_launches(tmp_path):
    prog = host_program(tmp_path, QUICK_START + '''\
    cupy.ElementwiseKernel("float64 x", "float64 y", "y = x * 2", "double_it")(a)
    ''')
    r = run_tileport("capture", "--out", str(tmp_path / "l.json"), "--", "python", str(prog))
    assert r.returncode == 1
    assert "cupy.ElementwiseKernel cannot run under tileport's CuPy stand-in" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr.split("---- traceback of")[0], r.stderr   # (tileport's own line: no traceback)
    assert len(json.loads((tmp_path / "l.json").read_text())["launches"]) == 2


def test_corpus_capture_of_a_cupy_project(tmp_path):
    """`tileport corpus capture` of a project whose tests allocate with CuPy (under the torch emulation, where the
    corpus runs): every test passes, each launch recorded with its Fortran-order and transposed views."""
    pytest.importorskip("torch", reason="tileport corpus capture drives torch host code; torch is not installed here")
    from tileport.corpus.capture import Options, run

    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "kern.py").write_text(textwrap.dedent(QUICK_START).split("for n in")[0])
    (root / "tests" / "test_add.py").write_text(textwrap.dedent('''\
        import cupy as cp
        import cuda.tile as ct
        import pytest

        from kern import T, add


        @pytest.mark.parametrize("dtype", [cp.float16, cp.float32])
        def test_add(dtype):
            a = cp.random.rand(256, dtype=cp.float32).astype(dtype)
            out = cp.empty_like(a)
            ct.launch(cp.cuda.get_current_stream(), (256 // T,), add, (a, a, out))
            cp.testing.assert_allclose(out, a + a)
    '''))
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    assert index["test_files"][0]["outcomes"] == {"passed": 2}, json.dumps(index["test_files"])[:3000]
    assert [(k["kernel"], k["launches"]) for k in index["kernels"]] == [("add", 2)], index["kernels"]
