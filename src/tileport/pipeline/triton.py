"""``tileport port FILE.py::KERNEL`` for a ``@triton.jit`` kernel: lower it to cuTile Python, then port that.

The port directory gets ``lowered.py`` (the cuTile Python form) and ``lowered.json`` (views, dropped options)
beside the usual files; the IR diff proves the Rust against the lowered kernel, and ``verdict.json`` names the
Triton source and says that the step from Triton to the lowered form is checked by running both (GPU tests), not
by an IR diff: plain Triton has no Tile IR backend to diff against.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from ..errors import TileportError
from ..frontends.triton.capture import base_name, kinds_of, lowered_launch
from ..frontends.triton.launch_hints import launch_rules
from ..frontends.triton.lower import LoweringError, lower
from ..frontends.triton.source import find_kernel
from ..frontends.triton.views import ViewError, narrow_rows, tma_stores
from ..frontends.cutile_py.loader import split_ref
from ..locks import out_dir_lock
from ..spec import signature as sigmod
from ..toolchain.locate import CudaTree
from .port import Progress, _finish, port, port_many


#: the most CTAs per SM a lowered kernel is asked for from Triton's num_warps (the largest measured to help:
#: benchmarks/results/h200/triton-corpus/hints_*.json)
MAX_DERIVED_OCCUPANCY = 8


def derived_hints(launches: list[dict]) -> dict[str, int]:
    """cuTile options for a kernel whose launches state Triton's ``num_warps`` (the host's, or an autotune
    config's): ``occupancy`` = the fewest CTAs per SM any launch's warps allow (64 warps per SM), at most
    MAX_DERIVED_OCCUPANCY. cuTile's default is one CTA per SM; a row kernel then hides no latency (measured on the
    H200: the softmax tutorial 2.98x Triton's time by default, 0.94x with occupancy 8; its layer norm 5.7x → 1.8x)."""
    stated = [l.get("options", {}).get("num_warps") for l in launches]
    if not any(isinstance(w, int) and not isinstance(w, bool) and w > 0 for w in stated):
        return {}
    # (a launch that states none runs Triton's default, 4 warps); the fewest CTAs any launch allows
    warps = [w if isinstance(w, int) and not isinstance(w, bool) and w > 0 else 4 for w in stated]
    return {"occupancy": max(1, min(MAX_DERIVED_OCCUPANCY, *(64 // w for w in warps)))}


def derived_mma_hints(launches: list[dict]) -> dict[str, int]:
    """cuTile options for a matrix-product kernel: ``num_worker_warps`` 8 where a launch runs Triton's tl.dot on 8
    warps (cuTile's default is 4; tileiras 13.4 takes 4 or 8). Triton's 8 warps hold a 128x256 f32 accumulator at
    128 registers a thread; cuTile's 4 spill it: the matmul tutorial's sm_90 cubin at 128x256x64 f16 has 1808 bytes
    of stack and 3104 instructions by default, none and 944 with 8 worker warps (docs/triton.md, "Performance of the
    corpus ports")."""
    stated = [l.get("options", {}).get("num_warps") for l in launches]
    if any(isinstance(w, int) and not isinstance(w, bool) and w >= 8 for w in stated):
        return {"num_worker_warps": 8}
    return {}


def lower_from_launches(ref: str, launches: list[dict], hints: dict[str, int] | None = None,
                        chosen: dict | None = None):
    """Lower the kernel for the parameter kinds its launches show (they must agree). ``hints`` None: derived from
    the launches' num_warps (``derived_hints``); ``{}``: none. ``chosen``: a hints file's entry for this kernel
    (``corpus/hints.py``): its ``hints`` merged over those, its ``launches`` (per-launch kernel options) kept in the
    lowering report, where each launch record and the runtime's launch find theirs."""
    chosen = chosen or {}
    kept, refused = list(launches), []
    while True:
        try:
            lowered = _lower_with(ref, kept, hints, chosen.get("hints", {}))
            break
        except LoweringError as exc:
            # refused inside an `if` on constexprs that only some launches take (`if ACT == "gelu":` reaching
            # tl.erf): those launches are refused with its error, the kernel lowered again for the others
            ids = getattr(exc, "launch_ids", None) or frozenset()
            if not ids or len(ids) >= len(kept):
                raise
            refused += [(kept[i], exc) for i in sorted(ids)]
            kept = [launch for i, launch in enumerate(kept) if i not in ids]
    lowered.launch_hints = launch_rules(chosen, kept, ref)
    lowered.launches = kept
    lowered.refused_launches = _refused_launches(refused, kept)
    lowered.notes += [f"captured launch{'es' if r['launches'] > 1 else ''} at {_when(r['when'])} refused: "
                      f"{r['error']}" for r in lowered.refused_launches]
    return lowered


def _when(when: dict) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in when.items())


def _refused_launches(refused: list[tuple[dict, LoweringError]], kept: list[dict]) -> list[dict]:
    """Each refused launch's constexpr values no kept launch has (what decided the refused arm; all its constexprs
    where each value is some kept launch's), with its error, one entry per distinct such values."""
    def constants(launch: dict) -> dict:
        return {d["name"]: d.get("value") for d in launch["args"] if d["kind"] == "constant"}

    out: dict[str, dict] = {}
    for launch, exc in refused:
        mine = constants(launch)
        when = {k: v for k, v in mine.items() if all(constants(o).get(k) != v for o in kept)} or mine
        entry = out.setdefault(json.dumps(when, sort_keys=True, default=str),
                               {"when": when, "error": str(exc), "launches": 0,
                                "location": {"file": exc.file, "line": exc.line, "col": exc.col}})
        entry["launches"] += 1
    return list(out.values())


def _lower_with(ref: str, launches: list[dict], hints: dict[str, int] | None, chosen: dict[str, int]):
    path, name = split_ref(ref)
    kernel = find_kernel(path, base_name(name))   # (NAME[B=None]: its launches that pass None for B)
    if not launches:
        raise TileportError(f"{ref}: a Triton kernel is ported from captured launches (which parameters are "
                            "tensors, the scalar values that make each pointer's view): run `tileport capture --out "
                            "F -- python HOST.py` and pass --capture F")
    closures = {json.dumps(l.get("closure") or {}, sort_keys=True) for l in launches}
    if len(closures) > 1:
        raise TileportError(f"{ref}: the launches ran kernels made by a factory with different closure constexprs "
                            f"({', '.join(sorted(closures))}): capture each value's launches apart")
    if launches and launches[0].get("closure"):
        # a kernel made by a factory: the constexprs of its closure (`SCALE = tl.constexpr(scale)`) are read as the
        # module's constants are
        kernel = dataclasses.replace(kernel, globals={**kernel.globals, **launches[0]["closure"]})
    kinds = [kinds_of(l["args"]) for l in launches]
    if any(k[0] != kinds[0][0] for k in kinds):
        raise TileportError(f"{ref}: launches disagree on which parameters are tensors: "
                            f"{sorted({json.dumps(k[0], sort_keys=True) for k in kinds})}")
    types: dict[str, str] = {}
    for _, t in kinds:
        for k, v in t.items():
            if types.setdefault(k, v) != v:
                types[k] = "float" if "float" in (v, types[k]) else v
    from ..frontends.triton.lower import CAPTURED_DTYPES

    constants = {d["name"]: [] for d in launches[0]["args"] if d["kind"] == "constant"}
    dtypes: dict[str, set[str]] = {}
    descriptors: dict[str, list] = {}   # tensor descriptor parameter → its block shape at each launch
    for launch in launches:
        for d in launch["args"]:
            if d["name"] in constants:
                constants[d["name"]].append(d.get("value"))
            elif d["kind"] == "array":
                dtypes.setdefault(d["name"], set()).add(CAPTURED_DTYPES.get(d["dtype"], d["dtype"]))
                if d.get("descriptor"):
                    descriptors.setdefault(d["name"], []).append(d["descriptor"])
    bad = [n for n, ds in descriptors.items() if len(ds) != len(launches)]
    if bad:
        raise TileportError(f"{ref}: launches disagree on whether {', '.join(bad)} is a tensor descriptor")
    # integer scalars a captured launch passes negative: the lowering takes no such argument for a size (>= 0)
    negative = sorted({d["name"] for launch in launches for d in launch["args"] if d["kind"] == "scalar"
                       and isinstance(d.get("value"), int) and not isinstance(d["value"], bool) and d["value"] < 0})
    facts = {"constants": constants, "dtypes": dtypes, "descriptors": descriptors, "negative_scalars": negative}
    if hints is None:
        lowered = _narrow_guarded(ref, launches, lambda f: lower(kernel, kinds[0][0], types,
                                                                 derived_hints(launches) | chosen, facts=f), facts)
        if "ct.mma(" not in lowered.source:
            return lowered
        # a matrix-product kernel keeps cuTile's default occupancy: its accumulators need the registers (the matmul
        # tutorial ran 19.7x -> 27.6x Triton's time with occupancy 8: benchmarks/results/h200/triton-corpus); its
        # warps follow Triton's (derived_mma_hints)
        hints = derived_mma_hints(launches)
    return _narrow_guarded(ref, launches, lambda f: lower(kernel, kinds[0][0], types, hints | chosen, facts=f), facts)


def _narrow_guarded(ref: str, launches: list[dict], lowering, facts: dict):
    """``lowering(facts)``, again with ``narrow_stores`` where a captured launch views an array the kernel stores
    tiles into as rows narrower than their stride (``views.narrow_rows``: those stores then skip TMA)."""
    lowered = lowering(facts)
    stored = tma_stores(lowered.source)
    if not stored:
        return lowered
    report, narrow = lowered.report(), set()
    for launch in launches:
        try:
            record = lowered_launch(launch, report, ref)
        except TileportError:   # (a launch the views do not take is refused later, with its reason)
            continue
        narrow |= {d["name"] for d in record["args"] if d["kind"] == "array" and d["name"] in stored
                   and narrow_rows(d["shape"], d["strides"])}
    return lowering(facts | {"narrow_stores": sorted(narrow)}) if narrow else lowered


def port_triton(ref: str, sigs: list[sigmod.Signature], launches: list[dict], tree: CudaTree, out: Path, arch: str,
                progress: Progress = lambda s: None, hints: dict[str, int] | None = None) -> dict:
    with out_dir_lock(out):  # held through the lowering and the port (which takes it again)
        step = _lower(ref, sigs, launches, out, progress, hints)
        if isinstance(step, dict):
            return step
        lowered, lowered_ref, named, records = step
        return _triton_verdict(port(lowered_ref, named, records, tree, out, arch, progress, second_values=False), ref,
                               lowered, launches, out)


def port_triton_many(jobs: list[tuple[str, list[sigmod.Signature], list[dict], Path]], tree: CudaTree, arch: str,
                     work: Path, progress: Progress = lambda s: None,
                     chosen: dict[str, dict] | None = None) -> list[dict]:
    """``port_triton`` for several kernels with one cargo build of all their lowered forms (``port_many``). Each job
    is (Triton kernel ref, signatures, captured launches, output dir); each output dir gets what ``port_triton``
    writes there. ``chosen``: kernel ref → its hints file entry (``lower_from_launches``)."""
    verdicts: list[dict | None] = [None] * len(jobs)
    lowered_jobs = []
    for i, (ref, sigs, launches, out) in enumerate(jobs):
        step = _lower(ref, sigs, launches, out, progress, None, (chosen or {}).get(ref))
        if isinstance(step, dict):
            verdicts[i] = step
        else:
            lowered_jobs.append((i, step))
    ported = port_many([(lowered_ref, named, records, jobs[i][3]) for i, (_, lowered_ref, named, records)
                        in lowered_jobs], tree, arch, work, progress, second_values=False)
    for (i, (lowered, *_)), verdict in zip(lowered_jobs, ported):
        ref, _, launches, out = jobs[i]
        verdicts[i] = _triton_verdict(verdict, ref, lowered, launches, out)
    return verdicts  # type: ignore[return-value]


def _lower(ref: str, sigs: list[sigmod.Signature], launches: list[dict], out: Path, progress: Progress,
           hints: dict[str, int] | None, chosen: dict | None = None):
    """Lower the kernel into ``out/lowered.py``: (lowered kernel, its ref, the signatures bound to it, the launches
    as launches of it), or the finished verdict of a lowering that failed."""
    out.mkdir(parents=True, exist_ok=True)
    progress(f"lower: {ref} → {out / 'lowered.py'}")
    try:
        lowered = lower_from_launches(ref, launches, hints, chosen)
        lowered_py = lowered.write(out / "lowered.py")
    except LoweringError as exc:
        verdict = {"kernel": split_ref(ref)[1], "source": str(split_ref(ref)[0]), "frontend": "triton",
                   "stages": {"lower": {"ok": False, "error": str(exc),
                                        "location": {"file": exc.file, "line": exc.line, "col": exc.col}}}}
        return _finish(verdict, out)
    lowered_ref = f"{lowered_py.resolve()}::{lowered.kernel.name}"
    try:
        records = [lowered_launch(l, lowered.report(), lowered_ref) for l in lowered.launches]
    except ViewError as exc:   # a captured launch cannot make a view: refused where the pointer is first read
        param = str(exc).split(":", 1)[0]
        line, col = lowered.sites.get(param, (lowered.kernel.line, 1))
        where = {"file": str(lowered.kernel.path), "line": line, "col": col}
        verdict = {"kernel": split_ref(ref)[1], "source": str(split_ref(ref)[0]), "frontend": "triton",
                   "stages": {"lower": {"ok": False, "location": where,
                                        "error": f"{where['file']}:{line}:{col}: at a captured launch: {exc}"}}}
        return _finish(verdict, out)
    if any("hints" in r for r in records):   # per-launch options: a record names every hint it compiles with
        from ..frontends.cutile_py.hints import kernel_hints
        from ..frontends.cutile_py.loader import load_kernel

        base = {k: v for k, v in kernel_hints(load_kernel(lowered_ref).kernel).items() if v != "default"}
        records = [dict(r, hints=base | r["hints"]) if "hints" in r else r for r in records]
    named = [sigmod.bind(s, [p["name"] for p in lowered.params], lowered.kernel.name) for s in sigs]
    return lowered, lowered_ref, named, records


def _triton_verdict(verdict: dict, ref: str, lowered, launches: list[dict], out: Path) -> dict:
    """The lowered kernel's port verdict, told as the Triton kernel's (written to ``out/verdict.json``)."""
    verdict["frontend"] = "triton"
    verdict["triton"] = {"kernel": ref, "lowered": "lowered.py", "lowering": "lowered.json",
                         "notes": lowered.notes, "hints": lowered.hints,
                         "options_dropped": sorted({k for l in launches for k in l.get("options", {})}),
                         **({"launches_refused": lowered.refused_launches} if lowered.refused_launches else {}),
                         "checked_by": "the GPU tests run the Triton kernel and the port on the same inputs; the IR "
                                       "diff proves the Rust against lowered.py"}
    verdict["stages"] = {"lower": {"ok": True, "lowered": "lowered.py"}, **verdict["stages"]}
    (out / "verdict.json").write_text(json.dumps(verdict, indent=1, sort_keys=True) + "\n")
    return verdict
