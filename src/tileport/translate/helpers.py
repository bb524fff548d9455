"""The `@ct.function` helpers a kernel may call, and so the translator may inline: the kernel file's own module-level
helpers, and helpers it imports by name from another module (`from .attention import online_step` or
`from tileport.kernels.attention import online_step`) — one definition shared by several kernels, as cuTile Python
allows. Each helper keeps the file it was written in: the reference IR places its ops (and the fmas the translator
must match) at that file's lines."""
from __future__ import annotations

import ast
import hashlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from ..astwalk import walk_nodes


@dataclass(frozen=True)
class Helper:
    fn: ast.FunctionDef
    file: Path   # resolved path of the module that defines it
    src: str     # that module's source


def is_helper(fn: ast.AST) -> bool:
    """A function decorated `@ct.function` or `@ct.function(...)`."""
    return isinstance(fn, ast.FunctionDef) and any(
        isinstance(d, ast.Attribute) and d.attr == "function" and isinstance(d.value, ast.Name) and d.value.id == "ct"
        for d in (dec.func if isinstance(dec, ast.Call) else dec for dec in fn.decorator_list))


def module_file(file: Path, node: ast.ImportFrom, search_path: bool = True) -> Path | None:
    """The source file of the module ``node`` imports from: relative to ``file``'s package, else (no dots) beside
    ``file`` or under the root its package sits in (read, not imported), else — with ``search_path`` — found on
    the path (``find_spec``, which imports a dotted name's parent packages); None when it is not a plain Python
    source file."""
    parts = node.module.split(".") if node.module else []
    if node.level:
        base = file.resolve().parent
        for _ in range(node.level - 1):
            base = base.parent
        roots = [base]
    else:
        top = file.resolve().parent
        while (top / "__init__.py").is_file():
            top = top.parent
        roots = list(dict.fromkeys([file.resolve().parent, top]))
    for root in roots:
        stem = root.joinpath(*parts)
        for cand in ((stem.with_suffix(".py"),) if parts else ()) + (stem / "__init__.py",):
            if cand.is_file():
                return cand
    if node.level or not search_path:
        return None
    try:
        spec = importlib.util.find_spec(node.module or "")
    except (ImportError, ValueError):
        return None
    origin = getattr(spec, "origin", None)
    return Path(origin).resolve() if origin and origin.endswith(".py") else None


def kernel_helpers(file: Path, tree: ast.Module, kernel: ast.FunctionDef) -> dict[str, Helper]:
    """Name → helper for every module-level `@ct.function` of ``file`` and every one it imports by name (`from m
    import h` or `from m import h as g` at module level; the name a kernel calls it by is the key)."""
    src = file.read_text()
    found = {n.name: Helper(n, file.resolve(), src) for n in tree.body if n is not kernel and is_helper(n)}
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        path = module_file(file, node)
        if path is None or path == file.resolve():
            continue
        other_src = path.read_text()
        defs = {n.name: n for n in ast.parse(other_src, filename=str(path)).body if is_helper(n)}
        for alias in node.names:
            if alias.name in defs:
                found[alias.asname or alias.name] = Helper(defs[alias.name], path, other_src)
    return found


def kernel_def(tree: ast.Module, name: str, line: int | None = None) -> ast.FunctionDef | None:
    """The kernel's `def`: at the module's top level, else (a kernel a factory makes, a `@staticmethod` on a class)
    the `def` of that name starting at ``line`` (its first line or a decorator's), or the only one of that name.
    A top-level function of the kernel's name that does not start at ``line`` is not the kernel where a `def` inside
    a function does (a factory's `def binop(..)` beside the module's launcher `def binop(..)`)."""
    def starts_at(n: ast.FunctionDef) -> bool:
        return n.lineno == line or any(d.lineno == line for d in n.decorator_list)

    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    defs = [n for n in walk_nodes(tree) if isinstance(n, ast.FunctionDef) and n.name == name]
    if fn is not None and (line is None or starts_at(fn) or not any(starts_at(n) for n in defs)):
        return fn
    at = [n for n in defs if line is not None and starts_at(n)]
    return at[0] if at else defs[0] if len(defs) == 1 else None


def kernel_files(file: Path, kernel_name: str, pyfunc=None) -> list[Path]:
    """The kernel's own file, then the other files of the helpers it may inline: what its port is made from. With
    the kernel's Python function, helpers are found through its resolved names (translate/resolve.py)."""
    tree = ast.parse(file.read_text(), filename=str(file))
    kernel = kernel_def(tree, kernel_name, pyfunc.__code__.co_firstlineno if pyfunc is not None else None)
    found = None
    if pyfunc is not None:
        from .resolve import ResolveError, resolve

        try:
            found = resolve(kernel, pyfunc)[1]
        except ResolveError:   # (a form resolve refuses: the emitter reports it at its position)
            found = None
    if found is None:
        found = kernel_helpers(file, tree, kernel)
    return [file, *sorted({h.file for h in found.values()} - {file.resolve()})]


def sources_sha256(files: list[Path]) -> str:
    """One digest of the files a port is made from (``kernel_files``): an edit to a shared helper makes every port
    that inlines it stale, not only its own file's. For a kernel file alone it is that file's sha256."""
    digest = hashlib.sha256(files[0].read_bytes())
    for other in files[1:]:
        digest.update(other.read_bytes())
    return digest.hexdigest()
