"""Ownership checks before a launch, following cuTile Rust's model: a parameter the kernel writes must own its
memory for the launch — it may not overlap any other argument, nor itself (broadcast or overlapping strides) —
and every tensor must be on the launch's device. These run on the Python side, before the C call, on the same
facts the descriptors carry (pointer, shape, strides in elements, dtype)."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import TileportError
from .abi import DTYPES


class OwnershipError(TileportError, ValueError):
    """A launch whose arguments break the ownership rules (aliasing outputs, wrong device)."""


@dataclass(frozen=True)
class Arg:
    name: str
    dtype: str
    shape: tuple[int, ...]
    strides: tuple[int, ...]   # elements
    ptr: int
    written: bool
    device: tuple[str, int | None] = ("cuda", None)

    def extent(self) -> tuple[int, int] | None:
        """[first byte, one past the last byte] the tensor can address; None when it has no elements."""
        if any(n == 0 for n in self.shape):
            return None
        size = DTYPES[self.dtype][1]
        lo = sum(min(0, (n - 1) * s) for n, s in zip(self.shape, self.strides))
        hi = sum(max(0, (n - 1) * s) for n, s in zip(self.shape, self.strides))
        return self.ptr + lo * size, self.ptr + (hi + 1) * size

    def self_overlapping(self) -> bool:
        """True when two index tuples reach the same element (stride 0 over extent > 1, or interleaved strides)."""
        dims = sorted((abs(s), n) for n, s in zip(self.shape, self.strides) if n > 1)
        reach = 1
        for stride, n in dims:
            if stride < reach:
                return True
            reach = stride * n
        return False


def check_launch(op: str, args: list[Arg], device: int, in_place: bool = False) -> None:
    """Raise OwnershipError naming the first rule a launch breaks. ``in_place`` (the launch backend, which runs
    host code written for ``ct.launch``): an output passed again as an input, the very same view (pointer, dtype,
    shape, strides), is an in-place update as cuTile Python runs it, and allowed; any other overlap is not."""
    for a in args:
        kind, index = a.device
        if kind != "cuda":
            raise OwnershipError(f"{op}: {a.name} is on the {kind} device; the kernel runs on cuda:{device}")
        if index is not None and index != device:
            raise OwnershipError(f"{op}: {a.name} is on cuda:{index}, but the current device is cuda:{device} "
                                 f"(use torch.cuda.device({index}) or move the tensor)")
        if any(s < 0 for s in a.strides):
            raise OwnershipError(f"{op}: {a.name} has a negative stride {a.strides}; pass a tensor with "
                                 "non-negative strides (e.g. .contiguous())")
    for a in args:
        if not a.written:
            continue
        if a.self_overlapping():
            raise OwnershipError(f"{op}: output {a.name} (shape {a.shape}, strides {a.strides}) has elements that "
                                 "share memory (a broadcast or overlapping view); the kernel writes it, so it must own "
                                 "every element — pass a fresh or .contiguous() tensor")
        mine = a.extent()
        if mine is None:
            continue
        for b in args:
            theirs = b.extent()
            if b is a or theirs is None:
                continue
            if in_place and not b.written and (b.ptr, b.dtype, b.shape, b.strides) == (a.ptr, a.dtype, a.shape,
                                                                                         a.strides):
                continue
            if mine[0] < theirs[1] and theirs[0] < mine[1]:
                what = "output" if b.written else "input"
                raise OwnershipError(f"{op}: output {a.name} overlaps {what} {b.name} (bytes [{mine[0]:#x}, "
                                     f"{mine[1]:#x}) and [{theirs[0]:#x}, {theirs[1]:#x})); a written tensor must "
                                     "not share memory with any other argument")
