"""What users hand the command line, checked before any work starts: files to read (present, a file, readable,
text, JSON, of the schema and format version tileport reads) and places to write (a directory that is not a file,
not under a file, creatable and writable). Each check fails with one line that names the option and the path."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import InputError


def _label(what: str, path: Path) -> str:
    return f"{what} {path}" if what else str(path)


def need_file(path: Path, what: str = "") -> Path:
    """``path``, a readable file the user named (``what``: the option that named it, such as ``--capture``)."""
    path = Path(path)
    label = _label(what, path)
    if not path.exists():
        raise InputError(f"{label}: no such file")
    if path.is_dir():
        raise InputError(f"{label}: is a directory, expected a file")
    if not os.access(path, os.R_OK):
        raise InputError(f"{label}: not readable")
    return path


def read_bytes(path: Path, what: str = "") -> bytes:
    """The bytes of a file the user named."""
    path = need_file(path, what)
    label = _label(what, path)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"{label}: cannot read it ({exc.strerror or exc})") from None


def read_text(path: Path, what: str = "") -> str:
    data = read_bytes(path, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{_label(what, Path(path))}: not a text file (not UTF-8)") from None


def read_json(path: Path, what: str = "", schema: str | None = None) -> Any:
    """A JSON document, checked against the package's ``SCHEMA.schema.json`` when ``schema`` is given."""
    text = read_text(path, what)
    label = _label(what, Path(path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{label}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if schema is not None:
        from .spec.validate import check_document

        check_document(data, schema, label)
    return data


def _blocking_file(path: Path) -> Path | None:
    """The first existing ancestor of ``path`` (or ``path`` itself) that is not a directory."""
    for p in reversed([path, *path.parents]):
        if p.exists() and not p.is_dir():
            return p
        if not p.exists():
            break
    return None


def _probe_writable(d: Path, label: str) -> None:
    try:
        with tempfile.TemporaryFile(dir=d):
            pass
    except OSError as exc:
        raise InputError(f"{label}: cannot write there ({exc.strerror or exc})") from None


def out_dir(path: Path, what: str = "--out") -> Path:
    """Make ``path`` a writable directory (creating it and its parents), or fail with one line."""
    path = Path(path)
    label = _label(what, path)
    blocker = _blocking_file(path)
    if blocker == path:
        raise InputError(f"{label}: is a file, expected a directory")
    if blocker is not None:
        raise InputError(f"{label}: {blocker} is a file, not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{label}: cannot create the directory ({exc.strerror or exc})") from None
    _probe_writable(path, label)
    return path


def out_file(path: Path, what: str = "--out") -> Path:
    """Make sure ``path`` can be written as a file (its directory created), or fail with one line."""
    path = Path(path)
    label = _label(what, path)
    if path.is_dir():
        raise InputError(f"{label}: is a directory, expected a file name")
    blocker = _blocking_file(path.parent)
    if blocker is not None:
        raise InputError(f"{label}: {blocker} is a file, not a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{label}: cannot create its directory ({exc.strerror or exc})") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise InputError(f"{label}: the file is not writable")
    _probe_writable(path.parent, label)
    return path


def in_dir(path: Path, needs: tuple[str, ...], what: str, why: str) -> Path:
    """A directory the user named that must hold ``needs`` (file names); ``why`` says where such a directory comes
    from."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{what} {path}: no such directory; {why}")
    if not path.is_dir():
        raise InputError(f"{what} {path}: is a file, expected a directory; {why}")
    missing = [n for n in needs if not (path / n).is_file()]
    if missing:
        raise InputError(f"{what} {path}: {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing; {why}")
    return path
