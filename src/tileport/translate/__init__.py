"""cuTile Python → cuTile Rust: the construct table (coverage.py) and the emitter it drives (emit.py)."""
