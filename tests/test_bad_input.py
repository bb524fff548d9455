"""No traceback on any bad input: every command, fed each class of bad input, exits 2 (bad input) or 1 (a stage
ran and failed) with one clear line on stderr.

One table: each row is (id, argv, expected exit code, a needle of the message). ``{t}`` in argv is the test's
directory, where the ``bad_files`` fixture planted every malformed file; ``{k}`` a real kernel, ``{sig}`` its
signature. A host script that raises under ``capture`` is the one case with a traceback — the script's own,
framed as such, with none of tileport's frames in it.
"""
from __future__ import annotations

import json
import os
import random
import sys
import tarfile

import pytest

from tileport.examples import EXAMPLES_DIR
from tileport.kernels import KERNELS_DIR

from conftest import REPO, run_tileport

K = f"{KERNELS_DIR / 'vector_add.py'}::vector_add"
SIG = "f32[?]/1, f32[?]/1, f32[?]/1, #1024"
TRITON_K = f"{KERNELS_DIR / 'triton' / 'softmax.py'}::triton_softmax"
TILEIR_MAGIC = b"\x7fTileIR\x00"


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory):
    t = tmp_path_factory.mktemp("bad")
    rng = random.Random(22)
    (t / "garbage.bin").write_bytes(bytes([0xFF, 0xFE]) + bytes(rng.randrange(256) for _ in range(400)))
    (t / "magic.tileirbc").write_bytes(TILEIR_MAGIC + bytes(rng.randrange(256) for _ in range(200)))
    (t / "empty.txt").write_text("")
    (t / "text.txt").write_text("hello, this is not Tile IR\n")
    (t / "dir").mkdir()
    (t / "file").write_text("a regular file\n")
    (t / "garbage.tar.xz").write_bytes((t / "garbage.bin").read_bytes())
    with tarfile.open(t / "noindex.tar.xz", "w:xz") as tar:   # a packed folder without a capture's index.json
        tar.add(t / "file", arcname="caps/file")
    (t / "ok.py").write_text("print('a host program')\n")
    (t / "notjson.json").write_text("{\n  'launches': [\n")
    (t / "latin1.json").write_bytes(b'{"x": "\xe9"}')
    (t / "object.json").write_text('{"x": 1}\n')
    (t / "list.json").write_text("[1, 2]\n")
    (t / "capture_v2.json").write_text('{"format": 2, "launches": []}\n')
    (t / "capture_nolaunch.json").write_text(json.dumps({"format": 1, "launches": [{"kernel": "k.py::k"}]}))
    (t / "capture_empty.json").write_text('{"format": 1, "launches": []}\n')
    (t / "hints_bad_name.json").write_text(json.dumps({"format": 1, "kernels": {"k.py::k": {"hints": {"speed": 3}}}}))
    (t / "hints_launch_option.json").write_text(json.dumps({"format": 1, "kernels": {"k.py::k": {"launches": [
        {"when": {"B": 64}, "hints": {"plain_loads": 1}}]}}}))
    (t / "hints_bad_key.json").write_text(json.dumps({"format": 1, "kernels": {"k": {"hints": {"occupancy": 2}}}}))
    (t / "sigs_v2.json").write_text('{"format": 2, "signatures": ["f32"]}\n')
    (t / "sigs_ints.json").write_text('{"signatures": [1, 2]}\n')
    (t / "sigs_empty.json").write_text("[]\n")
    (t / "raiser.py").write_text("def deep(n):\n    raise ValueError(f'bad size {n}')\n\n\ndeep(3)\n")
    (t / "exiter.py").write_text("import sys\nsys.exit(3)\n")
    (t / "syntax.py").write_text("def f(:\n    pass\n")
    (t / "not_a_kernel.py").write_text("x = 1\n")
    (t / "factory.py").write_text("import cuda.tile as ct\n\n\ndef make(f):\n    @ct.kernel\n"
                                  "    def k(x, B: ct.Constant[int]):\n"
                                  "        ct.store(x, (ct.bid(0),), ct.full((B,), f, ct.float32))\n    return k\n")
    for name, closure in (("tuple", {"f": {"tuple": 3}}), ("enum", {"f": {"enum": "Act", "member": "GELU"}})):
        # a capture whose recorded closure value is malformed, or names an enum member the module lacks
        (t / f"capture_closure_{name}.json").write_text(json.dumps({"format": 1, "launches": [
            {"kernel": f"{t / 'factory.py'}::k@6", "source": str(t / "factory.py"), "grid": [1, 1, 1],
             "signature": "x=f32[?]/1, B=#16", "args": [], "count": 1, "closure": closure}]}))
    (t / "blocked").mkdir()                # an --out whose variants/ is a file: found mid-work (exit 1)
    (t / "blocked" / "variants").write_text("in the way\n")
    spec_only = t / "spec_only"            # a port directory whose spec.json is not a spec
    spec_only.mkdir()
    (spec_only / "spec.json").write_text('{"format": 1}\n')
    for name in ("kernel.rs", "port.json"):
        (spec_only / name).write_text("{}\n")
    return t


def rows():
    """(id, argv, exit code, needle)."""
    out = "--out", "{t}/out_ok"
    kernel_in = ("analyze", "{k}", "--sig", "{sig}")
    return [
        # --capture: missing, a directory, not JSON, not UTF-8, wrong schema, unknown format version, no launch
        ("capture-missing", [*kernel_in, "--capture", "{t}/nope.json", *out], 2,
         "--capture {t}/nope.json: no such file"),
        ("capture-dir", [*kernel_in, "--capture", "{t}/dir", *out], 2, "is a directory"),
        ("capture-not-json", [*kernel_in, "--capture", "{t}/notjson.json", *out], 2, "not JSON (line 2"),
        ("capture-not-utf8", [*kernel_in, "--capture", "{t}/latin1.json", *out], 2, "not a text file"),
        ("capture-binary", [*kernel_in, "--capture", "{t}/garbage.bin", *out], 2, "not a text file"),
        ("capture-schema-object", [*kernel_in, "--capture", "{t}/object.json", *out], 2,
         "not a valid tileport capture file"),
        ("capture-schema-list", [*kernel_in, "--capture", "{t}/list.json", *out], 2, "is not of type 'object'"),
        ("capture-schema-launch", [*kernel_in, "--capture", "{t}/capture_nolaunch.json", *out], 2,
         "at /launches/0"),
        ("capture-format-2", [*kernel_in, "--capture", "{t}/capture_v2.json", *out], 2, "format version 2"),
        ("capture-no-launch", ["analyze", "{k}", "--capture", "{t}/capture_empty.json", *out], 2,
         "has no launch of vector_add"),
        ("port-capture-format-2", ["port", "{k}", "--capture", "{t}/capture_v2.json", *out], 2, "format version 2"),
        ("port-triton-capture-schema", ["port", TRITON_K, "--capture", "{t}/object.json", *out], 2,
         "not a valid tileport capture file"),
        # --sigs: missing, not JSON, wrong schema, unknown format version
        ("sigs-missing", [*kernel_in, "--sigs", "{t}/nope.json", *out], 2, "--sigs {t}/nope.json: no such file"),
        ("sigs-not-json", [*kernel_in, "--sigs", "{t}/notjson.json", *out], 2, "not JSON"),
        ("sigs-schema", [*kernel_in, "--sigs", "{t}/object.json", *out], 2, "expected a list of signature strings"),
        ("sigs-schema-items", [*kernel_in, "--sigs", "{t}/sigs_ints.json", *out], 2, "at /signatures/0"),
        ("sigs-empty", [*kernel_in, "--sigs", "{t}/sigs_empty.json", *out], 2, "should be non-empty"),
        ("sigs-format-2", [*kernel_in, "--sigs", "{t}/sigs_v2.json", *out], 2, "format version 2"),
        # malformed signatures and kernel references
        ("sig-garbage", ["analyze", "{k}", "--sig", "f32[", *out], 2, "cannot parse parameter"),
        ("sig-arity", ["compile", "{k}", "--sig", "f32[?]/1", *out], 2, "takes 4 parameters"),
        ("sig-dtype", ["compile", "{k}", "--sig", "q7[?], f32[?], f32[?], #1", *out], 2, "unknown dtype 'q7'"),
        ("kernel-no-file", ["compile", "{t}/nope.py::k", "--sig", "f32", *out], 2, "no such file"),
        ("kernel-not-python", ["compile", "{t}/garbage.bin::k", "--sig", "f32", *out], 2, "not a Python module"),
        ("kernel-no-ref", ["compile", str(KERNELS_DIR / "vector_add.py"), "--sig", "f32", *out], 2,
         "expected FILE.py::KERNEL"),
        ("kernel-unknown", ["port", f"{KERNELS_DIR / 'vector_add.py'}::nope", "--sig", "f32", *out], 2,
         "'nope' is not defined"),
        ("kernel-none", ["compile", "{t}/not_a_kernel.py::x", "--sig", "f32", *out], 2, "not_a_kernel.py"),
        # a Triton kernel where a cuTile kernel is expected, without its captured launches, or not in the file
        ("triton-analyze", ["analyze", TRITON_K, "--capture", "{t}/capture_empty.json", *out], 2,
         "is a @triton.jit kernel: `tileport port"),
        ("triton-compile", ["compile", TRITON_K, "--sig", "f32", *out], 2, "`tileport compile` takes cuTile"),
        ("triton-no-capture", ["port", TRITON_K, *out], 2, "give --capture FILE"),
        ("triton-unknown", ["port", TRITON_K.replace("triton_softmax", "nope"), "--capture", "{t}/capture_empty.json",
                            *out], 2, "no kernel 'nope'; the @triton.jit kernels in this file: triton_softmax"),
        # --out: a file, under a file, not creatable
        ("out-is-file-analyze", [*kernel_in, "--out", "{t}/file"], 2, "--out {t}/file: is a file"),
        ("out-is-file-compile", ["compile", "{k}", "--sig", "{sig}", "--out", "{t}/file"], 2, "is a file"),
        ("out-is-file-port", ["port", "{k}", "--sig", "{sig}", "--out", "{t}/file"], 2, "is a file"),
        ("out-is-file-demo", ["demo", "--out", "{t}/file"], 2, "is a file"),
        ("out-under-file", [*kernel_in, "--out", "{t}/file/sub"], 2, "{t}/file is a file, not a directory"),
        ("out-unwritable-proc", [*kernel_in, "--out", "/proc/tileport-bad-input"], 2, "cannot create the directory"),
        ("out-blocked-inside", [*kernel_in, "--out", "{t}/blocked"], 1, "{t}/blocked/variants/"),
        ("capture-out-is-dir", ["capture", "--out", "{t}/dir", "--", "python", "{t}/raiser.py"], 2,
         "is a directory, expected a file name"),
        ("capture-out-under-file", ["capture", "--out", "{t}/file/x.json", "--", "python", "{t}/raiser.py"], 2,
         "is a file, not a directory"),
        ("ops-pack-under-file", ["ops", "pack", "{t}/file/x.so.xz"], 2, "is a file, not a directory"),
        ("toolchain-pack-under-file", ["toolchain", "pack", "{t}/file/tc.tar.xz", "--no-cuda-tile-wheel",
                                       "--no-probe"], 2, "is a file, not a directory"),
        ("toolchain-pack-no-wheel", ["toolchain", "pack", "{t}/tc.tar.xz", "--wheel", "{t}/nope.whl"], 2,
         "--wheel {t}/nope.whl: no such file"),
        ("toolchain-unpack-garbage", ["toolchain", "unpack", "{t}/garbage.bin", "{t}/tc"], 2,
         "not a readable tileport bundle"),
        ("toolchain-unpack-dir", ["toolchain", "unpack", "{t}/dir", "{t}/tc"], 2, "is a directory"),
        # irdiff on files that are not Tile IR
        ("irdiff-elf", ["irdiff", "/bin/ls", "/bin/ls"], 2, "/bin/ls: an ELF binary, not Tile IR"),
        ("irdiff-garbage", ["irdiff", "{t}/garbage.bin", "{t}/garbage.bin"], 2, "binary data, not Tile IR"),
        ("irdiff-bad-bytecode", ["irdiff", "{t}/magic.tileirbc", "{t}/magic.tileirbc"], 2,
         "tileirdisasm cannot read it"),
        ("irdiff-dir", ["irdiff", "{t}/dir", "{t}/dir"], 2, "is a directory"),
        ("irdiff-empty", ["irdiff", "{t}/empty.txt", "{t}/empty.txt"], 2, "empty file"),
        ("irdiff-text", ["irdiff", "{t}/text.txt", "{t}/text.txt"], 2, "no 'entry' found"),
        ("irdiff-missing", ["irdiff", "{t}/nope.txt", "{t}/nope.txt"], 2, "no such file"),
        ("irdiff-unit-grid", ["irdiff", "{t}/empty.txt", "{t}/empty.txt", "--unit-grid-b", "1,x"], 2,
         "--unit-grid-b '1,x': expected grid dimensions 0, 1 or 2"),
        ("irdiff-unit-grid-3", ["irdiff", "{t}/empty.txt", "{t}/empty.txt", "--unit-grid-b", "3"], 2,
         "expected grid dimensions"),
        ("irdiff-layout", ["irdiff", "{t}/empty.txt", "{t}/empty.txt", "--layout-b", "A1,Q"], 2,
         "--layout-b 'A1,Q': bad layout item 'Q'"),
        ("irdiff-layout-a", ["irdiff", "{t}/empty.txt", "{t}/empty.txt", "--layout-a", "A"], 2, "bad layout item"),
        # translate / verify on directories without their inputs
        ("translate-missing-dir", ["translate", "{t}/nope"], 2, "no such directory"),
        ("translate-file", ["translate", "{t}/file"], 2, "is a file, expected a directory"),
        ("translate-empty-dir", ["translate", "{t}/dir"], 2, "spec.json is missing"),
        ("translate-bad-spec", ["translate", "{t}/spec_only"], 2, "spec.json: not a valid tileport kernel spec"),
        ("verify-missing-dir", ["verify", "{t}/nope"], 2, "no such directory"),
        ("verify-empty-dir", ["verify", "{t}/dir"], 2, "spec.json, port.json, kernel.rs are missing"),
        ("verify-bad-spec", ["verify", "{t}/spec_only"], 2, "not a valid tileport kernel spec"),
        # --hint: unknown names (listing the valid ones), malformed values, on a cuTile kernel
        ("hint-unknown", ["port", TRITON_K, "--capture", "{t}/capture_empty.json", "--hint", "speed=3", *out], 2,
         "unknown hint 'speed'; valid hints: occupancy, num_ctas, num_worker_warps, ieee_div, plain_stores, "
         "plain_loads, load_latency"),
        ("hint-latency-range", ["port", TRITON_K, "--capture", "{t}/capture_empty.json", "--hint", "load_latency=11",
                                *out], 2, "load_latency=11: cuTile's load latency hint is an integer from 1 to 10"),
        ("hint-value", ["port", TRITON_K, "--hint", "occupancy=x", *out], 2, "expected NAME=INT"),
        ("hint-no-value", ["port", TRITON_K, "--hint", "occupancy", *out], 2, "expected NAME=INT"),
        ("hint-cutile", ["port", "{k}", "--sig", "{sig}", "--hint", "occupancy=2", *out], 2,
         "--hint applies to Triton kernels only"),
        # capture: no script, not a script, a script that exits non-zero or does not parse
        ("capture-no-script", ["capture", "--out", "{t}/c.json"], 2, "expected `tileport capture"),
        ("capture-missing-script", ["capture", "--out", "{t}/c.json", "--", "python", "{t}/nope.py"], 2,
         "no such file"),
        ("capture-script-exits", ["capture", "--out", "{t}/c.json", "--", "python", "{t}/exiter.py"], 1,
         "exiter.py exited with 3"),
        ("capture-script-syntax", ["capture", "--out", "{t}/c.json", "--", "python", "{t}/syntax.py"], 1,
         "syntax.py raised SyntaxError"),
        # ops
        ("ops-unknown", ["ops", "build", "--ops", "vector_add,nope"], 2, "unknown op(s) nope; the ops: vector_add"),
        ("ops-unpack-missing", ["ops", "unpack", "{t}/nope.xz", "{t}/lib"], 2, "SRC {t}/nope.xz: no such file"),
        ("ops-unpack-garbage", ["ops", "unpack", "{t}/garbage.bin", "{t}/lib"], 2, "not a packed library"),
        ("ops-from-missing", ["ops", "build", "--from", "{t}/nope", "--into", "{t}/lib"], 2, "{t}/nope: not a folder"),
        ("ops-from-alone", ["ops", "build", "--from", "{t}/dir"], 2, "--from PORTS and --into LIB go together"),
        ("ops-from-no-ports", ["ops", "build", "--from", "{t}/dir", "--into", "{t}/lib"], 2, "no proven cuTile port"),
        ("ops-from-into-file", ["ops", "build", "--from", "{t}/dir", "--into", "{t}/file/lib"], 2,
         "is a file, not a directory"),
        ("ops-pack-not-served", ["ops", "pack", "{t}/p.tar.xz", "--library", "{t}/dir"], 2,
         "libtileport_served.so, libtileport_native.so, ports.json missing"),
        # run (the launch backend)
        ("run-no-script", ["run", "--library", "{t}/dir", "--", "python", "{t}/nope.py"], 2, "{t}/nope.py: no such"),
        ("run-no-command", ["run", "--library", "{t}/dir"], 2, "expected `tileport run"),
        ("run-not-a-library", ["run", "--library", "{t}/dir", "--", "python", "{t}/ok.py"], 2,
         "not a served library"),
        # corpus capture: no corpus, an --out that is a file (refused before any test runs), a malformed target
        ("corpus-missing-dir", ["corpus", "capture", "{t}/nope", "--out", "{t}/cout"], 2, "no such directory"),
        ("corpus-out-is-file", ["corpus", "capture", "{t}/dir", "--out", "{t}/file"], 2, "--out {t}/file: is a file"),
        ("corpus-bad-target", ["corpus", "capture", "{t}/dir", "--tests", ".", "--out", "{t}/cout", "--target", "zz"],
         2, "--target 'zz'"),
        ("corpus-negative-memory", ["corpus", "capture", "{t}/dir", "--out", "{t}/cout", "--max-memory-gb", "-1"],
         2, "--max-memory-gb must be 0 (no limit) or more"),
        ("corpus-missing-script", ["corpus", "capture", "{t}/dir", "--out", "{t}/cout", "--script", "nope.py"], 2,
         "--script nope.py: no such file or directory under"),
        ("corpus-port-second-captures-missing", ["corpus", "port", "{t}/dir", "{t}/nope", "--corpus", "{t}/dir",
                                                 "--out", "{t}/pout"], 2, "{t}/nope: no such directory"),
        # --hints: no file, not JSON, not a hints file, an entry not FILE::KERNEL, a name that is no hint
        ("corpus-port-hints-missing", ["corpus", "port", "{t}/dir", "--corpus", "{t}/dir", "--out", "{t}/pout",
                                       "--hints", "{t}/nope.json"], 2, "--hints {t}/nope.json: no such file"),
        ("corpus-port-hints-not-json", ["corpus", "port", "{t}/dir", "--corpus", "{t}/dir", "--out", "{t}/pout",
                                        "--hints", "{t}/notjson.json"], 2, "notjson.json: not JSON (line 2"),
        ("corpus-port-hints-not-hints", ["corpus", "port", "{t}/dir", "--corpus", "{t}/dir", "--out", "{t}/pout",
                                         "--hints", "{t}/object.json"], 2, "not a valid tileport per-kernel hints file"),
        ("corpus-port-hints-bad-key", ["corpus", "port", "{t}/dir", "--corpus", "{t}/dir", "--out", "{t}/pout",
                                       "--hints", "{t}/hints_bad_key.json"], 2, "at /kernels: 'k' does not match"),
        ("corpus-port-hints-bad-name", ["corpus", "port", "{t}/dir", "--corpus", "{t}/dir", "--out", "{t}/pout",
                                        "--hints", "{t}/hints_bad_name.json"], 2,
         "k.py::k: unknown hint 'speed'; valid hints: occupancy,"),
        # a per-launch entry setting a lowering option (those are per kernel: one lowered source for all launches)
        ("corpus-port-hints-launch-option", ["corpus", "port", "{t}/dir", "--corpus", "{t}/dir", "--out", "{t}/pout",
                                             "--hints", "{t}/hints_launch_option.json"], 2,
         "'plain_loads' was unexpected"),
        # a capture folder packed as .tar.xz: not an archive, or one without a capture's index.json
        ("corpus-port-garbage-archive", ["corpus", "port", "{t}/garbage.tar.xz", "--corpus", "{t}/dir", "--out",
                                         "{t}/pout"], 2, "garbage.tar.xz: not a capture archive"),
        ("corpus-port-archive-no-index", ["corpus", "port", "{t}/noindex.tar.xz", "--corpus", "{t}/dir", "--out",
                                          "{t}/pout"], 2, "noindex.tar.xz: no index.json in it"),
        ("corpus-on-gpu-without-one", ["corpus", "capture", "{t}/dir", "--tests", ".", "--out", "{t}/cout", "--on-gpu"],
         2, "--on-gpu needs a CUDA GPU here"),
        ("corpus-each-on-gpu", ["corpus", "capture", "{t}/dir", "--tests", ".", "--out", "{t}/cout", "--on-gpu",
                                "--autotune", "each"], 2, "--autotune each replays emulated searches"),
        ("corpus-no-tests-folder", ["corpus", "capture", "{t}/dir", "--out", "{t}/cout"], 2,
         "no tests/ folder (what --tests means when not given): give --tests PATH"),
        # a kernel reference NAME@LINE (a factory's kernel, by its def line) whose line is not a number
        ("port-bad-line-ref", ["port", "{k}@x", "--sig", "{sig}", *out], 2, "expected KERNEL or KERNEL@LINE"),
        # a factory's kernel named without its def line, or with it but with no capture of the values it closes over
        ("port-factory-by-name", ["port", "{t}/factory.py::k", "--sig", "x=f32[?]/1, B=#16", *out], 2,
         "'k' is defined inside a function (a factory) at line 6: name it k@LINE"),
        ("port-factory-no-closure", ["port", "{t}/factory.py::k@6", "--sig", "x=f32[?]/1, B=#16", *out], 2,
         "the kernel closes over f (a factory's values); port it from a capture"),
        ("port-factory-bad-closure", ["port", "{t}/factory.py::k@6", "--capture", "{t}/capture_closure_tuple.json",
                                      *out], 2, "the kernel closes over 'f', a {'tuple': 3} the capture could not "
                                                "record"),
        ("port-factory-closure-enum", ["port", "{t}/factory.py::k@6", "--capture", "{t}/capture_closure_enum.json",
                                       *out], 2, "the kernel closes over 'f', Act.GELU, which is not found here"),
        # --arch
        ("arch-compile", ["compile", "{k}", "--sig", "{sig}", "--arch", "garbage", *out], 2,
         "--arch 'garbage': expected a GPU architecture"),
        ("arch-port", ["port", "{k}", "--sig", "{sig}", "--arch", "90", *out], 2, "--arch '90'"),
        ("arch-demo", ["demo", "--arch", "sm90", *out], 2, "--arch 'sm90'"),
        # the command line itself
        ("no-command", [], 2, "the following arguments are required: COMMAND"),
        ("unknown-command", ["frobnicate"], 2, "invalid choice: 'frobnicate'"),
        ("unknown-option", ["irdiff", "a", "b", "--bogus"], 2, "unrecognized arguments: --bogus"),
        ("missing-argument", ["compile", "{k}"], 2, "the following arguments are required: --sig, --out"),
        ("bad-choice", ["doctor", "--profile", "nope"], 2, "invalid choice: 'nope'"),
    ]


def _fill(argv: list[str], t) -> list[str]:
    return [a.replace("{t}", str(t)).replace("{k}", K).replace("{sig}", SIG) for a in argv]


ROWS = rows()


def test_rows_cover_every_command():
    """Each subcommand (but bench, which needs a GPU, and doctor, which takes no input but its flags) has rows."""
    from tileport.cli import build_parser

    import argparse
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    covered = {argv[0] for _, argv, _, _ in ROWS if argv}
    assert set(sub.choices) - covered <= {"bench"}, set(sub.choices) - covered


@pytest.mark.parametrize("row_id, argv, code, needle", ROWS, ids=[r[0] for r in ROWS])
def test_bad_input_is_one_clear_line(row_id, argv, code, needle, bad_files):
    r = run_tileport(*_fill(argv, bad_files))
    text = r.stdout + r.stderr
    assert "Traceback" not in text, text
    assert "internal error" not in r.stderr, r.stderr
    assert r.returncode == code, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("tileport")), None)
    assert at is not None and _fill([needle], bad_files)[0] in lines[at], r.stderr   # the one line that says why
    assert not any("rror" in line for line in lines[:at]), r.stderr      # before it, progress only
    rest = lines[at + 1:]
    if rest:  # only a failing host script adds to the line: its own error, framed as the script's
        assert rest[0].startswith("---- traceback of") and rest[-1].startswith("---- end of"), r.stderr


def test_unwritable_out_directory(bad_files, tmp_path):
    """A directory without write permission (chmod 500); root writes anyway, so the case is skipped as root."""
    if os.geteuid() == 0:
        pytest.skip("runs as root: a chmod 500 directory stays writable (/proc stands in, in the table)")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        r = run_tileport("analyze", K, "--sig", SIG, "--out", str(locked / "sub"))
        assert r.returncode == 2 and "Traceback" not in r.stderr and "cannot create the directory" in r.stderr
        r = run_tileport("analyze", K, "--sig", SIG, "--out", str(locked))
        assert r.returncode == 2 and "cannot write there" in r.stderr
    finally:
        locked.chmod(0o700)


def test_a_raising_host_script_shows_its_own_traceback(bad_files):
    """The script's traceback, framed as the script's; none of tileport's frames (CLI, capture, runpy)."""
    r = run_tileport("capture", "--out", str(bad_files / "c.json"), "--", "python", str(bad_files / "raiser.py"))
    assert r.returncode == 1, r.stderr
    first, *rest = r.stderr.splitlines()
    assert first.startswith("tileport: capture failed:") and "raiser.py raised ValueError: bad size 3" in first
    assert "nothing written" in first and not (bad_files / "c.json").exists()
    framed = "\n".join(rest)
    assert rest[0].startswith("---- traceback of") and rest[-1].startswith("---- end of")
    assert "Traceback (most recent call last)" in framed and "in deep" in framed and "ValueError: bad size 3" in framed
    assert framed.count('File "') == 2, framed               # the script's two frames, nothing else
    for ours in ("tileport/cli.py", "capture.py", "runpy", "__main__.py", "site-packages"):
        assert ours not in r.stderr, ours


def test_internal_errors_are_one_line_unless_asked(bad_files, monkeypatch):
    """A bug of tileport's (here: a forced one) is one line naming where; TILEPORT_TRACEBACK=1 shows it whole."""
    code = ("import sys, tileport.cli as c\n"
            "def boom(args): raise RuntimeError('forced')\n"
            "c.cmd_doctor = boom\n"
            "sys.exit(c.main(['doctor']))\n")
    import subprocess

    env = dict(os.environ)
    env.pop("TILEPORT_TRACEBACK", None)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("tileport: internal error: RuntimeError: forced") and "TILEPORT_TRACEBACK=1" in r.stderr
    env["TILEPORT_TRACEBACK"] = "1"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO)
    assert r.returncode == 1 and "Traceback" in r.stderr and "RuntimeError: forced" in r.stderr


@pytest.mark.parametrize("host", [EXAMPLES_DIR / "host.py", EXAMPLES_DIR / "triton" / "host.py"],
                         ids=["cutile", "triton"])
def test_what_capture_writes_matches_its_schema(host, tmp_path):
    """The schema --capture is checked against accepts every capture tileport writes (both frontends)."""
    from tileport.spec.validate import check_document, format_version

    out = tmp_path / "launches.json"
    r = run_tileport("capture", "--out", str(out), "--", "python", str(host))
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["launches"] and data["format"] == format_version("capture")
    check_document(data, "capture", str(out))


def test_sigs_file_forms(tmp_path):
    """--sigs takes a bare list or {"format": 1, "signatures": [...]}; the schema says which format it reads."""
    from tileport.spec.validate import SpecInvalid, check_document, format_version

    assert format_version("sigs") == 1
    check_document([SIG], "sigs", "x")
    check_document({"format": 1, "signatures": [SIG]}, "sigs", "x")
    check_document({"signatures": [SIG]}, "sigs", "x")
    for bad in ({"format": 1}, {"signatures": [SIG], "extra": 1}, [""], "f32"):
        with pytest.raises(SpecInvalid):
            check_document(bad, "sigs", "x")


def test_launch_timing_counts_from_the_environment_are_checked(monkeypatch):
    """The launch plugin's TILEPORT_LAUNCH_TIMING_PER_KERNEL / _ROUNDS: a positive whole number, else one line
    (pytest's usage error), never a ValueError traceback."""
    from tileport.pytest_launch import env_count

    monkeypatch.delenv("TILEPORT_LAUNCH_TIMING_ROUNDS", raising=False)
    assert env_count("TILEPORT_LAUNCH_TIMING_ROUNDS", 5) == 5
    monkeypatch.setenv("TILEPORT_LAUNCH_TIMING_ROUNDS", "7")
    assert env_count("TILEPORT_LAUNCH_TIMING_ROUNDS", 5) == 7
    for bad in ("seven", "0", "-2", "1.5", ""):
        monkeypatch.setenv("TILEPORT_LAUNCH_TIMING_ROUNDS", bad)
        with pytest.raises(pytest.UsageError, match="TILEPORT_LAUNCH_TIMING_ROUNDS=.*positive whole number"):
            env_count("TILEPORT_LAUNCH_TIMING_ROUNDS", 5)


def test_the_sparse_mla_probe_refuses_a_case_it_does_not_have(tmp_path):
    """A GPU probe's bad argument is one line and exit 2, before it needs torch or a GPU."""
    import subprocess

    for cases in ("9", "a,b"):
        r = subprocess.run([sys.executable, str(REPO / "benchmarks/probes/sparse_mla_paths.py"), str(tmp_path),
                            str(tmp_path / "o.json"), "--cases", cases], capture_output=True, text=True)
        assert r.returncode == 2 and "Traceback" not in r.stderr and "--cases" in r.stderr.strip().splitlines()[-1]
