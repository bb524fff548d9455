"""On a GPU: the Triton corpus's own host code run with every ported kernel shadowed by its port.

Triton's tutorials (run as ``__main__``; their benchmark sweeps call each point once, ``do_bench`` once) and
TileGym's Triton tests (pytest, ``-k triton``) run unchanged; each launch of a kernel that ``tileport corpus port``
ported is also run through the port's lowered cuTile Python (``runtime.shadow``: outputs compared with Triton's on
the same inputs, both timed with CUDA graphs). The lowered cuTile Python compiles to the Tile IR the Rust port was
proven equivalent to (``tileport corpus port``'s irdiff), so its kernel time stands for the Rust port's.

    python benchmarks/corpus/triton_shadow.py --tutorials DIR --tutorial-ports DIR \\
        --tilegym DIR --tilegym-ports DIR --out results.json

Prints one row per kernel (launches checked, outputs within tolerance, port/Triton time per launch) and writes
every check to the JSON file.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import runpy
import sys
import time
from pathlib import Path


def _raised(exc: BaseException) -> str:
    """A host program's failure as one status line: its type and the first line of its message."""
    return f"raised {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


def run_scripts(scripts: list[Path], log: io.StringIO) -> list[dict]:
    from tileport.hostrun import as_main
    from tileport.corpus.tritonemu import legacy_modules, quick_benchmarks

    out = []
    for f in scripts:
        t0 = time.monotonic()
        try:
            # (legacy_modules: tutorials 06/09 import Triton 3.3's triton.tools.experimental_descriptor, unused;
            # their TMA paths still raise on Triton 3.6 and are counted, the fp8 attention and matmuls run)
            with as_main(f), contextlib.redirect_stdout(log), quick_benchmarks() as raised, \
                    legacy_modules(cublas=False):
                runpy.run_path(str(f), run_name="__main__")
            status = "ran"
        except BaseException as exc:  # noqa: BLE001 — a script's own failure: recorded, the next one runs
            status = _raised(exc)
            raised = {}
        out.append({"script": f.name, "status": status, "seconds": round(time.monotonic() - t0, 1),
                    "benchmark_points_raised": dict(raised)})
        print(f"{f.name}: {status} ({out[-1]['seconds']} s)", flush=True)
    return out


def run_calls(calls: list[dict], tutorials: Path, log: io.StringIO) -> list[dict]:
    """Host calls a tutorial's ``__main__`` cannot make on the installed Triton (``--calls``): the script loaded as a
    module (its ``__main__`` block not run), then each call's code run in its namespace — the tutorial's own host
    functions, at its own shapes."""
    from tileport.corpus.tritonemu import legacy_modules

    out = []
    for c in calls:
        t0 = time.monotonic()
        try:
            with contextlib.redirect_stdout(log), legacy_modules(cublas=False):
                ns = runpy.run_path(str(tutorials / c["script"]), run_name="tutorial")
                exec(compile(c["code"], f"<call {c['script']}>", "exec"), ns)  # noqa: S102 — the calls file's code
            status = "ran"
        except BaseException as exc:  # noqa: BLE001 — one call's failure: recorded, the next one runs
            status = _raised(exc)
        out.append({"script": c["script"], "why": c["why"], "status": status,
                    "seconds": round(time.monotonic() - t0, 1)})
        print(f"{c['script']} (call: {c['why'][:60]}): {status} ({out[-1]['seconds']} s)", flush=True)
    return out


def _read_calls(path: Path, tutorials: Path) -> list[dict]:
    """The ``--calls`` file's calls, each with a script under ``tutorials``, a ``why`` and ``code`` that compiles;
    anything else stops the run before it starts, with the reason."""
    try:
        calls = json.loads(path.read_text())["calls"]
        for i, c in enumerate(calls):
            missing = {"script", "why", "code"} - set(c)
            if missing:
                raise ValueError(f"call {i} lacks {', '.join(sorted(missing))}")
            if not (tutorials / c["script"]).is_file():
                raise ValueError(f"call {i}: no script {c['script']} under {tutorials}")
            compile(c["code"], f"<call {c['script']}>", "exec")
    except (OSError, ValueError, KeyError, TypeError, SyntaxError) as exc:
        raise SystemExit(f"triton_shadow.py: --calls {path}: {type(exc).__name__}: {exc}") from None
    return calls


def run_tests(root: Path, files: list[str], keyword: str, log: io.StringIO, checkpoint) -> list[dict]:
    """Each test file in turn (pytest, in this process), the results written after each (``checkpoint``)."""
    import pytest

    sys.path.insert(0, str(root / "src"))
    out = []
    for f in files:
        t0 = time.monotonic()
        with contextlib.redirect_stdout(log):
            code = pytest.main([str(root / f), "-k", keyword, "-q", "-p", "no:cacheprovider", "--rootdir",
                                str(root)])
        out.append({"file": f, "keyword": keyword, "exit_code": int(code),
                    "seconds": round(time.monotonic() - t0, 1)})
        print(f"TileGym {f} (-k {keyword}): pytest exit code {int(code)} ({out[-1]['seconds']} s)", flush=True)
        checkpoint()
    return out


def geomean(values: list[float]) -> float | None:
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def summary(records: list[dict]) -> list[dict]:
    rows: dict[tuple, dict] = {}
    for r in records:
        row = rows.setdefault((r["file"], r["kernel"]), {"file": r["file"], "kernel": r["kernel"], "checks": 0,
                                                         "ok": 0, "ratios": []})
        row["checks"] += 1
        row["ok"] += bool(r.get("ok"))
        if r.get("ratio"):
            row["ratios"].append(r["ratio"])
    for row in rows.values():
        rs = row.pop("ratios")
        row["geomean_ratio"] = geomean(rs)
        row["max_ratio"] = max(rs) if rs else None
    return list(rows.values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tutorials", type=Path, required=True)
    ap.add_argument("--tutorial-ports", type=Path, required=True, help="the --out of `tileport corpus port`")
    ap.add_argument("--tilegym", type=Path)
    ap.add_argument("--tilegym-ports", type=Path)
    ap.add_argument("--tilegym-tests", nargs="*", default=["tests/ops/test_rms_norm.py",
                                                            "tests/ops/test_layer_norm_legacy.py",
                                                            "tests/ops/test_dropout.py", "tests/ops/test_rope.py"])
    ap.add_argument("--max-checks", type=int, default=4, help="launches checked per kernel (distinct ones)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--log", type=Path, help="the host programs' own output")
    ap.add_argument("--skip-tutorials", action="store_true", help="run only TileGym's tests")
    ap.add_argument("--calls", type=Path, metavar="JSON",
                    help="host calls of tutorial functions run after the scripts ({calls: [{script, why, code}]}: "
                         "benchmarks/corpus/triton_shadow_calls.json)")
    ap.add_argument("--hang-dump", type=float, default=0, metavar="S",
                    help="after S seconds print every thread's stack and exit (finds a hang; 0: never)")
    args = ap.parse_args()

    from tileport.runtime.shadow import corpus_ports, shadow

    calls = _read_calls(args.calls, args.tutorials) if args.calls else []

    if args.hang_dump:
        import faulthandler

        faulthandler.dump_traceback_later(args.hang_dump, exit=True)

    ports = corpus_ports(args.tutorial_ports / "corpus.json", args.tutorials)
    if args.tilegym and args.tilegym_ports:
        ports |= corpus_ports(args.tilegym_ports / "corpus.json", args.tilegym)
    wanted = sorted({Path(f).name for f, _ in ports} & {p.name for p in args.tutorials.glob("*.py")})
    print(f"{len(ports)} ported kernels; tutorials to run: {', '.join(wanted)}", flush=True)
    log = io.StringIO()
    result: dict = {"what": __doc__.split("\n\n")[0], "ports": {f"{f}::{k}": str(p) for (f, k), p in ports.items()}}
    def checkpoint() -> None:   # what is known so far, in case a later step hangs or the run is stopped
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result | {"checks": sh.records}, indent=1, default=str) + "\n")
        if args.log:
            args.log.write_text(log.getvalue())

    with shadow(ports, max_checks=args.max_checks) as sh:
        if not args.skip_tutorials:
            result["scripts"] = run_scripts([args.tutorials / n for n in wanted], log)
            checkpoint()
            if args.calls:
                result["calls"] = run_calls(calls, args.tutorials, log)
                checkpoint()
        if args.tilegym and args.tilegym_ports:
            result["tests"] = run_tests(args.tilegym, args.tilegym_tests, "triton", log, checkpoint)
    status = {}
    for root, d in ((args.tutorials, args.tutorial_ports), (args.tilegym, args.tilegym_ports)):
        if root and d:
            for r in json.loads((d / "corpus.json").read_text())["kernels"]:
                status[(str((root / r["file"]).resolve()), r["kernel"])] = r["status"]
    result["kernels"] = summary(sh.records)
    for row in result["kernels"]:
        row["port_status"] = status.get((str(Path(row["file"]).resolve()), row["kernel"]))
    result["checks"] = sh.records
    result["not_checked_other_dtypes"] = sh.skipped
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, default=str) + "\n")
    if args.log:
        args.log.write_text(log.getvalue())
    print(f"{'kernel':<40} {'port':>9} {'checks':>6} {'ok':>4} {'port/triton':>12} {'max':>6}")
    for row in result["kernels"]:
        g = f"{row['geomean_ratio']:.3f}" if row["geomean_ratio"] else "-"
        m = f"{row['max_ratio']:.3f}" if row["max_ratio"] else "-"
        name = Path(row["file"]).name + "::" + row["kernel"]
        print(f"{name:<40} {row['port_status'] or '?':>9} {row['checks']:>6} {row['ok']:>4} {g:>12} {m:>6}")
    for kernel, n in sh.skipped.items():
        print(f"not checked: {n} launches of {kernel} at dtypes no variant of its port was captured at")
    for r in sh.records:
        if not r.get("ok"):
            print(f"NOT OK {r['kernel']} grid {r['grid']}: {r.get('error') or r.get('outputs')}")
    return 0 if all(r.get("ok") for r in sh.records) and sh.records else 1


if __name__ == "__main__":
    sys.exit(main())
