"""Shared fixtures: the real CUDA tree, planted broken trees, the older libnvvm, and the GPU skip rule."""
from __future__ import annotations

import importlib.util

import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from tileport.toolchain import gpu as gpumod
from tileport.toolchain import pins as pinsmod
from tileport.toolchain.locate import CudaTree, find_cuda_tree

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / ".cache"

#: a test that builds a port's Rust (cargo, then the IR diff), skipped with the reason where cargo is missing
needs_cargo = pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo (the port's build) not installed")


def _gpu_reason() -> str | None:
    try:
        info = gpumod.probe()
    except gpumod.NoDriver as exc:
        return f"no NVIDIA GPU on this machine ({exc})"
    return None if info.gpus else "NVIDIA driver present but no GPU visible"


#: Test files by their measured cost on the 2-core CI machine, most expensive first (seconds of one worker, `pytest
#: tests/FILE.py --durations=5` on 2026-12-05: each re-ports a batch of kernels through cargo and the IR diff). They
#: start first so that the two workers of `./dev test` end together: `--dist loadfile` hands out files in collection
#: order (pytest_configure turns off xdist's own reordering, by number of tests, which started the two-test corpus
#: re-ports last and left one worker idle for minutes).
HEAVY_FIRST = ("test_ops_static.py", "test_triton_frontend.py", "test_port.py", "test_corpus_triton.py",
               "test_bundle.py", "test_fuzz.py", "test_runtime.py", "test_served.py", "test_corpus_tilegym.py")


def _cost_rank(item) -> int:
    name = Path(str(item.fspath)).name
    return HEAVY_FIRST.index(name) if name in HEAVY_FIRST else len(HEAVY_FIRST)


def pytest_configure(config):
    if hasattr(config.option, "loadscopereorder"):   # pytest-xdist present (not on every GPU host)
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config, items):
    items.sort(key=_cost_rank)   # stable: a file's own tests keep their order
    reason = _gpu_reason()
    if reason is None:
        return
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=f"GPU test: {reason}; run it on the GPU host (docs/gpu.md)"))


@pytest.fixture(scope="session")
def tree() -> CudaTree:
    return find_cuda_tree()


@pytest.fixture(scope="session")
def old_libnvvm() -> Path:
    """libnvvm.so.4 of CUDA 13.0 (the release the H200 image's /usr/local/cuda has), fetched once from PyPI."""
    version = pinsmod.load().old_nvvm
    target = CACHE / "fixtures" / f"nvvm-{version}" / "libnvvm.so.4"
    if target.exists():
        return target
    wheels = CACHE / "fixtures" / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    hits = sorted(wheels.glob(f"nvidia_nvvm-{version}-*.whl"))
    if not hits:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d",
                        str(wheels), f"nvidia-nvvm=={version}"], check=True)
        hits = sorted(wheels.glob(f"nvidia_nvvm-{version}-*.whl"))
    with zipfile.ZipFile(hits[-1]) as z:
        member = next(n for n in z.namelist() if n.endswith("lib/libnvvm.so.4"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(z.read(member))
    return target


PLANT_FILES = ("bin/tileiras", "bin/tileirdisasm", "bin/ptxas", "lib/libnvvm.so.4")


@pytest.fixture
def plant(tree, tmp_path):
    """plant(drop=[...], replace={rel: path}) → a copy of the real tree with files removed or replaced.

    Binaries are hard links (copies across file systems): tileiras finds ptxas and ../lib/libnvvm.so.4 relative to
    its own resolved path, so a symlink would lead it back to the real tree. Headers are symlinked.
    """

    def make(drop: tuple[str, ...] = (), replace: dict[str, Path] | None = None) -> Path:
        replace = replace or {}
        root = tmp_path / "planted" / "nvidia" / "cu13"
        rels = list(PLANT_FILES) + [str(p.relative_to(tree.root)) for p in (tree.root / "include").rglob("*")
                                    if p.is_file()]
        for rel in rels:
            if rel in drop:
                continue
            src, dst = replace.get(rel, tree.root / rel), root / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            if rel.startswith("include/"):
                dst.symlink_to(src)
                continue
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy2(src, dst)
        return root

    return make


@pytest.fixture
def old_cuda_home(tmp_path, old_libnvvm) -> Path:
    """A CUDA_HOME like the H200 image's /usr/local/cuda: CUDA 13.0, with its libnvvm."""
    home = tmp_path / "cuda-13.0"
    lib64 = home / "nvvm" / "lib64"
    lib64.mkdir(parents=True)
    for name in ("libnvvm.so.4", "libnvvm.so"):
        (lib64 / name).symlink_to(old_libnvvm)
    (home / "version.json").write_text('{"cuda": {"name": "CUDA SDK", "version": "13.0.88"}}')
    return home


def run_tileport(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "tileport", *args], capture_output=True, text=True,
                          env=full_env, cwd=cwd or REPO)


def load_module(path: Path, name: str):
    """Import the Python file at ``path`` as a fresh module called ``name`` (a kernel source a test wrote, a fixture
    of kernels): cuda.tile reads a kernel's source through its module."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


#: a Triton copy kernel as host code (host_program's text) for the Triton runner's tests
TRITON_COPY_KERNEL = '''\
    import triton
    import triton.language as tl


    @triton.jit
    def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
'''


class UntaintedEmulation:
    """An emulation stand-in for a TritonRunner whose inputs no un-run kernel wrote."""

    def _tainted(self, t) -> bool:
        return False


def triton_copy_kernel(tmp_path: Path):
    """TRITON_COPY_KERNEL written as a host program (host_program) and run: its ``copy_kernel``."""
    import runpy

    return runpy.run_path(str(host_program(tmp_path, TRITON_COPY_KERNEL)))["copy_kernel"]


def host_program(tmp_path: Path, text: str) -> Path:
    """``text`` (dedented) written as ``tmp_path/host/prog.py``, a host program a capture test runs."""
    host = tmp_path / "host"
    host.mkdir(exist_ok=True)
    f = host / "prog.py"
    f.write_text(textwrap.dedent(text))
    return f
