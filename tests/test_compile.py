"""The real pipeline on the CPU: cuda-tile export → tileirdisasm → tileiras cubin for sm_90."""
import pytest

from tileport.kernels import vector_add as ex
from tileport.frontends.cutile_py.compile import compile_kernel
from tileport.frontends.cutile_py.loader import KernelLoadError, load_kernel
from tileport.spec.signature import bind, parse
from tileport.toolchain.cubin import cubin_arch

from conftest import run_tileport


def test_vector_add_compiles_to_ir_and_sm90_cubin(tree, tmp_path):
    k = load_kernel(f"{ex.__file__}::vector_add")
    assert k.param_names == ["a", "b", "c", "TILE"]
    sig = bind(parse("f32[?]/1, f32[?]/1, f32[?]/1, #256"), k.param_names, k.name)
    out = compile_kernel(k, sig, tree, tmp_path, "sm_90")
    assert out.bytecode.read_bytes()[:8] == b"\x7fTileIR\x00"
    ir = out.disasm.read_text()
    assert f"entry @{out.symbol}(" in ir
    assert ir.count("load_view_tko") == 2 and ir.count("store_view_tko") == 1
    assert "tile=(256)" in ir and "addf" in ir
    assert cubin_arch(out.cubin) == "sm_90"


def test_other_arch_and_no_cubin(tree, tmp_path):
    k = load_kernel(f"{ex.__file__}::vector_add")
    sig = bind(parse(ex.DEMO_SIGNATURE), k.param_names, k.name)
    assert cubin_arch(compile_kernel(k, sig, tree, tmp_path / "a", "sm_100").cubin) == "sm_100"
    assert compile_kernel(k, sig, tree, tmp_path / "b", None).cubin is None


def test_load_errors_name_the_problem(tmp_path):
    with pytest.raises(KernelLoadError, match="expected FILE.py::KERNEL"):
        load_kernel("nope.py")
    with pytest.raises(KernelLoadError, match="no such file"):
        load_kernel(f"{tmp_path}/missing.py::k")
    with pytest.raises(KernelLoadError, match=r"'nothing' is not defined; kernels in this file: vector_add"):
        load_kernel(f"{ex.__file__}::nothing")
    with pytest.raises(KernelLoadError, match="is a str, not a @ct.kernel"):
        load_kernel(f"{ex.__file__}::DEMO_SIGNATURE")
    bad = tmp_path / "bad.py"
    bad.write_text("import does_not_exist_anywhere\nraise RuntimeError('no GPU in this host code')\n")
    with pytest.raises(KernelLoadError, match="importing it failed: RuntimeError: no GPU in this host code"):
        load_kernel(f"{bad}::k")


HOST_ONLY = """
import cuda.tile as ct
import host_only_pkg_not_here as hp
import host_only_pkg_not_here.nn.functional as F
from host_only_pkg_not_here import Tensor
from other_missing_host_pkg.utils import helper

DTYPES = {hp.float16: "f16", hp.bfloat16: "bf16"}
ON_GPU = hp.cuda.is_available()


@ct.kernel
def vector_add(a, b, c, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    a_t = ct.astype(ct.load(a, index=(bid,), shape=(TILE,)), hp.float32)
    ct.store(c, index=(bid,), tile=a_t + ct.astype(ct.load(b, index=(bid,), shape=(TILE,)), hp.float))


@ct.kernel
def reads_host(a, TILE: ct.Constant[int]):
    ct.store(a, index=(0,), tile=ct.full((TILE,), hp.finfo(hp.float16).max, dtype=ct.float32))


class _Add(hp.autograd.Function, hp.nn.Module):
    @staticmethod
    def forward(ctx, a: Tensor, b: Tensor) -> Tensor | None:
        return F.relu(a) + helper(b)


add = _Add.apply


@hp.library.custom_op("x::add", mutates_args=())
def add_op(a: Tensor) -> Tensor:
    return a


@add_op.register_fake
def _(a):
    return a
"""


def test_host_packages_not_installed_are_stood_in(tree, tmp_path):
    """A kernel's module importing host-side packages that are not installed here (torch on a CPU-only machine)
    loads: each such package stands in as placeholders, the kernel compiles, the packages are named, and the
    stand-ins are gone from sys.modules afterwards; a kernel body reading one fails to compile, naming it."""
    import sys

    src = tmp_path / "host_only.py"
    src.write_text(HOST_ONLY)
    k = load_kernel(f"{src}::vector_add")
    assert k.absent == ("host_only_pkg_not_here", "other_missing_host_pkg")
    assert not any(m.split(".")[0] in k.absent for m in sys.modules)
    sig = bind(parse(ex.DEMO_SIGNATURE), k.param_names, k.name)
    assert "addf" in compile_kernel(k, sig, tree, tmp_path / "o", None).disasm.read_text()
    r = run_tileport("compile", f"{src}::reads_host", "--sig", "f32[?]/1, #16", "--out", str(tmp_path / "o2"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "reads a name from host_only_pkg_not_here or other_missing_host_pkg, which is not installed here" \
        in r.stderr and "host_only.py\", line 21" in r.stderr, r.stderr


def test_cli_compile_json(tmp_path):
    import json

    r = run_tileport("compile", f"{ex.__file__}::vector_add", "--sig", ex.DEMO_SIGNATURE, "--sig",
                     "f32[?]/1, f32[?]/1, f32[?]/1, #128", "--out", str(tmp_path), "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert len(data["variants"]) == 2 and data["arch"] == "sm_90"
    assert {v["symbol"].rsplit("_", 1)[-1] for v in data["variants"]} == {"I1024", "I128"}


def test_cli_compile_bad_signature_exits_2(tmp_path):
    r = run_tileport("compile", f"{ex.__file__}::vector_add", "--sig", "f32[?], f32[?]", "--out", str(tmp_path))
    assert r.returncode == 2
    assert "vector_add takes 4 parameters (a, b, c, TILE), the signature gives 2" in r.stderr
    assert "Traceback" not in r.stderr


def test_static_shapes_use_calling_convention_v2(tree, tmp_path):
    k = load_kernel(f"{ex.__file__.replace('vector_add', 'row_softmax')}::row_softmax")
    sig = bind(parse("f32[?,1024]/?,1, f32[?,1024]/?,1, #1, #1024"), k.param_names, k.name)
    out = compile_kernel(k, sig, tree, tmp_path, None)
    assert "_Kt2_" in out.symbol and "s1024" in out.symbol


def test_cuda_tile_rejection_is_reported_with_the_source_line(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import cuda.tile as ct\n\n@ct.kernel\ndef k(x, T: ct.Constant[int]):\n"
                   "    t = ct.load(x, index=(ct.bid(0),), shape=(T, T))\n"
                   "    ct.store(x, index=(ct.bid(0),), tile=t)\n")
    r = run_tileport("compile", f"{bad}::k", "--sig", "f32[?]/1, #16", "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "cuda-tile rejected it" in r.stderr and f'"{bad}", line 5' in r.stderr
    assert "Expected shape length to be 1, got 2" in r.stderr


def test_module_asking_for_the_gpu_at_import_loads_under_the_emulation(tree, tmp_path):
    """Host code that queries the GPU at import time (SM count, a CUDA scratch tensor) fails without one; the
    kernel's module is then imported under the capture's CUDA emulation and the kernel compiles."""
    torch = pytest.importorskip("torch", reason="the module's host code imports torch; not installed here")
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: the module imports as it is")
    src = tmp_path / "asks_gpu.py"
    src.write_text("import cuda.tile as ct\nimport torch\n\n"
                   "NUM_SMS = torch.cuda.get_device_properties('cuda').multi_processor_count\n"
                   "SCRATCH = torch.empty(16, device='cuda')\n\n"
                   "@ct.kernel\ndef double(x, y, TILE: ct.Constant[int]):\n"
                   "    ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(TILE,)) * 2)\n")
    k = load_kernel(f"{src}::double")
    assert k.cuda_emulated and k.absent == ()
    assert not torch.cuda.is_available()   # the emulation ended with the import
    sig = bind(parse("f32[?]/1, f32[?]/1, #256"), k.param_names, k.name)
    assert "mulf" in compile_kernel(k, sig, tree, tmp_path / "o", None).disasm.read_text()


def test_a_kernel_file_imports_its_sibling_modules(tree, tmp_path):
    """A standalone kernel file importing a helper module beside it (`from helpers import twice`) loads as under
    `python FILE` — its folder first on sys.path while it imports, not after — and the helper is not taken for a
    package missing here."""
    import sys

    (tmp_path / "helpers_beside.py").write_text(
        "import cuda.tile as ct\n\n@ct.function\ndef twice(t):\n    return t * 2\n")
    (tmp_path / "uses_sibling.py").write_text(
        "import cuda.tile as ct\nfrom helpers_beside import twice\n\n@ct.kernel\n"
        "def k(x, y, TILE: ct.Constant[int]):\n"
        "    ct.store(y, index=(ct.bid(0),), tile=twice(ct.load(x, index=(ct.bid(0),), shape=(TILE,))))\n")
    k = load_kernel(f"{tmp_path / 'uses_sibling.py'}::k")
    assert k.absent == () and str(tmp_path) not in sys.path
    sig = bind(parse("f32[?]/1, f32[?]/1, #256"), k.param_names, k.name)
    assert "mulf" in compile_kernel(k, sig, tree, tmp_path / "o", None).disasm.read_text()


def test_a_kernel_whose_packages_init_refuses_this_host_loads_past_it(tree, tmp_path):
    """A kernel module inside a package whose `__init__` refuses to import here (a host framework's version check:
    `transformers>=5.3 is required`) is imported with that `__init__` left unrun — its own relative imports still
    resolve — and the bare package it stood on leaves sys.modules."""
    import sys

    pkg = tmp_path / "src" / "hostpkg_v" / "kernels"
    pkg.mkdir(parents=True)
    (tmp_path / "src" / "hostpkg_v" / "__init__.py").write_text(
        "raise ImportError('hostframework>=5.3.0 is required (got 4.0)')\n")
    (pkg / "__init__.py").write_text("")
    (pkg / "util.py").write_text("import cuda.tile as ct\n\n@ct.function\ndef twice(t):\n    return t * 2\n")
    (pkg / "scale.py").write_text(
        "import cuda.tile as ct\nfrom .util import twice\n\n@ct.kernel\n"
        "def k(x, y, TILE: ct.Constant[int]):\n"
        "    ct.store(y, index=(ct.bid(0),), tile=twice(ct.load(x, index=(ct.bid(0),), shape=(TILE,))))\n")
    k = load_kernel(f"{pkg / 'scale.py'}::k")
    assert "hostpkg_v" not in sys.modules and "hostpkg_v.kernels" not in sys.modules
    sig = bind(parse("f32[?]/1, f32[?]/1, #256"), k.param_names, k.name)
    assert "mulf" in compile_kernel(k, sig, tree, tmp_path / "o", None).disasm.read_text()
