"""Round 18's kernels (tests/fixtures/triton_round18.py), found by a helper's own Triton probes (build/tri18):
`tl.map_elementwise(scalar_fn, *args)` lowered as the scalar function inlined on the tiles, its `if` / `elif` /
`else` of lone returns as `tl.where` (both arms computed, the taken one kept: the same values, the function being
pure). Each fixture kernel is ported and proven (sm_90); the lowered kernels run on numpy against numpy's own SELU
/ clamp / products (Triton 3.6's interpreter cannot run map_elementwise: "'InterpreterBuilder' object has no
attribute 'new_block'"; with a scalar argument, "'float' object has no attribute 'type'")."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round14 as r14
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round18.py"
MOD = load_module(FIXTURE, "triton_round18_fixture")
NAMES = ("map_selu", "map_three_way", "map_straight")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round18")


@needs_cargo
def test_round18_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, r14.Ct14)


def test_round18_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    assert "ct.where(x > 0, x, alpha * (" in src["map_selu"], src["map_selu"]
    assert "ct.where(x < lo, -1.0, ct.where(x > (lo + 1.0), lo + 1.0, x))" in src["map_three_way"], \
        src["map_three_way"]
    assert "map_elementwise" not in "".join(src.values())


def test_round18_lowered_kernels_match_numpy(lowered):
    for name, grid, args, kw in MOD.cases():
        got = _run(lowered, name, grid, args, kw)
        if name == "map_selu":
            x, alpha = args[0], np.float32(args[3])
            want = np.where(x > 0, x, alpha * (np.exp(x) - 1)).astype(np.float32)
            assert np.allclose(got[1], want, rtol=1e-6, atol=1e-6)
        elif name == "map_three_way":
            x, lo = args[0], args[1]
            want = np.where(x < lo, -1.0, np.where(x > lo + 1, lo + 1, x)).astype(np.float32)
            assert np.array_equal(got[2], want)
        else:
            a, b = args[0], args[1]
            assert np.array_equal(got[2].reshape(8, 16), (a[:, None] * a[:, None] + b[None, :]).astype(np.float32))


def _lower(tmp_path, body, helpers="", facts=None):
    import test_triton_frontend as tf

    return tf._lowered(tmp_path, body, facts=facts or tf.FACTS, helpers=helpers)


def test_map_elementwise_refusals_are_located(tmp_path):
    """pack > 1 (the function sees several elements) and an `if` holding other than a lone return (a test of a
    whole tile) are refused where they stand."""
    from tileport.frontends.triton.lower import LoweringError

    helper = "@triton.jit\ndef _f(x):\n    if x > 0:\n        y = x * 2\n        return y\n    return x\n"
    with pytest.raises(LoweringError, match=r"whose `if`s are not each arm a lone `return`"):
        _lower(tmp_path, "tl.store(y_ptr + offs, tl.map_elementwise(_f, tl.load(x_ptr + offs)))", helpers=helper)
    helper = "@triton.jit\ndef _g(x):\n    return x + 1\n"
    with pytest.raises(LoweringError, match=r"only pack=1 is lowered"):
        _lower(tmp_path, "tl.store(y_ptr + offs, tl.map_elementwise(_g, tl.load(x_ptr + offs), pack=2))",
               helpers=helper)
