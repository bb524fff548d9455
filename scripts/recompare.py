"""Compare ported kernels' stored Tile IR again with the tree's irdiff, and say which verdicts it changes.

A quick check that an irdiff rule change leaves earlier ports' verdicts as they were: no analyze, translation or
cargo build, only the comparison of each variant's `reference.tileir.txt` and `rust.tileir.txt` (as the port
stage runs it: port.json's layout and unit grid, sm_90), against the verdict.json beside them.

    PYTHONPATH=src .venv/bin/python scripts/recompare.py build/cp19c build/s19/ports
"""
import argparse
import json
import sys
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="+", type=Path, help="port folders, or folders holding them")
    args = ap.parse_args()
    from tileport.irdiff.canon import parse_layout
    from tileport.irdiff.compare import compare_programs
    from tileport.irdiff.parse import parse

    compared = changed = 0
    for root in args.roots:
        for manifest in sorted(root.rglob("port.json")):
            d = manifest.parent
            if "_work" in d.parts or not (d / "verdict.json").is_file():
                continue
            stages = json.loads((d / "verdict.json").read_text()).get("stages", {})
            stored = {v["symbol"]: bool(v.get("equivalent")) for v in stages.get("irdiff", {}).get("variants", [])}
            for v in json.loads(manifest.read_text())["variants"]:
                ir = (d / v["reference"]).parent
                ref, rust = ir / "reference.tileir.txt", ir / "rust.tileir.txt"
                if v["symbol"] not in stored or not (ref.is_file() and rust.is_file()):
                    continue
                out = compare_programs(parse(ref.read_text(), str(ref)), parse(rust.read_text(), str(rust)),
                                       layout_b=parse_layout(v["layout"]),
                                       unit_grid_b=frozenset(v.get("unit_grid", [])), target="sm_90")
                compared += 1
                if bool(out["equivalent"]) != stored[v["symbol"]]:
                    changed += 1
                    print(f"CHANGED {d.name} {v['symbol']}: stored {stored[v['symbol']]}, now {out['equivalent']}")
    if not compared:
        print("recompare: no stored variant (port.json + verdict.json + its .tileir.txt) under "
              + ", ".join(map(str, args.roots)), file=sys.stderr)
        return 2
    print(f"{compared} variants compared again, {changed} verdicts changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
