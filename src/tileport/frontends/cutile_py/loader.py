"""Load a ``@ct.kernel`` from ``path/to/file.py::name``."""
from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import TileportError


class KernelLoadError(TileportError):
    """The kernel reference does not name a loadable cuTile Python kernel."""


@dataclass(frozen=True)
class LoadedKernel:
    path: Path
    name: str
    kernel: Any  # cuda.tile kernel object

    @property
    def pyfunc(self) -> Any:
        return self.kernel._pyfunc

    @property
    def param_names(self) -> list[str]:
        return list(inspect.signature(self.pyfunc).parameters)

    @property
    def ref(self) -> str:
        return f"{self.path}::{self.name}"


def split_ref(ref: str) -> tuple[Path, str]:
    if "::" not in ref:
        raise KernelLoadError(f"{ref!r}: expected FILE.py::KERNEL (for example src/tileport/kernels/vector_add.py::vector_add)")
    file, name = ref.rsplit("::", 1)
    return Path(file), name


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


def _import_in_package(path: Path, root: Path, dotted: str) -> Any:
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(dotted)
    except Exception as exc:
        raise KernelLoadError(f"{path}: importing it as {dotted} (from {root}) failed: "
                              f"{type(exc).__name__}: {exc}") from exc
    if Path(getattr(module, "__file__", "") or "").resolve() != path:
        raise KernelLoadError(f"{path}: importing {dotted} from {root} found {module.__file__} instead")
    return module


def load_module(path: Path) -> Any:
    path = path.resolve()
    if not path.is_file():
        raise KernelLoadError(f"{path}: no such file")
    pkg = package_name(path)
    if pkg is not None and not str(path).startswith(str(Path(__file__).resolve().parents[2])):
        return _import_in_package(path, *pkg)
    modname = "tileport_user_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise KernelLoadError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's module failed to import: say where
        sys.modules.pop(modname, None)
        raise KernelLoadError(f"{path}: importing it failed: {type(exc).__name__}: {exc}") from exc
    return module


def load_kernel(ref: str) -> LoadedKernel:
    path, name = split_ref(ref)
    module = load_module(path)
    obj = getattr(module, name, None)
    kernels = sorted(n for n, v in vars(module).items() if _is_kernel(v))
    if obj is None or not _is_kernel(obj):
        what = "is not defined" if obj is None else f"is a {type(obj).__name__}, not a @ct.kernel"
        raise KernelLoadError(f"{path}: {name!r} {what}; kernels in this file: {', '.join(kernels) or 'none'}")
    return LoadedKernel(path.resolve(), name, obj)
