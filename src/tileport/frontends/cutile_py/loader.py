"""Load a ``@ct.kernel`` from ``path/to/file.py::name``.

A kernel's module often imports host-side packages its device code never touches (``torch`` for the wrapper that
allocates and launches). Where one is not installed here — the core (analyze, translate, irdiff) runs without
torch — the import is retried with that package stood in by ``absent`` modules: every name read from one is an
:class:`Absent` placeholder that absorbs the host code's use at import time (decorators, base classes, dtype
tables, annotations), except a dtype's name, which is that cuda.tile dtype (kernels pass ``torch.float32`` as a
``dtype=``, which cuda.tile converts). A kernel body that reads any other name of one fails to compile, naming it.
A module whose host code asks torch for the GPU at import time, on a machine without one, is imported under the
capture's CUDA emulation (:func:`_import_retrying`). The packages stood in are listed
in :attr:`LoadedKernel.absent` (and in a port's verdict)."""
from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import os
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...astwalk import walk_nodes
from ...errors import TileportError
from ..arrays import is_numpy_scalar


class KernelLoadError(TileportError):
    """The kernel reference does not name a loadable cuTile Python kernel."""


@dataclass(frozen=True)
class LoadedKernel:
    path: Path
    name: str
    kernel: Any  # cuda.tile kernel object
    #: top-level packages the module imports that are not installed here, stood in while it was imported
    absent: tuple[str, ...] = field(default=())
    #: its module asked torch for a GPU at import time and was imported under the CUDA emulation (an H200)
    cuda_emulated: bool = False
    #: a kernel defined inside a function (a factory): its name in the reference, ``NAME@LINE[~DIGEST]``
    ref_name: str | None = None
    #: the values it closes over (``closure_values`` of the captured kernel), when it was rebuilt from them
    closure: dict | None = None
    #: top-level statements of its module (a script's host code) that raised here and were gone past
    #: (``FILE:LINE: ERROR`` each, :func:`_exec_skipping`)
    skipped: tuple[str, ...] = ()

    @property
    def pyfunc(self) -> Any:
        return self.kernel._pyfunc

    @property
    def param_names(self) -> list[str]:
        return list(inspect.signature(self.pyfunc).parameters)

    @property
    def ref(self) -> str:
        return f"{self.path}::{self.ref_name or self.name}"


def split_ref(ref: str) -> tuple[Path, str]:
    if "::" not in ref:
        raise KernelLoadError(f"{ref!r}: expected FILE.py::KERNEL (for example src/tileport/kernels/vector_add.py::vector_add)")
    file, name = ref.rsplit("::", 1)
    return Path(file), name


def split_name(name: str) -> tuple[str, int | None]:
    """``NAME@LINE`` (a kernel defined inside a function, by its ``def`` line; ``NAME@LINE~DIGEST``: one of the
    kernels that ``def`` made, told apart by the values it closes over) → (NAME, LINE); ``NAME`` → (NAME, None)."""
    base, at, rest = name.partition("@")
    line = rest.split("~", 1)[0]
    if not at:
        return name, None
    if not line.isdigit():
        raise KernelLoadError(f"{name!r}: expected KERNEL or KERNEL@LINE (the line of a kernel's `def` inside a "
                              "function, as `tileport capture` names a kernel a factory made)")
    return base, int(line)


def def_line(func: Any) -> int:
    """The line of a function's ``def`` (its code's first line is its first decorator's)."""
    try:
        lines, start = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return func.__code__.co_firstlineno
    return start + next((i for i, text in enumerate(lines) if text.lstrip().startswith(("def ", "async def "))), 0)


#: what a captured closure value is written as when it is not a plain JSON value
CLOSURE_FORMS = ("dtype", "global", "enum", "tuple", "numpy", "function", "qualified", "unknown")

#: how deep closure values nest (a tuple of tuples, a helper the factory made over its own closure)
CLOSURE_DEPTH = 4


def def_qualname(func: Any) -> str:
    """The qualified name of the ``def`` a function was made by (its code's: a factory that renames what it makes,
    ``body.__qualname__ = f"{op}_kernel"``, leaves the ``def`` where it was, inside the factory)."""
    return getattr(getattr(func, "__code__", None), "co_qualname", None) or func.__qualname__


def def_name(func: Any) -> str:
    """The name its ``def`` gave a function (``__name__`` may have been re-assigned since)."""
    return getattr(getattr(func, "__code__", None), "co_name", None) or func.__name__


def kernel_name(func: Any) -> tuple[str, dict | None]:
    """(the name a capture gives a kernel, the values it closes over): a kernel defined at module level (or on a
    class) is named by its function; one a function made (a factory) ``NAME@LINE`` by its ``def`` line, with
    ``~DIGEST`` of its closure values when it has any (two kernels of one ``def`` over other values are two
    kernels)."""
    if "<locals>" not in def_qualname(func):
        if def_qualname(func) == def_name(func) and _shadowed(func):
            # a module-level kernel a later `def` of the same name replaces (a script's second version of it):
            # the module's name finds the last, so this one is named by its `def` line, as a factory's kernel
            return f"{def_name(func)}@{def_line(func)}", None
        return func.__name__, None
    closure = closure_values(func)
    name = f"{def_name(func)}@{def_line(func)}"
    if closure:
        import json

        name += "~" + hashlib.sha256(json.dumps(closure, sort_keys=True).encode()).hexdigest()[:8]
    return name, closure


@functools.lru_cache(maxsize=256)
def _top_level_defs(path: str, mtime: float) -> dict[str, list[int]]:
    """Each name a module's top-level ``def`` binds → the ``def`` lines that bind it, in order."""
    import ast

    try:
        tree = ast.parse(Path(path).read_text(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return {}
    out: dict[str, list[int]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.setdefault(node.name, []).append(node.lineno)
    return out


def _shadowed(func: Any) -> bool:
    """Whether a module-level function's ``def`` is followed by another top-level ``def`` of its name."""
    try:
        path = inspect.getsourcefile(func)
        lines = _top_level_defs(path, os.stat(path).st_mtime) if path else {}
    except (OSError, TypeError):
        return False
    found = lines.get(def_name(func), [])
    return len(found) > 1 and def_line(func) != found[-1]


def _closure_value(v: Any, func: Any, module: Any, depth: int) -> Any:
    """One closure value as the capture records it (:func:`closure_values`)."""
    import enum

    if isinstance(v, enum.Enum):   # (before int: an IntEnum member is an int too) by its class and member name
        cls = type(v)
        where = {} if cls.__module__ == func.__module__ else {"module": cls.__module__}
        return {"enum": cls.__qualname__, "member": v.name, **where}
    if is_numpy_scalar(v) and isinstance(v.item(), (bool, int, float)):
        # a numpy scalar (`make(np.float32(0.5))`): cuTile Python types it by its dtype, unlike the Python number
        # (np.float64 is a Python float too, but an f64 constant there)
        return {"numpy": str(v.dtype), "value": v.item()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if type(v).__name__ in ("DType", "dtype") and isinstance(getattr(v, "name", None) or str(v), str):
        return {"dtype": str(getattr(v, "name", None) or v).removeprefix("torch.")}
    if module is not None and any(val is v for val in vars(module).values()):
        return {"global": next(k for k, val in vars(module).items() if val is v)}
    if isinstance(v, tuple) and depth < CLOSURE_DEPTH:   # a tile shape `(BM, BN)`, a table of constants
        return {"tuple": [_closure_value(e, func, module, depth + 1) for e in v]}
    inner = getattr(v, "__wrapped__", v) if getattr(v, "_cutile_function_wrapper", False) else v
    if inspect.isfunction(inner) and "<locals>" in def_qualname(inner) and depth < CLOSURE_DEPTH:
        # a helper the factory made beside the kernel (`@ct.function def _post(t)` over the factory's arguments):
        # by its `def` line and the values it closes over in turn; one a function of another module made (`sc =
        # helpers.make_scale(0.5)`, its `def scale(x)` over `s`) names that module too
        home = sys.modules.get(getattr(inner, "__module__", None) or "")
        same = inspect.getsourcefile(inner) == inspect.getsourcefile(func)
        if same or (home is not None and getattr(home, "__file__", None) and def_name(inner) != "<lambda>" and
                    inspect.getsourcefile(inner) == inspect.getsourcefile(home)):
            return {"function": def_name(inner), "line": def_line(inner), "tile_function": inner is not v,
                    "closure": _closure_values(inner, module if same else home, depth + 1)} | \
                ({} if same else {"module": inner.__module__})
    held = _module_item(v, module)
    if held is not None:
        return held
    qualified = _qualified_name(v)
    if qualified is not None:
        return {"qualified": qualified}
    return {"unknown": type(v).__name__}


#: the containers a module-level table of helpers is (`OPS = {"relu": lambda t: .., ..}`, `ACTS = [f, g]`)
_TABLES = (dict, list, tuple)


def _module_item(v: Any, module: Any) -> dict | None:
    """``{"global": NAME, "item": [KEY]}`` where ``v`` is an item of a module-level table ``NAME`` (a dict by a str,
    int or bool key, a list or tuple by its index): a test's ``fn = OPS[op]`` picking a lambda of a module dict, which
    no name of the module nor any qualified name finds (a lambda's is ``<lambda>``); None elsewhere. Only functions
    and other objects are looked up (a number is recorded as itself)."""
    if module is None or isinstance(v, (bool, int, float, str, tuple, type(None))):
        return None
    for name, table in vars(module).items():
        if name.startswith("__") or not isinstance(table, _TABLES):
            continue
        items = table.items() if isinstance(table, dict) else enumerate(table)
        for key, item in items:
            if item is v and isinstance(key, (str, int, bool)):
                return {"global": name, "item": [key]}
    return None


def _qualified_name(v: Any) -> str | None:
    """``MODULE:QUALNAME`` of a function or class that importing MODULE and walking QUALNAME finds again (the same
    object): a function of Python's `operator` module (`operator.add`, module `_operator`), a cuda.tile function, a
    helper of another module picked from a table (`{"add": operator.add, ..}[op]`); None for anything else (a
    lambda, a local function, an object of no module)."""
    import importlib

    mod, qual = getattr(v, "__module__", None), getattr(v, "__qualname__", None)
    if not (callable(v) and isinstance(mod, str) and isinstance(qual, str)) or "<" in qual:
        return None
    try:
        obj = importlib.import_module(mod)
        for part in qual.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError, ValueError):
        return None
    return f"{mod}:{qual}" if obj is v else None


def _closure_values(func: Any, module: Any, depth: int) -> dict | None:
    names = func.__code__.co_freevars
    if not names:
        return None
    out: dict = {}
    for name, cell in zip(names, func.__closure__ or ()):
        try:
            v = cell.cell_contents
        except ValueError:   # an empty cell (bound after the kernel was made)
            out[name] = {"unknown": "unbound"}
            continue
        out[name] = _closure_value(v, func, module, depth)
    return out


def closure_values(func: Any) -> dict | None:
    """The values a kernel made inside a function closes over, each as the capture records it: a bool, int, float,
    str or None as itself; an enum member ``{"enum": CLASS, "member": NAME}`` (``"module"`` when its class is
    another module's); a dtype (cuda.tile's or torch's) ``{"dtype": NAME}``; a module-level object of the kernel's
    module (a helper, a table) ``{"global": NAME}`` (an item of a module-level dict, list or tuple ``{"global":
    NAME, "item": [KEY]}``); a tuple ``{"tuple": [..]}`` of such values; a numpy scalar ``{"numpy": DTYPE, "value":
    V}`` (cuTile Python types it by its dtype); a function the factory made in the kernel's file (a ``@ct.function``
    helper) ``{"function": NAME, "line": DEF_LINE, "tile_function": BOOL, "closure": {..}}``; a function or class another module defines (`operator.add` picked
    from a table) ``{"qualified": "MODULE:QUALNAME"}``; anything else ``{"unknown": TYPE}`` (its kernel cannot be
    rebuilt from the capture). None when it closes over nothing."""
    return _closure_values(func, sys.modules.get(func.__module__), 0)


def _closure_object(name: str, value: Any, module: Any, path: Path, ref: str) -> Any:
    """The object a recorded closure value stands for (:func:`_closure_value`), in the kernel's loaded module."""
    import importlib

    import cuda.tile as ct

    if not isinstance(value, dict):
        return value
    if isinstance(value.get("dtype"), str) and hasattr(ct, value["dtype"]):
        return getattr(ct, value["dtype"])
    if isinstance(value.get("numpy"), str) and isinstance(value.get("value"), (bool, int, float)):
        import numpy as np

        try:
            return np.dtype(value["numpy"]).type(value["value"])
        except (TypeError, ValueError, OverflowError) as exc:
            raise KernelLoadError(f"{ref}: the kernel closes over {name!r}, a numpy {value['numpy']} "
                                  f"{value['value']!r} not made again here ({type(exc).__name__}: {exc})") from None
    if isinstance(value.get("global"), str) and value["global"] in vars(module):
        obj = vars(module)[value["global"]]
        for key in value.get("item") or ():   # an item of a module-level table (_module_item)
            try:
                obj = obj[key]
            except (KeyError, IndexError, TypeError) as exc:
                raise KernelLoadError(f"{ref}: the kernel closes over {name!r}, {value['global']}[{key!r}], which "
                                      f"is not found here ({type(exc).__name__}: {exc})") from None
        return obj
    if isinstance(value.get("tuple"), list):
        return tuple(_closure_object(name, v, module, path, ref) for v in value["tuple"])
    if isinstance(value.get("enum"), str) and isinstance(value.get("member"), str):
        try:
            obj = importlib.import_module(value["module"]) if "module" in value else module
            for part in value["enum"].split("."):
                obj = getattr(obj, part)
            return obj[value["member"]]
        except (ImportError, AttributeError, KeyError, TypeError) as exc:
            raise KernelLoadError(f"{ref}: the kernel closes over {name!r}, {value['enum']}.{value['member']}, "
                                  f"which is not found here ({type(exc).__name__}: {exc})") from None
    if isinstance(value.get("qualified"), str) and value["qualified"].count(":") == 1:
        mod, qual = value["qualified"].split(":")
        try:
            obj = importlib.import_module(mod)
            for part in qual.split("."):
                obj = getattr(obj, part)
            return obj
        except (ImportError, AttributeError, ValueError, TypeError) as exc:
            raise KernelLoadError(f"{ref}: the kernel closes over {name!r}, {mod}.{qual}, which is not found here "
                                  f"({type(exc).__name__}: {exc})") from None
    if isinstance(value.get("function"), str) and isinstance(value.get("line"), int) and \
            isinstance(value.get("closure", {}), (dict, type(None))):
        if isinstance(value.get("module"), str):   # (a function another module's function made)
            try:
                module = sys.modules.get(value["module"]) or importlib.import_module(value["module"])
                path = Path(inspect.getsourcefile(module))
            except (ImportError, TypeError, ValueError) as exc:
                raise KernelLoadError(f"{ref}: the kernel closes over {name!r}, a function module "
                                      f"{value['module']} made, which is not found here ({type(exc).__name__}: "
                                      f"{exc})") from None
        fn = _rebuilt_function(module, path, value["function"], value["line"], value.get("closure"), ref)
        return ct.function(fn) if value.get("tile_function") else fn
    raise KernelLoadError(f"{ref}: the kernel closes over {name!r}, a {value.get('unknown', value)} the capture "
                          "could not record; make it a ct.Constant parameter or bind the kernel at module level")


def _rebuilt_function(module: Any, path: Path, name: str, line: int, closure: dict | None, ref: str) -> Any:
    """The function of the ``def NAME`` at ``line`` of the module's source (inside a function; NAME ``<lambda>``: the
    lambda at that line), rebuilt over the captured ``closure`` values."""
    import ast

    src = path.read_text()

    def codes() -> Any:
        todo = [compile(src, str(path), "exec")]
        while todo:
            c = todo.pop()
            yield c
            todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))

    if name == "<lambda>":
        # a lambda the factory or test made (`post = lambda t: t * scale`): its code by its first line, where it is
        # the only lambda there (two on a line are not told apart by what a capture records)
        found = [c for c in codes() if c.co_name == name and c.co_firstlineno == line]
        if len(found) != 1:
            raise KernelLoadError(f"{ref}: {len(found)} lambdas at line {line} of {path}: the one a kernel closes "
                                  "over is not told apart; write it as a `def` (or one lambda on its line)")
        code = found[0]
    else:
        fn = next((n for n in walk_nodes(ast.parse(src, filename=str(path)))
                   if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name and n.lineno == line),
                  None)
        if fn is None:
            raise KernelLoadError(f"{ref}: no `def {name}` at line {line} of {path}")
        first = min([fn.lineno] + [d.lineno for d in fn.decorator_list])
        code = next((c for c in codes() if c.co_name == name and c.co_firstlineno == first), None)
        if code is None:
            raise KernelLoadError(f"{ref}: no code of `def {name}` at line {line} of {path}")
    if code.co_freevars and closure is None:
        raise KernelLoadError(f"{ref}: the kernel closes over {', '.join(code.co_freevars)} (a factory's values); "
                              "port it from a capture (`--capture FILE` of `tileport capture`), which records them")
    cells = tuple(types.CellType(_closure_object(v, (closure or {}).get(v, {"unknown": "unrecorded"}), module, path,
                                                 ref))
                  for v in code.co_freevars)
    return types.FunctionType(code, vars(module), name, None, cells or None)


def _rebuilt(module: Any, path: Path, name: str, line: int, closure: dict | None, ref: str) -> Any:
    """The kernel a factory made: its function rebuilt from the code of the ``def NAME`` at ``line`` of the module's
    source, over the captured ``closure`` values, decorated with ``ct.kernel`` (the hints it launched with are the
    capture's, compiled as launched hints)."""
    import cuda.tile as ct

    return ct.kernel(_rebuilt_function(module, path, name, line, closure, ref))


def _is_kernel(obj: Any) -> bool:
    from cuda.tile._execution import kernel as kernel_type

    return isinstance(obj, kernel_type)


def package_name(path: Path) -> tuple[Path, str] | None:
    """(the directory to put on sys.path, the dotted module name) when ``path`` lies in a package (its folder has
    an ``__init__.py``): such a file is imported as part of its package, so its relative imports work."""
    parts = [path.stem] if path.name != "__init__.py" else []
    folder = path.parent
    if not (folder / "__init__.py").is_file():
        return None
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    return folder, ".".join(parts)


#: dunder names that are a package's data, not a protocol: a placeholder has them (``transformers.__version__``
#: read at import time by host code that checks the version it runs with)
DATA_DUNDERS = ("__version__",)


def _dunder(attr: str) -> bool:
    """Python's own protocol names (``__len__``, ``__fspath__``): a placeholder has none of them (AttributeError)."""
    return attr.startswith("__") and attr.endswith("__") and attr not in DATA_DUNDERS


class _AbsentMeta(type):
    def __getattr__(cls, attr: str) -> Absent:
        if _dunder(attr):
            raise AttributeError(attr)
        return Absent(f"{cls.__name__}.{attr}")

    def _op(cls, *other: Any) -> Absent:   # (a class-like name used as a value: `np.NaN * 2` at import time)
        return Absent(f"({cls.__name__} op ...)")

    __and__ = __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _op
    __truediv__ = __rtruediv__ = __floordiv__ = __mod__ = __pow__ = __neg__ = _op


class AbsentBase(metaclass=_AbsentMeta):
    """What a class deriving from an :class:`Absent` (``torch.autograd.Function``) derives from: any attribute
    it lacks, read from the class, is a placeholder (``Fn.apply``)."""


class Absent:
    """What a name read from a package that is not installed here stands for while a kernel's module is imported:
    attributes, calls, items and operators give more placeholders; as a base class it is :class:`AbsentBase`;
    iterated it is empty; it is false."""

    def __init__(self, name: str):
        object.__setattr__(self, "_name", name)

    def __getattr__(self, attr: str) -> Absent:
        if _dunder(attr):
            raise AttributeError(attr)
        return Absent(f"{self._name}.{attr}")

    def __call__(self, *args: Any, **kwargs: Any) -> Absent:
        return Absent(f"{self._name}(...)")

    def __getitem__(self, key: Any) -> Absent:
        return Absent(f"{self._name}[...]")

    def __mro_entries__(self, bases: tuple) -> tuple:
        if any(isinstance(b, type) and issubclass(b, AbsentBase) for b in bases):
            return ()   # (beside a class-like placeholder, `_absent_class`: AbsentBase is its base already)
        first = next(b for b in bases if isinstance(b, Absent))
        return (AbsentBase,) if first is self else ()

    def __iter__(self):
        return iter(())

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"<{self._name}: {self._name.split('.')[0]} is not installed here>"

    def _op(self, *other: Any) -> Absent:
        return Absent(f"({self._name} op ...)")

    __or__ = __ror__ = __and__ = __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _op
    __truediv__ = __rtruediv__ = __floordiv__ = __mod__ = __pow__ = __neg__ = _op


#: the short dtype names array packages (torch, numpy) give beside cuda.tile's own (``torch.half``)
DTYPE_ALIASES = {"half": "float16", "float": "float32", "double": "float64", "short": "int16", "int": "int32",
                 "long": "int64", "bool": "bool_"}


def _dtype_named(attr: str) -> Any:
    """The cuda.tile dtype an array package's attribute of this name is (``torch.float32`` is ``ct.float32``, as
    cuda.tile converts it when torch is there), else None."""
    import cuda.tile as ct

    found = getattr(ct, DTYPE_ALIASES.get(attr, attr), None)
    return found if isinstance(found, ct.DType) else None


def _absent_class(name: str) -> type:
    """A class's name read from a package not installed here (``torch.Tensor``, ``torch.nn.Module``: capitalized,
    as Python names classes): a class, so that host code using it as one at import time works —
    ``functools.singledispatch`` registering a function by its annotation (``@f.register def _(x: torch.Tensor)``:
    "Invalid annotation for 'x'. <torch.Tensor: ..> is not a class" from a placeholder), a base class, ``X | None``,
    ``isinstance`` (never true). Called (``torch.Size([1])``) or read from (``torch.Tensor.add``), it is a
    placeholder as before; a class deriving from it is :class:`AbsentBase`'s."""
    short = name.rsplit(".", 1)[-1]

    def new(cls: type, *a: Any, **kw: Any) -> Any:
        return Absent(f"{name}(...)") if cls is made else object.__new__(cls)

    made = _AbsentMeta(short, (AbsentBase,), {"__module__": name.rsplit(".", 1)[0], "__qualname__": short,
                                              "__new__": new, "__doc__": f"{name}: not installed here"})
    return made


class _AbsentModule(types.ModuleType):
    """A package not installed here: a dtype name (``torch.bfloat16``, which kernels pass as ``dtype=``) is that
    cuda.tile dtype; a capitalized name a class (:func:`_absent_class`, the same one each time); any other name is
    an :class:`Absent`."""

    def __getattr__(self, attr: str) -> Any:
        if _dunder(attr):
            raise AttributeError(attr)
        dtype = _dtype_named(attr) if "." not in self.__name__ else None
        if dtype is not None:
            return dtype
        if attr[:1].isupper():
            made = self.__dict__[attr] = _absent_class(f"{self.__name__}.{attr}")
            return made
        return Absent(f"{self.__name__}.{attr}")


class _AbsentFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the packages named (and their submodules) as :class:`_AbsentModule`; first on ``sys.meta_path``."""

    def __init__(self, roots: set[str]):
        self.roots = roots

    def find_spec(self, fullname: str, path: Any = None, target: Any = None):
        if fullname.split(".")[0] in self.roots:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = _AbsentModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module) -> None:
        pass


def _missing_package(exc: BaseException) -> str | None:
    """The top-level package a failed import lacked (an ImportError anywhere in ``exc``'s chain), if none of it
    is installed here — not one of cuda.tile's own (those are tileport's setup, never stood in)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ModuleNotFoundError) and exc.name:
            root = exc.name.split(".")[0]
            if root not in ("cuda", "tileport") and importlib.util.find_spec(root) is None:
                return root
        exc = exc.__cause__ or exc.__context__
    return None


#: how many packages one module may lack before tileport stops standing them in
MAX_ABSENT = 8


def _no_gpu_torch() -> bool:
    """torch (the real one) was imported and sees no CUDA device: host code run at import time may have asked
    for one."""
    torch = sys.modules.get("torch")
    if torch is None or isinstance(torch, _AbsentModule):
        return False
    try:
        return not torch.cuda.is_available()
    except Exception:  # noqa: BLE001 — a torch that cannot even answer this has no GPU for us either
        return True


def _import_retrying(do_import, host_root: Path, tolerant: Any = None) -> tuple[Any, tuple[str, ...], bool]:
    """(``do_import()``, the packages stood in, whether CUDA was emulated): retried with each package it lacks
    stood in (module docstring; a module whose import failed is already out of ``sys.modules``), and once more
    under the capture's CUDA emulation (``corpus.cudaemu``: torch.cuda answered as an H200, CUDA tensors kept on the
    CPU) when it failed with torch seeing no GPU — host code that asks the device something at import time
    (``NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count``). The stand-ins leave
    ``sys.modules`` afterwards (the module imported keeps what it bound), so nothing else in this process sees
    them; the emulation ends with the import. ``tolerant``: the import tried last, when nothing else is left to
    retry (a script's top-level host code that fails here: :func:`_exec_skipping`)."""
    roots: set[str] = set()
    emulated = False
    last = False
    while True:
        finder = _AbsentFinder(roots)
        if roots:
            sys.meta_path.insert(0, finder)
        run = tolerant if last else do_import
        try:
            if not emulated:
                return run(), tuple(sorted(roots)), False
            from ...corpus.cudaemu import TARGETS, emulate

            with emulate(TARGETS["h200"], [str(host_root)]):
                return run(), tuple(sorted(roots)), True
        except Exception as exc:
            root = _missing_package(exc)
            if root is not None and root not in roots and len(roots) < MAX_ABSENT:
                roots.add(root)
            elif not emulated and _no_gpu_torch():
                emulated = True
            elif tolerant is not None and not last:
                last = True
            else:
                raise
        finally:
            if roots:
                if finder in sys.meta_path:
                    sys.meta_path.remove(finder)
                for name in [n for n in sys.modules if n.split(".")[0] in roots]:
                    if isinstance(sys.modules[name], _AbsentModule):
                        del sys.modules[name]


def _import_in_package(path: Path, root: Path, dotted: str) -> tuple[Any, tuple[str, ...], bool]:
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        module, absent, emulated = _import_retrying(lambda: importlib.import_module(dotted), root)
    except Exception as exc:
        try:   # a package's __init__ that pulls in a host framework the kernel never needs: without them
            module, absent, emulated = _import_retrying(lambda: _import_past_inits(dotted, root), root)
        except Exception:  # noqa: BLE001 — the module itself fails: the first error is the one to show
            raise KernelLoadError(f"{path}: importing it as {dotted} (from {root}) failed: "
                                  f"{type(exc).__name__}: {exc}") from exc
    if Path(getattr(module, "__file__", "") or "").resolve() != path:
        raise KernelLoadError(f"{path}: importing {dotted} from {root} found {module.__file__} instead")
    return module, absent, emulated


def _import_past_inits(dotted: str, root: Path) -> Any:
    """``dotted`` imported with the ``__init__`` of each of its packages not yet imported left unrun: bare
    packages whose ``__path__`` is their folder stand in for them while it imports, so its own imports (``from
    .utils import f``, ``from pkg.sub import g``) still resolve. For a kernel module whose package's ``__init__``
    imports a host framework at a version check (``transformers>=5.3 is required``) that the kernel's device
    code never touches. The bare packages leave ``sys.modules`` afterwards."""
    parts = dotted.split(".")
    bare: dict[str, types.ModuleType] = {}
    for k in range(1, len(parts)):
        name = ".".join(parts[:k])
        if name in sys.modules:
            continue
        pkg = bare[name] = sys.modules[name] = types.ModuleType(name)
        pkg.__path__ = [str(root.joinpath(*parts[:k]))]
        pkg.__package__ = name
        pkg.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
    try:
        return importlib.import_module(dotted)
    finally:
        for name, pkg in bare.items():
            if sys.modules.get(name) is pkg:
                del sys.modules[name]


def _exec_skipping(module: Any, path: Path) -> None:
    """Run the module's top-level statements one at a time, as its import would, with ``ct.launch`` recording
    nothing and running nothing, and go on past a statement that raises (noted in ``__tileport_skipped__``). A
    script's host code at its top level (cuda.tile's quick start launches and checks there, between kernel
    definitions) asks for what is not here — a GPU, the values a kernel computed — and its definitions are what
    a port needs. A package not installed still raises (the caller stands it in and tries again)."""
    import __future__
    import ast

    import cuda.tile as ct

    tree = ast.parse(path.read_text(), filename=str(path))
    flags = 0
    for st in tree.body:
        if isinstance(st, ast.ImportFrom) and st.module == "__future__":
            for alias in st.names:
                flags |= getattr(__future__, alias.name).compiler_flag
    skipped: list[str] = []
    module.__tileport_skipped__ = skipped
    saved = {name: getattr(ct, name) for name in ("launch", "launch_extended") if hasattr(ct, name)}
    for name in saved:
        setattr(ct, name, lambda *args, **kwargs: None)
    try:
        for st in tree.body:
            code = compile(ast.Module([st], []), str(path), "exec", flags=flags, dont_inherit=True)
            try:
                exec(code, module.__dict__)
            except (Exception, SystemExit) as exc:   # (a script ending itself at its top level: sys.exit(main()))
                if _missing_package(exc) is not None:
                    raise
                first = (str(exc).strip().splitlines() or [""])[0][:200]
                skipped.append(f"{path.name}:{st.lineno}: {type(exc).__name__}: {first}")
    finally:
        for name, fn in saved.items():
            setattr(ct, name, fn)


def _import_file(path: Path, tolerant: bool = False) -> Any:
    modname = "tileport_user_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise KernelLoadError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    folder = str(path.parent)
    added = folder not in sys.path
    if added:   # its sibling modules import as they do under `python FILE` (the script's folder first)
        sys.path.insert(0, folder)
    try:
        if tolerant:
            _exec_skipping(module, path)
        else:
            try:
                spec.loader.exec_module(module)
            except SystemExit as exc:   # (its top level ended the process: sys.exit(main()) with no __main__ test)
                raise RuntimeError(f"its top-level code called sys.exit({exc.code!r})") from None
    except BaseException:
        sys.modules.pop(modname, None)
        raise
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)
    return module


def load_module(path: Path) -> tuple[Any, tuple[str, ...], bool]:
    """(the module at ``path``, the packages it imports that were stood in, whether CUDA was emulated for it)."""
    path = path.resolve()
    if not path.is_file():
        raise KernelLoadError(f"{path}: no such file")
    pkg = package_name(path)
    if pkg is not None and not str(path).startswith(str(Path(__file__).resolve().parents[2])):
        return _import_in_package(path, *pkg)
    try:
        return _import_retrying(lambda: _import_file(path), path.parent, lambda: _import_file(path, tolerant=True))
    except KernelLoadError:
        raise
    except Exception as exc:  # the user's module failed to import: say where
        raise KernelLoadError(f"{path}: importing it failed: {type(exc).__name__}: {exc}") from exc


def _kernels_named(module: Any, name: str) -> dict[str, Any]:
    """The kernels of ``module`` whose function is ``name`` though no module-level name of that name holds them: by
    the module-level name, `Class.attr` or `TABLE[key]` (a module-level dict, list or tuple) that holds each
    (distinct kernel objects only)."""
    found: dict[str, Any] = {}
    for attr, value in list(vars(module).items()):
        candidates = [(attr, value)]
        if isinstance(value, type) and getattr(value, "__module__", None) == module.__name__:
            candidates = [(f"{attr}.{m}", getattr(value, m, None)) for m in list(vars(value))]
        elif isinstance(value, dict) and not attr.startswith("__"):   # a table of kernels (`K = {occ: ct.kernel(
            candidates = [(f"{attr}[{k!r}]", v) for k, v in list(value.items())]   # occupancy=occ)(_b) ..}`)
        elif isinstance(value, (list, tuple)) and not attr.startswith("__"):
            candidates = [(f"{attr}[{i}]", v) for i, v in enumerate(value)]
        for where, obj in candidates:
            if _is_kernel(obj) and obj._pyfunc.__name__ == name and all(obj is not o for o in found.values()):
                found[where] = obj
    return found


def _kernels_elsewhere(module: Any, path: Path, func: Any) -> dict[str, Any]:
    """Kernels made of ``func`` (a module-level function of ``module``, no kernel there) by another module of its
    package (`axpy = ct.kernel(axpy_body)` in `ops.py` over `from .bodies import axpy_body`): searched in the
    package's modules already imported (loading ``module`` imported its package), then in those of ``module``'s own
    folder not imported yet. By `MODULE.where`."""
    pkg = package_name(path)
    if pkg is None:
        return {}
    root = pkg[0].resolve()

    def search(mods: list[Any]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for m in mods:
            for where, k in _kernels_named(m, func.__name__).items():
                if k._pyfunc is func and all(k is not o for o in found.values()):
                    found[f"{m.__name__}.{where}"] = k
        return found

    def under_root(m: Any) -> bool:
        f = getattr(m, "__file__", None)
        return isinstance(f, str) and m is not module and Path(f).resolve().is_relative_to(root)

    found = search([m for m in list(sys.modules.values()) if under_root(m)])
    if found or not module.__name__.count("."):
        return found
    package = module.__name__.rsplit(".", 1)[0]
    siblings = []
    for f in sorted(path.parent.glob("*.py")):
        name = f"{package}.{f.stem}"
        if f.stem != "__init__" and f.resolve() != path and name not in sys.modules:
            try:
                siblings.append(importlib.import_module(name))
            except Exception:   # (a sibling that does not import here holds no kernel we could load)
                continue
    return search(siblings)


def _nested_defs(path: Path, name: str) -> list[int]:
    """The lines of the ``def NAME`` inside functions of ``path``."""
    import ast

    try:
        tree = ast.parse(path.read_text(), filename=str(path))
    except (OSError, SyntaxError, ValueError):
        return []
    top = {id(n) for n in tree.body}
    return sorted(n.lineno for n in walk_nodes(tree)
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name and id(n) not in top)


def load_kernel(ref: str, closure: dict | None = None) -> LoadedKernel:
    """The kernel ``FILE.py::NAME`` (or ``FILE.py::NAME@LINE``: the kernel a factory defines at that ``def`` line;
    one bound at module level is taken as it is, else it is rebuilt over ``closure``, the values its captured
    launches recorded)."""
    path, ref_name = split_ref(ref)
    name, line = split_name(ref_name)
    module, absent, emulated = load_module(path)
    skipped = tuple(getattr(module, "__tileport_skipped__", ()))
    if line is not None:
        found = [k for k in _kernels_named(module, name).values() if kernel_name(k._pyfunc)[0] == ref_name]
        obj = found[0] if found else _rebuilt(module, path.resolve(), name, line, closure, ref)
        return LoadedKernel(path.resolve(), name, obj, absent, emulated, ref_name, closure if not found else None,
                            skipped)
    obj = getattr(module, name, None)
    if obj is None or (inspect.isfunction(obj) and not _is_kernel(obj)):
        # a kernel reached another way, named by its function (as a capture names it): one a factory made
        # (`relu_kernel = make_act_kernel(1)` of `def act_kernel`), a `@staticmethod` on a class, or a module-level
        # function made a kernel by a call and bound under another name (`add_kernel = ct.kernel(_add_impl)`,
        # `scale = ct.kernel(occupancy=2)(_scale_impl)` on a class): the function itself is not the kernel
        found = _kernels_named(module, name)
        if obj is not None:   # only the kernels made of this very function
            found = {w: k for w, k in found.items() if k._pyfunc is obj}
        if not found and inspect.isfunction(obj):
            found = _kernels_elsewhere(module, path.resolve(), obj)
        if len(found) > 1 and len({id(k._pyfunc) for k in found.values()}) == 1:
            # kernels of one module-level function that differ only by their hints (`k = ct.kernel(_body)`,
            # `k_occ = ct.kernel(occupancy=2)(_body)`): a capture records each launch's hints, and a port is made at
            # them over the kernel of the fewest hints set (a launch at more is a variant at its hints)
            from .hints import kernel_hints

            plain = min(found, key=lambda w: (sum(v != "default" for v in kernel_hints(found[w]).values()), w))
            found = {plain: found[plain]}
        if len(found) > 1:
            raise KernelLoadError(f"{path}: {len(found)} kernels of function {name!r} ({', '.join(found)}): a "
                                  "factory's kernels differ by what they close over; bind each at module level under "
                                  "a name of its own")
        obj = next(iter(found.values()), obj)
    kernels = sorted(n for n, v in vars(module).items() if _is_kernel(v))
    if obj is None or not _is_kernel(obj):
        what = "is not defined" if obj is None else f"is a {type(obj).__name__}, not a @ct.kernel"
        nested = _nested_defs(path, name) if obj is None else []
        if nested:   # made by a factory at run time: named by its def line, as a capture names it
            what = (f"is defined inside a function (a factory) at line {', '.join(map(str, nested))}: name it "
                    f"{name}@LINE by its def line, as `tileport capture` lists it, with --capture FILE")
        if skipped and obj is None:   # (its import failed: the statements gone past may be why it is not there)
            where, _, error = skipped[0].partition(": ")
            raise KernelLoadError(f"{path}: importing it failed: {error} ({where}; {name!r} is not defined past it; "
                                  f"kernels in this file: {', '.join(kernels) or 'none'})")
        raise KernelLoadError(f"{path}: {name!r} {what}; kernels in this file: {', '.join(kernels) or 'none'}")
    return LoadedKernel(path.resolve(), name, obj, absent, emulated, skipped=skipped)
