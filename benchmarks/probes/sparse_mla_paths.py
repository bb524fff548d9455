"""On a GPU: is the Rust port of TileGym's sparse MLA forward slower inside the kernel, or only as timed?

Run 20 timed five of its launches 1.65-2.14x slower through Rust (each path captured 10 times in a CUDA graph,
`runtime/launch_timing.py`), while the CPU reading found the two sm_90 cubins instruction for instruction the same
(`benchmarks/results/h100/served/sparse_mla_cpu_reading.md`, "Run 20"). This runs TileGym's op at forced
(TILE_H, TILE_N) configs — the slow launches' and controls — through both paths and times each three ways:

- ``graph``: as the launch timing does (10 launches captured per path, graphs replayed in interleaved rounds);
- ``graph_warm``: the same after three untimed Rust launches (the native dispatcher's direct ``cuLaunchKernel``);
- ``event``: one launch at a time behind a ``torch.cuda._sleep`` (the GPU busy while the host enqueues, so the two
  events bracket the kernel alone), interleaved plain / Rust.

It also checks the outputs agree. Run it with ``CUTILE_DUMP=ir`` (cutile prints the IR it compiles to stderr),
``CUDA_TILE_DUMP_BYTECODE=DIR`` and ``CUDA_TILE_CACHE_DIR=DIR`` (cuTile Python's bytecode and cubins) to compare
what each path compiled on that GPU with what the CPU compiles.

    TILEPORT_SERVED=LIB python benchmarks/probes/sparse_mla_paths.py TILEGYM OUT.json [--cases 0,2] [--quick]

``--quick`` runs each path twice and times nothing (for Nsight Compute: ``ncu --kernel-name regex:_sparse_mla_fwd
--section LaunchStats --section Occupancy --section SpeedOfLight --section MemoryWorkloadAnalysis python3 ...``
shows the grid, block, registers, shared memory and memory traffic of the kernel each path launched).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

# (B, H, S, S_kv, H_kv, topk, TILE_H, TILE_N, what run 20 measured)
CASES = [
    (1, 16, 16, 128, 1, 64, 16, 32, "slow 1.69 (v13)"),
    (1, 16, 16, 128, 1, 64, 4, 64, "slow 1.13 (v8)"),
    (1, 64, 16, 128, 1, 64, 16, 64, "control 1.00 (v57)"),
    (1, 16, 16, 128, 16, 64, 1, 64, "control TILE_H 1"),
    (1, 16, 16, 128, 1, 64, 16, 64, "TILE_H 16, TILE_N 64 at H=16"),
    (1, 64, 128, 256, 1, 256, 32, 64, "slow 2.14 shape (TILE_H 32)"),
]
D, D_PE = 128, 64


def _indices(B, S, H_kv, topk, S_kv, torch):  # noqa: N803 — the test's names
    idx = torch.zeros(B, S, H_kv, topk, dtype=torch.int32)
    for b in range(B):
        for s in range(S):
            for g in range(H_kv):
                past = torch.randperm(s + 1)[:min(topk, s + 1)]
                rest = topk - past.numel()
                future = torch.randperm(S_kv - s - 1)[:rest] + s + 1 if rest else past[:0]
                idx[b, s, g] = torch.cat([past, future]).to(torch.int32)
    return idx.cuda()


def _graph_times(fns: dict, torch, reps: int = 10, rounds: int = 7) -> dict:
    from tileport.runtime.launch_timing import graph_medians

    return {p: round(t, 3) for p, t in graph_medians(fns, reps, rounds).items()}


def _event_times(fns: dict, torch, samples: int = 25) -> dict:
    times: dict = {p: [] for p in fns}
    for _ in range(samples):
        for path, fn in fns.items():
            torch.cuda._sleep(2_000_000)
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            fn()
            b.record()
            b.synchronize()
            times[path].append(a.elapsed_time(b) * 1000.0)
    return {p: round(sorted(v)[len(v) // 2], 3) for p, v in times.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tilegym", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--cases", default=",".join(str(i) for i in range(len(CASES))), help="indices into CASES")
    ap.add_argument("--quick", action="store_true", help="two launches a path, nothing timed")
    args = ap.parse_args()
    corpus, out = args.tilegym, args.out
    try:
        picked = [CASES[int(i)] for i in args.cases.split(",")]
    except (ValueError, IndexError):
        ap.error(f"--cases {args.cases!r}: comma-separated indices of CASES, 0 to {len(CASES) - 1}")
    sys.path[:0] = [str(corpus / "src"), str(corpus)]
    import cuda.tile as ct
    import torch

    import tilegym
    from tilegym.ops import sparse_mla

    from tileport.runtime import intercept

    tilegym.set_backend("cutile")
    it = intercept.install()
    rows = []
    for B, H, S, S_kv, H_kv, topk, tile_h, tile_n, what in picked:  # noqa: N806
        torch.manual_seed(0)
        dev, dt = "cuda", torch.bfloat16
        q = torch.empty(B, H, S, D, device=dev, dtype=dt).normal_(std=0.3)
        k = torch.empty(B, H_kv, S_kv, D, device=dev, dtype=dt).normal_(std=0.3)
        v = torch.empty(B, H_kv, S_kv, D, device=dev, dtype=dt).normal_(std=0.3)
        qpe = torch.empty(B, H, S, D_PE, device=dev, dtype=dt).normal_(std=0.3)
        kpe = torch.empty(B, 1, S_kv, D_PE, device=dev, dtype=dt).normal_(std=0.3)
        idx = _indices(B, S, H_kv, topk, S_kv, torch)
        cfg = {"TILE_H": tile_h, "TILE_N": tile_n}
        scale = 1.0 / math.sqrt(D + D_PE)

        def run(path: str):
            ct.launch = it.original if path == "plain" else it.entry
            return sparse_mla(q, k, v, idx, qpe, kpe, is_causal=True, scaling=scale, kernel_configs=cfg)

        row: dict = {"case": [B, H, S, S_kv, H_kv, topk], "TILE_H": tile_h, "TILE_N": tile_n, "run20": what}
        try:
            want = run("plain").clone()
            got = run("rust").clone()
            torch.cuda.synchronize()
            row["max_abs_diff"] = float((got.float() - want.float()).abs().max())
            row["rust_launches"] = dict(it.rust)
            if args.quick:
                run("plain"), run("rust")
                torch.cuda.synchronize()
            else:
                fns = {"plain": lambda: run("plain"), "rust": lambda: run("rust")}
                row["event_us"] = _event_times(fns, torch)
                row["graph_us"] = _graph_times(fns, torch)
                for _ in range(3):
                    run("rust")
                torch.cuda.synchronize()
                row["graph_warm_us"] = _graph_times(fns, torch)
                for key in ("event_us", "graph_us", "graph_warm_us"):
                    t = row[key]
                    row[key.replace("_us", "_ratio")] = round(t["rust"] / t["plain"], 4) if t["plain"] else None
        except Exception as exc:  # noqa: BLE001 — a case that fails: record it, go on with the next
            row["error"] = f"{type(exc).__name__}: {str(exc)[:400]}"
        finally:
            ct.launch = it.entry
        rows.append(row)
        print(json.dumps(row), flush=True)
    intercept.uninstall()
    out.write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows,
                               "env": {k: os.environ.get(k) for k in ("CUTILE_DUMP", "CUDA_TILE_CACHE_DIR")}},
                              indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
