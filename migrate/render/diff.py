"""The unified diffs of a migration (the report model keeps one per changed file), colored with rich on a terminal."""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.model import Migration


def chunks(m: Migration) -> Iterator[str]:
    """The diffs in pieces, as they are made (a huge file's diff is never held whole on its way to a pipe)."""
    for d in m.diffs:
        yield from d.chunks()


def unified(m: Migration) -> str:
    return "".join(chunks(m))


def print_colored(text: str, console) -> None:
    from rich.syntax import Syntax

    console.print(Syntax(text, "diff", theme="ansi_dark", background_color="default", word_wrap=False))
