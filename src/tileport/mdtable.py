"""Markdown for the generated docs (coverage table, irdiff rules): one renderer, so both read alike."""
from __future__ import annotations


def render(title: str, generated_by: str, note: str, headers: list[str], rows: list[list[str]],
           footer: list[str] = ()) -> str:
    lines = [f"# {title}", "", f"Generated from `{generated_by}`; do not edit by hand. {note}".rstrip(), "",
             "| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines + ([""] + list(footer) if footer else [])) + "\n"
