"""Where the cutile-rs launch overhead goes (GPU host): full launch, Python side only, C call that fails fast."""
import time

import torch

import cuda.tile as ct
from tileport.examples.vector_add import vector_add
from tileport.ops import launch
from tileport.runtime import library

N = 2000
a = torch.randn(1024, device="cuda")
b, c = torch.randn_like(a), torch.empty_like(a)
args = (a, b, c, 1024)


def per_call(fn):
    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(N):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / N * 1e6


s = torch.cuda.current_stream()
print(f"ct.launch                 {per_call(lambda: ct.launch(s, (1, 1, 1), vector_add, args)):8.2f} us")
print(f"ops.launch cutile         {per_call(lambda: launch((1, 1, 1), vector_add, args, backend='cutile')):8.2f} us")
print(f"ops.launch cutile-rs      {per_call(lambda: launch((1, 1, 1), vector_add, args, backend='cutile-rs')):8.2f} us")
print(f"library.launch            {per_call(lambda: library.launch((1, 1, 1), vector_add, args)):8.2f} us")
st = library._states[id(vector_add)]
real = st.fn
st.fn = lambda *x: 0
print(f"python side only          {per_call(lambda: library.launch((1, 1, 1), vector_add, args)):8.2f} us")
st.fn = real
real = library._ensure_library().table(vector_add).fn
import ctypes
from tileport.runtime import abi
c = abi.TpCall(entry=99)
err = ctypes.create_string_buffer(256)
print(f"C call, bad entry         {per_call(lambda: real(ctypes.addressof(c), err, 256)):8.2f} us")
