"""Round 6's lowerings checked on the CPU against Triton itself: loop bounds loaded in `range()`'s arguments (an
embedding bag over int32 offsets), Triton's truncating `//` / `%` of a loaded tile by a runtime size argument (a
paged KV cache's slot split), an int flag and count a loop carries updated from loaded elements (speculative
decoding's accepted prefix), `tl.arange(start=, end=)` and an f32 `tl.dot` with `input_precision=` a constexpr.
Each launch of the LLM fixture's `round6_cases()` runs through the lowered cuTile Python on numpy against numpy
references, and those Triton's interpreter runs here (TILEPORT_TORCH_PYTHON) against Triton."""
from __future__ import annotations

import numpy as np
import pytest

import test_triton_round5 as r5

NAMES = ("bag_sum_int32", "slot_divmod", "accept_prefix", "kw_arange_ieee")
#: Triton 3.6's interpreter with numpy 2.4 fails on `range()` of a loaded bound (round 5): the bag is checked
#: against numpy only
INTERPRETED = ("slot_divmod", "accept_prefix", "kw_arange_ieee")


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    return r5.lower_fixture(tmp_path_factory.mktemp("round6"), NAMES)


def test_round6_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    assert "j_lo = " in src["bag_sum_int32"] and "range(j_lo, j_hi)" in src["bag_sum_int32"]
    assert "< 0) != (" not in src["slot_divmod"] and "(slot < 0)" in src["slot_divmod"]
    assert "done = ct.reshape(ct.where(" in src["accept_prefix"]
    assert "ct.mma(" in src["kw_arange_ieee"]


def test_round6_lowered_kernels_match_numpy(lowered):
    mod = r5._module()
    for name, grid, args, kw in mod.round6_cases():
        got = r5._run(lowered, mod, name, grid, args, kw)
        if name == "bag_sum_int32":
            ids, offs, emb = args[:3]
            want = np.stack([emb[ids[offs[b]:offs[b + 1]]].sum(0) for b in range(4)])
            assert np.allclose(got[3], want, rtol=1e-5, atol=1e-6)
        elif name == "slot_divmod":
            s = args[0].astype(np.int64)
            assert (s < 0).any()
            q = np.trunc(s / 16).astype(np.int64)   # C's division: toward zero, the remainder with s's sign
            assert np.array_equal(got[1], q) and np.array_equal(got[2], s - q * 16)
        elif name == "accept_prefix":
            u, pd, pt = args[:3]
            ok = u * pd <= pt
            assert np.array_equal(got[3], [np.argmin(np.append(r, False)) for r in ok])
        else:
            assert np.allclose(got[2], args[0] @ args[1], rtol=1e-5, atol=1e-5)


def test_round6_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    pairs = list(r5.against_triton(lowered, tmp_path, "round6_cases", INTERPRETED))
    for name, k, w, a in pairs:
        same = np.allclose(w, a, rtol=1e-5, atol=1e-5) if name == "kw_arange_ieee" else np.array_equal(w, a)
        assert same, f"{name}: argument {k} differs from Triton's"
    assert len(pairs) == 10


def test_dot_option_constexpr_launches_that_disagree_are_refused_saying_so(tmp_path):
    """`input_precision=PREC` of f32 operands: "ieee" at every launch lowers (kw_arange_ieee above); launches giving
    "ieee" and "tf32" are refused at the dot, naming both values (tf32 is not ct.mma's f32 product)."""
    import textwrap

    from tileport.frontends.triton.lower import LoweringError, lower
    from tileport.frontends.triton.source import find_kernel

    f = tmp_path / "prec.py"
    f.write_text(textwrap.dedent('''
        import triton
        import triton.language as tl


        @triton.jit
        def prec(a_ptr, c_ptr, N: tl.constexpr, PREC: tl.constexpr):
            r = tl.arange(0, N)
            a = tl.load(a_ptr + r[:, None] * N + r[None, :])
            tl.store(c_ptr + r[:, None] * N + r[None, :], tl.dot(a, a, input_precision=PREC))
    '''))
    kinds = {"a_ptr": "array", "c_ptr": "array", "N": "constant", "PREC": "constant"}
    facts = {"constants": {"N": [16, 16], "PREC": ["ieee", "tf32"]},
             "dtypes": {"a_ptr": ["ct.float32"], "c_ptr": ["ct.float32"]}}
    with pytest.raises(LoweringError, match=r"input_precision=PREC: the captured launches give it 'ieee', 'tf32', "
                                            r".*capture each value's launches apart") as exc:
        lower(find_kernel(f, "prec"), kinds, {"N": "int", "PREC": "str"}, facts=facts)
    assert str(exc.value).startswith(f"{f}:10:51: ")
    facts["constants"]["PREC"] = ["ieee", "ieee"]
    assert "ct.mma(" in lower(find_kernel(f, "prec"), kinds, {"N": "int", "PREC": "str"}, facts=facts).source
