"""cuTile Python generality, round 23 (docs/corpus.md): kernels of our own organised as real projects organise them
(factories, functional `ct.kernel(..)` calls, kernels per dtype / op built in loops and comprehensions, helpers
from relative imports and module aliases, config classes), control flow and memory operations, ported with the CLI;
what they found in tileport, each as a test."""
import ast
import textwrap

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
