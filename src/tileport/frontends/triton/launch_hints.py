"""Kernel options per launch of a lowered Triton kernel: a hints file's ``launches`` entries (``corpus/hints.py``).

cuTile options are per kernel in its decorator, and per launch through ``kernel.replace_hints(..)`` (cutile's
per-launch CompileOptions in the Rust port). A Triton kernel is lowered once for all its launches, so where one
setting does not suit them all (a row kernel's 8192-wide rows want 8 worker warps, its 1024-wide rows do not), a
rule ``{"when": {constexpr: value or [values]}, "hints": {...}}`` gives the launches it matches other options. The
rules live in the lowering report (``lowered.json``): each launch record of the port names the hints it compiles
with (its own variant, proven at them), and the runtime's launch (``runtime/triton_port.py``) picks them likewise.
"""
from __future__ import annotations

from ...errors import InputError


def constexpr_values(launch: dict) -> dict:
    """A captured Triton launch's constexpr arguments by name (what a rule's ``when`` is matched against)."""
    return {d["name"]: d.get("value") for d in launch["args"] if d["kind"] == "constant"}


def matches(when: dict, values: dict) -> bool:
    """A launch's constexpr ``values`` match a per-launch entry's ``when`` (each name a value, or a list of them)."""
    return all(name in values and (values[name] in want if isinstance(want, list) else values[name] == want)
               for name, want in when.items())


def launch_rules(entry: dict, launches: list[dict], where: str) -> list[dict]:
    """An entry's per-launch options, checked against the captured ``launches`` of its kernel: each ``when`` names
    constexpr parameters and matches at least one launch (else a typo would go unnoticed)."""
    rules = entry.get("launches", [])
    seen = [constexpr_values(launch) for launch in launches]
    names = set().union(*seen) if seen else set()
    for rule in rules:
        unknown = sorted(set(rule["when"]) - names)
        if unknown:
            raise InputError(f"--hints: {where}: `when` names {', '.join(unknown)}, not a constexpr parameter of its "
                             f"launches ({', '.join(sorted(names)) or 'none'})")
        if not any(matches(rule["when"], v) for v in seen):
            raise InputError(f"--hints: {where}: `when` {rule['when']} matches none of its {len(launches)} captured "
                             "launches")
    return rules


def launch_hints(report: dict, values: dict) -> dict[str, int]:
    """The kernel options the first rule of the lowering report matching a launch's constexpr ``values`` sets
    over the decorator's (``kernel.replace_hints(**them)``); ``{}`` where none matches."""
    return next((rule["hints"] for rule in report.get("launch_hints", ()) if matches(rule["when"], values)), {})
