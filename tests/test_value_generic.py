"""translate.value_generic: which const generics an entry uses only as values (then proven at a second value and
launched at any), on Rust body lines as the emitter writes them."""
import pytest

from tileport.translate.value_generic import SEED_VALUE, second_value, value_only

FILL = "let filled: Tile<i32, { [TILE] }> = broadcast_scalar(SEED, shape![TILE]);"


@pytest.mark.parametrize("lines, name, expected, why", [
    ([FILL], "SEED", True, "a tile filled with it"),
    ([FILL, "let s: i32 = bid * SEED;"], "SEED", True, "and scalar arithmetic"),
    ([FILL], "TILE", False, "a tile extent"),
    (["let t: Tile<f32, { [BM, TILE] }> = constant(0.0f32, shape![BM, TILE]);"], "TILE", False, "a type's extent"),
    ([FILL, "if SEED > 0 {"], "SEED", False, "a branch on it"),
    ([FILL, "} else if SEED == 2 {"], "SEED", False, "an else-if on it"),
    ([FILL, "for i in 0..SEED {"], "SEED", False, "a loop bound"),
    (["let r = reduce::<SEED>(t);"], "SEED", False, "a generic argument"),
    ([FILL], "OTHER", False, "not used at all"),
])
def test_value_only(lines, name, expected, why):
    assert value_only(lines, name) is expected, why


def test_second_value_differs_from_every_captured_one():
    assert second_value({0, 12345}) == SEED_VALUE
    assert second_value({SEED_VALUE, SEED_VALUE + 1}) == SEED_VALUE + 2
    assert -2**31 <= SEED_VALUE < 2**31
