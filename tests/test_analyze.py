"""`tileport analyze` on the example kernels, fed by a capture of their host script run on the CPU."""
import copy
import json

import pytest

from tileport.examples import EXAMPLES_DIR
from tileport.kernels import KERNELS_DIR, source
from tileport.frontends.cutile_py.analyze import analyze
from tileport.frontends.cutile_py.capture import load_capture, run_captured, write_capture
from tileport.frontends.cutile_py.loader import load_kernel
from tileport.frontends.cutile_py.source import eval_constant_expr
from tileport.errors import InputError
from tileport.spec.validate import SpecInvalid, validate

from conftest import run_tileport

KERNELS = ["vector_add", "scale_cast", "row_softmax", "matmul", "bias_act", "gather_rows", "persistent_scale",
           "numerics"]


@pytest.fixture(scope="module")
def capture_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("cap") / "launches.json"
    script = EXAMPLES_DIR / "host.py"
    write_capture(run_captured(script, ["1000x768", "4096x1024"]), script, [], out)
    return out


@pytest.fixture(scope="module")
def specs(tree, capture_file, tmp_path_factory):
    root = tmp_path_factory.mktemp("specs")
    out = {}
    for name in KERNELS:
        k = load_kernel(f"{source(name)}::{name}")
        out[name] = analyze(k, [], load_capture(capture_file, k.ref), tree, root / name)
        out[name]["_dir"] = root / name
    return out


@pytest.mark.parametrize("name", KERNELS)
def test_every_example_has_a_valid_spec_and_reference_ir(specs, name):
    spec = specs[name]
    on_disk = json.loads((spec["_dir"] / "spec.json").read_text())
    validate(on_disk)
    for v in on_disk["variants"]:
        assert (spec["_dir"] / v["ir"]["bytecode"]).read_bytes()[:8] == b"\x7fTileIR\x00"
        assert f"entry @{v['symbol']}(" in (spec["_dir"] / v["ir"]["disasm"]).read_text()
        # every variant here comes from a captured launch, or is the all-dynamic twin of one with an extent-1 axis
        assert v["launches"] or v["twin_of"] in {w["signature"] for w in on_disk["variants"] if w["launches"]}


def test_constant_branch_variants(specs):
    spec = specs["bias_act"]
    by_act = {v["constants"]["ACT"]: v for v in spec["variants"]}
    assert sorted(by_act) == [0, 1, 2]
    assert [b["taken"] for b in by_act[0]["branches"]] == [False, False]
    assert [b["taken"] for b in by_act[1]["branches"]] == [True, "unreached"]
    assert [b["taken"] for b in by_act[2]["branches"]] == [False, True]
    inv = {a: v["ir"]["op_inventory"] for a, v in by_act.items()}
    assert "maxf" in inv[1] and "maxf" not in inv[0] and "exp" in inv[2] and "exp" not in inv[1]
    assert spec["source_facts"]["constant_branches"][1]["inside"] == [{"line": 18, "arm": "else"}]


def test_matmul_loop_accumulator_and_conversion(specs):
    spec = specs["matmul"]
    (loop,) = spec["source_facts"]["loops"]
    assert loop["kind"] == "range" and loop["stop"].startswith("ct.num_tiles(a")
    v = spec["variants"][0]
    assert v["ir"]["loops"] == 1 and v["ir"]["op_inventory"]["mmaf"] == 1
    assert {"op": "ftof", "from": "f32", "to": "f16"} in v["ir"]["conversions"]
    assert {"f16", "f32"} <= set(v["ir"]["element_types"])
    assert any(c["kind"] == "mma-accumulator" for c in spec["source_facts"]["casts"])
    assert v["ir"]["padding_values"] == ["zero"]


def test_memory_sites_make_defaults_explicit(specs):
    sites = specs["gather_rows"]["source_facts"]["memory_sites"]
    assert [s["op"] for s in sites] == ["gather", "gather", "scatter"]
    assert all("mask" in s["explicit"] for s in sites)
    assert sites[0]["options"]["padding_value"] == "-1" and sites[0]["options"]["check_bounds"] == "True"
    store = specs["vector_add"]["source_facts"]["memory_sites"][-1]
    assert store["op"] == "store" and store["explicit"] == [] and store["options"]["check_bounds"] == "True"
    assert store["options"]["memory_order"] == "MemoryOrder.WEAK"
    assert specs["row_softmax"]["variants"][0]["ir"]["padding_values"] == ["neg_inf"]


def test_grids(specs):
    assert specs["vector_add"]["grid"]["formula"] == ["cdiv(a.shape[0], TILE)", "1", "1"]
    assert specs["row_softmax"]["grid"]["formula"] == ["cdiv(x.shape[0], BM)", "1", "1"]
    persistent = specs["persistent_scale"]
    assert persistent["grid"]["formula"][0] == "unknown", "min(ntiles, NUM_SMS) is not derivable: never guessed"
    assert persistent["source_facts"]["loops"][0]["kind"] == "persistent"
    # BM == BN == 128 in every launch: which one sizes the grid cannot be told apart, and is not guessed.
    assert specs["matmul"]["grid"]["formula"][0] == "ambiguous"
    assert "cdiv(a.shape[0], BM)" in specs["matmul"]["grid"]["candidates"][0]


def test_hints_and_toolchain(specs):
    spec = specs["numerics"]
    assert spec["hints"] == {"num_ctas": "default", "occupancy": "default", "opt_level": 3,
                             "num_worker_warps": "default"}
    assert spec["toolchain"]["cuda-tile"] == "1.7.0" and spec["toolchain"]["bytecode_version"] == "13.4"
    assert spec["variants"][0]["ir"]["optimization_hints"] == "optimization_hints=<default = {}>"


def test_schema_rejects_broken_specs(specs):
    spec = copy.deepcopy({k: v for k, v in specs["vector_add"].items() if k != "_dir"})
    del spec["variants"][0]["branches"]
    with pytest.raises(SpecInvalid, match="/variants/0: 'branches' is a required property"):
        validate(spec)
    spec = copy.deepcopy({k: v for k, v in specs["vector_add"].items() if k != "_dir"})
    spec["hints"]["occupancy"] = "probably 2"
    with pytest.raises(SpecInvalid, match="hints/occupancy"):
        validate(spec)


def test_condition_evaluation_never_guesses():
    assert eval_constant_expr("ACT == 1 or (BM > 32 and not FLAG)", {"ACT": 0, "BM": 64, "FLAG": False}) is True
    assert eval_constant_expr("x.shape[0] > 3", {}) is None
    assert eval_constant_expr("ACT == UNKNOWN", {"ACT": 1}) is None


def test_cli_with_sigs_file_and_errors(tmp_path, capture_file):
    sigs = tmp_path / "sigs.json"
    sigs.write_text(json.dumps(["a=f32[?]/1, b=f32[?]/1, c=f32[?]/1, TILE=#256"]))
    r = run_tileport("analyze", f"{KERNELS_DIR / 'vector_add.py'}::vector_add", "--sigs", str(sigs),
                     "--sig", "f32[?]/1, f32[?]/1, f32[?]/1, #512", "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
    spec = json.loads((tmp_path / "o" / "spec.json").read_text())
    assert [v["constants"]["TILE"] for v in spec["variants"]] == [512, 256]
    assert spec["grid"]["formula"] == ["unknown"] * 3, "no captured launch: no grid knowledge"
    r = run_tileport("analyze", f"{KERNELS_DIR / 'vector_add.py'}::vector_add", "--out", str(tmp_path / "p"))
    assert r.returncode == 2 and "no signatures" in r.stderr
    empty = tmp_path / "empty.json"
    empty.write_text('{"launches": []}')
    r = run_tileport("analyze", f"{KERNELS_DIR / 'vector_add.py'}::vector_add", "--capture", str(empty),
                     "--out", str(tmp_path / "q"))
    assert r.returncode == 2 and "has no launch of vector_add" in r.stderr


def test_launches_at_other_hints_than_the_decorators_are_variants_of_their_own(tree, capture_file, tmp_path):
    """A capture's launch made through `kernel.replace_hints(..)` (an autotuner's pick) at hints other than the
    decorator's is a variant of its own, its reference compiled at those hints (the entry's optimization hints say
    so); the spec lists each such set (`launched_hints`). Launches at the decorator's own hints add nothing; a launch
    that unsets a decorator's hint is refused (cutile's per-launch options cannot)."""
    name = KERNELS[0]
    k = load_kernel(f"{source(name)}::{name}")
    launches = load_capture(capture_file, k.ref)
    own = [{**launch, "hints": {"opt_level": 3}} for launch in launches]
    plain = analyze(k, [], own, tree, tmp_path / "own")
    assert "launched_hints" not in plain and not any("hints" in v for v in plain["variants"])
    picked = [{**launches[0], "hints": {"occupancy": 2, "opt_level": 3}}] + launches
    spec = analyze(k, [], picked, tree, tmp_path / "picked")
    assert spec["launched_hints"] == [{"occupancy": 2}]
    assert len(spec["variants"]) == len(plain["variants"]) + 1
    at = [v for v in spec["variants"] if v.get("hints")]
    same = [v for v in spec["variants"] if not v.get("hints") and v["signature"] == at[0]["signature"]]
    assert [v["hints"] for v in at] == [{"occupancy": 2}] and len(same) == 1
    assert "occupancy = 2" in at[0]["ir"]["optimization_hints"]
    assert "occupancy" not in same[0]["ir"]["optimization_hints"]
    assert at[0]["ir"]["bytecode"] != same[0]["ir"]["bytecode"]
    with pytest.raises(InputError, match="opt_level='default'"):
        analyze(k, [], [{**launches[0], "hints": {}}], tree, tmp_path / "unset")
