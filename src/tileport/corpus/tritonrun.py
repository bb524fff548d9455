"""Triton launches run in Triton's own interpreter on the CPU during an emulated capture (``tileport corpus capture``).

No kernel runs under the emulation, so host code that reads a kernel's output back to size or decide its next
launches (a MoE router's per-expert counts read with ``.tolist()``, a ``.item()`` total) reads values that are not the
GPU's, and the launches sized by them are lost or differ. A Triton kernel can run on the CPU: Triton ships an
interpreter (``triton.runtime.interpreter.InterpretedFunction``, what ``TRITON_INTERPRET=1`` uses), and the emulated
tensors are on the CPU already. So after a Triton launch is recorded it is also run there, when:

- none of its tensor arguments holds what a kernel not run here wrote (a cuTile kernel's output, a Triton launch
  skipped): its inputs are then the values the GPU would have, and what it writes is too (garbage indices into a
  raw-pointer interpreter could also crash the process);
- its tensors' storages hold at most ``max_bytes`` and its grid has at most ``max_programs`` programs (benchmark
  shapes would take the interpreter minutes), and it finishes within ``per_launch_s`` (checked at each program the
  interpreter starts; one on course to pass it is stopped after its first programs), the capture's interpreter time
  staying within ``total_s``. Both are this thread's CPU time (``time.thread_time``), not the wall clock's: on a
  machine other work loads, a launch ran or was stopped by that load, and a script's later launches came or not.

A launch that is not run, or stops (an op the interpreter lacks, the time limit), leaves its tensors as they are and
they count as kernel-written (``Emulation.kernel_args``); why is counted per kernel in ``notes``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any


def _cpu_time() -> float:
    """This thread's CPU time (seconds): what the interpreter's limits count."""
    return time.thread_time()


class _Deadline(Exception):  # noqa: N818 — raised inside the interpreter's program loop
    pass


class _Kept:
    """A language patch scope whose restore is left to ``TritonRunner`` (which undoes every scope, last first)."""

    def restore(self) -> None:
        return None


class _OutOfBounds(Exception):  # noqa: N818 — raised before the interpreter touches memory
    pass


class _Checked:
    """Triton's interpreter's raw-memory functions (``_interpreter.load/store/atomic_*``, which read and write at the
    addresses they are given: an index out of the tensors' memory would crash the process), each access checked
    first to lie within the launch's tensors' storages."""

    def __init__(self, real: Any, ranges: list[tuple[int, int]]):
        self._real = real
        self._ranges = ranges

    def _check(self, ptrs: Any, mask: Any, size: int) -> None:
        import numpy as np

        addrs = np.asarray(ptrs, dtype=np.uint64).reshape(-1)
        if mask is not None:
            addrs = addrs[np.broadcast_to(np.asarray(mask, dtype=bool), np.shape(ptrs)).reshape(-1)]
        if addrs.size == 0:
            return
        inside = np.zeros(addrs.shape, dtype=bool)
        for lo, hi in self._ranges:
            inside |= (addrs >= lo) & (addrs + size <= hi)
        if not inside.all():
            raise _OutOfBounds(f"an access at {int(addrs[~inside][0]):#x} outside its tensors' memory")

    def load(self, ptrs: Any, mask: Any, other: Any, dtype: Any) -> Any:
        import numpy as np

        self._check(ptrs, mask, np.dtype(dtype).itemsize)
        return self._real.load(ptrs, mask, other, dtype)

    def store(self, ptrs: Any, value: Any, mask: Any) -> Any:
        self._check(ptrs, mask, value.dtype.itemsize)
        return self._real.store(ptrs, value, mask)

    def atomic_cas(self, ptrs: Any, cmp: Any, val: Any, sem: Any) -> Any:
        self._check(ptrs, None, val.dtype.itemsize)
        return self._real.atomic_cas(ptrs, cmp, val, sem)

    def atomic_rmw(self, op: Any, ptrs: Any, val: Any, mask: Any, sem: Any) -> Any:
        self._check(ptrs, mask, val.dtype.itemsize)
        return self._real.atomic_rmw(op, ptrs, val, mask, sem)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def _storage_ranges(values: list) -> list[tuple[int, int]] | None:
    """(first byte, end) of each tensor argument's storage (tuples and tensor descriptors' bases too); None when an
    argument's memory cannot be told (a tensor subclass without storage)."""
    import torch

    out: list[tuple[int, int]] = []
    for v in values:
        if isinstance(v, (tuple, list)):
            inner = _storage_ranges(list(v))
            if inner is None:
                return None
            out += inner
            continue
        base = getattr(v, "base", None) if not isinstance(v, torch.Tensor) else None
        t = v if isinstance(v, torch.Tensor) else base if isinstance(base, torch.Tensor) else None
        if t is None:
            if hasattr(v, "data_ptr"):
                return None
            continue
        try:
            st = t.untyped_storage()
            out.append((st.data_ptr(), st.data_ptr() + st.nbytes()))
        except Exception:  # noqa: BLE001
            return None
    return out


@dataclass
class TritonRunner:
    emu: Any                       # cudaemu.Emulation
    per_launch_s: float = 5.0
    total_s: float = 120.0
    max_bytes: int = 16 << 20      # a launch whose tensors' storages hold more is not run
    max_programs: int = 4096       # ... nor one of more programs
    spent: float = 0.0
    ran: int = 0
    #: "FILE::KERNEL: why not run" → count
    skipped: dict[str, int] = field(default_factory=dict)
    _interpreted: dict[int, Any] = field(default_factory=dict)

    def __call__(self, jit: Any, grid: Any, args: tuple, kwargs: dict) -> bool:
        """Run the launch in Triton's interpreter; True when it ran to its end (its outputs are the kernel's)."""
        import torch

        values = [*args, *kwargs.values()]
        name = _kernel_name(jit)
        if self.spent >= self.total_s:
            return self._skip(name, f"the capture's {self.total_s:g} s of interpreter time were spent")
        tensors = [v for v in values if isinstance(v, torch.Tensor)]
        if any(self.emu._tainted(t) for t in tensors):
            return self._skip(name, "an argument holds what a kernel not run here wrote")
        try:
            from triton.runtime import interpreter as ti
        except ImportError:
            return self._skip(name, "Triton's interpreter is not importable")
        ranges = _storage_ranges(values)
        if ranges is None:
            return self._skip(name, "an argument's memory cannot be told")
        held = sum(hi - lo for lo, hi in set(ranges))
        if held > self.max_bytes:   # (benchmark shapes: the interpreter would take minutes)
            return self._skip(name, f"its tensors hold over {self.max_bytes >> 20} MiB")
        programs = _programs(grid, jit, args, kwargs)
        if programs is not None and programs > self.max_programs:
            return self._skip(name, f"a grid of over {self.max_programs} programs")
        fn = self._interpreted.get(id(jit))
        if fn is None:
            fn = self._interpreted[id(jit)] = ti.InterpretedFunction(jit.fn)
            fn.tileport_runner = True   # (the capture's own run: not a launch of the host's to record)
        # a parameter given by position and again among the launch's options (a warmup handle's `num_stages`
        # constexpr, Triton's launch option of that name too): the position's
        by_position = set(getattr(jit, "arg_names", [])[:len(args)])
        kwargs = {k: v for k, v in kwargs.items() if k not in by_position}
        builder = ti.interpreter_builder
        set_idx = builder.set_grid_idx
        start = _cpu_time()
        deadline = start + self.per_launch_s
        started = [0]

        second = [start]

        def checked(*a: Any) -> Any:
            # past the limit, or (from the 5th program on) on course to pass it: stopped early, not at the limit. The
            # course is told by the programs after the first, not from the launch's start: the interpreter's
            # one-time costs come before (its language patches, the arguments copied in: 0.07 s, then 2.5 ms a
            # program, for a 128-program launch told "would run past 2 s" that runs in 0.4 s)
            now = _cpu_time()
            started[0] += 1
            if started[0] == 2:
                second[0] = now
            course = programs is not None and started[0] > 4 and \
                second[0] + (now - second[0]) / (started[0] - 2) * (programs - 1) > deadline
            if now > deadline or course:
                raise _Deadline()
            return set_idx(*a)

        # a @triton.jit function the kernel calls (a helper, tl.sum / tl.argmax of triton.language.standard) is a
        # JITFunction, which refuses a call outside a compile ("Cannot call @triton.jit'd outside of the scope of a
        # kernel"; under TRITON_INTERPRET=1 it would be an InterpretedFunction): called as one while this runs. Each
        # language patch the interpreter makes for it is undone afterwards (its own calls leave them in place)
        from triton.runtime.jit import JITFunction

        jit_call, patch_lang = JITFunction.__call__, ti._patch_lang
        scopes: list = []

        def call_interpreted(f: Any, *a: Any, **kw: Any) -> Any:
            inner = self._interpreted.get(id(f))
            if inner is None:
                inner = self._interpreted[id(f)] = ti.InterpretedFunction(f.fn)
            return inner(*a, **kw)

        def patch_lang_kept(f: Any) -> Any:
            scopes.append(patch_lang(f))
            return _Kept()   # (the grid executor's own restore: all of them are undone below, last first)

        t0 = _cpu_time()
        builder.set_grid_idx = checked
        real = ti._interpreter
        ti._interpreter = _Checked(real, ranges)
        JITFunction.__call__ = call_interpreted
        ti._patch_lang = patch_lang_kept
        try:
            fn[grid](*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 — an op the interpreter lacks, the time limit: not run
            cause = exc.__cause__ if exc.__cause__ is not None else exc
            if type(cause).__name__ == "TestTimeout":   # the test's own limit (capture.TestTimeout): its to raise
                raise cause from None
            why = (f"would run past {self.per_launch_s:g} s" if isinstance(cause, _Deadline) else
                   _first_line(cause) if isinstance(cause, _OutOfBounds) else
                   f"{type(cause).__name__}: {_first_line(cause)}")
            # (its traceback holds this frame, which holds it: a cycle keeping the launch's tensors alive until the
            # garbage collector runs — host code counting CUDA memory after `del out` saw them still allocated)
            del cause
            return self._skip(name, f"Triton's interpreter stopped: {why}")
        finally:
            ti._interpreter = real
            builder.set_grid_idx = set_idx
            JITFunction.__call__ = jit_call
            ti._patch_lang = patch_lang
            for scope in reversed(scopes):
                scope.restore()
            self.spent += _cpu_time() - t0
        self.ran += 1
        memory = getattr(self.emu, "memory", None)
        if memory is not None:
            memory.collect_first = True   # (the interpreter's own reference cycles hold the launch's storages)
        return True

    def _skip(self, name: str, why: str) -> bool:
        key = f"{name}: not run in Triton's interpreter ({why})"
        self.skipped[key] = self.skipped.get(key, 0) + 1
        return False

    def notes(self) -> list[str]:
        head = [f"Triton's interpreter ran {self.ran} launch(es) on the CPU ({self.spent:.1f} s): their outputs are "
                "the kernels'"] if self.ran else []
        return head + [f"{k} ({c}x)" for k, c in sorted(self.skipped.items())]


def _programs(grid: Any, jit: Any, args: tuple, kwargs: dict) -> int | None:
    """The launch's program count (a grid function called with the launch's arguments by name), or None."""
    import math

    try:
        if callable(grid):
            grid = grid({**dict(zip(jit.arg_names, args)), **kwargs})
        dims = [int(d) for d in (grid if isinstance(grid, (tuple, list)) else (grid,))]
    except Exception:  # noqa: BLE001 — the interpreter will say what it says
        return None
    return math.prod(dims)


def _kernel_name(jit: Any) -> str:
    import inspect
    import os

    fn = getattr(jit, "fn", jit)
    try:
        src = os.path.basename(inspect.getsourcefile(fn) or "?")
    except TypeError:
        src = "?"
    return f"{src}::{getattr(fn, '__name__', '?')}"


def _first_line(exc: BaseException) -> str:
    text = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    return text if len(text) <= 160 else text[:157] + "..."


ASSUMPTION = ("Triton launches whose tensor arguments hold no value a kernel not run here wrote also run in Triton's "
              "interpreter on the CPU (up to 16 MiB of tensors and 4096 programs, {per:g} s each, {total:g} s in "
              "all): what host code reads back of their outputs is the kernel's")
