"""Shape facts the host functions read from torch tensors and numpy arrays alike (numpy stands in under capture)."""


def stride(t, dim: int) -> int:
    """Element stride of dimension ``dim``."""
    return t.stride(dim) if callable(getattr(t, "stride", None)) else t.strides[dim] // t.itemsize


def numel(t) -> int:
    return t.numel() if callable(getattr(t, "numel", None)) else int(t.size)
