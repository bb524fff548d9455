"""Triton's runtime answered as the target GPU on a machine without one (``tileport corpus capture``).

Real Triton host code asks Triton's driver, not only torch, about the GPU: ``driver.active.get_active_torch_device()``
for the device to allocate on, ``get_current_target()`` to pick a code path, ``utils.get_device_properties(i)`` to
size a persistent grid; its benchmarks time launches with ``triton.testing.do_bench`` and sweep shapes with
``@triton.testing.perf_report`` (``bench.run(...)``, which plots with matplotlib). While ``emulate_triton`` runs:

- ``triton.runtime.driver`` answers through a stand-in driver for the target (``Driver``); the figures torch does
  not report (shared memory, registers, clocks) are the target architecture's, listed in ``ARCH_LIMITS``;
- ``do_bench`` / ``do_bench_cudagraph`` call the function once (its launches are recorded) and time nothing: they
  answer 1.0 ms; ``nvsmi([..])`` answers the target's clocks and memory (``NVSMI_FIELDS``; it ran nvidia-smi) and
  ``set_gpu_clock`` locks nothing;
- a ``perf_report`` benchmark's ``run`` calls its function once per point of its sweep (every x value, every
  provider), so that its launches at the benchmark's shapes are recorded; it prints, plots and saves nothing.
  A point that raises is counted in the notes and the sweep goes on;
- what older host code imports from Triton and Triton 3.6 no longer has is answered by stand-ins that run nothing
  (``LEGACY``): the module ``triton.tools.experimental_descriptor`` (Triton's early-2025 tutorials import it and use
  nothing of it), the driver's ``utils.fill_1d_tma_descriptor`` / ``fill_2d_tma_descriptor`` (host-side TMA
  descriptors: they fill nothing; the kernels that read such a buffer call ``tl._experimental_descriptor_load``,
  which Triton 3.6 cannot compile either, and the lowering refuses them saying so), and
  ``triton._C.libtriton.nvidia.cublas.CublasLt`` (cuBLAS through Triton: its ``matmul`` computes nothing, as a
  reference matrix product over ``--max-gmac`` is not computed). Each is listed in the capture's assumptions.

Nothing is done when triton is not installed.
"""
from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any, Iterator

from .cudaemu import ARCH_LIMITS, Target


class Utils:
    """``driver.active.utils``: what host code reads of the device."""

    def __init__(self, target: Target):
        self.target = target

    def get_device_properties(self, device: Any = 0) -> dict:  # noqa: ARG002 — one device
        t = self.target
        smem, regs, sm_clock, mem_clock, bus = ARCH_LIMITS.get((t.major, t.minor), ARCH_LIMITS[(9, 0)])
        return {"max_shared_mem": smem, "max_num_regs": regs, "multiprocessor_count": t.sms, "warpSize": 32,
                "sm_clock_rate": sm_clock, "mem_clock_rate": mem_clock, "mem_bus_width": bus}

    # Triton <= 3.3's host-side TMA descriptor fillers (gone in 3.6): early-2025 tutorials call them in their grid
    # functions; here they fill nothing (``LEGACY``)
    def fill_1d_tma_descriptor(self, ptr: int, dim: int, block_dim: int, element_size: int, desc: int) -> None:
        pass

    def fill_2d_tma_descriptor(self, ptr: int, dim1: int, dim0: int, block_dim1: int, block_dim0: int,
                               element_size: int, desc: int) -> None:
        pass


class Driver:
    """``triton.runtime.driver.active`` for the target: a CUDA device 0 that runs nothing."""

    def __init__(self, target: Target):
        self.target = target
        self.utils = Utils(target)

    @staticmethod
    def is_active() -> bool:
        return True

    def get_current_target(self) -> Any:
        from triton.backends.compiler import GPUTarget

        return GPUTarget("cuda", self.target.major * 10 + self.target.minor, 32)

    def get_active_torch_device(self) -> Any:
        import torch

        return torch.device("cuda", 0)

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device: int) -> None:
        pass

    def get_current_stream(self, device: Any = None) -> int:  # noqa: ARG002
        return 0

    def get_device_capability(self, device: Any = 0) -> tuple[int, int]:  # noqa: ARG002
        return self.target.major, self.target.minor

    def get_device_interface(self) -> Any:
        import torch

        return torch.cuda

    def get_benchmarker(self) -> Any:
        import triton.testing

        return triton.testing.do_bench

    def get_empty_cache_for_benchmark(self) -> Any:
        import torch

        return torch.empty(0, dtype=torch.int8)

    def clear_cache(self, cache: Any) -> None:
        pass


def _timed_once(fn: Any, *_a: Any, quantiles: Any = None, **_kw: Any) -> Any:
    fn()
    return [1.0] * len(quantiles) if quantiles else 1.0


#: nvidia-smi's --query-gpu fields ``nvsmi`` answers: (field names, what of the target: "sm" / "mem" clock in MHz, or
#: "total" / "used" / "free" memory in MiB)
NVSMI_FIELDS = {("clocks.max.sm", "clocks.sm", "clocks.current.sm", "clocks.max.graphics", "clocks.gr",
                 "clocks.current.graphics", "clocks.applications.graphics"): "sm",
                ("clocks.max.memory", "clocks.max.mem", "clocks.mem", "clocks.current.memory",
                 "clocks.applications.memory"): "mem",
                ("memory.total",): "total", ("memory.used",): "used", ("memory.free",): "free"}


def nvsmi_for(target: Target) -> Any:
    """``triton.testing.nvsmi(attrs)`` for the target: the fields of ``NVSMI_FIELDS`` (Triton's benchmark scripts
    size their TFLOPS / GB/s by its clocks), as ints as Triton returns them; it ran nvidia-smi, which a machine
    without a GPU has not (FileNotFoundError). Another field is refused saying so."""
    smem, regs, sm_clock, mem_clock, bus = ARCH_LIMITS.get((target.major, target.minor), ARCH_LIMITS[(9, 0)])
    values = {"sm": sm_clock // 1000, "mem": mem_clock // 1000, "total": target.total_memory >> 20, "used": 0,
              "free": target.total_memory >> 20}
    by_field = {f: values[what] for fields, what in NVSMI_FIELDS.items() for f in fields}

    def nvsmi(attrs: Any) -> list[int]:
        out = []
        for a in attrs:
            if a not in by_field:
                raise ValueError(f"triton.testing.nvsmi: nvidia-smi's {a!r} is not answered while emulating "
                                 f"{target.name} (answered: {', '.join(by_field)})")
            out.append(by_field[a])
        return out

    return nvsmi


@contextlib.contextmanager
def locked_clocks(ref_sm_clock: int = 1350, ref_mem_clock: int = 1215) -> Iterator[tuple[float, float]]:
    """``triton.testing.set_gpu_clock(sm, mem)`` here: the clocks locked by nvidia-smi (which is not here) are not;
    it yields the (TFLOPS, GB/s) Triton's own computes from the clocks asked for, and does nothing."""
    yield 1e-6 * 2 * 108 * 4 * 256 * ref_sm_clock, 640 * 2 * ref_mem_clock * 1e-3


@contextlib.contextmanager
def quick_benchmarks(target: Target | None = None) -> Iterator[Counter]:
    """``do_bench`` / ``do_bench_cudagraph`` call once and answer 1.0 ms; a ``perf_report`` benchmark's ``run``
    calls its function once per point of its sweep and prints, plots and saves nothing. Yields a Counter of the
    points that raised (``"benchmark NAME: ErrorType"`` → count)."""
    import triton.testing

    raised: Counter = Counter()

    def run_sweep(mark: Any, *_a: Any, **kwargs: Any) -> None:
        kwargs = {k: v for k, v in kwargs.items() if k not in ("show_plots", "print_data", "save_path",
                                                              "return_df")}
        benches = mark.benchmarks if isinstance(mark.benchmarks, (list, tuple)) else [mark.benchmarks]
        for bench in benches:
            for x in bench.x_vals:
                xs = x if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
                for y in bench.line_vals:
                    try:
                        mark.fn(**dict(zip(bench.x_names, xs)), **{bench.line_arg: y}, **bench.args, **kwargs)
                    except Exception as exc:  # noqa: BLE001 — one point of a sweep: counted, the sweep goes on
                        raised[f"benchmark {bench.plot_name or mark.fn.__name__}: {type(exc).__name__}"] += 1

    stand_ins = {"do_bench": _timed_once, "do_bench_cudagraph": _timed_once}
    if target is not None:   # (nvidia-smi: the target's clocks and memory)
        stand_ins |= {"nvsmi": nvsmi_for(target), "set_gpu_clock": locked_clocks}
    stand_ins = {n: fn for n, fn in stand_ins.items() if hasattr(triton.testing, n)}
    saved = {n: getattr(triton.testing, n) for n in stand_ins}
    saved_run = triton.testing.Mark.run
    for n, fn in stand_ins.items():
        setattr(triton.testing, n, fn)
    triton.testing.Mark.run = run_sweep
    try:
        yield raised
    finally:
        for n, fn in saved.items():
            setattr(triton.testing, n, fn)
        triton.testing.Mark.run = saved_run


class CublasLt:
    """``triton._C.libtriton.nvidia.cublas.CublasLt`` here: a host program's cuBLAS reference, computing nothing."""

    def __init__(self, workspace: Any = None):
        self.workspace = workspace

    def matmul(self, a: Any, b: Any, c: Any) -> None:
        pass

    def gemm(self, *args: Any) -> None:
        pass

    def block_scaled_matmul_mxfp8(self, *args: Any) -> None:   # (tutorial 10's references, Triton >= 3.6)
        pass

    def block_scaled_matmul_nvfp4(self, *args: Any) -> None:
        pass


#: what the stand-ins answer, for the capture's assumptions (module docstring)
LEGACY = ["triton.tools.experimental_descriptor (Triton <= 3.3; imported, unused, by Triton's early-2025 tutorials) "
          "is an empty module when the installed Triton lacks it",
          "the driver's utils.fill_1d_tma_descriptor / fill_2d_tma_descriptor (Triton <= 3.3 host TMA descriptors) "
          "fill nothing; kernels reading such buffers (tl._experimental_descriptor_load) are refused at lowering",
          "triton._C.libtriton.nvidia.cublas.CublasLt (cuBLAS through Triton) computes nothing: a host's reference "
          "product, like torch's above --max-gmac",
          "tl._experimental_make_tensor_descriptor (Triton 3.3's name of tl.make_tensor_descriptor) is that function "
          "when the installed Triton has only the new name, so Triton compiles kernels that call it"]


@contextlib.contextmanager
def legacy_modules(cublas: bool = True) -> Iterator[None]:
    """The stand-ins of ``LEGACY`` (only where the installed Triton lacks the module; restored on exit). With
    ``cublas=False`` (on a GPU: Triton's cuBLAS runs) only the module stand-in and the function's old name."""
    import importlib.util
    import sys
    import types

    import triton.tools

    name = "triton.tools.experimental_descriptor"
    added = None
    try:
        missing = importlib.util.find_spec(name) is None
    except (ImportError, ValueError):
        missing = True
    if missing and name not in sys.modules:
        added = types.ModuleType(name, "stand-in of Triton <= 3.3's module (tileport corpus capture): empty")
        sys.modules[name] = added
        triton.tools.experimental_descriptor = added  # type: ignore[attr-defined]
    import triton.language as tl

    old_name = "_experimental_make_tensor_descriptor"   # renamed make_tensor_descriptor after Triton 3.3
    aliased = not hasattr(tl, old_name) and hasattr(tl, "make_tensor_descriptor")
    if aliased:
        setattr(tl, old_name, tl.make_tensor_descriptor)
    try:
        from triton._C.libtriton import nvidia
        saved_cublas = getattr(nvidia, "cublas", None)
    except ImportError:
        nvidia, saved_cublas = None, None
    if not cublas:
        saved_cublas = None
    if saved_cublas is not None:
        nvidia.cublas = types.SimpleNamespace(CublasLt=CublasLt)
    try:
        yield
    finally:
        if added is not None:
            sys.modules.pop(name, None)
            if getattr(triton.tools, "experimental_descriptor", None) is added:
                del triton.tools.experimental_descriptor
        if saved_cublas is not None:
            nvidia.cublas = saved_cublas
        if aliased:
            delattr(tl, old_name)


@contextlib.contextmanager
def emulate_triton(target: Target) -> Iterator[Counter]:
    """Triton answered as ``target`` while the block runs, its benchmarks quick (module docstring). Yields
    ``quick_benchmarks``' Counter of raising benchmark points."""
    try:
        from triton.runtime import driver as config
    except ImportError:
        yield Counter()
        return
    saved_active = config._active
    config.set_active(Driver(target))
    try:
        with quick_benchmarks(target) as raised, legacy_modules():
            yield raised
    finally:
        config._active = saved_active


def assumptions(target: Target) -> list[str]:
    """What ``emulate_triton`` answers, for the capture's output (nothing when triton is not installed)."""
    import importlib.util

    if importlib.util.find_spec("triton") is None:
        return []
    smem, regs, *_ = ARCH_LIMITS.get((target.major, target.minor), ARCH_LIMITS[(9, 0)])
    return [f"triton's driver answers as {target.name} ({target.arch}): {target.sms} SMs, {smem} bytes of shared "
            f"memory per block, {regs} registers per SM",
            "triton.testing.do_bench calls its function once and answers 1.0 ms; a perf_report benchmark's run() "
            "calls its function once per point of its sweep and prints/plots nothing",
            "triton.testing.nvsmi answers the target's clocks and memory (clocks.max.sm, clocks.max.memory, "
            "memory.total, ..) without nvidia-smi; set_gpu_clock locks nothing",
            "kernel.warmup(...) and kernel[grid](...) compile nothing: the handle they return records its launches "
            f"and reports {_guessed()['n_regs']} registers, {_guessed()['n_spills']} spills, {_guessed()['shared']} "
            "bytes of shared memory and empty listings (asm) (guesses: nothing was compiled); an autotuner's "
            "best_config is the config taken", *LEGACY]


def _guessed() -> dict:
    from ..frontends.triton.capture import Compiled

    return Compiled.GUESSED
