"""The conditional directives of a file (`#if`, `#ifdef`, `#ifndef`, `#elif...`, `#else`, `#endif`), read from
the directive lines alone, without parsing: directives in comments are counted too, as the rare price."""
from __future__ import annotations

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


def branch(data: bytes, offset: int) -> tuple[int, ...]:
    """The conditional branches (`#if`/`#elif`/`#else` blocks, by the offset of their directive) that the text at
    `offset` sits in, outermost first: two lines with the same branch are both compiled or both skipped."""
    stack: list[int] = []
    for word, _, m in directives(data, offset):
        if word.startswith("if"):
            stack.append(m.start())
        elif word == "endif":
            if stack:
                stack.pop()
        elif stack:
            stack[-1] = m.start()
    return tuple(stack)
