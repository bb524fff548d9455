"""Record ``ct.launch`` calls of ordinary host code without running them (works on a CPU, with CPU tensors).

Each launch is recorded with the signature cuda-tile 1.7's launch specializes on; how arguments are read and which
signature they get (measured on an H200) is in ``frontends.arrays``, which the Triton capture shares.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import os
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...hostrun import run_main
from ...spec.signature import ArraySig, Signature
from .hints import hints_key, kernel_hints
from .loader import kernel_name
from ..arrays import (ALIGN_BYTES, DTYPE_NAMES, INT32, ITEMSIZE, SHAPE_DIV, ArrayFacts, CaptureError, LaunchRejected,
                      array_facts, array_sig, describe_arg, dtype_name, grid_extents,
                      is_numpy_scalar)
from ..triton.capture import install as install_triton
from ..triton.capture import split_specializations

#: the names other modules and tests import from here (they live in ``frontends.arrays``)
__all__ = ["ALIGN_BYTES", "DTYPE_NAMES", "INT32", "ITEMSIZE", "SHAPE_DIV", "ArrayFacts", "CaptureError",
           "LaunchRejected", "Recorder", "array_facts", "array_sig", "constant_params", "describe_arg", "dtype_name",
           "launch_refusal", "load_capture", "run_captured", "signature_from_args", "write_capture"]


def _annotations(kernel: Any) -> dict[str, Any]:
    """Each parameter's annotation, string annotations (`from __future__ import annotations`) resolved as cuda-tile's
    launch resolves them."""
    import inspect

    func = kernel._pyfunc
    try:
        hints = typing.get_type_hints(func, include_extras=True)
    except Exception:  # noqa: BLE001 — a name that does not resolve: cuda-tile's launch fails on it too
        hints = {}
    return {p.name: hints.get(p.name, p.annotation) for p in inspect.signature(func).parameters.values()}


def _metadata(ann: Any) -> tuple:
    return tuple(typing.get_args(ann)[1:]) if typing.get_origin(ann) is typing.Annotated else ()


def constant_params(kernel: Any) -> set[str]:
    """Names of the kernel's ``ct.Constant[...]`` parameters."""
    from cuda.tile._annotated_function import ConstantAnnotation  # type: ignore[attr-defined]

    return {n for n, ann in _annotations(kernel).items() if any(isinstance(a, ConstantAnnotation)
                                                                  for a in _metadata(ann))}


def int64_params(kernel: Any) -> tuple[set[str], set[str]]:
    """(scalars annotated ``ct.ScalarInt64``, arrays annotated ``ct.IndexedWithInt64``): cuda-tile's launch makes
    the first i64 scalars and gives the second 64-bit shapes and strides (``@i64``)."""
    import cuda.tile as ct

    scalars, arrays = set(), set()
    for n, ann in _annotations(kernel).items():
        for a in _metadata(ann):
            if type(a).__name__ == "ScalarAnnotation" and getattr(a, "dtype", None) == ct.int64:
                scalars.add(n)
            elif type(a).__name__ == "ArrayAnnotation" and getattr(a, "index_dtype", None) == ct.int64:
                arrays.add(n)
    return scalars, arrays


def static_shape_params(kernel: Any) -> dict[str, tuple[int, ...]]:
    """Array parameters annotated ``ct.ArrayAnnotation(static_shape_dims=..)``: name → the annotated axes (cuda-tile's
    launch makes those extents static at their launch values, and no extent-1 axis of that array)."""
    out = {}
    for n, ann in _annotations(kernel).items():
        for a in _metadata(ann):
            if type(a).__name__ == "ArrayAnnotation" and getattr(a, "static_shape_dims", ()):
                out[n] = tuple(int(d) for d in a.static_shape_dims)
    return out


def signature_from_args(kernel: Any, args: tuple) -> tuple[Signature, list[dict]]:
    import inspect

    names = list(inspect.signature(kernel._pyfunc).parameters)
    if len(names) != len(args):
        raise LaunchRejected(f"{kernel._pyfunc.__qualname__} takes {len(names)} arguments, launch passed {len(args)} "
                             f"(ct.launch: \"Kernel expects {len(names)} arguments but {len(args)} were given\")")
    consts = constant_params(kernel)
    i64_scalars, i64_arrays = int64_params(kernel)
    static = static_shape_params(kernel)
    params, described = [], []
    for name, value in zip(names, args):
        sig, d = describe_arg(name, value, name in consts, int_dtype="i64" if name in i64_scalars else "i32",
                              annotated=static.get(name))
        if name in i64_arrays and isinstance(sig, ArraySig):
            sig = dataclasses.replace(sig, index_i64=True)
            d["index_i64"] = True
        params.append((name, sig))
        described.append(d)
    return Signature(tuple(params)), described


_DRIVER: list[bool] = []


def _driver_installed() -> bool:
    """Whether this machine has a CUDA driver library (cached)."""
    if not _DRIVER:
        import ctypes

        try:
            ctypes.CDLL("libcuda.so.1")
            _DRIVER.append(True)
        except OSError:
            _DRIVER.append(False)
    return _DRIVER[0]


def launch_refusal(kernel: Any, args: tuple) -> str | None:
    """What ct.launch's own argument check says against these arguments, or None. cuda-tile's
    ``get_parameter_constraints_from_pyargs`` (what its launch runs) checks every argument's type before anything
    needs the CUDA driver, so on a machine without one its TypeError is the launch's refusal and any other error (the
    driver it asks for next) means the checks passed. Where a driver is installed the check is left to tileport's
    own rules (``describe_arg``): a capture's arrays may be host memory (numpy), which the driver-backed check would
    refuse though the launch recorded is meant for device arrays alike. For the same reason an argument tileport reads
    as an array (``array_facts``: torch-style objects, array interfaces) is left to those rules too."""
    import re

    if _driver_installed():
        return None
    try:
        from cuda.tile._cext import CallingConvention, get_parameter_constraints_from_pyargs
    except ImportError:
        return None
    try:
        get_parameter_constraints_from_pyargs(kernel, tuple(args), CallingConvention.cutile_python_v1())
    except TypeError as exc:
        m = re.match(r"Invalid kernel argument #(\d+)", str(exc))
        arg = args[int(m.group(1))] if m and int(m.group(1)) < len(args) else None
        if arg is not None and not is_numpy_scalar(arg) and array_facts(arg) is not None:
            return None
        return str(exc)
    except Exception:  # noqa: BLE001 — past the type checks: the driver (absent here) was asked for
        return None
    return None


#: context managers of host code that expect the block's code to raise (pytest's and unittest's)
RAISES_CONTEXTS = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})


@functools.lru_cache(maxsize=512)
def _raises_blocks(path: str, mtime: float) -> tuple[tuple[int, int, int], ...]:
    """(first line, last line, the statement's line) of each block of ``path`` whose errors the host code expects or
    handles: under a RAISES_CONTEXTS context manager, or the body of a ``try`` with ``except`` clauses (`try:
    ct.launch(..) except TileError: pytest.skip(..)`, a fallback to torch where a launch raises)."""
    import ast

    try:
        tree = ast.parse(Path(path).read_text(), filename=path)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return ()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))) and node.handlers and node.body:
            out.append((node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno, node.lineno))
            continue
        if not isinstance(node, (ast.With, ast.AsyncWith)) or not node.body:
            continue
        for item in node.items:
            call = item.context_expr
            fn = call.func if isinstance(call, ast.Call) else None
            name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else None
            if name in RAISES_CONTEXTS:
                out.append((node.body[0].lineno, node.end_lineno or node.body[-1].lineno, node.lineno))
    return tuple(out)


def expected_raise() -> str | None:
    """``FILE:LINE`` of the `with pytest.raises(..)` (or unittest's ``self.assertRaises(..)``) block, or the `try`
    with `except` clauses, the running host code is inside — a frame of a file outside the installed packages and
    tileport, at a line of such a block — or None."""
    import sys

    from ...corpus.cudaemu import installed_code_roots

    skip = (*installed_code_roots(), str(Path(__file__).resolve().parents[2]))
    frame = sys._getframe(1)
    while frame is not None:
        path = frame.f_code.co_filename
        if path.endswith(".py") and not path.startswith(skip):
            try:
                blocks = _raises_blocks(path, os.stat(path).st_mtime)
            except OSError:
                blocks = ()
            line = frame.f_lineno
            for first, last, at in blocks:
                if first <= line <= last:
                    return f"{path}:{at}"
        frame = frame.f_back
    return None


#: front_end_rejection's answers: (the kernel's function, its name, the signature) → (the function, the error)
_FRONT_END: dict[tuple[int, str, str], tuple[Any, Exception | None]] = {}


def front_end_rejection(kernel: Any, sig: Signature, name: str) -> Exception | None:
    """cuda.tile's own error compiling ``kernel`` at ``sig`` to Tile IR (its front end, on the CPU: what a launch on
    a GPU compiles first), or None where it compiles (or the compile cannot be run here); once per kernel and
    signature."""
    key = (id(kernel._pyfunc), name, sig.text())
    held = _FRONT_END.get(key)
    if held is not None and held[0] is kernel._pyfunc:
        return held[1]
    _FRONT_END[key] = (kernel._pyfunc, _front_end_rejection(kernel, sig, name))
    return _FRONT_END[key][1]


def _front_end_rejection(kernel: Any, sig: Signature, name: str) -> Exception | None:
    import io

    from ...spec import signature as sigmod

    try:
        from cuda.tile._compile import _SUPPORTED_VERSIONS
        from cuda.tile.compilation import export_kernel

        ks = sigmod.to_cutile(sig).with_mangled_symbol(name.partition("@")[0])
        version = max(_SUPPORTED_VERSIONS).as_string()
    except Exception:  # noqa: BLE001 — not convertible here: the launch is recorded as any other
        return None
    try:
        export_kernel(kernel, [ks], io.BytesIO(), output_format="tileir_bytecode", bytecode_version=version)
    except Exception as exc:  # noqa: BLE001 — cuda.tile's errors (TileError & co., TypeError, ValueError)
        return exc if type(exc).__module__.startswith("cuda.tile") or isinstance(exc, (TypeError, ValueError)) \
            else None
    return None


@dataclass
class Recorder:
    launches: dict[tuple, dict] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)     # launches not recorded: what the capture cannot describe
    rejected: list[str] = field(default_factory=list)   # launches the launch itself refuses (raised in the host)
    #: (source file, function name) of each refused launch's kernel, in the order of ``rejected``
    rejected_kernels: list[tuple[str, str]] = field(default_factory=list)

    def reject(self, func: Any, exc: Exception, what: str = "") -> LaunchRejected:
        """Note a launch of ``func`` (the kernel's Python function) the launch itself refuses; the error to raise
        in the host code, as the launch would."""
        import inspect

        msg = f"{func.__qualname__}{what}: {exc}"
        self.rejected.append(msg)
        self.rejected_kernels.append((inspect.getsourcefile(func) or "<unknown>", kernel_name(func)[0]))
        return (type(exc) if isinstance(exc, LaunchRejected) else LaunchRejected)(msg)   # (an OverflowError stays one)

    def record(self, grid: Any, kernel: Any, args: tuple) -> None:
        """Record one ``ct.launch(stream, grid, kernel, args)``; raises :class:`LaunchRejected` (a TypeError) where
        ct.launch itself would raise, after noting it."""
        import inspect

        func = getattr(kernel, "_pyfunc", None)
        if func is None:   # (a function wrapping a kernel, `traced(ct.kernel(f))`: ct.launch takes no such object)
            msg = (f"{getattr(kernel, '__qualname__', type(kernel).__name__)}: ct.launch takes a @ct.kernel object, "
                   f"not a {type(kernel).__name__} (a function wrapping a kernel is no kernel)")
            try:
                where = inspect.getsourcefile(kernel) or "<unknown>"
            except TypeError:
                where = "<unknown>"
            self.rejected.append(msg)
            self.rejected_kernels.append((where, getattr(kernel, "__name__", type(kernel).__name__)))
            raise LaunchRejected(msg)
        source = inspect.getsourcefile(func) or "<unknown>"
        try:
            grid_t = grid_extents(grid)
        except LaunchRejected as exc:
            raise self.reject(func, exc) from None
        refusal = launch_refusal(kernel, tuple(args))
        if refusal is not None:
            raise self.reject(func, LaunchRejected(f"ct.launch refuses the arguments: {refusal}"))
        try:
            sig, described = signature_from_args(kernel, tuple(args))
        except LaunchRejected as exc:
            raise self.reject(func, exc) from None
        except CaptureError as exc:
            self.errors.append(f"{func.__qualname__}: {exc}")
            return
        # the hints this launch compiles with (`kernel.replace_hints(occupancy=..)` of an autotuner's pick, else
        # the decorator's): recorded, so a port at other hints is said to be one
        hints = {k: v for k, v in kernel_hints(kernel).items() if v != "default"}
        name, closure = kernel_name(func)   # a factory's kernel: NAME@LINE, and the values it closes over
        expected = expected_raise()
        if expected is not None:
            # host code expecting this launch to raise (`with pytest.raises(..)`) or handling its errors (`try`):
            # on a GPU its compile raises where cuda.tile rejects the kernel; that compile runs here too, and its
            # error is the launch's
            exc = front_end_rejection(kernel, sig, name)
            if exc is not None:
                first = (str(exc).strip().splitlines() or [""])[0]
                self.reject(func, LaunchRejected(f"cuda.tile's compile raises {type(exc).__name__}: {first}"),
                            f" (inside {expected})")
                raise exc
        key = (source, name, grid_t, sig.text(), hints_key(hints))
        if key in self.launches:
            self.launches[key]["count"] += 1
            return
        self.launches[key] = {"kernel": f"{source}::{name}", "qualname": func.__qualname__,
                              "source": source, "line": inspect.getsourcelines(func)[1], "grid": list(grid_t),
                              "signature": sig.text(), "args": described, "count": 1,
                              **({"hints": hints} if hints else {}), **({"closure": closure} if closure else {})}

    def as_json(self, script: str, argv: list[str]) -> dict:
        return {"format": 1, "script": script, "argv": argv,
                "launches": split_specializations(list(self.launches.values())),
                "errors": self.errors, **({"rejected": self.rejected} if self.rejected else {})}


def run_captured(script: Path, argv: list[str], rec: Recorder | None = None, host: Any = None) -> Recorder:
    """Run ``script`` with ``argv`` as ``__main__`` (``script`` "-m": the module ``argv[0]``), recording (not
    executing) every cuTile and Triton launch into ``rec`` (which keeps what was recorded when the script raises).
    ``host``: a context manager the script runs under (the CUDA emulation of a machine without a GPU)."""
    import contextlib

    import cuda.tile as ct

    rec = Recorder() if rec is None else rec

    def fake_launch(stream, grid, kernel, kernel_args, /, **_kw):  # noqa: ARG001 — same signature as ct.launch
        rec.record(grid, kernel, tuple(kernel_args))

    saved = {name: getattr(ct, name) for name in ("launch", "launch_extended") if hasattr(ct, name)}
    undo_triton = install_triton(rec)  # `kernel[grid](...)` of @triton.jit kernels, recorded the same way
    try:
        for name in saved:
            setattr(ct, name, fake_launch)
        with host if host is not None else contextlib.nullcontext():
            run_main([str(script), *argv])
    except SystemExit as exc:
        if exc.code not in (0, None):
            name = f"-m {argv[0]}" if str(script) == "-m" else str(script)
            raise CaptureError(f"{name} exited with {exc.code}") from None
    finally:
        for name, fn in saved.items():
            setattr(ct, name, fn)
        undo_triton()
    return rec


def write_capture(rec: Recorder, script: Path, argv: list[str], out: Path, assumptions: list[str] = ()) -> dict:
    data = rec.as_json(str(script), argv)
    if assumptions:   # what an emulated capture (no GPU here) answered for the host program
        data["assumptions"] = list(assumptions)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n")
    return data


def load_capture(path: Path, kernel_ref: str | None = None) -> list[dict]:
    """Launches from a capture file, optionally only those of one kernel (matched by source path and name)."""
    data = json.loads(path.read_text())
    launches = data.get("launches", [])
    if kernel_ref is None:
        return launches
    file, _, name = kernel_ref.rpartition("::")
    want = os.path.realpath(file)
    return [l for l in launches if l["kernel"].rpartition("::")[2] == name
            and os.path.realpath(l["source"]) == want]
