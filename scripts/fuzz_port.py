"""Differential fuzzing of the translator at scale: N random kernels (hypothesis), one cargo build per batch.

Usage: python scripts/fuzz_port.py [-n 1000] [--batch 250] [--seed-random] [--families control,shapes]
[--out benchmarks/results/fuzz.json]. Every kernel must be proven IR-equivalent or refused with a located error
(one cuTile Python rejects is counted `invalid`, no case: the generator is to be tightened); anything else is
printed with its source and makes the exit code 1.
"""
import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from tileport.fuzz import FAMILIES, family_of, kernels, run_batch, write_record
from tileport.toolchain.locate import find_cuda_tree


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=250)
    ap.add_argument("--seed-random", action="store_true", help="fresh random draws (default: derandomized)")
    ap.add_argument("--families", default="", help=f"comma-separated, of {', '.join(FAMILIES)} (default: all)")
    ap.add_argument("--out", default="benchmarks/results/fuzz.json")
    args = ap.parse_args()
    drawn: list = []

    @settings(max_examples=args.n, derandomize=not args.seed_random, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(kernels(families=tuple(args.families.split(",")) if args.families else None))
    def collect(k):
        drawn.append(k)

    collect()
    tree, outcomes, bad, t0 = find_cuda_tree(), Counter(), [], time.perf_counter()
    by_family: dict[str, Counter] = {}
    for start in range(0, len(drawn), args.batch):
        with tempfile.TemporaryDirectory() as tmp:
            cases = run_batch(drawn[start:start + args.batch], Path(tmp), tree, print)
            for c in cases:
                outcomes[c.outcome] += 1
                by_family.setdefault(family_of((c.dir / "kernel_src.py").read_text()), Counter())[c.outcome] += 1
                if c.outcome not in ("proven", "refused", "invalid"):
                    bad.append({"outcome": c.outcome, "detail": c.detail, "source": (c.dir / "kernel_src.py").read_text()})
        print(f"{start + len(cases)} kernels: {dict(outcomes)}", flush=True)
    result = {"kernels": len(drawn), "distinct": len({s for s, _ in drawn}), "outcomes": dict(outcomes),
              "by_family": {f: dict(c) for f, c in sorted(by_family.items())},
              "seconds": round(time.perf_counter() - t0, 1), "silent_mismatches": bad}
    return write_record(args.out, result, bad)


if __name__ == "__main__":
    raise SystemExit(main())
