"""Host code, round 21 (build/host21h): `tileport corpus capture` of host code in the styles real projects use —
custom ops registered for CUDA, torch.compile, torch.load to cuda, CUDA autocast, record_stream / pinned memory,
host code reading a kernel's output back. Each case broke a capture (an error in the host code, a launch lost, a
launch at other dtypes than the GPU's) or lost a launch silently before."""
from __future__ import annotations

import runpy
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="tileport corpus capture drives torch host code; torch is not "
                                              "installed here (pip install torch to run these tests)")

from tileport.corpus.capture import Options, _classify, run, summary_lines  # noqa: E402
from tileport.corpus.cudaemu import TARGETS, emulate  # noqa: E402

from conftest import UntaintedEmulation, host_program, triton_copy_kernel  # noqa: E402
from tileport.errors import InputError  # noqa: E402


def test_custom_ops_registered_for_cuda_serve_the_emulated_tensors(tmp_path: Path):
    """`custom_op(.., device_types="cuda")` and `Library.impl(.., "CUDA")`: the emulated tensors are on the CPU, so
    the op had no kernel for them ("Could not run 'ns::op' with arguments from the 'CPU' backend") and the launch
    inside it was lost; the CUDA kernel serves them now, also over a CPU kernel of the same op registered before or
    after it (on the GPU the CUDA one runs)."""
    f = host_program(tmp_path, '''\
        import torch

        calls = []

        @torch.library.custom_op("r21cap::twice", mutates_args=(), device_types="cuda")
        def twice(x: torch.Tensor) -> torch.Tensor:
            calls.append("cuda")
            return x * 2

        @twice.register_fake
        def _(x):
            return torch.empty_like(x)

        lib = torch.library.Library("r21cap", "FRAGMENT")
        lib.define("thrice(Tensor x) -> Tensor")
        lib.impl("thrice", lambda x: calls.append("cpu") or x * 0, "CPU")      # a reference kernel first
        lib.impl("thrice", lambda x: calls.append("cuda3") or x * 3, "CUDA")
        lib.define("half(Tensor x) -> Tensor")
        lib.impl("half", lambda x: calls.append("cuda-h") or x / 2, "CUDA")
        lib.impl("half", lambda x: calls.append("cpu-h") or x * 0, "CPU")    # ... or after

        x = torch.ones(4, device="cuda")
        a = torch.ops.r21cap.twice(x)
        b = torch.ops.r21cap.thrice(x)
        c = torch.ops.r21cap.half(x)
        torch.library.opcheck(torch.ops.r21cap.twice.default, (x,), test_utils=("test_schema", "test_faketensor"))
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    assert ns["calls"][:3] == ["cuda", "cuda3", "cuda-h"]
    assert ns["a"].tolist() == [2.0] * 4 and ns["b"].tolist() == [3.0] * 4 and ns["c"].tolist() == [0.5] * 4
    assert torch.library.Library.impl.__name__ == "impl" and "lib_impl" not in repr(torch.library.Library.impl)


def test_torch_compile_runs_eagerly_under_the_emulation(tmp_path: Path):
    """torch.compile (a function, a module, the decorator with options) asked the CUDA driver in dynamo ("CUDA
    driver version is insufficient") and the test stopped before its launches; it runs eagerly now, noted."""
    f = host_program(tmp_path, '''\
        import torch

        @torch.compile(dynamic=True, mode="reduce-overhead")
        def f(x):
            return x + 1

        g = torch.compile(lambda x: x * 2, fullgraph=True)
        m = torch.compile(torch.nn.Linear(4, 4).cuda())
        x = torch.ones(3, 4, device="cuda")
        out = (f(x), g(x), m(x).shape)
    ''')
    compile_before = torch.compile
    with emulate(TARGETS["h200"], [str(f.parent)]) as emu:
        ns = runpy.run_path(str(f))
    assert torch.compile is compile_before
    assert ns["out"][0].tolist() == [[2.0] * 4] * 3 and ns["out"][2] == (3, 4)
    assert any(n.startswith("torch.compile: the function or module runs eagerly") for n in emu.notes)


def test_torch_load_to_cuda_autocast_record_stream_and_pinned_memory(tmp_path: Path):
    """torch.load(map_location="cuda"), and of tensors saved on the GPU, raised a CUDA error; a CUDA autocast region
    left the CPU tensors at float32 (a kernel launched there was captured at other dtypes than the GPU's);
    Tensor.record_stream(an emulated stream) raised "unknown parameter type"; pin_memory() was not is_pinned()."""
    f = host_program(tmp_path, f'''\
        import torch

        p = {str(tmp_path / "t.pt")!r}
        torch.save(torch.randn(3, device="cuda"), p)
        loaded = [torch.load(p, map_location=m) for m in ("cuda", torch.device("cuda", 0), None, {{"cuda:1": "cuda:0"}})]
        with torch.autocast("cuda", dtype=torch.bfloat16):
            h = torch.randn(4, 8, device="cuda") @ torch.randn(8, 2, device="cuda")
            enabled = torch.is_autocast_enabled("cuda"), torch.get_autocast_dtype("cuda")
        with torch.autocast(device_type="cuda"):
            h16 = torch.randn(4, 8, device="cuda") @ torch.randn(8, 2, device="cuda")

        class Cast(torch.autograd.Function):
            @staticmethod
            @torch.amp.custom_fwd(device_type="cuda", cast_inputs=torch.float32)
            def forward(ctx, x):
                return x

            @staticmethod
            @torch.amp.custom_bwd(device_type="cuda")
            def backward(ctx, g):
                return g

        with torch.autocast("cuda", dtype=torch.float16):
            casted = Cast.apply(torch.ones(2, dtype=torch.float16, device="cuda"))
        s = torch.cuda.Stream()
        y = torch.ones(2, device="cuda")
        y.record_stream(s)
        pinned = torch.ones(2).pin_memory().is_pinned(), torch.empty(2, pin_memory=True).is_pinned(), \\
            torch.ones(2).is_pinned()
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]):
        ns = runpy.run_path(str(f))
    assert all(t.shape == (3,) for t in ns["loaded"])
    assert ns["h"].dtype == torch.bfloat16 and ns["enabled"] == (True, torch.bfloat16)
    assert ns["h16"].dtype == torch.float16 and ns["casted"].dtype == torch.float32
    assert ns["pinned"] == (True, True, False)
    assert not torch.is_autocast_enabled("cuda")
    with torch.autocast("cpu", dtype=torch.bfloat16):   # restored: the CPU's own autocast as before
        assert torch.is_autocast_enabled("cpu")


MOE = '''\
import cuda.tile as ct
import torch


@ct.kernel
def count_kernel(idx, counts, E: ct.Constant[int]):
    ct.store(counts, (0,), ct.zeros((E,), dtype=counts.dtype))


@ct.kernel
def expert_kernel(x, out, D: ct.Constant[int]):
    r = ct.bid(0)
    ct.store(out, (r, 0), ct.load(x, (r, 0), (1, D)))


def main():
    idx = torch.zeros(16, dtype=torch.int32, device="cuda")
    counts = torch.empty(4, dtype=torch.int32, device="cuda")
    ct.launch(torch.cuda.current_stream(), (1,), count_kernel, (idx, counts, 4))
    per_expert = counts.cpu().tolist()
    total = int(counts.sum())
    x = torch.randn(16, 32, device="cuda")
    for c in per_expert:
        if 0 < c <= 16:
            ct.launch(torch.cuda.current_stream(), (c,), expert_kernel, (x, torch.empty_like(x), 32))
    return total


if __name__ == "__main__":
    main()
'''


def test_host_code_reading_a_kernels_output_back_is_told_with_its_line(tmp_path: Path):
    """Host code sizing its next launches by a kernel's output (MoE counts read back with .tolist() / int()): no
    kernel runs under the capture, so what it reads is not the GPU's, and the launches it sizes were lost silently
    ("not launched by any test"). Each such read (also of a tensor computed from the output) is listed with its
    file:line in index.json and the summary."""
    root = tmp_path / "moe"
    root.mkdir()
    (root / "run.py").write_text(MOE)
    index = run(Options(root=root, tests=[], scripts=["run.py"], out=tmp_path / "out", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    reads = {r["read"]: r["count"] for r in index["kernel_output_reads"]}
    assert reads == {"run.py:20: .tolist() of a tensor a kernel launch was given": 1,
                     "run.py:21: int() of a tensor a kernel launch was given": 1}
    text = "\n".join(summary_lines(index))
    assert "host code read values of tensors kernels were given (2 place(s))" in text
    assert "  run.py:20: .tolist() of a tensor a kernel launch was given (1x)" in text
    # a read of a tensor no kernel was given is not one
    root2 = tmp_path / "plain"
    root2.mkdir()
    (root2 / "run.py").write_text(MOE.replace("counts.cpu().tolist()", "torch.ones(4, dtype=torch.int32).tolist()")
                                  .replace("int(counts.sum())", "int(torch.arange(3).sum())"))
    index2 = run(Options(root=root2, tests=[], scripts=["run.py"], out=tmp_path / "out2", target=TARGETS["h200"],
                         timeout_s=60, say=lambda s: None))
    assert "kernel_output_reads" not in index2


def test_a_pytest_approx_mismatch_counts_as_a_numeric_check():
    assert _classify("assert 1.726e+28 == 3.5 ± 0.001").startswith("numeric check failed")
    assert _classify("AssertionError: \nNot equal to tolerance rtol=1e-07, atol=0").startswith("numeric check failed")
    assert _classify("assert 3 == 4") == "assert 3 == 4"


TRITON_MOE = '''\
import torch
import triton
import triton.language as tl
import cuda.tile as ct


@triton.jit
def _twice(v):
    return v * 2


@triton.jit
def count_kernel(idx_ptr, counts_ptr, total_ptr, T, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < T
    e = tl.load(idx_ptr + offs, mask=m, other=0)
    tl.atomic_add(counts_ptr + e, 1, mask=m)
    tl.atomic_add(total_ptr, tl.sum(_twice(m.to(tl.int32)), axis=0) // 2)


@triton.jit
def expert_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def gather_kernel(x_ptr, idx_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.store(o_ptr + offs, tl.load(x_ptr + i, mask=offs < n), mask=offs < n)


@ct.kernel
def fill_kernel(out, B: ct.Constant[int]):
    ct.store(out, (ct.bid(0),), ct.zeros((B,), dtype=out.dtype))


idx = torch.tensor([0, 2, 2, 3, 3, 3, 1, 3], dtype=torch.int32, device="cuda")
counts = torch.zeros(4, dtype=torch.int32, device="cuda")
total = torch.zeros(1, dtype=torch.int32, device="cuda")
count_kernel[(triton.cdiv(8, 4),)](idx, counts, total, 8, BLOCK=4)
per_expert = counts.tolist()
for c in per_expert:           # one launch per expert, its grid the expert's count
    x = torch.randn(c * 16, device="cuda")
    expert_kernel[(c,)](x, torch.empty_like(x), c * 16, BLOCK=16)
x = torch.randn(16, device="cuda")
gather_kernel[(1,)](x, torch.full((16,), 1 << 40, dtype=torch.int64, device="cuda"), torch.empty_like(x), 16,
                    BLOCK=16)
filled = torch.empty(16, dtype=torch.int64, device="cuda")
ct.launch(torch.cuda.current_stream(), (1,), fill_kernel, (filled, 16))
gather_kernel[(1,)](x, filled, torch.empty_like(x), 16, BLOCK=16)
print(per_expert, total.item())
'''


def test_triton_launches_run_in_the_interpreter_so_read_back_counts_are_the_kernels(tmp_path: Path):
    """A Triton kernel's counts read back to size the next launches (MoE routing): the launch runs in Triton's
    interpreter on the CPU (a helper and tl.sum inside it too), so the per-expert launches are captured at the GPU's
    grids (were: none, the counts staying 0). A launch reading a cuTile kernel's output (not run) is not run; one
    indexing outside its tensors' memory stops before the access (the interpreter would crash the process); both
    noted. Triton's language is as it was afterwards; --triton-run 0 runs none."""
    pytest.importorskip("triton")
    import triton.language as tl

    root = tmp_path / "moe"
    root.mkdir()
    (root / "run.py").write_text(TRITON_MOE)
    lang_before = dict(tl.core.tensor.__dict__)
    index = run(Options(root=root, tests=[], scripts=["run.py"], out=tmp_path / "out", target=TARGETS["h200"],
                        timeout_s=120, say=lambda s: None))
    after = dict(tl.core.tensor.__dict__)
    # as it was (Triton's own restore writes back what it read through inheritance: object's __repr__, the same)
    assert all(after.get(k) is v for k, v in lang_before.items())
    assert set(after) - set(lang_before) <= {"__repr__", "__annotations__"}
    (tf,) = index["test_files"]
    assert tf["outcomes"] == {"ran": 1}, tf
    rows = {r["kernel"]: r for r in index["kernels"]}
    from tileport.frontends.cutile_py.capture import load_capture

    grids = sorted(l["grid"][0] for l in load_capture(tmp_path / "out" / rows["expert_kernel"]["capture"],
                                                      f"{root / 'run.py'}::expert_kernel"))
    assert grids == [1, 2, 4] and rows["expert_kernel"]["launches"] == 4   # the experts' counts, as on the GPU
    assert "kernel_output_reads" not in index   # (the counts read are the kernel's)
    notes = "\n".join(index["notes"])
    assert "Triton's interpreter ran 5 launch(es)" in notes
    assert ("run.py::gather_kernel: not run in Triton's interpreter (Triton's interpreter stopped: an access at "
            in notes and "outside its tensors' memory) (1x)" in notes)
    assert "run.py::gather_kernel: not run in Triton's interpreter (an argument holds what a kernel not run here " \
           "wrote) (1x)" in notes
    assert any("run in Triton's interpreter on the CPU" in a for a in index["assumptions"])
    off = run(Options(root=root, tests=[], scripts=["run.py"], out=tmp_path / "off", target=TARGETS["h200"],
                      timeout_s=120, triton_run_s=0, say=lambda s: None))
    rows = {r["kernel"]: r for r in off["kernels"]}
    assert rows["expert_kernel"]["launches"] == 4 and rows["expert_kernel"]["distinct_signatures"] == 1
    assert not any("interpreter" in n for n in off["notes"] + off["assumptions"])
    assert [r["read"] for r in off["kernel_output_reads"]] == [
        "run.py:43: .tolist() of a tensor a kernel launch was given", "run.py:53: .item() of a tensor a kernel "
        "launch was given"]


def test_triton_runner_leaves_benchmark_shapes_and_grids_alone(tmp_path: Path):
    """Benchmark shapes (a tutorial's 2^28-element vector add) took the interpreter its whole time limit per launch
    (01-vector-add: 72 s); a launch over the byte or program cap is not run, said so."""
    pytest.importorskip("triton")
    from tileport.corpus.tritonrun import TritonRunner

    kernel = triton_copy_kernel(tmp_path)
    runner = TritonRunner(UntaintedEmulation(), max_bytes=1 << 20, max_programs=64)
    x = torch.randn(1 << 18)
    assert not runner(kernel, (256,), (x, torch.empty_like(x), x.numel()), {"BLOCK": 1024})
    small = torch.randn(4096)
    assert not runner(kernel, lambda meta: (4096 // meta["BLOCK"],), (small, torch.empty_like(small), 4096),
                      {"BLOCK": 16})
    y = torch.empty_like(small)
    assert runner(kernel, lambda meta: (4096 // meta["BLOCK"],), (small, y, 4096), {"BLOCK": 128})
    assert torch.equal(y, small)
    # a constexpr given by position and again as a launch option (a warmup handle's num_stages): the position's
    y2 = torch.empty_like(small)
    assert runner(kernel, (32,), (small, y2, 4096, 128), {"BLOCK": 128, "num_warps": 4})
    assert torch.equal(y2, small)
    assert runner.notes()[0].startswith("Triton's interpreter ran 2 launch(es) on the CPU (")
    assert runner.notes()[1:] == [
        "prog.py::copy_kernel: not run in Triton's interpreter (a grid of over 64 programs) (1x)",
        "prog.py::copy_kernel: not run in Triton's interpreter (its tensors hold over 1 MiB) (1x)"]
    # a launch on course to pass its time limit is stopped after its first programs, not at the limit
    slow = TritonRunner(UntaintedEmulation(), per_launch_s=0.3, max_programs=1 << 20)
    big = torch.randn(1 << 16)
    import time

    t0 = time.monotonic()
    assert not slow(kernel, (1 << 12,), (big, torch.empty_like(big), big.numel()), {"BLOCK": 16})
    assert time.monotonic() - t0 < 0.3
    assert slow.notes() == ["prog.py::copy_kernel: not run in Triton's interpreter (Triton's interpreter stopped: "
                            "would run past 0.3 s) (1x)"]


def test_device_indices_sdpa_backends_accelerator_api_and_properties(tmp_path: Path):
    """What real host code asks that the emulation did not answer: a bare device index (`device=
    torch.cuda.current_device()`, `x.to(local_rank)`: "Found no NVIDIA driver"), a reference attention under
    `sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION)` ("No viable backend": the CPU has flash and math only),
    torch.accelerator's synchronize / current_stream / current_device_index (CUDA errors), torch.cuda.ExternalStream,
    set_per_process_memory_fraction, torch.cuda.random.manual_seed, and the properties clock_rate / memory_clock_rate / memory_bus_width."""
    f = host_program(tmp_path, '''\
        import torch
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel

        dev = torch.cuda.current_device()
        a = torch.zeros(2, device=dev)
        b = torch.ones(2).to(0)
        c = torch.ones(2).to(dev, torch.float16)
        q = torch.randn(1, 2, 16, 8, device="cuda")
        with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
            o = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
            o2 = F.scaled_dot_product_attention(q, q, q)
            math_after = torch.backends.cuda.math_sdp_enabled()   # (as the context set it)
        acc = torch.accelerator
        acc.synchronize()
        acc.set_device_index(0)
        with acc.device_index(0):
            answers = (acc.current_device_index(), acc.current_stream().cuda_stream, acc.get_memory_info()[0] > 0)
        ext = torch.cuda.ExternalStream(1234)
        torch.cuda.set_per_process_memory_fraction(0.5)
        torch.cuda.random.manual_seed(0)
        torch.cuda.random.manual_seed_all(0)
        p = torch.cuda.get_device_properties(0)
        props = (p.clock_rate, p.memory_clock_rate, p.memory_bus_width, p.regs_per_multiprocessor)
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]) as emu:
        ns = runpy.run_path(str(f))
    assert [t.device.type for t in (ns["a"], ns["b"], ns["c"])] == ["cpu"] * 3 and ns["c"].dtype == torch.float16
    assert ns["o"].shape == ns["o2"].shape == (1, 2, 16, 8) and ns["math_after"] is False
    assert any("math backend" in n for n in emu.notes)
    assert ns["answers"] == (0, 0, True) and ns["ext"].cuda_stream == 0
    assert ns["props"] == (1980000, 2619000, 5120, 65536)
    assert torch.backends.cuda.math_sdp_enabled()


DIST = '''\
import os
import subprocess
import sys

import cuda.tile as ct
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


@ct.kernel
def scale_kernel(x, out, B: ct.Constant[int]):
    ct.store(out, (ct.bid(0),), ct.load(x, (ct.bid(0),), (B,)) * 2)


def step(rank, n):
    x = torch.ones(n, device=f"cuda:{rank}")
    out = torch.empty_like(x)
    ct.launch(torch.cuda.current_stream(), (n // 16,), scale_kernel, (x, out, 16))
    dist.all_reduce(out)


if __name__ == "__main__":
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", "29561"
    dist.init_process_group("nccl", world_size=1, rank=0, device_id=torch.device("cuda", 0))
    step(0, 64)
    backend = dist.get_backend()
    dist.destroy_process_group()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
'''


def test_nccl_groups_one_process_spawn_and_child_processes(tmp_path: Path):
    """A one-process NCCL group of a test ("ProcessGroupNCCL is only supported with GPUs"): on gloo, which takes
    the emulated CPU tensors; torch.multiprocessing.spawn of one process (a world size from device_count()): its
    function runs here as rank 0 and its launches are recorded (a child process ran without the emulation: "Found no
    NVIDIA driver"); a child process the host code starts is listed with its line (its launches are not recorded)."""
    root = tmp_path / "tp"
    root.mkdir()
    (root / "run.py").write_text(DIST)
    (root / "spawned.py").write_text(DIST.split("if __name__")[0] + textwrap.dedent('''\
        def worker(rank, n):
            os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", "29562"
            dist.init_process_group("nccl", world_size=1, rank=rank)
            step(rank, n)
            dist.destroy_process_group()


        if __name__ == "__main__":
            mp.spawn(worker, args=(32,), nprocs=1, join=True)
        '''))
    index = run(Options(root=root, tests=[], scripts=["."], out=tmp_path / "out", target=TARGETS["h200"],
                        timeout_s=120, say=lambda s: None))
    assert [tf["outcomes"] for tf in index["test_files"]] == [{"ran": 1}, {"ran": 1}], index["test_files"]
    assert sorted((r["file"], r["launches"]) for r in index["kernels"]) == [("run.py", 1), ("spawned.py", 1)]
    assert any(n.startswith("torch.distributed: NCCL process groups run on gloo") for n in index["notes"])
    assert any(n.startswith("torch.multiprocessing.spawn of one process") for n in index["notes"])
    (started,) = index["child_processes"]
    assert started["started"].startswith("run.py:29: a child process (python") and started["count"] == 1
    text = "\n".join(summary_lines(index))
    assert "child processes the host code started (1 place(s))" in text


def test_torch_c_stream_setters_and_a_librarys_own_child_processes(tmp_path: Path):
    """PyTorch's test harness (`instantiate_device_type_tests`' CudaNonDefaultStream) sets streams through
    torch._C._cuda_setStream directly ("CUDA driver version is insufficient": every CUDA test of the class failed
    before its launches); a child process a library starts as the host code imports it (`platform` running uname)
    is not the host code's and not listed, the host's own is."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "helper_lib.py").write_text("import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'pass'])\n")
    f = host_program(tmp_path, f'''\
        import subprocess
        import sys
        import torch

        sys.path.insert(0, {str(lib)!r})
        import helper_lib  # noqa: F401  (its own child process)

        s = torch.cuda.Stream()
        torch._C._cuda_setStream(stream_id=s.stream_id, device_index=s.device_index, device_type=s.device_type)
        torch._C._cuda_setDevice(0)
        dev = torch._C._cuda_getDevice()
        subprocess.run([sys.executable, "-c", "pass"])
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]) as emu:
        ns = runpy.run_path(str(f))
    assert ns["dev"] == 0
    assert list(emu.children) == ["prog.py:12: a child process (" + list(emu.children)[0].split("(")[1]]


def test_reads_follow_small_results_only(tmp_path: Path):
    """Results computed from a kernel's output are followed up to 65536 elements (what host code sizes launches
    by is small; a large result is a comparison's, and following every op doubled the emulation's cost per op):
    `big.max().item()` is a read of the kernel's output, `(big * 2).max().item()` is not followed."""
    f = host_program(tmp_path, '''\
        import torch

        big = torch.zeros(1 << 17, device="cuda")
        small = torch.zeros(8, device="cuda")


        def reads():
            a = big.max().item()
            b = (big * 2).max().item()
            c = int((small + 1).sum())
            return a, b, c
    ''')
    with emulate(TARGETS["h200"], [str(f.parent)]) as emu:
        ns = runpy.run_path(str(f))
        emu.kernel_args((ns["big"], ns["small"]))
        ns["reads"]()
    assert sorted(emu.output_reads) == ["prog.py:10: int() of a tensor a kernel launch was given",
                                        "prog.py:8: .item() of a tensor a kernel launch was given"]


def test_a_script_with_required_arguments(tmp_path: Path):
    """An argparse script whose options are required ran with none and 'exited' with no reason, its launches lost;
    the reason is said now (argparse's last line, with how to give the arguments), and `--script "run.py --size
    256"` runs it with them (each given script and argument list once)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "run.py").write_text(textwrap.dedent('''\
        import argparse
        import cuda.tile as ct
        import torch


        @ct.kernel
        def zero_kernel(x, B: ct.Constant[int]):
            ct.store(x, (ct.bid(0),), ct.zeros((B,), dtype=x.dtype))


        if __name__ == "__main__":
            p = argparse.ArgumentParser()
            p.add_argument("--size", type=int, required=True)
            a = p.parse_args()
            x = torch.empty(a.size, device="cuda")
            ct.launch(torch.cuda.current_stream(), (a.size // 64,), zero_kernel, (x, 64))
        '''))
    index = run(Options(root=root, tests=[], scripts=["run.py"], out=tmp_path / "o1", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    (tf,) = index["test_files"]
    assert tf["outcomes"] == {"exited": 1} and list(tf["failures"]) == [
        'exited with 2: run.py: error: the following arguments are required: --size (give its arguments: '
        '--script "FILE ARGS")']
    index = run(Options(root=root, tests=[], scripts=["run.py --size 256", "run.py --size 128"], out=tmp_path / "o2",
                        target=TARGETS["h200"], timeout_s=60, say=lambda s: None))
    assert [t["file"] for t in index["test_files"]] == ["run.py --size 256", "run.py --size 128"]
    (row,) = index["kernels"]
    assert row["launches"] == 2
    with pytest.raises(InputError, match="no such file"):
        run(Options(root=root, tests=[], scripts=["nope.py --size 1"], out=tmp_path / "o3", target=TARGETS["h200"]))
