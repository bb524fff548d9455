"""Shadow runs: a host program's Triton launches, each also run through its port, the outputs compared and timed.

While ``shadow(ports)`` is active, a launch of a ``@triton.jit`` kernel that has a port runs like this: its tensor
arguments are copied; Triton runs; its results are copied; the arguments are put back (the outputs the port only writes filled with NaN, or -7 for
integers, so that a store it misses where Triton wrote shows); the port runs
(``runtime.triton_port.ported``, on ``backend``); every tensor argument is compared with Triton's (integers and
booleans exactly, floats within the dtype's tolerance, the largest differences recorded either way); then Triton's
results are put back, so the host program goes on with Triton's values whatever the port did. The first
``max_checks`` distinct launches (signature and grid) of each kernel are checked, and timed on both paths with
``triton.testing.do_bench_cudagraph`` (kernel time, no host launch cost; plain ``do_bench`` when graph capture
fails, and the record says so); later launches run Triton only. Launches through a ``kernel.warmup(...)`` handle
are shadowed too.

``ports`` maps ``(source file, kernel name)`` (the file's real path) to a port directory, as ``tileport port`` /
``tileport corpus port`` write them (``lowered.py`` and ``lowered.json``). Needs a GPU, torch and triton.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

#: (rtol, atol) per dtype name for the port-vs-Triton comparison
TOLERANCE = {"float32": (1e-4, 1e-5), "float16": (1e-2, 1e-3), "bfloat16": (2e-2, 1e-2),
             "float64": (1e-7, 1e-9),
             # fp8: two of the format's relative steps (2 and 3 mantissa bits), so a result rounded the other way
             # from an f32 value one ulp apart passes (e5m2 holds 2.0, 2.5, 3.0: one step is 0.5 there)
             "float8_e5m2": (0.5, 2.0 ** -14), "float8_e4m3fn": (0.25, 2.0 ** -7)}


@dataclass
class Shadow:
    ports: dict[tuple[str, str], Path]
    backend: str = "cutile"
    max_checks: int = 4
    time: bool = True
    records: list[dict] = field(default_factory=list)
    #: triton.testing's (do_bench, do_bench_cudagraph) as they were when shadowing began (host code may stub them)
    bench: tuple = ()
    _seen: dict[str, set] = field(default_factory=dict)
    #: kernel → launches not checked: their arrays' dtypes are none of the port's variants' (``_dtypes_ported``)
    skipped: dict[str, int] = field(default_factory=dict)

    def port_of(self, jit: Any, name: str | None = None) -> Path | None:
        """The port of ``jit`` (``name``: of its launches under that captured name, ``NAME[B=None]`` where they
        pass None for B: frontends.triton.capture.specialized_name)."""
        src = os.path.realpath(inspect.getsourcefile(jit.fn) or "")
        return self.ports.get((src, name or jit.fn.__name__))

    def port_for(self, jit: Any, spec: dict) -> Path | None:
        """The port of ``jit`` for a launch of this specialization: the one whose name's parts (``NAME[b_ptr=None]``)
        all hold for it, the most of them; None when there is none."""
        from ..frontends.triton.capture import base_name, matches_specialization

        src = os.path.realpath(inspect.getsourcefile(jit.fn) or "")
        scored = [(n, d) for (f, k), d in self.ports.items() if f == src and base_name(k) == jit.fn.__name__
                  for n in (matches_specialization(k, spec),) if n is not None]
        return max(scored, key=lambda x: x[0])[1] if scored else None

    def has_port(self, jit: Any) -> bool:
        """Whether some launch of ``jit`` has a port (under its name or a specialized one)."""
        from ..frontends.triton.capture import base_name

        src = os.path.realpath(inspect.getsourcefile(jit.fn) or "")
        return any(f == src and base_name(k) == jit.fn.__name__ for f, k in self.ports)

    def _seen_of(self, jit: Any) -> set:
        return self._seen.setdefault(f"{inspect.getsourcefile(jit.fn)}::{jit.fn.__name__}", set())

    def wants(self, jit: Any, key: tuple) -> bool:
        seen = self._seen_of(jit)
        if key in seen or len(seen) >= self.max_checks:
            return False
        seen.add(key)
        return True

    def launch(self, jit: Any, grid: Any, args: tuple, kwargs: dict, run_triton: Any) -> Any:
        """One launch of ``jit``: Triton (``run_triton()``), and the port beside it when this launch is checked."""
        if len(self._seen_of(jit)) >= self.max_checks:   # (every later launch: Triton alone)
            return run_triton()
        import torch

        from ..frontends.arrays import array_facts
        from ..frontends.triton.capture import (OPTIONS, bind, dtype_compared, grid_of, is_descriptor,
                                                jit_params, specialization)
        from .triton_port import ported, wide_int_scalar

        params, constexprs, defaults = jit_params(jit)
        try:
            bound, _ = bind(params, constexprs, args[:len(params)], kwargs, defaults)
            g = tuple(grid_of(grid, bound))
        except Exception:  # noqa: BLE001 — not a launch this module understands: Triton alone
            return run_triton()
        compared = dtype_compared(jit.fn)   # pointers whose element type the kernel compares: ported per dtype
        arrays = [{"name": k, "kind": "array", "dtype": f.dtype} for k, v in bound.items() if k in compared
                  for f in (array_facts(v),) if f is not None]
        port = self.port_for(jit, specialization(bound, constexprs, [_describe_constexpr(k, v) for k, v in bound.items()
                                                                 if k in constexprs] + arrays, compared))
        if port is None:
            return run_triton()
        if not _dtypes_ported(port, bound) or wide_int_scalar(_lowered_params(port), bound) is not None:
            # the lowering folded the captured dtypes, or an integer past int32 (Triton: an int64 parameter): not
            # a launch of this port
            self.skipped[jit.fn.__name__] = self.skipped.get(jit.fn.__name__, 0) + 1
            return run_triton()
        described = {k: _describe(v) for k, v in bound.items()}
        if not self.wants(jit, (tuple(described.items()), g)):
            return run_triton()
        # through `.data`: autograd sees neither the port's run nor the values put back (a tensor the host's
        # backward saved keeps its version; a leaf that requires grad takes the copy), as it sees no kernel's writes
        tensors = [(k, (v.base if is_descriptor(v) else v).data) for k, v in bound.items()
                   if isinstance(v, torch.Tensor) or (is_descriptor(v) and isinstance(v.base, torch.Tensor))]
        before = [v.clone() for _, v in tensors]
        result = run_triton()
        torch.cuda.synchronize()
        triton_out = [v.clone() for _, v in tensors]
        rec = {"kernel": jit.fn.__name__, "file": inspect.getsourcefile(jit.fn), "port": str(port),
               "grid": list(g), "args": described, "backend": self.backend}
        port_kernel = ported(jit, port, backend=self.backend)
        port_kwargs = {k: v for k, v in kwargs.items() if k not in OPTIONS}
        call_port = (lambda: port_kernel[g](**bound)) if len(args) > len(params) else \
            (lambda: port_kernel[g](*args, **port_kwargs))
        # an output the port only writes is poisoned before it runs, unless it shares memory with another argument
        # (an in-place launch: `output_ptr` is `x_ptr`, which the port reads)
        written = _written_only(port) - _aliased(tensors)
        try:
            for (k, v), b in zip(tensors, before):
                v.copy_(b)
                if k in written:   # an output the port only writes: poisoned, so a store it misses shows
                    v.fill_(float("nan") if v.is_floating_point() else -7)
            call_port()
            torch.cuda.synchronize()
            rec["outputs"] = {}
            for (k, v), t, b in zip(tensors, triton_out, before):
                if k in written:   # what neither wrote (Triton left it as it was, the port left the poison): as before
                    missed = torch.isnan(v) if v.is_floating_point() else v == -7
                    kept = (t == b) | (torch.isnan(t) & torch.isnan(b)) if t.is_floating_point() else t == b
                    v.copy_(torch.where(missed & kept, b, v))
                if not (torch.equal(t, b) and torch.equal(v, b)):   # written by either: an output
                    rec["outputs"][k] = _compare(t, v)
            _judge_order_dependent(rec["outputs"], tensors, before, triton_out, run_triton)
            rec["ok"] = all(o["ok"] for o in rec["outputs"].values())
            if self.time:
                rec.update(_times(run_triton, call_port, self.bench))
        except Exception as exc:  # noqa: BLE001 — the port failed on the GPU: recorded, Triton's result kept
            rec["ok"] = False
            rec["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        finally:
            for (_, v), t in zip(tensors, triton_out):
                v.copy_(t)
            torch.cuda.synchronize()
        self.records.append(rec)
        return result


def _lowered_params(port: Path) -> list[dict]:
    """The lowered kernel's parameters (its lowering report, ``lowered.json``); none when it has none."""
    from .triton_port import lowering_report

    f = port / "lowered.py" if port.is_dir() else port
    return lowering_report(f).get("params", []) if f.with_suffix(".json").is_file() else []


@functools.lru_cache(maxsize=None)
def _variant_dtypes(port: Path) -> tuple[dict, ...]:
    """Each proven variant's array dtypes by parameter name (the port's ``spec.json``); none when it has none."""
    import json

    f = port / "spec.json"
    if not f.is_file():
        return ()
    return tuple({p["name"]: p["dtype"] for p in v.get("params", []) if p.get("kind") == "array"}
                 for v in json.loads(f.read_text()).get("variants", []))


def _dtypes_ported(port: Path, bound: dict) -> bool:
    """Whether some variant of the port takes this launch's arrays at their dtypes. A Triton kernel is lowered
    knowing the dtypes its captured launches pass (``x.dtype.element_ty == tl.float8e5`` folds), so a launch at other
    dtypes (the f16 forward where fp8 was captured) is no launch of this port."""
    from ..frontends.arrays import array_facts
    from ..frontends.triton.capture import is_descriptor

    variants = _variant_dtypes(port)
    if not variants:
        return True
    given = {}
    for k, v in bound.items():
        facts = array_facts(v.base if is_descriptor(v) else v)
        if facts is not None:
            given[k] = facts.dtype
    return any(all(v.get(k, d) == d for k, d in given.items()) for v in variants)


@functools.lru_cache(maxsize=None)
def _written_only(port: Path) -> frozenset[str]:
    """The parameters the lowered kernel stores to and never reads (``ct.store``/``ct.scatter``, no load)."""
    import re

    path = port / "lowered.py" if port.is_dir() else port
    text = path.read_text()
    stored = set(re.findall(r"ct\.(?:store|scatter)\((\w+)", text))
    read = set(re.findall(r"ct\.(?:load|gather)\((\w+)", text))
    return frozenset(stored - read)


#: Triton re-runs of a launch whose port differs on a float output: is Triton itself run-to-run identical there?
SELF_RUNS = 3


def _aliased(tensors: list[tuple[str, Any]]) -> set[str]:
    """The names among ``tensors`` (name, tensor) whose memory overlaps another's: each tensor's bytes from its
    first element to its last (a strided view reaches past ``numel`` elements: a column of a row-major matrix)."""
    spans = [(k, *_extent(v)) for k, v in tensors]
    return {k for k, lo, hi in spans for k2, lo2, hi2 in spans if k2 != k and lo < hi2 and lo2 < hi}


def _extent(v: Any) -> tuple[int, int]:
    """The bytes a tensor's elements lie in, [first, past its last) (torch strides are never negative)."""
    lo = v.data_ptr()
    if v.numel() == 0:
        return lo, lo
    last = sum((n - 1) * s for n, s in zip(v.shape, v.stride()))
    return lo, lo + (last + 1) * v.element_size()


def _judge_order_dependent(outputs: dict, tensors: list, before: list, triton_out: list, run_triton: Any) -> None:
    """A float output the port missed the tolerance on, where Triton's own re-runs of the same launch (inputs put
    back each time) differ from its first: the result depends on an order the kernel leaves free (blocks taking a
    lock, atomics), so it is judged against Triton's own spread: ok when the port's max |diff| is within twice the
    largest run-to-run max |diff| Triton showed. Recorded as ``order_dependent`` with that spread; an output where
    Triton repeats itself exactly keeps its verdict."""
    import torch

    missed = [k for k, o in outputs.items() if not o["ok"] and o.get("outside_tolerance")]   # (a NaN/inf where
    # the other has none stays a miss)
    if not missed:
        return
    spread = dict.fromkeys(missed, 0.0)
    for _ in range(SELF_RUNS):
        for (_, v), b in zip(tensors, before):
            v.copy_(b)
        run_triton()
        torch.cuda.synchronize()
        for (k, v), t in zip(tensors, triton_out):
            if k in spread:
                spread[k] = max(spread[k], _compare(t, v)["max_abs"])
    for k in missed:
        if spread[k] > 0:
            o = outputs[k]
            o.update(order_dependent=True, triton_self_max_abs=spread[k],
                     ok=o["max_abs"] <= 2 * spread[k])


def _describe(v: Any) -> str:
    from ..frontends.triton.capture import is_descriptor

    if is_descriptor(v):
        return f"descriptor({_describe(v.base)}, shape={list(v.shape)}, block={list(v.block_shape)})"
    shape = getattr(v, "shape", None)
    if shape is not None and hasattr(v, "dtype"):
        return f"{str(v.dtype).removeprefix('torch.')}{list(shape)}/{list(v.stride())}"
    return repr(v)


def _compare(triton: Any, port: Any) -> dict:
    import torch

    dt = str(triton.dtype).removeprefix("torch.")
    if not triton.is_floating_point():
        diff = int((triton != port).sum())
        return {"dtype": dt, "mismatches": diff, "ok": diff == 0}
    a, b = triton.double(), port.double()
    finite = torch.isfinite(a) & torch.isfinite(b)
    # where either is not finite both must be the same inf, or both NaN
    same_nonfinite = bool(((a[~finite] == b[~finite]) | (torch.isnan(a[~finite]) & torch.isnan(b[~finite]))).all())
    err = (a[finite] - b[finite]).abs()
    rel = err / b[finite].abs().clamp_min(1e-30)
    rtol, atol = TOLERANCE.get(dt, (1e-2, 1e-2))
    bad = int((err > atol + rtol * b[finite].abs()).sum())
    return {"dtype": dt, "max_abs": float(err.max()) if err.numel() else 0.0,
            "max_rel": float(rel.max()) if rel.numel() else 0.0, "outside_tolerance": bad,
            "rtol": rtol, "atol": atol, "ok": bad == 0 and same_nonfinite}


def _times(run_triton: Any, call_port: Any, bench: tuple) -> dict:
    do_bench, do_bench_cudagraph = bench
    out: dict = {}
    try:
        out["triton_ms"] = do_bench_cudagraph(run_triton)
        out["port_ms"] = do_bench_cudagraph(call_port)
        out["timing"] = "do_bench_cudagraph"
    except Exception as exc:  # noqa: BLE001 — a launch path that graph capture refuses: host time included
        out["graph_error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        out["triton_ms"] = do_bench(run_triton)
        out["port_ms"] = do_bench(call_port)
        out["timing"] = "do_bench"
    out["ratio"] = out["port_ms"] / out["triton_ms"] if out["triton_ms"] else None
    return out


class _Handle:
    """What ``kernel.warmup(...)`` returns while shadowing: Triton's compiled kernel, whose launches are shadowed."""

    def __init__(self, compiled: Any, jit: Any, sh: Shadow):
        self._compiled, self._jit, self._shadow = compiled, jit, sh

    def __getattr__(self, name: str) -> Any:
        return getattr(self._compiled, name)

    def __getitem__(self, grid: Any) -> Any:
        runner = self._compiled[grid]

        def run(*args: Any) -> Any:
            return self._shadow.launch(self._jit, grid, args, {}, lambda: runner(*args))
        return run


@contextlib.contextmanager
def shadow(ports: dict[tuple[str, str], Path], backend: str = "cutile", max_checks: int = 4,
           time: bool = True) -> Iterator[Shadow]:
    """Shadow every ported Triton kernel's launches while the block runs (module docstring)."""
    import triton.testing as tt
    from triton.runtime.jit import JITFunction

    sh = Shadow({(os.path.realpath(f), k): Path(p) for (f, k), p in ports.items()}, backend, max_checks, time,
                bench=(tt.do_bench, tt.do_bench_cudagraph))
    saved = JITFunction.run

    def run(self: Any, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
        if warmup:
            compiled = saved(self, *args, grid=grid, warmup=warmup, **kwargs)
            return _Handle(compiled, self, sh) if sh.has_port(self) else compiled
        return sh.launch(self, grid, args, kwargs, lambda: saved(self, *args, grid=grid, warmup=False, **kwargs))

    JITFunction.run = run
    try:
        yield sh
    finally:
        JITFunction.run = saved


def _describe_constexpr(name: str, value: Any) -> dict:
    """A constexpr as the capture describes it, for ``specialization`` (a dtype by its ``tl.`` name)."""
    if type(value).__name__ == "dtype" and isinstance(getattr(value, "name", None), str):
        return {"name": name, "kind": "constant", "value": f"tl.{value.name}"}
    return {"name": name, "kind": "constant", "value": value}


def corpus_ports(corpus_json: Path, corpus_root: Path) -> dict[tuple[str, str], Path]:
    """The ports a ``tileport corpus port`` run wrote (its ``corpus.json``), by (source file, kernel)."""
    import json

    from ..corpus.port import _slug

    data = json.loads(corpus_json.read_text())
    out = {}
    for r in data["kernels"]:
        d = corpus_json.parent / _slug(r["file"], r["kernel"])
        if (d / "lowered.py").is_file():
            out[(str((corpus_root / r["file"]).resolve()), r["kernel"])] = d
    return out
