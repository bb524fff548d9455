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
print(f"C call, bad entry         {per_call(lambda: real(ctypes.addressof(c), ctypes.addressof(err), 256)):8.2f} us")

# --- where the Python side goes: each step of library.launch's steady state, timed alone -----------------------
import os
import struct
import timeit

dev = torch._C._cuda_getDevice()
steps = {
    "os.stat(kernel source)": lambda: os.stat(st.source),
    "plan check (scalars, constants)": lambda: st.last.fits_scalars(args),
    "state lookup (+ source recheck)": lambda: library._current_state(vector_add),
    "a.data_ptr()": lambda: a.data_ptr(),
    "a.shape": lambda: a.shape,
    "a.stride()": lambda: a.stride(),
    "a.get_device()": lambda: a.get_device(),
    "a.is_contiguous()": lambda: a.is_contiguous(),
    "a.numel()": lambda: a.numel(),
    "descriptor pack_into": (lambda raw=ctypes.create_string_buffer(4096): library._DESC[1].pack_into(
        raw, 64, 1, 1, 0, 1024, 1)),
    "torch._C._cuda_getDevice()": lambda: torch._C._cuda_getDevice(),
    "_cuda_getCurrentRawStream": lambda: torch._C._cuda_getCurrentRawStream(dev),
    "empty lambda (baseline)": lambda: None,
}
print("python steps (ns per evaluation, 200k evaluations each):")
for name, fn in steps.items():
    n = 200_000
    print(f"  {name:34s} {timeit.timeit(fn, number=n) / n * 1e9:8.0f} ns")

# --- where the library's share goes (TILEPORT_PROFILE=1 in the environment turns the Rust timers on) ------------
prof = getattr(library._ensure_library().dll, "tileport_profile", None)
if os.environ.get("TILEPORT_PROFILE") == "1" and prof is not None:
    out = (ctypes.c_uint64 * 8)()
    prof.restype = ctypes.c_size_t
    prof(out, 8, True)
    per_call(lambda: library.launch((1, 1, 1), vector_add, args))
    k = prof(out, 8, True)
    calls = max(1, out[0])
    print(f"library stages over {out[0]} calls (us per call):")
    for name, ns in zip(["whole C call", "stream lookup", "specialization key", "cutile launcher + cuLaunchKernel"],
                        out[1:k]):
        print(f"  {name:34s} {ns / calls / 1e3:8.2f} us")
