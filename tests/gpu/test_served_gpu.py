"""The launch backend on the GPU with TileGym's own host code: a norm, RoPE, decode attention and a matmul, each
called through TileGym's API with `ct.launch` running the Rust ports, captured in a CUDA graph and replayed; the
replay must equal a plain cuTile Python run of the same inputs. Needs a served library built from TileGym's ports
(TILEPORT_SERVED) and the corpus (TILEPORT_CORPUS=path/to/TileGym); skipped with the reason otherwise."""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu


def _tilegym():
    corpus, lib = os.environ.get("TILEPORT_CORPUS"), os.environ.get("TILEPORT_SERVED")
    if not corpus or not (Path(corpus) / "src" / "tilegym").is_dir() or not lib:
        pytest.skip("needs TILEPORT_CORPUS (a TileGym checkout) and TILEPORT_SERVED (a library built from its ports: "
                    "`tileport ops build --from PORTS --corpus TILEGYM --into LIB`)")
    sys.path[:0] = [str(Path(corpus) / "src"), corpus]
    import tilegym

    tilegym.set_backend("cutile")
    return tilegym


def _rms_norm(tg, torch):
    x = torch.randn(256, 768, dtype=torch.float16, device="cuda")
    w = torch.randn(768, dtype=torch.float16, device="cuda")
    return lambda: tg.ops.rms_norm(x, (768,), w, 1e-5)


def _rope(tg, torch):
    b, s, hq, hk, d = 1, 128, 32, 8, 64
    q = torch.randn(b, s, hq, d, device="cuda").transpose(1, 2)
    k = torch.randn(b, s, hk, d, device="cuda").transpose(1, 2)
    angle = torch.arange(s, device="cuda")[:, None] * torch.rand(d // 2, device="cuda")[None, :]
    emb = torch.cat([angle, angle], dim=-1)[None].expand(b, s, d)
    cos, sin = emb.cos().contiguous(), emb.sin().contiguous()
    return lambda: tg.ops.apply_rope_base(q.clone(), k.clone(), cos, sin)


def _decode(tg, torch):
    q = torch.randn(2, 32, 1, 64, device="cuda", dtype=torch.float16)
    k = torch.randn(2, 8, 256, 64, device="cuda", dtype=torch.float16)
    v = torch.randn(2, 8, 256, 64, device="cuda", dtype=torch.float16)
    return lambda: tg.ops.fmha_decode(q, k, v, 1.0 / math.sqrt(64))


def _matmul(tg, torch):
    a = torch.rand(3072, 2720, device="cuda", dtype=torch.bfloat16)
    b = torch.rand(2720, 6144, device="cuda", dtype=torch.bfloat16)
    return lambda: tg.ops.matmul(a, b, static_persistent=True, use_tma=True)


CASES = {"rms_norm": _rms_norm, "rope": _rope, "fmha_decode": _decode, "matmul": _matmul}


def ct_launch():
    import cuda.tile as ct

    return ct.launch


def _flat(out):
    return [t for t in (out if isinstance(out, (tuple, list)) else (out,)) if hasattr(t, "shape")]


@pytest.mark.parametrize("op", list(CASES))
def test_tilegym_op_replays_in_a_cuda_graph_through_the_rust_ports(op):
    import torch

    from tileport.runtime import intercept

    tg = _tilegym()
    torch.manual_seed(0)
    call = CASES[op](tg, torch)
    want = [t.clone() for t in _flat(call())]          # plain cuTile Python
    with intercept.rust_launches() as backend:
        call()                                          # compile the Rust specialization outside the capture
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = _flat(call())
        for _ in range(3):
            graph.replay()
        torch.cuda.synchronize()
        assert sum(backend.rust.values()) >= 2 and not backend.fallbacks
        # (ct.launch is the native dispatcher; whether a launch inside the capture skipped Python depends on time:
        # a plan is taken natively only until its source is due to be looked at again, 50 ms after the last look,
        # and the first launch compiles for seconds — the overhead bench counts the dispatcher's launches)
        # (ct.launch is the dispatcher's bound `launch` method since 94d32c6: its __self__ is the Dispatch)
        assert type(getattr(ct_launch(), "__self__", None)).__name__ == "Dispatch"
    assert len(out) == len(want)
    for got, ref in zip(out, want):
        torch.testing.assert_close(got.float(), ref.float(), rtol=2e-2, atol=2e-2)


def test_launch_timing_puts_arguments_back_without_autograd_noticing():
    """Timing a launch replays both paths in CUDA graphs and then puts the tensors back: a tensor autograd saved for
    backward (TileGym's RoPE backward) must keep its version and a leaf that requires grad must take the copy."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    from tileport.runtime.launch_timing import LaunchTiming

    leaf = torch.randn(64, device="cuda", requires_grad=True)
    saved = leaf * 2                       # mul saves `leaf` and `2`; `saved * saved` saves `saved` for backward
    loss = (saved * saved).sum()
    before = (leaf.detach().clone(), saved.detach().clone(), leaf._version, saved._version)

    def bump(stream):   # what a kernel does: writes the arguments' memory, unseen by autograd
        with torch.no_grad():
            leaf.data.add_(1.0)
            saved.data.mul_(3.0)

    timing = LaunchTiming(reps=2, rounds=2)
    timing.time("bump", (1, 1, 1), (leaf, saved, 0.5), bump, bump)
    assert "error" not in timing.records[-1], timing.records[-1]
    assert torch.equal(leaf.detach(), before[0]) and torch.equal(saved.detach(), before[1])
    assert (leaf._version, saved._version) == before[2:]
    loss.backward()                         # the saved tensors' versions are intact: no "modified by an inplace"
    assert torch.allclose(leaf.grad, 8 * before[0])


def test_launch_timing_times_on_the_stream_a_launch_no_graph_captures():
    """cuTile Python cannot capture a launch with a list-of-tensors argument in a CUDA graph (TileGym's group GEMM):
    such a launch is timed by events around launches queued on the stream, and the record says so."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    from tileport.runtime.launch_timing import LaunchTiming

    x = torch.zeros(1 << 20, device="cuda")

    def plain(stream):
        if torch.cuda.is_current_stream_capturing():
            raise RuntimeError("List argument in CUDAGraph isn't supported yet")
        x.add_(1.0)

    def rust(stream):
        x.add_(1.0)

    timing = LaunchTiming(reps=4, rounds=3)
    timing.time("list_arg", (1, 1, 1), (x,), plain, rust)
    record = timing.records[-1]
    assert record["method"] == "stream" and "List argument" in record["graph_error"], record
    assert record["plain_us"] > 0 and record["rust_us"] > 0 and "error" not in record
    assert torch.equal(x, torch.zeros_like(x))          # put back after the timed launches
