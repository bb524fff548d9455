"""On a GPU: the bundled kernel, compiled by the pinned toolchain, launched by cuda-tile, checked against torch."""
import pytest

pytestmark = pytest.mark.gpu


def test_vector_add_runs_correctly():
    torch = pytest.importorskip("torch", reason="torch is needed to allocate GPU tensors")
    import cuda.tile as ct

    from tileport.kernels.vector_add import vector_add

    for n, tile in [(1 << 20, 1024), (1000003, 256)]:  # one dividing, one ragged size
        a = torch.randn(n, device="cuda")
        b = torch.randn(n, device="cuda")
        c = torch.full_like(a, float("nan"))  # poisoned: unwritten elements fail the check
        ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, tile), 1, 1), vector_add, (a, b, c, tile))
        torch.cuda.synchronize()
        torch.testing.assert_close(c, a + b, rtol=0, atol=0)
