"""Launch capture on the CPU, checked against what ct.launch derived from real torch tensors on an H200."""
import json
import typing

import pytest

import cuda.tile as ct
from tileport.examples import EXAMPLES_DIR
from tileport.kernels import KERNELS_DIR
from tileport.frontends.cutile_py.capture import (ArrayFacts, CaptureError, array_facts, array_sig, load_capture,
                                                  run_captured, signature_from_args)
from tileport.spec.signature import parse, to_cutile

from conftest import REPO, run_tileport

GROUND_TRUTH = REPO / "benchmarks" / "results" / "h200" / "verification" / "launch_signatures.json"


@ct.kernel
def probe2(x, y, n: int, s: float, K: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(K, K))
    ct.store(y, index=(ct.bid(0), 0), tile=t)


class TorchLike:
    """A torch-style array description (dtype, shape, stride(), data_ptr()) — the facts the H200 run recorded."""

    def __init__(self, dtype, shape, stride, ptr):
        self.dtype, self.shape, self._stride, self._ptr = dtype, shape, stride, ptr

    def stride(self):
        return self._stride

    def data_ptr(self):
        return self._ptr


# The y argument of each recorded case (scripts/record_launch_signatures.py builds them the same way).
Y_OF = {"row slice (offset 1 row)": ([1023, 1024], [1024, 1], 4096),
        "column slice (offset 1 elem)": ([1024, 1023], [1024, 1], 4),
        "odd shape 1000x999": ([1000, 999], [999, 1], 0)}


def _cases():
    data = json.loads(GROUND_TRUTH.read_text())
    return [c for c in data["cases"] if "error" not in c]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["case"])
def test_capture_reproduces_launch_specialization_measured_on_h200(case):
    x = case["x"]
    dtype = x["dtype"]
    xa = TorchLike(dtype, x["shape"], x["stride"], 1 << 20 | x["ptr_mod_256"])
    yshape, ystride, yoff = Y_OF.get(case["case"], ([1024, 1024], [1024, 1], 0))
    if case["case"] == "column slice (offset 1 elem)":
        yoff = 4
    ya = TorchLike(dtype, yshape, ystride, 1 << 21 | yoff)
    sig, _ = signature_from_args(probe2, (xa, ya, 7, 0.5, 16))
    assert to_cutile(sig).with_mangled_symbol("probe2").symbol == case["symbol"], sig.text()


def test_int_scalar_beyond_int32_is_rejected_like_launch():
    data = json.loads(GROUND_TRUTH.read_text())
    assert any("error" in c and "int32" in c["error"] for c in data["cases"])
    a = ArrayFacts("f32", (4, 4), (4, 1), 0)
    with pytest.raises(CaptureError, match="does not fit in int32"):
        signature_from_args(probe2, (TorchLike("torch.float32", a.shape, a.strides, 0),) * 2 + (2**33, 0.5, 16))


def test_array_rules():
    assert array_sig(ArrayFacts("f32", (1000, 999), (999, 1), 64)).text() == "f32[?,?]/?,1&16"
    assert array_sig(ArrayFacts("f16", (64, 32), (1, 64), 3)).text() == "f16[?%16,?%16]/1,?%8"
    # A zero stride is divisible by anything: the H200 recorded v4 for it too (case "broadcast (stride 0)").
    assert array_sig(ArrayFacts("f32", (8, 16), (0, 1), 0)).text() == "f32[?,?%16]/?%4,1&16!alias"


#: (argument value, as a scalar / as a constant): whether cuda-tile 1.7's launch takes it — what its own argument
#: check (``get_parameter_constraints_from_pyargs``, the check ct.launch runs) answers on this driverless machine
LAUNCH_TABLE = [
    (0.5, True, True), (3, True, True), (True, True, True), (1.0, True, True),
    ("np.float64", True, True),          # a Python float subclass: an f32 scalar / a float constant
    ("np.float32", False, False), ("np.float16", False, False), ("np.int32", False, False),
    ("np.int64", False, False), ("np.bool_", False, False),
    (None, False, False), ("relu", False, False), ("ct.float16", False, False), (1 + 2j, False, False),
    ("PaddingMode", False, False), ({"a": 1}, False, False),
]


def _value(v):
    import numpy as np

    if isinstance(v, str) and v.startswith("np."):
        return getattr(np, v[3:])(3)
    return {"ct.float16": ct.float16, "PaddingMode": ct.PaddingMode.ZERO}.get(v, v) if isinstance(v, str) else v


@pytest.mark.parametrize("value,as_scalar,as_constant", LAUNCH_TABLE, ids=lambda v: repr(v)[:20])
def test_capture_refuses_what_ct_launch_refuses(value, as_scalar, as_constant):
    """tileport's rules (describe_arg) agree with cuda-tile's own launch check on every kind of non-array argument:
    what the launch refuses raises LaunchRejected (a TypeError, raised in the host code as ct.launch raises); what it
    takes is a scalar or constant of the same kind. (The check runs here because this machine has no CUDA driver:
    its type checks come before anything needs one.)"""
    import numpy as np
    from cuda.tile._cext import CallingConvention, get_parameter_constraints_from_pyargs

    from tileport.frontends.arrays import LaunchRejected, describe_arg
    from tileport.frontends.cutile_py.capture import launch_refusal

    v = _value(value)
    x = np.zeros((16, 16), np.float32)
    for position, launch_takes in ((2, as_scalar), (4, as_constant)):   # s: float, K: ct.Constant[int]
        args = [x, x, 7, 0.5, 16]
        args[position] = v
        try:
            get_parameter_constraints_from_pyargs(probe2, tuple(args), CallingConvention.cutile_python_v1())
            cutile_takes = True
        except TypeError:
            cutile_takes = False
        except OSError:   # past the type checks, at the driver (absent here)
            cutile_takes = True
        assert cutile_takes == launch_takes, (value, position)
        assert (launch_refusal(probe2, tuple(args)) is None) == launch_takes
        if launch_takes:
            sig, desc = describe_arg("a", v, position == 4)
            assert type(desc["value"]) in (bool, int, float)   # (np.float64: a plain float)
        else:
            with pytest.raises(LaunchRejected):
                describe_arg("a", v, position == 4)


def test_recorder_raises_where_ct_launch_raises():
    """A launch ct.launch refuses (a wrong argument count, a numpy scalar) raises LaunchRejected, a TypeError, in the
    host code and is noted under "rejected"; the launches before it are kept."""
    import numpy as np

    from tileport.frontends.cutile_py.capture import LaunchRejected, Recorder

    rec = Recorder()
    x = np.zeros((16, 16), np.float32)
    rec.record((1,), probe2, (x, x, 7, 0.5, 16))
    with pytest.raises(TypeError, match="takes 5 arguments, launch passed 4|Kernel expects 5 arguments"):
        rec.record((1,), probe2, (x, x, 7, 16))
    with pytest.raises(LaunchRejected, match="numpy"):
        rec.record((1,), probe2, (x, x, 7, np.float32(0.5), 16))
    with pytest.raises(OverflowError, match="does not fit in int32"):   # as ct.launch raises (measured on the H200)
        rec.record((1,), probe2, (x, x, 2**31, 0.5, 16))
    with pytest.raises(LaunchRejected, match="integer extents, not float"):   # `n / 256` where `n // 256` was meant
        rec.record((4096 / 256,), probe2, (x, x, 7, 0.5, 16))
    rec.record((np.int64(2), 1), probe2, (x, x, 7, 0.5, 16))                  # numpy integers are integers
    data = rec.as_json("s.py", [])
    assert len(data["launches"]) == 2 and len(data["rejected"]) == 4 and not data["errors"]
    assert data["launches"][1]["grid"] == [2, 1, 1]
    assert describe_arg_of_ndarray_stays_array()


def describe_arg_of_ndarray_stays_array() -> bool:
    import numpy as np

    from tileport.frontends.arrays import describe_arg

    return describe_arg("a", np.zeros(3, np.float32), False)[0].rank == 1


def test_list_rules():
    """A list of arrays: the facts every item has; dtype, rank and unit strides must agree; an empty list, a list of
    non-arrays and overlapping items are what launch refuses or marks."""
    from tileport.frontends.arrays import describe_arg

    a = TorchLike("torch.float16", (64, 32), (32, 1), 0)
    b = TorchLike("torch.float16", (40, 32), (32, 1), 4096)
    sig, desc = describe_arg("As", [a, b], False)
    assert sig.text() == "list[f16[?,?%16]/?%8,1&16]" and desc["kind"] == "list" and len(desc["items"]) == 2
    overlapping = TorchLike("torch.float16", (8, 32), (32, 1), 64)   # inside a's memory
    assert describe_arg("As", [a, overlapping], False)[0].text().endswith("!alias")
    for bad, why in (([], "empty"), ([a, 3], "every item must be an array"),
                     ([a, TorchLike("torch.float32", (64, 32), (32, 1), 0)], "one dtype and rank"),
                     ([a, TorchLike("torch.float16", (64, 32), (1, 64), 0)], "unit strides")):
        with pytest.raises(CaptureError, match=why):
            describe_arg("As", bad, False)


def test_capture_host_script_on_cpu(tmp_path):
    rec = run_captured(EXAMPLES_DIR / "host.py", ["1000x768", "1000x768", "64x256"])
    launches = list(rec.launches.values())
    assert not rec.errors
    kernels = {l["qualname"] for l in launches}
    assert kernels == {"vector_add", "scale_cast", "row_softmax", "matmul", "bias_act", "gather_rows",
                       "persistent_scale", "numerics"}
    # 1000x768 twice: every launch of it de-duplicated with count 2.
    va = [l for l in launches if l["qualname"] == "vector_add"]
    assert sorted(l["count"] for l in va) == [1, 2]
    assert {tuple(l["grid"]) for l in va} == {(750, 1, 1), (16, 1, 1)}
    acts = sorted(l["signature"].rsplit("ACT=#", 1)[1] for l in launches if l["qualname"] == "bias_act")
    assert acts == ["0", "0", "1", "1", "2", "2"]
    sm = next(l for l in launches if l["qualname"] == "row_softmax" and l["grid"][0] == 250)
    assert sm["signature"].endswith("BM=#4, BLOCK=#1024") and sm["args"][0]["shape"] == [1000, 768]


def test_capture_cli_and_filter(tmp_path):
    out = tmp_path / "launches.json"
    r = run_tileport("capture", "--out", str(out), "--", "python", str(EXAMPLES_DIR / "host.py"), "100x128")
    assert r.returncode == 0, r.stderr
    assert "distinct launch(es)" in r.stderr
    mm = load_capture(out, f"{KERNELS_DIR / 'matmul.py'}::matmul")
    assert len(mm) == 1 and mm[0]["grid"] == [1, 2, 1]


def test_capture_bad_command(tmp_path):
    r = run_tileport("capture", "--out", str(tmp_path / "x.json"), "--", "python", "nope.txt")
    assert r.returncode == 2 and "expected `tileport capture" in r.stderr


class GpuTensorLike(TorchLike):
    """What torch hands a launch on a GPU host: a tensor whose ``__cuda_array_interface__`` raises (requires_grad,
    fp8 dtypes) or describes bf16 as ``<V2`` (two opaque bytes); its methods and dtype still tell everything."""

    def __init__(self, dtype, shape, stride, ptr, interface=None, raises=None):
        super().__init__(dtype, shape, stride, ptr)
        self._interface, self._raises = interface, raises

    @property
    def __cuda_array_interface__(self):
        if self._raises is not None:
            raise self._raises
        return self._interface


class InterfaceOnly:
    """An array known only through its ``__cuda_array_interface__``."""

    def __init__(self, typestr):
        self.__cuda_array_interface__ = {"shape": (64, 64), "typestr": typestr, "strides": None,
                                         "data": (1 << 20, False), "version": 3}


@pytest.mark.parametrize("dtype, raises, interface, want", [
    ("torch.float32", RuntimeError("Can't get __cuda_array_interface__ on Variable that requires grad. "
                                   "Use var.detach().__cuda_array_interface__ instead."), None, "f32"),
    ("torch.float8_e4m3fn", TypeError("dtype torch.float8_e4m3fn is not supported by __cuda_array_interface__"),
     None, "f8e4m3fn"),
    ("torch.float8_e5m2", TypeError("unsupported dtype"), None, "f8e5m2"),
    ("torch.float8_e8m0fnu", TypeError("unsupported dtype"), None, "f8e8m0fnu"),
    ("torch.bfloat16", None, {"shape": (64, 64), "typestr": "<V2", "strides": None, "data": (1 << 20, False),
                              "version": 3}, "bf16"),
], ids=["requires-grad", "fp8-e4m3", "fp8-e5m2", "fp8-e8m0", "bf16-V2"])
def test_capture_reads_gpu_tensors_through_their_methods(dtype, raises, interface, want):
    x = GpuTensorLike(dtype, (64, 64), (64, 1), 1 << 20, interface, raises)
    y = GpuTensorLike(dtype, (64, 64), (64, 1), 1 << 21, interface, raises)
    facts = array_facts(x)
    assert facts == ArrayFacts(want, (64, 64), (64, 1), 1 << 20)
    sig, described = signature_from_args(probe2, (x, y, 7, 0.5, 16))
    assert sig.text().startswith(f"x={want}[?%16,?%16]/?%"), sig.text()
    assert described[0]["dtype"] == want
    # the recorded signature reads back (the capture file is parsed again by analyze and port)
    assert parse(sig.text()).text() == sig.text()
    to_cutile(sig)


def test_capture_refuses_an_opaque_interface_without_methods():
    assert array_facts(InterfaceOnly("<f2")) == ArrayFacts("f16", (64, 64), (64, 1), 1 << 20)
    with pytest.raises(CaptureError, match="unsupported array dtype '<V2'"):
        array_facts(InterfaceOnly("<V2"))


ANNOTATED = '''\
from __future__ import annotations

import cuda.tile as ct
from cuda.tile import Constant

TileSize = ct.Constant[int]


@ct.kernel
def annotated(x: ct.IndexedWithInt64, y, off: ct.ScalarInt64, n: int, A: ct.Constant[int], B: Constant[int],
              C: TileSize):
    ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(A,)))
'''


def test_capture_reads_annotations_as_cuda_tile_launch_does(tmp_path):
    """String annotations (`from __future__ import annotations`) are resolved, as cuda-tile resolves them: Constant
    parameters (spelled ct.Constant[int], an imported Constant, a module alias) are constants, not i32 scalars (which
    cuda-tile then refuses: "Expected a scalar/tuple/dataclass constant"); a ct.ScalarInt64 int is an i64 scalar
    (any int64 value) and a ct.IndexedWithInt64 array has 64-bit indices (@i64)."""
    import importlib.util

    import numpy as np

    (tmp_path / "annotated_kernels.py").write_text(ANNOTATED)
    spec = importlib.util.spec_from_file_location("annotated_kernels", tmp_path / "annotated_kernels.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    x = np.zeros(1024, np.float32)
    sig, described = signature_from_args(mod.annotated, (x, x, 1 << 40, 7, 128, 8, 3))
    assert sig.text() == "x=f32[?%16]/1&16@i64, y=f32[?%16]/1&16, off=i64, n=i32, A=#128, B=#8, C=#3"
    assert described[0]["index_i64"] and described[2] == {"name": "off", "kind": "scalar", "dtype": "i64",
                                                           "value": 1 << 40}
    with pytest.raises(CaptureError, match="does not fit in int32"):
        signature_from_args(mod.annotated, (x, x, 5, 1 << 40, 128, 8, 3))


def test_a_launch_through_replace_hints_records_its_hints():
    """`kernel.replace_hints(occupancy=2)` (an autotuner's pick): the launch records the hints it compiles with, and a
    launch of the same signature at other hints is another launch; the decorator's own hints are recorded too."""
    from tileport.frontends.cutile_py.capture import Recorder

    rec = Recorder()
    a = TorchLike("torch.float32", (64, 64), (64, 1), 0)
    args = (a, a, 3, 0.5, 16)
    rec.record((4,), probe2, args)
    rec.record((4,), probe2.replace_hints(occupancy=2, num_ctas=1), args)
    rec.record((4,), probe2.replace_hints(occupancy=2, num_ctas=1), args)
    launches = rec.as_json("s.py", [])["launches"]
    assert [launch.get("hints") for launch in launches] == [{"opt_level": 3},
                                                             {"num_ctas": 1, "occupancy": 2, "opt_level": 3}]
    assert [launch["count"] for launch in launches] == [1, 2]


FACTORY = '''\
import cuda.tile as ct


def make(factor, dtype):
    @ct.kernel
    def scaled(x, y, B: ct.Constant[int]):
        t = ct.astype(ct.load(x, index=(ct.bid(0),), shape=(B,)), ct.float32)
        ct.store(y, index=(ct.bid(0),), tile=ct.astype(t * factor, dtype))
    return scaled


def make_plain():
    @ct.kernel
    def scaled(x, y, B: ct.Constant[int]):
        ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(B,)))
    return scaled


bound = make(0.5, ct.float16)
'''


def test_a_factory_kernel_is_named_by_its_def_line_and_rebuilt_from_its_closure(tmp_path):
    """Kernels a function makes (a factory, often behind functools.lru_cache) share their function's name: the
    capture names each NAME@LINE by its `def` line (two factories' kernels of one name were merged into one capture
    before, and the second's launches ported as the first), with ~DIGEST of the values it closes over when it closes
    over any (they are recorded); the loader takes a module-level one as it is and rebuilds the others from the
    `def`'s code over the recorded values, so analyze compiles the kernel that was launched."""
    import importlib.util

    import numpy as np

    from tileport.frontends.cutile_py.capture import Recorder
    from tileport.frontends.cutile_py.compile import export_bytecode
    from tileport.frontends.cutile_py.loader import KernelLoadError, load_kernel
    from tileport.toolchain.locate import find_cuda_tree

    src = tmp_path / "factories.py"
    src.write_text(FACTORY)
    spec = importlib.util.spec_from_file_location("factories", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    x, y16, y32 = np.zeros(256, np.float32), np.zeros(256, np.float16), np.zeros(256, np.float32)
    rec = Recorder()
    for k, y in ((mod.bound, y16), (mod.make(2.0, ct.float32), y32), (mod.make(2.0, ct.float32), y32),
                 (mod.make_plain(), y32)):
        rec.record((1,), k, (x, y, 256))
    launches = rec.as_json("s.py", [])["launches"]
    names = [l["kernel"].rpartition("::")[2] for l in launches]
    assert [n.split("~")[0] for n in names] == ["scaled@6", "scaled@6", "scaled@14"] and len(set(names)) == 3
    assert launches[1]["count"] == 2   # (two kernel objects over the same values: one kernel)
    assert launches[0]["closure"] == {"dtype": {"dtype": "float16"}, "factor": 0.5}
    assert launches[1]["closure"] == {"dtype": {"dtype": "float32"}, "factor": 2.0} and "closure" not in launches[2]

    tree = find_cuda_tree()
    from tileport.spec.signature import parse
    for launch in launches:
        ref = launch["kernel"]
        kernel = load_kernel(ref, launch.get("closure"))
        assert kernel.name == "scaled" and kernel.ref == ref
        symbol, bytecode = export_bytecode(kernel, parse(launch["signature"]), tree)
        assert bytecode
    bound = load_kernel(launches[0]["kernel"])   # bound at module level: taken as it is, no closure needed
    assert bound.closure is None and [c.cell_contents for c in bound.pyfunc.__closure__] == [ct.float16, 0.5]
    rebuilt = load_kernel(launches[1]["kernel"], launches[1]["closure"])
    assert [c.cell_contents for c in rebuilt.pyfunc.__closure__] == [ct.float32, 2.0]
    with pytest.raises(KernelLoadError, match="closes over dtype, factor"):
        load_kernel(launches[1]["kernel"])
    with pytest.raises(KernelLoadError, match="no `def scaled` at line 7"):
        load_kernel(f"{src}::scaled@7")
    with pytest.raises(KernelLoadError, match="expected KERNEL or KERNEL@LINE"):
        load_kernel(f"{src}::scaled@x")


FACTORY_VALUES = '''\
import enum

import cuda.tile as ct


class Act(enum.IntEnum):
    IDENTITY = 0
    SQUARE = 1


def make(shape, act, scale):
    @ct.function
    def _post(t):
        if act == Act.SQUARE:
            return t * t * scale
        return t * scale

    @ct.kernel
    def tiled(x, y):
        t = ct.load(x, index=(ct.bid(0), ct.bid(1)), shape=shape)
        ct.store(y, index=(ct.bid(0), ct.bid(1)), tile=_post(t))

    return tiled


def _add_impl(a, b, c, B: ct.Constant[int]):
    ct.store(c, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(B,)) + ct.load(b, index=(ct.bid(0),), shape=(B,)))


add_kernel = ct.kernel(_add_impl)


def _scale_impl(x, y, B: ct.Constant[int]):
    ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(B,)) * 2.0)


class Ops:
    scale = ct.kernel(occupancy=2)(_scale_impl)
'''


def test_factory_values_and_kernels_made_by_a_call(tmp_path):
    """A factory closing over a tuple (the tile shape), an enum member and a `@ct.function` helper it made over its
    own arguments: each value is recorded (a tuple by its items, an enum member by class and name, the helper by its
    `def` line and closure), so kernels over other values are other kernels (before, every such value was
    `{"unknown": ..}`: two kernels of other shapes or modes were merged into one, and none could be rebuilt), and the
    loader rebuilds each over them. A module-level function made a kernel by a call (`add_kernel =
    ct.kernel(_add_impl)`, `ct.kernel(occupancy=2)(_scale_impl)` on a class) is loaded by its function's name (the
    name a capture gives it; before: "'_add_impl' is a function, not a @ct.kernel"), and the scan finds all of them."""
    import importlib.util

    import numpy as np

    from tileport.corpus.scan import scan
    from tileport.frontends.cutile_py.capture import Recorder
    from tileport.frontends.cutile_py.compile import export_bytecode
    from tileport.frontends.cutile_py.loader import KernelLoadError, load_kernel
    from tileport.spec.signature import parse
    from tileport.toolchain.locate import find_cuda_tree

    src = tmp_path / "fvalues.py"
    src.write_text(FACTORY_VALUES)
    spec = importlib.util.spec_from_file_location("fvalues", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    x = np.zeros((64, 64), np.float32)
    rec = Recorder()
    for shape, act in (((16, 32), mod.Act.IDENTITY), ((16, 32), mod.Act.SQUARE), ((32, 16), mod.Act.SQUARE)):
        rec.record((1, 1), mod.make(shape, act, 0.5), (x, x))
    v = np.zeros(256, np.float32)
    rec.record((1,), mod.add_kernel, (v, v, v, 256))
    rec.record((1,), mod.Ops.scale, (v, v, 256))
    launches = rec.as_json("s.py", [])["launches"]
    names = [l["kernel"].rpartition("::")[2] for l in launches]
    assert len(set(names)) == 5 and names[3:] == ["_add_impl", "_scale_impl"], names
    closure = launches[2]["closure"]
    assert closure["shape"] == {"tuple": [32, 16]}
    assert closure["_post"] == {"function": "_post", "line": 13, "tile_function": True,
                                "closure": {"act": {"enum": "Act", "member": "SQUARE"}, "scale": 0.5}}
    assert launches[4]["hints"]["occupancy"] == 2
    tree = find_cuda_tree()
    for launch in launches:
        kernel = load_kernel(launch["kernel"], launch.get("closure"))
        export_bytecode(kernel, parse(launch["signature"]), tree)
    rebuilt = load_kernel(launches[1]["kernel"], launches[1]["closure"])
    post = dict(zip(rebuilt.pyfunc.__code__.co_freevars, (c.cell_contents for c in rebuilt.pyfunc.__closure__)))
    act = post["_post"].__wrapped__.__closure__[0].cell_contents
    assert post["shape"] == (16, 32) and type(act).__name__ == "Act" and act.name == "SQUARE"
    bad = dict(launches[1]["closure"], _post=dict(closure["_post"], closure={"act": {"enum": "Act", "member": "CUBE"},
                                                                             "scale": 0.5}))
    with pytest.raises(KernelLoadError, match="Act.CUBE, which is not found here"):
        load_kernel(launches[1]["kernel"], bad)
    assert [(k.name, k.qualname) for k in scan(tmp_path)] == [
        ("tiled@19", "make.<locals>.tiled"), ("_add_impl", "_add_impl"), ("_scale_impl", "_scale_impl")]


REFUSING_HOST = '''\
import numpy as np
import cuda.tile as ct


@ct.kernel
def copy(x, y, s: float, B: ct.Constant[int]):
    ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(B,)) * s)


x = np.zeros(256, np.float32)
ct.launch(None, (2,), copy, (x, x, 0.5, 128))
try:
    ct.launch(None, (2,), copy, (x, x, np.float32(0.5), 128))   # a numpy scalar: ct.launch raises
except TypeError as exc:
    print("caught:", exc)
ct.launch(None, (2,), copy, (x, x, 128))                        # an argument missing: the program stops here
'''


def test_capture_cli_raises_refused_launches_in_the_program(tmp_path):
    """`tileport capture` of a program whose launch ct.launch refuses: the program sees the TypeError where the
    launch is (it may catch it, as it would on a GPU); uncaught, the program's traceback names its line, the
    launches before it are written and the exit status is 1."""
    script = tmp_path / "refusing.py"
    script.write_text(REFUSING_HOST)
    out = tmp_path / "c.json"
    r = run_tileport("capture", "--out", str(out), "--", "python", str(script))
    assert r.returncode == 1, r.stderr
    assert "caught: copy: argument s=np.float32(0.5): ct.launch takes no numpy scalar" in r.stdout \
        or "caught: copy: ct.launch refuses the arguments" in r.stdout, r.stdout
    assert f'File "{script}", line 16' in r.stderr and "LaunchRejected" in r.stderr
    assert "fake_launch" not in r.stderr   # (the traceback ends at the program's launch, as at ct.launch on a GPU)
    assert r.stderr.count("refused by the launch (raised in the program, as on a GPU)") == 2
    data = json.loads(out.read_text())
    assert len(data["launches"]) == 1 and len(data["rejected"]) == 2


def test_a_captured_launch_cuda_tile_rejects_is_left_out_of_a_port(tmp_path):
    """A host that launches a kernel with what it cannot take (a 2-D tensor where it indexes one dimension: the
    launch fails on a GPU too) no longer fails the port of its other launches: `tileport port --capture` leaves it
    out and lists it, as `tileport corpus port` does (a --sig asked for by hand still fails)."""
    import numpy as np

    from tileport.frontends.cutile_py.capture import Recorder
    from tileport.kernels.vector_add import vector_add
    from tileport.pipeline.port import _analyze_translate
    from tileport.toolchain.locate import find_cuda_tree

    rec = Recorder()
    v, m = np.zeros(4096, np.float32), np.zeros((64, 64), np.float32)
    rec.record((4,), vector_add, (v, v, v, 1024))
    rec.record((4,), vector_add, (m, m, m, 1024))
    launches = rec.as_json("s.py", [])["launches"]
    ref = f"{KERNELS_DIR / 'vector_add.py'}::vector_add"
    verdict = _analyze_translate(ref, [], launches, find_cuda_tree(), tmp_path / "p", lambda s: None,
                                 skip_rejected=True)
    analyze = verdict["stages"]["analyze"]
    assert analyze["ok"] and len(analyze["variants"]) == 1, analyze
    (left_out,) = analyze["rejected"]
    assert left_out["signature"].startswith("a=f32[?%16,?%16]") and "does not match the array rank" in left_out["error"]
    assert verdict["stages"]["translate"]["ok"]


OPTIONAL_POINTER = '''\
import numpy as np
import triton
import triton.language as tl


@triton.jit
def add_bias(x_ptr, b_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if b_ptr is not None:
        x += tl.load(b_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x, mask=offs < n)


@triton.jit
def cast(x_ptr, y_ptr, n, OUT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n).to(OUT), mask=offs < n)


x = np.zeros(1000, np.float32)
add_bias[(4,)](x, x, np.empty_like(x), 1000, BLOCK=256)
add_bias[(4,)](x, None, np.empty_like(x), 1000, BLOCK=256)
cast[(4,)](x, np.zeros(1000, np.float16), 1000, OUT=tl.float16, BLOCK=256)
cast[(4,)](x, np.zeros(1000, np.float16), 1000, OUT=tl.bfloat16, BLOCK=256)
'''


def test_a_triton_kernel_launched_with_and_without_an_optional_pointer_is_two_kernels(tmp_path):
    """Triton host code passes None for an optional pointer (a bias, a residual) in some launches and a tensor in
    others, or several dtypes for a dtype constexpr; Triton specializes on both and the lowered kernel can take
    neither as a parameter (cuTile 1.7 takes no dtype constant), so the port stopped at "launches disagree on which
    parameters are tensors" / a dtype it could not resolve. The capture names the launches by what differs,
    NAME[b_ptr=None], NAME[OUT=fp16] (only where launches disagree), each lowers, and a runner finds each launch's
    port by those parts."""
    pytest.importorskip("triton")
    from tileport.frontends.triton.capture import matches_specialization
    from tileport.pipeline.triton import lower_from_launches

    script = tmp_path / "optional.py"
    script.write_text(OPTIONAL_POINTER)
    launches = run_captured(script, []).as_json(str(script), [])["launches"]
    names = sorted(l["kernel"].rpartition("::")[2] for l in launches)
    assert names == ["add_bias", "add_bias[b_ptr=None]", "cast[OUT=bf16]", "cast[OUT=fp16]"]
    for name in names:
        mine = [l for l in launches if l["kernel"].endswith(f"::{name}")]
        lowered = lower_from_launches(f"{script}::{name}", mine)
        if name.startswith("add_bias"):
            assert ("b_ptr" in lowered.source) == (name == "add_bias")
        else:
            assert f"ct.{'bfloat16' if 'bf16' in name else 'float16'}" in lowered.source
    assert matches_specialization("add_bias[b_ptr=None]", {"b_ptr": None}) == 1
    assert matches_specialization("add_bias[b_ptr=None]", {}) is None
    assert matches_specialization("add_bias", {"b_ptr": None}) == 0
    assert matches_specialization("cast[OUT=fp16]", {"OUT": "tl.fp16"}) == 1


def test_corpus_port_takes_a_host_programs_capture_file(tmp_path):
    """`tileport corpus port launches.json --corpus . --out P`: the kernels of one `tileport capture` file (a host
    program's, several kernels) are rows of their own, each ported from its own launches only (was: only the folder
    of `tileport corpus capture` was taken; one had to port kernel by kernel)."""
    import numpy as np

    from tileport.corpus.port import _launches, merged_rows
    from tileport.frontends.cutile_py.capture import Recorder, write_capture
    from tileport.kernels.scale_cast import scale_cast
    from tileport.kernels.vector_add import vector_add

    rec = Recorder()
    v, h = np.zeros(4096, np.float32), np.zeros(4096, np.float16)
    rec.record((4,), vector_add, (v, v, v, 1024))
    rec.record((4,), scale_cast, (h, h, 0.5, 1024))
    rec.record((2,), vector_add, (v, v, v, 2048))
    capture = tmp_path / "launches.json"
    write_capture(rec, tmp_path / "host.py", [], capture)
    rows, not_launched = merged_rows([capture], KERNELS_DIR)
    assert sorted((r["file"], r["kernel"]) for r in rows) == [("scale_cast.py", "scale_cast"),
                                                              ("vector_add.py", "vector_add")]
    assert not not_launched
    va = next(r for r in rows if r["kernel"] == "vector_add")
    assert [l["grid"][0] for l in _launches(va["captures"], KERNELS_DIR, "vector_add")] == [4, 2]


def test_corpus_capture_keeps_a_launch_at_other_hints_of_one_signature(tmp_path):
    """A corpus capture keeps a launch whose signature and grid another launch has but whose hints differ
    (`kernel.replace_hints(occupancy=2)`, an autotuner's pick): it is a variant of its own, proven and served at
    those hints (was: counted as the first launch, its hints lost, so a served run found no port at them)."""
    import numpy as np

    from tileport.corpus.capture import Options, Session
    from tileport.corpus.cudaemu import TARGETS
    from tileport.frontends.cutile_py.capture import Recorder
    from tileport.kernels.vector_add import vector_add

    session = Session(Options(root=KERNELS_DIR, tests=[], out=tmp_path, target=TARGETS["h200"]))
    v = np.zeros(4096, np.float32)
    for k in (vector_add, vector_add.replace_hints(occupancy=2), vector_add):
        rec = Recorder()
        rec.record((4,), k, (v, v, v, 1024))
        session.collect(rec)
    (kl,) = session.kernels.values()
    launches = [launch.entry for by_grid in kl.sigs.values() for launch in by_grid.values()]
    assert [(e.get("hints"), e["count"]) for e in launches] == [({"opt_level": 3}, 2),
                                                                ({"occupancy": 2, "opt_level": 3}, 1)]


@ct.kernel
def _searched(x, T: ct.Constant[int]):
    ct.store(x, index=(ct.bid(0),), tile=ct.full((T,), 1.0, dtype=ct.float32))


def test_a_live_search_records_every_config_then_runs_the_real_search(monkeypatch):
    """capture --on-gpu: cuda.tile's search launches through its own benchmark path, and its winner varies run to
    run, so each config is recorded (at its hints) before the real search runs, unchanged."""
    import cuda.tile.tune as tune
    from cuda.tile.tune import _tune

    from tileport.corpus.autotune import recorded_searches

    searched = []
    monkeypatch.setattr(_tune, "exhaustive_search", lambda space, *a, **kw: searched.append(list(space)) or "won")
    monkeypatch.setattr(tune, "exhaustive_search", _tune.exhaustive_search)
    seen = []
    with recorded_searches(lambda k, grid, args, cfg: seen.append((k, grid, args, cfg))):
        result = tune.exhaustive_search(iter([7, 12]), None, lambda c: (c,), _searched, lambda c: ("x", c),
                                        lambda c: {"occupancy": c})
    assert result == "won" and searched == [[7, 12]]
    assert [(g, a, c) for _, g, a, c in seen] == [((7,), ("x", 7), "7"), ((12,), ("x", 12), "12")]
    assert all(k is not _searched for k, *_ in seen)   # each at its config's hints (replace_hints)
    assert tune.exhaustive_search is _tune.exhaustive_search   # restored


def test_a_cached_winners_launch_is_recorded_at_every_config_of_its_search():
    """Host code that caches a search's winner by less than the signature (TileGym's bmm: by batch, M, N, K and
    transposes) launches it again without searching, on other arrays; on a GPU the cached winner may be any config
    (run 17: six bmm launches refused at occupancy 2, ported at 1 only). Such a launch — the returned config's hints
    and config-set values — is recorded at every other config, each at its own hints."""
    from tileport.corpus.autotune import AutotuneLog
    from tileport.frontends.cutile_py.hints import kernel_hints

    log = AutotuneLog()
    k1, k2 = _searched.replace_hints(occupancy=1), _searched.replace_hints(occupancy=2)
    a, b, a2 = object(), object(), object()   # arrays: compared by identity
    won = ((a, b, 64), (10,), "cfg(64, 1)", k1)
    others = [((a, b, 128), (5,), "cfg(128, 1)", k1), ((a, b, 64), (20,), "cfg(64, 2)", k2)]
    log.tuned.append((_searched._pyfunc, won, others))
    occupancy = lambda k: kernel_hints(k)["occupancy"]   # noqa: E731
    right_after = log.alternatives(k1, (10,), (a, b, 64))   # the launch right after the search
    assert [(x[0], x[1], x[2], occupancy(x[3])) for x in right_after] == [(o[0], o[1], o[2], occupancy(o[3]))
                                                                         for o in others]
    alts = log.alternatives(k1, (40,), (a2, b, 64))   # the cached winner on other arrays
    assert [(x[0], x[1], occupancy(x[3])) for x in alts] == [((a2, b, 128), (40,), 1), ((a2, b, 64), (40,), 2)]
    assert "cached winner" in alts[0][2]
    assert log.alternatives(k2, (40,), (a2, b, 64)) == []   # not the returned config's hints
    assert log.alternatives(k1, (40,), (a2, b, 128)) == []   # nor its config-set values
    assert log.alternatives(_searched, (40,), (a2, b)) == []   # nor its arity


def test_extent_one_axes_are_static_as_ct_launch_makes_them():
    """cuda-tile 1.7's launch compiles calling convention v2 where an array has an extent-1 axis: exactly those
    axes are static 1 (measured with ct.launch itself, Run 21 of sparse_mla_cpu_reading.md); a list's axis only
    where every item has extent 1; the signature then compiles at v2."""
    from tileport.frontends.arrays import describe_arg, static_shape
    from tileport.spec.signature import needs_v2

    q = TorchLike("torch.bfloat16", (1, 16, 16, 128), (32768, 2048, 128, 1), 0)
    sig, desc = describe_arg("Q", q, False)
    assert sig.text() == "bf16[1,?%16,?%16,?%16]/?%8,?%8,?%8,1&16" and desc["shape"] == [1, 16, 16, 128]
    idx = TorchLike("torch.int32", (1, 16, 1, 64), (1024, 64, 64, 1), 16)
    assert array_sig(array_facts(idx)).text() == "i32[1,?%16,1,?%16]/?%4,?%4,?%4,1&16"
    # an extent 0, 2 or 16 stays dynamic; v2=False is the all-dynamic (v1) signature
    assert static_shape((0, 2, 16, 1)) == (None, None, None, 1)
    assert array_sig(array_facts(q), v2=False).text() == "bf16[?,?%16,?%16,?%16]/?%8,?%8,?%8,1&16"
    # static_shape_dims: the annotated axes at their launch values (negative from the end), no extent-1 rule
    assert static_shape((1, 16, 256), (-1,)) == (None, None, 256)
    assert array_sig(array_facts(q), (0, 1)).text() == "bf16[1,16,?%16,?%16]/?%8,?%8,?%8,1&16"
    # a list: static where every item has extent 1
    a = TorchLike("torch.float16", (1, 32), (32, 1), 0)
    b = TorchLike("torch.float16", (1, 48), (48, 1), 4096)
    c = TorchLike("torch.float16", (2, 48), (48, 1), 8192)
    assert describe_arg("As", [a, b], False)[0].text() == "list[f16[1,?%16]/?%8,1&16]"
    assert describe_arg("As", [a, c], False)[0].text() == "list[f16[?,?%16]/?%8,1&16]"
    s = parse(f"Q={sig.text()}")
    from cuda.tile import compilation as cc
    assert needs_v2(s) and repr(to_cutile(s).calling_convention) == repr(cc.CallingConvention.cutile_python_v2())
    assert not needs_v2(parse(array_sig(array_facts(q), v2=False).text()))


@ct.kernel
def annotated(x: typing.Annotated[ct.Array, ct.ArrayAnnotation(static_shape_dims=(-1,))], y):
    ct.store(y, index=(ct.bid(0), 0), tile=ct.load(x, index=(ct.bid(0), 0), shape=(1, 16)))


def test_capture_signature_takes_static_shape_dims():
    """A parameter annotated static_shape_dims: its annotated extents at their launch values and none from extent
    1; the other parameter keeps the extent-1 rule."""
    x = TorchLike("torch.float32", (1, 16), (16, 1), 0)
    y = TorchLike("torch.float32", (1, 16), (16, 1), 0)
    sig, _ = signature_from_args(annotated, (x, y))
    assert sig.text() == "x=f32[?,16]/?%4,1&16, y=f32[1,?%16]/?%4,1&16"


@pytest.mark.parametrize("axes, why", [((2,), "out of range"), ((-3,), "out of range"), ((0, -2), "more than once")])
def test_static_shape_dims_out_of_range_or_repeated_is_refused_as_the_launch_refuses_it(axes, why):
    """A bad `static_shape_dims` (an axis beyond the rank, one named twice): cuda-tile refuses the launch, so the
    capture raises LaunchRejected (a TypeError) instead of recording a signature."""
    from tileport.frontends.arrays import LaunchRejected, static_shape

    with pytest.raises(LaunchRejected, match=why):
        static_shape((4, 16), axes)
