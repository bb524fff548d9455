"""The operator library: name → op module, imported on first use (importing one needs no torch)."""
from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType

from ..kernels import SERVED
from ..kernels.triton import OPS as TRITON_OPS

#: Every op: each wraps the proven example kernel of the same name, in tileport.kernels.SERVED's order, then the
#: Triton examples' kernels (triton_<name>, served through their lowered forms: tileport.ops._triton).
NAMES = SERVED + TRITON_OPS


class _Ops(Mapping):
    def __getitem__(self, name: str) -> ModuleType:
        if name not in NAMES:
            raise KeyError(f"no op {name!r}; ops: {', '.join(NAMES)}")
        return importlib.import_module(f"{__package__}.{name}")

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


#: name → op module (``OPS["rms_norm"].rms_norm(x, w)``); modules are imported when first looked up.
OPS: Mapping[str, ModuleType] = _Ops()


def op_names() -> list[str]:
    return list(NAMES)


def wrapper(name: str):
    """The host wrapper of op ``name`` (the function named like its module)."""
    return getattr(OPS[name], name)
