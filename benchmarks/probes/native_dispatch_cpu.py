"""The native dispatcher's host cost per launch, on the CPU: `ct.launch` as the installed backend takes it
(`tileport_native.Dispatch` → `Plan.launch` → the operator's C function), with CPU tensors and a no-op operator
compiled here (`cc`) in place of a kernel library — everything but the library's own work and `cuLaunchKernel`.

    python3 benchmarks/probes/native_dispatch_cpu.py --native rust/target/release/libtileport_native.so \\
        [--native OTHER.so ...] [--tensors 4] [--out result.json]

Each `--native` build is timed in interleaved rounds (median ns per launch of the best of each round): the
numbers compare builds of the extension on one machine; the GPU run's `tilegym_rust.py overhead` is the measure.
Needs torch (CPU build is enough) and a C compiler."""
from __future__ import annotations

import argparse
import ctypes
import importlib.machinery
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NOOP = ("int tp_noop(const void *call, char *err, unsigned long n) { (void)call; (void)err; (void)n; return 0; }\n"
        "int ctx_get_device(int *device) { *device = -1; return 0; }\n")   # CPU tensors: get_device() is -1


def load(path: Path, name: str):
    loader = importlib.machinery.ExtensionFileLoader("tileport_native", str(path))
    spec = importlib.util.spec_from_file_location("tileport_native", str(path), loader=loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    sys.modules.pop("tileport_native", None)   # (the next build loads under the same name)
    return name, mod


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--native", type=Path, action="append", required=True, help="a libtileport_native.so (repeat)")
    ap.add_argument("--tensors", type=int, default=4, help="tensor arguments per launch (default 4)")
    ap.add_argument("--launches", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    import torch

    tmp = Path(tempfile.mkdtemp())
    (tmp / "noop.c").write_text(NOOP)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(tmp / "noop.so"), str(tmp / "noop.c")], check=True)
    so = ctypes.CDLL(str(tmp / "noop.so"))
    noop = ctypes.cast(so.tp_noop, ctypes.c_void_p).value
    ctx_get_device = ctypes.cast(so.ctx_get_device, ctypes.c_void_p).value

    n = args.tensors
    kernel_args = tuple(torch.empty(256, 1024) for _ in range(n)) + (1e-5, 1024)
    slot = [(False, 1, 1), (True, 1, 1)]
    # (position, dtype, rank, ABI dtype code, bytes, written, facts per dimension, alignment): the last one written
    tensors = [(i, torch.float32, 2, 0, 4, i == n - 1, slot, 1) for i in range(n)]
    builds = []
    for k, path in enumerate(args.native):
        name, mod = load(path, f"{k}:{path}")
        plan = mod.Plan(noop, 0, [], tensors, [(n, "float"), (n + 1, "int")], [], 0, [0] * 4)
        dispatch = mod.Dispatch(lambda *a: sys.exit("the dispatcher handed a launch to Python"))
        kernel = object()
        # builds before Dispatch.launch read the device with a Python callable
        dispatch.remember(kernel, plan, 10**15, ctx_get_device if hasattr(dispatch, "launch") else lambda: -1)
        assert plan.launch(kernel_args, (256, 1, 1), -1, 0) == 0
        builds.append((name, plan, dispatch, kernel))
    rows = {name: {"plan.launch": [], "ct.launch (the dispatcher)": []} for name, *_ in builds}
    for _ in range(args.rounds):
        for name, plan, dispatch, kernel in builds:
            entry = getattr(dispatch, "launch", dispatch)   # (builds before Dispatch.launch: the object itself)
            for label, call in (("plan.launch", lambda: plan.launch(kernel_args, (256, 1, 1), -1, 0)),
                                ("ct.launch (the dispatcher)", lambda: entry(0, (256,), kernel, kernel_args))):
                t = time.perf_counter_ns()
                for _ in range(args.launches):
                    call()
                rows[name][label].append((time.perf_counter_ns() - t) / args.launches)
    result = {"command": " ".join(sys.argv), "tensors": n, "median_ns": {
        name: {label: round(statistics.median(v), 1) for label, v in r.items()} for name, r in rows.items()}}
    for name, r in result["median_ns"].items():
        print(f"{name}: " + ", ".join(f"{label} {v:.0f} ns" for label, v in r.items()))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
