"""`tileport doctor`: check every piece of the toolchain and say precisely what is wrong and what to do.

Each check yields a :class:`Check` with a status (ok / fail / warn / skip), what it found, and — when it did not
pass — the fix. ``required`` checks decide the exit code. The ``dev`` profile (default) needs everything to
analyze, translate and build; the ``runtime`` profile (a GPU host with an unpacked offline bundle and no cargo)
needs only what compiling and running kernels needs.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from .. import paths
from ..errors import TileportError
from . import gpu as gpumod
from .cubin import cubin_arch
from . import pins as pinsmod
from .locate import (POISON_VARS, CudaTree, cuda_h_version, find_cuda_tree, release_of_binary, release_of_tool,
                     run_tool, tool_env)

PROFILES = ("dev", "runtime")
PROFILE_ENV = "TILEPORT_PROFILE"


@dataclass
class Check:
    name: str
    status: str  # ok | fail | warn | skip
    required: bool
    found: str
    fix: str = ""

    @property
    def blocking(self) -> bool:
        return self.required and self.status == "fail"


@dataclass
class Context:
    arch: str
    profile: str
    require_gpu: bool
    pins: pinsmod.Pins = field(default_factory=pinsmod.load)
    tree: CudaTree | None = None
    releases: dict[str, str] = field(default_factory=dict)
    smoke_bytecode: Path | None = None
    gpu_ok: bool = False
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="tileport-doctor-")))


CheckFn = Callable[[Context], Iterator[Check]]
CHECKS: list[tuple[str, CheckFn]] = []  # (profiles it is required in: "all" | "dev", fn)


def check(required_in: str) -> Callable[[CheckFn], CheckFn]:
    def deco(fn: CheckFn) -> CheckFn:
        CHECKS.append((required_in, fn))
        return fn
    return deco


def _skip(name: str, why: str) -> Check:
    return Check(name, "skip", False, why)


@check("all")
def cuda_tile(ctx: Context) -> Iterator[Check]:
    try:
        import cuda.tile as ct  # noqa: F401
        from cuda.tile._version import __version__ as version
    except Exception as exc:  # ImportError, or a broken install
        yield Check("cuda-tile", "fail", True, f"not importable: {exc}",
                    f"run `./dev setup` (installs cuda-tile=={ctx.pins.cuda_tile}) or install the bundle's wheel")
        return
    ok = version == ctx.pins.cuda_tile
    yield Check("cuda-tile", "ok" if ok else "fail", True, f"{version} at {Path(ct.__file__).parent}",
                "" if ok else f"tileport is pinned to cuda-tile=={ctx.pins.cuda_tile}; run `./dev setup`")


@check("all")
def cuda_tree(ctx: Context) -> Iterator[Check]:
    try:
        ctx.tree = find_cuda_tree()
    except TileportError as exc:
        yield Check("cuda-tree", "fail", True, str(exc).split(". Run")[0],
                    "run `./dev setup`, or `source DEST/env.sh` of an unpacked bundle")
        return
    yield Check("cuda-tree", "ok", True, f"{ctx.tree.root} (from {ctx.tree.source})")


def _tool_check(ctx: Context, name: str, path_of: Callable[[CudaTree], Path], fix: str) -> Iterator[Check]:
    if ctx.tree is None:
        yield _skip(name, "no CUDA tree")
        return
    path = path_of(ctx.tree)
    if not path.exists():
        yield Check(name, "fail", True, f"missing: {path}", fix)
        return
    if path.suffix == ".4" or path.name.endswith(".so.4"):
        rel = release_of_binary(path)
    else:
        rel = release_of_tool(ctx.tree, path.name)
    if rel is None:
        yield Check(name, "fail", True, f"{path}: no CUDA release banner found (corrupt or not an NVIDIA binary)", fix)
        return
    ctx.releases[name] = rel[0]
    ok = rel[0] == ctx.pins.cuda_release
    yield Check(name, "ok" if ok else "fail", True, f"release {rel[0]} (V{rel[1]}) at {path}",
                "" if ok else f"tileport needs CUDA {ctx.pins.cuda_release} here; {fix}")


@check("all")
def tileiras(ctx: Context) -> Iterator[Check]:
    yield from _tool_check(ctx, "tileiras", lambda t: t.tileiras,
                           f"install nvidia-cuda-tileiras=={ctx.pins.cuda_release}.* (`./dev setup`)")


@check("dev")   # only the IR diff disassembles: a GPU host's runtime bundle may leave it out (pack --no-disasm)
def tileirdisasm(ctx: Context) -> Iterator[Check]:
    yield from _tool_check(ctx, "tileirdisasm", lambda t: t.tileirdisasm,
                           "tileirdisasm ships with nvidia-cuda-tileiras from 13.4 on; reinstall it (`./dev setup`)")


@check("all")
def ptxas(ctx: Context) -> Iterator[Check]:
    yield from _tool_check(ctx, "ptxas", lambda t: t.ptxas,
                           "tileiras runs the ptxas in its own bin/ directory; install "
                           f"nvidia-cuda-nvcc=={ctx.pins.cuda_release}.* into the same tree (`./dev setup`)")


@check("all")
def libnvvm(ctx: Context) -> Iterator[Check]:
    yield from _tool_check(ctx, "libnvvm", lambda t: t.libnvvm,
                           "tileiras loads ../lib/libnvvm.so.4 beside its bin/; install "
                           f"nvidia-nvvm=={ctx.pins.cuda_release}.* into the same tree (`./dev setup`)")


@check("all")
def versions_match(ctx: Context) -> Iterator[Check]:
    if len(ctx.releases) < 2:
        yield _skip("versions-match", "fewer than two tools were found")
        return
    distinct = sorted(set(ctx.releases.values()))
    found = ", ".join(f"{k} {v}" for k, v in ctx.releases.items())
    if len(distinct) == 1:
        yield Check("versions-match", "ok", True, found)
        return
    fix = "tileiras exits with code 5 when libnvvm is from another release; reinstall one coherent set: " \
          f"`pip install 'cuda-toolkit[...]=={ctx.pins.cuda_toolkit}'` (`./dev setup`)"
    yield Check("versions-match", "fail", True, f"mixed releases: {found}", fix)


@check("all")
def target_arch(ctx: Context) -> Iterator[Check]:
    if ctx.tree is None or "tileiras" not in ctx.releases:
        yield _skip("target-arch", "no working tileiras")
        return
    helptext = run_tool(ctx.tree, "tileiras", ["--help"], check=False).stdout
    archs = re.findall(r"=\s*(sm_\d+[a-z]?)\s", helptext)
    ok = ctx.arch in archs
    yield Check("target-arch", "ok" if ok else "fail", True,
                f"tileiras targets {', '.join(archs) or 'nothing'}; wanted {ctx.arch}",
                "" if ok else f"this tileiras cannot compile for {ctx.arch}; sm_90 needs tileiras ≥ 13.3 "
                              f"(`./dev setup` installs {ctx.pins.cuda_release}), or pick another --arch")


@check("all")
def smoke_compile(ctx: Context) -> Iterator[Check]:
    if ctx.tree is None:
        yield _skip("smoke-compile", "no CUDA tree")
        return
    from ..kernels import vector_add as ex
    from ..frontends.cutile_py.compile import compile_kernel
    from ..frontends.cutile_py.loader import load_kernel
    from ..spec.signature import bind, parse

    try:
        k = load_kernel(f"{ex.__file__}::vector_add")
        sig = bind(parse(ex.DEMO_SIGNATURE), k.param_names, k.name)
        out = compile_kernel(k, sig, ctx.tree, ctx.workdir / "smoke", ctx.arch)
    except Exception as exc:  # report any failure of the real pipeline, with its message
        yield Check("smoke-compile", "fail", True, f"{type(exc).__name__}: {exc}".strip()[:2000],
                    "fix the failures above first; this compiles the bundled vector_add kernel end to end")
        return
    ctx.smoke_bytecode = out.bytecode
    assert out.cubin is not None
    built_for = cubin_arch(out.cubin)
    if built_for != ctx.arch:
        yield Check("smoke-compile", "fail", True, f"tileiras was asked for {ctx.arch} but wrote a {built_for} cubin",
                    "report this: the tileiras in the CUDA tree ignores --gpu-name")
        return
    yield Check("smoke-compile", "ok", True,
                f"vector_add → {out.bytecode.stat().st_size} B bytecode → {len(out.disasm.read_text().splitlines())}"
                f" lines of Tile IR → {out.cubin.stat().st_size} B {ctx.arch} cubin")


def _describe_toolkit(home: Path) -> str:
    vj = home / "version.json"
    if vj.exists():
        import json
        try:
            return "CUDA " + json.loads(vj.read_text())["cuda"]["version"]
        except (ValueError, KeyError, TypeError):
            pass
    v = cuda_h_version(home / "include")
    if v:
        return f"CUDA {v // 1000}.{(v % 1000) // 10}"
    for lib in sorted((home / "nvvm" / "lib64").glob("libnvvm.so*")):
        rel = release_of_binary(lib)
        if rel:
            return f"CUDA {rel[0]} (libnvvm)"
    return "not a CUDA toolkit" if home.exists() else "a directory that does not exist"


def _cutile_python_tileiras() -> Path | None:
    """The tileiras cuda.tile itself would run when found through pip metadata (then it drops CUDA_HOME)."""
    try:
        from cuda.tile._compile import _find_pip_tileiras
    except ImportError:
        return None
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = _find_pip_tileiras()
    return Path(found) if found else None


@check("all")
def cuda_home_trap(ctx: Context) -> Iterator[Check]:
    set_vars = {v: os.environ[v] for v in POISON_VARS if os.environ.get(v)}
    if not set_vars:
        yield Check("cuda-home", "ok", True, "CUDA_HOME and CUDA_PATH are unset")
        return
    desc = ", ".join(f"{k}={v} ({_describe_toolkit(Path(v))})" for k, v in set_vars.items())
    if ctx.tree is None or ctx.smoke_bytecode is None:
        yield Check("cuda-home", "warn", False, desc + "; not tested (no working tileiras)",
                    "unset CUDA_HOME: tileiras loads libnvvm from it and exits 5 when it is another release")
        return
    proc = run_tool(ctx.tree, "tileiras", [f"--gpu-name={ctx.arch}", "-o", str(ctx.workdir / "trap.cubin"),
                                           str(ctx.smoke_bytecode)], env=dict(os.environ), check=False)
    if proc.returncode == 0:
        yield Check("cuda-home", "ok", True, desc + "; tileiras works with it set")
        return
    effect = f"with it set, tileiras exits {proc.returncode}"
    ct_tileiras = _cutile_python_tileiras()
    if ct_tileiras is not None:
        yield Check("cuda-home", "warn", False,
                    f"{desc}; {effect}. tileport removes it for every tool it runs, and cuda-tile does too "
                    f"because it finds tileiras through pip metadata ({ct_tileiras})",
                    "nothing breaks through tileport; run tileiras by hand only with `env -u CUDA_HOME`")
        return
    yield Check("cuda-home", "fail", True,
                f"{desc}; {effect}, and cuda-tile would find tileiras on PATH and keep CUDA_HOME (so ct.launch "
                "fails with 'failed to compile Tile IR program')",
                "unset CUDA_HOME (and CUDA_PATH), or `source DEST/env.sh` of an unpacked bundle, which makes "
                "cuda-tile find the pip-layout tileiras and drop CUDA_HOME itself")


@check("dev")
def headers(ctx: Context) -> Iterator[Check]:
    if ctx.tree is None:
        yield _skip("cuda-headers", "no CUDA tree")
        return
    inc = ctx.tree.include
    missing = [h for h in ("cuda.h", "curand.h", "crt/host_config.h") if not (inc / h).exists()]
    ver = cuda_h_version(inc)
    problems = [f"missing {inc / h}" for h in missing]
    if ver is not None and ver < ctx.pins.min_cuda_h_version:
        problems.append(f"cuda.h has CUDA_VERSION {ver} < {ctx.pins.min_cuda_h_version}")
    if problems:
        yield Check("cuda-headers", "fail", True, "; ".join(problems),
                    "the cutile crate's bindgen reads cuda.h, curand.h and crt/host_config.h; install "
                    "nvidia-cuda-runtime, nvidia-curand and nvidia-cuda-crt of the pinned set (`./dev setup`)")
        return
    yield Check("cuda-headers", "ok", True, f"cuda.h CUDA_VERSION {ver}, curand.h, crt/host_config.h in {inc}")


def _version_tuple(text: str) -> tuple[int, ...]:
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", text)
    return tuple(int(g or 0) for g in m.groups()) if m else ()


@check("dev")
def rust_toolchain(ctx: Context) -> Iterator[Check]:
    found = []
    for tool in ("cargo", "rustc"):
        exe = shutil.which(tool)
        if exe is None:
            yield Check("rust", "fail", True, f"{tool} not on PATH",
                        "install Rust (rustup) — needed to build the cutile crate and generated kernels")
            return
        found.append(subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip())
    ok = _version_tuple(found[1]) >= _version_tuple(ctx.pins.min_rustc)
    yield Check("rust", "ok" if ok else "fail", True, "; ".join(found),
                "" if ok else f"cutile {ctx.pins.cutile_crate} needs rustc ≥ {ctx.pins.min_rustc}: `rustup update`")


def find_libclang() -> Path | None:
    env = os.environ.get("LIBCLANG_PATH")
    dirs = [Path(env)] if env else []
    dirs += sorted(Path("/usr/lib").glob("llvm-*/lib"), reverse=True) + [Path("/usr/lib/x86_64-linux-gnu")]
    for d in dirs:
        hits = sorted(d.glob("libclang*.so*")) if d.is_dir() else []
        hits = [h for h in hits if h.name.startswith(("libclang.so", "libclang-"))]
        if hits:
            return hits[0]
    return None


@check("dev")
def libclang(ctx: Context) -> Iterator[Check]:
    lib = find_libclang()
    if lib is None:
        yield Check("libclang", "fail", True, "no libclang.so found (LIBCLANG_PATH, /usr/lib/llvm-*/lib)",
                    "`apt-get install libclang-dev` (the cutile crate runs bindgen on cuda.h)")
        return
    yield Check("libclang", "ok", True, str(lib))


def _locked_version(lock: Path, crate: str) -> str | None:
    if not lock.exists():
        return None
    m = re.search(rf'name = "{re.escape(crate)}"\nversion = "([^"]+)"', lock.read_text())
    return m.group(1) if m else None


@check("dev")
def cutile_crate(ctx: Context) -> Iterator[Check]:
    ws = paths.rust_workspace()
    if ws is None:
        yield Check("cutile-crate", "fail", True, "no Rust workspace (rust/Cargo.toml) next to this tileport",
                    "run tileport from its source checkout, or set TILEPORT_RUST_DIR")
        return
    locked = _locked_version(ws / "Cargo.lock", "cutile")
    if locked != ctx.pins.cutile_crate:
        yield Check("cutile-crate", "fail", True, f"Cargo.lock has cutile {locked}, pin is {ctx.pins.cutile_crate}",
                    "run `./dev setup` (cargo build of the pinned workspace)")
        return
    probe = paths.probe_binary(ws)
    if probe is None or not probe.exists():
        yield Check("cutile-crate", "fail", True, f"cutile {locked} locked but not built ({probe} missing)",
                    "run `./dev setup`, which builds the Rust workspace once")
        return
    env = tool_env()
    if ctx.tree is not None:
        env.update(ctx.tree.cargo_env())
    proc = subprocess.run([str(probe), "--target", ctx.arch], capture_output=True, text=True, env=env, timeout=300)
    if proc.returncode != 0 or "entry @" not in proc.stdout:
        yield Check("cutile-crate", "fail", True,
                    f"the probe built against cutile {locked} failed (exit {proc.returncode}): "
                    f"{proc.stderr.strip()[-800:]}", "rebuild with `./dev setup`; if it persists, report it")
        return
    ops = len([ln for ln in proc.stdout.splitlines() if " = " in ln])
    yield Check("cutile-crate", "ok", True, f"cutile {locked} built; compile-only API produced a {ops}-op kernel")


@check("gpu")
def gpu(ctx: Context) -> Iterator[Check]:
    try:
        info = gpumod.probe()
    except gpumod.NoDriver as exc:
        if ctx.require_gpu:
            yield Check("gpu", "fail", True, f"no NVIDIA GPU: {exc}", "run on a GPU host, or drop --require-gpu")
        else:
            yield _skip("gpu", f"no NVIDIA GPU ({exc}); GPU checks skipped on this CPU-only machine")
        return
    if not info.gpus:
        yield Check("gpu", "fail" if ctx.require_gpu else "warn", ctx.require_gpu,
                    f"driver for CUDA {info.driver_version} but no GPU visible", "check CUDA_VISIBLE_DEVICES")
        return
    for g in info.gpus:
        ok = g.arch == ctx.arch
        ctx.gpu_ok = ctx.gpu_ok or ok
        yield Check(f"gpu{g.index}", "ok" if ok else ("fail" if ctx.require_gpu else "warn"), ctx.require_gpu,
                    f"{g.name}, {g.arch}, {g.memory_gib} GiB, driver supports CUDA {info.driver_version}",
                    "" if ok else f"kernels are being compiled for {ctx.arch}; pass --arch {g.arch}")


@check("gpu")
def cutile_run(ctx: Context) -> Iterator[Check]:
    """Launch the probe's vector_add through cutile's runtime on the GPU (ragged size, poisoned output)."""
    if not ctx.gpu_ok:
        yield _skip("cutile-run", "no GPU of the target arch")
        return
    probe = paths.probe_binary()
    if probe is None or not probe.exists():
        yield Check("cutile-run", "fail" if ctx.require_gpu else "warn", ctx.require_gpu, "tileport-probe not found",
                    "build it (`./dev setup`) or pack a bundle that ships it")
        return
    env = dict(os.environ)  # CUDA_HOME kept on purpose: the probe must survive it, as a cdylib would
    if ctx.tree is not None:
        env.setdefault("CUTILE_TILEIRAS_PATH", str(ctx.tree.tileiras))
        env.setdefault("CUDA_TOOLKIT_PATH", str(ctx.tree.root))
    proc = subprocess.run([str(probe), "--run", "1000003", "--tile", "1024"], capture_output=True, text=True,
                          env=env, timeout=600)
    if proc.returncode != 0:
        yield Check("cutile-run", "fail", True, f"exit {proc.returncode}: {(proc.stdout + proc.stderr).strip()[-1500:]}",
                    "the cutile runtime could not JIT or launch; check tileiras (above) and the driver")
        return
    yield Check("cutile-run", "ok", True, proc.stdout.strip())


@check("all")
def ops_library(ctx: Context) -> Iterator[Check]:
    """The kernel library behind the cutile-rs backend and its Python extension: present, built from this
    checkout's sources (else it is rebuilt on first use, or refused where TILEPORT_AUTOBUILD=0), loadable, and of
    this tileport's ABI. An explicit TILEPORT_LIBRARY (an unpacked one) must pass; a workspace build may be stale."""
    from ..runtime import build, library

    explicit = bool(os.environ.get("TILEPORT_LIBRARY"))
    try:
        path = build.library_path()
        fresh = build.is_fresh(path)
    except TileportError as exc:
        yield _skip("ops-library", f"no library to check: {exc}")
        return
    bad = "fail" if explicit else "warn"
    if not path.exists():
        yield Check("ops-library", bad, explicit, f"{path} is missing",
                    "`tileport ops unpack BUNDLE DIR` (GPU host)" if explicit else
                    "`tileport ops build` (or it is built on the first cutile-rs call)")
        return
    if not fresh:
        yield Check("ops-library", bad, explicit, f"{path} was built from other sources than this checkout's",
                    "`tileport ops build` here, then pack/unpack it again for a GPU host")
        return
    try:
        found = library.verify(path)
    except TileportError as exc:
        yield Check("ops-library", "fail", True, str(exc)[:1500], "`tileport ops build` (rebuilds both .so files)")
        return
    yield Check("ops-library", "ok", True, found + ", fresh")


def run_checks(arch: str | None = None, profile: str | None = None, require_gpu: bool = False) -> list[Check]:
    pins = pinsmod.load()
    profile = profile or os.environ.get(PROFILE_ENV, "dev")
    if profile not in PROFILES:
        raise TileportError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}")
    ctx = Context(arch=arch or pins.default_arch, profile=profile, require_gpu=require_gpu, pins=pins)
    results: list[Check] = []
    try:
        for required_in, fn in CHECKS:
            if required_in == "dev" and profile != "dev":
                results.append(_skip(fn.__name__.replace("_", "-"), "not needed by the runtime profile"))
                continue
            results.extend(fn(ctx))
    finally:
        shutil.rmtree(ctx.workdir, ignore_errors=True)
    return results


def report_json(checks: list[Check], arch: str, profile: str) -> dict:
    return {"ok": not any(c.blocking for c in checks), "arch": arch, "profile": profile,
            "checks": [asdict(c) for c in checks]}
