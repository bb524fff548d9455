"""``tileport port`` / ``translate`` / ``verify``: each stage writes files and a verdict entry; a failed stage
stops the pipeline and says why. ``verdict.json`` is deterministic (no times, paths relative to the port
directory), so a rerun writes the same bytes.
"""
from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from .. import __version__
from ..errors import TileportError
from ..frontends.cutile_py.analyze import add_variants, analyze
from ..frontends.cutile_py.capture import constant_params
from ..frontends.cutile_py.hints import cutile_options
from ..frontends.cutile_py.loader import KernelLoadError, load_kernel
from ..irdiff.canon import parse_layout
from ..irdiff.compare import compare_programs
from ..irdiff.parse import parse as parse_ir
from ..locks import out_dir_lock
from ..rustgen import crate as cratemod
from ..rustgen import generic
from ..rustgen.module import render
from ..spec import signature as sigmod
from ..toolchain.locate import CudaTree, run_tool
from ..translate.emit import DEFAULT_OPT_LEVEL, Unsupported, emit_kernel, rust_entry_name
from ..translate.guide import op_locations
from ..translate.helpers import kernel_files, sources_sha256
from ..translate.value_generic import Traced, mentioned_in_comments, second_value, value_only

Progress = Callable[[str], None]
T = TypeVar("T")
R = TypeVar("R")


def jobs() -> int:
    """How many variants are compiled and compared at once: $TILEPORT_JOBS, else the CPUs this process may use."""
    env = os.environ.get("TILEPORT_JOBS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


#: at most jobs() irgen / tileirdisasm processes at a time, however the work is split among threads
_TOOLS = threading.BoundedSemaphore(jobs())


def _in_parallel(fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """``[fn(x) for x in items]`` on up to jobs() threads (the work is in subprocesses), results in order."""
    items = list(items)
    if jobs() == 1 or len(items) < 2:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(max_workers=min(jobs(), len(items))) as pool:
        return list(pool.map(fn, items))


def _display(path: Path) -> str:
    """A source path as generated files show it: relative to tileport's checkout when inside it (so committed
    generated files do not depend on where the repo is cloned), else absolute."""
    from .. import paths

    try:
        return str(path.resolve().relative_to(paths.PACKAGE_DIR.parents[1]))
    except ValueError:
        return str(path)


def _slug(value) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in str(value).lower()).strip("_") or "0"


def _describe_constants(constants: dict) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in constants.items())


def _entry_names(kernel, groups: list) -> list[str]:
    """Rust-identifier names for several entries of one kernel, from what tells them apart: the arrays' dtype
    (`rms_norm_bf16`) and the constants Rust cannot take as generics (`leaky_relu_slope_0_2`); an index where
    nothing named does."""
    feats = []
    for _e, served in groups:
        sig = sigmod.bind(sigmod.parse(served[0]["signature"]), kernel.param_names, kernel.name)
        feats.append(({n: p.dtype for n, p in sig.params if isinstance(p, sigmod.ArraySig)}, served[0]["constants"],
                      tuple((n, p.shape) for n, p in sig.params if isinstance(p, sigmod.ArraySig) and
                            any(d is not None for d in p.shape))))
    arrays = [k for k in feats[0][0] if len({f[0].get(k) for f in feats}) > 1]
    consts = [k for k in feats[0][1] if len({repr(f[1].get(k)) for f in feats}) > 1]
    # static extents (calling convention v2: an extent-1 axis at the launch) tell entries apart too: `_v2`, or
    # `_v2_1`, `_v2_2`.. where several static patterns have entries
    patterns = sorted({f[2] for f in feats if f[2]}, key=str)
    names = []
    for dtypes, constants, static in feats:
        parts = []
        if arrays:
            values = [dtypes[k] for k in arrays]
            parts += [values[0]] if len(set(values)) == 1 else [f"{k.lower()}_{dtypes[k]}" for k in arrays]
        parts += [f"{k.lower()}_{_slug(constants[k])}" for k in consts]
        if static and len({f[2] for f in feats}) > 1:
            parts.append("v2" if len(patterns) == 1 else f"v2_{patterns.index(static) + 1}")
        names.append(f"{rust_entry_name(kernel.name)}_{'_'.join(parts) or 'v'}")
    if len(set(names)) < len(names):
        names = [f"{n}_{i}" for i, n in enumerate(names)]
    return names


def _element_types(kernel, groups: list) -> list[str | None]:
    """Per entry: the one dtype of the arrays whose dtype differs between the kernel's entries (`rms_norm_bf16`:
    bf16), or None where those arrays have several (or none differ)."""
    dtypes = []
    for _e, served in groups:
        sig = sigmod.bind(sigmod.parse(served[0]["signature"]), kernel.param_names, kernel.name)
        dtypes.append({n: p.dtype for n, p in sig.params if isinstance(p, sigmod.ArraySig)})
    varying = [k for k in dtypes[0] if len({d.get(k) for d in dtypes}) > 1]
    return [next(iter(one)) if len(one := {d.get(k) for k in varying}) == 1 else None for d in dtypes]


def _unfolded(e, name: str, sig: sigmod.Signature, emit: Callable) -> bool:
    """Whether the translator, emitting ``sig`` again with constant ``name``'s value traced, neither folds it
    (compares, computes with, tests or converts it: a decision the text would not show) nor writes other text."""
    value = Traced(next(p.value for n, p in sig.params if n == name))
    again = sigmod.Signature(tuple((n, dataclasses.replace(p, value=value) if n == name else p)
                                   for n, p in sig.params))
    try:
        traced = emit(again)
    except Exception:  # noqa: BLE001 — any trouble with the traced value: not value-generic
        return False
    return not value.folds and traced.body == e.body


def _value_generic(names: list[str], served: list[dict]) -> dict:
    """port.json's value-generic facts of an entry whose constants ``names`` are used only as values
    (translate.value_generic): ``value_generic``, those proven at two values or more (a launch at any value runs
    it); ``value_candidates``, those proven at one value so far (the pipeline adds a second)."""
    out: dict = {}
    for g in names:
        seen = {v["constants"][g] for v in served if not v.get("hints")}
        out.setdefault("value_generic" if len(seen) >= 2 else "value_candidates", []).append(g)
    return out


def _second_values(manifest: dict, kernel) -> list[tuple[sigmod.Signature, str]]:
    """For each entry with value candidates: the signature of its first variant (at the decorator's hints) with
    each candidate at a value no launch had, and why it is compiled."""
    out = []
    for entry, a in manifest["abi"].items():
        names = a.get("value_candidates")
        first = next((v for v in manifest["variants"] if v["entry"] == entry and not v.get("hints")), None)
        if not names or first is None:
            continue
        sig = sigmod.bind(sigmod.parse(first["signature"]), kernel.param_names, kernel.name)
        params = tuple((n, dataclasses.replace(p, value=second_value(p.value, {p.value})) if n in names else p)
                       for n, p in sig.params)
        out.append((sigmod.Signature(params), f"{', '.join(names)} at a value no launch had: {entry} uses "
                                              f"{'them' if len(names) > 1 else 'it'} only as a value (value-generic "
                                              "once proven at two values)"))
    return out


def translate(port_dir: Path, tree: CudaTree, new_forms: bool = True) -> dict:
    """spec.json + kernel source → kernel.rs and port.json (entry and generics of every variant). With
    ``new_forms``, specializations that differ only in the element type are one type-generic entry
    (rustgen.generic) and outputs stored only at the block's own tile are `&mut Tensor` written through
    `partition_mut` (translate.emit); port.json's ``forms`` says which of the two the port uses."""
    spec = json.loads((port_dir / "spec.json").read_text())
    ref = spec["kernel"].get("ref") or f"{spec['kernel']['source']}::{spec['kernel']['name']}"
    kernel = load_kernel(ref, spec["kernel"].get("closure"))
    consts = constant_params(kernel.kernel)
    source = Path(spec["kernel"]["source"])
    fma: dict = {}
    own_fma: list[dict] = []
    files = kernel_files(source, kernel.name, kernel.pyfunc)   # then the files of imported helpers: their fmas sit at their lines
    for v in spec["variants"]:
        own: dict = {}
        for where in files:
            for loc, n in op_locations(tree, port_dir / v["ir"]["bytecode"], where).get("fma", {}).items():
                own[loc if where == source else (str(where), *loc)] = n
        own_fma.append(own)
        for key, n in own.items():   # and the most fmas any variant has at each position
            fma[key] = max(fma.get(key, 0), n)
    groups: list[tuple[object, list[dict]]] = []  # distinct Rust bodies, each with the variants it serves
    values_only: dict[int, list[str]] = {}
    texts = {(v["signature"], json.dumps(v.get("hints") or {}, sort_keys=True)) for v in spec["variants"]}
    static_refused: list[dict] = []
    for v, own in zip(list(spec["variants"]), own_fma):
        sig = sigmod.bind(sigmod.parse(v["signature"]), kernel.param_names, kernel.name)
        # each variant contracted where its own reference does (`ct.astype(a * f, x.dtype) + acc` fuses at f32, not
        # at f16: two bodies); the most over all variants where that alone is ambiguous (a helper inlined in arms
        # some variant does not take contracts alike in every copy)
        try:
            try:
                e = emit_kernel(source, kernel.name, sig, consts, own, kernel.pyfunc, owned_stores=new_forms,
                                object_hints=spec["hints"])
            except Unsupported:
                if own == fma:
                    raise
                own = fma
                e = emit_kernel(source, kernel.name, sig, consts, fma, kernel.pyfunc, owned_stores=new_forms,
                                object_hints=spec["hints"])
        except Unsupported as exc:
            # a static extent the translator refuses (array-static-shape) where the launch's all-dynamic twin is
            # ported too (analyze: dynamic_twin): that variant is left out, the twin serves the launch
            twin = sigmod.dynamic_twin(sig)
            if exc.construct != "array-static-shape" or twin is None or \
                    (twin.text(), json.dumps(v.get("hints") or {}, sort_keys=True)) not in texts:
                raise
            static_refused.append({"signature": v["signature"], "twin": twin.text(), "error": str(exc)})
            spec["variants"].remove(v)
            continue
        key = (e.body, e.params, e.generics)
        group = next((g for g in groups if (g[0].body, g[0].params, g[0].generics) == key), None)
        if group is None:
            group = (e, [])
            groups.append(group)
            # the constants this entry may take at any value: used only as values in its text, and not folded
            # by the translator at this signature (translate.value_generic)
            values_only[id(e)] = [g for g in e.generics if value_only(e.body, g) and not mentioned_in_comments(
                e.body, g) and _unfolded(e, g, sig, lambda s: emit_kernel(source, kernel.name, s, consts, own,
                                                                          kernel.pyfunc, owned_stores=new_forms,
                                                                          object_hints=spec["hints"]))]
        group[1].append({"symbol": v["symbol"], "signature": v["signature"], "constants": v["constants"],
                         **({"hints": v["hints"]} if v.get("hints") else {}),
                         **({"synthetic": v["synthetic"]} if v.get("synthetic") else {}), "generics_of": e.generics,
                         "strides": e.strides, "specs": e.specs, "unit_grid": e.unit_grid,
                         "preconditions": e.preconditions, "layout": e.layout, "reference": v["ir"]["bytecode"]})
    entries, variants, described = [], [], []
    names = _entry_names(kernel, groups) if len(groups) > 1 else [rust_entry_name(kernel.name)]
    for (e, served), entry_name in zip(groups, names):
        described.append(f"{served[0]['signature']} ({_describe_constants(served[0]['constants'])}).")
        if len(groups) > 1:
            # Dtypes, values Rust cannot take as const generics (floats, bools), branches that change types: an entry
            # per distinct body, named by what tells them apart; port.json maps each launch (symbol, signature) to
            # its entry — the host side's dispatch table.
            e = dataclasses.replace(e, entry=entry_name, doc=e.doc + [f"Specialization for {described[-1]}"])
        elif e.entry != entry_name:   # (a kernel named like a Rust keyword or a cutile function: `where_`)
            e = dataclasses.replace(e, entry=entry_name)
        entries.append(e)
        for v in served:
            generics = v.pop("generics_of")
            variants.append(dict(v, entry=e.entry, generics=[str(v["constants"][g]) for g in generics]))
            variants[-1].pop("constants")
    if static_refused:   # (spec.json without them: the later stages count the variants it lists)
        (port_dir / "spec.json").write_text(json.dumps(spec, indent=1) + "\n")
    order = [x["ir"]["bytecode"] for x in spec["variants"]]   # (one per variant, at launched hints too)
    variants.sort(key=lambda v: order.index(v["reference"]))
    # entries that differ only in the arrays' element type: one Rust entry generic over it (rustgen.generic); the
    # ABI keeps an entry per instantiation, naming the Rust function and its element type
    rust_entries = generic.merge(entries, _element_types(kernel, groups), described) if new_forms else entries
    function = {m: (g.entry, types) for g in rust_entries if isinstance(g, generic.GenericEntry)
                for m, types in g.members}
    text = render(rust_entries, _display(source), "spec.json")
    (port_dir / "kernel.rs").write_text(text)
    abi = {e.entry: {"generics": e.generics, "params": e.abi, **_value_generic(values_only[id(g)], served)}
           for e, (g, served) in zip(entries, groups)}
    for name, (fn, types) in function.items():
        abi[name].update(function=fn, types=types)
    manifest = {"kernel": ref, "module": "port", "entries": [e.entry for e in entries], "hints": spec["hints"],
                # (cutile CompileOptions the entries' hints cannot state: `@ct.kernel(opt_level=..)`)
                **({"compile_options": entries[0].options} if entries[0].options else {}),
                "source_sha256": sources_sha256(files), "abi": abi, "variants": variants,
                **({"static_refused": static_refused} if static_refused else {}),
                "forms": (["generic-entries"] if function else []) + (["owned-stores"] if any(
                    ".partition_mut(" in line for e in entries for line in e.body) else []),
                "unsafe_sites": [dict(u, file=str(source)) for e in entries for u in e.unsafe_sites],
                # one kernel source behind every entry: each finds the same hazards
                "hazards": [dict(h, file=str(source)) for h in entries[0].hazards]}
    (port_dir / "port.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def verify(port_dir: Path, tree: CudaTree, arch: str, progress: Progress = lambda s: None,
           built: tuple[Path, str] | None = None) -> dict:
    """build → irdiff on whatever kernel.rs and port.json are in ``port_dir``. ``built`` = (irgen binary, module
    name) when the kernel was already built with others in one crate (see ``port_many``)."""
    stages: dict = {}
    manifest = json.loads((port_dir / "port.json").read_text())
    if built is None:
        progress("build: cargo build of kernel.rs")
        try:
            binary, prefix = cratemod.build(port_dir, tree), ""
        except TileportError as exc:
            stages["build"] = {"ok": False, "error": str(exc)}
            return stages
        try:
            stages.update(_irdiff(port_dir, tree, arch, progress, manifest, binary, prefix))
        finally:
            cratemod.discard(binary)
        return stages
    stages.update(_irdiff(port_dir, tree, arch, progress, manifest, built[0], f"{built[1]}/"))
    return stages


def _irdiff(port_dir: Path, tree: CudaTree, arch: str, progress: Progress, manifest: dict, binary: Path,
            prefix: str) -> dict:
    """irgen each variant's entry, disassemble it and compare it with the reference (variants side by side, see
    jobs()); results in the manifest's order."""
    abi = manifest.get("abi", {})
    results = _in_parallel(lambda v: _irdiff_variant(port_dir, tree, arch, progress, binary, prefix, v,
                                                     abi.get(v["entry"], {}), manifest), manifest["variants"])
    all_diffs = [d for r in results for d in r.get("differences", [])]
    equivalent = bool(results) and all(r["equivalent"] for r in results)
    return {"build": {"ok": True},
            "irdiff": {"ok": equivalent, "equivalent": equivalent, "differences": all_diffs, "variants": results}}


def compile_options(manifest: dict, v: dict) -> dict[str, int]:
    """The cutile CompileOptions variant ``v`` of a port is compiled and launched with: the entries' own (port.json's
    ``compile_options``: `@ct.kernel(opt_level=..)`), a launch's other hints over them."""
    return {**manifest.get("compile_options", {}), **cutile_options(v.get("hints", {}))}


def _opt_level_difference(manifest: dict, v: dict) -> dict | None:
    """tileiras' optimization level is no part of the Tile IR: the reference's (the decorator's, a launch's
    `replace_hints(opt_level=..)` over it) against the level the port's options state, as a difference where they
    differ (3, the default, where neither states one)."""
    ref = v.get("hints", {}).get("opt_level", (manifest.get("hints") or {}).get("opt_level", "default"))
    ref = DEFAULT_OPT_LEVEL if ref == "default" else ref
    ours = compile_options(manifest, v).get("opt_level", DEFAULT_OPT_LEVEL)
    if ref == ours:
        return None
    return {"kind": "compile-options", "detail": f"tileiras --opt-level: the reference compiles at {ref}, the port's "
                                                 f"CompileOptions at {ours}"}


def _irdiff_variant(port_dir: Path, tree: CudaTree, arch: str, progress: Progress, binary: Path, prefix: str,
                    v: dict, abi: dict, manifest: dict | None = None) -> dict:
    """``abi`` is the variant's entry in port.json's ABI: a type-generic Rust entry is compiled as its function at
    its element types (named first among the generics, as cutile's launcher passes them)."""
    manifest = manifest or {}
    progress(f"irdiff: {v['symbol']}")
    vdir = (port_dir / v["reference"]).parent  # variants/SYMBOL, the symbol shortened when too long
    rust_bc = vdir / "rust.tileirbc"
    with _TOOLS:
        try:
            cratemod.irgen(binary, tree, prefix + abi.get("function", v["entry"]), rust_bc,
                           abi.get("types", []) + v["generics"], v["strides"], arch, v.get("specs"),
                           compile_options(manifest, v))
            rust_txt = run_tool(tree, "tileirdisasm", [str(rust_bc)]).stdout
        except TileportError as exc:   # (tileirdisasm rejects bytecode that fails verification: cutile wrote it)
            return {"symbol": v["symbol"], "equivalent": False, "error": str(exc)}
    (vdir / "rust.tileir.txt").write_text(rust_txt)
    ref_txt = (port_dir / v["reference"]).with_suffix(".tileir.txt").read_text()
    verdict = compare_programs(parse_ir(ref_txt), parse_ir(rust_txt),
                               source_a=str(Path(v["reference"]).with_suffix(".tileir.txt")),
                               source_b=str(rust_bc.relative_to(port_dir).with_suffix(".tileir.txt")),
                               layout_b=parse_layout(v["layout"]),
                               unit_grid_b=frozenset(v.get("unit_grid", [])), target=arch)
    if (level := _opt_level_difference(manifest, v)) is not None:
        verdict = dict(verdict, equivalent=False, differences=[*verdict["differences"], level])
    return {"symbol": v["symbol"], "entry": v["entry"], "generics": v["generics"],
            **({"hints": v["hints"]} if v.get("hints") else {}), "preconditions": v.get("preconditions", []),
            "equivalent": verdict["equivalent"],
            "differences": verdict["differences"],
            "rewrites_used": [r for r in verdict["rewrites_used"] if r["count"]["a"] or r["count"]["b"]],
            "op_inventory": verdict["op_inventory"]}


def port(kernel_ref: str, sigs: list[sigmod.Signature], launches: list[dict], tree: CudaTree, out: Path,
         arch: str, progress: Progress = lambda s: None, skip_rejected: bool = False,
         second_values: bool = True) -> dict:
    """analyze → translate → build → irdiff into ``out``, under its lock (a second port into the same directory
    waits for this one, saying so). ``skip_rejected``: a signature cuda-tile itself rejects is left out and listed
    (analyze's), as long as one is accepted."""
    with out_dir_lock(out):
        verdict = _analyze_translate(kernel_ref, sigs, launches, tree, out, progress, skip_rejected, second_values)
        if "status" in verdict:
            return verdict
        verdict["stages"].update(verify(out, tree, arch, progress))
        for _ in range(2):   # (without a second value's variant, then without the new forms)
            if not _again(verdict, out, tree, progress):
                break
            verdict["stages"].update(verify(out, tree, arch, progress))
        return _finish(verdict, out)


def _again(verdict: dict, out: Path, tree: CudaTree, progress: Progress) -> bool:
    """A port that did not prove, translated again without what it may owe that to: first the variants compiled at
    a value no launch had (value-generic candidates, ``_second_values``: the constant then stays per value), then
    the new forms (``_concrete_again``). Returns whether it was (the port is then built and diffed again)."""
    return _without_second_values(verdict, out, tree, progress) or _concrete_again(verdict, out, tree, progress)


def _failure(stages: dict) -> str | None:
    """Why the build or irdiff stage failed (its error, or the first variant that is not equivalent), or None when
    both passed."""
    failed = next((s for s in ("build", "irdiff") if not stages.get(s, {}).get("ok")), None)
    if failed is None:
        return None
    stage = stages[failed]
    return str(stage.get("error") or next((f"{v.get('symbol')}: {v.get('error') or v.get('differences', [])[:1]}"
                                           for v in stage.get("variants", []) if not v.get("equivalent")), failed))


def _retranslated(stages: dict, what: str, dropped: list, why: str) -> bool:
    """Record in the translate stage what a second translation dropped and why, and forget the build and irdiff
    of the first (the port is built and diffed again)."""
    stages["translate"][what] = {"dropped": dropped, "why": why[:2000]}
    for s in ("build", "irdiff"):
        stages.pop(s, None)
    return True


def _without_second_values(verdict: dict, out: Path, tree: CudaTree, progress: Progress) -> bool:
    if (why := _failure(verdict["stages"])) is None:
        return False
    spec = json.loads((out / "spec.json").read_text())
    synthetic = [v for v in spec["variants"] if v.get("synthetic")]
    if not synthetic:
        return False
    progress("translate: kernel.rs again without the variants at a value no launch had (they did not prove)")
    spec["variants"] = [v for v in spec["variants"] if not v.get("synthetic")]
    (out / "spec.json").write_text(json.dumps(spec, indent=1) + "\n")
    translate(out, tree)
    return _retranslated(verdict["stages"], "value_generic", [v["signature"] for v in synthetic], why)


def _concrete_again(verdict: dict, out: Path, tree: CudaTree, progress: Progress) -> bool:
    """When a port using type-generic entries or owned-tile stores (``translate``'s new forms) did not prove,
    translate it again without them — one entry per specialization, outputs through the full tensor's partition,
    the forms proven before — and say why in the verdict (the translate stage's ``new_forms``). Returns
    whether it did (the port is then built and diffed again)."""
    if (why := _failure(verdict["stages"])) is None:
        return False
    manifest = json.loads((out / "port.json").read_text())
    if not manifest.get("forms"):
        return False
    progress(f"translate: kernel.rs again without {' and '.join(manifest['forms'])} (they did not prove)")
    translate(out, tree, new_forms=False)
    return _retranslated(verdict["stages"], "new_forms", manifest["forms"], why)


def port_many(jobs: list[tuple[str, list[sigmod.Signature], list[dict], Path]], tree: CudaTree, arch: str,
              work: Path, progress: Progress = lambda s: None, skip_rejected: bool = False,
              second_values: bool = True) -> list[dict]:
    """``port`` for several kernels with one cargo build of all their modules (the build dominates a port's time).
    Each job is (kernel ref, signatures, captured launches, output dir); each output dir gets the same files and
    verdict as ``port`` writes. If the shared build fails, each kernel is built alone so errors are attributed."""
    verdicts = _analyze_translate_all(jobs, tree, progress, skip_rejected, second_values)
    pending = {f"k{i}_{v['kernel']}": (i, jobs[i][3]) for i, v in enumerate(verdicts) if "status" not in v}

    def build_and_verify(modules: dict[str, tuple[int, Path]], what: str) -> None:
        """One cargo build of ``modules``' kernel.rs files, then each verified (side by side once built together;
        alone, each would wait for cargo's lock anyway). A failed shared build: each builds alone, so errors are
        attributed."""
        if not modules:
            return
        progress(f"build: one cargo build of {len(modules)} kernel modules{what}")
        try:
            binary = cratemod.build(work, tree, {m: str((out / "kernel.rs").resolve()) for m, (_, out) in
                                                 modules.items()})
        except TileportError:
            binary = None

        def verify_one(item: tuple[str, tuple[int, Path]]) -> None:
            module, (i, out) = item
            verdicts[i]["stages"].update(verify(out, tree, arch, progress,
                                                None if binary is None else (binary, module)))
            verdicts[i] = _finish(verdicts[i], out)

        try:
            if binary is None:
                for item in modules.items():
                    verify_one(item)
            else:
                _in_parallel(verify_one, modules.items())
        finally:
            if binary is not None:
                cratemod.discard(binary)

    build_and_verify(pending, "")
    # ports that did not prove: again without a second value's variants, then with one entry per specialization
    # (see _again), built together
    for what in (" translated again", " translated once more"):
        pending = {m: (i, out) for m, (i, out) in pending.items() if _again(verdicts[i], out, tree, progress)}
        build_and_verify(pending, what)
    return verdicts


def _analyze_translate_all(todo: list[tuple[str, list[sigmod.Signature], list[dict], Path]], tree: CudaTree,
                           progress: Progress, skip_rejected: bool, second_values: bool = True) -> list[dict]:
    """The first two stages of every job, on up to jobs() processes (both stages are Python: threads would take
    turns). A job's progress lines are printed when it is done, in job order."""
    if jobs() == 1 or len(todo) < 2:
        return [_analyze_translate(ref, sigs, launches, tree, out, progress, skip_rejected, second_values)
                for ref, sigs, launches, out in todo]
    # fork, not spawn/forkserver: those import the caller's __main__ again, and a script calling tileport without
    # an `if __name__ == "__main__"` guard would start over in each worker
    ctx = multiprocessing.get_context("fork")
    verdicts = []
    with ProcessPoolExecutor(max_workers=min(jobs(), len(todo)), mp_context=ctx) as pool:
        futures = [pool.submit(_analyze_translate_logged, ref, sigs, launches, tree, out, skip_rejected, second_values)
                   for ref, sigs, launches, out in todo]
        for future in futures:
            verdict, lines = future.result()
            for line in lines:
                progress(line)
            verdicts.append(verdict)
    return verdicts


def analyze_translate_many(jobs: list[tuple[str, list[sigmod.Signature], list[dict], Path]], tree: CudaTree,
                           progress: Progress = lambda s: None) -> list[dict]:
    """Analyze and translate each job of ``port_many``'s form (in parallel processes), without building or
    proving: the verdicts so far (a finished one, with its status, where a stage failed)."""
    return _analyze_translate_all(jobs, tree, progress, False)


def captured_closure(launches: list[dict]) -> dict | None:
    """The values a factory-made kernel closes over, as its captured launches recorded them (loader.kernel_name)."""
    return next((l["closure"] for l in launches if l.get("closure")), None)


def _analyze_translate_logged(kernel_ref: str, sigs: list[sigmod.Signature], launches: list[dict], tree: CudaTree,
                              out: Path, skip_rejected: bool, second_values: bool) -> tuple[dict, list[str]]:
    """``_analyze_translate`` in a worker process: (the verdict, its progress lines)."""
    lines: list[str] = []
    return _analyze_translate(kernel_ref, sigs, launches, tree, out, lines.append, skip_rejected, second_values), lines


def _analyze_translate(kernel_ref: str, sigs: list[sigmod.Signature], launches: list[dict], tree: CudaTree,
                       out: Path, progress: Progress, skip_rejected: bool = False, second_values: bool = True) -> dict:
    """The first two stages; the verdict comes back finished (with a status) if either fails (a kernel that does not
    load too: the other kernels of a batch go on)."""
    try:
        kernel = load_kernel(kernel_ref, captured_closure(launches))
    except KernelLoadError as exc:
        out.mkdir(parents=True, exist_ok=True)
        source, _, name = kernel_ref.rpartition("::")
        return _finish({"kernel": name, "source": source, "tileport": __version__,
                        "stages": {"analyze": {"ok": False, "error": str(exc)}}}, out)
    verdict: dict = {"kernel": kernel.name, "source": str(kernel.path), "tileport": __version__, "stages": {}}
    if kernel.absent:   # host-side packages the module imports, not installed here (loader's docstring)
        verdict["absent_packages"] = list(kernel.absent)
    if kernel.cuda_emulated:   # its import-time host code asked for a GPU: imported under the CUDA emulation
        verdict["cuda_emulated_at_import"] = True
    if kernel.skipped:   # a script's top-level host code that raised here (launches, checks): gone past
        verdict["module_statements_skipped"] = list(kernel.skipped)
        progress(f"  (its module's top-level statements that raised here were gone past: "
                 f"{'; '.join(kernel.skipped[:3])}{' ..' if len(kernel.skipped) > 3 else ''})")
    st = verdict["stages"]
    out.mkdir(parents=True, exist_ok=True)
    progress(f"analyze: {kernel.name}" + (f" (its module's {', '.join(kernel.absent)} not installed here: stood in)"
                                          if kernel.absent else ""))
    try:
        spec = analyze(kernel, sigs, launches, tree, out, progress, skip_rejected)
        st["analyze"] = {"ok": True, "spec": "spec.json", "variants": [v["symbol"] for v in spec["variants"]],
                         **({"rejected": spec["rejected"]} if spec.get("rejected") else {})}
    except TileportError as exc:
        st["analyze"] = {"ok": False, "error": str(exc)}
        return _finish(verdict, out)
    progress("translate: kernel.rs")
    try:
        manifest = translate(out, tree)
        # value-generic candidates: proven at a second value too (``second_values``: a Triton kernel's port is
        # launched at its constexprs' captured values only, runtime.triton_port, so it is not asked there)
        if second_values and (second := _second_values(manifest, kernel)) and \
                (added := add_variants(kernel, second, tree, out, progress)):
            st["analyze"]["synthetic"] = added   # (a value cuda-tile refuses: that constant stays per value)
            manifest = translate(out, tree)
        st["translate"] = {"ok": True, "kernel_rs": "kernel.rs", "entries": manifest["entries"],
                           "unsafe_sites": manifest["unsafe_sites"], "hazards": manifest["hazards"]}
    except Unsupported as exc:
        st["translate"] = {"ok": False, "error": str(exc), "construct": exc.construct,
                           "location": {"file": exc.file, "line": exc.line, "col": exc.col}}
        _work_order(out, spec, exc)
        return _finish(verdict, out)
    except TileportError as exc:   # a translator bug (say, Rust rustfmt rejects): this port fails, others go on
        st["translate"] = {"ok": False, "error": str(exc)}
        return _finish(verdict, out)
    except Exception as exc:  # noqa: BLE001 — a bug in the translator: this port fails (said so), others go on
        if os.environ.get("TILEPORT_TRACEBACK"):
            raise
        where = exc.__traceback__
        while where is not None and where.tb_next is not None:
            where = where.tb_next
        at = f" at {Path(where.tb_frame.f_code.co_filename).name}:{where.tb_lineno}" if where else ""
        st["translate"] = {"ok": False, "error": f"internal error: {type(exc).__name__}: {exc}{at} (a bug in "
                                                 "tileport; TILEPORT_TRACEBACK=1 shows the traceback)"}
        return _finish(verdict, out)
    return verdict


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
