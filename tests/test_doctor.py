"""`tileport doctor` on the real toolchain, and on planted failures: each must be named, with what to do."""
import json

import pytest

from tileport.toolchain import doctor

from conftest import run_tileport


def by_name(checks):
    return {c.name: c for c in checks}


def test_real_toolchain_passes():
    checks = doctor.run_checks(arch="sm_90", profile="dev")
    bad = [c for c in checks if c.blocking]
    assert not bad, bad
    got = by_name(checks)
    for name in ("cuda-tile", "tileiras", "tileirdisasm", "ptxas", "libnvvm", "versions-match", "target-arch",
                 "smoke-compile", "cuda-headers", "rust", "libclang", "cutile-crate"):
        assert got[name].status == "ok", got[name]
    assert "13.4" in got["libnvvm"].found and "sm_90 cubin" in got["smoke-compile"].found


def test_cli_json_and_exit_code():
    r = run_tileport("doctor", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(r.stdout)
    assert report["ok"] is True and report["arch"] == "sm_90" and report["profile"] == "dev"
    assert {"name", "status", "required", "found", "fix"} <= set(report["checks"][0])


def test_unknown_arch_fails_with_the_list(monkeypatch):
    got = by_name(doctor.run_checks(arch="sm_42", profile="runtime"))
    assert got["target-arch"].status == "fail"
    assert "sm_90" in got["target-arch"].found and "sm_42" in got["target-arch"].fix


def test_mismatched_libnvvm(plant, old_libnvvm, monkeypatch):
    monkeypatch.setenv("TILEPORT_CUDA_ROOT", str(plant(replace={"lib/libnvvm.so.4": old_libnvvm})))
    got = by_name(doctor.run_checks(arch="sm_90", profile="runtime"))
    assert got["libnvvm"].status == "fail" and "release 13.0" in got["libnvvm"].found
    assert "nvidia-nvvm==13.4.*" in got["libnvvm"].fix
    assert got["versions-match"].status == "fail"
    assert "libnvvm 13.0" in got["versions-match"].found and "exits with code 5" in got["versions-match"].fix
    # The real consequence, not just the version label: tileiras really fails to compile.
    assert got["smoke-compile"].status == "fail"
    assert "tileiras exited with code 5" in got["smoke-compile"].found
    assert "libnvvm it cannot use" in got["smoke-compile"].found


def test_missing_ptxas(plant, monkeypatch):
    root = plant(drop=("bin/ptxas",))
    monkeypatch.setenv("TILEPORT_CUDA_ROOT", str(root))
    got = by_name(doctor.run_checks(arch="sm_90", profile="runtime"))
    assert got["ptxas"].status == "fail"
    assert got["ptxas"].found == f"missing: {root / 'bin' / 'ptxas'}"
    assert "tileiras runs the ptxas in its own bin/" in got["ptxas"].fix
    assert got["smoke-compile"].status == "fail"


def test_missing_headers(plant, monkeypatch):
    monkeypatch.setenv("TILEPORT_CUDA_ROOT", str(plant(drop=("include/crt/host_config.h",))))
    got = by_name(doctor.run_checks(arch="sm_90", profile="dev"))
    assert got["cuda-headers"].status == "fail"
    assert "crt/host_config.h" in got["cuda-headers"].found and "bindgen" in got["cuda-headers"].fix
    assert got["smoke-compile"].status == "ok"  # compiling Tile IR does not need headers


def test_missing_tree(monkeypatch, tmp_path):
    monkeypatch.setenv("TILEPORT_CUDA_ROOT", str(tmp_path / "nope"))
    got = by_name(doctor.run_checks(profile="runtime"))
    assert got["cuda-tree"].status == "fail" and "is not a directory" in got["cuda-tree"].found
    assert got["tileiras"].status == "skip"


def test_cuda_home_older_toolkit_is_survived(old_cuda_home, monkeypatch):
    """The H200 image's trap: CUDA_HOME → CUDA 13.0. tileiras breaks with it; tileport and cuda-tile drop it."""
    monkeypatch.setenv("CUDA_HOME", str(old_cuda_home))
    got = by_name(doctor.run_checks(arch="sm_90", profile="runtime"))
    c = got["cuda-home"]
    assert c.status == "warn" and not c.blocking
    assert "CUDA 13.0.88" in c.found and "tileiras exits 5" in c.found
    assert got["smoke-compile"].status == "ok"


def test_cuda_home_breaks_cutile_python_without_pip_metadata(old_cuda_home, tmp_path):
    """When cuda-tile cannot recognise its pip toolchain (here: mismatched wheel metadata) it runs tileiras with
    CUDA_HOME kept, so ct.launch would fail: doctor must fail and say so."""
    fake = tmp_path / "meta" / "nvidia_nvvm-13.0.88.dist-info"
    fake.mkdir(parents=True)
    (fake / "METADATA").write_text("Metadata-Version: 2.1\nName: nvidia-nvvm\nVersion: 13.0.88\n")
    import os
    r = run_tileport("doctor", "--json", "--profile", "runtime",
                     env={"CUDA_HOME": str(old_cuda_home),
                          "PYTHONPATH": f"{fake.parent}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"})
    assert r.returncode == 1, r.stdout
    c = {c["name"]: c for c in json.loads(r.stdout)["checks"]}["cuda-home"]
    assert c["status"] == "fail" and "cuda-tile would find tileiras on PATH and keep CUDA_HOME" in c["found"]
    assert "unset CUDA_HOME" in c["fix"]


def test_text_report_lists_fixes(plant, monkeypatch):
    r = run_tileport("doctor", "--profile", "runtime", env={"TILEPORT_CUDA_ROOT": str(plant(drop=("bin/ptxas",)))})
    assert r.returncode == 1
    assert "ptxas: tileiras runs the ptxas in its own bin/" in " ".join(r.stdout.split())
    assert "some required checks failed" in r.stdout


@pytest.mark.parametrize("profile", ["dev", "runtime"])
def test_profiles_differ_only_in_build_checks(profile):
    got = by_name(doctor.run_checks(profile=profile))
    assert (got["cutile-crate"].status == "skip") == (profile == "runtime")


def test_ops_library_check_says_what_is_wrong(monkeypatch, tmp_path):
    """An unpacked library that is missing, stale or not a library fails doctor with the fix; a stale workspace
    build only warns (it is rebuilt on first use)."""
    from tileport.runtime import build
    from tileport.toolchain import doctor

    ctx = doctor.Context(arch="sm_90", profile="runtime", require_gpu=False)
    monkeypatch.setenv("TILEPORT_LIBRARY", str(tmp_path / "libtileport_ops.so"))
    (check,) = doctor.ops_library(ctx)
    assert (check.status, check.required) == ("fail", True) and "is missing" in check.found
    assert "tileport ops unpack" in check.fix
    (tmp_path / "libtileport_ops.so").write_bytes(b"not a library")
    monkeypatch.setattr(build, "is_fresh", lambda path=None: True)
    (check,) = doctor.ops_library(ctx)
    assert check.status == "fail" and "does not load" in check.found
    monkeypatch.setattr(build, "is_fresh", lambda path=None: False)
    (check,) = doctor.ops_library(ctx)
    assert check.status == "fail" and "other sources" in check.found
    monkeypatch.delenv("TILEPORT_LIBRARY")
    (check,) = doctor.ops_library(ctx)
    assert check.status == "warn" and not check.required and "other sources" in check.found
