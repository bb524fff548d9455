"""Structural Tile IR comparison: parse tileirdisasm text, canonicalize, compare as dataflow graphs."""
