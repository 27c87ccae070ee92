"""The line diff of one file's migration, worked out once and read twice: by the effort estimate (how many
lines changed) and by the unified diff that `diff` prints and `run` keeps for the report.

A migration mostly rewrites lines in place, so when old and new have as many lines the diff pairs them line
by line and asks difflib only about the runs of lines that differ (where a line may have been removed and
another added). Otherwise difflib aligns the whole file, below the common head and tail."""
from __future__ import annotations

import difflib
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from itertools import chain

from migrate.pathnames import prefixed

CONTEXT = 3  # unchanged lines around each hunk, as diff -u

Opcode = tuple[str, int, int, int, int]  # difflib's: tag, old[i1:i2] becomes new[j1:j2]


# where str.splitlines ends a line of the text decoded with surrogate escapes: the ASCII breaks, and U+0085, U+2028
# and U+2029 in UTF-8 (their lead bytes are never inside another sequence, so each match is one decoded break)
LINE_END = re.compile(rb"\r\n|[\n\r\v\f\x1c\x1d\x1e]|\xc2\x85|\xe2\x80[\xa8\xa9]")


class Lines(Sequence):
    """A file's lines as bytes, ends kept, split where `str.splitlines(keepends=True)` splits its decoded text, each
    made when it is read: the file's bytes and an array of where its lines end, not an object per line nor a decoded
    copy (those took several times the file's size). A slice is a view of the same bytes."""

    def __init__(self, data: bytes, ends: array | None = None, first: int = 0, count: int | None = None):
        if ends is None:
            ends = array("i" if len(data) < 2**31 else "q", (m.end() for m in LINE_END.finditer(data)))
            if not ends or ends[-1] != len(data):
                ends.append(len(data))
            if not data:
                ends = array("i")
        self.data, self.ends, self.first = data, ends, first
        self.count = len(ends) - first if count is None else count

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        data, start = self.data, self.ends[self.first - 1] if self.first else 0
        for end in self.ends[self.first:self.first + self.count]:
            yield data[start:end]
            start = end

    def joined(self, index: int, count: int) -> bytes:
        """Lines index to index + count - 1 (those there are) as one bytes: a key for that run of lines, since the
        lines are split again only where they were."""
        return self._span(index, min(index + count, self.count) - 1)

    def _span(self, index: int, last: int) -> bytes:
        """Lines index to last (both in this view) as one bytes."""
        at = self.first + index
        return self.data[self.ends[at - 1] if at else 0:self.ends[self.first + last]]

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self.count)
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            return Lines(self.data, self.ends, self.first + start, max(0, stop - start))
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(index)
        return self._span(index, index)


def lines(data: bytes) -> Lines:
    return Lines(data)


def _range(start: int, stop: int) -> str:
    """A hunk's line range in unified-diff notation: 1-based first line, and the count unless it is 1 (an
    empty range names the line before it)."""
    count = stop - start
    if count == 1:
        return str(start + 1)
    return f"{start + 1 if count else start},{count}"


def _paired(old: list[str], new: list[str]) -> Iterator[Opcode]:
    """Opcodes of two lists of the same length: equal runs where the lines match at the same index, and each
    run of differing lines aligned on its own."""
    equal = bytearray(a == b for a, b in zip(old, new))
    i, n = 0, len(equal)
    while i < n:
        start = i
        same = equal[i]
        while i < n and equal[i] == same:
            i += 1
        if same:
            yield "equal", start, i, start, i
        elif i - start == 1:
            yield "replace", start, i, start, i
        else:
            yield from _aligned_apart(old, new, start, i, start, i)


def _common_ends(old: list[str], new: list[str]) -> tuple[int, int]:
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def opcodes(old: list[str], new: list[str]) -> Iterator[Opcode]:
    """A diff of `old` into `new` as difflib's opcodes, consecutive and covering both lists, made as they are read."""
    if len(old) == len(new):
        yield from _paired(old, new)
        return
    head, tail = _common_ends(old, new)
    if head:
        yield "equal", 0, head, 0, head
    if max(len(old), len(new)) - head - tail <= WHOLE:
        middle = difflib.SequenceMatcher(None, old[head:len(old) - tail], new[head:len(new) - tail]).get_opcodes()
        yield from ((tag, head + a1, head + a2, head + b1, head + b2) for tag, a1, a2, b1, b2 in middle)
    else:
        yield from _synced(old, new, head, len(old) - tail, head, len(new) - tail)
    if tail:
        yield "equal", len(old) - tail, len(old), len(new) - tail, len(new)


# difflib aligns a middle of up to this many lines whole; a longer one is walked (`_synced`): difflib's time grows
# with the square of the lines that repeat, and a 5 MB file of pasted code took a minute
WHOLE = 4000
WINDOW = 200  # lines looked ahead on each side for where the two files agree again
AGREE = 3  # lines that agree in a row: a place to go on from with some confidence


def _synced(old, new, i: int, i_end: int, j: int, j_end: int) -> Iterator[Opcode]:
    """Opcodes of old[i:i_end] against new[j:j_end] in one walk: equal runs as they come, and at each difference the
    nearest line within WINDOW lines that the two have in common again (`_resync`), the lines between aligned by
    difflib. Linear in the lines: at most WINDOW lines are looked at on each side for each difference."""
    while i < i_end and j < j_end:
        if old[i] == new[j]:
            a, b = i, j
            while i < i_end and j < j_end and old[i] == new[j]:
                i, j = i + 1, j + 1
            yield "equal", a, i, b, j
            continue
        di, dj = _resync(old, new, i, i_end, j, j_end)
        yield from _aligned_apart(old, new, i, i + di, j, j + dj)
        i, j = i + di, j + dj
    if i < i_end or j < j_end:
        yield from _aligned_apart(old, new, i, i_end, j, j_end)


def _resync(old, new, i: int, i_end: int, j: int, j_end: int) -> tuple[int, int]:
    """(lines of old, lines of new) to skip to the nearest place where the two agree again, the fewest in all, looking
    WINDOW lines ahead on each side: where AGREE lines agree (or the rest of both), else where one line does (a
    single common line such as "}" may be the wrong one); all WINDOW lines when none is there."""
    for lines, most in ((AGREE, 4), (1, 8)):  # the usual: lines renamed in place, a line or two added or removed
        for total in range(1, most + 1):
            for di in range(total + 1):
                if _agree(old, new, i + di, i_end, j + total - di, j_end, lines):
                    return di, total - di
    for width in (AGREE, 1):
        first: dict = {}
        for dj in range(min(WINDOW, j_end - j)):
            first.setdefault(_run(new, j + dj, min(width, j_end - j - dj)), dj)
        best = None
        for di in range(min(WINDOW, i_end - i)):
            if best is not None and di >= best[0] + best[1]:
                break
            dj = first.get(_run(old, i + di, min(width, i_end - i - di)))
            if dj is not None and (best is None or di + dj < best[0] + best[1]):
                best = (di, dj)
        if best is not None:
            return best
    return min(WINDOW, i_end - i), min(WINDOW, j_end - j)


def _run(lines, index: int, count: int):
    """`count` lines from `index` as a key: one bytes of a file's `Lines`, a tuple of a plain list's."""
    return lines.joined(index, count) if isinstance(lines, Lines) else tuple(lines[index:index + count])


def _agree(old, new, a: int, a_end: int, b: int, b_end: int, lines: int) -> bool:
    """Whether old from `a` and new from `b` agree for `lines` lines, or to the end of both."""
    if a >= a_end or b >= b_end:
        return False
    n = min(lines, a_end - a, b_end - b)
    if n < lines and a_end - a != b_end - b:
        return False
    return _run(old, a, n) == _run(new, b, n)


def _aligned_apart(old, new, i1: int, i2: int, j1: int, j2: int) -> list[Opcode]:
    """Opcodes of old[i1:i2] against new[j1:j2], which may differ in length, by difflib."""
    if i1 == i2 and j1 == j2:
        return []
    if i1 == i2:
        return [("insert", i1, i1, j1, j2)]
    if j1 == j2:
        return [("delete", i1, i2, j1, j1)]
    ops = difflib.SequenceMatcher(None, list(old[i1:i2]), list(new[j1:j2]), autojunk=False).get_opcodes()
    return [(tag, i1 + a1, i1 + a2, j1 + b1, j1 + b2) for tag, a1, a2, b1, b2 in ops]


Group = tuple[list[Opcode], int, int, list[Opcode]]  # a hunk: head + ops[a:b] + tail


def groups(ops: Sequence[Opcode], context: int = CONTEXT) -> Iterator[Group]:
    """The unified-diff hunks of `ops`, one at a time, each as the opcodes' index range it takes whole and the
    trimmed equal runs before and after (a file changed every few lines is one hunk of most of its opcodes: as a
    list it took several times the file's size). Each change has up to `context` equal lines around it; changes
    closer than 2 x `context` lines share a hunk."""
    head: list[Opcode] = []
    a = b = 0
    changed = False
    for k in range(len(ops)):
        tag, i1, i2, j1, j2 = ops[k]
        if tag != "equal":
            b, changed = k + 1, True
            continue
        if not head and a == b:  # equal lines before the first change: keep the last `context`
            lead = min(context, i2 - i1)
            head, a, b = ([("equal", i2 - lead, i2, j2 - lead, j2)] if lead else []), k + 1, k + 1
            continue
        if i2 - i1 > 2 * context:  # a long equal run closes the hunk and may open the next
            if changed:
                yield head, a, b, [("equal", i1, i1 + context, j1, j1 + context)]
            head, a, b, changed = [("equal", i2 - context, i2, j2 - context, j2)], k + 1, k + 1, False
        else:
            b = k + 1
    if changed:
        tail: list[Opcode] = []
        if ops[b - 1][0] == "equal":
            tag, i1, i2, j1, j2 = ops[b - 1]
            b -= 1
            keep = min(context, i2 - i1)
            if keep:
                tail = [(tag, i1, i1 + keep, j1, j1 + keep)]
        yield head, a, b, tail


def hunks(ops: Sequence[Opcode], context: int = CONTEXT) -> Iterator[list[Opcode]]:
    """The opcodes grouped into unified-diff hunks, one list at a time."""
    for head, a, b, tail in groups(ops, context):
        yield [*head, *(ops[k] for k in range(a, b)), *tail]


TAGS = ("equal", "replace", "delete", "insert")


class Opcodes(Sequence):
    """Opcodes five 32-bit integers each in one array (as tuples they took several times the file's size for a
    file changed on every other line), each made when it is read."""

    def __init__(self, ops: Iterable[Opcode]):
        self.flat = array("i")
        for tag, i1, i2, j1, j2 in ops:
            self.flat.extend((TAGS.index(tag), i1, i2, j1, j2))

    def __len__(self) -> int:
        return len(self.flat) // 5

    def __getitem__(self, k: int) -> Opcode:
        flat, at = self.flat, 5 * k
        if not 0 <= at < len(flat):
            raise IndexError(k)
        return TAGS[flat[at]], flat[at + 1], flat[at + 2], flat[at + 3], flat[at + 4]


class LineDiff:
    """The diff of two versions of a file: their lines (views of their bytes) and the opcodes."""

    def __init__(self, old: bytes, new: bytes):
        self.old, self.new = lines(old), lines(new)
        self._ops = Opcodes(opcodes(self.old, self.new))

    def ops(self) -> Iterator[Opcode]:
        return iter(self._ops)

    @cached_property
    def changed(self) -> int:
        """Lines rewritten, added or removed (a rewritten line counts once)."""
        return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in self.ops() if tag != "equal")

    def chunks(self, path: str) -> Iterator[str]:
        """The unified diff (`a/PATH`, `b/PATH`) in pieces of about CHUNK lines, made as they are read (a 20 MB file's
        diff is held whole only by whoever joins them)."""
        out: list[str] = [f"--- {prefixed('a/', path)}\n+++ {prefixed('b/', path)}\n"]
        started = False
        ops = self._ops
        for head, a, b, tail in groups(ops):
            started = True
            first, last = head[0] if head else ops[a], tail[-1] if tail else ops[b - 1]
            out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
            for tag, i1, i2, j1, j2 in chain(head, (ops[k] for k in range(a, b)), tail):
                if tag == "equal":
                    _write(out, " ", self.old[i1:i2])
                else:
                    _write(out, "-", self.old[i1:i2])
                    _write(out, "+", self.new[j1:j2])
                if len(out) > CHUNK:
                    yield "".join(out)
                    out = []
        if started and out:
            yield "".join(out)

    def unified(self, path: str) -> str:
        """The unified diff (`a/PATH`, `b/PATH`), each line ended; "" when nothing changed."""
        return "".join(self.chunks(path))


CHUNK = 2000  # lines of a unified diff's piece, about


def _write(out: list[str], mark: str, lines: Lines) -> None:
    for line in lines:
        text = line.decode("utf-8", "surrogateescape")
        out.append(mark + text if text.endswith("\n") else mark + text + "\n\\ No newline at end of file\n")
