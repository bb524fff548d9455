"""Rows per block (BM) for the row kernels (row_softmax, rms_norm, layer_norm), measured on the GPU with the cuTile
Python kernels (the ports are IR-equivalent, so the choice carries over): for each op, dtype and row length, the
median kernel time at each BM over a tokens x hidden input, printed as a table and written as JSON.

    python3 benchmarks/probes/tune_rows.py --out tune_rows.json [--rows 8192] [--cols 1024,4096] [--bm 1,2,4,8,16]
                                 [--occ 0,2,4]   # also each occupancy hint (0: the kernel's own)
"""
from __future__ import annotations

import argparse
import json
import statistics

import torch

import cuda.tile as ct
from tileport.kernels.layer_norm import layer_norm
from tileport.kernels.rms_norm import rms_norm
from tileport.kernels.row_softmax import row_softmax
from tileport.ops import _common as C


def args_for(op, x, y, bm, block):
    n = x.shape[1]
    w = torch.randn(n, device="cuda", dtype=x.dtype)
    if op == "row_softmax":
        return row_softmax, (x, y, bm, block)
    if op == "rms_norm":
        return rms_norm, (x, w, y, 1.0 / n, 1e-6, bm, block)
    return layer_norm, (x, w, torch.randn_like(w), y, 1.0 / n, 1e-5, bm, block)


def time_us(kernel, grid, args, reps=30):
    s = torch.cuda.current_stream()
    for _ in range(3):
        ct.launch(s, grid, kernel, args)
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for a, b in events:
        a.record()
        ct.launch(s, grid, kernel, args)
        b.record()
    torch.cuda.synchronize()
    return statistics.median(a.elapsed_time(b) * 1e3 for a, b in events)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", type=int, default=8192)
    ap.add_argument("--cols", default="1024,4096")
    ap.add_argument("--bm", default="1,2,4,8,16")
    ap.add_argument("--occ", default="0", help="occupancy hints to try (0: the kernel's own)")
    ap.add_argument("--ops", default="row_softmax,rms_norm,layer_norm")
    ap.add_argument("--dtypes", default="float32,float16,bfloat16")
    opts = ap.parse_args()
    results = []
    occs = [int(o) for o in opts.occ.split(",")]
    for op in opts.ops.split(","):
        for dtype in opts.dtypes.split(","):
            for n in map(int, opts.cols.split(",")):
                block = C.row_block(n)
                x = torch.randn(opts.rows, n, device="cuda", dtype=getattr(torch, dtype))
                y = torch.empty_like(x)
                row = {"op": op, "dtype": dtype, "rows": opts.rows, "cols": n, "BLOCK": block, "us": {}}
                for bm in map(int, opts.bm.split(",")):
                    if bm * block > 65536:
                        continue
                    kernel, args = args_for(op, x, y, bm, block)
                    for occ in occs:
                        key = bm if occs == [0] else f"{bm}/occ{occ}"
                        k = kernel if occ == 0 else kernel.replace_hints(occupancy=occ)
                        try:
                            row["us"][key] = time_us(k, (C.cdiv(opts.rows, bm), 1, 1), args)
                        except Exception as exc:  # noqa: BLE001 — report and go on
                            row["us"][key] = f"error: {str(exc)[:200]}"
                timed = {k: v for k, v in row["us"].items() if isinstance(v, float)}
                row["best"] = min(timed, key=timed.get) if timed else None
                gbps = {k: 2 * x.numel() * x.element_size() / (v * 1e-6) / 1e9 for k, v in timed.items()}
                print(f"{op:12s} {dtype:9s} {opts.rows}x{n:<6d} " +
                      "  ".join(f"BM={k}: {v:7.1f} us {gbps[k]:6.0f} GB/s" for k, v in timed.items()) +
                      f"   best BM={row['best']}", flush=True)
                results.append(row)
    with open(opts.out, "w") as fh:
        json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
