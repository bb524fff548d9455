"""Differential fuzzing, CI-sized: 200 random kernels over supported constructs, each proven or refused."""
from collections import Counter

from hypothesis import HealthCheck, given, settings

from tileport.fuzz import kernels, run_batch


def test_random_kernels_are_proven_or_refused(tree, tmp_path):
    drawn: list[tuple[str, str]] = []

    @settings(max_examples=200, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(kernels())
    def collect(k):
        drawn.append(k)

    collect()
    assert len(drawn) >= 200
    cases = run_batch(drawn, tmp_path, tree)
    outcomes = Counter(c.outcome for c in cases)
    silent = [c for c in cases if c.outcome not in ("proven", "refused")]
    assert not silent, "\n".join(f"{c.name}: {c.outcome}: {c.detail[:500]}\n{(c.dir / 'kernel_src.py').read_text()}"
                                 for c in silent[:5])
    for c in cases:
        if c.outcome == "refused":
            assert "kernel_src.py:" in c.detail and "docs/coverage.md" in c.detail
    assert outcomes["proven"] >= 150, outcomes
