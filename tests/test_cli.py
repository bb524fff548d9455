"""The CLI teaches: --help has examples and the SIG grammar; errors are one line without a traceback."""
import pytest

from conftest import run_tileport


@pytest.mark.parametrize("args, needles", [
    ((), ["tileport doctor", "tileport compile", "toolchain pack/unpack", "examples:"]),
    (("doctor",), ["CUDA_HOME", "--profile", "examples:"]),
    (("compile",), ["signature syntax", "f32[?,?]/?,1", "#1024", "example:"]),
    (("toolchain", "pack"), ["x86 BCJ", "--python", "examples:"]),
    (("toolchain", "unpack"), ["env.sh"]),
])
def test_help_teaches(args, needles):
    r = run_tileport(*args, "--help")
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    for n in needles:
        assert n in text, n


def test_unpack_missing_file_is_a_clean_error(tmp_path):
    r = run_tileport("toolchain", "unpack", str(tmp_path / "nope.tar.xz"), str(tmp_path / "d"))
    assert r.returncode == 2
    assert r.stderr.startswith("tileport: error:") and "no such file" in r.stderr and "Traceback" not in r.stderr


def test_demo_writes_ir_and_cubin(tmp_path):
    r = run_tileport("demo", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "entry @vector_add_" in r.stdout
    assert len(list(tmp_path.glob("*.sm_90.cubin"))) == 1
