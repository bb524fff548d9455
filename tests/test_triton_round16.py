"""Round 16's kernels (tests/fixtures/triton_round16.py), found by a helper's own Triton probes (build/tri16) and
round 15's two unproven ports: the translator's scatter after a read/write loop of gathers and scatters waited on the
loop's last write, where cuTile Python waits on the array's last operation (a loop that never runs leaves the last
write before the earlier loop's reads); and a loop of an acquire-ordered kernel (a work queue on `tl.atomic_add`)
carried its tokens in their names' order, not in the order the loop first accesses the arrays, as cuTile Python
does. Each is ported and proven (sm_90); the lowered kernels run on numpy against Triton's interpreter where it runs
them."""
from __future__ import annotations

from pathlib import Path

import pytest

import test_triton_two_layouts as two

from conftest import load_module

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round16.py"
MOD = load_module(FIXTURE, "triton_round16_fixture")
PROVEN = ("scatter_after_loop", "work_queue")

cargo = pytest.mark.skipif(__import__("shutil").which("cargo") is None, reason="cargo (the port's build) not installed")


def _prove(tmp_path, fixture, names):
    from tileport.pipeline.triton import port_triton_many
    from tileport.toolchain.locate import find_cuda_tree

    launches = two.captured_launches(fixture)
    jobs = [(f"{fixture}::{n}", [], [l for l in launches if l["kernel"].endswith(f"::{n}")], tmp_path / n)
            for n in names]
    return dict(zip(names, port_triton_many(jobs, find_cuda_tree(), "sm_90", tmp_path / "_work")))


@cargo
def test_round16_kernels_port_and_prove(tmp_path):
    for name, v in _prove(tmp_path, FIXTURE, PROVEN).items():
        assert v["status"] == "proven", (name, str(v)[:1500])


@cargo
def test_a_loop_of_an_acquire_ordered_kernel_carries_its_tokens_in_access_order(tmp_path):
    v = _prove(tmp_path, FIXTURE, ("work_queue",))["work_queue"]
    rs = (tmp_path / "work_queue" / "kernel.rs").read_text()
    # the loop reads x, writes y, then takes a tile from the counter: its tokens renamed to sort in that order
    assert "let mut zz_loop_0001x_ptr_token" in rs and "let mut zz_loop_0300counter_ptr_token" in rs, rs[:3000]
    assert v["status"] == "proven"
