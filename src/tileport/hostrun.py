"""Running a host program in this process as Python runs it: ``capture`` (launches recorded), ``corpus capture``
(a corpus's scripts), ``run`` (launches on the Rust ports) and the GPU scripts under benchmarks/corpus."""
from __future__ import annotations

import contextlib
import os
import runpy
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path


@contextlib.contextmanager
def as_main(f: Path, argv: Sequence[str] = ()) -> Iterator[None]:
    """While the block runs ``f`` as ``__main__`` (``runpy.run_path(str(f), run_name="__main__")``), its
    directory is first on sys.path and argv is ``[f, *argv]``, as when Python runs a script; both are put back
    after."""
    old_argv, old_path = sys.argv[:], sys.path[:]
    sys.argv[:] = [str(f), *argv]
    sys.path.insert(0, str(f.parent.resolve()))
    try:
        yield
    finally:
        sys.argv[:], sys.path[:] = old_argv, old_path


@contextlib.contextmanager
def as_module(f: Path, module: str, argv: Sequence[str] = ()) -> Iterator[None]:
    """While the block runs ``module`` (file ``f``) as ``__main__`` (``runpy.run_module(module, run_name="__main__",
    alter_sys=True)``), the folder above its top package is first on sys.path and argv is ``[f, *argv]``, as
    ``python -m MODULE ARGS`` run in that folder has them; both are put back after."""
    top = f.resolve().parent   # (the module's own package folder)
    name = module.removesuffix(".__main__")
    for _ in range(name.count(".") + (1 if f.stem == "__main__" else 0)):
        top = top.parent
    old_argv, old_path = sys.argv[:], sys.path[:]
    sys.argv[:] = [str(f), *argv]
    sys.path.insert(0, str(top))
    try:
        yield
    finally:
        sys.argv[:], sys.path[:] = old_argv, old_path


def run_main(cmd: Sequence[str]) -> None:
    """``[SCRIPT.py, ARGS...]`` or ``["-m", MODULE, ARGS...]`` run as ``__main__``, as ``python CMD`` would (a
    module with the current directory first on sys.path)."""
    if cmd[0] != "-m":
        with as_main(Path(cmd[0]), cmd[1:]):
            # by its absolute path, as Python (3.9+) runs a script: its __file__ and its code's file name are
            # absolute (a relative one left the script's own frames outside the capture's host code)
            runpy.run_path(str(Path(cmd[0]).resolve()), run_name="__main__")
        return
    old_argv, old_path = sys.argv[:], sys.path[:]
    sys.argv[:] = [cmd[1], *cmd[2:]]
    sys.path.insert(0, os.getcwd())
    try:
        runpy.run_module(cmd[1], run_name="__main__", alter_sys=True)
    finally:
        sys.argv[:], sys.path[:] = old_argv, old_path
