"""Numpy scalars in kernels: a module's `LOG2E = np.log2(np.e)`, a factory's `make(np.float32(0.5))`. cuTile Python
types each as a constant of its own dtype (a Python float is weak: `t * 0.5` of an f16 tile stays f16, `t * HALF`
is f32; `np.float64` is a Python float too, yet an f64 constant there). Resolve spelled them as Python numbers (the
f64 constant lost its digits and its type: unproven) or not at all ("unknown name"), and the capture recorded a
closure's numpy scalar as `{"unknown": "float32"}` (the kernel could not be rebuilt). Proven: test_port's
SMALL_KERNELS np_scalars and np_factory."""
import ast

import numpy as np
import pytest

from tileport.frontends.cutile_py.loader import KernelLoadError, _closure_object, _closure_value
from tileport.translate.resolve import static_node

LIKE = ast.parse("x").body[0].value


@pytest.mark.parametrize("value,text", [
    (np.float32(0.5), "ct.full((), 0.5, dtype=ct.float32)"),
    (np.float16(0.25), "ct.full((), 0.25, dtype=ct.float16)"),
    (np.log2(np.e), f"ct.full((), {float(np.log2(np.e))!r}, dtype=ct.float64)"),
    (np.int32(3), "ct.full((), 3, dtype=ct.int32)"),
    (np.uint8(7), "ct.full((), 7, dtype=ct.uint8)"),
    (np.bool_(True), "True"),
])
def test_a_numpy_scalar_is_a_constant_of_its_dtype(value, text):
    node = static_node(value, LIKE)
    assert ast.unparse(node) == text
    if isinstance(value, np.float64):   # (the emitter keeps an f64's digits only where resolve made the constant)
        assert node.args[1].tileport_exact


def test_numpy_values_without_a_spelling_are_not_constants():
    assert static_node(np.float32("nan"), LIKE) is None
    assert static_node(np.complex64(1j), LIKE) is None


@pytest.mark.parametrize("value,record", [
    (np.float32(0.5), {"numpy": "float32", "value": 0.5}),
    (np.float64(1 / 3), {"numpy": "float64", "value": 1 / 3}),   # (not the Python float it also is)
    (np.int64(-2), {"numpy": "int64", "value": -2}),
    (np.bool_(False), {"numpy": "bool", "value": False}),
])
def test_a_captured_numpy_scalar_is_made_again(value, record):
    assert _closure_value(value, test_a_captured_numpy_scalar_is_made_again, None, 0) == record
    again = _closure_object("s", record, None, None, "k.py::k")
    assert type(again) is type(value) and again == value


@pytest.mark.parametrize("record", [{"numpy": "float99", "value": 1.0}, {"numpy": "uint8", "value": -1}])
def test_a_numpy_record_not_made_again_is_a_clear_error(record):
    with pytest.raises(KernelLoadError) as info:
        _closure_object("s", record, None, None, "k.py::k")
    msg = str(info.value)
    assert msg.startswith("k.py::k: the kernel closes over 's', a numpy") and "\n" not in msg, msg
