"""tileport: port cuTile Python and Triton tile kernels to cuTile Rust, prove the ports equivalent at the Tile IR
level, and serve them back to PyTorch and Rust."""

__version__ = "0.1.0"
