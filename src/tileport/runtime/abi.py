"""The C ABI between the Rust kernel library and Python — one definition, rendered for both sides.

A tensor crosses as a ``TpTensor`` descriptor (data pointer, rank, dtype code, shape and strides in elements); the
library borrows the caller's memory and stream, never copies and never frees. Each operator is one exported symbol
(see ``OP_SIGNATURE``) returning a status code; ``STATUS`` names them and Python raises them as exceptions. At load
time Python compares ``ABI_VERSION`` and the struct layout the library reports with its own ctypes definition.
"""
from __future__ import annotations

import ctypes

ABI_VERSION = 1
MAX_RANK = 8

#: dtype name (tileport's short names) → (code in the descriptor, bytes per element, Rust element type)
DTYPES: dict[str, tuple[int, int, str]] = {
    "f32": (0, 4, "f32"), "f16": (1, 2, "cutile::half::f16"), "bf16": (2, 2, "cutile::half::bf16"),
    "i32": (3, 4, "i32"), "i64": (4, 8, "i64"), "f8e5m2": (5, 1, "cutile::cuda_core::f8e5m2"),
    "f8e4m3fn": (6, 1, "cutile::cuda_core::f8e4m3fn"),
}

#: descriptor fields: (name, C scalar type, array length or 0)
FIELDS: tuple[tuple[str, str, int], ...] = (
    ("data", "u64", 0), ("rank", "i32", 0), ("dtype", "i32", 0), ("shape", "i64", MAX_RANK),
    ("strides", "i64", MAX_RANK),
)

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

#: the exported function of every operator: tp_<op>(...) -> i32 status
OP_SIGNATURE: tuple[tuple[str, str], ...] = (
    ("entry", "i32"), ("generics", "*const i32"), ("n_generics", "usize"),
    ("tensors", "*const TpTensor"), ("n_tensors", "usize"), ("scalars", "*const f64"), ("n_scalars", "usize"),
    ("grid", "*const u32"), ("device", "i32"), ("stream", "*mut c_void"), ("err", "*mut u8"), ("err_len", "usize"),
)

_CTYPES = {"u64": ctypes.c_uint64, "i64": ctypes.c_int64, "i32": ctypes.c_int32, "u32": ctypes.c_uint32,
           "usize": ctypes.c_size_t, "f64": ctypes.c_double}


class TpTensor(ctypes.Structure):
    _fields_ = [(name, _CTYPES[ty] * n if n else _CTYPES[ty]) for name, ty, n in FIELDS]


def layout() -> list[int]:
    """[size, alignment, offset of each field], the numbers the library's `tileport_abi_layout` must report."""
    return [ctypes.sizeof(TpTensor), ctypes.alignment(TpTensor)] + \
        [getattr(TpTensor, name).offset for name, _, _ in FIELDS]


def op_argtypes(fast: bool = False) -> list:
    """ctypes argtypes of an operator function; ``fast``: every pointer as c_void_p (callers pass addresses of
    their own buffers — the launch hot path), the err buffer as a ctypes char array."""
    if fast:
        return [ctypes.c_char_p if ty == "*mut u8" else ctypes.c_void_p if ty.startswith("*") else _CTYPES[ty]
                for _, ty in OP_SIGNATURE]
    ptr = {"*const i32": ctypes.POINTER(ctypes.c_int32), "*const TpTensor": ctypes.POINTER(TpTensor),
           "*const f64": ctypes.POINTER(ctypes.c_double), "*const u32": ctypes.POINTER(ctypes.c_uint32),
           "*mut c_void": ctypes.c_void_p, "*mut u8": ctypes.c_char_p}
    return [ptr.get(ty) or _CTYPES[ty] for _, ty in OP_SIGNATURE]


def rust_abi() -> str:
    """abi.rs: the descriptor struct, dtype codes, status codes and the layout/version exports."""
    fields = "\n".join(f"    pub {name}: {f'[{ty}; {n}]' if n else ty}," for name, ty, n in FIELDS)
    dtypes = "\n".join(f"pub const DTYPE_{name.upper()}: i32 = {code};" for name, (code, _, _) in DTYPES.items())
    status = "\n".join(f"    /// {doc}\n    {variant} = {code}," for code, (variant, doc) in STATUS.items())
    offsets = "\n".join(f"        std::mem::offset_of!(TpTensor, {name}) as u64," for name, _, _ in FIELDS)
    return f'''//! The C ABI shared with Python (generated from `src/tileport/runtime/abi.py`; do not edit).

/// Version of this ABI; Python refuses a library reporting another one.
pub const ABI_VERSION: u32 = {ABI_VERSION};
/// Largest tensor rank a descriptor carries.
pub const MAX_RANK: usize = {MAX_RANK};

{dtypes}

/// A tensor borrowed from the caller: device pointer, rank, dtype code, shape and strides in elements.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TpTensor {{
{fields}
}}

/// What an operator call returns.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {{
{status}
}}

/// ABI version, for Python's load-time check.
#[no_mangle]
pub extern "C" fn tileport_abi_version() -> u32 {{
    ABI_VERSION
}}

/// Writes [size, alignment, field offsets...] of `TpTensor` into `out` (up to `n` values); returns how many exist.
///
/// # Safety
/// `out` must be valid for `n` writes of u64.
#[no_mangle]
pub unsafe extern "C" fn tileport_abi_layout(out: *mut u64, n: usize) -> usize {{
    let values = [
        std::mem::size_of::<TpTensor>() as u64,
        std::mem::align_of::<TpTensor>() as u64,
{offsets}
    ];
    for (i, v) in values.iter().enumerate().take(n) {{
        unsafe {{ *out.add(i) = *v }};
    }}
    values.len()
}}
'''
