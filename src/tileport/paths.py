"""Where tileport's own files are: the source checkout, its Rust workspace, and built artifacts."""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def rust_workspace() -> Path | None:
    """The Cargo workspace (``rust/``) of a source checkout, or ``$TILEPORT_RUST_DIR``; None when installed bare."""
    env = os.environ.get("TILEPORT_RUST_DIR")
    if env:
        return Path(env)
    candidate = PACKAGE_DIR.parents[1] / "rust"
    return candidate if (candidate / "Cargo.toml").exists() else None


def cargo_target_dir(workspace: Path) -> Path:
    return Path(os.environ.get("CARGO_TARGET_DIR", workspace / "target"))


def probe_binary(workspace: Path | None = None) -> Path | None:
    """The built ``tileport-probe``: an unpacked bundle's ``bin/`` first, then the workspace's release build."""
    bundle = os.environ.get("TILEPORT_BUNDLE")
    if bundle and (Path(bundle) / "bin" / "tileport-probe").exists():
        return Path(bundle) / "bin" / "tileport-probe"
    workspace = workspace or rust_workspace()
    return None if workspace is None else cargo_target_dir(workspace) / "release" / "tileport-probe"
