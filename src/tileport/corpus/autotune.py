"""Autotuners that time nothing: ``cuda.tile.tune.exhaustive_search`` replaced by a search that launches (so the
capture records) the first config of the search space — or, with ``every=True``, every config in turn, as the real
search does on a GPU — and returns the first as the best.

The real search launches every config and times it; on a machine without a GPU nothing can be timed, and the first
config is the one it would launch first. Which config wins on the GPU is not known here, so a capture meant to serve
the host code unchanged (the launch backend) records every config (``tileport corpus capture --autotune all``): the
winner is then among the ported specializations. Callers that compare several searches by ``result.best.mean_us`` (TileGym's
recurrent gated delta rule tries one search per kernel variant) see the same time for each and keep their first.
Each search is noted (kernel, number of configs, the config taken) for the capture's report.
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
    current_test: Callable[[], str | None] = lambda: None


def _kernel_name(k: Any) -> str:
    f = getattr(k, "_pyfunc", None)
    return getattr(f, "__name__", None) or getattr(k, "__name__", type(k).__name__)


@contextlib.contextmanager
def first_config_autotune(log: AutotuneLog, every: bool = False) -> Iterator[AutotuneLog]:
    """Replace ``exhaustive_search`` in cuda.tile.tune (and its ``_tune`` module) while the block runs (``every``:
    launch every config, not only the first). Modules that import it by name must be imported inside the block (the
    capture imports the corpus only there)."""
    import cuda.tile as ct
    import cuda.tile.tune as tune
    from cuda.tile._execution import kernel as kernel_type
    from cuda.tile.tune import _tune

    def exhaustive_search(search_space, stream, grid_fn, kernel, args_fn, hints_fn=None, **_kw):  # noqa: ANN001
        configs = list(search_space)
        if not configs:
            raise ValueError("exhaustive_search: the search space is empty")
        for i, cfg in enumerate(configs if every else configs[:1]):
            k = kernel if isinstance(kernel, kernel_type) else kernel(cfg)
            hints = hints_fn(cfg) if hints_fn is not None else {}
            launched = k.replace_hints(**hints) if hints else k
            if i == 0:
                log.searches.append({"kernel": _kernel_name(k), "configs": len(configs), "taken": repr(cfg),
                                     "launched": len(configs) if every else 1,
                                     "hints": {str(a): v for a, v in hints.items()}, "test": log.current_test()})
            log.active = True
            try:
                ct.launch(stream, grid_fn(cfg), launched, tuple(args_fn(cfg)))
            finally:
                log.active = False
        best = _tune.Measurement(config=configs[0], mean_us=FAKE_MEAN_US, num_samples=1, error_margin_us=0.0)
        return _tune.TuningResult(best=best, successes=[best], failures=[])

    saved = {(tune, "exhaustive_search"): tune.exhaustive_search,
             (_tune, "exhaustive_search"): _tune.exhaustive_search}
    try:
        for (mod, name) in saved:
            setattr(mod, name, exhaustive_search)
        yield log
    finally:
        for (mod, name), fn in saved.items():
            setattr(mod, name, fn)
