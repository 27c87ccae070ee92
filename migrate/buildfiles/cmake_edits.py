"""Placing the lines the CMake rules insert and delete: a command's indentation, a line inserted after it, a
command or a run of arguments deleted with the blanks around it."""
from __future__ import annotations

import re
from typing import Sequence

from migrate.buildfiles.cmake import Arg, CMakeContext, Command
from migrate.edits import decoded
from migrate.model import Edit


def line_start(data: bytes, pos: int) -> int:
    return data.rfind(b"\n", 0, pos) + 1


def line_end(data: bytes, pos: int) -> int:
    """The offset of the newline ending the line that holds `pos` (or the end of the data)."""
    end = data.find(b"\n", pos)
    return len(data) if end < 0 else end


def indentation(ctx: CMakeContext, command: Command) -> str:
    start = line_start(ctx.data, command.start)
    prefix = ctx.data[start:command.start]
    return decoded(prefix) if not prefix.strip() else ""


def insert_after(ctx: CMakeContext, command: Command, lines: Sequence[str]) -> Edit:
    """Put `lines` on lines of their own after the line where `command` ends, indented like it; just after the
    command when more than a comment follows it on that line (another command, which the lines would go inside)."""
    at = line_end(ctx.data, command.end)
    if ctx.data[at - 1:at] == b"\r":
        at -= 1
    rest = ctx.data[command.end:at].strip()
    if rest and not rest.startswith(b"#"):
        at = command.end
    pad = indentation(ctx, command)
    return Edit(at, at, "".join(ctx.newline + pad + line for line in lines))


def delete_command(ctx: CMakeContext, command: Command) -> Edit:
    """Remove a command; with its whole line when nothing else is on it."""
    start, end = command.start, command.end
    first = line_start(ctx.data, start)
    last = line_end(ctx.data, end)
    if not ctx.data[first:start].strip() and not ctx.data[end:last].strip():
        return Edit(first, min(last + 1, len(ctx.data)), "")
    while start > first and ctx.data[start - 1:start] in (b" ", b"\t"):
        start -= 1
    return Edit(start, end, "")


def name_span(command: Command) -> tuple[int, int]:
    """The bytes of the command's name as written."""
    return command.start, command.start + len(command.name)


# in a run of arguments: a quoted argument, an escape, a comment, or a parenthesis of a nested group (group 1)
GROUPING = re.compile(rb'"(?:\\.|[^"\\])*"|\\.|#[^\r\n]*|([()])')


def delete_args(ctx: CMakeContext, first: Arg, last: Arg) -> Edit:
    """Remove arguments first..last with the blank space before them, but the line end after a line holding a `#`
    (a comment there would take in the rest of the command, its closing parenthesis too), and the parentheses of
    nested groups among them (`a (b c) d`), so that the command's parentheses still pair."""
    data, start = ctx.data, first.start
    while start > 0 and data[start - 1:start] in (b" ", b"\t", b"\n", b"\r"):
        if data[start - 1:start] in (b"\n", b"\r"):
            end = start - 2 if data[start - 2:start] == b"\r\n" else start - 1
            if b"#" in data[max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end)) + 1:end]:
                break
        start -= 1
    kept = b"".join(m.group(1) for m in GROUPING.finditer(data, start, last.end) if m.group(1))
    return Edit(start, last.end, kept.decode())
