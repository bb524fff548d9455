"""The CLI teaches: --help has examples and the SIG grammar; errors are one line without a traceback."""
import argparse
import re

import pytest

from tileport.cli import build_parser
from tileport.spec.signature import DTYPES

from conftest import run_tileport


def _subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(path, parser) of every subcommand, at any depth, as the parser itself lists them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield path + (name,), sub
                yield from _subcommands(sub, path + (name,))


SUBCOMMANDS = [path for path, _ in _subcommands(build_parser())]


@pytest.mark.parametrize("args, needles", [
    ((), ["tileport doctor", "tileport compile", "toolchain pack/unpack", "examples:"]),
    (("doctor",), ["CUDA_HOME", "--profile", "examples:"]),
    (("compile",), ["signature syntax", "f32[?,?]/?,1", "#1024", "example:"]),
    (("toolchain", "pack"), ["x86 BCJ", "--python", "examples:"]),
    (("toolchain", "unpack"), ["env.sh"]),
    (("irdiff",), ["port.json", "--layout-b", "examples:"]),
    (("port",), ["--hint", "occupancy", "plain_stores", "examples:"]),
] + [(path, []) for path in SUBCOMMANDS], ids=lambda v: " ".join(v) if isinstance(v, tuple) else None)
def test_help_teaches(args, needles):
    """Every subcommand (found by walking the parser, so a new one is covered) has a description and an example."""
    r = run_tileport(*args, "--help")
    assert r.returncode == 0, r.stderr
    usage, _, rest = r.stdout.partition("\n\n")
    description = rest.split("\n\n")[0].strip()
    assert usage.startswith("usage:") and description and not description.startswith(("positional", "options")), \
        r.stdout
    assert re.search(r"^examples?:\n  \S", r.stdout, re.M), f"{' '.join(args)} --help has no example"
    text = " ".join(r.stdout.split())
    for n in needles:
        assert n in text, n


def test_sig_help_documents_every_token_capture_prints():
    """`?%N`, `&N`, `!alias`, `@i64`, a rank-0 array and every dtype: all that capture prints, in --sig's help."""
    for command in ("compile", "analyze", "port"):
        text = run_tileport(command, "--help").stdout
        for token in ("f32[?%16]", "?%N", "&16", "&N", "!alias", "@i64", "f32[]", "rank-0", "#1024", "/?%4,1"):
            assert token in text, (command, token)
        dtypes = next(line for line in text.splitlines() if line.startswith("dtypes:")).split()[1:]
        assert dtypes == list(DTYPES), command


def test_unpack_missing_file_is_a_clean_error(tmp_path):
    r = run_tileport("toolchain", "unpack", str(tmp_path / "nope.tar.xz"), str(tmp_path / "d"))
    assert r.returncode == 2
    assert r.stderr.startswith("tileport: error:") and "no such file" in r.stderr and "Traceback" not in r.stderr


def test_demo_writes_ir_and_cubin(tmp_path):
    r = run_tileport("demo", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "entry @vector_add_" in r.stdout
    assert len(list(tmp_path.glob("*.sm_90.cubin"))) == 1


def test_capture_prints_a_line_per_kernel_past_a_screenful():
    """`tileport capture` of a test suite (thousands of launches) prints one line per kernel, not every launch."""
    from tileport.cli import CAPTURE_LINES, capture_lines

    launch = {"kernel": "/p/k.py::k@12", "grid": [4, 1, 1], "count": 2, "signature": "x=f32[?]/1"}
    assert capture_lines([launch]) == ["k@12  grid=(4, 1, 1)  x2\n    x=f32[?]/1"]
    many = [dict(launch, grid=[i, 1, 1]) for i in range(CAPTURE_LINES)] + [dict(launch, kernel="/p/k.py::t[B=None]")]
    lines = capture_lines(many)
    assert lines[:2] == [f"k@12       {CAPTURE_LINES} distinct launch(es), {2 * CAPTURE_LINES} launch(es)",
                         "t[B=None]  1 distinct launch(es), 2 launch(es)"] and "capture file" in lines[-1]
