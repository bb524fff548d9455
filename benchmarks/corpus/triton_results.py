"""Combine the `tileport corpus port --results` files of the Triton corpus into benchmarks/results/corpus/triton.json.

    python benchmarks/corpus/triton_results.py build/ttp.json build/tcp.json

(the first from Triton's tutorials, the second from TileGym's ops/triton; the commands that make them are written
into the output).
"""
from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

COMMANDS = [
    "tileport corpus capture ../shared/corpus/triton-tutorials --script . --out build/tt",
    "tileport corpus capture ../shared/corpus/triton-tutorials --script 10-block-scaled-matmul.py --target "
    "B200:sm_100:148:180 --out build/tt10 (on the H200 tutorial 10 launches nothing; its kernel file and index row, "
    "the row given \"arch\": \"sm_100\", merged into build/tt by benchmarks/corpus/triton_merge_capture.py build/tt10 build/tt)",
    "tileport corpus port build/tt --corpus ../shared/corpus/triton-tutorials --hints benchmarks/corpus/triton_hints.json "
    "--out build/ttp --results build/ttp.json",
    "tileport corpus capture ../shared/corpus/TileGym --tests tests/ops/test_rms_norm.py --tests "
    "tests/ops/test_dropout.py --tests tests/ops/test_layer_norm_legacy.py --tests tests/ops/test_rope.py "
    "--backend triton --kernels-in src/tilegym/ops/triton --out build/tcap",
    "tileport corpus port build/tcap --corpus ../shared/corpus/TileGym --hints benchmarks/corpus/triton_hints_tilegym.json "
    "--out build/tcp --results build/tcp.json",
]


def main(tutorials: str, tilegym: str, out: str = "benchmarks/results/corpus/triton.json") -> None:
    rows, summary = [], {}
    for corpus, f in (("triton-tutorials", tutorials), ("TileGym (ops/triton)", tilegym)):
        d = json.loads(Path(f).read_text())
        summary[corpus] = d["summary"]
        rows += [{"corpus": corpus, **r} for r in d["kernels"]]
    Path(out).write_text(json.dumps({
        "format": 1,
        "what": "tileport corpus port of the Triton corpus: Triton's tutorials (scripts, captured with --script) and "
                "TileGym's ops/triton kernels (captured from TileGym's tests with --backend triton)",
        "commands": COMMANDS, "date": datetime.date.today().isoformat(), "summary": summary, "kernels": rows},
        indent=1) + "\n")
    for r in rows:
        print(f"{r['corpus'][:16]:<17} {r['file'].split('/')[-1]:<28} {r['kernel']:<36} {r['status']:<12} "
              f"{r['variants_proven']}/{r['variants']}")


if __name__ == "__main__":
    main(*sys.argv[1:])
