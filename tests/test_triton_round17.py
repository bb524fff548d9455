"""Round 17's kernels (tests/fixtures/triton_round17.py), found by a helper's own Triton probes (build/tri17):
libdevice's `popc` / `clz` / `brev` (shifts and masks on the uint32 bits) and `float2int_rn` .. `double2ll_ru`
(exact roundings, then converted); `&` / `|` of two scalar comparisons (a `while` test: Python's `and` / `or`); `~x`
and `-u` of tiles loaded from an int32 / uint32 array; `tl.multiple_of(n, 16)` as a statement (dropped: Triton
discards the value it returns); `tl.uint_to_uniform_float`; `tl.randint` of int64 offsets (their high word is
Philox's second counter word, as Triton's — it was taken as 0); a uint32 tile compared with a literal in [2^31,
2^32) (compared in int64, both moved down by 2^31); `tl.dtype` facts (`x_ptr.dtype.element_ty.primitive_bitwidth`,
`x.dtype.is_floating()`); `tl.exp` .. `tl.ceil` of an f16 tile refused as Triton 3.6 refuses them; and the capture
splitting a kernel whose body decides on a pointer's element type into one port per dtype. Each fixture kernel is
ported and proven (sm_90); the lowered kernels run on numpy against Triton's interpreter where it runs them, and
against numpy where it cannot (libdevice)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_round14 as r14
import test_triton_two_layouts as two

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round17.py"
MOD = load_module(FIXTURE, "triton_round17_fixture")
NAMES = ("popc_clz_brev", "float2int_modes", "while_bisect", "invert_loaded", "multiple_of_statement",
         "uniform_words", "randint_wide_offsets", "tuple_of_arrays", "element_type_branch[x_ptr=f16]",
         "element_type_branch[x_ptr=f32]")
INTERPRETED = ("while_bisect", "invert_loaded", "multiple_of_statement", "uniform_words", "randint_wide_offsets",
               "element_type_branch")   # (tuple_of_arrays: the interpreter script converts top-level arrays only)



@needs_cargo
def test_round17_kernels_port_and_prove(tmp_path):
    from tileport.pipeline.triton import port_triton_many
    from tileport.toolchain.locate import find_cuda_tree

    from tileport.frontends.triton.capture import split_specializations

    launches = split_specializations(two.captured_launches(FIXTURE))
    jobs = [(f"{FIXTURE}::{n}", [], [l for l in launches if l["kernel"].endswith(f"::{n}")], tmp_path / n)
            for n in NAMES]
    for name, v in zip(NAMES, port_triton_many(jobs, find_cuda_tree(), "sm_90", tmp_path / "_work")):
        assert v["status"] == "proven", (name, str(v)[:1500])


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    """two.lower_kernels, the launches split per specialization as a capture splits them (NAME[x_ptr=f16])."""
    from tileport.frontends.triton.capture import split_specializations
    from tileport.pipeline.triton import lower_from_launches

    root = tmp_path_factory.mktemp("round17")
    launches = split_specializations(two.captured_launches(FIXTURE))
    for name in NAMES:
        mine = [launch for launch in launches if launch["kernel"].endswith(f"::{name}")]
        lower_from_launches(f"{FIXTURE}::{name}", mine).write(root / name / "lowered.py")
    return root


def _run(lowered, name, grid, args, kw):
    if name == "element_type_branch":   # one port per dtype of x_ptr
        name = f"{name}[x_ptr={ {np.float16: 'f16', np.float32: 'f32'}[args[0].dtype.type]}]"
    return two.run_copies(lowered / name, getattr(MOD, name.split("[")[0]), grid, args, kw, r14.Ct14)   # (what round 17's kernels call beyond it is in the model)


def test_round17_lowered_forms(lowered):
    src = {n: (lowered / n / "lowered.py").read_text() for n in NAMES}
    assert "popc_2" in src["popc_clz_brev"] and "clz_smear" in src["popc_clz_brev"] and \
        "brev_swap" in src["popc_clz_brev"], src["popc_clz_brev"]
    assert "while ((ct.reshape(hi - lo, ())) > 0.0001) and (it < ITERS):" in src["while_bisect"], src["while_bisect"]
    assert "tl.multiple_of" not in src["multiple_of_statement"]
    assert "ct.astype(ct.astype(ct.bitcast(o, ct.uint64) >> 32, ct.uint32), ct.uint64)" in \
        src["randint_wide_offsets"].replace("\n", ""), src["randint_wide_offsets"]


def _numpy_bits(x):
    u = x.view(np.uint32)
    popc = np.array([bin(int(v)).count("1") for v in u], np.int32)
    clz = np.array([32 - int(v).bit_length() for v in u], np.int32)
    brev = np.array([int(format(int(v), "032b")[::-1], 2) for v in u], np.uint32).view(np.int32)
    return popc, clz, brev


def test_round17_libdevice_kernels_match_numpy(lowered):
    """libdevice's functions, which Triton's interpreter cannot run, against their definitions (and the tuple of
    arrays, which the interpreter script does not convert)."""
    for name, grid, args, kw in MOD.cases():
        if name == "popc_clz_brev":
            got = _run(lowered, name, grid, args, kw)
            for k, want in zip((1, 2, 3), _numpy_bits(args[0])):
                assert np.array_equal(got[k], want), k
        elif name == "tuple_of_arrays":
            got = _run(lowered, name, grid, args, kw)
            assert np.array_equal(got[1], args[0][0] - args[0][1])
        elif name == "float2int_modes":
            got = _run(lowered, name, grid, args, kw)
            x = args[0]
            assert np.array_equal(got[1], np.rint(x).astype(np.int32))   # ties to even: 0.5 -> 0, 2.5 -> 2
            assert np.array_equal(got[2], np.trunc(x).astype(np.int32))
            assert np.array_equal(got[3], np.floor(x).astype(np.int64))
            assert np.array_equal(got[4], np.ceil(x).astype(np.int64))


def test_round17_lowered_kernels_match_tritons_interpreter(lowered, tmp_path):
    for name, k, w, a in two.against_triton(FIXTURE, MOD, tmp_path, "cases", INTERPRETED,
                                            lambda *case: _run(lowered, *case)):
        assert np.array_equal(w, a), f"{name}: argument {k} differs from Triton's"


def _lower(tmp_path, body, facts=None):
    import test_triton_frontend as tf

    return tf._lowered(tmp_path, body, facts=facts or tf.FACTS)


def test_tl_math_of_a_16_bit_float_is_refused_as_triton_refuses_it(tmp_path):
    """Triton 3.6's tl.exp .. tl.ceil check their operand's dtype (math._check_dtype): an f16 tile is an error
    there ("Expected dtype ['fp32', 'fp64'] but got fp16"); it was ported, computing what Triton never computes."""
    from tileport.frontends.triton.lower import LoweringError

    for fn in ("tl.exp", "tl.log2", "tl.math.floor", "tl.sqrt"):
        with pytest.raises(LoweringError, match=r"Triton 3.6 takes tl\.\w+ of fp32 / fp64 only"):
            _lower(tmp_path, f"x = tl.load(x_ptr + offs).to(tl.float16)\ntl.store(y_ptr + offs, {fn}(x))")
    # converted first, as Triton asks: lowered
    assert "ct.exp2" in _lower(tmp_path, "x = tl.load(x_ptr + offs).to(tl.float16)\n"
                                         "tl.store(y_ptr + offs, tl.exp(x.to(tl.float32)))")


def test_unsigned_negation_and_wide_unsigned_literal_compare(tmp_path):
    src = _lower(tmp_path, "u = tl.load(x_ptr + offs).to(tl.uint32, bitcast=True)\n"
                           "tl.store(y_ptr + offs, ((-u) + (u >= 0x80000000).to(tl.uint32)).to(tl.float32))")
    assert "ct.zeros((B,), dtype=ct.uint32) - u" in src, src
    assert "((ct.astype(u, ct.int64)) - 0x40000000 - 0x40000000) >= 0" in src, src
    # the compare, exactly, on numpy: u >= 2**31 for every u
    u = np.array([0, 1, 2**31 - 1, 2**31, 2**31 + 5, 2**32 - 1], np.uint32)
    assert list((u.astype(np.int64) - 0x40000000 - 0x40000000) >= 0) == [False, False, False, True, True, True]


def test_dtype_facts_are_constants_of_the_launches_dtype(tmp_path):
    import test_triton_frontend as tf

    facts16 = dict(tf.FACTS, dtypes={"x_ptr": {"ct.float16"}, "y_ptr": {"ct.float32"}})
    body = ("x = tl.load(x_ptr + offs)\nif x_ptr.dtype.element_ty.primitive_bitwidth == 16:\n"
            "    x = x.to(tl.float32) * 0.5\nif x.dtype.is_floating():\n    x = x + 1.0\n"
            "tl.store(y_ptr + offs, x)")
    src16 = _lower(tmp_path, body, facts16)
    src32 = _lower(tmp_path, body)
    assert "* 0.5" in src16 and "* 0.5" not in src32, (src16, src32)
    assert "+ 1.0" in src16 and "+ 1.0" in src32
    from tileport.frontends.triton.lower import LoweringError
    mixed = dict(tf.FACTS, dtypes={"x_ptr": {"ct.float16", "ct.float32"}, "y_ptr": {"ct.float32"}})
    with pytest.raises(LoweringError, match="not one constant"):
        _lower(tmp_path, body, mixed)


def test_libdevice_functions_without_a_counterpart_say_so(tmp_path):
    from tileport.frontends.triton.lower import LoweringError

    for fn in ("exp10", "log10", "remainder"):
        args = "x, x" if fn == "remainder" else "x"
        with pytest.raises(LoweringError, match=f"cuTile Python 1.7 has no {fn}"):
            _lower(tmp_path, f"x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, libdevice.{fn}({args}))")


def test_a_kernel_deciding_on_a_pointers_element_type_is_captured_per_dtype(tmp_path):
    """`if x_ptr.dtype.element_ty == tl.float16:` launched with f16 and f32 arrays: one kernel per dtype,
    `k[x_ptr=f16]` / `k[x_ptr=f32]` (it was refused: "the launches pass arrays of different dtypes"); a kernel that
    only converts to a pointer's element type (`.to(y_ptr.dtype.element_ty)`) is not split."""
    from tileport.frontends.triton.capture import dtype_compared, specialization

    f = tmp_path / "dk.py"
    f.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef a(x_ptr, y_ptr):\n"
                 "    if x_ptr.dtype.element_ty == tl.float16:\n        pass\n"
                 "    tl.store(y_ptr, tl.load(x_ptr).to(y_ptr.dtype.element_ty))\n\n\n"
                 "@triton.jit\ndef b(x_ptr, y_ptr):\n    tl.store(y_ptr, tl.load(x_ptr).to(y_ptr.dtype.element_ty))\n\n\n"
                 "@triton.jit\ndef c(x_ptr, y_ptr):\n    x = tl.load(x_ptr)\n    if x.dtype.is_floating():\n"
                 "        x = x * 2\n    tl.store(y_ptr, x)\n")
    mod = load_module(f, "round17_dtype_kernels")
    assert dtype_compared(mod.a.fn) == {"x_ptr"}
    assert dtype_compared(mod.b.fn) == frozenset()
    assert dtype_compared(mod.c.fn) == {"x_ptr", "y_ptr"}
    described = [{"name": "x_ptr", "kind": "array", "dtype": "f16"}, {"name": "y_ptr", "kind": "array", "dtype": "f32"}]
    assert specialization({"x_ptr": 1, "y_ptr": 2}, set(), described, dtype_compared(mod.a.fn)) == {"x_ptr": "f16"}
    assert specialization({"x_ptr": 1, "y_ptr": 2}, set(), described, dtype_compared(mod.b.fn)) == {}


def test_reduction_keywords_are_read_as_triton_reads_them(tmp_path):
    """`keep_dims` given by a constexpr or by position was read as False (a reduced tile where Triton keeps the
    axis); a keyword tl.max does not take (`propagate_nan=True`, which Triton 3.6 rejects) was dropped silently."""
    import test_triton_frontend as tf
    from tileport.frontends.triton.lower import LoweringError

    for call in ("tl.sum(x2, axis=1, keep_dims=MODE == 1)", "tl.sum(x2, 1, True)", "tl.max(x2, 1, False, True, True)"):
        src = _lower(tmp_path, "x = tl.load(x_ptr + offs)\nx2 = tl.reshape(x, (B // 2, 2))\n"
                               f"tl.store(y_ptr + offs, tl.reshape(x2 - {call}, (B,)))", tf.FACTS)
        assert "keepdims=True" in src, (call, src)
    with pytest.raises(LoweringError, match="tl.max takes no keyword 'propagate_nan'"):
        _lower(tmp_path, "x = tl.load(x_ptr + offs)\ntl.store(y_ptr + pid, tl.max(x, 0, propagate_nan=True))")
