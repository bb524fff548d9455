"""The C ABI between the Rust kernel library and Python — one definition, rendered for both sides.

A tensor crosses as a ``TpTensor`` descriptor (data pointer, rank, dtype code, shape and strides in elements); the
library borrows the caller's memory and stream, never copies and never frees. Each operator is one exported symbol,
``tp_<op>(call: *const TpCall, err: *mut u8, err_len: usize) -> i32``: ``TpCall`` holds the entry, the device, the
caller's stream, the grid and pointers to the generics, tensor descriptors and scalars (one argument block, so a
call converts three arguments, not twelve). It returns a status code; ``STATUS`` names them and Python raises them
as exceptions. At load time Python compares ``ABI_VERSION`` and the layout of both structs the library reports with
its own ctypes definitions.
"""
from __future__ import annotations

import ctypes

ABI_VERSION = 3
MAX_RANK = 8
#: the compile hints a launch may set for itself (cutile's per-launch CompileOptions: a kernel launched through
#: cuTile Python's ``kernel.replace_hints(..)`` at hints other than the decorator's), in ``TpCall.hints`` order; bit
#: ``i`` of ``TpCall.hints_set`` says slot ``i`` is given, else the entry's own hint holds
HINT_SLOTS: tuple[str, ...] = ("occupancy", "num_cta_in_cga", "num_worker_warps_per_cta", "opt_level")

#: dtype name (tileport's short names) → (code in the descriptor, bytes per element, Rust element type)
DTYPES: dict[str, tuple[int, int, str]] = {
    "f32": (0, 4, "f32"), "f16": (1, 2, "cutile::half::f16"), "bf16": (2, 2, "cutile::half::bf16"),
    "i32": (3, 4, "i32"), "i64": (4, 8, "i64"), "f8e5m2": (5, 1, "cutile::cuda_core::f8e5m2"),
    "f8e4m3fn": (6, 1, "cutile::cuda_core::f8e4m3fn"), "f64": (7, 8, "f64"),
}

#: descriptor fields: (name, C scalar type, array length or 0)
FIELDS: tuple[tuple[str, str, int], ...] = (
    ("data", "u64", 0), ("rank", "i32", 0), ("dtype", "i32", 0), ("shape", "i64", MAX_RANK),
    ("strides", "i64", MAX_RANK),
)

#: the call block: (name, C scalar type, array length or 0)
CALL_FIELDS: tuple[tuple[str, str, int], ...] = (
    ("entry", "i32", 0), ("device", "i32", 0), ("n_generics", "u32", 0), ("n_tensors", "u32", 0),
    ("n_scalars", "u32", 0), ("hints_set", "u32", 0), ("generics", "u64", 0), ("tensors", "u64", 0),
    ("scalars", "u64", 0), ("stream", "u64", 0), ("grid", "u32", 3), ("reserved", "u32", 0),
    ("hints", "i32", len(HINT_SLOTS)),
)
STRUCTS = {"TpTensor": FIELDS, "TpCall": CALL_FIELDS}

#: status code → (Rust variant, what it means)
STATUS: dict[int, tuple[str, str]] = {
    0: ("Ok", "ok"),
    1: ("BadArgumentCount", "wrong number of tensors, scalars or generics for the entry"),
    2: ("BadDtype", "a tensor's dtype differs from the entry's parameter type"),
    3: ("BadRank", "a tensor's rank differs from the entry's parameter"),
    4: ("BadShape", "a shape or stride does not fit the launch (negative, or beyond i32)"),
    5: ("BadEntry", "no such entry in this operator"),
    6: ("LaunchFailed", "cutile refused or failed the launch (compile, launch checks, driver)"),
    7: ("Panic", "the Rust side panicked (a bug; the message says where)"),
    8: ("NoDevice", "the CUDA device could not be opened"),
}

#: the exported function of every operator: tp_<op>(call, err, err_len) -> i32 status
OP_SIGNATURE: tuple[tuple[str, str], ...] = (("call", "*const TpCall"), ("err", "*mut u8"), ("err_len", "usize"))

_CTYPES = {"u64": ctypes.c_uint64, "i64": ctypes.c_int64, "i32": ctypes.c_int32, "u32": ctypes.c_uint32,
           "usize": ctypes.c_size_t, "f64": ctypes.c_double}


class TpTensor(ctypes.Structure):
    _fields_ = [(name, _CTYPES[ty] * n if n else _CTYPES[ty]) for name, ty, n in FIELDS]


class TpCall(ctypes.Structure):
    _fields_ = [(name, _CTYPES[ty] * n if n else _CTYPES[ty]) for name, ty, n in CALL_FIELDS]


def layout() -> list[int]:
    """For each struct: [size, alignment, offset of each field] — what the library's `tileport_abi_layout` must
    report."""
    out = []
    for cls, fields in ((TpTensor, FIELDS), (TpCall, CALL_FIELDS)):
        out += [ctypes.sizeof(cls), ctypes.alignment(cls)] + [getattr(cls, name).offset for name, _, _ in fields]
    return out


def hint_slots(options: dict[str, int]) -> tuple[int, list[int]]:
    """(``hints_set``, ``hints``) of a call block for cutile CompileOptions by name (``{"occupancy": 2}``)."""
    mask, values = 0, [0] * len(HINT_SLOTS)
    for name, value in options.items():
        i = HINT_SLOTS.index(name)
        mask, values[i] = mask | (1 << i), int(value)
    return mask, values


def op_argtypes() -> list:
    """ctypes argtypes of an operator function: the call block by address, the error buffer by address, its
    length (addresses as plain integers: the cheapest conversion ctypes makes)."""
    return [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]


def _rust_struct(name: str, doc: str, fields) -> str:
    body = "\n".join(f"    pub {f}: {f'[{ty}; {n}]' if n else ty}," for f, ty, n in fields)
    return f"/// {doc}\n#[repr(C)]\n#[derive(Clone, Copy, Debug)]\npub struct {name} {{\n{body}\n}}\n"


def rust_abi(exports: bool = True) -> str:
    """abi.rs: the descriptor and call structs, dtype codes, status codes and (for the kernel library, not for the
    Python extension that calls it) the layout/version exports."""
    dtypes = "\n".join(f"pub const DTYPE_{name.upper()}: i32 = {code};" for name, (code, _, _) in DTYPES.items())
    status = "\n".join(f"    /// {doc}\n    {variant} = {code}," for code, (variant, doc) in STATUS.items())
    layout_rows = []
    for name, fields in STRUCTS.items():
        layout_rows.append(f"        std::mem::size_of::<{name}>() as u64,")
        layout_rows.append(f"        std::mem::align_of::<{name}>() as u64,")
        layout_rows += [f"        std::mem::offset_of!({name}, {f}) as u64," for f, _, _ in fields]
    offsets = "\n".join(layout_rows)
    tensor = _rust_struct("TpTensor", "A tensor borrowed from the caller: device pointer, rank, dtype code, shape and "
                                      "strides in elements.", FIELDS)
    call = _rust_struct("TpCall", "One operator call: entry, device, counts, pointers to the generics (i32), tensor "
                                  "descriptors and scalars (f64), the caller's CUstream, the grid and the compile "
                                  "hints the launch sets (`hints[i]` where bit i of `hints_set` is 1, in HINT_SLOTS "
                                  "order).", CALL_FIELDS)
    slots = "\n".join(f"pub const HINT_{name.upper()}: usize = {i};" for i, name in enumerate(HINT_SLOTS))
    text = f'''//! The C ABI shared with Python (generated from `src/tileport/runtime/abi.py`; do not edit).

/// Version of this ABI; Python refuses a library reporting another one.
pub const ABI_VERSION: u32 = {ABI_VERSION};
/// Largest tensor rank a descriptor carries.
pub const MAX_RANK: usize = {MAX_RANK};
/// Slots of `TpCall.hints` (cutile CompileOptions a launch sets).
pub const HINT_SLOTS: usize = {len(HINT_SLOTS)};
{slots}

{dtypes}

{tensor}
{call}
/// What an operator call returns.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {{
{status}
}}
'''
    if not exports:
        return text
    return text + f'''
/// ABI version, for Python's load-time check.
#[no_mangle]
pub extern "C" fn tileport_abi_version() -> u32 {{
    ABI_VERSION
}}

/// Writes, for TpTensor then TpCall, [size, alignment, field offsets...] into `out` (up to `n` values); returns
/// how many exist.
///
/// # Safety
/// `out` must be valid for `n` writes of u64.
#[no_mangle]
pub unsafe extern "C" fn tileport_abi_layout(out: *mut u64, n: usize) -> usize {{
    let values = [
{offsets}
    ];
    for (i, v) in values.iter().enumerate().take(n) {{
        unsafe {{ *out.add(i) = *v }};
    }}
    values.len()
}}
'''
