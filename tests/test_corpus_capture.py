"""`tileport corpus capture` on a tiny corpus written here: CUDA answered on a CPU, launches recorded per kernel."""
from __future__ import annotations

import json
import runpy
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="tileport corpus capture drives torch host code; torch is not "
                                              "installed here (pip install torch to run these tests)")

from tileport.corpus.capture import Options, choose_signatures, run, summary_lines  # noqa: E402
from tileport.corpus.cudaemu import TARGETS, AllocationTooLarge, emulate, parse_target  # noqa: E402
from tileport.corpus.scan import scan  # noqa: E402
from tileport.errors import InputError  # noqa: E402
from tileport.frontends.cutile_py.capture import load_capture  # noqa: E402

OPS = '''\
import cuda.tile as ct
import torch
from cuda.tile.tune import exhaustive_search


@ct.kernel
def scale_kernel(x, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=t * 2)


def make(occupancy):
    @ct.kernel(occupancy=occupancy)
    def made_kernel(x, TILE: ct.Constant[int]):
        ct.store(x, index=(ct.bid(0),), tile=ct.zeros((TILE,), x.dtype))
    return made_kernel


def scale(x):
    if not x.is_cuda or x.device.type != "cuda":
        raise ValueError("x must be a CUDA tensor")
    y = torch.empty_like(x)
    sms = torch.cuda.get_device_properties(x.device).multi_processor_count
    ct.launch(torch.cuda.current_stream(), (sms,), scale_kernel, (x, y, 128))
    return y


def scale_tuned(x):
    y = torch.empty(x.shape, device=x.device, dtype=x.dtype)
    res = exhaustive_search([64, 256], torch.cuda.current_stream(), lambda t: (ct.cdiv(x.shape[0], t),),
                            scale_kernel, lambda t: (x, y, t))
    t = res.best.config   # launched at the winner, through a copy at other hints (as TileGym's attention does)
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(x.shape[0], t),), scale_kernel.replace_hints(occupancy=2),
              (x, y, t))
    return y, t
'''

TESTS = '''\
import torch
from minigym.ops import scale, scale_tuned


def test_launches_after_a_numeric_check():
    assert torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)
    x = torch.randn(1024, device="cuda", dtype=torch.float16)
    y = scale(x)
    assert y.is_cuda and y.device == torch.device("cuda:0")
    torch.testing.assert_close(y, x * 2)  # answered "close": the kernel did not run
    scale(y.to(torch.int16))              # launched only past the check


def test_moved_to_cuda():
    x = torch.arange(4096, dtype=torch.float32).to("cuda")
    scale(x.cuda())
    torch.cuda.synchronize()


def test_autotuned():
    x = torch.zeros(4096, device=torch.device("cuda:0"))
    y, cfg = scale_tuned(x)
    assert cfg == 64


def test_huge_allocation():
    torch.empty(1 << 20, 1 << 20, device="cuda")


import pytest


@pytest.mark.parametrize("backend", ["cutile", "triton"])
def test_backends(backend):
    scale(torch.ones(256, device="cuda", dtype=torch.bfloat16))
'''


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "minicorpus"
    (root / "src" / "minigym").mkdir(parents=True)
    (root / "src" / "minigym" / "__init__.py").write_text("")
    (root / "src" / "minigym" / "ops.py").write_text(OPS)
    (root / "tests").mkdir()
    (root / "tests" / "test_minigym_ops.py").write_text(TESTS)
    return root


def test_scan_finds_kernels_and_kernel_factories(corpus: Path):
    found = scan(corpus)
    assert [(k.file, k.name, k.qualname) for k in found] == [
        ("src/minigym/ops.py", "scale_kernel", "scale_kernel"),
        ("src/minigym/ops.py", "made_kernel@14", "make.<locals>.made_kernel")]


def test_emulation_rewrites_devices_and_answers_only_host_code(tmp_path: Path):
    host = tmp_path / "host"
    host.mkdir()
    script = host / "host_script.py"
    script.write_text(textwrap.dedent('''\
        import torch
        a = torch.empty(8, device="cuda")
        b = torch.zeros((2, 3), device=torch.device("cuda:0"))
        c = torch.ones_like(a, device="cuda")
        d = torch.tensor([1, 2], device="cuda")
        e = torch.arange(5).cuda()
        f = torch.full((2,), 3.0).to("cuda", torch.float16)
        g = torch.randn(4, 4).to(device="cuda")
        tensors = [a, b, c, d, e, f, g]
        seen = [(t.is_cuda, t.device.type, t.device.index, t.get_device()) for t in tensors]
        props = torch.cuda.get_device_properties(0)
        answers = (torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.get_device_name(),
                   torch.cuda.get_device_capability(), props.multi_processor_count, props.total_memory)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record(); end.record(); torch.cuda.synchronize()
        elapsed = start.elapsed_time(end)
        stream = torch.cuda.current_stream()
        w = torch.randn(256, 256, dtype=torch.float16, device="cuda", requires_grad=True)
        (w @ w).float().sum().backward()          # over the budget: not computed, gradients still flow
        small = torch.ones(8, 8) @ torch.ones(8, 8)  # under it: computed
    '''))
    with emulate(TARGETS["h200"], [str(host)], max_alloc_bytes=1 << 30, max_macs=1e6) as emu:
        ns = runpy.run_path(str(script))
        # this file is not host code: it sees where the tensors really are
        assert all(t.device.type == "cpu" and not t.is_cuda for t in ns["tensors"])
        with pytest.raises(AllocationTooLarge, match="GiB"):
            torch.empty(1 << 16, 1 << 16, device="cuda")
    assert ns["seen"] == [(True, "cuda", 0, 0)] * 7
    assert ns["answers"] == (True, 1, "NVIDIA H200", (9, 0), 132, 143771 << 20)
    assert ns["elapsed"] == 1.0 and ns["stream"].cuda_stream == 0
    assert ns["tensors"][5].dtype == torch.float16
    assert emu.uncomputed == {"matmul": 1} and ns["w"].grad.shape == (256, 256)
    assert bool((ns["small"] == 8).all())
    assert emu.refused and "torch.empty of (65536, 65536) float32 (16.0 GiB)" in emu.refused[0]
    assert any("h200" in a.lower() and "132 SMs" in a for a in emu.assumptions())
    # everything is back as it was
    assert torch.cuda.get_device_properties is not None
    assert torch.empty(2).device.type == "cpu"
    if not torch.cuda.is_available():
        with pytest.raises((RuntimeError, AssertionError)):  # no driver / a CPU-only build
            torch.cuda.get_device_properties(0)


def test_emulation_stops_a_test_before_the_process_exhausts_the_machine(tmp_path: Path):
    """Benchmark shapes on a CPU: an allocation taking the process's resident memory over its budget, or a large
    result after which it holds more, is refused (AllocationTooLarge stops that test), named with its size and
    line; smaller work goes on. (A perf capture of TileGym's rms_norm on this 24 GiB machine was OOM-killed.)"""
    from tileport.corpus import cudaemu

    host = tmp_path / "host"
    host.mkdir()
    (host / "big.py").write_text("import torch\n\ndef alloc(n):\n    return torch.empty(n, device='cuda')\n\n"
                                 "def double(x):\n    return x * 2\n")
    held = cudaemu.resident_bytes()
    assert held > 0
    with emulate(TARGETS["h200"], [str(host)]) as emu:
        emu.max_rss_bytes = held + (200 << 20)   # room for 200 MiB more
        ns = runpy.run_path(str(host / "big.py"))
        x = ns["alloc"](32 << 20)               # 128 MiB f32: fits
        with pytest.raises(AllocationTooLarge, match=r"would hold .* GiB with it, over the capture's"):
            ns["alloc"](64 << 20)               # 256 MiB more: over
        x.fill_(1.0)                            # touched: resident now
        with pytest.raises(AllocationTooLarge, match=r"after it"):
            ns["double"](x)                     # a 128 MiB result takes it over
    assert len(emu.refused) == 2 and "big.py:4" in emu.refused[0] and "mul" in emu.refused[1]


def test_capture_records_launches_per_kernel(corpus: Path, tmp_path: Path):
    import cuda.tile as ct

    launch_before = ct.launch
    available_before = torch.cuda.is_available
    out = tmp_path / "out"
    said: list[str] = []
    index = run(Options(root=corpus, tests=["tests"], out=out, target=TARGETS["h200"], paths=["src"],
                        max_alloc_bytes=1 << 30, timeout_s=60, say=said.append))
    assert ct.launch is launch_before and torch.cuda.is_available is available_before
    assert any("NVIDIA H200 (sm_90, 132 SMs" in s for s in said)
    assert any(s.startswith("[1/1] tests/test_minigym_ops.py") for s in said)

    (row,) = index["kernels"]
    # (6: the autotuned launch at TILE 64 is there twice, in the search and at other hints after it)
    assert (row["file"], row["kernel"], row["distinct_signatures"]) == ("src/minigym/ops.py", "scale_kernel", 6)
    assert row["autotuned"] == [{"configs": 2, "taken": "64"}]
    assert index["not_launched"] == [{"file": "src/minigym/ops.py", "kernel": "made_kernel@14",
                                      "qualname": "make.<locals>.made_kernel", "line": 14}]
    (tf,) = index["test_files"]
    assert tf["deselected"] == {"backend=triton": 1}
    assert tf["outcomes"] == {"failed": 1, "passed": 4}
    # (4 TiB: over the H200's memory, CUDA's own out-of-memory error, as on the GPU: round 22)
    assert list(tf["failures"]) == [next(w for w in tf["failures"] if "OutOfMemoryError" in w)]
    assert "isclose: answered 'close' 1 time(s)" in index["notes"]
    assert index["refused_allocations"] and "1048576, 1048576" in index["refused_allocations"][0]

    capture = out / row["capture"]
    assert json.loads((out / "index.json").read_text())["summary"]["kernels_launched"] == 1
    launches = load_capture(capture, f"{corpus / 'src' / 'minigym' / 'ops.py'}::scale_kernel")
    sigs = {l["signature"] for l in launches}
    assert len(sigs) == 5
    assert any("f16" in s and "TILE=#128" in s for s in sigs) and any("TILE=#64" in s for s in sigs)
    assert any(s.startswith("x=i16") for s in sigs)
    by_sig = {l["signature"]: l for l in launches}
    grids = sorted(tuple(l["grid"]) for l in by_sig.values())
    assert grids == [(64, 1, 1)] + [(132, 1, 1)] * 4  # SM-count grids, and cdiv(4096, 64)
    tuned = [l for l in launches if l.get("autotune")]
    assert tuned and tuned[0]["tests"][0].endswith("test_autotuned")
    assert all(l["corpus_file"] == "src/minigym/ops.py" for l in launches)
    assert "not launched by any test (1):" in summary_lines(index)


def test_choose_signatures_covers_dtypes_and_constants_first():
    class L:  # the part of a recorded launch choose_signatures reads
        def __init__(self, dtype, tile):
            self.entry = {"args": [{"name": "x", "kind": "array", "dtype": dtype, "shape": [1]},
                                   {"name": "T", "kind": "constant", "value": tile}]}

    sigs = {f"{d} {t} {i}": {(1,): L(d, t)} for i in range(5) for d in ("f16", "f32") for t in (64,)}
    sigs["bf16 64"] = {(1,): L("bf16", 64)}
    sigs["f16 128"] = {(1,): L("f16", 128)}
    # 12 signatures, 4 dtype + constant combinations: 4 kept, one of each, in first-seen order
    assert choose_signatures(sigs, 4) == ["f16 64 0", "f32 64 0", "bf16 64", "f16 128"]
    assert len(choose_signatures(sigs, 100)) == len(sigs)


def test_target_grammar():
    assert parse_target("H100").sms == 132
    t = parse_target("B200:sm_100:148:180")
    assert (t.arch, t.sms, t.total_memory) == ("sm_100", 148, 180 * 10**9)
    with pytest.raises(InputError, match="NAME:sm_XY:SMS:MEM_GB"):
        parse_target("gpu9000")


def test_capture_runs_a_driver_outside_the_corpus(corpus: Path, tmp_path: Path):
    """A test file of one's own (calling the corpus's public functions no corpus test calls) is named by its
    absolute path in --tests: its launches are captured like the corpus tests', its tests named by that path."""
    driver = tmp_path / "driver" / "test_driver.py"
    driver.parent.mkdir()
    driver.write_text("import torch\nfrom minigym.ops import scale\n\n"
                      "def test_scale_bf16():\n    scale(torch.ones(4096, device='cuda', dtype=torch.bfloat16))\n")
    index = run(Options(root=corpus, tests=[str(driver)], out=tmp_path / "out", target=TARGETS["h200"],
                        paths=["src"], max_alloc_bytes=1 << 30, timeout_s=60, say=lambda s: None))
    (row,) = index["kernels"]
    assert row["kernel"] == "scale_kernel" and row["tests"] == [driver.as_posix()]
    (tf,) = index["test_files"]
    assert tf["file"] == driver.as_posix() and tf["outcomes"] == {"passed": 1}


TRITON_SCRIPT = '''\
import torch
import triton
import triton.language as tl
from triton.runtime import driver

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def twice_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


@triton.jit
def unused_helper(x):
    return x


def twice(x):
    y = torch.empty_like(x)
    props = driver.active.utils.get_device_properties(DEVICE.index)
    handle = twice_kernel.warmup(x, y, x.numel(), BLOCK=1024, grid=(1,))
    handle._init_handles()
    per_sm = props["max_num_regs"] // (handle.n_regs * props["warpSize"] * 4)
    grid = min(props["multiprocessor_count"] * per_sm, triton.cdiv(x.numel(), 1024))
    handle[(grid, 1, 1)](x, y, x.numel(), 1024)
    return y


assert triton.runtime.driver.active.get_current_target().backend == "cuda"


@triton.testing.perf_report(triton.testing.Benchmark(x_names=["n"], x_vals=[4096, 1 << 20], line_arg="provider",
                                                     line_vals=["triton", "torch"], line_names=["T", "P"],
                                                     plot_name="twice", args={}, ylabel="ms"))
def bench(n, provider):
    x = torch.rand(n, device=DEVICE)
    if provider == "torch":
        raise RuntimeError("only the triton point runs here")
    return triton.testing.do_bench(lambda: twice(x), quantiles=[0.5, 0.2, 0.8])


if __name__ == "__main__":
    bench.run(print_data=True, show_plots=True)
'''


def test_capture_runs_a_triton_script_with_the_driver_and_benchmarks_answered(tmp_path: Path):
    """A Triton host program (a tutorial-style script, not a test) run as __main__: Triton's driver answers as the
    target, a warmup handle records its launches, a perf_report sweep calls each point once (a raising point is
    counted), and only launched @triton.jit functions are kernels (not helpers)."""
    pytest.importorskip("triton")
    import triton.runtime

    root = tmp_path / "tutorials"
    root.mkdir()
    (root / "twice.py").write_text(TRITON_SCRIPT)
    assert [(k.file, k.name) for k in scan(root)] == [("twice.py", "twice_kernel")]
    active_before = triton.runtime.driver._active
    index = run(Options(root=root, tests=[], scripts=["."], out=tmp_path / "out", target=TARGETS["h200"],
                        max_alloc_bytes=1 << 30, timeout_s=60, say=lambda s: None))
    assert triton.runtime.driver._active is active_before
    (row,) = index["kernels"]
    assert (row["file"], row["kernel"], row["tests"]) == ("twice.py", "twice_kernel", ["twice.py"])
    (tf,) = index["test_files"]
    assert tf["outcomes"] == {"ran": 1} and tf["launches"] == 2
    assert "benchmark twice: RuntimeError raised 2 time(s)" in index["notes"]
    launches = load_capture(tmp_path / "out" / row["capture"], f"{root / 'twice.py'}::twice_kernel")
    # 65536 registers / (32 guessed per thread x 32 x 4 warps) = 16 per SM x 132 SMs, capped by the blocks
    assert sorted(l["grid"][0] for l in launches) == [4, 1024]
    assert all(l["frontend"] == "triton" for l in launches)
    assert any("triton's driver answers as NVIDIA H200" in a for a in index["assumptions"])


def test_capture_reports_a_script_that_raises_with_its_line(tmp_path: Path):
    root = tmp_path / "scripts"
    root.mkdir()
    (root / "broken.py").write_text("x = 1\nraise ValueError('no GPU here?')\n")
    index = run(Options(root=root, tests=[], scripts=["broken.py"], out=tmp_path / "out", target=TARGETS["h200"],
                        timeout_s=60, say=lambda s: None))
    (tf,) = index["test_files"]
    assert tf["outcomes"] == {"raised": 1} and list(tf["failures"]) == ["ValueError (line 2): no GPU here?"]
    with pytest.raises(InputError, match="--script nowhere.py: no such file"):
        run(Options(root=root, tests=[], scripts=["nowhere.py"], out=tmp_path / "o2", target=TARGETS["h200"]))


def test_autotune_all_records_every_config_of_a_search(corpus: Path, tmp_path: Path):
    """--autotune all: the search launches each config (the GPU's winner is then among the captured
    specializations, as the launch backend needs) and still returns the first to the host code."""
    index = run(Options(root=corpus, tests=["tests"], out=tmp_path / "out", target=TARGETS["h200"], paths=["src"],
                        keyword="test_autotuned", timeout_s=60, autotune_all=True, say=lambda m: None))
    (row,) = index["kernels"]
    launches = load_capture(tmp_path / "out" / row["capture"], f"{corpus / 'src' / 'minigym' / 'ops.py'}::scale_kernel")
    assert {s.rpartition("TILE=#")[2] for s in (l["signature"] for l in launches)} == {"64", "256"}
    assert any("launches every config" in a for a in index["assumptions"])
    # the host's own launch after the search (at the winner, through replace_hints) is recorded at each config it
    # could be on a GPU: the one returned (TILE 64), and 256 as the alternative were it the winner
    tuned = {(l["signature"].rpartition("TILE=#")[2], l.get("autotune")) for l in launches
             if (l.get("hints") or {}).get("occupancy") == 2}
    assert tuned == {("64", None), ("256", "the launch after a search, were 256 its winner")}


WINNER_OPS = OPS + '''

_TUNED = {}


def scale_then_follow(x):
    """A search whose winner also sizes a fresh buffer and sets another launch's constant (as a split GEMM's winner
    sets its finalize kernel's tile); the result is cached by shape, as real host code caches its tuning."""
    y = torch.empty_like(x)
    if x.shape not in _TUNED:
        _TUNED[x.shape] = exhaustive_search([64, 256, 512], torch.cuda.current_stream(),
                                            lambda t: (ct.cdiv(x.shape[0], t),), scale_kernel,
                                            lambda t: (x, y, t)).best.config
    t = _TUNED[x.shape]
    z = torch.empty(t * 4, device=x.device, dtype=x.dtype)
    ct.launch(torch.cuda.current_stream(), (4,), scale_kernel, (z, torch.empty_like(z), t))
'''


@pytest.mark.parametrize("mode, follows", [("all", {"64", "256", "512"}), ("each", {"64", "256", "512"})])
def test_autotune_each_runs_the_searching_files_again_per_winner(tmp_path: Path, mode, follows):
    """--autotune each: the test file that searched runs again with each other config as the winner (its module
    imported afresh, so its tuning cache is empty), and what it launches with the winner's values (a fresh buffer,
    another launch's TILE) is recorded for every config. --autotune all records that launch of the searched kernel at
    every config too (it holds the returned config's TILE: a cached winner's launch, autotune.py), without the
    winner rounds; a launch of another kernel whose constant the winner sets only the rounds see."""
    root = tmp_path / "wc"
    (root / "src" / "minigym").mkdir(parents=True)
    (root / "src" / "minigym" / "__init__.py").write_text("")
    (root / "src" / "minigym" / "ops.py").write_text(WINNER_OPS)
    (root / "tests").mkdir()
    (root / "tests" / "test_follow.py").write_text(
        "import torch\nfrom minigym.ops import scale_then_follow\n\n"
        "def test_follow():\n    scale_then_follow(torch.zeros(4096, device='cuda'))\n")
    said: list[str] = []
    index = run(Options(root=root, tests=["tests"], out=tmp_path / "out", target=TARGETS["h200"], paths=["src"],
                        timeout_s=60, autotune_all=True, autotune_each=mode == "each", say=said.append))
    (row,) = index["kernels"]
    launches = load_capture(tmp_path / "out" / row["capture"], f"{root / 'src' / 'minigym' / 'ops.py'}::scale_kernel")
    after = {l["signature"].rpartition("TILE=#")[2] for l in launches for g in l.get("grids", [l["grid"]])
             if tuple(g) == (4, 1, 1)}
    assert after == follows
    assert index["test_files"][0]["outcomes"] == {"passed": 1}   # (the first run's: rounds add launches only)
    assert any(m.startswith("autotune winner round 2: 1 file(s)") for m in said) == (mode == "each")


def test_cli_capture_finds_a_package_at_the_top_of_the_project(tmp_path: Path):
    """A project whose package sits at its top (no src/ layout) and whose tests import it: the capture imports it
    as `python -m pytest` run in the project does (the project's folder first on sys.path), without --path."""
    from conftest import run_tileport

    (tmp_path / "proj" / "flatlib").mkdir(parents=True)
    (tmp_path / "proj" / "flatlib" / "__init__.py").write_text("from .ops import scale\n")
    (tmp_path / "proj" / "flatlib" / "ops.py").write_text(OPS)
    (tmp_path / "proj" / "tests").mkdir()
    (tmp_path / "proj" / "tests" / "test_flat.py").write_text(
        "import torch\nfrom flatlib import scale\n\n"
        "def test_scale():\n    scale(torch.ones(4096, device='cuda'))\n")
    r = run_tileport("corpus", "capture", str(tmp_path / "proj"), "--out", str(tmp_path / "out"), "--json")
    assert r.returncode == 0, r.stderr
    index = json.loads((tmp_path / "out" / "index.json").read_text())
    assert [k["kernel"] for k in index["kernels"]] == ["scale_kernel"], r.stderr


DEEP = ("src/an_organization_with_a_rather_long_name/a_subpackage_named_for_what_it_holds/"
        "kernels_for_the_normalization_layers_of_transformer_models")
LONG_KERNEL = "fused_root_mean_square_normalization_forward_kernel_with_residual_addition_and_output_scaling"


def test_capture_and_port_folders_of_deep_paths_and_long_names_fit_a_file_name(tmp_path: Path):
    """A kernel of a deep package with a long name: its capture file (FILE.KERNEL.json, dotted) would pass the 255
    bytes a file name may have ("File name too long", and the capture lost); it is bounded, distinct names stay
    distinct, and index.json names the file."""
    from tileport.corpus.port import _slug

    root = tmp_path / "proj"
    pkg = root / DEEP
    pkg.mkdir(parents=True)
    for d in [pkg, *pkg.parents]:
        if d == root / "src":
            break
        (d / "__init__.py").write_text('"""ünïcode — «docstring»"""\n')
    (pkg / "fused_root_mean_square_normalization_with_residual_addition_kernels.py").write_text(
        '"""Fused RMS — 日本語."""\nimport cuda.tile as ct\nimport torch\n\n\n@ct.kernel\n'
        f"def {LONG_KERNEL}(x, y, TILE: ct.Constant[int]):\n"
        "    ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(TILE,)))\n\n\n"
        "def launch(x):\n    y = torch.empty_like(x)\n"
        f"    ct.launch(torch.cuda.current_stream(), (8,), {LONG_KERNEL}, (x, y, 128))\n")
    tests = root / "tests" / "ünïcödé_tests"
    tests.mkdir(parents=True)
    module = (DEEP.removeprefix("src/") + "/fused_root_mean_square_normalization_with_residual_addition_kernels")
    (tests / "test_deep.py").write_text(f"import torch\nfrom {module.replace('/', '.')} import launch\n\n\n"
                                        "def test_it():\n    launch(torch.ones(1024, device='cuda'))\n")
    index = run(Options(root=root, tests=["tests"], out=tmp_path / "out", target=TARGETS["h200"], paths=["src"],
                        timeout_s=60, log_dir=tmp_path / "logs", say=lambda m: None))
    (row,) = index["kernels"]
    assert row["kernel"] == LONG_KERNEL and len(row["capture"].encode()) <= 130
    assert row["capture"].endswith(f"{LONG_KERNEL}.json") and (tmp_path / "out" / row["capture"]).is_file()
    assert all(len(p.name.encode()) <= 130 for p in (tmp_path / "logs").iterdir())
    slug = _slug(row["file"], LONG_KERNEL)
    assert len(slug.encode()) <= 120 and slug.endswith(LONG_KERNEL[-40:])
    assert _slug(row["file"].replace("an_organization", "another_organization"), LONG_KERNEL) != slug
    assert _slug("a/b.py", "k") == "a.b.k"   # short names unchanged


def test_scan_finds_a_triton_kernel_launched_from_another_file(tmp_path: Path):
    """A @triton.jit kernel its own file never launches (a benchmark script or wrapper module imports it and
    launches it) is a kernel; an unlaunched @triton.jit helper is not."""
    root = tmp_path / "proj"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "k.py").write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                                       "def helper(x):\n    return x\n\n\n@triton.jit\n"
                                       "def kern(x_ptr, BLOCK: tl.constexpr):\n    pass\n")
    (root / "bench.py").write_text("from lib import k\n\n"
                                   "def run(x):\n    k.kern[(1,)](x, BLOCK=16)\n")
    assert [(k.file, k.name) for k in scan(root)] == [("lib/k.py", "kern")]


HOST_SCRIPT = '''\
import argparse
import torch
import cuda.tile as ct
from kernels import scale_kernel

p = argparse.ArgumentParser()
p.add_argument("--n", type=int, default=1024)
p.add_argument("--fail", action="store_true")
args = p.parse_args()
dev = torch.device("cuda", torch.cuda.current_device())
assert torch.cuda.get_device_capability() == (9, 0), torch.cuda.get_device_capability()
x = torch.randn(args.n, device=dev)
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    start.record()
    ct.launch(s, (args.n // 128,), scale_kernel, (x, torch.empty_like(x), 128))
    end.record()
torch.cuda.synchronize()
print("ms", start.elapsed_time(end))
if args.fail:
    raise RuntimeError("a later step of the host program failed")
'''


def _host_project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / "bench").mkdir(parents=True)
    (proj / "pyproject.toml").write_text("")
    (proj / "bench" / "kernels.py").write_text(OPS)
    (proj / "bench" / "host.py").write_text(HOST_SCRIPT)
    return proj


def test_cli_capture_emulates_cuda_for_a_torch_host_program(tmp_path: Path):
    """`tileport capture -- python host.py` on a machine without a GPU: the program's torch.cuda answers as the
    target (was: "Found no NVIDIA driver", nothing captured), its launches are recorded, the capture file lists the
    assumptions; a program that fails after launching keeps its launches (written, exit status 1)."""
    from conftest import run_tileport

    proj = _host_project(tmp_path)
    out = tmp_path / "c.json"
    r = run_tileport("capture", "--out", str(out), "--", "python", str(proj / "bench" / "host.py"), "--n", "4096")
    assert r.returncode == 0, r.stderr
    assert "no GPU here: CUDA emulated as NVIDIA H200 (sm_90" in r.stderr
    data = json.loads(out.read_text())
    (launch,) = data["launches"]
    assert launch["qualname"] == "scale_kernel" and launch["grid"] == [32, 1, 1]
    assert any("torch.cuda answered as NVIDIA H200" in a for a in data["assumptions"])
    r = run_tileport("capture", "--out", str(out), "--", "python", str(proj / "bench" / "host.py"), "--fail")
    assert r.returncode == 1 and "Traceback" in r.stderr
    first = [l for l in r.stderr.splitlines() if l.startswith("tileport: capture failed")][0]
    assert "RuntimeError: a later step of the host program failed" in first
    assert "the 1 distinct launch(es) it made before are written to" in first
    assert json.loads(out.read_text())["launches"][0]["grid"] == [8, 1, 1]


def test_cli_capture_runs_a_module_such_as_pytest(tmp_path: Path):
    """`tileport capture -- python -m pytest tests/` (was refused: scripts only): the tests' launches are recorded
    from the working directory's project."""
    import os

    from conftest import REPO, run_tileport

    proj = _host_project(tmp_path)
    (proj / "tests").mkdir()
    (proj / "tests" / "test_k.py").write_text(
        "import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__).parents[1] / 'bench'))\n"
        "import torch\nfrom kernels import scale\n\n\n"
        "def test_scale():\n    scale(torch.ones(4096, device='cuda'))\n")
    out = tmp_path / "m.json"
    r = run_tileport("capture", "--out", str(out), "--", "python", "-m", "pytest", "-q", "-p", "no:cacheprovider",
                     "tests", cwd=proj,
                     env={"PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])})
    assert r.returncode == 0, r.stderr + r.stdout
    data = json.loads(out.read_text())
    assert [l["qualname"] for l in data["launches"]] == ["scale_kernel"] and data["script"] == "-m pytest"


EMULATED_APIS = '''\
import torch
import cuda.tile as ct
from kernels import scale_kernel

x = torch.randn(4096, device="cuda")
assert x.is_cuda and x.device.index == 0, (x.device, x.device.index)   # in the script's own frames too
state = torch.cuda.get_rng_state()
torch.cuda.set_rng_state(state)
g = torch.Generator(device="cuda").manual_seed(0)
assert isinstance(g, torch.Generator)
y = torch.randn(4096, device="cuda", generator=g)
assert not torch.cuda.is_current_stream_capturing()
torch.set_default_device("cuda")
try:
    z = torch.empty(4096)
    with torch.device("cuda"):
        w = torch.zeros(4096)
finally:
    torch.set_default_device("cpu")
assert z.is_cuda and w.is_cuda
ct.launch(torch.cuda.current_stream(), (32,), scale_kernel, (z, w, 128))
'''


def test_cli_capture_of_a_script_by_a_relative_path_and_more_torch_cuda_apis(tmp_path: Path):
    """`tileport capture -- python host.py` run in the script's folder (a relative path): the script's own code sees
    its tensors as CUDA tensors (was: its frames had a relative file name, outside the host code, so `x.is_cuda` was
    False in the script itself); torch.cuda.get_rng_state / set_rng_state, torch.Generator(device="cuda"),
    is_current_stream_capturing, torch.set_default_device("cuda") and `with torch.device("cuda"):` work (each raised
    "Found no NVIDIA driver" or a CUDA error before)."""
    import os

    from conftest import REPO, run_tileport

    proj = _host_project(tmp_path)
    (proj / "bench" / "apis.py").write_text(EMULATED_APIS)
    out = tmp_path / "a.json"
    r = run_tileport("capture", "--out", str(out), "--", "python", "apis.py", cwd=proj / "bench",
                     env={"PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])})
    assert r.returncode == 0, r.stderr
    assert [l["qualname"] for l in json.loads(out.read_text())["launches"]] == ["scale_kernel"]


HOST_KERNELS = '''\
import cuda.tile as ct
import triton
import triton.language as tl


@ct.kernel
def cast_kernel(x, y, OUT: ct.Constant, B: ct.Constant[int]):
    ct.store(y, index=(ct.bid(0),), tile=ct.astype(ct.load(x, index=(ct.bid(0),), shape=(B,)), OUT))


def make_act(kind):
    if kind == "relu":
        @ct.kernel
        def act(x, y, B: ct.Constant[int]):
            ct.store(y, index=(ct.bid(0),), tile=ct.maximum(ct.load(x, index=(ct.bid(0),), shape=(B,)), 0.0))
    else:
        @ct.kernel
        def act(x, y, B: ct.Constant[int]):
            ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(B,)) * 2.0)
    return act


@triton.autotune(configs=[triton.Config({"BLOCK": 128}), triton.Config({"BLOCK": 256})], key=["n"])
@triton.jit
def tri_add(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < n) + 1, mask=offs < n)


@triton.jit
def tri_copy(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < n), mask=offs < n)
'''

HOST_OPS = '''\
import functools

import cuda.tile as ct
import torch
import triton

from . import kernels as K


@functools.lru_cache(maxsize=None)
def _act(kind):
    return K.make_act(kind)


def act(x, kind):
    y = torch.empty_like(x)
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(x.numel(), 128),), _act(kind), (x, y, 128))
    return y


def cast(x, dtype):
    y = torch.empty(x.shape, dtype=dtype, device=x.device)
    ct.launch(torch.cuda.current_stream(), [ct.cdiv(x.numel(), 128)], K.cast_kernel, (x, y, dtype, 128))
    return y


def add1(x):
    y = torch.empty_like(x)
    K.tri_add[lambda meta: (triton.cdiv(x.numel(), meta["BLOCK"]),)](x, y, x.numel())
    return y


def copy(x, *, forget=False):
    y = torch.empty_like(x)
    if forget:
        K.tri_copy.run(x, y, BLOCK=128, grid=(1,), warmup=False)   # n missing: Triton raises too
    else:
        K.tri_copy.run(x, y, x.numel(), BLOCK=128, grid=(triton.cdiv(x.numel(), 128),), warmup=False)
    return y
'''

HOST_TESTS = '''\
import pytest
import torch

from hostkit import ops


@pytest.mark.parametrize("kind", ["relu", "twice"])
def test_act(kind):
    ops.act(torch.randn(1000, device="cuda"), kind)


def test_cast_dtype_constant_is_refused():
    with pytest.raises(TypeError, match="as a constant"):
        ops.cast(torch.randn(256, device="cuda"), torch.float16)


def test_cast_fails_as_on_a_gpu():
    ops.cast(torch.randn(256, device="cuda"), torch.bfloat16)


def test_triton():
    x = torch.randn(1000, device="cuda")
    ops.add1(x)
    ops.copy(x)
    with pytest.raises(TypeError):
        ops.copy(x, forget=True)
'''


def test_capture_of_host_code_idioms(tmp_path: Path):
    """Host code as real projects write it (round 5): an lru_cache'd kernel factory whose two kernels share a
    name (two kernels, NAME@LINE), a dtype passed as a ct.Constant (ct.launch refuses it: raised in the test, as on a
    GPU; a test expecting the TypeError passes), an autotuned Triton kernel launched with a lambda grid (its autotune
    shows in the table), a Triton kernel launched by `.run(...)` from another module (found by the scan) and one
    such launch missing an argument (Triton raises: refused)."""
    pytest.importorskip("triton")
    root = tmp_path / "hostproj"
    (root / "hostkit").mkdir(parents=True)
    (root / "hostkit" / "__init__.py").write_text("")
    (root / "hostkit" / "kernels.py").write_text(HOST_KERNELS)
    (root / "hostkit" / "ops.py").write_text(HOST_OPS)
    (root / "tests").mkdir()
    (root / "tests" / "test_host.py").write_text(HOST_TESTS)
    said: list[str] = []
    index = run(Options(root=root, tests=["tests"], out=tmp_path / "out", target=TARGETS["h200"], paths=["."],
                        max_alloc_bytes=1 << 30, timeout_s=60, say=said.append))
    rows = {r["kernel"]: r for r in index["kernels"]}
    assert sorted(rows) == ["act@14", "act@18", "tri_add", "tri_copy"]
    assert rows["tri_add"]["autotuned"] == [{"configs": 2, "taken": rows["tri_add"]["autotuned"][0]["taken"]}]
    assert [(k["kernel"], bool(k.get("refused"))) for k in index["not_launched"]] == [("cast_kernel", True)]
    assert {k.name for k in scan(root)} == {"cast_kernel", "act@14", "act@18", "tri_add", "tri_copy"}
    (tf,) = index["test_files"]
    assert tf["outcomes"] == {"passed": 4, "failed": 1} and tf["rejected"] == 3 and tf["unrecorded"] == 0
    assert any("3 refused by the launch (raised in the test, as on a GPU)" in s for s in said)
    assert sum(e["count"] for e in index["rejected_launches"]) == 3
    assert any("LaunchRejected: cast_kernel: ct.launch refuses the arguments" in f for f in tf["failures"])
