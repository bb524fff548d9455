"""Differential fuzzing of the translator: random well-typed cuTile Python kernels over supported constructs.

Each generated kernel is analyzed, translated, built (all of a batch in one cargo build) and compared with its
reference IR. The contract: every kernel is either proven IR-equivalent or refused with a located error — an
``unproven`` result (Rust that builds but differs) is a silent mismatch and fails the run.

``tests/test_fuzz.py`` runs a CI-sized batch; ``scripts/fuzz_port.py`` runs larger ones.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from hypothesis import strategies as st

from .frontends.cutile_py.loader import load_kernel
from .pipeline.port import port_many
from .spec.signature import bind, parse
from .toolchain.locate import CudaTree

PADDINGS = ["", ", padding_mode=ct.PaddingMode.ZERO", ", padding_mode=ct.PaddingMode.NEG_INF",
            ", padding_mode=ct.PaddingMode.POS_INF", ", padding_mode=ct.PaddingMode.NAN"]
LITERALS = ["0.5", "2.0", "3.0", "0.125", "1.5"]
ROUNDINGS = ["RN", "RZ", "RM", "RP"]
SIGNATURE = "x0=f32[?]/1, x1=f32[?]/1, y=f32[?]/1, s=f32, TILE=#{tile}"
ROW_SIGNATURE = "x0=f32[?,?]/?,1, x1=f32[?,?]/?,1, y=f32[?,?]/?,1, s=f32, BM=#{bm}, BN=#{bn}"
COMPARES = ["<", "<=", ">", ">=", "==", "!="]
REDUCTIONS = ["sum", "max", "min"]

#: 2-D family: a row block, an element-wise expression, a row reduction broadcast back (softmax/norm-like)
ROW_TEMPLATE = '''import cuda.tile as ct


@ct.kernel
def {name}(x0, x1, y, s: float, BM: ct.Constant[int], BN: ct.Constant[int]):
    bid = ct.bid(0)
    a = ct.load(x0, index=(bid, 0), shape=(BM, BN){pad_a})
    b = ct.load(x1, index=(bid, 0), shape=(BM, BN){pad_b})
    v = {expr}
    r = ct.{red}(v, axis=1, keepdims=True)
    ct.store(y, index=(bid, 0), tile={final})
'''

#: gather family: indices gathered from an i32 array, values gathered through them (1-D, stride 1), then the usual
#: element-wise expression over the gathered tile `a` and a plain tile load `b`
GATHER_SIGNATURE = "x0=f32[?]/1, x1=i32[?]/1, y=f32[?]/1, s=f32, TILE=#{tile}"
GATHER_TEMPLATE = '''import cuda.tile as ct


@ct.kernel
def {name}(x0, x1, y, s: float, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    pos = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    ids = ct.gather(x1, pos{imask}, padding_value={ipad})
    a = ct.gather(x0, ids{shift}{amask}, padding_value={apad})
    b = ct.load(x0, index=(bid,), shape=(TILE,){pad_b})
    v = {expr}
    ct.store(y, index=(bid,), tile=v)
'''

#: atomic family: ids gathered as in the gather family, an element-wise value over gathered and loaded tiles, and
#: an atomic add of it (or of 1 into an i32 y) at the ids — loads of arrays the kernel never writes come first
ATOMIC_SIGNATURE = "x0=f32[?]/1, x1=i32[?]/1, y={ydt}[?]/1, s=f32, TILE=#{tile}"
ATOMIC_TEMPLATE = '''import cuda.tile as ct


@ct.kernel
def {name}(x0, x1, y, s: float, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    pos = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    ids = ct.gather(x1, pos{imask}, padding_value={ipad})
    a = ct.gather(x0, pos, padding_value=0.0)
    b = ct.load(x0, index=(bid,), shape=(TILE,){pad_b})
    v = {expr}
    ct.atomic_add(y, ids{shift}, {update}{options})
'''
ATOMIC_OPTIONS = ["", ", memory_order=ct.MemoryOrder.RELAXED", ", memory_scope=ct.MemoryScope.BLOCK",
                  ", memory_order=ct.MemoryOrder.ACQ_REL, memory_scope=ct.MemoryScope.DEVICE"]

#: loop family: an accumulator over the column tiles (a K loop), element-wise work per step
LOOP_TEMPLATE = '''import cuda.tile as ct


@ct.kernel
def {name}(x0, x1, y, s: float, BM: ct.Constant[int], BN: ct.Constant[int]):
    bid = ct.bid(0)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range({bound}):
        a = ct.load(x0, index=(bid, k), shape=(BM, BN){pad_a})
        b = ct.load(x1, index=(bid, k), shape=(BM, BN){pad_b})
        acc = acc + {expr}
    ct.store(y, index=(bid, 0), tile=ct.sum(acc, axis=1, keepdims=True))
'''

TEMPLATE = '''import cuda.tile as ct


@ct.kernel
def {name}(x0, x1, y, s: float, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    a = ct.load(x0, index=({index_a},), shape=(TILE,){pad_a})
    b = ct.load(x1, index=(bid,), shape=(TILE,){pad_b})
    v = {expr}
    ct.store(y, index=(bid,), tile=v)
'''


@st.composite
def _tile_index(draw) -> str:
    """A computed tile index for a padded load: bid combined with literals by + - * // % (Python's floor division and
    remainder), every operation touching bid (literal-only subexpressions are folded by cuTile Python, a different
    matter), grouping made explicit."""
    e = "bid"
    for _ in range(draw(st.integers(0, 3))):
        lit, op = draw(st.sampled_from(["1", "2", "3"])), draw(st.sampled_from(["+", "-", "*", "//", "%"]))
        e = f"({e} {op} {lit})" if draw(st.booleans()) else f"({lit} {op} {e})"
    return e


def _leaf() -> st.SearchStrategy[str]:
    return st.sampled_from(["a", "b"])


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    operand = st.one_of(inner, st.sampled_from(LITERALS + ["s"]))
    binop = st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), operand).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})")
    rbinop = st.tuples(st.sampled_from(LITERALS + ["s"]), st.sampled_from(["+", "-", "*", "/"]), inner).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})")
    unary = st.tuples(st.sampled_from(["-{}", "ct.exp({})", "ct.tanh({})", "ct.sqrt({})", "ct.abs({})", "ct.log2({})",
                                       "ct.sin({})", "ct.tan({})", "ct.sinh({})", "ct.cosh({})", "ct.floor({})"]),
                      inner).map(lambda t: t[0].format(t[1]))
    ftz = st.tuples(st.sampled_from(["ct.exp2({}, flush_to_zero={})", "ct.rsqrt({}, flush_to_zero={})"]), inner,
                    st.booleans()).map(lambda t: t[0].format(t[1], t[2]))
    rounded = st.tuples(st.sampled_from(["add", "sub", "mul", "truediv"]), inner, operand,
                        st.sampled_from(ROUNDINGS), st.booleans()).map(
        lambda t: f"ct.{t[0]}({t[1]}, {t[2]}, rounding_mode=ct.RoundingMode.{t[3]}, flush_to_zero={t[4]})")
    minmax = st.tuples(st.sampled_from(["maximum", "minimum", "pow", "atan2"]), inner, operand).map(
        lambda t: f"ct.{t[0]}({t[1]}, {t[2]})")
    where = st.tuples(inner, st.sampled_from(COMPARES), operand, inner, operand).map(
        lambda t: f"ct.where({t[0]} {t[1]} {t[2]}, {t[3]}, {t[4]})")
    return st.one_of(binop, rbinop, unary, ftz, rounded, minmax, where)


EXPRS = st.recursive(_leaf(), _extend, max_leaves=6)


@st.composite
def kernels(draw, index: int = 0) -> tuple[str, str]:
    """(python source, signature text) of one random kernel: element-wise (1-D), row-reduction (2-D) or K-loop."""
    family = draw(st.sampled_from(["elementwise", "elementwise", "rows", "loop", "gather", "atomic"]))
    if family == "gather":
        return draw(_gather(index))
    if family == "atomic":
        return draw(_atomic(index))
    if family != "elementwise":
        return draw(_two_d(family, index))
    e1, e2, e3 = draw(EXPRS), draw(EXPRS), draw(EXPRS)
    form = draw(st.sampled_from(["single", "binary", "fma", "fma-right", "fma-binding"]))
    prelude = ""
    if form == "single":
        expr = e1 if e1 not in ("a", "b") else f"({e1} * 2.0)"
    elif form == "binary":
        expr = f"({e1} {draw(st.sampled_from(['+', '-', '*', '/']))} {e2})"
    elif form == "fma":
        expr = f"{e1} * {e2} + {e3}"
    elif form == "fma-right":
        expr = f"{e3} + {e1} * {e2}"
    else:  # the product bound to a name first: cuTile Python may still contract it
        prelude = f"    m = {e1} * {e2}\n"
        expr = f"m + {e3}"
    name = f"fz{index}"
    pad_a = draw(st.sampled_from(PADDINGS))
    index_a = draw(_tile_index()) if pad_a else "bid"   # an unpadded load at a computed index is refused
    src = TEMPLATE.format(name=name, pad_a=pad_a, pad_b=draw(st.sampled_from(PADDINGS)), index_a=index_a,
                          expr=expr).replace("    v = ", prelude + "    v = ")
    return src, SIGNATURE.format(tile=draw(st.sampled_from([64, 256, 1024])))


@st.composite
def _gather(draw, index: int) -> tuple[str, str]:
    masks = ["", ", mask=pos < x1.shape[0]", ", mask=pos >= 3", ", mask=(pos < x1.shape[0]) & (pos != 7)"]
    src = GATHER_TEMPLATE.format(name=f"fz{index}", imask=draw(st.sampled_from(masks)),
                                 ipad=draw(st.sampled_from(["0", "-1", "5"])),
                                 shift=draw(st.sampled_from(["", " + 1", " * 2"])),
                                 amask=draw(st.sampled_from(["", ", mask=ids >= 0", ", mask=ids < x0.shape[0]"])),
                                 apad=draw(st.sampled_from(["0.0", "1.5", "-2.0"])),
                                 pad_b=draw(st.sampled_from(PADDINGS)), expr=draw(EXPRS))
    return src, GATHER_SIGNATURE.format(tile=draw(st.sampled_from([64, 256, 1024])))


@st.composite
def _atomic(draw, index: int) -> tuple[str, str]:
    counting = draw(st.booleans())  # an i32 y counting ids, else an f32 y summing the values
    src = ATOMIC_TEMPLATE.format(name=f"fz{index}", imask=draw(st.sampled_from(["", ", mask=pos < x1.shape[0]"])),
                                 ipad=draw(st.sampled_from(["0", "-1"])),
                                 shift=draw(st.sampled_from(["", " + 1", " * 2"])),
                                 pad_b=draw(st.sampled_from(PADDINGS)), expr=draw(EXPRS),
                                 update="1" if counting else "v", options=draw(st.sampled_from(ATOMIC_OPTIONS)))
    return src, ATOMIC_SIGNATURE.format(ydt="i32" if counting else "f32", tile=draw(st.sampled_from([64, 256, 1024])))


@st.composite
def _two_d(draw, family: str, index: int) -> tuple[str, str]:
    expr = draw(EXPRS)
    fields = dict(name=f"fz{index}", pad_a=draw(st.sampled_from(PADDINGS)), pad_b=draw(st.sampled_from(PADDINGS)),
                  expr=expr)
    sig = ROW_SIGNATURE.format(bm=draw(st.sampled_from([1, 4, 16])), bn=draw(st.sampled_from([64, 256])))
    if family == "rows":
        final = draw(st.sampled_from(["v - r", "v * r", "r * s + v", "ct.exp(v - r)", "ct.where(v >= r, v, r)"]))
        return ROW_TEMPLATE.format(red=draw(st.sampled_from(REDUCTIONS)), final=final, **fields), sig
    bound = draw(st.sampled_from(["ct.num_tiles(x0, axis=1, shape=(BM, BN))", "ct.cdiv(x0.shape[1], BN)"]))
    return LOOP_TEMPLATE.format(bound=bound, **fields), sig


@dataclass
class Case:
    name: str
    dir: Path
    outcome: str = ""      # proven | refused | unproven | error
    detail: str = ""


def run_batch(sources: list[tuple[str, str]], work: Path, tree: CudaTree,
              progress: Callable[[str], None] = lambda s: None) -> list[Case]:
    """Port every kernel of the batch through ``port_many`` (one cargo build for all of them)."""
    cases: list[Case] = []
    jobs = []
    t0 = time.perf_counter()
    for i, (src, sig_text) in enumerate(sources):
        name = f"fz{i}"
        src = src.replace("def fz0(", f"def {name}(") if f"def {name}(" not in src else src
        d = work / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "kernel_src.py").write_text(src)
        cases.append(Case(name, d))
        ref = f"{d / 'kernel_src.py'}::{name}"
        jobs.append((ref, [bind(parse(sig_text), load_kernel(ref).param_names, name)], [], d))
    verdicts = port_many(jobs, tree, "sm_90", work)
    progress(f"ported {len(cases)} kernels in {time.perf_counter() - t0:.1f} s")
    for case, verdict in zip(cases, verdicts):
        stages = verdict["stages"]
        if verdict["status"] == "proven":
            case.outcome = "proven"
        elif "construct" in stages.get("translate", {}):
            case.outcome, case.detail = "refused", stages["translate"]["error"]
        elif verdict["status"] == "unproven" and not any("error" in v for v in stages["irdiff"]["variants"]):
            case.outcome, case.detail = "unproven", json.dumps(stages["irdiff"]["differences"][:3])
        else:
            failed = next(s for s in ("analyze", "translate", "build", "irdiff") if not stages.get(s, {}).get("ok"))
            case.outcome, case.detail = "error", json.dumps(stages[failed])[:2000]
    return cases
