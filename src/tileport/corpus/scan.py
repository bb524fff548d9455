"""Find the ``@ct.kernel`` functions of a source tree by reading it (nothing is imported).

A kernel is a function decorated with ``X.kernel`` or ``X.kernel(...)`` where ``X`` is a name the file binds to
``cuda.tile`` (``import cuda.tile as ct``), or with ``kernel`` / ``kernel(...)`` imported from it
(``from cuda.tile import kernel``), or a function of the file passed to one of them as a call (``add_kernel =
ct.kernel(_add_impl)``, ``ct.kernel(occupancy=2)(_impl)``, a factory's ``return ct.kernel(body)``). Other decorators around it (TileGym's ``@experimental_kernel``) do not matter;
kernels defined inside a function (a kernel factory) are found too, with their enclosing names in ``qualname``, named
``NAME@LINE`` by their ``def`` line (as a capture names them: two factories may define kernels of one name).

Triton kernels are found too: a ``@triton.jit`` function (of the module, or a class's ``@staticmethod``) that host code of the tree uses as a value (launched as
``name[grid](...)``, ``module.name.run(...)``, ``name.warmup(...)``, bound to a name or put in a table that is
launched) or that is autotuned (``@triton.autotune`` / ``@triton.heuristics`` above it); a ``@triton.jit`` function
only ever called (``helper(x)``, from kernels) or only used inside kernels is a helper.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

#: directories never scanned (build outputs, caches, virtual environments, VCS data)
SKIP_DIRS = {"__pycache__", ".git", ".venv", "venv", "build", "dist", "target", "node_modules"}


@dataclass(frozen=True)
class FoundKernel:
    file: str        # relative to the scanned root, '/'-separated
    name: str        # the function's name (what ``FILE::NAME`` and a capture's ``kernel`` use; NAME@LINE in a factory)
    qualname: str    # with enclosing functions / classes, as Python's __qualname__ spells it
    line: int        # of the ``def``


def _tile_aliases(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names bound to the module cuda.tile, names bound to cuda.tile.kernel) anywhere in the file."""
    modules, kernels = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "cuda.tile" and a.asname:
                    modules.add(a.asname)
        elif isinstance(node, ast.ImportFrom) and node.module == "cuda.tile":
            for a in node.names:
                if a.name == "kernel":
                    kernels.add(a.asname or a.name)
        elif isinstance(node, ast.ImportFrom) and node.module == "cuda":
            for a in node.names:
                if a.name == "tile":
                    modules.add(a.asname or a.name)
    return modules, kernels


def _is_kernel_decorator(dec: ast.expr, modules: set[str], kernels: set[str]) -> bool:
    if isinstance(dec, ast.Call):
        dec = dec.func
    if isinstance(dec, ast.Name):
        return dec.id in kernels
    if isinstance(dec, ast.Attribute) and dec.attr == "kernel":
        base = dec.value
        if isinstance(base, ast.Name):
            return base.id in modules
        # cuda.tile.kernel spelled out
        return (isinstance(base, ast.Attribute) and base.attr == "tile" and isinstance(base.value, ast.Name)
                and base.value.id == "cuda")
    return False


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _scope_defs(scope: ast.AST) -> set[str]:
    """The functions a scope (the module, a function, a class body) defines itself: its `def`s, under `if` / `for` /
    `with` / `try` too, not those of the functions and classes inside it."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(child.name)
            elif not isinstance(child, _SCOPES):
                visit(child)
    visit(scope)
    return names


def _wrapped_names(tree: ast.Module, modules: set[str], kernels: set[str]) -> set[tuple[int, str]]:
    """Functions made kernels by a call rather than a decorator: ``k = ct.kernel(fn)``, ``ct.kernel(occupancy=2)(fn)``,
    ``return ct.kernel(body)`` in a factory — each as (the id of the scope defining it, its name): the name is the
    `def` the call sees, its own function's (or an enclosing one's) before the module's, as Python resolves it (a
    factory's ``def binop`` wrapped there is not the module's launcher ``def binop``)."""
    found: set[tuple[int, str]] = set()
    defs: dict[int, set[str]] = {}

    def visit(node: ast.AST, scopes: list[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            if (isinstance(child, ast.Call) and len(child.args) == 1 and isinstance(child.args[0], ast.Name)
                    and _is_kernel_decorator(child.func, modules, kernels)):
                name = child.args[0].id
                # a class body's names are seen from the body itself only, not from its methods
                seen = [s for i, s in enumerate(scopes)
                        if not isinstance(s, ast.ClassDef) or i == len(scopes) - 1]
                for s in reversed(seen):
                    if name in defs.setdefault(id(s), _scope_defs(s)):
                        found.add((id(s), name))
                        break
            visit(child, scopes + [child] if isinstance(child, _SCOPES) else scopes)
    visit(tree, [tree])
    return found


def _jit_like(fn: ast.AST) -> bool:
    """A function decorated with some ``*.jit`` / ``jit`` (Triton's; a kernel launches no kernel from its body)."""
    for d in getattr(fn, "decorator_list", []):
        d = d.func if isinstance(d, ast.Call) else d
        if isinstance(d, ast.Attribute) and d.attr == "jit" or isinstance(d, ast.Name) and d.id == "jit":
            return True
    return False


def launched_names(tree: ast.Module) -> set[str]:
    """Names a file's host code uses as values: ``name[grid](...)``, ``module.name.run(...)``,
    ``name.warmup(...)``, ``k = name if .. else other`` then ``k[grid](...)``, a table of kernels. Only a
    direct call ``name(...)`` is not such a use (a @triton.jit helper is called from kernels), nor anything inside a
    @triton.jit function's body (a helper passed to ``tl.reduce``)."""
    out: set[str] = set()
    called: set[int] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _jit_like(node):
            return
        if isinstance(node, ast.Call):
            called.add(id(node.func))
        if id(node) not in called:
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                out.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                out.add(node.attr)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def _triton_kernels(tree: ast.Module, elsewhere: set[str] = frozenset()) -> set[str]:
    """Names of the module-level @triton.jit functions the file launches or autotunes, or that another file
    launches (``elsewhere``: a benchmark script importing the kernel)."""
    from ..frontends.triton.source import _aliases, _is_jit

    _, tr, _ = _aliases(tree)
    if not tr:
        return set()
    launched = launched_names(tree) | elsewhere
    out = set()
    for fn, _qual in _module_and_class_functions(tree):
        if any(_is_jit(d, tr) for d in fn.decorator_list):
            tuned = any(isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
                        and d.func.attr in ("autotune", "heuristics") for d in fn.decorator_list)
            if tuned or fn.name in launched:
                out.add(fn.name)
    return out


def _module_and_class_functions(tree: ast.Module) -> list[tuple[ast.FunctionDef, str]]:
    """(function, qualname) of the module's functions and its classes' (a `@staticmethod @triton.jit` kernel of a
    class, launched as ``Ops.kernel[grid](...)``), not those inside functions."""
    out: list[tuple[ast.FunctionDef, str]] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef):
                out.append((node, prefix + node.name))
            elif isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")

    visit(tree.body, "")
    return out


def _parse(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError, OSError, ValueError):
        return None


def kernels_in_file(path: Path, rel: str, launched_elsewhere: set[str] = frozenset(),
                    tree: ast.Module | None = None) -> list[FoundKernel]:
    tree = tree if tree is not None else _parse(path)
    if tree is None:
        return []
    modules, kernel_names = _tile_aliases(tree)
    triton = _triton_kernels(tree, launched_elsewhere)
    if not modules and not kernel_names and not triton:
        return []
    found: list[FoundKernel] = [FoundKernel(rel, fn.name, qual, fn.lineno)
                                for fn, qual in _module_and_class_functions(tree) if fn.name in triton]
    wrapped = _wrapped_names(tree, modules, kernel_names)

    def visit(node: ast.AST, prefix: str, scope: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = f"{prefix}{child.name}"
                if (id(scope), child.name) in wrapped or any(_is_kernel_decorator(d, modules, kernel_names)
                                                for d in child.decorator_list):
                    # a kernel a function makes (a factory) is named by its `def` line, as a capture names it
                    name = f"{child.name}@{child.lineno}" if "<locals>" in qual else child.name
                    found.append(FoundKernel(rel, name, qual, child.lineno))
                visit(child, f"{qual}.<locals>.", child)
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.", child)
            elif isinstance(child, ast.Lambda):
                visit(child, prefix, child)
            else:
                visit(child, prefix, scope)

    visit(tree, "", tree)
    return found


def scan(root: Path, within: list[str] | None = None) -> list[FoundKernel]:
    """Every kernel under ``root`` (or under the given subdirectories of it), sorted by file and line."""
    root = root.resolve()
    bases = [root / w for w in within] if within else [root]
    trees: dict[Path, ast.Module | None] = {}
    for base in bases:
        files = [base] if base.is_file() else sorted(base.rglob("*.py"))
        for f in files:
            if f in trees or any(part in SKIP_DIRS for part in f.relative_to(root).parts[:-1]):
                continue
            trees[f] = _parse(f)
    launched: set[str] = set()   # a Triton kernel launched from another file (a script, a wrapper module)
    for t in trees.values():
        if t is not None:
            launched |= launched_names(t)
    out: list[FoundKernel] = []
    for f, t in trees.items():
        out.extend(kernels_in_file(f, f.relative_to(root).as_posix(), launched, t))
    return sorted(out, key=lambda k: (k.file, k.line))
