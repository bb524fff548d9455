"""Round 25b's kernels (tests/fixtures/triton_round25b.py), found by a helper's round of inference-serving and
non-LLM Triton kernels of ours (build/r25u): `and` / `or` / `not` on loaded elements and boolean tiles; f32 atomic
max / min at several addresses; a constexpr named `S` beside `%` of tiles (translate). Each fixture
kernel is ported and proven (sm_90); the lowered kernels run on numpy against numpy's own results (Triton's
interpreter reads `and` / `not` of a block tensor as Python's truth of the whole tensor, where its compiler combines
the lanes: triton.compile's TTIR, checked below where triton is installed)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round24 as r24
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo
from tileport.frontends.triton.ct_numpy import CtModel

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round25b.py"
MOD = load_module(FIXTURE, "triton_round25b_fixture")
NAMES = ("accept_chain", "bool_tiles", "segment_amax", "filter_tap_mod")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round25b")


@needs_cargo
def test_round25b_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, r24.Ct24)


def _cases(name):
    return [c for c in MOD.cases() if c[0] == name]


def _src(lowered, name):
    return (lowered / name / "lowered.py").read_text()


def test_round25b_and_of_loaded_elements(lowered):
    """`if pd > 0 and pt / pd >= u:` with pd, pt, u loaded elements (speculative decoding's acceptance test; `if not
    rejected:` beside it): Python's `and` of their 0-d truths, as Triton's logical_and of two i1 scalars (was
    refused: "`and`/`or` on tiles: use `&` / `|`")."""
    src = _src(lowered, "accept_chain")
    assert ") and (ct.reshape(" in src, src
    (case,) = _cases("accept_chain")
    got = _run(lowered, *case)
    dp, tp, ids, u = case[2][:4]
    want_n, want_ids = np.zeros(4, np.int32), np.full(ids.shape, -1, np.int32)
    for r in range(4):
        for k in range(ids.shape[1]):
            t = ids[r, k]
            if not (dp[r, k, t] > 0 and tp[r, k, t] / dp[r, k, t] >= u[r, k]):
                break
            want_ids[r, k] = t
            want_n[r] += 1
    assert want_n.tolist() == [3, 0, 3, 0] and np.array_equal(got[5], want_n), got[5]
    assert np.array_equal(got[4], want_ids), got[4]


def test_round25b_and_or_not_of_boolean_tiles(lowered):
    """`(x > lo) and (x < hi)`, `a or b or c`, `inside and not far` of boolean tiles: the lanes combined (`&`, `|`,
    `~`: Triton's logical_and / logical_or / not_ on i1 tensors; a scalar among them broadcast, as Triton's);
    `not (f > 0) or (f == 7 and pid == 0)` on a
    loaded element: Python's on scalars."""
    src = _src(lowered, "bool_tiles")
    assert "~" in src and " & " in src and " | " in src, src
    (case,) = _cases("bool_tiles")
    got = _run(lowered, *case)
    x = case[2][0]
    keep = (x > -1.5) & (x < 1.0) & ~((x < -2.0) | (x > 2.0) | (x == 0.0))
    keep |= (np.arange(100) >= 64) & (x > 1.8)          # `(pid == 1) and (x > 1.8)`: a scalar and a tile
    want = np.where(keep, x, np.float32(-1.0)).astype(np.float32)
    want[:64] = 5.0                      # program 0: flag 7; program 1: flag 3 keeps its values
    assert np.array_equal(got[1], want)


#: the round's stand-in: the one numpy model (ct_numpy.py), whose atomics run lane by lane in lane order (one interleaving of a tile's lanes: lanes of one address see each other's writes)
CtLanes = CtModel



def test_round25b_float_atomic_max_at_several_addresses(lowered):
    """`tl.atomic_max(mx + seg, x, mask=m)` / `tl.atomic_min(.., sem="relaxed")` of an f32 tile at several
    addresses (sorted segment ids: many lanes of one address): each lane's compare-and-swap of Triton's update of
    the bits, again for the lanes that lost theirs, until none is left; the value each lane replaced returned (was
    refused: "tl.atomic_max of an f32 tile at several addresses is not lowered")."""
    src = _src(lowered, "segment_amax")
    assert "while ct.sum(ct.where(" in src and "ct.atomic_cas(mx_ptr" in src, src
    (case,) = _cases("segment_amax")
    got = two.run_copies(lowered / "segment_amax", MOD.segment_amax, *case[1:], CtLanes)
    x, ids = case[2][0], case[2][1]
    mx, mn = np.full(6, -1e30, np.float32), np.full(6, 1e30, np.float32)
    old = np.zeros(50, np.float32)
    for k in range(50):                      # lane order, program 0 before program 1: the stand-in's order
        old[k] = mx[ids[k]]
        mx[ids[k]] = max(mx[ids[k]], x[k])
        mn[ids[k]] = min(mn[ids[k]], x[k])
    assert np.array_equal(got[2], mx) and np.array_equal(got[3], mn) and np.array_equal(got[4], old)


def test_round25b_constexpr_named_s_beside_a_tile_remainder(lowered):
    """`d % S` of a loaded int32 tile with a kernel constexpr named `S` (Triton's truncating remainder, lowered as
    `ct.where(.., (d % S) - S, d % S)`): the port's Python `%` block ends in a typed `let` (its untyped `select(..)`
    made cutile 0.3.1 resolve select's own shape generic `S` as the kernel's constant: irgen panicked, "Unexpected
    const arg S for variadic type", set e's implicit-GEMM convolution unproven). Proven by the port test above;
    here the values, C's truncation for negative d."""
    src = _src(lowered, "filter_tap_mod")
    assert "- S" in src, src
    (case,) = _cases("filter_tap_mod")
    got = _run(lowered, *case)
    d = case[2][0]
    tap = np.fmod(d, 3)
    row = np.fmod(np.trunc(d / 3).astype(np.int32), 3)
    assert np.array_equal(got[1], tap * 3 + row)


@pytest.mark.parametrize("expr", ["pd and pt >= u", "not pt"])
def test_round25b_and_of_non_boolean_refused(tmp_path, expr):
    """`and` / `not` of a float element: Triton 3.6 bitcasts each operand to i1, its own error for a wider type
    ("Cannot bitcast data-type of size 32 to data-type of size 1"): refused at file:line:col with that reason."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::accept_chain")]
    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("if pd > 0 and pt / pd >= u:", f"if {expr}:"))
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: `(and|not)` of a ct.float32 non-boolean tile: Triton "
                                            r"3.6 takes boolean operands there only"):
        lower_from_launches(f"{fx}::accept_chain", mine)


TTIR_PROBE = """
import triton, triton.language as tl
from triton.compiler import ASTSource
from triton.backends.compiler import GPUTarget

@triton.jit
def k(x_ptr, y_ptr):
    o = tl.arange(0, 128)
    x = tl.load(x_ptr + o)
    keep = ((x > 0.0) and (x < 1.0)) and not (x == 0.5)
    tl.store(y_ptr + o, tl.where(keep, x, -1.0))

c = triton.compile(ASTSource(k, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {}), target=GPUTarget("cuda", 90, 32))
print(c.asm["ttir"])
"""


def test_round25b_tritons_compiler_combines_lanes(tmp_path):
    """What the lowering follows: triton.compile's TTIR (sm_90, on the CPU) of `(x > 0) and (x < 1)` / `not m` of
    block tensors is an `arith.andi` / `arith.xori` of the i1 lanes (TILEPORT_TORCH_PYTHON; skipped without it)."""
    import os
    import subprocess

    py = two._torch_python()
    if py is None:
        pytest.skip("no Python with triton (TILEPORT_TORCH_PYTHON)")
    script = tmp_path / "probe.py"
    script.write_text(TTIR_PROBE)
    res = subprocess.run([py, str(script)], capture_output=True, text=True, timeout=300,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert res.returncode == 0, res.stderr[-3000:]
    assert "arith.andi" in res.stdout and "arith.xori" in res.stdout and "tensor<128xi1>" in res.stdout
