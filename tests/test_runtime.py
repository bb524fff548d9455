"""The runtime's CPU-testable parts: ABI agreement between the built library and Python, status codes from real
calls into the library, and the ownership checks (on numpy arrays standing in for device tensors)."""
import ctypes
import json

import numpy as np
import pytest

from tileport.runtime import abi, build
from tileport.runtime.checks import Arg, OwnershipError, check_launch


def arg(name, a: np.ndarray, written=False, device=("cuda", 0)):
    size = a.dtype.itemsize
    dt = {"float32": "f32", "float16": "f16", "int32": "i32", "int64": "i64"}[a.dtype.name]
    return Arg(name, dt, a.shape, tuple(s // size for s in a.strides), a.ctypes.data, written, device)


def test_a_written_tensor_may_not_overlap_an_input():
    base = np.zeros(100, np.float32)
    x, y = base[:60], base[40:]
    with pytest.raises(OwnershipError, match="output y overlaps input x"):
        check_launch("op", [arg("x", x), arg("y", y, written=True)], 0)
    check_launch("op", [arg("x", base[:50]), arg("y", base[50:], written=True)], 0)  # adjacent is fine


def test_the_launch_backend_allows_an_output_passed_again_as_the_same_input_view():
    """In place (ct.launch semantics, for the launch backend only): the same view twice is fine; a shifted or
    reshaped view of it is not, and the operator library keeps refusing both."""
    base = np.zeros(64, np.float32)
    same = [arg("x", base), arg("y", base, written=True)]
    check_launch("op", same, 0, in_place=True)
    with pytest.raises(OwnershipError, match="output y overlaps input x"):
        check_launch("op", same, 0)
    with pytest.raises(OwnershipError, match="output y overlaps input x"):
        check_launch("op", [arg("x", base[:32]), arg("y", base[:48], written=True)], 0, in_place=True)
    with pytest.raises(OwnershipError, match="output y overlaps output z"):
        check_launch("op", [arg("y", base, written=True), arg("z", base, written=True)], 0, in_place=True)


def test_two_outputs_may_not_alias():
    base = np.zeros(64, np.float32)
    with pytest.raises(OwnershipError, match="output a overlaps output b"):
        check_launch("op", [arg("a", base, True), arg("b", base[::2], True)], 0)


def test_a_broadcast_output_is_refused_but_a_broadcast_input_is_fine():
    row = np.zeros(8, np.float32)
    bcast = np.broadcast_to(row, (4, 8))
    with pytest.raises(OwnershipError, match="share memory"):
        check_launch("op", [arg("y", bcast, written=True)], 0)
    check_launch("op", [arg("x", bcast), arg("y", np.zeros((4, 8), np.float32), True)], 0)


def test_interleaved_strides_are_self_overlapping():
    a = np.zeros(100, np.float32)
    view = np.lib.stride_tricks.as_strided(a, shape=(4, 8), strides=(4 * 4, 4))  # rows overlap
    assert arg("v", view).self_overlapping()
    assert not arg("v", np.zeros((4, 8), np.float32).T).self_overlapping()


def test_device_and_stride_rules():
    x = np.zeros(8, np.float32)
    with pytest.raises(OwnershipError, match="on the cpu device"):
        check_launch("op", [arg("x", x, device=("cpu", None))], 0)
    with pytest.raises(OwnershipError, match="cuda:1, but the current device is cuda:0"):
        check_launch("op", [arg("x", x, device=("cuda", 1))], 0)
    with pytest.raises(OwnershipError, match="negative stride"):
        check_launch("op", [arg("x", x[::-1])], 0)


def test_empty_tensors_never_overlap():
    base = np.zeros(10, np.float32)
    check_launch("op", [arg("x", base[:0]), arg("y", base[:0], True)], 0)


# ---- the built library (real cdylib, loaded on this CPU machine; no launch reaches the GPU)

@pytest.fixture(scope="module")
def lib():
    path = build.built_library()
    if not path.exists():
        pytest.skip(f"{path} is not built (./dev setup builds it)")
    return ctypes.CDLL(str(path))


def test_library_reports_the_python_abi(lib):
    lib.tileport_abi_version.restype = ctypes.c_uint32
    assert lib.tileport_abi_version() == abi.ABI_VERSION
    buf = (ctypes.c_uint64 * 64)()
    lib.tileport_abi_layout.restype = ctypes.c_size_t
    n = lib.tileport_abi_layout(buf, 64)
    assert list(buf[:n]) == abi.layout()


def call(lib, op, entry=0, generics=(), tensors=(), scalars=(), grid=(1, 1, 1)):
    fn = getattr(lib, f"tp_{op}")
    fn.argtypes, fn.restype = abi.op_argtypes(), ctypes.c_int32
    descs = (abi.TpTensor * max(1, len(tensors)))(*tensors)
    gen = (ctypes.c_int32 * max(1, len(generics)))(*generics)
    sc = (ctypes.c_double * max(1, len(scalars)))(*scalars)
    c = abi.TpCall(entry=entry, device=0, n_generics=len(generics), n_tensors=len(tensors), n_scalars=len(scalars),
                   generics=ctypes.addressof(gen), tensors=ctypes.addressof(descs), scalars=ctypes.addressof(sc),
                   stream=0, grid=(ctypes.c_uint32 * 3)(*grid))
    err = ctypes.create_string_buffer(1024)
    status = fn(ctypes.addressof(c), ctypes.addressof(err), 1024)
    return abi.STATUS[status][0], err.value.decode()


def desc(dtype="f32", shape=(1024,), strides=(1,)):
    d = abi.TpTensor()
    d.data, d.rank, d.dtype = 0x10000, len(shape), abi.DTYPES[dtype][0]
    d.shape[:len(shape)], d.strides[:len(strides)] = shape, strides
    return d


def test_status_codes_name_the_operator_argument_and_problem(lib):
    ops = json.loads(build.manifest_path().read_text())["ops"]
    assert ops["vector_add"]["status"] == "proven"
    assert call(lib, "vector_add", tensors=[desc()] * 3) == \
        ("BadArgumentCount", "vector_add::vector_add_f32: got 0 generics, 3 tensors, 0 scalars; the entry takes 1, 3, 0")
    status, msg = call(lib, "vector_add", generics=[1024], tensors=[desc(), desc("f16"), desc()])
    assert status == "BadDtype" and "b has dtype code 1, the port takes f32" in msg
    status, msg = call(lib, "vector_add", generics=[1024], tensors=[desc(), desc(shape=(4, 4), strides=(4, 1)),
                                                                   desc()])
    assert status == "BadRank" and "b has rank 2" in msg
    status, msg = call(lib, "vector_add", generics=[1024], tensors=[desc(shape=(1 << 33,)), desc(), desc()])
    assert status == "BadShape" and "beyond i32" in msg
    assert call(lib, "vector_add", entry=7)[0] == "BadEntry"


# ---- generated library sources are current

def test_generated_library_sources_are_current(tmp_path):
    """abi.rs, ffi.rs and ports/mod.rs are regenerated from the committed ports.json: they must equal the files."""
    import shutil

    crate = tmp_path / "crate"
    shutil.copytree(build.crate_dir() / "src", crate / "src")
    manifest = json.loads(build.manifest_path().read_text())
    build.generate(manifest, crate)
    for rel in ("src/abi.rs", "src/ffi.rs", "src/ports/mod.rs"):
        assert (crate / rel).read_text() == (build.crate_dir() / rel).read_text(), \
            f"rust/tileport-ops/{rel} is stale: run `tileport ops build`"
    native = build.crate_dir().parent / "tileport-native" / "src" / "abi.rs"
    assert native.read_text() == build.rust_abi_formatted(exports=False), \
        "rust/tileport-native/src/abi.rs is stale: run `tileport ops build`"


def test_the_library_holds_exactly_the_proven_ports():
    manifest = json.loads(build.manifest_path().read_text())
    on_disk = {p.stem for p in (build.crate_dir() / "src" / "ports").glob("*.rs")} - {"mod"}
    assert on_disk == {n for n, o in manifest["ops"].items() if o["status"] == "proven"}
    for name, op in manifest["ops"].items():
        assert not op["source"].startswith("/"), f"{name}: source path must be repo-relative"


def test_two_processes_building_a_stale_library_build_it_once():
    """Both find the library stale; the file lock lets one build while the other waits, then finds it fresh."""
    import subprocess
    import sys

    stamp = build.built_library().with_name(build.LIB_NAME + ".inputs-sha256")
    if not build.built_library().exists():
        pytest.skip("library not built")
    stamp.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "tileport", "ops", "build", "--if-stale"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=900)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert sum("build: cargo build" in o for o in outs) == 1, outs
    assert sum("nothing to build" in o for o in outs) == 1, outs
    assert build.is_fresh()


def test_a_stale_library_is_refused_when_autobuild_is_off(monkeypatch, tmp_path):
    from tileport.runtime import library

    fake = tmp_path / build.LIB_NAME
    fake.write_bytes(b"not a library")
    monkeypatch.setenv("TILEPORT_LIBRARY", str(fake))
    with pytest.raises(library.StaleLibrary, match="rebuild it with `tileport ops build`"):
        library._open_fresh()
    monkeypatch.delenv("TILEPORT_LIBRARY")
    monkeypatch.setenv("TILEPORT_AUTOBUILD", "0")
    monkeypatch.setattr(build, "inputs_hash", lambda: "something else")
    with pytest.raises(library.StaleLibrary, match="TILEPORT_AUTOBUILD=0 forbids"):
        library._open_fresh()



def test_a_port_is_stale_when_a_helper_it_imports_changes():
    """mla_prefill inlines attention's online_step: the digest its port records covers both files (an edit to
    attention.py makes the mla_prefill port stale too), and the runtime computes the same digest."""
    import hashlib

    from tileport.kernels import KERNELS_DIR
    from tileport.runtime import library
    from tileport.translate.helpers import kernel_files

    src = KERNELS_DIR / "mla_prefill.py"
    assert kernel_files(src, "mla_prefill") == [src, (KERNELS_DIR / "attention.py").resolve()]
    committed = json.loads(build.manifest_path().read_text())["ops"]["mla_prefill"]["source_sha256"]
    assert library._sha256(src, "mla_prefill") == committed != hashlib.sha256(src.read_bytes()).hexdigest()
    vector_add = KERNELS_DIR / "vector_add.py"   # no imported helper: the file's own digest, as before
    assert library._sha256(vector_add, "vector_add") == hashlib.sha256(vector_add.read_bytes()).hexdigest()

def test_op_signatures_are_the_ported_ones():
    """Each op's PORT_SIGNATURES (what its wrapper launches) is what the library was ported at."""
    committed = json.loads(build.manifest_path().read_text())["ops"]
    for name in build.all_ops():
        assert committed[name]["signatures"] == build.op_signatures(name), \
            f"{name}: PORT_SIGNATURES changed since the library was ported: run `tileport ops build --port`"


def test_pack_and_unpack_carry_the_library_its_extension_and_stamp(tmp_path):
    """`tileport ops pack/unpack`: one tar.xz for a GPU host without cargo; the unpacked pair is fresh."""
    import tarfile

    lib = build.built_library()
    if not build.is_fresh(lib) or not build.native_path(lib).exists():
        pytest.skip("library not built")
    packed = build.pack_library(tmp_path / "ops.tar.xz")
    out = build.unpack_library(packed, tmp_path / "lib")
    assert out.read_bytes() == lib.read_bytes()
    assert build.native_path(out).read_bytes() == build.native_path(lib).read_bytes()
    assert build.is_fresh(out)
    with tarfile.open(tmp_path / "partial.tar.xz", "w:xz") as tar:
        tar.add(lib, arcname=lib.name)
    with pytest.raises(build.LibraryBuildError, match="does not hold"):
        build.unpack_library(tmp_path / "partial.tar.xz", tmp_path / "other")


def test_an_unproven_ports_reason_names_the_stage_and_the_failing_variant():
    """`tileport ops build` says why a port is unproven: an irgen failure sits in the irdiff variant, not in the
    stage (it used to come out as "[]")."""
    irdiff = {"ok": False, "differences": [], "variants": [
        {"symbol": "k_ok", "equivalent": True},
        {"symbol": "k_bf16", "equivalent": False, "error": "irgen k failed: cutile could not compile k"}]}
    assert build.failure_reason("irdiff", irdiff) == "irdiff: k_bf16: irgen k failed: cutile could not compile k"
    diff = {"ok": False, "variants": [{"symbol": "k", "equivalent": False, "differences": [{"kind": "op"}]}]}
    assert build.failure_reason("irdiff", diff) == 'irdiff: k: [{"kind": "op"}]'
    assert build.failure_reason("translate", {"ok": False, "error": "k.py:3:5: no"}) == "translate: k.py:3:5: no"
