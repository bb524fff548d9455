"""Autotuners that time nothing: ``cuda.tile.tune.exhaustive_search`` replaced by a search that launches (so the
capture records) the first config of the search space — or, with ``every=True``, every config in turn, as the real
search does on a GPU — and returns the first as the best.

The real search launches every config and times it; on a machine without a GPU nothing can be timed, and the first
config is the one it would launch first. Which config wins on the GPU is not known here, so a capture meant to serve
the host code unchanged (the launch backend) records every config (``tileport corpus capture --autotune all``): the
winner is then among the ported specializations. Callers that compare several searches by ``result.best.mean_us`` (TileGym's
recurrent gated delta rule tries one search per kernel variant) see the same time for each and keep their first.
Each search is noted (kernel, number of configs, the config taken) for the capture's report.

The host code's own launch after a search is at the config the search returned, often through a copy of the kernel
at other hints (``kernel.replace_hints(occupancy=2)``): on a GPU the winner may be any config, so with ``every=True``
the search is remembered (``AutotuneLog.tuned``) and a later launch of the same kernel whose arguments and grid are
exactly those the search built for the config it returned is also recorded at every other config's arguments and
grid (``AutotuneLog.alternatives``) — the launch the host code makes when that config wins, at that config's hints.
Host code often keeps a search's winner in a cache keyed by less than the launch's signature (TileGym's bmm: by batch,
M, N, K and transposes, not by the operands' strides), so a later launch reuses the winner without searching: a
launch of a searched kernel at the returned config's hints whose config-set arguments (those that differ between the
search's configs) hold the returned config's values is recorded at every other config too, its other arguments and
its grid as launched (the grid a config would compute from them is the host's: not known here).
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

#: the time every first config is reported to take (microseconds)
FAKE_MEAN_US = 1.0


@dataclass
class AutotuneLog:
    #: one entry per search: kernel name, configs in the space, the config taken (repr), the test that ran it
    searches: list[dict] = field(default_factory=list)
    #: True while a search is launching its config (the launch hook marks those launches)
    active: bool = False
    #: the config a search returns as its winner, by position (clamped to the last): 0, or another in the capture's
    #: winner rounds (``--autotune each``)
    winner: int = 0
    current_test: Callable[[], str | None] = lambda: None
    #: the last searches over one kernel (with ``every``): (its function, (args, grid, config repr, kernel at its
    #: hints) at the config returned, [the same] at the others)
    tuned: list[tuple[Any, tuple, list[tuple]]] = field(default_factory=list)

    def alternatives(self, kernel: Any, grid: Any, args: tuple) -> list[tuple]:
        """(args, grid, config repr, kernel at the config's hints) of the launches the host code would make instead
        of this one under another winner of a search: empty unless the launch is of a searched kernel at the
        returned config — its very arguments and grid, or (a winner the host cached) its hints and the values of
        the arguments the configs set (module docstring)."""
        func = getattr(kernel, "_pyfunc", None)
        for f, won, others in reversed(self.tuned):
            if f is not func:
                continue
            returned = _hints(won[3])
            set_hints = {h for *_, k in others for h, v in _hints(k).items() if v != returned[h]}
            if _same(args, won[0]) and _grid(grid) == _grid(won[1]):
                return [(a, g, cfg, _at_config_hints(kernel, k, set_hints)) for a, g, cfg, k in others]
            config_set = [i for i, w in enumerate(won[0]) if any(not _same_value(a[i], w) for a, *_ in others)]
            launched = _hints(kernel)
            if len(args) == len(won[0]) and all(launched[h] == returned[h] for h in set_hints) and \
                    all(_same_value(args[i], won[0][i]) for i in config_set):
                return [(tuple(a[i] if i in config_set else x for i, x in enumerate(args)), grid,
                         f"{cfg}, a cached winner's launch: grid as launched", _at_config_hints(kernel, k, set_hints))
                        for a, _, cfg, k in others]
        return []


def _at_config_hints(kernel: Any, config_kernel: Any, set_hints: set[str]) -> Any:
    """The launched kernel with the hints the search sets per config (``hints_fn``) taken from another config's
    kernel: the host's own hints (an occupancy it always asks for) kept."""
    values = {h: v for h, v in _hints(config_kernel).items() if h in set_hints and v != "default"}
    return kernel.replace_hints(**values) if values else kernel


def _hints(kernel: Any) -> dict:
    from ..frontends.cutile_py.hints import kernel_hints

    return kernel_hints(kernel)


#: searches remembered for alternatives (their arguments hold the host's tensors)
TUNED_KEPT = 8


def _grid(g: Any) -> tuple:
    g = tuple(g) if isinstance(g, (tuple, list)) else (g,)
    return tuple(int(x) for x in g) + (1,) * (3 - len(g))


def _same(a: tuple, b: tuple) -> bool:
    """The same arguments (``_same_value`` each)."""
    return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))


def _same_value(x: Any, y: Any) -> bool:
    """The same argument: the same object for an array, an equal value (of one type) for anything else."""
    return x is y or (type(x) is type(y) and isinstance(x, (bool, int, float, str)) and x == y)


def _kernel_name(k: Any) -> str:
    f = getattr(k, "_pyfunc", None)
    return getattr(f, "__name__", None) or getattr(k, "__name__", type(k).__name__)


@contextlib.contextmanager
def first_config_autotune(log: AutotuneLog, every: bool = False) -> Iterator[AutotuneLog]:
    """Replace ``exhaustive_search`` in cuda.tile.tune (and its ``_tune`` module) while the block runs (``every``:
    launch every config, not only the first). Modules that import it by name must be imported inside the block (the
    capture imports the corpus only there)."""
    import cuda.tile as ct
    from cuda.tile._execution import kernel as kernel_type
    from cuda.tile.tune import _tune

    def exhaustive_search(search_space, stream, grid_fn, kernel, args_fn, hints_fn=None, **_kw):  # noqa: ANN001
        configs = list(search_space)
        if not configs:
            raise ValueError("exhaustive_search: the search space is empty")
        won = min(log.winner, len(configs) - 1) if every else 0
        built = []   # (args, grid, config) of each config launched
        for i, cfg in enumerate(configs if every else configs[:1]):
            k, hints, launched = _config_kernel(kernel, hints_fn, cfg)
            if i == 0:
                log.searches.append({"kernel": _kernel_name(k), "configs": len(configs), "taken": repr(configs[won]),
                                     "launched": len(configs) if every else 1,
                                     "hints": {str(a): v for a, v in hints.items()}, "test": log.current_test()})
            built.append((tuple(args_fn(cfg)), grid_fn(cfg), repr(cfg), launched))
            log.active = True
            try:
                ct.launch(stream, built[-1][1], launched, built[-1][0])
            finally:
                log.active = False
        if every and len(configs) > 1 and isinstance(kernel, kernel_type):   # (a factory's kernels differ per config)
            log.tuned.append((kernel._pyfunc, built[won], built[:won] + built[won + 1:]))
            del log.tuned[:-TUNED_KEPT]
        best = _tune.Measurement(config=configs[won], mean_us=FAKE_MEAN_US, num_samples=1, error_margin_us=0.0)
        return _tune.TuningResult(best=best, successes=[best], failures=[])

    with _search_replaced(exhaustive_search):
        yield log


@contextlib.contextmanager
def recorded_searches(record: Callable[[Any, Any, tuple, str], None]) -> Iterator[None]:
    """A live capture's searches (``tileport corpus capture --on-gpu``): the real ``exhaustive_search`` runs and times
    on the GPU, but its launches go through cuda.tile's own benchmark path, not ``ct.launch``, so the capture saw only
    the launch after it, at that run's winner — and the winner varies from run to run (TileGym's rope picks its
    occupancy by timing: 9 in one run, 7 or 12 in the next). So each config the search will try is recorded first
    (``record(kernel at the config's hints, grid, args, config repr)``), then the search runs unchanged."""
    from cuda.tile.tune import _tune

    real = _tune.exhaustive_search

    def exhaustive_search(search_space, stream, grid_fn, kernel, args_fn, hints_fn=None, **kw):  # noqa: ANN001
        configs = list(search_space)
        for cfg in configs:
            record(_config_kernel(kernel, hints_fn, cfg)[2], grid_fn(cfg), tuple(args_fn(cfg)), repr(cfg))
        return real(configs, stream, grid_fn, kernel, args_fn, hints_fn, **kw)

    with _search_replaced(exhaustive_search):
        yield


def _config_kernel(kernel: Any, hints_fn: Callable | None, cfg: Any) -> tuple[Any, dict, Any]:
    """What a search launches at ``cfg``: (the kernel, or the one a kernel factory makes for it; the config's
    hints; that kernel at those hints)."""
    from cuda.tile._execution import kernel as kernel_type

    k = kernel if isinstance(kernel, kernel_type) else kernel(cfg)
    hints = hints_fn(cfg) if hints_fn is not None else {}
    return k, hints, (k.replace_hints(**hints) if hints else k)


@contextlib.contextmanager
def _search_replaced(search: Callable) -> Iterator[None]:
    """``exhaustive_search`` of cuda.tile.tune and of its ``_tune`` module replaced by ``search`` while the block
    runs."""
    import cuda.tile.tune as tune
    from cuda.tile.tune import _tune

    saved = {(tune, "exhaustive_search"): tune.exhaustive_search,
             (_tune, "exhaustive_search"): _tune.exhaustive_search}
    try:
        for (mod, name) in saved:
            setattr(mod, name, search)
        yield
    finally:
        for (mod, name), fn in saved.items():
            setattr(mod, name, fn)
