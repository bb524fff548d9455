"""On a GPU: does cuda.tile 1.7's f64 `ct.max` / `ct.min` give the right answer, given that its bytecode writes the
reduce identity with the sign lost (docs/corpus.md, limits: `-inf` comes back as `0x7FF0000000000000`, +inf)?

A max reduction whose identity is +inf returns +inf whenever the identity takes part, so each case reduces rows of
all-negative and of mixed values, of a full tile and of a tile padded past the array's end (the padded lanes load
-inf for max, +inf for min). f32 runs beside it as the control. Prints
one line per case and writes JSON.

    python benchmarks/probes/f64_max_identity.py [--out f64_max_identity.json]
"""
from __future__ import annotations

import argparse
import json

import cuda.tile as ct
import torch


@ct.kernel
def row_max(x, y, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, B), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(y, index=(ct.bid(0),), tile=ct.reshape(ct.max(t, axis=1), (1,)))


@ct.kernel
def row_min(x, y, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, B), padding_mode=ct.PaddingMode.POS_INF)
    ct.store(y, index=(ct.bid(0),), tile=ct.reshape(ct.min(t, axis=1), (1,)))


def case(kernel, ref, dtype, cols, B, sign):
    torch.manual_seed(0)
    x = sign * (torch.rand(4, cols, device="cuda", dtype=dtype) + 0.5)
    y = torch.empty(4, device="cuda", dtype=dtype)
    ct.launch(torch.cuda.current_stream(), (4, 1, 1), kernel, (x, y, B))
    torch.cuda.synchronize()
    want = ref(x, dim=1).values
    return {"kernel": kernel.__name__ if hasattr(kernel, "__name__") else str(kernel), "dtype": str(dtype),
            "cols": cols, "B": B, "values": "negative" if sign < 0 else "positive",
            "got": y.tolist(), "want": want.tolist(), "equal": bool(torch.equal(y, want))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="f64_max_identity.json")
    args = ap.parse_args()
    rows = []
    for dtype in (torch.float64, torch.float32):
        for name, kernel, ref, sign in (("max", row_max, torch.max, -1.0), ("min", row_min, torch.min, 1.0)):
            for cols, B in ((64, 64), (50, 64)):
                r = case(kernel, ref, dtype, cols, B, sign)
                r["kernel"] = name
                rows.append(r)
                print(f"{name} {r['dtype']} cols={cols} B={B} {r['values']}: "
                      f"{'ok' if r['equal'] else 'WRONG'} got {r['got'][:2]} want {r['want'][:2]}")
    with open(args.out, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
