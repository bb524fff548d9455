"""Offline toolchain bundles for GPU hosts without network: ``tileport toolchain pack`` / ``unpack``.

A bundle is one ``.tar.xz`` holding what compiling and running Tile IR needs on a host that has only a driver and
Python: tileiras, tileirdisasm, ptxas and libnvvm.so.4 in the pip layout (``site/nvidia/cu13/{bin,lib}``, plus the
three wheels' ``METADATA`` so cuda-tile recognises the tree as its pip toolchain and drops ``CUDA_HOME`` itself),
the cuda-tile wheel for the target Python, the built ``tileport-probe`` (``bin/``; doctor launches it on a GPU to
prove cutile's runtime works there) and optionally built cdylibs (``lib/``). ``manifest.json`` (the first member)
records every file's SHA-256, size and mode; a sidecar ``BUNDLE.sha256`` covers the archive.

Unpacking verifies the sidecar, refuses unsafe members, checks each file's checksum while writing it, installs the
wheels into ``DEST/site`` and writes ``DEST/env.sh``. Stdlib only: it runs on the bare GPU host.

Compression is xz with the x86 BCJ filter and a 256 MiB dictionary: 226 MB of CUDA binaries pack to about 55 MB
(plain ``xz -9e``: 60 MB).
"""
from __future__ import annotations

import hashlib
import io
import json
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable

from ..errors import BundleError
from . import pins as pinsmod
from .locate import CudaTree, release_of_binary

FORMAT = 1
TOP = "tileport-bundle"
MAX_MB_DEFAULT = 60
#: pip distributions whose METADATA makes cuda-tile accept the tree as "its" pip toolchain.
TOOL_DISTS = ("nvidia_cuda_tileiras", "nvidia_cuda_nvcc", "nvidia_nvvm")
TOOL_FILES = ("bin/tileiras", "bin/tileirdisasm", "bin/ptxas", "lib/libnvvm.so.4")
#: what only the IR diff runs (never on a GPU host): ``pack(..., disasm=False)`` leaves it out
DISASM_FILES = ("bin/tileirdisasm",)
WHEEL_PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_17_x86_64",
                   "manylinux2014_x86_64")

Progress = Callable[[str], None]


def _filters(fast: bool) -> list[dict]:
    if fast:  # for tests and quick iterations: same format, ~10x faster, larger
        return [{"id": lzma.FILTER_X86}, {"id": lzma.FILTER_LZMA2, "preset": 1}]
    return [{"id": lzma.FILTER_X86},
            {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": 256 << 20}]


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@dataclass(frozen=True)
class Entry:
    arcname: str  # relative to TOP
    source: Path
    mode: int = 0o644


def _dist_info_metadata(tree: CudaTree, dist: str) -> Entry:
    site = tree.root.parents[1]  # .../site-packages/nvidia/cu13 → .../site-packages
    hits = sorted(site.glob(f"{dist}-*.dist-info/METADATA"))
    if not hits:
        raise BundleError(f"cannot pack: {dist} is not installed beside {tree.root} (no {dist}-*.dist-info); "
                          "pack from a pip-installed toolchain (`./dev setup`)")
    return Entry(f"site/{hits[-1].parent.name}/METADATA", hits[-1])


def download_wheel(requirement: str, python: str, cache: Path, progress: Progress) -> Path:
    """Fetch a binary wheel for CPython ``python`` (e.g. "3.12") into ``cache`` (reused when present)."""
    cache.mkdir(parents=True, exist_ok=True)
    name, _, version = requirement.partition("==")
    tag = "cp" + python.replace(".", "")
    pattern = f"{name.replace('-', '_')}-{version}-{tag}-*.whl"
    hits = sorted(cache.glob(pattern))
    if hits:
        return hits[-1]
    progress(f"downloading {requirement} for Python {python}")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--python-version", python,
           "--implementation", "cp", "-d", str(cache), requirement]
    for plat in WHEEL_PLATFORMS:
        cmd += ["--platform", plat]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    hits = sorted(cache.glob(pattern))
    if proc.returncode != 0 or not hits:
        raise BundleError(f"cannot download {requirement} for Python {python}: {proc.stderr.strip()[-600:]}\n"
                          "pass the wheel with --wheel instead")
    return hits[-1]


def collect(tree: CudaTree, wheels: list[Path], cdylibs: list[Path], binaries: list[Path] = (),
            disasm: bool = True) -> list[Entry]:
    entries: list[Entry] = []
    for rel in TOOL_FILES if disasm else [f for f in TOOL_FILES if f not in DISASM_FILES]:
        src = tree.root / rel
        if not src.exists():
            raise BundleError(f"cannot pack: {src} is missing (run `tileport doctor`)")
        entries.append(Entry(f"site/nvidia/cu13/{rel}", src, 0o755 if rel.startswith("bin/") else 0o644))
    entries += [_dist_info_metadata(tree, d) for d in TOOL_DISTS]
    for w in wheels:
        if not w.name.endswith(".whl") or not w.is_file():
            raise BundleError(f"--wheel {w}: not a .whl file")
        entries.append(Entry(f"wheels/{w.name}", w))
    for lib in cdylibs:
        if not lib.is_file():
            raise BundleError(f"--cdylib {lib}: no such file")
        entries.append(Entry(f"lib/{lib.name}", lib, 0o755))
    for exe in binaries:
        if not exe.is_file():
            raise BundleError(f"{exe}: no such file")
        entries.append(Entry(f"bin/{exe.name}", exe, 0o755))
    return entries


def pack(tree: CudaTree, out: Path, *, wheels: list[Path], cdylibs: list[Path], python: str,
         binaries: list[Path] = (), max_mb: float = MAX_MB_DEFAULT, fast: bool = False, disasm: bool = True,
         progress: Progress = lambda s: None) -> dict:
    """Write the bundle to ``out`` and ``out.sha256``; return the manifest. Raises if it exceeds ``max_mb``.
    ``disasm=False`` leaves tileirdisasm out (a GPU host compiles and launches; only the IR diff disassembles)."""
    entries = collect(tree, wheels, cdylibs, binaries, disasm)
    rel = release_of_binary(tree.tileiras)
    files = {}
    for e in entries:
        files[e.arcname] = {"sha256": sha256_file(e.source), "size": e.source.stat().st_size, "mode": e.mode}
    manifest = {
        "format": FORMAT,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cuda_release": rel[0] if rel else None,
        "cuda_version": rel[1] if rel else None,
        "python": python,
        "pins": {"cuda-tile": pinsmod.load().cuda_tile, "cuda-toolkit": pinsmod.load().cuda_toolkit},
        "files": files,
    }
    raw = sum(f["size"] for f in files.values())
    progress(f"packing {len(files)} files, {raw / 1e6:.0f} MB, xz ({'fast' if fast else '9e + x86 BCJ'}) …")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".partial")
    t0 = time.monotonic()
    try:
        _write_archive(tmp, entries, files, manifest, fast, progress, max_mb)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    size_mb = tmp.stat().st_size / 1e6
    if size_mb > max_mb:
        tmp.unlink()
        raise BundleError(f"bundle would be {size_mb:.1f} MB, over the {max_mb:g} MB limit; drop cdylibs or "
                          "raise --max-mb")
    tmp.replace(out)
    Path(str(out) + ".sha256").write_text(f"{sha256_file(out)}  {out.name}\n")
    progress(f"wrote {out} ({size_mb:.1f} MB, {raw / 1e6 / max(size_mb, 1e-9):.1f}x) in {time.monotonic() - t0:.0f} s")
    return manifest


def _write_archive(tmp: Path, entries: list[Entry], files: dict, manifest: dict, fast: bool,
                   progress: Progress, max_mb: float = float("inf")) -> None:
    with tmp.open("wb") as raw, \
            lzma.LZMAFile(_SizeGuard(raw, max_mb), "wb", format=lzma.FORMAT_XZ, filters=_filters(fast)) as xz, \
            tarfile.open(fileobj=xz, mode="w|", format=tarfile.PAX_FORMAT) as tar:
        _add_bytes(tar, f"{TOP}/manifest.json", json.dumps(manifest, indent=1, sort_keys=True).encode(), 0o644)
        for i, e in enumerate(entries, 1):
            progress(f"  [{i}/{len(entries)}] {e.arcname}")
            info = tarfile.TarInfo(f"{TOP}/{e.arcname}")
            info.size, info.mode, info.mtime = files[e.arcname]["size"], e.mode, 0
            with e.source.open("rb") as f:
                hashing = _HashingReader(f)
                tar.addfile(info, hashing)
            if hashing.hexdigest() != files[e.arcname]["sha256"] or hashing.size != info.size:
                raise BundleError(f"{e.source} changed while it was being packed (a build running at the same "
                                  "time?); pack again")


class _SizeGuard:
    """The archive's file, which stops the pack as soon as the compressed bytes pass ``max_mb`` (a bundle over the
    limit fails after compressing about that much, not after compressing everything)."""

    def __init__(self, f, max_mb: float):
        self._f, self._max_mb, self.size, self.over = f, max_mb, 0, False

    def write(self, data) -> int:
        if self.over:  # the pack is failing: what the compressor flushes on the way out goes nowhere
            return len(data)
        self.size += len(data)
        if self.size > self._max_mb * 1e6:
            self.over = True
            raise BundleError(f"bundle would be more than {self.size / 1e6:.1f} MB, over the {self._max_mb:g} MB "
                              "limit (packing stopped there); drop cdylibs or raise --max-mb")
        return self._f.write(data)

    def flush(self) -> None:
        self._f.flush()


class _HashingReader:
    """File wrapper that hashes what tarfile reads, so a file modified during packing is caught."""

    def __init__(self, f):
        self._f, self._h, self.size = f, hashlib.sha256(), 0

    def read(self, n: int = -1) -> bytes:
        data = self._f.read(n)
        self._h.update(data)
        self.size += len(data)
        return data

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes, mode: int) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), mode, 0
    tar.addfile(info, io.BytesIO(data))


def _safe_rel(name: str) -> str:
    p = PurePosixPath(name)
    if p.is_absolute() or ".." in p.parts or not p.parts or p.parts[0] != TOP:
        raise BundleError(f"unsafe or foreign member {name!r} in bundle; refusing to unpack")
    return str(PurePosixPath(*p.parts[1:]))


def unpack(bundle: Path, dest: Path, *, progress: Progress = lambda s: None) -> dict:
    """Verify and extract ``bundle`` into ``dest``; install its wheels into ``dest/site``; write ``dest/env.sh``."""
    if not bundle.is_file():
        raise BundleError(f"{bundle}: no such file")
    sidecar = Path(str(bundle) + ".sha256")
    if sidecar.exists():
        want = sidecar.read_text().split()[0]
        got = sha256_file(bundle)
        if want != got:
            raise BundleError(f"{bundle}: checksum mismatch (sha256 {got}, {sidecar.name} says {want}); the file "
                              "is corrupt or truncated — copy it again")
    dest.mkdir(parents=True, exist_ok=True)
    manifest: dict | None = None
    seen: set[str] = set()
    try:
        with tarfile.open(bundle, mode="r|xz") as tar:
            for member in tar:
                rel = _safe_rel(member.name)
                if not member.isfile():
                    raise BundleError(f"{bundle}: member {member.name} is not a regular file; refusing to unpack")
                f = tar.extractfile(member)
                assert f is not None
                if manifest is None:
                    if rel != "manifest.json":
                        raise BundleError(f"{bundle}: first member is {rel}, not manifest.json — not a tileport bundle")
                    manifest = json.loads(f.read())
                    if manifest.get("format") != FORMAT:
                        raise BundleError(f"{bundle}: bundle format {manifest.get('format')}, expected {FORMAT}")
                    continue
                spec = manifest["files"].get(rel)
                if spec is None:
                    raise BundleError(f"{bundle}: {rel} is not listed in the manifest; refusing to unpack")
                target = dest / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                h = hashlib.sha256()
                with target.open("wb") as outf:
                    for chunk in iter(lambda: f.read(1 << 20), b""):
                        h.update(chunk)
                        outf.write(chunk)
                if h.hexdigest() != spec["sha256"]:
                    target.unlink()
                    raise BundleError(f"{bundle}: {rel} is corrupt (sha256 {h.hexdigest()}, manifest says "
                                      f"{spec['sha256']})")
                os.chmod(target, spec["mode"])
                seen.add(rel)
                progress(f"  {rel} ok")
    except (tarfile.TarError, lzma.LZMAError, EOFError, json.JSONDecodeError) as exc:
        raise BundleError(f"{bundle}: not a readable tileport bundle ({type(exc).__name__}: {exc}); the file is "
                          "corrupt or truncated — copy it again") from exc
    if manifest is None:
        raise BundleError(f"{bundle}: empty archive")
    missing = sorted(set(manifest["files"]) - seen)
    if missing:
        raise BundleError(f"{bundle}: incomplete, missing {', '.join(missing)}")
    for wheel in sorted((dest / "wheels").glob("*.whl")):
        progress(f"installing {wheel.name} into {dest / 'site'}")
        install_wheel(wheel, dest / "site")
    write_env(dest)
    check_python(manifest, progress)
    return manifest


def install_wheel(wheel: Path, site: Path) -> None:
    """Unpack a wheel into ``site`` (what ``pip install --target`` does for a wheel without scripts)."""
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    for data_dir in site.glob("*.data"):
        for sub in ("purelib", "platlib"):
            if (data_dir / sub).is_dir():
                shutil.copytree(data_dir / sub, site, dirs_exist_ok=True)
        shutil.rmtree(data_dir)


def write_env(dest: Path) -> Path:
    dest = dest.resolve()
    cu = dest / "site" / "nvidia" / "cu13"
    env = dest / "env.sh"
    env.write_text(
        "# Written by `tileport toolchain unpack`. Source it: `source env.sh`.\n"
        f'export TILEPORT_BUNDLE="{dest}"\n'
        f'export TILEPORT_CUDA_ROOT="{cu}"\n'
        f'export CUTILE_TILEIRAS_PATH="{cu}/bin/tileiras"\n'
        f'export PYTHONPATH="{dest}/site${{PYTHONPATH:+:$PYTHONPATH}}"\n'
        f'export LD_LIBRARY_PATH="{dest}/lib${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"\n'
        "export TILEPORT_PROFILE=runtime\n")
    return env


def check_python(manifest: dict, progress: Progress) -> None:
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    if manifest.get("python") and manifest["python"] != here:
        progress(f"note: the bundle's wheels are for Python {manifest['python']}; this is Python {here}")
