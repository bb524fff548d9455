"""Host code, round 23 (build/host23h): `tileport corpus capture` of host code in more styles real projects use —
the CUDA allocator's statistics asserted by tests, torch's default device (`set_default_device("cuda")`,
`with torch.device("cuda"):`), storages moved to CUDA while loading, the CUDA runtime and the profilers' CUDA
activity, doctests (examples in docstrings, `--doctest-modules`), gradcheck's own checks. Each broke a capture (a
CUDA error or a wrong answer in the host code, a test stopped before its later launches) before."""
from __future__ import annotations

import runpy
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="tileport corpus capture drives torch host code; torch is not "
                                              "installed here (pip install torch to run these tests)")

from tileport.corpus.capture import Options, _classify, run, test_files  # noqa: E402
from tileport.corpus.cudaemu import TARGETS, emulate  # noqa: E402

from conftest import UntaintedEmulation, host_program, triton_copy_kernel  # noqa: E402


def test_memory_statistics_count_the_emulated_cuda_allocations(tmp_path: Path):
    """`torch.cuda.memory_allocated()` / `max_memory_allocated()` / `memory_stats()` answered 0 and {}: a test
    asserting its output was allocated, that a loop leaks nothing once freed or reading
    `memory_stats()["allocated_bytes.all.peak"]` failed (KeyError) before its later launches. From the first
    statistic asked, tensors made on CUDA and the new storages computed from them are counted (rounded up to 512
    bytes), freed with their storage; CPU tensors are not."""
    f = host_program(tmp_path, '''\
        import torch

        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        x = torch.empty(1 << 20, device="cuda")             # 4 MiB
        host = torch.empty(1 << 20)                        # on the CPU: not counted
        after_x = torch.cuda.memory_allocated()
        y = x * 2                                          # computed on CUDA: 4 MiB more
        v = y[10:]                                         # a view: nothing more
        x.add_(1)                                          # in place: nothing more
        small = torch.ones(3, device="cuda")               # 512 bytes (the allocator's smallest block)
        with_y = torch.cuda.memory_allocated()
        stats = torch.cuda.memory_stats()
        reserved = torch.cuda.memory_reserved()
        free, total = torch.cuda.mem_get_info()
        del x, y
        with_view = torch.cuda.memory_allocated()          # y's storage lives on in its view
        del v, small
        at_end = torch.cuda.memory_allocated()
        peak = torch.cuda.max_memory_allocated()
        torch.cuda.empty_cache()
        reserved_after = torch.cuda.memory_reserved()
        acc = torch.accelerator.memory_allocated()
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    mib = 1 << 20
    assert ns["base"] == 0 and ns["after_x"] == 4 * mib and ns["with_y"] == 8 * mib + 512
    assert ns["stats"]["allocated_bytes.all.peak"] == 8 * mib + 512 and ns["stats"]["num_alloc_retries"] == 0
    assert ns["stats"]["allocated_bytes.small_pool.current"] == 512
    assert ns["reserved"] == 10 * mib and ns["free"] == ns["total"] - ns["reserved"]
    assert ns["with_view"] == 4 * mib + 512 and ns["at_end"] == 0 and ns["peak"] == 8 * mib + 512
    assert ns["reserved_after"] == 0 and ns["acc"] == 0


TRITON_FREE = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, n, s, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) * s, mask=m)


def scale_(x, s):
    scale_kernel[(triton.cdiv(x.numel(), 64),)](x, x.numel(), s, BLOCK=64)
    return x
'''


@pytest.mark.parametrize("limit,note", [(1e-4, "not run in Triton's interpreter"),
                                        (60.0, "Triton's interpreter ran 1 launch(es)")], ids=["stopped", "ran"])
def test_a_triton_launch_run_in_the_interpreter_holds_no_tensor(tmp_path: Path, limit: float, note: str):
    """A Triton launch the capture's interpreter run stopped (its time limit) kept the exception, whose traceback
    held the launch's frame and arguments in a cycle; one it ran was held by the interpreter's own cycles (its nested
    functions' closures over the storages it copied): `del x` freed nothing until the garbage collector ran, and a
    test asserting the memory was given back failed. The collector runs before a statistic is answered after the
    interpreter ran."""
    pytest.importorskip("triton")
    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "kern.py").write_text(TRITON_FREE)
    (root / "conftest.py").write_text("")   # (DIR importable, as the CLI's import roots make it)
    (root / "tests" / "test_free.py").write_text(textwrap.dedent('''\
        import torch
        from kern import scale_


        def test_freed():
            before = torch.cuda.memory_allocated()
            x = torch.ones(1 << 16, device="cuda")
            scale_(x, 2.0)
            del x
            assert torch.cuda.memory_allocated() == before
    '''))
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, triton_run_s=limit, say=lambda s: None))
    assert index["test_files"][0]["outcomes"] == {"passed": 1}, index["test_files"]
    assert any(note in n for n in index["notes"]), index["notes"]


def test_torchs_default_device_cuda(tmp_path: Path):
    """`torch.set_default_device("cuda")` / `with torch.device("cuda"):`: `torch.get_default_device()` answered
    cpu; a tensor made inside `with torch.device("cuda"):` was on cpu to host code (torch's DeviceContext mode,
    pushed over the emulation's, called in between); `torch.testing.assert_close` raised "Found no NVIDIA driver"
    (its answer made a tensor torch's mode put on CUDA); torch.asarray / tril_indices went to CUDA."""
    f = host_program(tmp_path, '''\
        import torch

        torch.set_default_device("cuda")
        dev = torch.get_default_device()
        a = torch.randn(10)
        torch.testing.assert_close(a, a + 0)
        made = (torch.asarray([1.0, 2.0]).device.type, torch.tril_indices(3, 3).device.type,
                torch.range(0, 3).device.type)
        torch.set_default_device(None)
        with torch.device("cuda"):
            b = torch.full((4,), 2.0)
            inside = (b.device.type, b.is_cuda, torch.get_default_device())
        outside = torch.get_default_device()
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    assert ns["dev"] == torch.device("cuda", 0) and ns["made"] == ("cuda", "cuda", "cuda")
    assert ns["inside"] == ("cuda", True, torch.device("cuda", 0)) and ns["outside"] == torch.device("cpu")
    assert torch.get_default_device() == torch.device("cpu")


def test_storages_moved_to_cuda(tmp_path: Path):
    """`torch.load(f, map_location=lambda storage, loc: storage.cuda())` (the pre-1.0 idiom) and
    `storage.to(device="cuda")` asked the driver ("CUDA driver version is insufficient")."""
    f = host_program(tmp_path, '''\
        import io
        import torch

        buf = io.BytesIO()
        torch.save({"w": torch.arange(6.0)}, buf)
        buf.seek(0)
        sd = torch.load(buf, map_location=lambda storage, loc: storage.cuda())
        s = torch.ones(3).untyped_storage().to(device="cuda")
        t = torch.zeros(2).untyped_storage().cuda(0)
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    assert ns["sd"]["w"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and ns["s"].nbytes() == 12


def test_cuda_runtime_and_profilers_cuda_activity(tmp_path: Path):
    """`torch.cuda.cudart().cudaProfilerStart()` and `torch.cuda.profiler.profile()` (a region for an outside
    profiler) raised a CUDA error, `can_device_access_peer(0, 0)` an internal assert; `torch.profiler.profile(activities=[CPU, CUDA])` wrote a C++ warning and stack
    per event ("Failed to record CUDA event"): its CUDA activity is left out, noted."""
    f = host_program(tmp_path, '''\
        import torch
        from torch.profiler import ProfilerActivity, profile

        rc = torch.cuda.cudart().cudaProfilerStart()
        torch.cuda.check_error(rc)
        with torch.cuda.profiler.profile():
            pass
        torch.cuda.cudart().cudaProfilerStop()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            torch.ones(4, device="cuda").sum()
        table = prof.key_averages().table(sort_by="cuda_time_total", row_limit=3)
        with torch.autograd.profiler.profile(use_device="cuda") as p2:
            torch.ones(2, device="cuda") * 2
        peer = torch.cuda.can_device_access_peer(0, 0)
        try:
            torch.cuda.can_device_access_peer(0, 1)
        except AssertionError as e:
            bad = str(e)
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]) as emu:
        ns = runpy.run_path(str(f))
    assert ns["rc"] == 0 and "aten::" in ns["table"]
    assert ns["peer"] is False and ns["bad"] == "Invalid peer device id"   # (an internal assert before)
    assert any("torch.profiler: CUDA activity left out" in n for n in emu.notes)
    with pytest.raises(torch.cuda.CudaError):
        with emulate(TARGETS["h200"], [str(f.parent)]):
            torch.cuda.check_error(2)


DOCTESTED = '''\
"""
>>> import torch
>>> from dk import double
>>> double(torch.ones(4, device="cuda")).device.type
'cuda'
"""
import torch
import cuda.tile as ct


@ct.kernel
def double_kernel(x, out, B: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(out, (i,), ct.load(x, (i,), (B,), padding_mode=ct.PaddingMode.ZERO) * 2)


def double(x):
    """
    >>> y = double(torch.arange(6., device="cuda"))
    >>> y.is_cuda, y.device
    (True, device(type='cuda', index=0))
    """
    out = torch.empty_like(x)
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(x.numel(), 64),), double_kernel, (x, out, 64))
    return out
'''


def test_doctest_examples_are_host_code_and_collected(tmp_path: Path):
    """A module's examples (`>>>`) run as code compiled from a string (`<doctest dk.double[0]>`), so they were not
    host code: `y.is_cuda` False, `y.device` cpu, and the doctest failed. They are the module's code now (the
    globals they run in are the module's). A project whose pytest configuration says `addopts =
    "--doctest-modules"` has its modules' examples as tests: captured with its test files, and without a tests/
    folder ("no tests/ folder" before)."""
    pytest.importorskip("cuda.tile")
    root = tmp_path / "proj"
    (root / "dk").mkdir(parents=True)
    (root / "dk" / "__init__.py").write_text(DOCTESTED)
    (root / "pytest.ini").write_text("[pytest]\naddopts = --doctest-modules -ra\n")
    (root / "setup.py").write_text(">>> not an example: setup.py is not collected\n")
    assert test_files(root, ["tests"]) == [(root / "dk" / "__init__.py").resolve()]
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    assert [t["file"] for t in index["test_files"]] == ["dk/__init__.py"]
    assert index["test_files"][0]["outcomes"] == {"passed": 2}, index["test_files"]
    assert [k["kernel"] for k in index["kernels"]] == ["double_kernel"] and index["kernels"][0]["launches"] == 2
    # without the option, no tests/ folder is still said so
    (root / "pytest.ini").write_text("[pytest]\naddopts = -ra\n")
    from tileport.errors import InputError

    with pytest.raises(InputError, match="no tests/ folder"):
        test_files(root, ["tests"])


def test_gradchecks_value_checks_count_as_numeric_checks():
    """gradcheck's checks of the values a backward computed (zero for a zero grad_output, reentrancy) fail as its
    Jacobian comparison would (the kernels did not run): numeric checks, not failures for the emulation's sake."""
    for msg in ("GradcheckError: backward not multiplied by grad_output",
                "GradcheckError: Backward is not reentrant, i.e., running backward with same input and grad_output "
                "multiple times gives different values", "GradcheckError: Jacobian mismatch for output 0"):
        assert _classify(msg).startswith("numeric check failed"), msg
    assert _classify("GradcheckError: gradcheck expects at least one input tensor to require gradient") \
        .startswith("GradcheckError")


def test_the_interpreters_time_limit_tells_the_course_after_the_first_program(tmp_path: Path, monkeypatch):
    """The Triton interpreter's limit per launch was told from the launch's start by the wall clock: its one-time
    costs before the first program (0.07 s, then 2.5 ms a program) made a 128-program launch "would run past 2 s"
    (it runs in 0.4 s), and more so on a loaded machine — a script's `triton.testing.assert_close` of that output
    then failed and its later launches were lost, as the machine's load had it. The course is told from the second
    program on, in this thread's CPU time (a clock stepped here as measured)."""
    pytest.importorskip("triton")
    from tileport.corpus import tritonrun

    kernel = triton_copy_kernel(tmp_path)
    ticks = iter([0.0, 0.0] + [0.07 + 0.0025 * k for k in range(10_000)])
    monkeypatch.setattr(tritonrun, "_cpu_time", lambda: next(ticks))
    runner = tritonrun.TritonRunner(UntaintedEmulation(), per_launch_s=0.5, max_programs=4096)
    x, y = torch.randn(2048), torch.zeros(2048)
    assert runner(kernel, (128,), (x, y, x.numel()), {"BLOCK": 16}), runner.notes()
    assert torch.equal(y, x)
    # one truly on course to pass it is still stopped after its first programs
    ticks2 = iter([0.0, 0.0] + [0.07 + 0.05 * k for k in range(10_000)])
    monkeypatch.setattr(tritonrun, "_cpu_time", lambda: next(ticks2))
    slow = tritonrun.TritonRunner(UntaintedEmulation(), per_launch_s=0.5, max_programs=4096)
    assert not slow(kernel, (128,), (x, torch.zeros(2048), x.numel()), {"BLOCK": 16})
    assert slow.notes() == ["prog.py::copy_kernel: not run in Triton's interpreter (Triton's interpreter stopped: "
                            "would run past 0.5 s) (1x)"]


SINGLEDISPATCH = '''\
import functools

import cuda.tile as ct
from host_only_pkg_not_here import Tensor, nn
import host_only_pkg_not_here as hp


@ct.kernel
def twice(x, out, B: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(out, (i,), ct.load(x, (i,), (B,), padding_mode=ct.PaddingMode.ZERO) * 2)


@functools.singledispatch
def run(x, *a):
    raise TypeError(type(x))


@run.register
def _(x: hp.Tensor, *a):
    return x


@run.register
def _(xs: list, *a):
    return [run(x) for x in xs]


class Layer(nn.Module, hp.autograd.Function):
    pass


MAYBE: "Tensor | None" = None
SIZE = hp.Size([4])
SCALED = hp.NaN * 2
OPTIONAL = Tensor | None
'''


def test_a_kernels_module_registering_singledispatch_by_a_host_class_loads(tmp_path: Path):
    """A kernel's module whose host code registers `functools.singledispatch` functions by an annotation of a
    class from a package not installed here (`def _(x: torch.Tensor)`, torch-free ports) failed to import ("Invalid
    annotation for 'x'. <torch.Tensor: torch is not installed here> is not a class"), so its kernel did not load
    (host23h q13). A capitalized name read from such a package is a class now; called, it is a placeholder."""
    pytest.importorskip("cuda.tile")
    from tileport.frontends.cutile_py.loader import load_kernel

    src = tmp_path / "sd.py"
    src.write_text(SINGLEDISPATCH)
    k = load_kernel(f"{src}::twice")
    assert k.absent == ("host_only_pkg_not_here",) and k.name == "twice"
