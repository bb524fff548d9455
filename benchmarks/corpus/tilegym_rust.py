"""On a GPU: TileGym's own tests and launches run through the launch backend (issue 20), against plain cuTile Python
in the same session.

    python benchmarks/corpus/tilegym_rust.py tests --corpus TILEGYM --library LIB --out OUT [--jobs 8] [FILE ...]
    python benchmarks/corpus/tilegym_rust.py overhead --corpus TILEGYM --library LIB --out OUT

``tests``: every `tests/ops/test_*.py` of the corpus (or the FILEs named), its functional tests on the cutile
backend (`-k "test_op and cutile"`), each file twice — plain cuTile Python, and with `TILEPORT_BACKEND=cutile-rs`
through `-p tileport.pytest_launch` (no fallback: a launch without a proven port fails its test) — in parallel
processes; writes OUT/tests.json: per file and mode the passed/failed/skipped counts, every skip reason and failure
message, and the launches each kernel ran through its Rust port.

``overhead``: host time of one `ct.launch` of the same recorded launch (a TileGym rms_norm at a small shape),
plain vs intercepted, in interleaved rounds; writes OUT/overhead.json.

Needs torch, cuda.tile, the corpus's `src` importable (the script puts it on PYTHONPATH) and a served library
(`tileport ops build --from PORTS --corpus TILEGYM --into LIB`, unpacked with `tileport ops unpack`).
"""
from __future__ import annotations

import argparse
import ctypes
import json
import math
import os
import re
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

MODES = ("plain", "rust")
#: test files that took longest on the H200 (seconds per mode, 2026-12-04): started first
LONG_FIRST = ("test_attention_sink.py", "test_chunk_gated_delta_rule.py", "test_bmm.py",
              "experimental/test_attention_backward.py", "test_attention.py", "test_mla.py", "test_matmul.py")


def _env(corpus: Path, library: Path | None = None, mode: str = "plain", stats: Path | None = None,
         timing: bool = False) -> dict[str, str]:
    """The environment of a TileGym test process: the corpus importable; in ``rust`` mode the launch backend on,
    serving ``library`` and counting launches into ``stats`` (and timing them beside it)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(corpus / "src"), str(corpus), env.get("PYTHONPATH", "")])
    env.pop("TILEPORT_BACKEND", None)
    if mode == "rust":
        env.update(TILEPORT_BACKEND="cutile-rs", TILEPORT_SERVED=str(library), TILEPORT_LAUNCH_STATS=str(stats))
        if timing:
            env["TILEPORT_LAUNCH_TIMING"] = str(stats.with_name(stats.name.replace(".stats.", ".timing.")))
    return env


def _junit(path: Path) -> dict:
    out: dict = {"passed": 0, "failed": 0, "skipped": 0, "errors": 0, "skips": {}, "failures": []}
    if not path.is_file():
        return out
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        skip, fail, err = case.find("skipped"), case.find("failure"), case.find("error")
        if skip is not None:
            out["skipped"] += 1
            why = (skip.get("message") or "").strip()[:200]
            out["skips"][why] = out["skips"].get(why, 0) + 1
        elif fail is not None or err is not None:
            out["failed" if fail is not None else "errors"] += 1
            node = fail if fail is not None else err
            out["failures"].append({"test": name, "message": (node.get("message") or "")[:400]})
        else:
            out["passed"] += 1
    return out


#: a test's outcome line under `pytest -v`
_OUTCOME = re.compile(r"^(\S+::\S+) (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)\b", re.M)


def _progress(text: str) -> dict:
    """Counts (as ``_junit``'s) of the tests whose `pytest -v` lines are in ``text``: a process the timeout killed
    writes no junit file (skip reasons are not on those lines: counted under "(cut short)")."""
    out: dict = {"passed": 0, "failed": 0, "skipped": 0, "errors": 0, "skips": {}, "failures": []}
    for test, outcome in _OUTCOME.findall(text):
        if outcome in ("PASSED", "XPASS"):
            out["passed"] += 1
        elif outcome in ("SKIPPED", "XFAIL"):
            out["skipped"] += 1
            why = "(cut short: reason not recorded)"
            out["skips"][why] = out["skips"].get(why, 0) + 1
        else:
            out["failed" if outcome == "FAILED" else "errors"] += 1
            out["failures"].append({"test": test, "message": "(cut short: message not recorded)"})
    return out


def kernel_times(rows: list[dict]) -> dict:
    """Per kernel, the Rust/cuTile Python kernel-time ratios of its timed launches (CUDA graphs, interleaved) and
    their geometric mean; over all kernels, the geometric mean of those and the kernels above 1.05."""
    per: dict[str, list[float]] = {}
    for r in rows:
        for rec in r.get("kernel_times", []):
            if rec.get("ratio"):
                per.setdefault(rec["kernel"], []).append(rec["ratio"])
    geo = {k: round(math.exp(sum(map(math.log, v)) / len(v)), 4) for k, v in sorted(per.items())}
    allg = round(math.exp(sum(map(math.log, geo.values())) / len(geo)), 4) if geo else None
    return {"geomean_over_kernels": allg, "kernels": len(geo), "above_1_05": {k: v for k, v in geo.items() if v > 1.05},
            "per_kernel_geomean": geo}


def _shards(corpus: Path, f: str, keyword: str, n: int) -> list[list[str]]:
    """The node ids of ``f``'s tests ``keyword`` selects, dealt round-robin into at most ``n`` lists (none: the
    collection failed, and the file runs whole as one process)."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider",
                           f"tests/ops/{f}", "-k", keyword], cwd=corpus, capture_output=True, text=True,
                          env=_env(corpus), timeout=300)
    ids = [line.strip() for line in proc.stdout.splitlines() if "::" in line and not line.startswith(" ")]
    return [chunk for chunk in (ids[i::n] for i in range(n)) if chunk]


def _merged_shards(rows: list[dict]) -> list[dict]:
    """One row per (file, mode): the shards' counts summed, their skips, failures, launches and kernel times put
    together, the longest shard's seconds, the first failing exit."""
    out: dict[tuple, dict] = {}
    for r in rows:
        key = (r["file"], r["mode"])
        if key not in out:
            out[key] = {**r, "skips": dict(r["skips"]), "failures": list(r["failures"]),
                        "kernel_times": list(r.get("kernel_times", []))}
            if "launch_stats" in r:
                out[key]["launch_stats"] = {**r["launch_stats"], "rust": dict(r["launch_stats"].get("rust", {})),
                                            "fallbacks": list(r["launch_stats"].get("fallbacks", []))}
            out[key]["shards"] = 1
            continue
        m = out[key]
        m["shards"] += 1
        for k in ("passed", "failed", "skipped", "errors"):
            m[k] += r[k]
        for why, n in r["skips"].items():
            m["skips"][why] = m["skips"].get(why, 0) + n
        m["failures"] += r["failures"]
        m["kernel_times"] += r.get("kernel_times", [])
        m["seconds"] = max(m["seconds"], r["seconds"])
        if m["exit"] in (0, 5) and r["exit"] not in (0, 5):
            m["exit"] = r["exit"]
        if "launch_stats" in r:
            st = m.setdefault("launch_stats", {"rust": {}, "fallbacks": []})
            for k, n in r["launch_stats"].get("rust", {}).items():
                st["rust"][k] = st["rust"].get(k, 0) + n
            st["fallbacks"] += r["launch_stats"].get("fallbacks", [])
            st["fallback"] = st.get("fallback") or r["launch_stats"].get("fallback")
    for m in out.values():
        if not m["kernel_times"]:
            del m["kernel_times"]
    return list(out.values())


def run_tests(args: argparse.Namespace) -> int:
    corpus, out = args.corpus.resolve(), args.out.resolve()
    (out / "junit").mkdir(parents=True, exist_ok=True)
    ops = corpus / "tests" / "ops"
    files = args.files or sorted(str(p.relative_to(ops)) for p in ops.rglob("test_*.py"))
    first = [f for f in LONG_FIRST if f in files]   # the slowest files start first: they set the run's length
    modes = [m for m in args.modes.split(",") if m]
    if not modes or set(modes) - set(MODES):
        raise SystemExit(f"--modes: a comma-separated subset of {','.join(MODES)}, not {args.modes!r}")
    ordered = first + [f for f in files if f not in first]
    # --shards N: each file's selected tests split over N processes (a file of many autotuned cases, test_bmm.py's
    # 256, is one process per mode otherwise); the node ids are collected once per file, in the plain environment
    parts = {f: _shards(corpus, f, args.keyword, args.shards) for f in ordered} if args.shards > 1 else {}
    jobs = [(f, m, i, ids) for f in ordered for m in modes
            for i, ids in (enumerate(parts[f]) if parts.get(f) else [(0, None)])]

    def one(job: tuple[str, str, int, list[str] | None]) -> dict:
        f, mode, shard, ids = job
        stem = f"{f.removesuffix('.py').replace('/', '.')}.{mode}" + (f".s{shard}" if ids is not None else "")
        junit, stats, log = out / "junit" / f"{stem}.xml", out / "junit" / f"{stem}.stats.json", out / f"{stem}.log"
        selected = ids if ids is not None else [f"tests/ops/{f}", "-k", args.keyword]
        # (-v: a line per test as it ends, which is what a shard cut short by the timeout leaves: no junit file)
        cmd = [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "tileport.pytest_launch",
               *selected, f"--junitxml={junit}"]
        started = time.monotonic()
        try:
            proc = subprocess.run(cmd, cwd=corpus, env=_env(corpus, args.library, mode, stats, args.timing),
                                  capture_output=True,
                                  text=True, timeout=args.timeout)
            code, tail = proc.returncode, (proc.stdout + proc.stderr)[-6000:]
        except subprocess.TimeoutExpired as exc:
            text = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            code, tail = "timeout", text
        log.write_text(tail[-6000:])
        counts = _junit(junit)
        if code == "timeout" and not junit.is_file():   # the tests that ended before the timeout, from their lines
            counts = {**_progress(tail), "partial": True}
        row = {"file": f, "mode": mode, "exit": code, "seconds": round(time.monotonic() - started, 1), **counts}
        if stats.is_file():
            row["launch_stats"] = json.loads(stats.read_text())
        timing = stats.with_name(stats.name.replace(".stats.", ".timing."))
        if timing.is_file():
            row["kernel_times"] = json.loads(timing.read_text())
        print(f"{f:40} {mode:5} {f'shard {shard}' if ids is not None else ''} exit={code} passed={row['passed']} "
              f"failed={row['failed']} skipped={row['skipped']} ({row['seconds']} s)", flush=True)
        return row

    rows: list[dict] = []
    lock = threading.Lock()

    def write() -> dict:   # after every file: a run cut short still leaves what finished
        done = _merged_shards(sorted(rows, key=lambda r: (r["file"], r["mode"])))
        summary = {m: {k: sum(r[k] for r in done if r["mode"] == m) for k in ("passed", "failed", "skipped", "errors")}
                   for m in MODES}
        pairs = {r["file"]: {s["mode"]: s for s in done if s["file"] == r["file"]} for r in done}
        same = {f: (p["plain"]["passed"], p["plain"]["failed"]) == (p["rust"]["passed"], p["rust"]["failed"])
                for f, p in pairs.items() if len(p) == 2}
        result = {"command": " ".join(sys.argv), "keyword": args.keyword, "summary": summary,
                  "files_done": len(pairs), "files_asked": len(files), "same_counts_per_file": same,
                  "kernel_times": kernel_times(done), "files": done}
        (out / "tests.json").write_text(json.dumps(result, indent=1) + "\n")
        return result

    def record(job: tuple[str, str]) -> None:
        row = one(job)
        with lock:
            rows.append(row)
            write()

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(record, jobs))
    result = write()
    print(json.dumps(result["summary"]), "same per file:", result["same_counts_per_file"])
    return 0


def run_overhead(args: argparse.Namespace) -> int:
    """Host cost of ct.launch, plain vs through the launch backend, for one recorded TileGym launch."""
    sys.path[:0] = [str(args.corpus / "src"), str(args.corpus)]
    import cuda.tile as ct
    import torch

    import tilegym
    from tileport.runtime import intercept
    from tileport.runtime.library import Library

    tilegym.set_backend("cutile")
    x = torch.randn(256, 768, dtype=torch.float16, device="cuda")
    w = torch.randn(768, dtype=torch.float16, device="cuda")
    recorded: list = []
    plain = ct.launch

    def recorder(stream, grid, kernel, kernel_args, /, **kw):  # noqa: ANN001, ANN202
        recorded.append((stream, grid, kernel, tuple(kernel_args)))
        return plain(stream, grid, kernel, kernel_args, **kw)

    ct.launch = recorder
    try:
        tilegym.ops.rms_norm(x, (768,), w, 1e-5)
    finally:
        ct.launch = plain
    stream, grid, kernel, kargs = recorded[0]
    from tileport.runtime import library as libmod

    lib = Library(intercept.library_file(args.library))
    rust = intercept.Interceptor(lib, False, plain)
    g3 = tuple(grid) + (1,) * (3 - len(grid))
    handle = intercept.raw_stream(stream)
    # "rust": what ct.launch is with the backend installed (the native dispatcher); "rust, Python interceptor": the
    # same launch through the interceptor's Python frame (what every launch cost before the dispatcher)
    paths = {"plain": plain, "rust": rust.entry, "rust, Python interceptor": rust,
             "library.launch": lambda s, g, k, a: libmod.launch(g3, k, a, lib, handle)}
    for fn in paths.values():           # compile both, off the clock
        fn(stream, grid, kernel, kargs)
    torch.cuda.synchronize()
    st = lib.states[id(kernel)]
    device = torch.cuda.current_device()
    paths["native plan"] = lambda s, g, k, a: st.last.native.launch(a, g3, device, handle)
    slow = {"n": 0}
    real_slow = libmod._launch_slow

    def counting_slow(*a, **kw):  # noqa: ANN002, ANN003, ANN202
        slow["n"] += 1
        return real_slow(*a, **kw)

    libmod._launch_slow = counting_slow
    # the direct launch (rust/tileport-ops/src/direct.rs) off for one path: the same backend through cutile's launcher
    dll = lib.dll
    toggle = getattr(dll, "tileport_direct_launch", None)
    if toggle is not None:
        toggle.restype, toggle.argtypes = ctypes.c_bool, [ctypes.c_bool]
        paths["rust, cutile's launcher"] = rust.entry
    n, rounds = args.launches, args.rounds
    times: dict[str, list[float]] = {k: [] for k in paths}
    names = list(paths)
    for r in range(rounds):
        # each round starts at the next path (a fixed order put plain first in every round: run 19's 1.01 and
        # 1.027 medians against run 18's 0.952 and 0.994 with the same code)
        for name in names[r % len(names):] + names[:r % len(names)]:
            fn = paths[name]
            if toggle is not None:
                toggle(name != "rust, cutile's launcher")
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(n):
                fn(stream, grid, kernel, kargs)
            t1 = time.perf_counter()
            torch.cuda.synchronize()
            times[name].append((t1 - t0) / n * 1e6)
    if toggle is not None:
        toggle(True)
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    direct, refusal = (ctypes.c_uint64 * 3)(), ctypes.create_string_buffer(2048)
    if hasattr(dll, "tileport_direct_stats"):
        dll.tileport_direct_stats(direct, 3)
        dll.tileport_direct_refusal(refusal, len(refusal))
    result = {"command": " ".join(sys.argv), "kernel": kernel._pyfunc.__name__, "grid": list(grid),
              "launches_per_round": n, "rounds": rounds, "host_us_per_launch": times, "median_us": med,
              "slow_path_launches": slow["n"],
              "dispatcher_launches": sum(c for _, c in rust.launcher.counts()) if rust.launcher is not rust else None,
              "direct_launches_recorded_refused": list(direct),
              "direct_last_refusal": refusal.value.decode(errors="replace"),
              "native_status": st.last.native.launch(kargs, g3, device, handle),
              "ratio_rust_over_plain": round(med["rust"] / med["plain"], 3),
              # each round's rust time over the same round's plain time (the two ran next to each other), median
              "paired_ratio_median": round(sorted(r / p for r, p in zip(times["rust"], times["plain"]))[rounds // 2], 3)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "overhead.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "host_us_per_launch"}))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("tests", "overhead"):
        p = sub.add_parser(name)
        p.add_argument("--corpus", type=Path, required=True, help="the TileGym checkout")
        p.add_argument("--library", type=Path, required=True, help="the served library (folder)")
        p.add_argument("--out", type=Path, required=True)
        if name == "tests":
            p.add_argument("files", nargs="*", help="test files under tests/ops (default: all)")
            p.add_argument("--jobs", type=int, default=8)
            p.add_argument("--keyword", default="test_op and cutile")
            p.add_argument("--modes", default="plain,rust",
                           help="which runs (plain, rust): rust alone when --timing measures both paths in it")
            p.add_argument("--timeout", type=int, default=540)
            p.add_argument("--shards", type=int, default=1, metavar="N",
                           help="split each file's tests over N processes per mode (node ids collected first)")
            p.add_argument("--timing", action="store_true",
                           help="in the rust runs, time each kernel's first launches both ways (CUDA graphs)")
        else:
            # many short rounds: one round's host time swings 6-13 µs a launch on the H100 hosts (runs 24-25), and
            # a median of 9 rounds moved the ratio by 5% between runs; 41 rounds of 500 cost ~1 s a path
            p.add_argument("--launches", type=int, default=500)
            p.add_argument("--rounds", type=int, default=41)
    args = ap.parse_args()
    return run_tests(args) if args.cmd == "tests" else run_overhead(args)


if __name__ == "__main__":
    sys.exit(main())
