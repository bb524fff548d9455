"""Port directories: names derived from kernel symbols stay within file-name limits, and one process writes a
port directory (or builds the library) at a time, saying whom it waits for."""
import json
import os
import subprocess
import sys
import time

import pytest

from tileport.frontends.cutile_py.analyze import analyze
from tileport.frontends.cutile_py.loader import load_kernel
from tileport.locks import OUT_LOCK, LockBusy, hold
from tileport.paths import NAME_LIMIT, bounded_name
from tileport.spec.signature import bind, parse

from conftest import REPO

#: arrays of the wide kernel: cuda-tile mangles each into its symbol (369 characters at 30)
WIDE = 30


def write_wide_kernel(tmp_path):
    """A kernel with WIDE array parameters (the sum of WIDE - 1 of them stored into the last); (ref, signature)."""
    names = [f"a{i}" for i in range(WIDE - 1)]
    loads = "".join(f"    t = t + ct.load({n}, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)\n"
                    for n in names[1:])
    src = tmp_path / "wide.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\n"
                   f"def wide({', '.join(names)}, out, B: ct.Constant[int]):\n"
                   "    t = ct.load(a0, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)\n"
                   f"{loads}    ct.store(out, index=(ct.bid(0),), tile=t)\n")
    return f"{src}::wide", ", ".join(f"{n}=f32[?]/1" for n in names + ["out"]) + ", B=#128"


def test_bounded_name_keeps_short_names_and_shortens_long_ones():
    short = "vector_add_Kt1_A1f32_1t1_A1f32_1t1_A1f32_1t1_I1024"
    assert bounded_name(short) == short
    assert bounded_name("x" * NAME_LIMIT) == "x" * NAME_LIMIT
    long_a, long_b = "k_" + "A1f32_1t1_" * 40 + "I1", "k_" + "A1f32_1t1_" * 40 + "I2"
    a, b = bounded_name(long_a), bounded_name(long_b)
    assert len(a) == len(b) == NAME_LIMIT and a != b and a.startswith("k_A1f32_1t1_")
    assert bounded_name(long_a) == a  # deterministic


def test_a_kernel_with_30_arrays_is_analyzed(tree, tmp_path):
    """cuda-tile's symbol for 30 arrays is longer than a file name may be (it crashed analyze with `OSError: File
    name too long`); the variant directory is named by a bounded form of it, spec.json keeps the symbol."""
    ref, sig = write_wide_kernel(tmp_path)
    kernel = load_kernel(ref)
    spec = analyze(kernel, [bind(parse(sig), kernel.param_names, kernel.name)], [], tree, tmp_path / "a")
    (v,) = spec["variants"]
    assert len(v["symbol"]) > 255
    vdir = (tmp_path / "a" / v["ir"]["bytecode"]).parent
    assert vdir.name == bounded_name(v["symbol"]) and len(vdir.name) <= NAME_LIMIT
    assert f"entry @{v['symbol']}(" in (tmp_path / "a" / v["ir"]["disasm"]).read_text()


# ---------------------------------------------------------------- locks

HOLDER = """
import sys
from pathlib import Path
from tileport.locks import hold
with hold(Path(sys.argv[1]), "the test's lock"):
    print("held", flush=True)
    sys.stdin.readline()
"""


def _holder(lock):
    """A process holding ``lock`` until its stdin is closed."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def _release(proc):
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0


def _wait_for_line(stream, needle, timeout=120):
    """Lines read from ``stream`` until one contains ``needle`` (or it closes)."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            break
        seen.append(line)
        if needle in line:
            return seen
    raise AssertionError(f"no {needle!r} in:\n{''.join(seen)}")


def test_lock_is_reentrant_in_one_process_and_refuses_when_asked(tmp_path):
    lock = tmp_path / "x.lock"
    with hold(lock, "x"):
        with hold(lock, "x"):  # port_triton holds its directory's lock and calls port, which takes it again
            pass
    proc = _holder(lock)
    try:
        with pytest.raises(LockBusy, match=f"x is held by PID {proc.pid}"):
            with hold(lock, "x", wait=False):
                pass
    finally:
        _release(proc)
    with hold(lock, "x", wait=False):
        assert lock.read_text().strip() == str(os.getpid())


def test_a_second_port_into_the_same_out_waits_and_says_for_whom(tmp_path):
    """Two processes on one --out: the second waits (naming the holder's PID) and writes nothing until the first is
    done, then ports in full (the 30-array kernel: bounded names through build and IR diff too)."""
    ref, sig = write_wide_kernel(tmp_path)
    out = tmp_path / "out"
    first = _holder(out / OUT_LOCK)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    second = subprocess.Popen([sys.executable, "-m", "tileport", "port", ref, "--sig", sig, "--out", str(out),
                               "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    try:
        _wait_for_line(second.stderr, f"waiting for the port directory {out} held by PID {first.pid}")
        time.sleep(1)
        assert second.poll() is None and sorted(p.name for p in out.iterdir()) == [OUT_LOCK], "it wrote while waiting"
    finally:
        _release(first)
    stdout, stderr = second.communicate(timeout=600)
    verdict = json.loads(stdout)
    assert second.returncode == 0 and verdict["status"] == "proven", stderr[-3000:]
    (v,) = verdict["stages"]["irdiff"]["variants"]
    assert (out / "variants" / bounded_name(v["symbol"]) / "rust.tileir.txt").exists()


def test_the_build_lock_says_for_whom_it_waits(tmp_path):
    from tileport.runtime import build

    lock = build.crate_dir() / ".build.lock"
    first = _holder(lock)
    second = subprocess.Popen([sys.executable, "-c", "from tileport.runtime import build\n"
                               "with build.build_lock():\n    print('built', flush=True)\n"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_line(second.stderr, f"waiting for the build lock held by PID {first.pid}")
        assert second.poll() is None
    finally:
        _release(first)
    stdout, _ = second.communicate(timeout=60)
    assert second.returncode == 0 and stdout.strip() == "built"
