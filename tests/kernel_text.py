"""A kernel written as text in a test, emitted at a signature (no cargo): shared by the emitter-level tests."""
import ast
import textwrap

from tileport.spec import signature as sigmod
from tileport.translate.emit import emit_kernel

HEADER = "import cuda.tile as ct\n\n\n"


def emit(tmp_path, body: str, sig: str, consts=("B",)):
    """Write ``body`` (one ``@ct.kernel`` function, dedented) under HEADER to ``tmp_path/k.py`` and emit its Rust at
    ``sig`` with ``consts`` constant."""
    src = tmp_path / "k.py"
    src.write_text(HEADER + textwrap.dedent(body))
    fn = next(n for n in ast.parse(src.read_text()).body if isinstance(n, ast.FunctionDef)
              and any("kernel" in ast.unparse(d) for d in n.decorator_list))
    names = [a.arg for a in fn.args.args]
    return emit_kernel(src, fn.name, sigmod.bind(sigmod.parse(sig), names, fn.name), set(consts), {})


def resolved(tmp_path, src: str) -> tuple[str, dict]:
    """``src`` (a module defining ``@ct.kernel def k``) written to ``tmp_path``, loaded, and ``k`` resolved: the
    resolved body as text and its helpers."""
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.translate.resolve import resolve

    path = tmp_path / "kernel_mod.py"
    path.write_text(src)
    kernel = load_kernel(f"{path}::k")
    fn = next(n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name == "k")
    out, helpers = resolve(fn, kernel.pyfunc)
    return "\n".join(ast.unparse(st) for st in out.body), helpers
