"""cuTile Python generality, round 16 (docs/corpus.md): host projects of our own ported with the CLI; what they
found in the translator, each as a test."""
import ast
import re
import textwrap

import pytest

from tileport.spec import signature as sigmod
from tileport.translate.emit import Unsupported, emit_kernel

from kernel_text import HEADER, emit, resolved


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


def test_threads_the_host_code_starts_are_emulated_too(tmp_path):
    """Host code launching from worker threads (a ThreadPoolExecutor, a threading.Thread with a stream of its own):
    torch's function modes are per thread, so tensors asked for on cuda in a worker raised "Found no NVIDIA driver"
    and nothing was captured (round 16's p08_threads). Every thread started under the emulation enters it; after
    it, new threads do not."""
    torch = pytest.importorskip("torch", reason="the capture emulation drives torch host code")
    import concurrent.futures as cf
    import runpy
    import threading

    from tileport.corpus.cudaemu import TARGETS, emulate

    host = tmp_path / "host"
    host.mkdir()
    (host / "threads_host.py").write_text(textwrap.dedent('''\
        import concurrent.futures as cf
        import threading
        import torch

        def work(i):
            t = torch.ones(4 + i, device="cuda")
            return (t.is_cuda, str(t.device), t.numel())

        with cf.ThreadPoolExecutor(max_workers=2) as ex:
            seen = list(ex.map(work, range(3)))
        out = []
        th = threading.Thread(target=lambda: out.append(work(5)))
        th.start()
        th.join()
    '''))
    with emulate(TARGETS["h200"], [str(host)]):
        ns = runpy.run_path(str(host / "threads_host.py"))
    assert ns["seen"] == [(True, "cuda:0", 4), (True, "cuda:0", 5), (True, "cuda:0", 6)]
    assert ns["out"] == [(True, "cuda:0", 9)]
    assert threading.Thread._bootstrap_inner.__qualname__ == "Thread._bootstrap_inner"   # restored
    with cf.ThreadPoolExecutor(max_workers=1) as ex:   # outside the emulation: the CPU as it is
        assert ex.submit(lambda: torch.ones(2).device.type).result() == "cpu"


def _resolved(tmp_path, body: str) -> str:
    src = HEADER + "\n@ct.kernel\ndef k(x, y, B: ct.Constant[int]):\n" + textwrap.indent(body, "    ") + "\n"
    return resolved(tmp_path, src)[0]


@pytest.mark.parametrize("form, reads", [
    ("M, N = x.shape[-2:]", "M = x.shape[-2]\nN = x.shape[-1]"),
    ("M, N = x.shape[1:]", "M = x.shape[1]\nN = x.shape[2]"),
    ("B, T = x.strides[:2]", "B = x.strides[0]\nT = x.strides[1]"),
    ("A, C = x.shape[-3:-1]", "A = x.shape[-3]\nC = x.shape[-2]"),
])
def test_names_unpacked_from_a_slice_of_an_arrays_shape(form, reads, tmp_path):
    """`M, N = x.shape[-2:]` (was refused: "statement .. not supported"): one subscript per name from the slice's
    start, as `M, N = x.shape` is (rewrite tuple-assign; p09_arrapi's `last_dims` proven with `tileport port` in
    round 16). A stepped slice is left as written (refused by the emitter with its position)."""
    assert _resolved(tmp_path, form) == reads
    assert _resolved(tmp_path, "M, N = x.shape[::2]") == "M, N = x.shape[::2]"


ITEM_OR_MAX = """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    v = ct.load(x, index=(ct.bid(0),), shape=(B,))
    first = v.item() if B == 1 else ct.max(v)
    ct.store(y, index=(ct.bid(0),), tile=v - first)
"""


def test_a_constant_conditional_whose_other_arm_cannot_be_written_here_takes_its_arm(tmp_path):
    """`v.item() if B == 1 else ct.max(v)` at B = 128 (was refused: "`.item()` of Tile<f32, { [B] }>"): cuTile
    Python folds the conditional on the constant and never checks the arm not taken; the port writes the arm taken
    (an entry per value); where both arms translate, the generic `if B == 1 { .. } else { .. }` as before."""
    text = "\n".join(emit(tmp_path, ITEM_OR_MAX, "x=f32[?]/1, y=f32[?]/1, B=#128").body)
    assert "reduce_max" in text and "if B == 1" not in text
    text = "\n".join(emit(tmp_path, ITEM_OR_MAX.replace("v.item()", "ct.min(v)"), "x=f32[?]/1, y=f32[?]/1, B=#128").body)
    assert "if B == 1" in text
    with pytest.raises(Unsupported, match="item"):   # the arm taken is still checked
        emit(tmp_path, ITEM_OR_MAX.replace("B == 1", "B == 128"), "x=f32[?]/1, y=f32[?]/1, B=#128")


def test_a_kernel_a_factory_renamed_is_named_by_its_def(tmp_path):
    """A factory that renames what it makes (`body.__name__ = body.__qualname__ = f"{op}_kernel"`, then
    `ct.kernel(body)`, kept in a registry): the capture named it `abs_kernel`, as if defined at module level, which
    the loader could not find ("'abs_kernel' is not defined"; round 16's p14_registry). It is named by its `def`,
    `body@LINE~DIGEST` over the values it closes over, as any factory's kernel."""
    from tileport.frontends.cutile_py.loader import kernel_name

    path = tmp_path / "reg_mod.py"
    path.write_text(textwrap.dedent('''\
        def _make(op):
            def body(x, y):
                return op
            body.__name__ = f"{op}_kernel"
            body.__qualname__ = f"{op}_kernel"
            return body


        def plain(x):
            return x
        plain.__name__ = "renamed"
        '''))
    import importlib.util

    spec = importlib.util.spec_from_file_location("reg_mod", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    (a, ca), (b, cb) = kernel_name(mod._make("abs")), kernel_name(mod._make("neg"))
    assert a.startswith("body@2~") and b.startswith("body@2~") and a != b
    assert ca == {"op": "abs"} and cb == {"op": "neg"}
    assert kernel_name(mod.plain) == ("renamed", None)   # module level: by its name, as before


def test_a_narrow_int_tile_with_an_int_argument_is_computed_in_i32(tmp_path):
    """`(q - zero) * scale` of an int8 tile and an `int` argument (was refused: "i32 scalar with a i8 tile"):
    cuTile Python promotes the tile to i32 (`exti signed`) and subtracts there; an int literal stays weak (the
    tile's dtype). A uint8 tile with an int argument is rejected by cuda.tile itself ("Implicit promotion of uint8
    and int32 is not supported"). Proven with `tileport port` at i8 and i16 (round 16, p12_promote)."""
    body = """
    @ct.kernel
    def k(q, y, scale: float, zero: int, B: ct.Constant[int]):
        t = ct.load(q, (ct.bid(0),), (B,))
        ct.store(y, (ct.bid(0),), (t - zero) * scale + ct.astype(t - 3, ct.float32))
    """
    text = "\n".join(emit(tmp_path, body, "q=i8[?]/1, y=f32[?]/1, scale=f32, zero=i32, B=#128").body)
    assert "Tile<i32, { [B] }> = exti(" in text and "broadcast_scalar(zero," in text
    assert "3i8" in text   # (the literal: the tile's dtype)


def test_a_bool_tile_in_arithmetic_takes_the_numbers_dtype(tmp_path):
    """`t - (t > n)` and `t * (t > 0.0)` (was refused: "tiles of dtypes ['bool', 'i32']"): cuTile Python converts
    the comparison's bool tile, `exti unsigned` to the integer, `itof unsigned` to the float. Both proven with
    `tileport port` (round 16)."""
    body = """
    @ct.kernel
    def k(q, y, n: int, B: ct.Constant[int]):
        t = ct.load(q, (ct.bid(0),), (B,))
        ct.store(y, (ct.bid(0),), t - (t > n))
    """
    text = "\n".join(emit(tmp_path, body, "q=i32[?]/1, y=i32[?]/1, n=i32, B=#128").body)
    assert "exti(" in text
    text = "\n".join(emit(tmp_path, body.replace("t > n", "t > 0.0").replace(", n: int", ""),
                          "q=f32[?]/1, y=f32[?]/1, B=#128").body)
    assert "convert_tile(" in text


HELPERS = '''
def _apply(f, t, *extra):
    return f(t, *extra)


def _axpy(t, a=2.0, b=0.0):
    return t * a + b


def _clamp_then(t, lo=-3.0, hi=3.0, post=None):
    c = ct.minimum(ct.maximum(t, lo), hi)
    return c if post is None else post(c)


def _sq(v):
    return v * v


def _outer(t):
    c = ct.minimum(t, 3.0)
    return _sq(c)

'''


def _resolved_with(tmp_path, body: str) -> tuple[str, dict]:
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.translate.resolve import resolve

    src = HEADER + HELPERS + "\n@ct.kernel\ndef k(x, y, B: ct.Constant[int]):\n" + textwrap.indent(body, "    ") + "\n"
    path = tmp_path / "kernel_mod.py"
    path.write_text(src)
    kernel = load_kernel(f"{path}::k")
    fn = next(n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name == "k")
    out, helpers = resolve(fn, kernel.pyfunc)
    return "\n".join(ast.unparse(st) for st in out.body), {k: ast.unparse(h.fn) for k, h in helpers.items()}


def test_functions_passed_to_helpers_lambdas_and_defaults_through_a_parameter(tmp_path):
    """Round 16's p11_loops `chained_helpers`: (1) `_clamp_then(t, post=lambda v: v * v)`, a lambda given to a
    helper (was refused: "expression `lambda v: v * v`"), is bound to a name before the statement and passed as a
    nested function; (2) `c if post is None else post(c)` in the helper's copy for a function is its arm (was
    refused: "`_sq is None`"); (3) `f(t, *extra)` made `_axpy(t, extra_0)` has `_axpy`'s defaults filled in (was
    refused: "call to _axpy() other than with one positional argument per parameter"). Each kernel proven with
    `tileport port`."""
    text, helpers = _resolved_with(tmp_path, "t = ct.load(x, (ct.bid(0),), (B,))\n"
                                             "u = _clamp_then(t, post=lambda v: v * v)\nct.store(y, (ct.bid(0),), u)")
    assert "lambda v" not in text and "_clamp_then__post_lambda(t, -3.0, 3.0)" in text
    assert "return post_lambda(c)" in helpers["_clamp_then__post_lambda"]
    _, helpers = _resolved_with(tmp_path, "t = ct.load(x, (ct.bid(0),), (B,))\n"
                                          "ct.store(y, (ct.bid(0),), _clamp_then(t, post=_sq))")
    assert "return _sq(c)" in helpers["_clamp_then___sq"] and " is None" not in helpers["_clamp_then___sq"]
    _, helpers = _resolved_with(tmp_path, "t = ct.load(x, (ct.bid(0),), (B,))\n"
                                          "ct.store(y, (ct.bid(0),), _apply(_axpy, t, 0.5))")
    assert "return _axpy(t, extra_0, 0.0)" in "\n".join(helpers.values())


def test_a_product_returned_through_two_helpers_bound_to_a_name_then_summed(tmp_path):
    """`u = _outer(t)` of `return _sq(c)`, then `u + t` (was refused: "1 fma(s) in the reference IR .. for 0
    candidate sums"): cuTile Python inlines both and contracts the sum with `_sq`'s product; the factors are returned
    through the chain and the product made where `u` is bound, as for `_outer(t) + t` (rewrite
    helper-product-operand). A name never summed keeps the call as written."""
    text, _ = _resolved_with(tmp_path, "t = ct.load(x, (ct.bid(0),), (B,))\nu = _outer(t)\n"
                                       "ct.store(y, (ct.bid(0),), u + t)")
    assert "u_l, u_r = _outer__factors(t)\nu = u_l * u_r" in text
    text, _ = _resolved_with(tmp_path, "t = ct.load(x, (ct.bid(0),), (B,))\nu = _outer(t)\nct.store(y, (ct.bid(0),), u)")
    assert "u = _outer(t)" in text


def test_a_bool_flag_reassigned_a_comparison_in_a_loop_is_bound_typed_first(tmp_path):
    """`done = ct.max(acc) > 100.0` in a `while not done and ..` loop: the port wrote `done =
    tile_to_scalar::<bool, bool>(gt_tile(..))`, on which cutile 0.3.1's compiler panics ("get_ident_generic_args:
    Unexpected generic arguments", irgen failed: unproven); the comparison is bound to a typed 0-d tile first.
    Proven with `tileport port` (round 16, p19_forms `while_not`)."""
    body = """
    @ct.kernel
    def k(x, y, n: int, B: ct.Constant[int]):
        k = 0
        done = False
        acc = ct.zeros((B,), ct.float32)
        while not done and not (k >= n):
            acc = acc + ct.load(x, (k,), (B,))
            done = ct.max(acc) > 100.0
            k = k + 1
        ct.store(y, (ct.bid(0),), acc)
    """
    text = "\n".join(emit(tmp_path, body, "x=f32[?]/1, y=f32[?]/1, n=i32, B=#128").body)
    assert "tile_to_scalar::<bool, bool>(gt_tile(" not in text
    assert re.search(r"let done_tile\w*: Tile<bool, \{ \[\] \}> = gt_tile\(", text)
    assert re.search(r"done = tile_to_scalar::<bool, bool>\(done_tile\w*\);", text)


def test_a_helper_forwarding_args_and_keywords(tmp_path):
    """`def _fwd(*args, **kw): return _mid(*args, **kw)` called `_fwd(t, s, bias=1.0)` (was refused: "call to
    _fwd() other than with one positional argument per parameter"): a copy per count of extra arguments keeping
    `**kw` (helper-variadic), then a copy per set of keywords (helper-keywords)."""
    body = ("t = ct.load(x, (ct.bid(0),), (B,))\n"
            "ct.store(y, (ct.bid(0),), _fwd(t, 2.0, bias=1.0))")
    global HELPERS
    saved = HELPERS
    HELPERS = saved + '''
def _fwd(*args, **kw):
    return _mid(*args, **kw)


def _mid(t, k, *, bias=0.0):
    return ct.minimum(t + bias, k)

'''
    try:
        text, helpers = _resolved_with(tmp_path, body)
    finally:
        HELPERS = saved
    assert "_fwd__2__kw_bias(t, 2.0, bias=1.0)" in text or "_fwd__2__kw_bias(t, 2.0, 1.0)" in text, text
    assert "_mid(args_0, args_1, bias)" in helpers["_fwd__2__kw_bias"] or \
        "_mid(args_0, args_1, bias=bias)" in helpers["_fwd__2__kw_bias"], helpers


def test_a_product_chosen_by_a_folded_conditional_is_contracted_where_summed(tmp_path):
    """`u = t * k if mode == "lin" else ct.exp2(t)` in a helper called with mode "lin", then `_leaf(u)` adding it
    (was refused: "1 fma(s) .. for 0 candidate sums"): the conditional on a string (or bool, float) constant is
    folded, so `u` is the product and the sum a candidate, as cuTile Python contracts it (proven with `tileport
    port`). On an int constant the conditional is written on the const generics and stays refused so."""
    src = HEADER + '''
def _leaf(v, bias=0.0):
    return ct.minimum(v + bias, 6.0)


def _mid(t, k, bias=0.0, mode="lin"):
    u = t * k if mode == "lin" else ct.exp2(t)
    return _leaf(u, bias)


@ct.kernel
def k(x, y, s: float, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (B,))
    ct.store(y, (ct.bid(0),), _mid(t, s, 1.0))
'''
    path = tmp_path / "k.py"
    path.write_text(src)
    fn = next(n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name == "k")
    from tileport.frontends.cutile_py.loader import load_kernel

    sig = sigmod.bind(sigmod.parse("x=f32[?]/1, y=f32[?]/1, s=f32, B=#128"), [a.arg for a in fn.args.args], "k")
    e = emit_kernel(path, "k", sig, {"B"}, {(6, 22): 1}, load_kernel(f"{path}::k").pyfunc)
    assert "fma(" in "\n".join(e.body)
