//! The direct launch: a launch cutile has already run once, at exactly these facts, goes straight to
//! `cuLaunchKernel` with the kernel function cutile compiled for it.
//!
//! cutile's launcher costs several microseconds per launch even when its launch-site cache hits (argument vectors,
//! generic-name strings, the validator, the launch-grid inference, the boxed argument arena). Everything it decides
//! is a function of what a [`Key`] holds: the operator and entry, generics, compile hints, grid and device, and
//! every tensor's dtype, shape, strides and pointer alignment class (its `SpecializationBits` follow from those),
//! and each integer scalar's divisibility (cutile's `DivHint`). So once cutile has validated, compiled and launched
//! a call with a given key, every later call with the same key is launched directly: the same function, the
//! parameter values laid out as cutile lays them out (a [`Src`] per kernel parameter, checked against the
//! function's own parameter count and sizes from the driver before the first direct launch).
//!
//! A key is recorded on its second slow launch (a shape seen once, as in a ragged batch, never pays for the
//! record); the function is found among cutile's cached kernels (see [`find`]), and a key whose function is not
//! found exactly once, or does not take the template's parameters, is never launched directly
//! ([`tileport_direct_refusal`] says why).
//! `TILEPORT_DIRECT_LAUNCH=0` (read once) or [`tileport_direct_launch`] turns the path off.

use crate::abi::{TpTensor, MAX_RANK};
use crate::rt::{fail, Result};
use cutile::cuda_core::sys;
use cutile::cuda_core::Function;
use cutile::cutile_compiler::hints::CompileOptions;
use cutile::cutile_compiler::specialization::{DivHint, SpecializationBits};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};

/// Where one kernel parameter's value comes from, in the order cutile's launcher pushes them: a tensor's device
/// pointer, extent or stride (by descriptor and dimension), a constant (an output partition's tile extent), or a
/// scalar of the call block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    Ptr(usize),
    Extent(usize, usize),
    Stride(usize, usize),
    Const(i32),
    I32(usize),
    F32(usize),
    Bool(usize),
}

impl Src {
    /// The parameter's size in bytes, as the kernel declares it.
    fn size(self) -> usize {
        match self {
            Src::Ptr(_) => 8,
            Src::Bool(_) => 1,
            _ => 4,
        }
    }
}

/// The scalar parameters' types, in call-block order (the key holds an integer's divisibility, not its value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    I32,
    F32,
    Bool,
}

/// The template of one tensor parameter: `&Tensor` (pointer, extents, strides) or an output partition (the same,
/// then the tile's extents, then the strides again — cutile's `Partition` pushes its tensor's strides as its own).
pub fn tensor(t: usize, rank: usize, tile: Option<&[usize]>) -> Vec<Src> {
    let mut out = vec![Src::Ptr(t)];
    out.extend((0..rank).map(|d| Src::Extent(t, d)));
    out.extend((0..rank).map(|d| Src::Stride(t, d)));
    if let Some(tile) = tile {
        out.extend(tile.iter().map(|&n| Src::Const(n as i32)));
        out.extend((0..rank).map(|d| Src::Stride(t, d)));
    }
    out
}

static OFF: OnceLock<AtomicBool> = OnceLock::new();
static DIRECT: AtomicU64 = AtomicU64::new(0);
static RECORDED: AtomicU64 = AtomicU64::new(0);
static REFUSED: AtomicU64 = AtomicU64::new(0);
/// Why the last refused key was refused.
static REFUSAL: Mutex<String> = Mutex::new(String::new());
/// Keys held per thread before the table starts over (shapes that keep changing never grow it without bound).
const TABLE_LIMIT: usize = 4096;

fn off() -> &'static AtomicBool {
    OFF.get_or_init(|| {
        AtomicBool::new(std::env::var("TILEPORT_DIRECT_LAUNCH").is_ok_and(|v| v == "0"))
    })
}

/// Turns the direct launch on (`enable` true) or off for the process; returns whether it was on.
#[no_mangle]
pub extern "C" fn tileport_direct_launch(enable: bool) -> bool {
    !off().swap(!enable, Relaxed)
}

/// Copies [launched directly, keys recorded, keys refused] into `out` (up to `n` values); returns 3.
///
/// # Safety
/// `out` must be valid for `n` writes (or null).
#[no_mangle]
pub unsafe extern "C" fn tileport_direct_stats(out: *mut u64, n: usize) -> usize {
    let values = [
        DIRECT.load(Relaxed),
        RECORDED.load(Relaxed),
        REFUSED.load(Relaxed),
    ];
    if !out.is_null() {
        for (i, v) in values.iter().enumerate().take(n) {
            unsafe { *out.add(i) = *v };
        }
    }
    values.len()
}

/// Copies why the last refused key was refused (UTF-8, NUL-terminated, cut to fit) into `out` of `n` bytes; returns
/// the message's full length.
///
/// # Safety
/// `out` must be valid for `n` writes (or null).
#[no_mangle]
pub unsafe extern "C" fn tileport_direct_refusal(out: *mut u8, n: usize) -> usize {
    let why = REFUSAL.lock().unwrap_or_else(|p| p.into_inner());
    if !out.is_null() && n > 0 {
        let k = why.len().min(n - 1);
        unsafe {
            std::ptr::copy_nonoverlapping(why.as_ptr(), out, k);
            *out.add(k) = 0;
        }
    }
    why.len()
}

enum State {
    /// Seen once on the slow path.
    Pending,
    Ready(Arc<Direct>),
    /// Its function was not found exactly once, or its parameters are not laid out as the template says.
    Refused,
}

struct Direct {
    function: Arc<Function>,
    template: Vec<Src>,
}

/// The table's hasher: a key is tens of words hashed on every launch, and std's SipHash (built against
/// adversarial keys, which launch facts are not) costs several hundred nanoseconds for it; this multiply-rotate
/// hash (the rustc/Firefox "Fx" scheme) costs one multiply per word.
#[derive(Default, Clone, Copy)]
struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_i64(&mut self, word: i64) {
        self.write_u64(word as u64);
    }
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

type Table = HashMap<Vec<i64>, State, std::hash::BuildHasherDefault<WordHasher>>;

thread_local! {
    static TABLE: RefCell<Table> = RefCell::new(Table::default());
    static KEY: RefCell<Vec<i64>> = const { RefCell::new(Vec::new()) };
    static VALUES: RefCell<(Vec<u64>, Vec<*mut c_void>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// What a launch's direct path is keyed on (see the module documentation); `op` is the entry's name, unique in
/// the library.
pub struct Key(Vec<i64>);

/// The key of `c` for entry `op`, whose parameters are `params` (each scalar's type, None for the others); None
/// with the direct path off.
pub fn key(op: &'static str, c: &crate::rt::Call<'_>, params: &[Option<Scalar>]) -> Option<Key> {
    if off().load(Relaxed) || params.iter().flatten().count() != c.scalars.len() {
        return None;
    }
    let mut k = KEY.with(|k| std::mem::take(&mut *k.borrow_mut()));
    k.clear();
    k.extend([
        op.as_ptr() as i64,
        op.len() as i64,
        c.entry as i64,
        c.device as i64,
    ]);
    k.extend([
        c.grid.0 as i64,
        c.grid.1 as i64,
        c.grid.2 as i64,
        c.hints.0 as i64,
    ]);
    k.extend(c.hints.1.iter().map(|&h| h as i64));
    k.push(c.generics.len() as i64);
    k.extend(c.generics.iter().map(|&g| g as i64));
    for t in c.tensors {
        let r = t.rank.clamp(0, MAX_RANK as i32) as usize;
        k.extend([
            t.dtype as i64,
            t.rank as i64,
            DivHint::from_ptr(t.data).divisor as i64,
        ]);
        k.extend(&t.shape[..r]);
        k.extend(&t.strides[..r]);
    }
    for (v, s) in c.scalars.iter().zip(params.iter().flatten()) {
        k.push(match s {
            Scalar::I32 => DivHint::from_value(*v as i32).divisor as i64,
            Scalar::Bool => (*v != 0.0) as i64,
            Scalar::F32 => 0,
        });
    }
    Some(Key(k))
}

impl Drop for Key {
    /// Gives the key's buffer back to this thread (the next key reuses it).
    fn drop(&mut self) {
        let k = std::mem::take(&mut self.0);
        KEY.with(|slot| {
            let mut slot = slot.borrow_mut();
            if slot.capacity() < k.capacity() {
                *slot = k;
            }
        });
    }
}

/// Launches `c` directly if its key is recorded: Some(outcome), else None (the caller takes cutile's launcher and
/// then calls [`after_slow`]).
pub fn try_launch(op: &str, key: &Option<Key>, c: &crate::rt::Call<'_>) -> Option<Result<()>> {
    let key = key.as_ref()?;
    let direct = TABLE.with(|t| match t.borrow().get(key.0.as_slice()) {
        Some(State::Ready(d)) => Some(d.clone()),
        _ => None,
    })?;
    Some(launch(op, &direct, c))
}

fn launch(op: &str, d: &Direct, c: &crate::rt::Call<'_>) -> Result<()> {
    let stream = crate::rt::stream(c.device, c.stream)?;
    VALUES.with(|v| {
        let (values, ptrs) = &mut *v.borrow_mut();
        values.clear();
        for &src in &d.template {
            values.push(value(src, c.tensors, c.scalars));
        }
        ptrs.clear();
        let base = values.as_mut_ptr();
        // SAFETY: one slot per template item; the slots stay put until the driver has copied them.
        ptrs.extend((0..values.len()).map(|i| unsafe { base.add(i) } as *mut c_void));
        let (gx, gy, gz) = c.grid;
        // SAFETY: the function is alive (its module is held by `d.function`); its parameters were checked against
        // the template's count and sizes when the key was recorded, and cutile launched this key's facts before.
        let status = unsafe {
            sys::cuLaunchKernel(
                d.function.cu_function(),
                gx,
                gy,
                gz,
                1,
                1,
                1,
                0,
                stream.cu_stream(),
                ptrs.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        if status != sys::cudaError_enum_CUDA_SUCCESS {
            return fail(
                crate::abi::Status::LaunchFailed,
                format!("{op}: cuLaunchKernel: CUresult {status}"),
            );
        }
        DIRECT.fetch_add(1, Relaxed);
        Ok(())
    })
}

/// A parameter's value in an 8-byte slot (little-endian: the driver reads the first `size` bytes).
fn value(src: Src, tensors: &[TpTensor], scalars: &[f64]) -> u64 {
    let i32_bits = |v: i64| (v as i32) as u32 as u64;
    match src {
        Src::Ptr(t) => tensors[t].data,
        Src::Extent(t, d) => i32_bits(tensors[t].shape[d]),
        Src::Stride(t, d) => i32_bits(tensors[t].strides[d]),
        Src::Const(n) => n as u32 as u64,
        Src::I32(s) => (scalars[s] as i32) as u32 as u64,
        Src::F32(s) => (scalars[s] as f32).to_bits() as u64,
        Src::Bool(s) => (scalars[s] != 0.0) as u64,
    }
}

/// An integer scalar's hint (cutile's, from its value); None for a float or bool scalar.
pub fn int_hint<T: Copy + 'static>(v: &T) -> Option<DivHint> {
    (v as &dyn std::any::Any)
        .downcast_ref::<i32>()
        .map(|&x| DivHint::from_value(x))
}

/// What identifies the cutile kernel a slow launch ran: its function name, generics, the tensors'
/// specialization bits and the integer scalars' hints in parameter order, and the launch's compile options; and
/// what compiles it again (its module's AST and source hash).
pub struct Identity<'a> {
    pub module_ast: fn() -> cutile::cutile_compiler::ast::Module,
    pub source_hash: &'static str,
    pub function: &'a str,
    pub generics: Vec<String>,
    pub specs: Vec<&'a SpecializationBits>,
    pub hints: Vec<DivHint>,
    pub options: Option<&'a CompileOptions>,
}

/// After a successful slow launch of `key`: marks it seen, and on its second sighting finds its function and
/// records it, or refuses it for good (`identity` and `template` are built only then).
pub fn after_slow<'a>(
    key: Option<Key>,
    stream: &Arc<cutile::cuda_core::Stream>,
    identity: impl FnOnce() -> Identity<'a>,
    template: impl FnOnce() -> Vec<Src>,
) {
    let Some(key) = key else { return };
    let k = key.0.as_slice();
    let seen = TABLE.with(|t| match t.borrow().get(k) {
        None => Some(false),
        Some(State::Pending) => Some(true),
        Some(_) => None, // recorded or refused already
    });
    let Some(seen) = seen else { return };
    if seen && capturing(stream) {
        // (recording may compile — a module load, which a CUDA graph capture on this stream forbids and which
        // would invalidate the capture: the key stays pending until a launch outside a capture)
        return;
    }
    let state = if !seen {
        State::Pending
    } else {
        match find(&identity(), &template(), stream) {
            Ok(d) => {
                RECORDED.fetch_add(1, Relaxed);
                State::Ready(Arc::new(d))
            }
            Err(why) => {
                REFUSED.fetch_add(1, Relaxed);
                *REFUSAL.lock().unwrap_or_else(|p| p.into_inner()) = why;
                State::Refused
            }
        }
    };
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() >= TABLE_LIMIT {
            t.clear();
        }
        match t.get_mut(k) {
            Some(slot) => *slot = state,
            None => {
                t.insert(k.to_vec(), state);
            }
        }
    });
}

/// Whether `stream` is capturing a CUDA graph (or its capture was invalidated); an unknown status counts as capturing.
fn capturing(stream: &Arc<cutile::cuda_core::Stream>) -> bool {
    let mut status = sys::CUstreamCaptureStatus_enum_CU_STREAM_CAPTURE_STATUS_NONE;
    // SAFETY: a live stream handle; the output is a plain enum.
    let rc = unsafe { sys::cuStreamIsCapturing(stream.cu_stream(), &mut status) };
    rc != sys::cudaError_enum_CUDA_SUCCESS
        || status != sys::CUstreamCaptureStatus_enum_CU_STREAM_CAPTURE_STATUS_NONE
}

/// The cached cutile kernel of `id`, when it is found exactly once and takes the template's parameters; else why
/// not. The kernel this launch ran is in cutile's cache (it just ran, and nothing here evicts), and an entry's
/// function name is its specialization's own (`<kernel>_<dtypes>_<constants>`): a name cached once is this launch's
/// kernel. A name cached several times (one kernel launched at several shapes, or two sources with one kernel
/// name) is narrowed by generics, grid, compile options, specialization bits and integer hints, and must leave one.
///
/// cutile's launcher compiles an integer scalar (or pointer) parameter with a divisibility hint from its value —
/// `assume_div_by(n, 16)` for an even-enough `n` — which cuTile Python never does (its scalars carry a dtype only)
/// and the proven port was compiled without (irgen passes none): tileiras then makes other code (token_gather at
/// n = 2^20: 40 registers and 13 KB of shared memory against 32 and 4 KB, 1.47x the time). So a kernel found with
/// such a hint is compiled again at the same key with every hint neutral — the proven IR — and that function is the
/// one launched directly (the first two launches of a key, through cutile's launcher, ran the hinted one).
fn find(
    id: &Identity<'_>,
    template: &[Src],
    stream: &Arc<cutile::cuda_core::Stream>,
) -> std::result::Result<Direct, String> {
    use cutile::tile_kernel::{kernel_cache_slot, retain_kernels, TileFunctionKey};
    let options = id.options.cloned().unwrap_or_default();
    let mut named: Vec<TileFunctionKey> = Vec::new();
    // SAFETY: the predicate keeps every kernel (nothing is evicted), so no stream can lose a running kernel.
    unsafe {
        retain_kernels(|key| {
            if key.function_name() == id.function {
                named.push(key.clone());
            }
            true
        })
    };
    let same = |key: &TileFunctionKey| {
        key.function_generics == id.generics
            && key.grid.is_none()
            && key.compile_options == options
            && key.spec_args.len() == id.specs.len()
            && key
                .spec_args
                .iter()
                .zip(&id.specs)
                .all(|((_, a), b)| a == *b)
            && key
                .scalar_hints
                .iter()
                .map(|(_, h)| *h)
                .eq(id.hints.iter().copied())
    };
    let narrowed: Vec<&TileFunctionKey> = match named.as_slice() {
        [] => return Err(format!("{}: no cached kernel of this name", id.function)),
        [key] => vec![key],
        _ => named.iter().filter(|k| same(k)).collect(),
    };
    let [key] = narrowed.as_slice() else {
        return Err(format!(
            "{}: {} cached kernels of this name, {} of this launch's generics, options, bits and hints",
            id.function,
            named.len(),
            narrowed.len()
        ));
    };
    let function = if key.scalar_hints.iter().any(|(_, h)| h.divisor > 1) {
        neutral(id, key, stream)?
    } else {
        kernel_cache_slot(key)
            .get()
            .ok_or_else(|| format!("{}: its cache slot is empty", id.function))?
            .function
            .clone()
    };
    laid_out(&function, template).map_err(|e| format!("{}: {e}", id.function))?;
    Ok(Direct {
        function,
        template: template.to_vec(),
    })
}

/// The kernel of `key` compiled again with every scalar hint neutral (divisor 1), as the port was proven.
fn neutral(
    id: &Identity<'_>,
    key: &cutile::tile_kernel::TileFunctionKey,
    stream: &Arc<cutile::cuda_core::Stream>,
) -> std::result::Result<Arc<Function>, String> {
    let hints: Vec<(String, DivHint)> = key
        .scalar_hints
        .iter()
        .map(|(name, h)| {
            (
                name.clone(),
                DivHint {
                    divisor: 1,
                    max: h.max,
                },
            )
        })
        .collect();
    crate::rt::on_compile_stack(stream, || {
        let ctx = cutile::cuda_async::device_operation::ExecutionContext::new(stream.clone());
        cutile::tile_kernel::compile_from_context(
            &ctx,
            id.module_ast,
            "port",
            key.function_name(),
            &format!("{}_entry", key.function_name()),
            key.function_generics.clone(),
            key.stride_args.clone(),
            key.spec_args.clone(),
            hints,
            key.grid,
            key.compile_options.clone(),
            id.source_hash,
        )
        .map(|(function, _)| function)
        .map_err(|e| format!("{}: compiling it without scalar hints: {e:?}", id.function))
    })
}

/// Whether the function takes exactly the template's parameters, of the template's sizes (the driver's view);
/// else both layouts.
fn laid_out(function: &Function, template: &[Src]) -> std::result::Result<(), String> {
    let want: Vec<usize> = template.iter().map(|s| s.size()).collect();
    let mut got = Vec::new();
    // The parameters one by one until the driver says the index is past the last: cuFuncGetParamCount is newer
    // than cuFuncGetParamInfo (CUDA 12.4) — a 13.0 driver (580) lacks it, and the bindings answer NOT_FOUND.
    // SAFETY: a live function handle; the outputs are plain integers.
    unsafe {
        let f = function.cu_function();
        loop {
            let (mut offset, mut size) = (0usize, 0usize);
            let status = sys::cuFuncGetParamInfo(f, got.len(), &mut offset, &mut size);
            if status == sys::cudaError_enum_CUDA_ERROR_INVALID_VALUE {
                break;
            }
            if status != sys::cudaError_enum_CUDA_SUCCESS {
                return Err(format!(
                    "cuFuncGetParamInfo({}): CUresult {status}",
                    got.len()
                ));
            }
            got.push(size);
            if got.len() > want.len() {
                break; // more than the template: refused below, whatever follows
            }
        }
    }
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "the driver's parameter sizes {got:?} are not the template's {want:?} ({template:?})"
        ))
    }
}
