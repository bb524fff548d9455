import re

from conftest import REPO

from tileport.toolchain import pins


def test_cargo_pin_matches_pins_toml():
    cargo = (REPO / "rust" / "Cargo.toml").read_text()
    m = re.search(r'^cutile = "=([^"]+)"', cargo, re.M)
    assert m, "rust/Cargo.toml must pin cutile exactly (cutile = \"=X.Y.Z\")"
    assert m.group(1) == pins.load().cutile_crate


def test_cargo_lock_has_the_pinned_crate():
    lock = (REPO / "rust" / "Cargo.lock").read_text()
    assert f'name = "cutile"\nversion = "{pins.load().cutile_crate}"' in lock


def test_requirements_are_exact_pins():
    reqs = pins.load().requirements()
    assert all("==" in r for r in reqs)
    assert reqs[0] == "cuda-tile==1.7.0"
    assert reqs[1].startswith("cuda-toolkit[") and "tileiras" in reqs[1] and reqs[1].endswith("==13.4.3")


def test_installed_versions_match_pins():
    from importlib.metadata import version

    p = pins.load()
    assert version("cuda-tile") == p.cuda_tile
    for dist in ("nvidia-cuda-tileiras", "nvidia-cuda-nvcc", "nvidia-nvvm"):
        assert version(dist).startswith(p.cuda_release + "."), dist
