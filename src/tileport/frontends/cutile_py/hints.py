"""A cuda.tile kernel's compile hints (``@ct.kernel(occupancy=..)`` or a ``replace_hints(..)`` copy's) on a target:
what analyze states in the spec and what a capture records per launch."""
from __future__ import annotations

from ...errors import InputError

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


#: cuTile Python's hint → cutile's per-launch CompileOptions field (and the TpCall slot that carries it)
CUTILE_OPTION = {"occupancy": "occupancy", "num_ctas": "num_cta_in_cga", "num_worker_warps": "num_worker_warps_per_cta",
                 "opt_level": "opt_level"}


def launched_override(decorator: dict, launched: dict, where: str) -> dict:
    """The hints a launch compiles with that differ from the decorator's (``launched`` as a capture records it:
    hints left at the default are not listed). A launch that resets a decorator's hint to the default is refused:
    cutile's per-launch options set hints, they cannot unset the entry's own."""
    out = {}
    for name in HINT_NAMES:
        mine, theirs = decorator.get(name, "default"), launched.get(name, "default")
        if mine == theirs:
            continue
        if not isinstance(theirs, int) or isinstance(theirs, bool):
            raise InputError(f"{where}: a launch sets hint {name}={theirs!r} where the decorator has {mine!r}: "
                             "only integer hints a launch adds or changes can be ported (cutile's CompileOptions)")
        out[name] = theirs
    return out


def hints_key(hints: dict) -> tuple:
    """Launched hints as a hashable, order-free key: sorted (name, value) pairs (``()`` for the decorator's)."""
    return tuple(sorted(hints.items()))


def cutile_options(hints: dict) -> dict[str, int]:
    """cuTile Python hints as cutile CompileOptions fields by name."""
    return {CUTILE_OPTION[k]: n for k, n in hints.items()}


def hints_text(hints: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(hints.items()))


def hints_slug(hints: dict) -> str:
    """A file-name part for a variant at launched hints: ``num_ctas2-occupancy4``."""
    return "-".join(f"{k}{v}" for k, v in sorted(hints.items()))
