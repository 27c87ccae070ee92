"""--output-format for every command that prints, with its choices read from the format table (migrate/formats),
and where the rendered text goes: standard output (a text format gets the terminal's width and colours), standard
error, or a file."""
from __future__ import annotations

from pathlib import Path

import click

from migrate import api, formats
from migrate.render.console import new_console


class FormatChoice(click.Choice):
    """The formats that render `view`, read from the table when the command runs (a registered one included)."""

    def __init__(self, view: str):
        self.view = view
        super().__init__((), case_sensitive=True)

    @property
    def choices(self):
        return formats.names(self.view)

    @choices.setter
    def choices(self, value) -> None:
        pass  # always the table's


def output_format(view: str, help: str | None = None):
    return click.option("--output-format", type=FormatChoice(view), default="text", show_default=True, help=help)


def emit(view: str, fmt: str, model, *, command: str = "", statistics: bool = False, output: Path | None = None,
         to_stderr: bool = False, plain_width: int | None = None) -> None:
    """Render `model` as `fmt` (with the code table, for a view that names codes) and write it. On a terminal the
    text takes its width and colours; elsewhere it is plain, `plain_width` columns wide (default: what rich takes for
    a console that is not a terminal); into a file, plain and 160 columns wide."""
    console = new_console(stderr=to_stderr)
    if output is not None and str(output) != "-":
        width, color = 160, False
    elif console.is_terminal:
        width, color = console.width, True
    else:
        width, color = plain_width or console.width, False
    codes = api.codes() if view in formats.CODED else {}
    text = formats.render(fmt, view, model, formats.Context(command, statistics, width, color, codes))
    if output is not None and str(output) != "-":
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False, err=to_stderr)
