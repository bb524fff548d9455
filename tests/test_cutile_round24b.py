"""cuTile Python generality, round 24b (docs/corpus.md): kernels written as a kernel library's own test suite and
sample scripts are — defined inside test functions, fixtures and classes, scripts with top-level host code, CuPy and
torch host arrays in one project — captured and ported with the CLI; what they found in tileport, each as a test."""
from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

import pytest

TABLE_MOD = '''\
import cuda.tile as ct

OPS = {
    "relu": lambda t: ct.maximum(t, 0.0),
    "tanh": lambda t: ct.tanh(t),
}
ACTS = [lambda t: t * 2.0]


def make(op):
    fn = OPS[op]

    @ct.kernel
    def unary(x, y, B: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(y, (i,), fn(ct.load(x, (i,), (B,))))
    return unary


def make_listed():
    fn = ACTS[0]

    @ct.kernel
    def listed(x, y, B: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(y, (i,), fn(ct.load(x, (i,), (B,))))
    return listed


def make_unrecorded():
    fn = (lambda: (lambda t: t + 1.0))()

    @ct.kernel
    def other(x, y, B: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(y, (i,), fn(ct.load(x, (i,), (B,))))
    return other
'''


def _import(tmp_path: Path, pkg: str, files: dict[str, str], module: str):
    root = tmp_path / pkg
    root.mkdir()
    (root / "__init__.py").write_text("")
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text))
    sys.path.insert(0, str(tmp_path))
    return root, importlib.import_module(f"{pkg}.{module}")


def _forget(tmp_path: Path, pkg: str) -> None:
    sys.path.remove(str(tmp_path))
    for name in [n for n in sys.modules if n == pkg or n.startswith(pkg + ".")]:
        del sys.modules[name]


def test_a_kernel_closing_over_a_lambda_of_a_module_table(tmp_path):
    """`fn = OPS[op]` inside a parametrized test, `OPS` a module dict of lambdas (round 24b's s01 `unary`): the
    lambda was recorded `{"unknown": "function"}` — one digest for every op, so the capture merged the four ops'
    kernels into one and the port failed ("a function the capture could not record"). An item of a module-level
    dict, list or tuple is recorded by the table's name and its key, and found there again by the port."""
    from tileport.frontends.cutile_py.loader import closure_values, kernel_name, load_kernel

    root, mod = _import(tmp_path, "r24btab", {"ks.py": TABLE_MOD}, "ks")
    try:
        funcs = [mod.make(op)._pyfunc for op in ("relu", "tanh")]
        closures = [closure_values(f) for f in funcs]
        assert closures == [{"fn": {"global": "OPS", "item": ["relu"]}}, {"fn": {"global": "OPS", "item": ["tanh"]}}]
        names = [kernel_name(f)[0] for f in funcs]
        assert len(set(names)) == 2 and all(n.startswith("unary@14~") for n in names), names
        rebuilt = load_kernel(f"{root / 'ks.py'}::{names[1]}", closures[1])
        fn = rebuilt.pyfunc.__closure__[0].cell_contents
        assert fn.__code__.co_firstlineno == 5   # the "tanh" lambda of the module the port loaded
        listed = mod.make_listed()._pyfunc
        assert closure_values(listed) == {"fn": {"global": "ACTS", "item": [0]}}
        with pytest.raises(Exception, match=r"OPS\['gelu'\], which is not found here"):
            load_kernel(f"{root / 'ks.py'}::{names[1]}", {"fn": {"global": "OPS", "item": ["gelu"]}})
    finally:
        _forget(tmp_path, "r24btab")


def test_a_kernel_closing_over_a_local_lambda(tmp_path):
    """`post = lambda t: t * scale + 1.0` in a parametrized test, closed over by the test's kernel (round 24b's s01
    `apply_post`): recorded as a function by its line and closure, but rebuilt only from a `def` ("no `def <lambda>`
    at line .."). A lambda is rebuilt from its code at that line, over its recorded closure; where two lambdas share
    the line (nothing recorded tells them apart) the port refuses, naming the kernel, the line and the reason."""
    from tileport.frontends.cutile_py.loader import KernelLoadError, closure_values, kernel_name, load_kernel

    root, mod = _import(tmp_path, "r24blam", {"ks.py": TABLE_MOD + LOCAL_LAMBDA}, "ks")
    try:
        func = mod.make_post(4.0)._pyfunc
        closure = closure_values(func)
        assert closure == {"post": {"function": "<lambda>", "line": 41, "tile_function": False,
                                    "closure": {"scale": 4.0}}}, closure
        rebuilt = load_kernel(f"{root / 'ks.py'}::{kernel_name(func)[0]}", closure)
        post = rebuilt.pyfunc.__closure__[0].cell_contents
        assert post(1.0) == 5.0
        func = mod.make_unrecorded()._pyfunc
        name = kernel_name(func)[0]
        with pytest.raises(KernelLoadError, match=r"ks\.py::other@34~[0-9a-f]{8}: 2 lambdas at line 31 of .*ks\.py: "
                                                  r"the one a kernel closes over is not told apart"):
            load_kernel(f"{root / 'ks.py'}::{name}", closure_values(func))
    finally:
        _forget(tmp_path, "r24blam")


LOCAL_LAMBDA = '''

def make_post(scale):
    post = lambda t: t * scale + 1.0  # noqa: E731

    @ct.kernel
    def apply_post(x, y, B: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(y, (i,), post(ct.load(x, (i,), (B,))))
    return apply_post
'''


SHADOW_MOD = '''\
import cuda.tile as ct


@ct.kernel(num_worker_warps=4)
def bias_relu(x, y, B: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, (i,), ct.maximum(ct.load(x, (i,), (B,)), 0.0))


FIRST = bias_relu


# the second version, the one the module's name finds from here on
@ct.kernel(num_worker_warps=8)
def bias_relu(x, y, B: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, (i,), ct.minimum(ct.maximum(ct.load(x, (i,), (B,)), 0.0), 6.0))
'''


def test_a_kernel_redefined_under_its_name_later_in_a_script(tmp_path):
    """A sample script launches `bias_relu`, then defines a second `bias_relu` and launches that (round 24b's s05
    `per_dtype_kernels.py`): both launches were named `bias_relu`, and the port loaded the module's `bias_relu` —
    the second — for both, porting (and proving) the first launch's variant with the second kernel's body. A
    module-level kernel a later top-level `def` of its name replaces is named by its `def` line, as a factory's
    kernel is, and rebuilt from that `def`; the last one keeps its name."""
    from tileport.frontends.cutile_py.loader import kernel_name, load_kernel

    root, mod = _import(tmp_path, "r24bsh", {"script.py": SHADOW_MOD}, "script")
    try:
        assert kernel_name(mod.FIRST._pyfunc) == ("bias_relu@5", None)
        assert kernel_name(mod.bias_relu._pyfunc) == ("bias_relu", None)
        first = load_kernel(f"{root / 'script.py'}::bias_relu@5")
        assert first.pyfunc.__code__.co_firstlineno == 4 and "minimum" not in first.pyfunc.__code__.co_names
        last = load_kernel(f"{root / 'script.py'}::bias_relu")
        assert "minimum" in last.pyfunc.__code__.co_names
    finally:
        _forget(tmp_path, "r24bsh")


def test_torch_as_tensor_of_a_cupy_array(tmp_path):
    """`torch.as_tensor(cupy_array, device="cuda")` in a sample mixing CuPy and torch (round 24b's s06
    `histogram.py`, `gemv_sweep.py`): torch reads `__cuda_array_interface__` before numpy's array interface and
    asked the driver for the stand-in array's pointer ("a CUDA call the emulation does not answer"), ending the
    script before its later launches. The capture's CuPy arrays are host memory: torch.tensor / as_tensor /
    asarray read them as the numpy arrays they are (as_tensor sharing their memory, as on the GPU)."""
    pytest.importorskip("torch", reason="tileport corpus capture drives torch host code; torch is not installed here")
    from tileport.corpus.capture import Options, run
    from tileport.corpus.cudaemu import TARGETS

    root = tmp_path / "proj"
    root.mkdir()
    (root / "sample.py").write_text(textwrap.dedent('''\
        import cupy as cp
        import torch
        import cuda.tile as ct


        @ct.kernel
        def twice(x, y, B: ct.Constant[int]):
            i = ct.bid(0)
            ct.store(y, (i,), ct.load(x, (i,), (B,)) * 2)


        a = cp.arange(256, dtype=cp.int32)
        t = torch.as_tensor(a, device="cuda")
        a[0] = 7
        assert t.device.type == "cuda" and t.dtype == torch.int32 and int(t[0]) == 7   # shared, as on the GPU
        c = torch.tensor(cp.ones(4, dtype=cp.float32), device="cuda")
        d = torch.asarray(cp.zeros(3, dtype=cp.float16), device="cuda")
        assert c.shape == (4,) and d.dtype == torch.float16
        out = torch.empty_like(t)
        ct.launch(torch.cuda.current_stream(), (2,), twice, (t, out, 128))
        ct.launch(cp.cuda.get_current_stream(), (2,), twice, (a, cp.asarray(out), 128))
    '''))
    index = run(Options(root=root, tests=[], scripts=["sample.py"], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    assert index["test_files"][0]["outcomes"] == {"ran": 1}, index["test_files"]
    assert [(k["kernel"], k["launches"]) for k in index["kernels"]] == [("twice", 2)], index["kernels"]


def test_a_launch_a_test_expects_cuda_tile_to_refuse(tmp_path):
    """`with pytest.raises(Exception): ct.launch(..)` of a kernel cuda.tile rejects (round 24b's s03 `TestErrors`,
    s01 `bad_shape`): the capture's ct.launch compiles nothing, so the launch did not raise — the test failed ("DID
    NOT RAISE"), the statements after the block never ran (their launches lost) and the rejected kernel was listed
    as launched. Inside a `pytest.raises` / `assertRaises` block the launch now compiles the kernel's front end at
    the launch's signature (cuda.tile's export, on the CPU) and raises cuda.tile's own error, noted as a launch the
    launch refuses; a kernel that compiles there is recorded as any other. So does a launch in the body of a `try`
    with `except` clauses (a fallback where the launch raises: it falls back as on the GPU)."""
    pytest.importorskip("torch", reason="tileport corpus capture drives torch host code; torch is not installed here")
    from tileport.corpus.capture import Options, run
    from tileport.corpus.cudaemu import TARGETS

    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_refused.py").write_text(textwrap.dedent('''\
        import unittest

        import pytest
        import torch
        import cuda.tile as ct


        def test_refused_then_more():
            @ct.kernel
            def odd(x, y):
                i = ct.bid(0)
                ct.store(y, (i,), ct.load(x, (i,), (3,)))

            @ct.kernel
            def fine(x, y):
                i = ct.bid(0)
                ct.store(y, (i,), ct.load(x, (i,), (4,)))

            x = torch.randn(12, device="cuda")
            with pytest.raises(ct.TileTypeError, match="not a power of two"):
                ct.launch(torch.cuda.current_stream(), (4,), odd, (x, torch.empty_like(x)))
            with pytest.raises(RuntimeError):   # compiles: recorded, then the host code raises
                ct.launch(torch.cuda.current_stream(), (3,), fine, (x, torch.empty_like(x)))
                raise RuntimeError("after the launch")


        class TestOld(unittest.TestCase):
            def test_assert_raises(self):
                @ct.kernel
                def rank2(x, y):
                    ct.store(y, (0, 0), ct.load(x, (0, 0), (4, 4)))

                x = torch.randn(16, device="cuda")
                with self.assertRaises(Exception):
                    ct.launch(torch.cuda.current_stream(), (1,), rank2, (x, torch.empty_like(x)))


        def test_fallback_where_the_launch_raises():
            @ct.kernel
            def five(x, y):
                i = ct.bid(0)
                ct.store(y, (i,), ct.load(x, (i,), (5,)))

            x = torch.randn(10, device="cuda")
            try:
                ct.launch(torch.cuda.current_stream(), (2,), five, (x, torch.empty_like(x)))
                used = "cutile"
            except ct.TileError:
                used = "torch"
            assert used == "torch"
    '''))
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    assert index["test_files"][0]["outcomes"] == {"passed": 3}, index["test_files"]
    assert [(k["kernel"], k["launches"]) for k in index["kernels"]] == [("fine@15", 1)], index["kernels"]
    refused = {k["kernel"]: k.get("refused", "") for k in index["not_launched"]}
    assert set(refused) == {"odd@10", "rank2@30", "five@40"}, index["not_launched"]
    assert "cuda.tile's compile raises TypeCheckingError: Invalid argument \"shape\" of load(): Dimension #0 of " \
           "shape (3,) is not a power of two" in refused["odd@10"], refused
    assert "test_refused.py:20)" in refused["odd@10"], refused
    assert "test_refused.py:45)" in refused["five@40"], refused   # (the `try` with an `except`: a fallback)


def test_a_backend_parameter_naming_no_kernel_backend_runs_every_value(tmp_path):
    """`@pytest.mark.parametrize("backend", ["cupy_arr", "torch_arr"])` — the host library a test allocates with
    (round 24b's s06 first version): a parameter named `backend` (or `framework`) ran only for `--backend` (cutile), so
    both tests were deselected and their launches lost. A parametrization that offers no kernel backend (neither
    --backend's nor cutile / triton) chooses none: each of its tests runs — `("cupy", "torch")` too, torch there a
    host library (the twenty-fifth session); one offering cutile beside torch still runs cutile's alone."""
    pytest.importorskip("torch", reason="tileport corpus capture drives torch host code; torch is not installed here")
    from tileport.corpus.capture import Options, run
    from tileport.corpus.cudaemu import TARGETS

    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_hosts.py").write_text(textwrap.dedent('''\
        import cupy as cp
        import pytest
        import torch
        import cuda.tile as ct


        @ct.kernel
        def twice(x, y, B: ct.Constant[int]):
            i = ct.bid(0)
            ct.store(y, (i,), ct.load(x, (i,), (B,)) * 2.0)


        @pytest.mark.parametrize("backend", ["cupy_arr", "torch_arr"])
        def test_hosts(backend):
            if backend == "cupy_arr":
                x = cp.ones(256, dtype=cp.float32)
                ct.launch(cp.cuda.get_current_stream(), (2,), twice, (x, cp.empty_like(x), 128))
            else:
                x = torch.ones(128, device="cuda")
                ct.launch(torch.cuda.current_stream(), (1,), twice, (x, torch.empty_like(x), 128))


        @pytest.mark.parametrize("backend", ["cupy", "torch"])
        def test_host_libraries(backend):
            if backend == "cupy":
                x = cp.ones(128, dtype=cp.float32)
                ct.launch(cp.cuda.get_current_stream(), (1,), twice, (x, cp.empty_like(x), 128))


        @pytest.mark.parametrize("backend", ["cutile", "torch"])
        def test_kernel_backends(backend):
            x = torch.ones(512, device="cuda")
            if backend == "cutile":
                ct.launch(torch.cuda.current_stream(), (4,), twice, (x, torch.empty_like(x), 128))
    '''))
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    tf = index["test_files"][0]
    assert tf["outcomes"] == {"passed": 5}, tf
    assert [(k["kernel"], k["launches"]) for k in index["kernels"]] == [("twice", 4)], index["kernels"]
