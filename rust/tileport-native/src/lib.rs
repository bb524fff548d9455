//! `tileport_native`: the steady-state launch of the cutile-rs backend, moved out of Python.
//!
//! `tileport.runtime.library` makes one [`Plan`] per launch shape of a kernel (which arguments are tensors, of
//! which dtype and rank; which are scalars; the constant values; the entry and its generics; the operator's C
//! function). [`Plan::launch`] then checks a launch against the plan, reads each tensor's data pointer, shape,
//! strides and device, packs the C ABI's call block (`TpCall` + `TpTensor`s + scalars, see `abi.rs`) in a
//! per-thread buffer and calls the operator's `tp_<op>` with the GIL released. It does only what is cheap and
//! certain; everything else is handed back to Python, which has the precise messages:
//!
//! - [`MISMATCH`]: the launch is not of this plan's shape (another dtype, rank, scalar type or constant, not
//!   a tensor where one belongs, or a tensor without the facts — unit strides, divisibility, alignment — the
//!   plan's entry was proven under) — Python finds or makes the right plan;
//! - [`UNCHECKED`]: the ownership fast check did not clear it (a tensor on another device, a strided tensor, or a
//!   written tensor whose memory range meets another's) — Python runs the full check, then calls again with
//!   `checked=True`;
//! - a positive status: the library refused or failed the launch; [`last_error`] has its message.
//!
//! [`Dispatch`] goes one step further: installed as `ct.launch` itself, it takes a launch of a kernel whose last
//! plan Python handed it ([`Dispatch::remember`]) straight to [`Plan::launch`] — no Python frame at all — and
//! hands every other call (keywords, an unknown kernel, a stream or grid of another kind, a non-zero status, a
//! plan whose source is due to be looked at again) to the Python interceptor, unchanged.

#[allow(dead_code)] // generated: the Python side uses only the structs and limits
mod abi;

use abi::{TpCall, TpTensor, HINT_SLOTS, MAX_RANK};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyTuple};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The launch is not of this plan's shape.
pub const MISMATCH: i32 = -1;
/// The ownership fast check did not clear the launch.
pub const UNCHECKED: i32 = -2;
const ERR_LEN: usize = 2048;

/// `tp_<op>(call, err, err_len) -> status`, the kernel library's exported operator function.
type OpFn = unsafe extern "C" fn(*const TpCall, *mut u8, usize) -> i32;

struct TensorSlot {
    pos: usize,
    dtype: Py<PyAny>,
    rank: usize,
    code: i32,
    elem_bytes: u64,
    written: bool,
    /// What the entry was proven under, per dimension: (stride is exactly 1, stride divisor, extent divisor); an
    /// extent divisor below 0 is a static extent (calling convention v2), which must be exactly its negation.
    dims: Vec<(bool, i64, i64)>,
    /// The data pointer's alignment (bytes) the entry was proven under.
    align: u64,
}

impl TensorSlot {
    /// Whether the tensor has the facts the plan's entry was proven under (else the launch is not this plan's).
    fn holds(&self, d: &TpTensor) -> bool {
        let dims_hold = self
            .dims
            .iter()
            .enumerate()
            .all(|(i, &(unit, sdiv, hdiv))| {
                let (n, st) = (d.shape[i], d.strides[i]);
                !(unit && st != 1)
                    && !(sdiv > 1 && st % sdiv != 0)
                    && !(hdiv > 1 && n % hdiv != 0)
                    && !(hdiv < 0 && n != -hdiv)
            });
        dims_hold && !(self.align > 1 && d.data % self.align != 0)
    }
}

#[derive(Clone, Copy)]
enum ScalarKind {
    Bool,
    Int,
    Float,
}

/// A tensor parameter of a plan as Python describes it: position, dtype object, rank, ABI dtype code, element
/// size, written, per-dimension facts (stride is 1, stride divisor, extent divisor) and alignment in bytes.
type TensorArg = (
    usize,
    Py<PyAny>,
    usize,
    i32,
    u64,
    bool,
    Vec<(bool, i64, i64)>,
    u64,
);

/// One launch shape of one kernel: see the module documentation.
#[pyclass(frozen, module = "tileport_native")]
pub struct Plan {
    op: OpFn,
    entry: i32,
    generics: Vec<i32>,
    tensors: Vec<TensorSlot>,
    scalars: Vec<(usize, ScalarKind)>,
    consts: Vec<(usize, Py<PyAny>)>,
    /// The compile hints the plan's launches set (`TpCall.hints_set`/`hints`: a kernel launched at hints other
    /// than its entry's own).
    hints_set: u32,
    hints: [i32; HINT_SLOTS],
    /// A launch of the plan has run: later ones keep the GIL (see `launch`).
    warm: AtomicBool,
}

/// The per-thread call buffer: the call block and the descriptors and scalars it points to stay put while the
/// library reads them (the GIL is released during the call, so buffers are never shared between threads).
struct Buffers {
    tensors: Vec<TpTensor>,
    scalars: Vec<f64>,
    err: Vec<u8>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers {
        tensors: Vec::with_capacity(16),
        scalars: Vec::with_capacity(16),
        err: vec![0; ERR_LEN],
    });
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

#[pymethods]
impl Plan {
    /// `op_address`: the address of the library's `tp_<op>` (ctypes). `tensors`: (argument position, torch
    /// dtype object, rank, ABI dtype code, bytes per element, written) per tensor parameter; `scalars`:
    /// (position, "bool" | "int" | "float"); `consts`: (position, value) per `ct.Constant` parameter; `hints_set`
    /// and `hints`: the compile hints every launch of the plan sets (see `TpCall`).
    ///
    /// The address must be that of a live `tp_<op>` of a library whose ABI Python has checked, and stay loaded
    /// while the plan exists (Python keeps the library with its plans).
    #[new]
    fn new(
        op_address: usize,
        entry: i32,
        generics: Vec<i32>,
        tensors: Vec<TensorArg>,
        scalars: Vec<(usize, String)>,
        consts: Vec<(usize, Py<PyAny>)>,
        hints_set: u32,
        hints: [i32; HINT_SLOTS],
    ) -> PyResult<Self> {
        if op_address == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "op_address is null",
            ));
        }
        if tensors.iter().any(|t| t.2 > MAX_RANK || t.6.len() > t.2) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "a tensor rank beyond the ABI's {MAX_RANK}, or more facts than dimensions"
            )));
        }
        let scalars = scalars
            .into_iter()
            .map(|(pos, kind)| match kind.as_str() {
                "bool" => Ok((pos, ScalarKind::Bool)),
                "int" => Ok((pos, ScalarKind::Int)),
                "float" => Ok((pos, ScalarKind::Float)),
                other => Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "scalar kind {other:?} is not bool, int or float"
                ))),
            })
            .collect::<PyResult<Vec<_>>>()?;
        // SAFETY: the caller passes the address of an exported `tp_<op>`, whose signature is `OpFn` (the ABI
        // Python checked when it loaded the library).
        let op = unsafe { std::mem::transmute::<usize, OpFn>(op_address) };
        Ok(Plan {
            op,
            entry,
            generics,
            tensors: tensors
                .into_iter()
                .map(
                    |(pos, dtype, rank, code, elem_bytes, written, dims, align)| TensorSlot {
                        pos,
                        dtype,
                        rank,
                        code,
                        elem_bytes,
                        written,
                        dims,
                        align,
                    },
                )
                .collect(),
            scalars,
            consts,
            hints_set,
            hints,
            warm: AtomicBool::new(false),
        })
    }

    /// Launches `args` (the kernel's arguments, as `ct.launch` takes them) on `stream` of `device` over `grid`:
    /// returns 0, [`MISMATCH`], [`UNCHECKED`] (unless `checked`) or the library's status (see the module docs).
    #[pyo3(signature = (args, grid, device, stream, checked=false))]
    fn launch(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        grid: (u32, u32, u32),
        device: i32,
        stream: u64,
        checked: bool,
    ) -> PyResult<i32> {
        BUFFERS.with(|b| {
            let mut b = b.borrow_mut();
            let Buffers {
                tensors,
                scalars,
                err,
            } = &mut *b;
            match self.pack(py, args, device, checked, tensors, scalars)? {
                0 => {}
                code => return Ok(code),
            }
            let call = TpCall {
                entry: self.entry,
                device,
                n_generics: self.generics.len() as u32,
                n_tensors: tensors.len() as u32,
                n_scalars: scalars.len() as u32,
                hints_set: self.hints_set,
                generics: self.generics.as_ptr() as u64,
                tensors: tensors.as_ptr() as u64,
                scalars: scalars.as_ptr() as u64,
                stream,
                grid: [grid.0, grid.1, grid.2],
                reserved: 0,
                hints: self.hints,
            };
            let (op, err_addr) = (self.op, err.as_mut_ptr() as usize);
            // SAFETY: `call` points into this thread's buffers, which outlive the call; `err` is ERR_LEN bytes;
            // `op` is a live `tp_<op>` (see `new`).
            let run = move || unsafe { op(&call, err_addr as *mut u8, ERR_LEN) };
            // The first launch of a plan compiles for seconds: the GIL is released for it. Once one has run, the
            // launches are microseconds and keep the GIL, as cuTile Python's own launch does (releasing and taking
            // it back costs more than the launch takes).
            let status = if self.warm.load(Relaxed) {
                run()
            } else {
                py.detach(run)
            };
            if status == 0 {
                self.warm.store(true, Relaxed);
            } else {
                let n = err.iter().position(|&c| c == 0).unwrap_or(ERR_LEN);
                let message = String::from_utf8_lossy(&err[..n]).into_owned();
                LAST_ERROR.with(|e| *e.borrow_mut() = message);
            }
            Ok(status)
        })
    }
}

impl Plan {
    /// Checks `args` against the plan and writes the descriptors and scalars; 0 when the call block is ready.
    fn pack(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        device: i32,
        checked: bool,
        tensors: &mut Vec<TpTensor>,
        scalars: &mut Vec<f64>,
    ) -> PyResult<i32> {
        tensors.clear();
        scalars.clear();
        // one argument per parameter: a call with more (or fewer) goes back to Python, whose full check names it
        if args.len() != self.tensors.len() + self.scalars.len() + self.consts.len() {
            return Ok(MISMATCH);
        }
        for (pos, value) in &self.consts {
            let Ok(a) = args.get_borrowed_item(*pos) else {
                return Ok(MISMATCH);
            };
            let value = value.bind(py);
            if !a.is(value) && !(a.get_type().is(value.get_type()) && a.eq(value)?) {
                return Ok(MISMATCH);
            }
        }
        for &(pos, kind) in &self.scalars {
            let Ok(a) = args.get_borrowed_item(pos) else {
                return Ok(MISMATCH);
            };
            let v = match kind {
                ScalarKind::Bool if a.is_exact_instance_of::<PyBool>() => {
                    if a.is_truthy()? {
                        1.0
                    } else {
                        0.0
                    }
                }
                ScalarKind::Int if a.is_exact_instance_of::<PyInt>() => a.extract::<i64>()? as f64,
                ScalarKind::Float if a.is_exact_instance_of::<PyFloat>() => a.extract::<f64>()?,
                _ => return Ok(MISMATCH),
            };
            scalars.push(v);
        }
        let mut clear = true;
        let mut extents = [(0u64, 0u64); 16];
        for (k, slot) in self.tensors.iter().enumerate() {
            let Ok(a) = args.get_borrowed_item(slot.pos) else {
                return Ok(MISMATCH);
            };
            let read = match dlpack_read(py, &a, slot) {
                Some(read) => Some(read),
                None => attr_read(py, &a, slot)?,
            };
            let Some((d, on)) = read else {
                return Ok(MISMATCH);
            };
            if !slot.holds(&d) {
                return Ok(MISMATCH);
            }
            // Row-major dense (size-1 dims' strides do not matter) means the memory is [data, data + numel).
            let (mut dense, mut expect, mut numel) = (true, 1i64, 1i64);
            for i in (0..slot.rank).rev() {
                if d.shape[i] != 1 && d.strides[i] != expect {
                    dense = false;
                }
                expect = expect.saturating_mul(d.shape[i]);
                numel = numel.saturating_mul(d.shape[i]);
            }
            if on != device as i64 || !dense || k >= extents.len() {
                clear = false;
            } else {
                extents[k] = (d.data, d.data + slot.elem_bytes * numel.max(0) as u64);
            }
            tensors.push(d);
        }
        if clear {
            for (k, slot) in self.tensors.iter().enumerate() {
                if !slot.written {
                    continue;
                }
                let (lo, hi) = extents[k];
                for (j, &(lo2, hi2)) in extents[..self.tensors.len()].iter().enumerate() {
                    if j != k && lo < hi2 && lo2 < hi {
                        clear = false;
                    }
                }
            }
        }
        Ok(if clear || checked { 0 } else { UNCHECKED })
    }
}

/// A tensor as the plan reads it: its descriptor and device (-1 when not on a CUDA device); None when it is not
/// of the slot's dtype or rank (the launch is not the plan's).
type Read = Option<(TpTensor, i64)>;

/// `torch._C._to_dlpack` and `torch.Tensor`, once torch is importable (None when it is not).
static TORCH: pyo3::sync::PyOnceLock<Option<(Py<PyAny>, Py<PyAny>)>> =
    pyo3::sync::PyOnceLock::new();

/// DLPack's (type code, bits) of an ABI dtype code: what `torch._C._to_dlpack` reports for that dtype.
fn dlpack_dtype(code: i32) -> Option<(u8, u8)> {
    Some(match code {
        abi::DTYPE_F32 => (2, 32),
        abi::DTYPE_F16 => (2, 16),
        abi::DTYPE_BF16 => (4, 16),
        abi::DTYPE_I32 => (0, 32),
        abi::DTYPE_I64 => (0, 64),
        abi::DTYPE_F8E5M2 => (12, 8),
        abi::DTYPE_F8E4M3FN => (10, 8),
        abi::DTYPE_F64 => (2, 64),
        _ => return None,
    })
}

/// DLPack's `DLManagedTensor` (unversioned, as `torch._C._to_dlpack` makes it): the fields read here.
#[repr(C)]
struct DlTensor {
    data: *mut std::ffi::c_void,
    device_type: i32,
    device_id: i32,
    ndim: i32,
    code: u8,
    bits: u8,
    lanes: u16,
    shape: *const i64,
    strides: *const i64,
    byte_offset: u64,
}

/// One call for what five attribute reads give (as cuTile Python's own launcher reads torch tensors): an exact
/// `torch.Tensor` through `torch._C._to_dlpack`. None when this path does not apply (not an exact tensor, torch
/// not importable, a capsule or dtype this does not know): the attribute reads decide then (errors included).
fn dlpack_read(py: Python<'_>, a: &Bound<'_, PyAny>, slot: &TensorSlot) -> Option<(TpTensor, i64)> {
    let torch = TORCH.get_or_init(py, || {
        let m = py.import("torch").ok()?;
        let to = m.getattr("_C").ok()?.getattr("_to_dlpack").ok()?;
        Some((to.unbind(), m.getattr("Tensor").ok()?.unbind()))
    });
    let Some((to_dlpack, tensor)) = torch else {
        return None;
    };
    let Some(want) = dlpack_dtype(slot.code) else {
        return None;
    };
    if !a.get_type().is(tensor.bind(py)) {
        return None;
    }
    let Ok(capsule) = to_dlpack.bind(py).call1((a,)) else {
        return None; // (the error is dropped: the attribute reads say what is wrong, if anything)
    };
    // SAFETY: a capsule named "dltensor" holds a DLManagedTensor, whose first member is the DLTensor; it stays
    // alive while `capsule` does (its destructor frees it), and the reads below end before that.
    let p = unsafe { pyo3::ffi::PyCapsule_GetPointer(capsule.as_ptr(), c"dltensor".as_ptr()) };
    if p.is_null() {
        let _ = PyErr::take(py);
        return None;
    }
    let t = unsafe { &*(p as *const DlTensor) };
    if t.ndim as usize != slot.rank || t.lanes != 1 || (t.code, t.bits) != want {
        // (a dtype this plan does not take is a mismatch only if the attribute reads agree)
        return None;
    }
    let mut d = TpTensor {
        data: (t.data as u64).wrapping_add(t.byte_offset),
        rank: slot.rank as i32,
        dtype: slot.code,
        shape: [0; MAX_RANK],
        strides: [0; MAX_RANK],
    };
    let mut step = 1i64;
    for i in (0..slot.rank).rev() {
        // SAFETY: `shape` (and `strides`, when not null) hold `ndim` entries.
        d.shape[i] = unsafe { *t.shape.add(i) };
        d.strides[i] = if t.strides.is_null() {
            step
        } else {
            unsafe { *t.strides.add(i) }
        };
        step = step.saturating_mul(d.shape[i]);
    }
    let on = if t.device_type == 2 {
        t.device_id as i64
    } else {
        -1
    }; // kDLCUDA; else not a CUDA device
    drop(capsule);
    Some((d, on))
}

/// The tensor's dtype, shape, strides, data pointer and device by attribute (any torch-like array).
fn attr_read(py: Python<'_>, a: &Bound<'_, PyAny>, slot: &TensorSlot) -> PyResult<Read> {
    let Ok(dtype) = a.getattr(intern!(py, "dtype")) else {
        return Ok(None);
    };
    if !dtype.is(slot.dtype.bind(py)) {
        return Ok(None);
    }
    let shape = a.getattr(intern!(py, "shape"))?;
    let shape = shape.cast::<PyTuple>().map_err(PyErr::from)?;
    if shape.len() != slot.rank {
        return Ok(None);
    }
    let strides = a.call_method0(intern!(py, "stride"))?;
    let strides = strides.cast::<PyTuple>().map_err(PyErr::from)?;
    let data: u64 = a.call_method0(intern!(py, "data_ptr"))?.extract()?;
    let on: i64 = a.call_method0(intern!(py, "get_device"))?.extract()?;
    let mut d = TpTensor {
        data,
        rank: slot.rank as i32,
        dtype: slot.code,
        shape: [0; MAX_RANK],
        strides: [0; MAX_RANK],
    };
    for i in 0..slot.rank {
        d.shape[i] = shape.get_borrowed_item(i)?.extract()?;
        d.strides[i] = strides.get_borrowed_item(i)?.extract()?;
    }
    Ok(Some((d, on)))
}

/// The message of this thread's last failed launch.
#[pyfunction]
fn last_error() -> String {
    LAST_ERROR.with(|e| e.borrow().clone())
}

/// Kernels a [`Dispatch`] holds plans of before it starts over.
const STEADY_LIMIT: usize = 1024;
/// A steady plan's clock is read on one launch in this many (its `until` may pass by that many launches).
const CLOCK_EVERY: u64 = 64;

/// A kernel's steady plan in a [`Dispatch`]: taken until `until` (then Python looks at its source again).
struct Steady {
    kernel: Py<PyAny>,
    plan: Py<Plan>,
    until: Instant,
    launches: AtomicU64,
}

/// `cuCtxGetDevice(CUdevice *) -> CUresult`: the device of the calling thread's current CUDA context — where
/// cuTile Python's own launch runs a kernel.
type CtxGetDevice = unsafe extern "C" fn(*mut i32) -> i32;

/// Hashes a kernel object's address (the `steady` map's key): one multiply, not SipHash, on every launch.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_right(17);
    }
}

type SteadyMap = HashMap<usize, Arc<Steady>, BuildHasherDefault<AddressHasher>>;

/// `ct.launch` while the backend is installed: see the module documentation.
#[pyclass(frozen, module = "tileport_native")]
pub struct Dispatch {
    /// The Python interceptor: every launch this does not take, with its arguments as given.
    slow: Py<PyAny>,
    /// The CUDA driver's `cuCtxGetDevice` (set by the first remember that has it).
    device: OnceLock<CtxGetDevice>,
    steady: Mutex<SteadyMap>,
    /// Launch counts of kernels dropped from `steady` when it started over.
    retired: Mutex<Vec<(Py<PyAny>, u64)>>,
    off: AtomicBool,
}

impl Dispatch {
    /// The launch through the kernel's steady plan: true when it ran, false when Python must take it.
    fn fast(
        &self,
        py: Python<'_>,
        stream: &Bound<'_, PyAny>,
        grid: &Bound<'_, PyAny>,
        kernel: &Bound<'_, PyAny>,
        args: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        if self.off.load(Relaxed) {
            return Ok(false);
        }
        let found = {
            let steady = self.steady.lock().unwrap_or_else(|p| p.into_inner());
            steady.get(&(kernel.as_ptr() as usize)).cloned()
        };
        let Some(s) = found else { return Ok(false) };
        if !s.kernel.bind(py).is(kernel)
            || (s.launches.load(Relaxed) % CLOCK_EVERY == 0 && Instant::now() >= s.until)
        {
            return Ok(false);
        }
        let Ok(args) = args.cast_exact::<PyTuple>() else {
            return Ok(false);
        };
        let Some(grid) = grid3(grid) else {
            return Ok(false);
        };
        let handle = if stream.is_exact_instance_of::<PyInt>() {
            stream.extract::<u64>()?
        } else {
            match stream.getattr(intern!(py, "cuda_stream")) {
                Ok(h) if h.is_exact_instance_of::<PyInt>() => h.extract::<u64>()?,
                _ => return Ok(false),
            }
        };
        let Some(get_device) = self.device.get() else {
            return Ok(false);
        };
        let mut device = -1;
        // SAFETY: the driver's `cuCtxGetDevice` (see `remember`), writing one `CUdevice` (an int)
        if unsafe { get_device(&mut device) } != 0 {
            return Ok(false); // no current context: Python's path says what is wrong
        }
        let status = s.plan.get().launch(py, args, grid, device, handle, false)?;
        if status == UNCHECKED {
            // launches that need the full ownership check are Python's until it hands the plan back (it does not
            // while they keep needing it): not packed twice each
            let mut steady = self.steady.lock().unwrap_or_else(|p| p.into_inner());
            if steady
                .get(&(kernel.as_ptr() as usize))
                .is_some_and(|t| Arc::ptr_eq(t, &s))
            {
                steady.remove(&(kernel.as_ptr() as usize));
                self.retire(py, &s);
            }
        }
        if status != 0 {
            return Ok(false); // (nothing ran: Python plans again, checks, or raises the library's error)
        }
        s.launches.fetch_add(1, Relaxed);
        Ok(true)
    }
}

impl Dispatch {
    /// Keeps the launch count of a plan dropped from `steady`.
    fn retire(&self, py: Python<'_>, s: &Steady) {
        let n = s.launches.load(Relaxed);
        if n > 0 {
            let mut retired = self.retired.lock().unwrap_or_else(|p| p.into_inner());
            retired.push((s.kernel.clone_ref(py), n));
        }
    }
}

/// A launch grid as `ct.launch` takes it (an int, or a tuple/list of 1 to 3 ints) padded to 3; None otherwise.
fn grid3(grid: &Bound<'_, PyAny>) -> Option<(u32, u32, u32)> {
    fn extent(x: &Bound<'_, PyAny>) -> Option<u32> {
        x.is_exact_instance_of::<PyInt>()
            .then(|| x.extract::<u32>().ok())
            .flatten()
    }
    /// `g` from the 1 to 3 extents of a tuple or list (its length, its items).
    fn fill<'py>(
        g: &mut [u32; 3],
        len: usize,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
    ) -> Option<()> {
        if len == 0 || len > 3 {
            return None;
        }
        for (i, x) in items.enumerate() {
            g[i] = extent(&x)?;
        }
        Some(())
    }
    let mut g = [1u32; 3];
    let filled = if let Ok(t) = grid.cast_exact::<PyTuple>() {
        fill(&mut g, t.len(), t.iter())
    } else if let Ok(l) = grid.cast_exact::<PyList>() {
        fill(&mut g, l.len(), l.iter())
    } else {
        extent(grid).map(|x| g[0] = x)
    };
    filled.map(|()| (g[0], g[1], g[2]))
}

#[pymethods]
impl Dispatch {
    /// `slow`: the Python interceptor.
    #[new]
    fn new(slow: Py<PyAny>) -> Self {
        Dispatch {
            slow,
            device: OnceLock::new(),
            steady: Mutex::new(SteadyMap::default()),
            retired: Mutex::new(Vec::new()),
            off: AtomicBool::new(false),
        }
    }

    /// `ct.launch(stream, grid, kernel, args, **options)`, installed as `ct.launch` itself (the bound method: a
    /// method is called with the vectorcall protocol, where an object's `__call__` would pack its arguments in a
    /// tuple first).
    #[pyo3(signature = (stream, grid, kernel, kernel_args, /, **options))]
    fn launch(
        &self,
        py: Python<'_>,
        stream: &Bound<'_, PyAny>,
        grid: &Bound<'_, PyAny>,
        kernel: &Bound<'_, PyAny>,
        kernel_args: &Bound<'_, PyAny>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        if options.is_none_or(|o| o.is_empty())
            && self.fast(py, stream, grid, kernel, kernel_args)?
        {
            return Ok(py.None());
        }
        self.slow
            .bind(py)
            .call((stream, grid, kernel, kernel_args), options)
            .map(Bound::unbind)
    }

    /// Take `kernel`'s launches through `plan` for the next `valid_ns` nanoseconds (its launch count goes on; the
    /// clock is read every [`CLOCK_EVERY`] launches); `ctx_get_device`: the address of the CUDA driver's
    /// `cuCtxGetDevice` (0: none; the first one given is kept).
    fn remember(
        &self,
        py: Python<'_>,
        kernel: Py<PyAny>,
        plan: Py<Plan>,
        valid_ns: u64,
        ctx_get_device: usize,
    ) {
        if ctx_get_device != 0 {
            // SAFETY: the caller passes the address of `cuCtxGetDevice` (the CUDA driver API's signature)
            let f = unsafe { std::mem::transmute::<usize, CtxGetDevice>(ctx_get_device) };
            let _ = self.device.set(f);
        }
        let key = kernel.as_ptr() as usize;
        let mut steady = self.steady.lock().unwrap_or_else(|p| p.into_inner());
        let before = steady.get(&key).map_or(0, |s| s.launches.load(Relaxed));
        if steady.len() >= STEADY_LIMIT && before == 0 {
            // kernel objects made per call (hint copies) never grow it without bound; counts are kept
            for (_, s) in steady.drain() {
                self.retire(py, &s);
            }
        }
        steady.insert(
            key,
            Arc::new(Steady {
                kernel,
                plan,
                until: Instant::now() + Duration::from_nanos(valid_ns),
                launches: AtomicU64::new(before),
            }),
        );
    }

    /// Turn the fast path off (every launch to Python) or on again.
    fn enable(&self, on: bool) {
        self.off.store(!on, Relaxed);
    }

    /// (kernel, launches taken here) per kernel it took launches of (a kernel may appear twice).
    fn counts(&self, py: Python<'_>) -> Vec<(Py<PyAny>, u64)> {
        let steady = self.steady.lock().unwrap_or_else(|p| p.into_inner());
        let retired = self.retired.lock().unwrap_or_else(|p| p.into_inner());
        steady
            .values()
            .map(|s| (s.kernel.clone_ref(py), s.launches.load(Relaxed)))
            .filter(|(_, n)| *n > 0)
            .chain(retired.iter().map(|(k, n)| (k.clone_ref(py), *n)))
            .collect()
    }
}

#[pymodule]
fn tileport_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Plan>()?;
    m.add_class::<Dispatch>()?;
    m.add_function(wrap_pyfunction!(last_error, m)?)?;
    m.add("MISMATCH", MISMATCH)?;
    m.add("UNCHECKED", UNCHECKED)?;
    m.add("ABI_VERSION", abi::ABI_VERSION)?;
    Ok(())
}
