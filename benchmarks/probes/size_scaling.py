"""How the memory-bound ops' share of copy bandwidth grows with the problem size — on the GPU.

The bench's ceiling is a device-to-device copy of 1 GiB (2 GiB of traffic, ~0.5 ms), where a kernel's fixed costs
(launch, the first wave's ramp, the last wave's tail) vanish; an op's `large` case moves 128-256 MB in 30-70 µs,
where they do not. This script times, at 1x, 2x and 4x the tokens of each op's large case: a torch copy of the same
bytes, the op through its cuTile Python kernel (backend cutile) and PyTorch's eager op, and prints each as % of the
1 GiB copy bandwidth and of the same-size copy. Prints a table; writes JSON.

    python3 benchmarks/probes/size_scaling.py --out sizes.json [--ops row_softmax,gelu_erf] [--dtypes bfloat16,float16]
                                    [--factors 1,2,4] [--reps 20]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

from tileport.bench.runner import copy_bandwidth, median_us
from tileport.ops.registry import OPS

DEFAULT_OPS = ("row_softmax", "layer_norm", "rms_norm", "gelu_erf", "rope")


def scaled_inputs(mod, dtype: str, factor: int):
    """The op's large-case inputs with the leading (token) dimension times ``factor``."""
    args, kwargs = mod.sample_inputs("large", dtype, "cuda")
    if factor == 1:
        return args, kwargs
    tokens = args[0].shape[0]
    grown = []
    for a in args:
        if isinstance(a, torch.Tensor) and a.dim() >= 1 and a.shape[0] == tokens:
            a = a.repeat(factor, *([1] * (a.dim() - 1)))
        grown.append(a)
    return tuple(grown), kwargs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--ops", default=",".join(DEFAULT_OPS))
    ap.add_argument("--dtypes", default="bfloat16,float16")
    ap.add_argument("--factors", default="1,2,4")
    ap.add_argument("--reps", type=int, default=20)
    opts = ap.parse_args()
    copy_1g = copy_bandwidth(torch, opts.reps)
    print(f"device copy (1 GiB): {copy_1g:.0f} GB/s", flush=True)
    rows = []
    for name in opts.ops.split(","):
        mod = OPS[name]
        for dtype in opts.dtypes.split(","):
            for factor in map(int, opts.factors.split(",")):
                args, kwargs = scaled_inputs(mod, dtype, factor)
                nbytes = mod.bytes_moved(args, kwargs)
                src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
                dst = torch.empty_like(src)
                op = getattr(mod, name)
                out = op(*args, **kwargs, backend="cutile")
                row = {"op": name, "dtype": dtype, "factor": factor, "shape": list(args[0].shape), "bytes": nbytes,
                       "copy_us": median_us(torch, lambda: dst.copy_(src), opts.reps),
                       "cutile_us": median_us(torch, lambda: op(*args, **kwargs, backend="cutile", out=out),
                                              opts.reps),
                       "eager_us": median_us(torch, lambda: mod.torch_eager(*args, **kwargs), opts.reps)}
                for key in ("copy", "cutile", "eager"):
                    gbps = nbytes / row[f"{key}_us"] / 1e3
                    row[f"{key}_pct_of_1g_copy"] = 100 * gbps / copy_1g
                row["cutile_pct_of_same_size_copy"] = 100 * row["copy_us"] / row["cutile_us"]
                rows.append(row)
                print(f"{name:11} {dtype:8} x{factor} {str(tuple(args[0].shape)):20} {nbytes / 1e6:7.0f} MB  "
                      f"copy {row['copy_us']:7.1f} µs ({row['copy_pct_of_1g_copy']:4.1f}%)  "
                      f"cutile {row['cutile_us']:7.1f} µs ({row['cutile_pct_of_1g_copy']:4.1f}%, "
                      f"{row['cutile_pct_of_same_size_copy']:4.1f}% of same-size copy)  "
                      f"eager {row['eager_us']:7.1f} µs ({row['eager_pct_of_1g_copy']:4.1f}%)", flush=True)
                torch.cuda.empty_cache()
    Path(opts.out).write_text(json.dumps({"device": torch.cuda.get_device_name(), "command": " ".join(sys.argv),
                                          "copy_1GiB_GBps": copy_1g, "results": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
