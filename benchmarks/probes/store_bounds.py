"""On a GPU: does a cuTile Python store leave the columns past a view's extent alone when the view is narrower than
its row stride? (issue 21: the lowered `assume_converge` fixture wrote columns 50..63 of a (4, 64) output through a
(4, 50) view with row stride 64 on an H100, 2026-12-05 — `../results/h100/triton-corpus/run-2026-12-05-s6/`.)

Each case stores a (1, 64) tile at (row, 0) into `y.as_strided((4, 50), (64, 1))` of a zeroed (4, 64) tensor and
reports the largest value found in the columns past 50 (0 is right: ct.store ignores out-of-bound elements).
Prints one line per case and writes --out JSON."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cuda.tile as ct
import torch

BLOCK = 64


@ct.kernel
def plain_store(y, BLOCK: ct.Constant[int]):
    ct.store(y, index=(ct.bid(0), 0), tile=ct.full((1, BLOCK), 1.0, dtype=ct.float32))


@ct.kernel
def store_no_tma(y, BLOCK: ct.Constant[int]):
    ct.store(y, index=(ct.bid(0), 0), tile=ct.full((1, BLOCK), 1.0, dtype=ct.float32), allow_tma=False)


@ct.kernel
def loaded_then_stored(x, y, n: int, BLOCK: ct.Constant[int]):
    row = ct.bid(0)
    a = ct.where(ct.arange(BLOCK, dtype=ct.int32) < n,
                 ct.reshape(ct.load(x, index=(row, 0), shape=(1, BLOCK), padding_mode=ct.PaddingMode.ZERO), (BLOCK,)),
                 1.0)
    ct.store(y, index=(row, 0), tile=ct.reshape(a, (1, BLOCK)))


def _newton(x, row, n, tol, BLOCK):
    """The lowered fixture's shape: a while loop whose test joins two comparisons (inlined into each kernel)."""
    a = ct.where(ct.arange(BLOCK, dtype=ct.int32) < n,
                 ct.reshape(ct.load(x, index=(row, 0), shape=(1, BLOCK), padding_mode=ct.PaddingMode.ZERO), (BLOCK,)),
                 1.0)
    v = ct.full((BLOCK,), 1.0, dtype=ct.float32)
    err = 1.0
    it = 0
    while (err > tol) & (it < 30):
        w = v * (1.5 - (((0.5 * a) * v) * v))
        err = ct.max(ct.abs(w - v), axis=0)
        v = w
        it = it + 1
    return v


@ct.kernel
def newton_loop(x, y, n: int, tol: float, BLOCK: ct.Constant[int]):
    """The loop, then the store."""
    v = _newton(x, ct.bid(0), n, tol, BLOCK)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.reshape(ct.astype(v, y.dtype), (1, BLOCK)))


@ct.kernel
def newton_store_no_tma(x, y, n: int, tol: float, BLOCK: ct.Constant[int]):
    """newton_loop with its store kept off TMA."""
    v = _newton(x, ct.bid(0), n, tol, BLOCK)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.reshape(ct.astype(v, y.dtype), (1, BLOCK)), allow_tma=False)


@ct.kernel
def newton_no_load(y, tol: float, BLOCK: ct.Constant[int]):
    """newton_loop without the load: only the store touches memory."""
    row = ct.bid(0)
    v = ct.full((BLOCK,), 2.0, dtype=ct.float32)
    err = 1.0
    it = 0
    while (err > tol) & (it < 30):
        w = v * 0.5 + 0.5
        err = ct.max(ct.abs(w - v), axis=0)
        v = w
        it = it + 1
    ct.store(y, index=(row, 0), tile=ct.reshape(ct.astype(v, y.dtype), (1, BLOCK)))


@ct.kernel
def load_store_no_loop(x, y, BLOCK: ct.Constant[int]):
    """A padded load then a store of the same tile plus one: no loop, no where."""
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, BLOCK), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(row, 0), tile=t + 1.0)


@ct.kernel
def for_loop_store(x, y, BLOCK: ct.Constant[int]):
    """A padded load, a counted loop, the store."""
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, BLOCK), padding_mode=ct.PaddingMode.ZERO) + 1.0
    for _ in range(3):
        t = t * 0.5 + 0.5
    ct.store(y, index=(row, 0), tile=t)


@ct.kernel
def loop_load_pad(x, y, tol: float, BLOCK: ct.Constant[int]):
    """A loop kernel (tileiras picks TMA) loading the narrow view x padded with zeros, stored to a full-width y:
    y's columns past x's extent show what the load gave there (0 is right)."""
    row = ct.bid(0)
    t = ct.reshape(ct.load(x, index=(row, 0), shape=(1, BLOCK), padding_mode=ct.PaddingMode.ZERO), (BLOCK,))
    v = t
    err = 1.0
    it = 0
    while (err > tol) & (it < 3):
        w = v * 1.0
        err = ct.max(ct.abs(w - v), axis=0)
        v = w
        it = it + 1
    ct.store(y, index=(row, 0), tile=ct.reshape(v, (1, BLOCK)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    stream = torch.cuda.current_stream()
    x = torch.rand(4, 64, device="cuda") + 0.5
    xv = x.as_strided((4, 50), (64, 1))
    cases = {"plain_store": lambda yv: (plain_store, (yv, BLOCK)),
             "store_no_tma": lambda yv: (store_no_tma, (yv, BLOCK)),
             "loaded_then_stored": lambda yv: (loaded_then_stored, (xv, yv, 50, BLOCK)),
             "newton_loop": lambda yv: (newton_loop, (xv, yv, 50, 1e-6, BLOCK)),
             "newton_store_no_tma": lambda yv: (newton_store_no_tma, (xv, yv, 50, 1e-6, BLOCK)),
             "newton_no_load": lambda yv: (newton_no_load, (yv, 1e-6, BLOCK)),
             "load_store_no_loop": lambda yv: (load_store_no_loop, (xv, yv, BLOCK)),
             "for_loop_store": lambda yv: (for_loop_store, (xv, yv, BLOCK))}
    results = {}
    for name, make in cases.items():
        y = torch.zeros(4, 64, device="cuda")
        yv = y.as_strided((4, 50), (64, 1))
        kernel, kargs = make(yv)
        try:
            ct.launch(stream, (4,), kernel, kargs)
            torch.cuda.synchronize()
            results[name] = {"past_extent_max": y[:, 50:].abs().max().item(),
                             "inside_min": y[:, :50].abs().min().item()}
        except Exception as exc:  # noqa: BLE001 — a probe: the failure is the finding
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
        print(name, results[name], flush=True)
    y = torch.zeros(4, 64, device="cuda")   # full width: the load's padding is what lands past column 50
    try:
        ct.launch(stream, (4,), loop_load_pad, (xv, y, -1.0, BLOCK))
        torch.cuda.synchronize()
        results["loop_load_pad"] = {"past_extent_max": y[:, 50:].abs().max().item(),
                                    "inside_equal": bool(torch.equal(y[:, :50], x[:, :50]))}
    except Exception as exc:  # noqa: BLE001
        results["loop_load_pad"] = {"error": f"{type(exc).__name__}: {exc}"}
    print("loop_load_pad", results["loop_load_pad"], flush=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
