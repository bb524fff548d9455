"""Differential fuzzing: random kernels over supported constructs, each proven or refused (all of a batch in one
cargo build). CI ports 50 of them (about a minute); the full batch of 200 is marked slow: `./dev test -m slow`."""
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings

from tileport.fuzz import kernels, run_batch


@pytest.mark.parametrize("count", [pytest.param(50, id="ci"), pytest.param(200, marks=pytest.mark.slow, id="full")])
def test_random_kernels_are_proven_or_refused(count, tree, tmp_path):
    drawn: list[tuple[str, str]] = []

    @settings(max_examples=count, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(kernels())
    def collect(k):
        drawn.append(k)

    collect()
    assert len(drawn) >= count
    families = {"atomic" if "ct.atomic" in src else "gather" if "ct.gather" in src else "loop" if "    for " in src
                else "rows" if "BM=" in sig else "elementwise" for src, sig in drawn}
    assert families == {"elementwise", "rows", "loop", "gather", "atomic"}, families  # every family, even at 50
    cases = run_batch(drawn, tmp_path, tree)
    outcomes = Counter(c.outcome for c in cases)
    silent = [c for c in cases if c.outcome not in ("proven", "refused")]
    assert not silent, "\n".join(f"{c.name}: {c.outcome}: {c.detail[:500]}\n{(c.dir / 'kernel_src.py').read_text()}"
                                 for c in silent[:5])
    for c in cases:
        if c.outcome == "refused":
            assert "kernel_src.py:" in c.detail and "docs/coverage.md" in c.detail
    assert outcomes["proven"] >= 0.75 * count, outcomes
