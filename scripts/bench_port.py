"""Time the port pipeline (analyze → translate → build → irdiff) per example kernel and for the whole set.

Usage: python scripts/bench_port.py [--out benchmarks/results/port_times.json] [KERNEL ...]
Prints a table and writes JSON. Runs on the CPU. All kernels are built in one cargo build (`port_many`); each kernel's
own time is analyze + translate + irdiff, and the shared build is reported once.
"""
import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from tileport.kernels import SERVED, source
from tileport.pipeline.port import port_many
from tileport.spec.signature import bind, parse
from tileport.toolchain.locate import find_cuda_tree


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="example kernels (default: every proven example)")
    ap.add_argument("--out", default="benchmarks/results/port_times.json")
    args = ap.parse_args()
    names = args.kernels or list(SERVED)
    tree = find_cuda_tree()
    from tileport.frontends.cutile_py.loader import load_kernel, load_module

    marks: list[tuple[float, str]] = []
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for name in names:
            ref = f"{source(name)}::{name}"
            module = load_module(source(name))
            jobs.append((ref, [bind(parse(module.DEMO_SIGNATURE), load_kernel(ref).param_names, name)], [],
                         Path(tmp) / name))
        verdicts = port_many(jobs, tree, "sm_90", Path(tmp) / "batch",
                             lambda msg: marks.append((time.perf_counter(), msg)))
    marks.append((time.perf_counter(), "end"))
    # attribute each interval between progress messages to its kernel and stage
    per: dict[str, dict[str, float]] = {n: {} for n in names}
    build = 0.0
    current = None
    for (t, msg), (t_next, _) in zip(marks, marks[1:]):
        stage, _, rest = msg.partition(": ")
        if stage == "analyze":
            current = rest
        elif stage == "irdiff":
            current = max((n for n in names if rest.startswith(n + "_")), key=len, default=current)
        if stage == "build":
            build += t_next - t
        elif current in per and stage in ("analyze", "translate", "irdiff") or msg.startswith("["):
            key = "analyze" if msg.startswith("[") else stage
            per[current][key] = per[current].get(key, 0.0) + t_next - t
    rows = []
    for name, verdict in zip(names, verdicts):
        stages = {k: round(v, 3) for k, v in per[name].items()}
        rows.append({"kernel": name, "status": verdict["status"], "seconds": round(sum(stages.values()), 3),
                     "stages": stages})
        print(f"{name:18} {verdict['status']:9} {sum(stages.values()):6.1f} s  " +
              "  ".join(f"{s} {v:.1f}" for s, v in stages.items()), flush=True)
    print(f"{'shared build':18} {'':9} {build:6.1f} s  (one cargo build of {len(names)} kernel modules)")
    total = time.perf_counter() - t_all
    print(f"{'all':18} {'':9} {total:6.1f} s  ({len(rows)} kernels, "
          f"{sum(r['status'] == 'proven' for r in rows)} proven)")
    result = {"command": " ".join(["python", "scripts/bench_port.py", *sys.argv[1:]]),
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
              "total_seconds": round(total, 3), "shared_build_seconds": round(build, 3), "kernels": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return 0 if all(r["status"] == "proven" for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
