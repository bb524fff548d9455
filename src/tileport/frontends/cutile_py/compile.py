"""Compile a cuTile Python kernel at a signature: Tile IR bytecode (cuda-tile's export API), its disassembly
(tileirdisasm) and an sm_XX cubin (tileiras) — all on the CPU."""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from ...errors import TileportError
from ...paths import bounded_name
from ...spec import signature as sigmod
from ...toolchain.locate import CudaTree, run_tool
from .loader import LoadedKernel


class CompileError(TileportError):
    """cuda-tile rejected the kernel at this signature (its message names the source location)."""


@dataclass(frozen=True)
class Compiled:
    symbol: str
    signature: str
    bytecode: Path
    disasm: Path
    cubin: Path | None

    def as_json(self) -> dict[str, str | None]:
        return {"symbol": self.symbol, "signature": self.signature, "bytecode": str(self.bytecode),
                "disasm": str(self.disasm), "cubin": str(self.cubin) if self.cubin else None}


def export_bytecode(kernel: LoadedKernel, sig: sigmod.Signature, tree: CudaTree,
                    hints: dict | None = None) -> tuple[str, bytes]:
    """(mangled symbol, Tile IR bytecode); ``hints``: compiled as ``kernel.replace_hints(**hints)`` (a launch at an
    autotuner's pick). The bytecode version is the newest our tileiras accepts, passed explicitly so cuda-tile never
    runs a tileiras of its own choosing."""
    from cuda.tile.compilation import export_kernel

    try:
        ks = sigmod.to_cutile(sig).with_mangled_symbol(kernel.name)
        buf = io.BytesIO()
        target = kernel.kernel.replace_hints(**hints) if hints else kernel.kernel
        export_kernel(target, [ks], buf, output_format="tileir_bytecode",
                      bytecode_version=tree.bytecode_versions[-1])
    except TileportError:
        raise
    except Exception as exc:  # cuda-tile's own errors (TileError & co., ValueError, TypeError) carry the story
        hint = (f"\n    (the kernel reads a name from {' or '.join(kernel.absent)}, which is not installed here: only "
                "its host code may use it)" if kernel.absent and "loader.Absent" in str(exc) else "")
        raise CompileError(f"{kernel.ref} at ({sig.text()}): cuda-tile rejected it: "
                           f"{type(exc).__name__}: {exc}".rstrip() + hint) from exc
    return ks.symbol, buf.getvalue()


def disassemble(tree: CudaTree, bytecode: Path) -> str:
    return run_tool(tree, "tileirdisasm", [str(bytecode)]).stdout


def assemble(tree: CudaTree, bytecode: Path, cubin: Path, arch: str) -> None:
    run_tool(tree, "tileiras", [f"--gpu-name={arch}", "-o", str(cubin), str(bytecode)])


def compile_kernel(kernel: LoadedKernel, sig: sigmod.Signature, tree: CudaTree, out: Path,
                   arch: str | None, hints: dict | None = None) -> Compiled:
    out.mkdir(parents=True, exist_ok=True)
    symbol, bc = export_bytecode(kernel, sig, tree, hints)
    stem = bounded_name(symbol)  # a mangled symbol can be longer than a file name may be
    bc_path = out / f"{stem}.tileirbc"
    bc_path.write_bytes(bc)
    txt_path = out / f"{stem}.tileir.txt"
    txt_path.write_text(disassemble(tree, bc_path))
    cubin = None
    if arch:
        cubin = out / f"{stem}.{arch}.cubin"
        assemble(tree, bc_path, cubin, arch)
    return Compiled(symbol, sig.text(), bc_path, txt_path, cubin)
