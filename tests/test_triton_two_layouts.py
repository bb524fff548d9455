"""One pointer read through a strided tile view and at computed element offsets (gathers / scatters): the lowered
cuTile Python must address the elements Triton does. Each launch of tests/fixtures/triton_idioms_two_layouts.py is
run three ways on the CPU and every array compared exactly:

- the lowered cuTile Python, executed on numpy by a small model of the ct operations it uses (`CtNumpy`: tile
  loads/stores bounded by the view, gathers/scatters per lane with the view's bounds, Python's floor `//` and `%`);
- a numpy model of each Triton kernel, written from its source (flat addresses into the argument's storage);
- Triton's own interpreter (TRITON_INTERPRET=1), which needs torch: run in a separate Python that has torch and
  triton (TILEPORT_TORCH_PYTHON: a Python with torch and triton); skipped when there is none.

Before the fix, a gather `x + src * stride + cols` through the view `(stride, 1)` read row 0 at column
`src * stride + cols` (bounded by the column extent): padding or other elements."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tileport.frontends.triton.ct_numpy import CtModel
from tileport.frontends.triton.fuzz import torch_python
from tileport.frontends.triton.lower import lower
from tileport.frontends.triton.source import find_kernel

FIXTURE = Path(__file__).parent / "fixtures" / "triton_idioms_two_layouts.py"


def _module():
    spec = importlib.util.spec_from_file_location("triton_two_layouts_cpu", FIXTURE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


class CtNumpy(CtModel):
    """The ct operations the lowered kernels of the fixtures use, on numpy arrays (one program at a time): the one
    numpy model of tileport/frontends/triton/ct_numpy.py (the rounds' subclasses add what their kernels call)."""


def captured_launches(fixture: Path) -> list[dict]:
    """The launches the fixture module's own `__main__` makes, captured on numpy."""
    from tileport.frontends.cutile_py.capture import run_captured

    return list(run_captured(fixture, []).launches.values())


def proven_fixture_kernels(root: Path, *groups: tuple[Path, tuple[str, ...]]) -> list[tuple[str, dict]]:
    """Each named kernel of each fixture module ported (sm_90) from the launches its module's own `__main__` makes,
    into ``root/NAME``, in one cargo build, and checked proven: (name, verdict) in order (a round test's
    `test_roundNN_kernels_port_and_prove`)."""
    from tileport.pipeline.triton import port_triton_many
    from tileport.toolchain.locate import find_cuda_tree

    jobs, names = [], []
    for fixture, kernels in groups:
        launches = captured_launches(fixture)
        for n in kernels:
            jobs.append((f"{fixture}::{n}", [], [l for l in launches if l["kernel"].endswith(f"::{n}")], root / n))
            names.append(n)
    verdicts = list(zip(names, port_triton_many(jobs, find_cuda_tree(), "sm_90", root / "_work")))
    for name, v in verdicts:
        assert v["status"] == "proven", (name, str(v)[:1500])
    return verdicts


def lowered_fixture(fixture: Path, names, tag: str):
    """A round test's module-scoped `lowered` fixture: ``lower_kernels`` of its fixture module into a fresh folder."""
    @pytest.fixture(scope="module")
    def lowered(tmp_path_factory):
        return lower_kernels(fixture, names, tmp_path_factory.mktemp(tag))
    return lowered


def lower_kernels(fixture: Path, names, root: Path) -> Path:
    """Each kernel of ``names`` in the fixture module lowered from the launches its own `__main__` makes (captured
    on numpy), into ``root/NAME/lowered.py``."""
    from tileport.pipeline.triton import lower_from_launches

    launches = captured_launches(fixture)
    for name in names:
        mine = [launch for launch in launches if launch["kernel"].endswith(f"::{name}")]
        lower_from_launches(f"{fixture}::{name}", mine).write(root / name / "lowered.py")
    return root


def against_triton(fixture: Path, module, tmp_path: Path, cases: str, interpreted: tuple[str, ...], run):
    """(kernel, argument index, Triton interpreter's array, the lowered kernel's array) for each array argument of
    each case of ``module.<cases>()`` (the fixture file's module) whose kernel is in ``interpreted``; ``run(name,
    grid, args, kw)`` runs the lowered kernel on copies of the arguments and returns them."""
    want = tritons_outputs(fixture, tmp_path, cases, interpreted)
    for i, (name, grid, args, kw) in enumerate(getattr(module, cases)()):
        if name not in interpreted:
            continue
        for k, a in enumerate(run(name, grid, args, kw)):
            if isinstance(a, np.ndarray):
                yield name, k, want[f"{i}_{k}"], a


def run_copies(lowered_dir: Path, jit, grid, args, kwargs, stand_in=None) -> list:
    """``run_lowered`` on copies of ``args`` (numpy arrays copied), returned."""
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    run_lowered(lowered_dir, jit, grid, tuple(got), dict(kwargs), stand_in)
    return got


def run_lowered(lowered_dir: Path, jit, grid, args, kwargs, stand_in=None) -> None:
    """The launch made by the lowered kernel, executed by ``stand_in`` (default `CtNumpy`: a round's subclass adds
    what its kernels call) on views of ``args`` (built as a port's launch builds them: `PortedKernel.lowered_args`)."""
    from tileport.frontends.triton.capture import grid_of
    from tileport.runtime.triton_port import ported

    pk = ported(jit, lowered_dir)
    bound = pk.bind(args, kwargs)
    g = tuple(grid_of(grid, bound)) + (1, 1)
    views = pk.lowered_args(bound)
    stand_in = stand_in or CtNumpy
    ct = stand_in(g[:3]) if issubclass(stand_in, CtModel) else stand_in()   # (the model knows the grid)
    src = (lowered_dir / "lowered.py").read_text().replace("import cuda.tile as ct", "")
    scope: dict = {"ct": ct}
    exec(compile(src, str(lowered_dir / "lowered.py"), "exec"), scope)
    fn = scope[pk.name]
    for z in range(g[2]):
        for y in range(g[1]):
            for x in range(g[0]):
                ct.pid = (x, y, z)
                fn(*views)


# ------------------------------------------------ numpy models of the Triton kernels (flat addresses)

def model(name, grid, args, kw):
    """What the Triton kernel ``name`` does, on flat element addresses of each argument's storage."""
    def flat(a):
        return a.reshape(-1)   # every fixture argument is contiguous

    if name in ("rows_then_flat", "flat_then_rows"):
        x, stride, idx, out, g, n = args
        for row in range(grid[0]):
            cols = np.arange(kw["BLOCK"])
            m = cols < n
            xr = np.where(m, flat(x)[np.where(m, row * stride + cols, 0)], 0.0)
            gr = np.where(m, flat(x)[np.where(m, idx[row] * stride + cols, 0)], -1.0 if name == "rows_then_flat" else 0.0)
            flat(g)[row * n + cols[m]] = gr[m]
            flat(out)[row * n + cols[m]] = (xr * 2.0 if name == "rows_then_flat" else xr + gr)[m]
    elif name == "flat_elements":
        x, stride, e, out, n = args
        for row in range(grid[0]):
            cols = np.arange(kw["BLOCK"])[:n]
            flat(out)[row * n + cols] = flat(x)[row * stride + cols] * np.float32(10.0) + flat(x)[flat(e)[row * n + cols]]
    elif name == "picked_rows_2d":
        x, stride, idx, out, n_rows, n = args
        br = kw["BLOCK_R"]
        for pid in range(grid[0]):
            for r in range(pid * br, min(pid * br + br, n_rows)):
                cols = np.arange(n)
                flat(out)[r * n + cols] = flat(x)[r * stride + cols] * np.float32(100.0) + flat(x)[idx[r] * stride + cols]
    elif name == "label_and_neighbour":
        x, stride, lab, out, n = args
        for row in range(grid[0]):
            cols = np.arange(n)
            base = row * stride
            flat(out)[row * n + cols] = (flat(x)[base + cols] * np.float32(100.0) + flat(x)[base + lab[row]] *
                                         np.float32(10.0)) + flat(x)[base + lab[row] - 1]
    elif name == "scatter_rows":
        y, stride, dst, x, n = args
        for row in range(grid[0]):
            cols = np.arange(n)
            v = flat(x)[row * n + cols]
            flat(y)[row * stride + cols] = v
            flat(y)[dst[row] * stride + cols] = v * np.float32(3.0)
    elif name in ("row_ends", "row_ends_first"):
        x, stride, out, n = args
        for row in range(grid[0]):
            cols = np.arange(n)
            last, second = flat(x)[(row + 1) * stride - 1], flat(x)[row * stride + 1]
            flat(out)[row * n + cols] = flat(x)[row * stride + cols] * np.float32(100.0) + last * np.float32(10.0) + \
                second
            if name == "row_ends_first":
                flat(x)[(row + 1) * stride - 1] = last + second
    elif name == "shifted_window":
        x, stride, shifts, out, n = args
        for row in range(grid[0]):
            cols = np.arange(n)
            flat(out)[row * n + cols] = flat(x)[row * stride + cols] * np.float32(100.0) + \
                flat(x)[row * stride + cols + shifts[row]]
    else:
        raise AssertionError(name)


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    sys.path.insert(0, str(Path(__file__).parent / "gpu"))
    try:
        from triton_both import lower_fixture
    finally:
        sys.path.pop(0)
    return lower_fixture(FIXTURE, tmp_path_factory.mktemp("two-layouts"))


def test_gathers_through_a_row_view_split_offsets_into_row_and_column(lowered):
    """The offsets' rows are `o // stride` (added to the pointer's own row term), columns `o % stride`: never row 0
    at column `o` (the bug) nor the flat vector (one pointer, one view)."""
    src = {d.name: (d / "lowered.py").read_text() for d in lowered.iterdir()}
    assert "ct.gather(x_ptr, (offs // stride, offs % stride), mask=" in src["rows_then_flat"]
    assert "ct.gather(x_ptr, (e // stride, e % stride), mask=" in src["flat_elements"]
    assert "ct.gather(x_ptr, (row + lab // stride, lab % stride), mask=" in src["label_and_neighbour"]
    assert "ct.gather(x_ptr, (row + (lab + -1) // stride, (lab + -1) % stride), mask=" in src["label_and_neighbour"]
    # y scattered into and stored as a tile: every access of it a scatter at flat element offsets (round 15; the
    # translator orders one array's scatters by one token, its tile stores by the view's: coverage row store-other)
    assert "ct.scatter(y_ptr, row * stride + ct.arange(BLOCK, dtype=ct.int32), " in src["scatter_rows"]
    assert "ct.scatter(y_ptr, d * stride + ct.arange(BLOCK, dtype=ct.int32), " \
        in src["scatter_rows"]
    assert "ct.gather(x_ptr, (row + (ct.arange(BLOCK, dtype=ct.int32) + j) // stride, (ct.arange(BLOCK, " \
           "dtype=ct.int32) + j) % stride), mask=" in src["shifted_window"]
    for name in ("row_ends", "row_ends_first"):   # one element: row `r + o // stride`, column `o % stride`
        assert "ct.load(x_ptr, index=((row + 1) + (-1) // stride, (-1) % stride), shape=(1, 1))" in src[name]
        assert "ct.load(x_ptr, index=(((row * stride) + 1) // stride, ((row * stride) + 1) % stride), shape=(1, 1))" \
            in src[name]
    assert "ct.store(x_ptr, index=((row + 1) + (-1) // stride, (-1) % stride), " in src["row_ends_first"]
    for name, text in src.items():
        assert "ct.gather(x_ptr, (0, " not in text and "ct.scatter(y_ptr, (0, " not in text, name
        views = json.loads((lowered / name / "lowered.json").read_text())["views"]
        if name == "scatter_rows":
            assert [d["stride"] for d in views["y_ptr"]["dims"]] == ["1"], name
            continue
        assert [d["stride"] for d in views["x_ptr"]["dims"]] == ["stride", "1"], name


def test_lowered_two_layout_kernels_match_numpy_models(lowered):
    mod = _module()
    count = 0
    for name, grid, args, kw in mod.cases():
        expect = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        model(name, grid, expect, kw)
        got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        run_lowered(lowered / name, getattr(mod, name), grid, tuple(got), dict(kw))
        for k, (a, b) in enumerate(zip(expect, got)):
            if isinstance(a, np.ndarray):
                assert np.array_equal(a, b), f"{name}: argument {k} differs\n{a}\n{b}"
        count += 1
    assert count == 9


_torch_python = torch_python   # (a Python with torch and triton, TILEPORT_TORCH_PYTHON, or None)


INTERPRET = textwrap.dedent('''
    import importlib.util, os, sys
    os.environ["TRITON_INTERPRET"] = "1"
    import numpy as np, torch
    spec = importlib.util.spec_from_file_location("fx", sys.argv[1])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = {}
    only = sys.argv[4].split(",") if len(sys.argv) > 4 else None
    for i, (name, grid, args, kw) in enumerate(getattr(mod, sys.argv[3])()):
        if only is not None and name not in only:
            continue
        targs = [torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args]
        getattr(mod, name)[grid](*targs, **kw)
        for k, a in enumerate(targs):
            if torch.is_tensor(a):
                out[f"{i}_{k}"] = a.numpy()
    np.savez(sys.argv[2], **out)
''')


def tritons_outputs(fixture: Path, tmp_path: Path, cases: str = "cases", only: tuple[str, ...] | None = None):
    """Every array argument after Triton's interpreter ran each case of ``fixture``'s ``cases()`` (or only the
    kernels named in ``only``), keyed "CASE_ARG"; skips the test without a Python that has torch and triton."""
    py = _torch_python()
    if py is None:
        pytest.skip("no Python with torch and triton (TILEPORT_TORCH_PYTHON): Triton's interpreter needs torch")
    script = tmp_path / "interpret.py"
    script.write_text(INTERPRET)
    argv = [py, str(script), str(fixture), str(tmp_path / "triton.npz"), cases] + ([",".join(only)] if only else [])
    res = subprocess.run(argv, capture_output=True, text=True, timeout=900,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert res.returncode == 0, res.stderr[-3000:]
    return np.load(tmp_path / "triton.npz")


def test_lowered_two_layout_kernels_match_tritons_interpreter(lowered, tmp_path):
    """Triton itself (its CPU interpreter, on the same inputs) against the lowered kernel on numpy: every array
    equal, bit for bit."""
    want = tritons_outputs(FIXTURE, tmp_path)
    mod = _module()
    for i, (name, grid, args, kw) in enumerate(mod.cases()):
        got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        run_lowered(lowered / name, getattr(mod, name), grid, tuple(got), dict(kw))
        for k, a in enumerate(got):
            if isinstance(a, np.ndarray):
                assert np.array_equal(want[f"{i}_{k}"], a), f"{name}: argument {k} differs from Triton's"


def test_computed_offsets_through_a_view_of_more_strided_dimensions_gather_every_access(tmp_path):
    """A 3-D view (batch, row, column) and a gather at flat offsets: the dimensions' order is not known when
    lowering, so the offsets cannot be split over the view (never put on the column): every access of x a gather
    at its flat element offsets, Triton's addresses (round 15; it was refused at the gather)."""
    f = tmp_path / "k3.py"
    f.write_text(textwrap.dedent('''
        import triton
        import triton.language as tl


        @triton.jit
        def k3(x_ptr, sb, sr, e_ptr, out_ptr, n, BLOCK: tl.constexpr):
            b = tl.program_id(0)
            r = tl.program_id(1)
            cols = tl.arange(0, BLOCK)
            x = tl.load(x_ptr + b * sb + r * sr + cols, mask=cols < n, other=0.0)
            e = tl.load(e_ptr + cols, mask=cols < n, other=0)
            g = tl.load(x_ptr + e, mask=cols < n, other=0.0)
            tl.store(out_ptr + cols, x + g, mask=cols < n)
    '''))
    kinds = {"x_ptr": "array", "sb": "scalar", "sr": "scalar", "e_ptr": "array", "out_ptr": "array", "n": "scalar",
             "BLOCK": "constant"}
    src = lower(find_kernel(f, "k3"), kinds, {"sb": "int", "sr": "int", "n": "int"}).source
    assert "ct.gather(x_ptr, b * sb + r * sr + ct.arange(BLOCK, dtype=ct.int32), mask=" in src
    assert "ct.gather(x_ptr, e, mask=" in src and "ct.load(x_ptr" not in src
