"""A Dockerfile split into its instructions the way Docker's own parser (BuildKit's frontend) splits it, with the
byte range of each: what a grammar failure is confined to (migrate/deploy/docker_recovery.py).

- Parser directives: `# syntax=...`, `# escape=...`, `# check=...` on the first lines, up to the first line that is
  none (a comment, a blank line, an instruction); `# escape=`` ` makes the backtick the line-continuation character.
- Comment lines (`#` after optional blanks) and blank lines stand between instructions and belong to none.
- An instruction runs over the lines its escape character continues (the escape, then only blanks, at a line's
  end); comment lines and blank lines inside it are skipped as Docker skips them, and belong to it.
- `RUN`, `COPY` and `ADD` (also after `ONBUILD`) in shell form take the bodies of their heredocs (`<<EOF`,
  `<<-EOF`, `<<"EOF"`, `<<'EOF'`, `3<<EOF`, several on one line, read in order) up to each terminator line; `<<-`
  drops the terminator's leading tabs. An unterminated heredoc runs to the end of the file.
- Line ends are `\\n` or `\\r\\n`; a byte order mark before the first line is skipped.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

_DIRECTIVE = re.compile(rb"#[ \t]*([a-zA-Z][a-zA-Z0-9]*)[ \t]*=[ \t]*(.+?)[ \t]*")
_DIRECTIVES = {b"syntax", b"escape", b"check"}
HEREDOC = re.compile(r"(\d*)<<(-?)([^<]*)")
_HEREDOC_KEYWORDS = {"RUN", "COPY", "ADD"}
_HEAD = re.compile(r"[ \t]*(?:ONBUILD[ \t]+)?(\S+)(?:[ \t]+--\S+)*", re.I)  # keyword, then its --flags
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case, as Docker compares it (`RUN`; `ONBUILD` for `ONBUILD RUN ...`)
    start: int  # the first byte of its first line (leading blanks included)
    end: int  # after the line break of its last line, heredoc bodies included (the file's end when it has none)
    lines_end: int  # after the line break of its last instruction line, before any heredoc body
    line: int  # 1-based line of `start`


@dataclass(frozen=True)
class Layout:
    escape: bytes  # b"\\" or b"`"
    instructions: tuple[Instruction, ...]


def _lines(data: bytes) -> list[tuple[int, int, int]]:
    """(start, end of content, end after the line break) of each line; the content has no `\\r\\n` or `\\n`."""
    out = []
    start = len(BOM) if data.startswith(BOM) else 0
    while start < len(data):
        newline = data.find(b"\n", start)
        after = len(data) if newline < 0 else newline + 1
        end = len(data) if newline < 0 else newline
        if end > start and data[end - 1:end] == b"\r":
            end -= 1
        out.append((start, end, after))
        start = after
    return out


def _escape(data: bytes, lines) -> bytes:
    """The escape character the parser directives set (a backslash unless `# escape=``)."""
    escape = b"\\"
    seen = set()
    for start, end, _ in lines:
        match = _DIRECTIVE.fullmatch(data[start:end].lstrip())
        if match is None or match[1].lower() not in _DIRECTIVES or match[1].lower() in seen:
            break
        seen.add(match[1].lower())
        if match[1].lower() == b"escape" and match[2] in (b"\\", b"`"):
            escape = match[2]
    return escape


def _continued(text: bytes, escape: bytes) -> tuple[bytes, bool]:
    """`text` without a line-continuation escape at its end, and whether it had one."""
    stripped = text.rstrip(b" \t")
    if stripped.endswith(escape):
        return stripped[:-1], True
    return text, False


def shell_words(line: str) -> list[str]:
    """The words of `line` split at blanks outside quotes, quotes and backslashes kept (Docker's lexer with raw
    quotes and escapes, which finds heredoc markers)."""
    words, word, quote, i, started = [], [], "", 0, False
    while i < len(line):
        char = line[i]
        if quote:
            word.append(char)
            if char == "\\" and quote == '"' and i + 1 < len(line):
                word.append(line[i + 1])
                i += 1
            elif char == quote:
                quote = ""
        elif char in " \t\r\n":
            if started:
                words.append("".join(word))
            word, started = [], False
        else:
            started = True
            word.append(char)
            if char in "'\"":
                quote = char
            elif char == "\\" and i + 1 < len(line):
                word.append(line[i + 1])
                i += 1
        i += 1
    if started:
        words.append("".join(word))
    return words


def unquoted(word: str) -> str:
    """`word` with its quotes and backslash escapes removed (`"EOF"`, `'EOF'`, `E\\OF` are `EOF`)."""
    out, quote, i = [], "", 0
    while i < len(word):
        char = word[i]
        if quote and char == quote:
            quote = ""
        elif not quote and char in "'\"":
            quote = char
        elif char == "\\" and quote != "'" and i + 1 < len(word):
            i += 1
            out.append(word[i])
        else:
            out.append(char)
        i += 1
    return "".join(out)


def heredocs(joined: str) -> list[tuple[str, bool]]:
    """(terminator, strips leading tabs) of each heredoc an instruction line opens, in order; none in exec form."""
    head = _HEAD.match(joined)
    if head is None or head[1].upper() not in _HEREDOC_KEYWORDS:
        return []
    rest = joined[head.end():].strip()
    if rest.startswith("["):
        try:
            parsed = json.loads(rest)
        except ValueError:
            parsed = None
        if isinstance(parsed, list) and all(isinstance(w, str) for w in parsed):
            return []  # exec form
    found = []
    for word in shell_words(rest):
        match = HEREDOC.fullmatch(word)
        name = unquoted(match[3]) if match else ""
        if name:
            found.append((name, match[2] == "-"))
    return found


def layout(data: bytes) -> Layout:
    """The instructions of a Dockerfile, in order, as Docker reads them."""
    lines = _lines(data)
    escape = _escape(data, lines)
    found: list[Instruction] = []
    i = 0
    while i < len(lines):
        start, end, _ = lines[i]
        text = data[start:end].lstrip(b" \t\f\v\r")
        if not text or text.startswith(b"#"):
            i += 1
            continue
        first = i
        piece, more = _continued(text, escape)
        pieces = [piece]
        while more and i + 1 < len(lines):
            i += 1
            s, e, _ = lines[i]
            line = data[s:e]
            if not line.strip() or line.lstrip().startswith(b"#"):
                continue  # an empty continuation line, or a comment: skipped
            piece, more = _continued(line, escape)
            pieces.append(piece)
        i += 1
        lines_end = lines[i - 1][2]
        joined = b"".join(pieces).decode("utf-8", "surrogateescape")
        for name, tabs in heredocs(joined):
            while i < len(lines):
                s, e, _ = lines[i]
                i += 1
                candidate = data[s:e].lstrip(b"\t") if tabs else data[s:e]
                if candidate == name.encode("utf-8", "surrogateescape"):
                    break
        words = joined.split(None, 1)
        found.append(Instruction(words[0].upper() if words else "", start, lines[i - 1][2], lines_end, first + 1))
    return Layout(escape, tuple(found))
