"""Host code, round 24 (build/r24h): `tileport corpus capture` of host code in more styles real projects use —
host code torch runs from C++ while answering an op (a custom op's kernel, the backward pass: an autograd Function's
backward, a custom op's registered backward, tensor, grad_fn and module backward hooks, a reentrant checkpoint's
recompute; a host's TorchDispatchMode and tensor subclass `__torch_dispatch__`), package modules run as scripts (`python -m pkg.mod`, relative imports), a
Triton kernel compiled ahead (`kernel.warmup`) relaunched through its handle. Each broke a capture (the host code saw
its tensors on the CPU and took its CPU path, a script stopped at its imports, a launch recorded at values the GPU
does not run) before."""
from __future__ import annotations

import json
import runpy
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="tileport corpus capture drives torch host code; torch is not "
                                              "installed here (pip install torch to run these tests)")

from tileport.corpus.capture import Options, run, script_runs  # noqa: E402
from tileport.corpus.cudaemu import TARGETS, emulate  # noqa: E402
from tileport.errors import InputError  # noqa: E402

from conftest import host_program  # noqa: E402


def test_host_code_torch_calls_back_sees_cuda(tmp_path: Path):
    """torch takes the emulation's function mode off the stack while it answers an op, so the Python torch runs
    from C++ inside that op ran without it: a custom op's kernel, the whole backward pass (`loss.backward()`,
    `torch.autograd.grad`: an autograd Function's backward, a custom op's `register_autograd` backward, tensor,
    grad_fn and module backward hooks), a saved-tensor hook, a host TorchDispatchMode's and a tensor subclass's `__torch_dispatch__` saw their
    tensors on the CPU (`g.is_cuda` False: a backward's CPU fallback was taken, its launches lost) and
    `torch.empty(.., device="cuda")` there asked the driver. They see CUDA now, as the forward does."""
    f = host_program(tmp_path, '''\
        import torch
        from torch.utils._python_dispatch import TorchDispatchMode

        seen = {}


        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                seen["forward"] = x.is_cuda
                return x * 2

            @staticmethod
            def backward(ctx, g):
                seen["backward"] = (g.is_cuda, str(g.device), torch.empty(2, device="cuda").is_cuda)
                with torch.cuda.device(g.device):
                    torch.cuda.current_stream(g.device)
                return g * 2


        @torch.library.custom_op("r24test::twice", mutates_args=(), device_types="cuda")
        def twice(x: torch.Tensor) -> torch.Tensor:
            seen["custom_op_kernel"] = (x.is_cuda, torch.empty(1, device="cuda").device.type)
            return x * 2


        def _bwd(ctx, g):
            seen["custom_op_backward"] = g.device.type
            return g * 2


        twice.register_autograd(_bwd)


        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                if func is torch.ops.aten.mul.Tensor:
                    seen["dispatch_mode"] = args[0].is_cuda
                return func(*args, **(kwargs or {}))


        class Wrapped(torch.Tensor):
            @staticmethod
            def __new__(cls, inner):
                return torch.Tensor._make_wrapper_subclass(cls, inner.shape, dtype=inner.dtype, device=inner.device)

            def __init__(self, inner):
                self.inner = inner

            @classmethod
            def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
                seen.setdefault("subclass", []).append(
                    [a.inner.is_cuda for a in args if isinstance(a, Wrapped)])
                unwrap = [a.inner if isinstance(a, Wrapped) else a for a in args]
                return func(*unwrap, **(kwargs or {}))


        x = torch.randn(8, device="cuda", requires_grad=True)
        x.register_hook(lambda g: seen.__setitem__("tensor_hook", g.is_cuda))
        y = F.apply(x)
        y.grad_fn.register_hook(lambda gi, go: seen.__setitem__("grad_fn_hook", go[0].is_cuda))
        y.sum().backward()
        torch.autograd.grad(twice(x).sum(), x)
        lin = torch.nn.Linear(8, 8).cuda()
        lin.register_full_backward_hook(lambda m, gi, go: seen.__setitem__("module_hook", go[0].device.type))
        lin(x).sum().backward()
        with torch.autograd.graph.saved_tensors_hooks(lambda t: (seen.__setitem__("pack", t.is_cuda), t)[1],
                                                      lambda t: t):
            (x * x).sum().backward()
        with Mode():
            x.detach() * 3


        class G(torch.autograd.Function):
            @staticmethod
            def forward(x):
                return x * 2

            @staticmethod
            def setup_context(ctx, inputs, output):
                pass

            @staticmethod
            def jvp(ctx, t):
                seen["jvp"] = t.is_cuda
                return t * 2


        torch.func.jvp(G.apply, (x.detach(),), (torch.ones(8, device="cuda"),))
        w = Wrapped(torch.ones(4, device="cuda"))
        w + 1
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    seen = ns["seen"]
    assert seen["forward"] is True and seen["backward"] == (True, "cuda:0", True)
    assert seen["custom_op_backward"] == "cuda" and seen["tensor_hook"] is True and seen["module_hook"] == "cuda"
    assert seen["custom_op_kernel"] == (True, "cuda") and seen["grad_fn_hook"] is True and seen["jvp"] is True
    assert seen["pack"] is True and seen["dispatch_mode"] is True and seen["subclass"][0] == [True]
    # afterwards: torch's own classes as they were, a wrapped callback a plain call
    assert "__init_subclass__" not in torch.Tensor.__dict__
    assert not getattr(torch.autograd.graph._engine_run_backward, "__tileport_reenters__", False)
    assert not getattr(torch.autograd._engine_run_backward, "__tileport_reenters__", False)


def test_a_backward_checking_its_gradients_device_launches(tmp_path: Path):
    """The capture of a project whose backwards take a CPU fallback unless the gradient is on CUDA (an autograd
    Function, a checkpointed one recomputed in backward, a custom op's registered backward asserting CUDA): their
    backward kernels were 'not launched by any test'."""
    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "conftest.py").write_text("")
    (root / "kern.py").write_text(textwrap.dedent('''\
        import cuda.tile as ct
        import torch


        @ct.kernel
        def twice_kernel(x, y, TILE: ct.Constant[int]):
            i = ct.bid(0)
            ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)) * 2.0)


        def twice(x):
            y = torch.empty_like(x)
            ct.launch(torch.cuda.current_stream(), (ct.cdiv(x.numel(), 64),), twice_kernel, (x, y, 64))
            return y


        class Twice(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                assert x.is_cuda
                return twice(x)

            @staticmethod
            def backward(ctx, g):
                if not g.is_cuda:
                    return g * 2        # the CPU fallback
                return twice(g.contiguous())
    '''))
    (root / "tests" / "test_bwd.py").write_text(textwrap.dedent('''\
        import torch
        from torch.utils.checkpoint import checkpoint
        from kern import Twice


        def test_backward():
            x = torch.randn(128, device="cuda", requires_grad=True)
            Twice.apply(x).sum().backward()


        def test_reentrant_checkpoint():
            x = torch.randn(256, device="cuda", requires_grad=True)
            checkpoint(Twice.apply, x, use_reentrant=True).sum().backward()
    '''))
    index = run(Options(root=root, tests=["tests"], scripts=[], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, triton_run_s=0, say=lambda s: None))
    assert index["test_files"][0]["outcomes"] == {"passed": 2}, index["test_files"]
    launches = json.loads((tmp_path / "o" / "kern.twice_kernel.json").read_text())["launches"]
    # forward 128, backward 128; checkpoint: forward 256, recompute 256, backward 256
    assert sum(entry["count"] for entry in launches) == 5, launches


def _package_project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pk").mkdir(parents=True)
    (root / "pk" / "__init__.py").write_text("")
    (root / "pk" / "kernels.py").write_text(textwrap.dedent('''\
        import cuda.tile as ct


        @ct.kernel
        def twice_kernel(x, y, TILE: ct.Constant[int]):
            i = ct.bid(0)
            ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)) * 2.0)
    '''))
    (root / "pk" / "bench.py").write_text(textwrap.dedent('''\
        import argparse
        import sys

        import torch
        import cuda.tile as ct

        from .kernels import twice_kernel


        def main():
            p = argparse.ArgumentParser()
            p.add_argument("--size", type=int, default=256)
            n = p.parse_args().size
            assert sys.argv[0].endswith(('bench.py', '__main__.py')) and __package__ == "pk"
            x = torch.randn(n, device="cuda")
            ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, 64),), twice_kernel, (x, torch.empty_like(x), 64))


        if __name__ == "__main__":
            main()
    '''))
    (root / "pk" / "__main__.py").write_text("from .bench import main\n\nmain()\n")
    return root


def test_a_package_module_runs_as_python_m_runs_it(tmp_path: Path):
    """A benchmark inside a package importing its kernels relatively (`from .kernels import k`), run as `python -m
    pkg.bench`: `--script pk/bench.py` stopped at its imports ("attempted relative import with no known parent
    package": 0 launches), and a module could not be named. Such a file runs as its module now (noted), and
    `--script "-m pk.bench ARGS"` / `--script "-m pk"` (its __main__.py) run as `python -m` does."""
    root = _package_project(tmp_path)
    runs = script_runs(root, ["pk/bench.py --size 128", "-m pk.bench --size 512", "-m pk", "pk/kernels.py"])
    assert [(f.relative_to(root).as_posix(), argv, m) for f, argv, m in runs] == [
        ("pk/bench.py", ["--size", "128"], "pk.bench"), ("pk/bench.py", ["--size", "512"], "pk.bench"),
        ("pk/__main__.py", [], "pk"), ("pk/kernels.py", [], None)]   # (no relative import: a plain script)
    index = run(Options(root=root, tests=[], scripts=["pk/bench.py --size 128", "-m pk.bench --size 512", "-m pk"],
                        out=tmp_path / "o", target=TARGETS["h200"], paths=["."], timeout_s=60, triton_run_s=0,
                        say=lambda s: None))
    assert [t["outcomes"] for t in index["test_files"]] == [{"ran": 1}] * 3, index["test_files"]
    launches = json.loads((tmp_path / "o" / "pk.kernels.twice_kernel.json").read_text())["launches"]
    assert sorted(entry["args"][0]["shape"][0] for entry in launches) == [128, 256, 512]


@pytest.mark.parametrize("given,why", [
    ("-m pk.nothere", "no module pk.nothere under"),
    ("-m", 'give the module to run'),
    ("-m pk/bench.py", "not a module name"),
])
def test_a_script_module_that_is_not_there_is_refused_with_the_reason(tmp_path: Path, given: str, why: str):
    root = _package_project(tmp_path)
    with pytest.raises(InputError, match=why):
        script_runs(root, [given], ["."])


def test_a_compiled_triton_kernels_launch_runs_what_was_compiled(tmp_path: Path):
    """`h = kernel.warmup(.., EVEN=True, grid=..)` then `h[grid](*args)`: Triton's compiled kernel runs the
    constexprs it was compiled for (the launcher ignores those passed) and takes every parameter positionally and
    a grid of three extents; the capture recorded the launch at the values passed, or at the parameters' defaults
    for those left out (on the GPU a TypeError / IndexError)."""
    pytest.importorskip("triton")
    root = tmp_path / "proj"
    root.mkdir()
    (root / "run.py").write_text(textwrap.dedent('''\
        import torch
        import triton
        import triton.language as tl


        @triton.jit
        def k(x_ptr, y_ptr, n, a, b: tl.constexpr = 1.0, BLOCK: tl.constexpr = 256, EVEN: tl.constexpr = False):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(y_ptr + offs, tl.load(x_ptr + offs) * a + b)


        x = torch.randn(512, device="cuda")
        y = torch.empty_like(x)
        h = k.warmup(x, y, 512, 1.0, b=2.0, BLOCK=256, EVEN=True, grid=(2,))
        h[(2, 1, 1)](x, y, 512, 1.0, 9.0, 64, False)
        refused = []
        for bad in (lambda: h[(2, 1, 1)](x, y, 512, 1.0), lambda: h[(2,)](x, y, 512, 1.0, 2.0, 256, True)):
            try:
                bad()
            except TypeError as exc:
                refused.append(str(exc))
        assert len(refused) == 2, refused
    '''))
    index = run(Options(root=root, tests=[], scripts=["run.py"], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, triton_run_s=0, say=lambda s: None))
    assert index["test_files"][0]["outcomes"] == {"ran": 1}, index["test_files"]
    (entry,) = json.loads((tmp_path / "o" / "run.k.json").read_text())["launches"]
    assert entry["signature"].endswith("b=2.0; BLOCK=256; EVEN=True") and entry["grid"] == [2, 1, 1]
    errors = sorted(r["error"] for r in index["rejected_launches"])
    assert "4 given" in errors[1] and "grid[0], grid[1], grid[2]: (2,)" in errors[0], errors


def test_memory_pools_and_raw_allocations_are_answered(tmp_path: Path):
    """`torch.cuda.MemPool()` / `use_mem_pool(pool)` (also from torch.cuda.memory) and
    `caching_allocator_alloc` / `caching_allocator_delete` raised a CUDA error ('driver version is insufficient')."""
    f = host_program(tmp_path, '''\
        import torch
        from torch.cuda.memory import MemPool, use_mem_pool

        pool = torch.cuda.MemPool()
        with torch.cuda.use_mem_pool(pool):
            x = torch.empty(16, device="cuda")
        other = MemPool()
        with use_mem_pool(other, device=0):
            pass
        ptr = torch.cuda.caching_allocator_alloc(4096)
        torch.cuda.caching_allocator_delete(ptr)
        answers = (x.is_cuda, pool.id != other.id, pool.snapshot(), pool.use_count() >= 1, ptr != 0)
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    assert ns["answers"] == (True, True, [], True, True)


def test_a_cuda_call_the_emulation_does_not_answer_is_said_with_its_line(tmp_path: Path):
    """A CUDA call the emulation does not answer failed its test with torch's message alone ('CUDA error: CUDA driver
    version is insufficient for CUDA runtime version'), not saying which call: it is said as a call the emulation does
    not answer, at the project's line that made it (a test and a script alike)."""
    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_storage.py").write_text(textwrap.dedent('''\
        import torch


        def make(n):
            return torch.UntypedStorage(n, device="cuda")


        def test_storage():
            assert make(64).size() == 64
    '''))
    (root / "run.py").write_text("import torch\n\nbuf = torch.UntypedStorage(8, device='cuda')\n")
    index = run(Options(root=root, tests=["tests"], scripts=["run.py"], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, triton_run_s=0, say=lambda s: None))
    why = "a CUDA call the emulation does not answer (it reached the driver, which a CPU machine has not)"
    test, script = index["test_files"]
    assert list(test["failures"]) == [f"{why}: tests/test_storage.py:5: return torch.UntypedStorage(n, "
                                      'device="cuda")'], test["failures"]
    assert list(script["failures"]) == [f"{why}: run.py:3: buf = torch.UntypedStorage(8, device='cuda')"], script


def test_higher_order_ops_branches_see_cuda(tmp_path: Path):
    """`torch.cond(pred, true_fn, false_fn, ops)` and `while_loop(cond_fn, body_fn, carried)` call the host's
    functions inside the op the emulation answers (with its mode off the stack): a branch saw its tensors on the
    CPU (`x.is_cuda` False)."""
    f = host_program(tmp_path, '''\
        import torch
        from torch._higher_order_ops.while_loop import while_loop

        seen = []


        def pos(t):
            seen.append(("true", t.is_cuda))
            return t * 2


        def neg(t):
            seen.append(("false", t.is_cuda))
            return t + 1


        def body(i, y):
            seen.append(("body", y.is_cuda))
            return i + 1, y * 2


        x = torch.ones(4, device="cuda")
        torch.cond(x.sum() > 0, pos, neg, (x,))
        while_loop(lambda i, y: i < 2, body, (torch.tensor(0, device="cuda"), x))
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    assert ns["seen"] == [("true", True), ("body", True), ("body", True)]


def test_triton_benchmark_scripts_asking_nvidia_smi(tmp_path: Path):
    """`triton.testing.nvsmi(["clocks.max.sm"])` (a benchmark's peak TFLOPS from the SM clock) and `with
    triton.testing.set_gpu_clock(..)` ran nvidia-smi: FileNotFoundError on a machine without it, the script stopped
    before its launches (and the child process was listed). The target's clocks and memory are answered; another
    field is refused saying which are."""
    pytest.importorskip("triton")
    root = tmp_path / "proj"
    root.mkdir()
    (root / "bench.py").write_text(textwrap.dedent('''\
        import triton
        import triton.testing

        sm, mem, total = triton.testing.nvsmi(["clocks.max.sm", "clocks.max.memory", "memory.total"])
        with triton.testing.set_gpu_clock(1350, 1215) as (tflops, gbps):
            locked = (round(tflops, 3), round(gbps, 3))
        try:
            triton.testing.nvsmi(["power.draw"])
        except ValueError as exc:
            refused = str(exc)
        assert (sm, mem, total) == (1980, 2619, 143771), (sm, mem, total)
        assert locked == (298.598, 1555.2), locked
        assert "'power.draw' is not answered" in refused and "clocks.max.sm" in refused, refused
    '''))
    index = run(Options(root=root, tests=[], scripts=["bench.py"], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, triton_run_s=0, say=lambda s: None))
    assert index["test_files"][0]["outcomes"] == {"ran": 1}, index["test_files"]
    assert not index.get("child_processes"), index.get("child_processes")


def test_dataloader_workers_are_not_listed_as_lost_children(tmp_path: Path):
    """`DataLoader(.., num_workers=2)`'s worker processes were listed as child processes 'whose launches are not
    recorded': they load data (a kernel cannot be launched in a forked worker on a GPU either); noted instead. A
    process the host code starts itself is still listed."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "run.py").write_text(textwrap.dedent('''\
        import multiprocessing

        import torch
        from torch.utils.data import DataLoader, TensorDataset


        def work():
            pass


        if __name__ == "__main__":
            loader = DataLoader(TensorDataset(torch.arange(8.0)), batch_size=4, num_workers=2)
            assert sum(len(b[0]) for b in loader) == 8
            p = multiprocessing.get_context("fork").Process(target=work)
            p.start()
            p.join()
    '''))
    index = run(Options(root=root, tests=[], scripts=["run.py"], out=tmp_path / "o", target=TARGETS["h200"],
                        timeout_s=60, triton_run_s=0, say=lambda s: None))
    assert index["test_files"][0]["outcomes"] == {"ran": 1}, index["test_files"]
    assert [c["started"] for c in index["child_processes"]] == ["run.py:15: a child process (multiprocessing)"]
    assert any("DataLoader worker processes" in n for n in index["notes"]), index["notes"]
