"""Pinned toolchain versions, read from pins.toml (stdlib only: runs before the venv exists).

`python3 src/tileport/toolchain/pins.py requirements` prints the requirement lines that `./dev setup` installs; `pins.py
uv` the installer's pinned version.
"""
from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PINS_FILE = Path(__file__).with_name("pins.toml")


@dataclass(frozen=True)
class Pins:
    cuda_tile: str
    cuda_toolkit: str
    cuda_toolkit_extras: tuple[str, ...]
    triton: str
    cuda_release: str
    min_cuda_h_version: int
    default_arch: str
    cutile_crate: str
    min_rustc: str
    old_nvvm: str
    uv: str

    def requirements(self) -> list[str]:
        extras = ",".join(self.cuda_toolkit_extras)
        return [f"cuda-tile=={self.cuda_tile}", f"cuda-toolkit[{extras}]=={self.cuda_toolkit}",
                f"triton=={self.triton}"]


@cache
def load() -> Pins:
    data = tomllib.loads(PINS_FILE.read_text())
    py, cuda, rust = data["python"], data["cuda"], data["rust"]
    return Pins(
        cuda_tile=py["cuda-tile"],
        cuda_toolkit=py["cuda-toolkit"],
        cuda_toolkit_extras=tuple(py["cuda-toolkit-extras"]),
        triton=py["triton"],
        cuda_release=cuda["release"],
        min_cuda_h_version=int(cuda["min-cuda-h-version"]),
        default_arch=cuda["default-arch"],
        cutile_crate=rust["cutile"],
        min_rustc=rust["min-rustc"],
        old_nvvm=data["fixtures"]["old-nvvm"],
        uv=data["setup"]["uv"],
    )


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "requirements"
    if what == "requirements":
        print("\n".join(load().requirements()))
    elif what == "old-nvvm":
        print(load().old_nvvm)
    elif what == "uv":
        print(load().uv)
    else:
        sys.exit(f"usage: pins.py [requirements|old-nvvm|uv], got {what!r}")
