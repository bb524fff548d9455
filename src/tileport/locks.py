"""Exclusive file locks (``flock``) that say whom they wait for.

A process that finds the lock taken prints ``waiting for WHAT held by PID N`` on stderr before it blocks, so a
second ``tileport port`` into the same ``--out`` (or a second library build) waits visibly instead of silently, and
never writes into a directory another process is writing. The holder's PID is written into the lock file once the
lock is taken. The lock is released when the holder exits, however it exits (the kernel drops ``flock`` locks with
the file descriptor), so a stale lock file is harmless.

A lock is re-entrant within one thread of one process: ``port_triton`` holds its output directory's lock and calls
``port``, which takes the same lock.
"""
from __future__ import annotations

import fcntl
import os
import sys
import threading
import time
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Callable, Iterator

from .errors import TileportError

#: the lock file a port directory gets (``tileport port --out DIR``)
OUT_LOCK = ".tileport.lock"

_held: dict[tuple[int, str], int] = {}  # (thread, lock path) → how many times this thread holds it


class LockBusy(TileportError):
    """The lock is held by another process and the caller asked not to wait."""


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def holder_pid(fd: int, tries: int = 20) -> str:
    """The PID written in the lock file (the holder writes it right after taking the lock: retried briefly)."""
    for _ in range(tries):
        text = os.pread(fd, 32, 0).decode(errors="replace").strip()
        if text.isdigit():
            return text
        time.sleep(0.05)
    return "unknown"


@contextmanager
def hold(path: Path, what: str, wait: bool = True, say: Callable[[str], None] = _say) -> Iterator[None]:
    """Hold the exclusive lock ``path`` (created if missing) for the ``with`` body. ``what`` names it in the
    message (``waiting for {what} held by PID N``); ``wait=False`` raises ``LockBusy`` instead of waiting."""
    path.parent.mkdir(parents=True, exist_ok=True)
    key = (threading.get_ident(), str(path.resolve()))
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = holder_pid(fd)
            if not wait:
                raise LockBusy(f"{what} is held by PID {pid} ({path}); wait for it to finish") from None
            say(f"waiting for {what} held by PID {pid} ({path})")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _held[key] = 1
        try:
            yield
        finally:
            del _held[key]
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def out_dir_lock(out: Path) -> AbstractContextManager[None]:
    """The lock of a port directory: one ``tileport port`` writes into ``out`` at a time."""
    return hold(out / OUT_LOCK, f"the port directory {out}")
