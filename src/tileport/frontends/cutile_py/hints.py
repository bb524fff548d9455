"""A cuda.tile kernel's compile hints (``@ct.kernel(occupancy=..)`` or a ``replace_hints(..)`` copy's) on a target:
what analyze states in the spec and what a capture records per launch."""
from __future__ import annotations

HINT_NAMES = ("num_ctas", "occupancy", "opt_level", "num_worker_warps")


def kernel_hints(kernel, arch: str = "sm_90") -> dict:
    """A cuda.tile kernel object's compile hints on ``arch`` (``"default"`` where unset): the decorator's, or a
    ``replace_hints(..)`` copy's."""
    opts = kernel._compiler_options
    return {k: ("default" if getattr(opts, k, None) is None else _for_target(getattr(opts, k), arch))
            for k in HINT_NAMES}


def _for_target(value, arch: str):
    """A hint's value on ``arch``: ``ct.ByTarget(sm_80=2, default=4)`` gives 4 on sm_90 (its default)."""
    by_target = getattr(value, "_by_target", None)
    if isinstance(by_target, dict):
        value = by_target.get(arch, getattr(value, "_default", None))
    return "default" if value is None else value
