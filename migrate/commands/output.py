"""--output-format for every command that prints, with its choices read from the format table (migrate/formats),
and where the rendered text goes: standard output (a text format gets the terminal's width and colours), standard
error, or a file.

Everything a command prints as its result goes through `put` (or is written inside `printing`): text is encoded as
UTF-8 with each byte of a name that is not UTF-8 written back as itself (os.fsdecode's surrogates), whatever the
locale or PYTHONIOENCODING says, and an OSError writing it (a full disk, a closed pipe, a read-only file system) is
the output's: one line naming where and what the system said, exit status 3 (migrate/errors.py).
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from migrate import api, errors, formats
from migrate.files import atomic_write
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
    put(text, output, to_stderr)


def put(data: str | bytes, output: Path | None = None, to_stderr: bool = False) -> None:
    """`data` on standard output (standard error with `to_stderr`), or into the file `output` (`-`: standard
    output) whole or not at all: an existing file is replaced only once the new one is complete."""
    raw = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    if output is None or str(output) == "-":
        with printing(to_stderr):
            stream = sys.stderr if to_stderr else sys.stdout
            stream.flush()
            stream.buffer.write(raw)
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(output, raw)
    except OSError as exc:
        raise errors.output_error(exc, output, f"{output} was left as it was") from None


@contextmanager
def printing(to_stderr: bool = False):
    """The block's writes to standard output (or error), flushed at its end; an OSError among them is the output's.
    The stream is then pointed at /dev/null, so that Python's own flush at exit does not fail a second time."""
    stream = sys.stderr if to_stderr else sys.stdout
    where = "standard error" if to_stderr else "standard output"
    try:
        yield
        stream.flush()
    except OSError as exc:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
        except (OSError, ValueError, AttributeError):
            pass  # not a file descriptor (a test's capture): nothing is flushed at exit
        raise errors.output_error(exc, where, "what was printed is incomplete") from None
