"""`ct.reduce` / `ct.scan` with a combine function (round 24b's kernels defined in tests: `ct.reduce(t, 1, add,
0.0)`): refused as a cutile 0.3.1 limit (its closure-taking reduce builds the op along dimension 0 with identity 0),
though cuTile Python emits the built-in reduction's very Tile IR when the combine is a sum, product, maximum or
minimum of its arguments in order at that op's identity. Those are ported as the built-in op now (proven: test_port's
SMALL_KERNELS `combines`); any other combine or identity stays refused. A combine passed by name (a module's
`def add(a, b): return a + b`, one defined in the kernel, a closure's) is read as the lambda of the expression it
returns (names assigned once on the way read in place)."""
import pytest

from test_cutile_round21 import emit_resolved
from tileport.translate.emit import Unsupported

SIG = "x=f32[?,?]/?,1, y=f32[?]/1, B=#16"


def _kernel(call: str) -> str:
    return f"""
     @ct.kernel
     def k(x, y, B: ct.Constant[int]):
         t = ct.load(x, (ct.bid(0), 0), (B, B))
         ct.store(y, (ct.bid(0),), {call})
     """


@pytest.mark.parametrize("call, op", [("ct.reduce(t, 1, lambda a, b: a + b, 0.0)", "reduce_sum"),
                                      ("ct.reduce(t, 1, ct.maximum, float('-inf'))", "reduce_max"),
                                      ("ct.reduce(t, axis=1, func=lambda p, q: ct.minimum(p, q), "
                                       "identity=float('inf'))", "reduce_min")])
def test_a_builtin_combine_at_its_identity_is_the_builtin_reduction(tmp_path, call, op):
    body = "\n".join(emit_resolved(tmp_path, _kernel(call), SIG).body)
    assert op in body, body


@pytest.mark.parametrize("call", ["ct.reduce(t, 1, lambda a, b: a + b, 1.0)",        # not add's identity
                                  "ct.reduce(t, 1, lambda a, b: b + a, 0.0)",        # the arguments swapped
                                  "ct.reduce(t, 1, lambda a, b: a + b * 2.0, 0.0)",  # not a plain op
                                  "ct.reduce(t, 1, ct.maximum, 0.0)"])
def test_any_other_combine_stays_refused(tmp_path, call):
    with pytest.raises(Unsupported) as info:
        emit_resolved(tmp_path, _kernel(call), SIG)
    assert "reduce-custom" in str(info.value) or "combine function" in str(info.value), str(info.value)


def _named(defs: str, call: str, inner: str = "") -> str:
    return f"""
     {defs}

     @ct.kernel
     def k(x, y, B: ct.Constant[int]):
         {inner}
         t = ct.load(x, (ct.bid(0), 0), (B, B))
         ct.store(y, (ct.bid(0),), {call})
     """


@pytest.mark.parametrize("defs, call, inner, op", [
    ("def add(a, b):\n         \"\"\"the sum\"\"\"\n         return a + b", "ct.reduce(t, 1, add, 0.0)", "pass",
     "reduce_sum"),
    ("import cuda.tile as cutile\n     def lo(p, q):\n         return cutile.minimum(p, q)",
     "ct.reduce(t, axis=1, func=lo, identity=float('inf'))", "pass", "reduce_min"),
    ("", "ct.reduce(t, 1, mx, float('-inf'))", "def mx(a, b):\n             return ct.maximum(a, b)", "reduce_max"),
    ("def add(a, b):\n         s = a + b\n         return s", "ct.reduce(t, 1, add, 0.0)", "pass", "reduce_sum")])
def test_a_combine_passed_by_name_is_read_as_its_lambda(tmp_path, defs, call, inner, op):
    """round 24b's kind: `def add(a, b): return a + b` then `ct.reduce(t, 1, add, 0.0)` — refused before as any
    combine function; the module's function (its docstring aside, its module's own alias of cuda.tile) and one
    defined in the kernel are the built-in reduction."""
    body = "\n".join(emit_resolved(tmp_path, _named(defs, call, inner), SIG).body)
    assert op in body, body


@pytest.mark.parametrize("defs", ["def add(a, b):\n         return b + a",                 # swapped
                                  "def add(a, b):\n         c = a\n         c = c + b\n         return c",  # c twice
                                  "def add(a, b, c=0.0):\n         return a + b"])           # a default
def test_a_named_combine_of_another_form_stays_refused(tmp_path, defs):
    with pytest.raises(Unsupported) as info:
        emit_resolved(tmp_path, _named(defs, "ct.reduce(t, 1, add, 0.0)", "pass"), SIG)
    assert "combine function" in str(info.value) and "k.py:" in str(info.value), str(info.value)
