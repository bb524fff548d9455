"""``tileport ops build``: port every operator's kernel at the specializations its host wrapper launches, keep the
proven ports, generate the library's Rust (abi.rs, ffi.rs, ports/) and build the cdylib.

The library's freshness is a content hash of everything it is built from (generated and hand-written Rust, the
lock file, tileport's version, the toolchain pins); it is written next to the built library and compared on load.
Each operator's entry in ``ports.json`` records the SHA-256 of its kernel's Python source, so an edited kernel is
noticed and re-ported (see ``library``).
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import subprocess
import tempfile
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Callable

from .. import __version__, paths
from ..errors import TileportError
from ..locks import hold
from ..rustgen.ffi import ffi_rs, ports_mod_rs
from ..toolchain.locate import tool_env
from .abi import rust_abi

Progress = Callable[[str], None]
LIB_NAME = "libtileport_ops.so"
#: The Python extension the cutile-rs backend launches through (`rust/tileport-native`), built beside the library.
NATIVE_NAME = "libtileport_native.so"
#: The crates under rust/ that `tileport ops build` builds: the kernel library and its Python extension.
CRATES = ("tileport-ops", "tileport-native")
#: A served library (runtime.served): its cdylib and the manifest beside it.
SERVED_NAME = "libtileport_served.so"
SERVED_MANIFEST = "ports.json"


class LibraryBuildError(TileportError):
    pass


def crate_dir() -> Path:
    ws = paths.rust_workspace()
    if ws is None:
        raise LibraryBuildError("no Rust workspace (rust/Cargo.toml) found: the library is built from tileport's "
                                "checkout (or set TILEPORT_RUST_DIR)")
    return ws / "tileport-ops"


def manifest_path(crate: Path | None = None) -> Path:
    return (crate or crate_dir()) / "ports.json"


def built_library() -> Path:
    ws = paths.rust_workspace()
    assert ws is not None
    return paths.cargo_target_dir(ws) / "release" / LIB_NAME


def library_path() -> Path:
    """The library the cutile-rs backend loads: $TILEPORT_LIBRARY (an unpacked one), else the workspace build."""
    explicit = os.environ.get("TILEPORT_LIBRARY")
    return Path(explicit) if explicit else built_library()


def native_path(library: Path) -> Path:
    """The Python extension that goes with ``library`` (built, packed and unpacked beside it)."""
    return library.with_name(NATIVE_NAME)


def inputs_hash() -> str:
    """SHA-256 over everything the library and its Python extension are built from."""
    ws = paths.rust_workspace()
    assert ws is not None
    crate = crate_dir()
    h = hashlib.sha256(f"tileport {__version__}\n".encode())
    files = [f for name in CRATES for f in sorted((ws / name).rglob("*.rs")) + [ws / name / "Cargo.toml"]]
    files += [ws / "Cargo.toml", ws / "Cargo.lock", paths.PACKAGE_DIR / "toolchain" / "pins.toml"]
    for f in files:
        h.update(str(f.relative_to(crate.parent.parent)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def build_lock() -> AbstractContextManager[None]:
    """An exclusive file lock around porting/building, so concurrent processes never build over each other; a
    process that has to wait says so ("waiting for the build lock held by PID N")."""
    return hold(crate_dir() / ".build.lock", "the build lock")


def op_signatures(name: str) -> list[str]:
    """The specializations an operator's host wrapper launches (its module's PORT_SIGNATURES)."""
    module = importlib.import_module(f"tileport.ops.{name}")
    return list(module.PORT_SIGNATURES)


def kernel_source(name: str) -> Path:
    from ..kernels import kernel_path

    return kernel_path(name)


def port_ops(names: list[str], signatures: dict[str, list[str]], progress: Progress = lambda s: None,
             crate: Path | None = None) -> dict:
    """Port each operator's kernel (one shared cargo build) and record the outcome per operator in ports.json;
    proven ports are copied into the crate's src/ports/ (``crate``: another copy of the crate, for checks)."""
    crate = crate or crate_dir()
    from ..pipeline.port import port_many
    from ..toolchain.locate import find_cuda_tree

    tree = find_cuda_tree()
    repo = paths.PACKAGE_DIR.parents[1]
    old = json.loads(manifest_path(crate).read_text()) if manifest_path(crate).exists() else {"ops": {}}
    with tempfile.TemporaryDirectory(prefix="tileport-ops-") as tmp:
        verdicts = port_many(_op_jobs(names, signatures, Path(tmp)), tree, "sm_90", Path(tmp) / "crate", progress)
        ops = dict(old.get("ops", {}))
        for name, verdict in zip(names, verdicts):
            out = Path(tmp) / name
            entry = {"source": str(kernel_source(name).relative_to(repo)), "status": verdict["status"],
                     "signatures": signatures[name]}
            if verdict["status"] == "proven":
                m = json.loads((out / "port.json").read_text())
                shutil.copy(out / "kernel.rs", crate / "src" / "ports" / f"{name}.rs")
                entry.update(recorded(m))
            else:
                entry["why"] = verdict_reason(verdict)
                (crate / "src" / "ports" / f"{name}.rs").unlink(missing_ok=True)
            ops[name] = entry
    manifest = {"comment": "Generated by `tileport ops build`: the ports in the library (proven ones only are "
                           "compiled in) and what each was proven at. Do not edit.", "ops": dict(sorted(ops.items()))}
    manifest_path(crate).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def recorded(port: dict) -> dict:
    """What ports.json records of a proven port, from its port.json: source hash, entries, ABI, variants (signature,
    entry, generics) and unsafe sites (without their file: the library's copy lives elsewhere)."""
    return {"source_sha256": port["source_sha256"], "entries": port["entries"], "abi": port["abi"],
            "variants": [{k: v[k] for k in ("signature", "entry", "generics")} for v in port["variants"]],
            "unsafe_sites": [{k: u[k] for k in u if k != "file"} for u in port["unsafe_sites"]]}


def _op_jobs(names: list[str], signatures: dict[str, list[str]], work: Path) -> list[tuple]:
    """port_many's jobs for the operators ``names`` at ``signatures``, each into ``work/<name>``."""
    from ..frontends.cutile_py.loader import load_kernel
    from ..spec.signature import bind, parse

    jobs = []
    for name in names:
        ref = f"{kernel_source(name)}::{name}"
        k = load_kernel(ref)
        jobs.append((ref, [bind(parse(s), k.param_names, name) for s in signatures[name]], [], work / name))
    return jobs


def translate_ops(names: list[str], signatures: dict[str, list[str]], work: Path,
                  progress: Progress = lambda s: None) -> dict[str, tuple[dict, Path]]:
    """The first two stages of ``port_ops`` (analyze, translate; no build, no IR diff) for each operator, into
    ``work/<name>``: name → (its verdict so far, its folder with kernel.rs and port.json). What the translator writes
    now, to compare with the committed ports, whose proof ``tileport ops build --port`` recorded in ports.json."""
    from ..pipeline.port import analyze_translate_many
    from ..toolchain.locate import find_cuda_tree

    jobs = _op_jobs(names, signatures, work)
    verdicts = analyze_translate_many(jobs, find_cuda_tree(), progress)
    return {name: (v, job[3]) for name, v, job in zip(names, verdicts, jobs)}


def verdict_reason(verdict: dict) -> str:
    """Why the port a verdict is of stopped: its first failed stage's reason (``failure_reason``)."""
    failed = next(s for s in ("analyze", "translate", "build", "irdiff") if not verdict["stages"].get(s, {}).get("ok"))
    return failure_reason(failed, verdict["stages"][failed])


def failure_reason(stage_name: str, stage: dict) -> str:
    """Why a port stopped, in one string: the failed stage's error, else (irdiff) the first variant's error or its
    first differences — an irgen failure sits in the variant, not in the stage."""
    if stage.get("error"):
        return f"{stage_name}: {stage['error']}"
    for v in stage.get("variants", []):
        if v.get("equivalent"):
            continue
        if v.get("error"):
            return f"{stage_name}: {v.get('symbol', '?')}: {v['error']}"
        if v.get("differences"):
            return f"{stage_name}: {v.get('symbol', '?')}: {json.dumps(v['differences'][:2])}"
    return f"{stage_name}: {json.dumps(stage.get('differences', [])[:2])}"


def generate(manifest: dict, crate: Path | None = None) -> None:
    """abi.rs, ffi.rs and ports/mod.rs from ports.json (only proven ops), and the Python extension's abi.rs
    (beside the library crate: ``crate``'s parent holds both)."""
    crate = crate or crate_dir()
    src = crate / "src"
    proven = [(name, op) for name, op in manifest["ops"].items() if op["status"] == "proven"]
    write_if_changed(src / "abi.rs", rust_abi_formatted())
    native = crate.parent / "tileport-native"
    if native.exists():
        write_if_changed(native / "src" / "abi.rs", rust_abi_formatted(exports=False))
    write_if_changed(src / "ffi.rs", ffi_rs(proven))
    write_if_changed(src / "ports" / "mod.rs", ports_mod_rs([name for name, _ in proven]))
    for stale in (src / "ports").glob("*.rs"):
        if stale.stem != "mod" and stale.stem not in dict(proven):
            stale.unlink()


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` unless the file already holds it: an unchanged file keeps its mtime, so cargo does not rebuild
    the library (minutes) because a stale stamp made `ops build` regenerate identical sources."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def rust_abi_formatted(exports: bool = True) -> str:
    from ..rustgen.module import rustfmt

    return rustfmt(rust_abi(exports))


def cargo_release(cwd: Path, args: list[str], what: str) -> Path:
    """``cargo build --release --offline ARGS`` in ``cwd`` with the toolchain's environment and the workspace's
    target dir (dependencies built once for every crate); returns that target dir. A failure is a
    LibraryBuildError naming ``what`` with cargo's message."""
    from ..toolchain.locate import find_cuda_tree

    target = paths.cargo_target_dir(crate_dir().parent)
    env = tool_env()
    env.update(find_cuda_tree().cargo_env())
    env["CARGO_TARGET_DIR"] = str(target)
    proc = subprocess.run(["cargo", "build", "--release", "--offline", *args, "--message-format", "short"],
                          cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise LibraryBuildError(f"cargo build of {what} failed:\n{proc.stderr.strip()[-4000:]}")
    return target


def build(progress: Progress = lambda s: None) -> Path:
    """cargo build of the cdylib; writes the inputs hash beside it."""
    # one crate per cargo run: built together, cargo would unify the features of the dependencies the pyo3
    # extension shares with cutile and compile cutile's tree again, apart from the one the port crates use
    for name in CRATES:
        progress(f"build: cargo build --release -p {name}")
        cargo_release(crate_dir().parent, ["-p", name], f"{name} (the operator library)")
    lib = built_library()
    Path(str(lib) + ".inputs-sha256").write_text(inputs_hash() + "\n")
    return lib


def all_ops() -> list[str]:
    """Every operator with a host wrapper (tileport.ops.<name>), i.e. every example kernel served to PyTorch."""
    from ..ops.registry import op_names

    return list(op_names())


def is_fresh(lib: Path | None = None) -> bool:
    lib = lib or built_library()
    stamp = Path(str(lib) + ".inputs-sha256")
    return lib.exists() and stamp.exists() and stamp.read_text().strip() == inputs_hash()


def ops_build(names: list[str] | None, *, port: bool, if_stale: bool = False,
              progress: Progress = lambda s: None) -> dict:
    """The `tileport ops build` job: (re-)port ``names`` (all ops by default) if asked, regenerate the library's
    Rust and build it — all under the build lock (freshness is decided inside it, so of several processes that
    find the library stale, one builds and the others find it fresh)."""
    with build_lock():
        manifest = json.loads(manifest_path().read_text()) if manifest_path().exists() else {"ops": {}}
        if if_stale and not port and is_fresh():
            progress(f"fresh: {built_library()} (nothing to build)")
            return {"library": str(built_library()), "built": False,
                    "ops": {n: o["status"] for n, o in manifest["ops"].items()}}
        if port:
            names = names or all_ops()
            manifest = port_ops(names, {n: op_signatures(n) for n in names}, progress)
        generate(manifest)
        lib = build(progress)
    return {"library": str(lib), "built": True, "ops": {n: o["status"] for n, o in manifest["ops"].items()},
            "why": {n: o["why"] for n, o in manifest["ops"].items() if o["status"] != "proven" and o.get("why")}}


def pack_library(dest: Path) -> Path:
    """The built library and its Python extension, with the inputs stamp, as one xz-compressed tar for a GPU host
    without cargo (~3 MB)."""
    lib = built_library()
    if not is_fresh(lib) or not native_path(lib).exists():
        raise LibraryBuildError(f"{lib} (or {NATIVE_NAME} beside it) is missing or stale: run `tileport ops build` "
                                "first")
    pack_files([lib, native_path(lib), Path(str(lib) + ".inputs-sha256")], dest)
    Path(str(dest) + ".inputs-sha256").write_text(inputs_hash() + "\n")
    return dest


def pack_files(files: list[Path], dest: Path) -> None:
    """``files`` (by their names, no folders) as one xz-compressed tar at ``dest``."""
    import tarfile

    dest.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(dest, "w:xz") as tar:
        for f in files:
            tar.add(f, arcname=f.name)


def unpack_library(src: Path, dest_dir: Path) -> Path:
    """The inverse of pack_library (and of served.pack_served); returns the library path (point
    TILEPORT_LIBRARY, or TILEPORT_SERVED for a served one, at it)."""
    import tarfile

    dest_dir.mkdir(parents=True, exist_ok=True)
    kinds = ({LIB_NAME, NATIVE_NAME, LIB_NAME + ".inputs-sha256"}, {SERVED_NAME, NATIVE_NAME, SERVED_MANIFEST})
    with tarfile.open(src, "r:xz") as tar:
        files = {m.name: m for m in tar.getmembers() if m.isfile()}
        names = next((k for k in kinds if k <= set(files)), None)
        if names is None:
            raise LibraryBuildError(f"{src} does not hold {', '.join(sorted(kinds[0]))} (the operator library) or "
                                    f"{', '.join(sorted(kinds[1]))} (a served one): pack it with `tileport ops pack`")
        for name in sorted(names):
            tar.extract(files[name], dest_dir)
    return dest_dir / (LIB_NAME if LIB_NAME in names else SERVED_NAME)


def autobuild_allowed() -> bool:
    return os.environ.get("TILEPORT_AUTOBUILD", "1") != "0"
