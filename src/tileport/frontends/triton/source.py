"""Find a ``@triton.jit`` kernel in a Python file by reading its AST (nothing is imported, no triton needed)."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from ...astwalk import walk_nodes
from ...errors import TileportError
from ...translate.helpers import module_file


class TritonSourceError(TileportError):
    """The file or kernel cannot be read as a Triton kernel."""


@dataclass(frozen=True)
class TritonKernel:
    path: Path
    name: str
    fn: ast.FunctionDef
    text: str
    tl: frozenset[str]      # names bound to triton.language in the module (usually {"tl"}), or to one of its
    #                         function namespaces (triton.language.math, ...extra.libdevice)
    triton: frozenset[str]  # names bound to the triton package
    #: bare names imported from triton.language or its namespaces (`from triton.language.math import rsqrt`): name
    #: → the function's name there
    functions: dict[str, str] = field(default_factory=dict, compare=False)
    #: module-level names bound once to a literal (`EPS = 1e-6`, `MODE: tl.constexpr = tl.constexpr(1)`) → value
    globals: dict[str, object] = field(default_factory=dict, compare=False)
    #: the module's other @triton.jit functions (helpers the kernel may call) by name
    helpers: dict[str, ast.FunctionDef] = field(default_factory=dict, compare=False)
    #: the bare names of ``functions`` imported from libdevice (``from triton.language.extra.libdevice import
    #: sqrt``: libdevice's correctly rounded sqrt, not tl.sqrt's approximation)
    libdevice: frozenset[str] = field(default_factory=frozenset, compare=False)
    #: the module's ``@triton.constexpr_function`` functions (Python Triton calls at compile time on constexprs)
    constexpr_functions: dict[str, ast.FunctionDef] = field(default_factory=dict, compare=False)
    #: names bound to a libdevice module (``from triton.language.extra.cuda import libdevice as ld``, ``import
    #: triton.language.extra.cuda.libdevice as libdev``): ``ld.sqrt`` is libdevice's, as ``libdevice.sqrt`` is
    libdevice_modules: frozenset[str] = field(default_factory=frozenset, compare=False)

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


#: modules whose functions the lowering knows by name (triton.language and its function namespaces)
TL_MODULES = ("triton.language", "triton.language.math", "triton.language.standard", "triton.language.extra",
              "triton.language.extra.libdevice", "triton.language.extra.cuda", "triton.language.extra.cuda.libdevice")


def _aliases(tree: ast.Module) -> tuple[set[str], set[str], dict[str, str]]:
    """(names bound to triton.language or a function namespace of it, names bound to triton, bare function names
    imported from those namespaces → their names there)."""
    tl, tr, functions = set(), set(), {}
    for n in walk_nodes(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.name in TL_MODULES and a.asname:
                    tl.add(a.asname)
                elif a.name.startswith("triton.language"):
                    tl.add("triton")  # `import triton.language` binds `triton`
                elif a.name == "triton":
                    tr.add(a.asname or "triton")
        elif isinstance(n, ast.ImportFrom) and n.module == "triton":
            for a in n.names:
                if a.name == "language":
                    tl.add(a.asname or "language")
                elif a.name == "jit":
                    tr.add("__jit__:" + (a.asname or "jit"))
        elif isinstance(n, ast.ImportFrom) and n.module in TL_MODULES:
            for a in n.names:
                if f"{n.module}.{a.name}" in TL_MODULES:   # a namespace: `from triton.language import math`
                    tl.add(a.asname or a.name)
                else:
                    functions[a.asname or a.name] = a.name
    return tl, tr, functions


def _function_aliases(tree: ast.Module, tl: set[str], tr: set[str]) -> tuple[dict[str, str], set[str]]:
    """Module-level names bound to a function of triton.language or one of its namespaces (Unsloth's
    `triton_tanh = libdevice.tanh`, also in the arms of a module-level `if` / `try` choosing by Triton version:
    `triton_tanh = tl.extra.cuda.libdevice.tanh` / `tl.math.tanh`): name → the function's name, when every binding
    of the name is such a function of one name; and those of them every binding takes from libdevice."""
    found: dict[str, set[tuple[str, bool]]] = {}
    other: set[str] = set()

    def chain(e: ast.expr) -> list[str] | None:
        parts = []
        while isinstance(e, ast.Attribute):
            parts.append(e.attr)
            e = e.value
        if not isinstance(e, ast.Name):
            return None
        return [e.id] + parts[::-1]

    def visit(body: list[ast.stmt]) -> None:
        for st in body:
            if isinstance(st, ast.If):
                visit(st.body)
                visit(st.orelse)
            elif isinstance(st, ast.Try):
                visit(st.body)
                for h in st.handlers:
                    visit(h.body)
                visit(st.orelse)
            elif isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                for t in targets:
                    if not isinstance(t, ast.Name):
                        continue
                    c = chain(st.value)
                    ok = c is not None and len(c) >= 2 and (
                        c[0] in tl or c[0] in tr and len(c) >= 3 and c[1] == "language")
                    if ok:
                        found.setdefault(t.id, set()).add((c[-1], "libdevice" in c[:-1]))
                    else:
                        other.add(t.id)
    visit(tree.body)
    names = {n: v for n, v in found.items() if n not in other and len({f for f, _ in v}) == 1}
    return ({n: next(iter(v))[0] for n, v in names.items()}, {n for n, v in names.items() if all(d for _, d in v)})


def _literal(node: ast.expr) -> object:
    """The value of a literal, or of `tl.constexpr(literal)`; None when it is neither."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == "constexpr")
            or (isinstance(node.func, ast.Name) and node.func.id == "constexpr")):
        node = node.args[0]
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, (bool, int, float, str)) else None


def _module_constants(tree: ast.Module) -> dict[str, object]:
    """Names the module binds once, at its top level, to a literal."""
    seen: dict[str, int] = {}
    values: dict[str, object] = {}
    for st in tree.body:
        targets = st.targets if isinstance(st, ast.Assign) else [st.target] if isinstance(
            st, (ast.AnnAssign, ast.AugAssign)) else []
        for tgt in targets:
            if isinstance(tgt, ast.Name):
                seen[tgt.id] = seen.get(tgt.id, 0) + 1
                value = getattr(st, "value", None)
                if isinstance(st, (ast.Assign, ast.AnnAssign)) and value is not None and len(targets) == 1:
                    lit = _literal(value)
                    if lit is not None:
                        values[tgt.id] = lit
    return {k: v for k, v in values.items() if seen[k] == 1}


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


class _AdvanceMethod(ast.NodeTransformer):
    """``p.advance(offsets)`` (a block pointer's method, Triton's `tensor.advance`) as ``tl.advance(p, offsets)``,
    the function every rule of the lowering reads (it was refused: "call `p.advance` is not supported"). Only a
    block pointer has the method, so the rewrite changes no other call."""

    def __init__(self, tl: str, modules: set[str]):
        self.tl, self.modules = tl, modules

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "advance" and len(node.args) + len(node.keywords) == 1 and \
                not (isinstance(f.value, ast.Name) and f.value.id in self.modules) and \
                all(k.arg == "offsets" for k in node.keywords):
            offsets = node.args[0] if node.args else node.keywords[0].value
            func = ast.copy_location(ast.Attribute(ast.copy_location(ast.Name(self.tl, ast.Load()), f), "advance",
                                                   ast.Load()), f)
            return ast.copy_location(ast.Call(func, [f.value, offsets], []), node)
        return node


#: triton.language's functional tensor-descriptor accesses (core.py) → the descriptor method each calls, and its
#: parameters after the descriptor (`tl.load_tensor_descriptor(desc, offsets)` is `desc.load(offsets)`)
DESCRIPTOR_FUNCTIONS = {"load_tensor_descriptor": ("load", ("offsets",)),
                        "store_tensor_descriptor": ("store", ("offsets", "value"))}


class _DescriptorFunctions(ast.NodeTransformer):
    """``tl.load_tensor_descriptor(desc, offsets)`` / ``tl.store_tensor_descriptor(desc, offsets, value)`` (Triton
    3.6's functional forms, core.py: each calls the descriptor's method) as ``desc.load(offsets)`` /
    ``desc.store(offsets, value)``, the methods every rule of the lowering reads (they were refused: "is not
    lowered"). Arguments by position or by their names; any other form is left for the lowering to refuse."""

    def __init__(self, tl: set[str]):
        self.tl = tl

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        f = node.func
        if not (isinstance(f, ast.Attribute) and f.attr in DESCRIPTOR_FUNCTIONS and isinstance(f.value, ast.Name)
                and f.value.id in self.tl):
            return node
        method, params = DESCRIPTOR_FUNCTIONS[f.attr]
        names = ("desc",) + params
        kw = {k.arg: k.value for k in node.keywords}
        if len(node.args) > len(names) or None in kw or set(kw) - set(names[len(node.args):]) or \
                len(node.args) + len(kw) != len(names):
            return node
        vals = list(node.args) + [kw[n] for n in names[len(node.args):]]
        func = ast.copy_location(ast.Attribute(vals[0], method, ast.Load()), f)
        return ast.copy_location(ast.Call(func, vals[1:], []), node)


def find_kernel(path: Path, name: str) -> TritonKernel:
    path = Path(path)
    try:
        text = path.read_text()
        tree = ast.parse(text, filename=str(path))
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        raise TritonSourceError(f"{path}: cannot read it as Python: {exc}") from exc
    tl, tr, functions = _aliases(tree)
    if tl:
        _AdvanceMethod(sorted(tl)[0], set(tl) | set(tr)).visit(tree)
        _DescriptorFunctions(set(tl)).visit(tree)
    jitted = _jitted(tree, tr)
    fn = next((f for f in jitted if f.name == name), None)
    if fn is None:   # a kernel a factory makes (found only where no module-level one has the name)
        same = [f for f in _factory_jitted(tree, tr) if f.name == name]
        if len({ast.dump(f) for f in same}) > 1:
            raise TritonSourceError(f"{path}: {len(same)} @triton.jit functions named {name!r} (kernels defined in "
                                    f"factory functions, at lines {', '.join(str(f.lineno) for f in same)}): cannot "
                                    "tell which one a launch ran")
        fn = same[0] if same else None
    if fn is None:
        names = ", ".join(f.name for f in jitted) or "none"
        raise TritonSourceError(f"{path}: no @triton.jit function {name!r}; Triton kernels in this file: {names}")
    if not tl:
        raise TritonSourceError(f"{path}:{fn.lineno}: the module does not import triton.language")
    helpers = {**_imported_helpers(path, tree, tl, {f.name for f in jitted}), **{f.name: f for f in jitted if f is not fn}}
    helpers.update(_module_helpers(path, tree, tl, helpers, [fn, *helpers.values()]))
    constants = {**_imported_constants(path, tree, [fn, *helpers.values()]), **_module_constants(tree)}
    libdevice = frozenset(a.asname or a.name for n in walk_nodes(tree)
                          if isinstance(n, ast.ImportFrom) and n.module in TL_MODULES and "libdevice" in n.module
                          for a in n.names)
    aliased, aliased_libdevice = _function_aliases(tree, tl, tr)
    libdevice = libdevice | (aliased_libdevice - set(functions))   # (a name imported too: the import's)
    functions = {**aliased, **functions}
    return TritonKernel(path.resolve(), name, fn, text, frozenset(tl), frozenset(t for t in tr if ":" not in t),
                        functions, constants, helpers, libdevice, _constexpr_functions(tree, tr),
                        _libdevice_modules(tree))


def _libdevice_modules(tree: ast.Module) -> frozenset[str]:
    """The names a libdevice module is bound to (``import triton.language.extra.cuda.libdevice as ld``, ``from
    triton.language.extra.cuda import libdevice as ld``, ``from triton.language.extra import libdevice``)."""
    out = set()
    for n in walk_nodes(tree):
        if isinstance(n, ast.Import):
            out |= {a.asname for a in n.names if a.name in TL_MODULES and a.name.endswith(".libdevice") and a.asname}
        elif isinstance(n, ast.ImportFrom) and n.module in TL_MODULES:
            out |= {a.asname or a.name for a in n.names if a.name == "libdevice" and f"{n.module}.libdevice" in TL_MODULES}
    return frozenset(out)


def _constexpr_functions(tree: ast.Module, tr: set[str]) -> dict[str, ast.FunctionDef]:
    """The module's top-level functions decorated ``@triton.constexpr_function`` (or the bare name imported from
    triton / triton.runtime.jit), by name."""
    bare = {a.asname or a.name for n in walk_nodes(tree) if isinstance(n, ast.ImportFrom)
            and n.module in ("triton", "triton.runtime.jit", "triton.runtime") for a in n.names
            if a.name == "constexpr_function"}

    def is_cfn(d: ast.expr) -> bool:
        return (isinstance(d, ast.Attribute) and d.attr == "constexpr_function" and isinstance(d.value, ast.Name)
                and d.value.id in tr) or (isinstance(d, ast.Name) and d.id in bare)
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and any(map(is_cfn, n.decorator_list))}


def _jitted(tree: ast.Module, tr: set[str]) -> list[ast.FunctionDef]:
    """The module's @triton.jit functions: decorated at its top level or in a class body (`@staticmethod
    @triton.jit def kernel(..)`, launched as `Ops.kernel[grid](..)`), and top-level functions the module passes to
    `triton.jit(fn)` (`kernel = triton.jit(_kernel)`, also inside `triton.autotune(..)(triton.jit(_kernel))`)."""
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    out = [n for n in tree.body if isinstance(n, ast.FunctionDef) and any(_is_jit(d, tr) for d in n.decorator_list)]
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        out += [n for n in cls.body if isinstance(n, ast.FunctionDef) and any(_is_jit(d, tr) for d in n.decorator_list)
                and n.name not in defs]
    called = [n.args[0].id for st in tree.body if not isinstance(st, (ast.FunctionDef, ast.ClassDef))
              for n in walk_nodes(st) if isinstance(n, ast.Call) and _is_jit(n.func, tr) and len(n.args) == 1
              and isinstance(n.args[0], ast.Name)]
    out += [defs[c] for c in dict.fromkeys(called) if c in defs and defs[c] not in out]
    return out


def _factory_jitted(tree: ast.Module, tr: set[str]) -> list[ast.FunctionDef]:
    """@triton.jit functions a top-level function defines (a factory: `def make(scale): SCALE =
    tl.constexpr(scale); @triton.jit def k(..)`, its closure's constexprs the capture's `closure` values)."""
    return [n for f in tree.body if isinstance(f, ast.FunctionDef) for n in walk_nodes(f)
            if isinstance(n, ast.FunctionDef) and n is not f and any(_is_jit(d, tr) for d in n.decorator_list)]


def _module_helpers(path: Path, tree: ast.Module, tl: set[str], helpers: dict[str, ast.FunctionDef],
                    fns: list[ast.FunctionDef]) -> dict[str, ast.FunctionDef]:
    """@triton.jit helpers called through a module of the project (`import kernels.act as A` / `from kernels import
    act`, then `A.silu(x)`, `act.silu(x)`): each such call in ``fns`` is rewritten to a plain call of the helper (its
    own name, or `A_silu` where the name is taken by another helper), which is returned under that name with the
    other @triton.jit functions of its module (its own helpers). Only modules that name triton.language as this
    one does."""
    modules = _project_modules(path, tree)
    classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}
    tr = _aliases(tree)[1]
    out: dict[str, ast.FunctionDef] = {}
    parsed: dict[Path, dict[str, str]] = {}   # a module's file → its @triton.jit functions' names here
    todo = list(fns)
    while todo:
        for node in walk_nodes(todo.pop(0)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id in classes and \
                    node.func.value.id not in modules:   # `H.sq(x)`: a @triton.jit staticmethod of a class here
                cls, attr = classes[node.func.value.id], node.func.attr
                target = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == attr and
                               any(_is_jit(d, tr) for d in m.decorator_list)), None)
                if target is not None:
                    local = attr
                    while local in helpers or local in out and out[local] is not target:
                        local = f"{cls.name}_{local}"
                    if local not in out:   # (its own calls of the class's helpers too)
                        todo.append(target)
                    out[local] = target
                    node.func = ast.copy_location(ast.Name(local, ast.Load()), node.func)
                continue
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and
                    isinstance(node.func.value, ast.Name) and node.func.value.id in modules):
                continue
            alias, attr = node.func.value.id, node.func.attr
            src = modules[alias]
            if src not in parsed:
                parsed[src] = _module_jitted(_parse_module(src), src, alias, tl, {**helpers, **out})
                for local, f in parsed[src].pop("", {}).items():   # (see _module_jitted)
                    out[local] = f
            if attr in parsed[src]:
                node.func = ast.copy_location(ast.Name(parsed[src][attr], ast.Load()), node.func)
    return out


def _project_modules(path: Path, tree: ast.Module) -> dict[str, Path]:
    """The names the module binds to modules of the project (`import kernels.act as A`, `from kernels import act`)
    → their source files (read, not imported)."""
    modules: dict[str, Path] = {}
    for st in tree.body:
        if isinstance(st, ast.Import):
            for a in st.names:
                if a.asname and a.name not in TL_MODULES and not a.name.startswith("triton"):
                    src = module_file(path, ast.ImportFrom(module=a.name, names=[], level=0), search_path=False)
                    if src is not None:
                        modules[a.asname] = src
        elif isinstance(st, ast.ImportFrom) and st.module not in TL_MODULES and st.module != "triton" and \
                not (st.module or "").startswith("triton."):
            for a in st.names:
                sub = ast.ImportFrom(module=f"{st.module}.{a.name}" if st.module else a.name, names=[], level=st.level)
                src = module_file(path, sub, search_path=False)
                if src is not None:   # (a module, not a function: `from .utils import f` finds no utils/f.py)
                    modules[a.asname or a.name] = src
    return modules


def _imported_constants(path: Path, tree: ast.Module, fns: list[ast.FunctionDef]) -> dict[str, object]:
    """Literal constants of the project's modules the kernel reads: imported by name (`from .consts import EPS`)
    or through the module (`import consts as C`, then `C.EPS`: rewritten in ``fns`` to the name `C__EPS`). Name →
    value."""
    out: dict[str, object] = {}
    cache: dict[Path, dict[str, object]] = {}

    def constants(src: Path) -> dict[str, object]:
        if src not in cache:
            other = _parse_module(src)
            cache[src] = _module_constants(other) if other is not None else {}
        return cache[src]
    for st in tree.body:
        if isinstance(st, ast.ImportFrom) and st.module not in TL_MODULES and st.module != "triton" and \
                not (st.module or "").startswith("triton."):
            src = module_file(path, st, search_path=False)
            if src is not None and src.resolve() != path.resolve():
                out.update({a.asname or a.name: constants(src)[a.name] for a in st.names if a.name in constants(src)})
    modules = _project_modules(path, tree)
    for fn in fns:
        for node in walk_nodes(fn):
            for field_name, value in ast.iter_fields(node):
                items = value if isinstance(value, list) else [value]
                for i, v in enumerate(items):
                    if isinstance(v, ast.Attribute) and isinstance(v.ctx, ast.Load) and \
                            isinstance(v.value, ast.Name) and v.value.id in modules and \
                            v.attr in constants(modules[v.value.id]):
                        name = f"{v.value.id}__{v.attr}"
                        out[name] = constants(modules[v.value.id])[v.attr]
                        new = ast.copy_location(ast.Name(name, ast.Load()), v)
                        if isinstance(value, list):
                            value[i] = new
                        else:
                            setattr(node, field_name, new)
    return out


def _parse_module(src: Path) -> ast.Module | None:
    """A project module's source parsed (read, not imported), or None where it cannot be read as Python."""
    try:
        return ast.parse(src.read_text(), filename=str(src))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None


def _module_jitted(other: ast.Module | None, src: Path, alias: str, tl: set[str],
                   taken: dict[str, ast.FunctionDef]) -> dict:
    """The @triton.jit functions of the module ``other`` (parsed from ``src``, bound to ``alias``), each under a name
    of its own here: its name, or `alias_name` where another helper has it; calls between them are rewritten to those
    names, so each calls its own module's helper. Returns name there → name here, and under "" name here →
    function."""
    if other is None:
        return {}
    otl, otr, _ = _aliases(other)
    if not otl <= tl:
        return {}
    found = {f.name: f for f in _jitted(other, otr)}
    names: dict[str, str] = {}
    for own in found:
        local = own
        while local in taken or local in names.values():
            local = f"{alias}_{local}"
        names[own] = local
    for f in found.values():
        for n in walk_nodes(f):
            n.tileport_file = src.resolve()
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names:
                n.func = ast.copy_location(ast.Name(names[n.func.id], ast.Load()), n.func)
    return {**names, "": {names[own]: f for own, f in found.items()}}


def _imported_helpers(path: Path, tree: ast.Module, tl: set[str], local: set[str] = frozenset()
                      ) -> dict[str, ast.FunctionDef]:
    """@triton.jit helpers the module imports by name from modules of its own (`from .utils import softcap`): the
    helper under the name it is imported as, and the other @triton.jit functions of that module (its own helpers)
    under theirs — or, where an earlier module or the kernel's module (``local``) has that name, under the module's
    name and theirs (`m2_silu`), each module's calls of its own helpers rewritten to match (two modules' `silu`s stay
    apart). Only from modules that name triton.language as this one does; each node of such a helper knows its file
    (``tileport_file``), so a lowering error names it."""
    out: dict[str, ast.FunctionDef] = {}
    for st in tree.body:
        if not isinstance(st, ast.ImportFrom) or st.module in TL_MODULES or st.module == "triton":
            continue
        src = module_file(path, st, search_path=False)   # the AST only: nothing imported
        if src is None or src.resolve() == path.resolve():
            continue
        names = _module_jitted(_parse_module(src), src, src.stem, tl, {**out, **{n: None for n in local}})
        funcs = names.pop("", {})
        if not any(a.name in names for a in st.names):   # (no @triton.jit function imported from it)
            continue
        out.update(funcs)
        out.update({a.asname or a.name: funcs[names[a.name]] for a in st.names if a.name in names})
    return out


