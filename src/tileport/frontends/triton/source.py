"""Find a ``@triton.jit`` kernel in a Python file by reading its AST (nothing is imported, no triton needed)."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from ...errors import TileportError


class TritonSourceError(TileportError):
    """The file or kernel cannot be read as a Triton kernel."""


@dataclass(frozen=True)
class TritonKernel:
    path: Path
    name: str
    fn: ast.FunctionDef
    text: str
    tl: frozenset[str]      # names bound to triton.language in the module (usually {"tl"})
    triton: frozenset[str]  # names bound to the triton package

    @property
    def params(self) -> list[str]:
        return [a.arg for a in self.fn.args.args]

    @property
    def constexprs(self) -> list[str]:
        """Parameters annotated ``tl.constexpr`` (compile-time values: ``ct.Constant`` after lowering)."""
        out = []
        for a in self.fn.args.args:
            ann = a.annotation
            if ann is not None and ((isinstance(ann, ast.Attribute) and ann.attr == "constexpr")
                                    or (isinstance(ann, ast.Name) and ann.id == "constexpr")):
                out.append(a.arg)
        return out

    @property
    def line(self) -> int:
        return self.fn.lineno


def _aliases(tree: ast.Module) -> tuple[set[str], set[str]]:
    tl, tr = set(), set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.name == "triton.language":
                    tl.add(a.asname or "triton")  # `import triton.language` binds `triton`
                elif a.name == "triton":
                    tr.add(a.asname or "triton")
        elif isinstance(n, ast.ImportFrom) and n.module == "triton":
            for a in n.names:
                if a.name == "language":
                    tl.add(a.asname or "language")
                elif a.name == "jit":
                    tr.add("__jit__:" + (a.asname or "jit"))
    return tl, tr


def _is_jit(dec: ast.expr, tr: set[str]) -> bool:
    target = dec.func if isinstance(dec, ast.Call) else dec
    if isinstance(target, ast.Attribute) and target.attr == "jit" and isinstance(target.value, ast.Name):
        return target.value.id in tr
    return isinstance(target, ast.Name) and f"__jit__:{target.id}" in tr


def is_triton_file(path: Path, name: str) -> bool:
    """True when ``path`` defines ``name`` as a ``@triton.jit`` function (False for anything else, unreadable
    files included: the caller's own loader reports those)."""
    try:
        find_kernel(path, name)
        return True
    except TritonSourceError:
        return False


def find_kernel(path: Path, name: str) -> TritonKernel:
    path = Path(path)
    try:
        text = path.read_text()
        tree = ast.parse(text, filename=str(path))
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        raise TritonSourceError(f"{path}: cannot read it as Python: {exc}") from exc
    tl, tr = _aliases(tree)
    jitted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and any(_is_jit(d, tr) for d in n.decorator_list)]
    fn = next((f for f in jitted if f.name == name), None)
    if fn is None:
        names = ", ".join(f.name for f in jitted) or "none"
        raise TritonSourceError(f"{path}: no @triton.jit function {name!r}; Triton kernels in this file: {names}")
    if not tl:
        raise TritonSourceError(f"{path}:{fn.lineno}: the module does not import triton.language")
    return TritonKernel(path.resolve(), name, fn, text, frozenset(tl), frozenset(t for t in tr if ":" not in t))
