"""Map a line of a migrated file back to the line of its original (migration only edits within lines,
adds an include or drops one, so aligned lines map one to one)."""
from __future__ import annotations

import difflib


class LineMap:
    def __init__(self, original: bytes, migrated: bytes):
        a, b = original.splitlines(), migrated.splitlines()
        self._map: dict[int, int] = {}
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            for k in range(j2 - j1):
                # equal and replace blocks pair line by line; an inserted line maps to the line before it
                self._map[j1 + k + 1] = min(i1 + k, max(i2 - 1, i1)) + 1 if tag != "insert" else max(i1, 1)

    def original(self, migrated_line: int) -> int:
        return self._map.get(migrated_line, migrated_line)
