"""Host code, round 22 (build/host22h): `tileport corpus capture` of host code in more styles real projects use —
legacy tensor types (`torch.cuda.FloatTensor`, `x.type(..)`), torch.cuda's submodules and torch's device-agnostic
Stream / Event, `__cuda_array_interface__`, `torch.cuda.amp.custom_fwd`, a project's pytest configuration
(`addopts = "-n auto"`, a plugin's option, `testpaths` / `python_files`). Each broke a capture (a CUDA error in the
host code, every launch lost) before."""
from __future__ import annotations

import runpy
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="tileport corpus capture drives torch host code; torch is not "
                                              "installed here (pip install torch to run these tests)")

from tileport.corpus.capture import Options, pytest_config, run  # noqa: E402
from tileport.corpus.cudaemu import TARGETS, emulate  # noqa: E402

from conftest import host_program  # noqa: E402


def test_legacy_cuda_tensor_types(tmp_path: Path):
    """`torch.cuda.FloatTensor(n)`, `torch.cuda.LongTensor([..])`, `x.type(torch.cuda.HalfTensor)`,
    `x.type("torch.cuda.FloatTensor")` asked the driver ("Found no NVIDIA driver"); `x.type()` named the CPU type
    and `isinstance(x, torch.cuda.FloatTensor)` was False, so host code asserting either stopped. They answer as on
    the GPU now; `set_default_tensor_type(torch.cuda.HalfTensor)` makes half tensors on CUDA."""
    f = host_program(tmp_path, '''\
        import torch

        x = torch.cuda.FloatTensor(5).fill_(1)
        ids = torch.cuda.LongTensor([1, 2, 3])
        h = x.type(torch.cuda.HalfTensor)
        s = torch.ones(2).type("torch.cuda.DoubleTensor")
        names = (x.type(), h.type(), ids.type())
        checks = (isinstance(x, torch.cuda.FloatTensor), isinstance(x, torch.cuda.HalfTensor),
                  isinstance(h, torch.cuda.HalfTensor), isinstance(ids, torch.cuda.LongTensor), x.is_cuda)
        torch.set_default_tensor_type(torch.cuda.HalfTensor)
        d = torch.ones(3)
        torch.set_default_tensor_type(torch.FloatTensor)
        e = torch.ones(3)
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    assert ns["names"] == ("torch.cuda.FloatTensor", "torch.cuda.HalfTensor", "torch.cuda.LongTensor")
    assert ns["checks"] == (True, False, True, True, True)
    assert ns["h"].dtype == torch.float16 and ns["s"].dtype == torch.float64 and ns["ids"].tolist() == [1, 2, 3]
    assert ns["d"].dtype == torch.float16 and ns["e"].dtype == torch.float32
    # restored: torch's own types, its own set_default_tensor_type, the CPU default device
    assert type(torch.cuda.FloatTensor).__name__ == "tensortype" and torch.get_default_device().type == "cpu"
    assert torch.ones(1).type() == "torch.FloatTensor"


def test_cuda_submodules_and_device_agnostic_streams(tmp_path: Path):
    """`from torch.cuda.streams import Stream`, `torch.cuda.graphs.CUDAGraph()`, `torch.cuda.memory.mem_get_info()`
    (the names torch.cuda re-exports, asked from their own modules), `torch.Stream(device="cuda")`,
    `torch.Event("cuda")`, `torch.cuda.Stream.priority_range()` and `torch.cuda.default_generators[0]` raised a CUDA
    error (or IndexError); they are the emulation's stand-ins now, and a CPU stream is still torch's."""
    f = host_program(tmp_path, '''\
        import torch
        from torch.cuda.streams import Stream, Event
        from torch.cuda.graphs import CUDAGraph, graph

        free, total = torch.cuda.memory.mem_get_info()
        s, e = Stream(), Event(enable_timing=True)
        g = CUDAGraph()
        with graph(g):
            pass
        g.replay()
        ds = torch.Stream(device="cuda")
        de = torch.Event("cuda", enable_timing=True)
        plain = torch.Stream()
        cpu = torch.Stream("cpu")
        with ds:
            de.record(ds)
        checks = (isinstance(ds, torch.Stream), isinstance(cpu, torch.Stream), isinstance(torch.cuda.Stream(),
                  torch.Stream), ds.device.type, plain.device.type, cpu.device_type)
        prio = torch.cuda.Stream.priority_range()
        gen = torch.cuda.default_generators[0].manual_seed(7)
        fraction = torch.cuda.get_per_process_memory_fraction()
    ''')
    import torch.cuda.streams as streams

    real_stream = streams.Stream
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    assert ns["total"] == TARGETS["h200"].total_memory
    assert ns["checks"][:5] == (True, True, True, "cuda", "cuda")
    assert ns["prio"] == (0, -3) and ns["fraction"] == 1.0
    assert streams.Stream is real_stream and isinstance(torch.Stream, type) and torch.Stream.__module__ == "torch"
    assert torch.Stream.__name__ == "Stream" and type(torch.Stream).__name__ != "Switch"


def test_cuda_array_interface_and_cuda_amp_custom_fwd(tmp_path: Path):
    """Host code reading `x.__cuda_array_interface__` (a data pointer for an alignment check, a handle for
    another library) got "Can't get __cuda_array_interface__ on non-CUDA tensor"; `torch.cuda.amp.custom_fwd(
    cast_inputs=..)` (deprecated, still common) raised "custom_fwd() got multiple values for argument 'fwd'" at
    import, under the emulation's CUDA autocast (round 21)."""
    f = host_program(tmp_path, '''\
        import torch

        x = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
        a = x.__cuda_array_interface__
        b = x.t().__cuda_array_interface__
        has = hasattr(x, "__cuda_array_interface__")

        class M(torch.nn.Module):
            @torch.cuda.amp.custom_fwd(cast_inputs=torch.float16)
            def forward(self, t):
                return t

        with torch.cuda.amp.autocast():
            y = M()(torch.ones(3, device="cuda"))
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    x = ns["x"]
    assert ns["a"] == {"typestr": "<f4", "shape": (3, 4), "strides": None, "data": (x.data_ptr(), False),
                       "version": 2}
    assert ns["b"]["strides"] == (4, 16) and ns["has"]
    assert ns["y"].dtype == torch.float16
    with pytest.raises(AttributeError):   # torch's own answer outside the emulation (a CPU tensor)
        _ = torch.ones(1).__cuda_array_interface__


KERNEL = '''\
import torch
import cuda.tile as ct


@ct.kernel
def twice_kernel(x, out, B: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(out, (i,), ct.load(x, (i,), (B,), padding_mode=ct.PaddingMode.ZERO) * 2)


def twice(x):
    out = torch.empty_like(x)
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(x.numel(), 64),), twice_kernel, (x, out, 64))
    return out
'''

TEST = '''\
import torch
from kern import twice


def {fn}():
    twice(torch.ones(100, device="cuda"))
'''


def _project(root: Path, pyproject: str, test_dir: str = "tests", test_file: str = "test_k.py",
             fn: str = "test_twice") -> None:
    (root / test_dir).mkdir(parents=True)
    (root / "kern.py").write_text(KERNEL)
    (root / "conftest.py").write_text("")
    (root / "pyproject.toml").write_text(textwrap.dedent(pyproject))
    (root / test_dir / test_file).write_text(TEST.format(fn=fn))


def test_a_projects_xdist_addopts_and_unknown_plugin_options(tmp_path: Path):
    """`addopts = "-n 2"` (pytest-xdist) ran the tests in worker processes, outside the emulation: no launch was
    recorded. A plugin's option whose plugin is not installed (`--cov`) was a usage error: no test ran. The first
    runs with xdist's `-n 0`; the second once more without the project's addopts, noted."""
    pytest.importorskip("cuda.tile")
    xd = tmp_path / "xd"
    xd.mkdir()
    addopts = "-n 2 --dist loadfile" if __import__("importlib.util").util.find_spec("xdist") else ""
    _project(xd, f'''\
        [tool.pytest.ini_options]
        addopts = "{addopts} -ra"
    ''')
    index = run(Options(root=xd, tests=["tests"], scripts=[], out=tmp_path / "o1", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    assert [k["kernel"] for k in index["kernels"]] == ["twice_kernel"] and index["kernels"][0]["launches"] == 1
    cov = tmp_path / "cov"
    cov.mkdir()
    _project(cov, '''\
        [tool.pytest.ini_options]
        addopts = "--no-such-plugin-option=pkg -q"
    ''')
    index = run(Options(root=cov, tests=["tests"], scripts=[], out=tmp_path / "o2", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    assert [k["kernel"] for k in index["kernels"]] == ["twice_kernel"]
    assert any("pytest refused the project's addopts (unrecognized arguments: --no-such-plugin-option=pkg" in n
               for n in index["notes"])


def test_a_projects_testpaths_and_python_files(tmp_path: Path):
    """No tests/ folder: the project's pytest configuration says where its tests are (`testpaths`) and what they
    are called (`python_files`, `python_functions`); `corpus capture DIR` said "no tests/ folder" (or found no
    `check_*.py` file) before."""
    pytest.importorskip("cuda.tile")
    root = tmp_path / "lay"
    root.mkdir()
    _project(root, '''\
        [tool.pytest.ini_options]
        testpaths = ["pkg/checks"]
        python_files = ["check_*.py"]
        python_functions = ["check_*"]
    ''', test_dir="pkg/checks", test_file="check_k.py", fn="check_twice")
    assert pytest_config(root) == {"testpaths": ["pkg/checks"], "python_files": ["check_*.py"]}
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    assert [t["file"] for t in index["test_files"]] == ["pkg/checks/check_k.py"]
    assert [k["kernel"] for k in index["kernels"]] == ["twice_kernel"] and index["kernels"][0]["launches"] == 1


def test_pytest_config_files_in_pytests_order(tmp_path: Path):
    """pytest.ini wins over pyproject.toml (even with no [pytest] section: it is the config file then); setup.cfg's
    [tool:pytest]; a malformed file is no configuration (pytest says why when it runs)."""
    (tmp_path / "setup.cfg").write_text("[tool:pytest]\ntestpaths = a b\n")
    assert pytest_config(tmp_path) == {"testpaths": ["a", "b"]}
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\npython_files = 'x_*.py'\n")
    assert pytest_config(tmp_path) == {"python_files": ["x_*.py"]}
    (tmp_path / "pytest.ini").write_text("[other]\n")
    assert pytest_config(tmp_path) == {}
    (tmp_path / "pytest.ini").write_text("[pytest\n")
    assert pytest_config(tmp_path) == {}


def test_backend_parameters_several_and_the_deselected_said(tmp_path: Path):
    """A test parametrized by `backend` runs only for --backend (cutile); a project whose other backend is Triton
    (a kernel language tileport ports too) had its Triton kernel "not launched by any test" with no word why: the
    summary names the deselected backends and how to run them, and `--backend cutile,triton` runs both."""
    pytest.importorskip("cuda.tile")
    from tileport.corpus.capture import summary_lines

    root = tmp_path / "bk"
    (root / "tests").mkdir(parents=True)
    (root / "conftest.py").write_text("")
    (root / "kern.py").write_text(KERNEL + textwrap.dedent('''\

        def other(x):
            return x * 2
    '''))
    (root / "tests" / "test_k.py").write_text(textwrap.dedent('''\
        import pytest
        import torch
        from kern import other, twice


        @pytest.fixture(params=["cutile", "triton"])
        def backend(request):
            return request.param


        def test_twice(backend):
            (twice if backend == "cutile" else other)(torch.ones(100, device="cuda"))
    '''))
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    assert index["test_files"][0]["deselected"] == {"backend=triton": 1}
    index["not_launched"] = [{"file": "kern.py", "kernel": "k"}]   # (as a Triton kernel of the other backend is)
    text = "\n".join(summary_lines(index))
    assert "(tests of backend(s) triton were deselected: --backend cutile,triton runs them too)" in text
    both = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o2", target=TARGETS["h200"],
                       timeout_s=60, only_backend="cutile,triton", say=lambda s: None))
    assert both["test_files"][0]["deselected"] == {} and both["test_files"][0]["outcomes"] == {"passed": 2}


STYLES = '''\
import torch
import cuda.tile as ct
import triton
import triton.language as tl


def _body(x, out, B: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(out, (i,), ct.load(x, (i,), (B,), padding_mode=ct.PaddingMode.ZERO) * 2)


plain = ct.kernel(_body)
busy = ct.kernel(occupancy=2)(_body)


class Ops:
    @staticmethod
    @triton.jit
    def inc_kernel(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1, mask=m)


@triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 256})], key=["n"])
@triton.jit
def tuned_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


x = torch.zeros(300, device="cuda")
for k in (plain, busy):
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(300, 64),), k, (x, torch.empty_like(x), 64))
h = Ops.inc_kernel[(3,)](x, 300, BLOCK=128)
figures = (h.n_regs, h.n_spills, h.metadata.num_warps, sorted(h.asm))
h[(3, 1, 1)](x, 300, 128)        # the handle relaunched (constexprs too, as Triton's compiled kernels take them)
tuned_kernel[lambda meta: (triton.cdiv(300, meta["BLOCK"]),)](x, 300)
best = tuned_kernel.best_config.kwargs
'''


def test_triton_launch_handles_best_config_and_kernels_of_a_class_and_one_body(tmp_path: Path):
    """`h = kernel[grid](..)` returned None here (Triton returns the compiled kernel: host code reads `h.n_regs`,
    `h.asm["ptx"]`, relaunches `h[grid](..)`), an autotuner's `best_config` was missing after a launch; a
    `@staticmethod @triton.jit` kernel of a class (`Ops.inc_kernel[grid]`) was not found by the scan; two kernels of
    one function at other hints (`plain = ct.kernel(_body)`, `busy = ct.kernel(occupancy=2)(_body)`) did not load
    ("2 kernels of function '_body'"): the one of the fewest hints is loaded, each launch keeping its own."""
    pytest.importorskip("triton")
    pytest.importorskip("cuda.tile")
    from tileport.corpus.scan import scan
    from tileport.frontends.cutile_py.loader import load_kernel

    root = tmp_path / "st"
    root.mkdir()
    kernels, _, script = STYLES.partition("\n\nx = ")
    (root / "ks.py").write_text(kernels + "\n")
    (root / "run.py").write_text("import torch\nimport cuda.tile as ct\nimport triton\nfrom ks import Ops, busy, "
                                 "plain, tuned_kernel\n\nx = " + script)
    index = run(Options(root=root, tests=[], scripts=["run.py"], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=120, triton_run_s=0, say=lambda s: None))
    assert index["test_files"][0]["outcomes"] == {"ran": 1}
    rows = {r["kernel"]: r for r in index["kernels"]}
    assert rows["inc_kernel"]["launches"] == 2 and rows["inc_kernel"]["in_scan"]
    assert rows["_body"]["distinct_signatures"] == 2 and rows["tuned_kernel"]["launches"] == 1
    assert [(k.name, k.qualname) for k in scan(root)] == [("_body", "_body"), ("inc_kernel", "Ops.inc_kernel"),
                                                          ("tuned_kernel", "tuned_kernel")]
    loaded = load_kernel(f"{root / 'ks.py'}::_body")
    assert loaded.kernel._compiler_options.occupancy is None   # `plain`, not `busy`


def test_memory_history_and_data_parallel_on_the_one_device(tmp_path: Path):
    """`torch.cuda.memory._record_memory_history()` / `_dump_snapshot(..)` (a memory profile) raised "Found no
    NVIDIA driver"; `nn.DataParallel(model).cuda()` raised "module must have its parameters and buffers on device
    cuda:0 .. found one of them on device: cpu" (torch's own check sees the CPU). The history is empty, the
    snapshot has no segment, and DataParallel over the one device calls the module, as on a one-GPU machine."""
    f = host_program(tmp_path, '''\
        import pickle
        import torch

        torch.cuda.memory._record_memory_history(max_entries=100)
        m = torch.nn.DataParallel(torch.nn.Linear(4, 2)).cuda()
        y = m(torch.ones(3, 4, device="cuda"))
        torch.cuda.memory._dump_snapshot(SNAP)
        snap = pickle.load(open(SNAP, "rb"))
        torch.cuda.memory._record_memory_history(enabled=None)
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f), init_globals={"SNAP": str(tmp_path / "s.pickle")})
    assert ns["y"].shape == (3, 2) and ns["snap"]["segments"] == []
    assert torch.nn.DataParallel.forward.__module__ == "torch.nn.parallel.data_parallel"


def test_ddp_device_ids_on_the_emulated_device(tmp_path: Path):
    """`DistributedDataParallel(model, device_ids=[local_rank], output_device=local_rank)` on a one-process group
    (gloo here, round 21) raised "device_ids and output_device arguments only work with .. GPU modules or CPU
    modules" (the module is on the CPU): the CUDA ids are dropped, its gradients are reduced."""
    f = host_program(tmp_path, '''\
        import os
        import torch
        import torch.distributed as dist
        from torch.nn.parallel import DistributedDataParallel as DDP

        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29561")
        dist.init_process_group("nccl", rank=0, world_size=1)
        m = torch.nn.Linear(4, 2).to("cuda:0")
        ddp = DDP(m, device_ids=[0], output_device=0)
        ddp(torch.ones(3, 4, device="cuda")).sum().backward()
        grads = m.weight.grad is not None
        dist.destroy_process_group()
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    assert ns["grads"]


def test_import_roots_from_a_projects_packaging(tmp_path: Path):
    """A package under python/ (setuptools `package_dir={"": "python"}`, Triton's own layout) was not importable in
    its tests ("No module named 'pyl'": the project expects `pip install -e .`); the import roots its packaging
    names come first now, then src/, then the project itself."""
    from tileport.corpus.capture import import_roots

    (tmp_path / "python").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "setup.py").write_text('from setuptools import setup, find_packages\n'
                                       'setup(name="p", package_dir={"": "python"}, packages=find_packages("python"))\n')
    assert import_roots(tmp_path) == ["python", "src", "."]
    (tmp_path / "setup.py").unlink()
    (tmp_path / "setup.cfg").write_text("[options]\npackage_dir =\n    =lib\n[options.packages.find]\nwhere = lib\n")
    assert import_roots(tmp_path) == ["lib", "src", "."]
    (tmp_path / "setup.cfg").unlink()
    (tmp_path / "pyproject.toml").write_text('[tool.setuptools.packages.find]\nwhere = ["python", "missing"]\n')
    assert import_roots(tmp_path) == ["python", "src", "."]
    (tmp_path / "pyproject.toml").write_text('[tool.setuptools.package-dir]\n"" = "lib"\n')
    assert import_roots(tmp_path) == ["lib", "src", "."]
    (tmp_path / "pyproject.toml").write_text("[tool.setuptools\n")   # malformed: no roots from it
    assert import_roots(tmp_path) == ["src", "."]


def test_os_exit_in_a_test_ends_the_test_not_the_capture(tmp_path: Path):
    """A test calling `os._exit(0)` (a script or test ending the process at once) killed the whole capture: nothing
    was written. It raises SystemExit in the host code now (the test ends there, noted with its line) and the
    capture goes on to the next file; a test's `os.chdir` is undone before the next file."""
    pytest.importorskip("cuda.tile")
    import os

    root = tmp_path / "ex"
    _project(root, "")
    (root / "tests" / "test_a.py").write_text(textwrap.dedent('''\
        import os
        import torch
        from kern import twice


        def test_exit(tmp_path):
            os.chdir(tmp_path)
            twice(torch.ones(100, device="cuda"))
            os._exit(0)
    '''))
    cwd = os.getcwd()
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    assert os.getcwd() == cwd and os._exit.__module__ == "posix"
    files = {t["file"]: t for t in index["test_files"]}
    assert files["tests/test_a.py"]["failures"] == {"SystemExit: 0": 1}
    assert files["tests/test_k.py"]["outcomes"] == {"passed": 1}
    assert index["kernels"][0]["launches"] == 2
    assert "os._exit(0) at tests/test_a.py:9: raised SystemExit there instead" in " ".join(index["notes"])


def test_a_cpu_only_torch_build_answers_as_a_cuda_build(tmp_path: Path, monkeypatch):
    """A CPU-only build of torch has `torch.version.cuda` None (host code splitting it stopped) and
    `torch.backends.cuda.is_built()` / `torch.cuda._is_compiled()` False (tests skipped): answered as a CUDA 13.0
    build while emulating, restored after."""
    monkeypatch.setattr(torch.version, "cuda", None)
    monkeypatch.setattr(torch.backends.cuda, "is_built", lambda: False)
    monkeypatch.setattr(torch.cuda, "_is_compiled", lambda: False)
    f = host_program(tmp_path, '''\
        import torch

        major = int(torch.version.cuda.split(".")[0])
        built = (torch.backends.cuda.is_built(), torch.cuda._is_compiled())
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]) as emu:
        ns = runpy.run_path(str(f))
    assert ns["major"] == 13 and ns["built"] == (True, True)
    assert any("CPU-only build" in n for n in emu.notes)
    assert torch.version.cuda is None and not torch.backends.cuda.is_built() and not torch.cuda._is_compiled()


def test_an_allocation_over_the_targets_memory_is_cudas_out_of_memory(tmp_path: Path):
    """Host code probing for the largest size that fits (`except torch.cuda.OutOfMemoryError:` trying smaller)
    stopped at the emulation's own AllocationTooLarge (a MemoryError) for a size over the target GPU's memory; that is
    CUDA's out-of-memory error now, so the loop goes on to a size that fits. (A size the GPU holds but over the
    capture's --max-alloc-gb is refused as before: the test stops there.)"""
    f = host_program(tmp_path, '''\
        import torch

        n, tried = 1 << 40, []
        while True:
            try:
                x = torch.empty(n, device="cuda", dtype=torch.float16)
                break
            except torch.cuda.OutOfMemoryError as e:
                tried.append((n, str(e)[:22]))
                n >>= 12
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]) as emu:
        ns = runpy.run_path(str(f))
    assert ns["tried"] == [(1 << 40, "CUDA out of memory. Tr")] and ns["n"] == 1 << 28
    assert len(emu.refused) == 1 and "over the target's 140.4 GiB" in emu.refused[0]
    big = host_program(tmp_path, '''\
        import torch

        torch.empty(1 << 33, device="cuda", dtype=torch.float16)   # 16 GiB: the GPU holds it, the cap refuses it
    ''')
    from tileport.corpus.cudaemu import AllocationTooLarge

    with emulate(TARGETS["h200"], [str(big.parent)]), pytest.raises(AllocationTooLarge):
        runpy.run_path(str(big))


POINTER_ONLY = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def neg_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, -tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class Raw:
    def __init__(self, t):
        self.t, self.dtype = t, t.dtype

    def data_ptr(self):
        return self.t.data_ptr()


class Shaped(Raw):
    def __init__(self, t):
        super().__init__(t)
        self.shape = t.shape

    def stride(self):
        return self.t.stride()


x = torch.zeros(100, device="cuda")
neg_kernel[(1,)](Raw(x), 100, BLOCK=128)
neg_kernel[(1,)](Shaped(x), 100, BLOCK=128)
'''


def test_a_pointer_only_object_given_to_triton_is_said_so(tmp_path: Path):
    """Triton takes any object with `data_ptr()` and `dtype` as a pointer; one without a shape cannot be described
    as an array: the launch is listed as not recorded saying what it lacks (was: "neither an array nor a scalar"),
    and one that also has `.shape` and `.stride()` is recorded."""
    pytest.importorskip("triton")
    root = tmp_path / "ptr"
    root.mkdir()
    (root / "run.py").write_text(POINTER_ONLY)
    index = run(Options(root=root, tests=[], scripts=["run.py"], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, triton_run_s=0, say=lambda s: None))
    (u,) = index["unrecorded_launches"]
    assert u["error"].startswith("neg_kernel (triton): argument x_ptr: a Raw with data_ptr() and dtype but no shape "
                                 "and strides, which Triton takes as a bare pointer")
    assert index["kernels"][0]["launches"] == 1


INTERPRETED = '''\
import os

os.environ["TRITON_INTERPRET"] = "1"   # (a project's CPU CI)

import torch
import triton
import triton.language as tl


@triton.jit
def add1_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


x = torch.zeros(100, device="cuda")
add1_kernel[(triton.cdiv(100, 64),)](x, 100, BLOCK=64)
total = x.sum().item()
'''


def test_host_code_setting_triton_interpret_is_recorded(tmp_path: Path, monkeypatch):
    """Host code that sets TRITON_INTERPRET=1 (CPU CI) makes its kernels InterpretedFunctions, whose launches were
    not recorded ("not launched by any test", though the tests passed): each is recorded as the kernel it is on the
    GPU, then runs in the interpreter as the host code asked (its output is the kernel's, read back as such)."""
    pytest.importorskip("triton")
    monkeypatch.setenv("TRITON_INTERPRET", "0")   # (restored after: the host sets it to 1)
    root = tmp_path / "interp"
    root.mkdir()
    (root / "run.py").write_text(INTERPRETED)
    index = run(Options(root=root, tests=[], scripts=["run.py"], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    (row,) = index["kernels"]
    assert (row["kernel"], row["launches"], row["in_scan"]) == ("add1_kernel", 1, True)
    assert "kernel_output_reads" not in index   # (it ran: its output is the kernel's)
    from triton.runtime.interpreter import InterpretedFunction

    assert InterpretedFunction.run.__name__ == "run" and InterpretedFunction.run.__module__ == \
        "triton.runtime.interpreter"


def test_kernels_of_one_body_in_a_module_table_load(tmp_path: Path):
    """`SCALE = {occ: ct.kernel(occupancy=occ)(_scale) for occ in (1, 2, 4)}` (a kernel per hint, picked by size):
    the capture names them `_scale`, and the loader said "'_scale' is a function, not a @ct.kernel" (no module-level
    name holds a kernel); it looks in module-level dicts, lists and tuples too, and takes the one of the fewest hints
    (then the first by name: SCALE[1]); launches at the others' hints are variants at them."""
    pytest.importorskip("cuda.tile")
    from tileport.frontends.cutile_py.loader import KernelLoadError, load_kernel

    f = tmp_path / "tbl.py"
    f.write_text(textwrap.dedent('''\
        import cuda.tile as ct


        def _scale(x, out, B: ct.Constant[int]):
            i = ct.bid(0)
            ct.store(out, (i,), ct.load(x, (i,), (B,)) * 2)


        SCALE = {occ: ct.kernel(occupancy=occ)(_scale) for occ in (4, 1, 2)}
        PAIR = (SCALE[4], SCALE[2])


        def make(v):
            def _k(x, B: ct.Constant[int]):
                ct.store(x, (ct.bid(0),), ct.full((B,), v, ct.float32))
            return _k


        OTHERS = [ct.kernel(make(1.0)), ct.kernel(make(2.0))]
    '''))
    loaded = load_kernel(f"{f}::_scale")
    assert loaded.kernel._compiler_options.occupancy == 1
    with pytest.raises(KernelLoadError, match="2 kernels of function '_k'"):   # (other closures: still refused)
        load_kernel(f"{f}::_k")


def test_a_pytest_configuration_error_is_said(tmp_path: Path):
    """A project whose pytest configuration pytest refuses (a malformed pyproject.toml) was reported as "pytest exit
    code 4: " and nothing more (pytest writes the reason to stderr); the reason is said now."""
    root = tmp_path / "bad"
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.pytest.ini_options\naddopts = "-x"\n')
    (root / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    (tf,) = index["test_files"]
    assert tf["error"].startswith("pytest exit code 4: ERROR: ") and "pyproject.toml" in tf["error"]
