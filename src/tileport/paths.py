"""Where tileport's own files are: the source checkout, its Rust workspace, and built artifacts."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent

#: The longest file or directory name tileport derives from a kernel symbol (without the suffix it adds). cuda-tile's
#: mangled symbols grow with the parameter count (369 characters at 30 arrays), past the 255 bytes a name may have.
NAME_LIMIT = 120


def bounded_name(name: str, limit: int = NAME_LIMIT, keep: str = "head") -> str:
    """``name`` itself when it fits in ``limit`` bytes, else a readable prefix of it and 16 hex digits of its SHA-256
    (distinct names stay distinct; the full name is kept wherever the file is described, e.g. spec.json).
    ``keep="tail"``: the digest, then the end of the name (a dotted path whose last part says most: FILE.KERNEL)."""
    if len(name.encode()) <= limit:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:16]
    room = limit - len(digest) - 1
    if keep == "tail":
        return f"{digest}_{name.encode()[-room:].decode(errors='ignore')}"
    prefix = name.encode()[:room].decode(errors="ignore")
    return f"{prefix}_{digest}"


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
