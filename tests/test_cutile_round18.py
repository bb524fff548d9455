"""cuTile Python generality, round 18 (docs/corpus.md): host projects of our own ported with the CLI; what they
found in the translator, each as a test."""
import pytest

from tileport.translate.emit import Unsupported

from kernel_text import emit


INT32_MIN_PADDING = """
@ct.kernel
def k(x, out, n: int, B: ct.Constant[int]):
    idx = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    v = ct.gather(x, idx, mask=idx < n, padding_value=-2147483648)
    ct.atomic_max(out, 0, ct.max(v), memory_order=ct.MemoryOrder.RELAXED)
"""


def test_integer_constant_outside_i32_is_refused_at_its_statement(tmp_path):
    """An int32 kernel padding a gather with INT32_MIN (a global max, round 18's q12 `global_max`): cutile 0.3.1
    parses every integer literal as an i32 and `-2147483648i32` as the negation of 2147483648, so its compiler
    panicked on the emitted port ("Failed to parse literal -2147483648", an unproven kernel); now refused at the
    statement, with file:line:col, before any Rust is built."""
    sig = "x=i32[?]/1, out=i32[?]/1, n=i32, B=#16"
    with pytest.raises(Unsupported, match=r"k.py:\d+:5: the i32 constant -2147483648: outside i32's range"):
        emit(tmp_path, INT32_MIN_PADDING, sig)
    # one above it is a literal cutile parses: ported as before
    text = "\n".join(emit(tmp_path, INT32_MIN_PADDING.replace("-2147483648", "-2147483647"), sig).body)
    assert "-2147483647i32" in text
    # the limits section's repro: a constant tile of INT32_MIN, refused the same way
    with pytest.raises(Unsupported, match="the i32 constant -2147483648"):
        emit(tmp_path, """
@ct.kernel
def k(x, out, n: int, B: ct.Constant[int]):
    t = ct.full((B,), -2147483648, ct.int32)
    ct.store(out, index=(ct.bid(0),), tile=t)
""", sig)
