"""Derive a launch-grid formula from captured launches, or say it is unknown.

Candidates per grid dimension: ``1``, ``p.shape[d]`` and ``cdiv(p.shape[d], K)`` for every array parameter p and
integer constant parameter K. A candidate survives only if it reproduces that dimension in *every* captured
launch. Survivors that differ only in which array they name (``cdiv(a.shape[0], T)`` vs ``cdiv(b.shape[0], T)``)
are the same formula; the first by parameter order is reported and all are listed. Survivors of different forms
are ``ambiguous``; none is ``unknown`` (a persistent grid sized by the SM count is, correctly, unknown).
"""
from __future__ import annotations

import re


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _candidates(launch: dict) -> dict[str, int]:
    arrays = [a for a in launch["args"] if a["kind"] == "array"]
    consts = [a for a in launch["args"] if a["kind"] == "constant" and isinstance(a["value"], int)
              and not isinstance(a["value"], bool) and a["value"] > 0]
    out = {"1": 1}
    for a in arrays:
        for d, n in enumerate(a["shape"]):
            out[f"{a['name']}.shape[{d}]"] = n
            for k in consts:
                out[f"cdiv({a['name']}.shape[{d}], {k['name']})"] = _cdiv(n, k["value"])
    return out


def _form(expr: str, arrays: list[str]) -> str:
    for name in arrays:
        expr = re.sub(rf"\b{re.escape(name)}\.shape", "ARRAY.shape", expr)
    return expr


def derive(launches: list[dict]) -> dict:
    observed = [list(l["grid"]) for l in launches]
    if not launches:
        return {"formula": ["unknown"] * 3, "candidates": [[], [], []], "observed": observed}
    arrays = [a["name"] for a in launches[0]["args"] if a["kind"] == "array"]
    formula, cands = [], []
    for g in range(3):
        survivors = None
        for l in launches:
            here = {e for e, v in _candidates(l).items() if v == l["grid"][g]}
            survivors = here if survivors is None else survivors & here
        order = list(_candidates(launches[0]))
        surv = sorted(survivors or (), key=order.index)
        cands.append(surv)
        forms = {_form(e, arrays) for e in surv}
        if not surv:
            formula.append("unknown")
        elif "1" in surv and all(l["grid"][g] == 1 for l in launches):
            formula.append("1")
        elif len(forms) == 1:
            formula.append(surv[0])
        else:
            formula.append("ambiguous")
    return {"formula": formula, "candidates": cands, "observed": observed}
