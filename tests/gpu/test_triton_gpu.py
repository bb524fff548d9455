"""On a GPU: each ported Triton kernel against the Triton kernel itself (triton backend) on the same fresh random
inputs, both against the float64 reference; the drop-in ``ported(kernel)[grid](...)`` form; the triton backend
refused for cuTile ops. (tests/gpu/test_ops_gpu.py runs the same ops on the cutile and cutile-rs backends.)"""
from __future__ import annotations

import zlib

import pytest

from tileport.kernels.triton import OPS as TRITON_OPS
from tileport.ops import BackendError
from tileport.ops import _common as C
from tileport.ops.registry import OPS, wrapper

pytestmark = pytest.mark.gpu
CASES = ("small", "ragged", "mid")


@pytest.fixture(scope="module")
def torch():
    torch = pytest.importorskip("torch", reason="torch is needed to allocate GPU tensors")
    pytest.importorskip("triton", reason="triton runs the original kernels")
    return torch


def _cases():
    for name in TRITON_OPS:
        for dtype in OPS[name].DTYPES:
            for case in CASES:
                yield pytest.param(name, dtype, case, id=f"{name}-{dtype}-{case}")


@pytest.mark.parametrize("name, dtype, case", list(_cases()))
def test_port_matches_the_triton_kernel(torch, name, dtype, case):
    mod = OPS[name]
    torch.manual_seed(zlib.crc32(f"{name}/{dtype}/{case}/triton".encode()))
    args, kwargs = mod.sample_inputs(case, dtype, "cuda")
    expected = mod.reference(*args, **kwargs)
    got = {}
    for be in ("triton", "cutile-rs"):
        out = C.poisoned(expected.shape, C.result_dtype(mod, args, kwargs), "cuda")
        got[be] = wrapper(name)(*args, **kwargs, backend=be, out=out)
    torch.cuda.synchronize()
    rtol, atol = mod.tolerance(dtype)
    for be, t in got.items():
        torch.testing.assert_close(t.to(torch.float64), expected, rtol=rtol, atol=atol,
                                   msg=lambda m: f"{name} [{dtype}, {case}, {be}] vs float64 reference: {m}")
    torch.testing.assert_close(got["cutile-rs"], got["triton"], rtol=rtol, atol=atol,
                               msg=lambda m: f"{name} [{dtype}, {case}]: the port differs from the Triton kernel: {m}")


def test_ported_kernel_is_a_drop_in(torch):
    from tileport.kernels.triton import softmax
    from tileport.runtime.triton_port import ported

    x = torch.randn(300, 1000, device="cuda")[:, :700]          # a column slice: row stride 1000
    ys = {}
    for be in ("triton", "cutile", "cutile-rs"):
        y = torch.full((300, 700), float("nan"), device="cuda")
        k = ported(softmax.triton_softmax, backend=be) if be != "triton" else softmax.triton_softmax
        k[(300,)](y, x, x.stride(0), y.stride(0), 700, BLOCK_SIZE=1024)
        ys[be] = y
    torch.cuda.synchronize()
    ref = x.double().softmax(-1)
    for be, y in ys.items():
        torch.testing.assert_close(y.double(), ref, rtol=1e-5, atol=1e-7, msg=lambda m: f"{be}: {m}")


def test_triton_backend_refused_for_cutile_ops(torch):
    from tileport.ops import vector_add

    a = torch.ones(16, device="cuda")
    with pytest.raises(BackendError, match="backend 'triton' runs Triton kernels"):
        vector_add.vector_add(a, a, backend="triton")
