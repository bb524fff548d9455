"""The ``tileport`` command line. Every subcommand's ``--help`` shows examples; ``--json`` gives machine output."""
from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from . import __version__
from .errors import InputError, TileportError

EPILOG = """\
pipeline (CPU only up to cubins):
  tileport doctor                         is the toolchain complete and coherent?
  tileport capture -- python host.py      record the cuTile launches of host code (no GPU needed)
  tileport analyze K.py::kern --capture F reference Tile IR + spec.json per launch signature
  tileport port K.py::kern --capture F    analyze → translate → build → irdiff; DIR/verdict.json says "proven"
  tileport verify DIR                     build → irdiff a hand-written kernel.rs (from a work order)
  tileport irdiff A B                     are two Tile IR programs the same? (exit 0 iff equivalent)
  tileport compile K.py::kern --sig ...   Tile IR bytecode + disassembly + sm_90 cubin of a cuTile Python kernel
  tileport demo                           the above, on the bundled vector_add example
  tileport toolchain pack/unpack          offline bundle for a GPU host without network
  tileport ops build --port               port every op of tileport.ops, build the Rust kernel library
  tileport ops list                       what the library holds and what each op was proven at
  tileport bench --help                   cutile vs cutile-rs timings per op (GPU)

examples:
  tileport doctor --json
  tileport compile src/tileport/kernels/vector_add.py::vector_add \\
      --sig 'a=f32[?]/1, b=f32[?]/1, c=f32[?]/1, TILE=#1024' --out build/vadd
  tileport toolchain pack dist/toolchain.tar.xz --python 3.12
"""

def _sig_help() -> str:
    """The --sig grammar, every token `tileport capture` prints (the grammar itself: tileport.spec.signature)."""
    from .spec.signature import DTYPES

    return f"""\
signature syntax (--sig), parameters in the kernel's order, optional NAME= prefix:
  f32[?]          rank-1 f32 array, dynamic extent     f16[?,128]       static second extent
  f32[?,?]/?,1    strides: ? = dynamic, N = known      f32[?%16]        extent divisible by 16 (?%N)
  f32[?,?]/?%4,1  row stride divisible by 4            f32[?]/1&16      base address 16-byte aligned (&N)
  f32[?]/0!alias  elements may alias (broadcast view)  bf16[?]@i64      64-bit indices
  f32[]           rank-0 array (no extents, strides)   f32[]&16         the same, 16-byte aligned
  i32             scalar of that dtype                 #1024 #0.5 #true ct.Constant values
`tileport capture` prints each launch in this syntax with the facts ct.launch specializes on, e.g. a 16-byte
aligned, contiguous 1024x1024 f32 tensor: f32[?%16,?%16]/?%4,1&16 (the order is /STRIDES &ALIGN !alias @i64).
dtypes: {' '.join(DTYPES)}
"""


def _console():
    from rich.console import Console

    return Console(stderr=False, highlight=False)


def _progress(quiet: bool):
    def say(msg: str) -> None:
        if not quiet:
            print(msg, file=sys.stderr, flush=True)
    return say


def _emit_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2, sort_keys=True))


# ---------------------------------------------------------------- doctor

def cmd_doctor(args: argparse.Namespace) -> int:
    from .toolchain import doctor

    checks = doctor.run_checks(arch=args.arch, profile=args.profile, require_gpu=args.require_gpu)
    arch = args.arch or doctor.pinsmod.load().default_arch
    import os
    profile = args.profile or os.environ.get(doctor.PROFILE_ENV, "dev")
    report = doctor.report_json(checks, arch, profile)
    if args.json:
        _emit_json(report)
    else:
        from rich.table import Table

        style = {"ok": "[green]ok[/]", "fail": "[bold red]FAIL[/]", "warn": "[yellow]warn[/]", "skip": "[dim]skip[/]"}
        table = Table(title=f"tileport doctor — arch {arch}, profile {profile}", show_lines=False)
        for col in ("check", "status", "found"):
            table.add_column(col, overflow="fold")
        for c in checks:
            optional = not c.required and c.status != "skip"
            table.add_row(c.name + (" (optional)" if optional else ""), style[c.status], c.found)
        con = _console()
        con.print(table)
        for c in checks:
            if c.status in ("fail", "warn") and c.fix:
                con.print(f"[{'red' if c.status == 'fail' else 'yellow'}]{c.name}[/]: {c.fix}")
        con.print("[green]all required checks passed[/]" if report["ok"] else
                  "[bold red]some required checks failed (see above)[/]")
    return 0 if report["ok"] else 1


# ---------------------------------------------------------------- toolchain

def cmd_pack(args: argparse.Namespace) -> int:
    from .inputs import need_file, out_file
    from .toolchain import bundle, pins
    from .toolchain.locate import find_cuda_tree

    for option, files in (("--wheel", args.wheel), ("--cdylib", args.cdylib)):
        for f in files:
            need_file(Path(f), option)
    out_file(Path(args.out), "OUT")
    tree = find_cuda_tree()
    wheels = [Path(w) for w in args.wheel]
    if not args.no_cuda_tile_wheel and not any(w.name.startswith("cuda_tile-") for w in wheels):
        wheels.insert(0, bundle.download_wheel(f"cuda-tile=={pins.load().cuda_tile}", args.python,
                                               Path(args.wheel_cache), _progress(args.json)))
    binaries = []
    if not args.no_probe:
        from . import paths

        probe = paths.probe_binary()
        if probe is None or not probe.exists():
            raise TileportError("the tileport-probe binary is not built (run `./dev setup`), or pass --no-probe")
        binaries.append(probe)
    manifest = bundle.pack(tree, Path(args.out), wheels=wheels, cdylibs=[Path(c) for c in args.cdylib],
                           binaries=binaries, python=args.python, max_mb=args.max_mb, fast=args.fast,
                           disasm=not args.no_disasm, progress=_progress(args.json))
    if args.json:
        _emit_json({"bundle": args.out, "size": Path(args.out).stat().st_size, "manifest": manifest})
    return 0


def cmd_unpack(args: argparse.Namespace) -> int:
    from .inputs import need_file, out_dir
    from .toolchain import bundle

    need_file(Path(args.bundle))
    manifest = bundle.unpack(Path(args.bundle), out_dir(Path(args.dest), "DEST"), progress=_progress(args.json))
    env = Path(args.dest).resolve() / "env.sh"
    if args.json:
        _emit_json({"dest": str(Path(args.dest).resolve()), "env": str(env), "files": len(manifest["files"])})
    else:
        print(f"unpacked {len(manifest['files'])} files (all checksums verified). Now run:\n  source {env}\n"
              "  tileport doctor")
    return 0


def cmd_env(args: argparse.Namespace) -> int:
    from .toolchain.locate import find_cuda_tree

    tree = find_cuda_tree()
    env = tree.cargo_env()
    if args.json:
        _emit_json(env)
    else:
        for k, v in env.items():
            print(f"export {k}={v}")
        print("unset CUDA_HOME CUDA_PATH")
    return 0


# ---------------------------------------------------------------- compile / demo

def _compile(ref: str, sigs: list[str], out: Path, arch: str | None, as_json: bool) -> int:
    from .frontends.cutile_py.compile import compile_kernel
    from .frontends.cutile_py.loader import load_kernel
    from .inputs import out_dir
    from .spec.signature import bind, parse
    from .toolchain.locate import find_cuda_tree

    tree = find_cuda_tree()
    kernel = load_kernel(ref)
    bound = [bind(parse(text), kernel.param_names, kernel.name) for text in sigs]
    out_dir(out, "--out")
    say = _progress(as_json)
    results = []
    for i, sig in enumerate(bound):
        say(f"[{i + 1}/{len(sigs)}] {kernel.name}({sig.text()}) → Tile IR" + (f" → {arch} cubin" if arch else ""))
        results.append(compile_kernel(kernel, sig, tree, out, arch))
    if as_json:
        _emit_json({"kernel": kernel.ref, "arch": arch, "variants": [r.as_json() for r in results]})
    else:
        for r in results:
            print(f"{r.symbol}\n  bytecode {r.bytecode} ({r.bytecode.stat().st_size} B)\n  Tile IR  {r.disasm}"
                  + (f"\n  cubin    {r.cubin} ({r.cubin.stat().st_size} B)" if r.cubin else ""))
    return 0


def _arch(value: str | None) -> str | None:
    """--arch: None → the pinned default (sm_90); 'none' → no cubin; else sm_NN[a|f], checked here (tileiras says
    which of those it targets)."""
    import re

    from .toolchain import pins

    if value is None:
        return pins.load().default_arch
    if value == "none":
        return None
    if not re.fullmatch(r"sm_\d{2,3}[af]?", value):
        raise InputError(f"--arch {value!r}: expected a GPU architecture such as sm_90 or sm_100 (or none)")
    return value


def _triton_kernels(path: Path) -> list[str]:
    """Module-level ``@triton.jit`` (or ``@jit`` from triton) functions of a Python file; none when it is unreadable
    (its loader then says why)."""
    import ast
    import re

    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return []
    if not any(isinstance(n, (ast.Import, ast.ImportFrom)) and "triton" in ast.unparse(n) for n in tree.body):
        return []
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and any(
        re.fullmatch(r"(triton\.)?jit(\(.*\))?", ast.unparse(d), re.S) for d in n.decorator_list)]


def _cutile_only(ref: str, command: str) -> None:
    """analyze and compile take cuTile kernels: a Triton kernel is refused, saying which command takes it."""
    from .frontends.cutile_py.loader import split_ref

    path, name = split_ref(ref)
    if name in _triton_kernels(path):
        raise InputError(f"{ref} is a @triton.jit kernel: `tileport port {ref} --capture FILE` lowers it to cuTile "
                         f"Python and ports it; `tileport {command}` takes cuTile (@ct.kernel) kernels")


def cmd_compile(args: argparse.Namespace) -> int:
    _cutile_only(args.kernel, "compile")
    return _compile(args.kernel, args.sig, Path(args.out), _arch(args.arch), args.json)


def cmd_demo(args: argparse.Namespace) -> int:
    from .kernels import vector_add

    out = Path(args.out)
    rc = _compile(f"{vector_add.__file__}::vector_add", [vector_add.DEMO_SIGNATURE], out, _arch(args.arch),
                  args.json)
    if rc == 0 and not args.json:
        txt = next(out.glob("*.tileir.txt"))
        print(f"\n--- {txt.name} ---\n{txt.read_text()}")
    return rc


# ---------------------------------------------------------------- analyze

def cmd_analyze(args: argparse.Namespace) -> int:
    from .frontends.cutile_py.analyze import analyze
    from .frontends.cutile_py.loader import load_kernel
    from .pipeline.port import captured_closure
    from .toolchain.locate import find_cuda_tree

    _cutile_only(args.kernel, "analyze")
    kernel = load_kernel(args.kernel, captured_closure(_captured(args.capture, args.kernel)))
    sigs, launches = _signature_inputs(args, kernel)
    out = _out_dir(args)
    spec = analyze(kernel, sigs, launches, find_cuda_tree(), out, progress=_progress(args.json))
    if args.json:
        _emit_json(spec)
    else:
        g = spec["grid"]["formula"]
        print(f"{kernel.name}: {len(spec['variants'])} variant(s) → {out / 'spec.json'} (schema-valid)")
        for v in spec["variants"]:
            taken = ", ".join(f"L{b['line']} {b['condition']}: {b['taken']}" for b in v["branches"])
            print(f"  {v['symbol']}\n    {v['signature']}" + (f"\n    branches: {taken}" if taken else ""))
        print(f"  grid: ({', '.join(g)})")
    return 0


# ---------------------------------------------------------------- translate / port / verify

def _captured(path: str | None, kernel_ref: str) -> list[dict]:
    """The launches of ``kernel_ref`` in the ``--capture`` file (checked against capture.schema.json first)."""
    from .frontends.cutile_py.capture import load_capture
    from .inputs import read_json

    if not path:
        return []
    read_json(Path(path), "--capture", schema="capture")
    return load_capture(Path(path), kernel_ref)


def _captured_here(path: str, source: Path) -> str:
    """"; it has launches of NAME, .. from that file" (the names to give: NAME@LINE of a factory's kernel,
    NAME[B=None] of a Triton kernel's launches without B), or nothing."""
    import os

    from .frontends.cutile_py.capture import load_capture

    want = os.path.realpath(source)
    names = sorted({l["kernel"].rpartition("::")[2] for l in load_capture(Path(path))
                    if os.path.realpath(l.get("source", l["kernel"].rpartition("::")[0])) == want})
    return f"; it has launches of {', '.join(names)} from that file" if names else ""


def _signature_inputs(args: argparse.Namespace, kernel) -> tuple[list, list]:
    from .inputs import read_json
    from .spec.signature import SignatureError, bind, parse

    texts = list(args.sig or [])
    if getattr(args, "sigs", None):
        data = read_json(Path(args.sigs), "--sigs", schema="sigs")
        texts += data["signatures"] if isinstance(data, dict) else data
    launches = _captured(args.capture, kernel.ref)
    if args.capture and not launches:
        raise SignatureError(f"--capture {args.capture} has no launch of {kernel.ref.rpartition('::')[2]} from "
                             f"{kernel.path}{_captured_here(args.capture, kernel.path)}")
    return [bind(parse(t), kernel.param_names, kernel.name) for t in texts], launches


def _print_verdict(verdict: dict, ran: tuple[str, ...] = ("analyze", "translate", "build", "irdiff")) -> None:
    """The stages of ``ran`` ("not run" for one an earlier failure stopped), the IR diff's variants, the status."""
    con = _console()
    for name in ran:
        st = verdict["stages"].get(name)
        if st is None:
            con.print(f"  {name:9} [dim]not run[/]")
            continue
        mark = "[green]ok[/]" if st.get("ok") else "[bold red]FAILED[/]"
        con.print(f"  {name:9} {mark}")
        for r in st.get("rejected", []):   # captured launches cuda-tile itself rejects (they fail on a GPU too)
            con.print(f"    left out, cuda-tile rejects it (the launch fails on a GPU too): {r['signature']}\n      "
                      + r["error"].replace("\n", "\n      "), markup=False)
        if not st.get("ok") and st.get("error"):
            con.print("    " + st["error"].replace("\n", "\n    "), markup=False)
        for h in st.get("hazards", []):
            con.print(f"    [yellow]warning[/] {h['file']}:{h['line']}:{h['col']}: {h['name']}: {h['why']}")
    for v in verdict["stages"].get("irdiff", {}).get("variants", []):
        con.print(f"    {v['symbol']}: {'equivalent' if v.get('equivalent') else 'DIFFERENT'}", markup=False)
        for d in v.get("differences", [])[:5]:
            con.print(f"      {d['kind']}: {d['detail'][:300]}", markup=False)
    con.print(f"status: {verdict['status']}", markup=False)


def _defines(path: Path, name: str) -> bool:
    """``path`` defines or assigns ``name`` at module level (read from the source, nothing imported)."""
    import ast

    tree = ast.parse(path.read_text())
    return any((isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == name) or
               (isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets))
               for n in tree.body)


def _hints(given: list[str]) -> dict[str, int]:
    """``--hint NAME=INT`` options; a name the Triton lowering does not take is refused, listing those it takes."""
    from .corpus.hints import hint_names

    valid = hint_names()
    hints: dict[str, int] = {}
    for h in given:
        key, eq, value = h.partition("=")
        key = key.strip()
        if key not in valid:
            raise InputError(f"--hint {h!r}: unknown hint {key!r}; valid hints: {', '.join(valid)}")
        if not eq or not value.strip().isdigit():
            raise InputError(f"--hint {h!r}: expected NAME=INT with a non-negative integer (occupancy=4, "
                             "num_ctas=2, plain_stores=1)")
        hints[key] = int(value)
        if key == "load_latency":
            from .frontends.triton.lower import load_latency

            try:
                load_latency(hints[key])
            except ValueError as e:
                raise InputError(f"--hint {h!r}: {e}") from None
    return hints


def _out_dir(args: argparse.Namespace) -> Path:
    from .inputs import out_dir

    return out_dir(Path(args.out), "--out")


def cmd_port(args: argparse.Namespace) -> int:
    from .frontends.cutile_py.loader import load_kernel, split_ref
    from .frontends.triton.capture import base_name
    from .frontends.triton.source import is_triton_file
    from .pipeline.port import captured_closure, port
    from .toolchain.locate import find_cuda_tree

    hints = _hints(args.hint or [])
    path, name = split_ref(args.kernel)
    name = base_name(name)   # (NAME@LINE: a kernel a factory made; NAME[B=None]: launches passing None for B)
    if is_triton_file(path, name):
        if not args.capture:
            raise InputError(f"{args.kernel} is a @triton.jit kernel: it is ported from captured launches (which "
                             "parameters are tensors, the values that shape each view): give --capture FILE from "
                             "`tileport capture -- python HOST.py`")
        return _port_triton(args, hints)
    triton = _triton_kernels(path)
    if triton and not _defines(path, name) and "@" not in args.kernel:
        raise InputError(f"{path}: no kernel {name!r}; the @triton.jit kernels in this file: {', '.join(triton)}")
    if hints:
        raise InputError(f"--hint applies to Triton kernels only (their lowered form); {args.kernel} is a cuTile "
                         "kernel: give it options with @ct.kernel(occupancy=..., num_ctas=...) in its source")
    kernel = load_kernel(args.kernel, captured_closure(_captured(args.capture, args.kernel)))
    sigs, launches = _signature_inputs(args, kernel)
    _out_dir(args)
    # a captured launch cuda-tile itself rejects (the host passed what the kernel cannot take: it fails on a GPU too)
    # is left out and listed, as `tileport corpus port` does; a --sig one asked for by hand fails the port
    verdict = port(args.kernel, sigs, launches, find_cuda_tree(), Path(args.out), _arch(args.arch) or "sm_90",
                   progress=_progress(args.json), skip_rejected=bool(launches) and not sigs)
    _emit_json(verdict) if args.json else _print_verdict(verdict)
    return 0 if verdict["ok"] else 1


def _port_triton(args: argparse.Namespace, hints: dict[str, int]) -> int:
    from .pipeline.triton import port_triton
    from .spec.signature import parse
    from .toolchain.locate import find_cuda_tree

    launches = _captured(args.capture, args.kernel)
    if args.capture and not launches:
        raise TileportError(f"--capture {args.capture} has no launch of {args.kernel}"
                            f"{_captured_here(args.capture, Path(args.kernel.rpartition('::')[0]))}")
    sigs = [parse(t) for t in (args.sig or [])]
    _out_dir(args)
    verdict = port_triton(args.kernel, sigs, launches, find_cuda_tree(), Path(args.out), _arch(args.arch) or "sm_90",
                          progress=_progress(args.json), hints=hints or None)   # none given: derived
    if args.json:
        _emit_json(verdict)
    else:
        low = verdict["stages"]["lower"]
        _console().print(f"  lower     {'[green]ok[/]' if low['ok'] else '[bold red]FAILED[/]'}")
        if not low["ok"]:
            _console().print("    " + low["error"], markup=False)
        else:
            for note in verdict["triton"]["notes"]:
                _console().print(f"    note: {note}", markup=False)
        _print_verdict(verdict)
    return 0 if verdict["ok"] else 1


PORT_DIR_WHY = ("expected a port directory from `tileport port` (or `tileport analyze --out DIR`, or a work order "
                "with a hand-written kernel.rs and port.json)")


def _port_dir_spec(port_dir: Path, what: str, needs: tuple[str, ...]) -> dict:
    """DIR's spec.json, checked against spec.schema.json, with the reference IR files of its variants present."""
    from .inputs import in_dir, read_json

    in_dir(port_dir, needs, what, PORT_DIR_WHY)
    spec = read_json(port_dir / "spec.json", "", schema="spec")
    for v in spec["variants"]:
        for key in ("bytecode", "disasm"):
            if not (port_dir / v["ir"][key]).is_file():
                raise InputError(f"{what} {port_dir}: {v['ir'][key]} (the reference IR spec.json names) is missing; "
                                 "run `tileport analyze` into the directory again")
    return spec


def _port_manifest(port_dir: Path) -> dict:
    """DIR/port.json, checked against port.schema.json, every variant's layout parsed."""
    from .inputs import read_json
    from .irdiff.canon import parse_layout

    manifest = read_json(port_dir / "port.json", "", schema="port")
    for v in manifest["variants"]:
        try:
            parse_layout(v["layout"])
        except ValueError as exc:
            raise InputError(f"{port_dir / 'port.json'}: variant {v['symbol']}: layout {v['layout']!r}: "
                             f"{exc}") from None
    return manifest


def cmd_translate(args: argparse.Namespace) -> int:
    from .pipeline.port import translate
    from .toolchain.locate import find_cuda_tree
    from .translate.emit import Unsupported

    port_dir = Path(args.dir)
    _port_dir_spec(port_dir, "translate", ("spec.json",))
    try:
        manifest = translate(port_dir, find_cuda_tree())
    except Unsupported as exc:  # the stage ran and refused: exit 1
        print(f"tileport: translate failed: {exc}", file=sys.stderr)
        return 1
    _emit_json(manifest) if args.json else print(f"wrote {port_dir / 'kernel.rs'} and port.json "
                                                 f"({len(manifest['variants'])} variant(s))")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from .pipeline.port import _finish, verify
    from .toolchain.locate import find_cuda_tree

    port_dir = Path(args.dir)
    spec = _port_dir_spec(port_dir, "verify", ("spec.json", "port.json", "kernel.rs"))
    manifest = _port_manifest(port_dir)
    for v in manifest["variants"]:
        ref = (port_dir / v["reference"]).with_suffix(".tileir.txt")
        if not ref.is_file():
            raise InputError(f"verify {port_dir}: port.json's variant {v['symbol']} names the reference "
                             f"{v['reference']}, but {ref.relative_to(port_dir)} is missing")
    verdict = {"kernel": spec["kernel"]["name"], "source": spec["kernel"]["source"], "stages": {
        "analyze": {"ok": True, "spec": "spec.json"}, "translate": {"ok": True, "kernel_rs": "kernel.rs",
                                                                    "by": "hand"}}}
    from . import __version__
    verdict["tileport"] = __version__
    verdict["stages"].update(verify(port_dir, find_cuda_tree(), _arch(args.arch) or "sm_90",
                                    progress=_progress(args.json)))
    verdict = _finish(verdict, port_dir)
    _emit_json(verdict) if args.json else _print_verdict(verdict, ran=("build", "irdiff"))
    return 0 if verdict["ok"] else 1


# ---------------------------------------------------------------- ops library

def cmd_ops_build(args: argparse.Namespace) -> int:
    from .runtime import build

    if args.from_ports is not None or args.into is not None:
        return _served_build(args)
    names = [n.strip() for n in args.ops.split(",") if n.strip()] if args.ops is not None else None
    if names is not None:
        known = build.all_ops()
        unknown = [n for n in names if n not in known]
        if unknown or not names:
            what = f"unknown op(s) {', '.join(unknown)}" if unknown else "no op named"
            raise InputError(f"--ops {args.ops!r}: {what}; the ops: {', '.join(known)}")
    result = build.ops_build(names, port=args.port, if_stale=args.if_stale, progress=_progress(args.json))
    if args.json:
        _emit_json(result)
    else:
        for name, status in result["ops"].items():
            print(f"  {name:18} {status}")
            if name in result.get("why", {}):   # what stopped it (the full verdict: `tileport port` the op's kernel)
                print(f"    {result['why'][name][:400]}")
        print(f"library: {result['library']}")
    return 0 if all(s == "proven" for s in result["ops"].values()) else 1


def _served_build(args: argparse.Namespace) -> int:
    """`tileport ops build --from PORTS --into LIB`: a served library of every proven cuTile port under PORTS."""
    from .inputs import out_dir
    from .runtime.served import build_served

    if args.from_ports is None or args.into is None or args.port or args.ops or args.if_stale:
        raise InputError("--from PORTS and --into LIB go together, without --port/--ops/--if-stale (those are the "
                         "operator library's)")
    corpus = Path(args.corpus) if args.corpus else None
    if corpus is not None and not corpus.is_dir():
        raise InputError(f"--corpus {corpus}: not a folder")
    result = build_served(Path(args.from_ports), out_dir(Path(args.into), "--into"), corpus,
                          progress=_progress(args.json))
    if args.json:
        _emit_json(result)
    else:
        for pid, name in result["kernels"].items():
            print(f"  {name:40} tp_{pid}")
        for s in result["skipped"]:
            print(f"  left out: {s['kernel']}: {s['why']}")
        print(f"library: {result['library']} ({len(result['kernels'])} kernels)\n"
              f"use it:  TILEPORT_SERVED={Path(result['library']).parent} "
              "(tileport run / tileport.install() / pytest -p tileport.pytest_launch)")
    return 0


def cmd_ops_list(args: argparse.Namespace) -> int:
    from .inputs import read_json
    from .runtime import build

    if not build.manifest_path().is_file():
        raise InputError(f"{build.manifest_path()} is missing: run `tileport ops build --port` (in a source checkout)")
    manifest = read_json(build.manifest_path())
    if args.json:
        _emit_json(manifest)
        return 0
    for name, op in manifest["ops"].items():
        entries = ", ".join(op.get("entries", [])) or "-"
        print(f"  {name:18} {op['status']:9} {len(op['signatures'])} specialization(s)  entries: {entries}")
    lib = build.library_path()
    print(f"library: {lib} ({'fresh' if build.is_fresh(lib) else 'stale or missing'})")
    return 0


def cmd_ops_pack(args: argparse.Namespace) -> int:
    from .inputs import out_file
    from .runtime import build

    if args.library:
        from .runtime.served import pack_served

        print(f"wrote {pack_served(Path(args.library), out_file(Path(args.dest), 'DEST'))}")
        return 0
    print(f"wrote {build.pack_library(out_file(Path(args.dest), 'DEST'))} (+ .inputs-sha256)")
    return 0


def cmd_ops_unpack(args: argparse.Namespace) -> int:
    import lzma
    import tarfile

    from .inputs import need_file, out_dir
    from .runtime import build

    src = need_file(Path(args.src), "SRC")
    try:
        with tarfile.open(src, "r:xz") as tar:  # readable before anything is written
            tar.getmembers()
        lib = build.unpack_library(src, out_dir(Path(args.dir), "DIR"))
    except (tarfile.TarError, lzma.LZMAError, EOFError) as exc:
        raise InputError(f"SRC {src}: not a packed library ({type(exc).__name__}: {exc}); make one with "
                         "`tileport ops pack`") from None
    from .runtime.served import LIB_NAME as SERVED_NAME

    if lib.name == SERVED_NAME:
        print(f"export TILEPORT_SERVED={lib.parent}")
    else:
        print(f"export TILEPORT_LIBRARY={lib} TILEPORT_AUTOBUILD=0")
    return 0


# ---------------------------------------------------------------- capture

def _report_script_error(script: Path, exc: BaseException, out: Path | None, job: str = "capture",
                         kept: str | None = None) -> None:
    """A host script's exception under capture (or run): one line saying so, then the script's own traceback
    between two marker lines. tileport's frames (the CLI, the capture, runpy) are cut: the traceback starts at the
    script."""
    tb = exc.__traceback__
    target = script.resolve()
    while tb is not None and Path(tb.tb_frame.f_code.co_filename).resolve() != target:
        tb = tb.tb_next
    # the frames from the script's on; a launch the launch itself refused ends at the program's launch line, as it
    # would at ct.launch on a GPU (the capture's stand-in frames cut)
    from .frontends.arrays import LaunchRejected

    own = tuple(str(Path(__file__).resolve().parent / d) for d in ("frontends", "corpus"))
    frames = list(traceback.extract_tb(tb))
    cut = next((i for i, f in enumerate(frames) if i and f.filename.startswith(own)), len(frames)) \
        if isinstance(exc, LaunchRejected) else len(frames)
    lines = (["Traceback (most recent call last):\n", *traceback.format_list(frames[:cut]),
              *traceback.format_exception_only(type(exc), exc)] if tb is not None
             else traceback.format_exception_only(type(exc), exc))  # e.g. a SyntaxError: no frame of the script
    what = " ".join(traceback.format_exception_only(type(exc), exc)[-1].split())
    err = sys.stderr
    print(f"tileport: {job} failed: {script} raised {what[:300]}"
          + (f"; nothing written to {out}" if out is not None else "") + (f"; {kept}" if kept else ""), file=err)
    print(f"---- traceback of {script} ----", file=err)
    err.write("".join(lines))
    print(f"---- end of {script}'s traceback ----", file=err)


def _python_command(raw: list[str], usage: str, error: type[Exception] = InputError) -> list[str]:
    """``-- python SCRIPT.py ARGS`` (or ``-- python -m MODULE ARGS``) → [SCRIPT.py, ARGS...] ([-m, MODULE, ...]);
    a script that is not a file is refused."""
    cmd = list(raw)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if cmd and Path(cmd[0]).name.startswith("python"):
        cmd = cmd[1:]
    if len(cmd) >= 2 and cmd[0] == "-m":
        return cmd
    if not cmd or not cmd[0].endswith(".py"):
        raise error(f"expected `{usage}`")
    script = Path(cmd[0])
    if script.is_dir():
        raise error(f"{script}: is a directory, expected a Python script")
    if not script.is_file():
        raise error(f"{script}: no such file")
    return cmd


def cmd_run(args: argparse.Namespace) -> int:
    """`tileport run --library LIB -- python host.py ...`: the program in this process, ct.launch on Rust ports."""
    from .hostrun import run_main
    from .runtime import intercept

    cmd = _python_command(args.command, "tileport run [--library LIB] -- python SCRIPT.py|-m MODULE [ARGS...]")
    intercept.install(args.library, fallback=args.fallback or None)
    code = 0
    try:
        run_main(cmd)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except TileportError as exc:   # the launch backend refused a launch: one line, the program stops
        print(f"tileport run: {exc}", file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 — the program raised: its error, shown as its own
        _report_script_error(Path(cmd[0] if cmd[0] != "-m" else cmd[1]), exc, None, "run")
        code = 1
    finally:
        stats = intercept.stats()
        intercept.uninstall()
    if args.stats:
        Path(args.stats).write_text(json.dumps(stats, indent=1) + "\n")
    rust = sum(stats["rust"].values())
    falls = sum(f["launches"] for f in stats["fallbacks"])
    print(f"tileport run: {rust} launch(es) through Rust ports ({len(stats['rust'])} kernels), {falls} fallback(s)",
          file=sys.stderr)
    return code


def cmd_capture(args: argparse.Namespace) -> int:
    from .frontends.cutile_py.capture import CaptureError, LaunchRejected, Recorder, run_captured, write_capture
    from .inputs import out_file

    cmd = _python_command(args.command, "tileport capture [--out FILE] -- python SCRIPT.py [ARGS...]", CaptureError)
    out = out_file(Path(args.out), "--out")
    if cmd[0] == "-m":   # python -m MODULE ARGS (e.g. -m pytest tests/): run from the working directory
        script, argv, label = Path("-m"), cmd[1:], Path(f"-m {cmd[1]}")
    else:
        script, argv, label = Path(cmd[0]), cmd[1:], Path(cmd[0])
    host, assumed = _capture_host(args, script)
    emulated = f" (no GPU here: CUDA emulated as {assumed[0].split(' (')[0]})" if assumed else ""
    rec = Recorder()
    failed: BaseException | None = None
    try:
        run_captured(script, argv, rec, host)
    except LaunchRejected as exc:   # a launch the launch itself refuses, raised in the program and not caught there
        failed = exc
    except CaptureError as exc:
        if not str(exc).startswith(f"{label} exited with"):
            raise
        failed = exc
    except (TileportError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # noqa: BLE001 — the script raised: its error, shown as its own
        failed = exc
    exited = isinstance(failed, CaptureError) and not isinstance(failed, LaunchRejected)   # its sys.exit(N)
    from collections import Counter

    for e, n in Counter(rec.rejected).items():
        print(f"refused by the launch (raised in the program, as on a GPU){f' {n}x' if n > 1 else ''}: {e}",
              file=sys.stderr)
    if failed is not None and not rec.launches:
        if exited:  # the script's sys.exit(N): its run failed, not the input
            print(f"tileport: capture failed: {failed}; nothing written to {out}{emulated}", file=sys.stderr)
        else:
            _report_script_error(label, failed, out, kept=emulated.strip() or None)
        return 1
    data = write_capture(rec, label, argv, out, assumed[1:])
    if args.json:
        _emit_json(data)
    else:
        for line in capture_lines(data["launches"]):
            print(line)
        for e in data["errors"]:
            print(f"not recorded: {e}", file=sys.stderr)
        print(f"{len(data['launches'])} distinct launch(es) → {args.out}", file=sys.stderr)
        if not data["launches"] and not data["errors"] and not rec.rejected:
            print("tileport: the program made no ct.launch or Triton kernel[grid](...) launch (were its tests "
                  "skipped or deselected, or does it launch only behind a flag?)", file=sys.stderr)
    if assumed and not args.json:
        print(f"no GPU here: CUDA emulated as {assumed[0]}: tensors on the CPU, no kernel ran (every assumption "
              f"is listed under \"assumptions\" in {out})", file=sys.stderr)
    if failed is not None:   # the launches made before the script failed are kept (written above)
        kept = f"the {len(data['launches'])} distinct launch(es) it made before are written to {out}{emulated}"
        if exited:
            print(f"tileport: capture incomplete: {failed}; {kept}", file=sys.stderr)
        else:
            _report_script_error(label, failed, None, kept=kept)
        return 1
    return 1 if data["errors"] else 0


#: up to this many distinct launches `tileport capture` prints one by one; more, one line per kernel
CAPTURE_LINES = 24


def capture_lines(launches: list[dict]) -> list[str]:
    """What `tileport capture` prints of its launches: each (kernel as FILE::NAME names it — NAME@LINE a factory's,
    NAME[B=None] a Triton specialization —, grid, count, signature), or past CAPTURE_LINES one line per kernel (a
    test suite's thousands of launches; the file has them all)."""
    def name(l: dict) -> str:
        return l["kernel"].rpartition("::")[2]

    if len(launches) <= CAPTURE_LINES:
        return [f"{name(l)}  grid={tuple(l['grid'])}  x{l['count']}\n    {l['signature']}" for l in launches]
    per: dict[str, list[int]] = {}
    for l in launches:
        n = per.setdefault(name(l), [0, 0])
        n[0] += 1
        n[1] += l["count"]
    width = max(len(k) for k in per)
    return [f"{k:<{width}}  {d} distinct launch(es), {c} launch(es)" for k, (d, c) in per.items()] + [
        f"({len(launches)} distinct launches: each with its grid and signature in the capture file, or --json)"]


def _capture_host(args: argparse.Namespace, script: Path) -> tuple[object | None, list[str]]:
    """(the context a captured host program runs under, its assumptions): on a machine where torch is installed and
    sees no GPU, torch.cuda (and Triton's driver) answered as --target, CUDA tensors made on the CPU; on one without
    torch nor a CUDA driver, CuPy's numpy-backed stand-in alone (corpus/cupyemu.py); else none."""
    import importlib.util

    from .corpus import cupyemu
    from .corpus.cudaemu import parse_target
    from .frontends.cutile_py.capture import _driver_installed

    target = parse_target(args.target)
    if importlib.util.find_spec("torch") is None:
        if _driver_installed():
            return None, []
        return cupyemu.stand_in(target), [target.describe(), *cupyemu.assumptions(True)]
    from .corpus.capture import emulated_assumptions, emulated_host, gpu_here, project_roots

    if gpu_here():
        return None, []
    roots = project_roots(Path.cwd() / "-" if str(script) == "-m" else script)
    return emulated_host(target, roots), [target.describe(), *emulated_assumptions(target, roots)]


# ---------------------------------------------------------------- irdiff

def _unit_grid(text: str | None) -> frozenset:
    """``--unit-grid-b 1,2`` → {1, 2}; anything but grid dimensions 0..2 separated by commas is refused."""
    if not text:
        return frozenset()
    dims = [t.strip() for t in text.split(",")]
    if not all(t in ("0", "1", "2") for t in dims):
        raise InputError(f"--unit-grid-b {text!r}: expected grid dimensions 0, 1 or 2 separated by commas "
                         "(for example 1,2)")
    return frozenset(int(t) for t in dims)


def _layout_arity(layout) -> int:
    """Entry arguments a layout describes: an array of rank r takes 1 + 2r (+ extra), a scalar or stride 1."""
    return sum(1 + 2 * rank + extra if kind == "A" else 1 for kind, rank, extra in layout)


def _port_variant(path: str) -> tuple[Path, dict] | None:
    """(port directory, its port.json variant) when ``path`` is a file of DIR/variants/SYMBOL/ in a port directory
    (the layout of tileport port's output), else None."""
    p = Path(path)
    if "\n" in path or not p.is_file():
        return None
    vdir = p.resolve().parent
    port_dir = vdir.parent.parent
    if vdir.parent.name != "variants" or not (port_dir / "port.json").is_file():
        return None
    manifest = _port_manifest(port_dir)
    for v in manifest["variants"]:
        if (port_dir / v["reference"]).resolve().parent == vdir:
            return port_dir, v
    raise InputError(f"{path}: {port_dir / 'port.json'} has no variant whose reference is in {vdir.name}/; give "
                     "the layout with --layout-a/--layout-b")


def cmd_irdiff(args: argparse.Namespace) -> int:
    from .irdiff.canon import label_args, parse_layout
    from .irdiff.compare import compare_programs, load

    def layout(option: str, text: str | None):
        if text is None:
            return None
        try:
            return parse_layout(text)
        except ValueError as exc:
            raise InputError(f"{option} {text!r}: {exc}") from None

    layouts = {"a": (layout("--layout-a", args.layout_a), "--layout-a", args.layout_a),
               "b": (layout("--layout-b", args.layout_b), "--layout-b", args.layout_b)}
    unit_grid = _unit_grid(args.unit_grid_b)
    programs = {"a": load(args.a), "b": load(args.b)}
    say = _progress(args.json)
    target = None  # a port was proven for an architecture: its hints keyed by it equal default hints
    for side, path in (("a", args.a), ("b", args.b)):
        # the Rust side of a port (variants/SYMBOL/rust.tileir*): its argument layout is in port.json
        if layouts[side][0] is not None or not Path(path).name.startswith("rust.") or \
                (found := _port_variant(path)) is None:
            continue
        port_dir, v = found
        where = f"{port_dir / 'port.json'} (variant {v['symbol']})"
        layouts[side] = (parse_layout(v["layout"]), f"the layout in {where}", v["layout"])
        target = _arch(None)
        if v.get("unit_grid") and args.unit_grid_b is None:
            if side == "a":
                raise InputError(f"{path} is a port's Rust program launched with unit grid dimensions "
                                 f"{v['unit_grid']}: give it as B (`tileport irdiff REFERENCE RUST`)")
            unit_grid = frozenset(v["unit_grid"])
        say(f"layout of {side.upper()}: {v['layout']} from {where}"
            + (f", unit grid dimensions {sorted(unit_grid)}" if side == "b" and unit_grid else ""))
    for side in ("a", "b"):
        lay, option, text = layouts[side]
        program, source = programs[side]
        for entry in program.entries if lay is not None else ():
            if label_args(entry, lay)[1] != "layout":  # irdiff would fall back to matching by position
                raise InputError(f"{option} {text!r} describes {_layout_arity(lay)} entry argument(s), but "
                                 f"{source}'s entry @{entry.symbol} takes {len(entry.args)}")
    (pa, sa), (pb, sb) = programs["a"], programs["b"]
    verdict = compare_programs(pa, pb, source_a=sa, source_b=sb, layout_a=layouts["a"][0],
                               layout_b=layouts["b"][0], unit_grid_b=unit_grid, target=target)
    if args.json:
        _emit_json(verdict)
    else:
        con = _console()
        for d in verdict["differences"]:
            con.print(f"[bold red]{d['kind']}[/]: {d['detail']}", markup=True, highlight=False)
            for side in ("a", "b"):
                w = d[side]
                if w:
                    con.print(f"  {side.upper()} {w['file']}:{w['line']} ({w['path']})\n    {w.get('text', '')}",
                              markup=False)
        positional = [side for side in ("a", "b") if verdict["prologue"][side].get("layout") == "positional"]
        if positional and any(d["kind"] == "argument" for d in verdict["differences"]):
            con.print(f"hint: the entry arguments of {' and '.join(s.upper() for s in positional)} were matched by "
                      "position (no cuTile Python symbol, no port.json beside it): give "
                      f"{' / '.join('--layout-' + s for s in positional)}", markup=False)
        used = [f"{r['id']} (A {r['count']['a']}, B {r['count']['b']})" for r in verdict["rewrites_used"]
                if r["count"]["a"] or r["count"]["b"]]
        con.print("rules applied: " + (", ".join(used) or "none"), markup=False)
        con.print("[green]equivalent[/]" if verdict["equivalent"] else
                  f"[bold red]different[/] ({len(verdict['differences'])} difference(s))")
    return 0 if verdict["equivalent"] else 1


# ---------------------------------------------------------------- parser

class Parser(argparse.ArgumentParser):
    """argparse with tileport's error form: one line, exit 2 (bad input), and where to read the usage."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (`{self.prog} --help` shows the usage)\n")


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    import tileport

    p = Parser(prog="tileport", description=" ".join((tileport.__doc__ or "").split()), epilog=EPILOG,
               formatter_class=fmt)
    p.add_argument("--version", action="version", version=f"tileport {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    d = sub.add_parser("doctor", help="check the toolchain; exit 0 only when every required check passes",
                       formatter_class=fmt, description="""\
Checks cuda-tile, the CUDA tree (tileiras, tileirdisasm, ptxas, libnvvm: present and of one release), that tileiras
targets --arch, a real smoke compile (vector_add → bytecode → disassembly → cubin), the CUDA_HOME trap (tileiras
loads libnvvm from $CUDA_HOME and exits 5), and for the dev profile the CUDA headers, cargo/rustc, libclang and the
pinned cutile crate's build; and the GPU and driver when one is present. Each failure says what to do.""",
                       epilog="examples:\n  tileport doctor\n  tileport doctor --json --arch sm_100\n"
                              "  tileport doctor --profile runtime --require-gpu   # on a GPU host with a bundle")
    d.add_argument("--arch", help="target GPU architecture (default from pins.toml: sm_90)")
    d.add_argument("--profile", choices=("dev", "runtime"),
                   help="dev: everything to port and build (default); runtime: compile and run only "
                        "(default from $TILEPORT_PROFILE, which a bundle's env.sh sets)")
    d.add_argument("--require-gpu", action="store_true", help="fail when no GPU of --arch is present")
    d.add_argument("--json", action="store_true", help="print a JSON report instead of a table")
    d.set_defaults(func=cmd_doctor)

    t = sub.add_parser("toolchain", help="offline bundles and environment of the CUDA toolchain",
                       formatter_class=fmt, description="""\
The pinned CUDA toolchain (tileiras, tileirdisasm, ptxas, libnvvm, cuda-tile) travels to a GPU host without network
as one checksummed bundle: `pack` writes it here, `unpack` verifies and extracts it there (stdlib only) and writes
an env.sh; `env` prints the environment cargo needs to build the cutile crate against this tree.""",
                       epilog="examples:\n  tileport toolchain pack dist/toolchain.tar.xz --python 3.12\n"
                              "  tileport toolchain unpack dist/toolchain.tar.xz /opt/tc && source /opt/tc/env.sh\n"
                              "  eval \"$(tileport toolchain env)\"")
    tsub = t.add_subparsers(dest="toolchain_command", required=True, metavar="ACTION")
    pk = tsub.add_parser("pack", help="write an offline toolchain bundle (.tar.xz, ≤ 60 MB)", formatter_class=fmt,
                         description=bundle_doc(),
                         epilog="examples:\n  tileport toolchain pack dist/toolchain.tar.xz --python 3.12\n"
                                "  tileport toolchain pack dist/tc.tar.xz --cdylib rust/target/release/libk.so")
    pk.add_argument("out", help="bundle file to write (a .sha256 sidecar is written beside it)")
    pk.add_argument("--python", default=f"{sys.version_info.major}.{sys.version_info.minor}",
                    help="CPython version of the GPU host, for the cuda-tile wheel (default: this one)")
    pk.add_argument("--wheel", action="append", default=[], help="extra wheel to ship (repeatable)")
    pk.add_argument("--cdylib", action="append", default=[], help="built shared library to ship (repeatable)")
    pk.add_argument("--no-probe", action="store_true", help="do not ship the tileport-probe binary")
    pk.add_argument("--no-disasm", action="store_true",
                    help="do not ship tileirdisasm (only the IR diff uses it, never a GPU host): ~1 MB smaller")
    pk.add_argument("--no-cuda-tile-wheel", action="store_true", help="do not download/ship the cuda-tile wheel")
    pk.add_argument("--wheel-cache", default=".cache/wheels", help="where downloaded wheels are kept")
    pk.add_argument("--max-mb", type=float, default=60, help="refuse to write a bundle larger than this (MB)")
    pk.add_argument("--fast", action="store_true", help="fast, larger compression (for tests)")
    pk.add_argument("--json", action="store_true", help="print the manifest as JSON")
    pk.set_defaults(func=cmd_pack)
    up = tsub.add_parser("unpack", help="verify and unpack a bundle; writes DEST/env.sh", formatter_class=fmt,
                         description="Checks BUNDLE against its .sha256 sidecar and every member against the "
                                     "manifest, refuses unsafe members, extracts into DEST, installs the bundled "
                                     "wheels into DEST/site and writes DEST/env.sh (source it, then `tileport "
                                     "doctor`).",
                         epilog="example:\n  tileport toolchain unpack toolchain.tar.xz /opt/tileport-tc && "
                                "source /opt/tileport-tc/env.sh\n"
                                "  (stdlib only: also `python3 -m tileport toolchain unpack ...` with PYTHONPATH=src)")
    up.add_argument("bundle")
    up.add_argument("dest")
    up.add_argument("--json", action="store_true")
    up.set_defaults(func=cmd_unpack)
    ev = tsub.add_parser("env", help="print the environment cargo needs for the cutile crate (eval-able)",
                         formatter_class=fmt, description="Prints `export NAME=VALUE` lines (or --json) that point "
                         "the cutile crate's build at this CUDA tree, and unsets CUDA_HOME/CUDA_PATH (tileiras would "
                         "load another release's libnvvm from there).",
                         epilog="examples:\n  eval \"$(tileport toolchain env)\" && cargo build --release\n"
                                "  tileport toolchain env --json")
    ev.add_argument("--json", action="store_true")
    ev.set_defaults(func=cmd_env)

    c = sub.add_parser("compile", help="compile a cuTile Python kernel to Tile IR (+ disassembly, + cubin)",
                       formatter_class=fmt, description="Compiles KERNEL at each --sig with the real cuda-tile "
                       "compiler, writes SYMBOL.tileirbc, SYMBOL.tileir.txt (tileirdisasm) and SYMBOL.ARCH.cubin "
                       "(tileiras) into --out. No GPU needed.", epilog=_sig_help() + "\nexample:\n  tileport compile "
                       "k.py::vector_add --sig 'f32[?]/1, f32[?]/1, f32[?]/1, #1024' --out build/vadd")
    c.add_argument("kernel", metavar="FILE.py::KERNEL")
    c.add_argument("--sig", action="append", required=True, help="launch signature (repeatable; see below)")
    c.add_argument("--out", required=True, help="output directory")
    c.add_argument("--arch", help="cubin target (default sm_90); 'none' to skip the cubin")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_compile)

    an = sub.add_parser("analyze", help="specialize a kernel at its signatures; write reference IR and spec.json",
                        formatter_class=fmt, description="""\
Specializes FILE.py::KERNEL at every signature on the CPU with cuda-tile's export API and writes, under --out:
variants/SYMBOL/reference.tileirbc and reference.tileir.txt per variant, and spec.json (validated against the
package's JSON Schema): parameters, constant values, the constant-folded branches and which way each variant took
them, loops and bounds, every load/store site with its padding and bounds-check options made explicit, hints,
grids of captured launches and their formula, dtypes and conversions. What cannot be determined is "unknown".""",
                        epilog=_sig_help() + "\nsignature sources (combine freely):\n  --sig TEXT   --sigs FILE.json "
                               "(a list of strings)   --capture FILE (from `tileport capture`)\n\nexamples:\n"
                               "  tileport analyze k.py::matmul --sig 'f16[?,?]/?,1, f16[?,?]/?,1, f16[?,?]/?,1, "
                               "#128, #128, #64' --out build/matmul\n"
                               "  tileport capture --out l.json -- python host.py && "
                               "tileport analyze k.py::matmul --capture l.json --out build/matmul")
    _kernel_inputs(an, "output directory")
    an.add_argument("--json", action="store_true", help="print spec.json to stdout too")
    an.set_defaults(func=cmd_analyze)

    po = sub.add_parser("port", help="analyze → translate → build → irdiff; writes DIR/verdict.json",
                        formatter_class=fmt, description="""\
Ports FILE.py::KERNEL to cuTile Rust and proves it: analyze (reference Tile IR + spec.json), translate (kernel.rs,
formatted, one entry with const generics), build (cargo, through cutile's compile-only API), irdiff (every variant
against its reference). Each stage's result goes into DIR/verdict.json; a failed stage stops the pipeline and says
why. Exit code 0 only if every stage passed and every variant is equivalent ("status": "proven"). An unsupported
construct stops translation with file:line:col and leaves DIR/work_order.json for a port written by hand; finish
it with `tileport verify DIR`.

A @triton.jit kernel is recognised and lowered to cuTile Python first (DIR/lowered.py, DIR/lowered.json: each
pointer becomes an array view built at launch from the Triton arguments), then ported like any cuTile kernel; it
needs --capture (the parameter kinds and the values that shape each view). The GPU tests check the lowering
against the Triton kernel itself. What the lowering accepts: docs/coverage.md (Triton frontend).""",
                        epilog=_sig_help() + "\nexamples:\n  tileport port src/tileport/kernels/"
                        "vector_add.py::vector_add --sig 'f32[?]/1, f32[?]/1, f32[?]/1, #1024' --out build/port/vadd\n"
                        "  tileport capture --out t.json -- python src/tileport/examples/triton/host.py && \\\n"
                        "  tileport port src/tileport/kernels/triton/softmax.py::triton_softmax --capture t.json "
                        "--hint occupancy=4 --out build/port/tsoftmax")
    _kernel_inputs(po, "port directory")
    po.add_argument("--hint", action="append", metavar="NAME=INT",
                    help="Triton kernels only: a cuTile kernel option for the lowered form (occupancy, num_ctas, "
                         "num_worker_warps), or ieee_div=1: f32 division rounded as IEEE (by default it is Triton's own "
                         "div.full, bit for bit), or plain_stores=1 / plain_loads=1: stores / pointer loads "
                         "without TMA, or load_latency=1..10: every load's latency hint (see "
                         "tileport.frontends.triton.lower); other names are refused. With no "
                         "--hint, occupancy follows the launches' num_warps when they state one (64 // num_warps "
                         "CTAs per SM, at most 8)")
    po.add_argument("--arch", help="target for the Rust side's compile (default sm_90)")
    po.add_argument("--json", action="store_true", help="print verdict.json")
    po.set_defaults(func=cmd_port)
    tr = sub.add_parser("translate", help="spec.json + source in DIR → DIR/kernel.rs and port.json",
                        formatter_class=fmt, description="""\
Runs the translate stage alone on a directory that `tileport analyze --out DIR` (or `tileport port`) wrote: reads
DIR/spec.json (validated against spec.schema.json), the kernel source it names and the reference IR of every
variant, and writes DIR/kernel.rs (cuTile Rust) and DIR/port.json (the entry, const generics, strides and argument
layout of each variant). An unsupported construct stops it with file:line:col (exit 1). `tileport verify DIR` then
builds and proves the result.""",
                        epilog="example:\n  tileport analyze k.py::vector_add --sig 'f32[?]/1, f32[?]/1, f32[?]/1, "
                               "#1024' --out build/vadd\n  tileport translate build/vadd && tileport verify build/vadd")
    tr.add_argument("dir")
    tr.add_argument("--json", action="store_true")
    tr.set_defaults(func=cmd_translate)
    ve = sub.add_parser("verify", help="build → irdiff on the kernel.rs in DIR (bring-your-own port)",
                        formatter_class=fmt, description="""\
Builds DIR/kernel.rs with the cutile crate and compares every variant's Rust Tile IR with its reference (the last
two stages of `tileport port`), for a port written or edited by hand: DIR needs spec.json and the reference IR (from
`tileport analyze` or a work order), kernel.rs and port.json (validated against port.schema.json). Prints the build
and irdiff stages, writes DIR/verdict.json; exit 0 only when every variant is equivalent.""",
                        epilog="examples:\n  tileport verify build/port/gather_rows      # after writing the "
                               "kernel.rs its work_order.json asks for\n  tileport verify build/vadd --json")
    ve.add_argument("dir")
    ve.add_argument("--arch", help="target of the Rust side's compile (default sm_90)")
    ve.add_argument("--json", action="store_true")
    ve.set_defaults(func=cmd_verify)

    cp = sub.add_parser("capture", help="record the cuTile and Triton launches of a host script (CPU is enough)",
                        formatter_class=fmt, description="""\
Runs SCRIPT.py as __main__ (or -m MODULE, e.g. -m pytest tests/) with ct.launch and Triton's kernel[grid](...)
intercepted: each launch is recorded (kernel, source, grid, every argument's dtype/shape/strides, constant values)
and not executed, so CPU arrays (numpy, torch CPU tensors, anything with __array_interface__ /
__cuda_array_interface__) work on a machine without a GPU. The recorded signatures carry the same
divisibility/alignment facts ct.launch would specialize on. Identical launches are recorded once, with a count. The
output feeds `tileport port FILE::KERNEL --capture FILE` and `tileport analyze --capture FILE`.

On a machine without a GPU where torch is installed, the program's CUDA is emulated as in `tileport corpus
capture`: torch.cuda answers as --target (is_available(), capability, properties, mem_get_info; streams, events
and CUDA graphs do nothing), tensors asked for on cuda are made on the CPU and the program's own code (the
script's folder, its project, the working directory) sees them as cuda:0; Triton's driver answers as the target,
triton.testing.do_bench calls once, @triton.autotune and cuda.tile.tune.exhaustive_search launch their first
config; numeric comparisons answer 'close' (no kernel ran). With or without torch, `import cupy` gives a
numpy-backed stand-in there (cupy arrays in host memory, speaking __cuda_array_interface__; CuPy's own kernels
cannot run). The capture file lists these under "assumptions".
A program that fails after launching keeps its launches: they are written, and the exit status is 1.

A launch the launch itself refuses (cuda-tile 1.7's own argument check: a numpy scalar, None, a dtype or string
as an argument or a ct.Constant, a wrong argument count, a float grid; Triton's: a missing argument) raises its
TypeError in the program, as on a GPU, and is listed under "rejected". Each kernel is printed as FILE::NAME names
it for `tileport port`: NAME@LINE (by its def line, ~DIGEST of the values it closes over) for a kernel a function
made (a factory), NAME[B=None] / NAME[OUT=fp16] for launches of a Triton kernel that Triton specializes apart (a
pointer passed None, a dtype constexpr) where the launches disagree.""",
                        epilog="examples:\n  tileport capture --out build/launches.json -- python "
                               "src/tileport/examples/host.py 1000x768 4096x1024\n"
                               "  tileport capture --out build/t.json -- python bench.py --sizes 1024\n"
                               "  tileport capture --out build/t.json -- python -m pytest tests/test_add.py")
    cp.add_argument("--out", default="launches.json", help="capture file to write (default launches.json)")
    cp.add_argument("--target", default="h200",
                    help="without a GPU here: the GPU torch.cuda answers as: h200 (default), h100, or "
                         "NAME:sm_XY:SMS:MEM_GB")
    cp.add_argument("--json", action="store_true", help="also print the capture as JSON")
    cp.add_argument("command", nargs=argparse.REMAINDER, help="-- python SCRIPT.py [ARGS...]")
    cp.set_defaults(func=cmd_capture)

    rn = sub.add_parser("run", help="run a cuTile host program with its ct.launch calls on the Rust ports (GPU)",
                        formatter_class=fmt, description="""\
Runs SCRIPT.py (or -m MODULE, e.g. -m pytest) in this process with ct.launch replaced: each launch runs the proven
Rust port of its kernel at that specialization, from a served library (built by `tileport ops build --from PORTS
--into LIB` from the ports of the program's captured launches), on the stream the program passes. A launch without a
proven, fresh port stops the program with an error naming the kernel, its signature and the commands that port it;
with --fallback it runs as cuTile Python instead, logged and counted. The same from Python: tileport.install(LIB),
`with tileport.rust_launches(LIB):`; for a test suite: `TILEPORT_BACKEND=cutile-rs TILEPORT_SERVED=LIB python -m
pytest -p tileport.pytest_launch ...`.""", epilog="""\
examples:
  tileport corpus capture ../TileGym --tests tests/ops/test_rms_norm.py --out build/cap
  tileport corpus port build/cap --corpus ../TileGym --out build/ports
  tileport ops build --from build/ports --corpus ../TileGym --into build/served
  tileport run --library build/served -- python -m pytest ../TileGym/tests/ops/test_rms_norm.py
  tileport run --library build/served --fallback --stats build/launches.json -- python host.py""")
    rn.add_argument("--library", metavar="LIB", help="the served library (default: $TILEPORT_SERVED)")
    rn.add_argument("--fallback", action="store_true",
                    help="run launches without a proven port as cuTile Python (logged, counted) instead of failing")
    rn.add_argument("--stats", metavar="FILE", help="write the launches run through Rust and the fallbacks as JSON")
    rn.add_argument("command", nargs=argparse.REMAINDER, help="-- python SCRIPT.py|-m MODULE [ARGS...]")
    rn.set_defaults(func=cmd_run)

    from .corpus.cli import register as register_corpus  # `tileport corpus capture`
    register_corpus(sub, fmt)

    ir = sub.add_parser("irdiff", help="are two Tile IR programs structurally the same? (exit 0 iff equivalent)",
                        formatter_class=fmt, description="""\
Compares two Tile IR programs (bytecode .tileirbc, or tileirdisasm text) op by op as dataflow graphs: value names,
the entry symbol, debug locations, unused arguments and dead pure ops do not matter; op names, attributes (rounding,
flush_to_zero, padding, tile shapes, strides, hints, memory ordering), types, operands and regions do. Entry
arguments are matched by role (array k's pointer/shape/stride, scalar k): the layout is read from a cuTile Python
mangled symbol, from the port.json of a port directory when a program is a port's Rust side
(DIR/variants/SYMBOL/rust.tileir.txt or .tileirbc; its unit grid dimensions too), or given with
--layout-a/--layout-b (needed for other cutile entries, whose mutable tensors carry extra arguments); a layout
that does not describe exactly the entry's arguments is refused. Proven-equivalent rewrites are listed in
tileport.irdiff.rules; each one used is reported. Exit 0 equivalent, 1 different, 2 bad input (not Tile IR, a
malformed option).""",
                        epilog="layout syntax: comma-separated A<rank>[+<extra args>] per array, S per scalar, in "
                               "entry order, e.g. A1,A1,A1+2\n\nexamples:\n"
                               "  tileport irdiff build/port/vadd/variants/*/reference.tileir.txt "
                               "build/port/vadd/variants/*/rust.tileir.txt   # layout from port.json\n"
                               "  tileport irdiff build/ref/k.tileirbc build/rust/k.tileirbc --layout-b A1,A1,A1+2\n"
                               "  tileport irdiff a.tileir.txt b.tileir.txt --json")
    ir.add_argument("a", help="program A (.tileirbc or disassembly)")
    ir.add_argument("b", help="program B (.tileirbc or disassembly)")
    ir.add_argument("--layout-a", help="argument layout of A's entry (default: from its mangled symbol)")
    ir.add_argument("--layout-b", help="argument layout of B's entry (default: from its mangled symbol, or from "
                                       "port.json for a port's rust.tileir* file)")
    ir.add_argument("--unit-grid-b", metavar="DIMS",
                    help="grid dimensions B is launched with extent 1 (e.g. 1,2): its block ids there are 0")
    ir.add_argument("--json", action="store_true",
                    help='print {"equivalent", "differences", "rewrites_used", "op_inventory", "prologue"}')
    ir.set_defaults(func=cmd_irdiff)

    ops = sub.add_parser("ops", help="the operator library served to PyTorch (tileport.ops) and its Rust build",
                         formatter_class=fmt, description="""\
tileport.ops serves each ported kernel to PyTorch through two backends: cutile (the cuTile Python kernel) and
cutile-rs (its proven Rust port, from the cdylib built here). `build` (re-)ports and builds the library, `list`
says what it holds, `pack`/`unpack` carry a built library to a GPU host without cargo.""",
                         epilog="examples:\n  tileport ops build --port\n  tileport ops list\n"
                                "  tileport ops pack .bundle/tileport-ops.tar.xz")
    osub = ops.add_subparsers(dest="ops_cmd", required=True)
    ob = osub.add_parser("build", help="regenerate and build the Rust kernel library (cdylib); --port re-ports first",
                         formatter_class=fmt, description="Regenerates the library's Rust (ffi.rs, the ports) from "
                         "rust/tileport-ops/ports.json and builds the cdylib and its Python extension; with --port, "
                         "first ports each op's kernel at its PORT_SIGNATURES and keeps the proven ones. Exit 1 "
                         "when an op is not proven.", epilog="""\
examples:
  tileport ops build --port            port every op at its PORT_SIGNATURES, keep proven ports, build
  tileport ops build --port --ops rms_norm,softcap
  tileport ops build --if-stale        build only if the library's inputs changed
  tileport ops build --from build/corpus --corpus ../TileGym --into build/served
                                       a served library of every proven port of a corpus (for ct.launch)

The library (rust/tileport-ops, target/release/libtileport_ops.so) holds only proven ports; rust/tileport-ops/
ports.json says what each op was proven at. The cutile-rs backend rebuilds it by itself when stale unless
TILEPORT_AUTOBUILD=0.""")
    ob.add_argument("--port", action="store_true", help="re-port the ops (analyze → translate → build → irdiff)")
    ob.add_argument("--ops", help="comma-separated op names (default: all)")
    ob.add_argument("--if-stale", action="store_true", help="do nothing when the built library is fresh")
    ob.add_argument("--from", dest="from_ports", metavar="PORTS",
                    help="build a served library instead: every proven cuTile port under PORTS (what `tileport "
                         "corpus port` or `tileport port` wrote), for ct.launch (tileport run, tileport.install)")
    ob.add_argument("--into", metavar="LIB", help="with --from: the folder to write the served library to")
    ob.add_argument("--corpus", metavar="DIR", help="with --from: the corpus the ports' sources are in (kernels are "
                    "then found by their path inside it, on any machine)")
    ob.add_argument("--json", action="store_true")
    ob.set_defaults(func=cmd_ops_build)
    opk = osub.add_parser("pack", help="xz the built library + its freshness stamp for a GPU host without cargo",
                          formatter_class=fmt, description="Writes the built library, its Python extension and "
                          "their inputs stamp as one xz tar (~3 MB); refuses a missing or stale build.",
                          epilog="example:\n  tileport ops build --if-stale && tileport ops pack "
                                 ".bundle/tileport-ops.tar.xz")
    opk.add_argument("dest", metavar="DEST.so.xz")
    opk.add_argument("--library", metavar="LIB", help="pack the served library in LIB (what `tileport ops build "
                     "--from PORTS --into LIB` wrote) instead of the operator library")
    opk.set_defaults(func=cmd_ops_pack)
    oup = osub.add_parser("unpack", help="unpack a packed library into DIR; prints the environment to use it",
                          formatter_class=fmt, description="Extracts what `tileport ops pack` wrote into DIR and "
                          "prints the environment (TILEPORT_LIBRARY, TILEPORT_AUTOBUILD=0) that makes the cutile-rs "
                          "backend load it.",
                          epilog="example:\n  eval \"$(tileport ops unpack tileport-ops.tar.xz /opt/tileport-ops)\"")
    oup.add_argument("src", metavar="SRC.so.xz")
    oup.add_argument("dir", metavar="DIR")
    oup.set_defaults(func=cmd_ops_unpack)
    ol = osub.add_parser("list", help="the ops in the library, their status and specializations",
                         formatter_class=fmt, description="Reads rust/tileport-ops/ports.json: each op's status "
                         "(proven or why not), the signatures it was proven at and its Rust entries; and whether "
                         "the built library is fresh.", epilog="examples:\n  tileport ops list\n"
                                                                 "  tileport ops list --json")
    ol.add_argument("--json", action="store_true")
    ol.set_defaults(func=cmd_ops_list)

    # Listed for --help only: main() hands `tileport bench ...` to the bench's own parser before this one runs.
    sub.add_parser("bench", help="time cutile vs cutile-rs per op, shape and dtype on a GPU (see --help)",
                   add_help=False)

    dm = sub.add_parser("demo", help="compile the bundled vector_add example to Tile IR and an sm_90 cubin",
                        formatter_class=fmt, description="`tileport compile` on the bundled vector_add kernel at "
                        "its demo signature: writes the Tile IR bytecode, its disassembly (printed) and an sm_90 "
                        "cubin into --out. CPU only; a quick check that the toolchain works end to end.",
                        epilog="examples:\n  tileport demo\n  tileport demo --out build/demo --arch none   "
                               "# Tile IR only, no cubin")
    dm.add_argument("--out", default="build/demo", help="output directory (default build/demo)")
    dm.add_argument("--arch", help="cubin target (default sm_90)")
    dm.add_argument("--json", action="store_true")
    dm.set_defaults(func=cmd_demo)
    return p


def _kernel_inputs(p: argparse.ArgumentParser, out_help: str) -> None:
    """The kernel and its signature sources, shared by analyze and port (read by _signature_inputs)."""
    p.add_argument("kernel", metavar="FILE.py::KERNEL")
    p.add_argument("--sig", action="append", help="launch signature (repeatable; syntax below)")
    p.add_argument("--sigs", metavar="FILE.json", help='JSON file: a list of signatures, or {"format": 1, '
                   '"signatures": [...]} (tileport/spec/sigs.schema.json)')
    p.add_argument("--capture", metavar="FILE.json", help="capture file from `tileport capture` "
                   "(tileport/spec/capture.schema.json)")
    p.add_argument("--out", required=True, help=out_help)


def bundle_doc() -> str:
    from .toolchain import bundle

    return (bundle.__doc__ or "").strip()


TRACEBACK_ENV = "TILEPORT_TRACEBACK"


def main(argv: list[str] | None = None) -> int:
    """Exit codes: 0 done (proven, equivalent, ...), 1 a stage ran and failed (or a host script under capture
    raised), 2 bad input (a missing or malformed file, an unusable --out, a malformed option), 130 interrupted.
    Errors are one line on stderr; a Python traceback of tileport's own is shown only with TILEPORT_TRACEBACK=1."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["bench"]:  # its own parser (options such as --out would be taken for tileport's)
            from .bench import runner

            return runner.main(argv[1:])
        args = build_parser().parse_args(argv)
        return args.func(args)
    except TileportError as exc:
        print(f"tileport: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("tileport: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `tileport ... | head`: the reader left; nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when stdout is flushed
        return 1
    except OSError as exc:  # the file system refused mid-work (a file in the way, a full disk): the stage failed
        if os.environ.get(TRACEBACK_ENV):
            raise
        where = " -> ".join(str(f) for f in (exc.filename, exc.filename2) if f is not None)
        print(f"tileport: error: {where + ': ' if where else ''}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug of tileport's: one line, the traceback on request
        if os.environ.get(TRACEBACK_ENV):
            raise
        where = traceback.extract_tb(exc.__traceback__)[-1]
        print(f"tileport: internal error: {type(exc).__name__}: {' '.join(str(exc).split())[:300]} (at "
              f"{Path(where.filename).name}:{where.lineno}; a bug in tileport — {TRACEBACK_ENV}=1 shows the "
              "traceback)", file=sys.stderr)
        return 1
