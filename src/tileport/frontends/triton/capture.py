"""Record ``kernel[grid](...)`` launches of ``@triton.jit`` kernels without running them, and turn a recorded
launch into the launch of the lowered cuTile kernel (the signature the port is proven at).

A record keeps what the lowering and the views need: per parameter its kind (array with dtype, shape, strides and
16-byte alignment; int/float scalar with its value; constexpr with its value), the grid (a callable grid is called
with the launch's arguments, as Triton does) and the launch options (``num_warps``, ``num_stages``...), which the
lowering reports as dropped: cutile chooses its own.
"""
from __future__ import annotations

import ast
import functools
import inspect
import textwrap
import types
from pathlib import Path
from typing import Any

from ...spec.signature import ConstSig, ScalarSig, Signature
from ..arrays import (ArrayFacts, CaptureError, LaunchRejected, array_facts, array_sig, describe_arg,
                      grid_extents)
from .views import View, ViewError, descriptor_values, reads_at, string_codes, view_layout
from .launch_hints import constexpr_values, launch_hints

#: Triton launch keywords that are options, not kernel arguments
OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "launch_cooperative_grid",
           "launch_pdl")


def bind(params: list[str], constexprs: set[str], args: tuple, kwargs: dict,
         defaults: dict | None = None) -> tuple[dict, dict]:
    """(argument by parameter name, launch options) of one call, as Triton binds them (``defaults``: the values of
    parameters declared with one, for those the call leaves out). A call Triton cannot bind raises
    :class:`LaunchRejected` (a TypeError, as Triton's launch raises one)."""
    options = {k: kwargs[k] for k in OPTIONS if k in kwargs}
    rest = {k: v for k, v in kwargs.items() if k not in OPTIONS}
    if len(args) > len(params):
        raise LaunchRejected(f"{len(args)} positional arguments for {len(params)} parameters")
    bound = dict(zip(params, args))
    for k, v in rest.items():
        if k not in params:
            raise LaunchRejected(f"unexpected keyword argument {k!r} (parameters: {', '.join(params)})")
        if k in bound:
            raise LaunchRejected(f"argument {k!r} given twice")
        bound[k] = v
    for k, v in (defaults or {}).items():
        bound.setdefault(k, v)
    missing = [p for p in params if p not in bound]
    if missing:
        raise LaunchRejected(f"missing arguments: {', '.join(missing)}")
    return bound, options


#: a tuple argument's elements are parameters of their own in the capture and in the lowered kernel (`shape` passed
#: `(M, N)`: `shape__0`, `shape__1`; the kernel's `shape[0]` reads the first)
TUPLE_SEP = "__"


def flatten_tuples(bound: dict, constexprs: set[str]) -> dict:
    """``bound`` with each tuple (or list) of numbers or tensors passed to a parameter that is no constexpr (Triton
    >= 3.2's tuple arguments: `k[grid](x, (M, N), (s0, s1))`, `k[grid]((a, b), y)` read as `ptrs[0]`) replaced by
    one argument per element (``TUPLE_SEP``)."""
    out: dict = {}
    for k, v in bound.items():
        if k not in constexprs and isinstance(v, (tuple, list)) and v and \
                all(isinstance(x, (bool, int, float)) or array_facts(x) is not None for x in v):
            out.update({f"{k}{TUPLE_SEP}{i}": x for i, x in enumerate(v)})
        elif k in constexprs and isinstance(v, tuple) and v and all(type(x) in (bool, int, float) for x in v):
            # a constexpr tuple of numbers (`SHAPE: tl.constexpr` passed `(4, 8)`, read as `SHAPE[0]`,
            # `tl.zeros(SHAPE, ..)`): one constexpr per element (`tuple_constexprs`); the capture refused it ("is
            # not a bool, int or float")
            out.update({f"{k}{TUPLE_SEP}{i}": x for i, x in enumerate(v)})
        else:
            out[k] = v
    return out


def tuple_constexprs(flat: dict, constexprs: set[str]) -> set[str]:
    """The names ``flatten_tuples`` gave a constexpr tuple's elements (`SHAPE__0`, ..): constexprs themselves."""
    return {q for q in flat if q not in constexprs and TUPLE_SEP in q and q.rsplit(TUPLE_SEP, 1)[0] in constexprs}


def describe(params: list[str], constexprs: set[str], bound: dict) -> list[dict]:
    """Each argument's description. Triton specializes a string constexpr (`ACTIVATION="gelu"`) and a None argument
    (an unused pointer) like constexprs: both are recorded as constants (the lowering folds the branches they decide
    and drops them from the lowered kernel); a dtype constexpr (`OUT_DTYPE=tl.float16`) as `"tl.fp16"`."""
    out = []
    flat = flatten_tuples(bound, constexprs)
    constexprs = constexprs | tuple_constexprs(flat, constexprs)
    for name in [q for p in params for q in ([p] if p in flat else
                                           [k for k in flat if k.startswith(p + TUPLE_SEP)])]:
        v = flat[name]
        if v is None or (name in constexprs and isinstance(v, str)):
            out.append({"name": name, "kind": "constant", "value": v})
        elif name in constexprs and type(v).__name__ == "dtype" and isinstance(getattr(v, "name", None), str):
            # a triton.language dtype (`OUT_DTYPE=tl.float16`): recorded by its name, which the lowering resolves
            out.append({"name": name, "kind": "constant", "value": f"tl.{v.name}"})
        elif is_descriptor(v):
            out.append(describe_descriptor(name, v))
        elif callable(getattr(v, "data_ptr", None)) and hasattr(v, "dtype") and array_facts(v) is None:
            # Triton takes any object with data_ptr() and dtype as a pointer; an array's description needs more
            raise CaptureError(f"argument {name}: a {type(v).__name__} with data_ptr() and dtype but no shape and "
                               "strides, which Triton takes as a bare pointer; the capture records an array's shape "
                               "and strides (pass the tensor, or give the object .shape and .stride())")
        else:
            out.append(describe_arg(name, v, name in constexprs, "constexpr", "64-bit scalars are not lowered",
                                    strict=False)[1])
    return out


def is_descriptor(v: Any) -> bool:
    """A host-side ``triton.tools.tensor_descriptor.TensorDescriptor`` (by shape, so no triton import is needed)."""
    return all(hasattr(v, a) for a in ("base", "shape", "strides", "block_shape")) and not callable(v)


def describe_descriptor(name: str, d: Any) -> dict:
    """A tensor descriptor argument: an array (its base tensor's dtype and alignment, the descriptor's shape and
    strides) plus the block shape its loads and stores move (set by the host, or by an autotune config's hook)."""
    facts = array_facts(d.base)
    if facts is None:
        raise CaptureError(f"argument {name}: a tensor descriptor over a {type(d.base).__name__}, not a tensor")
    return {"name": name, "kind": "array", "dtype": facts.dtype, "shape": [int(x) for x in d.shape],
            "strides": [int(x) for x in d.strides], "data_ptr_mod_16": facts.data_ptr % 16,
            "descriptor": {"block_shape": [int(x) for x in d.block_shape],
                           "padding": str(getattr(d, "padding", "zero"))}}


def grid_of(grid: Any, bound: dict) -> list[int]:
    return list(grid_extents(grid(bound) if callable(grid) else grid, "a Triton launch"))


def jit_params(jit: Any) -> tuple[list[str], set[str], dict[str, Any]]:
    """(parameter names, constexpr names, declared defaults) of a triton JITFunction, as ``bind`` takes them."""
    return (list(jit.arg_names), {p.name for p in jit.params if p.is_constexpr},
            {p.name: p.default for p in jit.params if getattr(p, "has_default", False)})


def record(rec: Any, jit: Any, grid: Any, args: tuple, kwargs: dict, compiled: bool = False) -> None:
    """Add one launch of ``jit`` (a triton JITFunction) to the cuTile recorder ``rec`` (``compiled``: through a
    compiled kernel's handle, which takes every parameter positionally, constexprs included)."""
    fn = jit.fn
    params, constexprs, defaults = jit_params(jit)
    source = inspect.getsourcefile(fn) or "<unknown>"
    try:
        if compiled and len(args) != len(params):
            # (Triton's launcher parses the whole signature: "function takes exactly N arguments")
            raise LaunchRejected(f"a compiled kernel's launch takes all {len(params)} parameters positionally, "
                                 f"constexprs included ({', '.join(params)}); {len(args)} given")
        if compiled and not (isinstance(grid, (tuple, list)) and len(grid) >= 3):
            # (CompiledKernel's runner reads grid[0], grid[1], grid[2]: a shorter grid is an IndexError there)
            raise LaunchRejected(f"a compiled kernel's grid is read as grid[0], grid[1], grid[2]: {grid!r} (give "
                                 "all three extents, e.g. (n, 1, 1))")
        bound, options = bind(params, constexprs, args, kwargs, defaults)
        g = grid_of(grid, bound)
    except LaunchRejected as exc:   # Triton raises too: raised in the host code, after noting it
        raise rec.reject(fn, exc, " (triton)") from None
    try:
        described = describe(params, constexprs, bound)
    except CaptureError as exc:
        rec.errors.append(f"{fn.__qualname__} (triton): {exc}")
        return
    text = "; ".join(_short(d) for d in described)
    key = (source, fn.__qualname__, tuple(g), text, tuple(sorted(options.items())))
    if key in rec.launches:
        rec.launches[key]["count"] += 1
        return
    spec = specialization(bound, constexprs, described, dtype_compared(fn))
    closure = closure_constexprs(fn)
    rec.launches[key] = {"frontend": "triton", "kernel": f"{source}::{fn.__name__}", "qualname": fn.__qualname__,
                         **({"specialize": spec} if spec else {}), **({"closure": closure} if closure else {}),
                         "source": source, "line": inspect.getsourcelines(fn)[1], "grid": g,
                         "signature": text, "args": described, "options": options, "count": 1,
                         **({"autotune": dict(_AUTOTUNING[-1])} if _AUTOTUNING else {})}


def closure_constexprs(fn: Any) -> dict:
    """The constexpr values a kernel made by a factory reads from its closure (`SCALE = tl.constexpr(scale)` in
    `make(scale)`, then `@triton.jit def k(..): .. * SCALE`; Triton 3.6 takes closure and global values only as
    constexprs): free variable → its bool / int / float value, for the lowering to read as a module constant."""
    out: dict = {}
    for name, cell in zip(getattr(fn.__code__, "co_freevars", ()), getattr(fn, "__closure__", None) or ()):
        try:
            value = cell.cell_contents
        except ValueError:   # (an empty cell)
            continue
        if type(value).__name__ == "constexpr" and hasattr(value, "value"):
            value = value.value
            if type(value) in (bool, int, float):
                out[name] = value
    return out


def specialization(bound: dict, constexprs: set[str], described: list[dict],
                   compared: frozenset[str] = frozenset()) -> dict:
    """What a launch fixes that the lowered kernel cannot take as a parameter: each pointer (not a constexpr) passed
    None (an optional bias, a residual), None; each dtype constexpr (``OUT_DTYPE=tl.float16``), its name; each
    pointer whose element type the kernel compares (``compared``: ``if x_ptr.dtype.element_ty == tl.float16:``),
    its array's dtype (Triton compiles the kernel per dtype, the comparison a constant in each). Launches of one
    kernel that differ here are kernels of their own to port (``split_specializations``)."""
    out: dict = {p: None for p, v in bound.items() if v is None and p not in constexprs}
    for d in described:
        if d["kind"] == "constant" and isinstance(d["value"], str) and d["value"].startswith("tl.") and \
                d["name"] in constexprs and type(bound.get(d["name"])).__name__ == "dtype":
            out[d["name"]] = d["value"]
        elif d["kind"] == "array" and d["name"] in compared and not d.get("descriptor"):
            out[d["name"]] = d["dtype"]
    return out


@functools.lru_cache(maxsize=None)
def dtype_compared(fn: Any) -> frozenset[str]:
    """The parameters of the Triton function ``fn`` whose element type its body decides on: ``P.dtype.element_ty``
    (or ``P.type.element_ty``) an operand of ``==`` / ``!=``, or asked for a property (``.primitive_bitwidth``,
    ``.is_fp8()``); every parameter when a tile's dtype is (``x.dtype == tl.float16``, ``x.dtype.is_floating()``:
    which array it came from is not read here — only those whose dtype varies between launches split them)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return frozenset()
    fdef = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)), None)
    if fdef is None:
        return frozenset()
    params = {a.arg for a in fdef.args.args}

    def dtype_of(e: ast.AST) -> str | None:
        """``P`` of ``P.dtype.element_ty`` / ``P.type.element_ty``; ``*`` of ``x.dtype`` (x not a parameter)."""
        if isinstance(e, ast.Attribute) and e.attr == "element_ty" and isinstance(e.value, ast.Attribute) and \
                e.value.attr in ("dtype", "type") and isinstance(e.value.value, ast.Name):
            return e.value.value.id
        if isinstance(e, ast.Attribute) and e.attr == "dtype" and isinstance(e.value, ast.Name) and \
                e.value.id not in params:
            return "*"
        return None

    names: set[str] = set()
    for node in ast.walk(fdef):
        if isinstance(node, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
            names |= {p for e in (node.left, *node.comparators) if (p := dtype_of(e)) is not None}
        elif isinstance(node, ast.Attribute) and (node.attr in ("primitive_bitwidth", "itemsize") or
                                                  node.attr.startswith("is_")):
            if (p := dtype_of(node.value)) is not None:
                names.add(p)
    return frozenset(params if "*" in names else names)


def _part(key: str, value: object) -> str:
    return f"{key}={'None' if value is None else str(value).removeprefix('tl.')}"


def specialized_name(name: str, spec: dict, varying: list[str] | tuple[str, ...]) -> str:
    """``NAME[b_ptr=None]``, ``NAME[OUT_DTYPE=fp16]``: the name of a Triton kernel's launches whose specialization
    (``specialization``) differs from other launches' in the keys ``varying``; ``NAME`` when none varies."""
    parts = [_part(k, spec[k]) for k in varying if k in spec]
    return f"{name}[{','.join(parts)}]" if parts else name


def varying_keys(specs: list[dict]) -> list[str]:
    """The specialization keys the launches of one kernel disagree on (present in some only, or with other
    values), in first-seen order."""
    keys = list(dict.fromkeys(k for s in specs for k in s))
    missing = object()
    return [k for k in keys if len({repr(s.get(k, missing)) for s in specs}) > 1]


def split_specializations(launches: list[dict]) -> list[dict]:
    """The launches, each Triton kernel whose launches disagree on their specialization named per specialization
    (``specialized_name``); a kernel whose launches agree keeps its name."""
    specs: dict[str, list[dict]] = {}
    for launch in launches:
        if launch.get("frontend") == "triton":
            specs.setdefault(launch["kernel"], []).append(launch.get("specialize", {}))
    varying = {k: varying_keys(v) for k, v in specs.items()}
    out = []
    for launch in launches:
        if varying.get(launch["kernel"]):
            src, _, name = launch["kernel"].rpartition("::")
            name = specialized_name(name, launch.get("specialize", {}), varying[launch["kernel"]])
            launch = dict(launch, kernel=f"{src}::{name}")
        out.append(launch)
    return out


def matches_specialization(name: str, spec: dict) -> int | None:
    """How many parts of a specialized name (``NAME[b_ptr=None]``) a launch's specialization meets: None when one
    fails (a runner picks the port whose parts all hold, the most of them)."""
    inside = name.partition("[")[2].rstrip("]")
    parts = [p for p in inside.split(",") if p]
    for p in parts:
        key = p.partition("=")[0]
        if key not in spec or _part(key, spec[key]) != p:
            return None
    return len(parts)


def base_name(name: str) -> str:
    """A captured kernel name without its specialization (``NAME[B=None]``, ``NAME@LINE~DIGEST``): the function's."""
    return name.split("[", 1)[0].split("@", 1)[0]


def _short(d: dict) -> str:
    if d["kind"] == "array":
        return f"{d['name']}={d['dtype']}{d['shape']}/{d['strides']}"
    return f"{d['name']}={d['value']!r}"


#: the autotuner launching now (its configs and the one taken), for the launch it records
_AUTOTUNING: list[dict] = []


def install(rec: Any, after: Any = None, live: bool = False, recorded: Any = None) -> Any:
    """Patch triton (when importable) so launches go to ``rec``; returns a function that undoes it. An autotuned
    kernel (`@triton.autotune`) times nothing here: it launches its first config (after its pruning), and the
    launch says so (`autotune`: configs, taken). With ``after``, each launch is recorded into a fresh recorder of
    ``rec``'s type and handed to ``after`` (a corpus capture collects launches as they are made). ``live`` (on a
    GPU): each launch is recorded, then runs, and autotuners run their own search (every config they time is
    recorded, and so is the winner's launch). ``recorded(jit, grid, args, kwargs)`` is called after each launch
    is recorded (a corpus capture runs it in Triton's interpreter, or notes what it would write)."""
    try:
        from triton.runtime.autotuner import Autotuner
        from triton.runtime.jit import JITFunction
    except ImportError:
        return lambda: None
    saved, saved_tune = JITFunction.run, Autotuner.run

    def launch(jit: Any, grid: Any, args: tuple, kwargs: dict, runs_here: bool = False,
               compiled: bool = False) -> None:
        if after is None:
            record(rec, jit, grid, args, kwargs, compiled)
        else:
            fresh = type(rec)()
            try:
                record(fresh, jit, grid, args, kwargs, compiled)
            finally:   # (a launch Triton refuses is collected too, then raised in the host code)
                after(fresh)
        if recorded is not None and not runs_here:
            recorded(jit, grid, args, kwargs)

    def live_run(self, *args, grid, warmup, **kwargs):  # Triton's own signature
        if not warmup:
            launch(self, grid, args, kwargs)
        return saved(self, *args, grid=grid, warmup=warmup, **kwargs)

    def fake_run(self, *args, grid, warmup, **kwargs):  # Triton's own signature
        handle = Compiled(self, {k: v for k, v in kwargs.items() if k in OPTIONS}, launch, args, kwargs)
        if warmup:  # kernel.warmup(...): compiled ahead, launched later through the handle it returns
            return handle
        launch(self, grid, args, kwargs)
        return handle   # (a launch returns its compiled kernel too: host code reads n_regs, relaunches it)

    def first_config(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        try:
            configs = self.prune_configs(kwargs) if len(self.configs) > 1 else self.configs
        except Exception:  # noqa: BLE001 — a pruning model that needs a GPU: the declared order
            configs = self.configs
        config = configs[0]
        self.best_config = config   # (what host code reads after a launch: the "winner", the config taken)
        if config.pre_hook is not None:
            config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
        _AUTOTUNING.append({"configs": len(self.configs), "taken": str(config)})
        try:
            return self.fn.run(*args, **kwargs, **config.all_kwargs())
        finally:
            _AUTOTUNING.pop()
            self.nargs = None

    JITFunction.run = live_run if live else fake_run
    if not live:
        Autotuner.run = first_config

    # host code that sets TRITON_INTERPRET=1 (a project's CPU CI: `os.environ.setdefault("TRITON_INTERPRET", "1")` in
    # its conftest) makes its kernels InterpretedFunctions, whose launches bypassed JITFunction.run and were not
    # recorded: recorded as the JITFunction the kernel is on a GPU, then run by the interpreter as the host code asked
    # (its outputs are the kernel's); the capture's own interpreter runs (tritonrun) are not launches of the host's
    try:
        from triton.runtime.interpreter import InterpretedFunction
    except Exception:  # noqa: BLE001 — (no interpreter in this Triton)
        InterpretedFunction = None
    saved_interp = getattr(InterpretedFunction, "run", None)

    def interpreted_run(self, *args, grid, warmup, **kwargs):  # Triton's own signature
        if not warmup and not getattr(self, "tileport_runner", False):
            jit = self.__dict__.get("tileport_jit")
            if jit is None:
                jit = self.__dict__["tileport_jit"] = JITFunction(self.fn, **getattr(self, "kwargs", {}))
            launch(jit, grid, args, kwargs, runs_here=True)
        return saved_interp(self, *args, grid=grid, warmup=warmup, **kwargs)

    if saved_interp is not None:
        InterpretedFunction.run = interpreted_run

    def undo() -> None:
        JITFunction.run = saved
        Autotuner.run = saved_tune
        if saved_interp is not None:
            InterpretedFunction.run = saved_interp

    return undo


class Compiled:
    """What ``kernel.warmup(...)`` returns here: ``compiled[grid](*args)`` records a launch of the kernel with the
    warmup's options (every parameter passed positionally, constexprs included, as Triton's compiled kernels take
    them; another count is refused, as Triton's launcher refuses it) at the constexpr values it was compiled for
    (what the GPU runs: the launcher ignores those passed). Its register, spill and shared-memory figures are stated
    guesses (``GUESSED``): nothing was compiled."""

    #: what host code reads off a compiled kernel to size its grid (a small kernel's figures on sm_90; host code
    #: divides by the shared size, so it is not 0)
    GUESSED = {"n_regs": 32, "n_spills": 0, "shared": 1024}

    def __init__(self, jit: Any, options: dict, launch: Any, args: tuple = (), kwargs: dict | None = None):
        self._jit, self._options, self._launch = jit, options, launch
        params, constexprs, defaults = jit_params(jit)
        try:   # the constexpr values it was compiled for
            bound = bind(params, constexprs, args, kwargs or {}, defaults)[0]
            self._baked = {p: bound[p] for p in constexprs}
        except LaunchRejected:   # (its warmup's own call Triton refuses: raised there; its launches as given)
            self._baked = {}
        self.n_regs, self.n_spills = self.GUESSED["n_regs"], self.GUESSED["n_spills"]
        self.metadata = types.SimpleNamespace(shared=self.GUESSED["shared"], num_warps=options.get("num_warps", 4),
                                              num_stages=options.get("num_stages", 3))
        # its listings (`h.asm["ptx"]`, which host code prints or searches): empty, nothing was compiled
        self.asm = dict.fromkeys(("ttir", "ttgir", "llir", "ptx", "cubin"), "")

    def _init_handles(self) -> None:
        pass

    def __getitem__(self, grid: Any) -> Any:
        def run(*args: Any, stream: Any = None) -> None:
            names = self._jit.arg_names
            if len(args) == len(names):
                args = tuple(self._baked.get(p, a) for p, a in zip(names, args))
            self._launch(self._jit, grid, args, dict(self._options), compiled=True)
        return run


# ---------------------------------------------------------------- the lowered kernel's launch

def kinds_of(described: list[dict]) -> tuple[dict[str, str], dict[str, str]]:
    """(parameter → array/scalar/constant, scalar or constant → int/float/bool) for the lowering."""
    kinds, types = {}, {}
    for d in described:
        kinds[d["name"]] = d["kind"]
        if d["kind"] != "array":
            v = d["value"]
            types[d["name"]] = ("bool" if isinstance(v, bool) else "float" if isinstance(v, float) else
                                "str" if isinstance(v, str) else "none" if v is None else "int")
    return kinds, types


def lowered_launch(launch: dict, report: dict, lowered_ref: str) -> dict:
    """A cuTile-style launch record of the lowered kernel for this Triton launch (signature over the views)."""
    by_name = {d["name"]: d for d in launch["args"]}
    values = {d["name"]: d["value"] for d in launch["args"] if d["kind"] != "array"}
    for d in launch["args"]:   # a tensor descriptor's view: its shape and strides
        if d.get("descriptor"):
            values |= descriptor_values(d["name"], d["shape"], d["strides"])
    values |= string_codes(report["params"], values)
    params, described = [], []
    file, _, name = lowered_ref.rpartition("::")
    constants = {p["name"]: values[p["name"]] for p in report["params"] if p["kind"] == "constant"}
    for p in report["params"]:
        d = by_name[p["name"]]
        if p["kind"] == "array":
            view = View.from_json(report["views"][p["name"]]) if p["name"] in report["views"] else None
            shape, strides = tuple(d["shape"]), tuple(d["strides"])   # (a pointer never dereferenced: as it is)
            if view is not None:
                try:
                    shape, strides = view_layout(view, d["shape"], d["strides"], values)
                except ViewError:   # (a pointer only a constexpr branch this launch skips reads: as it is)
                    if len(view.dims) != len(shape) or reads_at(Path(file).read_text(), name, p["name"], constants):
                        raise   # (of another rank than the view's, it would change the entry's parameter type)
            facts = ArrayFacts(d["dtype"], shape, strides, d["data_ptr_mod_16"])
            # (calling convention v1, no static extents: the lowered kernel's views are tileport's, not launched
            # by ct.launch, whose extent-1 rule (arrays.static_shape) is left out here until checked for them)
            params.append((p["name"], array_sig(facts, v2=False)))
            described.append({"name": p["name"], "kind": "array", "dtype": d["dtype"], "shape": list(shape),
                              "strides": list(strides), "data_ptr_mod_16": d["data_ptr_mod_16"]})
        elif p["kind"] == "constant":
            value = p["codes"][d["value"]] if "codes" in p else d["value"]   # a string constexpr: its code
            params.append((p["name"], ConstSig(value)))
            described.append(dict(d, value=value))
        else:
            params.append((p["name"], ScalarSig(d["dtype"])))
            described.append(dict(d))
    sig = Signature(tuple(params))
    # kernel options a hints file gives this launch (frontends/triton/launch_hints.py): its own variant, as a
    # cuTile launch through kernel.replace_hints(..) is
    hints = launch_hints(report, constexpr_values(launch))
    return {"kernel": lowered_ref, "qualname": name, "source": file, "line": 0, "grid": launch["grid"],
            "signature": sig.text(), "args": described, "count": launch.get("count", 1),
            **({"hints": hints} if hints else {}),
            "from_triton": {"kernel": launch["kernel"], "options": launch.get("options", {})}}

