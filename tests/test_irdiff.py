"""irdiff on real Tile IR: every planted change is found, every change of form alone is not."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tileport.kernels import source, source_module
from tileport.frontends.cutile_py.compile import compile_kernel
from tileport.frontends.cutile_py.loader import load_kernel
from tileport.irdiff.compare import compare_programs
from tileport.irdiff.parse import parse
from tileport.spec.signature import bind
from tileport.spec.signature import parse as parse_sig

import irmutate
from conftest import run_tileport

KERNELS = ["vector_add", "scale_cast", "row_softmax", "matmul", "bias_act", "gather_rows", "persistent_scale",
           "numerics"]


@pytest.fixture(scope="session")
def corpus(tree, tmp_path_factory) -> dict[str, str]:
    """Disassembled Tile IR of every example kernel at its demo signature, from the real compiler."""
    out = tmp_path_factory.mktemp("corpus")
    texts = {}
    for name in KERNELS:
        k = load_kernel(f"{source(name)}::{name}")
        import importlib
        sig_text = importlib.import_module(source_module(name)).DEMO_SIGNATURE
        res = compile_kernel(k, bind(parse_sig(sig_text), k.param_names, name), tree, out / name, None)
        texts[name] = res.disasm.read_text()
    return texts


def verdict(a: str, b: str) -> dict:
    return compare_programs(parse(a, "A"), parse(b, "B"), source_a="A", source_b="B")


@pytest.mark.parametrize("kernel", KERNELS)
def test_program_equals_itself(corpus, kernel):
    v = verdict(corpus[kernel], corpus[kernel])
    assert v["equivalent"], v["differences"]
    assert v["op_inventory"]["a"] == v["op_inventory"]["b"]


@pytest.mark.parametrize("mutation", sorted(irmutate.DIFFERENT))
def test_every_mutant_is_different(corpus, mutation):
    """Plant the mutation in every kernel it applies to (at least one); each mutant must be reported."""
    applied = 0
    for kernel in KERNELS:
        mutant = irmutate.DIFFERENT[mutation](corpus[kernel])
        if mutant is None:
            continue
        applied += 1
        v = verdict(corpus[kernel], mutant)
        assert not v["equivalent"], f"{mutation} on {kernel} was not detected"
        d = v["differences"][0]
        for side in ("a", "b"):
            if d[side]:
                assert d[side]["line"] > 0 and d[side]["path"].startswith("entry")
    assert applied >= 1, f"{mutation} applies to none of the example kernels"


@pytest.mark.parametrize("variant", sorted(irmutate.EQUAL))
@pytest.mark.parametrize("kernel", KERNELS)
def test_every_form_change_is_equivalent(corpus, kernel, variant):
    changed = irmutate.EQUAL[variant](corpus[kernel])
    assert changed != corpus[kernel]
    v = verdict(corpus[kernel], changed)
    assert v["equivalent"], json.dumps(v["differences"], indent=1)[:3000]


@settings(max_examples=25, deadline=None)
@given(kernel=st.sampled_from(KERNELS), seed=st.integers(0, 2**32 - 1))
def test_random_ssa_renaming_is_equivalent(corpus, kernel, seed):
    v = verdict(corpus[kernel], irmutate.rename_ssa(irmutate.reorder_pure(corpus[kernel], seed), seed))
    assert v["equivalent"], v["differences"][:2]


def test_difference_reports_both_locations(corpus):
    mutant = irmutate.DIFFERENT["padding-value"](corpus["matmul"])
    v = verdict(corpus["matmul"], mutant)
    d = v["differences"][0]
    assert d["kind"] == "attributes" and "padding_value = zero" in d["detail"] and "padding_value = nan" in d["detail"]
    # The first padding attribute is on the partition view the loop's load reads: reported there, not at the load.
    assert d["a"]["path"] == d["b"]["path"] == "entry/make_partition_view[1]"
    assert d["a"]["line"] == d["b"]["line"]


def test_cli_exit_codes_and_json(corpus, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(corpus["row_softmax"])
    b.write_text(irmutate.rename_ssa(corpus["row_softmax"], 9))
    r = run_tileport("irdiff", str(a), str(b), "--json")
    assert r.returncode == 0, r.stdout
    out = json.loads(r.stdout)
    assert set(out) >= {"equivalent", "differences", "rewrites_used", "op_inventory"}
    assert out["op_inventory"]["a"]["reduce"] == 2
    b.write_text(irmutate.DIFFERENT["other-arith-op"](corpus["row_softmax"]))
    r = run_tileport("irdiff", str(a), str(b))
    assert r.returncode == 1 and "different" in r.stdout
