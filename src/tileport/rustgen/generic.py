"""One entry generic over the element type where a kernel's specializations differ only in dtype.

The translator emits one Rust body per distinct specialization (``pipeline.port.translate``): ``rms_norm_f16``
and ``rms_norm_bf16`` are the same code with ``f16`` and ``bf16``. cutile's own kernels write such a kernel once,
``fn rms_norm<E: ElementType, const BM: i32, ..>``, and its launcher instantiates ``E`` from the launch's
generics (the element type's name first, then the const generics: cutile's ``.generics([...])``). Here the
entries of a kernel whose arrays vary in one dtype ``d`` are written with ``d`` replaced by a type parameter in
their code (types ``Tile<d, ..>``, ``Tensor<d, ..>``, ``d::ZERO``, ``convert_tile::<d>`` and names such as
``out_d``; comments are left as they are); entries whose rewritten text is identical become one generic entry.
Nothing is assumed equivalent: every variant is still compiled from the generic entry at its own element type and
its Tile IR diffed against cuTile Python's (``pipeline.port``), and the C ABI keeps one entry per instantiation
(``ffi.rs`` names the function and its element type).

What stays concrete, and why: a specialization whose body is not the others' with another dtype. The f32 one of
a kernel that computes in f32 (``rms_norm_f32``) is the common case: cuTile Python's ``ct.astype(x, ct.float32)``
of an f32 tile emits nothing, and the translator emits nothing for it either, where the f16 and bf16 bodies
convert; written with ``E`` the conversion would be an identity ``convert_tile`` (which cutile 0.3.1 elides, see
docs/translate.md), but the translator decides conversions on concrete types, so that body is kept apart.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from ..translate.emit import Emitted

#: the element types a generic entry may stand for (cutile's ElementType names, as the translator spells them)
ELEMENT_TYPES = ("f32", "f16", "bf16", "f8e4m3fn", "f8e5m2", "f64", "i32", "i64")


@dataclass
class GenericEntry(Emitted):
    """An entry with type parameters (``types``, each ``: ElementType``) before its const generics; ``members``
    are the concrete entries it stands for, each with its element types."""
    types: list[str] = field(default_factory=list)
    members: list[tuple[str, list[str]]] = field(default_factory=list)


def _type_var(entries: list[Emitted]) -> str:
    """``E``, or another name when a kernel already uses ``E`` (a const generic, a parameter, a local)."""
    words = {w for e in entries for text in (*e.generics, *e.params, *e.body) for w in re.findall(r"\w+", text)}
    return next(n for n in ("Elem", "E", "T", "ElemT") if n not in words)


def _rewrite(text: str, dtype: str, tv: str) -> str:
    """``text`` with the element type ``dtype`` written as ``tv`` in its code (not in a trailing comment)."""
    code, sep, comment = text.partition("//")
    code = re.sub(rf"\b{dtype}\b", tv, code)
    code = re.sub(rf"(?<=[A-Za-z0-9])_{dtype}(?=\b|_)", f"_{tv.lower()}", code)
    return code + sep + comment


def _clean(text: str, dtype: str, tv: str) -> bool:
    """Whether ``text``'s code says nothing the rewrite could confuse with what it writes (so that the generic
    text instantiated at ``dtype`` is the entry's own text, up to local names)."""
    code = text.partition("//")[0]
    if re.search(rf"tile_to_scalar::<{dtype}\b", code):
        return False   # cutile 0.3.1 cannot make a scalar of a type parameter (docs/translate.md): a gather's padding
    return not re.search(rf"\b{tv}\b|_{tv.lower()}(?=\b|_)", code)


def generic_name(entry: str, dtype: str) -> str:
    return re.sub(rf"_{dtype}(?=_|$)", "", entry, count=1)


def merge(entries: list[Emitted], dtypes: list[str | None], descriptions: list[str]) -> list[Emitted]:
    """The Rust entries for ``entries`` (one per distinct specialization): those whose code differs only in the
    element type ``dtypes[i]`` (None: the entry does not vary in one dtype) merged into a ``GenericEntry``, in the
    order of their first member; ``descriptions[i]`` says what entry ``i`` serves (its doc line is
    ``Specialization for DESCRIPTION``)."""
    if len(entries) < 2:
        return list(entries)
    tv = _type_var(entries)
    keys: list[tuple | None] = []
    for e, d in zip(entries, dtypes):
        lines = [*e.params, *e.body]
        if d is None or d not in ELEMENT_TYPES or not all(_clean(t, d, tv) for t in lines):
            keys.append(None)
            continue
        keys.append((tuple(_rewrite(t, d, tv) for t in e.params), tuple(_rewrite(t, d, tv) for t in e.body),
                     tuple(e.generics), tuple(sorted(e.hints.items())),
                     tuple(sorted((k, tuple(sorted(v))) for k, v in e.ops.items())),
                     generic_name(e.entry, d)))
    out: list[Emitted] = []
    done: set[int] = set()
    for i, e in enumerate(entries):
        if i in done:
            continue
        same = [j for j in range(i, len(entries)) if keys[i] is not None and keys[j] == keys[i]]
        if len(same) < 2:
            out.append(e)
            continue
        done.update(same)
        params, body, *_rest, name = keys[i]
        common = e.doc[:-1] if e.doc and e.doc[-1] == f"Specialization for {descriptions[i]}" else e.doc
        doc = [*common, f"Generic over the element type `{tv}`; proven at each specialization:"]
        doc += [f"- `{tv} = {dtypes[j]}`: {descriptions[j]}" for j in same]
        fields = {f.name: getattr(e, f.name) for f in dataclasses.fields(Emitted)}
        fields.update(entry=name, params=list(params), body=list(body), doc=doc,
                      unsafe_sites=[u for j in same for u in entries[j].unsafe_sites])
        out.append(GenericEntry(**fields, types=[tv], members=[(entries[j].entry, [dtypes[j]]) for j in same]))
    names = [o.entry for o in out]
    if len(set(names)) < len(names):   # (a generic name meets a concrete one: keep every entry concrete)
        return list(entries)
    return out
