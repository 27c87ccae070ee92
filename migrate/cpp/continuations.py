"""Layout after the rules: keep the backslashes of multi-line macros in their column when renames change a line's
length, and take away the blanks a removal leaves at a line's end."""
from __future__ import annotations

import bisect
import re

from migrate.edits import encoded
from migrate.model import Edit

CONTINUED = re.compile(rb"\\(?=\r?\n|\r?\Z)")  # a backslash that ends a line


def realign(data: bytes, edits: list[Edit]) -> list[Edit]:
    """Whitespace edits that put each line's trailing `\\` back where it was, for lines whose renames
    made them shorter or longer. A line with no spare blanks before its backslash is left as it is.

    It walks the continued lines, not the edits: a file has thousands of renames and few such lines."""
    slashes = [m.start() for m in CONTINUED.finditer(data)]
    if not slashes or not edits:
        return []
    edits = sorted(edits, key=lambda e: (e.start, e.end))
    starts = [e.start for e in edits]
    ends = [e.end for e in edits]  # in order too: applied edits do not overlap
    # edits over several lines may reach into any line's blanks; they change no line's length
    spanning = {e for e in edits if "\n" in e.text or data.find(b"\n", e.start, e.end) >= 0}
    out = []
    for slash in slashes:
        line_start = data.rfind(b"\n", 0, slash) + 1
        line_end = data.find(b"\n", slash)
        line_end = len(data) if line_end < 0 else line_end
        on_line = edits[bisect.bisect_left(starts, line_start):bisect.bisect_right(starts, line_end)]
        delta = sum(len(encoded(e.text)) - (e.end - e.start) for e in on_line if e not in spanning)
        if delta == 0:
            continue
        blanks = slash
        while blanks > line_start and data[blanks - 1] in b" \t":
            blanks -= 1
        near = edits[bisect.bisect_left(ends, blanks):bisect.bisect_right(starts, slash)]
        if any(blanks <= e.start < slash or blanks < e.end <= slash or e.start <= slash < e.end for e in near):
            continue  # an edit touches the blanks or the backslash itself (one over several lines may cover it)
        if delta < 0:
            out.append(Edit(slash, slash, " " * -delta))
        elif slash - blanks > delta:  # keep at least one blank
            out.append(Edit(slash - delta, slash, ""))
    return out


def layout(data: bytes, edits: list[Edit]) -> list[Edit]:
    """The layout edits for the applied `edits`: `realign`'s, and `trailing_blanks`'."""
    return realign(data, edits) + trailing_blanks(data, edits)


def trailing_blanks(data: bytes, edits: list[Edit]) -> list[Edit]:
    """Edits that remove the blanks before a removal that ends its line (`#define CB CUDART_CB` without CUDART_CB
    leaves `#define CB `, which tree-sitter refuses and a second run would tidy), where no other edit touches them."""
    out = []
    taken = sorted((e.start, e.end) for e in edits)
    for e in edits:
        if e.text or e.start == e.end or data[e.end:e.end + 1] not in (b"\n", b"\r", b""):
            continue
        start = e.start
        while start > 0 and data[start - 1] in b" \t":
            start -= 1
        if start == e.start or data[start - 1:start] in (b"\n", b"\r", b""):
            continue  # nothing before it, or the whole line goes blank (a line of its own: the rule's to remove)
        i = bisect.bisect_left(taken, (start, start))
        if any(s < e.start and t > start for s, t in taken[max(0, i - 1):i + 1]):
            continue  # another edit reaches into those blanks
        out.append(Edit(start, e.start, ""))
    return out
