"""``tileport corpus ...``: the subcommands (registered by ``tileport.cli.build_parser``)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

CAPTURE_DESCRIPTION = """\
Runs the corpus's own tests (pytest, in this process, one test file at a time) on a machine with torch but no GPU,
and records every cuTile kernel launch they make: ct.launch records and runs nothing; torch's CUDA device is
answered as --target (tensors asked for on cuda are made on the CPU, the corpus's code sees them as cuda:0);
cuda.tile.tune.exhaustive_search launches its first config and times nothing. Since no kernel runs, the tests'
numeric checks fail: that is expected and counted, not an error; what matters is the launches made before.

Tests parametrized by a backend (parameters named backend / framework) run only for --backend; benchmarks
(test_perf*) only with --perf. A test running past --timeout is stopped (its launches are kept); an allocation
over --max-alloc-gb is refused (the test stops there) and reported.

OUT gets one capture file per launched kernel (the format of `tileport capture`, so `tileport port
FILE::KERNEL --capture OUT/<file>.<kernel>.json` reads it) and OUT/index.json (assumptions, per-kernel counts,
kernels no test launched, per-test-file outcomes). The layout is documented in `tileport.corpus`."""

CAPTURE_EPILOG = """\
examples:
  tileport corpus capture ../shared/corpus/TileGym --tests tests/ops --out benchmarks/results/corpus/captures
  tileport corpus capture ../shared/corpus/TileGym --tests tests/ops/test_rms_norm.py --out build/rms
  tileport corpus capture DIR --target B200:sm_100:148:180 -k "float16" --out build/c"""


def register(sub: Any, fmt: type) -> None:
    co = sub.add_parser("corpus", help="a corpus of other people's kernels: capture their launches from its tests",
                        formatter_class=fmt, description="A corpus is a tree of other people's cuTile kernels with "
                        "their tests (e.g. TileGym). `capture` runs those tests on the CPU and records every kernel "
                        "launch per kernel, in the format `tileport port --capture` reads.",
                        epilog="example:\n  tileport corpus capture ../shared/corpus/TileGym --tests tests/ops "
                               "--out build/corpus")
    csub = co.add_subparsers(dest="corpus_cmd", required=True, metavar="SUBCOMMAND")
    cc = csub.add_parser("capture", help="run a corpus's tests on the CPU, record its cuTile launches per kernel",
                         formatter_class=fmt, description=CAPTURE_DESCRIPTION, epilog=CAPTURE_EPILOG)
    cc.add_argument("dir", metavar="DIR", help="the corpus root (e.g. ../shared/corpus/TileGym)")
    cc.add_argument("--out", required=True, help="directory for the capture files and index.json (replaced)")
    cc.add_argument("--tests", action="append", metavar="PATH",
                    help="test file or directory under DIR (repeatable; default: tests)")
    cc.add_argument("--path", action="append", metavar="DIR",
                    help="import root under DIR put first on sys.path (repeatable; default: src when present)")
    cc.add_argument("--kernels-in", action="append", metavar="PATH",
                    help="where to scan for @ct.kernel functions, under DIR (repeatable; default: all of DIR)")
    cc.add_argument("--target", default="h200",
                    help="the GPU torch.cuda answers as: h200 (default), h100, or NAME:sm_XY:SMS:MEM_GB")
    cc.add_argument("--backend", default="cutile",
                    help="the value of backend/framework test parameters to run (default cutile)")
    cc.add_argument("--perf", action="store_true", help="also run benchmarks (test_perf*)")
    cc.add_argument("-k", dest="keyword", metavar="EXPR", help="pytest -k expression")
    cc.add_argument("--timeout", type=float, default=120.0, metavar="S",
                    help="per-test time limit in seconds, 0 for none (default 120)")
    cc.add_argument("--max-alloc-gb", type=float, default=4.0, metavar="GB",
                    help="refuse single allocations larger than this many GiB (default 4)")
    cc.add_argument("--max-signatures", type=int, default=12, metavar="N",
                    help="distinct signatures kept per kernel (default 12; every dtype and constant value first)")
    cc.add_argument("--log-dir", metavar="DIR", help="write pytest's own output per test file here")
    cc.add_argument("--json", action="store_true", help="print index.json instead of the summary")
    cc.set_defaults(func=cmd_capture)


def cmd_capture(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from .capture import Options, run, summary_lines
    from .cudaemu import GiB, parse_target

    root = Path(args.dir)
    if not root.is_dir():
        raise InputError(f"{args.dir}: no such directory")
    if args.max_signatures < 1:
        raise InputError("--max-signatures must be at least 1")
    from ..inputs import out_dir

    out_dir(Path(args.out), "--out")  # before the tests run: an --out that cannot be written fails first
    paths = args.path if args.path is not None else (["src"] if (root / "src").is_dir() else [])
    say = (lambda m: print(m, file=sys.stderr, flush=True)) if args.json else (lambda m: print(m, flush=True))
    opts = Options(root=root, tests=args.tests or ["tests"], out=Path(args.out), target=parse_target(args.target),
                   paths=paths, kernels_in=args.kernels_in or [], only_backend=args.backend,
                   include_perf=args.perf, keyword=args.keyword, timeout_s=args.timeout,
                   max_alloc_bytes=int(args.max_alloc_gb * GiB), max_signatures=args.max_signatures,
                   log_dir=Path(args.log_dir) if args.log_dir else None, say=say)
    index = run(opts)
    if args.json:
        print(json.dumps(index, indent=2))
    else:
        for line in summary_lines(index):
            print(line)
        print(f"captures and index.json → {args.out}")
    broken = [t for t in index["test_files"] if t.get("error")]
    return 1 if broken or not index["kernels"] else 0
