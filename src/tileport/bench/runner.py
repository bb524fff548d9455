"""Benchmark every op on both backends: the original cuTile Python kernel and its cuTile Rust port (and, for the
ops that serve a Triton kernel, the Triton kernel itself: the ``triton`` column and the rs/triton ratio).

Per op x dtype x shape case: the median time of each backend over CUDA-event-timed calls after a warm-up, taken in
interleaved rounds (every backend and torch's own op once per round, the order reversed every other round), with the
inputs rotated over enough copies that they cannot stay in L2 and the calls queued behind a GPU sleep, so that the
events time the kernels and not the Python launch path (its host cost per call is recorded too); the ratio
rust/python; the achieved GB/s (or TFLOP/s for matrix products) and its share of a measured ceiling — the
device-to-device copy bandwidth for memory-bound ops, torch's own product on the same shape and dtype for matrix
products. Then the geomean of the ratio per op and overall, and the launch overhead (µs per call of a 1024-element
vector_add, back to back, wall clock; the median of rounds that interleave the paths).

A failure of one op on one backend is recorded (JSON and table) and the run goes on. Output: DIR/bench.json (with
the command line, device and versions, times), DIR/bench.png (with matplotlib) and a table on stdout.

    python -m tileport.bench.runner --out build/bench                 # mid and large shapes, every op
    python -m tileport.bench.runner --quick --ops vector_add,rms_norm --out build/bench-smoke
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import platform
import shlex
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Callable

from ..ops import _common as C
from ..kernels.triton import OPS as TRITON_OPS
from ..ops.registry import NAMES, OPS, wrapper

BACKENDS = ("cutile", "cutile-rs")
#: H200 L2 is 60 MB: every timed call reads inputs no earlier call left in L2 once the copies exceed twice that.
ROTATE_BYTES = 120_000_000
MAX_COPIES = 4096
LAUNCH_CALLS = 2000
#: interleaved rounds of the launch-overhead measurement (its median is reported)
LAUNCH_ROUNDS = 5
#: A case's timed calls are split into this many rounds; each round times every contender (the backends, the Triton
#: kernel, torch's own op) in turn, in the reverse order every other round, so that drift over a case (clocks,
#: memory state) falls on all of them alike instead of on whichever is timed last.
ROUNDS = 4
#: the most wall time one contender's timed calls take in a round: a slow PyTorch path (the gated delta rule's eager
#: step loop, 0.1-0.5 s a call) is timed on fewer calls, at least MIN_REPS, where 25 a round took minutes a row
#: (the H100 bench of 2026-12-07 spent 480 s in one case); the kernels themselves (µs to ms) keep every call
ROUND_BUDGET_S = 2.0
MIN_REPS = 3
#: An over-estimate of the SM clock (H200: 1.98 GHz boost) for sizing the GPU sleep that timed calls queue behind.
GPU_CYCLES_PER_S = 2.0e9
#: Matrix products are measured against torch's own kernel on the same shape and dtype.
TORCH_BASELINES: dict[str, Callable[..., Any]] = {
    "matmul": lambda torch, a, b: torch.matmul(a, b),
    "matmul_tf32": lambda torch, a, b: torch.matmul(a, b),
    "linear": lambda torch, x, w: torch.nn.functional.linear(x, w),
    "bmm": lambda torch, a, b: torch.bmm(a, b),
}


#: time(rust) / time(fastest PyTorch path) above this is listed on its own in the summary
PARITY = 1.05
#: --torch-paths choices: which PyTorch paths each op is timed against
TORCH_PATH_SETS = ("all", "eager", "none")


def torch_paths(torch: Any, name: str, which: str = "all") -> dict[str, Callable[..., Any]]:
    """The PyTorch paths a user would pick for op ``name``, each called with the op's sample inputs: ``cublas``
    (torch's own product, for the matrix products of TORCH_BASELINES), ``eager`` (the op module's torch_eager),
    ``compile`` (torch.compile of it, unless the module sets TORCH_COMPILE = False, saying why) and the module's
    own TORCH_PATHS (``fused_moe``: a ``torch._grouped_mm`` pipeline). ``which``: "all", "eager" (no compile, no
    extra paths: a quick run) or "none"."""
    mod = OPS[name]
    paths: dict[str, Callable[..., Any]] = {}
    if which == "none":
        return paths
    if name in TORCH_BASELINES:
        base = TORCH_BASELINES[name]
        paths["cublas"] = lambda *a, **_k: base(torch, *a)
    eager = getattr(mod, "torch_eager", None)
    if eager is not None and name not in TORCH_BASELINES:
        paths["eager"] = eager
        if which == "all" and getattr(mod, "TORCH_COMPILE", True) is True:
            # a fresh compile per case: dynamo keeps its graphs per code object and, past its recompile limit (8
            # shapes/dtypes of one function in a long sweep), silently runs eager — the column would lie
            torch._dynamo.reset()
            paths["compile"] = torch.compile(eager, dynamic=False)
    if which == "all":
        paths.update(getattr(mod, "TORCH_PATHS", {}))
    return paths


def fastest_torch(measured: dict[str, dict], rust_us: float | None) -> dict:
    """``fastest_torch`` (the quickest PyTorch path that ran: its label and median) and ``fastest_torch_ratio``
    (time(rust) / its time; > 1 is slower than what a PyTorch user would get)."""
    ran = {k: v["median_us"] for k, v in measured.items() if v.get("median_us")}
    if not ran:
        return {"fastest_torch": None, "fastest_torch_ratio": None}
    label = min(ran, key=ran.__getitem__)
    return {"fastest_torch": {"path": label, "median_us": ran[label]},
            "fastest_torch_ratio": rust_us / ran[label] if rust_us else None}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="tileport bench", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="examples:\n  tileport bench --out build/bench\n"
                                       "  tileport bench --quick --ops vector_add,rms_norm --dtypes bf16")
    p.add_argument("--ops", help=f"comma-separated ops (default: all {len(NAMES)})")
    p.add_argument("--dtypes", help="comma-separated dtypes, torch or short names (float16 or f16; default: each "
                                    "op's DTYPES)")
    p.add_argument("--cases", help="comma-separated shape cases of the ops' sample_inputs: small, ragged, mid, "
                                   "large (default mid,large; --quick: small); TOKENSxHIDDEN (e.g. 16384x8192) for "
                                   "the row-shaped and element-wise ops; llm = the LLM sweep "
                                   f"({len(C.LLM_CASES)} cases: tokens {C.LLM_TOKENS[0]}-{C.LLM_TOKENS[-1]} x hidden "
                                   f"{C.LLM_HIDDEN[0]}-{C.LLM_HIDDEN[-1]})")
    p.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated (default %(default)s)")
    p.add_argument("--reps", type=int, help="timed calls per measurement (default 100; --quick: 10)")
    p.add_argument("--warmup", type=int, help="untimed calls first, JIT compile included (default 10; --quick: 3)")
    p.add_argument("--torch-paths", choices=TORCH_PATH_SETS, default=None,
                   help="PyTorch paths to time beside the backends: all (eager, torch.compile, cuBLAS, the op's "
                        "own, e.g. torch._grouped_mm; default), eager (--quick's default) or none")
    p.add_argument("--quick", action="store_true", help="small shapes, few reps: a smoke run")
    p.add_argument("--out", default="bench", help="directory for bench.json and bench.png, or a path ending in "
                                                  ".json (default: %(default)s)")
    a = p.parse_args(argv)
    a.ops = _split(a.ops) or list(NAMES)
    unknown = [o for o in a.ops if o not in NAMES]
    if unknown:
        p.error(f"unknown op(s) {', '.join(unknown)}; ops: {', '.join(NAMES)}")
    long_names = {v: k for k, v in C.SHORT.items()}
    a.dtypes = [long_names.get(d, d) for d in _split(a.dtypes)] or None
    a.cases = _split(a.cases) or (["small"] if a.quick else ["mid", "large"])
    a.cases = [x for c in a.cases for x in (C.LLM_CASES if c == "llm" else (c,))]
    bad = [c for c in a.cases if c not in C.CASES and C.token_case(c) is None]
    if bad:
        p.error(f"unknown case(s) {', '.join(bad)}; cases: {', '.join(C.CASES)}")
    a.backends = _split(a.backends)
    a.reps = a.reps or (10 if a.quick else 100)
    a.torch_paths = a.torch_paths or ("eager" if a.quick else "all")
    a.warmup = a.warmup if a.warmup is not None else (3 if a.quick else 10)
    out = Path(a.out)
    a.json_path = out if out.suffix == ".json" else out / "bench.json"
    return a


def _split(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


def _err(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:2000]


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


# ---------------------------------------------------------------- timing

def time_calls(torch: Any, call: Callable[[int], Any], copies: int, reps: int, warmup: int,
               host: dict | None = None, budget_s: float | None = None) -> list[float]:
    """Per-call GPU times in µs from CUDA events around each call; call(i) uses input copy i.

    The timed calls are queued behind a GPU sleep long enough to cover their host-side cost, so the events
    time the kernels back to back instead of the Python launch path (whose cost goes to ``host["host_us"]``, µs
    per call to enqueue; the launch overhead is reported on its own). ``budget_s``: where ``reps`` calls would
    take longer (as the warm-up calls took), as many as fit, at least MIN_REPS."""
    for i in range(warmup):
        if i == 1:
            torch.cuda.synchronize()
            t0 = time.perf_counter()
        call(i % copies)
    torch.cuda.synchronize()
    per_call = (time.perf_counter() - t0) / (warmup - 1) if warmup > 1 else 1e-4
    if budget_s is not None and warmup > 1 and per_call * reps > budget_s:
        reps = max(MIN_REPS, int(budget_s / per_call))
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    sleep = getattr(torch.cuda, "_sleep", None)
    if sleep is not None:
        sleep(int(min(0.5, 1.5 * per_call * reps + 1e-3) * GPU_CYCLES_PER_S))
    t0 = time.perf_counter()
    for r, (start, end) in enumerate(events):
        i = (warmup + r) % copies
        start.record()
        call(i)
        end.record()
    if host is not None:
        host["host_us"] = (time.perf_counter() - t0) / reps * 1e6
    torch.cuda.synchronize()
    return [start.elapsed_time(end) * 1e3 for start, end in events]


def time_rounds(torch: Any, calls: dict[str, Callable[[int], Any]], copies: int, reps: int, warmup: int,
                rounds: int = ROUNDS) -> dict[str, dict]:
    """Interleaved timing of several contenders: ``rounds`` rounds of ceil(reps / rounds) calls each (time_calls),
    every contender once per round, the order reversed every other round (A B C, C B A, ...). The first round
    warms each contender up with ``warmup`` calls (the JIT compile included), the later ones with two (enough to
    size the GPU sleep), each round's calls bounded by ROUND_BUDGET_S of wall time. Per contender: {"times":
    [...], "host_us": mean enqueue cost} or {"error": text}; a contender that fails is dropped from the later
    rounds."""
    per_round = max(1, math.ceil(reps / max(rounds, 1)))
    names = list(calls)
    out: dict[str, dict] = {n: {"times": [], "host": []} for n in names}
    for r in range(max(rounds, 1)):
        for n in names if r % 2 == 0 else names[::-1]:
            res = out[n]
            if "error" in res:
                continue
            host: dict = {}
            try:
                res["times"] += time_calls(torch, calls[n], copies, per_round, warmup if r == 0 else 2, host,
                                           ROUND_BUDGET_S)
                res["host"].append(host["host_us"])
            except Exception as exc:  # noqa: BLE001
                out[n] = {"error": _err(exc)}
    for res in out.values():
        if "host" in res:
            res["host_us"] = statistics.fmean(res.pop("host"))
    return out


def median_us(torch: Any, fn: Callable[[], Any], reps: int, warmup: int = 3) -> float:
    """Median µs of ``fn()`` over ``reps`` calls timed as time_calls times them (one input copy)."""
    return statistics.median(time_calls(torch, lambda _i: fn(), 1, reps, warmup))


def copy_bandwidth(torch: Any, reps: int) -> float:
    """Device-to-device copy of 1 GiB through torch, in GB/s counting bytes read and written."""
    n = 1 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda").random_()
    dst = torch.empty_like(src)
    times = time_calls(torch, lambda _i: dst.copy_(src), 1, max(reps, 20), 3)
    return 2 * n / (statistics.median(times) * 1e-6) / 1e9


def launch_overhead(torch: Any, backends: list[str]) -> dict:
    """µs per call of vector_add on 1024 f32 elements: wall time of LAUNCH_CALLS back-to-back calls / calls, in
    LAUNCH_ROUNDS rounds that interleave the paths (the host's speed drifts); the median round is reported."""
    op = OPS["vector_add"]
    a, b = torch.randn(1024, device="cuda"), torch.randn(1024, device="cuda")
    c = torch.empty_like(a)
    paths: dict[str, Callable[[], Any]] = {"torch.add": lambda: torch.add(a, b, out=c)}
    try:  # the bare cuTile Python launch, without the wrapper's checks: what the wrapper itself costs
        import cuda.tile as ct

        paths["ct.launch"] = lambda: ct.launch(torch.cuda.current_stream(), (1, 1, 1), op.kernel, (a, b, c, op.TILE))
    except ImportError:
        pass
    for be in backends:
        paths[be] = lambda be=be: op.vector_add(a, b, backend=be, out=c)
    result: dict[str, Any] = {"op": "vector_add", "elements": 1024, "calls": LAUNCH_CALLS, "rounds": LAUNCH_ROUNDS}
    samples: dict[str, list[float]] = {}
    for name, fn in paths.items():  # warm every path first
        try:
            for _ in range(50):
                fn()
            torch.cuda.synchronize()
            samples[name] = []
        except Exception as exc:  # noqa: BLE001 — one broken path must not lose the run
            result[name] = {"error": _err(exc)}
    for _ in range(LAUNCH_ROUNDS):
        for name in samples:
            fn = paths[name]
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(LAUNCH_CALLS):
                fn()
            torch.cuda.synchronize()
            samples[name].append((time.perf_counter() - t0) / LAUNCH_CALLS * 1e6)
    for name, values in samples.items():
        result[name] = {"us_per_call": statistics.median(values), "rounds_us": values}
    return result


# ---------------------------------------------------------------- one op x dtype x case

def _describe(args: tuple) -> str:
    shapes = ["x".join(map(str, a.shape)) for a in args if hasattr(a, "shape")]
    return ", ".join(shapes)


def bench_case(torch: Any, name: str, dtype: str, case: str, opts: argparse.Namespace, ceilings: dict) -> dict:
    mod, fn = OPS[name], wrapper(name)
    row: dict[str, Any] = {"op": name, "dtype": dtype, "case": case, "backends": {}}
    try:
        torch.manual_seed(zlib.crc32(f"{name}/{dtype}/{case}".encode()))
        args, kwargs = mod.sample_inputs(case, dtype, "cuda")
        expected = mod.reference(*args, **kwargs)
        out_shape, out_dtype = expected.shape, C.result_dtype(mod, args, kwargs)
        row.update(shape=_describe(args), kwargs=dict(kwargs),
                   bytes_moved=int(mod.bytes_moved(args, kwargs)), flops=int(mod.flops(args, kwargs)))
        footprint = sum(C.nbytes(a) for a in args if hasattr(a, "numel")) + \
            math.prod(out_shape) * torch.empty(0, dtype=out_dtype).element_size()
        copies = max(1, min(MAX_COPIES, math.ceil(ROTATE_BYTES / max(footprint, 1))))
        inputs = [args] + [mod.sample_inputs(case, dtype, "cuda")[0] for _ in range(copies - 1)]
        outs = [torch.empty(out_shape, dtype=out_dtype, device="cuda") for _ in range(copies)]
        row["copies"] = copies
    except Exception as exc:  # noqa: BLE001
        row["error"] = f"inputs: {_err(exc)}"
        return row
    rtol, atol = mod.tolerance(dtype)
    extra = ["triton"] if name in TRITON_OPS and "triton" not in opts.backends else []  # the kernel it was ported from
    backends = list(opts.backends) + extra
    calls: dict[str, Callable[[int], Any]] = {
        be: (lambda i, be=be: fn(*inputs[i], **kwargs, backend=be, out=outs[i])) for be in backends}
    paths = torch_paths(torch, name, opts.torch_paths)
    for label, path in paths.items():   # every PyTorch path a user would pick, same inputs, same rounds
        calls[f"torch:{label}"] = lambda i, path=path: path(*inputs[i], **kwargs)
    tf32 = torch.backends.cuda.matmul.allow_tf32
    try:  # torch's matmul in tf32 only for matmul_tf32's baseline (the ports' own tf32 does not depend on it)
        torch.backends.cuda.matmul.allow_tf32 = name == "matmul_tf32"
        timed = time_rounds(torch, calls, copies, opts.reps, opts.warmup)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = tf32
    row["timing"] = {"rounds": ROUNDS, "order": list(calls), "reversed_every_other_round": True}
    for be in backends:
        t = timed[be]
        res: dict[str, Any] = {"error": t["error"]} if "error" in t else {**_stats(t["times"], row),
                                                                            "host_us": t["host_us"]}
        row["backends"][be] = res
        if "error" in res:
            continue
        try:
            got = fn(*args, **kwargs, backend=be, out=outs[0]).to(torch.float64)
            res["correct"] = bool(torch.allclose(got, expected, rtol=rtol, atol=atol))
            err = float((got - expected).abs().max()) if got.numel() else 0.0
            res["max_abs_err"] = err if math.isfinite(err) else None   # NaN/inf: not finite, and so not correct
            del got
        except Exception as exc:  # noqa: BLE001
            res["error"] = _err(exc)
    row["torch_paths"] = {label: ({"error": t["error"]} if "error" in (t := timed[f"torch:{label}"])
                                  else _stats(t["times"], row)) for label in paths}
    for key, label in (("torch_baseline", "cublas"), ("torch_eager", "eager")):   # the columns they always had
        if label in row["torch_paths"]:
            row[key] = row["torch_paths"][label]
    py, rs = (row["backends"].get(b, {}).get("median_us") for b in BACKENDS)
    row["ratio"] = rs / py if py and rs else None
    row.update(fastest_torch(row["torch_paths"], rs))
    tr = row["backends"].get("triton", {}).get("median_us")
    if tr:
        row["triton_ratio"] = rs / tr if rs else None
    eager_us = (row.get("torch_eager") or {}).get("median_us")
    if eager_us:
        row["eager_ratio"] = rs / eager_us if rs else None
    apply_ceiling(row, getattr(mod, "CEILING", "auto"), ceilings)
    return row


def apply_ceiling(row: dict, policy: str, ceilings: dict) -> None:
    """Set row["ceiling"] and each measurement's pct_of_ceiling. The ceiling: torch's own kernel for the matrix
    products of TORCH_BASELINES; else, by the op module's CEILING: "copy" — the device copy bandwidth (memory-bound
    ops, also those that count flops, e.g. decode attention), "none" — no roofline (TFLOP/s reported only: ops whose
    PyTorch form is a slow eager composition, not a bound), "auto" (default) — copy bandwidth for ops without
    flops, the eager op's TFLOP/s for the others. The summary (scripts/ops_summary.py) re-applies this to committed
    rows, so one rule decides every reported percentage."""
    op, copy = row["op"], ceilings.get("copy_GBps")
    measured = [r for r in (*row["backends"].values(), row.get("torch_eager")) if isinstance(r, dict)]
    base = (row.get("torch_baseline") or {}).get("TFLOPs")
    eager = (row.get("torch_eager") or {}).get("TFLOPs")
    if base:
        kind, value, key = f"torch {op} TFLOP/s", base, "TFLOPs"
    elif policy == "copy" or not row.get("flops"):
        kind, value, key = "device copy GB/s", copy, "GBps"
    elif policy == "none":
        kind, value, key = "none (TFLOP/s reported)", None, None
    else:
        kind, value, key = f"torch eager {op} TFLOP/s", eager, "TFLOPs"
    row["ceiling"] = {"kind": kind, "value": value}
    for r in measured:
        r.pop("pct_of_ceiling", None)
        if value and key and r.get(key):
            r["pct_of_ceiling"] = 100 * r[key] / value


def _stats(times: list[float], row: dict) -> dict:
    med = statistics.median(times)
    res = {"median_us": med, "min_us": min(times), "max_us": max(times), "reps": len(times),
           "GBps": row["bytes_moved"] / (med * 1e-6) / 1e9}
    if row["flops"]:
        res["TFLOPs"] = row["flops"] / (med * 1e-6) / 1e12
    return res


# ---------------------------------------------------------------- summary, JSON, plot, table

def _ratios_by_op(rows: list[dict], key: str) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for r in rows:
        if r.get(key):
            out.setdefault(r["op"], []).append(r[key])
    return out


def summarize(rows: list[dict]) -> dict:
    per_op, per_op_triton = _ratios_by_op(rows, "ratio"), _ratios_by_op(rows, "triton_ratio")
    return {"per_op": {op: geomean(v) for op, v in per_op.items()},
            # each size on its own: no mean over launch-bound and large shapes (issue 20, criterion 5)
            "slower_than_torch": [{"op": r["op"], "dtype": r["dtype"], "case": r["case"],
                                   "ratio": r["fastest_torch_ratio"], "path": r["fastest_torch"]["path"]}
                                  for r in rows if (r.get("fastest_torch_ratio") or 0) > PARITY],
            "overall": geomean([x for v in per_op.values() for x in v]),
            "triton": {"per_op": {op: geomean(v) for op, v in per_op_triton.items()},
                       "overall": geomean([x for v in per_op_triton.values() for x in v]) if per_op_triton else None},
            "measured": sum(len(v) for v in per_op.values()),
            "failed": sum(1 for r in rows if r.get("error") or any("error" in b for b in r["backends"].values()))}


def environment(torch: Any) -> dict:
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    env = {"device": props.name, "compute_capability": f"{props.major}.{props.minor}",
           "multiprocessors": props.multi_processor_count, "memory_bytes": props.total_memory,
           "l2_cache_bytes": getattr(props, "L2_cache_size", None), "torch": torch.__version__,
           "torch_cuda": torch.version.cuda, "python": platform.python_version(), "host": platform.node()}
    try:
        import cuda.tile as ct

        env["cuda_tile"] = getattr(ct, "__version__", None)
    except Exception as exc:  # noqa: BLE001
        env["cuda_tile"] = _err(exc)
    from .. import __version__

    env["tileport"] = __version__
    return env


def write_json(record: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=1, default=str) + "\n")
    tmp.replace(path)


def plot(record: dict, path: Path) -> str | None:
    """bench.png: rust/python time ratio per measurement, and each backend's share of its ceiling."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001
        return None
    rows = record["results"]
    labels = [f"{r['op']} {C.SHORT.get(r['dtype'], r['dtype'])} {r['case']}" for r in rows]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(max(8, 0.35 * len(rows) + 2), 9), sharex=True)
    xs = range(len(rows))
    ratios = [r.get("ratio") or 0 for r in rows]
    ax1.bar(xs, ratios, color=["tab:red" if x > 1.05 else "tab:green" for x in ratios])
    ax1.axhline(1.0, color="black", linewidth=0.8)
    ax1.set_ylabel("time cutile-rs / cutile")
    overall = record["summary"]["overall"]
    ax1.set_title(f"tileport bench — {record['environment']['device']}"
                  + (f" — overall geomean {overall:.3f}" if overall else ""))
    width = 0.8 / max(1, len(record["backends"]))
    for j, be in enumerate(record["backends"]):
        pct = [r["backends"].get(be, {}).get("pct_of_ceiling") or 0 for r in rows]
        ax2.bar([x + (j - (len(record["backends"]) - 1) / 2) * width for x in xs], pct, width, label=be)
    ax2.set_ylabel("% of ceiling (copy BW / torch matmul)")
    ax2.legend()
    ax2.set_xticks(list(xs))
    ax2.set_xticklabels(labels, rotation=90, fontsize=7)
    fig.tight_layout()
    save_compact_png(fig, path)
    plt.close(fig)
    return str(path)


def save_compact_png(fig, path: Path) -> None:
    """A figure as a 256-colour PNG: about a third of matplotlib's RGBA file, and results are committed (the tree
    travels to the GPU host beside the toolchain, 64 MiB in all). Pillow is matplotlib's own dependency."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, dpi=120, format="png")
    buf.seek(0)
    Image.open(buf).convert("RGB").quantize(colors=256, dither=Image.Dither.NONE).save(path, optimize=True)


def _fmt(v: float | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def table_rows(record: dict) -> list[list[str]]:
    out = []
    for r in record["results"]:
        cells = [r["op"], r["dtype"], r["case"], r.get("shape", "")]
        notes = [r["error"]] if r.get("error") else []
        for be in record["backends"]:
            b = r["backends"].get(be, {})
            rate = _fmt(b.get("TFLOPs"), ".1f") + " TF/s" if r.get("flops") else _fmt(b.get("GBps"), ".0f") + " GB/s"
            cells += [_fmt(b.get("median_us"), ".1f"), rate, _fmt(b.get("pct_of_ceiling"), ".0f")]
            if b.get("error"):
                notes.append(f"{be}: {b['error'][:100]}")
            elif b.get("correct") is False:
                notes.append(f"{be}: WRONG (max abs err {b.get('max_abs_err'):.3g})")
        for label, t in (r.get("torch_paths") or {}).items():
            if t.get("error"):
                notes.append(f"torch {label}: {t['error'][:100]}")
        best = r.get("fastest_torch") or {}
        cells += [_fmt(r.get("ratio"), ".3f"), _fmt(r.get("eager_ratio"), ".3f"),
                  _fmt(r.get("fastest_torch_ratio"), ".3f") + (f" ({best['path']})" if best else ""),
                  _fmt(r.get("triton_ratio"), ".3f"), "; ".join(notes)]
        out.append(cells)
    return out


def print_report(record: dict) -> None:
    head = ["op", "dtype", "case", "shape"]
    for be in record["backends"]:
        head += [f"{be} µs", f"{be} rate", f"{be} %ceil"]
    head += ["rs/py", "rs/eager", "rs/best torch", "rs/triton", "notes"]
    rows = table_rows(record)
    s = record["summary"]
    lines = [f"ceiling: device copy {_fmt(record['ceilings'].get('copy_GBps'), '.0f')} GB/s",
             "launch overhead (µs/call, vector_add 1024 f32, median of interleaved rounds): " + ", ".join(
                 f"{k} {_fmt(v.get('us_per_call'), '.2f')}" if "error" not in v else f"{k} ERROR {v['error'][:120]}"
                 for k, v in record["launch_overhead"].items() if isinstance(v, dict)),
             "geomean rs/py per op: " + ", ".join(f"{k} {_fmt(v, '.3f')}" for k, v in s["per_op"].items()),
             f"overall geomean rs/py: {_fmt(s['overall'], '.3f')} over {s['measured']} measurements; "
             f"{s['failed']} with errors"]
    slow = s.get("slower_than_torch") or []
    lines.append(f"slower than the fastest PyTorch path by more than {PARITY}x, each size on its own: "
                 + (", ".join(f"{x['op']} {C.SHORT.get(x['dtype'], x['dtype'])} {x['case']} {x['ratio']:.2f}x "
                              f"({x['path']})" for x in slow) or "none"))
    if (s.get("triton") or {}).get("per_op"):
        lines.append("geomean rs/triton per Triton kernel: " + ", ".join(
            f"{k} {_fmt(v, '.3f')}" for k, v in s["triton"]["per_op"].items()) +
            f"; overall {_fmt(s['triton']['overall'], '.3f')}")
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(" | ".join(head))
        for r in rows:
            print(" | ".join(r))
    else:
        t = Table(*head, title="tileport bench")
        for r in rows:
            t.add_row(*r)
        Console(width=max(200, Console().width)).print(t)
    print("\n".join(lines))


# ---------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    opts = parse_args(argv)
    try:
        import torch
    except ImportError:
        print("tileport bench needs torch (and a CUDA GPU)", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("tileport bench needs a CUDA GPU; torch sees none", file=sys.stderr)
        return 2
    record: dict[str, Any] = {"command": shlex.join(sys.argv), "python": sys.executable, "argv": argv,
                              "started": _now(),
                              "environment": environment(torch), "backends": opts.backends,
                              "options": {"reps": opts.reps, "warmup": opts.warmup, "cases": opts.cases,
                                          "rotate_bytes": ROTATE_BYTES, "quick": opts.quick},
                              "ceilings": {}, "launch_overhead": {}, "results": [], "summary": {}}
    try:
        record["ceilings"]["copy_GBps"] = copy_bandwidth(torch, opts.reps)
    except Exception as exc:  # noqa: BLE001
        record["ceilings"]["copy_error"] = _err(exc)
    torch.cuda.empty_cache()
    record["launch_overhead"] = launch_overhead(torch, opts.backends)
    if any(n in TRITON_OPS for n in opts.ops) and "triton" not in record["backends"]:
        record["backends"] = list(record["backends"]) + ["triton"]
    for name in opts.ops:
        for dtype in OPS[name].DTYPES:
            if opts.dtypes and dtype not in opts.dtypes:
                continue
            for case in opts.cases:
                print(f"bench {name} {dtype} {case}", file=sys.stderr, flush=True)
                record["results"].append(bench_case(torch, name, dtype, case, opts, record["ceilings"]))
                torch.cuda.empty_cache()
                record["summary"] = summarize(record["results"])
                write_json(record, opts.json_path)      # a run cut short keeps what it measured
    record["finished"] = _now()
    record["summary"] = summarize(record["results"])
    png = plot(record, opts.json_path.with_suffix(".png"))
    record["plot"] = png
    write_json(record, opts.json_path)
    print_report(record)
    print(f"wrote {opts.json_path}" + (f" and {png}" if png else " (no plot: matplotlib is not importable)"))
    return 1 if record["summary"]["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
