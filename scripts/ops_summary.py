"""The operator library's summary table (docs/ops-summary.md), generated from committed results only:

- rust/tileport-ops/ports.json: each op's port status and ported specializations (variants);
- benchmarks/results/h200/verification/runtime/gpu-tests*.log: GPU test outcomes per op (both backends);
- benchmarks/results/h200/**/bench.json (not earlier/): kernel times of both backends at LLM sizes, % of the ceiling
  (device copy bandwidth for memory-bound ops, torch's product for matrix products), the ratio rust/python and the
  ratio to PyTorch's eager op; each op from the newest run that measured it;
- benchmarks/results/h200/size-scaling/sizes-*.json (benchmarks/probes/size_scaling.py, in name order, each (op, dtype) from
  the last file that measured it): the memory-bound ops at 1x, 2x, 4x the tokens of their large case, against the
  1 GiB copy and a copy of the same bytes.

Families are those of the operator-library issues; a family lists the ops (kernels) that implement it.

    python scripts/ops_summary.py            # writes docs/ops-summary.md
    python scripts/ops_summary.py --check    # exit 1 when the committed file is not what this writes
"""
from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from tileport.bench.runner import PARITY, apply_ceiling
from tileport.ops.registry import OPS

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "ops-summary.md"
#: family → the ops implementing it (library I's fourteen families first, then the other ops of the library)
FAMILIES = {
    "relu": ["relu", "leaky_relu"], "gelu": ["gelu_tanh", "gelu_erf"], "silu_and_mul": ["silu_and_mul"],
    "swiglu": ["swiglu"], "geglu": ["geglu"], "dropout": ["dropout"], "rms_norm": ["rms_norm"],
    "layer_norm": ["layer_norm"], "softmax": ["row_softmax"], "rope": ["rope"],
    "matmul": ["matmul", "matmul_hints", "matmul_tf32", "linear"], "bmm": ["bmm"], "group_gemm": ["group_gemm"],
    "splitk_reduce": ["splitk_reduce"],
    "attention (library II)": ["attention"],
    "flash decode": ["flash_decode", "decode_combine"], "attention with sinks": ["attention_sinks"],
    "gemma attention": ["gemma_attention", "gemma_decode"], "MLA": ["mla_prefill", "mla_decode"],
    "fused MoE": ["fused_moe"], "moe_align_block": ["moe_align_block"],
    "gated delta rule": ["gated_delta_chunked", "gated_delta_recurrent"],
    "(other ops)": ["vector_add", "scale_cast", "bias_act", "persistent_scale", "causal_mask", "masked_rowsum",
                    "softcap", "expert_offsets", "token_gather", "token_scatter", "transpose", "histogram"],
}
#: library I's fourteen families (the first entries of FAMILIES): their parity is also reported together
LIBRARY_I = list(FAMILIES)[:14]
#: the Triton examples' ops (issue 8): each against the Triton kernel it was ported from
TRITON = ["triton_vector_add", "triton_softmax", "triton_rms_norm", "triton_layer_norm", "triton_swiglu",
          "triton_dropout", "triton_matmul", "triton_attention", "triton_gather"]
TRITON_TEST_ID = re.compile(r"^(PASSED|FAILED|ERROR) tests/gpu/test_triton_gpu\.py::test_port_matches_the_triton_kernel"
                            r"\[(\w+?)-(float32|float16|bfloat16)-(\w+)\]", re.M)
TEST_ID = re.compile(r"^(PASSED|FAILED|ERROR) tests/gpu/test_ops_gpu\.py::test_op_matches_reference\[(\w+?)-"
                     r"(float32|float16|bfloat16|int32)-(\w+)-(cutile|cutile-rs)\]", re.M)


def _geomean(xs: list[float]) -> float | None:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _interval_text(xs: list[float]) -> str:
    """' (95% interval of the geomean, from the measurements' spread: lo–hi)': mean log ratio ± 1.96 standard
    errors, each measurement taken as independent (a run's noise, not a bias, moves it)."""
    if len(xs) < 3:
        return ""
    logs = [math.log(x) for x in xs]
    mean, se = statistics.fmean(logs), statistics.stdev(logs) / math.sqrt(len(logs))
    return f" (95% interval of the geomean, from the measurements' spread: {math.exp(mean - 1.96 * se):.4f}–" \
           f"{math.exp(mean + 1.96 * se):.4f})"


def gather() -> dict:
    ports = json.loads((REPO / "rust" / "tileport-ops" / "ports.json").read_text())["ops"]
    logs = [log.read_text() for log in sorted((REPO / "docs" / "verification" / "h200" / "runtime")
                                              .glob("gpu-tests*.log"))]
    bench: dict[str, list[dict]] = defaultdict(list)
    newest: dict[str, str] = {}   # op → start time of the newest run that measured it (each op from one run)
    sweeps = []
    for path in sorted((REPO / "benchmarks" / "results" / "h200").rglob("bench.json")):
        if "earlier" in path.parts:
            continue
        record = json.loads(path.read_text())
        for row in record["results"]:   # the percentages by today's ceiling rule (the op's CEILING), as bench sets them
            if row["op"] in OPS and "backends" in row:
                apply_ceiling(row, getattr(OPS[row["op"]], "CEILING", "auto"), record.get("ceilings", {}))
        if any(re.fullmatch(r"\d+x\d+", c) for c in record.get("options", {}).get("cases", [])):
            sweeps.append(record | {"file": str(path.relative_to(REPO))})   # tokens x hidden: its own table
            continue
        for row in record["results"]:
            op, started = row["op"], record["started"]
            if newest.get(op, "") < started:
                newest[op], bench[op] = started, []
            if newest[op] == started:
                bench[op].append(row | {"file": str(path.relative_to(REPO))})
    sizes = {}   # (op, dtype) → (file, its rows), the last file in name order that measured it
    for path in sorted((REPO / "benchmarks" / "results" / "h200" / "size-scaling").glob("sizes-*.json")):
        record = json.loads(path.read_text())
        for key in dict.fromkeys((r["op"], r["dtype"]) for r in record["results"]):
            sizes[key] = (path.name, record["copy_1GiB_GBps"], [r for r in record["results"]
                                                                 if (r["op"], r["dtype"]) == key])
    return {"ports": ports, "tests": _test_counts(logs, TEST_ID), "bench": bench,
            "triton_tests": _test_counts(logs, TRITON_TEST_ID), "sweeps": sweeps, "sizes": sizes}


def _test_counts(logs: list[str], test_id: re.Pattern) -> dict[str, dict[str, int]]:
    """op → outcome → count of the tests ``test_id`` matches (outcome, op, then the rest of the test's id). An op
    re-run in a later log: each log holds its full set, the larger one (or one with failures) is kept."""
    tests: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for text in logs:
        # a run cut short by its time limit has no -rA summary: read its -v lines ("ID PASSED [ 5%]") the same way
        text = re.sub(r"^(tests/\S+) (PASSED|FAILED|ERROR)\b.*$", r"\2 \1", text, flags=re.M)
        counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        seen = set()
        for outcome, op, *rest in test_id.findall(text):
            if (op, *rest) not in seen:
                seen.add((op, *rest))
                counts[op][outcome] += 1
        for op, c in counts.items():
            if sum(c.values()) > sum(tests[op].values()) or c.get("FAILED") or c.get("ERROR"):
                tests[op] = c
    return tests


def family_row(family: str, ops: list[str], data: dict) -> list[str]:
    if not ops:
        return [family, "—", "—", "—", "—", "—", "—", "—", "not built yet"]
    ports, tests, bench = data["ports"], data["tests"], data["bench"]
    variants = sum(len(ports.get(op, {}).get("variants", [])) for op in ops)
    proven = all(ports.get(op, {}).get("status") == "proven" for op in ops)
    passed = sum(tests[op]["PASSED"] for op in ops)
    failed = sum(tests[op]["FAILED"] + tests[op]["ERROR"] for op in ops)
    ratios, roofs, notes, eager = [], [], [], []
    for op in ops:
        rows = [r for r in bench[op] if r.get("ratio")]
        ratios += [r["ratio"] for r in rows]
        eager += [r["eager_ratio"] for r in rows if r.get("eager_ratio")]
        for r in rows:
            if r["case"] != "large":   # the column's claim: large sizes (mid ones are in bench.json)
                continue
            pct = r["backends"].get("cutile-rs", {}).get("pct_of_ceiling")
            if pct is not None:
                roofs.append((pct, f"{op} {r['dtype']}", r["ceiling"]["kind"]))
        # no roofline (no PyTorch kernel to measure against): say what it reached
        rates = [r["backends"]["cutile-rs"]["TFLOPs"] for r in rows if r["case"] == "large"
                 and r["backends"].get("cutile-rs", {}).get("pct_of_ceiling") is None
                 and r["backends"]["cutile-rs"].get("TFLOPs")]
        if rates:
            notes.append(f"{op} large: {min(rates):.0f}–{max(rates):.0f} TFLOP/s (no PyTorch kernel: no roofline)")
        if not rows:
            notes.append(f"{op} not benchmarked")
    g = _geomean(ratios)
    roof = "—"
    if roofs:
        lo, hi = min(roofs), max(roofs)
        kinds = sorted({k for _, _, k in roofs})
        roof = f"{lo[0]:.0f}% ({lo[1]}) – {hi[0]:.0f}% ({hi[1]}) of {' / '.join(kinds)}"
    correct = f"{passed} passed" + (f", **{failed} failed**" if failed else "") if passed or failed else "not run"
    ge = _geomean(eager)
    return [family, ", ".join(ops), str(variants), "yes" if proven else "**no**", correct,
            f"{g:.3f} over {len(ratios)}" if g else "—", roof,
            f"{ge:.2f} over {len(eager)}" if ge else "—", "; ".join(notes)]


def triton_row(op: str, data: dict) -> list[str]:
    port, rows = data["ports"].get(op, {}), data["bench"][op]
    t, tt = data["tests"][op], data["triton_tests"][op]
    ratios = [r["triton_ratio"] for r in rows if r.get("triton_ratio")]
    parity = [r["ratio"] for r in rows if r.get("ratio")]

    def pct(backend: str) -> str:
        vals = [r["backends"].get(backend, {}).get("pct_of_ceiling") for r in rows if r["case"] == "large"]
        vals = [v for v in vals if v is not None]
        return f"{min(vals):.0f} – {max(vals):.0f}%" if vals else "—"

    def outcome(c: dict) -> str:
        bad = c["FAILED"] + c["ERROR"]
        return (f"{c['PASSED']} passed" + (f", **{bad} failed**" if bad else "")) if c["PASSED"] or bad else "not run"

    g, gp = _geomean(ratios), _geomean(parity)
    return [op.removeprefix("triton_"), str(len(port.get("variants", []))),
            "yes" if port.get("status") == "proven" else "**no**", outcome(tt), outcome(t),
            f"{g:.3f} over {len(ratios)}" if g else "—", f"{gp:.3f}" if gp else "—", pct("cutile-rs"), pct("triton")]


def render(data: dict) -> str:
    head = ["family", "ops (kernels)", "variants", "IR-equivalent", "GPU tests (H200, both backends)",
            "parity rs/py (geomean)", "% of ceiling, cutile-rs, large sizes (min – max)",
            "time rs / torch eager (geomean; < 1 is faster)", "notes"]
    rows = [family_row(f, ops, data) for f, ops in FAMILIES.items()]
    all_ratios = [r["ratio"] for op_rows in data["bench"].values() for r in op_rows if r.get("ratio")]
    lines = ["# Operator library: summary",
             "",
             "Generated by `python scripts/ops_summary.py` from committed results (`rust/tileport-ops/ports.json`, "
             "`benchmarks/results/h200/verification/runtime/gpu-tests*.log`, `benchmarks/results/h200/**/bench.json`); do not "
             "edit by hand. Plots: the `bench.png` beside each `bench.json`.",
             "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    g = _geomean(all_ratios)
    lib1 = [r["ratio"] for f in LIBRARY_I for op in FAMILIES[f] for r in data["bench"][op] if r.get("ratio")]
    g1 = _geomean(lib1)
    lines += ["", f"Over every benchmarked (op, dtype): geomean time(cutile-rs)/time(cutile) = {g:.3f} over "
                  f"{len(all_ratios)} measurements." if g else "",
              f"Over library I's fourteen families: {g1:.4f} over {len(lib1)} measurements"
              f"{_interval_text(lib1)}." if g1 else "", ""]
    thead = ["Triton kernel", "variants", "IR-equivalent (Rust vs lowered)", "GPU tests: port vs Triton kernel",
             "GPU tests: cutile and cutile-rs", "time rs / triton (geomean)", "rs / lowered cuTile Python",
             "% of ceiling, large, cutile-rs", "% of ceiling, large, triton"]
    lines += ["## Ported Triton kernels", "",
              "Each `tileport.kernels.triton` kernel, lowered to cuTile Python and ported; served as "
              "`tileport.ops.triton_<name>` (backend `triton` runs the Triton kernel itself). A time ratio above 1 "
              "means the port is slower than the Triton kernel.", "",
              "| " + " | ".join(thead) + " |", "|" + "---|" * len(thead)]
    lines += ["| " + " | ".join(triton_row(op, data)) + " |" for op in TRITON] + [""]
    lines += fastest_torch_table(data["bench"])
    for sweep in data["sweeps"]:
        lines += sweep_table(sweep)
    if data["sizes"]:
        lines += sizes_table(data["sizes"])
    return "\n".join(lines)


#: ops whose kernel changed after their size-scaling file was measured: the rows say so (op → what changed)
SIZES_SUPERSEDED = {"rope": "the tiled kernel before 2026-12-01; the gathering one: 92% at x1 "
                            "(benchmarks/results/h200/tuning/rope-gather)"}


def fastest_torch_table(bench: dict[str, list[dict]]) -> list[str]:
    """Each measured size against the fastest PyTorch path the bench timed beside it (eager, torch.compile,
    cuBLAS, the op's own such as torch._grouped_mm): one row per op, dtype and size, no mean over sizes (issue 20,
    criterion 5); the slowest first."""
    rows = sorted((r for op_rows in bench.values() for r in op_rows if r.get("fastest_torch_ratio")),
                  key=lambda r: -r["fastest_torch_ratio"])
    out = ["## Against the fastest PyTorch path, each size on its own", ""]
    if not rows:
        return out + ["No committed bench run has timed the PyTorch paths yet (`tileport bench` times eager, "
                      "torch.compile, cuBLAS and each op's own since 2026-12-04; the next H200 run fills this).", ""]
    out += ["| op | dtype | size | shape | cutile-rs µs | fastest PyTorch path | its µs | rs / it |", "|" + "---|" * 8]
    for r in rows:
        best = r["fastest_torch"]
        out.append(f"| {r['op']} | {r['dtype']} | {r['case']} | {r.get('shape', '')} | "
                   f"{r['backends']['cutile-rs']['median_us']:.1f} | {best['path']} | {best['median_us']:.1f} | "
                   f"{r['fastest_torch_ratio']:.2f}{f' (over {PARITY})' if r['fastest_torch_ratio'] > PARITY else ''} |")
    return out + [""]


def sizes_table(sizes: dict) -> list[str]:
    """Per op and dtype, at each multiple of its large case's tokens: the cuTile kernel's % of the 1 GiB copy
    bandwidth and of a copy of the same bytes; a first row gives the same-size copies' own % of the 1 GiB one."""
    rows = [r for _, _, op_rows in sizes.values() for r in op_rows]
    factors = sorted({r["factor"] for r in rows})
    copy = sorted({round(c) for _, c, _ in sizes.values()})
    head = ["op", "dtype", *[f"x{f} tokens: % of 1 GiB copy (% of same-size copy)" for f in factors], "file"]
    out = ["## Size scaling (benchmarks/results/h200/size-scaling/)", "",
           f"The ceiling above is a copy of 1 GiB ({'/'.join(map(str, copy))} GB/s); at the large cases' 128-277 MB a "
           "kernel's fixed costs (launch, first-wave ramp, last-wave tail) do not vanish. Here each memory-bound op "
           "runs through cuTile Python at 1x, 2x and 4x the tokens of its large case (shapes in the JSON), next to "
           "a torch copy of the same bytes.", "",
           "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    copies = {f: [r["copy_pct_of_1g_copy"] for r in rows if r["factor"] == f] for f in factors}
    out.append("| (copy of the same bytes) | — | " + " | ".join(
        f"{min(copies[f]):.0f}–{max(copies[f]):.0f}%" for f in factors) + " | |")
    for (op, dtype), (name, _, op_rows) in sizes.items():
        mine = {r["factor"]: r for r in op_rows}
        out.append("| " + " | ".join([op, dtype, *[
            f"{mine[f]['cutile_pct_of_1g_copy']:.0f}% ({mine[f]['cutile_pct_of_same_size_copy']:.0f}%)"
            if f in mine else "—" for f in factors],
            name + (f" ({SIZES_SUPERSEDED[op]})" if op in SIZES_SUPERSEDED else "")]) + " |")
    return out + [""]


def sweep_table(record: dict) -> list[str]:
    """% of the copy ceiling and time over torch eager per op and hidden size at the largest token count, plus
    the rs/py parity over the whole sweep."""
    rows = [r for r in record["results"] if r.get("ratio")]
    hidden = sorted({int(r["case"].split("x")[1]) for r in rows})
    counts = sorted({int(r["case"].split("x")[0]) for r in rows}) or [0]
    tokens = counts[-1]
    head = ["op", "dtype", *[f"hidden {h}: % of copy BW, rs/eager" for h in hidden], "parity rs/py (all cases)"]
    out = [f"## LLM shape sweep ({record['file']})", "",
           f"Tokens {', '.join(map(str, counts))} x hidden {', '.join(map(str, hidden))}; the columns show the {tokens}-token case.",
           "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for op, dtype in sorted({(r["op"], r["dtype"]) for r in rows}):
        mine = [r for r in rows if (r["op"], r["dtype"]) == (op, dtype)]
        cells = []
        for h in hidden:
            r = next((r for r in mine if r["case"] == f"{tokens}x{h}"), None)
            pct = r and r["backends"].get("cutile-rs", {}).get("pct_of_ceiling")
            cells.append(f"{pct:.0f}%, {r['eager_ratio']:.2f}" if r and pct is not None and r.get("eager_ratio")
                         else "—")
        g = _geomean([r["ratio"] for r in mine])
        out.append("| " + " | ".join([op, dtype, *cells, f"{g:.3f} over {len(mine)}"]) + " |")
    return out + [""]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare with the committed docs/ops-summary.md")
    args = ap.parse_args()
    text = render(gather())
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT.relative_to(REPO)} is stale: run python scripts/ops_summary.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
