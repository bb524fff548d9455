"""Port every kernel a corpus capture recorded, and write one row per kernel.

``tileport corpus port CAPTURES... --corpus DIR --out OUT`` reads ``CAPTURES/index.json`` (written by ``tileport
corpus capture``; several folders — an emulated capture and a live one on the GPU, say — are merged per kernel,
each distinct launch once), re-roots each capture at DIR (the captures name sources relative to the corpus, so they port on
any machine that has the corpus), and ports the kernels in batches that share one cargo build
(``pipeline.port.port_many``; Triton kernels, whose launches say ``"frontend": "triton"``, are lowered first:
``pipeline.triton.port_triton_many``). Kernels the capture found but no test launched are rows too (status
``not-launched``).

Writes ``OUT/<kernel dir>/`` (each port's files, as ``tileport port`` writes them) and ``OUT/corpus.json``::

    {"format": 1, "corpus": DIR, "summary": {...},
     "kernels": [{"file", "kernel", "status", "variants", "variants_proven", "refusal", "stage", "error"}]}

``rejected_by_cuda_tile`` counts the captured signatures cuda-tile itself refuses to compile (a test's f64 case, say:
that launch fails on a GPU too); they are left out of the port and listed in its spec.json. ``status`` is a port's status (``proven``, ``unproven``, ``failed``) or ``not-launched``; ``refusal`` is, for a
translation refused, ``{"construct", "file", "line", "col", "detail"}`` (file relative to DIR when inside it).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

from ..errors import InputError, TileportError

Progress = Callable[[str], None]


def _rows_from_index(captures: Path) -> tuple[list[dict], list[dict]]:
    index_path = captures / "index.json"
    if not index_path.is_file():
        raise InputError(f"{captures}: no index.json (expected the --out folder of `tileport corpus capture`)")
    try:
        index = json.loads(index_path.read_text())
        return list(index["kernels"]), list(index.get("not_launched", []))
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InputError(f"{index_path}: not an index written by `tileport corpus capture` ({exc})") from exc


def _rerooted(capture: Path, corpus: Path) -> list[dict]:
    """The launches of one capture file with their sources under ``corpus``."""
    data = json.loads(capture.read_text())
    out = []
    for launch in data.get("launches", []):
        rel = launch.get("corpus_file")
        if rel:
            src = str((corpus / rel).resolve())
            name = launch["kernel"].rpartition("::")[2]
            launch = dict(launch, source=src, kernel=f"{src}::{name}")
        out.append(launch)
    return out


def _slug(file: str, kernel: str) -> str:
    """A kernel's port folder under OUT: FILE.KERNEL dotted, bounded (a deep path or long kernel name: a digest
    and the name's end, distinct names staying distinct)."""
    from ..paths import bounded_name

    return bounded_name(file.removesuffix(".py").replace("/", ".") + "." + kernel, keep="tail")


def _refusal(verdict: dict, corpus: Path) -> dict | None:
    """The first construct refused (the Triton lowering's, else the translator's), its place relative to the
    corpus."""
    stages = verdict.get("stages", {})
    lw, tr = stages.get("lower", {}), stages.get("translate", {})
    if not lw.get("ok", True) and lw.get("location"):   # a Triton construct the lowering refuses
        construct, stage = "triton-lowering", lw
    elif not tr.get("ok", True) and "construct" in tr:
        construct, stage = tr["construct"], tr
    elif refused := verdict.get("triton", {}).get("launches_refused"):   # launches an arm they reach refused
        construct = "triton-lowering (launches at " + "; ".join(
            ", ".join(f"{k}={v!r}" for k, v in r["when"].items()) for r in refused) + ")"
        stage = refused[0]
    else:
        return None
    loc = dict(stage.get("location") or {})
    try:
        loc["file"] = str(Path(loc.get("file", "")).resolve().relative_to(corpus.resolve()))
    except ValueError:
        pass
    return {"construct": construct, **loc, "detail": _relative(stage.get("error", ""), corpus)}


def _relative(text: str | None, corpus: Path) -> str | None:
    """``text`` with the absolute path of ``corpus`` (or the output folder) left out of the file names it mentions
    (results read the same on every machine)."""
    return text.replace(f"{corpus.resolve()}/", "") if text else text


def _failed_stage(verdict: dict) -> tuple[str | None, str | None]:
    for stage in ("lower", "analyze", "translate", "build", "irdiff"):
        if stage == "lower" and stage not in verdict.get("stages", {}):
            continue
        st = verdict.get("stages", {}).get(stage)
        if st is None:
            return None, None
        if not st.get("ok"):
            err = st.get("error")
            if err is None and stage == "irdiff":
                bad = [v for v in st.get("variants", []) if not v.get("equivalent")]
                err = bad[0].get("error") or json.dumps(bad[0].get("differences", [])[:2]) if bad else None
            return stage, (err or "")[:2000]
    return None, None


def _rows_from_capture_file(path: Path, corpus: Path | None) -> list[dict]:
    """The kernels of one `tileport capture` file (a host program's launches, several kernels in one file), one row
    each, its file relative to ``corpus`` where it lies below it."""
    from ..inputs import read_json

    data = read_json(path, "CAPTURES", schema="capture")
    rows: dict[tuple[str, str], dict] = {}
    for launch in data.get("launches", []):
        src, _, name = launch["kernel"].rpartition("::")
        rel = src
        if corpus is not None:
            try:
                rel = Path(src).resolve().relative_to(corpus.resolve()).as_posix()
            except ValueError:
                pass
        rows.setdefault((rel, name), {"file": rel, "kernel": name, "capture": path.name})
    return list(rows.values())


ARCHIVE_SUFFIXES = (".tar.xz", ".txz")


def is_capture_archive(path: Path) -> bool:
    return path.is_file() and path.name.endswith(ARCHIVE_SUFFIXES)


def unpacked_captures(archive: Path, into: Path) -> list[Path]:
    """Capture folders packed as ``tar.xz`` (committed captures are: their JSON is most of the checkout's size),
    unpacked below ``into``: each folder in it that holds an index.json."""
    import lzma
    import tarfile

    dest = into / archive.name.removesuffix(".tar.xz").removesuffix(".txz")
    try:
        with tarfile.open(archive, "r:xz") as tar:
            names = tar.getnames()
            tar.extractall(dest, filter="data")
    except (tarfile.TarError, lzma.LZMAError, EOFError, OSError) as exc:
        raise InputError(f"{archive}: not a capture archive ({type(exc).__name__}: {exc})") from None
    found = sorted(n for n in names if Path(n).name == "index.json")
    if not found:
        raise InputError(f"{archive}: no index.json in it (expected a packed --out folder of `tileport corpus "
                         "capture`)")
    return [dest / Path(n).parent for n in found]


def merged_rows(folders: list[Path], corpus: Path | None = None) -> tuple[list[dict], list[dict]]:
    """The kernels of several capture folders (or `tileport capture` files), one row per (file, kernel) with every
    folder's capture of it (``captures``: paths), and the kernels none of them launched."""
    by_key: dict[tuple[str, str], dict] = {}
    not_launched: dict[tuple[str, str], dict] = {}
    for folder in folders:
        if folder.is_file():   # one host program's capture: its kernels, each with its launches in that file
            for k in _rows_from_capture_file(folder, corpus):
                by_key.setdefault((k["file"], k["kernel"]), {**k, "captures": []})["captures"].append(folder)
            continue
        kernels, missed = _rows_from_index(folder)
        for k in kernels:
            row = by_key.setdefault((k["file"], k["kernel"]), {**k, "captures": []})
            row["captures"].append(folder / k["capture"])
        for k in missed:
            not_launched.setdefault((k["file"], k["kernel"]), k)
    return list(by_key.values()), [k for key, k in not_launched.items() if key not in by_key]


def _launches(captures: list[Path], corpus: Path, kernel: str | None = None) -> list[dict]:
    """The launches of ``kernel`` (None: every launch) in its captures, re-rooted at ``corpus``, each distinct
    (signature, grid, hints) once (a `tileport capture` file holds other kernels' launches too)."""
    out, seen = [], set()
    for capture in captures:
        for launch in _rerooted(capture, corpus):
            if kernel is not None and launch["kernel"].rpartition("::")[2] != kernel:
                continue
            key = (launch.get("signature"), json.dumps(launch.get("grid")), json.dumps(launch.get("hints")))
            if key not in seen:
                seen.add(key)
                out.append(launch)
    return out


def _frontend(launches: list[dict]) -> str:
    """"triton" for a kernel whose captured launches are Triton launches, else "cutile"."""
    return "triton" if any(l.get("frontend") == "triton" for l in launches) else "cutile"


def port_corpus(captures: Path | list[Path], corpus: Path, out: Path, tree, arch: str, batch: int = 8,
                only: str | None = None, progress: Progress = lambda s: None, exclude: tuple[str, ...] = (),
                hints: dict[str, dict] | None = None) -> dict:
    """Port every kernel the captures recorded (cuTile ones and Triton ones, in batches sharing a cargo build) into
    ``out``; the rows go to ``out/corpus.json``. ``hints``: FILE::KERNEL → that Triton kernel's hints file entry
    (``corpus/hints.py``), checked against the captured kernels first."""
    from ..pipeline.port import port_many
    from ..pipeline.triton import port_triton_many
    from ..spec.signature import SignatureError
    from .hints import check_named

    def say_stage(line: str) -> None:   # each stage of a batch (analyze, lower, translate, the shared build),
        if not line.startswith(("irdiff:", "[")):   # indented; not every variant's compile or IR diff
            progress(f"    {line}")

    def port_cutile(chunk: list, arch: str = arch) -> list[dict]:
        return port_many(chunk, tree, arch, out / "_work", progress=say_stage, skip_rejected=True)

    def port_triton(chunk: list, arch: str = arch) -> list[dict]:
        return port_triton_many(chunk, tree, arch, out / "_work", progress=say_stage, chosen=chosen)

    folders = [captures] if isinstance(captures, Path) else list(captures)
    folders = [u for f in folders for u in (unpacked_captures(f, out / "_captures") if is_capture_archive(f) else [f])]
    kernels, not_launched = merged_rows(folders, corpus)

    def wanted(k: dict) -> bool:   # --only TEXT, and none of --exclude's texts, in FILE::KERNEL
        name = f"{k['file']}::{k['kernel']}"
        return (not only or only in name) and not any(x in name for x in exclude)

    # each kernel's launches, read once (the hints' check needs every kernel's frontend, --only or not)
    launches_of = {f"{k['file']}::{k['kernel']}": _launches(k["captures"], corpus, k["kernel"]) for k in kernels}
    check_named(hints or {}, {name: _frontend(ls) for name, ls in launches_of.items()})
    chosen = {f"{(corpus / name.rpartition('::')[0]).resolve()}::{name.rpartition('::')[2]}": h
              for name, h in (hints or {}).items()}
    kernels, not_launched = [k for k in kernels if wanted(k)], [k for k in not_launched if wanted(k)]
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    # by frontend and target: a kernel an index row marks with an "arch" (captured for another GPU, e.g. tutorial
    # 10's block-scaled matmul for sm_100) is compiled for it, the others for ``arch``
    by_frontend: dict[tuple[str, str], tuple[list, list]] = {}
    for k in kernels:
        ref = f"{(corpus / k['file']).resolve()}::{k['kernel']}"
        launches = launches_of[f"{k['file']}::{k['kernel']}"]
        jobs, meta = by_frontend.setdefault((_frontend(launches), k.get("arch") or arch), ([], []))
        jobs.append((ref, [], launches, out / _slug(k["file"], k["kernel"])))
        meta.append(k)
    started = time.monotonic()
    batches = [(port_cutile if fe == "cutile" else port_triton, a, jobs[i:i + batch], meta[i:i + batch])
               for (fe, a), (jobs, meta) in sorted(by_frontend.items()) for i in range(0, len(jobs), batch)]
    done = 0
    total = sum(len(j) for j, _ in by_frontend.values())
    for porter, target, chunk, info in batches:
        progress(f"[{done + 1}-{done + len(chunk)}/{total}] porting {', '.join(k['kernel'] for k in info)}"
                 + (f" (for {target})" if target != arch else ""))
        done += len(chunk)
        try:
            verdicts = porter(chunk, target)
        except (TileportError, SignatureError):   # one bad job: port the chunk one by one
            verdicts = []
            for job in chunk:
                try:
                    verdicts += porter([job], target)
                except (TileportError, SignatureError) as exc1:
                    verdicts.append({"status": "failed", "stages": {"analyze": {"ok": False, "error": str(exc1)}}})
        for k, v in zip(info, verdicts):
            variants = v.get("stages", {}).get("analyze", {}).get("variants", [])
            irdiff = v.get("stages", {}).get("irdiff", {}).get("variants", [])
            stage, error = _failed_stage(v)
            rejected = v.get("stages", {}).get("analyze", {}).get("rejected", [])
            rows.append({"file": k["file"], "kernel": k["kernel"], "status": v.get("status", "failed"),
                         "variants": len(variants), "rejected_by_cuda_tile": len(rejected),
                         # (the launched ones: a variant at a value no launch had is a check, analyze's "synthetic")
                         "variants_proven": sum(1 for x in irdiff if x.get("equivalent") and x.get("symbol") in variants),
                         "refusal": _refusal(v, corpus), "stage": stage,
                         "error": _relative(_relative(error, corpus), out)})
            progress(f"  {k['kernel']}: {rows[-1]['status']}"
                     + (f" ({stage}: {(error or '').splitlines()[0][:160]})" if stage else ""))
    for k in not_launched:
        rows.append({"file": k["file"], "kernel": k["kernel"], "status": "not-launched", "variants": 0,
                     "rejected_by_cuda_tile": 0, "variants_proven": 0, "refusal": None, "stage": None,
                     "error": (f"every launch of it was refused by the launch itself: {k['refused']}"
                               if k.get("refused") else "no test of the corpus launched it")})
    rows.sort(key=lambda r: (r["file"], r["kernel"]))
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    result = {"format": 1, "corpus": str(corpus),
              "captures": str(folders[0]) if len(folders) == 1 else [str(f) for f in folders],
              "summary": {"kernels": len(rows), **counts, "seconds": round(time.monotonic() - started, 1)},
              "kernels": rows}
    (out / "corpus.json").write_text(json.dumps(result, indent=1) + "\n")
    return result


def markdown_table(result: dict) -> str:
    lines = ["| file | kernel | status | variants | proven | first refusal / failure |", "|---|---|---|---|---|---|"]
    for r in result["kernels"]:
        if r["refusal"]:
            ref = r["refusal"]
            why = f"`{ref['construct']}` at {ref.get('file', '')}:{ref.get('line', '')}:{ref.get('col', '')}"
        elif r["stage"]:
            first = (r["error"] or "").strip().splitlines()[0] if r["error"] else ""
            why = f"{r['stage']}: {first[:140]}".replace("|", "\\|")
        else:
            why = "" if r["status"] == "proven" else (r["error"] or "")
        lines.append(f"| {r['file']} | `{r['kernel']}` | {r['status']} | {r['variants']} | {r['variants_proven']} "
                     f"| {why} |")
    s = result["summary"]
    head = ", ".join(f"{k}: {v}" for k, v in s.items())
    return f"{head}\n\n" + "\n".join(lines) + "\n"
