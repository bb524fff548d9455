"""PyTorch-facing operators: host wrappers that pick tile sizes and grids, then launch through a backend.

Each op module holds the host wrapper (`tileport.ops.<op>.<op>(...)`), a float64 PyTorch reference and the
specializations its wrapper can launch (`PORT_SIGNATURES`, which the port and the Rust library are built for).
"""
from ._backend import BACKENDS, BackendError, current_backend, launch, set_backend

__all__ = ["BACKENDS", "BackendError", "current_backend", "launch", "set_backend"]
