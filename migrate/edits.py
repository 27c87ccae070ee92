"""The one place where edits are applied: sort them, refuse overlaps, splice the bytes."""
from __future__ import annotations

import bisect
from dataclasses import dataclass

from migrate.model import Edit, Finding


@dataclass(frozen=True)
class Applied:
    data: bytes
    edits: tuple[Edit, ...]  # every edit applied, sorted
    applied: tuple[Finding, ...]
    conflicts: tuple[Finding, ...]  # findings whose fix overlapped an earlier one and was not applied
    overlapped: tuple[Finding, ...] = ()  # for each conflict, the applied finding whose fix it overlapped


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.start == a.end or b.start == b.end:  # an insertion only clashes strictly inside a replacement
        point, other = (a, b) if a.start == a.end else (b, a)
        return other.start < point.start < other.end
    return a.start < b.end and b.start < a.end


def apply_fixes(data: bytes, findings: list[Finding]) -> Applied:
    """Apply the fix of each finding (in order of position); a fix that overlaps one already taken is
    left out whole and reported back as a conflict, with the finding whose fix it overlapped. An insertion that
    another fix already made, the same text at the same place, is made once: fixes that each need one block (a
    definition a file needs before its first use) all carry it and stay whole on their own."""
    accepted: list[tuple[int, int, int, Edit]] = []  # (start, is-replacement, order, edit), kept sorted
    owner: list[Finding] = []  # by order: the finding each accepted edit belongs to
    inserted: set[tuple[int, str]] = set()  # (place, text) of each accepted insertion
    applied, conflicts, overlapped = [], [], []
    ordered = sorted((f for f in findings if f.fix), key=lambda f: min((e.start for e in f.fix.edits), default=0))
    for finding in ordered:
        edits = tuple(e for e in finding.fix.edits if e.start != e.end or (e.start, e.text) not in inserted)
        clash = next((c for c in (_clashes(accepted, e) for e in edits) if c is not None), None)
        if clash is None and _overlapping(edits):  # its own edits overlap (a call rewritten inside another)
            conflicts.append(finding)
            overlapped.append(finding)
            continue
        if clash is not None:
            conflicts.append(finding)
            overlapped.append(owner[clash])
            continue
        for e in edits:
            bisect.insort(accepted, (e.start, e.end > e.start, len(accepted), e))
            owner.append(finding)
            if e.start == e.end:
                inserted.add((e.start, e.text))
        applied.append(finding)
    edits = [t[3] for t in accepted]
    return Applied(splice(data, edits), tuple(edits), tuple(applied), tuple(conflicts), tuple(overlapped))


def _overlapping(edits: tuple[Edit, ...]) -> bool:
    """Whether two of one fix's edits overlap (as `_clashes` judges it)."""
    if len(edits) < 2:
        return False
    taken: list[tuple[int, int, int, Edit]] = []
    for e in edits:
        if _clashes(taken, e) is not None:
            return True
        bisect.insort(taken, (e.start, e.end > e.start, len(taken), e))
    return False


def _clashes(accepted: list[tuple[int, int, int, Edit]], edit: Edit) -> int | None:
    """The order of an accepted edit that `edit` overlaps, None when none does. Accepted edits never overlap each
    other, so only the last one starting at or before `edit` and those starting inside it can clash."""
    i = bisect.bisect_right(accepted, (edit.start, True, len(accepted) + 1))
    if i > 0 and _overlaps(accepted[i - 1][3], edit):
        return accepted[i - 1][2]
    while i < len(accepted) and accepted[i][0] < max(edit.end, edit.start + 1):
        if _overlaps(accepted[i][3], edit):
            return accepted[i][2]
        i += 1
    return None


def splice(data: bytes, edits: list[Edit]) -> bytes:
    """Apply non-overlapping edits sorted by start (insertions before a replacement at the same start)."""
    pieces, pos = [], 0
    for e in edits:
        if e.start < pos:
            raise ValueError(f"overlapping edit at byte {e.start}")
        pieces.append(data[pos:e.start])
        pieces.append(encoded(e.text))
        pos = e.end
    pieces.append(data[pos:])
    return b"".join(pieces)


def decoded(data: bytes) -> str:
    """Source bytes as text for an edit: bytes that are not UTF-8 (a latin-1 file) become lone surrogates, which
    `splice` writes back as the same bytes. Text meant for people goes through `readable`."""
    return data.decode("utf-8", "surrogateescape")


def encoded(text: str) -> bytes:
    """The bytes an edit's text puts in the file: the inverse of `decoded`."""
    return text.encode("utf-8", "surrogateescape")


def readable(text: str) -> str:
    """`text` without the lone surrogates of `decoded` (each becomes "?"), fit to print, hash or store as JSON."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def line_start(data: bytes, at: int) -> int:
    """The offset where the line holding `at` starts."""
    return data.rfind(b"\n", 0, at) + 1


def next_line(data: bytes, at: int) -> int:
    """Just past the end of the line holding `at` (its newline included), or the end of the data."""
    newline = data.find(b"\n", at)
    return len(data) if newline < 0 else newline + 1
