"""Loading the Rust kernel library and launching through it (the ``cutile-rs`` backend).

On load: the ABI version and the descriptor layout the library reports must equal ``abi``'s; the library must be
fresh (its inputs hash, see ``build``), else it is rebuilt — or, with ``TILEPORT_AUTOBUILD=0``, refused. On a launch:
the kernel's Python source must still be the one its port was proven from (else it is re-ported and the library
rebuilt, under a file lock), the launch must match a ported specialization, and the ownership checks must pass;
then the operator's C function runs on the caller's stream. The steady state of a launch — checking it against the
plan of its shape, reading the tensors, packing the call block, calling the C function — runs in the Python extension
built beside the library (`rust/tileport-native`); what it cannot settle comes back here.
"""
from __future__ import annotations

import ctypes
import functools
import inspect
import json
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import BackendError, TileportError
from ..frontends.arrays import array_facts, array_sig, dtype_name
from ..frontends.cutile_py.capture import constant_params
from ..frontends.cutile_py.hints import cutile_options, hints_key, hints_text, kernel_hints, launched_override
from ..translate.helpers import kernel_files, sources_sha256
from . import abi, build
from .checks import Arg, check_launch



class AbiMismatch(BackendError):
    pass


class StaleLibrary(BackendError):
    pass


class LaunchError(TileportError, RuntimeError):
    """The Rust side refused or failed a launch; the message names the operator, argument and problem."""


@dataclass
class OpTable:
    fn: Any                                   # the C function: tp_<op>(call block address, err, err_len)
    address: int                              # its address, for the native plans
    params: list[str]                         # kernel parameter names
    constants: set[str]
    variants: dict[tuple, list["Variant"]]    # launch key → the ported specializations of that key
    source: Path
    source_sha256: str
    #: the kernel's op in the library (its C function is tp_<op>): its name in the operator library, an id made of
    #: its name and source file in a served library
    op: str = ""
    #: the decorator's compile hints the port states (port.json's, as analyze read them), or None (an op of the
    #: operator library: its kernels are launched as decorated)
    hints: dict | None = None
    #: positions of list-of-arrays parameters (each crosses as its descriptor table, see ``_with_tables``)
    lists: tuple[int, ...] = ()
    #: the int constants some entry takes at any value (proven at two values: translate.value_generic)
    value_generic: frozenset[str] = frozenset()
    #: cutile CompileOptions every launch sets that the entries' hints cannot state (port.json's
    #: ``compile_options``: `@ct.kernel(opt_level=..)`), a launch's own hints over them
    options: dict = field(default_factory=dict)


_lock = threading.Lock()
_library: "Library | None" = None
_source_seen: dict[tuple[Path, str], tuple[list[Path], tuple, str]] = {}
#: a served library's hint for a kernel it lacks or holds stale
PORT_HINT = ("`tileport corpus capture ... && tileport corpus port ... && tileport ops build --from PORTS --into LIB` "
             "ports it, at every specialization its host code launches")


def _sources(path: Path, kernel_name: str, pyfunc: Any = None) -> tuple[list[Path], tuple, str]:
    """(the files the kernel's port is made from — its file and the files of the helpers it imports —, their stat
    keys, their digest), recomputed only when one of them changed size or mtime. With the kernel's Python function
    the helpers are found as the port found them (through its resolved names)."""
    seen = _source_seen.get((path, kernel_name))
    if seen is None or _stat_keys(seen[0]) != seen[1]:
        files = kernel_files(path, kernel_name, pyfunc)
        seen = _source_seen[(path, kernel_name)] = (files, _stat_keys(files), sources_sha256(files))
    return seen


def _sha256(path: Path, kernel_name: str, pyfunc: Any = None) -> str:
    """The digest a port of the kernel records (``source_sha256``), from the files as they are now."""
    return _sources(path, kernel_name, pyfunc)[2]


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
    """A loaded kernel library: the operator library (its manifest is the checkout's rust/tileport-ops/ports.json)
    or a served one (``runtime.served``: ports.json beside it, kernels looked up by name and source file)."""

    def __init__(self, path: Path, copy: bool = False):
        from .served import manifest_beside

        manifest_path = manifest_beside(path)
        self.served = manifest_path is not None
        if copy:  # a rebuilt library at the same path: dlopen would hand back the old one
            tmp = Path(tempfile.mkdtemp(prefix="tileport-lib-")) / path.name
            shutil.copy(path, tmp)
            shutil.copy(build.native_path(path), build.native_path(tmp))
            path = tmp
        self.path = path
        _drop_poison_vars()
        self.dll = ctypes.CDLL(str(path))
        self._check_abi()
        self.native = load_native(build.native_path(path))
        manifest = json.loads((manifest_path or build.manifest_path()).read_text())
        self.ops: dict[str, dict] = manifest["ops"]
        self.tables: dict[Any, OpTable] = {}
        self.states: dict[int, _KernelState] = {}

    def _check_abi(self) -> None:
        check_abi(self.dll, self.path)

    def op_of(self, kernel: Any) -> str:
        """The kernel's op in this library: by name in the operator library; in a served one, the op of that name
        whose recorded source file (relative to its corpus) ends the kernel's own path."""
        name = kernel._pyfunc.__name__
        if not self.served:
            if name not in self.ops:
                raise BackendError(f"cutile-rs: the kernel library has no port of {name} (it has "
                                   f"{', '.join(sorted(self.ops)) or 'none'}); run `tileport ops build`")
            return name
        src = Path(inspect.getsourcefile(kernel._pyfunc) or "").resolve()
        named = {op_id: op for op_id, op in self.ops.items() if op["kernel"] == name}
        for op_id, op in sorted(named.items(), key=lambda kv: -len(kv[1]["source"])):
            if src == Path(op["source"]) or str(src).endswith("/" + op["source"].lstrip("/")):
                return op_id
        where = f" (it has {name} from {', '.join(op['source'] for op in named.values())})" if named else ""
        raise BackendError(f"cutile-rs: {self.path} has no port of {name} from {src}{where}; {PORT_HINT}")

    def table(self, kernel: Any) -> OpTable:
        key = id(kernel._pyfunc) if self.served else kernel._pyfunc.__name__
        t = self.tables.get(key)
        if t is not None:
            return t
        op_id = self.op_of(kernel)
        name = kernel._pyfunc.__name__
        op = self.ops[op_id]
        if op["status"] != "proven":
            raise BackendError(f"cutile-rs: {name} has no proven port ({op['status']}: {op.get('why', '')[:500]}); "
                               "the Rust backend only runs proven ports")
        from ..spec import signature as sigmod

        params = list(inspect.signature(kernel._pyfunc).parameters)
        variants: dict[tuple, list[Variant]] = {}
        lists: set[int] = set()
        anywhere: set[str] = set()
        for v in op["variants"]:
            sig = sigmod.bind(sigmod.parse(v["signature"]), params, name)
            entry = op["abi"][v["entry"]]
            wild = frozenset(entry.get("value_generic", ()))
            anywhere |= wild
            arrays = tuple((i, p) for i, (_, p) in enumerate(sig.params) if isinstance(p, sigmod.ArraySig))
            listed = tuple((i, p.element) for i, (_, p) in enumerate(sig.params) if isinstance(p, sigmod.ListSig))
            lists.update(i for i, _ in listed)
            variants.setdefault(_key(sig.params, wild), []).append(
                Variant(v["signature"], arrays, op["entries"].index(v["entry"]), tuple(int(g) for g in v["generics"]),
                        tuple(entry["params"]), hints_key(v.get("hints", {})), listed,
                        tuple((params.index(n), entry["generics"].index(n)) for n in sorted(wild))))
        fn = getattr(self.dll, f"tp_{op_id}")
        fn.argtypes, fn.restype = abi.op_argtypes(), ctypes.c_int32
        t = OpTable(fn, ctypes.cast(fn, ctypes.c_void_p).value, params, constant_params(kernel), variants,
                    Path(inspect.getsourcefile(kernel._pyfunc)), op["source_sha256"], op_id, op.get("hints"),
                    tuple(sorted(lists)), frozenset(anywhere), dict(op.get("compile_options") or {}))
        self.tables[key] = t
        return t


def check_abi(dll: Any, path: Path) -> None:
    """The library's ABI version and struct layouts must be Python's (AbiMismatch says which differs)."""
    dll.tileport_abi_version.restype = ctypes.c_uint32
    version = dll.tileport_abi_version()
    if version != abi.ABI_VERSION:
        raise AbiMismatch(f"{path}: ABI version {version}, this tileport speaks {abi.ABI_VERSION}; "
                          "rebuild the library (tileport ops build)")
    buf = (ctypes.c_uint64 * 64)()
    dll.tileport_abi_layout.restype = ctypes.c_size_t
    n = dll.tileport_abi_layout(buf, 64)
    got, want = list(buf[:n]), abi.layout()
    if got != want:
        raise AbiMismatch(f"{path}: struct layouts [size, align, offsets] are {got} in the library and "
                          f"{want} in Python; rebuild the library (tileport ops build)")


def verify(path: Path) -> str:
    """Load the library at ``path`` and its Python extension and check both speak this ABI, without the side
    effects of a backend load (no environment change, no manifest); what ``tileport doctor`` runs."""
    try:
        dll = ctypes.CDLL(str(path))
    except OSError as exc:
        raise StaleLibrary(f"{path} does not load: {exc}") from None
    check_abi(dll, path)
    load_native(build.native_path(path))
    return f"{path} (ABI v{abi.ABI_VERSION}) with {build.NATIVE_NAME}"


def load_native(path: Path) -> Any:
    """Import the Python extension at ``path`` (module ``tileport_native``) and check it speaks this ABI."""
    import importlib.machinery
    import importlib.util

    if not path.exists():
        raise StaleLibrary(f"cutile-rs: {path} is missing (it is built and packed with the library: "
                           "`tileport ops build`)")
    loader = importlib.machinery.ExtensionFileLoader("tileport_native", str(path))
    spec = importlib.util.spec_from_file_location("tileport_native", str(path), loader=loader)
    assert spec is not None
    try:
        mod = importlib.util.module_from_spec(spec)
        loader.exec_module(mod)
    except (ImportError, OSError) as exc:  # not an extension, or built for another interpreter
        raise StaleLibrary(f"{path} does not import: {exc}") from None
    if mod.ABI_VERSION != abi.ABI_VERSION:
        raise AbiMismatch(f"{path}: ABI version {mod.ABI_VERSION}, this tileport speaks {abi.ABI_VERSION}; rebuild "
                          "the library (tileport ops build)")
    return mod


#: plans a kernel keeps before it starts over (they are remade on demand: a few microseconds each)
PLANS_PER_KERNEL = 256
#: a value-generic constant's place in a launch key: any i32 value selects the entry (translate.value_generic)
ANY_I32 = "any i32 (value-generic)"


def _key(params, wild: frozenset[str] = frozenset()) -> tuple:
    """What selects an entry: dtypes and ranks of arrays, scalar dtypes, constant values (not divisibility or
    strides: cutile's runtime specializes on those from the actual tensors) — of the ``wild`` constants (the
    entry's value-generic ones) not the value: any i32."""
    from ..spec import signature as sigmod

    out = []
    for name, p in params:
        if isinstance(p, sigmod.ArraySig):
            out.append((name, "A", p.dtype, p.rank))
        elif isinstance(p, sigmod.ListSig):
            out.append((name, "L", p.element.dtype, p.element.rank))
        elif isinstance(p, sigmod.ScalarSig):
            out.append((name, "S", p.dtype))
        else:
            out.append((name, "C", ANY_I32 if name in wild else repr(p.value)))
    return tuple(out)


def _ensure_library() -> Library:
    global _library
    if _library is not None:
        return _library
    with _lock:
        if _library is None:
            _library = _open_fresh()
    return _library


def _open_fresh() -> Library:
    explicit = os.environ.get("TILEPORT_LIBRARY")
    path = build.library_path()
    fresh = build.is_fresh(path)
    if not fresh:
        why = f"{path} does not exist" if not path.exists() else \
            f"{path} was built from other sources than the checkout's (inputs hash differs)"
        if explicit or not build.autobuild_allowed():
            raise StaleLibrary(f"cutile-rs: {why}; rebuild it with `tileport ops build`"
                               + (" (TILEPORT_AUTOBUILD=0 forbids building here)" if not build.autobuild_allowed()
                                  else ""))
        build.ops_build(None, port=False, if_stale=True)  # under the build lock; another process may have built it
    return Library(path, copy=not fresh)


def _refresh_port(lib: Library, name: str, t: OpTable) -> Library:
    """The kernel's source changed since it was ported: port it again and rebuild (or refuse)."""
    global _library
    if not build.autobuild_allowed():
        raise StaleLibrary(f"cutile-rs: {t.source} changed since {name} was ported and proven; re-port it with "
                           "`tileport ops build` (TILEPORT_AUTOBUILD=0 forbids doing it here)")
    with build.build_lock():
        op = json.loads(build.manifest_path().read_text())["ops"][name]
        if op.get("source_sha256") != _sha256(t.source, name):
            manifest = build.port_ops([name], {name: op["signatures"]})
            build.generate(manifest)
            build.build()
    with _lock:
        _library = Library(build.built_library(), copy=True)  # (with no plans: they point into the old one)
    return _library


@dataclass(frozen=True)
class Variant:
    """One ported specialization: its signature (text), the facts it claims of each array argument (parameter
    position → ArraySig), the entry that runs it, the entry's generics and its ABI parameters."""
    text: str
    arrays: tuple[tuple[int, Any], ...]
    entry: int
    generics: tuple[int, ...]
    params: tuple[dict, ...]
    #: the hints it was proven and is launched at where they differ from the decorator's (sorted (name, value))
    hints: tuple = ()
    #: its list-of-arrays parameters: (position, the ArraySig every item has)
    lists: tuple[tuple[int, Any], ...] = ()
    #: its value-generic constants: (parameter position, index among the entry's generics) — launched at the
    #: launch's value (translate.value_generic)
    wild: tuple[tuple[int, int], ...] = ()

    def generics_at(self, args: tuple) -> tuple[int, ...]:
        """The entry's generics for a launch with ``args``: the port's, the value-generic ones the launch's."""
        out = list(self.generics)
        for pos, k in self.wild:
            out[k] = int(args[pos])
        return tuple(out)

    @functools.cached_property
    def requirements(self) -> dict[int, tuple[list[tuple[bool, int, int]], int]]:
        """What a launch's arrays must have for this entry to be valid at it, per parameter position: per dimension
        (stride is exactly 1, stride divisor, extent divisor) and the data pointer's alignment in bytes. These are
        the facts the port was proven under: the translator writes them into the Rust (a unit stride as the literal
        1, a stride parameter's `assume_div_by`, an aligned base), so an entry is only run where they hold."""
        out = {}
        for pos, a in self.arrays + self.lists:
            strides = a.strides if a.strides is not None else (None,) * a.rank
            # a static extent (calling convention v2: `bf16[1,?]`) is the extent divisor negated: the extent must be
            # exactly that (the entry's tensor type states it; cutile's launcher checks nothing of it). The extent
            # facts the entry is compiled under are the launch's own: rt::Compact (rust/tileport-ops) compacts
            # cutile's per-axis spec to the dynamic axes, as the port was proven
            dims = [(st == 1, sd, -n if n is not None else hd)
                    for st, sd, hd, n in zip(strides, a.stride_div, a.shape_div, a.shape)]
            out[pos] = (dims, a.base_align)
        return out

    @functools.cached_property
    def specificity(self) -> int:
        """How many facts the entry was proven under (unit strides, divisors, one alignment per array): among the
        entries whose facts hold at a launch, the one with most is the nearest to the launch's own signature."""
        return sum(sum(unit + (sd > 1) + (hd > 1) + (hd < 0) for unit, sd, hd in dims) + (al > 1)
                   for dims, al in self.requirements.values())


def holds(requirements: tuple[list[tuple[bool, int, int]], int], shape: tuple, strides: tuple, data: int) -> bool:
    """Whether an array (shape, element strides, data pointer) has the facts of one ``Variant.requirements`` entry
    (the Python twin of the native plan's check)."""
    dims, align = requirements
    if len(dims) != len(shape):
        return False
    for (unit, sdiv, hdiv), n, st in zip(dims, shape, strides):
        if (unit and st != 1) or (sdiv > 1 and st % sdiv) or (hdiv > 1 and n % hdiv) or (hdiv < 0 and n != -hdiv):
            return False
    return not (align > 1 and data % align)


def choose_variant(candidates: list[Variant], args: tuple) -> Variant | None:
    """The ported specialization to run ``args`` with, among those of its launch key: the one whose signature is
    the launch's own (what cuTile Python would compile), else the most specific one whose facts all hold for the
    launch (an entry proven under fewer facts is valid wherever its facts hold), else None."""
    facts = {pos: array_facts(args[pos]) for v in candidates for pos, _ in v.arrays}
    items = {pos: [array_facts(x) for x in args[pos]] for v in candidates for pos, _ in v.lists}
    own = {pos: array_sig(f).text() for pos, f in facts.items() if f is not None}
    best, best_score = None, -1
    for v in candidates:
        if not v.lists and all(own.get(pos) == a.text() for pos, a in v.arrays):
            return v   # (the launch's own signature: its facts hold, static extents included)
        needs = v.requirements
        if v.specificity > best_score and all(
                facts[pos] is not None and holds(needs[pos], facts[pos].shape, facts[pos].strides, facts[pos].data_ptr)
                for pos, _ in v.arrays) and all(
                f is not None and holds(needs[pos], f.shape, f.strides, f.data_ptr)
                for pos, _ in v.lists for f in items[pos]):
            best, best_score = v, v.specificity
    return best


class _Plan:
    """One launch shape (kernel, arg dtypes/ranks, scalar types, constant values): the native plan that checks and
    makes such launches, and what the full ownership check needs (tensor positions, names, which are written)."""
    __slots__ = ("native", "tpos", "names", "written")

    def __init__(self, native: Any, tpos: list[int], names: list[str], written: list[bool]):
        self.native, self.tpos, self.names, self.written = native, tpos, names, written


#: A kernel's source file is looked at for edits (size and mtime) at most this often: a stat is a system call of
#: about 1.2 µs on the H200 host, the largest single item of a launch, so it is not made on every call. An edit is
#: picked up by the first launch after the interval (and at once by a new kernel object, e.g. after a reload).
SOURCE_CHECK_INTERVAL_NS = 50_000_000


class _KernelState:
    __slots__ = ("kernel", "table", "plans", "last", "sources", "stat", "recheck_at", "lib", "hints", "checked")

    def __init__(self, kernel: Any, lib: Library, table: OpTable):
        self.kernel, self.lib, self.table, self.plans, self.last = kernel, lib, table, {}, None
        self.sources, self.stat, _ = _sources(table.source, kernel._pyfunc.__name__, kernel._pyfunc)  # + helpers
        self.recheck_at = time.monotonic_ns() + SOURCE_CHECK_INTERVAL_NS
        self.hints = launched_hints(kernel, table)
        self.checked = False   # the last launch needed the full ownership check (its plan said UNCHECKED)


def launched_hints(kernel: Any, table: OpTable) -> tuple:
    """The compile hints this kernel object launches at where they differ from its decorator's (a
    ``kernel.replace_hints(..)`` copy, an autotuner's pick), sorted (name, value): only a variant proven at exactly
    these runs its launches."""
    if table.hints is None:
        return ()
    try:
        return hints_key(launched_override(table.hints, kernel_hints(kernel), kernel._pyfunc.__name__))
    except TileportError as exc:
        raise BackendError(f"cutile-rs: {exc}") from None


def _state(kernel: Any, lib: Library | None) -> _KernelState:
    lib = lib or _ensure_library()
    name = kernel._pyfunc.__name__
    t = lib.table(kernel)
    if _sha256(t.source, name, kernel._pyfunc) != t.source_sha256:
        if lib.served:
            raise StaleLibrary(f"cutile-rs: {t.source} changed since {name} was ported and proven (the port in "
                               f"{lib.path} is of another source); {PORT_HINT}")
        lib = _refresh_port(lib, name, t)
        t = lib.table(kernel)
    st = _KernelState(kernel, lib, t)
    lib.states[id(kernel)] = st
    return st


def _current_state(kernel: Any, lib: Library | None = None) -> _KernelState:
    """The kernel's launch state (in ``lib``, else the operator library); its source file is looked at again once
    SOURCE_CHECK_INTERVAL_NS has passed."""
    st = (lib or _ensure_library()).states.get(id(kernel))
    if st is None or st.kernel is not kernel:
        return _state(kernel, lib)
    now = time.monotonic_ns()
    if now >= st.recheck_at:
        if _stat_keys(st.sources) != st.stat:
            return _state(kernel, lib)
        st.recheck_at = now + SOURCE_CHECK_INTERVAL_NS
    return st


def _stat_keys(paths: list[Path]) -> tuple:
    """(mtime, size) of each file: one stat each (the kernel's file alone, unless it imports helpers)."""
    out = []
    for path in paths:
        s = os.stat(path)
        out.append((s.st_mtime_ns, s.st_size))
    return tuple(out)


def _plan(st: _KernelState, args: tuple, torch: Any) -> _Plan:
    """The slow path of a launch whose shape differs from the last one: its full key, then the plan made for
    that key before or a new one for the ported specialization (or say why there is none)."""
    t, name = st.table, st.kernel._pyfunc.__name__
    if len(args) != len(t.params):
        raise BackendError(f"{name} takes {len(t.params)} arguments, the launch passed {len(args)}")
    key, tpos, spos = [], [], []
    for i, (pname, value) in enumerate(zip(t.params, args)):
        if pname in t.constants:
            key.append((pname, "C", repr(value)))
        elif isinstance(value, torch.Tensor):
            key.append((pname, "A", dtype_name(value.dtype), value.dim()))
            tpos.append(i)
        elif i in t.lists and isinstance(value, (list, tuple)):   # crosses as its descriptor table (an i64 tensor)
            kinds = {(dtype_name(x.dtype), x.dim()) if isinstance(x, torch.Tensor) else None for x in value}
            if len(kinds) != 1 or None in kinds:
                raise BackendError(f"{name}: argument {pname} is a list of arrays; its items must be tensors of one "
                                   f"dtype and rank (got {sorted(map(str, kinds))})")
            (dt, rank), = kinds
            key.append((pname, "L", dt, rank))
            tpos.append(i)
        elif isinstance(value, (bool, int, float)):
            key.append((pname, "S", "bool" if isinstance(value, bool) else "i32" if isinstance(value, int) else "f32"))
            spos.append(i)
        else:
            raise BackendError(f"{name}: argument {pname} of type {type(value).__name__} is not a tensor or scalar")
    key = tuple(key)
    found = t.variants.get(key)
    if found is None and t.value_generic:   # an entry that takes these constants at any i32 value
        key = tuple((k[0], "C", ANY_I32) if k[1] == "C" and k[0] in t.value_generic and _i32(args[i]) else k
                    for i, k in enumerate(key))
        found = t.variants.get(key)
    if found is None:
        have = "; ".join(", ".join(f"{k[0]}={k[2]}" + (f"[{k[3]}d]" if k[1] == "A" else "") for k in v)
                         for v in t.variants)
        raise BackendError(f"cutile-rs: no proven port of {name} for this launch "
                           f"({', '.join(f'{k[0]}={k[2]}' for k in key)}); ported: {have}. " + _hint(st))
    at = [v for v in found if v.hints == st.hints]
    if not at:
        def said(hints: tuple) -> str:
            return hints_text(dict(hints)) or "the decorator's"

        raise BackendError(f"cutile-rs: no proven port of {name} at the hints it is launched with ({said(st.hints)}"
                           f", through kernel.replace_hints); ported at: {'; '.join(sorted({said(v.hints) for v in found}))}"
                           ". A capture records each launch's hints: " + _hint(st))
    variant = choose_variant(at, args)
    if variant is None:
        # a launch no port holds at, because it breaks an ownership rule (an output broadcast or overlapping an
        # input, a tensor on another device): that rule's own refusal, which says what to pass instead
        written = {p["name"] for p in at[0].params if p.get("written")}
        check_launch(name, [_arg(t.params[i], args[i], t.params[i] in written) for i in tpos if i not in t.lists],
                     torch._C._cuda_getDevice(), in_place=st.lib.served)
        own = ", ".join(f"{t.params[i]}={array_sig(array_facts(args[i])).text()}" for i in tpos)
        raise BackendError(f"cutile-rs: no proven port of {name} holds at this launch's arrays ({own}): each port is "
                           "proven under the strides, divisibility and alignment of its signature; ported: "
                           + " | ".join(v.text for v in at) + ". " + _hint(st))
    generics = variant.generics_at(args)
    plan = st.plans.get((key, variant.text, generics))
    if plan is not None:
        return plan
    written = {p["name"] for p in variant.params if p.get("written")}
    needs = variant.requirements
    names = [t.params[i] for i in tpos]
    tensors = []
    for i, pname in zip(tpos, names):
        if i in t.lists:   # its descriptor table: read, never written; its items' facts are checked per launch
            tensors.append((i, torch.int64, 2, abi.DTYPES["i64"][0], 8, False, [], 1))
            continue
        code, size, _ = abi.DTYPES[dtype_name(args[i].dtype)]
        dims, align = needs.get(i, ([], 1))
        tensors.append((i, args[i].dtype, args[i].dim(), code, size, pname in written, dims, align))
    scalars = [(i, "bool" if isinstance(args[i], bool) else "int" if isinstance(args[i], int) else "float")
               for i in spos]
    consts = [(i, args[i]) for i, p in enumerate(t.params) if p in t.constants]
    hints_set, hints = abi.hint_slots({**t.options, **cutile_options(dict(variant.hints))})
    native = st.lib.native.Plan(t.address, variant.entry, list(generics), tensors, scalars, consts, hints_set, hints)
    if len(st.plans) >= PLANS_PER_KERNEL:   # a value-generic constant drawn per call (a seed) makes a plan per value
        st.plans.clear()
    plan = st.plans[(key, variant.text, generics)] = _Plan(native, tpos, names, [n in written for n in names])
    return plan


def _i32(value: Any) -> bool:
    return type(value) is int and -2**31 <= value < 2**31


def _hint(st: _KernelState) -> str:
    return PORT_HINT if st.lib.served else ("Add the specialization to the op's PORT_SIGNATURES and run "
                                            "`tileport ops build`")


def _arg(name: str, t: Any, written: bool) -> Arg:
    """Tensor ``t`` passed as ``name``, as the ownership rules read it."""
    return Arg(name, dtype_name(t.dtype), tuple(t.shape), tuple(t.stride()), t.data_ptr(), written,
               (t.device.type, t.device.index))


def _checked(st: _KernelState, plan: _Plan, args: tuple, device: int) -> None:
    """The full ownership check (with its precise message), for launches the fast path does not clear."""
    checked = [_arg(name, args[i], w) for name, i, w in zip(plan.names, plan.tpos, plan.written)]
    check_launch(st.kernel._pyfunc.__name__, checked, device, in_place=st.lib.served)


def launch(grid: tuple[int, int, int], kernel: Any, args: tuple, lib: Library | None = None,
           stream: int | None = None) -> None:
    """Launch ``kernel``'s Rust port from ``lib`` (default: the operator library) on ``stream`` (a raw CUDA stream
    handle; default: PyTorch's current stream) — see the module docstring. The steady state — a known kernel and
    source, the launch shape of the last call — is one call into the native plan; anything else (first launch,
    another shape or dtype, a strided or overlapping tensor, a failure) takes the slow path."""
    st = _current_state(kernel, lib)
    torch = _torch()
    device = torch._C._cuda_getDevice()
    if stream is None:
        stream = torch._C._cuda_getCurrentRawStream(device)
    if type(grid) is not tuple:
        grid = tuple(grid)
    if st.table.lists:   # the items' facts are checked on every launch (the plan sees only their table)
        args = foreign_arrays(args, torch) or args
        plan = _plan(st, args, torch)
        tabled = _with_tables(st.table.lists, args, device, stream, torch)
        status = plan.native.launch(tabled, grid, device, stream)
        if status != 0:
            _launch_slow(st, plan, status, grid, args, device, stream, torch, tabled)
        return
    plan = st.last
    status = plan.native.launch(args, grid, device, stream) if plan is not None else st.lib.native.MISMATCH
    st.checked = False
    if status != 0:
        if (own := foreign_arrays(args, torch)) is not None:   # CuPy's arrays (off the fast path: it takes tensors)
            return launch(grid, kernel, own, lib, stream)
        _launch_slow(st, plan, status, grid, args, device, stream, torch)


#: DLPack's device types of GPU memory a CUDA kernel reads (kDLCUDA, kDLCUDAHost, kDLCUDAManaged)
_DLPACK_CUDA = (2, 3, 13)


def foreign_arrays(args: tuple, torch: Any) -> tuple | None:
    """``args`` with each GPU array of another library — CuPy's, anything speaking ``__cuda_array_interface__`` or
    DLPack on a CUDA device, as cuTile Python's ``ct.launch`` takes them — as a torch tensor over the same memory
    (items of a list of arrays too), which the plans read; None where there is none."""
    def own(v: Any) -> Any:
        if isinstance(v, (torch.Tensor, bool, int, float)) or v is None:
            return v
        if isinstance(v, (list, tuple)):
            items = [own(x) for x in v]
            return type(v)(items) if any(a is not b for a, b in zip(items, v)) else v
        try:
            if hasattr(v, "__cuda_array_interface__"):
                return torch.as_tensor(v)   # (zero-copy on the array's own device; the tensor keeps the array alive)
            dev = getattr(v, "__dlpack_device__", None)
            if dev is not None and hasattr(v, "__dlpack__") and dev()[0] in _DLPACK_CUDA:
                return torch.from_dlpack(v)
        except Exception as exc:   # a malformed interface: said, not a traceback from inside torch
            raise BackendError(f"cutile-rs: an argument of type {type(v).__name__} speaks a GPU array protocol "
                               f"that torch cannot read as a tensor over its memory: {exc}") from None
        return v
    out = tuple(own(v) for v in args)
    return None if all(a is b for a, b in zip(out, args)) else out


def steady_plan(kernel: Any, lib: Library) -> tuple[Any, int] | None:
    """The native plan the next launch of ``kernel`` at the last launch's shape takes, and for how many more
    nanoseconds before the kernel's source is due to be looked at again (``native.Dispatch`` takes such launches
    without Python until then); None when its launches need Python each time (lists of arrays, or the last one
    needed the full ownership check: the plan would hand each back after packing it) or none was made."""
    st = lib.states.get(id(kernel))
    if st is None or st.kernel is not kernel or st.last is None or st.table.lists or st.checked:
        return None
    left = st.recheck_at - time.monotonic_ns()
    return (st.last.native, left) if left > 0 else None


@functools.cache
def context_device_fn() -> int:
    """The address of the CUDA driver's ``cuCtxGetDevice`` (0 without a driver): ``native.Dispatch`` reads the
    launch's device with it — the current context's, where cuTile Python's own launch runs a kernel, and the device
    PyTorch's current-device call reports once that device has a context (a tensor on it gives it one)."""
    try:
        return ctypes.cast(ctypes.CDLL("libcuda.so.1").cuCtxGetDevice, ctypes.c_void_p).value or 0
    except (OSError, AttributeError):
        return 0


#: descriptor tables of list-of-arrays arguments, by content (they are only read): a list launched again, or
#: replayed in a CUDA graph, reuses its table
_TABLES: dict[tuple, Any] = {}
TABLE_CACHE = 256


def _with_tables(positions: tuple[int, ...], args: tuple, device: int, stream: int, torch: Any) -> tuple:
    """``args`` with each list of arrays replaced by its descriptor table, as cuTile Python passes a list: an i64
    tensor on the launch's device of one row per item — base address, extents, strides (elements)."""
    out = list(args)
    for pos in positions:
        rows = tuple((x.data_ptr(), *x.shape, *x.stride()) for x in args[pos])
        key = (device, rows)
        table = _TABLES.get(key)
        if table is None:
            if len(_TABLES) >= TABLE_CACHE:
                _TABLES.pop(next(iter(_TABLES)))
            table = _TABLES[key] = torch.tensor(rows, dtype=torch.int64).to(f"cuda:{device}")
            launch_stream = torch.cuda.ExternalStream(stream, device=device)
            if stream != torch._C._cuda_getCurrentRawStream(device):
                launch_stream.wait_stream(torch.cuda.current_stream(device))   # (the copy ran on the current one)
            table.record_stream(launch_stream)   # (not reused before the launch that reads it has run)
        out[pos] = table
    return tuple(out)


def _launch_slow(st: _KernelState, plan: _Plan | None, status: int, grid: tuple, args: tuple, device: int,
                 stream: int, torch: Any, tabled: tuple | None = None) -> None:
    """Settle what the native plan handed back: plan another launch shape, run the full ownership check, or raise
    the library's error. ``tabled``: ``args`` as the plan takes them, each list of arrays as its descriptor table
    (planned from ``args`` themselves)."""
    native, name = st.lib.native, st.kernel._pyfunc.__name__
    tabled = args if tabled is None else tabled
    if status == native.MISMATCH:
        plan = st.last = _plan(st, args, torch)
        status = plan.native.launch(tabled, grid, device, stream)
    assert plan is not None
    if status == native.UNCHECKED:
        st.checked = True
        _checked(st, plan, tabled, device)  # raises OwnershipError naming the argument, or clears the launch
        status = plan.native.launch(tabled, grid, device, stream, True)
    if status == native.MISMATCH:
        raise BackendError(f"cutile-rs {name}: the launch does not fit the plan made for its own arguments (a "
                           "tensor, scalar or constant of a type the plan cannot check); pass torch tensors, "
                           "bool/int/float scalars and the constants' own types")
    if status != 0:
        kind, meaning = abi.STATUS.get(status, ("Unknown", "unknown status"))
        raise LaunchError(f"cutile-rs {name}: {kind} ({meaning}): {native.last_error()}")


_torch_module = None


def _torch():
    global _torch_module
    if _torch_module is None:
        import torch

        _torch_module = torch
    return _torch_module
