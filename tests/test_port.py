"""The port pipeline end to end on the CPU: translate, build with the real cutile crate, prove by irdiff."""
import ast
import json
import re

import pytest

from tileport.examples import ALSO_PROVEN, EXAMPLES_DIR, NOT_PROVEN
from tileport.kernels import KERNELS_DIR, SERVED as PROVEN, source, source_module
from tileport.translate.coverage import COVERAGE, coverage_markdown

from conftest import REPO, run_tileport
from fixtures.cutile_round25 import KERNELS as ROUND25
from fixtures.cutile_round26 import KERNELS as ROUND26

SUPPORTED_EXAMPLES = sorted({c.example for c in COVERAGE if c.status == "supported" and c.example})


def test_every_supported_row_names_a_proven_example():
    assert set(SUPPORTED_EXAMPLES) <= set(PROVEN) | set(ALSO_PROVEN) and not set(PROVEN) & set(NOT_PROVEN)


def demo_sig(name: str) -> str:
    import importlib

    return importlib.import_module(source_module(name)).DEMO_SIGNATURE


def port(name: str, out, *sigs: str):
    args = ["port", f"{source(name)}::{name}", "--out", str(out)]
    for s in sigs or (demo_sig(name),):
        args += ["--sig", s]
    return run_tileport(*args)


@pytest.fixture(scope="module")
def both_batches(tmp_path_factory):
    """Every proven example at its demo signature (root/examples) and the small kernels and examples at
    OWN_SIGNATURES (root/small), ported by one `port_many`: one cargo build for all of them."""
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.pipeline.port import port_many
    from tileport.spec.signature import bind, parse
    from tileport.toolchain.locate import find_cuda_tree

    root = tmp_path_factory.mktemp("batch")
    jobs = []
    for name in PROVEN + ALSO_PROVEN:
        ref = f"{source(name)}::{name}"
        jobs.append((ref, [bind(parse(demo_sig(name)), load_kernel(ref).param_names, name)], [],
                     root / "examples" / name))
    small = root / "small"
    small.mkdir()
    refs = {out: (f"{source(name)}::{name}", sigs) for out, (name, sigs) in OWN_SIGNATURES.items()}
    for name, (text, sigs) in SMALL_KERNELS.items():
        src = small / f"{name}.py"
        src.write_text("import cuda.tile as ct\n\n" + text)
        refs[name] = (f"{src}::{name}", sigs)
    for out, (ref, sigs) in refs.items():
        kernel = load_kernel(ref)
        jobs.append((ref, [bind(parse(s), kernel.param_names, kernel.name) for s in sigs], [], small / out))
    port_many(jobs, find_cuda_tree(), "sm_90", root / "crate")
    return root


@pytest.fixture(scope="module")
def proven_batch(both_batches):
    """Every proven example ported at its demo signature (both_batches)."""
    return both_batches / "examples"


def _ct_call(node: ast.AST, *names: str) -> bool:
    """``node`` is a call ``ct.NAME(...)`` with NAME one of ``names`` (a name ending in ``*``: a prefix)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "ct"):
        return False
    return any(node.func.attr == n or (n.endswith("*") and node.func.attr.startswith(n[:-1])) for n in names)


def unsafe_constructs(name: str) -> list[str]:
    """What in the example's kernel source needs `unsafe` in Rust, read from the source itself (coverage rows
    store-block-owned, for-persistent, gather-scatter, atomics): a gather, a scatter or an atomic; a grid-stride
    loop; a store that is not block-owned — with options (hints: cutile's block-owned store takes none), or at an
    index other than (bid(0), bid(1), ..) where a literal 0 may stand for a dimension k > 0."""
    module = ast.parse((source(name)).read_text())
    defs = {n.name: n for n in module.body if isinstance(n, ast.FunctionDef)}
    fn = defs[name]
    # the kernel and the module's helpers it calls (inlined into it)
    bodies = [fn] + [defs[c.func.id] for c in ast.walk(fn) if isinstance(c, ast.Call) and
                     isinstance(c.func, ast.Name) and c.func.id in defs and c.func.id != name]
    bid_of = {n.targets[0].id: n.value.args[0].value for n in ast.walk(fn) if isinstance(n, ast.Assign)
              and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and _ct_call(n.value, "bid")}
    bid_of |= {n.target.id: n.value.args[0].value for n in ast.walk(fn) if isinstance(n, ast.AnnAssign)
               and isinstance(n.target, ast.Name) and _ct_call(n.value, "bid")}   # (`pid: int = ct.bid(0)`)
    bid_of |= {t.id: v.args[0].value for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Tuple) and isinstance(n.value, ast.Tuple)
               for t, v in zip(n.targets[0].elts, n.value.elts) if isinstance(t, ast.Name) and _ct_call(v, "bid")}

    def block_owned_at(k: int, e: ast.AST) -> bool:
        if isinstance(e, ast.Name):
            return bid_of.get(e.id) == k
        if _ct_call(e, "bid"):
            return e.args[0].value == k
        return k > 0 and isinstance(e, ast.Constant) and e.value == 0

    found = []
    for n in (n for body in bodies for n in ast.walk(body)):
        if _ct_call(n, "gather", "scatter", "atomic_*"):
            found.append(n.func.attr)
        elif isinstance(n, ast.For) and any(_ct_call(c, "num_blocks") for c in ast.walk(n.iter)) and \
                any(isinstance(b, ast.Expr) and _ct_call(b.value, "store") for b in n.body):
            found.append("grid-stride loop")   # (its own stores are scheduled over the grid)
        elif _ct_call(n, "store"):
            kw = {k.arg: k.value for k in n.keywords}
            index = kw.get("index", n.args[1] if len(n.args) > 1 else None)
            items = index.elts if isinstance(index, ast.Tuple) else [index]
            if set(kw) - {"index", "tile"}:
                found.append(f"store with {', '.join(sorted(set(kw) - {'index', 'tile'}))}")
            elif not all(block_owned_at(k, e) for k, e in enumerate(items)) or len(items) > 3:
                found.append(f"store at {ast.unparse(index)}")   # (rank > 3: cutile's block-owned store has none)
    return found


@pytest.mark.parametrize("name", PROVEN + ALSO_PROVEN)
def test_supported_examples_port_and_prove(name, proven_batch):
    tmp_path = proven_batch
    verdict = json.loads((tmp_path / name / "verdict.json").read_text())
    assert verdict["status"] == "proven" and verdict["ok"] is True, json.dumps(verdict["stages"])[:3000]
    assert verdict["stages"]["irdiff"]["equivalent"] is True
    sites = verdict["stages"]["translate"]["unsafe_sites"]
    rs = (tmp_path / name / "kernel.rs").read_text()
    entry = re.search(r"#\[cutile::entry\((.*)\)\]", rs)
    assert entry and (f"pub fn {name}" in rs or f"pub unsafe fn {name}" in rs and "*mut i64" in rs)   # (a list
    # parameter's descriptors are a raw pointer: cutile wants the entry unsafe)
    # an entry carries optimization hints exactly when the kernel's @ct.kernel(...) asks for them
    hinted = "@ct.kernel(" in (source(name)).read_text()
    assert bool(entry.group(1)) == hinted and (not hinted or "optimization_hints = (sm_90 = (" in entry.group(1))
    needs = unsafe_constructs(name)
    # (a loop-carried value cuTile Python knows a multiple of P is stated so with an unsafe assume: assume-carried)
    carried = [s for s in sites if s["what"].startswith("assume_div_by::<") and "loop-carried" in s["what"]]
    if not needs and not carried:  # block-owned: no unsafe
        assert sites == [] and "unsafe" not in rs, sites
    elif not needs:
        assert sites == carried and all(site["why"] and site["precondition"] for site in sites), sites
    if needs or carried:  # a grid-stride loop, a gather or an atomic needs the opt-out; each site says why and what
        # the host must guarantee
        assert sites and all(site["why"] and site["precondition"] for site in sites), needs
        if "grid-stride loop" in needs:
            assert any(site["why"].startswith("grid-stride loop") for site in sites), sites
        lines = rs.splitlines()
        for k, line in enumerate(lines):
            if "unsafe {" in line:   # the comment block right above its statement (at most 3 lines up) argues it
                j = next((j for j in range(k - 1, max(-1, k - 5), -1) if lines[j].lstrip().startswith("//")), -1)
                block = []
                while j >= 0 and lines[j].lstrip().startswith("//"):
                    block.append(lines[j])
                    j -= 1
                assert any("// SAFETY:" in c for c in block), line


def test_vector_add_two_variants_share_one_entry(batch):
    assert json.loads((batch / "vector_add_2" / "verdict.json").read_text())["status"] == "proven"
    manifest = json.loads((batch / "vector_add_2" / "port.json").read_text())
    assert manifest["entries"] == ["vector_add"]
    assert [v["generics"] for v in manifest["variants"]] == [["1024"], ["64"]]
    assert [v["layout"] for v in manifest["variants"]] == ["A1,A1,A1+2"] * 2


def test_fma_follows_the_reference_ir(proven_batch):
    rs = (proven_batch / "scale_cast" / "kernel.rs").read_text()
    assert "fma(" in rs and "rounding::NearestEven" in rs


def test_verdict_is_byte_identical_on_rerun(tmp_path):
    assert port("vector_add", tmp_path / "a").returncode == 0
    first = (tmp_path / "a" / "verdict.json").read_bytes()
    assert port("vector_add", tmp_path / "a").returncode == 0
    assert (tmp_path / "a" / "verdict.json").read_bytes() == first
    assert b"/tmp/" not in first.replace(str(KERNELS_DIR.parent).encode(), b"")


REFUSED_KERNEL = """import cuda.tile as ct


@ct.kernel
def refused(x, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.printf("%f", t)
    ct.store(y, index=(ct.bid(0),), tile=t)
"""


def test_unsupported_construct_stops_with_location_and_work_order(tmp_path):
    """A call the translator does not translate is refused under its own row (print: ct.printf, with the reason),
    at its file:line:col, with a work order for a hand-written port."""
    src = tmp_path / "refused.py"
    src.write_text(REFUSED_KERNEL)
    r = run_tileport("port", f"{src}::refused", "--sig", "x=f32[?]/1, y=f32[?]/1, TILE=#128", "--out",
                     str(tmp_path / "r"))
    assert r.returncode == 1
    verdict = json.loads((tmp_path / "r" / "verdict.json").read_text())
    tr = verdict["stages"]["translate"]
    assert tr["ok"] is False and tr["construct"] == "print" and "print_tko" in tr["error"]
    (node,) = [n for n in ast.walk(ast.parse(REFUSED_KERNEL)) if _ct_call(n, "printf")]
    line, col = node.lineno, node.col_offset + 1
    assert (tr["location"]["line"], tr["location"]["col"]) == (line, col)
    assert f"refused.py:{line}:{col}" in tr["error"] and "docs/coverage.md" in tr["error"]
    assert "build" not in verdict["stages"] and verdict["status"] == "failed"
    order = json.loads((tmp_path / "r" / "work_order.json").read_text())
    assert order["construct"] == "print" and order["expects"]["entry"] == "refused"
    assert order["reference_ir"] and (tmp_path / "r" / order["reference_ir"][0]).exists()
    assert not (tmp_path / "r" / "kernel.rs").exists(), "no partial Rust is written"


def test_bring_your_own_port_is_verified(proven_batch, tmp_path):
    """A hand-written kernel.rs gets the same verdicts; a wrong one is reported unproven, not passed."""
    import shutil

    d = tmp_path / "v"
    shutil.copytree(proven_batch / "vector_add", d)   # what `tileport port` of vector_add writes
    r = run_tileport("verify", str(d), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["status"] == "proven"
    r = run_tileport("verify", str(d))   # the stages it ran, no others
    assert r.returncode == 0 and re.findall(r"^  (\w+) +ok$", r.stdout, re.M) == ["build", "irdiff"], r.stdout
    assert "analyze" not in r.stdout and "translate" not in r.stdout and "not run" not in r.stdout
    rs = (d / "kernel.rs").read_text()
    (d / "kernel.rs").write_text(rs.replace("c.store(x + y);", "c.store(x - y);"))
    r = run_tileport("verify", str(d), "--json")
    verdict = json.loads(r.stdout)
    assert r.returncode == 1 and verdict["status"] == "unproven"
    diff = verdict["stages"]["irdiff"]["differences"][0]
    assert diff["kind"] == "op" and diff["detail"] == "addf vs subf"
    (d / "kernel.rs").write_text(rs.replace("c.store(x + y);", "c.store(x + y) // missing semicolon\n;;;bad"))
    r = run_tileport("verify", str(d), "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["stages"]["build"]["ok"] is False


def test_a_literal_zero_on_a_grid_axis_the_kernel_reads_is_not_the_blocks_own_tile(batch):
    """row_of_blocks stores r at (bid(0), 0) under `if bid(1) == 0`: its launches extend axis 1, so r is `&Tensor`
    stored through partition_full_mut (a `&mut` tensor of r's (BM, 1) tiles would not match the launch grid, and
    cutile's launcher refuses it), with no unit-grid precondition; y, at (bid(0), bid(1)), stays block-owned."""
    rs = (batch / "row_of_blocks" / "kernel.rs").read_text()
    assert "r.partition_full_mut(" in rs and re.search(r"\br: &Tensor<", rs) and re.search(r"\by: &mut Tensor<", rs)
    assert json.loads((batch / "row_of_blocks" / "port.json").read_text())["variants"][0].get("unit_grid") in ([], None)


def test_a_store_at_a_literal_zero_records_its_unit_grid_precondition(proven_batch):
    """masked_rowsum's block-owned store at (bm, 0): the Rust stores at block id 1, which the IR diff matches to the
    literal 0 under a recorded precondition; row_softmax's stores (hinted, in the arms of a constant if: through
    `partition_mut` of its own tile, at index 0 of that nested partition) record the same kind of precondition."""
    m, s = proven_batch / "masked_rowsum", proven_batch / "row_softmax"   # ported at their DEMO_SIGNATURE
    v = json.loads((m / "verdict.json").read_text())["stages"]["irdiff"]["variants"][0]
    assert v["preconditions"] and v["preconditions"][0].startswith("y.shape[1] <= 1")
    assert any(r["id"] == "block-id-unit-grid" for r in v["rewrites_used"])
    # the CLI's irdiff of the two files takes the unit grid from port.json too
    (pv,) = json.loads((m / "port.json").read_text())["variants"]
    vdir = (m / pv["reference"]).parent
    r = run_tileport("irdiff", str(vdir / "reference.tileir.txt"), str(vdir / "rust.tileir.txt"))
    assert r.returncode == 0 and f"unit grid dimensions {pv['unit_grid']}" in r.stderr, r.stdout + r.stderr
    v = json.loads((s / "verdict.json").read_text())["stages"]["irdiff"]["variants"][0]
    assert v["preconditions"] and v["preconditions"][0].startswith("y.shape[1] <= BLOCK")
    rs = (s / "kernel.rs").read_text()
    assert "nothing to emit" in rs and "y.partition_mut(shape![BM, BLOCK])" in rs and "[0i32, 0i32]" in rs


SHIFTED = """import cuda.tile as ct


@ct.kernel
def shifted(x, y, B: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, index=(i,), tile=ct.load(x, index=(i + 1,), shape=(B,)))
"""


def test_an_unpadded_load_at_a_computed_index_is_the_unchecked_tile_ir_load(tmp_path):
    """An unpadded load at (i + 1,): cuTile Python reads it without a bounds check, so the port uses the Tile IR load
    itself (cutile's checked `.load` would assert: a different program) and is proven; the Rust says so."""
    src = tmp_path / "shifted.py"
    src.write_text(SHIFTED)
    r = run_tileport("port", f"{src}::shifted", "--sig", "x=f32[?]/1, y=f32[?]/1, B=#128", "--out", str(tmp_path / "s"))
    verdict = json.loads((tmp_path / "s" / "verdict.json").read_text())
    assert r.returncode == 0 and verdict["status"] == "proven", verdict["stages"]
    rs = (tmp_path / "s" / "kernel.rs").read_text()
    assert "load_view_tko(" in rs and ".load([" not in rs and "unchecked as in cuTile Python" in rs


STATIC_GATHER = """import cuda.tile as ct


@ct.kernel
def gat(x, idx, y, B: ct.Constant[int]):
    c = ct.bid(0)
    i = ct.load(idx, index=(0, c), shape=(1, B))
    v = ct.gather(x, (0, i)) + ct.astype(x.shape[1] + idx.shape[0], ct.float32)
    ct.store(y, index=(0, c), tile=v)
"""


def test_static_extents_port_and_prove_at_calling_convention_v2(tmp_path):
    """Launches with an extent-1 axis run cuTile Python's calling convention v2 (the axis static in the kernel):
    the port proves at that signature (static extent 1 in a gather's bounds, an input view, an output stored
    through the full tensor, an annotated extent 256) beside the all-dynamic one, an entry per static pattern. Each
    of the emitter's v2 rules is needed for the proof: the literal extent, the renumbered dynamic axis, the
    compacted spec (idx's `?%16` on its second axis) and the singleton stride fact (idx's stride along axis 0)."""
    src = tmp_path / "gat.py"
    src.write_text(STATIC_GATHER)
    sigs = ["x=f32[1,?]/?,1, idx=i32[1,?%16]/?,1&16, y=f32[1,?%16]/?%4,1&16, B=#32",
            "x=f32[?,?]/?,1, idx=i32[?,?%16]/?,1&16, y=f32[?,?%16]/?%4,1&16, B=#32",
            "x=f32[?,256]/?,1, idx=i32[?,?%16]/?,1&16, y=f32[?,?%16]/?%4,1&16, B=#32"]
    r = run_tileport("port", f"{src}::gat", *[a for s in sigs for a in ("--sig", s)], "--out", str(tmp_path / "g"))
    verdict = json.loads((tmp_path / "g" / "verdict.json").read_text())
    assert r.returncode == 0 and verdict["status"] == "proven", verdict["stages"]
    manifest = json.loads((tmp_path / "g" / "port.json").read_text())
    assert manifest["entries"] == ["gat_v2_1", "gat_v", "gat_v2_2"]
    rs = (tmp_path / "g" / "kernel.rs").read_text()
    assert "idx: &Tensor<i32, { [1, -1] }>" in rs and "y: &Tensor<f32, { [1, -1] }>" in rs
    assert "x: &Tensor<f32, { [-1, 256] }>" in rs and "scalar_to_tile(256i32)" in rs
    v2 = manifest["variants"][0]
    assert v2["entry"] == "gat_v2_1" and v2["specs"]["idx"].startswith("16,1/4,1/")
    assert [p.get("static") for p in manifest["abi"]["gat_v2_1"]["params"] if p["kind"] in ("in", "out")] == [{"0": 1}, {"0": 1}, {"0": 1}]
    assert [p.get("static") for p in manifest["abi"]["gat_v2_2"]["params"] if p["kind"] in ("in", "out")] == [{"1": 256}, None, None]
    # the operator library passes a static entry's tensors through rt::Compact (spec compacted to the dynamic axes)
    from tileport.rustgen.ffi import ffi_rs
    ffi = ffi_rs([("gat", manifest)])
    assert "static_in x: f32[2] = t[0] => [0]," in ffi and "static_written y: f32[2] = t[2] => [0]," in ffi
    assert "static_in x: f32[2] = t[0] => [1]," in ffi and "\n            in idx: i32[2] = t[1]," in ffi


COLUMN = """import cuda.tile as ct


@ct.kernel
def col(x, y, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(B, 1))
    ct.store(y, index=(ct.bid(0), 0), tile=t * 2.0)
"""


def test_captured_extent_one_launches_are_ported_with_their_all_dynamic_twin(tmp_path):
    """A captured launch with an extent-1 axis (calling convention v2) is ported with its all-dynamic twin (the
    served fallback). A [N, 1] column (extent 1 with the static stride 1, which cuTile Python's tensor view keeps
    dynamic with a 16-byte divisor) is ported in that form: the entry's stride bit cleared in its spec and its
    divisor first (the runtime's rt::Compact does the same); it was refused, the twin serving it."""
    src = tmp_path / "col.py"
    src.write_text(COLUMN)
    launch = {"kernel": f"{src}::col", "qualname": "col", "source": str(src), "line": 5, "grid": [4, 1, 1],
              "count": 1, "args": []}
    capture = tmp_path / "cap.json"
    capture.write_text(json.dumps({"format": 1, "errors": [], "launches": [
        dict(launch, signature="x=f32[?%16,1]/1,1&16, y=f32[?%16,1]/1,1&16, B=#16")]}))
    r = run_tileport("port", f"{src}::col", "--capture", str(capture), "--out", str(tmp_path / "c"))
    verdict = json.loads((tmp_path / "c" / "verdict.json").read_text())
    assert r.returncode == 0 and verdict["status"] == "proven", verdict["stages"]
    manifest = json.loads((tmp_path / "c" / "port.json").read_text())
    assert [v["signature"] for v in manifest["variants"]] == ["x=f32[?%16,1]/1,1&16, y=f32[?%16,1]/1,1&16, B=#16",
                                                              "x=f32[?%16,?]/1,1&16, y=f32[?%16,?]/1,1&16, B=#16"]
    assert not manifest.get("static_refused")
    static = manifest["variants"][0]
    # the entry's strides: axis 1's dynamic; its spec: stride bits 1,0, the dynamic stride's divisor 4 first
    assert static["strides"]["x"] == [1, -1] and static["specs"]["x"] == "16,1/4,1/1,0/16/1"
    assert "x: &Tensor<f32, { [-1, 1] }>" in (tmp_path / "c" / "kernel.rs").read_text()


def test_verify_needs_a_port_dir(tmp_path):
    r = run_tileport("verify", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "spec.json, port.json, kernel.rs are missing" in r.stderr and "tileport port" in r.stderr, r.stderr
    (tmp_path / "spec.json").write_text("{}")
    r = run_tileport("verify", str(tmp_path))
    assert r.returncode == 2 and "port.json, kernel.rs are missing" in r.stderr, r.stderr


def test_irdiff_reads_a_ports_layout_from_port_json(proven_batch, tmp_path):
    """`tileport irdiff` on a port's two files needs no --layout-b: port.json says it; a wrong one is refused."""
    from tileport.spec.validate import check_document

    d = proven_batch / "vector_add"
    manifest = json.loads((d / "port.json").read_text())
    check_document(manifest, "port", "port.json")   # what translate writes is what verify accepts
    vdir = (d / manifest["variants"][0]["reference"]).parent
    ref, rust = vdir / "reference.tileir.txt", vdir / "rust.tileir.txt"
    r = run_tileport("irdiff", str(ref), str(rust))
    assert r.returncode == 0 and "equivalent" in r.stdout, r.stdout + r.stderr
    assert f"layout of B: {manifest['variants'][0]['layout']} from {d / 'port.json'}" in r.stderr
    r = run_tileport("irdiff", str(ref), str(vdir / "rust.tileirbc"), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["prologue"]["b"]["layout"] == "layout"
    r = run_tileport("irdiff", str(ref), str(rust), "--layout-b", "A1,A1")    # too short for the entry
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "--layout-b 'A1,A1' describes 6 entry argument(s), but" in r.stderr and "takes 11" in r.stderr
    copied = tmp_path / "rust.tileir.txt"   # away from its port directory: matched by position, and told so
    copied.write_text(rust.read_text())
    r = run_tileport("irdiff", str(ref), str(copied))
    assert r.returncode == 1 and "give --layout-b" in " ".join(r.stdout.split())


def test_coverage_doc_is_generated_and_current():
    assert (REPO / "docs" / "coverage.md").read_text() == coverage_markdown(), \
        "regenerate: python -m tileport.translate.coverage > docs/coverage.md"


def test_ports_of_captured_launches_carry_launch_specialization(tmp_path):
    """The realistic path: capture the host script's launches on the CPU, port what it launched. The reference IR
    then states divisibility/alignment facts; the Rust side is compiled with the same facts (cutile spec args)."""
    cap = tmp_path / "launches.json"
    assert run_tileport("capture", "--out", str(cap), "--", "python", str(EXAMPLES_DIR / "host.py"),
                        "1000x768", "4096x1024").returncode == 0
    r = run_tileport("port", f"{KERNELS_DIR / 'bias_act.py'}::bias_act", "--capture", str(cap), "--out",
                     str(tmp_path / "b"), "--json")
    verdict = json.loads(r.stdout)
    assert r.returncode == 0 and verdict["status"] == "proven", r.stdout[-3000:]
    assert len(verdict["stages"]["irdiff"]["variants"]) == 6
    ref = (tmp_path / "b" / "variants" / verdict["stages"]["irdiff"]["variants"][0]["symbol"] /
           "reference.tileir.txt").read_text()
    assert "assume div_by<16>" in ref
    used = {u["id"] for u in verdict["stages"]["irdiff"]["variants"][0]["rewrites_used"]}
    assert "assume-fact-set" in used


def test_float_constants_get_one_entry_per_value(batch):
    """Stable Rust has no f32 const generics: two slopes → two entries, each proven, mapped per launch."""
    assert json.loads((batch / "leaky_relu_2" / "verdict.json").read_text())["status"] == "proven"
    manifest = json.loads((batch / "leaky_relu_2" / "port.json").read_text())
    assert manifest["entries"] == ["leaky_relu_slope_0_01", "leaky_relu_slope_0_2"]
    assert [v["entry"] for v in manifest["variants"]] == manifest["entries"]
    rs = (batch / "leaky_relu_2" / "kernel.rs").read_text()
    assert "0.01f32" in rs and "0.2f32" in rs and "const SLOPE" not in rs


#: constructs proven on a small kernel of their own (no example op uses them yet): name → (source, signatures)
SMALL_KERNELS = {
    # ct.gather from an f16/bf16 array, masked (padding 0, spelled as the type's ZERO: cutile has no half literal)
    # and with check_bounds=False (no mask, the padding operand all the same)
    "g16": ("""
@ct.kernel
def g16(x, idx, y, n: int, B: ct.Constant[int]):
    i = ct.load(idx, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    t = ct.gather(x, i, mask=i < n, padding_value=0.0)
    u = ct.gather(x, ct.where(i < n, i, 0), check_bounds=False)
    ct.store(y, index=(ct.bid(0),), tile=t + u)
""", ["x=bf16[?]/1, idx=i32[?]/1, y=bf16[?]/1, n=i32, B=#1024", "x=f16[?]/1, idx=i32[?]/1, y=f16[?]/1, n=i32, B=#1024"]),
    # a helper imported from another module (gelu_erf's gelu, whose Horner steps are fmas at that file's lines),
    # inlined next to an fma of the kernel's own; min/max with propagate_nan= and flush_to_zero=
    "xgelu": ("""
from tileport.kernels.gelu_erf import gelu


@ct.kernel
def xgelu(x, y, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    u = ct.minimum(t, 1.0, propagate_nan=True, flush_to_zero=True)
    ct.store(y, index=(ct.bid(0),), tile=gelu(t) * 2.0 + ct.maximum(u, -1.0, flush_to_zero=False))
""", ["x=f32[?]/1, y=f32[?]/1, B=#1024"]),
    # ct.scatter into an f16/bf16 array needs no literal of that dtype
    "sc16": ("""
@ct.kernel
def sc16(x, idx, y, n: int, B: ct.Constant[int]):
    pos = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    t = ct.load(x, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    i = ct.load(idx, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    ct.scatter(y, i, t, mask=pos < n)
""", ["x=bf16[?]/1, idx=i32[?]/1, y=bf16[?]/1, n=i32, B=#1024", "x=f16[?]/1, idx=i32[?]/1, y=f16[?]/1, n=i32, B=#1024"]),
    # loads inside a comparison (`ct.load(u) * ct.load(p) <= ct.load(t)`) with a loop-carried int flag: each load
    # read once (the scalar/tile probe of a comparison's operands emitted them twice: dead loads, unproven)
    "compare_loads": ("""
@ct.kernel
def compare_loads(u, pd, pt, out, n: int):
    done = 0
    count = 0
    for i in range(n):
        ok = (ct.load(u, index=(i,), shape=(1,)) * ct.load(pd, index=(i,), shape=(1,))
              <= ct.load(pt, index=(i,), shape=(1,))) & (done == 0)
        if ct.sum(ct.where(ok, 1, 0)) > 0:
            count = count + 1
        else:
            done = 1
    ct.store(out, index=(0,), tile=ct.full((1,), count, dtype=ct.int32))
""", ["u=f32[?]/1, pd=f32[?]/1, pt=f32[?]/1, out=i32[?]/1, n=i32"]),
    # ct.sum of a mask (a count): cuTile Python extends the bool tile to i32 (exti unsigned), then sums
    "mask_count": ("""
@ct.kernel
def mask_count(x, out, cnt, B: ct.Constant[int], C: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(B, C))
    per_row = ct.sum(t > 0.5, axis=1, keepdims=True)
    if ct.sum(t > 0.0) > 0:
        ct.store(out, index=(ct.bid(0), 0), tile=t)
    ct.store(cnt, index=(ct.bid(0), 0), tile=per_row)
""", ["x=f32[?,?]/?,1, out=f32[?,?]/?,1, cnt=i32[?,?]/?,1, B=#16, C=#32"]),
    # a split-K finish (a (2, 3) grid): y at the block's own tile, r at (bid(0), 0) by the blocks of bid(1) == 0
    # only, so r's literal 0 is not each block's own tile (three blocks share it): not a `&mut` partition
    "row_of_blocks": ("""
@ct.kernel
def row_of_blocks(x, y, r, BM: ct.Constant[int], BN: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), ct.bid(1)), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
    if ct.bid(1) == 0:
        ct.store(r, index=(ct.bid(0), 0), tile=ct.sum(t, axis=1, keepdims=True))
    ct.store(y, index=(ct.bid(0), ct.bid(1)), tile=t * 2.0)
""", ["x=f32[?,?]/?,1, y=f32[?,?]/?,1, r=f32[?,?]/?,1, BM=#16, BN=#32"]),
    # a store at a one-to-one map of the block ids: axes permuted (batch last) and one reversed
    "bijective": ("""
@ct.kernel
def bijective(x, y, B: ct.Constant[int]):
    z = ct.bid(2)
    i = ct.num_blocks(0) - 1 - ct.bid(0)
    t = ct.load(x, index=(z, i, ct.bid(1)), shape=(1, B, B), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(z, i, ct.bid(1)), tile=t * 2.0)
""", ["x=f32[?,?,?]/?,?,1, y=f32[?,?,?]/?,?,1, B=#16"]),
    # ct.store's latency= and allow_tma= (cutile's block-owned store takes no hints: the full tensor's partition),
    # and stores of one array in the arms of a constant if/elif/else (alternatives, not parts: no token chain)
    "storeopts": ("""
@ct.kernel
def storeopts(x, y, z, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(ct.bid(0),), tile=t * 2.0, latency=3)
    if B > 512:
        ct.store(z, index=(ct.bid(0),), tile=t, allow_tma=False, latency=2)
    elif B > 64:
        ct.store(z, index=(ct.bid(0),), tile=t + 1.0)
    else:
        ct.store(z, index=(ct.bid(0),), tile=t - 1.0, allow_tma=False)
""", ["x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, B=#1024", "x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, B=#128",
      "x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, B=#16"]),
    # an array stored in parts: each half of a head at literal tile indices 0 and 1 of one block map, the second
    # part's view chained on the first's token (rope's form until it gathered its heads, 2026-12-01)
    "parts": ("""
@ct.kernel
def parts(x, y, BT: ct.Constant[int], HALF: ct.Constant[int]):
    i = ct.bid(0)
    h = ct.bid(1)
    x1 = ct.load(x, index=(i, h, 0), shape=(BT, 1, HALF), padding_mode=ct.PaddingMode.ZERO)
    x2 = ct.load(x, index=(i, h, 1), shape=(BT, 1, HALF), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(i, h, 0), tile=x1 - x2)
    ct.store(y, index=(i, h, 1), tile=x2 + x1)
""", ["x=f32[?,?,?]/?,?,1, y=f32[?,?,?]/?,?,1, BT=#4, HALF=#64"]),
    # integer floor division and remainder of scalars (a block id over / modulo a head count); the worker-warps
    # entry hint
    "floordiv": ("""
@ct.kernel(num_worker_warps=8)
def floordiv(x, y, h: int, B: ct.Constant[int]):
    b = ct.bid(0) // h
    c = (b + 7) // 2 + ct.bid(0) % h - (b - 5) % 3
    t = ct.load(x, index=(c,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(ct.bid(0),), tile=t)
""", ["x=f32[?]/1, y=f32[?]/1, h=i32, B=#16"]),
    # tile indices that are 0-d tiles (`ct.gather(ids, t)`) or i64 scalars (an int64 id's `.item()`, truncated to
    # i32 as cuTile Python does) in loads and stores; `//` and `%` of a gathered slot by a constant; a scatter whose
    # index mixes 0-d tiles with a rank-1 one; an i64 label compared with an i32 argument as a ct.where condition
    # on scalars whose other value is a bare literal (weakly typed: the bf16 of the sum); an i64 slot compared with
    # a literal before an early return
    "gidx": ("""
@ct.kernel
def gidx(ids, ids64, table, out, cache, slots, labels, loss, ignore: int, D: ct.Constant[int],
         PAGE: ct.Constant[int]):
    t = ct.bid(0)
    row = ct.gather(ids, t)
    v = ct.load(table, index=(row, 0), shape=(1, D))
    r64 = ct.load(ids64, index=(t,), shape=()).item()
    w = ct.load(table, index=(r64, 0), shape=(1, D))
    ct.store(out, index=(t, 0), tile=v + w)
    slot = ct.gather(slots, t)
    ct.scatter(cache, (slot // PAGE, slot % PAGE, ct.arange(D, dtype=ct.int32)), ct.reshape(w, (D,)))
    label = ct.load(labels, index=(t,), shape=()).item()
    val = ct.where(label == ignore, 0.0, ct.sum(v))
    ct.store(loss, index=(t,), tile=ct.reshape(val, (1,)))
""", ["ids=i32[?]/1, ids64=i64[?]/1, table=bf16[?,?]/?,1, out=bf16[?,?]/?,1, cache=bf16[?,?,?]/?,?,1, slots=i32[?]/1, "
      "labels=i64[?]/1, loss=bf16[?]/1, ignore=i32, D=#128, PAGE=#16"]),
    # a rank-1 gather/scatter on a strided vector (a column of a matrix passed as a view: its stride an entry
    # parameter the launcher fills, as for rank n) and one element read at the constant index 0 of an aligned,
    # strided array (its address the base's: cuTile Python states the base's 16-byte alignment, not the element's)
    "gstrided": ("""
@ct.kernel
def gstrided(x, y, idx, w, out, B: ct.Constant[int]):
    i = ct.load(idx, index=(ct.bid(0),), shape=(B,))
    t = ct.gather(x, i)
    ct.scatter(y, i, t * ct.gather(w, 0))
    ct.scatter(out, ct.bid(0), ct.sum(t))
""", ["x=f32[?]/?, y=f32[?]/?, idx=i32[?]/1, w=f32[?]/?&16, out=f32[?]/?, B=#16",
      "x=f32[?%16]/?%4&16, y=f32[?]/?%4, idx=i32[?]/1, w=f32[?]/?%4&16, out=f32[?]/?&16, B=#16"]),
    # a sum of a product converted to an array's dtype (`ct.astype(a * f, x.dtype) + acc`): at f32 the conversion is
    # a no-op and cuTile Python contracts the sum into an fma, at f16 it converts and adds — each variant as its own
    # reference has it (two bodies)
    "fmacast": ("""
@ct.kernel
def fmacast(x, y, out, f: float, B: ct.Constant[int]):
    a = ct.load(x, index=(ct.bid(0),), shape=(B,))
    acc = ct.load(y, index=(ct.bid(0),), shape=(B,))
    ct.store(out, index=(ct.bid(0),), tile=ct.astype(a * f, x.dtype) + acc)
""", ["x=f32[?%16]/1&16, y=f32[?%16]/1&16, out=f32[?%16]/1&16, f=f32, B=#128",
      "x=f16[?%16]/1&16, y=f32[?%16]/1&16, out=f32[?%16]/1&16, f=f32, B=#128"]),
    "gstore": ("""
@ct.kernel
def gstore(k, cache, slots, slots32, cache2, H: ct.Constant[int], D: ct.Constant[int]):
    t = ct.bid(0)
    kt = ct.load(k, index=(t, 0, 0), shape=(1, H, D))
    ct.store(cache2, index=(ct.gather(slots32, t), 0, 0), tile=kt)
    s = ct.load(slots, index=(t,), shape=()).item()
    if s < 0:
        return
    ct.store(cache, index=(s, 0, 0), tile=kt)
""", ["k=f16[?,?,?]/?,?,1, cache=f16[?,?,?]/?,?,1, slots=i64[?]/1, slots32=i32[?]/1, cache2=f16[?,?,?]/?,?,1, H=#8, "
      "D=#128"]),
    # constants as other people write them: a module tuple's items and length in a ct.static_iter loop, `D ** 0.5`,
    # float and integer arithmetic of literals (a hash's constants) folded as Python folds them, `@staticmethod`
    # helpers of a class (one returning a product an fma takes), a negative ct.expand_dims axis, `x.shape[-1]`
    "consts": ("""
SCALES = (0.5, 0.25, 0.125)


class Ops:
    @staticmethod
    def mean_sq(t):
        return ct.sum(t * t, axis=-1, keepdims=True) * (1.0 / t.shape[-1])

    @staticmethod
    @ct.function
    def hashed(n, seed):
        h = ((ct.arange(n, dtype=ct.int32) ^ seed) * 747796405 + 2891336453 % 2147483647) & 0x7FFFFFFF
        return h.astype(ct.float32) * (1.0 / 2147483647.0)


@ct.kernel
def consts(x, y, seed: int, D: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0), shape=(1, D)).astype(ct.float32)
    acc = t - (1.0 / D ** 0.5)
    for k in ct.static_iter(range(len(SCALES))):
        acc = acc + t * SCALES[k] * (k + 1)
    acc = acc * ct.rsqrt(Ops.mean_sq(acc) + 1e-6)
    acc = acc + ct.expand_dims(Ops.hashed(D, seed), -2) * x.shape[-1]
    ct.store(y, index=(i, 0), tile=acc.astype(y.dtype))
""", ["x=bf16[?,?]/?,1, y=bf16[?,?]/?,1, seed=i32, D=#256"]),
    # a binary search over cu_seqlens: a runtime `if` whose test reads memory (`ct.gather(..) <= t`), the read
    # emitted once
    "bsearch": ("""
@ct.kernel
def bsearch(cu_seqlens, seq_of_token, n_seqs: int):
    t = ct.bid(0)
    lo = 0
    hi = n_seqs
    while lo < hi:
        mid = (lo + hi) // 2
        if ct.gather(cu_seqlens, mid + 1) <= t:
            lo = mid + 1
        else:
            hi = mid
    ct.scatter(seq_of_token, t, lo)
""", ["cu_seqlens=i32[?]/1, seq_of_token=i32[?]/1, n_seqs=i32"]),
    # a helper called through the module it lives in (`import .. as ge`, `ge.gelu(t)`)
    "xmodattr": ("""
import tileport.kernels.gelu_erf as ge


@ct.kernel
def xmodattr(x, y, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(ct.bid(0),), tile=ge.gelu(t) * 2.0)
""", ["x=f32[?]/1, y=f32[?]/1, B=#1024"]),
    # a mask converted to numbers (`m.astype(ct.int32)`: an unsigned exti of the bool tile; to a float: itof)
    "boolcast": ("""
@ct.kernel
def boolcast(x, y, n: int, B: ct.Constant[int]):
    pid = ct.bid(0)
    offs = pid * B + ct.arange(B, dtype=ct.int32)
    m = offs < n
    t = ct.load(x, (pid,), (B,), padding_mode=ct.PaddingMode.ZERO)
    u = t * m.astype(x.dtype)
    cnt = ct.sum(m.astype(ct.int32))
    ct.store(y, (pid,), ct.maximum(u.astype(ct.float32), ct.sum(m.astype(ct.float32))) + cnt.astype(ct.float32))
""", ["x=bf16[?]/1, y=f32[?]/1, n=i32, B=#256"]),
    # operands read in source order: `x`'s load inline, then `w`'s load bound by its transpose (was: w read first)
    "operand_order": ("""
@ct.kernel
def operand_order(x, w, y, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    m, n = ct.bid(0), ct.bid(1)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.num_tiles(x, axis=1, shape=(BM, BK))):
        acc = ct.mma(ct.load(x, (m, k), (BM, BK), padding_mode=ct.PaddingMode.ZERO),
                     ct.transpose(ct.load(w, (n, k), (BN, BK), padding_mode=ct.PaddingMode.ZERO)), acc)
    ct.store(y, (m, n), acc.astype(y.dtype) + ct.load(x, (m, 0), (BM, BN), padding_mode=ct.PaddingMode.ZERO)
             * ct.transpose(ct.load(w, (n, 0), (BN, BM), padding_mode=ct.PaddingMode.ZERO)))
""", ["x=f16[?,?]/?,1, w=f16[?,?]/?,1, y=f16[?,?]/?,1, BM=#64, BN=#64, BK=#32"]),
    # statement forms: a chained assignment, `while True:` left by `break` (cutile's `loop`), a bare `...`, an
    # f-string ct.static_assert message, a constant conditional in an index; a runtime int added to a bf16 tile
    # (the signed itof to bf16)
    "stmtforms": ("""
@ct.kernel
def stmtforms(x, y, n: int, FLAG: ct.Constant[bool], B: ct.Constant[int]):
    ct.static_assert(B % 16 == 0, f"B={B} must be a multiple of 16")
    pid = ct.bid(0)
    lo = hi = 0
    hi = n
    t = ct.load(x, index=(pid if FLAG else 0,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    k = 0
    while True:
        if k >= 3:
            break
        t = t * 0.5
        k += 1
    ...
    ct.store(y, index=(pid,), tile=t + (hi - lo))
""", ["x=bf16[?]/1, y=bf16[?]/1, n=i32, FLAG=#True, B=#256"]),
    # scalars: `eps > 0` (a float and an int literal), `abs(eps)` (a 0-d tile) in a conditional expression with a
    # float, min/max of runtime ints
    "scalarforms": ("""
@ct.kernel
def scalarforms(x, y, n: int, eps: float, B: ct.Constant[int]):
    pid = ct.bid(0)
    start = pid * B
    cnt = min(n - start, B)
    lo = max(0, start - 1)
    t = ct.load(x, (pid,), (B,), padding_mode=ct.PaddingMode.ZERO)
    scale = abs(eps) if eps > 0 else 1.0
    ct.store(y, (pid,), t * scale + (cnt + lo))
""", ["x=f32[?]/1, y=f32[?]/1, n=i32, eps=f32, B=#512"]),
    # helpers with loops (one returning a sum, one storing through the array it is given); ct.full of an f32 value
    # into a bf16 tile (the value converted first)
    "helperloops": ("""
@ct.function
def row_sum(x, r, BN: int):
    acc = ct.zeros((1, BN), ct.float32)
    for c in range(ct.num_tiles(x, 1, (1, BN))):
        acc += ct.load(x, (r, c), (1, BN), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    return ct.sum(acc)


def write_rows(y, r, v, BN: int):
    for c in range(ct.num_tiles(y, 1, (1, BN))):
        ct.store(y, (r, c), ct.full((1, BN), v, y.dtype))


@ct.kernel
def helperloops(x, y, BN: ct.Constant[int]):
    r = ct.bid(0)
    s = row_sum(x, r, BN)
    write_rows(y, r, s, BN)
""", ["x=bf16[?,?]/?,1, y=bf16[?,?]/?,1, BN=#512"]),
    # a kernel a factory makes, reading what it closes over (`kind`), bound at module level under another name,
    # referred to by its function's name (as a capture records it)
    "factory_k": ("""
def make_act_kernel(kind: int):
    @ct.kernel
    def factory_k(x, y, B: ct.Constant[int]):
        t = ct.load(x, (ct.bid(0),), (B,), padding_mode=ct.PaddingMode.ZERO)
        if kind == 1:
            t = ct.maximum(t, 0.0)
        ct.store(y, (ct.bid(0),), t)
    return factory_k


relu_kernel = make_act_kernel(1)
""", ["x=f32[?]/1, y=f32[?]/1, B=#512"]),
    # a kernel kept on a class as a `@staticmethod`
    "static_k": ("""
class Kernels:
    @staticmethod
    @ct.kernel
    def static_k(x, y, s: float, B: ct.Constant[int]):
        t = ct.load(x, (ct.bid(0),), (B,), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, (ct.bid(0),), t * s)
""", ["x=f32[?]/1, y=f32[?]/1, s=f32, B=#512"]),
    # a tiled view's atomic reductions (split-K into f32; an integer max of a scalar broadcast to the tile)
    "tiledred": ("""
@ct.kernel
def tiledred(a, b, c, hist, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
             SPLIT: ct.Constant[int]):
    m, n, s = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = ct.zeros((BM, BN), ct.float32)
    for k in range(s, ct.num_tiles(a, 1, (BM, BK)), SPLIT):
        acc = ct.mma(ct.load(a, (m, k), (BM, BK), padding_mode=ct.PaddingMode.ZERO),
                     ct.load(b, (k, n), (BK, BN), padding_mode=ct.PaddingMode.ZERO), acc)
    cv = c.tiled_view((BM, BN))
    cv.atomic_store_add((m, n), acc)
    hv = hist.tiled_view((16,))
    hv.atomic_store_max(m, s)
""", ["a=f16[?,?]/?,1, b=f16[?,?]/?,1, c=f32[?,?]/?,1, hist=i32[?]/1, BM=#64, BN=#64, BK=#32, SPLIT=#4",
      "a=bf16[?,?]/?,1, b=bf16[?,?]/?,1, c=f32[?,?]/?,1, hist=i32[?]/1, BM=#64, BN=#64, BK=#32, SPLIT=#2"]),
    # a loop left by `break` where its index passes a loop-invariant bound (`if j >= lim: break`): cuTile Python's
    # for_loop_break flag, then loop_split's two loops, both carrying the flag and the loop's values
    "breaksplit": ("""
@ct.kernel
def breaksplit(x, y, n: int, B: ct.Constant[int]):
    pid = ct.bid(0)
    lim = pid + 2
    acc = ct.zeros((B,), ct.float32)
    cnt = 0
    for j in range(n):
        t = ct.load(x, index=(j,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
        if j >= lim:
            break
        acc = acc + t
        cnt += 1
    ct.store(y, index=(pid,), tile=acc / (cnt + 1))
""", ["x=f32[?]/1, y=f32[?]/1, n=i32, B=#256"]),
    # ct.arange's start= and step= (cuda.tile 1.7: the iota times the step plus the start, each converted to the
    # dtype; a float one contracted into an fma), a float arange (the i32 iota converted), an int64 one
    "arange_ss": ("""
@ct.kernel
def arange_ss(y, z, start: int, B: ct.Constant[int]):
    base = ct.bid(0) * B
    even = ct.arange(B, dtype=ct.int32, start=0, step=2)
    ids = ct.arange(B, dtype=ct.int32, start=base)
    f = ct.arange(B, dtype=ct.float32, start=start, step=3)
    w = ct.arange(B, step=B, dtype=ct.int64, start=base)
    ct.store(y, index=(ct.bid(0),), tile=(even + ids).astype(ct.float32) + f + ct.arange(B, dtype=ct.float32))
    ct.store(z, index=(ct.bid(0),), tile=w)
""", ["y=f32[?]/1&16, z=i64[?]/1&16, start=i32, B=#256"]),
    # an int64 scalar (a label's or a slot's `.item()`) next to i32 values: compared with an i32 tile (the tile
    # widened, as cuTile Python promotes it), `divmod` by a constant (i64 floor division and remainder); a top-k
    # step masking the taken column with `-float("inf")` (folded to the constant, no negf)
    "i64mix": ("""
@ct.kernel
def i64mix(x, labels, slots, y, cache, PAGE: ct.Constant[int], BN: ct.Constant[int]):
    row = ct.bid(0)
    label = ct.load(labels, index=(row,), shape=()).item()
    t = ct.load(x, index=(row, 0), shape=(1, BN), padding_mode=ct.PaddingMode.NEG_INF)
    cols = ct.arange(BN, dtype=ct.int32)
    t = ct.where(ct.reshape(cols == label, (1, BN)), -float("inf"), t)
    ct.store(y, index=(row, 0), tile=t)
    slot = ct.load(slots, index=(row,), shape=()).item()
    page, off = divmod(slot, PAGE)
    ct.store(cache, index=(page, off, 0), tile=ct.reshape(t, (1, 1, BN)))
""", ["x=f32[?,?]/?,1&16, labels=i64[?]/1&16, slots=i64[?]/1&16, y=f32[?,?]/?,1&16, "
      "cache=f32[?,?%16,?%16]/?%4,?%4,1&16, PAGE=#16, BN=#128"]),
    # ct.static_iter over tuples holding arrays: enumerate (the split of a fused qkv row), zip with float weights,
    # a plain tuple of arrays (unrolled, the names replaced by the items); a module float's -inf bound to a scalar
    # (`m = -math.inf`: the folded constant), then carried by a loop as a 0-d tile
    "static_arrays": ("""
import math


@ct.kernel
def static_arrays(qkv, q, k, v, mix, rowmax, HD: ct.Constant[int]):
    t = ct.bid(0)
    for j, dst in ct.static_iter(enumerate((q, k, v))):
        row = ct.load(qkv, index=(t, j), shape=(1, HD))
        ct.store(dst, index=(t, 0), tile=row)
    acc = ct.zeros((1, HD), ct.float32)
    m = -math.inf
    for j, w in ct.static_iter(zip((0, 2), (0.5, 2.0))):
        part = ct.load(qkv, index=(t, j), shape=(1, HD)).astype(ct.float32)
        acc = acc + part * w
        m = max(m, ct.max(part))
    for out in ct.static_iter((mix,)):
        ct.store(out, index=(t, 0), tile=acc)
    ct.store(rowmax, index=(t,), tile=m)
""", ["qkv=bf16[?,?%16]/?%8,1&16, q=bf16[?,?%16]/?%8,1&16, k=bf16[?,?%16]/?%8,1&16, v=bf16[?,?%16]/?%8,1&16, "
      "mix=f32[?,?%16]/?%4,1&16, rowmax=f32[?]/1&16, HD=#128"]),
    # `x.strides[k]` read in a kernel (flat offsets into a 1-d view of the same rows): the launcher-filled stride
    # parameter with cuTile Python's facts (divisible by 4 here); the unit stride is the constant 1
    "strides_k": ("""
@ct.kernel
def strides_k(x, flat, y, B: ct.Constant[int]):
    pid = ct.bid(0)
    row_stride = x.strides[0]
    offs = pid * row_stride + ct.arange(B, dtype=ct.int32) * x.strides[-1]
    t = ct.gather(flat, offs)
    ct.store(y, index=(pid, 0), tile=ct.reshape(t, (1, B)) * row_stride)
""", ["x=f32[?,?]/?%4,1&16, flat=f32[?]/1&16, y=f32[?,?]/?,1&16, B=#128"]),
    # transposes and permutes met by element-wise operations (a symmetrised tile): cutile 0.3.1 types their
    # results by the extents' values, so each such use is reshaped to the names first (identity-shape-ops)
    "permute_ew": ("""
@ct.kernel
def permute_ew(x, y, z, BM: ct.Constant[int], BN: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
    p = t.transpose()
    sym = (t + p) * 0.5 - ct.permute(t, (1, 0))
    ct.store(y, index=(ct.bid(0), 0), tile=sym)
    u = ct.permute(ct.reshape(t, (BM, 1, BN)), (2, 1, 0))
    ct.store(z, index=(0, 0, ct.bid(0)), tile=ct.where(u > 0, u, 0.0))
""", ["x=f32[?,?%16]/?%4,1&16, y=f32[?,?%16]/?%4,1&16, z=f32[?%16,?,?]/?,?,1&16, BM=#16, BN=#16"]),
    # helpers passed to helpers (a module helper as an argument, a kernel-local closure as a parameter's default:
    # a copy of the callee per function, rewrite helper-function-argument); a helper's result that is a constant
    # (`t.shape[1]` returned in a tuple, and alone) folded where it is read, as cuTile Python folds it
    "fnargs": ("""
@ct.function
def silu(v):
    return v / (1.0 + ct.exp(-v))


@ct.function
def apply(v, f):
    return f(v) * 2.0


@ct.function
def stats(t):
    m = ct.max(t, axis=1, keepdims=True)
    return m, ct.sum(ct.exp(t - m), axis=1, keepdims=True), t.shape[1]


@ct.function
def width(t):
    return t.shape[1]


@ct.kernel
def fnargs(x, y, z, alpha: float, BN: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, BN), padding_mode=ct.PaddingMode.NEG_INF)

    def leaky(v):
        return ct.where(v > 0, v, v * alpha)

    def twice(v, f=leaky):
        return f(f(v))

    m, s, n = stats(t)
    w = width(t)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.exp(t - m) / s * n + w)
    ct.store(z, index=(ct.bid(0), 0), tile=apply(t, silu) + twice(t))
""", ["x=f32[?,?]/?,1&16, y=f32[?,?]/?,1&16, z=f32[?,?]/?,1&16, alpha=f32, BN=#256"]),
    # round 4: a helper's bool parameter (keepdims=keep of a keep=True default) folded; `a, b = b, a + b` (the
    # element reading an earlier target bound first); `step = 1; step <<= 2` folded while constant; a float item of
    # a module tuple (SCALES[LEVEL]); int(D / 2) of constants; a module tuple bound to a name (tile_shape = TILE)
    "pyforms4": ("""
SCALES = (0.5, 0.25, 0.125)
TILE = (1, 64)


@ct.function
def _norm(t, axis=1, keep=True):
    return ct.sqrt(ct.sum(t * t, axis=axis, keepdims=keep))


@ct.kernel
def pyforms4(x, y, z, D: ct.Constant[int], LEVEL: ct.Constant[int]):
    pid = ct.bid(0)
    tile_shape = TILE
    a = ct.load(x, index=(pid, 0), shape=tile_shape)
    b = ct.load(x, index=(pid, 1), shape=tile_shape)
    for _ in range(3):
        a, b = b, a + b
    step = 1
    step <<= 2
    half = int(D / 2)
    u = a / (_norm(a) + 1e-12) * SCALES[LEVEL] + b * step
    ct.store(y, index=(pid, 0), tile=u + half)
    ct.store(z, index=(pid, 0), tile=ct.full(tile_shape, 1.0, ct.float32) * D / 4)
""", ["x=f32[?,?]/?,1, y=f32[?,?]/?,1, z=f32[?,?]/?,1, D=#128, LEVEL=#2"]),
    # round 4: integer idioms: `~0xFF` of a literal, a uint32 constant beyond int32 (2654435761, the i32 of its bits
    # bitcast), -v of an i32 tile (negi), Python's true division of i32 values (signed itof, then divf), a break
    # flag carried after the loop's own value (`found` before `zz_0_broke`, as cuTile Python orders them)
    "intforms4": ("""
@ct.kernel
def intforms4(x, h_out, f_out, found_out, n: int, n_tiles: int, B: ct.Constant[int]):
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(B,))
    h = ct.astype(v, ct.uint32) * 2654435761 + 7
    m = (v << 3) & ~0xFF
    ct.store(h_out, index=(pid,), tile=ct.astype(h >> 8, ct.int32) + m - v + abs(-v))
    ct.store(f_out, index=(pid,), tile=v / n + pid / n)
    found = -1
    for j in range(n_tiles):
        t = ct.load(x, index=(j,), shape=(B,))
        if ct.max(t) > n:
            found = j
            break
    ct.store(found_out, index=(pid,), tile=ct.full((1,), found, dtype=ct.int32))
""", ["x=i32[?]/1, h_out=i32[?]/1, f_out=f32[?]/1, found_out=i32[?]/1, n=i32, n_tiles=i32, B=#256"]),
    # round 4: Python's float % of an f32 tile (remf, then + b where the signs differ); ct.where with a scalar
    # condition; a reduction with its options at their defaults; `{ .. } == 0` of `pid % 2` in a short-circuit arm
    "fmod": ("""
import math

TWO_PI = 2.0 * math.pi


@ct.kernel
def fmod(x, y, n: int, B: ct.Constant[int]):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid, 0), shape=(1, B), padding_mode=ct.PaddingMode.ZERO)
    w = t % TWO_PI
    s = ct.sum(w, axis=1, keepdims=True, rounding_mode=ct.RoundingMode.RN, flush_to_zero=False)
    r = ct.where(pid < n, ct.sin(w) - s, t)
    if pid < n and pid % 2 == 0:
        r = -r
    ct.store(y, index=(pid, 0), tile=r)
""", ["x=f32[?,?]/?,1, y=f32[?,?]/?,1, n=i32, B=#128"]),
    # round 4: a tuple passed to a helper: an index of a statement helper (`_write(y, (pid,), t, 2.0)`) and an
    # index and shape of an inlined one (`_scaled(x, (pid,), (B,), 0.5)`)
    "tupleargs": ("""
@ct.function
def _write(out, idx, v, scale):
    ct.store(out, index=idx, tile=v * scale)


@ct.function
def _scaled(x, idx, shape, s):
    return ct.load(x, index=idx, shape=shape, padding_mode=ct.PaddingMode.ZERO) * s


@ct.kernel
def tupleargs(x, y, z, B: ct.Constant[int]):
    pid = ct.bid(0)
    t = _scaled(x, (pid,), (B,), 0.5)
    _write(y, (pid,), t, 2.0)
    _write(z, (pid,), t, 3.0 if B > 64 else 1.0)
""", ["x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, B=#256"]),
    # round 4: `&`/`|` of an i16 tile (cutile's operators take 32/64-bit tiles: the andi/ori ops), Python's `//`
    # of an f32 tile (divf, then floor), a dtype passed to a helper (`cast_scale(t, y.dtype, 0.5)`)
    "narrow4": ("""
@ct.function
def cast_scale(t, dt, s):
    return (t * s).astype(dt)


@ct.kernel
def narrow4(x, y, b, B: ct.Constant[int]):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(B,))
    bits = (ct.bitcast(t, ct.int16) & 0x7FFF) | 0x10
    f = t.astype(ct.float32)
    ct.store(b, index=(pid,), tile=ct.astype(bits, ct.int32) + ct.astype(f // 0.25, ct.int32))
    ct.store(y, index=(pid,), tile=cast_scale(f, y.dtype, 0.5))
""", ["x=f16[?]/1, y=f16[?]/1, b=i32[?]/1, B=#256"]),
    # round 4: a load only the arm a constant conditional expression does not take reads (`kt if TRANSPOSED else
    # ..`) is dropped, as cuTile Python drops it
    "deadarm4": ("""
@ct.kernel
def deadarm4(q, k, s, BM: ct.Constant[int], BN: ct.Constant[int], D: ct.Constant[int],
             TRANSPOSED: ct.Constant[bool]):
    bm, bn = ct.bid(0), ct.bid(1)
    kt = ct.load(k, (0, bn), (D, BN), padding_mode=ct.PaddingMode.ZERO)
    kn = ct.load(k, (bn, 0), (BN, D), padding_mode=ct.PaddingMode.ZERO)
    rhs = kt if TRANSPOSED else ct.transpose(kn)
    ct.store(s, (bm, bn), ct.mma(ct.load(q, (bm, 0), (BM, D)), rhs, acc=ct.zeros((BM, BN), ct.float32)))
""", ["q=f16[?,?]/?,1, k=f16[?,?]/?,1, s=f32[?,?]/?,1, BM=#64, BN=#64, D=#64, TRANSPOSED=#false",
      "q=f16[?,?]/?,1, k=f16[?,?]/?,1, s=f32[?,?]/?,1, BM=#64, BN=#64, D=#64, TRANSPOSED=#true"]),
    # round 5: a product re-bound to its own name (`pt = pt * (1 - lr * wd)`, AdamW's decay) fused into a later
    # `pt = pt - ..` with other statements between; a product read after one of its factors is re-bound (`q = a * s;
    # a = ..; q + a`: the fma reads a's earlier value, kept by a `let`); `range(-1, 2)` (cutile types no bare `-1`);
    # an inline `ct.where((c <= r) & (c < S), ..)` of tiles of other shapes (bound typed first)
    "fma5": ("""
@ct.kernel
def fma5(p, g, y, z, lr: float, wd: float, S: int, B: ct.Constant[int]):
    i = ct.bid(0)
    pt = ct.load(p, index=(i, 0), shape=(B, B), padding_mode=ct.PaddingMode.ZERO)
    gt = ct.load(g, index=(i, 0), shape=(B, B), padding_mode=ct.PaddingMode.ZERO)
    pt = pt * (1.0 - lr * wd)
    mt = gt * 0.5
    pt = pt - lr * mt / (ct.sqrt(gt) + 1e-8)
    ct.store(p, index=(i, 0), tile=pt)
    a = gt + 1.0
    q = a * lr
    a = a * 2.0 + gt
    r = q + a
    rows = ct.reshape(ct.arange(B, dtype=ct.int32), (B, 1))
    cols = ct.reshape(ct.arange(B, dtype=ct.int32), (1, B))
    acc = ct.zeros((B, B), dtype=ct.float32)
    for d in range(-1, 2):
        acc = acc + ct.where((cols <= rows + d) & (cols < S), r, -1.0e30)
    ct.store(y, index=(i, 0), tile=acc)
    ct.store(z, index=(i, 0), tile=a)
""", ["p=f32[?,?]/?,1, g=f32[?,?]/?,1, y=f32[?,?]/?,1, z=f32[?,?]/?,1, lr=f32, wd=f32, S=i32, B=#32"]),
    # cuTile Python generality round 6: a helper whose parameter `t` shadows the kernel's `t` with another type,
    # the kernel's `t` read after it in a typed product (cutile 0.3.1's inference lets a block's bindings leak:
    # renamed inside the block); a `True` flag cleared in a loop (an early exit without break); an f32 sum over an
    # i32 0-d count (promoted to f32); an online logsumexp carrying `m` (a 0-d tile from -inf) and `acc` (an f32
    # scalar re-assigned 0-d tiles) in the other order than cutile's by-name one
    "gen6": ("""
def _f32(t):
    return ct.astype(t, ct.float32)


@ct.kernel
def gen6(x, w, lens, y, z, n: int, B: ct.Constant[int]):
    r = ct.bid(0)
    t = _f32(ct.load(x, index=(r, 0), shape=(1, B), padding_mode=ct.PaddingMode.ZERO))
    s = ct.load(lens, index=(r,), shape=(1,))
    wt = _f32(ct.load(w, index=(0,), shape=(B,), padding_mode=ct.PaddingMode.ZERO))
    out = t * ct.reshape(ct.astype(s, ct.float32), (1, 1)) * ct.reshape(wt, (1, B))
    cnt = ct.gather(lens, r)
    live = True
    m = -float("inf")
    acc = 0.0
    for c in range(ct.cdiv(n, B)):
        u = ct.load(x, index=(r, c), shape=(1, B), padding_mode=ct.PaddingMode.NEG_INF)
        if c * B >= cnt:
            live = False
        if live:
            mn = ct.maximum(m, ct.max(u))
            acc = acc * ct.exp(m - mn) + ct.sum(ct.exp(u - mn))
            m = mn
    ct.store(y, index=(r, 0), tile=ct.astype(out, y.dtype))
    ct.store(z, index=(r,), tile=ct.reshape((m + ct.log(acc)) / ct.maximum(cnt, 1), (1,)))
""", ["x=f16[?,?]/?,1, w=f16[?]/1, lens=i32[?]/1, y=f16[?,?]/?,1, z=f32[?]/1, n=i32, B=#256"]),
    # (round 6, continued) a loop's parallel stores (one tile per iteration) in a kernel ordered for a releasing
    # atomic after the loop: each store from the token before the loop, joined into the carried one (a cross-
    # entropy gradient then its loss); `.item()` of an f16 tile next to an f32 tile (widened); `max()` of an f32
    # argument and a literal; a bare `return` ending the kernel
    "gen6b": ("""
@ct.kernel
def gen6b(x, lse, g, loss, lo: float, V: int, B: ct.Constant[int]):
    r = ct.bid(0)
    first = ct.load(x, index=(r, 0), shape=(1, 1)).item()
    c = max(lo, 0.0)
    z = ct.gather(lse, r)
    for k in range(ct.cdiv(V, B)):
        t = ct.astype(ct.load(x, index=(r, k), shape=(1, B), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        ct.store(g, index=(r, k), tile=ct.astype(ct.maximum(t - first, c) - z, g.dtype))
    ct.atomic_add(loss, 0, z)
    return
""", ["x=f16[?,?]/?,1, lse=f32[?]/1, g=f16[?,?]/?,1, loss=f32[?]/1, lo=f32, V=i32, B=#256"]),
    # round 6: a `let mut` re-bound to its own product in a loop body and summed there (an embedding bag's per-sample
    # weight, `row = row * w; acc += row`) or in a branch nested in it: fused, the factor's earlier value kept by a
    # `let`; the product read again after the sum (`t`), re-bound in a nested loop (`c`) or summed after the loop
    # (`q`): not fused, as cuTile Python's product has other readers there
    "fma6": ("""
@ct.kernel
def fma6(w, s, y, z, n: int, B: ct.Constant[int]):
    i = ct.bid(0)
    acc = ct.zeros((B,), dtype=ct.float32)
    odd = ct.zeros((B,), dtype=ct.float32)
    top = ct.zeros((B,), dtype=ct.float32)
    q = ct.full((B,), 1.0, dtype=ct.float32)
    for j in range(n):
        row = ct.load(w, index=(j, i), shape=(1, B)).reshape((B,))
        row = row * ct.load(s, index=(j,), shape=(1,)).item()
        acc += row
        v = ct.load(w, index=(j, 0), shape=(1, B)).reshape((B,))
        v = v * 0.5
        if j % 2 == 1:
            odd += v
        t = ct.load(w, index=(0, j), shape=(1, B)).reshape((B,))
        t = t * 2.0
        acc += t
        top = ct.maximum(top, t)
        c = t * 3.0
        for _k in range(2):
            odd += c
            c = c + 1.0
        q = q * 0.9
    acc = acc + q
    ct.store(y, index=(i,), tile=acc + odd)
    ct.store(z, index=(i,), tile=top)
""", ["w=f32[?,?]/?,1, s=f32[?]/1, y=f32[?]/1, z=f32[?]/1, n=i32, B=#64"]),
    # round 5: a helper's string mode by keyword (`mode="relu"`, folded as cuTile Python folds it); range bounds
    # gathered from memory (0-d tiles: CSR row pointers) with a constant step; `while s > 1.0 and k < 8` of a
    # reduced `s` (the 0-d comparison bound first: cutile panics on it inline); `-n` of a runtime int (negi);
    # `beta ** step` of float scalars and `ct.sqrt` of the scalar (the op bound typed); an int constant promoted in a
    # float division (`/ NB`: folded to 64.0); an array parameter named `pred` (cutile's launcher binds that name)
    "forms5": ("""
@ct.function
def _act(v, *, mode="silu", scale=1.0):
    if mode == "silu":
        v = v / (1.0 + ct.exp(-v))
    elif mode == "relu":
        v = ct.maximum(v, 0.0)
    return v * scale


@ct.kernel
def forms5(pred, row_ptr, y, z, n: int, beta: float, step: float, NB: ct.Constant[int], B: ct.Constant[int]):
    r = ct.bid(0)
    start = ct.gather(row_ptr, r)
    end = ct.gather(row_ptr, r + 1)
    acc = ct.zeros((B,), dtype=ct.float32)
    for k in range(start, end, B):
        idx = k + ct.arange(B, dtype=ct.int32)
        acc += ct.gather(pred, idx, mask=idx < end)
    s = ct.sum(acc)
    halvings = 0
    while s > 1.0 and halvings < 8:
        s = s * 0.5
        halvings += 1
    bias = n if n > 0 else -n
    corr = ct.sqrt(1.0 - beta ** step)
    extra = (s + halvings + bias) / NB * corr
    out = _act(acc, scale=0.5) + _act(acc, mode="relu")
    out = out + extra
    ct.store(y, index=(r,), tile=out)
    ct.store(z, index=(r,), tile=ct.load(pred, index=(r,), shape=(B,)) * 2.0)
""", ["pred=f32[?]/1, row_ptr=i32[?]/1, y=f32[?]/1, z=f32[?]/1, n=i32, beta=f32, step=f32, NB=#64, B=#128"]),
    # round 5: ct.static_iter over a module tuple of tuples (a sorting network's stages, `k, j = stage` per item) and
    # over a slice of a module tuple (`COEFFS[-2::-1]`); ct.log of a float scalar (bound typed)
    "static5": ("""
STAGES = ((2, 1), (4, 2))
COEFFS = (1.0, -0.5, 0.25)


@ct.kernel
def static5(x, y, n: int, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.full((B,), COEFFS[-1], dtype=ct.float32)
    for c in ct.static_iter(COEFFS[-2::-1]):
        acc = acc * t + c
    for stage in ct.static_iter(STAGES):
        k, j = stage
        acc = acc + k * j
    ct.store(y, index=(ct.bid(0),), tile=acc + ct.log(n * 0.5))
""", ["x=f32[?]/1, y=f32[?]/1, n=i32, B=#128"]),
    # round 7: unsigned constants with their top bit set (`t & 0xF0` and `ct.full(.., 200, dtype=ct.uint8)` on u8:
    # cutile wrote them as 0; the signed literal of the bits, bitcast), a folded `4 * j` with a u32 tile, 16-bit
    # shifts (shri, the declared shli_wrapping)
    "gen7_bits": ("""
@ct.kernel
def gen7_bits(b8, o8, w32, o32, h16, o16, B: ct.Constant[int]):
    t = ct.load(b8, index=(ct.bid(0),), shape=(B,))
    hi = t & 0xF0
    ct.store(o8, index=(ct.bid(0),), tile=ct.where(hi == 0, ct.full((B,), 200, dtype=ct.uint8), hi ^ 0xFF))
    w = ct.load(w32, index=(ct.bid(0),), shape=(B,))
    acc = w & 0xF
    for j in ct.static_iter(range(1, 4)):
        acc = acc + ((w >> (4 * j)) & 0xF)
    ct.store(o32, index=(ct.bid(0),), tile=acc)
    h = ct.load(h16, index=(ct.bid(0),), shape=(B,))
    ct.store(o16, index=(ct.bid(0),), tile=((h >> 8) & 0xFF) | ((h << 8) & 0xFF00))
""", ["b8=u8[?]/1, o8=u8[?]/1, w32=u32[?]/1, o32=u32[?]/1, h16=u16[?]/1, o16=u16[?]/1, B=#128"]),
    # i32's lowest value (a float's sign bit as u32, an int32 max's padding): `(-2147483647i32 - 1i32)`, a tile of it
    # by broadcast_scalar (cutile parses `-2147483648i32` as the negation of 2147483648; irdiff fold-int-constants)
    "int32_min": ("""
@ct.kernel
def int32_min(w32, o32, x, y, B: ct.Constant[int]):
    w = ct.load(w32, index=(ct.bid(0),), shape=(B,))
    ct.store(o32, index=(ct.bid(0),), tile=w ^ 0x80000000)
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    ct.store(y, index=(ct.bid(0),), tile=ct.maximum(t, ct.full((B,), -2147483648, ct.int32)) ^ -2147483648)
""", ["w32=u32[?]/1, o32=u32[?]/1, x=i32[?]/1, y=i32[?]/1, B=#128"]),
    # round 12: `+`, `-`, `*` of 16-bit integer tiles (cutile's operators know no i16: the declared addi/subi/muli
    # with their overflow attribute spelled; the Rust did not compile through cutile)
    "gen14_int16": ("""
@ct.kernel
def gen14_int16(x, y, z, B: ct.Constant[int]):
    b = ct.load(x, (ct.bid(0),), (B,))
    w = ct.astype(b, ct.uint16) * 3
    ct.store(y, (ct.bid(0),), w + w)
    ct.store(z, (ct.bid(0),), ct.astype(w, ct.int16) - 300)
""", ["x=u8[?]/1, y=u16[?]/1, z=i16[?]/1, B=#128"]),
    # round 7: ct.maximum / ct.minimum of 8/16-bit and unsigned integer tiles (maxi/mini, signedness by the dtype)
    "gen7_intmax": ("""
@ct.kernel
def gen7_intmax(x, y, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    ct.store(y, index=(ct.bid(0),), tile=ct.minimum(ct.maximum(t, 3), 100) & 0x7C)
""", ["x=i8[?]/1, y=i8[?]/1, B=#128", "x=u32[?]/1, y=u32[?]/1, B=#128"]),
    # round 7: a PaddingMode passed to a helper (default and keyword), `t.shape[axis]` of a helper's axis, `if tok !=
    # PAD` of a gathered i64 id and an i32 argument, ct.gather's padding_value a scalar argument
    "gen7_forms": ("""
@ct.function
def _row(a, r, width, pad=ct.PaddingMode.ZERO):
    return ct.load(a, index=(r, 0), shape=(1, width), padding_mode=pad)


@ct.function
def _mean(t, *, axis=1):
    return ct.sum(t, axis=axis, keepdims=True) / t.shape[axis]


@ct.kernel
def gen7_forms(x, ids, labels, y, loss, ignore: int, PAD: int, BN: ct.Constant[int]):
    r = ct.bid(0)
    t = _row(x, r, BN, pad=ct.PaddingMode.NEG_INF)
    u = _row(x, r, BN)
    tok = ct.gather(ids, r)
    if tok != PAD:
        ct.store(y, index=(r, 0), tile=u - _mean(u) + ct.max(t))
    i = r * BN + ct.arange(BN, dtype=ct.int32)
    lab = ct.gather(labels, i, padding_value=ignore)
    ct.scatter(loss, r, ct.sum(ct.where(lab != ignore, 1.0, 0.0)))
""", ["x=f32[?,?]/?,1, ids=i64[?]/1, labels=i32[?]/1, y=f32[?,?]/?,1, loss=f32[?]/1, ignore=i32, PAD=i32, "
       "BN=#128"]),
    # round 8 (inference kernels): ct.static_iter over a tuple of tuples unpacked into names, a float pow of f32 scalar expressions (ALiBi's slope of the block id), a scalar
    # parameter named `ctx` (a local of cutile's launcher), an early `return` after a store (its token yielded)
    "gen8_forms": ("""
TAPS = ((0, 1.0), (1, -0.5))


@ct.kernel
def gen8_forms(x, ids, y, t: float, ctx: int, lo_id: int, H: ct.Constant[int], BN: ct.Constant[int]):
    r = ct.bid(0)
    v = ct.load(x, index=(r, 0), shape=(1, BN))
    lo, hi = 0.25, t
    acc = v * lo + hi + 2.0 ** (-8.0 * (r % H + 1) / H)
    for k, w in ct.static_iter(TAPS):
        acc = acc + w * ct.load(x, index=(r + k, 0), shape=(1, BN), padding_mode=ct.PaddingMode.ZERO)
    acc = acc * ctx
    if ct.gather(ids, r) < lo_id:
        ct.store(y, index=(r, 0), tile=ct.zeros((1, BN), dtype=ct.float32))
        return
    ct.store(y, index=(r, 0), tile=acc)
""", ["x=f32[?,?]/?,1, ids=i32[?]/1, y=f32[?,?]/?,1, t=f32, ctx=i32, lo_id=i32, H=#8, BN=#128"]),
    # round 8: scatters into one array in an unrolled ct.static_iter loop (top-k by repeated max: each copy takes the
    # token of the one before), a tuple parameter unpacked in a helper (`x1, x2 = x`, rotary's pair)
    "gen8_unroll": ("""
@ct.function
def _rot(x, c, s):
    x1, x2 = x
    return x1 * c - x2 * s, x2 * c + x1 * s


@ct.kernel
def gen8_unroll(x, best, y, K: ct.Constant[int], BN: ct.Constant[int]):
    r = ct.bid(0)
    v = ct.load(x, index=(r, 0), shape=(1, BN))
    for k in ct.static_iter(range(K)):
        m = ct.max(v)
        ct.scatter(best, (r, k), m)
        v = ct.where(v == m, -1e30, v)
    a, b = _rot((v, v * 2.0), 0.5, 0.25)
    ct.store(y, index=(r, 0), tile=a + b)
""", ["x=f32[?,?]/?,1, best=f32[?,?]/?,1, y=f32[?,?]/?,1, K=#4, BN=#128"]),
    # round 8: scatters in a kernel whose acquiring atomic orders later memory operations (MoE permute: a slot
    # taken by ct.atomic_add, then the row stored and its source scattered there; a releasing atomic after a
    # scatter): ordered as cuTile Python's token_order pass orders them (irdiff fresh-tokens-one)
    "gen8_permute": ("""
@ct.kernel
def gen8_permute(x, ids, offsets, cursor, out, src, peak, K: ct.Constant[int], D: ct.Constant[int]):
    t = ct.bid(0)
    row = ct.load(x, index=(t, 0), shape=(1, D))
    for k in range(K):
        e = ct.gather(ids, (t, k))
        dst = ct.gather(offsets, e) + ct.atomic_add(cursor, e, 1)
        ct.store(out, index=(dst, 0), tile=row)
        ct.scatter(src, dst, t * K + k)
    ct.atomic_max(peak, 0, t)
""", ["x=bf16[?,?]/?,1, ids=i32[?,?]/?,1, offsets=i32[?]/1, cursor=i32[?]/1, out=bf16[?,?]/?,1, src=i32[?]/1, "
       "peak=i32[?]/1, K=#2, D=#256"]),
    # round 13: a result set only before a `break` in a `while` and in a `for` (irdiff loop-carried-unread);
    # ct.num_tiles(axis=-1); a helper's tuple result passed straight to another helper (rewrite
    # helper-call-argument); min/max options given by a helper parameter; len(t.shape); `+t`
    # round 14: integer powers (`u **= 3`, a closure's `u ** k` of an enclosing helper's k=2, f64 `(d - 1.0) ** 2`:
    # irdiff rule fpowi-const), a string mode picked by a constant, one extent as a shape, `return None`, an int
    # with an f64 tile (a constant: folded; a run-time one: itof)
    "gen14_forms": ("""
ACTS = ("relu", "gelu", "silu")


def _outer(t, k=2):
    def _inner(u):
        return u ** k
    return _inner(t) + _inner(t + 1.0)


def _stash(dst, idx, t):
    ct.store(dst, (idx,), t)
    return None


@ct.kernel
def gen14_forms(x, y, z, w, n: int, B: ct.Constant[int], ACT: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=i, shape=B)
    name = ACTS[ACT]
    if name in ("gelu", "silu"):
        t = t * 2.0 if name == "gelu" else t * 3.0
    u = t
    u **= 3
    acc = ct.zeros(B, ct.float32) + _outer(t) + u
    _stash(y, i, acc)
    d = ct.load(z, (i,), (B,))
    ct.store(w, (i,), d * n + ct.sum(d) / B + (d - 1.0) ** 2)
""", ["x=f32[?]/1, y=f32[?]/1, z=f64[?]/1, w=f64[?]/1, n=i32, B=#64, ACT=#1",
      "x=f32[?]/1, y=f32[?]/1, z=f64[?]/1, w=f64[?]/1, n=i32, B=#64, ACT=#2"]),
    # round 15: a loop over int64 bounds (an int64 cu_seqlens' offsets; the step its folded value), a device-side
    # factory returning a closure (rewrite function-factory)
    "gen15_forms": ("""
def make_affine(a, b=0.5):
    def affine(v):
        return (v * a + b) * v
    return affine


@ct.kernel
def gen15_forms(x, cu, out, y, D: ct.Constant[int], BT: ct.Constant[int]):
    seq = ct.bid(0)
    start = ct.gather(cu, seq)
    end = ct.gather(cu, seq + 1)
    cols = ct.arange(D, dtype=ct.int32)
    acc = ct.zeros((D,), dtype=ct.float32)
    for t0 in range(start, end, BT):
        rows = t0 + ct.arange(BT, dtype=ct.int32)
        acc = acc + ct.sum(ct.gather(x, (rows[:, None], cols[None, :]), mask=(rows < end)[:, None]), axis=0)
    f = make_affine(2.0)
    ct.store(out, index=(seq, 0), tile=ct.reshape(f(acc), (1, D)))
    ct.store(y, index=(seq,), tile=ct.full((1,), end - start, dtype=ct.int32))
""", ["x=bf16[?,?]/?,1, cu=i64[?]/1, out=f32[?,?]/?,1, y=i32[?]/1, D=#128, BT=#32",
      "x=f32[?,?]/?,1, cu=i32[?]/1, out=f32[?,?]/?,1, y=i32[?]/1, D=#64, BT=#16"]),
    # round 15: an array chosen in the memory op by a constant (`ct.store(y if TO_Y else z, ..)`: an internal error
    # before), slices passed straight to ct.load / ct.store, a slice of a slice (rewrite inline-slice)
    "gen15_views": ("""
@ct.kernel
def gen15_views(x, y, z, w, B: ct.Constant[int], TO_Y: ct.Constant[bool]):
    i = ct.bid(0)
    t = ct.load(x.slice(axis=0, start=B, stop=x.shape[0]), index=(i,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y if TO_Y else z, index=(i,), tile=t * 2.0)
    ct.store(w.slice(0, 0, 4 * B).slice(0, 0, 2 * B), index=(i,), tile=t)
""", ["x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, w=f32[?]/1, B=#128, TO_Y=#true",
      "x=f32[?]/1, y=f32[?]/1, z=f32[?]/1, w=f32[?]/1, B=#64, TO_Y=#false"]),
    # round 15: Unicode parameter and local names (`α: float`, `β = 1.0 - α`; the signature grammar refused `α=f32`)
    "gen15_unicode": ("""
@ct.kernel
def gen15_unicode(a, b, out, α: float, B: ct.Constant[int]):
    i = ct.bid(0)
    β = 1.0 - α
    ct.store(out, index=(i,), tile=β * ct.load(a, index=(i,), shape=(B,)) + α * ct.load(b, index=(i,), shape=(B,)))
""", ["a=f32[?]/1, b=f32[?]/1, out=f32[?]/1, α=f32, B=#256"]),
    # round 15: a member of a plain (string-valued) Enum compared in constant `if`s (was "unknown name 'MODE'")
    "gen15_enum": ("""
import enum


class Mode(enum.Enum):
    SLOW = "slow"
    FAST = "fast"


MODE = Mode.FAST


@ct.kernel
def gen15_enum(x, y, B: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(B,))
    if MODE == Mode.FAST and MODE.value == "fast":
        t = t * 3.0
    if MODE != Mode.FAST:
        t = t * 5.0
    ct.store(y, index=(ct.bid(0),), tile=t)
""", ["x=f32[?]/1, y=f32[?]/1, B=#128"]),
    # round 15: kernels named like a Rust keyword (`where`) or a cutile function their Rust calls (`exp`): the entry
    # is `where_` / `exp_` (rustfmt rejected `pub fn where`; `exp(..)` called the entry itself, E0277)
    "where": ("""
@ct.kernel
def where(c, x, y, out, B: ct.Constant[int]):
    i = ct.bid(0)
    m = ct.load(c, index=(i,), shape=(B,))
    ct.store(out, index=(i,), tile=ct.where(m, ct.load(x, index=(i,), shape=(B,)), ct.load(y, index=(i,), shape=(B,))))
""", ["c=bool[?]/1, x=f32[?]/1, y=f32[?]/1, out=f32[?]/1, B=#128",
      "c=bool[?]/1, x=bf16[?]/1, y=bf16[?]/1, out=bf16[?]/1, B=#128"]),
    "exp": ("""
@ct.kernel
def exp(x, y, B: ct.Constant[int]):
    ct.store(y, index=(ct.bid(0),), tile=ct.exp(ct.load(x, index=(ct.bid(0),), shape=(B,))))
""", ["x=f32[?]/1, y=f32[?]/1, B=#128"]),
    # round 15: a helper returning from inside a pure `for` (rewrite loop-return: the index, a float, a bool)
    "gen15_return": ("""
def first_over(thr, n: int):
    for k in range(n):
        if k * 2 >= thr:
            return k
    return n


def any_mult(n: int, m):
    for j in range(n):
        q = j * m
        if q == 12:
            return 1.0
    return 0.5


def is_small(n: int, lim):
    for j in range(1, n):
        if j * j > lim:
            return False
    return True


@ct.kernel
def gen15_return(x, y, B: ct.Constant[int], LIMIT: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(B,))
    k = first_over(LIMIT, 8)
    h = any_mult(i, 3)
    s = is_small(5, i)
    ct.store(y, index=(i,), tile=ct.where(s, t * h + k, t))
""", ["x=f32[?]/1, y=f32[?]/1, B=#128, LIMIT=#6", "x=f32[?]/1, y=f32[?]/1, B=#64, LIMIT=#3"]),
    "gen13_forms": ("""
def _stats(t):
    mu = ct.sum(t, axis=1, keepdims=True) / t.shape[1]
    return mu, t - mu


def _norm(pair, eps, *, nan=False):
    mu, d = pair
    r = d * ct.rsqrt(ct.sum(d * d, axis=1, keepdims=True) / d.shape[1] + eps)
    return ct.minimum(ct.maximum(r, -4.0, propagate_nan=nan), 4.0, propagate_nan=nan), mu


@ct.kernel
def gen13_forms(x, y, first, last, BN: ct.Constant[int]):
    r = ct.bid(0)
    n = ct.num_tiles(x, axis=-1, shape=(1, BN))
    found = -1
    j = 0
    while j < n:
        t = ct.load(x, (r, j), (1, BN), padding_mode=ct.PaddingMode.ZERO)
        if ct.max(t) > 10.0:
            found = j
            break
        j += 1
    ct.store(first, (r,), ct.full((1,), found, ct.int32))
    hit = -1
    for k in range(n):
        if ct.min(ct.load(x, (r, k), (1, BN), padding_mode=ct.PaddingMode.ZERO)) < 0.0:
            hit = k
            break
    ct.store(last, (r,), ct.full((1,), hit, ct.int32))
    t = +ct.load(x, (r, 0), (1, BN), padding_mode=ct.PaddingMode.ZERO)
    out, _mu = _norm(_stats(t), 1e-5, nan=True)
    if len(t.shape) == 2:
        out = out * 2.0
    ct.store(y, (r, 0), out)
""", ["x=f32[?,?]/?,1, y=f32[?,?]/?,1, first=i32[?]/1, last=i32[?]/1, BN=#64"]),
    # round 13: a full tile stored, or the ragged last one scattered under a mask, in the two arms of a runtime
    # `if` (the array's only accesses: each from its first token, nothing after waits on either)
    "gen13_tail": ("""
@ct.kernel
def gen13_tail(x, y, n, B: ct.Constant[int]):
    pid = ct.bid(0)
    if (pid + 1) * B <= n:
        ct.store(y, (pid,), ct.load(x, (pid,), (B,)) * 2.0)
    else:
        offs = pid * B + ct.arange(B, dtype=ct.int32)
        t = ct.gather(x, offs, mask=offs < n)
        ct.scatter(y, offs, t * 2.0, mask=offs < n)
""", ["x=f32[?]/1, y=f32[?]/1, n=i32, B=#128"]),
    # round 13: two arrays chosen by a constant through a conditional of tuples (`src, dst = (y, x) if SWAP else
    # (x, y)`: the arm taken, aliases like any other); a transpose summed with its source and carried by a loop
    # (BM == BN: the value reshaped to the variable's names, an identity in the IR)
    "gen13_alias": ("""
@ct.kernel
def gen13_alias(x, y, BM: ct.Constant[int], BN: ct.Constant[int], SWAP: ct.Constant[bool]):
    i = ct.bid(0)
    src, dst = (y, x) if SWAP else (x, y)
    t = ct.load(src, (i, 0), (BM, BN))
    for _ in range(3):
        t = ct.transpose(t) * 0.5 + t
    ct.store(dst, (i, 0), t)
""", ["x=f32[?,?]/?,1, y=f32[?,?]/?,1, BM=#32, BN=#32, SWAP=#true",
      "x=f32[?,?]/?,1, y=f32[?,?]/?,1, BM=#32, BN=#32, SWAP=#false"]),
    # round 13: ct.load_advanced_indexing (a gather_scatter_view load of a read-only array, rows by an index tile)
    # next to a gather and tile loads; a helper that stores and returns a value (rewrite helper-statement)
    "gen13_views": ("""
def _store_and_sum(dst, t, i):
    ct.store(dst, (i, 0), t)
    return ct.sum(t)


@ct.kernel
def gen13_views(x, w, idx, y, s, start, BM: ct.Constant[int], BN: ct.Constant[int]):
    i = ct.bid(0)
    rows = ct.load(idx, (i,), (BM,), padding_mode=ct.PaddingMode.ZERO)
    t = ct.astype(ct.load_advanced_indexing(x, (rows, ct.Slice(start, BN))), ct.float32)
    g = ct.gather(w, (rows[:, None], ct.arange(BN, dtype=ct.int32)[None, :]))
    tot = _store_and_sum(y, t * g + ct.load(w, (i, 0), (BM, BN), padding_mode=ct.PaddingMode.ZERO), i)
    ct.store(s, (i,), ct.full((1,), tot, ct.float32))
""", ["x=bf16[?,?]/?,1, w=f32[?,?]/?,1, idx=i32[?]/1, y=f32[?,?]/?,1, s=f32[?]/1, start=i32, BM=#16, BN=#32",
      "x=f32[?,?]/?,1, w=f32[?,?]/?,1, idx=i32[?]/1, y=f32[?,?]/?,1, s=f32[?]/1, start=i32, BM=#64, BN=#64"]),
    # the arms of a constant `if` storing one array inside a loop, at an index the loop computes (a Triton
    # `EVEN_N` heuristic choosing the masked or unmasked store, lowered): cuTile Python carries the array's token
    # through the loop as for one store there (it was ported without the carried token: unproven)
    "alt_loop_store": ("""
@ct.kernel
def alt_loop_store(x, y, N: int, B: ct.Constant[int], EVEN: ct.Constant[bool]):
    m = ct.bid(0)
    for start in range(0, N, B):
        t = ct.load(x, index=(m, start // B), shape=(1, B), padding_mode=ct.PaddingMode.ZERO)
        if EVEN:
            ct.store(y, index=(m, start // B), tile=t * 2.0)
        else:
            ct.store(y, index=(m, start // B), tile=t * 3.0)
""", ["x=f32[?,?]/?,1, y=f32[?,?]/?,1, N=i32, B=#32, EVEN=#true",
      "x=f32[?,?]/?,1, y=f32[?,?]/?,1, N=i32, B=#32, EVEN=#false"]),
    # calling convention 2: a sum into an f32[1] array (extent 1, the static stride 1: its view's stride dynamic,
    # the atomic's address by the static 1), and `%` of a static extent (`H = x.shape[1]`, 1): cuTile Python
    # compares that 1 with 0 unfolded; cutile 0.3.1 compiles the compare only of a constant tile
    "unit_sum": ("""
@ct.kernel
def unit_sum(x, head, out, B: ct.Constant[int]):
    H = head.shape[1]
    i = ct.bid(0)
    t = ct.load(x, index=(i // H + i % H,), shape=(B,), padding_mode=ct.PaddingMode.ZERO)
    ct.atomic_add(out, 0, ct.sum(t))
""", ["x=f32[?]/1, head=f32[?,1]/1,1, out=f32[1]/1, B=#64", "x=f32[?]/1, head=f32[?,?]/?,1, out=f32[?]/1, B=#64"]),
    # numpy scalars, typed by their dtype in cuTile Python (a Python float is weak): a module's np.float64 (an f64
    # constant of all its digits: the product f64), np.float32 on an f16 tile (the product f32), np.int32 on an
    # i16 tile, a numpy bool in a constant `if`
    "np_scalars": ("""
import numpy as np

LOG2E = np.log2(np.e)
HALF = np.float32(0.5)
ONE = np.int32(1)
ON = np.bool_(True)


@ct.kernel
def np_scalars(x, c, y, z, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (B,))
    u = (t * LOG2E).astype(ct.float16) + (t * HALF).astype(ct.float16)
    if ON:
        u = u * 2.0
    ct.store(y, (ct.bid(0),), u)
    ct.store(z, (ct.bid(0),), (ct.load(c, (ct.bid(0),), (B,)) + ONE).astype(ct.int16))
""", ["x=f16[?]/1, c=i16[?]/1, y=f16[?]/1, z=i16[?]/1, B=#128"]),
    # a numpy scalar a factory's kernel closes over (captured as {"numpy": "float32", "value": 0.5})
    "np_factory": ("""
import numpy as np


def make_scale(s):
    @ct.kernel
    def np_factory(x, y, B: ct.Constant[int]):
        t = ct.load(x, (ct.bid(0),), (B,))
        ct.store(y, (ct.bid(0),), (t * s).astype(x.dtype))
    return np_factory


half_kernel = make_scale(np.float32(0.5))
""", ["x=f16[?]/1, y=f16[?]/1, B=#128", "x=f32[?]/1, y=f32[?]/1, B=#128"]),
    # values converted to the array's dtype as cuTile Python's implicit cast converts them: i32 tiles into an i64
    # histogram by ct.atomic_add and ct.atomic_cas, an i32 tile scattered into i64 (exti), f16 into f32 (ftof)
    "widened_updates": ("""
@ct.kernel
def widened_updates(idx, counts, old, v, acc, B: ct.Constant[int]):
    i = ct.load(idx, (ct.bid(0),), (B,))
    ct.atomic_add(counts, i, ct.full((B,), 1, dtype=ct.int32))
    seen = ct.atomic_cas(counts, i, ct.full((B,), 0, dtype=ct.int32), ct.full((B,), 7, dtype=ct.int32))
    ct.scatter(old, ct.arange(B, dtype=ct.int32) + ct.bid(0) * B, i)
    ct.atomic_add(acc, i, ct.load(v, (ct.bid(0),), (B,)))
    ct.store(old, (ct.bid(0),), seen)
""", ["idx=i32[?]/1, counts=i64[?]/1, old=i64[?]/1, v=f16[?]/1, acc=f32[?]/1, B=#64"]),
    # round 25's fixes (tests/fixtures/cutile_round25.py: a computed / runtime gather padding, a boolean `&`
    # converted, an atomic after gathers of its array, an unsigned tile `%` a constant, an acquiring atomic on an
    # array read as tiles, a scatter into an array then read as a tile)
    **{name: (text, [sig]) for name, (text, sig) in ROUND25.items()},
    # round 26's fixes (tests/fixtures/cutile_round26.py: tuple names of constants, extents and joined tuples, a
    # tuple comprehension's `if`, dtype constructors, constant bool arithmetic, an `if` on a stride known at launch)
    **{name: (text, [sig]) for name, (text, sig) in ROUND26.items()},
    # a runtime `if` with results whose arm reads an array written after it (a token re-assigned in the arm): cuTile
    # Python yields the variables, then the token; the value is a `let mut` and the token renamed for the `if`
    # (inside a loop cutile yields the loop's carried tokens first), at top level with two results too
    "if_token_order": ("""
@ct.kernel
def if_token_order(x, s, n: int, K: ct.Constant[int], B: ct.Constant[int]):
    for j in range(K):
        if n - K + j >= 0:
            v = ct.load(x, (n - K + j,), (B,))
        else:
            v = ct.load(s, (j + 1,), (B,))
        ct.store(s, (j,), v)
    if n > 3:
        w = ct.load(s, (1,), (B,)) * 2.0
        a = w + 1.0
    else:
        w = ct.load(x, (0,), (B,))
        a = ct.load(s, (2,), (B,))
    ct.store(s, (0,), w + a)
""", ["x=f32[?]/1, s=f32[?]/1, n=i32, K=#3, B=#16"]),
    # ct.argmax / ct.argmin of i64 (an identity tileirdisasm prints without its type) and bf16 tiles: irdiff rule
    # argmax-two-reductions (the example real_argmax has f32, f16 and u32; f64 stays unproven: cuda.tile 1.7 writes
    # its reductions' identity with the sign lost, docs/corpus.md limits)
    "argmax_wide": ("""
@ct.kernel
def argmax_wide(x, xb, y, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0), 0), (B, B))
    b = ct.load(xb, (ct.bid(0), 0), (B, B))
    ct.store(y, (ct.bid(0),), ct.argmin(t, 1) + ct.argmin(b, axis=-1))
""", ["x=i64[?,?]/?,1, xb=bf16[?,?]/?,1, y=i32[?]/1, B=#16"]),
    # ct.reduce / ct.scan whose combine is a built-in op at its identity: the built-in reduction's Tile IR (a lambda
    # sum, ct.maximum at -inf, operator.mul at 1 with keepdims, an int max at the i32 minimum by a function defined in
    # the kernel, a scan along axis 0 by a module's function)
    "combines": ("""
import operator


def _plus(a, b):
    return a + b


@ct.kernel
def combines(x, xi, y, yk, yi, ys, B: ct.Constant[int]):
    def imax(a, b):
        return ct.maximum(a, b)

    t = ct.load(x, (ct.bid(0), 0), (B, B))
    s = ct.reduce(t, 1, lambda a, b: a + b, 0.0) + ct.reduce(t, 1, ct.maximum, float("-inf"))
    ct.store(y, (ct.bid(0),), s)
    ct.store(yk, (ct.bid(0), 0), ct.reduce(t, 1, operator.mul, 1.0, keepdims=True))
    ti = ct.load(xi, (ct.bid(0), 0), (B, B))
    ct.store(yi, (ct.bid(0),), ct.reduce(ti, 1, imax, -2147483648))
    ct.store(ys, (ct.bid(0), 0), ct.scan(t, 0, _plus, 0.0))
""", ["x=f32[?,?]/?,1, xi=i32[?,?]/?,1, y=f32[?]/1, yk=f32[?,?]/?,1, yi=i32[?]/1, ys=f32[?,?]/?,1, B=#16"]),
}


#: examples ported at signatures of their own (not their DEMO_SIGNATURE): out dir → (example, signatures)
OWN_SIGNATURES = {
    "vector_add_2": ("vector_add", ["f32[?]/1, f32[?]/1, f32[?]/1, #1024", "f32[?]/1, f32[?]/1, f32[?]/1, #64"]),
    "leaky_relu_2": ("leaky_relu", [f"x=f32[?]/1, y=f32[?]/1, SLOPE=#{s}, B=#1024" for s in (0.01, 0.2)]),
}


@pytest.fixture(scope="module")
def batch(both_batches):
    """The small kernels and the examples at OWN_SIGNATURES (both_batches); out dir by name."""
    return both_batches / "small"


@pytest.mark.parametrize("name", SMALL_KERNELS)
def test_small_kernels_are_proven(name, batch):
    verdict = json.loads((batch / name / "verdict.json").read_text())
    assert verdict["status"] == "proven", json.dumps(verdict["stages"])[:3000]


def test_translator_bug_fails_that_port_only(tmp_path, monkeypatch):
    """An internal error of the translator (a bug) fails the port it happens in, said so in its verdict, instead
    of stopping a corpus run: the other kernels go on."""
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.pipeline import port as pipeline
    from tileport.spec.signature import bind, parse
    from tileport.toolchain.locate import find_cuda_tree

    def broken(out, tree):
        raise KeyError("Att_Out")
    monkeypatch.setattr(pipeline, "translate", broken)
    monkeypatch.delenv("TILEPORT_TRACEBACK", raising=False)
    ref = f"{KERNELS_DIR / 'vector_add.py'}::vector_add"
    sig = bind(parse(demo_sig("vector_add")), load_kernel(ref).param_names, "vector_add")
    verdict = pipeline._analyze_translate(ref, [sig], [], find_cuda_tree(), tmp_path / "p", lambda s: None)
    assert verdict["status"] == "failed"
    assert verdict["stages"]["translate"]["error"].startswith("internal error: KeyError: 'Att_Out' at ")


def test_two_kernels_of_one_factory_function_are_refused_by_name(tmp_path):
    """A factory's kernels share their function's name but not what they close over: referred to by that name,
    which one is meant is ambiguous, and the loader says so (a single one is found: SMALL_KERNELS factory_k)."""
    from tileport.frontends.cutile_py.loader import KernelLoadError, load_kernel

    src = tmp_path / "factory2.py"
    src.write_text("import cuda.tile as ct\n\n\ndef make(kind):\n    @ct.kernel\n    def k(x, B: ct.Constant[int]):\n"
                   "        ct.store(x, (ct.bid(0),), ct.full((B,), kind * 1.0, ct.float32))\n    return k\n\n\n"
                   "a = make(1)\nb = make(2)\n")
    with pytest.raises(KernelLoadError, match="2 kernels of function 'k' \\(a, b\\)"):
        load_kernel(f"{src}::k")
