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

from .errors import TileportError
from .frontends.cutile_py.analyze import analyze
from .frontends.cutile_py.loader import load_kernel
from .irdiff.canon import parse_layout
from .irdiff.compare import compare_programs
from .irdiff.parse import parse as parse_ir
from .pipeline.port import translate
from .rustgen import crate as cratemod
from .spec.signature import bind, parse
from .toolchain.locate import CudaTree, run_tool
from .translate.emit import Unsupported

PADDINGS = ["", ", padding_mode=ct.PaddingMode.ZERO", ", padding_mode=ct.PaddingMode.NEG_INF",
            ", padding_mode=ct.PaddingMode.POS_INF", ", padding_mode=ct.PaddingMode.NAN"]
LITERALS = ["0.5", "2.0", "3.0", "0.125", "1.5"]
ROUNDINGS = ["RN", "RZ", "RM", "RP"]
SIGNATURE = "x0=f32[?]/1, x1=f32[?]/1, y=f32[?]/1, s=f32, TILE=#{tile}"

TEMPLATE = '''import cuda.tile as ct


@ct.kernel
def {name}(x0, x1, y, s: float, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    a = ct.load(x0, index=(bid,), shape=(TILE,){pad_a})
    b = ct.load(x1, index=(bid,), shape=(TILE,){pad_b})
    v = {expr}
    ct.store(y, index=(bid,), tile=v)
'''


def _leaf() -> st.SearchStrategy[str]:
    return st.sampled_from(["a", "b"])


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    operand = st.one_of(inner, st.sampled_from(LITERALS + ["s"]))
    binop = st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), operand).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})")
    rbinop = st.tuples(st.sampled_from(LITERALS + ["s"]), st.sampled_from(["+", "-", "*", "/"]), inner).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})")
    unary = st.tuples(st.sampled_from(["-{}", "ct.exp({})", "ct.tanh({})", "ct.sqrt({})", "ct.abs({})"]),
                      inner).map(lambda t: t[0].format(t[1]))
    ftz = st.tuples(st.sampled_from(["ct.exp2({}, flush_to_zero={})", "ct.rsqrt({}, flush_to_zero={})"]), inner,
                    st.booleans()).map(lambda t: t[0].format(t[1], t[2]))
    rounded = st.tuples(st.sampled_from(["add", "sub", "mul", "truediv"]), inner, operand,
                        st.sampled_from(ROUNDINGS), st.booleans()).map(
        lambda t: f"ct.{t[0]}({t[1]}, {t[2]}, rounding_mode=ct.RoundingMode.{t[3]}, flush_to_zero={t[4]})")
    minmax = st.tuples(st.sampled_from(["maximum", "minimum"]), inner, operand).map(
        lambda t: f"ct.{t[0]}({t[1]}, {t[2]})")
    return st.one_of(binop, rbinop, unary, ftz, rounded, minmax)


EXPRS = st.recursive(_leaf(), _extend, max_leaves=6)


@st.composite
def kernels(draw, index: int = 0) -> tuple[str, str]:
    """(python source, signature text) of one random kernel."""
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
    src = TEMPLATE.format(name=name, pad_a=draw(st.sampled_from(PADDINGS)), pad_b=draw(st.sampled_from(PADDINGS)),
                          expr=expr).replace("    v = ", prelude + "    v = ")
    return src, SIGNATURE.format(tile=draw(st.sampled_from([64, 256, 1024])))


@dataclass
class Case:
    name: str
    dir: Path
    outcome: str = ""      # proven | refused | unproven | error
    detail: str = ""


def run_batch(sources: list[tuple[str, str]], work: Path, tree: CudaTree,
              progress: Callable[[str], None] = lambda s: None) -> list[Case]:
    """Port every kernel of the batch; one cargo build for all of them."""
    cases: list[Case] = []
    t0 = time.perf_counter()
    for i, (src, sig_text) in enumerate(sources):
        name = f"fz{i}"
        src = src.replace("def fz0(", f"def {name}(") if f"def {name}(" not in src else src
        d = work / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "kernel_src.py").write_text(src)
        case = Case(name, d)
        cases.append(case)
        try:
            k = load_kernel(f"{d / 'kernel_src.py'}::{name}")
            analyze(k, [bind(parse(sig_text), k.param_names, name)], [], tree, d)
            translate(d, tree)
        except Unsupported as exc:
            case.outcome, case.detail = "refused", str(exc)
        except TileportError as exc:
            case.outcome, case.detail = "error", str(exc)
    progress(f"analyzed and translated {len(cases)} kernels in {time.perf_counter() - t0:.1f} s")
    todo = [c for c in cases if not c.outcome]
    if todo:
        t1 = time.perf_counter()
        binary = cratemod.build(work, tree, {c.name: str((c.dir / "kernel.rs").resolve()) for c in todo})
        progress(f"built {len(todo)} ports in one crate in {time.perf_counter() - t1:.1f} s")
        for c in todo:
            manifest = json.loads((c.dir / "port.json").read_text())
            v = manifest["variants"][0]
            out = c.dir / "rust.tileirbc"
            try:
                cratemod.irgen(binary, tree, f"{c.name}/{v['entry']}", out, v["generics"], v["strides"], "sm_90",
                               v.get("specs"))
            except TileportError as exc:
                c.outcome, c.detail = "error", str(exc)
                continue
            ref = (c.dir / v["reference"]).with_suffix(".tileir.txt").read_text()
            rust = run_tool(tree, "tileirdisasm", [str(out)]).stdout
            verdict = compare_programs(parse_ir(ref), parse_ir(rust), layout_b=parse_layout(v["layout"]),
                                       unit_grid_b=frozenset(v.get("unit_grid", [])))
            c.outcome = "proven" if verdict["equivalent"] else "unproven"
            if not verdict["equivalent"]:
                c.detail = json.dumps(verdict["differences"][:3])
    return cases
