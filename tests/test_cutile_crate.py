"""The pinned cutile crate builds here and its compile-only API emits Tile IR our tileirdisasm reads."""
import subprocess

from tileport import paths
from tileport.toolchain.locate import run_tool, tool_env


def test_probe_compiles_a_rust_kernel_to_tile_ir(tree, tmp_path):
    ws = paths.rust_workspace()
    probe = paths.probe_binary(ws)
    assert probe.exists(), "run ./dev setup (cargo build --release)"
    env = tool_env()
    env.update(tree.cargo_env())
    bc = tmp_path / "probe.tileirbc"
    proc = subprocess.run([str(probe), "--tile", "512", "--bytecode", str(bc)], capture_output=True, text=True,
                          env=env, check=True)
    assert "entry @vector_add_entry(" in proc.stdout
    assert "tile=(512)" in proc.stdout
    disasm = run_tool(tree, "tileirdisasm", [str(bc)]).stdout
    assert "entry @vector_add_entry(" in disasm and "addf" in disasm
    # The same bytecode assembles for sm_90 with our tileiras.
    run_tool(tree, "tileiras", ["--gpu-name=sm_90", "-o", str(tmp_path / "p.cubin"), str(bc)])
