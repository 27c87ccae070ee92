"""Keep the backslashes of multi-line macros in their column when renames change a line's length."""
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
