"""Example cuTile Python kernels bundled with tileport (used by the demo, doctor's smoke compile and the tests)."""
from pathlib import Path

EXAMPLES_DIR = Path(__file__).parent

#: Examples that `tileport port` proves IR-equivalent at their DEMO_SIGNATURE (tests/test_port.py holds it to that).
PROVEN = ("vector_add", "scale_cast", "bias_act", "matmul", "row_softmax", "persistent_scale", "rms_norm",
          "gelu_tanh", "relu", "swiglu", "geglu", "layer_norm", "silu_and_mul", "causal_mask",
          "masked_rowsum", "gelu_erf", "softcap", "matmul_hints",
          "linear", "matmul_tf32", "expert_offsets", "leaky_relu", "token_gather",
          "token_scatter", "transpose", "histogram", "bmm", "rope", "splitk_reduce", "dropout", "group_gemm", "attention",
          "decode_combine", "flash_decode", "gemma_decode", "gated_delta_recurrent", "gated_delta_chunked",
          "mla_prefill", "mla_decode", "attention_sinks", "gemma_attention", "moe_align_block", "fused_moe")

#: Examples proven too (tests/test_port.py ports them with the others) that the op library does not serve.
ALSO_PROVEN = ("gather_rows", "numerics", "causal_tiles", "idioms", "real_idioms")


def kernel_path(name: str) -> Path:
    """The cuTile Python source of an op's kernel: an example here, or a Triton example's lowered form."""
    from .triton import LOWERED_DIR, OPS

    return LOWERED_DIR / f"{name}.py" if name in OPS else EXAMPLES_DIR / f"{name}.py"


#: Examples the translator does not prove (yet), each with what stops it (tests check these outcomes too).
NOT_PROVEN: dict[str, str] = {}
