//! The C ABI shared with Python (generated from `src/tileport/runtime/abi.py`; do not edit).

/// Version of this ABI; Python refuses a library reporting another one.
pub const ABI_VERSION: u32 = 3;
/// Largest tensor rank a descriptor carries.
pub const MAX_RANK: usize = 8;
/// Slots of `TpCall.hints` (cutile CompileOptions a launch sets).
pub const HINT_SLOTS: usize = 4;
pub const HINT_OCCUPANCY: usize = 0;
pub const HINT_NUM_CTA_IN_CGA: usize = 1;
pub const HINT_NUM_WORKER_WARPS_PER_CTA: usize = 2;
pub const HINT_OPT_LEVEL: usize = 3;

pub const DTYPE_F32: i32 = 0;
pub const DTYPE_F16: i32 = 1;
pub const DTYPE_BF16: i32 = 2;
pub const DTYPE_I32: i32 = 3;
pub const DTYPE_I64: i32 = 4;
pub const DTYPE_F8E5M2: i32 = 5;
pub const DTYPE_F8E4M3FN: i32 = 6;
pub const DTYPE_F64: i32 = 7;

/// A tensor borrowed from the caller: device pointer, rank, dtype code, shape and strides in
/// elements.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TpTensor {
    pub data: u64,
    pub rank: i32,
    pub dtype: i32,
    pub shape: [i64; 8],
    pub strides: [i64; 8],
}

/// One operator call: entry, device, counts, pointers to the generics (i32), tensor descriptors and
/// scalars (f64), the caller's CUstream, the grid and the compile hints the launch sets (`hints[i]`
/// where bit i of `hints_set` is 1, in HINT_SLOTS order).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TpCall {
    pub entry: i32,
    pub device: i32,
    pub n_generics: u32,
    pub n_tensors: u32,
    pub n_scalars: u32,
    pub hints_set: u32,
    pub generics: u64,
    pub tensors: u64,
    pub scalars: u64,
    pub stream: u64,
    pub grid: [u32; 3],
    pub reserved: u32,
    pub hints: [i32; 4],
}

/// What an operator call returns.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// ok
    Ok = 0,
    /// wrong number of tensors, scalars or generics for the entry
    BadArgumentCount = 1,
    /// a tensor's dtype differs from the entry's parameter type
    BadDtype = 2,
    /// a tensor's rank differs from the entry's parameter
    BadRank = 3,
    /// a shape or stride does not fit the launch (negative, or beyond i32)
    BadShape = 4,
    /// no such entry in this operator
    BadEntry = 5,
    /// cutile refused or failed the launch (compile, launch checks, driver)
    LaunchFailed = 6,
    /// the Rust side panicked (a bug; the message says where)
    Panic = 7,
    /// the CUDA device could not be opened
    NoDevice = 8,
}
