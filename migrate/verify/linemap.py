"""Map a line of a migrated file back to the line of its original (migration edits within lines, adds an include
or drops one, so most lines map one to one).

difflib pairs the two files; inside a block of lines that differ, where the migration may also have added or
removed a line (`#include <cuda_bf16.h>` became the runtime include and `#include <hip/hip_bf16.h>`), the lines are
paired by how alike they are, in order, so that a compiler error on the rewritten include is reported on the
original include and not on the line after it.
"""
from __future__ import annotations

import difflib

MAX_CELLS = 4096  # above this many line pairs in one block, lines are paired by position (a rare, large rewrite)
ALIKE = 0.3  # the least similarity at which two lines are the same line, edited


def _similarity(a: bytes, b: bytes) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _pair(a: list[bytes], b: list[bytes]) -> list[int | None]:
    """For each line of b, the index of the line of a it is an edit of (None: an added line): the pairing in order
    with the greatest total similarity (a weighted longest common subsequence)."""
    n, m = len(a), len(b)
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            s = _similarity(a[i], b[j])
            best = max(score[i + 1][j], score[i][j + 1])
            if s >= ALIKE:
                best = max(best, s + score[i + 1][j + 1])
            score[i][j] = best
    out: list[int | None] = [None] * m
    i = j = 0
    while i < n and j < m:
        s = _similarity(a[i], b[j])
        if s >= ALIKE and abs(score[i][j] - (s + score[i + 1][j + 1])) < 1e-9:
            out[j] = i
            i, j = i + 1, j + 1
        elif score[i + 1][j] >= score[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


class LineMap:
    def __init__(self, original: bytes, migrated: bytes):
        a, b = original.splitlines(), migrated.splitlines()
        self._map: dict[int, int] = {}
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag == "replace" and (i2 - i1) != (j2 - j1) and (i2 - i1) * (j2 - j1) <= MAX_CELLS:
                self._map_block(a, b, i1, i2, j1, j2)
                continue
            for k in range(j2 - j1):
                # equal and replace blocks pair line by line; an inserted line maps to the line before it
                self._map[j1 + k + 1] = min(i1 + k, max(i2 - 1, i1)) + 1 if tag != "insert" else max(i1, 1)

    def _map_block(self, a: list[bytes], b: list[bytes], i1: int, i2: int, j1: int, j2: int) -> None:
        """A block whose line counts differ: each migrated line to the original line it is an edit of, and an added
        line to the original line it stands beside (the next paired one, else the block's last)."""
        pairs = _pair(a[i1:i2], b[j1:j2])
        following = i2 - 1
        for k in range(len(pairs) - 1, -1, -1):
            if pairs[k] is not None:
                following = i1 + pairs[k]
            self._map[j1 + k + 1] = (i1 + pairs[k] if pairs[k] is not None else following) + 1

    def original(self, migrated_line: int) -> int:
        return self._map.get(migrated_line, migrated_line)
