"""The Triton frontend on a CPU: reading @triton.jit kernels, capturing their launches, lowering them to cuTile
Python (every refusal with file:line:col), the array views a launch builds, and the bundled examples' ports."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tileport.examples import EXAMPLES_DIR
from tileport.kernels.triton import KERNELS, LOWERED_DIR
from tileport.frontends.cutile_py.capture import run_captured
from tileport.frontends.triton import bundled
from tileport.frontends.triton.lower import LoweringError, lower
from tileport.frontends.triton.source import TritonSourceError, find_kernel, is_triton_file
from tileport.frontends.triton.views import Dim, View, ViewError, as_view, view_layout
from tileport.translate.coverage import TRITON_COVERAGE

HOST = EXAMPLES_DIR / "triton" / "host.py"


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
    ("x = tl.load(x_ptr + offs, mask=offs < n, other=y_ptr)\ntl.store(y_ptr + offs, x)", 10, 52,
     "other= must be a literal, a scalar or a tile"),
    ("x = tl.load(x_ptr + offs.to(tl.float32), mask=offs < n)", 10, 17, "cannot add a Tile to a pointer"),
    ("x = tl.umulhi(tl.load(x_ptr + offs).to(tl.int64), offs)", 10, 9, "tl.umulhi of ct.int64: lowered for 32-bit "
     "integers"),
    ("while n:\n    pass", 10, 5, "a `while` is lowered when it counts"),
    ("p = x_ptr + offs\nfor i in range(4):\n    p += 3\n", 12, 9, "p advanced by `3` per iteration"),
    ("p = x_ptr + offs\nfor i in range(4):\n    tl.store(p, 1.0)\n    p = x_ptr + i\n", 13, 9,
     "p is a pointer, index or mask updated inside a loop"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x)\ntl.store(x_ptr + offs * n, x)", 12, 5,
     "one pointer must be read through one layout"),
    ("x = helper(offs)", 10, 9, "call `helper` is not supported"),
    ("p = x_ptr + offs\nfor i in range(0, n, n):\n    p += B", 11, 14, "a step that is not a positive literal"),
    # calls whose arguments the lowering cannot read: refused at the statement, never a Python error
    ("x = tl.load()", 10, 5, "`x = tl.load\\(\\)`: its arguments are not understood"),
    ("x = tl.sum(tl.load(x_ptr + offs), axis=n)", 10, 44, "axis n of a rank-1 tile"),
])
def test_refusals_name_file_line_col(tmp_path, body, line, col, why):
    with pytest.raises(LoweringError, match=why) as exc:
        _lower(tmp_path, body)
    err = exc.value
    assert (err.line, err.col) == (line, col) and str(err).startswith(f"{tmp_path / 'k.py'}:{line}:{col}: ")


def test_helpers_imported_from_modules_of_the_project_are_inlined(tmp_path):
    """`from .util import scaled` (a package's module) and `from util2 import halve` (a module beside the file):
    their @triton.jit helpers, and the helpers those call, are inlined; a lowering error inside one names its own
    file and line."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    helper_src = ("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef _twice(x):\n"
                  "    return x * 2\n\n\n@triton.jit\ndef scaled(x, s):\n    return _twice(x) * s\n\n\n"
                  "@triton.jit\ndef broken(x):\n    return tl.not_a_function(x)\n")
    (pkg / "util.py").write_text(helper_src)
    (pkg / "util2.py").write_text("import triton\n\n\n@triton.jit\ndef halve(x):\n    return x * 0.5\n")
    (pkg / "k.py").write_text(ELEMENTWISE.replace("import triton\n", "import triton\nfrom .util import scaled, "
                                                  "broken as bad\nfrom util2 import halve\n").replace(
        "{body}", "x = tl.load(x_ptr + offs, mask=offs < n)\n    tl.store(y_ptr + offs, halve(scaled(x, 3.0)), "
                  "mask=offs < n)"))
    low = lower(find_kernel(pkg / "k.py", "k"), KINDS, {})
    assert "* 2" in low.source and "* 3.0" in low.source and "* 0.5" in low.source
    (pkg / "k2.py").write_text((pkg / "k.py").read_text().replace("halve(scaled(x, 3.0))", "bad(x)"))
    with pytest.raises(LoweringError, match=r"pkg/util\.py:17:\d+: "):
        lower(find_kernel(pkg / "k2.py", "k"), KINDS, {})


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
    # plain_loads: every pointer load too (the probe's `notma` variant, chosen per kernel by whoever ports it)
    both = lower(find_kernel(f, "k"), KINDS, {}, hints={"plain_stores": 1, "plain_loads": 1})
    assert "padding_mode=ct.PaddingMode.ZERO, allow_tma=False)" in both.source, both.source
    assert both.source.count("allow_tma=False") == 2 and "Loads skip TMA" in both.source
    # load_latency: every pointer load states cuTile's latency hint (how deep tileiras pipelines it), stores none
    slow = lower(find_kernel(f, "k"), KINDS, {}, hints={"plain_loads": 1, "load_latency": 10})
    assert "allow_tma=False, latency=10)" in slow.source and slow.source.count("latency=10)") == 1, slow.source
    assert "Loads state latency=10" in slow.source and slow.hints == {"plain_loads": 1, "load_latency": 10}
    with pytest.raises(LoweringError, match="from 1 to 10"):
        lower(find_kernel(f, "k"), KINDS, {}, hints={"load_latency": 0.5})


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
    from tileport.kernels.triton import softmax
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


#: Triton kernels written as real code is (64-bit program ids, `ptr +=`, module constants, helpers, bare-name math
#: imports, constexpr branches, persistent loops, row masks, pointers advanced in a K loop, scalar loads/stores)
IDIOMS = Path(__file__).parent / "fixtures" / "triton_idioms.py"
IDIOM_KERNELS = ("idiom_rms", "idiom_silu_rows", "idiom_mm", "idiom_scale", "idiom_bias_act", "idiom_scan_t",
                 "idiom_atomic", "idiom_embed", "idiom_add_rms")


#: Triton kernels in the idioms of LLM kernel libraries (cross-entropy's online logsumexp, norms' forward/backward
#: with dW partial sums, SwiGLU, KL-div/JSD rows, argmax, tl.reduce, split/join/interleave, 2-D/3-D grids, ...)
LLM = Path(__file__).parent / "fixtures" / "triton_idioms_llm.py"
#: kernels of our own in the idioms of Triton's 3.4-3.6 tutorials (attention over descriptors, persistent matmul)
TUT = Path(__file__).parent / "fixtures" / "triton_idioms_tutorials.py"
#: kernels of our own reading one pointer as a strided tile and at computed element offsets (gathers / scatters)
TWO = Path(__file__).parent / "fixtures" / "triton_idioms_two_layouts.py"
#: f32 `/`, sqrt and rsqrt as Triton computes them (tests/gpu/test_triton_numerics_gpu.py: bit for bit on a GPU)
NUM = Path(__file__).parent / "fixtures" / "triton_numerics.py"
NUM_KERNELS = ("f32_quotients", "f32_roots")
#: (scatter_rows, a tile store and a scatter into one array, is lowered with every access of y a scatter since round
#: 15 and ported in tests/test_triton_round15.py)
TWO_KERNELS = ("rows_then_flat", "flat_then_rows", "flat_elements", "picked_rows_2d", "label_and_neighbour",
               "row_ends", "row_ends_first", "shifted_window")
TUT_KERNELS = ("tut_attn_fwd", "tut_attn_bwd_dkdv", "tut_persistent_mm", "tut_persistent_ptr_mm",
               "tut_block_ptr_band", "tut_carried_offsets", "tut_spin_lock")
LLM_KERNELS = ("decode_varlen", "ce_loss", "add_rms_fwd", "rms_bwd", "swiglu_fwd", "kldiv_rows", "jsd_rows", "softmax_bwd",
               "log_softmax", "argmax_rows", "reduce_rows", "static_unroll", "split_join", "misc_ops", "grid3d",
               "embed_fwd", "interleave_k", "while_rows", "rope_fwd", "rope_tables", "ln_fwd", "softmax_2d",
               "int64_offsets", "mm_out_dtype", "first_program", "static_range_step", "int8_quant", "embed_bwd",
               "softcap_bcast", "dyt_fwd", "fill_scalar", "grad_accum", "swiglu_bwd_out", "topk_mask", "lse_rows",
               "label_guard", "heuristics_scale", "attn_fwd_small", "rms_bwd_ptrs", "ln_bwd_rows", "group_norm_fwd",
               "tvd_rows", "poly_norm", "rope_interleaved", "lse_lanes", "moe_mm", "causal_attn", "w8_matmul",
               "varlen_mean", "packed_rows", "act_and_mul", "cast_out", "ln_bwd_atomic", "sign_bits",
               "dropout_rand", "rel_buckets", "int8_rint_quant", "round_div", "int4_unpack", "padded_counts",
               "grad_in_place", "gated_bwd_in_place", "offsets_shifted", "finite_window", "rope_head_tile",
               "rope_head_loop", "rope_head_pid", "head_rms_split", "swizzle_mm", "wrapped_mm", "split_k_mm", "ieee_block_mm",
               "gate_up_cols", "transpose_masked", "smooth_online_lse", "slot_scatter", "heads_recurrence",
               "grid_stride_rows", "fill_window", "alibi_scores", "trans_flag", "chunk_state", "split_combine",
               "rope_freqs_inline", "rank_scatter", "chunk_gate_last", "seeded_keep",
               "row_cumsum", "mantissa_trunc", "libdevice_fast", "gauss_noise", "reverse_rows", "builtin_softmax",
               "half_acc_dot", "batched_dot", "signed_relu6", "expert_histogram", "sum_wide_count", "awq_unpack",
               "embed_grad_half", "hash_keep", "llrint_cat", "fp4_lut_unpack", "inverse_cdf_sample",
               "carry_prev_block", "lookback_scan", "moe_empty_expert", "top_p_sorted", "gather_in_tile",
               "bitwise_reductions", "act_code_rows", "act_helper_returns", "horner_reversed", "top2_pairs", "arange_span",
               "pow_bias_correction", "rtz_downcast", "argmax_pairs", "pair_scan", "swizzle_bp_mm", "running_argmax",
               "rms_bwd_atomic_dw", "ce_loss_atomic", "bag_sum_int64", "scratch_roundtrip",
               "assume_converge", "wide_int_sentinels", "varlen_rope_guard",
               "reverse_rnn_bwd", "advance_back", "suffix_blocks",
               "none_mask_broadcast", "bag_sum_int32", "slot_divmod", "accept_prefix", "kw_arange_ieee",
               "smoothing_chunks", "unsigned_mix", "pow_int_step", "nibble_dot", "f32_atomic_extrema",
               "philox_words", "banned_scatter", "topk_renorm_rows",
               "elems_then_half_rows", "keep_mask_fill", "int_extrema",
               "tail_block_size", "offs_stepped", "offs_set_under_if",
               "offs_name_taken", "offs_name_taken_in_helper", "clamp_nan_all", "seed_hash_u32", "fdiv_forms",
               "rand_rounds", "argmax_right", "sort_flag", "seg_scan_flags", "cummax_rows", "lin_rec_scan",
               "cumprod_cols", "qk_select_norm", "flat_static_hash", "invert_bounds",
               "prev_block_diff", "relaxed_amax", "partials_last_sum", "interleaved_gate_up",
               "pair_rows_inplace", "tuple_dims", "welford_rows", "lae_rows",
               "mask_by_parity", "bias_rows_stride0")
#: the LLM kernels a Triton coverage row names as its example (translate/coverage.py): ported in every run; the
#: others only in the slow run (the whole fixture took 5 minutes of one of CI's two workers)
LLM_IN_CI = tuple(k for k in LLM_KERNELS if f"llm/{k}" in {c.example for c in TRITON_COVERAGE})
LLM_SLOW = tuple(k for k in LLM_KERNELS if k not in LLM_IN_CI)


@pytest.fixture(scope="module")
def idiom_launches():
    rec = run_captured(IDIOMS, [])
    assert not rec.errors
    return list(rec.launches.values())


@pytest.fixture(scope="module")
def llm_launches():
    rec = run_captured(LLM, [])
    assert not rec.errors
    return list(rec.launches.values())


@pytest.fixture(scope="module")
def tut_launches():
    rec = run_captured(TUT, [])
    assert not rec.errors
    return list(rec.launches.values())


@pytest.fixture(scope="module")
def two_launches():
    rec = run_captured(TWO, [])
    assert not rec.errors
    return list(rec.launches.values())


@pytest.fixture(scope="module")
def num_launches():
    rec = run_captured(NUM, [])
    assert not rec.errors
    return list(rec.launches.values())


@pytest.fixture(scope="module")
def triton_batch(captured, idiom_launches, llm_launches, tut_launches, two_launches, num_launches, tree,
                 tmp_path_factory):
    """Every bundled Triton kernel and the idiom kernels ported at their captured launches by `port_triton_many`:
    one cargo build."""
    from tileport.pipeline.triton import port_triton_many

    root = tmp_path_factory.mktemp("triton")
    jobs = [(_ref(m), [], _launches_of(captured, m), root / m) for m in KERNELS]
    jobs += [(f"{IDIOMS}::{k}", [], [l for l in idiom_launches if l["kernel"].endswith(f"::{k}")], root / k)
             for k in IDIOM_KERNELS]
    jobs += [(f"{LLM}::{k}", [], [l for l in llm_launches if l["kernel"].endswith(f"::{k}")], root / k)
             for k in LLM_IN_CI]
    jobs += [(f"{TUT}::{k}", [], [l for l in tut_launches if l["kernel"].endswith(f"::{k}")], root / k)
             for k in TUT_KERNELS]
    jobs += [(f"{TWO}::{k}", [], [l for l in two_launches if l["kernel"].endswith(f"::{k}")], root / k)
             for k in TWO_KERNELS]
    jobs += [(f"{NUM}::{k}", [], [l for l in num_launches if l["kernel"].endswith(f"::{k}")], root / k)
             for k in NUM_KERNELS]
    port_triton_many(jobs, tree, "sm_90", root / "crate")
    return root


@pytest.fixture(scope="module")
def llm_slow_batch(llm_launches, tree, tmp_path_factory):
    """The LLM fixture's kernels no coverage row names, ported by `port_triton_many` (one cargo build): minutes,
    so a `slow` test (./dev test -m slow; run before a change to the Triton lowering lands)."""
    from tileport.pipeline.triton import port_triton_many

    root = tmp_path_factory.mktemp("triton-llm")
    port_triton_many([(f"{LLM}::{k}", [], [l for l in llm_launches if l["kernel"].endswith(f"::{k}")], root / k)
                      for k in LLM_SLOW], tree, "sm_90", root / "crate")
    return root


def test_capture_of_an_autotuned_kernel_with_none_and_string_arguments(idiom_launches):
    """An autotuned kernel launches its first config (and says so); a None pointer and a string constexpr are
    recorded as constants, which the lowering folds away."""
    bias = [l for l in idiom_launches if l["kernel"].endswith("::idiom_bias_act")]
    assert len(bias) == 2 and all(l["autotune"]["configs"] == 2 and "BLOCK: 256" in l["autotune"]["taken"]
                                  for l in bias)
    args = {a["name"]: a for a in bias[0]["args"]}
    assert args["b_ptr"] == {"name": "b_ptr", "kind": "constant", "value": None}
    assert args["ACT"] == {"name": "ACT", "kind": "constant", "value": "relu"} and args["BLOCK"]["value"] == 256


def test_capture_records_a_dtype_constexpr_by_name(llm_launches):
    """`OUT_DTYPE=tl.float16` is recorded as the constant "tl.fp16" (the lowering resolves it to ct.float16)."""
    (launch,) = [l for l in llm_launches if l["kernel"].endswith("::cast_out")]
    assert {a["name"]: a for a in launch["args"]}["OUT_DTYPE"] == {"name": "OUT_DTYPE", "kind": "constant",
                                                                   "value": "tl.fp16"}


def test_capture_fills_defaults_and_records_launches_through_a_warmup_handle(idiom_launches):
    """A constexpr left to its default is recorded with it; `kernel.warmup(...)` compiles nothing and the handle it
    returns records its launches (every argument positional, the warmup's grid not a launch)."""
    scale = [l for l in idiom_launches if l["kernel"].endswith("::idiom_scale")]
    assert sorted(l["grid"][0] for l in scale) == [4, 8]
    assert all({a["name"]: a for a in l["args"]}["BLOCK"]["value"] == 256 for l in scale)


def test_bind_takes_defaults_only_for_what_the_call_leaves_out():
    from tileport.frontends.triton.capture import bind

    bound, options = bind(["x", "n", "BLOCK"], {"BLOCK"}, (1, 2), {"num_warps": 4}, {"BLOCK": 128})
    assert bound == {"x": 1, "n": 2, "BLOCK": 128} and options == {"num_warps": 4}
    assert bind(["x", "n", "BLOCK"], {"BLOCK"}, (1, 2, 64), {}, {"BLOCK": 128})[0]["BLOCK"] == 64


@pytest.mark.parametrize("kernel", IDIOM_KERNELS)
def test_real_triton_idioms_port_proven(kernel, triton_batch):
    verdict = json.loads((triton_batch / kernel / "verdict.json").read_text())
    assert verdict["status"] == "proven", json.dumps(verdict["stages"], indent=1)[:3000]


@pytest.mark.parametrize("kernel", NUM_KERNELS)
def test_triton_numerics_port_proven(kernel, triton_batch):
    """Triton's division (the operands scaled where |den| > 2**126, then APPROX) and approximate roots: proven."""
    verdict = json.loads((triton_batch / kernel / "verdict.json").read_text())
    assert verdict["status"] == "proven", json.dumps(verdict["stages"], indent=1)[:3000]


@pytest.mark.parametrize("kernel", TUT_KERNELS)
def test_tutorial_triton_idioms_port_proven(kernel, triton_batch):
    """Flash attention forward over descriptors at row offsets that are not whole blocks (gathers), causal and not
    in one kernel (a stage constexpr the launches disagree on), its dK/dV backward loop, a persistent matmul over
    `tl.range(.., NUM_SMS, flatten=True)` with tl.make_tensor_descriptor tiles, block pointers advanced before a
    loop: proven at every captured launch."""
    verdict = json.loads((triton_batch / kernel / "verdict.json").read_text())
    assert verdict["status"] == "proven", json.dumps(verdict["stages"], indent=1)[:3000]


@pytest.mark.parametrize("kernel", TWO_KERNELS)
def test_two_layout_triton_kernels_port_proven(kernel, triton_batch):
    """Gathers and scatters at computed element offsets through a row view (`o // stride`, `o % stride`): the Rust
    port proven against the lowered form (tests/test_triton_two_layouts.py checks that form against Triton)."""
    verdict = json.loads((triton_batch / kernel / "verdict.json").read_text())
    assert verdict["status"] == "proven", json.dumps(verdict["stages"], indent=1)[:3000]


@pytest.mark.parametrize("kernel", LLM_IN_CI)
def test_llm_triton_idioms_port_proven(kernel, triton_batch):
    """The LLM fixture's kernels a Triton coverage row names as its example: proven in every run."""
    verdict = json.loads((triton_batch / kernel / "verdict.json").read_text())
    assert verdict["status"] == "proven", json.dumps(verdict["stages"], indent=1)[:3000]


@pytest.mark.slow
@pytest.mark.parametrize("kernel", LLM_SLOW)
def test_llm_triton_idioms_port_proven_all(kernel, llm_slow_batch):
    """The rest of the LLM fixture (126 kernels, about 4 minutes on 2 cores): proven."""
    verdict = json.loads((llm_slow_batch / kernel / "verdict.json").read_text())
    assert verdict["status"] == "proven", json.dumps(verdict["stages"], indent=1)[:3000]


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
    import test_triton_round19
    import test_triton_round20
    import test_triton_round22
    import test_triton_round23
    import test_triton_round24
    import test_triton_round25b
    from tileport.translate.coverage import TRITON_COVERAGE

    named = {c.example for c in TRITON_COVERAGE if c.example}
    assert named <= {f"triton/{m}" for m in KERNELS} | {f"idioms/{k}" for k in IDIOM_KERNELS} | {
        f"llm/{k}" for k in LLM_KERNELS} | {f"tut/{k}" for k in TUT_KERNELS} | {
        f"scaled/{k}" for k in ("mx_mm", "mx_mm_trans")} | {   # (sm_100 only: tests/test_triton_dot_scaled.py)
        f"r12/{k}" for k in ("bp_batch_center", "umulhi_mix", "split_blocks_min", "heuristics_chain")} | {
        f"r19/{k}" for k in test_triton_round19.NAMES} | {   # (proven by tests/test_triton_round19.py)
        f"r20/{k}" for k in test_triton_round20.NAMES} | {   # (and tests/test_triton_round20.py)
        f"r22/{k}" for k in test_triton_round22.NAMES} | {   # (and tests/test_triton_round22.py)
        f"r23/{k}" for k in test_triton_round23.NAMES} | {   # (and tests/test_triton_round23.py)
        f"r24/{k}" for k in test_triton_round24.NAMES} | {   # (and tests/test_triton_round24.py)
        f"r25b/{k}" for k in test_triton_round25b.NAMES}   # (and tests/test_triton_round25b.py)
    assert all(c.example for c in TRITON_COVERAGE if c.status == "supported")
    assert {c.status for c in TRITON_COVERAGE} == {"supported", "dropped", "planned"}


# ---------------------------------------------------------------- idioms of real Triton code, one lowering each

MODULE = '''
import triton
import triton.language as tl
from triton.language.math import rsqrt
from triton.language.extra import libdevice

SCALE = tl.constexpr(2)
OFF: tl.constexpr = 0.5
{helpers}

@triton.jit
def k(x_ptr, y_ptr, n, s, B: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * B + tl.arange(0, B)
    {body}
'''
FACTS = {"constants": {"B": [128, 128], "MODE": [1, 1]}, "dtypes": {"x_ptr": {"ct.float32"}, "y_ptr": {"ct.float32"}}}
IKINDS = {"x_ptr": "array", "y_ptr": "array", "n": "scalar", "s": "scalar", "B": "constant", "MODE": "constant"}


def _lowered(tmp_path, body, helpers="", facts=FACTS):
    f = tmp_path / "m.py"
    f.write_text(MODULE.replace("{helpers}", textwrap.dedent(helpers)).replace(
        "{body}", textwrap.indent(textwrap.dedent(body), "    ").strip()))
    return lower(find_kernel(f, "k"), IKINDS, {"s": "float"}, facts=facts).source


@pytest.mark.parametrize("body, expect, absent", [
    # f32 tile / f32 tile: Triton's div.full — APPROX division of operands scaled by 1/4 where |den| > 2**126
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x / (x + s))",
     "ct.truediv(ct.where(big2, x * 0.25, x), ct.where(big2, den1 * 0.25, den1), "
     "rounding_mode=ct.RoundingMode.APPROX)", " / "),
    # by a literal or a constexpr (known when it compiles, at most 2**126 at every launch): no scaling to decide
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x / 3.0 + x / B)",
     "ct.truediv(x, ct.full((B,), 3.0, dtype=ct.float32), rounding_mode=ct.RoundingMode.APPROX)) + "
     "(ct.truediv(x, ct.full((B,), B, dtype=ct.float32), rounding_mode=ct.RoundingMode.APPROX)", "big"),
    # a scalar denominator (`x / (1 - s)`, s a float argument): a tile of the quotient's shape
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x / (1 - s))",
     "den1 = ct.full((B,), 1 - s, dtype=ct.float32)", " / "),
    # tl.sqrt / tl.rsqrt: sqrt.approx.ftz / rsqrt.approx.ftz; tl.sqrt_rn and tl.math.div_rn: IEEE; libdevice.sqrt is
    # tl.sqrt's sqrt.approx.ftz.f32 (Triton 3.6 links libdevice with __CUDA_PREC_SQRT unset: its PTX, round 21)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.sqrt(x) + tl.rsqrt(x))",
     "ct.sqrt(x, rounding_mode=ct.RoundingMode.APPROX, flush_to_zero=True) + ct.rsqrt(x, flush_to_zero=True)", None),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.sqrt_rn(x) + tl.math.div_rn(x, s))",
     "ct.sqrt(x) + (x / s)", "APPROX"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, libdevice.sqrt(x))",
     "ct.sqrt(x, rounding_mode=ct.RoundingMode.APPROX, flush_to_zero=True)", None),
    # tl.exp2 / tl.math.exp2: ex2.approx.ftz.f32; tl.exp stays exp2 of x * log2(e) without ftz (ex2.approx.f32)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.exp2(x) + tl.math.exp2(x) + tl.exp(x))",
     "(ct.exp2(x, flush_to_zero=True) + ct.exp2(x, flush_to_zero=True)) + ct.exp2(x * 1.4426950408889634)", None),
    # libdevice.exp2 too: `__nv_exp2f` is ex2.approx.ftz.f32 under Triton's __CUDA_FTZ (round 21)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, libdevice.exp2(x))", "ct.exp2(x, flush_to_zero=True)", None),
])
def test_f32_division_and_roots_lower_as_triton_computes_them(tmp_path, body, expect, absent):
    """Triton 3.6 compiles an f32 `/` to div.full.f32, tl.sqrt / tl.rsqrt / tl.exp2 to their approx.ftz forms; the lowering
    writes the cuTile forms whose sm_90 machine code is the same instructions (lower.py's docstring says how that
    was read), so the port's quotients and roots are Triton's bit for bit."""
    text = _lowered(tmp_path, body)
    assert expect in text, text
    assert absent is None or absent not in text.split("def k(", 1)[1], text


@pytest.mark.parametrize("dtypes", [{"ct.float16"}, {"ct.bfloat16"}, {"ct.float16", "ct.float32"}])
def test_16_bit_and_mixed_division_is_an_f32_quotient_as_triton_computes_it(tmp_path, dtypes):
    """Triton divides 16-bit floats in f32 (its quotient's dtype is f32), and so a kernel launched with f16 and f32
    arrays divides in f32 at every launch: the operands converted, then div.full.f32's form — not cuTile's f16
    quotient, nor IEEE division because the array's dtype varies (TileGym's dropout, `x / (1 - p)`)."""
    facts = {**FACTS, "dtypes": {"x_ptr": dtypes, "y_ptr": dtypes}}
    text = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x / (1 - s) + x / x)", facts=facts)
    body = text.split("def k(", 1)[1]
    assert "= ct.astype(x, ct.float32)" in body and "rounding_mode=ct.RoundingMode.APPROX" in body, text
    assert " / " not in body, text


def test_fp64_division_stays_ieee(tmp_path):
    facts = {**FACTS, "dtypes": {"x_ptr": {"ct.float64"}, "y_ptr": {"ct.float64"}}}
    text = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x / (x + s))", facts=facts)
    assert "x / (x + s)" in text and "APPROX" not in text, text


def test_ieee_div_option_keeps_ieee_division(tmp_path):
    f = tmp_path / "m.py"
    f.write_text(MODULE.replace("{helpers}", "").replace(
        "{body}", "x = tl.load(x_ptr + offs)\n    tl.store(y_ptr + offs, x / (x + s))"))
    text = lower(find_kernel(f, "k"), IKINDS, {"s": "float"}, hints={"ieee_div": 1}, facts=FACTS).source
    assert "x / (x + s)" in text and "APPROX" not in text and "IEEE division (ieee_div" in text


@pytest.mark.parametrize("body, helpers, expect", [
    # a 64-bit program id: offsets are tile indices of views (the widening is dropped, and said so)
    ("row = tl.program_id(0).to(tl.int64)\nx = tl.load(x_ptr + row * n + tl.arange(0, B))\n"
     "tl.store(y_ptr + row * n + tl.arange(0, B), x)", "", "ct.load(x_ptr, index=(row, 0), shape=(1, B))"),
    # a pointer rebased with +=
    ("x_ptr += pid * n\ny_ptr += pid * n\nx = tl.load(x_ptr + tl.arange(0, B))\n"
     "tl.store(y_ptr + tl.arange(0, B), x)", "", "ct.load(x_ptr, index=(pid, 0), shape=(1, B))"),
    # module constants, bare-name and libdevice math
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, rsqrt(x) * SCALE + libdevice.tanh(x) + OFF)", "",
     "ct.rsqrt(x, flush_to_zero=True) * 2) + ct.tanh(x)) + 0.5"),   # tl's rsqrt: rsqrt.approx.ftz
    # a helper returning a tuple, inlined with its own names
    ("x = tl.load(x_ptr + offs)\na, b = _two(x)\ntl.store(y_ptr + offs, a + b)",
     "@triton.jit\ndef _two(v):\n    w = v * 2.0\n    return w, w + 1.0\n", "two1_w = x * 2.0"),
    # constexpr branch every launch takes alike: only the taken arm is lowered (the other is not even read)
    ("x = tl.load(x_ptr + offs)\nif MODE == 1:\n    x = x * 3.0\nelse:\n    x = tl.rand(0, offs)\n"
     "tl.store(y_ptr + offs, x)", "", "x = x * 3.0"),
    # a tile loaded from an f32 tensor: exp the way Triton computes it; sigmoid likewise, and its division as
    # Triton's div.full (the operands scaled by 1/4 where the denominator exceeds 2**126)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.sigmoid(x))", "",
     "ct.truediv(ct.where(big2, ct.full((B,), 0.25, dtype=ct.float32), ct.full((B,), 1.0, dtype=ct.float32)), "
     "ct.where(big2, den1 * 0.25, den1), rounding_mode=ct.RoundingMode.APPROX)"),
    # a reduction over every axis; scalar stores and loads through a 1-element view
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + pid, tl.sum(x))", "",
     "ct.store(y_ptr, index=(pid,), tile=ct.reshape(ct.astype(ct.sum(x, axis=0), y_ptr.dtype), (1,)))"),
    ("v = tl.load(x_ptr)\ntl.store(y_ptr + offs, tl.zeros((B,), dtype=tl.float32) + v)", "",
     "v = ct.load(x_ptr, index=(0,), shape=(1,))"),
    # builtins on scalars, tl.cast, compiler hints
    ("m = min(n, 7)\nx = tl.load(x_ptr + tl.multiple_of(offs, 16))\n"
     "tl.store(y_ptr + offs, tl.cast(x, tl.float16) * float(m))", "", "ct.astype(min(n, 7), ct.float32)"),
    # a persistent loop: the step is the number of programs
    ("for i in tl.range(pid, n, tl.num_programs(0)):\n    x = tl.load(x_ptr + i * B + tl.arange(0, B))\n"
     "    tl.store(y_ptr + i * B + tl.arange(0, B), x)", "", "for i in range(pid, n, ct.num_blocks(0)):"),
    # a loop stepping by a block: `i + tl.arange(0, B)` is block i // B of a view; a row test (a tile) and a
    # column mask combine into one mask value
    ("acc = tl.zeros((B, B), dtype=tl.float32)\nfor i in range(0, n, B):\n    rows = i + tl.arange(0, B)\n"
     "    m = (rows[:, None] < n) & (offs[None, :] < n)\n"
     "    acc += tl.load(x_ptr + rows[:, None] * n + offs[None, :], mask=m, other=0.0)\n"
     "tl.store(y_ptr + offs, tl.sum(acc, axis=0))", "",
     "ct.load(x_ptr, index=(i // B, pid), shape=(B, B), padding_mode=ct.PaddingMode.ZERO)"),
    # offsets computed as values (a wrap-around `% n`: a gather) advanced in a loop: the offsets move each step
    ("wrapped = (pid * B + tl.arange(0, B)) % n\np = x_ptr + wrapped\nacc = tl.zeros((B,), dtype=tl.float32)\n"
     "for k in range(4):\n    acc += tl.load(p)\n    p += n\ntl.store(y_ptr + offs, acc)", "",
     "ct.gather(x_ptr, wrapped + k * n"),
    # tl.rand: Triton's Philox written out in 64-bit unsigned steps (no literal of 2^31 or more: cutile 0.3.1
    # parses integer literals as i32), then its uniform float
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.where(tl.rand(n, offs) > s, x, 0.0))", "",
     "rand1_q0 = (((rand1_p2 * 0xcd9e) << 16) + rand1_p2 * 0x8d57)"),
    # a conditional expression on constexprs every launch gives alike: the taken side
    ("w = 2.0 if MODE == 1 else tl.rand(0, offs)\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x * w)", "",
     "x * 2.0"),
    # a conditional expression on scalars the launches do not fix: the same expression in cuTile Python
    ("m = 0 if pid == 0 else n\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x * m)", "",
     "x * (0 if pid == 0 else n)"),
    # tile methods: .reshape
    ("x = tl.load(x_ptr + offs).reshape((1, B))\ntl.store(y_ptr + offs, tl.reshape(x, (B,)))", "",
     "ct.reshape(x, (B,))"),
    # other= that no padding mode is (a scalar argument): selected in the masked lanes after a zero-padded load
    ("x = tl.load(x_ptr + offs, mask=offs < n, other=s)\ntl.store(y_ptr + offs, x, mask=offs < n)", "",
     "padding_mode=ct.PaddingMode.ZERO), s)"),
    # an early return (a guard): the rest of the kernel becomes the else arm; one loaded element compared with a
    # scalar is a scalar comparison
    ("k = tl.load(x_ptr + pid)\nif k == n:\n    return\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x)", "",
     "if (ct.reshape(k, ())) == n:\n        pass\n    else:"),
    # a data-dependent element of a row already read through a strided view: gathered through that view, k an
    # element offset from the row's start (row pid + k // n, column k % n: k may reach past the row)
    ("x_ptr += pid * n\nrow = tl.load(x_ptr + tl.arange(0, B))\nk = tl.load(y_ptr + pid)\n"
     "v = tl.load(x_ptr + k)\ntl.store(y_ptr + offs, row * v)", "", "ct.gather(x_ptr, (pid + k // n, k % n), "
     "padding_value=0)"),
    # float('-inf') on the host side of a kernel: the same builtin (cuTile Python folds it)
    ("m = float('-inf')\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.maximum(x, m))", "",
     "ct.maximum(x, float('-inf'))"),
    # atomics: the flat view at the offsets, masked lanes past the end
    ("x = tl.load(x_ptr + offs)\ntl.atomic_add(y_ptr + offs % 4, x, mask=offs < n, sem='relaxed')", "",
     "memory_order=ct.MemoryOrder.RELAXED"),
    # transposes and permutes
    ("x = tl.load(x_ptr + offs[:, None] * B + offs[None, :])\ntl.store(y_ptr + offs, tl.sum(tl.permute(x, (1, 0)) "
     "+ x.T, axis=0))", "", "(ct.permute(x, (1, 0))) + ct.transpose(x)"),
    # tl.where on a non-boolean condition: true where nonzero
    ("keep = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.where(keep, 1.0, 0.0))", "",
     "ct.where(keep != 0, 1.0, 0.0)"),
    # tl.fma, tl.clamp, tl.zeros_like: a product cuTile fuses, minimum(maximum(..)), a full tile of x's shape/dtype
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.clamp(tl.fma(x, x, 1.0), -2.0, 2.0) + tl.zeros_like(x))",
     "", "ct.minimum(ct.maximum((x * x) + 1.0, -2.0), 2.0)) + (ct.full((B,), 0, dtype=x_ptr.dtype))"),
    # tl.split: the halves of a last axis of 2 (ct.extract); tl.join / tl.interleave: a select on a new last axis
    ("p = tl.load(x_ptr + offs[:, None] * 2 + tl.arange(0, 2)[None, :])\na, b = tl.split(p)\n"
     "tl.store(y_ptr + tl.arange(0, 2 * B), tl.interleave(b, a))", "",
     "b = ct.reshape(ct.extract(p, (0, 1), shape=(B, 1)), (B,))"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs[:, None] * 2 + tl.arange(0, 2)[None, :], tl.join(x, x + 1))", "",
     "ct.where(ct.reshape(ct.arange(2, dtype=ct.int32), (1, 2)) == 0, ct.reshape(x, (B, 1)), ct.reshape(x + 1, (B, 1)))"),
    # tl.argmax / tl.max(.., return_indices=True): the first index of the maximum, as Triton's tie_break_left
    ("x = tl.load(x_ptr + offs)\nv, i = tl.max(x, axis=0, return_indices=True)\n"
     "tl.store(y_ptr + pid, v + tl.argmin(x, 0).to(tl.float32) + i)", "",
     "i = ct.min(ct.where(x == best1, ct.arange(B, dtype=ct.int32), B), axis=0)"),
    # tl.reduce with a combine function that is one associative op: that reduction
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + pid, tl.reduce(x, 0, _plus))", "@triton.jit\ndef _plus(a, b):\n"
     "    return b + a\n", "ct.sum(x, axis=0)"),
    # .to(dtype, bitcast=True): the same bits
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x.to(tl.int32, bitcast=True))", "", "ct.bitcast(x, ct.int32)"),
    # a program index computed from several program ids, and `p + pid * B + tl.arange(0, B)`: tile indices
    ("pid_y = tl.program_id(1)\nx = tl.load(x_ptr + (pid_y * tl.num_programs(0) + pid) * B + tl.arange(0, B))\n"
     "tl.store(y_ptr + pid * B + tl.arange(0, B), x)", "",
     "x = ct.load(x_ptr, index=(((pid_y * ct.num_blocks(0)) + pid),), shape=(B,))"),
    # a float scalar a loop turns into a reduction's 0-d tile starts as that tile
    ("total = 0.0\nfor i in range(0, n, B):\n    total += tl.sum(tl.load(x_ptr + i + tl.arange(0, B), "
     "mask=i + tl.arange(0, B) < n, other=0.0))\ntl.store(y_ptr + pid, total)", "",
     "total = ct.full((), 0.0, dtype=ct.float32)"),
    # tl.broadcast_to, tl.expand_dims, propagate_nan=ALL; a boolean tl.zeros (an int32 one compared with 0)
    ("x = tl.load(x_ptr + offs)\ny = tl.broadcast_to(tl.expand_dims(x, 0), (2, B))\n"
     "keep = tl.zeros((B,), dtype=tl.int1)\ntl.store(y_ptr + offs, tl.where(keep, 0.0, "
     "tl.maximum(tl.sum(y, axis=0), x, propagate_nan=tl.PropagateNan.ALL)))", "",
     "ct.broadcast_to(ct.reshape(x, (1, B)), (2, B))"),
    ("keep = tl.zeros((B,), dtype=tl.int1)\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.where(keep, 0.0, "
     "tl.maximum(x, 1.0, propagate_nan=tl.PropagateNan.ALL)))", "",
     "ct.where(keep, 0.0, ct.maximum(x, 1.0, propagate_nan=True))"),
    # tl.where on a constexpr test every launch decides alike: the taken side; on scalars: a conditional expression
    ("row = tl.where(MODE == 1, pid * n, (pid + 1) * n)\nx = tl.load(x_ptr + row + tl.arange(0, B))\n"
     "tl.store(y_ptr + offs, x)", "", "ct.load(x_ptr, index=(pid, 0), shape=(1, B))"),
    ("m = tl.where(pid == 0, n, 2 * n)\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x * m)", "",
     "x * (n if pid == 0 else 2 * n)"),
    # `assert` and tl.static_print are dropped (Triton compiles them only in debug)
    ("assert B > 0\ntl.static_print(B)\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x * 2.0)", "", "x * 2.0"),
    # tl.full of ±inf: ct.full of the constant (which cuTile Python and the port fold alike)
    ("m = tl.full((B,), float('-inf'), tl.float32)\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.maximum(m, x))",
     "", "m = ct.full((B,), float('-inf'), dtype=ct.float32)"),
    # tensor methods: `x.sum(axis=1)`, `x.max(0)`, `v.exp()` are the triton.language functions with x first
    ("x = tl.load(x_ptr + offs[:, None] * B + offs[None, :])\nv = x.sum(axis=1)\n"
     "tl.store(y_ptr + offs, v.exp() + x.max(0))", "", "ct.exp2(v * 1.4426950408889634) + ct.max(x, axis=0)"),
    # -float('inf') is the constant (as cuTile Python folds it), not a negation
    ("m = -float('inf')\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.maximum(x, m))", "",
     "ct.maximum(x, float('-inf'))"),
    # an element gathered from a row before the row's strided view is met (`logits_ptr + label` first): lowered
    # again, gathered through that view (k an element offset: row pid + k // n, column k % n)
    ("k = tl.load(y_ptr + pid).to(tl.int32)\nv = tl.load(x_ptr + pid * n + k)\n"
     "row = tl.load(x_ptr + pid * n + tl.arange(0, B))\ntl.store(y_ptr + offs, row * v)", "",
     "v = ct.gather(x_ptr, (pid + k // n, k % n), padding_value=0)"),
    # `~` of a mask literal is its value (as Triton folds it); of an integer tile cuTile Python's `~`
    ("x = tl.load(x_ptr + offs).to(tl.int32, bitcast=True)\ny = (x & ~0xFFFF) | ~x\n"
     "tl.store(y_ptr + offs, y.to(tl.float32, bitcast=True))", "", "(x & (-65536)) | (~x)"),
    # libdevice's IEEE square root, fast exp (Triton's f32 exp form) and fast division (div.approx)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.math.sqrt_rn(x) + tl.math.fast_expf(x) + "
     "tl.math.fast_dividef(x, x + 1.0))", "",
     "(ct.sqrt(x) + ct.exp2(x * 1.4426950408889634)) + ct.truediv(x, x + 1.0, rounding_mode=ct.RoundingMode.APPROX)"),
    # tl.randn: Box-Muller of the first two Philox words' uniforms, as Triton's pair_uniform_to_normal
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x + tl.randn(n, offs))", "",
     "x + (ct.sqrt(-2.0 * ct.log(rand1_u1), rounding_mode=ct.RoundingMode.APPROX, flush_to_zero=True) * "
     "ct.cos(rand1_th))"),
    ("tl.store(y_ptr + offs, tl.randint(n, offs).to(tl.float32))", "", "ct.astype(ct.astype(rand1_c0, ct.uint32)"),
    # tl.flip: the halves of each level swapped by ct.extract / ct.cat (B = 128: 7 levels)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.flip(x, 0))", "",
     "flip14 = ct.reshape(ct.cat((ct.extract(flip13, (0, 1, 0), shape=(64, 1, 1)), ct.extract(flip13, (0, 0, 0), "
     "shape=(64, 1, 1))), 1), (B,))"),
    # an integer tile with a float one: Triton computes in the float dtype (the integer tile converted first);
    # tl.where of two integer literals is an int32 tile
    ("x = tl.load(x_ptr + offs)\nsgn = tl.where(x > 0, 1, -1)\ntl.store(y_ptr + offs, x * sgn)", "",
     "x * ct.astype(sgn, ct.float32)"),
    # tl.histogram: a sum of the one-hot comparison with the bin ids (masked lanes in no bin)
    ("k = tl.load(x_ptr + offs).to(tl.int32)\ntl.store(y_ptr + tl.arange(0, 8), tl.histogram(k, 8, mask=offs < n))", "",
     "ct.sum(ct.where(ct.reshape(hist1, (B, 1)), ct.where(ct.reshape(k, (B, 1)) == ct.reshape(ct.arange(8, "
     "dtype=ct.int32), (1, 8)), 1, 0), 0), axis=0)"),
    # tl.sum's dtype= converts first; a boolean tile is counted as int32 (triton.language's _pick_sum_dtype)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + pid, tl.sum(x, axis=0, dtype=tl.float64).to(tl.float32) + "
     "tl.sum(x > 0).to(tl.float32))", "",
     "ct.sum(ct.astype(x, ct.float64), axis=0)"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + pid, tl.sum(x > 0))", "", "ct.sum(ct.where(x > 0, 1, 0), axis=0)"),
    # index arithmetic moved onto more axes (`shifts[None, None, :]`, `(offs // 4)[:, None]`)
    ("k = tl.load(x_ptr + offs).to(tl.int32)\nsh = tl.arange(0, 8) * 4\nw = (k[:, None] >> sh[None, :]) & 0xF\n"
     "tl.store(y_ptr + offs, tl.sum(w, axis=1).to(tl.float32))", "",
     "(ct.reshape(k, (B, 1))) >> ((ct.reshape(ct.arange(8, dtype=ct.int32), (1, 8))) * 4)"),
    # libdevice.llrint: the exact rint, then int64; tl.cat(a, b, can_reorder=True): a then b (the order is free)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, libdevice.llrint(x).to(tl.float32))", "",
     "ct.astype(ct.astype(ct.where(x < 0, -rint_r"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + pid, tl.sum(tl.cat(x, x * 2.0, can_reorder=True), axis=0))", "",
     "ct.sum(ct.cat((x, x * 2.0), 0), axis=0)"),
    # an integer literal beyond int32 (a multiplicative hash): Triton's uint32 constant, the product in halves
    ("h = (offs * 2654435761) >> 16\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.where(h > 7, x, 0.0))", "",
     "wide1 = ct.astype(pid * B + ct.arange(B, dtype=ct.int32), ct.uint32)"),
    ("h = (offs * 2654435761) >> 16\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.where(h > 7, x, 0.0))", "",
     "(((wide1 * 0x9e37) << 16) + wide1 * 0x79b1) >> 16"),
    # `p + pid * 2 * B + tl.arange(0, 2 * B)` (an output twice the input's block): tile pid of a 2B run
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + pid * 2 * B + tl.arange(0, 2 * B), tl.interleave(x, x))", "",
     "ct.store(y_ptr, index=(pid,), tile="),
    # a pointer minus a scalar (`flags + pid - 1`: the previous program's element)
    ("tl.store(y_ptr + pid, tl.load(x_ptr + pid - 1))", "", "ct.load(x_ptr, index=(pid - 1,), shape=(1,))"),
    # one element loaded into a scalar a runtime `if` carries: a 0-d tile on every path
    ("prev = 0.0\nif pid > 0:\n    prev = tl.load(x_ptr + pid - 1)\ntl.store(y_ptr + pid, prev)", "",
     "prev = ct.reshape(ct.load(x_ptr, index=(pid - 1,), shape=(1,)), ())"),
    # tl.rand at one offset (a sampler's per-row uniform): a 1-element tile of offsets
    ("tl.store(y_ptr + pid, tl.rand(n, pid))", "", "rand1_c0 = ct.astype(ct.astype(ct.full((1,), pid, dtype=ct.int32)"),
    # tl.sort / tl.topk: Triton's bitonic network (B = 128: 7 stages, 28 compare-and-swaps), partners by extract/cat
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.sort(x, descending=True))", "",
     "srt5 = ct.where(ct.where(srt2 > srt_y4, 1, 0) != (((srt_idx1 >> 1) & 1) ^ ((srt_idx1 >> 0) & 1)), srt_y4, srt2)"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + tl.arange(0, 4), tl.topk(x, 4))", "",
     "ct.max(ct.reshape("),
    # tl.gather within a tile: a one-hot selection of the source's bits over a new axis, summed, bitcast back
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.gather(x, (B - 1 - offs) % B, 0))", "",
     "ct.bitcast(ct.astype(ct.sum(ct.where(ct.reshape(tg_idx"),
    # tl.xor_sum / tl.reduce_or / tl.reduce with `a | b`: halves combined pairwise (exact: associative, commutative)
    ("k = tl.load(x_ptr + offs).to(tl.int32)\ntl.store(y_ptr + pid, tl.xor_sum(k, 0).to(tl.float32))", "",
     "bits2 = ct.reshape(ct.extract(bits1, (0, 0), shape=(1, 64)) ^ ct.extract(bits1, (1, 0), shape=(1, 64)), (64,))"),
    # tl.softmax: triton.language's own definition (Triton's exp, the row sum kept for the division)
    ("x = tl.load(x_ptr + offs[:, None] * B + offs[None, :])\ntl.store(y_ptr + offs, tl.sum(tl.softmax(x, dim=1, "
     "keep_dims=True), axis=1))", "",
     "smx1 = ct.exp2((x - ct.max(x, axis=1, keepdims=True)) * 1.4426950408889634)"),
])
def test_real_code_idioms_lower(tmp_path, body, helpers, expect):
    assert expect in _lowered(tmp_path, body, helpers)


def test_float_atomic_max_at_one_address_is_a_cas_loop(tmp_path):
    """A float tl.atomic_max (an fp8 scale's running amax): cuTile Python 1.7's ct.atomic_max rejects float arrays
    (Triton does it on the bits), so one address is a compare-and-swap loop applying Triton's update of the bits
    (round 7; numerics: tests/test_triton_round7.py); a tile of several addresses loops until every lane's swap
    went through (round 25b; numerics: tests/test_triton_round25b.py)."""
    src = _lowered(tmp_path, "tl.atomic_max(y_ptr, tl.max(tl.abs(tl.load(x_ptr + offs)), 0))")
    assert "max1_prev = ct.atomic_cas(y_ptr, max1_at, max1_old, " in src
    assert "while ct.bitcast(max1_prev, ct.int32) != ct.bitcast(max1_old, ct.int32):" in src
    src = _lowered(tmp_path, "tl.atomic_max(y_ptr + offs, tl.abs(tl.load(x_ptr + offs)))")
    assert "max1_prev = ct.atomic_cas(y_ptr, ct.where(max1_done, 2147483647, max1_at), max1_old, " in src
    assert "while ct.sum(ct.where(max1_done, 0, 1)) > 0:" in src


def test_int64_offsets_loaded_from_memory_index_as_int32(tmp_path):
    """Labels / token ids loaded from an int64 tensor index a view in 32 bits (a view's extents are 32-bit)."""
    facts = {"constants": FACTS["constants"], "dtypes": {"x_ptr": {"ct.float32"}, "y_ptr": {"ct.int64"}}}
    src = _lowered(tmp_path, "x_ptr += pid * n\nrow = tl.load(x_ptr + tl.arange(0, B))\nk = tl.load(y_ptr + pid)\n"
                             "tl.store(x_ptr + tl.arange(0, B), row * tl.load(x_ptr + k))", facts=facts)
    assert "ct.gather(x_ptr, (pid + ct.astype(k, ct.int32) // n, ct.astype(k, ct.int32) % n), padding_value=0)" in src
    # an int64 label against an i32 scalar argument: the scalar widened (a sign-extended one-element tile)
    guard = _lowered(tmp_path, "k = tl.load(y_ptr + pid)\nif k != n:\n    tl.store(x_ptr + offs, tl.load(x_ptr + offs))\n"
                               "tl.store(y_ptr + pid, tl.where(k == n, 0, k))", facts=facts)
    assert "if ct.reshape(ct.where(k != (ct.astype(ct.full((1,), n, dtype=ct.int32), ct.int64)), 1, 0), ()) != 0:" \
        in guard


def test_ported_heuristics_kernel_computes_its_values_at_launch(llm_launches, tmp_path):
    """`ported()` of a @triton.heuristics kernel binds as Triton does: the heuristic's value from the arguments."""
    pytest.importorskip("triton")
    import importlib.util

    from tileport.pipeline.triton import lower_from_launches
    from tileport.runtime.triton_port import ported

    spec = importlib.util.spec_from_file_location("llm_fixture", LLM)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    launches = [l for l in llm_launches if l["kernel"].endswith("::heuristics_scale")]
    lower_from_launches(f"{LLM}::heuristics_scale", launches).write(tmp_path / "lowered.py")
    k = ported(mod.heuristics_scale, tmp_path)
    x = np.zeros(1000, np.float32)
    assert k.bind((x, x, 1000, 2.0), {"BLOCK": 256})["EVEN_N"] is False
    assert k.bind((x, x, 1024, 2.0), {"BLOCK": 256})["EVEN_N"] is True


def test_rope_halves_are_tiles_of_the_head_view(tmp_path):
    """`base + HD // 2 + tl.arange(0, HD // 2)` is block 1 of the half-size run (the offset is a whole number of
    blocks at every launch); a mask every launch fills (`tl.arange(0, PAD) < N`, PAD <= N) bounds nothing."""
    facts = {"constants": {"B": [64, 64], "MODE": [64, 64]}, "dtypes": FACTS["dtypes"]}
    src = _lowered(tmp_path, """
        half = tl.arange(0, B // 2)
        base = x_ptr + pid * n
        x1 = tl.load(base + half, mask=half < MODE // 2)
        x2 = tl.load(base + B // 2 + half, mask=half < MODE // 2)
        second = half + MODE // 2
        tl.store(base + second, x2 * 2.0 + x1, mask=half < MODE // 2)
    """, facts=facts)
    assert "x2 = ct.reshape(ct.load(x_ptr, index=(pid, 1), shape=(1, B // 2)), (B // 2,))" in src
    assert "ct.store(x_ptr, index=(pid, 1), tile=" in src
    # a padded half (`half < n` bounds the run at the offset 0 and at B // 2: no one view extent): every access a
    # gather/scatter under its mask, exact (round 15; it was refused)
    src = _lowered(tmp_path, "half = tl.arange(0, B // 2)\nx = tl.load(x_ptr + half, mask=half < n)\n"
                             "tl.store(x_ptr + B // 2 + half, x, mask=half < n)", facts=facts)
    assert "ct.gather(x_ptr, ct.arange(B // 2, dtype=ct.int32), mask=ct.arange(B // 2, dtype=ct.int32) < n" in src
    assert "ct.scatter(x_ptr, 1 * (B // 2) + ct.arange(B // 2, dtype=ct.int32), x, mask=" in src


def test_a_launch_that_cannot_make_a_view_is_refused_at_the_access(tmp_path):
    """Rows of stride S over a flat tensor with an unbounded unit-stride run: no launch can size the view; the port
    stops at the lowering with the access's file:line:col (a verdict, not an exception)."""
    pytest.importorskip("triton")
    from tileport.pipeline.triton import _lower

    f = tmp_path / "k.py"
    f.write_text("import numpy as np\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                 "def k(x_ptr, y_ptr, S, B: tl.constexpr):\n    pid = tl.program_id(0)\n"
                 "    x = tl.load(x_ptr + pid * S + tl.arange(0, B))\n    tl.store(y_ptr + pid * S + tl.arange(0, B), x)"
                 "\n\n\nif __name__ == '__main__':\n    v = np.zeros(1024, np.float32)\n"
                 "    k[(4,)](v, np.zeros_like(v), 200, B=128)\n")
    rec = run_captured(f, [])
    verdict = _lower(f"{f}::k", [], list(rec.launches.values()), tmp_path / "out", lambda m: None, None)
    stage = verdict["stages"]["lower"]
    assert not stage["ok"] and stage["location"]["line"] == 9 and stage["location"]["col"] == 9
    assert stage["error"].startswith(f"{f}:9:9: at a captured launch: x_ptr: dimension 0")


def test_pairs_of_a_literal_stride_span_their_blocks(tmp_path):
    """`x + pairs[:, None] * 2 + tl.arange(0, 2)[None, :]` (interleaved pairs): no tensor dimension has stride 2, so
    each unmasked run read at tile 0 is bounded by its block (the rows still take what the tensor leaves)."""
    f = tmp_path / "m.py"
    f.write_text(MODULE.replace("{helpers}", "").replace("{body}", "p = tl.arange(0, B)\n    x = tl.load(x_ptr + pid * n "
                 "+ p[:, None] * 2 + tl.arange(0, 2)[None, :])\n    tl.store(x_ptr + pid * n + p[:, None] * 2 + "
                 "tl.arange(0, 2)[None, :], x * 2.0)"))
    low = lower(find_kernel(f, "k"), IKINDS, {"s": "float"}, facts=FACTS)
    assert low.views["x_ptr"] == View("x_ptr", (Dim("n", None), Dim("2", "B"), Dim("1", "2")))
    assert view_layout(low.views["x_ptr"], (6, 64), (64, 1), {"n": 64, "B": 32}) == ((6, 32, 2), (64, 2, 1))


def test_views_rows_flattened_from_several_tensor_dimensions():
    """The outermost unbounded dimension takes what the tensor leaves: [batch, seq, heads, hd] addressed as
    batch * seq rows of one stride; the inner ones are the tensor dimensions of their strides."""
    view = View("q", (Dim("rs", None), Dim("hd", None), Dim("1", None)))
    assert view_layout(view, (2, 6, 4, 64), (1536, 256, 64, 1), {"rs": 256, "hd": 64}) == ((12, 4, 64),
                                                                                         (256, 64, 1))
    # an inner dimension that would take the whole of a flat tensor leaves the rows nothing: refused, not guessed
    with pytest.raises(ViewError, match="cannot tell its extent"):
        view_layout(View("x", (Dim("S", None), Dim("1", None))), (1024,), (1,), {"S": 200})


def test_views_split_a_row_of_heads():
    """`q + t * stride_t + h * HD + d` over a `[T, H * HD]` tensor (q of a fused QKV projection viewed 2-D): the
    head dimension (stride HD, which the tensor has no dimension of) splits the row into whole heads, the
    unit-stride dimension below it takes one head; the view addresses exactly what Triton's pointers do."""
    view = View("q", (Dim("st", None), Dim("HD", None), Dim("1", None)))
    assert view_layout(view, (6, 256), (256, 1), {"st": 256, "HD": 64}) == ((6, 4, 64), (256, 64, 1))
    # q sliced out of a [T, 3 * H * HD] qkv tensor: the row stride steps over the other two thirds
    assert view_layout(view, (6, 256), (768, 1), {"st": 768, "HD": 64}) == ((6, 4, 64), (768, 64, 1))
    # a bounded head-dim run (a mask `d < HD // 2`) keeps its extent
    half = View("q", (Dim("st", None), Dim("HD", None), Dim("1", "HD // 2")))
    assert view_layout(half, (6, 256), (256, 1), {"st": 256, "HD": 64}) == ((6, 4, 32), (256, 64, 1))
    # two levels: groups of heads (stride G * HD) and heads inside them
    groups = View("q", (Dim("st", None), Dim("G", None), Dim("HD", None), Dim("1", None)))
    assert view_layout(groups, (3, 512), (512, 1), {"st": 512, "G": 128, "HD": 32}) == ((3, 4, 4, 32),
                                                                                       (512, 128, 32, 1))
    x = np.arange(6 * 768, dtype=np.float32).reshape(6, 768)[:, :256]
    v = as_view(x, *view_layout(view, x.shape, (768, 1), {"st": 768, "HD": 64}))
    t, h, d = np.meshgrid(range(6), range(4), range(64), indexing="ij")
    assert (v == x[t, h * 64 + d]).all()
    # refused at launch, saying why: a row that is not a whole number of heads, a head stride that is no multiple
    # of the split dimension's stride
    with pytest.raises(ViewError, match="not a whole number"):
        view_layout(view, (6, 250), (250, 1), {"st": 250, "HD": 64})
    # a flat [T * H * HD] tensor (the token stride no tensor dimension's, stepping inside its one dimension): each
    # inner level up to the next larger stride, the tokens the whole pieces left (round 24; it was refused, "steps
    # inside it too"), as round 22's two levels over a flat tensor; not a whole number of tokens: refused
    assert view_layout(view, (1536,), (1,), {"st": 256, "HD": 64}) == ((6, 4, 64), (256, 64, 1))
    with pytest.raises(ViewError, match="not a whole number"):
        view_layout(view, (1500,), (1,), {"st": 256, "HD": 64})
    with pytest.raises(ViewError, match="not a whole number"):
        view_layout(view, (6, 128), (1024, 2), {"st": 1024, "HD": 63})


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 8), st.sampled_from([2, 8, 64, 128]), st.integers(0, 3))
def test_head_split_views_address_what_triton_does(T, H, HD, extra):
    """For any [T, H * HD] slice of a [T, (H + extra) * HD] buffer, the split view's element (t, h, d) is the
    element Triton's `q + t * stride_t + h * HD + d` reads, and the view covers the slice's row (or more heads of
    it when the kernel is given the whole buffer)."""
    view = View("q", (Dim("st", None), Dim("HD", None), Dim("1", None)))
    row = (H + extra) * HD
    x = np.arange(T * row, dtype=np.float32).reshape(T, row)[:, :H * HD]
    shape, strides = view_layout(view, x.shape, (row, 1), {"st": row, "HD": HD})
    assert shape == (T, H, HD) and strides == (row, HD, 1)
    v = as_view(x, shape, strides)
    t, h, d = np.meshgrid(range(shape[0]), range(shape[1]), range(shape[2]), indexing="ij")
    assert (v == x.base.reshape(-1)[t * row + h * HD + d]).all()


def test_dot_without_accumulator_and_a_batch_offset_of_rows(tmp_path):
    """`qk = tl.dot(q, k)` of 16-bit tiles starts from an f32 zero tile (f32 operands, tf32 in Triton, are refused);
    `base = bh * seq * HEAD` on a pointer with a row run of stride HEAD stays its own dimension (not a tile index
    of the unit-stride run, whose extent is one row): index `bh`, stride `seq * HEAD` (one stride, a product of
    parameters)."""
    body = ("rows = tl.arange(0, B)\nbase = pid * n * B\nq = tl.load(x_ptr + base + rows[:, None] * B + rows[None, :])\n"
            "qk = tl.dot(q.to(tl.float16), tl.trans(q).to(tl.float16))\n"
            "tl.store(y_ptr + base + rows[:, None] * B + rows[None, :], qk)")
    src = _lowered(tmp_path, body)
    assert "ct.zeros((B, B), dtype=ct.float32)" in src and "index=(pid, 0, 0), shape=(1, B, B)" in src
    with pytest.raises(LoweringError, match="f32 operands at Triton's default precision"):
        _lowered(tmp_path, body.replace(".to(tl.float16)", ""))


def test_index_vector_widening_and_dot_options(tmp_path):
    src = _lowered(tmp_path, "o = pid * B + tl.arange(0, B).to(tl.int64)\nx = tl.load(x_ptr + o, mask=o < n)\n"
                             "tl.store(y_ptr + o, x, mask=o < n)")
    assert "ct.load(x_ptr, index=(pid,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)" in src
    mm = ("acc = tl.zeros((B, B), dtype=tl.float32)\na = tl.load(x_ptr + offs[:, None] * B + offs[None, :])\n"
          "acc += tl.dot(a.to(tl.float16), a.to(tl.float16), {opt})\ntl.store(y_ptr + offs[:, None] * B + "
          "offs[None, :], acc)")
    assert "ct.mma(" in _lowered(tmp_path, mm.format(opt="out_dtype=tl.float32, input_precision='tf32'"))
    # f32 operands: f32 products (input_precision="ieee" / allow_tf32=False) are ct.mma of the f32 tiles; tf32 is
    # refused (Triton's tf32 rounding is not ct.mma's)
    f32 = mm.replace("a.to(tl.float16)", "a")
    assert "ct.mma(a, a, acc)" in _lowered(tmp_path, f32.format(opt="input_precision='ieee'"))
    assert "ct.mma(a, a, acc)" in _lowered(tmp_path, f32.format(opt="allow_tf32=False"))
    assert "ct.mma(a, a, ct.zeros((B, B), dtype=ct.float32))" in _lowered(
        tmp_path, f32.replace("acc += tl.dot", "acc += 2 * tl.dot").format(opt="input_precision='ieee'"))
    with pytest.raises(LoweringError, match="tl.dot option input_precision"):
        _lowered(tmp_path, f32.format(opt="input_precision='tf32'"))
    # out_dtype=tl.float16 of f16 operands: an f16 accumulator (Triton's f16 mma); of f32 operands refused
    f16 = "c = tl.dot(a.to(tl.float16), a.to(tl.float16), out_dtype=tl.float16)\ntl.store(y_ptr + offs[:, None] * B " \
          "+ offs[None, :], c)"
    src = _lowered(tmp_path, "a = tl.load(x_ptr + offs[:, None] * B + offs[None, :])\n" + f16)
    assert "ct.zeros((B, B), dtype=ct.float16))" in src
    with pytest.raises(LoweringError, match="tl.dot option out_dtype=tl.float16"):
        _lowered(tmp_path, "a = tl.load(x_ptr + offs[:, None] * B + offs[None, :])\n" + f16.replace(
            ".to(tl.float16), a.to(tl.float16)", ", a"))
    # out_dtype=tl.int32 of int8 operands (the accumulator they take anyway); max_num_imprecise_acc=0 (the default)
    i8 = ("a = tl.load(x_ptr + offs[:, None] * B + offs[None, :]).to(tl.int8)\nc = tl.dot(a, a, out_dtype=tl.int32, "
          "max_num_imprecise_acc=0)\ntl.store(y_ptr + offs[:, None] * B + offs[None, :], c)")
    assert "ct.mma(a, a, ct.zeros((B, B), dtype=ct.int32))" in _lowered(tmp_path, i8)
    # a batched 3-D dot: [B, M, K] x [B, K, N] into a 3-D zero accumulator (cuTile's batched mma)
    bmm = ("r = tl.arange(0, 16)\na = tl.load(x_ptr + r[:, None, None] * 256 + r[None, :, None] * 16 + "
           "r[None, None, :]).to(tl.float16)\nc = tl.dot(a, a)\ntl.store(y_ptr + r[:, None, None] * 256 + "
           "r[None, :, None] * 16 + r[None, None, :], c)")
    assert "ct.mma(a, a, ct.zeros((16, 16, 16), dtype=ct.float32))" in _lowered(tmp_path, bmm)


def test_pointers_advanced_by_a_row_stride_in_a_loop(tmp_path):
    """`x_ptr += row_stride` once per iteration (rows walked by pointer increments): the row index follows the loop;
    a one-element pointer (`rstd_ptr += 1`) becomes one flat element offset."""
    src = _lowered(tmp_path, """
        x_ptr += pid * n
        for _ in range(0, 4):
            x = tl.load(x_ptr + tl.arange(0, B))
            v = tl.load(y_ptr)
            tl.store(x_ptr + tl.arange(0, B), x * v)
            x_ptr += n
            y_ptr += 1
    """)
    # x is updated in place inside the loop: tiles of its view at the row the loop follows (the port orders them)
    assert "for _it in range(4):" in src and "ct.load(x_ptr, index=(pid + _it, 0), shape=(1, B))" in src
    assert "ct.store(x_ptr, index=(pid + _it, 0), tile=" in src and "ct.gather" not in src
    assert "v = ct.load(y_ptr, index=(_it,), shape=(1,))" in src


def test_helpers_returning_inside_constexpr_ifs(tmp_path):
    """A helper that returns inside `if MODE == ..` arms (an activation switch) inlines the arm every launch takes;
    when the launches disagree, each return is an assignment in an `if` kept (a return inside a loop is refused,
    saying to capture each value apart). `p + row * 2 * n + n` is one more
    step of the stride n (the second half of a [rows, 2 * n] gate/up pair), not n elements."""
    helper = ("@triton.jit\ndef _act(v, M: tl.constexpr):\n    if M == 1:\n        return v * 2.0\n"
              "    elif M == 2:\n        return v * 3.0\n    return v\n")
    body = ("g = tl.load(x_ptr + pid * 2 * n + tl.arange(0, B))\nu = tl.load(x_ptr + pid * 2 * n + n + tl.arange(0, B))\n"
            "tl.store(y_ptr + pid * n + tl.arange(0, B), _act(g, MODE) * u)")
    src = _lowered(tmp_path, body, helper)
    assert "ct.store(y_ptr, index=(pid, 0), tile=ct.reshape(ct.astype((g * 2.0) * u" in src
    assert "u = ct.reshape(ct.load(x_ptr, index=((pid * 2) + 1, 0), shape=(1, B)), (B,))" in src
    facts = {"constants": {"B": [128, 128], "MODE": [1, 2]}, "dtypes": FACTS["dtypes"]}
    src = _lowered(tmp_path, body, helper, facts=facts)   # launches disagreeing: the returns become assignments
    assert "if MODE == 1:\n        act1_ret_ = g * 2.0\n    else:\n        act1_ret_ = g * 3.0" in src
    loop = helper.replace("    return v\n", "    for i in range(2):\n        return v\n")
    with pytest.raises(LoweringError, match="returns inside an `if` the captured launches do not all decide alike"):
        _lowered(tmp_path, body, loop, facts=facts)


def test_loop_bounds_loaded_from_cu_seqlens(tmp_path):
    """`start = tl.load(cu + seq)`, `end = tl.load(cu + seq + 1)` (scalar terms of one stride are one index), then
    `for t in range(start, end)`: the loaded int32 values as scalars (`.item()`)."""
    facts = {"constants": FACTS["constants"], "dtypes": {"x_ptr": {"ct.float32"}, "y_ptr": {"ct.int32"}}}
    src = _lowered(tmp_path, """
        start = tl.load(y_ptr + pid)
        end = tl.load(y_ptr + pid + 1)
        acc = tl.zeros((B,), dtype=tl.float32)
        for t in range(start, end):
            acc += tl.load(x_ptr + t * B + tl.arange(0, B))
        tl.store(x_ptr + pid * B + tl.arange(0, B), acc)
    """, facts=facts)
    assert "end = ct.load(y_ptr, index=(pid + 1,), shape=(1,))" in src
    assert "for t in range(start.item(), end.item()):" in src


def test_a_counted_while_is_the_for_it_counts(tmp_path):
    """`while i < n: ...; i += tl.num_programs(0)` is `for i_it in range(i, n, step)` (its own index name);
    a `while` that does not count so, or whose counter is read after it, is cuTile Python's `while` (its counter a
    variable of the lowered kernel)."""
    body = ("row = pid\nstep = tl.num_programs(0)\nwhile row < n:\n    x = tl.load(x_ptr + row * B + tl.arange(0, B))\n"
            "    tl.store(y_ptr + row * B + tl.arange(0, B), x)\n    row += step")
    src = _lowered(tmp_path, body)
    assert "for row_it in range(pid, n, step):" in src and "ct.load(x_ptr, index=(row_it,), shape=(B,))" in src
    for other in (body.replace("row += step", "row += n"), body + "\ntl.store(y_ptr + row, 1.0)",
                  body.replace("while row < n:", "while row != n:")):
        src = _lowered(tmp_path, other)
        assert "    row = pid\n    while row " in src and "ct.load(x_ptr, index=(row,), shape=(B,))" in src
        assert "        row = row + " in src


@pytest.mark.parametrize("body, helpers, why", [
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, libdevice.erfc(x))", "", "cuTile Python 1.7 has no erfc"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, libdevice.atan(x))", "", "cuTile Python 1.7 has no atan"),
    # (round 11: any @triton.jit combine is a tree of adjacent pairs, Triton requiring it associative)
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + pid, tl.reduce(x, 0, tl.maximum))", "",
     "combine_fn must be a @triton.jit function"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x.to(tl.float16, fp_downcast_rounding='rtp'))", "",
     "only round-to-nearest-even"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.clamp(x, 0.0, 1.0, propagate_nan=tl.PropagateNan.FOO))",
     "", "tl.clamp option propagate_nan"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.rand(7, offs, n_rounds=0))", "", "n_rounds=0"),
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.exp(x, foo=1))", "", "tl.exp option foo=1"),
    # round 5: a tuple reduce is an arg-max only with the least index winning ties (`i1 > i2` is not; nor a combine
    # keeping the first pair on equal values: the result then depends on the tree's order); a tuple scan whose
    # outputs mix the pairs (a linear recurrence) is not component-wise
    ("x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.where(x > 0, x, 18446744073709551616))", "",
     "integer literal 18446744073709551616 does not fit int64"),
    ("m = n\nfor i in range(m, 0, -1):\n    m = i\ntl.store(y_ptr + offs, tl.load(x_ptr + offs))", "",
     "a loop counting down whose bounds read m, which its body re-assigns"),
    ("a, b = tl.broadcast(tl.load(x_ptr + offs), tl.zeros((B, 2), dtype=tl.float32))\ntl.store(y_ptr + offs, a)", "",
     "tl.broadcast of shapes"),
])
def test_idioms_without_an_exact_lowering_are_refused(tmp_path, body, helpers, why):
    with pytest.raises(LoweringError, match=why) as exc:
        _lowered(tmp_path, body, helpers)
    assert str(exc.value).startswith(f"{tmp_path / 'm.py'}:")


def test_row_masks_and_pointers_advanced_in_a_loop(tmp_path):
    """`mask[:, None]` expands a row mask; `p += BLOCK * stride` in a loop moves the tile index with the loop and
    the mask on the vector it started from (`k < n - i * B`) becomes the view's extent (n)."""
    src = _lowered(tmp_path, """
        rows = pid * B + tl.arange(0, B)
        cols = tl.arange(0, B)
        rmask = rows < n
        p = x_ptr + rows[:, None] * n + cols[None, :]
        acc = tl.zeros((B, B), dtype=tl.float32)
        for i in range(0, tl.cdiv(n, B)):
            acc += tl.load(p, mask=rmask[:, None] & (cols[None, :] < n - i * B), other=0.0)
            p += B
        tl.store(y_ptr + rows[:, None] * n + cols[None, :], acc, mask=rmask[:, None] & (cols[None, :] < n))""")
    assert "ct.load(x_ptr, index=(pid, i), shape=(B, B), padding_mode=ct.PaddingMode.ZERO)" in src


def test_constexpr_branch_launches_disagree_on_is_kept(tmp_path):
    facts = {"constants": {"B": [128, 128], "MODE": [1, 2]}, "dtypes": {}}
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\nif MODE == 1:\n    x = x * 3.0\ntl.store(y_ptr + offs, x)",
                   facts=facts)
    assert "if MODE == 1:" in src


def test_view_extents_may_be_expressions_of_parameters():
    view = View("x", (Dim("s", "n // 2"), Dim("1", "n - 2 * h")))
    assert view_layout(view, (8, 20), (20, 1), {"s": 20, "n": 16, "h": 3}) == ((8, 10), (20, 1))
    with pytest.raises(ViewError, match="does not pass 'h'"):
        view_layout(view, (8, 20), (20, 1), {"s": 20, "n": 16})


def test_a_string_constexpr_used_as_a_value_is_refused(tmp_path):
    f = tmp_path / "m.py"
    f.write_text(MODULE.replace("{helpers}", "").replace(
        "{body}", "x = tl.load(x_ptr + offs)\n    if MODE == n:\n        x = x * 2.0\n    tl.store(y_ptr + offs, x)"))
    with pytest.raises(LoweringError, match=r"MODE \(a string constexpr\) is used in the kernel beyond"):
        lower(find_kernel(f, "k"), IKINDS, {"MODE": "str"}, facts={"constants": {"MODE": ["gelu"], "B": [64]}})


def test_a_string_constexpr_the_launches_disagree_on_becomes_a_code(tmp_path):
    """`if ACT == "relu2": .. elif ACT == "gelu": ..` launched with both values in one capture: the `if` stays and
    ACT becomes an int constexpr (each value its code, sorted); a launch record passes the code."""
    from tileport.frontends.triton.capture import lowered_launch

    f = tmp_path / "m.py"
    f.write_text(MODULE.replace("{helpers}", "").replace(
        "{body}", "x = tl.load(x_ptr + offs)\n    if MODE == 'relu2':\n        x = tl.maximum(x, 0.0) * x\n"
                  "    elif MODE == 'gelu':\n        x = x * 0.5\n    tl.store(y_ptr + offs, x)"))
    low = lower(find_kernel(f, "k"), IKINDS, {"MODE": "str"},
                facts={"constants": {"MODE": ["relu2", "gelu", "relu2"], "B": [64, 64, 64]}})
    assert "MODE: ct.Constant[int]" in low.source and "if MODE == 1:" in low.source and "'relu2'" not in low.source
    (p,) = [p for p in low.report()["params"] if p["name"] == "MODE"]
    assert p["codes"] == {"gelu": 0, "relu2": 1}
    arr = {"kind": "array", "dtype": "f32", "shape": [256], "strides": [1], "data_ptr_mod_16": 0}
    launch = {"kernel": f"{f}::k", "grid": [2, 1, 1], "args": [dict(arr, name="x_ptr"), dict(arr, name="y_ptr"),
                                          {"name": "n", "kind": "scalar", "dtype": "i32", "value": 256},
                                          {"name": "s", "kind": "scalar", "dtype": "f32", "value": 1.0},
                                          {"name": "B", "kind": "constant", "value": 64},
                                          {"name": "MODE", "kind": "constant", "value": "gelu"}]}
    rec = lowered_launch(launch, low.report(), f"{tmp_path}/lowered.py::k")
    assert {a["name"]: a for a in rec["args"]}["MODE"]["value"] == 0 and "MODE=#0" in rec["signature"]


def test_round4_idioms_lower(tmp_path):
    """Round 4's lowering gaps: a helper returning in `if`s the launches decide differently (its returns become
    assignments), `tl.arange(LO, HI)`, a pointer minus a loop index (`DEG - i`, no negation: cutile compiles none),
    `libdevice.pow` of float scalars (an f32 0-d tile)."""
    helper = ("@triton.jit\ndef _act(v, M: tl.constexpr):\n    if M == 1:\n        return v * 2.0\n"
              "    elif M == 2:\n        return v * 3.0\n    return v\n")
    facts = {"constants": {"B": [128, 128], "MODE": [1, 2]}, "dtypes": FACTS["dtypes"]}
    src = _lowered(tmp_path, "tl.store(y_ptr + offs, _act(tl.load(x_ptr + offs), MODE))", helper, facts=facts)
    assert "if MODE == 1:\n        act1_ret_ = x" not in src and "act1_ret_ = " in src and "if MODE == 1:" in src
    assert "else:\n        act1_ret_ = " in src
    src = _lowered(tmp_path, "i = tl.arange(B, 2 * B)\ntl.store(y_ptr + i - B, tl.load(x_ptr + i))")
    assert "ct.load(x_ptr, index=(1,), shape=((2 * B) - B,))" in src   # block 1 of a run of B
    src = _lowered(tmp_path, "acc = tl.zeros((B,), tl.float32)\nfor i in tl.static_range(3):\n"
                             "    acc += tl.load(x_ptr + B - i)\ntl.store(y_ptr + offs, acc)")
    assert "B - i" in src and "(-i)" not in src
    src = _lowered(tmp_path, "tl.store(y_ptr + offs, tl.load(x_ptr + offs) / (1 - libdevice.pow(s, s)))")
    assert "ct.pow(ct.full((), s, dtype=ct.float32), s)" in src
    src = _lowered(tmp_path, "tl.store(y_ptr + offs, tl.load(x_ptr + offs).to(tl.float16, fp_downcast_rounding='rtz'))")
    assert "ct.float16, rounding_mode=ct.RoundingMode.RZ)" in src


def test_tensor_descriptors_lower_to_tiles_of_their_views(tmp_path):
    """A TensorDescriptor parameter is an array whose view is the descriptor's shape and strides; its block shape
    is named by the constexpr with its values at every launch; `desc.load/store([off])` at whole-block offsets are
    tile loads/stores; tl.make_tensor_descriptor works alike; `.dtype` / `.type.block_type.element_ty` is its
    element type."""
    block = {"block_shape": [128], "padding": "zero"}
    facts = FACTS | {"descriptors": {"x_ptr": [block, block], "y_ptr": [block, block]}}
    src = _lowered(tmp_path, """
        start = pid * B
        x = x_ptr.load([start]).reshape((1, B))
        y_ptr.store([pid * B], x.reshape(B).to(y_ptr.type.block_type.element_ty) * 2)
    """, facts=facts)
    assert "ct.load(x_ptr, index=(pid,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)" in src
    assert "ct.store(y_ptr, index=(pid,), tile=" in src and "ct.reshape(x, (B,))" in src
    made = _lowered(tmp_path, """
        d = tl.make_tensor_descriptor(x_ptr, shape=[n], strides=[1], block_shape=[B])
        tl.store(y_ptr + offs, d.load([pid * B]) + 1.0)
    """)
    assert "ct.load(x_ptr, index=(pid,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)" in made
    # an offset that is not whole blocks: the descriptor's elements gathered (out of bounds: 0, as TMA pads)
    odd = _lowered(tmp_path, "x = x_ptr.load([pid * 3])\ny_ptr.store([pid * n], x)", facts=facts)
    assert "ct.gather(x_ptr, ((pid * 3) + ct.arange(B, dtype=ct.int32),))" in odd
    assert "ct.scatter(y_ptr, ((pid * n) + ct.arange(B, dtype=ct.int32),), " in odd


def test_descriptor_arguments_are_captured_with_their_block_shape():
    from tileport.frontends.triton.capture import describe
    from tileport.frontends.triton.views import descriptor_values

    class Desc:   # the fields of triton.tools.tensor_descriptor.TensorDescriptor
        def __init__(self, base, shape, strides, block_shape):
            self.base, self.shape, self.strides, self.block_shape = base, shape, strides, block_shape

    base = np.zeros((64, 32), np.float16)
    (d,) = describe(["X"], set(), {"X": Desc(base, [64, 32], [32, 1], [16, 32])})
    assert (d["kind"], d["dtype"], d["shape"], d["strides"]) == ("array", "f16", [64, 32], [32, 1])
    assert d["descriptor"] == {"block_shape": [16, 32], "padding": "zero"}
    assert descriptor_values("X", d["shape"], d["strides"]) == {"X__shape_0": 64, "X__stride_0": 32,
                                                                "X__shape_1": 32, "X__stride_1": 1}


def test_occupancy_follows_the_launches_num_warps_when_no_hint_is_given():
    from tileport.pipeline.triton import derived_hints

    launch = lambda w: {"options": {"num_warps": w}} if w else {"options": {}}  # noqa: E731
    assert derived_hints([launch(8), launch(8)]) == {"occupancy": 8}
    assert derived_hints([launch(2)]) == {"occupancy": 8}          # 32 CTAs' worth of warps: capped at 8
    assert derived_hints([launch(16)]) == {"occupancy": 4}
    assert derived_hints([launch(8), launch(32)]) == {"occupancy": 2}   # the fewest any launch allows
    assert derived_hints([launch(None), launch(32)]) == {"occupancy": 2}  # (no num_warps: Triton's 4)
    assert derived_hints([launch(None)]) == {}


def test_derived_occupancy_skips_matrix_product_kernels(idiom_launches):
    """With no hint, a kernel whose launches state num_warps gets the occupancy they allow — except one that
    multiplies matrices (its accumulators need the registers: measured slower on the H200)."""
    from tileport.pipeline.triton import lower_from_launches

    def lowered(kernel: str, warps: int = 4) -> str:
        launches = [dict(l, options={"num_warps": warps}) for l in idiom_launches
                    if l["kernel"].endswith(f"::{kernel}")]
        return lower_from_launches(f"{IDIOMS}::{kernel}", launches).source

    assert "@ct.kernel(occupancy=8)" in lowered("idiom_scale")
    assert "occupancy" not in lowered("idiom_mm") and "allow_tma" not in lowered("idiom_mm")
    # Triton's tl.dot on 8 warps: cuTile's worker warps likewise (its default 4 spill a 128x256 accumulator)
    assert "@ct.kernel(num_worker_warps=8)" in lowered("idiom_mm", warps=8)
    assert "@ct.kernel\n" in lowered("idiom_mm", warps=4)


def test_chosen_hints_merge_over_the_derived_ones(idiom_launches):
    """A hints file's entry (`tileport corpus port --hints`) is merged over what the lowering derives: a row kernel
    keeps its derived occupancy unless the entry sets one, a matrix-product kernel its derived warps."""
    from tileport.pipeline.triton import lower_from_launches

    def lowered(kernel: str, chosen: dict, warps: int = 8) -> str:
        launches = [dict(l, options={"num_warps": warps}) for l in idiom_launches
                    if l["kernel"].endswith(f"::{kernel}")]
        return lower_from_launches(f"{IDIOMS}::{kernel}", launches, None, {"hints": chosen}).source

    src = lowered("idiom_scale", {"plain_loads": 1, "plain_stores": 1})
    assert "@ct.kernel(occupancy=8)" in src and "allow_tma=False" in src
    assert "@ct.kernel(occupancy=2, num_worker_warps=8)" in lowered("idiom_scale", {"occupancy": 2,
                                                                                    "num_worker_warps": 8})
    assert "@ct.kernel(num_worker_warps=8, occupancy=2)" in lowered("idiom_mm", {"occupancy": 2})


def test_per_launch_hints_are_their_launches_own_variants(idiom_launches, tmp_path):
    """A hints file's `launches` rule gives the launches whose constexprs match it other kernel options: the
    lowering report keeps the rule, the launch record names every hint it compiles with (its own variant, proven at
    them as a cuTile `replace_hints` launch is), and the runtime launches the lowered kernel's `replace_hints` copy."""
    from tileport.errors import InputError
    from tileport.frontends.cutile_py.hints import kernel_hints, launched_override
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.pipeline.triton import _lower
    from tileport.runtime.triton_port import PortedKernel

    base = next(l for l in idiom_launches if l["kernel"].endswith("::idiom_scale"))
    other = dict(base, args=[dict(d, value=512) if d["name"] == "BLOCK" else d for d in base["args"]])
    ref = f"{IDIOMS}::idiom_scale"
    entry = {"hints": {"plain_stores": 1}, "launches": [{"when": {"BLOCK": [512, 1024]}, "hints": {"occupancy": 2}}]}
    lowered, lowered_ref, _, records = _lower(ref, [], [base, other], tmp_path, lambda s: None, None, entry)
    assert "allow_tma=False" in lowered.source
    assert json.loads((tmp_path / "lowered.json").read_text())["launch_hints"] == entry["launches"]
    decorator = kernel_hints(load_kernel(lowered_ref).kernel)
    assert "hints" not in records[0]
    assert launched_override(decorator, records[1]["hints"], "k") == {"occupancy": 2}

    pk = object.__new__(PortedKernel)
    pk.__dict__.update(report=lowered.report(), constexprs={"BLOCK"}, _kernel=None, _at_hints={},
                       lowered_path=tmp_path / "lowered.py", name="idiom_scale")
    assert pk.kernel_for({"BLOCK": 256}) is pk.kernel
    assert kernel_hints(pk.kernel_for({"BLOCK": 512}))["occupancy"] == 2
    assert pk.kernel_for({"BLOCK": 512}) is pk.kernel_for({"BLOCK": 512})   # one copy per options

    with pytest.raises(InputError, match="`when` names BLOK, not a constexpr parameter of its launches \\(BLOCK\\)"):
        _lower(ref, [], [base], tmp_path, lambda s: None, None, {"launches": [{"when": {"BLOK": 1}, "hints": {}}]})
    with pytest.raises(InputError, match="matches none of its 1 captured launches"):
        _lower(ref, [], [base], tmp_path, lambda s: None, None,
               {"launches": [{"when": {"BLOCK": 64}, "hints": {"occupancy": 2}}]})


def test_a_hints_file_names_triton_kernels_of_the_captures():
    """Every entry of a hints file names a captured Triton kernel by FILE::KERNEL, or the port is refused before
    anything is lowered (a misspelt entry would otherwise be silently ignored)."""
    from tileport.corpus.hints import check_named
    from tileport.errors import InputError

    kernels = {"a/05-layer-norm.py::fwd": "triton", "ops/k.py::cut": "cutile"}
    check_named({"a/05-layer-norm.py::fwd": {"occupancy": 2}}, kernels)
    with pytest.raises(InputError, match=r"05-layer-norm.py::fwd: no kernel of the captures is named so \(did you mean a/05-layer-norm.py::fwd\?"):
        check_named({"05-layer-norm.py::fwd": {"occupancy": 2}}, kernels)
    with pytest.raises(InputError, match="ops/k.py::cut is a cuTile kernel"):
        check_named({"ops/k.py::cut": {"occupancy": 2}}, kernels)


# ---------------------------------------------------------------- the attention / persistent-matmul tutorials' idioms

FACTS2 = {"constants": {"B": [128, 128], "MODE": [1, 2]}, "dtypes": FACTS["dtypes"]}


def test_constexpr_if_decided_differently_lowers_each_arm_for_its_launches(tmp_path):
    """`if STAGE == 1: lo, hi = 0, x else: lo, hi = 0, y` with launches of both values: the `if` stays (cuTile folds
    it per specialization), each arm is lowered for the launches taking it; `lo` is 0 in both arms, so it stays the
    literal (a loop bound, an advance by 0), `hi` becomes a variable assigned in each arm."""
    src = _lowered(tmp_path, """
        if MODE == 1:
            lo, hi = 0, n
        else:
            lo, hi = 0, pid * B
        acc = tl.zeros((B,), dtype=tl.float32)
        for j in range(lo, hi, B):
            acc += tl.load(x_ptr + j + tl.arange(0, B))
        tl.store(y_ptr + offs, acc)
    """, facts=FACTS2)
    assert "    if MODE == 1:\n        hi = n\n    else:\n        hi = pid * B\n" in src
    assert "for j in range(0, hi, B):" in src and "index=(j // B,)" in src


def test_pointer_dtype_comparisons_fold_on_the_launches_dtypes(tmp_path):
    body = """
        if x_ptr.dtype.element_ty == tl.float16:
            tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 2.0)
        elif y_ptr.type.element_ty != tl.float32:
            tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 3.0)
        else:
            tl.store(y_ptr + offs, tl.load(x_ptr + offs))
    """
    f16 = {"constants": FACTS["constants"], "dtypes": {"x_ptr": {"ct.float16"}, "y_ptr": {"ct.float32"}}}
    assert "* 2.0" in _lowered(tmp_path, body, facts=f16)
    src = _lowered(tmp_path, body)
    assert "* 2.0" not in src and "* 3.0" not in src
    mixed = {"constants": FACTS["constants"], "dtypes": {"x_ptr": {"ct.float16", "ct.float32"}, "y_ptr": {"ct.float32"}}}
    with pytest.raises(LoweringError, match="arrays of different dtypes"):
        _lowered(tmp_path, "t = x_ptr.dtype.element_ty == tl.float16", facts=mixed)


def test_advance_by_whole_blocks_outside_a_loop(tmp_path):
    """`p = tl.advance(p, (pid * B, 0))` on a block of B // 2 rows: B // 2 divides B at every launch, so the tile
    index moves by pid * (B // (B // 2)); an advance by a runtime amount is refused."""
    body = """
        p = tl.make_block_ptr(x_ptr, shape=(n, B), strides=(B, 1), offsets=(0, 0), block_shape=(B // 2, B), order=(1, 0))
        q = tl.make_block_ptr(y_ptr, shape=(n, B), strides=(B, 1), offsets=(0, 0), block_shape=(B // 2, B), order=(1, 0))
        p = tl.advance(p, (pid * B, 0))
        tl.store(q, tl.load(p))
    """
    assert "index=(pid * (B // (B // 2)), 0)" in _lowered(tmp_path, body)
    # by a runtime amount (round 13; was refused): the block's elements gathered at their element offsets
    assert "ct.gather(x_ptr, (ct.reshape(n + ct.arange(B // 2, dtype=ct.int32), (B // 2, 1))" in \
        _lowered(tmp_path, body.replace("(pid * B, 0)", "(n, 0)"))


def test_pointer_loop_with_a_constexpr_step_and_literal_booleans(tmp_path):
    """`for i in range(0, n, 2)` advancing a pointer by one block per iteration: the tile index is `i // 2`
    iterations on; `MASK=True` given to a helper folds its `if MASK:`."""
    helper = ("@triton.jit\ndef _scaled(v, MASK: tl.constexpr):\n    if MASK:\n        v = v * 2.0\n    return v\n")
    src = _lowered(tmp_path, """
        p = x_ptr + offs
        acc = tl.zeros((B,), dtype=tl.float32)
        for i in range(0, n, 2):
            acc += tl.load(p)
            p += B
        tl.store(y_ptr + offs, _scaled(acc, MASK=True))
    """, helper)
    assert "index=(pid + (i // 2),)" in src and "* 2.0" in src


def test_strides_that_are_products_and_sums_of_parameters(tmp_path):
    """`x + (pid // 4) * n + (pid % 4) * s2 + tl.arange(0, B)` written through one scalar: a dimension per stride;
    `pid * n * B` (index times a product of parameters) one dimension of stride `n * B`."""
    kinds = IKINDS | {"s": "scalar"}
    f = tmp_path / "m.py"
    f.write_text(MODULE.replace("{helpers}", "").replace("{body}", "base = (pid // 4) * n + (pid % 4) * s\n"
                 "    tl.store(y_ptr + base + tl.arange(0, B), tl.load(x_ptr + pid * n * B + tl.arange(0, B)))"))
    src = lower(find_kernel(f, "k"), kinds, {"s": "int"}, facts=FACTS).source
    assert "ct.store(y_ptr, index=(pid // 4, pid % 4, 0)" in src
    assert "ct.load(x_ptr, index=(pid, 0), shape=(1, B))" in src


def test_tile_index_of_a_block_that_divides_the_offset(tmp_path):
    """`pid * B + tl.arange(0, B // 2)`: pid * B is a whole number of B // 2 blocks (the backward attention's
    `start_n + tl.arange(0, BLOCK_M1)`)."""
    src = _lowered(tmp_path, "o = pid * B + tl.arange(0, B // 2)\ntl.store(y_ptr + o, tl.load(x_ptr + o))")
    assert "ct.load(x_ptr, index=(pid * (B // (B // 2)),), shape=(B // 2,))" in src


def test_one_pointer_read_in_two_axis_orders_is_one_view(tmp_path):
    """`xT = tl.load(x + c[:, None] + r[None, :] * n)` then `x = tl.load(x + r[:, None] * n + c[None, :])`: the view
    the first access made, the second tile transposed (Triton's backward attention reads Q both ways)."""
    src = _lowered(tmp_path, """
        r = tl.arange(0, B)
        xt = tl.load(x_ptr + r[:, None] + r[None, :] * n)
        x = tl.load(x_ptr + r[:, None] * n + r[None, :])
        tl.store(y_ptr + r[:, None] * n + r[None, :], x + tl.trans(xt))
    """)
    assert "x = ct.transpose(ct.reshape(ct.load(x_ptr, index=(0, 0), shape=(B, B))" in src


def test_where_of_an_int_and_a_float_literal_is_f32(tmp_path):
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x + tl.where(offs < n, 0, -1.0e6))")
    assert ", 0.0, -1000000.0)" in src


def test_tuple_unpacking_reads_the_values_before_it_binds(tmp_path):
    """`t, u = t + 1, t * 2` with t a loop variable: u reads the old t (a temporary is written first)."""
    src = _lowered(tmp_path, """
        t = pid
        u = pid
        for i in range(4):
            t, u = t + 1, t * 2
        tl.store(y_ptr + offs, tl.load(x_ptr + offs) * u)
    """)
    assert "u__next = t * 2\n" in src and src.index("u__next = t * 2") < src.index("t = t + 1")


def test_offsets_held_in_variables_are_whole_blocks_when_every_value_is(tmp_path):
    """A block pointer's offset kept in a variable re-assigned in a loop (`off = pid * B` under an `if`, the
    persistent matmul's `offs_am`) is `off // B` when every value the lowered kernel assigns it is a whole number
    of blocks; with one value that is not, the kernel is lowered again without that claim (a block pointer then
    gathers its block's elements, as a descriptor does: round 13; it was refused)."""
    body = """
        off = 0
        for i in range(4):
            if i == n:
                off = pid * B
            p = tl.make_block_ptr(x_ptr, shape=(n,), strides=(1,), offsets=(off,), block_shape=(B,), order=(0,))
            tl.store(y_ptr + offs, tl.load(p))
    """
    assert "index=((off // B),)" in _lowered(tmp_path, body)
    assert "ct.gather(x_ptr, (off + ct.arange(B, dtype=ct.int32),))" in \
        _lowered(tmp_path, body.replace("off = pid * B", "off = n"))


def test_triton_3_3_descriptor_buffers_are_refused_saying_why(tmp_path):
    with pytest.raises(LoweringError, match="host-filled TMA descriptor buffer"):
        _lowered(tmp_path, "x = tl._experimental_descriptor_load(x_ptr, [pid * B], [B], tl.float32)")


def test_a_spin_lock_while_and_the_other_atomics(tmp_path):
    """`while tl.atomic_cas(lock, 0, 1) == 1: pass` is cuTile Python's `while` on the old value (the test runs
    before each iteration, as Triton's); tl.atomic_xchg / atomic_max / ... are the ct. atomics of the same name;
    an array both atomics and tile loads reach is gathered at every access (one token chain for it)."""
    src = _lowered(tmp_path, """
        lock = y_ptr + pid % 4
        while tl.atomic_cas(lock, 0, 1) == 1:
            pass
        count = tl.load(lock + 4)
        tl.atomic_max(x_ptr + offs, tl.load(x_ptr + offs) * 2, mask=offs < n)
        tl.atomic_xchg(lock, 0, sem="release")
    """, facts={"constants": FACTS["constants"], "dtypes": {"x_ptr": {"ct.int32"}, "y_ptr": {"ct.int32"}}})
    assert "    while ct.reshape(ct.where((ct.atomic_cas(y_ptr, pid % 4, ct.full((), 0, dtype=y_ptr.dtype), " in src
    assert "count = ct.gather(y_ptr, (pid % 4) + 4, padding_value=0)" in src
    assert "ct.atomic_max(x_ptr, ct.where(" in src and "x_ptr = " not in src
    assert "ct.atomic_xchg(y_ptr, pid % 4, ct.full((), 0, dtype=y_ptr.dtype), memory_order=ct.MemoryOrder.RELEASE)" \
        in src
    # a `while` on a loaded value, its body re-binding a scalar
    src = _lowered(tmp_path, """
        i = 0
        while tl.load(x_ptr + i) > 0.0:
            i += 1
        tl.store(y_ptr + offs, tl.load(x_ptr + offs) * i)
    """)
    assert "    while (ct.reshape(ct.load(x_ptr, index=(i,), shape=(1,)), ())) > 0.0:\n        i = i + 1\n" in src


def test_dtype_locals_fold_and_tile_shapes_are_read(tmp_path):
    """`dtype = tl.float16 if MODE == 1 else tl.float32` then `if dtype == tl.float16:` folds (only the taken
    branch is lowered); `acc.shape[0]` is the tile's extent."""
    src = _lowered(tmp_path, """
        dtype = tl.float16 if MODE == 1 else tl.float32
        x = tl.load(x_ptr + offs)
        if dtype == tl.float16:
            x = x * 2.0
        else:
            x = x * 3.0
        BN: tl.constexpr = x.shape[0]
        tl.store(y_ptr + offs, x.to(dtype) + BN)
    """)
    assert "* 2.0" in src and "* 3.0" not in src and "if " not in src.split("pid = ct.bid(0)")[1]
    assert "ct.astype(x, ct.float16) + B" in src


def test_a_name_bound_in_one_arm_of_a_constexpr_if_is_usable_under_the_same_test(tmp_path):
    """`if MODE == 1: extra = ..` then later `if MODE == 1: use(extra)`, with launches of MODE 1 and 2: the name
    keeps what the arm bound it to (cuTile folds both ifs per specialization)."""
    src = _lowered(tmp_path, """
        x = tl.load(x_ptr + offs)
        if MODE == 1:
            extra = x * 2.0
        if MODE == 1:
            x = x + extra
        tl.store(y_ptr + offs, x)
    """, facts=FACTS2)
    assert "    if MODE == 1:\n        extra = x * 2.0\n" in src and "        x = x + extra\n" in src


def test_swizzle2d_ravel_view_and_associative_scan(tmp_path):
    helper = "@triton.jit\ndef _add(a, b):\n    return a + b\n"
    src = _lowered(tmp_path, """
        pm, pn = tl.swizzle2d(pid, 1, n, 4, 8)
        x = tl.load(x_ptr + offs)
        y = tl.associative_scan(x, 0, _add)
        z = tl.ravel(tl.view(y, (2, B // 2)))
        tl.store(y_ptr + offs, z * pm + pn)
    """, helper)
    assert "ct.cumsum(x, axis=0)" in src and "ct.reshape(ct.reshape(y, (2, B // 2)), (2 * (B // 2),))" in src
    # Triton's definition, its parts bound to names (round 5: inlined, a GEMM's tile indices nested too deep to port)
    assert "swz_ij1 = pid * 4 + 1\n" in src and "swz_off2 = (swz_ij1 // (8 * 4)) * 8\n" in src
    assert "swz_g3 = min(n - swz_off2, 8)\n" in src and "swz_i4 = swz_off2 + (swz_ij1 % (8 * 4)) % swz_g3\n" in src
    assert "swz_j5 = (swz_ij1 % (8 * 4)) // swz_g3\n" in src and "(z * swz_i4) + swz_j5" in src


def test_loops_counting_down_count_up(tmp_path):
    """`for t in range(a, b, -s)` (cuTile Python's steps are positive): a count of `(a - b + s - 1) // s` steps
    (Python's floor division: none when a <= b) and `t = a - t_rev * s`, a read once before the loop."""
    src = _lowered(tmp_path, """
        acc = tl.zeros((B,), dtype=tl.float32)
        for t in range(n - 1, -1, -B):
            acc += tl.load(x_ptr + t + tl.arange(0, B))
        tl.store(y_ptr + offs, acc)
    """)
    assert "    t_rev_first1 = n - 1\n    for t_rev in range((t_rev_first1 - (-1) + B - 1) // B):\n" \
           "        t = t_rev_first1 - (t_rev * B)\n" in src


def test_minimum_and_maximum_of_scalars_are_scalars(tmp_path):
    """`hi = tl.minimum((pid + 1) * B, n) if MODE == 1 else n` (a causal loop bound) with launches of both modes:
    `tl.minimum` of two scalars is Python's `min` (a scalar, as in Triton), so the conditional expression is one of
    scalars and stays one; `tl.maximum` likewise."""
    src = _lowered(tmp_path, """
        hi = tl.minimum((pid + 1) * B, n) if MODE == 1 else n
        lo = tl.maximum(pid - 1, 0)
        acc = tl.zeros((B,), dtype=tl.float32)
        for j in range(lo * B, hi, B):
            acc += tl.load(x_ptr + j + tl.arange(0, B))
        tl.store(y_ptr + offs, acc)
    """, facts=FACTS2)
    assert "min((pid + 1) * B, n) if MODE == 1 else n" in src and "max(pid - 1, 0)" in src


def test_a_mask_narrowed_in_one_arm_of_a_constexpr_if_is_a_tile_after_it(tmp_path):
    """`valid = cols < n` then `if MODE == 1: valid = valid & (rows >= cols)` with launches of both modes (causal
    attention's mask): after the `if`, `valid` is a boolean tile bound in each arm, the arm that kept the plain mask
    broadcasting it to the narrowed one's shape, and `tl.where(valid, ..)` reads it."""
    src = _lowered(tmp_path, """
        rows = pid * B + tl.arange(0, B)
        cols = tl.arange(0, B)
        valid = cols[None, :] < n
        if MODE == 1:
            valid = valid & (rows[:, None] >= cols[None, :])
        x = tl.load(x_ptr + rows[:, None] * B + cols[None, :])
        x = tl.where(valid, x, float("-inf"))
        tl.store(y_ptr + rows[:, None] * B + cols[None, :], x)
    """, facts=FACTS2)
    assert "    else:\n        valid = ct.broadcast_to(" in src and ", (B, B))" in src
    assert "valid = valid\n" not in src and "ct.where(valid, " in src


@pytest.mark.parametrize("mask", ["offs > n", "offs < pid", "offs < tl.load(y_ptr)"])
def test_masks_that_are_no_view_bound_gather_with_the_mask(tmp_path, mask):
    """A mask that bounds no view — a comparison the other way round, a bound computed in the kernel or loaded
    (`n < seq_len`, seq_len read from memory: a decode kernel's KV length) — makes every access of that array a
    gather / scatter with the mask (the masked-off lanes neither read nor written, as in Triton)."""
    src = _lower(tmp_path, f"x = tl.load(x_ptr + offs, mask={mask}, other=0.0)\n"
                           f"tl.store(x_ptr + offs, x * 2.0, mask={mask})").source
    assert "ct.gather(x_ptr, " in src and "ct.scatter(x_ptr, " in src and src.count("mask=") == 2


IFACTS = {"constants": {"B": [128, 128], "MODE": [1, 1]}, "dtypes": {"x_ptr": {"ct.int32"}, "y_ptr": {"ct.int32"}}}


def test_integer_division_of_signed_tiles_truncates_as_triton(tmp_path):
    """Triton's integer `//` and `%` are C's (quotient toward zero, remainder with the dividend's sign); cuTile's are
    Python's (floor). On a loaded signed tile the lowering writes Triton's (one more where the remainder is not 0
    and the signs differ); on index arithmetic (>= 0) over a divisor > 0 the two agree and stay plain. A divisor
    >= 0 by its form (a size argument `n`, round 6: a paged cache's `slot % block_size`) leaves only the dividend's
    sign to test; one of unknown sign (`n - B`) is tested too."""
    src = _lowered(tmp_path, "v = tl.load(x_ptr + offs)\n"
                             "tl.store(y_ptr + offs, v // B + v % n + v // (n - B) + offs % B)", facts=IFACTS)
    assert "ct.where(((v % B) != 0) & (v < 0), (v // B) + 1, v // B)" in src   # B > 0 at every launch
    assert "ct.where(((v % n) != 0) & (v < 0), (v % n) - n, v % n)" in src   # n >= 0: a size argument
    # a divisor of either sign (n - B, a scalar): the signs differ where the xor is negative (a tile compared with
    # a scalar bool does not type in cutile 0.3.1)
    assert "ct.where(((v % (n - B)) != 0) & ((v ^ (n - B)) < 0), (v // (n - B)) + 1, v // (n - B))" in src
    assert "% B)" in src and "ct.where(((dividend" not in src   # offs % B: plain
    # tl.cdiv of a tile: Triton's (x + d - 1) // d, its // truncating
    src = _lowered(tmp_path, "c = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, tl.cdiv(c, B) * B)", facts=IFACTS)
    assert "dividend1 = c + (B - 1)" in src and "(dividend1 // B) + 1" in src


def test_libdevice_roundings_are_written_with_floor(tmp_path):
    """libdevice.rint / round / trunc (quantization's rounding; cuTile Python 1.7 has none) are exact selects over
    floor / ceil of |x| (bit for bit, the sign of zero included); tl.math.div_rn is IEEE division."""
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, libdevice.rint(x) + "
                             "libdevice.round(x) + libdevice.trunc(x) + tl.math.div_rn(x, 3.0))")
    assert "rint_abs1 = ct.abs(x)" in src
    assert "ct.where(ct.floor(rint_abs1 * 0.5) * 2.0 != ct.floor(rint_abs1), " in src
    assert "ct.where(x < 0, -rint_r2, ct.where(x == 0, x, rint_r2))" in src
    assert "ct.where(x < 0, ct.ceil(x), ct.floor(x))" in src and "x / 3.0" in src


def test_interleaved_halves_of_one_pointer_are_one_view(tmp_path):
    """`y + 2 * offs` and `y + 2 * offs + 1` (an int4 unpack's low and high nibbles): one view with a unit-stride
    dimension, the first store at its index 0 and the second at 1 (a second lowering when the longer form comes
    second: the view is seeded with it)."""
    for first, second in (("2 * offs", "2 * offs + 1"), ("2 * offs + 1", "2 * offs")):
        src = _lowered(tmp_path, f"x = tl.load(x_ptr + offs)\ntl.store(y_ptr + {first}, x)\n"
                                 f"tl.store(y_ptr + {second}, x + 1.0)")
        lo, hi = ("(0, pid)", "(1, pid)") if first == "2 * offs" else ("(1, pid)", "(0, pid)")
        assert f"ct.store(y_ptr, index={lo}, tile=ct.reshape(ct.astype(x, " in src
        assert f"ct.store(y_ptr, index={hi}, tile=ct.reshape(ct.astype(x + 1.0, " in src


@pytest.mark.parametrize("call, why", [
    ("libdevice.lgamma(x)", "libdevice.lgamma is not lowered: cuTile Python 1.7 has no lgamma"),
    ("libdevice.erfc(x)", "libdevice.erfc is not lowered: cuTile Python 1.7 has no erfc"),
    ("libdevice.nextafter(x, x)", "libdevice.nextafter is not lowered: cuTile Python 1.7 has no nextafter"),
    ("libdevice.byte_perm(x, x, x)", "libdevice.byte_perm is not lowered \\(supported: "),
])
def test_functions_cutile_lacks_are_refused_as_written(tmp_path, call, why):
    with pytest.raises(LoweringError, match=why):
        _lowered(tmp_path, f"x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, {call})")


def test_arrays_updated_in_place_keep_their_views(tmp_path):
    """An array loaded and stored through its view keeps the view wherever its accesses are (straight-line code, a
    loop writing what it reads, a store whose value does not read the load): the port orders view loads and stores
    by the array's tokens as cuTile Python does (translate: store-inplace), so no access becomes a gather."""
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs, mask=offs < n)\ntl.store(x_ptr + offs, x * 2.0, mask=offs < n)")
    assert "ct.load(x_ptr, " in src and "ct.gather" not in src
    low = lower(find_kernel(_write(tmp_path, """
        row = tl.program_id(0)
        x_ptr += row * n
        acc = 0.0
        for i in range(0, n, B):
            cols = i + tl.arange(0, B)
            acc += tl.sum(tl.load(x_ptr + cols, mask=cols < n, other=0.0))
        for i in range(0, n, B):
            cols = i + tl.arange(0, B)
            x = tl.load(x_ptr + cols, mask=cols < n, other=float("-inf"))
            tl.store(x_ptr + cols, tl.exp(x - acc), mask=cols < n)
        tl.store(y_ptr + row, acc)
    """), "k"), IKINDS, {"s": "float"}, facts=FACTS)
    assert "ct.load(x_ptr, index=(row, i // B), shape=(1, B), padding_mode=ct.PaddingMode.NEG_INF)" in low.source
    assert "ct.store(x_ptr, index=(row, i // B)" in low.source
    assert "ct.gather" not in low.source and "ct.scatter" not in low.source
    assert not any("updated in place" in n for n in low.notes)
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\ny = tl.load(y_ptr + offs)\n"
                             "tl.store(x_ptr + offs, x * y)\ntl.store(y_ptr + offs, x + 1.0)")
    assert "ct.load(x_ptr, " in src and "ct.store(x_ptr, " in src
    assert "ct.load(y_ptr, " in src and "ct.store(y_ptr, " in src and "ct.gather" not in src


def _write(tmp_path, body):
    f = tmp_path / "w.py"
    f.write_text(MODULE.replace("{helpers}", "").replace(
        "{body}", textwrap.indent(textwrap.dedent(body), "    ").strip()))
    return f


def test_libdevice_float_class_tests(tmp_path):
    """libdevice.isnan / isinf / finitef (Triton makes their int32 a boolean): ct.isnan, |x| == inf, |x| < inf."""
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\nbad = libdevice.isnan(x) | libdevice.isinf(x)\n"
                             "tl.store(y_ptr + offs, tl.where(bad | libdevice.finitef(x), 0.0, x))")
    assert "ct.isnan(x)" in src and "(ct.abs(x) == float('inf'))" in src and "(ct.abs(x) < float('inf'))" in src
    with pytest.raises(LoweringError, match="libdevice.isnan of a tile that is not known to be a float"):
        _lowered(tmp_path, "tl.store(y_ptr + offs, tl.where(libdevice.isnan(offs), 0.0, 1.0))")


def test_an_element_offset_inside_a_unit_stride_block_scatters(tmp_path):
    """`out + 1 + e` (a cumulative sum written one element on, e an unmasked tl.arange): no tile of a view starts
    there, so every access of `out` is a gather/scatter at its element offsets (was: refused at launch, the view's
    two unit-stride dimensions having no extents)."""
    src = _lowered(tmp_path, "e = tl.arange(0, B)\nc = tl.load(x_ptr + e)\ntl.store(y_ptr + 1 + e, tl.cumsum(c, 0))\n"
                             "tl.store(y_ptr + tl.arange(0, 1), tl.zeros([1], dtype=tl.float32))")
    assert "ct.scatter(y_ptr, 1 + ct.arange(B, dtype=ct.int32), " in src
    assert "ct.scatter(y_ptr, ct.arange(1, dtype=ct.int32), " in src and "ct.load(x_ptr, index=(0,)" in src


def test_scalar_integer_division_is_tritons_where_an_operand_may_be_negative(tmp_path):
    """Triton divides runtime integer scalars toward zero (constexprs fold in Python: floor); cuTile Python's scalar
    `//` and `%` are floor division. Operands that cannot be negative (program ids, sizes, loop counters from 0,
    constexprs >= 0) stay plain; a dividend that may be negative is moved by one where the remainder is not 0."""
    src = _lowered(tmp_path, "start = pid * B - n\nq = start // B\nr = start % B\nu = pid // B + pid % n\n"
                             "x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x + q + r + u)")
    assert "dividend1 = (pid * B) - n" in src
    assert "((((dividend1 // B) + 1) if dividend1 < 0 else (dividend1 // B)) if (dividend1 % B) != 0 " \
           "else (dividend1 // B))" in src
    assert "(((dividend3 % B) - B) if dividend3 < 0 else (dividend3 % B))" in src
    # each result bound to a name where the Triton code computes it (a use in a loop reads the name: cuTile Python
    # hoists pure arithmetic out of a loop, not the `if`s of a conditional expression)
    assert "x + quotient2) + remainder4" in src
    assert "(pid // B) + (pid % n)" in src
    # a divisor that may be negative: the signs compared by the sign of a ^ b
    src = _lowered(tmp_path, "d = n - 4\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x + pid // (n - 4))")
    assert "if divisor1 < 0 else" in src
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x + (pid - n) // (n - 4))")
    assert "if (dividend1 ^ divisor2) < 0 else" in src
    # constexprs fold as Python's (Triton computes them at compile time); float scalars are not integer division
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x + (B - 200) // 3 + s // 2.0)")
    assert "(B - 200) // 3" in src and "s // 2.0" in src and "dividend" not in src


def test_a_boolean_tile_converted_to_a_number_is_a_select(tmp_path):
    """`bad.to(tl.int32)` (counting lanes) is `ct.where(bad, 1, 0)`, `.to(tl.float16)` a converted float select:
    cutile 0.3.1 converts no bool ("Unsupported conversion bool -> i32")."""
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs)\nbad = x != x\n"
                             "tl.store(y_ptr + offs, bad.to(tl.int32) + bad.to(tl.float16) + bad.to(tl.int64))")
    assert "ct.where(bad, 1, 0)" in src and "ct.astype(ct.where(bad, 1.0, 0.0), ct.float16)" in src
    assert "ct.astype(ct.where(bad, 1, 0), ct.int64)" in src


def test_a_transposed_mask_keeps_its_bounds(tmp_path):
    """`tl.store(y + rn[:, None] * n + rm[None, :], tl.trans(x), mask=tl.trans(mask))`: the transposed mask is the
    same bounds, each on its index vector's new axis, so the store is a tile of y's view (was a scatter)."""
    src = _lowered(tmp_path, "rm = pid * B + tl.arange(0, B)\nrn = tl.arange(0, B)\n"
                             "mask = (rm[:, None] < n) & (rn[None, :] < n)\n"
                             "x = tl.load(x_ptr + rm[:, None] * n + rn[None, :], mask=mask)\n"
                             "tl.store(y_ptr + rn[:, None] * n + rm[None, :], tl.trans(x), mask=tl.trans(mask))")
    assert "ct.store(y_ptr, index=(0, pid), tile=ct.astype(ct.transpose(x), y_ptr.dtype))" in src
    assert "scatter" not in src


def test_an_element_offset_of_whole_run_extents_is_a_step_of_a_dimension(tmp_path):
    """`x + row * stride + 2 * n + cols` masked by `cols < n` (the third n-wide chunk of a row: a fused gate/up or
    qkv row) is index 2 of a dimension of stride n; the access without the term reads index 0 of it."""
    src = _lowered(tmp_path, "cols = tl.arange(0, B)\ng = tl.load(x_ptr + pid * (8 * B) + cols, mask=cols < n)\n"
                             "u = tl.load(x_ptr + pid * (8 * B) + 2 * n + cols, mask=cols < n)\n"
                             "tl.store(y_ptr + pid * n + cols, g * u, mask=cols < n)")
    assert "g = ct.reshape(ct.load(x_ptr, index=(pid, 0, 0), shape=(1, 1, B)" in src
    assert "u = ct.reshape(ct.load(x_ptr, index=(pid, 2, 0), shape=(1, 1, B)" in src


def test_pointers_advanced_several_blocks_per_iteration(tmp_path):
    """Split-K: `p += B * 2` for `p = x + pid * B + tl.arange(0, B)` moves the tile index 2 blocks an iteration; the
    mask `o < rem` with `rem = n - k * B * 2` assigned in the body is the view extent n."""
    src = _lowered(tmp_path, "o = pid * B + tl.arange(0, B)\np = x_ptr + o\nacc = tl.zeros((B,), tl.float32)\n"
                             "for k in range(0, tl.cdiv(n, B * 2)):\n    rem = n - k * B * 2\n"
                             "    acc += tl.load(p, mask=o < rem, other=0.0)\n    p += B * 2\n"
                             "tl.store(y_ptr + offs, acc)")
    assert "ct.load(x_ptr, index=(pid + k * 2,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)" in src


def test_integer_tiles_to_int1_and_cdiv_of_sizes(tmp_path):
    """`m.to(tl.int1)` of a number tile is `m != 0` (cutile converts nothing to bool); `tl.cdiv` of sizes is >= 0,
    so a division by it stays Python's."""
    src = _lowered(tmp_path, "m = tl.load(x_ptr + offs).to(tl.int1)\nq = pid // (B * tl.cdiv(n, B))\n"
                             "tl.store(y_ptr + offs, tl.where(m, q, 0))")
    assert "m = (ct.load(x_ptr, index=(pid,), shape=(B,))) != 0" in src
    assert "pid // (B * ct.cdiv(n, B))" in src and "dividend" not in src


def test_reductions_of_any_combine_are_trees_of_adjacent_pairs(tmp_path):
    """A tuple reduce that is no least-index arg-max (ties to the larger index; the first pair winning ties) and a
    log-add-exp (round 11: were refused): the axis halved into adjacent pairs, the combine inlined on them."""
    helpers = ("@triton.jit\ndef _am(v1, i1, v2, i2):\n    c = v1 >= v2\n"
               "    return tl.where(c, v1, v2), tl.where(c, i1, i2)\n\n\n"
               "@triton.jit\ndef _lae(a, b):\n    return tl.maximum(a, b) + tl.log(1.0 + tl.exp(-tl.abs(a - b)))\n")
    for red in ("tl.reduce((x, offs), 0, _am)[1]", "tl.reduce(x, 0, _lae)"):
        src = _lowered(tmp_path, f"x = tl.load(x_ptr + offs)\ntl.store(y_ptr + pid, {red})", helpers)
        assert "ct.extract(" in src and "ct.reduce(" not in src and "ct.max(" not in src, src


def test_scans_of_any_combine_are_written_out_by_doubling(tmp_path):
    """A running max and a linear recurrence over a tuple (round 11: were refused, cuTile's scan needing an identity
    cutile 0.3.1 does not build): log2(B) levels of halves, the combine inlined on them; no ct.scan."""
    helpers = ("@triton.jit\ndef _mx(a, b):\n    return tl.maximum(a, b)\n\n\n"
               "@triton.jit\ndef _lin(a1, b1, a2, b2):\n    return a1 * a2, b1 * a2 + b2\n")
    for scan in ("tl.associative_scan(x, 0, _mx)", "tl.associative_scan((x, x), 0, _lin)[1]"):
        src = _lowered(tmp_path, f"x = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, {scan})", helpers)
        assert "ct.extract(" in src and "ct.scan(" not in src and ("ct.maximum(" in src) == ("_mx" in scan), src


def test_pointers_advanced_a_parameters_number_of_rows_or_blocks(tmp_path):
    """`p += s * n` (a grid stride: `step = tl.num_programs(0)`) moves a `row * n` pointer `step` rows an iteration,
    at row `pid + (row - pid)`; `p += s * B` (heads interleaved with time, a head of B at a time) moves a run `s`
    blocks an iteration; `row * n + cols` bound before the pointer is added keeps its terms (a view, no gather)."""
    src = _lowered(tmp_path, "step = tl.num_programs(0)\np = x_ptr + pid * n + tl.arange(0, B)\n"
                             "q = y_ptr\nq += pid * n + tl.arange(0, B)\n"
                             "for row in range(pid, n, step):\n    tl.store(q, tl.load(p))\n"
                             "    p += step * n\n    q += step * n")
    assert "for row in range(pid, n, step):" in src
    assert "ct.load(x_ptr, index=(pid + (row - pid), 0), shape=(1, B))" in src
    assert "ct.store(y_ptr, index=(pid + (row - pid), 0)" in src and "gather" not in src
    src = _lowered(tmp_path, "h = tl.zeros([B], dtype=tl.float32)\np = x_ptr + pid * B + tl.arange(0, B)\n"
                             "for t in range(0, n):\n    h += tl.load(p)\n    p += n * B\n"
                             "tl.store(y_ptr + offs, h)")
    assert "ct.load(x_ptr, index=(pid + t * n,), shape=(B,))" in src


def test_locals_named_like_the_lowered_module_and_pointer_variable_dtypes(tmp_path):
    """A local `ct` (C at time t in a scan) is renamed (`ct_`): the lowered code's `ct.` is cuda.tile;
    `p.dtype.element_ty` of a pointer variable and of a block pointer is its array's dtype."""
    src = _lowered(tmp_path, "p = y_ptr + offs\nct = tl.load(x_ptr + offs)\n"
                             "bp = tl.make_block_ptr(y_ptr, (n,), (1,), (pid * B,), (B,), (0,))\n"
                             "tl.store(p, (ct * 2).to(p.dtype.element_ty))\n"
                             "tl.store(bp, ct.to(bp.dtype.element_ty), boundary_check=(0,))")
    assert "ct_ = ct.load(x_ptr, index=(pid,), shape=(B,))" in src
    assert "ct.astype(ct_ * 2, y_ptr.dtype)" in src and "ct.astype(ct_, y_ptr.dtype)" in src


def test_other_from_a_scalar_argument_on_a_gather(tmp_path):
    """`other=s` (a scalar argument) under a mask that bounds no view (a lower bound): the gather's masked lanes
    are selected to it."""
    src = _lowered(tmp_path, "c = tl.arange(0, B)\nm = (c < n) & (c >= 3)\n"
                             "tl.store(y_ptr + c, tl.load(x_ptr + pid * n + c, mask=m, other=s))")
    assert "ct.where(m, ct.gather(x_ptr, pid * n + ct.arange(B, dtype=ct.int32), mask=m, padding_value=0), s)" \
        in src.replace("(ct.arange(B, dtype=ct.int32) < n) & (ct.arange(B, dtype=ct.int32) >= 3)", "m")


def test_a_view_bounded_per_arm_of_a_constexpr_if_takes_the_arms_bound_at_launch(tmp_path):
    """`if T:` reading x with one index vector along the stride s0 and the other arm with the other vector along
    it: the bound of each view dimension is the arm's, chosen at launch (`(M if T else N)`)."""
    f = tmp_path / "t.py"
    f.write_text(textwrap.dedent('''
        import triton
        import triton.language as tl


        @triton.jit
        def k(x_ptr, y_ptr, M, N, s0, B: tl.constexpr, T: tl.constexpr):
            m = tl.program_id(0) * B + tl.arange(0, B)
            nn = tl.program_id(1) * B + tl.arange(0, B)
            mask = (m[:, None] < M) & (nn[None, :] < N)
            if T:
                x = tl.load(x_ptr + nn[None, :] * s0 + m[:, None], mask=mask)
            else:
                x = tl.load(x_ptr + m[:, None] * s0 + nn[None, :], mask=mask)
            tl.store(y_ptr + m[:, None] * N + nn[None, :], x, mask=mask)
    '''))
    kinds = {"x_ptr": "array", "y_ptr": "array", "M": "scalar", "N": "scalar", "s0": "scalar", "B": "constant",
             "T": "constant"}
    lw = lower(find_kernel(f, "k"), kinds, {}, facts={"constants": {"B": [32, 32], "T": [True, False]},
                                                      "dtypes": {}})
    dims = lw.views["x_ptr"].dims
    assert [(d.stride, d.extent) for d in dims] == [("1", "(M if T else N)"), ("s0", "(N if T else M)")]
    values = {"M": 70, "N": 50, "s0": 70, "B": 32, "T": True}
    assert view_layout(lw.views["x_ptr"], (50, 70), (70, 1), values) == ((70, 50), (1, 70))
    assert view_layout(lw.views["x_ptr"], (70, 50), (50, 1), values | {"T": False, "s0": 50}) == ((50, 70), (1, 50))


def test_math_of_a_float_argument_is_f32(tmp_path):
    """`tl.log(s)` of a float argument is an f32 value (Triton's fp32 scalar), so the `tl.exp` of an expression of
    it is Triton's exp2 form."""
    src = _lowered(tmp_path, "tl.store(y_ptr + offs, tl.exp(-tl.log(s) * tl.arange(0, B).to(tl.float32)))")
    assert "ct.exp2(((-ct.log(s)) * (ct.astype(ct.arange(B, dtype=ct.int32), ct.float32))) * 1.4426950408889634)" \
        in src


def test_one_element_read_through_a_block_pointers_view(tmp_path):
    """`tl.load(x + pid * n + k * B + j)` after a block pointer of `x + pid * n` with strides (1,): the element is
    addressed in that view, `k * B + j` along its unit stride (one layout per array), an element offset that may
    pass the row's end: row `pid + (k * B + 3) // n`, column `(k * B + 3) % n`."""
    src = _lowered(tmp_path, "for k in range(0, 4):\n"
                             "    bp = tl.make_block_ptr(x_ptr + pid * n, (n,), (1,), (k * B,), (B,), (0,))\n"
                             "    v = tl.load(bp, boundary_check=(0,))\n"
                             "    last = tl.load(x_ptr + pid * n + k * B + 3)\n"
                             "    tl.store(y_ptr + pid * B + tl.arange(0, B), v - last)")
    assert "ct.load(x_ptr, index=(pid + (k * B + 3) // n, (k * B + 3) % n), shape=(1, 1))" in src


def test_rand_seeded_by_a_loaded_element_and_other_a_tile(tmp_path):
    """`tl.rand(tl.load(seed_ptr), offs)`: the element sign-extended to 64 bits (Triton's `seed.to(tl.uint64)`);
    `other=prev` (a tile) fills the masked lanes."""
    src = _lowered(tmp_path, "prev = tl.load(y_ptr + tl.arange(0, B))\n"
                             "x = tl.load(x_ptr + offs, mask=offs < n, other=prev)\n"
                             "r = tl.rand(tl.load(x_ptr + n).to(tl.int32), offs)\n"
                             "tl.store(y_ptr + offs, x + r)")
    assert "x = ct.where((pid * B + ct.arange(B, dtype=ct.int32)) < n, ct.load(x_ptr, index=(pid,), shape=(B,), " \
        "padding_mode=ct.PaddingMode.ZERO), prev)" in src
    assert "rand1_s = ct.astype(ct.astype(ct.astype(ct.load(x_ptr, index=(n,), shape=(1,)), ct.int32), ct.int64), " \
        "ct.uint64)" in src


def test_a_scan_along_another_axis_is_the_scan_of_the_moved_axis(tmp_path):
    """`tl.cumsum(x, axis=1)` of a 2-D tile: the axis-0 scan of the transposed tile, transposed back (cutile 0.3.1
    builds every scan along dimension 0); rank 3 permutes the axis first and back."""
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs[:, None] * B + tl.arange(0, B)[None, :])\n"
                             "tl.store(y_ptr + offs[:, None] * B + tl.arange(0, B)[None, :], tl.cumsum(x, axis=1))")
    assert "ct.transpose(ct.cumsum(ct.transpose(x), axis=0))" in src
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs[:, None] * B + tl.arange(0, B)[None, :])\n"
                             "x3 = tl.reshape(x, (B, 2, B // 2))\n"
                             "tl.store(y_ptr + offs[:, None] * B + tl.arange(0, B)[None, :], "
                             "tl.reshape(tl.cumsum(x3, axis=2), (B, B)))")
    assert "ct.permute(ct.cumsum(ct.permute(x3, (2, 0, 1)), axis=0), (1, 2, 0))" in src


def test_integer_gather_pads_with_an_integer(tmp_path):
    """`tl.load(zeros + idx, mask=m, other=0)` of an int32 array (AWQ's packed zero points at `rk // GROUP`): the
    gather's padding is the integer 0 (cuTile Python casts no 0.0 to int32)."""
    facts = {**FACTS, "dtypes": {"x_ptr": {"ct.int32"}, "y_ptr": {"ct.float32"}}}
    src = _lowered(tmp_path, "z = tl.load(x_ptr + offs // 4, mask=offs < n, other=0)\n"
                             "tl.store(y_ptr + offs, z.to(tl.float32), mask=offs < n)", facts=facts)
    assert "padding_value=0)" in src and "padding_value=0.0" not in src


def test_a_volatile_load_polled_by_a_while_is_an_atomic_read(tmp_path):
    """`while tl.load(flag + pid - 1, volatile=True) == 0: pass`: a plain load there is dead code to cuTile (the
    wait would vanish), so the flag is read by an acquiring atomic that leaves it unchanged; a volatile load
    elsewhere is a load (the hint dropped, noted)."""
    facts = {**FACTS, "dtypes": {"x_ptr": {"ct.int32"}, "y_ptr": {"ct.float32"}}}
    src = _lowered(tmp_path, "if pid > 0:\n    while tl.load(x_ptr + pid - 1, volatile=True) == 0:\n        pass\n"
                             "tl.store(y_ptr + offs, tl.load(y_ptr + offs) + 1.0)", facts=facts)
    assert "ct.atomic_or(x_ptr, pid - 1, ct.full((), 0, dtype=x_ptr.dtype), memory_order=ct.MemoryOrder.ACQUIRE)" \
        in src
    src = _lowered(tmp_path, "f = tl.load(x_ptr + pid, volatile=True)\ntl.store(y_ptr + offs, tl.zeros((B,), "
                             "tl.float32) + f)", facts=facts)
    assert "atomic" not in src
    with pytest.raises(LoweringError, match="integer flags"):
        _lowered(tmp_path, "while tl.load(y_ptr + pid, volatile=True) == 0.0:\n    pass")


def test_int32_least_value_padding_is_computed(tmp_path):
    """`other=-2147483648` (an integer argmax's padding): cutile 0.3.1 panics parsing the literal (it parses a
    negative literal's digits as i32), so the lowering computes it: a 0-d tile of -2^31 + 1, minus 1."""
    facts = {**FACTS, "dtypes": {"x_ptr": {"ct.int32"}, "y_ptr": {"ct.int32"}}}
    src = _lowered(tmp_path, "x = tl.load(x_ptr + offs, mask=offs < n, other=-2147483648)\n"
                             "tl.store(y_ptr + pid, tl.argmax(x, 0))", facts=facts)
    assert "(ct.full((), -2147483647, dtype=x_ptr.dtype) - 1)" in src and "-2147483648" not in src


WRAPPED_MM = '''
import triton
import triton.language as tl


@triton.jit
def k(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_bn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - kk * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - kk * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    acc = tl.where(acc >= 0, acc, 0.01 * acc)
    {tail}
'''
MM_KINDS = {p: "array" for p in ("a_ptr", "b_ptr", "c_ptr")} | {
    p: "scalar" for p in ("M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn")} | {
    p: "constant" for p in ("BM", "BN", "BK")}
MM_FACTS = {"constants": {"BM": [64], "BN": [64], "BK": [32]},
            "dtypes": {"a_ptr": {"ct.float16"}, "b_ptr": {"ct.float16"}, "c_ptr": {"ct.float16"}}}
MASKED_STORE = '''offs_cm = pid_m * BM + tl.arange(0, BM)
offs_cn = pid_n * BN + tl.arange(0, BN)
c_ptrs = c_ptr + offs_cm[:, None] * scm + offs_cn[None, :] * scn
tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))'''


@pytest.mark.parametrize("tail, tiled", [
    # the tutorial's form: the wrapped rows/columns only reach C's rows >= M / columns >= N, which the store masks
    (MASKED_STORE, True),
    # a column sum mixes the wrapped rows into every column: observable, so the wrap is computed (gathers)
    ("offs_cn = pid_n * BN + tl.arange(0, BN)\ntl.store(c_ptr + offs_cn, tl.sum(acc, axis=0), mask=offs_cn < N)",
     False),
    # the store masks the columns only: C's rows past M (the wrapped ones) would be written
    (MASKED_STORE.replace("(offs_cm[:, None] < M) & ", ""), False),
    # the store bounds rows by another extent than the wrap's
    (MASKED_STORE.replace("offs_cm[:, None] < M", "offs_cm[:, None] < K"), False),
    # the store at other rows than the ones loaded
    (MASKED_STORE.replace("offs_cm = pid_m * BM", "offs_cm = pid_n * BM"), False),
])
def test_wrapped_offsets_are_padded_tiles_when_the_wrap_is_unobservable(tmp_path, tail, tiled):
    """`offs_am = (pid_m * BM + arange) % M` (the matmul tutorial): lanes in [0, M) read the rows themselves; the
    others are read as padding instead of row `r % M`, which is exact exactly when those lanes never reach memory
    (docs/triton.md, "Performance of the corpus ports"). Otherwise the wrap is computed and read by gathers."""
    f = tmp_path / "mm.py"
    f.write_text(WRAPPED_MM.replace("{tail}", textwrap.indent(tail, "    ").strip()))
    src = lower(find_kernel(f, "k"), MM_KINDS, {}, facts=MM_FACTS).source
    if tiled:
        assert "ct.gather" not in src and "% M" not in src
        assert "a = ct.load(a_ptr, index=(pid_m, kk), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)" in src
        assert "b = ct.load(b_ptr, index=(kk, pid_n), shape=(BK, BN), padding_mode=ct.PaddingMode.ZERO)" in src
    else:
        assert "ct.gather(a_ptr" in src and "% M" in src


def test_clamped_offsets_are_padded_tiles_when_the_clamp_is_unobservable(tmp_path):
    """`offs = tl.where(offs < M, offs, 0)` (the persistent-matmul tutorial's matmul_kernel): lanes past M read row 0
    in Triton and padding here — unobservable behind the masked store, as for a `% M` wrap."""
    clamp = WRAPPED_MM.replace("offs_am = (pid_m * BM + tl.arange(0, BM)) % M",
                               "offs_am = pid_m * BM + tl.arange(0, BM)\n    offs_am = tl.where(offs_am < M, offs_am, 0)")
    f = tmp_path / "mm.py"
    f.write_text(clamp.replace("{tail}", textwrap.indent(MASKED_STORE, "    ").strip()))
    src = lower(find_kernel(f, "k"), MM_KINDS, {}, facts=MM_FACTS).source
    assert "ct.gather" not in src and "a = ct.load(a_ptr, index=(pid_m, kk), shape=(BM, BK)" in src
    f.write_text(clamp.replace("{tail}", "tl.store(c_ptr + tl.arange(0, BN), tl.sum(acc, axis=0))"))
    src = lower(find_kernel(f, "k"), MM_KINDS, {}, facts=MM_FACTS).source
    assert "ct.gather(a_ptr" in src and "ct.where" in src


@pytest.mark.parametrize("shape, strides, narrow", [
    ((4, 50), (64, 1), True),      # cols < 50 of rows 64 apart
    ((4, 64), (64, 1), False),     # whole rows
    ((1, 50), (64, 1), False),     # one row: nothing between rows
    ((300,), (1,), False),         # a flat vector
    ((2, 3, 8), (64, 8, 1), True),  # heads of 3 x 8 in rows of 64
    ((4, 50), (0, 1), False),      # a broadcast row
])
def test_narrow_rows(shape, strides, narrow):
    from tileport.frontends.triton.views import narrow_rows

    assert narrow_rows(shape, strides) is narrow


def test_a_store_into_rows_narrower_than_their_stride_skips_tma():
    """The LLM fixture's assume_converge stores `cols < n` (50) of rows `stride` (64) apart: through a TMA store
    tileiras 13.4 wrote columns 50..63 on an H100 (docs/triton.md, "A store past a view's extent"). The lowering
    keeps a store off TMA where a captured launch is that narrow, and only there; the runtime refuses a narrow
    launch of a port whose store may take TMA."""
    from tileport.pipeline.triton import lower_from_launches
    from tileport.runtime.triton_port import PortedKernel, TritonPortError

    launches = [l for l in run_captured(LLM, []).launches.values() if l["kernel"].endswith("::assume_converge")]
    narrow = lower_from_launches(f"{LLM}::assume_converge", launches)
    assert "allow_tma=False)" in narrow.source and any("narrower than their stride" in n for n in narrow.notes)

    def whole(launch: dict) -> dict:   # the same launch with rows as wide as their stride (n = stride = 64)
        args = [dict(a, value=64) if a["name"] == "n" else a for a in launch["args"]]
        return dict(launch, args=args)

    wide = lower_from_launches(f"{LLM}::assume_converge", [whole(l) for l in launches])
    assert "allow_tma" not in wide.source and not any("narrower" in n for n in wide.notes)

    import importlib.util
    import tempfile

    spec = importlib.util.spec_from_file_location("llm_for_narrow", LLM)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "assume_converge" / "lowered.py"
        wide.write(path)
        port = PortedKernel(mod.assume_converge, path)
        x, y = np.ones((4, 64), np.float32), np.zeros((4, 64), np.float32)
        with pytest.raises(TritonPortError, match="narrower than their stride"):
            port.lowered_args(dict(x_ptr=x, y_ptr=y, n=50, stride=64, tol=1e-6, BLOCK=64))
        assert len(port.lowered_args(dict(x_ptr=x, y_ptr=y, n=64, stride=64, tol=1e-6, BLOCK=64))) == 5
