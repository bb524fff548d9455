"""The CPU side of shadow runs (runtime/shadow.py): which outputs a port only writes, and the ports a corpus port
run wrote. The GPU side is tests/gpu/test_shadow_gpu.py."""
from __future__ import annotations

import json
from pathlib import Path

from tileport.runtime.shadow import _written_only, corpus_ports


def test_outputs_poisoned_are_those_the_port_only_writes(tmp_path: Path):
    (tmp_path / "lowered.py").write_text(
        "x = ct.load(x_ptr, index=(pid,), shape=(B,))\nacc = ct.gather(acc_ptr, offs)\n"
        "ct.store(y_ptr, index=(pid,), tile=x)\nct.scatter(acc_ptr, offs, x)\n")
    assert _written_only(tmp_path) == {"y_ptr"}   # acc_ptr is read too: updated in place, never poisoned


def test_corpus_ports_maps_source_and_kernel_to_the_port_directory(tmp_path: Path):
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "sub" / "k.py").write_text("")
    out = tmp_path / "ports"
    (out / "sub.k.kern").mkdir(parents=True)
    (out / "sub.k.kern" / "lowered.py").write_text("")
    (out / "corpus.json").write_text(json.dumps({"kernels": [
        {"file": "sub/k.py", "kernel": "kern", "status": "proven"},
        {"file": "sub/k.py", "kernel": "other", "status": "failed"}]}))   # no lowered form: left out
    assert corpus_ports(out / "corpus.json", corpus) == {(str((corpus / "sub" / "k.py").resolve()), "kern"):
                                                         out / "sub.k.kern"}
