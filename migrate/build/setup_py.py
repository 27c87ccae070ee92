"""setup.py files (and other Python build scripts) parsed with libcst, for the torch.utils.cpp_extension
rules: calls, keyword arguments and string literals with their byte spans."""
from __future__ import annotations

from functools import cached_property

import libcst as cst
from libcst.metadata import ByteSpanPositionProvider, MetadataWrapper

from migrate.context import FileContext


class SetupContext(FileContext):
    kind = "setup"

    @cached_property
    def wrapper(self) -> MetadataWrapper | None:
        """The parsed module with byte positions, or None when the file is not valid Python."""
        try:
            return MetadataWrapper(cst.parse_module(self.data))
        except (cst.ParserSyntaxError, UnicodeDecodeError):
            return None

    @cached_property
    def positions(self):
        return self.wrapper.resolve(ByteSpanPositionProvider) if self.wrapper else {}

    def byte_span(self, node: cst.CSTNode) -> tuple[int, int]:
        span = self.positions[node]
        return span.start, span.start + span.length

    def parse_errors(self) -> list[tuple[int, int]]:
        if self.wrapper is not None:
            return []
        try:
            cst.parse_module(self.data)
        except cst.ParserSyntaxError as exc:
            return [(exc.raw_line, exc.raw_column + 1)]
        return [(1, 1)]
