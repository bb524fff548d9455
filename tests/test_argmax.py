"""`ct.argmax` / `ct.argmin`: two reductions in the port (the value's, then the least index where x equals it),
proven against cuTile Python's one two-operand reduce by irdiff rule argmax-two-reductions (the example
real_argmax: tests/test_port.py; the rule: tests/test_irdiff_rules.py). What stays refused, at its position."""
import pytest

from test_cutile_round21 import emit_resolved
from tileport.translate.emit import Unsupported


def test_argmax_is_two_reductions(tmp_path):
    """The value's reduction kept as a dimension, its NaN test (no value but NaN: every index ties), then the least
    index of the hits; an integer tile compares equal only."""
    body = "\n".join(emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, xi, y, yi, B: ct.Constant[int]):
         t = ct.load(x, (ct.bid(0), 0), (B, B))
         ct.store(y, (ct.bid(0),), ct.argmax(t, 1))
         ti = ct.load(xi, (ct.bid(0), 0), (B, B))
         ct.store(yi, (ct.bid(0),), ct.argmin(ti, axis=1))
     """, "x=f32[?,?]/?,1, xi=i32[?,?]/?,1, y=i32[?]/1, yi=i32[?]/1, B=#16", consts=("B",)).body)
    assert "reduce_max(t, 1)" in body and "reduce_min(ti, 1)" in body, body
    assert body.count("cmp_ordering::Unordered") == 1, body   # (the f32 one's NaN test only)
    assert body.count("2147483647i32") == 2 and body.count("iota(shape![B])") == 2, body


@pytest.mark.parametrize("call, reason", [
    ("ct.argmax(t, 1, propagate_nan=True)", r"ct\.argmax\(\.\., propagate_nan=True\)"),
    ("ct.argmax(t, n)", r"ct\.argmax\(x, axis\) with a constant axis"),
    ("ct.argmax(ct.astype(t, ct.int8), 1)", r"ct\.argmax of .*no 8- or 16-bit integer identity"),
])
def test_argmax_forms_left_refused_at_their_position(tmp_path, call, reason):
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: .*" + reason):
        emit_resolved(tmp_path, f"""
         @ct.kernel
         def k(x, y, n: int, B: ct.Constant[int]):
             t = ct.load(x, (ct.bid(0), 0), (B, B))
             ct.store(y, (ct.bid(0),), ct.reshape({call}, (1,)))
         """, "x=f32[?,?]/?,1, y=i32[?]/1, n=i32, B=#16", consts=("B",))
