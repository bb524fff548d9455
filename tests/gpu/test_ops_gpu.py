"""On a GPU: every op wrapper, each dtype, shape case and backend, into a poisoned output, against its float64
reference; the backends agree bit for bit; the backend switch (backend=, TILEPORT_BACKEND) is honoured; every
launch a wrapper makes is one of its PORT_SIGNATURES; bad inputs are refused with ValueError."""
from __future__ import annotations

import inspect
import zlib

import pytest

from tileport.errors import TileportError
from tileport.ops import BackendError, set_backend
from tileport.ops import _common as C
from tileport.ops.registry import NAMES, OPS, wrapper

pytestmark = pytest.mark.gpu

BACKENDS = ("cutile", "cutile-rs")
#: small and ragged for correctness; mid reaches the tile choices the others do not (e.g. a 4096-wide row).
CASES = ("small", "ragged", "mid")


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch", reason="torch is needed to allocate GPU tensors")


@pytest.fixture(autouse=True)
def _no_global_backend():
    set_backend(None)
    yield
    set_backend(None)


def _seed(torch, *parts: str) -> None:
    torch.manual_seed(zlib.crc32("/".join(parts).encode()))


def _cases():
    for name in NAMES:
        for dtype in OPS[name].DTYPES:
            for case in CASES:
                for backend in BACKENDS:
                    yield pytest.param(name, dtype, case, backend, id=f"{name}-{dtype}-{case}-{backend}")


def _run(torch, name, dtype, case, backend):
    """(result, the poisoned out= it was to be written into, float64 reference) of one op call."""
    mod = OPS[name]
    args, kwargs = mod.sample_inputs(case, dtype, "cuda")
    expected = mod.reference(*args, **kwargs)
    out = C.poisoned(expected.shape, C.result_dtype(mod, args, kwargs), "cuda")
    got = wrapper(name)(*args, **kwargs, backend=backend, out=out)
    torch.cuda.synchronize()
    return got, out, expected


@pytest.mark.parametrize("name, dtype, case, backend", list(_cases()))
def test_op_matches_reference(torch, name, dtype, case, backend):
    _seed(torch, name, dtype, case)
    got, out, expected = _run(torch, name, dtype, case, backend)
    assert got is out, f"{name}: the result must be the out= tensor"
    rtol, atol = OPS[name].tolerance(dtype)
    torch.testing.assert_close(got.to(torch.float64), expected, rtol=rtol, atol=atol,
                               msg=lambda m: f"{name} [{dtype}, {case}, backend={backend}] vs float64 reference: {m}")


@pytest.mark.parametrize("name", NAMES)
def test_op_allocates_its_output(torch, name):
    mod = OPS[name]
    dtype = mod.DTYPES[0]
    _seed(torch, name, "alloc")
    args, kwargs = mod.sample_inputs("ragged", dtype, "cuda")
    got = wrapper(name)(*args, **kwargs, backend="cutile")
    expected = mod.reference(*args, **kwargs)
    assert got.device == args[0].device and got.dtype == C.result_dtype(mod, args, kwargs) and \
        got.shape == expected.shape
    rtol, atol = mod.tolerance(dtype)
    torch.testing.assert_close(got.to(torch.float64), expected, rtol=rtol, atol=atol,
                               msg=lambda m: f"{name} [{dtype}, ragged, out=None]: {m}")


@pytest.mark.parametrize("name, dtype", [(n, d) for n in NAMES for d in OPS[n].DTYPES])
def test_backends_agree(torch, name, dtype):
    """Same inputs, same results within the op's tolerance. Not bit-for-bit in general: the port is proven
    IR-identical at cuTile Python's specialization, but cutile's runtime specializes on more divisibility facts
    (a power of two up to 16 instead of 16-or-1; docs/runtime.md), and on ragged rows the compiled reduction can
    then round differently in the last bit. The bits do agree where both see the same facts (tile-sized shapes)."""
    mod = OPS[name]
    for case in ("small", "ragged"):
        _seed(torch, name, dtype, case, "agree")
        args, kwargs = mod.sample_inputs(case, dtype, "cuda")
        py = wrapper(name)(*args, **kwargs, backend="cutile")
        rs = wrapper(name)(*args, **kwargs, backend="cutile-rs")
        torch.cuda.synchronize()
        rtol, atol = (0.0, 0.0) if case == "small" else mod.tolerance(dtype)
        torch.testing.assert_close(rs, py, rtol=rtol, atol=atol, equal_nan=True,
                                   msg=lambda m: f"{name} [{dtype}, {case}]: cutile-rs differs from cutile: {m}")


@pytest.mark.parametrize("name", NAMES)
def test_unknown_backend_raises(torch, name):
    mod = OPS[name]
    args, kwargs = mod.sample_inputs("small", mod.DTYPES[0], "cuda")
    with pytest.raises(BackendError, match="nope"):
        wrapper(name)(*args, **kwargs, backend="nope")


def test_environment_picks_the_backend(torch, monkeypatch):
    from tileport.ops import current_backend
    from tileport.ops import vector_add as op

    _seed(torch, "env")
    args, kwargs = op.sample_inputs("ragged", "float32", "cuda")
    expected = op.reference(*args)
    monkeypatch.setenv("TILEPORT_BACKEND", "nope")
    with pytest.raises(BackendError, match="TILEPORT_BACKEND"):
        op.vector_add(*args)
    torch.testing.assert_close(op.vector_add(*args, backend="cutile").double(), expected)  # the call's choice wins
    for name in BACKENDS:
        monkeypatch.setenv("TILEPORT_BACKEND", name)
        assert current_backend() == name
        torch.testing.assert_close(op.vector_add(*args).double(), expected, msg=lambda m: f"{name}: {m}")
    set_backend("cutile")
    monkeypatch.setenv("TILEPORT_BACKEND", "nope")
    assert current_backend() == "cutile"  # set_backend wins over the environment
    torch.testing.assert_close(op.vector_add(*args).double(), expected)


@pytest.mark.parametrize("name", NAMES)
def test_launches_are_port_signatures(torch, name, monkeypatch):
    """Whatever a wrapper launches for any case is one of the PORT_SIGNATURES of the op owning that kernel (its own,
    or another op's whose kernel it reuses, e.g. a split-KV decode's combine step); else the Rust library lacks it."""
    from tileport.frontends.cutile_py.capture import constant_params
    from tileport.ops import _backend
    from tileport.spec import signature as sigmod

    mod = OPS[name]
    launched = []
    monkeypatch.setattr(_backend, "launch", lambda grid, kernel, args, backend=None: launched.append((kernel, args)))
    for dtype in mod.DTYPES:
        for case in C.CASES:
            _seed(torch, name, dtype, case, "sig")
            args, kwargs = mod.sample_inputs(case, dtype, "cuda")
            wrapper(name)(*args, **kwargs)
            del args, kwargs
    assert launched, f"{name} launched nothing"
    for kernel, args in launched:
        kname = kernel._pyfunc.__name__
        owner = OPS[kname] if kname in NAMES else mod
        names, consts = list(inspect.signature(kernel._pyfunc).parameters), constant_params(kernel)
        allowed = {sigmod.parse(s).text() for s in owner.PORT_SIGNATURES}
        parts = []
        for pname, value in zip(names, args):
            if pname in consts:
                parts.append(f"{pname}=#{str(value).lower() if isinstance(value, bool) else repr(value)}")
            elif isinstance(value, torch.Tensor):
                assert value.stride(-1) == 1, f"{name}: {pname} launched with strides {value.stride()}"
                rank = value.dim()
                parts.append(f"{pname}={C.SHORT[C.dtype_name(value)]}[{','.join('?' * rank)}]/"
                             f"{','.join(['?'] * (rank - 1) + ['1'])}")
            else:
                parts.append(f"{pname}={'f32' if isinstance(value, float) else 'i32'}")
        text = sigmod.parse(", ".join(parts)).text()
        assert text in allowed, f"{name} launched {kname} with {text}, which is not in its PORT_SIGNATURES"


#: the row kernels (one row in one tile of a ROW_BLOCKS width) and a row length landing in each width
ROW_OPS = ("row_softmax", "rms_norm", "layer_norm", "triton_softmax", "triton_rms_norm", "triton_layer_norm")
ROW_LENGTHS = (1000, 2000, 3000, 5000, 9000)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ("float32", "bfloat16"))
@pytest.mark.parametrize("name", ROW_OPS)
def test_row_ops_at_every_row_width(torch, name, dtype, backend):
    """The shape cases reach only some ROW_BLOCKS widths; here every width runs, 33 rows each (a ragged last block)."""
    assert sorted({C.row_block(n) for n in ROW_LENGTHS}) == sorted(C.ROW_BLOCKS)
    mod = OPS[name]
    for n in ROW_LENGTHS:
        _seed(torch, name, dtype, str(n))
        args, kwargs = mod.sample_inputs(f"33x{n}", dtype, "cuda")
        expected = mod.reference(*args, **kwargs)
        out = C.poisoned(expected.shape, C.result_dtype(mod, args, kwargs), "cuda")
        wrapper(name)(*args, **kwargs, backend=backend, out=out)
        torch.cuda.synchronize()
        rtol, atol = mod.tolerance(dtype)
        torch.testing.assert_close(out.double(), expected, rtol=rtol, atol=atol, msg=lambda m: f"{name} n={n}: {m}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ("float16", "bfloat16"))
def test_rope_on_head_slices(torch, dtype, backend):
    """rope gathers whole heads at offsets from the strides: q out of a fused qkv projection (token stride 3 H D),
    with cos/sin rows out of a wider table, into a poisoned out, matches the reference on a ragged token count and
    head count (6 heads: blocks of 8, masked). Strides that are not whole heads are refused."""
    from tileport.ops import rope

    _seed(torch, "rope-slices", dtype, backend)
    t, h, d = 37, 6, 128
    dt = getattr(torch, dtype)
    x = torch.randn(t, 3 * h, d, device="cuda").to(dt)[:, h:2 * h]   # strides (3 h d, d, 1)
    angles = torch.rand(t, d, device="cuda") * 6.283185307179586
    cos, sin = angles.cos()[:, : d // 2], angles.sin()[:, : d // 2]    # row stride d: a multiple of d / 2
    out = torch.full((t, h, d), float("nan"), device="cuda").to(dt)
    got = rope.rope(x, cos, sin, out=out, backend=backend)
    torch.cuda.synchronize()
    assert got.data_ptr() == out.data_ptr()
    rtol, atol = rope.tolerance(dtype)
    torch.testing.assert_close(out.double(), rope.reference(x, cos, sin), rtol=rtol, atol=atol)
    odd = torch.randn(t, h, d + 8, device="cuda").to(dt)[..., :d]
    with pytest.raises(ValueError, match="multiples of 128"):
        rope.rope(odd, cos, sin, backend=backend)
    with pytest.raises(ValueError, match="row strides"):
        rope.rope(x, cos, sin.contiguous(), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ("float32", "float16", "bfloat16"))
def test_gelu_erf_at_special_values(torch, dtype, backend):
    """gelu_erf's erfc form clamps x inside its small term so that gelu(inf) = inf (not inf * 0); NaN stays NaN,
    large and subnormal inputs come out as PyTorch's own gelu gives them (-inf is inf * 0: NaN in both)."""
    from tileport.ops import gelu_erf

    special = [float("inf"), float("nan"), 0.0, -0.0, 1e30, -1e30, 20.0, -20.0, 9.5, 10.5, -10.5, 1e-40, -1e-40]
    x = torch.tensor(special * 77, device="cuda").to(getattr(torch, dtype))   # 1001 elements: a ragged tile
    got = gelu_erf.gelu_erf(x, backend=backend)
    torch.cuda.synchronize()
    rtol, atol = gelu_erf.tolerance(dtype)
    torch.testing.assert_close(got.double(), torch.nn.functional.gelu(x.double()).to(x.dtype).double(), rtol=rtol,
                               atol=atol, equal_nan=True)


def test_bad_inputs_are_refused(torch):
    from tileport.ops import leaky_relu, matmul, rms_norm, row_softmax, silu_and_mul, vector_add

    x = torch.randn(8, 64, device="cuda")
    with pytest.raises(ValueError, match="a is on cpu"):
        vector_add.vector_add(x.cpu(), x.cpu())
    with pytest.raises(ValueError, match="dtype float64"):
        vector_add.vector_add(x.double(), x.double())
    with pytest.raises(ValueError, match="b has shape"):
        vector_add.vector_add(x, x[:4])
    with pytest.raises(ValueError, match="contiguous"):
        vector_add.vector_add(x.T, x.T)
    with pytest.raises(ValueError, match="stride 1"):
        row_softmax.row_softmax(x.T)
    with pytest.raises(ValueError, match="row length.*16384"):
        row_softmax.row_softmax(torch.randn(2, 16385, device="cuda"))
    with pytest.raises(ValueError, match="weight has 63 elements"):
        rms_norm.rms_norm(x, torch.randn(63, device="cuda"))
    with pytest.raises(ValueError, match="slope"):
        leaky_relu.leaky_relu(x, 0.3)
    with pytest.raises(ValueError, match="last dimension is 128"):
        silu_and_mul.silu_and_mul(torch.randn(4, 128, device="cuda"))
    h = x.half()
    with pytest.raises(ValueError, match="64 columns but b has 8 rows"):
        matmul.matmul(h, h)
    with pytest.raises(ValueError, match="out has shape"):
        vector_add.vector_add(x, x, out=torch.empty(3, device="cuda"))
    with pytest.raises(ValueError, match="out has dtype"):
        vector_add.vector_add(x, x, out=torch.empty_like(x, dtype=torch.float16))
    assert issubclass(BackendError, TileportError)
