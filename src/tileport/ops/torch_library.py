"""The ops as PyTorch custom operators (`torch.ops.tileport.<op>`), so `torch.compile` traces through them.

`register()` defines each op from the schema table below, with a CUDA implementation that calls the host wrapper
(backend chosen as usual, or by the `backend` argument) and a fake implementation for tracing: the same wrapper,
validating shapes and allocating the output on fake tensors, with the launch skipped. Call `register()` once
(idempotent); it needs torch.
"""
from __future__ import annotations

import inspect

from .registry import NAMES, wrapper

#: op → its parameters in torch's schema language (the host wrapper's positional parameters, same names/defaults)
SCHEMAS: dict[str, str] = {
    "vector_add": "Tensor a, Tensor b",
    "scale_cast": "Tensor x, float alpha",
    "bias_act": "Tensor x, Tensor bias, str act='relu'",
    "matmul": "Tensor a, Tensor b",
    "row_softmax": "Tensor x",
    "persistent_scale": "Tensor x",
    "rms_norm": "Tensor x, Tensor weight, float eps=1e-06",
    "gelu_tanh": "Tensor x",
    "relu": "Tensor x",
    "swiglu": "Tensor gate, Tensor up",
    "geglu": "Tensor gate, Tensor up",
    "layer_norm": "Tensor x, Tensor weight, Tensor bias, float eps=1e-05",
    "silu_and_mul": "Tensor x",
    "causal_mask": "Tensor x, int shift=0, int? n_cols=None",
    "masked_rowsum": "Tensor x, float threshold=0.0",
    "gelu_erf": "Tensor x",
    "softcap": "Tensor x, float cap",
    "matmul_hints": "Tensor a, Tensor b",
    "linear": "Tensor x, Tensor weight",
    "matmul_tf32": "Tensor a, Tensor b",
    "expert_offsets": "Tensor counts, int? group=None",
    "leaky_relu": "Tensor x, float slope=0.01",
    "token_gather": "Tensor table, Tensor ids",
    "token_scatter": "Tensor x, Tensor dst, int? size=None",
    "transpose": "Tensor x",
    "histogram": "Tensor bins, int nbins",
    "bmm": "Tensor a, Tensor b",
    "rope": "Tensor x, Tensor cos, Tensor sin",
    "splitk_reduce": "Tensor parts, ScalarType? dtype=None",
    "dropout": "Tensor x, float p=0.5, int seed=0",
    "group_gemm": "Tensor a, Tensor b, Tensor tile_group",
    "attention": "Tensor q, Tensor k, Tensor v, float? scale=None, bool is_causal=False",
    "decode_combine": "Tensor o_parts, Tensor lse_parts",
    "flash_decode": "Tensor q, Tensor k_cache, Tensor v_cache, Tensor seq_lens, float? scale=None",
    "gemma_decode": "Tensor q, Tensor k_cache, Tensor v_cache, Tensor seq_lens, float softcap=50.0, int window=0, "
                    "float? scale=None",
    "gated_delta_recurrent": "Tensor q, Tensor k, Tensor v, Tensor g, Tensor beta, float? scale=None",
    "gated_delta_chunked": "Tensor q, Tensor k, Tensor v, Tensor g, Tensor beta, float? scale=None",
    "mla_prefill": "Tensor q_nope, Tensor q_pe, Tensor k_nope, Tensor k_pe, Tensor v, float? scale=None, "
                   "bool is_causal=True",
    "mla_decode": "Tensor q_nope, Tensor q_pe, Tensor ckv, Tensor kpe, Tensor seq_lens, float? scale=None, "
                  "int? num_splits=None",
    "attention_sinks": "Tensor q, Tensor k, Tensor v, Tensor sinks, float? scale=None, bool is_causal=True, "
                       "int window=0",
    "gemma_attention": "Tensor q, Tensor k, Tensor v, float softcap=50.0, int window=0, float? scale=None",
    "moe_align_block": "Tensor topk_ids, int num_experts, int block_size=64",
    "fused_moe": "Tensor a, Tensor w, Tensor topk_ids, Tensor topk_weights, int block_size=64",
    "triton_vector_add": "Tensor x, Tensor y",
    "triton_softmax": "Tensor x",
    "triton_rms_norm": "Tensor x, Tensor weight, float eps=1e-06",
    "triton_layer_norm": "Tensor x, Tensor weight, Tensor bias, float eps=1e-05",
    "triton_swiglu": "Tensor gate, Tensor up",
    "triton_dropout": "Tensor x, float p=0.5, int seed=0",
    "triton_matmul": "Tensor a, Tensor b",
    "triton_attention": "Tensor q, Tensor k, Tensor v, float? scale=None, bool is_causal=False",
    "triton_gather": "Tensor src, Tensor idx",
}
NAMESPACE = "tileport"
_registered = False


def schema_params(name: str) -> list[tuple[str, str | None]]:
    """(name, default text or None) of each parameter in the schema of ``name``."""
    out = []
    for part in SCHEMAS[name].split(", "):
        decl, _, default = part.partition("=")
        out.append((decl.split()[-1], default or None))
    return out


def wrapper_params(name: str) -> list[tuple[str, object]]:
    """(name, default or inspect.Parameter.empty) of the wrapper's positional parameters."""
    return [(p.name, p.default) for p in inspect.signature(wrapper(name)).parameters.values()
            if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]


def register() -> None:
    global _registered
    if _registered:
        return
    import torch

    from ._backend import TRACING

    for name in NAMES:
        qualname = f"{NAMESPACE}::{name}"
        torch.library.define(qualname, f"({SCHEMAS[name]}, *, str? backend=None) -> Tensor")
        fn = wrapper(name)

        def impl(*args, backend=None, _fn=fn):
            return _fn(*args, backend=backend)

        def fake(*args, backend=None, _fn=fn):
            return _fn(*args, backend=TRACING)

        torch.library.impl(qualname, "CUDA", impl)
        torch.library.register_fake(qualname, fake)
    _registered = True
