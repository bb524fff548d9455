"""Read the target architecture out of a cubin's ELF header (no CUDA needed)."""
from __future__ import annotations

import struct
from pathlib import Path

EM_CUDA = 190


def cubin_arch(path: Path) -> str:
    """``"sm_90"`` for a cubin built for sm_90. Raises ValueError for anything that is not a 64-bit CUDA ELF."""
    head = path.read_bytes()[:64]
    if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2:
        raise ValueError(f"{path}: not a 64-bit ELF file")
    machine = struct.unpack_from("<H", head, 18)[0]
    if machine != EM_CUDA:
        raise ValueError(f"{path}: ELF machine {machine}, not NVIDIA CUDA ({EM_CUDA})")
    flags = struct.unpack_from("<I", head, 48)[0]
    abi_version = head[8]
    # CUDA ELF ABI v8 (CUDA 12.8+) keeps the SM number in bits 8..15; older ABIs in bits 0..7.
    sm = (flags >> 8) & 0xFF if abi_version >= 8 else flags & 0xFF
    return f"sm_{sm}"
