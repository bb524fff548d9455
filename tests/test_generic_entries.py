"""Type-generic entries (rustgen/generic.py): specializations that differ only in the element type are one Rust
entry ``fn k<Elem: ElementType, ..>``, proven at each element type; a port whose generic entries do not prove is
translated again with one entry per specialization."""
import json

from tileport.rustgen import generic
from tileport.translate.emit import Emitted

from conftest import run_tileport


def _entry(name: str, dtype: str, body: list[str]) -> Emitted:
    return Emitted(entry=name, generics=["B"], params=[f"x: &Tensor<{dtype}, {{ [-1] }}>"], body=body, layout="A1",
                   doc=[f"Specialization for x={dtype}[?]/1."], strides={}, unit_grid=[], preconditions=[], specs={})


def test_entries_differing_only_in_dtype_merge_and_others_stay():
    body = ["let t: Tile<{d}, {{ [B] }}> = x_view.load([0]); // bf16 tuning: comments stay",
            "let t_{d}: Tile<f32, {{ [B] }}> = convert_tile(t);", "let z: Tile<{d}, {{ [] }}> = constant({d}::ZERO, shape![]);"]
    f16, bf16 = (_entry(f"k_{d}", d, [ln.format(d=d) for ln in body]) for d in ("f16", "bf16"))
    f32 = _entry("k_f32", "f32", ["let t: Tile<f32, { [B] }> = x_view.load([0]);"])
    out = generic.merge([f32, f16, bf16], ["f32", "f16", "bf16"], ["x=f32[?]/1.", "x=f16[?]/1.", "x=bf16[?]/1."])
    assert [e.entry for e in out] == ["k_f32", "k"]
    g = out[1]
    assert isinstance(g, generic.GenericEntry) and g.types == ["Elem"]
    assert g.members == [("k_f16", ["f16"]), ("k_bf16", ["bf16"])]
    assert g.params == ["x: &Tensor<Elem, { [-1] }>"]
    assert g.body == ["let t: Tile<Elem, { [B] }> = x_view.load([0]); // bf16 tuning: comments stay",
                      "let t_elem: Tile<f32, { [B] }> = convert_tile(t);",
                      "let z: Tile<Elem, { [] }> = constant(Elem::ZERO, shape![]);"]
    assert g.doc[-2:] == ["- `Elem = f16`: x=f16[?]/1.", "- `Elem = bf16`: x=bf16[?]/1."]


def test_a_gather_padding_scalar_keeps_entries_concrete():
    """cutile 0.3.1 cannot make a scalar of a type parameter (`tile_to_scalar::<Elem, Elem>`: docs/translate.md)."""
    body = ["let p: {d} = tile_to_scalar::<{d}, {d}>(z);"]
    a, b = (_entry(f"k_{d}", d, [ln.format(d=d) for ln in body]) for d in ("f16", "bf16"))
    assert [e.entry for e in generic.merge([a, b], ["f16", "bf16"], ["", ""])] == ["k_f16", "k_bf16"]


def test_a_port_with_a_generic_entry_is_proven_at_each_dtype(tmp_path):
    sig = "a={d}[?]/1, b={d}[?]/1, c={d}[?]/1, TILE=#1024"
    r = run_tileport("port", "src/tileport/kernels/vector_add.py::vector_add", "--out", str(tmp_path),
                     *[x for d in ("f32", "bf16") for x in ("--sig", sig.format(d=d))])
    assert r.returncode == 0, r.stdout + r.stderr
    manifest = json.loads((tmp_path / "port.json").read_text())
    assert manifest["entries"] == ["vector_add_f32", "vector_add_bf16"]
    assert manifest["abi"]["vector_add_bf16"]["function"] == "vector_add"
    assert manifest["abi"]["vector_add_bf16"]["types"] == ["bf16"]
    assert "pub fn vector_add<Elem: ElementType, const TILE: i32>(" in (tmp_path / "kernel.rs").read_text()
    from tileport.rustgen.ffi import ffi_rs

    assert "0 => vector_add_f32 = vector_add[f32]<TILE>(" in ffi_rs([("vector_add", manifest)])


def test_generic_entries_that_do_not_prove_are_made_concrete_again(tmp_path, monkeypatch):
    """A generic entry cutile rejects (here: a line made not to compile) is not the end of the port: it is
    translated again with one entry per specialization, proven, and the verdict says why."""
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.pipeline import port as portmod
    from tileport.spec.signature import bind, parse
    from tileport.toolchain.locate import find_cuda_tree

    real = generic.merge

    def broken(entries, dtypes, described):
        out = real(entries, dtypes, described)
        for e in out:
            if isinstance(e, generic.GenericEntry):
                e.body = [*e.body, "let broken: Tile<Elem, { [1] }> = 1.0f32;"]
        return out

    monkeypatch.setattr(generic, "merge", broken)
    k = load_kernel("src/tileport/kernels/vector_add.py::vector_add")
    sigs = [bind(parse(f"a={d}[?]/1, b={d}[?]/1, c={d}[?]/1, TILE=#1024"), k.param_names, "vector_add")
            for d in ("f16", "bf16")]
    verdict = portmod.port("src/tileport/kernels/vector_add.py::vector_add", sigs, [], find_cuda_tree(), tmp_path,
                           "sm_90")
    assert verdict["status"] == "proven"
    assert verdict["stages"]["translate"]["new_forms"]["dropped"] == ["generic-entries"]
    assert "cargo build" in verdict["stages"]["translate"]["new_forms"]["why"]
    assert "Elem" not in (tmp_path / "kernel.rs").read_text()
