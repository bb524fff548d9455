"""Issue 20, criterion 2: TileGym's kernels timed through both paths at TileGym's benchmark shapes — the report.

    python benchmarks/corpus/tilegym_perf_report.py TESTS_JSON [TESTS_JSON ...] --out DIR

Reads the ``tests.json`` of `tilegym_rust.py tests --timing` runs (the Rust runs time each kernel's launches both
ways, cuTile Python and the Rust port, in interleaved rounds inside CUDA graphs: runtime/launch_timing.py) and
writes DIR/perf.json (every timed launch, per kernel the geometric mean of its launches' Rust/Python ratios, over
kernels their geometric mean, the kernels above 1.05), DIR/perf.md (the table) and DIR/perf.png (per kernel, each
launch's ratio; needs matplotlib, else skipped with a message). Several runs: their launches are pooled per kernel.
A launch timed on the stream (no CUDA graph could capture cuTile Python's launch of it) is marked so; a kernel none
of whose launches could be timed is listed with the reason.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

LIMIT_KERNEL, LIMIT_GEOMEAN = 1.05, 1.01


def _geo(values: list[float]) -> float:
    return math.exp(sum(map(math.log, values)) / len(values))


def collect(paths: list[Path]) -> tuple[dict[str, list[dict]], dict[str, str]]:
    """Per kernel its timed launches, and per kernel with an untimed launch the first reason."""
    per: dict[str, list[dict]] = {}
    failed: dict[str, str] = {}
    for p in paths:
        try:
            data = json.loads(p.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise SystemExit(f"{p}: not a readable tests.json ({exc})") from None
        for row in data.get("files", []):
            for rec in row.get("kernel_times", []):
                if rec.get("ratio"):
                    per.setdefault(rec["kernel"], []).append({"file": row["file"], **rec})
                elif rec.get("error"):
                    failed.setdefault(rec["kernel"], rec["error"])
    return per, failed


def summarize(per: dict[str, list[dict]], failed: dict[str, str] | None = None) -> dict:
    kernels = {k: {"launches": v, "geomean": round(_geo([r["ratio"] for r in v]), 4),
                   "worst": round(max(r["ratio"] for r in v), 4)} for k, v in sorted(per.items())}
    geo = round(_geo([k["geomean"] for k in kernels.values()]), 4) if kernels else None
    above = {k: v["geomean"] for k, v in kernels.items() if v["geomean"] > LIMIT_KERNEL}
    for k in kernels.values():
        k["on_stream"] = sum(r.get("method") == "stream" for r in k["launches"])
    not_timed = {k: why for k, why in sorted((failed or {}).items()) if k not in kernels}
    return {"geomean_over_kernels": geo, "kernels_timed": len(kernels), "above_1_05": above, "not_timed": not_timed,
            "criterion": {"geomean_at_most": LIMIT_GEOMEAN, "kernel_at_most": LIMIT_KERNEL,
                          "met": geo is not None and geo <= LIMIT_GEOMEAN and not above},
            "kernels": kernels}


def table(s: dict) -> str:
    lines = ["| kernel | launches | Rust/Python geomean | worst launch | µs (python → rust), first launch |",
             "|---|---|---|---|---|"]
    for name, k in s["kernels"].items():
        first = k["launches"][0]
        flag = " **>1.05**" if k["geomean"] > LIMIT_KERNEL else ""
        flag += f" ({k['on_stream']} on the stream)" if k.get("on_stream") else ""
        lines.append(f"| `{name}` | {len(k['launches'])} | {k['geomean']:.3f}{flag} | {k['worst']:.3f} | "
                     f"{first['plain_us']:.1f} → {first['rust_us']:.1f} |")
    lines.append("")
    lines.append(f"Geomean over {s['kernels_timed']} kernels: **{s['geomean_over_kernels']}**; above 1.05: "
                 f"{', '.join(f'`{k}` {v}' for k, v in s['above_1_05'].items()) or 'none'}.")
    for name, why in s.get("not_timed", {}).items():
        lines.append(f"Not timed: `{name}` ({why}).")
    return "\n".join(lines) + "\n"


def plot(s: dict, path: Path) -> str:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "perf.png skipped: matplotlib is not installed"
    names = list(s["kernels"])
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(names) + 1.2))
    for i, n in enumerate(names):
        ratios = [r["ratio"] for r in s["kernels"][n]["launches"]]
        ax.scatter(ratios, [i] * len(ratios), s=12, color="tab:blue", alpha=0.6)
        ax.scatter([s["kernels"][n]["geomean"]], [i], marker="|", s=200, color="black")
    ax.axvline(1.0, color="grey", lw=0.8)
    ax.axvline(LIMIT_KERNEL, color="tab:red", lw=0.8, ls="--")
    ax.set_yticks(range(len(names)), [n.lstrip("_") for n in names], fontsize=7)
    ax.set_xlabel("kernel time, Rust port / cuTile Python (per launch; bar: geomean)")
    ax.set_title(f"TileGym at its benchmark shapes: geomean {s['geomean_over_kernels']}")
    fig.tight_layout()
    try:   # (committed plots are 256-colour PNGs; without tileport on the path, matplotlib's own)
        from tileport.bench.runner import save_compact_png
    except ImportError:
        fig.savefig(path, dpi=120)
    else:
        save_compact_png(fig, path)
    return f"wrote {path}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tests", nargs="+", type=Path, help="tests.json of `tilegym_rust.py tests --timing` runs")
    ap.add_argument("--out", type=Path, required=True, help="folder for perf.json, perf.md, perf.png")
    args = ap.parse_args(argv)
    per, failed = collect(args.tests)
    if not per:
        print("no timed launches in " + ", ".join(map(str, args.tests)), file=sys.stderr)
        return 1
    s = summarize(per, failed)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "perf.json").write_text(json.dumps({"sources": [str(p) for p in args.tests], **s}) + "\n")
    (args.out / "perf.md").write_text(table(s))
    print(table(s), end="")
    print(plot(s, args.out / "perf.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
