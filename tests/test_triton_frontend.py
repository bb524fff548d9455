"""The Triton frontend on a CPU: reading @triton.jit kernels, capturing their launches, lowering them to cuTile
Python (every refusal with file:line:col), the array views a launch builds, and the bundled examples' ports."""
from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tileport.examples.triton import KERNELS, LOWERED_DIR
from tileport.frontends.cutile_py.capture import run_captured
from tileport.frontends.triton import bundled
from tileport.frontends.triton.lower import LoweringError, lower
from tileport.frontends.triton.source import TritonSourceError, find_kernel, is_triton_file
from tileport.frontends.triton.views import Dim, View, ViewError, view_layout

HOST = LOWERED_DIR.parent / "host.py"


@pytest.fixture(scope="module")
def captured():
    rec = run_captured(HOST, ["100x300"])
    assert not rec.errors
    return list(rec.launches.values())


def test_committed_lowered_forms_are_current():
    assert bundled.stale() == [], "run `python -m tileport.frontends.triton.bundled` and commit the result"


def test_capture_records_triton_launches(captured):
    by_kernel = {l["kernel"].rpartition("::")[2] for l in captured}
    assert by_kernel == set(KERNELS.values())
    mm = next(l for l in captured if l["kernel"].endswith("::triton_matmul"))
    assert mm["frontend"] == "triton" and mm["grid"] == [1, 2, 1]  # cdiv(100, 128), cdiv(256, 128)
    assert mm["options"] == {"num_warps": 8, "num_stages": 3}
    args = {a["name"]: a for a in mm["args"]}
    assert args["a_ptr"] == {"name": "a_ptr", "kind": "array", "dtype": "f16", "shape": [100, 300],
                             "strides": [300, 1], "data_ptr_mod_16": args["a_ptr"]["data_ptr_mod_16"]}
    assert args["K"] == {"name": "K", "kind": "scalar", "dtype": "i32", "value": 300}
    assert args["BLOCK_K"] == {"name": "BLOCK_K", "kind": "constant", "value": 64}


def test_find_kernel_reads_the_ast_only(tmp_path):
    f = tmp_path / "k.py"
    f.write_text("import triton\nimport triton.language as tl\nraise SystemExit('never imported')\n\n"
                 "@triton.jit\ndef k(x_ptr, n, B: tl.constexpr):\n    pass\n\ndef plain():\n    pass\n")
    k = find_kernel(f, "k")
    assert k.params == ["x_ptr", "n", "B"] and k.constexprs == ["B"] and k.line == 6
    assert is_triton_file(f, "k") and not is_triton_file(f, "plain")
    with pytest.raises(TritonSourceError, match="no @triton.jit function 'plain'.*kernels in this file: k"):
        find_kernel(f, "plain")


ELEMENTWISE = '''
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, B: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * B + tl.arange(0, B)
    {body}
'''
KINDS = {"x_ptr": "array", "y_ptr": "array", "n": "scalar", "B": "constant"}


def _lower(tmp_path, body, kinds=KINDS):
    f = tmp_path / "k.py"
    f.write_text(ELEMENTWISE.replace("{body}", textwrap.indent(textwrap.dedent(body), "    ").strip()))
    return lower(find_kernel(f, "k"), kinds, {})


@pytest.mark.parametrize("body, line, col, why", [
    ("x = tl.load(x_ptr + offs, mask=offs < n, other=1.5)\ntl.store(y_ptr + offs, x)", 10, 52, "other=1.5"),
    ("x = tl.load(x_ptr + offs.to(tl.float32), mask=offs < n)", 10, 17, "cannot add a Tile to a pointer"),
    ("x = tl.load(x_ptr + offs, mask=offs > n)", 10, 9, "the mask must be"),
    ("x = tl.rand(n, offs)", 10, 9, "tl.rand is not lowered"),
    ("while n:\n    pass", 10, 5, "While statements"),
    ("p = x_ptr + offs\nfor i in range(4):\n    p += B\n", 12, 9, "p is a pointer, index or mask updated inside a loop"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x)\ntl.store(x_ptr + pid * n + offs, x)", 12, 5,
     "one pointer must be read through one layout"),
    ("x = helper(offs)", 10, 9, "call `helper` is not supported"),
    ("for i in range(0, n, 2):\n    x = tl.load(x_ptr + offs)", 10, 14, "step other than 1"),
])
def test_refusals_name_file_line_col(tmp_path, body, line, col, why):
    with pytest.raises(LoweringError, match=why) as exc:
        _lower(tmp_path, body)
    err = exc.value
    assert (err.line, err.col) == (line, col) and str(err).startswith(f"{tmp_path / 'k.py'}:{line}:{col}: ")


def test_masked_tile_becomes_padded_load_and_bounded_view(tmp_path):
    low = _lower(tmp_path, "x = tl.load(x_ptr + offs, mask=offs < n, other=float('-inf'))\n"
                           "tl.store(y_ptr + offs, tl.exp(x), mask=offs < n)")
    assert "ct.load(x_ptr, index=(pid,), shape=(B,), padding_mode=ct.PaddingMode.NEG_INF)" in low.source
    assert "ct.store(y_ptr, index=(pid,), tile=ct.astype(ct.exp(x), y_ptr.dtype))" in low.source
    assert low.views["x_ptr"] == View("x_ptr", (Dim("1", "n"),))
    assert [p["name"] for p in low.params] == ["x_ptr", "y_ptr", "B"]  # n only bounds the views


def test_plain_stores_option_gives_every_store_allow_tma_false(tmp_path):
    body = "x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\ntl.store(y_ptr + offs, x * 2.0, mask=offs < n)"
    f = tmp_path / "k.py"
    f.write_text(ELEMENTWISE.replace("{body}", textwrap.indent(body, "    ").strip()))
    low = lower(find_kernel(f, "k"), KINDS, {}, hints={"plain_stores": 1, "occupancy": 4})
    assert "ct.store(y_ptr, index=(pid,), tile=" in low.source and ", allow_tma=False)" in low.source
    assert "@ct.kernel(occupancy=4)" in low.source and "Stores skip TMA" in low.source
    assert low.hints == {"occupancy": 4, "plain_stores": 1}
    assert "allow_tma" not in _lower(tmp_path, body).source


def test_data_dependent_offsets_become_a_gather_and_a_scatter(tmp_path):
    low = _lower(tmp_path, "i = tl.load(x_ptr + offs, mask=offs < n, other=0)\n"
                           "v = tl.load(y_ptr + i * 2 + 1, mask=offs < n, other=0.0)\n"
                           "tl.store(y_ptr + i, v, mask=offs < n)")
    assert "ct.gather(y_ptr, i * 2 + 1, mask=" in low.source and "padding_value=0.0)" in low.source
    assert "ct.scatter(y_ptr, i, v, mask=" in low.source
    assert low.views["y_ptr"] == View("y_ptr", (Dim("1", None),))   # the flat vector


def test_view_layout_rules():
    rows = View("x", (Dim("rs", None), Dim("1", "n")))
    assert view_layout(rows, (37, 5000), (5000, 1), {"rs": 5000, "n": 5000}) == ((37, 5000), (5000, 1))
    # a column slice of a wider matrix: rows from the row stride, not from numel
    assert view_layout(rows, (37, 100), (5000, 1), {"rs": 5000, "n": 100}) == ((37, 100), (5000, 1))
    flat = View("x", (Dim("1", None),))
    assert view_layout(flat, (6, 7), (7, 1), {}) == ((42,), (1,))
    heads = View("q", (Dim("sh", None), Dim("sm", "S"), Dim("1", "D")))
    with pytest.raises(ViewError, match="reads shape"):
        view_layout(View("x", (Dim("1", "n"),)), (10,), (1,), {"n": 11})
    with pytest.raises(ViewError, match="does not pass"):
        view_layout(heads, (4, 8, 64), (512, 64, 1), {"sh": 512, "S": 8})
    two = View("q", (Dim("sz", None), Dim("sh", None), Dim("1", "D")))
    assert view_layout(two, (2, 3, 64), (192, 64, 1), {"sz": 192, "sh": 64, "D": 64}) == ((2, 3, 64), (192, 64, 1))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 50), st.integers(1, 300), st.integers(0, 40))
def test_row_views_cover_exactly_the_rows(m, n, pad):
    """For any (m, n) slice of a row-major buffer with row stride n + pad, the view is the slice itself."""
    rows = View("x", (Dim("rs", None), Dim("1", "n")))
    assert view_layout(rows, (m, n), (n + pad, 1), {"rs": n + pad, "n": n}) == ((m, n), (n + pad, 1))


def test_ported_kernel_builds_views_from_triton_arguments(captured):
    pytest.importorskip("triton")
    from tileport.examples.triton import softmax
    from tileport.runtime.triton_port import ported

    k = ported(softmax.triton_softmax)
    x = np.zeros((100, 512), np.float32)[:, :300]  # a column slice: row stride 512
    y = np.zeros((100, 300), np.float32)
    bound = dict(zip(k.params, (y, x, 512, 300, 300, 512)))
    out_v, in_v, block = k.lowered_args(bound)
    assert in_v.shape == (100, 300) and in_v.strides == (512 * 4, 4) and out_v.shape == (100, 300)
    assert block == 512 and np.shares_memory(in_v, x)


def _launches_of(captured, module):
    return [l for l in captured if l["kernel"].endswith(f"::{KERNELS[module]}")]


def _ref(module):
    return f"{LOWERED_DIR.parent / (module + '.py')}::{KERNELS[module]}"


@pytest.fixture(scope="module")
def triton_batch(captured, tree, tmp_path_factory):
    """Every bundled Triton kernel ported at its captured launches by `port_triton_many`: one cargo build."""
    from tileport.pipeline.triton import port_triton_many

    root = tmp_path_factory.mktemp("triton")
    port_triton_many([(_ref(m), [], _launches_of(captured, m), root / m) for m in KERNELS], tree, "sm_90",
                     root / "crate")
    return root


@pytest.mark.parametrize("module", list(KERNELS))
def test_bundled_triton_kernels_port_proven(module, triton_batch):
    out = triton_batch / module
    verdict = json.loads((out / "verdict.json").read_text())
    assert verdict["status"] == "proven", json.dumps(verdict["stages"], indent=1)[:3000]
    assert verdict["frontend"] == "triton" and verdict["triton"]["kernel"] == _ref(module)
    assert verdict["stages"]["lower"]["ok"] and (out / "lowered.py").exists()
    assert json.loads((out / "lowered.json").read_text())["kernel"] == KERNELS[module]


def test_port_triton_alone(captured, tree, tmp_path):
    """`tileport port` of a Triton kernel goes through port_triton (one kernel, its own cargo build)."""
    from tileport.pipeline.triton import port_triton

    verdict = port_triton(_ref("vector_add"), [], _launches_of(captured, "vector_add"), tree, tmp_path, "sm_90")
    assert verdict["status"] == "proven", json.dumps(verdict["stages"], indent=1)[:3000]
    assert verdict["frontend"] == "triton" and (tmp_path / "lowered.py").exists()
    assert json.loads((tmp_path / "verdict.json").read_text())["status"] == "proven"


def test_port_without_capture_says_what_to_do(tmp_path):
    from tileport.errors import TileportError
    from tileport.pipeline.triton import lower_from_launches

    with pytest.raises(TileportError, match="run `tileport capture"):
        lower_from_launches(f"{LOWERED_DIR.parent / 'softmax.py'}::triton_softmax", [])


def test_triton_coverage_rows_name_bundled_examples():
    from tileport.translate.coverage import TRITON_COVERAGE

    named = {c.example for c in TRITON_COVERAGE if c.example}
    assert named <= {f"triton/{m}" for m in KERNELS}
    assert all(c.example for c in TRITON_COVERAGE if c.status == "supported")
    assert {c.status for c in TRITON_COVERAGE} == {"supported", "dropped", "planned"}
