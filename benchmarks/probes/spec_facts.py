"""Specialization facts at a launch: cuTile Python's (what a port is proven at) vs cutile-rs's (what the served
library compiles at), and what each makes of the Rust entry, on the CPU.

For each launch of the kernels below (TileGym test captures, build/cap22/tests), per array argument:
  py  = tileport's array_sig (cuTile Python's rules: extent %16 or 1, stride %(16/itemsize) or 1, base 16 or 1),
        formatted as the port's `specs` string (shape divs / stride divs / unit strides / base / disjoint);
  rs  = cutile-compiler 0.3.1 `compute_spec` (specialization.rs: max power-of-2 divisor <= 16 of each extent and
        stride, base pointer alignment <= 16, elements_disjoint by sorted strides), which rt.rs' borrowed tensors
        carry into cutile's launcher and compile.
Then the port's irgen binary compiles the entry at the variant's proven specs and at the rs facts; each bytecode and
the cuTile Python reference go through tileiras (sm_90) and nvdisasm, and the SASS instruction mix is compared.
Last, two ablations compile cuTile Python's own kernel with one Rust-side IR difference patched into its bytecode
(see `ablations`). Findings: benchmarks/probes/spec_facts.md.

Needs the port dirs built (`/tmp/sf/<kernel>` copies of build/ports25/..., see BUILD below); runs on the CPU:
    PYTHONPATH=src .venv/bin/python benchmarks/probes/spec_facts.py [--no-sass]
(in a worktree also CARGO_TARGET_DIR=/work/main/rust/target; --no-sass prints only the fact tables).
"""
from __future__ import annotations

import collections
import glob
import json
import re
import subprocess
import sys
from pathlib import Path

from tileport.frontends.arrays import ArrayFacts, array_sig
from tileport.frontends.cutile_py.hints import cutile_options
from tileport.rustgen import crate as cratemod
from tileport.toolchain.locate import find_cuda_tree, run_tool

ROOT = Path("/work/main/build")
PORTS, CAPS, WORK = ROOT / "ports25", ROOT / "cap22" / "tests", Path("/tmp/sf")
KERNELS = ["experimental.mhc._mhc_apply_residual_kernel", "softmax._softmax_kernel_tma", "moe._fused_moe_kernel"]
NVDISASM = (glob.glob("/work/torchenv/lib/python3*/site-packages/triton/backends/nvidia/bin/nvdisasm") or [None])[0]


def pow2_div(v: int) -> int:
    """cutile-rs DivHint::from_value: the largest power of 2 dividing v, at most 16 (0 → 16)."""
    return 16 if v == 0 else min(v & -v, 16)


def rs_spec(shape, strides, ptr: int) -> str:
    """cutile-rs compute_spec, in irgen's --spec format (stride divisors per dimension, as compute_spec stores them)."""
    base = 1 << min((ptr & -ptr).bit_length() - 1, 4) if ptr else 16
    pairs = sorted(zip(strides, shape))
    disjoint = not pairs or pairs[0][0] > 0
    for (s0, d0), (s1, _) in zip(pairs, pairs[1:]):
        if s1 <= 0 or s1 < s0 * d0:
            disjoint = False
            break
    return (f"{','.join(str(pow2_div(n)) for n in shape)}/{','.join(str(pow2_div(s)) for s in strides)}/"
            f"{','.join('1' if s == 1 else '0' for s in strides)}/{base}/{int(disjoint)}")


def py_spec(f: ArrayFacts, static: list[int]) -> str:
    """array_sig in the port's specs format (translate/emit.py: dynamic strides' divisors first)."""
    p = array_sig(f)
    dyn = [d for d in range(len(static)) if static[d] == -1]
    sdiv = [p.stride_div[d] for d in dyn] + [p.stride_div[d] for d in range(len(static)) if d not in dyn]
    return (f"{','.join(map(str, p.shape_div))}/{','.join(map(str, sdiv))}/"
            f"{','.join('1' if s == 1 else '0' for s in static)}/{p.base_align}/{0 if p.may_alias else 1}")


#: the SASS features that tell the cubins apart (counts): TMA, global access widths, local memory (spills, and a
#: stack array reached through generic ST.E/LD.E), ldmatrix, selects, and where HGMMA takes its A operand
FEATURES = {"TMA": r"\bUTMA(?:LDG|STG)", "LDG": r"\bLDG\.E\b(?!\.)", "LDG.128": r"\bLDG\.E\.128",
            "STG.128": r"\bSTG\.E\.128", "STL": r"\bSTL\b", "stackST.E": r"\bST\.E\b", "LDSM": r"\bLDSM",
            "SEL": r"\bSEL\b", "HGMMA(A in regs)": r"HGMMA\S* R\d+, R\d+", "HGMMA(A in smem)": r"HGMMA\S* R\d+, gdesc"}


def feature_header(label: str) -> str:
    return f"   {label:8s} {'instrs':>6s} " + " ".join(f"{k:>{max(len(k), 3)}s}" for k in FEATURES)


def feature_row(tag: str, m: dict) -> str:
    return f"   {tag:8s} {m['n']:6d} " + " ".join(f"{m['features'][k]:>{max(len(k), 3)}d}" for k in FEATURES)


def instructions(sass: str) -> list[str]:
    """The instruction lines, operands included, without addresses and encodings."""
    return [re.sub(r"\s+", " ", m) for m in re.findall(r"^\s+/\*[0-9a-f]{4,}\*/\s+([A-Z@][^;]*);", sass, re.M)]


def sass_mix(tree, bc: Path) -> dict:
    cubin = bc.with_suffix(".cubin")
    run_tool(tree, "tileiras", ["--gpu-name=sm_90", "-o", str(cubin), str(bc)])
    sass = subprocess.run([NVDISASM, str(cubin)], capture_output=True, text=True).stdout
    ops = re.findall(r"^\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", sass, re.M)
    mem = collections.Counter(o for o in ops if re.match(r"(UTMA|LDG|STG|LDS|STS|LDL|STL|LDSM|UBLKCP|ATOM|RED)", o))
    return {"n": len(ops), "mem": dict(sorted(mem.items())), "sass": sass,
            "features": {k: len(re.findall(v, sass)) for k, v in FEATURES.items()}}


def sass_of_bytecode(tree, bc: bytes, work: Path) -> dict:
    path = work / "k.tileirbc"
    path.write_bytes(bc)
    return sass_mix(tree, path)


def launches(kernel: str) -> list[dict]:
    """The first three distinct launches (the served benchmark's pick)."""
    seen, out = set(), []
    for L in json.loads((CAPS / f"src.tilegym.ops.cutile.{kernel}.json").read_text())["launches"]:
        key = json.dumps([L["grid"], L["args"]], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(L)
    return out[:3]


def main(sass: bool) -> None:
    tree = find_cuda_tree()
    for kernel in KERNELS:
        pdir = WORK / kernel
        if not pdir.exists():
            import shutil
            shutil.copytree(PORTS / f"src.tilegym.ops.cutile.{kernel}", pdir)
        port = json.loads((pdir / "port.json").read_text())
        binary = cratemod.build(pdir, tree) if sass else None   # BUILD (cached in the shared target dir)
        for i, L in enumerate(launches(kernel)):
            v = next((v for v in port["variants"] if v["signature"] == L["signature"]), None)
            print(f"\n## {kernel.split('.')[-1]} launch {i}: grid {L['grid'][:2]}")
            if v is None:
                print("   no variant at this signature")
                continue
            rs_specs, rows = {}, []
            for a in L["args"]:
                if a["kind"] != "array" or a["name"] not in v["strides"]:
                    continue
                f = ArrayFacts(a["dtype"], tuple(a["shape"]), tuple(a["strides"]), (1 << 20) + a["data_ptr_mod_16"])
                py, rs = py_spec(f, v["strides"][a["name"]]), rs_spec(a["shape"], a["strides"], f.data_ptr)
                proven = v["specs"].get(a["name"], "-")
                rs_specs[a["name"]] = rs
                rows.append((a["name"], f"{a['shape']}/{a['strides']}", proven, rs, "" if proven == rs else "DIFF"))
                assert proven in (py, "-"), (a["name"], proven, py)
            print(f"   {'arg':26s} {'shape/strides':34s} {'proven (cuTile Py)':28s} {'cutile-rs runtime':28s}")
            for r in rows:
                print(f"   {r[0]:26s} {r[1]:34s} {r[2]:28s} {r[3]:28s} {r[4]}")
            if not sass:
                continue
            out = WORK / "out" / kernel / str(i)
            out.mkdir(parents=True, exist_ok=True)
            mixes = {}
            for tag, specs in (("proven", v["specs"]), ("runtime", rs_specs)):
                bc = out / f"{tag}.tileirbc"
                cratemod.irgen(binary, tree, v["entry"], bc, port["abi"][v["entry"]].get("types", []) + v["generics"],
                               v["strides"], "sm_90", specs, cutile_options(v.get("hints", {})))
                (out / f"{tag}.tileir.txt").write_text(run_tool(tree, "tileirdisasm", [str(bc)]).stdout)
                mixes[tag] = sass_mix(tree, bc)
            ref = out / "python.tileirbc"
            ref.write_bytes((pdir / v["reference"]).read_bytes())
            mixes["python"] = sass_mix(tree, ref)
            print(feature_header("SASS"))
            for tag, m in mixes.items():
                (out / f"{tag}.sass").write_text(m["sass"])
                print(feature_row(tag, m))
            ins = {t: instructions(m["sass"]) for t, m in mixes.items()}
            for a, b in (("runtime", "proven"), ("proven", "python")):
                n = sum(x != y for x, y in zip(ins[a], ins[b])) + abs(len(ins[a]) - len(ins[b]))
                print(f"   {a} vs {b}: " + ("same instructions" if not n else f"{n} instruction lines differ"))


def ablations() -> None:
    """cuTile Python's own kernels compiled with one Rust-side IR difference put into their bytecode: does that one
    difference make the Rust cubin's feature?  (a) mhc at the N=8 launch, its `ct.extract` index under the
    `assume bounded<0, 7>` that cutile-rs puts on a constant-range loop's index; (b) fused MoE, its rank-2 padded
    `ct.gather` as a load without padding and a select (tileport's form: cutile 0.3.1 cannot pad a rank-2 load)."""
    import tempfile
    import cuda.tile._bytecode as bc
    from cuda.tile._ir import ops
    from tileport.frontends.cutile_py.compile import export_bytecode
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.spec.signature import bind, parse

    def extract_bounded(self, ctx):
        index = [bc.encode_AssumeOp(ctx.builder, ctx.typeid_of(i), ctx.get_value(i),
                                    bc.Bounded(lb=0, ub=self.x.get_type().shape[d] // self.shape[d] - 1))
                 for d, i in enumerate(self.index)]
        return bc.encode_ExtractOp(ctx.builder, ctx.typeid_of(self.result_var), ctx.get_value(self.x), tuple(index))

    plain_load = ops.LoadPointer.generate_bytecode

    def load_then_select(self, ctx):
        if self.mask is None or self.padding_value is None or len(self.result_vars[0].get_type().shape) < 2:
            return plain_load(self, ctx)
        res, tok = bc.encode_LoadPtrTkoOp(
            ctx.builder, result_type=ctx.typeid_of(self.result_vars[0]), result_token_type=ctx.type_table.Token,
            source=ctx.get_value(self.pointer), mask=ctx.get_value(self.mask), paddingValue=None,
            token=None if self.token is None else ctx.get_value(self.token),
            memory_ordering_semantics=bc.MemoryOrderingSemantics.WEAK, memory_scope=None,
            optimization_hints=ctx.load_store_hints(self.latency, None))
        return bc.encode_SelectOp(ctx.builder, ctx.typeid_of(self.result_vars[0]), ctx.get_value(self.mask), res,
                                  ctx.get_value(self.padding_value)), tok

    tree = find_cuda_tree()
    for kernel, i, cls, patch, what in (
            (KERNELS[0], 1, ops.TileExtract, extract_bounded, "extract index assumed bounded<0, N-1>"),
            (KERNELS[2], 0, ops.LoadPointer, load_then_select, "rank-2 padded gather as load + select")):
        L = launches(kernel)[i]
        k = load_kernel(L["kernel"])
        sig = bind(parse(L["signature"]), k.param_names, k.name)
        orig = cls.generate_bytecode
        print(f"\n## ablation: {kernel.split('.')[-1]} launch {i} (cuTile Python), {what}")
        print(feature_header(""))
        for tag, gen in (("as is", orig), ("patched", patch)):
            cls.generate_bytecode = gen
            try:
                m = sass_of_bytecode(tree, export_bytecode(k, sig, tree, L.get("hints"))[1], Path(tempfile.mkdtemp()))
            finally:
                cls.generate_bytecode = orig
            print(feature_row(tag, m))


if __name__ == "__main__":
    main("--no-sass" not in sys.argv)
    if "--no-sass" not in sys.argv:
        ablations()
