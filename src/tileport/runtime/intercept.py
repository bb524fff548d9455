"""The launch backend: existing cuTile Python host code runs the proven Rust ports of its kernels, unchanged.

While it is installed, every ``ct.launch(stream, grid, kernel, args)`` runs the Rust port of ``kernel`` at that
specialization from a served library (``runtime.served``: built by ``tileport ops build --from PORTS --into LIB``)
on ``stream``. Three ways to turn it on::

    tileport.install("LIB")                        # from here on (tileport.uninstall() undoes it)
    with tileport.rust_launches("LIB"): ...        # inside the block only
    TILEPORT_BACKEND=cutile-rs TILEPORT_SERVED=LIB python -m pytest -p tileport.pytest_launch tests/...
    tileport run --library LIB -- python host.py   # a host program, unchanged

A kernel or specialization without a proven, fresh port raises ``BackendError`` naming the kernel, its launch
signature and the commands that port it. There is no silent fallback: with ``fallback=True``
(``TILEPORT_FALLBACK=1``) such a launch runs the cuTile Python kernel instead, is logged once per kernel and reason
(logger ``tileport.launch``) and counted (``stats()``). Host code that bound ``launch`` itself before the install
(``from cuda.tile import launch``) is not reached: call through the module (``ct.launch``), as cuTile code does.
"""
from __future__ import annotations

import contextlib
import logging
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ..errors import BackendError, InputError, TileportError

log = logging.getLogger("tileport.launch")
ENV_LIBRARY = "TILEPORT_SERVED"
ENV_FALLBACK = "TILEPORT_FALLBACK"


@dataclass
class Interceptor:
    library: Any                      # runtime.library.Library (a served one)
    fallback: bool
    original: Any                     # the ct.launch it replaced
    fallbacks: Counter = field(default_factory=Counter)   # (kernel name, reason) → launches run by cuTile Python
    _counts: dict = field(default_factory=dict)           # kernel → launches run by its Rust port
    _launch: Any = None                                   # runtime.library.launch
    _timing: Any = None                                   # a launch_timing.LaunchTiming, or None (off)
    #: the native dispatcher (``tileport_native.Dispatch``: a kernel's steady launches without a Python frame,
    #: everything else handed to this object), or this object
    launcher: Any = None
    #: what ``ct.launch`` is while installed: the dispatcher's ``launch`` method (called with vectorcall, no
    #: argument tuple), or this object
    entry: Any = None

    def __post_init__(self) -> None:
        from .library import launch

        self._launch = launch
        dispatch = getattr(self.library.native, "Dispatch", None)
        self.launcher = dispatch(self) if dispatch is not None else self
        self.entry = self.launcher.launch if dispatch is not None else self

    @property
    def timing(self) -> Any:
        return self._timing

    @timing.setter
    def timing(self, value: Any) -> None:
        """Timing wants every launch in Python: the native dispatcher hands them all over while it is on."""
        self._timing = value
        if self.launcher is not self:
            self.launcher.enable(value is None)

    def __call__(self, stream: Any, grid: Any, kernel: Any, kernel_args: Any, /, **options: Any) -> None:
        if options and options.get("programmatic_dependent_launch"):
            return self._fall_back(kernel, "programmatic_dependent_launch is not served by the Rust ports",
                                   stream, grid, kernel_args, options)
        if type(grid) is not tuple or len(grid) != 3:   # ct.launch takes 1 to 3 extents
            grid = tuple(int(x) for x in (grid if isinstance(grid, (tuple, list)) else (grid,)))
            grid = grid + (1,) * (3 - len(grid))
        if type(kernel_args) is not tuple:
            kernel_args = tuple(kernel_args)
        try:
            self._launch(grid, kernel, kernel_args, self.library, raw_stream(stream))
        except TileportError as exc:
            if not self.fallback:
                raise
            return self._fall_back(kernel, str(exc), stream, grid, kernel_args, options)
        self._counts[kernel] = self._counts.get(kernel, 0) + 1
        if self._timing is not None:
            self._time(grid, kernel, kernel_args)
        elif self.launcher is not self:
            self._remember(kernel)
        return None

    def _remember(self, kernel: Any) -> None:
        """Hand the dispatcher the plan this kernel's next launches of the same shape take."""
        from .library import context_device_fn, steady_plan

        steady = steady_plan(kernel, self.library)
        if steady is not None:
            self.launcher.remember(kernel, *steady, context_device_fn())

    def _time(self, grid: tuple, kernel: Any, args: tuple) -> None:
        if not self.timing.wants(kernel, args, grid):
            return
        launch, lib, original = self._launch, self.library, self.original
        self.timing.time(_name(kernel), grid, args, lambda s: original(s, grid, kernel, args),
                         lambda s: launch(grid, kernel, args, lib, s.cuda_stream))

    @property
    def rust(self) -> Counter:
        """Launches run by a Rust port, per kernel name (through Python and through the native dispatcher)."""
        out: Counter = Counter()
        fast = self.launcher.counts() if self.launcher is not self else []
        for kernel, n in [*self._counts.items(), *fast]:
            out[_name(kernel)] += n
        return out

    def _fall_back(self, kernel: Any, why: str, stream: Any, grid: Any, kernel_args: Any, options: dict) -> Any:
        name = _name(kernel)
        if not self.fallback:
            raise BackendError(f"cutile-rs: {name}: {why}")
        key = (name, why.splitlines()[0][:300])
        if key not in self.fallbacks:
            log.warning("tileport: %s runs as cuTile Python (fallback): %s", name, key[1])
        self.fallbacks[key] += 1
        return self.original(stream, grid, kernel, kernel_args, **options)


_active: Interceptor | None = None


def _name(kernel: Any) -> str:
    return getattr(getattr(kernel, "_pyfunc", None), "__name__", repr(kernel))


def raw_stream(stream: Any) -> int:
    """The CUDA stream handle of ``stream``: a torch.cuda.Stream, an object with ``__cuda_stream__`` (the CUDA
    stream protocol), a CuPy stream (its ``ptr``), or an int handle."""
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr"):   # torch's, CuPy's
        handle = getattr(stream, attr, None)
        if isinstance(handle, int):
            return handle
    proto = getattr(stream, "__cuda_stream__", None)
    if proto is not None:
        return int(proto()[1])
    raise BackendError(f"cutile-rs: ct.launch's stream {stream!r} is not a CUDA stream (a torch.cuda.Stream, a "
                       "CuPy stream, an object with __cuda_stream__, or a handle)")


def library_file(library: str | os.PathLike | None) -> Path:
    """The served library's .so: ``library`` (its folder or the file) or $TILEPORT_SERVED; refused unless it is one
    (the .so with its ports.json beside it)."""
    from .served import LIB_NAME, manifest_beside

    given = library if library is not None else os.environ.get(ENV_LIBRARY)
    if not given:
        raise InputError(f"no served library: pass one (a folder `tileport ops build --from PORTS --into LIB` wrote, "
                         f"or its {LIB_NAME}) or set {ENV_LIBRARY}")
    path = Path(given)
    path = path / LIB_NAME if path.is_dir() else path
    if not path.is_file() or manifest_beside(path) is None:
        raise InputError(f"{given}: not a served library (expected {LIB_NAME} and ports.json, as `tileport ops "
                         "build --from PORTS --into LIB` writes them)")
    return path


def install(library: str | os.PathLike | None = None, *, fallback: bool | None = None) -> Interceptor:
    """Make ``ct.launch`` run the Rust ports of ``library`` (default: $TILEPORT_SERVED); ``fallback`` (default:
    $TILEPORT_FALLBACK == "1") lets a launch without a proven port run as cuTile Python, logged and counted.
    Installing again replaces the library and policy."""
    global _active
    import cuda.tile as ct

    from .library import Library

    lib = Library(library_file(library))
    if fallback is None:
        fallback = os.environ.get(ENV_FALLBACK) == "1"
    original = _active.original if _active is not None else ct.launch
    _active = Interceptor(lib, fallback, original)
    ct.launch = _active.entry
    return _active


def uninstall() -> None:
    """Give ``ct.launch`` back (a no-op when not installed)."""
    global _active
    if _active is None:
        return
    import cuda.tile as ct

    ct.launch = _active.original
    _active = None


def active() -> Interceptor | None:
    return _active


@contextlib.contextmanager
def rust_launches(library: str | os.PathLike | None = None, *, fallback: bool | None = None) -> Iterator[Interceptor]:
    """``install`` for the block; the previous state (installed or not) comes back after it."""
    global _active
    before = _active
    interceptor = install(library, fallback=fallback)
    try:
        yield interceptor
    finally:
        uninstall()
        if before is not None:
            import cuda.tile as ct

            _active = before
            ct.launch = before.entry


def stats() -> dict:
    """Launches run by Rust ports and fallbacks since the install, per kernel (and reason)."""
    if _active is None:
        return {"installed": False, "rust": {}, "fallbacks": []}
    return {"installed": True, "library": str(_active.library.path), "fallback": _active.fallback,
            "rust": dict(_active.rust),
            "fallbacks": [{"kernel": k, "reason": r, "launches": n} for (k, r), n in _active.fallbacks.items()]}
