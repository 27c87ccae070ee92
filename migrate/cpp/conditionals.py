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


# a comment in a condition, which the preprocessor takes as a space: `#if !defined(X)  // why`
COMMENT = re.compile(r"/\*.*?\*/|//.*", re.S)


def directives(data: bytes, end: int | None = None) -> Iterator[tuple[str, str, re.Match]]:
    """(directive word, condition text without comments, match) of each conditional directive before `end`."""
    for m in DIRECTIVE.finditer(data, 0, len(data) if end is None else end):
        condition = m.group(2).decode("utf-8", "replace")
        if "/" in condition:
            condition = COMMENT.sub(" ", condition)
        yield decoded(m.group(1)), condition.strip(), m


class Branches:
    """The conditional branches that each place of a file sits in, outermost first, each as (the offset of its chain's
    `#if`, the offset of its own `#if`/`#elif`/`#else`): two lines with the same branches are both compiled or both
    skipped, and two in different branches of one chain are never compiled together. Worked out in one pass over the
    directives; each question is then a binary search."""

    def __init__(self, data: bytes):
        self.starts: list[int] = []  # offset of each directive
        self.after: list[tuple[tuple[int, int], ...]] = [()]  # the branches after the first i directives
        stack: list[tuple[int, int]] = []
        for word, _, m in directives(data):
            if word.startswith("if"):
                stack.append((m.start(), m.start()))
            elif word == "endif":
                if stack:
                    stack.pop()
            elif stack:
                stack[-1] = (stack[-1][0], m.start())
            self.starts.append(m.start())
            self.after.append(tuple(stack))
        self.guarded = bool(self.starts) and next(directives(data))[0] == "ifndef"  # an include guard comes first

    def at(self, offset: int) -> tuple[tuple[int, int], ...]:
        """The branches of the text at `offset` (the directives that start before it count)."""
        return self.after[bisect.bisect_left(self.starts, offset)]

    def exclusive(self, a: int, b: int) -> bool:
        """Whether the two places stand in different branches of one chain, so that no compile has both."""
        chains = dict(self.at(b))
        return any(chain in chains and chains[chain] != branch for chain, branch in self.at(a))

    def conditional(self, offset: int) -> bool:
        """Whether the place stands under an `#if` of its own, not only under the file's include guard."""
        depth = len(self.at(offset))
        return depth > 1 or (depth == 1 and not self.guarded)


def branches(ctx) -> Branches:
    """The file's branches, worked out once however many rules ask."""
    return ctx.once("branches", lambda c: Branches(c.data))
