"""The line diff of one file's migration, worked out once (difflib) and read twice: by the effort estimate
(how many lines changed) and by the unified diff that `diff` prints and `run` keeps for the report."""
from __future__ import annotations

import difflib
from functools import cached_property

CONTEXT = 3  # unchanged lines around each hunk, as diff -u


def lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "surrogateescape").splitlines(keepends=True)


def _range(start: int, stop: int) -> str:
    """A hunk's line range in unified-diff notation: 1-based first line, and the count unless it is 1 (an
    empty range names the line before it)."""
    count = stop - start
    if count == 1:
        return str(start + 1)
    return f"{start + 1 if count else start},{count}"


class LineDiff:
    def __init__(self, old: bytes, new: bytes):
        self.old, self.new = lines(old), lines(new)
        self._matcher = difflib.SequenceMatcher(None, self.old, self.new)

    @cached_property
    def changed(self) -> int:
        """Lines rewritten, added or removed (a rewritten line counts once)."""
        return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in self._matcher.get_opcodes() if tag != "equal")

    def unified(self, path: str) -> str:
        """The unified diff (`a/PATH`, `b/PATH`), each line ended; "" when nothing changed."""
        out: list[str] = []
        for group in self._matcher.get_grouped_opcodes(CONTEXT):
            if not out:
                out += [f"--- a/{path}\n", f"+++ b/{path}\n"]
            out.append(f"@@ -{_range(group[0][1], group[-1][2])} +{_range(group[0][3], group[-1][4])} @@\n")
            for tag, i1, i2, j1, j2 in group:
                if tag == "equal":
                    out += [" " + line for line in self.old[i1:i2]]
                    continue
                out += ["-" + line for line in self.old[i1:i2]]
                out += ["+" + line for line in self.new[j1:j2]]
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out)
