"""Kernel time of the launch backend against cuTile Python, measured on the host code's own launches (GPU).

With timing on (``Interceptor.timing``; the pytest plugin turns it on with ``TILEPORT_LAUNCH_TIMING=FILE``), the first
``per_kernel`` distinct launches (argument types, constants, grid) of each kernel are timed right after they ran:
each path — ``ct.launch`` as cuTile Python runs it, and the Rust port — is captured ``reps`` times in a CUDA graph,
and the two graphs are replayed in ``rounds`` interleaved rounds (kernel time without host launch cost, the same
inputs). A launch that a CUDA graph cannot capture (cuTile Python builds a list-of-tensors argument's pointer array
per launch: "List argument in CUDAGraph isn't supported yet") is timed instead by events around ``reps`` launches
queued back to back on the stream, in the same interleaved rounds (``method: "stream"``, the graph's error kept):
host cost overlaps the kernels then, but is not removed. The tensor arguments are copied before and put back after, so the host code goes on with the values the
real launch left. One record per timed launch: kernel, grid, the medians in microseconds and their ratio.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class LaunchTiming:
    per_kernel: int = 3
    reps: int = 10
    rounds: int = 5
    records: list[dict] = field(default_factory=list)
    _seen: dict[int, set] = field(default_factory=dict)

    def wants(self, kernel: Any, args: tuple, grid: tuple) -> bool:
        """Whether this launch is one to time: the kernel's first ``per_kernel`` distinct ones (tensor dtypes and
        shapes, other arguments' values, grid)."""
        key = (tuple((str(a.dtype), tuple(a.shape)) if hasattr(a, "data_ptr") else repr(a) for a in args), grid)
        seen = self._seen.setdefault(id(kernel), set())
        if key in seen or len(seen) >= self.per_kernel:
            return False
        seen.add(key)
        return True

    def time(self, name: str, grid: tuple, args: tuple, plain: Callable[[Any], None],
             rust: Callable[[Any], None]) -> None:
        """Time ``plain(stream)`` against ``rust(stream)`` (each launches on the torch stream it is given)."""
        import torch

        tensors = [a for a in args if isinstance(a, torch.Tensor)]
        saved = [t.detach().clone() for t in tensors]
        record: dict = {"kernel": name, "grid": list(grid)}
        paths = {path: (lambda fn=fn: fn(torch.cuda.current_stream())) for path, fn in
                 (("plain", plain), ("rust", rust))}
        try:
            try:
                med = graph_medians(paths, self.reps, self.rounds)
                record["method"] = "graph"
            except Exception as exc:  # noqa: BLE001 — a launch a CUDA graph cannot capture: timed on the stream
                record["graph_error"] = _said(exc)
                torch.cuda.synchronize()
                med = stream_medians(paths, self.reps, self.rounds)
                record["method"] = "stream"
            record.update(plain_us=round(med["plain"], 3), rust_us=round(med["rust"], 3),
                          ratio=round(med["rust"] / med["plain"], 4) if med["plain"] > 0 else None)
        except Exception as exc:  # noqa: BLE001 — a launch that cannot be timed either way: say so, go on
            record["error"] = _said(exc)
        finally:
            # Through `.data`: autograd does not see the copy (a tensor the graph saved for backward keeps its
            # version, and a leaf that requires grad takes it), as it does not see the kernels' own writes.
            for t, s in zip(tensors, saved):
                t.data.copy_(s)
            torch.cuda.synchronize()
        self.records.append(record)


def _said(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc)[:300]}"


def graph_medians(paths: dict[str, Callable[[], None]], reps: int, rounds: int) -> dict[str, float]:
    """Each path's launches captured ``reps`` times in a CUDA graph of its own (each call launches on the capturing
    stream), the graphs replayed in ``rounds`` interleaved rounds: the median microseconds per launch of each path."""
    import torch

    graphs = {}
    for path, fn in paths.items():
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(reps):
                fn()
        graphs[path] = graph
    return _interleaved({path: graph.replay for path, graph in graphs.items()}, 1, reps, rounds)


def stream_medians(paths: dict[str, Callable[[], None]], reps: int, rounds: int) -> dict[str, float]:
    """Each path's ``reps`` launches queued back to back on the current stream between two events (after one
    warm-up launch each), in ``rounds`` interleaved rounds: the median microseconds per launch of each path."""
    import torch

    for fn in paths.values():
        fn()
    torch.cuda.synchronize()
    return _interleaved(paths, reps, reps, rounds)


def _interleaved(run: dict[str, Callable[[], None]], calls: int, per: int, rounds: int) -> dict[str, float]:
    """``calls`` calls of each path's ``run`` between two events, the paths in turn for ``rounds`` rounds: the
    median over rounds of the elapsed microseconds divided by ``per``."""
    import torch

    times: dict[str, list[float]] = {path: [] for path in run}
    for _ in range(rounds):
        for path, fn in run.items():
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(calls):
                fn()
            end.record()
            end.synchronize()
            times[path].append(start.elapsed_time(end) * 1000.0 / per)
    return {path: sorted(v)[len(v) // 2] for path, v in times.items()}
