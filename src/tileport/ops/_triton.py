"""What the ops serving Triton kernels share: the ported kernel, used through the example's own host function.

A ``triton_<name>`` op validates its inputs like every op, allocates the output, then calls the Triton example's
``launch(..., kernel=K)`` with K the drop-in port of its ``@triton.jit`` kernel for the chosen backend
(`tileport.runtime.triton_port`): ``cutile-rs`` runs the Rust port, ``cutile`` the lowered cuTile Python, and
``triton`` the Triton kernel itself. Importing an op module needs neither triton nor torch; a call does.
"""
from __future__ import annotations

import functools
import importlib
from typing import Any


class TritonOp:
    def __init__(self, module: str):
        self.module = module

    @functools.cached_property
    def example(self) -> Any:
        """tileport.kernels.triton.<module> (imports triton)."""
        return importlib.import_module(f"tileport.kernels.triton.{self.module}")

    @functools.cached_property
    def _ported(self) -> Any:
        from ..kernels.triton import KERNELS
        from ..runtime.triton_port import ported

        return ported(getattr(self.example, KERNELS[self.module]))

    def kernel(self, backend: str | None) -> Any:
        """The kernel object the example's host function launches: ``kernel[grid](...)`` on ``backend``."""
        return self._ported.with_backend(backend)
