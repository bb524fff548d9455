"""The Triton corpus re-ported from its committed captures (no torch needed: a Triton kernel is lowered from its
source's AST): every kernel gets the status the committed results (benchmarks/results/corpus/triton.json) record.
Needs the corpus (`../shared/corpus`, or TILEPORT_CORPUS); skipped with the reason where it is absent."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import REPO

CORPUS = Path(os.environ.get("TILEPORT_CORPUS", REPO.parent / "shared" / "corpus"))
RESULTS = REPO / "benchmarks" / "results" / "corpus"
SETS = {"triton-tutorials": ("triton-tutorials", "captures-tutorials"),
        "TileGym (ops/triton)": ("TileGym", "captures-tilegym")}


@pytest.mark.parametrize("name", list(SETS))
def test_triton_corpus_ports_as_committed(name, tree, tmp_path):
    root, captures = SETS[name]
    if not (CORPUS / root).is_dir():
        pytest.skip(f"the corpus is not here ({CORPUS / root}; set TILEPORT_CORPUS to its folder)")
    from tileport.corpus.port import port_corpus

    result = port_corpus(RESULTS / "triton" / captures, CORPUS / root, tmp_path, tree, "sm_90")
    got = {(r["file"], r["kernel"]): r["status"] for r in result["kernels"]}
    want = {(r["file"], r["kernel"]): r["status"] for r in json.loads((RESULTS / "triton.json").read_text())["kernels"]
            if r["corpus"] == name}
    assert got == want
    assert sum(s == "proven" for s in got.values()) >= 5
