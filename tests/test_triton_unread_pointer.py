"""A pointer only a constexpr branch reads, launched with a dummy the kernel cannot view when that branch is off
(host code round 23's autograd backward: `gb if need_b else g`, g a stride-0 expanded gradient, under
`if NEED_B:` launched NEED_B=False): the launch needs no view of it, so it is passed as it is (it was refused, "the
tensor spans 1"); where the branch runs, the same dummy is refused as before (views.reads_at)."""
from __future__ import annotations

import textwrap

import pytest

from tileport.frontends.triton.capture import lowered_launch
from tileport.frontends.triton.views import ViewError, reads_at
from tileport.pipeline.triton import lower_from_launches

LOWERED = textwrap.dedent("""
    import cuda.tile as ct

    @ct.kernel
    def k(x, y, z, w, n, A: ct.Constant[bool], MODE: ct.Constant[int]):
        t = ct.load(x, index=(0,), shape=(4,))
        if A:
            ct.store(y, index=(0,), tile=t)
        elif MODE == 2:
            ct.store(z, index=(0,), tile=t)
        if n > 0:
            ct.store(w, index=(0,), tile=t)
""")


@pytest.mark.parametrize("param, consts, reads", [
    ("x", {"A": False, "MODE": 0}, True),          # outside any branch
    ("y", {"A": True, "MODE": 0}, True),
    ("y", {"A": False, "MODE": 0}, False),         # the untaken arm
    ("z", {"A": False, "MODE": 2}, True),          # an elif's arm, taken
    ("z", {"A": True, "MODE": 2}, False),
    ("z", {"A": False, "MODE": 1}, False),
    ("w", {"A": False, "MODE": 0}, True),          # a run-time test (n is no constant): read
    ("y", {"MODE": 0}, True),                       # a test the constants do not decide: both arms count
])
def test_reads_at_follows_the_taken_constexpr_arms(param, consts, reads):
    assert reads_at(LOWERED, "k", param, consts) is reads


def test_reads_at_of_an_unknown_kernel_counts_as_read():
    assert reads_at(LOWERED, "other", "y", {"A": False, "MODE": 0})


KERNEL = textwrap.dedent("""
    import triton
    import triton.language as tl


    @triton.jit
    def grads(a_ptr, g_ptr, ga_ptr, gb_ptr, n, NEED_A: tl.constexpr, NEED_B: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        g = tl.load(g_ptr + offs, mask=m, other=0.0)
        if NEED_A:
            tl.store(ga_ptr + offs, g * 2.0, mask=m)
        if NEED_B:
            a = tl.load(a_ptr + offs, mask=m, other=0.0)
            tl.store(gb_ptr + offs, g * a, mask=m)
""")


def _launch(ref, need_b, gb_stride):
    def arr(name, stride=1):
        return {"name": name, "kind": "array", "dtype": "f32", "shape": [16], "strides": [stride],
                "data_ptr_mod_16": 0}
    return {"frontend": "triton", "kernel": ref, "grid": [1, 1, 1], "count": 1,
            "args": [arr("a_ptr"), arr("g_ptr"), arr("ga_ptr"), arr("gb_ptr", gb_stride),
                     {"name": "n", "kind": "scalar", "dtype": "i32", "value": 16},
                     {"name": "NEED_A", "kind": "constant", "value": True},
                     {"name": "NEED_B", "kind": "constant", "value": need_b},
                     {"name": "BLOCK", "kind": "constant", "value": 32}]}


def test_a_dummy_for_a_pointer_the_launch_does_not_read_is_passed_as_it_is(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(KERNEL)
    ref = f"{src}::grads"
    low = lower_from_launches(ref, [_launch(ref, False, 0), _launch(ref, True, 1)])
    lowered_ref = f"{low.write(tmp_path / 'out' / 'lowered.py')}::{low.kernel.name}"
    off, on = (lowered_launch(l, low.report(), lowered_ref)["signature"] for l in low.launches)
    assert "gb_ptr=f32[?%16]/?" in off and "NEED_B=#false" in off     # the stride-0 dummy, as it is
    assert "gb_ptr=f32[?%16]/1" in on
    with pytest.raises(ViewError, match="gb_ptr: the kernel reads shape"):   # read: the dummy is refused
        lowered_launch(_launch(ref, True, 0), low.report(), lowered_ref)


def test_an_unread_dummy_of_another_rank_is_still_refused(tmp_path):
    """As it is, a rank-2 dummy would change the entry's rank-1 parameter: refused with the view's reason."""
    src = tmp_path / "k.py"
    src.write_text(KERNEL)
    ref = f"{src}::grads"
    low = lower_from_launches(ref, [_launch(ref, False, 0), _launch(ref, True, 1)])
    lowered_ref = f"{low.write(tmp_path / 'out' / 'lowered.py')}::{low.kernel.name}"
    flat = _launch(ref, False, 0)
    flat["args"][3] |= {"shape": [4, 4], "strides": [0, 0]}
    with pytest.raises(ViewError, match="gb_ptr"):
        lowered_launch(flat, low.report(), lowered_ref)
