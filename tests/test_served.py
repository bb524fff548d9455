"""The launch backend's library, built on this CPU machine from real ports: `tileport ops build --from` over two
ports of kernels with one name in different files (they stay apart), loaded as a served library (no launch reaches
a GPU), and the launch backend's install, policy and refusals. Launches themselves run on the GPU
(tests/gpu/test_served_gpu.py)."""
from __future__ import annotations

import ctypes
import json

import pytest

from tileport.errors import BackendError, InputError
from tileport.examples import EXAMPLES_DIR

SCALE = """import cuda.tile as ct


@ct.kernel
def scale(x, y, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=t * {factor})
"""
SIG = "x=f32[?]/1, y=f32[?]/1, TILE=#256"
SEEDED = """import cuda.tile as ct


@ct.kernel
def seeded(x, y, SEED: ct.Constant[int], TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    noise = ct.astype(ct.full((TILE,), SEED, dtype=ct.int32) ^ ct.arange(TILE, dtype=ct.int32), ct.float32)
    ct.store(y, index=(bid,), tile=t + noise)
"""
SEEDED_SIG = "x=f32[?]/1, y=f32[?]/1, SEED=#12345, TILE=#256"
LISTS_SIG = ("Xs=list[f16[?,?]/?%8,1&16], Ws=list[f16[?,?]/?%8,1&16], Ys=list[f16[?,?]/?%8,1&16], BM=#64, BN=#64, "
             "BK=#32, NB=#132")


@pytest.fixture(scope="module")
def served(tmp_path_factory, tree):
    """Two `scale` kernels (files a/ and b/ of one corpus), ported in one batch, and the library built from them."""
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.pipeline.port import port_many
    from tileport.runtime.served import build_served
    from tileport.spec.signature import bind, parse

    root = tmp_path_factory.mktemp("served")
    jobs = []
    for sub, factor in (("a", "2.0"), ("b", "3.0"), ("pkg", "1.0")):
        src = root / "corpus" / sub / "ops.py"
        src.parent.mkdir(parents=True)
        src.write_text(SCALE.format(factor=factor))
        if sub == "pkg":   # a package whose kernel calls an undecorated helper of a sibling module
            (src.parent / "__init__.py").write_text("")
            (src.parent / "helpers.py").write_text("def twice(v):\n    return v * 2.0\n")
            src.write_text("from .helpers import twice\n" + src.read_text().replace("tile=t * 1.0", "tile=twice(t)"))
        k = load_kernel(f"{src}::scale")
        # b/ is also launched through `scale.replace_hints(occupancy=2)` (an autotuner's pick): a variant of its own
        array = {"kind": "array", "dtype": "f32", "shape": [1024], "strides": [1], "data_ptr_mod_16": 0}
        picked = [{"signature": SIG, "grid": [4, 1, 1], "count": 1, "hints": {"occupancy": 2, "opt_level": 3},
                   "args": [dict(array, name="x"), dict(array, name="y"),
                            {"name": "TILE", "kind": "constant", "value": 256}]}]
        jobs.append((k.ref, [bind(parse(SIG), k.param_names, "scale")], picked if sub == "b" else [],
                     root / "ports" / sub))
    lists = load_kernel(f"{EXAMPLES_DIR / 'real_lists.py'}::real_lists")   # lists of arrays: descriptor tables
    jobs.append((lists.ref, [bind(parse(LISTS_SIG), lists.param_names, "real_lists")], [], root / "ports" / "lists"))
    seeded = root / "corpus" / "seeded" / "ops.py"   # a constant used only as a value: one entry at any value
    seeded.parent.mkdir(parents=True)
    seeded.write_text(SEEDED)
    k = load_kernel(f"{seeded}::seeded")
    jobs.append((k.ref, [bind(parse(SEEDED_SIG), k.param_names, "seeded")], [], root / "ports" / "seeded"))
    verdicts = port_many(jobs, tree, "sm_90", root / "work")
    assert [v["status"] for v in verdicts] == ["proven"] * 5
    result = build_served(root / "ports", root / "lib", root / "corpus")
    return root, result


def test_a_served_library_holds_each_proven_port_under_its_own_id(served):
    root, result = served
    manifest = json.loads((root / "lib" / "ports.json").read_text())
    assert sorted(op["source"] for op in manifest["ops"].values() if op["kernel"] == "scale") == [
        "a/ops.py", "b/ops.py", "pkg/ops.py"]
    assert len(result["kernels"]) == 5 and set(result["kernels"].values()) == {"scale", "real_lists", "seeded"}
    for name in ("libtileport_served.so", "libtileport_native.so"):
        assert (root / "lib" / name).is_file()
    # the served crate carries the direct launch as the operator library does (rust/tileport-ops/src/direct.rs)
    dll = ctypes.CDLL(str(root / "lib" / "libtileport_served.so"))
    assert hasattr(dll, "tileport_direct_launch") and hasattr(dll, "tileport_direct_stats")


def test_the_library_finds_a_kernel_by_name_and_file(served):
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.runtime.library import Library

    root, _ = served
    lib = Library(root / "lib" / "libtileport_served.so")
    assert lib.served
    a = load_kernel(f"{root / 'corpus' / 'a' / 'ops.py'}::scale").kernel
    b = load_kernel(f"{root / 'corpus' / 'b' / 'ops.py'}::scale").kernel
    ta, tb = lib.table(a), lib.table(b)
    assert ta.op != tb.op and ta.op.startswith("scale_") and ta.fn is not tb.fn
    assert lib.ops[ta.op]["source"] == "a/ops.py" and len(ta.variants) == 1
    other = root / "elsewhere" / "ops.py"
    other.parent.mkdir()
    other.write_text(SCALE.format(factor="4.0"))
    with pytest.raises(BackendError, match=r"has no port of scale from .*elsewhere/ops.py .*tileport ops build --from"):
        lib.table(load_kernel(f"{other}::scale").kernel)


def test_install_replaces_ct_launch_and_uninstall_gives_it_back(served):
    import cuda.tile as ct

    from tileport.runtime import intercept

    root, _ = served
    plain = ct.launch
    with intercept.rust_launches(root / "lib") as active:
        assert ct.launch is active.entry and intercept.stats()["installed"]
        assert type(active.launcher).__name__ == "Dispatch"   # the native dispatcher, handing misses to `active`
        assert active.original is plain and not active.fallback
    assert ct.launch is plain and intercept.active() is None


def test_an_unported_kernel_is_refused_or_falls_back_counted(served, tmp_path):
    """No silent fallback: without the policy, the launch raises naming the kernel and the command; with it, the
    cuTile Python launch runs instead (here: a recorder standing for it), logged and counted."""
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.runtime import intercept
    from tileport.runtime.library import Library

    root, _ = served
    src = tmp_path / "other.py"
    src.write_text(SCALE.format(factor="5.0"))
    kernel = load_kernel(f"{src}::scale").kernel
    ran = []
    strict = intercept.Interceptor(Library(root / "lib" / "libtileport_served.so"), False, lambda *a: ran.append(a))
    with pytest.raises(BackendError, match="has no port of scale"):
        strict(0, (4,), kernel, (None, None, 256))
    lenient = intercept.Interceptor(strict.library, True, lambda *a, **k: ran.append((a, k)))
    lenient(0, (4,), kernel, (None, None, 256))
    lenient(0, (4,), kernel, (None, None, 256))
    assert len(ran) == 2 and sum(lenient.fallbacks.values()) == 2 and not lenient.rust
    # through the native dispatcher (what ct.launch is once installed): a kernel it holds no plan of, with or without
    # launch options, reaches the interceptor with the arguments exactly as given
    with pytest.raises(BackendError, match="has no port of scale"):
        strict.entry(0, (4,), kernel, (None, None, 256))
    lenient.entry(0, 4, kernel, [None, None, 256])
    lenient.entry(0, (4, 1), kernel, (None, None, 256), programmatic_dependent_launch=True)
    assert ran[2] == ((0, (4, 1, 1), kernel, (None, None, 256)), {})
    assert ran[3] == ((0, (4, 1), kernel, (None, None, 256)), {"programmatic_dependent_launch": True})
    assert sum(lenient.fallbacks.values()) == 4 and not lenient.launcher.counts()


@pytest.mark.parametrize("given, match", [("nowhere", "not a served library"), (None, "no served library")])
def test_install_without_a_served_library_says_what_to_build(given, match, monkeypatch):
    from tileport.runtime import intercept

    monkeypatch.delenv(intercept.ENV_LIBRARY, raising=False)
    with pytest.raises(InputError, match=match):
        intercept.install(given)


def test_a_kernel_whose_helper_only_resolution_finds_is_fresh_at_launch(served):
    """The runtime digests a kernel's files as its port did (helpers found through the function's resolved names):
    an undecorated helper imported from a sibling module counts, so the port is not taken for stale (it was, on the
    H200, for TileGym's geglu kernels)."""
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.runtime import library
    from tileport.translate.helpers import kernel_files

    root, _ = served
    src = root / "corpus" / "pkg" / "ops.py"
    k = load_kernel(f"{src}::scale")
    recorded = json.loads((root / "lib" / "ports.json").read_text())
    (op,) = [o for o in recorded["ops"].values() if o["source"] == "pkg/ops.py"]
    assert len(kernel_files(src, "scale", k.pyfunc)) == 2 and len(kernel_files(src, "scale")) == 1
    assert library._sha256(src, "scale", k.pyfunc) == op["source_sha256"]


def test_tileport_run_runs_a_script_or_module_as_main(served, tmp_path):
    """`tileport run` runs the host program in its own process as Python would (script or -m, its argv), with the
    backend installed; a program that launches nothing ends with zero launches counted and its own exit code."""
    from conftest import run_tileport

    root, _ = served
    host = tmp_path / "host.py"
    host.write_text("import sys\nimport cuda.tile as ct\nprint('argv', sys.argv[1:], type(ct.launch.__self__).__name__)\n"
                    "sys.exit(int(sys.argv[1]))\n")
    r = run_tileport("run", "--library", str(root / "lib"), "--stats", str(tmp_path / "s.json"), "--", "python",
                     str(host), "3")
    assert r.returncode == 3 and "argv ['3'] Dispatch" in r.stdout and "0 launch(es)" in r.stderr, r.stderr
    assert json.loads((tmp_path / "s.json").read_text())["rust"] == {}
    (tmp_path / "hostmod.py").write_text("print('module', __name__)\n")
    r = run_tileport("run", "--library", str(root / "lib"), "--", "python", "-m", "hostmod", cwd=tmp_path)
    assert r.returncode == 0 and "module __main__" in r.stdout, r.stderr


class _Tensor:
    """What the launch path reads of a torch tensor (no torch here): dtype, shape, strides, data pointer."""

    def __init__(self, n: int):
        self.dtype, self.shape = "float32", (n,)

    def dim(self):
        return 1

    def stride(self):
        return (1,)

    def data_ptr(self):
        return 0x10000

    device = type("Device", (), {"type": "cuda", "index": 0})()


def test_a_launch_at_other_hints_runs_only_a_port_proven_at_them(served):
    """`kernel.replace_hints(occupancy=2)` launches run the variant ported (and proven) at occupancy 2, whose plan
    sets it as cutile's compile option; the decorator's launches run the other; a launch at hints no capture saw is
    refused, naming the hints launched and those ported."""
    import types

    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.runtime import library

    root, _ = served
    lib = library.Library(root / "lib" / "libtileport_served.so")
    b = load_kernel(f"{root / 'corpus' / 'b' / 'ops.py'}::scale").kernel
    variants = [v for vs in lib.table(b).variants.values() for v in vs]
    assert sorted(v.hints for v in variants) == [(), (("occupancy", 2),)]
    torch = types.SimpleNamespace(Tensor=_Tensor)
    args = (_Tensor(1024), _Tensor(1024), 256)
    for kernel, hints in ((b, ()), (b.replace_hints(occupancy=2), (("occupancy", 2),))):
        st = library._state(kernel, lib)
        assert st.hints == hints
        library._plan(st, args, torch)   # (a plan for the variant at these hints)
        assert [key[1] for key in st.plans] == [SIG]
    with pytest.raises(BackendError, match=r"at the hints it is launched with \(occupancy=4, through kernel.replace_"
                                           r"hints\); ported at: occupancy=2; the decorator's"):
        library._plan(library._state(b.replace_hints(occupancy=4), lib), args, torch)
    a = load_kernel(f"{root / 'corpus' / 'a' / 'ops.py'}::scale").kernel
    with pytest.raises(BackendError, match=r"\(occupancy=2, through .*ported at: the decorator's\."):
        library._plan(library._state(a.replace_hints(occupancy=2), lib), args, torch)


def test_a_launch_no_port_holds_for_an_ownership_rule_is_refused_by_that_rule(served):
    """A broadcast output (stride 0: every element one address) fits no port's signature (`y=f32[?]/1`); the launch
    is refused by the ownership rule it breaks, which says what to pass, not as a specialization never ported (the
    GPU run of 2026-12-07 met the second message in test_runtime_gpu's broadcast test)."""
    import types

    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.runtime import library
    from tileport.runtime.checks import OwnershipError

    class Broadcast(_Tensor):
        def stride(self):
            return (0,)

    root, _ = served
    lib = library.Library(root / "lib" / "libtileport_served.so")
    st = library._state(load_kernel(f"{root / 'corpus' / 'a' / 'ops.py'}::scale").kernel, lib)
    torch = types.SimpleNamespace(Tensor=_Tensor, _C=types.SimpleNamespace(_cuda_getDevice=lambda: 0))
    with pytest.raises(OwnershipError, match="output y .* share memory"):
        library._plan(st, (_Tensor(1024), Broadcast(1024), 256), torch)


def test_a_list_of_arrays_crosses_as_its_descriptor_table(served):
    """A kernel taking lists of arrays (`Xs, Ws, Ys`) is served: each list crosses the C ABI as its descriptor table
    (an i64 tensor [items, 1 + 2 rank]: base, extents, strides), whose address and row count the entry takes. The
    library checks the table's form before anything reaches a device."""
    import ctypes

    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.runtime import abi
    from tileport.runtime.library import Library

    root, _ = served
    assert "list Xs: i64[2] = t[0],\n            length Xs_len: i32 = t[0]," in (
        root / "lib" / "crate" / "src" / "ffi.rs").read_text()
    lib = Library(root / "lib" / "libtileport_served.so")
    table = lib.table(load_kernel(f"{EXAMPLES_DIR / 'real_lists.py'}::real_lists").kernel)
    assert table.lists == (0, 1, 2)

    def call(words):
        descs = (abi.TpTensor * 3)(*[abi.TpTensor(data=0x1000, rank=2, dtype=abi.DTYPES["i64"][0],
                                                  shape=(ctypes.c_int64 * 8)(3, words),
                                                  strides=(ctypes.c_int64 * 8)(words, 1)) for _ in range(3)])
        gen = (ctypes.c_int32 * 4)(64, 64, 32, 132)
        c = abi.TpCall(entry=0, device=0, n_generics=4, n_tensors=3, n_scalars=0, generics=ctypes.addressof(gen),
                       tensors=ctypes.addressof(descs), scalars=0, stream=0, grid=(ctypes.c_uint32 * 3)(132, 1, 1))
        err = ctypes.create_string_buffer(1024)
        status = table.fn(ctypes.addressof(c), ctypes.addressof(err), 1024)
        return abi.STATUS[status][0], err.value.decode()

    status, message = call(4)
    assert status == "BadShape" and "Xs: a list's descriptor table is an i64 tensor of [items, 5]" in message
    status, message = call(5)
    assert status != "BadShape", message   # (the table is taken; on this machine the device is what is missing)


def test_a_factory_made_kernel_is_left_out_of_the_served_library_with_why(tmp_path):
    """A proven port of a kernel a factory made (FILE::NAME@LINE~DIGEST, by its def line and closure) is not served
    yet: the launch backend looks kernels up by function name and file, and NAME@LINE is no Rust identifier."""
    from tileport.runtime.served import collect

    d = tmp_path / "ports" / "k"
    d.mkdir(parents=True)
    (d / "verdict.json").write_text(json.dumps({"status": "proven"}))
    (d / "port.json").write_text(json.dumps({"kernel": f"{tmp_path}/ops.py::scaled@6~25e4edc0"}))
    (d / "kernel.rs").write_text("")
    ops, skipped = collect(tmp_path / "ports")
    assert not ops and skipped[0]["kernel"] == "scaled@6~25e4edc0" and "a factory made" in skipped[0]["why"]


def test_a_value_generic_constant_runs_its_entry_at_any_value(served):
    """`SEED` fills a tile and nothing else: the port is proven at the captured value and at a second one no launch
    had (a synthetic variant, said so in port.json), and the served library launches its entry at any i32 value of
    it (TileGym's dropout draws its seed per call) — the generics carry the launch's value. A value beyond i32 is
    not taken (cuTile Python's constant would not fit the entry's i32 generic)."""
    import types

    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.runtime import library

    root, _ = served
    port = json.loads((root / "ports" / "seeded" / "port.json").read_text())
    (entry, abi_entry), = port["abi"].items()
    assert abi_entry["value_generic"] == ["SEED"] and "value_candidates" not in abi_entry
    assert [v["generics"][0] for v in port["variants"]] == ["12345", "12352"]
    assert "no launch had" in port["variants"][1]["synthetic"] and "synthetic" not in port["variants"][0]
    lib = library.Library(root / "lib" / "libtileport_served.so")
    kernel = load_kernel(f"{root / 'corpus' / 'seeded' / 'ops.py'}::seeded").kernel
    table = lib.table(kernel)
    assert table.value_generic == {"SEED"}
    torch = types.SimpleNamespace(Tensor=_Tensor)
    st = library._state(kernel, lib)
    for seed in (12345, -7, 2**31 - 1):
        library._plan(st, (_Tensor(1024), _Tensor(1024), seed, 256), torch)
    assert sorted(key[2] for key in st.plans) == [(-7, 256), (12345, 256), (2**31 - 1, 256)]
    for seed in range(library.PLANS_PER_KERNEL + 5):   # a seed per call: the plans start over, never grow on
        library._plan(st, (_Tensor(1024), _Tensor(1024), seed, 256), torch)
    assert len(st.plans) <= library.PLANS_PER_KERNEL
    with pytest.raises(BackendError, match=r"no proven port of seeded for this launch \(x=f32, y=f32, SEED=2147483648"):
        library._plan(st, (_Tensor(1024), _Tensor(1024), 2**31, 256), torch)
    with pytest.raises(BackendError, match="no proven port of seeded"):
        library._plan(st, (_Tensor(1024), _Tensor(1024), 12345, 512), torch)   # TILE is no value-generic


def test_a_second_value_that_does_not_prove_leaves_the_constant_per_value(served, tmp_path, tree):
    """Should the variant at the second value not prove, the port is translated again without it: the constant
    stays per value (no `value_generic`), and the verdict says what was dropped and why."""
    import shutil

    from tileport.pipeline.port import _again

    root, _ = served
    out = tmp_path / "seeded"
    shutil.copytree(root / "ports" / "seeded", out)
    verdict = {"stages": {"translate": {"ok": True}, "build": {"ok": True},
                          "irdiff": {"ok": False, "variants": [{"symbol": "s2", "equivalent": False, "error": "boom"}]}}}
    assert _again(verdict, out, tree, lambda s: None)
    spec = json.loads((out / "spec.json").read_text())
    assert [v.get("synthetic") for v in spec["variants"]] == [None]
    (abi_entry,) = json.loads((out / "port.json").read_text())["abi"].values()
    assert "value_generic" not in abi_entry and abi_entry["value_candidates"] == ["SEED"]
    assert verdict["stages"]["translate"]["value_generic"]["why"] == "s2: boom" and "irdiff" not in verdict["stages"]
