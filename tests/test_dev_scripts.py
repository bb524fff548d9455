"""The developer scripts that re-check earlier ports (scripts/retranslate.py, scripts/recompare.py): a folder that
holds no port is one line on stderr and exit 2, never a traceback."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("script, says", [("retranslate.py", "no port folder"), ("recompare.py", "no stored variant")])
@pytest.mark.parametrize("where", ["empty", "missing"])
def test_no_ports_is_one_line_and_exit_2(tmp_path, script, says, where):
    root = tmp_path / "ports"
    if where == "empty":
        root.mkdir()
        (root / "notes.txt").write_text("not a port\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / script), str(root)], capture_output=True,
                          text=True, env=env, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr + proc.stdout
