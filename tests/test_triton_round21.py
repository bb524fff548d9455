"""Round 21's kernels (tests/fixtures/triton_round21.py), found by a helper's round of LLM-library-style kernels
(build/tri21): **libdevice imported under another name (`from triton.language.extra.cuda import libdevice as ld`):
`ld.sqrt(x)` was lowered as tl.sqrt's approximation (`ct.sqrt(.., rounding_mode=APPROX, flush_to_zero=True)`)
where libdevice's is IEEE, silently**; libdevice's `fma_rn` (refused: "not lowered") as tl.fma's fused
multiply-add; a flag argument on a constexpr the launches give both values (`tl.cumsum(x, 0, reverse=REVERSE)`:
"must be a literal or a constexpr the launches agree on") as an `if` on the constexpr, the flag a literal in each
arm; `x.numel` / `x.shape` of a tile (refused: "is not supported") as its extents; a host descriptor whose block
shape no one constexpr names across the launches (`[BK, BN]` / `[BN, BK]` by a B_TRANS constexpr: refused) named
where it is used, in each arm of `if B_TRANS:`; a hand-written bitonic argsort (refused: "`x.numel` is not
supported", then "operator Pow") — `tl.static_range` unrolled where its index is a shape, `2 ** i` of constexprs,
`tl.reshape(x, shape)` of a shape name, a boolean tile compared with an int32 tile or a boolean constexpr (cutile:
"binary `Ne` requires operands of the same type"); an index vector of a loop, after it, no longer written before
an `if` on a constexpr as the loop index's value (cuTile Python: "Use of potentially undefined variable `i`").
Each fixture kernel is ported and proven (sm_90); the lowered kernels run on numpy against numpy's own results."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import test_triton_two_layouts as two

from conftest import load_module, needs_cargo
from tileport.frontends.triton.ct_numpy import CtModel

FIXTURE = Path(__file__).parent / "fixtures" / "triton_round21.py"
MOD = load_module(FIXTURE, "triton_round21_fixture")
NAMES = ("aliased_libdevice", "flag_scan_sort", "numel_shape", "host_desc_trans", "hand_argsort",
         "index_after_loop")


lowered = two.lowered_fixture(FIXTURE, NAMES, "round21")


#: the round's stand-in: the one numpy model of the ct operations (ct_numpy.py; it was Ct14 with a scan in x's dtype, an IEEE sqrt and a mul)
Ct21 = CtModel



@needs_cargo
def test_round21_kernels_port_and_prove(tmp_path):
    two.proven_fixture_kernels(tmp_path, (FIXTURE, NAMES))


def _run(lowered, name, grid, args, kw):
    return two.run_copies(lowered / name, getattr(MOD, name), grid, args, kw, Ct21)


def _cases(name):
    return [c for c in MOD.cases() if c[0] == name]


def test_round21_aliased_libdevice(lowered):
    src = (lowered / "aliased_libdevice" / "lowered.py").read_text()
    # libdevice under the alias `ld` is libdevice: fma_rn is fma.rn.ftz.f32 under Triton (the product's
    # flush-to-zero, which cuTile's fused multiply-add takes), sqrt is sqrt.approx.ftz.f32 (__CUDA_PREC_SQRT unset)
    assert "(ct.mul(x, y, flush_to_zero=True) + z) + (ct.sqrt(ct.abs(x), rounding_mode=ct.RoundingMode.APPROX, " \
        "flush_to_zero=True))" in src, src
    ((name, grid, args, kw),) = _cases("aliased_libdevice")
    x, y, z = args[:3]
    want = (x.astype(np.float64) * y + z + np.sqrt(np.abs(x).astype(np.float64))).astype(np.float32)
    assert np.allclose(_run(lowered, name, grid, args, kw)[3], want, rtol=1e-6, atol=1e-6)


def test_round21_libdevice_f32_forms_as_triton_links_them(tmp_path):
    """Triton 3.6 links libdevice with __CUDA_FTZ set and __CUDA_PREC_SQRT unset (its PTX for sm_90, read with
    triton.compile): `libdevice.sqrt` is sqrt.approx.ftz.f32 (was an IEEE square root, silently), `sqrt_rn`,
    `add_rn` .. `div_rn`, `exp2`, `rsqrt` their flush-to-zero forms; f64's have none."""
    import test_triton_frontend as tf
    from tileport.frontends.triton.lower import lower
    from tileport.frontends.triton.source import find_kernel

    for body, want in (
            ("libdevice.sqrt(x)", "ct.sqrt(x, rounding_mode=ct.RoundingMode.APPROX, flush_to_zero=True)"),
            ("libdevice.sqrt_rn(x) + tl.sqrt_rn(x)", "ct.sqrt(x, flush_to_zero=True) + ct.sqrt(x)"),
            ("libdevice.div_rn(x, x + 1.0)",
             "ct.truediv(x, x + 1.0, rounding_mode=ct.RoundingMode.RN, flush_to_zero=True)"),
            ("libdevice.rsqrt(x) + libdevice.exp2(x)", "ct.rsqrt(x, flush_to_zero=True) + ct.exp2(x, flush_to_zero=True)")):
        f = tmp_path / "m.py"
        f.write_text(tf.MODULE.replace("{helpers}", "").replace(
            "{body}", f"x = tl.load(x_ptr + offs)\n    tl.store(y_ptr + offs, {body})"))
        src = lower(find_kernel(f, "k"), tf.IKINDS, {"s": "float"}, facts=tf.FACTS).source
        assert f"tile=ct.astype({want}, y_ptr.dtype)" in src, (body, src)


def test_round21_other_libdevice_spellings():
    """`import triton.language.extra.cuda.libdevice as libdev` names libdevice too; a variable named like the alias
    is no module."""
    from tileport.frontends.triton.source import _libdevice_modules
    import ast

    tree = ast.parse("import triton.language.extra.cuda.libdevice as libdev\n"
                     "from triton.language.extra import libdevice\n"
                     "from triton.language.extra.cuda import libdevice as ld\n"
                     "import triton.language as tl\nfrom triton.language import math as tm\n")
    assert _libdevice_modules(tree) == {"libdev", "libdevice", "ld"}


def test_round21_fma_rz_still_refused(tmp_path):
    """libdevice's other roundings of an fma have no cuTile Python counterpart: refused at their place."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("ld.fma_rn(x, y, z)", "ld.fma_rz(x, y, z)"))
    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::aliased_libdevice")]
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: ld.fma_rz is not lowered"):
        lower_from_launches(f"{fx}::aliased_libdevice", mine)


def test_round21_flag_on_a_constexpr_of_both_values(lowered):
    src = (lowered / "flag_scan_sort" / "lowered.py").read_text()
    assert "    if REVERSE:\n        c = ct.cumsum(x, axis=0, reverse=True)\n    else:\n        c = ct.cumsum(x, axis=0)\n" \
        in src, src
    for name, grid, args, kw in _cases("flag_scan_sort"):
        x = args[0]
        got = _run(lowered, name, grid, args, kw)
        want = np.flip(np.cumsum(np.flip(x, 1), 1), 1) if kw["REVERSE"] else np.cumsum(x, 1)
        assert np.allclose(got[1], want, rtol=1e-5, atol=1e-6), kw
        assert np.array_equal(got[2], -np.sort(-x, 1) if kw["DESC"] else np.sort(x, 1)), kw


def test_round21_flag_of_a_runtime_value_refused(tmp_path):
    """A flag that is no constexpr (a runtime argument) stays refused at its place."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("reverse=REVERSE", "reverse=row > 0"))
    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::flag_scan_sort")]
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: reverse= must be a literal or a constexpr the launches "
                                            r"agree on"):
        lower_from_launches(f"{fx}::flag_scan_sort", mine)


def test_round21_numel_and_shape_of_a_tile(lowered):
    src = (lowered / "numel_shape" / "lowered.py").read_text()
    assert "ct.reshape(x, (M * N,))" in src and "ct.full((M, N), 1.0, dtype=ct.float32)" in src, src
    ((name, grid, args, kw),) = _cases("numel_shape")
    x = args[0]
    want = x - x.mean() + np.float32(x.shape[1])
    assert np.allclose(_run(lowered, name, grid, args, kw)[1], want, rtol=1e-5, atol=1e-5)


def test_round21_host_descriptor_block_named_per_arm(lowered):
    src = (lowered / "host_desc_trans" / "lowered.py").read_text()
    assert "ct.transpose(ct.load(b_desc, index=(pid_n, k // BK), shape=(BN, BK)" in src and \
        "ct.load(b_desc, index=(k // BK, pid_n), shape=(BK, BN)" in src and \
        "ct.load(a_desc, index=(pid_m, k // BK), shape=(BM, BK)" in src, src
    for name, grid, args, kw in _cases("host_desc_trans"):
        a, b = args[0].base, args[1].base
        got = _run(lowered, name, grid, args, kw)
        bm = b.T if kw["B_TRANS"] else b
        assert np.allclose(got[2].base, a.astype(np.float32) @ bm.astype(np.float32), rtol=1e-3, atol=1e-2), kw


def test_round21_host_descriptor_block_unnamed_where_used(tmp_path):
    """A descriptor whose block no constexpr names at the launches reaching its use: refused there."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    fx = tmp_path / "k.py"
    text = FIXTURE.read_text()
    body = text[text.index("        if B_TRANS:\n            b = b_desc"):text.index("        acc += tl.dot(a, b)")]
    fx.write_text(text.replace(body, "        b = b_desc.load([k, pid_n * BN])\n"))
    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::host_desc_trans")]
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: b_desc: the block shape's dimension 0 is \[32, 16\] "
                                            r"across the launches and no constexpr parameter has those values"):
        lower_from_launches(f"{fx}::host_desc_trans", mine)


def test_round21_hand_written_bitonic_argsort(lowered):
    """`tl.static_range` whose index is a shape (`2 ** i` of a reshape, a helper's constexpr) unrolled; `x.numel`,
    `x.shape` and a shape name lowered; `(left > right) != flip` of a boolean tile and an int32 one / a boolean
    constexpr compared as Triton promotes them."""
    src = (lowered / "hand_argsort" / "lowered.py").read_text()
    assert "for " not in src.split("def hand_argsort", 1)[1], src   # (every static range unrolled)
    assert "ct.astype(swap_stage" in src and "(1 if DESC else 0)" in src, src
    for name, grid, args, kw in _cases("hand_argsort"):
        x = args[0]
        want = np.argsort(-x, axis=1, kind="stable") if kw["DESC"] else np.argsort(x, axis=1, kind="stable")
        assert np.array_equal(_run(lowered, name, grid, args, kw)[1], want), kw


def test_round21_power_of_constexprs(tmp_path):
    """`M ** 2` of constexprs: the power every launch agrees on; a negative power refused at its place."""
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::numel_shape")]
    for k, (expr, want) in enumerate((("M ** 2", "mean = ct.truediv(num1, ct.full((), 16,"), ("N ** -1", None))):
        fx = tmp_path / f"k{k}.py"
        fx.write_text(FIXTURE.read_text().replace("mean = tl.sum(flat, axis=0) / x.numel",
                                                  f"mean = tl.sum(flat, axis=0) / ({expr})"))
        if want is None:
            with pytest.raises(LoweringError, match=r"k1.py:\d+:\d+: `N \*\* \(-1\)`: `\*\*` is lowered of integer "
                                                    r"constexprs whose power every captured launch agrees on"):
                lower_from_launches(f"{fx}::numel_shape", mine)
        else:
            src = lower_from_launches(f"{fx}::numel_shape", mine).source
            assert want in src, src


def test_round21_loop_index_value_not_read_after_its_loop(lowered):
    src = (lowered / "index_after_loop" / "lowered.py").read_text()
    body = src.split("if SCALE:", 1)[0]
    assert "o_block = i // BLOCK" not in body.split("for i in range(0, n, BLOCK):", 1)[1].split("\n    ", 2)[-1], src
    for name, grid, args, kw in _cases("index_after_loop"):
        x = args[0]
        s = x.sum(dtype=np.float32)
        want = x * s if kw["SCALE"] else x + s
        assert np.allclose(_run(lowered, name, grid, args, kw)[1], want, rtol=1e-4, atol=1e-4), kw


def test_round21_loop_index_value_read_after_its_loop_refused(tmp_path):
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    fx = tmp_path / "k.py"
    fx.write_text(FIXTURE.read_text().replace("    if SCALE:\n        for i in range(0, n, BLOCK):",
                                              "    tl.store(y_ptr + o, acc, mask=o < n)\n    if SCALE:\n"
                                              "        for i in range(0, n, BLOCK):"))
    mine = [l for l in two.captured_launches(FIXTURE) if l["kernel"].endswith("::index_after_loop")]
    with pytest.raises(LoweringError, match=r"k.py:\d+:\d+: o is read after the loop at line \d+ \(its value there is "
                                            r"the last iteration's"):
        lower_from_launches(f"{fx}::index_after_loop", mine)


def test_round21_zeros_like_takes_no_dtype(tmp_path):
    """Triton 3.6's `tl.zeros_like(input)` takes the tensor only (`dtype=` raises a TypeError when Triton compiles
    the kernel): refused with that reason (it was ported, computing what Triton never computes)."""
    import test_triton_frontend as tf
    from tileport.frontends.triton.lower import LoweringError, lower
    from tileport.frontends.triton.source import find_kernel

    f = tmp_path / "m.py"
    f.write_text(tf.MODULE.replace("{helpers}", "").replace(
        "{body}", "x = tl.load(x_ptr + offs)\n    tl.store(y_ptr + offs, tl.zeros_like(x, dtype=tl.int32) + x)"))
    with pytest.raises(LoweringError, match=r"m.py:\d+:\d+: `tl.zeros_like\(x, dtype=tl.int32\)`: Triton 3.6's "
                                            r"tl.zeros_like takes the tensor only"):
        lower(find_kernel(f, "k"), tf.IKINDS, {"s": "float"}, facts=tf.FACTS)
