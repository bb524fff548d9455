"""Record ``ct.launch`` calls of ordinary host code without running them (works on a CPU, with CPU tensors).

The recorded signature reproduces what cuda-tile 1.7's launch specializes on, as measured on an H200 with torch
tensors (docs/gpu.md, docs/verification/h200/launch_signatures.json):

* unit-stride dimensions get a constant stride of 1; other strides are dynamic and non-negative, divisible by
  16 bytes / element size when they are a multiple of it;
* an extent that is a multiple of 16 is marked divisible by 16;
* a 16-byte aligned data pointer is marked so; a zero stride marks the array as internally aliasing;
* Python ints are i32 (values outside int32 are rejected, as launch rejects them), floats f32, bools bool.

Arrays are read by duck typing: ``__cuda_array_interface__`` / ``__array_interface__`` dicts, numpy-style
(``strides`` in bytes, ``ctypes.data``) and torch-style (``stride()``, ``data_ptr()``) objects, so any framework
cuda-tile accepts works, on any device.
"""
from __future__ import annotations

import json
import os
import runpy
import sys
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import TileportError
from ...spec.signature import ArraySig, ConstSig, ScalarSig, Signature

ALIGN_BYTES = 16
SHAPE_DIV = 16
INT32 = (-(2**31), 2**31 - 1)

#: numpy/torch/typestr dtype names → signature dtype names.
DTYPE_NAMES = {
    "float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64", "int8": "i8", "int16": "i16",
    "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "bool": "bool", "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2",
    "<f4": "f32", "<f2": "f16", "<f8": "f64", "<i1": "i8", "|i1": "i8", "<i2": "i16", "<i4": "i32", "<i8": "i64",
    "|u1": "u8", "<u2": "u16", "<u4": "u32", "<u8": "u64", "|b1": "bool",
}
ITEMSIZE = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "u8": 1, "u16": 2,
            "u32": 4, "u64": 8, "bool": 1, "f8e4m3fn": 1, "f8e5m2": 1}


class CaptureError(TileportError):
    pass


@dataclass(frozen=True)
class ArrayFacts:
    dtype: str
    shape: tuple[int, ...]
    strides: tuple[int, ...]  # elements
    data_ptr: int


def _dtype_name(dt: Any) -> str:
    for cand in (str(dt).removeprefix("torch."), getattr(dt, "name", None), getattr(dt, "str", None)):
        if cand in DTYPE_NAMES:
            return DTYPE_NAMES[cand]
    raise CaptureError(f"unsupported array dtype {dt!r}")


def array_facts(obj: Any) -> ArrayFacts | None:
    """Shape, element strides, dtype and data pointer of an array-like, or None if it is not one."""
    for attr in ("__cuda_array_interface__", "__array_interface__"):
        iface = getattr(obj, attr, None)
        if isinstance(iface, dict) and "shape" in iface:
            dtype = _dtype_name(iface["typestr"])
            size = ITEMSIZE[dtype]
            shape = tuple(int(s) for s in iface["shape"])
            if iface.get("strides"):
                strides = tuple(int(s) // size for s in iface["strides"])
            else:
                strides = tuple(_contiguous(shape))
            return ArrayFacts(dtype, shape, strides, int(iface["data"][0]))
    if callable(getattr(obj, "data_ptr", None)) and callable(getattr(obj, "stride", None)):  # torch
        return ArrayFacts(_dtype_name(obj.dtype), tuple(int(s) for s in obj.shape),
                          tuple(int(s) for s in obj.stride()), int(obj.data_ptr()))
    if hasattr(obj, "strides") and hasattr(obj, "ctypes") and hasattr(obj, "dtype"):  # numpy
        dtype = _dtype_name(obj.dtype)
        return ArrayFacts(dtype, tuple(obj.shape), tuple(s // ITEMSIZE[dtype] for s in obj.strides),
                          int(obj.ctypes.data))
    return None


def _contiguous(shape: tuple[int, ...]) -> list[int]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= s
    return list(reversed(out))


def array_sig(f: ArrayFacts) -> ArraySig:
    """The signature cuda-tile's launch derives for these facts (rules in the module docstring)."""
    elem_div = max(1, ALIGN_BYTES // ITEMSIZE[f.dtype])
    strides, stride_div = [], []
    for st in f.strides:
        if st == 1:
            strides.append(1)
            stride_div.append(1)
        else:
            strides.append(None)
            stride_div.append(elem_div if st % elem_div == 0 and elem_div > 1 else 1)
    shape_div = tuple(SHAPE_DIV if n % SHAPE_DIV == 0 else 1 for n in f.shape)
    return ArraySig(f.dtype, (None,) * len(f.shape), tuple(strides), False, shape_div, tuple(stride_div),
                    ALIGN_BYTES if f.data_ptr % ALIGN_BYTES == 0 else 1, any(s == 0 for s in f.strides))


def constant_params(kernel: Any) -> set[str]:
    """Names of the kernel's ``ct.Constant[...]`` parameters."""
    import inspect

    from cuda.tile._annotated_function import ConstantAnnotation  # type: ignore[attr-defined]

    out = set()
    for p in inspect.signature(kernel._pyfunc).parameters.values():
        if typing.get_origin(p.annotation) is typing.Annotated and any(
                isinstance(a, ConstantAnnotation) for a in typing.get_args(p.annotation)[1:]):
            out.add(p.name)
    return out


def describe_arg(name: str, value: Any, constant: bool, const_word: str = "constant",
                 int32_why: str = "ct.launch rejects it too") -> tuple[Any, dict]:
    """(signature part, the capture's description) of one launch argument: a constant's value, an array's facts,
    a bool / int32 / f32 scalar. ``const_word`` and ``int32_why`` word the errors for the frontend asking."""
    if constant:
        if not isinstance(value, (bool, int, float)):
            raise CaptureError(f"{const_word} {name}={value!r} is not a bool, int or float")
        return ConstSig(value), {"name": name, "kind": "constant", "value": value}
    facts = array_facts(value)
    if facts is not None:
        return array_sig(facts), {"name": name, "kind": "array", "dtype": facts.dtype, "shape": list(facts.shape),
                                  "strides": list(facts.strides), "data_ptr_mod_16": facts.data_ptr % 16}
    if isinstance(value, bool):
        dtype = "bool"
    elif isinstance(value, int):
        if not INT32[0] <= value <= INT32[1]:
            raise CaptureError(f"scalar {name}={value} does not fit in int32 ({int32_why})")
        dtype = "i32"
    elif isinstance(value, float):
        dtype = "f32"
    else:
        raise CaptureError(f"argument {name} of type {type(value).__name__} is neither an array nor a scalar")
    return ScalarSig(dtype), {"name": name, "kind": "scalar", "dtype": dtype, "value": value}


def signature_from_args(kernel: Any, args: tuple) -> tuple[Signature, list[dict]]:
    import inspect

    names = list(inspect.signature(kernel._pyfunc).parameters)
    if len(names) != len(args):
        raise CaptureError(f"{kernel._pyfunc.__qualname__} takes {len(names)} arguments, launch passed {len(args)}")
    consts = constant_params(kernel)
    params, described = [], []
    for name, value in zip(names, args):
        sig, d = describe_arg(name, value, name in consts)
        params.append((name, sig))
        described.append(d)
    return Signature(tuple(params)), described


@dataclass
class Recorder:
    launches: dict[tuple, dict] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def record(self, grid: Any, kernel: Any, args: tuple) -> None:
        import inspect

        func = kernel._pyfunc
        source = inspect.getsourcefile(func) or "<unknown>"
        grid_t = tuple(int(g) for g in (grid if isinstance(grid, (tuple, list)) else (grid,)))
        grid_t = grid_t + (1,) * (3 - len(grid_t))
        try:
            sig, described = signature_from_args(kernel, tuple(args))
        except CaptureError as exc:
            self.errors.append(f"{func.__qualname__}: {exc}")
            return
        key = (source, func.__qualname__, grid_t, sig.text())
        if key in self.launches:
            self.launches[key]["count"] += 1
            return
        self.launches[key] = {"kernel": f"{source}::{func.__name__}", "qualname": func.__qualname__,
                              "source": source, "line": inspect.getsourcelines(func)[1], "grid": list(grid_t),
                              "signature": sig.text(), "args": described, "count": 1}

    def as_json(self, script: str, argv: list[str]) -> dict:
        return {"format": 1, "script": script, "argv": argv, "launches": list(self.launches.values()),
                "errors": self.errors}


def run_captured(script: Path, argv: list[str]) -> Recorder:
    """Run ``script`` with ``argv`` as ``__main__``, recording (not executing) every cuTile and Triton launch."""
    import cuda.tile as ct

    rec = Recorder()

    def fake_launch(stream, grid, kernel, kernel_args, /, **_kw):  # noqa: ARG001 — same signature as ct.launch
        rec.record(grid, kernel, tuple(kernel_args))

    from ..triton.capture import install as install_triton

    saved = {name: getattr(ct, name) for name in ("launch", "launch_extended") if hasattr(ct, name)}
    old_argv, old_path = sys.argv[:], sys.path[:]
    undo_triton = install_triton(rec)  # `kernel[grid](...)` of @triton.jit kernels, recorded the same way
    try:
        for name in saved:
            setattr(ct, name, fake_launch)
        sys.argv = [str(script), *argv]
        sys.path.insert(0, str(script.parent.resolve()))
        runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise CaptureError(f"{script} exited with {exc.code}") from None
    finally:
        for name, fn in saved.items():
            setattr(ct, name, fn)
        undo_triton()
        sys.argv, sys.path[:] = old_argv, old_path
    return rec


def write_capture(rec: Recorder, script: Path, argv: list[str], out: Path) -> dict:
    data = rec.as_json(str(script), argv)
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
