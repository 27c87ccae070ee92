"""Makefiles as logical lines (continuations joined) split into words with byte spans.

Make has no tree-sitter grammar on PyPI; this reads it the way make does: a line ending in a backslash
continues, `#` starts a comment outside recipes, a recipe line starts with a tab, an assignment is
`NAME op value`, and words are split on blanks, keeping `$(...)`/`${...}` references whole.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from migrate.context import FileContext
from migrate.edits import encoded
from migrate.model import Edit

REF = re.compile(r"\$[({]([A-Za-z_][\w.-]*)[)}]")
# make's blanks are ASCII ones: \s of a str pattern would also take \x1c-\x1f, which the byte patterns do not
ASSIGN = re.compile(r"^\s*(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(\?=|:=|::=|\+=|!=|=)", re.ASCII)


@dataclass(frozen=True)
class Word:
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Line:
    start: int  # byte offset of the logical line
    end: int  # end of its last physical line (before the newline)
    kind: str  # "recipe", "assign", "rule", "comment", "other"
    words: tuple[Word, ...]  # of the value (assignments), of the command (recipes), of the whole line otherwise
    variable: str = ""  # the assigned variable
    text: str = ""  # the logical line, continuations joined with a blank


def split_words(data: bytes, start: int, end: int) -> list[Word]:
    """Blank-separated words of data[start:end], `$(...)` kept whole, a `#` comment ending the words;
    backslash-newlines count as blanks."""
    words, i, depth, word_start = [], start, 0, None
    while i < end:
        ch = data[i:i + 1]
        if depth == 0 and ch == b"#" and (i == start or data[i - 1:i] != b"\\"):
            break
        if ch == b"\\" and data[i + 1:i + 2] in (b"\n", b"\r") and depth == 0:
            if word_start is not None:
                words.append(Word(data[word_start:i].decode("utf-8", "surrogateescape"), word_start, i))
                word_start = None
            i += 2
            continue
        if ch in (b" ", b"\t", b"\n", b"\r") and depth == 0:
            if word_start is not None:
                words.append(Word(data[word_start:i].decode("utf-8", "surrogateescape"), word_start, i))
                word_start = None
        else:
            if word_start is None:
                word_start = i
            if ch == b"$" and data[i + 1:i + 2] in (b"(", b"{"):
                depth += 1
                i += 2
                continue
            if ch in (b")", b"}") and depth:
                depth -= 1
        i += 1
    if word_start is not None:
        words.append(Word(data[word_start:i].decode("utf-8", "surrogateescape"), word_start, i))
    return words


class MakeContext(FileContext):
    kind = "make"

    @cached_property
    def lines(self) -> list[Line]:
        data, out, pos, n = self.data, [], 0, len(self.data)
        while pos < n:
            end = pos
            while True:
                nl = data.find(b"\n", end)
                stop = n if nl < 0 else nl
                body = stop - 1 if stop > end and data[stop - 1:stop] == b"\r" else stop
                if body > end and data[body - 1:body] == b"\\" and nl >= 0:
                    end = nl + 1
                    continue
                break
            out.append(self._line(pos, body))
            pos = n if nl < 0 else nl + 1
        return out

    def _line(self, start: int, end: int) -> Line:
        raw = self.data[start:end].decode("utf-8", "surrogateescape")
        text = re.sub(r"\\\r?\n\s*", " ", raw)
        if raw.startswith("\t"):
            return Line(start, end, "recipe", tuple(split_words(self.data, start + 1, end)), text=text)
        if raw.lstrip().startswith("#") or not raw.strip():
            return Line(start, end, "comment" if raw.strip() else "other", (), text=text)
        m = ASSIGN.match(raw)
        if m:
            value_start = start + len(encoded(raw[:m.end()]))
            return Line(start, end, "assign", tuple(split_words(self.data, value_start, end)), m.group(1), text)
        kind = "rule" if re.match(r"^[^=#]*?:(?!=)", raw) else "other"
        return Line(start, end, kind, tuple(split_words(self.data, start, end)), text=text)


def drop(data: bytes, floor: int, start: int, end: int) -> Edit:
    """Delete [start, end) and the blanks and backslash-newlines before it (not before `floor`)."""
    s = start
    while s > floor:
        if data[s - 1:s] in (b" ", b"\t"):
            s -= 1
        elif data[s - 2:s] == b"\\\n":
            s -= 2
        elif data[s - 3:s] == b"\\\r\n":
            s -= 3
        else:
            break
    return Edit(s, end, "")


def runs_hip_compiler(command: str, assigned: dict[str, list[str]]) -> bool:
    """Whether a recipe's first word runs nvcc or hipcc: by name, or through a variable set to one (or named
    like one: NVCC, HIPCC)."""
    command = command.lstrip("@+-")
    refs = REF.findall(command)
    if refs and REF.sub("", command) == "":
        name = refs[-1]
        if "NVCC" in name.upper() or "HIPCC" in name.upper():
            return True
        words = assigned.get(name)
        return bool(words) and runs_hip_compiler(words[0], {})
    return command.rsplit("/", 1)[-1] in ("nvcc", "hipcc")
