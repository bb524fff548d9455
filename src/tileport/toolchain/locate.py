"""Find the pip-layout CUDA tree (``nvidia/cu13``) and run its tools with an environment that cannot break them.

The tree is looked up, in order, at:

1. ``$TILEPORT_CUDA_ROOT`` (a directory with ``bin/``, ``lib/``, ``include/``), set by an unpacked offline bundle's
   ``env.sh`` or by hand;
2. every entry of the ``nvidia.cu13`` namespace package (the pip wheels ``nvidia-cuda-tileiras``,
   ``nvidia-cuda-nvcc``, ``nvidia-nvvm``, ...), first one that holds ``bin/tileiras``.

tileiras loads libnvvm from ``$CUDA_HOME/nvvm/lib64`` whenever ``CUDA_HOME`` is set, even to a directory that does
not exist, and then exits with code 5 ("failed to compile Tile IR program"). :func:`tool_env` therefore removes
``CUDA_HOME`` and ``CUDA_PATH`` for every tool tileport runs.
"""
from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..errors import ToolchainError, ToolFailed

ROOT_ENV = "TILEPORT_CUDA_ROOT"
#: Variables that make tileiras load a foreign libnvvm.
POISON_VARS = ("CUDA_HOME", "CUDA_PATH")
#: The banner every CUDA 13 tool and library carries.
RELEASE_RE = re.compile(rb"Cuda compilation tools, release (\d+\.\d+), V(\d+\.\d+\.\d+)")
#: tileiras's exit code when it cannot use the libnvvm it loaded.
TILEIRAS_NVVM_EXIT = 5


@dataclass(frozen=True)
class CudaTree:
    """A CUDA tree in the pip layout: ``bin/{tileiras,tileirdisasm,ptxas}``, ``lib/libnvvm.so.4``, ``include/``."""

    root: Path
    source: str

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def lib(self) -> Path:
        return self.root / "lib"

    @property
    def include(self) -> Path:
        return self.root / "include"

    @property
    def tileiras(self) -> Path:
        return self.bin / "tileiras"

    @property
    def tileirdisasm(self) -> Path:
        return self.bin / "tileirdisasm"

    @property
    def ptxas(self) -> Path:
        return self.bin / "ptxas"

    @property
    def libnvvm(self) -> Path:
        return self.lib / "libnvvm.so.4"

    @cached_property
    def bytecode_versions(self) -> list[str]:
        """Tile IR bytecode versions this tileiras accepts, oldest first."""
        out = run_tool(self, "tileiras", ["--list-versions"]).stdout
        return [line.strip() for line in out.splitlines() if re.fullmatch(r"\d+\.\d+", line.strip())]

    def cargo_env(self) -> dict[str, str]:
        """What cargo needs to build the cutile crate against this tree (bindgen reads cuda.h, curand.h, crt/)."""
        return {"CUDA_TOOLKIT_PATH": str(self.root), "CUTILE_TILEIRAS_PATH": str(self.tileiras)}


def _pip_roots() -> list[Path]:
    try:
        import nvidia.cu13 as cu13  # type: ignore[import-not-found]
    except ImportError:
        return []
    return [Path(p) for p in getattr(cu13, "__path__", [])]


def find_cuda_tree() -> CudaTree:
    """Return the CUDA tree tileport uses, or raise :class:`ToolchainError` saying where it looked."""
    explicit = os.environ.get(ROOT_ENV)
    if explicit:
        root = Path(explicit)
        if not root.is_dir():
            raise ToolchainError(f"${ROOT_ENV}={explicit} is not a directory; unset it or point it at a CUDA tree "
                                 f"in the pip layout (bin/tileiras, lib/libnvvm.so.4, include/)")
        return CudaTree(root, f"${ROOT_ENV}")
    roots = _pip_roots()
    for root in roots:
        if (root / "bin" / "tileiras").exists():
            return CudaTree(root, "pip (nvidia.cu13)")
    looked = ", ".join(str(r) for r in roots) or "no nvidia.cu13 package importable"
    raise ToolchainError(
        "no CUDA tree with tileiras found (looked at: " + looked + "). Run `./dev setup` (installs the pinned "
        "cuda-toolkit[...,tileiras] wheels), or unpack an offline bundle and `source DEST/env.sh`.")


def tool_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """A copy of the environment safe for tileiras and friends: ``CUDA_HOME``/``CUDA_PATH`` removed."""
    env = dict(os.environ if base is None else base)
    for var in POISON_VARS:
        env.pop(var, None)
    return env


def run_tool(tree: CudaTree, tool: str, args: list[str], *, env: dict[str, str] | None = None,
             timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run ``tool`` from the tree's ``bin/`` with :func:`tool_env` (unless ``env`` is given explicitly)."""
    exe = tree.bin / tool
    if not exe.exists():
        raise ToolchainError(f"{tool} not found at {exe}")
    argv = [str(exe), *args]
    proc = subprocess.run(argv, env=tool_env() if env is None else env, capture_output=True, text=True,
                          timeout=timeout)
    if check and proc.returncode != 0:
        hint = ""
        if tool == "tileiras" and proc.returncode == TILEIRAS_NVVM_EXIT:
            hint = (f"(exit code {TILEIRAS_NVVM_EXIT} is how tileiras reports a libnvvm it cannot use: check that "
                    f"{tree.libnvvm} is the same CUDA release as tileiras, and that CUDA_HOME is unset; "
                    "`tileport doctor` checks both)")
        raise ToolFailed(tool, argv, proc.returncode, proc.stderr, hint)
    return proc


def release_of_binary(path: Path) -> tuple[str, str] | None:
    """(release, full version) from the CUDA banner embedded in a binary or library, e.g. ("13.4", "13.4.92")."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    m = RELEASE_RE.search(data)
    return (m.group(1).decode(), m.group(2).decode()) if m else None


def release_of_tool(tree: CudaTree, tool: str) -> tuple[str, str] | None:
    """(release, full version) that ``tool --version`` prints."""
    proc = run_tool(tree, tool, ["--version"], check=False, timeout=60)
    m = RELEASE_RE.search((proc.stdout + proc.stderr).encode())
    return (m.group(1).decode(), m.group(2).decode()) if m else None


def cuda_h_version(include: Path) -> int | None:
    """The CUDA_VERSION macro of ``include/cuda.h`` (13040 for 13.4), or None."""
    try:
        text = (include / "cuda.h").read_text(errors="replace")
    except OSError:
        return None
    m = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", text)
    return int(m.group(1)) if m else None
