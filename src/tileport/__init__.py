"""tileport: port cuTile Python and Triton tile kernels to cuTile Rust, prove the ports equivalent at the Tile IR
level, and serve them back to PyTorch and Rust."""

__version__ = "0.1.0"

from .ops._backend import current_backend, set_backend  # noqa: E402  (no torch import until an op runs)

__all__ = ["__version__", "current_backend", "install", "rust_launches", "set_backend", "uninstall"]


def install(library=None, *, fallback=None):  # noqa: ANN001, ANN201
    """Run every ``ct.launch`` on the proven Rust ports of a served library (see tileport.runtime.intercept)."""
    from .runtime.intercept import install as _install

    return _install(library, fallback=fallback)


def uninstall() -> None:
    """Give ``ct.launch`` back to cuTile Python."""
    from .runtime.intercept import uninstall as _uninstall

    _uninstall()


def rust_launches(library=None, *, fallback=None):  # noqa: ANN001, ANN201
    """A context manager: ``ct.launch`` runs the Rust ports inside the block (tileport.runtime.intercept)."""
    from .runtime.intercept import rust_launches as _rust_launches

    return _rust_launches(library, fallback=fallback)
