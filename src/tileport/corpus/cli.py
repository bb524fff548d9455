"""``tileport corpus ...``: the subcommands (registered by ``tileport.cli.build_parser``)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

CAPTURE_DESCRIPTION = """\
Runs the corpus's own tests (pytest, in this process, one test file at a time) and host programs (--script, run
as __main__) on a machine with torch but no GPU, and records every cuTile and Triton kernel launch they make:
ct.launch records and runs nothing; a Triton kernel's kernel[grid](...) records, then also runs in Triton's
interpreter on the CPU where its inputs are values no un-run kernel wrote (--triton-run), so host code reading its
output back (MoE counts) launches as on the GPU; torch's CUDA device and Triton's driver
are answered as --target (tensors asked for on cuda are made on the CPU, the corpus's code sees them as cuda:0);
cuda.tile.tune.exhaustive_search and @triton.autotune launch their first config and time nothing;
triton.testing.do_bench calls once and a perf_report benchmark's run() calls each point of its sweep once;
`import cupy` gives a numpy-backed stand-in (cupy arrays in host memory, speaking __cuda_array_interface__). Since no
cuTile kernel runs, checks the capture cannot answer (TileGym's own tolerance arithmetic) fail: that is expected and
counted, not an error; what matters is the launches made before. Where the host code reads back a kernel's output
(.item(), .tolist()) or starts a child process, the summary lists the lines: launches sized by such values, or made
in a child, may differ from the GPU's run or not be recorded.

Tests parametrized by a backend (parameters named backend / framework) run only for --backend; benchmarks
(test_perf*) only with --perf. A test running past --timeout is stopped (its launches are kept); an allocation
over --max-alloc-gb is refused (the test stops there) and reported. The tests' reference computations that
would take long on a CPU (matrix products and attention over --max-gmac) are not computed: their results are
uninitialized tensors of the right shape, so the test goes on to its later launches (backward passes); for the
same reason numeric comparisons (torch.isclose/allclose/equal, hence torch.testing.assert_close) answer "close"
(--compare run computes them).

OUT gets one capture file per launched kernel (the format of `tileport capture`, so `tileport port
FILE::KERNEL --capture OUT/<file>.<kernel>.json` reads it) and OUT/index.json (assumptions, per-kernel counts,
kernels no test launched, per-test-file outcomes). The layout is documented in `tileport.corpus`.

With --on-gpu the same capture runs on a GPU host instead (no emulation): every launch is recorded and then runs,
autotuners and benchmarks time for real. A kernel whose constants come from another kernel's autotuning winner
(TileGym's mHC finalize kernel takes the split-K factor its GEMM's search picked) is then captured at the
specializations the GPU launches, which an emulated capture cannot know."""

CAPTURE_EPILOG = """\
examples:
  tileport corpus capture ../shared/corpus/TileGym --tests tests/ops --out build/captures
  tileport corpus capture ../shared/corpus/TileGym --tests tests/ops/test_rms_norm.py --out build/rms
  tileport corpus capture ../shared/corpus/triton-tutorials --script . --out build/tt
  tileport corpus capture DIR --target B200:sm_100:148:180 -k "float16" --out build/c"""


PORT_DESCRIPTION = """\
Ports every kernel of a corpus capture (`tileport corpus capture`), or of a host program's capture file
(`tileport capture --out F -- python host.py` / `-- python -m pytest tests`), at every launch made: analyze,
translate, build (one cargo build per --batch kernels), irdiff. Prints one row per kernel: file, kernel, status
(proven / unproven / failed / not-launched), variants, variants proven, and the first refusal (its construct and
file:line:col) or the stage that failed. Writes OUT/corpus.json and each kernel's port folder under OUT."""

PORT_EPILOG = """\
examples:
  tileport corpus port benchmarks/results/corpus/captures.tar.xz --corpus ../shared/corpus/TileGym --out build/corpus
  tileport corpus port CAPTURES --corpus DIR --out build/c --only rms_norm --json
  tileport capture --out launches.json -- python -m pytest tests && tileport corpus port launches.json --corpus . --out build/p"""


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
                    help="test file or directory under DIR (repeatable; default: tests, unless --script is given)")
    cc.add_argument("--script", action="append", metavar="PATH",
                    help="a host program under DIR run as __main__ (repeatable; a directory: each *.py in it), "
                         "e.g. Triton's tutorials, which are scripts, not tests; with its arguments, quoted: "
                         "--script \"run.py --size 256\"; a package's module as python -m runs it: --script \"-m "
                         "pkg.bench --size 256\" (a file of a package that imports relatively runs so by itself)")
    cc.add_argument("--path", action="append", metavar="DIR",
                    help="import root under DIR put first on sys.path (repeatable; default: the folders its packaging "
                         "names (setuptools package_dir, packages.find where), src when present, then DIR itself, as "
                         "`python -m pytest` run in DIR finds a package at its top)")
    cc.add_argument("--kernels-in", action="append", metavar="PATH",
                    help="where to scan for @ct.kernel functions, under DIR (repeatable; default: all of DIR)")
    cc.add_argument("--target", default="h200",
                    help="the GPU torch.cuda answers as: h200 (default), h100, or NAME:sm_XY:SMS:MEM_GB")
    cc.add_argument("--backend", default="cutile",
                    help="the value of backend/framework test parameters to run (default cutile; several "
                         "comma-separated: cutile,triton also runs a project's Triton backend)")
    cc.add_argument("--perf", action="store_true", help="also run benchmarks (test_perf*)")
    cc.add_argument("-k", dest="keyword", metavar="EXPR", help="pytest -k expression")
    cc.add_argument("--timeout", type=float, default=120.0, metavar="S",
                    help="per-test time limit in seconds, 0 for none (default 120)")
    cc.add_argument("--max-alloc-gb", type=float, default=4.0, metavar="GB",
                    help="refuse single allocations larger than this many GiB (default 4)")
    cc.add_argument("--max-memory-gb", type=float, default=None, metavar="GB",
                    help="stop a test whose allocations would take the capture's process over this many GiB "
                         "resident (default: 70%% of this machine's memory; 0: no limit) — benchmark shapes on a CPU")
    cc.add_argument("--max-gmac", type=float, default=2.0, metavar="G",
                    help="matrix products / attention costing more than G billion multiply-adds (16/8-bit floats "
                         "count 32x) are not computed: uninitialized results of the right shape (default 2)")
    cc.add_argument("--compare", choices=("pass", "run"), default="pass",
                    help="pass (default): torch.isclose/allclose/equal answer 'close', so a test goes on past its "
                         "forward check as on the GPU; run: compute them (the checks fail)")
    cc.add_argument("--max-signatures", type=int, default=12, metavar="N",
                    help="distinct signatures kept per kernel (default 12; every dtype and constant value first)")
    cc.add_argument("--autotune", choices=("first", "all", "each"), default="first",
                    help="first (default): an autotuner's search launches its first config; all: every config, so "
                         "the config the GPU picks is captured too (for a served library: `tileport ops build "
                         "--from`, `tileport run`); each: as all, then the test files that searched run again once "
                         "per other config, the search returning it as the winner, so what the host code launches "
                         "with the winner's values (another kernel's constants, buffers sized by it) is captured "
                         "for every config the GPU may pick")
    cc.add_argument("--on-gpu", action="store_true",
                    help="run on this machine's GPU instead of emulating --target: every launch is recorded, then "
                         "runs, and autotuners time for real, so launches whose constants come from another "
                         "kernel's autotuned winner (a split-K factor) are the ones the GPU makes; port the capture "
                         "on any machine")
    cc.add_argument("--triton-run", type=float, default=2.0, metavar="S",
                    help="emulated: each Triton launch whose inputs no kernel not run here wrote also runs in "
                         "Triton's interpreter on the CPU, up to S seconds (default 2; 60 s in all; 0: none), so "
                         "host code reading its output back (MoE counts sizing the next launches) reads the "
                         "kernel's values")
    cc.add_argument("--log-dir", metavar="DIR", help="write pytest's own output per test file here")
    cc.add_argument("--json", action="store_true", help="print index.json instead of the summary")
    cc.set_defaults(func=cmd_capture)
    cp = csub.add_parser("port", help="port every kernel a corpus capture recorded; one row per kernel",
                         formatter_class=fmt, description=PORT_DESCRIPTION, epilog=PORT_EPILOG)
    cp.add_argument("captures", metavar="CAPTURES", nargs="+",
                    help="the --out folder of `tileport corpus capture`, or a capture file of `tileport capture` (one "
                         "host program's launches, every kernel in it ported; several: merged per kernel, e.g. an "
                         "emulated capture and an --on-gpu one); a capture folder packed as .tar.xz is unpacked under --out")
    cp.add_argument("--corpus", required=True, metavar="DIR",
                    help="the corpus root the captures were made from (sources are re-rooted here)")
    cp.add_argument("--out", required=True, help="folder for the ports and corpus.json")
    cp.add_argument("--only", metavar="TEXT", help="port only kernels whose FILE::KERNEL contains TEXT")
    cp.add_argument("--exclude", metavar="TEXT", action="append", default=[],
                    help="leave out kernels whose FILE::KERNEL contains TEXT (repeatable; e.g. a kernel with a "
                         "thousand autotuned launches)")
    cp.add_argument("--hints", metavar="FILE.json",
                    help="cuTile options for chosen Triton kernels, by FILE::KERNEL (format: "
                         "src/tileport/spec/hints.schema.json), merged over those the lowering derives from the "
                         "launches — what a GPU measurement found best (benchmarks/corpus/triton_hints.json)")
    cp.add_argument("--batch", type=int, default=8, metavar="N",
                    help="kernels per shared cargo build (default 8)")
    cp.add_argument("--table", metavar="FILE.md", help="also write the table as markdown here")
    cp.add_argument("--results", metavar="FILE.json",
                    help="also write the rows (file, kernel, status, variants, variants_proven, refusal) here")
    cp.add_argument("--arch", default="sm_90", help="cubin target of the irdiff's compile (default sm_90)")
    cp.add_argument("--json", action="store_true", help="print corpus.json instead of the table")
    cp.set_defaults(func=cmd_port)


def cmd_capture(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from .capture import Options, import_roots, run, script_runs, summary_lines, test_files
    from .cudaemu import GiB, parse_target

    root = Path(args.dir)
    if not root.is_dir():
        raise InputError(f"{args.dir}: no such directory")
    if args.max_signatures < 1:
        raise InputError("--max-signatures must be at least 1")
    if args.max_memory_gb is not None and args.max_memory_gb < 0:
        raise InputError("--max-memory-gb must be 0 (no limit) or more")
    from ..inputs import out_dir

    out_dir(Path(args.out), "--out")  # before the tests run: an --out that cannot be written fails first
    # as `python -m pytest` run in DIR (DIR itself importable), with the roots its packaging names (package_dir,
    # packages.find where) and a src/ layout's first
    paths = args.path if args.path is not None else import_roots(root)
    script_runs(root, args.script or [], paths)  # and a --script (a file, or a module: "-m pkg.mod") that is not there (no torch needed)
    test_files(root, args.tests or ([] if args.script else ["tests"]))   # and --tests
    say = (lambda m: print(m, file=sys.stderr, flush=True)) if args.json else (lambda m: print(m, flush=True))
    tests = args.tests or ([] if args.script else ["tests"])
    opts = Options(root=root, tests=tests, scripts=args.script or [], out=Path(args.out), target=parse_target(args.target),
                   paths=paths, kernels_in=args.kernels_in or [], only_backend=args.backend,
                   include_perf=args.perf, keyword=args.keyword, timeout_s=args.timeout,
                   max_alloc_bytes=int(args.max_alloc_gb * GiB), max_macs=args.max_gmac * 1e9,
                   max_rss_bytes=(None if args.max_memory_gb is None else int(args.max_memory_gb * GiB)),
                   compare_pass=args.compare == "pass", max_signatures=args.max_signatures,
                   autotune_all=args.autotune in ("all", "each"), autotune_each=args.autotune == "each",
                   live=args.on_gpu, triton_run_s=max(0.0, args.triton_run),
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


def cmd_port(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..inputs import out_dir
    from ..toolchain.locate import find_cuda_tree
    from .hints import read_hints
    from .port import is_capture_archive, markdown_table, port_corpus

    corpus, captures = Path(args.corpus), [Path(c) for c in args.captures]
    if not corpus.is_dir():
        raise InputError(f"--corpus {args.corpus}: no such directory")
    for c in captures:
        if not c.is_dir() and not (c.is_file() and (c.suffix == ".json" or is_capture_archive(c))):
            raise InputError(f"{c}: no such directory (or capture .json file of `tileport capture`, or a capture "
                             "folder packed as .tar.xz)")
    if args.batch < 1:
        raise InputError("--batch must be at least 1")
    hints = read_hints(Path(args.hints)) if args.hints else None
    out_dir(Path(args.out), "--out")
    progress = (lambda s: print(s, file=sys.stderr, flush=True)) if args.json else \
        (lambda s: print(s, flush=True))
    result = port_corpus(captures if len(captures) > 1 else captures[0], corpus, Path(args.out), find_cuda_tree(),
                         args.arch, args.batch, args.only,
                         progress, tuple(args.exclude), hints)
    table = markdown_table(result)
    if args.table:
        Path(args.table).write_text(table)
    if args.results:
        rows = [{k: r[k] for k in ("file", "kernel", "status", "variants", "variants_proven", "rejected_by_cuda_tile",
                                   "refusal", "stage", "error")} for r in result["kernels"]]
        Path(args.results).write_text(json.dumps({"format": 1, "summary": result["summary"], "kernels": rows},
                                                 indent=1) + "\n")
    print(json.dumps(result, indent=1) if args.json else table)
    return 0 if all(r["status"] == "proven" for r in result["kernels"]) else 1
