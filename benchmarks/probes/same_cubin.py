"""Is the Rust port's cubin cuTile Python's cubin? For each variant of a port directory (`tileport port ... --out
DIR`), the Rust entry compiled by the port's irgen at the variant's specs and cuTile Python's reference bytecode both
go through tileiras (sm_90) and nvdisasm; prints each one's instruction count and memory-instruction mix, how many
instruction lines differ, and register / parameter sizes (cuobjdump). Runs on the CPU (cargo for the irgen binary).

    PYTHONPATH=src .venv/bin/python benchmarks/probes/same_cubin.py DIR [--out FILE.json]

A kernel slower through Rust whose two cubins are the same instructions is slow outside its code (the launch, the
host path, timing); one whose cubins differ has an IR difference irdiff accepts but tileiras compiles differently
(spec_facts.md has two such). nvdisasm/cuobjdump come from a Triton install (`--nvdisasm`, default: the first
`site-packages/triton/backends/nvidia/bin` found under /tmp, /work or the venv).
"""
from __future__ import annotations

import argparse
import glob
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import spec_facts as sf  # noqa: E402  (the SASS helpers: instruction lines, memory mix)

from tileport.pipeline.port import compile_options  # noqa: E402
from tileport.rustgen import crate as cratemod  # noqa: E402
from tileport.toolchain.locate import find_cuda_tree  # noqa: E402


def _nvidia_bin() -> Path | None:
    for pattern in ("/tmp/*/lib/python3*/site-packages/triton/backends/nvidia/bin",
                    "/work/*/lib/python3*/site-packages/triton/backends/nvidia/bin",
                    ".venv/lib/python3*/site-packages/triton/backends/nvidia/bin"):
        hits = glob.glob(pattern)
        if hits:
            return Path(hits[0])
    return None


def _resources(cuobjdump: Path, cubin: Path) -> dict:
    text = subprocess.run([str(cuobjdump), "-res-usage", str(cubin)], capture_output=True, text=True).stdout
    return {k.lower(): int(v) for k, v in re.findall(r"\b(REG|STACK|SHARED|CONSTANT\[0\]):(\d+)", text)}


def compare(pdir: Path, nvbin: Path, only: str = "") -> list[dict]:
    tree = find_cuda_tree()
    sf.NVDISASM = str(nvbin / "nvdisasm")
    port = json.loads((pdir / "port.json").read_text())
    binary = cratemod.build(pdir, tree)
    rows = []
    for i, v in enumerate(port["variants"]):
        if only not in v.get("signature", ""):
            continue
        out = pdir / "same_cubin" / str(i)
        out.mkdir(parents=True, exist_ok=True)
        rust = out / "rust.tileirbc"
        abi = port["abi"][v["entry"]]   # (a type-generic entry: its function at its element types, as irdiff builds it)
        cratemod.irgen(binary, tree, abi.get("function", v["entry"]), rust, abi.get("types", []) + v["generics"],
                       v["strides"], "sm_90", v["specs"], compile_options(port, v))
        python = out / "python.tileirbc"
        python.write_bytes((pdir / v["reference"]).read_bytes())
        mix = {t: sf.sass_mix(tree, out / f"{t}.tileirbc") for t in ("python", "rust")}
        lines = {t: sf.instructions(m["sass"]) for t, m in mix.items()}
        differ = [(a, b) for a, b in zip(lines["python"], lines["rust"]) if a != b]
        n = len(differ) + abs(len(lines["python"]) - len(lines["rust"]))
        for t, m in mix.items():
            (out / f"{t}.sass").write_text(m["sass"])
        rows.append({"variant": i, "signature": v.get("signature"), "specs": v["specs"],
                     "instructions": {t: m["n"] for t, m in mix.items()},
                     "memory": {t: m["mem"] for t, m in mix.items()},
                     "resources": {t: _resources(nvbin / "cuobjdump", out / f"{t}.cubin") for t in mix},
                     "lines_differ": n, "first_differences": differ[:5]})
        print(f"variant {i} {v.get('signature', '')}")
        for t in ("python", "rust"):
            print(f"  {t:6s} {mix[t]['n']:6d} instrs  {rows[-1]['resources'][t]}  {mix[t]['mem']}")
        print("  " + ("same instructions" if not n else f"{n} instruction lines differ: {differ[:3]}"))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("port", type=Path, help="a port directory (`tileport port FILE::KERNEL --sig .. --out DIR`)")
    ap.add_argument("--nvdisasm", type=Path, help="folder holding nvdisasm and cuobjdump")
    ap.add_argument("--out", type=Path, help="write the rows as JSON here")
    ap.add_argument("--only", default="", metavar="TEXT", help="only the variants whose signature contains TEXT")
    args = ap.parse_args()
    nvbin = args.nvdisasm or _nvidia_bin()
    if nvbin is None or not (nvbin / "nvdisasm").exists():
        print("error: no nvdisasm found (install triton in some venv, or pass --nvdisasm DIR)", file=sys.stderr)
        return 2
    if not (args.port / "port.json").exists():
        print(f"error: {args.port} is not a port directory (no port.json)", file=sys.stderr)
        return 2
    rows = compare(args.port, nvbin, args.only)
    if args.out:
        args.out.write_text(json.dumps({"port": str(args.port), "variants": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
