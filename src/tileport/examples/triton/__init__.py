"""Triton kernels of our own that tileport ports to cuTile Rust (the Triton frontend's examples).

Each module holds one ``@triton.jit`` kernel and a host function ``launch(...)`` that picks the grid and tile
sizes from the shapes and calls ``kernel[grid](...)``; the caller allocates the outputs (torch tensors on a GPU,
numpy arrays under ``tileport capture``, where launches are recorded instead of run). Importing them needs the
``triton`` package (CPU-only is enough), nothing else.
"""
#: example module → its @triton.jit kernel (named triton_<module>: the op tileport.ops.triton_<module> serves it)
KERNELS = {m: f"triton_{m}" for m in ("vector_add", "softmax", "rms_norm", "layer_norm", "swiglu", "dropout", "matmul")}
