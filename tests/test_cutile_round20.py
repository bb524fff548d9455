"""cuTile Python generality, round 20 (docs/corpus.md): an API sweep of cuda.tile 1.7 (every public function,
keyword and mode in small kernels of our own, ported with the CLI); what it found in the translator, each as a
test."""
import pytest

from tileport.translate.emit import Unsupported


from kernel_text import emit


@pytest.mark.parametrize("dt", ["u8", "u16", "u32"])
def test_unsigned_tile_converted_to_bool_is_a_compare_with_zero(tmp_path, dt):
    """`ct.astype(t, ct.bool_)` of a uint8 tile (round 20's s05 `convert`, every dtype pair): round 19 made an
    integer-to-bool conversion `x != 0` for the signed dtypes only, so the uint8 one stayed `convert_tile`, which
    cutile 0.3.1 cannot compile ("Unsupported conversion u8 -> bool": unproven). cuTile Python's convert_dtype
    compares with zero for every integral dtype (`is_integral`), unsigned ones too."""
    text = "\n".join(emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    v = ct.load(x, (ct.bid(0),), (B,))
    ct.store(y, (ct.bid(0),), ct.astype(v, y.dtype))
""", f"x={dt}[?]/1, y=bool[?]/1, B=#16").body)
    assert f"ne_tile(v, broadcast_scalar(0{dt}, shape![B]))" in text, text
    assert "convert_tile" not in text, text


def test_num_tiles_with_an_order_counts_the_permuted_tile_space(tmp_path):
    """`ct.num_tiles(x, 0, (4, B), order="F")` (round 20's s01 `ntiles`; `order` is a documented argument of
    ct.num_tiles, "see load"): refused ("ct.num_tiles form"). cuTile Python counts the tiles of the view whose dim
    map is the order, as its load does: the partition's dim map is now the order."""
    text = "\n".join(emit(tmp_path, """
@ct.kernel
def k(x, out, B: ct.Constant[int]):
    a = ct.num_tiles(x, axis=1, shape=(B, 4))
    c = ct.num_tiles(x, 0, (4, B), order="F")
    ct.store(out, (0,), ct.full((4,), a * 10 + c, dtype=ct.int32))
""", "x=f32[?,?]/?,1, out=i32[?]/1, B=#8").body)
    assert "shape![4, B], padding::None, const_array![1, 0]" in text, text
    assert "shape![B, 4], padding::None, dim_map::Identity" in text, text


def test_store_options_at_their_defaults_are_the_plain_store(tmp_path):
    """`yv.store((i, j), t, check_bounds=True)` through a tiled view and `ct.store(.., check_bounds=True)`
    (round 20's s01 `tviews`): the default of a documented keyword was refused ("ct.store option(s)
    check_bounds"); cuTile Python's store at check_bounds=True (and memory_order WEAK, memory_scope NONE, its
    defaults) is the plain store."""
    text = "\n".join(emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (B,))
    ct.store(y, (ct.bid(0),), t, check_bounds=True, memory_order=ct.MemoryOrder.WEAK,
             memory_scope=ct.MemoryScope.NONE)
""", "x=f32[?]/1, y=f32[?]/1, B=#16").body)
    assert "store" in text and "check_bounds" not in text, text


def test_cdiv_of_integer_tiles_is_divi_rounding_up(tmp_path):
    """`ct.cdiv(t, 7)` of an int32 tile (round 20's s03 `int_ops`; ct.cdiv is documented for tiles): refused
    ("ct.cdiv of anything but two i32 scalars"). cuTile Python encodes it as Tile IR `divi` rounding toward
    positive infinity (its `cdiv, int` case), the scalar operand broadcast; the scalar form is unchanged."""
    text = "\n".join(emit(tmp_path, """
@ct.kernel
def k(x, y, n: int, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (B,))
    ct.store(y, (ct.bid(0),), ct.cdiv(t, 7) + ct.cdiv(n, 3))
""", "x=i32[?]/1, y=i32[?]/1, n=i32, B=#16").body)
    assert "divi(t, broadcast_scalar(7i32, shape![B]), rounding::PositiveInf)" in text, text
    assert "ceil_div(n, 3" in text, text


def test_mma_accumulator_by_keyword_and_fast_acc_default(tmp_path):
    """`ct.mma(x, w, acc=acc, use_fast_acc=False)` (round 20's s04 `mma_fast`; the documented signature is
    `mma(x, y, /, acc, *, use_fast_acc=False)`): refused ("ct.mma form (x, y, acc) without options"). The
    accumulator by keyword and the default flag are the plain mma; `use_fast_acc=True` (an mmaf flag of bytecode
    13.3 that cutile 0.3.1 cannot set) is refused at its argument with that reason."""
    kernel = """
@ct.kernel
def k(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    x = ct.load(a, (ct.bid(0), 0), (BM, BK))
    w = ct.load(b, (0, ct.bid(1)), (BK, BN))
    acc = ct.mma(x, w, acc=acc, use_fast_acc=FAST)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)
"""
    sig = "a=f16[?,?]/?,1, b=f16[?,?]/?,1, c=f32[?,?]/?,1, BM=#16, BN=#16, BK=#16"
    text = "\n".join(emit(tmp_path, kernel.replace("FAST", "False"), sig).body)
    assert "mma(x, w, acc)" in text, text
    with pytest.raises(Unsupported, match=r"k.py:\d+:46: ct.mma\(.., use_fast_acc=True\)"):
        emit(tmp_path, kernel.replace("FAST", "True"), sig)


def test_unchecked_atomic_has_no_extent_check_and_no_mask(tmp_path):
    """`ct.atomic_add(cnt, offs % 4, v, check_bounds=False)` (round 20's s02 `add_orders`; check_bounds is a
    documented keyword of every atomic): refused ("check_bounds=False (an unchecked atomic)"). cuTile Python's
    atomic then has no extent check and no mask, under the caller's guarantee, as its unchecked gather / scatter
    (which the port already carried): the atomic's pointers are unchecked and its mask is None."""
    text = "\n".join(emit(tmp_path, """
@ct.kernel
def k(cnt, x, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.atomic_add(cnt, offs % 4, ct.gather(x, offs), check_bounds=False)
""", "cnt=f32[?]/1, x=f32[?]/1, B=#16").body)
    assert "atomic::AddF, ordering::AcqRel, scope::Device, None, Some(" in text, text
    assert "cnt_atomic_add_inside" not in text, text


def test_scan_options_at_their_defaults_are_the_plain_scan(tmp_path):
    """`ct.cumsum(t, 0, rounding_mode=ct.RoundingMode.RN, flush_to_zero=False)` (round 20's s03 `scans`): refused
    ("ct.cumsum form (tile, axis=literal, reverse=literal) without rounding options"), where the reductions already
    took their options at their defaults; cuTile Python builds the same scan, so the port does (one table of the
    defaults for both)."""
    text = "\n".join(emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0), 0), (B, 4))
    ct.store(y, (ct.bid(0), 0), ct.cumsum(t, 0, rounding_mode=ct.RoundingMode.RN, flush_to_zero=False))
""", "x=f32[?,?]/?,1, y=f32[?,?]/?,1, B=#16").body)
    assert "scan_sum(t, 0, reverse::Forward, 0.0f32)" in text, text
