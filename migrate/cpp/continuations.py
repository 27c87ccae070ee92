"""Keep the backslashes of multi-line macros in their column when renames change a line's length."""
from __future__ import annotations

from migrate.model import Edit


def realign(data: bytes, edits: list[Edit]) -> list[Edit]:
    """Whitespace edits that put each line's trailing `\\` back where it was, for lines whose renames
    made them shorter or longer. A line with no spare blanks before its backslash is left as it is."""
    delta_by_line: dict[int, int] = {}
    on_line: dict[int, list[Edit]] = {}  # the edits that start on each line
    spanning: list[Edit] = []  # edits over several lines, which may reach into any line's blanks
    for e in edits:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        on_line.setdefault(line_start, []).append(e)
        if b"\n" in data[e.start:e.end] or "\n" in e.text:
            spanning.append(e)
            continue  # a line added or removed: not a rename inside a line
        delta_by_line[line_start] = delta_by_line.get(line_start, 0) + len(e.text.encode()) - (e.end - e.start)
    out = []
    for line_start, delta in delta_by_line.items():
        if delta == 0:
            continue
        line_end = data.find(b"\n", line_start)
        line_end = len(data) if line_end < 0 else line_end
        body_end = line_end - 1 if line_end > line_start and data[line_end - 1:line_end] == b"\r" else line_end
        if body_end <= line_start or data[body_end - 1:body_end] != b"\\":
            continue
        slash = body_end - 1
        blanks = slash
        while blanks > line_start and data[blanks - 1:blanks] in (b" ", b"\t"):
            blanks -= 1
        if any(blanks <= e.start < slash or blanks < e.end <= slash for e in (*on_line[line_start], *spanning)):
            continue  # an edit touches the blanks themselves
        if delta < 0:
            out.append(Edit(slash, slash, " " * -delta))
        elif slash - blanks > delta:  # keep at least one blank
            out.append(Edit(slash - delta, slash, ""))
    return out
