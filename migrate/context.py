"""What every rule sees of one file, whatever its language: bytes, positions, options, target."""
from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass
from functools import cached_property

from migrate.model import Edit, Span
from migrate.options import Options
from migrate.packs import Packs, version_tuple


def newline_of(data: bytes) -> str:
    """The line end a file uses: CRLF when its first 64 KiB hold one, else LF."""
    return "\r\n" if b"\r\n" in data[:65536] else "\n"


@dataclass(frozen=True)
class Unread:
    """A part of a file left unchanged because its parser could not read it: `what` names it ("LABEL
    instruction"), `line`/`column` where it starts, `places` ((line, column), at most 5) where the parser failed."""

    what: str
    line: int
    column: int
    places: tuple[tuple[int, int], ...]


class FileContext:
    parser = "tree-sitter"  # named in parse-error messages

    def __init__(self, path: str, data: bytes, options: Options, packs: Packs, target: str):
        self.path = path
        self.data = data
        self.options = options
        self.packs = packs
        self.target = target  # the HIP version migrated for, "major.minor"
        self.target_tuple = version_tuple(target)
        self.newline = newline_of(data)
        self.memo: dict[str, object] = {}  # what helper modules work out once per file for several rules

    @cached_property
    def targets(self) -> tuple[str, ...]:
        """The AMD targets written into build files: --offload-arch, else those of the HIP version migrated for
        (gfx942 from HIP 6 on, gfx90a and gfx940 before)."""
        from migrate.targets import defaults_for

        return self.options.offload_arch or defaults_for(self.target)

    def once(self, key: str, compute):
        """`compute(self)`, worked out the first time any rule asks for `key` in this file."""
        if key not in self.memo:
            self.memo[key] = compute(self)
        return self.memo[key]

    @cached_property
    def line_starts(self) -> array:
        """Where each line starts, as an array (a list of ints took 37 bytes a line: more than a Makefile's line)."""
        starts = array("i" if len(self.data) < 2**31 else "q", [0])
        starts.extend(m.end() for m in re.finditer(b"\n", self.data))
        return starts

    def span(self, start: int, end: int) -> Span:
        line = bisect.bisect_right(self.line_starts, start)
        column = start - self.line_starts[line - 1] + 1
        return Span(self.path, start, end, line, column)

    def text(self, start: int, end: int) -> str:
        """The source text of [start, end), bytes that are not UTF-8 kept as surrogate escapes, as edits write them
        back (`migrate.edits.readable` makes it printable)."""
        return self.data[start:end].decode("utf-8", "surrogateescape")

    def separated(self, edit: Edit) -> Edit:
        """`edit` as the file needs it so that its text does not run into a neighbouring word; as it is by
        default."""
        return edit

    def parse_errors(self) -> list[tuple[int, int]]:
        """(line, column) of places the file's parser could not make sense of; none by default."""
        return []

    def unread(self) -> tuple[Unread, ...]:
        """Parts of the file its parser could not read and that were left unchanged, each reported on its own while
        the rest of the file is migrated (a Dockerfile's instruction); none by default."""
        return ()

    def unreached(self, start: int) -> bool:
        """Whether the byte `start` lies in code that never runs on ROCm (findings there are left out); never by
        default."""
        return False

    def parse_advice(self) -> str:
        """What to do about the parse errors, for the message that reports them."""
        return "fix the syntax and run again"
