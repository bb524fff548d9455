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


def plan(native, tensors=((0, F32, 1, True), (1, F32, 1, False)), scalars=((2, "int"),), consts=((3, 1024),)):
    mod, address, _ = native
    rows = [(pos, dt, rank, abi.DTYPES["f32"][0], 4, written) for pos, dt, rank, written in tensors]
    return mod.Plan(address, 3, [64, 128], rows, list(scalars), list(consts))


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
                   "scalars=[5.0] stream=0xabc grid=(3, 2, 1)")


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
