"""TileGym's model-specific cuTile kernels (`src/tilegym/transformers/*/kernels`), which no test of its `tests/ops`
launches, called through their own host wrappers at the shapes of the models they serve.

Not a test of tileport (pytest collects `tests/` only): `tileport corpus capture` runs it as one of a corpus's test
files, so that the launches TileGym's own wrappers make are captured like the others:

    tileport corpus capture ../shared/corpus/TileGym --tests $PWD/benchmarks/corpus/tilegym_transformers_launches.py \
        --out build/captures-transformers

Shapes: OLMo-3 / OLMoE (hidden 2048-4096, 16-32 heads of 128) and Qwen3.5-like linear-attention layers (conv
width 4, 16-32 value heads); prefill (several tokens) and decode (one token) where a wrapper serves both.
"""
import pytest
import torch

from tilegym.transformers.olmo3.kernels.dual_rms_norm import dual_rms_norm_cutile
from tilegym.transformers.olmo3.kernels.rms_norm_residual_add import rms_norm_residual_add_cutile
from tilegym.transformers.olmoe.kernels.dual_rms_norm import dual_rms_norm_olmoe_cutile
from tilegym.transformers.olmoe.kernels.residual_add_rms_norm import residual_add_rms_norm_olmoe_cutile
from tilegym.transformers.qwen3_5.kernels.causal_conv1d_prefill_silu import causal_conv1d_prefill_silu_cutile
from tilegym.transformers.qwen3_5.kernels.causal_conv1d_update_silu import causal_conv1d_update_silu_cutile
from tilegym.transformers.qwen3_5.kernels.gdr_preprocess import gdr_preprocess_cutile
from tilegym.transformers.qwen3_5.kernels.residual_add_rms_norm import residual_add_rms_norm_cutile
from tilegym.transformers.qwen3_5.kernels.rms_norm_gated import rms_norm_gated_cutile
from tilegym.transformers.qwen3_5.kernels.sigmoid_mul import sigmoid_mul_cutile
from tilegym.transformers.qwen3_5.kernels.silu_and_mul_separate import silu_and_mul_separate_cutile

DTYPES = [torch.bfloat16, torch.float16]
TOKENS = [1, 37, 512]


def rand(*shape, dtype):
    return torch.randn(*shape, device="cuda", dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("tokens", TOKENS)
@pytest.mark.parametrize("wrapper", [dual_rms_norm_cutile, dual_rms_norm_olmoe_cutile])
def test_dual_rms_norm(wrapper, tokens, dtype):
    # OLMo's q/k norms over the whole projection width (16 heads of 128; the wrapper wants q and k alike)
    wrapper(rand(tokens, 2048, dtype=dtype), rand(tokens, 2048, dtype=dtype), rand(2048, dtype=dtype),
            rand(2048, dtype=dtype), 1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("tokens", TOKENS)
def test_residual_norms(tokens, dtype):
    x, r, w = rand(tokens, 4096, dtype=dtype), rand(tokens, 4096, dtype=dtype), rand(4096, dtype=dtype)
    rms_norm_residual_add_cutile(x, r, w, 1e-6)
    residual_add_rms_norm_olmoe_cutile(r.clone(), x, w, 1e-5)
    residual_add_rms_norm_cutile(r.clone(), x, w, 1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("tokens", TOKENS)
def test_qwen3_5_gates(tokens, dtype):
    rms_norm_gated_cutile(rand(tokens, 32, 128, dtype=dtype), rand(tokens, 32, 128, dtype=dtype),
                          rand(128, dtype=dtype), 1e-6)
    sigmoid_mul_cutile(rand(tokens, 4096, dtype=dtype), rand(tokens, 4096, dtype=dtype))
    silu_and_mul_separate_cutile(rand(tokens, 11008, dtype=dtype), rand(tokens, 11008, dtype=dtype))
    gdr_preprocess_cutile(rand(tokens, 32, dtype=dtype), rand(tokens, 32, dtype=dtype),
                          rand(32, dtype=torch.float32), rand(32, dtype=torch.float32))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("channels", [4096, 8192])
def test_causal_conv1d(channels, dtype):
    causal_conv1d_prefill_silu_cutile(rand(1, channels, 515, dtype=dtype), rand(channels, 4, dtype=dtype), 512)
    causal_conv1d_update_silu_cutile(rand(1, channels, 1, dtype=dtype), rand(1, channels, 4, dtype=dtype),
                                     rand(channels, 4, dtype=dtype))
