"""benchmarks/corpus/tilegym_perf_report.py: issue 20 criterion 2's numbers from `tilegym_rust.py tests --timing`."""
from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO

SCRIPT = REPO / "benchmarks" / "corpus" / "tilegym_perf_report.py"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"})


def test_per_kernel_geomeans_pool_runs_and_flag_the_slow(tmp_path):
    rows = [{"file": "test_a.py", "kernel_times": [{"kernel": "_a", "grid": [1], "plain_us": 2.0, "rust_us": 2.0,
                                                    "ratio": 1.0}, {"kernel": "_b", "grid": [1], "plain_us": 1.0,
                                                                    "rust_us": 1.21, "ratio": 1.21}]},
            {"file": "test_b.py", "kernel_times": [{"kernel": "_a", "grid": [2], "plain_us": 4.0, "rust_us": 3.6,
                                                    "ratio": 0.9}, {"kernel": "_c", "ratio": None},
                                                   {"kernel": "_d", "grid": [1], "error": "RuntimeError: no graph"},
                                                   {"kernel": "_e", "grid": [1], "plain_us": 9.0, "rust_us": 9.0,
                                                    "ratio": 1.0, "method": "stream"}]}]
    (tmp_path / "one.json").write_text(json.dumps({"files": rows[:1]}))
    (tmp_path / "two.json").write_text(json.dumps({"files": rows[1:]}))
    r = run(tmp_path / "one.json", tmp_path / "two.json", "--out", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    s = json.loads((tmp_path / "out" / "perf.json").read_text())
    assert s["kernels"]["_a"]["geomean"] == round((1.0 * 0.9) ** 0.5, 4) and len(s["kernels"]["_a"]["launches"]) == 2
    assert s["above_1_05"] == {"_b": 1.21} and not s["criterion"]["met"] and "_c" not in s["kernels"]
    md = (tmp_path / "out" / "perf.md").read_text()
    assert "| `_b` | 1 | 1.210 **>1.05** |" in md and "| `_e` | 1 | 1.000 (1 on the stream) |" in md
    assert s["not_timed"] == {"_d": "RuntimeError: no graph"} and "Not timed: `_d` (RuntimeError: no graph)." in md


def test_bad_input_is_one_line(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    for arg in (tmp_path / "missing.json", tmp_path / "bad.json"):
        r = run(arg, "--out", tmp_path / "out")
        assert r.returncode == 1 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    (tmp_path / "empty.json").write_text(json.dumps({"files": []}))
    r = run(tmp_path / "empty.json", "--out", tmp_path / "out")
    assert r.returncode == 1 and "no timed launches" in r.stderr


def test_a_shard_cut_short_counts_the_tests_its_verbose_lines_report():
    """tilegym_rust.py: a pytest process the timeout kills writes no junit file; the tests that ended before are
    counted from their `pytest -v` lines (three of test_bmm.py's eight shards of 16 autotuned cases ran past 450 s
    and reported nothing, H100 run 18)."""
    from conftest import load_module

    tr = load_module(REPO / "benchmarks" / "corpus" / "tilegym_rust.py", "tilegym_rust_for_test")
    text = ("tests/ops/test_bmm.py::test_op[a-cutile] PASSED      [  6%]\n"
            "tests/ops/test_bmm.py::test_op[b-cutile] SKIPPED (CuTile non-persistent kernel ...) [ 12%]\n"
            "tests/ops/test_bmm.py::test_op[c-cutile] FAILED      [ 18%]\n"
            "tests/ops/test_bmm.py::test_op[d-cutile] PASSED      [ 25%]\n"
            "some other output PASSED\n")
    got = tr._progress(text)
    assert (got["passed"], got["skipped"], got["failed"], got["errors"]) == (2, 1, 1, 0)
    assert got["failures"][0]["test"] == "tests/ops/test_bmm.py::test_op[c-cutile]"
