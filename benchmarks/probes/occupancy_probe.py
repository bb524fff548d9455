"""Does cuTile's occupancy hint (`@ct.kernel(occupancy=N)`: expected CTAs per SM) speed up the row kernels?

For the row kernels (tileport.examples row_softmax / rms_norm / layer_norm at their tuned rows per block, and the
lowered one-row-per-program Triton kernels), the median kernel time at each occupancy hint, tokens x hidden input,
as a table and JSON. The hint is a compile option only: the IR the ports are proven against is unchanged by it.

    python3 benchmarks/probes/occupancy_probe.py --out occupancy.json [--rows 8192] [--cols 4096] [--occ 0,1,2,4,8,16]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from tune_rows import args_for, time_us  # noqa: E402

from tileport.ops import _common as C  # noqa: E402
from tileport.runtime.triton_port import _load_lowered  # noqa: E402
from tileport.kernels.triton import LOWERED_DIR  # noqa: E402


def lowered_args(op, x, y):
    n = x.shape[1]
    w = torch.randn(n, device="cuda", dtype=x.dtype)
    block = C.row_block(n)
    k = _load_lowered(LOWERED_DIR / f"{op}.py", op)
    if op == "triton_softmax":
        return k, (y, x, block)
    if op == "triton_rms_norm":
        return k, (x, w, y, 1.0 / n, 1e-6, block)
    return k, (x, w, torch.randn_like(w), y, n, 1.0 / n, 1e-5, block)


def attention_probe(occs: list[int], results: list) -> None:
    """The two attention kernels (cuTile's and the lowered Triton one) at [64, 4096, 128] bf16, non-causal."""
    from tileport.kernels.attention import attention

    bh, s, d = 64, 4096, 128
    q, k, v = (torch.randn(bh, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    o = torch.empty_like(q)
    tri = _load_lowered(LOWERED_DIR / "triton_attention.py", "triton_attention")
    cases = [("attention", attention, (bh, s // 64, 1), (q, k, v, o, d ** -0.5, 64, 64, d, False)),
             ("triton_attention", tri, (bh, s // 64, 1), (q, k, v, o, d ** -0.5, s, d, 64, 64, False))]
    for name, kernel, grid, args in cases:
        row = {"op": name, "dtype": "bfloat16", "shape": [bh, s, d], "us": {}}
        for occ in occs:
            kk = kernel if occ == 0 else kernel.replace_hints(occupancy=occ)
            try:
                row["us"][str(occ)] = time_us(kk, grid, args, reps=10)
            except Exception as exc:  # noqa: BLE001
                row["us"][str(occ)] = f"error: {type(exc).__name__}: {str(exc)[:200]}"
        results.append(row)
        print(f"{name:18} bfloat16  " + "  ".join(f"{k}:{v:8.1f}" if isinstance(v, float) else f"{k}:ERR"
                                                 for k, v in row["us"].items()), flush=True)


def op_probe(names: list[str], occs: list[int], results: list) -> None:
    """Op wrappers (cutile backend) at their `large` sample case, with the op's kernel re-hinted per occupancy."""
    import statistics

    from tileport.ops.registry import OPS, wrapper

    for name in names:
        mod = OPS[name]
        base = mod.kernel
        for dtype in ("float32", "bfloat16"):
            args, kwargs = mod.sample_inputs("large", dtype, "cuda")
            row = {"op": name, "dtype": dtype, "case": "large", "us": {}}
            for occ in occs:
                mod.kernel = base if occ == 0 else base.replace_hints(occupancy=occ)
                try:
                    fn = wrapper(name)
                    out = fn(*args, **kwargs, backend="cutile")
                    for _ in range(3):
                        fn(*args, **kwargs, backend="cutile", out=out)
                    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                          for _ in range(20)]
                    for a, b in ev:
                        a.record()
                        fn(*args, **kwargs, backend="cutile", out=out)
                        b.record()
                    torch.cuda.synchronize()
                    row["us"][str(occ)] = statistics.median(a.elapsed_time(b) * 1e3 for a, b in ev)
                except Exception as exc:  # noqa: BLE001
                    row["us"][str(occ)] = f"error: {type(exc).__name__}: {str(exc)[:200]}"
            mod.kernel = base
            results.append(row)
            print(f"{name:18} {dtype:9} " + "  ".join(f"{k}:{v:8.1f}" if isinstance(v, float) else f"{k}:ERR"
                                                    for k, v in row["us"].items()), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", type=int, default=8192)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--occ", default="0,1,2,4,8,16")
    ap.add_argument("--attention", action="store_true", help="also the attention kernels (occupancy 0, 1, 2)")
    ap.add_argument("--skip-rows", action="store_true", help="skip the row kernels")
    ap.add_argument("--ops", default="", help="op wrappers to probe (cutile backend, large case), e.g. swiglu,geglu")
    opts = ap.parse_args()
    results = []
    if opts.attention:
        attention_probe([0, 1, 2], results)
    if opts.ops:
        op_probe(opts.ops.split(","), [int(o) for o in opts.occ.split(",")], results)
    n = opts.cols
    block = C.row_block(n)
    for op in () if opts.skip_rows else ("row_softmax", "rms_norm", "layer_norm", "triton_softmax", "triton_rms_norm",
                                         "triton_layer_norm"):
        for dtype in ("float32", "bfloat16"):
            x = torch.randn(opts.rows, n, device="cuda", dtype=getattr(torch, dtype))
            y = torch.empty_like(x)
            if op.startswith("triton_"):
                bm = 1
                kernel, args = lowered_args(op, x, y)
            else:
                bm = C.rows_per_block(block, dtype, {("float32", 4096): 4} if op == "row_softmax" else None)
                kernel, args = args_for(op, x, y, bm, block)
            grid = C.row_grid(opts.rows, n, bm)
            row = {"op": op, "dtype": dtype, "rows": opts.rows, "cols": n, "BM": bm, "us": {}}
            for occ in map(int, opts.occ.split(",")):
                k = kernel if occ == 0 else kernel.replace_hints(occupancy=occ)
                try:
                    row["us"][str(occ)] = time_us(k, grid, args)
                except Exception as exc:  # noqa: BLE001
                    row["us"][str(occ)] = f"error: {type(exc).__name__}: {str(exc)[:200]}"
            best = min((v, k) for k, v in row["us"].items() if isinstance(v, float))
            row["best"] = {"occupancy": int(best[1]), "us": best[0]}
            results.append(row)
            cells = "  ".join(f"{k}:{v:7.1f}" if isinstance(v, float) else f"{k}:ERR" for k, v in row["us"].items())
            print(f"{op:18} {dtype:9} BM={bm:2}  {cells}   best occ {best[1]}", flush=True)
    Path(opts.out).write_text(json.dumps({"device": torch.cuda.get_device_name(), "command": " ".join(sys.argv),
                                          "note": "occupancy 0 = no hint (cuTile's default)", "results": results},
                                         indent=1) + "\n")


if __name__ == "__main__":
    main()
