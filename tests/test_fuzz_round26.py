"""Differential fuzzing, round 26 (docs/translate.md): what the structural families of `tileport.fuzz` (control
flow, helpers, dtypes, shapes, memory) found, each a fixed fuzz case written out small and proven — all in one batch
(one cargo build) — and a refusal that stays, located."""
import re
import textwrap

import pytest

from tileport.fuzz import run_batch

FLOW = "x0=f32[?]/1, x1=f32[?]/1, y=f32[?]/1, s=f32, n=i32, TILE=#64, N=#{n}, MODE=#{mode}"
HEAD = '''import cuda.tile as ct


@ct.kernel
def fz0(x0, x1, y, s: float, n: int, TILE: ct.Constant[int], N: ct.Constant[int], MODE: ct.Constant[int]):
    bid = ct.bid(0)
'''

#: (what it was, body of the kernel, N, MODE) — each unproven or refused before its fix
CASES = {
    # a `continue` in a range with a step: refused ("`continue` outside a `for` over a range"); the stepped loop's
    # `continue` is its own, as in a unit-step range
    # a loop of pure ops whose result dies (acc re-assigned after it): cuTile Python's dead-code elimination drops
    # the loop, cutile keeps it (unproven: "if vs for", the slow draw's fz107); irdiff rule dead-pure-for
    "dead_pure_loop": ('''
        a = ct.load(x0, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.full((TILE,), 1.0, dtype=ct.float32)
        for k in range(1, N + n, 2):
            acc = ct.where(acc > s, acc, a) + a
        acc = ct.load(x0, index=(bid + 1,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO) * 0.5
        ct.store(y, index=(bid,), tile=acc)
    ''', 1, 0),
    "continue_in_stepped_range": ('''
        acc = ct.zeros((TILE,), dtype=ct.float32)
        for k in range(1, N + n, N):
            acc = acc + ct.load(x1, index=(k,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
            if bid > 1:
                continue
            acc *= 0.5
        ct.store(y, index=(bid,), tile=acc)
    ''', 2, 0),
    # a load read only under a constant `if` (on an int constant, written as a test of the const generics) whose arm
    # is not taken: cuTile Python folds the `if`, then drops the load; the port kept the load (unproven)
    "load_read_only_in_untaken_arm": ('''
        a = ct.load(x0, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.full((TILE,), 1.0, dtype=ct.float32)
        for k in range(0, n):
            if MODE == 0 and N > 1:
                acc -= ct.exp(a)
            acc *= 0.5
        ct.store(y, index=(bid,), tile=acc)
    ''', 1, 1),
    # a loop whose body only jumps (`for k1 in range(N): if c: continue`) inside another: cuTile Python drops
    # both, the port kept the outer one (its inner loop's index counted as a carried name)
    "loops_doing_nothing": ('''
        acc = ct.load(x0, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        for k2 in range(bid, N):
            for k1 in range(N):
                if bid > 1:
                    continue
        ct.store(y, index=(bid,), tile=acc)
    ''', 3, 0),
    # a constant `if` in a loop whose arm not taken assigns a carried tile: cuTile Python's loop carries it all the
    # same (passed on unchanged), cutile's carried nothing once it folded the `if` (unproven)
    "untaken_arm_assigns_a_carried_name": ('''
        a = ct.load(x0, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        acc = a * s
        for k in range(0, x1.shape[0] // TILE):
            if MODE >= 1:
                t = acc * 2.0
                acc = t - a
        ct.store(y, index=(bid,), tile=acc)
    ''', 1, 0),
    # a runtime `if` whose every statement is dropped (values nobody reads): cuTile Python drops the `if`, the
    # port wrote an empty one (unproven)
    "if_with_nothing_left": ('''
        acc = ct.load(x0, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        f = s * 0.5
        p, q = 0, 1
        if f > 0.0:
            p, q = q, p
        ct.store(y, index=(bid,), tile=acc)
    ''', 1, 0),
    # an empty stepped range known at translation time (`range(1, N, 2)` at N = 1): cutile stated `assume
    # bounded<1, 0>`, which Tile IR's verifier rejects (tileirdisasm failed on the port's bytecode: an error)
    "empty_stepped_range": ('''
        acc = ct.load(x0, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        for k in range(1, N, 2):
            acc = acc + ct.load(x1, index=(k,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, index=(bid,), tile=acc)
    ''', 1, 0),
    # arithmetic of constants typed by ct.astype (`ct.astype(q, ct.float32) * 0.5` of a constant q): cuTile Python
    # folds it to one constant, the port wrote a mulf of two (unproven)
    "typed_constants_folded": ('''
        a = ct.load(x0, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        q = 1
        ct.store(y, index=(bid,), tile=a + ct.astype(q, ct.float32) * 0.5 - ct.astype(q + 2, ct.float32) * s)
    ''', 3, 1),
}

#: (dtypes family) an integer tile with a Python float: cuTile Python computes in f32 (the stronger category of a
#: loosely typed constant wins) where the port typed the product as the integer tile (refused after, unproven
#: alone); an f64 tile's `%` / `//` of a float constant (refused: f32 only)
DTYPE_CASES = {
    "int_tile_times_float_literal": ('''import cuda.tile as ct


@ct.kernel
def fz0(x0, y, s: float, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    v = ct.load(x0, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    w = v % 5
    w = w * 0.5
    ct.store(y, index=(bid,), tile=min(w, s) + (v > 2) * 1.5)
''', "x0=u8[?]/1, y=f32[?]/1, s=f32, TILE=#64"),
    # bitwise operators and comparisons of i16 tiles (`^`, `|`, `&`, `~` as an xor with all ones, `>`, `==`): cutile
    # 0.3.1's operators and lt_tile & co. know no 16-bit integer tile ("Binary operation is not implemented for
    # Tile<i16, ..>": a cargo error); its andi / ori / xori and cmpi, as cuTile Python emits them
    "i16_bitwise": ('''import cuda.tile as ct


@ct.kernel
def fz0(x0, y, s: float, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    a = ct.load(x0, index=(bid,), shape=(TILE,))
    v = ct.astype(a, ct.int16)
    v = (v ^ ct.astype(a, v.dtype)) | (v & 7)
    v = ~v
    ct.store(y, index=(bid,), tile=ct.astype(v, ct.float32) + ct.where(v > 3, 1.0, 0.0) + ct.astype(v == 0, ct.float32))
''', "x0=u32[?]/1, y=f32[?]/1, s=f32, TILE=#256"),
    "f64_floor_mod_of_float_constants": ('''import cuda.tile as ct


@ct.kernel
def fz0(x0, y, s: float, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    v = ct.load(x0, index=(bid,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=v % 3.0 + v // 2.0)
''', "x0=f64[?]/1, y=f64[?]/1, s=f32, TILE=#64"),
}


@pytest.fixture(scope="module")
def verdicts(tree, tmp_path_factory):
    names = [*CASES, *DTYPE_CASES]
    sources = [(HEAD + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n",
                FLOW.format(n=n, mode=mode)) for body, n, mode in CASES.values()] + list(DTYPE_CASES.values())
    cases = run_batch(sources, tmp_path_factory.mktemp("fuzz26"), tree)
    return dict(zip(names, cases))


@pytest.mark.parametrize("name", [*CASES, *DTYPE_CASES])
def test_fixed_fuzz_case_is_proven(verdicts, name):
    case = verdicts[name]
    assert case.outcome == "proven", f"{case.outcome}: {case.detail[:800]}\n{(case.dir / 'kernel_src.py').read_text()}"


def test_break_in_a_stepped_range_stays_refused_with_its_location(tmp_path):
    """`break` in a range with a step: cuTile Python's break flag is written for unit-step ranges only; refused at
    the `break`, naming why (it said "outside a `for` over a range" before)."""
    from test_cutile_round21 import emit_resolved
    from tileport.translate.emit import Unsupported
    with pytest.raises(Unsupported) as exc:
        emit_resolved(tmp_path, """
         @ct.kernel
         def k(x, y, n: int, B: ct.Constant[int]):
             acc = ct.zeros((B,), dtype=ct.float32)
             for j in range(0, n, 2):
                 acc += ct.load(x, (j,), (B,), padding_mode=ct.PaddingMode.ZERO)
                 if j > 4:
                     break
             ct.store(y, (0,), acc)
         """, "x=f32[?]/1, y=f32[?]/1, n=i32, B=#64")
    assert re.search(r"k\.py:\d+:\d+: `break` in a `for` over a range with a step", str(exc.value)), str(exc.value)
