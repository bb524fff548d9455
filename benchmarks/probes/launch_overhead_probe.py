"""Where the cutile-rs launch overhead goes (GPU host).

µs per call of a 1024-element f32 vector_add, N back-to-back calls synchronized once. The three paths that the
runtime issue compares (ct.launch, tileport.ops.launch through each backend) are measured in ROUNDS interleaved
rounds and reported as the median, since the host's own speed drifts. Then the pieces of the cutile-rs path, the
cost of single Python steps, and — with TILEPORT_TIMERS=1 in the environment — the library's own stage timers.

    python3 benchmarks/probes/launch_overhead_probe.py [--json FILE]
"""
import argparse
import ctypes
import json
import os
import statistics
import time
import timeit

import torch

import cuda.tile as ct
from tileport.kernels.vector_add import vector_add
from tileport.ops import launch
from tileport.runtime import abi, library

N = 2000
ROUNDS = 5
parser = argparse.ArgumentParser()
parser.add_argument("--json", help="write the medians and pieces here")
opts = parser.parse_args()

a = torch.randn(1024, device="cuda")
b, c = torch.randn_like(a), torch.empty_like(a)
args = (a, b, c, 1024)
s = torch.cuda.current_stream()
dev = torch._C._cuda_getDevice()
raw_stream = torch._C._cuda_getCurrentRawStream(dev)


def per_call(fn):
    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(N):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / N * 1e6


def host_state(when):
    """The host's own speed and load next to the numbers (runs on shared hosts drift)."""
    n = 1_000_000
    t0 = time.perf_counter()
    for _ in range(n):
        pass
    loop = (time.perf_counter() - t0) / n * 1e9
    threads = open("/proc/self/status").read().split("Threads:")[1].split()[0]
    print(f"[host {when}: empty loop {loop:.1f} ns/iter, {threads} threads, load {os.getloadavg()[0]:.2f}, "
          f"{len(os.sched_getaffinity(0))} cpus]")


paths = {
    "ct.launch": lambda: ct.launch(s, (1, 1, 1), vector_add, args),
    "ops.launch cutile": lambda: launch((1, 1, 1), vector_add, args, backend="cutile"),
    "ops.launch cutile-rs": lambda: launch((1, 1, 1), vector_add, args, backend="cutile-rs"),
}
host_state("at start")
for fn in paths.values():  # compile and load both sides first
    fn()
samples = {name: [] for name in paths}
for _ in range(ROUNDS):
    for name, fn in paths.items():
        samples[name].append(per_call(fn))
medians = {name: statistics.median(v) for name, v in samples.items()}
print(f"medians of {ROUNDS} interleaved rounds of {N} calls (us per call):")
for name, v in samples.items():
    print(f"  {name:24s} {medians[name]:8.2f}   rounds: {' '.join(f'{x:.2f}' for x in v)}")
ratio = medians["ops.launch cutile-rs"] / medians["ops.launch cutile"]
print(f"  cutile-rs / cutile       {ratio:8.3f}")
host_state("after the rounds")

pieces = {}
st = library._ensure_library().states[id(vector_add)]
native_launch = st.last.native.launch
real = library._ensure_library().table(vector_add).fn
bad = abi.TpCall(entry=99)
err = ctypes.create_string_buffer(256)
for name, fn in {
    "library.launch": lambda: library.launch((1, 1, 1), vector_add, args),
    "native plan.launch only": lambda: native_launch(args, (1, 1, 1), dev, raw_stream),
    "C call (ctypes), bad entry": lambda: real(ctypes.addressof(bad), ctypes.addressof(err), 256),
}.items():
    pieces[name] = per_call(fn)
    print(f"  {name:34s} {pieces[name]:8.2f} us")

steps = {
    "state lookup (+ source recheck)": lambda: library._current_state(vector_add),
    "torch._C._cuda_getDevice()": lambda: torch._C._cuda_getDevice(),
    "_cuda_getCurrentRawStream": lambda: torch._C._cuda_getCurrentRawStream(dev),
    "a.data_ptr()": lambda: a.data_ptr(),
    "a.shape": lambda: a.shape,
    "a.stride()": lambda: a.stride(),
    "a.get_device()": lambda: a.get_device(),
    "empty lambda (baseline)": lambda: None,
}
print("python steps (ns per evaluation, 200k evaluations each):")
for name, fn in steps.items():
    n = 200_000
    pieces[name] = timeit.timeit(fn, number=n) / n * 1e6
    print(f"  {name:34s} {pieces[name] * 1e3:8.0f} ns")

stages = {}
prof = getattr(library._ensure_library().dll, "tileport_profile", None)
if os.environ.get("TILEPORT_TIMERS") == "1" and prof is not None:
    out = (ctypes.c_uint64 * 8)()
    prof.restype = ctypes.c_size_t
    prof(out, 8, True)
    per_call(lambda: library.launch((1, 1, 1), vector_add, args))
    k = prof(out, 8, True)
    calls = max(1, out[0])
    print(f"library stages over {out[0]} calls (us per call):")
    for name, ns in zip(["whole C call", "stream lookup", "specialization key", "cutile launcher + cuLaunchKernel"],
                        out[1:k]):
        stages[name] = ns / calls / 1e3
        print(f"  {name:34s} {stages[name]:8.2f} us")

if opts.json:
    with open(opts.json, "w") as fh:
        json.dump({"calls_per_round": N, "rounds": ROUNDS, "samples_us": samples, "medians_us": medians,
                   "ratio_cutile_rs_over_cutile": ratio, "pieces_us": pieces, "library_stages_us": stages,
                   "timers": os.environ.get("TILEPORT_TIMERS") == "1"}, fh, indent=1)
