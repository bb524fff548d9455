"""On a GPU: why a port is slower than its Triton kernel — the same lowered kernel under different cuTile options.

For a tutorial kernel the shadow run found slow, each port directory given (`tileport port ... --hint NAME=INT`,
one option each) is shadowed in turn while the tutorial runs as `__main__` (its benchmark sweep calls each point
once): the first ``--checks`` distinct launches are checked against Triton and timed (CUDA graphs). Prints port /
Triton per option and writes the checks to JSON.

    python benchmarks/corpus/triton_hints_probe.py --tutorial DIR/02-fused-softmax.py --kernel softmax_kernel \\
        --port default=PORT_DIR --port occupancy=4=PORT_DIR ... --out probe.json
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import runpy
import sys
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tutorial", type=Path, required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--port", action="append", required=True, metavar="LABEL=DIR",
                    help="a port directory and what it varies (repeatable)")
    ap.add_argument("--checks", type=int, default=3)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()

    from tileport.hostrun import as_main
    from tileport.corpus.tritonemu import legacy_modules, quick_benchmarks
    from tileport.runtime.shadow import shadow
    from triton_shadow import geomean   # (this folder: first on sys.path when the script runs)

    src = str(args.tutorial.resolve())
    result: dict = {"tutorial": args.tutorial.name, "kernel": args.kernel, "options": {}}
    for spec in args.port:
        label, _, d = spec.rpartition("=")
        with shadow({(src, args.kernel): Path(d)}, max_checks=args.checks) as sh:
            try:
                # (legacy_modules: tutorials 06/09 import Triton 3.3's experimental_descriptor, as in triton_shadow.py)
                with as_main(Path(src)), contextlib.redirect_stdout(io.StringIO()), quick_benchmarks(), \
                        legacy_modules(cublas=False):
                    runpy.run_path(src, run_name="__main__")
            except Exception as exc:  # noqa: BLE001 — the tutorial's own failure: recorded
                result.setdefault("errors", {})[label] = f"{type(exc).__name__}: {exc}"
        ratios = [r["ratio"] for r in sh.records if r.get("ratio")]
        g = geomean(ratios)
        result["options"][label] = {"geomean_ratio": g, "ok": all(r.get("ok") for r in sh.records),
                                    "checks": sh.records}
        print(f"{args.kernel} [{label}]: port/triton geomean {g and round(g, 3)} over {len(ratios)} launches, "
              f"outputs {'match' if result['options'][label]['ok'] else 'DIFFER'}", flush=True)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
