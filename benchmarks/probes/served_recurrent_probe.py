"""On a GPU: where the Rust port of TileGym's recurrent gated-delta-rule decode kernel differs from cuTile Python.

TileGym's `test_op[cutile-decode-fp32]` failed through the launch backend (max |err| 1.1e-3 on outputs ~1e-4) while
the port is proven IR-equivalent at that specialization. This runs TileGym's op on the test's inputs (B=2, T=1, H=4,
K=V=64, f32; B=1 too) both ways and prints, per (batch, head), the largest difference and the ratio of the two
outputs, so the cause (a batch- or head-dependent address: the kernel's gathers of Gate/Beta take strides as entry
parameters) shows. Usage: TILEPORT_SERVED=LIB python benchmarks/probes/served_recurrent_probe.py TILEGYM OUT.json
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def main() -> int:
    corpus, out = Path(sys.argv[1]), Path(sys.argv[2])
    sys.path[:0] = [str(corpus / "src"), str(corpus)]
    os.environ["TILEGYM_DISABLE_AUTOTUNE"] = "1"
    import torch

    import tilegym
    from tilegym.ops import recurrent_gated_delta_rule

    from tileport.runtime import intercept

    tilegym.set_backend("cutile")
    rows = []
    for b, h in ((2, 4), (1, 4), (2, 1), (3, 2)):
        torch.manual_seed(42)
        q, k, v = (torch.randn(b, 1, h, 64, device="cuda") * 0.1 for _ in range(3))
        g = -torch.abs(torch.randn(b, 1, h, device="cuda")) * 0.5
        beta = torch.sigmoid(torch.randn(b, 1, h, device="cuda"))
        args = (q, k, v, g, beta)
        want, _ = recurrent_gated_delta_rule(*(t.clone() for t in args))
        with intercept.rust_launches():
            got, _ = recurrent_gated_delta_rule(*(t.clone() for t in args))
        torch.cuda.synchronize()
        diff = (got - want).abs().amax(dim=(1, 3))          # per (batch, head)
        ratio = (got / want).median(dim=3).values.squeeze(1)
        rows.append({"B": b, "H": h, "g_strides": list(g.stride()), "max_diff_per_batch_head": diff.tolist(),
                     "median_ratio_per_batch_head": ratio.tolist()})
        print(json.dumps(rows[-1]))
    out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
