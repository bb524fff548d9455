"""Which implementation runs an op: the original cuTile Python kernel or its cuTile Rust port.

`tileport.set_backend(name)`, the `TILEPORT_BACKEND` environment variable, or `backend=` on a single call pick it;
the call's argument wins, then `set_backend`, then the environment, then the default (`cutile-rs`). There is no
silent fallback: a backend that cannot run raises `BackendError` saying why.
"""
from __future__ import annotations

import os
from typing import Any

from ..errors import BackendError

#: "triton" runs the original kernel of the ops that serve a Triton kernel (tileport.ops.triton_*); the others
#: refuse it
BACKENDS = ("cutile", "cutile-rs", "triton")
DEFAULT = "cutile-rs"
_chosen: str | None = None
#: internal: the "backend" of torch.compile's fake implementations — validate and allocate, launch nothing
TRACING = "<tracing>"
#: BackendError lives in tileport.errors (the runtime raises it too) and is re-exported here
__all__ = ["BACKENDS", "DEFAULT", "TRACING", "BackendError", "current_backend", "launch", "set_backend"]


def _check(name: str, origin: str) -> str:
    if name not in BACKENDS:
        raise BackendError(f"unknown backend {name!r} from {origin}: choose one of {', '.join(BACKENDS)}")
    return name


def set_backend(name: str | None) -> None:
    """Use ``name`` for every op call that does not pass ``backend=``; None goes back to env/default."""
    global _chosen
    _chosen = None if name is None else _check(name, "set_backend()")


def current_backend(override: str | None = None) -> str:
    if override is TRACING:
        return TRACING
    if override is not None:
        return _check(override, "backend=")
    if _chosen is not None:
        return _chosen
    env = os.environ.get("TILEPORT_BACKEND")
    if env:
        return _check(env, "TILEPORT_BACKEND")
    return DEFAULT


def launch(grid: tuple[int, int, int], kernel: Any, args: tuple, *, backend: str | None = None) -> None:
    """Launch ``kernel`` (a `@ct.kernel`) on the current CUDA stream with ``args`` exactly as `ct.launch` takes
    them; the backend decides whether the Python kernel or its Rust port runs. Host wrappers call only this."""
    name = current_backend(backend)
    if name is TRACING:
        return
    if name == "triton":
        raise BackendError(f"backend 'triton' runs Triton kernels, and {kernel._pyfunc.__name__} is a cuTile kernel "
                           "(only the tileport.ops.triton_* ops have one): choose cutile or cutile-rs")
    if name == "cutile":
        import cuda.tile as ct
        import torch

        ct.launch(torch.cuda.current_stream(), grid, kernel, args)
        return
    global _rust_launch
    if _rust_launch is None:
        from ..runtime import library

        _rust_launch = library.launch
    _rust_launch(grid, kernel, args)


_rust_launch = None
