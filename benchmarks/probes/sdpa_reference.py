"""PyTorch SDPA on the shapes of the attention-like ops' `large` cases, without each op's extra (sinks, soft-cap,
window, MLA's shared rotary part): a reference point for the kernels' TFLOP/s where PyTorch has no kernel for the
op itself. Causal, bf16; flops = 2 B H S^2 (Dqk + Dv) (causal half). Prints a table, writes JSON.

    python3 benchmarks/probes/sdpa_reference.py --out sdpa.json
"""
from __future__ import annotations

import argparse
import json
import statistics

import torch

#: op → (B, H, Hkv, S, Dqk, Dv) of its large case
SHAPES = {"attention_sinks": (1, 64, 8, 4096, 64, 64), "gemma_attention": (1, 16, 8, 8192, 256, 256),
          "mla_prefill": (1, 128, 128, 4096, 192, 128), "attention": (4, 16, 16, 4096, 128, 128)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=10)
    opts = ap.parse_args()
    rows = []
    for op, (b, h, hkv, s, dqk, dv) in SHAPES.items():
        q = torch.randn(b, h, s, dqk, device="cuda", dtype=torch.bfloat16)
        k = torch.randn(b, hkv, s, dqk, device="cuda", dtype=torch.bfloat16)
        v = torch.randn(b, hkv, s, dv, device="cuda", dtype=torch.bfloat16)
        row = {"op": op, "shape": [b, h, hkv, s, dqk, dv]}
        try:
            def call():
                return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=h != hkv)
            for _ in range(2):
                call()
            times = []
            for _ in range(opts.reps):
                a, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                call()
                e.record()
                torch.cuda.synchronize()
                times.append(a.elapsed_time(e) * 1e3)
            us = statistics.median(times)
            row.update(median_us=us, TFLOPs=2 * b * h * s * s * (dqk + dv) / 2 / (us * 1e-6) / 1e12)
        except Exception as exc:  # noqa: BLE001
            row["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
        rows.append(row)
        print(op, row.get("median_us"), row.get("TFLOPs"), row.get("error", ""), flush=True)
    json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, open(opts.out, "w"), indent=1)


if __name__ == "__main__":
    main()
