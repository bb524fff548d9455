"""cuTile Python generality, round 16 (docs/corpus.md): host projects of our own ported with the CLI; what they
found in the translator, each as a test."""
import ast
import textwrap

import pytest

from tileport.spec import signature as sigmod
from tileport.translate.emit import Unsupported, emit_kernel

HEADER = "import cuda.tile as ct\n\n\n"


def emit(tmp_path, body: str, sig: str, consts=("B",)):
    src = tmp_path / "k.py"
    src.write_text(HEADER + textwrap.dedent(body))
    fn = next(n for n in ast.parse(src.read_text()).body if isinstance(n, ast.FunctionDef)
              and any("kernel" in ast.unparse(d) for d in n.decorator_list))
    names = [a.arg for a in fn.args.args]
    return emit_kernel(src, fn.name, sigmod.bind(sigmod.parse(sig), names, fn.name), set(consts), {})


ATOMIC_THEN_OPTIONAL_STORE = """
@ct.kernel
def k(x, y, z, AUX: ct.Constant[bool], B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    ct.atomic_add(z, 0, ct.sum(t))
    if AUX:
        ct.store(y, index=(ct.bid(0),), tile=t)
"""


def test_a_store_folded_away_after_an_acquiring_atomic_is_not_ordered(tmp_path):
    """A store after an acquiring atomic in the arm of a constant `if` the launch's constants fold away never runs
    (cuTile Python drops it): the kernel is the atomic last (was refused: "a store after the acquiring
    ct.atomic_add", a fused epilogue with an optional `aux` output, round 16's p06_consts); where the arm is taken,
    the store is ordered after the atomic (acquire-ordered mode), as before."""
    off = emit(tmp_path, ATOMIC_THEN_OPTIONAL_STORE, "x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, AUX=#false, B=#16",
               consts=("AUX", "B"))
    text = "\n".join(off.body)
    assert "zz_zz_acquire" not in text and "y_" not in text.replace("y_token", "")
    on = emit(tmp_path, ATOMIC_THEN_OPTIONAL_STORE, "x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, AUX=#true, B=#16",
              consts=("AUX", "B"))
    assert "zz_zz_acquire" in "\n".join(on.body)


def test_a_store_folded_away_before_a_releasing_atomic_is_not_ordered(tmp_path):
    """The same for a store before a releasing atomic, in an arm folded away inside a loop (was refused: "after a
    scatter, or a store inside a loop or branch")."""
    body = """
    @ct.kernel
    def k(x, y, z, n: int, AUX: ct.Constant[bool], B: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(B,))
        for i in range(n):
            if AUX:
                ct.store(y, index=(ct.bid(0),), tile=t)
        ct.atomic_add(z, 0, ct.sum(t), memory_order=ct.MemoryOrder.RELEASE)
    """
    emit(tmp_path, body, "x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, n=i32, AUX=#false, B=#16", consts=("AUX", "B"))
    with pytest.raises(Unsupported, match="after a scatter, or a store inside a loop"):
        emit(tmp_path, body, "x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, n=i32, AUX=#true, B=#16", consts=("AUX", "B"))


EMPTY_LOOPS = """
@ct.kernel
def k(x, y, n: int, AUX: ct.Constant[bool], B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    for i in range(n):
        pass
    for j in range(1, n):
        if AUX:
            ct.store(y, index=(ct.bid(0),), tile=t)
    for m in range(n):
        if AUX:
            t = t * 2.0
    ct.store(y, index=(ct.bid(0),), tile=t)
"""


def test_a_for_whose_body_does_nothing_is_left_out(tmp_path):
    """`for i in range(n): pass`, and a loop whose every statement a constant folds away, binding no name: cuTile
    Python drops the loop from its IR (no results, no ops); the port wrote an empty `for`, unproven (irdiff: `for` vs
    the next op). A loop binding a name in an arm folded away is still carried by cuTile Python (`t` above): kept.
    Each form proven with `tileport port` (round 16, build/host16/unit)."""
    text = "\n".join(emit(tmp_path, EMPTY_LOOPS, "x=f32[?]/1, y=f32[?]/1, n=i32, AUX=#false, B=#16",
                          consts=("AUX", "B")).body)
    assert "for i in" not in text and "for j in" not in text and "for m in" in text
    assert text.count("a `for` whose body does nothing") == 2
    text = "\n".join(emit(tmp_path, EMPTY_LOOPS, "x=f32[?]/1, y=f32[?]/1, n=i32, AUX=#true, B=#16",
                          consts=("AUX", "B")).body)
    assert "for i in" not in text and "for j in" in text and "for m in" in text
