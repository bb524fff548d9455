"""Shared by the GPU checks of the Triton lowering: a fixture module's kernels lowered at their captured launches, and
each launch made twice — by Triton and by the lowered cuTile Python (`ported(.., backend="cutile")`) — on copies of
the same inputs, every array compared afterwards. The CPU tests prove each Rust port IR-equivalent to the lowered
form; these check the lowering itself against Triton."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, Callable


def lower_fixture(path: Path, root: Path) -> Path:
    """Each kernel the fixture module's `launch_all` launches, lowered at its captured launches into
    ``root/<kernel>/lowered.py`` (no cargo: the lowering alone)."""
    from tileport.frontends.cutile_py.capture import run_captured
    from tileport.pipeline.triton import lower_from_launches

    launches = list(run_captured(path, []).launches.values())
    for name in sorted({l["kernel"].rpartition("::")[2] for l in launches}):
        mine = [l for l in launches if l["kernel"].endswith(f"::{name}")]
        lower_from_launches(f"{path}::{name}", mine).write(root / name / "lowered.py")
    return root


def _same_layout_copy(x: Any) -> Any:
    """A copy of tensor ``x`` with its layout: its whole storage copied and viewed at x's offset, sizes and strides
    (clone() makes a strided view contiguous, and the launch passes its strides; an expanded view's stride 0 cannot
    be copied into element by element: the GPU run of 2026-12-07 failed there)."""
    import torch

    if not torch.is_tensor(x):
        return x
    return torch.empty(0, dtype=x.dtype, device=x.device).set_(
        x.untyped_storage().clone(), x.storage_offset(), x.size(), x.stride())


def run_both(path: Path, lowered: Path, pick: Callable[[str, Any], bool], run: Callable[[Any], None],
             prepare: Callable[[Any], Any] = lambda a: a, copy: Callable[[Any], Any] | None = None,
             arrays: Callable[[list], list] = lambda xs: xs, skip: frozenset[str] = frozenset()) -> tuple[int, list[str]]:
    """Load the fixture module at ``path``, make each of its kernels ``pick`` selects launch twice (Triton, then the
    lowered form from ``lowered``), call ``run(module)`` and return (launches made, mismatches). ``prepare`` turns
    an argument into what both take (numpy arrays onto the GPU), ``copy`` copies one for the second launch,
    ``arrays`` lists the tensors of an argument list to compare; the kernels named in ``skip`` are not launched
    at all (their launches in ``run`` do nothing: a run of 2026-12-06 handed such a kernel numpy arrays)."""
    import torch

    from tileport.runtime.triton_port import ported

    spec = importlib.util.spec_from_file_location(f"{path.stem}_gpu", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    copy = copy or _same_layout_copy
    failures: list[str] = []
    count = 0

    class Both:
        def __init__(self, name: str, jit: Any):
            self.name, self.jit = name, jit

        def __getitem__(self, grid: Any) -> Callable[..., None]:
            def launch(*args: Any, **kwargs: Any) -> None:
                nonlocal count
                if self.name in skip:
                    return
                count += 1
                names = list(kwargs)
                t_args, t_kw = [prepare(a) for a in args], [prepare(kwargs[n]) for n in names]
                c_args, c_kw = [copy(a) for a in t_args], [copy(a) for a in t_kw]
                self.jit[grid](*t_args, **dict(zip(names, t_kw)))
                _synchronized(f"{self.name} (Triton)")
                ported(self.jit, lowered / self.name, backend="cutile")[grid](*c_args, **dict(zip(names, c_kw)))
                _synchronized(f"{self.name} (the lowered form)")
                for a, b in zip(arrays(t_args + t_kw), arrays(c_args + c_kw)):
                    if torch.is_tensor(a) and not torch.allclose(a.double(), b.double(), rtol=2e-2, atol=2e-2,
                                                                 equal_nan=True):
                        diff = (a.double() - b.double()).abs().nan_to_num(float("inf"))
                        at = tuple(int(i) for i in torch.unravel_index(diff.argmax(), diff.shape))
                        failures.append(f"{self.name}: {diff.max().item()} at {at} of {tuple(a.shape)} (Triton "
                                        f"{a[at].item()}, port {b[at].item()})")
            return launch

    def _synchronized(what: str) -> None:
        """Wait for the launch; a fault (which leaves the context unusable for every launch after it) names the
        kernel and the side that made it (the GPU run of 2026-12-06: "misaligned address", no kernel named)."""
        try:
            torch.cuda.synchronize()
        except Exception as e:   # (torch.AcceleratorError: a device fault)
            raise RuntimeError(f"{what}, launch {count}: {e}") from e

    for name in dir(mod):
        obj = getattr(mod, name)
        if pick(name, obj):
            setattr(mod, name, Both(name, obj))
    run(mod)
    return count, failures
