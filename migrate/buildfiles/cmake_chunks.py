"""Where a large CMake file may be cut so that each piece parses on its own, the way the whole file would.

tree-sitter's tree of a CMake file takes about eighty times the file's bytes. A file is cut at line starts about
`CHUNK` bytes apart, only where nothing is open: no parenthesis of a command invocation, no quoted argument, no
bracket argument or bracket comment, and no block (`if`/`endif`, `foreach`, `while`, `function`, `macro`, `block`).
The scanner reads the file as tree-sitter-cmake does: a `"` opens a quoted argument even inside an unquoted one,
`[[` (or `[=[`...) opens a bracket argument inside an invocation, `#` starts a comment (`#[[` a bracket comment), and
a backslash escapes the next byte. Where it is unsure it finds no cut, and a file with no cut is one piece.
"""
from __future__ import annotations

import re

CHUNK = 16 * 1024

# outside any invocation: comments, a command's name, its opening parenthesis, line ends
TOP = re.compile(rb"#\[(=*)\[|#[^\n]*|([A-Za-z_][A-Za-z0-9_]*)|\(|\n")
# inside an invocation: what can hold a parenthesis that does not count, and the parentheses themselves
INSIDE = re.compile(rb'#\[(=*)\[|#[^\n]*|"(?:\\.|[^"\\])*(?:"|\Z)|\[(=*)\[|\\.|\(|\)', re.S)
OPENERS = {b"if", b"foreach", b"while", b"function", b"macro", b"block"}
CLOSERS = {b"endif", b"endforeach", b"endwhile", b"endfunction", b"endmacro", b"endblock"}


def _bracket_end(data: bytes, m: re.Match, group: int) -> int:
    """Where the bracket opened by `m` (its `=` signs in `group`) closes; the file's end if it never does."""
    end = data.find(b"]" + m.group(group) + b"]", m.end())
    return len(data) if end < 0 else end + len(m.group(group)) + 2


def cuts(data: bytes, chunk: int = CHUNK) -> list[int]:
    """Offsets (line starts, in order, none at 0) where `data` may be cut into pieces of about `chunk` bytes."""
    out: list[int] = []
    pos, last, blocks, name, n = 0, 0, 0, b"", len(data)
    while pos < n:
        m = TOP.search(data, pos)
        if m is None:
            break
        pos = m.end()
        token = m.group()
        if m.group(1) is not None:
            pos = _bracket_end(data, m, 1)
        elif m.group(2) is not None:
            name = token.lower()
        elif token == b"\n":
            if blocks == 0 and pos - last >= chunk and pos < n:
                out.append(pos)
                last = pos
        elif token == b"(":
            if name in OPENERS:
                blocks += 1
            elif name in CLOSERS:
                blocks = max(0, blocks - 1)
            name = b""
            pos = _invocation_end(data, pos)
    return out


def _invocation_end(data: bytes, pos: int) -> int:
    """Just after the parenthesis that closes the invocation whose `(` ends before `pos`; the file's end if none."""
    depth = 1
    while depth:
        m = INSIDE.search(data, pos)
        if m is None:
            return len(data)
        pos = m.end()
        token = m.group()
        if m.group(1) is not None:
            pos = _bracket_end(data, m, 1)
        elif m.group(2) is not None:
            pos = _bracket_end(data, m, 2)
        elif token == b"(":
            depth += 1
        elif token == b")":
            depth -= 1
    return pos
