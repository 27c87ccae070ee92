"""A report section gathered in one reading of a migration's findings, then put in listing order (path, line,
column, code).

A section of few is a sorted tuple of Stored. One past PACK_ABOVE findings (a generated file's warnings by the hundred
thousand, which took several times the file's size as objects) is packed as they come (`Listed`), and put in order
by merging the ascending runs it came in (each rule's findings in a file come in order), every run read one block at
a time: the order is a stable sort's. Findings in more than MERGED_RUNS runs are sorted as objects.
"""
from __future__ import annotations

import heapq

from migrate import packed
from migrate.report.model import Listed, Stored

MERGED_RUNS = 16


def order(s: Stored) -> tuple:
    """The order findings are listed in: path, line, column, code."""
    f = s.finding
    return (f.span.path, f.span.line, f.span.column, f.code)


class Gathered:
    """One section's findings in the order read, and where each ascending run of them starts."""

    def __init__(self):
        self.items: list[Stored] = []
        self.store: Listed | None = None
        self.runs = [0]
        self.last: tuple | None = None

    def __len__(self) -> int:
        return len(self.store) if self.store is not None else len(self.items)

    def add(self, s: Stored) -> None:
        key = order(s)
        if self.last is not None and key < self.last:
            self.runs.append(len(self))
        self.last = key
        if self.store is not None:
            self.store.add(s)
        else:
            self.items.append(s)
            if len(self.items) > packed.PACK_ABOVE:
                self.store = Listed(self.items)
                self.items = []

    def listed(self) -> tuple[Stored, ...] | Listed:
        if self.store is None:
            return tuple(sorted(self.items, key=order))
        if len(self.runs) > MERGED_RUNS:
            return tuple(sorted(self.store, key=order))
        bounds = [*self.runs, len(self.store)]
        return Listed(heapq.merge(*(self.store.between(a, b) for a, b in zip(bounds, bounds[1:])), key=order))
