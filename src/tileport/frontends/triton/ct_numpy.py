"""One numpy model of the cuTile Python operations a lowered Triton kernel calls (the lowered kernel run on the
CPU, one program at a time), for checking the lowering against Triton's own interpreter (`fuzz.py`, the round
tests). It folds the per-round stand-ins of tests/test_triton_round*.py into one class, with cuTile's semantics:

- tile loads / stores bounded by the view (the padding value past it), gathers / scatters per lane with the view's
  bounds and the mask; atomics lane by lane, each lane's old value returned;
- integer `//` and `%` floor as Python's (cuTile's floordiv / mod), shifts and bitwise ops in the tile's dtype;
- `maximum` / `minimum` return the operand that is no NaN unless `propagate_nan` (Tile IR's maxf / minf);
- reductions and scans in the tile's dtype, lane order (a GPU's tree order differs in the last bits of a float
  sum: `fuzz.py` compares float reductions within a tolerance and says so);
- APPROX division, exp2 / exp / log / rsqrt / tanh as numpy's correctly rounded (the GPU's approximations are within
  a few ulp: compared within a tolerance, never bitwise).

bfloat16 has no numpy dtype here: a kernel that names `ct.bfloat16` raises ``ModelGap`` (not modelled, reported so).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


class ModelGap(Exception):
    """The lowered kernel calls an operation (or a dtype) this model does not have: the case is not checked."""


def _arr(x):
    return np.asarray(x)


def ct_promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """cuTile's implicit promotion of two tile dtypes (cuda.tile's promote_dtypes: an int beside a float takes the
    float's dtype, never numpy's wider float: int32 * f16 is f16, int64 * f32 is f32)."""
    if a == b:
        return a
    fa, fb = a.kind == "f", b.kind == "f"
    if fa != fb:
        return a if fa else b
    return np.promote_types(a, b)


class Tile(np.ndarray):
    """A tile: numpy's ufuncs on it promote as cuTile does (``ct_promote``; a Python float beside an int tile is
    f32, any other Python number takes the tile's dtype), and their results stay tiles."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kw):
        args = [np.asarray(i) if isinstance(i, np.ndarray) else i for i in inputs]
        if method == "__call__" and ufunc.nin == 2 and ufunc not in (np.left_shift, np.right_shift):
            arrays = [a for a in args if isinstance(a, np.ndarray)]
            if len(arrays) == 2 and arrays[0].dtype != arrays[1].dtype:
                dt = ct_promote(arrays[0].dtype, arrays[1].dtype)
                args = [a.astype(dt) for a in args]
            elif len(arrays) == 1:
                a = arrays[0]
                other = args[1] if args[0] is a else args[0]
                if isinstance(other, float) and a.dtype.kind in "iub":
                    args = [x.astype(np.float32) if x is a else np.float32(x) for x in args]
        out = getattr(ufunc, method)(*args, **kw)
        return tuple(_tile(o) for o in out) if isinstance(out, tuple) else _tile(out)


def _tile(x):
    if isinstance(x, (np.ndarray, np.generic)):
        return np.asarray(x).view(Tile)
    return x


class _NoBf16:
    def __repr__(self):
        return "bfloat16 (not modelled)"

    def __call__(self, *_a, **_k):
        raise ModelGap("bfloat16 has no numpy dtype in this model")


class CtModel:
    """``ct`` for one lowered kernel's run: ``pid`` and ``grid`` set per program by ``run_lowered``."""

    int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
    uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
    float16, float32, float64 = np.float16, np.float32, np.float64
    bool_ = np.bool_
    bfloat16 = _NoBf16()

    class Constant:
        def __class_getitem__(cls, item):
            return item

    class PaddingMode:
        ZERO, NEG_INF, POS_INF, NAN = 0.0, -np.inf, np.inf, np.nan

    class RoundingMode:
        APPROX, RZ, RN, FULL, RM, RP = "approx", "rz", "rn", "full", "rm", "rp"

    class MemoryOrder:
        RELAXED = ACQUIRE = RELEASE = ACQ_REL = WEAK = None

    class MemoryScope:
        BLOCK = DEVICE = SYS = None

    def __init__(self, grid=(1, 1, 1)):
        self.pid = (0, 0, 0)
        self.grid = tuple(grid) + (1,) * (3 - len(grid))

    def __getattr__(self, name):
        raise ModelGap(f"ct.{name} is not in the numpy model (tileport/frontends/triton/ct_numpy.py)")

    # ---------------------------------------------------------------- programs, shapes
    @staticmethod
    def kernel(fn=None, **_):
        return fn if fn is not None else (lambda f: f)

    def bid(self, axis):
        return self.pid[axis]

    def num_blocks(self, axis):
        return self.grid[axis]

    @staticmethod
    def cdiv(a, b):
        return -(-a // b)

    @staticmethod
    def static_iter(it):
        return it

    @staticmethod
    def arange(n, dtype=np.int32):
        return np.arange(n, dtype=dtype)

    @staticmethod
    def full(shape, fill_value, dtype):
        return np.full(shape, fill_value, dtype=dtype)

    @staticmethod
    def zeros(shape, dtype=np.float32):
        return np.zeros(shape, dtype)

    @staticmethod
    def ones(shape, dtype=np.float32):
        return np.ones(shape, dtype)

    @staticmethod
    def reshape(t, shape):
        return np.reshape(_arr(t), shape)

    @staticmethod
    def broadcast_to(x, shape):
        return np.broadcast_to(x, shape)

    @staticmethod
    def expand_dims(x, axis):
        return np.expand_dims(_arr(x), axis)

    @staticmethod
    def permute(x, axes):
        return np.transpose(_arr(x), axes)

    @staticmethod
    def transpose(x, axis0=None, axis1=None):
        x = _arr(x)
        if axis0 is None:
            return x.T
        axes = list(range(x.ndim))
        axes[axis0], axes[axis1] = axes[axis1], axes[axis0]
        return np.transpose(x, axes)

    @staticmethod
    def extract(x, index, shape):
        return _arr(x)[tuple(slice(i * s, (i + 1) * s) for i, s in zip(index, shape))]

    @staticmethod
    def cat(tiles, axis):
        return np.concatenate([_arr(t) for t in tiles], axis)

    # ---------------------------------------------------------------- dtypes
    @staticmethod
    def astype(t, dtype, rounding_mode=None):
        t = _arr(t)
        with np.errstate(invalid="ignore", over="ignore"):
            r = t.astype(dtype)
            if rounding_mode == "rz" and t.dtype.kind == "f" and np.dtype(dtype).kind == "f":
                away = np.abs(r.astype(t.dtype)) > np.abs(t)
                r = np.where(away, np.nextafter(r, np.zeros_like(r)), r).astype(dtype)
        return r

    @staticmethod
    def bitcast(x, dtype):
        return np.ascontiguousarray(_arr(x)).view(dtype)

    # ---------------------------------------------------------------- element-wise
    @staticmethod
    def where(c, a, b):
        da = np.asarray(a).dtype if isinstance(a, np.ndarray) else None
        db = np.asarray(b).dtype if isinstance(b, np.ndarray) else None
        dt = ct_promote(da, db) if da is not None and db is not None else da or db
        if dt is not None and dt.kind in "iub" and isinstance(b if da is not None else a, float):
            dt = np.dtype(np.float32)   # (a Python float beside an int tile: f32)
        return np.where(c, a, b).astype(dt) if dt is not None else np.where(c, a, b)

    @staticmethod
    def maximum(a, b, flush_to_zero=False, propagate_nan=False):
        return np.maximum(a, b) if propagate_nan else np.fmax(a, b)

    @staticmethod
    def minimum(a, b, flush_to_zero=False, propagate_nan=False):
        return np.minimum(a, b) if propagate_nan else np.fmin(a, b)

    @staticmethod
    def abs(x):
        return np.abs(x)

    @staticmethod
    def add(a, b, rounding_mode=None, flush_to_zero=False):
        return np.add(a, b)

    @staticmethod
    def sub(a, b, rounding_mode=None, flush_to_zero=False):
        return np.subtract(a, b)

    @staticmethod
    def mul(a, b, rounding_mode=None, flush_to_zero=False):
        return np.multiply(a, b)

    @staticmethod
    def truediv(a, b, rounding_mode=None, flush_to_zero=False):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.true_divide(a, b)

    @staticmethod
    def floordiv(a, b):
        return np.floor_divide(a, b)

    @staticmethod
    def mod(a, b):
        return np.mod(a, b)

    @staticmethod
    def pow(a, b):
        with np.errstate(all="ignore"):
            return np.power(a, b)

    @staticmethod
    def _math(f, x):
        with np.errstate(all="ignore"):
            return f(x)

    def exp(self, x, rounding_mode=None, flush_to_zero=False):
        return self._math(np.exp, x)

    def exp2(self, x, flush_to_zero=False):
        return self._math(np.exp2, x)

    def log(self, x, flush_to_zero=False):
        return self._math(np.log, x)

    def log2(self, x, flush_to_zero=False):
        return self._math(np.log2, x)

    def sqrt(self, x, rounding_mode=None, flush_to_zero=False):
        return self._math(np.sqrt, x)

    def rsqrt(self, x, flush_to_zero=False):
        x = _arr(x)
        return self._math(lambda v: (1 / np.sqrt(v)).astype(v.dtype), x)

    def tanh(self, x, rounding_mode=None, flush_to_zero=False):
        return self._math(np.tanh, x)

    def sin(self, x, flush_to_zero=False):
        return self._math(np.sin, x)

    def cos(self, x, flush_to_zero=False):
        return self._math(np.cos, x)

    @staticmethod
    def floor(x):
        return np.floor(x)

    @staticmethod
    def ceil(x):
        return np.ceil(x)

    # ---------------------------------------------------------------- reductions, scans, products
    @staticmethod
    def _reduce(f, x, axis, keepdims):
        x = _arr(x)
        return f(x, axis=axis, keepdims=keepdims)

    def sum(self, x, axis=None, keepdims=False, rounding_mode=None, flush_to_zero=False):
        x = _arr(x)
        return np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)

    def prod(self, x, axis=None, keepdims=False, rounding_mode=None, flush_to_zero=False):
        x = _arr(x)
        return np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)

    def max(self, x, axis=None, keepdims=False, flush_to_zero=False, propagate_nan=False):
        return self._reduce(np.max if propagate_nan else np.nanmax, x, axis, keepdims)

    def min(self, x, axis=None, keepdims=False, flush_to_zero=False, propagate_nan=False):
        return self._reduce(np.min if propagate_nan else np.nanmin, x, axis, keepdims)

    @staticmethod
    def cumsum(x, axis=0, reverse=False, rounding_mode=None, flush_to_zero=False):
        x = _arr(x)
        y = np.flip(x, axis) if reverse else x
        out = np.cumsum(y, axis, dtype=x.dtype)
        return np.flip(out, axis) if reverse else out

    @staticmethod
    def cumprod(x, axis=0, reverse=False, rounding_mode=None, flush_to_zero=False):
        x = _arr(x)
        y = np.flip(x, axis) if reverse else x
        out = np.cumprod(y, axis, dtype=x.dtype)
        return np.flip(out, axis) if reverse else out

    @staticmethod
    def mma(a, b, acc, use_fast_acc=False):
        acc = _arr(acc)
        return (np.asarray(a, acc.dtype) @ np.asarray(b, acc.dtype) + acc).astype(acc.dtype)

    @staticmethod
    def matmul(a, b):
        return _arr(a) @ _arr(b)

    # ---------------------------------------------------------------- memory
    @staticmethod
    def _region(arr, index, shape):
        src, dst = [], []
        for i, s, n in zip(index, shape, arr.shape):
            lo, hi = i * s, min(i * s + s, n)
            src.append(slice(max(lo, 0), max(hi, 0)))
            dst.append(slice(max(-lo, 0), max(hi - lo, 0)))
        return tuple(src), tuple(dst)

    def load(self, arr, index, shape, padding_mode=0.0, order=None, **_):
        if order is not None and tuple(order) != tuple(range(len(shape))):
            raise ModelGap("ct.load with an order")
        index = index if isinstance(index, tuple) else (index,)
        out = np.full(shape, padding_mode, dtype=arr.dtype)
        src, dst = self._region(arr, index, shape)
        out[dst] = arr[src]
        return out

    def store(self, arr, index, tile, order=None, **_):
        index = index if isinstance(index, tuple) else (index,)
        tile = np.asarray(tile, dtype=arr.dtype)
        if tile.ndim == 0:
            tile = tile.reshape((1,) * arr.ndim)
        src, dst = self._region(arr, index, tile.shape)
        arr[src] = tile[dst]

    @staticmethod
    def _lanes(arr, indices, mask):
        idx = indices if isinstance(indices, tuple) else (indices,)
        idx = np.broadcast_arrays(*[np.asarray(i, dtype=np.int64) for i in idx])
        ok = np.ones(idx[0].shape, bool)
        for i, n in zip(idx, arr.shape):
            ok &= (i >= 0) & (i < n)
        if mask is not None:
            ok &= np.broadcast_to(mask, ok.shape)
        return idx, ok

    def gather(self, arr, indices, mask=None, padding_value=0, check_bounds=True, **_):
        idx, ok = self._lanes(arr, indices, mask)
        out = np.full(ok.shape, padding_value, dtype=arr.dtype)
        out[ok] = arr[tuple(i[ok] for i in idx)]
        return out

    def scatter(self, arr, indices, value, mask=None, **_):
        idx, ok = self._lanes(arr, indices, mask)
        arr[tuple(i[ok] for i in idx)] = np.broadcast_to(np.asarray(value, dtype=arr.dtype), ok.shape)[ok]

    def _atomic(self, arr, index, value, f, mask=None):
        idx, ok = self._lanes(arr, index, mask)
        val = np.broadcast_to(np.asarray(value, arr.dtype), ok.shape)
        old = np.zeros(ok.shape, arr.dtype)
        for lane in np.ndindex(ok.shape):
            if not ok[lane]:
                continue
            at = tuple(i[lane] for i in idx)
            old[lane] = arr[at]
            arr[at] = f(arr[at], val[lane])
        return old

    def atomic_add(self, arr, index, update, mask=None, **_):
        return self._atomic(arr, index, update, lambda a, b: a + b, mask)

    def atomic_max(self, arr, index, update, mask=None, **_):
        return self._atomic(arr, index, update, max, mask)

    def atomic_min(self, arr, index, update, mask=None, **_):
        return self._atomic(arr, index, update, min, mask)

    def atomic_and(self, arr, index, update, mask=None, **_):
        return self._atomic(arr, index, update, lambda a, b: a & b, mask)

    def atomic_or(self, arr, index, update, mask=None, **_):
        return self._atomic(arr, index, update, lambda a, b: a | b, mask)

    def atomic_xor(self, arr, index, update, mask=None, **_):
        return self._atomic(arr, index, update, lambda a, b: a ^ b, mask)

    def atomic_xchg(self, arr, index, update, mask=None, **_):
        return self._atomic(arr, index, update, lambda a, b: b, mask)

    def atomic_cas(self, arr, index, expected, desired, mask=None, **_):
        idx, ok = self._lanes(arr, index, mask)
        exp = np.broadcast_to(np.asarray(expected, arr.dtype), ok.shape)
        des = np.broadcast_to(np.asarray(desired, arr.dtype), ok.shape)
        old = np.array(exp, copy=True)
        for lane in np.ndindex(ok.shape):
            if not ok[lane]:
                continue
            at = tuple(i[lane] for i in idx)
            old[lane] = arr[at]
            if np.asarray(arr[at]).tobytes() == np.asarray(exp[lane]).tobytes():
                arr[at] = des[lane]
        return old


def _wrap_results(cls):
    """Every ct operation of ``cls`` returns tiles (``Tile``)."""
    import functools
    import inspect

    for name, f in list(vars(cls).items()):
        if name.startswith("_") or name in ("kernel",) or isinstance(f, type):
            continue
        raw = f.__func__ if isinstance(f, staticmethod) else f
        if not inspect.isfunction(raw):
            continue

        def make(raw, static):
            @functools.wraps(raw)
            def w(*a, **k):
                return _tile(raw(*a, **k))
            return staticmethod(w) if static else w
        setattr(cls, name, make(raw, isinstance(f, staticmethod)))
    return cls


_wrap_results(CtModel)


def run_lowered(lowered_dir: Path, jit: Any, grid: Any, args: tuple, kwargs: dict, model: type = CtModel) -> None:
    """The launch the lowered kernel in ``lowered_dir`` makes, executed by ``model`` on views of ``args`` (numpy
    arrays, updated in place), built as a port's launch builds them (`PortedKernel.lowered_args`)."""
    from ...runtime.triton_port import ported
    from .capture import grid_of

    pk = ported(jit, lowered_dir)
    bound = pk.bind(args, kwargs)
    g = tuple(grid_of(grid, bound)) + (1, 1)
    views = pk.lowered_args(bound)
    ct = model(g[:3])
    src = (Path(lowered_dir) / "lowered.py").read_text().replace("import cuda.tile as ct", "")
    scope: dict = {"ct": ct}
    exec(compile(src, str(Path(lowered_dir) / "lowered.py"), "exec"), scope)
    fn = scope[pk.name]
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for z in range(g[2]):
            for y in range(g[1]):
                for x in range(g[0]):
                    ct.pid = (x, y, z)
                    fn(*views)
