"""Unified diffs of a migration (difflib), colored with rich on a terminal."""
from __future__ import annotations

import difflib

from migrate.model import MigrationResult


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "surrogateescape").splitlines(keepends=True)


def unified(result: MigrationResult) -> str:
    chunks = []
    for r in result.files:
        if r.old is None or r.new is None or r.old == r.new:
            continue
        diff = difflib.unified_diff(_lines(r.old), _lines(r.new), f"a/{r.path}", f"b/{r.path}")
        for line in diff:
            chunks.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(chunks)


def print_colored(text: str, console) -> None:
    from rich.syntax import Syntax

    console.print(Syntax(text, "diff", theme="ansi_dark", background_color="default", word_wrap=False))
