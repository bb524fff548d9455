"""The cuTile Python kernels the operator library serves (tileport.ops wraps each; its Rust port is built into the
library). Triton kernels the library serves are in ``triton/``; demos and translator showcases are in
``tileport.examples``."""
from pathlib import Path

KERNELS_DIR = Path(__file__).parent

#: Kernels the library serves, each proven IR-equivalent at its DEMO_SIGNATURE (tests/test_port.py holds it to that),
#: in the order tileport.ops lists them.
SERVED = ("vector_add", "scale_cast", "bias_act", "matmul", "row_softmax", "persistent_scale", "rms_norm",
          "gelu_tanh", "relu", "swiglu", "geglu", "layer_norm", "silu_and_mul", "causal_mask",
          "masked_rowsum", "gelu_erf", "softcap", "matmul_hints",
          "linear", "matmul_tf32", "expert_offsets", "leaky_relu", "token_gather",
          "token_scatter", "transpose", "histogram", "bmm", "rope", "splitk_reduce", "dropout", "group_gemm", "attention",
          "decode_combine", "flash_decode", "gemma_decode", "gated_delta_recurrent", "gated_delta_chunked",
          "mla_prefill", "mla_decode", "attention_sinks", "gemma_attention", "moe_align_block", "fused_moe")


def kernel_path(name: str) -> Path:
    """The cuTile Python source of an op's kernel: a kernel here, or a Triton kernel's lowered form."""
    from .triton import LOWERED_DIR, OPS

    return LOWERED_DIR / f"{name}.py" if name in OPS else KERNELS_DIR / f"{name}.py"


def source(name: str) -> Path:
    """The file of a bundled cuTile Python kernel by name: a served kernel here, else an example."""
    from ..examples import EXAMPLES_DIR

    path = KERNELS_DIR / f"{name}.py"
    return path if path.is_file() else EXAMPLES_DIR / f"{name}.py"


def source_module(name: str) -> str:
    """The dotted module of a bundled cuTile Python kernel by name (see source)."""
    return f"tileport.{source(name).parent.name}.{name}"
