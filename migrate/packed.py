"""Many findings kept small: a file's findings packed in compressed blocks, made into Findings when read.

A finding with its span, fix and edits takes about 450 bytes of Python objects, so the 400,000 findings of a 20 MB
generated file took twenty times the file's size and dwarfed its text. A file with more than `PACK_ABOVE` findings
keeps them as a `Packed` sequence instead: each block of `BLOCK` findings is their wire tuples (migrate/wire.py)
marshalled and compressed (a file's findings repeat the same codes, messages and texts, so a block shrinks tenfold
and more). Reading makes the findings of one block at a time; they are equal to the ones packed, not the same
objects. Fewer findings stay a plain tuple.
"""
from __future__ import annotations

import marshal
import zlib
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain

from migrate.model import Finding
from migrate.wire import finding_fields, finding_from_fields

BLOCK = 2048  # findings per compressed block
PACK_ABOVE = 4096  # findings a file has before they are packed (tests set 0 to pack every file's)


class Packed(Sequence):
    """Findings in compressed blocks, in the order added; `add` and `extend` only at the end."""

    __slots__ = ("_blocks", "_rows")
    fields = staticmethod(finding_fields)  # an item as the plain tuple packed (a subclass may pack other items)
    made = staticmethod(finding_from_fields)  # the item again from its tuple

    def __init__(self, findings: Iterable[Finding] = ()):
        self._blocks: list[bytes] = []
        self._rows: list[tuple] = []  # the last block, not yet packed
        self.extend(findings)

    def add(self, f: Finding) -> None:
        self._rows.append(self.fields(f))
        if len(self._rows) == BLOCK:
            self._blocks.append(zlib.compress(marshal.dumps(self._rows), 1))
            self._rows = []

    def extend(self, findings: Iterable[Finding]) -> None:
        for f in findings:
            self.add(f)

    def drain(self) -> Iterator[Finding]:
        """The findings in order, each block let go once read: the store is empty after."""
        blocks, rows = self._blocks, self._rows
        self._blocks, self._rows = [], []
        for i in range(len(blocks)):
            block, blocks[i] = blocks[i], b""
            for row in marshal.loads(zlib.decompress(block)):
                yield self.made(row)
        for row in rows:
            yield self.made(row)

    def __len__(self) -> int:
        return len(self._blocks) * BLOCK + len(self._rows)

    def between(self, start: int, end: int) -> Iterator:
        """The items [start, end), in order, one block decoded at a time."""
        for i in range(start // BLOCK, (end - 1) // BLOCK + 1 if end > start else 0):
            rows = self._block(i)
            for row in rows[max(start - i * BLOCK, 0):end - i * BLOCK]:
                yield self.made(row)

    def _block(self, i: int) -> list:
        return marshal.loads(zlib.decompress(self._blocks[i])) if i < len(self._blocks) else self._rows

    def __iter__(self) -> Iterator[Finding]:
        for i in range(len(self._blocks) + 1):
            for row in self._block(i):
                yield self.made(row)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self)[i]
        n = len(self)
        if not -n <= i < n:
            raise IndexError("finding index out of range")
        i %= n
        return self.made(self._block(i // BLOCK)[i % BLOCK])

    def __eq__(self, other) -> bool:
        if not isinstance(other, (tuple, Packed)):
            return NotImplemented
        return same_items(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Packed({len(self)} findings)"


def same_items(a: Sequence, b: Sequence) -> bool:
    """Whether two sequences hold equal items in the same order (read once each, never made into tuples)."""
    return len(a) == len(b) and all(x == y for x, y in zip(a, b))


def compact(findings: Iterable[Finding]) -> Sequence[Finding]:
    """`findings` as a tuple, or packed when there are more than PACK_ABOVE (taken as they come: a generator's
    findings are never all held as objects)."""
    if isinstance(findings, Packed):
        return findings if len(findings) > PACK_ABOVE else tuple(findings)
    head: list[Finding] = []
    it = iter(findings)
    for f in it:
        head.append(f)
        if len(head) > PACK_ABOVE:
            packed = Packed(head)
            del head[:]
            packed.extend(it)
            return packed
    return tuple(head)


def joined(notes: list[Finding], findings: Sequence[Finding]) -> Sequence[Finding]:
    """A file's notes (input problems found reading it), then the findings of its rules: compact."""
    return compact(findings) if not notes else compact(chain(notes, findings))
