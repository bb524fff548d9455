"""A representative part of TileGym's cuTile corpus re-ported from its committed captures on every run (issue 19,
criterion 5): kernels chosen for the constructs they carry (SAMPLE says which), each at its first two captured
launches, and each must be proven, as
`benchmarks/results/corpus/tilegym.json` records. The whole corpus (`tileport corpus port`) takes minutes and runs
by hand (docs/corpus.md). Needs the corpus (`../shared/corpus`, or TILEPORT_CORPUS); skipped with the reason where
it is absent."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import REPO, run_tileport

CORPUS = Path(os.environ.get("TILEPORT_CORPUS", REPO.parent / "shared" / "corpus")) / "TileGym"
RESULTS = REPO / "benchmarks" / "results" / "corpus"
#: (file's last part, kernel): what each stands for
SAMPLE = {
    ("rms_norm.py", "_rms_norm_kernel_static_persistent"): "persistent loop, step = number of blocks",
    ("rope.py", "_rope_kernel"): "in-place update of q and k",
    ("recurrent_gated_delta_rule.py", "_recurrent_gated_delta_rule_fwd_kernel_decode_vstream"):
        "rank-3 gathers with stride parameters",
    ("splitk_reduce.py", "_splitk_reduce_kernel"): "shapes as constants, a reduction loop",
    ("softmax.py", "_softmax_kernel_chunked"): "a chunked row loop",
    ("moe_align_block.py", "_moe_align_block_size_stage3_kernel"): "an MoE routing stage",
    ("group_gemm.py", "_group_gemm_kernel"): "lists of arrays, a while loop on two conditions",
    ("sigmoid_mul.py", "_sigmoid_mul_kernel"): "a package whose __init__ needs transformers>=5.3, not installed here",
}
LAUNCHES_EACH = 2


def _subset(captures: Path, into: Path) -> list[tuple[str, str]]:
    """A capture folder holding only SAMPLE's kernels, each with its first LAUNCHES_EACH launches."""
    index = json.loads((captures / "index.json").read_text())
    kept = [k for k in index["kernels"] if (Path(k["file"]).name, k["kernel"]) in SAMPLE]
    into.mkdir()
    for k in kept:
        capture = json.loads((captures / k["capture"]).read_text())
        capture["launches"] = capture["launches"][:LAUNCHES_EACH]
        (into / k["capture"]).write_text(json.dumps(capture))
    index.update(kernels=kept, not_launched=[])
    (into / "index.json").write_text(json.dumps(index))
    return [(k["file"], k["kernel"]) for k in kept]


def test_tilegym_sample_ports_proven(tree, tmp_path):
    if not (CORPUS / "src" / "tilegym").is_dir():
        pytest.skip(f"the corpus is not here ({CORPUS}; set TILEPORT_CORPUS to the folder holding TileGym)")
    from tileport.corpus.port import port_corpus

    from tileport.corpus.port import unpacked_captures

    [packed] = unpacked_captures(RESULTS / "captures.tar.xz", tmp_path / "packed")
    kept = _subset(packed, tmp_path / "captures")
    assert len(kept) == len(SAMPLE), f"the committed captures lack {set(SAMPLE) - {(Path(f).name, k) for f, k in kept}}"
    committed = {(r["file"], r["kernel"]): r["status"]
                 for r in json.loads((RESULTS / "tilegym.json").read_text())["kernels"]}
    assert all(committed[k] == "proven" for k in kept), "tilegym.json no longer records every sample kernel proven"
    result = port_corpus(tmp_path / "captures", CORPUS, tmp_path / "out", tree, "sm_90", batch=len(kept))
    got = {(r["file"], r["kernel"]): r["status"] for r in result["kernels"]}
    why = {f"{Path(r['file']).name}::{r['kernel']}": (r["status"], r.get("stage"), (r.get("error") or "")[:400],
                                                      r.get("refusal"))
           for r in result["kernels"] if r["status"] != "proven"}
    assert got == dict.fromkeys(kept, "proven"), why


def test_captures_of_several_runs_merge_per_kernel(tmp_path):
    """`tileport corpus port A B`: an emulated capture and a live one on the GPU are merged per kernel, each
    distinct (signature, grid) once; a kernel one run did not launch but another did is no longer not-launched."""
    from tileport.corpus.port import _launches, merged_rows

    def folder(name, kernels, missed=()):
        d = tmp_path / name
        d.mkdir()
        for kernel, launches in kernels.items():
            (d / f"{kernel}.json").write_text(json.dumps({"launches": [
                {"kernel": f"/x/ops.py::{kernel}", "corpus_file": "ops.py", "signature": sig, "grid": [g, 1, 1]}
                for sig, g in launches]}))
        (d / "index.json").write_text(json.dumps({
            "kernels": [{"file": "ops.py", "kernel": k, "capture": f"{k}.json"} for k in kernels],
            "not_launched": [{"file": "ops.py", "kernel": k} for k in missed]}))
        return d

    emulated = folder("cpu", {"fin": [("S=#1", 4)], "gemm": [("T=#64", 8)]}, missed=["other"])
    live = folder("gpu", {"fin": [("S=#1", 4), ("S=#16", 4)], "other": [("U=#2", 1)]})
    rows, missed = merged_rows([emulated, live])
    assert {r["kernel"]: len(r["captures"]) for r in rows} == {"fin": 2, "gemm": 1, "other": 1} and missed == []
    fin = next(r for r in rows if r["kernel"] == "fin")
    got = _launches(fin["captures"], tmp_path / "corpus", "fin")
    assert [l["signature"] for l in got] == ["S=#1", "S=#16"]
    assert got[0]["source"] == str((tmp_path / "corpus" / "ops.py").resolve())


def test_a_packed_capture_of_several_folders_ports_with_exclusions(tmp_path):
    """`tileport corpus port PACK.tar.xz --exclude TEXT`: every capture folder in the archive (one per test file, as
    captures-perf.tar.xz) is read, and kernels whose FILE::KERNEL holds an --exclude text are left out."""
    import tarfile

    for name, missed in (("a", ["keep", "drop_me"]), ("b", ["other"])):
        d = tmp_path / "caps" / name
        d.mkdir(parents=True)
        (d / "index.json").write_text(json.dumps({"kernels": [], "not_launched": [
            {"file": "ops.py", "kernel": k} for k in missed]}))
    with tarfile.open(tmp_path / "caps.tar.xz", "w:xz") as tar:
        tar.add(tmp_path / "caps", arcname="caps")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    r = run_tileport("corpus", "port", str(tmp_path / "caps.tar.xz"), "--corpus", str(corpus), "--out",
                     str(tmp_path / "out"), "--exclude", "drop", "--json")
    assert r.returncode == 1, r.stderr[-2000:]   # (1: kernels not proven — here, none launched)
    rows = json.loads(r.stdout)["kernels"]
    assert sorted((x["kernel"], x["status"]) for x in rows) == [("keep", "not-launched"), ("other", "not-launched")]
