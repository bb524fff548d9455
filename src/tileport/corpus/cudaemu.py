"""Run CUDA host code on a CPU machine: torch's CUDA device answered as a stated target GPU, tensors kept on CPU.

``emulate(target, host_roots)`` is a context manager. While it is active:

* tensors asked for on a CUDA device — ``device="cuda"`` / ``"cuda:0"`` / ``torch.device("cuda")`` given to any
  factory (``torch.empty/zeros/randn/arange/full/tensor/*_like``, ``Tensor.new_*``), ``Tensor.to("cuda")``,
  ``Tensor.cuda()``, ``pin_memory`` — are made on the CPU instead. This is a ``torch.overrides.TorchFunctionMode``
  that rewrites the device arguments of every torch call, so it covers whatever factory the host code uses;
* code under ``host_roots`` (the corpus: its wrappers and tests; not installed packages, the standard library or
  tileport, which may lie below a root: ``installed_code_roots``) sees those tensors as CUDA tensors:
  ``x.is_cuda`` is True, ``x.is_cpu`` False, ``x.device`` is ``cuda:0`` and ``x.get_device()`` 0. Code elsewhere
  (torch itself, tileport's recorder) sees the real CPU device, so torch computes on the CPU as usual;
* ``torch.cuda`` answers as the target: ``is_available()`` True, one device, its name, capability, SM count and
  memory in ``get_device_properties()``; streams, events, CUDA graphs and ``synchronize`` are stand-ins that do
  nothing (an event's ``elapsed_time`` is 1.0 ms, so timing loops stay bounded; a graph's capture runs its body
  once, eagerly, and ``replay`` does nothing); seeding and cache calls are accepted; the allocator's statistics
  (``memory_allocated``, ``max_memory_allocated``, ``memory_stats``, ..) count the tensors made on CUDA from the
  first one asked (``MemoryStats``); ``cudart()``'s calls succeed;
* an allocation larger than ``max_alloc_bytes`` (checked on the meta device before it is made) raises
  ``AllocationTooLarge`` instead of exhausting the machine; each one is noted. So does an allocation that would
  take the process's resident memory over ``max_rss_bytes`` (default: 70% of the machine's memory), and any call
  returning a large tensor (64 MiB or more) after which the process holds more than that — benchmark shapes of
  many GiB each stop their test, not the whole capture (the kernel launched with them is often recorded already);
* a matrix product or attention (``matmul``/``@``/``mm``/``bmm``/``addmm``/``baddbmm``/``linear``/``einsum``/
  ``scaled_dot_product_attention``) costing more than ``max_macs`` multiply-adds — 16- and 8-bit float products
  count 32 times, the CPU computes them that much slower — is not computed: its result is an uninitialized tensor
  of the shape, dtype and strides the op would return (read on the meta device), and when an input requires grad,
  its backward gives uninitialized gradients of the inputs' shapes, so a test's backward pass still runs. These are
  the tests' reference computations; the kernels are not run either, so nothing is compared that could pass;
* with ``compare_pass`` (the default), numeric comparisons answer "close": ``torch.isclose`` is all True,
  ``torch.allclose`` True, ``torch.equal`` True for equal shapes (so ``torch.testing.assert_close`` passes). The
  kernels did not run, so their outputs cannot match; on the target GPU these tests pass, and answering so keeps a
  test on the path it takes there, on to its later launches (a backward pass after a forward check).

* beside ``torch.cuda`` (``_torch_patches``): ``torch.compile`` returns its function or module as is (it runs
  eagerly: dynamo and inductor ask the driver; compiled code launches the kernels its eager form launches); a custom
  op's kernel registered for CUDA (``custom_op(.., device_types="cuda")``, ``Library.impl(.., "CUDA")``) serves the
  CPU tensors too, over the op's own CPU kernel; ``torch.load`` maps CUDA storage (``map_location="cuda"``, tensors
  saved on a GPU) to the CPU; autocast on ``"cuda"`` is the CPU's autocast (so a region's dtypes reach the kernels'
  arguments as on the GPU); ``Tensor.record_stream`` of an emulated stream does nothing; ``pin_memory()`` tensors
  answer ``is_pinned()``; torch.cuda's legacy tensor types (``torch.cuda.FloatTensor(n)``, ``x.type(..)``,
  ``isinstance``), the names torch.cuda re-exports asked from its submodules (``torch.cuda.streams.Stream``),
  ``torch.Stream`` / ``torch.Event`` on CUDA, ``x.__cuda_array_interface__``, nn.DataParallel / DDP over the one
  device, the allocator's memory history, and a CPU-only build's "no CUDA here" answers are the GPU's too;
* the tensors a launch is given (``kernel_args``), and tensors of up to ``FOLLOWED_ELEMENTS`` computed from them,
  are what the kernels (not run) would write: the host code's reads of their values (``.item()``, ``.tolist()``, ``int(t)``, a truth test) are
  counted by file:line in ``output_reads`` — launches sized or decided by them may differ from the GPU's;
* host code torch calls from C++ while it answers an op (torch takes a function mode off the stack while its
  handler runs) runs with the mode entered again (``_reentry_patches``): a custom op's kernel, the whole backward
  pass (an ``autograd.Function``'s backward, registered backwards, tensor / grad_fn / module hooks), a Function's
  ``jvp``, saved-tensor hooks, higher-order ops' branches (``torch.cond``), a host's ``TorchDispatchMode`` and
  tensor subclass ``__torch_dispatch__`` see CUDA as the forward does.

Everything is restored on exit. ``Emulation.notes`` lists what was answered, for the caller to print.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import os
import sys
import threading
import types
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

GiB = 1 << 30
MiB = 1 << 20


#: per architecture: (max opt-in shared memory per block in bytes, 32-bit registers per SM, SM clock kHz,
#: memory clock kHz, memory bus width bits) — CUDA's published limits for the compute capability; the clocks are
#: the H100/H200 SXM's boost and HBM figures (nothing here times anything with them)
ARCH_LIMITS: dict[tuple[int, int], tuple[int, int, int, int, int]] = {
    (9, 0): (232448, 65536, 1980000, 2619000, 5120),
    (10, 0): (232448, 65536, 1965000, 3996000, 8192),
    (8, 0): (166912, 65536, 1410000, 1593000, 5120),
}


@dataclass(frozen=True)
class Target:
    """A GPU as torch.cuda reports it."""

    key: str
    name: str
    major: int
    minor: int
    sms: int
    total_memory: int        # bytes, as get_device_properties(...).total_memory
    l2_cache: int            # bytes
    source: str              # where the numbers come from

    @property
    def arch(self) -> str:
        return f"sm_{self.major}{self.minor}"

    def describe(self) -> str:
        return (f"{self.name} ({self.arch}, {self.sms} SMs, {self.total_memory // MiB} MiB = "
                f"{self.total_memory / GiB:.1f} GiB, L2 {self.l2_cache // MiB} MiB)")


TARGETS: dict[str, Target] = {
    "h200": Target("h200", "NVIDIA H200", 9, 0, 132, 143771 * MiB, 50 * MiB,
                   "the project's H200 (benchmarks/results/h200/verification/host.txt: 143771 MiB); 132 SMs, 50 MiB L2"),
    "h100": Target("h100", "NVIDIA H100 80GB HBM3", 9, 0, 132, 81559 * MiB, 50 * MiB,
                   "H100 SXM5 data sheet: 132 SMs, 80 GB HBM3, 50 MiB L2"),
}


def parse_target(text: str) -> Target:
    """``h200`` / ``h100``, or ``NAME:sm_XY:SMS:MEM_GB`` for another GPU (e.g. ``B200:sm_100:148:180``)."""
    if text.lower() in TARGETS:
        return TARGETS[text.lower()]
    parts = text.split(":")
    if len(parts) == 4 and parts[1].startswith("sm_") and parts[1][3:].isdigit() and parts[2].isdigit():
        cc = parts[1][3:]
        try:
            mem = float(parts[3])
        except ValueError:
            mem = -1.0
        if mem > 0 and len(cc) >= 2:
            return Target(parts[0].lower(), parts[0], int(cc[:-1]), int(cc[-1]), int(parts[2]), int(mem * 1e9),
                          50 * MiB, "given on the command line (L2 assumed 50 MiB)")
    from ..errors import InputError

    raise InputError(f"--target {text!r}: expected one of {', '.join(TARGETS)} or NAME:sm_XY:SMS:MEM_GB "
                     "(for example B200:sm_100:148:180)")


class AllocationTooLarge(MemoryError):
    """The host code asked for a tensor larger than the emulation's cap (the test is cut there)."""


class DeviceProperties:
    """What ``torch.cuda.get_device_properties`` returns, for the target."""

    def __init__(self, t: Target):
        self.name = t.name
        self.major, self.minor = t.major, t.minor
        self.multi_processor_count = t.sms
        self.total_memory = t.total_memory
        self.L2_cache_size = t.l2_cache
        self.is_integrated = 0
        self.is_multi_gpu_board = 0
        self.max_threads_per_multi_processor = 2048
        self.max_threads_per_block = 1024
        self.warp_size = 32
        self.shared_memory_per_block = 48 * 1024
        self.shared_memory_per_block_optin = 227 * 1024
        self.shared_memory_per_multiprocessor = 228 * 1024
        _smem, self.regs_per_multiprocessor, self.clock_rate, self.memory_clock_rate, self.memory_bus_width = \
            ARCH_LIMITS.get((t.major, t.minor), ARCH_LIMITS[(9, 0)])
        self.uuid = "00000000-0000-0000-0000-000000000000"
        self.pci_bus_id = self.pci_device_id = self.pci_domain_id = 0
        self.gcnArchName = ""

    def __repr__(self) -> str:
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // MiB}MB, multi_processor_count={self.multi_processor_count}, "
                f"L2_cache_size={self.L2_cache_size // MiB}MB)")


class MemoryStats:
    """torch.cuda's allocator statistics while emulating (``memory_allocated``, ``max_memory_allocated``,
    ``memory_reserved``, ``memory_stats``, ``reset_peak_memory_stats``, ``mem_get_info``'s free memory): host code
    asserting that an output was allocated, that a loop leaks nothing or that the peak stayed under a budget read 0
    before, and its later launches were lost. Counting starts when host code first asks for a statistic (from then on
    each op's result is looked at, a cost the host code that never asks does not pay): a tensor made on CUDA (a
    factory given the CUDA device, or torch's default device CUDA; ``.to("cuda")``, ``.cuda()``) and a new storage an
    op computes from such tensors is an allocation of its bytes rounded up to 512 (the caching allocator's smallest
    block), freed when the storage's last tensor is. Reserved memory grows to cover what is allocated, in 2 MiB
    segments, and shrinks at ``empty_cache()``. Tensors made before counting started are not counted."""

    BLOCK = 512
    SEGMENT = 2 * MiB
    SMALL = MiB

    def __init__(self) -> None:
        self.active = False
        self.sizes: dict[int, int] = {}     # storage data pointer → bytes counted
        self.stats: dict[str, int] = {}
        self.reset_all()

    def reset_all(self) -> None:
        for kind in ("allocation", "allocated_bytes", "reserved_bytes", "segment", "active", "active_bytes",
                     "requested_bytes", "inactive_split", "inactive_split_bytes"):
            for pool in ("all", "large_pool", "small_pool"):
                for what in ("current", "peak", "allocated", "freed"):
                    self.stats[f"{kind}.{pool}.{what}"] = 0
        for name in ("num_alloc_retries", "num_ooms", "num_sync_all_streams", "num_device_alloc", "num_device_free",
                     "oversize_allocations.current", "oversize_allocations.peak", "oversize_allocations.allocated",
                     "oversize_allocations.freed", "oversize_segments.current", "oversize_segments.peak",
                     "oversize_segments.allocated", "oversize_segments.freed"):
            self.stats[name] = 0
        self.stats["max_split_size"] = -1

    def start(self) -> None:
        self.active = True

    def _bump(self, key: str, delta: int) -> None:
        st = self.stats
        st[key + ".current"] += delta
        st[key + (".allocated" if delta > 0 else ".freed")] += abs(delta)
        st[key + ".peak"] = max(st[key + ".peak"], st[key + ".current"])

    def _count(self, n: int, sign: int) -> None:
        pool = "small_pool" if n <= self.SMALL else "large_pool"
        for p in ("all", pool):
            for kind, delta in (("allocation", 1), ("active", 1), ("allocated_bytes", n), ("active_bytes", n),
                                ("requested_bytes", n)):
                self._bump(f"{kind}.{p}", sign * delta)
        need = -(-self.stats["allocated_bytes.all.current"] // self.SEGMENT) * self.SEGMENT
        if need > self.stats["reserved_bytes.all.current"]:
            self._reserve(need - self.stats["reserved_bytes.all.current"])

    def _reserve(self, delta: int) -> None:
        for p in ("all", "large_pool"):
            self._bump(f"reserved_bytes.{p}", delta)
            self._bump(f"segment.{p}", 1 if delta > 0 else -1)

    def add(self, t: Any) -> None:
        """``t`` is on the emulated CUDA device: its storage, when new, is an allocation."""
        import weakref

        try:
            st = t.untyped_storage()
            ptr, nbytes = st.data_ptr(), st.nbytes()
        except Exception:  # noqa: BLE001 — no storage (meta, a subclass)
            return
        if not ptr or ptr in self.sizes:
            return
        n = -(-nbytes // self.BLOCK) * self.BLOCK
        self.sizes[ptr] = n
        self._count(n, +1)
        weakref.finalize(st, self._free, ptr).atexit = False

    def _free(self, ptr: int) -> None:
        n = self.sizes.pop(ptr, None)
        if n is not None:
            self._count(n, -1)

    def holds(self, t: Any) -> bool:
        try:
            return t.untyped_storage().data_ptr() in self.sizes
        except Exception:  # noqa: BLE001
            return False

    def reset_peak(self) -> None:
        for k in self.stats:
            if k.endswith(".peak"):
                self.stats[k] = self.stats[k[:-len(".peak")] + ".current"]

    def reset_accumulated(self) -> None:
        for k in self.stats:
            if k.endswith((".allocated", ".freed")) or k.startswith("num_"):
                self.stats[k] = 0

    def empty_cache(self) -> None:
        cur = self.stats["reserved_bytes.all.current"]
        need = -(-self.stats["allocated_bytes.all.current"] // self.SEGMENT) * self.SEGMENT
        if cur > need:
            self._reserve(need - cur)

    def get(self, key: str) -> int:
        self._asked()
        return self.stats[key]

    def snapshot(self) -> dict[str, int]:
        self._asked()
        return dict(self.stats)

    #: set when the capture's own machinery may have left the host's tensors in reference cycles (Triton's
    #: interpreter, run after a Triton launch, keeps the launch's storages in its nested functions' closures until the
    #: garbage collector runs: `del out` gave nothing back where the GPU's allocator frees at once)
    collect_first: bool = False

    def _asked(self) -> None:
        self.start()
        if self.collect_first:
            import gc

            self.collect_first = False
            gc.collect()


class FakeEvent:
    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False,
                 **_kw: Any):
        self.enable_timing = enable_timing

    def record(self, stream: Any = None) -> None:
        return None

    def wait(self, stream: Any = None) -> None:
        return None

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        return None

    def elapsed_time(self, end: Any) -> float:
        return 1.0


class FakeStream:
    """``torch.cuda.Stream`` / ``current_stream()``: a stream handle of 0 whose operations do nothing."""

    def __init__(self, device: Any = None, priority: int = 0, **_kw: Any):
        import torch

        self.device = torch.device("cuda", 0)
        self.device_index = 0
        self.device_type = 1  # DeviceType.CUDA
        self.priority = priority
        self.cuda_stream = 0
        self.stream_id = 0

    @staticmethod
    def priority_range() -> tuple[int, int]:
        """(least, greatest) priority torch supports on CUDA: (0, -3) (CUDA's (0, -5) on sm_80+, clamped to
        torch's four priorities)."""
        return (0, -3)

    def synchronize(self) -> None:
        return None

    def query(self) -> bool:
        return True

    def wait_stream(self, stream: Any) -> None:
        return None

    def wait_event(self, event: Any) -> None:
        return None

    def record_event(self, event: Any = None) -> FakeEvent:
        return event if event is not None else FakeEvent()

    def __enter__(self) -> "FakeStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FakeStream)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "<torch.cuda.Stream device=cuda:0 cuda_stream=0x0 (emulated)>"


class FakeMemPool:
    """``torch.cuda.MemPool()`` while emulating: a pool allocations are routed to inside ``use_mem_pool(pool)`` (they
    are the CPU's here); its id is unique, its snapshot empty (it asked the driver for a CUDA allocator)."""

    _next = 1

    def __init__(self, allocator: Any = None, use_on_oom: bool = False, *_a: Any, **_kw: Any):
        self.allocator, self.use_on_oom = allocator, use_on_oom
        self._id = (0, FakeMemPool._next)
        FakeMemPool._next += 1

    @property
    def id(self) -> tuple[int, int]:   # noqa: A003 — torch's name
        return self._id

    def use_count(self) -> int:
        return 1

    def snapshot(self, include_traces: bool = True) -> list:   # noqa: ARG002
        return []


class _RawAllocations:
    """``torch.cuda.caching_allocator_alloc(size)`` / ``caching_allocator_delete(ptr)`` while emulating: the bytes
    are a CPU buffer held until deleted; the pointer is its address."""

    def __init__(self) -> None:
        self.held: dict[int, Any] = {}

    def alloc(self, size: int, device: Any = None, stream: Any = None) -> int:   # noqa: ARG002
        import torch

        buf = torch.empty(max(int(size), 1), dtype=torch.uint8, device="cpu")
        self.held[buf.data_ptr()] = buf
        return buf.data_ptr()

    def delete(self, mem_ptr: int) -> None:
        self.held.pop(int(mem_ptr), None)


class FakeGraph:
    """``torch.cuda.CUDAGraph``: capture runs the body once, eagerly (see ``graph``); replay does nothing."""

    def __init__(self, *a: Any, **kw: Any):
        pass

    def capture_begin(self, *a: Any, **kw: Any) -> None:
        return None

    def capture_end(self) -> None:
        return None

    def replay(self) -> None:
        return None

    def reset(self) -> None:
        return None

    def pool(self) -> tuple[int, int]:
        return (0, 0)

    def enable_debug_mode(self) -> None:
        return None


class _NullContext:
    """Stand-in for context-manager classes/functions of torch.cuda (device, stream, graph, nvtx ranges)."""

    def __init__(self, *a: Any, **kw: Any):
        pass

    def __enter__(self) -> "_NullContext":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None


def _new_noop() -> Any:
    """A do-nothing function, a new one for each patched name (torch._dynamo's rule table, built on first use,
    refuses one object under two names)."""
    def noop(*_a: Any, **_kw: Any) -> None:
        return None
    return noop


#: torch factories that allocate: their size is checked on the meta device before the real call
_FACTORIES = {"empty", "zeros", "ones", "full", "rand", "randn", "randint", "randperm", "empty_strided", "arange",
              "linspace", "logspace", "eye", "normal", "empty_like", "zeros_like", "ones_like", "full_like",
              "rand_like", "randn_like", "randint_like", "new_empty", "new_zeros", "new_ones", "new_full",
              "new_empty_strided", "tensor", "as_tensor"}
_SIZED_FACTORIES = _FACTORIES - {"tensor", "as_tensor"}
#: factories that take their device from torch's default device when given none (torch.utils._device's
#: `_device_constructors`, by name)
_DEFAULT_DEVICE_FACTORIES = {"empty", "zeros", "ones", "full", "rand", "randn", "randint", "randperm", "empty_strided",
                             "arange", "linspace", "logspace", "eye", "tensor", "as_tensor", "scalar_tensor",
                             "asarray", "range", "empty_permuted", "tril_indices", "triu_indices", "bartlett_window",
                             "blackman_window", "hamming_window", "hann_window", "kaiser_window", "fft_fftfreq",
                             "fft_rfftfreq"}


#: torch functions that make a tensor from the data they are given (torch's `internal_new_from_data`)
_FROM_DATA = {"tensor", "as_tensor", "asarray"}


def _host_cuda_array(obj: Any) -> bool:
    """A numpy array speaking ``__cuda_array_interface__``: the capture's CuPy stand-in's arrays (cupyemu), which
    are host memory."""
    return any(c.__module__ == "numpy" and c.__name__ == "ndarray" for c in type(obj).__mro__) and \
        hasattr(type(obj), "__cuda_array_interface__")


def _is_cuda_device(d: Any) -> bool:
    import torch

    if isinstance(d, torch.device):
        return d.type == "cuda"
    if isinstance(d, str):
        return d == "cuda" or d.startswith("cuda:")
    # a bare device index (`device=torch.cuda.current_device()`, `x.to(local_rank)`): torch reads it as the CUDA
    # device of that index
    return isinstance(d, int) and not isinstance(d, bool) and d >= 0


@dataclass
class Emulation:
    target: Target
    host_roots: tuple[str, ...]
    max_alloc_bytes: int
    max_macs: float = 2e9
    compare_pass: bool = True
    answered: dict[str, int] = field(default_factory=dict)     # comparison name → times answered "close"
    notes: list[str] = field(default_factory=list)        # what was answered, once each
    uncomputed: dict[str, int] = field(default_factory=dict)   # op name → times its result was not computed
    refused: list[str] = field(default_factory=list)      # allocations refused (size, where)
    max_rss_bytes: int = field(default_factory=lambda: default_rss_budget())
    #: folders whose code is never host code, even under a host root (installed packages, the standard library,
    #: tileport itself): a project with its virtualenv inside it, or a capture run from a folder above one
    host_excludes: tuple[str, ...] = field(default_factory=lambda: installed_code_roots())
    _seen: set[str] = field(default_factory=set)
    #: a host callback torch calls from C++ (a custom op's kernel, a backward) run with the emulation's mode
    #: (``_reentering``; set by ``emulate``)
    reenter: Callable[[Any], Any] = field(default=lambda fn: fn)
    #: tensors made pinned (`pin_memory()`, `pin_memory=True`) by id, held weakly: `is_pinned()` answers for them
    pinned: Any = field(default_factory=lambda: __import__("weakref").WeakValueDictionary())
    #: storages a kernel launch was given (by data pointer, a tensor of it held weakly) and tensors computed from
    #: them: what the kernels (not run) would have written
    kernel_storages: Any = field(default_factory=lambda: __import__("weakref").WeakValueDictionary())
    #: the host code's reads of such values (`.item()`, `.tolist()`, `int(t)`, `if t:`): "FILE:LINE: how" → count
    output_reads: dict[str, int] = field(default_factory=dict)
    #: child processes the host code started (their launches are not recorded): "FILE:LINE: how" → count
    children: dict[str, int] = field(default_factory=dict)

    #: the allocator's statistics host code reads (MemoryStats)
    memory: MemoryStats = field(default_factory=MemoryStats)

    #: set at the first launch: from then on, tensors computed from kernel outputs are followed (the torch function
    #: mode's cost per op, doubled by it, is paid only by host code that launches)
    tracking: bool = False

    def kernel_args(self, values: Any) -> None:
        """A launch was given ``values`` (its arguments): their tensors' storages hold what the kernel writes."""
        for t in _tensors(list(values)):
            self._taint(t)

    def _taint(self, t: Any) -> None:
        try:
            ptr = t.untyped_storage().data_ptr()
        except Exception:  # noqa: BLE001 — a tensor without storage (meta, a subclass)
            return
        if ptr and ptr not in self.kernel_storages:   # (a view of a tainted storage: already so)
            self.kernel_storages[ptr] = t
            self.tracking = True

    def _from_tainted(self, args: tuple, kwargs: dict) -> bool:
        """Is a tensor among an op's arguments (or in a list / tuple of them) one a kernel wrote?"""
        return _some_tensor(args, kwargs, self._tainted)

    def _tainted(self, t: Any) -> bool:
        try:
            ptr = t.untyped_storage().data_ptr()
        except Exception:  # noqa: BLE001
            return False
        return bool(ptr) and self.kernel_storages.get(ptr) is not None

    def read_back(self, how: str) -> None:
        """The host code read a kernel's output (``how``): noted with the host code's line."""
        where = self.host_line()
        key = f"{where}: {how} of a tensor a kernel launch was given"
        self.output_reads[key] = self.output_reads.get(key, 0) + 1

    def calling_host(self) -> str | None:
        """FILE:LINE of the first caller outside installed code (torch, the standard library, tileport), when that
        caller is host code; else None (a library's own call, made as it is imported by the host code, say)."""
        f = sys._getframe(1)
        while f is not None and (_frame_file(f).startswith(self.host_excludes) or
                                 os.path.realpath(_frame_file(f)).startswith(self.host_excludes)):
            f = f.f_back
        fn = _frame_file(f) if f is not None else ""
        if not fn.startswith(self.host_roots) or fn.startswith(self.host_excludes):
            return None
        return self._place(f)

    def host_line(self) -> str:
        """FILE:LINE of the innermost host-code frame calling in (relative to its host root), or '?'."""
        f = sys._getframe(1)
        while f is not None:
            fn = _frame_file(f)
            if fn.startswith(self.host_roots) and not fn.startswith(self.host_excludes):
                return self._place(f)
            f = f.f_back
        return "?"

    def _place(self, f: Any) -> str:
        """FILE:LINE of the host-code frame ``f``, FILE relative to the host root it lies under."""
        fn = _frame_file(f)
        root = max((r for r in self.host_roots if fn.startswith(r)), key=len)
        if fn != f.f_code.co_filename:   # (code compiled from a string: its own name, in the module that ran it)
            return f"{fn[len(root):]}:{f.f_code.co_filename}:{f.f_lineno}"
        return f"{fn[len(root):]}:{f.f_lineno}"

    def note(self, msg: str) -> None:
        if msg not in self._seen:
            self._seen.add(msg)
            self.notes.append(msg)

    def assumptions(self) -> list[str]:
        t = self.target
        return [
            f"torch.cuda answered as {t.describe()}: is_available() True, 1 device, capability "
            f"({t.major}, {t.minor}), get_device_properties().multi_processor_count {t.sms} ({t.source})",
            "tensors asked for on cuda / cuda:0 are made on the CPU; corpus code sees them as cuda:0 "
            "(is_cuda True, device cuda:0)",
            "streams, events and CUDA graphs are stand-ins that do nothing (event elapsed_time: 1.0 ms; a graph "
            "capture runs its body once)",
            f"allocations above {self.max_alloc_bytes / GiB:g} GiB are refused (the test stops there); above the "
            f"target's {t.total_memory / GiB:.1f} GiB on CUDA, with CUDA's out-of-memory error (torch.OutOfMemoryError)",
            f"matrix products / attention above {self.max_macs / 1e9:g} G multiply-adds (16/8-bit floats count "
            "32x) are not computed: uninitialized results of the right shape, gradients too",
        ] + (["numeric comparisons answer 'close' (torch.isclose/allclose/equal, so testing.assert_close passes): "
              "the kernels did not run; a test goes on as it does on the GPU, to its later launches"]
             if self.compare_pass else [])

    def host_code(self, fn: Any) -> bool:
        """Is function ``fn`` (unwrapped) defined in host code?"""
        code = getattr(inspect.unwrap(fn), "__code__", None) if callable(fn) else None
        name = code.co_filename if code is not None else ""
        return name.startswith(self.host_roots) and not name.startswith(self.host_excludes)

    def from_host(self, depth: int = 2) -> bool:
        """Is the frame ``depth`` levels up (the code that touched the tensor) under one of the host roots?"""
        try:
            f = sys._getframe(depth)
        except ValueError:
            return False
        # (a torch function mode pushed over this one — `with torch.device("cuda"):`'s DeviceContext, a host's own
        # mode — handles the call first and passes it on: the code that touched the tensor is its caller)
        while f.f_code.co_name == "__torch_function__" and f.f_back is not None:
            f = f.f_back
        fn = _frame_file(f)
        return fn.startswith(self.host_roots) and not fn.startswith(self.host_excludes)


def _frame_file(f: Any) -> str:
    """The file of frame ``f``'s code; for code compiled from a string (a doctest example, `<doctest pkg.mod.fn[2]>`,
    run in a copy of its module's globals; `exec(src, module.__dict__)`; `<string>`), the file of the module whose
    globals it runs in, so that a host module's examples are host code as its functions are."""
    fn = f.f_code.co_filename
    if fn.startswith("<") and not fn.startswith("<frozen"):
        owner = f.f_globals.get("__file__")
        if isinstance(owner, str):
            return owner
    return fn


def installed_code_roots() -> tuple[str, ...]:
    """The folders of installed code: site-packages, the standard library, tileport's own package."""
    import site
    import sysconfig

    dirs = {sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    try:
        dirs.update(site.getsitepackages())
    except AttributeError:  # (a virtualenv's old site.py)
        pass
    dirs.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # tileport/
    out: list[str] = []
    for d in sorted(x for x in dirs if x):
        for form in (os.path.realpath(d), os.path.abspath(d)):
            out.append(os.path.join(form, ""))
    return tuple(dict.fromkeys(out))


#: results of at most this many elements computed from a kernel's output are followed (Emulation.kernel_args): what
#: host code sizes launches by is small (counts, offsets, totals); a large result is a comparison's or a reference's
FOLLOWED_ELEMENTS = 1 << 16

#: the share of the machine's memory the capture's process may hold (Emulation.max_rss_bytes)
RSS_SHARE = 0.7
#: results at least this large are followed by a check of the process's resident memory
LARGE_RESULT_BYTES = 64 * MiB


def default_rss_budget() -> int:
    try:
        return int(RSS_SHARE * os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return 0   # unknown: no budget


def resident_bytes() -> int:
    """This process's resident memory (Linux /proc/self/statm; 0 where there is none)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _where(depth: int) -> str:
    try:
        f = sys._getframe(depth)
    except ValueError:
        return "?"
    return f"{os.path.basename(f.f_code.co_filename)}:{f.f_lineno}"


def _mode_class(emu: Emulation) -> type:
    import torch
    from torch.overrides import TorchFunctionMode

    base = torch._C.TensorBase.__dict__
    is_cuda_d, is_cpu_d, device_d = base["is_cuda"], base["is_cpu"], base["device"]
    get_device = torch.Tensor.get_device
    type_fn = torch.Tensor.type
    cai = torch.Tensor.__dict__["__cuda_array_interface__"]   # (a property: its __get__ is made anew each time)
    to_fns = {torch.Tensor.to}
    cuda_fns = {torch.Tensor.cuda}
    pin_fns = {torch.Tensor.pin_memory}
    pinned_fns = {torch.Tensor.is_pinned}
    #: reads of a tensor's values into Python (what host code sizes or decides the next launch by)
    read_fns = {torch.Tensor.item: ".item()", torch.Tensor.tolist: ".tolist()", torch.Tensor.numpy: ".numpy()",
                torch.Tensor.__bool__: "a truth test", torch.Tensor.__int__: "int()", torch.Tensor.__float__: "float()",
                torch.Tensor.__index__: "an index"}
    cuda0 = torch.device("cuda", 0)
    try:
        from torch._ops import HigherOrderOperator
    except ImportError:   # (an older torch: no higher-order ops)
        HigherOrderOperator = ()   # noqa: N806
    plain_functions = (types.FunctionType, types.MethodType, functools.partial)   # (the handler's `types` is torch's)

    class CudaOnCpu(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001 — torch's protocol
            kwargs = dict(kwargs) if kwargs else {}
            owner = getattr(func, "__self__", None)
            if owner is is_cuda_d or owner is is_cpu_d or owner is device_d:
                real = func(*args, **kwargs)
                if not emu.from_host():
                    return real
                if owner is device_d:
                    return cuda0 if real.type == "cpu" else real
                if owner is is_cuda_d:
                    return real or args[0].device.type == "cpu"
                return False
            if func is get_device and emu.from_host():
                return 0
            if func is type_fn:   # x.type() / x.type(torch.cuda.HalfTensor) / x.type("torch.cuda.FloatTensor")
                return _legacy_type_call(func, args, kwargs, emu.from_host())
            if owner is cai and emu.calling_host() is not None:
                return _cuda_array_interface(args[0])
            if isinstance(func, HigherOrderOperator):
                # torch.cond / while_loop / map run the host's branch functions (or torch's wrappers of them) inside
                # this call, with this mode off the stack (as the backward, _reentry_patches): entered again there
                args = tuple(emu.reenter(a) if isinstance(a, plain_functions) else a for a in args)
            if func in cuda_fns:  # x.cuda(device=None, non_blocking=False, memory_format=...)
                emu.note("Tensor.cuda() keeps the tensor on the CPU")
                kw = {k: v for k, v in kwargs.items() if k in ("non_blocking", "memory_format")}
                moved = torch.Tensor.to(args[0], "cpu", **kw)
                if emu.memory.active:
                    emu.memory.add(moved)
                return moved
            if func in pin_fns:   # pinned host memory needs the driver: the tensor itself, answering is_pinned()
                emu.pinned[id(args[0])] = args[0]
                return args[0]
            if func in pinned_fns:
                return emu.pinned.get(id(args[0])) is args[0]
            reads = emu.tracking and func in read_fns
            if reads and args and isinstance(args[0], torch.Tensor) and emu._tainted(args[0]) and emu.from_host():
                emu.read_back(read_fns[func])
            pin = bool(kwargs.get("pin_memory"))
            if pin:
                kwargs["pin_memory"] = False
            dev = kwargs.get("device")
            on_cuda = False
            if dev is not None and _is_cuda_device(dev):
                kwargs["device"] = "cpu"
                on_cuda = True
            elif dev is None and getattr(func, "__name__", "") in _DEFAULT_DEVICE_FACTORIES and \
                    _is_cuda_device(_default_device()):
                # torch.set_default_device("cuda") / `with torch.device("cuda"):` (whose mode may run after this
                # one and add device="cuda" itself)
                kwargs["device"] = "cpu"
                on_cuda = True
            if func in to_fns and any(_is_cuda_device(a) for a in (*args[1:], kwargs.get("device"))):
                args = tuple("cpu" if _is_cuda_device(a) else a for a in args)
                on_cuda = True
            name = getattr(func, "__name__", "")
            if name in _FROM_DATA and args and _host_cuda_array(args[0]):
                # `torch.as_tensor(cupy_array, device="cuda")`: torch reads a `__cuda_array_interface__` before
                # numpy's and asks the driver for its pointer; the capture's CuPy arrays are host memory, read as
                # the numpy arrays they are (shared, as the device's pointer is)
                args = (args[0].view(next(c for c in type(args[0]).__mro__ if c.__module__ == "numpy")), *args[1:])
            if name in _SIZED_FACTORIES and emu.max_alloc_bytes > 0:
                self._check_size(func, name, args, kwargs, on_cuda)
            if name in _COMPARISONS and emu.compare_pass:
                answer = _answer_close(emu, name, args, kwargs)
                if answer is not None:
                    return answer
            if name in _HEAVY and emu.max_macs > 0 and "out" not in kwargs:
                skipped = _uncomputed(emu, func, name, args, kwargs)
                if skipped is not None:
                    return skipped
            if name == "scaled_dot_product_attention" and not (torch.backends.cuda.flash_sdp_enabled() or
                                                               torch.backends.cuda.math_sdp_enabled()):
                # `with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION / CUDNN_ATTENTION):` (a test's reference): the
                # CPU has only the flash and math backends ("No viable backend"): the math one computes it
                emu.note("scaled_dot_product_attention under CUDA-only backends (efficient, cuDNN): computed by the "
                         "CPU's math backend")
                torch.backends.cuda.enable_math_sdp(True)
                try:
                    return func(*args, **kwargs)
                finally:
                    torch.backends.cuda.enable_math_sdp(False)
            result = func(*args, **kwargs)
            if pin and isinstance(result, torch.Tensor):
                emu.pinned[id(result)] = result
            if emu.memory.active and (on_cuda or _on_counted(emu.memory, args, kwargs)):
                for t in _tensors(result if isinstance(result, (list, tuple)) else [result]):
                    emu.memory.add(t)   # (a storage counted already — a view, an in-place op's — is not again)
            if emu.tracking and not reads and isinstance(result, torch.Tensor) and \
                    result.numel() <= FOLLOWED_ELEMENTS and emu._from_tainted(args, kwargs):
                emu._taint(result)   # computed from a kernel's output (counts.sum(), idx.cpu(), x[mask])
            if emu.max_rss_bytes > 0 and isinstance(result, torch.Tensor) and \
                    result.numel() * result.element_size() >= LARGE_RESULT_BYTES:
                self._check_resident(name, 0, "after", result, 3)
            return result

        def _check_resident(self, name: str, adding: int, when: str, t: Any, depth: int) -> None:
            held = resident_bytes()
            if held + adding > emu.max_rss_bytes:
                msg = (f"torch.{name} of {tuple(t.shape)} {str(t.dtype).removeprefix('torch.')} at {_where(depth)}: "
                       f"the process would hold {(held + adding) / GiB:.1f} GiB {when} it, over the capture's "
                       f"{emu.max_rss_bytes / GiB:.1f} GiB budget (--max-memory-gb; default {RSS_SHARE:.0%} of memory)")
                emu.refused.append(msg)
                raise AllocationTooLarge(f"refused: {msg}")

        def _check_size(self, func, name, args, kwargs, on_cuda: bool = False) -> None:  # noqa: ANN001
            try:
                meta = func(*args, **{**kwargs, "device": "meta"})
            except Exception:  # noqa: BLE001 — the real call will raise what it raises
                return
            if not isinstance(meta, torch.Tensor):
                return
            nbytes = meta.numel() * meta.element_size()
            total = emu.target.total_memory
            if on_cuda and nbytes > total:
                # more than the target GPU holds: CUDA's own out-of-memory error, which host code probing for the
                # largest size that fits catches (`except torch.cuda.OutOfMemoryError:`) to go on smaller
                msg = (f"torch.{name} of {tuple(meta.shape)} {str(meta.dtype).removeprefix('torch.')} "
                       f"({nbytes / GiB:.1f} GiB) at {_where(3)}")
                emu.refused.append(f"{msg}: over the target's {total / GiB:.1f} GiB (torch.OutOfMemoryError, as CUDA)")
                raise torch.OutOfMemoryError(
                    f"CUDA out of memory. Tried to allocate {nbytes / GiB:.2f} GiB. GPU 0 has a total capacity of "
                    f"{total / GiB:.2f} GiB (emulated {emu.target.name})")
            if nbytes > emu.max_alloc_bytes:
                where = _where(3)
                msg = (f"torch.{name} of {tuple(meta.shape)} {str(meta.dtype).removeprefix('torch.')} "
                       f"({nbytes / GiB:.1f} GiB) at {where}")
                emu.refused.append(msg)
                raise AllocationTooLarge(f"refused (over the {emu.max_alloc_bytes / GiB:g} GiB cap): {msg}")
            if emu.max_rss_bytes > 0:
                self._check_resident(name, nbytes, "with", meta, 4)

    return CudaOnCpu


#: ops whose cost is estimated (multiply-adds) and which are not computed above the budget
_HEAVY = {"matmul", "__matmul__", "__rmatmul__", "mm", "bmm", "addmm", "baddbmm", "addbmm", "linear", "einsum",
          "scaled_dot_product_attention"}
_SLOW_ON_CPU = {"float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"}


_COMPARISONS = {"isclose", "allclose", "equal"}


def _on_counted(mem: MemoryStats, args: tuple, kwargs: dict) -> bool:
    """Is a tensor among an op's arguments (or in a list / tuple of them) one counted on the emulated CUDA device?"""
    return _some_tensor(args, kwargs, mem.holds)


def _some_tensor(args: tuple, kwargs: dict, test: Callable[[Any], bool]) -> bool:
    """Does ``test`` hold for a tensor among an op's arguments, or in a list / tuple of them?"""
    import torch

    for a in (*args, *kwargs.values()) if kwargs else args:
        if isinstance(a, torch.Tensor):
            if test(a):
                return True
        elif isinstance(a, (list, tuple)) and any(isinstance(t, torch.Tensor) and test(t) for t in a):
            return True
    return False


def _answer_close(emu: Emulation, name: str, args: tuple, kwargs: dict) -> Any:
    """"Close" for a comparison of two tensors (module docstring), or None to compute it."""
    import torch

    a = args[0] if args else kwargs.get("input")
    b = args[1] if len(args) > 1 else kwargs.get("other")
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        return None
    emu.answered[name] = emu.answered.get(name, 0) + 1
    if name == "isclose":
        # (device given: under `torch.set_default_device("cuda")` torch's DeviceContext mode, below this one, would
        # put a factory call made here on CUDA)
        return torch.ones(torch.broadcast_shapes(a.shape, b.shape), dtype=torch.bool, device=a.device)
    if name == "equal":
        return a.shape == b.shape
    return True


def _tensors(obj: Any) -> list:
    import torch

    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [t for o in obj for t in _tensors(o)]
    return []


def _to_meta(obj: Any) -> Any:
    import torch

    if isinstance(obj, torch.Tensor):
        return torch.empty_strided(obj.shape, obj.stride(), dtype=obj.dtype, device="meta")
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_meta(o) for o in obj)
    return obj


def _macs(name: str, args: tuple, kwargs: dict, out: Any) -> float:
    """Multiply-adds of one heavy op (an estimate good to a small factor)."""
    import math

    ts = _tensors(args) + _tensors(list(kwargs.values()))
    if name == "scaled_dot_product_attention":
        q, k, v = (ts + [None] * 3)[:3]
        if q is None or k is None or v is None or q.dim() < 2:
            return 0.0
        return math.prod(q.shape[:-1]) * k.shape[-2] * (q.shape[-1] + v.shape[-1])
    if name == "einsum":
        eq = args[0] if args and isinstance(args[0], str) else ""
        sizes: dict[str, int] = {}
        lhs = eq.replace(" ", "").split("->")[0].split(",")
        for spec, t in zip(lhs, ts):
            if "." in spec:
                return float(out.numel()) * max((t.shape[-1] for t in ts if t.dim()), default=1)
            for letter, n in zip(spec, t.shape):
                sizes[letter] = int(n)
        return float(math.prod(sizes.values())) if sizes else 0.0
    left = {"__rmatmul__": 1, "addmm": 1, "baddbmm": 1, "addbmm": 1}.get(name, 0)
    if len(ts) <= left or ts[left].dim() == 0:
        return 0.0
    return float(out.numel()) * int(ts[left].shape[-1])


def _uncomputed(emu: Emulation, func: Any, name: str, args: tuple, kwargs: dict) -> Any:
    """An uninitialized result of ``func(*args, **kwargs)`` when it costs more than the budget, else None."""
    import torch

    try:
        meta = func(*_to_meta(args), **{k: _to_meta(v) for k, v in kwargs.items()})
    except Exception:  # noqa: BLE001 — the real call will raise what it raises
        return None
    if not isinstance(meta, torch.Tensor):
        return None
    inputs = _tensors(args) + _tensors(list(kwargs.values()))
    weight = 32 if any(str(t.dtype).removeprefix("torch.") in _SLOW_ON_CPU for t in inputs) else 1
    if _macs(name, args, kwargs, meta) * weight <= emu.max_macs:
        return None
    emu.uncomputed[name] = emu.uncomputed.get(name, 0) + 1
    shape, stride, dtype = tuple(meta.shape), tuple(meta.stride()), meta.dtype
    if torch.is_grad_enabled() and any(t.requires_grad for t in inputs):
        return _Uncomputed.apply((shape, stride, dtype), *inputs)
    return torch.empty_strided(shape, stride, dtype=dtype, device=inputs[0].device if inputs else "cpu")


def _uncomputed_class() -> type:
    import torch

    class Uncomputed(torch.autograd.Function):
        """Forward: an uninitialized output; backward: uninitialized gradients for every input."""

        @staticmethod
        def forward(ctx, spec, *inputs):  # noqa: ANN001, ANN205 — torch's protocol
            ctx.specs = [(tuple(t.shape), tuple(t.stride()), t.dtype, t.device) for t in inputs]
            shape, stride, dtype = spec
            return torch.empty_strided(shape, stride, dtype=dtype, device=inputs[0].device)

        @staticmethod
        def backward(ctx, grad):  # noqa: ANN001, ANN205
            return (None, *(torch.empty_strided(s, st, dtype=d, device=dv) for s, st, d, dv in ctx.specs))

    return Uncomputed


class _LazyUncomputed:
    """``_Uncomputed.apply``: the autograd Function class is built on first use (torch is imported lazily)."""

    _cls: Any = None

    def apply(self, *a: Any) -> Any:
        if self._cls is None:
            type(self)._cls = _uncomputed_class()
        return self._cls.apply(*a)


_Uncomputed = _LazyUncomputed()


def _default_device() -> Any:
    """The device torch.set_default_device / `with torch.device(..)` set, or None (read without asking CUDA for
    its current device, as torch.get_default_device does for a device without an index)."""
    import torch
    from torch.overrides import _get_current_function_mode_stack
    from torch.utils._device import DeviceContext

    mode = next((m for m in reversed(_get_current_function_mode_stack()) if isinstance(m, DeviceContext)), None)
    if mode is None:
        mode = getattr(getattr(torch, "_GLOBAL_DEVICE_CONTEXT", None), "device_context", None)
    return getattr(mode, "device", None)


def _generator_class() -> type:
    """``torch.Generator`` while emulating: ``torch.Generator(device="cuda")`` is a CPU generator (the tensors it
    fills are made on the CPU); a subclass, so ``isinstance(g, torch.Generator)`` holds."""
    import torch

    class Generator(torch.Generator):
        def __new__(cls, device: Any = "cpu") -> Any:
            return super().__new__(cls, "cpu" if _is_cuda_device(device) else device)

        def __init__(self, device: Any = "cpu") -> None:
            pass

    Generator.__module__, Generator.__qualname__ = "torch", "Generator"
    return Generator


def _cuda_patches(emu: Emulation) -> dict[str, Any]:
    import torch

    t = emu.target
    props = DeviceProperties(t)
    stream = FakeStream()

    def graph(cuda_graph: Any = None, pool: Any = None, stream: Any = None, **_kw: Any) -> _NullContext:
        emu.note("torch.cuda.graph: body run once, eagerly; replay does nothing")
        return _NullContext()

    mem = emu.memory

    def mem_get_info(device: Any = None) -> tuple[int, int]:
        return (t.total_memory - mem.get("reserved_bytes.all.current"), t.total_memory)

    def stat(key: str) -> Any:
        return lambda device=None: mem.get(key)

    def started(fn: Any) -> Any:
        def call(device: Any = None) -> None:
            mem.start()
            fn()
        return call

    def empty_cache() -> None:
        mem.empty_cache()

    raw = _RawAllocations()

    return {
        "is_available": lambda: True,
        "is_initialized": lambda: True,
        "device_count": lambda: 1,
        "current_device": lambda: 0,
        "set_device": _new_noop(),
        "get_device_name": lambda device=None: t.name,
        "get_device_capability": lambda device=None: (t.major, t.minor),
        "get_device_properties": lambda device=None: props,
        "get_arch_list": lambda: [t.arch],
        "is_bf16_supported": lambda *a, **k: t.major >= 8,
        "current_stream": lambda device=None: stream,
        "default_stream": lambda device=None: stream,
        "set_stream": _new_noop(),
        "stream": lambda s=None: _NullContext(),
        "Stream": FakeStream,
        "Event": FakeEvent,
        "CUDAGraph": FakeGraph,
        "graph": graph,
        "device": _NullContext,
        "synchronize": _new_noop(),
        "_sleep": _new_noop(),
        "manual_seed": _new_noop(),
        "manual_seed_all": _new_noop(),
        "seed": _new_noop(),
        "seed_all": _new_noop(),
        "empty_cache": empty_cache,
        "reset_peak_memory_stats": started(mem.reset_peak),
        "reset_max_memory_allocated": started(mem.reset_peak),
        "reset_max_memory_cached": started(mem.reset_peak),
        "reset_accumulated_memory_stats": started(mem.reset_accumulated),
        "memory_allocated": stat("allocated_bytes.all.current"),
        "max_memory_allocated": stat("allocated_bytes.all.peak"),
        "memory_reserved": stat("reserved_bytes.all.current"),
        "max_memory_reserved": stat("reserved_bytes.all.peak"),
        "memory_cached": stat("reserved_bytes.all.current"),
        "max_memory_cached": stat("reserved_bytes.all.peak"),
        "memory_stats": lambda device=None: mem.snapshot(),
        "memory_summary": lambda device=None, abbreviated=False: "(emulated: no CUDA memory in use)",
        "mem_get_info": mem_get_info,
        "is_current_stream_capturing": lambda: False,
        "ExternalStream": lambda stream_ptr=0, device=None, **_kw: FakeStream(),
        "set_per_process_memory_fraction": _new_noop(),
        "utilization": lambda device=None: 0,
        # the CUDA generator is the CPU's (the tensors are made on the CPU): its state saved and restored as one
        "get_rng_state": lambda device="cuda": torch.get_rng_state(),
        "set_rng_state": lambda new_state, device="cuda": torch.set_rng_state(new_state),
        "get_rng_state_all": lambda: [torch.get_rng_state()],
        "set_rng_state_all": lambda new_states: torch.set_rng_state(new_states[0]),
        "initial_seed": lambda: torch.initial_seed(),
        "default_generators": (torch.default_generator,),
        "get_per_process_memory_fraction": lambda device=None: 1.0,
        # memory pools and raw allocations (they asked the driver for the caching allocator)
        "MemPool": FakeMemPool,
        "use_mem_pool": lambda pool, device=None: _NullContext(),
        "caching_allocator_alloc": raw.alloc,
        "caching_allocator_delete": raw.delete,
        **_legacy_types(),
    }


#: torch.cuda's legacy tensor types (`torch.cuda.FloatTensor`, ..): answered by ``_legacy_types``
LEGACY_TENSOR_TYPES = ("FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor", "CharTensor",
                       "ShortTensor", "IntTensor", "LongTensor", "BoolTensor")


class _Cudart:
    """``torch.cuda.cudart()`` while emulating: the CUDA runtime calls host code makes through it (profiler start and
    stop, a device reset, an error string) succeed (0, cudaSuccess) and do nothing."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name == "cudaGetErrorString":
            return lambda code=0: "no error"
        return lambda *a, **kw: 0


_CUDART = _Cudart()


def _check_error(res: Any) -> None:
    """``torch.cuda.check_error`` of an emulated runtime call's result: 0 is success (the real one reads torch's CUDA
    runtime module, set up when CUDA initializes: never, here)."""
    import torch

    if int(getattr(res, "value", res)) != 0:
        raise torch.cuda.CudaError(res)


def _legacy_types() -> dict[str, Any]:
    """``torch.cuda.FloatTensor`` and its siblings while emulating: called (``torch.cuda.FloatTensor(n)``,
    ``torch.cuda.LongTensor([1, 2])``) they make the CPU type's tensor (the driver was asked: "Found no NVIDIA
    driver"); ``isinstance(x, torch.cuda.FloatTensor)`` holds for a tensor of the dtype, as host code sees every
    tensor on CUDA; ``x.type(torch.cuda.HalfTensor)`` is the CPU type's cast (``_legacy_type_call``)."""
    import torch

    class LegacyType(type):
        def __instancecheck__(cls, obj: Any) -> bool:
            return isinstance(obj, torch.Tensor) and obj.dtype == cls.dtype and obj.layout == torch.strided

        def __call__(cls, *a: Any, **kw: Any) -> Any:
            kw.pop("device", None)
            return cls.cpu_type(*a, **kw)

        def __repr__(cls) -> str:
            return f"<class 'torch.cuda.{cls.__name__}'>"

    return {name: LegacyType(name, (), {"__module__": "torch.cuda", "dtype": getattr(torch, name).dtype,
                                        "is_cuda": True, "is_sparse": False, "cpu_type": getattr(torch, name)})
            for name in LEGACY_TENSOR_TYPES if hasattr(torch, name)}


def _legacy_type_call(func: Any, args: tuple, kwargs: dict, host: bool) -> Any:
    """``Tensor.type`` while emulating: a CUDA type (a ``torch.cuda.*Tensor`` class, before or while emulating, or
    its name "torch.cuda.HalfTensor") is the CPU type's; ``x.type()`` asked by host code names the CUDA type, as
    on the GPU."""
    import torch

    args = list(args)
    want = args[1] if len(args) > 1 else kwargs.get("dtype")
    if want is not None:
        if isinstance(want, str) and want.startswith("torch.cuda."):
            want = "torch." + want[len("torch.cuda."):]
        elif not isinstance(want, str) and getattr(want, "is_cuda", False) and \
                hasattr(torch, getattr(want, "__name__", "")):
            want = getattr(torch, want.__name__)
        if len(args) > 1:
            args[1] = want
        else:
            kwargs["dtype"] = want
    out = func(*args, **kwargs)
    if want is None and host and isinstance(out, str) and out.startswith("torch.") and \
            not out.startswith("torch.cuda.") and args[0].device.type == "cpu":
        return "torch.cuda." + out[len("torch."):]
    return out


def _cuda_array_interface(t: Any) -> dict:
    """``x.__cuda_array_interface__`` asked by host code: what torch answers for a CUDA tensor (its data pointer,
    shape, byte strides; torch's own checks), of the CPU tensor that stands for it."""
    from torch._tensor import _dtype_to_typestr

    if t.is_sparse:
        raise AttributeError(f"Can't get __cuda_array_interface__ on sparse type: {t.type()}")
    if t.requires_grad:
        raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires grad. If gradients aren't "
                           "required, use var.detach() to get Variable that doesn't require grad.")
    itemsize = t.element_size()
    strides = None if t.is_contiguous() else tuple(s * itemsize for s in t.stride())
    return dict(typestr=_dtype_to_typestr(t.dtype), shape=tuple(t.shape), strides=strides,
                data=(t.data_ptr() if t.numel() > 0 else 0, False), version=2)


def _device_switch(real: type, fake: type) -> type:
    """A stand-in for ``torch.Stream`` / ``torch.Event``: made on CUDA (named, or no device: the current
    accelerator, CUDA while emulating) it is ``fake``; on another device the real one; ``isinstance`` holds for
    both."""

    class Switch(type):
        def __instancecheck__(cls, obj: Any) -> bool:
            return isinstance(obj, (real, fake))

        def __call__(cls, device: Any = None, *a: Any, **kw: Any) -> Any:
            if device is None or _is_cuda_device(device):
                return fake(device, *a, **kw) if fake is FakeStream else fake(**kw)
            return real(device, *a, **kw)

    return Switch(real.__name__, (), {"__module__": "torch", "__doc__": real.__doc__})


def _as_cpu(device: Any) -> Any:
    """A device argument naming CUDA ("cuda", "cuda:0", torch.device("cuda", 0)) as the CPU; anything else as is."""
    return "cpu" if _is_cuda_device(device) else device


def _autocast_device(device_type: Any) -> Any:
    """Autocast's device type while emulating: "cuda" is the CPU's autocast (the tensors are on the CPU), so that
    `torch.autocast("cuda", dtype=torch.bfloat16)` gives the kernels the dtypes it gives them on the GPU."""
    return "cpu" if device_type == "cuda" else device_type


def _torch_patches(emu: Emulation) -> list[tuple[Any, str, Any]]:
    """(owner, attribute, stand-in) of what beside ``torch.cuda`` answers CUDA while emulating (module docstring):
    ``torch.compile`` runs eagerly, custom ops' CUDA kernels serve the CPU tensors, ``torch.load`` maps CUDA storage
    to the CPU, CUDA autocast is the CPU's."""
    import functools
    import warnings

    import torch
    import torch.amp.autocast_mode as am
    import torch.serialization

    out: list[tuple[Any, str, Any]] = []
    # torch.cuda.random's own names of the seeding and RNG-state functions torch.cuda re-exports (answered there)
    import torch.cuda.random as cuda_random

    out += [(cuda_random, name, getattr(torch.cuda, name)) for name in
            ("manual_seed", "manual_seed_all", "seed", "seed_all", "initial_seed", "get_rng_state", "set_rng_state",
             "get_rng_state_all", "set_rng_state_all") if hasattr(cuda_random, name)]

    # torch.compile: inductor / dynamo ask the CUDA driver ("CUDA driver version is insufficient"). On the GPU the
    # compiled function makes the launches its eager form makes (a ct.launch breaks the graph and runs as is; a
    # triton_op's kernel is launched by the compiled graph with the same arguments), so it runs eagerly
    def compile(model: Any = None, **kw: Any) -> Any:   # noqa: A001 — torch.compile's name
        if model is None:
            return lambda m: compile(m, **kw)
        emu.note("torch.compile: the function or module runs eagerly (dynamo and inductor need the CUDA driver; the "
                 "compiled code launches the kernels its eager form launches)")
        return model

    out.append((torch, "compile", compile))

    # torch.get_default_device() under `torch.set_default_device("cuda")` / `with torch.device("cuda"):` reads the
    # index of a device named without one from a tensor it makes (`torch.tensor([]).device`): made on the CPU here,
    # so "cpu" was answered; the default device torch was given is CUDA's device 0
    get_default = getattr(torch, "get_default_device", None)
    if get_default is not None:
        def get_default_device() -> Any:
            dev = _default_device()
            if _is_cuda_device(dev):
                return torch.device("cuda", dev.index or 0) if isinstance(dev, torch.device) else torch.device(
                    "cuda", 0 if dev in ("cuda", 0) else int(str(dev).partition(":")[2] or 0))
            return get_default()

        functools.update_wrapper(get_default_device, get_default)
        out.append((torch, "get_default_device", get_default_device))

    # a storage moved to CUDA (`map_location=lambda storage, loc: storage.cuda()`, `storage.to(device="cuda")`,
    # torch.serialization's own restore of a storage saved on a GPU) asked the driver: it stays on the CPU, where the
    # emulated tensors are (torch's `_to` returns the storage itself when it is on the device asked for)
    import torch._utils
    import torch.storage

    storage_to = torch._utils._to

    def to_device(self: Any, device: Any, non_blocking: bool = False) -> Any:
        if _is_cuda_device(device):
            emu.note("a storage moved to CUDA (storage.cuda(), storage.to(device='cuda')) stays on the CPU")
            device = torch.device("cpu")
        return storage_to(self, device, non_blocking)

    functools.update_wrapper(to_device, storage_to)
    out += [(torch._utils, "_to", to_device), (torch.storage, "_to", to_device)]

    # the CUDA runtime module (`torch.cuda.cudart().cudaProfilerStart()`, `torch.cuda.profiler.start()` / `.profile()`
    # around a region a profiler captures) and `check_error` of its results: every call succeeds and does nothing
    out.append((torch.cuda, "cudart", lambda: _CUDART))
    out.append((torch.cuda, "check_error", _check_error))
    import torch.cuda.profiler as cuda_profiler

    out += [(cuda_profiler, name, fn) for name, fn in (("cudart", lambda: _CUDART), ("check_error", _check_error))
            if hasattr(cuda_profiler, name)]

    # torch.profiler / torch.autograd.profiler asked for CUDA activity: kineto asks the driver for every event ("Failed
    # to record CUDA event .. CUDA driver version is insufficient", a C++ warning and stack per event, and no CUDA
    # times): the CPU activity alone is profiled, the region runs as it does
    import torch.autograd.profiler as autograd_profiler
    import torch.profiler.profiler as profiler_mod

    kineto_init = profiler_mod._KinetoProfile.__init__

    def kineto_profile_init(self: Any, *a: Any, activities: Any = None, **kw: Any) -> None:
        if activities is not None:
            kept = [x for x in activities if x != torch.profiler.ProfilerActivity.CUDA]
            if len(kept) < len(list(activities)):
                emu.note("torch.profiler: CUDA activity left out (no driver); the CPU activity is profiled")
            activities = kept or [torch.profiler.ProfilerActivity.CPU]
        elif torch.profiler.ProfilerActivity.CUDA in torch.profiler.supported_activities():
            activities = [torch.profiler.ProfilerActivity.CPU]   # (the default: every supported one, CUDA too)
        kineto_init(self, *a, activities=activities, **kw)

    functools.update_wrapper(kineto_profile_init, kineto_init)
    out.append((profiler_mod._KinetoProfile, "__init__", kineto_profile_init))
    legacy_init = autograd_profiler.profile.__init__

    def legacy_profile_init(self: Any, *a: Any, **kw: Any) -> None:
        if kw.get("use_cuda") or kw.get("use_device") == "cuda":
            emu.note("torch.autograd.profiler: CUDA activity left out (no driver); the CPU activity is profiled")
            kw["use_cuda"], kw["use_device"] = False, None
        legacy_init(self, *a, **kw)

    functools.update_wrapper(legacy_profile_init, legacy_init)
    out.append((autograd_profiler.profile, "__init__", legacy_profile_init))

    # a CPU-only build of torch (no CUDA compiled in) says so where host code asks whether CUDA is there at all:
    # `torch.version.cuda` None (`torch.version.cuda.split(".")`), `torch.backends.cuda.is_built()` and
    # `torch.cuda._is_compiled()` False (a skip): answered as a CUDA 13.0 build, what cuda-tile 1.7 runs on
    if torch.version.cuda is None:
        emu.note("torch.version.cuda: a CPU-only build of torch; answered '13.0' (cuda-tile 1.7's CUDA)")
        out.append((torch.version, "cuda", "13.0"))
    if not torch.backends.cuda.is_built():
        out.append((torch.backends.cuda, "is_built", lambda: True))
    if not torch.cuda._is_compiled():
        out.append((torch.cuda, "_is_compiled", lambda: True))

    # nn.DataParallel over the one device: on the GPU its forward checks the module is on cuda:0 (torch's own code
    # sees the CPU: "module must have its parameters and buffers on device cuda:0"), scatters the inputs there and
    # calls the module; here the inputs are where they are, so the module is called
    dp_forward = torch.nn.DataParallel.forward

    def data_parallel_forward(self: Any, *inputs: Any, **kwargs: Any) -> Any:
        if len(self.device_ids) <= 1:
            return self.module(*inputs, **kwargs)
        return dp_forward(self, *inputs, **kwargs)

    functools.update_wrapper(data_parallel_forward, dp_forward)
    out.append((torch.nn.DataParallel, "forward", data_parallel_forward))

    # DistributedDataParallel(model, device_ids=[local_rank], output_device=local_rank): the ids name the CUDA
    # device the module is on; the module is on the CPU here, where DDP takes no ids ("device_ids and output_device
    # arguments only work with single-device/multiple-device GPU modules or CPU modules"): they are dropped
    import inspect

    ddp = torch.nn.parallel.DistributedDataParallel
    ddp_init = ddp.__init__
    ddp_sig = inspect.signature(ddp_init)

    def ddp_on_cpu(self: Any, *a: Any, **kw: Any) -> None:
        bound = ddp_sig.bind(self, *a, **kw)
        ids, out = bound.arguments.get("device_ids"), bound.arguments.get("output_device")
        if ids is not None and all(_is_cuda_device(d) for d in ids) and (out is None or _is_cuda_device(out)):
            emu.note("DistributedDataParallel: device_ids / output_device naming CUDA dropped (the module is on the "
                     "CPU, where DDP takes none)")
            bound.arguments["device_ids"] = bound.arguments["output_device"] = None
        ddp_init(*bound.args, **bound.kwargs)

    functools.update_wrapper(ddp_on_cpu, ddp_init)
    out.append((ddp, "__init__", ddp_on_cpu))

    # the allocator's memory history (a benchmark's or test's memory profile: `_record_memory_history`,
    # `_dump_snapshot("x.pickle")`, `_snapshot()`) asks the driver: nothing was allocated on a GPU, so the history
    # is empty and the snapshot written has no segment
    import pickle

    import torch.cuda.memory as cuda_memory

    def snapshot(*_a: Any, **_kw: Any) -> dict:
        return {"segments": [], "device_traces": [[]], "allocator_settings": {}}

    def dump_snapshot(filename: str = "dump_snapshot.pickle", *_a: Any, **_kw: Any) -> None:
        with open(filename, "wb") as f:
            pickle.dump(snapshot(), f)

    out += [(cuda_memory, name, fn) for name, fn in (
        ("_record_memory_history", lambda *a, **kw: None), ("_snapshot", snapshot), ("_dump_snapshot", dump_snapshot))
        if hasattr(cuda_memory, name)]

    # torch.set_default_tensor_type(torch.cuda.FloatTensor) (pre-2.1 host code): the CPU type's dtype, made on
    # CUDA by default, as torch.set_default_dtype + set_default_device("cuda") (torch refuses the stand-in types)
    set_type = torch.set_default_tensor_type
    cuda_default = []

    def set_default_tensor_type(t: Any) -> None:
        name = t if isinstance(t, str) else getattr(t, "__name__", "")
        if (isinstance(t, str) and t.startswith("torch.cuda.")) or getattr(t, "is_cuda", False):
            set_type(getattr(torch, name.rpartition(".")[2]))
            torch.set_default_device("cuda")
            cuda_default.append(True)
            return
        set_type(t)
        if cuda_default:
            torch.set_default_device(None)
            cuda_default.clear()

    functools.update_wrapper(set_default_tensor_type, set_type)
    out.append((torch, "set_default_tensor_type", set_default_tensor_type))

    # torch.Stream / torch.Event (device-agnostic host code: `torch.Stream(device="cuda")`, `torch.Event("cuda")`,
    # or no device, the current accelerator's) ask the driver: the emulated stream and event on CUDA
    for name, fake in (("Stream", FakeStream), ("Event", FakeEvent)):
        real = getattr(torch, name, None)
        if isinstance(real, type):
            out.append((torch, name, _device_switch(real, fake)))

    # Tensor.record_stream(s): torch's argument parser refuses an emulated stream ("unknown parameter type") before
    # any function mode sees the call; there is no caching allocator to tell of the stream's use
    def record_stream(self: Any, stream: Any) -> None:
        return None

    out.append((torch.Tensor, "record_stream", record_stream))

    # torch.distributed: NCCL needs GPUs ("ProcessGroupNCCL is only supported with GPUs"); a one-process group of a
    # test (tensor-parallel layers at world size 1) runs on gloo, which takes the CPU tensors
    if torch.distributed.is_available():
        import torch.distributed.distributed_c10d as c10d

        init_pg, new_group = c10d.init_process_group, c10d.new_group

        def on_gloo(backend: Any) -> Any:
            if backend is None or "nccl" in str(backend).lower():
                emu.note("torch.distributed: NCCL process groups run on gloo (the tensors are on the CPU)")
                return "gloo"
            return backend

        def init_process_group(backend: Any = None, *a: Any, **kw: Any) -> Any:
            if _is_cuda_device(kw.get("device_id")):
                kw.pop("device_id")
            return init_pg(on_gloo(backend), *a, **kw)

        def new_group_gloo(ranks: Any = None, timeout: Any = None, backend: Any = None, *a: Any, **kw: Any) -> Any:
            if _is_cuda_device(kw.get("device_id")):
                kw.pop("device_id")
            return new_group(ranks, timeout, on_gloo(backend), *a, **kw)

        functools.update_wrapper(init_process_group, init_pg)
        functools.update_wrapper(new_group_gloo, new_group)
        out += [(mod, name, fn) for mod in (torch.distributed, c10d)
                for name, fn in (("init_process_group", init_process_group), ("new_group", new_group_gloo))]

    # a child process the host code starts (subprocess, multiprocessing, torch.multiprocessing.spawn) runs outside
    # the emulation: "Found no NVIDIA driver" there, and its launches are not recorded; each start is counted by
    # the host code's line (``children``)
    import multiprocessing.process
    import subprocess

    popen_init, process_start = subprocess.Popen.__init__, multiprocessing.process.BaseProcess.start

    def child(how: str) -> None:
        where = emu.calling_host()
        if where is not None:   # (not a library's own: `platform` running uname as torch imports)
            key = f"{where}: {how}"
            emu.children[key] = emu.children.get(key, 0) + 1

    def popen(self: Any, args: Any, *a: Any, **kw: Any) -> None:
        words = [args] if isinstance(args, (str, bytes, os.PathLike)) else list(args)
        name = os.path.basename(os.fsdecode(words[0]).split()[0]) if words and words[0] else "?"
        child(f"a child process ({name}, subprocess)")
        popen_init(self, args, *a, **kw)

    def start(self: Any) -> None:
        target = getattr(self, "_target", None)
        if getattr(target, "__module__", "") == "torch.utils.data._utils.worker":
            # a DataLoader's worker (num_workers > 0): it loads data, and CUDA cannot be used in it on a GPU either
            # (a forked process): not a child whose launches are lost
            emu.note("DataLoader worker processes (num_workers > 0) load the data outside the emulation; a kernel "
                     "launch cannot be made in them on a GPU either")
        else:
            child("a child process (multiprocessing)")
        process_start(self)

    functools.update_wrapper(popen, popen_init)
    out += [(subprocess.Popen, "__init__", popen), (multiprocessing.process.BaseProcess, "start", start)]

    # torch.multiprocessing.spawn of one process (a test's world size from device_count(), 1 here) runs its function
    # in this process, as rank 0, so that its launches are recorded; more processes are children (above)
    import torch.multiprocessing as tmp

    for owner in {tmp, sys.modules.get("torch.multiprocessing.spawn", tmp)}:
        for name in ("spawn", "start_processes"):
            orig = getattr(owner, name, None)
            if orig is None:
                continue

            def in_process(fn: Any, args: tuple = (), nprocs: int = 1, join: bool = True, *a: Any,
                           _orig: Any = orig, **kw: Any) -> Any:
                if nprocs == 1 and join:
                    emu.note("torch.multiprocessing.spawn of one process: its function ran in this process, rank 0")
                    fn(0, *args)
                    return None
                return _orig(fn, args, nprocs, join, *a, **kw)

            functools.update_wrapper(in_process, orig)
            out.append((owner, name, in_process))

    # torch._C's CUDA stream and device setters, which test harnesses call directly (PyTorch's own
    # `CudaNonDefaultStream` around every CUDA test of `instantiate_device_type_tests`: "CUDA driver version is
    # insufficient"): nothing to set
    out += [(torch._C, name, fn) for name, fn in (
        ("_cuda_setStream", lambda *a, **kw: None), ("_cuda_setDevice", lambda *a, **kw: None),
        ("_cuda_getDevice", lambda *a, **kw: 0), ("_cuda_synchronize", lambda *a, **kw: None),
        ("_cuda_emptyCache", lambda *a, **kw: None),
        # (`can_device_access_peer(i, j)`, after torch's own device checks: one device, which CUDA says cannot
        # access itself as a peer)
        ("_cuda_canDeviceAccessPeer", lambda *a, **kw: False)) if hasattr(torch._C, name)]

    # torch.accelerator (torch 2.6+: what device-agnostic host code calls) asks the driver for most answers
    acc = getattr(torch, "accelerator", None)
    if acc is not None:
        stream = torch.cuda.current_stream()   # (already the emulated stream: _cuda_patches are applied first)
        answers = {"current_device_index": lambda: 0, "current_device_idx": lambda: 0,
                   "current_stream": lambda device=None: stream, "synchronize": lambda device=None: None,
                   "set_device_index": lambda device=None: None, "set_device_idx": lambda device=None: None,
                   "set_stream": lambda stream=None: None, "device_index": lambda device=None: _NullContext(),
                   "get_memory_info": lambda device=None: torch.cuda.mem_get_info()}
        # (its memory statistics are torch.cuda's, MemoryStats; torch.accelerator.memory's functions read its own
        # memory_stats)
        answers.update({name: getattr(torch.cuda, name) for name in (
            "reset_peak_memory_stats", "reset_accumulated_memory_stats", "memory_stats", "memory_allocated",
            "max_memory_allocated", "memory_reserved", "max_memory_reserved", "empty_cache")})
        owners = [acc] + [m for m in (sys.modules.get("torch.accelerator.memory"),) if m is not None]
        out += [(owner, name, fn) for owner in owners for name, fn in answers.items() if hasattr(owner, name)]

    # custom ops registered for CUDA (`custom_op(.., device_types="cuda")`, `register_kernel("cuda")`,
    # `Library.impl(.., "CUDA")`) serve the emulated tensors, which are on the CPU: the CUDA kernel is registered
    # for the CPU too, over a CPU kernel of the same op (on the GPU the CUDA one is what runs)
    lib_impl = torch.library.Library.impl
    served: set[str] = set()
    torch_dir = os.path.join(os.path.dirname(os.path.realpath(torch.__file__)), "")

    def registered_by_host() -> bool:
        """Is the innermost caller outside torch (custom_op, register_kernel, library.impl) host code?"""
        f = sys._getframe(2)
        while f is not None and os.path.realpath(f.f_code.co_filename).startswith(torch_dir):
            f = f.f_back
        fn = _frame_file(f) if f is not None else ""
        return fn.startswith(emu.host_roots) and not fn.startswith(emu.host_excludes)

    def impl(self: Any, op_name: Any, fn: Any, dispatch_key: str = "", *, with_keyset: bool = False,
             allow_override: bool = False) -> Any:
        key = dispatch_key or self.dispatch_key
        if registered_by_host():   # (the dispatcher calls it from C++: without the emulation's mode, reentered)
            fn = emu.reenter(fn)
        cpu_key = {"CUDA": "CPU", "AutogradCUDA": "AutogradCPU", "SparseCUDA": "SparseCPU"}.get(key)
        op = op_name if isinstance(op_name, str) else getattr(getattr(op_name, "_schema", None), "name", "?")
        name = f"{self.ns}/{op.split('::')[-1]}"
        if cpu_key is not None and registered_by_host():   # (torch's own, made as it imports, are left as they are)
            lib_impl(self, op_name, fn, key, with_keyset=with_keyset, allow_override=allow_override)
            served.add(f"{name}/{cpu_key}")
            emu.note("custom ops: a kernel registered for CUDA serves the tensors on the CPU")
            with warnings.catch_warnings():   # ("Overriding a previously registered kernel": the host's CPU one)
                warnings.simplefilter("ignore")
                return lib_impl(self, op_name, fn, cpu_key, with_keyset=with_keyset, allow_override=True)
        if f"{name}/{key}" in served:   # the host's CPU kernel of an op whose CUDA kernel serves the CPU already
            return None
        return lib_impl(self, op_name, fn, dispatch_key, with_keyset=with_keyset, allow_override=allow_override)

    functools.update_wrapper(impl, lib_impl)
    out.append((torch.library.Library, "impl", impl))

    # torch.load of CUDA tensors (saved on a GPU, or map_location="cuda"): to the CPU, where the emulated tensors are
    load = torch.load

    def to_cpu_location(map_location: Any) -> Any:
        if map_location is None:
            return "cpu"   # (storage saved on cuda:N would be restored there)
        if isinstance(map_location, dict):
            return {k: _as_cpu(v) for k, v in map_location.items()}
        if callable(map_location):
            return map_location
        return _as_cpu(map_location)

    def torch_load(f: Any, map_location: Any = None, *a: Any, **kw: Any) -> Any:
        return load(f, to_cpu_location(map_location), *a, **kw)

    functools.update_wrapper(torch_load, load)
    out += [(torch, "load", torch_load), (torch.serialization, "load", torch_load)]

    # autocast on "cuda" is the CPU's: its dtype (float16 by default, as CUDA's) reaches the kernels' arguments
    ac_init = am.autocast.__init__

    def autocast_init(self: Any, device_type: str, dtype: Any = None, enabled: bool = True,
                      cache_enabled: Any = None) -> None:
        if device_type == "cuda" and dtype is None:
            dtype = torch.float16
        ac_init(self, _autocast_device(device_type), dtype, enabled, cache_enabled)

    functools.update_wrapper(autocast_init, ac_init)
    out.append((am.autocast, "__init__", autocast_init))
    is_enabled, get_dtype = torch.is_autocast_enabled, torch.get_autocast_dtype

    def is_autocast_enabled(device_type: str = "cuda") -> bool:
        return is_enabled(_autocast_device(device_type))

    def get_autocast_dtype(device_type: str) -> Any:
        return get_dtype(_autocast_device(device_type))

    out += [(torch, "is_autocast_enabled", is_autocast_enabled), (torch, "get_autocast_dtype", get_autocast_dtype),
            (torch, "get_autocast_gpu_dtype", lambda: get_dtype("cpu"))]
    for name in ("custom_fwd", "custom_bwd"):
        orig = getattr(torch.amp, name)

        # (torch.cuda.amp.custom_fwd calls it with `fwd=` by name: the function is passed on as it came)
        def amp_deco(*a: Any, device_type: str, _orig: Any = orig, **kw: Any) -> Any:
            return _orig(*a, device_type=_autocast_device(device_type), **kw)

        out += [(torch.amp, name, amp_deco), (am, name, amp_deco)]
    return out


def _reentering(fn: Any, mode_class: type, on: list[bool]) -> Any:
    """``fn`` (a host callback torch calls from C++) running with the emulation's mode entered again when it is not
    on this thread's stack (``on[0]``: only while emulating; a wrapped callback outlives it unchanged)."""
    from torch.overrides import _get_current_function_mode_stack

    if getattr(fn, "__tileport_reenters__", False) or not callable(fn):
        return fn

    @functools.wraps(fn)
    def call(*a: Any, **k: Any) -> Any:
        if not on[0] or any(isinstance(m, mode_class) for m in _get_current_function_mode_stack()):
            return fn(*a, **k)
        with mode_class():
            return fn(*a, **k)

    call.__tileport_reenters__ = True   # type: ignore[attr-defined]
    return call


def _reentry_patches(emu: Emulation) -> list[tuple[Any, str, Any]]:
    """(owner, attribute, stand-in) that enter the emulation's mode again in the host code torch runs from C++ while
    an op of the host code is being answered. torch takes a function mode off the thread's stack while its handler
    runs, so what the op itself calls back ran without it — the autograd engine's whole backward pass
    (``loss.backward()``, ``torch.autograd.grad``: an ``autograd.Function``'s backward, a custom op's registered
    backward, a reentrant checkpoint's recompute, tensor, grad_fn and module backward hooks), a Function's
    forward-mode ``jvp`` (dual tensors, ``torch.func.jvp``), saved-tensor hooks, a host's ``TorchDispatchMode`` or tensor subclass ``__torch_dispatch__`` / ``__torch_function__`` (and a custom op's
    kernel: ``Library.impl`` in ``_torch_patches``): host code there saw its tensors on the CPU (``g.is_cuda``
    False, ``g.device`` cpu: a backward's CPU fallback taken, its launches lost) and ``torch.empty(..,
    device="cuda")`` asked the driver. Each runs with the mode entered again (``emu.reenter``)."""
    import torch
    import torch.autograd.graph as graph
    from torch.autograd.function import BackwardCFunction
    from torch.utils._python_dispatch import TorchDispatchMode

    reenter = emu.reenter
    engine = reenter(graph._engine_run_backward)
    out: list[tuple[Any, str, Any]] = [(graph, "_engine_run_backward", engine)]
    # an autograd.Function's forward-mode derivative (`jvp`: dual tensors, torch.func.jvp), called from C++ too
    out.append((BackwardCFunction, "apply_jvp", reenter(BackwardCFunction.apply_jvp)))
    if getattr(torch.autograd, "_engine_run_backward", None) is graph._engine_run_backward:
        out.append((torch.autograd, "_engine_run_backward", engine))   # (backward() and grad() call this name)

    hooks_init = graph.saved_tensors_hooks.__init__

    @functools.wraps(hooks_init)
    def saved_hooks(self: Any, pack_hook: Any, unpack_hook: Any) -> None:
        hooks_init(self, reenter(pack_hook), reenter(unpack_hook))

    out.append((graph.saved_tensors_hooks, "__init__", saved_hooks))
    enter = TorchDispatchMode.__enter__

    def dispatch_enter(self: Any) -> Any:
        if emu.host_code(type(self).__torch_dispatch__) and "__torch_dispatch__" not in vars(self):
            # (torch reads it off the instance, and wants a method bound to the mode)
            self.__torch_dispatch__ = types.MethodType(reenter(type(self).__torch_dispatch__), self)
        return enter(self)

    out.append((TorchDispatchMode, "__enter__", dispatch_enter))

    def init_subclass(cls: Any, **kw: Any) -> None:
        for name in ("__torch_dispatch__", "__torch_function__"):
            m = cls.__dict__.get(name)
            if isinstance(m, classmethod) and emu.host_code(m.__func__):
                setattr(cls, name, classmethod(reenter(m.__func__)))
        super(torch.Tensor, cls).__init_subclass__(**kw)

    out.append((torch.Tensor, "__init_subclass__", classmethod(init_subclass)))
    return out


@contextlib.contextmanager
def emulate(target: Target, host_roots: list[str], max_alloc_bytes: int = 4 * GiB,
            max_macs: float = 2e9, compare_pass: bool = True, max_rss_bytes: int | None = None) -> Iterator[Emulation]:
    """Answer torch.cuda as ``target`` and keep CUDA tensors on the CPU while the block runs (module docstring)."""
    import torch

    roots = tuple(os.path.join(os.path.realpath(r), "") for r in host_roots)
    roots = roots + tuple(os.path.join(os.path.abspath(r), "") for r in host_roots)
    emu = Emulation(target, roots, max_alloc_bytes, max_macs, compare_pass)
    # a host root inside installed code (a package captured where it is installed) keeps that folder host code
    emu.host_excludes = tuple(x for x in emu.host_excludes if not any(r.startswith(x) for r in roots))
    if max_rss_bytes is not None:
        emu.max_rss_bytes = max_rss_bytes
    patches = _cuda_patches(emu)
    saved: dict[str, Any] = {}
    missing = object()
    for name, value in patches.items():
        saved[name] = getattr(torch.cuda, name, missing)
        setattr(torch.cuda, name, value)
    # the same names in torch.cuda's submodules, where torch.cuda re-exports them (`from torch.cuda.streams import
    # Stream`, `torch.cuda.graphs.CUDAGraph()`, `torch.cuda.memory.mem_get_info()`: asked the driver)
    resubmod = [(mod, name, value) for mod_name, mod in list(sys.modules.items())
                if mod_name.startswith("torch.cuda.") and mod is not None
                for name, value in patches.items()
                if saved[name] is not missing and getattr(mod, "__dict__", {}).get(name, missing) is saved[name]]
    others = [(owner, name, owner.__dict__.get(name, missing), value)
              for owner, name, value in resubmod + _torch_patches(emu)]
    for owner, name, _old, value in others:
        setattr(owner, name, value)
    saved_generator = torch.Generator
    torch.Generator = _generator_class()
    mode_class = _mode_class(emu)
    mode = mode_class()
    # torch's function modes are per thread: a thread the host code starts (a ThreadPoolExecutor's worker, a
    # threading.Thread launching on its own stream) enters the mode too, or its tensors asked for on cuda raise
    # "Found no NVIDIA driver"
    saved_bootstrap = threading.Thread._bootstrap_inner

    def bootstrap_inner(thread: threading.Thread) -> None:
        with mode_class():
            saved_bootstrap(thread)

    threading.Thread._bootstrap_inner = bootstrap_inner   # type: ignore[attr-defined]
    on = [True]
    emu.reenter = functools.partial(_reentering, mode_class=mode_class, on=on)
    reentry = [(owner, name, owner.__dict__.get(name, missing), value)
               for owner, name, value in _reentry_patches(emu)]
    for owner, name, _old, value in reentry:
        setattr(owner, name, value)
    try:
        with mode:
            yield emu
    finally:
        on[0] = False
        for owner, name, old, _value in reversed(reentry):
            if old is missing:
                delattr(owner, name)
            else:
                setattr(owner, name, old)
        threading.Thread._bootstrap_inner = saved_bootstrap   # type: ignore[attr-defined]
        torch.Generator = saved_generator
        for owner, name, old, _value in reversed(others):
            if old is missing:
                delattr(owner, name)
            else:
                setattr(owner, name, old)
        for name, value in saved.items():
            if value is missing:
                delattr(torch.cuda, name)
            else:
                setattr(torch.cuda, name, value)

