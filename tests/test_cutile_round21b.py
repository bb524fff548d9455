"""cuTile Python generality, round 21b (docs/corpus.md): kernels of our own in host and kernel styles earlier rounds
did not use (package re-exports, factories and closures, class-attribute kernels, GEMM epilogues, implicit-im2col
convolution, decoupled look-back scans, paged decode, quantization), ported with the CLI; what they found in
tileport, each as a test."""
from tileport.rustgen.declared_ops import unclashed
from tileport.rustgen.module import render

from kernel_text import emit


def test_declared_op_generics_renamed_where_a_kernel_constant_has_their_name(tmp_path):
    """A kernel whose constants are named `S` and `P` (stride and padding of round 21b's `conv2d_nhwc_im2col`)
    and that makes a masked 2-d gather (the port's declared `load_ptr_padded<E, P, const S, ..>`): cutile 0.3.1
    resolves a declared op's generics in its caller's generic scope, and its compiler panicked ("Unexpected const
    arg P for variadic type PointerTile"). The op's generics that an entry also names are renamed (`P_`, `S_`);
    the entry's constants keep their names, and a module without a clash is unchanged."""
    em = emit(tmp_path, """
@ct.kernel
def k(x, y, S: ct.Constant[int], P: ct.Constant[int], B: ct.Constant[int]):
    r = ct.arange(B, dtype=ct.int32) * S - P
    c = ct.arange(B, dtype=ct.int32)
    t = ct.gather(x, (ct.reshape(r, (B, 1)), ct.reshape(c, (1, B))), mask=ct.reshape(r >= 0, (B, 1)))
    ct.store(y, (0, 0), t)
""", "x=f32[?,?]/?,1, y=f32[?,?]/?,1, S=#2, P=#1, B=#16", consts=("S", "P", "B"))
    text = render([em], "k.py", "spec.json")
    assert "source: PointerTile<P_, S_>" in text and "P_: PointerTo<E>" in text, text
    assert "const S: i32" in text and "const P: i32" in text, text
    decl = "pub unsafe fn f<E: ElementType, P: PointerTo<E>, const S: [i32; N]>(x: PointerTile<P, S>) {}\n"
    assert unclashed(decl, {"B"}) == decl
    assert unclashed("/// P and S\n" + decl, {"P", "P_"}) == (
        "/// P and S\npub unsafe fn f<E: ElementType, P__: PointerTo<E>, const S: [i32; N]>(x: PointerTile<P__, S>) {}\n")
