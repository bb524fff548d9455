"""`tileport corpus capture --on-gpu` on a GPU host: a tiny corpus of our own whose tests check what the kernels
computed (so they pass only if each recorded launch also ran), and whose second kernel takes a constant that the
first kernel's autotuning search decided — the case an emulated capture cannot know (TileGym's mHC finalize
kernel takes the split-K factor its GEMM's search picked)."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu

OPS = '''\
import cuda.tile as ct
import torch
from cuda.tile.tune import exhaustive_search


@ct.kernel
def partial_sums(x, parts, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(parts, index=(ct.bid(0),), tile=ct.reshape(ct.sum(t, axis=0), (1,)))


@ct.kernel
def finish(parts, out, N_PARTS: ct.Constant[int]):
    t = ct.load(parts, index=(0,), shape=(N_PARTS,))
    ct.store(out, index=(0,), tile=ct.reshape(ct.sum(t, axis=0), (1,)))


def total(x):
    n = x.shape[0]
    parts = {t: torch.empty(n // t, device=x.device, dtype=x.dtype) for t in (256, 1024)}
    res = exhaustive_search([256, 1024], torch.cuda.current_stream(), lambda t: (n // t,), partial_sums,
                            lambda t: (x, parts[t], t))
    tile = res.best.config
    ct.launch(torch.cuda.current_stream(), (n // tile,), partial_sums, (x, parts[tile], tile))
    out = torch.empty(1, device=x.device, dtype=x.dtype)
    ct.launch(torch.cuda.current_stream(), (1,), finish, (parts[tile], out, n // tile))
    return out, tile
'''

TESTS = '''\
from pathlib import Path

import torch
from livegym.ops import total


def test_total():
    x = torch.arange(1 << 14, device="cuda", dtype=torch.float32) % 7
    out, tile = total(x)
    assert out.item() == x.sum().item()
    Path(__file__).with_name("winner.txt").write_text(str(tile))
'''


def test_live_capture_records_the_launches_that_ran_and_the_winners_constants(tmp_path: Path):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    from tileport.corpus.capture import Options, run
    from tileport.corpus.cudaemu import TARGETS

    root = tmp_path / "corpus"
    (root / "src" / "livegym").mkdir(parents=True)
    (root / "src" / "livegym" / "__init__.py").write_text("")
    (root / "src" / "livegym" / "ops.py").write_text(OPS)
    (root / "tests").mkdir()
    (root / "tests" / "test_total.py").write_text(textwrap.dedent(TESTS))
    index = run(Options(root=root, tests=["tests"], out=tmp_path / "out", target=TARGETS["h200"], paths=["src"],
                        timeout_s=120, live=True, say=lambda s: None))
    (tf,) = index["test_files"]
    assert tf["outcomes"] == {"passed": 1}, tf          # the sums are right: every launch ran
    winner = int((root / "tests" / "winner.txt").read_text())
    rows = {r["kernel"]: r for r in index["kernels"]}
    assert set(rows) == {"partial_sums", "finish"}
    finish = json.loads((tmp_path / "out" / rows["finish"]["capture"]).read_text())
    assert [l["signature"].split("N_PARTS=#")[1] for l in finish["launches"]] == [str((1 << 14) // winner)]
    assert index["target"] == {"live": True} and index["options"]["live"] is True
