"""Issue 20, criterion 5: where token_gather's mid-size gap through Rust (1.33x on an H100, 1.37x on the H200; the
large size 1.04x) comes from. `same_cubin.py` showed the Rust entry and cuTile Python's kernel compile to the same
instructions, so this times one thing four ways at each size, interleaved (GPU host, the op library unpacked as
scripts/gpu_ops.sh does):

  plain      `ct.launch` of `tileport.kernels.token_gather` (no tileport wrapper)
  cutile     `tileport.ops.token_gather(.., backend="cutile")`
  cutile-rs  `tileport.ops.token_gather(.., backend="cutile-rs")`

each (a) per call between CUDA events behind a GPU sleep, as `tileport bench` times (`tileport.bench.runner.time_calls`),
and (b) as 20 calls captured in one CUDA graph, replayed (no host work at all: the kernels alone, back to back).
If (b) is equal and (a) is not, the gap is per-call work on the stream outside the kernel; if (b) differs too, it is
the launch configuration (grid, block, shared memory) cutile-rs gives the same cubin.

    python3 benchmarks/probes/token_gather_paths.py --out token_gather_paths.json [--cases mid,large] [--reps 200]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cases", default="mid,large")
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    try:
        import torch
        import cuda.tile as ct
    except ImportError as exc:
        print(f"error: needs torch and cuda.tile on a GPU host ({exc})", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("error: no CUDA device", file=sys.stderr)
        return 2
    from tileport.bench.runner import time_calls
    from tileport.kernels.token_gather import token_gather as kernel
    from tileport.ops import token_gather as op

    rows = []
    for case in args.cases.split(","):
        (table, ids), _ = op.sample_inputs(case, "float32", "cuda")
        out = torch.empty(ids.shape, dtype=table.dtype, device="cuda")
        n = ids.shape[0]
        grid = (-(-n // op.B), 1, 1)
        paths = {
            "plain": lambda i: ct.launch(torch.cuda.current_stream(), grid, kernel, (table, ids, out, n, op.B)),
            "cutile": lambda i: op.token_gather(table, ids, backend="cutile", out=out),
            "cutile-rs": lambda i: op.token_gather(table, ids, backend="cutile-rs", out=out),
        }
        want = op.reference(table, ids).to(out.dtype)
        for name, call in paths.items():
            out.zero_()
            call(0)
            torch.cuda.synchronize()
            if not torch.equal(out, want):
                print(f"error: {case} {name}: wrong result", file=sys.stderr)
                return 1
        per_call = {k: [] for k in paths}
        graphed = {k: [] for k in paths}
        graphs = {}
        for name, call in paths.items():
            g = torch.cuda.CUDAGraph()
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                call(0)
            torch.cuda.current_stream().wait_stream(s)
            with torch.cuda.graph(g):
                for _ in range(20):
                    call(0)
            graphs[name] = g
        for r in range(args.rounds):
            for name in (list(paths) if r % 2 == 0 else list(paths)[::-1]):
                per_call[name] += time_calls(torch, paths[name], 1, args.reps // args.rounds, 5)
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                graphs[name].replay()
                start.record()
                for _ in range(5):
                    graphs[name].replay()
                end.record()
                torch.cuda.synchronize()
                graphed[name].append(start.elapsed_time(end) * 1e3 / 100)
        for name in paths:
            rows.append({"case": case, "n": n, "path": name, "events_us": statistics.median(per_call[name]),
                         "graph_us": statistics.median(graphed[name])})
            print(f"{case:6s} {name:10s} events {rows[-1]['events_us']:8.2f} us   graph {rows[-1]['graph_us']:8.2f} us")
    with open(args.out, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
