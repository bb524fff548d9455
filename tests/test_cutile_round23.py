"""cuTile Python generality, round 23 (docs/corpus.md): kernels of our own organised as real projects organise them
(factories, functional `ct.kernel(..)` calls, kernels per dtype / op built in loops and comprehensions, helpers
from relative imports and module aliases, config classes), control flow and memory operations, ported with the CLI;
what they found in tileport, each as a test."""
import ast
import textwrap

from kernel_text import resolved
from test_cutile_round21 import emit_resolved
from tileport.corpus.scan import kernels_in_file
from tileport.translate.helpers import kernel_def

FACTORY = textwrap.dedent('''
    import cuda.tile as ct

    def _mk(op):
        def binop(a, c, B: ct.Constant[int]):
            t = ct.load(a, (ct.bid(0),), (B,))
            ct.store(c, (ct.bid(0),), t + t if op == "add" else t * t)
        return ct.kernel(occupancy=2)(binop)

    KERNELS = {op: _mk(op) for op in ("add", "mul")}

    def binop(a, op):
        c = a.new_empty(a.shape)
        ct.launch(None, (1,), KERNELS[op], (a, c, 128))
        return c

    def scale_body(x, y, B: ct.Constant[int]):
        ct.store(y, (ct.bid(0),), ct.load(x, (ct.bid(0),), (B,)) * 2.0)

    scale = ct.kernel(scale_body)
''')


def _inner_binop(tree):
    mk = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_mk")
    return next(n for n in mk.body if isinstance(n, ast.FunctionDef) and n.name == "binop")


def test_a_factory_kernel_beside_a_module_function_of_its_name(tmp_path):
    """A factory's `def binop(..)` made a kernel by `ct.kernel(occupancy=2)(binop)` beside the module's launcher
    `def binop(a, op)` (round 23's v01 `binop`, `cast_scale`): the kernel's `def` was looked up at the module's top
    level first, so analyze and translate read the launcher (`torch.empty_like`: refused as a helper call) — the
    kernel is the `def` starting at the function's first line where the top-level one does not."""
    tree = ast.parse(FACTORY)
    inner = _inner_binop(tree)
    outer = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "binop")
    assert inner is not outer
    assert kernel_def(tree, "binop", inner.lineno) is inner
    assert kernel_def(tree, "binop", outer.lineno) is outer
    assert kernel_def(tree, "binop") is outer          # no line: the module's, as before
    assert kernel_def(tree, "binop", 999) is outer      # a line no def starts at: the module's, as before


def test_the_scan_finds_the_def_a_functional_kernel_call_sees(tmp_path):
    """`ct.kernel(..)(binop)` inside a factory wraps the factory's own `def binop`, not the module's launcher of that
    name: the scan listed the launcher as a kernel no test launched (and the factory's one was found only by its
    launches). A call at the module's level still wraps the module's function."""
    f = tmp_path / "m.py"
    f.write_text(FACTORY)
    found = {(k.name, k.qualname) for k in kernels_in_file(f, "m.py")}
    inner_line = _inner_binop(ast.parse(FACTORY)).lineno
    assert found == {(f"binop@{inner_line}", "_mk.<locals>.binop"), ("scale_body", "scale_body")}, found


BISECT = """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    r = ct.bid(0)
    t = ct.load(x, (r, 0), (1, B))
    state = (ct.min(t), ct.max(t))
    it = 0
    while it < 4:
        lo, hi = state
        mid = 0.5 * (lo + hi)
        state = (mid, hi) if ct.sum(t) > mid else (lo, mid)
        it += 1
    ct.store(y, (r,), ct.full((1,), state[0], ct.float32))
"""


def test_a_tuple_name_re_bound_to_a_conditional_of_tuples(tmp_path):
    """`state = (ct.min(t), ct.max(t))` carried by a `while` and re-bound to `(mid, hi) if c else (lo, mid)`
    (round 23's v08 `while_tuple_state_kernel`, a bisection): the tuple-name split took only tuples and helper
    results as a re-binding, so `state` stayed a tuple and was refused ("expression `(ct.min(t), ct.max(t))`"). A
    conditional of tuples is a tuple binding too: `state_0, state_1 = (..) if c else (..)`, then tuple-conditional's
    one `if` (as cuTile Python's conditional yields both items). `build/host23/unit/ts.py` ts_a (while) and ts_d
    (for) proven with `tileport port`."""
    text, _ = resolved(tmp_path, "import cuda.tile as ct\n" + BISECT)
    lines = [line.strip() for line in text.splitlines()]
    assert "state_0 = ct.min(t)" in lines and "state_1 = ct.max(t)" in lines, text
    at = lines.index("if ct.sum(t) > mid:")
    assert lines[at:at + 6] == ["if ct.sum(t) > mid:", "state_0 = mid", "state_1 = hi", "else:", "state_0 = lo",
                                "state_1 = mid"], text
    assert "state_0, state_1 = (ct.min(t), ct.max(t))" not in lines, text
    em = emit_resolved(tmp_path, BISECT, "x=f32[?,?]/?,1, y=f32[?]/1, B=#64")
    code = "\n".join(em.body)
    assert "state_0" in code and "state_1" in code, code


CAS_MAX = """
@ct.kernel
def k(x, best, B: ct.Constant[int]):
    m = ct.max(ct.load(x, (ct.bid(0),), (B,)))
    mb = ct.bitcast(m, ct.int32)
    old = ct.load(best, (0,), (1,)).item()
    while mb > old:
        seen = ct.atomic_cas(best, 0, old, mb{order})
        if seen == old:
            break
        old = seen
"""


def test_an_array_loaded_and_updated_by_atomics_in_an_acquire_ordered_kernel(tmp_path):
    """`old = ct.load(best, ..)` then a CAS loop on `best` (round 23's v07 `cas_max_bits_kernel`, a float max by its
    bits): refused ("array 'best' is scattered into and also loaded or stored as tiles": a view's token does not see
    the pointer ops). In an acquire-ordered kernel (the CAS acquires, in a loop) every operation on an array goes
    through that array's own two tokens, views and pointer ops alike (acquire_ordered): the load's view starts from
    best's last write, the CAS waits on best's last operation, which the load's view token joined. A relaxed CAS
    (no acquire order) is still refused."""
    import pytest
    from kernel_text import emit
    from tileport.translate.emit import Unsupported

    em = emit(tmp_path, CAS_MAX.format(order=""), "x=f32[?]/1, best=i32[?]/1, B=#128")
    body = "\n".join(em.body)
    assert "zz_01best_token = join_tokens(&[zz_01best_token, get_partition_token(&best_view)]);" in body, body
    assert "join_tokens(&[zz_01best_token, zz_00x_token, zz_zz_acquire])" in body, body
    with pytest.raises(Unsupported, match="scattered into and also loaded"):
        emit(tmp_path, CAS_MAX.format(order=", memory_order=ct.MemoryOrder.RELAXED"),
             "x=f32[?]/1, best=i32[?]/1, B=#128")


def test_a_helper_named_like_a_rust_keyword(tmp_path):
    """A factory's `def named(..)` calling `fn(t)`, `fn` the factory's argument (`_make_named(fn)`, here a module
    function of that name; round 23's v09 `named`, `u_clo` `named_fn`): the keyword escape renamed the call to
    `fn_(..)`, which names no helper (refused: "call `fn(...)`"); a helper is inlined by its resolved name, so the
    names of the helpers called keep theirs (a local `fn = 2.0` is still renamed)."""
    em = emit_resolved(tmp_path, """
def fn(v):
    return v / (1.0 + ct.exp(-v))


@ct.kernel
def k(x, y, B: ct.Constant[int]):
    i = ct.bid(0)
    loop = 2.0
    ct.store(y, (i,), fn(ct.load(x, (i,), (B,))) * loop)
""", "x=f32[?]/1, y=f32[?]/1, B=#128")
    body = "\n".join(em.body)
    assert "let loop_: f32 = 2.0" in body, body
    assert "exp(" in body, body


HELPERS_MOD = '''\
import cuda.tile as ct


def make_scale(s):
    def scale(x):
        return x * s
    return scale
'''

KERNELS_MOD = '''\
import cuda.tile as ct

from .helpers import make_scale


def get_kernel(block, s):
    sc = make_scale(s)

    @ct.kernel
    def act_scale(x, y):
        i = ct.bid(0)
        ct.store(y, (i,), sc(ct.load(x, (i,), (block,))))
    return act_scale
'''


def test_a_factory_closing_over_a_function_another_modules_factory_made(tmp_path):
    """`sc = helpers.make_scale(s)` (a `def scale(x)` over `s`, made by a function of another module of the package)
    closed over by a kernel factory (round 23's v09 `act_scale`): recorded as `{"unknown": "function"}`, so the two
    scales had one digest and the port failed ("a function the capture could not record"). A local function of
    another module is recorded as one of the kernel's own file is — its `def` line and closure — with the module's
    name, and rebuilt from that module's source."""
    import importlib
    import sys

    from tileport.frontends.cutile_py.loader import closure_values, kernel_name, load_kernel

    pkg = tmp_path / "r23pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text(HELPERS_MOD)
    (pkg / "ks.py").write_text(KERNELS_MOD)
    sys.path.insert(0, str(tmp_path))
    try:
        mod = importlib.import_module("r23pkg.ks")
        ks = [mod.get_kernel(64, s) for s in (0.5, 2.0)]
        funcs = [k._pyfunc if hasattr(k, "_pyfunc") else k.__wrapped__ for k in ks]
        closures = [closure_values(f) for f in funcs]
        assert closures[0]["sc"] == {"function": "scale", "line": 5, "tile_function": False, "closure": {"s": 0.5},
                                     "module": "r23pkg.helpers"}, closures
        assert len({kernel_name(f)[0] for f in funcs}) == 2
        rebuilt = load_kernel(f"{pkg / 'ks.py'}::act_scale@10", closures[1])
        cells = dict(zip(rebuilt.pyfunc.__code__.co_freevars, (c.cell_contents for c in rebuilt.pyfunc.__closure__)))
        assert cells["block"] == 64 and cells["sc"].__code__.co_freevars == ("s",)
        assert cells["sc"].__closure__[0].cell_contents == 2.0
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("r23pkg")]:
            del sys.modules[name]


def test_a_kernel_made_in_another_module_of_a_function_defined_here(tmp_path):
    """`axpy = ct.kernel(axpy_body)` in `ops.py` over `from .bodies import axpy_body` (round 23's v10 `reg`): a
    capture names the kernel by its function's file (`bodies.py::axpy_body`), where the loader found a plain
    function ("'axpy_body' is a function, not a @ct.kernel; kernels in this file: none"). The kernels made of that
    very function are looked for in the package's other modules: those already imported, else the file's siblings
    (a package `__init__` that does not import `ops`)."""
    import sys

    from tileport.frontends.cutile_py.loader import KernelLoadError, load_kernel

    for init in ("from .ops import axpy  # noqa\n", ""):
        pkg = tmp_path / f"r23reg{len(init)}"
        pkg.mkdir()
        (pkg / "__init__.py").write_text(init)
        (pkg / "bodies.py").write_text("import cuda.tile as ct\n\n\ndef axpy_body(x, y, a, B: ct.Constant[int]):\n"
                                       "    i = ct.bid(0)\n"
                                       "    ct.store(y, (i,), a * ct.load(x, (i,), (B,)))\n\n\n"
                                       "def plain(x):\n    return x\n")
        (pkg / "ops.py").write_text("import cuda.tile as ct\n\nfrom .bodies import axpy_body\n\n"
                                    "axpy = ct.kernel(occupancy=2)(axpy_body)\n")
        try:
            k = load_kernel(f"{pkg / 'bodies.py'}::axpy_body")
            assert k.pyfunc.__name__ == "axpy_body" and k.path == (pkg / "bodies.py").resolve()
            import pytest
            with pytest.raises(KernelLoadError, match="'plain' is a function, not a @ct.kernel"):
                load_kernel(f"{pkg / 'bodies.py'}::plain")
        finally:
            for name in [n for n in sys.modules if n.startswith(pkg.name)]:
                del sys.modules[name]


CHAIN_FACTORY = '''\
import cuda.tile as ct


def _sq(x):
    return x * x


def _neg(x):
    return -x


def build(chain, block):
    @ct.kernel
    def chained(x, y):
        i = ct.bid(0)
        t = ct.load(x, (i,), (block,))
        for f in ct.static_iter(chain):
            t = f(t)
        ct.store(y, (i,), t)
    return chained


K = build((_neg, _sq, _neg), 128)
'''


def test_a_static_loop_over_a_closed_over_tuple_of_functions(tmp_path):
    """`for f in ct.static_iter(chain): t = f(t)` with `chain = (_neg, _sq, _neg)` a factory's argument (round 23's
    `u_cls` `chained`, an epilogue chain a class method builds; a module tuple `module_chain` too): refused ("`for`
    over ct.static_iter(iterable=chain)"); a tuple of functions has no literal spelling for the emitter's unrolling.
    Unrolled in resolve with `chain[k]` for `f`, each call then helper-table's call of the function taken."""
    import importlib.util

    from tileport.translate.helpers import kernel_def
    from tileport.translate.resolve import resolve

    src = tmp_path / "chain_factory.py"
    src.write_text(CHAIN_FACTORY)
    spec = importlib.util.spec_from_file_location("chain_factory", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    py = mod.K._pyfunc if hasattr(mod.K, "_pyfunc") else mod.K.__wrapped__
    fn = kernel_def(ast.parse(CHAIN_FACTORY), "chained", py.__code__.co_firstlineno)
    out, helpers = resolve(fn, py)
    text = ast.unparse(out)
    assert "t = _neg(t)\n    t = _sq(t)\n    t = _neg(t)" in text and "static_iter" not in text, text
    assert set(helpers) == {"_neg", "_sq"}, helpers


def test_a_factory_given_a_builtin_as_its_helper(tmp_path):
    """`make(abs, 2.0)` of a factory whose kernel calls `act(t)` (round 23's `u_more` `lam`): the capture records
    `{"qualified": "builtins:abs"}`, but `act` named no helper (refused: "call `act(...)`": a builtin is no Python
    function to inline). A name bound to a builtin BUILTIN_CALLS maps (abs, min, max, divmod, print) is that
    builtin's call, as the builtin's own name is (`ct.abs(t)`)."""
    import importlib.util

    from tileport.translate.helpers import kernel_def
    from tileport.translate.resolve import resolve

    code = ("import cuda.tile as ct\n\n\ndef make(act):\n    @ct.kernel\n    def k(x, y, B: ct.Constant[int]):\n"
            "        i = ct.bid(0)\n        ct.store(y, (i,), act(ct.load(x, (i,), (B,))))\n    return k\n\n\n"
            "K = make(abs)\n")
    src = tmp_path / "builtin_factory.py"
    src.write_text(code)
    spec = importlib.util.spec_from_file_location("builtin_factory", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    py = mod.K._pyfunc if hasattr(mod.K, "_pyfunc") else mod.K.__wrapped__
    out, _ = resolve(kernel_def(ast.parse(code), "k", py.__code__.co_firstlineno), py)
    assert "ct.abs(ct.load(" in ast.unparse(out) and "act(" not in ast.unparse(out), ast.unparse(out)
