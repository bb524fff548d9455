"""Which f32 math makes the 16-bit row and element-wise kernels slow? Variants of one softmax row kernel and one
silu-gate kernel, timed with cuTile Python on the GPU (16-bit input, f32 math): exp vs exp2(x * log2 e), a division
per element vs one reciprocal per row, IEEE vs approximate division; plus a plain convert-and-copy as the floor.

    python3 benchmarks/probes/math_probe.py --out math_probe.json [--rows 8192] [--cols 4096]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cuda.tile as ct

LOG2E = 1.4426950408889634
APPROX = ct.RoundingMode.APPROX


@ct.kernel(occupancy=4)
def copy_rows(x, y, B: ct.Constant[int]):
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, B), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(t, y.dtype))


@ct.kernel(occupancy=4)
def sm_exp_div(x, y, B: ct.Constant[int]):
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, B), padding_mode=ct.PaddingMode.NEG_INF), ct.float32)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(e / ct.sum(e, axis=1, keepdims=True), y.dtype))


@ct.kernel(occupancy=4)
def sm_exp2_div(x, y, B: ct.Constant[int]):
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, B), padding_mode=ct.PaddingMode.NEG_INF), ct.float32)
    e = ct.exp2((t - ct.max(t, axis=1, keepdims=True)) * LOG2E)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(e / ct.sum(e, axis=1, keepdims=True), y.dtype))


@ct.kernel(occupancy=4)
def sm_exp2_rcp(x, y, B: ct.Constant[int]):
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, B), padding_mode=ct.PaddingMode.NEG_INF), ct.float32)
    e = ct.exp2((t - ct.max(t, axis=1, keepdims=True)) * LOG2E)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(e * (1.0 / ct.sum(e, axis=1, keepdims=True)), y.dtype))


@ct.kernel(occupancy=4)
def sm_exp_rcp(x, y, B: ct.Constant[int]):
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, B), padding_mode=ct.PaddingMode.NEG_INF), ct.float32)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(e * (1.0 / ct.sum(e, axis=1, keepdims=True)), y.dtype))


@ct.kernel(occupancy=4)
def sm_exp2_approx(x, y, B: ct.Constant[int]):
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, B), padding_mode=ct.PaddingMode.NEG_INF), ct.float32)
    e = ct.exp2((t - ct.max(t, axis=1, keepdims=True)) * LOG2E, flush_to_zero=True)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(ct.truediv(e, ct.sum(e, axis=1, keepdims=True),
                                                                rounding_mode=APPROX, flush_to_zero=True), y.dtype))


@ct.kernel
def silu_div(g, u, y, B: ct.Constant[int]):
    a = ct.astype(ct.load(g, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    b = ct.astype(ct.load(u, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y, index=(ct.bid(0),), tile=ct.astype(a / (1.0 + ct.exp(-a)) * b, y.dtype))


@ct.kernel
def silu_exp2_div(g, u, y, B: ct.Constant[int]):
    a = ct.astype(ct.load(g, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    b = ct.astype(ct.load(u, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y, index=(ct.bid(0),), tile=ct.astype(a / (1.0 + ct.exp2(a * -LOG2E)) * b, y.dtype))


@ct.kernel
def silu_exp2_approx(g, u, y, B: ct.Constant[int]):
    a = ct.astype(ct.load(g, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    b = ct.astype(ct.load(u, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    d = 1.0 + ct.exp2(a * -LOG2E, flush_to_zero=True)
    ct.store(y, index=(ct.bid(0),), tile=ct.astype(ct.truediv(a, d, rounding_mode=APPROX, flush_to_zero=True) * b,
                                                   y.dtype))


def main():
    import torch

    sys.path.insert(0, str(Path(__file__).parent))
    from tune_rows import time_us

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", type=int, default=8192)
    ap.add_argument("--cols", type=int, default=4096)
    opts = ap.parse_args()
    results = []
    for dtype in ("bfloat16", "float32"):
        x = torch.randn(opts.rows, opts.cols, device="cuda", dtype=getattr(torch, dtype))
        y = torch.empty_like(x)
        ref = x.float().softmax(-1)
        for k in (copy_rows, sm_exp_div, sm_exp2_div, sm_exp2_rcp, sm_exp_rcp, sm_exp2_approx):
            us = time_us(k, (opts.rows, 1, 1), (x, y, opts.cols))
            err = float((y.float() - ref).abs().max()) if k is not copy_rows else None
            results.append({"kernel": k._pyfunc.__name__, "dtype": dtype, "us": us, "max_abs_err": err})
            print(f"{k._pyfunc.__name__:16} {dtype:9} {us:8.1f} us  err {err}", flush=True)
        n = opts.rows * opts.cols
        g, u = x.view(-1), torch.randn_like(x).view(-1)
        yv = torch.empty_like(g)
        for k in (silu_div, silu_exp2_div, silu_exp2_approx):
            us = time_us(k, ((n + 1023) // 1024, 1, 1), (g, u, yv, 1024))
            err = float((yv.float() - torch.nn.functional.silu(g.float()) * u.float()).abs().max())
            results.append({"kernel": k._pyfunc.__name__, "dtype": dtype, "us": us, "max_abs_err": err})
            print(f"{k._pyfunc.__name__:16} {dtype:9} {us:8.1f} us  err {err}", flush=True)
    Path(opts.out).write_text(json.dumps({"device": torch.cuda.get_device_name(), "command": " ".join(sys.argv),
                                          "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
