"""``tileport corpus capture``: run a corpus's own tests (and host scripts) on a CPU machine and record its cuTile
and Triton kernel launches.

The tests are run with pytest in this process, one test file at a time, under
``cudaemu.emulate`` (torch's CUDA device answered as the target GPU, tensors on the CPU), with ``ct.launch``
recording instead of launching (``frontends.cutile_py.capture.Recorder``; a Triton ``kernel[grid](...)`` too, through
``frontends.triton.capture.install``) and autotuners taking their first config (``autotune``); Triton's driver and
benchmark helpers are answered by ``tritonemu``. Host programs (``Options.scripts``) run as ``__main__``, each as one
'test'. No cuTile kernel runs, so a test's numeric checks fail; what counts is what was launched before. A Triton
launch whose inputs no kernel not run here wrote also runs in Triton's interpreter (``tritonrun``), so host code
reading its output back sizes its next launches as on the GPU; the host's reads of what no kernel wrote are listed
(``kernel_output_reads``). The
package layout of the module docstring of ``tileport.corpus`` says what is written.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import json
import os
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import InputError
from ..hostrun import as_main, as_module
from ..paths import bounded_name
from .autotune import AutotuneLog, first_config_autotune, recorded_searches
from . import cupyemu
from .cudaemu import GiB, Target, emulate
from .scan import FoundKernel, scan
from .tritonemu import assumptions as triton_assumptions
from .tritonemu import emulate_triton
from .tritonrun import ASSUMPTION as TRITON_RUN_ASSUMPTION
from .tritonrun import TritonRunner

#: launch-entry keys this module adds to the capture format (readers ignore keys they do not know)
FORMAT_NOTE = ("launch entries add: 'corpus_file' (relative to the corpus root), 'tests' (up to 3 test ids that "
               "launched it), 'autotune' (set when the first launch came from an autotuner's search)")


class TestTimeout(Exception):  # noqa: N818 — reported by name in the failures
    """A test ran past the per-test time limit (the launches it made are kept)."""

    __test__ = False  # not a pytest test class


@dataclass
class Options:
    root: Path
    tests: list[str]                     # test files or directories, relative to root
    out: Path
    target: Target
    paths: list[str] = field(default_factory=list)   # added to sys.path (relative to root)
    kernels_in: list[str] = field(default_factory=list)   # where to scan for kernels (default: all of root)
    only_backend: str = "cutile"         # tests parametrized over a backend run only for this one
    backend_params: tuple[str, ...] = ("backend", "framework")
    include_perf: bool = False           # test_perf* (benchmarks) too
    keyword: str | None = None           # pytest -k
    timeout_s: float = 120.0             # per test; 0: none
    max_alloc_bytes: int = 4 * GiB
    max_rss_bytes: int | None = None     # the process's resident memory budget (None: cudaemu's default)
    max_macs: float = 2e9                # heavier matrix products / attention are not computed (cudaemu)
    compare_pass: bool = True            # numeric comparisons answer "close" (cudaemu)
    max_signatures: int = 12             # per kernel, in the written captures
    autotune_all: bool = False           # an autotuner's search launches every config (not only the first)
    autotune_each: bool = False          # ... and files that searched run again with each config as the winner
    max_grids: int = 3                   # launches kept per signature (distinct grids, for the grid formula)
    log_dir: Path | None = None          # pytest's own output per test file
    scripts: list[str] = field(default_factory=list)   # host programs run as __main__ (files or directories)
    live: bool = False                   # on a GPU: launches run for real after being recorded (no emulation)
    triton_run_s: float = 2.0            # emulated: Triton launches also run in Triton's interpreter, up to S s each
    triton_run_total_s: float = 60.0     # ... and this long in all (0 either: none run; tritonrun.py)
    say: Callable[[str], None] = print


#: what the capture assumes of cuda.tile.tune.exhaustive_search (False: --autotune first, True: --autotune all)
AUTOTUNE_ASSUMPTION = {False: "cuda.tile.tune.exhaustive_search launches its first config and times nothing",
                       True: "cuda.tile.tune.exhaustive_search launches every config (the GPU's winner is among "
                             "them), times nothing and returns the first"}

EACH_ASSUMPTION = ("; then the files whose tests searched run again, once per other config, the search returning it "
                   "(--autotune each)")

# ---------------------------------------------------------------- recording

@dataclass
class _Launch:
    entry: dict           # the Recorder's entry of the first launch with this grid
    tests: list[str]
    autotune: str | None


@dataclass
class _KernelLaunches:
    source: str
    name: str
    qualname: str
    line: int
    #: signature text → grid tuple → launch; insertion order is first-seen order
    sigs: dict[str, dict[tuple, _Launch]] = field(default_factory=dict)
    count: int = 0


@dataclass
class _FileResult:
    file: str
    collected: int = 0
    deselected: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)   # short reason → count
    skips: Counter = field(default_factory=Counter)      # skip reason → count
    launches: int = 0
    rejected: int = 0      # launches the launch itself refused (raised in the test, as on a GPU)
    unrecorded: int = 0    # launches whose arguments the capture cannot describe
    kernels: set = field(default_factory=set)
    seconds: float = 0.0
    exit_code: int | None = None
    error: str | None = None


def _short(msg: str, width: int = 160) -> str:
    line = next((l.strip() for l in str(msg).splitlines() if l.strip()), "")
    return line if len(line) <= width else line[: width - 3] + "..."


def _sig_key(entry: dict) -> str:
    """What tells a kernel's launches apart beside the grid: the signature, and the hints it compiles with."""
    from ..frontends.cutile_py.hints import hints_text

    return entry["signature"] + (f"  @ {hints_text(entry['hints'])}" if entry.get("hints") else "")


class Session:
    """The state of one capture: what was launched, by which test, and what the host code hit."""

    def __init__(self, opts: Options):
        from ..frontends.cutile_py.capture import Recorder

        self.opts = opts
        self._recorder_cls = Recorder
        self.kernels: dict[tuple[str, str], _KernelLaunches] = {}
        self.record_errors: Counter = Counter()       # recorder errors (unrecordable arguments) → count
        self.rejections: Counter = Counter()          # launches the launch itself refused → count
        self.refused: dict[tuple[str, str], str] = {}   # (source, kernel) → the first refusal of a launch of it
        self.current: str | None = None
        self.current_file: _FileResult | None = None
        self.autotune = AutotuneLog(current_test=lambda: self.current)
        self.real_launch: Callable[..., Any] | None = None   # set by _patched_launch for a live capture
        self.emu: Any = None   # the emulation (cudaemu.Emulation) while the host code runs under it
        self.triton_runner: Any = None   # tritonrun.TritonRunner while emulating (None: Triton launches run nothing)

    # the ct.launch stand-in ------------------------------------------------
    def launch(self, stream: Any, grid: Any, kernel: Any, kernel_args: Any, /, **kw: Any) -> None:
        rec = self._recorder_cls()
        self.kernel_args(tuple(kernel_args))
        try:
            rec.record(grid, kernel, tuple(kernel_args))   # raises where ct.launch would (LaunchRejected)
        finally:
            self.collect(rec)
        if not self.autotune.active:   # the launch after a search: also at each other config (autotune.py)
            for args, g, cfg, k in self.autotune.alternatives(kernel, grid, tuple(kernel_args)):
                alt = self._recorder_cls()
                try:
                    alt.record(g, k, args)
                except Exception:  # noqa: BLE001 (a config the launch itself refuses is not recorded)
                    alt = self._recorder_cls()
                self.collect(alt, f"the launch after a search, were {cfg} its winner")
        if self.real_launch is not None:   # a live capture: the launch runs as it would have
            self.real_launch(stream, grid, kernel, kernel_args, **kw)

    def kernel_args(self, values: Any) -> None:
        """A launch (cuTile or Triton) was given ``values``: the emulation notes what the kernel may write, to tell of
        the host code's reads of it (not run here)."""
        if self.emu is not None and hasattr(self.emu, "kernel_args"):
            self.emu.kernel_args(values)

    def triton_launched(self, jit: Any, grid: Any, args: tuple, kwargs: dict) -> None:
        """A Triton launch was recorded: run in Triton's interpreter where it may (``tritonrun``), so that what the
        host code reads back of it is the kernel's; else its tensors count as written by a kernel not run."""
        if self.triton_runner is None or not self.triton_runner(jit, grid, args, kwargs):
            self.kernel_args((*args, *kwargs.values()))

    def record_config(self, kernel: Any, grid: Any, kernel_args: tuple, config: str) -> None:
        """A launch a live autotuner's search makes at one of its configs (``autotune.recorded_searches``): recorded,
        not run here (the search runs it), as one the host code makes when that config wins."""
        rec = self._recorder_cls()
        try:
            rec.record(grid, kernel, kernel_args)
        except Exception:  # noqa: BLE001 (a config the launch itself refuses is not recorded: the search drops it too)
            return
        self.collect(rec, f"a config its autotuner tried on the GPU ({config}): any may win a run")

    def collect(self, rec: Any, alternative: str | None = None) -> None:
        """Take the launch ``rec`` recorded (a ct.launch, or a Triton ``kernel[grid](...)``); ``alternative``: it is
        one the host code makes under another search winner (autotune.py), not one it made."""
        test = self.current or "<import/collection>"
        for e in rec.errors:
            self.record_errors[e] += 1
        for e, (src, name) in zip(rec.rejected, rec.rejected_kernels):
            self.rejections[e] += 1
            self.refused.setdefault((os.path.realpath(src), name), e)
        if self.current_file is not None and alternative is None:
            self.current_file.launches += 1
            self.current_file.rejected += len(rec.rejected)
            self.current_file.unrecorded += len(rec.errors)
        for entry in rec.launches.values():
            src = os.path.realpath(entry["source"])
            key = (src, entry["kernel"].rpartition("::")[2])
            k = self.kernels.get(key)
            if k is None:
                k = self.kernels[key] = _KernelLaunches(src, key[1], entry["qualname"], entry["line"])
            k.count += alternative is None
            if self.current_file is not None:
                self.current_file.kernels.add(key)
            # one signature launched at other hints (`kernel.replace_hints(occupancy=..)`: an autotuner's pick) is a
            # launch of its own (was: counted as the first, its hints lost)
            by_grid = k.sigs.setdefault(_sig_key(entry), {})
            grid = tuple(entry["grid"])
            hit = by_grid.get(grid)
            if hit is not None:
                hit.entry["count"] += 1
                if test not in hit.tests and len(hit.tests) < 3:
                    hit.tests.append(test)
                continue
            if len(by_grid) >= self.opts.max_grids:
                next(iter(by_grid.values())).entry["count"] += 1  # counted with the signature's first launch
                continue
            auto = alternative
            if self.autotune.active:
                s = self.autotune.searches[-1]
                auto = f"first of {s['configs']} configs taken, nothing timed: {s['taken']}"
            by_grid[grid] = _Launch(entry, [test], auto)


# ---------------------------------------------------------------- pytest plugin

def _plugin(session: Session, result: _FileResult) -> Any:
    """The pytest plugin of one test file's run: deselection, per-test attribution, time limit, outcomes."""
    import pytest

    class Plugin:
        def pytest_collection_modifyitems(self, session: Any, config: Any, items: list) -> None:  # noqa: ARG002
            keep, dropped = [], []
            offered = _backend_values(items, s.opts)
            for item in items:
                why = _deselect_reason(item, s.opts, offered)
                if why is None:
                    keep.append(item)
                else:
                    dropped.append(item)
                    result.deselected[why] += 1
            if dropped:
                config.hook.pytest_deselected(items=dropped)
                items[:] = keep
            result.collected = len(items)

        @pytest.hookimpl(hookwrapper=True, tryfirst=True)
        def pytest_runtest_protocol(self, item: Any, nextitem: Any):  # noqa: ANN201, ARG002
            # (a file outside the corpus root has no path in its node id: its own path is put in front)
            s.current = item.nodeid if not item.nodeid.startswith("::") else f"{s.current_file.file}{item.nodeid}"
            try:
                yield
            finally:
                s.current = None

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item: Any):  # noqa: ANN201, ARG002
            with _time_limit(s.opts.timeout_s):
                yield

        def pytest_collectreport(self, report: Any) -> None:
            if report.skipped:  # a module-level skip: the whole file
                lr = report.longrepr
                why = lr[2] if isinstance(lr, tuple) and len(lr) == 3 else str(lr)
                result.outcomes["skipped (whole file)"] += 1
                result.skips[_short(str(why).removeprefix("Skipped: "))] += 1
            elif report.failed:
                result.outcomes["collection error"] += 1
                result.failures["collecting: " + _short(str(report.longrepr).strip().splitlines()[-1])] += 1

        def pytest_runtest_logreport(self, report: Any) -> None:
            if report.when == "call" or (report.when == "setup" and not report.passed):
                outcome = report.outcome if report.when == "call" else ("skipped" if report.skipped else "error")
                result.outcomes[outcome] += 1
                if report.failed:
                    crash = getattr(report.longrepr, "reprcrash", None)
                    msg = crash.message if crash is not None else str(report.longrepr)
                    # (a CUDA call not answered: the host line that made it, not torch's)
                    result.failures[_short(_unanswered(_report_frames(report.longrepr), s.opts.root), 300)
                                    if _needs_driver(msg) else _classify(msg)] += 1
                elif report.skipped:
                    lr = report.longrepr
                    why = lr[2] if isinstance(lr, tuple) and len(lr) == 3 else str(lr)
                    result.skips[_short(str(why).removeprefix("Skipped: "))] += 1

    s = session
    return Plugin()


@contextlib.contextmanager
def _time_limit(limit: float):
    """Raise TestTimeout in the block after ``limit`` seconds (0: no limit; only on the main thread)."""
    armed, old = False, None
    if limit > 0 and hasattr(signal, "setitimer") and _main_thread():
        def on_alarm(signum: int, frame: Any) -> None:  # noqa: ARG001
            raise TestTimeout(f"ran past {limit:g} s (--timeout); its launches until then are kept")
        old = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, limit)
        armed = True
    try:
        yield
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)


#: kernel backends a test may be parametrized over besides --backend's: a parametrization offering one of these or
#: one of --backend's chooses among kernel backends (its reference, `torch` / `pytorch`, then deselected with the
#: others); torch alone beside host libraries (`("cupy", "torch")`: what a test allocates with) chooses none
KERNEL_BACKENDS = ("cutile", "triton")


def _test_function(item: Any) -> tuple:
    return (str(getattr(item, "fspath", "")), getattr(getattr(item, "cls", None), "__qualname__", None),
            getattr(item, "originalname", item.name))


def _backend_values(items: list, opts: Options) -> dict[tuple, set]:
    """(test function, backend parameter) → the values its parametrization gives that parameter."""
    out: dict[tuple, set] = {}
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {}) or {}
        for p in opts.backend_params:
            if isinstance(params.get(p), str):
                out.setdefault((*_test_function(item), p), set()).add(params[p])
    return out


def _deselect_reason(item: Any, opts: Options, offered: dict[tuple, set] | None = None) -> str | None:
    params = getattr(getattr(item, "callspec", None), "params", {}) or {}
    chosen = opts.only_backend.split(",")   # ("cutile,triton": either)
    for p in opts.backend_params:
        v = params.get(p)
        values = (offered or {}).get((*_test_function(item), p), {v})
        if isinstance(v, str) and v not in chosen and values & {*chosen, *KERNEL_BACKENDS}:
            # (a parameter named so whose values name no kernel backend — `backend` in ("cupy_arr", "torch_arr")
            # or ("cupy", "torch"), the host library a test allocates with — chooses none: each of its tests runs)
            return f"{p}={v}"
    if not opts.include_perf and getattr(item, "originalname", item.name).startswith("test_perf"):
        return "test_perf (benchmark)"
    return None


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


#: what torch raises where a CUDA call reached the driver: a call the emulation does not answer
DRIVER_ERRORS = ("Found no NVIDIA driver", "CUDA driver version is insufficient", "cudaErrorInsufficientDriver",
                 "cudaErrorNoDevice", "no CUDA GPUs are available")


def _needs_driver(msg: str) -> bool:
    return any(w in msg for w in DRIVER_ERRORS)


def _unanswered(frames: list[tuple[str, int, str]], root: Path) -> str:
    """A failure from the CUDA driver, said as what it is: a call the emulation does not answer, at the innermost
    line of the project's own code that made it (``frames``: (file, line, source) innermost last)."""
    prefix = os.path.join(str(root), "")
    here = [f for f in frames if os.path.realpath(f[0]).startswith(prefix)]
    where = ""
    if here:
        file, line, text = here[-1]
        where = f": {Path(os.path.realpath(file)).relative_to(root).as_posix()}:{line}" + (f": {text.strip()}"
                                                                                           if text.strip() else "")
    return ("a CUDA call the emulation does not answer (it reached the driver, which a CPU machine has not)"
            + where)


def _report_frames(longrepr: Any) -> list[tuple[str, int, str]]:
    """(file, line, source) of each entry of a pytest failure's traceback, innermost last."""
    out = []
    for entry in getattr(getattr(longrepr, "reprtraceback", None), "reprentries", []) or []:
        loc = getattr(entry, "reprfileloc", None)
        if loc is None:
            continue
        text = next((l[1:].strip() for l in getattr(entry, "lines", []) if l.startswith(">")), "")
        out.append((str(loc.path), int(loc.lineno), text))
    return out


def _classify(msg: str) -> str:
    """A failure's reason, shortened so that the same cause on different shapes counts as one."""
    import re

    m = _short(msg)
    if any(w in msg for w in ("DID NOT MATCH", "Mismatched elements", "not close", "allclose: False",
                              "Output mismatch", "Not equal to tolerance", "Arrays are not almost equal",
                              # torch.autograd.gradcheck's checks of the values a backward computed
                              "Jacobian mismatch for output", "backward not multiplied by grad_output",
                              "Backward is not reentrant", "Gradients failed to compare equal")) or \
            re.search(r"^assert .* == .* ± ", m):   # (pytest.approx)
        return "numeric check failed (expected: the kernel was recorded, not run)"
    m = re.sub(r"0x[0-9a-f]+", "0x..", m)
    m = re.sub(r"\btensor\(.*", "tensor(...)", m)
    return m


# ---------------------------------------------------------------- running

def _files(root: Path, given: list[str], option: str, in_dir) -> list[Path]:
    """The files ``given`` (relative to ``root``) name: a file itself, a directory its ``in_dir(dir)``."""
    files: list[Path] = []
    for t in given:
        p = (root / t).resolve()
        if p.is_file():
            files.append(p)
        elif p.is_dir():
            files.extend(sorted(in_dir(p)))
        elif option == "--tests" and t == "tests" and (paths := pytest_config(root).get("testpaths")):
            # no tests/: where the project's pytest configuration says its tests are (`testpaths`)
            files.extend(_files(root, paths, "testpaths", in_dir))
        elif option == "--tests" and t == "tests" and (root / "test").is_dir():
            files.extend(sorted(in_dir((root / "test").resolve())))   # (a repository's `test/` folder)
        elif option == "--tests" and t == "tests":
            raise InputError(f"{root}: no tests/ folder (what --tests means when not given): give --tests PATH (a "
                             "test file or folder under DIR) or --script PATH (a host program run as __main__)")
        else:
            raise InputError(f"{option} {t}: no such file or directory under {root}")
    return files


#: what tileport reads of a project's pytest configuration (pytest_config)
_CONFIG_KEYS = ("testpaths", "python_files", "addopts")


def pytest_config(root: Path) -> dict[str, list[str]]:
    """The ``testpaths``, ``python_files`` and ``addopts`` of the project's pytest configuration, in the file pytest
    reads first (pytest.ini, .pytest.ini, pyproject.toml's [tool.pytest.ini_options], tox.ini, setup.cfg); those it
    does not set are absent. A file that does not parse is no configuration (pytest then says why, in its run)."""
    import configparser

    for name, section in (("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("pyproject.toml", None),
                          ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")):
        f = root / name
        if not f.is_file():
            continue
        try:
            if section is None:
                import tomllib

                table = tomllib.loads(f.read_text()).get("tool", {}).get("pytest", {})
                table = table.get("ini_options", table) if isinstance(table, dict) else {}
                if not table:
                    continue
                raw = {k: table[k] for k in _CONFIG_KEYS if k in table}
            else:
                cp = configparser.ConfigParser(interpolation=None)
                cp.read_string(f.read_text())
                if not cp.has_section(section):
                    if name in ("pytest.ini", ".pytest.ini"):
                        return {}
                    continue
                raw = {k: cp.get(section, k) for k in _CONFIG_KEYS if cp.has_option(section, k)}
        except Exception:  # noqa: BLE001 — (unreadable or malformed: pytest reports it when it runs)
            return {}
        return {k: (v.split() if isinstance(v, str) else [str(x) for x in v]) for k, v in raw.items()}
    return {}


def import_roots(root: Path) -> list[str]:
    """Where ``root``'s packages are imported from when it is installed, as its packaging says: setuptools'
    ``package_dir={"": "python"}`` / ``find_packages("python")`` (setup.py), ``[options] package_dir`` /
    ``[options.packages.find] where`` (setup.cfg), ``[tool.setuptools.package-dir]`` /
    ``[tool.setuptools.packages.find] where`` (pyproject.toml); then src/ when present, then ``root`` itself (as
    `python -m pytest` run in it finds a package at its top). Only folders that exist; nothing is run or imported."""
    import ast
    import configparser

    found: list[str] = []

    def add(d: Any) -> None:
        if isinstance(d, str) and d.strip() and (root / d.strip()).is_dir():
            found.append(str(Path(d.strip()).as_posix()))

    try:
        import tomllib

        tool = tomllib.loads((root / "pyproject.toml").read_text()).get("tool", {}).get("setuptools", {}) \
            if (root / "pyproject.toml").is_file() else {}
        if isinstance(tool, dict):
            add((tool.get("package-dir") or {}).get(""))
            where = ((tool.get("packages") if isinstance(tool.get("packages"), dict) else {}) or {}).get("find", {})
            for d in (where.get("where") or []) if isinstance(where, dict) else []:
                add(d)
    except Exception:  # noqa: BLE001 — a malformed file: no roots from it
        pass
    if (root / "setup.cfg").is_file():
        try:
            cp = configparser.ConfigParser(interpolation=None)
            cp.read_string((root / "setup.cfg").read_text())
            for line in cp.get("options", "package_dir", fallback="").splitlines():
                key, _, value = line.partition("=")
                if not key.strip():
                    add(value)
            for d in cp.get("options.packages.find", "where", fallback="").split():
                add(d)
        except Exception:  # noqa: BLE001
            pass
    if (root / "setup.py").is_file():
        try:
            tree = ast.parse((root / "setup.py").read_text())
        except (SyntaxError, ValueError, OSError):
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            for kw in node.keywords:
                if kw.arg == "package_dir" and isinstance(kw.value, ast.Dict):
                    for k, v in zip(kw.value.keys, kw.value.values):
                        if isinstance(k, ast.Constant) and k.value == "" and isinstance(v, ast.Constant):
                            add(v.value)
                if name in ("find_packages", "find_namespace_packages") and kw.arg == "where" and \
                        isinstance(kw.value, ast.Constant):
                    add(kw.value.value)
            if name in ("find_packages", "find_namespace_packages") and node.args and \
                    isinstance(node.args[0], ast.Constant):
                add(node.args[0].value)
    found = [d for d in found if d not in (".", "")]
    return list(dict.fromkeys([*found, *(["src"] if (root / "src").is_dir() else []), "."]))


def _test_files(opts: Options) -> list[Path]:
    return test_files(opts.root, opts.tests)


def test_files(root: Path, tests: list[str]) -> list[Path]:
    """The test files ``tests`` (``--tests``; ["tests"] when not given) name under ``root``: the project's
    `python_files` (pytest's default: test_*.py and *_test.py) in folders; with the project's `addopts =
    "--doctest-modules"` and no --tests given, its modules with examples too (``doctest_modules``)."""
    config = pytest_config(root)
    patterns = config.get("python_files") or ["test_*.py", "*_test.py"]
    doctests = tests == ["tests"] and "--doctest-modules" in config.get("addopts", [])
    try:
        files = _files(root, tests, "--tests",
                       lambda d: sorted({f for pat in patterns for f in d.rglob(pat) if f.suffix == ".py"}))
    except InputError:
        if not doctests or not (found := doctest_modules(root, config.get("testpaths") or ["."])):
            raise
        return found   # (no tests/ folder: the project's tests are its modules' examples)
    if doctests:
        files += [f for f in doctest_modules(root, config.get("testpaths") or ["."]) if f not in files]
    return files


test_files.__test__ = False   # (not a pytest test, though its name says so)


#: folders no doctest module is looked for in (what pytest's `norecursedirs` skips by default, and build outputs)
_NO_DOCTEST_DIRS = {"build", "dist", "node_modules", "venv", ".venv", "env", "site-packages", "__pycache__"}


def doctest_modules(root: Path, paths: list[str]) -> list[Path]:
    """The modules whose docstrings have examples (`>>>`) under ``paths`` (the project's `testpaths`, or its root):
    what `pytest` collects with the project's `addopts = "--doctest-modules"`, as tests of their own; a file named
    by the capture runs its doctests too (pytest collects a module's examples when it is given the file). Not
    conftest.py or setup.py (pytest skips them), nor folders pytest does not recurse into."""
    found: list[Path] = []
    for t in paths:
        p = (root / t).resolve()
        if p.is_file() and p.suffix == ".py":
            candidates = [p]
        elif p.is_dir():
            candidates = sorted(q for q in p.rglob("*.py")
                                if not any(part.startswith(".") or part in _NO_DOCTEST_DIRS or part.endswith(
                                    ".egg-info") for part in q.relative_to(p).parts[:-1]))
        else:
            continue
        for q in candidates:
            if q.name in ("conftest.py", "setup.py"):
                continue
            try:
                text = q.read_text(errors="replace")
            except OSError:
                continue
            if ">>>" in text:
                found.append(q)
    return list(dict.fromkeys(found))


def script_runs(root: Path, given: list[str], paths: list[str] | None = None) -> list[tuple[Path, list[str], str | None]]:
    """(file, argv, module) of each ``--script``: a file or folder under ``root``, or a file and its arguments
    (``--script "run.py --size 256"``, split as a shell would: a script whose argparse requires options), or a module
    run as ``python -m`` runs it (``--script "-m pkg.bench --size 256"``: found under the import roots ``paths``, then
    ``root``). ``module`` is the dotted name a file runs as: given by ``-m``, or a file of a package that imports
    relatively (``from .kernels import k``), which Python runs only as its module (as a plain script: "attempted
    relative import with no known parent package"); None: the file runs as a script."""
    import shlex

    runs: list[tuple[Path, list[str], str | None]] = []
    for t in given:
        path, argv = t, []
        try:
            parts = shlex.split(t)
        except ValueError:
            parts = [t]
        if parts and parts[0] == "-m":
            if len(parts) < 2:
                raise InputError('--script "-m": give the module to run, e.g. --script "-m pkg.bench --size 256"')
            runs.append((module_file(root, parts[1], paths or []), parts[2:], parts[1]))
            continue
        if not (root / t).exists() and len(parts) > 1 and (root / parts[0]).is_file():
            path, argv = parts[0], parts[1:]
        runs += [(f, argv, package_module(f)) for f in _files(root, [path], "--script",
                                                              lambda d: (q for q in d.glob("*.py")
                                                                         if not q.name.startswith("_")))]
    return runs


def module_file(root: Path, module: str, paths: list[str]) -> Path:
    """The file ``python -m MODULE`` runs, looked for under each import root (``paths``, relative to ``root``) and
    ``root`` itself: ``a/b.py``, or a package's ``a/b/__main__.py``."""
    if not all(part.isidentifier() for part in module.split(".")):
        raise InputError(f'--script "-m {module}": not a module name (dotted identifiers: pkg.bench)')
    rel = Path(*module.split("."))
    bases = list(dict.fromkeys([*(root / p for p in paths), root]))
    for base in bases:
        for cand in (base / rel.with_suffix(".py"), base / rel / "__main__.py"):
            if cand.is_file():
                return cand.resolve()
    raise InputError(f'--script "-m {module}": no module {module} under {root} (looked for {rel}.py and '
                     f"{rel}/__main__.py in: {', '.join(str(b.relative_to(root)) if b != root else '.' for b in bases)})")


def package_module(f: Path) -> str | None:
    """The module name a file of a package runs as when it imports relatively (``python -m pkg.sub.mod`` from the
    folder above the package; a package's ``__main__.py``: the package), else None. Read, not run."""
    import ast

    if not (f.parent / "__init__.py").is_file():
        return None
    try:
        tree = ast.parse(f.read_text(errors="replace"))
    except (SyntaxError, ValueError, OSError):
        return None
    if not any(isinstance(n, ast.ImportFrom) and n.level > 0 for n in ast.walk(tree)):
        return None
    parts = [] if f.stem == "__main__" else [f.stem]
    d = f.parent
    while (d / "__init__.py").is_file() and d.name.isidentifier():
        parts.insert(0, d.name)
        d = d.parent
    return ".".join(parts) if parts else None


@contextlib.contextmanager
def _patched_launch(session: Session):
    """ct.launch records into the session, and so does a Triton kernel's `kernel[grid](...)` (when triton is
    installed; an autotuned one launches its first config)."""
    import cuda.tile as ct

    from ..frontends.triton.capture import install as install_triton

    saved = {n: getattr(ct, n) for n in ("launch", "launch_extended") if hasattr(ct, n)}
    if session.opts.live:
        session.real_launch = saved["launch"]
    undo_triton = install_triton(session._recorder_cls(), after=session.collect, live=session.opts.live,
                                 recorded=session.triton_launched)
    try:
        for n in saved:
            setattr(ct, n, session.launch)
        yield
    finally:
        session.real_launch = None
        undo_triton()
        for n, fn in saved.items():
            setattr(ct, n, fn)


@contextlib.contextmanager
def _isolated_imports(root: Path, paths: list[str]):
    """sys.path with the corpus's import roots first; afterwards, sys.path restored and every module imported from
    under ``root`` forgotten (they bound the stand-ins above at import time)."""
    old_path = sys.path[:]
    old_bytecode = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # the corpus is read-only
    for p in reversed(paths):
        sys.path.insert(0, str((root / p).resolve()))
    try:
        yield
    finally:
        sys.path[:] = old_path
        sys.dont_write_bytecode = old_bytecode
        prefix = os.path.join(str(root), "")
        for name, mod in list(sys.modules.items()):
            f = getattr(mod, "__file__", None) or ""
            if f and os.path.realpath(f).startswith(prefix):
                del sys.modules[name]


def _run_file(session: Session, f: Path) -> _FileResult:
    import pytest

    opts = session.opts
    rel = _relative(opts, f)
    res = _FileResult(rel)
    session.current_file = res
    args = [str(f), "-p", "no:cacheprovider", "-q", "--no-header", "-rN", "--rootdir", str(opts.root),
            "-W", "ignore::DeprecationWarning"]
    if opts.keyword:
        args += ["-k", opts.keyword]
    if importlib.util.find_spec("xdist") is not None:
        # the project's `addopts = "-n auto"` (pytest-xdist) would run the tests in worker processes, outside the
        # emulation, and record no launch: xdist's own "no workers" keeps the rest of its options
        args += ["-n", "0"]
    buf = io.StringIO()
    err = io.StringIO()
    t0 = time.monotonic()
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
            # (a copy: pytest puts the project's addopts into the list it is given)
            res.exit_code = int(pytest.main(list(args), plugins=[_plugin(session, res)]))
        if res.exit_code == 4 and "unrecognized arguments" in err.getvalue() and not res.collected:
            # a usage error of the project's `addopts` (a plugin's option, `--cov`, whose plugin is not installed
            # here): once more without them, and said so
            why = _short(err.getvalue().split("unrecognized arguments:", 1)[1], 120)
            if session.emu is not None:
                session.emu.note(f"{rel}: pytest refused the project's addopts (unrecognized arguments: {why}; a "
                                 "plugin not installed here): run without them")
            err = io.StringIO()
            with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
                res.exit_code = int(pytest.main([*args, "-o", "addopts="], plugins=[_plugin(session, res)]))
        sys.stderr.write(err.getvalue())
    except Exception as exc:  # noqa: BLE001 — pytest itself failed: report it, go on with the next file
        res.error = f"{type(exc).__name__}: {_short(str(exc))}"
    res.seconds = time.monotonic() - t0
    session.current_file = None
    session.current = None
    if res.exit_code in (2, 3, 4) and res.error is None:  # interrupted, internal error, usage error
        # (a usage or configuration error is written to stderr: "ERROR: .. pyproject.toml: Invalid statement")
        tail = [l for l in (buf.getvalue() or err.getvalue()).splitlines() if l.strip()][-3:]
        res.error = f"pytest exit code {res.exit_code}: " + " | ".join(_short(l, 200) for l in tail)
    _keep_log(opts, rel, buf.getvalue() + err.getvalue())
    return res


def _relative(opts: Options, f: Path) -> str:
    """A file of the corpus by its path in it; one from elsewhere (a driver of ops no corpus test calls,
    --tests /abs/path) by its absolute path."""
    return f.relative_to(opts.root).as_posix() if f.is_relative_to(opts.root) else f.as_posix()


def _keep_log(opts: Options, rel: str, text: str) -> None:
    if opts.log_dir is not None:
        opts.log_dir.mkdir(parents=True, exist_ok=True)
        (opts.log_dir / (bounded_name(rel.replace("/", "."), keep="tail") + ".log")).write_text(text)


def _run_script(session: Session, f: Path, argv: list[str] = (), module: str | None = None) -> _FileResult:
    """Run a host program as ``__main__`` (its directory first on sys.path, its own argv: ``argv``) as one
    'test'; with ``module``, as ``python -m MODULE`` run in the folder above its top package does."""
    import runpy
    import shlex
    import traceback

    opts = session.opts
    rel = (f"-m {module}" if module else _relative(opts, f)) + ("".join(f" {shlex.quote(a)}" for a in argv))
    res = _FileResult(rel, collected=1)
    session.current_file, session.current = res, rel
    buf = io.StringIO()
    t0 = time.monotonic()
    try:
        with (as_module(f, module, list(argv)) if module else as_main(f, list(argv))), \
                contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf), _time_limit(opts.timeout_s):
            if module:
                runpy.run_module(module, run_name="__main__", alter_sys=True)
            else:
                runpy.run_path(str(f), run_name="__main__")
        res.outcomes["ran"] += 1
    except SystemExit as exc:
        res.outcomes["ran" if exc.code in (0, None) else "exited"] += 1
        if exc.code not in (0, None):   # why (argparse's "the following arguments are required: --size")
            last = next((l.strip() for l in reversed(buf.getvalue().splitlines()) if l.strip()), "")
            why = exc.code if isinstance(exc.code, str) else last
            res.failures[_short(f"exited with {exc.code if isinstance(exc.code, int) else 1}"
                                + (f": {why}" if why else "")
                                + (" (give its arguments: --script \"FILE ARGS\")" if "usage:" in buf.getvalue()
                                   else ""), 300)] += 1
    except Exception as exc:  # noqa: BLE001 — the script's own failure: reported with its line, launches kept
        res.outcomes["raised"] += 1
        frames = traceback.extract_tb(exc.__traceback__)
        here = [fr for fr in frames if os.path.realpath(fr.filename) == str(f)]
        where = f" (line {here[-1].lineno})" if here else ""
        msg = f"{type(exc).__name__}{where}: {exc}"
        res.failures[_short(_unanswered([(fr.filename, fr.lineno or 0, fr.line or "") for fr in frames], opts.root),
                            300) if _needs_driver(msg) else _classify(msg)] += 1
    res.seconds = time.monotonic() - t0
    session.current_file = session.current = None
    _keep_log(opts, rel, buf.getvalue())
    return res


def run(opts: Options) -> dict:
    """Capture, write ``opts.out``, return the index (also written as ``opts.out/index.json``)."""
    if opts.live and opts.autotune_each:
        raise InputError("--autotune each replays emulated searches with each winner; with --on-gpu the "
                         "autotuners time for real (capture --on-gpu on the GPU that serves, or emulate with each)")
    if opts.live and not gpu_here():   # (first: the same message whether torch is missing or sees no GPU)
        raise InputError("--on-gpu needs a CUDA GPU here (torch with CUDA, torch.cuda.is_available()); "
                         "without --on-gpu the capture emulates --target on the CPU")
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        raise InputError(f"tileport corpus capture needs torch (the corpus's host code does): {exc}") from None
    try:
        import pytest  # noqa: F401
    except ImportError as exc:
        raise InputError(f"tileport corpus capture runs the corpus's tests with pytest: {exc}") from None
    say = opts.say
    root = opts.root.resolve()
    if not root.is_dir():
        raise InputError(f"{opts.root}: no such directory")
    opts.root = root
    files, scripts = _test_files(opts), script_runs(opts.root, opts.scripts, opts.paths)
    if not files and not scripts:
        raise InputError(f"no test_*.py or *_test.py files under {', '.join(opts.tests)} in {root}" if opts.tests else
                         f"no .py scripts under {', '.join(opts.scripts)} in {root}")
    found = scan(root, opts.kernels_in or None)
    session = Session(opts)
    results: list[_FileResult] = []
    t0 = time.monotonic()
    with _isolated_imports(root, opts.paths), _host(opts, session) as (emu, bench_raised, assumed, also), \
            _patched_launch(session):
        session.emu = emu
        if not opts.live and opts.triton_run_s > 0 and opts.triton_run_total_s > 0:
            session.triton_runner = TritonRunner(emu, opts.triton_run_s, opts.triton_run_total_s)
            assumed = assumed + [TRITON_RUN_ASSUMPTION.format(per=opts.triton_run_s, total=opts.triton_run_total_s)]
        for line in assumed + also:
            say(f"assumption: {line}")
        if opts.only_backend:
            say(f"assumption: tests parametrized by {'/'.join(opts.backend_params)} run only for "
                f"{opts.only_backend!r}")
        say(f"{len(files)} test file(s) and {len(scripts)} script(s) under {root}; {len(found)} kernel(s) "
            "found by scanning")
        asked = {t.split()[1] for t in opts.scripts if t.split()[:1] == ["-m"] and len(t.split()) > 1}
        for f, _argv, module in scripts:
            if module and module not in asked and emu is not None:
                emu.note(f"{_relative(opts, f)}: a module of package {module.rpartition('.')[0] or module} that "
                         f"imports relatively, run as `python -m {module}` (as a plain script its relative imports "
                         "fail)")
        runs = [(_run_file, f) for f in files] + [(functools.partial(_run_script, argv=argv, module=module), f)
                                                  for f, argv, module in scripts]
        cwd = os.getcwd()
        for i, (runner, f) in enumerate(runs, 1):
            with _exit_raises(session):
                res = runner(session, f)
            os.chdir(cwd)   # (a test's os.chdir left undone: the next file runs where the capture started)
            results.append(res)
            say(_progress_line(i, len(runs), res))
    if opts.autotune_each:
        _winner_rounds(session, runs, results)
    notes = list(emu.notes) + [f"{op}: {n} result(s) not computed (over the multiply-add budget)"
                               for op, n in sorted(emu.uncomputed.items())]
    notes += [f"{op}: answered 'close' {n} time(s)" for op, n in sorted(emu.answered.items())]
    notes += [f"{point} raised {n} time(s)" for point, n in sorted(bench_raised.items())]
    if session.triton_runner is not None:
        notes += session.triton_runner.notes()
    index = _write(session, results, found, emu.refused, notes, opts, time.monotonic() - t0, assumed)
    reads, children = getattr(emu, "output_reads", {}), getattr(emu, "children", {})
    if reads:   # (written after: _write's index is the file's, these keys added to both)
        index["kernel_output_reads"] = [{"read": k, "count": c} for k, c in sorted(reads.items())]
    if children:
        index["child_processes"] = [{"started": k, "count": c} for k, c in sorted(children.items())]
    if reads or children:
        (opts.out / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    return index


def _winner_rounds(session: Session, runs: list[tuple], results: list[_FileResult]) -> None:
    """``--autotune each``: each file whose tests ran a search of several configs runs again (its modules imported
    afresh: tuning caches empty) once per other config position, the searches returning that config as the winner
    (positions past a search's last take its last). Only the launches are kept: the outcomes are the first run's."""
    opts, log = session.opts, session.autotune
    most: dict[str, int] = {}
    for s in log.searches:
        where = (s.get("test") or "").partition("::")[0]
        most[where] = max(most.get(where, 1), s["configs"])
    again = [(run, f, most[r.file]) for (run, f), r in zip(runs, results) if most.get(r.file, 1) > 1]
    for w in range(1, max((n for *_, n in again), default=1)):
        todo = [(run, f) for run, f, n in again if n > w]
        opts.say(f"autotune winner round {w}: {len(todo)} file(s) again, each search returning its config #{w + 1}")
        log.winner = w
        try:
            with _isolated_imports(opts.root, opts.paths), _host(opts, session), _patched_launch(session):
                for run, f in todo:
                    run(session, f)
        finally:
            log.winner = 0


@contextlib.contextmanager
def emulated_host(target: Target, roots: list[str]) -> Any:
    """What `tileport capture` runs a host program under on a machine without a GPU: torch.cuda answered as
    ``target`` (code under ``roots`` sees its tensors as CUDA tensors, cudaemu), Triton's driver and benchmarks too
    (tritonemu), cuda.tile.tune.exhaustive_search launching its first config, ``import cupy`` a numpy-backed
    stand-in (cupyemu) (``emulated_assumptions``)."""
    with emulate(target, roots), emulate_triton(target), first_config_autotune(AutotuneLog()), \
            cupyemu.stand_in(target):
        yield


def emulated_assumptions(target: Target, roots: list[str]) -> list[str]:
    """What ``emulated_host`` answers, one line each (the first says which GPU)."""
    from .cudaemu import Emulation

    return Emulation(target, (), 4 * GiB).assumptions() + triton_assumptions(target) + cupyemu.assumptions(True) + [
        AUTOTUNE_ASSUMPTION[False], "host code (sees its tensors as cuda:0): the files under " + ", ".join(roots)]


def project_roots(script: Path) -> list[str]:
    """The host code of a script: its folder, the project it is in (the nearest folder above it holding a
    pyproject.toml, setup.py, setup.cfg or .git) and the working directory."""
    here = script.resolve().parent
    roots = [here]
    for d in [here, *here.parents]:
        if any((d / m).exists() for m in ("pyproject.toml", "setup.py", "setup.cfg", ".git")):
            roots.append(d)
            break
    roots.append(Path.cwd())
    return list(dict.fromkeys(str(r) for r in roots))


def gpu_here() -> bool:
    """Whether torch is importable and sees a CUDA GPU (what a live capture runs on)."""
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@dataclass
class _Live:
    """What a live capture has instead of the emulation: nothing answered, refused or left uncomputed."""
    device: str
    notes: list = field(default_factory=list)
    uncomputed: Counter = field(default_factory=Counter)
    answered: Counter = field(default_factory=Counter)
    refused: list = field(default_factory=list)


@contextlib.contextmanager
def _exit_raises(session: Session):
    """``os._exit(n)`` called in this process (a test or script ending the process at once, skipping its teardown)
    raises SystemExit(n) instead: it ended the whole capture, nothing written. The test (or script) ends there, as
    on the GPU, and the capture goes on; noted with the host code's line. A forked child's still exits."""
    real, pid = os._exit, os.getpid()

    def host_exit(code: int = 0) -> None:
        if os.getpid() != pid:
            real(code)
        emu = session.emu
        where = emu.host_line() if hasattr(emu, "host_line") else "?"
        if hasattr(emu, "note"):
            emu.note(f"os._exit({code}) at {where}: raised SystemExit there instead (it would have ended the "
                     "capture; on the GPU it ends the process)")
        raise SystemExit(code)

    os._exit = host_exit
    try:
        yield
    finally:
        os._exit = real


@contextlib.contextmanager
def _host(opts: Options, session: Session):
    """Where the host code runs: emulated (torch.cuda answered as ``opts.target``, launches recorded and not run,
    autotuners taking their first or every config) or, with ``opts.live``, on this machine's GPU (launches recorded,
    then run; autotuners time for real, so the configs they launch afterwards are the GPU's winners). Yields (the
    emulation or its live stand-in, the benchmark points that raised, the assumptions the index records, more lines
    to print)."""
    if opts.live:   # (run() checked there is a GPU)
        import torch

        live = _Live(torch.cuda.get_device_name())
        with recorded_searches(session.record_config):
            yield live, Counter(), [f"live on {live.device}: every launch is recorded, then runs; autotuners and "
                                    "benchmarks time for real, and every config a search tries is recorded (its "
                                    "winner varies from run to run)"], []
        return
    with emulate(opts.target, [str(opts.root)], opts.max_alloc_bytes, opts.max_macs, opts.compare_pass,
                 opts.max_rss_bytes) as emu, \
            emulate_triton(opts.target) as bench_raised, \
            first_config_autotune(session.autotune, every=opts.autotune_all), \
            cupyemu.stand_in(opts.target, opts.compare_pass):
        yield emu, bench_raised, emu.assumptions() + triton_assumptions(opts.target) + \
            cupyemu.assumptions(opts.compare_pass), [
            "ct.launch records each launch (kernel, grid, argument facts) and runs nothing",
            AUTOTUNE_ASSUMPTION[opts.autotune_all] + (EACH_ASSUMPTION if opts.autotune_each else "")]


def _progress_line(i: int, n: int, r: _FileResult) -> str:
    outs = ", ".join(f"{v} {k}" for k, v in sorted(r.outcomes.items()))
    desel = sum(r.deselected.values())
    parts = [f"[{i}/{n}] {r.file}: {r.collected} test(s)"]
    if desel:   # (why: "backend=triton", which --backend cutile,triton runs; "test_perf (benchmark)": --perf)
        parts.append(f"{desel} deselected ({', '.join(f'{why} {c}x' for why, c in sorted(r.deselected.items()))})")
    if outs:
        parts.append(outs)
    parts.append(f"{r.launches} launch(es) of {len(r.kernels)} kernel(s)")
    if r.rejected:
        parts.append(f"{r.rejected} refused by the launch (raised in the test, as on a GPU)")
    if r.unrecorded:
        parts.append(f"{r.unrecorded} not recorded")
    parts.append(f"{r.seconds:.1f} s")
    line = ", ".join(parts)
    if r.error:
        line += f"\n    error: {r.error}"
    for why, c in r.failures.most_common(3):
        line += f"\n    {c}x {why}"
    for why, c in r.skips.most_common(2):
        line += f"\n    {c}x skipped: {why}"
    return line


# ---------------------------------------------------------------- choosing and writing

def _features(entry: dict) -> list[tuple]:
    """What a signature stands for when choosing which to keep: each parameter's dtype, each constant's value,
    the hints it is launched at, then the whole dtype + constant combination (strides / divisibility facts left
    out)."""
    feats: list[tuple] = [("hints", tuple(sorted((entry.get("hints") or {}).items())))]
    combo = []
    for a in entry["args"]:
        if a["kind"] == "constant":
            v = ("const", a["name"], repr(a["value"]))
        else:
            v = (a["kind"], a["name"], a.get("dtype"), len(a.get("shape", [])))
        feats.append(v)
        combo.append(v)
    feats.append(("combo", tuple(combo)))
    return feats


def choose_signatures(sigs: dict[str, dict], cap: int) -> list[str]:
    """At most ``cap`` signature texts, greedily covering every distinct dtype and constant value first, then every
    dtype + constant combination, then the rest in first-seen order."""
    order = list(sigs)
    if len(order) <= cap:
        return order
    feats = {s: _features(next(iter(sigs[s].values())).entry) for s in order}
    chosen: list[str] = []
    covered: set = set()
    while len(chosen) < cap:
        best, gain = None, 0
        for s in order:
            if s in chosen:
                continue
            g = sum(1 for f in feats[s] if f not in covered)
            if g > gain:
                best, gain = s, g
        if best is None:
            break
        chosen.append(best)
        covered.update(feats[best])
    for s in order:  # all features covered: fill with the first-seen rest
        if len(chosen) >= cap:
            break
        if s not in chosen:
            chosen.append(s)
    return sorted(chosen, key=order.index)


def _scanned_name(name: str) -> str:
    """A launched kernel's name as the scan names it: NAME@LINE~DIGEST (a factory's kernel over some values) without
    its digest, NAME[B=None] (a Triton kernel's launches without B) without its specialization."""
    return name.split("~")[0].split("[")[0]


def _specialized(kernels: dict[tuple[str, str], _KernelLaunches]) -> dict[tuple[str, str], _KernelLaunches]:
    """The launched kernels, a Triton kernel whose launches disagree on their specialization (a pointer passed None
    in some, a dtype constexpr) split into one kernel per specialization, ``NAME[B=None]``
    (frontends.triton.capture.split_specializations)."""
    from ..frontends.triton.capture import specialized_name, varying_keys

    out: dict[tuple[str, str], _KernelLaunches] = {}
    for key, kl in kernels.items():
        spec_of = {text: next(iter(by_grid.values())).entry.get("specialize", {}) for text, by_grid in kl.sigs.items()}
        varying = varying_keys(list(spec_of.values()))
        if not varying:
            out[key] = kl
            continue
        groups: dict[str, dict] = {}
        for text, by_grid in kl.sigs.items():
            groups.setdefault(specialized_name(kl.name, spec_of[text], varying), {})[text] = by_grid
        for name, sigs in groups.items():
            launches = [launch for by_grid in sigs.values() for launch in by_grid.values()]
            for launch in launches:
                launch.entry["kernel"] = f"{launch.entry['kernel'].rpartition('::')[0]}::{name}"
            out[(key[0], name)] = _KernelLaunches(kl.source, name, kl.qualname, kl.line, sigs,
                                                  sum(launch.entry["count"] for launch in launches))
    return out


def capture_name(k: FoundKernel | _KernelLaunches, rel: str) -> str:
    """The capture file of a kernel: FILE.KERNEL.json dotted, bounded (a deep path or a long kernel name would pass
    the 255 bytes a file name may have: a digest and the name's end; index.json maps each kernel to its file)."""
    return bounded_name(rel.removesuffix(".py").replace("/", ".") + f".{k.name}", keep="tail") + ".json"


def _write(session: Session, results: list[_FileResult], found: list[FoundKernel], refused: list[str],
           notes: list[str], opts: Options, seconds: float, assumptions: list[str]) -> dict:
    from ..frontends.cutile_py.capture import write_capture

    root = opts.root
    out = opts.out
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):  # a re-run replaces the previous capture entirely
        old.unlink()
    prefix = os.path.join(str(root), "")
    by_key = {(str(root / k.file), k.name): k for k in found}
    rows: list[dict] = []
    auto_by_kernel: dict[str, list[dict]] = {}
    for s in session.autotune.searches:
        auto_by_kernel.setdefault(s["kernel"], []).append(s)
    for _key, kl in sorted(_specialized(session.kernels).items()):
        rel = kl.source[len(prefix):] if kl.source.startswith(prefix) else kl.source
        kept = choose_signatures(kl.sigs, opts.max_signatures)
        rec = session._recorder_cls()
        test_files: list[str] = []
        for text in kept:
            for grid, launch in kl.sigs[text].items():
                e = dict(launch.entry)
                e["corpus_file"] = rel
                e["tests"] = launch.tests
                if launch.autotune:
                    e["autotune"] = launch.autotune
                rec.launches[(kl.source, kl.qualname, grid, text)] = e
                for t in launch.tests:
                    tf = t.split("::")[0]
                    if tf not in test_files:
                        test_files.append(tf)
        name = capture_name(kl, rel)
        write_capture(rec, root, test_files, out / name)
        searches = auto_by_kernel.get(kl.name, [])
        if not searches:   # a Triton kernel's @triton.autotune: each launch says which config it took
            searches = [{"configs": e["autotune"]["configs"], "taken": e["autotune"]["taken"]}
                        for by_grid in kl.sigs.values() for launch in by_grid.values()
                        for e in (launch.entry,) if isinstance(e.get("autotune"), dict)][:1]
        rows.append({"file": rel, "kernel": kl.name, "qualname": kl.qualname, "line": kl.line,
                     "launches": kl.count, "distinct_signatures": len(kl.sigs), "kept_signatures": len(kept),
                     "capture": name, "tests": test_files,
                     "autotuned": [{"configs": s["configs"], "taken": s["taken"]}
                                   | ({"launched": s["launched"]} if s.get("launched", 1) > 1 else {})
                                   for s in searches[:1]]
                     + ([{"searches": len(searches)}] if len(searches) > 1 else []),
                     "in_scan": (str(root / rel), _scanned_name(kl.name)) in by_key})
    launched = {(r["file"], _scanned_name(r["kernel"])) for r in rows}
    not_launched = [{"file": k.file, "kernel": k.name, "qualname": k.qualname, "line": k.line}
                    | ({"refused": session.refused[(str(root / k.file), k.name)]}
                       if (str(root / k.file), k.name) in session.refused else {})
                    for k in found if (k.file, k.name) not in launched]
    index = {
        "format": 1,
        "what": "tileport corpus capture: the cuTile launches of a corpus's tests, one capture file per kernel "
                "(the format of `tileport capture`)",
        "corpus": root.name,
        "corpus_root": str(root),
        "target": {"name": opts.target.name, "arch": opts.target.arch, "sms": opts.target.sms,
                   "total_memory": opts.target.total_memory} if not opts.live else {"live": True},
        "assumptions": assumptions + ([] if opts.live else [
            "ct.launch records each launch and runs nothing; " + AUTOTUNE_ASSUMPTION[opts.autotune_all]]) + [
            f"per kernel at most {opts.max_signatures} distinct signatures are kept (every dtype and constant "
            f"value first), each with up to {opts.max_grids} distinct grids",
        ],
        "format_note": FORMAT_NOTE,
        "options": {"tests": opts.tests, "scripts": opts.scripts, "paths": opts.paths, "only_backend": opts.only_backend,
                    "include_perf": opts.include_perf, "keyword": opts.keyword, "timeout_s": opts.timeout_s,
                    "max_alloc_gib": opts.max_alloc_bytes / GiB, "max_gmac": opts.max_macs / 1e9,
                    "max_memory_gib": None if opts.max_rss_bytes is None else opts.max_rss_bytes / GiB,
                    "compare": "pass" if opts.compare_pass else "run", "live": opts.live},
        "seconds": round(seconds, 1),
        "summary": {"kernels_found": len(found), "kernels_launched": len(rows),
                    "kernels_not_launched": len(not_launched),
                    "distinct_signatures": sum(r["distinct_signatures"] for r in rows),
                    "kept_signatures": sum(r["kept_signatures"] for r in rows)},
        "kernels": rows,
        "not_launched": not_launched,
        "autotune_searches": len(session.autotune.searches),
        "notes": notes,
        "refused_allocations": sorted(set(refused)),
        "unrecorded_launches": [{"error": e, "count": c} for e, c in sorted(session.record_errors.items())],
        "rejected_launches": [{"error": e, "count": c} for e, c in sorted(session.rejections.items())],
        "test_files": [{"file": r.file, "tests": r.collected, "deselected": dict(r.deselected),
                        "outcomes": dict(r.outcomes), "failures": dict(r.failures.most_common()),
                        "skips": dict(r.skips.most_common()),
                        "launches": r.launches, "rejected": r.rejected, "unrecorded": r.unrecorded,
                        "kernels": len(r.kernels), "seconds": round(r.seconds, 1),
                        **({"error": r.error} if r.error else {})} for r in results],
    }
    (out / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    return index


def _places(index: dict, key: str, field: str, header: str, shown: int = 10) -> list[str]:
    """Summary lines of the index's list ``key`` of host-code places (``field`` and a count each): ``header`` with
    ``{n}`` the number of places, the first ``shown`` of them, and how many more index.json holds."""
    rows = index.get(key, [])
    if not rows:
        return []
    return [header.format(n=len(rows)), *(f"  {r[field]} ({r['count']}x)" for r in rows[:shown]),
            *([f"  ... {len(rows) - shown} more in index.json ({key})"] if len(rows) > shown else [])]


def summary_lines(index: dict) -> list[str]:
    """The table printed at the end: file, kernel, #distinct signatures; then what no test launched."""
    rows = index["kernels"]
    lines = []
    w_file = max([len("file")] + [len(r["file"]) for r in rows])
    w_k = max([len("kernel")] + [len(r["kernel"]) for r in rows])
    lines.append(f"{'file':<{w_file}}  {'kernel':<{w_k}}  {'sigs':>5}  {'kept':>4}  {'launches':>8}  autotuned")
    for r in rows:
        auto = ""
        if r["autotuned"]:
            a = r["autotuned"][0]
            auto = f"all {a['configs']} configs" if a.get("launched", 1) > 1 else f"first of {a['configs']} configs"
        lines.append(f"{r['file']:<{w_file}}  {r['kernel']:<{w_k}}  {r['distinct_signatures']:>5}  "
                     f"{r['kept_signatures']:>4}  {r['launches']:>8}  {auto}")
    s = index["summary"]
    lines.append(f"{s['kernels_launched']} kernel(s) launched ({s['distinct_signatures']} distinct signatures, "
                 f"{s['kept_signatures']} kept) of {s['kernels_found']} found by scanning")
    if index["not_launched"]:
        lines.append(f"not launched by any test ({len(index['not_launched'])}):")
        for k in index["not_launched"]:
            lines.append(f"  {k['file']}::{k['kernel']}"
                         + (f"  (launched only as the launch refuses: {k['refused']})" if k.get("refused") else ""))
        backends = sorted({why.partition("=")[2] for tf in index.get("test_files", [])
                           for why in tf.get("deselected", {}) if "=" in why})
        if backends:   # (a project's Triton backend: its kernels are launched by the tests deselected)
            only = index.get("options", {}).get("only_backend", "cutile")
            lines.append(f"  (tests of backend(s) {', '.join(backends)} were deselected: --backend "
                         f"{','.join([only, *backends])} runs them too)")
    auto = [r for r in rows if r["autotuned"]]
    if auto:
        every = any(r["autotuned"][0].get("launched", 1) > 1 for r in auto)
        lines.append(f"autotuned ({'every config launched, the first' if every else 'first config'} taken, nothing "
                     "timed): " + ", ".join(r["kernel"] for r in auto))
    for e in index["unrecorded_launches"]:
        lines.append(f"launch not recorded ({e['count']}x): {e['error']}")
    for e in index.get("rejected_launches", []):
        lines.append(f"launch refused by the launch itself, raised in the host code ({e['count']}x): {e['error']}")
    for a in index["refused_allocations"]:
        lines.append(f"allocation refused: {a}")
    lines += _places(index, "child_processes", "started", "child processes the host code started ({n} place(s)): "
                     "they run outside the capture's emulation, so kernels they launch are not recorded (run their "
                     "host code itself, --script, to capture it):")
    lines += _places(index, "kernel_output_reads", "read", "host code read values of tensors kernels were given ({n} "
                     "place(s)): no kernel ran here, so these are not the GPU's values, and launches they size or "
                     "decide (counts, grids, branches) may differ from a run on the GPU:")
    return lines
