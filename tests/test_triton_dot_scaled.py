"""`tl.dot_scaled` (Triton's microscaled product, tutorial 10) lowered to `ct.mma_scaled` (sm_100): fp4 (e2m1)
bytes unpacked along K (`ct.unpack_from_bytes`, the first element in the low bits; the rhs through its transpose),
fp8 bytes and e8m0 scale bytes reinterpreted (`ct.bitcast`), Triton's `[N, K / group]` rhs scale transposed to
cuTile's `[K_s, N]`. The kernels of tests/fixtures/triton_dot_scaled.py run lowered on numpy (a stand-in decoding
the 4- and 8-bit formats) against a numpy reference of Triton's semantics; the forms cuTile has no product for are
refused with their place; the translator ports `ct.mma_scaled` / `ct.unpack_from_bytes` (cutile's `mmaf_scaled`,
`unpack`) and the port is proven for sm_100."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import test_triton_round5 as r5
from test_triton_two_layouts import run_copies

from conftest import load_module, needs_cargo

FIXTURE = Path(__file__).parent / "fixtures" / "triton_dot_scaled.py"
NAMES = ("mx_mm", "mx_mm_trans")


MOD = load_module(FIXTURE, "triton_dot_scaled_fixture")


class CtScaled(r5.CtMore):
    """Tiles of the 4- and 8-bit float formats are held decoded, as float32."""
    uint8 = np.uint8
    float4_e2m1fn, float8_e4m3fn, float8_e8m0fnu = "f4e2m1fn", "f8e4m3fn", "f8e8m0fnu"

    @staticmethod
    def unpack_from_bytes(x, dtype):
        x = np.asarray(x)
        assert dtype == "f4e2m1fn" and x.ndim == 1 and x.dtype == np.uint8
        return MOD.e2m1(x, 0)

    @staticmethod
    def bitcast(x, dtype):
        x = np.asarray(x)
        assert x.dtype == np.uint8
        return {"f8e4m3fn": MOD.e4m3, "f8e8m0fnu": MOD.e8m0}[dtype](x)

    @staticmethod
    def transpose(x, axis0=None, axis1=None):
        return np.swapaxes(np.asarray(x), -1, -2)

    @staticmethod
    def mma_scaled(x, xs, y, ys, acc):
        x, xs, y, ys = (np.asarray(t, np.float64) for t in (x, xs, y, ys))
        gx, gy = x.shape[1] // xs.shape[1], y.shape[0] // ys.shape[0]
        assert x.shape[1] % xs.shape[1] == 0 and xs.shape[0] == x.shape[0] and ys.shape[1] == y.shape[1]
        return ((x * np.repeat(xs, gx, 1)) @ (y * np.repeat(ys, gy, 0)) + acc).astype(np.float32)

    @staticmethod
    def astype(x, dtype):
        return np.asarray(x).astype(dtype)


def _launches(names):
    from tileport.frontends.cutile_py.capture import run_captured

    launches = list(run_captured(FIXTURE, []).launches.values())
    return {n: [l for l in launches if l["kernel"].endswith(f"::{n}")] for n in names}


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    from tileport.pipeline.triton import lower_from_launches

    root = tmp_path_factory.mktemp("dot_scaled")
    for name, mine in _launches(NAMES).items():
        for fmt, same in _by_format(mine).items():   # (one lowering per format: they lower differently)
            lower_from_launches(f"{FIXTURE}::{name}", same).write(root / f"{name}{fmt}" / "lowered.py")
    return root


def _by_format(launches):
    """The launches of one kernel by their FMT= (and G=) constexprs: "" for a kernel without one."""
    out: dict[str, list] = {}
    for l in launches:
        vals = {a["name"]: a.get("value") for a in l["args"]}
        out.setdefault(f"_{vals['FMT']}_{vals['G']}" if "FMT" in vals else "", []).append(l)
    return out


def test_dot_scaled_formats_launched_apart_are_refused_together():
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    with pytest.raises(LoweringError, match="the captured launches give it 'e2m1', 'e4m3', which lower "
                                            "differently: capture each value's launches apart"):
        lower_from_launches(f"{FIXTURE}::mx_mm", _launches(("mx_mm",))["mx_mm"])


def test_dot_scaled_lowered_forms(lowered):
    src = {n.name: (n / "lowered.py").read_text() for n in lowered.iterdir()}
    mm, e4 = src["mx_mm_e2m1_32"], src["mx_mm_e4m3_32"]
    # e4m3 bytes reinterpreted, e2m1 bytes unpacked; e8m0 scale bytes reinterpreted
    assert "ct.mma_scaled(" in mm and "ct.bitcast(sa, ct.float8_e8m0fnu)" in mm
    assert "ct.transpose(ct.bitcast(sb, ct.float8_e8m0fnu))" in mm   # Triton's [N, K / g] -> cuTile's [K_s, N]
    assert "ct.unpack_from_bytes(ct.reshape(a, (-1,)), ct.float4_e2m1fn)" in mm
    # the rhs [K / 2, N] is packed along K, its rows: unpacked through its transpose, transposed back
    assert "ct.transpose(ct.reshape(ct.unpack_from_bytes(ct.reshape(ct.transpose(b), (-1,))" in mm
    assert "ct.bitcast(a, ct.float8_e4m3fn)" in e4 and "unpack" not in e4
    tr = src["mx_mm_trans"]
    assert "acc = acc + (ct.mma_scaled(" in tr and "ct.zeros((BM, BN), dtype=ct.float32)))" in tr


def test_dot_scaled_lowered_kernels_match_tritons_semantics(lowered):
    """Each launch's product, run lowered on numpy, against (A * scale_a) @ (B * scale_b) decoded as Triton
    defines the operands (fp4 low nibble first along K; rhs scale [N, K / group])."""
    for name, grid, args, kw, group in MOD.cases():
        sub = f"{name}_{kw['FMT']}_{kw['G']}" if "FMT" in kw else name
        got = run_copies(lowered / sub, getattr(MOD, name), grid, args, kw, CtScaled)
        a, sa, b, sb = args[:4]
        fmt = kw.get("FMT", "e2m1")
        want = MOD.reference(a, sa, b, sb, fmt, group)
        out = got[4].astype(np.float32)
        assert not np.isnan(out).any(), (name, kw)
        tol = 2e-3 if got[4].dtype == np.float16 else 1e-5   # (f32 sums in another order: within the scale of
        atol = tol * float(np.abs(want).max())                # the largest product)
        assert np.allclose(out, want.astype(got[4].dtype).astype(np.float32), rtol=tol, atol=atol), (name, kw)
        # and not by chance: the nibbles the other way round, or the rhs scale transposed, differ
        swapped = MOD.reference(((a & 0xF) << 4) | (a >> 4), sa, b, sb, fmt, group)
        assert fmt != "e2m1" or not np.allclose(out, swapped, rtol=tol, atol=atol)


@pytest.mark.parametrize("name, why", [
    ("mx_mixed", "e4m3 x e2m1 operands: cuTile Python 1.7's ct.mma_scaled takes one dtype for both operands"),
    ("mx_kpack", "lhs_k_pack: lowered for True only"),
    ("mx_bf16_rhs", "rhs_format='bf16': lowered for the microscaling formats e2m1, e4m3, e5m2"),
])
def test_dot_scaled_refusals_say_where_and_why(name, why):
    from tileport.frontends.triton.lower import LoweringError
    from tileport.pipeline.triton import lower_from_launches

    launches = _launches((name,))[name]
    with pytest.raises(LoweringError) as err:
        lower_from_launches(f"{FIXTURE}::{name}", launches)
    text = str(err.value)
    line = next(i for i, l in enumerate(FIXTURE.read_text().splitlines(), 1)
                if "tl.dot_scaled(" in l and i > _def_line(name))
    assert why in text and f"triton_dot_scaled.py:{line}:" in text, text


def _def_line(name):
    return next(i for i, l in enumerate(FIXTURE.read_text().splitlines(), 1) if l.startswith(f"def {name}("))


def test_nvfp4_scales_are_kept_fp8(lowered, tmp_path):
    """nvfp4: e2m1 bytes with float8e4nv scales at group 16 (tutorial 10's default): the scales are not
    reinterpreted (numpy holds no fp8, so the launch's scale dtype is set by hand)."""
    from tileport.pipeline.triton import lower_from_launches

    mine = _by_format(_launches(("mx_mm",))["mx_mm"])["_e2m1_16"]
    assert mine
    for launch in mine:
        for arg in launch["args"]:
            if arg["name"] in ("as_ptr", "bs_ptr"):
                arg["dtype"] = "f8e4m3fn"
        launch["signature"] = launch["signature"].replace("as_ptr=u8", "as_ptr=f8e4m3fn").replace(
            "bs_ptr=u8", "bs_ptr=f8e4m3fn")
    src = lower_from_launches(f"{FIXTURE}::mx_mm", mine).source
    assert "ct.mma_scaled(" in src and "ct.float8_e8m0fnu" not in src and "ct.transpose(sb)" in src


@needs_cargo
def test_dot_scaled_ports_are_proven_for_sm100(tmp_path):
    """The translator ports ct.mma_scaled / ct.unpack_from_bytes (cutile's mmaf_scaled, unpack): every variant of
    both kernels IR-equivalent on sm_100."""
    from tileport.pipeline.triton import port_triton_many
    from tileport.toolchain.locate import find_cuda_tree

    jobs = [(f"{FIXTURE}::{n}", [], same, tmp_path / f"{n}{fmt}") for n, mine in _launches(NAMES).items()
            for fmt, same in _by_format(mine).items()]
    verdicts = port_triton_many(jobs, find_cuda_tree(), "sm_100", tmp_path / "_work")
    assert len(verdicts) == 4
    for (_, _, _, out), v in zip(jobs, verdicts):
        name = out.name
        assert v["status"] == "proven", (name, json.dumps(v)[:2000])
        rs = (out / "kernel.rs").read_text()
        assert "mmaf_scaled(" in rs
