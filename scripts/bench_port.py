"""Time the port pipeline (analyze → translate → build → irdiff) per example kernel and for the whole set.

Usage: python scripts/bench_port.py [--out benchmarks/results/port_times.json] [KERNEL ...]
Prints a table and writes JSON. Runs on the CPU; the first build after the workspace is built compiles only the
generated kernel crate.
"""
import argparse
import importlib
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from tileport.examples import EXAMPLES_DIR, PROVEN
from tileport.pipeline.port import port
from tileport.spec.signature import bind, parse
from tileport.toolchain.locate import find_cuda_tree


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="example kernels (default: every proven example)")
    ap.add_argument("--out", default="benchmarks/results/port_times.json")
    args = ap.parse_args()
    names = args.kernels or list(PROVEN)
    tree = find_cuda_tree()
    rows, t_all = [], time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            module = importlib.import_module(f"tileport.examples.{name}")
            ref = f"{EXAMPLES_DIR / (name + '.py')}::{name}"
            from tileport.frontends.cutile_py.loader import load_kernel

            k = load_kernel(ref)
            sig = bind(parse(module.DEMO_SIGNATURE), k.param_names, name)
            marks: list[tuple[str, float]] = []

            def progress(msg: str) -> None:
                stage = msg.split(":", 1)[0]
                if stage in ("analyze", "translate", "build", "irdiff") and (not marks or marks[-1][0] != stage):
                    marks.append((stage, time.perf_counter()))

            t0 = time.perf_counter()
            verdict = port(ref, [sig], [], tree, Path(tmp) / name, "sm_90", progress)
            t1 = time.perf_counter()
            stages = {}
            for (stage, start), nxt in zip(marks, marks[1:] + [("end", t1)]):
                stages[stage] = round(nxt[1] - start, 3)
            rows.append({"kernel": name, "status": verdict["status"], "seconds": round(t1 - t0, 3),
                         "stages": stages})
            print(f"{name:18} {verdict['status']:9} {t1 - t0:6.1f} s  " +
                  "  ".join(f"{s} {v:.1f}" for s, v in stages.items()), flush=True)
    total = time.perf_counter() - t_all
    print(f"{'all':18} {'':9} {total:6.1f} s  ({len(rows)} kernels, "
          f"{sum(r['status'] == 'proven' for r in rows)} proven)")
    result = {"command": " ".join(["python", "scripts/bench_port.py", *sys.argv[1:]]),
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
              "total_seconds": round(total, 3), "kernels": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return 0 if all(r["status"] == "proven" for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
