import pytest
from hypothesis import given
from hypothesis import strategies as st

from tileport.spec.signature import (DTYPES, ArraySig, ConstSig, ScalarSig, Signature, SignatureError, bind, parse,
                                     to_cutile)


def test_parse_vector_add_signature():
    sig = parse("a=f32[?]/1, b=f32[?]/1, c=f32[?]/1, TILE=#1024")
    assert [n for n, _ in sig.params] == ["a", "b", "c", "TILE"]
    assert sig.params[0][1] == ArraySig("f32", (None,), (1,))
    assert sig.params[3][1] == ConstSig(1024)


def test_parse_mixed():
    sig = parse("f16[?,128]/?,1, i32, #0.5, x=bf16[?,?]@i64, #true")
    kinds = [p.kind for _, p in sig.params]
    assert kinds == ["array", "scalar", "constant", "array", "constant"]
    assert sig.params[0][1].strides == (None, 1)
    assert sig.params[3][1].index_i64
    assert sig.params[4][1] == ConstSig(True)


def test_parameter_names_are_python_identifiers():
    """A kernel's parameters are named as Python names them, Unicode too (`def lerp(a, b, out, α: float, ..)`, as a
    capture writes `α=f32`): was "cannot parse parameter 'α=f32'" (the port of such a kernel is proven: round 15)."""
    sig = parse("a=f32[?]/1, α=f32, β_2=#0.5, _n=i32")
    assert [n for n, _ in sig.params] == ["a", "α", "β_2", "_n"] and parse(sig.text()) == sig
    with pytest.raises(SignatureError, match="cannot parse parameter"):
        parse("2x=f32")


@pytest.mark.parametrize("text, needle", [
    ("f33[?]", "unknown dtype 'f33'"),
    ("f32[?,x]", "dimension 'x'"),
    ("f32[?,?]/1", "1 strides for a rank-2 array"),
    ("#abc", "not an int, float or bool"),
    ("f32[?", "cannot parse parameter"),
    ("", "empty signature"),
])
def test_errors_are_precise(text, needle):
    with pytest.raises(SignatureError, match=needle):
        parse(text)


def test_bind_checks_names_and_arity():
    with pytest.raises(SignatureError, match="takes 2 parameters"):
        bind(parse("f32[?]"), ["a", "b"], "k")
    with pytest.raises(SignatureError, match="names 'x' where the kernel's parameter is 'b'"):
        bind(parse("f32[?], x=f32[?]"), ["a", "b"], "k")
    assert [n for n, _ in bind(parse("f32[?], f32[?]"), ["a", "b"], "k").params] == ["a", "b"]


dims = st.lists(st.one_of(st.none(), st.integers(1, 4096)), min_size=0, max_size=4)  # rank 0 too


def _array(d):
    n = len(d)
    divs = st.lists(st.sampled_from([1, 2, 4, 8, 16]), min_size=n, max_size=n).map(tuple)
    strides = st.one_of(st.none(), st.lists(st.one_of(st.none(), st.integers(0, 1 << 20)), min_size=n,
                                            max_size=n).map(tuple))
    # a static dimension carries no divisibility fact of its own (the value says it all)
    return st.builds(lambda dt, sd, s, sdiv, i64, al, alias: ArraySig(
        dt, tuple(d), s if s is None or any(x is not None for x in s) else None, i64,
        tuple(1 if v is not None else k for v, k in zip(d, sd)),
        tuple(1 if (s is not None and v is not None) else k for v, k in zip(s or (None,) * n, sdiv)), al, alias),
        st.sampled_from(sorted(DTYPES)), divs, strides, divs, st.booleans(), st.sampled_from([1, 8, 16]),
        st.booleans())


arrays = dims.flatmap(_array)
params = st.one_of(arrays, st.builds(ScalarSig, st.sampled_from(sorted(DTYPES))),
                   st.builds(ConstSig, st.one_of(st.booleans(), st.integers(-10**6, 10**6))))
names = st.one_of(st.none(), st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True))


@given(st.lists(st.tuples(names, params), min_size=1, max_size=6))
def test_text_round_trips(items):
    sig = Signature(tuple(items))
    assert parse(sig.text()) == sig


def test_rank_0_arrays_read_back_what_capture_prints():
    """A 0-d array: `f32[]` (no extents, no strides); capture's text of one parses back to the same signature."""
    from tileport.frontends.cutile_py.capture import ArrayFacts, array_sig

    printed = array_sig(ArrayFacts("f32", (), (), 16))
    assert printed.text() == "f32[]&16" and parse(printed.text()).params[0][1] == printed
    assert parse("f32[]").params[0][1] == ArraySig("f32", ()) == parse("f32[]/").params[0][1]
    with pytest.raises(SignatureError, match="0 strides for a rank-1 array"):
        parse("f32[?]/")
    ks = to_cutile(bind(parse("x=f32[]&16, n=i32"), ["x", "n"], "k"))
    assert ks.parameters[0].ndim == 0 and ks.parameters[0].base_addr_divisible_by == 16


def test_to_cutile_builds_a_kernel_signature():
    ks = to_cutile(bind(parse("f32[?]/1, i32, #7"), ["a", "n", "K"], "k"))
    from cuda.tile import compilation as cc

    assert isinstance(ks, cc.KernelSignature)
    assert isinstance(ks.parameters[0], cc.ArrayConstraint)
    assert ks.parameters[0].stride_constant == (1,)
    assert isinstance(ks.parameters[1], cc.ScalarConstraint)


def test_list_of_arrays():
    """`list[ARRAY]` (a `List[Array]` parameter, e.g. a grouped GEMM's matrices): its text parses back to itself and
    becomes cuda.tile's ListConstraint; a list of anything but arrays, or a malformed one, is refused."""
    from cuda.tile import compilation as cc

    from tileport.spec.signature import ListSig

    sig = parse("As=list[bf16[?,?%16]/?%8,1&16], Bs=list[f32[?]/1]!alias, #128")
    a, b = sig.params[0][1], sig.params[1][1]
    assert isinstance(a, ListSig) and a.element.dtype == "bf16" and a.element.rank == 2 and not a.elements_may_alias
    assert isinstance(b, ListSig) and b.elements_may_alias
    assert parse(sig.text()) == sig
    ks = to_cutile(bind(sig, ["As", "Bs", "T"], "k"))
    assert isinstance(ks.parameters[0], cc.ListConstraint) and ks.parameters[0].element.ndim == 2
    assert ks.parameters[0].element.base_addr_divisible_by == 16 and ks.parameters[1].elements_may_alias
    for bad, why in (("list[i32]", "items must be arrays"), ("list[f32[?]", "cannot parse"),
                     ("list[list[f32[?]]]", "items must be arrays")):
        with pytest.raises(SignatureError, match=why):
            parse(bad)


def test_dynamic_twin_makes_static_extents_of_1_dynamic():
    """The all-dynamic twin of a calling-convention-v2 signature: each static extent 1 dynamic (no divisor: 1 is
    divisible by nothing), an annotated static extent other than 1 kept, list items too; None where nothing is 1."""
    from tileport.spec.signature import dynamic_twin, needs_v2

    twin = dynamic_twin(parse("x=f32[1,?%16]/?%4,1&16, y=f32[?,256], L=list[f16[1,?]], n=i32, B=#4"))
    assert twin.text() == "x=f32[?,?%16]/?%4,1&16, y=f32[?,256], L=list[f16[?,?]], n=i32, B=#4"
    assert needs_v2(twin) and not needs_v2(dynamic_twin(parse("x=f32[1,?%16]/?%4,1&16")))
    assert dynamic_twin(parse("x=f32[?,256], n=i32")) is None
