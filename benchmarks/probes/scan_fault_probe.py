"""On a GPU: which piece of a lowered recursive-doubling scan faults ("misaligned address", run of 2026-12-06:
tests/fixtures/triton_idioms_llm.py's seg_scan_flags, its lowered cuTile Python form). Each case runs in its own
process (a fault leaves the CUDA context unusable) and prints one line: CASE ok / CASE FAULT / CASE wrong.

    python benchmarks/probes/scan_fault_probe.py [CASE ...]
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cuda.tile as ct


def _halves(t, B):
    r = ct.reshape(t, (B // 2, 2, 1))
    return ct.extract(r, (0, 0, 0), shape=(B // 2, 1, 1)), ct.extract(r, (0, 1, 0), shape=(B // 2, 1, 1))


# One doubling step at distance 1 of a scan over B elements, as the lowering writes it (reshape to (B/2, 2, 1), extract
# both halves, combine, cat, reshape back): of a plain sum, and of a (value, flag) pair.
@ct.kernel
def step_sum(x, f, y, g, B: ct.Constant[int]):
    a0, a1 = _halves(ct.load(x, index=(0,), shape=(B,)), B)
    b0, b1 = _halves(ct.load(f, index=(0,), shape=(B,)), B)
    ct.store(y, index=(0,), tile=ct.reshape(ct.cat((a0, a0 + a1), 1), (B,)))
    ct.store(g, index=(0,), tile=ct.reshape(ct.cat((b0, b1), 1), (B,)))


@ct.kernel
def step_pair(x, f, y, g, B: ct.Constant[int]):
    a0, a1 = _halves(ct.load(x, index=(0,), shape=(B,)), B)
    b0, b1 = _halves(ct.load(f, index=(0,), shape=(B,)), B)
    ct.store(y, index=(0,), tile=ct.reshape(ct.cat((a0, ct.where(b1 != 0, a1, a0 + a1)), 1), (B,)))
    ct.store(g, index=(0,), tile=ct.reshape(ct.cat((b0, b0 | b1), 1), (B,)))


# One doubling step at distance C (the lowered scan's later steps: reshape to (B/2C, 2, C), extract both halves of
# shape (B/2C, 1, C), cat, reshape back), and the spread of a half over both (ct.broadcast_to, as the lowered
# scan carries a segment's last value), at every distance a 64-element scan takes.
@ct.kernel
def step_at(x, y, B: ct.Constant[int], R: ct.Constant[int], C: ct.Constant[int]):
    r = ct.reshape(ct.load(x, index=(0,), shape=(B,)), (R, 2, C))
    a0 = ct.extract(r, (0, 0, 0), shape=(R, 1, C))
    a1 = ct.extract(r, (0, 1, 0), shape=(R, 1, C))
    ct.store(y, index=(0,), tile=ct.reshape(ct.cat((a0, a0 + a1), 1), (B,)))


@ct.kernel
def spread_at(x, y, B: ct.Constant[int], R: ct.Constant[int], C: ct.Constant[int]):
    r = ct.reshape(ct.load(x, index=(0,), shape=(B,)), (R, 2, C))
    a1 = ct.extract(r, (0, 1, 0), shape=(R, 1, C))
    ct.store(y, index=(0,), tile=ct.reshape(ct.broadcast_to(a1, (R, 2, C)), (B,)))


DISTANCES = (2, 4, 8, 16, 32)
CASES = ("step_f32", "step_i32", "step_pair", *(f"step_d{c}" for c in DISTANCES),
         *(f"spread_d{c}" for c in DISTANCES), "fixture:seg_scan_flags", "fixture:cummax_rows",
         "fixture:lin_rec_scan", "fixture:cumprod_cols", *(f"prefix:{k}" for k in range(1, 7)))


def _one(case: str) -> str:
    import torch

    if case.startswith("fixture:"):
        return _fixture(case.split(":", 1)[1])
    if case.startswith("prefix:"):
        return _prefix(int(case.split(":", 1)[1]))
    B = 64
    if case.startswith(("step_d", "spread_d")):
        return _at(case, B)
    step = step_pair if case == "step_pair" else step_sum
    dt = torch.int32 if case == "step_i32" else torch.float32
    x = torch.arange(B, device="cuda").to(dt)
    f = (torch.arange(B, device="cuda") % 5 == 0).to(torch.int32)
    y, g = torch.zeros_like(x), torch.zeros_like(f)
    ct.launch(torch.cuda.current_stream(), (1,), step, (x, f, y, g, B))
    torch.cuda.synchronize()
    want = x.clone().reshape(B // 2, 2)
    if case == "step_pair":
        fl = f.reshape(B // 2, 2)
        want[:, 1] = torch.where(fl[:, 1] != 0, want[:, 1], want[:, 0] + want[:, 1])
    else:
        want[:, 1] += want[:, 0]
    return "ok" if torch.equal(y, want.reshape(B)) else f"wrong {y[:8].tolist()} want {want.reshape(B)[:8].tolist()}"


def _at(case: str, B: int) -> str:
    import torch

    C = int(case.rsplit("_d", 1)[1])
    R = B // (2 * C)
    x = torch.arange(B, device="cuda").to(torch.float32)
    y = torch.zeros_like(x)
    ct.launch(torch.cuda.current_stream(), (1,), spread_at if case.startswith("spread") else step_at, (x, y, B, R, C))
    torch.cuda.synchronize()
    halves = x.clone().reshape(R, 2, C)
    want = torch.stack((halves[:, 1], halves[:, 1]), 1) if case.startswith("spread") else \
        torch.stack((halves[:, 0], halves[:, 0] + halves[:, 1]), 1)
    want = want.reshape(B)
    return "ok" if torch.equal(y, want) else f"wrong {y[:8].tolist()} want {want[:8].tolist()}"


def _prefix(k: int) -> str:
    """The lowered seg_scan_flags cut after its k-th doubling step (of 6 for 64 elements): its lines up to that
    step's `ct.cat` of the values, which is stored instead of the scan. Launched as the fixture launches it (3 rows);
    "ran" when no fault (the values are not the scan's)."""
    import re
    import tempfile

    import numpy as np
    import torch

    from tileport.frontends.cutile_py.capture import run_captured
    from tileport.frontends.cutile_py.loader import load_kernel
    from tileport.pipeline.triton import lower_from_launches

    path = Path("tests/fixtures/triton_idioms_llm.py")
    launches = [v for v in run_captured(path, []).launches.values() if v["kernel"].endswith("::seg_scan_flags")]
    lowered = lower_from_launches(f"{path}::seg_scan_flags", launches)
    root = Path(tempfile.mkdtemp())
    lowered.write(root / "lowered.py")
    text = (root / "lowered.py").read_text()
    cats = [m.group(1) for m in re.finditer(r"^    (scan\d+) = ct\.reshape\(ct\.cat\(", text, re.M)][::2]
    last = cats[k - 1]
    lines = text.splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith(f"    {last} = "))
    cut = "\n".join(lines[:end + 1] + [f"    ct.store(y_ptr, index=(row,), tile=ct.astype({last}, y_ptr.dtype))"])
    (root / "cut.py").write_text(cut + "\n")
    kernel = load_kernel(f"{root / 'cut.py'}::seg_scan_flags").kernel
    x = torch.arange(3 * 64, device="cuda").reshape(3, 64).float()
    f = torch.from_numpy((np.arange(3 * 64).reshape(3, 64) % 7 == 3).astype(np.int32)).cuda()
    y = torch.zeros_like(x)
    ct.launch(torch.cuda.current_stream(), (3,), kernel, (x.reshape(-1), f.reshape(-1), y.reshape(-1), 64))   # (views)
    torch.cuda.synchronize()
    return f"ran (cut after step {k} of {len(cats)}, {last})"


def _fixture(name: str) -> str:
    sys.path.insert(0, "tests/gpu")
    import tempfile

    import torch

    from triton_both import lower_fixture, run_both   # (tests/gpu)

    path = Path("tests/fixtures/triton_idioms_llm.py")
    root = lower_fixture(path, Path(tempfile.mkdtemp()))
    cases = {n: (g, a, k) for n, g, a, k in __import__("importlib").import_module("triton_idioms_llm").round11_cases()}
    g, args, kw = cases[name]

    def cuda(a):
        import numpy as np
        return torch.from_numpy(np.ascontiguousarray(a)).cuda() if isinstance(a, np.ndarray) else a

    count, failures = run_both(path, root, lambda n, o: n == name, lambda mod: getattr(mod, name)[g](*args, **kw),
                               prepare=cuda)
    return "ok" if not failures else f"wrong {failures[:2]}"


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        sys.path.insert(0, "tests/fixtures")
        print(f"{sys.argv[2]}: {_one(sys.argv[2])}", flush=True)
        return 0
    for case in sys.argv[1:] or CASES:
        p = subprocess.run([sys.executable, __file__, "--one", case], capture_output=True, text=True, timeout=120)
        out = p.stdout.strip() or f"{case}: exit {p.returncode}: " + " | ".join(
            l for l in p.stderr.splitlines()[-3:])[:400]
        print(out, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
