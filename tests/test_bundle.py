"""Offline bundles: round trip on the real binaries, corruption and tampering, the 60 MB limit."""
import hashlib
import io
import json
import lzma
import subprocess
import sys
import tarfile

import pytest

from tileport import paths
from tileport.errors import BundleError
from tileport.toolchain import bundle, pins

from conftest import CACHE, REPO


def _py():
    return f"{sys.version_info.major}.{sys.version_info.minor}"


@pytest.fixture(scope="module")
def wheel():
    return bundle.download_wheel(f"cuda-tile=={pins.load().cuda_tile}", _py(), CACHE / "wheels", lambda s: None)


@pytest.fixture(scope="module")
def fast_bundle(tree, wheel, tmp_path_factory):
    """The real toolchain packed (fast xz preset): about a minute of one CI worker, so the four tests on it are
    `slow` (./dev test -m slow; every GPU session packs and unpacks the bundle too); the synthetic bundles below
    check the archive's guards in every run."""
    out = tmp_path_factory.mktemp("b") / "tc.tar.xz"
    extra = paths.probe_binary(paths.rust_workspace())
    manifest = bundle.pack(tree, out, wheels=[wheel], cdylibs=[], binaries=[extra], python=_py(), fast=True,
                           max_mb=400)
    return out, manifest


@pytest.mark.slow   # (packs the real toolchain: a minute; see fast_bundle)
def test_round_trip_is_byte_exact(tree, fast_bundle, tmp_path):
    out, manifest = fast_bundle
    assert set(manifest["files"]) >= {"site/nvidia/cu13/bin/tileiras", "site/nvidia/cu13/bin/tileirdisasm",
                                      "site/nvidia/cu13/bin/ptxas", "site/nvidia/cu13/lib/libnvvm.so.4",
                                      "bin/tileport-probe"}
    assert manifest["cuda_release"] == "13.4"
    dest = tmp_path / "tc"
    bundle.unpack(out, dest)
    for rel in ("bin/tileiras", "bin/ptxas", "lib/libnvvm.so.4"):
        got = (dest / "site/nvidia/cu13" / rel).read_bytes()
        assert hashlib.sha256(got).digest() == hashlib.sha256((tree.root / rel).read_bytes()).digest()
    assert (dest / "site/nvidia/cu13/bin/tileiras").stat().st_mode & 0o111
    assert (dest / "site/cuda/tile/__init__.py").exists(), "cuda-tile wheel installed into site/"
    assert len(list(dest.glob("site/nvidia_nvvm-*.dist-info/METADATA"))) == 1
    env = (dest / "env.sh").read_text()
    assert f'TILEPORT_CUDA_ROOT="{dest.resolve()}/site/nvidia/cu13"' in env and "TILEPORT_PROFILE=runtime" in env


@pytest.mark.slow   # (packs the real toolchain: a minute; see fast_bundle)
def test_unpacked_bundle_passes_runtime_doctor_despite_old_cuda_home(fast_bundle, tmp_path, old_cuda_home):
    """What the H200 run does: unpack, source env.sh, CUDA_HOME pointing at CUDA 13.0 — doctor must pass."""
    dest = tmp_path / "tc"
    bundle.unpack(fast_bundle[0], dest)
    script = f'export CUDA_HOME="{old_cuda_home}"; source "{dest}/env.sh"; "{sys.executable}" -m tileport doctor --json'
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    checks = {c["name"]: c for c in json.loads(r.stdout)["checks"]}
    assert json.loads(r.stdout)["profile"] == "runtime"
    assert str(dest.resolve()) in checks["cuda-tree"]["found"]
    assert str(dest.resolve()) in checks["cuda-tile"]["found"], "cuda-tile must come from the bundle"
    assert checks["smoke-compile"]["status"] == "ok"
    assert checks["cuda-home"]["status"] == "warn" and "tileiras exits 5" in checks["cuda-home"]["found"]


@pytest.mark.slow   # (packs the real toolchain: a minute; see fast_bundle)
def test_corrupt_archive_is_caught_by_the_sidecar(fast_bundle, tmp_path):
    bad = tmp_path / "bad.tar.xz"
    data = bytearray(fast_bundle[0].read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(data))
    (tmp_path / "bad.tar.xz.sha256").write_text(fast_bundle[0].with_name("tc.tar.xz.sha256").read_text())
    with pytest.raises(BundleError, match="checksum mismatch"):
        bundle.unpack(bad, tmp_path / "x")


@pytest.mark.slow   # (packs the real toolchain: a minute; see fast_bundle)
def test_corrupt_archive_without_sidecar_is_caught_by_xz(fast_bundle, tmp_path):
    bad = tmp_path / "bad.tar.xz"
    data = bytearray(fast_bundle[0].read_bytes())
    data[len(data) // 3] ^= 0xFF
    bad.write_bytes(bytes(data))
    with pytest.raises(BundleError, match="corrupt|not readable|is corrupt"):
        bundle.unpack(bad, tmp_path / "x")


def _handmade(tmp_path, members, manifest_files):
    path = tmp_path / "hand.tar.xz"
    with lzma.open(path, "wb") as xz, tarfile.open(fileobj=xz, mode="w|") as tar:
        def add(name, data):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        add(f"{bundle.TOP}/manifest.json", json.dumps({"format": bundle.FORMAT, "files": manifest_files}).encode())
        for name, data in members:
            add(name, data)
    return path


def test_tampered_member_is_rejected(tmp_path):
    files = {"lib/x.so": {"sha256": hashlib.sha256(b"good").hexdigest(), "size": 4, "mode": 0o644}}
    path = _handmade(tmp_path, [(f"{bundle.TOP}/lib/x.so", b"evil")], files)
    with pytest.raises(BundleError, match=r"lib/x.so is corrupt \(sha256"):
        bundle.unpack(path, tmp_path / "d")
    assert not (tmp_path / "d/lib/x.so").exists()


def test_path_traversal_and_unlisted_members_are_refused(tmp_path):
    path = _handmade(tmp_path, [(f"{bundle.TOP}/../../etc/evil", b"x")], {})
    with pytest.raises(BundleError, match="unsafe or foreign member"):
        bundle.unpack(path, tmp_path / "d")
    path = _handmade(tmp_path, [(f"{bundle.TOP}/lib/extra", b"x")], {})
    with pytest.raises(BundleError, match="not listed in the manifest"):
        bundle.unpack(path, tmp_path / "d")


def test_missing_member_is_reported(tmp_path):
    files = {"lib/x.so": {"sha256": "0" * 64, "size": 1, "mode": 0o644}}
    with pytest.raises(BundleError, match="incomplete, missing lib/x.so"):
        bundle.unpack(_handmade(tmp_path, [], files), tmp_path / "d")


def test_not_a_bundle(tmp_path):
    p = tmp_path / "x.tar.xz"
    p.write_bytes(b"hello")
    with pytest.raises(BundleError, match="not a readable tileport bundle"):
        bundle.unpack(p, tmp_path / "d")


def test_size_limit_is_enforced(tree, tmp_path):
    """A pack stops as soon as the compressed output passes the limit (not after compressing all 226 MB)."""
    with pytest.raises(BundleError, match="over the 1 MB limit"):
        bundle.pack(tree, tmp_path / "big.tar.xz", wheels=[], cdylibs=[], python=_py(), fast=True, max_mb=1)
    assert not (tmp_path / "big.tar.xz").exists() and not (tmp_path / "big.tar.xz.partial").exists()


@pytest.mark.slow
def test_full_bundle_fits_in_60_mb(tree, wheel, tmp_path):
    """The real thing, at full compression: about 4 minutes on 2 cores."""
    out = tmp_path / "full.tar.xz"
    bundle.pack(tree, out, wheels=[wheel], cdylibs=[], python=_py())
    size = out.stat().st_size
    print(f"full bundle: {size / 1e6:.1f} MB")
    assert size <= 60e6


def test_file_changing_during_pack_is_caught(tree, tmp_path, monkeypatch):
    """The manifest is hashed before streaming; a file rewritten in between (a cargo build racing the pack — seen
    once for real) must abort the pack instead of shipping a bundle whose unpack fails on the GPU host."""
    small = tmp_path / "tool"
    small.write_bytes(b"version 1")
    real_sha = bundle.sha256_file

    def stale_hash(path):
        return hashlib.sha256(b"version 0").hexdigest() if path == small else real_sha(path)

    monkeypatch.setattr(bundle, "sha256_file", stale_hash)
    # the changed file packed first: the pack stops there instead of compressing the toolchain before it
    real_collect = bundle.collect
    monkeypatch.setattr(bundle, "collect",
                        lambda *a, **kw: sorted(real_collect(*a, **kw), key=lambda e: e.source != small))
    with pytest.raises(BundleError, match="changed while it was being packed"):
        bundle.pack(tree, tmp_path / "b.tar.xz", wheels=[], cdylibs=[], binaries=[small], python=_py(), fast=True,
                    max_mb=400)
    assert not (tmp_path / "b.tar.xz").exists() and not (tmp_path / "b.tar.xz.partial").exists()


def test_a_runtime_bundle_leaves_the_disassembler_out(tree):
    """`pack --no-disasm`: a GPU host compiles and launches and never runs the IR diff, so tileirdisasm stays behind
    (the tree and the bundle travel within 64 MiB); everything that compiles Tile IR is still there."""
    names = {e.arcname for e in bundle.collect(tree, [], [], disasm=False)}
    assert "site/nvidia/cu13/bin/tileirdisasm" not in names
    assert {"site/nvidia/cu13/bin/tileiras", "site/nvidia/cu13/bin/ptxas", "site/nvidia/cu13/lib/libnvvm.so.4"} <= names
    assert "site/nvidia/cu13/bin/tileirdisasm" in {e.arcname for e in bundle.collect(tree, [], [])}
