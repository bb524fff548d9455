"""cuTile Python generality, round 26 (docs/corpus.md): the Python language surface cuda.tile 1.7's front end
accepts — tuples and their names, comprehensions, dtype constructors, constant bools, module constants of every kind,
helpers of every form — ported with the CLI; what it found in tileport, each as a test (the kernels proven in
test_port's SMALL_KERNELS, tests/fixtures/cutile_round26.py)."""
import pytest

import ast
import textwrap

from conftest import load_module
from kernel_text import HEADER
from test_cutile_round21 import emit_resolved
from fixtures.cutile_round26 import KERNELS
from tileport.spec import signature as sigmod
from tileport.translate.emit import Unsupported, emit_kernel


def _body(em) -> str:
    return "\n".join(em.body)


def _emit_with_fmas(tmp_path, body: str, sig: str, consts: tuple, fmas: dict[str, int]):
    """The kernel emitted as `tileport port` emits it where its reference IR has ``fmas[text]`` fmas at the sum
    ``text`` (found in the file: its line and column, as the reference IR states an fma's position; `line|sum` names
    the sum on the line holding `line`)."""
    src = tmp_path / "k.py"
    src.write_text(HEADER + textwrap.dedent(body))
    lines = src.read_text().splitlines()
    locs = {}
    for text, n in fmas.items():
        mark, _, text = text.rpartition("|")
        row = next(k for k, line in enumerate(lines) if (mark or text) in line)
        locs[(row + 1, lines[row].index(text, lines[row].index(mark or text)))] = n
    module = load_module(src, f"k26_{abs(hash(str(tmp_path)))}")
    fn = next(n for n in ast.parse(src.read_text()).body if isinstance(n, ast.FunctionDef)
              and any("kernel" in ast.unparse(d) for d in n.decorator_list))
    names = [a.arg for a in fn.args.args]
    return emit_kernel(src, fn.name, sigmod.bind(sigmod.parse(sig), names, fn.name), set(consts), locs,
                       pyfunc=getattr(module, fn.name)._pyfunc)


def _fixture(tmp_path, name: str, consts: tuple):
    text, sig = KERNELS[name]
    return emit_resolved(tmp_path, text, sig, consts=consts)


def test_tuple_names_of_constants_extents_and_joins(tmp_path):
    """`SHAPE = SHAPES[K]` (a module tuple of tuples, K a constant) read as `SHAPE[-2:]` / `SHAPE[-1]`, `dims =
    x.shape` read as `dims[0]`, `shape = (1,) + (B,)` and `rep = shape + idx` of such names, `args = (idx, shape)`
    passed as `ct.load(x, *args)` (round 26's p02 `tuple_slice_neg`, `tuple_param`, `tuple_concat`, `star_call`):
    each refused ("expression `(1, 2, 64)`", "expression `x.shape`", "expression `(1, B)`", "unknown name 'idx'").
    A name bound once to a tuple of literals or to an array's extents is that tuple where it is read, by element
    too, folded as Python indexes it; a tuple only once resolved is inlined then, again until nothing changes."""
    body = _body(_fixture(tmp_path, "r26_tuple_names", ("K", "B")))
    assert "let mut t: Tile<f32, { [2, 64] }> = x_view.load([i, 0]);" in body, body
    assert "x.shape()[0]" in body and "x.shape()[1]" in body, body
    assert "64.0f32" in body, body
    assert "shape![1, B]" in body, body


def test_a_tuple_comprehension_with_if(tmp_path):
    """`tuple(ct.load(..) for k in ct.static_iter(range(N)) if k % 2 == 0 and k < N - 1)` (round 26's p02
    `tuple_comp_if`): refused ("call `tuple(...)`"). cuTile Python decides each condition per item while unrolling
    (tuple_comp_if); the port keeps the items whose conditions hold: k = 0, 2, 4 of N = 6."""
    body = _body(_fixture(tmp_path, "r26_comp_if", ("B", "N")))
    for k in (0, 2, 4):
        assert f"(i * N) + {k}i32" in body, body
    assert "(i * N) + 1i32" not in body and "(i * N) + 3i32" not in body, body


def test_a_tuple_comprehension_with_a_runtime_if_stays_refused(tmp_path):
    """A condition on a runtime value cannot decide a tuple's length: the comprehension stays refused at its
    file:line:col (cuda.tile rejects it too)."""
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: call `tuple\(\.\.\.\)`"):
        emit_resolved(tmp_path, """
         @ct.kernel
         def k(x, y, B: ct.Constant[int]):
             i = ct.bid(0)
             parts = tuple(ct.load(x, (k,), (B,)) for k in ct.static_iter(range(4)) if i > k)
             ct.store(y, (i,), parts[0])
         """, "x=f32[?]/1, y=f32[?]/1, B=#64")


def test_dtype_constructors(tmp_path):
    """`ct.float32(1.5)`, `np.float32(1.5)`, `ct.int32(3.9)`, `ct.float32(n)` in a kernel (round 26's p01
    `inline_math`): refused ("call `ct.float32(...)`"). cuTile Python's dtype constructor makes a constant argument
    a constant of that dtype (converted as Python converts it) and converts any other scalar: the 0-d tile a numpy
    scalar is spelled as, and `ct.astype`."""
    body = _body(_fixture(tmp_path, "r26_dtype_ctor", ("B",)))
    assert "constant(1.5f32, shape![])" in body, body
    assert "constant(3i32, shape![])" in body, body
    assert "let filled_3: Tile<f16, { [] }> = { let wide: Tile<f32, { [] }> = constant(-2.0f32, shape![]);" in body, \
        body   # (an f16 constant: cutile's f16 literal goes through f32, as the numpy scalar's does)


def test_constant_bool_arithmetic(tmp_path):
    """`(A << 1) | C`, `A + C` of `ct.Constant[bool]`s (round 26's p05 `bool_const_mix`): refused ("a shift of
    boolean tiles"); Python's int, folded as cuTile Python folds it."""
    body = _body(_fixture(tmp_path, "r26_bool_consts", ("B", "A", "C")))
    assert "<<" not in body, body
    assert "2f32" in body or "2.0f32" in body, body


def test_a_product_passed_to_a_helper_is_contracted_there(tmp_path):
    """`_add26(_sq26(t))` / `inc(t * 0.5)` / `_add26(t * t, t)` (round 26's p04 `lambda_helpers`: a helper's `v + c`
    given a product): refused ("1 fma(s) in the reference IR at .. for 0 candidate sums") — cuTile Python inlines
    first, then contracts the product it is given with the helper's sum. A product written in the call, or a
    helper's returned product, is carried into the parameter as a product held by a name already was: the sum
    there is an fma of its factors."""
    text, sig = KERNELS["r26_product_args"]
    body = _body(_emit_with_fmas(tmp_path, text, sig, ("B",), {"return v + c|v + c": 2, "lambda v, c=2.0|v + c": 1}))
    assert body.count("fma(") == 3, body


def test_a_static_loop_over_no_items_holds_no_fma(tmp_path):
    """`_scale_all26(a, k=0.5)` of a variadic helper whose `for t in ct.static_iter(ts[1:])` has no items in that
    copy (round 26's p04 `varargs_kwonly`): its body was counted as a place of the reference's fmas ("2 fma(s) ..
    for 3 candidate sums"); a loop over no items runs no iteration and is dropped, as cuTile Python runs none."""
    text, sig = KERNELS["r26_variadic_empty"]
    body = _body(_emit_with_fmas(tmp_path, text, sig, ("B",), {"out + t * k": 2}))
    assert body.count("fma(") == 2, body


def test_a_helpers_product_returned_through_a_name_is_contracted_by_the_caller(tmp_path):
    """A helper ending `out = v * k; return out` added to in the kernel (`scaled(a) + a`; round 26's p04
    `varargs_kwonly`, `_scale_all(a, k=0.5)` of a one-argument copy): refused ("1 fma(s) .. for 0 candidate sums");
    `return v * k` (rewrite helper-named-product), a product the caller's sum contracts as cuTile Python does."""
    body = _body(_emit_with_fmas(tmp_path, """
         @ct.function
         def scaled(v, k=2.0):
             out = v * k
             return out

         @ct.kernel
         def k(x, y, B: ct.Constant[int]):
             i = ct.bid(0)
             a = ct.load(x, (i,), (B,))
             ct.store(y, (i,), scaled(a) + a)
         """, "x=f32[?]/1, y=f32[?]/1, B=#64", ("B",), {"scaled(a) + a": 1}))
    assert body.count("fma(") == 1, body


def test_a_named_product_read_twice_is_left_as_written(tmp_path):
    """`out = v * k; w = out + 1.0; return out`: `out` is read besides the return, so the helper keeps its name
    (no fma where the reference has none)."""
    body = _body(emit_resolved(tmp_path, """
         @ct.function
         def scaled(v, k=2.0):
             out = v * k
             w = out + 1.0
             return out

         @ct.kernel
         def k(x, y, B: ct.Constant[int]):
             i = ct.bid(0)
             ct.store(y, (i,), scaled(ct.load(x, (i,), (B,))) + 1.0)
         """, "x=f32[?]/1, y=f32[?]/1, B=#64"))
    assert "fma(" not in body, body


def test_a_frozen_dataclass_in_device_code(tmp_path):
    """`Stats26(m, s)` carried through a static loop and a helper (`_merge26(st, Stats26(..))`, `a.m`), `Blk26(cols=32)`
    as a load shape, `dataclasses.replace(st, s=..)` (round 26's p06 `dataclass_state`, `dataclass_const_cfg`,
    `dataclass_replace`): refused ("call `Stats(...)`"). cuda.tile 1.7 builds a frozen dataclass as an aggregate of
    its fields: the tuple of the fields, read by index (rewrite dataclass-tuple), carried as tuples are."""
    body = _body(_fixture(tmp_path, "r26_dataclass", ("NB",)))
    assert "Tile<f32, { [1, 32] }>" in body, body
    assert "Stats26" not in body and "Blk26" not in body, body


def test_a_dataclass_field_named_like_a_tile_attribute_is_left_as_written(tmp_path):
    """A field named like a tile's attribute (`shape`) is never read through a local: `p.shape` stays the tile
    attribute it also is, and the dataclass stays refused at its file:line:col."""
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: "):
        emit_resolved(tmp_path, """
         import dataclasses


         @dataclasses.dataclass(frozen=True)
         class Boxed:
             shape: object


         @ct.kernel
         def k(x, y, B: ct.Constant[int]):
             i = ct.bid(0)
             p = Boxed(ct.load(x, (i,), (B,)))
             ct.store(y, (i,), p.shape)
         """, "x=f32[?]/1, y=f32[?]/1, B=#64")


def test_a_generator_context_manager_is_inlined(tmp_path):
    """`with _scaled26(t, 3.0) as u:` of a `@contextlib.contextmanager` generator of the kernel's module (round 26's
    p06 `with_ctx`): refused ("statement `with ..`"). cuda.tile 1.7 runs the generator to its `yield`, binds the
    value, runs the body, then the rest: the port inlines it in that order, the generator's names renamed (rewrite
    generator-context)."""
    body = _body(_fixture(tmp_path, "r26_with_context", ("B",)))
    assert "let _scaled26_w: Tile<f32, { [B] }> = " in body, body
    assert "with" not in body, body


def test_a_generator_with_two_yields_stays_refused(tmp_path):
    """A generator yielding twice is no context manager cuda.tile takes: the `with` stays refused at its
    file:line:col."""
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: statement `with "):
        emit_resolved(tmp_path, """
         import contextlib


         @contextlib.contextmanager
         def twice(t):
             yield t
             yield t


         @ct.kernel
         def k(x, y, B: ct.Constant[int]):
             i = ct.bid(0)
             with twice(ct.load(x, (i,), (B,))) as u:
                 ct.store(y, (i,), u)
         """, "x=f32[?]/1, y=f32[?]/1, B=#64")
