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
                                                    "ratio": 0.9}, {"kernel": "_c", "ratio": None}]}]
    (tmp_path / "one.json").write_text(json.dumps({"files": rows[:1]}))
    (tmp_path / "two.json").write_text(json.dumps({"files": rows[1:]}))
    r = run(tmp_path / "one.json", tmp_path / "two.json", "--out", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    s = json.loads((tmp_path / "out" / "perf.json").read_text())
    assert s["kernels"]["_a"]["geomean"] == round((1.0 * 0.9) ** 0.5, 4) and len(s["kernels"]["_a"]["launches"]) == 2
    assert s["above_1_05"] == {"_b": 1.21} and not s["criterion"]["met"] and "_c" not in s["kernels"]
    assert "| `_b` | 1 | 1.210 **>1.05** |" in (tmp_path / "out" / "perf.md").read_text()


def test_bad_input_is_one_line(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    for arg in (tmp_path / "missing.json", tmp_path / "bad.json"):
        r = run(arg, "--out", tmp_path / "out")
        assert r.returncode == 1 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    (tmp_path / "empty.json").write_text(json.dumps({"files": []}))
    r = run(tmp_path / "empty.json", "--out", tmp_path / "out")
    assert r.returncode == 1 and "no timed launches" in r.stderr
