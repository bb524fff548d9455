"""Record, on a GPU host, the KernelSignature cuda-tile derives from real torch arguments (what ct.launch
specializes on). Ground truth for `tileport capture`, which must derive the same on a CPU without a driver.

Usage: python3 scripts/record_launch_signatures.py OUT.json
"""
import dataclasses
import json
import sys

import cuda.tile as ct
import torch
from cuda.tile.compilation import CallingConvention, KernelSignature


@ct.kernel
def probe2(x, y, n: int, s: float, K: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(K, K))
    ct.store(y, index=(ct.bid(0), 0), tile=t)


def describe(c):
    if dataclasses.is_dataclass(c):
        return {"type": type(c).__name__,
                **{f.name: repr(getattr(c, f.name)) for f in dataclasses.fields(c)}}
    return {"type": type(c).__name__, "value": repr(c)}


def case(name, x, y, n=7, s=0.5):
    try:
        sig = KernelSignature.from_kernel_args(probe2, (x, y, n, s, 16), CallingConvention.cutile_python_v1())
    except Exception as exc:  # the rejection is itself the fact to record
        return {"case": name, "error": f"{type(exc).__name__}: {exc}"}
    return {"case": name, "x": {"shape": list(x.shape), "stride": list(x.stride()), "dtype": str(x.dtype),
                                "ptr_mod_256": x.data_ptr() % 256},
            "symbol": sig.symbol, "params": [describe(p) for p in sig.parameters]}


def main():
    dev = "cuda"
    base = torch.randn(1024, 1024, device=dev)
    out = torch.empty(1024, 1024, device=dev)
    cases = [
        case("contiguous f32 2-D", base, out),
        case("transposed view", base.t(), out),
        case("row slice (offset 1 row)", base[1:], out[1:]),
        case("column slice (offset 1 elem)", base[:, 1:], out[:, 1:]),
        case("odd shape 1000x999", torch.randn(1000, 999, device=dev), torch.empty(1000, 999, device=dev)),
        case("f16", base.half(), out.half()),
        case("bf16", base.bfloat16(), out.bfloat16()),
        case("broadcast (stride 0)", torch.randn(1, 1024, device=dev).expand(1024, 1024), out),
        case("same tensor twice (aliasing)", base, base),
        case("python int > 2**31", base, out, n=2**33),
    ]
    json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(), "cases": cases},
              open(sys.argv[1], "w"), indent=1)
    print(f"recorded {len(cases)} cases")


if __name__ == "__main__":
    main()
