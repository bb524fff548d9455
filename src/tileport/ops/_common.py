"""What the op wrappers share: shape arithmetic, input checks, output allocation, poisoning and random inputs.

No torch import at module level: ``import tileport.ops.<op>`` works on a machine without torch (the CPU tests read
the op tables there); torch is imported where a tensor is touched.

Every op module has the same surface: the wrapper (named like the module), ``reference`` (float64 math),
``DTYPES``, ``PORT_SIGNATURES`` (every specialization the wrapper can launch), ``sample_inputs(case, dtype,
device)``, ``tolerance(dtype)``, ``bytes_moved(args, kwargs)`` and ``flops(args, kwargs)``.
"""
from __future__ import annotations

import functools
import itertools
from typing import Any, Iterable, Sequence

from . import _backend

#: torch dtype name → the short name of launch signatures (`tileport.spec.signature.DTYPES`).
SHORT = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "int32": "i32"}
FLOATS = ("float32", "float16", "bfloat16")
HALVES = ("float16", "bfloat16")
#: (BM, BN) of the gated element-wise ops (swiglu, geglu, silu_and_mul): tileiras loops over this tile in 8-element
#: steps (no spills) for every dtype. At (16, 256) it unrolled the whole tile for one 16-bit dtype (swiglu and
#: silu_and_mul bf16, geglu f16), which spilled under occupancy 8's 64-register cap and ran at 56-69% of copy
#: bandwidth against 85-95% (benchmarks/probes/spill_check.py, benchmarks/results/h200/tuning/spills.json and the README there)
GATED_TILE = (32, 256)

#: Array indices are int32 (signatures without ``@i64``): no element may sit at an offset of 2^31 or more.
MAX_OFFSET = 2**31 - 1
#: Row kernels keep a whole row in one tile of BLOCK elements; BLOCK is the smallest bucket that holds the row.
ROW_BLOCKS = (1024, 2048, 4096, 8192, 16384)

#: Cases of ``sample_inputs``: small and ragged (tile sizes do not divide the shape) for tests, mid and large
#: (LLM-sized, below ~2 GB in all) for the benchmark; the GPU tests run mid as well.
CASES = ("small", "ragged", "mid", "large")
#: Elementwise ops see one flat vector; these shapes are flattened.
FLAT_SHAPES = {"small": (64, 1024), "ragged": (1000003,), "mid": (1024, 4096), "large": (8192, 4096)}
#: Row-wise and 2-D tiled ops: (rows, columns) — tokens x hidden.
ROW_SHAPES = {"small": (64, 1024), "ragged": (37, 5000), "mid": (1024, 4096), "large": (8192, 4096)}
#: Matrix products: (M, K, N).
GEMM_SHAPES = {"small": (256, 256, 256), "ragged": (37, 1000, 300), "mid": (1024, 1024, 1024),
               "large": (4096, 4096, 4096)}

#: (rtol, atol) when the only errors are f32 arithmetic and rounding the result to the output dtype.
ROUNDED = {"float32": (1e-5, 1e-6), "float16": (2e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5)}


# ---------------------------------------------------------------- arithmetic

def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def next_pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def bucket(n: int, choices: Sequence[int], what: str) -> int:
    """The smallest of ``choices`` (ascending) that is >= n; ValueError naming ``what`` when none is."""
    for c in choices:
        if n <= c:
            return c
    raise ValueError(f"{what} is {n}, more than the largest supported ({choices[-1]})")


def signatures(template: str, **choices: Iterable[Any]) -> list[str]:
    """``template`` (str.format fields) expanded over the product of ``choices``; ``dtype`` values are torch dtype
    names, written as the signature's short names."""
    keys = list(choices)
    out = []
    for values in itertools.product(*(tuple(choices[k]) for k in keys)):
        fields = dict(zip(keys, values))
        if "dtype" in fields:
            fields["dtype"] = SHORT[fields["dtype"]]
        out.append(template.format(**fields))
    return out


#: The LLM inference sweep (`tileport bench --cases llm`): tokens x hidden, as "TxH" cases of the row-shaped ops
LLM_TOKENS = (1, 16, 128, 1024, 4096, 16384)
LLM_HIDDEN = (2048, 4096, 8192)
LLM_CASES = tuple(f"{t}x{h}" for h in LLM_HIDDEN for t in LLM_TOKENS)


def token_case(case: str) -> tuple[int, int] | None:
    """(tokens, hidden) of a "TxH" case (e.g. "16384x8192"), else None."""
    t, sep, h = case.partition("x")
    return (int(t), int(h)) if sep and t.isdigit() and h.isdigit() and int(t) > 0 and int(h) > 0 else None


def shape(table: dict, case: str) -> tuple[int, ...]:
    """The shape of ``case`` in ``table``; a "TxH" case gives (T, H) for the row-shaped tables (ROW_SHAPES,
    FLAT_SHAPES: a flat op then sees T*H elements)."""
    tokens = token_case(case)
    if tokens is not None:
        if table is ROW_SHAPES or table is FLAT_SHAPES:
            return tokens
        raise ValueError(f"case {case!r} (tokens x hidden) applies to row-shaped and element-wise ops only")
    try:
        return table[case]
    except KeyError:
        raise ValueError(f"unknown case {case!r}: choose one of {', '.join(CASES)} or TOKENSxHIDDEN") from None


def tolerance_of(table: dict, dtype: str) -> tuple[float, float]:
    try:
        return table[dtype]
    except KeyError:
        raise ValueError(f"no tolerance for dtype {dtype!r}: supported are {', '.join(table)}") from None


# ---------------------------------------------------------------- input checks and layouts

def dtype_name(t: Any) -> str:
    return str(t.dtype).removeprefix("torch.")


def check(name: str, t: Any, dtypes: Sequence[str], *, ndim: int | None = None, min_ndim: int = 1,
          like: Any = None) -> Any:
    """``t`` must be a CUDA tensor of a supported dtype and rank (and, given ``like``, of its device and dtype).
    Every launch pays for this: the common path reads few tensor attributes (each costs a dispatch)."""
    import torch

    if not isinstance(t, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, not {type(t).__name__}")
    if not t.is_cuda:
        raise ValueError(f"{name} is on {t.device}: the kernels run on CUDA tensors only")
    if dtype_name(t) not in dtypes:
        raise ValueError(f"{name} has dtype {dtype_name(t)}; supported: {', '.join(dtypes)}")
    rank = t.dim()
    if ndim is not None and rank != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), it has {rank} (shape {tuple(t.shape)})")
    if rank < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), it has {rank}")
    if like is not None:
        if t.dtype != like.dtype:
            raise ValueError(f"{name} has dtype {dtype_name(t)}, the first input {dtype_name(like)}: they must match")
        if t.get_device() != like.get_device():
            raise ValueError(f"{name} is on {t.device}, the first input on {like.device}")
    if t.numel() > MAX_OFFSET or not t.is_contiguous():   # a contiguous tensor spans numel elements
        last = sum((n - 1) * abs(s) for n, s in zip(t.shape, t.stride()) if n > 0)
        if last > MAX_OFFSET:
            raise ValueError(f"{name} spans {last + 1} elements: more than the kernels' 32-bit indices address")
    return t


def same_shape(name: str, t: Any, other_name: str, other: Any) -> None:
    if t.shape != other.shape:
        raise ValueError(f"{name} has shape {tuple(t.shape)}, {other_name} has {tuple(other.shape)}: they must match")


def flat(name: str, t: Any) -> Any:
    """The rank-1 view a 1-D kernel reads (``[?]/1``): ``t`` must be contiguous."""
    if not t.is_contiguous():
        raise ValueError(f"{name} must be contiguous (strides {tuple(t.stride())}): the kernel reads it as one "
                         "flat vector; pass t.contiguous()")
    return t if t.dim() == 1 else t.view(-1)


def unit_last_stride(name: str, t: Any) -> Any:
    """``t`` itself, once its last dimension is checked to have stride 1 (what every ``/..,1`` signature takes)."""
    if t.stride(-1) != 1:
        raise ValueError(f"{name}'s last dimension must have stride 1 (strides {tuple(t.stride())}); "
                         f"pass {name}.contiguous()")
    return t


def rows(name: str, t: Any) -> Any:
    """The rank-2 view ``[rows, last dim]`` (``[?,?]/?,1``) of ``t``: its last dimension must have stride 1 and its
    leading dimensions must collapse without a copy."""
    unit_last_stride(name, t)
    if t.dim() == 2:
        return t
    try:
        return t.view(-1, t.shape[-1])
    except RuntimeError:
        raise ValueError(f"{name}'s leading dimensions cannot be flattened without a copy (shape "
                         f"{tuple(t.shape)}, strides {tuple(t.stride())}); pass t.contiguous()") from None


def strided_rows(name: str, t: Any, row: int) -> tuple[Any, int, int]:
    """A rank-3 ``t`` [a, b, row] whose last dimension has stride 1 and whose other strides are multiples of ``row``,
    as (the flat view of the elements it spans, from its first: ``[?]/1``, its dimension-0 and dimension-1 strides
    in rows of ``row``) — for kernels that gather it at offsets (i * s0 + j * s1) * row + k. Every offset stays
    below 2^31 (the kernels' i32 offsets)."""
    a, b, n = t.shape
    s0, s1, s2 = (st if size > 1 else 0 for st, size in zip(t.stride(), t.shape))
    if n > 1 and s2 != 1:
        raise ValueError(f"{name}'s last dimension must have stride 1 (strides {tuple(t.stride())}); "
                         f"pass {name}.contiguous()")
    if s0 % row or s1 % row:
        raise ValueError(f"{name} has strides {tuple(t.stride())}: the kernel takes strides that are multiples of "
                         f"{row} (whole rows of {row} elements); pass {name}.contiguous()")
    span = (a - 1) * s0 + (b - 1) * s1 + n if t.numel() else 0
    if span >= 2 ** 31:
        raise ValueError(f"{name} spans {span} elements: the kernel's offsets are 32-bit (at most 2^31 - 1)")
    return t.as_strided((span,), (1,), t.storage_offset()), s0 // row, s1 // row


def view(name: str, t: Any, shape: Sequence[int]) -> Any:
    """``t`` viewed as ``shape`` (its last dimension must have stride 1): no copy, else ValueError."""
    unit_last_stride(name, t)
    try:
        return t.view(shape)
    except RuntimeError:
        raise ValueError(f"{name} ({tuple(t.shape)}, strides {tuple(t.stride())}) cannot be viewed as {tuple(shape)} "
                         f"without a copy; pass {name}.contiguous()") from None


def qkv_shapes(q: Any, k: Any, v: Any, dtypes: Sequence[str], head_dims: Sequence[int]) -> tuple[int, ...]:
    """(B, H, Hkv, Sq, Sk, D) of attention inputs q [B, H, Sq, D] and k, v [B, Hkv, Sk, D] (Hkv dividing H),
    checked."""
    check("q", q, dtypes, ndim=4)
    check("k", k, dtypes, ndim=4, like=q)
    check("v", v, dtypes, ndim=4, like=q)
    b, h, sq, d = q.shape
    hkv, sk = k.shape[1], k.shape[2]
    if d not in head_dims:
        raise ValueError(f"head dim {d}: the kernel takes {', '.join(map(str, head_dims))}")
    if k.shape[0] != b or k.shape[3] != d or v.shape != k.shape or hkv < 1 or h % hkv:
        raise ValueError(f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}: k and v must be "
                         f"[{b}, Hkv, Sk, {d}] with Hkv dividing {h}")
    return b, h, hkv, sq, sk, d


def row_block(n: int) -> int:
    """BLOCK for a row kernel holding a whole row of n elements in one tile."""
    return bucket(max(n, 1), ROW_BLOCKS, "the row length (last dimension)")


#: Rows per block (BM) of the row kernels for each BLOCK, measured on the H200 with `benchmarks/probes/tune_rows.py` together
#: with the kernels' occupancy hint (benchmarks/results/h200/tune_rows_occ.json: 8192 rows of 1024 and 4096, BM in
#: 1..16, occupancy 1, 2, 4): at occupancy 4, 8 rows of 1024 and 2 rows of 4096 per block are best or within 3% of
#: it for all three kernels in f32 and bf16 (the earlier choice without the hint, 16 and 8, ran 1.1-1.9x slower).
#: 2048- and 8192-wide rows keep the 8192 elements per block of those two (4 rows, 1 row); with only the 1024, 4096
#: and 16384 buckets, hidden sizes 2048 and 8192 ran half-masked tiles at 21-50% of copy bandwidth
#: (benchmarks/results/h200/earlier/llm-sweep-before-row-widths); with them, 16384 tokens x 8192 run at 75-93% and
#: x 2048 at 62-80% (benchmarks/results/h200/llm-rows). The 16384-wide rows keep one row per block.
ROWS_PER_BLOCK = {1024: 8, 2048: 4, 4096: 2, 8192: 1, 16384: 1}


def rows_per_block(block: int, dtype: str, overrides: dict | None = None) -> int:
    """BM for a row kernel with this BLOCK and dtype: ROWS_PER_BLOCK unless the op measured otherwise."""
    return (overrides or {}).get((dtype, block), ROWS_PER_BLOCK[block])


def row_signatures(template: str, dtypes: Sequence[str], overrides: dict | None = None) -> list[str]:
    """A row kernel's specializations: per dtype, each BLOCK with its BM (``template`` has {dtype}, {bm} and
    {block} fields)."""
    return [template.format(dtype=SHORT[d], bm=rows_per_block(b, d, overrides), block=b)
            for d in dtypes for b in ROW_BLOCKS]


def row_grid(m: int, n: int, bm: int) -> tuple[int, int, int]:
    """The grid of a row kernel over m rows of n: one block per BM rows (none for empty rows)."""
    return (cdiv(m, bm) if n else 0, 1, 1)


def vector(name: str, t: Any, n: int, like: Any) -> Any:
    """A per-column parameter (weight, bias): rank 1, n elements, contiguous, like ``like``."""
    check(name, t, (dtype_name(like),), ndim=1, like=like)
    if t.shape[0] != n:
        raise ValueError(f"{name} has {t.shape[0]} elements, the rows have {n}")
    return flat(name, t)


def output(out: Any, shape: Sequence[int], like: Any, dtype: Any = None) -> Any:
    """``out`` checked against the result's shape, dtype (default: ``like``'s) and device — or a fresh one."""
    import torch

    dtype = like.dtype if dtype is None else dtype
    shape = tuple(int(n) for n in shape)
    if out is None:
        return torch.empty(shape, dtype=dtype, device=like.device)
    if not isinstance(out, torch.Tensor):
        raise ValueError(f"out must be a torch.Tensor, not {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"out has shape {tuple(out.shape)}, the result is {shape}")
    if out.dtype != dtype:
        raise ValueError(f"out has dtype {dtype_name(out)}, the result is {str(dtype).removeprefix('torch.')}")
    if out.get_device() != like.get_device():
        raise ValueError(f"out is on {out.device}, the inputs on {like.device}")
    if not out.is_contiguous():
        raise ValueError(f"out must be contiguous (strides {tuple(out.stride())})")
    return out


def int32_scalar(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int, not {type(value).__name__}")
    if not -2**31 <= value < 2**31:
        raise ValueError(f"{name}={value} does not fit the kernel's int32")
    return value


@functools.lru_cache(maxsize=None)
def _sm_count(index: int) -> int:
    import torch

    return torch.cuda.get_device_properties(index).multi_processor_count


def num_sms(device: Any) -> int:
    import torch

    return _sm_count(device.index if device.index is not None else torch.cuda.current_device())


def launch(grid: tuple[int, int, int], kernel: Any, args: tuple, backend: str | None) -> None:
    """`tileport.ops.launch`, except that an empty grid (an empty tensor) launches nothing — after the backend
    name has been checked, so a wrong name fails the same way for every input."""
    if min(grid) <= 0:
        _backend.current_backend(backend)
        return
    _backend.launch(grid, kernel, args, backend=backend)


# ---------------------------------------------------------------- shared wrapper bodies

def flat_operands(inputs: dict[str, Any], dtypes: Sequence[str], out: Any) -> tuple[list[Any], Any]:
    """(flat views of ``inputs``, the result) for an element-wise op: the inputs are checked to be contiguous CUDA
    tensors of one shape and dtype; the result (``out`` checked, or fresh) has their shape."""
    first_name, first = next(iter(inputs.items()))
    for name, t in inputs.items():
        check(name, t, dtypes, min_ndim=0, like=None if t is first else first)
        same_shape(name, t, first_name, first)
    return [flat(name, t) for name, t in inputs.items()], output(out, first.shape, first)


def elementwise(kernel: Any, inputs: dict[str, Any], extra: tuple, dtypes: Sequence[str], *, tile: int,
                backend: str | None, out: Any, max_blocks: int | None = None) -> Any:
    """Ops of the form ``kernel(*inputs, y, *extra)`` over flat vectors of one shape and dtype, one TILE-long tile
    per block (grid = cdiv(n, tile), capped at ``max_blocks`` for persistent kernels). Any shape is accepted
    (contiguous); the result has the inputs' shape."""
    views, y = flat_operands(inputs, dtypes, out)
    blocks = cdiv(y.numel(), tile)
    if max_blocks is not None:
        blocks = min(blocks, max_blocks)
    launch((blocks, 1, 1), kernel, (*views, flat("out", y), *extra), backend)
    return y


def gated(kernel: Any, gate: Any, up: Any, dtypes: Sequence[str], *, bm: int, bn: int, backend: str | None,
          out: Any) -> Any:
    """``kernel(gate, up, y, BM, BN)`` on [rows, d] views (leading dimensions flattened), (BM, BN) tiles."""
    check("gate", gate, dtypes)
    check("up", up, dtypes, like=gate)
    same_shape("up", up, "gate", gate)
    g, u = rows("gate", gate), rows("up", up)
    y = output(out, gate.shape, gate)
    m, n = g.shape
    launch((cdiv(m, bm), cdiv(n, bn), 1), kernel, (g, u, y.view(m, n), bm, bn), backend)
    return y


def gemm(kernel: Any, a: Any, b: Any, dtypes: Sequence[str], *, tiles: tuple[int, int, int], b_is_nk: bool,
         extra: tuple = (),
         backend: str | None, out: Any, names: tuple[str, str] = ("a", "b")) -> Any:
    """C[M, N] = A[M, K] @ B (B is [K, N], or [N, K] when ``b_is_nk``) with (BM, BN, BK) tiles; A's leading
    dimensions are flattened when ``b_is_nk`` (nn.Linear style), else A must be rank 2."""
    na, nb = names
    check(na, a, dtypes, ndim=None if b_is_nk else 2, min_ndim=2)
    check(nb, b, dtypes, ndim=2, like=a)
    a2, b2 = rows(na, a), rows(nb, b)
    m, k = a2.shape
    n, kb = (b2.shape if b_is_nk else (b2.shape[1], b2.shape[0]))
    if k != kb:
        raise ValueError(f"{na} has {k} columns but {nb} has {kb} {'columns' if b_is_nk else 'rows'} "
                         f"(shapes {tuple(a.shape)} and {tuple(b.shape)})")
    c = output(out, (*a.shape[:-1], n), a)
    bm, bn, bk = tiles
    launch((cdiv(m, bm), cdiv(n, bn), 1), kernel, (a2, b2, c.view(m, n), bm, bn, bk, *extra), backend)
    return c


# ---------------------------------------------------------------- test and benchmark helpers

def randn(shape: Sequence[int], dtype: str, device: str, scale: float = 1.0) -> Any:
    """Fresh standard-normal values (never a constant fill) times ``scale``, in ``dtype``."""
    import torch

    t = torch.randn(tuple(shape), dtype=torch.float32, device=device)
    if scale != 1.0:
        t.mul_(scale)
    return t.to(getattr(torch, dtype))


def poisoned(shape: Sequence[int], dtype: Any, device: Any) -> Any:
    """An output buffer every element of which fails a comparison until written: NaN for floats, the most
    negative value for integers."""
    import torch

    dtype = getattr(torch, dtype) if isinstance(dtype, str) else dtype
    t = torch.empty(tuple(shape), dtype=dtype, device=device)
    return t.fill_(float("nan") if dtype.is_floating_point else torch.iinfo(dtype).min)


def nbytes(*tensors: Any) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


def f64(*tensors: Any) -> Any:
    """The tensors in float64 (one tensor → that tensor)."""
    import torch

    out = tuple(t.to(torch.float64) for t in tensors)
    return out[0] if len(out) == 1 else out


def result_dtype(mod: Any, args: tuple, kwargs: dict) -> Any:
    """The dtype of an op's result for these sample inputs: its first input's, unless the op module defines
    ``result_dtype(args, kwargs)`` (an op whose output dtype is an argument)."""
    return mod.result_dtype(args, kwargs) if hasattr(mod, "result_dtype") else args[0].dtype


def no_flops(args: tuple, kwargs: dict) -> int:
    """``flops`` of the ops whose arithmetic is not the point (memory-bound): 0."""
    return 0


def gemm_inputs(case: str, dtype: str, device: str, *, b_is_nk: bool) -> tuple:
    """(A [M, K], B) for a matrix-product case: B is [K, N] (or [N, K]) scaled by 1/sqrt(K), so results are O(1)
    whatever K is and one tolerance fits every shape."""
    m, k, n = shape(GEMM_SHAPES, case)
    return randn((m, k), dtype, device), randn((n, k) if b_is_nk else (k, n), dtype, device, scale=k ** -0.5)


def gemm_flops(args: tuple, kwargs: dict) -> int:
    """2 M N K for (A [.., K], B) with A's leading dimensions flattened into M; B is [K, N] or [N, K] — both have
    N*K elements, so N = B.numel() / K."""
    a, b = args[:2]
    k = a.shape[-1]
    return 2 * (a.numel() // max(k, 1)) * b.numel()


def gemm_bytes(args: tuple, kwargs: dict) -> int:
    a, b = args[:2]
    k = a.shape[-1]
    return nbytes(a, b) + (a.numel() // max(k, 1)) * (b.numel() // max(k, 1)) * a.element_size()
