"""cuTile Python generality, round 21c (docs/corpus.md): round 21b's "Left" list and round 21's — a nested tuple
carried by a loop, `ct.pack_to_bytes` / `ct.unpack_from_bytes` — each as a test at the emitter; each kernel
re-ported and proven with the CLI. (The two arrays stored in a loop that breaks or returns, `brk_acc` / `ret_acc`,
were irdiff's: rules loop-carried-order and loop-return-unobserved, tested in tests/test_irdiff_rules.py.)"""
from kernel_text import resolved
from test_cutile_round21 import emit_resolved

NESTED_STATE = """
@ct.function
def softmax_step(state, t):
    (m, s), n = state
    m_new = ct.maximum(m, ct.max(t))
    s = s * ct.exp(m - m_new) + ct.sum(ct.exp(t - m_new))
    return (m_new, s), n + 1


@ct.kernel
def k(x, lse, cnt, nb: int, B: ct.Constant[int]):
    r = ct.bid(0)
    state = ((-1.0e30, 0.0), 0)
    for j in range(nb):
        t = ct.load(x, (r, j), (1, B)).astype(ct.float32)
        state = softmax_step(state, t)
    (m, s), n = state
    ct.store(lse, (r,), ct.full((1,), m + ct.log(s), dtype=ct.float32))
    ct.store(cnt, (r,), ct.full((1,), n, dtype=ct.int32))
"""


def test_a_nested_tuple_carried_by_a_loop_is_one_name_per_leaf(tmp_path):
    """`state = ((-1.0e30, 0.0), 0)`, `state = softmax_step(state, t)` in a loop, the helper unpacking `(m, s), n =
    state` and returning `(m_new, s), n + 1`, `(m, s), n = state` after the loop (round 21b's t08
    `tuple_state_softmax`): refused at the inner tuple ("expression `(-1.0e30, 0.0)`"). Resolve's tuple-name
    split flattens nested tuples too: one name per leaf (`state_0_0`, `state_0_1`, `state_1`), the re-binding
    unpacked by the nesting (then flattened with the helper's nested return, helper-nested-tuple), the helper
    given the nested tuple of the names and unpacking it as Python does; each leaf is carried by the loop as
    cuTile Python carries each item of the tuple."""
    text, _ = resolved(tmp_path, "import cuda.tile as ct\n" + NESTED_STATE)
    lines = [line.strip() for line in text.splitlines()]
    assert lines[1:4] == ["state_0_0 = -1e+30", "state_0_1 = 0.0", "state_1 = 0"], text
    assert "state_0_0, state_0_1, state_1 = softmax_step(((state_0_0, state_0_1), state_1), t)" in lines, text
    assert lines[-5:-2] == ["m = state_0_0", "s = state_0_1", "n = state_1"], text
    em = emit_resolved(tmp_path, NESTED_STATE, "x=f32[?,?]/?,1, lse=f32[?]/1, cnt=i32[?]/1, nb=i32, B=#64")
    code = "\n".join(em.body)
    assert "let mut state_0_0: f32 = -1e+30;" in code and "let mut state_1: i32 = 0;" in code, code
    assert "let m: f32 = state_0_0;" in code and "let n: i32 = state_1;" in code, code   # (the helper's unpacking)
    assert "state_0_1 = tile_to_scalar::<f32, f32>(softmax_step_out_2.1);" in code, code


def test_a_nested_tuple_re_bound_in_branches_and_read_by_index(tmp_path):
    """A nested tuple re-bound in both arms of an `if` in a loop, once from a helper reading its parameter as
    `st[0][0]`, `st[0][1]`, `st[1]` and returning `((m, s), f)`, once written out from its own items
    (`((st[0][0], st[0][1] - 1.0), st[1])`), then read by index after the loop: each leaf a name carried through
    the branches, `st[0][1]` that name (the helper's parameter given the nested tuple of the names: its item)."""
    body = """
@ct.function
def step(st, t):
    m_new = ct.maximum(st[0][0], ct.max(t))
    return ((m_new, st[0][1] + ct.sum(t)), st[1] * 2.0)


@ct.kernel
def k(x, out, nb: int, B: ct.Constant[int]):
    r = ct.bid(0)
    st = ((-1.0e30, 0.0), 1.0)
    for j in range(nb):
        t = ct.load(x, (r, j), (1, B))
        if j % 2 == 0:
            st = step(st, t)
        else:
            st = ((st[0][0], st[0][1] - 1.0), st[1])
    ct.store(out, (r,), ct.full((1,), st[0][0] + st[0][1] + st[1], dtype=ct.float32))
"""
    text, _ = resolved(tmp_path, "import cuda.tile as ct\n" + body)
    assert "st_0_1 = st_0_1 - 1.0" in text and "st_0_0 + st_0_1 + st_1" in text, text
    em = emit_resolved(tmp_path, body, "x=f32[?,?]/?,1, out=f32[?]/1, nb=i32, B=#64")
    code = "\n".join(em.body)
    assert "broadcast_scalar(st_0_0, shape![])" in code and "broadcast_scalar(st_0_1, shape![])" in code, code
    assert "let filled: Tile<f32, { [1] }> = broadcast_scalar((st_0_0 + st_0_1) + st_1, shape![1]);" in code, code


def test_a_flat_tuple_state_is_split_as_before(tmp_path):
    """The flat form (round 21b's scratch `flat_state`) keeps its names and its unpacking."""
    text, _ = resolved(tmp_path, """
import cuda.tile as ct


@ct.function
def flat_step(state, t):
    m, s = state
    m_new = ct.maximum(m, ct.max(t))
    return m_new, s * ct.exp(m - m_new) + ct.sum(ct.exp(t - m_new))


@ct.kernel
def k(x, lse, nb: int, B: ct.Constant[int]):
    r = ct.bid(0)
    state = (-1.0e30, 0.0)
    for j in range(nb):
        t = ct.load(x, (r, j), (1, B)).astype(ct.float32)
        state = flat_step(state, t)
    m, s = state
    ct.store(lse, (r,), ct.full((1,), m + ct.log(s), dtype=ct.float32))
""")
    assert "state_0, state_1 = flat_step((state_0, state_1), t)" in text and "m = state_0" in text, text


def test_pack_to_bytes_and_unpack_from_bytes(tmp_path):
    """`b = ct.pack_to_bytes(t)`, `u = ct.unpack_from_bytes(b, ct.float32)` (round 20's s05 `bytes_rt`): refused
    (row api-pack_to_bytes). cuTile Python reshapes to rank 1 and emits Tile IR `pack` / `unpack` (a `bitcast` for
    an 8-bit dtype, nothing for uint8 itself); cutile 0.3.1's core has rank-1 `pack` / `unpack`, bound here to the
    type that gives the extent (8 f32 → 32 bytes)."""
    from kernel_text import emit

    em = emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, (i,), (B,))
    b = ct.pack_to_bytes(t)
    u = ct.unpack_from_bytes(b, ct.float32)
    ct.store(y, (i,), u)
""", "x=f32[?]/1, y=f32[?]/1, B=#8")
    code = "\n".join(em.body)
    assert "let b: Tile<u8, { [32] }> = pack(t);" in code and "let u: Tile<f32, { [8] }> = unpack(b);" in code, code
    # a 2-d f16 tile: flattened first; 8-bit dtypes: a bitcast each way, uint8 to uint8 nothing
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, q, z, B: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, (i, 0), (2, B))
    b = ct.pack_to_bytes(t)
    ct.store(y, (i,), ct.unpack_from_bytes(b, ct.int16))
    s = ct.unpack_from_bytes(ct.pack_to_bytes(ct.load(q, (i,), (B,))), ct.int8)
    ct.store(z, (i,), ct.unpack_from_bytes(ct.pack_to_bytes(s), ct.uint8))
""", "x=f16[?,?]/?,1, y=i16[?]/1, q=u8[?]/1, z=u8[?]/1, B=#16")
    code = "\n".join(em.body)
    assert "Tile<u8, { [64] }> = pack((t).reshape(shape![32]));" in code, code
    assert "Tile<i16, { [32] }> = unpack(b);" in code, code
    assert code.count("bitcast(") == 2 and "Tile<i8, { [B] }> = bitcast(" in code, code   # (its extent as loaded)


def test_pack_to_bytes_of_float4(tmp_path):
    """A float4_e2m1fn tile packed (TileGym's nvfp4_quantize: `ct.reshape(ct.pack_to_bytes(fp4), ..)`): flattened,
    then `pack`, two elements a byte (`build/host21/unit/pk4.py` proven at sm_90 and sm_100)."""
    from kernel_text import emit

    em = emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    i = ct.bid(0)
    f = ct.astype(ct.load(x, (i, 0), (2, B)), ct.float4_e2m1fn)
    ct.store(y, (i, 0), ct.reshape(ct.pack_to_bytes(f), (2, B // 2)))
""", "x=f32[?,?]/?,1, y=u8[?,?]/?,1, B=#32")
    assert "Tile<u8, { [32] }> = pack((f).reshape(shape![64]));" in "\n".join(em.body), em.body


def test_pack_and_unpack_forms_cuda_tile_rejects_are_refused(tmp_path):
    """What cuda.tile 1.7 rejects is refused under row pack-bytes, never a traceback: unpacking a tile not of
    rank 1 or not uint8, a bool tile, bits that make no whole element."""
    import pytest
    from kernel_text import emit
    from tileport.translate.emit import Unsupported

    for expr, sig in (("ct.unpack_from_bytes(ct.load(x, (i, 0), (2, B)), ct.float32)", "x=u8[?,?]/?,1"),
                      ("ct.unpack_from_bytes(ct.load(x, (i,), (B,)), ct.float32)", "x=f32[?]/1"),
                      ("ct.pack_to_bytes(ct.load(x, (i,), (B,)) > 0)", "x=f32[?]/1"),
                      ("ct.unpack_from_bytes(ct.load(x, (i,), (2,)), ct.float32)", "x=u8[?]/1")):
        with pytest.raises(Unsupported) as info:
            emit(tmp_path, f"""
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    i = ct.bid(0)
    v = {expr}
    ct.store(y, (i,), v)
""", f"{sig}, y=f32[?]/1, B=#16")
        assert "pack-bytes" in str(info.value), (expr, info.value)
