"""pytest plugin of the launch backend: ``python -m pytest -p tileport.pytest_launch ...`` runs every ``ct.launch``
of the session on the Rust ports of a served library when ``TILEPORT_BACKEND=cutile-rs`` (the library:
``TILEPORT_SERVED``; ``TILEPORT_FALLBACK=1`` lets unported launches run as cuTile Python, counted;
``TILEPORT_LAUNCH_TIMING=FILE`` times the first launches of each kernel both ways, see runtime.launch_timing).
Without ``TILEPORT_BACKEND=cutile-rs`` it changes nothing, so one command line runs a test suite both ways. The summary
says how many launches each kernel ran through Rust and lists every fallback; ``TILEPORT_LAUNCH_STATS=FILE``
writes the same as JSON."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .runtime import intercept


def _on() -> bool:
    return os.environ.get("TILEPORT_BACKEND") == "cutile-rs"


def pytest_configure(config: Any) -> None:  # noqa: ARG001
    if _on():
        active = intercept.install()
        if os.environ.get("TILEPORT_LAUNCH_TIMING"):   # kernel time, Rust vs cuTile Python, per launch
            from .runtime.launch_timing import LaunchTiming

            # TILEPORT_LAUNCH_TIMING_PER_KERNEL: how many distinct launches of each kernel (default 3; a benchmark
            # run times every shape it launches), TILEPORT_LAUNCH_TIMING_ROUNDS: interleaved rounds (default 5)
            active.timing = LaunchTiming(per_kernel=env_count("TILEPORT_LAUNCH_TIMING_PER_KERNEL", 3),
                                         rounds=env_count("TILEPORT_LAUNCH_TIMING_ROUNDS", 5))


def env_count(name: str, default: int) -> int:
    """A positive integer from the environment variable ``name`` (``default`` when unset); anything else stops the
    session with one line saying so (pytest.UsageError), not a traceback."""
    import pytest

    text = os.environ.get(name)
    if text is None:
        return default
    if not text.strip().isdigit() or int(text) < 1:
        raise pytest.UsageError(f"{name}={text!r}: a positive whole number expected")
    return int(text)


def pytest_unconfigure(config: Any) -> None:  # noqa: ARG001
    if _on():
        stats = intercept.stats()
        out = os.environ.get("TILEPORT_LAUNCH_STATS")
        if out:
            Path(out).write_text(json.dumps(stats, indent=1) + "\n")
        timing = getattr(intercept.active(), "timing", None)
        if timing is not None:
            Path(os.environ["TILEPORT_LAUNCH_TIMING"]).write_text(json.dumps(timing.records, indent=1) + "\n")
        intercept.uninstall()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _on():
        return
    stats = intercept.stats()
    tr = terminalreporter
    tr.section("tileport launch backend (cutile-rs)")
    tr.write_line(f"library: {stats.get('library')}; fallback {'on' if stats.get('fallback') else 'off'}")
    for name, n in sorted(stats["rust"].items()):
        tr.write_line(f"  {name}: {n} launch(es) through its Rust port")
    for f in stats["fallbacks"]:
        tr.write_line(f"  FALLBACK {f['kernel']}: {f['launches']} launch(es) as cuTile Python: {f['reason']}")
    if not stats["rust"] and not stats["fallbacks"]:
        tr.write_line("  no ct.launch reached the backend")
