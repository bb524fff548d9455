"""The op library's tables, checked on a CPU without torch: modules import, signatures parse and bind to their
kernels, dtypes are torch dtype names, the registry matches the proven examples, every signature ports."""
from __future__ import annotations

import inspect
import statistics
import subprocess
import sys
import shutil
import types

import pytest

from tileport.kernels import SERVED, kernel_path
from tileport.kernels.triton import OPS as TRITON_OPS
from tileport.frontends.cutile_py.loader import load_kernel
from tileport.ops import _common as C
from tileport.ops.registry import NAMES, OPS, op_names, wrapper
from tileport.runtime import build
from tileport.spec import signature as sigmod

#: The floating and integer dtypes torch names this way (torch.<name>).
TORCH_DTYPES = {"float32", "float16", "bfloat16", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"}
SURFACE = ("DTYPES", "PORT_SIGNATURES", "reference", "sample_inputs", "tolerance", "bytes_moved", "flops")


def _kernel(name):
    return load_kernel(f"{kernel_path(name)}::{name}")


def _kernels_in(path, decorator: str) -> set[str]:
    """Names of the module-level functions of ``path`` decorated with ``decorator`` (read from the source)."""
    import ast

    return {n.name for n in ast.parse(path.read_text()).body if isinstance(n, ast.FunctionDef)
            and any(decorator in ast.unparse(d) for d in n.decorator_list)}


def test_registry_is_the_served_kernels():
    """The registry serves every kernel of tileport.kernels and every Triton kernel of tileport.kernels.triton; which
    those are is read from the directories (each module holds a kernel named after it), not counted by hand. The
    examples' kernels are proven, not served."""
    from tileport.examples import ALSO_PROVEN, EXAMPLES_DIR, NOT_PROVEN
    from tileport.kernels import KERNELS_DIR
    from tileport.kernels.triton import KERNELS

    assert op_names() == list(NAMES) == list(SERVED) + list(TRITON_OPS)
    assert set(OPS) == set(SERVED) | set(TRITON_OPS) and SERVED and TRITON_OPS
    served = {p.stem for p in KERNELS_DIR.glob("*.py") if p.stem in _kernels_in(p, "ct.kernel")}
    examples = {p.stem for p in EXAMPLES_DIR.glob("*.py") if p.stem in _kernels_in(p, "ct.kernel")}
    assert served == set(SERVED) and examples == set(ALSO_PROVEN) | set(NOT_PROVEN)
    triton = {p.stem: _kernels_in(p, "triton.jit") for p in (KERNELS_DIR / "triton").glob("*.py")}
    assert {m: {k} for m, k in KERNELS.items()} == {m: ks for m, ks in triton.items() if ks}
    assert set(TRITON_OPS) == set(KERNELS.values())
    with pytest.raises(KeyError, match="no op 'nope'"):
        OPS["nope"]


def test_op_modules_import_without_torch():
    """Each op module (and the registry) imports with torch made unimportable."""
    code = ("import sys; sys.modules['torch'] = None\n"
            "from tileport.ops.registry import OPS\n"
            "for name, mod in OPS.items():\n"
            "    assert callable(getattr(mod, name)), name\n"
            "assert 'torch' not in {m.split('.')[0] for m, v in sys.modules.items() if v is not None}\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("name", NAMES)
def test_op_surface(name):
    mod = OPS[name]
    assert isinstance(mod, types.ModuleType)
    for attr in SURFACE:
        assert hasattr(mod, attr), f"{name} lacks {attr}"
    fn = wrapper(name)
    params = fn.__code__.co_varnames[:fn.__code__.co_argcount + fn.__code__.co_kwonlyargcount]
    assert {"backend", "out"} <= set(params[fn.__code__.co_argcount:]), f"{name}: backend/out must be keyword-only"
    assert mod.DTYPES and set(mod.DTYPES) <= TORCH_DTYPES, mod.DTYPES
    for dtype in mod.DTYPES:
        rtol, atol = mod.tolerance(dtype)
        assert 0 <= rtol < 0.1 and 0 <= atol < 0.1
    with pytest.raises(ValueError):
        mod.tolerance("float64")


@pytest.mark.parametrize("name", NAMES)
def test_port_signatures_bind_to_the_kernel(name):
    mod, kernel = OPS[name], _kernel(name)
    sigs = mod.PORT_SIGNATURES
    assert sigs and len(sigs) == len(set(sigs)), f"{name}: empty or repeated signatures"
    # the row kernels need the most: 3 dtypes x 5 row widths (ROW_BLOCKS); others stay within 9
    assert len(sigs) <= 15, f"{name}: {len(sigs)} specializations; keep the set small"
    dtypes_seen = set()
    for text in sigs:
        sig = sigmod.bind(sigmod.parse(text), kernel.param_names, name)
        arrays = [p for _, p in sig.params if isinstance(p, sigmod.ArraySig)]
        assert arrays, text
        for p in arrays:
            assert p.strides is not None and p.strides[-1] == 1, f"{text}: the wrappers pass unit-stride last dims"
            assert all(d is None for d in p.shape), f"{text}: the wrappers pass dynamic shapes"
        dtypes_seen |= {p.dtype for p in arrays}
    declared = {C.SHORT[d] for d in mod.DTYPES}
    aux = {C.SHORT[d] for d in getattr(mod, "AUX_DTYPES", ())}   # fixed-dtype side inputs (tables, partials)
    assert declared <= dtypes_seen <= declared | {"i32"} | aux, \
        f"{name}: signatures' dtypes differ from DTYPES (+ i32 ids, + AUX_DTYPES)"


def test_tile_policy_helpers():
    assert [C.cdiv(a, 4) for a in (0, 1, 4, 5)] == [0, 1, 1, 2]
    assert [C.next_pow2(n) for n in (1, 2, 3, 1000, 1024, 1025)] == [1, 2, 4, 1024, 1024, 2048]
    assert [C.row_block(n) for n in (0, 1, 1000, 1024, 1025, 5000, 8192, 8193, 16384)] == [1024] * 4 + [
        2048, 8192, 8192, 16384, 16384]
    with pytest.raises(ValueError, match="16385.*16384"):
        C.row_block(16385)
    assert C.signatures("x={dtype}[?]/1, T=#{t}", dtype=("float16", "int32"), t=(1, 2)) == [
        "x=f16[?]/1, T=#1", "x=f16[?]/1, T=#2", "x=i32[?]/1, T=#1", "x=i32[?]/1, T=#2"]
    with pytest.raises(ValueError, match="unknown case"):
        C.shape(C.ROW_SHAPES, "huge")
    assert C.shape(C.ROW_SHAPES, "16384x8192") == (16384, 8192) == C.shape(C.FLAT_SHAPES, "16384x8192")
    assert C.token_case("1x2048") == (1, 2048) and C.token_case("0x8") is None and C.token_case("mid") is None
    with pytest.raises(ValueError, match="row-shaped"):
        C.shape(C.GEMM_SHAPES, "128x4096")
    assert sorted(C.LLM_CASES) == sorted(f"{t}x{h}" for t in C.LLM_TOKENS for h in C.LLM_HIDDEN)
    assert all(C.token_case(c) for c in C.LLM_CASES) and len(set(C.LLM_CASES)) == len(C.LLM_CASES)
    from tileport.bench.runner import parse_args

    assert parse_args(["--cases", "llm,mid"]).cases == list(C.LLM_CASES) + ["mid"]


def test_constant_choices_match_signatures():
    """Wrapper-side choice tables and the signatures built from them agree."""
    from tileport.ops import bias_act, expert_offsets, leaky_relu, silu_and_mul

    assert [s.split("SLOPE=#")[1].split(",")[0] for s in leaky_relu.PORT_SIGNATURES] == [repr(s) for s in
                                                                                        leaky_relu.SLOPES]
    assert all(d % silu_and_mul.BN == 0 for d in silu_and_mul.SUPPORTED_D)
    assert sorted(bias_act.ACTS.values()) == [0, 1, 2]
    assert len(expert_offsets.PORT_SIGNATURES) == len(expert_offsets.BLOCKS)
    with pytest.raises(ValueError, match="slope=0.3"):
        leaky_relu.leaky_relu(None, 0.3)


@pytest.fixture(scope="module")
def translated_ops(tmp_path_factory):
    """Every op of the library analyzed and translated again at the signatures ports.json records (no build, no IR
    diff: that proof is test_every_op_is_proven_again, run with -m slow): name → (its verdict so far, its folder)."""
    import json

    committed = json.loads(build.manifest_path().read_text())["ops"]
    names = sorted(committed)
    return build.translate_ops(names, {n: committed[n]["signatures"] for n in names},
                               tmp_path_factory.mktemp("translated-ops"))


def test_committed_ports_are_what_the_translator_writes_now(translated_ops):
    """rust/tileport-ops/src/ports/*.rs and what ports.json records of each port (entries, ABI, variants, unsafe
    sites, source hash) are what the translator writes now, byte for byte; `tileport ops build --port` writes them
    (and proves each: its IR diff is in the slow run, test_every_op_is_proven_again)."""
    import json

    committed = json.loads(build.manifest_path().read_text())["ops"]
    stale = []
    for name, (verdict, out) in sorted(translated_ops.items()):
        if verdict.get("status") is not None:   # (a stage failed)
            stale.append(f"{name}: {verdict['status']}: {build.verdict_reason(verdict)}")
            continue
        now, op = build.recorded(json.loads((out / "port.json").read_text())), committed[name]
        if any(op.get(k) != v for k, v in now.items()) or \
                (out / "kernel.rs").read_text() != (build.crate_dir() / "src" / "ports" / f"{name}.rs").read_text():
            stale.append(name)
    assert not stale, f"stale ports (run `tileport ops build --port`): {stale}"


def test_port_signatures_are_the_proven_ones():
    """Every specialization a wrapper can launch is among the ports ports.json records as proven (the library can
    be generated for all of them)."""
    import json

    ops = json.loads(build.manifest_path().read_text())["ops"]
    failures = []
    for name in NAMES:
        op = ops.get(name)
        if op is None:
            failures.append(f"{name}: not in the library: run `tileport ops build --port`")
        elif op["status"] != "proven":
            failures.append(f"{name}: {op['status']}: {op.get('why', '')}")
        elif op["signatures"] != list(OPS[name].PORT_SIGNATURES):
            failures.append(f"{name}: PORT_SIGNATURES are not the ported ones: run `tileport ops build --port`")
    assert not failures, "\n".join(failures)


@pytest.mark.slow
def test_every_op_is_proven_again(tmp_path):
    """Every op ported again at its signatures (one port_many, one cargo build, every variant's IR diff) into a copy
    of the library's crate: ports.json and the ports come out as committed, every op proven."""
    import json

    crate = tmp_path / "crate"
    shutil.copytree(build.crate_dir() / "src", crate / "src")
    shutil.copy(build.manifest_path(), crate / "ports.json")
    committed = json.loads(build.manifest_path().read_text())["ops"]
    names = sorted(committed)
    manifest = build.port_ops(names, {n: committed[n]["signatures"] for n in names}, crate=crate)
    assert (crate / "ports.json").read_text() == build.manifest_path().read_text(), \
        "rust/tileport-ops/ports.json is stale: run `tileport ops build --port`"
    for name in sorted(manifest["ops"]):
        rel = f"src/ports/{name}.rs"
        assert (crate / rel).read_text() == (build.crate_dir() / rel).read_text(), \
            f"rust/tileport-ops/{rel} is stale: run `tileport ops build --port`"
    assert all(op["status"] == "proven" for op in manifest["ops"].values())


def test_torch_schemas_match_the_wrappers():
    """torch.ops.tileport.<op> takes the same positional parameters, with the same defaults, as the wrapper."""
    from tileport.ops.torch_library import SCHEMAS, schema_params, wrapper_params

    assert set(SCHEMAS) == set(NAMES)
    for name in NAMES:
        mine = schema_params(name)
        theirs = wrapper_params(name)
        assert [n for n, _ in mine] == [n for n, _ in theirs], name
        for (n, text), (_, default) in zip(mine, theirs):
            if text is None:
                assert default is inspect.Parameter.empty, f"{name}.{n}: the wrapper has a default, the schema not"
            else:
                assert eval(text.replace("None", "None")) == default, f"{name}.{n}: {text} vs {default!r}"


def test_ops_summary_is_generated_from_the_committed_results():
    """docs/ops-summary.md is what scripts/ops_summary.py writes from ports.json, the GPU logs and bench JSONs."""
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, str(repo / "scripts" / "ops_summary.py"), "--check"], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr


def test_bench_table_rows_show_both_ratios():
    """The bench table carries rs/py, rs/eager and rs/triton (and says when the eager baseline failed)."""
    from tileport.bench.runner import table_rows

    record = {"backends": ["cutile", "cutile-rs"], "results": [
        {"op": "relu", "dtype": "float32", "case": "large", "shape": "8x8", "flops": 0, "ratio": 1.01,
         "eager_ratio": 0.5, "backends": {"cutile": {"median_us": 2.0, "GBps": 10.0, "pct_of_ceiling": 50.0},
                                          "cutile-rs": {"median_us": 2.02, "GBps": 9.9, "pct_of_ceiling": 49.5}}},
        {"op": "swiglu", "dtype": "float16", "case": "large", "shape": "8x8", "flops": 0, "ratio": None,
         "torch_eager": {"error": "boom"}, "backends": {}},
        {"op": "triton_softmax", "dtype": "float16", "case": "large", "shape": "8x8", "flops": 0, "ratio": 1.0,
         "triton_ratio": 0.9, "backends": {}}]}
    record["results"][0].update(fastest_torch={"path": "compile", "median_us": 1.9}, fastest_torch_ratio=1.063)
    record["results"][1]["torch_paths"] = {"eager": {"error": "boom"}, "compile": {"error": "no inductor"}}
    rows = table_rows(record)
    assert rows[0][-5:] == ["1.010", "0.500", "1.063 (compile)", "-", ""]
    assert "torch eager: boom; torch compile: no inductor" in rows[1][-1]
    assert rows[2][-2] == "0.900"


def test_bench_compares_each_size_with_the_fastest_torch_path():
    """Issue 20, criterion 5: every op is timed against each PyTorch path a user would pick (eager, torch.compile,
    cuBLAS for the products, the op's own such as fused_moe's torch._grouped_mm); the fastest that ran is the
    comparison, and each size slower than it by more than PARITY is listed on its own (no geomean)."""
    from tileport.bench import runner
    from tileport.ops.registry import NAMES

    compiled, resets = [], []
    fake = types.SimpleNamespace(compile=lambda fn, dynamic: compiled.append(fn) or fn,
                                 _dynamo=types.SimpleNamespace(reset=lambda: resets.append(1)))
    for name in NAMES:
        paths = runner.torch_paths(fake, name)
        assert ("cublas" in paths) == (name in runner.TORCH_BASELINES), name
        assert ("eager" in paths) == (name not in runner.TORCH_BASELINES and hasattr(OPS[name], "torch_eager")), name
        # compiled wherever there is an eager path, but where the module says torch.compile is no fair path (the
        # gated delta rule's step loops: dynamo unrolls T steps, minutes of compile a case)
        assert ("compile" in paths) == ("eager" in paths and getattr(OPS[name], "TORCH_COMPILE", True) is True), name
        assert set(runner.torch_paths(fake, name, "eager")) <= {"cublas", "eager"}
        assert runner.torch_paths(fake, name, "none") == {}
    assert {n for n in NAMES if getattr(OPS[n], "TORCH_COMPILE", True) is not True} == {
        "gated_delta_recurrent", "gated_delta_chunked"}
    assert set(runner.torch_paths(fake, "fused_moe")) == {"eager", "compile", "grouped_mm"}
    # each case compiles afresh (dynamo's per-function recompile limit would silently fall back to eager)
    assert len(resets) == len(compiled) > 0
    assert runner.fastest_torch({"eager": {"median_us": 9.0}, "compile": {"median_us": 4.0},
                                 "grouped_mm": {"error": "x"}}, 5.0) == {
        "fastest_torch": {"path": "compile", "median_us": 4.0}, "fastest_torch_ratio": 1.25}
    assert runner.fastest_torch({"eager": {"error": "x"}}, 5.0)["fastest_torch"] is None
    rows = [{"op": "flash_decode", "dtype": "float16", "case": c, "backends": {}, "fastest_torch": {"path": "eager"},
             "fastest_torch_ratio": r} for c, r in (("mid", 1.16), ("large", 0.9))]
    assert runner.summarize(rows)["slower_than_torch"] == [
        {"op": "flash_decode", "dtype": "float16", "case": "mid", "ratio": 1.16, "path": "eager"}]


def test_ops_summary_lists_each_size_against_the_fastest_torch_path():
    """docs/ops-summary.md's criterion-5 table: one row per measured size, the slowest first, flagged over 1.05."""
    import runpy

    from conftest import REPO

    table = runpy.run_path(str(REPO / "scripts" / "ops_summary.py"))["fastest_torch_table"]
    row = {"op": "flash_decode", "dtype": "float16", "shape": "8x32x128", "backends": {"cutile-rs": {"median_us": 11.6}}}
    bench = {"flash_decode": [row | {"case": "mid", "fastest_torch": {"path": "eager", "median_us": 10.0},
                                     "fastest_torch_ratio": 1.16},
                              row | {"case": "large", "fastest_torch": {"path": "compile", "median_us": 20.0},
                                     "fastest_torch_ratio": 0.58}]}
    lines = [x for x in table(bench) if x.startswith("| flash_decode")]
    assert lines == ["| flash_decode | float16 | mid | 8x32x128 | 11.6 | eager | 10.0 | 1.16 (over 1.05) |",
                     "| flash_decode | float16 | large | 8x32x128 | 11.6 | compile | 20.0 | 0.58 |"]
    assert "No committed bench run" in table({})[2]


def test_fused_moe_grouped_mm_path_computes_the_op():
    """fused_moe's torch._grouped_mm pipeline (a bench comparison) gives the op's result (torch's CPU path)."""
    torch = pytest.importorskip("torch", reason="torch computes the PyTorch path; not installed here")
    moe = OPS["fused_moe"]
    for dtype in moe.DTYPES:
        args, kwargs = moe.sample_inputs("ragged", dtype, "cpu")
        got = moe.torch_grouped_mm(*args, **kwargs).to(torch.float64)
        assert torch.allclose(got, moe.reference(*args, **kwargs), *moe.tolerance(dtype))


class _FakeCuda:
    """Just enough of torch.cuda for the bench's timing loops on a CPU: events read a clock that each call advances
    by its contender's cost, so the medians are known."""

    def __init__(self):
        self.now = 0.0

    def synchronize(self):
        pass

    def _sleep(self, cycles):
        pass

    def Event(self, enable_timing=True):   # noqa: N802 (torch's name)
        cuda = self

        class Ev:
            def record(self):
                self.t = cuda.now

            def elapsed_time(self, end):
                return (end.t - self.t) * 1e3   # ms, as torch gives them; the clock counts seconds

        return Ev()


def test_bench_interleaves_contenders_in_rounds():
    """time_rounds times each contender once per round, the order reversed every other round (drift falls on all
    alike), warms up only in the first round (plus two calls after), and drops a contender that fails."""
    from tileport.bench import runner

    torch = types.SimpleNamespace(cuda=_FakeCuda())
    seen: list[str] = []

    def contender(name, cost):
        def call(_i):
            seen.append(name)
            torch.cuda.now += cost
        return call

    def broken(_i):
        seen.append("broken")
        raise RuntimeError("boom")

    calls = {"a": contender("a", 1e-6), "b": contender("b", 3e-6), "broken": broken}
    out = runner.time_rounds(torch, calls, copies=2, reps=8, warmup=5, rounds=4)
    assert out["broken"] == {"error": "RuntimeError: boom"} and seen.count("broken") == 1
    assert [len(out[n]["times"]) for n in "ab"] == [8, 8]   # ceil(8 / 4) per round
    assert abs(statistics.median(out["a"]["times"]) - 1.0) < 1e-6 and \
        abs(statistics.median(out["b"]["times"]) - 3.0) < 1e-6   # µs
    runs = [n for i, n in enumerate(seen) if i == 0 or seen[i - 1] != n]   # turns; a round's last = next's first
    assert runs == ["a", "b", "broken", "b", "a", "b", "a"]   # a b broken | (broken) b a | a b | b a
    assert seen[:7] == ["a"] * 7 and seen[7:14] == ["b"] * 7   # round 1: 5 warm-up + 2 timed calls each
    assert seen.count("a") == 5 + 2 + 3 * (2 + 2)   # later rounds: 2 warm-up + 2 timed calls each


def test_bench_bounds_each_rounds_calls_by_wall_time(monkeypatch):
    """A contender whose calls take long (a PyTorch step loop of 0.5 s a call) is timed on as many calls a round as
    fit ROUND_BUDGET_S, at least MIN_REPS, instead of every rep (the H100 bench of 2026-12-07 spent its whole
    480 s step in one such case); a fast one keeps every rep."""
    from tileport.bench import runner

    torch = types.SimpleNamespace(cuda=_FakeCuda())
    monkeypatch.setattr(runner.time, "perf_counter", lambda: torch.cuda.now)   # (the fake clock: seconds)

    def contender(cost):
        def call(_i):
            torch.cuda.now += cost
        return call

    out = runner.time_rounds(torch, {"fast": contender(1e-5), "slow": contender(0.5), "slower": contender(5.0)},
                             copies=1, reps=100, warmup=5, rounds=4)
    assert len(out["fast"]["times"]) == 100
    assert len(out["slow"]["times"]) == 4 * int(runner.ROUND_BUDGET_S / 0.5)
    assert len(out["slower"]["times"]) == 4 * runner.MIN_REPS
