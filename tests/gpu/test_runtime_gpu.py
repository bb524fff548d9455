"""On a GPU: the cutile-rs backend end to end — the Rust library launched on PyTorch's memory and stream, its
ownership checks, its refusals, and its freshness rule."""
import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch", reason="torch is needed to allocate GPU tensors")


def vadd(a, b, c, tile, backend):
    import cuda.tile as ct

    from tileport.kernels.vector_add import vector_add
    from tileport.ops import launch

    launch((ct.cdiv(a.shape[0], tile), 1, 1), vector_add, (a, b, c, tile), backend=backend)


@pytest.mark.parametrize("n", [1 << 20, 1000003, 1])
def test_vector_add_through_rust_is_exact(n):
    torch.manual_seed(n)
    a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    c = torch.full_like(a, float("nan"))
    vadd(a, b, c, 1024, "cutile-rs")
    torch.cuda.synchronize()
    torch.testing.assert_close(c, a + b, rtol=0, atol=0)


def test_runs_on_the_callers_stream():
    s = torch.cuda.Stream()
    a = torch.randn(1 << 22, device="cuda")
    b = torch.randn_like(a)
    c = torch.full_like(a, float("nan"))
    with torch.cuda.stream(s):
        vadd(a, b, c, 1024, "cutile-rs")
        done = torch.cuda.Event()
        done.record(s)
    done.synchronize()
    torch.testing.assert_close(c, a + b, rtol=0, atol=0)


def test_aliasing_output_is_refused_before_launch():
    from tileport.runtime.checks import OwnershipError

    a = torch.randn(4096, device="cuda")
    with pytest.raises(OwnershipError, match="output c overlaps input a"):
        vadd(a, torch.randn_like(a), a, 1024, "cutile-rs")


def test_a_broadcast_output_is_refused_before_launch():
    from tileport.runtime.checks import OwnershipError

    a = torch.randn(4096, device="cuda")
    c = torch.empty(1, device="cuda").expand(4096)  # every element is the same memory
    with pytest.raises(OwnershipError, match="share memory"):
        vadd(a, torch.randn_like(a), c, 1024, "cutile-rs")


def test_many_shapes_and_both_backends_interleaved():
    """The launch fast path caches per launch shape: alternate shapes, dtypes and backends and check each result."""
    for n in [1000, 4096, 1000, 77777, 4096]:
        for dtype in (torch.float32, torch.float16):
            a = torch.randn(n, device="cuda", dtype=dtype)
            b = torch.randn_like(a)
            outs = []
            for backend in ("cutile-rs", "cutile", "cutile-rs"):
                c = torch.full_like(a, float("nan"))
                vadd(a, b, c, 1024, backend)
                outs.append(c)
            torch.cuda.synchronize()
            for c in outs:
                torch.testing.assert_close(c, a + b, rtol=0, atol=0)


def test_unported_specialization_is_refused_with_what_exists():
    from tileport.ops import BackendError

    a = torch.randn(4096, device="cuda", dtype=torch.float64)
    with pytest.raises(BackendError, match="no proven port of vector_add for this launch"):
        vadd(a, a.clone(), torch.empty_like(a), 1024, "cutile-rs")


def test_edited_kernel_source_is_noticed(monkeypatch):
    """With TILEPORT_AUTOBUILD=0 (no cargo on this host) an edited kernel is refused, not run stale: the first
    launch after the source-check interval notices the edit."""
    import time

    from tileport.kernels import vector_add as mod
    from tileport.runtime import library

    monkeypatch.setenv("TILEPORT_AUTOBUILD", "0")
    path = mod.__file__
    original = open(path).read()
    try:
        with open(path, "a") as fh:
            fh.write("\n# edited\n")
        a = torch.randn(4096, device="cuda")
        time.sleep(2 * library.SOURCE_CHECK_INTERVAL_NS / 1e9)
        with pytest.raises(library.StaleLibrary, match="changed since vector_add was ported"):
            vadd(a, a.clone(), torch.empty_like(a), 1024, "cutile-rs")
    finally:
        open(path, "w").write(original)


def test_ops_compile_without_graph_breaks():
    """torch.ops.tileport.<op> under torch.compile(fullgraph=True): traced with the fake implementation, run with
    the real one, same result as eager."""
    from tileport.ops.torch_library import register

    register()
    x = torch.randn(64, 4096, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(4096, device="cuda", dtype=torch.bfloat16)
    gate, up = torch.randn_like(x), torch.randn_like(x)

    def block(x, w, gate, up):
        h = torch.ops.tileport.rms_norm(x, w, 1e-6)
        return torch.ops.tileport.swiglu(h * gate, up) + 1

    eager = block(x, w, gate, up)
    compiled = torch.compile(block, fullgraph=True)(x, w, gate, up)
    torch.testing.assert_close(compiled, eager, rtol=1.6e-2, atol=1e-2)
    rs = torch.ops.tileport.rms_norm(x, w, 1e-6, backend="cutile-rs")
    py = torch.ops.tileport.rms_norm(x, w, 1e-6, backend="cutile")
    torch.testing.assert_close(rs, py, rtol=0, atol=0)


class _ForeignArray:
    """A GPU array of another library as cuTile Python's ct.launch takes it — CuPy's speaks
    ``__cuda_array_interface__`` and nothing torch knows — over a torch tensor's memory."""

    def __init__(self, t):
        self.shape = tuple(t.shape)
        self.__cuda_array_interface__ = t.__cuda_array_interface__


class _ForeignStream:
    """A CuPy stream as ct.launch takes one: its handle in ``ptr``."""

    def __init__(self, s):
        self.ptr = s.cuda_stream


def test_arrays_of_another_library_launch_through_the_rust_port():
    """CuPy host code (cuda.tile's own quick start) passes CuPy arrays and a CuPy stream to ct.launch: the Rust port
    runs on the same memory (written in place) and stream; launched twice, the second through the steady plan."""
    import cuda.tile as ct

    from tileport.kernels.vector_add import vector_add
    from tileport.runtime import library

    n = 100003
    a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    for _ in range(2):
        c = torch.full_like(a, float("nan"))
        s = torch.cuda.Stream()
        library.launch((ct.cdiv(n, 1024), 1, 1), vector_add, (_ForeignArray(a), _ForeignArray(b), _ForeignArray(c),
                                                              1024), stream=_raw(_ForeignStream(s)))
        s.synchronize()
        torch.testing.assert_close(c, a + b, rtol=0, atol=0)


def _raw(stream):
    from tileport.runtime.intercept import raw_stream

    return raw_stream(stream)
