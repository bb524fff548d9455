"""cuTile Python generality, round 22 (docs/corpus.md): kernels of our own in styles and API uses earlier rounds did
not cover (typed signatures, static config checks, rank-3/4 shapes, f64 / unsigned / fp8 math, model kernels,
spatial ops, Python forms, Rust-reserved and generated names), ported with the CLI; what they found in tileport,
each as a test."""
import pytest

from kernel_text import emit


def _body(em) -> str:
    return "\n".join(em.body)


def test_a_boolean_tile_filled_with_ones_or_zeros(tmp_path):
    """`ct.ones((B,), dtype=ct.bool_)` (round 22's u03 `fills`): the emitter wrote `constant(1bool, ..)`, which
    rustc rejects ("invalid suffix `bool` for number literal"); a boolean fill of any constant is Python's truth of
    it, `constant(true, ..)`, as cuTile Python's `constant <i1: ..>`."""
    em = emit(tmp_path, """
@ct.kernel
def k(y, B: ct.Constant[int]):
    a = ct.astype(ct.ones((B,), dtype=ct.bool_), ct.float32)
    b = ct.astype(ct.zeros((B,), dtype=ct.bool_), ct.float32)
    c = ct.full((B,), 2, ct.bool_)
    ct.store(y, (ct.bid(0),), a + b + ct.astype(c, ct.float32))
""", "y=f32[?]/1, B=#16")
    body = _body(em)
    assert "bool" not in body.replace("Tile<bool", "").replace("bool,", ""), body
    assert body.count("constant(true, shape![B])") == 2 and "constant(false, shape![B])" in body, body


def test_underscore_read_as_a_value_is_renamed(tmp_path):
    """`_, __ = ct.bid(0), 0` then `ct.load(x, (_, __), ..)` (round 22's u08 `underscore_names`): Rust's `_` is a
    pattern, never an expression ("`_` can only be used on the left-hand side of an assignment"): a `_` that is read
    is renamed, past the kernel's own `__` (`___`); a `_` only written (`for _ in range(n)`) stays."""
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, N: ct.Constant[int]):
    _, __ = ct.bid(0), 0
    t = ct.load(x, (_, __), (1, N))
    for _ in range(2):
        t = t * 2.0
    ct.store(y, (ct.bid(0), 0), t)
""", "x=f32[?,?]/?,1, y=f32[?,?]/?,1, N=#64", consts=("N",))
    body = _body(em)
    assert "let ___: i32 = get_tile_block_id().0;" in body and "let __: i32 = 0;" in body, body
    assert "[___, __]" in body and "for ___ in" in body, body
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, N: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0), 0), (1, N))
    for _ in range(2):
        t = t * 2.0
    ct.store(y, (ct.bid(0), 0), t)
""", "x=f32[?,?]/?,1, y=f32[?,?]/?,1, N=#64", consts=("N",))
    assert "for _ in" in _body(em), _body(em)


@pytest.mark.parametrize("call,mode", [("ct.atomic_add(total, 0, ct.sum(t))", "atomic::AddF"),
                                       ("ct.atomic_xchg(total, 0, ct.sum(t))", "atomic::Xchg")])
def test_f64_atomics(tmp_path, call, mode):
    """`ct.atomic_add` of an f64 sum into an f64 array (round 22's u09 `f64_atomic`): refused ("ct.atomic_add on
    f64 (f16, bf16, f32, i32, ..)"), though cuda.tile 1.7 takes f64 for add, xchg and cas (its
    `int_float_32_64_dtypes`) and cutile 0.3.1's `atomic_rmw_tko` is generic over the element type: ported (proven
    with the CLI, `build/host22/unit/at64.py` too)."""
    em = emit(tmp_path, f"""
@ct.kernel
def k(x, total, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (B,))
    {call}
""", "x=f64[?]/1, total=f64[?]/1, B=#128")
    body = _body(em)
    assert mode in body and "Tile<f64" in body and "atomic_rmw_tko" in body, body


def test_f64_atomic_cas(tmp_path):
    em = emit(tmp_path, """
@ct.kernel
def k(flags, out, B: ct.Constant[int]):
    r = ct.atomic_cas(flags, ct.arange(B, dtype=ct.int32), 0.0, 1.5)
    ct.store(out, (ct.bid(0),), r)
""", "flags=f64[?]/1, out=f64[?]/1, B=#64")
    assert "atomic_cas_tko" in _body(em), _body(em)


def test_a_store_of_an_acquiring_atomics_result_is_ordered_after_it(tmp_path):
    """`ct.store(old, (i,), ct.atomic_xchg(slots, idx, t))` (round 22's `build/host22/unit/at64.py`): the store is
    written before the atomic but runs after it (its argument), and the atomic acquires (acq_rel, the default), so
    cuTile Python orders the store on the atomic's token. The acquire-ordered mode was entered only for memory
    operations written after the atomic: the store was emitted unordered, and irdiff reported the token
    (unproven). A call enclosing the atomic counts as later."""
    em = emit(tmp_path, """
@ct.kernel
def k(x, slots, old, B: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, (i,), (B,))
    ct.store(old, (i,), ct.atomic_xchg(slots, ct.arange(B, dtype=ct.int32), t))
""", "x=f32[?]/1, slots=f32[?]/1, old=f32[?]/1, B=#64")
    body = _body(em)
    assert "zz_zz_acquire" in body, body
    em = emit(tmp_path, """
@ct.kernel
def k(x, slots, old, B: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, (i,), (B,))
    ct.store(old, (i,), t)
    ct.atomic_xchg(slots, ct.arange(B, dtype=ct.int32), t)
""", "x=f32[?]/1, slots=f32[?]/1, old=f32[?]/1, B=#64")
    assert "zz_zz_acquire" not in _body(em), _body(em)   # (nothing after the acquire: as before)


def test_temporaries_do_not_take_the_kernels_own_names(tmp_path):
    """A local named like a temporary the emitter makes (`filled = t * 3.0`, then a `ct.full(..)` inside a
    `ct.where`; `x_view = ct.load(x, ..)`, then another load of x): the temporary was bound under the same name and
    the kernel's later reads took it (the constant 2.0 for `filled`: irdiff reported the difference; the partition
    view for `x_view`: rustc refused the types). Temporaries and per-array views skip the kernel's names."""
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    pid = ct.bid(0)
    t = ct.load(x, (pid,), (B,))
    filled = t * 3.0
    z = ct.where(t > 1.0, ct.full((B,), 2.0, ct.float32), t) + filled
    ct.store(y, (pid,), z + filled)
""", "x=f32[?]/1, y=f32[?]/1, B=#64")
    body = _body(em)
    assert "let filled_2: Tile<f32, { [B] }> = constant(2.0f32" in body, body
    assert "(z + filled)" in body and "let filled: Tile<f32, { [B] }> = t *" in body, body
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    pid = ct.bid(0)
    x_view = ct.load(x, (pid,), (B,))
    nxt = ct.load(x, (pid + 1,), (B,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (pid,), x_view + nxt)
""", "x=f32[?]/1, y=f32[?]/1, B=#64")
    body = _body(em)
    assert "let x_view_: Partition<f32" in body and "let x_view: Tile<f32, { [B] }>" in body, body


@pytest.mark.parametrize("fn", ["grid_dependency_control_wait", "grid_dependency_control_launch_dependents"])
def test_grid_dependency_control_is_refused_with_the_reason(tmp_path, fn):
    """`ct.grid_dependency_control_wait()` (round 22's u05 `pdl_scale`): refused as "call .. as a statement" under
    an api- row; cutile-ir 0.3.1 has no opcode for Tile IR's grid-dependency ops, so it is a limit: the refusal says
    so, under its own row."""
    from tileport.translate.emit import Unsupported
    with pytest.raises(Unsupported) as info:
        emit(tmp_path, f"""
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    ct.{fn}()
    ct.store(y, (ct.bid(0),), ct.load(x, (ct.bid(0),), (B,)))
""", "x=f32[?]/1, y=f32[?]/1, B=#64")
    msg = str(info.value)
    assert "grid-dependency-control" in msg and "cutile-ir 0.3.1 has no such opcode" in msg and "k.py:7:5" in msg, msg


def test_a_stride_parameter_skips_a_local_of_its_name(tmp_path):
    """`st = x.strides[0]` in a kernel with a local `x_stride0` of its own (`build/host22/unit/names3.py`): the
    entry's stride parameter, `x_stride0`, was re-bound by the local, and `st` read the local (1) instead of the
    stride: irdiff found an `addi` where cuTile Python reads the parameter (unproven). The parameter takes a name
    the kernel does not use (`x_stride0_`), in the entry, the prologue's facts and the ABI alike."""
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    pid = ct.bid(0)
    x_stride0 = ct.bid(0) * 0 + 1
    st = x.strides[0]
    offs = (pid * B + ct.arange(B, dtype=ct.int32)) * st * x_stride0
    ct.store(y, (pid,), ct.gather(x, offs // st))
""", "x=f32[?]/?, y=f32[?]/1, B=#64")
    assert "x_stride0_: i32" in em.params, em.params
    assert [a["name"] for a in em.abi if a.get("kind") == "stride"] == ["x_stride0_"], em.abi
    body = _body(em)
    assert "let x_stride0_: i32 = unsafe { assume_bounds_lower::<_, 0>(x_stride0_) };" in body, body
    assert "let st: i32 = x_stride0_;" in body, body


def test_a_keyword_rename_skips_the_kernels_own_names(tmp_path):
    """A local named like a Rust keyword is renamed with `_` added (`type` → `type_`); beside a local `type_` of the
    kernel's own the two were one Rust name. The rename adds `_` until the name is the kernel's no other's."""
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    type = ct.load(x, (ct.bid(0),), (B,))
    type_ = type * 2.0
    ct.store(y, (ct.bid(0),), type + type_)
""", "x=f32[?]/1, y=f32[?]/1, B=#64")
    body = _body(em)
    assert "let type__: Tile<f32, { [B] }>" in body and "let type_: Tile<f32, { [B] }> = type__ *" in body, body


def test_f64_constants_are_cuda_tiles_f32_values(tmp_path):
    """A Python float in an f64 kernel is an f32 constant in cuTile Python, converted (round 10 found `t + 0.1`).
    Two forms missed it (`build/host22/unit/consts.py`): a literal beyond f32's range (`ct.where(t > 1e300,
    1.7976931348623157e308, r)`) is inf there, and the port wrote the literal `inff64` (rustc: "cannot find value");
    and `ct.full((B,), 2.718281828459045, ct.float64)` fills 2.7182817459106445 there, the port the exact value
    (irdiff: unproven). Both are now the f32 value: the named `f64::INFINITY` constant, and the rounded fill."""
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (B,))
    r = t * 0.1 + ct.full((B,), 2.718281828459045, ct.float64)
    ct.store(y, (ct.bid(0),), ct.where(t > 1e300, 1.7976931348623157e308, r))
""", "x=f64[?]/1, y=f64[?]/1, B=#64")
    body = _body(em)
    assert "inff64" not in body and body.count("constant(f64::INFINITY, shape![B])") == 2, body
    assert "constant(2.7182817459106445f64, shape![B])" in body and "0.10000000149011612f64" in body, body


def test_a_float_constant_parameter_in_an_f64_operation_is_folded(tmp_path):
    """`t * ALPHA` of an f64 tile and a `ct.Constant[float]` (`build/host22/unit/consts3.py`): cuTile Python folds the
    constant into an f64 constant of its f32 value; the port converted an f32 scalar at run time (`ftof`), which
    irdiff reported ("constant vs broadcast"). A float constant by name is folded as a literal is."""
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, ALPHA: ct.Constant[float], B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (B,))
    ct.store(y, (ct.bid(0),), t * ALPHA)
""", "x=f64[?]/1, y=f64[?]/1, ALPHA=#0.1, B=#64", consts=("ALPHA", "B"))
    body = _body(em)
    assert "broadcast_scalar(0.10000000149011612f64, shape![B])" in body and "convert_tile" not in body, body
