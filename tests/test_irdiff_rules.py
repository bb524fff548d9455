"""One test per irdiff rule (tileport.irdiff.rules.RULES names them): each accepted equivalence holds exactly where
its argument holds, and not one step beyond."""
import sys

from tileport.irdiff.canon import parse_layout
from tileport.irdiff.compare import compare_programs
from tileport.irdiff.parse import parse
from tileport.irdiff.rules import RULES

HEAD = "entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>) {"


def prog(*body: str, head: str = HEAD) -> str:
    return "\n".join([head, *("  " + b for b in body), "  return", "}"])


def v(a: str, b: str, la=None, lb=None) -> dict:
    return compare_programs(parse(a, "A"), parse(b, "B"), layout_a=parse_layout(la) if la else None,
                            layout_b=parse_layout(lb) if lb else None)


def fired(verdict: dict, rule: str) -> int:
    return sum(next((r["count"][s] for r in verdict["rewrites_used"] if r["id"] == rule), 0) for s in "ab")


STORE = ("%tv = make_tensor_view %arg0, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>",
         "%pv = make_partition_view %tv : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>",
         "%t0 = make_token : token")


def store(val: str, idx: str, tok: str = "%t0") -> str:
    return (f"%s = store_view_tko weak {val}, %pv[{idx}] token = {tok} : tile<128xf32>, "
            "partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token")


ONES = "%one = constant <f32: 1.000000e+00> : tile<128xf32>"
BID = "%bx, %by, %bz = get_tile_block_id : tile<i32>"


def test_every_rule_has_its_test():
    here = sys.modules[__name__]
    for rule in RULES:
        assert callable(getattr(here, rule.test, None)), f"rule {rule.id} names missing test {rule.test}"


def test_ssa_names():
    a = prog(*STORE, ONES, BID, store("%one", "%bx"))
    b = a.replace("%one", "%c1").replace("%bx", "%blockId_x").replace("%pv", "%pview_3")
    assert v(a, b)["equivalent"]


def test_debug_locations():
    a = prog(*STORE, ONES, BID, store("%one", "%bx"))
    b = "\n".join(ln + ' loc("k.py":3:1)' if "=" in ln else ln for ln in a.splitlines())
    assert v(a, b)["equivalent"]


def test_entry_symbol():
    a = prog(*STORE, ONES, BID, store("%one", "%bx"))
    assert v(a, a.replace("@k(", "@k_entry("))["equivalent"]


def test_entry_prologue():
    """B has two extra (unused) arguments after the array, as a cutile &mut tensor does; with the layouts given
    the arrays line up by role. Using an extra argument for real is a difference."""
    a = prog(*STORE, ONES, BID, store("%one", "%bx"))
    head_b = ("entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %x0: tile<i32>, "
              "%x1: tile<i32>, %arg3: tile<i32>) {")
    b = prog(*STORE, ONES, BID, store("%one", "%bx"), head=head_b)
    ok = v(a, b, "A1,S", "A1+2,S")
    assert ok["equivalent"] and ok["prologue"]["b"]["dropped_args"] == ["P0.stride0", "P0.extra0", "P0.extra1", "S0"]
    b_uses_extra = prog(*STORE[:1], STORE[1], STORE[2], ONES, store("%one", "%x0"), head=head_b)
    a_uses_scalar = prog(*STORE, ONES, store("%one", "%arg3"))
    bad = v(a_uses_scalar, b_uses_extra, "A1,S", "A1+2,S")
    assert not bad["equivalent"] and "S0" in bad["differences"][0]["detail"]
    assert "P0.extra0" in bad["differences"][0]["detail"]


def test_empty_hints():
    a = prog(*STORE, ONES, BID, store("%one", "%bx"))
    b = a.replace(") {", ") optimization_hints=<default = {}> {", 1)
    assert v(a, b)["equivalent"]
    c = a.replace(") {", ") optimization_hints=<sm_90 = {num_cta_in_cga = 2}> {", 1)
    assert not v(a, c)["equivalent"]
    # on an op too (cuTile Python writes an empty dict on a load given latency=None)
    op = a.replace("token = %t0 :", "token = %t0 optimization_hints = <default = {}> :", 1)
    assert op != a and v(a, op)["equivalent"]
    hinted = a.replace("token = %t0 :", "token = %t0 optimization_hints = <default = {latency = 3}> :", 1)
    assert not v(a, hinted)["equivalent"]


def test_hints_for_target():
    a = prog(*STORE, ONES, BID, store("%one", "%bx"))

    def hinted(key):
        return a.replace(") {", f") optimization_hints=<{key} = {{num_cta_in_cga = 2}}> {{", 1)

    out = compare_programs(parse(hinted("default")), parse(hinted("sm_90")), target="sm_90")
    assert out["equivalent"] and any(r["id"] == "hints-for-target" and r["count"]["b"] for r in out["rewrites_used"])
    # Counter-examples: another target's hints, or no target given, are not the default hints.
    assert not compare_programs(parse(hinted("default")), parse(hinted("sm_100")), target="sm_90")["equivalent"]
    assert not compare_programs(parse(hinted("default")), parse(hinted("sm_90")))["equivalent"]
    # ct.ByTarget: another target's entry beside `default` does not apply on sm_90
    both = a.replace(") {", ") optimization_hints=<default = {num_cta_in_cga = 2}, sm_80 = {occupancy = 2}> {", 1)
    assert compare_programs(parse(both), parse(hinted("sm_90")), target="sm_90")["equivalent"]
    mine = a.replace(") {", ") optimization_hints=<default = {num_cta_in_cga = 2}, sm_90 = {occupancy = 2}> {", 1)
    assert not compare_programs(parse(mine), parse(hinted("sm_90")), target="sm_90")["equivalent"]
    # the target's entry over `default`'s, hint by hint (round 24: `num_worker_warps=8, occupancy=ct.ByTarget(
    # sm_90=2, default=1)` is cutile's `sm_90 = (occupancy = 2, num_worker_warps_per_cta = 8)`: tileiras compiles
    # both to one cubin)
    both_keys = a.replace(") {", ") optimization_hints=<sm_90 = {num_cta_in_cga = 2, occupancy = 2}> {", 1)
    assert compare_programs(parse(mine), parse(both_keys), target="sm_90")["equivalent"]
    over = a.replace(") {", ") optimization_hints=<default = {num_cta_in_cga = 2, occupancy = 1}, "
                            "sm_90 = {occupancy = 2}> {", 1)
    assert compare_programs(parse(over), parse(both_keys), target="sm_90")["equivalent"]
    assert not compare_programs(parse(over), parse(both_keys), target="sm_80")["equivalent"]   # (occupancy 1)


def test_splat_constants():
    a = prog(*STORE, ONES, BID, store("%one", "%bx"))
    splat = ("%c = constant <f32: 1.000000e+00> : tile<f32>", "%r = reshape %c : tile<f32> -> tile<1xf32>",
             "%one = broadcast %r : tile<1xf32> -> tile<128xf32>")
    out = v(a, prog(*STORE, *splat, BID, store("%one", "%bx")))
    assert out["equivalent"] and fired(out, "splat-constants") >= 1
    # Counter-examples: another value, or a broadcast of something that is not a constant.
    other = tuple(x.replace("1.000000e+00", "2.000000e+00") for x in splat)
    assert not v(a, prog(*STORE, *other, BID, store("%one", "%bx")))["equivalent"]
    computed = ("%h = constant <f32: 5.000000e-01> : tile<f32>", "%c = addf %h, %h : tile<f32>",
                "%r = reshape %c : tile<f32> -> tile<1xf32>", "%one = broadcast %r : tile<1xf32> -> tile<128xf32>")
    out = v(a, prog(*STORE, *computed, BID, store("%one", "%bx")))
    assert not out["equivalent"] and fired(out, "splat-constants") == 0
    # a reshape of a scalar constant (an integer gather's padding) is the constant tile too
    k = prog(*STORE, "%k = constant <f32: 1.000000e+00> : tile<1xf32>", "%one = broadcast %k : tile<1xf32> -> "
             "tile<128xf32>", BID, store("%one", "%bx"))
    r = prog(*STORE, "%c = constant <f32: 1.000000e+00> : tile<f32>", "%k = reshape %c : tile<f32> -> tile<1xf32>",
             "%one = broadcast %k : tile<1xf32> -> tile<128xf32>", BID, store("%one", "%bx"))
    assert v(k, r)["equivalent"]


def test_dead_pure_ops():
    a = prog(*STORE, ONES, BID, store("%one", "%bx"))
    b = prog(*STORE, ONES, "%dead = constant <i32: 7> : tile<i32>", BID, "%d2 = addi %bx, %bx : tile<i32>",
             store("%one", "%bx"))
    out = v(a, b)
    assert out["equivalent"] and fired(out, "dead-pure-ops") >= 2
    # An unused load is not pure: it stays, and is a difference.
    c = prog(*STORE, ONES, BID, load("%bx"), store("%one", "%bx"))
    assert not v(a, c)["equivalent"]


def load(idx: str, tok: str = "%t0") -> str:
    return (f"%l, %lt = load_view_tko weak %pv[{idx}] token = {tok} : partition_view<tile=(128), "
            "tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token")


def test_common_pure_subexpressions():
    a = prog(*STORE, BID, load("%bx"), store("%l", "%bx"))
    b = prog(*STORE, "%t1 = make_token : token", BID, "%bx2, %by2, %bz2 = get_tile_block_id : tile<i32>",
             load("%bx"), store("%l", "%bx2", tok="%t1"))
    out = v(a, b)
    assert out["equivalent"] and fired(out, "common-pure-subexpressions") >= 1
    # Two stores are two stores, even when identical.
    c = prog(*STORE, BID, load("%bx"), store("%l", "%bx"), store("%l", "%bx").replace("%s =", "%s2 ="))
    assert not v(a, c)["equivalent"]


def test_assume_nonneg_block_id():
    a = prog(*STORE, ONES, BID, store("%one", "%bx"))
    b = prog(*STORE, ONES, BID, "%abx = assume bounded<0, ?>, %bx : tile<i32>", store("%one", "%abx"))
    out = v(a, b)
    assert out["equivalent"] and fired(out, "assume-nonneg-block-id") == 1
    # The same assume on a scalar argument is a real fact about it: not rewritten.
    c = prog(*STORE, ONES, store("%one", "%arg3"))
    d = prog(*STORE, ONES, "%aa = assume bounded<0, ?>, %arg3 : tile<i32>", store("%one", "%aa"))
    assert not v(c, d)["equivalent"]


def _cdiv_pair(assume_a: bool, bias: int):
    pre = ["%n = assume bounded<0, ?>, %arg3 : tile<i32>"] if assume_a else []
    n = "%n" if assume_a else "%arg3"
    a = prog(*STORE, ONES, *pre, "%c = constant <i32: 128> : tile<i32>",
             f"%q = divi {n}, %c signed rounding<positive_inf> : tile<i32>", store("%one", "%q"))
    b = prog(*STORE, ONES, *pre, "%c = constant <i32: 128> : tile<i32>", f"%m = constant <i32: {bias}> : tile<i32>",
             f"%s0 = addi {n}, %m : tile<i32>", "%q = divi %s0, %c signed : tile<i32>", store("%one", "%q"))
    return v(a, b)


def test_cdiv_rounding():
    out = _cdiv_pair(assume_a=True, bias=127)
    assert out["equivalent"] and fired(out, "cdiv-rounding") == 1
    assert not _cdiv_pair(assume_a=False, bias=127)["equivalent"], "a may be negative: not the same"
    assert not _cdiv_pair(assume_a=True, bias=126)["equivalent"], "a+126 is not a ceiling division by 128"


def test_fold_int_constants():
    """`(511 // 256)` floored, as cutile leaves it on const generics ≡ the constant 1 cuTile Python folds it to; the
    rounding counts: -511 // 256 is -2 floored but -1 truncated."""
    def with_divi(a: int, rounding: str) -> str:
        return prog(*STORE, f"%a = constant <i32: {a}> : tile<i32>", "%b = constant <i32: 256> : tile<i32>",
                    f"%q = divi %a, %b signed{rounding} : tile<i32>", ONES,
                    store("%one", "%q"))

    def const(q: int) -> str:
        return prog(*STORE, f"%q = constant <i32: {q}> : tile<i32>", ONES,
                    store("%one", "%q"))
    out = v(const(1), with_divi(511, " rounding<negative_inf>"))
    assert out["equivalent"] and fired(out, "fold-int-constants") == 1
    assert v(const(-2), with_divi(-511, " rounding<negative_inf>"))["equivalent"]
    assert v(const(-1), with_divi(-511, ""))["equivalent"]
    assert not v(const(-2), with_divi(-511, ""))["equivalent"]
    # a widened constant is the wider constant
    wide = prog(*STORE, ONES, "%n = constant <i32: -3> : tile<i32>", "%w = exti %n signed : tile<i32> -> tile<i64>",
                "%i = trunci %w : tile<i64> -> tile<i32>", store("%one", "%i"))
    direct = prog(*STORE, ONES, "%w = constant <i64: -3> : tile<i64>", "%i = trunci %w : tile<i64> -> tile<i32>",
                  store("%one", "%i"))
    out = v(direct, wide)
    assert out["equivalent"] and fired(out, "fold-int-constants") == 1
    assert not v(direct.replace("<i64: -3>", "<i64: 3>"), wide)["equivalent"]
    # `(1 << bits) - 1` of constants (a helper's default) is the mask cuTile Python folds; bitwise ops alike
    def shifted(op: str, b: int) -> str:
        return prog(*STORE, "%a = constant <i32: 1> : tile<i32>", f"%b = constant <i32: {b}> : tile<i32>",
                    f"%s = {op} %a, %b : tile<i32>", "%c = constant <i32: 1> : tile<i32>",
                    "%q = subi %s, %c : tile<i32>", ONES, store("%one", "%q"))
    out = v(const(15), shifted("shli", 4))
    assert out["equivalent"] and fired(out, "fold-int-constants") == 2
    assert not v(const(15), shifted("shli", 3))["equivalent"]
    assert fired(v(const(15), shifted("shli", 40)), "fold-int-constants") == 0   # (past the width: not folded)
    assert v(const(4), shifted("xori", 4))["equivalent"] and v(const(-1), shifted("andi", 4))["equivalent"]
    # an integer constant converted to f32 (`t * fib(N)`: cutile folds the recursion on the const generic to the
    # i32 5, then converts it; cuTile Python writes the f32 5.0) is the f32 constant — not another value, and not
    # past 2^24, where f32 no longer holds every integer
    def scaled(tail: list[str]) -> str:
        return prog(*STORE, *tail, "%b = broadcast %c : tile<1xf32> -> tile<128xf32>", store("%b", "%arg2"))

    def itof(n: int, kind: str = "signed") -> str:
        return scaled([f"%n = constant <i32: {n}> : tile<i32>", f"%f = itof %n {kind} : tile<i32> -> tile<f32>",
                       "%c = reshape %f : tile<f32> -> tile<1xf32>"])

    def direct(x: str) -> str:
        return scaled([f"%f = constant <f32: {x}> : tile<f32>", "%c = reshape %f : tile<f32> -> tile<1xf32>"])
    out = v(direct("5.000000e+00"), itof(5))
    assert out["equivalent"] and fired(out, "fold-int-constants") == 1
    assert v(direct("-3.000000e+00"), itof(-3))["equivalent"]
    assert not v(direct("4.000000e+00"), itof(5))["equivalent"]
    assert not v(direct("-3.000000e+00"), itof(-3, "unsigned"))["equivalent"]
    assert fired(v(direct("1.677722e+07"), itof((1 << 24) + 1)), "fold-int-constants") == 0
    # `N % G` of two constexprs, Python's floored remainder as cutile computes it on const generics (remi, then
    # `r < 0` xor `G < 0`, and `r != 0`, selecting r + G or r) ≡ the constant cuTile Python folds it to
    def floored_rem(n: int, g: int, pred: str = "less_than", kind: str = "signed") -> str:
        return prog(*STORE, f"%n = constant <i32: {n}> : tile<i32>", f"%g = constant <i32: {g}> : tile<i32>",
                    "%r = remi %n, %g signed : tile<i32>", "%z = constant <i32: 0> : tile<i32>",
                    f"%neg = cmpi {pred} %r, %z, {kind} : tile<i32> -> tile<i1>",
                    f"%gneg = constant <i1: {'true' if g < 0 else 'false'}> : tile<i1>",
                    "%diff = xori %neg, %gneg : tile<i1>", "%nz = cmpi not_equal %r, %z, signed : tile<i32> -> tile<i1>",
                    "%fix = andi %diff, %nz : tile<i1>", "%up = addi %r, %g : tile<i32>",
                    "%q = select %fix, %up, %r : tile<i1>, tile<i32>", ONES, store("%one", "%q"))
    out = v(const(2), floored_rem(32, 5))
    assert out["equivalent"] and fired(out, "fold-int-constants") >= 6
    assert v(const(3), floored_rem(-32, 5))["equivalent"]          # -32 % 5 == 3 (remi gives -2, then + 5)
    assert v(const(-3), floored_rem(32, -5))["equivalent"]         # 32 % -5 == -3
    assert not v(const(-2), floored_rem(-32, 5))["equivalent"]     # the truncated remainder is not Python's
    assert not v(const(2), floored_rem(32, 5, "greater_than"))["equivalent"]   # another predicate selects r + G
    assert not v(const(2), floored_rem(32, 5, kind="unsigned"))["equivalent"]  # unsigned compares: not folded
    # a select on a condition known only at run time stays a select
    runtime = prog(*STORE, "%z = constant <i32: 0> : tile<i32>", "%c = cmpi less_than %arg3, %z, signed : "
                   "tile<i32> -> tile<i1>", "%a = constant <i32: 2> : tile<i32>", "%b = constant <i32: 7> : tile<i32>",
                   "%q = select %c, %b, %a : tile<i1>, tile<i32>", ONES, store("%one", "%q"))
    assert not v(const(2), runtime)["equivalent"]


def test_single_trip_loop_iv():
    """In `for j in (0 to 1, step 1)`, `j * 256` (cuTile Python) ≡ the constant 0 (cutile folds it); not when the
    loop runs twice (0 to 2)."""
    def loop(hi: int, folded: bool) -> str:
        body = ["  %o = constant <i32: 0> : tile<i32>"] if folded else \
            ["  %c = constant <i32: 256> : tile<i32>", "  %o = muli %j, %c : tile<i32>"]
        return prog(*STORE, ONES, "%lo = constant <i32: 0> : tile<i32>", f"%hi = constant <i32: {hi}> : tile<i32>",
                    "%st = constant <i32: 1> : tile<i32>", "for %j in (%lo to %hi, step %st) : tile<i32> {", *body,
                    "  " + store("%one", "%o"), "}")
    out = v(loop(1, False), loop(1, True))
    assert out["equivalent"] and fired(out, "single-trip-loop-iv") >= 1
    assert not v(loop(2, False), loop(2, True))["equivalent"]


def test_rules_doc_is_generated_and_current():
    from conftest import REPO
    from tileport.irdiff.rules import rules_markdown

    assert (REPO / "docs" / "irdiff-rules.md").read_text() == rules_markdown(), \
        "regenerate: python -m tileport.irdiff.rules > docs/irdiff-rules.md"


def test_assume_fact_set():
    a = prog(*STORE, ONES, "%x0 = assume div_by<16>, %arg3 : tile<i32>", "%x1 = assume bounded<0, ?>, %x0 : tile<i32>",
             "%x2 = assume div_by<16>, %x1 : tile<i32>", store("%one", "%x2"))
    b = prog(*STORE, ONES, "%y0 = assume bounded<0, ?>, %arg3 : tile<i32>", "%y1 = assume div_by<16>, %y0 : tile<i32>",
             store("%one", "%y1"))
    out = v(a, b)
    assert out["equivalent"] and fired(out, "assume-fact-set") >= 3
    # A different set of facts is a different program: div_by<8> is not div_by<16>.
    c = prog(*STORE, ONES, "%y0 = assume bounded<0, ?>, %arg3 : tile<i32>", "%y1 = assume div_by<8>, %y0 : tile<i32>",
             store("%one", "%y1"))
    assert not v(a, c)["equivalent"]
    # Dropping a fact is a difference too.
    d = prog(*STORE, ONES, "%y0 = assume bounded<0, ?>, %arg3 : tile<i32>", store("%one", "%y0"))
    assert not v(a, d)["equivalent"]


def _loop(lo: str, step: str, assume: bool) -> str:
    pre = {"0": "%lo = constant <i32: 0> : tile<i32>", "-1": "%lo = constant <i32: -1> : tile<i32>"}[lo]
    st = {"1": "%st = constant <i32: 1> : tile<i32>", "-1": "%st = constant <i32: -1> : tile<i32>"}[step]
    idx = "%ai" if assume else "%i"
    body = ["  %ai = assume bounded<0, ?>, %i : tile<i32>"] if assume else []
    return prog(*STORE, ONES, pre, st, "for %i in (%lo to %arg3, step %st) : tile<i32> {", *body,
                "  " + store("%one", idx), "}")


def test_assume_nonneg_loop_iv():
    out = v(_loop("0", "1", False), _loop("0", "1", True))
    assert out["equivalent"] and fired(out, "assume-nonneg-loop-iv") == 1
    assert not v(_loop("-1", "1", False), _loop("-1", "1", True))["equivalent"], "lo = -1: iv may be negative"
    assert not v(_loop("0", "-1", False), _loop("0", "-1", True))["equivalent"], "step -1: not a fact"


def test_block_id_unit_grid():
    a = prog(*STORE, ONES, "%z = constant <i32: 0> : tile<i32>", store("%one", "%z"))
    b = prog(*STORE, ONES, BID, store("%one", "%by"))
    pa, pb = parse(a, "A"), parse(b, "B")
    out = compare_programs(pa, pb, unit_grid_b=frozenset({1}))
    assert out["equivalent"] and fired(out, "block-id-unit-grid") >= 1
    assert not compare_programs(pa, pb)["equivalent"], "without the precondition bid.y is not 0"
    assert not compare_programs(pa, pb, unit_grid_b=frozenset({2}))["equivalent"], "only the named dimension"
    c = prog(*STORE, ONES, BID, store("%one", "%bx"))
    assert not compare_programs(pa, parse(c, "C"), unit_grid_b=frozenset({1}))["equivalent"]


def test_identity_shape_ops():
    a = prog(*STORE, "%c = constant <f32: 1.000000e+00> : tile<f32>", "%r = reshape %c : tile<f32> -> tile<1xf32>",
             "%b = broadcast %r : tile<1xf32> -> tile<128xf32>", store("%b", "%arg3"))
    b = prog(*STORE, "%c = constant <f32: 1.000000e+00> : tile<f32>", "%r = reshape %c : tile<f32> -> tile<1xf32>",
             "%i = broadcast %r : tile<1xf32> -> tile<1xf32>", "%j = reshape %i : tile<1xf32> -> tile<1xf32>",
             "%b = broadcast %j : tile<1xf32> -> tile<128xf32>", store("%b", "%arg3"))
    out = v(a, b)
    assert out["equivalent"] and fired(out, "identity-shape-ops") == 2
    c = prog(*STORE, "%c = constant <f32: 1.000000e+00> : tile<f32>", "%r = reshape %c : tile<f32> -> tile<1xf32>",
             "%b = broadcast %r : tile<1xf32> -> tile<64xf32>", store("%b", "%arg3"))
    assert not v(a, c)["equivalent"], "a broadcast to another shape is not an identity"
    x = "%x = addi %arg3, %arg1 : tile<i32>"
    same = prog(*STORE, ONES, x, "%y = bitcast %x : tile<i32> -> tile<i32>", store("%one", "%y"))
    out = v(prog(*STORE, ONES, x, store("%one", "%x")), same)
    assert out["equivalent"] and fired(out, "identity-shape-ops") == 1, "a bitcast to its own type is the value"


HEAD2 = ("entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<ptr<f32>>, %arg3: tile<i32>) {")
TWO = ("%tv = make_tensor_view %arg0, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>",
       "%pv = make_partition_view %tv : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>",
       "%tw = make_tensor_view %arg2, shape = [%arg3], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>",
       "%pw = make_partition_view %tw : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>",
       "%t0 = make_token : token", BID,
       "%p0 = reshape %arg2 : tile<ptr<f32>> -> tile<1xptr<f32>>",
       "%p1 = broadcast %p0 : tile<1xptr<f32>> -> tile<128xptr<f32>>",
       "%i = iota : tile<128xi64>",
       "%ptrs = offset %p1, %i : tile<128xptr<f32>>, tile<128xi64> -> tile<128xptr<f32>>")


def atomic(tok: str) -> str:
    return (f"%r, %rt = atomic_rmw_tko relaxed device %ptrs, addf, %l token={tok} : tile<128xptr<f32>>, "
            "tile<128xf32> -> tile<128xf32>, token")


def load_from(view: str) -> str:
    return (f"%l, %lt = load_view_tko weak {view}[%bx] token = %t0 : partition_view<tile=(128), "
            "tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token")


def test_read_only_load_tokens():
    """An atomic ordered after a load of another, read-only array (cuTile Python) ≡ the atomic on a fresh token
    (cutile); not when the load reads the array the atomic writes."""
    python = prog(*TWO, load_from("%pv"), "%j1 = join_tokens %t0, %lt : token", "%j2 = join_tokens %t0, %j1 : token",
                  atomic("%j2"), head=HEAD2)
    rust = prog(*TWO, load_from("%pv"), "%t9 = make_token : token", atomic("%t9"), head=HEAD2)
    out = v(python, rust)
    assert out["equivalent"] and fired(out, "read-only-load-tokens") == 1
    # Counter-example: the load reads %arg2, which the atomic writes (adding a constant, so no data orders them):
    # that order matters and is kept.
    ones = "%c = constant <f32: 1.000000e+00> : tile<128xf32>"
    python = prog(*TWO, ones, load_from("%pw"), "%j1 = join_tokens %t0, %lt : token",
                  atomic("%j1").replace("addf, %l", "addf, %c"), head=HEAD2)
    rust = prog(*TWO, ones, load_from("%pw"), "%t9 = make_token : token",
                atomic("%t9").replace("addf, %l", "addf, %c"), head=HEAD2)
    out = v(python, rust)
    assert not out["equivalent"] and fired(out, "read-only-load-tokens") == 0


def test_join_tokens_trivial():
    a = prog(*STORE, ONES, BID, "%t1 = make_token : token", "%j = join_tokens %t0, %t1, %t0 : token",
             store("%one", "%bx", "%j"))
    out = v(a, prog(*STORE, ONES, BID, store("%one", "%bx")))
    assert out["equivalent"] and fired(out, "join-tokens-trivial") == 1
    # Counter-example: a join with a real dependency (a load of the stored array) is not a fresh token.
    b = prog(*STORE, ONES, BID, load("%bx"), "%j = join_tokens %t0, %lt : token", store("%one", "%bx", "%j"))
    c = prog(*STORE, ONES, BID, load("%bx"), store("%one", "%bx"))
    out = v(b, c)
    assert not out["equivalent"]


def test_fresh_token_operand():
    """A load with a fresh token operand ≡ the same load with none; not when the token is a store's."""
    bare = ("%l, %lt = load_view_tko weak %pv[%bx] : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, "
            "tile<i32> -> tile<128xf32>, token")
    neg = "%n = negf %l : tile<128xf32>"
    out = v(prog(*STORE, BID, bare, neg, store("%n", "%bx")), prog(*STORE, BID, load("%bx"), neg, store("%n", "%bx")))
    assert out["equivalent"] and fired(out, "fresh-token-operand") >= 1
    # Counter-example: the load waits on a store's token; without it the load may read the memory before the store.
    first = store("%one", "%bx").replace("%s =", "%s0 =")
    out = v(prog(*STORE, BID, ONES, first, bare, neg, store("%n", "%bx")),
            prog(*STORE, BID, ONES, first, load("%bx", "%s0"), neg, store("%n", "%bx")))
    assert not out["equivalent"]


def test_data_implied_load_tokens():
    """An in-place update: the store of a value computed from the load, ordered after that load by a joined token
    (cuTile Python) ≡ the same store on the array's own token (cutile): the data already orders it. Not when the
    stored value does not read the load (the token is then the only thing keeping the load first)."""
    neg = "%n = negf %l : tile<128xf32>"
    python = prog(*STORE, BID, load("%bx"), neg, "%j = join_tokens %t0, %lt : token", store("%n", "%bx", "%j"))
    rust = prog(*STORE, BID, load("%bx"), neg, store("%n", "%bx"))
    out = v(python, rust)
    assert out["equivalent"] and fired(out, "data-implied-load-tokens") == 1
    # Counter-example: a constant is stored over the loaded tile; only the token orders the load before the store.
    python = prog(*STORE, BID, ONES, load("%bx"), "%j = join_tokens %t0, %lt : token", store("%one", "%bx", "%j"))
    rust = prog(*STORE, BID, ONES, load("%bx"), store("%one", "%bx"))
    out = v(python, rust)
    assert not out["equivalent"] and fired(out, "data-implied-load-tokens") == 0
    # Through a loop that starts from the loaded tile and hands on what it computes from it: still the data's.
    def looped(body_reads_carried: bool, joined: bool) -> str:
        nxt = "%x" if body_reads_carried else "%one"
        return prog(*STORE, BID, ONES, load("%bx"), *LOOP,
                    "%f = for %i in (%lo to %hi, step %st) : tile<i32> iter_values(%x = %l) -> (tile<128xf32>) {",
                    f"  %y = mulf {nxt}, %one : tile<128xf32>", "  continue %y : tile<128xf32>", "}",
                    *(["%j = join_tokens %t0, %lt : token", store("%f", "%bx", "%j")] if joined else
                      [store("%f", "%bx")]))
    out = v(looped(True, True), looped(True, False))
    assert out["equivalent"] and fired(out, "data-implied-load-tokens") == 1
    # ...not when the iterations replace the carried value by one computed without it
    assert not v(looped(False, True), looped(False, False))["equivalent"]


PTRS = ("%p0 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>",
        "%ptrs = broadcast %p0 : tile<1xptr<f32>> -> tile<128xptr<f32>>",
        "%iv = iota : tile<128xi32>", "%n = reshape %arg1 : tile<i32> -> tile<1xi32>",
        "%nb = broadcast %n : tile<1xi32> -> tile<128xi32>",
        "%m = cmpi less_than %iv, %nb, signed : tile<128xi32> -> tile<128xi1>",
        "%z = constant <f32: 0.000000e+00> : tile<128xf32>")


def ptr_load(padded: bool, mask: str = "%m") -> str:
    if padded:
        return (f"%g, %gt = load_ptr_tko weak %ptrs, {mask}, %z token=%t0 : tile<128xptr<f32>>, tile<128xi1>, "
                "tile<128xf32> -> tile<128xf32>, token")
    return (f"%g, %gt = load_ptr_tko weak %ptrs, {mask} token=%t0 : tile<128xptr<f32>>, tile<128xi1> -> "
            "tile<128xf32>, token")


def test_padded_pointer_load_select():
    """A masked pointer load padded with f (cuTile Python) ≡ the unpadded load then select(mask, tile, f) (cutile,
    rank 2+); not when the select's condition is another mask (other lanes would take f)."""
    python = prog(*STORE, BID, *PTRS, ptr_load(True), store("%g", "%bx"))
    rust = prog(*STORE, BID, *PTRS, ptr_load(False),
                "%s = select %m, %g, %z : tile<128xi1>, tile<128xf32>", store("%s", "%bx"))
    out = v(python, rust)
    assert out["equivalent"] and fired(out, "padded-pointer-load-select") == 1
    rust = prog(*STORE, BID, *PTRS, "%m2 = cmpi less_than %iv, %nb, unsigned : tile<128xi32> -> tile<128xi1>",
                ptr_load(False), "%s = select %m2, %g, %z : tile<128xi1>, tile<128xf32>", store("%s", "%bx"))
    out = v(python, rust)
    assert not out["equivalent"] and fired(out, "padded-pointer-load-select") == 0


def typed_store(elem: str, pre: list[str], val: str) -> str:
    """A kernel that computes ``pre`` and stores ``val`` (a 128-tile of ``elem``) through a tile view of arg0."""
    view = ("%tv = make_tensor_view %arg0, shape = [%arg1], strides = [1] : tile<i32> -> "
            f"tensor_view<?x{elem}, strides=[1]>",
            f"%pv = make_partition_view %tv : partition_view<tile=(128), tensor_view<?x{elem}, strides=[1]>>",
            "%t0 = make_token : token")
    st = (f"%s = store_view_tko weak {val}, %pv[%bx] token = %t0 : tile<128x{elem}>, "
          f"partition_view<tile=(128), tensor_view<?x{elem}, strides=[1]>>, tile<i32> -> token")
    return prog(*view, BID, *pre, st, head=HEAD.replace("ptr<f32>", f"ptr<{elem}>"))


def test_constant_conversion():
    """A bf16 constant (cuTile Python) ≡ an f32 constant of the same value converted to bf16 (cutile, whose bf16
    named constants are wrong): -inf and 1.0 convert exactly; 0.1 does not, so its conversion is kept."""
    def bf16_store(pre: list[str], val: str) -> str:
        return typed_store("bf16", pre, val)

    for f32_text, bf16_text in (("0xFF800000", "0xFF80"), ("1.000000e+00", "1.000000e+00")):
        python = bf16_store([f"%c = constant <bf16: {bf16_text}> : tile<128xbf16>"], "%c")
        rust = bf16_store([f"%w = constant <f32: {f32_text}> : tile<128xf32>",
                           "%c = ftof %w : tile<128xf32> -> tile<128xbf16>"], "%c")
        out = v(python, rust)
        assert out["equivalent"] and fired(out, "constant-conversion") == 1, f32_text
    # 0.1 rounds to bf16 0.10009765625 (printed 1.000980e-01): a bf16 constant of another value is not it
    python = bf16_store(["%c = constant <bf16: 1.250000e-01> : tile<128xbf16>"], "%c")
    rust = bf16_store(["%w = constant <f32: 1.000000e-01> : tile<128xf32>",
                       "%c = ftof %w : tile<128xf32> -> tile<128xbf16>"], "%c")
    out = v(python, rust)
    assert not out["equivalent"]
    python = bf16_store(["%c = constant <bf16: 1.000980e-01> : tile<128xbf16>"], "%c")
    assert v(python, rust)["equivalent"]


def test_constant_conversion_through_a_half():
    """`ct.astype(ct.astype(2.0, ct.float16), ct.float32)` (round 17's p36 `k_const_tiles`): cuTile Python folds it to
    the f32 constant 2.0; cutile converts an f64 constant (its untyped literal) to f16, then to f32. The f64 -> f16
    conversion folds as an f32's does; the f16 -> f32 one is exact (every f16 is an f32). Of 0.1, the chain gives
    the f16 nearest 0.1 (9.997559e-02), not the f32 0.1."""
    def chain(text: str) -> str:
        return typed_store("f32", [f"%w = constant <f64: {text}> : tile<128xf64>",
                                   "%h = ftof %w : tile<128xf64> -> tile<128xf16>",
                                   "%c = ftof %h : tile<128xf16> -> tile<128xf32>"], "%c")

    python = typed_store("f32", ["%c = constant <f32: 2.000000e+00> : tile<128xf32>"], "%c")
    out = v(python, chain("2.000000e+00"))
    assert out["equivalent"] and fired(out, "constant-conversion") == 2, out
    assert not v(typed_store("f32", ["%c = constant <f32: 1.000000e-01> : tile<128xf32>"], "%c"),
                 chain("1.000000e-01"))["equivalent"]
    assert v(typed_store("f32", ["%c = constant <f32: 9.997559e-02> : tile<128xf32>"], "%c"),
             chain("1.000000e-01"))["equivalent"]


def test_constant_conversion_of_an_8_bit_float_zero():
    """cutile 0.3.1 compiles no f8 constant: an f8 constant is an f32 one converted — +0, and since round 24 the
    other values the format holds exactly (1.0, 448; `ct.full((B,), 448.0, ct.float8_e4m3fn)`: a saturation
    bound); a value it does not hold (0.1: rounded) or -0 is not folded."""
    def f8_store(pre: list[str], val: str) -> str:
        return typed_store("f8E5M2", pre, val)

    python = f8_store(["%c = constant <f8E5M2: 0.000000e+00> : tile<128xf8E5M2>"], "%c")
    rust = f8_store(["%w = constant <f32: 0.000000e+00> : tile<128xf32>",
                     "%c = ftof %w : tile<128xf32> -> tile<128xf8E5M2>"], "%c")
    out = v(python, rust)
    assert out["equivalent"] and fired(out, "constant-conversion") == 1
    def converted(text: str, target: str = "f8E5M2") -> str:
        return typed_store(target, [f"%w = constant <f32: {text}> : tile<128xf32>",
                                    f"%c = ftof %w : tile<128xf32> -> tile<128x{target}>"], "%c")

    def direct(text: str, target: str = "f8E5M2") -> str:
        return typed_store(target, [f"%c = constant <{target}: {text}> : tile<128x{target}>"], "%c")

    assert v(direct("1.000000e+00"), converted("1.000000e+00"))["equivalent"]
    assert v(direct("4.480000e+02", "f8E4M3FN"), converted("4.480000e+02", "f8E4M3FN"))["equivalent"]
    assert v(direct("-1.500000e+00", "f8E4M3FN"), converted("-1.500000e+00", "f8E4M3FN"))["equivalent"]
    # Counter-examples: another value; one the format rounds (0.1); -0; 240 in e5m2 (two mantissa bits: 256)
    assert not v(direct("2.000000e+00"), converted("1.000000e+00"))["equivalent"]
    assert not v(direct("1.000000e-01", "f8E4M3FN"), converted("1.000000e-01", "f8E4M3FN"))["equivalent"]
    assert not v(direct("-0.000000e+00"), converted("-0.000000e+00"))["equivalent"]
    assert not v(direct("2.400000e+02"), converted("2.400000e+02"))["equivalent"]


def test_assume_loop_iv_range():
    """`for i in 0..4` with `assume bounded<0, 3>` on i (cutile) ≡ the plain loop (cuTile Python); not when the
    stated range excludes a value the loop takes (bounded<0, 2>)."""
    def loop(bounds: str | None) -> str:
        body = [f"  %ai = assume bounded<{bounds}>, %i : tile<i32>"] if bounds else []
        return prog(*STORE, ONES, "%lo = constant <i32: 0> : tile<i32>", "%hi = constant <i32: 4> : tile<i32>",
                    "%st = constant <i32: 1> : tile<i32>", "for %i in (%lo to %hi, step %st) : tile<i32> {", *body,
                    "  " + store("%one", "%ai" if bounds else "%i"), "}")
    out = v(loop(None), loop("0, 3"))
    assert out["equivalent"] and fired(out, "assume-loop-iv-range") == 1
    out = v(loop(None), loop("0, 2"))
    assert not out["equivalent"] and fired(out, "assume-loop-iv-range") == 0


def test_assume_loop_iv_range_triangular():
    """`for i in 0..4 { for j in i..4 }` (a triangular loop: `range(i, NB)`): cutile states `bounded<0, 3>` on j ≡
    the plain loops — j starts at i, which starts at 0; `bounded<1, 3>` is a claim the loops do not make (was
    unproven)."""
    def loops(bounds: str | None) -> str:
        body = [f"    %aj = assume bounded<{bounds}>, %j : tile<i32>"] if bounds else []
        return prog(*STORE, ONES, "%lo = constant <i32: 0> : tile<i32>", "%hi = constant <i32: 4> : tile<i32>",
                    "%st = constant <i32: 1> : tile<i32>", "for %i in (%lo to %hi, step %st) : tile<i32> {",
                    "  for %j in (%i to %hi, step %st) : tile<i32> {", *body,
                    "    " + store("%one", "%aj" if bounds else "%j"), "  }", "}")
    out = v(loops(None), loops("0, 3"))
    assert out["equivalent"] and fired(out, "assume-loop-iv-range") == 1
    out = v(loops(None), loops("1, 3"))
    assert not out["equivalent"] and fired(out, "assume-loop-iv-range") == 0


def test_assume_loop_iv_range_one_sided():
    """A grid-stride loop `for i in (bid to 4, step nb)`: cutile states `bounded<?, 3>` (i < 4 whatever the start
    and step) ≡ the plain loop; `bounded<?, 2>` is a claim the loop does not make, and a lower bound needs a
    constant start."""
    def loop(bounds: str | None) -> str:
        body = [f"  %ai = assume bounded<{bounds}>, %i : tile<i32>"] if bounds else []
        return prog(*STORE, ONES, "%lo, %by, %bz = get_tile_block_id : tile<i32>",
                    "%st, %ny, %nz = get_num_tile_blocks : tile<i32>", "%hi = constant <i32: 4> : tile<i32>",
                    "for %i in (%lo to %hi, step %st) : tile<i32> {", *body,
                    "  " + store("%one", "%ai" if bounds else "%i"), "}")
    out = v(loop(None), loop("?, 3"))
    assert out["equivalent"] and fired(out, "assume-loop-iv-range") == 1
    for claim in ("?, 2", "1, ?"):
        out = v(loop(None), loop(claim))
        assert not out["equivalent"] and fired(out, "assume-loop-iv-range") == 0


def test_if_passthrough_results():
    """An `if` that also yields a value both arms pass through unchanged (cutile yields its loop's carried values)
    ≡ the `if` that yields only what an arm changes; not when one arm yields something else."""
    two = "%two = constant <f32: 2.000000e+00> : tile<128xf32>"
    cond = "%c = cmpi greater_than %arg2, %arg3, signed : tile<i32> -> tile<i1>"

    def branch(extra: bool, else_keeps: str = "%one") -> str:
        types = "tile<128xf32>, tile<128xf32>" if extra else "tile<128xf32>"
        then_y = "%one, %d" if extra else "%d"
        else_y = f"{else_keeps}, %one" if extra else "%one"
        res = "%r:2" if extra else "%r"
        used = "%r#1" if extra else "%r"
        return prog(*STORE, ONES, two, cond, f"{res} = if %c -> ({types}) {{",
                    "  %d = addf %one, %two : tile<128xf32>", f"  yield {then_y} : {types}", "} else {",
                    f"  yield {else_y} : {types}", "}", store(used, "%arg2"))
    out = v(branch(False), branch(True))
    assert out["equivalent"] and fired(out, "if-passthrough-results") == 1
    assert not v(branch(False), branch(True, else_keeps="%two"))["equivalent"]
    # an `if` left with no result is the `if` that never yielded one
    store_if = [cond, "if %c {", "  " + store("%one", "%arg2"), "}"]
    plain = prog(*STORE, ONES, *store_if[:2], "  " + store("%one", "%arg2"), "} else {", "}")
    through = prog(*STORE, ONES, cond, "%r = if %c -> (tile<128xf32>) {", "  " + store("%one", "%arg2"),
                   "  yield %one : tile<128xf32>", "} else {", "  yield %one : tile<128xf32>", "}")
    assert v(plain, through)["equivalent"]
    # an arm that leaves the iteration (`continue`) yields nothing: the other arm's pass-through decides (cutile's
    # `if broke { continue; }` yields the carried values from its empty arm)
    head = "%f = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%x = %one) -> (tile<128xf32>) {"
    skip = prog(*STORE, ONES, *LOOP, cond, head, "  if %c {", "    continue %x : tile<128xf32>", "  } else {", "  }",
                "  %n = addf %x, %one : tile<128xf32>", "  continue %n : tile<128xf32>", "}", store("%f", "%arg2"))
    skip_port = prog(*STORE, ONES, *LOOP, cond, head, "  %r = if %c -> (tile<128xf32>) {",
                     "    continue %x : tile<128xf32>", "  } else {", "    yield %x : tile<128xf32>", "  }",
                     "  %n = addf %r, %one : tile<128xf32>", "  continue %n : tile<128xf32>", "}", store("%f", "%arg2"))
    assert v(skip, skip_port)["equivalent"]


LOOP = ("%lo = constant <i32: 0> : tile<i32>", "%hi = constant <i32: 4> : tile<i32>",
        "%st = constant <i32: 1> : tile<i32>")


def _carry(iters: str, types: str, body: list[str], cont: str, after: str) -> str:
    return prog(*STORE, ONES, *LOOP, f"%f:{types.count(',') + 1} = for %j in (%lo to %hi, step %st) : tile<i32> "
                f"iter_values({iters}) -> ({types}) {{", *("  " + b for b in body), f"  continue {cont} : {types}",
                "}", store(after, "%arg3"))


def _single(after_extra: str = "") -> str:
    return prog(*STORE, ONES, *LOOP, "%f = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%x = %one) -> "
                "(tile<128xf32>) {", "  %n = addf %x, %one : tile<128xf32>", "  continue %n : tile<128xf32>", "}",
                store("%f", "%arg3"))


def test_loop_carried_dead():
    """A carried value nobody reads (cutile carries `token_cnt = gather(..)` assigned in every iteration) ≡ the loop
    without it; not when the code after the loop reads it."""
    two = "tile<128xf32>, tile<128xf32>"
    dead = _carry("%x = %one, %d = %one", two, ["%n = addf %x, %one : tile<128xf32>",
                                                 "%g = addf %one, %one : tile<128xf32>"], "%n, %g", "%f#0")
    out = v(_single(), dead)
    assert out["equivalent"] and fired(out, "loop-carried-dead") == 1
    read_after = _carry("%x = %one, %d = %one", two, ["%n = addf %x, %one : tile<128xf32>",
                                                       "%g = addf %one, %one : tile<128xf32>"], "%n, %g", "%f#1")
    assert not v(_single(), read_after)["equivalent"]
    read_inside = _carry("%x = %one, %d = %one", two, ["%n = addf %x, %d : tile<128xf32>",
                                                        "%g = addf %one, %one : tile<128xf32>"], "%n, %g", "%f#0")
    assert fired(v(_single(), read_inside), "loop-carried-dead") == 0


def test_loop_carried_duplicates():
    """Two carried values from one start, handed one value (cuTile Python's two tokens of one array) ≡ one; not
    when the body hands them different values."""
    two = "tile<128xf32>, tile<128xf32>"
    dup = _carry("%x = %one, %y = %one", two, ["%n = addf %x, %one : tile<128xf32>"], "%n, %n", "%f#1")
    out = v(_single(), dup)
    assert out["equivalent"] and fired(out, "loop-carried-duplicates") == 1
    apart = _carry("%x = %one, %y = %one", two, ["%n = addf %x, %one : tile<128xf32>"], "%n, %one", "%f#1")
    assert not v(_single(), apart)["equivalent"]


def test_fresh_tokens_one():
    """Two carried tokens started from two fresh tokens and handed one store's token ≡ the two started from one
    fresh token (cuTile Python's one entry token, cutile's token per tensor); not when the body hands them
    different tokens."""
    def loop(second_init: str, second_next: str) -> str:
        st = store("%one", "%j", "%a").replace("%s =", "%w =")
        return prog(*STORE, ONES, *LOOP, "%t1 = make_token : token",
                    f"%f:2 = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%a = %t0, %b = {second_init}) "
                    "-> (token, token) {", "  %u = join_tokens %a, %b : token", "  " + st.replace("token = %a",
                                                                                               "token = %u"),
                    f"  continue %w, {second_next} : token, token", "}", store("%one", "%arg2", "%f#1"))
    out = v(loop("%t0", "%w"), loop("%t1", "%w"))
    assert out["equivalent"] and fired(out, "fresh-tokens-one") >= 1, out
    assert not v(loop("%t0", "%w"), loop("%t1", "%b"))["equivalent"]


def test_loop_carried_order():
    """The same two carried values in the other order (cutile orders by name) ≡; a loop whose two values are
    computed differently is not."""
    def loop(token_first: bool, op: str = "addf") -> str:
        st = store("%n", "%j", "%t").replace("%s =", "%w =")
        iters = ["%x = %one", "%t = %t0"]
        types = ["tile<128xf32>", "token"]
        cont = ["%n", "%w"]
        if token_first:
            iters, types, cont = iters[::-1], types[::-1], cont[::-1]
        k = 1 if token_first else 0
        return _carry(", ".join(iters), ", ".join(types), [f"%n = {op} %x, %one : tile<128xf32>", st],
                      ", ".join(cont), f"%f#{k}")
    out = v(loop(False), loop(True))
    assert out["equivalent"] and fired(out, "loop-carried-order") >= 1
    assert not v(loop(False), loop(True, "mulf"))["equivalent"]


def test_loop_carried_order_of_tokens_read_by_stores():
    """Two carried tokens, each first read by one of two stores (an array each in the kernel), in either order ≡;
    not when the body hands each store's token on to the other one's slot."""
    def loop(first: str, crossed: bool = False) -> str:
        body = ["%n = addf %x, %one : tile<128xf32>", store("%one", "%j", "%ta").replace("%s =", "%wa ="),
                store("%n", "%j", "%tb").replace("%s =", "%wb =")]
        slots = {"a": ("%ta = %t0", "%wb" if crossed else "%wa"), "b": ("%tb = %t0", "%wa" if crossed else "%wb")}
        order = [first, "b" if first == "a" else "a"]
        iters = ["%x = %one"] + [slots[k][0] for k in order]
        return _carry(", ".join(iters), "tile<128xf32>, token, token", body,
                      ", ".join(["%n"] + [slots[k][1] for k in order]), "%f#0")
    out = v(loop("a"), loop("b"))
    assert out["equivalent"] and fired(out, "loop-carried-order") >= 1
    assert not v(loop("a"), loop("b", crossed=True))["equivalent"]


def test_loop_return_unobserved():
    """A `return` inside a loop (round 21b's `ret_acc`): both sides carry a return flag f and a skip flag g, and the
    `continue` standing for the `return` hands both `true`; the accumulator it hands is read after the loop only
    in `if %f#1 { } else { store }`. cuTile Python hands the accumulator the iteration came with, the port the one
    just computed: ≡. Not when the accumulator is also read where the flag is true (after the `if`), nor when that
    `continue` leaves the skip flag as it came (later iterations run on with what it hands)."""
    types = "tile<128xf32>, tile<i1>, tile<i1>"

    def loop(handed: str, guarded: bool = True, skip: str = "%yes") -> str:
        after = ["if %f#1 {", "} else {", "  " + store("%f#0", "%arg3"), "}"] if guarded else \
            [store("%f#0", "%arg3")]
        return prog(*STORE, ONES, *LOOP, "%no = constant <i1: false> : tile<i1>",
                    "%yes = constant <i1: true> : tile<i1>",
                    f"%f:3 = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%x = %one, %rf = %no, "
                    f"%bf = %no) -> ({types}) {{",
                    "  if %bf {", f"    continue %x, %rf, %bf : {types}", "  } else {", "  }",
                    "  %n = addf %x, %one : tile<128xf32>",
                    "  %c = cmpi greater_than %j, %arg3, signed : tile<i32> -> tile<i1>",
                    "  if %c {", f"    continue {handed}, %yes, {skip} : {types}",
                    "  } else {", "  }", f"  continue %n, %rf, %bf : {types}", "}", *after)
    out = v(loop("%x"), loop("%n"))
    assert out["equivalent"] and fired(out, "loop-return-unobserved") >= 1, out["differences"][:2]
    assert not v(loop("%x", guarded=False), loop("%n", guarded=False))["equivalent"]
    assert not v(loop("%x", skip="%bf"), loop("%n", skip="%bf"))["equivalent"]


def test_loop_carried_order_past_a_break_flags_skip():
    """Two tokens a loop with a `break` carries beside its flag (round 21b's `brk_acc`: `out` and `cnt` stored
    before the `break`): both sides start each iteration with `if %b { continue (everything as it came) }`, the
    first reader of every carried value, so the tokens were tied (cutile orders them by name, cuTile Python by
    first store). A `continue` of the loop handing a value on in its own place is no reader: the stores are, in
    either order ≡ (the port's skip `if` yielding every value too); not when the body hands each store's token
    on to the other one's slot."""
    types = "tile<128xf32>, tile<i1>, token, token"

    def loop(first: str, crossed: bool = False, port: bool = False) -> str:
        order = [first, "b" if first == "a" else "a"]
        iters = ["%x = %one", "%b = %no"] + [f"%t{k} = %t0" for k in order]
        carried = ["%x", "%b"] + [f"%t{k}" for k in order]
        made = {"a": "%wb" if crossed else "%wa", "b": "%wa" if crossed else "%wb"}
        if port:   # cutile's skip: an `if` yielding every value, read on
            skip = [f"%s4:4 = if %b -> ({types}) {{", f"  continue {', '.join(carried)} : {types}", "} else {",
                    f"  yield {', '.join(carried)} : {types}", "}"]
            t = {"a": "%s4#2" if first == "a" else "%s4#3", "b": "%s4#3" if first == "a" else "%s4#2"}
            x = "%s4#0"
        else:
            skip = ["if %b {", f"  continue {', '.join(carried)} : {types}", "} else {", "}"]
            t, x = {"a": "%ta", "b": "%tb"}, "%x"
        body = skip + [f"%n = addf {x}, %one : tile<128xf32>",
                       "%c = cmpi greater_than %j, %arg3, signed : tile<i32> -> tile<i1>",
                       "%r:2 = if %c -> (token, token) {",
                       "  " + store("%one", "%j", t["a"]).replace("%s =", "%wa ="),
                       "  " + store("%n", "%j", t["b"]).replace("%s =", "%wb ="),
                       f"  continue %n, %yes, {', '.join(made[k] for k in order)} : {types}", "} else {",
                       f"  yield {', '.join(t[k] for k in order)} : token, token", "}"]
        return prog(*STORE, ONES, *LOOP, "%no = constant <i1: false> : tile<i1>",
                    "%yes = constant <i1: true> : tile<i1>",
                    f"%f:4 = for %j in (%lo to %hi, step %st) : tile<i32> iter_values({', '.join(iters)}) -> "
                    f"({types}) {{", *("  " + b for b in body), f"  continue %n, {'%s4#1' if port else '%b'}, "
                    f"%r#0, %r#1 : {types}", "}",
                    store("%f#0", "%arg3", "%f#2" if first == "a" else "%f#3"))
    assert v(loop("a"), loop("a", port=True))["equivalent"]
    out = v(loop("a"), loop("b", port=True))
    assert out["equivalent"] and fired(out, "loop-carried-order") >= 1, out["differences"][:2]
    assert not v(loop("a"), loop("b", crossed=True, port=True))["equivalent"]
    assert not v(loop("a"), loop("a", crossed=True))["equivalent"]


def test_loop_carried_order_of_values_read_by_one_op():
    """Two carried values first read by one op (`subf %x, %y`), started from constants defined in either order and
    carried in either order ≡ (the constants were matched by position); not when the body reads them the other
    way round."""
    ninf = "%a = constant <f32: 0xFF800000> : tile<128xf32>"
    zero = "%b = constant <f32: 0.000000e+00> : tile<128xf32>"

    def loop(consts_first_a: bool, swapped: bool, body: tuple = ("%n = subf %x, %y", "%m = subf %y, %x")) -> str:
        iters, cont, res = ("%y = %b, %x = %a", "%m, %n", "%f#0") if swapped else ("%x = %a, %y = %b", "%n, %m",
                                                                                    "%f#1")
        return prog(*STORE, *([ninf, zero] if consts_first_a else [zero, ninf]), *LOOP,
                    f"%f:2 = for %j in (%lo to %hi, step %st) : tile<i32> iter_values({iters}) -> (tile<128xf32>, "
                    "tile<128xf32>) {", *(f"  {b} : tile<128xf32>" for b in body),
                    f"  continue {cont} : tile<128xf32>, tile<128xf32>", "}", store(res, "%arg3"))
    out = v(loop(True, False), loop(False, True))
    assert out["equivalent"] and fired(out, "loop-carried-order") >= 1
    assert v(loop(True, False), loop(True, True))["equivalent"]
    assert not v(loop(True, False), loop(True, True, ("%n = subf %y, %x", "%m = subf %x, %y")))["equivalent"]


def test_loop_carried_order_through_identity_reshape():
    """A carried value first read through an identity reshape (cutile's `broadcast_scalar(acc, shape![])` of a
    carried f32 scalar: a chunked log-softmax's `acc`) is told apart by the op reading the reshape: the two values
    carried in the other order ≡; not when the body reads them the other way round."""
    ninf = "%a = constant <f32: 0xFF800000> : tile<128xf32>"
    zero = "%b = constant <f32: 0.000000e+00> : tile<128xf32>"

    def loop(cutile: bool, ops: tuple = ("maxf", "addf")) -> str:
        y = "%yr" if cutile else "%y"
        body = (["%yr = reshape %y : tile<128xf32> -> tile<128xf32>"] if cutile else []) + \
            [f"%n = {ops[0]} %x, %one : tile<128xf32>", f"%m = {ops[1]} {y}, %n : tile<128xf32>"]
        iters, cont, res = ("%y = %b, %x = %a", "%m, %n", "%f#0") if cutile else ("%x = %a, %y = %b", "%n, %m",
                                                                                  "%f#1")
        return prog(*STORE, ONES, ninf, zero, *LOOP,
                    f"%f:2 = for %j in (%lo to %hi, step %st) : tile<i32> iter_values({iters}) -> (tile<128xf32>, "
                    "tile<128xf32>) {", *(f"  {b}" for b in body),
                    f"  continue {cont} : tile<128xf32>, tile<128xf32>", "}", store(res, "%arg3"))
    out = v(loop(False), loop(True))
    assert out["equivalent"] and fired(out, "loop-carried-order") >= 1
    assert not v(loop(False), loop(True, ("addf", "maxf")))["equivalent"]


def test_pure_op_placement():
    """A loop-invariant reduction hoisted before the loop (cuTile Python) ≡ the same reduction inside the loop
    (cutile); not when the reduction inside the loop reads the loop's carried value."""
    red = ["%r = reduce %one dim=0 identities=[0.000000e+00 : f32] : tile<128xf32> -> tile<f32>",
           "(%a: tile<f32>, %b: tile<f32>) {", "  %s = addf %a, %b : tile<f32>", "  yield %s : tile<f32>", "}",
           "%rb = reshape %r : tile<f32> -> tile<1xf32>", "%rr = broadcast %rb : tile<1xf32> -> tile<128xf32>"]

    def loop(hoisted: bool, operand: str = "%one") -> str:
        inside = [x.replace("%one dim", f"{operand} dim") for x in red]
        body = ([] if hoisted else inside) + ["%n = addf %x, %rr : tile<128xf32>"]
        return prog(*STORE, ONES, *LOOP, *(red if hoisted else []),
                    "%f = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%x = %one) -> (tile<128xf32>) {",
                    *("  " + b for b in body), "  continue %n : tile<128xf32>", "}", store("%f", "%arg3"))
    assert v(loop(True), loop(False))["equivalent"]
    assert not v(loop(True), loop(False, "%x"))["equivalent"]


def test_unordered_load_value():
    """A loop-invariant load of no ordering token hoisted before the loop (cuTile Python's code motion) ≡ the same
    load inside the loop (the port); not when the load reads at the loop index. An unread load stays an effect
    (test_dead_pure_ops)."""
    def loop(hoisted: bool, idx: str = "%bx") -> str:
        ld = load(idx)
        body = ([] if hoisted else [ld]) + ["%n = addf %x, %l : tile<128xf32>"]
        return prog(*STORE, ONES, BID, *LOOP, *([ld] if hoisted else []),
                    "%f = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%x = %one) -> (tile<128xf32>) {",
                    *("  " + b for b in body), "  continue %n : tile<128xf32>", "}", store("%f", "%bx"))
    out = v(loop(True), loop(False))
    assert out["equivalent"], out
    assert not v(loop(True), loop(False, "%j"))["equivalent"]


def test_assume_divby_implied():
    """A running sum of multiples of 128 carried by a loop, stated div_by<128> (cuTile Python) ≡ the same sum
    without the assume (cutile); not when what the loop adds is a multiple of 64 only."""
    def loop(mult: int, assume: bool) -> str:
        body = [f"%m = constant <i32: {mult}> : tile<i32>", "%p = muli %arg3, %m : tile<i32>",
                "%n = addi %x, %p : tile<i32>"]
        head = "%f = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%x = %z) -> (tile<i32>) {"
        if assume:
            body = [b.replace("%x,", "%xa,") for b in body]
            body.insert(0, "%xa = assume div_by<128>, %x : tile<i32>")
        return prog(*STORE, ONES, *LOOP, "%z = constant <i32: 0> : tile<i32>", head, *("  " + b for b in body),
                    "  continue %n : tile<i32>", "}", store("%one", "%f"))
    out = v(loop(128, True), loop(128, False))
    assert out["equivalent"] and fired(out, "assume-divby-implied") >= 1
    assert not v(loop(64, True), loop(64, False))["equivalent"]


def test_single_break_loop():
    """A `loop` whose body only breaks with an outer value (cuTile Python's early `return` of a helper, its `if`
    folded) ≡ that value; not when the break hands on the loop's own carried value, nor with more in the body."""
    two = "%two = constant <f32: 2.000000e+00> : tile<128xf32>"
    d = "%d = addf %one, %two : tile<128xf32>"
    plain = prog(*STORE, ONES, two, d, store("%d", "%arg2"))

    def looped(brk: str = "%d", extra: tuple = ()) -> str:
        return prog(*STORE, ONES, two, d, "%z = constant <f32: 0.000000e+00> : tile<128xf32>",
                    "%r = loop iter_values(%a = %z) : tile<128xf32> -> tile<128xf32> {", *extra,
                    f"  break {brk} : tile<128xf32>", "}", store("%r", "%arg2"))
    out = v(plain, looped())
    assert out["equivalent"] and fired(out, "single-break-loop") == 1
    assert not v(plain, looped("%a"))["equivalent"]
    assert not v(plain, looped(extra=("  " + store("%one", "%arg3"),)))["equivalent"]
    # a body of pure ops reading the carried value runs once from its initial value (a helper re-binding its
    # parameter before a folded early return: `t = t / temp`, then `return ..` of it)
    carried = prog(*STORE, ONES, two, "%r = loop iter_values(%a = %one) : tile<128xf32> -> tile<128xf32> {",
                   "  %s = addf %a, %two : tile<128xf32>", "  break %s : tile<128xf32>", "}", store("%r", "%arg2"))
    out = v(plain, carried)
    assert out["equivalent"] and fired(out, "single-break-loop") == 1, out
    assert not v(plain, carried.replace("addf %a, %two", "addf %a, %one"))["equivalent"]
    # a loop that breaks with a constant: its readers see the constant (a reshape/broadcast of it is the splat)
    c0 = "%c0 = constant <f32: 2.000000e+00> : tile<f32>"
    splat = prog(*STORE, "%s = constant <f32: 2.000000e+00> : tile<128xf32>", store("%s", "%arg2"))
    via_loop = prog(*STORE, c0, "%z = constant <f32: 0.000000e+00> : tile<f32>",
                    "%r = loop iter_values(%a = %z) : tile<f32> -> tile<f32> {", "  break %c0 : tile<f32>", "}",
                    "%rs = reshape %r : tile<f32> -> tile<1xf32>", "%rb = broadcast %rs : tile<1xf32> -> tile<128xf32>",
                    store("%rb", "%arg2"))
    out = v(splat, via_loop)
    assert out["equivalent"] and fired(out, "single-break-loop") == 1, out
    # a `continue` in an inner region: not one trip
    twice = carried.replace("  break %s", "  %c = cmpf less_than %a, %two : tile<128xf32> -> tile<128xi1>\n"
                            "  if %c {\n    continue %s : tile<128xf32>\n  }\n  break %s")
    assert fired(v(plain, twice), "single-break-loop") == 0


def test_loop_carried_invariant():
    """A loop that carries the token of its loads of a read-only array to order an atomic after it (cuTile Python)
    ≡ the loop without it, the atomic on a fresh token (cutile); not when the carried token takes a load of the
    array the atomic writes."""
    def python(view: str) -> str:
        return prog(*TWO, *LOOP, "%z = constant <f32: 0.000000e+00> : tile<128xf32>",
                    "%f:2 = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%acc = %z, %tk = %t0) -> "
                    "(tile<128xf32>, token) {",
                    f"  %l, %lt = load_view_tko weak {view}[%j] token = %t0 : partition_view<tile=(128), "
                    "tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token",
                    "  %jt = join_tokens %tk, %lt : token", "  %n = addf %acc, %l : tile<128xf32>",
                    "  continue %n, %jt : tile<128xf32>, token", "}",
                    "%j2 = join_tokens %t0, %f#1 : token",
                    atomic("%j2").replace("addf, %l", "addf, %f#0"), head=HEAD2)

    def rust(view: str) -> str:
        return prog(*TWO, *LOOP, "%z = constant <f32: 0.000000e+00> : tile<128xf32>",
                    "%f = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%acc = %z) -> (tile<128xf32>) {",
                    f"  %l, %lt = load_view_tko weak {view}[%j] token = %t0 : partition_view<tile=(128), "
                    "tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token",
                    "  %n = addf %acc, %l : tile<128xf32>", "  continue %n : tile<128xf32>", "}",
                    "%t9 = make_token : token", atomic("%t9").replace("addf, %l", "addf, %f"), head=HEAD2)
    out = v(python("%pv"), rust("%pv"))
    assert out["equivalent"] and fired(out, "loop-carried-invariant") == 1, out
    assert not v(python("%pw"), rust("%pw"))["equivalent"]

    # a store token carried unchanged and read by a load in the body and after the loop (cuTile Python's second
    # loop of a split loop) ≡ the loop without it, the loads on the token from before (cutile); not when the body
    # hands on a store's token instead
    def load(tok: str, idx: str = "%j") -> str:
        return (f"%l, %lt = load_view_tko weak %pv[{idx}] token = {tok} : partition_view<tile=(128), "
                "tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token")

    def carried(cont: str) -> str:
        body = [load("%tk"), "%n = addf %acc, %l : tile<128xf32>"]
        if cont != "%tk":
            body.append(store("%n", "%j", "%tk").replace("%s =", "%sj ="))
        return prog(*STORE, "%z = constant <f32: 0.000000e+00> : tile<128xf32>", *LOOP,
                    "%f:2 = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%acc = %z, %tk = %t0) -> "
                    "(tile<128xf32>, token) {", *("  " + b for b in body),
                    f"  continue %n, {cont} : tile<128xf32>, token", "}",
                    load("%f#1", "%lo").replace("%l,", "%l2,").replace("%lt", "%lt2"),
                    "%sum = addf %f#0, %l2 : tile<128xf32>", store("%sum", "%lo"))
    plain = prog(*STORE, "%z = constant <f32: 0.000000e+00> : tile<128xf32>", *LOOP,
                 "%f = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%acc = %z) -> (tile<128xf32>) {",
                 "  " + load("%t0"), "  %n = addf %acc, %l : tile<128xf32>", "  continue %n : tile<128xf32>", "}",
                 load("%t0", "%lo").replace("%l,", "%l2,").replace("%lt", "%lt2"),
                 "%sum = addf %f, %l2 : tile<128xf32>", store("%sum", "%lo"))
    out = v(carried("%tk"), plain)
    assert out["equivalent"] and fired(out, "loop-carried-invariant") == 1, out
    assert not v(carried("%sj"), plain)["equivalent"]


def test_single_trip_loop_if():
    """A helper's early return under a runtime `if` (cuTile Python: a loop left by a `break` in the `if` or by the
    one after it) ≡ the `if` yielding the result (the port); not when the `if`'s arm does not end the loop."""
    two = "%two = constant <f32: 2.000000e+00> : tile<128xf32>"
    cond = "%c = cmpi greater_than %arg2, %arg3, signed : tile<i32> -> tile<i1>"
    port = prog(*STORE, ONES, two, cond, "%r = if %c -> (tile<128xf32>) {", "  %d = addf %one, %two : tile<128xf32>",
                "  yield %d : tile<128xf32>", "} else {", "  %e = mulf %one, %two : tile<128xf32>",
                "  yield %e : tile<128xf32>", "}", store("%r", "%arg2"))

    def python(then_end: str = "break %d : tile<128xf32>") -> str:
        return prog(*STORE, ONES, two, cond, "%z = constant <f32: 0.000000e+00> : tile<128xf32>",
                    "%r = loop iter_values(%a = %z) : tile<128xf32> -> tile<128xf32> {", "  if %c {",
                    "    %d = addf %one, %two : tile<128xf32>", f"    {then_end}", "  } else {", "  }",
                    "  %e = mulf %one, %two : tile<128xf32>", "  break %e : tile<128xf32>", "}",
                    store("%r", "%arg2"))
    out = v(python(), port)
    assert out["equivalent"] and fired(out, "single-trip-loop-if") == 1, out
    assert not v(python("continue %d : tile<128xf32>"), port)["equivalent"]


def test_early_return_else():
    """A kernel's `if c: return` (cuTile Python: a `return` inside the `if`, the rest after it) ≡ the rest in the
    `else` arm (the port); not when the rest differs, nor for an `if` that does more than return."""
    cond = "%c = cmpi greater_than %arg2, %arg3, signed : tile<i32> -> tile<i1>"
    python = prog(*STORE, ONES, cond, "if %c {", "  return", "} else {", "}", store("%one", "%arg2"))
    port = prog(*STORE, ONES, cond, "if %c {", "} else {", "  " + store("%one", "%arg2"), "}")
    out = v(python, port)
    assert out["equivalent"] and fired(out, "early-return-else") == 1, out
    assert not v(python, prog(*STORE, ONES, cond, "if %c {", "} else {", "  " + store("%one", "%arg3"), "}"))[
        "equivalent"]
    busy = prog(*STORE, ONES, cond, "if %c {", "  " + store("%one", "%arg3"), "  return", "} else {", "}",
                store("%one", "%arg2"))
    assert not v(busy, port)["equivalent"]
    # a loop in the rest reads its induction variable one region deeper in the port: the same once moved
    loop = ["%f = for %j in (%lo to %hi, step %st) : tile<i32> iter_values(%x = %one) -> (tile<128xf32>) {",
            "  %n = addf %x, %one : tile<128xf32>", "  " + store("%n", "%j"), "  continue %n : tile<128xf32>", "}"]
    python = prog(*STORE, ONES, *LOOP, cond, "if %c {", "  return", "} else {", "}", *loop)
    port = prog(*STORE, ONES, *LOOP, cond, "if %c {", "} else {", *("  " + x for x in loop), "}")
    assert v(python, port)["equivalent"]
    # an `if` that stores, then returns, yielding its token to the rest (`if tok < lo: store(..); return`): the
    # then arm keeps its store, the rest reads the else arm's token; a different store in either arm is caught
    tokened = prog(*STORE, ONES, cond, "%r = if %c -> (token) {", "  " + store("%one", "%arg3"), "  return",
                   "} else {", "  yield %t0 : token", "}", store("%one", "%arg2", "%r"))
    both = prog(*STORE, ONES, cond, "if %c {", "  " + store("%one", "%arg3"), "} else {",
                "  " + store("%one", "%arg2"), "}")
    out = v(tokened, both)
    assert out["equivalent"] and fired(out, "early-return-else") == 1, out
    assert not v(tokened, port)["equivalent"]
    assert not v(tokened, prog(*STORE, ONES, cond, "if %c {", "  " + store("%one", "%arg2"), "} else {",
                               "  " + store("%one", "%arg2"), "}"))["equivalent"]
    # `if %c { return }` just before the final return (cuTile Python's `if flag: return` after a loop a kernel
    # returned from inside, nothing after it; round 21b's ret_nested) does nothing: dropped, the port has no `if`
    tail = prog(*STORE, ONES, store("%one", "%arg2"), cond, "if %c {", "  return", "} else {", "}")
    out = v(tail, prog(*STORE, ONES, store("%one", "%arg2")))
    assert out["equivalent"] and fired(out, "early-return-else") == 1, out
    assert not v(tail, prog(*STORE, ONES, store("%one", "%arg3")))["equivalent"]


def test_inbounds_hint():
    """A view load claiming its tile in range (`inbounds`, ct.load(.., check_bounds=False)) ≡ the load without the
    claim; the rest of the load still counts (another index differs)."""
    def with_claim(idx: str, claim: str) -> str:
        return prog(*STORE, BID, f"%l, %lt = load_view_tko weak %pv[{idx}] token = %t0{claim} : partition_view<"
                    "tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token",
                    store("%l", "%bx"))
    out = v(with_claim("%bx", " inbounds = [true]"), with_claim("%bx", ""))
    assert out["equivalent"] and fired(out, "inbounds-hint") == 1, out
    assert not v(with_claim("%bx", " inbounds = [true]"), with_claim("%by", ""))["equivalent"]


def test_loop_carried_unread():
    """A `while` whose result is set only before a `break` (`found = j; break`): cuTile Python hands the constant on
    and starts the carried value from a placeholder, the port carries it through the `if` around the `break` ≡; not
    when the port's `continue` hands on another value, nor when the body reads the value it started from."""
    ints = "tile<i32>, tile<i32>"
    head = ("%z = constant <i32: 0> : tile<i32>", "%m1 = constant <i32: -1> : tile<i32>",
            "%i1 = constant <i32: 1> : tile<i32>")

    def loop(init: str, first_break: str, search: list[str], cont: str) -> str:
        return prog(*STORE, ONES, *head, f"%r:2 = loop iter_values(%f = {init}, %j = %z) : {ints} -> {ints} {{",
                    "  %c = cmpi less_than %j, %arg1, signed : tile<i32> -> tile<i1>", "  if %c {", "  } else {",
                    f"    break {first_break}, %j : {ints}", "  }",
                    "  %d = cmpi greater_than %j, %arg2, signed : tile<i32> -> tile<i1>",
                    *("  " + s for s in search), f"  continue {cont} : {ints}", "}", store("%one", "%r#0"))
    python = loop("%z", "%m1", ["if %d {", f"  break %j, %j : {ints}", "} else {", "}",
                                "%n = addi %j, %i1 : tile<i32>"], "%m1, %n")
    port_search = [f"%y:2 = if %d -> ({ints}) {{", f"  break %j, %j : {ints}", "} else {",
                   f"  yield %f, %j : {ints}", "}", "%n = addi %y#1, %i1 : tile<i32>"]
    port = loop("%m1", "%f", port_search, "%y#0, %n")
    out = v(python, port)
    assert out["equivalent"] and fired(out, "loop-carried-unread") >= 2, out
    assert not v(python, loop("%m1", "%f", port_search, "%j, %n"))["equivalent"]
    reads_start = loop("%z", "%f", ["if %d {", f"  break %j, %j : {ints}", "} else {", "}",
                                    "%n = addi %j, %i1 : tile<i32>"], "%f, %n")
    assert not v(reads_start, port)["equivalent"]


def test_loop_results_unread():
    """A `while` left by a `break` handing a token nothing after the loop reads (round 23's hash_insert: cuTile Python
    breaks with a fresh `make_token`, the port hands the last atomic's token) ≡; not when the code after the loop
    reads that result (a store ordered on it), nor where a result that is read is handed another value."""
    ints = "tile<i32>, token"
    head = ("%z = constant <i32: 0> : tile<i32>", "%i1 = constant <i32: 1> : tile<i32>")
    part = "partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>"

    def loop(exit_tok: str, exit_j: str = "%j", after: tuple = ()) -> str:
        return prog(*STORE, ONES, *head, f"%r:2 = loop iter_values(%j = %z, %tk = %t0) : {ints} -> {ints} {{",
                    "  %c = cmpi less_than %j, %arg1, signed : tile<i32> -> tile<i1>", "  if %c {", "  } else {",
                    f"    break %j, %tk : {ints}", "  }",
                    f"  %w = store_view_tko weak %one, %pv[%j] token = %tk : tile<128xf32>, {part}, tile<i32> -> token",
                    "  %d = cmpi greater_than %j, %arg2, signed : tile<i32> -> tile<i1>", "  if %d {",
                    "    %mt = make_token : token", f"    break {exit_j}, {exit_tok} : {ints}", "  } else {", "  }",
                    "  %n = addi %j, %i1 : tile<i32>", f"  continue %n, %w : {ints}", "}", *after)
    python, port = loop("%mt"), loop("%w")
    out = v(python, port)
    assert out["equivalent"] and fired(out, "loop-results-unread") >= 1, out
    after = (store("%one", "%z", tok="%r#1"),)
    assert not v(loop("%mt", after=after), loop("%w", after=after))["equivalent"]
    read_j = (store("%one", "%r#0"),)
    assert v(loop("%mt", after=read_j), loop("%w", after=read_j))["equivalent"]
    assert not v(loop("%mt", after=read_j), loop("%w", exit_j="%i1", after=read_j))["equivalent"]


def test_fpowi_const():
    """cuTile Python's `x ** n` (Tile IR fpowi, a constant n) ≡ the products tileiras compiles it to, in its order:
    squares s1 = x*x, s2 = s1*s1, ..., the result started at the lowest set power, each later one multiplied on as
    mulf(s, result); f16/bf16 in f32, rounded once. Another association, the operands of a multiply swapped, a
    product in the narrow type, a negative exponent, 0, 1 of f32 and a runtime exponent stay different."""
    def kernel(elem: str, lines: list[str], val: str) -> str:
        load = (f"%x, %lt = load_view_tko weak %pv[%bx] token = %t0 : partition_view<tile=(128), "
                f"tensor_view<?x{elem}, strides=[1]>>, tile<i32> -> tile<128x{elem}>, token")
        return typed_store(elem, [load, *lines], val)

    def fpowi(elem: str, n: int | str) -> str:
        exponent = [f"%n = constant <i32: {n}> : tile<128xi32>"] if isinstance(n, int) else \
            [f"%n = broadcast {n} : tile<i32> -> tile<128xi32>"]
        return kernel(elem, [*exponent, f"%p = fpowi %x, %n : tile<128x{elem}>, tile<128xi32>"], "%p")

    def products(elem: str, *lines: str) -> str:
        return kernel(elem, list(lines), "%p")

    f32 = "tile<128xf32>"
    proven = {
        2: products("f32", f"%p = mulf %x, %x : {f32}"),
        3: products("f32", f"%a = mulf %x, %x : {f32}", f"%p = mulf %a, %x : {f32}"),
        4: products("f32", f"%a = mulf %x, %x : {f32}", f"%p = mulf %a, %a : {f32}"),
        7: products("f32", f"%a = mulf %x, %x : {f32}", f"%r = mulf %a, %x : {f32}", f"%b = mulf %a, %a : {f32}",
                    f"%p = mulf %b, %r : {f32}"),
        10: products("f32", f"%a = mulf %x, %x : {f32}", f"%b = mulf %a, %a : {f32}", f"%c = mulf %b, %b : {f32}",
                     f"%p = mulf %c, %a : {f32}"),
    }
    for n, port in proven.items():
        out = v(fpowi("f32", n), port)
        assert out["equivalent"] and fired(out, "fpowi-const") == 1, (n, out["differences"])
    # another association (((x*x)*x)*x), the operands of one multiply swapped (x * (x*x): the port writes one order)
    assert not v(fpowi("f32", 4), products("f32", f"%a = mulf %x, %x : {f32}", f"%b = mulf %a, %x : {f32}",
                                           f"%p = mulf %b, %x : {f32}"))["equivalent"]
    assert not v(fpowi("f32", 3), products("f32", f"%a = mulf %x, %x : {f32}", f"%p = mulf %x, %a : {f32}"))[
        "equivalent"]
    assert not v(fpowi("f32", 3), proven[2])["equivalent"]
    # f16/bf16: widened, multiplied in f32, rounded back once; not the products in the narrow type
    for elem in ("bf16", "f16"):
        t = f"tile<128x{elem}>"
        wide = products(elem, f"%w = ftof %x : {t} -> {f32}", f"%a = mulf %w, %w : {f32}",
                        f"%r = mulf %a, %w : {f32}", f"%p = ftof %r : {f32} -> {t}")
        out = v(fpowi(elem, 3), wide)
        assert out["equivalent"] and fired(out, "fpowi-const") == 1, elem
        narrow = products(elem, f"%a = mulf %x, %x : {t}", f"%p = mulf %a, %x : {t}")
        assert not v(fpowi(elem, 3), narrow)["equivalent"], elem
    # f64: the same products; n = 1 is x itself (tileiras emits no multiply), not so of f32 (it keeps x * 1)
    f64 = "tile<128xf64>"
    out = v(fpowi("f64", 3), products("f64", f"%a = mulf %x, %x : {f64}", f"%p = mulf %a, %x : {f64}"))
    assert out["equivalent"] and fired(out, "fpowi-const") == 1
    assert v(fpowi("f64", 1), kernel("f64", [], "%x"))["equivalent"]
    assert not v(fpowi("f32", 1), kernel("f32", [], "%x"))["equivalent"]
    # a negative exponent (a reciprocal), 0, and an exponent known only at run time stay fpowi
    one = "%one = constant <f32: 1.000000e+00> : tile<128xf32>"
    assert not v(fpowi("f32", -2), products("f32", one, f"%a = mulf %x, %x : {f32}",
                                            f"%p = divf %one, %a : {f32}"))["equivalent"]
    assert not v(fpowi("f32", 0), kernel("f32", [one], "%one"))["equivalent"]
    out = v(fpowi("f32", "%arg3"), proven[2])
    assert not out["equivalent"] and fired(out, "fpowi-const") == 0


def test_if_results_order():
    """Two tokens a loop carries through an `if` of two stores (two arrays' atomics in an `if` inside a loop, round
    19's r05 `segment_mean_sorted`): the `if` yielding them in the other order, the loop carrying them in the other
    order too (cutile orders both by name) ≡; not when the `if` hands each store's token to the other's slot."""
    def loop(swapped: bool, crossed: bool = False) -> str:
        wa, wb = ("%wb", "%wa") if crossed else ("%wa", "%wb")
        sa = store("%one", "%j", "%ta").replace("%s =", "%wa =")
        sb = store("%one", "%arg2", "%tb").replace("%s =", "%wb =")
        iters, yields, back, cont = ("%tb = %t0, %ta = %t0", f"{wb}, {wa}", "%tb, %ta", "%i#0, %i#1") if swapped \
            else ("%ta = %t0, %tb = %t0", f"{wa}, {wb}", "%ta, %tb", "%i#0, %i#1")
        return prog(*STORE, ONES, *LOOP, "%c = cmpi less_than %arg1, %arg2, signed : tile<i32> -> tile<i1>",
                    f"%f:2 = for %j in (%lo to %hi, step %st) : tile<i32> iter_values({iters}) -> (token, token) {{",
                    "  %i:2 = if %c -> (token, token) {", f"    {sa}", f"    {sb}", f"    yield {yields} : token, token",
                    "  } else {", f"    yield {back} : token, token", "  }", f"  continue {cont} : token, token", "}")
    out = v(loop(False), loop(True))
    assert out["equivalent"] and fired(out, "if-results-order") >= 1, out
    assert not v(loop(False), loop(True, crossed=True))["equivalent"]


def test_singleton_view_stride():
    """A rank-2 view of extent 1 along axis 1: cuTile Python's stride there, the constant 1 with an `assume div_by`
    (calling convention v2), ≡ the entry's stride argument (cutile's); not along an axis whose extent is not 1."""
    head = ("entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, "
            "%arg4: tile<i32>) {")

    def view(extent: str, stride: list[str], stride_op: str) -> list[str]:
        ty = f"tensor_view<?x{extent}xf32, strides=[1,?]>"
        shape = f"[%arg1, {'%arg2' if extent == '?' else extent}]"
        return [*stride,
                f"%tv = make_tensor_view %arg0, shape = {shape}, strides = [1, {stride_op}] : tile<i32> -> {ty}",
                f"%pv = make_partition_view %tv : partition_view<tile=(128x1), {ty}>",
                "%t0 = make_token : token", ONES.replace("128xf32", "128x1xf32"), BID,
                "%z = constant <i32: 0> : tile<i32>",
                f"%s = store_view_tko weak %one, %pv[%bx, %z] token = %t0 : tile<128x1xf32>, "
                f"partition_view<tile=(128x1), {ty}>, tile<i32> -> token"]

    python = ["%c1 = constant <i32: 1> : tile<i32>", "%d = assume div_by<4>, %c1 : tile<i32>"]
    rust = ["%b = assume bounded<0, ?>, %arg4 : tile<i32>", "%d = assume div_by<4>, %b : tile<i32>"]
    out = v(prog(*view("1", python, "%d"), head=head), prog(*view("1", rust, "%d"), head=head))
    assert out["equivalent"] and fired(out, "singleton-view-stride") == 2
    # Counter-example: a dynamic extent along that axis; the stride then places rows 1.. apart: a difference.
    out = v(prog(*view("?", python, "%d"), head=head), prog(*view("?", rust, "%d"), head=head))
    assert not out["equivalent"] and fired(out, "singleton-view-stride") == 0


def test_fold_minmax_constants():
    """`ct.minimum(ct.maximum(w, 0.0), 1.0)` of a constant w (round 21b's `lerp_rows`: a helper's default weight
    clamped under a constant `if`): cuTile Python folds it to the constant w, cutile emits maxf/minf of the
    constants. Folded to the operand picked, chains too; not for another value, nor for zeros of opposite signs."""
    def folded(w: str) -> str:
        return prog(*STORE, f"%w = constant <f32: {w}> : tile<f32>", ONES, "%r = reshape %w : tile<f32> -> tile<1xf32>",
                    "%b = broadcast %r : tile<1xf32> -> tile<128xf32>", "%y = mulf %one, %b : tile<128xf32>",
                    store("%y", "%arg2"))

    def clamped(w: str, lo: str = "0.000000e+00") -> str:
        return prog(*STORE, f"%w = constant <f32: {w}> : tile<f32>", f"%lo = constant <f32: {lo}> : tile<f32>",
                    "%m = maxf %w, %lo : tile<f32>", "%hi = constant <f32: 1.000000e+00> : tile<f32>",
                    "%c = minf %m, %hi : tile<f32>", ONES, "%r = reshape %c : tile<f32> -> tile<1xf32>",
                    "%b = broadcast %r : tile<1xf32> -> tile<128xf32>", "%y = mulf %one, %b : tile<128xf32>",
                    store("%y", "%arg2"))
    out = v(folded("2.500000e-01"), clamped("2.500000e-01"))
    assert out["equivalent"] and fired(out, "fold-minmax-constants") == 2
    assert v(folded("1.000000e+00"), clamped("3.000000e+00"))["equivalent"]
    assert v(folded("0.000000e+00"), clamped("-2.000000e+00"))["equivalent"]
    assert not v(folded("2.500000e-01"), clamped("5.000000e-01"))["equivalent"]
    zeros = v(folded("0.000000e+00"), clamped("-0.000000e+00"))   # (maxf of -0 and +0: left, and the minf after it)
    assert not zeros["equivalent"] and fired(zeros, "fold-minmax-constants") == 0


def test_if_constant_condition():
    """`%r = if (cmpi equal 1, 1) { yield 1.0 } else { yield 0.0 }` (cuTile Python's `1.0 if s1 == 1 else 0.0` of
    a stride known at the launch) ≡ the value the arm taken yields (the port, cutile folded it); not the other arm's,
    not a condition that is no constant, and not an arm that leaves the loop around it."""
    cond = ["%a = constant <i32: 1> : tile<i32>", "%b = constant <i32: 1> : tile<i32>",
            "%c = cmpi equal %a, %b, signed : tile<i32> -> tile<i1>"]
    arms = ["%r = if %c -> (tile<128xf32>) {", "  %p = constant <f32: 2.000000e+00> : tile<128xf32>",
            "  yield %p : tile<128xf32>", "} else {", "  %q = constant <f32: 3.000000e+00> : tile<128xf32>",
            "  yield %q : tile<128xf32>", "}"]
    python = prog(*STORE, ONES, *cond, *arms, "%s2 = addf %r, %one : tile<128xf32>", store("%s2", "%arg2"))

    def port(v_: str) -> str:
        return prog(*STORE, ONES, f"%p = constant <f32: {v_}> : tile<128xf32>", "%s2 = addf %p, %one : tile<128xf32>",
                    store("%s2", "%arg2"))
    out = v(python, port("2.000000e+00"))
    assert out["equivalent"] and fired(out, "if-constant-condition") == 1, out
    assert not v(python, port("3.000000e+00"))["equivalent"]
    assert v(python.replace("cmpi equal", "cmpi not_equal"), port("3.000000e+00"))["equivalent"]
    runtime = python.replace("%c = cmpi equal %a, %b", "%c = cmpi equal %arg2, %b")
    assert not v(runtime, port("2.000000e+00"))["equivalent"]
    # an arm with effects: its store in place of the `if`
    eff = prog(*STORE, ONES, *cond, "if %c {", "  " + store("%one", "%arg2"), "} else {", "  " + store("%one", "%arg3"),
               "}")
    assert v(eff, prog(*STORE, ONES, store("%one", "%arg2")))["equivalent"]
    assert not v(eff, prog(*STORE, ONES, store("%one", "%arg3")))["equivalent"]


def test_argmax_two_reductions():
    """cuTile Python's arg-max / arg-min (one reduce of values and indices, cuda.tile 1.7's comparison body) ≡ the
    value's reduction, then the least index where x equals it or the best is NaN (integers: where x equals it) —
    the port's two reductions. Without the NaN term, with the greatest index, with the other reduction, or with
    another body (the tie to the greater index) it stays different."""
    x = ["%xi = iota : tile<2048xi32>", "%xf = itof %xi signed : tile<2048xi32> -> tile<2048xf32>",
         "%x = reshape %xf : tile<2048xf32> -> tile<128x16xf32>"]
    idx = ["%io = iota : tile<16xi32>", "%ir = reshape %io : tile<16xi32> -> tile<1x16xi32>",
           "%ib = broadcast %ir : tile<1x16xi32> -> tile<128x16xi32>"]
    f, b, i = "tile<128x16xf32>", "tile<128x16xi1>", "tile<128x16xi32>"

    def reference(cmp: str = "greater_than", tie: str = "less_than") -> str:
        body = ["(%l0: tile<f32>, %r0: tile<f32>, %l1: tile<i32>, %r1: tile<i32>) {",
                f"  %c0 = cmpf {cmp} ordered %l0, %r0 : tile<f32> -> tile<i1>",
                "  %c1 = cmpf equal ordered %l0, %r0 : tile<f32> -> tile<i1>",
                "  %c2 = cmpf not_equal unordered %l0, %l0 : tile<f32> -> tile<i1>",
                "  %c3 = cmpf not_equal unordered %r0, %r0 : tile<f32> -> tile<i1>",
                "  %c4 = cmpf equal ordered %l0, %l0 : tile<f32> -> tile<i1>",
                "  %c5 = andi %c4, %c3 : tile<i1>", "  %c6 = ori %c0, %c5 : tile<i1>",
                "  %c7 = andi %c2, %c3 : tile<i1>", "  %c8 = ori %c1, %c7 : tile<i1>",
                f"  %c9 = cmpi {tie} %l1, %r1, signed : tile<i32> -> tile<i1>",
                "  %c10 = andi %c8, %c9 : tile<i1>", "  %c11 = ori %c6, %c10 : tile<i1>",
                "  %c12 = select %c11, %l0, %r0 : tile<i1>, tile<f32>",
                "  %c13 = select %c11, %l1, %r1 : tile<i1>, tile<i32>",
                "  yield %c12, %c13 : tile<f32>, tile<i32>", "}"]
        ident = "0xFF800000" if cmp == "greater_than" else "0x7F800000"
        return typed_store("i32", [*x, *idx, f"%red:2 = reduce %x, %ib dim=1 identities=[{ident} : f32, 0 : i32] : "
                                   f"{f}, {i} -> tile<128xf32>, tile<128xi32>", *body], "%red#1")

    def port(best: str = "maxf", nan: bool = True, pick: str = "mini") -> str:
        ident = "0xFF800000" if best == "maxf" else "0x7F800000"
        hit = ["%eq = cmpf equal ordered %x, %bb : " + f"{f} -> {b}"]
        if nan:
            hit += ["%nan = cmpf not_equal unordered %keep, %keep : tile<128x1xf32> -> tile<128x1xi1>",
                    f"%nb = broadcast %nan : tile<128x1xi1> -> {b}", f"%hit = ori %eq, %nb : {b}"]
        return typed_store("i32", [
            *x, f"%best = reduce %x dim=1 identities=[{ident} : f32] : {f} -> tile<128xf32>",
            "(%l: tile<f32>, %r: tile<f32>) {", f"  %m = {best} %l, %r : tile<f32>", "  yield %m : tile<f32>", "}",
            "%keep = reshape %best : tile<128xf32> -> tile<128x1xf32>",
            f"%bb = broadcast %keep : tile<128x1xf32> -> {f}", *hit, *idx,
            "%big0 = constant <i32: 2147483647> : tile<i32>", "%big1 = reshape %big0 : tile<i32> -> tile<1x1xi32>",
            f"%big = broadcast %big1 : tile<1x1xi32> -> {i}",
            f"%sel = select {'%hit' if nan else '%eq'}, %ib, %big : {b}, {i}",
            f"%index = reduce %sel dim=1 identities=[{2147483647 if pick == 'mini' else -2147483648} : i32] : "
            f"{i} -> tile<128xi32>",
            "(%l: tile<i32>, %r: tile<i32>) {", f"  %m = {pick} %l, %r signed : tile<i32>",
            "  yield %m : tile<i32>", "}"], "%index")

    out = v(reference(), port())
    assert out["equivalent"] and fired(out, "argmax-two-reductions") == 1, out["differences"]
    assert v(reference("less_than"), port("minf"))["equivalent"]
    assert not v(reference(), port(nan=False))["equivalent"]          # an all-NaN row: index 0 vs none
    assert not v(reference(), port(pick="maxi"))["equivalent"]        # the greatest index among ties
    assert not v(reference(), port("minf"))["equivalent"]             # arg-max is not the min's index
    assert not v(reference(tie="greater_than"), port())["equivalent"]  # another body: ties to the greater index


def test_dead_pure_for():
    """A `for` of pure ops whose results nothing reads (cuTile Python's dead-code elimination drops it, cutile keeps
    it) is dead; one that stores, or whose result is read, is not."""
    loop = ["%c0 = constant <i32: 0> : tile<i32>", "%c4 = constant <i32: 4> : tile<i32>",
            "%c1 = constant <i32: 1> : tile<i32>", ONES,
            "%for = for %i in (%c0 to %c4, step %c1) : tile<i32> iter_values(%acc = %one) -> (tile<128xf32>) {",
            "  %d = addf %acc, %one : tile<128xf32>", "  continue %d : tile<128xf32>", "}"]
    plain = prog(*STORE, BID, ONES, store("%one", "%bx"))
    dead = prog(*STORE, BID, *loop, store("%one", "%bx"))
    out = v(plain, dead)
    assert out["equivalent"], out["differences"]
    read = prog(*STORE, BID, *loop, store("%for", "%bx"))
    assert not v(plain, read)["equivalent"]
    storing = [*loop[:5], "  %s2 = store_view_tko weak %acc, %pv[%bx] token = %t0 : tile<128xf32>, "
               "partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token", *loop[5:]]
    assert not v(plain, prog(*STORE, BID, *storing, store("%one", "%bx")))["equivalent"]
