"""Differential fuzzing of the Triton lowering at scale: N random Triton kernels (hypothesis), each run by Triton's
interpreter and, lowered, by the numpy model of the ct operations, compared launch by launch
(tileport/frontends/triton/fuzz.py).

Usage: TILEPORT_TORCH_PYTHON=/path/to/python-with-torch python scripts/fuzz_triton.py [-n 3000] [--batch 500]
       [--seed N | --derandomize] [--templates rows_2d,scans] [--port K] [--out benchmarks/results/fuzz_triton.json]
Every kernel must give Triton's arrays (bitwise, or within the documented tolerance) or be refused with a located
reason; anything else is printed with its source and makes the exit code 1. ``--port K``: also port and prove
(cargo, sm_90) the first K lowered kernels that were checked equal, in one build.
"""
import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tileport.frontends.triton import fuzz
from tileport.fuzz import write_record


def _port(results, k: int, root: Path) -> Counter:
    from tileport.frontends.cutile_py.capture import run_captured
    from tileport.pipeline.triton import port_triton_many
    from tileport.toolchain.locate import find_cuda_tree

    jobs = []
    for r in [r for r in results if r.outcome in ("equal", "close")][:k]:
        name = f"fz{r.dir.name[1:]}"
        launches = list(run_captured(r.dir / "k.py", []).launches.values())
        jobs.append((f"{r.dir / 'k.py'}::{name}", [], launches, r.dir / "port"))
    verdicts = port_triton_many(jobs, find_cuda_tree(), "sm_90", root / "_work")
    return Counter(v["status"] for v in verdicts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: a fresh one)")
    ap.add_argument("--derandomize", action="store_true", help="the CI draw's kernels")
    ap.add_argument("--templates", default=",".join(fuzz.TEMPLATES))
    ap.add_argument("--port", type=int, default=0, metavar="K")
    ap.add_argument("--keep", default=None, help="keep the cases' folders under this directory")
    ap.add_argument("--out", default="benchmarks/results/fuzz_triton.json")
    args = ap.parse_args()
    py = fuzz.torch_python()
    if py is None:
        print("TILEPORT_TORCH_PYTHON must name a Python with torch and triton (Triton's interpreter)", file=sys.stderr)
        return 2
    seed = None if args.derandomize else (args.seed if args.seed is not None else random.randrange(2**31))
    templates = tuple(args.templates.split(","))
    t0, outcomes, by_template, bad, ported = time.perf_counter(), Counter(), {}, [], Counter()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep) if args.keep else Path(tmp)
        done = 0
        for start in range(0, args.n, args.batch):
            n = min(args.batch, args.n - start)
            cases = fuzz.draw_cases(n, None if seed is None else seed + start, templates)
            results = fuzz.run_cases(cases, root / f"b{start:06d}", py, print)
            for r in results:
                outcomes[r.outcome] += 1
                t = r.case.families[0]
                by_template.setdefault(t, Counter())[r.outcome] += 1
                if r.outcome in fuzz.BAD:
                    bad.append({"outcome": r.outcome, "families": r.case.families, "detail": r.detail,
                                "source": (r.dir / "k.py").read_text()})
            if args.port and not ported:
                ported = _port(results, args.port, root / f"b{start:06d}")
            done += len(results)
            print(f"{done} kernels: {dict(outcomes)}", flush=True)
    result = {"kernels": done, "seed": seed, "templates": list(templates), "outcomes": dict(outcomes),
              "by_template": {k: dict(v) for k, v in sorted(by_template.items())},
              "ported": dict(ported), "seconds": round(time.perf_counter() - t0, 1),
              "contract": "Triton's interpreter and the lowered kernel on numpy (ct_numpy.CtModel) give equal "
                          "arrays after every launch (bitwise; within fuzz.TOL where approximate operations were "
                          "drawn: 'close'), or the lowering refuses with a located reason",
              "bad": bad}
    return write_record(args.out, result, bad)


if __name__ == "__main__":
    raise SystemExit(main())
