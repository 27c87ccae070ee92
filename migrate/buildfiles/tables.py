"""A build file's items (CMake commands, Makefile lines) kept as offsets and made when read.

A huge file never holds all its items as objects at once (they took 15 to 20 times its size); a file under
`KEEP_BELOW` keeps each one once made, since its rules read them over and over and making them again for each took
twice the time of its migration.
"""
from __future__ import annotations

from collections.abc import Sequence

KEEP_BELOW = 1 << 18


class OffsetTable(Sequence):
    """A sequence of the items `_make(i)` makes from the offsets the subclass stores for `data`."""

    data: bytes

    def __len__(self) -> int:
        raise NotImplementedError

    def _make(self, i: int):
        raise NotImplementedError

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._item(k) for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._item(i)

    def __iter__(self):
        return map(self._item, range(len(self)))

    def _item(self, i: int):
        if len(self.data) >= KEEP_BELOW:
            return self._make(i)
        kept = self.__dict__.setdefault("kept", [])
        if len(kept) < len(self):
            kept.extend([None] * (len(self) - len(kept)))
        if kept[i] is None:
            kept[i] = self._make(i)
        return kept[i]
