"""cuTile Python generality, round 24 (docs/corpus.md): kernels of our own over cuda.tile 1.7's API surface (ops,
keywords, dtype combinations), Python forms inside kernels and LLM serving / training styles, ported with the CLI;
what they found in tileport, each as a test."""
import pytest

from test_cutile_round21 import emit_resolved
from tileport.translate.emit import Unsupported


def _body(em) -> str:
    return "\n".join(em.body)


def test_matmul_of_a_batch_by_a_matrix(tmp_path):
    """`tx @ tw` of a rank-3 tile and a rank-2 one (round 24's p02 `matmul_3d_by_2d`): refused ("ct.matmul of
    anything but two 2-d float tiles (or 3-d ones of one batch extent)"). cuTile Python's matmul_impl reshapes the
    rank-2 operand to a batch of one and broadcasts it to the other's batch, then multiplies into a zero
    accumulator; the port writes the same reshape, broadcast and batched mma."""
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, w, out, H: ct.Constant[int], B: ct.Constant[int], K: ct.Constant[int], N: ct.Constant[int]):
         i = ct.bid(0)
         tx = ct.load(x, (0, i, 0), (H, B, K))
         tw = ct.load(w, (0, 0), (K, N))
         ct.store(out, (0, i, 0), tx @ tw)
     """, "x=f32[?,?,?]/?,?,1, w=f32[?,?]/?,1, out=f32[?,?,?]/?,?,1, H=#4, B=#16, K=#32, N=#16",
                                  consts=("H", "B", "K", "N")))
    assert "tw.reshape(shape![1, K, N])" in body, body
    assert ".broadcast(shape![H, K, N])" in body, body
    assert "mma_batched(tx, broadcast, zero)" in body, body


def test_matmul_of_vectors_and_mixed_dtypes(tmp_path):
    """A 1-d operand (`v @ w`, `a @ b` of two vectors: a dot product) is made `(1, K)` / `(K, 1)` and the
    product's axis dropped again by a reshape; operands of two float dtypes (`f16 @ f32`) are promoted to their
    common dtype first (round 24's p02 `matvec_1d`, `dot_1d`, `mm_mixed_promote`: refused before), as
    cuTile Python's matmul_impl does."""
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, w, h, out, K: ct.Constant[int], N: ct.Constant[int]):
         i = ct.bid(0)
         v = ct.reshape(ct.load(x, (i, 0), (1, K)), (K,))
         tw = ct.load(w, (0, 0), (K, N))
         r = ct.matmul(v, tw)
         d = v @ v
         th = ct.load(h, (0, 0), (K, K))
         p = ct.matmul(th, tw)
         ct.store(out, (i, 0), ct.reshape(r + d, (1, N)) + ct.sum(p))
     """, "x=f32[?,?]/?,1, w=f32[?,?]/?,1, h=f16[?,?]/?,1, out=f32[?,?]/?,1, K=#32, N=#16", consts=("K", "N")))
    assert "v.reshape(shape![1, K])" in body and "v.reshape(shape![K, 1])" in body, body
    assert ".reshape(shape![N])" in body and ".reshape(shape![])" in body, body
    assert "let promoted_f32: Tile<f32, { [K, K] }> = convert_tile(th);" in body, body


def test_mma_of_a_batch_by_a_matrix(tmp_path):
    """`ct.mma(x3, w2, acc3)` (round 24's p02 `tf32_mma_batched`): refused ("ct.mma operand shapes"); cuTile
    Python's mma_impl reshapes the rank-2 operand to a batch (no broadcast where the batch is 1)."""
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(a, b, c, M: ct.Constant[int], N: ct.Constant[int], K: ct.Constant[int]):
         z = ct.bid(0)
         ta = ct.load(a, (z, 0, 0), (1, M, K))
         tb = ct.load(b, (0, 0), (K, N))
         ct.store(c, (z, 0, 0), ct.mma(ta, tb, acc=ct.zeros((1, M, N), dtype=ct.float32)))
     """, "a=f32[?,?,?]/?,?,1, b=f32[?,?]/?,1, c=f32[?,?,?]/?,?,1, M=#16, N=#32, K=#32", consts=("M", "N", "K")))
    assert "tb.reshape(shape![1, K, N])" in body and ".broadcast(" not in body, body
    assert "mma_batched(ta, reshaped" in body, body


def test_matmul_refusals_name_the_position(tmp_path):
    """What stays refused is refused at its file:line:col with the reason: an integer matmul (cuTile Python
    accumulates in i32 and converts back; not ported), shapes whose batches do not broadcast."""
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: ct\.matmul of anything but two float tiles"):
        emit_resolved(tmp_path, """
         @ct.kernel
         def k(a, b, c, B: ct.Constant[int]):
             i = ct.bid(0)
             ct.store(c, (i, 0), ct.load(a, (i, 0), (B, B)) @ ct.load(b, (0, 0), (B, B)))
         """, "a=i8[?,?]/?,1, b=i8[?,?]/?,1, c=i8[?,?]/?,1, B=#32")


def test_invert_of_an_unsigned_tile_and_of_an_int_scalar(tmp_path):
    """`~a` of a uint32 tile (round 24's p01 `bit_ops_u32`): the port xored with `-1u32` (rustc: "cannot apply
    unary operator `-` to type `u32`", failed); an unsigned tile's all-ones is its largest value, written as its
    signed bits as other unsigned constants with the top bit set are. `~i` of a runtime int (p04 `shifts_scalars`,
    `~ct.bid(0)`): refused ("an integer or bool tile is expected"); cuTile Python xors its 0-d tile with -1."""
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, out, B: ct.Constant[int]):
         i = ct.bid(0)
         a = ct.load(x, (i,), (B,))
         ct.store(out, (i,), (~a) ^ (a << 2))
     """, "x=u32[?]/1, out=u32[?]/1, B=#128"))
    assert "-1u32" not in body and "bitcast" in body, body
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, out, B: ct.Constant[int]):
         i = ct.bid(0)
         t = ct.load(x, (i,), (B,))
         ct.store(out, (i,), t + (~i))
     """, "x=i32[?]/1, out=i32[?]/1, B=#128"))
    assert "let inverted: i32 = i;" in body and "-1i32" in body, body
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: `~` of f32"):
        emit_resolved(tmp_path, """
         @ct.kernel
         def k(x, out, s: float, B: ct.Constant[int]):
             i = ct.bid(0)
             ct.store(out, (i,), ct.load(x, (i,), (B,)) + (~s))
         """, "x=f32[?]/1, out=f32[?]/1, s=f32, B=#128")


W4 = """
@ct.kernel
def k(x, qw, out, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for kb in range(ct.num_tiles(x, axis=1, shape=(BM, BK))):
        a = ct.load(x, (i, kb), (BM, BK))
        packed = ct.load(qw, (kb, j), (BK // 8, BN))
        w = ct.astype(ct.reshape((packed[:, None, :] >> (ct.arange(8, dtype=ct.int32) * 4)[None, :, None]) & 15,
                                 (BK, BN)), ct.float32)
        acc = ct.mma(a, w, acc)
    ct.store(out, (i, j), acc)
"""


def test_a_loop_over_another_arrays_tiles_of_another_extent_loads_unchecked(tmp_path):
    """An int4 GEMM's `for kb in range(ct.num_tiles(x, 1, (BM, BK)))` loading `qw` in `(BK // 8, BN)` tiles at
    `(kb, j)` (round 24's p06 `w4a16_gemm`): **unproven** — the port used cutile's checked `.load`, and cutile
    discharges a counted loop index only against tiles of the same extent (its axis-provenance rung), so it
    asserted `kb < ceil(qw.shape[0] / 8)` before the loop, an assert cuTile Python's load does not have. That load
    is the Tile IR load itself now; one of the counted extent (`x` at `(i, kb)`) keeps the checked load."""
    body = _body(emit_resolved(tmp_path, W4, "x=f32[?,?]/?,1, qw=i32[?,?]/?,1, out=f32[?,?]/?,1, BM=#32, BN=#32, "
                                             "BK=#64", consts=("BM", "BN", "BK")))
    assert "x_view.load([i, kb])" in body, body
    assert "qw_view.load(" not in body and "load_view_tko(\n" in body or "load_view_tko(&qw_view" in body, body


def test_a_product_passed_through_a_starred_tuple_name(tmp_path):
    """`args = (t, t * 2.0, 1.0)` then `_sum3(*args)` whose `a + b + c` adds the product (round 24's p04
    `starred_kernel`): refused ("1 fma(s) in the reference IR .. for 0 candidate sums"): a product passed to a
    parameter the helper adds is bound to a name first (helper-call-argument), but the starred tuple name
    passed it only once tuple names were read in place. The arguments are bound again after that (the emitter
    then contracts the named product where the reference has the fma; no reference here: the binding is what
    changed)."""
    body = _body(emit_resolved(tmp_path, """
     def _sum3(a, b, c):
         return a + b + c


     @ct.kernel
     def k(x, out, B: ct.Constant[int]):
         i = ct.bid(0)
         t = ct.load(x, (i,), (B,))
         args = (t, t * 2.0, 1.0)
         ct.store(out, (i,), _sum3(*args))
     """, "x=f32[?]/1, out=f32[?]/1, B=#128"))
    assert "let _sum3_product: Tile<f32, { [B] }> = t * " in body, body
    assert "let b: Tile<f32, { [B] }> = _sum3_product;" in body, body


def test_an_8_bit_float_constant_the_format_holds(tmp_path):
    """`ct.full((B,), 448.0, ct.float8_e4m3fn)` (round 24's p09 `fp8_fill`, `fp8_sat`: a saturation bound):
    refused without a position ("cutile 0.3.1 has no 8-bit float constants (only +0 ..)"). cutile compiles no 8-bit
    float constant, but the conversion of an f32 constant the format holds exactly is that constant (irdiff's
    constant-conversion): the port writes it so. A value the format rounds (0.1) stays refused, at its position."""
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, q, B: ct.Constant[int]):
         i = ct.bid(0)
         hi = ct.astype(ct.full((B,), 448.0, ct.float8_e4m3fn), ct.float32)
         ct.store(q, (i,), ct.astype(ct.minimum(ct.load(x, (i,), (B,)), hi), ct.float8_e4m3fn))
     """, "x=f32[?]/1, q=f8e4m3fn[?]/1, B=#128"))
    assert "constant(448.0f32, shape![B]); convert_tile(wide)" in body, body
    with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: the f8e4m3fn constant 0\.1: cutile 0\.3\.1 has no 8-bit"):
        emit_resolved(tmp_path, """
         @ct.kernel
         def k(q, B: ct.Constant[int]):
             ct.store(q, (ct.bid(0),), ct.full((B,), 0.1, ct.float8_e4m3fn))
         """, "q=f8e4m3fn[?]/1, B=#128")


def test_bool_of_a_constant(tmp_path):
    """`b = bool(K)` of a `ct.Constant[int]` then `if b:` (round 24's p09 `const_casts`): refused ("call
    `bool(...)`"); cuTile Python folds Python's conversions of constants, `bool` as `int` and `float` (a table,
    CONVERSIONS). The arm is decided per specialization."""
    src = """
     @ct.kernel
     def k(x, out, B: ct.Constant[int], K: ct.Constant[int]):
         i = ct.bid(0)
         t = ct.load(x, (i,), (B,)) * float(K)
         if bool(K % 2):
             t = t + 1.0
         ct.store(out, (i,), t)
     """
    odd = _body(emit_resolved(tmp_path, src, "x=f32[?]/1, out=f32[?]/1, B=#128, K=#3", consts=("B", "K")))
    even = _body(emit_resolved(tmp_path, src, "x=f32[?]/1, out=f32[?]/1, B=#128, K=#4", consts=("B", "K")))
    assert "1.0f32" in odd and "1.0f32" not in even, (odd, even)


def test_store_advanced_indexing_through_a_gather_scatter_view(tmp_path):
    """`ct.store_advanced_indexing(out, (rows, ct.Slice(j * D, D)), t)` (round 24's p01 `store_adv`,
    `unpermute_rows`: a MoE un-permute): refused (row api-store_advanced_indexing). cuTile Python stores through a
    gather_scatter_view with Tile IR `store_view_tko`; cutile 0.3.1 declares the view and its load, not its store:
    the port declares the store (its index one operand segment: the index tile and the dense index). An array the
    kernel also accesses otherwise, or stores in a loop, is refused at its position (the store is ordered with
    nothing)."""
    em = emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, rows, out, B: ct.Constant[int], D: ct.Constant[int]):
         i, j = ct.bid(0), ct.bid(1)
         r = ct.load(rows, (i,), (B,))
         ct.store_advanced_indexing(out, (r, ct.Slice(j * D, D)), ct.load(x, (i, j), (B, D)))
     """, "x=f32[?,?]/?,1, rows=i32[?]/1, out=f32[?,?]/?,1, B=#16, D=#32", consts=("B", "D"))
    body = _body(em)
    assert "make_gather_scatter_view(out, shape![B, D], padding::None)" in body, body
    assert "store_gather_scatter_view_weak(" in body and "(r, j * D)" in body, body
    assert "store_gather_scatter_view_weak" in em.ops, em.ops
    for src in ("""
     @ct.kernel
     def k(x, rows, out, B: ct.Constant[int], D: ct.Constant[int]):
         i = ct.bid(0)
         r = ct.load(rows, (i,), (B,))
         for j in range(2):
             ct.store_advanced_indexing(out, (r, ct.Slice(j * D, D)), ct.load(x, (i, j), (B, D)))
     """, """
     @ct.kernel
     def k(x, rows, out, B: ct.Constant[int], D: ct.Constant[int]):
         i = ct.bid(0)
         r = ct.load(rows, (i,), (B,))
         t = ct.load(out, (i, 0), (B, D))
         ct.store_advanced_indexing(out, (r, ct.Slice(0, D)), t * 2.0)
     """):
        with pytest.raises(Unsupported, match=r"k\.py:\d+:\d+: ct\.store_advanced_indexing of out: an array the "
                                              r"kernel writes only there"):
            emit_resolved(tmp_path, src, "x=f32[?,?]/?,1, rows=i32[?]/1, out=f32[?,?]/?,1, B=#16, D=#32",
                          consts=("B", "D"))


def test_matmul_of_two_tf32_tiles_still_ported(tmp_path):
    """`ct.matmul(ct.astype(a, ct.tfloat32), ct.astype(b, ct.tfloat32))` (TileGym's chunked gated delta rule, its
    `_ct_mm`): ffb49e9 took the operands' common dtype by promotion, and tf32 is in no promotion chain, so the
    product of two tf32 tiles was refused ('ct.matmul of anything but two float tiles ..'): two TileGym kernels,
    27 variants each, failed where they were proven. Operands of one dtype are that dtype."""
    body = _body(emit_resolved(tmp_path, """
     @ct.kernel
     def k(x, w, y, B: ct.Constant[int]):
         a = ct.astype(ct.load(x, (0, 0), (B, B)), ct.tfloat32)
         b = ct.astype(ct.load(w, (0, 0), (B, B)), ct.tfloat32)
         ct.store(y, (0, 0), ct.astype(ct.matmul(a, b), ct.float32))
     """, "x=f32[?,?]/?,1, w=f32[?,?]/?,1, y=f32[?,?]/?,1, B=#16"))
    assert "mma(" in body, body
