"""The unified diffs of a migration (the report model keeps one per changed file), colored with rich on a terminal."""
from __future__ import annotations

from migrate.report.model import Migration


def unified(m: Migration) -> str:
    return "".join(d.text for d in m.diffs)


def print_colored(text: str, console) -> None:
    from rich.syntax import Syntax

    console.print(Syntax(text, "diff", theme="ansi_dark", background_color="default", word_wrap=False))
