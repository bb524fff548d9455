//! Runtime support for the generated `ffi.rs`: borrowing the caller's tensors and stream, checking descriptors,
//! running a launch (on a large stack the first time a specialization is compiled), and turning every failure —
//! panics included — into a status code and a message for the caller.

use crate::abi::{Status, TpCall, TpTensor, MAX_RANK};
use cutile::cuda_core::{Device, Stream};
use cutile::cutile_compiler::hints::CompileOptions;
use cutile::cutile_compiler::specialization::DivHint;
use cutile::prelude::*;
use cutile::tensor::SpecializationBits;
use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::ffi::c_void;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// Opt-in timing of the library's share of a launch (`TILEPORT_TIMERS=1`, read once): how long the whole C call,
/// the stream lookup, the specialization key and cutile's launcher (with `cuLaunchKernel`) take, summed over calls.
/// `scripts/launch_overhead_probe.py` reads it through `tileport_profile`. Off, a stage costs one cached load.
pub mod profile {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    use std::sync::OnceLock;
    use std::time::Instant;

    /// Stage names, in the order `tileport_profile` reports them (after the call count).
    pub const STAGES: [&str; 4] = ["call", "stream", "key", "launcher"];
    pub const CALL: usize = 0;
    pub const STREAM: usize = 1;
    pub const KEY: usize = 2;
    pub const LAUNCHER: usize = 3;
    static CALLS: AtomicU64 = AtomicU64::new(0);
    static NANOS: [AtomicU64; 4] = [const { AtomicU64::new(0) }; 4];

    fn enabled() -> bool {
        static ON: OnceLock<bool> = OnceLock::new();
        *ON.get_or_init(|| std::env::var("TILEPORT_TIMERS").is_ok_and(|v| v == "1"))
    }

    pub fn start() -> Option<Instant> {
        enabled().then(Instant::now)
    }

    pub fn stop(stage: usize, since: Option<Instant>) {
        if let Some(t) = since {
            NANOS[stage].fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
            if stage == CALL {
                CALLS.fetch_add(1, Relaxed);
            }
        }
    }

    /// Copies `[calls, ns per stage...]` into `out` (up to `n` values), optionally resetting; returns the count.
    ///
    /// # Safety
    /// `out` must be valid for `n` writes.
    #[no_mangle]
    pub unsafe extern "C" fn tileport_profile(out: *mut u64, n: usize, reset: bool) -> usize {
        let mut values = vec![CALLS.load(Relaxed)];
        values.extend(NANOS.iter().map(|v| v.load(Relaxed)));
        if reset {
            CALLS.store(0, Relaxed);
            NANOS.iter().for_each(|v| v.store(0, Relaxed));
        }
        let k = values.len().min(n);
        if !out.is_null() {
            unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), out, k) };
        }
        k
    }
}

/// An error for the caller: a status and a message naming the operator, argument and problem.
pub struct Failure {
    pub status: Status,
    pub message: String,
}

pub type Result<T> = std::result::Result<T, Failure>;

pub fn fail<T>(status: Status, message: impl Into<String>) -> Result<T> {
    Err(Failure {
        status,
        message: message.into(),
    })
}

/// Runs `body`, converting failures and panics into a status code, with the message copied into `err`.
///
/// # Safety
/// `err` must be valid for `err_len` bytes (or null).
pub unsafe fn guard(err: *mut u8, err_len: usize, body: impl FnOnce() -> Result<()>) -> i32 {
    let since = profile::start();
    let outcome =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            fail(
                Status::Panic,
                format!("panic in the Rust kernel library: {what}"),
            )
        });
    profile::stop(profile::CALL, since);
    match outcome {
        Ok(()) => Status::Ok as i32,
        Err(f) => {
            if !err.is_null() && err_len > 0 {
                let bytes = f.message.as_bytes();
                let n = bytes.len().min(err_len - 1);
                unsafe {
                    std::ptr::copy_nonoverlapping(bytes.as_ptr(), err, n);
                    *err.add(n) = 0;
                }
            }
            f.status as i32
        }
    }
}

/// A slice from a C pointer and length (empty for null).
///
/// # Safety
/// `ptr` must be valid for `n` reads when not null.
pub unsafe fn slice<'a, T>(ptr: *const T, n: usize) -> &'a [T] {
    if ptr.is_null() || n == 0 {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts(ptr, n) }
    }
}

/// Checks the argument counts an entry expects.
pub fn expect_counts(op: &str, got: [usize; 3], want: [usize; 3]) -> Result<()> {
    if got != want {
        return fail(
            Status::BadArgumentCount,
            format!(
                "{op}: got {} generics, {} tensors, {} scalars; the entry takes {}, {}, {}",
                got[0], got[1], got[2], want[0], want[1], want[2]
            ),
        );
    }
    Ok(())
}

/// An element stride of a caller's tensor as the `i32` entry parameter a port takes for it (a cutile 0.3.1 kernel
/// cannot read a tensor's strides); a stride beyond `i32` is refused, as cuTile Python refuses it.
pub fn stride_i32(op: &str, t: &TpTensor, dim: usize, name: &str) -> Result<i32> {
    match i32::try_from(t.strides[dim]) {
        Ok(s) => Ok(s),
        Err(_) => fail(
            Status::BadShape,
            format!("{op}: {name} = {} is beyond i32", t.strides[dim]),
        ),
    }
}

/// An element type a port takes, with its dtype code and name in the C ABI (`abi.rs`); `ffi.rs` implements it
/// for every dtype of `src/tileport/runtime/abi.py`.
pub trait AbiDtype: DType {
    const ABI: (i32, &'static str);
}

/// Borrows the caller's memory as a cutile tensor after checking dtype, rank and sizes. Nothing is copied and
/// the memory is never freed by cutile (`borrow_raw_parts`).
///
/// # Safety
/// The descriptor must describe live device memory on `device` that stays valid, and that no one else writes
/// (reads, for a written parameter) until the launch completes on the caller's stream; Python checks the
/// descriptors do not overlap before calling.
pub unsafe fn borrow<T: AbiDtype>(
    op: &str,
    t: &TpTensor,
    name: &str,
    rank: usize,
    device: usize,
) -> Result<Tensor<T>> {
    let (code, dtype) = T::ABI;
    if t.dtype != code {
        return fail(
            Status::BadDtype,
            format!(
                "{op}: {name} has dtype code {}, the port takes {dtype}",
                t.dtype
            ),
        );
    }
    if t.rank as usize != rank || rank > MAX_RANK {
        return fail(
            Status::BadRank,
            format!(
                "{op}: {name} has rank {}, the port takes rank {rank}",
                t.rank
            ),
        );
    }
    let to_i32 = |v: i64, what: &str| -> Result<i32> {
        i32::try_from(v).ok().filter(|x| *x >= 0).map_or_else(
            || {
                fail(
                    Status::BadShape,
                    format!("{op}: {name} {what} {v} is negative or beyond i32"),
                )
            },
            Ok,
        )
    };
    let mut shape = Vec::with_capacity(rank);
    let mut strides = Vec::with_capacity(rank);
    for k in 0..rank {
        shape.push(to_i32(t.shape[k], "extent")?);
        strides.push(to_i32(t.strides[k], "stride")?);
    }
    Ok(unsafe { Tensor::<T>::borrow_raw_parts(t.data, device, shape, strides) })
}

/// A caller's tensor passed to an entry with static extents (cuTile Python's calling convention v2), with the
/// specialization bits cutile compiles that entry under compacted to the dynamic axes: cutile 0.3.1's launcher
/// computes one extent divisor per axis (`compute_spec`) and its entry generator gives the i-th to the i-th *dynamic*
/// axis, so uncompacted an axis after a static one took an earlier axis's divisor (a false fact, or a weaker kernel
/// than the proven one: docs/v2_unit_extents.md). The kernel's arguments are the tensor's own (base, every extent,
/// every stride); only the bits differ, as the port was proven under (port.json `specs`, compacted alike). Along a
/// static extent of 1 the stride is dynamic with a 16-byte divisor, as cuTile Python 1.7's tensor view states it
/// (`_lower_tensor_view_extents`) and the translator proved it, whatever the launch's stride there (its 1 too), and
/// the dynamic strides' divisors go first, as cutile's entry generator reads them (`singleton`).
pub struct Compact<T: DType> {
    tensor: Tensor<T>,
    data: u64,
    spec: SpecializationBits,
}

impl<T: DType> Compact<T> {
    /// ``static_axes``: the entry's static axes (its tensor type's literal extents).
    pub fn new(tensor: Tensor<T>, data: u64, static_axes: &[usize]) -> Self {
        let mut spec = tensor.spec().clone();
        let unit: Vec<usize> = static_axes
            .iter()
            .copied()
            .filter(|&k| tensor.shape()[k] == 1)
            .collect();
        singleton(
            &mut spec,
            &unit,
            (16 / std::mem::size_of::<T>()).max(1) as i32,
        );
        spec.shape_div = compact(&spec.shape_div, static_axes, DivHint::default());
        Self { tensor, data, spec }
    }

    /// The compacted bits (what cutile compiles and caches the entry under).
    pub fn spec(&self) -> &SpecializationBits {
        &self.spec
    }
}

/// Per-axis items with the ``static_axes``' dropped, the rest moved up and the tail padded with ``pad`` (a divisor
/// of 1, as port.json's specs are padded), as cutile indexes them by dynamic axis.
pub fn compact<H: Clone>(items: &[H], static_axes: &[usize], pad: H) -> Vec<H> {
    let mut out: Vec<H> = (0..items.len())
        .filter(|k| !static_axes.contains(k))
        .map(|k| items[k].clone())
        .collect();
    out.resize(items.len(), pad);
    out
}

/// The stride bits of a tensor view with static extents of 1 along ``unit``: there the stride is dynamic and
/// divisible by ``div`` (16 bytes in elements); then the divisors of the dynamic strides first, in axis order, the
/// unit strides' after them (cutile 0.3.1 gives the i-th dynamic stride `stride_div[i]`; port.json's specs are
/// written so).
pub fn singleton(spec: &mut SpecializationBits, unit: &[usize], div: i32) {
    for &k in unit {
        spec.stride_one[k] = false;
        if spec.stride_div[k].divisor < div {
            spec.stride_div[k] = DivHint::from_value(div);
        }
    }
    let (dynamic, ones): (Vec<usize>, Vec<usize>) =
        (0..spec.stride_one.len()).partition(|&k| !spec.stride_one[k]);
    spec.stride_div = dynamic
        .iter()
        .chain(&ones)
        .map(|&k| spec.stride_div[k])
        .collect();
}

impl<T: DType + Sync> cutile::tensor::KernelInputStored for &Compact<T> {
    fn push_kernel_args(&self, launcher: &mut cutile::cuda_async::launch::AsyncKernelLaunch) {
        // SAFETY: the base address of the caller's live tensor (rt::borrow), as `&Tensor` pushes it.
        unsafe {
            launcher.push_device_ptr(self.data);
        }
        for dim in self.tensor.shape() {
            launcher.push_arg(*dim);
        }
        for stride in self.tensor.strides() {
            launcher.push_arg(*stride);
        }
    }
    fn shape(&self) -> &[i32] {
        self.tensor.shape()
    }
    fn strides(&self) -> &[i32] {
        self.tensor.strides()
    }
    fn spec(&self) -> &SpecializationBits {
        &self.spec
    }
    fn dtype_str(&self) -> &'static str {
        T::DTYPE.as_str()
    }
}

impl<'a, T: DType + Sync> cutile::tensor::KernelInput<T> for &'a Compact<T> {
    type Stored = &'a Compact<T>;
    type Returned = &'a Compact<T>;
    fn prepare(self) -> Self::Stored {
        self
    }
    fn recover(stored: Self::Stored) -> Self::Returned {
        stored
    }
}

impl<'a, T: DType + Sync> cutile::cuda_async::device_operation::IntoDeviceOp<&'a Compact<T>>
    for &'a Compact<T>
{
    type Op = cutile::cuda_async::device_operation::Value<&'a Compact<T>>;
    fn into_op(self) -> Self::Op {
        cutile::cuda_async::device_operation::value(self)
    }
}

/// Tile shape of an output partition from the entry's generics.
pub fn tile<const R: usize>(dims: [i32; R]) -> [usize; R] {
    dims.map(|d| d.max(0) as usize)
}

/// The generics an entry is launched with, as cutile's launcher takes them: its element types' names (a
/// type-generic entry's `E`, in order), then the const generics.
pub fn generic_strings(types: &[&str], g: &[i32]) -> Vec<String> {
    let consts = g.iter().map(|v| v.to_string());
    types.iter().map(|t| t.to_string()).chain(consts).collect()
}

/// The caller's device (primary context, shared with PyTorch) and stream, borrowed. Both are cached per thread
/// (the launch hot path then allocates nothing here); the context is made current on every call.
pub fn stream(device: i32, raw: *mut c_void) -> Result<Arc<Stream>> {
    let since = profile::start();
    let found = stream_uncounted(device, raw);
    profile::stop(profile::STREAM, since);
    found
}

fn stream_uncounted(device: i32, raw: *mut c_void) -> Result<Arc<Stream>> {
    static DEVICES: OnceLock<Mutex<HashMap<i32, Arc<Device>>>> = OnceLock::new();
    thread_local! {
        static STREAMS: RefCell<HashMap<(i32, usize), Arc<Stream>>> = RefCell::new(HashMap::new());
    }
    let no_device = |e: &dyn std::fmt::Debug| Failure {
        status: Status::NoDevice,
        message: format!("CUDA device {device}: {e:?}"),
    };
    if let Some(s) = STREAMS.with(|m| m.borrow().get(&(device, raw as usize)).cloned()) {
        s.device().bind_to_thread().map_err(|e| no_device(&e))?;
        return Ok(s);
    }
    let dev = {
        let mut devices = DEVICES
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        match devices.get(&device) {
            Some(d) => d.clone(),
            None => {
                let d = Device::new(device.max(0) as usize).map_err(|e| no_device(&e))?;
                devices.insert(device, d.clone());
                d
            }
        }
    };
    dev.bind_to_thread().map_err(|e| no_device(&e))?;
    // SAFETY: the caller passes its live stream (or null, the legacy default stream) on this device; PyTorch keeps
    // its streams for the life of the process.
    let s = unsafe { Stream::borrow_raw(raw, &dev) };
    STREAMS.with(|m| m.borrow_mut().insert((device, raw as usize), s.clone()));
    Ok(s)
}

/// What cutile's kernel cache is keyed on, hashed: the entry, its generics and every tensor's specialization bits
/// (the `SpecializationBits` cutile computed when the tensor was borrowed — the ones its launcher compares).
/// `specs` holds one item per entry parameter, `None` for a scalar.
/// `options` are the launch's own compile hints (part of cutile's key too).
pub fn spec_key(
    op: &str,
    generics: &[i32],
    specs: &[Option<&SpecializationBits>],
    options: Option<&CompileOptions>,
) -> u64 {
    let since = profile::start();
    let mut h = DefaultHasher::new();
    (op, generics, options).hash(&mut h);
    for s in specs.iter().flatten() {
        s.hash(&mut h);
    }
    let key = h.finish();
    profile::stop(profile::KEY, since);
    key
}

/// A list-of-arrays parameter's descriptor table: an i64 tensor of one row per item (base address, `rank` extents,
/// `rank` strides), row-major, allocated by the caller on the launch's device; the entry takes its address (and its
/// row count).
pub fn list_table(
    op: &str,
    t: &TpTensor,
    name: &str,
    rank: usize,
) -> Result<cutile::cuda_async::device_buffer::DevicePointer<i64>> {
    let words = (1 + 2 * rank) as i64;
    if t.dtype != crate::abi::DTYPE_I64 || t.rank != 2 || t.shape[1] != words || t.shape[0] < 1 {
        return fail(
            Status::BadShape,
            format!(
                "{op}: {name}: a list's descriptor table is an i64 tensor of [items, {words}] (dtype code {}, \
                 rank {}, shape {:?})",
                t.dtype,
                t.rank,
                &t.shape[..t.rank.clamp(0, MAX_RANK as i32) as usize]
            ),
        );
    }
    if t.strides[0] != words || t.strides[1] != 1 || t.shape[0] > i32::MAX as i64 {
        return fail(
            Status::BadShape,
            format!("{op}: {name}: the descriptor table must be row-major and dense"),
        );
    }
    // SAFETY: the caller passes a live device allocation of the table (checked above), kept until the launch ran.
    Ok(unsafe { cutile::cuda_async::device_buffer::DevicePointer::from_cu_deviceptr(t.data) })
}

/// Runs a launch. The first launch of a specialization JIT-compiles the kernel, and cutile's compiler recurses
/// deeply: that one runs on a thread with a 64 MiB stack. Later launches run on the caller's thread. "Seen" is
/// keyed on `spec_key` — what cutile's kernel cache is keyed on — so a launch taken as seen is a cache hit and
/// never compiles on the small stack, and a new shape with the same bits does not pay for a thread.
pub fn launch(
    op: &str,
    key: u64,
    stream: &Arc<Stream>,
    body: impl FnOnce(&Arc<Stream>) -> std::result::Result<(), String> + Send,
) -> Result<()> {
    thread_local! {
        static SEEN: RefCell<HashSet<u64>> = RefCell::new(HashSet::new());
    }
    let seen = SEEN.with(|s| s.borrow().contains(&key));
    let outcome = if seen {
        let since = profile::start();
        let done = body(stream);
        profile::stop(profile::LAUNCHER, since);
        done
    } else {
        on_compile_stack(stream, || body(stream))
    };
    match outcome {
        Ok(()) => {
            SEEN.with(|s| s.borrow_mut().insert(key));
            Ok(())
        }
        Err(e) => fail(Status::LaunchFailed, format!("{op}: {e}")),
    }
}

/// Runs `body` (which may JIT-compile: cutile's compiler recurses deeply) on a thread with a 64 MiB stack, bound
/// to the stream's CUDA context.
pub fn on_compile_stack<T: Send>(
    stream: &Arc<Stream>,
    body: impl FnOnce() -> std::result::Result<T, String> + Send,
) -> std::result::Result<T, String> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(s, || {
                stream
                    .device()
                    .bind_to_thread()
                    .map_err(|e| format!("binding the CUDA context: {e:?}"))?;
                body()
            })
            .map_err(|e| format!("cannot start the compile thread: {e}"))?
            .join()
            .unwrap_or_else(|_| Err("the cutile compiler panicked".into()))
    })
}

/// One call's arguments, read out of the caller's `TpCall`.
pub struct Call<'a> {
    pub entry: i32,
    pub device: i32,
    pub generics: &'a [i32],
    pub tensors: &'a [TpTensor],
    pub scalars: &'a [f64],
    pub grid: (u32, u32, u32),
    pub stream: *mut c_void,
    /// The compile hints the launch sets for itself (a kernel launched at hints other than its entry's own, as
    /// cuTile Python's `kernel.replace_hints(..)`), as cutile's per-launch options; `None`: the entry's own.
    pub options: Option<CompileOptions>,
    /// The same hints as the call block carries them (`hints_set`, `hints`).
    pub hints: (u32, [i32; crate::abi::HINT_SLOTS]),
}

/// The launch's own compile hints from the call block (`hints[i]` where bit i of `hints_set` is 1).
fn compile_options(c: &TpCall) -> Result<Option<CompileOptions>> {
    use crate::abi::{
        HINT_NUM_CTA_IN_CGA, HINT_NUM_WORKER_WARPS_PER_CTA, HINT_OCCUPANCY, HINT_OPT_LEVEL,
    };
    if c.hints_set == 0 {
        return Ok(None);
    }
    let given = |slot: usize| (c.hints_set >> slot) & 1 == 1;
    let mut o = CompileOptions::default();
    if given(HINT_OCCUPANCY) {
        o = o.occupancy(c.hints[HINT_OCCUPANCY]);
    }
    if given(HINT_NUM_CTA_IN_CGA) {
        o = o.num_cta_in_cga(c.hints[HINT_NUM_CTA_IN_CGA]);
    }
    if given(HINT_NUM_WORKER_WARPS_PER_CTA) {
        o = o.num_worker_warps_per_cta(c.hints[HINT_NUM_WORKER_WARPS_PER_CTA]);
    }
    if given(HINT_OPT_LEVEL) {
        let level = u8::try_from(c.hints[HINT_OPT_LEVEL]);
        o = o.opt_level(
            level.or_else(|_| fail(Status::BadArgumentCount, "opt_level hint out of range"))?,
        );
    }
    Ok(Some(o))
}

/// Reads the call block.
///
/// # Safety
/// `call` must point to a valid `TpCall` whose pointers are valid for their counts.
pub unsafe fn call<'a>(call: *const TpCall) -> Result<Call<'a>> {
    if call.is_null() {
        return fail(Status::BadArgumentCount, "the call block pointer is null");
    }
    let c = unsafe { &*call };
    Ok(Call {
        entry: c.entry,
        device: c.device,
        generics: unsafe { slice(c.generics as *const i32, c.n_generics as usize) },
        tensors: unsafe { slice(c.tensors as *const TpTensor, c.n_tensors as usize) },
        scalars: unsafe { slice(c.scalars as *const f64, c.n_scalars as usize) },
        grid: (c.grid[0], c.grid[1], c.grid[2]),
        stream: c.stream as *mut c_void,
        options: compile_options(c)?,
        hints: (c.hints_set, c.hints),
    })
}

/// Launches nothing: describes the call block it is given (entry, device, generics, every descriptor, scalars,
/// stream, grid) as its error message and returns `BadEntry`. The bindings' tests call it through the same path
/// as an operator, to check what Python packs is what the library reads.
///
/// # Safety
/// As for any `tp_<op>`: `call` valid with its arrays, `err` valid for `err_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn tileport_describe_call(
    call: *const TpCall,
    err: *mut u8,
    err_len: usize,
) -> i32 {
    unsafe {
        guard(err, err_len, || {
            let c = self::call(call)?;
            let tensors: Vec<String> = c
                .tensors
                .iter()
                .map(|t| {
                    let r = t.rank.clamp(0, MAX_RANK as i32) as usize;
                    format!(
                        "{:#x}/{}/{:?}/{:?}",
                        t.data,
                        t.dtype,
                        &t.shape[..r],
                        &t.strides[..r]
                    )
                })
                .collect();
            fail(
                Status::BadEntry,
                format!(
                    "entry={} device={} generics={:?} tensors=[{}] scalars={:?} stream={:#x} grid={:?} options={:?}",
                    c.entry,
                    c.device,
                    c.generics,
                    tensors.join(" "),
                    c.scalars,
                    c.stream as usize,
                    c.grid,
                    c.options
                ),
            )
        })
    }
}

/// One operator's exported C function, `tp_<op>`: it reads the call block, picks the entry `call.entry` numbers,
/// checks the argument counts, borrows and checks each tensor (dtype, rank, extents), converts each scalar and
/// launches the entry on the caller's stream. `ffi.rs` is one invocation per operator, generated from the ports'
/// manifests; an entry lists its generics and its parameters in the kernel's order:
///
/// ```text
/// operator! {
///     tp_rms_norm => rms_norm {
///         0 => rms_norm_f32<BM, BLOCK>(
///             in x: f32[2] = t[0],              // a tensor the kernel reads: rank 2, descriptor 0
///             written r: f32[1] = t[2],         // a tensor the kernel writes through its own views
///             out y: f32[2] = t[1] => [BM, 1],  // a tensor stored in tiles: partitioned at these dims
///             static_in q: f32[3] = t[3] => [0], // read, the entry's axis 0 static (rt::Compact; also
///                                               // static_written)
///             scalar eps: f32 = s[0],           // a scalar (i32, f32 or bool) from `call.scalars`
///             stride sx: i32 = t[0].strides[0], // an element stride the kernel takes as an argument
///         ),
///         1 => rms_norm_f16 = rms_norm[f16]<BM, BLOCK>(..), // the type-generic `rms_norm` at E = f16
///     }
/// }
/// ```
///
/// Parameters are bound by their kernel names; the macro's own locals are hygienic, so a parameter may be called
/// `g`, `t`, `s`, `op` or `key`.
macro_rules! operator {
    (
        $func:ident => $op:ident {
            $($index:literal => $entry:ident $(= $function:ident [$($elem:ty),+])? $(<$($gen:ident),+>)? (
                $($kind:ident $name:ident: $ty:ident $([$rank:literal])? = $src:ident[$pos:literal]
                    $(.strides[$dim:literal])? $(=> [$($tile:expr),+])?),* $(,)?
            )),* $(,)?
        }
    ) => {
        #[doc = concat!("`", stringify!($op), "`: launches one of its entries (", stringify!($($entry),*),
            ") on the caller's stream. `call.entry` is the index in that list; `call.generics` are the entry's \
            const generics, `call.tensors` its array parameters and `call.scalars` its scalar parameters (as f64), \
            each in parameter order.")]
        ///
        /// # Safety
        /// `call` and the arrays it points to must be valid for the given lengths; every descriptor must
        /// describe live device memory on `call.device`, and no descriptor may overlap a parameter the kernel
        /// writes.
        #[no_mangle]
        pub unsafe extern "C" fn $func(call: *const $crate::abi::TpCall, err: *mut u8, err_len: usize) -> i32 {
            use cutile::prelude::*;
            unsafe {
                $crate::rt::guard(err, err_len, || {
                    let tp_call = $crate::rt::call(call)?;
                    let (g, t, s) = (tp_call.generics, tp_call.tensors, tp_call.scalars);
                    let (grid, device, dev) = (tp_call.grid, tp_call.device, tp_call.device.max(0) as usize);
                    match tp_call.entry {
                        $($index => {
                            let op = concat!(stringify!($op), "::", stringify!($entry));
                            let counts = [
                                <[&str]>::len(&[$($(stringify!($gen)),+)?]),
                                0 $(+ $crate::rt::operator!(@tensors $kind))*,
                                0 $(+ $crate::rt::operator!(@scalars $kind))*,
                            ];
                            $crate::rt::expect_counts(op, [g.len(), t.len(), s.len()], counts)?;
                            $(
                                #[allow(unused_variables)] // (the generics that size an output's tiles are read)
                                let &[$($gen),+] = g else { unreachable!("counted above") };
                            )?
                            let direct = $crate::direct::key(op, &tp_call,
                                &[$($crate::rt::operator!(@scalar $kind $ty)),*]);
                            if let Some(done) = $crate::direct::try_launch(op, &direct, &tp_call) {
                                return done;
                            }
                            $($crate::rt::operator!(@let [op t s dev] $kind $name: $ty $([$rank])? = $src[$pos]
                                $(.strides[$dim])? $(=> [$($tile),+])?);)*
                            let key = $crate::rt::spec_key(op, g, &[$($crate::rt::operator!(@spec $kind $name)),*],
                                tp_call.options.as_ref());
                            let stream = $crate::rt::stream(device, tp_call.stream)?;
                            let elems: &[&str] = &[$($(<$elem as DType>::DTYPE.as_str()),+)?];
                            $crate::rt::launch(op, key, &stream, |stream| {
                                let launch = $crate::rt::operator!(@call $op $entry $($function)? (
                                    $($crate::rt::operator!(@arg $kind $name $(=> [$($tile),+])?)),*
                                ))
                                .generics($crate::rt::generic_strings(elems, g))
                                .grid(grid);
                                let launch = match tp_call.options.clone() {
                                    Some(options) => launch.compile_options(options),
                                    None => launch,
                                };
                                // SAFETY: async on the caller's stream; the caller keeps the memory alive and
                                // unshared until the stream reaches this launch (the Python side checks
                                // descriptors never overlap outputs).
                                launch.async_on(stream).map(|_| ()).map_err(|e| format!("{e:?}"))
                            })?;
                            $crate::direct::after_slow(
                                direct,
                                &stream,
                                || $crate::direct::Identity {
                                    module_ast: $crate::ports::$op::port::__module_ast_self,
                                    source_hash: $crate::ports::$op::port::_SOURCE_HASH,
                                    function: $crate::rt::operator!(@function $entry $($function)?),
                                    generics: $crate::rt::generic_strings(elems, g),
                                    specs: [$($crate::rt::operator!(@spec $kind $name)),*]
                                        .into_iter().flatten().collect(),
                                    hints: [$($crate::rt::operator!(@hint $kind $name)),*]
                                        .into_iter().flatten().collect(),
                                    options: tp_call.options.as_ref(),
                                },
                                || [$($crate::rt::operator!(@src $kind $ty $([$rank])? = $src[$pos]
                                    $(.strides[$dim])? $(=> [$($tile),+])?)),*].concat(),
                            );
                            Ok(())
                        })*
                        other => $crate::rt::fail(
                            $crate::abi::Status::BadEntry,
                            format!("{}: no entry {other} (it has {})", stringify!($op), [$($index),*].len()),
                        ),
                    }
                })
            }
        }
    };
    (@call $op:ident $entry:ident $args:tt) => { $crate::ports::$op::port::$entry $args };
    (@call $op:ident $entry:ident $function:ident $args:tt) => { $crate::ports::$op::port::$function $args };
    (@tensors in) => { 1 };
    (@tensors out) => { 1 };
    (@tensors written) => { 1 };
    (@tensors static_in) => { 1 };
    (@tensors static_written) => { 1 };
    (@tensors list) => { 1 };
    (@tensors $kind:ident) => { 0 };
    (@scalars scalar) => { 1 };
    (@scalars $kind:ident) => { 0 };
    (@let [$op:ident $t:ident $s:ident $dev:ident] in $name:ident: $ty:ident[$rank:literal] = t[$pos:literal]) => {
        let $name = $crate::rt::borrow::<$ty>($op, &$t[$pos], stringify!($name), $rank, $dev)?;
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] written $name:ident: $ty:ident[$rank:literal] = t[$pos:literal]) => {
        let $name = $crate::rt::borrow::<$ty>($op, &$t[$pos], stringify!($name), $rank, $dev)?;
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] static_in $name:ident: $ty:ident[$rank:literal] = t[$pos:literal]
        => [$($axis:expr),+]) => {
        // (an entry with static extents: its spec compacted, rt::Compact)
        let $name = $crate::rt::Compact::new(
            $crate::rt::borrow::<$ty>($op, &$t[$pos], stringify!($name), $rank, $dev)?,
            $t[$pos].data,
            &[$($axis),+],
        );
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] static_written $name:ident: $ty:ident[$rank:literal]
        = t[$pos:literal] => [$($axis:expr),+]) => {
        let $name = $crate::rt::Compact::new(
            $crate::rt::borrow::<$ty>($op, &$t[$pos], stringify!($name), $rank, $dev)?,
            $t[$pos].data,
            &[$($axis),+],
        );
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] out $name:ident: $ty:ident[$rank:literal] = t[$pos:literal]
        => [$($tile:expr),+]) => {
        let mut $name = $crate::rt::borrow::<$ty>($op, &$t[$pos], stringify!($name), $rank, $dev)?;
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] list $name:ident: i64[$rank:literal] = t[$pos:literal]) => {
        let $name = $crate::rt::list_table($op, &$t[$pos], stringify!($name), $rank)?;
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] length $name:ident: i32 = t[$pos:literal]) => {
        let $name = $t[$pos].shape[0] as i32;
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] scalar $name:ident: i32 = s[$pos:literal]) => {
        let $name = $s[$pos] as i32;
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] scalar $name:ident: f32 = s[$pos:literal]) => {
        let $name = $s[$pos] as f32;
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] scalar $name:ident: bool = s[$pos:literal]) => {
        let $name = $s[$pos] != 0.0;
    };
    (@let [$op:ident $t:ident $s:ident $dev:ident] stride $name:ident: i32 = t[$pos:literal].strides[$dim:literal]) => {
        let $name = $crate::rt::stride_i32($op, &$t[$pos], $dim, stringify!($name))?;
    };
    (@spec in $name:ident) => { Some($name.spec()) };
    (@spec out $name:ident) => { Some($name.spec()) };
    (@spec written $name:ident) => { Some($name.spec()) };
    (@spec static_in $name:ident) => { Some($name.spec()) };
    (@spec static_written $name:ident) => { Some($name.spec()) };
    (@spec $kind:ident $name:ident) => { None };
    (@function $entry:ident) => { stringify!($entry) };
    (@function $entry:ident $function:ident) => { stringify!($function) };
    (@scalar scalar i32) => { Some($crate::direct::Scalar::I32) };
    (@scalar scalar f32) => { Some($crate::direct::Scalar::F32) };
    (@scalar scalar bool) => { Some($crate::direct::Scalar::Bool) };
    (@scalar $kind:ident $ty:ident) => { None };
    (@hint scalar $name:ident) => { $crate::direct::int_hint(&$name) };
    (@hint stride $name:ident) => { Some(cutile::cutile_compiler::specialization::DivHint::from_value($name)) };
    (@hint length $name:ident) => { Some(cutile::cutile_compiler::specialization::DivHint::from_value($name)) };
    (@hint list $name:ident) => {
        Some(cutile::cutile_compiler::specialization::DivHint::from_ptr($name.cu_deviceptr()))
    };
    (@hint $kind:ident $name:ident) => { None };
    (@src in $ty:ident [$rank:literal] = t[$pos:literal]) => { $crate::direct::tensor($pos, $rank, None) };
    (@src written $ty:ident [$rank:literal] = t[$pos:literal]) => { $crate::direct::tensor($pos, $rank, None) };
    (@src static_in $ty:ident [$rank:literal] = t[$pos:literal] => [$($axis:expr),+]) => {
        $crate::direct::tensor($pos, $rank, None)
    };
    (@src static_written $ty:ident [$rank:literal] = t[$pos:literal] => [$($axis:expr),+]) => {
        $crate::direct::tensor($pos, $rank, None)
    };
    (@src out $ty:ident [$rank:literal] = t[$pos:literal] => [$($tile:expr),+]) => {
        $crate::direct::tensor($pos, $rank, Some(&$crate::rt::tile([$($tile),+])))
    };
    (@src list $ty:ident [$rank:literal] = t[$pos:literal]) => { vec![$crate::direct::Src::Ptr($pos)] };
    (@src length $ty:ident = t[$pos:literal]) => { vec![$crate::direct::Src::Extent($pos, 0)] };
    (@src scalar i32 = s[$pos:literal]) => { vec![$crate::direct::Src::I32($pos)] };
    (@src scalar f32 = s[$pos:literal]) => { vec![$crate::direct::Src::F32($pos)] };
    (@src scalar bool = s[$pos:literal]) => { vec![$crate::direct::Src::Bool($pos)] };
    (@src stride $ty:ident = t[$pos:literal].strides[$dim:literal]) => {
        vec![$crate::direct::Src::Stride($pos, $dim)]
    };
    (@arg in $name:ident) => { &$name };
    (@arg written $name:ident) => { &$name };
    (@arg static_in $name:ident => [$($axis:expr),+]) => { &$name };
    (@arg static_written $name:ident => [$($axis:expr),+]) => { &$name };
    (@arg out $name:ident => [$($tile:expr),+]) => { (&mut $name).partition($crate::rt::tile([$($tile),+])) };
    (@arg $kind:ident $name:ident) => { $name };
}
pub(crate) use operator;

#[cfg(test)]
mod tests {
    use super::{compact, singleton};
    use cutile::cutile_compiler::specialization::{compute_spec, DivHint};

    #[test]
    fn compact_moves_the_dynamic_axes_items_up_and_pads_with_one() {
        // sparse MLA's Q [1, 16, 16, 128]: divisors 1, 16, 16, 16 -> the dynamic axes' 16, 16, 16, then 1
        assert_eq!(compact(&[1, 16, 16, 16], &[0], 1), vec![16, 16, 16, 1]);
        // Indices [1, 16, 1, 64] (axes 0 and 2 static)
        assert_eq!(compact(&[1, 16, 1, 16], &[0, 2], 1), vec![16, 16, 1, 1]);
        // a static axis last: nothing moves
        assert_eq!(compact(&[16, 16, 1], &[2], 1), vec![16, 16, 1]);
        assert_eq!(compact(&[4, 8], &[], 1), vec![4, 8]);
        // a `static_shape_dims` extent (256: divisor 16) is dropped and the tail padded with 1, not with its 16
        assert_eq!(compact(&[16, 4, 8], &[0], 1), vec![4, 8, 1]);
    }

    fn divisors(hints: &[DivHint]) -> Vec<i32> {
        hints.iter().map(|h| h.divisor).collect()
    }

    #[test]
    fn singleton_makes_a_unit_extents_stride_dynamic_with_sixteen_bytes() {
        // a contiguous f32 column [N, 1], strides (1, 1): axis 1's stride dynamic, divisor 4 (port.json
        // `1,1/4,1/1,0/..`: the dynamic stride's divisor first)
        let mut spec = compute_spec(0x1000, &[100, 1], &[1, 1], 4);
        singleton(&mut spec, &[1], 4);
        assert_eq!(spec.stride_one, vec![true, false]);
        assert_eq!(divisors(&spec.stride_div), vec![4, 1]);
        // bf16 [1, 64], strides (64, 1): axis 0's stride 64 stays dynamic at its own divisor (16 >= 8)
        let mut spec = compute_spec(0x1000, &[1, 64], &[64, 1], 2);
        singleton(&mut spec, &[0], 8);
        assert_eq!(spec.stride_one, vec![false, true]);
        assert_eq!(divisors(&spec.stride_div), vec![16, 1]);
        // a stride of 6 along the unit extent: raised to the singleton divisor, cuTile Python's fact there
        let mut spec = compute_spec(0x1000, &[1, 8], &[6, 1], 4);
        singleton(&mut spec, &[0], 4);
        assert_eq!(divisors(&spec.stride_div), vec![4, 1]);
        // a K^T-like view [?, 1, ?] with strides (s0, 1, s2): the dynamic strides' divisors first, then the unit's
        let mut spec = compute_spec(0x1000, &[8, 16, 4], &[64, 1, 16], 4);
        singleton(&mut spec, &[], 4);
        assert_eq!(divisors(&spec.stride_div), vec![16, 16, 1]);
    }
}
