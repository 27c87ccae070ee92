"""The conditional directives of a file (`#if`, `#ifdef`, `#ifndef`, `#elif...`, `#else`, `#endif`), read from
the directive lines alone, without parsing: directives in comments are counted too, as the rare price."""
from __future__ import annotations

import bisect
import re
from typing import Iterator

from migrate.edits import decoded

# the directive and its condition (continued lines included)
DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b((?:[^\n\\]|\\\r?\n|\\)*)",
                       re.M)


def directives(data: bytes, end: int | None = None) -> Iterator[tuple[str, str, re.Match]]:
    """(directive word, condition text, match) of each conditional directive before `end`."""
    for m in DIRECTIVE.finditer(data, 0, len(data) if end is None else end):
        yield decoded(m.group(1)), m.group(2).decode("utf-8", "replace").strip(), m


class Branches:
    """The conditional branches (`#if`/`#elif`/`#else` blocks, by the offset of their directive) that each place of a
    file sits in, outermost first: two lines with the same branch are both compiled or both skipped. Worked out in
    one pass over the directives; each question is then a binary search."""

    def __init__(self, data: bytes):
        self.starts: list[int] = []  # offset of each directive
        self.after: list[tuple[int, ...]] = [()]  # the branch after the first i directives
        stack: list[int] = []
        for word, _, m in directives(data):
            if word.startswith("if"):
                stack.append(m.start())
            elif word == "endif":
                if stack:
                    stack.pop()
            elif stack:
                stack[-1] = m.start()
            self.starts.append(m.start())
            self.after.append(tuple(stack))

    def at(self, offset: int) -> tuple[int, ...]:
        """The branch of the text at `offset` (the directives that start before it count)."""
        return self.after[bisect.bisect_left(self.starts, offset)]


def branches(ctx) -> Branches:
    """The file's branches, worked out once however many rules ask."""
    return ctx.once("branches", lambda c: Branches(c.data))
