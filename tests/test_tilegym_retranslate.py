"""TileGym's 55 launched cuTile kernels translate to the Rust their proven ports have: the ports of its
convention-2 captures (`benchmarks/results/corpus/tilegym-v2.json`, 1705 of 1705 variants proven) are committed as
each kernel's spec.json, reference bytecode and kernel.rs (`tilegym-v2-ports.tar.xz`, the command in
benchmarks/results/corpus/README.md), and each is translated again by this tree and compared. A translator change
that alters a TileGym port (or refuses one: ffb49e9 refused two kernels' tf32 `ct.matmul`, 60ff05c) fails here
before it lands; a change meant to alter one re-ports the corpus and packs the archive again. Slow (minutes):
`./dev test -m slow -k retranslate`; needs the corpus (`../shared/corpus` or TILEPORT_CORPUS)."""
from __future__ import annotations

import difflib
import json
import os
import tarfile
from pathlib import Path

import pytest

from conftest import REPO

ARCHIVE = REPO / "benchmarks" / "results" / "corpus" / "tilegym-v2-ports.tar.xz"
CORPUS = Path(os.environ.get("TILEPORT_CORPUS", REPO.parent / "shared" / "corpus")) / "TileGym"


def _kernels() -> list[str]:
    with tarfile.open(ARCHIVE) as tar:
        return sorted({m.name.split("/")[0] for m in tar.getmembers() if m.name.endswith("/kernel.rs")})


@pytest.fixture(scope="module")
def ports(tmp_path_factory) -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the TileGym corpus is not at {CORPUS} (set TILEPORT_CORPUS)")
    root = tmp_path_factory.mktemp("tilegym-ports")
    with tarfile.open(ARCHIVE) as tar:
        tar.extractall(root, filter="data")
    for spec in root.glob("*/spec.json"):   # (the sources re-rooted where the corpus is here)
        data = json.loads(spec.read_text())
        src = data.get("source", "")
        if "TileGym/" in src and not Path(src).is_file():
            data["source"] = str(CORPUS / src.split("TileGym/", 1)[1])
            spec.write_text(json.dumps(data, indent=1))
    return root


def test_the_archive_holds_every_proven_kernel():
    rows = json.loads((ARCHIVE.parent / "tilegym-v2.json").read_text())["kernels"]
    proven = {f"{Path(r['file']).with_suffix('').as_posix().replace('/', '.')}.{r['kernel']}" for r in rows
              if r["status"] == "proven"}
    assert set(_kernels()) == proven


@pytest.mark.slow
@pytest.mark.parametrize("kernel", _kernels())
def test_tilegym_kernel_translates_as_its_proven_port(kernel, ports, tree, tmp_path):
    from tileport.pipeline.port import translate

    work = tmp_path / kernel
    (ports / kernel).rename(work)
    old = (work / "kernel.rs").read_text()
    (work / "kernel.rs").unlink()
    translate(work, tree)
    new = (work / "kernel.rs").read_text()
    assert new == old, "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "proven", "now"))[:4000]
