"""The bundled Triton kernels' lowered forms (``tileport/kernels/triton/lowered``): regenerate or check them.

    python -m tileport.frontends.triton.bundled           # rewrite the lowered files
    python -m tileport.frontends.triton.bundled --check   # exit 1 naming stale files (CI runs this via pytest)

The parameter kinds come from the examples' own host code (``examples/triton/host.py``), captured on the CPU.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...examples import EXAMPLES_DIR
from ...kernels.triton import HINTS, KERNELS, LOWERED_DIR


def lowered_forms() -> dict[Path, str]:
    """Every file of the lowered directory as it should read (path → text)."""
    from ...pipeline.triton import lower_from_launches
    from ..cutile_py.capture import run_captured

    kernel_dir = LOWERED_DIR.parent
    rec = run_captured(EXAMPLES_DIR / "triton" / "host.py", [])
    if rec.errors:
        raise RuntimeError("capturing examples/triton/host.py failed: " + "; ".join(rec.errors))
    out: dict[Path, str] = {LOWERED_DIR / "__init__.py": '"""Generated cuTile Python forms of the Triton examples '
                                                         '(tileport.frontends.triton.bundled)."""\n'}
    for module, kernel in KERNELS.items():
        ref = f"{kernel_dir / (module + '.py')}::{kernel}"
        launches = [l for l in rec.launches.values() if l["kernel"].rpartition("::")[2] == kernel]
        lowered = lower_from_launches(ref, launches, HINTS.get(kernel, {}))  # (chosen by measurement)
        out[LOWERED_DIR / f"{kernel}.py"] = lowered.source
        out[LOWERED_DIR / f"{kernel}.json"] = lowered.report_text()
    return out


def stale() -> list[Path]:
    want = lowered_forms()
    extra = [p for p in LOWERED_DIR.glob("*") if p.is_file() and p not in want]
    return [p for p, text in want.items() if not p.exists() or p.read_text() != text] + extra


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only report stale files (exit 1 if any)")
    args = ap.parse_args(argv)
    if args.check:
        bad = stale()
        for p in bad:
            print(f"stale: {p}")
        return 1 if bad else 0
    LOWERED_DIR.mkdir(exist_ok=True)
    for p, text in lowered_forms().items():
        if not p.exists() or p.read_text() != text:
            p.write_text(text)
            print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
