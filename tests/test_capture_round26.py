"""Capture, round 26 (docs/corpus.md, cuTile Python generality round 26): what its host code met."""
import functools

import pytest

from tileport.frontends.arrays import LaunchRejected
from tileport.frontends.cutile_py.capture import Recorder


def test_a_function_wrapping_a_kernel_is_refused_as_no_kernel():
    """`traced(ct.kernel(f))` — a project decorator made with functools.wraps put over a kernel (round 26's p04
    `wrapped_outer`) — launched: the capture's recorder read `kernel._pyfunc` and the host's test stopped with an
    AttributeError from tileport. It is refused as the launch refuses an object that is no kernel: a TypeError
    naming it, noted among the launches refused."""
    def f(x):
        return x

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)

    rec = Recorder()
    with pytest.raises(LaunchRejected, match=r"f: ct\.launch takes a @ct\.kernel object, not a function") as e:
        rec.record((1,), wrapper, ())
    assert isinstance(e.value, TypeError)
    assert rec.rejected == [str(e.value)] and len(rec.rejected_kernels) == 1 and not rec.launches
