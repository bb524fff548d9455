"""Register spills and code size of the ops' kernels as tileiras compiles them for sm_90 — on the CPU, no GPU needed.

For each op and PORT_SIGNATURE, the signature gets the facts ct.launch derives for a 16-byte aligned contiguous torch
tensor (extents and strides divisible by 16, base aligned to 16), the kernel is compiled to an sm_90 cubin with the
pinned cuda-tile/tileiras, and nvdisasm counts its instructions, local-memory spills (LDL/STL) and global loads.
A kernel that spills under its occupancy hint's register cap is slow at runtime (swiglu bf16 at (16, 256) tiles
spilled under occupancy 8 and ran at 62% of copy bandwidth, f16 at 89%).

nvdisasm is not part of the pinned toolchain: `pip download --no-deps nvidia-cuda-nvdisasm==13.5.37`, unzip the
wheel, and pass `--nvdisasm .../nvidia/cu13/bin/nvdisasm` (or put it on PATH).

    python3 benchmarks/probes/spill_check.py --ops swiglu,geglu,silu_and_mul [--variant BM=#16] [--nvdisasm PATH]
                                   [--json out.json]

--variant NAME=#VALUE also checks each signature with that constant's value replaced (e.g. a former tile).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tileport.frontends.cutile_py.compile import compile_kernel
from tileport.frontends.cutile_py.loader import load_kernel
from tileport.ops.registry import OPS
from tileport.spec.signature import ArraySig, Signature, bind, parse
from tileport.toolchain.locate import find_cuda_tree


def aligned(sig: Signature) -> Signature:
    """The signature with every dynamic extent and stride divisible by 16 and every base 16-byte aligned."""
    def fix(p):
        if not isinstance(p, ArraySig):
            return p
        return dataclasses.replace(p, shape_div=tuple(16 if v is None else 1 for v in p.shape),
                                   stride_div=tuple(16 if v is None else 1 for v in (p.strides or (None,) * p.rank)),
                                   base_align=16)
    return Signature(tuple((n, fix(p)) for n, p in sig.params))


def sass_counts(cubin: Path, nvdisasm: str) -> dict:
    sass = subprocess.run([nvdisasm, str(cubin)], capture_output=True, text=True, check=True).stdout
    instrs = re.findall(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", sass)
    return {"instructions": len(instrs), "spills": sum(op.startswith(("LDL", "STL")) for op in instrs),
            "global_loads": sum(op.startswith("LDG") for op in instrs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", required=True, help="comma-separated op names (tileport.ops)")
    ap.add_argument("--nvdisasm", default=shutil.which("nvdisasm"))
    ap.add_argument("--json", help="write the rows here too")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=#VALUE",
                    help="also each signature with this constant replaced (repeatable)")
    opts = ap.parse_args()
    if not opts.nvdisasm:
        sys.exit("nvdisasm not found: pass --nvdisasm (see this script's docstring)")
    tree = find_cuda_tree()
    rows = []
    for name in opts.ops.split(","):
        mod = OPS[name]
        kernel = load_kernel(f"{mod.kernel._pyfunc.__code__.co_filename}::{mod.kernel._pyfunc.__name__}")
        texts = list(mod.PORT_SIGNATURES)
        for v in opts.variant:
            name_, value = v.split("=#", 1)
            texts += [re.sub(rf"\b{name_}=#[^,]+", f"{name_}=#{value}", t) for t in mod.PORT_SIGNATURES
                      if f"{name_}=#" in t]
        for text in texts:
            sig = aligned(bind(parse(text), kernel.param_names, kernel.name))
            with tempfile.TemporaryDirectory() as tmp:
                res = compile_kernel(kernel, sig, tree, Path(tmp), "sm_90")
                row = {"op": name, "signature": sig.text(), **sass_counts(res.cubin, opts.nvdisasm)}
            rows.append(row)
            flag = "  SPILLS" if row["spills"] else ""
            print(f"{name:14} {row['instructions']:5} instrs {row['spills']:3} LDL/STL {row['global_loads']:3} LDG  "
                  f"{text}{flag}", flush=True)
    if opts.json:
        Path(opts.json).write_text(json.dumps({"command": " ".join(sys.argv), "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
