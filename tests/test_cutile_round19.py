"""cuTile Python generality, round 19 (docs/corpus.md): host projects of our own ported with the CLI; what they
found in the translator, each as a test."""
import pytest

from tileport.translate.emit import Unsupported

from kernel_text import emit


NAN_PADDING = """
@ct.kernel
def k(x, out, n: int, B: ct.Constant[int]):
    idx = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    v = ct.gather(x, idx, mask=idx < n, padding_value=float("nan"))
    ct.store(out, index=(ct.bid(0),), tile=v)
"""


def test_nan_constant_is_refused_at_its_statement_not_a_traceback(tmp_path):
    """A histogram padding its gather with `float("nan")` (round 19's r05 `histc_kernel`, so that the padded lanes
    fall outside every bucket): the literal writer looked for the shortest decimal of NaN and raised StopIteration,
    a Python traceback ("internal error"); now refused at the statement with file:line:col (cutile 0.3.1 has no
    NaN constant)."""
    sig = "x=f32[?]/1, out=f32[?]/1, n=i32, B=#16"
    with pytest.raises(Unsupported, match=r"k.py:\d+:5: the f32 constant nan: cutile 0.3.1 has no NaN constant"):
        emit(tmp_path, NAN_PADDING, sig)
