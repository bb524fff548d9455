"""TileGym's public ops whose kernels no test of TileGym's `tests/ops` launches, called at LLM shapes.

Not a test of tileport (pytest collects `tests/` only): `tileport corpus capture` runs it as one of a corpus's
test files, so that the launches TileGym's own host code makes for these kernels are captured like the others:

    tileport corpus capture ../shared/corpus/TileGym --tests $PWD/benchmarks/corpus/tilegym_untested_launches.py \
        --out build/captures-untested

- `attention_sink_decode` (split-KV decode with sink logits: its kernel is reached only through
  `attn_interface`, while TileGym's test calls `attention_sink`);
- `recurrent_gated_delta_rule(..., persistent=True)` (the persistent kernel: the tests disable autotuning and
  never ask for it).

Shapes are those of the models these ops serve (gpt-oss-like GQA decode; Qwen3-Next-like gated delta rule).
"""
import pytest
import torch

import tilegym
import tilegym.ops


@pytest.fixture(autouse=True)
def cutile_backend(monkeypatch):
    monkeypatch.setenv("TILEGYM_DISABLE_AUTOTUNE", "1")
    tilegym.set_backend("cutile")


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("batch, kv_len, kv_heads, groups, head_dim, window", [
    (1, 4096, 8, 8, 64, None),
    (4, 8192, 8, 8, 64, 128),
    (2, 2048, 4, 4, 128, None),
])
def test_attention_sink_decode(dtype, batch, kv_len, kv_heads, groups, head_dim, window):
    q = torch.randn(batch, 1, kv_heads, groups, head_dim, device="cuda", dtype=dtype)
    k = torch.randn(batch, kv_len, kv_heads, head_dim, device="cuda", dtype=dtype)
    v = torch.randn(batch, kv_len, kv_heads, head_dim, device="cuda", dtype=dtype)
    sinks = torch.randn(kv_heads * groups, device="cuda", dtype=torch.float32)
    start_q = torch.tensor([kv_len - 1], device="cuda", dtype=torch.int32)
    tilegym.ops.attention_sink_decode(q, k, v, sinks, head_dim ** -0.5, window, start_q)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
@pytest.mark.parametrize("batch, seq, heads, k_dim, v_dim, initial, final, l2", [
    (1, 256, 16, 128, 128, False, True, True),
    (2, 512, 32, 128, 128, True, True, False),
    (4, 64, 16, 64, 128, True, False, True),
])
def test_recurrent_gated_delta_rule_persistent(dtype, batch, seq, heads, k_dim, v_dim, initial, final, l2):
    q = torch.randn(batch, seq, heads, k_dim, device="cuda", dtype=dtype)
    k = torch.randn(batch, seq, heads, k_dim, device="cuda", dtype=dtype)
    v = torch.randn(batch, seq, heads, v_dim, device="cuda", dtype=dtype)
    g = -torch.abs(torch.randn(batch, seq, heads, device="cuda", dtype=dtype))
    beta = torch.sigmoid(torch.randn(batch, seq, heads, device="cuda", dtype=dtype))
    state = torch.randn(batch, heads, k_dim, v_dim, device="cuda", dtype=torch.float32) if initial else None
    tilegym.ops.recurrent_gated_delta_rule(q, k, v, g, beta, initial_state=state, output_final_state=final,
                                           use_qk_l2norm_in_kernel=l2, persistent=True)
