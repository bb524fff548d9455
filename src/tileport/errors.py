"""Errors tileport reports to users. Each carries a message that says what is wrong and what to do."""
from __future__ import annotations


class TileportError(Exception):
    """Base class: the CLI prints the message (no traceback) and exits with ``exit_code`` (2: bad input)."""

    exit_code = 2


class InputError(TileportError):
    """What the user handed the command line is unusable (a missing or malformed file, an --out that cannot be
    written, a malformed option): exit code 2, as for any bad input; a stage that ran and failed exits 1."""


class ToolchainError(TileportError):
    """The CUDA / cuTile toolchain is missing, mismatched or broken."""


class ToolFailed(ToolchainError):
    """A toolchain binary ran and failed."""

    def __init__(self, tool: str, argv: list[str], returncode: int, stderr: str, hint: str = ""):
        self.tool, self.argv, self.returncode, self.stderr = tool, argv, returncode, stderr
        msg = f"{tool} exited with code {returncode}: {' '.join(argv)}"
        if stderr.strip():
            msg += "\n" + stderr.strip()
        if hint:
            msg += "\n" + hint
        super().__init__(msg)


class BundleError(TileportError):
    """An offline toolchain bundle is corrupt, incomplete or unsafe."""


class BackendError(TileportError):
    """A backend was asked for that cannot run here (unknown name, missing library, no GPU, ...). Defined here, not
    in ``ops._backend``, so that the runtime (``runtime.library``) raises it without importing the ops package."""
