"""``tileport analyze``: specialize a cuTile Python kernel at each signature on the CPU and write ``spec.json``.

Per variant: ``variants/SYMBOL/reference.tileirbc`` (cuda-tile's export) and ``reference.tileir.txt``
(tileirdisasm). ``spec.json`` joins the source facts (AST), the per-variant facts (constants, which constant
branches were taken, IR inventory, padding, element types, conversions, hints) and the captured launches (grids,
grid formula). It is validated against ``spec.schema.json`` before it is written.
"""
from __future__ import annotations

import json
import re
import shutil
from collections import OrderedDict
from pathlib import Path
from typing import Callable

from ... import __version__
from ...errors import TileportError
from ...irdiff.canon import canonicalize
from ...irdiff.parse import parse as parse_ir
from ...paths import bounded_name
from ...spec import grid as gridmod
from ...spec import signature as sigmod
from ...spec.validate import validate
from ...toolchain.locate import CudaTree, release_of_binary
from .capture import constant_params
from .hints import hints_key, hints_slug, hints_text, kernel_hints, launched_override
from .compile import CompileError, compile_kernel
from .loader import LoadedKernel
from .source import analyze_source, eval_constant_expr

ELEM_RE = re.compile(r"(?:x|<)(f8E\w+|tf32|bf16|f16|f32|f64|i1|i8|i16|i32|i64)>")
CONV_RE = re.compile(r"= (ftof|itof|ftoi|exti|trunci|bitcast) .*?: tile<(?:[\dx]*x)?(\w+)> -> tile<(?:[\dx]*x)?(\w+)>")


def _param_json(name: str, p: sigmod.ParamSig) -> dict:
    if isinstance(p, sigmod.ArraySig):
        return {"name": name, "kind": "array", "dtype": p.dtype, "rank": p.rank, "shape": list(p.shape),
                "strides": list(p.strides) if p.strides is not None else [None] * p.rank,
                "shape_divisible_by": list(p.shape_div), "stride_divisible_by": list(p.stride_div),
                "base_align_bytes": p.base_align, "may_alias_internally": p.may_alias,
                "index_dtype": "i64" if p.index_i64 else "i32"}
    if isinstance(p, sigmod.ListSig):
        element = _param_json(name, p.element)
        del element["name"], element["kind"]
        return {"name": name, "kind": "list", "element": element, "elements_may_alias": p.elements_may_alias}
    if isinstance(p, sigmod.ScalarSig):
        return {"name": name, "kind": "scalar", "dtype": p.dtype}
    return {"name": name, "kind": "constant", "value": p.value}


def _branches(constant_branches: list[dict], consts: dict) -> list[dict]:
    taken: dict[int, object] = {}
    out = []
    for b in constant_branches:  # sorted by line: enclosing ifs come first
        reached = True
        for enc in b["inside"]:
            t = taken.get(enc["line"], "unknown")
            if t == "unknown" or t == "unreached":
                reached = t
                break
            if (enc["arm"] == "then") != bool(t):
                reached = False
                break
        if reached is True:
            v = eval_constant_expr(b["condition"], consts)
            result = "unknown" if v is None else bool(v)
        else:
            result = "unreached" if reached is False else reached
        taken[b["line"]] = result
        out.append({"line": b["line"], "condition": b["condition"], "taken": result})
    return out


def _ir_facts(text: str) -> dict:
    program = parse_ir(text)
    canon = canonicalize(program.entries[0])
    return {
        "op_inventory": dict(sorted(canon.inventory.items())),
        "loops": len(re.findall(r"(?:^|=\s)for %", text, re.M)),
        "padding_values": sorted(set(re.findall(r"padding_value = (\w+)", text))),
        "element_types": sorted(set(ELEM_RE.findall(text))),
        "conversions": [dict(zip(("op", "from", "to"), m)) for m in sorted(set(CONV_RE.findall(text)))],
        "optimization_hints": program.entries[0].attrs,
    }


def analyze(kernel: LoadedKernel, signatures: list[sigmod.Signature], launches: list[dict], tree: CudaTree,
            out: Path, progress: Callable[[str], None] = lambda s: None, skip_rejected: bool = False) -> dict:
    """Write variants and spec.json under ``out``; return the spec. ``skip_rejected``: a signature cuda-tile itself
    rejects (its launch would fail on a GPU too, e.g. a test's f64 case) is listed under ``rejected`` instead of
    failing the analysis, as long as one is accepted."""
    import cuda.tile as ct

    consts = constant_params(kernel.kernel)
    facts = analyze_source(kernel.path, kernel.name, consts,
                           (kernel.pyfunc.__name__, kernel.pyfunc.__code__.co_firstlineno))
    hints = kernel_hints(kernel.kernel)
    # One variant per distinct signature and launched hints; launches attach to theirs. A launch through
    # `kernel.replace_hints(..)` (an autotuner's pick) at other hints than the decorator's is its own variant: the
    # reference is compiled at those hints and the port is proven, and launched, with them as cutile's per-launch
    # CompileOptions.
    variants: OrderedDict[tuple, dict] = OrderedDict()
    for sig in signatures:
        variants.setdefault((sig.text(), ()), {"sig": sig, "hints": {}, "launches": []})
    for l in launches:
        sig = sigmod.bind(sigmod.parse(l["signature"]), kernel.param_names, kernel.name)
        # (a capture made before hints were recorded has none: its launches were the decorator's)
        other = launched_override(hints, l["hints"], kernel.ref) if "hints" in l else {}
        variants.setdefault((sig.text(), hints_key(other)), {"sig": sig, "hints": other, "launches": []})[
            "launches"].append({"grid": l["grid"], "count": l["count"]})
        # a launch with an extent-1 axis runs cuTile Python's calling convention v2 (static 1 there): its
        # all-dynamic twin is ported too, the served fallback where the static entry does not hold (another
        # extent: runtime.library.holds) or is refused (translate: array-static-shape)
        twin = sigmod.dynamic_twin(sig)
        if twin is not None:
            variants.setdefault((twin.text(), hints_key(other)), {"sig": twin, "hints": other, "launches": [],
                                                                 "twin_of": sig.text()})
    if not variants:
        raise sigmod.SignatureError(f"{kernel.ref}: no signatures (give --sig, --sigs or --capture)")
    out_variants, rejected = [], []
    for i, ((text, _), v) in enumerate(variants.items(), 1):
        sig = v["sig"]
        at = f" at {hints_text(v['hints'])}" if v["hints"] else ""
        progress(f"[{i}/{len(variants)}] {kernel.name}({text}){at}")
        try:
            out_variants.append(_compile_variant(kernel, sig, v["hints"], v["launches"], tree, out, facts))
            if v.get("twin_of"):
                out_variants[-1]["twin_of"] = v["twin_of"]
        except CompileError as exc:
            if not skip_rejected:
                raise
            rejected.append({"signature": text, "error": str(exc).splitlines()[0][:500]})
    if not out_variants:
        raise CompileError(f"{kernel.ref}: cuda-tile rejected every signature; the first: {rejected[0]['error']}")
    launched_hints = []   # each distinct set of launched hints other than the decorator's (variants carry theirs)
    for v in out_variants:
        if v.get("hints") and v["hints"] not in launched_hints:
            launched_hints.append(v["hints"])
    rel = release_of_binary(tree.tileiras)
    kinds = {p["name"]: ("constant" if p["kind"] == "constant" else None) for p in facts.params}
    first = out_variants[0]["params"]
    spec = {
        "format": 1, "tileport": __version__,
        "toolchain": {"cuda-tile": ct.__version__,
                      "tileiras": rel[1] if rel else "unknown", "bytecode_version": tree.bytecode_versions[-1]},
        "kernel": {"name": kernel.name, "source": str(kernel.path), "line": facts.line,
                   **({"ref": kernel.ref} if kernel.ref_name is not None else {}),
                   **({"closure": kernel.closure} if kernel.closure else {})},
        "parameters": [{"name": p["name"], "kind": kinds[p["name"]] or first[k]["kind"], "annotation": p["annotation"]}
                       for k, p in enumerate(facts.params)],
        "hints": hints,
        **({"launched_hints": launched_hints} if launched_hints else {}),
        "source_facts": {"constant_branches": facts.constant_branches, "runtime_branches": facts.runtime_branches,
                         "loops": facts.loops, "memory_sites": facts.memory_sites, "casts": facts.casts,
                         "helpers": facts.helpers},
        "variants": out_variants,
        "grid": gridmod.derive([launch for launch in launches if launch["signature"] not in
                                {r["signature"] for r in rejected}] or launches),
        **({"rejected": rejected} if rejected else {}),
    }
    validate(spec)
    (out / "spec.json").write_text(json.dumps(spec, indent=1) + "\n")
    return spec


def _compile_variant(kernel: LoadedKernel, sig: sigmod.Signature, hints: dict, launches: list[dict], tree: CudaTree,
                     out: Path, facts) -> dict:
    """Compile one specialization's reference into out/variants/SYMBOL; its spec.json entry."""
    tmp = out / "variants" / "_compiling"   # what a failed compile leaves there (named in its error) goes
    shutil.rmtree(tmp, ignore_errors=True)   # with the next attempt
    res = compile_kernel(kernel, sig, tree, tmp, None, hints=hints)
    # the symbol itself when it is short enough; a variant at launched hints apart from the decorator's
    vdir = out / "variants" / bounded_name(res.symbol + (f".{hints_slug(hints)}" if hints else ""))
    vdir.mkdir(parents=True, exist_ok=True)
    bc, txt = vdir / "reference.tileirbc", vdir / "reference.tileir.txt"
    res.bytecode.replace(bc)
    res.disasm.replace(txt)
    tmp.rmdir()
    constants = {n: p.value for n, p in sig.params if isinstance(p, sigmod.ConstSig)}
    ir = {"bytecode": str(bc.relative_to(out)), "disasm": str(txt.relative_to(out)), **_ir_facts(txt.read_text())}
    return {"symbol": res.symbol, "signature": sig.text(),
            "calling_convention": "cutile_python_v2" if sigmod.needs_v2(sig) else "cutile_python_v1",
            "constants": constants, "params": [_param_json(n, p) for n, p in sig.params],
            "branches": _branches(facts.constant_branches, constants), "ir": ir, "launches": launches,
            **({"hints": hints} if hints else {})}


def add_variants(kernel: LoadedKernel, todo: list[tuple[sigmod.Signature, str]], tree: CudaTree, out: Path,
                 progress: Callable[[str], None] = lambda s: None) -> list[str]:
    """More specializations no launch had, each (signature, what it checks), compiled beside the analyzed ones in
    out/spec.json (rewritten once); the symbols of those added (one cuda-tile refuses is left out, said so)."""
    spec = json.loads((out / "spec.json").read_text())
    facts = analyze_source(kernel.path, kernel.name, constant_params(kernel.kernel),
                           (kernel.pyfunc.__name__, kernel.pyfunc.__code__.co_firstlineno))
    added = []
    for sig, why in todo:
        progress(f"analyze: {kernel.name}({sig.text()}): {why}")
        try:
            spec["variants"].append(dict(_compile_variant(kernel, sig, {}, [], tree, out, facts), synthetic=why))
        except TileportError as exc:
            progress(f"analyze: {kernel.name}: not at that value ({str(exc).splitlines()[0][:200]})")
            continue
        added.append(spec["variants"][-1]["symbol"])
    if added:
        validate(spec)
        (out / "spec.json").write_text(json.dumps(spec, indent=1) + "\n")
    return added
