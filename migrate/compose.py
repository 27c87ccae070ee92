"""Edits of several passes over one file, composed into edits of the original bytes.

When a fix writes text that another rule rewrites (a wrong port undone, `torch.hip` → `torch.cuda`, then made
device-generic by `--portable`), the rules run again on the output (migrate/fixing.py) until nothing changes. Each
pass's edits are in the coordinates of that pass's input; `Composition` keeps the changed regions in both the
original's and the current text's coordinates, merges a later edit with the regions it touches, and at the end
gives one edit per region of the original (its text taken from the final output) and maps later positions back
to the original, so findings and fixes always refer to the file as it is on disk.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from migrate.edits import decoded
from migrate.model import Edit


@dataclass
class Region:
    orig_start: int
    orig_end: int
    start: int  # in the current text
    end: int
    owners: set[int] = field(default_factory=set)  # the findings (by their order of arrival) whose edits made it


class Composition:
    def __init__(self) -> None:
        self.regions: list[Region] = []  # sorted, disjoint

    def original(self, pos: int) -> int:
        """Where a position of the current text lies in the original (the start of a changed region inside one)."""
        delta = 0
        for r in self.regions:
            if pos < r.start:
                break
            if pos <= r.end:
                return r.orig_start if pos < r.end or r.start == r.end else r.orig_end
            delta = r.end - r.orig_end
        return pos - delta

    def changed(self, orig: int) -> bool:
        """Whether a position of the original lies in a region some pass changed."""
        return any(r.orig_start <= orig < r.orig_end or orig == r.orig_start == r.orig_end for r in self.regions)

    def add(self, edits: list[tuple[Edit, int]]) -> None:
        """Apply one pass's edits (in the current text's coordinates, disjoint, each with its owner); an edit that
        several findings make alike (one helper inserted for each call) is applied once, as apply_fixes does."""
        alike: dict[tuple[int, int, str], tuple[Edit, set[int]]] = {}
        for e, o in edits:
            alike.setdefault((e.start, e.end, e.text), (e, set()))[1].add(o)
        items = sorted(alike.values(), key=lambda item: (item[0].start, item[0].end))
        clusters: list[tuple[int, int, list[Region], list[tuple[Edit, int]]]] = []
        pending = sorted([(r.start, r.end, r, None) for r in self.regions] +
                         [(e.start, e.end, None, (e, o)) for e, o in items], key=lambda t: (t[0], t[1]))
        for start, end, region, edit in pending:
            if clusters and start <= clusters[-1][1] and (edit is not None or clusters[-1][3]):
                s, e, rs, es = clusters[-1]
                clusters[-1] = (s, max(e, end), rs + ([region] if region else []), es + ([edit] if edit else []))
            else:
                clusters.append((start, end, [region] if region else [], [edit] if edit else []))
        merged: list[Region] = []
        shift = 0  # how far this pass's edits so far moved later text
        for start, end, regions, cluster_edits in clusters:
            growth = sum(len(e.text.encode("utf-8", "surrogateescape")) - (e.end - e.start) for e, _ in cluster_edits)
            if not cluster_edits:
                (r,) = regions
                merged.append(Region(r.orig_start, r.orig_end, r.start + shift, r.end + shift, r.owners))
                continue
            orig_start = min([r.orig_start for r in regions if r.start == start] or [self.original(start)])
            orig_end = max([r.orig_end for r in regions if r.end == end] or [self.original(end)])
            owners = {o for r in regions for o in r.owners}.union(*(o for _, o in cluster_edits))
            merged.append(Region(orig_start, orig_end, start + shift, end + shift + growth, owners))
            shift += growth
        self.regions = merged

    def edits(self, final: bytes) -> list[tuple[Edit, set[int]]]:
        """One edit of the original per changed region, with the findings that made it."""
        return [(Edit(r.orig_start, r.orig_end, decoded(final[r.start:r.end])), r.owners) for r in self.regions]
