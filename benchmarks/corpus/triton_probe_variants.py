"""Make the variant port folders `triton_hints_probe.py` times: each a copy of a corpus port's `lowered.py` /
`lowered.json` with one change to the lowered kernel (never the Triton source), for issue 21's open questions
(docs/triton.md, "Performance of the corpus ports").

    python benchmarks/corpus/triton_probe_variants.py --ports build/ttp --out build/gpu21/probe

Changes: `kernel:NAME=INT` (a `@ct.kernel` option: occupancy, num_worker_warps), `notma-loads` / `notma-stores`
(`allow_tma=False` on every ct.load / ct.store). (The dropouts' `fast-div` probe of 2026-12-05 is the lowering's
default since: Triton's div.full, bit for bit.)
Writes OUT/KERNEL.LABEL/ and OUT/probes.txt (one line per kernel: tutorial, kernel, then LABEL=DIR for each variant).
"""
from __future__ import annotations

import argparse
import ast
import shutil
from pathlib import Path

#: corpus port folder → (tutorial file, kernel, {label: changes}); "default" is the port as it is
PROBES = {
    "05-layer-norm._layer_norm_fwd_fused": ("05-layer-norm.py", "_layer_norm_fwd_fused", {
        "default": [], "occupancy=4": ["kernel:occupancy=4"],
        "w8.occupancy=2": ["kernel:num_worker_warps=8", "kernel:occupancy=2"],
        "w8.occupancy=4": ["kernel:num_worker_warps=8", "kernel:occupancy=4"],
        "plain_stores": ["notma-stores"],
        "notma": ["notma-loads", "notma-stores"],
        "notma.w8.occupancy=4": ["notma-loads", "notma-stores", "kernel:num_worker_warps=8", "kernel:occupancy=4"]}),
    "05-layer-norm._layer_norm_bwd_dx_fused": ("05-layer-norm.py", "_layer_norm_bwd_dx_fused", {
        "default": [], "w8": ["kernel:num_worker_warps=8"],
        "w8.occupancy=1": ["kernel:num_worker_warps=8", "kernel:occupancy=1"],
        "w8.occupancy=2": ["kernel:num_worker_warps=8", "kernel:occupancy=2"], "plain_stores": ["notma-stores"],
        "notma": ["notma-loads", "notma-stores"],
        "notma.w8.occupancy=2": ["notma-loads", "notma-stores", "kernel:num_worker_warps=8", "kernel:occupancy=2"]}),
    "02-fused-softmax.softmax_kernel": ("02-fused-softmax.py", "softmax_kernel", {
        "default": [], "plain_stores": ["notma-stores"], "w8.occupancy=4": ["kernel:num_worker_warps=8",
                                                                              "kernel:occupancy=4"],
        "notma": ["notma-loads", "notma-stores"]}),
    # whether Triton's pointer loads and stores (LDG/STG in Triton's cubins, never TMA) should lower without TMA
    # by default for kernels without a matrix product: every other pointer-based kernel of the tutorials
    "01-vector-add.add_kernel": ("01-vector-add.py", "add_kernel", {
        "default": [], "notma": ["notma-loads", "notma-stores"]}),
    "04-low-memory-dropout._dropout": ("04-low-memory-dropout.py", "_dropout", {
        "default": [], "notma": ["notma-loads", "notma-stores"]}),
    "04-low-memory-dropout._seeded_dropout": ("04-low-memory-dropout.py", "_seeded_dropout", {
        "default": [], "notma": ["notma-loads", "notma-stores"]}),
    "05-layer-norm._layer_norm_bwd_dwdb": ("05-layer-norm.py", "_layer_norm_bwd_dwdb", {
        "default": [], "notma": ["notma-loads", "notma-stores"]}),
    # and for the matrix products' pointer loads (Triton: cp.async, not TMA)
    "03-matrix-multiplication.matmul_kernel": ("03-matrix-multiplication.py", "matmul_kernel", {
        "default": [], "notma-loads": ["notma-loads"], "notma": ["notma-loads", "notma-stores"]}),
    "09-persistent-matmul.matmul_kernel_persistent": ("09-persistent-matmul.py", "matmul_kernel_persistent", {
        "default": [], "occupancy=1": ["kernel:occupancy=1"], "occupancy=2": ["kernel:occupancy=2"],
        "notma-loads": ["notma-loads"], "w4": ["kernel:num_worker_warps=4"]}),
    "06-fused-attention._attn_fwd": ("06-fused-attention.py", "_attn_fwd", {
        "default": [], "occupancy=1": ["kernel:occupancy=1"], "occupancy=2": ["kernel:occupancy=2"],
        "w4": ["kernel:num_worker_warps=4"]}),
}


class _Change(ast.NodeTransformer):
    def __init__(self, changes: list[str]):
        self.changes = changes

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        fn = ast.unparse(node.func)
        if (fn == "ct.load" and "notma-loads" in self.changes) or (fn == "ct.store" and "notma-stores" in self.changes):
            node.keywords = [k for k in node.keywords if k.arg != "allow_tma"] + [
                ast.keyword("allow_tma", ast.Constant(False))]
        return node


def changed(source: str, changes: list[str]) -> str:
    tree = _Change(changes).visit(ast.parse(source))
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for c in changes:
            if c.startswith("kernel:"):
                name, _, value = c[len("kernel:"):].partition("=")
                dec = fn.decorator_list[0]
                if not isinstance(dec, ast.Call):
                    dec = fn.decorator_list[0] = ast.Call(dec, [], [])
                dec.keywords = [k for k in dec.keywords if k.arg != name] + [ast.keyword(name, ast.Constant(int(value)))]
    return ast.unparse(tree) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ports", type=Path, required=True, help="a `tileport corpus port` output of the tutorials")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    lines = []
    for folder, (tutorial, kernel, variants) in PROBES.items():
        src = args.ports / folder
        if not (src / "lowered.py").exists():
            print(f"skipped {folder}: not lowered in {args.ports}")
            continue
        entry = [tutorial, kernel]
        for label, changes in variants.items():
            d = args.out / f"{folder}.{label.replace('=', '')}"   # (no "=" in it: probes.txt splits at the last)
            d.mkdir(parents=True, exist_ok=True)
            (d / "lowered.py").write_text(changed((src / "lowered.py").read_text(), changes))
            shutil.copy(src / "lowered.json", d / "lowered.json")
            entry.append(f"{label}={d.name}")
        lines.append(" ".join(entry))
    (args.out / "probes.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} kernels, variants in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
