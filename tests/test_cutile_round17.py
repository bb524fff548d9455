"""cuTile Python generality, round 17 (docs/corpus.md): host projects of our own ported with the CLI; what they
found in the translator, each as a test."""
import ast
import re
import textwrap

import pytest

from tileport.spec import signature as sigmod
from tileport.translate.emit import Unsupported, emit_kernel

from kernel_text import HEADER, emit


RELAXED_ATOMICS_AFTER_STORES = """
@ct.kernel
def k(x, y, cnt, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    ct.store(y, index=(ct.bid(0),), tile=t * 2.0)
    i = ct.arange(B, dtype=ct.int32) % 4
    one = ct.full((B,), 1, ct.int32)
    ct.atomic_add(cnt, i, one, memory_order=ct.MemoryOrder.RELAXED)
    ct.atomic_add(cnt, i + 4, one, memory_order=ct.MemoryOrder.RELAXED)
    ct.store(y, index=(ct.bid(0) + 1,), tile=t)
"""


def test_relaxed_atomics_are_not_ordered_against_other_arrays_stores(tmp_path):
    """Two relaxed `ct.atomic_add`s of one array (an MoE router's per-expert counts) in a kernel that stores other
    arrays before and after them: cuTile Python's token_order joins a relaxed atomic's token with its own array's
    operations only (no acquire token, no release join), so the stores are not ordered against them (was refused:
    "ct.atomic_add in a kernel that also scatters, or stores after it or in a loop or branch", round 17's p13_moe);
    the second atomic starts from the first's token, as before."""
    text = "\n".join(emit(tmp_path, RELAXED_ATOMICS_AFTER_STORES, "x=f32[?]/1, y=f32[?]/1, cnt=i32[?]/1, B=#16").body)
    assert text.count("atomic_rmw_tko") == 2 and "join_tokens" not in text
    # an acq_rel one among them is ordered after every array's operations (the acquire-ordered mode), as before
    acq = emit(tmp_path, RELAXED_ATOMICS_AFTER_STORES.replace("one, memory_order=ct.MemoryOrder.RELAXED)\n    ct.store",
                                                              "one)\n    ct.store"),
               "x=f32[?]/1, y=f32[?]/1, cnt=i32[?]/1, B=#16")
    assert "join_tokens" in "\n".join(acq.body)
    # a store to the atomics' own array is ordered with them (one token chain): refused as before
    with pytest.raises(Unsupported, match="stores after it|cnt. is scattered into and also"):
        emit(tmp_path, RELAXED_ATOMICS_AFTER_STORES.replace("ct.store(y, index=(ct.bid(0) + 1,), tile=t)",
                                                            "ct.store(cnt, index=(ct.bid(0),), tile=i)"),
             "x=f32[?]/1, y=f32[?]/1, cnt=i32[?]/1, B=#16")


RELAXED_ATOMICS_IN_BRANCH_AND_LOOP = """
@ct.kernel
def k(x, y, total, count, lo, hi, n: int, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    ct.store(y, index=(ct.bid(0),), tile=t)
    if n > 0:
        ct.atomic_add(total, 0, ct.sum(t), memory_order=ct.MemoryOrder.RELAXED)
        ct.atomic_add(count, 0, 1, memory_order=ct.MemoryOrder.RELAXED)
    for c in range(n):
        b = ct.arange(B, dtype=ct.int32) % 4
        ct.atomic_add(lo, b, ct.full((B,), 1, ct.int32), memory_order=ct.MemoryOrder.RELAXED)
        ct.atomic_add(hi, b, ct.full((B,), 2, ct.int32), memory_order=ct.MemoryOrder.RELAXED)
"""


def test_relaxed_atomics_of_distinct_arrays_in_a_branch_or_loop(tmp_path):
    """Relaxed atomics each of its own array, under a runtime `if` (a loss sum and a count updated for a row that is
    not ignored) or in a loop (two histograms): each is ordered only after its own array's operations in cuTile
    Python, as a kernel's only atomic is — in a loop its array's token is carried (was refused: "ct.atomic_add inside
    a loop or branch", round 17's p22_atomics2 `ce_mean`, `hist_loop`, both proven since with the CLI)."""
    text = "\n".join(emit(tmp_path, RELAXED_ATOMICS_IN_BRANCH_AND_LOOP,
                          "x=f32[?]/1, y=f32[?]/1, total=f32[?]/1, count=i32[?]/1, lo=i32[?]/1, hi=i32[?]/1, n=i32, "
                          "B=#16").body)
    assert text.count("atomic_rmw_tko") == 4 and "join_tokens" not in text
    # two relaxed atomics of one array in a loop still chain through one token: refused as before
    with pytest.raises(Unsupported, match="inside a loop or branch"):
        emit(tmp_path, RELAXED_ATOMICS_IN_BRANCH_AND_LOOP.replace("ct.atomic_add(hi,", "ct.atomic_add(lo,"),
             "x=f32[?]/1, y=f32[?]/1, total=f32[?]/1, count=i32[?]/1, lo=i32[?]/1, hi=i32[?]/1, n=i32, B=#16")


SCAN_BY_CONSTANTS = """
@ct.kernel
def k(x, y, REV: ct.Constant[bool], AX: ct.Constant[int], B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(B, 4))
    ct.store(y, index=(ct.bid(0), 0), tile=ct.cumsum(t, axis=AX, reverse=REV))
"""


def test_cumsum_direction_and_axis_given_by_constants(tmp_path):
    """`ct.cumsum(t, axis=AX, reverse=REV)` with a ct.Constant[bool] direction and a ct.Constant[int] axis: read
    as their values (was refused "ct.cumsum form (tile, axis=literal, reverse=literal)", round 17's p09_scan; the
    minimal kernel proven with `tileport port` at REV=true, AX=0); a constant axis other than 0 is refused with
    cutile 0.3.1's reason (its scans are built along dimension 0)."""
    sig = "x=f32[?,?]/?,1, y=f32[?,?]/?,1, REV=#{rev}, AX=#{ax}, B=#16"
    text = "\n".join(emit(tmp_path, SCAN_BY_CONSTANTS, sig.format(rev="true", ax=0), consts=("REV", "AX", "B")).body)
    assert "reverse::Reverse" in text
    text = "\n".join(emit(tmp_path, SCAN_BY_CONSTANTS, sig.format(rev="false", ax=0), consts=("REV", "AX", "B")).body)
    assert "reverse::Forward" in text
    with pytest.raises(Unsupported, match="along axis 1: cutile 0.3.1 compiles every scan along dimension 0"):
        emit(tmp_path, SCAN_BY_CONSTANTS, sig.format(rev="false", ax=1), consts=("REV", "AX", "B"))


BOOL_FLAG_IN_ARITHMETIC = """
@ct.kernel
def k(x, y, z, flag: int, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    i = ct.arange(B, dtype=ct.int32)
    ct.store(y, index=(ct.bid(0),), tile=t * flag + ct.astype(t, ct.float16) - flag)
    ct.store(z, index=(ct.bid(0),), tile=i + flag)
"""


@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_a_bool_scalar_with_a_number_tile_is_counted(tmp_path, elem):
    """An `int` parameter launched with `True` (signature `flag=bool`) next to a float or int tile (`ct.sum(t * t) +
    n` of an f64 tile, round 17's p28_launch `f64_norm`): counted as 0 or 1 in the tile's dtype, as cuTile Python
    converts the i1 (`itof unsigned` / `exti unsigned`; was refused "bool scalar with a f64 tile"). The f32 kernel
    proven with `tileport port` (build/host17/unit/boolflag)."""
    text = "\n".join(emit(tmp_path, BOOL_FLAG_IN_ARITHMETIC,
                          f"x={elem}[?]/1, y={elem}[?]/1, z=i32[?]/1, flag=bool, B=#16").body)
    assert f"Tile<{elem}, {{ [] }}> = convert_tile(scalar_to_tile::<bool>(flag))" in text
    assert "Tile<i32, { [] }> = exti(scalar_to_tile::<bool>(flag))" in text


CONSTANT_PRODUCT_FROM_A_HELPER = """
@ct.function
def inner(v, k):
    return v * k


@ct.kernel
def k(x, y, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    ct.store(y, index=(ct.bid(0),), tile=inner(t, 0.5) + inner(1.0, 0.5))
"""


def test_a_helper_product_of_constants_in_a_sum_is_the_folded_constant(tmp_path):
    """`inner(t, 0.5) + inner(1.0, 0.5)` with `inner` returning `v * k`: cuTile Python inlines, folds `1.0 * 0.5`
    to the constant 0.5, then contracts `t * 0.5 + 0.5` into one fma. The port returned both products as their
    factors and multiplied the constant's outside the block, which cutile does not fold (a `mulf` where the reference
    has a constant: unproven, "constant vs broadcast", round 17's p35_recur `recursive`); a product of constants is
    now the folded constant (proven with `tileport port`, build/host17/unit/constprod)."""
    src = tmp_path / "k.py"
    src.write_text(HEADER + textwrap.dedent(CONSTANT_PRODUCT_FROM_A_HELPER))
    add = next(n for n in ast.walk(ast.parse(src.read_text())) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add))
    sig = sigmod.bind(sigmod.parse("x=f32[?]/1, y=f32[?]/1, B=#16"), ["x", "y", "B"], "k")
    # the reference's one fma, at the sum (as `tileport port` reads it from cuTile Python's IR)
    from tileport.frontends.cutile_py.loader import load_kernel
    kernel = load_kernel(f"{src}::k")
    text = "\n".join(emit_kernel(src, "k", sig, {"B"}, {(add.lineno, add.col_offset): 1}, kernel.pyfunc).body)
    assert "inner_value1_lhs" not in text and "0.5f32\n}" in text and "fma(" in text


def _emit_with_pyfunc(tmp_path, text: str, sig: str, fmas: dict):
    """``text`` (a module body: helpers and ``@ct.kernel def k``) emitted at ``sig`` with the reference's fma
    positions ``fmas`` ((line, col) of a sum → count, as `tileport port` reads them), helpers resolved as the
    pipeline resolves them."""
    from tileport.frontends.cutile_py.loader import load_kernel
    src = tmp_path / "k.py"
    src.write_text(HEADER + textwrap.dedent(text))
    kernel = load_kernel(f"{src}::k")
    fn = next(n for n in ast.parse(src.read_text()).body if isinstance(n, ast.FunctionDef) and n.name == "k")
    bound = sigmod.bind(sigmod.parse(sig), [a.arg for a in fn.args.args], "k")
    return "\n".join(emit_kernel(src, "k", bound, {"B"}, fmas, kernel.pyfunc).body)


def test_a_name_bound_to_a_product_of_constants_is_no_fma_operand(tmp_path):
    """`two = 2; six = two * 3` then `t * 0.5 + 8.0 + six`: cuTile Python folds `six` to 6 and contracts only `t *
    0.5 + 8.0`; the port took `six` for a product and fused it into the second sum (`fma(2, 3, fma(..))`: unproven,
    "addf vs fma", round 17's p36_fold `k_const_chain`). Proven since with `tileport port` (unit/constname)."""
    body = """
    @ct.kernel
    def k(x, y, B: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(B,))
        two = 2
        six = two * 3
        ct.store(y, index=(ct.bid(0),), tile=t * 0.5 + 8.0 + six)
    """
    line = HEADER.count("\n") + textwrap.dedent(body).splitlines().index(
        "    ct.store(y, index=(ct.bid(0),), tile=t * 0.5 + 8.0 + six)") + 1
    text = _emit_with_pyfunc(tmp_path, body, "x=f32[?]/1, y=f32[?]/1, B=#16", {(line, 41): 1})
    assert text.count("fma(") == 1 and "is fused into the fma" not in text


def test_a_helpers_constant_result_passed_to_a_helper_is_that_constant_inside(tmp_path):
    """`c = mul(mul(1.0, 0.5), 3.0)` with `mul` returning `v * k`: the inner call's result is the constant 0.5, and
    the outer call's parameter holds it, so its product folds to 1.5 as cuTile Python folds it after inlining (the
    port multiplied at run time, a `mulf` where the reference has a constant: unproven, round 17's p36_fold
    `k_nested_helpers`; proven since with `tileport port`, unit/constarg)."""
    body = """
    @ct.function
    def mul(v, k):
        return v * k


    @ct.kernel
    def k(x, y, B: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(B,))
        c = mul(mul(1.0, 0.5), 3.0)
        ct.store(y, index=(ct.bid(0),), tile=t + c)
    """
    text = _emit_with_pyfunc(tmp_path, body, "x=f32[?]/1, y=f32[?]/1, B=#16", {})
    assert "1.5f32" in text and "v * k" not in text


EMPTY_RANGES = """
@ct.kernel
def k(x, y, N: ct.Constant[int], B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    for i in range(0):
        t = t * 2.0
    for j in range(N):
        t = t + 1.0
    while False:
        t = t - 1.0
    ct.store(y, index=(ct.bid(0),), tile=t)
"""


def test_empty_constant_ranges_and_while_false(tmp_path):
    """`for i in range(0)` (and `range(N)` at N = 0): cutile 0.3.1 states the index's range as `assume bounded<0,
    -1>`, which Tile IR's verifier rejects (tileirdisasm: "expects lower bound to be less than or equal to upper
    bound": unproven, round 17's p37_loops3 `const_trips`); the bounds are written as 0-d tiles, whose values cutile
    does not track (as for a loop indexing a ct.extract). `while False:` (was refused: "condition `False`") is left
    out: cuTile Python's loop breaks before its body. Proven with `tileport port` at N=0 and N=3
    (unit/emptyrange)."""
    sig = "x=f32[?]/1, y=f32[?]/1, N=#{n}, B=#16"
    text = "\n".join(emit(tmp_path, EMPTY_RANGES, sig.format(n=0), consts=("N", "B")).body)
    assert "for i in tile_to_scalar::<i32, i32>(i_start)..tile_to_scalar::<i32, i32>(i_end)" in text
    assert re.search(r"for j in tile_to_scalar::<i32, i32>\(j_start\w*\)\.\.", text)
    assert "while " not in text.replace("`while False:`", "") and "t - " not in text
    text = "\n".join(emit(tmp_path, EMPTY_RANGES, sig.format(n=3), consts=("N", "B")).body)
    assert "for j in 0i32..N {" in text   # a range with iterations: as before


def test_a_constant_flag_with_a_number_tile_is_its_folded_one_or_zero(tmp_path):
    """`t * (K > 0)` with K a ct.Constant[float]: cuTile Python folds the comparison to True and the operand to the
    tile dtype's 1.0 (`fma %tile, 1.0, ..`); was refused "bool scalar with a f32 tile" (round 17's p38_consts2
    `folds`). Proven with `tileport port` (unit/constflag: f32 and i32 tiles)."""
    body = """
    @ct.kernel
    def k(x, y, z, K: ct.Constant[float], B: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(B,))
        i = ct.arange(B, dtype=ct.int32)
        ct.store(y, index=(ct.bid(0),), tile=t * (K > 0) + (K < 0))
        ct.store(z, index=(ct.bid(0),), tile=i + (K > 0))
    """
    text = "\n".join(emit(tmp_path, body, "x=f32[?]/1, y=f32[?]/1, z=i32[?]/1, K=#1.5, B=#16", consts=("K", "B")).body)
    assert "broadcast_scalar(1f32, shape![B])" in text and "broadcast_scalar(0f32, shape![B])" in text
    assert "broadcast_scalar(1i32, shape![B])" in text or "broadcast_scalar(1, shape![B])" in text


def test_capture_finds_test_files_as_pytest_names_them(tmp_path):
    """`tileport corpus capture DIR` looked for `test_*.py` under `tests/` only: a repository whose tests are
    `test/kernels_test.py` (a unittest.TestCase, pytest's default `python_files` also takes `*_test.py`) was "no
    tests/ folder" (round 17's p41_unit); `*_test.py` files are taken, and `test/` where there is no `tests/`."""
    from tileport.corpus.capture import Options, _test_files
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "kernels_test.py").write_text("")
    (tmp_path / "test" / "test_more.py").write_text("")
    (tmp_path / "test" / "helpers.py").write_text("")
    files = _test_files(Options(root=tmp_path, tests=["tests"], out=tmp_path / "out", target=None))
    assert sorted(f.name for f in files) == ["kernels_test.py", "test_more.py"]
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "ops_test.py").write_text("")
    files = _test_files(Options(root=tmp_path, tests=["tests"], out=tmp_path / "out", target=None))
    assert [f.name for f in files] == ["ops_test.py"]


def test_a_conditional_expression_statement_on_a_constant_is_its_arm(tmp_path):
    """`ct.atomic_add(lo, ..) if False else ct.atomic_add(lo, ..)` as a statement (round 17's p22_atomics2 `hist2`):
    was refused ("statement .. not supported"); on a constant test it is the arm taken, as cuTile Python folds it,
    and the arm not taken is no live operation (its atomic is not counted among the kernel's: the one left is
    ordered as a kernel's only atomic). Proven with the CLI (p22_atomics2)."""
    body = """
    @ct.kernel
    def k(x, lo, n: int, B: ct.Constant[int]):
        for c in range(n):
            v = ct.load(x, (c,), (B,))
            b = ct.astype(v * 4.0, ct.int32) % 4
            one = ct.full((B,), 1, ct.int32)
            ct.atomic_add(lo, b, one * 2, memory_order=ct.MemoryOrder.RELAXED) if False else \\
                ct.atomic_add(lo, b, one, memory_order=ct.MemoryOrder.RELAXED)
    """
    text = "\n".join(emit(tmp_path, body, "x=f32[?]/1, lo=i32[?]/1, n=i32, B=#16").body)
    assert text.count("atomic_rmw_tko") == 1 and "one * " not in text
