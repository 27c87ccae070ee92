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
RUN = re.compile(rb"[^ \t\n\r#\\$]+")  # bytes that are a word's own outside references
BLANKS = re.compile(rb"[ \t\n\r]+")
NESTING = re.compile(rb"\$[({]|[)}]")  # what opens and closes references inside one
NONBLANK = re.compile(rb"[^ \t\n\r]+")
SIMPLE_REF = re.compile(rb"\$\([^ \t\n\r#\\$(){}]*\)|\$\{[^ \t\n\r#\\$(){}]*\}")  # holds no blank or reference


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    start: int
    end: int


class Line:
    """A logical line: `start` (byte offset), `end` (end of its last physical line, before the newline), `kind`
    ("recipe", "assign", "rule", "comment", "other"), `variable` (the assigned variable), and, read from the file's
    bytes when first asked for, `words` (of the value for assignments, of the command for recipes, of the whole line
    otherwise) and `text` (the line with continuations joined by a blank); do not change one."""

    __slots__ = ("data", "start", "end", "kind", "variable", "words_from", "_words", "_text")

    def __init__(self, data: bytes, start: int, end: int, kind: str, words_from: int, variable: str = ""):
        self.data, self.start, self.end, self.kind = data, start, end, kind
        self.words_from, self.variable = words_from, variable
        self._words: tuple[Word, ...] | None = None
        self._text: str | None = None

    @property
    def words(self) -> tuple[Word, ...]:
        if self._words is None:
            self._words = tuple(split_words(self.data, self.words_from, self.end)) if self.words_from >= 0 else ()
        return self._words

    @property
    def text(self) -> str:
        if self._text is None:
            raw = self.data[self.start:self.end].decode("utf-8", "surrogateescape")
            self._text = re.sub(r"\\\r?\n\s*", " ", raw)
        return self._text


def split_words(data: bytes, start: int, end: int) -> list[Word]:
    """Blank-separated words of data[start:end], `$(...)` kept whole, a `#` comment ending the words;
    backslash-newlines count as blanks."""
    part = data[start:end]
    if b"#" not in part and b"\\" not in part and (
            b"$" not in part or part.count(b"$(") + part.count(b"${") == len(SIMPLE_REF.findall(part))):
        # no comment, no backslash, and every reference closes before a blank: the words are the runs of non-blanks
        return [Word(m.group().decode("utf-8", "surrogateescape"), m.start(), m.end())
                for m in NONBLANK.finditer(data, start, end)]
    return _split_nested(data, start, end)


def _split_nested(data: bytes, start: int, end: int) -> list[Word]:
    """split_words byte by byte: for a `#`, a backslash, or a reference that holds blanks or another one."""
    words, i, word_start = [], start, None
    while i < end:
        ch = data[i]
        if ch in b" \t\n\r":
            if word_start is not None:
                words.append(Word(data[word_start:i].decode("utf-8", "surrogateescape"), word_start, i))
                word_start = None
            i = BLANKS.match(data, i, end).end()
            continue
        if ch == 35 and (i == start or data[i - 1] != 92):  # a `#` not escaped
            break
        if ch == 92 and data[i + 1:i + 2] in (b"\n", b"\r"):  # a backslash-newline
            if word_start is not None:
                words.append(Word(data[word_start:i].decode("utf-8", "surrogateescape"), word_start, i))
                word_start = None
            i += 2
            continue
        if word_start is None:
            word_start = i
        if ch == 36 and data[i + 1:i + 2] in (b"(", b"{"):
            i = _reference_end(data, i + 2, end)
        elif ch in b"#$\\":
            i += 1
        else:
            i = RUN.match(data, i, end).end()
    if word_start is not None:
        words.append(Word(data[word_start:i].decode("utf-8", "surrogateescape"), word_start, i))
    return words


def _reference_end(data: bytes, i: int, end: int) -> int:
    """Just after what closes the reference opened before `i` (blanks, `#` and nested references inside it);
    `end` if nothing does."""
    depth = 1
    for m in NESTING.finditer(data, i, end):
        depth += 1 if m.group()[0] == 36 else -1
        if depth == 0:
            return m.end()
    return end


def logical_lines(data: bytes) -> tuple[Line, ...]:
    """A Makefile's logical lines, in order."""
    out: list[Line] = []
    pos, n = 0, len(data)
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
        out.append(_line(data, pos, body))
        pos = n if nl < 0 else nl + 1
    return tuple(out)


def _line(data: bytes, start: int, end: int) -> Line:
    raw = data[start:end].decode("utf-8", "surrogateescape")
    kind, words_from, variable = "other", start, ""
    if raw.startswith("\t"):
        kind, words_from = "recipe", start + 1
    elif raw.lstrip().startswith("#") or not raw.strip():
        kind, words_from = "comment" if raw.strip() else "other", -1
    elif m := ASSIGN.match(raw):
        kind, words_from, variable = "assign", start + len(encoded(raw[:m.end()])), m.group(1)
    elif re.match(r"^[^=#]*?:(?!=)", raw):
        kind = "rule"
    return Line(data, start, end, kind, words_from, variable)


class MakeContext(FileContext):
    kind = "make"

    @cached_property
    def lines(self) -> tuple[Line, ...]:
        return logical_lines(self.data)


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
