"""Loading the Rust kernel library and launching through it (the ``cutile-rs`` backend).

On load: the ABI version and the descriptor layout the library reports must equal ``abi``'s; the library must be
fresh (its inputs hash, see ``build``), else it is rebuilt — or, with ``TILEPORT_AUTOBUILD=0``, refused. On a launch:
the kernel's Python source must still be the one its port was proven from (else it is re-ported and the library
rebuilt, under a file lock), the launch must match a ported specialization, and the ownership checks must pass;
then the operator's C function runs on the caller's stream.
"""
from __future__ import annotations

import ctypes
import hashlib
import inspect
import json
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import TileportError
from ..frontends.cutile_py.capture import _dtype_name, constant_params
from ..ops._backend import BackendError
from . import abi, build
from .checks import Arg, check_launch

ERR_LEN = 2048


class AbiMismatch(BackendError):
    pass


class StaleLibrary(BackendError):
    pass


class LaunchError(TileportError, RuntimeError):
    """The Rust side refused or failed a launch; the message names the operator, argument and problem."""


@dataclass
class OpTable:
    fn: Any                                   # the C function
    params: list[str]                         # kernel parameter names
    constants: set[str]
    variants: dict[tuple, tuple[int, list[int], list[dict]]]  # launch key → (entry index, generics, abi params)
    source: Path
    source_sha256: str


_lock = threading.Lock()
_library: "Library | None" = None
_source_seen: dict[Path, tuple[int, int, str]] = {}


def _sha256(path: Path) -> str:
    st = path.stat()
    seen = _source_seen.get(path)
    if seen and seen[:2] == (st.st_mtime_ns, st.st_size):
        return seen[2]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    _source_seen[path] = (st.st_mtime_ns, st.st_size, digest)
    return digest


def _drop_poison_vars() -> None:
    """The library JIT-compiles in this process and runs tileiras with its environment; tileiras loads libnvvm from
    $CUDA_HOME when set, which on GPU images points at an older toolkit (tileiras then exits 5). Remove those
    variables from this process before the first launch, and say so once."""
    from ..toolchain.locate import POISON_VARS

    dropped = {v: os.environ.pop(v) for v in POISON_VARS if v in os.environ}
    if dropped:
        import sys

        print(f"tileport: cutile-rs backend: unset {', '.join(f'{k}={v}' for k, v in dropped.items())} in this "
              "process (tileiras would load the wrong libnvvm through it)", file=sys.stderr)


class Library:
    def __init__(self, path: Path, copy: bool = False):
        if copy:  # a rebuilt library at the same path: dlopen would hand back the old one
            tmp = Path(tempfile.mkdtemp(prefix="tileport-lib-")) / path.name
            shutil.copy(path, tmp)
            path = tmp
        self.path = path
        _drop_poison_vars()
        self.dll = ctypes.CDLL(str(path))
        self._check_abi()
        manifest = json.loads(build.manifest_path().read_text())
        self.ops: dict[str, dict] = manifest["ops"]
        self.tables: dict[str, OpTable] = {}

    def _check_abi(self) -> None:
        self.dll.tileport_abi_version.restype = ctypes.c_uint32
        version = self.dll.tileport_abi_version()
        if version != abi.ABI_VERSION:
            raise AbiMismatch(f"{self.path}: ABI version {version}, this tileport speaks {abi.ABI_VERSION}; "
                              "rebuild the library (tileport ops build)")
        buf = (ctypes.c_uint64 * 32)()
        self.dll.tileport_abi_layout.restype = ctypes.c_size_t
        n = self.dll.tileport_abi_layout(buf, 32)
        got, want = list(buf[:n]), abi.layout()
        if got != want:
            raise AbiMismatch(f"{self.path}: TpTensor layout [size, align, offsets] is {got} in the library and "
                              f"{want} in Python; rebuild the library (tileport ops build)")

    def table(self, kernel: Any) -> OpTable:
        name = kernel._pyfunc.__name__
        t = self.tables.get(name)
        if t is not None:
            return t
        op = self.ops.get(name)
        if op is None:
            raise BackendError(f"cutile-rs: the kernel library has no port of {name} (it has "
                               f"{', '.join(sorted(self.ops)) or 'none'}); run `tileport ops build`")
        if op["status"] != "proven":
            raise BackendError(f"cutile-rs: {name} has no proven port ({op['status']}: {op.get('why', '')[:500]}); "
                               "the Rust backend only runs proven ports")
        from ..spec import signature as sigmod

        params = list(inspect.signature(kernel._pyfunc).parameters)
        variants = {}
        for v in op["variants"]:
            sig = sigmod.bind(sigmod.parse(v["signature"]), params, name)
            entry = op["entries"].index(v["entry"])
            variants[_key(sig.params)] = (entry, [int(g) for g in v["generics"]], op["abi"][v["entry"]]["params"])
        fn = getattr(self.dll, f"tp_{name}")
        fn.argtypes, fn.restype = abi.op_argtypes(), ctypes.c_int32
        t = OpTable(fn, params, constant_params(kernel), variants, Path(inspect.getsourcefile(kernel._pyfunc)),
                    op["source_sha256"])
        self.tables[name] = t
        return t


def _key(params) -> tuple:
    """What selects an entry: dtypes and ranks of arrays, scalar dtypes, constant values (not divisibility or
    strides: cutile's runtime specializes on those from the actual tensors)."""
    from ..spec import signature as sigmod

    out = []
    for name, p in params:
        if isinstance(p, sigmod.ArraySig):
            out.append((name, "A", p.dtype, p.rank))
        elif isinstance(p, sigmod.ScalarSig):
            out.append((name, "S", p.dtype))
        else:
            out.append((name, "C", repr(p.value)))
    return tuple(out)


def _ensure_library() -> Library:
    global _library
    if _library is not None:
        return _library
    with _lock:
        if _library is None:
            _library = _open_fresh()
    return _library


def _open_fresh(copy: bool = False) -> Library:
    explicit = os.environ.get("TILEPORT_LIBRARY")
    path = build.library_path()
    stamp = Path(str(path) + ".inputs-sha256")
    fresh = path.exists() and stamp.exists() and stamp.read_text().strip() == build.inputs_hash()
    if not fresh:
        why = f"{path} does not exist" if not path.exists() else \
            f"{path} was built from other sources than the checkout's (inputs hash differs)"
        if explicit or not build.autobuild_allowed():
            raise StaleLibrary(f"cutile-rs: {why}; rebuild it with `tileport ops build`"
                               + (" (TILEPORT_AUTOBUILD=0 forbids building here)" if not build.autobuild_allowed()
                                  else ""))
        with build.build_lock():
            if not (path.exists() and stamp.exists() and stamp.read_text().strip() == build.inputs_hash()):
                build.generate(json.loads(build.manifest_path().read_text()))
                build.build()
        copy = True
    return Library(path, copy=copy)


def _refresh_port(lib: Library, name: str, t: OpTable) -> Library:
    """The kernel's source changed since it was ported: port it again and rebuild (or refuse)."""
    global _library
    if not build.autobuild_allowed():
        raise StaleLibrary(f"cutile-rs: {t.source} changed since {name} was ported and proven; re-port it with "
                           "`tileport ops build` (TILEPORT_AUTOBUILD=0 forbids doing it here)")
    with build.build_lock():
        op = json.loads(build.manifest_path().read_text())["ops"][name]
        if op.get("source_sha256") != _sha256(t.source):
            manifest = build.port_ops([name], {name: op["signatures"]})
            build.generate(manifest)
            build.build()
    with _lock:
        _library = Library(build.built_library(), copy=True)
    return _library


def launch(grid: tuple[int, int, int], kernel: Any, args: tuple, stream: Any) -> None:
    import torch

    lib = _ensure_library()
    t = lib.table(kernel)
    name = kernel._pyfunc.__name__
    if _sha256(t.source) != t.source_sha256:
        lib = _refresh_port(lib, name, t)
        t = lib.table(kernel)
    if len(args) != len(t.params):
        raise BackendError(f"{name} takes {len(t.params)} arguments, the launch passed {len(args)}")
    key, facts = [], []
    for pname, value in zip(t.params, args):
        if pname in t.constants:
            key.append((pname, "C", repr(value)))
        elif isinstance(value, torch.Tensor):
            dt = _dtype_name(value.dtype)
            key.append((pname, "A", dt, value.dim()))
            facts.append((pname, value, dt))
        elif isinstance(value, bool):
            key.append((pname, "S", "bool"))
        elif isinstance(value, int):
            key.append((pname, "S", "i32"))
        elif isinstance(value, float):
            key.append((pname, "S", "f32"))
        else:
            raise BackendError(f"{name}: argument {pname} of type {type(value).__name__} is not a tensor or scalar")
    found = t.variants.get(tuple(key))
    if found is None:
        have = "; ".join(", ".join(f"{k[0]}={k[2]}" + (f"[{k[3]}d]" if k[1] == "A" else "") for k in v)
                         for v in t.variants)
        raise BackendError(f"cutile-rs: no proven port of {name} for this launch "
                           f"({', '.join(f'{k[0]}={k[2]}' for k in key)}); ported: {have}. Add the specialization "
                           f"to the op's PORT_SIGNATURES and run `tileport ops build`")
    entry, generics, params = found
    written = {p["name"] for p in params if p.get("written")}
    device = torch.cuda.current_device()
    checked = [Arg(pname, dt, tuple(v.shape), tuple(v.stride()), v.data_ptr(), pname in written,
                   (v.device.type, v.device.index)) for pname, v, dt in facts]
    check_launch(name, checked, device)
    descs = (abi.TpTensor * max(1, len(checked)))()
    for d, a in zip(descs, checked):
        d.data, d.rank, d.dtype = a.ptr, len(a.shape), abi.DTYPES[a.dtype][0]
        d.shape[:len(a.shape)] = a.shape
        d.strides[:len(a.strides)] = a.strides
    scalars = [float(v) for pname, v in zip(t.params, args)
               if pname not in t.constants and not isinstance(v, torch.Tensor)]
    sc = (ctypes.c_double * max(1, len(scalars)))(*scalars)
    gen = (ctypes.c_int32 * max(1, len(generics)))(*generics)
    gr = (ctypes.c_uint32 * 3)(*(int(x) for x in grid))
    err = ctypes.create_string_buffer(ERR_LEN)
    status = t.fn(entry, gen, len(generics), descs, len(checked), sc, len(scalars), gr, device,
                  ctypes.c_void_p(stream.cuda_stream), err, ERR_LEN)
    if status != 0:
        kind, meaning = abi.STATUS.get(status, ("Unknown", "unknown status"))
        raise LaunchError(f"cutile-rs {name}: {kind} ({meaning}): {err.value.decode(errors='replace')}")
