"""Translate ported kernels again from their spec.json and compare the Rust with what the port wrote.

A quick check that a translator change leaves earlier ports' kernel.rs as they were (or shows which change):
translation only, no analyze, cargo build or irdiff. Each port folder is copied to a temporary folder, translated
there by the tree's translator, and its kernel.rs compared with the folder's own.

    PYTHONPATH=src .venv/bin/python scripts/retranslate.py build/cp19c          # every port folder below
    PYTHONPATH=src .venv/bin/python scripts/retranslate.py build/cp19c/<kernel> --diff
"""
import argparse
import difflib
import shutil
import sys
import tempfile
from pathlib import Path


def port_dirs(roots: list[Path]) -> list[Path]:
    found = []
    for root in roots:
        found += [p.parent for p in sorted(root.rglob("spec.json"))
                  if (p.parent / "kernel.rs").is_file() and "_work" not in p.parts]
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="+", type=Path, help="port folders, or folders holding them")
    ap.add_argument("--diff", action="store_true", help="print a unified diff of each kernel.rs that changed")
    args = ap.parse_args()
    from tileport.pipeline.port import translate
    from tileport.toolchain.locate import find_cuda_tree
    from tileport.translate.emit import Unsupported

    dirs = port_dirs(args.roots)
    if not dirs:
        print("retranslate: no port folder (spec.json + kernel.rs) under " + ", ".join(map(str, args.roots)),
              file=sys.stderr)
        return 2
    tree = find_cuda_tree()
    changed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, d in enumerate(dirs):
            work = Path(tmp) / f"{i}-{d.name}"   # (two roots may hold ports of one name)
            shutil.copytree(d, work, ignore=shutil.ignore_patterns("kernel.rs", "port.json", "_work"))
            old = (d / "kernel.rs").read_text()
            try:
                translate(work, tree)
                new = (work / "kernel.rs").read_text()
            except Unsupported as exc:
                new = f"refused: {exc}\n"
            same = new == old
            changed += not same
            print(f"{'same   ' if same else 'CHANGED'} {d}")
            if not same and args.diff:
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                           f"{d}/kernel.rs", "retranslated"))
    print(f"{len(dirs) - changed} of {len(dirs)} kernel.rs unchanged")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
