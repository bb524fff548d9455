"""Tiles and kernel hints of the attention-family kernels, measured on the GPU with the cuTile Python kernels (the
ports are IR-equivalent, so a choice carries over; hints are compile options outside the proven IR).

attention: tileport.kernels.attention at (BM, BN) x occupancy x num_worker_warps on bf16 [B*H, S, 128]
(causal and not), each output checked against PyTorch's SDPA, next to SDPA's own time; for causal, also a
probe-only variant running the query blocks in launch order (the committed kernel reverses them). mla_decode: the
op wrapper (cutile backend) with its (BM, BN) tile and hints replaced, at B x 128 heads x Smax, full caches,
TFLOP/s and % of copy bandwidth. flat: gelu_erf and softcap (16-bit) at 1024..8192 elements per block. prefill:
mla_prefill, gemma_attention, attention_sinks (working tree vs committed kernel) per tile and hint. bmm: batch first
or last in the grid. rope: the committed kernel per (BT, BH) and occupancy against two probe-only forms
(benchmarks/probes/probe_kernels.py). rows: row_softmax, layer_norm (and its two-FMA form), rms_norm at bf16 LLM shapes per
rows per block and occupancy (or worker warps). The committed kernels come from `git show HEAD:...` (run it in a
checkout; --baseline DIR elsewhere). Prints tables; writes JSON.

    python3 benchmarks/probes/tile_probe.py --out tiles.json [--only attention|mla_decode|flat|prefill|bmm|rope|rows]
                                  [--mla-heads16] [--rope-committed] [--occupancy] [--warps] [--bm-warps] [--l1]
                                  [--reps 10]
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

import torch

import cuda.tile as ct

#: attention shapes: (B*H, S, D, causal); the first is the op's `large` bench case (4 x 16 heads, 4096)
ATT_SHAPES = [(64, 4096, 128, True), (64, 4096, 128, False), (16, 16384, 128, True), (64, 4096, 64, True)]
ATT_TILES = [(64, 64), (64, 128), (128, 64), (128, 128)]
ATT_HINTS = [(1, None), (2, None), (1, 8), (2, 8)]   # (occupancy, num_worker_warps)
#: mla_decode: (B, H, Smax); tiles (BM heads, BN positions); hints as above
MLA_SHAPES = [(64, 128, 8192), (4, 128, 8192), (64, 16, 8192)]
MLA_TILES = [(32, 32), (64, 32), (64, 64)]
MLA_HINTS = [(1, None), (1, 8), (2, None)]
#: with --mla-heads16: the H <= 16 tile against the 64-head one (the first shape confirms the chosen configuration)
MLA16_SHAPES = [(64, 128, 8192), (64, 16, 8192), (16, 16, 4096)]
MLA16_TILES = [(16, 32), (64, 64)]
MLA16_HINTS = [(1, None), (1, 8)]
#: with --mla-wide: 128 cache positions per key tile
MLA_WIDE = ([(64, 128, 8192), (16, 128, 4096)], [(64, 64), (64, 128)], [(1, 8)])


def timed(fn, reps: int) -> float:
    """Median µs of fn() over reps, each between two CUDA events, after three warm-up calls, queued behind a GPU
    sleep as the bench does (tileport.bench.runner.time_calls): short kernels are timed, not the Python launch."""
    from tileport.bench.runner import median_us

    return median_us(torch, fn, reps)


def hinted(kernel, occ, nww):
    """The kernel with exactly these hints (None: the compiler's choice), whatever its decorator says."""
    return kernel.replace_hints(occupancy=occ, num_worker_warps=nww)


def measure(row: dict, label: str, call, reps: int, metrics) -> None:
    """Time ``call`` into row["us"], add ``metrics(us)`` (derived numbers, the error against the reference) and
    print one line; a configuration that does not compile or run is recorded with its error (a result too)."""
    try:
        row["us"] = timed(call, reps)
        extra = metrics(row["us"])
        row.update(extra)
        print(f"{label}: {row['us']:8.1f} µs  " + "  ".join(f"{k} {v:.4g}" for k, v in extra.items()), flush=True)
    except Exception as exc:  # noqa: BLE001
        row["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
        print(f"{label}: {row['error'][:120]}", flush=True)


def max_err(out, ref) -> float:
    return (out.float() - ref.float()).abs().max().item()


def kernel_from_source(src: str, name: str, tag: str):
    """Kernel ``name`` of a module made from ``src`` (cuTile reads kernel source from files: a temporary one)."""
    import importlib.util
    import tempfile

    path = Path(tempfile.mkdtemp()) / f"{name}_{tag}.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location(f"{name}_{tag}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


#: tag → text rewrites of a committed row kernel's source (the kernel as it is in the working tree, with these
#: options added): its stores, or its stores and x's load, without TMA (plain global stores and loads: no shared
#: memory staging, fewer instructions in the sm_90 cubins)
#: a rewrite: allow_tma=False added to each line that ends one such call and does not set allow_tma already
NO_TMA = r"\1, allow_tma=False)"
STORE_Y = (r"(ct\.store\(y, (?!.*allow_tma).*)\)$", NO_TMA)
SOURCE_REWRITES = {
    "store-notma": [STORE_Y],
    "notma": [STORE_Y, (r"(ct\.load\(x, (?!.*allow_tma).*padding_mode=ct\.PaddingMode\.\w+)\)$", NO_TMA)],
    # the weights (and bias) through L1, which the blocks of one SM share; x still by TMA
    "l1": [(r"(ct\.load\([wb], (?!.*allow_tma).*padding_mode=ct\.PaddingMode\.\w+)\)$", NO_TMA)],
}


def rewritten_kernel(name: str, tag: str):
    """The working tree's tileport.kernels.<name> kernel with SOURCE_REWRITES[tag] applied (each must match)."""
    import re

    import tileport.kernels

    src = (Path(tileport.kernels.__file__).parent / f"{name}.py").read_text()
    for pattern, repl in SOURCE_REWRITES[tag]:
        src, n = re.subn(pattern, repl, src, flags=re.M)
        if not n:
            raise ValueError(f"{name}: rewrite {tag} found nothing to change ({pattern})")
    return kernel_from_source(src, name, tag.replace("-", "_"))


def in_order_attention():
    """The attention kernel with its query blocks in launch order (the committed one reverses them): a probe-only
    variant made from the example's source."""
    from tileport.kernels import attention as mod

    src = Path(mod.__file__).read_text()
    rev = next(line for line in src.splitlines() if "i = ct.num_blocks(1) - 1 - ct.bid(1)" in line)
    return kernel_from_source(src.replace(rev, "    i = ct.bid(1)"), "attention", "in_order")


def attention_probe(reps: int, results: list) -> None:
    from tileport.kernels.attention import attention

    variants = {"attention": attention, "in-order": in_order_attention()}
    torch.manual_seed(0)
    stream = torch.cuda.current_stream()
    for bh, s, d, causal in ATT_SHAPES:
        q, k, v = (torch.randn(bh, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
        ref = torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=causal)[0]
        flops = 4 * bh * s * s * d // (2 if causal else 1)
        sdpa = timed(lambda: torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None],
                                                                             is_causal=causal), reps)
        head = {"kernel": "attention", "shape": [bh, s, d], "causal": causal, "sdpa_us": sdpa,
                "sdpa_TFLOPs": flops / sdpa / 1e6}
        print(f"attention [{bh}, {s}, {d}] causal={causal}: SDPA {sdpa:8.1f} µs {flops / sdpa / 1e6:6.1f} TFLOP/s",
              flush=True)
        for name, (bm, bn), (occ, nww) in itertools.product(variants, ATT_TILES, ATT_HINTS):
            if name == "in-order" and not (causal and (occ, nww) == ATT_HINTS[1]):
                continue
            if (d, causal) != (128, True) and (occ, nww) not in ATT_HINTS[1:3]:
                continue   # every hint on the causal d=128 shapes only (fewer compiles)
            row = dict(head, variant=name, BM=bm, BN=bn, occupancy=occ, num_worker_warps=nww)
            kern = hinted(variants[name], occ, nww)
            o = torch.empty_like(q)
            args = (q, k, v, o, d ** -0.5, bm, bn, d, causal)
            grid = (bh, -(-s // bm), 1)
            measure(row, f"  {name:9} BM={bm:3} BN={bn:3} occ={occ} nww={nww}",
                    lambda: ct.launch(stream, grid, kern, args), reps,
                    lambda us: {"TFLOPs": flops / us / 1e6, "pct_of_sdpa": 100 * sdpa / us,
                                "max_abs_err": max_err(o, ref)})
            results.append(row)


def mla_probe(reps: int, results: list, copy_gbps: float, shapes, tiles, hints) -> None:
    from tileport.ops import mla_decode as mod

    base = mod.kernel, mod.BM, mod.BN
    try:
        for b, h, smax in shapes:
            args, kwargs = mod.sample_inputs("large", "bfloat16", "cuda")
            q_nope, q_pe, ckv, kpe, _ = args
            q_nope, q_pe, ckv, kpe = q_nope[:b, :h], q_pe[:b, :h], ckv[:b, :smax], kpe[:b, :smax]
            lens = torch.full((b,), smax, dtype=torch.int32, device="cuda")
            inputs = (q_nope.contiguous(), q_pe.contiguous(), ckv.contiguous(), kpe.contiguous(), lens)
            ref = mod.mla_decode(*inputs, backend="cutile")
            flops = mod.flops(inputs, {})
            nbytes = mod.bytes_moved(inputs, {})
            for (bm, bn), (occ, nww) in itertools.product(tiles, hints):
                row = {"kernel": "mla_decode", "shape": [b, h, smax], "BM": bm, "BN": bn, "occupancy": occ,
                       "num_worker_warps": nww}
                mod.kernel, mod.BM, mod.BN = hinted(base[0], occ, nww), bm, bn
                out = torch.empty_like(ref)
                measure(row, f"mla_decode {b}x{h}x{smax} BM={bm} BN={bn} occ={occ} nww={nww}",
                        lambda: mod.mla_decode(*inputs, backend="cutile", out=out), reps,
                        lambda us: {"TFLOPs": flops / us / 1e6, "GBps": nbytes / us / 1e3,
                                    "pct_of_copy": nbytes / us / 1e3 / copy_gbps * 100,
                                    "max_abs_err_vs_current": max_err(out, ref)})
                results.append(row)
    finally:
        mod.kernel, mod.BM, mod.BN = base


#: flat element-wise ops with long f32 math: elements per block, 16-bit, over the ops' large case
FLAT_OPS = ("gelu_erf", "softcap")
#: mode → (elements per block, (occupancy, num_worker_warps) hints — None: the kernel's own —, dtypes, the
#: probe_kernels.py rewrites timed beside each op's committed kernel)
FLAT_MODES = {"blocks": ((1024, 2048, 4096, 8192), [(None, None)], ("float16", "bfloat16"), {}),
              "occupancy": ((1024, 2048), [(None, None), (4, None), (6, None), (8, None)], ("float16", "bfloat16"),
                            {}),
              "warps": ((1024, 2048, 4096), [(None, None), (8, None), (4, 8), (2, 8)],
                        ("float16", "bfloat16", "float32"), {}),
              "absdiff": ((4096,), [(None, None)], ("float16", "bfloat16"), {"gelu_erf": ["absdiff"]}),
              "loads": ((4096, 8192), [(None, None), (16, None), (8, 8)], ("float16", "bfloat16"),
                        {"gelu_erf": ["nopad", "halves", "wide", "rows"]})}
#: tags timing probe_kernels.gelu_erf_view, x and y as 2-d views [n / width, width] (n a multiple of width)
FLAT_VIEWS = {"wide": 1024, "rows": 64}


def flat_probe(reps: int, results: list, copy_gbps: float, mode: str = "blocks") -> None:
    import importlib

    import probe_kernels as pk

    stream = torch.cuda.current_stream()
    blocks, hints, dtypes, rewrites = FLAT_MODES[mode]
    for name in FLAT_OPS:
        mod = importlib.import_module(f"tileport.ops.{name}")
        kernels = [("committed", mod.kernel)] + [(tag, getattr(pk, f"{name}_view" if tag in FLAT_VIEWS else
                                                               f"{name}_{tag}")) for tag in rewrites.get(name, [])]
        for dtype in dtypes:
            x = mod.sample_inputs("large", dtype, "cuda")[0][0].reshape(-1)
            y = torch.empty_like(x)
            ref = torch.nn.functional.gelu(x.float()) if name == "gelu_erf" else None
            for (tag, base), b, (occ, nww) in itertools.product(kernels, blocks, hints):
                extra = (50.0, b) if name == "softcap" else \
                    mod.kernel_extra(x.numel(), b) if tag == "committed" else (b,)
                width = FLAT_VIEWS.get(tag, 1)
                args = (x.view(-1, width), y.view(-1, width), *extra, width) if width > 1 else (x, y, *extra)
                kern = base if occ is None and nww is None else hinted(base, occ, nww)
                row = {"kernel": f"{name}_{tag}", "dtype": dtype, "n": x.numel(), "B": b, "occupancy": occ,
                       "num_worker_warps": nww}
                nbytes = 2 * x.numel() * x.element_size()
                y.fill_(float("nan"))   # poisoned: an element a candidate leaves unwritten shows in its error
                measure(row, f"{name:9} {tag:9} {dtype:9} B={b:5} occ={occ} nww={nww}",
                        lambda: ct.launch(stream, (-(-x.numel() // b), 1, 1), kern, args), reps,
                        lambda us: {"GBps": nbytes / us / 1e3, "pct_of_copy": 100 * nbytes / us / 1e3 / copy_gbps,
                                    **({"max_abs_err": max_err(y, ref)} if ref is not None else {})})
                results.append(row)


#: op → (tile attributes of its module → values to try, hints to try, the committed tile); each op's kernel as
#: committed (`HEAD`) is timed too, at its committed tile, as the baseline
PREFILL = {"mla_prefill": ({"BM,BN": [(64, 64), (128, 64), (128, 128)]}, [(2, None), (1, 8)], ("BM,BN", (64, 64))),
           "gemma_attention": ({"TILES": [{128: (64, 64), 256: t} for t in ((64, 32), (64, 64), (128, 32), (128, 64))]},
                               [(2, None), (1, 8)], ("TILES", {128: (64, 64), 256: (64, 32)})),
           "attention_sinks": ({"BM,BN": [(64, 64), (128, 64)]}, [(2, None)], ("BM,BN", (64, 64)))}


#: --case mid: gemma_attention at head dim 128 (its mid case), the 64-row tile against the 128-row one
PREFILL_MID = {"gemma_attention": ({"TILES": [{128: t, 256: (128, 64)} for t in ((64, 64), (128, 64))]},
                                   [(2, None), (1, 8)], ("TILES", {128: (128, 64), 256: (128, 64)}))}


def committed_source(name: str, baseline: str | None) -> str:
    """kernels/<name>.py as committed: from ``baseline``/<name>.py when given (a machine without git), else git."""
    import subprocess

    if baseline:
        return (Path(baseline) / f"{name}.py").read_text()
    return subprocess.run(["git", "show", f"HEAD:src/tileport/kernels/{name}.py"], capture_output=True, text=True,
                          check=True).stdout


def prefill_probe(reps: int, results: list, baseline: str | None, case: str = "large") -> None:
    """The working tree's attention-like prefill kernels (cutile backend, the op wrappers at their large case) at
    each tile and hint, against the committed kernel at its committed tiles."""
    import importlib

    for name, (tiles, hints, committed) in (PREFILL if case == "large" else PREFILL_MID).items():
        mod = importlib.import_module(f"tileport.ops.{name}")
        args, kwargs = mod.sample_inputs(case, "bfloat16", "cuda")
        flops = mod.flops(args, kwargs)
        saved = {k: getattr(mod, k) for key in tiles for k in key.split(",")}
        base = mod.kernel
        runs = [("HEAD", kernel_from_source(committed_source(name, baseline), name, "head"), committed, (None, None))]
        for key, values in tiles.items():
            runs += [("tree", base, (key, v), h) for v in values for h in hints]
        ref = mod.__dict__[name](*args, **kwargs, backend="cutile")   # the working tree's kernel and tiles
        try:
            for tag, kern, (key, v), (occ, nww) in runs:
                for k, x in zip(key.split(","), v if "," in key else (v,)):
                    setattr(mod, k, x)
                mod.kernel = kern if occ is None else hinted(kern, occ, nww)
                row = {"kernel": name, "case": case, "variant": tag, "tile": str(v), "occupancy": occ,
                       "num_worker_warps": nww}
                out = torch.empty_like(ref)
                measure(row, f"{name:16} {tag:4} {row['tile']:28} occ={occ} nww={nww}",
                        lambda: mod.__dict__[name](*args, **kwargs, backend="cutile", out=out), reps,
                        lambda us: {"TFLOPs": flops / us / 1e6, "max_abs_err_vs_tree": max_err(out, ref)})
                results.append(row)
        finally:
            mod.kernel = base
            for k, x in saved.items():
                setattr(mod, k, x)


def bmm_probe(reps: int, results: list, baseline: str | None) -> None:
    """bmm at 16x2048^3 bf16 with the batch as the first grid axis (as committed) or the last (the working tree),
    at two tiles, against torch.bmm."""
    from tileport.kernels.bmm import bmm as tree

    head = kernel_from_source(committed_source("bmm", baseline), "bmm", "head")
    z, m, k, n = 16, 2048, 2048, 2048
    a = torch.randn(z, m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(z, k, n, device="cuda", dtype=torch.bfloat16) * k ** -0.5
    ref = torch.bmm(a, b)
    flops = 2 * z * m * k * n
    t_torch = timed(lambda: torch.bmm(a, b), reps)
    print(f"torch.bmm {z}x{m}x{k}x{n}: {t_torch:8.1f} µs {flops / t_torch / 1e6:6.1f} TFLOP/s", flush=True)
    stream = torch.cuda.current_stream()
    for tag, kern in (("batch-first", head), ("batch-last", tree)):
        for bm, bn, bk in ((128, 128, 64), (128, 256, 64)):
            c = torch.empty_like(ref)
            grid = (z, -(-m // bm), -(-n // bn)) if tag == "batch-first" else (-(-m // bm), -(-n // bn), z)
            row = {"kernel": "bmm", "variant": tag, "tile": [bm, bn, bk], "torch_us": t_torch}
            measure(row, f"  {tag:11} {bm}x{bn}x{bk}", lambda: ct.launch(stream, grid, kern, (a, b, c, bm, bn, bk)),
                    reps, lambda us: {"TFLOPs": flops / us / 1e6, "pct_of_torch": 100 * t_torch / us,
                                      "max_abs_err": max_err(c, ref)})
            results.append(row)


#: rope at (tokens, heads, 128) bf16: the committed kernel per (BT, BH) and occupancy (None: its decorator's) against
#: the probe-only forms in benchmarks/probes/probe_kernels.py (the former one-store form; one 4-d pair load), all checked
#: against the op's eager form
ROPE_SHAPES = [(16384, 32, 128), (4096, 32, 128), (16384, 8, 128)]
ROPE_TILES = [(8, 8), (16, 8), (4, 16), (8, 16), (2, 32), (16, 4)]
ROPE_OCC = [None, 4, 8]
#: with --rope-committed: the committed kernel alone, per head count its (BT, BH) tiles (2048 or 4096 elements per
#: half tile), under its own hint (None) and occupancies 5, 6, 8
ROPE_COMMITTED = {(16384, 32, 128): [(1, 32), (2, 32)], (32768, 8, 128): [(4, 8), (8, 8)],
                  (32768, 16, 128): [(2, 16), (4, 16)], (16384, 32, 64): [(2, 32), (4, 32)],
                  (4096, 32, 128): [(1, 32), (2, 32)]}
ROPE_COMMITTED_OCC = [None, 5, 6, 8]
#: with --rope-dtypes: the committed kernel at the large case, f16 against bf16, over tiles of 2048 and 4096 elements
#: per half tile and occupancies
ROPE_DTYPE_TILES = {(16384, 32, 128): [(1, 32), (2, 16), (4, 8), (2, 32)]}
ROPE_DTYPE_OCC = [None, 4, 5, 8]


def rope_probe(reps: int, results: list, copy_gbps: float, committed_only: bool = False,
               dtypes: bool = False) -> None:
    import probe_kernels as pk
    from tileport.ops import rope as op

    committed = pk.rope_tiled   # the tiled form these modes were measured with (the op gathers since 2026-12-01)

    shapes = ROPE_DTYPE_TILES if dtypes else ROPE_COMMITTED if committed_only else \
        {shape: ROPE_TILES for shape in ROPE_SHAPES}
    hints = ROPE_DTYPE_OCC if dtypes else ROPE_COMMITTED_OCC if committed_only else ROPE_OCC
    committed_only = committed_only or dtypes
    stream = torch.cuda.current_stream()
    for ((t, h, d), tiles), dtype in itertools.product(shapes.items(), ("float16", "bfloat16") if dtypes else
                                                       ("bfloat16",)):
        half = d // 2
        x = torch.randn(t, h, d, device="cuda", dtype=getattr(torch, dtype))
        ang = torch.rand(t, half, device="cuda") * 6.283185307179586
        cos, sin = ang.cos(), ang.sin()
        ref = op.torch_eager(x, cos, sin)
        nbytes = op.bytes_moved((x, cos, sin), {})
        t_eager = timed(lambda: op.torch_eager(x, cos, sin), reps)
        print(f"rope {t}x{h}x{d} {dtype}: eager {t_eager:.1f} µs", flush=True)
        for (bt, bh), occ in itertools.product(tiles, hints):
            if bh > h:
                continue
            grid = (-(-t // bt), -(-h // bh), 1)
            y = torch.empty_like(x)
            runs = [("committed", committed, (x, cos, sin, y, bt, bh, half)),
                    ("where", pk.rope_where, (x, cos, sin, y.view(t, 2 * h, half), bt, bh, 2 * bh, half)),
                    ("pair", pk.rope_pair, (x.view(t, h, 2, half), cos, sin, y.view(t, h, 2, half), bt, bh, half))]
            for tag, kern, args in runs[:1] if committed_only else runs:
                kern = kern if occ is None else hinted(kern, occ, None)
                row = {"kernel": f"rope_{tag}", "dtype": dtype, "shape": [t, h, d], "tile": [bt, bh],
                       "occupancy": occ, "eager_us": t_eager}
                y.zero_()
                measure(row, f"  {tag:9} BT={bt:2} BH={bh:2} occ={occ}",
                        lambda: ct.launch(stream, grid, kern, args), reps,
                        lambda us: {"pct_of_copy": 100 * nbytes / us / 1e3 / copy_gbps,
                                    "max_abs_err": max_err(y, ref)})
                results.append(row)


def unchecked_probe(reps: int, results: list, copy_gbps: float) -> None:
    """What the 16-bit kernels stuck near 78% would run at without bounds checks: gelu_erf and rope as committed
    against probe_kernels' check_bounds=False forms (right here: the large cases' tiles divide their shapes; not
    portable: cutile 0.3.1 has no unchecked load), both 16-bit dtypes."""
    import probe_kernels as pk
    from tileport.ops import gelu_erf as gelu_op
    from tileport.ops import rope as rope_op

    rope = pk.rope_tiled

    stream = torch.cuda.current_stream()
    for dtype in ("float16", "bfloat16"):
        x = torch.randn(8192 * 4096, device="cuda", dtype=getattr(torch, dtype)) * 2
        y, ref, b = torch.empty_like(x), torch.nn.functional.gelu(x.float()), 4096
        xr = torch.randn(16384, 32, 128, device="cuda", dtype=getattr(torch, dtype))
        ang = torch.rand(16384, 64, device="cuda") * 6.283185307179586
        cos, sin = ang.cos(), ang.sin()
        yr, ref_r = torch.empty_like(xr), rope_op.torch_eager(xr, cos, sin)
        cases = [("gelu_erf", tag, k, (-(-x.numel() // b), 1, 1), args, y, ref, 2 * x.numel() * x.element_size())
                 for tag, k, args in (("committed", gelu_op.kernel, (x, y, *gelu_op.kernel_extra(x.numel(), b))),
                                      ("unchecked", pk.gelu_erf_unchecked, (x, y, b)))]
        cases += [("rope", tag, k, (16384, 1, 1), (xr, cos, sin, yr, 1, 32, 64), yr, ref_r,
                   rope_op.bytes_moved((xr, cos, sin), {})) for tag, k in (("committed", rope),
                                                                          ("unchecked", pk.rope_unchecked))]
        # the committed kernel (gathers; "rope_flat" in unchecked2.log) against the tiled form, at 32 and 8 heads
        for heads, bt, bh in ((32, 1, 32), (8, 4, 8)):
            xh = xr[:, :heads].contiguous()
            yh, ref_h = torch.empty_like(xh), rope_op.torch_eager(xh, cos, sin)
            nb, grid = rope_op.bytes_moved((xh, cos, sin), {}), (-(-16384 // bt), -(-heads // bh), 1)
            _, gathering, gather_args = rope_op.kernel_launch(xh, cos, sin, yh)
            cases += [("rope", f"{heads}h-committed", rope, grid, (xh, cos, sin, yh, bt, bh, 64), yh, ref_h, nb),
                      ("rope", f"{heads}h-flat", gathering, grid, gather_args, yh, ref_h, nb)]
        for name, tag, kern, grid, args, out, ref_, nbytes in cases:
            out.fill_(float("nan"))
            row = {"kernel": f"{name}_{tag}", "dtype": dtype}
            measure(row, f"{name:9} {tag:13} {dtype:9}", lambda: ct.launch(stream, grid, kern, args), reps,
                    lambda us: {"pct_of_copy": 100 * nbytes / us / 1e3 / copy_gbps, "max_abs_err": max_err(out, ref_)})
            results.append(row)


#: row kernels at 16-bit LLM shapes: rows per block x occupancy (the committed BM is ops._common.ROWS_PER_BLOCK),
#: and layer_norm's two-FMA form
ROWS_SHAPES = [(8192, 4096), (16384, 2048), (16384, 8192)]
ROWS_OPS = ("row_softmax", "layer_norm", "rms_norm")
#: mode → (occupancy, num_worker_warps) hints, dtypes, shapes, ops, rows per block (a list, or "own": the op's for
#: the row length and dtype), the probe_kernels.py rewrites timed beside each op's committed kernel.
#: default: every BM under occupancy 4 and 8, and layer_norm's two-FMA form; occupancy: 4-6; warps: 8 worker warps
#: (half the values per thread, no spills in the sm_90 cubins up to 8192-wide rows); bm-warps: rows per block x
#: worker warps; l1: the weights loaded through L1; occ8: the committed kernel as it is (hint None, its own rows per
#: block) against one row per block under (4, 8) and (8, 8); prefetch: the persistent forms that load the next rows
#: before reducing these (grid: SMs x occupancy 4 blocks at most); notma: the committed kernels with their stores
#: (and x's load) without TMA (SOURCE_REWRITES); hints: the committed kernels under other occupancy / worker warps;
#: persist: which part of layer_norm_prefetch gives wrong results (persistent loop, prefetch, weights before the loop)
ROWS_MODES = {
    "default": ([(4, None), (8, None)], ("bfloat16",), ROWS_SHAPES, ROWS_OPS, [1, 2, 4], {"layer_norm": ["fma"]}),
    "occupancy": ([(4, None), (5, None), (6, None)], ("bfloat16", "float16"), ROWS_SHAPES, ROWS_OPS, "own", {}),
    "warps": ([(4, None), (2, 8), (3, 8), (4, 8)], ("bfloat16", "float32"), ROWS_SHAPES + [(8192, 1024)], ROWS_OPS,
              "own", {}),
    "bm-warps": ([(4, None), (3, 8), (4, 8)], ("bfloat16",), ROWS_SHAPES, ("row_softmax", "layer_norm"), [1, 2, 4],
                 {}),
    "l1": ([(4, None)], ("bfloat16", "float32"), ROWS_SHAPES + [(8192, 1024)], ("layer_norm", "rms_norm"), "own",
           {"layer_norm": ["l1"], "rms_norm": ["l1"]}),
    "occ8": ([None, (4, 8), (8, 8)], ("bfloat16", "float32"), ROWS_SHAPES, ROWS_OPS, ["own", 1], {}),
    "prefetch": ([None], ("bfloat16", "float32"), ROWS_SHAPES, ROWS_OPS, ["own", 1],
                 {name: ["prefetch"] for name in ROWS_OPS}),
    "notma": ([None], ("bfloat16", "float32"), ROWS_SHAPES, ROWS_OPS, ["own", 1],
              {name: ["store-notma", "notma"] for name in ROWS_OPS}),
    "hints": ([None, (6, None), (6, 8), (4, 8)], ("bfloat16",), ROWS_SHAPES, ROWS_OPS, "own", {}),
    "persist": ([None], ("bfloat16", "float32"), ROWS_SHAPES[:1], ("layer_norm", "rms_norm"), [1],
                {"layer_norm": ["prefetch", "persist", "persist_w_inside", "prefetch_w_inside", "prefetch_ldg"],
                 "rms_norm": ["prefetch"]})}


def rows_probe(reps: int, results: list, copy_gbps: float, mode: str = "default") -> None:
    import importlib

    import probe_kernels as pk
    from tileport.ops import _common as C

    hints, dtypes, shapes, ops, bm_choice, rewrites = ROWS_MODES[mode]
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    stream = torch.cuda.current_stream()
    for m, n in shapes:
        for dtype in dtypes:
            x = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype))
            w = torch.randn(n, device="cuda", dtype=x.dtype)
            b = torch.randn(n, device="cuda", dtype=x.dtype)
            y = torch.empty_like(x)
            refs = {"row_softmax": torch.softmax(x.float(), -1),
                    "layer_norm": torch.nn.functional.layer_norm(x.float(), (n,), w.float(), b.float()),
                    "rms_norm": x.float() * torch.rsqrt(x.float().square().mean(-1, keepdim=True) + 1e-6) * w.float()}
            for name, ref in refs.items():
                if name not in ops:
                    continue
                mod = importlib.import_module(f"tileport.ops.{name}")
                kernels = [("committed", mod.kernel)] + [   # probe_kernels.py rewrites, or source rewrites
                    (tag, rewritten_kernel(name, tag) if tag in SOURCE_REWRITES else getattr(pk, f"{name}_{tag}"))
                    for tag in rewrites.get(name, [])]
                own = C.rows_per_block(n, dtype, getattr(mod, "BM_OVERRIDES", None))
                bms = [own] if bm_choice == "own" else list(dict.fromkeys(own if b == "own" else b for b in bm_choice))
                nbytes = 2 * x.numel() * x.element_size()
                for (tag, base), bm, hint in itertools.product(kernels, bms, hints):
                    kern, (occ, nww) = (base, ("own", "own")) if hint is None else (hinted(base, *hint), hint)
                    args = {"row_softmax": (x, y, bm, n), "layer_norm": (x, w, b, y, 1.0 / n, 1e-5, bm, n),
                            "rms_norm": (x, w, y, 1.0 / n, 1e-6, bm, n)}[name]
                    row = {"kernel": f"{name}_{tag}", "dtype": dtype, "shape": [m, n], "BM": bm, "occupancy": occ,
                           "num_worker_warps": nww}
                    grid = -(-m // bm) if not tag.startswith(("prefetch", "persist")) else min(-(-m // bm), 4 * sms)
                    measure(row, f"{name:11} {tag:9} {dtype:8} {m}x{n} BM={bm} occ={occ} nww={nww}",
                            lambda: ct.launch(stream, (grid, 1, 1), kern, args), reps,
                            lambda us: {"pct_of_copy": 100 * nbytes / us / 1e3 / copy_gbps,
                                        **({"max_abs_err": max_err(y, ref)} if ref is not None else {})})
                    results.append(row)


#: the mode switches: flag → what it probes (each picks a mode of its probe: FLAT_MODES, ROWS_MODES, ...)
MODE_FLAGS = {
    "mla-wide": "mla_decode: BN 128 against 64",
    "mla-heads16": "mla_decode: the 16-head tile against the 64-head one",
    "occupancy": "rows: occupancy 4, 5, 6 at the ops' own rows per block, both 16-bit dtypes; flat: occupancy 4, 6, 8 "
                 "at 1024 and 2048 elements per block",
    "warps": "rows: 8 worker warps at occupancy 2-4 against the committed hint (bf16, f32); flat: occupancy 8 or 8 "
             "worker warps, 1024-4096 per block, every dtype",
    "bm-warps": "rows: row_softmax and layer_norm (bf16), rows per block 1/2/4 x (occupancy, worker warps)",
    "l1": "rows: layer_norm and rms_norm with their weights loaded through L1 (SOURCE_REWRITES) against the committed"
          " kernels",
    "occ8": "rows: one row per block under occupancy 8 and 8 worker warps (twice the rows in flight per SM) against "
            "the committed kernels (bf16, f32)",
    "prefetch": "rows: the persistent forms loading the next rows early (probe_kernels.py) against the committed "
                "kernels (bf16, f32)",
    "notma": "rows: the committed kernels with stores (and x's load) without TMA against the committed kernels (bf16, "
             "f32)",
    "hints": "rows: the committed kernels as they are and under (occupancy, worker warps) (6, -), (6, 8), (4, 8), bf16",
    "persist": "rows: layer_norm's persistent forms (probe_kernels.py) with and without the prefetch and with the "
               "weights loaded before or inside the loop, each checked against PyTorch",
    "absdiff": "flat: gelu_erf as committed (ending in one FMA) against its former max(x, 0) - |h| ending "
               "(probe_kernels.py::gelu_erf_absdiff), 4096 per block, 16-bit",
    "loads": "flat: gelu_erf's load forms (probe_kernels.py: unpadded, two half tiles, 2-d views of 1024- and "
             "64-wide rows) at 4096 and 8192 per block, as decorated, under occupancy 16 and with 8 worker warps, "
             "16-bit",
    "rope-committed": "rope: the committed kernel over more tiles and hints only",
    "rope-dtypes": "rope: the committed kernel at the large case in f16 and bf16 over tiles and occupancies",
}


def copy_bandwidth() -> float:
    """Device-to-device copy GB/s (reads + writes) of a 1 GiB buffer."""
    x = torch.empty(1 << 29, dtype=torch.float16, device="cuda")
    y = torch.empty_like(x)
    us = timed(lambda: y.copy_(x), 10)
    return 2 * x.numel() * 2 / us / 1e3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", choices=["attention", "mla_decode", "flat", "prefill", "bmm", "rope", "rows",
                                       "unchecked"])
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--case", default="large", choices=["large", "mid"], help="prefill: the ops' sample case "
                    "(mid: gemma_attention at head dim 128)")
    ap.add_argument("--baseline", help="a folder with the committed kernels/<op>.py (where git is missing)")
    for flag, text in MODE_FLAGS.items():
        ap.add_argument(f"--{flag}", action="store_true", help=text)
    opts = ap.parse_args()
    results: list = []
    copy = copy_bandwidth()
    print(f"device copy: {copy:.0f} GB/s", flush=True)
    out = Path(opts.out)

    def save():
        out.write_text(json.dumps({"device": torch.cuda.get_device_name(), "command": " ".join(sys.argv),
                                   "copy_GBps": copy, "results": results}, indent=1) + "\n")
    if opts.only in (None, "attention"):
        attention_probe(opts.reps, results)
        save()
    if opts.only in (None, "bmm"):
        bmm_probe(opts.reps, results, opts.baseline)
        save()
    if opts.only in (None, "prefill"):
        prefill_probe(opts.reps, results, opts.baseline, opts.case)
        save()
    if opts.only in (None, "flat"):
        mode = next((m for m in ("warps", "occupancy", "absdiff", "loads") if getattr(opts, m)), "blocks")
        flat_probe(opts.reps, results, copy, mode)
        save()
    if opts.only == "unchecked":
        unchecked_probe(opts.reps, results, copy)
        save()
    if opts.only in (None, "rope"):
        rope_probe(opts.reps, results, copy, opts.rope_committed, opts.rope_dtypes)
        save()
    if opts.only in (None, "rows"):
        mode = next((m for m in ROWS_MODES if getattr(opts, m.replace("-", "_"), False)), "default")
        rows_probe(opts.reps, results, copy, mode)
        save()
    if opts.only in (None, "mla_decode"):
        if opts.mla_wide:
            mla_probe(opts.reps, results, copy, *MLA_WIDE)
        elif opts.mla_heads16:
            mla_probe(opts.reps, results, copy, MLA16_SHAPES, MLA16_TILES, MLA16_HINTS)
        else:
            mla_probe(opts.reps, results, copy, MLA_SHAPES, MLA_TILES, MLA_HINTS)
    save()


if __name__ == "__main__":
    main()
