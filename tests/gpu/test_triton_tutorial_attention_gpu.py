"""On a GPU: the kernels of Triton's fused-attention tutorial (the corpus's early-2025 copy,
`../shared/corpus/triton-tutorials/06-fused-attention.py`) run by Triton and by their lowered cuTile Python (the
lowering `tileport corpus port` proves the Rust ports against, made here from the committed captures) on the same
inputs, compared. The tutorial's own host code cannot reach them on Triton 3.6 (its fp16 forward calls the driver's
`fill_2d_tma_descriptor`, gone since Triton 3.4), so the kernels are launched directly, as its `_attention` class
launches them: the fp8 forward (what it launches on Hopper), causal and not; the backward's preprocess and main
kernel at 3 heads of 384 tokens."""
from __future__ import annotations

import importlib.util
import json
import math
import os
from pathlib import Path

import pytest

from conftest import REPO

pytestmark = pytest.mark.gpu
TUTORIAL = Path(os.environ.get("TILEPORT_CORPUS", REPO.parent / "shared" / "corpus")) / "triton-tutorials" / \
    "06-fused-attention.py"
CAPTURES = REPO / "benchmarks" / "results" / "corpus" / "triton" / "captures-tutorials"
KERNELS = ("_attn_fwd", "_attn_bwd_preprocess", "_attn_bwd")


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    if not TUTORIAL.is_file():
        pytest.skip(f"the corpus is not here ({TUTORIAL}; set TILEPORT_CORPUS)")
    from tileport.pipeline.triton import lower_from_launches

    root = tmp_path_factory.mktemp("attention-tutorial")
    for name in KERNELS:
        launches = json.loads((CAPTURES / f"06-fused-attention.{name}.json").read_text())["launches"]
        lower_from_launches(f"{TUTORIAL}::{name}", launches).write(root / name / "lowered.py")
    return root


def _tutorial():
    from tileport.corpus.tritonemu import legacy_modules

    with legacy_modules():   # its `import triton.tools.experimental_descriptor` (unused by it; gone in Triton 3.6)
        spec = importlib.util.spec_from_file_location("fused_attention_tutorial", TUTORIAL)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def test_attention_tutorial_kernels_match_their_lowering(lowered):
    torch = pytest.importorskip("torch")
    triton = pytest.importorskip("triton")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    from tileport.runtime.triton_port import ported

    mod = _tutorial()
    failures = []

    def check(what, a, b, rtol, atol):
        a, b = a.float(), b.float()
        if not torch.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
            failures.append(f"{what}: max |diff| {(a - b).abs().max().item():.3g}")

    z, h, n, d, sm_scale = 1, 3, 384, 64, 0.5
    torch.manual_seed(0)
    q, k, v = (torch.randn((z, h, n, d), device="cuda", dtype=torch.float16) * 0.5 for _ in range(3))
    # the forward as the tutorial launches it on Hopper: fp8 e5m2, v transposed in memory
    fwd = mod._attn_fwd.fn   # (the JITFunction under its autotuner: its first config, as capture launched it)
    q8, k8 = q.to(torch.float8_e5m2), k.to(torch.float8_e5m2)
    v8 = v.permute(0, 1, 3, 2).contiguous().permute(0, 1, 3, 2).to(torch.float8_e5m2)
    for stage in (1, 3):
        res = []
        for run in (fwd, ported(fwd, lowered / "_attn_fwd", backend="cutile")):
            m, o = torch.empty((z, h, n), device="cuda", dtype=torch.float32), torch.empty_like(q8)
            run[(triton.cdiv(n, 64), z * h, 1)](q8, k8, v8, sm_scale, m, o, *q8.stride(), *k8.stride(), *v8.stride(),
                                               *o.stride(), z, h, N_CTX=n, HEAD_DIM=d, BLOCK_M=64, BLOCK_N=32,
                                               STAGE=stage, num_warps=4, num_stages=3)
            torch.cuda.synchronize()
            res.append((m, o))
        check(f"_attn_fwd STAGE={stage} M", res[0][0], res[1][0], 1e-3, 1e-3)
        check(f"_attn_fwd STAGE={stage} out (fp8: one e5m2 step)", res[0][1], res[1][1], 0.26, 0.02)
    # the backward: preprocess (delta = rowsum(o * do)), then dq/dk/dv from the base-2 logsumexp M
    o, do = torch.randn_like(q), torch.randn_like(q)
    deltas = []
    for run in (mod._attn_bwd_preprocess, ported(mod._attn_bwd_preprocess, lowered / "_attn_bwd_preprocess",
                                                 backend="cutile")):
        delta = torch.empty((z, h, n), device="cuda", dtype=torch.float32)
        run[(n // 128, z * h)](o, do, delta, z, h, n, BLOCK_M=128, HEAD_DIM=d)
        torch.cuda.synchronize()
        deltas.append(delta)
    check("_attn_bwd_preprocess delta", deltas[0], deltas[1], 1e-4, 1e-4)
    rcp_ln2 = 1.4426950408889634
    s = (q.float() @ k.float().transpose(-1, -2)) * sm_scale * rcp_ln2
    s = s.masked_fill(~torch.tril(torch.ones((n, n), device="cuda", dtype=torch.bool)), float("-inf"))
    m = torch.logsumexp(s * math.log(2), -1) / math.log(2)
    arg_k = k * (sm_scale * rcp_ln2)
    grads = []
    for run in (mod._attn_bwd, ported(mod._attn_bwd, lowered / "_attn_bwd", backend="cutile")):
        dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        run[(n // 128, 1, z * h)](q, arg_k, v, sm_scale, do, dq, dk, dv, m, deltas[0], *q.stride(), h, n,
                                  BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2,
                                  HEAD_DIM=d, num_warps=4, num_stages=5)
        torch.cuda.synchronize()
        grads.append((dq, dk, dv))
    for name, a, b in zip(("dq", "dk", "dv"), *grads):
        check(f"_attn_bwd {name}", a, b, 2e-2, 2e-2)
    assert not failures, failures
