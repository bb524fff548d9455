"""Host code for the Triton examples: each kernel launched the way its ``launch`` does, at a few shapes.

Run it under `tileport capture -- python host.py` on any machine: the launches are recorded instead of run, so
numpy arrays stand in for device tensors and no GPU is needed (triton is imported, never compiled).
"""
import sys

import numpy as np

from tileport.kernels.triton import attention, dropout, gather, layer_norm, matmul, rms_norm, softmax, swiglu, vector_add


def run(tokens: int, hidden: int, dtype=np.float32) -> None:
    x = np.ones((tokens, hidden), dtype)
    y = np.empty_like(x)
    vector_add.launch(x.reshape(-1), x.reshape(-1), y.reshape(-1))
    swiglu.launch(x.reshape(-1), x.reshape(-1), y.reshape(-1))
    dropout.launch(x.reshape(-1), y.reshape(-1), 1234, 0.1)
    softmax.launch(x, y)
    if dtype == np.float32:  # the port's gather pads with a literal, which cutile 0.3.1 cannot write in 16 bits
        ids = (np.arange(tokens, dtype=np.int32) * 7) % tokens
        gather.launch(x.reshape(-1), ids, y.reshape(-1)[:tokens])
    w, b = np.ones(hidden, dtype), np.zeros(hidden, dtype)
    rms_norm.launch(x, w, y)
    layer_norm.launch(x, w, b, y)
    if dtype != np.float32:
        a, bm = x, np.ones((hidden, 256), dtype)
        matmul.launch(a, bm, np.empty((tokens, 256), dtype))
        q = np.ones((4, tokens, 64), dtype)
        for causal in (False, True):
            attention.launch(q, q, q, np.empty_like(q), 0.125, causal)


if __name__ == "__main__":
    shapes = [(int(t), int(h)) for t, h in (arg.split("x") for arg in sys.argv[1:])] or [(1000, 768), (64, 4096)]
    for tokens, hidden in shapes:
        for dt in (np.float32, np.float16):
            run(tokens, hidden, dt)
