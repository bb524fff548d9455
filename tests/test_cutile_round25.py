"""cuTile Python generality, round 25 (docs/corpus.md): kernels beyond LLMs — classic GPU-programming samples,
vision / audio / recsys / scientific kernels and the structural forms real packages use — ported with the CLI;
what they found in tileport, each as a test."""
import pytest

from test_cutile_round21 import emit_resolved
from fixtures.cutile_round25 import KERNELS
from tileport.translate.emit import Unsupported


def _body(em) -> str:
    return "\n".join(em.body)


def test_a_computed_gather_padding(tmp_path):
    """`ct.gather(data, p, mask=p < n, padding_value=lo - 1.0)` (round 25's p06 `onehot_histogram`: padded lanes
    fall below the histogram's range): refused ("padding_value that is not a constant number or a scalar argument
    of the array's dtype"). cuTile Python casts any scalar of the array's dtype to the padding and broadcasts it:
    the port names the computed value once and passes it as the scalar padding of a rank-1 gather."""
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, y, lo, n, B: ct.Constant[int]):
         i = ct.bid(0)
         p = i * B + ct.arange(B, dtype=ct.int32)
         v = ct.gather(x, p, mask=p < n, padding_value=lo - 1.0)
         ct.store(y, (i,), v)
     """, "x=f32[?]/1, y=f32[?]/1, lo=f32, n=i32, B=#128", consts=("B",)))
    assert "let x_gather_padding_value: f32 = " in body, body
    assert "Some(x_gather_mask), Some(x_gather_padding_value)" in body, body


def test_a_runtime_padding_of_a_rank_2_gather(tmp_path):
    """A scalar argument (or an expression of one) padding a rank-2 gather (`padding_value=fill`) was refused
    ("in a 1-D gather"): the padding tile of the result's shape is the scalar broadcast, as cuTile Python's
    gather_impl broadcasts it, loaded through the port's load_ptr_padded as the constant paddings are."""
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, y, fill, B: ct.Constant[int], D: ct.Constant[int]):
         i = ct.bid(0)
         r = i * B + ct.arange(B, dtype=ct.int32)
         c = ct.arange(D, dtype=ct.int32)
         v = ct.gather(x, (r[:, None], c[None, :]), padding_value=-fill * 2.0)
         ct.store(y, (i, 0), v)
     """, "x=f32[?,?]/?,1, y=f32[?,?]/?,1, fill=f32, B=#16, D=#32", consts=("B", "D")))
    assert "broadcast_scalar(x_gather_padding_value, shape![B, D])" in body, body
    assert "load_ptr_padded(" in body, body


def test_a_padding_of_another_dtype_stays_refused_at_its_position(tmp_path):
    """An int scalar padding a float array (cuTile Python's implicit cast) stays refused, at its file:line:col."""
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: ct\.gather padding_value that is not a constant number "
                                          r"or a scalar of the array's dtype"):
        emit_resolved(tmp_path, """
         @ct.kernel
         def k(x, y, n, B: ct.Constant[int]):
             i = ct.bid(0)
             p = i * B + ct.arange(B, dtype=ct.int32)
             ct.store(y, (i,), ct.gather(x, p, padding_value=n + 1))
         """, "x=f32[?]/1, y=f32[?]/1, n=i32, B=#128", consts=("B",))


def test_a_combined_mask_converted_is_bound_first(tmp_path):
    """`((digit[:, None] == bins[None, :]) & (p[:, None] < n)).astype(ct.int32)` (round 25's p06
    `radix_digit_count`): **unproven** — the port wrote `exti(eq_tile(..) & lt_tile(..).broadcast(..))`, which
    cutile 0.3.1 compiled with a broadcast of the wrong rank (it compiles a conversion's operand expecting the
    conversion's result type): tileirdisasm rejected the bytecode. A boolean `&` / `|` / `^` converted is bound to
    its typed `let` first, then converted (the same ops)."""
    body = _body(emit_resolved(tmp_path, *KERNELS["r25_mask_cast"], consts=("B",)))
    assert "let cast_mask: Tile<bool, { [B, 16] }> = eq_tile(" in body, body
    assert "exti(cast_mask)" in body, body


def test_a_comparison_converted_is_not_bound(tmp_path):
    """A single comparison converted (`(p < n).astype(ct.int32)`, the common form) is written as before."""
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(y, n, B: ct.Constant[int]):
         i = ct.bid(0)
         p = i * B + ct.arange(B, dtype=ct.int32)
         ct.store(y, (i,), (p < n).astype(ct.int32))
     """, "y=i32[?]/1, n=i32, B=#256", consts=("B",)))
    assert "_mask" not in body and "exti(lt_tile(" in body, body


def test_an_atomic_is_ordered_after_the_reads_of_its_array(tmp_path):
    """`lu = ct.gather(labels, u)` .. then `ct.atomic_min(labels, u, ..)` (round 25's p11 `label_propagation`):
    **unproven** — cuTile Python's token order joins each gather's token into the array's, so the atomic comes
    after the reads of its array; the port's atomic started from the array's own token ("join_tokens vs
    make_token"). The gathers' read tokens of an array an atomic updates are kept and joined into the atomic's
    input token, as a scatter's are."""
    body = _body(emit_resolved(tmp_path, *KERNELS["r25_atomic_after_gathers"], consts=("B",)))
    assert "let (labels_gather, labels_gather_read)" in body, body
    assert "let labels_atomic_min_after_reads: Token = join_tokens(&[join_tokens(&[labels_atomic_min_token, " \
           "labels_gather_read]), labels_gather_2_read]);" in body, body
    assert "Some(labels_atomic_min_after_reads)" in body, body
    assert "src_gather_read" not in body, body   # (an array no atomic updates: its reads order nothing)


def test_an_unsigned_or_narrow_integer_tile_modulo_a_constant(tmp_path):
    """`h % NBITS` of a uint32 hash tile (round 25's p11 `bloom_insert`) was refused ("of Tile<u32> and i32 (i32
    or i64 scalars are translated)"): cuTile Python types the Python int as the tile and emits the signed recipe's
    remi / compares / select in that dtype (unsigned there); the port writes the same (`i8` `//` too). A runtime
    i32 scalar with a uint32 tile stays refused (cuda.tile itself rejects the promotion)."""
    body = _body(emit_resolved(tmp_path, *KERNELS["r25_unsigned_mod"], consts=("NB", "B")))
    assert "remi(h, divisor)" in body and "Tile<u32, { [B] }>" in body, body
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: `h % n` of Tile<u32"):
        emit_resolved(tmp_path, """
         @ct.kernel
         def k(x, y, n, B: ct.Constant[int]):
             i = ct.bid(0)
             h = ct.load(x, (i,), (B,))
             ct.store(y, (i,), h % n)
         """, "x=u32[?]/1, y=u32[?]/1, n=i32, B=#128", consts=("B",))


def test_an_atomic_on_an_array_also_loaded_as_tiles(tmp_path):
    """`t = ct.load(x, (i,), (B,))` then `ct.atomic_add(x, p, t)` (an array read as tiles and updated atomically)
    was refused ("array 'x' is scattered into and also loaded or stored as tiles"): the views' tokens and the
    atomic's are ordered only by the array's own tokens. An acquiring atomic there now takes the acquire-ordered
    path (cuTile Python's token order emulated per array: the load's partition token joined into the array's, the
    atomic after it); a relaxed atomic beside tile accesses of its array stays refused at its position."""
    body = _body(emit_resolved(tmp_path, *KERNELS["r25_atomic_after_tiles"], consts=("B",)))
    assert "zz_00x_token = join_tokens(&[zz_00x_token, get_partition_token(&x_view)]);" in body, body
    assert "Some(x_after)" in body, body
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: array 'x' is scattered into and also loaded or stored "
                                          r"as tiles"):
        emit_resolved(tmp_path, """
         @ct.kernel
         def k(x, idx, B: ct.Constant[int]):
             i = ct.bid(0)
             t = ct.load(x, (i,), (B,))
             ct.atomic_add(x, ct.load(idx, (i,), (B,)), t, memory_order=ct.MemoryOrder.RELAXED)
         """, "x=i32[?]/1, idx=i32[?]/1, B=#128", consts=("B",))


def test_a_scatter_into_an_array_also_read_as_tiles(tmp_path):
    """A KV cache appended by a ct.scatter, then read as a tile (`ct.scatter(cache, (rows[:, None], cols), v)` then
    `ct.load(cache, (i, 0), (B, D))`), was refused ("array 'cache' is scattered into and also loaded or stored as
    tiles"). Where every access of the array is among the kernel's straight-line statements it takes the
    acquire-ordered path (no atomic needed: each array's last-write and last-operation tokens), proven (test_port's
    SMALL_KERNELS r25_scatter_then_load); through the arms of a runtime `if` it stays refused at its position."""
    body = _body(emit_resolved(tmp_path, *KERNELS["r25_scatter_then_load"], consts=("B", "D")))
    assert "zz_02cache_token = cache_scatter_done;" in body, body   # (the load waits on the scatter's write)
    assert "make_partition_view(cache, shape![B, D], padding::None, dim_map::Identity, zz_02cache_wtoken)" in body
    # (the scatter and a tile store in the arms of a runtime if stay refused: test_translate's refusal table)
