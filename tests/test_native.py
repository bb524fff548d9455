"""The cutile-rs launch fast path (`rust/tileport-native`) on the CPU: a native plan pointed at the kernel library's
`tileport_describe_call` (which launches nothing and describes the call block it read) shows what the extension
packed is what the library reads; launches of another shape come back as MISMATCH and launches the ownership fast
check cannot clear as UNCHECKED. Tensors are stand-ins with torch.Tensor's attribute surface (no torch in CI);
the real thing runs on the H200 (tests/gpu)."""
import ctypes
import re

import pytest

from tileport.runtime import abi, build, library

F32, F16 = object(), object()  # stand-ins for torch dtype objects: the plan compares them by identity


class Tensor:
    def __init__(self, data, shape, strides=None, dtype=F32, device=0):
        self.data, self.shape, self.dtype, self.device_index = data, tuple(shape), dtype, device
        if strides is None:
            strides, n = [], 1
            for d in reversed(shape):
                strides.insert(0, n)
                n *= d
        self._strides = tuple(strides)

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self.data

    def get_device(self):
        return self.device_index


@pytest.fixture(scope="module")
def native():
    lib = build.built_library()
    if not lib.exists() or not build.native_path(lib).exists():
        pytest.skip(f"{lib} and its Python extension are not built (./dev setup builds them)")
    dll = ctypes.CDLL(str(lib))
    mod = library.load_native(build.native_path(lib))
    address = ctypes.cast(dll.tileport_describe_call, ctypes.c_void_p).value
    return mod, address, dll


def plan(native, tensors=((0, F32, 1, True), (1, F32, 1, False)), scalars=((2, "int"),), consts=((3, 1024),),
         facts=None, options=None):
    """A plan; ``facts`` maps a tensor position to (per-dimension (unit stride, stride divisor, extent divisor),
    alignment) — what its entry was proven under (none by default); ``options``: the cutile CompileOptions its
    launches set (a kernel launched at other hints than its decorator's)."""
    mod, address, _ = native
    rows = [(pos, dt, rank, abi.DTYPES["f32"][0], 4, written) + (facts or {}).get(pos, ([], 1))
            for pos, dt, rank, written in tensors]
    return mod.Plan(address, 3, [64, 128], rows, list(scalars), list(consts), *abi.hint_slots(options or {}))


def described(native, p, args, grid=(3, 2, 1), device=0, stream=0xABC, checked=False):
    mod = native[0]
    status = p.launch(args, grid, device, stream, checked)
    if status <= 0:
        return status
    assert abi.STATUS[status][0] == "BadEntry"
    return mod.last_error()


def test_the_call_block_is_what_the_library_reads(native):
    p = plan(native)
    got = described(native, p, (Tensor(0x1000, [7]), Tensor(0x9000, [7]), 5, 1024))
    assert got == ("entry=3 device=0 generics=[64, 128] tensors=[0x1000/0/[7]/[1] 0x9000/0/[7]/[1]] "
                   "scalars=[5.0] stream=0xabc grid=(3, 2, 1) options=None")


def test_a_plan_at_other_hints_sets_them_as_cutiles_compile_options(native):
    """A kernel launched through `kernel.replace_hints(occupancy=2, num_ctas=4)` runs a variant proven at those
    hints: every launch of its plan carries them in the call block, and the library reads them as cutile's
    per-launch CompileOptions (the fields set, the others the entry's own)."""
    p = plan(native, options={"occupancy": 2, "num_cta_in_cga": 4})
    got = described(native, p, (Tensor(0x1000, [7]), Tensor(0x9000, [7]), 5, 1024))
    options = got.partition(" options=")[2]
    assert options.startswith("Some(CompileOptions { occupancy: Some(2), num_cta_in_cga: Some(4), ")
    assert "num_worker_warps_per_cta: None, opt_level: None" in options
    assert abi.hint_slots({"opt_level": 0}) == (8, [0, 0, 0, 0]), "a level of 0 is given, not unset"


def test_every_rank_and_scalar_kind_crosses(native):
    shape = (2, 3, 4, 5, 6, 7, 8, 9)
    p = plan(native, tensors=((0, F32, 8, False), (1, F16, 0, True)),
             scalars=((2, "bool"), (3, "int"), (4, "float")), consts=())
    got = described(native, p, (Tensor(0x2000, shape), Tensor(0x10000000, [], dtype=F16), True, -3, 0.25))
    strides = [9 * 8 * 7 * 6 * 5 * 4 * 3, 9 * 8 * 7 * 6 * 5 * 4, 9 * 8 * 7 * 6 * 5, 9 * 8 * 7 * 6, 9 * 8 * 7,
               9 * 8, 9, 1]
    assert f"0x2000/0/{list(shape)}/{strides}".replace(" ", "") in got.replace(" ", "")
    assert "0x10000000/0/[]/[]" in got and "scalars=[1.0, -3.0, 0.25]" in got


@pytest.mark.parametrize("args, why", [
    ((Tensor(0x1000, [7], dtype=F16), Tensor(0x9000, [7]), 5, 1024), "another dtype"),
    ((Tensor(0x1000, [7, 1]), Tensor(0x9000, [7]), 5, 1024), "another rank"),
    ((Tensor(0x1000, [7]), Tensor(0x9000, [7]), 5.0, 1024), "a float where the plan has an int"),
    ((Tensor(0x1000, [7]), Tensor(0x9000, [7]), True, 1024), "a bool where the plan has an int"),
    ((Tensor(0x1000, [7]), Tensor(0x9000, [7]), 5, 2048), "another constant value"),
    ((Tensor(0x1000, [7]), Tensor(0x9000, [7]), 5, 1024.0), "a constant of another type"),
    ((Tensor(0x1000, [7]), 3, 5, 1024), "not a tensor where the plan has one"),
    ((Tensor(0x1000, [7]), Tensor(0x9000, [7]), 5), "too few arguments"),
    ((Tensor(0x1000, [7]), Tensor(0x9000, [7]), 5, 1024, 7), "one argument too many"),
])
def test_another_launch_shape_is_a_mismatch(native, args, why):
    assert described(native, plan(native), args) == native[0].MISMATCH, why


def test_a_tensor_without_the_entrys_facts_is_a_mismatch(native):
    """An entry proven with a unit stride, a stride divisible by 4, an extent divisible by 16 and a 16-byte aligned
    base runs only where they hold: anything else goes back to Python, which picks the entry whose facts hold
    (TileGym's recurrent decode kernel ran its unit-stride entry on a batch stride of 4)."""
    g = plan(native, tensors=((0, F32, 2, True), (1, F32, 3, False)),
             facts={1: ([(False, 4, 1), (False, 4, 16), (True, 1, 1)], 16)})
    ok = (Tensor(0x1000, [2, 64]), Tensor(0x9000, [2, 16, 4]), 5, 1024)
    assert described(native, g, ok).startswith("entry=3")
    for beta, why in [(Tensor(0x9000, [2, 16, 4], strides=[64, 4, 2]), "the unit stride is 2"),
                      (Tensor(0x9000, [2, 16, 4], strides=[66, 4, 1]), "a stride not divisible by 4"),
                      (Tensor(0x9000, [2, 15, 4], strides=[64, 4, 1]), "an extent not divisible by 16"),
                      (Tensor(0x9004, [2, 16, 4]), "a base aligned to 4 bytes only")]:
        assert described(native, g, (ok[0], beta, 5, 1024)) == native[0].MISMATCH, why


@pytest.mark.parametrize("args, why", [
    ((Tensor(0x1000, [8]), Tensor(0x1010, [8]), 5, 1024), "the written tensor overlaps an input"),
    ((Tensor(0x1000, [4], strides=[2]), Tensor(0x9000, [4]), 5, 1024), "a strided written tensor"),
    ((Tensor(0x1000, [4]), Tensor(0x9000, [4], device=1), 5, 1024), "an input on another device"),
])
def test_what_the_fast_check_cannot_clear_goes_back_to_python(native, args, why):
    p = plan(native)
    assert described(native, p, args) == native[0].UNCHECKED, why
    assert described(native, p, args, checked=True).startswith("entry=3"), "checked=True launches it"


def test_adjacent_and_size_one_dims_are_cleared(native):
    p = plan(native, tensors=((0, F32, 2, True), (1, F32, 2, False)))
    # [8, 1] with any stride on the size-1 dim is dense; the input starts where the output ends
    got = described(native, p, (Tensor(0x1000, [8, 1], strides=[1, 99]), Tensor(0x1020, [8, 1]), 5, 1024))
    assert re.search(r"0x1000/0/\[8, 1\]/\[1, 99\]", got)


def test_python_raises_the_library_message(native):
    """A failed launch becomes LaunchError with the operator's name and the library's message."""
    mod, address, _ = native
    table = library.OpTable(None, address, ["x", "y", "n", "TILE"], {"TILE"}, {}, None, "")

    from types import SimpleNamespace

    Kernel = SimpleNamespace(_pyfunc=SimpleNamespace(__name__="describe"))
    Lib = SimpleNamespace(native=mod)

    st = library._KernelState.__new__(library._KernelState)
    st.kernel, st.lib, st.table, st.plans = Kernel, Lib, table, {}
    p = library._Plan(plan(native), [0, 1], ["x", "y"], [True, False])
    args = (Tensor(0x1000, [7]), Tensor(0x9000, [7]), 5, 1024)
    with pytest.raises(library.LaunchError, match=r"cutile-rs describe: BadEntry .*entry=3 device=0"):
        library._launch_slow(st, p, p.native.launch(args, (1, 1, 1), 0, 0), (1, 1, 1), args, 0, 0, None)


def _variants(*texts):
    from tileport.spec import signature as sigmod

    out = []
    for entry, text in enumerate(texts):
        sig = sigmod.bind(sigmod.parse(text), ["g", "beta", "n"], "k")
        arrays = tuple((i, p) for i, (_, p) in enumerate(sig.params) if isinstance(p, sigmod.ArraySig))
        out.append(library.Variant(text, arrays, entry, (), ()))
    return out


def test_the_entry_whose_facts_hold_is_chosen():
    """Two ported specializations of one launch key (dtypes, ranks, constants) — one proven with every stride 1,
    one with strides divisible by 4 — each launch runs the one whose facts hold; its own signature first."""
    unit, div4 = _variants("g=f32[?,?,?]/1,1,1&16, beta=f32[?,?,?]/1,1,1&16, n=i32",
                           "g=f32[?,?,?]/?%4,?%4,1&16, beta=f32[?,?,?]/?%4,?%4,1&16, n=i32")
    both = [unit, div4]
    h1 = (Tensor(0x1000, [2, 1, 1], dtype="float32"), Tensor(0x2000, [2, 1, 1], dtype="float32"), 3)
    h4 = (Tensor(0x1000, [2, 1, 4], dtype="float32"), Tensor(0x2000, [2, 1, 4], dtype="float32"), 3)
    assert library.choose_variant(both, h1) is unit
    assert library.choose_variant(both, h4) is div4
    assert library.choose_variant(list(reversed(both)), h4) is div4       # whatever order the manifest lists
    h8 = (Tensor(0x1000, [2, 1, 8], dtype="float32"), Tensor(0x2000, [2, 1, 8], dtype="float32"), 3)
    assert library.choose_variant(both, h8) is div4                       # its facts hold at strides of 8
    h3 = (Tensor(0x1000, [2, 1, 3], dtype="float32"), Tensor(0x2000, [2, 1, 3], dtype="float32"), 3)
    assert library.choose_variant(both, h3) is None                       # strides of 3: no proven entry
    odd = (Tensor(0x1004, [2, 1, 4], dtype="float32"), Tensor(0x2000, [2, 1, 4], dtype="float32"), 3)
    assert library.choose_variant(both, odd) is None                      # a base the ports did not assume


def test_the_direct_launch_can_be_turned_off_and_counts_what_it_did(native):
    """The library's direct launch (rust/tileport-ops/src/direct.rs: a launch cutile ran twice at the same facts
    goes straight to cuLaunchKernel) is on by default, can be switched per process, and reports its counters
    (launched directly, keys recorded, keys refused) — the overhead bench reads both. Nothing launches on the CPU;
    tests/gpu and the served runs exercise the path itself."""
    dll = native[2]
    toggle, stats = dll.tileport_direct_launch, dll.tileport_direct_stats
    toggle.restype, toggle.argtypes = ctypes.c_bool, [ctypes.c_bool]
    stats.restype = ctypes.c_size_t
    assert toggle(False) is True       # (was on)
    assert toggle(True) is False       # (was off)
    assert toggle(True) is True
    out = (ctypes.c_uint64 * 3)(*[2**64 - 1] * 3)
    assert stats(out, 3) == 3 and all(v < 2**63 for v in out)   # written (zero on the CPU: nothing launches)
    assert stats(None, 0) == 3
    why = ctypes.create_string_buffer(64)
    n = dll.tileport_direct_refusal(why, len(why))
    assert n >= len(why.value)     # (the last refusal's message, cut to fit; none on the CPU)


def test_torch_tensors_are_read_in_one_call_as_their_attributes_say(native):
    """An exact torch.Tensor is read through `torch._C._to_dlpack` (one call instead of five attribute reads, as
    cuTile Python's launcher reads it); what the library sees is what the attributes say — data pointer of a view,
    shape, strides, every ABI dtype — and a dtype or rank the plan does not take is still a mismatch. Subclasses
    (nn.Parameter) take the attribute reads. Runs where torch is installed (the GPU image; a CPU build will do)."""
    torch = pytest.importorskip("torch", reason="torch is not installed here (CI): runs on the GPU host")
    mod, address, _ = native
    for name, dt in [("f32", torch.float32), ("f16", torch.float16), ("bf16", torch.bfloat16),
                     ("i32", torch.int32), ("i64", torch.int64), ("f8e5m2", torch.float8_e5m2),
                     ("f8e4m3fn", torch.float8_e4m3fn), ("f64", torch.float64)]:
        base = torch.zeros(6, 8, dtype=dt)
        for x in (base, base[1:, ::2], torch.nn.Parameter(base.clone(), requires_grad=False)):
            code, size = abi.DTYPES[name][0], x.element_size()
            p = mod.Plan(address, 3, [64, 128], [(0, dt, 2, code, size, False, [], 1)], [], [], 0, [0] * 4)
            got = described(native, p, (x,), device=-1, checked=True)
            assert f"tensors=[{x.data_ptr():#x}/{code}/{list(x.shape)}/{list(x.stride())}]".replace(" ", "") \
                in got.replace(" ", ""), (name, got)
            other = torch.float64 if dt is not torch.float64 else torch.float32
            assert described(native, p, (x.to(other),), device=-1) == mod.MISMATCH, name
            assert described(native, p, (x[0],), device=-1) == mod.MISMATCH, name


NOOP_LIBRARY = """
int calls = 0, device = 0, context_status = 0;
int tp_noop(const void *call, char *err, unsigned long n) { (void)call; (void)err; (void)n; calls++; return 0; }
int ctx_get_device(int *out) { *out = device; return context_status; }
"""


@pytest.fixture(scope="module")
def noop(tmp_path_factory):
    """A C library standing in for an operator (`tp_noop`: counts its calls, launches nothing) and for the CUDA
    driver's `cuCtxGetDevice` (the device and status it reports are set by the test)."""
    import shutil
    import subprocess

    if shutil.which("cc") is None:
        pytest.skip("no C compiler (cc) here")
    d = tmp_path_factory.mktemp("noop")
    (d / "noop.c").write_text(NOOP_LIBRARY)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(d / "noop.so"), str(d / "noop.c")], check=True)
    return ctypes.CDLL(str(d / "noop.so"))


def test_the_dispatcher_takes_a_remembered_kernels_launches_and_hands_every_other_to_python(native, noop):
    """`Dispatch.launch` (what ct.launch is while the backend is installed) runs a remembered kernel's launch through
    its plan without Python — grid as an int, a tuple or a list of 1 to 3 ints, stream as a handle or an object
    with `cuda_stream`, on the current context's device — and hands everything else to the Python interceptor
    unchanged: keywords, another kernel, another grid or stream form, no current context, a launch the plan does not
    clear; a plan whose time is up goes back to Python when its clock is read (every 64th launch)."""
    mod = native[0]
    calls = ctypes.c_int.in_dll(noop, "calls")
    device = ctypes.c_int.in_dll(noop, "device")
    context_status = ctypes.c_int.in_dll(noop, "context_status")
    address = ctypes.cast(noop.tp_noop, ctypes.c_void_p).value
    ctx = ctypes.cast(noop.ctx_get_device, ctypes.c_void_p).value
    rows = [(0, F32, 1, abi.DTYPES["f32"][0], 4, True, [], 1), (1, F32, 1, abi.DTYPES["f32"][0], 4, False, [], 1)]
    p = mod.Plan(address, 0, [], rows, [(2, "int")], [(3, 1024)], *abi.hint_slots({}))
    handed = []
    d = mod.Dispatch(lambda *a, **kw: handed.append((a[1], kw)))
    kernel, other = object(), object()
    args = (Tensor(0x1000, [7]), Tensor(0x9000, [7]), 5, 1024)

    class Stream:
        cuda_stream = 0xABC

    d.launch(0, 3, kernel, args)
    assert len(handed) == 1 and calls.value == 0      # (not remembered yet)
    d.remember(kernel, p, 10**15, ctx)
    for grid in (3, (3,), [3, 2], (3, 2, 1)):
        d.launch(0xABC, grid, kernel, args)
    d.launch(Stream(), (3,), kernel, args)
    d.launch(0xABC, (3,), kernel, args)
    assert calls.value == 6 and len(handed) == 1
    for stream, grid, k, a, kw in [(0, 3, kernel, args, {"programmatic_dependent_launch": False}),
                                   (0, 3, other, args, {}), (0, (3, 1, 1, 1), kernel, args, {}),
                                   (0, (3.0,), kernel, args, {}), (0, (), kernel, args, {}),
                                   (object(), 3, kernel, args, {}), (0, 3, kernel, list(args), {}),
                                   (0, 3, kernel, args[:3], {})]:
        d.launch(stream, grid, k, a, **kw)
    assert calls.value == 6 and len(handed) == 9 and handed[1][1] == {"programmatic_dependent_launch": False}
    context_status.value = 201                        # CUDA_ERROR_INVALID_CONTEXT: no current context
    d.launch(0, 3, kernel, args)
    context_status.value = 0
    assert calls.value == 6 and len(handed) == 10
    assert [(k is kernel, n) for k, n in d.counts()] == [(True, 6)]
    d.remember(other, p, 1, ctx)                      # a nanosecond: gone by its first launch, whose clock is read
    d.launch(0, 3, other, args)
    assert calls.value == 6 and len(handed) == 11
    device.value = 1                                  # tensors on device 0, the context on 1: Python checks it
    d.launch(0, 3, kernel, args)
    assert calls.value == 6 and len(handed) == 12
    device.value = 0
    d.launch(0, 3, kernel, args)                      # (a plan that needed the full check is Python's from then on)
    assert calls.value == 6 and len(handed) == 13


def test_a_static_extent_runs_only_at_that_extent(native):
    """An entry with a static extent 1 (calling convention v2, `f32[1,?%16,?]`: the extent divisor -1 in its facts)
    runs only where that extent is exactly 1: cutile's launcher checks nothing of it. (The extent facts it is
    compiled under are the launch's own: rt::Compact in rust/tileport-ops compacts cutile's per-axis spec.)"""
    g = plan(native, tensors=((0, F32, 2, True), (1, F32, 3, False)),
             facts={1: ([(False, 1, -1), (False, 1, 16), (True, 1, 1)], 1)})
    ok = (Tensor(0x1000, [2, 64]), Tensor(0x9000, [1, 16, 16]), 5, 1024)
    assert described(native, g, ok).startswith("entry=3")
    for beta, why in [(Tensor(0x9000, [2, 16, 16]), "extent 2 on the static axis"),
                      (Tensor(0x9000, [0, 16, 16]), "extent 0 on the static axis"),
                      (Tensor(0x9000, [3, 16, 16]), "extent 3 on the static axis"),
                      (Tensor(0x9000, [1, 8, 16]), "an extent not divisible by 16 (the plain facts still hold)")]:
        assert described(native, g, (ok[0], beta, 5, 1024)) == native[0].MISMATCH, why
    last = plan(native, tensors=((0, F32, 2, True), (1, F32, 3, False)),
                facts={1: ([(False, 1, 16), (False, 1, 16), (True, 1, -1)], 1)})
    assert described(native, last, (ok[0], Tensor(0x9000, [32, 16, 1]), 5, 1024)).startswith("entry=3")
    assert described(native, last, (ok[0], Tensor(0x9000, [32, 16, 2]), 5, 1024)) == native[0].MISMATCH


def test_a_static_extent_variant_is_chosen_only_where_it_holds():
    """A ported specialization with a static extent 1 (what ct.launch compiles for a batch of 1) is its launches'
    own; at a batch of 2 the all-dynamic twin runs."""
    static, dynamic = _variants("g=f32[1,?%16,?%16]/?%4,?%4,1&16, beta=f32[?,?,?]/?,?,1, n=i32",
                                "g=f32[?,?%16,?%16]/?%4,?%4,1&16, beta=f32[?,?,?]/?,?,1, n=i32")
    both = [static, dynamic]
    beta = Tensor(0x2000, [2, 1, 1], dtype="float32")
    one = (Tensor(0x1000, [1, 16, 16], dtype="float32"), beta, 3)
    two = (Tensor(0x1000, [2, 16, 16], dtype="float32"), beta, 3)
    assert library.choose_variant(both, one) is static and library.choose_variant(list(reversed(both)), one) is static
    assert library.choose_variant(both, two) is dynamic
    assert library.choose_variant([static], two) is None
    assert static.requirements[0][0][0] == (False, 4, -1)
    assert library.holds(static.requirements[0], (1, 16, 16), (256, 16, 1), 0x1000)
    assert not library.holds(static.requirements[0], (3, 16, 16), (256, 16, 1), 0x1000)
