"""Host code for the example kernels: picks tile sizes and grids from the shapes, as a real operator wrapper does.

Run it under `tileport capture -- python host.py` on any machine: with the launches recorded instead of executed it
needs no GPU, and plain numpy arrays stand in for device tensors (any array cuda-tile accepts works the same way).
Run directly on a GPU host it would need device arrays instead (`--device` is not implemented here on purpose:
tests/gpu covers execution).
"""
import sys

import numpy as np

import cuda.tile as ct
from tileport.kernels.bias_act import bias_act
from tileport.examples.gather_rows import gather_rows
from tileport.kernels.matmul import matmul
from tileport.examples.numerics import numerics
from tileport.kernels.persistent_scale import persistent_scale
from tileport.kernels.row_softmax import row_softmax
from tileport.kernels.scale_cast import scale_cast
from tileport.kernels.vector_add import vector_add

NUM_SMS = 132


def next_pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def run(tokens: int, hidden: int) -> None:
    f32, f16, stream = np.float32, np.float16, None
    x = np.ones((tokens, hidden), f32)
    y = np.empty_like(x)
    v = x.reshape(-1)
    w = np.empty_like(v)

    ct.launch(stream, (ct.cdiv(v.shape[0], 1024), 1, 1), vector_add, (v, v, w, 1024))
    h = v.astype(f16)
    ct.launch(stream, (ct.cdiv(h.shape[0], 1024), 1, 1), scale_cast, (h, np.empty_like(h), 0.5, 1024))
    ct.launch(stream, (ct.cdiv(tokens, 4), 1, 1), row_softmax, (x, y, 4, next_pow2(hidden)))  # 4 rows per block
    a, b = x.astype(f16), np.ones((hidden, 256), f16)
    c = np.empty((tokens, 256), f16)
    ct.launch(stream, (ct.cdiv(tokens, 128), ct.cdiv(256, 128), 1), matmul, (a, b, c, 128, 128, 64))
    bias = np.ones(hidden, f32)
    for act in (0, 1, 2):
        ct.launch(stream, (ct.cdiv(tokens, 64), ct.cdiv(hidden, 128), 1), bias_act, (x, bias, y, 64, 128, act))
    idx = np.arange(tokens, dtype=np.int32)[::-1].copy()
    table = np.ones((4 * tokens, 128), f32)
    out = np.empty((tokens, 128), f32)
    ct.launch(stream, (ct.cdiv(tokens, 16), 1, 1), gather_rows, (table, idx, out, tokens, 16, 128))
    ntiles = ct.cdiv(v.shape[0], 1024)
    ct.launch(stream, (min(ntiles, NUM_SMS), 1, 1), persistent_scale, (v, w, 1024))
    cnt = np.zeros(1, np.int32)
    ct.launch(stream, (ct.cdiv(v.shape[0], 256), 1, 1), numerics, (v, w, cnt, 2.0, 3.0, v.shape[0], 256))


if __name__ == "__main__":
    shapes = [(int(t), int(h)) for t, h in (arg.split("x") for arg in sys.argv[1:])] or [(1000, 768), (4096, 1024)]
    for tokens, hidden in shapes:
        run(tokens, hidden)
