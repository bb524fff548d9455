"""CuPy for host code captured on a machine without a GPU: a numpy-backed stand-in for ``import cupy``.

cuda.tile's own quick start allocates with CuPy (``cupy.random.default_rng().random(n)``, ``cupy.zeros_like``,
``ct.launch(cupy.cuda.get_current_stream(), ..)``), and so does host code written after it. Without a GPU CuPy
cannot allocate (nor import, where it is not installed), so such a program stopped at its first line and the
capture recorded nothing. While a capture emulates the GPU, ``import cupy`` (and ``cupyx``) gives this stand-in:

- arrays are numpy arrays of a subclass, ``cupy.ndarray``, in host memory aligned to 256 bytes as CUDA's allocator
  aligns device memory, speaking ``__cuda_array_interface__`` (what ct.launch and the capture read), with CuPy's
  own members (``get()``, ``set()``, ``device``, ``data_ptr()``, ``toDlpack()``); numpy's functions and methods
  compute on them on the CPU, so host code computing its inputs and references runs as written;
- ``cupy.asnumpy`` / ``asarray`` / ``array`` / the creation functions, ``cupy.random`` (the legacy functions and
  ``default_rng``, with CuPy's ``dtype=``), ``cupy.cuda`` (streams, events, ``Device`` with the target's compute
  capability and SM count, ``runtime.getDeviceProperties``, memory pools, ``nvtx``), ``cupyx.profiler.benchmark``
  (one call), ``cupy.fuse`` (the function itself), everything else of numpy's by its name;
- no kernel runs: ``cupy.testing``'s assertions and CuPy's comparisons answer "close" as torch's do under the
  emulation, and so do numpy's (``numpy.testing``'s assertions, ``np.allclose``, ``np.array_equal``) of a stand-in
  array or of its host copy (``cupy.asnumpy(y)``, ``y.get()``), unless comparisons are computed (``--compare
  run``); a CuPy ``RawKernel`` / ``ElementwiseKernel`` /
  ``ReductionKernel`` / ``RawModule`` raises when called, saying why.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.machinery
import math
import sys
import types
from typing import Any, Iterator

#: the byte alignment of a stand-in allocation (cudaMalloc's, which CuPy's memory pool keeps)
ALIGN = 256
#: the version the stand-in reports (a CuPy for CUDA 13)
VERSION = "13.6.0"
#: numpy functions CuPy's comparisons are; they answer "close" (True) under the emulation
COMPARISONS = ("allclose", "array_equal", "array_equiv")
#: cupy.testing's assertions, answered as passing under the emulation
ASSERTIONS = ("assert_allclose", "assert_array_almost_equal", "assert_array_almost_equal_nulp", "assert_array_equal",
              "assert_array_less", "assert_array_max_ulp", "assert_equal")
#: CuPy's ways to run CUDA code of one's own, which cannot run here
RAW_KERNELS = ("RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel")


def assumptions(compare_pass: bool) -> list[str]:
    """What the stand-in answers, one line each."""
    return ["import cupy gives a numpy-backed stand-in: cupy arrays are host arrays (256-byte aligned, "
            "__cuda_array_interface__), numpy computes what the host code computes with them; CuPy's own kernels "
            "(RawKernel, ElementwiseKernel, ..) cannot run"] + (
        ["cupy.testing's assertions and cupy.allclose / array_equal answer 'close', as numpy's do of a cupy array "
         "or its host copy (cupy.asnumpy, .get()): the kernels did not run"]
        if compare_pass else [])


def _np() -> Any:
    import numpy as np

    return np


def _new_ndarray_class() -> type:
    np = _np()

    class ndarray(np.ndarray):   # noqa: N801 — CuPy's name
        """A CuPy array of the capture's stand-in: host memory that speaks ``__cuda_array_interface__``."""

        __module__ = "cupy"

        @property
        def __cuda_array_interface__(self) -> dict:
            iface = self.__array_interface__
            return {"shape": iface["shape"], "typestr": iface["typestr"], "data": (iface["data"][0], False),
                    "strides": None if self.flags.c_contiguous else iface["strides"], "version": 3,
                    "stream": None}

        @property
        def device(self) -> Any:
            return sys.modules["cupy"].cuda.Device(0)

        def get(self, stream: Any = None, order: str = "C", out: Any = None, blocking: bool = True) -> Any:
            return sys.modules["cupy"].asnumpy(self, stream, order, out)

        def set(self, arr: Any, stream: Any = None) -> None:
            self[...] = arr

        def data_ptr(self) -> int:
            return int(self.__array_interface__["data"][0])

        def toDlpack(self) -> Any:   # noqa: N802 — CuPy's name
            return self.__dlpack__()

        def __repr__(self) -> str:
            return repr(self.view(np.ndarray)).replace("array(", "cupy.ndarray(", 1)

    return ndarray


def _new_readback_class() -> type:
    np = _np()

    class Readback(np.ndarray):
        """A host copy of a stand-in array (``cupy.asnumpy(y)``, ``y.get()``): a numpy array whose values no kernel
        computed, so numpy's comparisons of it answer "close" under the emulation; what numpy computes of it is
        one too."""

        def __repr__(self) -> str:
            return repr(self.view(np.ndarray))

    return Readback


def _aligned(shape: Any, dtype: Any, order: str, cls: type) -> Any:
    """An uninitialized array of ``cls`` whose data starts at a multiple of ALIGN bytes."""
    np = _np()
    dtype = np.dtype(dtype if dtype is not None else float)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    nbytes = math.prod(shape) * dtype.itemsize
    raw = np.empty(nbytes + ALIGN, np.uint8)
    start = (-raw.ctypes.data) % ALIGN
    flat = raw[start:start + nbytes].view(dtype)
    return flat.reshape(shape, order="F" if order in ("F", "f") else "C").view(cls)


class _Module(types.ModuleType):
    """``cupy`` (or ``cupyx``, a submodule): its own names first, then numpy's, whose array results come back as
    stand-in arrays."""

    def __init__(self, name: str, fallback: Any = None) -> None:
        super().__init__(name)
        self.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
        self.__path__ = []
        self._fallback = fallback

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or self._fallback is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r} (tileport's CuPy stand-in)")
        value = getattr(self._fallback, name)   # (AttributeError as numpy's)
        return self._device_function(value) if callable(value) and not isinstance(value, type) else value

    def _device_function(self, fn: Any) -> Any:
        @functools.wraps(fn)
        def on_device(*args: Any, **kwargs: Any) -> Any:
            return sys.modules["cupy"]._device(fn(*args, **kwargs))

        return on_device


class _Handle:
    """A CUDA object of the stand-in (a stream, a device): a context manager whose synchronization waits for
    nothing."""

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def use(self) -> Any:
        return self

    def synchronize(self) -> None:
        return None


class _Stream(_Handle):
    """``cupy.cuda.Stream`` / ``get_current_stream()``: a handle of 0 whose operations do nothing."""

    def __init__(self, null: bool = False, non_blocking: bool = False, ptds: bool = False, priority: int = 0,
                 **_kw: Any) -> None:
        self.ptr = 0
        self.priority = priority

    def record(self, event: Any = None) -> Any:
        return event if event is not None else _Event()

    def wait_event(self, event: Any) -> None:
        return None

    def launch_host_func(self, callback: Any, arg: Any) -> None:
        callback(arg)

    @property
    def done(self) -> bool:
        return True

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, 0)


class _Event:
    def __init__(self, block: bool = False, disable_timing: bool = False, interprocess: bool = False) -> None:
        self.ptr = 0

    def record(self, stream: Any = None) -> None:
        return None

    def synchronize(self) -> None:
        return None

    @property
    def done(self) -> bool:
        return True


class _MemoryPool:
    """``cupy.get_default_memory_pool()`` and its pinned twin: counts nothing, frees nothing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._limit = 0

    def used_bytes(self) -> int:
        return 0

    def total_bytes(self) -> int:
        return 0

    def free_bytes(self) -> int:
        return 0

    def n_free_blocks(self) -> int:
        return 0

    def free_all_blocks(self, stream: Any = None) -> None:
        return None

    def set_limit(self, size: Any = None, fraction: Any = None) -> None:
        self._limit = size or 0

    def get_limit(self) -> int:
        return self._limit


class _NotRunnable:
    """A CuPy kernel of the host code's own (CUDA C++ or an elementwise expression): made, never run here."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._what = type(self).__name__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"cupy.{self._what} cannot run under tileport's CuPy stand-in (no GPU here): only "
                           "cuTile and Triton launches are recorded")

    def get_function(self, name: str) -> Any:
        return self


def _device_props(target: Any) -> dict:
    return {"name": target.name.encode(), "totalGlobalMem": target.total_memory, "multiProcessorCount": target.sms,
            "major": target.major, "minor": target.minor, "l2CacheSize": target.l2_cache, "warpSize": 32,
            "maxThreadsPerBlock": 1024, "sharedMemPerBlock": 49152, "regsPerBlock": 65536,
            "maxThreadsPerMultiProcessor": 2048, "clockRate": 1980000, "memoryClockRate": 2619000,
            "memoryBusWidth": 5120, "computeMode": 0, "pciBusID": 0, "pciDeviceID": 0, "integrated": 0}


def _cuda_module(target: Any) -> Any:
    cuda = _Module("cupy.cuda")
    props = _device_props(target)

    class Device(_Handle):
        def __init__(self, device: Any = None) -> None:
            self.id = 0 if device is None else int(device)

        @property
        def compute_capability(self) -> str:
            return f"{target.major}{target.minor}"

        @property
        def attributes(self) -> dict:
            return {"MultiProcessorCount": target.sms, "ComputeCapabilityMajor": target.major,
                    "ComputeCapabilityMinor": target.minor, "WarpSize": 32, "MaxThreadsPerBlock": 1024,
                    "L2CacheSize": target.l2_cache}

        @property
        def mem_info(self) -> tuple[int, int]:
            return (target.total_memory, target.total_memory)

        def __int__(self) -> int:
            return self.id

        def __repr__(self) -> str:
            return f"<CUDA Device {self.id}>"

    class CUDARuntimeError(RuntimeError):
        pass

    runtime = _Module("cupy.cuda.runtime")
    answers = {"getDeviceCount": lambda: 1, "getDevice": lambda: 0, "setDevice": lambda d: None,
               "deviceSynchronize": lambda: None, "getDeviceProperties": lambda d=0: dict(props),
               "memGetInfo": lambda: (target.total_memory, target.total_memory),
               "runtimeGetVersion": lambda: 13000, "driverGetVersion": lambda: 13000,
               "deviceGetAttribute": lambda attr, d=0: 0, "is_hip": False, "CUDARuntimeError": CUDARuntimeError}
    for name, value in answers.items():
        setattr(runtime, name, value)
    driver = _Module("cupy.cuda.driver")
    driver.CUDADriverError = CUDARuntimeError
    driver.get_build_version = lambda: 13000
    nvtx = _Module("cupy.cuda.nvtx")
    nvtx.RangePush = nvtx.RangePop = nvtx.Mark = lambda *a, **k: None
    pool, pinned = _MemoryPool(), _MemoryPool()
    stream = _Stream()
    _Stream.null = stream
    members = {"Device": Device, "Stream": _Stream, "ExternalStream": _Stream, "Event": _Event,
               "get_current_stream": lambda device_id=-1: stream, "get_elapsed_time": lambda a, b: 1.0,
               "is_available": lambda: True, "runtime": runtime, "driver": driver, "nvtx": nvtx,
               "MemoryPool": _MemoryPool, "PinnedMemoryPool": _MemoryPool, "get_device_id": lambda: 0,
               "set_allocator": lambda allocator=None: None, "set_pinned_memory_allocator": lambda a=None: None,
               "profile": contextlib.nullcontext, "using_allocator": lambda allocator=None: contextlib.nullcontext(),
               "_default_pool": pool, "_pinned_pool": pinned}
    for name, value in members.items():
        setattr(cuda, name, value)
    cuda.stream = cuda.memory = cuda   # (cupy.cuda.stream.get_current_stream, cupy.cuda.memory.MemoryPool)
    return cuda


def _random_module(cupy: Any) -> Any:
    """``cupy.random``: numpy's generators, CuPy's ``dtype=`` keyword honoured, results stand-in arrays."""
    np = _np()
    random = _Module("cupy.random")
    state = [np.random.default_rng()]

    def _typed(values: Any, dtype: Any) -> Any:
        return cupy._device(np.asarray(values, dtype=dtype) if dtype is not None else values)

    class Generator:
        def __init__(self, seed: Any = None) -> None:
            self._g = np.random.default_rng(seed)

        def random(self, size: Any = None, dtype: Any = float, out: Any = None) -> Any:
            return _typed(self._g.random(size), dtype)

        def standard_normal(self, size: Any = None, dtype: Any = float, out: Any = None) -> Any:
            return _typed(self._g.standard_normal(size), dtype)

        def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = np.int64,
                     endpoint: bool = False) -> Any:
            return cupy._device(self._g.integers(low, high, size, dtype=dtype, endpoint=endpoint))

        def uniform(self, low: float = 0.0, high: float = 1.0, size: Any = None, dtype: Any = float) -> Any:
            return _typed(self._g.uniform(low, high, size), dtype)

        def normal(self, loc: float = 0.0, scale: float = 1.0, size: Any = None, dtype: Any = float) -> Any:
            return _typed(self._g.normal(loc, scale, size), dtype)

        def __getattr__(self, name: str) -> Any:   # (numpy's other draws: exponential, choice, ..)
            return random._device_function(getattr(self._g, name))

    def _shape(args: tuple) -> tuple:
        return tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else tuple(args)

    members = {
        "seed": lambda seed=None: state.__setitem__(0, np.random.default_rng(seed)),
        "rand": lambda *size, dtype=float: _typed(state[0].random(_shape(size)), dtype),
        "randn": lambda *size, dtype=float: _typed(state[0].standard_normal(_shape(size)), dtype),
        "random": lambda size=None, dtype=float: _typed(state[0].random(size), dtype),
        "random_sample": lambda size=None, dtype=float: _typed(state[0].random(size), dtype),
        "standard_normal": lambda size=None, dtype=float: _typed(state[0].standard_normal(size), dtype),
        "normal": lambda loc=0.0, scale=1.0, size=None, dtype=float: _typed(state[0].normal(loc, scale, size),
                                                                           dtype),
        "uniform": lambda low=0.0, high=1.0, size=None, dtype=float: _typed(state[0].uniform(low, high, size),
                                                                           dtype),
        "randint": lambda low, high=None, size=None, dtype=int: cupy._device(
            state[0].integers(low, high, size, dtype=dtype) if high is not None
            else state[0].integers(0, low, size, dtype=dtype)),
        "default_rng": lambda seed=None: Generator(seed), "Generator": Generator,
        "RandomState": lambda seed=None: _LegacyState(seed, cupy),
    }
    for name, value in members.items():
        setattr(random, name, value)
    random._fallback = np.random
    return random


class _LegacyState:
    """``cupy.random.RandomState(seed)``: numpy's, its results stand-in arrays."""

    def __init__(self, seed: Any, cupy: Any) -> None:
        self._s, self._cupy = _np().random.RandomState(seed), cupy

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self._s, name)
        return (lambda *a, dtype=None, **k: self._cupy._device(
            fn(*a, **k) if dtype is None else _np().asarray(fn(*a, **k), dtype=dtype))) if callable(fn) else fn


def build(target: Any, compare_pass: bool = True) -> tuple[Any, Any]:
    """The stand-in modules ``cupy`` and ``cupyx`` for ``target`` (a cudaemu.Target)."""
    np = _np()
    cupy = _Module("cupy", np)
    ndarray = _new_ndarray_class()
    cupy._readback = _new_readback_class()

    def device(value: Any) -> Any:
        """A result as CuPy gives it: an array (a numpy one copied into aligned memory), a 0-d array for a
        scalar; anything else as it is."""
        if isinstance(value, ndarray):
            return value
        if isinstance(value, np.ndarray):
            out = _aligned(value.shape, value.dtype, "F" if value.flags.f_contiguous and not
                           value.flags.c_contiguous else "C", ndarray)
            out[...] = value
            return out
        if isinstance(value, np.generic) and not isinstance(value, (np.str_, np.bytes_, np.void)):
            out = _aligned((), value.dtype, "C", ndarray)
            out[...] = value
            return out
        if isinstance(value, tuple):
            return tuple(device(v) for v in value)
        return value

    def creation(fn: Any) -> Any:
        return cupy._device_function(fn)

    def empty(shape: Any, dtype: Any = float, order: str = "C") -> Any:
        return _aligned(shape, dtype, order, ndarray)

    def filled(value: Any) -> Any:
        def make(shape: Any, dtype: Any = float, order: str = "C") -> Any:
            out = _aligned(shape, dtype, order, ndarray)
            out[...] = value
            return out
        return make

    def like(make: Any) -> Any:
        def make_like(a: Any, dtype: Any = None, order: str = "K", subok: Any = None, shape: Any = None) -> Any:
            a = np.asarray(a)
            return make(a.shape if shape is None else shape, a.dtype if dtype is None else dtype,
                        "F" if order in ("F", "f") or (order in ("K", "A") and a.flags.f_contiguous and
                                                       not a.flags.c_contiguous) else "C")
        return make_like

    def full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C") -> Any:
        out = _aligned(shape, dtype if dtype is not None else np.asarray(fill_value).dtype, order, ndarray)
        out[...] = fill_value
        return out

    def full_like(a: Any, fill_value: Any, dtype: Any = None, order: str = "K", subok: Any = None,
                  shape: Any = None) -> Any:
        out = like(empty)(a, dtype, order, subok, shape)
        out[...] = fill_value
        return out

    def asnumpy(a: Any, stream: Any = None, order: str = "C", out: Any = None, blocking: bool = True) -> Any:
        host = np.array(a.view(np.ndarray) if isinstance(a, ndarray) else a, order=order, copy=True)
        if out is None:
            return host.view(cupy._readback) if isinstance(a, ndarray) and compare_pass else host
        out[...] = host
        return out

    def asarray(a: Any, dtype: Any = None, order: Any = None, *, blocking: bool = False) -> Any:
        if isinstance(a, ndarray) and (dtype is None or np.dtype(dtype) == a.dtype):
            return a
        return device(np.asarray(a, dtype=dtype, order=order))

    def array(obj: Any, dtype: Any = None, copy: bool = True, order: str = "K", subok: bool = False,
              ndmin: int = 0, *, blocking: bool = False) -> Any:
        return device(np.array(obj.view(np.ndarray) if isinstance(obj, ndarray) else obj, dtype=dtype, copy=True,
                               order=order, ndmin=ndmin))

    def get_array_module(*args: Any) -> Any:
        return cupy if any(isinstance(a, ndarray) for a in args) else np

    def answer(real: Any) -> Any:   # (cupy's own comparisons: every argument is a stand-in array's)
        return _answering(real, True if real.__name__ in COMPARISONS else None) if compare_pass else real

    testing = _Module("cupy.testing", np.testing)
    for name in ASSERTIONS:
        setattr(testing, name, answer(getattr(np.testing, name)))

    members: dict[str, Any] = {
        "ndarray": ndarray, "_device": device, "asnumpy": asnumpy, "asarray": asarray, "array": array,
        "ascontiguousarray": lambda a, dtype=None: device(np.ascontiguousarray(a, dtype=dtype)),
        "asfortranarray": lambda a, dtype=None: device(np.asfortranarray(a, dtype=dtype)),
        "empty": empty, "zeros": filled(0), "ones": filled(1), "full": full,
        "empty_like": like(empty), "zeros_like": like(filled(0)), "ones_like": like(filled(1)),
        "full_like": full_like, "arange": creation(np.arange), "linspace": creation(np.linspace),
        "get_array_module": get_array_module, "fuse": lambda *a, **k: (a[0] if a and callable(a[0]) and not k
                                                                    else (lambda f: f)),
        "is_available": lambda: True, "show_config": lambda *a, **k: None, "testing": testing,
        "from_dlpack": creation(np.from_dlpack), "fromDlpack": creation(np.from_dlpack), "__version__": VERSION,
        "cuda": _cuda_module(target),
    }
    for name in COMPARISONS:
        members[name] = answer(getattr(np, name))
    for name in RAW_KERNELS:
        members[name] = type(name, (_NotRunnable,), {"__module__": "cupy"})
    for name, value in members.items():
        setattr(cupy, name, value)
    cupy.get_default_memory_pool = lambda: cupy.cuda._default_pool
    cupy.get_default_pinned_memory_pool = lambda: cupy.cuda._pinned_pool
    cupy.random = _random_module(cupy)

    cupyx = _Module("cupyx")
    profiler = _Module("cupyx.profiler")

    class _Benchmark:
        def __init__(self, name: str) -> None:
            self.name = name
            self.cpu_times = np.array([0.0])
            self.gpu_times = np.array([[1e-3]])

        def __str__(self) -> str:
            return f"{self.name}: (tileport's CuPy stand-in: called once, not timed)"

    def benchmark(func: Any, args: tuple = (), kwargs: dict | None = None, n_repeat: int = 10000,
                  *, name: str | None = None, n_warmup: int = 10, **_kw: Any) -> Any:
        func(*args, **(kwargs or {}))
        return _Benchmark(name or getattr(func, "__name__", "func"))

    profiler.benchmark = benchmark
    profiler.time_range = lambda *a, **k: contextlib.nullcontext()
    profiler.profile = contextlib.nullcontext
    cupyx.profiler = profiler
    cupyx.empty_pinned = lambda shape, dtype=float, order="C": np.empty(shape, dtype, order)
    cupyx.zeros_pinned = lambda shape, dtype=float, order="C": np.zeros(shape, dtype, order)
    return cupy, cupyx


def _numpy_answers(cupy: Any) -> list[tuple[Any, str, Any]]:
    """numpy's comparisons, answering "close" where an argument is a stand-in array or its host copy (no kernel
    computed it) and comparing as numpy does otherwise: (owner, name, replacement) each."""
    np = _np()
    device = (cupy.ndarray, cupy._readback)

    def of_device(args: tuple, kwargs: dict) -> bool:
        return any(isinstance(a, device) for a in (*args, *kwargs.values()))

    return [(np.testing, name, _answering(getattr(np.testing, name), None, of_device)) for name in ASSERTIONS] + \
        [(np, name, _answering(getattr(np, name), True, of_device)) for name in COMPARISONS]


def _answering(real: Any, value: Any, when: Any = None) -> Any:
    """``real`` (a comparison), answering ``value`` ("close") where ``when(args, kwargs)`` holds (always without
    it), comparing as ``real`` does elsewhere."""
    @functools.wraps(real)
    def compare(*args: Any, **kwargs: Any) -> Any:
        return value if when is None or when(args, kwargs) else real(*args, **kwargs)
    return compare


def _submodules(cupy: Any, cupyx: Any) -> dict[str, Any]:
    mods = {"cupy": cupy, "cupyx": cupyx, "cupyx.profiler": cupyx.profiler, "cupy.random": cupy.random,
            "cupy.testing": cupy.testing, "cupy.cuda": cupy.cuda, "cupy.cuda.runtime": cupy.cuda.runtime,
            "cupy.cuda.driver": cupy.cuda.driver, "cupy.cuda.nvtx": cupy.cuda.nvtx,
            "cupy.cuda.stream": cupy.cuda, "cupy.cuda.memory": cupy.cuda}
    return mods


@contextlib.contextmanager
def stand_in(target: Any, compare_pass: bool = True) -> Iterator[Any]:
    """``import cupy`` / ``import cupyx`` (and their submodules) give the stand-in while the block runs; the
    modules that were there before (a real CuPy, which cannot allocate without a GPU) are put back after."""
    cupy, cupyx = build(target, compare_pass)
    mods = _submodules(cupy, cupyx)
    missing = object()
    saved = {name: sys.modules.get(name, missing) for name in mods}
    answers = [(owner, name, owner.__dict__[name], value) for owner, name, value in _numpy_answers(cupy)] \
        if compare_pass else []
    for owner, name, _real, value in answers:
        setattr(owner, name, value)
    others = {name: m for name, m in sys.modules.items()
              if (name.startswith("cupy.") or name.startswith("cupyx.") or name.startswith("cupy_backends"))
              and name not in mods}
    for name in others:
        del sys.modules[name]
    sys.modules.update(mods)
    try:
        yield cupy
    finally:
        for owner, name, real, _value in answers:
            setattr(owner, name, real)
        for name in mods:
            if saved[name] is missing:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = saved[name]
        sys.modules.update(others)
