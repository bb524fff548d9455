"""Static checks CI runs with the tests: ruff (rules in pyproject.toml, version pinned in the test extra) and no
import cycles between tileport's modules."""
import ast
import subprocess
import sys

from conftest import REPO

SRC = REPO / "src"


def test_ruff_is_clean():
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "src", "tests", "scripts", "benchmarks"],
                       capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, (r.stdout + r.stderr)[-6000:]


def _modules() -> dict[str, tuple[bool, ast.Module]]:
    """tileport's modules: dotted name → (is a package's __init__, syntax tree)."""
    out = {}
    for f in sorted((SRC / "tileport").rglob("*.py")):
        parts = list(f.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (package, ast.parse(f.read_text(), str(f)))
    return out


def import_graph() -> dict[str, set[str]]:
    """Module → the tileport modules it imports anywhere in its body (imports inside functions count: they run as
    soon as the function does). ``from tileport import __version__`` is left out: the package defines it before it
    imports anything, so importing it back is safe."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for name, (package, tree) in mods.items():
        here = name.split(".") if package else name.split(".")[:-1]
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name in mods)
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: `from .. import x`, `from ..a.b import x`
                    base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                for a in node.names:
                    target = f"{base}.{a.name}"
                    if target in mods:
                        deps.add(target)
                    elif base in mods and not (base == "tileport" and a.name == "__version__"):
                        deps.add(base)
        graph[name] = deps - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_the_graph_sees_imports():
    g = import_graph()
    assert "tileport.frontends.arrays" in g["tileport.frontends.triton.capture"]
    assert "tileport.runtime.library" in g["tileport.ops._backend"]  # a function-level import counts
    assert "tileport.paths" in g["tileport.runtime.build"]  # `from .. import paths`
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles():
    """Shared pieces live where every user imports them without a cycle (e.g. frontends.arrays for both captures,
    errors.BackendError for the runtime and the backend switch)."""
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_costly_test_files_named_first_exist():
    """conftest.HEAVY_FIRST starts the costly files first; a renamed or removed file would silently drop out."""
    from conftest import HEAVY_FIRST

    here = REPO / "tests"
    assert [n for n in HEAVY_FIRST if not (here / n).is_file()] == []
