"""translate.value_generic: which const generics an entry uses only as values (then proven at a second value and
launched at any), on Rust body lines as the emitter writes them."""
import pytest

from tileport.translate.value_generic import STEP, second_value, value_only

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


def test_second_value_is_near_and_differs_from_every_captured_one():
    assert second_value(0, {0}) == STEP and second_value(0, {0, STEP}) == 2 * STEP
    assert second_value(2**31 - 1, {2**31 - 1}) == 2**31 - 1 - STEP   # (stays an i32)


def test_a_traced_value_records_each_fold_and_nothing_else():
    from tileport.translate.value_generic import Traced

    v = Traced(7)
    assert (repr(v), str(v), f"{v}", hash(v)) == ("7", "7", "7", hash(7)) and v.folds == []
    w = v + 1
    assert w == 8 and type(w) is int and (v > 3) is True and not isinstance(v, bool)
    assert v.folds == ["__add__", "__gt__"]


def test_a_folded_if_is_seen_in_its_comment():
    from tileport.translate.value_generic import mentioned_in_comments

    body = [FILL, "// `if MODE == 1:` is False here: the else arm, as cuTile Python folds it"]
    assert mentioned_in_comments(body, "MODE") and not mentioned_in_comments(body, "SEED")
