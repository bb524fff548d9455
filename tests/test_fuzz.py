"""Differential fuzzing: random kernels over supported constructs, each proven or refused (all of a batch in one
cargo build). CI ports 5 of each family of `tileport.fuzz.FAMILIES` (about a minute); the full batch of 20 a family
is marked slow: `./dev test -m slow`."""
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings

from tileport.fuzz import FAMILIES, family_of, kernels, run_batch


@pytest.mark.parametrize("each", [pytest.param(5, id="ci"), pytest.param(20, marks=pytest.mark.slow, id="full")])
def test_random_kernels_are_proven_or_refused(each, tree, tmp_path):
    drawn: list[tuple[str, str]] = []
    for family in FAMILIES:   # (derandomized, per family: every family drawn, however many there are)
        @settings(max_examples=each, derandomize=True, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(kernels(families=(family,)))
        def collect(k):
            drawn.append(k)

        collect()
    assert {family_of(src) for src, _ in drawn} == set(FAMILIES)
    cases = run_batch(drawn, tmp_path, tree)
    outcomes = Counter(c.outcome for c in cases)
    silent = [c for c in cases if c.outcome not in ("proven", "refused", "invalid")]
    assert not silent, "\n".join(f"{c.name}: {c.outcome}: {c.detail[:500]}\n{(c.dir / 'kernel_src.py').read_text()}"
                                 for c in silent[:5])
    for c in cases:
        if c.outcome == "refused":
            assert "kernel_src.py:" in c.detail and "docs/coverage.md" in c.detail
    assert outcomes["invalid"] <= 0.05 * len(cases), outcomes   # (the generators draw what cuTile Python compiles)
    assert outcomes["proven"] >= 0.7 * len(cases), outcomes
