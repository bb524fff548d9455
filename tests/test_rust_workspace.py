"""The Rust workspace is formatted (rustfmt) and locked; generated Rust will be held to the same rule."""
import shutil
import subprocess

import pytest

from conftest import REPO


@pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo not installed")
def test_rustfmt_clean():
    r = subprocess.run(["cargo", "fmt", "--all", "--check"], cwd=REPO / "rust", capture_output=True, text=True)
    assert r.returncode == 0, "run `cargo fmt` in rust/:\n" + r.stdout[-3000:]


def test_an_irgen_panic_is_reported_as_its_message_and_place():
    from tileport.rustgen.crate import _irgen_error

    err = ("thread '<unnamed>' (633) panicked at /r/cutile-compiler-0.3.1/src/compiler/compile_expression.rs:3964:53:"
           "\nFailed to parse literal 4294967295\nstack backtrace:\n   0: __rustc::rust_begin_unwind\n")
    assert _irgen_error(err) == ("cutile's compiler panicked (/r/cutile-compiler-0.3.1/src/compiler/"
                                 "compile_expression.rs:3964:53): Failed to parse literal 4294967295")
    assert _irgen_error("irgen: cutile could not compile k: Unsupported constant type\n") == \
        "irgen: cutile could not compile k: Unsupported constant type"
