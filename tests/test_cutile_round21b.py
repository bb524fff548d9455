"""cuTile Python generality, round 21b (docs/corpus.md): kernels of our own in host and kernel styles earlier rounds
did not use (package re-exports, factories and closures, class-attribute kernels, GEMM epilogues, implicit-im2col
convolution, decoupled look-back scans, paged decode, quantization), ported with the CLI; what they found in
tileport, each as a test."""
from tileport.rustgen.declared_ops import unclashed
from tileport.rustgen.module import render

from kernel_text import emit


def test_declared_op_generics_renamed_where_a_kernel_constant_has_their_name(tmp_path):
    """A kernel whose constants are named `S` and `P` (stride and padding of round 21b's `conv2d_nhwc_im2col`)
    and that makes a masked 2-d gather (the port's declared `load_ptr_padded<E, P, const S, ..>`): cutile 0.3.1
    resolves a declared op's generics in its caller's generic scope, and its compiler panicked ("Unexpected const
    arg P for variadic type PointerTile"). The op's generics that an entry also names are renamed (`P_`, `S_`);
    the entry's constants keep their names, and a module without a clash is unchanged."""
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, S: ct.Constant[int], P: ct.Constant[int], B: ct.Constant[int]):
    r = ct.arange(B, dtype=ct.int32) * S - P
    c = ct.arange(B, dtype=ct.int32)
    t = ct.gather(x, (ct.reshape(r, (B, 1)), ct.reshape(c, (1, B))), mask=ct.reshape(r >= 0, (B, 1)))
    ct.store(y, (0, 0), t)
""", "x=f32[?,?]/?,1, y=f32[?,?]/?,1, S=#2, P=#1, B=#16", consts=("S", "P", "B"))
    text = render([em], "k.py", "spec.json")
    assert "source: PointerTile<P_, S_>" in text and "P_: PointerTo<E>" in text, text
    assert "const S: i32" in text and "const P: i32" in text, text
    decl = "pub unsafe fn f<E: ElementType, P: PointerTo<E>, const S: [i32; N]>(x: PointerTile<P, S>) {}\n"
    assert unclashed(decl, {"B"}) == decl
    assert unclashed("/// P and S\n" + decl, {"P", "P_"}) == (
        "/// P and S\npub unsafe fn f<E: ElementType, P__: PointerTo<E>, const S: [i32; N]>(x: PointerTile<P__, S>) {}\n")


FACTORY_OPS = '''\
import operator

import cuda.tile as ct

_OPS = {"add": operator.add, "mul": operator.mul, "max": ct.maximum}


def make(name, block):
    fn = _OPS[name]

    @ct.kernel
    def binary(a, b, c):
        i = ct.bid(0)
        ct.store(c, (i,), fn(ct.load(a, (i,), (block,)), ct.load(b, (i,), (block,))))

    return binary
'''


def test_a_factory_closing_over_an_operator_function_is_recorded_by_its_qualified_name(tmp_path):
    """A factory kernel closing over a function picked from a table (round 21b's `binary`: `fn = {"add":
    operator.add, "mul": operator.mul, "max": ct.maximum}[op]`): the capture recorded `operator.add` and
    `operator.mul` (builtins, not module globals of the kernel's file) as `{"unknown": "builtin_function_or_method"}`,
    so the two kernels had one digest (one capture of three launches) and the port failed ("a
    builtin_function_or_method the capture could not record"). A function another module defines is recorded as
    `{"qualified": "MODULE:QUALNAME"}` when importing and walking that finds the same object, and the loader
    rebuilds the kernel over it; a lambda stays unknown."""
    import importlib.util

    from tileport.frontends.cutile_py.loader import closure_values, kernel_name, load_kernel

    src = tmp_path / "ops_factory.py"
    src.write_text(FACTORY_OPS)
    spec = importlib.util.spec_from_file_location("ops_factory", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    kernels = {op: mod.make(op, 64) for op in ("add", "mul", "max")}
    closures = {op: closure_values(k._pyfunc if hasattr(k, "_pyfunc") else k.__wrapped__)
                for op, k in kernels.items()}
    assert closures["add"]["fn"] == {"qualified": "_operator:add"}, closures
    assert closures["mul"]["fn"] == {"qualified": "_operator:mul"}, closures
    assert closures["max"]["fn"]["qualified"].endswith(":maximum"), closures
    names = {kernel_name(k._pyfunc if hasattr(k, "_pyfunc") else k.__wrapped__)[0] for k in kernels.values()}
    assert len(names) == 3, names
    import operator
    for op, name in zip(("add", "mul"), (f"{src}::binary@12",) * 2):
        rebuilt = load_kernel(name, closures[op])
        cells = dict(zip(rebuilt.pyfunc.__code__.co_freevars, (c.cell_contents for c in rebuilt.pyfunc.__closure__)))
        assert cells["fn"] is getattr(operator, op) and cells["block"] == 64
    from tileport.frontends.cutile_py.loader import _closure_value
    assert "unknown" in _closure_value(lambda v: v, mod.make, mod, 0)


def test_a_kernel_returning_from_inside_a_for_loop_carries_a_flag(tmp_path):
    """`for j in range(nb): .. if ct.max(t) > thr: ct.store(out, ..); return` then a store after the loop (round
    21b's `first_over_return`), and the same from a loop nested in another (`ret_nested`): refused ("`return`
    inside a loop"). cuTile Python's for_loop_return carries a bool through the loop, each `return` a `break`
    handing on True, and `if flag: return` after the loop; the kernel is rewritten to that Python (rewrite
    kernel-loop-return), inner loops first, and the early return folds the rest into the `else` arm."""
    from kernel_text import resolved

    text, _ = resolved(tmp_path, """
import cuda.tile as ct


@ct.kernel
def k(x, out, nb: int, thr: float, B: ct.Constant[int]):
    r = ct.bid(0)
    for rr in range(2):
        for j in range(nb):
            t = ct.load(x, (r, j), (1, B))
            if ct.max(t) > thr:
                ct.store(out, (r,), ct.full((1,), j, dtype=ct.int32))
                return
    ct.store(out, (r,), ct.full((1,), -1, dtype=ct.int32))
""")
    lines = [line.strip() for line in text.splitlines()]
    assert lines.count("k_returned = False") == 1 and lines.count("k_returned_1 = False") == 1, text
    assert "k_returned = True" in lines and "k_returned_1 = True" in lines and lines.count("break") == 2, text
    assert "if k_returned_1:" in lines and "if k_returned:" in lines and "return" not in lines, text
    # the store after the loop sits in the `else` arm of the outer flag's `if`
    assert text.index("if k_returned:") < text.index("ct.full((1,), -1"), text
