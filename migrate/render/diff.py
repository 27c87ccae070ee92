"""Unified diffs of a migration (migrate.linediff), colored with rich on a terminal."""
from __future__ import annotations

from migrate.linediff import LineDiff
from migrate.model import MigrationResult


def file_diffs(result: MigrationResult) -> dict[str, LineDiff]:
    """The line diff of every changed file, by path, in the result's order."""
    return {r.path: LineDiff(r.old, r.new) for r in result.files
            if r.old is not None and r.new is not None and r.old != r.new}


def unified(result: MigrationResult) -> str:
    return "".join(d.unified(path) for path, d in file_diffs(result).items())


def print_colored(text: str, console) -> None:
    from rich.syntax import Syntax

    console.print(Syntax(text, "diff", theme="ansi_dark", background_color="default", word_wrap=False))
