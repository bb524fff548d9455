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


def test_int32_least_value_is_a_difference_of_two_literals(tmp_path):
    """An int32 kernel padding a gather with INT32_MIN (a global max, round 18's q12 `global_max`): cutile 0.3.1
    parses every integer literal as an i32 and `-2147483648i32` as the negation of 2147483648, so its compiler
    panicked on the emitted port ("Failed to parse literal -2147483648", an unproven kernel); refused at the
    statement from round 18, written `(-2147483647i32 - 1i32)` since the twenty-second session (irdiff folds the
    subtraction to cuTile Python's constant: fold-int-constants). A tile of it is `broadcast_scalar` of that value
    (cutile's `constant(..)` takes a literal only); an i64 constant beyond i32 is still refused."""
    sig = "x=i32[?]/1, out=i32[?]/1, n=i32, B=#16"
    text = "\n".join(emit(tmp_path, INT32_MIN_PADDING, sig).body)
    assert "(-2147483647i32 - 1i32)" in text and "-2147483648" not in text, text
    text = "\n".join(emit(tmp_path, INT32_MIN_PADDING.replace("-2147483648", "-2147483647"), sig).body)
    assert "-2147483647i32" in text and "- 1i32" not in text
    # the limits section's repro: a constant tile of INT32_MIN
    text = "\n".join(emit(tmp_path, """
@ct.kernel
def k(x, out, n: int, B: ct.Constant[int]):
    t = ct.full((B,), -2147483648, ct.int32)
    ct.store(out, index=(ct.bid(0),), tile=t)
""", sig).body)
    assert "broadcast_scalar((-2147483647i32 - 1i32), shape![B])" in text and "constant((-" not in text, text
    with pytest.raises(Unsupported, match="the i64 constant -3000000000: outside i32's range"):
        emit(tmp_path, """
@ct.kernel
def k(x, out, n: int, B: ct.Constant[int]):
    t = ct.full((B,), -3000000000, ct.int64)
    ct.store(out, index=(ct.bid(0),), tile=t)
""", "x=i64[?]/1, out=i64[?]/1, n=i32, B=#16")
