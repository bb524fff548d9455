"""The staged pipelines: port (analyze → translate → build → irdiff) and verify (build → irdiff)."""
