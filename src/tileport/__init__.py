"""tileport: port cuTile Python and Triton tile kernels to cuTile Rust, prove the ports equivalent at the Tile IR
level, and serve them back to PyTorch and Rust."""

__version__ = "0.1.0"

from .ops._backend import current_backend, set_backend  # noqa: E402  (no torch import until an op runs)

__all__ = ["__version__", "current_backend", "set_backend"]
