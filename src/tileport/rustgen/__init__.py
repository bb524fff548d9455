"""Rust source and crate generation: the ported module, and the build crate that compiles it to Tile IR."""
