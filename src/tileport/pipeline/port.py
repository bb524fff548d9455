"""``tileport port`` / ``translate`` / ``verify``: each stage writes files and a verdict entry; a failed stage
stops the pipeline and says why. ``verdict.json`` is deterministic (no times, paths relative to the port
directory), so a rerun writes the same bytes.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from .. import __version__
from ..errors import TileportError
from ..frontends.cutile_py.analyze import analyze
from ..frontends.cutile_py.capture import constant_params
from ..frontends.cutile_py.loader import load_kernel
from ..irdiff.canon import parse_layout
from ..irdiff.compare import compare_programs
from ..irdiff.parse import parse as parse_ir
from ..rustgen import crate as cratemod
from ..rustgen.module import render
from ..spec import signature as sigmod
from ..toolchain.locate import CudaTree, run_tool
from ..translate.emit import Unsupported, emit_kernel
from ..translate.guide import op_locations

Progress = Callable[[str], None]


def translate(port_dir: Path, tree: CudaTree) -> dict:
    """spec.json + kernel source → kernel.rs and port.json (entry and generics of every variant)."""
    spec = json.loads((port_dir / "spec.json").read_text())
    ref = f"{spec['kernel']['source']}::{spec['kernel']['name']}"
    kernel = load_kernel(ref)
    consts = constant_params(kernel.kernel)
    source = Path(spec["kernel"]["source"])
    fma: dict = {}
    for v in spec["variants"]:  # the most fmas any variant has at each position (variants share one body)
        for loc, n in op_locations(tree, port_dir / v["ir"]["bytecode"], source).get("fma", {}).items():
            fma[loc] = max(fma.get(loc, 0), n)
    emitted, variants = None, []
    for v in spec["variants"]:
        sig = sigmod.bind(sigmod.parse(v["signature"]), kernel.param_names, kernel.name)
        e = emit_kernel(source, kernel.name, sig, consts, fma)
        if emitted is not None and (e.body, e.params) != (emitted.body, emitted.params):
            raise Unsupported(str(source), _fn_node(source, kernel.name), "if-constant",
                              "variants whose Rust bodies differ (constant branches)")
        emitted = e
        variants.append({"symbol": v["symbol"], "entry": e.entry,
                         "generics": [str(v["constants"][g]) for g in e.generics], "strides": e.strides,
                         "specs": e.specs, "unit_grid": e.unit_grid, "preconditions": e.preconditions,
                         "layout": e.layout, "reference": v["ir"]["bytecode"]})
    assert emitted is not None
    text = render(emitted, spec["kernel"]["source"], "spec.json")
    (port_dir / "kernel.rs").write_text(text)
    manifest = {"kernel": ref, "module": "port", "entries": [emitted.entry], "variants": variants,
                "unsafe_sites": [dict(u, file=str(source)) for u in emitted.unsafe_sites]}
    (port_dir / "port.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def _fn_node(source: Path, name: str):
    import ast

    return next(n for n in ast.parse(source.read_text()).body if isinstance(n, ast.FunctionDef) and n.name == name)


def verify(port_dir: Path, tree: CudaTree, arch: str, progress: Progress = lambda s: None) -> dict:
    """build → irdiff on whatever kernel.rs and port.json are in ``port_dir``."""
    stages: dict = {}
    manifest = json.loads((port_dir / "port.json").read_text())
    progress("build: cargo build of kernel.rs")
    try:
        binary = cratemod.build(port_dir, tree)
    except TileportError as exc:
        stages["build"] = {"ok": False, "error": str(exc)}
        return stages
    stages["build"] = {"ok": True}
    results, all_diffs = [], []
    for v in manifest["variants"]:
        progress(f"irdiff: {v['symbol']}")
        vdir = port_dir / "variants" / v["symbol"]
        rust_bc = vdir / "rust.tileirbc"
        try:
            cratemod.irgen(binary, tree, v["entry"], rust_bc, v["generics"], v["strides"], arch, v.get("specs"))
        except TileportError as exc:
            results.append({"symbol": v["symbol"], "equivalent": False, "error": str(exc)})
            continue
        rust_txt = run_tool(tree, "tileirdisasm", [str(rust_bc)]).stdout
        (vdir / "rust.tileir.txt").write_text(rust_txt)
        ref_txt = (port_dir / v["reference"]).with_suffix(".tileir.txt").read_text()
        verdict = compare_programs(parse_ir(ref_txt), parse_ir(rust_txt),
                                   source_a=str(Path(v["reference"]).with_suffix(".tileir.txt")),
                                   source_b=str(rust_bc.relative_to(port_dir).with_suffix(".tileir.txt")),
                                   layout_b=parse_layout(v["layout"]),
                                   unit_grid_b=frozenset(v.get("unit_grid", [])))
        results.append({"symbol": v["symbol"], "entry": v["entry"], "generics": v["generics"],
                        "preconditions": v.get("preconditions", []), "equivalent": verdict["equivalent"], "differences": verdict["differences"],
                        "rewrites_used": [r for r in verdict["rewrites_used"]
                                          if r["count"]["a"] or r["count"]["b"]],
                        "op_inventory": verdict["op_inventory"]})
        all_diffs += verdict["differences"]
    equivalent = bool(results) and all(r["equivalent"] for r in results)
    stages["irdiff"] = {"ok": equivalent, "equivalent": equivalent, "differences": all_diffs, "variants": results}
    return stages


def port(kernel_ref: str, sigs: list[sigmod.Signature], launches: list[dict], tree: CudaTree, out: Path,
         arch: str, progress: Progress = lambda s: None) -> dict:
    kernel = load_kernel(kernel_ref)
    verdict: dict = {"kernel": kernel.name, "source": str(kernel.path), "tileport": __version__, "stages": {}}
    st = verdict["stages"]
    out.mkdir(parents=True, exist_ok=True)
    progress(f"analyze: {kernel.name}")
    try:
        spec = analyze(kernel, sigs, launches, tree, out, progress)
        st["analyze"] = {"ok": True, "spec": "spec.json", "variants": [v["symbol"] for v in spec["variants"]]}
    except TileportError as exc:
        st["analyze"] = {"ok": False, "error": str(exc)}
        return _finish(verdict, out)
    progress("translate: kernel.rs")
    try:
        manifest = translate(out, tree)
        st["translate"] = {"ok": True, "kernel_rs": "kernel.rs", "entries": manifest["entries"],
                           "unsafe_sites": manifest["unsafe_sites"]}
    except Unsupported as exc:
        st["translate"] = {"ok": False, "error": str(exc), "construct": exc.construct,
                           "location": {"file": exc.file, "line": exc.line, "col": exc.col}}
        _work_order(out, spec, exc)
        return _finish(verdict, out)
    st.update(verify(out, tree, arch, progress))
    return _finish(verdict, out)


def _work_order(out: Path, spec: dict, exc: Unsupported) -> None:
    order = {"why": str(exc), "construct": exc.construct,
             "location": {"file": exc.file, "line": exc.line, "col": exc.col},
             "spec": "spec.json",
             "reference_ir": [v["ir"]["disasm"] for v in spec["variants"]],
             "expects": {"module": "port", "entry": spec["kernel"]["name"],
                         "variants": [{"symbol": v["symbol"], "signature": v["signature"],
                                       "const_generics": v["constants"]} for v in spec["variants"]]},
             "next": "write kernel.rs (a #[cutile::module] pub mod port) and port.json beside it, then run "
                     "`tileport verify DIR`"}
    (out / "work_order.json").write_text(json.dumps(order, indent=1) + "\n")


def _finish(verdict: dict, out: Path) -> dict:
    stages = verdict["stages"]
    order = ("analyze", "translate", "build", "irdiff")
    verdict["ok"] = all(stages.get(s, {}).get("ok") for s in order)
    verdict["status"] = "proven" if verdict["ok"] else ("unproven" if all(
        stages.get(s, {}).get("ok") for s in order[:3]) else "failed")
    (out / "verdict.json").write_text(json.dumps(verdict, indent=1, sort_keys=True) + "\n")
    return verdict
