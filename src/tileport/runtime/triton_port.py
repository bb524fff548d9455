"""A ported Triton kernel, used exactly like the ``@triton.jit`` kernel it replaces: ``ported(k)[grid](*args)``.

The launch binds the Triton arguments as Triton does (positional, keywords, constexprs, launch options), evaluates
the grid (a callable grid gets the bound arguments), builds each pointer's array view (`frontends/triton/views.py`,
no copies) and launches the lowered kernel on the chosen backend: ``cutile-rs`` (the Rust port), ``cutile`` (the
lowered cuTile Python) or ``triton`` (the original kernel, unchanged). Launch options such as ``num_warps`` only
reach Triton; cutile chooses its own.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from ..errors import TileportError
from ..frontends.arrays import array_facts
from ..frontends.cutile_py.loader import load_kernel
from ..frontends.triton.capture import bind, flatten_tuples, grid_of, is_descriptor, jit_params
from ..frontends.triton.launch_hints import launch_hints
from ..frontends.triton.views import (View, ViewError, as_view, descriptor_values, narrow_rows, reads_at,
                                      string_codes, tma_stores, view_layout)


class TritonPortError(TileportError):
    pass


def wide_int_scalar(params: list[dict], bound: dict) -> str | None:
    """The first integer scalar parameter whose value at this launch does not fit int32, as ``NAME=VALUE``. Triton
    compiles such a launch with that parameter as a 64-bit integer (its own specialization); the lowered kernel takes
    every integer scalar as cuTile's int32, so it is no launch of this port. None when every one fits."""
    for p in params:
        v = bound.get(p["name"])
        if p.get("kind") == "scalar" and p.get("type") == "int" and isinstance(v, int) and \
                not isinstance(v, bool) and not -2 ** 31 <= v < 2 ** 31:
            return f"{p['name']}={v}"
    return None


@functools.lru_cache(maxsize=None)
def lowering_report(lowered: Path) -> dict:
    """The lowering report beside a lowered kernel file (``lowered.json`` beside ``lowered.py``), read once per file
    (a port and the shadow's checks of it share it; nothing changes it)."""
    return json.loads(lowered.with_suffix(".json").read_text())


@functools.lru_cache(maxsize=None)
def _load_lowered(path: Path, name: str) -> Any:
    """The lowered ``@ct.kernel``, loaded once per file (a kernel object caches its compiled variants)."""
    return load_kernel(f"{path}::{name}").kernel


class PortedKernel:
    """``jit``'s port; ``lowered`` is the lowered kernel file (its ``.json`` lowering report sits beside it)."""

    def __init__(self, jit: Any, lowered: Path, backend: str | None = None):
        self.jit = jit
        #: the layers around the JITFunction, outermost first: a `@triton.heuristics` dict (name → its function of
        #: the bound arguments), or an `@triton.autotune` Autotuner (its config taken as the capture takes it: the
        #: first after its pruning, `frontends/triton/capture.py` first_config)
        self.layers: list[Any] = []
        while hasattr(jit, "fn") and not hasattr(jit, "params"):
            if isinstance(getattr(jit, "values", None), dict):
                self.layers.append(jit.values)
            elif isinstance(getattr(jit, "configs", None), list) and jit.configs:
                self.layers.append(jit)
            else:
                break
            jit = jit.fn
        self.name = jit.fn.__name__
        self.backend = backend
        self.report = lowering_report(lowered)
        self.lowered_path = lowered
        self._kernel = None
        self._at_hints: dict[tuple, Any] = {}   # per-launch options → the lowered kernel's replace_hints copy
        self.params, self.constexprs, self.defaults = jit_params(jit)
        self.views = {k: View.from_json(v) for k, v in self.report["views"].items()}
        #: arrays the lowered kernel stores tiles into that tileiras may store through TMA (views.tma_stores)
        self.tma_stores = tma_stores(lowered.read_text()) if lowered.is_file() else set()

    def with_backend(self, backend: str | None) -> "PortedKernel":
        if backend == self.backend:
            return self
        other = object.__new__(PortedKernel)
        other.__dict__.update(self.__dict__, backend=backend)
        return other

    @property
    def kernel(self) -> Any:
        if self._kernel is None:
            self._kernel = _load_lowered(self.lowered_path, self.name)
        return self._kernel

    def __getitem__(self, grid: Any):
        return lambda *args, **kwargs: self.run(grid, args, kwargs)

    def _reads(self, param: str, bound: dict) -> bool:
        """Whether the lowered kernel reads ``param`` at a launch of these constexpr values (views.reads_at)."""
        constants = {p["name"]: bound[p["name"]] for p in self.report["params"] if p["kind"] == "constant"}
        return reads_at(Path(self.lowered_path).read_text(), self.name, param, constants)

    def lowered_args(self, bound: dict) -> tuple:
        for r in self.report.get("refused_launches", []):   # a constexpr arm the port was not lowered for
            if r["when"] and all(k in bound and bound[k] == v for k, v in r["when"].items()):
                raise TritonPortError(f"{self.name}: a launch with {', '.join(f'{k}={v!r}' for k, v in r['when'].items())} "
                                      f"is not ported: {r['error']}; run this launch with Triton")
        values = {k: v for k, v in bound.items() if isinstance(v, (bool, int, float))}
        values |= string_codes(self.report["params"], bound)
        for k, v in bound.items():   # a tensor descriptor's view: its shape and strides, over its base tensor
            if is_descriptor(v):
                values |= descriptor_values(k, v.shape, v.strides)
        if (wide := wide_int_scalar(self.report["params"], bound)) is not None:
            raise TritonPortError(f"{self.name}: {wide} does not fit int32: Triton compiles this launch with it as "
                                  "a 64-bit integer, a specialization the port (int32 scalars, as its launches were "
                                  "captured) does not take; run this launch with Triton")
        out = []
        for p in self.report["params"]:
            v = bound[p["name"]]
            view = self.views.get(p["name"])
            if is_descriptor(v):
                v = as_view(v.base, *view_layout(view, tuple(v.shape), tuple(v.strides), values)) \
                    if view is not None else v.base
            elif view is not None:
                if callable(getattr(v, "stride", None)):  # torch: the common case, read directly
                    layout = tuple(v.shape), tuple(v.stride())
                else:
                    facts = array_facts(v)
                    if facts is None:
                        raise TritonPortError(f"{self.name}: argument {p['name']} must be a tensor, got "
                                              f"{type(v).__name__}")
                    layout = facts.shape, facts.strides
                try:
                    shape, strides = view_layout(view, *layout, values)
                except ViewError:   # a pointer only a constexpr branch this launch skips reads: passed as it is
                    if len(view.dims) != len(layout[0]) or self._reads(p["name"], bound):
                        raise   # (of another rank than the view's, it would change the entry's parameter type)
                    shape, strides = layout
                if p["name"] in self.tma_stores and narrow_rows(shape, strides):
                    raise TritonPortError(
                        f"{self.name}: {p['name']} is viewed as rows narrower than their stride (shape {shape}, "
                        f"strides {strides}) and the port stores tiles into it through TMA, which tileiras 13.4 "
                        "lets write past the view's extent (docs/triton.md, \"A store past a view's extent\"); "
                        "port it again with such a launch captured (its stores then skip TMA)")
                v = as_view(v, shape, strides)
            if "codes" in p:   # a string constexpr the launches disagreed on: the lowered kernel takes its code
                if v not in p["codes"]:
                    raise TritonPortError(f"{self.name}: {p['name']}={v!r} was not captured (ported for "
                                          f"{', '.join(map(repr, p['codes']))})")
                v = p["codes"][v]
            out.append(v)
        return tuple(out)

    def bind(self, args: tuple, kwargs: dict) -> dict:
        """The launch's arguments by parameter name, as Triton binds them; the values `@triton.heuristics` computes
        from them included (innermost layer last, as Heuristics.run calls the function it wraps)."""
        heuristic = {n for layer in self.layers
                     for n in (layer if isinstance(layer, dict) else (n for c in layer.configs for n in c.kwargs))}
        bound, _options = bind([p for p in self.params if p not in heuristic], self.constexprs - heuristic, args,
                               kwargs, self.defaults)
        for layer in self.layers:
            if isinstance(layer, dict):   # each value sees those before it (`EVEN_N` from the `BLOCK` computed first)
                for n, f in layer.items():
                    bound[n] = f(dict(bound))
                continue
            layer.nargs = dict(bound)   # (what Triton's prune_configs reads)
            try:
                configs = layer.prune_configs(dict(kwargs)) if len(layer.configs) > 1 else layer.configs
            except Exception:  # noqa: BLE001 — a pruning model that needs a GPU: the declared order, as captured
                configs = layer.configs
            finally:
                layer.nargs = None
            config = configs[0]
            if config.pre_hook is not None:
                config.pre_hook({**bound, **config.all_kwargs()})
            bound.update(config.kwargs)
        return flatten_tuples(bound, self.constexprs)   # (a tuple argument: one per element, as captured)

    def run(self, grid: Any, args: tuple, kwargs: dict) -> None:
        from ..ops import _backend
        from ..ops._common import launch

        name = _backend.current_backend(self.backend)
        if name is _backend.TRACING:
            return
        if name == "triton":
            self.jit[grid](*args, **kwargs)
            return
        bound = self.bind(args, kwargs)
        g = grid_of(grid, bound)
        launch((g[0], g[1], g[2]), self.kernel_for(bound), self.lowered_args(bound), name)

    def kernel_for(self, bound: dict) -> Any:
        """The lowered kernel at the options this launch compiles with: the decorator's, or a per-launch rule's of
        the lowering report through ``replace_hints`` (``frontends/triton/launch_hints.py``)."""
        if "launch_hints" not in self.report:
            return self.kernel
        hints = launch_hints(self.report, {k: bound[k] for k in self.constexprs if k in bound})
        if not hints:
            return self.kernel
        key = tuple(sorted(hints.items()))
        if key not in self._at_hints:
            self._at_hints[key] = self.kernel.replace_hints(**hints)
        return self._at_hints[key]


def ported(jit: Any, lowered: str | Path | None = None, backend: str | None = None) -> PortedKernel:
    """The port of ``jit`` (a ``@triton.jit`` kernel). ``lowered``: the ``lowered.py`` a ``tileport port`` wrote
    (a port directory or the file); default: the bundled examples' committed lowered forms."""
    if lowered is None:
        from ..kernels.triton import LOWERED_DIR

        path = LOWERED_DIR / f"{jit.fn.__name__}.py"
    else:
        path = Path(lowered)
        path = path / "lowered.py" if path.is_dir() else path
    if not path.is_file():
        raise TritonPortError(f"{path}: no lowered form of {jit.fn.__name__}; run `tileport port` on the kernel")
    if not path.with_suffix(".json").is_file():
        raise TritonPortError(f"{path.with_suffix('.json')}: the lowering report is missing (it says how a launch "
                              "builds the arrays); re-run `tileport port`")
    return PortedKernel(jit, path, backend)
