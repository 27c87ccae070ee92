"""Huge C++ files in pieces, so that memory stays a small multiple of the file's size.

tree-sitter's tree of a C++ file takes about thirty times the file's bytes, so a 20 MB generated file would need
600 MB at once. A file over `THRESHOLD` is cut at top-level places (between declarations, outside any brace other
than a namespace's or an `extern "C"`'s, not inside a comment, string, directive or declaration) into pieces of about
`PIECE` bytes, and each piece goes through the rules on its own, its tree dropped before the next is made.

What a piece must know of the file is put before it: the head of the file as already translated (its includes, the
HIP runtime include and any helper code the rules wrote there, so that they are not written again: a migrated file
migrates to itself), then the open conditional directives and namespaces at the cut, and after it their closing
lines. Only the piece's own edits and findings are kept. When a later piece's rules edit the head (a helper that no
earlier piece needed), or the file has no usable cut, the file is translated whole.
"""
from __future__ import annotations

import bisect
import io
import re
from dataclasses import dataclass, replace
from typing import Callable

from migrate.edits import encoded, splice
from migrate.fixing import Translation, is_input_finding, with_places
from migrate.model import Edit, Finding, Span
from migrate.packed import Packed, compact

PIECE = 64 * 1024
THRESHOLD = 2 * 1024 * 1024

TOKENS = re.compile(rb"""
    (?P<comment>//(?:\\\r?\n|[^\n])*|/\*.*?\*/)
  | (?P<unclosed>/\*)
  | (?P<raw>R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)")
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<directive>^[ \t]*\#[ \t]*(?P<word>\w*)(?:\\\r?\n|[^\n])*)
  | (?P<open>\{) | (?P<close>\}) | (?P<semi>;) | (?P<nl>\n)
""", re.M | re.S | re.X)
SCOPE = re.compile(rb"(?:\bnamespace\b(?:\s+[\w:]+)?|\bextern\s*\"C(?:\+\+)?\")\s*\Z")
# after a closing brace, what says the declaration goes on (`} name;`, `} __attribute__((...));`)
DECLARATOR = re.compile(rb"\s*(?:[;,=)\[]|\w+\s*[;,=\[]|__attribute__|alignas)")
HEAD = re.compile(rb"\A(?:[ \t]*(?://(?:\\\r?\n|[^\n])*|/\*.*?\*/|\#(?:\\\r?\n|[^\n])*)?[ \t]*\r?\n)*", re.S)


@dataclass(frozen=True)
class Cut:
    """A place to cut: the byte offset (a line start), and the lines that reopen and close what is open there."""
    offset: int
    openers: bytes
    closers: bytes


def cuts(data: bytes, piece: int = PIECE, after: int = 0) -> list[Cut]:
    """Places to cut `data` at, about `piece` bytes apart and none before `after`."""
    out: list[Cut] = []
    scopes: list[bytes] = []  # the text that opens each namespace or extern "C" brace now open
    braces = 0  # other braces open
    conditionals: list[list[bytes]] = []  # the directive lines of each open #if chain
    skipped = 0  # open conditionals in an #elif or #else branch: braces there are not counted
    last, last_kind = 0, b""  # end and kind of the last token that ends a declaration
    for m in TOKENS.finditer(data):
        kind = m.lastgroup
        if kind == "nl":
            at = m.end()
            if (at - (out[-1].offset if out else 0) >= piece and at > after and not braces
                    and not data[last:m.start()].strip() and _ends_declaration(data, at, last_kind)):
                out.append(Cut(at, _openers(conditionals, scopes), _closers(conditionals, scopes)))
        elif kind == "unclosed":
            break  # a comment that runs to the end of the file
        elif kind == "directive":
            word = m.group("word")
            if word in (b"if", b"ifdef", b"ifndef"):
                conditionals.append([m.group().strip()])
            elif word in (b"elif", b"else", b"elifdef", b"elifndef") and conditionals:
                if len(conditionals[-1]) == 1:
                    skipped += 1
                conditionals[-1].append(m.group().strip())
            elif word == b"endif" and conditionals:
                if len(conditionals.pop()) > 1:
                    skipped -= 1
            if not data[last:m.start()].strip():  # a directive inside a declaration does not end it
                last, last_kind = m.end(), b"#"
        elif kind == "comment":
            if not data[last:m.start()].strip():
                last = m.end()
        elif skipped:
            continue
        elif kind == "open":
            scope = SCOPE.search(data, max(0, m.start() - 200), m.start())
            if scope and not braces:
                scopes.append(scope.group().strip() + b" {")
            else:
                braces += 1
        elif kind == "close":
            if braces:
                braces -= 1
            elif scopes:
                scopes.pop()
            else:
                break  # more closing braces than opening ones: no cut after this can be trusted
            last, last_kind = m.end(), b"}"
        elif kind == "semi":
            last, last_kind = m.end(), b";"
    return out


def _ends_declaration(data: bytes, at: int, last_kind: bytes) -> bool:
    return last_kind != b"}" or DECLARATOR.match(data, at) is None


def _openers(conditionals: list[list[bytes]], scopes: list[bytes]) -> bytes:
    # directives first, then namespaces: a cut inside a namespace inside a conditional is the common case (an
    # include guard around a namespace); the other order only changes which lines a piece's parse sees first
    lines = [line for chain in conditionals for line in chain] + scopes
    return b"".join(line + b"\n" for line in lines)


def _closers(conditionals: list[list[bytes]], scopes: list[bytes]) -> bytes:
    return b"}\n" * len(scopes) + b"#endif\n" * len(conditionals)


Run = Callable[[bytes], tuple[Translation, list[Edit]]]  # text -> (its translation, the edits applied)
INCLUDE = re.compile(rb"^[ \t]*\#[ \t]*include\b[^\n]*\n", re.M)
# a #define, or a constant at namespace scope (constexpr int STAGE_BYTES = 96 * 1024;)
DEFINITION = re.compile(rb"^[ \t]*(?:\#[ \t]*define[ \t]+(\w+)(?:\\\r?\n|[^\n])*"
                        rb"|(?:static[ \t]+)?(?:constexpr|const)[ \t]+[\w:<> \t]*?(\w+)[ \t]*=[^;\n{]*;[ \t]*)\n", re.M)
DEFINES = PIECE // 2  # bytes of definitions carried at most: past that, a piece knows only its own


@dataclass
class Carried:
    """Translated lines put before every later piece: the file's head, an include or #define line of an earlier
    piece, or a block of lines the rules wrote there (a helper, declarations)."""
    text: bytes
    piece: int  # the output that holds them
    end: int  # where they end there
    source: int  # where they end in the file (where an insertion after them is said to be)
    line: int  # the file's line there


class Pieces:
    """The output of the pieces so far, one buffer (pieces held apart and joined at the end took the output's size
    twice), where each piece's output starts in it, and what is carried before the next."""

    def __init__(self, data: bytes):
        self.data = data
        self.out = io.BytesIO()
        self.starts: list[int] = []  # where each piece's output starts in `out`
        self.carried: list[Carried] = []
        self.macros: set[bytes] = set()
        self.defines = 0  # bytes of definitions carried
        self.lines: list[int] = [1]  # the file's line where each piece starts

    def add(self, output: bytes) -> None:
        """The next piece's output."""
        self.starts.append(self.out.seek(0, io.SEEK_END))
        self.out.write(output)

    def joined(self) -> bytes:
        """The whole output (BytesIO gives its buffer without a copy)."""
        return self.out.getvalue()

    def before(self, openers: bytes) -> bytes:
        return b"".join(c.text for c in self.carried) + b"\n" + openers

    def carry(self, piece: int, output: bytes, start: int, origin: int, edits: list[Edit], base: int) -> None:
        """What the rules wrote in `output` from `start` on as blocks of lines, and its include lines and
        definitions, that nothing carried has yet. `edits` made `output` from the text whose offset `base` is the
        output's start, and which starts at `origin` in the file."""
        blocks, moves, delta = [], [], 0  # moves: (output offset after an edit, bytes it added in all)
        for e in edits:
            text = encoded(e.text)
            at = e.start - base + delta
            delta += len(text) - (e.end - e.start)
            moves.append((at + len(text), delta))
            if at >= start and text.count(b"\n") > 1:
                blocks.append((at, at + len(text), origin + e.start - base))
        items = [(end, output[at:end], source) for at, end, source in blocks]
        outside = lambda m: not any(at <= m.start() < end for at, end, _ in blocks)  # noqa: E731
        items += [(m.end(), m.group(), None) for m in INCLUDE.finditer(output, start) if outside(m)]
        for m in DEFINITION.finditer(output, start):
            name = m.group(1) or m.group(2)
            if outside(m) and name not in self.macros and self.defines + len(m.group()) <= DEFINES:
                self.macros.add(name)
                self.defines += len(m.group())
                items.append((m.end(), m.group(), None))
        known = {c.text for c in self.carried} | set(INCLUDE.findall(self.carried[0].text))
        for end, text, source in sorted(items, key=lambda item: item[0]):
            if text not in known:
                known.add(text)
                if source is None:  # a line the rules did not write: back through the edits before it
                    before = bisect.bisect_right(moves, (end, float("inf"))) - 1
                    source = origin + end - (moves[before][1] if before >= 0 else 0)
                source = min(source, len(self.data))
                line = self.lines[piece] + self.data.count(b"\n", origin, source)
                self.carried.append(Carried(text, piece, end, source, line))

    def insert_after(self, at: int, edit: Edit) -> tuple[Edit, int] | None:
        """`edit`, an insertion at `at` of the carried text, made where that text is; the edit in the file's
        offsets and its line, or None when `at` is not the end of a carried item (only the whole file says where
        such an edit goes)."""
        offset = 0
        for i, c in enumerate(self.carried):
            offset += len(c.text)
            if offset == at:
                break
        else:
            return None
        text = encoded(edit.text)
        at = self.starts[c.piece] + c.end
        self.out.seek(at)
        rest = self.out.read()
        self.out.seek(at)
        self.out.write(text + rest)
        for later in range(c.piece + 1, len(self.starts)):
            self.starts[later] += len(text)
        for other in self.carried:
            if other.piece == c.piece and other.end > c.end:
                other.end += len(text)
        self.carried.insert(i + 1, Carried(text, c.piece, c.end + len(text), c.source, c.line))
        return Edit(c.source, c.source, edit.text), c.line


def translate(data: bytes, run: Run, piece: int = PIECE) -> Translation | None:
    """`data` translated piece by piece with `run`, or None when it must be translated whole."""
    head = HEAD.match(data).end()
    places = cuts(data, piece, after=head)
    if not places:
        return None
    bounds = [0, *(c.offset for c in places), len(data)]
    state = Pieces(data)
    first, edits = run(data[:bounds[1]] + places[0].closers)
    if any(e.end > bounds[1] or e.start < head < e.end for e in edits):
        return None
    translated_head = splice(data[:head], [e for e in edits if e.start <= head])
    output = first.data[:len(first.data) - len(places[0].closers)]
    state.add(output)
    head_line = data.count(b"\n", 0, head) + 1
    state.carried.append(Carried(translated_head, 0, len(translated_head), head, head_line))
    state.carry(0, output, len(translated_head), 0, edits, 0)
    # packed as they come: a huge file's findings as objects would take many times its size
    findings, unread = Packed(), []  # unread: the places of every piece's INP001, gathered as they come

    def keep(f: Finding) -> None:
        findings.add(f)
        if f.code == "INP001":
            unread.extend(f.detail)

    for f in first.findings:
        if _inside(f, 0, bounds[1], (0, _lines(data, 0, bounds[1]))):
            keep(f)
    line = data.count(b"\n", 0, bounds[1]) + 1
    for i, cut in enumerate(places):
        start, end = bounds[i + 1], bounds[i + 2]
        closers = places[i + 1].closers if i + 1 < len(places) else b""
        before = state.before(cut.openers)
        result, edits = run(before + data[start:end] + closers)
        placed = _placed(state, len(before), end - start, edits)
        if placed is None:
            return None  # the reopened scopes or the closing lines were edited: only the whole file says how
        grown = sum(len(encoded(e.text)) for e in placed)
        output = result.data[len(before) + grown:len(result.data) - len(closers)]
        state.add(output)
        skipped = before.count(b"\n")
        own = (len(before), len(before) + end - start, (skipped, skipped + _lines(data, start, end)))
        for f in result.findings:
            if _inside(f, *own) or f.fix is not None and any(e in placed for e in f.fix.edits):
                moved = _moved(f, start - len(before), line - 1 - skipped, placed, len(before))
                if moved is not None:
                    keep(moved)
        state.lines.append(line)
        state.carry(i + 1, output, 0, start, [e for e in edits if e.start >= len(before)], len(before))
        line += data.count(b"\n", start, end)
    return Translation(state.joined(), compact(_first_parse_error(findings, tuple(unread[:5]))))



def _lines(data: bytes, start: int, end: int) -> int:
    return data.count(b"\n", start, end) + (end > start and data[end - 1:end] != b"\n")


def _placed(state: Pieces, before: int, size: int, edits: list[Edit]) -> dict[Edit, tuple[Edit, int]] | None:
    """The piece's edits outside its own text, each an insertion after a carried item, made there: for each, the
    edit in the file's offsets and its line; None when one cannot be placed so."""
    outside = [e for e in edits if e.start < before or e.end > before + size]
    placed = {}
    for e in sorted(outside, key=lambda e: -e.start):  # the last first: an insertion moves only what follows it
        where = state.insert_after(e.start, e) if e.start == e.end and e.start < before else None
        if where is None:
            return None
        placed[e] = where
    return placed


def _inside(f: Finding, start: int, end: int, lines: tuple[int, int]) -> bool:
    """Whether `f` is the piece's: in [start, end) of the text its rules saw (an insertion at `end` included), or,
    for a finding about the input (its span is the file's start, its line says where), on lines (first, last]."""
    if is_input_finding(f):
        return lines[0] < f.span.line <= lines[1]
    return start <= f.span.start < end or (f.fix is not None and f.span.start == f.span.end == end)


def _moved(f: Finding, shift: int, lines: int, placed: dict, before: int) -> Finding | None:
    """`f` of a piece, placed in the whole file: `shift` bytes and `lines` lines further on, its edits where
    `placed` put them (None when some of its edits were placed there and some not)."""
    span = f.span
    if is_input_finding(f):
        if f.code == "INP001":
            f = with_places(f, tuple(_later(p, lines) for p in f.detail))
        return replace(f, span=replace(span, line=span.line + lines))
    start = span.start + shift
    moved = Span(span.path, start, span.end + shift if span.end != span.start else start, span.line + lines,
                 span.column)
    if f.fix is None:
        return replace(f, span=moved)
    if any(e in placed for e in f.fix.edits):
        if not all(e in placed for e in f.fix.edits):
            return None
        edits = tuple(placed[e][0] for e in f.fix.edits)
        if span.start < before:  # a finding about the insertion itself: where it went
            moved = Span(span.path, edits[0].start, edits[0].start, placed[f.fix.edits[0]][1], 1)
    else:
        edits = tuple(Edit(*((start, moved.end) if (e.start, e.end) == (span.start, span.end)
                             else (e.start + shift, e.end + shift)), e.text) for e in f.fix.edits)
    return replace(f, span=moved, fix=replace(f.fix, edits=edits))


def _later(place: str, lines: int) -> str:
    line, _, column = place.partition(":")
    return f"{int(line) + lines}:{column}"


def _first_parse_error(findings: Packed, places: tuple[str, ...]):
    """Each piece reports the places its parser could not read (INP001): the file says it once, at the first, with
    `places`, the first five places of all."""
    seen = False
    for f in findings:
        if f.code == "INP001":
            if seen:
                continue
            seen = True
            f = with_places(f, places)
        yield f
