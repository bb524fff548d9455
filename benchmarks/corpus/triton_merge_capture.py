"""Merge a `tileport corpus capture` folder made for another GPU into a committed captures folder, each of its
kernels' index rows marked with that capture's ``"arch"`` (`tileport corpus port` compiles a row's kernel for it):

    python benchmarks/corpus/triton_merge_capture.py build/tt10 benchmarks/results/corpus/triton/captures-tutorials

(tutorial 10's block-scaled matmul, captured for sm_100: on the H200 the script launches nothing).
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path


def main(src: str, dst: str) -> None:
    s_dir, d_dir = Path(src), Path(dst)
    text = (d_dir / "index.json").read_text()
    s, d = json.loads((s_dir / "index.json").read_text()), json.loads(text)
    target = s["target"]
    for k in s["kernels"]:
        shutil.copy(s_dir / k["capture"], d_dir / k["capture"])
        k = dict(k, arch=target["arch"], target_note=f"captured for {target['name']} ({target['arch']}), "
                                                     f"merged from {src} by benchmarks/corpus/triton_merge_capture.py")
        key = (k["file"], k["kernel"])
        d["kernels"] = [r for r in d["kernels"] if (r["file"], r["kernel"]) != key] + [k]
        d["not_launched"] = [r for r in d["not_launched"] if (r["file"], r["kernel"]) != key]
    d["summary"]["kernels_launched"] = len(d["kernels"])
    d["summary"]["kernels_not_launched"] = len(d["not_launched"])
    (d_dir / "index.json").write_text(json.dumps(d, separators=(",", ":")) + ("\n" if text.endswith("\n") else ""))


if __name__ == "__main__":
    main(*sys.argv[1:])
