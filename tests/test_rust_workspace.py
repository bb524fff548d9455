"""The Rust workspace is formatted (rustfmt) and locked; generated Rust will be held to the same rule."""
import shutil
import subprocess

import pytest

from conftest import REPO


@pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo not installed")
def test_rustfmt_clean():
    r = subprocess.run(["cargo", "fmt", "--all", "--check"], cwd=REPO / "rust", capture_output=True, text=True)
    assert r.returncode == 0, "run `cargo fmt` in rust/:\n" + r.stdout[-3000:]
